"""Units: parse unit strings exactly, compare dimensions, and format values readably.

Unit definitions live in ``formulas/units.txt`` and are read by pint with exact
fractions, so a conversion factor is always a rational number (1 MiB is exactly
1048576 B, 1 ns exactly 1/10**9 s). Values are held in base units (B, FLOP, s)
as SymPy rationals until they are formatted for a reader.

pint is imported only when a unit string is met that has not been parsed
before: parsed units are memoised, and the memo travels with the compiled
catalog cache, so a typical command never pays pint's import time.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Iterable, Literal, Mapping, Optional

import sympy

from ..errors import DeriveError, ExpressionError, UnitError
from .dimensions import DIMENSIONLESS, Dimension

__all__ = [
    "DIMENSIONLESS",
    "Dimension",
    "Formatted",
    "NamedUnit",
    "UnitSystem",
    "UnitTable",
    "format_number",
    "format_value",
    "parse_unit",
    "short_decimal",
]

_UNIT_TEXT = re.compile(r"^[A-Za-zµμ0-9_ /*^().·-]{1,60}$")
_AMBIGUOUS = re.compile(r"(?<![A-Za-z])K(B|b)(?![A-Za-z])")
_NUMBER_LITERAL = re.compile(r"(?<![*^\w.])(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?(?![\w.])")
_UNIT_NAME = re.compile(r"^[A-Za-zµμ][A-Za-zµμ_]{0,29}$")
# "112GB", "3.35 TB", "2**30 B", ")GB": a number (or a closing bracket) directly before a unit name multiplies it
_IMPLICIT_PRODUCT = re.compile(r"((?:\d|\.\d|\))(?:[eE][+-]?\d+)?)\s*(?=[A-Za-zµ])(?![eE][+-]?\d)()")
# "1 (EB^8)^8/s", "2 (TB/s)", ")(": a number (not the end of a name such as log2) or a closing bracket directly
# before an opening one multiplies it too (else the parser reads a call of a number)
_BRACKET_PRODUCT = re.compile(r"((?<![\w.])(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|\))\s*(?=\()")



# ---------------------------------------------------------------------------
# parsing

_BUILTIN_MEMO: dict[str, tuple[Fraction, Dimension]] = {"1": (Fraction(1), DIMENSIONLESS),
                                                         "": (Fraction(1), DIMENSIONLESS)}


class UnitTable:
    """The units of one definitions file (``formulas/units.txt``): exact parsing, memoised.

    Each catalog owns the table of its own definitions file, so two catalogs with different
    units never share a parsed unit. pint is loaded only when a unit string is met that the
    memo does not hold; the memo travels with the compiled catalog cache.
    """

    def __init__(self, path: Path, memo: Mapping[str, tuple[Fraction, Dimension]] | None = None) -> None:
        self.path = path
        self.memo: dict[str, tuple[Fraction, Dimension]] = dict(_BUILTIN_MEMO)
        if memo:
            self.memo.update(memo)
        self._registry = None

    def __repr__(self) -> str:
        return f"UnitTable({str(self.path)!r}, {len(self.memo)} parsed)"

    def registry(self):
        if self._registry is None:
            import pint  # deferred: costs a third of a second to import

            self._registry = pint.UnitRegistry(str(self.path), non_int_type=Fraction,
                                               autoconvert_offset_to_baseunit=False)
        return self._registry

    def parse(self, text: str) -> tuple[Fraction, Dimension]:
        """Parse a unit string into (exact factor to base units, dimension).

        ``parse("TB/s")`` is ``(Fraction(10**12), [data]/[time])``. The string is arithmetic of
        unit names (``*``, ``/``, ``·``, powers with ``^`` or ``**``, parentheses), read by the
        whitelist parser; each name is looked up alone in the definitions.
        """
        if not isinstance(text, str):       # a live source's unit("GiB") or .to(...) may pass anything
            raise UnitError(f"a unit is text such as 'GiB' or 'TB/s', not {text!r:.40}", unit=str(text)[:40])
        key = text.strip()
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if not _UNIT_TEXT.match(key):
            raise UnitError(f"malformed unit {text!r}: use units such as B, GiB, TB/s, TFLOP/s, ms",
                            unit=text)
        factor, dims, _ = self.evaluate(key, what="unit")
        self.memo[key] = (factor, dims)
        return factor, dims

    def evaluate(self, text: str, what: str = "value") -> tuple[Fraction, Dimension, bool]:
        """Arithmetic of numbers and unit names (``112 GB/8``, ``8*400GB/s``, ``2**30 B``) as
        (exact magnitude in base units, dimension, whether any unit is named); a number written
        before a unit multiplies it."""
        from .expressions import parse_expression

        if _AMBIGUOUS.search(text):
            raise UnitError(f"ambiguous unit in {text!r}: write kB for 1000 B or KiB for 1024 B", unit=text)
        source = _IMPLICIT_PRODUCT.sub(r"\1*\2", text.strip().replace("·", "*").replace("^", "**"))
        source = _BRACKET_PRODUCT.sub(r"\1*", source)
        names: dict[str, sympy.Symbol] = {}

        def unit_symbol(name: str) -> sympy.Symbol:
            self.unit_name(name, text)
            return names.setdefault(name, sympy.Symbol(name, positive=True))

        try:
            expr = parse_expression(source, unit_symbol, what)
        except UnitError:
            raise
        except DeriveError as exc:
            reason = exc.message.replace(f" in {what} {source!r}", "").replace(f"malformed {what} {source!r}: ", "")
            raise ExpressionError(f"malformed {what} {text!r}: {reason}", text=text) from exc
        value, dims = _evaluate_units(expr, {sym: self.unit_name(n, text) for n, sym in names.items()}, text)
        if value == 0 and names and what == "value":
            # 0 B: SymPy turns 0*B into 0, so read the unit from the same text with its numbers set to 1
            ones = _NUMBER_LITERAL.sub("1", source)
            _, dims = _evaluate_units(parse_expression(ones, unit_symbol, what),
                                      {sym: self.unit_name(n, text) for n, sym in names.items()}, text)
        return value, dims, bool(names)

    def unit_name(self, name: str, context: str = "") -> tuple[Fraction, Dimension]:
        """One unit name (``GB``, ``s``, ``Gbps``) looked up in the definitions, memoised."""
        name = name.replace("μ", "µ")      # Python reads the micro sign as Greek mu (NFKC); both mean micro
        key = f"name:{name}"
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if not _UNIT_NAME.match(name):
            if "co2" in name.lower():      # "173 tCO2eq", "0.385 kgCO2eq/kWh": a mass of CO2-equivalent
                raise UnitError(f"unknown unit {name!r} in {context or name!r}: write CO2-equivalent as a mass, "
                                "without the gas (173 t, 0.385 kg/kWh)", unit=name)
            raise UnitError(f"unknown unit {name!r} in {context or name!r}: use units such as B, GiB, TB/s, "
                            "TFLOP/s, ms (defined in formulas/units.txt)", unit=name)
        registry = self.registry()
        import pint

        try:
            q = registry.Quantity(Fraction(1), registry.parse_units(name)).to_base_units()
        except (pint.errors.PintError, AttributeError, TypeError, ValueError, SyntaxError,
                ZeroDivisionError, RecursionError, KeyError) as exc:
            raise UnitError(f"unknown unit {name!r} in {context or name!r}: use units such as B, GiB, TB/s, "
                            "TFLOP/s, ms (defined in formulas/units.txt)", unit=name) from exc
        found = (Fraction(q.magnitude), Dimension.of({str(k): Fraction(v) for k, v in q.dimensionality.items()}))
        self.memo[key] = found
        return found

    def warm(self, unit_strings: Iterable[str]) -> None:
        """Parse common unit strings once so that they are memoised in the catalog cache."""
        for u in unit_strings:
            try:
                self.parse(u)
            except UnitError:
                pass


def parse_unit(text: str, units: UnitTable) -> tuple[Fraction, Dimension]:
    """Parse a unit string with the unit table of a catalog (``catalog.units``)."""
    return units.parse(text)


MAX_UNIT_EXPONENT = 8        # |n| in a unit's power such as s^-1 or m^2: no unit needs more
MAX_UNIT_DIGITS = 400        # digits of a value's exact magnitude in base units


def _evaluate_units(expr: sympy.Basic, units: Mapping[sympy.Symbol, tuple[Fraction, Dimension]],
                    text: str) -> tuple[Fraction, Dimension]:
    """The magnitude (base units) and dimension of arithmetic over unit symbols and numbers."""
    def walk(e: sympy.Basic) -> tuple[Fraction, Dimension]:
        if e.is_Rational:
            return Fraction(int(e.p), int(e.q)), DIMENSIONLESS
        if isinstance(e, sympy.Symbol):
            return units[e]
        if isinstance(e, sympy.Mul):
            value, dims = Fraction(1), DIMENSIONLESS
            for a in e.args:
                v, d = walk(a)
                value, dims = value * v, dims * d
            _check_size(value)
            return value, dims
        if isinstance(e, sympy.Add):
            parts = [walk(a) for a in e.args]
            if any(d != parts[0][1] for _, d in parts):
                shown = " + ".join(d.unit_string() for _, d in parts)
                raise UnitError(f"{text!r} adds values of different units ({shown})", unit=text)
            return sum((v for v, _ in parts), Fraction(0)), parts[0][1]
        if isinstance(e, sympy.Pow) and e.exp.is_Integer:
            base, dims = walk(e.base)
            n = int(e.exp)
            if not dims.is_dimensionless and abs(n) > MAX_UNIT_EXPONENT:
                raise UnitError(f"{text!r}: the power {n} of {e.base} is too large (a unit's power is at most "
                                f"{MAX_UNIT_EXPONENT})", unit=text)
            if base == 0 and n < 0:
                raise UnitError(f"{text!r} divides by zero", unit=text)
            if base not in (0, 1, -1) and abs(n) * max(len(str(base.numerator)), len(str(base.denominator))) \
                    > MAX_UNIT_DIGITS:
                raise UnitError(f"{text!r} is out of range", unit=text)
            value = base ** n
            return value, dims ** n
        if not e.free_symbols:
            raise ExpressionError(f"{text!r} is not a rational number", text=text)
        raise UnitError(f"{text!r}: only numbers, unit names, * / + - and whole powers are allowed here",
                        unit=text)

    return walk(expr)


def _check_size(value: Fraction) -> None:
    if max(len(str(abs(value.numerator))), len(str(value.denominator))) > MAX_UNIT_DIGITS:
        raise UnitError("the value is out of range")


# ---------------------------------------------------------------------------
# formatting

UnitSystem = str  # "si" (decimal prefixes, the default) or "iec" (binary prefixes)

_SI = [(10**18, "E"), (10**15, "P"), (10**12, "T"), (10**9, "G"), (10**6, "M"), (10**3, "k")]
_IEC = [(2**60, "Ei"), (2**50, "Pi"), (2**40, "Ti"), (2**30, "Gi"), (2**20, "Mi"), (2**10, "Ki")]
_TIME = [(Fraction(1), ""), (Fraction(1, 10**3), "m"), (Fraction(1, 10**6), "µ"),
         (Fraction(1, 10**9), "n"), (Fraction(1, 10**12), "p")]


# energy in watt-hours (449 MWh, not 1.619e12 J), power in watts, mass (CO2-equivalent) in tonnes
# from a tonne on, and a carbon intensity in kg/kWh, as the papers that state them write them
_WH = 3600
_MASS = [(10**6, "t"), (10**3, "kg"), (1, "g")]


def _energy_or_mass(v: sympy.Basic, d: Mapping[str, Fraction], digits: int) -> "Formatted | None":
    one = Fraction(1)
    if d == {"[energy]": one}:
        v, unit = v / _WH, "Wh"
    elif d == {"[energy]": one, "[time]": -one}:
        unit = "W"
    elif d == {"[mass]": one, "[energy]": -one}:
        return Formatted(format_number(v * _WH, digits), "kg/kWh")
    elif d == {"[mass]": one}:
        fv = abs(float(v.evalf(30)))
        for factor, name in _MASS:
            if fv >= factor * (1 - 1e-12) or factor == 1:
                return Formatted(format_number(v / factor, digits), name)
    else:
        return None
    fv = abs(float(v.evalf(30)))
    for factor, prefix in _SI:
        if fv >= factor * (1 - 1e-12):
            return Formatted(format_number(v / factor, digits), prefix + unit)
    return Formatted(format_number(v, digits), unit)


@dataclass(frozen=True)
class Formatted:
    """A value printed for a reader: ``text`` is ``mantissa unit``."""

    mantissa: str
    unit: str
    note: str = ""

    @property
    def text(self) -> str:
        if self.unit in SIGNS:
            return f"{self.mantissa}{self.unit}"
        return f"{self.mantissa} {self.unit}".strip() if self.unit != "1" else self.mantissa


#: the signs a plain number may be shown with (a quantity's ``display:``), written right after it: 25%, 2.56×
SIGNS = ("%", "×")


def short_decimal(x: sympy.Rational, max_digits: int = 6) -> str | None:
    """The exact decimal of ``x`` if it has at most ``max_digits`` significant digits."""
    q = int(x.q)
    if q > 10**12:
        return None        # a short decimal has at most 12 places, so its denominator divides 10^12
    twos = fives = 0
    while q % 2 == 0:
        q //= 2
        twos += 1
    while q % 5 == 0:
        q //= 5
        fives += 1
    if q != 1:
        return None
    places = max(twos, fives)
    scaled = abs(int(x.p)) * (10 ** places) // int(x.q)
    digits = str(scaled).rstrip("0") or "0"
    if len(digits) > max_digits or places > 12:
        return None
    whole, frac = divmod(scaled, 10 ** places)
    frac_text = str(frac).rjust(places, "0").rstrip("0") if places else ""
    sign = "-" if x < 0 else ""
    return f"{sign}{whole:,}" + (f".{frac_text}" if frac_text else "")


_FLOAT_SAFE = (1e-300, 1e300)


def _scientific(x: sympy.Basic, digits: int) -> str:
    """``x`` in the form ``1.23e4567`` with ``digits`` significant figures, for any magnitude."""
    import mpmath

    value = x.evalf(digits + 10)
    if not value.is_Float and not value.is_Integer and not value.is_Rational:
        return str(value)                   # oo, zoo, nan: say what it is
    with mpmath.workdps(digits + 10):
        mant, _, exp = mpmath.nstr(mpmath.mpf(str(value)), digits, min_fixed=1, max_fixed=0).partition("e")
    if "." in mant:
        mant = mant.rstrip("0").rstrip(".")
    return f"{mant}e{int(exp)}" if exp else mant


def format_number(x: float | int | Fraction | sympy.Basic, digits: int = 4, count: bool = False,
                  direction: Direction = None) -> str:
    """A number to ``digits`` significant figures, or exactly when it is a short decimal.

    Exact integers below 10**7 stay whole; ``327.68`` stays ``327.68``; large
    and small magnitudes use scientific notation (``1.97e14``); integers get
    thousands separators (``327,680``). An exact value that is not whole is never printed as a
    whole number where the figures asked for end before its units digit: 15,728.64 to four figures
    would read ``15,729``, so it keeps the decimals that show its fraction. With ``count`` (a pure
    number, which a reader takes for a count) that holds at any size: 1,234.56 is not ``1,235``.
    A float (an approximation, or a value the caller asked to round: a live document's
    ``digits=2``) is rounded as asked. ``direction`` ("down" for a largest value, "up" for a smallest)
    rounds the figures towards it, so a printed bound never passes its edge (4.285e10, not 4.286e10,
    for at most 42,857,142,857).
    """
    text = _format_number(x, digits, direction)
    if "." in text or "e" in text or not any(c.isdigit() for c in text):
        return text
    if not count and len(text.replace(",", "").lstrip("-")) <= digits:
        return text                         # 179 ms to four figures: significant figures, as asked
    return _fraction_shown(x, text, direction)


def _fraction_shown(x: float | int | Fraction | sympy.Basic, text: str, direction: Direction = None) -> str:
    """``text`` (a whole-looking rounding of ``x``) with the decimals that show an exact ``x`` is not whole."""
    if isinstance(x, (int, float, sympy.Float)) or (isinstance(x, sympy.Basic) and x.is_Integer):
        return text
    if isinstance(x, Fraction):
        x = sympy.Rational(x.numerator, x.denominator)
    if x.is_Rational:
        if x.is_Integer:
            return text
        exact = short_decimal(x, len(str(abs(int(x)))) + 3)
        if exact is not None:
            return exact                    # 15,728.64 exactly
    precise = x.evalf(40)
    if abs(precise - round(precise)) <= sympy.Float(10, 40) ** -30 * max(abs(precise), 1):
        return text                         # whole, though not written so (log(8)/log(2))
    xf = float(precise)
    for places in range(2, 13):             # two places at least: 26,702.88, as a source would write it
        quantum = sympy.Integer(10) ** -places
        cut = xf if direction is None else float(
            (sympy.floor if direction == "down" else sympy.ceiling)(x / quantum) * quantum)
        shown = f"{cut:,.{places}f}"
        if shown.rstrip("0")[-1] != ".":
            return shown.rstrip("0")
    return f"{xf:,.1f}"


Direction = Optional[Literal["down", "up"]]


def _is_whole(x: float | int | Fraction | sympy.Basic) -> bool:
    return isinstance(x, int) or (isinstance(x, Fraction) and x.denominator == 1) \
        or (isinstance(x, sympy.Basic) and x.is_Integer is True)


def _directed(exact: float | int | Fraction | sympy.Basic, xf: float, digits: int, direction: Direction,
              whole: bool = False) -> float:
    """``xf`` (a float near ``exact``) cut to ``digits`` significant figures (or to a whole number with
    ``whole``) towards ``direction``, decided on the exact value."""
    if direction is None or xf == 0:
        return xf
    if isinstance(exact, sympy.Basic):
        value = exact
    elif isinstance(exact, Fraction):
        value = sympy.Rational(exact.numerator, exact.denominator)
    else:                               # an int, or a float: its shortest decimal
        value = sympy.Integer(exact) if isinstance(exact, int) else sympy.Rational(repr(exact))
    quantum = sympy.Integer(1) if whole else sympy.Integer(10) ** (math.floor(math.log10(abs(xf))) - digits + 1)
    steps = value / quantum
    cut = sympy.floor(steps) if direction == "down" else sympy.ceiling(steps)
    return float(cut * quantum)


def _format_number(x: float | int | Fraction | sympy.Basic, digits: int, direction: Direction = None) -> str:
    """``format_number`` before a whole-looking rounding of a fraction is caught."""
    given = x
    if isinstance(x, sympy.Basic):
        if x.is_Integer:
            x = int(x)
        elif x.is_Rational and 1e-3 <= abs(float(x)) < 1e7:
            exact = short_decimal(x, max(digits, 6))
            if exact is not None:
                return exact
            x = float(x.evalf(30))
        else:
            v = x.evalf(30)
            if v.is_zero:
                return "0"
            if not v.is_Float or not _FLOAT_SAFE[0] < abs(v) < _FLOAT_SAFE[1]:
                return _scientific(v, digits)       # beyond a float's range: exactly, in scientific form
            x = float(v)
    if isinstance(x, Fraction) and x.denominator == 1:
        x = int(x.numerator)
    if isinstance(x, int):
        if abs(x) < 10**7:
            return f"{x:,}"
        if abs(x) >= 10**300:
            return _scientific(sympy.Integer(x), digits)
        x = float(x)
    if isinstance(x, Fraction) and not x == 0 and not _FLOAT_SAFE[0] < abs(x) < _FLOAT_SAFE[1]:
        return _scientific(sympy.Rational(x.numerator, x.denominator), digits)
    xf = float(x)
    if xf != xf or xf in (float("inf"), float("-inf")):
        return str(xf)
    if xf == 0:
        return "0"
    ax = abs(xf)
    if 1e-3 <= ax < 1e7:
        xf = _directed(given, xf, digits, direction, whole=ax >= 10**digits)
        s = f"{xf:.{digits}g}"
        if "e" in s:  # .4g of e.g. 123456.0 gives 1.235e+05
            s = f"{xf:,.0f}" if ax >= 10**digits else s
        if "." in s and "e" not in s:
            s = s.rstrip("0").rstrip(".")
        if "e" not in s and ax >= 1000 and "," not in s:
            intpart, _, frac = s.partition(".")
            s = f"{int(intpart):,}" + (f".{frac}" if frac else "")
        return s
    xf = _directed(given, xf, digits, direction)
    mant, _, exp = f"{xf:.{digits - 1}e}".partition("e")
    if "." in mant:
        mant = mant.rstrip("0").rstrip(".")
    return f"{mant}e{int(exp)}"


def _prefix_table(system: UnitSystem):
    return _IEC if system == "iec" else _SI


@dataclass(frozen=True)
class NamedUnit:
    """A unit as a user wrote it (``MiB``) with its exact factor to base units."""

    name: str
    factor: Fraction


def format_in(value: sympy.Basic, unit: NamedUnit, digits: int = 4, direction: Direction = None) -> Formatted:
    """``value`` (base units) in a named unit such as ``MiB``."""
    mantissa = value / sympy.Rational(unit.factor.numerator, unit.factor.denominator)
    return Formatted(format_number(mantissa, digits, direction=direction), unit.name)


def format_value(value: sympy.Basic | Fraction | int | float, dims: Dimension,
                 system: UnitSystem = "si", digits: int = 4, direction: Direction = None,
                 count: bool = False) -> Formatted:
    """Format a base-unit value with a readable prefix.

    Data and work (B, FLOP, and rates of them) take decimal prefixes by default,
    binary ones with ``system="iec"``; time takes s, ms, µs, ns, and days from two days on; intensities
    (FLOP/B) and plain numbers take none. ``direction`` rounds a bound's figures towards its inside
    ("down" for a largest value); ``count`` (a whole-number quantity) prints a whole value in full.
    """
    v = value if isinstance(value, sympy.Basic) else sympy.nsimplify(value)
    if count and dims.is_dimensionless and not dims.named and _is_whole(v):
        return Formatted(f"{int(v):,}", dims.unit_string())    # a count in full: 46,702,792,704
    unit = dims.unit_string()
    d = dims.as_dict()
    numerator_dims = [k for k, e in d.items() if e == 1]
    scalable = (len(numerator_dims) == 1 and numerator_dims[0] in ("[data]", "[compute]")
                and all(e == -1 and k == "[time]" for k, e in d.items() if e != 1))
    if dims.named == "OP":
        unit = unit.replace("FLOP", "OP")   # a quantity counted in integer operations (394 TOP/s)
    if scalable:
        fv = abs(float(v.evalf(30)))
        table = _prefix_table(system)
        if fv >= table[0][0] * 1000:        # past the largest prefix: 3.286e24 FLOP, not 3,285,600 EFLOP
            return Formatted(format_number(sympy.Float(v.evalf(30), 30) if v.is_Integer else v, digits,
                                                   direction=direction), unit)
        for factor, prefix in table:
            if fv >= factor * (1 - 1e-12):
                mant = v / factor
                return Formatted(format_number(mant, digits, direction=direction), prefix + unit,
                                 "binary prefixes (1 KiB = 1024 B)" if system == "iec"
                                 else "decimal prefixes (1 kB = 1000 B)")
        return Formatted(format_number(v, digits, direction=direction), unit)
    energy = _energy_or_mass(v, d, digits)
    if energy is not None:
        return energy
    if d == {"[time]": Fraction(-1)}:   # a rate of counts (tokens, steps, cycles): per second, decimal prefixes
        fv = abs(float(v.evalf(30)))
        # a clock: GHz; a rate that names what it counts: M tokens/s, GT/s; any other count per second: k/s
        counted = dims.named if dims.named.endswith("/s") else ""
        per = "Hz" if dims.named == "Hz" else ("T/s" if counted == "T/s" else (" " + counted if counted else "/s"))
        for factor, prefix in _SI:
            if fv >= factor * (1 - 1e-12):
                return Formatted(format_number(v / factor, digits, direction=direction), (prefix + per).strip())
        return Formatted(format_number(v, digits, direction=direction), per.strip())
    if d == {"[time]": Fraction(1)}:
        fv = abs(float(v.evalf(30)))
        if fv >= 2 * 86400 * (1 - 1e-12):       # a training run: 22.82 days, not 1,971,905 s
            return Formatted(format_number(v / 86400, digits, direction=direction), "days")
        for factor, prefix in _TIME:
            if fv >= float(factor) * (1 - 1e-12):
                scale = sympy.Rational(factor.numerator, factor.denominator)
                return Formatted(format_number(v / scale, digits, direction=direction), prefix + "s")
        return Formatted(format_number(v, digits, direction=direction), "s")
    if dims.named == "%":
        return Formatted(format_number(v * 100, digits, direction=direction), "%")
    if dims.named == "×":
        return Formatted(format_number(v, digits, direction=direction), "×")
    # a pure number (a count, a ratio) is never shown whole unless it is: 15,728.64 tokens, not 15,729
    return Formatted(format_number(v, digits, count=dims.is_dimensionless, direction=direction), unit)
