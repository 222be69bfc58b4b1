"""Exact comparisons of SymPy numbers: sign, equality up to the last digits, and inequalities.

Values in the engine are exact (rationals, and roots or logs of them). SymPy decides most
signs symbolically; where it cannot (a difference of two roots), the number is evaluated
to ``PRECISION`` digits, far beyond any rounding a user could see.
"""

from __future__ import annotations

from typing import Mapping

import sympy

from ..errors import NoSolutionError

__all__ = ["PRECISION", "TOLERANCE", "close", "holds", "relative", "sign", "value_at"]

PRECISION = 60          # digits for numeric sign and residual checks
TOLERANCE = sympy.Rational(1, 10**40)


# ---------------------------------------------------------------------------
# exact comparisons


def sign(expr: sympy.Expr) -> int:
    """The sign of an exact real number (-1, 0, 1), deciding numerically when SymPy cannot."""
    expr = expr if isinstance(expr, sympy.Basic) else sympy.Rational(expr)   # internal numbers only
    if expr.is_Rational:          # a class attribute: no assumptions to deduce for a number made just now
        return (expr.p > 0) - (expr.p < 0)
    if expr.is_zero:
        return 0
    if expr.is_positive:
        return 1
    if expr.is_negative:
        return -1
    v = expr.evalf(PRECISION)
    if not v.is_real:
        raise NoSolutionError(f"{expr} is not a real number")
    if abs(v) < sympy.Float(10) ** (-PRECISION + 10):
        return 0
    return 1 if v > 0 else -1


def _compare_rationals(a: sympy.Expr, b: sympy.Expr) -> int | None:
    """The sign of ``a - b`` for two rationals, in whole-number arithmetic (no SymPy number is built);
    None when either is not rational."""
    if getattr(a, "is_Rational", False) and getattr(b, "is_Rational", False):
        d = int(a.p) * int(b.q) - int(b.p) * int(a.q)
        return (d > 0) - (d < 0)
    return None


def close(a: sympy.Expr, b: sympy.Expr) -> bool:
    """Exact equality, allowing for the last digits of a high-precision evaluation."""
    exact = _compare_rationals(a, b)
    if exact is not None:
        return exact == 0
    diff = a - b
    if diff == 0:
        return True
    if diff.is_Rational:
        return False
    scale = max(abs(a.evalf(PRECISION)), abs(b.evalf(PRECISION)), sympy.Float(1e-300))
    return abs(diff.evalf(PRECISION)) <= TOLERANCE * scale


def holds(op: str, left: sympy.Expr, right: sympy.Expr) -> bool:
    exact = _compare_rationals(left, right)
    if exact is not None:
        return {"<=": exact <= 0, "<": exact < 0, ">=": exact >= 0, ">": exact > 0, "=": exact == 0}[op]
    if close(left, right):
        return op in ("<=", ">=", "=")
    s = sign(left - right)
    return {"<=": s < 0, "<": s < 0, ">=": s > 0, ">": s > 0, "=": s == 0}[op]


def relative(a: sympy.Expr, b: sympy.Expr) -> float:
    fa, fb = float(a.evalf(30)), float(b.evalf(30))
    return abs(fa - fb) / max(abs(fa), abs(fb), 1e-300)


# ---------------------------------------------------------------------------
# inversion, cached per process


def value_at(expr: sympy.Expr, nmap: Mapping[sympy.Symbol, sympy.Expr]) -> sympy.Expr | None:
    """``expr`` at the values of ``nmap`` (exact), or None when one of its symbols has none."""
    from .evaluate import value_at as evaluate

    return evaluate(expr, nmap)

