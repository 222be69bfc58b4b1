"""How the solver plans and solves: chains, inverses, simultaneous blocks, regimes, caching, checks."""

from __future__ import annotations

import copy

import pytest
import sympy

import derive.engine.solver as solver_module
from derive import ContradictoryInputsError, MissingInputsError, NoSolutionError, load_catalog, solve

S = lambda name: sympy.Symbol(name, positive=True)  # noqa: E731


def test_forward_chain_substitutes_exact_values():
    sol = solve("kv_cache_bytes", {"batch": 256, "seq_len": 4096}, model="llama2-70b")
    assert sol.value == 256 * 4096 * 327680
    assert sol.relations_used == ("kv_bytes_per_token", "kv_cache_bytes")
    assert sol.display("iec") == "320 GiB"


def test_inverse_question_through_a_chain():
    # how many 4096-token sequences of LLaMA-2 70B fit in 320 GiB of KV cache
    sol = solve("batch", {"kv_cache_bytes": "320 GiB", "seq_len": 4096}, model="llama2-70b")
    assert sol.value == 256
    assert any(st.inverse for st in sol.steps)


def test_simultaneous_block_is_solved_together():
    # weight_bytes = P*w, grad_bytes = P*g, 16 = w + g + 12: no relation has a single unknown
    sol = solve("params", {"weight_bytes": "14e9", "grad_bytes": "14e9", "training_bytes_per_param": "16 B",
                           "optimizer_bytes_per_param": "12 B"})
    assert sol.value == 7 * 10**9
    assert [st.kind for st in sol.steps] == ["system"]
    assert set(sol.steps[0].relations) == {"weight_bytes", "grad_bytes", "training_bytes_per_param"}


def test_a_block_is_the_same_in_every_process_whatever_the_string_hash():
    """Which relations are solved together is found by name, never in the order Python's string hashing
    happens to give a set in one process: the same derivation under any PYTHONHASHSEED."""
    import os
    import subprocess
    import sys

    args = [sys.executable, "-m", "derive", "solve", "params", "weight_bytes=14e9", "grad_bytes=14e9",
            "training_bytes_per_param=16 B", "optimizer_bytes_per_param=12 B", "--format", "json"]
    outputs = {subprocess.run(args, capture_output=True, text=True, check=True, timeout=120,
                              env=dict(os.environ, PYTHONHASHSEED=str(seed), DERIVE_CACHE_DIR="off")).stdout
               for seed in (0, 1, 2, 3)}
    assert len(outputs) == 1 and '"system"' in outputs.pop()


def test_roofline_regime_is_named():
    compute = solve("roofline_time", {"flops": "1e12", "bytes_moved": "1e9"}, hw="h100")
    assert compute.regime == "compute_bound"
    assert compute.value == sympy.Rational(10**12, 989 * 10**12)
    memory = solve("roofline_time", {"flops": "1e12", "bytes_moved": "1e10"}, hw="h100")
    assert memory.regime == "memory_bound"
    assert memory.value == sympy.Rational(10**10, 335 * 10**10)


def test_inverse_through_a_regime_checks_the_whole_relation():
    sol = solve("arithmetic_intensity", {"attainable_flops": "100 TFLOP/s"}, hw="h100")
    assert sol.regime == "memory_bound"
    assert sol.value == sympy.Rational(100, 335) * 100
    with pytest.raises(NoSolutionError, match="cannot hold for any positive"):
        # 2 ms is less than the memory time alone (1e10 B / 3.35 TB/s = 2.99 ms)
        solve("flops", {"roofline_time": "2 ms", "bytes_moved": "1e10"}, hw="h100")


def test_a_solved_inverse_is_reused_not_solved_again(monkeypatch):
    calls = []
    real = sympy.solve

    def counting(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(solver_module.sympy, "solve", counting)
    load_catalog().memo.inverses.clear()
    first = solve("seq_len", {"kv_cache_bytes": "100 GB", "batch": 3}, model="llama2-7b")
    n = len(calls)
    assert n >= 1
    second = solve("seq_len", {"kv_cache_bytes": "200 GB", "batch": 5}, model="llama2-7b")
    assert len(calls) == n, "the inverse of kv_cache_bytes for seq_len was solved twice"
    assert first.value != second.value


def test_missing_inputs_are_named_as_typed():
    with pytest.raises(MissingInputsError) as err:
        solve("kv_cache_bytes", model="llama2-70b")
    assert err.value.missing == ("batch", "seq_len")


def test_contradictory_inputs_name_relation_and_size():
    with pytest.raises(ContradictoryInputsError) as err:
        solve("memory_time", {"flops": "1e12", "bytes_moved": "1e9", "arithmetic_intensity": 5, "hbm_bw": "2 TB/s"})
    assert err.value.relation == "arithmetic_intensity"
    assert err.value.relative_error == pytest.approx(0.995)


def test_user_values_override_presets_and_say_so():
    sol = solve("kv_cache_bytes", {"kv_bytes_per_token": "300000 B", "batch": 1, "seq_len": 10}, model="llama2-70b")
    assert sol.value == 3 * 10**6
    assert any(n.kind == "override" for n in sol.notes)


def test_a_typed_value_that_contradicts_preset_values_decides_them():
    # the h100-superpod preset has 128 nodes of 8 GPUs; the Scaling Book's Quiz 3 asks about 2048 GPUs:
    # superpod_sus reads the nodes, which the typed GPUs now give (256 / 32 = 8), not the preset's 128
    sol = solve("superpod_sus", {"superpod_gpus": 2048}, presets=["h100-superpod"])
    assert sol.value == 8
    assert "superpod_nodes" in sol.steps[0].solved_for
    assert [n.kind for n in sol.notes if n.kind in ("override", "typed_decides", "unused_inputs")] == ["typed_decides"]
    assert dict(sol.notes[0].get("sources")) == {"superpod_nodes": "setup:h100-superpod"}
    assert "superpod_nodes" not in {g.name for g in sol.given}
    # 2048 GPUs at 400 GB/s per node through 3.2 TB/s switches: 256 · 400 GB/s / 3.2 TB/s = 32
    assert solve("spine_switches", {"superpod_gpus": 2048, "spine_node_bw": "400 GB/s"},
                 presets=["h100-superpod"]).value == 32


def test_assumed_defaults_are_reported():
    """The KV cache's element size follows the one element size, whose default is bf16: both are assumed."""
    sol = solve("kv_bytes_per_token", model="llama2-7b")
    assert {(g.name, g.value) for g in sol.assumptions} == {("kv_bytes_per_element", 2), ("bytes_per_element", 2)}


def test_given_defaults_are_not_assumed():
    """A given element size is not assumed; only that the KV cache is stored in it."""
    sol = solve("kv_bytes_per_token", {"bytes_per_element": "1 B"}, model="llama2-7b")
    assert [(g.name, g.value) for g in sol.assumptions] == [("kv_bytes_per_element", 1)]
    assert sol.value == 2 * 32 * 32 * 128
    assert solve("kv_bytes_per_token", {"kv_bytes_per_element": "1 B"}, model="llama2-7b").assumptions == ()


def test_bound_without_a_closed_direction_is_an_error():
    with pytest.raises(NoSolutionError, match="no maximum"):
        solve("batch", hw="tpu-v5e", presets=["classic-ffn"], bound="max", require=["ffn_prefetch_hidden"])


def test_require_without_bound_checks_the_condition():
    ok = solve("arithmetic_intensity", {"flops": "1e12", "bytes_moved": "1e9"}, hw="a100", require=["compute_bound"])
    assert ok.value == 1000
    with pytest.raises(NoSolutionError, match="compute_bound"):
        solve("arithmetic_intensity", {"flops": "1e12", "bytes_moved": "1e11"}, hw="a100", require=["compute_bound"])


# bounds for new values: located from the shape's roots in floats, settled exactly at whole numbers

def _isqrt_floor(n: sympy.Rational) -> int:
    """floor(sqrt(n)) for a positive rational, exactly."""
    import math

    return math.isqrt(int(n.p) // int(n.q)) if n.q == 1 else int(sympy.floor(sympy.sqrt(n)))


@pytest.mark.parametrize("mib", [1, 64, 65, 100, 4095, 10**6, 3 * 10**12, 2**70 + 1])
def test_max_bound_matches_the_exact_floor_for_new_values(catalog, mib):
    # 16·D² <= vmem (two FFN matrices, 4x width, 2 B weights): D = floor(sqrt(vmem / 16))
    s = solve("d_model", catalog=catalog, given={"vmem_capacity": f"{mib} MiB"}, hw="tpu-v5e",
              presets=["classic-ffn"], bound="max", require=["ffn_fits_in_vmem"])
    vmem = sympy.Integer(mib * 2**20)
    assert s.value == _isqrt_floor(vmem / 16)
    assert s.exact == sympy.sqrt(vmem) / 4      # the edge before rounding, exact


@pytest.mark.parametrize("d", [1, 7, 2063, 2064, 10**7])
def test_max_bound_at_an_edge_that_is_a_whole_number_keeps_it(catalog, d):
    s = solve("d_model", catalog=catalog, given={"vmem_capacity": f"{16 * d * d} B"}, hw="tpu-v5e",
              presets=["classic-ffn"], bound="max", require=["ffn_fits_in_vmem"])
    assert s.value == d and s.exact == d


@pytest.mark.parametrize("params", [1, 7 * 10**9, 40 * 10**9, 40 * 10**9 + 1, 10**21 + 3, 10**30])
def test_min_device_count_matches_the_exact_ceiling_for_new_values(catalog, params):
    # params · 2 B <= n · 80 GB: n = ceil(params / 4e10)
    s = solve("num_devices", catalog=catalog, given={"params": params}, model="llama2-70b", hw="h100",
              bound="min", require=["weights_fit"])
    assert s.value == -(-params // (4 * 10**10))


def test_a_bound_whose_float_roots_cancel_is_still_exact(catalog):
    # the largest d_ff whose weights fit, where the closed form subtracts two numbers of 2e19
    # that agree to 16 digits: floats alone would lose the answer (10)
    given = {"d_model": 1, "embedding_matrices": 1, "ffn_matrices": 1, "final_norms": 1,
             "hbm_capacity": "19999999999999999000 B", "head_dim": 1, "norms_per_layer": 1, "num_devices": 1,
             "num_heads": 1, "num_kv_heads": 9999999999999992, "num_layers": 1, "vocab_size": 1,
             "weight_bytes_per_param": "1000 B"}
    s = solve("d_ff", catalog=catalog, given=given, bound="max", require=["weights_fit"])
    # 1000·(1 + 1 + 2·(1 + 9999999999999992) + 1 + d_ff) <= 19999999999999999000
    assert s.value == 19999999999999999000 // 1000 - (1 + 1 + 2 * (1 + 9999999999999992) + 1)


# inputs nothing reads are said, never dropped silently

def _unused(solution) -> list[str]:
    return [n.get("names") for n in solution.notes if n.kind == "unused_inputs"]


def test_an_input_no_relation_reads_is_named_in_a_note(catalog):
    s = solve("decode_weight_time", catalog=catalog, hw="a100",
              given={"params": 52e9, "num_devices": 4, "hbm_capacity": "40 GB", "mfu": 0.5})
    assert s.value == sympy.Rational(13, 1000)     # 104 GB / (4 x 2 TB/s)
    assert _unused(s) == ["hbm_capacity, mfu"]
    assert "hbm_capacity" not in {g.name for g in s.given}


def test_inputs_that_are_read_or_cancel_are_not_called_unused(catalog):
    s = solve("decode_weight_time", catalog=catalog, hw="a100", given={"params": 52e9, "num_devices": 4})
    assert _unused(s) == []


def test_a_problems_shared_input_is_not_called_unused_by_one_question(catalog, tmp_path):
    from derive.documents.problems import load_problem

    path = tmp_path / "p.yaml"
    path.write_text(
        "id: p\ntitle: {en: t, zh: t}\nstatement: {en: s, zh: s}\nhw: a100\n"
        "given: {params: 52e9, hbm_capacity: 40 GB}\n"
        "questions:\n"
        "  - id: a\n    ask: {en: a, zh: a}\n    solve: decode_weight_time\n    given: {num_devices: 4, mfu: 0.5}\n"
        "  - id: b\n    ask: {en: b, zh: b}\n    solve: num_devices\n    bound: min\n    require: [weights_fit]\n",
        encoding="utf-8")
    problem = load_problem(path, catalog)
    first, second = (q.solve(catalog) for q in problem.questions)
    assert _unused(first) == ["mfu"]          # its own input; hbm_capacity is the problem's
    assert _unused(second) == []


def test_training_time_from_achieved_flops_per_device_derives_the_utilisation(catalog):
    # C = 6·N·D over τ = devices x achieved FLOP/s (EleutherAI's Transformer Math 101), no recomputation
    # unless said: mfu comes from the achieved FLOP/s, not asked for
    s = solve("train_time", catalog=catalog, hw="a100",
              given={"params": 20e9, "train_tokens": 472e9, "num_devices": 96,
                     "achieved_flops_per_device": "150 TFLOP/s"})
    assert s.value == sympy.Rational(6 * 20 * 10**9 * 472 * 10**9, 96 * 150 * 10**12)
    assert {g.name: g.origin for g in s.given}["recompute_fraction"] == "default"
    full = solve("train_time", catalog=catalog, hw="a100",
                 given={"params": 20e9, "train_tokens": 472e9, "num_devices": 96,
                        "achieved_flops_per_device": "150 TFLOP/s", "recompute_fraction": 1})
    assert full.value == sympy.Rational(8 * 20 * 10**9 * 472 * 10**9, 96 * 150 * 10**12)


def test_an_input_that_picks_the_term_of_a_max_at_a_bound_is_not_called_cancelled(catalog):
    # decode step = KV time + max(compute, weights): at 737 sequences the step is compute-bound, so the
    # bound's formula has no weight bytes, but 8 B per parameter makes the weights the larger term
    ask = dict(catalog=catalog, model="llama2-70b", hw="h100", bound="max",
               require=["decode_step_time <= 50 ms"])
    bf16 = solve("batch", {"seq_len": "4096", "num_devices": "8"}, presets=["bf16"], **ask)
    assert bf16.value == 737
    kinds = {n.kind: n for n in bf16.notes}
    assert "cancelled" not in kinds and kinds["branch_inputs"].get("names") == "weight_bytes_per_param"
    wide = solve("batch", {"seq_len": "4096", "num_devices": "8", "weight_bytes_per_param": "8 B",
                           "kv_bytes_per_element": "2 B"}, **ask)
    assert wide.value == 581


# A question of a shape answered before is planned from what was kept for that shape (the presets'
# values, which missing inputs it needs): the answer at new values is the one a fresh catalog gives.
_SHAPES = [
    (dict(target="num_devices", model="llama2-70b", hw="h100", bound="min", require=["weights_fit"]),
     "params", [7 * 10**9, 70 * 10**9, 10**12 + 1]),
    (dict(target="d_model", hw="tpu-v5e", presets=["classic-ffn"], bound="max", require=["ffn_fits_in_vmem"]),
     "vmem_capacity", ["64 MiB", "100 MB", "1 GiB"]),
    (dict(target="roofline_time", hw="a100", given={"bytes_moved": "1 GB"}), "flops", ["1e9 FLOP", "1e12 FLOP", "1e15 FLOP"]),
    (dict(target="kv_cache_bytes", model="llama2-70b", given={"batch": 8}), "seq_len", [1, 4096, 32768]),
]


@pytest.mark.parametrize("shape, name, values", _SHAPES, ids=[s[0]["target"] for s in _SHAPES])
def test_a_shape_answered_before_answers_new_values_as_a_fresh_catalog(shape, name, values):
    def ask(catalog, value):
        options = dict(shape)
        given = dict(options.pop("given", {}))
        given[name] = value
        return solve(options.pop("target"), given, catalog=catalog, **options)

    def fresh_catalog():
        built = load_catalog()
        catalog = copy.copy(built)                      # the same content, an empty memo (nothing kept yet)
        catalog.unit_table = built.unit_table
        return catalog

    warm = fresh_catalog()
    for value in values:
        again = ask(warm, value)                        # after the earlier values of this shape
        fresh = ask(fresh_catalog(), value)
        assert (again.value, again.exact, again.steps, again.checks, again.notes, again.given) == \
               (fresh.value, fresh.exact, fresh.steps, fresh.checks, fresh.notes, fresh.given)
