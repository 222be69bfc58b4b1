"""Beyond one chip: the slice and node presets, the collectives' regimes, and the worked problems of the
interconnect chapters, each checked against a value worked out by hand."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from derive import MissingInputsError, NoSolutionError, solve
from derive.documents.problems import load_problem

ROOT = Path(__file__).resolve().parent.parent
SLICES = ["v5e-4x4", "v5e-8x16", "v5e-16x16", "v5e-8x4", "v5p-16x16x16", "v5p-16x20x28", "v5p-4x4x4",
          "v5p-4x4x8", "v5p-2x2x4", "v5p-2x2x1"]


def _value(catalog, preset, quantity):
    return solve(quantity, presets=[preset], catalog=catalog).value


@pytest.mark.parametrize("preset", SLICES)
def test_slice_presets_count_their_chips_and_wrap_as_the_book_says(catalog, preset):
    axes = [int(_value(catalog, preset, f"slice_axis_{a}")) for a in "xyz"]
    wraps = [int(_value(catalog, preset, f"slice_wraps_{a}")) for a in "xyz"]
    assert _value(catalog, preset, "slice_chips") == axes[0] * axes[1] * axes[2]
    assert _value(catalog, preset, "num_devices") == axes[0] * axes[1] * axes[2]
    if preset.startswith("v5e"):
        # "TPU v5e only has a wraparound connection when one axis has size 16"
        assert wraps == [int(n == 16) for n in axes]
    else:
        # v5p: "any multiple of a full cube (e.g. 4x4x4 or 4x4x8) will have wraparounds"
        full_cubes = all(n % 4 == 0 for n in axes)
        assert wraps == [int(full_cubes)] * 3


@pytest.mark.parametrize("preset, gpus, egress", [("dgx-h100", 8, 400 * 10**9), ("dgx-b200", 8, 400 * 10**9),
                                                  ("gb200-nvl72", 72, 3600 * 10**9)])
def test_node_presets_egress_one_nic_of_400_gbps_per_gpu(catalog, preset, gpus, egress):
    assert _value(catalog, preset, "gpus_per_node") == gpus
    assert _value(catalog, preset, "network_node_bw") == egress == gpus * 50 * 10**9


def test_the_allgather_turns_latency_bound_below_45_kb_per_hop(catalog):
    # v5e, one wrapped axis of 4: 2 hops of 1 µs; bandwidth time V / 9e10 B/s
    at = F(4 * 45000)                                      # 4 shards of W·T_min each: the two terms meet
    for bytes_, regime in ((at / 2, "latency_bound"), (at * 2, "bandwidth_bound")):
        sol = solve("ici_allgather_time", {"collective_bytes": f"{bytes_} B", "axis_size": "4", "ici_axes": "1"},
                    hw="tpu-v5e", catalog=catalog)
        assert sol.regime == regime
        assert sol.value == max(F(2, 10**6), bytes_ / (2 * 45 * 10**9))
    # the AllReduce is twice the AllGather in both regimes, the AllToAll a quarter of its bandwidth term
    big = {"collective_bytes": "1 GB", "axis_size": "4", "ici_axes": "1"}
    ag = solve("ici_allgather_time", big, hw="tpu-v5e", catalog=catalog).value
    assert solve("ici_allreduce_time", big, hw="tpu-v5e", catalog=catalog).value == 2 * ag
    assert solve("ici_alltoall_time", big, hw="tpu-v5e", catalog=catalog).value == ag / 4


def test_any_unknown_of_a_collective_can_be_solved_for(catalog):
    # the axis of a line that makes a 1 GB AllGather take 16.7 ms at 4.5e10 B/s one way: (N-1)/N = 0.75
    t = F(10**9 * 3, 4 * 45 * 10**9)
    sol = solve("axis_size", {"ici_allgather_time_nowrap": f"{t} s", "collective_bytes": "1 GB"},
                hw="tpu-v5e", catalog=catalog)
    assert sol.value == 4
    # the bandwidth from the time of the 8-GPU ring AllGather (Quiz 2, Question 3)
    t = F(536870912 * 7, 8 * 450 * 10**9)
    sol = solve("nvlink_gpu_bw", {"nvlink_allgather_time": f"{t} s", "collective_bytes": "536870912 B",
                                  "axis_size": "8"}, catalog=catalog)
    assert sol.value == 450 * 10**9


def test_collective_critical_batches_are_tokens_and_named_apart_from_the_ridge_point(catalog):
    for link in ("ici", "nvlink", "node", "dcn", "pcie"):
        q = catalog.quantities[f"collective_critical_batch_{link}"]
        assert q.unit == "1"
        assert "not" in q.meaning.en and "ridge point" in q.meaning.en
    # three wrapped axes of a v5p: a third of one axis's 2550
    one = solve("collective_critical_batch_ici", {"ici_axes": "1"}, hw="tpu-v5p", catalog=catalog).value
    three = solve("collective_critical_batch_ici", {"ici_axes": "3"}, hw="tpu-v5p", catalog=catalog).value
    assert (one, three) == (F(2550), F(850))


EXPECTED_PROBLEMS = {
    "sb-tpus-p2p-transfer": {
        "array-bytes": F(2 * 8 * 128 * 8192),
        "hops": F(6),
        "first-byte": F(6, 10**6),
        "bandwidth-time": F(2 * 8 * 128 * 8192, 2 * 45 * 10**9),
        "total-time": F(6, 10**6) + F(2 * 8 * 128 * 8192, 2 * 45 * 10**9),
        "largest-latency-bound": F(6, 10**6) * 2 * 45 * 10**9,               # 540 kB
    },
    "sb-sharding-allgather": {
        "shard-bytes": F(512 * 8192 * 2),
        "array-bytes": F(2048 * 8192 * 2),
        "with-wraparound": F(2048 * 8192 * 2, 90 * 10**9),
        "without-wraparound": F(3 * 512 * 8192 * 2, 45 * 10**9),
        "small-array": F(3, 10**6),
        "latency-threshold": F(45000),
        "largest-latency-bound-array": F(4 * 45000),
    },
    "sb-sharding-matmul": {
        "two-chip-smallest-d": F(8756),                                       # ceil(2 · 1.97e14 / 4.5e10)
        "strategy1-largest-x": F(1),                                          # floor(8192 · 1.8e11 / (2 · 4.59e14))
        "strategy2-smallest-batch": F(2550),
        "strategy1-beats-strategy2": F(5100),
        "critical-batch-three-axes": F(850),
    },
    "sb-gpus-collectives": {
        "node-allgather": F(4096 * 65536 * 2 * 7, 8 * 450 * 10**9),
        "two-node-allgather": F(4096 * 65536 * 2 * 7, 8 * 450 * 10**9),     # the node level is slower
        "scaleout-part": F(4096 * 65536 * 2, 2 * 400 * 10**9),
        "critical-batch-node": F(2200),
        "critical-batch-beyond": F(2475),
    },
}


@pytest.mark.parametrize("stem", list(EXPECTED_PROBLEMS))
def test_interconnect_problems_by_hand(catalog, stem):
    problem = load_problem(ROOT / "reports" / f"{stem}.yaml", catalog)
    got = {q.id: q.solve(catalog).value for q in problem.questions}
    assert got == EXPECTED_PROBLEMS[stem]


def test_regimes_of_the_worked_problems(catalog):
    problem = load_problem(ROOT / "reports" / "sb-sharding-allgather.yaml", catalog)
    regimes = {q.id: q.solve(catalog).regime for q in problem.questions}
    assert regimes["without-wraparound"] == "bandwidth_bound"
    assert regimes["small-array"] == "latency_bound"
    problem = load_problem(ROOT / "reports" / "sb-gpus-collectives.yaml", catalog)
    assert {q.id: q.solve(catalog).regime for q in problem.questions}["two-node-allgather"] == "node_bound"


def test_nccl_ring_collectives_at_the_bus_bandwidth():
    # nccl-tests' PERFORMANCE.md: an AllReduce moves 2(n-1)/n of the buffer per GPU, a ReduceScatter or an
    # AllGather (n-1)/n; 1 GB on 8 GPUs at a bus bandwidth of 230 GB/s
    given = {"collective_bytes": "1 GB", "axis_size": 8, "nvlink_gpu_bw": "230 GB/s"}
    rs = solve("nvlink_reducescatter_time", given).value
    assert rs == solve("nvlink_allgather_time", given).value == F(7, 8) * F(1, 230)
    assert solve("nvlink_allreduce_time", given).value == 2 * rs


def test_an_allreduce_over_nodes_is_twice_the_allgather_and_the_slower_level_sets_it(catalog):
    # DGX H100: 8 GPUs at 450 GB/s inside the node, 400 GB/s out of it
    for nodes, regime in ((4, "node_bound"), (16, "scaleout_bound")):
        sol = solve("hierarchical_allreduce_time", {"collective_bytes": "1 GB", "num_nodes": str(nodes)},
                    hw="h100", presets=["dgx-h100"], catalog=catalog)
        node = F(2 * 10**9 * 7, 8 * 450 * 10**9)
        network = F(2 * 10**9 * (nodes - 1), nodes * 400 * 10**9)
        assert sol.value == max(node, network)
        assert sol.regime == regime
        ag = solve("hierarchical_allgather_time", {"collective_bytes": "1 GB", "num_nodes": str(nodes)},
                   hw="h100", presets=["dgx-h100"], catalog=catalog).value
        assert sol.value == 2 * ag


def test_nccl_bus_bandwidth_turns_into_a_collective_time_and_back(catalog):
    # nccl-tests: busbw = algbw · 2(n − 1)/n for an AllReduce, algbw · (n − 1)/n for an AllGather
    ar = solve("collective_time", {"allreduce_bus_bw": "360 GB/s", "axis_size": "8", "collective_bytes": "1 GB"},
               catalog=catalog)
    assert ar.value == F(10**9, 360 * 10**9) * F(2 * 7, 8)
    ag = solve("collective_time", {"allgather_bus_bw": "360 GB/s", "axis_size": "8", "collective_bytes": "1 GB"},
               catalog=catalog)
    assert ag.value == ar.value / 2
    # a ring at the GPU's one-way NVLink bandwidth reports that bandwidth as its bus bandwidth
    t = solve("nvlink_allreduce_time", {"collective_bytes": "1 GB", "axis_size": "8"}, hw="h100",
              catalog=catalog).value
    bus = solve("allreduce_bus_bw", {"collective_bytes": "1 GB", "axis_size": "8", "collective_time": f"{t} s"},
                catalog=catalog)
    assert bus.value == 450 * 10**9


# ---------------------------------------------------------------------------
# a slice whose axes are lines is not timed as a ring (premises: holds_when)

POP_QUIZ_2 = {"collective_bytes": f"{2048 * 8192 * 2} B", "axis_size": "4", "ici_axes": "1"}


def test_a_slice_preset_without_wraparound_times_the_allgather_as_a_line(catalog):
    # Pop Quiz 2: AllGather_Y on a v5e {X: 8, Y: 4}; "TPU v5e only has a wraparound connection when one axis has
    # size 16": 3 hops of one 8.39 MB shard at 4.5e10 B/s one way, not the ring's V / 9e10
    line = F(3 * 2048 * 8192 * 2, 4 * 45 * 10**9)
    sol = solve("ici_allgather_time", POP_QUIZ_2, hw="tpu-v5e", presets=["v5e-8x4"], catalog=catalog)
    assert sol.value == line and sol.regime == "bandwidth_bound"
    assert "ici_allgather_time_line" in sol.relations_used and "ici_allgather_time" not in sol.relations_used
    premises = [dict(n.data) for n in sol.notes if n.kind == "premise"]
    assert {(p["condition"], p["values"][0][:3:2]) for p in premises} == {
        ("collective_axes_are_lines", ("axis_wraps", "setup:v5e-8x4")), ("collective_one_axis", ("ici_axes", "given"))}
    # the same axis had it wraparound (typed over the preset), and a v5e 16x16 pod whose axes wrap: the ring
    ring = F(2048 * 8192 * 2, 90 * 10**9)
    typed = solve("ici_allgather_time", {**POP_QUIZ_2, "axis_wraps": "1"}, hw="tpu-v5e", presets=["v5e-8x4"],
                  catalog=catalog)
    pod = solve("ici_allgather_time", {**POP_QUIZ_2, "axis_size": "16"}, hw="tpu-v5e", presets=["v5e-16x16"],
                catalog=catalog)
    assert typed.value == pod.value == ring
    # without a slice, the book's convention (rings) is the catalog's default, and the answer says so
    plain = solve("ici_allgather_time", POP_QUIZ_2, hw="tpu-v5e", catalog=catalog)
    assert plain.value == ring
    assert [p.get("values") for p in plain.notes if p.kind == "premise"] == [(("axis_wraps", 1, "default"),)]
    # ReduceScatter and AllReduce follow the line too; the AllReduce is twice the AllGather
    for name, factor in (("ici_reducescatter_time", 1), ("ici_allreduce_time", 2)):
        assert solve(name, POP_QUIZ_2, hw="tpu-v5e", presets=["v5e-8x4"], catalog=catalog).value == factor * line


@pytest.mark.parametrize("target, given, words", [
    # no relation gives an AllToAll over a line: refused, naming the premise and the preset's value
    ("ici_alltoall_time", POP_QUIZ_2, "axis_wraps = 0 (preset v5e-8x4)"),
    # the book has no rule for a collective over several axes without wraparound
    ("ici_allgather_time", {**POP_QUIZ_2, "ici_axes": "2"}, "ici_axes = 2 (given)"),
])
def test_a_collective_the_line_relations_do_not_cover_is_refused(catalog, target, given, words):
    with pytest.raises(NoSolutionError) as exc:
        solve(target, given, hw="tpu-v5e", presets=["v5e-8x4"], catalog=catalog)
    assert words in str(exc.value) and "holds only where" in str(exc.value)


def test_a_collective_over_several_axes_has_the_books_longest_path_in_one_call(catalog):
    # 256 B over two wrapped axes of 4 (Question 2's v4p 4x4x4): (4 + 4)/2 = 4 hops of 1 µs, latency-bound
    equal = solve("ici_allgather_time", {"collective_bytes": "256 B", "axis_size": "4", "ici_axes": "2"},
                  hw="tpu-v4", catalog=catalog)
    assert (equal.value, equal.regime) == (F(4, 10**6), "latency_bound")
    # unequal axes of 4 and 8: (4 + 8)/2 = 6 hops; the bandwidth term doubles with the two axes
    unequal = solve("ici_allgather_time", {"collective_bytes": "256 B", "axis_size_sum": "12", "ici_axes": "2"},
                    hw="tpu-v4", catalog=catalog)
    assert unequal.value == F(6, 10**6)
    big = solve("ici_allgather_time", {"collective_bytes": "1 GB", "axis_size_sum": "12", "ici_axes": "2"},
                hw="tpu-v4", catalog=catalog)
    assert big.value == F(10**9, 2 * 90 * 10**9)
    # derive shard gives the same for AllGather_XY over a {X: 4, Y: 8} mesh
    from derive.sharding.matmul import sharding_plan

    p = sharding_plan("A[I, J_XY] · B[J, K]", {"I": 4, "J": 32, "K": 8}, {"X": 4, "Y": 8}, hw="tpu-v4")
    (c,) = p.collectives
    assert c.bytes.value == 256 and c.time.value == unequal.value


V5E_4X4_CORNERS = {"src_chip_x": "0", "src_chip_y": "0", "dst_chip_x": "3", "dst_chip_y": "3"}


def test_a_transfer_between_two_chips_is_one_call_from_their_coordinates(catalog):
    # TPU chapter, Question 5: bf16[8, 128, 8192] from TPU{0,0} to TPU{3,3} of a v5e 4x4 without wraparound:
    # 3 + 3 hops of 1 µs, over the 2 links leading right and down at 4.5e10 B/s each
    given = {**V5E_4X4_CORNERS, "array_elements": str(8 * 128 * 8192)}
    first = solve("p2p_first_byte_time", given, hw="tpu-v5e", presets=["v5e-4x4"], catalog=catalog)
    total = solve("p2p_time", given, hw="tpu-v5e", presets=["v5e-4x4"], catalog=catalog)
    assert first.value == F(6, 10**6)
    assert total.value == F(6, 10**6) + F(2 * 8 * 128 * 8192, 2 * 45 * 10**9)          # 192.4 µs
    assert total.regime is None               # counting which axes the route moves along is not a bottleneck
    assert solve("ici_links", V5E_4X4_CORNERS, presets=["v5e-4x4"], catalog=catalog).value == 2
    # on the 16x16 pod the axes wrap: 0 -> 15 is one hop round the wraparound on each axis
    far = {"src_chip_x": "0", "src_chip_y": "0", "dst_chip_x": "15", "dst_chip_y": "15"}
    assert solve("p2p_hops", far, presets=["v5e-16x16"], catalog=catalog).value == 2
    # on the 8x16 slice only Y (16) wraps: 0 -> 7 along X is 7 hops, 0 -> 15 along Y one
    mixed = {**far, "dst_chip_x": "7"}
    assert solve("p2p_hops", mixed, presets=["v5e-8x16"], catalog=catalog).value == 7 + 1
    # a route along one axis uses one link
    assert solve("ici_links", {**V5E_4X4_CORNERS, "dst_chip_y": "0"}, presets=["v5e-4x4"], catalog=catalog).value == 1


def test_hops_need_to_know_whether_the_axes_wrap(catalog):
    with pytest.raises(MissingInputsError) as exc:
        solve("p2p_hops", V5E_4X4_CORNERS, catalog=catalog)
    assert exc.value.missing[:1] == ("slice_wraps_x",) and "v5e-4x4" in str(exc.value)


def test_question_4_compares_the_two_strategies_from_the_books_own_inputs(catalog):
    # strategy 1 (multiply the shards, AllReduce C[B, F]) beats strategy 2 (gather B, multiply in full) when
    # 4·B·F/W_ICI <= 2·B·D·F/C: D >= 2·C/W_ICI = 2 · 4.59e14 / 1.8e11 = 5100 on a v5p axis, B and F cancelling
    beats = solve("matmul_inner", {"ici_axes": "1"}, hw="tpu-v5p", bound="min", require=["reduce_partials_beats_gather"],
                  rounding=False, catalog=catalog)
    assert beats.value == F(2 * 459 * 10**12, 2 * 90 * 10**9) == 5100
    # hiding the AllReduce behind strategy 1's own sharded matmul is another question: D >= 2·|X|·C/W_ICI
    hidden = solve("matmul_inner", {"ici_axes": "1", "matmul_ways": "2"}, hw="tpu-v5p", bound="min",
                   require=["case3_allreduce_hidden"], rounding=False, catalog=catalog)
    assert hidden.value == 2 * 5100


# ---------------------------------------------------------------------------
# errors that say what to do


def test_a_slice_preset_brings_its_chip(catalog):
    # "A single pod of 8960 chips" of TPU v5p, 96 GB each: no --hw needed, the slice names its chip
    sol = solve("pod_hbm_capacity", presets=["v5p-16x20x28"], catalog=catalog)
    assert sol.value == 8960 * 96 * 10**9
    assert {g.name: g.origin for g in sol.given}["hbm_capacity"] == "hw:tpu-v5p"
    # --hw replaces it: the sharding chapter's v4p 4x4x4 is a v5p-shaped slice of TPU v4 chips
    v4 = solve("pod_hbm_capacity", hw="tpu-v4", presets=["v5p-4x4x4"], catalog=catalog)
    assert v4.value == 64 * solve("hbm_capacity", hw="tpu-v4", catalog=catalog).value


def test_missing_inputs_name_what_stands_for_them(catalog):
    # a weights-only decode step: the KV cache's four inputs can be replaced by kv_cache_bytes, which may be 0
    with pytest.raises(MissingInputsError) as exc:
        solve("decode_step_time_min", {"params": "8e9"}, hw="tpu-v5e", catalog=catalog)
    assert "or give kv_cache_bytes instead of batch, d_model, num_layers, seq_len (0 leaves it out)" in str(exc.value)
    weights = solve("decode_step_time_min", {"params": "8e9", "kv_cache_bytes": "0", "num_devices": "1"},
                    hw="tpu-v5e", catalog=catalog)
    assert weights.value == F(8 * 10**9 * 2, 82 * 10**10)
    # a quantity only the catalog's defaults give is not offered as something "the inputs give"
    with pytest.raises(MissingInputsError) as exc:
        solve("pod_hbm_capacity", {"num_devices": "8"}, catalog=catalog)
    assert "training_bytes_per_param" not in str(exc.value) and "hbm_capacity" in str(exc.value)


@pytest.mark.parametrize("args, code, words", [
    (["--hw", "tpu-v5e", "--preset", "v5e-4x4"], 0, ""),
    (["--hw", "tpu-v6e", "--preset", "v5e-4x4"], 2, "--hw tpu-v6e is not the chip of slice v5e-4x4 (tpu-v5e)"),
    (["--hw", "tpu-v5e"], 2, "draws one slice preset: give --preset ID"),
])
def test_the_topology_plot_takes_the_slices_own_chip(cli, tmp_path, args, code, words):
    out = cli("plot", "topology", *args, "-o", str(tmp_path / "t.svg"))
    assert out.code == code, out.err
    assert words in out.err


# ---------------------------------------------------------------------------
# GPUs: an array sharded over an inner axis, the spine with SHARP, and derive shard's refusal

DF2 = 2 * 8192 * 32768          # bf16[D, F], D = 8192, F = 32768: the GPU chapter's Pop Quiz 3 array


@pytest.mark.parametrize("y, expected, regime", [
    (16, F(DF2 * 8, 400 * 10**9 * 16), "scaleout_bound"),     # Y > 8: "2·D·F / (Y · 50GB/s)"
    (4, F(DF2, 400 * 10**9), "scaleout_bound"),               # Y within the node: the node egress sees all of it
    (128, F(DF2, 450 * 10**9 * 8), "node_bound"),             # 16 nodes: the scale-out part falls below the node's
])
def test_a_gather_of_an_array_sharded_over_an_inner_axis_divides_by_the_nodes_it_spans(catalog, y, expected, regime):
    sol = solve("gpu_sharded_allgather_time", {"collective_bytes": f"{DF2} B", "inner_axis_size": str(y)},
                hw="h100", presets=["dgx-h100"], catalog=catalog)
    assert (sol.value, sol.regime) == (expected, regime)
    node = solve("gpu_sharded_node_time", {"collective_bytes": f"{DF2} B", "inner_axis_size": str(y)},
                 hw="h100", presets=["dgx-h100"], catalog=catalog)
    assert node.value == F(DF2, 450 * 10**9 * min(y, 8))       # bytes / W_GPU · 1 / min(Y, D_node)


def test_the_spine_allreduce_with_sharp_runs_at_each_units_uplink(catalog):
    # Quiz 4, Question 4: "51.2TB/s of bandwidth at the spine over 4 SUs, or 12.8TB/s per SU ... 2 * D * F / 12.8e12"
    sol = solve("sharp_spine_allreduce_time", {"collective_bytes": f"{DF2} B"}, presets=["h100-superpod"],
                catalog=catalog)
    assert sol.value == F(DF2, 128 * 10**11)


def test_derive_shard_refuses_a_gpu_and_says_what_times_its_collectives(cli):
    out = cli("shard", "A[I_X, J] * B[J_X, K]", "I=8192", "J=8192", "K=8192", "--mesh", "X=8", "--hw", "h100")
    assert out.code == 2 and out.out == ""
    assert "h100 is a GPU" in out.err and "nvlink_allgather_time" in out.err and len(out.err.strip().splitlines()) == 1
