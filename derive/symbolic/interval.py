"""An exact interval of values: what a relation allows when its unknown sits inside ``ceil`` or ``floor``
(made by :mod:`derive.engine.step_functions`, carried by a Solution)."""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from .exact import sign

__all__ = ["Interval"]


@dataclass(frozen=True)
class Interval:
    """``low < u <= high`` (or with the other ends open/closed, as the flags say), exact."""

    low: sympy.Expr
    high: sympy.Expr
    low_open: bool
    high_open: bool
    rounded: sympy.Expr        # the value the ceil/floor must take (a whole number)

    @property
    def bounded(self) -> bool:
        """Whether the interval has a top end (``ceil(N / B) = 1`` holds for every B from N up: no top)."""
        return self.high is not sympy.oo

    @property
    def representative(self) -> sympy.Expr:
        """One value the interval holds: its top, or its bottom when the top is excluded, or the middle
        (without a top and with its bottom excluded: twice its bottom)."""
        if not self.high_open:
            return self.high
        if not self.low_open:
            return self.low
        return (self.low + self.high) / 2 if self.bounded else 2 * self.low

    def contains(self, value: sympy.Expr) -> bool:
        if value is sympy.oo:
            return False
        above = sign(value - self.low) > 0 or (not self.low_open and sign(value - self.low) == 0)
        below = not self.bounded or sign(self.high - value) > 0 or (not self.high_open and sign(self.high - value) == 0)
        return above and below
