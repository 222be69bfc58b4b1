"""Serving economics (formulas/serving_cost.yaml) and context parallelism
(formulas/context_parallel.yaml), through the real solver.

Each expected value is recomputed here by hand from the source's inputs, the arithmetic written
out; answers come back in base units (USD, s, J, g, B).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from derive import solve
from derive.errors import DeriveError


def exact(sol) -> F:
    assert sol.value.is_Rational, sol.value
    return F(int(sol.value.p), int(sol.value.q))


# ---------------------------------------------------------------- cost per token (DeepSeek day 6)

def test_cost_per_million_output_tokens_on_an_h800_node():
    # 8 GPUs x 2 USD/h = 16 USD/h; 14,800 tokens/s x 3600 s = 53.28 M tokens/h: 16 / 53.28 = 0.3003 USD
    sol = solve("cost_per_million_tokens", {"num_devices": 8, "device_hour_price": "2 USD/h",
                                            "serving_token_throughput": "14800/s"})
    assert exact(sol) == F(16 * 10**6, 3600 * 14800)
    assert float(exact(sol)) == pytest.approx(0.3003003)


def test_break_even_throughput_of_a_price():
    # R1's 2.19 USD per million output tokens covers 16 USD/h from 16e6 / (3600 x 2.19) = 2029.4 tokens/s
    sol = solve("serving_token_throughput", {"num_devices": 8, "device_hour_price": "2 USD/h",
                                             "token_price": "2.19 USD"},
                bound="min", require=["price_covers_cost"], rounding=False)
    assert exact(sol) == F(16 * 10**6 * 100, 3600 * 219)


def test_day_cost_revenue_and_margin():
    day = {"num_devices": 1814, "serving_duration": "24 h", "device_hour_price": "2 USD/h"}
    # 226.75 nodes x 8 = 1814 GPUs x 24 h x 2 USD/h = 87,072 USD, the source's figure exactly
    assert exact(solve("serving_cost", day)) == 87072
    tokens = {"cache_hit_input_tokens": 342e9, "cache_miss_input_tokens": 266e9, "served_output_tokens": 168e9,
              "price_cache_hit_input": "0.14 USD", "price_cache_miss_input": "0.55 USD", "price_output": "2.19 USD"}
    # 342e3 x 0.14 + 266e3 x 0.55 + 168e3 x 2.19 = 47,880 + 146,300 + 367,920 = 562,100 USD
    assert exact(solve("serving_revenue", tokens)) == 562100
    # (562,100 - 87,072) / 87,072 = 5.4556 (the source's 545% from its 562,027)
    assert exact(solve("cost_profit_margin", {**day, **tokens})) == F(562100, 87072) - 1


def test_a_loss_has_no_positive_margin():
    # revenue below cost: (80,000 - 87,072)/87,072 < 0, not a value of a positive quantity
    with pytest.raises(DeriveError):
        solve("cost_profit_margin", {"serving_revenue": "80000 USD", "serving_cost": "87072 USD"})


# ---------------------------------------------------------------- energy and carbon per token

def test_energy_and_carbon_per_token():
    setup = {"num_devices": 4, "device_power": "700 W", "pue": 1.1, "serving_token_throughput": "100/s"}
    # 4 x 700 W x 1.1 = 3080 W over 100 tokens/s = 30.8 J per token
    assert exact(solve("energy_per_token", setup)) == F(308, 10)
    # 30.8 J x 0.385 kg/kWh = 30.8 x 385 g / 3.6e6 J = 0.003294 g per token
    sol = solve("carbon_per_token", {**setup, "carbon_intensity": "0.385 kg/kWh"})
    assert exact(sol) == F(308, 10) * 385 / (36 * 10**5)


def test_energy_per_token_without_pue_takes_the_devices_alone():
    # pue defaults to 1: 1500 W / 41.8 tokens/s = 35.885 J
    sol = solve("energy_per_token", {"serving_power": "1.5 kW", "serving_token_throughput": "41.8/s"})
    assert exact(sol) == F(1500 * 10, 418)
    assert "pue" in {g.name for g in sol.assumptions}


# ---------------------------------------------------------------- ring attention and Ulysses

def test_ring_minimal_block_is_flops_over_bandwidth_in_bf16():
    # c >= e F / (2 B): 2 B x 312e12 / (2 x 12.5e9) = 24,960 (the paper's A100 InfiniBand row prints 24.5e3)
    sol = solve("ring_min_block_size", {"act_bytes_per_element": "2 B", "peak_flops": "312 TFLOP/s",
                                        "link_bw": "12.5 GB/s"})
    assert exact(sol) == 24960
    # fp32 activations double the block: 4 B x 312e12 / (2 x 300e9) = 2080
    sol = solve("ring_min_block_size", {"act_bytes_per_element": "4 B", "peak_flops": "312 TFLOP/s",
                                        "link_bw": "300 GB/s"})
    assert exact(sol) == 2080


def test_most_ring_hosts_that_still_hide_the_transfer():
    # seq/P >= e F / (2 B): P <= 2 x 50e9 x 1,048,576 / (2 x 989e12) = 53.01, so 53 hosts
    sol = solve("context_parallel", {"seq_len": 1048576, "batch": 1, "d_model": 8192, "act_bytes_per_element": "2 B",
                                     "peak_flops": "989 TFLOP/s", "link_bw": "50 GB/s"},
                bound="max", require=["ring_attention_overlaps"])
    assert sol.value == 53


def test_ring_activation_memory_does_not_grow_with_the_sequence():
    # six blocks of b c h bf16 elements: 6 x 1 x 2048 x 8192 x 2 B = 201,326,592 B at 64K over 32 hosts
    base = {"batch": 1, "d_model": 8192, "act_bytes_per_element": "2 B"}
    short = solve("ring_activation_bytes", {**base, "seq_len": 65536, "context_parallel": 32})
    longer = solve("ring_activation_bytes", {**base, "seq_len": 131072, "context_parallel": 64})
    assert exact(short) == exact(longer) == 6 * 2048 * 8192 * 2


def test_ulysses_alltoall_volume_is_constant_when_sequence_and_devices_grow_together():
    # 4 N h e / P: 4 x 262,144 x 4096 x 2 B / 64 = 134,217,728 B; doubling N and P keeps it
    base = {"batch": 1, "d_model": 4096, "act_bytes_per_element": "2 B"}
    one = solve("ulysses_alltoall_bytes", {**base, "seq_len": 262144, "context_parallel": 64})
    two = solve("ulysses_alltoall_bytes", {**base, "seq_len": 524288, "context_parallel": 128})
    assert exact(one) == exact(two) == 4 * 262144 * 4096 * 2 // 64
    # over 450 GB/s: 134,217,728 / 450e9 s = 298.3 us
    sol = solve("ulysses_alltoall_time", {**base, "seq_len": 262144, "context_parallel": 64, "link_bw": "450 GB/s"})
    assert exact(sol) == F(134217728, 450 * 10**9)
