"""The steps of a derivation: gather the knowns, plan, solve each relation, record, check.

This is the forward machinery shared by ``solve()`` (``engine/solver.py``) and the bounds
(``engine/bounds.py``):

1. :func:`gather` collects the knowns: the user's values override preset values
   (``hw``, ``model``, ``presets``); catalog defaults only fill inputs that are still
   missing, and are reported as assumptions;
2. :func:`derive` plans a chain of relations from the knowns to the targets
   (``engine/plan.py``); if the knowns do not reach a target, the missing natural inputs
   are taken as symbols: if the target's formula does not depend on them they
   cancel (and the answer says so), otherwise they are reported as missing;
3. each step is solved symbolically (once per catalog: ``Catalog.memo``), keeping
   the real positive branch and, for relations with ``max``/``min``, the regime
   that holds, and exact values are substituted;
4. :func:`check_relations` substitutes the answer back into every relation used;
   a failed check raises :class:`VerificationError`, it is never printed.
"""

from __future__ import annotations

from collections import abc
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable, Mapping, Sequence

import sympy

from ..catalog.follow import followed, followed_value
from ..catalog.values import check_range, exact_real, parse_value
from ..errors import (
    ContradictoryInputsError,
    InputError,
    MissingInputsError,
    NoSolutionError,
    NotInvertibleError,
    TimeBudgetError,
    VerificationError,
)
from ..records.catalog import Catalog, CatalogMemo
from ..records.entries import Preset, Quantity, Relation
from ..records.solution import Check, Given, Note, Step
from ..symbolic.budget import time_budget
from ..symbolic.exact import PRECISION, close, holds, relative, sign, value_at
from ..symbolic.units import format_value
from .blocks import solve_block
from .plan import Plan, PlanStep, can_solve_for, input_like, plan
from .premises import Reading, excluded, left_out_hint

__all__ = ["State", "check_given_only", "check_redundant", "check_relations", "coerce_given", "default_value",
           "derive", "gather", "preset_hint", "solve_block", "solve_relation_for"]




def solve_relation_for(rel: Relation, name: str, regime: str | None = None,
                       memo: CatalogMemo | None = None) -> tuple[sympy.Expr, ...]:
    """All solutions of ``rel`` (or one of its regimes) for ``name``, in the relation's own symbols.

    With ``memo`` (the memo of the catalog ``rel`` belongs to), solved once and reused.
    """
    key = (rel.id, regime, name)
    hit = memo.inverses.get(key) if memo is not None else None
    if hit is not None:
        return hit
    if regime is None:
        lhs, rhs = rel.lhs, rel.rhs
    else:
        reg = next(r for r in rel.regimes if r.id == regime)
        lhs, rhs = reg.lhs, reg.rhs
    sym = sympy.Symbol(name, positive=True)
    if lhs == sym and not rhs.has(sym):
        sols: tuple[sympy.Expr, ...] = (rhs,)
    elif rhs == sym and not lhs.has(sym):
        sols = (lhs,)
    else:
        try:
            with time_budget(f"solving {rel.id} for {name}"):
                raw = sympy.solve(sympy.Eq(lhs, rhs), sym, dict=False)
                sols = tuple(s for s in raw if not isinstance(s, (sympy.Piecewise,)) and s.is_positive is not False
                             and not s.has(sympy.I))
        except (NotImplementedError, ValueError, TypeError) as exc:
            raise NotInvertibleError(rel.id, name, f"SymPy cannot isolate it ({exc})") from exc
        except TimeBudgetError as exc:
            raise NotInvertibleError(rel.id, name, f"SymPy found no closed form within {exc.seconds:g} s") from exc
        if not sols:
            raise NotInvertibleError(rel.id, name, "no positive real closed form")
    if memo is not None:
        memo.inverses[key] = sols
    return sols


# ---------------------------------------------------------------------------
# knowns


@dataclass
class State:
    """Everything known during one solve: values, formulas and where each came from."""

    catalog: Catalog
    given: dict[str, Given] = field(default_factory=dict)      # inputs (user, preset, default)
    values: dict[str, sympy.Expr] = field(default_factory=dict)  # exact numeric values, base units
    formulas: dict[str, sympy.Expr] = field(default_factory=dict)  # in terms of input symbols
    origins: dict[str, frozenset[str]] = field(default_factory=dict)  # {"given","preset","default"}
    params: set[str] = field(default_factory=set)             # inputs taken as free symbols
    notes: list[Note] = field(default_factory=list)
    unresolved: dict[str, tuple[str, str]] = field(default_factory=dict)   # preset same_as with no value
    # setup presets whose values later setup presets replaced: earlier preset -> {name: later preset}
    replaced: dict[str, dict[str, str]] = field(default_factory=dict)
    preset_target: Given | None = None     # the target's own preset value, when a preset gives one
    steps: list[Step] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    used: list[str] = field(default_factory=list)
    regime: str | None = None
    # relations left out of this question, each with the premise (holds_when) its values do not show
    excluded: Mapping[str, Reading] = field(default_factory=dict)   # relations whose premises fail (shared: read only)
    # (relation id, quantity) pairs not to solve: a count they give as a fraction, or from a nominal figure
    avoided: frozenset[tuple[str, str]] = frozenset()

    def known(self) -> set[str]:
        return set(self.values) | self.params | set(self.formulas)

    def sym(self, name: str) -> sympy.Symbol:
        return self.catalog.symbol(name)

    def numeric_map(self) -> "SymbolMap":
        """The exact values, keyed by symbol (a live read-only view: nothing is copied)."""
        return SymbolMap(self.catalog, self.values)

    def formula_map(self) -> "SymbolMap":
        """The formulas in terms of the inputs, keyed by symbol (a live read-only view)."""
        return SymbolMap(self.catalog, self.formulas)


class SymbolMap(abc.Mapping):
    """A name-keyed table seen through SymPy symbols, for ``xreplace`` and :func:`value_at`."""

    __slots__ = ("_catalog", "_by_name")

    def __init__(self, catalog: Catalog, by_name: Mapping[str, sympy.Expr]) -> None:
        self._catalog = catalog
        self._by_name = by_name

    def __getitem__(self, key: sympy.Basic) -> sympy.Expr:
        if not isinstance(key, sympy.Symbol):
            raise KeyError(key)
        return self._by_name[key.name]

    def __contains__(self, key: object) -> bool:
        return isinstance(key, sympy.Symbol) and key.name in self._by_name

    def __iter__(self):
        return (self._catalog.symbol(n) for n in self._by_name)

    def __len__(self) -> int:
        return len(self._by_name)


def _exact_text(value: sympy.Expr) -> str:
    """How an exact number given as an input is shown: as SymPy writes it (4*sqrt(15)/5), or, when that
    is long (a power of a long fraction), its value to 15 significant digits."""
    if value.count_ops() <= 12:
        try:
            text = str(value)
        except ValueError:              # an integer too long for Python to print
            text = ""
        if 0 < len(text) <= 60:
            return text
    return str(value.evalf(15))


def coerce_given(catalog: Catalog, q: Quantity, raw: Any) -> tuple[sympy.Rational, str]:
    if isinstance(raw, str):
        key = (q.id, raw)
        value = catalog.memo.values.get(key)
        if value is None:                  # a value typed again (the same hbm_bw) is parsed once
            value = parse_value(raw, q, catalog.units)
            catalog.memo.remember_value(key, value)
        return value, raw.strip()
    if isinstance(raw, bool):
        raise InputError(f"{q.id} must be a number, not {raw!r}", name=q.id)
    if isinstance(raw, int):
        value = sympy.Integer(raw) * q.factor
    elif isinstance(raw, Fraction):
        value = sympy.Rational(raw.numerator, raw.denominator) * q.factor
    elif isinstance(raw, float):
        if raw != raw or raw in (float("inf"), float("-inf")):
            raise InputError(f"{q.id} must be a finite number, got {raw!r}", name=q.id)
        value = sympy.Rational(repr(raw)) * q.factor
    elif isinstance(raw, sympy.Basic) and raw.is_Rational:
        value = raw * q.factor
    elif isinstance(raw, sympy.Expr) and raw.is_number and not raw.free_symbols:
        # an exact value solve() returned (2·√3, a sum with a power) is taken back as it is
        value = exact_real(raw, q.id) * q.factor
        text = _exact_text(raw)
        check_range(value, q, text)
        return value, text
    else:
        raise InputError(f"{q.id} must be a number or text such as '3.35 TB/s', not {type(raw).__name__}",
                         name=q.id)
    check_range(value, q, str(raw))
    return value, str(raw)


def gather(catalog: Catalog, given: Mapping[str, Any] | None, hw: str | None, model: str | None,
            presets: Sequence[str], target: str, derived_instead: Mapping[str, str] | None = None,
            avoided: Iterable[tuple[str, str]] = ()) -> State:
    """The knowns of a question: the user's values, the chosen presets' values (the user's win) and
    the values presets take from other quantities. ``derived_instead`` names preset values a typed
    value decides instead (name -> the preset's origin): they are left out, to be derived. ``avoided``
    are (relation id, quantity) pairs the derivation must not solve (:attr:`State.avoided`)."""
    state = State(catalog, avoided=frozenset(avoided))
    chosen, preset_given, preset_following, preset_replaced = _preset_knowns(catalog, hw, model, tuple(presets))
    state.given.update(preset_given)
    following = dict(preset_following)     # preset values that take another quantity's value
    state.replaced = {earlier: dict(names) for earlier, names in preset_replaced.items()}
    for raw_name, raw in (given or {}).items():
        q = catalog.quantity(str(raw_name))
        value, text = coerce_given(catalog, q, raw)
        if q.id in state.given and state.given[q.id].origin == "given":
            raise InputError(f"{q.id} is given twice (also as an alias); give it once", name=q.id)
        state.given[q.id] = Given(q.id, value, q.dims, text, "given")
        following.pop(q.id, None)
    def known_or_default(name: str) -> sympy.Expr | None:
        found = state.given.get(name)
        return found.value if found is not None else default_value(catalog, name)

    for name, (other, origin) in following.items():
        # a precision preset computes at peak_flops_int8: the value the chip's preset (or the user) gives it
        value = followed_value(catalog, other, known_or_default)
        if value is None:
            # reported only if the answer needs it (a precision preset's peak when no chip is chosen)
            lacking = [n for n in followed(catalog, other)[1] if known_or_default(n) is None]
            state.unresolved[name] = (lacking[0] if lacking else other, origin.partition(":")[2])
            continue
        pv = next(p for p in chosen if f"{p.kind}:{p.id}" == origin).values[name]
        q = catalog.quantities[name]
        found = state.given.get(other)
        text = found.text if found is not None else f"= {other}"
        state.given[name] = Given(name, value, q.dims, text, origin, pv.source, pv.note, pv.note_zh,
                                  follows=followed(catalog, other)[0])
    for name in derived_instead or ():
        if name in state.given and state.given[name].origin != "given":
            del state.given[name]
    if target in state.given:
        origin = state.given[target].origin
        if origin == "given":
            raise InputError(f"{target} is the quantity asked for; do not also give it as an input", name=target)
        # asking for a preset's own constant derives it instead (a check of the preset), or, where no
        # relation can, answers with the constant itself
        state.preset_target = state.given.pop(target)
    state.excluded = excluded(catalog, state.given)
    for name, g in state.given.items():
        state.values[name] = g.value
        state.formulas[name] = catalog.symbol(name)
        state.origins[name] = _GIVEN if g.origin == "given" else _PRESET
    return state


_GIVEN, _PRESET = frozenset({"given"}), frozenset({"preset"})


def _preset_knowns(catalog: Catalog, hw: str | None, model: str | None, presets: tuple[str, ...]
                   ) -> tuple[tuple[Preset, ...], dict[str, Given], dict[str, tuple[str, str]],
                              dict[str, dict[str, str]]]:
    """The presets chosen, the values they give, the values they take from another quantity
    (``same_as``: name -> (expression, origin)), later presets overriding earlier ones, and the setup
    presets whose values a later setup replaced (earlier preset -> {name: later preset}); found once
    per choice of presets (the catalog's memo)."""
    key = (hw, model, presets)
    hit = catalog.memo.preset_knowns.get(key)
    if hit is not None:
        return hit
    chosen = []
    if hw:
        chosen.append(catalog.preset(hw, "hw"))
    if model:
        chosen.append(catalog.preset(model, "model"))
    for p in presets:
        chosen.append(catalog.preset(p))
    given: dict[str, Given] = {}
    following: dict[str, tuple[str, str]] = {}
    replaced: dict[str, dict[str, str]] = {}
    for preset in chosen:
        for name, pv in preset.values.items():
            q = catalog.quantities[name]
            origin = f"{preset.kind}:{preset.id}"
            if pv.same_as is not None:
                following[name] = (pv.same_as, origin)
                given.pop(name, None)
                continue
            following.pop(name, None)
            earlier = given.get(name)
            if earlier is not None and earlier.origin.startswith("setup:") and preset.kind == "setup" \
                    and earlier.value != pv.value:
                # of two setups the later wins (bf16 after kv-int8: a 2 B KV cache); the answer may say so
                replaced.setdefault(earlier.origin.partition(":")[2], {})[name] = preset.id
            given[name] = Given(name, pv.value, q.dims, pv.text, origin, pv.source, pv.note, pv.note_zh)
    hit = catalog.memo.preset_knowns[key] = (tuple(chosen), given, following, replaced)
    return hit


# ---------------------------------------------------------------------------
# steps


def _pick_branch(state: State, name: str, candidates: list[tuple[sympy.Expr, sympy.Expr | None, str | None]],
                 rel_label: str) -> tuple[sympy.Expr, sympy.Expr | None, str | None]:
    """Keep real positive candidates (formula, value, regime); note when several remain. A quantity
    declared ``min: 0`` (a bubble with one stage, traffic with one node) may also be zero."""
    kept = []
    q = state.catalog.quantities.get(name)
    zero_allowed = q is not None and q.minimum is not None and q.minimum == 0
    for formula, value, regime in candidates:
        if value is not None:
            if value.is_Rational:                 # the common case: its sign is its numerator's
                s = (value.p > 0) - (value.p < 0)
            elif value.has(sympy.I) or not value.is_real and value.evalf(30).as_real_imag()[1] != 0:
                continue
            else:
                s = sign(value)
            if s < 0 or (s == 0 and not zero_allowed):
                continue
        elif formula.is_positive is False:
            continue
        kept.append((formula, value, regime))
    if not kept:
        values = [v for _, v, _ in candidates if v is not None]
        if values and all(v == 0 for v in values):
            # a collective over one device, an empty cache: the relation gives 0, which this quantity is not
            raise NoSolutionError(f"{name} is 0 with these inputs ({rel_label}), but {name} must be positive; "
                                  "check the inputs", quantity=name, relations=rel_label.split(" and "))
        shown = ", ".join(f"{v.evalf(6)}" for v in values)
        raise NoSolutionError(f"no real {'non-negative' if zero_allowed else 'positive'} value of {name} "
                              f"satisfies {rel_label}"
                              + (f" (solutions: {shown})" if shown else "")
                              + "; check the inputs", quantity=name, relations=rel_label.split(" and "))
    # identical values (at a regime boundary, both regimes agree) count once
    distinct: list[tuple[sympy.Expr, sympy.Expr | None, str | None]] = []
    for item in kept:
        if not any(item[1] is not None and other[1] is not None and close(item[1], other[1])
                   for other in distinct):
            distinct.append(item)
    if len(distinct) > 1:
        distinct.sort(key=lambda it: float(it[1].evalf(30)) if it[1] is not None else 0.0)
        shown = ", ".join(str(it[1].evalf(6)) if it[1] is not None else str(it[0]) for it in distinct)
        state.notes.append(Note.of("several_solutions", name=name, values=shown))
    return distinct[0]


def _in_domain(value: sympy.Expr, q: Quantity) -> bool:
    """Whether an exact real value is in the quantity's range: positive, or at least its ``min:``."""
    if not value.is_number or value.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
        return False
    try:
        s = sign(value if q.minimum is None else value - q.minimum)
    except NoSolutionError:                # not a real number
        return False
    return s > 0 or (s == 0 and q.minimum is not None)


def _solve_step(state: State, step: PlanStep) -> None:
    fmap = state.formula_map()
    nmap = state.numeric_map()
    rels = step.relations
    if step.is_block:
        sols = solve_block(rels, step.unknowns, state.catalog.memo)
        options = []
        for sol in sols:
            vals = {}
            ok = True
            for u in step.unknowns:
                expr = sol[u]
                numeric = value_at(expr, nmap)
                if numeric is not None and sign(numeric) <= 0:
                    ok = False
                vals[u] = (expr, numeric)
            if ok:
                options.append(vals)
        if not options:
            raise NoSolutionError(f"no real positive solution of {' and '.join(r.id for r in rels)} "
                                  f"for {', '.join(step.unknowns)}; check the inputs",
                                  quantity=", ".join(step.unknowns), relations=[r.id for r in rels])
        if len(options) > 1:
            state.notes.append(Note.of("several_solutions", name=", ".join(step.unknowns),
                                       values=f"{len(options)} solutions"))
        chosen = options[0]
        solved = []
        values = []
        for u in step.unknowns:
            expr, numeric = chosen[u]
            _record(state, u, expr, numeric, fmap, rels)
            solved.append(sympy.Eq(state.sym(u), expr, evaluate=False))
            values.append(state.values.get(u, numeric))      # a number also where missing inputs cancel
        state.steps.append(Step("system", tuple(r.id for r in rels), step.unknowns,
                                tuple(r.equation for r in rels), tuple(solved),
                                _inputs_of(rels, step.unknowns), tuple(values),
                                tuple(state.catalog.quantities[u].dims for u in step.unknowns), inverse=True))
        state.used.extend(r.id for r in rels)
        return

    rel = rels[0]
    u = step.unknowns[0]
    candidates: list[tuple[sympy.Expr, sympy.Expr | None, str | None]] = []
    if rel.regimes:
        # a candidate from a regime's equation is valid when the whole relation (with its
        # max/min) holds there; the regime that produced it is the one that applies
        undetermined_in = []
        unchecked = False
        sym_u = state.sym(u)
        for reg in rel.regimes:
            if not (reg.lhs.has(sym_u) or reg.rhs.has(sym_u)):
                undetermined_in.append(reg)
                continue
            for expr in solve_relation_for(rel, u, reg.id, state.catalog.memo):
                numeric = value_at(expr, nmap)
                if numeric is None:
                    candidates.append((expr, None, reg.id))
                    continue
                if not _in_domain(numeric, state.catalog.quantities[u]):
                    continue               # a root outside the quantity's range (Z = 0 of Z² = ...) is no candidate
                env = dict(nmap)
                env[sym_u] = numeric
                whole_l, whole_r = value_at(rel.lhs, env), value_at(rel.rhs, env)
                if whole_l is None or whole_r is None:
                    unchecked = True       # the relation cannot be evaluated: an input is missing
                elif close(whole_l, whole_r):
                    candidates.append((expr, numeric, reg.id))
        # a regime without u whose equation the knowns satisfy leaves u free within that regime
        # (roofline_time = memory_time: any compute_time up to it fits), even when another
        # regime offers a value (its boundary): u is not determined
        for reg in undetermined_in:
            el, er = value_at(reg.lhs, nmap), value_at(reg.rhs, nmap)
            if el is not None and er is not None and close(el, er):
                raise NoSolutionError(
                    f"{u} is not determined by {rel.id}: in the {reg.id} regime ({reg.equation_text}) "
                    f"it drops out, so every {u} with {reg.when_text} fits; give {u} or another input",
                    quantity=u, relations=[rel.id])
        missing = sorted(state.params & {s for s in rel.symbols})
        if not candidates and unchecked and missing:
            # max(my_a_time, my_b_time) = 2 ms without my_b_time: which regime holds is not known, not impossible
            raise MissingInputsError(u, missing, f"the regime of {rel.id} depends on their values")
        if not candidates:
            raise NoSolutionError(f"relation {rel.id} ({rel.equation_text}) cannot hold for any positive {u} "
                                  "with these inputs; check them", quantity=u, relations=[rel.id])
        if all(c[1] is None for c in candidates):
            if rel.defines == u:
                candidates = [(rel.rhs, None, None)]
            else:
                raise MissingInputsError(u, sorted(state.params & {s for s in rel.symbols}),
                                         f"the regime of {rel.id} depends on their values")
    else:
        for expr in solve_relation_for(rel, u, None, state.catalog.memo):
            candidates.append((expr, value_at(expr, nmap), None))
        if any(v is not None and not v.is_Rational and v.has(sympy.nan) for _, v, _ in candidates):
            # 0/0: with these inputs the relation may hold for every u (one pipeline chunk: any
            # bottleneck time gives the serial time)
            if sympy.cancel((rel.lhs - rel.rhs).xreplace(nmap)) == 0:
                raise NoSolutionError(f"{u} is not determined by {rel.id} ({rel.equation_text}) with these "
                                      f"inputs: it holds for every {u}; give {u} or change another input",
                                      quantity=u, relations=[rel.id])
    expr, numeric, regime = _pick_branch(state, u, candidates, rel.id)
    _record(state, u, expr, numeric, fmap, rels)
    if regime is not None:
        state.regime = regime
    eq = rel.equation
    state.steps.append(Step("relation", (rel.id,), (u,), (eq,),
                            (sympy.Eq(state.sym(u), expr, evaluate=False),),
                            _inputs_of(rels, (u,)), (state.values.get(u, numeric),),   # also where inputs cancel
                            (state.catalog.quantities[u].dims,), inverse=(rel.defines != u), regime=regime))
    state.used.append(rel.id)


def _inputs_of(rels: Sequence[Relation], unknowns: Sequence[str]) -> tuple[str, ...]:
    seen: list[str] = []
    for r in rels:
        for s in r.symbols:
            if s not in unknowns and s not in seen:
                seen.append(s)
    return tuple(seen)





def _record(state: State, u: str, expr: sympy.Expr, numeric: sympy.Expr | None,
            fmap: Mapping[sympy.Symbol, sympy.Expr], rels: Sequence[Relation]) -> None:
    state.formulas[u] = expr.xreplace(fmap)
    if numeric is None:
        # the step used symbols that cancel later: the formula may still be a number
        nmap = state.numeric_map()
        state.formulas[u] = _cancelled(state.formulas[u], nmap)
        numeric = value_at(state.formulas[u], nmap)
        if numeric is None:
            numeric = _value_without(state.formulas[u], nmap)
    if numeric is not None:
        state.values[u] = numeric
    origin: set[str] = set()
    for s in expr.free_symbols:
        origin |= state.origins.get(s.name, frozenset({"param"}))
    state.origins[u] = frozenset(origin)


def _cancelled(formula: sympy.Expr, nmap: Mapping[sympy.Symbol, sympy.Expr]) -> sympy.Expr:
    """``formula`` with a factor its numerator and denominator share taken out, when that factor
    holds symbols without a value: 6·N/((6 + 2·r)·N) with N a sum of 17 architecture counts,
    distributed in the numerator, is 3/(r + 3). Only a quotient is tried, and within a short budget;
    anything else comes back as it was."""
    free = {s for s in formula.free_symbols if s not in nmap}
    if not free:
        return formula
    _, den = sympy.fraction(formula)
    if not (den.free_symbols & free):
        return formula
    try:
        with time_budget("cancelling a common factor", 2.0):
            out = sympy.factor_terms(formula)
            if {s for s in out.free_symbols if s not in nmap} == free:
                out = sympy.cancel(out)
    except TimeBudgetError:
        return formula
    return out if len({s for s in out.free_symbols if s not in nmap}) < len(free) else formula


def _value_without(formula: sympy.Expr, nmap: Mapping[sympy.Symbol, sympy.Expr]) -> sympy.Expr | None:
    """The value of ``formula`` when a known value of zero makes it a number, the symbols without a
    value dropping out (a vocabulary size times ``embedding_matrices = 0``: Kaplan's non-embedding
    count); None otherwise."""
    known = {s: nmap[s] for s in formula.free_symbols if s in nmap}
    if not known or len(known) == len(formula.free_symbols) or all(v != 0 for v in known.values()):
        return None
    out = formula.xreplace(known)
    if out.free_symbols or not out.is_number or out.has(sympy.nan, sympy.zoo, sympy.oo):
        return None
    return out


# ---------------------------------------------------------------------------
# planning with missing inputs taken as symbols


def _left_out_by_premise(state: State, targets: Sequence[str], t: str,
                         assumed: frozenset[str] | set[str]) -> NoSolutionError | None:
    """The error naming the premise that left out the relations the derivation of ``t`` would have used
    without it (a router picking more experts than the layer has), or None when no premise is why."""
    if not state.excluded:
        return None
    catalog = state.catalog
    try:
        free = plan(catalog, targets, state.known(), assumed, avoided=state.avoided)
    except MissingInputsError:
        return None
    blocked = {r.id for st in free.steps for r in st.relations if r.id in state.excluded}
    # the relation that would have given the target itself, when it is one of them
    blocked = {r for r in blocked if catalog.relations[r].defines == t} or blocked
    if not blocked or not all(x in free.determined for x in targets):
        return None
    left_out = left_out_hint(catalog, {r: state.excluded[r] for r in sorted(blocked)}, t)
    return NoSolutionError(f"cannot determine {t} from these inputs: {left_out}", quantity=t,
                           relations=catalog.relations_with(t))


def _run_plan(state: State, targets: Sequence[str], outer_target: str) -> Plan:
    catalog = state.catalog
    # knowns without a value of their own: inputs taken as symbols, catalog defaults
    assumed = state.params | {n for n, g in state.given.items() if g.origin == "default"}
    zeros = frozenset(n for n, v in state.values.items() if v == 0)
    p = plan(catalog, targets, state.known(), assumed, zeros=zeros, missing=state.params, check_blocks=True,
             excluded=state.excluded, avoided=state.avoided)
    if all(t in p.determined for t in targets):
        return p
    # take the missing natural inputs near the targets as symbols (found once per question shape)
    known = state.known()
    key = (tuple(targets), frozenset(known), zeros, frozenset(state.excluded), state.avoided)
    candidates = catalog.memo.plan_params.get(key)
    if candidates is None:
        inputs = input_like(catalog)
        candidates = frozenset(s for rid in p.component for s in catalog.symbols_of(rid)
                               if s not in known and s in inputs and s not in targets)
        # when the inputs with catalog defaults alone complete the plan, only they are taken as symbols:
        # an input the others determine (mfu from the achieved FLOP/s, once recompute_fraction takes
        # its default) is then derived, not asked for
        defaulted = frozenset(s for s in candidates if catalog.quantities[s].default is not None)
        if defaulted and defaulted != candidates \
                and all(t in plan(catalog, targets, known | defaulted, zeros=zeros, check_blocks=True,
                                  excluded=state.excluded, avoided=state.avoided).determined
                        for t in targets):
            candidates = defaulted
        catalog.memo.plan_params[key] = candidates
    state.params |= candidates
    for s in candidates:
        state.formulas[s] = state.sym(s)
        state.origins[s] = frozenset({"param"})
    # an input with a catalog default is assumed, not missing: a way through it does not lean on what
    # nobody gave (a mixture of experts' count through router_biases, which defaults to 0)
    missing = frozenset(n for n in state.params if catalog.quantities[n].default is None)
    p = plan(catalog, targets, state.known(), state.params | assumed, zeros=zeros, missing=missing,
             check_blocks=True, excluded=state.excluded, avoided=state.avoided)
    unreached = [t for t in targets if t not in p.determined]
    if unreached:
        t = unreached[0]
        rels = catalog.relations_with(t)
        if not rels:
            raise MissingInputsError(t, [t], "no relation in the catalog involves it")
        premise = _left_out_by_premise(state, targets, t, state.params | assumed)
        if premise is not None:
            raise premise
        raise NoSolutionError(
            f"cannot determine {t} from the catalog's relations with these inputs "
            f"(it appears in: {', '.join(rels[:6])}); give more inputs or check 'derive show {t}'",
            quantity=t, relations=rels)
    return p


def default_value(catalog: Catalog, name: str, known: Mapping[str, sympy.Expr] | None = None,
                  seen: frozenset[str] = frozenset()) -> sympy.Expr | None:
    """The catalog default of ``name``: its value, or the value of the quantity it follows
    (``same_as``: known, or that quantity's own default), or None."""
    q = catalog.quantities[name]
    if q.default is None or name in seen:
        return None
    if q.default.same_as is None:
        return q.default.value

    def value_of(other: str) -> sympy.Expr | None:
        if known is not None and other in known:
            return known[other]
        return default_value(catalog, other, known, seen | {name})

    return followed_value(catalog, q.default.same_as, value_of)


def _settle_params(state: State, needed: Iterable[str], target: str) -> None:
    """Fill the missing inputs the answer needs from catalog defaults, or report them missing.

    A default that follows another quantity (``same_as``) takes that quantity's value; when
    that one is not known either, its own default is assumed too, so both are listed.
    """
    catalog = state.catalog

    def assume(name: str) -> bool:
        """Take the default of ``name`` as given (and those of the quantities it follows); False
        when it has none with these inputs."""
        q = catalog.quantities[name]
        value = default_value(catalog, name, state.values)
        if value is None or q.default is None:
            return False
        if name not in state.given:
            follows = followed(catalog, q.default.same_as)[0] if q.default.same_as is not None else None
            state.given[name] = Given(name, value, q.dims, q.default.text if q.default.same_as is None else "",
                                      "default", q.default.source, q.default.note, q.default.note_zh, follows)
        if q.default.same_as is not None:
            for other in followed(catalog, q.default.same_as)[1]:
                if other not in state.values and other not in state.given:
                    assume(other)
        return True

    missing, hints = [], []
    for p in sorted(needed):
        if p in state.unresolved:
            other, preset = state.unresolved[p]
            raise MissingInputsError(target, [other], f"preset {preset} takes {p} from {other}, which no chosen "
                                                      f"preset gives")
        if not assume(p):
            missing.append(p)
            default = catalog.quantities[p].default
            if default is not None and default.same_as is not None:
                lacking = [n for n in followed(catalog, default.same_as)[1]
                           if n not in state.values and default_value(catalog, n, state.values) is None]
                hints.append(f"{p} defaults to {default.same_as}: give {', '.join(lacking)}")
    if missing:
        # a default taken as a formula in a missing input, which did not cancel (head_dim = d_model /
        # num_heads, in an answer that depends on num_heads): said, so that the name is not a surprise
        for name, g in state.given.items():
            if g.is_formula and any(s.name in missing for s in g.value.free_symbols):
                hints.append(f"{name} defaults to {g.text}")
        hint = "; ".join(h for h in (*hints, preset_hint(catalog, missing)) if h)
        raise MissingInputsError(target, missing, hint)


def _derived_instead(trial: State, targets: Sequence[str], missing: set[str]) -> list[str]:
    """The quantities the targets are computed from that all the missing inputs only serve to find
    (params, from a dense model's 17 architecture numbers; a decode step's KV cache size, from the
    batch, the context and the model's shape): a user may know them directly. Of the quantities
    every missing input reaches the target through, the one nearest the inputs is named."""
    return [n for n, covered in _stand_ins(trial, targets, missing) if covered == missing][:3]


def _stand_ins(trial: State, targets: Sequence[str], missing: set[str]) -> list[tuple[str, frozenset[str]]]:
    """Quantities on the way to the targets that some of the missing inputs only serve to find, each with
    those inputs (the KV cache size for batch, seq_len, d_model and num_layers, while num_devices is
    missing too): the ones that stand for the most missing inputs, nearest the inputs first."""
    solved_by = {u: st for st in trial.steps for u in st.solved_for}

    def reaches_missing(name: str, stop: str, seen: set[str], among: frozenset[str]) -> bool:
        """Whether one of ``among`` feeds ``name`` other than through ``stop``."""
        if name == stop or name in seen:
            return False
        seen.add(name)
        if name in among:
            return True
        step = solved_by.get(name)
        return step is not None and any(reaches_missing(i, stop, seen, among) for i in step.inputs)

    def stands_for(name: str, target: str) -> frozenset[str]:
        formula = trial.formulas.get(name)
        if name not in solved_by or formula is None:
            return frozenset()
        covered = frozenset(missing & {s.name for s in formula.free_symbols})
        return covered if covered and not reaches_missing(target, name, set(), covered) else frozenset()

    def upstream(name: str, seen: set[str]) -> set[str]:
        step = solved_by.get(name)
        for i in (step.inputs if step is not None else ()):
            if i not in seen:
                seen.add(i)
                upstream(i, seen)
        return seen

    out: dict[str, frozenset[str]] = {}
    for target in targets:
        through = {n: c for n in solved_by if n != target for c in [stands_for(n, target)] if c}
        if not through:
            continue
        most = max(len(c) for c in through.values())
        best = {n: c for n, c in through.items() if len(c) == most}
        # of those standing for as many missing inputs, the deepest (nearest the missing inputs) is the most
        # specific quantity to ask for (or the one relations set equal to it outright, which the question reads)
        for n, c in best.items():
            if not any(m in upstream(n, set()) for m in best if m != n):
                out.setdefault(_named_as_read(trial, n), c)
    return list(out.items())


def _named_as_read(trial: State, name: str) -> str:
    """``name``, or the quantity that relations set equal to it outright and the question reads instead
    (``activation_bytes_per_device = act_bytes_selective_per_device``: the first is the one to give)."""
    catalog = trial.catalog
    for step in trial.steps:
        rel = catalog.relations[step.relations[0]] if len(step.relations) == 1 else None
        if rel is not None and step.inputs == (name,) and rel.lhs.is_Symbol and rel.rhs.is_Symbol:
            return _named_as_read(trial, step.solved_for[0])
    return name


def _zero_leaves_out(catalog: Catalog, names: Sequence[str]) -> str:
    """Of quantities to give instead of their inputs, those that may be 0, said so: a question about model
    state alone gives ``activation_bytes_per_device=0``."""
    zero = [n for n in names if catalog.quantities[n].minimum == 0]
    if not zero:
        return ""
    return " (0 leaves it out)" if len(names) == 1 else f" ({', '.join(zero)} may be 0 to leave it out)"


def _fewest_missing(state: State, targets: Sequence[str], relation_ids: Iterable[str]) -> list[str]:
    """The missing inputs of the way to ``targets`` that needs the fewest of them (the compute budget
    and the tokens give a parameter count; so do 17 architecture numbers), counting each missing
    natural input as 1 and a known or defaulted quantity as 0, summed along each relation (inputs
    two branches share are counted twice: an estimate that picks the way to ask about, nothing more)."""
    catalog = state.catalog
    rels = [catalog.relations[r] for r in relation_ids]
    natural = input_like(catalog)
    names = {s for r in rels for s in r.symbols} | set(targets)
    inf = float("inf")
    cost: dict[str, float] = {}
    for n in names:
        if n in state.values or default_value(catalog, n, state.values) is not None:
            cost[n] = 0
        else:
            cost[n] = 1 if n in natural and n not in targets else inf
    via: dict[str, Relation] = {}
    for _ in range(len(rels) + 1):
        changed = False
        for rel in rels:
            for q in rel.symbols:
                if cost[q] == 0 or not can_solve_for(rel, q):
                    continue
                c = sum(cost[s] for s in rel.symbols if s != q)
                if c < cost[q]:
                    cost[q], via[q], changed = c, rel, True
        if not changed:
            break
    leaves: list[str] = []
    seen: set[str] = set()

    def walk(name: str) -> None:
        if name in seen or cost[name] == 0:
            return
        seen.add(name)
        rel = via.get(name)
        if rel is None:
            leaves.append(name)
            return
        for s in rel.symbols:
            if s != name:
                walk(s)

    for t in targets:
        if cost.get(t, inf) == inf:
            return []
        walk(t)
    return sorted(leaves)


def preset_hint(catalog: Catalog, missing: Sequence[str]) -> str:
    """The presets that would give missing inputs: a chip or a model by kind (every chip gives its
    bandwidth), a setup by name (activation_factor: chapter-activations, megatron-selective), for the
    first few missing inputs. A preset already chosen gave its values, so it is never among them."""
    kinds = [kind for kind in ("hw", "model")
             if any(any(m in p.values for p in catalog.presets.values() if p.kind == kind) for m in missing)]
    parts = [f"or choose a preset with {' or '.join(f'`{k}` ID' for k in kinds)} "
             f"(see 'derive list --kind {kinds[0]}')"] if kinds else []
    for name in missing[:3]:
        ids = sorted(p.id for p in catalog.presets.values() if p.kind == "setup" and name in p.values)
        if ids:
            parts.append(f"a preset gives {name}: {', '.join(ids[:4])}{', ...' if len(ids) > 4 else ''}")
    return "; ".join(parts)


def _evaluate(state: State, plan_: Plan) -> None:
    for step in plan_.steps:
        _solve_step(state, step)


def _values_choose_nothing(catalog: Catalog, plan_: Plan) -> bool:
    """Whether every step of ``plan_`` has one closed form whatever the values: no regime (a max or
    min) and no relation or system with several solutions, so the formulas follow from the plan alone."""
    memo = catalog.memo
    for step in plan_.steps:
        if step.is_block:
            key = (tuple(r.id for r in step.relations), tuple(step.unknowns))
            if len(memo.blocks.get(key, ())) != 1:
                return False
        elif step.relations[0].regimes or len(memo.inverses.get((step.relations[0].id, None, step.unknowns[0]),
                                                                 ())) != 1:
            return False
    return True


def _defaults_applied(state: State) -> bool:
    changed = False
    for name, g in state.given.items():
        if g.origin == "default" and name not in state.values and not g.is_formula:
            state.values[name] = g.value
            state.origins[name] = frozenset({"default"})
            state.params.discard(name)
            state.formulas[name] = state.sym(name)
            changed = True
    return changed


def _definition_inputs(catalog: Catalog, m: str, known: set[str], limit: int = 60) -> frozenset[str]:
    """The natural inputs, not known, behind the other quantities of each relation that holds ``m``:
    followed through the relations that define them (hardware_flops_per_token through
    active_params to the architecture counts), never through ``m`` itself. Empty when there are
    more than ``limit`` of them."""
    inputs = input_like(catalog)
    found: set[str] = set()
    seen: set[str] = {m}
    stack = [s for rid in catalog.relations_with(m) for s in sorted(catalog.symbols_of(rid))
             if s not in known and s != m]
    while stack:
        s = stack.pop()
        if s in seen or s in known:
            continue
        seen.add(s)
        if s in inputs:
            found.add(s)
            if len(found) > limit:
                return frozenset()
            continue
        for rid in catalog.relations_with(s):
            rel = catalog.relations[rid]
            if rel.defines == s and m not in rel.symbols:
                stack.extend(x for x in rel.symbols if x not in seen and x not in known)
    return frozenset(found)


def _derived_through_cancelling(state: State, targets: Sequence[str], outer_target: str,
                                needed: set[str]) -> Plan | None:
    """Another plan when the missing inputs ``needed`` can themselves be derived from the given
    ones through quantities whose own inputs cancel: ``mfu`` from the achieved FLOP/s through
    ``hfu = mfu·(6 + 2r)·N/(6·N)``, whatever N's 17 architecture counts are. Each missing input is
    tried in turn, the inputs it would take as symbols instead; the plan is taken only when the
    answer then needs none of them (or only catalog defaults), and ``state`` is updated to it.
    None when no missing input can be done without that way."""
    catalog = state.catalog
    for m in sorted(needed):
        known = state.known() - {m}
        extra = _definition_inputs(catalog, m, known)
        params = (state.params - {m}) | extra
        assumed = params | {n for n, g in state.given.items() if g.origin == "default"}
        p2 = plan(catalog, targets, known | extra, assumed,
                  zeros=frozenset(n for n, v in state.values.items() if v == 0 and n != m), missing=params,
                  check_blocks=True, excluded=state.excluded, avoided=state.avoided)
        if not all(t in p2.determined for t in targets):
            continue
        formulas = {k: v for k, v in state.formulas.items() if k != m}
        origins = {k: v for k, v in state.origins.items() if k != m}
        for s in extra:
            formulas[s] = state.sym(s)
            origins[s] = frozenset({"param"})
        trial = State(catalog, dict(state.given), dict(state.values), dict(formulas), dict(origins), set(params),
                      excluded=state.excluded, avoided=state.avoided)
        try:
            _evaluate(trial, p2)
        except (InputError, MissingInputsError, NoSolutionError, NotInvertibleError, TimeBudgetError):
            continue
        still = set()
        for t in targets:
            f = trial.formulas.get(t)
            if f is None:
                break
            still |= {s.name for s in f.free_symbols if s.name in trial.params}
        else:
            if any(catalog.quantities[s].default is None for s in still):
                continue
            kept = (state.formulas, state.origins, state.params, dict(state.given), dict(state.values))
            state.formulas, state.origins, state.params = dict(formulas), dict(origins), set(params)
            try:
                _settle_params(state, still, outer_target)
                if _defaults_applied(state):
                    p2 = _run_plan(state, targets, outer_target)
                # taken only if it answers: every target a value (a default may follow a quantity missing here)
                check = State(catalog, dict(state.given), dict(state.values), dict(state.formulas),
                              dict(state.origins), set(state.params), excluded=state.excluded,
                              avoided=state.avoided)
                _evaluate(check, p2)
                if not all(t in check.values for t in targets):
                    raise MissingInputsError(outer_target, sorted(check.params))
            except (InputError, MissingInputsError, NoSolutionError, NotInvertibleError, TimeBudgetError):
                state.formulas, state.origins, state.params, state.given, state.values = kept
                continue
            return p2
    return None


def derive(state: State, targets: Sequence[str], outer_target: str, relevant=None,
           relevant_key: Any = None) -> None:
    """Plan and solve ``targets``; missing inputs become defaults, symbols that cancel, or an error.

    ``relevant(trial)`` names the missing inputs that the answer depends on; by
    default, those left in the targets' formulas. ``relevant_key`` identifies what ``relevant``
    computes (for a bound: its target and conditions), so that its answer can be kept per
    question shape; without it a ``relevant`` function is called every time.

    A needed input whose default follows inputs that are missing too (``head_dim = d_model /
    num_heads`` with ``num_heads`` unknown) takes that default as a formula in their symbols
    (:func:`_follow_defaults`); the question is then asked again, and those inputs cancel
    (N·(D/N) = D) or are the ones reported missing.
    """
    p = _run_plan(state, targets, outer_target)
    if state.params:
        trial: State | None = None

        def run_trial() -> State:
            # solve symbolically first to see which missing inputs matter
            t = State(state.catalog, dict(state.given), dict(state.values), dict(state.formulas),
                      dict(state.origins), set(state.params), excluded=state.excluded,
                      avoided=state.avoided)
            _evaluate(t, p)
            return t

        # which missing inputs matter depends on the values only through a regime or a choice among
        # several solutions: without either in the plan, it is found once per question shape
        memo = state.catalog.memo

        def needed_inputs() -> frozenset[str]:
            nonlocal trial
            key = None
            if relevant is None or relevant_key is not None:
                # a term times a count given as zero needs nothing: which inputs are zero is part of the shape
                zeros = frozenset(n for n, v in state.values.items() if v == 0)
                key = (tuple(targets), outer_target, frozenset(state.known()), frozenset(state.params),
                       frozenset(n for n, g in state.given.items() if g.origin == "default"), zeros, relevant_key,
                       frozenset(state.excluded), state.avoided)
            needed = memo.needed_inputs.get(key) if key is not None else None
            if needed is None:
                trial = run_trial()
                if relevant is None:
                    found: set[str] = set()
                    for n in targets:
                        f = trial.formulas.get(n)
                        if f is not None and n not in trial.values:
                            # a term times a count given as zero needs nothing (only zeros are put in: a
                            # max/min the values decide keeps its inputs, which choose its regime)
                            nmap = trial.numeric_map()
                            f = f.xreplace({s: 0 for s in f.free_symbols if s in nmap and nmap[s] == 0})
                            found |= {s.name for s in f.free_symbols if s.name in trial.params}
                else:
                    found = set(relevant(trial))
                needed = frozenset(found)
                if key is not None and _values_choose_nothing(state.catalog, p):
                    memo.needed_inputs[key] = needed
            return needed

        needed = needed_inputs()
        while _follow_defaults(state, needed):
            trial = None                   # the formulas changed: a new trial, if one is needed
            needed = needed_inputs()
        try:
            _settle_params(state, needed, outer_target)
        except MissingInputsError as exc:
            # tried only for one or two missing inputs (mfu; mfu and peak_flops), so that a question
            # missing many inputs is not slowed down by trials that cannot succeed
            swapped = None if relevant is not None or len(needed) > 2 else \
                _derived_through_cancelling(state, targets, outer_target, set(needed))
            if swapped is not None:
                p = swapped
                _evaluate(state, p)
                state.redundant = p.redundant  # type: ignore[attr-defined]
                return
            premise = _left_out_by_premise(state, targets, exc.target, state.params)
            if premise is not None:
                raise premise from None
            trial = trial or run_trial()
            fewer = _fewest_missing(state, targets, p.component)
            if fewer and len(fewer) <= 2 and 4 * len(fewer) <= len(exc.missing) and not state.unresolved:
                # another way needs fewer inputs: ask for those (train_tokens, not 17 architecture numbers)
                raise MissingInputsError(exc.target, fewer, preset_hint(state.catalog, fewer)) from None
            instead = _derived_instead(trial, targets, set(exc.missing))
            if not instead:
                # some of the missing inputs only serve to find one quantity: it may be given instead
                part = [(n, c) for n, c in _stand_ins(trial, targets, set(exc.missing)) if len(c) >= 2][:1]
                if not part:
                    raise
                name, covered = part[0]
                zero = " (0 leaves it out)" if state.catalog.quantities[name].minimum == 0 else ""
                hint = f"or give {name} instead of {', '.join(sorted(covered))}{zero}"
                raise MissingInputsError(exc.target, exc.missing,
                                         "; ".join(h for h in (exc.hint, hint) if h)) from None
            if not exc.hint and all(any(n in pr.values for pr in state.catalog.presets.values()
                                        if pr.kind in ("hw", "model")) for n in instead):
                # a chip's own figure (hbm_bw) that no preset's inputs give (HBM stacks, pin rate):
                # ask for the figure, which every chip preset gives, and name the other way after it
                other = f"or give {', '.join(exc.missing)}, from which {' and '.join(instead)} follows"
                hints = (preset_hint(state.catalog, instead), other)
                raise MissingInputsError(exc.target, instead, "; ".join(h for h in hints if h)) from None
            hint = f"or give {' or '.join(instead)} itself{_zero_leaves_out(state.catalog, instead)}"
            raise MissingInputsError(exc.target, exc.missing, "; ".join(h for h in (exc.hint, hint) if h)) from None
        if _defaults_applied(state):
            p = _run_plan(state, targets, outer_target)
    _evaluate(state, p)
    state.redundant = p.redundant  # type: ignore[attr-defined]


def _follow_defaults(state: State, needed: Iterable[str]) -> bool:
    """Take the defaults of needed missing inputs that follow quantities missing too as formulas.

    ``head_dim`` defaults to ``d_model / num_heads``; with ``num_heads`` unknown there is no value,
    but there is a formula: ``head_dim`` is that expression, with ``num_heads`` (a natural input)
    taken as a symbol in its turn (or the unknown of a bound, which already is one), and the
    default is reported as an assumption like any other. A followed quantity that has a default
    of this kind itself follows it too; one that is no input (a relation defines it) leaves the
    default as it was (reported missing). Returns whether any default was taken.
    """
    catalog = state.catalog
    natural = input_like(catalog)

    def symbolic(other: str) -> bool:
        """Whether ``other`` already stands in formulas as a value, its own symbol or a formula default."""
        g = state.given.get(other)
        return (other in state.values or state.formulas.get(other) == state.sym(other)
                or (g is not None and g.is_formula))

    def follows(name: str, seen: frozenset[str]) -> bool:
        q = catalog.quantities[name]
        default = q.default
        if default is None or default.same_as is None or name in seen or name in state.unresolved:
            return False
        if name in state.given or (name in state.formulas and name not in state.params):
            return False
        if default_value(catalog, name, state.values) is not None:
            return False                   # a value: assumed as such (_settle_params)
        expr, names = followed(catalog, default.same_as)
        lacking = [other for other in names if not symbolic(other)]
        if any(other not in natural for other in lacking):
            return False                   # no input: the relations would derive it, not a formula default
        # each missing one follows its own default in the same way, or is a symbol, which may cancel
        symbols = [other for other in lacking if not follows(other, seen | {name})]
        for other in symbols:
            state.params.add(other)
            state.formulas[other] = state.sym(other)
            state.origins[other] = frozenset({"param"})
        state.given[name] = Given(name, expr, q.dims, default.same_as, "default", default.source,
                                  default.note, default.note_zh)
        state.params.discard(name)
        state.formulas[name] = expr.xreplace(state.formula_map())
        state.origins[name] = frozenset({"default"})
        return True

    taken = False
    for name in sorted(needed):
        if name in state.params and follows(name, frozenset()):
            taken = True
    return taken


# ---------------------------------------------------------------------------
# checks


def _negative_root_base(rel: Relation, nmap: Mapping[sympy.Symbol, sympy.Expr]) -> str | None:
    """The side of ``rel`` that takes a fractional power of a number negative at ``nmap``, as written
    (``1 - experts_per_token/num_experts``), or None."""
    for side in (rel.lhs, rel.rhs):
        for power in side.atoms(sympy.Pow):
            if power.exp.is_integer:
                continue
            base = value_at(power.base, nmap)
            exp = value_at(power.exp, nmap)
            if base is None or exp is None or exp.is_integer:
                continue
            if base.is_number and base.is_real and sign(base) < 0:
                return str(power.base)
    # a side that is itself a root is never negative: p^(1/B) = 1 − k/E with 1 − k/E below zero
    for side, other in ((rel.lhs, rel.rhs), (rel.rhs, rel.lhs)):
        if isinstance(side, sympy.Pow) and not side.exp.is_integer:
            value = value_at(other, nmap)
            if value is not None and value.is_number and value.is_real and sign(value) < 0:
                return str(other)
    return None


def check_relations(state: State, relation_ids: Iterable[str]) -> None:
    nmap = state.numeric_map()
    # defaults taken as formulas (head_dim = d_model / num_heads): a relation is checked with them put
    # in, where the missing inputs they follow cancel
    as_formula = {state.sym(n): state.formulas[n] for n, g in state.given.items()
                  if g.is_formula and n in state.formulas}
    for rid in dict.fromkeys(relation_ids):
        rel = state.catalog.relations[rid]
        left, right = value_at(rel.lhs, nmap), value_at(rel.rhs, nmap)
        if (left is None or right is None) and as_formula:
            left = left if left is not None else value_at(_cancelled(rel.lhs.xreplace(as_formula), nmap), nmap)
            right = right if right is not None else value_at(_cancelled(rel.rhs.xreplace(as_formula), nmap), nmap)
        if left is None or right is None:
            continue
        ok = close(left, right)
        state.checks.append(Check("relation", rid, left, right, "=", ok))
        if not ok:
            outside = _negative_root_base(rel, nmap)
            if outside is not None:
                # a root of a negative number (p^(1/B) = 1 − k/E with k > E): no real value satisfies it
                raise NoSolutionError(
                    f"relation {rid} has no real solution with these inputs: {outside} is negative "
                    f"there, and it is raised to a fractional power ({rel.equation_text}); check the inputs",
                    quantity=rel.defines, relations=[rid])
            raise VerificationError(
                f"internal check failed: relation {rid} does not hold at the answer "
                f"({left.evalf(12)} vs {right.evalf(12)}); this is a bug in derive, please report it")
        for reg in rel.regimes:
            el, er = value_at(reg.lhs, nmap), value_at(reg.rhs, nmap)
            wl, wr = value_at(reg.when.lhs, nmap), value_at(reg.when.rhs, nmap)
            if None in (el, er, wl, wr):
                continue
            if holds(reg.when.op, wl, wr):
                regime_holds = close(el, er)
                state.checks.append(Check("regime", f"{rid}.{reg.id}", el, er, "=", regime_holds))
                if not regime_holds:
                    raise VerificationError(f"internal check failed: regime {rid}.{reg.id} holds but its "
                                            "equation does not; this is a bug in derive, please report it")


def _over_determined(state: State, rel: Relation, env: Mapping[sympy.Symbol, sympy.Expr],
                     origins: set[str]) -> None:
    """A relation whose every symbol has a value: it must hold.

    If it does not and every value was typed by the user, the inputs contradict
    each other; if some came from presets or defaults, the user's value wins and
    the answer notes the override.
    """
    left, right = value_at(rel.lhs, env), value_at(rel.rhs, env)
    if left is None or right is None or close(left, right):
        return
    dims = state.catalog.quantities[rel.defines].dims if rel.defines else None
    ltxt = format_value(left, dims).text if dims else str(left.evalf(6))
    rtxt = format_value(right, dims).text if dims else str(right.evalf(6))
    if origins == {"given"}:
        raise ContradictoryInputsError(rel.id, f"{rel.lhs} is {ltxt}", f"{rel.rhs} is {rtxt}",
                                       relative(left, right), f"({rel.equation_text})")
    if "given" in origins:
        # what the typed value overrides: the presets and catalog defaults behind the other side
        sources = tuple(sorted({(s, state.given[s].origin if s in state.given else "default")
                                for s in rel.symbols
                                if (s not in state.given or state.given[s].origin != "given")
                                and (s in state.given or state.catalog.quantities[s].default is not None)}))
        defaulted = [s for s, origin in sources if origin == "default"]
        if len(defaulted) < len(sources) and any(_default_gives_way(state, rel, env, s) for s in defaulted):
            # a catalog default gives way before a preset's value: where a default taking another value
            # makes the relation hold with the typed and preset values (kv_head_shards=8 with a model's 8 KV
            # heads: tensor_parallel is 8, not its default 1), only the default is overridden
            sources = tuple((s, origin) for s, origin in sources if origin == "default")
        state.notes.append(Note.of("override", relation=rel.id, equation=rel.equation_text,
                                   given_value=ltxt, preset_value=rtxt, sources=sources))


def defined_from(catalog: Catalog, name: str) -> frozenset[str]:
    """The quantities ``name`` is counted from: the symbols of the relations that define it, and theirs in
    turn (params from the attention and MLP counts per layer, those from the heads and widths)."""
    memo = catalog.memo.defined_from
    hit = memo.get(name)
    if hit is not None:
        return hit
    found: set[str] = set()
    stack = [name]
    while stack:
        s = stack.pop()
        for rid in catalog.relations_with(s):
            rel = catalog.relations[rid]
            if rel.defines == s:
                fresh = [x for x in rel.symbols if x != name and x not in found]
                found.update(fresh)
                stack.extend(fresh)
    hit = memo[name] = frozenset(found)
    return hit


# a count this close to a whole number, relative to its size, is an estimate of a tally (Chinchilla's
# 40·√3 billion parameters), not a fractional count of things (4.7 KV heads, a d_ff of 11,825.22)
_TALLY_TOLERANCE = sympy.Rational(1, 10**9)


def _fraction_matters(value: sympy.Expr) -> bool:
    """Whether a count's value is a fraction of a whole thing: its distance to the nearest whole number
    is more than a billionth of it."""
    v = value.evalf(PRECISION)
    if not v.is_real or v <= 0:
        return True
    return bool(abs(v - sympy.Integer(round(v))) > _TALLY_TOLERANCE * v)


def inadmissible_counts(state: State, target: str) -> dict[tuple[str, str], Note]:
    """The steps of a derivation that find a count (an integer quantity other than the answer) a way it
    may not be found, each (relation id, quantity) with a note saying why:

    - a whole number is never derived as a fraction (4.7 KV heads): the relation that gives one with
      these inputs is not the count's source (a tally within a billionth of whole, Chinchilla's 69.3 B
      parameters, is an estimate and passes);
    - a preset's figure that relations count from other quantities (a model's nominal ``params``, an
      output of its architecture) never derives, by inverting a relation, the counts it is counted from.

    The answer itself is exempt: a count asked for that comes out fractional is said so (``not_integer``).
    """
    catalog = state.catalog
    solved_by = {u: st for st in state.steps if st.kind in ("relation", "system") for u in st.solved_for}

    def preset_figures(name: str) -> set[str]:
        """The preset values of quantities relations define that ``name`` is found from, through the steps."""
        out: set[str] = set()
        seen: set[str] = set()
        stack = list(solved_by[name].inputs)
        while stack:
            s = stack.pop()
            if s in seen:
                continue
            seen.add(s)
            g = state.given.get(s)
            if g is not None and g.origin not in ("given", "default") and s not in input_like(catalog):
                out.add(s)
            step = solved_by.get(s)
            if step is not None:
                stack.extend(step.inputs)
        return out

    found: dict[tuple[str, str], Note] = {}
    for st in state.steps:
        if st.kind not in ("relation", "system"):
            continue
        for u, value in zip(st.solved_for, st.values):
            if u == target or not catalog.quantities[u].integer:
                continue
            note: Note | None = None
            figures = sorted(f for f in preset_figures(u) if u in defined_from(catalog, f)) if st.inverse else []
            if figures:
                origin = state.given[figures[0]].origin.partition(":")[2]
                note = Note.of("count_from_summary_avoided", name=u, relation=" and ".join(st.relations),
                               summary=figures[0], preset=origin)
            elif value is not None and value.is_number and not value.is_Integer and _fraction_matters(value):
                note = Note.of("count_fraction_avoided", name=u, relation=" and ".join(st.relations), value=value)
            if note is not None:
                for rid in st.relations:
                    found[(rid, u)] = note
    return found


def _default_gives_way(state: State, rel: Relation, env: Mapping[sympy.Symbol, sympy.Expr], name: str) -> bool:
    """Whether some admissible value of the defaulted input ``name`` (positive, whole for a count) makes
    ``rel`` hold with the other values of ``env``: then the default, not a preset, is what a typed value
    contradicts."""
    sym = state.sym(name)
    rest = {k: v for k, v in env.items() if k != sym}
    q = state.catalog.quantities[name]
    regimes: list[str | None] = [r.id for r in rel.regimes] or [None]
    for regime in regimes:
        try:
            solutions = solve_relation_for(rel, name, regime, state.catalog.memo)
        except NotInvertibleError:
            continue                       # this regime's equation does not hold the input
        for expr in solutions:
            value = value_at(expr, rest)
            if value is None or not value.is_real or sign(value) <= 0 or (q.integer and not value.is_Integer):
                continue
            at = {**rest, sym: value}
            left, right = value_at(rel.lhs, at), value_at(rel.rhs, at)
            if left is not None and right is not None and close(left, right):
                return True
    return False


def check_redundant(state: State, redundant: Iterable[Relation]) -> None:
    """Relations the plan left over because the inputs already determine them."""
    nmap = state.numeric_map()
    for rel in redundant:
        origins: set[str] = set()
        for s in rel.symbols:
            origins |= state.origins.get(s, frozenset({"param"}))
        _over_determined(state, rel, nmap, origins)


def given_only_relations(state: State) -> tuple[str, ...]:
    """The relations the typed inputs over-determine (every symbol known, catalog defaults filling the
    rest): which they are depends only on which quantities are known, so they are found once per shape."""
    typed = frozenset(n for n, g in state.given.items() if g.origin == "given")
    catalog = state.catalog
    key = (typed, frozenset(state.values))
    rids = catalog.memo.given_checks.get(key)
    if rids is None:
        found: list[str] = []
        for n in sorted(typed):
            for rid in catalog.relations_with(n):
                if rid not in found and all(s in state.values or default_value(catalog, s, state.values) is not None
                                            for s in catalog.symbols_of(rid)):
                    found.append(rid)
        rids = catalog.memo.given_checks[key] = tuple(found)
    return rids


def check_given_only(state: State) -> None:
    """Relations that the typed inputs over-determine, with catalog defaults filling the rest."""
    catalog = state.catalog
    for rid in given_only_relations(state):
        if rid in state.excluded:
            continue                    # its premise fails here: a line's hops on a ring need not hold
        rel = catalog.relations[rid]
        env: dict[sympy.Symbol, sympy.Expr] = {}
        origins: set[str] = set()
        for sname in rel.symbols:
            if sname in state.values:
                env[state.sym(sname)] = state.values[sname]
                origins |= state.origins.get(sname, frozenset())
            else:
                env[state.sym(sname)] = default_value(catalog, sname, state.values)
                origins.add("default")
        _over_determined(state, rel, env, origins)

