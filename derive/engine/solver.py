"""Solve for any quantity: plan, solve each step symbolically, substitute, verify.

``solve()`` is the engine's one verb. It

1. gathers the knowns: the user's values override preset values (``--hw``,
   ``--model``, ``--preset``); catalog defaults only fill inputs that are still
   missing, and are reported as assumptions;
2. plans a chain of relations from the knowns to the target (``engine/plan.py``);
   if the knowns do not reach the target, the missing natural inputs are taken
   as symbols: if the target's formula does not depend on them they cancel
   (and the answer says so), otherwise they are reported as missing;
3. solves each step symbolically, once per catalog (``Catalog.memo``), keeps
   the real positive branch, picks the regime that holds for relations with
   ``max``/``min``, and substitutes exact values;
4. for ``bound="max"``/``"min"``, turns the required conditions into the
   symbolic bound on the target, finds on which side they hold, and rounds to
   an integer or a multiple (``engine/bounds.py``);
5. substitutes the answer back into every relation and condition used: a
   failed check raises :class:`VerificationError`, it is never printed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Mapping, NamedTuple, Sequence

import sympy

from ..catalog.follow import followed
from ..errors import InputError, MissingInputsError, NoSolutionError, VerificationError
from ..records.catalog import Catalog
from ..records.entries import Preset
from ..records.overrides import record
from ..records.question import Question, QuestionError
from ..records.solution import Check, Given, Note, Solution, Step
from ..symbolic.asymptotic import (
    Growth,
    growth_exponent,
    growth_order,
    is_leading_term,
    leading_term,
    require_involved,
    without_rounding,
)
from ..symbolic.budget import symbolic_seconds, time_budget
from ..symbolic.exact import holds, value_at
from ..symbolic.interval import Interval
from ..symbolic.units import NamedUnit, format_value, short_decimal
from .bounds import find_bound
from .feasibility import fit_of, kind_of
from .premises import left_out_hint, premise_notes, unsettled
from .replay import Template, make_template, shape_of
from .step_functions import solve_interval
from .steps import (
    State,
    check_given_only,
    check_redundant,
    check_relations,
    default_value,
    derive,
    gather,
    inadmissible_counts,
    preset_hint,
    solve_relation_for,
)

__all__ = ["growth", "solve", "solve_relation_for"]


def with_model(catalog: Catalog | None, model: "str | Preset | None") -> tuple[Catalog | None, str | None]:
    """A model given as a :class:`~derive.records.entries.Preset` (``derive.load_model_config``): the
    catalog with that preset added, and its id; a preset id as it is."""
    if not isinstance(model, Preset):
        return catalog, model
    if model.kind != "model":
        raise QuestionError(f"`model` takes a model preset; {model.id!r} is a {model.kind} preset", name="model")
    if catalog is None:
        from ..catalog.loader import load_catalog

        catalog = load_catalog()
    return catalog.with_presets((model,)), model.id


def solve(target: "str | Question", given: Mapping[str, Any] | None = None, *, hw: str | None = None,
          model: "str | Preset | None" = None, presets: Sequence[str] = (), bound: str | None = None,
          require: Sequence[str] = (), multiple_of: int | None = None, rounding: bool = True,
          unit: str | None = None, assume: Sequence[str] | str = (), minimize: str | None = None,
          maximize: str | None = None, catalog: Catalog | None = None) -> Solution:
    """Solve for ``target`` from ``given`` values and presets; or answer a :class:`Question`.

    ``given`` maps quantity names to values: text with a unit (``"3.35 TB/s"``),
    or a number in the quantity's declared unit. ``bound`` is ``"max"`` or
    ``"min"`` and needs ``require`` (condition ids); ``multiple_of`` rounds the
    bound to a multiple; ``rounding=False`` keeps a bound on a whole number exact.
    ``unit`` names the unit to show the answer in (``"days"``, ``"GiB"``). ``assume`` takes the
    leading term under assumptions such as ``"batch << d_model, d_ff"``. ``minimize``/``maximize``
    name a quantity: the answer is the ``target`` that makes it least or greatest, the other inputs fixed
    (``solve("data_parallel", minimize="mixed_comms_time", ...)`` is the book's X_opt).
    ``solve(question)`` takes all of these from a
    :class:`Question` instead. ``model`` is a model preset's id, or a preset itself
    (``derive.load_model_config("config.json")``). Raises a :class:`~derive.DeriveError` subclass on
    bad input; every returned value has been substituted back and checked.
    """
    catalog, model = with_model(catalog, model)
    if isinstance(target, Question):
        if given is not None or hw or model or presets or bound or require or multiple_of is not None \
                or not rounding or unit is not None or assume or minimize or maximize:
            raise QuestionError("give either a Question or `target` with its options, not both", name="target")
        question = target
    else:
        question = Question.of(target, given, hw=hw, model=model, presets=presets, bound=bound, require=require,
                               multiple_of=multiple_of, rounding=rounding, unit=unit, assume=assume,
                               minimize=minimize, maximize=maximize)
    if catalog is None:
        from ..catalog.loader import load_catalog

        catalog = load_catalog()
    key = question.key()
    answers = catalog.memo.answers
    if key in answers:
        answers.move_to_end(key)
        record(answers[key].catalog_overrides())
        return answers[key]
    resolved = catalog.resolve(question)
    if resolved.require:
        from ..catalog.schema import condition_of  # the loader's grammar: only a question with conditions needs it

        for c in resolved.require:
            condition_of(catalog, c)            # inline inequalities are read here, once per catalog
    # a question of a shape solved before: its solution replayed at these values, when it can be (the
    # template is made when a second question of the shape comes: a single question never pays for it)
    shape = shape_of(resolved)
    template = catalog.memo.templates.get(shape, _NO_TEMPLATE)
    if isinstance(template, _FirstOfShape):
        template = make_template(catalog, template.question, template.solution)
        catalog.memo.remember_template(shape, template)
    solution = template.replay(catalog, resolved) if isinstance(template, Template) else None
    if solution is not None:
        catalog.memo.templates.move_to_end(shape)
        solution = _with_fit(catalog, resolved, _with_override_notes(catalog, solution))
        catalog.memo.remember_answer(key, solution)
        record(solution.catalog_overrides())
        return solution
    try:
        with time_budget(f"answering {resolved.target}", seconds=3 * symbolic_seconds()):
            derived_instead: dict[str, str] = {}
            decided: list[_TypedValueDecides] = []
            avoided: dict[tuple[str, str], Note] = {}
            derived_before: set[str] = set()      # what the ways avoided derived
            while True:
                try:
                    solution = _solve(catalog, resolved, derived_instead, avoided)
                    break
                except _TypedValueDecides as exc:
                    # a typed value contradicts preset values the answer reads: those are derived from it
                    # instead (superpod_gpus=2048 gives superpod_nodes, not the preset's 128)
                    if set(exc.contradicted) <= set(derived_instead):
                        raise VerificationError("internal check failed: a typed value still contradicts "
                                                "the presets; this is a bug in derive, please report it") from None
                    derived_instead.update(exc.contradicted)
                    decided.append(exc)
                except _InadmissibleCounts as exc:
                    # a count found as a fraction, or from a preset's figure counted from it: the plan takes
                    # another way (or a default, said as such), or the error says why none is left
                    if set(exc.steps) <= set(avoided):
                        raise VerificationError("internal check failed: a count is still derived a way it may "
                                                "not be; this is a bug in derive, please report it") from None
                    avoided.update(exc.steps)
                    derived_before |= exc.derived
                except (MissingInputsError, NoSolutionError) as exc:
                    if not avoided:
                        raise
                    raise _with_avoided_said(exc, avoided.values()) from None
            for decision in decided:
                _typed_decides_nothing(solution, decision)
            _fraction_not_defaulted(solution, avoided.values(), derived_before)
    except MissingInputsError as exc:
        hint = _what_to_ask_instead(catalog, resolved, exc.missing)
        if not hint:
            raise
        raise MissingInputsError(exc.target, exc.missing, "; ".join(p for p in (exc.hint, hint) if p)) from None
    if template is _NO_TEMPLATE:
        catalog.memo.remember_template(shape, None if derived_instead or avoided
                                       else _FirstOfShape(resolved, solution))
    solution = _with_fit(catalog, resolved, _with_override_notes(catalog, solution))
    catalog.memo.remember_answer(key, solution)
    record(solution.catalog_overrides())
    return solution


_NO_TEMPLATE = object()      # a shape not solved yet (a shape whose solution cannot be replayed keeps None)


class _FirstOfShape(NamedTuple):
    """The first question of a shape and its fresh solution: the template, if a second question comes."""

    question: Question
    solution: Solution

_KIND_WORDS = {"quantity": ("quantity", "物理量"), "relation": ("relation", "关系式"),
               "condition": ("condition", "条件"), "preset": ("preset", "预设")}


def _with_fit(catalog: Catalog, question: Question, solution: Solution) -> Solution:
    """The answer with the way to its memory verdict (weighed when first read, by ``fit_of``), when it
    describes a configuration on devices (a time, a rate, a cost)."""
    if kind_of(catalog, solution) is None:
        # (a replayed answer never keeps the verdict of the question its template came from)
        return solution if solution.fit_source is None else replace(solution, fit_source=None)
    return replace(solution, fit_source=lambda sol: fit_of(catalog, question, sol,
                                                           lambda part: solve(part, catalog=catalog)))


def _with_override_notes(catalog: Catalog, solution: Solution) -> Solution:
    """A note for each overridden built-in the answer uses (a user's ``override: true``)."""
    if not catalog.overrides:
        return solution
    presets = {g.origin.partition(":")[2] for g in solution.given if ":" in g.origin}
    quantities = {solution.target, *(g.name for g in solution.given),
                  *(n for st in solution.steps for n in st.solved_for)}
    used = catalog.overrides_in(quantities=quantities, relations=solution.relations_used,
                                conditions=solution.require, presets=presets)
    if not used:
        return solution
    notes = tuple(Note.of("catalog_override", what=dict(zip(("en", "zh"), _KIND_WORDS[o.kind])), id=o.id,
                          file=o.file, replaced=o.replaced) for o in used)
    return replace(solution, notes=tuple(solution.notes) + notes)


def _what_to_ask_instead(catalog: Catalog, question: Question, missing: Sequence[str]) -> str:
    """When the inputs given determine something of the missing input's kind (matmul_bytes for bytes_moved),
    the quantity like the target that is built on it (matmul_memory_time for memory_time)."""
    from .plan import plan

    if question.bound or not missing:
        return ""
    known = {n for n, _ in question.given}
    for preset_id in (question.hw, question.model, *question.presets):
        if preset_id:
            known |= set(catalog.presets[preset_id].values)
    defaults = {q.id for q in catalog.quantities.values() if q.default is not None}
    with_defaults = known | defaults
    # what the question's own inputs give (with the defaults' help), not what the defaults alone give
    # (training_bytes_per_param from the optimizer's default bytes)
    determined = plan(catalog, list(catalog.quantities), with_defaults).determined - with_defaults \
        - plan(catalog, list(catalog.quantities), defaults).determined
    want = catalog.quantities[question.target].dims
    own = catalog.relations.get(question.target)
    same_formula: list[str] = []
    related: list[str] = []
    for m in missing:
        dims = catalog.quantities[m].dims
        for d in sorted(determined):
            if catalog.quantities[d].dims != dims or d == m:
                continue
            for rid in catalog.relations_with(d):
                rel = catalog.relations[rid]
                if not rel.defines or rel.defines in (question.target, d) \
                        or catalog.quantities[rel.defines].dims != want:
                    continue
                text = f"the inputs give {d} (like {m}): ask for {rel.defines}"
                # the target's own formula with d in place of m: the same question about that operation
                msym = sympy.Symbol(m, positive=True)
                swapped = own.rhs.xreplace({msym: sympy.Symbol(d, positive=True)}) \
                    if own is not None and own.defines == question.target and own.rhs.has(msym) else None
                if swapped is not None and swapped == rel.rhs:
                    same_formula.append(text)
                elif not dims.is_dimensionless:
                    # a count is like any other count only through the same formula (num_devices is not batch_tokens)
                    related.append(text)
    chosen = same_formula or related[:2]
    return "; ".join(dict.fromkeys(chosen))


def _refuse_overrides_the_answer_ignores(state: Any, used_inputs: set[str]) -> None:
    """A typed value that contradicts catalog defaults the answer reads anyway (ZeRO-3's bytes from the
    default 2 + 2 + 12 while training_bytes_per_param=10B was typed): the answer would rest on the
    defaults while a note said the typed value overrode them. Which of the defaults it should change
    is not for derive to guess, so the question is refused, naming them."""
    for n in state.notes:
        if n.kind != "override":
            continue
        defaults = sorted(name for name, origin in n.get("sources") if origin == "default" and name in used_inputs)
        if not defaults:
            continue
        rel = state.catalog.relations[n.get("relation")]
        typed = sorted(s for s in rel.symbols if s in state.given and state.given[s].origin == "given")
        what = ", ".join(typed) or rel.id
        raise InputError(f"{what} = {n.get('given_value')} contradicts the catalog defaults this answer reads "
                         f"({', '.join(defaults)}: relation {rel.id}, {rel.equation_text}, gives "
                         f"{n.get('preset_value')}); give those instead (e.g. {defaults[0]}=...)",
                         name=typed[0] if typed else None)


class _TypedValueDecides(Exception):
    """The answer reads preset (or default) values that a typed value contradicts: they are to be
    derived from the typed value instead (name -> the preset's origin). ``values`` are those preset
    values, ``why`` the override notes that found the contradictions."""

    def __init__(self, contradicted: Mapping[str, str], values: Mapping[str, Given] | None = None,
                 why: Sequence[Note] = ()) -> None:
        super().__init__(", ".join(contradicted))
        self.contradicted = dict(contradicted)
        self.values = dict(values or {})
        self.why = tuple(why)


def _typed_decides_nothing(solution: Solution, decided: _TypedValueDecides) -> None:
    """Raise when a preset value a typed value contradicted is not derived from the typed values after all
    but taken from a catalog default: a default never stands in for a preset's value (kv_head_shards=16
    with a model's 8 KV heads does not make them the default 64); the contradiction is said instead."""
    fallen = [g.name for g in solution.given if g.name in decided.contradicted and g.origin == "default"]
    if not fallen:
        return
    name = fallen[0]
    preset = decided.values[name]
    through = [n for n in decided.why if any(s == name for s, _ in n.get("sources"))]
    how = (f" through relation {through[0].get('relation')} ({through[0].get('equation')})" if through else "")
    raise NoSolutionError(f"your values contradict {name} = {preset.text} of preset "
                          f"{preset.origin.partition(':')[2]}{how}, and do not determine {name} in its place "
                          f"(only the catalog's default would); check the typed values, or give {name}",
                          quantity=name, relations=[through[0].get("relation")] if through else [])


class _InadmissibleCounts(Exception):
    """The answer derived a count (an integer quantity other than the target) a way it may not be: as a
    fraction, or by inverting a relation from a preset's figure that is counted from it. ``steps`` maps
    each (relation id, quantity) pair to avoid to the note that says why."""

    def __init__(self, steps: Mapping[tuple[str, str], Note], derived: Iterable[str] = ()) -> None:
        super().__init__(", ".join(f"{u} by {rid}" for rid, u in steps))
        self.steps = dict(steps)
        self.derived = frozenset(derived)      # what that derivation found (the target included)


def _avoided_text(note: Note) -> str:
    """Why a count was not derived the way a relation offered, in a line (for an error)."""
    data = note.as_dict()
    if note.kind == "count_fraction_avoided":
        value = data["value"]
        shown = (short_decimal(value, 30) if value.is_Rational else None) or f"{sympy.N(value, 6)} (= {value})"
        return (f"{data['name']} is a whole number, so it is not taken from relation {data['relation']}, "
                f"which gives {shown} with these inputs; give {data['name']}")
    return (f"{data['name']} is not derived from {data['summary']} of preset {data['preset']} (relation "
            f"{data['relation']}): that figure is counted from {data['name']}, not an input to it; "
            f"give {data['name']}")


def _fraction_not_defaulted(solution: Solution, avoided: Iterable[Note], derived: Iterable[str]) -> None:
    """Raise when a quantity a way through a count found as a fraction derived (the count, or what
    followed from it) is taken from a catalog default instead: the inputs contradict the default (typed
    params=7e10 with 64 query heads gives 4.7 KV heads, not the default 64)."""
    defaulted = {g.name for g in solution.given if g.origin == "default"} & set(derived)
    fractions = [n for n in avoided if n.kind == "count_fraction_avoided"]
    if defaulted and fractions:
        name = sorted(defaulted)[0]
        raise NoSolutionError(f"cannot determine {name}: " + "; ".join(_avoided_text(n) for n in fractions),
                              quantity=name, relations=[r for n in fractions for r in n.get("relation").split(" and ")])


def _with_avoided_said(exc: "MissingInputsError | NoSolutionError", avoided: Iterable[Note]
                       ) -> "MissingInputsError | NoSolutionError":
    """``exc`` with the ways a count was not derived appended: where no other way is left, the reason."""
    said = "; ".join(dict.fromkeys(_avoided_text(n) for n in avoided))
    if isinstance(exc, MissingInputsError):
        return MissingInputsError(exc.target, exc.missing, "; ".join(h for h in (exc.hint, said) if h))
    return NoSolutionError(f"{exc}; {said}", quantity=exc.quantity, relations=exc.relations)


def _solve(catalog: Catalog, question: Question, derived_instead: Mapping[str, str] | None = None,
           avoided: Mapping[tuple[str, str], Note] | None = None) -> Solution:
    target, bound, multiple_of = question.target, question.bound, question.multiple_of
    q = catalog.quantities[target]
    conditions = [catalog.condition(c) for c in question.require]
    state = gather(catalog, question.given_map, question.hw, question.model, question.presets, target,
                   derived_instead, avoided or ())
    if derived_instead:
        state.notes.append(Note.of("typed_decides", sources=tuple(sorted(derived_instead.items()))))
    check_given_only(state)
    exact_edge = None
    symbolic_edge = None
    interval = None
    composed: tuple[sympy.Basic, ...] = ()
    if bound and not conditions:
        # a bound with no condition: the largest or smallest value a step function allows, else a mistake
        found = _interval_answer(state, question)
        if found is None:
            raise QuestionError("`bound` needs at least one `require` condition (see 'derive list --kind condition')",
                                name="require")
        state, interval = found
        if bound == "max" and not interval.bounded:
            raise NoSolutionError(f"{target} has no largest value: every {target} from {interval.low} up gives "
                                  f"{state.used[-1]} = {interval.rounded}", quantity=target,
                                  relations=[state.used[-1]])
        value = interval.high if bound == "max" else interval.low
        formula = state.sym(target)
    elif bound:
        answer, exact_edge, symbolic_edge, cond_ids, composed = find_bound(state, target, bound, conditions,
                                                                           multiple_of, question.rounding,
                                                                           question.assumptions)
        for a in question.assumptions:
            state.notes.append(Note.of("assumed", assumption=a.text))
        value = answer
        formula = symbolic_edge
        state.values[target] = answer
        op = "<=" if bound == "max" else ">="
        state.steps.append(Step("bound", tuple(cond_ids), (target,),
                                tuple(sympy.Rel(c.comparison.lhs, c.comparison.rhs, c.comparison.op, evaluate=False)
                                      for c in conditions),
                                (sympy.Eq(state.sym(target), symbolic_edge, evaluate=False),),
                                tuple(sorted({s for c in conditions for s in c.symbols if s != target})),
                                (exact_edge,), (q.dims,), direction=bound, relation_op=op, composed=composed))
        if answer != exact_edge:
            state.steps.append(Step("round", tuple(cond_ids), (target,), (), (), (), (answer,), (q.dims,),
                                    direction=bound, note=str(multiple_of or 1)))
        if question.assume:
            exact_bound = _exact_beside(catalog, question)
            if exact_bound is not None:
                state.notes.append(Note.of("exact_beside_approximate", name=target, exact=exact_bound,
                                           op="≤" if bound == "max" else "≥"))
    elif question.optimize:
        state, value, formula, exact_edge = _optimum_answer(state, question)
    elif question.assume:
        value, formula = _leading_answer(state, question)
    else:
        state, interval = _forward(state, question, conditions)
        if interval is not None:
            # the answer is the interval; its value, an end inside it (3/4 of [3/4, 3/2), not the 3/2 it excludes)
            value, formula = interval.representative, state.sym(target)
        else:
            value, formula = state.values[target], state.formulas[target]
        constant = state.preset_target
        if constant is not None and target not in state.given and value != constant.value:
            # derived from the other inputs, the preset's own figure differs (a nominal size, a count with a
            # part the relations leave out): both are said, never one silently for the other
            state.notes.append(Note.of("preset_differs", name=target, preset=constant.origin.partition(":")[2],
                                       preset_value=constant.value))
        for cond in conditions:
            nmap = state.numeric_map()
            left, right = value_at(cond.comparison.lhs, nmap), value_at(cond.comparison.rhs, nmap)
            ok = left is not None and right is not None and holds(cond.comparison.op, left, right)
            if left is not None and right is not None:
                state.checks.append(Check("condition", cond.id, left, right, cond.comparison.op, ok))
            if not ok:
                raise NoSolutionError(f"{target} = {format_value(value, q.dims).text}, but condition {cond.id} "
                                      f"({cond.text}) does not hold there; change the inputs, or ask for "
                                      f"a bound (`bound`)", quantity=target, relations=[cond.id])
        if interval is None and q.integer and value.is_Rational and not value.is_Integer:
            # never rounded silently: which way to round depends on the question
            state.notes.append(Note.of("not_integer", name=target, value=value, down=sympy.floor(value),
                                       up=sympy.ceiling(value)))
    inadmissible = inadmissible_counts(state, target)
    if inadmissible:
        raise _InadmissibleCounts(inadmissible, {u for st in state.steps for u in st.solved_for})
    state.notes.extend(dict.fromkeys((avoided or {}).values()))
    open_premises = unsettled(catalog, state.used, state.given)
    if open_premises:
        missing = sorted({n for r in open_premises for n in r.missing})
        hints = (left_out_hint(catalog, {r.relation: r for r in open_premises}, target), preset_hint(catalog, missing))
        raise MissingInputsError(target, missing, "; ".join(h for h in hints if h))
    state.notes.extend(premise_notes(catalog, state.used, state.given))
    check_relations(state, state.used)
    check_redundant(state, getattr(state, "redundant", ()))
    step_inputs = {n for st in state.steps for n in st.inputs}
    formula_inputs = {s.name for s in formula.free_symbols}
    derived = {u for st in state.steps for u in st.solved_for}
    # inputs that feed a max/min step, directly or through earlier steps, choose its regime: the answer
    # depends on them only through that choice where its formula does not contain them
    deciding: set[str] = set()
    for st in state.steps:
        if st.kind == "optimum" and st.note == "numeric":
            deciding |= set(st.inputs)      # a root found numerically: its formula shows none of them
    for i, st in enumerate(state.steps):
        if st.regime:
            # what the regime's condition reads; inputs of the step outside it do not matter in this regime
            regime = next(r for r in state.catalog.relations[st.relations[0]].regimes if r.id == st.regime)
            when = {s.name for s in (regime.when.lhs - regime.when.rhs).free_symbols}
            # (a condition through quantities the steps did not find, as critical_ai_hbm: all the step's inputs)
            chooses = _upstream(state, when if when <= set(st.inputs) else st.inputs)
            only_choose = sorted(n for n in chooses - formula_inputs - {target}
                                 if n in state.given or n in state.params)
            deciding |= chooses
            # on the boundary (compute_time = memory_time) the regimes meet: the step says balanced
            nmap = state.numeric_map()
            lv, rv = (_through_definitions(catalog, side, nmap) for side in (regime.when.lhs, regime.when.rhs))
            balanced = lv is not None and rv is not None and lv == rv
            if balanced:
                state.steps[i] = replace(st, balanced=True)
            if only_choose:
                # there a change of either side changes the answer
                kind = "regime_balanced" if balanced else "regime_inputs"
                # a side the steps did not compute (critical_ai_hbm) shows its number too
                sides = tuple((side.name, v) for side, v in ((regime.when.lhs, lv), (regime.when.rhs, rv))
                              if isinstance(side, sympy.Symbol) and v is not None and side.name not in state.values)
                state.notes.append(Note.of(kind, names=", ".join(only_choose), relation=st.relations[0],
                                           regime=st.regime, sides=sides))
    # a bound's conditions keep their max/min (a decode step: KV time + max(compute, weights)); inputs
    # only inside one, and not in the bound's formula, choose which term holds at the bound
    in_branches = {s.name for rel in composed for m in rel.atoms(sympy.Max, sympy.Min) for s in m.free_symbols}
    branch_only = sorted(n for n in in_branches - formula_inputs - {target} if n in state.given or n in state.params)
    deciding |= in_branches
    if branch_only:
        state.notes.append(Note.of("branch_inputs", names=", ".join(branch_only)))
    # a default taken as the formula it follows (head_dim = d_model / num_heads) is an assumption, not an
    # input that cancels; the missing inputs it follows are inputs of the steps that use it (num_heads)
    as_formula = {n for n, g in state.given.items() if g.is_formula}
    step_inputs |= {s.name for n in as_formula for s in state.given[n].value.free_symbols}
    cancelled = tuple(sorted(n for n in step_inputs - formula_inputs - derived - deciding - {target} - as_formula
                             if n in state.given or n in state.params))
    if interval is not None:
        cancelled = ()                 # the interval's inputs set where it lies, not cancel
    if question.assume:
        # inputs the approximation drops are not inputs the exact answer does without
        dropped = tuple(n for n in cancelled if n in state.params or n in state.given)
        cancelled = ()
        if dropped:
            state.notes.append(Note.of("dropped_by_assumption", names=", ".join(dropped)))
    if cancelled:
        state.notes.append(Note.of("cancelled", names=", ".join(cancelled)))
    used_inputs = _inputs_used(state, formula, target)
    # a typed value that contradicts preset values through a relation wins only if the answer does not
    # read those preset values on another way (superpod_sus from superpod_nodes, bypassing superpod_gpus)
    why = [n for n in state.notes if n.kind == "override"]
    contradicted = {name: origin for n in state.notes if n.kind == "override"
                    for name, origin in n.get("sources") if name in used_inputs and origin != "default"}
    if contradicted:
        raise _TypedValueDecides(contradicted, {n: state.given[n] for n in contradicted if n in state.given}, why)
    _refuse_overrides_the_answer_ignores(state, used_inputs)
    # what the user typed that nothing on the way to the answer reads (a relation it checks counts)
    checked = {s for c in state.checks if c.kind == "relation" and c.name in catalog.relations
               for s in catalog.relations[c.name].symbols}
    # a premise of a relation the answer used reads its inputs too (ici_axes of a collective over a line)
    checked |= {s for rid in state.used if rid in catalog.relations for cid in catalog.relations[rid].holds_when
                for s in catalog.conditions[cid].symbols}
    unused = sorted(n for n, g in state.given.items()
                    if g.origin == "given" and n != target
                    and n not in used_inputs | checked | set(cancelled) | set(question.shared))
    if unused:
        state.notes.append(Note.of("unused_inputs", names=", ".join(unused), name=target))
    for earlier, replaced in sorted(state.replaced.items()):
        # a setup named after another that undoes most of it (bf16 after kv-int8 or int8) is most likely the
        # wrong order; one that refines a few of its values (kv-int8 after w8a16) is how setups combine
        own = catalog.presets[earlier].values
        if 2 * len(replaced) > len(own) and set(own) & used_inputs:
            kept = sorted(n for n in own if n not in replaced)
            state.notes.append(Note.of("preset_replaced" if kept else "preset_replaced_all", preset=earlier,
                                       later=", ".join(sorted(set(replaced.values()))),
                                       names=", ".join(sorted(replaced)), kept=", ".join(kept)))
    given_list = tuple(g for n, g in state.given.items() if n in used_inputs)
    return Solution(
        target=target, value=value, dims=q.dims, formula=formula,
        exact=exact_edge if exact_edge is not None else value, given=given_list,
        steps=tuple(state.steps), relations_used=tuple(dict.fromkeys(state.used)),
        checks=tuple(state.checks), bound=bound, require=tuple(c.id for c in conditions),
        multiple_of=multiple_of, regime=_answer_regime(state, q), notes=tuple(dict.fromkeys(state.notes)),
        cancelled=cancelled, integer=q.integer, catalog=catalog, interval=interval,
        optimize=question.optimize, objective=question.objective,
        display_unit=NamedUnit(question.unit, catalog.units.parse(question.unit)[0]) if question.unit else None)


def _answer_regime(state: State, q) -> str | None:
    """The regime the answer reports: that of the last max/min on its way that is a bottleneck, among
    quantities of the answer's own kind first (a time's: compute- or memory-bound). A max/min of whole
    counts only (|d − s| of two chip coordinates, whether a route moves along an axis) picks a formula, not
    a bottleneck: it is the answer's regime only when it gives the answer itself."""
    catalog = state.catalog

    def counting(st: Step) -> bool:
        rel = catalog.relations.get(st.relations[0])
        return rel is not None and all(catalog.quantities[n].integer for n in rel.symbols)

    steps = [st for st in state.steps if st.regime and st.solved_for
             and (not counting(st) or st.solved_for[0] == q.id)]
    own = [st.regime for st in steps if catalog.quantities[st.solved_for[0]].dims == q.dims]
    if own:
        return own[-1]
    return steps[-1].regime if steps and q.dims.is_dimensionless else None


def _optimum_answer(state: State, question: Question) -> tuple[State, sympy.Expr, sympy.Expr, sympy.Expr]:
    """``minimize``/``maximize``: the objective derived with the target as a symbol, optimised
    (:mod:`derive.engine.optimize`), then evaluated forward at the answer so every relation is checked there.
    Returns the forward state, the answer, its formula in the inputs' symbols and the exact optimum."""
    from .optimize import find_optimum

    catalog, target, objective = state.catalog, question.target, question.objective
    assert objective is not None and question.optimize is not None
    q = catalog.quantities[target]
    given = {k: v for k, v in question.given if k != target}
    if len(given) != len(question.given):
        raise QuestionError(f"{target} is what the optimum chooses; do not also give it as an input", name=target)
    symbolic = gather(catalog, given, question.hw, question.model, question.presets, target,
                      avoided=state.avoided)
    symbolic.given.pop(target, None)
    symbolic.values.pop(target, None)
    # every missing input the objective needs takes its default (or is reported), except the target
    derive(symbolic, [objective], objective,
           lambda trial: {s.name for s in trial.formulas.get(objective, sympy.S.Zero).free_symbols
                          if s.name in trial.params} - {target})
    formula = symbolic.formulas.get(objective)
    if formula is None:
        raise MissingInputsError(objective, sorted(symbolic.params))
    x = symbolic.sym(target)
    fixed = {symbolic.sym(n): v for n, v in symbolic.values.items() if n != target}
    opt = find_optimum(formula, x, fixed, question.optimize, integer=q.integer and question.rounding,
                       multiple_of=question.multiple_of, target=target, objective=objective, memo=catalog.memo.optima)
    # the objective at the answer, forward, with its steps and the substitute-back checks
    state.values[target] = opt.value
    state.formulas[target] = opt.symbolic if opt.value == opt.exact else x
    state.origins[target] = frozenset({"optimum"})
    derive(state, [objective], target)
    rid = objective if objective in catalog.relations else next(iter(symbolic.used), objective)
    inputs = tuple(sorted({s.name for s in formula.free_symbols} - {target}))
    step = Step("optimum", (rid,), (target,), (sympy.Eq(sympy.Symbol(objective, positive=True), formula,
                                                        evaluate=False),),
                (sympy.Eq(x, opt.symbolic, evaluate=False),), inputs, (opt.exact,), (q.dims,),
                direction=question.optimize, composed=(opt.condition,), note=opt.how, second=opt.second,
                candidates=opt.neighbours)
    state.steps.insert(0, step)
    if opt.value != opt.exact:
        state.steps.insert(1, Step("round", (rid,), (target,), (), (), (objective,), (opt.value,), (q.dims,),
                                   direction="optimum", note=str(question.multiple_of or 1),
                                   candidates=opt.neighbours))
    state.notes.append(Note.of(f"optimum_{opt.how}", name=objective, target=target))
    return state, opt.value, opt.symbolic, opt.exact


def _forward(state: State, question: Question, conditions: Sequence) -> tuple[State, "Interval | None"]:
    """A forward answer: derived through the relations; else every value a step function allows; else
    the preset's own constant. The first error stands when none of them answers."""
    catalog, target = state.catalog, question.target
    try:
        derive(state, [target] + sorted({s for c in conditions for s in c.symbols} - {target}), target)
        if target not in state.values:
            raise MissingInputsError(target, sorted(state.params))
        return state, None
    except (MissingInputsError, NoSolutionError) as exc:
        fresh = gather(catalog, question.given_map, question.hw, question.model, question.presets, target,
                       avoided=state.avoided)
        found = _interval_answer(fresh, question) if not conditions else None
        if found is not None:
            return found
        if state.preset_target is None:
            _raise_with_bound_hint(exc, target, conditions)
            raise
    # no relation gives it from these inputs: the preset's constant is the answer
    state = gather(catalog, question.given_map, question.hw, question.model, question.presets, target,
                   avoided=state.avoided)
    constant = state.preset_target
    assert constant is not None
    state.given[target] = constant
    state.values[target] = constant.value
    state.formulas[target] = state.sym(target)
    state.notes.append(Note.of("preset_constant", name=target, preset=constant.origin.partition(":")[2]))
    return state, None


def _raise_with_bound_hint(exc: Exception, target: str, conditions: Sequence) -> None:
    """A condition on the target without a bound is only checked at the answer the relations give:
    where they give none, say how to ask for the edge the condition sets (`bound=max` / `bound=min`)."""
    on_target = [c.id for c in conditions]
    if not on_target:
        return
    hint = (f"`require` without `bound=max` or `bound=min` only checks {', '.join(on_target)} at the answer "
            f"the relations give; for the largest or smallest {target} for which it holds, add `bound=max` or "
            "`bound=min`")
    if isinstance(exc, MissingInputsError):
        raise MissingInputsError(exc.target, exc.missing, "; ".join(h for h in (exc.hint, hint) if h)) from exc
    if isinstance(exc, NoSolutionError):
        raise NoSolutionError(f"{exc.message}; {hint}", quantity=exc.quantity, relations=exc.relations) from exc


def _interval_answer(state: State, question: Question) -> "tuple[State, Interval] | None":
    """Every value of the target a relation allows when the target occurs in it only inside ceil/floor
    (``seq_len`` from ``flash_col_blocks = ceil(seq_len / flash_block_cols)``), or None if no relation does."""
    catalog, target = state.catalog, question.target
    for rid in catalog.relations_with(target):
        rel = catalog.relations[rid]
        if target in rel.solvable or not (rel.lhs - rel.rhs).has(sympy.ceiling, sympy.floor):
            continue
        others = [s for s in rel.symbols if s != target]
        try:
            derive(state, others, target)
        except (MissingInputsError, NoSolutionError):
            continue
        if not all(o in state.values for o in others):
            continue
        q = catalog.quantities[target]
        values = {state.sym(o): state.values[o] for o in others}
        interval = solve_interval(rel, target, values, q.integer)
        for end in (interval.low, interval.high) if interval.bounded else (interval.low,):
            at = dict(values)
            at[state.sym(target)] = end
            left, right = value_at(rel.lhs, at), value_at(rel.rhs, at)
            ok = left is not None and right is not None and left == right
            if interval.contains(end) or not (interval.low_open or interval.high_open):
                state.checks.append(Check("relation", rid, left, right, "=", ok, at=str(end)))
                if not ok:
                    raise VerificationError(f"internal check failed: {rid} does not hold at {end}, an end of the "
                                            "interval; this is a bug in derive, please report it")
        state.steps.append(Step("interval", (rid,), (target,), (rel.equation,), (), tuple(others),
                                (interval.low, interval.high if interval.bounded else None), (q.dims, q.dims),
                                note=str(interval.rounded)))
        state.used.append(rid)
        return state, interval
    return None


def _exact_beside(catalog: Catalog, question: Question) -> sympy.Expr | None:
    """The answer to ``question`` without its approximations, when the inputs determine it (the large
    quantities given); None when they do not, or when the exact question has no answer."""
    try:
        return _solve(catalog, replace(question, assume=())).value
    except (MissingInputsError, NoSolutionError):
        return None


def _leading_answer(state: State, question: Question) -> tuple[sympy.Expr, sympy.Expr]:
    """A forward answer under ``assume``: the leading term of the target's formula, its value, and the
    exact value beside it when the large quantities are known. The large quantities may be left out
    when the leading term does not depend on them."""
    target = question.target
    assumptions = question.assumptions
    large = {n for a in assumptions for n in a.large}

    def relevant(trial: State) -> set[str]:
        f = trial.formulas.get(target)
        if f is None:
            return set()
        lead = leading_term(f, assumptions)
        # the exact answer beside it takes the catalog's defaults as any question does (act_bytes_per_element)
        defaulted = {s.name for s in f.free_symbols
                     if s.name in trial.params and default_value(state.catalog, s.name, trial.values) is not None}
        return ({s.name for s in lead.free_symbols if s.name in trial.params} - large) | defaulted

    derive(state, [target], target, relevant)
    exact_formula = state.formulas[target]
    require_involved(assumptions, exact_formula, target)
    approx_formula = leading_term(exact_formula, assumptions)
    if not is_leading_term(exact_formula, approx_formula, assumptions):
        raise VerificationError(f"internal check failed: {approx_formula} is not the leading term of "
                                f"{exact_formula}; this is a bug in derive, please report it")
    value = value_at(approx_formula, state.numeric_map())
    if value is None:
        missing = sorted(s.name for s in approx_formula.free_symbols if s.name not in state.values)
        raise MissingInputsError(target, missing)
    exact = state.values.pop(target, None)       # checks run on the exact chain; the answer is the leading term
    q = state.catalog.quantities[target]
    state.steps.append(Step("approximate", (), (target,), (sympy.Eq(state.sym(target), exact_formula),),
                            (sympy.Eq(state.sym(target), approx_formula, evaluate=False),), (), (value,), (q.dims,),
                            note="; ".join(a.text for a in assumptions)))
    for a in assumptions:
        state.notes.append(Note.of("assumed", assumption=a.text))
    if exact is not None:
        state.notes.append(Note.of("exact_beside_approximate", name=target, exact=exact, op="="))
    return value, approx_formula


def _through_definitions(catalog: Catalog, expr: sympy.Expr, nmap: Mapping[sympy.Symbol, sympy.Expr],
                         depth: int = 4) -> sympy.Expr | None:
    """The value of ``expr`` at ``nmap``, a quantity without a value put in by the relation that defines it
    (critical_ai_hbm = peak_flops/hbm_bw), a few levels deep; None when that does not reach numbers."""
    for _ in range(depth):
        subs = {}
        for sym in expr.free_symbols:
            rel = catalog.relations.get(sym.name)
            if sym not in nmap and rel is not None and rel.defines == sym.name and rel.lhs == sym and not rel.regimes:
                subs[sym] = rel.rhs
        if not subs:
            break
        expr = expr.xreplace(subs)
    return value_at(expr, nmap)


def _upstream(state: State, names: Iterable[str]) -> set[str]:
    """``names`` and every quantity the steps that found them used, transitively."""
    producers = {u: st for st in state.steps for u in st.solved_for}
    seen: set[str] = set()
    stack = list(names)
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        st = producers.get(n)
        if st is not None and st.kind in ("relation", "system"):
            stack.extend(st.inputs)
    return seen


def _inputs_used(state: State, formula: sympy.Expr, target: str) -> set[str]:
    names = {s.name for s in formula.free_symbols}
    for st in state.steps:
        names.update(st.inputs)
    # a default that follows another quantity (kv_bytes_per_element = bytes_per_element) shows that one too
    stack = [n for n in names if n in state.given and state.given[n].origin == "default"]
    while stack:
        default = state.catalog.quantities[stack.pop()].default
        for other in followed(state.catalog, default.same_as)[1] if default is not None and default.same_as else ():
            if other not in names:
                names.add(other)
                if other in state.given and state.given[other].origin == "default":
                    stack.append(other)
    return {n for n in names if n in state.given}



def growth(target: str, variable: str, given: Mapping[str, Any] | None = None, *, hw: str | None = None,
           model: "str | Preset | None" = None, presets: Sequence[str] = (),
           catalog: Catalog | None = None) -> Growth:
    """How ``target`` grows with ``variable``, every other input held fixed (given, from presets, or left
    as symbols): the leading term of its formula as the variable grows, and the variable's power in it.

    ``growth("flash_hbm_bytes", "seq_len")`` is Θ(seq_len² · head_dim² · e² / smem_capacity): still
    quadratic in the sequence length. SymPy's series find the leading term; ``ceil``/``floor`` count as
    their argument, which they equal to leading order.
    """
    catalog, model = with_model(catalog, model)
    if catalog is None:
        from ..catalog.loader import load_catalog

        catalog = load_catalog()
    question = catalog.resolve(Question.of(target, given, hw=hw, model=model, presets=presets))
    var = catalog.quantity(variable).id
    if var == question.target:
        raise QuestionError("`order` names the variable the target grows with: another quantity", name="order")
    state = gather(catalog, {k: v for k, v in question.given if k != var}, question.hw, question.model,
                   question.presets, question.target)
    state.given.pop(var, None)      # the variable grows: never a value, even from a preset
    derive(state, [question.target], question.target, lambda trial: set())
    formula = state.formulas.get(question.target)
    if formula is None:
        raise MissingInputsError(question.target, sorted(state.params))
    symbol = state.sym(var)
    if not formula.has(symbol):
        raise NoSolutionError(f"{question.target} does not depend on {var} (its formula is {formula}): it does not "
                              "grow with it", quantity=question.target)
    fixed = {state.sym(n): v for n, v in state.values.items() if n != var}
    smooth = without_rounding(formula.xreplace(fixed), symbol)
    leading = growth_order(smooth, symbol)
    return Growth(question.target, var, formula, leading, growth_exponent(leading, symbol))
