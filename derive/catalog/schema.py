"""The grammar of catalog files: each kind of entry, its fields, and the reader that checks it.

``formulas/README.md`` documents the same grammar for authors; its tables of fields are made
from :data:`KINDS` (``python -m derive.catalog.schema`` prints them) and a test fails when they
disagree. Reading is strict: an unknown field, a missing translation, a name that is not a
quantity, or a relation whose sides' dimensions differ stops the load with a
:class:`CatalogError` naming the file, line and entry.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping, MutableMapping

import sympy

from ..errors import CatalogError, DeriveError, InputError, UnitBalanceError
from ..records.catalog import Catalog
from ..records.entries import (
    Condition,
    Example,
    Preset,
    PresetValue,
    Quantity,
    Reference,
    Regime,
    Relation,
    Source,
    Text,
)
from ..records.overrides import Override
from ..records.question import Question, is_inequality
from ..storage.yamlio import LMap, LStr, line_of
from ..symbolic.units import UnitTable
from .formula_text import (
    DimensionMismatch,
    Shape,
    dimension_or_zero,
    quantity_shape,
    read_comparison,
    read_equation,
    read_expression,
    unit_shape,
)
from .values import parse_value

__all__ = ["KINDS", "TOP_FIELDS", "Field", "Kind", "build_catalog", "condition_of", "fields_markdown",
           "inline_condition"]

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

@dataclass(frozen=True)
class Field:
    """One field of an entry: its name, whether it must be given, and what it means (for authors)."""

    name: str
    doc: str
    required: bool = False


@dataclass(frozen=True)
class Kind:
    """One kind of entry (a section of a catalog file, or a mapping inside an entry) and its fields."""

    name: str
    where: str                      # how an author meets it: "quantities:", "a regime", ...
    fields: tuple[Field, ...]

    @property
    def allowed(self) -> set[str]:
        return {f.name for f in self.fields}


_FAMILY_FIELDS = (
    Field("for_each", "a family: one entry per member, `<family>` and `<family.FIELD>` filled in"),
    Field("only", "with `for_each`: only these members"),
    Field("override", "in a user's file: `true` replaces the built-in entry of the same id"),
    Field("note", "a remark for authors; not printed"),
)

QUANTITY = Kind("quantity", "quantities:", (
    Field("id", "lower_case_with_underscores; what users type", True),
    Field("unit", "the declared unit: `B`, `FLOP`, `s`, `B/s`, `FLOP/s`, `FLOP/B`, `1` (a count), ...", True),
    Field("type", "`real` (default) or `integer` (counts: layers, batch, devices)"),
    Field("symbol", "LaTeX for write-ups, from a small grammar (below)", True),
    Field("display", "for a quantity of unit `1`, how every write-up shows its values: `percent` (0.25 as "
                     "25%) or `times` (2.562 as 2.562×); for a rate of unit `1/s`, what it counts: `tokens` "
                     "(2.662 M tokens/s), `requests` or `transfers` (GT/s); JSON keeps the number"),
    Field("name", "`{en: ..., zh: ...}`", True),
    Field("meaning", "`{en: ..., zh: ...}`: what the quantity is, one line each", True),
    Field("source", "a reference id, then an optional locator: `scaling-book-tpus, Table 1`", True),
    Field("aliases", "other names users may type"),
    Field("min", "the least value allowed, in the declared unit (default: any positive value); `min: 0` "
                 "lets a user say a quantity is zero (a KV cache left out)"),
    Field("default", "a value used only when a question needs this input and nobody gave it (conventions "
                     "only); a value, or `{value, source, note}`"),
    Field("equation", "the right side of the relation that defines this quantity: one entry instead of a "
                      "quantity and a relation of the same id"),
    Field("why", "with `equation`: `{en, zh}`, the reasoning behind it, shown in write-ups (default: `meaning`)"),
    Field("regimes", "with `equation`: one regime per branch of a `max`/`min`"),
    Field("example", "with `equation`: a published number the relation gives, which the tests solve"),
    Field("holds_when", "with `equation`: conditions (ids) on the inputs under which the relation holds "
                        "(below)"),
    *_FAMILY_FIELDS,
))

RELATION = Kind("relation", "relations:", (
    Field("id", "lower_case_with_underscores", True),
    Field("equation", "`lhs = rhs`; put the quantity it defines alone on the left", True),
    Field("name", "`{en, zh}`: what it computes", True),
    Field("meaning", "`{en, zh}`: the reasoning behind it, shown in write-ups", True),
    Field("source", "a reference id, then an optional locator", True),
    Field("regimes", "one regime per branch of a `max`/`min`"),
    Field("example", "a published number the relation gives, which the tests solve (below)"),
    Field("holds_when", "a condition id, or a list of them: the inputs under which the relation holds, "
                        "checked before it is used (below)"),
    *_FAMILY_FIELDS,
))

REGIME = Kind("regime", "an item of `regimes:`", (
    Field("id", "lower_case_with_underscores, e.g. `compute_bound`", True),
    Field("when", "the condition under which this branch holds: `compute_time >= memory_time`", True),
    Field("equation", "the relation in this branch: `roofline_time = compute_time`", True),
    Field("name", "`{en, zh}`, e.g. compute-bound / 算力瓶颈", True),
))

EXAMPLE = Kind("example", "`example:` of a relation (one mapping or a list)", (
    Field("given", "the inputs, as in a problem file: `{num_layers: 80, head_dim: 128}`", True),
    Field("expect", "the published value with its unit, as its source writes it: `327680 B`", True),
    Field("solve", "the quantity to find (default: the one the relation defines)"),
    Field("hw", "a hardware preset for the remaining inputs"),
    Field("model", "a model preset for the remaining inputs"),
    Field("presets", "setup presets"),
    Field("tolerance", "a relative tolerance, when the source rounds more than its digits show"),
    Field("source", "where the number is published (default: the entry's `source`)"),
    Field("only", "in a family entry: the members this example is about"),
    Field("note", "a remark for authors; not printed"),
))

CONDITION = Kind("condition", "conditions:", (
    Field("id", "lower_case_with_underscores; what users give to `--require`", True),
    Field("require", "one inequality: `ffn_weight_bytes <= vmem_capacity` (`<= >= < >`)", True),
    Field("name", "`{en, zh}`", True),
    Field("meaning", "`{en, zh}`", True),
    Field("source", "a reference id, then an optional locator", True),
    *_FAMILY_FIELDS,
))

PRESET = Kind("preset", "presets:", (
    Field("id", "what users type after `--hw`, `--model` or `--preset`", True),
    Field("kind", "`hw`, `model` or `setup`", True),
    Field("name", "`{en, zh}`", True),
    Field("source", "cited by every value that does not name its own", True),
    Field("values", "quantity id → a value with its unit, or `{value, source, note}`"),
    Field("extends", "a variant: the values of this preset, some replaced"),
    Field("hw", "a setup preset's chip, an `hw` preset id taken when a question names none (a TPU slice's "
                "`tpu-v5e`)"),
    Field("note", "a remark printed with the preset"),
    Field("override", "in a user's file: `true` replaces the built-in preset of the same id"),
))

VALUE = Kind("value", "a preset value or default written as a mapping", (
    Field("value", "the value with its unit: `3.35 TB/s` (or `same_as`)"),
    Field("same_as", "instead of `value`, the value of another quantity of the same unit, or of arithmetic "
                     "over quantities: a default that follows `bytes_per_element`, a precision preset that "
                     "computes at `peak_flops_int8`, a head dimension of `d_model / num_heads`"),
    Field("source", "where this value comes from (default: the preset's or quantity's `source`)"),
    Field("note", "what the value is and how its source counts it: a string, or `{en: ..., zh: ...}`"),
))

REFERENCE = Kind("reference", "references:", (
    Field("id", "lower-case letters, digits, `.`, `_` or `-`", True),
    Field("title", "the document's title; `{en, zh}` for a title written here (a convention, a derivation)", True),
    Field("kind", "`datasheet`, `paper`, `book`, `seed`, `derived`, `measured`, `estimate`, `convention` or "
                  "`web`", True),
    Field("url", "where to read it"),
    Field("note", "a remark: which version, which table"),
))

TOP = Kind("file", "the top of a catalog file", (
    Field("topic", "a short id of the file's topic"),
    Field("title", "`{en, zh}`"),
    Field("quantities", "a list of quantities"),
    Field("relations", "a list of relations"),
    Field("conditions", "a list of conditions"),
    Field("presets", "a list of presets"),
    Field("references", "a list of references"),
    Field("families", "family name → member id → `{en, zh, tex, ...}`"),
    Field("aliases", "short name → quantity id"),
    Field("retired", "an old name → what to type instead (a user who types it gets this message)"),
))

#: every kind of entry, in the order formulas/README.md documents them
KINDS: tuple[Kind, ...] = (TOP, QUANTITY, RELATION, REGIME, EXAMPLE, CONDITION, PRESET, VALUE, REFERENCE)
TOP_FIELDS = TOP.allowed


def fields_markdown() -> str:
    """The tables of fields of every kind of entry, as formulas/README.md shows them."""
    out = []
    for kind in KINDS:
        out.append(f"### {kind.name} ({kind.where})\n")
        out.append("| field | required | meaning |")
        out.append("|---|---|---|")
        for f in kind.fields:
            out.append(f"| `{f.name}` | {'yes' if f.required else ''} | {f.doc} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


PRESET_KINDS = ("hw", "model", "setup")
DISPLAYS = {"percent": "%", "times": "×"}     # a quantity's display → the sign its values are shown with
#: a rate of counted things (unit 1/s) → what it counts, shown in its unit: 2.662 M tokens/s, not 2.662 M/s
RATE_DISPLAYS = {"tokens": "tokens/s", "requests": "requests/s", "transfers": "T/s"}
REFERENCE_KINDS = ("datasheet", "paper", "book", "seed", "derived", "measured", "estimate",
                   "convention", "web")


@dataclass
class _Ctx:
    file: str
    families: dict[str, dict[str, dict[str, str]]]
    references: Mapping[str, Reference]
    overridable: bool = False

    def error(self, msg: str, node: Any = None, entry: str | None = None) -> CatalogError:
        return CatalogError(msg, file=self.file, line=line_of(node), entry=entry)


def unknown_field(key: str, allowed: Iterable[str], *, what: str = "field", list_allowed: bool = True) -> str:
    """The message for a field (or section) a file may not have: the closest allowed name, else
    (``list_allowed``) all of them. The one wording of "unknown field" for every file derive reads."""
    close = difflib.get_close_matches(key, sorted(allowed), n=1)
    hint = (f" (did you mean {close[0]!r}?)" if close else
            f" (allowed: {', '.join(sorted(allowed))})" if list_allowed else "")
    return f"unknown {what} {key!r}{hint}"


def _check_fields(ctx: _Ctx, entry: Any, allowed: set[str], what: str, ident: str | None) -> None:
    if not isinstance(entry, dict):
        raise ctx.error(f"each {what} must be a mapping of fields", entry, ident)
    for key in entry:
        if key not in allowed:
            raise ctx.error(unknown_field(key, allowed), entry, ident)


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
    """A bilingual text ``{en, zh}``; in a user's own file the Chinese is optional (a plain string, or
    ``{en: ...}`` alone, is shown as it is in both languages)."""
    value = entry.get(key)
    if value is None:
        if required:
            raise ctx.error(f"missing field {key!r} (give both en and zh)", entry, ident)
        return Text("", "")
    if ctx.overridable and isinstance(value, (str, int, float)) and not isinstance(value, bool) \
            and str(value).strip():
        return Text(str(value).strip(), str(value).strip())
    if ctx.overridable and isinstance(value, dict) and set(value) == {"en"} and str(value["en"]).strip():
        return Text(str(value["en"]).strip(), str(value["en"]).strip())
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
            filled = _fill(ctx, entry, str(fam_name), member, family[member])
            _keep_member_examples(ctx, filled, member)
            out.append((filled, member))
    return out


def _keep_member_examples(ctx: _Ctx, entry: LMap, member: str) -> None:
    """A family entry's examples that say ``only: [members]`` stay with those members."""
    raw = entry.get("example")
    if raw is None:
        return
    items = raw if isinstance(raw, list) else [raw]
    kept = []
    for item in items:
        only = item.get("only") if isinstance(item, dict) else None
        if only is not None:
            if not isinstance(only, list):
                raise ctx.error("an example's 'only' is a list of family members", only, str(entry.get("id")))
            if member not in [str(m) for m in only]:
                continue
            item = LMap((k, v) for k, v in item.items() if k != "only")
            item.line = getattr(raw, "line", 0)
        kept.append(item)
    if kept:
        entry["example"] = kept
    else:
        del entry["example"]


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
        # the entry's own for_each/only are spent here; an example's only: stays for its member filter
        spent = ("for_each", "only") if "for_each" in node else ()
        out = LMap((_fill(ctx, k, fam, member, fields), _fill(ctx, v, fam, member, fields))
                   for k, v in node.items() if k not in spent)
        out.line = getattr(node, "line", 0)
        return out
    if isinstance(node, list):
        return [_fill(ctx, v, fam, member, fields) for v in node]
    return node


# ---------------------------------------------------------------------------
# the loader


@dataclass
class _Build:
    units: UnitTable
    defining: list[tuple["_Ctx", LMap]] = field(default_factory=list)   # from quantities' equation:
    same_as: list[tuple["_Ctx", Any, Quantity, str, str]] = field(default_factory=list)   # checked last
    catalog: Catalog = field(default_factory=Catalog)
    families: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)
    origin: dict[str, str] = field(default_factory=dict)   # id -> file, for clash messages
    shapes: dict[str, Shape] = field(default_factory=dict)   # quantity id -> its name in formulas (made once)
    premised: list[tuple["_Ctx", Any, Relation]] = field(default_factory=list)   # relations with holds_when


def _claim(build: _Build, ctx: _Ctx, table: MutableMapping, ident: str, entry: Any, what: str) -> None:
    """Register ``ident`` in ``table``; a clash is an error unless a user entry says override: true."""
    if ident in table:
        if ctx.overridable and str(entry.get("override", "")).lower() == "true":
            key = f"{what}:{ident}"
            replaced = build.origin.get(key, "the built-in catalog")
            if key in build.catalog.overrides:      # overridden twice: the built-in is what was replaced
                replaced = build.catalog.overrides[key].replaced
            build.catalog.overrides[key] = Override(what, ident, ctx.file, replaced)
            build.origin[key] = ctx.file
            return
        where = build.origin.get(f"{what}:{ident}", "another file")
        hint = " (add 'override: true' to replace the built-in entry)" if ctx.overridable else ""
        raise ctx.error(f"{what} {ident!r} is already defined in {where}{hint}", entry, ident)
    build.origin[f"{what}:{ident}"] = ctx.file


# a unit written in integer operations (OP/s, TOP/s, OPS): its values are shown in OP, not FLOP
_COUNTS_OPS = re.compile(r"(?<![A-Za-z])[kMGTPE]?OPS?(?![A-Za-z])")


def _load_quantity(build: _Build, ctx: _Ctx, entry: dict) -> None:
    ident = _str(ctx, entry, "id", None)
    _check_fields(ctx, entry, QUANTITY.allowed, "quantity", ident)
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
    if unit_text.strip().endswith("Hz") and dims.unit_string() == "1/s":
        dims = replace(dims, named="Hz")     # shown as GHz, while tokens/s show as k/s
    elif _COUNTS_OPS.search(unit_text) and "[compute]" in dims.as_dict():
        dims = replace(dims, named="OP")     # integer operations: 394 TOP/s, not 394 TFLOP/s
    display = _str(ctx, entry, "display", ident, required=False, default="")
    if display in RATE_DISPLAYS:
        if dims.unit_string() != "1/s" or dims.named:
            raise ctx.error(f"display: {display} is for a rate of unit '1/s', not {unit_text}",
                            entry.get("display"), ident)
        dims = replace(dims, named=RATE_DISPLAYS[display])
    elif display:
        if display not in DISPLAYS:
            raise ctx.error(f"display is {' or '.join([*DISPLAYS, *RATE_DISPLAYS])}", entry.get("display"), ident)
        if not dims.is_dimensionless:
            raise ctx.error(f"display: {display} is for a quantity of unit '1', not {unit_text}",
                            entry.get("display"), ident)
        dims = replace(dims, named=DISPLAYS[display])
    q = Quantity(
        id=ident, unit=unit_text, dims=dims, factor=sympy.Rational(factor.numerator, factor.denominator),
        integer=(kind == "integer"), latex=_symbol(ctx, entry, ident),
        name=_text(ctx, entry, "name", ident), meaning=_text(ctx, entry, "meaning", ident),
        source=_source(ctx, entry, ident), aliases=tuple(str(a) for a in aliases_raw),
        file=ctx.file, line=line_of(entry) or 0,
    )
    if entry.get("min") is not None:
        q = _with_minimum(build, ctx, q, entry["min"])
    default = entry.get("default")
    if default is not None:
        q = _with_default(build, ctx, q, default)
    if build.catalog.aliases.get(ident, ident) != ident:
        raise ctx.error(f"{ident} is already another name of {build.catalog.aliases[ident]}; choose another id",
                        entry, ident)
    build.catalog.quantities[ident] = q
    for alias in q.aliases:
        if not _QUANTITY_ID.match(alias):
            raise ctx.error(f"alias {alias!r} is not a valid name", aliases_raw, ident)
        if (alias in build.catalog.quantities and alias != ident) \
                or build.catalog.aliases.get(alias, ident) != ident:
            raise ctx.error(f"alias {alias!r} is already a name of "
                            f"{build.catalog.aliases.get(alias, alias)}; choose another", aliases_raw, ident)
        build.catalog.aliases[alias] = ident
    _defining_relation(build, ctx, entry, ident)


def _defining_relation(build: _Build, ctx: _Ctx, entry: dict, ident: str) -> None:
    """A quantity's ``equation:`` (with ``why``, ``regimes``, ``example``) becomes the relation of the
    same id: ``ident = equation``, named and sourced as the quantity, read with the relations."""
    equation = entry.get("equation")
    if equation is None:
        for key in ("why", "regimes", "example", "holds_when"):
            if key in entry:
                raise ctx.error(f"{key!r} belongs with 'equation:' (the relation that defines {ident})",
                                entry[key], ident)
        return
    if not isinstance(equation, str) or "=" in str(equation).replace("<=", "").replace(">=", ""):
        raise ctx.error(f"equation of a quantity is its right side only: write 'equation: flops / peak_flops' "
                        f"for {ident} = flops / peak_flops", equation, ident)
    text = LStr(f"{ident} = {str(equation).strip()}")
    text.line = getattr(equation, "line", 0)
    relation = LMap(id=entry["id"], equation=text, name=entry.get("name"),
                    meaning=entry.get("why", entry.get("meaning")), source=entry.get("source"))
    for key in ("regimes", "example", "override", "holds_when"):
        if key in entry:
            relation[key] = entry[key]
    relation.line = getattr(entry, "line", 0)
    build.defining.append((ctx, relation))


def symbol_mistake(text: str) -> str | None:
    """What is wrong with a quantity's LaTeX symbol (a catalog's ``symbol:`` or a problem file's own notation
    under ``symbols:``), checked against the small LaTeX math grammar above; None when it is fine."""
    hint = r"a symbol is LaTeX math: letters, digits, _ ^ { } and commands such as \mathrm, \alpha, \cdot"
    if not text or len(text) > MAX_SYMBOL:
        return f"symbol must have 1 to {MAX_SYMBOL} characters; {hint}"
    depth, pos = 0, 0
    while pos < len(text):
        m = _SYMBOL_PIECE.match(text, pos)
        if m is None:
            return f"symbol '{text}': {text[pos]!r} is not allowed; {hint}"
        if m.group(1) is not None and m.group(1) not in SYMBOL_COMMANDS:
            return f"symbol '{text}': \\{m.group(1)} is not allowed; {hint}"
        depth += {"{": 1, "}": -1}.get(m.group(0), 0)
        if depth < 0:
            break
        pos = m.end()
    if depth != 0:
        return f"symbol '{text}': its braces do not balance; {hint}"
    return None


def _symbol(ctx: _Ctx, entry: dict, ident: str) -> str:
    """The ``symbol`` field, checked against the small LaTeX math grammar above."""
    text = _str(ctx, entry, "symbol", ident)
    mistake = symbol_mistake(text)
    if mistake:
        raise ctx.error(mistake, entry.get("symbol"), ident)
    return text


def _with_minimum(build: _Build, ctx: _Ctx, q: Quantity, raw: Any) -> Quantity:
    """``min:``: the least value a user may give (zero or more), in the declared unit unless it names one."""
    from dataclasses import replace

    try:
        magnitude, dims, named = build.units.evaluate(str(raw))
    except DeriveError as exc:
        raise ctx.error(f"min: {exc.message}", raw, q.id) from exc
    value = sympy.Rational(magnitude.numerator, magnitude.denominator)
    if named and dims != q.dims:
        raise ctx.error(f"min: {raw!r} is {dims.unit_string()}, but {q.id} is in {q.base_unit}", raw, q.id)
    value = value if named else value * q.factor
    if value < 0:
        raise ctx.error("min: a quantity is never negative; give 0 or more", raw, q.id)
    return replace(q, minimum=value, minimum_text=str(raw).strip())


def _with_default(build: _Build, ctx: _Ctx, q: Quantity, raw: Any) -> Quantity:
    from dataclasses import replace

    return replace(q, default=_value(build, ctx, q, raw, q.source, q.id, "default: "))


def _value(build: _Build, ctx: _Ctx, q: Quantity, raw: Any, source: Source, where: str,
           prefix: str = "") -> PresetValue:
    """A preset value or default: a value with its unit, or ``{value|same_as, source, note}``."""
    if isinstance(raw, dict):
        _check_fields(ctx, raw, VALUE.allowed, "value", where)
        note, note_zh = _plain_or_bilingual(ctx, raw, "note", where)
        src = _source(ctx, raw, where, inherited=source)
        same_as = _str(ctx, raw, "same_as", where, required=False)
        if same_as:
            if raw.get("value") is not None:
                raise ctx.error(f"{prefix}give 'value' or 'same_as', not both", raw, where)
            build.same_as.append((ctx, raw, q, same_as, where))
            return PresetValue(q.id, None, f"= {same_as}", src, note, same_as=same_as, note_zh=note_zh)
        text = _str(ctx, raw, "value", where)
    else:
        text, note, note_zh, src = str(raw), "", "", source
    try:
        value = parse_value(text, q, build.units)
    except DeriveError as exc:
        raise ctx.error(f"{prefix}{exc.message}", raw, where) from exc
    return PresetValue(q.id, value, text, src, note, note_zh=note_zh)


def _plain_or_bilingual(ctx: _Ctx, entry: dict, key: str, ident: str, required: bool = False) -> tuple[str, str]:
    """A field written once (shown as is in both languages) or as ``{en, zh}``: (English, Chinese or "").
    A value's ``note``, or the title of a reference written here rather than published."""
    raw = entry.get(key)
    if isinstance(raw, dict) and ctx.overridable and set(raw) == {"en"} and isinstance(raw["en"], str) \
            and raw["en"].strip():
        return raw["en"].strip(), ""      # a user's own file: the Chinese is optional
    if isinstance(raw, dict):
        if set(raw) != {"en", "zh"} or not all(isinstance(v, str) and v.strip() for v in raw.values()):
            raise ctx.error(f"a {key} is a string or {{en: ..., zh: ...}} with both texts", raw, ident)
        return raw["en"].strip(), raw["zh"].strip()
    return _str(ctx, entry, key, ident, required=required), ""


def _check_same_as(build: _Build) -> None:
    """Every ``same_as`` names a quantity of the same unit, or is arithmetic over quantities that gives
    that unit (checked once every quantity is read)."""
    for ctx, raw, q, other, where in build.same_as:
        if not _QUANTITY_ID.match(other):      # arithmetic over quantities, not one name
            try:
                shape = read_expression(other, _symbol_resolver(build, ctx, where, raw), "same_as")
            except DimensionMismatch as exc:
                parts = " vs ".join(d.unit_string() for d in exc.dims)
                raise ctx.error(f"same_as: terms of {exc.text} have different units: {parts}", raw, where) from exc
            except CatalogError:
                raise                                      # an unknown quantity, already located
            except DeriveError as exc:
                raise ctx.error(f"same_as: {exc.message}", raw, where) from exc
            if q.id in shape.names:
                raise ctx.error(f"same_as: {q.id} cannot follow itself", raw, where)
            dims = dimension_or_zero(shape)
            if dims != q.dims:
                raise ctx.error(f"same_as: {other} is in {dims.unit_string()}, but {q.id} is in {q.base_unit}",
                                raw, where)
            continue
        target = build.catalog.quantities.get(build.catalog.aliases.get(other, other))
        if target is None:
            close = difflib.get_close_matches(other, list(build.catalog.quantities), n=2)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise ctx.error(f"same_as: unknown quantity {other!r}{hint}", raw, where)
        if target.dims != q.dims:
            raise ctx.error(f"same_as: {target.id} is in {target.base_unit}, but {q.id} is in {q.base_unit}",
                            raw, where)


def _symbol_resolver(build: _Build, ctx: _Ctx, ident: str, node: Any):
    quantities = build.catalog.quantities
    aliases = build.catalog.aliases
    shapes = build.shapes

    def resolve(name: str) -> Shape:
        key = aliases.get(name, name)
        q = quantities.get(key)
        if q is None:
            close = difflib.get_close_matches(name, list(quantities), n=2)
            hint = f" (did you mean {', '.join(close)}?)" if close else " (define it under quantities:)"
            raise ctx.error(f"unknown quantity {name!r}{hint}", node, ident)
        shape = shapes.get(q.id)
        if shape is None:
            shape = shapes[q.id] = quantity_shape(q.id, q.dims)
        return shape

    return resolve


def _unit_literal(build: _Build, ctx: _Ctx, node: Any, ident: str):
    """Unit literals such as ``[FLOP]`` in equations: the unit's dimension while the units are checked,
    its exact factor to base units in the canonical text."""
    def make(text: str) -> Shape:
        try:
            factor, dims = build.units.parse(text)
        except DeriveError as exc:
            raise ctx.error(f"unit literal [{text}]: {exc.message}", node, ident) from exc
        return unit_shape(factor, dims)

    return make


def _read(ctx: _Ctx, node: Any, ident: str, read: Any) -> Any:
    """``read()`` (a reader of :mod:`derive.catalog.formula_text`), its mistakes located at the entry."""
    try:
        return read()
    except DimensionMismatch as exc:
        parts = " vs ".join(d.unit_string() for d in exc.dims)
        raise UnitBalanceError(file=ctx.file, line=line_of(node), entry=ident,
                               left_unit="(mixed)", right_unit="(mixed)",
                               detail=f"terms of {exc.text} have different units: {parts}") from exc
    except CatalogError:
        raise
    except DeriveError as exc:
        raise ctx.error(exc.message, node, ident) from exc


def _check_balance(ctx: _Ctx, ident: str, node: Any, lhs: Shape, rhs: Shape) -> None:
    if lhs.dims is not None and rhs.dims is not None and lhs.dims != rhs.dims:   # zero is zero in every unit
        raise UnitBalanceError(file=ctx.file, line=line_of(node), entry=ident,
                               left_unit=lhs.dims.unit_string(), right_unit=rhs.dims.unit_string())


def _read_eq(build: _Build, ctx: _Ctx, resolver, text: str, node: Any, ident: str) -> tuple[Shape, Shape]:
    lhs, rhs = _read(ctx, node, ident, lambda: read_equation(text, resolver, _unit_literal(build, ctx, node, ident)))
    _check_balance(ctx, ident, node, lhs, rhs)
    return lhs, rhs


def _read_cmp(build: _Build, ctx: _Ctx, resolver, text: str, node: Any, ident: str) -> tuple[Shape, str, Shape]:
    lhs, op, rhs = _read(ctx, node, ident,
                         lambda: read_comparison(text, resolver, _unit_literal(build, ctx, node, ident)))
    _check_balance(ctx, ident, node, lhs, rhs)
    return lhs, op, rhs


def _symbols_of(*shapes: Shape) -> tuple[str, ...]:
    return tuple(sorted(frozenset().union(*(s.names for s in shapes))))


def _load_relation(build: _Build, ctx: _Ctx, entry: dict) -> None:
    ident = _str(ctx, entry, "id", None)
    _check_fields(ctx, entry, RELATION.allowed, "relation", ident)
    if not _QUANTITY_ID.match(ident):
        raise ctx.error("a relation id is lower_case_with_underscores", entry.get("id"), ident)
    _claim(build, ctx, build.catalog.relations, ident, entry, "relation")
    resolver = _symbol_resolver(build, ctx, ident, entry.get("equation"))
    text = _str(ctx, entry, "equation", ident)
    lhs, rhs = _read_eq(build, ctx, resolver, text, entry.get("equation"), ident)
    regimes = []
    shapes = [lhs, rhs]
    regime_bare: list[frozenset[str]] = []
    raw_regimes = entry.get("regimes") or []
    if not isinstance(raw_regimes, list):
        raise ctx.error("regimes must be a list", raw_regimes, ident)
    for raw in raw_regimes:
        rid = _str(ctx, raw, "id", ident)
        _check_fields(ctx, raw, REGIME.allowed, "regime", f"{ident}.{rid}")
        rtext = _str(ctx, raw, "equation", ident)
        rl, rr = _read_eq(build, ctx, resolver, rtext, raw.get("equation"), f"{ident}.{rid}")
        wtext = _str(ctx, raw, "when", ident)
        wl, op, wr = _read_cmp(build, ctx, resolver, wtext, raw.get("when"), f"{ident}.{rid}")
        regimes.append(Regime(rid, _text(ctx, raw, "name", f"{ident}.{rid}"), rl.text, rr.text,
                              (wl.text, op, wr.text), rtext, wtext))
        shapes.append(rl)
        shapes.append(rr)
        regime_bare.append(rl.bare | rr.bare)
    if not regimes and (lhs.minmax or rhs.minmax):
        raise ctx.error("a relation with max() or min() must list its regimes (one per branch, "
                        "each with when: and equation:)", entry, ident)
    symbols = _symbols_of(*shapes)
    # solvable for a name that occurs outside ceil/floor (with regimes: in some regime's equation)
    bare = frozenset().union(*regime_bare) if regimes else lhs.bare | rhs.bare
    solvable = frozenset(name for name in symbols if name in bare)
    source = _source(ctx, entry, ident)
    defines = lhs.name
    rel = Relation(
        id=ident, lhs_src=lhs.text, rhs_src=rhs.text, equation_text=text, symbols=symbols,
        name=_text(ctx, entry, "name", ident), meaning=_text(ctx, entry, "meaning", ident),
        source=source, regimes=tuple(regimes), defines=defines, solvable=solvable,
        examples=_examples(build, ctx, entry.get("example"), ident, defines, source),
        holds_when=_premise_ids(ctx, entry.get("holds_when"), ident),
        file=ctx.file, line=line_of(entry) or 0)
    build.catalog.relations[ident] = rel
    if rel.holds_when:
        build.premised.append((ctx, entry, rel))


def _premise_ids(ctx: _Ctx, raw: Any, ident: str) -> tuple[str, ...]:
    """``holds_when:`` a condition id or a list of them (checked once the conditions are read)."""
    if raw is None:
        return ()
    items = raw if isinstance(raw, list) else [raw]
    if not items or not all(isinstance(i, str) and _QUANTITY_ID.match(i) for i in items):
        raise ctx.error("holds_when names conditions: a condition id or a list of them, e.g. "
                        "holds_when: [collective_axes_wrap]", raw, ident)
    return tuple(dict.fromkeys(str(i) for i in items))


def _check_premises(build: _Build) -> None:
    """Every ``holds_when`` names a condition, on inputs only: a premise is checked on the values a
    question gives (typed, presets, defaults), before any relation is solved."""
    defined = {r.defines for r in build.catalog.relations.values() if r.defines}
    for ctx, entry, rel in build.premised:
        node = entry.get("holds_when")
        for cid in rel.holds_when:
            cond = build.catalog.conditions.get(cid)
            if cond is None:
                close = difflib.get_close_matches(cid, list(build.catalog.conditions), n=3)
                hint = f" (did you mean {', '.join(close)}?)" if close else " (add it under conditions:)"
                raise ctx.error(f"holds_when: unknown condition {cid!r}{hint}", node, rel.id)
            derived = [s for s in cond.symbols if s in defined]
            if derived:
                raise ctx.error(f"holds_when: condition {cid} reads {derived[0]}, which a relation defines; a "
                                "premise is a condition on inputs (what a question gives or a preset sets)",
                                node, rel.id)


def _examples(build: _Build, ctx: _Ctx, raw: Any, ident: str, defines: str | None,
              source: Source) -> tuple[Example, ...]:
    """The ``example:`` of a relation (a mapping or a list of them): each a question and the published value.

    Names of quantities are checked here; preset names once the presets are read (:func:`_check_examples`).
    """
    if raw is None:
        return ()
    items = raw if isinstance(raw, list) else [raw]
    out = []
    for item in items:
        where = f"{ident}.example"
        _check_fields(ctx, item, EXAMPLE.allowed, "example", where)
        if "only" in item:
            raise ctx.error("'only' picks family members: it belongs in an example of a for_each entry", item, where)
        target = _str(ctx, item, "solve", where, required=False) or defines
        if target is None:
            raise ctx.error("give 'solve:' (the relation does not define one quantity on its left)", item, where)
        given = item.get("given")
        if not isinstance(given, dict) or not given:
            raise ctx.error("'given' maps quantity ids to values: {num_layers: 80, head_dim: 128}", item, where)
        quantities = build.catalog.quantities
        for name in [target, *given]:
            if build.catalog.aliases.get(str(name), str(name)) not in quantities:
                raise ctx.error(f"unknown quantity {name!r}", given, where)
        expect = _str(ctx, item, "expect", where)
        target_q = quantities[build.catalog.aliases.get(target, target)]
        try:
            parse_value(expect, target_q, build.units)
            presets = item.get("presets")
            question = Question.of(target_q.id, {str(k): str(v) for k, v in given.items()},
                                   hw=_str(ctx, item, "hw", where, required=False) or None,
                                   model=_str(ctx, item, "model", where, required=False) or None,
                                   presets=[str(p) for p in presets] if isinstance(presets, list)
                                   else (str(presets) if presets else ()))
        except DeriveError as exc:
            raise ctx.error(exc.message, item, where) from exc
        tolerance = None
        if item.get("tolerance") is not None:
            try:
                tolerance = float(str(item["tolerance"]))
            except ValueError:
                raise ctx.error("tolerance is a relative error, e.g. 0.01", item["tolerance"], where) from None
        out.append(Example(question, expect, _source(ctx, item, where, inherited=source), tolerance,
                           ctx.file, line_of(item) or 0))
    return tuple(out)


def _check_preset_chips(build: _Build) -> None:
    """A setup preset's ``hw`` names a chip preset (read once every preset is)."""
    for p in build.catalog.presets.values():
        if p.hw and (p.hw not in build.catalog.presets or build.catalog.presets[p.hw].kind != "hw"):
            raise CatalogError(f"{p.id}: hw {p.hw!r} is not a hardware preset (see 'derive list --kind hw')",
                               file=p.file, line=p.line, entry=p.id)


def _check_examples(build: _Build) -> None:
    """Every example names presets that exist (read after the relations, so checked last)."""
    for rel in build.catalog.relations.values():
        for ex in rel.examples:
            q = ex.question
            for name, kind in [(q.hw, "hw"), (q.model, "model"), *[(p, None) for p in q.presets]]:
                if name and (name not in build.catalog.presets
                             or (kind and build.catalog.presets[name].kind != kind)):
                    raise CatalogError(f"{rel.id}.example: unknown {kind or 'setup'} preset {name!r}",
                                       file=ex.file, line=ex.line, entry=rel.id)


def _load_condition(build: _Build, ctx: _Ctx, entry: dict) -> None:
    ident = _str(ctx, entry, "id", None)
    _check_fields(ctx, entry, CONDITION.allowed, "condition", ident)
    if not _QUANTITY_ID.match(ident):
        raise ctx.error("a condition id is lower_case_with_underscores", entry.get("id"), ident)
    _claim(build, ctx, build.catalog.conditions, ident, entry, "condition")
    resolver = _symbol_resolver(build, ctx, ident, entry.get("require"))
    text = _str(ctx, entry, "require", ident)
    lhs, op, rhs = _read_cmp(build, ctx, resolver, text, entry.get("require"), ident)
    build.catalog.conditions[ident] = Condition(
        id=ident, comparison_src=(lhs.text, op, rhs.text), text=text, symbols=_symbols_of(lhs, rhs),
        name=_text(ctx, entry, "name", ident), meaning=_text(ctx, entry, "meaning", ident),
        source=_source(ctx, entry, ident), file=ctx.file, line=line_of(entry) or 0)


def condition_of(catalog: Catalog, name: str) -> Condition:
    """A condition id, or an inequality written inline (parsed once per catalog and kept in its memo)."""
    if is_inequality(name):
        hit = catalog.memo.inline_conditions.get(name)
        if hit is None:
            hit = catalog.memo.inline_conditions[name] = inline_condition(catalog, name)
        return hit
    return catalog.condition(name)


# a number (with its exponent, or a whole power: 150e9, 2**30), then (after spaces) a name: never valid
# arithmetic, so the name is a unit ("30 days", "2 TB/s", "2**30 B"); an exponent is never read as a unit
_NUMBER_THEN_NAME = re.compile(r"(?<![\w.\]])((?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
                               r"(?:\s*\*\*\s*\d+)?)(?![\d_.]|[eE][+-]?\d)\s*"
                               r"([A-Za-zµμ%][\w µμ/]*)")


def _bracket_units(text: str, catalog: Catalog) -> str:
    """``train_time <= 30 days`` as ``train_time <= (30*[days])``: a number a user typed with a unit, as
    values are typed, becomes the catalog's unit literal. The unit is the longest run of words and ``/``
    after the number that the unit table knows (``2 TB/s / x`` takes ``TB/s``); a catalog name is never
    taken as a unit."""
    def unit_after(m: re.Match) -> str:
        number, rest = m.group(1), m.group(2)
        words = re.split(r"(\s*/\s*|\s+)", rest)
        for end in range(len(words), 0, -2):
            candidate = "".join(words[:end]).strip()
            first = re.match(r"[\w µμ]+", candidate)
            name = first.group().strip() if first else ""
            if not candidate or name in catalog.quantities or name in catalog.aliases:
                continue
            try:
                catalog.units.parse(candidate)
            except DeriveError:
                continue
            return f"({number}*[{candidate}])" + "".join(words[end:])
        word = words[0].strip()
        raise InputError(f"`require` {text!r}: {word!r} after {number} is not a unit (such as B, GiB, TB/s, ms, "
                         f"days; see formulas/units.txt); write a product with '*': {number} * {word}",
                         name="require")

    return _NUMBER_THEN_NAME.sub(unit_after, text)


def inline_condition(catalog: Catalog, text: str) -> Condition:
    """An inequality typed in a question (``--require "attn_compute_time_matmul >= attn_min_hbm_time"``),
    read by the same whitelist parser and unit check as a catalog condition."""
    build = _Build(catalog.units, catalog=catalog)
    ctx = _Ctx("require", {}, catalog.references)
    resolver = _symbol_resolver(build, ctx, text, None)
    try:
        lhs, op, rhs = _read_cmp(build, ctx, resolver, _bracket_units(text, catalog), None, text)
    except CatalogError as exc:
        raise InputError(f"`require` {text!r}: {exc.bare_message}", name="require") from exc
    return Condition(id=text, comparison_src=(lhs.text, op, rhs.text), text=text,
                     symbols=_symbols_of(lhs, rhs), name=Text(text, text),
                     meaning=Text(f"the condition {text} given with the question", f"问题中给出的条件 {text}"),
                     source=Source(""), file="", line=0)


def _load_preset(build: _Build, ctx: _Ctx, entry: dict) -> None:
    ident = _str(ctx, entry, "id", None)
    _check_fields(ctx, entry, PRESET.allowed, "preset", ident)
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
        values[key] = _value(build, ctx, q, raw, preset_source, f"{ident}.{qname}")
    chip = _str(ctx, entry, "hw", ident, required=False)
    if chip and kind != "setup":
        raise ctx.error("'hw' names the chip of a setup preset (a slice); a chip or a model has none",
                        entry.get("hw"), ident)
    if not chip and extends:
        chip = build.catalog.presets[extends].hw
    build.catalog.presets[ident] = Preset(
        id=ident, kind=kind, name=_text(ctx, entry, "name", ident), source=preset_source,
        values=values, note=_str(ctx, entry, "note", ident, required=False), extends=extends,
        file=ctx.file, line=line_of(entry) or 0, hw=chip)


def _load_reference(build: _Build, ctx: _Ctx, entry: dict) -> None:
    ident = _str(ctx, entry, "id", None)
    _check_fields(ctx, entry, REFERENCE.allowed, "reference", ident)
    if not _PRESET_ID.match(ident):
        raise ctx.error("a reference id is lower-case letters, digits, '.', '_' or '-'", entry.get("id"), ident)
    _claim(build, ctx, build.catalog.references, ident, entry, "reference")
    kind = _str(ctx, entry, "kind", ident)
    if kind not in REFERENCE_KINDS:
        raise ctx.error(f"kind must be one of {', '.join(REFERENCE_KINDS)}", entry.get("kind"), ident)
    title, title_zh = _plain_or_bilingual(ctx, entry, "title", ident, required=True)
    build.catalog.references[ident] = Reference(
        id=ident, title=title, kind=kind, title_zh=title_zh,
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


def _load_retired(build: _Build, ctx: _Ctx, raw: Any) -> None:
    """``retired: {old_name: message}``: names no longer in use, and what to type instead."""
    if raw is None:
        return
    if not isinstance(raw, dict):
        raise ctx.error("retired maps an old name to a message saying what to type instead", raw)
    for old, message in raw.items():
        if old in build.catalog.quantities or old in build.catalog.aliases:
            raise ctx.error(f"retired name {old!r} is still a name in use", message)
        if not isinstance(message, str) or not message.strip():
            raise ctx.error(f"retired name {old!r} needs a message saying what to type instead", message)
        build.catalog.retired[str(old)] = str(message).strip()


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


def build_catalog(docs: list[tuple[str, Any, bool]], units: UnitTable) -> Catalog:
    """A catalog from parsed files ``(display name, data, user file?)``, sections in dependency order."""
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
    for ctx, entry in build.defining:
        _load_relation(build, ctx, entry)
    for ctx, data in ctxs:
        for entry, _ in _expand(ctx, data.get("relations"), "relations"):
            _load_relation(build, ctx, entry)
        for entry, _ in _expand(ctx, data.get("conditions"), "conditions"):
            _load_condition(build, ctx, entry)
    for ctx, data in ctxs:
        _load_aliases(build, ctx, data.get("aliases"))
        _load_retired(build, ctx, data.get("retired"))
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
    _check_examples(build)
    _check_preset_chips(build)
    _check_premises(build)
    _check_same_as(build)
    cat = build.catalog
    cat.files = tuple(file for file, _, _ in docs)
    cat.unit_table = units
    cat.index()
    return cat


if __name__ == "__main__":   # python -m derive.catalog.schema: the tables of formulas/README.md
    print(fields_markdown(), end="")
