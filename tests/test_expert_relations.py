"""The relations issue 29 names as missing, asked as an expert would ask them (beyond their examples).

Vector (CUDA-core) FLOP/s from the SM count and its inverse for a clock; the ratio inputs the
Scaling Book types directly (α = C/W_ici, β = W_hbm/W_ici); the decode model-parallel bound; the
KV-cache budget net of the weights and the whole batch it holds. Every expected value is worked
out here by hand (the arithmetic is in the comment), never copied from derive's answer.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from derive import solve

G = 10**9


def exact(target, given=None, **kw) -> F:
    v = solve(target, given or {}, **kw).value
    return F(int(v.p), int(v.q))


def test_vector_flops_from_the_h100_preset():
    # 132 SMs x 128 FP32 lanes x 1.98e9 Hz x 2 FLOP (one FMA) = 66,908,160,000,000 FLOP/s
    assert exact("cuda_core_flops", hw="h100") == F(132 * 128 * 198 * 10**7 * 2)


def test_vector_flops_from_the_a100_preset():
    # 108 x 64 x 1.41e9 x 2 = 19,491,840,000,000 FLOP/s, the datasheet's 19.5 TFLOPS
    assert exact("cuda_core_flops", hw="a100") == F(108 * 64 * 141 * 10**7 * 2)


def test_the_clock_a_published_fp32_figure_implies():
    # 67e12 / (132 x 128 x 2) = 1,982,954,545.45... Hz: the H100's 67 TFLOPS at its 1.98 GHz boost clock
    assert exact("gpu_clock", {"sm_count": 132, "fp32_cores_per_sm": 128, "cuda_core_flops": "67 TFLOP/s"}) \
        == F(67 * 10**12, 132 * 128 * 2)


def test_alpha_and_beta_from_the_v5e_preset():
    # one v5e axis: 2 x 4.5e10 = 9e10 B/s both ways; alpha = 1.97e14 / 9e10 = 2188.9, beta = 8.2e11 / 9e10 = 9.11
    assert exact("alpha_ici", {"ici_axes": 1}, hw="tpu-v5e") == F(197 * 10**12, 9 * 10**10)
    assert exact("beta_hbm_ici", {"ici_axes": 1}, hw="tpu-v5e") == F(82 * 10**10, 9 * 10**10)


def test_alpha_typed_directly_gives_the_tensor_parallel_bound():
    # the book's Y < F / alpha in bf16: 28672 / 2550 = 11.24, with neither C nor W_ici given
    assert exact("tp_max_degree_ici", {"d_ff": 28672, "alpha_ici": 2550}, presets=["bf16"]) == F(28672, 2550)


def test_decode_bound_from_hardware_halves_with_int8_weights():
    # Y = (e_w / e_a) F / (B beta), beta = 8.2e11 / 9e10: bf16 28672 / (64 x 9.11) = 49.2; int8 weights, bf16
    # activations half of it, 24.6
    beta = F(82 * 10**10, 9 * 10**10)
    given = {"d_ff": 28672, "batch": 64, "ici_axes": 1}
    assert exact("decode_tp_max_degree", given, hw="tpu-v5e", presets=["bf16"]) == F(28672) / (64 * beta)
    assert exact("decode_tp_max_degree", given, hw="tpu-v5e", presets=["w8a16"]) == F(28672) / (64 * beta) / 2


def test_largest_decode_degree_as_a_bound():
    # the condition decode_tp_hbm_bound as --max: Y <= 28672 / (64 x 9.11) = 49.17, so 49 whole chips
    sol = solve("tensor_parallel", {"d_ff": 28672, "d_model": 8192, "batch": 64, "ici_axes": 1},
                hw="tpu-v5e", presets=["bf16"], bound="max", require=["decode_tp_hbm_bound"])
    assert sol.value == 49


def test_kv_budget_net_of_the_weights():
    # LLaMA 3-70B (70e9 parameters) in bf16 on 16 v5e: 16 x 16 GB - 140 GB = 116 GB
    assert exact("kv_cache_budget", {"num_devices": 16}, hw="tpu-v5e", model="llama3-70b",
                 presets=["bf16"]) == 116 * G


def test_kv_budget_is_zero_when_the_weights_do_not_fit():
    # 4 x 16 GB = 64 GB < 140 GB of bf16 weights: nothing left, and no batch fits
    assert exact("kv_cache_budget", {"num_devices": 4}, hw="tpu-v5e", model="llama3-70b", presets=["bf16"]) == 0
    assert exact("kv_max_batch", {"num_devices": 4, "seq_len": 8192}, hw="tpu-v5e", model="llama3-70b",
                 presets=["bf16"]) == 0


@pytest.mark.parametrize("seq_len, batch", [
    (8192, 43),     # 116e9 / (2 x 8 x 128 x 80 x 2 B x 8192) = 116e9 / 2,684,354,560 = 43.2
    (32768, 10),    # a quarter of the caches: 10.8
    (2048, 172),    # four times as many: 172.9
])
def test_kv_max_batch_counts_whole_sequences(seq_len, batch):
    assert exact("kv_max_batch", {"num_devices": 16, "seq_len": seq_len}, hw="tpu-v5e", model="llama3-70b",
                 presets=["bf16"]) == batch


def test_tokens_evicted_per_step():
    # B (P + G) / G with a 2048-token prompt and 1024 generated at batch 64: 64 x 3072 / 1024 = 192
    assert exact("kv_tokens_evicted_per_step", {"batch": 64, "gen_tokens": 1024, "seq_len": 3072}) == 192
