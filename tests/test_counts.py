"""Counts and where they come from (issue 29, item 1): a catalog default gives way before a preset's
value, a whole-number quantity is never derived as a fraction, and a preset's nominal figure (a model's
``params``) never derives the architecture counts it is counted from.

Every expected number is recomputed by hand in a comment.
"""

from __future__ import annotations

import pytest
import sympy

from derive import DeriveError, MissingInputsError, NoSolutionError, solve

# the reproducer: LLaMA-3 70B's KV cache at batch 1, 8192 tokens, split 8 ways over heads
REPRO = {"batch": 1, "seq_len": 8192, "kv_head_shards": 8}
# 2 (K and V) x 80 layers x (8 KV heads / 8 shards) x 128 head_dim x 8192 tokens x 2 B = 335,544,320 B
KV_PER_DEVICE = 2 * 80 * (8 // 8) * 128 * 8192 * 2


@pytest.mark.parametrize("model", ["llama3-70b-arch", "llama3-70b"])
def test_a_typed_shard_count_keeps_the_models_kv_heads(model):
    """Before: kv_head_shards=8 contradicted kv_head_shards = min(num_kv_heads, tensor_parallel) only
    through tensor_parallel's default of 1, yet the preset's 8 KV heads were dropped: 2.684 GB from the
    default of 64 heads (-arch), 197.1 MB from 4.7 heads derived out of the nominal 70e9 params."""
    sol = solve("kv_bytes_per_device_heads", REPRO, model=model, presets=["bf16"])
    assert KV_PER_DEVICE == 335_544_320
    assert sol.value == KV_PER_DEVICE
    heads = {g.name: g for g in sol.given}["num_kv_heads"]
    assert (heads.value, heads.origin) == (8, f"model:{model}")
    assert "typed_decides" not in {n.kind for n in sol.notes}
    # the typed value overrides the default of tensor_parallel, not the preset's heads
    overrides = [n for n in sol.notes if n.kind == "override"]
    assert [dict(n.get("sources")) for n in overrides] == [{"tensor_parallel": "default"}]


def test_the_shard_count_and_the_tensor_parallel_degree_agree():
    # min(8 KV heads, 8-way tensor parallelism) = 8 shards: the same 335,544,320 B as the typed count
    sol = solve("kv_bytes_per_device_heads", {"batch": 1, "seq_len": 8192, "tensor_parallel": 8},
                model="llama3-70b", presets=["bf16"])
    assert sol.value == KV_PER_DEVICE


def test_the_reproducer_prints_the_right_size(cli):
    run = cli("solve", "kv_bytes_per_device_heads", "--model", "llama3-70b", "--preset", "bf16",
              "batch=1", "seq_len=8192", "kv_head_shards=8")
    assert run.code == 0, run.err
    assert run.out.splitlines()[0].startswith("kv_bytes_per_device_heads = 335.5 MB (335,544,320 B)")


def test_a_typed_value_that_really_contradicts_a_preset_is_not_filled_by_a_default():
    """16 shards of 8 KV heads: min(8, tensor_parallel) <= 8 for every tensor_parallel, so no default can
    give way. Before: the preset's 8 heads were dropped for the default of 64 and 1.342 GB was answered
    ("derived from your values", which did not derive them)."""
    with pytest.raises(DeriveError) as err:        # refused (after the merge: as an input that contradicts)
        solve("kv_bytes_per_device_heads", {**REPRO, "kv_head_shards": 16}, model="llama3-70b-arch",
              presets=["bf16"])
    assert "num_kv_heads" in str(err.value) and "kv_head_shards" in str(err.value)


# LLaMA-3 70B's published architecture without its KV heads, typed
ARCH = {"num_layers": 80, "d_model": 8192, "num_heads": 64, "head_dim": 128, "d_ff": 28672, "ffn_matrices": 3,
        "vocab_size": 128256, "embedding_matrices": 2, "norms_per_layer": 2, "final_norms": 1}


def test_a_count_derived_as_a_fraction_is_refused():
    """Before: params=7e10 with this architecture gave num_kv_heads = 4.7 and a KV cache from it.
    By hand: embeddings 2*128256*8192 = 2,101,346,304; per layer MLP 3*8192*28672 = 704,643,072 and
    norms 2*8192 = 16,384; attention per layer (7e10 - 8192 - 2,101,346,304 - 80*704,659,456)/80
    = 144,073,612.8; num_kv_heads = 144,073,612.8 / (2*8192*128) - 64 = 4.69965..."""
    with pytest.raises(NoSolutionError) as err:
        solve("kv_bytes_per_token", {**ARCH, "params": 70e9}, presets=["bf16"])
    assert err.value.quantity == "num_kv_heads"
    assert "4.69965" in str(err.value)


def test_a_count_derived_as_a_whole_number_from_typed_values_is_kept():
    # LLaMA-3 70B's exact count, 70,553,706,496, typed: attention per layer (70,553,706,496 - 8192
    # - 2,101,346,304 - 56,372,756,480)/80 = 151,003,136 = 2*8192*128*(64 + 8): 8 KV heads, so per
    # token 2 * 80 * 8 * 128 * 2 B = 327,680 B
    sol = solve("kv_bytes_per_token", {**ARCH, "params": 70_553_706_496}, presets=["bf16"])
    assert sol.value == 2 * 80 * 8 * 128 * 2 == 327_680
    assert "num_kv_heads" in {u for st in sol.steps for u in st.solved_for}


def test_a_nominal_parameter_count_never_derives_the_architecture():
    """example-7b has a nominal 7e9 params with 32 layers of width 4096. Before: the MLP parameters per
    layer were solved out of it, (7e9 - 4096 - 2*32000*4096 - 32*(2*4096*64*128 + 2*4096))/32
    = 143,440,816, a whole number, and all layers' MLP parameters answered as 32 times that."""
    given = {"vocab_size": 32000, "embedding_matrices": 2, "norms_per_layer": 2, "final_norms": 1,
             "num_kv_heads": 32, "head_dim": 128}
    with pytest.raises(MissingInputsError) as err:
        solve("mlp_params", given, model="example-7b")
    assert "mlp_params_per_layer is not derived from params of preset example-7b" in str(err.value)
    # the MLP width given, it follows from the architecture: 32 layers x 3 x 4096 x 11008 = 4,328,521,728
    sol = solve("mlp_params", {**given, "ffn_matrices": 3, "d_ff": 11008}, model="example-7b")
    assert sol.value == 32 * 3 * 4096 * 11008 == 4_328_521_728


def test_a_count_asked_for_may_still_come_out_fractional_and_is_said_so():
    # the answer itself is exempt: attention of 150,000,000 parameters per layer, 64 query heads of 128,
    # width 8192: 150,000,000 / (2*8192*128) - 64 = 123299/16384 = 7.5255... KV heads, said not whole
    sol = solve("num_kv_heads", {"attn_params_per_layer": 150_000_000, "d_model": 8192, "num_heads": 64,
                                 "head_dim": 128})
    assert sol.value == sympy.Rational(123299, 16384)
    assert "not_integer" in {n.kind for n in sol.notes}


def test_a_count_asked_for_through_a_fractional_count_is_not_answered_by_its_default():
    """Before the rule the answer was 4.7 (through 144,073,612.8 attention parameters per layer); with the
    fractional way avoided and nothing else giving it, the default of 64 KV heads must not answer."""
    with pytest.raises(NoSolutionError) as err:
        solve("num_kv_heads", {**ARCH, "params": 70e9})
    assert err.value.quantity == "num_kv_heads"
    assert "144,073,612.8" in str(err.value)
