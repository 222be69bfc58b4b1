"""A whitelist parser from text to SymPy: the only way text becomes an expression.

Catalog equations, conditions and user-typed values are parsed with Python's
``ast`` module (which only parses; it runs nothing) and then walked node by
node: numbers, names of catalog quantities, ``+ - * / **``, parentheses, a short
list of functions and, for conditions, one comparison. Anything else (attribute
access, subscripts, lambdas, comprehensions, calls of other names, strings) is
refused with an :class:`ExpressionError`. ``eval``, ``sympify`` and
``parse_expr`` are never applied to text.

Numbers become exact SymPy rationals read from their source text (``3.35`` is
335/100, not the nearest float). Exponents are bounded so that ``9**9**9``
is refused instead of computed.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Mapping

from ..errors import ExpressionError

if TYPE_CHECKING:  # SymPy is imported when an expression is built, not to read a formula's text
    import sympy

__all__ = ["Comparison", "comparison_parts", "parse_comparison", "parse_expression", "parse_number",
           "written_order"]

MAX_TEXT = 2000          # characters in one expression
MAX_NODES = 400          # AST nodes in one expression
MAX_EXPONENT = 4096      # |n| in x**n for a literal exponent
MAX_MAGNITUDE_DIGITS = 400  # a literal number with more digits than this is refused

# the functions a formula may call; Max, Min and ceiling are the spellings SymPy's str() gives
FUNCTIONS = frozenset({"sqrt", "cbrt", "max", "min", "ceil", "floor", "log", "log2", "exp", "Max", "Min", "ceiling"})


@lru_cache(maxsize=1)
def _sympy_functions() -> dict[str, Callable[..., "sympy.Expr"]]:
    import sympy

    return {"sqrt": sympy.sqrt, "cbrt": lambda x: sympy.root(x, 3), "max": sympy.Max, "min": sympy.Min,
            "ceil": sympy.ceiling, "floor": sympy.floor, "log": sympy.log, "log2": lambda x: sympy.log(x, 2),
            "exp": sympy.exp, "Max": sympy.Max, "Min": sympy.Min, "ceiling": sympy.ceiling}
_ARITY = {"sqrt": 1, "cbrt": 1, "ceil": 1, "ceiling": 1, "floor": 1, "log": 1, "log2": 1, "exp": 1}

NUMBER_TEXT = re.compile(r"^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
_COMPARE = {ast.LtE: "<=", ast.GtE: ">=", ast.Lt: "<", ast.Gt: ">"}
EQUALS = re.compile(r"(?<![<>=!])=(?!=)")


@dataclass(frozen=True)
class Comparison:
    """``lhs op rhs`` with op one of ``<= >= < >``."""

    lhs: sympy.Expr
    op: str
    rhs: sympy.Expr


def _number_from_text(text: str, source: str) -> "sympy.Rational":
    import sympy

    if not NUMBER_TEXT.match(text):
        raise ExpressionError(f"malformed number {text!r} in {source!r}", text=source)
    mantissa, _, exponent = text.lower().partition("e")
    too_long = len(mantissa.replace(".", "")) > MAX_MAGNITUDE_DIGITS
    if too_long or (exponent and abs(int(exponent)) > MAX_MAGNITUDE_DIGITS):
        raise ExpressionError(f"number {text!r} is out of range", text=source)
    return sympy.Rational(text)


class _SympyAlgebra:
    """What the walker builds by default: SymPy expressions."""

    @staticmethod
    def number(text: str, source: str) -> sympy.Expr:
        return _number_from_text(text, source)

    @staticmethod
    def neg(value: sympy.Expr) -> sympy.Expr:
        return -value

    @staticmethod
    def binary(op: str, left: sympy.Expr, right: sympy.Expr) -> sympy.Expr:
        if op == "+":
            return left + right
        if op == "-":
            return left - right
        if op == "*":
            return left * right
        if op == "/":
            return left / right
        return left ** right

    @staticmethod
    def call(fname: str, args: list) -> sympy.Expr:
        return _sympy_functions()[fname](*args)

    @staticmethod
    def rational(value: sympy.Expr) -> Fraction | None:
        """The value as an exact fraction when it is a rational number, else None."""
        return Fraction(int(value.p), int(value.q)) if value.is_Rational else None

    @staticmethod
    def symbolic(value: sympy.Expr) -> bool:
        return bool(value.free_symbols)


SYMPY = _SympyAlgebra()
_BINARY = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}


class Walker:
    """Walks the parsed text, refusing what the whitelist does not allow, and builds a value of the
    ``algebra`` from it: SymPy expressions, or (``_formula_text``) the text's units and canonical form
    without SymPy. What is allowed is decided here, once, for every algebra."""

    def __init__(self, text: str, names: Mapping[str, Any] | Callable[[str], Any] | None,
                 what: str, unit: Callable[[str], Any] | None = None, algebra: Any = SYMPY) -> None:
        self.text = text
        self.names = names
        self.what = what
        self.unit = unit
        self.algebra = algebra
        self.nodes = 0

    def fail(self, why: str) -> ExpressionError:
        return ExpressionError(f"{why} in {self.what} {self.text!r}", text=self.text)

    def name(self, ident: str) -> Any:
        if self.names is None:
            raise self.fail(f"a name ({ident}) is not allowed here; give a number with a unit")
        if callable(self.names):
            return self.names(ident)
        sym = self.names.get(ident)
        if sym is None:
            raise self.fail(f"unknown name {ident!r}")
        return sym

    def walk(self, node: ast.AST) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.fail("expression is too long")
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
                raise self.fail(f"{type(node.value).__name__} literals are not allowed")
            segment = ast.get_source_segment(self.text, node) or repr(node.value)
            return self.algebra.number(segment.replace("_", ""), self.text)
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.List) and len(node.elts) == 1 and self.unit is not None:
            # a unit literal such as [FLOP] or [MiB], allowed in catalog equations
            segment = ast.get_source_segment(self.text, node) or ""
            return self.unit(segment[1:-1].strip())
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner = self.walk(node.operand)
            return self.algebra.neg(inner) if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.BinOp):
            return self.sized(self.binop(node))
        if isinstance(node, ast.Call):
            if not isinstance(node.func, (ast.Name, ast.Attribute)):
                # 2(x) or (a)(b): a number or a bracket before '(' is no function
                raise self.fail("a number or a bracket directly before '(' is not a function; write * to multiply")
            if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
                allowed = ", ".join(sorted(FUNCTIONS))
                raise self.fail(f"only these functions are allowed: {allowed}")
            if node.keywords:
                raise self.fail("keyword arguments are not allowed")
            fname = node.func.id
            args = [self.walk(a) for a in node.args]
            want = _ARITY.get(fname)
            if (want is not None and len(args) != want) or (want is None and len(args) < 2):
                raise self.fail(f"{fname}() takes {want or 'at least 2'} argument(s)")
            return self.algebra.call(fname, args)
        raise self.fail(f"{type(node).__name__} is not allowed")

    def binop(self, node: ast.BinOp) -> Any:
        left = self.walk(node.left)
        right = self.walk(node.right)
        op = _BINARY.get(type(node.op))
        if op is None:
            raise self.fail(f"operator {type(node.op).__name__} is not allowed (use + - * / **)")
        if op == "/" and self.algebra.rational(right) == 0:
            raise self.fail("division by zero")
        if op == "**":
            return self.power(left, right)
        return self.algebra.binary(op, left, right)

    def sized(self, value: Any) -> Any:
        """Refuse an exact number whose numerator or denominator has too many digits to compute with."""
        exact = self.algebra.rational(value)
        if exact is not None and _digits(exact) > MAX_MAGNITUDE_DIGITS:
            raise self.fail(f"number is out of range (more than {MAX_MAGNITUDE_DIGITS} digits; write e.g. 1.5e9)")
        return value

    def power(self, base: Any, exponent: Any) -> Any:
        exact = self.algebra.rational(exponent)
        if exact is not None:
            if abs(exact) > MAX_EXPONENT:
                raise self.fail(f"exponent {_fraction_text(exact)} is too large")
            number = self.algebra.rational(base)
            if number is not None and number != 0 and exact.denominator == 1:
                # bound the size of the result before computing it: the digits of the numerator
                # and the denominator, not just the magnitude ((1+10**-400)**4096 is close to 1)
                digits = abs(float(exact)) * _digits(number)
                if digits > MAX_MAGNITUDE_DIGITS:
                    raise self.fail(f"number is out of range (more than {MAX_MAGNITUDE_DIGITS} digits; "
                                    "write e.g. 1.5e9)")
            return self.algebra.binary("**", base, exponent)
        if self.algebra.symbolic(exponent):
            return self.algebra.binary("**", base, exponent)
        raise self.fail("exponent must be a number")


def _fraction_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _digits(value: Fraction) -> float:
    """Decimal digits of the larger of the numerator and denominator of an exact number."""
    return math.log10(max(abs(value.numerator), value.denominator, 1))


def parse_tree(text: str, mode_what: str) -> ast.AST:
    """``text`` parsed by Python's ``ast`` (which only parses), within the length limit; what the tree
    may hold is the :class:`Walker`'s to decide."""
    if not isinstance(text, str):
        raise ExpressionError(f"{mode_what} must be text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise ExpressionError(f"{mode_what} is too long ({len(text)} characters; at most {MAX_TEXT})",
                              text=text[:80])
    if not text.strip():
        raise ExpressionError(f"empty {mode_what}", text=text)
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError) as exc:
        why = ("unbalanced parentheses" if text.count("(") != text.count(")")
               else "too deeply nested" if isinstance(exc, (MemoryError, RecursionError))
               else "not an arithmetic expression")
        raise ExpressionError(f"malformed {mode_what} {text!r}: {why}", text=text) from exc
    return tree.body


def parse_expression(text: str, names: Mapping[str, sympy.Symbol] | Callable[[str], sympy.Symbol] | None = None,
                     what: str = "expression", unit: Callable[[str], sympy.Expr] | None = None) -> sympy.Expr:
    """Parse arithmetic over ``names`` into a SymPy expression (no names: a pure number).

    ``unit`` turns a bracketed unit literal such as ``[FLOP]`` into an expression;
    without it, brackets are refused.
    """
    body = parse_tree(text, what)
    try:
        return Walker(text.strip(), names, what, unit).walk(body)
    except RecursionError as exc:
        raise ExpressionError(f"{what} is nested too deeply", text=text[:80]) from exc


def parse_number(text: str) -> sympy.Rational:
    """Parse a numeric expression such as ``4096``, ``1.97e14``, ``128*1024`` or ``2**30`` exactly."""
    value = parse_expression(text, None, "number")
    if not value.is_Rational:
        raise ExpressionError(f"{text!r} is not a rational number", text=text)
    return value


def parse_comparison(text: str, names: Mapping[str, sympy.Symbol] | Callable[[str], sympy.Symbol],
                     unit: Callable[[str], sympy.Expr] | None = None) -> Comparison:
    """Parse ``lhs <= rhs`` (or ``>=``, ``<``, ``>``) into a :class:`Comparison`."""
    body, op = comparison_parts(text)
    walker = Walker(text.strip(), names, "condition", unit)
    try:
        lhs = walker.walk(body.left)
        rhs = walker.walk(body.comparators[0])
    except RecursionError as exc:
        raise ExpressionError("condition is nested too deeply", text=text[:80]) from exc
    return Comparison(lhs, op, rhs)


def comparison_parts(text: str) -> tuple[ast.Compare, str]:
    """The parsed comparison ``lhs op rhs`` and its operator; refuses anything else."""
    body = parse_tree(text, "condition")
    if not isinstance(body, ast.Compare) or len(body.ops) != 1 or type(body.ops[0]) not in _COMPARE:
        raise ExpressionError(f"a condition needs exactly one of <=, >=, <, >: {text!r}", text=text)
    return body, _COMPARE[type(body.ops[0])]


# ---------------------------------------------------------------------------
# the order a text writes its sums and products in


def written_order(text: str, names: Mapping[str, sympy.Symbol] | Callable[[str], sympy.Symbol],
                  unit: Callable[[str], sympy.Expr] | None = None,
                  finish: Callable[[sympy.Expr], sympy.Expr] | None = None) -> tuple[tuple[str, tuple], ...]:
    """Each sum and product of an equation, condition or expression, with its operands in written order.

    SymPy keeps ``w + g + o`` as ``g + o + w`` and ``n*D*F*b`` as ``F*D*n*b``; a printer that is given
    these chains writes them as the text does. A chain is ``("+", terms)`` or ``("*", factors)``, each
    operand the expression SymPy makes of it (a subtracted term negated, a divisor as its reciprocal,
    the numbers of a product multiplied into one coefficient in front); ``finish`` is applied to each
    operand (the loader's unit literals become numbers). Only the whitelist parser reads the text.
    """
    out: list[tuple[str, tuple]] = []
    for part in _sides(text):
        body = parse_tree(part, "expression")
        walker = Walker(part.strip(), names, "expression", unit)
        _Chains(walker, finish or (lambda e: e), out).visit(body)
    return tuple(out)


def _sides(text: str) -> list[str]:
    """The sides of ``lhs = rhs`` or ``lhs <= rhs`` (one comparison, as the parsers allow), or the text."""
    parts = EQUALS.split(text)
    if len(parts) == 2:
        return parts
    sides = re.split(r"<=|>=|<|>", text)
    return sides if len(sides) == 2 else [text]


class _Chains:
    def __init__(self, walker: Walker, finish: Callable[[sympy.Expr], sympy.Expr],
                 out: list[tuple[str, tuple]]) -> None:
        self.walker, self.finish, self.out = walker, finish, out

    def value(self, node: ast.AST) -> sympy.Expr:
        self.walker.nodes = 0           # the text parsed whole already; each operand is walked afresh
        return self.finish(self.walker.walk(node))

    def visit(self, node: ast.AST) -> None:
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            terms = _terms(node)
            values = tuple(self.value(n) * sign for n, sign in terms)
            self.out.append(("+", values))
            for n, _ in terms:
                self.visit(n)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div)):
            import sympy

            factors = _factors(node)
            coeff: sympy.Expr = sympy.S.One
            rest = []
            for n, power in factors:
                number, v = self.value(n).as_coeff_Mul()      # -a is the coefficient -1 and a
                coeff *= number if power == 1 else 1 / number
                if v != 1:
                    rest.append(v if power == 1 else 1 / v)
            self.out.append(("*", tuple(([coeff] if coeff != 1 else []) + rest)))
            for n, _ in factors:
                self.visit(n)
        else:
            for child in ast.iter_child_nodes(node):
                self.visit(child)


def _terms(node: ast.AST, sign: int = 1) -> list[tuple[ast.AST, int]]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        right = sign if isinstance(node.op, ast.Add) else -sign
        return _terms(node.left, sign) + _terms(node.right, right)
    return [(node, sign)]


def _factors(node: ast.AST, power: int = 1) -> list[tuple[ast.AST, int]]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div)):
        right = power if isinstance(node.op, ast.Mult) else -power
        return _factors(node.left, power) + _factors(node.right, right)
    return [(node, power)]
