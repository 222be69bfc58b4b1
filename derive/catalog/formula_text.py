"""Catalog formulas read without SymPy: their units checked, their names found, their canonical text.

Loading a catalog must not cost a SymPy expression per formula: building one runs SymPy's
assumption system on every node (a Max alone compares its arguments pairwise), about a
millisecond a relation. The loader instead walks each formula with the whitelist parser's own
walker (:mod:`derive.symbolic.expressions`, so what is allowed is decided in one place) over a small algebra of
:class:`Shape` values: the dimension of each sub-expression (a sum of unlike units refuses to
load), the quantities it names (and which of them occur outside ``ceil``/``floor``), exact
constants folded as fractions (for the walker's checks on exponents and division), and the
*canonical text*: the formula with aliases replaced by quantity ids and unit literals such as
``[MiB]`` by their exact factor. The catalog keeps that text; the SymPy expression is parsed
from it when a question first needs it (``records.catalog._LazySides``), by the same walker, so it is
the expression the text means.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Mapping

from ..errors import ExpressionError
from ..symbolic.dimensions import DIMENSIONLESS, Dimension
from ..symbolic.expressions import EQUALS, NUMBER_TEXT, Walker, comparison_parts, parse_tree

__all__ = ["DimensionMismatch", "Shape", "read_comparison", "read_equation", "read_expression"]

# binding strength, for the parentheses the canonical text needs
_ATOM, _POWER, _UNARY, _PRODUCT, _SUM = 5, 4, 3, 2, 1


class DimensionMismatch(Exception):
    """Terms with different dimensions met in one sum, max, min or power (``bytes + flops``)."""

    def __init__(self, text: str, dims: list[Dimension]) -> None:
        self.text = text
        self.dims = dims
        super().__init__(f"{text}: " + " vs ".join(d.unit_string() for d in dims))


@dataclass(frozen=True)
class Shape:
    """What the loader needs of a (sub-)expression, without building it."""

    text: str                       # canonical text, read back by the whitelist parser
    dims: Dimension | None          # None: a zero, which takes any unit (0 B is 0 s)
    exact: Fraction | None = None   # its value, when it is a rational constant
    symbolic: bool = False          # names a quantity or a unit
    names: frozenset[str] = frozenset()
    bare: frozenset[str] = frozenset()   # names occurring outside ceil/floor
    minmax: bool = False            # holds a max or min
    strength: int = _ATOM
    name: str | None = None         # the quantity id, when the expression is that name alone

    @property
    def is_zero(self) -> bool:
        return self.exact == 0


def quantity_shape(ident: str, dims: Dimension) -> Shape:
    """A quantity's name (the id it resolves to)."""
    names = frozenset((ident,))
    return Shape(ident, dims, None, True, names, names, name=ident)


def unit_shape(factor: Fraction, dims: Dimension) -> Shape:
    """A unit literal such as ``[MiB]``: its exact factor to base units, with the unit's dimension."""
    text = str(factor.numerator) if factor.denominator == 1 else f"({factor.numerator}/{factor.denominator})"
    return Shape(text, dims, None, True)


def _wrap(s: Shape, weaker_than: int) -> str:
    return f"({s.text})" if s.strength < weaker_than else s.text


def _same_dims(text: str, parts: list[Shape]) -> Dimension | None:
    dims = [p.dims for p in parts if p.dims is not None]
    if any(d != dims[0] for d in dims):
        raise DimensionMismatch(text, sorted(set(dims)))
    return dims[0] if dims else None


def _root(value: Fraction, k: int) -> Fraction | None:
    """The exact k-th root of a non-negative fraction, or None when it is irrational."""
    if value < 0:
        return None
    out = []
    for n in (value.numerator, value.denominator):
        r = round(n ** (1.0 / k)) if n < 2**1000 else None
        hit = next((c for c in (r - 1, r, r + 1) if c >= 0 and c ** k == n), None) if r is not None else None
        if hit is None:
            return None
        out.append(hit)
    return Fraction(out[0], out[1])


class _ShapeAlgebra:
    """The walker's algebra over :class:`Shape`: units checked, constants folded, text written."""

    @staticmethod
    def number(text: str, source: str) -> Shape:
        if not NUMBER_TEXT.match(text):
            raise ExpressionError(f"malformed number {text!r} in {source!r}", text=source)
        value = Fraction(text)
        return Shape(text, None if value == 0 else DIMENSIONLESS, value)

    @staticmethod
    def neg(s: Shape) -> Shape:
        exact = -s.exact if s.exact is not None else None
        return Shape(f"-{_wrap(s, _UNARY)}", s.dims, exact, s.symbolic, s.names, s.bare, s.minmax, _UNARY)

    @staticmethod
    def binary(op: str, a: Shape, b: Shape) -> Shape:
        names, bare = a.names | b.names, a.bare | b.bare
        symbolic, minmax = a.symbolic or b.symbolic, a.minmax or b.minmax
        exact: Fraction | None = None
        if op in "+-":
            text = f"{_wrap(a, _SUM)} {op} {_wrap(b, _SUM + (op == '-'))}"
            dims = _same_dims(text, [a, b])
            if a.exact is not None and b.exact is not None:
                exact = a.exact + b.exact if op == "+" else a.exact - b.exact
            if exact == 0:
                dims = None
            return Shape(text, dims, exact, symbolic, names, bare, minmax, _SUM)
        if op in ("*", "/"):
            text = f"{_wrap(a, _PRODUCT)} {op} {_wrap(b, _PRODUCT + (op == '/'))}"
            if a.is_zero or (b.is_zero and op == "*"):
                return Shape(text, None, Fraction(0), symbolic, names, bare, minmax, _PRODUCT)
            da = a.dims if a.dims is not None else DIMENSIONLESS
            db = b.dims if b.dims is not None else DIMENSIONLESS
            if a.exact is not None and b.exact is not None:
                exact = a.exact * b.exact if op == "*" else a.exact / b.exact
            dims = da * db if op == "*" else da / db
            return Shape(text, None if exact == 0 else dims, exact, symbolic, names, bare, minmax, _PRODUCT)
        # a power: a dimensionless base takes any dimensionless exponent; any other a rational one
        text = f"{_wrap(a, _POWER + 1)}**{_wrap(b, _POWER)}"
        if b.dims not in (None, DIMENSIONLESS):
            raise DimensionMismatch(text, [b.dims])
        base = a.dims if a.dims is not None else DIMENSIONLESS
        if base.is_dimensionless:
            dims = DIMENSIONLESS
        elif b.exact is None:
            raise DimensionMismatch(text, [base])
        else:
            dims = base ** b.exact
        if a.exact is not None and b.exact is not None:
            if b.exact.denominator == 1:
                if not (a.exact == 0 and b.exact < 0):
                    exact = a.exact ** int(b.exact)
            else:
                root = _root(a.exact, b.exact.denominator)
                exact = root ** b.exact.numerator if root is not None and (root or b.exact > 0) else None
        if a.is_zero and b.exact is not None and b.exact > 0:
            dims = None
        return Shape(text, dims, exact, symbolic, names, bare, minmax, _POWER)

    @staticmethod
    def call(fname: str, args: list[Shape]) -> Shape:
        text = f"{fname}({', '.join(a.text for a in args)})"
        names = frozenset().union(*(a.names for a in args))
        bare = frozenset().union(*(a.bare for a in args))
        symbolic = any(a.symbolic for a in args)
        minmax = any(a.minmax for a in args)
        values = [a.exact for a in args]
        known = all(v is not None for v in values)
        exact: Fraction | None = None
        if fname in ("max", "min", "Max", "Min"):
            dims = _same_dims(text, args)
            if known:
                exact = (max if fname.lower() == "max" else min)(values)   # type: ignore[type-var]
            return Shape(text, dims, exact, symbolic, names, bare, True)
        (arg,) = args
        if fname in ("ceil", "ceiling", "floor"):
            if arg.exact is not None:
                exact = Fraction(math.ceil(arg.exact) if fname != "floor" else math.floor(arg.exact))
            return Shape(text, arg.dims, exact, symbolic, names, frozenset(), minmax)
        if fname in ("sqrt", "cbrt"):
            k = 2 if fname == "sqrt" else 3
            dims = arg.dims ** Fraction(1, k) if arg.dims is not None else None
            if arg.exact is not None:
                exact = _root(arg.exact, k)
            return Shape(text, dims, exact, symbolic, names, bare, minmax)
        # log, log2, exp: of a pure number
        if arg.dims not in (None, DIMENSIONLESS):
            raise DimensionMismatch(text, [arg.dims])
        if arg.exact is not None:
            if fname == "exp" and arg.exact == 0:
                exact = Fraction(1)
            elif fname == "log" and arg.exact == 1:
                exact = Fraction(0)
            elif fname == "log2" and arg.exact > 0 and arg.exact.denominator == 1 \
                    and arg.exact.numerator & (arg.exact.numerator - 1) == 0:
                exact = Fraction(arg.exact.numerator.bit_length() - 1)
        return Shape(text, DIMENSIONLESS, exact, symbolic, names, bare, minmax)

    @staticmethod
    def rational(s: Shape) -> Fraction | None:
        return s.exact

    @staticmethod
    def symbolic(s: Shape) -> bool:
        return s.symbolic


SHAPES = _ShapeAlgebra()

Resolver = Callable[[str], Shape]
UnitReader = Callable[[str], Shape]


def read_expression(text: str, names: Resolver | Mapping[str, Shape] | None, what: str = "expression",
                    unit: UnitReader | None = None) -> Shape:
    """The :class:`Shape` of an expression (raises :class:`DimensionMismatch` when its units disagree)."""
    body = parse_tree(text, what)
    try:
        return Walker(text.strip(), names, what, unit, SHAPES).walk(body)
    except RecursionError as exc:
        raise ExpressionError(f"{what} is nested too deeply", text=text[:80]) from exc


def read_equation(text: str, names: Resolver, unit: UnitReader | None = None) -> tuple[Shape, Shape]:
    """The shapes of the two sides of ``lhs = rhs``."""
    parts = EQUALS.split(text)
    if len(parts) != 2:
        raise ExpressionError(f"an equation needs exactly one '=': {text!r}", text=text)
    return (read_expression(parts[0], names, "equation", unit), read_expression(parts[1], names, "equation", unit))


def read_comparison(text: str, names: Resolver, unit: UnitReader | None = None) -> tuple[Shape, str, Shape]:
    """The shapes of the two sides of ``lhs <= rhs`` (or ``>=``, ``<``, ``>``), and the operator."""
    body, op = comparison_parts(text)
    walker = Walker(text.strip(), names, "condition", unit, SHAPES)
    try:
        return walker.walk(body.left), op, walker.walk(body.comparators[0])
    except RecursionError as exc:
        raise ExpressionError("condition is nested too deeply", text=text[:80]) from exc


def dimension_or_zero(shape: Shape) -> Any:
    """The shape's dimension (a zero's is dimensionless)."""
    return shape.dims if shape.dims is not None else DIMENSIONLESS


# ---------------------------------------------------------------------------
# exact values of a formula's text, without SymPy


class Irrational(ExpressionError):
    """The formula's value is not a rational number at these inputs (a square root of a non-square)."""


class _ExactAlgebra:
    """The walker's algebra over exact rationals (:class:`~fractions.Fraction`, ints kept whole)."""

    @staticmethod
    def number(text: str, source: str) -> Fraction:
        if not NUMBER_TEXT.match(text):
            raise ExpressionError(f"malformed number {text!r} in {source!r}", text=source)
        return Fraction(text)

    @staticmethod
    def neg(v: Fraction) -> Fraction:
        return -v

    @staticmethod
    def binary(op: str, a: Fraction, b: Fraction) -> Fraction:
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op == "/":
            return a / b
        if b.denominator == 1:
            if a == 0 and b < 0:
                raise Irrational("a power of zero with a negative exponent")
            return Fraction(a) ** int(b)
        root = _root(Fraction(a), b.denominator)
        if root is None:
            raise Irrational("an irrational power")
        return root ** b.numerator

    @staticmethod
    def call(fname: str, args: list[Fraction]) -> Fraction:
        if fname in ("max", "Max"):
            return max(args)
        if fname in ("min", "Min"):
            return min(args)
        (arg,) = args
        if fname in ("ceil", "ceiling"):
            return Fraction(math.ceil(arg))
        if fname == "floor":
            return Fraction(math.floor(arg))
        if fname in ("sqrt", "cbrt"):
            root = _root(Fraction(arg), 2 if fname == "sqrt" else 3)
            if root is None:
                raise Irrational(f"an irrational {fname}")
            return root
        if fname == "exp" and arg == 0:
            return Fraction(1)
        if fname == "log" and arg == 1:
            return Fraction(0)
        if fname == "log2" and arg > 0 and arg.denominator == 1 and arg.numerator & (arg.numerator - 1) == 0:
            return Fraction(arg.numerator.bit_length() - 1)
        raise Irrational(f"{fname} of {arg}")

    @staticmethod
    def rational(v: Fraction) -> Fraction:
        return v

    @staticmethod
    def symbolic(v: Fraction) -> bool:
        return False


_EXACT = _ExactAlgebra()


def exact_value_of_text(text: str, values: Mapping[str, Fraction]) -> Fraction:
    """The exact value of a formula's text (a catalog expression's canonical text, or SymPy's ``str``
    of one) at ``values`` by name, with no SymPy object built; raises :class:`Irrational` when it is
    not rational there and :class:`~derive.ExpressionError` for a name without a value."""
    body = parse_tree(text, "formula")
    try:
        return Fraction(Walker(text.strip(), dict(values), "formula", None, _EXACT).walk(body))
    except (ZeroDivisionError, OverflowError) as exc:
        raise Irrational(str(exc)) from None
    except RecursionError as exc:
        raise ExpressionError("formula is nested too deeply", text=text[:80]) from exc
