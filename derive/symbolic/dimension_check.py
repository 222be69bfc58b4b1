"""Dimensional analysis of SymPy expressions over catalog quantities.

``dimension_of(expr, dims)`` walks an expression and returns its dimension, or
raises :class:`DimensionMismatch` naming the sub-expression whose terms do not
agree (``bytes + flops``), so that an unbalanced relation refuses to load.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

import sympy

from .units import DIMENSIONLESS, Dimension

__all__ = ["DimensionMismatch", "dimension_of"]


class DimensionMismatch(Exception):
    """Terms with different dimensions met in one sum, max, min or comparison."""

    def __init__(self, expr: sympy.Basic, dims: list[Dimension]) -> None:
        self.expr = expr
        self.dims = dims
        super().__init__(f"{expr}: " + " vs ".join(d.unit_string() for d in dims))


def dimension_of(expr: sympy.Basic, dims: Mapping[sympy.Symbol, Dimension]) -> Dimension:
    if isinstance(expr, sympy.Symbol):
        return dims[expr]
    if expr.is_Number or expr in (sympy.pi, sympy.E):
        return DIMENSIONLESS
    if isinstance(expr, sympy.Add) or isinstance(expr, (sympy.Max, sympy.Min)):
        parts = [dimension_of(a, dims) for a in expr.args]
        if any(p != parts[0] for p in parts):
            raise DimensionMismatch(expr, sorted(set(parts)))
        return parts[0]
    if isinstance(expr, sympy.Mul):
        out = DIMENSIONLESS
        for a in expr.args:
            out = out * dimension_of(a, dims)
        return out
    if isinstance(expr, sympy.Pow):
        base = dimension_of(expr.base, dims)
        if base.is_dimensionless:
            if not dimension_of(expr.exp, dims).is_dimensionless:
                raise DimensionMismatch(expr, [dimension_of(expr.exp, dims)])
            return DIMENSIONLESS
        if not expr.exp.is_Rational:
            raise DimensionMismatch(expr, [base, dimension_of(expr.exp, dims)])
        return base ** Fraction(int(expr.exp.p), int(expr.exp.q))
    if isinstance(expr, (sympy.ceiling, sympy.floor)):
        return dimension_of(expr.args[0], dims)
    if isinstance(expr, (sympy.log, sympy.exp)):
        for a in expr.args:
            d = dimension_of(a, dims)
            if not d.is_dimensionless:
                raise DimensionMismatch(expr, [d])
        return DIMENSIONLESS
    raise DimensionMismatch(expr, [])
