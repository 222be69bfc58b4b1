"""Values with units as a user types them: ``3.35TB/s``, ``128 MiB``, ``4096``, ``2**30 B``, ``112GB/8``.

A value is arithmetic of numbers and unit names (``+ - * /``, whole powers, brackets;
a number written before a unit multiplies it), read exactly by the whitelist parser
(``UnitTable.evaluate``). A value with no unit is in the quantity's declared unit. The
result is an exact SymPy rational in base units, checked against the quantity's
dimension and range (positive, or from the quantity's ``min:``).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import sympy

from ..errors import ExpressionError, InputError, UnitError
from ..records.entries import Quantity
from ..symbolic.units import Dimension, UnitTable

__all__ = ["MAX_LOG10", "exact_real", "parse_value", "split_value"]

MAX_LOG10 = 60   # values are accepted from 1e-60 to 1e60 in base units

_LITERAL = re.compile(r"(\d[\d_]*(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_OPERATORS = "+-*/() \t"


def split_value(text: str) -> tuple[str, str]:
    """Split ``"3.35 TB/s"`` into ``("3.35", "TB/s")``."""
    i, n = 0, len(text)
    while i < n:
        m = _LITERAL.match(text, i)
        if m:
            i = m.end()
        elif text[i] in _OPERATORS:
            i += 1
        else:
            break
    # "1 (EB^8)^8/s", "2 (TB/s)": an opening bracket after the number, left open there, opens the unit
    while i < n and text[:i].rstrip(" \t").endswith("(") and text[:i].count("(") > text[:i].count(")"):
        i = len(text[:i].rstrip(" \t")) - 1
    number, unit = text[:i], text[i:]
    # "1e9/s": the trailing operator belongs to the unit
    while number.rstrip() and number.rstrip()[-1] in "*/" and unit:
        stripped = number.rstrip()
        unit = stripped[-1] + unit if stripped[-1] == "/" else unit
        number = stripped[:-1]
    if unit.startswith("/"):
        unit = "1" + unit
    return number.strip(), unit.strip()


def parse_value(text: str, quantity: Quantity, units: UnitTable) -> sympy.Rational:
    """Parse ``text`` as a value of ``quantity``, in base units; raise on a wrong unit or range.

    ``units`` is the unit table of the catalog ``quantity`` belongs to (``catalog.units``).
    """
    if not isinstance(text, str):
        text = str(text)
    if len(text) > 200:
        raise InputError(f"value for {quantity.id} is too long ({len(text)} characters); write a number with "
                         "an optional unit, e.g. 4096 or 3.35TB/s", name=quantity.id)
    number_text, unit_text = split_value(text)
    if not number_text:
        raise ExpressionError(f"{quantity.id}={text!r} has no number; write e.g. {quantity.id}=4096 "
                              f"or {quantity.id}=2{quantity.base_unit if quantity.base_unit != '1' else ''}",
                              text=text)
    # "3.35 TB/s": a number and a unit of names alone; "2/(4 s)", "2 (TB/s)" and "(2 TB)/s" split into
    # parts that open or close a parenthesis the other part holds: arithmetic, read as a whole below
    plain_unit = bool(unit_text) and not any(ch.isdigit() for ch in unit_text) \
        and unit_text.count("(") == unit_text.count(")") and number_text.count("(") == number_text.count(")")
    scale = _COUNT_SUFFIXES.get(unit_text.strip()) if plain_unit and quantity.dims.is_dimensionless else None
    if scale is not None and _PLAIN_NUMBER.fullmatch(number_text):
        # 52B or 7k meant as a count: B is bytes here, and k or M alone are no unit
        raise UnitError(f"{quantity.id} is a plain number, so {unit_text.strip()!r} is not a unit for it; for "
                        f"{number_text} {scale[1]} write {quantity.id}={number_text}e{scale[0]}",
                        unit=unit_text.strip(), quantity=quantity.id, expected=quantity.base_unit, got=unit_text)
    if plain_unit:
        factor, unit_dims = units.parse(unit_text)  # a "number unit" value: the unit's own errors name the unit
    if _PLAIN_NUMBER.fullmatch(number_text) and (plain_unit or not unit_text):
        # the common case, 1000 MB or 4096: one exact decimal times a memoised unit, no expression to parse
        magnitude = Fraction(number_text)
        magnitude, dims, named = (magnitude * factor, unit_dims, True) if plain_unit else \
            (magnitude, quantity.dims, False)
    else:
        magnitude, dims, named = _evaluate(text, quantity, units)
        if magnitude == 0 and named and dims.is_dimensionless and any(c.isalpha() for c in unit_text):
            dims = quantity.dims         # 1GB-1GB: zero, in every unit (its units cancelled as it was read)
    value = sympy.Rational(magnitude.numerator, magnitude.denominator)
    if not named:
        value = value * quantity.factor          # a bare number is in the quantity's declared unit
    elif dims != quantity.dims:
        simple = unit_text and not any(ch.isdigit() for ch in unit_text) and _NUMBER_ONLY.fullmatch(number_text)
        shown = unit_text if simple else text.strip()
        declared = quantity.unit if quantity.unit != "1" else quantity.base_unit
        how = (f"{declared} or another unit of {quantity.base_unit}" if declared != quantity.base_unit
               else f"{declared} or a prefixed form of it")
        raise UnitError(
            f"{quantity.id} is in {quantity.base_unit}, but {shown!r} is {dims.unit_string()}; give it in {how}",
            unit=shown, quantity=quantity.id, expected=quantity.base_unit, got=dims.unit_string())
    check_range(value, quantity, text)
    return value


# suffixes people write after a count (52B parameters, 7k tokens) that are units here
_COUNT_SUFFIXES = {"k": (3, "thousand"), "K": (3, "thousand"), "M": (6, "million"), "B": (9, "billion"),
                   "G": (9, "billion"), "T": (12, "trillion")}

# a decimal literal with a short exponent (a longer one takes the guarded general path)
_PLAIN_NUMBER = re.compile(r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,3})?")


def _evaluate(text: str, quantity: Quantity, units: UnitTable) -> tuple[Fraction, Dimension, bool]:
    """Arithmetic of numbers and units, read by the whitelist parser."""
    try:
        return units.evaluate(text)
    except ExpressionError as exc:
        raise ExpressionError(f"bad value for {quantity.id}: {exc.message}; write a number such as 4096, 1.5e9 "
                              "or 2**30, optionally followed by a unit (arithmetic such as 112GB/8 is fine)",
                              text=text) from exc


_NUMBER_ONLY = re.compile(r"[\d.eE+\-*/() _]+")


def exact_real(value: sympy.Expr, name: str) -> sympy.Expr:
    """An exact SymPy number taken as an input (a value ``solve()`` returned, such as 2·√3): a fraction
    stays one, a decimal float becomes its fraction, an irrational stays exact; one that is not a finite
    real number is refused. A sum that is a whole number in disguise ((√5 + 1)(√5 − 1)) becomes it."""
    if value.is_Rational:
        return value
    if value.is_Float:
        return sympy.Rational(str(value))
    approx = value.evalf(40)
    if not approx.is_Float or approx.is_infinite or approx != approx:     # complex, zoo, nan
        raise InputError(f"{name} must be a finite real number, not {value}", name=name)
    nearest = sympy.Integer(round(approx))
    if abs(approx - nearest) < sympy.Float("1e-30", 40) * max(1, abs(nearest)) \
            and sympy.expand(value - nearest) == 0:
        return nearest
    return value


def _log10_size(value: sympy.Expr) -> float:
    """|log10 |value||, exactly enough for the range check: from the fraction's parts, or numerically."""
    if value.is_Rational:
        return abs(math.log10(int(abs(value.p))) - math.log10(int(value.q)))
    return abs(float(sympy.log(abs(value.evalf(30)), 10)))


def check_range(value: sympy.Expr, quantity: Quantity, text: str) -> None:
    """Refuse a value below the quantity's range (positive, or from ``min:``), out of float range, or a
    fraction of a whole-number quantity."""
    if quantity.minimum is None and value <= 0:
        # 1GB-1GB is zero, though it does not read as one
        got = f"but {text!r} is zero" if value == 0 and not _PLAIN_NUMBER.fullmatch(str(text).strip()) \
            else f"got {text!r}"
        raise InputError(f"{quantity.id} must be positive, {got}; give a value above zero", name=quantity.id)
    if quantity.minimum is not None and value < quantity.minimum:
        raise InputError(f"{quantity.id} is at least {quantity.minimum_text}, got {text!r}; give a value in range",
                         name=quantity.id)
    if value == 0:
        return
    exponent = _log10_size(value)
    if exponent > MAX_LOG10:
        unit = "" if quantity.base_unit == "1" else f" {quantity.base_unit}"
        raise InputError(f"{quantity.id}={text!r} is out of range (from 1e-{MAX_LOG10} to 1e{MAX_LOG10}{unit}); "
                         "give a value in that range", name=quantity.id)
    if quantity.integer and not value.is_Integer:
        raise InputError(f"{quantity.id} is a whole number; got {text!r}; give a whole number such as "
                         f"{max(1, int(value))}", name=quantity.id)
