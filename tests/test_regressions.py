"""One test per bug found by the property and fuzz tests, named for what broke (as pint's test_issues.py).

Each docstring says what went wrong before the fix; the test fails on the old code.
"""

from __future__ import annotations

import re
import time

import pytest
import sympy

from derive import ExpressionError, NoSolutionError, solve
from derive.symbolic.expressions import parse_number


@pytest.mark.parametrize("text", [
    "(1+10**-400)**4096",            # close to 1, but 1.6 million digits in the numerator and denominator
    "((1+10**-400)**4096)**4096",    # would need billions of digits
    "(1+10**-399)*(1+10**-399)",     # a product whose denominator has 798 digits
])
def test_value_whose_exact_fraction_is_huge_is_refused_quickly(text):
    """`peak_flops=(1+10**-400)**4096` hung the CLI: the exponent guard bounded the magnitude of
    the result (about 1) instead of the digits of its numerator and denominator."""
    start = time.perf_counter()
    with pytest.raises(ExpressionError, match="out of range"):
        parse_number(text)
    with pytest.raises(ExpressionError, match="out of range"):
        solve("critical_ai", {"peak_flops": text, "hbm_bw": "2 TB/s"})
    assert time.perf_counter() - start < 2


def test_large_but_short_exact_numbers_still_parse():
    assert parse_number("10**400") == 10**400
    assert parse_number("10**-400") * 10**400 == 1
    assert parse_number("2**1000") == 2**1000


@pytest.mark.parametrize("target, given, regime", [
    ("compute_time", {"roofline_time": "1 s", "memory_time": "1 s"}, "memory_bound"),
    ("hbm_bw", {"peak_flops": "100 FLOP/s", "attainable_flops": "100 FLOP/s", "arithmetic_intensity": 5},
     "compute_bound"),
    ("arithmetic_intensity", {"peak_flops": "100 FLOP/s", "attainable_flops": "100 FLOP/s", "hbm_bw": "10 B/s"},
     "compute_bound"),
])
def test_symbol_that_drops_out_of_a_holding_regime_is_not_determined(target, given, regime):
    """`solve compute_time roofline_time=1s memory_time=1s` printed compute_time = 1 s: the
    memory-bound regime holds, so every compute_time up to 1 s fits, but the engine reported the
    compute-bound regime's boundary as the answer. Found by the property tests on max/min relations."""
    with pytest.raises(NoSolutionError, match=f"{target} is not determined.*{regime} regime"):
        solve(target, given)


def test_symbol_of_a_max_relation_is_still_found_when_its_regime_holds():
    sol = solve("compute_time", {"roofline_time": "1 s", "memory_time": "10 ms"})
    assert sol.value == 1 and sol.regime == "compute_bound"


@pytest.mark.parametrize("target, given, deciding", [
    ("attainable_flops", {"peak_flops": "100 FLOP/s", "hbm_bw": "10 B/s", "arithmetic_intensity": 5}, "peak_flops"),
    ("compute_time", {"roofline_time": "1 s", "memory_time": "10 ms"}, "memory_time"),
])
def test_input_that_picks_the_regime_is_not_reported_as_cancelled(target, given, deciding):
    """`solve attainable_flops` in the memory-bound regime said "peak_flops cancels out: the answer
    does not depend on it", but peak_flops decides which regime holds (a larger intensity gives the
    compute-bound answer). Found by the property tests."""
    sol = solve(target, given)
    assert deciding not in sol.cancelled
    assert not any(n.kind == "cancelled" for n in sol.notes)


@pytest.mark.parametrize("bound", ["max", "min"])
@pytest.mark.parametrize("batch", [10, 1000])
def test_bound_on_a_symbol_that_cancels_out_of_the_condition_says_so(bound, batch):
    """`solve d_model --max --require ffn_prefetch_hidden` said "d_model has no maximum ...; did you
    mean --min?", and --min then said "did you mean --max?": D cancels out of the condition (both
    sides grow as D**2), but the positive factor D**2 was kept in the sign test. Found by the
    bound-tightness property tests."""
    with pytest.raises(NoSolutionError, match="does not depend on d_model"):
        solve("d_model", {"batch": batch}, hw="tpu-v5e", presets=["classic-ffn"], bound=bound,
              require=["ffn_prefetch_hidden"])


@pytest.mark.parametrize("target, given", [
    ("pipeline_bottleneck_time", {"pipeline_chunks": 1, "serial_time": "1 s", "pipelined_time": "1 s"}),
    ("pipeline_chunks", {"pipeline_bottleneck_time": "1 s", "serial_time": "1 s", "pipelined_time": "1 s"}),
])
def test_relation_that_holds_for_every_value_of_the_unknown_says_it_is_not_determined(target, given):
    """`solve pipeline_bottleneck_time pipeline_chunks=1 ...` said "no real positive value ...
    (solutions: nan); check the inputs": with one chunk every bottleneck time fits, and the
    closed form is 0/0. Found by the round-trip property tests (integer inputs start at 1)."""
    with pytest.raises(NoSolutionError, match=f"{target} is not determined by pipelined_time.*holds for every"):
        solve(target, given)


def test_pipelined_time_still_inverts_for_the_chunk_count():
    sol = solve("pipeline_chunks", {"pipeline_bottleneck_time": "100 s", "serial_time": "1000 s",
                                    "pipelined_time": "325 s"})
    assert sol.value == 4


def test_bound_when_the_inputs_alone_break_the_condition_says_nothing_satisfies_it():
    """After the fix above, `solve batch --max --require kv_cache_fits` with weights that already
    fill the memory said the condition "does not depend on batch": the numeric sign test was used
    for a structural question. Structure is now decided on the symbolic form."""
    given = {"params": 1, "weight_bytes_per_param": "1000 B", "hbm_capacity": "1000 B", "num_devices": 1,
             "bytes_per_element": "1000 B", "head_dim": 1, "num_kv_heads": 1, "num_layers": 1, "seq_len": 1}
    for bound in ("max", "min"):
        with pytest.raises(NoSolutionError, match="no positive batch satisfies kv_cache_fits"):
            solve("batch", given, bound=bound, require=["kv_cache_fits"])
    given["hbm_capacity"] = "1 GB"
    assert solve("batch", given, bound="max", require=["kv_cache_fits"]).value == 499999



def test_yaml_alias_bomb_in_a_user_formula_file_is_refused_quickly(tmp_path):
    """`derive list --formulas bomb.yaml` hung: nine lines of YAML anchors and aliases (&a / *a)
    expand to 10**9 values, and the reader converted every expansion. Found by the hostile-file tests."""
    from derive import CatalogError, load_catalog

    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("\n".join(lines) + "\nquantities: *a8\n", encoding="utf-8")
    start = time.perf_counter()
    with pytest.raises(CatalogError, match="expands to more than") as err:
        load_catalog([bomb], use_cache=False)
    assert err.value.file == str(bomb)
    assert time.perf_counter() - start < 10


def test_yaml_aliases_within_the_budget_give_each_use_its_own_copy(tmp_path):
    """Aliases share their value while a file is read (so that a bomb is refused before anything is
    copied); a file within the budget must still hand the loader distinct mappings, with their lines."""
    from derive.storage.yamlio import read_yaml

    text = tmp_path / "aliases.yaml"
    text.write_text("a: &x {k: [1, 2]}\nb: *x\nc: [*x, *x]\n", encoding="utf-8")
    data = read_yaml(text)
    assert data["b"] == data["a"] == {"k": ["1", "2"]}
    copies = [data["a"], data["b"], *data["c"]]
    assert len({id(m) for m in copies}) == 4 and len({id(m["k"]) for m in copies}) == 4
    assert [m.line for m in copies] == [1, 1, 1, 1] and data["c"].line == 3


@pytest.mark.parametrize("depth", [900, 5000])
def test_deeply_nested_user_formula_file_is_a_catalog_error_not_an_internal_error(tmp_path, cli, depth):
    """`derive list --formulas deep.yaml` with 900 nested brackets exited 1 with "internal error:
    RecursionError": the YAML reader recursed once per level without a guard. The contract is the
    error's class and file, and one error line with exit 2, whichever of PyYAML's limit or the
    reader's own guard stops it first (PyYAML 6.0.4 has its own limit, with its own words)."""
    from derive import CatalogError, load_catalog

    deep = tmp_path / "deep.yaml"
    deep.write_text("quantities: " + "[" * depth + "]" * depth + "\n", encoding="utf-8")
    with pytest.raises(CatalogError) as err:
        load_catalog([deep], use_cache=False)
    assert err.value.file == str(deep)
    run = cli("list", "--formulas", str(deep))
    assert run.code == 2
    assert run.err.startswith(f"derive: error: {deep}") and run.err.count("\n") == 1


TEMPLATE_MISTAKES = [
    "{{ 1/0 }}",
    "{{ range(10**9)|list|length }}",
    "{{ 5|join(1, 2, 3, 4) }}",
]


@pytest.mark.parametrize("body", TEMPLATE_MISTAKES)
def test_runtime_mistake_in_a_user_template_is_a_template_error_with_file_and_line(tmp_path, cli, body):
    """`derive solve ... --templates DIR` with `{{ 1/0 }}` in DIR/solution.md.j2 exited 1 with "internal
    error: ZeroDivisionError": only Jinja's own exceptions became TemplateError. (The same in a live
    source for `derive render`.) Found by the hostile-input tests."""
    from derive import TemplateError
    from derive.writeup.render import render_solution

    (tmp_path / "solution.md.j2").write_text("line one\n" + body + "\n", encoding="utf-8")
    with pytest.raises(TemplateError) as err:   # the class, file and line are the contract, not Jinja's words
        render_solution(solve("critical_ai", hw="a100"), "md", templates=tmp_path)
    assert (err.value.file, err.value.line) == (str(tmp_path / "solution.md.j2"), 2)
    run = cli("solve", "critical_ai", "--hw", "a100", "--format", "md", "--templates", str(tmp_path))
    assert run.code == 2 and run.err.startswith(f"derive: error: {tmp_path / 'solution.md.j2'}:2: ")
    source = tmp_path / "live.md"
    source.write_text("A number: " + body + "\n", encoding="utf-8")
    run = cli("render", str(source))
    assert run.code == 2 and run.err.startswith(f"derive: error: {source}:1: "), run.err


@pytest.mark.parametrize("body, expect", [
    ('{{ ("x" * 10**10)|length }}', "repeating str 10000000000 times is too large"),
    ("{{ ([0] * 10**9)|length }}", "repeating list 1000000000 times is too large"),
    ("{{ 9**(9**9) }}", "is too large"),
])
def test_template_cannot_build_a_huge_string_list_or_number(tmp_path, cli, body, expect):
    """`{{ ("x" * 10**10)|length }}` in a user template or live source tried to build a 10 GB string:
    Jinja's sandbox bounds range() but not * and **."""
    from derive import TemplateError
    from derive.writeup.render import render_solution

    (tmp_path / "solution.md.j2").write_text(body + "\n", encoding="utf-8")
    start = time.perf_counter()
    with pytest.raises(TemplateError, match=expect):
        render_solution(solve("critical_ai", hw="a100"), "md", templates=tmp_path)
    source = tmp_path / "live.md"
    source.write_text(body + "\n", encoding="utf-8")
    run = cli("render", str(source))
    assert run.code == 2 and expect in run.err
    assert time.perf_counter() - start < 30


def test_small_repetitions_and_powers_still_work_in_templates(tmp_path):
    from derive.writeup.render import render_solution

    (tmp_path / "solution.md.j2").write_text('{{ "ab" * 3 }} {{ 2 ** 10 }} {{ [1] * 2 }} {{ 3 * 4 }}\n', encoding="utf-8")
    assert render_solution(solve("critical_ai", hw="a100"), "md", templates=tmp_path).strip() == "ababab 1024 [1, 1] 12"


@pytest.mark.parametrize("junk", ["\x85", "\u2028", "\r", "\x0b", "\x1b[2J", "\u202e", "\udcff"])
def test_error_line_stays_one_printable_line_whatever_the_user_typed(junk):
    """`derive render FILE '=\\x85'` printed "derive: error: unrecognized arguments: =" and the rest on a
    second line: NEL (and \\u2028, \\r, vertical tab) break lines, ANSI escapes reach the terminal and a
    lone surrogate cannot be printed at all. Found by the CLI fuzz test."""
    import contextlib
    import io

    from derive.cli import main

    for argv in (["solve", "critical_ai", "--hw", "a100", f"={junk}"], ["solve", f"critical{junk}ai"]):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            assert main(argv) == 2
        text = err.getvalue()
        assert text.endswith("\n") and len(text[:-1].splitlines()) == 1, repr(text)
        assert junk not in text
        text.encode("utf-8")     # printable on a UTF-8 terminal


def test_undecodable_bytes_on_the_command_line_are_one_error_line(tmp_path):
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "derive", "solve", b"critical\xffai"], capture_output=True,
                         timeout=120)
    assert run.returncode == 2
    assert run.stderr.decode("utf-8").count("\n") == 1 and b"Traceback" not in run.stderr


@pytest.mark.parametrize("symbol, expect", [
    (r"\input{/etc/hostname}", r"\input is not allowed"),            # would read a file into the PDF
    (r"\def\x{\x}\x", r"\def is not allowed"),                      # would loop xelatex for 3 minutes
    (r"\immediate\write18{touch x}", r"\immediate is not allowed"),
    (r"\end{document}", r"\end is not allowed"),
    ("}", "braces do not balance"),
    ("</math><script>alert(1)</script>", "'<' is not allowed"),
    ("x" * 101, "1 to 100 characters"),
])
def test_a_user_symbol_is_latex_math_from_a_small_grammar(tmp_path, symbol, expect):
    """A quantity's `symbol` went into the LaTeX write-ups as written: `\\input{/etc/hostname}` made
    xelatex read a file, `\\def\\x{\\x}\\x` looped it until the build timeout. Symbols are now checked
    against a small grammar of LaTeX math when the catalog loads. Found by the specials tests."""
    from derive import CatalogError, load_catalog

    path = tmp_path / "mine.yaml"
    quoted = "'" + symbol.replace("'", "''") + "'"
    path.write_text("quantities:\n  - id: widget_bytes\n    unit: B\n    symbol: " + quoted + "\n"
                    "    name: {en: w, zh: w}\n    meaning: {en: w, zh: w}\n    source: derived\n", encoding="utf-8")
    with pytest.raises(CatalogError, match=re.escape(expect)) as err:
        load_catalog([path])
    assert (err.value.file, err.value.line, err.value.entry) == (str(path), 4, "widget_bytes")


def test_every_builtin_symbol_fits_the_grammar():
    from derive import load_catalog

    cat = load_catalog(use_cache=False)
    assert all(q.latex for q in cat.quantities.values())


EP = {"gpus_per_node": 8, "experts_per_token": 8, "batch_tokens": 4096, "d_model": 7168,
      "network_node_bw": "400 GB/s"}


@pytest.mark.parametrize("degree", [1, 4, 8])
def test_expert_parallelism_inside_one_node_sends_nothing_across_nodes(degree):
    """ep_comms_time had the factor (Z − n) of the book's formula, written for Z > n: with the
    experts inside one node (Z ≤ n) it answered a negative time, then "no real positive value".
    Now max(Z − n, 0), with a regime that says so; only Z and n choose it, the other inputs cancel."""
    sol = solve("ep_comms_time", {**EP, "expert_parallel": degree})
    assert sol.value == 0 and sol.regime == "within_node"
    assert set(sol.cancelled) == {"batch_tokens", "d_model", "experts_per_token", "network_node_bw",
                                  "act_bytes_per_element"}


def test_expert_parallel_degree_bound_is_the_books_closed_form():
    """--max expert_parallel under ep_compute_bound was "SymPy cannot isolate it": the condition holds
    min(n·k/Z, 1) (and now max(Z − n, 0)). Each branch is solved on its own and the intervals probed,
    which gives the Scaling Book's Z < n + 2·k·F·W/(a·C) (GPUs chapter, "Expert Parallelism")."""
    sol = solve("expert_parallel", {**EP, "d_ff": 2048, "peak_flops": "989 TFLOP/s"},
                bound="max", require=["ep_compute_bound"])
    assert sol.value == 14
    assert sol.exact == 8 + sympy.Rational(2 * 2048 * 8 * 400 * 10**9, 2 * 989 * 10**12)   # 14.626…
    assert {s.name for s in sol.formula.free_symbols} >= {"gpus_per_node", "d_ff", "network_node_bw"}


@pytest.mark.parametrize("target", ["bubble_budget", "pp_microbatches"])
def test_one_pipeline_stage_has_no_bubble(target):
    """pipeline_bubble_gpipe is zero with one stage; the solver kept only positive values of a
    derived quantity, so any question through it said "no real positive value" though the quantity
    is declared `min: 0`."""
    sol = solve("pipeline_bubble_gpipe", {"pp_stages": 1, "pp_microbatches": 8})
    assert sol.value == 0
    if target == "bubble_budget":
        with pytest.raises(NoSolutionError, match="every positive"):
            solve("bubble_budget", {"pp_stages": 1, "pp_microbatches": 8}, bound="min",
                  require=["gpipe_bubble_within_budget"])
    else:
        with pytest.raises(NoSolutionError, match="every positive"):
            solve("pp_microbatches", {"pp_stages": 1, "bubble_budget": "0.1"}, bound="min",
                  require=["gpipe_bubble_within_budget"])


def test_a_missing_count_is_not_likened_to_another_count():
    """`decode_step_time_min --model llama2-7b --hw a100 batch=1 seq_len=1` (no num_devices) ended its
    error with "the inputs give batch_tokens (like num_devices): ask for tp_math_time": any two
    dimensionless quantities looked alike. A count is suggested only through the same formula."""
    from derive import MissingInputsError

    with pytest.raises(MissingInputsError) as err:
        solve("decode_step_time_min", {"batch": 1, "seq_len": 1}, model="llama2-7b", hw="a100")
    assert "num_devices" in str(err.value) and "ask for" not in str(err.value)


def test_a_parameter_count_that_cancels_through_a_sum_is_not_asked_for():
    """`derive solve mfu hfu=0.5 recompute_fraction=1` asked for 17 architecture numbers: the formula
    hfu·6·N/((6 + 2r)·N) had N (a sum of 17 counts) distributed in the numerator, so SymPy did not
    see that it cancels. A quotient whose missing inputs share a factor is cancelled before they are
    asked for (mfu = 3·hfu/(r + 3))."""
    sol = solve("mfu", {"hfu": "0.5", "recompute_fraction": 1})
    assert sol.value == sympy.Rational(3, 8)
    # FlashAttention-2's "225 TFLOPs/s per A100 (72% model FLOPs utilization)": no recomputation
    sol = solve("mfu", {"achieved_flops_per_device": "225 TFLOP/s"}, hw="a100")
    assert sol.value == sympy.Rational(225, 312)


def test_an_input_the_given_ones_derive_is_derived_when_the_rest_cancels():
    """Megatron-LM's 8·T·P/(n·X) without --hw asked for `mfu, peak_flops`, and the aggregate
    FLOP/s of 3,072 GPUs at 163 TFLOP/s each asked for `mfu`: the planner took mfu as a missing
    input although the achieved FLOP/s give it once the peak (or the parameter count) is a symbol,
    and those cancel. A missing input that the given ones derive through quantities whose own
    inputs cancel is derived."""
    sol = solve("train_time", {"params": "1.008e12", "train_tokens": "450e9", "num_devices": 3072,
                               "achieved_flops_per_device": "163 TFLOP/s", "recompute_fraction": 1})
    assert sol.value == sympy.Rational(8 * 1008 * 10**9 * 450 * 10**9, 3072 * 163 * 10**12)
    sol = solve("cluster_model_flops", {"num_devices": 3072, "achieved_flops_per_device": "163 TFLOP/s"},
                hw="a100")
    assert sol.value == 3072 * 163 * 10**12


def test_an_input_multiplied_by_a_zero_count_is_not_asked_for():
    """Kaplan et al.'s non-embedding N = 12·n_layer·d_model² for GPT-3 (96 layers, d = 12,288, about
    174B) with `embedding_matrices=0` asked for vocab_size, which only multiplies that zero."""
    sol = solve("params", {"num_layers": 96, "d_model": 12288, "num_heads": 96, "d_ff": 4 * 12288,
                           "ffn_matrices": 2, "embedding_matrices": 0, "norms_per_layer": 0, "final_norms": 0})
    assert sol.value == 12 * 96 * 12288**2


@pytest.mark.parametrize("text, value", [("1e12/(180e3h)", sympy.Rational(10**12, 180 * 10**3 * 3600)),
                                         ("2/(4 s)", sympy.Rational(1, 2)), ("1/(2*3s)", sympy.Rational(1, 6))])
def test_a_unit_inside_parentheses_is_part_of_the_arithmetic(text, value):
    """`train_throughput_per_device=1e12/(180e3h)` (DeepSeek-V3's 180K GPU-hours per trillion tokens) was
    "malformed unit 'h)'": the value was split at its first letter and "h)" read as a plain unit."""
    sol = solve("train_throughput", {"train_throughput_per_device": text, "num_devices": 1})
    assert sol.value == value


def test_a_failed_trial_of_another_way_keeps_the_first_missing_inputs():
    """Databricks' MBU example typed with params (`mbu params=7e9 decode_step_time=14ms hbm_bw=2TB/s
    --preset bf16`) ended "cannot determine decode_kv_time: missing ;" while trying to derive the
    missing inputs another way: that trial's own error must not replace the question's."""
    from derive import MissingInputsError

    with pytest.raises(MissingInputsError) as err:
        solve("mbu", {"params": "7e9", "decode_step_time": "14 ms", "hbm_bw": "2 TB/s"}, presets=["bf16"])
    assert err.value.target == "mbu" and "batch" in err.value.missing


def test_a_step_function_answers_with_a_value_its_interval_holds():
    # 2^ceil(log2(3 B / C)) = 4 for 0.75 B <= C < 1.5 B: the value is 0.75 B, not the 1.5 B it excludes
    from fractions import Fraction

    from derive import solve

    sol = solve("hbm_capacity", {"pow2_slice_chips": 4, "weight_bytes": "2 B", "kv_cache_bytes": "1 B"})
    assert (sol.interval.low, sol.interval.high) == (Fraction(3, 4), Fraction(3, 2))
    assert (sol.interval.low_open, sol.interval.high_open) == (False, True)
    assert sol.value == Fraction(3, 4)
    again = solve("pow2_slice_chips", {"hbm_capacity": sol.value, "weight_bytes": "2 B", "kv_cache_bytes": "1 B"})
    assert again.value == 4
