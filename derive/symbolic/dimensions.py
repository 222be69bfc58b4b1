"""Dimensions: products of base dimensions with rational exponents, and how they are spelt.

Kept apart from the unit table and the formatting (:mod:`derive.symbolic.units`), which need SymPy and
pint, so that reading a formula's units (:mod:`derive.catalog.formula_text`) imports neither.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import total_ordering
from typing import Mapping

__all__ = ["BASE_SYMBOLS", "DIMENSIONLESS", "Dimension"]

# the base unit of each base dimension, as printed
BASE_SYMBOLS: dict[str, str] = {"[data]": "B", "[compute]": "FLOP", "[time]": "s", "[currency]": "USD",
                                "[energy]": "J", "[mass]": "g"}
_BASE_ORDER = ["[currency]", "[mass]", "[energy]", "[compute]", "[data]", "[time]"]


@total_ordering
@dataclass(frozen=True)
class Dimension:
    """A product of base dimensions with rational exponents, e.g. [compute]/[time]."""

    exponents: tuple[tuple[str, Fraction], ...] = ()
    #: how a quantity declared in a named unit wants its values shown ("Hz" for a clock); not part of
    #: the dimension (equal dimensions compare equal whatever their display) and lost in arithmetic
    named: str = field(default="", compare=False)

    @classmethod
    def of(cls, mapping: Mapping[str, Fraction | int]) -> "Dimension":
        return cls(tuple(sorted((k, Fraction(v)) for k, v in mapping.items() if v != 0)))

    def as_dict(self) -> dict[str, Fraction]:
        return dict(self.exponents)

    def __mul__(self, other: "Dimension") -> "Dimension":
        d = self.as_dict()
        for k, v in other.exponents:
            d[k] = d.get(k, Fraction(0)) + v
        return Dimension.of(d)

    def __truediv__(self, other: "Dimension") -> "Dimension":
        return self * other ** -1

    def __pow__(self, power: Fraction | int) -> "Dimension":
        p = Fraction(power)
        return Dimension.of({k: v * p for k, v in self.exponents})

    def __lt__(self, other: "Dimension") -> bool:
        return self.exponents < other.exponents

    @property
    def is_dimensionless(self) -> bool:
        return not self.exponents

    def unit_string(self) -> str:
        """The base-unit spelling: ``B``, ``FLOP/s``, ``FLOP/B``, ``1``, ``1/s``."""
        num: list[str] = []
        den: list[str] = []
        order = sorted(self.exponents, key=lambda kv: _BASE_ORDER.index(kv[0])
                       if kv[0] in _BASE_ORDER else 99)
        for dim, exp in order:
            sym = BASE_SYMBOLS.get(dim, dim.strip("[]"))
            target = num if exp > 0 else den
            e = abs(exp)
            target.append(sym if e == 1 else f"{sym}^{_fmt_exp(e)}")
        top = "·".join(num) if num else "1"
        if not den:
            return top
        bottom = den[0] if len(den) == 1 else "(" + "·".join(den) + ")"
        return f"{top}/{bottom}"

    def __str__(self) -> str:
        return self.unit_string()


def _fmt_exp(e: Fraction) -> str:
    return str(e.numerator) if e.denominator == 1 else f"({e.numerator}/{e.denominator})"


DIMENSIONLESS = Dimension()
