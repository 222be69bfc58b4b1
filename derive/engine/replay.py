"""Questions of a shape solved before, answered at new values by replaying the earlier solution.

A question's plan, its symbolic steps and its bound depend on which inputs are typed, not on their
values: that is the question's *shape* (:func:`shape_of`). Once a question is solved, its solution
becomes the :class:`Template` of its shape when everything value-dependent in it can be recomputed
from the typed values alone:

- each relation step is a formula of earlier quantities (``Step.solved``), evaluated in turn;
- a bound comes from one condition that is monotone in the target for every positive input (its
  sign-equivalent form is ``a·t^k − b`` with ``a``, ``b`` positive), so it has one boundary point
  whatever the values: the closed form evaluated there, rounded as the engine rounds, and settled by
  the condition itself;
- the checks: every relation and the condition substituted back, and a rounded bound tested one
  step past it.

Anything else that values can change declines a template: a regime (``max``/``min`` branch), a
premise reading a typed input, a typed input that over-determines a relation with the presets, a
note other than those that depend only on the shape, a step of another kind. A replay that meets
something its template did not (a value that is not rational, a check that fails, a whole-number
quantity that comes out fractional, no feasible value) returns None and the engine solves afresh,
with its own messages. A template is kept only if replaying it at its own values gives back its
solution exactly, so that a replayed answer is the one a fresh solve gives.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Mapping

import sympy

from ..records.solution import Check, Given, Solution, Step
from ..symbolic.evaluate import Exact, compiled, exact_env, exact_number, exact_value, sympy_number, value_at
from ..symbolic.exact import close, holds
from .bounds import sign_part
from .premises import premise_inputs
from .steps import SymbolMap, coerce_given, gather, given_only_relations

if TYPE_CHECKING:
    from ..records.catalog import Catalog
    from ..records.entries import Condition
    from ..records.question import Question

__all__ = ["Template", "make_template", "shape_of"]

# notes whose presence and text depend only on the question's shape (which names are known)
SHAPE_NOTES = frozenset({"cancelled", "unused_inputs"})
_STEP_KINDS = frozenset({"relation", "bound", "round"})
_HOLDS = {"<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt}
_SETTLE = 4          # steps a rounded bound may move from its estimate before the replay gives up


def shape_of(question: "Question") -> tuple:
    """The question without its typed values: which inputs are typed, and everything else asked."""
    key = question.key()
    return (key[0], tuple(name for name, _ in question.given), *key[2:])


class _Values:
    """The quantities' values during a replay: exact SymPy numbers by name, with the rational ones as
    Python numbers beside them for :func:`exact_value`."""

    __slots__ = ("catalog", "sympy", "exact")

    def __init__(self, catalog: "Catalog", values: Mapping[str, sympy.Expr]) -> None:
        self.catalog = catalog
        self.sympy: dict[str, sympy.Expr] = dict(values)
        self.exact: dict[str, Exact] = exact_env(values)

    def set(self, name: str, value: sympy.Expr) -> None:
        self.sympy[name] = value
        q = exact_number(value)
        if q is not None:
            self.exact[name] = q
        else:
            self.exact.pop(name, None)

    def of(self, expr: sympy.Expr) -> sympy.Expr | None:
        """``expr`` at these values, exactly: over fractions when it is rational, else through SymPy
        (a root of a number that is not a square); None when a symbol has no value."""
        q = exact_value(expr, self.exact)
        if q is not None:
            return sympy_number(q)
        return value_at(expr, SymbolMap(self.catalog, self.sympy))


@dataclass(frozen=True)
class Template:
    """A solved question whose answer can be recomputed at new typed values (see the module's text)."""

    solution: Solution
    condition: "Condition | None"      # the one condition of a bound
    step: int | None                   # what a bound is rounded to (1 for a whole number), or None
    # a bound's closed form as the k-th root of a rational function (k, that function), when it is one:
    # the edge is then one root of one rational number, not a product of roots SymPy multiplies out
    root: tuple[int, sympy.Expr] | None = None

    def replay(self, catalog: "Catalog", question: "Question") -> Solution | None:
        """The solution at ``question``'s values (a question of this template's shape), or None
        when the values take the answer outside what the template can reproduce."""
        s0 = self.solution
        typed: dict[str, Given] = {}
        for name, raw in question.given:
            q = catalog.quantities[name]
            value, text = coerce_given(catalog, q, raw)
            typed[name] = Given(name, value, q.dims, text, "given")
        given = tuple(typed.get(g.name, g) for g in s0.given)
        values = _Values(catalog, {g.name: g.value for g in given})
        steps: list[Step] = []
        later: list[tuple[str, sympy.Expr]] = []     # quantities that depend on a bound's target
        edge = answer = None
        for st in s0.steps:
            if st.kind == "relation":
                found: list[sympy.Expr | None] = []
                for name, eq, before in zip(st.solved_for, st.solved, st.values):
                    if before is None:
                        later.append((name, eq.rhs))
                        found.append(None)
                        continue
                    v = values.of(eq.rhs)
                    if v is None or not _in_range(catalog, name, v):
                        return None      # out of the quantity's range: the engine says why
                    if name != s0.target and catalog.quantities[name].integer and not v.is_Integer:
                        return None      # a count on the way found as a fraction: the engine takes another way
                    values.set(name, v)
                    found.append(v)
                steps.append(replace(st, values=tuple(found)))
            elif st.kind == "bound":
                bounded = self._bound(st, values)
                if bounded is None:
                    return None
                edge, answer = bounded
                steps.append(replace(st, values=(edge,)))
                if answer != edge:
                    steps.append(Step("round", st.relations, st.solved_for, (), (), (), (answer,), st.dims,
                                      direction=st.direction, note=str(s0.multiple_of or 1)))
        target = s0.target
        if edge is not None:
            values.set(target, answer)
        for name, expr in later:
            v = values.of(expr)
            if v is None or not _in_range(catalog, name, v):
                return None
            values.set(name, v)
        value = values.sympy.get(target)
        if value is None or (s0.integer and edge is None and not value.is_Integer):
            return None                  # a count that is not whole: the engine says which way to round
        checks = self._checks(catalog, values, answer)
        if checks is None:
            return None
        return replace(s0, value=value, exact=edge if edge is not None else value, given=given,
                       steps=tuple(steps), checks=checks)

    def _bound(self, st: Step, values: _Values) -> tuple[sympy.Expr, sympy.Expr] | None:
        """(the exact edge, the answer): the closed form at the inputs, rounded to ``step`` and settled
        by the condition (the last multiple that satisfies it), or None when it cannot be settled here."""
        radicand: Exact | None = None
        k = 1
        if self.root is not None:
            k, raised = self.root
            radicand = exact_value(raised, values.exact)
            if radicand is None or radicand <= 0:
                return None
            edge = sympy_number(radicand) if k == 1 else sympy.Pow(sympy_number(radicand), sympy.Rational(1, k))
        else:
            edge = values.of(st.solved[0].rhs)
            if edge is None or edge.has(sympy.I) or not edge.is_positive:
                return None
        assert self.condition is not None
        compare = _HOLDS[self.condition.comparison.op]
        rel, t = st.composed[0], st.solved_for[0]

        def feasible(x: Exact) -> bool | None:
            at = {**values.exact, t: x}
            left, right = exact_value(rel.lhs, at), exact_value(rel.rhs, at)
            if left is None or right is None:
                return None
            return compare(left, right)

        q = exact_number(edge)
        if self.step is None:
            return (edge, edge) if q is not None and feasible(q) else None
        step = self.step
        if q is not None:
            below = step * math.floor(Fraction(q) / step)
        else:
            try:
                if radicand is not None:
                    estimate = float(radicand) ** (1 / k) / step
                else:
                    estimate = float(edge.evalf(20)) / step
            except (TypeError, ValueError, OverflowError):
                return None
            if not math.isfinite(estimate) or estimate >= 2**50:
                return None
            below = step * math.floor(estimate)
        if st.direction == "max":
            answer = below if feasible(below) else below - step
            for _ in range(_SETTLE):
                if not feasible(answer + step):
                    break
                answer += step
            past = answer + step
        else:
            answer = below if (q is not None and below == q and feasible(below)) else below + step
            for _ in range(_SETTLE):
                if answer - step <= 0 or not feasible(answer - step):
                    break
                answer -= step
            past = answer - step
        # the answer holds, one step past it does not (the monotone condition then decides every other value)
        if answer <= 0 or feasible(answer) is not True or (past > 0 and feasible(past) is not False):
            return None
        return edge, sympy.Integer(answer)

    def _checks(self, catalog: "Catalog", values: _Values, answer: sympy.Expr | None) -> tuple[Check, ...] | None:
        """The template's checks recomputed at these values; None when one fails (the engine then says why)."""
        s0 = self.solution
        out: list[Check] = []
        for c in s0.checks:
            if c.kind == "relation":
                rel = catalog.relations[c.name]
                left, right = values.of(rel.lhs), values.of(rel.rhs)
                if left is None or right is None or not close(left, right):
                    return None
                out.append(Check("relation", c.name, left, right, "=", True))
            elif c.kind == "condition" and answer is None:       # a condition a forward answer must meet
                cond = catalog.condition(c.name)
                left, right = values.of(cond.comparison.lhs), values.of(cond.comparison.rhs)
                if left is None or right is None or not holds(cond.comparison.op, left, right):
                    return None
                out.append(Check("condition", c.name, left, right, c.op, True))
            elif c.kind == "condition" and answer is not None:   # the bound's, at the answer
                rel = next(st for st in s0.steps if st.kind == "bound").composed[0]
                left, right = values.of(rel.lhs), values.of(rel.rhs)
                if left is None or right is None or not holds(c.op, left, right):
                    return None
                whole = int(answer)                                  # a bound rounded to a whole number
                out.append(Check("condition", c.name, left, right, c.op, True,
                                 at=str(whole) if answer.is_Integer else str(answer)))
                if self.step is not None:
                    past = whole + self.step if s0.bound == "max" else whole - self.step
                    if past > 0:
                        out.append(Check("tight", c.name, sympy.Integer(past), answer, "", True, at=str(past),
                                         expect=False))
            elif c.kind != "tight":
                return None
        return tuple(out)


def _in_range(catalog: "Catalog", name: str, value: sympy.Expr) -> bool:
    """A value the quantity may take: positive, or at least its ``min:`` (a negative count of KV blocks, where
    the weights outgrow the memory, is no answer; the fresh solve refuses it in words)."""
    q = catalog.quantities[name]
    if not value.is_real:
        return False
    return bool(value > 0) if q.minimum is None else bool(value >= q.minimum)


def make_template(catalog: "Catalog", question: "Question", solution: Solution) -> Template | None:
    """The template of ``question``'s shape from its fresh ``solution``, or None when its answer
    depends on its values in a way a replay does not reproduce."""
    s0 = solution
    if question.assume or question.optimize or s0.interval is not None or s0.alternatives or s0.regime:
        return None
    if any(n.kind not in SHAPE_NOTES for n in s0.notes) or not s0.steps:
        return None
    if any(st.kind not in _STEP_KINDS or st.regime or st.balanced or len(st.solved) != len(st.solved_for)
           for st in s0.steps if st.kind != "round"):
        return None
    if any(st.kind == "round" for st in s0.steps) and not any(st.kind == "bound" for st in s0.steps):
        return None
    typed = {name for name, _ in question.given}
    # a value that follows a typed one (a default same_as it) would change with it
    if any(g.is_formula or (g.follows is not None and {s.name for s in g.follows.free_symbols} & typed)
           for g in s0.given):
        return None
    if any(c.kind not in ("relation", "condition", "tight") for c in s0.checks):
        return None
    for rid in s0.relations_used:
        rel = catalog.relations.get(rid)
        if rel is None or rel.regimes:
            return None
    if typed & set(premise_inputs(catalog)):
        return None
    state = gather(catalog, question.given_map, question.hw, question.model, question.presets, s0.target)
    if state.preset_target is not None or given_only_relations(state):
        return None
    condition, step, root = None, None, None
    if s0.bound:
        bounds = [st for st in s0.steps if st.kind == "bound"]
        if len(s0.require) != 1 or len(bounds) != 1 or len(bounds[0].composed) != 1:
            return None
        condition = catalog.condition(s0.require[0])
        if not _monotone(catalog, bounds[0].composed[0], catalog.symbol(s0.target)):
            return None
        q = catalog.quantities[s0.target]
        step = s0.multiple_of or (1 if q.integer and question.rounding else None)
        root = _as_root(bounds[0].solved[0].rhs)
    template = Template(s0, condition, step, root)
    try:
        again = template.replay(catalog, question)
    except Exception:       # noqa: BLE001 - a template that cannot replay its own question is not kept
        return None
    return template if again == s0 else None


def _monotone(catalog: "Catalog", rel: Any, t: sympy.Symbol) -> bool:
    """Whether the condition ``rel`` (in the inputs and ``t``) changes side at one positive ``t`` for
    every positive input: its sign-equivalent form is ``a·t^k − b`` (or ``b − a·t^k``) with ``a`` and
    ``b`` positive whatever the inputs."""
    g = sign_part(rel.lhs - rel.rhs, t, catalog.memo)
    try:
        terms = sympy.Poly(g, t).terms()          # ((degree,), coefficient), highest degree first
    except (sympy.PolynomialError, sympy.GeneratorsNeeded):
        return False
    if len(terms) != 2 or terms[1][0] != (0,):
        return False
    a, b = terms[0][1], terms[1][1]
    return bool((a.is_positive and b.is_negative) or (a.is_negative and b.is_positive))


def _as_root(expr: sympy.Expr) -> tuple[int, sympy.Expr] | None:
    """``expr`` as (k, f) with ``expr = f^(1/k)`` and ``f`` a rational function of the inputs (the
    symbols are positive), or None: ``sqrt(C)/(sqrt(n)·sqrt(k)·sqrt(b))`` is (2, C/(n·k·b))."""
    k = 1
    for p in expr.atoms(sympy.Pow):
        if not p.exp.is_Rational:
            return None
        k = k * int(p.exp.q) // math.gcd(k, int(p.exp.q))
    raised = expr ** k
    if any(not p.exp.is_Integer for p in raised.atoms(sympy.Pow)) or compiled(raised) is None:
        return None
    return k, raised
