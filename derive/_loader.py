"""Load the catalog from ``formulas/``: parse, expand families, check units, index, cache.

The files' grammar is documented in ``formulas/README.md``. Loading is strict:
an unknown field, a missing translation, a name that is not a quantity, or a
relation whose sides' dimensions differ stops the load with a
:class:`CatalogError` naming the file, line and entry.

Loading parses every expression, so it is done once and cached: the compiled
catalog is pickled under ``$DERIVE_CACHE_DIR`` (default ``~/.cache/derive``)
keyed by a hash of every source file, and reused while none has changed.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import pickle
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

import sympy

from . import _units
from ._cache import cache_dir
from ._dimcheck import DimensionMismatch, dimension_of
from ._errors import CatalogError, DeriveError, UnitBalanceError
from ._expr import Comparison, parse_comparison, parse_equation
from ._model import Catalog, Condition, Preset, PresetValue, Quantity, Reference, Regime, Relation, Source, Text
from ._values import parse_value
from ._yamlio import LMap, LStr, line_of

__all__ = ["default_formulas_dir", "load_catalog"]

CACHE_VERSION = "derive-catalog-8-symbols"
_BUILD_MODULES = ("_loader.py", "_model.py", "_expr.py", "_units.py", "_dimcheck.py", "_values.py", "_yamlio.py")

_QUANTITY_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_PRESET_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
_PLACEHOLDER = re.compile(r"<([a-z_]+)(?:\.([a-z_]+))?>")

# a quantity's symbol is LaTeX math pasted into write-ups: only these pieces, so that a formula file
# cannot \input a file, loop forever (\def\x{\x}\x) or break the document (\end{document}, "}")
SYMBOL_COMMANDS = frozenset("""
    alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi varpi
    rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma
    Upsilon Phi Psi Omega mathrm mathit mathbf mathsf mathtt mathcal mathbb text textrm operatorname hat bar
    tilde vec dot ddot widehat widetilde overline underline prime ell infty partial nabla cdot times div pm mp
    le ge leq geq ne neq approx sim propto to leftrightarrow rightarrow leftarrow lceil rceil lfloor rfloor
    langle rangle vert Vert max min log exp sqrt frac
""".split())
_SYMBOL_PIECE = re.compile(r"\\([A-Za-z]+)|\\[,;:! ]|[A-Za-z0-9 _^{}()\[\],.'+\-*/|=:]")
MAX_SYMBOL = 100

QUANTITY_FIELDS = {"id", "unit", "type", "symbol", "name", "meaning", "source", "aliases", "default",
                   "for_each", "only", "override", "note"}
RELATION_FIELDS = {"id", "equation", "name", "meaning", "source", "regimes", "for_each", "only",
                   "override", "note"}
REGIME_FIELDS = {"id", "when", "equation", "name"}
CONDITION_FIELDS = {"id", "require", "name", "meaning", "source", "for_each", "only", "override", "note"}
PRESET_FIELDS = {"id", "kind", "name", "source", "values", "extends", "note", "override"}
VALUE_FIELDS = {"value", "source", "note"}
REFERENCE_FIELDS = {"id", "title", "kind", "url", "note"}
TOP_FIELDS = {"topic", "title", "quantities", "relations", "conditions", "presets", "references",
              "families", "aliases"}
PRESET_KINDS = ("hw", "model", "setup")
REFERENCE_KINDS = ("datasheet", "paper", "book", "seed", "derived", "measured", "estimate",
                   "convention", "web")

# unit strings worth memoising with the cache, so that common inputs never import pint
_COMMON_UNITS = [p + u for u in ("B", "B/s", "FLOP", "FLOP/s", "FLOPS", "FLOPs")
                 for p in ("", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi")] + [
    "s", "ms", "us", "µs", "ns", "ps", "min", "h", "Hz", "kHz", "MHz", "GHz", "FLOP/B", "bit",
    "Gbit/s", "1", "cycle", "cycles", "B/FLOP", "s/B", "FLOP/cycle", "B/cycle"]


def default_formulas_dir() -> Path:
    env = os.environ.get("DERIVE_FORMULAS")
    if env:
        return Path(env)
    from ._resources import builtin_dir

    return builtin_dir("formulas")


# ---------------------------------------------------------------------------
# small readers


@dataclass
class _Ctx:
    file: str
    families: dict[str, dict[str, dict[str, str]]]
    references: dict[str, Reference]
    overridable: bool = False

    def error(self, msg: str, node: Any = None, entry: str | None = None) -> CatalogError:
        return CatalogError(msg, file=self.file, line=line_of(node), entry=entry)


def _check_fields(ctx: _Ctx, entry: Any, allowed: set[str], what: str, ident: str | None) -> None:
    if not isinstance(entry, dict):
        raise ctx.error(f"each {what} must be a mapping of fields", entry, ident)
    for key in entry:
        if key not in allowed:
            close = difflib.get_close_matches(key, sorted(allowed), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else f" (allowed: {', '.join(sorted(allowed))})"
            raise ctx.error(f"unknown field {key!r}{hint}", entry, ident)


def _str(ctx: _Ctx, entry: dict, key: str, ident: str | None, required: bool = True,
         default: str = "") -> str:
    value = entry.get(key)
    if value is None:
        if required:
            raise ctx.error(f"missing field {key!r}", entry, ident)
        return default
    if not isinstance(value, str):
        raise ctx.error(f"field {key!r} must be text", value, ident)
    return str(value).strip()


def _text(ctx: _Ctx, entry: dict, key: str, ident: str | None, required: bool = True) -> Text:
    value = entry.get(key)
    if value is None:
        if required:
            raise ctx.error(f"missing field {key!r} (give both en and zh)", entry, ident)
        return Text("", "")
    if not isinstance(value, dict) or set(value) - {"en", "zh"}:
        found = f" (found {', '.join(repr(k) for k in value)})" if isinstance(value, dict) else ""
        hint = "; put text that contains a comma in quotes" if isinstance(value, dict) else ""
        raise ctx.error(f"field {key!r} must have exactly the keys en and zh{found}{hint}", value, ident)
    en, zh = str(value.get("en", "")).strip(), str(value.get("zh", "")).strip()
    if not en or not zh:
        missing = "en" if not en else "zh"
        raise ctx.error(f"field {key!r} is missing its {missing} text (every text needs both languages)",
                        value, ident)
    return Text(en, zh)


def _source(ctx: _Ctx, entry: dict, ident: str | None, required: bool = True,
            inherited: Source | None = None) -> Source:
    raw = entry.get("source")
    if raw is None:
        if inherited is not None:
            return inherited
        if required:
            raise ctx.error("missing field 'source' (a reference id from references, then an optional "
                            "locator: 'scaling-book, ch. 2')", entry, ident)
        return Source("")
    text = str(raw).strip()
    ref, _, locator = text.partition(",")
    ref = ref.strip()
    if ref not in ctx.references:
        close = difflib.get_close_matches(ref, list(ctx.references), n=2)
        hint = f" (did you mean {', '.join(close)}?)" if close else " (add it under references:)"
        raise ctx.error(f"unknown reference {ref!r}{hint}", raw, ident)
    return Source(ref, locator.strip())


def _expand(ctx: _Ctx, entries: Any, section: str) -> list[tuple[dict, str | None]]:
    """Expand ``for_each`` families: one entry per member, placeholders filled in."""
    if entries is None:
        return []
    if not isinstance(entries, list):
        raise ctx.error(f"{section} must be a list of entries (each starting with '- id:')", entries)
    out: list[tuple[dict, str | None]] = []
    for entry in entries:
        if not isinstance(entry, dict):
            raise ctx.error(f"each entry of {section} must be a mapping", entry)
        fam_name = entry.get("for_each")
        if fam_name is None:
            out.append((entry, None))
            continue
        family = ctx.families.get(str(fam_name))
        if family is None:
            raise ctx.error(f"unknown family {fam_name!r}; define it under families:", fam_name,
                            str(entry.get("id")))
        only = entry.get("only")
        members = list(family)
        if only is not None:
            if not isinstance(only, list):
                raise ctx.error("'only' must be a list of family members", only, str(entry.get("id")))
            for m in only:
                if m not in family:
                    raise ctx.error(f"{m!r} is not a member of family {fam_name}", m, str(entry.get("id")))
            members = [str(m) for m in only]
        for member in members:
            out.append((_fill(ctx, entry, str(fam_name), member, family[member]), member))
    return out


def _fill(ctx: _Ctx, node: Any, fam: str, member: str, fields: dict[str, str]) -> Any:
    if isinstance(node, str):
        def sub(m: re.Match) -> str:
            if m.group(1) != fam:
                return m.group(0)
            if m.group(2) is None:
                return member
            if m.group(2) not in fields:
                raise ctx.error(f"family {fam} member {member} has no field {m.group(2)!r}", node)
            return fields[m.group(2)]
        filled = LStr(_PLACEHOLDER.sub(sub, node))
        filled.line = getattr(node, "line", 0)
        return filled
    if isinstance(node, dict):
        out = LMap((k, _fill(ctx, v, fam, member, fields)) for k, v in node.items()
                   if k not in ("for_each", "only"))
        out.line = getattr(node, "line", 0)
        return out
    if isinstance(node, list):
        return [_fill(ctx, v, fam, member, fields) for v in node]
    return node


# ---------------------------------------------------------------------------
# the loader


@dataclass
class _Build:
    units: _units.UnitTable
    catalog: Catalog = field(default_factory=Catalog)
    families: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)
    origin: dict[str, str] = field(default_factory=dict)   # id -> file, for clash messages
    # unit literals such as [FLOP] in equations: a placeholder symbol while the
    # dimensions are checked, then the unit's exact factor to base units
    unit_literals: dict[sympy.Symbol, tuple[sympy.Rational, Any]] = field(default_factory=dict)


def _read_files(paths: Sequence[tuple[Path, str, bool]]) -> list[tuple[str, Any, bool]]:
    from ._yamlio import read_yaml

    docs = []
    for path, display, overridable in paths:
        data = read_yaml(path, display)
        if not isinstance(data, dict):
            raise CatalogError("a catalog file must be a mapping with sections such as quantities:, "
                               "relations:, presets:", file=display, line=1)
        for key in data:
            if key not in TOP_FIELDS:
                close = difflib.get_close_matches(key, sorted(TOP_FIELDS), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise CatalogError(f"unknown section {key!r}{hint}", file=display, line=line_of(data[key]))
        docs.append((display, data, overridable))
    return docs


def _claim(build: _Build, ctx: _Ctx, table: dict, ident: str, entry: Any, what: str) -> None:
    """Register ``ident`` in ``table``; a clash is an error unless a user entry says override: true."""
    if ident in table:
        if ctx.overridable and str(entry.get("override", "")).lower() == "true":
            return
        where = build.origin.get(f"{what}:{ident}", "another file")
        hint = " (add 'override: true' to replace the built-in entry)" if ctx.overridable else ""
        raise ctx.error(f"{what} {ident!r} is already defined in {where}{hint}", entry, ident)
    build.origin[f"{what}:{ident}"] = ctx.file


def _load_quantity(build: _Build, ctx: _Ctx, entry: dict) -> None:
    ident = _str(ctx, entry, "id", None)
    _check_fields(ctx, entry, QUANTITY_FIELDS, "quantity", ident)
    if not _QUANTITY_ID.match(ident):
        raise ctx.error("a quantity id is lower_case_with_underscores, starting with a letter",
                        entry.get("id"), ident)
    _claim(build, ctx, build.catalog.quantities, ident, entry, "quantity")
    unit_text = _str(ctx, entry, "unit", ident)
    try:
        factor, dims = build.units.parse(unit_text)
    except DeriveError as exc:
        raise ctx.error(exc.message, entry.get("unit"), ident) from exc
    kind = _str(ctx, entry, "type", ident, required=False, default="real")
    if kind not in ("real", "integer"):
        raise ctx.error("type is 'real' or 'integer'", entry.get("type"), ident)
    aliases_raw = entry.get("aliases") or []
    if not isinstance(aliases_raw, list):
        raise ctx.error("aliases must be a list", aliases_raw, ident)
    q = Quantity(
        id=ident, unit=unit_text, dims=dims, factor=sympy.Rational(factor.numerator, factor.denominator),
        integer=(kind == "integer"), latex=_symbol(ctx, entry, ident),
        name=_text(ctx, entry, "name", ident), meaning=_text(ctx, entry, "meaning", ident),
        source=_source(ctx, entry, ident), aliases=tuple(str(a) for a in aliases_raw),
        file=ctx.file, line=line_of(entry) or 0,
    )
    default = entry.get("default")
    if default is not None:
        q = _with_default(build, ctx, q, default)
    build.catalog.quantities[ident] = q
    for alias in q.aliases:
        if not _QUANTITY_ID.match(alias):
            raise ctx.error(f"alias {alias!r} is not a valid name", aliases_raw, ident)
        build.catalog.aliases[alias] = ident


def _symbol(ctx: _Ctx, entry: dict, ident: str) -> str:
    """The ``symbol`` field, checked against the small LaTeX math grammar above."""
    text = _str(ctx, entry, "symbol", ident)
    node = entry.get("symbol")
    hint = r"a symbol is LaTeX math: letters, digits, _ ^ { } and commands such as \mathrm, \alpha, \cdot"
    if not text or len(text) > MAX_SYMBOL:
        raise ctx.error(f"symbol must have 1 to {MAX_SYMBOL} characters; {hint}", node, ident)
    depth, pos = 0, 0
    while pos < len(text):
        m = _SYMBOL_PIECE.match(text, pos)
        if m is None:
            raise ctx.error(f"symbol '{text}': {text[pos]!r} is not allowed; {hint}", node, ident)
        if m.group(1) is not None and m.group(1) not in SYMBOL_COMMANDS:
            raise ctx.error(f"symbol '{text}': \\{m.group(1)} is not allowed; {hint}", node, ident)
        depth += {"{": 1, "}": -1}.get(m.group(0), 0)
        if depth < 0:
            break
        pos = m.end()
    if depth != 0:
        raise ctx.error(f"symbol '{text}': its braces do not balance; {hint}", node, ident)
    return text


def _with_default(build: _Build, ctx: _Ctx, q: Quantity, raw: Any) -> Quantity:
    from dataclasses import replace

    if isinstance(raw, dict):
        _check_fields(ctx, raw, VALUE_FIELDS, "default", q.id)
        text = _str(ctx, raw, "value", q.id)
        note = _str(ctx, raw, "note", q.id, required=False)
        src = _source(ctx, raw, q.id, inherited=q.source)
    else:
        text, note, src = str(raw), "", q.source
    try:
        value = parse_value(text, q, build.units)
    except DeriveError as exc:
        raise ctx.error(f"default: {exc.message}", raw, q.id) from exc
    return replace(q, default=PresetValue(q.id, value, text, src, note))


def _symbol_resolver(build: _Build, ctx: _Ctx, ident: str, node: Any):
    quantities = build.catalog.quantities
    aliases = build.catalog.aliases

    def resolve(name: str) -> sympy.Symbol:
        key = aliases.get(name, name)
        q = quantities.get(key)
        if q is None:
            close = difflib.get_close_matches(name, list(quantities), n=2)
            hint = f" (did you mean {', '.join(close)}?)" if close else " (define it under quantities:)"
            raise ctx.error(f"unknown quantity {name!r}{hint}", node, ident)
        return q.symbol

    return resolve


def _dims_map(build: _Build) -> dict[sympy.Symbol, Any]:
    dims = {q.symbol: q.dims for q in build.catalog.quantities.values()}
    dims.update({sym: d for sym, (_, d) in build.unit_literals.items()})
    return dims


def _unit_literal(build: _Build, ctx: _Ctx, node: Any, ident: str):
    def make(text: str) -> sympy.Expr:
        try:
            factor, dims = build.units.parse(text)
        except DeriveError as exc:
            raise ctx.error(f"unit literal [{text}]: {exc.message}", node, ident) from exc
        sym = sympy.Symbol(f"[{text}]", positive=True)
        build.unit_literals[sym] = (sympy.Rational(factor.numerator, factor.denominator), dims)
        return sym

    return make


def _strip_units(build: _Build, expr: sympy.Expr) -> sympy.Expr:
    subs = {s: build.unit_literals[s][0] for s in expr.free_symbols if s in build.unit_literals}
    return expr.xreplace(subs) if subs else expr


def _check_balance(ctx: _Ctx, ident: str, node: Any, lhs: sympy.Expr, rhs: sympy.Expr,
                   dims: dict) -> None:
    try:
        left = dimension_of(lhs, dims)
        right = dimension_of(rhs, dims)
    except DimensionMismatch as exc:
        parts = " vs ".join(d.unit_string() for d in exc.dims)
        raise UnitBalanceError(file=ctx.file, line=line_of(node), entry=ident,
                               left_unit="(mixed)", right_unit="(mixed)",
                               detail=f"terms of {exc.expr} have different units: {parts}") from exc
    if left != right:
        raise UnitBalanceError(file=ctx.file, line=line_of(node), entry=ident,
                               left_unit=left.unit_string(), right_unit=right.unit_string())


def _parse_eq(build: _Build, ctx: _Ctx, resolver, text: str, node: Any, ident: str):
    try:
        return parse_equation(text, resolver, _unit_literal(build, ctx, node, ident))
    except CatalogError:
        raise
    except DeriveError as exc:
        raise ctx.error(exc.message, node, ident) from exc


def _parse_cmp(build: _Build, ctx: _Ctx, resolver, text: str, node: Any, ident: str) -> Comparison:
    try:
        return parse_comparison(text, resolver, _unit_literal(build, ctx, node, ident))
    except CatalogError:
        raise
    except DeriveError as exc:
        raise ctx.error(exc.message, node, ident) from exc


def _symbols_of(*exprs: sympy.Expr) -> tuple[str, ...]:
    names: set[str] = set()
    for e in exprs:
        names |= {s.name for s in e.free_symbols}
    return tuple(sorted(names))


def _load_relation(build: _Build, ctx: _Ctx, entry: dict) -> None:
    ident = _str(ctx, entry, "id", None)
    _check_fields(ctx, entry, RELATION_FIELDS, "relation", ident)
    if not _QUANTITY_ID.match(ident):
        raise ctx.error("a relation id is lower_case_with_underscores", entry.get("id"), ident)
    _claim(build, ctx, build.catalog.relations, ident, entry, "relation")
    resolver = _symbol_resolver(build, ctx, ident, entry.get("equation"))
    text = _str(ctx, entry, "equation", ident)
    lhs, rhs = _parse_eq(build, ctx, resolver, text, entry.get("equation"), ident)
    dims = _dims_map(build)
    _check_balance(ctx, ident, entry.get("equation"), lhs, rhs, dims)
    lhs, rhs = _strip_units(build, lhs), _strip_units(build, rhs)
    regimes = []
    raw_regimes = entry.get("regimes") or []
    if not isinstance(raw_regimes, list):
        raise ctx.error("regimes must be a list", raw_regimes, ident)
    for raw in raw_regimes:
        rid = _str(ctx, raw, "id", ident)
        _check_fields(ctx, raw, REGIME_FIELDS, "regime", f"{ident}.{rid}")
        rtext = _str(ctx, raw, "equation", ident)
        rl, rr = _parse_eq(build, ctx, resolver, rtext, raw.get("equation"), f"{ident}.{rid}")
        dims = _dims_map(build)
        _check_balance(ctx, f"{ident}.{rid}", raw.get("equation"), rl, rr, dims)
        wtext = _str(ctx, raw, "when", ident)
        when = _parse_cmp(build, ctx, resolver, wtext, raw.get("when"), f"{ident}.{rid}")
        _check_balance(ctx, f"{ident}.{rid}", raw.get("when"), when.lhs, when.rhs, _dims_map(build))
        rl, rr = _strip_units(build, rl), _strip_units(build, rr)
        when = Comparison(_strip_units(build, when.lhs), when.op, _strip_units(build, when.rhs))
        regime = Regime(rid, _text(ctx, raw, "name", f"{ident}.{rid}"),
                        _compile(ctx, raw, ident, rl), _compile(ctx, raw, ident, rr),
                        (_compile(ctx, raw, ident, when.lhs), when.op, _compile(ctx, raw, ident, when.rhs)),
                        rtext, wtext)
        _prime(regime, lhs=rl, rhs=rr, when=when)
        regimes.append(regime)
    if not regimes and (lhs.has(sympy.Max, sympy.Min) or rhs.has(sympy.Max, sympy.Min)):
        raise ctx.error("a relation with max() or min() must list its regimes (one per branch, "
                        "each with when: and equation:)", entry, ident)
    symbols = _symbols_of(lhs, rhs, *[r.lhs for r in regimes], *[r.rhs for r in regimes])
    solvable = frozenset(name for name in symbols if _solvable(lhs, rhs, regimes, name))
    rel = Relation(
        id=ident, lhs_src=_compile(ctx, entry, ident, lhs), rhs_src=_compile(ctx, entry, ident, rhs),
        equation_text=text, symbols=symbols,
        name=_text(ctx, entry, "name", ident), meaning=_text(ctx, entry, "meaning", ident),
        source=_source(ctx, entry, ident), regimes=tuple(regimes),
        defines=lhs.name if isinstance(lhs, sympy.Symbol) else None, solvable=solvable,
        file=ctx.file, line=line_of(entry) or 0)
    _prime(rel, lhs=lhs, rhs=rhs)
    build.catalog.relations[ident] = rel


def _compile(ctx: _Ctx, node: Any, ident: str, expr: sympy.Expr) -> str:
    """The canonical text of an expression, checked to read back to the same expression."""
    from ._model import parse_canonical

    text = str(expr)
    try:
        back = parse_canonical(text)
    except DeriveError as exc:
        raise ctx.error(f"internal: the expression {text!r} does not read back ({exc.message}); "
                        "please report it", node, ident) from exc
    if back != expr:
        raise ctx.error(f"internal: the expression {text!r} reads back as {back}; please report it", node, ident)
    return text


def _prime(obj: Any, **values: Any) -> None:
    """Fill a lazily parsed attribute with the object already built (no re-parse in this process)."""
    obj.__dict__.update(values)


def _outside_rounding(expr: sympy.Basic, symbol: sympy.Symbol) -> bool:
    """True if ``symbol`` occurs in ``expr`` somewhere other than inside ceil/floor."""
    if expr == symbol:
        return True
    if isinstance(expr, (sympy.ceiling, sympy.floor)):
        return False
    return any(_outside_rounding(a, symbol) for a in expr.args)


def _solvable(lhs: sympy.Expr, rhs: sympy.Expr, regimes: list, name: str) -> bool:
    """Whether a relation can be solved for ``name``: not when it occurs only inside ceil/floor;
    for a relation with regimes, when some regime's equation has it."""
    sym = sympy.Symbol(name, positive=True)
    if regimes:
        return any(_outside_rounding(r.lhs, sym) or _outside_rounding(r.rhs, sym) for r in regimes)
    return _outside_rounding(lhs, sym) or _outside_rounding(rhs, sym)


def _load_condition(build: _Build, ctx: _Ctx, entry: dict) -> None:
    ident = _str(ctx, entry, "id", None)
    _check_fields(ctx, entry, CONDITION_FIELDS, "condition", ident)
    if not _QUANTITY_ID.match(ident):
        raise ctx.error("a condition id is lower_case_with_underscores", entry.get("id"), ident)
    _claim(build, ctx, build.catalog.conditions, ident, entry, "condition")
    resolver = _symbol_resolver(build, ctx, ident, entry.get("require"))
    text = _str(ctx, entry, "require", ident)
    cmp = _parse_cmp(build, ctx, resolver, text, entry.get("require"), ident)
    _check_balance(ctx, ident, entry.get("require"), cmp.lhs, cmp.rhs, _dims_map(build))
    cmp = Comparison(_strip_units(build, cmp.lhs), cmp.op, _strip_units(build, cmp.rhs))
    cond = Condition(
        id=ident, comparison_src=(_compile(ctx, entry, ident, cmp.lhs), cmp.op, _compile(ctx, entry, ident, cmp.rhs)),
        text=text, symbols=_symbols_of(cmp.lhs, cmp.rhs),
        name=_text(ctx, entry, "name", ident), meaning=_text(ctx, entry, "meaning", ident),
        source=_source(ctx, entry, ident), file=ctx.file, line=line_of(entry) or 0)
    _prime(cond, comparison=cmp)
    build.catalog.conditions[ident] = cond


def _load_preset(build: _Build, ctx: _Ctx, entry: dict) -> None:
    ident = _str(ctx, entry, "id", None)
    _check_fields(ctx, entry, PRESET_FIELDS, "preset", ident)
    if not _PRESET_ID.match(ident):
        raise ctx.error("a preset id is lower-case letters, digits, '.', '_' or '-'", entry.get("id"), ident)
    kind = _str(ctx, entry, "kind", ident)
    if kind not in PRESET_KINDS:
        raise ctx.error(f"kind must be one of {', '.join(PRESET_KINDS)}", entry.get("kind"), ident)
    _claim(build, ctx, build.catalog.presets, ident, entry, "preset")
    preset_source = _source(ctx, entry, ident)
    raw_values = entry.get("values") or {}
    if not isinstance(raw_values, dict):
        raise ctx.error("values must map quantity ids to values", raw_values, ident)
    values: dict[str, PresetValue] = {}
    extends = _str(ctx, entry, "extends", ident, required=False)
    if extends:
        parent = build.catalog.presets.get(extends)
        if parent is None:
            raise ctx.error(f"extends unknown preset {extends!r} (a preset can only extend one defined "
                            "before it)", entry.get("extends"), ident)
        if parent.kind != kind:
            raise ctx.error(f"extends {extends!r}, which is a {parent.kind} preset", entry.get("extends"), ident)
        values.update(parent.values)
    for qname, raw in raw_values.items():
        qname = str(qname)
        key = build.catalog.aliases.get(qname, qname)
        q = build.catalog.quantities.get(key)
        if q is None:
            close = difflib.get_close_matches(qname, list(build.catalog.quantities), n=2)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise ctx.error(f"unknown quantity {qname!r}{hint}", raw, ident)
        if isinstance(raw, dict):
            _check_fields(ctx, raw, VALUE_FIELDS, "preset value", f"{ident}.{qname}")
            text = _str(ctx, raw, "value", f"{ident}.{qname}")
            note = _str(ctx, raw, "note", f"{ident}.{qname}", required=False)
            src = _source(ctx, raw, f"{ident}.{qname}", inherited=preset_source)
        else:
            text, note, src = str(raw), "", preset_source
        try:
            value = parse_value(text, q, build.units)
        except DeriveError as exc:
            raise ctx.error(exc.message, raw, f"{ident}.{qname}") from exc
        values[key] = PresetValue(key, value, text, src, note)
    build.catalog.presets[ident] = Preset(
        id=ident, kind=kind, name=_text(ctx, entry, "name", ident), source=preset_source,
        values=values, note=_str(ctx, entry, "note", ident, required=False), extends=extends,
        file=ctx.file, line=line_of(entry) or 0)


def _load_reference(build: _Build, ctx: _Ctx, entry: dict) -> None:
    ident = _str(ctx, entry, "id", None)
    _check_fields(ctx, entry, REFERENCE_FIELDS, "reference", ident)
    if not _PRESET_ID.match(ident):
        raise ctx.error("a reference id is lower-case letters, digits, '.', '_' or '-'", entry.get("id"), ident)
    _claim(build, ctx, build.catalog.references, ident, entry, "reference")
    kind = _str(ctx, entry, "kind", ident)
    if kind not in REFERENCE_KINDS:
        raise ctx.error(f"kind must be one of {', '.join(REFERENCE_KINDS)}", entry.get("kind"), ident)
    build.catalog.references[ident] = Reference(
        id=ident, title=_str(ctx, entry, "title", ident), kind=kind,
        url=_str(ctx, entry, "url", ident, required=False), note=_str(ctx, entry, "note", ident, required=False))


def _load_aliases(build: _Build, ctx: _Ctx, raw: Any) -> None:
    """``aliases: {short_name: quantity_id}``: other names a user may type for a quantity."""
    if raw is None:
        return
    if not isinstance(raw, dict):
        raise ctx.error("aliases must map a short name to a quantity id", raw)
    for alias, target in raw.items():
        if not _QUANTITY_ID.match(alias):
            raise ctx.error(f"alias {alias!r} is not a valid name", target)
        if target not in build.catalog.quantities:
            raise ctx.error(f"alias {alias!r} points to unknown quantity {target!r}", target)
        if alias in build.catalog.quantities or alias in build.catalog.aliases:
            raise ctx.error(f"alias {alias!r} is already a name", target)
        build.catalog.aliases[alias] = str(target)


def _load_families(build: _Build, ctx: _Ctx, raw: Any) -> None:
    if raw is None:
        return
    if not isinstance(raw, dict):
        raise ctx.error("families must map a family name to its members", raw)
    for fam, members in raw.items():
        if not isinstance(members, dict) or not members:
            raise ctx.error(f"family {fam} must map member ids to their fields", members)
        if fam in build.families:
            raise ctx.error(f"family {fam!r} is defined twice", members)
        table: dict[str, dict[str, str]] = {}
        for member, fields in members.items():
            if not isinstance(fields, dict):
                raise ctx.error(f"member {member} of family {fam} needs fields such as en, zh, tex", fields)
            table[str(member)] = {str(k): str(v) for k, v in fields.items()}
        build.families[str(fam)] = table


def _build(docs: list[tuple[str, Any, bool]], units: _units.UnitTable) -> Catalog:
    build = _Build(units)
    ctxs = [(_Ctx(file, build.families, build.catalog.references, over), data) for file, data, over in docs]
    # references and families first: every other section refers to them
    for ctx, data in ctxs:
        _load_families(build, ctx, data.get("families"))
        for entry, _ in _expand(ctx, data.get("references"), "references"):
            _load_reference(build, ctx, entry)
    for ctx, data in ctxs:
        for entry, _ in _expand(ctx, data.get("quantities"), "quantities"):
            _load_quantity(build, ctx, entry)
    for ctx, data in ctxs:
        for entry, _ in _expand(ctx, data.get("relations"), "relations"):
            _load_relation(build, ctx, entry)
        for entry, _ in _expand(ctx, data.get("conditions"), "conditions"):
            _load_condition(build, ctx, entry)
    for ctx, data in ctxs:
        _load_aliases(build, ctx, data.get("aliases"))
    # presets may extend presets from any file: load in dependency order
    pending = [(ctx, entry) for ctx, data in ctxs for entry, _ in _expand(ctx, data.get("presets"), "presets")]
    while pending:
        progressed = False
        rest = []
        for ctx, entry in pending:
            parent = str(entry.get("extends") or "")
            if parent and parent not in build.catalog.presets and any(
                    str(e.get("id")) == parent for _, e in pending):
                rest.append((ctx, entry))
                continue
            _load_preset(build, ctx, entry)
            progressed = True
        if not progressed:
            ctx, entry = rest[0]
            raise ctx.error("presets extend each other in a cycle", entry, str(entry.get("id")))
        pending = rest
    cat = build.catalog
    cat.files = tuple(file for file, _, _ in docs)
    cat.unit_table = units
    cat.index()
    return cat


def _sources(formulas_dir: Path, extra: Iterable[str | os.PathLike]) -> tuple[Path, list[tuple[Path, str, bool]]]:
    units = formulas_dir / "units.txt"
    if not units.is_file():
        raise CatalogError(f"no unit definitions at {units}; set DERIVE_FORMULAS to the formulas folder")
    files: list[tuple[Path, str, bool]] = []
    root = formulas_dir.parent
    for p in sorted(formulas_dir.glob("*.yaml")):
        files.append((p, _display(p, root), False))
    for item in extra:
        path = Path(item)
        if path.is_dir():
            found = sorted(path.glob("*.yaml"))
            if not found:
                raise CatalogError("no .yaml files in this folder", file=str(path))
            files.extend((p, str(p), True) for p in found)
        elif path.is_file():
            files.append((path, str(path), True))
        else:
            raise CatalogError("no such file or folder", file=str(path))
    return units, files


def _display(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


_loaded: dict[str, Catalog] = {}


def load_catalog(extra: Sequence[str | os.PathLike] = (), *, formulas_dir: str | os.PathLike | None = None,
                 use_cache: bool = True) -> Catalog:
    """Load the built-in catalog, plus user formula files or folders in ``extra``.

    The result is cached in memory and on disk (see the module docstring).
    """
    fdir = Path(formulas_dir) if formulas_dir else default_formulas_dir()
    units_path, files = _sources(fdir, extra)
    digest = hashlib.sha256(CACHE_VERSION.encode())
    # the code that builds the catalog is part of the key: a changed loader never reads an old cache
    for module in _BUILD_MODULES:
        st = (Path(__file__).parent / module).stat()
        digest.update(f"{module}:{st.st_mtime_ns}:{st.st_size}".encode())
    for path in [units_path] + [p for p, _, _ in files]:
        digest.update(str(path).encode())
        try:
            digest.update(path.read_bytes())
        except OSError as exc:
            raise CatalogError(f"cannot read file: {exc.strerror}", file=str(path)) from exc
    key = digest.hexdigest()
    if key in _loaded:
        return _loaded[key]
    folder = cache_dir() if use_cache else None
    cache_file = folder / f"catalog-{key[:32]}.pickle" if folder else None
    if cache_file is not None and cache_file.is_file():
        try:
            with cache_file.open("rb") as fh:
                cat, memo = pickle.load(fh)
            cat.unit_table = _units.UnitTable(units_path, memo)
            _loaded[key] = cat
            return cat
        except Exception:  # a stale or corrupt cache is rebuilt, never trusted
            pass
    units = _units.UnitTable(units_path)
    cat = _build(_read_files(files), units)
    units.warm(_COMMON_UNITS)
    _loaded[key] = cat
    if cache_file is not None:
        try:
            cache_file.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache_file.with_suffix(f".{os.getpid()}.tmp")
            with tmp.open("wb") as fh:
                pickle.dump((cat, dict(units.memo)), fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, cache_file)
        except OSError:
            pass
    return cat
