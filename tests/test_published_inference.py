"""Published inference and serving numbers, each asked as one `derive solve` with the source's inputs.

In the style of tests/test_published_elsewhere.py: every expected value is computed here by hand from
the inputs the source states (source and statement in the comment), never copied from derive's
answer; the published figure is compared too, to the digits it states (``rel`` is the rounding the
source's figure carries). A case the engine could not answer before this file's commits (a missing
relation or preset) says so. Where a source's figure does not follow from its own inputs, the
relation is kept and the discrepancy is written down (an erratum) and checked as such.
"""

from __future__ import annotations

import pytest
import sympy

from derive import solve

GiB = 2**30
T, G = 10**12, 10**9


def value(target, given=None, **kw):
    return float(solve(target, given or {}, **kw).value)


# PaLM 540B (Chowdhery et al. 2022, Table 1): 540.35B parameters, 118 layers, 48 heads of 256,
# d_model 18432, d_ff = 4·d_model, SwiGLU, a 256k vocabulary shared by input and output
PALM_PARAMS = (118 * (18432 * 48 * 256 * 2 + 2 * 18432 * 256 + 3 * 18432 * 73728 + 18432)
               + 256000 * 18432 + 18432)
# Mistral 7B (Jiang et al. 2023, Table 1): 32 layers, d 4096, 32 heads of 128, 8 KV heads, hidden 14336
MISTRAL_PARAMS = (32 * (4096 * 32 * 128 * 2 + 2 * 4096 * 8 * 128 + 3 * 4096 * 14336 + 2 * 4096)
                  + 2 * 32000 * 4096 + 4096)

CASES = [
    # --- kipply, "Transformer Inference Arithmetic" (2022) ---------------------------------------
    # "the flops:byte ratio ... for an A100 ... 312e12 / 1.5e12 = 208" (the names flops_to_byte,
    # ops_to_byte and kv_cache_size the sources use were unknown before; now aliases)
    ("kipply-a100-208", "flops_to_byte", {"peak_flops": "312 TFLOP/s", "hbm_bw": "1.5 TB/s"}, {},
     312e12 / 1.5e12, 208, 0),
    # the 52B model (64 layers, d_model 8192) by the 12·L·d² count; before: `params` asked for 11
    # more inputs (vocabulary, norms, MLP matrices, experts) and no relation gave the 12·L·d² count
    ("kipply-52b-12ld2", "non_embedding_params", {"num_layers": 64, "d_model": 8192}, {},
     12 * 64 * 8192**2, 52e9, 0.01),
    # KV cache per token "2 · 2 · n_layers · n_heads · d_head" for the 52B model in fp16: about 2 MB
    ("kipply-52b-kv-per-token", "kv_bytes_per_token", {"num_layers": 64, "d_model": 8192, "num_heads": 64},
     {"presets": ["fp16"]}, 2 * 2 * 64 * 8192, 2e6, 0.05),
    # --- NVIDIA, "Mastering LLM Techniques: Inference Optimization" (2023) -----------------------
    # KV cache = batch · seq · 2 · layers · (heads · d_head) · bytes: Llama 2 7B, batch 1, 4096 tokens,
    # fp16: "1 * 4096 * 2 * 32 * 4096 * 2 bytes, which is ~2 GB" (2 GiB exactly)
    ("nvidia-llama2-7b-kv-2gb", "kv_cache_size", {"seq_len": 4096, "batch": 1},
     {"model": "llama2-7b", "presets": ["fp16"]}, 1 * 4096 * 2 * 32 * 4096 * 2, 2 * GiB, 0),
    # Databricks, "LLM Inference Performance Engineering" (2023): a 7B model in 16-bit (14 GB) at a
    # TPOT of 14 ms on 2 TB/s is an MBU of 50%, so the memory-bound floor is half of it, 7 ms (the
    # alias tpot_min is new; `tpot` is the full roofline step and asks for FLOP/s and batch)
    ("databricks-tpot-floor-7ms", "tpot_min",
     {"weight_bytes": "14 GB", "kv_cache_bytes": 0, "hbm_bw": "2 TB/s", "num_devices": 1}, {},
     14e9 / 2e12, 14e-3 * 0.50, 0),
    # --- Frantar et al. 2023 (GPTQ) ----------------------------------------------------------------
    # "GPT3-175B ... require 326GB (in compact float16 format)": 175e9 · 2 B in GiB
    ("gptq-175b-326gb", "weight_bytes", {"params": "175e9"}, {"presets": ["fp16"]},
     175e9 * 2, 326 * GiB, 0.002),
    # 3-bit weights put OPT-175B "inside a single GPU" (an 80 GB A100): 175e9 · 3/8 B = 65.6 GB
    ("gptq-175b-3bit-one-a100", "num_devices", {"params": "175e9", "weight_bytes_per_param": "3 bit"},
     {"hw": "a100", "bound": "min", "require": ["weights_fit"]}, 1, 1, 0),
    # --- Dettmers et al. 2022 (LLM.int8()), Hugging Face's "A Gentle Introduction to 8-bit Matrix
    # Multiplication" (2022): BLOOM-176B is 352 GB in bf16, 176 GB in int8
    ("llmint8-bloom-352gb", "weight_bytes", {"params": "176e9"}, {"presets": ["bf16"]}, 176e9 * 2, 352e9, 0),
    ("llmint8-bloom-176gb", "weight_bytes", {"params": "176e9"}, {"presets": ["int8"]}, 176e9 * 1, 176e9, 0),
    # --- Kwon et al. 2023 (vLLM): "a 13B-parameter LLM on an NVIDIA A100 GPU with 40GB RAM ...
    # The parameters (26GB, 65%)"
    ("vllm-13b-26gb", "weight_bytes", {"params": "13e9"}, {"presets": ["fp16"]}, 13e9 * 2, 26e9, 0),
    # --- Jiang et al. 2023 (Mistral 7B); before: no Mistral preset and no sliding-window relation ----
    # "Mistral 7B is a 7.3 billion parameter model" (the announcement; 7,241,732,096 in its config)
    ("mistral-7b-params", "params", {}, {"model": "mistral-7b", "presets": ["bf16"]},
     MISTRAL_PARAMS, 7.3e9, 0.01),
    # Rolling buffer cache, W = 4096: "for a sequence length of 32k tokens, this reduces the cache
    # memory usage by 8x"
    ("mistral-rolling-cache-8x", "kv_window_saving", {"seq_len": 32768}, {"model": "mistral-7b"},
     32768 / 4096, 8, 0),
    # "at the last layer, using a window size of W = 4096, we have a theoretical attention span of
    # approximately 131K tokens" (32 layers × 4096)
    ("mistral-attention-span-131k", "window_attention_span", {}, {"model": "mistral-7b"},
     32 * 4096, 131e3, 0.001),
    # --- PaLM 540B and Pope et al. 2022, "Efficiently Scaling Transformer Inference" -------------
    # PaLM Table 1: 540.35B parameters (before: no PaLM preset)
    ("palm-540b-params", "params", {}, {"model": "palm-540b", "presets": ["bf16"]},
     PALM_PARAMS, 540.35e9, 0.0005),
    # Pope et al.: multi-query attention shrinks the KV cache "by a factor of n_heads", 48 for PaLM
    # 540B (new: gqa_group_size)
    ("pope-mqa-48x", "gqa_group_size", {}, {"model": "palm-540b"}, 48 / 1, 48, 0),
    # --- Ainslie et al. 2023 (GQA): T5-XXL's 64 heads in 8 groups ("GQA-8"), 8 query heads per KV head
    ("gqa-t5-xxl-8", "gqa_group_size", {"num_heads": 64, "num_kv_heads": 8}, {}, 64 / 8, 8, 0),
    # Touvron et al. 2023 (Llama 2): the 70B model's 64 query heads share 8 KV heads
    ("llama2-70b-gqa-8", "kv_cache_reduction", {}, {"model": "llama2-70b"}, 64 / 8, 8, 0),
    # Baseten, "A guide to LLM inference and performance" (2023): the A10's ops:byte ratio,
    # 125 TFLOPS of fp16 over 600 GB/s, "208.3"
    ("baseten-a10-208.3", "ops_to_byte", {"peak_flops": "125 TFLOP/s", "hbm_bw": "600 GB/s"}, {},
     125e12 / 600e9, 208.3, 0.0005),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_published_number(case):
    _, target, given, kw, by_hand, published, rel = case
    got = value(target, given, **kw)
    assert got == pytest.approx(by_hand, rel=1e-12)
    assert by_hand == pytest.approx(published, rel=rel, abs=0)


def test_kipply_critical_batch_208():
    # kipply: below the flops:byte ratio of 208 the decode step is memory-bound: weights in fp16 are
    # read once for 2·B FLOPs per parameter, so B_crit = 312e12 / 1.5e12 · 2 B / 2 = 208
    sol = solve("batch", {"peak_flops": "312 TFLOP/s", "hbm_bw": "1.5 TB/s"}, presets=["fp16"],
                bound="min", require=["decode_mlp_compute_bound"])
    assert float(sol.value) == pytest.approx(312e12 / 1.5e12 * 2 / 2, rel=1e-12) == 208


def test_pope_kv_cache_3tb_erratum():
    # Pope et al. 2022, section 2: "for a 500B+ model with multihead attention ... batch size 512 and
    # context length 2048 ... the KV cache totals 3TB, which is 3 times the size of the model's
    # parameters". PaLM 540B with one KV head per query head (48 of 256, 118 layers): in bf16 that is
    # 2 · 118 · 48 · 256 · 2 B · 512 · 2048 = 6.08 TB.
    # Erratum: the 3TB is the count of cached elements (3.04e12), not bytes at 2 B each.
    by_hand = 2 * 118 * 48 * 256 * 2 * 512 * 2048
    got = value("kv_cache_bytes", {"num_kv_heads": 48, "batch": 512, "seq_len": 2048},
                model="palm-540b", presets=["bf16"])
    assert got == pytest.approx(by_hand, rel=1e-12)
    assert by_hand / 2 == pytest.approx(3e12, rel=0.02)          # the published figure, as elements
    # against the weights: with 48 KV heads the K and V projections are 48 times wider too, so that
    # model has 118 · 2 · 18432 · 256 · 47 more parameters (592.6B, 1.19 TB in bf16): 5.1 times, and
    # the "3 times" is again nearer the element count (2.6)
    mha_params = PALM_PARAMS + 118 * 2 * 18432 * 256 * 47
    ratio = value("kv_to_weight_ratio", {"num_kv_heads": 48, "batch": 512, "seq_len": 2048},
                  model="palm-540b", presets=["bf16"])
    assert ratio == pytest.approx(by_hand / (2 * mha_params), rel=1e-12)
    assert ratio == pytest.approx(5.13, abs=0.005) and ratio / 2 == pytest.approx(3, rel=0.15)
    # with PaLM's multi-query attention (one KV head) the same batch caches 48 times less
    mqa = value("kv_cache_bytes", {"batch": 512, "seq_len": 2048}, model="palm-540b", presets=["bf16"])
    assert mqa == pytest.approx(by_hand / 48, rel=1e-12)


def test_leviathan_expected_tokens_bound_the_measured_speedup():
    # Leviathan et al. 2023: E[tokens per target run] = (1 − α^(γ+1))/(1 − α). T5-XXL (En-De) with a
    # T5-small draft: α = 0.75 (Table 3), γ = 7, measured 3.4X (Table 2). The expected count,
    # (1 − 0.75^8)/0.25 = 3.60, bounds the walltime speedup, which also pays for the draft.
    by_hand = (1 - 0.75**8) / (1 - 0.75)
    got = value("spec_expected_tokens", {"spec_accept_rate": 0.75, "spec_draft_tokens": 7})
    assert got == pytest.approx(by_hand, rel=1e-12)
    assert by_hand == pytest.approx(3.60, abs=0.005) and by_hand >= 3.4


def test_kv_token_capacity_is_the_bound_of_kv_cache_fits():
    # vLLM's setting: OPT-13B (40 layers, d 5120, 40 heads) in fp16 on a 40 GB A100: the 14 GB left
    # after the 26 GB of weights holds (40e9 − 26e9) / 819,200 B = 17,089.8 tokens of KV cache
    # (new relation; before, only as the --max bound of kv_cache_fits)
    given = {"params": "13e9", "num_layers": 40, "d_model": 5120, "num_heads": 40, "hbm_capacity": "40 GB",
             "num_devices": 1}
    by_hand = (40e9 - 26e9) / (2 * 40 * 5120 * 2)
    assert value("kv_token_capacity", given, presets=["fp16"]) == pytest.approx(by_hand, rel=1e-12)
    bound = solve("seq_len", {**given, "batch": 1}, presets=["fp16"], bound="max", require=["kv_cache_fits"])
    assert int(bound.value) == int(by_hand) == 17089
    # a 26 GB model on a 24 GB card leaves no room: 0 tokens (the regime says so), not an error
    sol = solve("kv_token_capacity", {**given, "hbm_capacity": "24 GB"}, presets=["fp16"])
    assert sol.value == 0


def test_bloom_8_a100s_is_a_node_not_the_minimum():
    # Hugging Face's 8-bit blog: "to do inference on BLOOM-176B, you would need to have 8x 80GB A100
    # GPUs". The bf16 weights (352 GB) need at least ceil(352/80) = 5; 8 is a whole DGX node.
    sol = solve("num_devices", {"params": "176e9"}, hw="a100", presets=["bf16"], bound="min",
                require=["weights_fit"])
    assert int(sol.value) == 5 <= 8
    # in int8 (176 GB) three are enough: ceil(176/80) = 3
    sol = solve("num_devices", {"params": "176e9"}, hw="a100", presets=["int8"], bound="min",
                require=["weights_fit"])
    assert int(sol.value) == 3


def test_a_decode_step_with_no_context_reads_the_weights_alone():
    """`decode_step_time_min ... seq_len=0` was refused as not positive: no cached tokens is a KV cache of
    0 bytes, whatever the model's KV shape (14 GB of bf16 weights over an A100's 2 TB/s: 7 ms)."""
    sol = solve("decode_step_time_min", {"params": "7e9", "seq_len": 0, "num_devices": 1}, hw="a100",
                presets=["bf16"])
    assert sol.value == sympy.Rational(14 * 10**9, 2 * 10**12)
    with_model = solve("decode_step_time_min", {"seq_len": 0, "batch": 1, "num_devices": 8}, hw="tpu-v5e",
                       model="llama3-70b")
    assert with_model.value == sympy.Rational(140 * 10**9, 8 * 82 * 10**10)
    assert {g.name: g.value for g in with_model.given}["seq_len"] == 0
