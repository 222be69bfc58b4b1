"""A mixture of experts' decode step reads the experts its tokens are routed to, not every expert.

Issue 29, item 2: `decode_step_time --model mixtral-8x7b --hw h100 --preset bf16 batch=1 seq_len=1024
num_devices=1` answered 27.92 ms, the time to read all 46.7B parameters; at batch 1 a step reads the
2 routed experts of each layer (12.9B parameters), about 7.7 ms. Under uniform routing a step of B
tokens reads E·(1 − (1 − k/E)^B) distinct experts per MoE layer (expected), which is k at B = 1 and
tends to E as B grows. Every expected value below is computed here by hand from the published
configs (Mixtral's and DeepSeek-V3's Hugging Face config.json), never copied from derive's answer.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from derive import solve

H100_HBM = 3_350_000_000_000          # B/s, the h100 preset's 3.35 TB/s

# Mixtral 8x7B: 32 layers, d 4096, 32 heads of 128, 8 KV heads, 8 experts of width 14336 (SwiGLU),
# top-2, vocab 32000 untied, 2 RMSNorms per layer and a final one
MIXTRAL_ATTN_AND_NORMS = 32 * (2 * 4096 * (32 + 8) * 128 + 2 * 4096)   # 1,342,439,424
MIXTRAL_EXPERT = 3 * 4096 * 14336                                       # 176,160,768 per expert
MIXTRAL_ROUTER = 8 * 4096                                               # the router's E x D per layer
MIXTRAL_EMB_AND_FINAL = 2 * 32000 * 4096 + 4096                         # 262,148,096


def mixtral_params_read(experts: Fraction) -> Fraction:
    """Parameters a Mixtral step reads when each of its 32 MoE layers reads `experts` experts."""
    return MIXTRAL_ATTN_AND_NORMS + 32 * (experts * MIXTRAL_EXPERT + MIXTRAL_ROUTER) + MIXTRAL_EMB_AND_FINAL


def test_mixtral_batch_1_reads_two_experts_per_layer():
    """The issue's reproducer: 7.73 ms, not 27.92 ms.

    By hand: 1,342,439,424 (attention, norms) + 32·(2·176,160,768 + 32,768) (two experts and the router
    per layer) + 262,148,096 (embeddings, final norm) = 12,879,925,248 parameters, 2 bytes each:
    25,759,850,496 B; the KV cache is 2·32·8·128·2 B · 1024 tokens = 134,217,728 B; the step's compute
    (2·12.88e9 FLOP at 989 TFLOP/s = 26 µs) hides behind the reads, so the step is
    (25,759,850,496 + 134,217,728) B / 3.35 TB/s = 7.7296 ms.
    """
    weights = 2 * mixtral_params_read(Fraction(2))
    assert weights == 25_759_850_496
    kv = 2 * 32 * 8 * 128 * 2 * 1024
    sol = solve("decode_step_time", {"batch": 1, "seq_len": 1024, "num_devices": 1}, model="mixtral-8x7b",
                hw="h100", presets=["bf16"])
    assert sol.value == sympy.Rational(weights + kv, H100_HBM)
    assert float(sol.value) == pytest.approx(7.7296e-3, rel=1e-4)
    used = {r for s in sol.steps for r in s.relations}
    assert "decode_weight_bytes_moe" in used and "decode_weight_bytes_dense" not in used


def test_the_regime_note_does_not_call_experts_per_token_irrelevant():
    """The note said 'experts_per_token, peak_flops only choose the regime': k sets the bytes read."""
    sol = solve("decode_step_time", {"batch": 1, "seq_len": 1024, "num_devices": 1}, model="mixtral-8x7b",
                hw="h100", presets=["bf16"])
    regime_notes = [dict(n.data) for n in sol.notes if n.kind == "regime_inputs"]
    assert [note["names"] for note in regime_notes] == ["peak_flops, router_biases"]   # not experts_per_token
    k3 = solve("decode_step_time", {"batch": 1, "seq_len": 1024, "num_devices": 1, "experts_per_token": 3},
               model="mixtral-8x7b", hw="h100", presets=["bf16"])
    # one more expert per layer: 32 · 176,160,768 · 2 B more to read
    assert (k3.value - sol.value) * H100_HBM == 32 * MIXTRAL_EXPERT * 2


def test_deepseek_v3_batch_1_reads_its_active_parameters():
    """DeepSeek-V3 in fp8 on 8 H100s at batch 1 and 1024 tokens: 1.403 ms, not 25 ms (18x).

    By hand from the config: MLA per layer 7168·1536 + 1536·128·192 + 7168·576 + 512·128·256 +
    128·128·7168 + 1536 + 512 = 187,107,328, plus 2·7168 of norms, times 61; 58 MoE layers of
    (8 routed + 1 shared)·3·7168·2048 + 256·7168 (router); 3 dense layers of 3·7168·18432; embeddings
    2·129280·7168 and a final norm 7168: 37,552,282,624 parameters, 1 byte each in fp8. The cache is
    (512 + 64)·61 bytes a token, 1024 tokens. Over 8 · 3.35 TB/s.
    """
    mla = 7168 * 1536 + 1536 * 128 * 192 + 7168 * 576 + 512 * 128 * 256 + 128 * 128 * 7168 + 1536 + 512
    assert mla == 187_107_328
    per_moe_layer = (8 + 1) * 3 * 7168 * 2048 + 256 * 7168
    active = (61 * (mla + 2 * 7168) + 58 * per_moe_layer + 3 * 3 * 7168 * 18432
              + 2 * 129280 * 7168 + 7168)
    assert active == 37_552_282_624
    kv = (512 + 64) * 61 * 1024
    sol = solve("decode_step_time", {"batch": 1, "seq_len": 1024, "num_devices": 8}, model="deepseek-v3",
                hw="h100", presets=["fp8"])
    assert sol.value == sympy.Rational(active + kv, 8 * H100_HBM)
    assert float(sol.value) == pytest.approx(1.402547e-3, rel=1e-6)
    every_expert = solve("params", {}, model="deepseek-v3")
    assert float(every_expert.value) / active > 17       # all 671B would be read 17.9x slower


def test_batch_2_reads_the_expected_distinct_experts():
    """Two tokens, 2 of 8 experts each: 8·(1 − (6/8)²) = 8·7/16 = 3.5 experts per layer expected."""
    touched = solve("experts_touched", {"num_experts": 8, "experts_per_token": 2, "batch": 2})
    assert touched.value == sympy.Rational(7, 2)
    sol = solve("decode_weight_bytes", {"batch": 2}, model="mixtral-8x7b", presets=["bf16"])
    assert sol.value == 2 * mixtral_params_read(Fraction(7, 2))


def test_a_large_batch_reads_every_expert():
    """As B grows, (1 − k/E)^B → 0 and the step reads every parameter: at B = 200, (3/4)^200 ≈ 1e-25."""
    total = solve("weight_bytes", {}, model="mixtral-8x7b", presets=["bf16"]).value
    assert total == 2 * mixtral_params_read(Fraction(8))
    big = solve("decode_weight_bytes", {"batch": 200}, model="mixtral-8x7b", presets=["bf16"]).value
    assert big < total
    assert float((total - big) / total) < 1e-24
    b = sympy.Symbol("batch", positive=True)
    assert sympy.limit(8 * (1 - (1 - sympy.Rational(2, 8)) ** b), b, sympy.oo) == 8


def test_a_dense_model_still_reads_every_weight():
    """LLaMA-2 7B (6,738,415,616 parameters) at batch 64 in bf16 on one H100: the weights once,
    13,476,831,232 B, whatever the batch; with no context the step is that over 3.35 TB/s."""
    sol = solve("decode_step_time_min", {"batch": 64, "seq_len": 0, "num_devices": 1}, model="llama2-7b-arch",
                hw="h100", presets=["bf16"])
    assert sol.value == sympy.Rational(2 * 6_738_415_616, H100_HBM)
    used = {r for s in sol.steps for r in s.relations}
    assert "decode_weight_bytes_dense" in used and "decode_weight_bytes_moe" not in used


def test_the_routing_relations_solve_back_for_batch_experts_per_token_and_experts():
    """3.5 of 8 experts read with k = 2 is B = 2 (8·(1 − (3/4)²) = 3.5); with B = 2 it is k = 2; a miss
    probability of 9/16 at B = 2 and k = 2 is E = 2/(1 − 3/4) = 8. Each used to be refused (SymPy could not
    isolate B in E·(1 − (1 − k/E)^B)), and a dense question for `batch` failed on it."""
    assert solve("batch", {"experts_touched": "3.5", "experts_per_token": 2, "num_experts": 8}).value == 2
    assert solve("experts_per_token", {"experts_touched": "3.5", "batch": 2, "num_experts": 8}).value == 2
    assert solve("num_experts", {"expert_miss_probability": "0.5625", "batch": 2,
                                 "experts_per_token": 2}).value == 8


def test_more_experts_per_token_than_experts_is_refused_in_one_line(cli):
    """A router cannot pick 8 of 2 experts: 1 − k/E is negative under the relation's B-th root, so no
    probability satisfies it, whichever the parity of the batch (was an internal check failure)."""
    for batch in (2, 3):
        out = cli("solve", "expert_miss_probability", "num_experts=2", "experts_per_token=8", f"batch={batch}")
        assert out.code == 2, out.err
        assert "bug" not in out.err and "Traceback" not in out.err
        assert len(out.err.strip().splitlines()) == 1
        assert "expert_miss_probability" in out.err
