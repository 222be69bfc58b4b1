"""Answers that cannot mislead (issue 14): each command a user tried gives the right answer or the
right note. Every case is a real solve, through the API and, where the wording matters, the CLI."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from derive import QuestionError, UnknownNameError, solve


def frac(sol) -> Fraction:
    return Fraction(int(sol.value.p), int(sol.value.q))


# ---------------------------------------------------------------------------
# 1. a regime note says what is true


def test_inputs_that_only_choose_the_regime_are_named_with_their_numbers(cli):
    args = ["roofline_time", "flops=1e12FLOP", "bytes_moved=1GB", "peak_flops=100TFLOP/s", "hbm_bw=1TB/s"]
    sol = solve(args[0], dict(a.split("=") for a in args[1:]))
    assert sol.display() == "10 ms" and sol.regime == "compute_bound"
    assert sol.cancelled == ()                                  # not "bytes_moved cancels out"
    run = cli("solve", *args)
    assert "cancelled out" not in run.out
    assert ("compute_time = 10 ms ≥ memory_time = 1 ms, so the answer is compute-bound and does not change "
            "while that holds; bytes_moved, hbm_bw only choose the regime.") in run.out
    # the max shows both arguments, then the one that wins
    assert "= max(10 ms, 1 ms)\n       = 10 ms" in run.out
    # and the regime really does change with them
    assert solve(args[0], {**dict(a.split("=") for a in args[1:]), "peak_flops": "1000TFLOP/s"}).display() == "1 ms"



def test_a_regime_note_on_the_boundary_says_both_sides_change_the_answer(cli):
    """At 1000 TFLOP/s compute_time = memory_time = 1 ms: 'bytes_moved only chooses the regime' was
    false there (any more bytes and the answer grows)."""
    run = cli("solve", "roofline_time", "flops=1e12FLOP", "bytes_moved=1GB", "peak_flops=1000TFLOP/s", "hbm_bw=1TB/s")
    assert run.code == 0 and "= max(1 ms, 1 ms)" in run.out
    assert ("compute_time = 1 ms ≥ memory_time = 1 ms: the two are equal, so the answer is where the regimes "
            "meet, and bytes_moved, hbm_bw change it too.") in run.out
    assert "only choose" not in run.out
    # the header says so too: not "compute-bound", the first regime whose condition holds with equality
    assert "\n  Regime: balanced (compute-bound and memory-bound meet)\n" in run.out
    args = ["solve", "roofline_time", "flops=1e12FLOP", "bytes_moved=1GB", "peak_flops=1000TFLOP/s", "hbm_bw=1TB/s"]
    md = cli(*args, "--format", "md").out
    assert ("Regime: balanced, where compute-bound and memory-bound meet, since "
            "$T_{\\mathrm{math}} = T_{\\mathrm{mem}}$.") in md
    assert cli(*args, "--format", "json").json["regime_balanced"] is True
    off = cli("solve", "roofline_time", "flops=1e12FLOP", "bytes_moved=1GB", "peak_flops=100TFLOP/s", "hbm_bw=1TB/s")
    assert "\n  Regime: compute-bound\n" in off.out and "balanced" not in off.out


def test_a_regime_note_gives_the_number_of_a_side_the_steps_did_not_compute(cli):
    """attainable_flops' regime is read off critical_ai_hbm, which no step computes: the note said
    '100 FLOP/B ≤ critical_ai_hbm' without the number that chose the regime."""
    run = cli("solve", "attainable_flops", "arithmetic_intensity=100FLOP/B", "--hw", "h100")
    assert ("arithmetic_intensity = 100 FLOP/B ≤ critical_ai_hbm = 295.2 FLOP/B, so the answer is memory-bound"
            in run.out)


USER_PART = """
  - id: my_{p}_time
    unit: s
    symbol: 'T_{p}'
    name: {{en: my_{p}_time, zh: my_{p}_time}}
    meaning: {{en: Time of part {p}., zh: {p} 部分的时间。}}
    source: convention"""
USER_STEP = """
topic: my_step
title: {en: my step, zh: 我的步骤}
quantities:""" + "".join(USER_PART.format(p=p) for p in "ab") + """
  - id: my_step_time
    unit: s
    symbol: 'T_{\\mathrm{step}}'
    name: {en: my_step_time, zh: my_step_time}
    meaning: {en: The slower of a and b., zh: a 与 b 中较慢者。}
    source: convention
    equation: max(my_a_time, my_b_time)
    why: {en: The slower part sets the time., zh: 较慢的部分决定时间。}
    regimes:
      - id: a_bound
        when: my_a_time >= my_b_time
        equation: my_step_time = my_a_time
        name: {en: a-bound, zh: 受 a 限制}
      - id: b_bound
        when: my_b_time >= my_a_time
        equation: my_step_time = my_b_time
        name: {en: b-bound, zh: 受 b 限制}
"""


def test_a_user_relation_with_regimes_gets_the_same_notes_and_names(tmp_path, cli):
    """A user's max relation: its regime note names the input that only chooses the regime, its name (an id
    here) is not capitalised into My_step_time, and a missing input is named rather than 'cannot hold'."""
    path = tmp_path / "step.yaml"
    path.write_text(USER_STEP, encoding="utf-8")
    run = cli("solve", "my_step_time", "my_a_time=2ms", "my_b_time=1ms", "--formulas", str(path))
    assert run.code == 0 and run.out.startswith("my_step_time = 2 ms ")
    assert ("my_a_time = 2 ms ≥ my_b_time = 1 ms, so the answer is a-bound and does not change while that holds; "
            "my_b_time only chooses the regime.") in run.out
    md = cli("solve", "my_step_time", "my_a_time=2ms", "my_b_time=1ms", "--formulas", str(path), "--format", "md").out
    assert "my\\_step\\_time: **2 ms**" in md and "My" not in md
    missing = cli("solve", "my_a_time", "my_step_time=2ms", "--formulas", str(path))
    assert missing.code == 2 and "cannot hold" not in missing.err
    assert missing.err.startswith("derive: error: cannot determine my_a_time: missing my_b_time;")
    # with both, each regime answers: 2 ms is a-bound when b is faster; when b is slower nothing fits
    assert cli("solve", "my_a_time", "my_step_time=2ms", "my_b_time=1ms", "--formulas", str(path)).out.startswith(
        "my_a_time = 2 ms ")
    assert "cannot hold for any positive my_a_time" in cli(
        "solve", "my_a_time", "my_step_time=2ms", "my_b_time=3ms", "--formulas", str(path)).err


def test_a_note_that_names_one_quantity_reads_in_the_singular(cli):
    run = cli("solve", "onchip_bottleneck_time", "hbm_load_time=2ms", "matmul_compute_time=1ms")
    assert "; matmul_compute_time only chooses the regime." in run.out
    run = cli("solve", "attn_intensity", "query_len=1", "seq_len=8192", "num_heads=64", "num_kv_heads=8",
              "--assume", "query_len << seq_len")
    assert "seq_len drops out of the leading term: the approximate answer does not depend on it." in run.out

# ---------------------------------------------------------------------------
# 2. data types per tensor


def test_int8_computes_at_the_int8_peak():
    bf16 = solve("critical_ai_hbm", hw="tpu-v5e")
    int8 = solve("critical_ai_hbm", hw="tpu-v5e", presets=["int8"])
    assert frac(bf16) == Fraction(197 * 10**12, 82 * 10**10)
    assert frac(int8) == Fraction(394 * 10**12, 82 * 10**10)
    peak = next(g for g in int8.given if g.name == "peak_flops")
    assert peak.origin == "setup:int8" and peak.follows == int8.catalog.symbol("peak_flops_int8")


def test_a_precision_preset_sets_every_tensor_it_implies():
    """LLaMA-3 70B on 16 GB v5e chips, batch 32 at 8192 tokens: int8 weights and KV need 7.06 chips,
    bf16 14.1 (one element size for weights alone gave 12 before)."""
    question = dict(model="llama3-70b", hw="tpu-v5e", bound="min", require=["kv_cache_fits"], rounding=False)
    int8 = solve("num_devices", {"batch": 32, "seq_len": 8192}, presets=["int8"], **question)
    bf16 = solve("num_devices", {"batch": 32, "seq_len": 8192}, **question)
    kv = 2 * 80 * 8 * 128 * 32 * 8192                       # elements of the KV cache
    assert frac(int8) == Fraction(70 * 10**9 + kv, 16 * 10**9)
    assert frac(bf16) == Fraction(2 * (70 * 10**9 + kv), 16 * 10**9)
    assert solve("num_devices", {"batch": 32, "seq_len": 8192}, presets=["int8"], model="llama3-70b",
                 hw="tpu-v5e", bound="min", require=["kv_cache_fits"]).value == 8


def test_a_matmul_reads_each_tensor_at_its_own_type():
    given = {"matmul_rows": 64, "matmul_inner": 4096, "matmul_cols": 8192}
    mixed = solve("matmul_bytes", given, presets=["w8a16"])
    assert mixed.value == 2 * 64 * 4096 + 1 * 4096 * 8192 + 2 * 64 * 8192
    assert solve("matmul_bytes", {**given, "weight_bytes_per_param": "0.5 B"}).value == \
        2 * 64 * 4096 + 4096 * 8192 // 2 + 2 * 64 * 8192


def test_a_setup_preset_that_undoes_an_earlier_one_says_so(cli):
    """`--preset kv-int8 --preset bf16` silently gave a 2 B KV cache, and `--preset int8 --preset bf16`
    computed at the int8 peak with bf16 bytes: of two setups the later wins, and the answer says so when
    it undoes most of the earlier one; a setup that refines a few values (kv-int8 after w8a16) is quiet."""
    sol = solve("kv_bytes_per_token", model="llama2-70b", presets=["kv-int8", "bf16"])
    assert sol.value == 2 * 80 * 8 * 128 * 2
    assert [n.kind for n in sol.notes if n.kind.startswith("preset_replaced")] == ["preset_replaced_all"]
    run = cli("solve", "critical_ai_hbm", "--hw", "tpu-v5e", "--preset", "int8", "--preset", "bf16")
    assert "Preset bf16, named after int8, replaces its " in run.out and "int8 still sets peak_flops." in run.out
    refined = solve("kv_bytes_per_token", model="llama2-70b", presets=["w8a16", "kv-int8"])
    assert refined.value == 2 * 80 * 8 * 128 and not any(n.kind.startswith("preset_replaced") for n in refined.notes)


def test_a_precision_preset_without_its_peak_on_the_chip_says_so():
    from derive import MissingInputsError

    with pytest.raises(MissingInputsError) as err:
        solve("critical_ai_hbm", hw="tpu-v5e", presets=["fp8"])
    assert err.value.missing == ("peak_flops_fp8",) and "preset fp8" in str(err.value)
    # a precision preset that does not need the chip's peak does not ask for it
    assert solve("elementwise_intensity", presets=["op-add", "fp8"]).value == sympy.Rational(1, 3)


# ---------------------------------------------------------------------------
# 3. link bandwidths say how they count


def test_link_bandwidths_count_one_direction_and_say_their_scope(catalog):
    assert solve("nvlink_gpu_bw", hw="h100").display() == "450 GB/s"
    assert solve("nvlink_gpu_bidi_bw", hw="h100").display() == "900 GB/s"
    assert solve("pcie_link_bw", hw="h100").display() == "64 GB/s"
    assert solve("ici_link_bidi_bw", hw="tpu-v5e").display() == "90 GB/s"
    for name in ("pcie_link_bw", "nvlink_gpu_bw", "network_chip_bw", "ici_link_bw"):
        assert "one direction" in catalog.quantities[name].name.en


def test_an_ambiguous_old_name_is_refused_with_what_to_type(cli):
    with pytest.raises(UnknownNameError) as err:
        solve("critical_ai_nvlink", {"nvlink_bw": "900 GB/s"}, hw="h100")
    assert "nvlink_gpu_bw" in str(err.value) and "nvlink_gpu_bidi_bw" in str(err.value)
    run = cli("show", "pcie_link_bw")
    assert run.code == 0 and "tpu-v5e-pcie-1.5e10: 1.5e10 B/s (" in run.out   # each preset's note shows



def test_show_of_a_retired_name_says_what_to_type(cli):
    """`derive show pcie_bw` (the issue's own command) named look-alikes (spine_bw, ici_bw), not the
    two names that replaced it."""
    run = cli("show", "pcie_bw")
    assert run.code == 2 and run.err.count("\n") == 1
    assert "pcie_link_bw" in run.err and "pcie_link_bidi_bw" in run.err and "spine_bw" not in run.err


def test_each_preset_note_says_which_figure_of_its_source_it_follows(cli):
    """The TPU chapter's PCIe paragraph gives 3.2e10 for v6e while its Question 3 answer computes with
    1.6e10: the preset follows the former and says so, a named variant keeps the latter."""
    out = cli("show", "pcie_link_bw").out
    v6e = next(line for line in out.splitlines() if line.strip().startswith("tpu-v6e:"))
    assert "3.2e10 B/s" in v6e and "latest figure" in v6e and "variant tpu-v6e-pcie-1.6e10" in v6e
    variant = next(line for line in out.splitlines() if line.strip().startswith("tpu-v6e-pcie-1.6e10:"))
    assert "1.6e10 B/s" in variant and "Question 3" in variant
    assert solve("pcie_link_bw", hw="tpu-v6e-pcie-1.6e10").value == 16 * 10**9
    assert solve("pcie_link_bw", hw="tpu-v6e").value == 32 * 10**9
    # a variant with another HBM figure does not inherit a note quoting the VMEM bandwidth of the old one
    ratio = cli("show", "vmem_to_hbm_bw_ratio").out
    slower = next(line for line in ratio.splitlines() if line.strip().startswith("tpu-v5e-8.1e11:"))
    assert "1.804e13" not in slower and "1.782e13 B/s with this variant's 8.1e11 B/s" in slower
    vmem = solve("vmem_bw", hw="tpu-v5e-8.1e11")
    assert vmem.value == 22 * 81 * 10**10 and vmem.display() == "17.82 TB/s"

# ---------------------------------------------------------------------------
# 5, 7, 8. questions as the books ask them; whole numbers; units a reader expects


@pytest.mark.parametrize("name, text, value", [
    ("bytes_moved", "112GB/8", Fraction(14 * 10**9)),
    ("bytes_moved", "2**30 B + 512 MiB", Fraction(3 * 2**29)),
    ("hbm_bw", "8*400GB/s/8", Fraction(400 * 10**9)),
    ("hbm_bw", "400 Gbps", Fraction(50 * 10**9)),
    ("hbm_bw", "819 GBps", Fraction(819 * 10**9)),              # Google's TPU pages: bytes, capital B
    ("hbm_bw", "(1 + 1) TB/s", Fraction(2 * 10**12)),
    ("hbm_bw", "2**40 B/s", Fraction(2**40)),
])
def test_a_value_is_any_arithmetic_of_numbers_and_units(name, text, value):
    given = {"bytes_moved": "1 TB", "hbm_bw": "1 TB/s", name: text}
    sol = solve("memory_time", given)
    other = Fraction(10**12)
    assert frac(sol) == (value / other if name == "bytes_moved" else other / value)


def test_integer_operations_have_units():
    assert solve("critical_ai", {"peak_flops": "394 TOP/s", "hbm_bw": "0.82 TB/s"}).value == \
        sympy.Rational(394 * 10**12, 82 * 10**10)


def test_zero_is_accepted_where_a_quantity_allows_it(cli):
    """kv_cache_bytes has `min: 0` in the shipped catalog: "negligible" needs no fake 1 B, and a value that
    is zero by arithmetic (1GB-1GB) is zero in any unit; a quantity without it says the value is zero."""
    from derive import InputError

    question = dict(model="llama3-70b", hw="tpu-v5e", presets=["int8"], bound="min", require=["kv_cache_fits"],
                    rounding=False)
    for zero in ("0B", "0", "1GB-1GB"):
        sol = solve("num_devices", {"kv_cache_bytes": zero}, **question)
        assert frac(sol) == Fraction(70 * 10**9, 16 * 10**9)
    with pytest.raises(InputError):
        solve("critical_ai", {"hbm_bw": "0 B/s", "peak_flops": "1 TFLOP/s"})
    run = cli("solve", "memory_time", "bytes_moved=1GB-1GB", "hbm_bw=1TB/s")
    assert run.code == 2
    assert run.err == "derive: error: bytes_moved must be positive, but '1GB-1GB' is zero; give a value above zero\n"


def test_an_integer_operation_peak_prints_in_op_per_second(cli):
    """peak_flops_int8 is declared in OP/s: its value prints as 394 TOP/s, not 394 TFLOP/s (same dimension)."""
    assert solve("peak_flops_int8", hw="tpu-v5e").display() == "394 TOP/s"
    assert cli("solve", "peak_flops_int8", "--hw", "tpu-v5e").out.startswith("peak_flops_int8 = 394 TOP/s ")
    assert solve("peak_flops", hw="tpu-v5e").display() == "197 TFLOP/s"


@pytest.mark.parametrize("text", ["1 EB^9999999/s", "TB/(s", "3 KB/s", "2 TB/s^-9"])
def test_a_unit_that_cannot_be_used_is_one_clear_error(cli, text):
    from derive import DeriveError

    with pytest.raises(DeriveError):
        solve("critical_ai", {"peak_flops": "312 TFLOP/s", "hbm_bw": text})
    run = cli("solve", "critical_ai", "peak_flops=312TFLOP/s", f"hbm_bw={text}")
    assert run.code == 2 and run.err.startswith("derive: error: ") and run.err.count("\n") == 1


def test_a_count_the_relations_give_as_a_fraction_is_never_rounded_silently(cli):
    args = ["seq_len", "kv_cache_bytes=12GiB", "batch=1", "num_layers=40", "num_kv_heads=1", "head_dim=5120",
            "bytes_per_element=2B"]
    run = cli("solve", *args)
    assert run.out.startswith("seq_len = 15,728.64 ")
    assert "round down to 15,728 for the most that fits, up to 15,729 for the fewest that suffice" in run.out
    data = cli("solve", *args, "--format", "json").json
    assert data["value"] == 15728.64 and data["display"] == "15,728.64" and data["value_unrounded"] == 15728.64
    # the derivation's last step and every write-up give the same fraction, never a rounded 15,729
    assert "819,200 B\n       = 15,728.64\n" in run.out
    assert data["steps"][-1]["value"] == 15728.64
    assert run.out.count("15,729") == 1                                 # the note's "up to 15,729" only
    md = cli("solve", *args, "--format", "md").out
    assert r"\boxed{S = 15{,}728.64}" in md and r"= 15{,}728.64" in md and "15{,}729" not in md
    tex = cli("solve", *args, "--format", "tex").out
    assert r"\boxed{S = 15{,}728.64}" in tex and "15{,}729" not in tex
    html = cli("solve", *args, "--format", "html").out
    assert '<span class="box"><math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><mrow><mi>S</mi><mo>&#x0003D;</mo><mn>15,728.64</mn>' in html
    assert "<mn>15,729</mn>" not in html


def test_a_token_capacity_is_a_count_and_its_fraction_is_shown(cli):
    """kipply's 4 A100-40GB with a 52B model in fp16 (64 layers, d 8192): (160 − 104) GB / 2,097,152 B
    = 26,702.88 tokens; 26,703 would not fit."""
    args = ["kv_token_capacity", "num_devices=4", "hbm_capacity=40GB", "params=52e9", "num_layers=64",
            "d_model=8192", "--preset", "fp16"]
    run = cli("solve", *args)
    assert run.out.startswith("kv_token_capacity = 26,702.88 ")
    assert "\n       = 26,702.88\n" in run.out
    assert "round down to 26,702 for the most that fits" in run.out
    data = cli("solve", *args, "--format", "json").json
    assert data["value_unrounded"] == data["value"] == 56 * 10**9 / (4 * 64 * 8192)
    md = cli("solve", *args, "--format", "md").out
    assert r"\boxed{T_{\max} = 26{,}702.88}" in md and "26{,}703" not in md


def test_a_value_that_is_not_whole_never_prints_as_a_whole_number():
    """Past the figures asked for (15,728.64 to four figures) a fraction is shown, never 15,729; a pure
    number (count=True, as format_value passes for unit 1) shows it at any size; a value with a unit
    keeps its significant figures (179 ms), and a float is rounded as asked."""
    from derive.symbolic.units import format_number

    assert format_number(sympy.Rational(1572864, 100)) == "15,728.64"
    assert format_number(sympy.sqrt(2) * 10000) == "14,142.14"
    assert format_number(sympy.Rational(157280000001, 10**7)) == "15,728.0000001"
    assert format_number(sympy.Integer(15728)) == "15,728"
    assert format_number(sympy.Rational(1789601, 10000)) == "179"                   # four figures, as asked
    assert format_number(sympy.Rational(1789601, 10000), count=True) == "178.96"
    assert format_number(sympy.Rational(12345601, 10000), count=True) == "1,234.56"
    assert format_number(sympy.Rational(2500, 3), count=True) == "833.3"          # not whole-looking: as asked
    assert format_number(sympy.log(8) / sympy.log(2), count=True) == "3"          # whole, though not written so
    assert format_number(sympy.Float(52.34, 30), 2, count=True) == "52"           # digits=2 asked: rounded
    assert format_number(110000.00000000001) == "110,000"



def test_a_count_whose_fraction_does_not_end_shows_it_exactly(cli):
    """2500/3 sequences: '833.333' alone is not the exact fraction the answer promises."""
    run = cli("solve", "seq_len", "kv_cache_bytes=10000B", "batch=3", "num_layers=1", "num_kv_heads=1",
              "head_dim=1", "bytes_per_element=2B")
    assert "the relations give 833.3 (= 2500/3): round down to 833" in run.out

def test_a_bound_on_a_count_can_stay_exact(cli):
    question = dict(bound="min", require=["training_state_fits"])
    assert solve("num_devices", {"params": 66e9, "hbm_capacity": "80GB"}, **question).value == 14
    exact = solve("num_devices", {"params": 66e9, "hbm_capacity": "80GB"}, rounding=False, **question)
    assert exact.value == sympy.Rational(66, 5) and exact.display() == "13.2"
    data = cli("solve", "num_devices", "--min", "--require", "training_state_fits", "params=66e9",
               "hbm_capacity=80GB", "--format", "json").json
    assert data["value"] == 14 and data["value_unrounded"] == 13.2
    with pytest.raises(QuestionError):
        solve("d_model", hw="tpu-v5e", presets=["classic-ffn"], bound="max", require=["ffn_fits_in_vmem"],
              multiple_of=128, rounding=False)


def test_no_round_from_the_cli_keeps_the_bound_exact_in_every_format(cli):
    args = ["solve", "num_devices", "--min", "--require", "training_state_fits", "params=66e9", "hbm_capacity=80GB"]
    rounded = cli(*args)
    assert rounded.out.startswith("num_devices >= 14 ")
    exact = cli(*args, "--no-round")
    assert exact.code == 0 and exact.out.startswith("num_devices >= 13.2 ") and ">= 14" not in exact.out
    data = cli(*args, "--no-round", "--format", "json").json
    assert data["value"] == data["value_unrounded"] == 13.2 and data["bound_exact"] == "66/5"
    assert r"\boxed{N \ge 13.2}" in cli(*args, "--no-round", "--format", "md").out
    refused = cli("solve", "d_model", "--max", "--require", "ffn_fits_in_vmem", "--hw", "tpu-v5e", "--preset",
                  "classic-ffn", "--multiple-of", "128", "--no-round")
    assert refused.code == 2 and refused.err.startswith("derive: error: ") and refused.err.count("\n") == 1


def test_require_without_a_bound_says_how_to_ask_for_one(cli):
    run = cli("solve", "batch", "--require", "kv_cache_fits", "--model", "llama2-70b", "--hw", "h100",
              "seq_len=4096", "num_devices=8")
    assert run.code == 2 and run.err.count("\n") == 1
    assert ("--require without --max or --min only checks kv_cache_fits at the answer the relations give; for "
            "the largest or smallest batch for which it holds, add --max or --min") in run.err
    assert cli("solve", "batch", "--max", "--require", "kv_cache_fits", "--model", "llama2-70b", "--hw", "h100",
               "seq_len=4096", "num_devices=8").code == 0


def test_an_answer_in_the_unit_asked_for(cli):
    assert solve("kv_cache_bytes", {"seq_len": 4096, "batch": 256}, model="llama2-70b", unit="GiB").display() \
        == "320 GiB"
    run = cli("solve", "offload_time_per_step", "offload_bytes_per_step=4TB", "pcie_link_bw=25GB/s",
              "--unit", "min")
    assert run.code == 0 and run.out.startswith("offload_time_per_step = 2.667 min"), run.out
    # a training run in days, a peak in PFLOP/s
    assert solve("train_time", {"params": 70e9, "train_tokens": 15e12, "mfu": "0.4", "num_devices": 1024}, hw="h100",
                 unit="days").display() == "180 days"
    assert solve("peak_flops", hw="h100", unit="PFLOP/s").display() == "0.989 PFLOP/s"
    with pytest.raises(QuestionError):
        solve("critical_ai", hw="a100", unit="s")


# ---------------------------------------------------------------------------
# 9. titles and notes come from what happened


def test_a_step_is_named_for_what_it_computes_and_an_override_names_what_it_overrode(cli):
    run = cli("solve", "training_state_bytes", "params=7e9", "training_bytes_per_param=10B")
    assert "16·P" not in run.out
    assert "Your value 10 B overrides the catalog's default of grad_bytes_per_param, " in run.out or \
        "catalog's default" in run.out
    assert "overrides a preset" not in run.out


def test_a_rate_of_tokens_says_tokens_and_json_keeps_the_unit_asked_for_and_every_given_text(cli):
    # issue 29 item 8: 1024 H100s at 40 % MFU on a 70B model: 1024 · 989e12 · 0.4 / (6 · 70e9) = 964,510 tokens/s
    rate = solve("train_throughput", {"params": 70e9, "mfu": "0.4", "num_devices": 1024}, hw="h100")
    assert rate.value == Fraction(1024 * 989 * 10**12 * 4, 10 * 6 * 70 * 10**9)
    assert rate.display() == "964.5 k tokens/s"
    assert solve("qps_per_device", {"batch": 43, "decode_step_time": "19 ms", "gen_tokens": 512,
                                    "num_devices": 1}).display() == "4.42 requests/s"
    # --unit days: the JSON says which unit its display is in, and the value in it (1,555,193 s / 86,400 s)
    run = cli("solve", "train_time", "params=70e9", "train_tokens=15e12", "mfu=0.4", "num_devices=1024",
              "--hw", "h100", "--unit", "days", "--format", "json")
    j = run.json
    assert (j["unit"], j["display"], j["display_unit"]) == ("s", "180 days", "days")
    assert j["display_value"] == pytest.approx(6 * 70e9 * 15e12 / (0.4 * 1024 * 989e12) / 86400)
    assert cli("solve", "train_time", "params=70e9", "train_tokens=15e12", "mfu=0.4", "num_devices=1024",
               "--hw", "h100", "--format", "json").json["display_unit"] is None
    # a default that follows another (weight bytes = the element size, 2 B) shows its value, not ""
    given = cli("solve", "state_bytes_per_device_zero3", "params=7e9", "data_parallel=8", "tensor_parallel=1",
                "--format", "json").json["given"]
    assert given["weight_bytes_per_param"]["text"] == "2 B" and all(g["text"] for g in given.values())


def test_a_typed_total_the_answer_would_not_use_is_refused_not_noted_as_overriding(cli):
    # issue 29 item 7: ZeRO-3 reads the parts, weight 2 + gradient 2 + optimizer 12 = 16 B per parameter
    # (catalog defaults); a typed training_bytes_per_param=10B cannot say which part to change, and a note
    # that it overrode them was false (the answer was 7e9 · 16 B / 8 = 14 GB). Refused, naming the parts.
    run = cli("solve", "state_bytes_per_device_zero3", "params=7e9", "data_parallel=8", "tensor_parallel=1",
              "training_bytes_per_param=10B")
    assert run.code == 2 and run.out == "" and run.err.count("\n") == 1
    assert "training_bytes_per_param = 10 B contradicts the catalog defaults this answer reads" in run.err
    assert "optimizer_bytes_per_param" in run.err and "gives 16 B" in run.err
    # given as its parts, the answer is theirs: 7e9 · (2 + 2 + 6) B / 8 = 8.75 GB
    parts = solve("state_bytes_per_device_zero3", {"params": 7e9, "data_parallel": 8, "tensor_parallel": 1,
                                                   "optimizer_bytes_per_param": "6 B"})
    assert parts.value == Fraction(7 * 10**9 * 10, 8)
    # where the answer reads the typed total itself, the note that it overrides the defaults is true and stays
    state = solve("training_state_bytes", {"params": 7e9, "training_bytes_per_param": "10 B"})
    assert state.value == 7 * 10**10 and any(n.kind == "override" for n in state.notes)


# ---------------------------------------------------------------------------
# 4. the roofline of each operation


def test_the_time_of_this_matmul_on_this_chip_in_one_call():
    given = {"matmul_rows": 64, "matmul_inner": 4096, "matmul_cols": 8192, "hbm_bw": "8TB/s"}
    sol = solve("matmul_time", given, hw="h100")
    bytes_ = 2 * (64 * 4096 + 4096 * 8192 + 64 * 8192)             # output write included
    assert frac(sol) == Fraction(bytes_, 8 * 10**12) and sol.regime == "memory_bound"
    big = solve("matmul_time", {"matmul_rows": 8192, "matmul_inner": 8192, "matmul_cols": 8192}, hw="h100")
    assert big.regime == "compute_bound" and frac(big) == Fraction(2 * 8192**3, 989 * 10**12)


def test_the_time_of_attention_on_this_chip_in_one_call():
    """Standard attention and FlashAttention (one head, forward), each its matmuls against its own HBM
    traffic (Dao et al. 2022, Algorithms 0 and 1): at N = 8192, d = 64 on a 312 TFLOP/s, 2 TB/s chip with
    192 KiB of SRAM, standard attention is memory-bound and FlashAttention compute-bound."""
    given = {"seq_len": 8192, "head_dim": 64, "peak_flops": "312TFLOP/s", "hbm_bw": "2TB/s",
             "smem_capacity": "192KiB", "bytes_per_element": "2B"}
    n, d, e = 8192, 64, 2
    compute = Fraction(4 * n * n * d, 312 * 10**12)
    standard = solve("attn_standard_time", given)
    assert standard.regime == "memory_bound"
    assert frac(standard) == Fraction(e * (4 * n * d + 4 * n * n), 2 * 10**12) > compute
    block = -(-192 * 1024 // (4 * d * e))                                  # B_c = ceil(M / 4d) = 384
    blocks = -(-n // block)                                                # T_c = ceil(N / B_c) = 22
    traffic = Fraction(e * (3 * n * d + 2 * n + blocks * (3 * n * d + 4 * n)), 2 * 10**12)
    flash = solve("flash_attn_time", given)
    assert flash.regime == "compute_bound" and frac(flash) == compute >= traffic
    # a slower memory makes FlashAttention memory-bound too: the regime follows the numbers
    slow = solve("flash_attn_time", {**given, "hbm_bw": "0.5TB/s"})
    assert slow.regime == "memory_bound" and frac(slow) == traffic * 4


def test_the_generic_roofline_with_a_matmul_points_to_the_matmul_quantity():
    from derive import MissingInputsError

    with pytest.raises(MissingInputsError) as err:
        solve("memory_time", {"matmul_rows": 64, "matmul_inner": 4096, "matmul_cols": 8192,
                              "bytes_per_element": "2B", "hbm_bw": "8TB/s"})
    assert err.value.missing == ("bytes_moved",)
    assert "the inputs give matmul_bytes (like bytes_moved): ask for matmul_memory_time" in str(err.value)


# ---------------------------------------------------------------------------
# 5. questions as the books ask them


def test_assume_b_much_less_than_d_and_f_gives_the_books_bound(cli):
    """The book's most common approximation: with B << D, F the matmul is compute-bound from HBM
    when B >= C/W; D and F need not be given (they drop out of the leading term)."""
    sol = solve("matmul_rows", hw="tpu-v5e", bound="min", require=["matmul_compute_bound_hbm"],
                assume="matmul_rows << matmul_inner, matmul_cols", rounding=False)
    assert frac(sol) == Fraction(197 * 10**12, 82 * 10**10)             # 240.2
    kinds = {n.kind for n in sol.notes}
    assert {"assumed", "dropped_by_assumption"} <= kinds and "cancelled" not in kinds
    run = cli("solve", "matmul_rows", "--min", "--require", "matmul_compute_bound_hbm", "--hw", "tpu-v5e",
              "--assume", "matmul_rows << matmul_inner, matmul_cols")
    assert run.code == 0 and run.out.startswith("matmul_rows >= 241")


def test_assume_in_a_forward_question_shows_the_exact_value_beside_the_leading_term():
    given = {"matmul_rows": 64, "matmul_inner": 8192, "matmul_cols": 28672, "bytes_per_element": "2B",
             "act_bytes_per_element": "2B", "out_bytes_per_element": "2B", "weight_bytes_per_param": "2B"}
    sol = solve("matmul_intensity", given, assume="matmul_rows << matmul_inner, matmul_cols")
    assert sol.value == 64                                               # 2BDF / 2DF = B
    exact = next(n for n in sol.notes if n.kind == "exact_beside_approximate").get("exact")
    assert exact == sympy.Rational(2 * 64 * 8192 * 28672, 2 * (64 * 8192 + 8192 * 28672 + 64 * 28672))
    assert [st.kind for st in sol.steps][-1] == "approximate"



def test_assume_with_the_large_quantities_given_takes_the_leading_term_and_shows_the_exact_bound(cli):
    """With D and F given the approximate bound was the exact one (their values went in before the leading
    term was taken: 256, with peak_flops said to drop out), and without the element sizes it stopped on
    act_bytes_per_element, which has a catalog default."""
    sol = solve("matmul_rows", {"matmul_inner": 8192, "matmul_cols": 8192}, hw="tpu-v5e", bound="min",
                require=["matmul_compute_bound_hbm"], assume="matmul_rows << matmul_inner, matmul_cols")
    assert sol.value == 241
    exact = next(n for n in sol.notes if n.kind == "exact_beside_approximate")
    assert exact.get("exact") == 256 and exact.get("op") == "≥"
    dropped = next(n for n in sol.notes if n.kind == "dropped_by_assumption").get("names")
    assert "peak_flops" not in dropped and "matmul_inner" in dropped
    run = cli("solve", "matmul_rows", "--min", "--require", "matmul_compute_bound_hbm", "--hw", "tpu-v5e",
              "--assume", "matmul_rows << matmul_inner, matmul_cols", "matmul_inner=8192", "matmul_cols=8192")
    assert run.out.startswith("matmul_rows >= 241") and "Without the approximation, matmul_rows ≥ 256." in run.out


def test_assume_in_a_forward_question_takes_the_catalog_defaults_for_the_exact_value():
    sol = solve("matmul_intensity", {"matmul_rows": 64, "matmul_inner": 8192, "matmul_cols": 28672},
                assume="matmul_rows << matmul_inner, matmul_cols")
    assert sol.value == 64
    exact = next(n for n in sol.notes if n.kind == "exact_beside_approximate").get("exact")
    assert exact == sympy.Rational(2 * 64 * 8192 * 28672, 2 * (64 * 8192 + 8192 * 28672 + 64 * 28672))


@pytest.mark.parametrize("question", [
    dict(target="matmul_intensity", given={"matmul_rows": 64, "matmul_inner": 8192, "matmul_cols": 28672}),
    dict(target="matmul_rows", given={}, hw="tpu-v5e", bound="min", require=["matmul_compute_bound_hbm"]),
])
def test_an_assumption_about_quantities_the_question_does_not_involve_is_refused(question):
    """`--assume "batch << d_model"` on a matmul (whose rows are matmul_rows) approximated nothing, yet the
    answer said it was the leading term (or asked for matmul_cols)."""
    with pytest.raises(QuestionError) as err:
        solve(question.pop("target"), question.pop("given"), assume="batch << d_model", **question)
    assert "does not depend on d_model" in str(err.value) and "matmul_inner" in str(err.value)

def test_assume_is_checked():
    with pytest.raises(QuestionError):
        solve("matmul_intensity", assume="matmul_rows < matmul_inner")
    with pytest.raises(UnknownNameError):
        solve("matmul_intensity", assume="matmul_rows << no_such_thing")


def test_require_takes_an_inequality_between_catalog_expressions(cli):
    sol = solve("seq_len", {"head_dim": 128}, hw="h100", bound="min",
                require=["attn_compute_time_matmul >= attn_min_hbm_time"])
    assert sol.value == 591                          # 2·989e12 / 3.35e12 = 590.4
    run = cli("solve", "matmul_rows", "--min", "--require", "matmul_intensity >= critical_ai_hbm", "--hw", "h100",
              "matmul_inner=8192", "matmul_cols=8192")
    assert run.code == 0 and run.out.startswith("matmul_rows >= 319")
    run = cli("solve", "matmul_rows", "--min", "--require", "matmul_intensity >= hbm_bw", "--hw", "h100")
    assert run.code == 2 and "units do not balance" in run.err and run.err.count("\n") == 1


@pytest.mark.parametrize("limit", ["30 days", "30days", "720 h", "2592000 s", "30 * [day]", "(30 days)"])
def test_an_inline_condition_takes_numbers_with_units_as_values_do(limit):
    """GPT-3's 3.15e23 FLOP on A100s at 50 % MFU within 30 days: 6·175e9·300e9 / (0.5·312e12·2592000)
    = 779.02… GPUs, so 780. A number typed with a unit reads as the value it is."""
    sol = solve("num_devices", {"params": 175e9, "train_tokens": 300e9, "mfu": "0.5"}, hw="a100", bound="min",
                require=[f"train_time <= {limit}"])
    assert sol.value == 780
    assert sol.exact == sympy.Rational(6 * 175 * 300 * 10**18, 156 * 10**12 * 2592000)


@pytest.mark.parametrize("word", ["parsecs", "params"])
def test_a_name_after_a_number_that_is_no_unit_is_one_error_line(cli, word):
    run = cli("solve", "num_devices", "--min", "--require", f"train_time <= 30 {word}", "params=175e9",
              "train_tokens=300e9", "mfu=0.5", "--hw", "a100")
    assert run.code == 2 and run.err.count("\n") == 1
    assert f"'{word}' after 30 is not a unit" in run.err and f"30 * {word}" in run.err


def test_a_step_function_answers_with_its_exact_interval(cli):
    sol = solve("seq_len", {"flash_col_blocks": 16, "flash_block_cols": 256})
    assert (sol.interval.low, sol.interval.high) == (3841, 4096)
    assert solve("seq_len", {"flash_col_blocks": 16, "flash_block_cols": 256}, bound="max").value == 4096
    assert solve("seq_len", {"flash_col_blocks": 16, "flash_block_cols": 256}, bound="min").value == 3841
    run = cli("solve", "seq_len", "flash_col_blocks=16", "flash_block_cols=256")
    assert run.out.startswith("3,841 <= seq_len <= 4,096")
    data = cli("solve", "seq_len", "flash_col_blocks=16", "flash_block_cols=256", "--format", "json").json
    assert data["interval"] == {"low": 3841, "high": 4096, "low_open": False, "high_open": False,
                                "low_exact": "3841", "high_exact": "4096"}
    assert data["display"] == "3,841 <= seq_len <= 4,096"             # as the text answers, not its top alone
    # value and exact are one value the interval holds (its top), the interval step says the same
    assert data["value"] == 4096 and data["exact"] == "4096"
    assert data["steps"][-1]["value"] == 4096 and data["steps"][-1]["interval"] == data["interval"]

    with pytest.raises(QuestionError):
        solve("seq_len", {"head_dim": 128}, bound="max")               # a bound with no condition and no step


@pytest.mark.parametrize("fmt, boxed, line", [
    ("md", r"\boxed{897 \le S \le 1{,}024}", r"Sequence length: every value with $897 \le S \le 1{,}024$"),
    ("tex", r"\deq{\boxed{897 \le S \le 1{,}024}}", r"Sequence length: every value with $897 \le S \le 1{,}024$"),
    ("beamer", r"\boxed{897 \le S \le 1{,}024}", None),
    ("html", '<span class="box"><math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><mrow><mn>897</mn><mo>&#x02264;</mo><mi>S</mi>'
             '<mo>&#x02264;</mo><mn>1,024</mn></mrow></math></span>', "Sequence length: every value with <math"),
])
def test_every_write_up_answers_a_step_function_with_its_interval(cli, fmt, boxed, line):
    """The text said 897 <= seq_len <= 1,024 while the write-ups boxed S = 1,024, the top alone."""
    out = cli("solve", "seq_len", "flash_col_blocks=8", "flash_block_cols=128", "--format", fmt).out
    assert boxed in out
    assert "S = 1{,}024" not in out and "<mi>S</mi><mo>&#x0003D;</mo><mn>1,024</mn>" not in out
    if line:
        assert line in out


# ---------------------------------------------------------------------------
# 6. orders of growth


def test_the_order_of_growth_in_one_variable(cli):
    from derive import growth

    flash = growth("flash_hbm_bytes", "seq_len")
    assert flash.exponent == 2                       # still quadratic in N: Θ(N²d²/M), not O(N)
    assert flash.leading.has(sympy.Symbol("smem_capacity", positive=True))
    assert growth("kv_cache_bytes", "seq_len", model="llama2-70b").exponent == 1
    run = cli("solve", "flash_hbm_bytes", "--order", "seq_len", "--format", "json")
    assert run.code == 0 and run.json["exponent"] == "2"


def test_the_leading_term_keeps_a_ceiling_of_constants_exact():
    """B_c = ceil(M/(4·e·d)) does not grow with N: replacing it by M/(4·e·d) changed the constant (here
    ceil(100000/1024) = 98 against 97.66, 0.35 % off); only a ceiling of the growing variable goes."""
    from derive import growth

    g = growth("flash_hbm_bytes", "seq_len", {"smem_capacity": "100000B", "head_dim": 128, "bytes_per_element": "2B"})
    n = sympy.Symbol("seq_len", positive=True)
    assert sympy.simplify(g.leading - 2 * n**2 * (3 * 128 + 4) / 98) == 0 and g.exponent == 2
    symbolic = growth("flash_hbm_bytes", "seq_len")
    assert symbolic.leading.has(sympy.ceiling) and not any(c.args[0].has(n) for c in symbolic.leading.atoms(sympy.ceiling))


ORDER_CLAIMS = """chapter: seed-memory-hierarchy
claims:
""" + "".join(f"""  - id: c{i}
    quote: "x"
    solve: flash_hbm_bytes
    order_in: seq_len
    stated_order: "{order}"
""" for i, order in enumerate(["O(N^3)", "O(N^2)", "O(N)", "Θ(N^3)", "Theta(N^2)", "Ω(N)", "Omega(N^3)", "N^2", "N"]))


def test_a_stated_order_is_judged_by_its_notation(tmp_path, cli):
    """O is an upper bound (true when the stated power is at least the derived 2), Θ tight, Ω a lower
    bound; a bare power is Θ. FlashAttention's HBM traffic is Θ(N²·d²/M)."""
    from derive.documents.claims import check_claims

    path = tmp_path / "orders.yaml"
    path.write_text(ORDER_CLAIMS, encoding="utf-8")
    verdicts = [r.verdict for r in check_claims(path)]
    assert verdicts == ["reproduced", "reproduced", "erratum", "erratum", "reproduced", "reproduced", "erratum",
                        "reproduced", "erratum"]
    out = cli("check", str(path)).out
    assert "stated: O(N^3)" in out and "the stated O(N^3) holds, though not tightly." in out
    assert "faster than O(N) allows: the stated upper bound is wrong." in out
    assert "not Θ(N^3): the stated order is wrong." in out
    assert "slower than Ω(N^3) requires: the stated lower bound is wrong." in out
    assert "stated: Θ(N^2)" in out


PROBLEM = """
id: assume-and-unit
title: {en: "B << D and a unit", zh: "B ≪ D 与单位"}
source: convention
statement: {en: "A matmul on a TPU v5e.", zh: "TPU v5e 上的一个矩阵乘法。"}
hw: tpu-v5e
questions:
  - id: smallest-batch
    ask: {en: "Smallest batch that is compute-bound, B << D, F.", zh: "B ≪ D、F 时计算受限的最小 batch。"}
    solve: matmul_rows
    bound: min
    require: [matmul_compute_bound_hbm]
    assume: ["matmul_rows << matmul_inner, matmul_cols"]
    given: {matmul_inner: 8192, matmul_cols: 8192}
    expect: 241
  - id: weights-in-gib
    ask: {en: "Weights of a 7B model in GiB.", zh: "7B 模型权重（GiB）。"}
    solve: weight_bytes
    given: {params: 7e9}
    unit: GiB
"""


def test_a_problem_file_takes_assume_and_unit(tmp_path, catalog, cli):
    """The issue's "(and the same in problem files)": `assume:` gives the leading term with the exact beside it,
    `unit:` the answer in the unit named, in the write-up as well."""
    from derive.documents.problems import load_problem, solve_problem

    path = tmp_path / "assume-and-unit.yaml"
    path.write_text(PROBLEM, encoding="utf-8")
    solved = {q.id: sol for q, sol in solve_problem(load_problem(path, catalog), catalog)}
    assert solved["smallest-batch"].value == 241
    assert any(n.kind == "exact_beside_approximate" and n.get("exact") == 256 for n in solved["smallest-batch"].notes)
    assert solved["weights-in-gib"].display() == "13.04 GiB"
    run = cli("report", str(path), "--lang", "en", "--format", "md", "-o", str(tmp_path))
    assert run.code == 0, run.err
    md = (tmp_path / "assume-and-unit.en.md").read_text(encoding="utf-8")
    assert "Without the approximation" in md and "13.04 GiB" in md


def test_an_answer_with_nothing_to_substitute_back_does_not_count_zero_checks(cli):
    # a preset's own constant: no relation was used, so none can be said to hold
    run = cli("solve", "hbm_bw", "--hw", "a100")
    assert run.code == 0
    assert "no relation to substitute back into" in run.out
    assert "holds (0)" not in run.out
    assert "every relation holds (1)" in cli("solve", "critical_ai", "--hw", "a100").out
