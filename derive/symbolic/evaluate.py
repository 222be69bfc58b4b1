"""Exact evaluation of an expression at rational values, without rebuilding SymPy trees.

Substituting values into a SymPy expression (``xreplace``) builds a new tree and runs
SymPy's assumption system on every node: milliseconds for a catalog formula. A question
of a shape already solved only needs the solved formulas evaluated at new values, so
:func:`compiled` turns an expression once into a tree of Python closures over
:class:`~fractions.Fraction` (sums, products, whole powers, ``Max``/``Min``,
``ceiling``/``floor``), and :func:`rational_value` evaluates it exactly. Anything not
rational on the way (a square root of a non-square, a logarithm) raises
:class:`NotRational`, and the caller substitutes with SymPy instead. Nothing is ``exec``'d.

Compiled forms depend only on the expression, so they are kept in a bounded
least-recently-used table (like SymPy's own cache of expressions).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Callable, Mapping

import sympy

__all__ = ["Compiled", "NotRational", "compiled", "exact_env", "exact_number", "exact_value", "rational_value",
           "sign_of", "sympy_number", "value_at"]

Exact = int | Fraction          # whole numbers stay ints: no gcd on every product
Env = Mapping[str, Exact]
MAX_EXPONENT = 10_000
Fn = Callable[[Env], Exact]


class NotRational(Exception):
    """The expression is not rational at these values (or uses what the compiler does not know)."""


class Compiled:
    """An expression as a function of its symbols' values (by name), exact over the rationals."""

    __slots__ = ("symbols", "_fn")

    def __init__(self, symbols: tuple[sympy.Symbol, ...], fn: Fn) -> None:
        self.symbols = symbols
        self._fn = fn

    def __call__(self, env: Env) -> Exact:
        return self._fn(env)


def _rational_power(base: Exact, exp: Exact) -> Exact:
    if abs(exp.numerator) > MAX_EXPONENT:
        raise NotRational("a power too large to expand exactly here")
    if exp.denominator == 1:
        if base == 0 and exp < 0:
            raise NotRational("division by zero")
        k = int(exp)
        return base ** k if k >= 0 else Fraction(1) / base ** -k     # never int ** -k, a float
    if base < 0:
        raise NotRational("a fractional power of a negative number")
    root = exp.denominator
    num, den = _exact_root(base.numerator, root), _exact_root(base.denominator, root)
    if num is None or den is None:
        raise NotRational("an irrational root")
    return Fraction(num, den) ** exp.numerator


def _exact_root(n: int, k: int) -> int | None:
    if n < 0:
        return None
    r = round(n ** (1.0 / k)) if n < 2**1000 else None
    if r is None:
        return None
    for c in (r - 1, r, r + 1):
        if c >= 0 and c ** k == n:
            return c
    return None


def _build(expr: sympy.Basic) -> Fn:
    if expr.is_Symbol:
        name = expr.name

        def symbol(env: Env) -> Exact:
            return env[name]
        return symbol
    if expr.is_Rational:
        value = _exact(expr)
        return lambda env: value
    if expr.is_Add:
        first, *parts = [_build(a) for a in expr.args]

        def total(env: Env) -> Exact:
            out = first(env)            # not 0 + ...: an int meeting a Fraction costs a reflected operation
            for f in parts:
                out += f(env)
            return out
        return total
    if expr.is_Mul:
        first, *factors = [_build(a) for a in expr.args]

        def product(env: Env) -> Exact:
            out = first(env)
            for f in factors:
                out *= f(env)
            return out
        return product
    if expr.is_Pow:
        base, exp = _build(expr.base), _build(expr.exp)
        return lambda env: _rational_power(base(env), exp(env))
    if isinstance(expr, (sympy.Max, sympy.Min)):
        parts = [_build(a) for a in expr.args]
        pick = max if isinstance(expr, sympy.Max) else min
        return lambda env: pick(f(env) for f in parts)
    if isinstance(expr, (sympy.ceiling, sympy.floor)):
        inner = _build(expr.args[0])
        rounding = math.ceil if isinstance(expr, sympy.ceiling) else math.floor
        return lambda env: rounding(inner(env))
    raise NotRational(f"cannot evaluate {type(expr).__name__} exactly over the rationals")


@lru_cache(maxsize=4096)
def compiled(expr: sympy.Basic) -> Compiled | None:
    """``expr`` compiled, or None when it uses something other than rational arithmetic."""
    try:
        fn = _build(expr)
    except (NotRational, RecursionError):
        return None
    return Compiled(tuple(expr.free_symbols), fn)


def _exact(v: sympy.Rational) -> Exact:
    return int(v.p) if v.q == 1 else Fraction(int(v.p), int(v.q))


def sympy_number(v: Exact) -> sympy.Rational:
    """An exact Python number as SymPy's (an Integer for a whole number)."""
    if v.denominator == 1:
        return sympy.Integer(int(v))
    return sympy.Rational(v.numerator, v.denominator)


def rational_value(expr: sympy.Basic, values: Mapping[str, Exact]) -> Exact:
    """``expr`` at ``values`` (by symbol name), exactly; :class:`NotRational` when it is not rational there
    or a symbol has no value (KeyError is not raised)."""
    fn = compiled(expr)
    if fn is None:
        raise NotRational("not compiled")
    try:
        return fn(values)
    except KeyError as exc:
        raise NotRational(f"no value for {exc}") from None
    except (ZeroDivisionError, OverflowError) as exc:
        raise NotRational(str(exc)) from None


def exact_number(v: sympy.Expr) -> Exact | None:
    """A rational SymPy number as an exact Python number; None for any other value (a root)."""
    return _exact(v) if getattr(v, "is_Rational", False) else None


def exact_env(values: Mapping[str, sympy.Expr]) -> dict[str, Exact]:
    """The rational ones of ``values`` (by name) as exact Python numbers, for :func:`exact_value`."""
    return {name: _exact(v) for name, v in values.items() if getattr(v, "is_Rational", False)}


def exact_value(expr: sympy.Basic, env: Mapping[str, Exact]) -> Exact | None:
    """``expr`` at ``env`` over the rationals, with no SymPy number built; None when it is not
    rational there, uses what the compiler does not know, or a symbol has no value."""
    fn = compiled(expr)
    if fn is None:
        return None
    try:
        return fn(env)
    except (KeyError, NotRational, ZeroDivisionError, OverflowError):
        return None


def sign_of(value: Exact) -> int:
    return (value > 0) - (value < 0)


def value_at(expr: sympy.Expr, nmap: Mapping[sympy.Symbol, sympy.Expr]) -> sympy.Expr | None:
    """``expr`` with the values of ``nmap`` put in, exactly; None when a symbol of it has no value.

    Rational values go through the compiled form; anything else through SymPy's ``xreplace``.
    """
    fn = compiled(expr)
    if fn is not None:
        env: dict[str, Exact] = {}
        try:
            for sym in fn.symbols:
                v = nmap[sym]
                if not v.is_Rational:
                    break
                env[sym.name] = _exact(v)
            else:
                return sympy_number(fn(env))
        except KeyError:
            return None
        except (NotRational, ZeroDivisionError, OverflowError):
            pass
    free = expr.free_symbols
    if not all(s in nmap for s in free):
        return None
    value = expr.xreplace({s: nmap[s] for s in free}) if free else expr
    return _whole_log_ratio(value) if value.has(sympy.log) else value


def _whole_log_ratio(value: sympy.Expr) -> sympy.Expr:
    """``log(a)/log(b)`` with rational ``a = b^k`` for a whole ``k`` (how many draft tokens give this
    expected count) as ``k`` itself, proven exactly; anything else unchanged."""
    num, den = sympy.fraction(value)
    if not (isinstance(num, sympy.log) and isinstance(den, sympy.log)):
        return value
    a, b = num.args[0], den.args[0]
    if not (a.is_Rational and b.is_Rational and a > 0 and b > 0 and b != 1):
        return value
    k = int(round(float(value.evalf(30))))
    if abs(k) <= MAX_EXPONENT and b ** k == a:
        return sympy.Integer(k)
    return value
