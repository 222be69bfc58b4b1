"""A Hugging Face ``config.json`` read into a model :class:`~derive.records.entries.Preset`.

``load_model_config(path)`` reads the file as JSON (never as code) and maps its fields to the
catalog's architecture quantities, the ones the ``-arch`` presets of ``formulas/models.yaml``
hold: ``num_layers``, ``d_model``, the heads, ``d_ff`` (or ``d_ff_expert`` and the dense layers
of a mixture of experts), ``vocab_size``, ``embedding_matrices``, the norms, and DeepSeek's
latent-attention ranks. The parameter counts, KV bytes per token and everything else then follow
from the catalog's relations, as for a built-in preset. Each value cites the config field it comes
from. What a family adds to its attention (Qwen2's Q, K and V biases, the per-head query and key
norms of Qwen3 and Gemma 3) is written as ``attn_params_per_layer`` in terms of the heads, as a
built-in preset does for an attention the relations do not count (Chinchilla's).

Families read: ``llama``, ``mistral``, ``mixtral``, ``qwen2``, ``qwen3``, ``qwen3_moe``, ``gemma``,
``gemma2``, ``gemma3_text`` (also inside a multimodal config's ``text_config``), ``deepseek_v2``
and ``deepseek_v3``. Another ``model_type``, a missing field or a value of the wrong kind is a
one-line :class:`~derive.InputError` naming the field.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import sympy

from ..errors import InputError
from ..records.entries import Preset, PresetValue, Source, Text
from ..storage.files import read_user_file

__all__ = ["FAMILIES", "load_model_config", "preset_from_config"]

#: model_type -> what the family's modelling code builds beyond a LLaMA layer, and its defaults
FAMILIES: dict[str, dict[str, Any]] = {
    "llama": {"tied": False, "norms": 2},
    "mistral": {"tied": False, "norms": 2, "window": True},
    "mixtral": {"tied": False, "norms": 2, "window": True, "moe": "mixtral"},
    "qwen2": {"tied": False, "norms": 2, "qkv_bias": True},
    "qwen3": {"tied": False, "norms": 2, "qk_norm": True},
    "qwen3_moe": {"tied": False, "norms": 2, "qk_norm": True, "moe": "qwen3_moe"},
    "gemma": {"tied": True, "norms": 2},
    "gemma2": {"tied": True, "norms": 4},
    "gemma3_text": {"tied": True, "norms": 4, "qk_norm": True},
    "deepseek_v2": {"tied": False, "norms": 2, "moe": "deepseek", "mla": True},
    "deepseek_v3": {"tied": False, "norms": 2, "moe": "deepseek", "mla": True},
}

_GATED = {"silu", "swish", "gelu", "gelu_pytorch_tanh", "gelu_new", "gelu_fast"}
_MAX_LAYERS = 10_000


@dataclass
class _Reader:
    """The fields of one config, read with the file named in every error."""

    config: Mapping[str, Any]
    display: str
    model_type: str
    values: dict[str, PresetValue] = field(default_factory=dict)

    def fail(self, message: str) -> InputError:
        return InputError(f"{self.display}: {message}", name="model_config")

    def whole(self, key: str, *, minimum: int = 1, default: int | None = None) -> int:
        """The whole-number field ``key`` (``default`` when absent or null)."""
        raw = self.config.get(key)
        if raw is None:
            if default is not None:
                return default
            raise self.fail(f"{key} is missing (a {self.model_type} config needs it)")
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise self.fail(f"{key} must be a whole number, not {json.dumps(raw)[:40]}")
        if raw < minimum:
            raise self.fail(f"{key} is {raw}; it must be {minimum} or more")
        return raw

    def flag(self, key: str, default: bool) -> bool:
        raw = self.config.get(key, default)
        if raw is None:
            return default
        if not isinstance(raw, bool):
            raise self.fail(f"{key} must be true or false, not {json.dumps(raw)[:40]}")
        return raw

    def put(self, quantity: str, value: int, key: str, en: str = "", zh: str = "") -> None:
        """``quantity`` = ``value``, cited as the config field ``key`` (with a note in both languages)."""
        self.values[quantity] = PresetValue(quantity, sympy.Integer(value), str(value), Source(self.display, key),
                                            en, note_zh=zh)

    def follow(self, quantity: str, expression: str, key: str, en: str, zh: str) -> None:
        """``quantity`` taken from arithmetic over other quantities of the preset (``same_as``)."""
        self.values[quantity] = PresetValue(quantity, None, f"= {expression}", Source(self.display, key), en,
                                            same_as=expression, note_zh=zh)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise InputError(f"the key {key!r} appears twice in one object; give it once", name="model_config")
        seen[key] = value
    return seen


def _no_constant(text: str) -> Any:
    raise InputError(f"{text} is not a number JSON allows; give a number", name="model_config")


def _label(path: Path) -> str:
    """The preset id for a config file: its folder's name for ``config.json`` (``Meta-Llama-3.1-8B.json``),
    else the file's name (``deepseek-v3.json``), reduced to letters, digits, '.', '_' and '-'; always
    ending in ``.json``, which no built-in preset's id does."""
    base = path.parent.name if path.name == "config.json" and path.parent.name else path.stem
    label = re.sub(r"[^A-Za-z0-9._-]+", "-", base).strip("-.")[:80] or "model-config"
    return f"{label}.json"


def load_model_config(path: str | os.PathLike) -> Preset:
    """The model preset a Hugging Face ``config.json`` describes (see the module docstring).

    Use it as ``solve("params", model=load_model_config("config.json"))``; its id is the file's
    folder name and ``.json`` for ``config.json`` (``Meta-Llama-3.1-8B.json``), else the file's name.
    """
    p = Path(path)
    display = str(path)
    data = read_user_file(p, display)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{display}: not UTF-8 text (byte {exc.start}); give a config.json",
                         name="model_config") from None
    try:
        config = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise InputError(f"{display}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}",
                         name="model_config") from None
    except InputError as exc:
        raise InputError(f"{display}: {exc.message}", name="model_config") from None
    if not isinstance(config, dict):
        raise InputError(f"{display}: a config.json holds one JSON object ({{...}}), not a "
                         f"{type(config).__name__}", name="model_config")
    return preset_from_config(config, preset_id=_label(p), display=display)


def preset_from_config(config: Mapping[str, Any], *, preset_id: str, display: str = "config.json") -> Preset:
    """The model preset of an already parsed ``config.json`` object; ``display`` names it in errors
    and in the values' sources."""
    model_type = config.get("model_type")
    wrapped = ""
    if model_type not in FAMILIES and isinstance(config.get("text_config"), dict):
        inner = config["text_config"]
        if inner.get("model_type") in FAMILIES:
            wrapped = f"the text model of a {model_type} config (its vision tower is not counted); "
            config, model_type = inner, inner["model_type"]
    if not isinstance(model_type, str) or model_type not in FAMILIES:
        shown = json.dumps(model_type)[:40] if model_type is not None else "missing"
        raise InputError(f"{display}: model_type is {shown}; the families read are {', '.join(sorted(FAMILIES))}",
                         name="model_config")
    family = FAMILIES[model_type]
    r = _Reader(config, display, model_type)
    layers = r.whole("num_hidden_layers")
    if layers > _MAX_LAYERS:
        raise r.fail(f"num_hidden_layers is {layers}; a model has at most {_MAX_LAYERS} layers here")
    d_model = r.whole("hidden_size")
    heads = r.whole("num_attention_heads")
    r.put("num_layers", layers, "num_hidden_layers")
    r.put("d_model", d_model, "hidden_size")
    r.put("num_heads", heads, "num_attention_heads")
    for key in ("attention_bias", "mlp_bias"):
        if r.flag(key, False):
            raise r.fail(f"{key} is true: biases on every projection are not read yet; this reader counts "
                         f"{model_type} models without them")
    act = config.get("hidden_activation") or config.get("hidden_act") or "silu"
    if not isinstance(act, str) or act not in _GATED:
        raise r.fail(f"hidden_act is {json.dumps(act)[:40]}; the gated activations read are "
                     f"{', '.join(sorted(_GATED))}")
    kind = "SwiGLU" if act in ("silu", "swish") else "GeGLU"
    r.put("ffn_matrices", 3, "hidden_act", f"{kind} ({act}): gate, up and down projections",
          f"{kind}（{act}）：gate、up 和 down 三个投影")
    r.put("vocab_size", r.whole("vocab_size"), "vocab_size")
    tied = r.flag("tie_word_embeddings", family["tied"])
    said = "true" if tied else "false"
    default = "" if "tie_word_embeddings" in config else f" ({model_type}'s default)"
    r.put("embedding_matrices", 1 if tied else 2, "tie_word_embeddings", f"tie_word_embeddings: {said}{default}",
          f"tie_word_embeddings: {said}（{'输入与输出嵌入共享' if tied else '输入与输出嵌入不共享'}）")
    norms = family["norms"]
    r.put("norms_per_layer", norms, "model_type",
          "two RMSNorms per layer" if norms == 2 else "pre- and post-norms around attention and around the MLP",
          "每层两个 RMSNorm" if norms == 2 else "注意力和 MLP 前后各有一个归一化（pre-norm 与 post-norm）")
    r.put("final_norms", 1, "model_type", "the final RMSNorm", "最后的 RMSNorm")
    if family.get("mla"):
        _latent_attention(r)
    else:
        _attention(r, family, d_model, heads)
    moe = family.get("moe")
    if moe is None:
        r.put("d_ff", r.whole("intermediate_size"), "intermediate_size")
    else:
        _experts(r, moe, layers)
    window = config.get("sliding_window")
    if family.get("window") and window is not None and config.get("use_sliding_window", True) is not False:
        r.put("attention_window", r.whole("sliding_window"), "sliding_window",
              "sliding-window attention in every layer", "每层都用滑动窗口注意力")
    ignored = ("; the multi-token-prediction module is not counted"
               if config.get("num_nextn_predict_layers") else "")
    note = (f"read from {display}: {wrapped}model_type {model_type}{ignored}; params and active_params are "
            f"derived from the architecture")
    return Preset(id=preset_id, kind="model", name=Text(f"{preset_id} (a Hugging Face config)",
                                                        f"{preset_id}（Hugging Face 配置文件）"),
                  source=Source(display), values=dict(r.values), note=note, file=display)


def _attention(r: _Reader, family: Mapping[str, Any], d_model: int, heads: int) -> None:
    """Query, key and value heads of grouped-query attention, and what the family adds to them."""
    kv = r.whole("num_key_value_heads", default=heads)
    if kv > heads or heads % kv:
        raise r.fail(f"num_key_value_heads is {kv}; it must divide num_attention_heads ({heads})")
    if kv == heads:
        r.put("num_kv_heads", kv, "num_key_value_heads", "multi-head attention", "多头注意力")
    else:
        r.put("num_kv_heads", kv, "num_key_value_heads", f"grouped-query attention: {heads} query heads share {kv} "
              f"KV heads", f"分组查询注意力（GQA）：{heads} 个 query 头共享 {kv} 个 KV 头")
    if r.config.get("head_dim") is not None:
        r.put("head_dim", r.whole("head_dim"), "head_dim")
    elif d_model % heads:
        raise r.fail(f"head_dim is missing and hidden_size ({d_model}) is not a multiple of "
                     f"num_attention_heads ({heads})")
    else:
        r.put("head_dim", d_model // heads, "hidden_size", "hidden_size / num_attention_heads",
              "hidden_size / num_attention_heads")
    projections = "2 * d_model * (num_heads + num_kv_heads) * head_dim"
    if family.get("qkv_bias"):
        r.follow("attn_params_per_layer", f"{projections} + (num_heads + 2 * num_kv_heads) * head_dim", "model_type",
                 "Q, K, V and O projections, and the biases of Q, K and V ((N + 2K)·H), which Qwen2 layers carry",
                 "Q、K、V、O 投影，加上 Qwen2 每层 Q、K、V 的偏置（(N + 2K)·H）")
    elif family.get("qk_norm"):
        r.follow("attn_params_per_layer", f"{projections} + 2 * head_dim", "model_type",
                 "Q, K, V and O projections, and the RMSNorms of each query and key head (2·H)",
                 "Q、K、V、O 投影，加上每个 query 头与 key 头的 RMSNorm（2·H）")


def _latent_attention(r: _Reader) -> None:
    """DeepSeek's multi-head latent attention: the latent ranks, never KV heads or a head size."""
    if r.config.get("q_lora_rank") is None:
        raise r.fail("q_lora_rank is null (queries projected without a latent, as DeepSeek-V2-Lite): "
                     "not read yet; the latent-attention count needs q_lora_rank")
    for name in ("q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"):
        r.put(name, r.whole(name), name)


def _experts(r: _Reader, moe: str, layers: int) -> None:
    """The experts of a mixture of experts, and which layers keep a dense MLP."""
    if moe == "mixtral":
        routed, width = r.whole("num_local_experts"), r.whole("intermediate_size")
        dense = [False] * layers
        shared, width_key, routed_key, bias = 0, "intermediate_size", "num_local_experts", 0
    elif moe == "qwen3_moe":
        routed, width = r.whole("num_experts"), r.whole("moe_intermediate_size")
        step = r.whole("decoder_sparse_step", default=1)
        only = r.config.get("mlp_only_layers") or []
        if not isinstance(only, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in only):
            raise r.fail("mlp_only_layers must be a list of layer numbers")
        dense = [i in only or (i + 1) % step != 0 for i in range(layers)]
        shared, width_key, routed_key, bias = 0, "moe_intermediate_size", "num_experts", 0
    else:
        routed, width = r.whole("n_routed_experts"), r.whole("moe_intermediate_size")
        first, freq = r.whole("first_k_dense_replace", minimum=0, default=0), r.whole("moe_layer_freq", default=1)
        dense = [not (i >= first and i % freq == 0) for i in range(layers)]
        shared, width_key, routed_key = r.whole("n_shared_experts", minimum=0, default=0), "moe_intermediate_size", \
            "n_routed_experts"
        bias = 1 if r.config.get("topk_method") == "noaux_tc" else 0
    per_token = r.whole("num_experts_per_tok")
    if per_token > routed:
        raise r.fail(f"num_experts_per_tok is {per_token}, more than the {routed} experts")
    n_dense = sum(dense)
    if n_dense == layers:
        raise r.fail("no layer has experts (mlp_only_layers, decoder_sparse_step or first_k_dense_replace "
                     "leave every layer dense)")
    r.put("moe_layers", layers - n_dense, routed_key, f"{layers - n_dense} of {layers} layers have experts",
          f"{layers} 层中有 {layers - n_dense} 层是混合专家层")
    r.put("dense_layers", n_dense, "first_k_dense_replace" if moe == "deepseek" else "mlp_only_layers")
    if n_dense:
        r.put("d_ff_dense", r.whole("intermediate_size"), "intermediate_size", "the dense layers' MLP width",
              "稠密层 MLP 的宽度")
    r.put("d_ff_expert", width, width_key, "the width of each expert", "每个专家的宽度")
    r.put("num_experts", routed, routed_key)
    r.put("experts_per_token", per_token, "num_experts_per_tok")
    r.put("shared_experts", shared, "n_shared_experts" if moe == "deepseek" else "model_type")
    r.put("router_biases", bias, "topk_method" if moe == "deepseek" else "model_type",
          "the router's per-expert load-balancing bias (topk_method noaux_tc)" if bias else "a router without a bias",
          "路由器的每专家负载均衡偏置（topk_method 为 noaux_tc）" if bias else "路由器不带偏置")
