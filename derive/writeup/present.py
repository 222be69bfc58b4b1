"""Turn a :class:`Solution` into a view: plain data with LaTeX and text strings, for templates.

This is the "convert" pass between solving and rendering. It decides how each
expression and value is spelled (LaTeX with the catalog's symbols, plain text
with quantity ids, numbers with readable prefixes) but writes no sentences:
words come from the catalog's bilingual fields and from ``templates/messages.yaml``.
"""

from __future__ import annotations

import re
from typing import Any, Iterator, Mapping

import sympy
from sympy.printing.latex import LatexPrinter
from sympy.printing.str import StrPrinter

from ..records.catalog import Catalog
from ..records.entries import Condition, Quantity, Relation
from ..records.solution import Check, Fit, Given, Solution, Step
from ..symbolic.units import (
    SIGNS,
    Dimension,
    Direction,
    NamedUnit,
    UnitTable,
    format_in,
    format_value,
    parse_unit,
    short_decimal,
)
from .asides import inside_own_aside

__all__ = ["build_view", "latex_expr", "latex_value", "solution_to_dict", "text_value"]

_OPS_LATEX = {"<=": r"\le", ">=": r"\ge", "<": "<", ">": ">", "=": "="}


# ---------------------------------------------------------------------------
# values


def _formatted(value: sympy.Expr, dims: Dimension, units: str, digits: int, unit: NamedUnit | None,
               direction: Direction = None, count: bool = False):
    if unit is not None:
        return format_in(value, unit, digits, direction)
    return format_value(value, dims, units, digits, direction, count)


def text_value(value: sympy.Expr, dims: Dimension, units: str = "si", digits: int = 4,
               unit: NamedUnit | None = None, direction: Direction = None, count: bool = False) -> str:
    """A value for a reader; in ``unit`` (the unit it was written in) when given; a bound's edge rounded
    towards its inside (``direction``); a whole count in full (``count``)."""
    return _formatted(value, dims, units, digits, unit, direction, count).text


def written_unit(text: str, dims: Dimension, table: UnitTable) -> NamedUnit | None:
    """The unit a given value was written in (``"128 MiB"`` → ``MiB``), if it has one of ``dims``."""
    from ..catalog.values import split_value

    _, unit = split_value(text or "")
    if not unit:
        return None
    try:
        factor, unit_dims = parse_unit(unit, table)
        return NamedUnit(unit, factor) if unit_dims == dims else None
    except Exception:  # the value parsed when it was given; a unit that no longer parses is just not used
        return None


def latex_number(text: str) -> str:
    """``1.97e14`` → ``1.97\\times10^{14}``; ``327,680`` → ``327{,}680``."""
    m = re.fullmatch(r"(-?[\d.,]+)e(-?\d+)", text)
    if m:
        mant, exp = m.groups()
        body = f"10^{{{int(exp)}}}" if mant == "1" else f"{mant.replace(',', '{,}')}\\times 10^{{{int(exp)}}}"
        return body
    return text.replace(",", "{,}")


_EXPONENT = re.compile(r"\^\(?([+-]?[\d.]+)\)?")
_EXPONENTS = re.compile(r"(?:\^\(?[+-]?[\d.]+\)?)+")


def _braced_exponents(text: str) -> str:
    """Each power of a unit as a written TeX group: ``s^-1`` is ``s^{-1}`` (TeX raised only the minus) and
    ``TB^1^1`` is ``TB^{1^{1}}`` (a double superscript stopped the PDF build); ``**`` is ``^``."""
    m = _EXPONENT.search(text)
    if m is None:
        return text
    rest = text[m.end():]
    chain = _EXPONENTS.match(rest)
    inner = m.group(1) + (_braced_exponents(chain.group(0)) if chain else "")
    tail = rest[chain.end():] if chain else rest
    return text[:m.start()] + "^{" + inner + "}" + _braced_exponents(tail)


def latex_unit(unit: str) -> str:
    if unit in ("", "1"):
        return ""
    if unit in SIGNS:
        return {"%": r"\mathrm{\%}", "×": r"{\times}"}[unit]
    # a space inside a unit (M tokens/s) is a thin space in math mode, where a plain one vanishes
    return r"\mathrm{" + _braced_exponents(unit.replace("**", "^")).replace("·", r"\cdot ").replace(" ", r"\,") + "}"


def latex_value(value: sympy.Expr, dims: Dimension, units: str = "si", digits: int = 4,
                unit: NamedUnit | None = None, direction: Direction = None, count: bool = False) -> str:
    f = _formatted(value, dims, units, digits, unit, direction, count)
    num = latex_number(f.mantissa)
    u = latex_unit(f.unit)
    if f.unit in SIGNS:             # 25%, 2.562×: the sign right after the number
        return num + u
    return f"{num}\\,{u}" if u else num


# ---------------------------------------------------------------------------
# expressions


class SymbolNames:
    """Each quantity's SymPy symbol → its LaTeX (what SymPy's printer asks through ``get``), looked up
    in the catalog as a symbol is printed, with some symbols shown otherwise (their values)."""

    __slots__ = ("catalog", "shown")

    def __init__(self, catalog: Catalog, shown: dict[sympy.Basic, str] | None = None) -> None:
        self.catalog = catalog
        self.shown = shown or {}

    def get(self, sym: sympy.Basic, default: str | None = None) -> str | None:
        hit = self.shown.get(sym)
        if hit is not None:
            return hit
        q = self.catalog.quantities.get(sym.name) if isinstance(sym, sympy.Symbol) else None
        return q.latex if q is not None else default

    def __setitem__(self, sym: sympy.Basic, latex: str) -> None:
        self.shown[sym] = latex

    def copy(self) -> "SymbolNames":
        return SymbolNames(self.catalog, dict(self.shown))


class _DimensionsBySymbol(Mapping):
    """A quantity symbol → its dimension (the table ``dimension_of`` reads), looked up as needed."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def __getitem__(self, sym: sympy.Symbol) -> Dimension:
        return self.catalog.quantities[sym.name].dims

    def __iter__(self) -> Iterator[sympy.Symbol]:
        return (sympy.Symbol(name, positive=True) for name in self.catalog.quantities)

    def __len__(self) -> int:
        return len(self.catalog.quantities)


def _symbol_names(catalog: Catalog) -> SymbolNames:
    """The catalog's symbol names for the printer (do not modify: ``copy()`` first)."""
    return SymbolNames(catalog)


class Written:
    """The order in which the catalog writes the sums and products of some entries (relations, their
    regimes, conditions): ``b_w + b_g + b_o`` as the text says weights, gradients, optimizer, where SymPy
    keeps ``b_g + b_o + b_w``. A printer given one writes each sum and product that is one of these in
    that order, and the numerator or denominator of a product that is one (``n·k·b`` under a root);
    anything else (a form SymPy produced, an inverse) keeps SymPy's order."""

    def __init__(self, entries: Any = ()) -> None:
        self.sums: dict[frozenset, tuple] = {}
        self.products: dict[frozenset, tuple] = {}
        for entry in entries:
            for kind, operands in getattr(entry, "written", ()):
                if kind == "+":
                    self.sums.setdefault(frozenset(operands), tuple(operands))
                else:
                    self._product(tuple(operands))

    def _product(self, factors: tuple) -> None:
        if frozenset(sympy.Mul.make_args(sympy.Mul(*factors))) != frozenset(factors):
            return                      # SymPy merged some factors (x·x is x²): no order to keep
        self.products.setdefault(frozenset(factors), factors)
        up = tuple(f for f in factors if not f.is_Number and not _reciprocal(f))
        down = tuple(1 / f for f in factors if _reciprocal(f))
        for part in (up, down):
            if len(part) > 1:
                self.products.setdefault(frozenset(part), part)

    def __bool__(self) -> bool:
        return bool(self.sums or self.products)

    def terms(self, expr: sympy.Expr) -> tuple | None:
        """A sum's terms in written order, or None."""
        return self.sums.get(frozenset(expr.args))

    def factors(self, expr: sympy.Expr) -> list | None:
        """A product's factors in written order (the coefficient in front), or None where that is
        SymPy's order already or nothing is written."""
        args = list(expr.as_ordered_factors())
        whole = self.products.get(frozenset(expr.args))
        if whole is not None:
            ordered = [f for f in whole if f.is_Number] + [f for f in whole if not f.is_Number]
        else:
            up = [f for f in args if not f.is_Number and not _reciprocal(f)]
            down = [f for f in args if _reciprocal(f)]
            up_written = self.products.get(frozenset(up)) if len(up) > 1 else None
            down_written = self.products.get(frozenset(1 / f for f in down)) if len(down) > 1 else None
            if up_written is None and down_written is None:
                return None
            ordered = ([f for f in args if f.is_Number] + list(up_written or up)
                       + ([1 / f for f in down_written] if down_written else down))
        return ordered if ordered != args and len(ordered) == len(args) else None


_NO_ORDER = Written()


def _reciprocal(factor: sympy.Expr) -> bool:
    return bool(factor.is_Pow and factor.exp.is_Number and factor.exp < 0)


def written_of(catalog: Catalog, ids: Any) -> Written:
    """The written order of the relations and conditions ``ids`` name (with a relation's regimes)."""
    entries: list[Any] = []
    for rid in ids:
        entry = catalog.relations.get(rid) or catalog.conditions.get(rid)
        if entry is not None:
            entries.append(entry)
            entries.extend(getattr(entry, "regimes", ()))
    return Written(entries)


def _latex(expr: sympy.Basic, names: "SymbolNames", written: Written = _NO_ORDER) -> str:
    """LaTeX as a person writes it: square roots of several factors combined into one root, sums and
    products in the order the catalog writes them."""
    printer = _RootPrinter({"symbol_names": names, "mul_symbol": "dot"})
    printer.written = written
    return printer.doprint(_positive_numerator(expr))


def _positive_numerator(expr: sympy.Basic) -> sympy.Basic:
    """A fraction whose numerator holds a sum of negative terms, written with both signs turned, as a
    person would: ``P·(−a − b)/(c − d)`` as ``P·(a + b)/(d − c)`` (the same value)."""
    if isinstance(expr, sympy.Rel):
        return expr.func(_positive_numerator(expr.lhs), _positive_numerator(expr.rhs), evaluate=False)
    if not isinstance(expr, sympy.Mul):
        return expr
    num, den = sympy.fraction(expr)
    if not (den.is_Add and any(_negative_term(t) for t in den.args)):
        return expr                     # turning a denominator of positive terms would only move the sign
    factors = sympy.Mul.make_args(num)
    negative = [f for f in factors if f.is_Add and all(_negative_term(t) for t in f.args)]
    if len(negative) == 1:
        turned = [-f if f is negative[0] else f for f in factors]
    elif not negative and num.as_coeff_Mul()[0] < 0:
        turned = list(sympy.Mul.make_args(-num))
    else:
        return expr
    return sympy.Mul(*turned, sympy.Pow(-den, -1), evaluate=False)


def _negative_term(term: sympy.Expr) -> bool:
    return bool(term.as_coeff_Mul()[0] < 0)


def _positive_terms_first(terms: list) -> list:
    """A sum's terms with the positive ones first, as a person writes ``h·t − 34·b·d`` (stable otherwise)."""
    return sorted(terms, key=_negative_term)


class _WrittenPrinter:
    """A printer mixin that writes sums and products in a :class:`Written` order.

    SymPy's printers sort a product's factors unless their ``order`` is ``none``; a product with a
    written order is rebuilt unevaluated in that order and printed with ``order`` ``none``, and every
    sum and product below it sets its own order again (a nested node without one keeps SymPy's)."""

    written: Written = _NO_ORDER
    _settings: dict

    def _as_ordered_terms(self, expr: sympy.Expr, order: str | None = None) -> list:
        terms = self.written.terms(expr) if self.written else None
        if terms is None:
            terms = super()._as_ordered_terms(expr, None if order == "none" else order)  # type: ignore[misc]
        return _positive_terms_first(list(terms))

    def _in_order(self, order: str | None, print_it: Any, expr: sympy.Expr) -> str:
        saved = self._settings["order"]
        self._settings["order"] = order
        try:
            return print_it(expr)
        finally:
            self._settings["order"] = saved

    def _written_mul(self, expr: sympy.Expr, print_mul: Any, minus: str) -> str:
        """``print_mul`` of ``expr`` with its factors in written order (``minus`` before a negative one)."""
        if not (self.written and expr.is_Mul):
            return self._in_order(None, print_mul, expr)
        sign = ""
        coeff, _ = expr.as_coeff_Mul()
        if coeff < 0:
            positive = -expr
            ordered = self.written.factors(positive) if positive.is_Mul else None
            if ordered is None:
                return self._in_order(None, print_mul, expr)
            sign = minus
        else:
            ordered = self.written.factors(expr)
            if ordered is None:
                return self._in_order(None, print_mul, expr)
        if ordered[0] == 1:
            ordered = ordered[1:]
        return sign + self._in_order("none", print_mul, sympy.Mul(*ordered, evaluate=False))


def _root_factors(expr: sympy.Expr) -> tuple[list[sympy.Expr], list[sympy.Expr], list[sympy.Expr]]:
    """A product's factors sorted: the bases of its square roots above and below the line, and the rest."""
    up, down, rest = [], [], []
    for factor in expr.args:
        base, exp = factor.as_base_exp()
        if exp == sympy.S.Half:
            up.append(base)
        elif exp == -sympy.S.Half:
            down.append(base)
        else:
            rest.append(factor)
    return up, down, rest


def _combined_root(expr: sympy.Expr) -> sympy.Expr | None:
    """``√2·√C/(4·√e)`` as the one root a textbook writes, ``√(C/(8·e))`` (the positive rational put under
    it), unevaluated; None unless ``expr`` is a product of square roots, at least one of a symbol, and a
    positive rational, with two roots or a rational besides its root."""
    up, down, rest = _root_factors(expr)
    if not all(f.is_Rational and f.is_positive for f in rest):
        return None
    coeff = sympy.Mul(*rest)
    if not any(not b.is_Rational for b in up + down) or (len(up) + len(down) < 2 and coeff == 1):
        return None
    inner = sympy.Mul(coeff**2, *up, *(sympy.Pow(b, -1) for b in down))
    return sympy.Pow(inner, sympy.S.Half, evaluate=False)


class _RootPrinter(_WrittenPrinter, LatexPrinter):
    r"""``\frac{\sqrt{C}}{\sqrt{n} \cdot \sqrt{k}}`` is written ``\sqrt{\frac{C}{n \cdot k}}``."""

    def _print_Add(self, expr: sympy.Expr, order: str | None = None) -> str:  # noqa: N802
        return self._in_order(None, lambda e: super(_RootPrinter, self)._print_Add(e, order), expr)

    def _print_Mul(self, expr: sympy.Expr) -> str:  # noqa: N802 - SymPy's printer protocol
        return self._written_mul(expr, self._root_mul, "- ")

    def _root_mul(self, expr: sympy.Expr) -> str:
        combined = _combined_root(expr)
        if combined is not None:
            return self._print(combined)
        up, down, rest = _root_factors(expr)
        if len(up) + len(down) < 2:
            return super()._print_Mul(expr)
        num = self._print(sympy.Mul(*up, evaluate=False)) if up else "1"
        inner = num if not down else rf"\frac{{{num}}}{{{self._print(sympy.Mul(*down, evaluate=False))}}}"
        root = rf"\sqrt{{{inner}}}"
        if not rest:
            return root
        other = sympy.Mul(*rest, evaluate=self._settings["order"] != "none" or len(rest) < 2)
        if other.is_Rational and other.p == 1:
            return rf"\frac{{{root}}}{{{self._print(other.q)}}}"
        return f"{self._print(other)} \\cdot {root}"


def latex_expr(expr: sympy.Basic, catalog: Catalog, written: Written = _NO_ORDER) -> str:
    """An expression or relation in the catalog's symbols: ``I^{*}_{\\mathrm{HBM}} = \\frac{F}{W_{\\mathrm{HBM}}}``
    (its sums and products in ``written`` order where it gives one)."""
    return _latex(expr, _symbol_names(catalog), written)


def _latex_relational(lhs: sympy.Expr, op: str, rhs: sympy.Expr, catalog: Catalog, names=None,
                      written: Written = _NO_ORDER) -> str:
    names = names or _symbol_names(catalog)
    return f"{_latex(lhs, names, written)} {_OPS_LATEX[op]} {_latex(rhs, names, written)}"


Values = dict  # quantity id -> (value in base units, dimension, unit it was written in or None)


def _constant_dims(condition: sympy.Basic, catalog: Catalog) -> Dimension | None:
    """The unit of a condition's bare-number side (``decode_step_time <= 50 ms``, kept as 1/20 in base
    units): the dimension of its other side when that is one quantity, else None."""
    lhs, rhs = getattr(condition, "lhs", None), getattr(condition, "rhs", None)
    if not (isinstance(lhs, sympy.Symbol) and rhs is not None and rhs.is_Number and rhs != 0):
        return None
    q = catalog.quantities.get(lhs.name)
    return q.dims if q is not None and not q.dims.is_dimensionless else None


def _with_constant(rel: sympy.Basic, catalog: Catalog, units: str, dims: Dimension,
                   written: Written = _NO_ORDER) -> tuple[str, str]:
    """A condition (LaTeX, text) with its bare-number right side shown in ``dims``: 50 ms, not 1/20."""
    op = rel.rel_op
    return (f"{latex_expr(rel.lhs, catalog, written)} {_OPS_LATEX[op]} {latex_value(rel.rhs, dims, units)}",
            f"{text_expr(rel.lhs, written)} {op} {text_value(rel.rhs, dims, units)}")


def latex_substituted(expr: sympy.Expr, values: Values, catalog: Catalog, units: str,
                      follows: Mapping[str, sympy.Expr] | None = None, written: Written = _NO_ORDER) -> str:
    """``expr`` with each symbol replaced by its value and unit; a default taken as a formula
    (``follows``: head_dim = d_model / num_heads) by that formula, its own values put in."""
    if isinstance(expr, sympy.Symbol) and expr.name in values:
        v, d, u = values[expr.name]
        return latex_value(v, d, units, unit=u)
    names = _symbol_names(catalog).copy()
    for sym in expr.free_symbols:
        if sym.name in values:
            v, d, u = values[sym.name]
            shown = latex_value(v, d, units, unit=u)
            # a bare number needs no brackets; a value with a unit or a power of ten does
            names[sym] = shown if _BARE_NUMBER.fullmatch(shown) else r"\left(" + shown + r"\right)"
        elif follows and sym.name in follows:
            formula = follows[sym.name]
            shown = latex_substituted(formula, values, catalog, units)
            names[sym] = shown if formula.is_Symbol else r"\left(" + shown + r"\right)"
    out = _latex(expr, names, written)
    # a power of a bracketed value is bracketed once: SymPy brackets a base with a ^ in it again, and
    # (1.97e14 FLOP/s)² printed as ((1.97×10^14 FLOP/s))²
    for shown in names.shown.values():
        if isinstance(shown, str) and shown.startswith(r"\left("):
            out = out.replace(r"\left(" + shown + r"\right)", shown)
    out = _SQRT_PARENS.sub(r"\\sqrt{\1}", out)
    # a value as one argument of max/min needs no brackets of its own: \max(10 ms, 1 ms)
    return _ARG_PARENS_LATEX.sub(r"\1\2", out) if "\\max" in out or "\\min" in out else out


_BARE_NUMBER = re.compile(r"[\d.]+(\{,\}\d+)*")
_ARG_PARENS_LATEX = re.compile(r"((?:\\max|\\min)\\left\(|, )\\left\(((?:[^{}()]|\{[^{}]*\})*)\\right\)"
                               r"(?=, |\\right\))")
_SQRT_PARENS = re.compile(r"\\sqrt\{\\left\(((?:[^{}]|\{[^{}]*\})*)\\right\)\}")


def _plain_value(value: sympy.Expr, digits: int = 4) -> str:
    """A number as the cancelling line writes it: an exact whole number in full (``134,217,728``),
    anything else to ``digits`` significant figures."""
    if value.is_Integer and abs(int(value)) < 10**15:
        return f"{int(value):,}"
    from ..symbolic.units import format_number

    return format_number(value, digits, count=True)


def _common_unit(small: sympy.Expr, dims: Dimension, units: str, table: UnitTable | None,
                 *others: sympy.Expr) -> NamedUnit | None:
    """The unit both sides of a cancelling fraction are written in: the one the smaller reads best in
    (16 GB) when every side is a short number in it (70 GB / 16 GB); else None, the base unit."""
    from ..symbolic.units import short_decimal

    name = format_value(small, dims, units).unit
    if table is None or name == dims.unit_string():
        return None
    try:
        factor, unit_dims = parse_unit(name, table)
    except Exception:  # a unit the table does not read back: the base unit
        return None
    scale = sympy.Rational(factor.numerator, factor.denominator)
    if unit_dims != dims or any(short_decimal(sympy.Rational(v / scale), 4) is None for v in (small, *others)):
        return None
    return NamedUnit(name, factor)


def cancelling(expr: sympy.Expr, values: Values, units: str = "si",
               table: UnitTable | None = None) -> tuple[str, str] | None:
    """The line where the units of ``expr``'s values cancel, as a textbook writes it, in LaTeX and text:
    ``√(128 MiB / (2·4·(2 B)))`` goes on as ``= √(134,217,728 B / 16 B) = √8,388,608``.

    Only for a product of powers of the values (under one square or cube root or none) whose numerator
    and denominator carry the same unit, so that it cancels; otherwise None. Both sides are multiplied out
    in one unit (the base unit, or one such as GB in which both are short numbers: 70 GB / 16 GB, with
    ``table`` to read it); the bare number left under a root is shown before its root is taken. A fraction of
    one value over one other shown in the same unit (``138.4 MB / 54.02 MB``) already shows its unit
    cancelling: no line for it."""
    factors = sympy.Mul.make_args(expr)
    if any(not (f.as_base_exp()[0].is_Symbol or f.is_Rational) or not f.as_base_exp()[1].is_Rational
           for f in factors) or not all(sym.name in values for sym in expr.free_symbols):
        return None
    root = 1
    for f in factors:
        if not f.is_Rational:
            root = int(sympy.ilcm(root, sympy.Rational(f.as_base_exp()[1]).q))
    if root > 3:
        return None
    top, bottom = sympy.S.One, sympy.S.One
    top_dims, bottom_dims = Dimension(()), Dimension(())
    shown: dict[bool, list[str]] = {True: [], False: []}      # the units the values are shown in, above and below
    for f in factors:
        if f.is_Rational:
            coeff = f ** root
            top, bottom = top * coeff.p, bottom * coeff.q
            continue
        base, exp = f.as_base_exp()
        v, d, written = values[base.name]
        power = exp * root
        if not d.is_dimensionless:
            shown[power > 0].extend([_formatted(v, d, units, 4, written).unit] * abs(int(power)))
        if power > 0:
            top, top_dims = top * v ** power, top_dims * d ** int(power)
        else:
            bottom, bottom_dims = bottom * v ** -power, bottom_dims * d ** int(-power)
    if top_dims.is_dimensionless or top_dims != bottom_dims:
        return None                      # no unit, or one that does not cancel
    if root == 1 and len(shown[True]) == len(shown[False]) == 1 and shown[True] == shown[False]:
        return None                      # 138.4 MB / 54.02 MB: seen cancelling already
    common = _common_unit(min(top, bottom), top_dims, units, table, max(top, bottom))
    if common is None:
        unit, up, down = top_dims.unit_string(), _plain_value(top), _plain_value(bottom)
    else:
        unit, up, down = common.name, format_in(top, common).mantissa, format_in(bottom, common).mantissa
    # the number left under a root to the bound's seven digits (its root is the value shown next)
    ratio = _plain_value(top / bottom, 7)
    frac_latex = rf"\frac{{{latex_number(up)}\,{latex_unit(unit)}}}{{{latex_number(down)}\,{latex_unit(unit)}}}"
    frac_text = f"{up} {unit} / {down} {unit}"
    if root == 1:
        return frac_latex, frac_text
    index = "" if root == 2 else f"[{root}]"
    name = "sqrt" if root == 2 else "cbrt"
    return (rf"\sqrt{index}{{{frac_latex}}} = \sqrt{index}{{{latex_number(ratio)}}}",
            f"{name}({frac_text}) = {name}({ratio})")


class _TextPrinter(_WrittenPrinter, StrPrinter):
    def __init__(self, names: dict[str, str], written: Written = _NO_ORDER, combine_roots: bool = False):
        super().__init__({"order": None})
        self._names = names
        self.written = written
        self._combine_roots = combine_roots     # a formula in symbols: sqrt(C/(8*e)), not sqrt(2)*sqrt(C)/...

    def _print_Add(self, expr: sympy.Expr, order: str | None = None) -> str:  # noqa: N802
        return self._in_order(None, lambda e: super(_TextPrinter, self)._print_Add(e, order), expr)

    def _print_Mul(self, expr: sympy.Expr) -> str:  # noqa: N802
        combined = _combined_root(expr) if self._combine_roots else None
        if combined is not None:
            return self._print(combined)
        return self._written_mul(expr, super()._print_Mul, "-")

    def _print_Symbol(self, expr: sympy.Symbol) -> str:
        return self._names.get(expr.name, expr.name)

    def _print_ceiling(self, expr: sympy.Basic) -> str:
        return f"ceil({self._print(expr.args[0])})"

    def _print_Max(self, expr: sympy.Basic) -> str:
        return "max(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_Min(self, expr: sympy.Basic) -> str:
        return "min(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_Relational(self, expr: sympy.Basic) -> str:
        op = {"==": "=", "<=": "<=", ">=": ">=", "<": "<", ">": ">"}.get(expr.rel_op, expr.rel_op)
        return f"{self._print(expr.lhs)} {op} {self._print(expr.rhs)}"


def text_expr(expr: sympy.Basic, written: Written = _NO_ORDER) -> str:
    return _TextPrinter({}, written, combine_roots=True).doprint(_positive_numerator(expr))


def text_substituted(expr: sympy.Expr, values: Values, units: str,
                     follows: Mapping[str, sympy.Expr] | None = None, written: Written = _NO_ORDER) -> str:
    names = {}
    for sym in expr.free_symbols:
        if sym.name in values:
            v, d, u = values[sym.name]
            t = text_value(v, d, units, unit=u)
            names[sym.name] = f"({t})" if (" " in t or "/" in t) else t
        elif follows and sym.name in follows:
            formula = follows[sym.name]
            t = text_substituted(formula, values, units)
            names[sym.name] = t if formula.is_Symbol else f"({t})"
    # a bracketed value as a function's only argument needs no second pair: sqrt(128 MiB)
    out = _DOUBLE_PARENS.sub(r"\1(\2)", _TextPrinter(names, written).doprint(_positive_numerator(expr)))
    return _ARG_PARENS_TEXT.sub(r"\1\2", out) if "max(" in out or "min(" in out else out


_ARG_PARENS_TEXT = re.compile(r"((?:max|min)\(|, )\(([^()]*)\)(?=, |\))")
_DOUBLE_PARENS = re.compile(r"(\w+)\(\(([^()]*)\)\)")


# ---------------------------------------------------------------------------
# the view


def _names(q: Quantity) -> dict[str, str]:
    return {"en": q.name.en, "zh": q.name.zh}


def source_view(catalog: Catalog, source) -> dict[str, Any] | None:
    if source is None or not source.ref:
        return None
    ref = catalog.references.get(source.ref)
    return {"ref": source.ref, "locator": source.locator, "title": ref.title if ref else source.ref,
            "title_zh": ref.title_zh if ref else "",
            "url": ref.url if ref else "", "kind": ref.kind if ref else ""}


def _given_view(catalog: Catalog, g: Given, units: str) -> dict[str, Any]:
    q = catalog.quantities[g.name]
    kind, _, preset = g.origin.partition(":")
    entry = catalog.presets.get(preset) if preset else None
    return {
        "preset_name": {"en": entry.name.en, "zh": entry.name.zh} if entry else None,
        "id": g.name, "name": _names(q), "symbol": q.latex,
        # a default taken as a formula shows it: head_dim = d_model/num_heads
        "value_text": text_expr(g.value) if g.is_formula
        else text_value(g.value, g.dims, units, unit=written_unit(g.text, g.dims, catalog.units)),
        "value_latex": latex_expr(g.value, catalog) if g.is_formula
        else latex_value(g.value, g.dims, units, unit=written_unit(g.text, g.dims, catalog.units)),
        "as_written": g.text, "origin": kind, "preset": preset, "source": source_view(catalog, g.source),
        **dict(zip(("note", "note_zh"), given_notes(catalog, g))), "assumption": g.is_assumption,
        "base_value": str(g.value) if g.is_formula else _number(g.value), "formula": g.is_formula,
        "unit": g.unit,
    }


def given_notes(catalog: Catalog, g: Given) -> tuple[str, str]:
    """A given value's note in English and Chinese; one that follows another quantity says which, in
    the catalog's symbols: "the one element size, unless ... (= $e$)"."""
    if g.follows is None:
        return g.note, g.note_zh
    same = f"= ${latex_expr(g.follows, catalog)}$"
    # a note that ends in an aside of its own takes this one inside it (as the templates' aside() does)
    en_inner, zh_inner = inside_own_aside(g.note, "en"), inside_own_aside(g.note_zh, "zh")
    en = same if not g.note else f"{en_inner}; {same})" if en_inner is not None else f"{g.note} ({same})"
    zh = "" if not g.note_zh else f"{zh_inner}，{same}）" if zh_inner is not None else f"{g.note_zh}（{same}）"
    return en, zh


def _base_text(value: sympy.Expr, dims: Dimension) -> str:
    """The value in its base unit when that says more than the prefixed form: ``327,680 B``."""
    if value.is_Integer and dims.unit_string() in ("B", "FLOP") and abs(int(value)) >= 1000:
        return f"{int(value):,} {dims.unit_string()}" if abs(int(value)) < 10**15 else ""
    return ""


def _number(value: sympy.Expr) -> int | float | str:
    """A JSON number: exact for integers, a float otherwise, and beyond a float's range a decimal
    string of 17 significant digits (JSON has no infinity; ``exact`` keeps the exact value)."""
    if value.is_Integer:
        return int(value)
    approx = value.evalf(17)
    if approx.is_Float and (approx.is_zero or 1e-300 < abs(approx) < 1e300):
        return float(approx)
    from ..symbolic.units import format_number

    return format_number(value, 17)


def exact_text(value: sympy.Expr) -> str:
    """The exact value as SymPy writes it; a rational of thousands of digits (0.8^100001) as its leading
    30 digits in scientific form instead, which Python would refuse to print."""
    try:
        return str(value)
    except ValueError:
        from ..symbolic.units import format_number

        return "≈" + format_number(value, 30)


def exact_latex(value: sympy.Expr) -> str:
    """:func:`exact_text` in LaTeX."""
    try:
        return sympy.latex(value)
    except ValueError:
        from ..symbolic.units import format_number

        return r"\approx " + latex_number(format_number(value, 30))


def _entry(catalog: Catalog, rid: str) -> Relation | Condition:
    """The relation or condition a step or check names."""
    return catalog.relations.get(rid) or catalog.condition(rid)


def _step_view(catalog: Catalog, step: Step, values: Values, units: str, index: int,
               before: sympy.Expr | None = None, unknown: str | None = None,
               shown_in: Mapping[str, Any] | None = None,
               follows: Mapping[str, sympy.Expr] | None = None, context: tuple[str, ...] = ()) -> dict[str, Any]:
    """One step as the templates read it; ``shown_in`` names the unit a quantity's value is shown in
    (the answer's ``unit``, so that its step says the same as the headline); ``follows`` holds the
    defaults taken as formulas (head_dim = d_model / num_heads), shown in their place; ``context`` names
    the other relations of the solution (a condition composed with them prints their sums as written)."""
    follows = follows or {}
    # the step's sums and products as its relations write them, then as the solution's other relations do
    written = written_of(catalog, (*step.relations, *context))
    # the missing inputs those formulas keep (num_heads): shown by name where they cancel
    kept = {s.name for f in follows.values() for s in f.free_symbols} - set(values)
    rels = []
    for rid in step.relations:
        entry = _entry(catalog, rid)
        rels.append({"id": rid, "name": {"en": entry.name.en, "zh": entry.name.zh},
                     "meaning": {"en": entry.meaning.en, "zh": entry.meaning.zh},
                     "source": source_view(catalog, entry.source),
                     "text": getattr(entry, "equation_text", None) or getattr(entry, "text", "")})
    solved_for = [{"id": u, "name": _names(catalog.quantities[u]), "symbol": catalog.quantities[u].latex}
                  for u in step.solved_for]
    view: dict[str, Any] = {
        "index": index, "kind": step.kind, "relations": rels, "solved_for": solved_for,
        "inverse": step.inverse, "regime": None, "direction": step.direction, "note": step.note,
        "equations_latex": [latex_expr(e, catalog, written) for e in step.equations],
        "equations_text": [text_expr(e, written) for e in step.equations],
        "solved_latex": [latex_expr(e, catalog, written) for e in step.solved],
        "solved_text": [text_expr(e, written) for e in step.solved],
        "substituted_latex": [], "substituted_text": [], "cancelled_latex": [], "cancelled_text": [],
        "results": [], "symbolic": not all(v is not None for v in step.values),
        "pending": [], "reused_from": None, "reused_latex": "",
        # the quantities the step reads (what an earlier question's cited result must supply)
        "inputs": sorted({str(x) for e in (*step.equations, *step.solved, *step.composed)
                          for x in getattr(e, "free_symbols", ())} - set(step.solved_for)),
    }
    if step.kind == "relation" and view["symbolic"]:
        # quantities this step's result still depends on (the unknown of a bound, found later)
        # (for a bound, that is the target itself: the condition will pin it down)
        free = [unknown] if unknown else sorted({s.name for eq in step.solved for s in eq.rhs.free_symbols}
                                                - set(values))
        view["pending"] = [{"id": n, "name": _names(catalog.quantities[n]), "symbol": catalog.quantities[n].latex}
                           for n in free]
    if step.regime:
        rel = catalog.relations[step.relations[0]]
        reg = next(r for r in rel.regimes if r.id == step.regime)
        # where the regimes meet (compute time = memory time) the answer is in neither alone: "balanced"
        other = next((r for r in rel.regimes if r.id != reg.id), reg)
        view["regime"] = {"id": reg.id, "name": {"en": reg.name.en, "zh": reg.name.zh}, "balanced": step.balanced,
                          "other": {"en": other.name.en, "zh": other.name.zh},
                          # the condition as it holds where the regimes meet: T_math = T_mem
                          "when_met_latex": _latex_relational(reg.when.lhs, "=", reg.when.rhs, catalog,
                                                              written=written),
                          "when_latex": _latex_relational(reg.when.lhs, reg.when.op, reg.when.rhs, catalog,
                                                          written=written),
                          "when_text": reg.when_text}
        shown = _regime_values(catalog, reg.when, values, units)
        # the condition with its numbers: T_math >= T_mem  (1.011 ms >= 298.5 us)
        view["regime"]["when_values_latex"] = (
            view["regime"]["when_latex"] + (r" \quad \left(" + shown + r"\right)" if shown else ""))
    if step.kind == "approximate":
        view["assumption"] = step.note
    if step.kind == "interval":
        view["rounded"] = step.note
    for eq in step.solved:
        rhs = eq.rhs
        if step.regime and not step.inverse:
            # a max/min: every argument with its value, max(10 ms, 1 ms), then the one that wins
            rhs = catalog.relations[step.relations[0]].rhs
        names = {s.name for s in rhs.free_symbols}
        if step.kind in ("relation", "system", "bound", "approximate") and names and (
                names <= set(values) or (names & set(follows) and names <= set(values) | set(follows) | kept)):
            view["substituted_latex"].append(latex_substituted(rhs, values, catalog, units, follows, written))
            view["substituted_text"].append(text_substituted(rhs, values, units, follows, written))
            # where the values' units cancel, the line that shows them cancelling
            cancel = cancelling(rhs, values, units, catalog.units) if names <= set(values) and not step.regime else None
            view["cancelled_latex"].append(cancel[0] if cancel else "")
            view["cancelled_text"].append(cancel[1] if cancel else "")
    for k, (value, dims) in enumerate(zip(step.values, step.dims)):
        if value is not None:
            digits = 7 if step.kind == "bound" else 4
            unit = (shown_in or {}).get(step.solved_for[k]) if k < len(step.solved_for) else None
            view["results"].append({"latex": latex_value(value, dims, units, digits, unit=unit),
                                    "text": text_value(value, dims, units, digits, unit=unit),
                                   "base": _number(value), "unit": dims.unit_string(),
                                   "exact": exact_text(value), "exact_latex": exact_latex(value)})
    if step.kind == "bound":
        op = step.relation_op or "<="
        view["composed_latex"] = [_latex_relational(c.lhs, c.rel_op, c.rhs, catalog, written=written)
                                  for c in step.composed]
        view["composed_text"] = [f"{text_expr(c.lhs, written)} {c.rel_op} {text_expr(c.rhs, written)}"
                                 for c in step.composed]
        # a condition typed with a unit (decode_step_time <= 50 ms) shows it, also once composed
        for i, (e, c) in enumerate(zip(step.equations, step.composed)):
            constant = _constant_dims(e, catalog)
            if constant is not None and c.rhs.is_Number:
                view["equations_latex"][i], view["equations_text"][i] = _with_constant(e, catalog, units, constant,
                                                                                       written)
                view["composed_latex"][i], view["composed_text"][i] = _with_constant(c, catalog, units, constant,
                                                                                     written)
        target = catalog.quantities[step.solved_for[0]]
        view["isolated_latex"] = [_latex_relational(target.symbol, op, eq.rhs, catalog, written=written)
                                  for eq in step.solved]
        view["isolated_text"] = [f"{target.id} {op} {text_expr(eq.rhs, written)}" for eq in step.solved]
        view["isolated_rhs_latex"] = [latex_expr(eq.rhs, catalog, written) for eq in step.solved]
        view["op_latex"] = _OPS_LATEX[op]
        view["op"] = op
    if step.kind == "round" and step.direction == "optimum":
        view.update(_optimum_rounding_view(catalog, step, units))
    elif step.kind == "round":
        view.update(_rounding_view(step, before, units))
    if step.kind == "optimum":
        view.update(_optimum_view(catalog, step, values, units, written))
    view["rows"] = _step_rows(view)
    return view


def _optimum_view(catalog: Catalog, step: Step, values: Values, units: str,
                  written: Written = _NO_ORDER) -> dict[str, Any]:
    """An optimum as a textbook derives it: the objective in the unknown, its derivative set to zero
    (or the two terms of a max/min set equal), the unknown isolated and evaluated, the second
    derivative's sign."""
    target = catalog.quantities[step.solved_for[0]]
    objective = catalog.quantities[step.equations[0].lhs.name]
    x, t = target.latex, objective.latex
    g, condition, x_star = step.equations[0].rhs, step.composed[0], step.solved[0].rhs
    rows = [[t, "=", latex_expr(g, catalog, written)]]
    text = [f"{objective.id} = {text_expr(g, written)}"]
    if step.note in ("stationary", "numeric"):
        derivative = rf"\frac{{\mathrm{{d}} {t}}}{{\mathrm{{d}} {x}}}"
        rows.append([derivative, "=", latex_expr(condition.lhs, catalog) + " = 0"])
        text.append(f"d {objective.id} / d {target.id} = {text_expr(condition.lhs)} = 0")
    else:
        rows.append([latex_expr(condition.lhs, catalog), "=", latex_expr(condition.rhs, catalog)])
        text.append(f"{text_expr(condition.lhs)} = {text_expr(condition.rhs)}")
    result = latex_value(step.values[0], target.dims, units, 7) if step.values[0] is not None else ""
    result_text = text_value(step.values[0], target.dims, units, 7) if step.values[0] is not None else ""
    if step.note == "numeric":
        # no closed form: the root as found, to the digits shown
        rows.append([r"\Rightarrow\; " + x, r"\approx", result])
        text.append(f"=> {target.id} ≈ {result_text}")
        result = result_text = ""
    else:
        rows.append([r"\Rightarrow\; " + x, "=", latex_expr(x_star, catalog)])
        text.append(f"=> {target.id} = {text_expr(x_star)}")
    if not result:
        pass
    elif x_star.free_symbols and all(sym.name in values for sym in x_star.free_symbols):
        cancel = cancelling(x_star, values, units, catalog.units)
        if cancel:
            # the values, then their units cancelling, then the number
            rows.extend(_cancel_rows("=", latex_substituted(x_star, values, catalog, units, written=written),
                                     cancel[0], result))
            text.append(f"   = {text_substituted(x_star, values, units, written=written)}")
            text.append(f"   = {cancel[1]} = {result_text}")
        else:
            rows.append(["", "=", latex_substituted(x_star, values, catalog, units, written=written) + " = " + result])
            text.append(f"   = {text_substituted(x_star, values, units, written=written)} = {result_text}")
    elif result:
        rows.append(["", "=", result])
        text.append(f"   = {result_text}")
    if step.second is not None:
        dims = objective.dims / (target.dims * target.dims)
        op = ">" if step.direction == "min" else "<"
        rows.append([rf"\frac{{\mathrm{{d}}^2 {t}}}{{\mathrm{{d}} {x}^2}}", "=",
                     latex_value(step.second, dims, units) + f" {op} 0"])
        text.append(f"d2 {objective.id} / d {target.id}2 = {text_value(step.second, dims, units)} {op} 0")
    return {"optimum_rows": rows, "optimum_text": text, "objective": {"id": objective.id,
            "name": _names(objective), "symbol": t}}


def _optimum_rounding_view(catalog: Catalog, step: Step, units: str) -> dict[str, Any]:
    """A whole-number optimum: the objective at the neighbours on either side, the better one kept."""
    target = catalog.quantities[step.solved_for[0]]
    objective = catalog.quantities[step.inputs[0]] if step.inputs and step.inputs[0] in catalog.quantities else None
    t = objective.latex if objective is not None else "f"
    dims = objective.dims if objective is not None else target.dims
    rows, text = [], []
    for x_value, g_value in step.candidates:
        rows.append([rf"{t}\big|_{{{target.latex} = {latex_value(x_value, target.dims, units)}}}", "=",
                     latex_value(g_value, dims, units)])
        text.append(f"{target.id} = {text_value(x_value, target.dims, units)}: "
                    f"{objective.id if objective else 'objective'} = {text_value(g_value, dims, units)}")
    chosen = latex_value(step.values[0], target.dims, units) if step.values[0] is not None else ""
    rows.append([r"\Rightarrow\; " + target.latex, "=", chosen])
    return {"multiple": int(step.note or 1), "rounding_rows": rows, "rounding_text_lines": text,
            "rounding_latex": chosen, "rounding_text": text_value(step.values[0], target.dims, units)
            if step.values[0] is not None else ""}


def _step_rows(v: dict[str, Any]) -> list[list[str]]:
    """The step as one aligned derivation: rows of (left side, relation sign, right side) in LaTeX.

    Symbolic → isolated → substituted → number, with no row that repeats the one before it and no
    tautology (a row whose two sides print the same).
    """
    if not v["solved_for"]:
        return []
    x = v["solved_for"][0]["symbol"]
    rows: list[list[str]] = []
    kind = v["kind"]
    cancel = v["cancelled_latex"][0] if v.get("cancelled_latex") else ""
    if kind == "relation":
        eq = v["equations_latex"][0] if v["equations_latex"] else ""
        lhs, _, rhs = eq.partition(" = ")
        if v["inverse"] or lhs.strip() != x:
            rows.append([lhs, "=", rhs])
            if v["solved_latex"]:
                rows.append([r"\Rightarrow\; " + x, "=", v["solved_latex"][0].partition(" = ")[2]])
        else:
            rows.append([x, "=", rhs])
        if v["substituted_latex"] and v["results"] and cancel:
            # the values, then their units cancelling, then the number
            rows.extend(_cancel_rows("=", v["substituted_latex"][0], cancel, v["results"][0]["latex"]))
        elif v["substituted_latex"] and v["results"] and len(v["substituted_latex"][0]) < 90:
            # values and the number on one line: = (312 TFLOP/s)/(2 TB/s) = 156 FLOP/B
            rows.append(["", "=", v["substituted_latex"][0] + " = " + v["results"][0]["latex"]])
        else:
            if v["substituted_latex"]:
                rows.append(["", "=", v["substituted_latex"][0]])
            if v["results"]:
                rows.append(["", "=", v["results"][0]["latex"]])
    elif kind == "bound":
        op = v["op_latex"]
        for e in v["equations_latex"]:
            rows.append(_split_relational(e))
        for e in v["composed_latex"]:
            if e not in v["equations_latex"]:
                rows.append([r"\Leftrightarrow\; " + _split_relational(e)[0], *_split_relational(e)[1:]])
        if v["isolated_rhs_latex"]:
            rows.append([r"\Leftrightarrow\; " + x, op, v["isolated_rhs_latex"][0]])
        if v["substituted_latex"] and v["results"] and cancel:
            rows.extend(_cancel_rows(op, v["substituted_latex"][0], cancel, v["results"][0]["latex"]))
        elif v["substituted_latex"] and v["results"]:
            rows.append(["", op, v["substituted_latex"][0] + " = " + v["results"][0]["latex"]])
        elif v["results"]:
            rows.append(["", op, v["results"][0]["latex"]])
    elif kind == "round" and v.get("rounding_rows"):
        rows.extend(v["rounding_rows"])
    elif kind == "round":
        rows.append([x, "=", v["rounding_latex"]])
    elif kind == "optimum":
        rows.extend(v["optimum_rows"])
    else:
        return []
    out: list[list[str]] = []
    for row in rows:
        left, sep, right = row[2].rpartition(" = ")
        if sep and left == right:
            row = [row[0], row[1], right]
        if out and row[2] == out[-1][2] and (not row[0] or row[:2] == out[-1][:2]):
            continue           # the same right side again (or the same row: a condition composed as isolated)
        if row[0] == row[2] and row[1] == "=":
            continue           # x = x
        out.append(row)
    return out


def _cancel_rows(op: str, substituted: str, cancel: str, result: str) -> list[list[str]]:
    """The values put in, then their units cancelling, then the number: the cancelling on an aligned line of
    its own under a root (it goes on to the bare number and its root) or when one line would be wide; a
    short fraction's on the same line, as a person chains a short computation."""
    from .escape import visible_length

    if not cancel.startswith("\\sqrt") and visible_length(f"{substituted} = {cancel} = {result}") <= 60:
        return [["", op, f"{substituted} = {cancel} = {result}"]]
    return [["", op, substituted], ["", "=", f"{cancel} = {result}"]]


_RELATIONAL = re.compile(r" (=|\\le|\\ge|\\leq|\\geq|<|>) ")


def _split_relational(latex: str) -> list[str]:
    m = _RELATIONAL.search(latex)
    if not m:
        return ["", "", latex]
    return [latex[:m.start()], m.group(1), latex[m.end():]]


def _regime_values(catalog: Catalog, when, values: Values, units: str) -> str:
    """Both sides of a regime's condition as values (``1.011 ms \\ge 298.5 µs``), or '' if not all known."""
    from ..symbolic.dimension_check import dimension_of

    subs = {sympy.Symbol(n, positive=True): v for n, (v, _, _) in values.items()}
    table = _DimensionsBySymbol(catalog)
    sides = []
    for side in (when.lhs, when.rhs):
        val = side.xreplace(subs)
        if val.free_symbols:
            return ""
        try:
            dims = dimension_of(side, table)
        except Exception:  # a side without one dimension: leave the numbers out
            return ""
        sides.append(latex_value(val, dims, units))
    return f"{sides[0]} {_OPS_LATEX[when.op]} {sides[1]}"


def _rounding_view(step: Step, before: sympy.Expr | None, units: str) -> dict[str, Any]:
    """The rounding of a bound: ``\\lfloor 2896.309 \\rfloor = 2896`` or
    ``128 \\cdot \\lfloor 2896.309/128 \\rfloor``."""
    n = int(step.note or 1)
    out: dict[str, Any] = {"multiple": n, "before_latex": "", "before_text": "", "rounding_latex": "",
                           "rounding_text": ""}
    if before is None or step.value is None:
        return out
    dims = step.dims[0]
    b_latex, b_text = latex_value(before, dims, units, 7), text_value(before, dims, units, 7)
    after_latex, after_text = latex_value(step.value, dims, units), text_value(step.value, dims, units)
    left, right, fn = (r"\left\lfloor", r"\right\rfloor", "floor") if step.direction == "max" else \
        (r"\left\lceil", r"\right\rceil", "ceil")
    if n == 1:
        out["rounding_latex"] = f"{left} {b_latex} {right} = {after_latex}"
        out["rounding_text"] = f"{fn}({b_text}) = {after_text}"
    else:
        k = sympy.Integer(step.value / n) if (step.value / n).is_Integer else step.value / n
        out["rounding_latex"] = (f"{n} \\cdot {left} \\frac{{{b_latex}}}{{{n}}} {right} = {n} \\cdot {sympy.latex(k)}"
                                 f" = {after_latex}")
        out["rounding_text"] = f"{n}*{fn}({b_text}/{n}) = {n}*{k} = {after_text}"
    out["before_latex"], out["before_text"] = b_latex, b_text
    return out


def _check_view(catalog: Catalog, sol: Solution, c: Check, units: str) -> dict[str, Any]:
    """A substitute-back check with its entry's names and both sides as readable values."""
    from ..symbolic.dimension_check import dimension_of

    rid, _, regime_id = c.name.partition(".")
    entry = catalog.relations.get(rid) or catalog.conditions.get(rid) or catalog.memo.inline_conditions.get(rid)
    view: dict[str, Any] = {
        "kind": c.kind, "name": c.name, "holds": c.holds, "op": c.op, "at": c.at, "expect": c.expect,
        "op_latex": _OPS_LATEX.get(c.op, c.op),
        "entry": {"id": rid, "name": {"en": entry.name.en, "zh": entry.name.zh}} if entry else None,
        "regime": None, "lhs": "", "rhs": "", "lhs_latex": "", "rhs_latex": "", "at_latex": "", "at_text": "",
        "equal": False,
    }
    if regime_id and rid in catalog.relations:
        reg = next((r for r in catalog.relations[rid].regimes if r.id == regime_id), None)
        if reg is not None:
            view["regime"] = {"en": reg.name.en, "zh": reg.name.zh}
    if c.at:
        # the value checked at: the answer itself, or one step past it (the check that the bound is tight)
        step = sol.multiple_of or 1
        candidates = [sol.value, sol.value + step if sol.bound == "max" else sol.value - step]
        at = next((v for v in candidates if str(v) == c.at), None)
        view["at_latex"] = latex_value(at, sol.dims, units) if at is not None else c.at
        view["at_text"] = text_value(at, sol.dims, units) if at is not None else c.at
    if c.kind == "tight":
        return view
    dims = None
    if entry is not None:
        side = entry.lhs if isinstance(entry, Relation) else entry.comparison.lhs
        table = _DimensionsBySymbol(catalog)
        try:
            dims = dimension_of(side, table)
        except Exception:  # a side that does not reduce to one dimension: show plain numbers
            dims = None
    if dims is None or c.rhs == 0:
        dims = Dimension(())
    for key, val in (("lhs", c.lhs), ("rhs", c.rhs)):
        view[key] = text_value(val, dims, units, 6)
        view[key + "_latex"] = latex_value(val, dims, units, 6)
    view["equal"] = view["lhs_latex"] == view["rhs_latex"]
    return view


_ORIGIN_WORDS = {"en": {"default": "the catalog's default of {names}", "preset": "preset {preset} ({names})"},
                 "zh": {"default": "目录中 {names} 的默认值", "preset": "预设 {preset}（{names}）"}}


def note_view(catalog: Catalog, sol: Solution, note: Any, values: Values, units: str) -> dict[str, Any]:
    """A note's fields as text for its message (``templates/messages.yaml``: ``note_<kind>``).

    Notes are data (values, ids); here values get their units and ids their names, in both languages.
    """
    data = dict(note.as_dict())
    q = catalog.quantities.get(sol.target)

    if note.kind == "exact_beside_approximate" and q is not None:
        data["exact"] = text_value(data["exact"], q.dims, units)
    elif note.kind == "preset_differs" and q is not None:
        data["preset_value"] = text_value(data["preset_value"], q.dims, units)
    elif note.kind == "not_integer" and q is not None:
        exact = data["value"]
        for key in ("value", "down", "up"):
            data[key] = text_value(data[key], q.dims, units)
        if exact.is_Rational and data["value"].split()[0] != short_decimal(exact, 30):
            data["value"] = f"{data['value']} (= {exact_text(exact)})"      # 833.3 is 2500/3; 26,702.9 is 13671875/512
    elif note.kind in ("regime_inputs", "regime_balanced"):
        rel = catalog.relations[data["relation"]]
        reg = next(r for r in rel.regimes if r.id == data["regime"])
        data["regime"] = {"en": reg.name.en, "zh": reg.name.zh}
        # the condition's sides the steps did not compute, with their values
        values = {**values, **{n: (v, catalog.quantities[n].dims, None) for n, v in data.pop("sides", ())}}
        data["condition"] = _condition_text(catalog, reg.when, values, units, named=False)["en"]
    elif note.kind == "count_fraction_avoided":
        exact = data["value"]
        data["value"] = text_value(exact, catalog.quantities[data["name"]].dims, units)
        if exact.is_Rational and data["value"].split()[0] != short_decimal(exact, 30):
            data["value"] = f"{data['value']} (= {exact_text(exact)})"      # 1.441e8 is 720368064/5
    elif note.kind == "premise":
        data.update(_premise_words(catalog, data.pop("relation"), data.pop("condition"), data.pop("values"), units))
    elif note.kind in ("override", "typed_decides"):
        groups: dict[str, list[str]] = {}
        for name, origin in data.pop("sources", ()):
            groups.setdefault(origin, []).append(name)
        parts: dict[str, list[str]] = {"en": [], "zh": []}
        for origin, names in sorted(groups.items()):
            kind, _, preset = origin.partition(":")
            for lang in ("en", "zh"):
                words = _ORIGIN_WORDS[lang]["default" if kind == "default" else "preset"]
                parts[lang].append(words.format(names=", ".join(names), preset=preset))
        data["overridden"] = {lang: ("; ".join(p) if p else ("an earlier value" if lang == "en" else "原有的值"))
                              for lang, p in parts.items()}
    # the terminal keeps quantity ids (what the user types); a write-up names them in each language
    plain = dict(data)
    for key in ("names", "name"):
        ids = [n.strip() for n in str(data.get(key, "")).split(",")] if key in data else []
        if ids and all(i in catalog.quantities for i in ids):
            data[key] = {lang: ("、" if lang == "zh" else ", ").join(
                getattr(catalog.quantities[i].name, lang) for i in ids) for lang in ("en", "zh")}
    if note.kind in ("regime_inputs", "regime_balanced"):
        rel = catalog.relations[data["relation"]]
        reg = next(r for r in rel.regimes if r.id == note.as_dict()["regime"])
        data["condition"] = _condition_text(catalog, reg.when, values, units)
    # a note that names one quantity reads in the singular where its message has that form (``_one``)
    one = "names" in plain and len(str(plain["names"]).split(",")) == 1
    return {"kind": note.kind, "message": f"note_{note.kind}{'_one' if one else ''}", "data": data,
            "data_text": plain}



_PREMISE_ORIGIN = {"en": {"given": "given", "default": "the catalog's default", "preset": "preset {preset}"},
                   "zh": {"given": "输入值", "default": "目录默认值", "preset": "预设 {preset}"}}


def _premise_words(catalog: Catalog, rid: str, cid: str, values: Any, units: str) -> dict[str, Any]:
    """The fields of a ``premise`` note: the relation and the condition by name, the condition as written,
    and each value that decided it with where it came from (a default with its note)."""
    rel, cond = catalog.relations[rid], catalog.conditions[cid]
    shown: dict[str, list[str]] = {"en": [], "zh": []}
    for name, value, origin in values:
        q = catalog.quantities[name]
        kind, _, preset = origin.partition(":")
        for lang in ("en", "zh"):
            where = _PREMISE_ORIGIN[lang]["default" if origin == "default" else
                                          "given" if origin == "given" else "preset"].format(preset=preset)
            note = ""
            if origin == "default" and q.default is not None:
                note = (q.default.note_zh or q.default.note) if lang == "zh" else q.default.note
            extra = (f"，{note}" if lang == "zh" else f": {note}") if note else ""
            shown[lang].append(f"{name} = {text_value(value, q.dims, units)}"
                               + (f"（{where}{extra}）" if lang == "zh" else f" ({where}{extra})"))
    return {"relation": {"en": rel.name.en, "zh": rel.name.zh},
            "condition": {"en": cond.name.en, "zh": cond.name.zh}, "require": cond.text,
            "values": {lang: ("、" if lang == "zh" else ", ").join(v) for lang, v in shown.items()}}


def _interval_shown(sol: Solution, q: Quantity, units: str, latex: bool) -> str:
    """``3,841 <= seq_len <= 4,096``: every value a step function allows, or '' for a single answer."""
    iv = sol.interval
    if iv is None:
        return ""
    shown = latex_value if latex else text_value
    ops = {(True, True): "<", (True, False): r"\le" if latex else "<="}
    left = ops[(True, iv.low_open)] if iv.low_open else ops[(True, False)]
    name = q.latex if latex else q.id
    lo = shown(iv.low, q.dims, units, 7)
    if not iv.bounded:                  # every value from the bottom up: 4,096 <= flash_block_cols
        return f"{lo} {left} {name}"
    right = ops[(True, iv.high_open)] if iv.high_open else ops[(True, False)]
    return f"{lo} {left} {name} {right} {shown(iv.high, q.dims, units, 7)}"


def _condition_text(catalog: Catalog, when: Any, values: Values, units: str, named: bool = True) -> dict[str, str]:
    """``compute time = 10 ms ≥ memory time = 1 ms``: a regime's condition with the values that decided it,
    in each language (a side that is one quantity is named, not written as its id)."""
    from ..symbolic.dimension_check import dimension_of

    subs = {sympy.Symbol(n, positive=True): v for n, (v, _, _) in values.items()}
    table = _DimensionsBySymbol(catalog)
    op = {"<=": "≤", ">=": "≥"}.get(when.op, when.op)
    out = {}
    for lang in ("en", "zh"):
        sides = []
        for side in (when.lhs, when.rhs):
            value = side.xreplace(subs)
            q = catalog.quantities.get(side.name) if named and isinstance(side, sympy.Symbol) else None
            shown = getattr(q.name, lang) if q is not None else text_expr(side)
            if not value.free_symbols:
                try:
                    dims = dimension_of(side, table)
                    shown = f"{shown} = {text_value(value, dims, units)}" if not side.is_Number else shown
                except Exception:  # a side without one dimension: the expression alone
                    pass
            sides.append(shown)
        out[lang] = f"{sides[0]} {op} {sides[1]}"
    return out


# the JSON name of each part of a memory verdict (``fits.by_component``) and of its message (``fit_<name>``)
FIT_PARTS = {"sharded_weight_bytes": "weights", "sharded_kv_cache_bytes": "kv_cache",
             "sharded_grad_bytes": "gradients", "sharded_optimizer_bytes": "optimizer_state",
             "sharded_activation_bytes": "activations", "memory_reserve_bytes": "reserve"}
_BYTES = Dimension.of({"[data]": 1})


def fit_view(fit: Fit | None, units: str = "si") -> dict[str, Any] | None:
    """A memory verdict for the templates: ``ok``, ``need`` and ``have`` as text (None where unknown), each
    part with its text (None where unknown) and, for the reserve, its fraction and whether it is assumed."""
    if fit is None:
        return None

    def shown(v: sympy.Expr | None) -> str | None:
        return format_value(v, _BYTES, units, 4).text if v is not None else None

    parts = [{"id": FIT_PARTS[name], "quantity": name, "text": shown(v)} for name, v in fit.components]
    reserve = None
    if fit.reserve is not None:
        percent = fit.reserve * 100
        reserve = {"percent": short_decimal(percent) or f"{float(percent):.4g}", "assumed": fit.reserve_assumed}
    return {"ok": fit.ok, "kind": fit.kind, "condition": fit.condition, "need": shown(fit.need),
            "have": shown(fit.have), "parts": parts, "unknown": [FIT_PARTS[n] for n in fit.unknown],
            "reserve": reserve}


def fit_to_dict(fit: Fit) -> dict[str, Any]:
    """The JSON of a memory verdict: ``{"ok", "need", "have", "by_component"}`` in bytes per device (a part
    the inputs do not give is null), with the condition it evaluates and the reserve fraction used."""
    return {"ok": fit.ok, "need": _number(fit.need) if fit.need is not None else None,
            "have": _number(fit.have) if fit.have is not None else None,
            "by_component": {FIT_PARTS[n]: (_number(v) if v is not None else None) for n, v in fit.components},
            "unknown": [FIT_PARTS[n] for n in fit.unknown], "kind": fit.kind, "condition": fit.condition,
            "reserve": _number(fit.reserve) if fit.reserve is not None else None,
            "reserve_assumed": fit.reserve_assumed, "unit": "B"}


def build_view(sol: Solution, units: str = "si", catalog: Catalog | None = None) -> dict[str, Any]:
    """Everything a template needs to write up ``sol`` in either language; ``catalog`` (the solution's by
    default) is the one its symbols are written from: a problem file's own notation
    (:meth:`Catalog.with_symbols`)."""
    catalog = catalog or sol.catalog
    assert catalog is not None
    q = catalog.quantities[sol.target]
    values: Values = {g.name: (g.value, g.dims, written_unit(g.text, g.dims, catalog.units)) for g in sol.given
                      if not g.is_formula}
    follows = {g.name: g.value for g in sol.given if g.is_formula}
    for st in sol.steps:
        for u, v, d in zip(st.solved_for, st.values, st.dims):
            if v is not None and st.kind in ("relation", "system"):
                values[u] = (v, d, None)
    shown_in = {sol.target: sol.display_unit} if sol.display_unit is not None else {}
    context = (*sol.relations_used, *sol.require)
    steps = [_step_view(catalog, st, values, units, i + 1, sol.steps[i - 1].value if i else None,
                        sol.target if sol.bound else None, shown_in, follows, context)
             for i, st in enumerate(sol.steps)]
    reduced = sol.reduced_formula()
    regime = None
    if sol.regime:
        for step_view in steps:
            if step_view["regime"]:
                regime = step_view["regime"]
    answer_formatted = sol.formatted(units)
    answer_latex = latex_value(sol.value, sol.dims, units, unit=sol.display_unit, direction=sol.rounding_direction,
                               count=sol.integer)
    op_latex = {"max": r"\le", "min": r"\ge"}.get(sol.bound or "", "=")
    # a step function's plain solve answers with every value of its interval (a bound, with one end)
    is_interval = sol.interval is not None and not sol.bound
    conditions = [catalog.condition(c) for c in sol.require]
    # the answer's closed form: its sums and products as the relations it chains write them
    written = written_of(catalog, context)
    citations: list[dict[str, Any]] = []
    seen = set()
    step_entries = [catalog.relations.get(r) or catalog.conditions.get(r) or catalog.memo.inline_conditions.get(r)
                    for st in sol.steps for r in st.relations]
    for src in [catalog.relations[r].source for r in sol.relations_used] + \
               [e.source for e in step_entries if e is not None] + \
               [c.source for c in conditions] + [g.source for g in sol.given if g.source]:
        shown = source_view(catalog, src)
        if shown is not None and src.ref not in seen:
            seen.add(src.ref)
            citations.append(dict(shown, number=len(citations) + 1))
    return {
        "target": {"id": q.id, "name": _names(q), "meaning": {"en": q.meaning.en, "zh": q.meaning.zh},
                   "symbol": q.latex, "unit": q.base_unit, "integer": q.integer},
        "bound": sol.bound, "multiple_of": sol.multiple_of, "optimize": sol.optimize,
        "objective": ({"id": sol.objective, "name": _names(catalog.quantities[sol.objective]),
                       "symbol": catalog.quantities[sol.objective].latex} if sol.objective else None),
        "conditions": [{"id": c.id, "name": {"en": c.name.en, "zh": c.name.zh},
                        "meaning": {"en": c.meaning.en, "zh": c.meaning.zh}, "text": c.text,
                        "latex": _latex_relational(c.comparison.lhs, c.comparison.op, c.comparison.rhs, catalog,
                                                   written=Written([c]))}
                       for c in conditions],
        "given": [_given_view(catalog, g, units) for g in sol.given],
        "steps": steps,
        "answer": {
            "text": answer_formatted.text,
            "latex": answer_latex,
            "base_text": _base_text(sol.value, sol.dims),
            "base": _number(sol.value), "unit": sol.unit, "prefix_note": answer_formatted.note,
            "exact": exact_text(sol.exact), "exact_latex": exact_latex(sol.exact),
            "exact_text": text_value(sol.exact, sol.dims, units, digits=7, direction=sol.rounding_direction),
            "formula_latex": latex_expr(sol.formula, catalog, written),
            "formula_text": text_expr(sol.formula, written),
            "reduced_latex": latex_expr(reduced, catalog, written) if reduced != sol.formula else "",
            "reduced_text": text_expr(reduced, written) if reduced != sol.formula else "",
            "symbol": q.latex, "op_latex": op_latex,
            "op": {"max": "<=", "min": ">="}.get(sol.bound or "", "="),
            "rounded": sol.value != sol.exact,
            "interval_text": _interval_shown(sol, q, units, latex=False),
            "interval_latex": _interval_shown(sol, q, units, latex=True),
            "is_interval": is_interval,
            # the answer as one statement: S = 15{,}728.64, S \le 4{,}096, or 3{,}841 \le S \le 4{,}096
            "statement_latex": (_interval_shown(sol, q, units, latex=True) if is_interval
                                else f"{q.latex} {op_latex} {answer_latex}"),
        },
        "regime": regime,
        "fits": fit_view(sol.fits, units),
        "checks": [_check_view(catalog, sol, c, units) for c in sol.checks],
        "notes": [note_view(catalog, sol, n, values, units) for n in sol.notes],
        "relations_used": list(sol.relations_used),
        "citations": citations,
        "cite_index": {c["ref"]: c["number"] for c in citations},
        "units": units,
    }


def _interval_json(iv: Any) -> dict[str, Any]:
    """An interval answer in JSON: its ends (numbers), whether each is excluded, and both exactly."""
    bounded = iv.bounded                # no top end: high is null
    return {"low": _number(iv.low), "high": _number(iv.high) if bounded else None, "low_open": iv.low_open,
            "high_open": iv.high_open, "low_exact": exact_text(iv.low),
            "high_exact": exact_text(iv.high) if bounded else None}


def solution_to_dict(sol: Solution, units: str = "si", lang: str = "en") -> dict[str, Any]:
    """The JSON contract of ``derive solve --format json``."""
    catalog = sol.catalog
    assert catalog is not None
    view = build_view(sol, units)
    steps = []
    for st, sv in zip(sol.steps, view["steps"]):
        if st.kind == "round":
            continue
        for i, u in enumerate(st.solved_for):
            value = st.values[i] if i < len(st.values) else None
            if st.kind == "interval" and sol.interval is not None:
                value = sol.interval.representative     # as the answer's value; the interval says the rest
            steps.append({
                "relation": st.relations[0] if len(st.relations) == 1 else "+".join(st.relations),
                "kind": st.kind,
                "solved_for": u,
                "symbolic": sv["solved_latex"][i] if i < len(sv["solved_latex"]) else "",
                "substituted": sv["substituted_latex"][i] if i < len(sv["substituted_latex"]) else "",
                "value": _number(value) if value is not None else None,
                "unit": st.dims[i].unit_string(),
                "regime": st.regime,
                **({"interval": _interval_json(sol.interval)} if st.kind == "interval" and sol.interval else {}),
            })
    return {
        "target": sol.target,
        "value": _number(sol.value),
        "unit": sol.unit,
        # a plain solve of a step function answers with its interval, as the text does (value: an end inside it)
        "display": view["answer"]["interval_text"] if sol.interval is not None and not sol.bound
        else view["answer"]["text"],
        # the unit the question asked the answer in (--unit days), and the value in it; null without one
        "display_unit": sol.display_unit.name if sol.display_unit is not None else None,
        "display_value": _number(sol.value / sympy.Rational(sol.display_unit.factor.numerator,
                                                            sol.display_unit.factor.denominator))
        if sol.display_unit is not None else None,
        "exact": exact_text(sol.value),
        "formula": str(sol.formula),
        "reduced_formula": str(sol.reduced_formula()),
        "bound": sol.bound,
        "bound_exact": exact_text(sol.exact) if sol.bound else None,
        # a whole-number target before any rounding: the bound's edge, or the fraction the relations give
        "value_unrounded": _number(sol.exact) if sol.integer or sol.multiple_of else None,
        # a step function's answer: every value of the interval; value and exact are one of them (its top
        # end, or its bottom when the top is excluded), display the interval as the text gives it
        "interval": _interval_json(sol.interval) if sol.interval is not None else None,
        "regime": sol.regime,
        # compute time = memory time: the answer is where the regimes meet (regime names the branch taken)
        "regime_balanced": bool(view["regime"] and view["regime"]["balanced"]),
        # a default taken as a formula (head_dim = d_model / num_heads): the formula, as text
        # a default that follows another quantity (weight bytes = the element size) has no text of its own:
        # its value, as the text output shows it
        "given": {g.name: {"value": str(g.value) if g.is_formula else _number(g.value), "unit": g.unit,
                           "text": g.text or (str(g.value) if g.is_formula
                                              else format_value(g.value, g.dims, units).text),
                           "origin": g.origin} for g in sol.given},
        "relations_used": list(sol.relations_used),
        "conditions": list(sol.require),
        # whether the configuration fits in device memory (only on a time, rate, utilisation or cost of one)
        **({"fits": fit_to_dict(sol.fits)} if sol.fits is not None else {}),
        "steps": steps,
        "checks": [{"kind": c.kind, "name": c.name, "holds": c.holds} for c in sol.checks],
        "notes": [{"kind": n["kind"], **{k: (v["en"] if isinstance(v, dict) else v) for k, v in n["data"].items()}}
                  for n in view["notes"]],
        "units": units,
    }
