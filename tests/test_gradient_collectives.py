"""Gradient collectives move the gradients' element size, not the weights'.

Issue 29, item 3: `derive solve batch_per_chip --min --require dp_compute_bound_node --hw h100
--preset dgx-h100 --preset fp8` answered 2,473.75 tokens per GPU, pricing the gradient AllReduce at
fp8's 1 byte per parameter; fp8 training multiplies in fp8 and keeps bf16 gradients (2 bytes), so the
bound is 4,947.5. The data-parallel AllReduce and the FSDP ReduceScatter move
grad_comm_bytes_per_param (2 B by default, untouched by a weight-precision preset); the FSDP
AllGathers move the weights. Every expected value is computed here by hand.
"""

from __future__ import annotations

import sympy

from derive import solve

H100_FP8 = 1_979 * 10**12      # FLOP/s, the h100 preset's dense fp8 peak (the fp8 preset's peak_flops)
H100_BF16 = 989 * 10**12       # FLOP/s, dense bf16
NODE_BW = 400 * 10**9          # B/s, dgx-h100's node egress


def min_batch(condition: str, presets: list[str]) -> sympy.Expr:
    return solve("batch_per_chip", {}, hw="h100", presets=["dgx-h100", *presets], bound="min",
                 require=[condition]).value


def test_fp8_data_parallelism_reduces_bf16_gradients():
    """2 B · 1,979e12 FLOP/s / (2 · 400e9 B/s) = 4,947.5 tokens per GPU (the fp8 weights' 1 B gave half)."""
    assert min_batch("dp_compute_bound_node", ["fp8"]) == sympy.Rational(2 * H100_FP8, 2 * NODE_BW)
    assert min_batch("dp_compute_bound_node", ["fp8"]) == sympy.Rational(49475, 10)


def test_bf16_data_parallelism_is_unchanged():
    """bf16 weights and gradients: 2 · 989e12 / (2 · 400e9) = 2,472.5, as before."""
    assert min_batch("dp_compute_bound_node", ["bf16"]) == sympy.Rational(24725, 10)


def test_fp8_fsdp_is_bound_by_the_backward_gradient_reduce_scatters():
    """Forward: AllGathers of 1-byte weights behind 4·B·D·F/C, B > 1·C/(2W) = 2,473.75. Backward: two
    AllGathers (1 B) and two ReduceScatters (2 B) behind 8·B·D·F/C, B > (1 + 2)·C/(4W) = 3,710.625; the
    larger binds."""
    assert min_batch("fsdp_compute_bound_node", ["fp8"]) == sympy.Rational(3 * H100_FP8, 4 * NODE_BW)
    assert min_batch("fsdp_compute_bound_node", ["fp8"]) == sympy.Rational(3710625, 1000)


def test_bf16_fsdp_is_the_data_parallel_bound():
    """Weights and gradients both 2 B: forward and backward both give 2 · 989e12 / (2 · 400e9) = 2,472.5."""
    assert min_batch("fsdp_compute_bound_node", ["bf16"]) == sympy.Rational(2 * H100_BF16, 2 * NODE_BW)


def test_the_data_parallel_allreduce_time_moves_gradient_bytes():
    """LLaMA-3 70B's MLP (D 8192, F 28672) with fp8 weights: 2 AllReduces of 2 B · D · F, each 2·V/W over
    the node's 400 GB/s: 4 · 2 · 8192 · 28672 / 400e9 = 4.697 ms, whatever the weights' 1 byte."""
    sol = solve("dp_comms_time_node", {"d_model": 8192, "d_ff": 28672}, hw="h100", presets=["dgx-h100", "fp8"])
    assert sol.value == sympy.Rational(4 * 2 * 8192 * 28672, NODE_BW)


def test_zero_traffic_counts_wire_bytes_not_the_memory_convention():
    """adam-10 leaves the gradients out of memory (grad_bytes_per_param = 0), but the AllReduce still moves
    them: 2 · 7e9 · 2 B = 28 GB per device per step (ZeRO's 2Ψ)."""
    sol = solve("dp_allreduce_bytes", {"params": 7e9}, presets=["adam-10"])
    assert sol.value == 2 * 7 * 10**9 * 2
