"""Every model preset's parameter count, derived from its architecture by the catalog, against the
published count (within 1 %; DeepSeek-V3's activated count to the report's two digits, see below).

The published counts are the models' own: the safetensors totals their Hugging Face pages show
(LLaMA), the papers' tables (Gemma, Gemma 2, Mixtral, DeepSeek-V3, GPT-3, OPT, Chinchilla).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from derive import solve

# preset -> (published total, source)
PUBLISHED = {
    "llama2-7b-arch": (6_738_415_616, "Llama-2-7b-hf, 6.74B params (Hugging Face)"),
    "llama2-13b-arch": (13_015_864_320, "Llama-2-13b-hf, 13B (Hugging Face)"),
    "llama2-70b-arch": (68_976_648_192, "Llama-2-70b-hf, 69B (Hugging Face)"),
    "llama3-8b-arch": (8_030_261_248, "Meta-Llama-3-8B, 8.03B (Hugging Face)"),
    "llama3-70b-arch": (70_553_706_496, "Meta-Llama-3-70B, 70.6B (Hugging Face)"),
    "llama3-405b-arch": (405_000_000_000, "Llama 3 paper: 405B"),
    "gemma-7b": (786_432_000 + 7_751_248_896, "Gemma report Table 2: embedding + non-embedding"),
    "gemma2-2b": (2_614_341_888, "gemma-2-2b, 2.61B (Hugging Face); Table 2: 2,024,517,888 non-embedding"),
    "gemma2-9b": (9_241_705_984, "gemma-2-9b, 9.24B (Hugging Face); Table 2: 8,324,201,984 non-embedding"),
    "gemma2-27b": (27_227_128_320, "gemma-2-27b, 27.2B (Hugging Face); Table 2: 26,047,480,320 non-embedding"),
    "mixtral-8x7b": (46_700_000_000, "Mixtral: 46.7B total"),
    "deepseek-v3": (671_000_000_000, "DeepSeek-V3 report: 671B total"),
    "mistral-7b": (7_241_732_096, "Mistral-7B-v0.1, 7.24B (Hugging Face)"),
    "palm-540b": (540_350_000_000, "PaLM Table 1: 540.35B"),
    "gpt3-175b": (175_000_000_000, "GPT-3 Table 2.1: 175.0B (Table D.1: 174,600M)"),
    "opt-175b": (175_000_000_000, "OPT Table 1: 175B"),
    "chinchilla-70b": (70_000_000_000, "Chinchilla Table 4: 70B"),
}

ACTIVE = {
    "mixtral-8x7b": (12_900_000_000, Fraction(1, 100), "Mixtral: 12.9B active"),
}

# Table 2 of the Gemma 2 report gives non-embedding counts, which the relations must hit exactly
GEMMA2_NON_EMBEDDING = {"gemma2-2b": 2_024_517_888, "gemma2-9b": 8_324_201_984, "gemma2-27b": 26_047_480_320}


def _count(target: str, model: str) -> Fraction:
    sol = solve(target, model=model, presets=["bf16"])
    assert sol.value.is_Integer, sol.value
    return Fraction(int(sol.value))


def test_every_model_preset_is_checked(catalog):
    models = {p.id for p in catalog.presets.values() if p.kind == "model"}
    nominal = {m for m in models if f"{m}-arch" in models}       # the nominal-size presets extend an -arch one
    assert models - nominal - {"example-7b"} == set(PUBLISHED)


@pytest.mark.parametrize("model", sorted(PUBLISHED))
def test_derived_parameter_count_matches_the_published_one(model):
    published, source = PUBLISHED[model]
    derived = _count("params", model)
    assert abs(derived - published) <= Fraction(1, 100) * published, (model, int(derived), source)


@pytest.mark.parametrize("model", sorted(ACTIVE))
def test_active_parameters_match(model):
    published, tol, source = ACTIVE[model]
    derived = _count("active_params", model)
    assert abs(derived - published) <= tol * published, (model, int(derived), source)


def test_deepseek_v3_activated_count_is_the_reports_without_the_input_embedding():
    """The report's '37B activated' states two digits (36.5B to 37.5B). The relations count both V x D
    embedding matrices, as Mixtral's 12.9B does (37.55B, 1.5 % above); DeepSeek's count leaves out the
    input embedding, a lookup of one row per token: 37.55B - V·D = 36.62B, which rounds to 37B. The
    architecture fields are the config's (the total, 671.03B, is the report's 671B)."""
    active = _count("active_params", "deepseek-v3")
    D, V = 7168, 129280
    mla = D * 1536 + 1536 * 128 * (128 + 64) + D * (512 + 64) + 512 * 128 * (128 + 128) + 128 * 128 * D + 1536 + 512
    moe = (8 + 1) * 3 * D * 2048 + 256 * D + 256                 # 8 routed + 1 shared expert, the router and its bias
    assert active == 61 * (mla + 2 * D) + 3 * 3 * D * 18432 + 58 * moe + 2 * V * D + D      # 37.55B
    input_embedding = V * D
    assert 36_500_000_000 <= active - input_embedding < 37_500_000_000
    # with both matrices it would round to 38B: the two counts differ by the lookup, nothing else
    assert not 36_500_000_000 <= active < 37_500_000_000


def test_a_preset_figure_the_relations_derive_otherwise_is_said():
    """Chinchilla's attention holds the relative-position projection (Transformer-XL): the preset gives
    D·H·(3N + 2K) per layer; asked for the count, the relations give Q, K, V, O alone, and the answer says
    the preset's figure beside it (as for a nominal size: llama3-70b's 70e9 beside the derived 70.55B)."""
    sol = solve("attn_params_per_layer", model="chinchilla-70b")
    assert sol.value == 4 * 8192 * 64 * 128
    differs = [n for n in sol.notes if n.kind == "preset_differs"]
    assert [n.get("preset_value") for n in differs] == [8192 * 128 * (3 * 64 + 2 * 64)]
    nominal = solve("params", model="llama3-70b")
    assert [n.get("preset_value") for n in nominal.notes if n.kind == "preset_differs"] == [70 * 10**9]


def test_exact_counts():
    """Where the architecture is fully described, the count is exact, not merely within 1 %."""
    assert _count("params", "llama3-70b-arch") == 70_553_706_496
    assert _count("params", "llama3-405b-arch") == 405_853_388_800
    assert _count("params", "mixtral-8x7b") == 46_702_792_704
    assert _count("active_params", "mixtral-8x7b") == 12_879_925_248
    # the config's count with the routers' 58 x 256 load-balancing biases (e_score_correction_bias)
    assert _count("params", "deepseek-v3") == 671_026_419_200
    assert _count("params", "gpt3-175b") == 96 * (2 * 12288 * 49152 + 4 * 12288**2 + 4 * 12288) + 50257 * 12288 + 2 * 12288
    assert _count("params", "chinchilla-70b") == 80 * (5 * 8192**2 + 2 * 8192 * 32768 + 2 * 8192) + 32000 * 8192 + 8192
    for model, non_embedding in GEMMA2_NON_EMBEDDING.items():
        assert _count("params", model) - _count("embedding_params", model) == non_embedding


def test_nominal_presets_keep_the_chapters_size_for_other_questions():
    """llama3-70b computes with the book's 70e9 (140 GB in bf16); asked for params it derives them."""
    assert solve("weight_bytes", model="llama3-70b", presets=["bf16"]).value == 140 * 10**9
    assert solve("weight_bytes", model="llama3-70b-arch", presets=["bf16"]).value == 2 * 70_553_706_496
    assert solve("params", model="llama3-70b").value == 70_553_706_496


def test_deepseek_mla_kv_cache():
    """MLA caches 512 + 64 elements per layer: 70,272 bytes per token in bf16 (61 layers)."""
    assert solve("kv_bytes_per_token", model="deepseek-v3", presets=["bf16"]).value == 61 * 576 * 2


@pytest.mark.parametrize("heads", [32, 64])
def test_kv_cache_per_token_from_the_width_with_multi_head_attention(catalog, heads):
    # scaling-book-transformers, Question 1: L = 64, N·H = D = 4096, MHA, int8 KVs: "512kB / token";
    # the head size defaults to D/N and the KV heads to the query heads, each said as an assumption
    sol = solve("kv_bytes_per_token", {"num_layers": "64", "d_model": "4096", "num_heads": str(heads),
                                       "kv_bytes_per_element": "1 B"}, catalog=catalog)
    assert sol.value == 2 * 64 * 4096 == 512 * 1024
    assumed = {g.name: g.value for g in sol.given if g.origin == "default"}
    assert assumed == {"head_dim": 4096 // heads, "num_kv_heads": heads}


def test_a_kv_cache_question_without_the_heads_takes_the_defaults_as_formulas(cli):
    # the same Question 1 without N: H = D/N and K = N, and N cancels (2·L·N·(D/N) = 2·L·D), as the
    # answer's 2·L·N·H = 2·64·4096 has it; a question that depends on N still asks for it
    # (tests/test_follow_defaults.py)
    run = cli("solve", "kv_bytes_per_token", "num_layers=64", "d_model=4096", "kv_bytes_per_element=1B")
    assert run.code == 0, run.err
    assert "(524,288 B)" in run.out
    assert "head_dim = d_model/num_heads    assumed (catalog default)" in run.out
    assert "Cancelled out: the answer does not depend on num_heads." in run.out


def test_given_kv_heads_and_head_size_win_over_the_defaults(catalog):
    # LLaMA-2 70B: GQA, 8 KV heads of 128 (D/N would also be 128, the KV heads are not 64)
    sol = solve("kv_bytes_per_token", model="llama2-70b", presets=["bf16"], catalog=catalog)
    assert sol.value == 2 * 80 * 8 * 128 * 2
    # Gemma 7B: 16 heads of 256 over D = 3072, typed in full: no contradiction with D = N·H
    gemma = solve("attn_params_per_layer", {"d_model": "3072", "num_heads": "16", "head_dim": "256",
                                            "num_kv_heads": "16"}, catalog=catalog)
    assert gemma.value == 2 * 3072 * (16 + 16) * 256


@pytest.mark.parametrize("presets", [[], ["bf16"]])
def test_latent_attention_keeps_its_given_ranks_over_defaulted_heads(catalog, presets):
    # DeepSeek-V3 gives d_model and the heads, so the dense KV relation could run on defaults (D/N = 56,
    # 128 KV heads); the MLA relation needs no default beyond the element size, and is the one used
    sol = solve("kv_bytes_per_token", model="deepseek-v3", presets=presets, catalog=catalog)
    assert sol.value == 61 * (512 + 64) * 2
    assert [s.relations for s in sol.steps if s.relations] == [("kv_bytes_per_token_mla",)]


MIXTRAL_TYPED = {"num_layers": 32, "moe_layers": 32, "d_model": 4096, "num_heads": 32, "num_kv_heads": 8,
                 "head_dim": 128, "ffn_matrices": 3, "d_ff_expert": 14336, "num_experts": 8,
                 "experts_per_token": 2, "shared_experts": 0, "vocab_size": 32000, "embedding_matrices": 2,
                 "norms_per_layer": 2, "final_norms": 1}
DEEPSEEK_TYPED = {"num_layers": 61, "moe_layers": 58, "d_model": 7168, "num_heads": 128, "q_lora_rank": 1536,
                  "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128,
                  "ffn_matrices": 3, "d_ff_expert": 2048, "num_experts": 256, "experts_per_token": 8,
                  "shared_experts": 1, "vocab_size": 129280, "embedding_matrices": 2, "norms_per_layer": 2,
                  "final_norms": 1}


def test_a_mixture_of_experts_typed_with_no_dense_layers():
    """`dense_layers=0` (every layer has experts) is the natural way to type Mixtral: the dense layers'
    MLP is 0 whatever its width, which is then not asked for (it was 'cannot be solved ... no positive
    real closed-form solution', from the dense and mixture-of-experts counts taken as one system)."""
    given = {**MIXTRAL_TYPED, "dense_layers": 0}
    params, active = solve("params", given), solve("active_params", given)
    assert params.value == 46_702_792_704 and active.value == 12_879_925_248      # Mixtral: 46.7B / 12.9B
    assert abs(Fraction(int(params.value)) - 46_700_000_000) <= Fraction(1, 100) * 46_700_000_000
    assert abs(Fraction(int(active.value)) - 12_900_000_000) <= Fraction(1, 100) * 12_900_000_000
    assert [s.relations for s in params.steps if "params_moe" in s.relations] == [("params_moe",)]
    assert not any("d_ff_dense" == g.name for g in params.given)
    # typed with its three dense layers, DeepSeek-V3 needs their width, and the typed count is the preset's
    typed = solve("params", {**DEEPSEEK_TYPED, "dense_layers": 3, "d_ff_dense": 18432}, presets=["bf16"])
    assert typed.value == 671_026_404_352


def test_dense_layers_without_their_width_ask_for_that_width():
    from derive import MissingInputsError

    with pytest.raises(MissingInputsError) as err:
        solve("params", {**MIXTRAL_TYPED, "dense_layers": 3})
    assert list(err.value.missing) == ["d_ff_dense"]


def test_an_input_that_cancels_is_not_asked_for_through_a_model_architecture():
    """MFU from tokens per second per device: num_devices cancels (R·N_dev·6P/(N_dev·C)), also when the
    parameter count comes from an architecture preset; the count is the dense one, never a mixture of
    experts' from expert counts nobody gave."""
    sol = solve("mfu", {"train_throughput_per_device": "380/s"}, hw="a100", model="llama2-7b-arch")
    assert sol.value == sympy.Rational(6 * 6_738_415_616 * 380, 312 * 10**12)
    assert "num_devices" in sol.cancelled
    used = {r for s in sol.steps for r in s.relations}
    assert "params_dense" in used and not used & {"params_moe", "active_params_moe", "dense_mlp_params"}


def test_mfu_from_the_achieved_flops_without_a_model_counts_no_experts():
    sol = solve("mfu", {"achieved_flops_per_device": "140 TFLOP/s"}, hw="a100")
    assert sol.value == sympy.Rational(140, 312)
    used = {r for s in sol.steps for r in s.relations}
    assert not used & {"params_moe", "active_params_moe", "expert_params", "dense_mlp_params"}


def test_the_assumed_constants_keep_a_chip_figure_a_precision_preset_takes_as_a_symbol():
    """fp8 takes peak_flops from the chip's FP8 peak: that is the chip's figure, not a constant of the
    setup, so the line with the assumed constants keeps the symbol (it printed 989500000000000)."""
    sol = solve("batch", {"num_experts": 256, "experts_per_token": 8}, hw="h100", presets=["fp8"], bound="min",
                require=["moe_compute_bound"])
    reduced = sol.reduced_formula()
    assert sympy.Symbol("peak_flops", positive=True) in reduced.free_symbols
    # fp8's 1 byte per weight has a unit: put in as the number 1 it would leave a batch size in FLOP/B
    assert sympy.Symbol("weight_bytes_per_param", positive=True) in reduced.free_symbols
    assert all(abs(n) < 10**6 for n in reduced.atoms(sympy.Number))
