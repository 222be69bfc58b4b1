"""Solve for any quantity: plan, solve each step symbolically, substitute, verify.

``solve()`` is the engine's one verb. It

1. gathers the knowns: the user's values override preset values (``--hw``,
   ``--model``, ``--preset``); catalog defaults only fill inputs that are still
   missing, and are reported as assumptions;
2. plans a chain of relations from the knowns to the target (``_plan.py``);
   if the knowns do not reach the target, the missing natural inputs are taken
   as symbols: if the target's formula does not depend on them they cancel
   (and the answer says so), otherwise they are reported as missing;
3. solves each step symbolically, once per catalog (``Catalog.memo``), keeps
   the real positive branch, picks the regime that holds for relations with
   ``max``/``min``, and substitutes exact values;
4. for ``bound="max"``/``"min"``, turns the required conditions into the
   symbolic bound on the target, finds on which side they hold, and rounds to
   an integer or a multiple (``_bounds.py``);
5. substitutes the answer back into every relation and condition used: a
   failed check raises :class:`VerificationError`, it is never printed.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

import sympy

from ._bounds import find_bound
from ._errors import MissingInputsError, NoSolutionError
from ._exact import holds, value_at
from ._model import Catalog
from ._question import Question, QuestionError
from ._solution import Check, Note, Solution, Step
from ._steps import State, check_given_only, check_redundant, check_relations, derive, gather, solve_relation_for
from ._units import NamedUnit, format_value

__all__ = ["solve", "solve_relation_for"]


def solve(target: "str | Question", given: Mapping[str, Any] | None = None, *, hw: str | None = None,
          model: str | None = None, presets: Sequence[str] = (), bound: str | None = None,
          require: Sequence[str] = (), multiple_of: int | None = None, rounding: bool = True,
          unit: str | None = None, catalog: Catalog | None = None) -> Solution:
    """Solve for ``target`` from ``given`` values and presets; or answer a :class:`Question`.

    ``given`` maps quantity names to values: text with a unit (``"3.35 TB/s"``),
    or a number in the quantity's declared unit. ``bound`` is ``"max"`` or
    ``"min"`` and needs ``require`` (condition ids); ``multiple_of`` rounds the
    bound to a multiple; ``rounding=False`` keeps a bound on a whole number exact.
    ``unit`` names the unit to show the answer in (``"days"``, ``"GiB"``).
    ``solve(question)`` takes all of these from a
    :class:`Question` instead. Raises a :class:`~derive.DeriveError` subclass on
    bad input; every returned value has been substituted back and checked.
    """
    if isinstance(target, Question):
        if given is not None or hw or model or presets or bound or require or multiple_of is not None \
                or not rounding or unit is not None:
            raise QuestionError("give either a Question or `target` with its options, not both", name="target")
        question = target
    else:
        question = Question.of(target, given, hw=hw, model=model, presets=presets, bound=bound, require=require,
                               multiple_of=multiple_of, rounding=rounding, unit=unit)
    if catalog is None:
        from ._loader import load_catalog

        catalog = load_catalog()
    key = question.key()
    answers = catalog.memo.answers
    if key in answers:
        answers.move_to_end(key)
        return answers[key]
    solution = _solve(catalog, question.resolve(catalog))
    catalog.memo.remember_answer(key, solution)
    return solution


def _solve(catalog: Catalog, question: Question) -> Solution:
    target, bound, multiple_of = question.target, question.bound, question.multiple_of
    q = catalog.quantities[target]
    conditions = [catalog.conditions[c] for c in question.require]
    state = gather(catalog, question.given_map, question.hw, question.model, question.presets, target)
    check_given_only(state)
    exact_edge = None
    symbolic_edge = None
    if bound:
        answer, exact_edge, symbolic_edge, cond_ids, composed = find_bound(state, target, bound, conditions,
                                                                           multiple_of, question.rounding)
        value = answer
        formula = symbolic_edge
        state.values[target] = answer
        op = "<=" if bound == "max" else ">="
        state.steps.append(Step("bound", tuple(cond_ids), (target,),
                                tuple(sympy.Rel(c.comparison.lhs, c.comparison.rhs, c.comparison.op)
                                      for c in conditions),
                                (sympy.Eq(state.sym(target), symbolic_edge, evaluate=False),),
                                tuple(sorted({s for c in conditions for s in c.symbols if s != target})),
                                (exact_edge,), (q.dims,), direction=bound, relation_op=op, composed=composed))
        if answer != exact_edge:
            state.steps.append(Step("round", tuple(cond_ids), (target,), (), (), (), (answer,), (q.dims,),
                                    direction=bound, note=str(multiple_of or 1)))
    else:
        try:
            derive(state, [target] + sorted({s for c in conditions for s in c.symbols} - {target}), target)
            if target not in state.values:
                raise MissingInputsError(target, sorted(state.params))
        except (MissingInputsError, NoSolutionError):
            if state.preset_target is None:
                raise
            # no relation gives it from these inputs: the preset's constant is the answer
            state = gather(catalog, question.given_map, question.hw, question.model, question.presets, target)
            constant = state.preset_target
            assert constant is not None
            state.given[target] = constant
            state.values[target] = constant.value
            state.formulas[target] = state.sym(target)
            state.notes.append(Note.of("preset_constant", name=target, preset=constant.origin.partition(":")[2]))
        value = state.values[target]
        formula = state.formulas[target]
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
        if q.integer and value.is_Rational and not value.is_Integer:
            # never rounded silently: which way to round depends on the question
            state.notes.append(Note.of("not_integer", name=target, value=value, down=sympy.floor(value),
                                       up=sympy.ceiling(value)))
    check_relations(state, state.used)
    check_redundant(state, getattr(state, "redundant", ()))
    step_inputs = {n for st in state.steps for n in st.inputs}
    formula_inputs = {s.name for s in formula.free_symbols}
    derived = {u for st in state.steps for u in st.solved_for}
    # inputs that feed a max/min step, directly or through earlier steps, choose its regime: the answer
    # depends on them only through that choice where its formula does not contain them
    deciding: set[str] = set()
    for st in state.steps:
        if st.regime:
            only_choose = sorted(n for n in _upstream(state, st.inputs) - formula_inputs - {target}
                                 if n in state.given or n in state.params)
            deciding |= _upstream(state, st.inputs)
            if only_choose:
                state.notes.append(Note.of("regime_inputs", names=", ".join(only_choose),
                                           relation=st.relations[0], regime=st.regime))
    cancelled = tuple(sorted(n for n in step_inputs - formula_inputs - derived - deciding - {target}
                             if n in state.given or n in state.params))
    if cancelled:
        state.notes.append(Note.of("cancelled", names=", ".join(cancelled)))
    used_inputs = _inputs_used(state, formula, target)
    given_list = tuple(g for n, g in state.given.items() if n in used_inputs)
    return Solution(
        target=target, value=value, dims=q.dims, formula=formula,
        exact=exact_edge if exact_edge is not None else value, given=given_list,
        steps=tuple(state.steps), relations_used=tuple(dict.fromkeys(state.used)),
        checks=tuple(state.checks), bound=bound, require=tuple(c.id for c in conditions),
        multiple_of=multiple_of, regime=state.regime, notes=tuple(dict.fromkeys(state.notes)),
        cancelled=cancelled, integer=q.integer, catalog=catalog,
        display_unit=NamedUnit(question.unit, catalog.units.parse(question.unit)[0]) if question.unit else None)


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
        if default is not None and default.same_as and default.same_as not in names:
            names.add(default.same_as)
            if default.same_as in state.given and state.given[default.same_as].origin == "default":
                stack.append(default.same_as)
    return {n for n in names if n in state.given}

