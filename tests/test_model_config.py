"""Models read from their Hugging Face ``config.json`` (``--model-config``, ``load_model_config``).

The fixtures (``tests/fixtures/model_configs``, provenance in its PROVENANCE.md) are the configs of
six families: Llama 3.1, Mistral and Mixtral, Qwen2.5 and Qwen3 (dense and MoE), Gemma 2 and 3,
DeepSeek-V3. Each count the catalog derives from a config is compared with two numbers:

* the count recomputed here tensor by tensor, from the shapes the family's Hugging Face modelling
  code gives each weight (``_tensor_count``, which shares nothing with the catalog's relations);
* the published count. Exact counts are the safetensors totals the Hugging Face model pages show
  (the index's ``total_size`` over 2 bytes per bf16 parameter); where a card or a report states
  fewer digits, the count must agree to them (rounded or cut, as Qwen's cards cut).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from derive import InputError, load_catalog, load_model_config, solve

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "model_configs"

# fixture -> (exact published total or None, (stated figure, its rounding step), where it is stated)
PUBLISHED = {
    "llama-3.1-8b-instruct": (8_030_261_248, (8.03e9, 1e7), "Llama-3.1-8B: 8,030,261,248 (Hugging Face safetensors "
                              "total; model.safetensors.index.json total_size 16,060,522,496 B in bf16)"),
    "llama-3.1-70b-instruct": (70_553_706_496, (70.6e9, 1e8), "Llama-3.1-70B: 70,553,706,496 (Hugging Face "
                               "safetensors total; total_size 141,107,412,992 B in bf16)"),
    "mistral-7b-instruct-v0.3": (7_248_023_552, (7.25e9, 1e7), "Mistral-7B-v0.3: 7.25B on its Hugging Face page; "
                                 "v0.1's 7,241,732,096 with its vocabulary grown from 32,000 to 32,768 rows in both "
                                 "embedding matrices (+ 2 x 768 x 4096)"),
    "mixtral-8x7b-v0.1": (46_702_792_704, (46.7e9, 1e8), "Mixtral-8x7B: 46,702,792,704 (Hugging Face safetensors "
                          "total); the paper's 46.7B"),
    "qwen2.5-7b-instruct": (7_615_616_512, (7.61e9, 1e7), "Qwen2.5-7B: 7,615,616,512 (Hugging Face safetensors "
                            "total); the card's 'Number of Parameters: 7.61B, non-embedding 6.53B'"),
    "qwen3-8b": (None, (8.2e9, 1e8), "Qwen3-8B card: 'Number of Parameters: 8.2B, non-embedding 6.95B'"),
    "qwen3-30b-a3b": (None, (30.5e9, 1e8), "Qwen3-30B-A3B card: '30.5B in total and 3.3B activated', "
                      "non-embedding 29.9B"),
    "gemma-2-2b": (2_614_341_888, (2.61e9, 1e7), "gemma-2-2b: 2.61B (Hugging Face); Gemma 2 report Table 2: "
                   "2,024,517,888 non-embedding"),
    "gemma-2-9b": (9_241_705_984, (9.24e9, 1e7), "gemma-2-9b: 9.24B (Hugging Face); Gemma 2 report Table 2: "
                   "8,324,201,984 non-embedding"),
    "gemma-3-1b-it": (None, (1.0e9, 1e8), "Gemma 3 report Table 1: 1B, of which 302M embedding and 698M "
                      "non-embedding"),
    "deepseek-v3": (671_026_419_200, (671e9, 1e9), "DeepSeek-V3 README: '671B of the Main Model weights and "
                    "14B of the Multi-Token Prediction (MTP) Module weights'; 671,026,419,200 exactly"),
}

# non-embedding counts stated to more digits than the totals
NON_EMBEDDING = {
    "qwen2.5-7b-instruct": (6.53e9, 1e7),           # Qwen2.5-7B card
    "qwen3-8b": (6.95e9, 1e7),                      # Qwen3-8B card
    "qwen3-30b-a3b": (29.9e9, 1e8),                 # Qwen3-30B-A3B card
    "gemma-2-2b": (2_024_517_888, 1),               # Gemma 2 report, Table 2
    "gemma-2-9b": (8_324_201_984, 1),               # Gemma 2 report, Table 2
    "gemma-3-1b-it": (698e6, 1e6),                  # Gemma 3 report, Table 1
}


def _config(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


def _tensor_count(c: dict) -> tuple[int, int]:
    """(total, activated) parameters, weight by weight as the family's modelling code shapes them:
    embed_tokens [V, D], per layer q/k/v/o_proj (with Qwen2's q/k/v biases, Qwen3's and Gemma 3's
    q_norm/k_norm [H]), the MLP or the experts and their gate [E, D], the layer norms [D], the final
    norm [D] and lm_head [V, D] unless tied. DeepSeek's MLA: q_a_proj [q_rank, D], q_a_layernorm,
    q_b_proj [N*(nope+rope), q_rank], kv_a_proj_with_mqa [kv_rank+rope, D], kv_a_layernorm,
    kv_b_proj [N*(nope+v), kv_rank], o_proj [D, N*v]; the router's e_score_correction_bias [E]."""
    if "text_config" in c:
        c = c["text_config"]
    mt = c["model_type"]
    D, L, N, V = c["hidden_size"], c["num_hidden_layers"], c["num_attention_heads"], c["vocab_size"]
    tied = c.get("tie_word_embeddings", mt.startswith("gemma"))
    total = active = V * D * (1 if tied else 2) + D
    for i in range(L):
        norms = 4 * D if mt in ("gemma2", "gemma3_text") else 2 * D
        if mt.startswith("deepseek"):
            qr, kr, nope, rope, v = (c["q_lora_rank"], c["kv_lora_rank"], c["qk_nope_head_dim"],
                                     c["qk_rope_head_dim"], c["v_head_dim"])
            attn = qr * D + qr + N * (nope + rope) * qr + (kr + rope) * D + kr + N * (nope + v) * kr + D * N * v
        else:
            K = c.get("num_key_value_heads") or N
            H = c.get("head_dim") or D // N
            attn = D * N * H + 2 * D * K * H + N * H * D
            if mt == "qwen2":
                attn += N * H + 2 * K * H
            if mt in ("qwen3", "qwen3_moe", "gemma3_text"):
                attn += 2 * H
        layer = attn + norms
        if mt == "mixtral" or (mt == "qwen3_moe" and i not in c.get("mlp_only_layers", [])) or \
                (mt.startswith("deepseek") and i >= c["first_k_dense_replace"]):
            E = c.get("num_local_experts") or c.get("num_experts") or c["n_routed_experts"]
            F = c["intermediate_size"] if mt == "mixtral" else c["moe_intermediate_size"]
            shared = c.get("n_shared_experts", 0)
            router = E * D + (E if c.get("topk_method") == "noaux_tc" else 0)
            total += layer + (E + shared) * 3 * D * F + router
            active += layer + (c["num_experts_per_tok"] + shared) * 3 * D * F + router
        else:
            total += layer + 3 * D * c["intermediate_size"]
            active += layer + 3 * D * c["intermediate_size"]
    return total, active


def _preset(name: str):
    return load_model_config(FIXTURES / f"{name}.json")


def _value(target: str, name: str) -> int:
    sol = solve(target, model=_preset(name), presets=["bf16"])
    assert sol.value.is_Integer, sol.value
    return int(sol.value)


def test_six_families_are_covered():
    families = {_config(n)["model_type"] for n in PUBLISHED}
    assert {"llama", "mistral", "mixtral", "qwen2", "qwen3", "qwen3_moe", "gemma2", "gemma3_text",
            "deepseek_v3"} <= families


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_parameter_count_from_the_config_matches_the_published_one(name):
    exact, (stated, step), source = PUBLISHED[name]
    derived = _value("params", name)
    assert derived == _tensor_count(_config(name))[0], name
    if exact is not None:
        assert derived == exact, (name, derived, source)
    # to the stated digits, rounded or cut (Qwen's cards cut: 7,615,616,512 is shown as 7.61B)
    assert abs(derived - stated) < step, (name, derived, source)


@pytest.mark.parametrize("name", sorted(NON_EMBEDDING))
def test_non_embedding_count_matches(name):
    stated, step = NON_EMBEDDING[name]
    non_embedding = _value("params", name) - _value("embedding_params", name)
    assert abs(non_embedding - stated) < step or non_embedding == stated, (name, non_embedding)


def test_active_parameters_of_the_mixtures_of_experts():
    # Mixtral: the paper's "13B active parameters" (12.9B); the relations count both V x D matrices
    assert _value("active_params", "mixtral-8x7b-v0.1") == 12_879_925_248 == _tensor_count(
        _config("mixtral-8x7b-v0.1"))[1]
    # Qwen3-30B-A3B card: "3.3B activated": 8 of 128 experts in each of 48 layers
    a3b = _value("active_params", "qwen3-30b-a3b")
    assert a3b == _tensor_count(_config("qwen3-30b-a3b"))[1] == 3_353_032_704
    # DeepSeek-V3 (README_WEIGHTS.md): "Activation parameters: 36.6B (including 0.9B for the output
    # Head)": the relations also count the input embedding, a lookup, 129,280 x 7,168 = 926,679,040
    v3 = _value("active_params", "deepseek-v3")
    assert v3 == _tensor_count(_config("deepseek-v3"))[1]
    assert abs((v3 - 129_280 * 7_168) - 36.6e9) <= 0.05e9


@pytest.mark.parametrize(("name", "expected"), [
    # bf16 keys and values: 2 (K and V) x layers x KV heads x head size x 2 B
    ("llama-3.1-8b-instruct", 2 * 32 * 8 * 128 * 2),       # 131,072 B
    ("llama-3.1-70b-instruct", 2 * 80 * 8 * 128 * 2),      # 327,680 B
    ("mistral-7b-instruct-v0.3", 2 * 32 * 8 * 128 * 2),
    ("mixtral-8x7b-v0.1", 2 * 32 * 8 * 128 * 2),
    ("qwen2.5-7b-instruct", 2 * 28 * 4 * 128 * 2),         # 57,344 B
    ("qwen3-8b", 2 * 36 * 8 * 128 * 2),
    ("qwen3-30b-a3b", 2 * 48 * 4 * 128 * 2),
    ("gemma-2-9b", 2 * 42 * 8 * 256 * 2),                  # every layer's full cache (no window applied)
    ("gemma-3-1b-it", 2 * 26 * 1 * 256 * 2),
    # MLA: one latent of 512 and one shared RoPE key of 64 per layer, 61 layers: 70,272 B
    ("deepseek-v3", 61 * (512 + 64) * 2),
])
def test_kv_bytes_per_token(name, expected):
    assert _value("kv_bytes_per_token", name) == expected


def test_each_value_cites_its_config_field():
    preset = _preset("deepseek-v3")
    assert preset.id == "deepseek-v3.json" and preset.kind == "model"
    assert preset.values["num_experts"].source.locator == "n_routed_experts"
    assert int(preset.values["dense_layers"].value) == 3 and int(preset.values["moe_layers"].value) == 58
    assert int(preset.values["router_biases"].value) == 1           # topk_method noaux_tc
    assert "num_kv_heads" not in preset.values and "head_dim" not in preset.values   # MLA: the ranks instead
    mixtral = _preset("mixtral-8x7b-v0.1")
    assert "d_ff" not in mixtral.values and int(mixtral.values["d_ff_expert"].value) == 14336


def test_a_config_named_config_json_takes_its_folders_name(tmp_path):
    folder = tmp_path / "Meta-Llama-3.1-8B"
    folder.mkdir()
    (folder / "config.json").write_bytes((FIXTURES / "llama-3.1-8b-instruct.json").read_bytes())
    preset = load_model_config(folder / "config.json")
    assert preset.id == "Meta-Llama-3.1-8B.json"
    assert solve("params", model=preset).value == 8_030_261_248


def test_the_catalog_with_a_config_preset_is_made_once(catalog):
    preset = _preset("qwen3-8b")
    assert catalog.with_presets([preset]) is catalog.with_presets([_preset("qwen3-8b")])
    assert preset.id not in catalog.presets          # the built-in catalog is left as it was
    with pytest.raises(InputError, match="already in the catalog"):
        catalog.with_presets([preset]).with_presets([preset])


@pytest.mark.parametrize(("text", "message"), [
    ('{"model_type": "gpt2", "n_layer": 12}', 'model_type is "gpt2"; the families read are'),
    ('{"hidden_size": 4096}', "model_type is missing"),
    ('{"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "vocab_size": 32000}',
     "num_hidden_layers is missing (a llama config needs it)"),
    ('{"model_type": "llama", "num_hidden_layers": "32"}', "num_hidden_layers must be a whole number"),
    ('{"model_type": "llama", "num_hidden_layers": 32, "num_hidden_layers": 40}', "appears twice"),
    ('{"model_type": "llama", "num_hidden_layers": NaN}', "NaN is not a number JSON allows"),
    ('{"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 8, "num_attention_heads": 2, '
     '"hidden_act": ["silu"]}', 'hidden_act is ["silu"]; the gated activations read are'),
    ('[1, 2]', "holds one JSON object"),
    ('{"model_type": "llama",', "not valid JSON at line 1"),
])
def test_a_config_that_cannot_be_read_is_one_clear_error(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_model_config(path)
    assert message in str(err.value) and "\n" not in str(err.value)
    assert str(err.value).startswith(str(path))


def test_latent_attention_without_a_query_latent_is_refused_by_name():
    # DeepSeek-V2-Lite projects queries directly (q_lora_rank null): the MLA count needs the rank
    with pytest.raises(InputError, match="q_lora_rank is null"):
        _preset("deepseek-v2-lite")


def test_command_line(cli, tmp_path):
    config = FIXTURES / "qwen2.5-7b-instruct.json"
    run = cli("solve", "params", "--model-config", str(config), "--preset", "bf16", "--format", "json")
    assert run.code == 0, run.err
    assert run.json["exact"] == "7615616512"
    text = cli("solve", "params", "--model-config", str(config))
    assert "d_model = 3,584    model preset qwen2.5-7b-instruct.json" in text.out
    assert "hidden_size" in text.out          # each value names the config field it comes from
    both = cli("solve", "params", "--model", "llama3-8b", "--model-config", str(config))
    assert both.code != 0 and both.err.strip() == "derive: error: give --model or --model-config, not both"
    bad = tmp_path / "gpt2.json"
    bad.write_text('{"model_type": "gpt2"}', encoding="utf-8")
    refused = cli("solve", "params", "--model-config", str(bad))
    assert refused.code != 0 and len(refused.err.strip().splitlines()) == 1 and "model_type" in refused.err


def test_the_config_file_is_never_an_output(cli, tmp_path):
    config = tmp_path / "m.json"
    config.write_bytes((FIXTURES / "qwen3-8b.json").read_bytes())
    run = cli("solve", "params", "--model-config", str(config), "-o", str(config))
    assert run.code != 0
    assert json.loads(config.read_text(encoding="utf-8"))["model_type"] == "qwen3"


def test_chinese_is_optional_in_a_users_own_file(tmp_path):
    """A user's file may give a text in English alone (a plain string or ``{en: ...}``); it is shown
    as written in both languages. The built-in catalog still needs both."""
    path = tmp_path / "mine.yaml"
    path.write_text(
        "presets:\n"
        "  - id: my-model\n"
        "    kind: model\n"
        "    name: My model\n"
        "    source: my-notes\n"
        "    values:\n"
        "      num_layers: {value: 32, note: {en: from our config}}\n"
        "      d_model: 4096\n"
        "references:\n"
        "  - id: my-notes\n"
        "    title: our notes\n"
        "    kind: measured\n", encoding="utf-8")
    catalog = load_catalog([path])
    preset = catalog.presets["my-model"]
    assert preset.name.en == preset.name.zh == "My model"
    assert preset.values["num_layers"].note == "from our config"
    assert solve("d_model", model="my-model", catalog=catalog).value == 4096
