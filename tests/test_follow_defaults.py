"""Defaults that follow a missing input are taken as formulas in it, so that it can cancel.

The Scaling Book states its attention results with N·H = D and K = N, and under those the head
count drops out: the catalog's defaults head_dim = d_model / num_heads and num_kv_heads =
num_heads, with num_heads unknown, are taken as those formulas; num_heads then cancels and the
answer says so, or the answer depends on it and it is reported missing by name. The expected
values are worked out here by hand from the chapter (jax-ml/scaling-book, transformers.md @
2aa7c49), not from the engine.
"""

from __future__ import annotations

import pytest
import sympy

from derive import MissingInputsError, solve


def _formula_defaults(sol) -> dict[str, str]:
    return {g.name: str(g.value) for g in sol.given if g.origin == "default" and g.is_formula}


def _notes(sol) -> dict[str, dict]:
    return {n.kind: n.as_dict() for n in sol.notes}


MATMULS = {"d_model": 8192, "d_ff": 32768, "ffn_matrices": 3}


def test_attention_below_the_matmuls_from_the_width_alone(catalog):
    # "Fractional cost of attention": attention FLOPs 12·B·T²·N·H against matmul FLOPs 18·B·T·D·F +
    # 24·B·T·D·N·H (training; per token and layer forward, 4·T·N·H against 2·(3·D·F + 4·D·N·H)), with
    # D = N·H and K = N: 4·T·D <= 6·D·F + 8·D², T <= 3·F/2 + 2·D, which is 8·D at F = 4·D:
    # "For D ~ 8k, this would be ~64K tokens"
    D, F_ = 8192, 32768
    expected = sympy.Rational(3 * F_, 2) + 2 * D
    assert expected == 8 * D == 65536
    sol = solve("seq_len", MATMULS, bound="max", require=["attn_below_matmuls"], catalog=catalog)
    assert sol.value == expected
    # the defaults are said, as the formulas they follow; num_heads (and the layer count) cancel
    assert _formula_defaults(sol) == {"head_dim": "d_model/num_heads", "num_kv_heads": "num_heads"}
    assert {g.name: g.text for g in sol.assumptions} == {"head_dim": "d_model / num_heads",
                                                         "num_kv_heads": "num_heads"}
    assert set(sol.cancelled) == {"num_heads", "num_layers"}
    assert _notes(sol)["cancelled"]["names"] == "num_heads, num_layers"
    assert "num_heads" not in {s.name for s in sol.formula.free_symbols}
    # the attention parameters are a number (4·D²) and their relation is checked with the defaults put in
    step = next(st for st in sol.steps if st.solved_for == ("attn_params_per_layer",))
    assert step.values == (4 * D * D,)
    assert any(c.kind == "relation" and c.name == "attn_params_per_layer" and c.holds for c in sol.checks)


def test_attention_equal_to_the_projections_at_twice_the_width(catalog):
    # Question 5: "24BTDNH == 12BT^2NH. Simplifying we get 2D = T, so e.g. for D=4096, this is 8192";
    # the head size cancels by itself, the KV heads follow the query heads, which then cancel
    sol = solve("seq_len", {"d_model": 4096}, bound="max", require=["attn_below_qkvo"], catalog=catalog)
    assert sol.value == 2 * 4096
    assert _formula_defaults(sol) == {"num_kv_heads": "num_heads"}
    assert {"head_dim", "num_heads"} <= set(sol.cancelled)


def test_kv_cache_per_token_from_the_width_and_the_layers(catalog):
    # Question 1: "You can assume N·H=D and multi-head attention with int8 KVs ... 2·L·N·H = 2·64·4096
    # in int8, which is 512kB / token" (512 KiB): the head count is not needed
    sol = solve("kv_bytes_per_token", {"num_layers": 64, "d_model": 4096, "kv_bytes_per_element": "1 B"},
                catalog=catalog)
    assert sol.value == 2 * 64 * 4096 == 512 * 1024
    assert _formula_defaults(sol) == {"head_dim": "d_model/num_heads", "num_kv_heads": "num_heads"}
    assert sol.cancelled == ("num_heads",)


def test_a_head_count_that_cancels_only_once_the_fraction_is_reduced(catalog):
    # inference.md, "What about attention?": with K = N the intensity 2·T·S·N / (e·(T·N + S·K)) is
    # 2·T·S / (e·(T + S)), "S >> T = 1 => ST/(S+T) ≈ 1": 8192/8193 FLOP/B in bf16
    sol = solve("attn_intensity", {"query_len": 1, "seq_len": 8192}, presets=["bf16"], catalog=catalog)
    assert sol.value == sympy.Rational(2 * 8192, 2 * (1 + 8192))
    assert _formula_defaults(sol) == {"num_kv_heads": "num_heads"} and sol.cancelled == ("num_heads",)
    assert "num_heads" not in {s.name for s in sol.formula.free_symbols}


@pytest.mark.parametrize("target, bound, require, given", [
    # GQA: 8 KV heads of D/N each, so the cache is 2·L·8·(D/N)·e and depends on N
    ("kv_bytes_per_token", None, (), {"num_layers": 64, "d_model": 4096, "num_kv_heads": 8}),
    # with 8 KV heads the projections are 2·D·(N + 8)·D/N: the crossover depends on N
    ("seq_len", "max", ("attn_below_matmuls",), {**MATMULS, "num_kv_heads": 8}),
])
def test_a_head_count_the_answer_depends_on_is_still_asked_for(catalog, target, bound, require, given):
    with pytest.raises(MissingInputsError) as err:
        solve(target, given, bound=bound, require=list(require), catalog=catalog)
    assert err.value.missing == ("num_heads",)
    assert "head_dim defaults to d_model / num_heads" in str(err.value)


def test_a_head_count_that_matters_is_one_line_on_the_command_line(cli):
    run = cli("solve", "kv_bytes_per_token", "num_layers=64", "d_model=4096", "num_kv_heads=8")
    assert run.code == 2 and run.err.count("\n") == 1 and "Traceback" not in run.err
    assert run.err.startswith("derive: error: cannot determine kv_bytes_per_token: missing num_heads;")


def test_a_model_that_gives_its_head_size_is_unchanged(catalog):
    # Gemma 7B: 16 heads of 256 over D = 3072 (N·H = 4096, not D), K = N, F = 24576 gated: the crossover
    # 4·T·N·H = 2·(2·D·(N+K)·H + 3·D·F) is T = (2·3072·32·256 + 3·3072·24576) / (2·16·256) = 33,792
    sol = solve("seq_len", bound="max", require=["attn_below_matmuls"], model="gemma-7b", catalog=catalog)
    assert sol.value == sympy.Rational(2 * 3072 * 32 * 256 + 3 * 3072 * 24576, 2 * 16 * 256) == 33792
    assert not sol.assumptions and not any(g.is_formula for g in sol.given)
    assert {g.name: g.value for g in sol.given if g.name in ("head_dim", "num_heads")} == {"head_dim": 256,
                                                                                            "num_heads": 16}
    assert "num_heads" not in sol.cancelled
    kv = solve("kv_bytes_per_token", model="gemma-7b", presets=["bf16"], catalog=catalog)
    assert kv.value == 2 * 28 * 16 * 256 * 2 and not any(g.is_formula for g in kv.given)


def test_a_width_that_is_missing_too_is_asked_for(catalog):
    # num_heads given, d_model not: head_dim = d_model / num_heads keeps d_model, which does not cancel
    with pytest.raises(MissingInputsError) as err:
        solve("kv_bytes_per_token", {"num_layers": 64, "num_heads": 32}, catalog=catalog)
    assert err.value.missing == ("d_model",)


@pytest.mark.parametrize("fmt", ["text", "md"])
def test_the_write_up_shows_the_defaults_and_what_cancels(cli, catalog, fmt):
    run = cli("solve", "seq_len", "--max", "--require", "attn_below_matmuls", "d_model=8192", "d_ff=32768",
              "ffn_matrices=3", "--format", fmt)
    assert run.code == 0, run.err
    if fmt == "text":
        assert "seq_len <= 65,536" in run.out
        assert "head_dim = d_model/num_heads    assumed (catalog default)" in run.out
        assert "num_kv_heads = num_heads    assumed (catalog default)" in run.out
        assert "Cancelled out: the answer does not depend on num_heads, num_layers." in run.out
        # the step shows the default put in, and the head count cancelling
        assert "= 2*8,192*(num_heads + num_heads)*(8,192/num_heads)" in run.out      # in the written order
    else:
        a, h, k, d = (catalog.quantities[n].latex for n in ("num_heads", "head_dim", "num_kv_heads", "d_model"))
        assert "S \\le 65{,}536" in run.out
        assert f"| head dimension | ${h}$ | $\\frac{{{d}}}{{{a}}}$ | assumed: catalog default |" in run.out
        assert f"| KV heads | ${k}$ | ${a}$ | assumed: catalog default |" in run.out
        assert "Cancelled out: the answer does not depend on attention heads, number of layers." in run.out
