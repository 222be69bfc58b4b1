"""A question of a shape solved before is answered by replaying that solution at its new values
(derive.engine.replay): the answer, every step, value and check must be exactly what a fresh solve gives,
and where the values take the answer somewhere the template cannot follow, the engine solves afresh."""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy

from derive import DeriveError, load_catalog, solve
from derive.documents.problems import load_problem
from derive.engine.replay import Template, shape_of
from derive.records.question import Question

ROOT = Path(__file__).resolve().parents[1]
PROBLEMS = sorted((ROOT / "reports").glob("*.yaml"))


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def _fresh(catalog, question: Question):
    """The answer with no template and no kept answer: what the engine derives from scratch."""
    kept = dict(catalog.memo.templates), dict(catalog.memo.answers)
    catalog.memo.templates.clear()
    catalog.memo.answers.clear()
    try:
        return solve(question, catalog=catalog)
    except DeriveError as exc:
        return type(exc)
    finally:
        catalog.memo.templates.clear()
        catalog.memo.templates.update(kept[0])
        catalog.memo.answers.clear()
        catalog.memo.answers.update(kept[1])


def _replayed(catalog, question: Question):
    catalog.memo.answers.clear()
    try:
        return solve(question, catalog=catalog)
    except DeriveError as exc:
        return type(exc)


def _scaled(catalog, question: Question, factor: sympy.Rational) -> Question | None:
    """The question with every typed value multiplied by ``factor``, written in base units."""
    pairs = []
    for name, _raw in question.given:
        q = catalog.quantity(name)
        base = solve(question, catalog=catalog).given
        value = next((g.value for g in base if g.name == q.id), None)
        if value is None or not value.is_Rational:
            return None
        new = value * factor
        if not new.is_Integer:
            return None
        unit = q.dims.unit_string()
        pairs.append((name, f"{new} {unit}" if unit not in ("", "1") else int(new)))
    return Question.of(question.target, pairs, hw=question.hw, model=question.model, presets=question.presets,
                       bound=question.bound, require=question.require, multiple_of=question.multiple_of,
                       rounding=question.rounding, unit=question.unit, assume=question.assume,
                       minimize=question.objective if question.optimize == "min" else None,
                       maximize=question.objective if question.optimize == "max" else None,
                       shared=question.shared)


def _questions(catalog):
    for path in PROBLEMS:
        for pq in load_problem(path, catalog).questions:
            if pq.question.given:
                yield f"{path.stem}:{pq.id}", pq.question


FACTORS = [sympy.Integer(2), sympy.Integer(3), sympy.Rational(1, 2), sympy.Integer(7), sympy.Integer(1000)]


def test_every_worked_question_replays_to_what_a_fresh_solve_gives(catalog):
    """Every question of every problem file with typed values, at five other values each: the replayed
    answer (or the error) equals the fresh one field for field; most shapes have a template."""
    replayed = declined = 0
    for name, question in _questions(catalog):
        solve(question, catalog=catalog)               # the first question of its shape
        for factor in FACTORS:
            other = _scaled(catalog, question, factor)
            if other is None:
                continue
            again = _replayed(catalog, other)            # the second makes the template, if the shape has one
            assert again == _fresh(catalog, other), (name, factor)
        template = catalog.memo.templates.get(shape_of(catalog.resolve(question)))
        if isinstance(template, Template):
            replayed += 1
        elif template is None:
            declined += 1
    assert replayed >= 40 and replayed > declined, (replayed, declined)


@pytest.mark.parametrize("given, kw, expect", [
    # the README's bound, and the benchmark's: new VMEM sizes, whole numbers and multiples of 128
    ({"vmem_capacity": "65 MiB"}, dict(hw="tpu-v5e", presets=["classic-ffn"], bound="max",
                                       require=["ffn_fits_in_vmem"]), 2063),
    ({"vmem_capacity": "64 MiB"}, dict(hw="tpu-v5e", presets=["classic-ffn"], bound="max",
                                       require=["ffn_fits_in_vmem"]), 2048),
    ({"vmem_capacity": "100 MiB"}, dict(hw="tpu-v5e", presets=["classic-ffn"], bound="max",
                                        require=["ffn_fits_in_vmem"], multiple_of=128), 2560),
    # the fewest H100s for a parameter count: 90e9 params x 2 B over 80 GB is 2.25, so 3
    ({"params": 90 * 10**9}, dict(model="llama2-70b", hw="h100", bound="min", require=["weights_fit"]), 3),
    ({"params": 80 * 10**9}, dict(model="llama2-70b", hw="h100", bound="min", require=["weights_fit"]), 2),
    ({"params": 7 * 10**9}, dict(model="llama2-70b", hw="h100", bound="min", require=["weights_fit"]), 1),
])
def test_a_bound_replayed_at_new_values_is_exact_and_tight(catalog, given, kw, expect):
    """The first question of a shape makes its template; the next, at other values, is replayed: the
    same answer as a fresh solve, rounded right on both sides of a whole number, and checked."""
    first = {"vmem_capacity": "77 MiB"} if "vmem_capacity" in given else {"params": 13 * 10**9}
    catalog.memo.answers.clear()
    solve(Question.of(kw.get("target", "d_model" if "vmem_capacity" in given else "num_devices"), first, **kw),
          catalog=catalog)
    question = Question.of("d_model" if "vmem_capacity" in given else "num_devices", given, **kw)
    sol = _replayed(catalog, question)
    assert isinstance(catalog.memo.templates.get(shape_of(catalog.resolve(question))), Template)
    assert sol.value == expect
    assert sol == _fresh(catalog, question)
    assert all(c.holds for c in sol.checks)
    kinds = [c.kind for c in sol.checks]
    assert "condition" in kinds and "relation" in kinds
    assert (sol.steps[-1].kind == "round") == (sol.exact != sol.value)
    step = kw.get("multiple_of", 1)
    # tested one step past the answer, when that is still positive (no 0 chips)
    assert ("tight" in kinds) == (sol.bound == "max" or sol.value - step > 0)


def test_values_a_template_cannot_follow_are_solved_afresh_with_the_engine_s_own_message(catalog):
    """A value that leaves no feasible answer (a VMEM too small for one column) is not replayed into
    a wrong number: the fresh solve's error is raised, as it would be without a template."""
    kw = dict(hw="tpu-v5e", presets=["classic-ffn"], bound="max", require=["ffn_fits_in_vmem"])
    solve("d_model", {"vmem_capacity": "64 MiB"}, catalog=catalog, **kw)
    with pytest.raises(DeriveError) as err:
        solve("d_model", {"vmem_capacity": "8 B"}, catalog=catalog, **kw)
    catalog.memo.templates.clear()
    with pytest.raises(type(err.value)) as fresh:
        solve("d_model", {"vmem_capacity": "8 B"}, catalog=catalog, **kw)
    assert str(fresh.value) == str(err.value)


def test_a_shape_whose_answer_depends_on_its_values_keeps_no_template(catalog):
    """A regime (memory- or compute-bound) changes with the values: such a shape is always solved."""
    question = Question.of("roofline_time", {"flops": "1e12 FLOP", "bytes_moved": "1e9 B"}, hw="h100")
    sol = solve(question, catalog=catalog)
    assert sol.regime is not None
    solve(question.with_given(flops="1e15 FLOP"), catalog=catalog)     # a second question of its shape
    assert catalog.memo.templates.get(shape_of(catalog.resolve(question)), "absent") is None
