"""Beyond one chip: the slice and node presets, the collectives' regimes, and the worked problems of the
interconnect chapters, each checked against a value worked out by hand."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from derive import solve
from derive.problems import load_problem

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
