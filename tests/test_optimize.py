"""minimize / maximize (issue 15): the unknown that makes an objective least or greatest, found from the
objective's own relations (a stationary point with its second derivative, or the kink of a max), then
rounded to the better whole-number neighbour, in the API, the CLI, problem files and write-ups."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from conftest import need_tool

from derive import NoSolutionError, QuestionError, load_catalog, solve
from derive.documents.problems import load_problem
from derive.writeup.render import render_solution

# part 5 of the Scaling Book: mixed FSDP + TP of LLaMA 3-70B's MLP on a v5p pod
MIXED = dict(hw="tpu-v5p", given={"num_devices": 8192, "batch_tokens": "4e6", "d_model": 8192, "d_ff": 28672,
                                  "fsdp_axes": 1, "tp_axes": 2})


def _objective(sol_catalog, objective: str, x: int) -> sympy.Expr:
    return solve(objective, {**MIXED["given"], "data_parallel": x}, hw=MIXED["hw"], catalog=sol_catalog).value


@pytest.mark.parametrize("objective", ["mixed_comms_time", "mixed_comms_time_sum"])
def test_the_optimal_fsdp_degree_is_the_books_closed_form(catalog, objective):
    sol = solve("data_parallel", minimize=objective, catalog=catalog, **MIXED)
    # X_opt = sqrt(B·M_X·N/(F·M_Y)) for equal weight and activation bytes (the book's sqrt((B/F)·(M_X/M_Y)·N))
    x_opt = sympy.sqrt(sympy.Rational(4 * 10**6 * 1 * 8192, 28672 * 2))
    assert sympy.simplify(sol.exact - x_opt) == 0
    # the catalog's own closed form agrees
    assert solve("mixed_fsdp_degree_opt", MIXED["given"], hw="tpu-v5p", catalog=catalog).value == x_opt
    # a whole number: the better of 755 and 756, each evaluated exactly
    assert int(sympy.floor(x_opt)) == 755
    t755, t756 = _objective(catalog, objective, 755), _objective(catalog, objective, 756)
    assert sol.value == (755 if t755 < t756 else 756)
    assert all(c.holds for c in sol.checks) and sol.optimize == "min" and sol.objective == objective
    how = [s for s in sol.steps if s.kind == "optimum"][0].note
    assert how == ("crossing" if objective == "mixed_comms_time" else "stationary")


def test_two_d_weight_stationary_sharding_is_sqrt_of_n_over_8(catalog):
    given = {"num_devices": 256, "batch_tokens": 64, "d_model": 8192, "d_ff": 4 * 8192}
    sol = solve("ws2d_d_shards", given, hw="tpu-v5e", minimize="ws2d_comms_time", rounding=False, catalog=catalog)
    assert sol.value == sympy.sqrt(32)                       # sqrt(N/8) for F = 4D
    step = [s for s in sol.steps if s.kind == "optimum"][0]
    assert step.second is not None and step.second > 0     # a minimum
    closed = solve("ws2d_d_shards_opt", given, catalog=catalog).value
    assert closed == sol.value


def test_multiple_of_takes_the_better_multiple(catalog):
    sol = solve("data_parallel", minimize="mixed_comms_time", multiple_of=128, catalog=catalog, **MIXED)
    t = {x: _objective(catalog, "mixed_comms_time", x) for x in (640, 768)}
    assert sol.value == min(t, key=t.get) == 768
    rounding = [s for s in sol.steps if s.kind == "round"][0]
    assert dict(rounding.candidates) == t


def test_no_optimum_is_a_clear_error(cli):
    with pytest.raises(NoSolutionError, match="no greatest value"):
        solve("data_parallel", maximize="mixed_comms_time_sum", **MIXED)
    with pytest.raises(QuestionError, match="minimize"):
        solve("data_parallel", minimize="mixed_comms_time", bound="max", require=["weights_fit"], **MIXED)
    run = cli("solve", "data_parallel", "--maximize", "mixed_comms_time_sum", "--hw", "tpu-v5p", "num_devices=8192",
              "batch_tokens=4e6", "d_model=8192", "d_ff=28672", "fsdp_axes=1", "tp_axes=2")
    assert run.code == 2 and run.err.startswith("derive: error:") and len(run.err.strip().splitlines()) == 1
    run = cli("solve", "data_parallel", "--minimize", "data_parallel")
    assert run.code == 2 and "another quantity" in run.err


def test_the_cli_and_the_write_up_show_the_derivative_set_to_zero(cli, catalog):
    args = ["solve", "ws2d_d_shards", "--minimize", "ws2d_comms_time", "--hw", "tpu-v5e", "num_devices=256",
            "batch_tokens=64", "d_model=8192", "d_ff=32768"]
    run = cli(*args)
    assert run.code == 0, run.err
    assert run.out.startswith("ws2d_d_shards = 6 ")
    assert "optimum before rounding: 5.656854" in run.out and "= 0" in run.out
    assert "ws2d_d_shards = 5: ws2d_comms_time = 4.151 µs" in run.out
    sol = solve("ws2d_d_shards", {"num_devices": 256, "batch_tokens": 64, "d_model": 8192, "d_ff": 32768},
                hw="tpu-v5e", minimize="ws2d_comms_time", catalog=catalog)
    md = render_solution(sol, "md", lang="both")
    assert r"\frac{\mathrm{d} T_{\mathrm{2D}}(X)}{\mathrm{d} X}" in md or r"\frac{\mathrm{d}" in md
    assert "最小化" in md and "Minimise" in md


def test_a_problem_file_question_can_minimize_and_its_pdf_compiles(tmp_path, cli):
    need_tool("xelatex")
    problem = tmp_path / "xopt.yaml"
    problem.write_text("""
id: xopt
title: {en: "The best FSDP degree", zh: "最优 FSDP 度"}
statement: {en: "LLaMA 3-70B's MLP on a TPU v5p pod.", zh: "TPU v5p pod 上 LLaMA 3-70B 的 MLP。"}
source: scaling-book-training, section "Combining FSDP and Tensor Parallelism"
hw: tpu-v5p
given: {num_devices: 8192, batch_tokens: 4e6, d_model: 8192, d_ff: 28672, fsdp_axes: 1, tp_axes: 2}
questions:
  - id: x-opt
    ask: {en: "Which FSDP degree makes the comms least?", zh: "FSDP 度取多少时通信最少？"}
    solve: data_parallel
    minimize: mixed_comms_time
    expect: 756
""", encoding="utf-8")
    loaded = load_problem(problem, load_catalog())
    assert loaded.questions[0].question.optimize == "min"
    run = cli("report", str(problem), "--lang", "both", "--format", "md,pdf", "-o", str(tmp_path / "out"))
    assert run.code == 0, run.err
    text = (tmp_path / "out" / "xopt.both.md").read_text(encoding="utf-8") \
        if (tmp_path / "out" / "xopt.both.md").exists() else \
        "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "out").glob("*.md"))
    assert "756" in text and r"\Rightarrow\; N_{\mathrm{DP}}" in text
    assert list((tmp_path / "out").glob("*.pdf"))


def _spec_speedup(alpha: Fraction, c: Fraction, gamma: int) -> Fraction:
    """Leviathan et al. (2023), Theorem 3.8: (1 - α^(γ+1)) / ((1 - α)(γc + 1))."""
    return (1 - alpha ** (gamma + 1)) / ((1 - alpha) * (gamma * c + 1))


@pytest.mark.parametrize("alpha, c", [(Fraction(8, 10), Fraction(1, 10)), (Fraction(6, 10), Fraction(5, 100)),
                                      (Fraction(9, 10), Fraction(2, 10))])
def test_a_whole_number_optimum_without_a_closed_form_is_found_and_settled_exactly(alpha, c):
    # dS/dγ = 0 mixes α^γ·ln α with γ: no closed form; the best whole γ is still exact
    sol = solve("spec_draft_tokens", {"spec_accept_rate": str(alpha), "spec_draft_cost_ratio": str(c)},
                maximize="spec_speedup")
    best = max(range(1, 200), key=lambda g: _spec_speedup(alpha, c, g))
    assert sol.value == best
    step = sol.steps[0]
    assert step.kind == "optimum" and step.note == "numeric" and step.second < 0
    assert [g for g, _ in sol.steps[1].candidates] == [best - 1, best] or \
           [g for g, _ in sol.steps[1].candidates] == [best, best + 1]
    assert not sol.cancelled           # α and c set the optimum, though its formula has no symbols
    assert any(n.kind == "optimum_numeric" for n in sol.notes)


def test_a_real_optimum_without_a_closed_form_is_refused_not_approximated():
    with pytest.raises(NoSolutionError):
        solve("spec_draft_tokens", {"spec_accept_rate": "0.8", "spec_draft_cost_ratio": "0.1"},
              maximize="spec_speedup", rounding=False)
