"""The loaded catalog: its tables of entries by id, name lookup with suggestions, and the memo it owns.

:mod:`derive.catalog.loader` builds one from the YAML files; every question is answered against
one. A catalog's memo tables (:class:`CatalogMemo`) live and die with it.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Generic, Iterable, Iterator, Mapping, MutableMapping, TypeVar

import sympy

from ..errors import InputError, QuestionError, UnknownNameError
from ..symbolic.asymptotic import parse_assumption
from .entries import Condition, Preset, Quantity, Reference, Relation
from .overrides import Override
from .question import Question, is_inequality

if TYPE_CHECKING:
    from ..symbolic.units import UnitTable

__all__ = ["Catalog", "CatalogMemo", "LazyTable"]


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
    EXTENDED = 8     # catalogs made with more presets (models read from config files), the oldest dropped first

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
        self.extended: dict[tuple, Catalog] = {}   # presets added -> the catalog with them (with_presets)
        self.premised: tuple["Relation", ...] | None = None   # relations with holds_when, by id
        self.premise_inputs: tuple[str, ...] | None = None    # the inputs their premises read
        self.premise_exclusions: "OrderedDict[tuple, Any]" = OrderedDict()   # their values -> relations left out
        self.templates: "OrderedDict[tuple, Any]" = OrderedDict()   # question shape -> Template, or None
        self.defined_from: dict[str, frozenset[str]] = {}   # quantity -> the quantities relations count it from

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

    def with_presets(self, presets: Iterable[Preset]) -> Catalog:
        """This catalog with more presets (a model read from its ``config.json``): the same entries and
        these, under their own ids, which no preset of this catalog may have; the memo its own. The
        catalog made for the same presets is kept and given again (its memo with it)."""
        added = tuple(presets)
        if not added:
            return self
        key = tuple((p.id, p.kind, tuple(sorted(p.values.items()))) for p in added)
        made = self.memo.extended.get(key)
        if made is not None:
            return made
        table = dict(self.presets)
        for p in added:
            if p.id in table:
                raise InputError(f"a {p.kind} preset named {p.id!r} is already in the catalog; rename the file "
                                 f"(its name is the preset's id)", name="model_config")
            table[p.id] = p
        made = replace(self, presets=table, memo=CatalogMemo())
        made.memo.inline_conditions = self.memo.inline_conditions
        if len(self.memo.extended) >= CatalogMemo.EXTENDED:
            self.memo.extended.pop(next(iter(self.memo.extended)))
        self.memo.extended[key] = made
        return made

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

    def _one_chip_and_model(self, q: Question) -> None:
        """Refuse a question that names two chips or two models (``--hw a100 --preset h100``): one would
        silently replace the other's values. A setup's chip (a slice's) is a default ``--hw`` replaces."""
        for kind, named in (("hw", q.hw), ("model", q.model)):
            sources: dict[str, str] = {}
            if named:
                sources[self.preset(named, kind).id] = f"--{kind} {named}"
            for p in q.presets:
                preset = self.presets[self.preset(p).id]
                # a setup's own chip (a slice's) is a default that --hw replaces, as the README says
                if preset.kind == kind and preset.id not in sources:
                    sources[preset.id] = f"--preset {p}"
            if len(sources) > 1:
                what = "chips" if kind == "hw" else "models"
                raise QuestionError(f"{' and '.join(sources.values())} name two {what} "
                                    f"({', '.join(sources)}); name one", name=kind)

    def resolve(self, question: Question) -> Question:
        """``question`` with every name checked against this catalog and aliases replaced by ids.

        Raises :class:`~derive.UnknownNameError` for a name the catalog does not have.
        """
        q = question
        target = self.quantity(q.target).id
        if q.hw:
            self.preset(q.hw, "hw")
        if q.model:
            self.preset(q.model, "model")
        for p in q.presets:
            self.preset(p)
        self._one_chip_and_model(q)
        # a slice preset brings its chip when the question names none (v5e-16x16: tpu-v5e)
        hw = q.hw or next((self.presets[p].hw for p in q.presets if self.presets[p].hw), None)
        for c in q.require:
            if not is_inequality(c):        # an inline inequality is read by the engine (schema.condition_of)
                self.condition(c)
        if q.unit is not None:
            dims = self.units.parse(q.unit)[1]
            want = self.quantities[target].dims
            if dims != want:
                raise QuestionError(f"`unit` {q.unit} is {dims.unit_string()}, but {target} is in "
                                    f"{want.unit_string()}: name a unit of {want.unit_string()}", name="unit")
        assume = []
        for text in q.assume:
            a = parse_assumption(text)
            small = [self.quantity(n).id for n in a.small]
            large = [self.quantity(n).id for n in a.large]
            assume.append(f"{', '.join(small)} << {', '.join(large)}")
        given = [(self.quantity(name).id, value) for name, value in q.given]
        ids = [n for n, _ in given]
        twice = sorted({n for n in ids if ids.count(n) > 1})
        if twice:
            raise QuestionError(f"`given` names {', '.join(twice)} twice (also as an alias); give each once",
                                name="given")
        objective = None
        if q.objective is not None:
            objective = self.quantity(q.objective).id
            if objective == target:
                raise QuestionError(f"`{'minimize' if q.optimize == 'min' else 'maximize'}` names the quantity "
                                    f"to optimise by choosing {target}: another quantity than {target}",
                                    name="minimize" if q.optimize == "min" else "maximize")
        shared = tuple(self.quantity(n).id for n in q.shared)
        return replace(q, target=target, hw=hw, given=tuple(given), assume=tuple(assume), objective=objective,
                       shared=shared)

    def __iter__(self) -> Iterator[object]:
        yield from self.quantities.values()
        yield from self.relations.values()
        yield from self.conditions.values()
        yield from self.presets.values()
