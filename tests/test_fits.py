"""Issue 29, item 4: every time, rate or cost of a configuration says whether it fits in device memory.

Each expected number is recomputed by hand in a comment, or (the property test) from the presets'
own fields by arithmetic written here, not by the engine's memory relations.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from derive import NoSolutionError, solve
from derive.catalog.loader import load_catalog

DEEPSEEK = dict(given={"batch": 1, "seq_len": 1024, "num_devices": 8}, model="deepseek-v3", hw="h100",
                presets=["fp8"])
LLAMA8B = dict(given={"batch": 1, "seq_len": 8192, "num_devices": 1}, model="llama3-8b", hw="h100",
               presets=["bf16"])


def test_deepseek_v3_fp8_on_8_h100s_does_not_fit():
    """The issue's reproducer: a decode step time answered although the weights exceed the devices."""
    sol = solve("decode_step_time", **DEEPSEEK)
    fit = sol.fits
    assert fit is not None and fit.kind == "serving" and fit.condition == "fits"
    # by hand: 671,026,419,200 parameters (the architecture's count with its 58 x 256 router biases, the report's 671B) x 1 B (fp8) / 8
    # = 83,878,302,400 B of weights per device, beyond 80 GB before anything else;
    # KV: 61 layers x (512 + 64) x 1 B = 35,136 B per token, x 1,024 tokens / 8 = 4,497,408 B;
    # reserve: 0.1 x 80e9 = 8e9 B. Sum 91,882,799,808 B against 80e9 B.
    parts = dict(fit.components)
    assert parts == {"sharded_weight_bytes": 83_878_302_400, "sharded_kv_cache_bytes": 4_497_408,
                     "memory_reserve_bytes": 8_000_000_000}
    assert fit.need == 91_882_799_808 and fit.have == 80_000_000_000 and fit.ok is False
    assert fit.reserve == Fraction(1, 10) and fit.reserve_assumed


def test_deepseek_v3_says_so_in_text_and_json(capsys):
    from derive.cli._main import main

    args = ["solve", "decode_step_time", "--model", "deepseek-v3", "--hw", "h100", "--preset", "fp8",
            "batch=1", "seq_len=1024", "num_devices=8"]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    # prominent: the line right after the answer
    assert lines[1].strip().startswith("Does not fit: needs 91.88 GB per device, has 80 GB (weights 83.88 GB")
    assert main(args + ["--lang", "zh"]) == 0
    assert "装不下：每卡需要 91.88 GB，只有 80 GB" in capsys.readouterr().out
    assert main(args + ["--format", "json"]) == 0
    fits = json.loads(capsys.readouterr().out)["fits"]
    assert fits["ok"] is False and fits["need"] == 91_882_799_808 and fits["have"] == 80_000_000_000
    assert fits["by_component"] == {"weights": 83_878_302_400, "kv_cache": 4_497_408, "reserve": 8_000_000_000}
    for fmt in ("md", "html", "tex"):
        assert main(args + ["--format", fmt]) == 0
        assert "Does not fit: needs 91.88 GB per device, has 80 GB" in capsys.readouterr().out, fmt


def test_llama3_8b_bf16_decode_on_one_h100_fits():
    sol = solve("decode_step_time", **LLAMA8B)
    fit = sol.fits
    # by hand: 8e9 x 2 B = 16e9 B of weights; KV 2 x 32 layers x 8 heads x 128 x 2 B = 131,072 B per token
    # x 8,192 tokens = 1,073,741,824 B; reserve 8e9 B. 25,073,741,824 B <= 80e9 B.
    assert fit is not None and fit.ok is True
    assert fit.need == 25_073_741_824 and fit.have == 80_000_000_000
    d = sol.to_dict()["fits"]
    assert set(d) >= {"ok", "need", "have", "by_component"}
    assert d["ok"] is True and d["need"] == 25_073_741_824 and d["by_component"]["kv_cache"] == 1_073_741_824


def test_reserve_is_an_input_the_user_sets():
    # without the reserve DeepSeek-V3 still needs 83,882,799,808 B (weights + KV) > 80e9 B
    sol = solve("decode_step_time", **{**DEEPSEEK, "given": {**DEEPSEEK["given"], "memory_reserve": 0}})
    assert sol.fits.need == 83_882_799_808 and sol.fits.ok is False and not sol.fits.reserve_assumed
    # LLaMA-3 8B with a 75 % reserve: 16e9 + 1,073,741,824 + 60e9 = 77,073,741,824 B, still <= 80e9
    sol = solve("decode_step_time", **{**LLAMA8B, "given": {**LLAMA8B["given"], "memory_reserve": 0.75}})
    assert sol.fits.need == 77_073_741_824 and sol.fits.ok is True


def test_require_fits_is_an_ordinary_condition():
    with pytest.raises(NoSolutionError, match="condition fits"):
        solve("decode_step_time", require="fits", **DEEPSEEK)
    sol = solve("decode_step_time", require="fits", **LLAMA8B)
    assert [c.holds for c in sol.checks if c.name == "fits"] == [True]
    # the largest batch at 8,192 tokens on one H100: (0.9 x 80e9 - 16e9) / 1,073,741,824 = 52.15 -> 52
    given = {"seq_len": 8192, "num_devices": 1}
    assert solve("batch", given, bound="max", require="fits", model="llama3-8b", hw="h100",
                 presets=["bf16"]).value == 52


def test_training_counts_gradients_and_optimizer_state():
    sol = solve("train_time", {"train_tokens": "15e12", "num_devices": 8, "mfu": 0.4}, model="llama3-70b",
                hw="h100")
    fit = sol.fits
    assert fit is not None and fit.kind == "training" and fit.condition == "fits_training"
    parts = dict(fit.components)
    # by hand, 70e9 parameters over 8 devices: bf16 weights 17.5e9 B, bf16 gradients 17.5e9 B, Adam 12 B per
    # parameter 105e9 B; activations unknown (no activation model given); reserve 8e9 B. The known parts,
    # 148e9 B, already exceed 80e9 B: does not fit whatever the activations.
    assert parts["sharded_weight_bytes"] == 17_500_000_000 and parts["sharded_grad_bytes"] == 17_500_000_000
    assert parts["sharded_optimizer_bytes"] == 105_000_000_000 and parts["sharded_activation_bytes"] is None
    assert fit.need == 148_000_000_000 and fit.ok is False and fit.unknown == ("sharded_activation_bytes",)
    # on 1,024 devices the known parts (8e9 + 16 x 70e9 / 1,024 = 9,093,750,000 B) fit and activations are
    # unknown: no verdict
    sol = solve("train_time", {"train_tokens": "15e12", "num_devices": 1024, "mfu": 0.4}, model="llama3-70b",
                hw="h100")
    assert sol.fits.ok is None and sol.fits.need == 9_093_750_000


def test_no_device_memory_in_the_question_leaves_ok_null():
    # the book's example without a chip: 600e6 x 2 B / 4 = 300e6 B of weights per device, capacity unknown
    sol = solve("decode_weight_time", {"params": 600e6, "weight_bytes_per_param": "2 B", "num_devices": 4,
                                       "hbm_bw": "8.2e11 B/s"})
    assert sol.fits.ok is None and sol.fits.have is None and sol.fits.need == 300_000_000
    assert sol.to_dict()["fits"]["ok"] is None


def test_answers_that_are_not_a_configuration_carry_no_verdict():
    assert solve("kv_cache_bytes", **LLAMA8B).fits is None            # bytes, not a time or rate
    assert solve("critical_ai_hbm", hw="h100").fits is None           # a chip's ratio, no configuration
    assert "fits" not in solve("kv_cache_bytes", **LLAMA8B).to_dict()


# ---------------------------------------------------------------------------- property: hw x model presets

HW = ["h100", "a100", "b200", "tpu-v5e"]
MODELS = ["llama3-8b", "llama3-70b", "llama2-13b", "deepseek-v3"]
WORKLOADS = [(1, 2048, 1), (16, 8192, 8), (64, 32768, 4), (128, 4096, 16)]
PRECISIONS = {"bf16": 2, "fp8": 1}          # bytes per weight and per KV element in each precision preset


def _by_hand(catalog, hw, model, precision, batch, seq_len, devices):
    """Memory per device from the presets' own fields, by arithmetic here (not the catalog's relations)."""
    m = {k: v.value for k, v in catalog.presets[model].values.items() if v.value is not None}
    parent = catalog.presets[model].extends
    while parent:
        m = {**{k: v.value for k, v in catalog.presets[parent].values.items() if v.value is not None}, **m}
        parent = catalog.presets[parent].extends
    e = PRECISIONS[precision]
    if "kv_lora_rank" in m:         # MLA: one latent and one RoPE key per layer
        kv_per_token = m["num_layers"] * (m["kv_lora_rank"] + m["qk_rope_head_dim"]) * e
        params = 671_026_419_200    # DeepSeek-V3's architecture count, router biases included
    else:
        kv_per_token = 2 * m["num_layers"] * m["num_kv_heads"] * m["head_dim"] * e
        params = m["params"]
    capacity = catalog.presets[hw].values["hbm_capacity"].value
    need = (params * e + batch * seq_len * kv_per_token) / devices + Fraction(1, 10) * capacity
    return need, capacity


@pytest.mark.parametrize("hw", HW)
def test_every_decode_answer_carries_a_verdict_that_agrees_with_arithmetic(hw):
    catalog = load_catalog()
    for i, model in enumerate(MODELS):
        # fp8 where the chip has an fp8 peak (a100 and tpu-v5e have none)
        precision = "fp8" if model == "deepseek-v3" and hw in ("h100", "b200") else "bf16"
        for batch, seq_len, devices in WORKLOADS[i % 2::2]:
            given = {"batch": batch, "seq_len": seq_len, "num_devices": devices}
            for target in ("decode_step_time", "decode_throughput"):
                sol = solve(target, given, model=model, hw=hw, presets=[precision])
                need, have = _by_hand(catalog, hw, model, precision, batch, seq_len, devices)
                assert sol.fits is not None, (target, model, hw)
                assert sol.fits.need == need and sol.fits.have == have, (target, model, hw, batch)
                assert sol.fits.ok is bool(need <= have), (target, model, hw, batch)
