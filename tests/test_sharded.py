"""Sharded matmuls in the Scaling Book's notation (derive.sharding_plan, derive shard): the four cases of
the sharding chapter on its own examples, its worked numbers, and notation mistakes as one-line errors.

The expected numbers are worked out here from the chapter's inputs (TPU v5e: 4.5e10 B/s per link each
way, 9e10 both ways, 1.97e14 FLOP/s; v4p (preset tpu-v4): 9e10 both ways; v5p: 1.8e11 both ways,
4.59e14 FLOP/s; bf16, 2 B; 1 µs per hop), independently of the engine; one test checks that every
number of a plan is the answer derive.solve gives for the same inputs.
"""

from __future__ import annotations

import itertools

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from derive import DeriveError, InputError, ShardingPlan, UnknownNameError, sharding_plan, solve
from derive.sharding.view import plan_to_dict, render_plan

R = sympy.Rational
US = R(1, 10**6)                 # one microsecond, in seconds
V5E_FLOPS = 197 * 10**12
V5E_BIDI = 9 * 10**10            # B/s, both directions of one axis
V5P_FLOPS = 459 * 10**12
V5P_BIDI = 18 * 10**10
SIZES = {"I": 8192, "J": 8192, "K": 32768}
MESH = {"X": 4, "Y": 4}


def plan(text: str, sizes=None, mesh=None, hw: str = "tpu-v5e", **kw) -> ShardingPlan:
    """The book's worked answers time every axis as a ring: unless a test names its lines, every axis the
    chip's slice rule would make a line is told --wraparound (and the plan marks those rings assumed)."""
    mesh = MESH if mesh is None else mesh
    if "no_wraparound" not in kw and "wraparound" not in kw and isinstance(mesh, dict):
        kw["wraparound"] = [x for x in mesh if isinstance(x, str)]
    return sharding_plan(text, SIZES if sizes is None else sizes, mesh, hw=hw, **kw)


def only(p: ShardingPlan):
    assert len(p.collectives) == 1, [c.text() for c in p.collectives]
    return p.collectives[0]


# ---------------------------------------------------------------------------
# case 1: "neither multiplicand has a sharded contracting dimension"


@pytest.mark.parametrize("text, output, ways", [       # the chapter's four examples of the lemma
    ("A[I, J] · B[J, K] -> C[I, K]", "C[I, K]", 1),
    ("A[I_X, J] · B[J, K] -> C[I_X, K]", "C[I_X, K]", 4),
    ("A[I, J] · B[J, K_Y] -> C[I, K_Y]", "C[I, K_Y]", 4),
    ("A[I_X, J] · B[J, K_Y] -> C[I_X, K_Y]", "C[I_X, K_Y]", 16),
])
def test_case_1_the_book_lemma_needs_no_communication(text, output, ways):
    p = plan(text)
    assert (p.case, p.cases, p.collectives) == (1, (1,), ())
    assert p.output.text() == output
    flops = 2 * 8192 * 8192 * 32768 // ways
    assert p.flops.value == flops
    assert p.compute_time.value == R(flops, V5E_FLOPS)
    assert p.hidden and p.ratio == 0


def test_case_1_output_follows_the_inputs_without_an_arrow():
    p = plan("A[I_X, J] * B[J, K_Y]")
    assert p.output.text() == "C[I_X, K_Y]"
    assert p.local_shape(p.local_out) == (2048, 8192)
    assert p.flops.display() == "274.9 GFLOP"          # 2·8192·8192·32768/16
    assert p.compute_time.display() == "1.395 ms"


def test_the_jax_snippet_local_shapes():
    """The chapter's code: a 2x2 mesh, A (8, 2048) as P('X', 'Y'), B (2048, 8192) as P(None, 'Y'), out P('X', 'Y');
    'the local shape of A is [4, 1024] and for B is [2048, 4096]'."""
    p = plan("A[I_X, J_Y] · B[J, K_Y] -> C[I_X, K_Y]", {"I": 8, "J": 2048, "K": 8192}, {"X": 2, "Y": 2})
    assert p.local_shape(p.matmul.lhs) == (4, 1024)
    assert p.local_shape(p.matmul.rhs) == (2048, 4096)
    # A's contracting dimension is sharded over Y: case 2, AllGather_Y(A), then case 1's local matmul
    assert p.case == 2
    assert only(p).text() == "AllGather_Y A[I_X, J_Y] -> A[I_X, J]"
    assert p.output.text() == "C[I_X, K_Y]"


# ---------------------------------------------------------------------------
# case 2: "one multiplicand has a sharded contracting dimension"


def test_case_2_pop_quiz_2_allgather_time():
    """AllGather_Y([E_Y, F]) on a v5e {X: 8, Y: 4}, E = 2048, F = 8192, bf16: 'The total array has size
    2048 * 8192 * 2 = 34MB' and '34e6 bytes / (9e10 bytes / s * 1) = 377us'."""
    p = plan("W[I, E] · B[E_Y, F]", {"I": 8192, "E": 2048, "F": 8192}, {"X": 8, "Y": 4})
    assert p.case == 2
    c = only(p)
    assert (c.kind, c.axes, c.array, c.reasons) == ("AllGather", ("Y",), "B", ("contracting",))
    assert c.bytes.value == 2048 * 8192 * 2 == 33554432
    assert c.time.value == R(33554432, V5E_BIDI)                        # 372.8 µs
    assert abs(float(c.time.value / (377 * US)) - 1) < 0.015             # the book rounds 33.55 MB to 34e6
    assert c.regime == "bandwidth_bound"


def test_case_2_pop_quiz_2_small_array_is_latency_bound():
    """E = F = 256: 'each shard has size 64 * 256 * 2 = 32kB ... so we're latency bound'. Over a wrapped axis of
    4 that is 2 hops of 1 µs; the book's 3 µs counts the 3 hops of an axis without wraparound."""
    p = plan("W[I, E] · B[E_Y, F]", {"I": 8192, "E": 256, "F": 256}, {"X": 8, "Y": 4})
    c = only(p)
    assert c.bytes.value == 256 * 256 * 2
    assert c.regime == "latency_bound"
    assert c.time.value == 2 * US


def test_case_2_question_2_allgather_x_on_v4p():
    """AllGather_X([B_X, D_Y]) on a v4p 4x4x4, B = 1024, D = 4096: '2 · 1024 · 4096 / (9e10 · 4) = 23 µs'. In a
    matmul contracting B, the operand A[B_X, D_Y] is gathered over X and stays split over Y."""
    p = plan("W[K, B] · A[B_X, D_Y]", {"K": 1024, "B": 1024, "D": 4096}, {"X": 4, "Y": 4, "Z": 4}, hw="tpu-v4")
    c = only(p)
    assert c.text() == "AllGather_X A[B_X, D_Y] -> A[B, D_Y]"
    assert c.bytes.value == 2 * 1024 * 4096 // 4
    assert c.time.value == R(2 * 1024 * 4096, 4 * V5E_BIDI)
    assert c.time.display() == "23.3 µs"
    assert c.regime == "bandwidth_bound"


def test_case_2_question_4_strategy_2_hides_from_a_batch_of_2550():
    """A[B, D] ·_D B[D_X, F] on v5p, AllGather_X of the weights first: the gather hides when the batch reaches
    C / W_ICI = 4.59e14 / 1.8e11 = 2550 (the book: 'we're comms bound when F < C / W_ICI = 2550'; the
    gathered weights are 2·D·F bytes, so it is the batch that counts)."""
    sizes = {"B": 2550, "D": 8192, "F": 32768}
    p = plan("A[B, D] ·_D B[D_X, F] -> C[B, F]", sizes, {"X": 4}, hw="tpu-v5p")
    c = only(p)
    assert c.bytes.value == 2 * 8192 * 32768                    # the whole of B[D, F]
    assert p.flops.value == 2 * 2550 * 8192 * 32768             # the matmul is not sharded
    assert c.time.value == R(2 * 8192 * 32768, V5P_BIDI)
    assert p.compute_time.value == R(2 * 2550 * 8192 * 32768, V5P_FLOPS)
    assert p.ratio == 1 and p.hidden
    smaller = plan("A[B, D] ·_D B[D_X, F] -> C[B, F]", {**sizes, "B": 2549}, {"X": 4}, hw="tpu-v5p")
    assert smaller.ratio == R(2550, 2549) and not smaller.hidden


def test_case_2_contracting_dimension_sharded_over_different_axes_gathers_both():
    p = plan("A[I, J_X] · B[J_Y, K]", {"I": 8, "J": 2048, "K": 8192}, {"X": 2, "Y": 2})
    assert p.case == 2
    assert [c.text() for c in p.collectives] == ["AllGather_X A[I, J_X] -> A[I, J]", "AllGather_Y B[J_Y, K] -> B[J, K]"]
    assert p.flops.value == 2 * 8 * 2048 * 8192


# ---------------------------------------------------------------------------
# case 3: "both multiplicands have sharded contracting dimensions"


def test_case_3_two_chip_partial_sums_hide_from_d_8756():
    """The roofline chapter's X[B, D]·Y[D, F] split along D over two v5e chips: the exchange of bf16[B, F]
    partial sums hides when 'D > 8755' (4·C/W_ICI = 8755.6)."""
    p = plan("X[B, D_X] · Y[D_X, F]", {"B": 4096, "D": 8756, "F": 4096}, {"X": 2})
    c = only(p)
    assert c.text() == "AllReduce_X C[B, F]{U_X} -> C[B, F]"
    assert c.bytes.value == 2 * 4096 * 4096
    assert c.time.value == R(2 * 2 * 4096 * 4096, V5E_BIDI)
    assert p.flops.value == 2 * 4096 * 4378 * 4096
    assert p.hidden and p.ratio == R(19700, 19701)
    below = plan("X[B, D_X] · Y[D_X, F]", {"B": 4096, "D": 8754, "F": 4096}, {"X": 2})
    assert not below.hidden


def test_case_3_question_4_strategy_1_is_comms_bound_at_d_8k():
    """A[B, D_X] ·_D B[D_X, F] then AllReduce_X on v5p: compute-bound only when D / 2X > C / W_ICI = 2550,
    'D ≈ 8k, so this would mean roughly X < 2'."""
    p = plan("A[B, D_X] ·_D B[D_X, F] -> C[B, F]", {"B": 2048, "D": 8192, "F": 32768}, {"X": 2}, hw="tpu-v5p")
    c = only(p)
    assert (c.kind, c.bytes.value) == ("AllReduce", 2 * 2048 * 32768)      # 'communicates 2 · 2 · B · F bytes'
    assert c.time.value == R(4 * 2048 * 32768, V5P_BIDI)
    assert p.flops.value == 2 * 2048 * 8192 * 32768 // 2                  # '2·B·D·F / X FLOPs'
    assert p.ratio == R(2 * 2 * 2550, 8192) and not p.hidden               # 1.245
    at = plan("A[B, D_X] ·_D B[D_X, F] -> C[B, F]", {"B": 2048, "D": 2 * 2 * 2550, "F": 32768}, {"X": 2},
              hw="tpu-v5p")
    assert at.ratio == 1 and at.hidden


def test_case_3_reduce_scatter_when_the_output_is_sharded():
    """'we can also perform a ReduceScatter instead of an AllReduce': A[I, J_X] · B[J_X, K] -> C[I, K_X], at half
    the AllReduce's time ('an AllReduce is twice as expensive as an AllGather')."""
    rs = plan("A[I, J_X] · B[J_X, K] -> C[I, K_X]")
    ar = plan("A[I, J_X] · B[J_X, K] -> C[I, K]")
    c, a = only(rs), only(ar)
    assert c.text() == "ReduceScatter_X C[I, K]{U_X} -> C[I, K_X]"
    assert a.text() == "AllReduce_X C[I, K]{U_X} -> C[I, K]"
    assert c.bytes.value == a.bytes.value == 2 * 8192 * 32768
    assert a.time.value == 2 * c.time.value
    assert rs.output.text() == "C[I, K_X]" and rs.local_shape(rs.output) == (8192, 8192)


def test_case_3_question_9_gather_then_multiply_against_multiply_then_reduce_scatter():
    """Question 9: AllGather A (scales as N·M) against ReduceScatter the output (N·K): 'the communication cost
    ratio of the two algorithms is M/K'."""
    sizes = {"I": 8192, "J": 8192, "K": 32768}
    gather = only(plan("A[I, J_X] * B[J, K]", sizes))
    scatter = only(plan("A[I, J_X] * B[J_X, K] -> C[I, K_X]", sizes))
    assert gather.kind == "AllGather" and scatter.kind == "ReduceScatter"
    assert gather.time.value / scatter.time.value == R(8192, 32768)


def test_case_3_output_left_unreduced():
    p = plan("A[I, J_X] · B[J_X, K] -> C[I, K]{U_X}")
    assert p.case == 3 and p.collectives == ()
    assert p.output.text() == "C[I, K]{U_X}"


def test_case_3_over_two_axes_scatters_one_and_reduces_the_other():
    p = plan("A[I, J_XY] * B[J_XY, K] -> C[I_X, K]", {"I": 1024, "J": 2048, "K": 8192})
    assert [c.text() for c in p.collectives] == ["ReduceScatter_X C[I, K]{U_XY} -> C[I_X, K]{U_Y}",
                                                 "AllReduce_Y C[I_X, K]{U_Y} -> C[I_X, K]"]
    assert [c.bytes.value for c in p.collectives] == [2 * 1024 * 8192, 2 * 1024 * 8192 // 4]


# ---------------------------------------------------------------------------
# case 4: "both multiplicands have a non-contracting dimension sharded along the same axis"


@pytest.mark.parametrize("output, gathered, result", [     # the chapter's two choices
    ("C[I, K_X]", "AllGather_X A[I_X, J] -> A[I, J]", "C[I, K_X]"),
    ("C[I_X, K]", "AllGather_X B[J, K_X] -> B[J, K]", "C[I_X, K]"),
])
def test_case_4_gathers_the_operand_the_output_asks_for(output, gathered, result):
    p = plan(f"A[I_X, J] · B[J, K_X] -> {output}")
    assert (p.case, p.cases, p.conflict_choice) == (4, (4, 1), "output")
    assert only(p).text() == gathered
    assert p.output.text() == result
    assert p.flops.value == 2 * 8192 * 8192 * 32768 // 4


@pytest.mark.parametrize("k, gathered", [(32768, "A"), (1024, "B")])
def test_case_4_without_an_output_gathers_the_smaller_operand(k, gathered):
    p = plan("A[I_X, J] · B[J, K_X]", {"I": 8192, "J": 8192, "K": k})
    assert (p.case, p.gathered_for_conflict, p.conflict_choice) == (4, gathered, "smaller")
    c = only(p)
    assert c.array == gathered and c.reasons == ("conflict",)
    assert c.bytes.value == 2 * 8192 * (8192 if gathered == "A" else k)


def test_case_4_and_case_2_in_one_allgather_question_2_3():
    """A[B_X, D_Y] · W[D, F_X]: A's contracting D is split over Y (case 2) and both split a free dimension over X
    (case 4); A, the smaller, is gathered over X and Y at once, AllGather_XY([B_X, D_Y]) of Question 2.3:
    '2 · 1024 · 4096 / 1.8e11 seconds, or 46 µs', and 4 hops of latency."""
    p = plan("A[B_X, D_Y] · W[D, F_X]", {"B": 1024, "D": 4096, "F": 8192}, {"X": 4, "Y": 4, "Z": 4}, hw="tpu-v4")
    assert p.cases == (4, 2)
    c = only(p)
    assert c.text() == "AllGather_XY A[B_X, D_Y] -> A[B, D]"
    assert c.reasons == ("conflict", "contracting") and c.cases == (4, 2)
    assert c.bytes.value == 2 * 1024 * 4096
    assert c.time.value == R(2 * 1024 * 4096, 2 * V5E_BIDI)                 # 46.6 µs
    assert c.regime == "bandwidth_bound"
    ring = [g for g in c.time.given if g.name in ("axis_size_sum", "ici_axes")]
    assert {g.name: g.value for g in ring} == {"axis_size_sum": 8, "ici_axes": 2}      # (4 + 4)/2 = 4 hops


def test_question_6_three_shardings_on_v5e_4x4():
    a = plan("A[I_X, J_Y] ·_J B[J_Y, K] -> C[I_X, K]")
    b = plan("A[I_X, J] ·_J B[J_X, K_Y] -> C[I_X, K_Y]")
    c = plan("A[I_X, J] ·_J B[J, K_Y] -> C[I_X, K_Y]")
    assert (a.case, only(a).text()) == (3, "AllReduce_Y C[I_X, K]{U_Y} -> C[I_X, K]")
    assert (b.case, only(b).text()) == (2, "AllGather_X B[J_X, K_Y] -> B[J, K_Y]")
    assert (c.case, c.collectives) == (1, ())
    assert a.flops.value == b.flops.value == c.flops.value == 2 * 8192 * 8192 * 32768 // 16


def test_an_output_with_less_sharding_is_gathered_after_the_matmul():
    p = plan("A[I_X, J] * B[J, K] -> C[I, K]")
    c = only(p)
    assert c.text() == "AllGather_X C[I_X, K] -> C[I, K]" and c.reasons == ("output",) and c.cases == ()
    assert c.bytes.value == 2 * 8192 * 32768


# ---------------------------------------------------------------------------
# the numbers are the engine's


def test_every_number_is_the_answer_solve_gives():
    p = plan("A[B_X, D_Y] · W[D, F_X]", {"B": 1024, "D": 4096, "F": 8192}, {"X": 4, "Y": 4}, hw="tpu-v5e")
    dims = dict(zip(("matmul_rows", "matmul_inner", "matmul_cols"), p.local_shape(p.local_out)[:1]
                    + p.local_shape(p.local_rhs)))
    assert dims == {"matmul_rows": 1024, "matmul_inner": 4096, "matmul_cols": 2048}
    assert p.flops.value == solve("matmul_flops", dims).value
    assert p.compute_time.value == solve("matmul_compute_time", dims, hw="tpu-v5e").value
    c = only(p)
    assert c.bytes.value == solve("array_bytes", {"array_elements": 1024 * 4096}).value
    # what a user types into derive solve for the same AllGather_XY over two axes of 4
    typed = solve("ici_allgather_time", {"collective_bytes": "8388608 B", "ici_axes": 2, "axis_size": 4},
                  hw="tpu-v5e")
    assert c.time.value == typed.value
    assert c.time.relations_used == typed.relations_used
    single = only(plan("W[I, E] · B[E_Y, F]", {"I": 8192, "E": 2048, "F": 8192}, {"X": 8, "Y": 4}))
    assert single.time.value == solve("ici_allgather_time", {"collective_bytes": 33554432, "axis_size": 4,
                                                             "ici_axes": 1}, hw="tpu-v5e").value
    ar = only(plan("A[I, J_X] · B[J_X, K]"))
    assert ar.time.value == solve("ici_allreduce_time", {"collective_bytes": ar.bytes.value, "axis_size": 4,
                                                         "ici_axes": 1}, hw="tpu-v5e").value


def test_engine_inputs_override_the_preset_and_the_default():
    base = only(plan("W[I, E] · B[E_Y, F]", {"I": 8192, "E": 2048, "F": 8192}, {"X": 8, "Y": 4}))
    int8 = only(plan("W[I, E] · B[E_Y, F]", {"I": 8192, "E": 2048, "F": 8192}, {"X": 8, "Y": 4},
                     given={"bytes_per_element": "1 B"}))
    assert int8.bytes.value * 2 == base.bytes.value
    assert [g.name for g in base.bytes.assumptions] == ["bytes_per_element"]   # bf16, the catalog default
    half = plan("A[I_X, J] * B[J, K_Y]", given={"peak_flops": "98.5 TFLOP/s"})
    assert half.compute_time.value == 2 * plan("A[I_X, J] * B[J, K_Y]").compute_time.value
    with pytest.raises(UnknownNameError):
        plan("A[I_X, J] * B[J, K_Y]", given={"peak_flop": "1 TFLOP/s"})
    with pytest.raises(InputError, match="set by the plan"):
        plan("A[I_X, J] * B[J, K_Y]", given={"collective_bytes": "1 MB"})


@pytest.mark.parametrize("text", [
    "A[I_X, J] * B[J, K_Y]", "A[I_X, J] @ B[J, K_Y]", "A[I_X, J] x B[J, K_Y]", "A[I_X,J]·B[J,K_Y]",
    "A[I_X, J] ⋅ B[J, K_Y] → C[I_X, K_Y]", "A[I_{X}, J] *_J B[J, K_{Y}] -> C[I_X, K_Y]",
])
def test_the_notation_reads_every_product_sign(text):
    p = plan(text)
    assert p.matmul.lhs.text() == "A[I_X, J]" and p.matmul.rhs.text() == "B[J, K_Y]" and p.case == 1


def test_axis_names_of_several_letters():
    p = plan("x[batch_{data}, dmodel] * w[dmodel, ff_model]", {"batch": 256, "dmodel": 4096, "ff": 16384},
             {"data": 4, "model": 4})
    assert p.output.text() == "C[batch_{data}, ff_{model}]"   # axes of several letters in braces
    assert p.local_shape(p.output) == (64, 4096)


# ---------------------------------------------------------------------------
# mistakes: one line each


@pytest.mark.parametrize("text, mesh, sizes, expect", [
    ("A[I_X, J * B[J, K]", MESH, SIZES, "expected ',' or ']', found '*' at character 10"),
    ("A[I_X, J] B[J, K]", MESH, SIZES, "expected a product sign"),
    ("A[I, J] % B[J, K]", MESH, SIZES, "unexpected '%' at character 9"),
    ("A[I, J] * B[J, K] ->", MESH, SIZES, "expected an array name such as A, found the end"),
    ("A[I_XX, J] * B[J, K]", MESH, SIZES, "I_XX shards I over X twice"),
    ("A[I_X, J_X] * B[J, K]", MESH, SIZES, "mesh axis X shards both I and J"),
    ("A[I_Z, J] * B[J, K]", MESH, SIZES, "mesh axis Z is not in the mesh (X=4, Y=4)"),
    ("A[I_X, J] * B[J, K]", MESH, {"I": 8192, "J": 8192}, "no size for dimension K; give it as K=VALUE"),
    ("A[I_X, J] * B[J, K]", MESH, {**SIZES, "I": 6}, "I=6 does not split evenly over X (4 shards)"),
    ("A[I, J] * B[J, K]", MESH, {**SIZES, "K": -8}, "dimension K must be a positive whole number"),
    ("A[I, J] * B[J, K]", MESH, {**SIZES, "L": 8}, "a size is given for L"),
    ("A[I, J] * B[K, L]", MESH, {"I": 1, "J": 1, "K": 1, "L": 1}, "share no dimension"),
    ("A[I, J] * B[J, I]", MESH, {"I": 1, "J": 1}, "share I and J"),
    ("A[I, J, L] * B[J, K]", MESH, SIZES, "has 3 dimension(s)"),
    ("A[I, J] * A[J, K]", MESH, SIZES, "share a name"),
    ("A[I, J] * B[J, K] -> C[I, J]", MESH, SIZES, "must name the dimensions I and K"),
    ("A[I, J_X] * B[J_X, K] -> C[I, K_Y]", MESH, SIZES, "shards K over Y, but the matmul gives C[I, K]"),
    ("A[I, J] * B[J, K] -> C[I, K]{U_X}", MESH, SIZES, "leaves no partial sums over X"),
    ("A[I, J]{U_X} * B[J, K]", MESH, SIZES, "an operand cannot be unreduced"),
    ("A[I, J] *_K B[J, K]", MESH, SIZES, "contracting dimension K must be named by both"),
    ("", MESH, SIZES, "the sharded matmul is empty"),
    ("A[I, J] * B[J, K]", {}, SIZES, "`mesh` is empty"),
    ("A[I, J] * B[J, K]", {"X": 0}, SIZES, "mesh axis X must be a positive whole number"),
    ("A[I, J] * B[J, K]", {"U": 2}, SIZES, "not U"),
    ("A" * 600, MESH, SIZES, "600 characters long"),
])
def test_mistakes_are_one_line_input_errors(text, mesh, sizes, expect):
    with pytest.raises(InputError) as err:
        sharding_plan(text, sizes, mesh, hw="tpu-v5e")
    message = str(err.value)
    assert expect in message
    assert "\n" not in message and len(message) < 300


# ---------------------------------------------------------------------------
# axes without wraparound: "TPU v5e only has a wraparound connection when one axis has size 16"

V5E_LINK = 45 * 10**9            # B/s, one direction of one link (the sharding chapter's 4.5e10)
QUIZ_2 = ("W[I, E] · B[E_Y, F]", {"I": 8192, "E": 2048, "F": 8192}, {"X": 8, "Y": 4})


def test_pop_quiz_2_allgather_over_an_axis_of_4_without_wraparound():
    """v5e {X: 8, Y: 4}, AllGather_Y of 8.4 MB shards: 'we have to do 3 hops for data from the edges to reach the
    other edge, so in theory we have more like T = 3 * 8.4e6 / 4.5e10 = 560us'."""
    text, sizes, mesh = QUIZ_2
    c = only(plan(text, sizes, mesh, no_wraparound=["Y"]))
    assert (c.kind, c.axes, c.wraps, c.regime) == ("AllGather", ("Y",), False, "bandwidth_bound")
    assert c.time.target == "ici_allgather_time_nowrap"
    assert c.bytes.value == 33554432
    assert c.time.value == R(3 * 8388608, V5E_LINK)                      # 559.2 µs
    assert abs(float(c.time.value / (560 * US)) - 1) < 0.002             # the book rounds 8.39 MB to 8.4e6


def test_pop_quiz_2_small_array_without_wraparound_takes_3_hops():
    """E = F = 256: 'we're latency bound. Since we have 3 hops, this will take roughly 3 * 1us = 3us'."""
    text, _, mesh = QUIZ_2
    c = only(plan(text, {"I": 8192, "E": 256, "F": 256}, mesh, no_wraparound=("Y",)))
    assert (c.wraps, c.regime, c.time.value) == (False, "latency_bound", 3 * US)


@pytest.mark.parametrize("n", [2, 4, 8, 16])
def test_an_allgather_without_wraparound_takes_2_x_minus_1_over_x_of_the_ring(n):
    """'it typically doubles the time of most throughput-bound comms': the ring takes V/W_bidi, the line
    (|X| − 1)/|X|·V/W with W = W_bidi/2, so the line takes 2·(|X| − 1)/|X| times as long (3/2 at 4, 15/8 at 16)."""
    sizes, mesh = {"I": 8192, "E": 2048 * n, "F": 8192}, {"X": 2, "Y": n}
    ring = only(plan("W[I, E] · B[E_Y, F]", sizes, mesh))
    line = only(plan("W[I, E] · B[E_Y, F]", sizes, mesh, no_wraparound=["Y"]))
    assert (ring.wraps, line.wraps) == (True, False)
    assert ring.bytes.value == line.bytes.value
    assert line.time.value == ring.time.value * R(2 * (n - 1), n)
    assert line.time.value == solve("ici_allgather_time_nowrap", {"collective_bytes": line.bytes.value,
                                                                  "axis_size": n}, hw="tpu-v5e").value


def test_reduce_scatter_and_allreduce_without_wraparound_cost_one_and_two_allgathers():
    """'ReduceScatter: Same as AllGather', 'AllReduce: 2 * AllGather', here over a line of 4."""
    kw = {"sizes": {"I": 8192, "J": 8192, "K": 8192}, "no_wraparound": ["X"]}
    rs = only(plan("A[I, J_X] · B[J_X, K] -> C[I, K_X]", **kw))
    ar = only(plan("A[I, J_X] · B[J_X, K]", **kw))
    assert (rs.kind, rs.wraps, rs.time.target) == ("ReduceScatter", False, "ici_reducescatter_time_nowrap")
    assert (ar.kind, ar.wraps, ar.time.target) == ("AllReduce", False, "ici_allreduce_time_nowrap")
    v = 8192 * 8192 * 2
    assert rs.bytes.value == ar.bytes.value == v
    assert rs.time.value == R(3 * v, 4 * V5E_LINK)                        # 1.118 ms
    assert ar.time.value == 2 * rs.time.value
    assert rs.time.value == solve("ici_allgather_time_nowrap", {"collective_bytes": v, "axis_size": 4},
                                  hw="tpu-v5e").value


def test_only_the_collectives_over_a_line_change():
    """Y has no wraparound; the case-4 gather over X still runs on X's ring."""
    p = plan("A[I_X, J] · B[J, K_X]", {"I": 8192, "J": 8192, "K": 32768}, no_wraparound=["Y"], wraparound=["X"])
    c = only(p)
    assert (c.axes, c.wraps, c.time.target) == (("X",), True, "ici_allgather_time")
    assert p.no_wraparound == ("Y",)


def test_several_axes_with_a_line_take_the_slower_rule():
    """The book gives no multi-axis rule without wraparound: one line through all 16 chips of X·Y,
    15 hops at one link's one-way bandwidth, whether one or both of the axes lack wraparound."""
    sizes = {"I": 8192, "J": 8192, "K": 8192}
    ring = only(plan("A[I, J_XY] · B[J_XY, K]", sizes))
    v = 8192 * 8192 * 2
    assert ring.time.value == 2 * R(v, 2 * V5E_BIDI)                      # the book's rule over 2 wrapped axes
    for lines in (["Y"], ["X", "Y"]):
        ar = only(plan("A[I, J_XY] · B[J_XY, K]", sizes, no_wraparound=lines))
        assert (ar.axes, ar.wraps, ar.time.target) == (("X", "Y"), False, "ici_allreduce_time_nowrap")
        assert ar.time.value == 2 * R(15 * v, 16 * V5E_LINK)              # 5.592 ms
        assert ar.time.value > ring.time.value


@pytest.mark.parametrize("lines, expect", [
    (["Z"], "--no-wraparound names axis 'Z', which is not in the mesh (X, Y)"),
    ("Q", "--no-wraparound names axis 'Q'"),
    ([4], "--no-wraparound names axis '4'"),
])
def test_a_line_outside_the_mesh_is_an_input_error(lines, expect):
    with pytest.raises(InputError) as err:
        plan("A[I_X, J] · B[J, K_Y]", no_wraparound=lines)
    assert expect in str(err.value) and "\n" not in str(err.value)


# ---------------------------------------------------------------------------
# the command line


README_COMMAND = ("shard", "A[I_X, J] * B[J_X, K_Y] -> C[I_X, K_Y]", "I=8192", "J=8192", "K=32768",
                  "--mesh", "X=4,Y=4", "--hw", "tpu-v5e")


def test_cli_prints_the_case_the_collectives_and_the_verdict(cli):
    run = cli(*README_COMMAND)
    assert run.code == 0, run.err
    out = run.out
    assert "Case 2: B[J_X, K_Y] is sharded along the contracting dimension J over X" in out
    assert "A[I_X, J]                    local shape [2048, 8192]" in out
    assert "FLOPs per chip: 274.9 GFLOP" in out
    assert "compute time per chip: 1.395 ms" in out
    assert "1. AllGather_X B[J_X, K_Y] -> B[J, K_Y]" in out
    # issue 29 item 6: a v5e axis of 4 has no wraparound, so the gather runs on a line: an edge shard crosses
    # 3 links one way, 3/4 · 134,217,728 B at 45 GB/s = 2.237 ms (the book's ring, 1.491 ms, is not this slice)
    assert "bytes: 134.2 MB    time: 2.237 ms, bandwidth-bound    (ici_allgather_time_nowrap)" in out
    assert "no wraparound on X: a line" in out and "bidirectional ring" not in out
    assert "Not hidden: the collectives take 2.237 ms, 1.6× the compute time of 1.395 ms" in out
    assert "on a tpu-v5e slice only an axis of 16 chips wraps around, so X is timed as a line" in out
    assert "bytes_per_element = 2 B (catalog default)" in out


def test_cli_keeps_the_books_ring_only_when_told_and_says_it_is_assumed(cli):
    run = cli(*README_COMMAND, "--wraparound", "X")
    assert run.code == 0, run.err
    # the book's bidirectional ring: V/W_ici = 134,217,728 B / 90 GB/s = 1.491 ms
    assert "bytes: 134.2 MB    time: 1.491 ms, bandwidth-bound    (ici_allgather_time)" in run.out
    assert "wraparound on X assumed (the book's ring; --wraparound" in run.out
    assert "X is a line there; the ring timed here is assumed (--wraparound X)" in run.out
    j = cli(*README_COMMAND, "--wraparound", "X", "--format", "json").json
    (c,) = j["collectives"]
    assert (c["wraps"], c["wraps_assumed"]) == (True, True) and j["rings_assumed"] == ["X"]
    assert c["time"]["exact"] == "131072/87890625"
    zh = cli(*README_COMMAND, "--wraparound", "X", "--lang", "zh").out
    assert "假设 X 上有环绕" in zh
    # without a chip there is no slice rule: the ring is the book's assumption, and says so
    bare = cli("shard", "A[I_X, J] * B[J_X, K]", "I=8192", "J=8192", "K=8192", "--mesh", "X=4",
               "peak_flops=197TFLOP/s", "ici_link_bw=45GB/s", "ici_hop_latency=1us", "--format", "json").json
    assert bare["collectives"][0]["wraps_assumed"] is True
    assert "no chip's slice rule" in bare["collectives"][0]["topology"]
    # an axis of 16 on a v5e wraps on the hardware: a ring, not assumed
    full = cli("shard", "A[I_X, J] * B[J_X, K]", "I=8192", "J=8192", "K=8192", "--mesh", "X=16", "--hw", "tpu-v5e",
               "--format", "json").json
    assert (full["collectives"][0]["wraps"], full["collectives"][0]["wraps_assumed"]) == (True, False)
    both = cli(*README_COMMAND, "--wraparound", "X", "--no-wraparound", "X")
    assert both.code == 2 and "both --wraparound and --no-wraparound" in both.err


def test_cli_json_has_the_same_fields(cli):
    run = cli(*README_COMMAND, "--format", "json")
    assert run.code == 0, run.err
    j = run.json
    assert (j["case"], j["cases"], j["contracting"], j["hidden"]) == (2, [2], "J", False)
    assert j["summary"][0].startswith("Case 2:")
    assert j["local_matmul"]["rhs"] == {"array": "B", "notation": "B[J, K_Y]", "local_shape": [8192, 8192]}
    assert j["flops_per_chip"]["value"] == 274877906944 and j["flops_per_chip"]["quantity"] == "matmul_flops"
    assert j["compute_time"]["exact"] == "67108864/48095703125"
    (c,) = j["collectives"]
    assert (c["kind"], c["axes"], c["array"], c["reasons"], c["regime"]) == (
        "AllGather", ["X"], "B", ["contracting"], "bandwidth_bound")
    assert (c["wraps"], c["wraps_assumed"]) == (False, False) and j["lines_from_hardware"] == ["X"]
    line = R(3 * 134217728, 4 * V5E_LINK)                         # 3 of 4 shards over one link, one way
    assert c["bytes"]["value"] == 134217728 and sympy.Rational(c["time"]["exact"]) == line
    assert c["time"]["quantity"] == "ici_allgather_time_nowrap" and c["time"]["regime_name"] == "bandwidth-bound"
    assert j["ratio"] == pytest.approx(float(line / R(67108864, 48095703125)))
    assert j["verdict"].startswith("Not hidden")


def test_cli_in_chinese_and_both(cli):
    zh = cli(*README_COMMAND, "--lang", "zh")
    assert zh.code == 0, zh.err
    assert "情形 2：B[J_X, K_Y] 沿收缩维度 J 按 X 分片" in zh.out
    assert "时间：2.237 ms，带宽瓶颈" in zh.out
    assert "无法掩盖" in zh.out and "Case" not in zh.out
    both = cli(*README_COMMAND, "--lang", "both")
    assert "情形 2" in both.out and "Case 2" in both.out


def test_cli_passes_other_names_to_the_engine(cli):
    run = cli("shard", "W[I, E] · B[E_Y, F]", "I=8192", "E=256", "F=256", "--mesh", "X=8,Y=4", "--hw", "tpu-v5e",
              "--wraparound", "Y", "ici_hop_latency=0.5us", "--format", "json")
    assert run.code == 0, run.err
    (c,) = run.json["collectives"]
    assert c["time"]["display"] == "1.456 µs" and c["regime"] == "bandwidth_bound"   # 2 hops of ½ µs < V/W


def test_cli_no_wraparound_json_says_which_collectives_wrap(cli):
    run = cli("shard", "W[I, E] * B[E_Y, F]", "I=8192", "E=2048", "F=8192", "--mesh", "X=8,Y=4", "--hw", "tpu-v5e",
              "--no-wraparound", "Y", "--format", "json")
    assert run.code == 0, run.err
    j = run.json
    assert j["no_wraparound"] == ["X", "Y"]          # Y as told, X (8 chips) by the v5e's slice rule
    (c,) = j["collectives"]
    assert (c["kind"], c["axes"], c["wraps"]) == ("AllGather", ["Y"], False)
    assert c["time"]["quantity"] == "ici_allgather_time_nowrap"
    assert sympy.Rational(c["time"]["exact"]) == R(3 * 8388608, V5E_LINK)   # 559.2 µs, the book's 560 µs
    assert c["topology"] == "no wraparound on Y: a line, about twice the time of a ring"
    wrapped = cli(*README_COMMAND, "--wraparound", "X,Y", "--format", "json").json
    assert wrapped["no_wraparound"] == [] and wrapped["collectives"][0]["wraps"] is True


def test_cli_no_wraparound_text_in_english_and_chinese(cli):
    args = ("shard", "W[I, E] * B[E_Y, F]", "I=8192", "E=2048", "F=8192", "--mesh", "X=8,Y=4", "--hw", "tpu-v5e",
            "--no-wraparound", "Y")
    en = cli(*args)
    assert en.code == 0, en.err
    assert "bytes: 33.55 MB    time: 559.2 µs, bandwidth-bound    (ici_allgather_time_nowrap)" in en.out
    assert "no wraparound on Y: a line, about twice the time of a ring" in en.out
    assert "as lines over X, Y" in en.out
    zh = cli(*args, "--lang", "zh")
    assert zh.code == 0, zh.err
    assert "Y 上无环绕" in zh.out and "wraparound" not in zh.out
    ring = cli("shard", "A[I_X, J] * B[J_X, K]", "I=8192", "J=8192", "K=8192", "--mesh", "X=16", "--hw", "tpu-v5e")
    assert "wraparound on X: a bidirectional ring" in ring.out


@pytest.mark.parametrize("args, expect", [
    (("A[I_X, J * B[J, K]", "I=8", "J=8", "K=8", "--mesh", "X=4"), "expected ',' or ']'"),
    (("A[I_XX, J] * B[J, K]", "I=8", "J=8", "K=8", "--mesh", "X=4"), "shards I over X twice"),
    (("A[I_X, J_X] * B[J, K]", "I=8", "J=8", "K=8", "--mesh", "X=4"), "mesh axis X shards both I and J"),
    (("A[I_Z, J] * B[J, K]", "I=8", "J=8", "K=8", "--mesh", "X=4"), "add it to --mesh or fix the subscript"),
    (("A[I_X, J] * B[J, K]", "I=8", "J=8", "--mesh", "X=4"), "no size for dimension K"),
    (("A[I, J] * B[J, K]", "I=8", "J=8", "K=8", "--mesh", "X=four"), "mesh axis X must be a positive whole"),
    (("A[I, J] * B[J, K]", "I=8", "J=8", "K=8", "--mesh", "X"), "--mesh 'X' is malformed"),
    (("A[I, J] * B[J, K]", "I=8", "J=8", "K=8"), "the following arguments are required: --mesh"),
    (("A[I, J] * B[J, K]", "I=8", "J=8", "K=8", "--mesh", "X=2"), "missing peak_flops"),
    (("A[I, J] * B[J, K]", "I=8", "J=8", "K=8.5", "--mesh", "X=2", "--hw", "tpu-v5e"), "positive whole number"),
    (("A[I, J] * B[J, K]", "I=8", "J=8", "K=8", "matmul_rows=3", "--mesh", "X=2"), "set by the plan"),
    (("A[I, J] * B[J, K]", "I=8", "J=8", "K=8", "foo=3", "--mesh", "X=2"), "unknown quantity 'foo'"),
    (("A[I_X, J] * B[J, K]", "I=8", "J=8", "K=8", "--mesh", "X=4", "--no-wraparound", "Y"),
     "--no-wraparound names axis 'Y', which is not in the mesh (X)"),
    (("A[I_X, J] * B[J, K]", "I=8", "J=8", "K=8", "--mesh", "X=4", "--no-wraparound", "X,"),
     "--no-wraparound 'X,' is malformed"),
])
def test_cli_mistakes_are_one_line_and_exit_2(cli, args, expect):
    run = cli("shard", *args)
    assert run.code == 2, (run.code, run.out, run.err)
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("derive: error: "), run.err
    assert "Traceback" not in run.err and run.out == ""
    assert expect in lines[0]


# ---------------------------------------------------------------------------
# fuzz: notation built from its own pieces and from mistakes never ends in anything but a plan or a DeriveError

PIECES = ["A", "B", "C", "W", "x", "[", "]", ",", "_", "{", "}", "U", "I", "J", "K", "X", "Y", "Z", "XY", "YX", "XX",
          " * ", " @ ", " x ", "·", "→", " -> ", "-", ">", "*_J", "%", "1", "\x00", "é", "(", ")", "__import__", " "]
TEMPLATES = ["A[I{a}, J{b}] * B[J{c}, K{d}]", "A[I{a}, J{b}] * B[J{c}, K{d}] -> C[I{e}, K{f}]",
             "A[I{a}, J{b}] * B[J{c}, K{d}] -> C[I{e}, K{f}]{{U{g}}}"]
SUBSCRIPTS = st.sampled_from(["", "", "", "", "_X", "_X", "_X", "_Y", "_Y", "_Y", "_XY", "_YX", "_Z", "_XX", "_{X,Y}",
                              "_"])


@st.composite
def notations(draw) -> str:
    if draw(st.integers(0, 3)):
        fields = {k: draw(SUBSCRIPTS) for k in "abcdefg"}
        return draw(st.sampled_from(TEMPLATES)).format(**fields)
    return "".join(draw(st.lists(st.sampled_from(PIECES), max_size=24)))


VALID_MESHES = st.sampled_from([{"X": 4, "Y": 4}, {"X": 2, "Y": 8, "Z": 2}, {"X": 1, "Y": 2}, {"X": 16, "Y": 2}])
MESHES = st.one_of(VALID_MESHES, VALID_MESHES, VALID_MESHES,
                   st.dictionaries(st.sampled_from(["X", "Y", "Z", "U", "1"]), st.integers(-1, 8), max_size=3))
SIZE_SETS = st.one_of(
    st.fixed_dictionaries({k: st.sampled_from([256, 1024, 4096, 32768]) for k in "IJK"}),
    st.fixed_dictionaries({k: st.sampled_from([256, 1024, 4096, 32768]) for k in "IJK"}),
    st.dictionaries(st.sampled_from(["I", "J", "K", "L"]),
                    st.one_of(st.integers(-2, 4096), st.sampled_from(["64", "1e3", "x", ""])), max_size=4))


LINES = st.one_of(st.none(), st.lists(st.sampled_from(["X", "Y", "Z", "U", ""]), max_size=3),
                  st.sampled_from(["X", "X,Y", ",", "Y,,"]))


@settings(max_examples=400, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(notations(), SIZE_SETS, MESHES, LINES, st.sampled_from(["tpu-v5e", "tpu-v5p"]))
def test_fuzz_the_notation(text, sizes, mesh, lines, hw):
    try:
        p = sharding_plan(text, sizes, mesh, hw=hw, no_wraparound=lines)
    except DeriveError as exc:
        assert "\n" not in str(exc) and str(exc)
        return
    assert p.case in (1, 2, 3, 4) and p.flops.value > 0 and p.compute_time.value > 0
    assert render_plan(p) and plan_to_dict(p)["case"] == p.case
    assert all(c.wraps == (not set(c.axes) & set(p.no_wraparound)) for c in p.collectives)
    assert not set(p.lines_on_hardware) & set(p.no_wraparound)


def test_every_sharding_over_two_axes_gives_a_valid_plan_that_loses_no_work():
    """Every way to shard A[I, J] · B[J, K] (and its output) over {X: 2, Y: 4}: either a one-line InputError
    or a plan whose local matmul is well formed, whose output is the one asked for, and whose chips share
    exactly the 2·I·J·K FLOPs (each chip's FLOPs times the ways the local product is split)."""
    subs = ["", "_X", "_Y", "_XY"]
    mesh, sizes = {"X": 2, "Y": 4}, {"I": 64, "J": 128, "K": 256}
    outputs = [None] + [f"C[I{e}, K{f}]" for e, f in itertools.product(subs, subs)] + ["C[I, K]{U_X}"]
    planned = 0
    for a, b, c, d in itertools.product(subs, subs, subs, subs):
        # every output for the operands sharded over one axis at most; the operands alone for the rest
        for out in (outputs if "_XY" not in (a, b, c, d) else [None]):
            text = f"A[I{a}, J{b}] * B[J{c}, K{d}]" + (f" -> {out}" if out else "")
            try:
                p = sharding_plan(text, sizes, mesh, hw="tpu-v5e")
            except InputError as exc:
                assert "\n" not in str(exc)
                continue
            planned += 1
            la, lb, lc = p.local_lhs, p.local_rhs, p.local_out
            assert la.dim("J").axes == lb.dim("J").axes == lc.unreduced, text          # the shards line up
            assert not set(la.dim("I").axes) & set(lb.dim("K").axes), text              # no case 4 left
            assert lc.dim("I").axes == la.dim("I").axes and lc.dim("K").axes == lb.dim("K").axes, text
            ways = 1
            for x in (*lc.axes, *lc.unreduced):
                ways *= mesh[x]
            assert p.flops.value * ways == 2 * 64 * 128 * 256, text
            if out is not None:
                wanted = p.matmul.out
                assert {d.name: set(d.axes) for d in p.output.dims} == {d.name: set(d.axes) for d in wanted.dims}
                assert set(p.output.unreduced) == set(wanted.unreduced), text
            else:
                assert not p.output.unreduced, text
            for coll in p.collectives:
                assert coll.time.value > 0 and coll.bytes.value > 0 and coll.regime in ("latency_bound",
                                                                                          "bandwidth_bound")
    assert planned > 200


@pytest.mark.parametrize("hw, mesh, lines", [
    ("tpu-v5e", {"X": 4, "Y": 4}, ("X",)),          # v5e wraps only axes of 16: a 4x4 is a mesh
    ("tpu-v5e", {"X": 16, "Y": 4}, ()),             # the gather is over X, an axis of 16: a ring
    ("tpu-v6e", {"X": 8, "Y": 16}, ("X",)),
    ("tpu-v5p", {"X": 4, "Y": 8}, ()),              # whole 4x4x4 cubes wrap on every axis
    ("tpu-v5p", {"X": 2, "Y": 4}, ("X",)),          # smaller than a cube: no wraparound at all
    ("tpu-v4", {"X": 4, "Y": 2}, ("X",)),
])
def test_a_ring_the_slice_would_not_have_is_named_with_the_chips_rule(hw, mesh, lines):
    """derive shard times what the chip's slice does: a v5e 4x4 has no wraparound, so X is timed as a line;
    told --wraparound, the book's ring is timed and the plan names the axes the rule makes lines."""
    plan = sharding_plan("A[I, J_X] * B[J_X, K]", {"I": 8192, "J": 8192, "K": 8192}, mesh, hw=hw)
    assert plan.lines_from_hardware == lines and plan.lines_on_hardware == ()
    assert plan.collectives[0].wraps == (not lines) and not plan.collectives[0].wraps_assumed
    told = sharding_plan("A[I, J_X] * B[J_X, K]", {"I": 8192, "J": 8192, "K": 8192}, mesh, hw=hw,
                         wraparound=lines)
    assert told.lines_on_hardware == lines and told.lines_from_hardware == ()
    assert told.collectives[0].wraps and told.collectives[0].wraps_assumed == bool(lines)


def test_without_a_chip_there_is_no_slice_rule_to_name():
    plan = sharding_plan("A[I, J_X] * B[J_X, K]", {"I": 8192, "J": 8192, "K": 8192}, {"X": 4, "Y": 4},
                         given={"ici_link_bw": "45 GB/s", "ici_hop_latency": "1 us", "peak_flops": "197 TFLOP/s"})
    assert plan.lines_on_hardware == () and plan.collectives[0].wraps


def test_cli_names_the_slice_rule_in_english_and_chinese(cli):
    ask = ["shard", "A[I, J_X] * B[J_X, K]", "--mesh", "X=4,Y=4", "--hw", "tpu-v5e", "I=8192", "J=8192", "K=8192"]
    en = cli(*ask).out
    assert "on a tpu-v5e slice only an axis of 16 chips wraps around, so X is timed as a line" in en
    assert "add --wraparound X for the book's ring" in en
    zh = cli(*ask, "--lang", "zh").out
    assert "tpu-v5e 切片上只有长 16 的轴有环绕，因此 X 按线状计时" in zh
    data = cli(*ask, "--format", "json").json
    assert data["lines_from_hardware"] == ["X"] and data["lines_on_hardware"] == []
    assert cli(*ask, "--wraparound", "X", "--format", "json").json["lines_on_hardware"] == ["X"]
    assert cli(*ask, "--no-wraparound", "X", "--format", "json").json["hardware_note"] == ""
