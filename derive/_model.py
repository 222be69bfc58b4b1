"""The catalog's data model: quantities, relations, conditions, presets and references.

These are plain frozen records built by the loader (``_loader.py``) from the
YAML files in ``formulas/``; the solver reads them and never changes them.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Generic, Iterable, Iterator, Mapping, MutableMapping, TypeVar

import sympy

from ._errors import UnknownNameError
from ._expr import Comparison
from ._override_log import Override
from ._units import Dimension

if TYPE_CHECKING:
    from ._question import Question
    from ._units import UnitTable

__all__ = [
    "Catalog", "CatalogMemo", "Condition", "Example", "Override", "Preset", "PresetValue", "Quantity", "Reference",
    "Regime",
    "Relation", "Source", "Text",
]


class _LazyExpressions:
    """Expressions kept as canonical text in the compiled cache and parsed on first use.

    A catalog of hundreds of relations loads from its cache in milliseconds: only
    the relations a question uses are turned back into SymPy objects. Subclasses
    name their lazily parsed attributes in ``_lazy``; each ``X`` is parsed from
    the field ``X_src`` (the text ``str()`` gives, which the whitelist parser reads
    back exactly; the loader checks that when it builds the cache).
    """

    _lazy: tuple[str, ...] = ()

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        for name in self._lazy:
            state.pop(name, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


def parse_canonical(text: str) -> sympy.Expr:
    """Parse a catalog expression's canonical text (written by the loader, :mod:`derive._formula_text`)."""
    from ._expr import parse_expression

    return parse_expression(text, _positive_symbol, "compiled expression")


class _LazySides(_LazyExpressions):
    """The two sides of an equation, parsed from ``lhs_src`` and ``rhs_src`` on first use."""

    lhs_src: str
    rhs_src: str

    @cached_property
    def lhs(self) -> sympy.Expr:
        return parse_canonical(self.lhs_src)

    @cached_property
    def rhs(self) -> sympy.Expr:
        return parse_canonical(self.rhs_src)


class _WrittenOrder:
    """The order the catalog's text writes each sum's terms and each product's factors in
    (:func:`derive._expr.written_order`), read from the canonical text on first use: a printer given
    these chains writes ``w + g + o`` as the catalog does, not in SymPy's order."""

    def _canonical_texts(self) -> tuple[str, ...]:
        raise NotImplementedError

    @cached_property
    def written(self) -> tuple[tuple[str, tuple[sympy.Expr, ...]], ...]:
        from ._expr import written_order

        chains: list[tuple[str, tuple[sympy.Expr, ...]]] = []
        for text in self._canonical_texts():
            chains.extend(c for c in written_order(text, _positive_symbol) if len(c[1]) > 1)
        return tuple(chains)


def _positive_symbol(name: str) -> sympy.Symbol:
    return sympy.Symbol(name, positive=True)


@dataclass(frozen=True)
class Text:
    """A short text in English and Chinese."""

    en: str
    zh: str

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True)
class Source:
    """Where an entry comes from: a reference id and a locator inside it (section, table, page)."""

    ref: str
    locator: str = ""

    def __str__(self) -> str:
        return f"{self.ref}, {self.locator}" if self.locator else self.ref


@dataclass(frozen=True)
class Reference:
    """A cited document: a datasheet, a paper, a book chapter, one of the seed chapters."""

    id: str
    title: str
    kind: str            # datasheet | paper | book | seed | derived | measured | estimate | convention
    url: str = ""
    note: str = ""
    title_zh: str = ""   # for a title written here (a convention, a derivation): its Chinese, or empty


@dataclass(frozen=True)
class Quantity:
    """A named physical or counted quantity with its unit and both languages' names."""

    id: str
    unit: str                # the declared unit, as written in the catalog
    dims: Dimension
    factor: sympy.Rational   # declared unit → base units
    integer: bool
    latex: str
    name: Text
    meaning: Text
    source: Source
    aliases: tuple[str, ...] = ()
    default: "PresetValue | None" = None
    minimum: sympy.Rational | None = None   # None: positive; else the least value allowed (min: 0 allows zero)
    minimum_text: str = ""
    file: str = ""
    line: int = 0

    @property
    def symbol(self) -> sympy.Symbol:
        return sympy.Symbol(self.id, positive=True)

    @property
    def base_unit(self) -> str:
        return self.dims.unit_string()


@dataclass(frozen=True)
class Regime(_WrittenOrder, _LazySides):
    """One branch of a non-smooth relation (a max or min): its equation holds when ``when`` does."""

    id: str
    name: Text
    lhs_src: str
    rhs_src: str
    when_src: tuple[str, str, str]      # lhs, op, rhs
    equation_text: str
    when_text: str

    _lazy = ("lhs", "rhs", "when", "written")

    def _canonical_texts(self) -> tuple[str, ...]:
        return (self.lhs_src, self.rhs_src, self.when_src[0], self.when_src[2])

    @cached_property
    def when(self) -> Comparison:
        left, op, right = self.when_src
        return Comparison(parse_canonical(left), op, parse_canonical(right))


@dataclass(frozen=True)
class Example:
    """A number a source publishes that a relation gives: the question that reproduces it, and the value."""

    question: "Question"
    expect: str                # as published, with its unit: "327680 B"
    source: Source
    tolerance: float | None = None
    file: str = ""
    line: int = 0


@dataclass(frozen=True)
class Relation(_WrittenOrder, _LazySides):
    """An equation ``lhs = rhs`` between quantities; solvable for any of its symbols."""

    id: str
    lhs_src: str
    rhs_src: str
    equation_text: str
    symbols: tuple[str, ...]
    name: Text
    meaning: Text
    source: Source
    regimes: tuple[Regime, ...] = ()
    defines: str | None = None             # the quantity on the left, when the left side is one symbol
    solvable: frozenset[str] = frozenset()  # symbols it can be solved for (not only inside ceil/floor)
    examples: tuple[Example, ...] = ()     # published numbers it gives, solved by the tests
    holds_when: tuple[str, ...] = ()       # conditions on the inputs under which it holds (its premises)
    file: str = ""
    line: int = 0

    _lazy = ("lhs", "rhs", "written")

    def _canonical_texts(self) -> tuple[str, ...]:
        return (self.lhs_src, self.rhs_src)

    @property
    def equation(self) -> sympy.Eq:
        return sympy.Eq(self.lhs, self.rhs, evaluate=False)


@dataclass(frozen=True)
class Condition(_WrittenOrder, _LazyExpressions):
    """A named inequality such as ``ffn_weight_bytes <= vmem_capacity``."""

    id: str
    comparison_src: tuple[str, str, str]   # lhs, op, rhs
    text: str
    symbols: tuple[str, ...]
    name: Text
    meaning: Text
    source: Source
    file: str = ""
    line: int = 0

    _lazy = ("comparison", "written")

    def _canonical_texts(self) -> tuple[str, ...]:
        return (self.comparison_src[0], self.comparison_src[2])

    @cached_property
    def comparison(self) -> Comparison:
        left, op, right = self.comparison_src
        return Comparison(parse_canonical(left), op, parse_canonical(right))


@dataclass(frozen=True)
class PresetValue:
    """One constant of a preset (or a quantity's default), with where it comes from."""

    quantity: str
    value: sympy.Rational | None   # in base units; None when it follows another quantity (same_as)
    text: str                 # as written, e.g. "3.35 TB/s"
    source: Source
    note: str = ""            # how the source counts it, in English
    same_as: str | None = None     # the quantity (or arithmetic of quantities) whose value this takes:
    #                                peak_flops_int8 in a precision preset, d_model / num_heads for head_dim
    note_zh: str = ""         # the note in Chinese (``note: {en, zh}`` in the catalog), or empty


@dataclass(frozen=True)
class Preset:
    """A named set of constants: a chip (``hw``), a model (``model``) or a setup (``setup``)."""

    id: str
    kind: str
    name: Text
    source: Source
    values: Mapping[str, PresetValue]
    note: str = ""
    extends: str = ""
    file: str = ""
    line: int = 0
    hw: str = ""          # a setup preset's chip (a TPU slice's tpu-v5e), taken when a question names none


class CatalogMemo:
    """Memo tables that depend on one catalog's content, owned by that catalog.

    Two catalogs in one process (the built-in one and one with a user's formula file) never
    see each other's entries: a relation id may mean different equations in each. Nothing
    here is written to the disk cache; each table is filled on first use.
    """

    ANSWERS = 512   # solved questions kept (least recently used dropped first)
    PLANS = 2048    # plans kept, by the question's shape (which quantities are known)
    VALUES = 4096   # typed values kept parsed ("2 TB/s" for hbm_bw), the oldest dropped first
    PREMISE_READINGS = 256   # sets of values of the premises' inputs kept with the relations they leave out
    TEMPLATES = 512   # question shapes kept with the solution a new question of the shape replays (or None)

    def __init__(self) -> None:
        from collections import OrderedDict

        self.inverses: dict[tuple, tuple[sympy.Expr, ...]] = {}   # (relation, regime, symbol) -> solutions
        self.blocks: dict[tuple, tuple[tuple[sympy.Expr, ...], ...]] = {}  # (relations, unknowns) -> solutions
        self.bounds: dict[tuple, tuple[sympy.Expr, ...]] = {}      # (form, expression, target) -> roots
        self.sign_parts: dict[tuple, sympy.Expr] = {}             # (expression, target) -> sign-equivalent part
        self.answers: "OrderedDict[tuple, Any]" = OrderedDict()   # question -> Solution
        self.natural_inputs: frozenset[str] | None = None
        self.plans: "OrderedDict[tuple, Any]" = OrderedDict()     # (targets, knowns) -> Plan
        self.symbols: dict[str, sympy.Symbol] = {}                # quantity id -> its SymPy symbol
        self.inline_conditions: dict[str, "Condition"] = {}   # --require 'a >= b' typed by a user
        self.given_checks: dict[tuple, tuple[str, ...]] = {}      # (typed, known) -> relations they over-determine
        self.plan_params: dict[tuple, frozenset[str]] = {}        # (targets, known) -> inputs taken as symbols
        self.relation_symbols: dict[str, frozenset[str]] | None = None   # relation id -> its quantities
        self.values: "OrderedDict[tuple[str, str], sympy.Rational]" = OrderedDict()  # (quantity, text) -> value
        self.follows: dict[str, tuple[sympy.Expr, tuple[str, ...]]] = {}   # same_as text -> (expression, ids)
        self.preset_knowns: dict[tuple, tuple] = {}   # (hw, model, presets) -> (presets, values, same_as values)
        self.needed_inputs: dict[tuple, frozenset[str]] = {}   # question shape -> missing inputs the answer needs
        self.optima: dict[tuple, list[sympy.Expr]] = {}   # (equation, unknown) -> closed-form roots, for optima
        self.premised: tuple["Relation", ...] | None = None   # relations with holds_when, by id
        self.premise_inputs: tuple[str, ...] | None = None    # the inputs their premises read
        self.premise_exclusions: "OrderedDict[tuple, Any]" = OrderedDict()   # their values -> relations left out
        self.templates: "OrderedDict[tuple, Any]" = OrderedDict()   # question shape -> Template, or None

    def remember_value(self, key: tuple[str, str], value: sympy.Rational) -> None:
        self.values[key] = value
        if len(self.values) > self.VALUES:
            self.values.popitem(last=False)

    def remember_template(self, shape: tuple, template: Any) -> None:
        self.templates[shape] = template
        if len(self.templates) > self.TEMPLATES:
            self.templates.popitem(last=False)

    def remember_answer(self, key: tuple, solution: Any) -> None:
        self.answers[key] = solution
        if len(self.answers) > self.ANSWERS:
            self.answers.popitem(last=False)


Entry = TypeVar("Entry")


class LazyTable(MutableMapping[str, Entry], Generic[Entry]):
    """A catalog table read back from the cache: each entry is decoded from its own JSON text the
    first time a question uses it, so loading a catalog costs what the question reads, not the
    catalog's size. Iterating over values decodes every entry (``derive list`` does)."""

    __slots__ = ("_raw", "_done", "_decode")

    def __init__(self, raw: dict[str, bytes | None], decode: Callable[[str, bytes], Entry]) -> None:
        self._raw = raw                      # id -> the entry's JSON, UTF-8 (None once set in memory)
        self._done: dict[str, Entry] = {}
        self._decode = decode                # (id, text) -> the entry

    def __getitem__(self, key: str) -> Entry:
        hit = self._done.get(key)
        if hit is None:
            text = self._raw[key]
            if text is None:
                raise KeyError(key)
            hit = self._done[key] = self._decode(key, text)
        return hit

    def get(self, key: str, default: Any = None) -> Any:
        hit = self._done.get(key)
        if hit is not None:
            return hit
        return self[key] if key in self._raw else default

    def __setitem__(self, key: str, value: Entry) -> None:
        self._raw.setdefault(key, None)
        self._done[key] = value

    def __delitem__(self, key: str) -> None:
        del self._raw[key]
        self._done.pop(key, None)

    def __contains__(self, key: object) -> bool:
        return key in self._raw

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


@dataclass(eq=False)
class Catalog:
    """Every quantity, relation, condition, preset and reference, indexed by id.

    ``units`` is the unit table of the catalog's ``units.txt``; ``memo`` holds what is
    computed from this catalog's content (solved relations, answers), and dies with it.
    """

    quantities: MutableMapping[str, Quantity] = field(default_factory=dict)
    relations: MutableMapping[str, Relation] = field(default_factory=dict)
    conditions: MutableMapping[str, Condition] = field(default_factory=dict)
    presets: MutableMapping[str, Preset] = field(default_factory=dict)
    references: MutableMapping[str, Reference] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    retired: dict[str, str] = field(default_factory=dict)   # old name -> what to type instead
    files: tuple[str, ...] = ()
    unit_table: "UnitTable | None" = field(default=None, repr=False)
    _by_symbol: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False)
    premised: tuple[str, ...] = ()        # the relations with premises (holds_when), by id: found at index()
    defined: tuple[str, ...] = ()         # the quantities some relation defines (alone on its left): at index()
    overrides: dict[str, Override] = field(default_factory=dict)     # "kind:id" -> what replaced it
    memo: CatalogMemo = field(default_factory=CatalogMemo, repr=False)

    TABLES = ("quantities", "relations", "conditions", "presets", "references")

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("memo", None)
        state.pop("unit_table", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.memo = CatalogMemo()
        self.unit_table = None

    @property
    def units(self) -> "UnitTable":
        """The unit table of this catalog's ``units.txt`` (set by the loader)."""
        if self.unit_table is None:
            raise RuntimeError("this catalog has no unit table; build catalogs with load_catalog()")
        return self.unit_table

    def index(self) -> None:
        """Build the symbol → relations index, the list of relations with premises and the quantities
        relations define (called once after loading; they travel with the cached catalog, so a question
        never reads every relation)."""
        by: dict[str, list[str]] = {}
        for rel in self.relations.values():
            for s in rel.symbols:
                by.setdefault(s, []).append(rel.id)
        self._by_symbol = {k: tuple(v) for k, v in by.items()}
        self.memo.relation_symbols = None
        self.premised = tuple(sorted(rel.id for rel in self.relations.values() if rel.holds_when))
        self.defined = tuple(sorted({rel.defines for rel in self.relations.values() if rel.defines}))

    def overrides_in(self, *, quantities: Iterable[str] = (), relations: Iterable[str] = (),
                     conditions: Iterable[str] = (), presets: Iterable[str] = ()) -> tuple[Override, ...]:
        """The overridden built-ins among these ids (in the order kind, id)."""
        if not self.overrides:
            return ()
        wanted = {f"{kind}:{i}" for kind, ids in (("quantity", quantities), ("relation", relations),
                                                 ("condition", conditions), ("preset", presets)) for i in ids}
        return tuple(self.overrides[k] for k in sorted(wanted & self.overrides.keys()))

    def with_symbols(self, symbols: Mapping[str, str]) -> Catalog:
        """This catalog with some quantities written with other LaTeX symbols (a problem file's own
        notation, ``{seq_len: N}``), for writing up: the entries are the same, the memo its own (sharing
        the conditions questions typed inline)."""
        if not symbols:
            return self
        quantities = dict(self.quantities)
        for qid, latex in symbols.items():
            quantities[qid] = replace(quantities[qid], latex=latex)
        renamed = replace(self, quantities=quantities, memo=CatalogMemo())
        renamed.memo.inline_conditions = self.memo.inline_conditions
        return renamed

    def symbol(self, name: str) -> sympy.Symbol:
        """The SymPy symbol of a quantity id (positive), made once per catalog."""
        sym = self.memo.symbols.get(name)
        if sym is None:
            sym = self.memo.symbols[name] = sympy.Symbol(name, positive=True)
        return sym

    def relations_with(self, quantity_id: str) -> tuple[str, ...]:
        return self._by_symbol.get(quantity_id, ())

    def symbols_of(self, relation_id: str) -> frozenset[str]:
        """The quantities relation ``relation_id`` relates, read from the symbol index: the planner walks
        the catalog with it and decodes only the relations it considers."""
        table = self.memo.relation_symbols
        if table is None:
            by: dict[str, set[str]] = {}
            for name, rids in self._by_symbol.items():
                for rid in rids:
                    by.setdefault(rid, set()).add(name)
            table = self.memo.relation_symbols = {rid: frozenset(names) for rid, names in by.items()}
        return table.get(relation_id, frozenset())

    # -- look-ups that explain themselves -----------------------------------
    def _suggest(self, name: str, pool: list[str]) -> list[str]:
        return difflib.get_close_matches(name, pool, n=3, cutoff=0.6)

    def quantity(self, name: str) -> Quantity:
        key = self.aliases.get(name, name)
        q = self.quantities.get(key)
        if q is None:
            if name in self.retired:
                raise UnknownNameError(name, "quantity", hint=self.retired[name])
            raise UnknownNameError(name, "quantity",
                                   self._suggest(name, list(self.quantities) + list(self.aliases)))
        return q

    def condition(self, name: str) -> Condition:
        """A named condition, or an inequality a question wrote inline (``Question.resolve`` reads those)."""
        c = self.conditions.get(name) or self.memo.inline_conditions.get(name)
        if c is None:
            raise UnknownNameError(name, "condition", self._suggest(name, list(self.conditions)))
        return c

    def relation(self, name: str) -> Relation:
        r = self.relations.get(name)
        if r is None:
            raise UnknownNameError(name, "relation", self._suggest(name, list(self.relations)))
        return r

    def preset(self, name: str, kind: str | None = None) -> Preset:
        p = self.presets.get(name)
        if p is None or (kind is not None and p.kind != kind):
            pool = [k for k, v in self.presets.items() if kind is None or v.kind == kind]
            labels = {"hw": "hardware preset", "model": "model preset", "setup": "setup preset"}
            label = labels.get(kind or "", "preset")
            flag = {"hw": "--hw", "model": "--model", "setup": "--preset"}
            hint = f"{name!r} is a {p.kind} preset: give it with {flag[p.kind]} {name}" if p is not None else ""
            raise UnknownNameError(name, label, self._suggest(name, pool), hint=hint)
        return p

    def entry(self, name: str) -> list[Quantity | Relation | Condition | Preset | Reference]:
        """Everything named ``name`` (a quantity and its defining relation may share an id)."""
        found: list[Quantity | Relation | Condition | Preset | Reference] = []
        key = self.aliases.get(name, name)
        for table in (self.quantities, self.relations, self.conditions, self.presets, self.references):
            if key in table:
                found.append(table[key])
        if not found:
            if name in self.retired:
                raise UnknownNameError(name, "name", hint=self.retired[name])
            pool = (list(self.quantities) + list(self.relations) + list(self.conditions)
                    + list(self.presets) + list(self.aliases))
            raise UnknownNameError(name, "name", self._suggest(name, pool))
        return found

    def symbol_map(self) -> dict[sympy.Symbol, Quantity]:
        return {q.symbol: q for q in self.quantities.values()}

    def __iter__(self) -> Iterator[object]:
        yield from self.quantities.values()
        yield from self.relations.values()
        yield from self.conditions.values()
        yield from self.presets.values()
