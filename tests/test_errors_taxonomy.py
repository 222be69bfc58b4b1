"""One taxonomy of errors: every kind of user mistake, provoked through the API and the CLI.

For each kind the API raises its own subclass of ``DeriveError`` (also a built-in exception)
with structured fields, and a one-line message that says what to do next; the CLI prints
exactly that message after ``derive: error:`` on one line and exits with 2. An unexpected
internal error exits with 1, a short message and a hint to rerun with ``--debug``.
"""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import derive
from derive import (
    CatalogError,
    ContradictoryInputsError,
    DeriveError,
    ExpressionError,
    InputError,
    MissingInputsError,
    NoSolutionError,
    NotInvertibleError,
    QuestionError,
    TemplateError,
    UnitBalanceError,
    UnitError,
    UnknownNameError,
    load_catalog,
    solve,
)
from derive import errors as _errors
from derive.cli._main import spell_for_cli

ROOT = Path(__file__).resolve().parent.parent

# a message says what to do next: one of these phrases
NEXT_STEP = re.compile(r"did you mean|run 'derive|give |write |use |check |drop |fix |add |choose |"
                       r"change |ask |define |rerun|bound another|see ")


def run_main(*args: str) -> tuple[int, str, str]:
    """The CLI's own entry point, in this process (the console script calls the same function)."""
    from derive.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def cli_line(*args: str) -> str:
    code, out, err = run_main(*args)
    assert code == 2, (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("derive: error: "), err
    assert "Traceback" not in err
    return lines[0][len("derive: error: "):]


def user_file(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


# ---------------------------------------------------------------------------
# mistakes in a question: (API call, CLI arguments, class, fields)

QUESTION_MISTAKES = [
    pytest.param(lambda: solve("critical_aj", hw="a100"), ["solve", "critical_aj", "--hw", "a100"],
                 UnknownNameError, {"name": "critical_aj", "kind": "quantity"}, id="unknown-quantity"),
    pytest.param(lambda: solve("critical_ai", hw="classic-ffn"), ["solve", "critical_ai", "--hw", "classic-ffn"],
                 UnknownNameError, {"name": "classic-ffn", "kind": "hardware preset",
                                    "hint": "'classic-ffn' is a setup preset: give it with --preset classic-ffn"},
                 id="preset-of-another-kind"),
    pytest.param(lambda: solve("batch", bound="max", require=["fits_in_the_moon"]),
                 ["solve", "batch", "--max", "--require", "fits_in_the_moon"],
                 UnknownNameError, {"name": "fits_in_the_moon", "kind": "condition"}, id="unknown-condition"),
    pytest.param(lambda: load_catalog().entry("critical_ai_hmb"), ["show", "critical_ai_hmb"],
                 UnknownNameError, {"name": "critical_ai_hmb", "kind": "name"}, id="unknown-entry"),
    pytest.param(lambda: solve("critical_ai", {"hbm_bw": "3 GB"}, hw="a100"),
                 ["solve", "critical_ai", "hbm_bw=3 GB", "--hw", "a100"],
                 UnitError, {"unit": "GB", "quantity": "hbm_bw", "expected": "B/s", "got": "B"}, id="wrong-dimension"),
    pytest.param(lambda: solve("critical_ai", {"hbm_bw": "3 KB/s"}, hw="a100"),
                 ["solve", "critical_ai", "hbm_bw=3 KB/s", "--hw", "a100"],
                 UnitError, {"unit": "KB/s"}, id="ambiguous-unit"),
    pytest.param(lambda: solve("critical_ai", {"hbm_bw": "3 parsecs"}, hw="a100"),
                 ["solve", "critical_ai", "hbm_bw=3 parsecs", "--hw", "a100"],
                 UnitError, {"unit": "parsecs"}, id="unknown-unit"),
    pytest.param(lambda: solve("critical_ai", {"peak_flops": "2**0.5"}, hw="a100"),
                 ["solve", "critical_ai", "peak_flops=2**0.5", "--hw", "a100"],
                 ExpressionError, {"text": "2**0.5"}, id="irrational-value"),
    pytest.param(lambda: solve("critical_ai", {"peak_flops": "9**9**9"}, hw="a100"),
                 ["solve", "critical_ai", "peak_flops=9**9**9", "--hw", "a100"],
                 ExpressionError, {"text": "9**9**9"}, id="huge-exponent"),
    pytest.param(lambda: solve("critical_ai", {"peak_flops": "__import__('os')"}, hw="a100"),
                 ["solve", "critical_ai", "peak_flops=__import__('os')", "--hw", "a100"],
                 DeriveError, {}, id="hostile-value"),
    pytest.param(lambda: solve("critical_ai", {"hbm_bw": "-3 TB/s"}, hw="a100"),
                 ["solve", "critical_ai", "hbm_bw=-3 TB/s", "--hw", "a100"],
                 InputError, {"name": "hbm_bw"}, id="negative-value"),
    pytest.param(lambda: solve("num_layers", {"num_layers": 80}), ["solve", "num_layers", "num_layers=80"],
                 InputError, {"name": "num_layers"}, id="target-given"),
    pytest.param(lambda: solve("kv_cache_bytes", {"batch": "1.5", "seq_len": 4096}, model="llama2-70b"),
                 ["solve", "kv_cache_bytes", "batch=1.5", "seq_len=4096", "--model", "llama2-70b"],
                 InputError, {"name": "batch"}, id="fraction-of-a-count"),
    pytest.param(lambda: solve("critical_ai", hw="a100", multiple_of=8),
                 ["solve", "critical_ai", "--hw", "a100", "--multiple-of", "8"],
                 QuestionError, {"name": "multiple_of"}, id="multiple-without-bound"),
    pytest.param(lambda: solve("kv_cache_bytes", model="llama2-70b"), ["solve", "kv_cache_bytes", "--model", "llama2-70b"],
                 MissingInputsError, {"target": "kv_cache_bytes", "missing": ("batch", "seq_len")}, id="missing-inputs"),
    pytest.param(lambda: solve("memory_time", {"flops": "1e12", "bytes_moved": "1e9", "arithmetic_intensity": 5,
                                               "hbm_bw": "2 TB/s"}),
                 ["solve", "memory_time", "flops=1e12", "bytes_moved=1e9", "arithmetic_intensity=5", "hbm_bw=2TB/s"],
                 ContradictoryInputsError, {"relation": "arithmetic_intensity"}, id="contradictory-inputs"),
    pytest.param(lambda: solve("weight_bytes_per_param", {"training_bytes_per_param": 10, "grad_bytes_per_param": 8,
                                                          "optimizer_bytes_per_param": 12}),
                 ["solve", "weight_bytes_per_param", "training_bytes_per_param=10", "grad_bytes_per_param=8",
                  "optimizer_bytes_per_param=12"],
                 NoSolutionError, {"quantity": "weight_bytes_per_param", "relations": ("training_bytes_per_param",)},
                 id="no-positive-solution"),
    pytest.param(lambda: solve("batch", hw="tpu-v5e", presets=["classic-ffn"], bound="max",
                               require=["ffn_prefetch_hidden"]),
                 ["solve", "batch", "--max", "--require", "ffn_prefetch_hidden", "--hw", "tpu-v5e",
                  "--preset", "classic-ffn"],
                 NoSolutionError, {"quantity": "batch", "relations": ("ffn_prefetch_hidden",)}, id="no-bound"),
    pytest.param(lambda: solve("compute_time", {"roofline_time": "1 s", "memory_time": "1 s"}),
                 ["solve", "compute_time", "roofline_time=1s", "memory_time=1s"],
                 NoSolutionError, {"quantity": "compute_time", "relations": ("roofline_time",)}, id="not-determined"),
]


@pytest.mark.parametrize("call, argv, cls, fields", QUESTION_MISTAKES)
def test_each_mistake_has_its_class_fields_and_one_cli_line(call, argv, cls, fields):
    with pytest.raises(cls) as err:
        call()
    exc = err.value
    for name, value in fields.items():
        assert getattr(exc, name) == value, (name, getattr(exc, name))
    message = str(exc)
    assert "\n" not in message
    assert NEXT_STEP.search(message), f"the message does not say what to do next: {message}"
    # the CLI prints the same message, with the fields of a question spelled as its flags
    assert cli_line(*argv) == spell_for_cli(message)
    assert "`" not in cli_line(*argv)


def test_structured_fields_of_the_quantitative_errors():
    with pytest.raises(ContradictoryInputsError) as err:
        solve("memory_time", {"flops": "1e12", "bytes_moved": "1e9", "arithmetic_intensity": 5, "hbm_bw": "2 TB/s"})
    assert err.value.relative_error == pytest.approx(0.995)        # 1000 FLOP/B stated against 5
    assert "1,000" in err.value.left or "1,000" in err.value.right
    with pytest.raises(UnknownNameError) as err:
        solve("critical_aj", hw="a100")
    assert "critical_ai" in err.value.suggestions
    assert isinstance(err.value, KeyError)
    with pytest.raises(MissingInputsError) as err:
        solve("kv_cache_bytes", model="llama2-70b")
    assert "give them as NAME=VALUE (e.g. batch=VALUE)" in str(err.value)


@pytest.mark.parametrize("argv, expect", [
    (["solve", "critical_ai", "hbm_bw"], "malformed input 'hbm_bw': write NAME=VALUE"),
    (["solve", "critical_ai", "hbm_bw="], "hbm_bw= has no value; write e.g. hbm_bw=4096"),
    (["solve", "critical_ai", "hbm_bw=1", "hbm_bw=2"], "hbm_bw is given twice; give it once"),
    (["solve", "critical_ai", "--frobnicate"], "unrecognized arguments: --frobnicate (see 'derive --help')"),
    (["solve", "critical_ai", "--format", "docx"], "invalid choice: 'docx'"),
    (["solve", "critical_ai", "--multiple-of", "x"], "invalid int value: 'x'"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_malformed_command_lines_are_input_errors(argv, expect):
    line = cli_line(*argv)
    assert expect in line
    assert NEXT_STEP.search(line) or "see 'derive" in line or "choose from" in line


# ---------------------------------------------------------------------------
# not invertible: a user relation that SymPy cannot solve for one of its symbols


PADDING = """
references:
  - id: padding-note
    title: A note on padding
    kind: convention
quantities:
  - id: pad_items
    unit: '1'
    type: integer
    symbol: 'n'
    name: {en: items, zh: 项数}
    meaning: {en: Items to store., zh: 要存的项数。}
    source: padding-note
  - id: pad_block
    unit: '1'
    type: integer
    symbol: 'b'
    name: {en: block, zh: 块大小}
    meaning: {en: Items per block., zh: 每块项数。}
    source: padding-note
  - id: pad_total
    unit: '1'
    type: integer
    symbol: 'N'
    name: {en: padded items, zh: 补齐后的项数}
    meaning: {en: Items rounded up to whole blocks., zh: 向上补齐到整块后的项数。}
    source: padding-note
relations:
  - id: pad_total
    equation: pad_total = ceil(pad_items / pad_block) * pad_block
    name: {en: padding, zh: 补齐}
    meaning: {en: Round up to whole blocks., zh: 向上补齐到整块。}
    source: padding-note
"""


def test_not_invertible(tmp_path):
    path = user_file(tmp_path, "padding.yaml", PADDING)
    cat = load_catalog([path], use_cache=False)
    with pytest.raises(NotInvertibleError) as err:
        solve("pad_block", {"pad_total": 256, "pad_items": 200}, catalog=cat)
    e = err.value
    assert (e.relation, e.symbol) == ("pad_total", "pad_block")
    assert "SymPy cannot isolate it" in e.reason
    assert str(e).endswith("give pad_block as an input, or ask for another quantity")
    assert cli_line("solve", "pad_block", "pad_total=256", "pad_items=200", "--formulas", str(path)) == str(e)
    # forward, it is an ordinary relation
    assert solve("pad_total", {"pad_block": 128, "pad_items": 200}, catalog=cat).value == 256


# ---------------------------------------------------------------------------
# malformed files: catalog, problem, claims, templates, live sources (file and line)


def test_malformed_user_formula_file_names_file_line_and_entry(tmp_path):
    path = user_file(tmp_path, "mine.yaml", """
        quantities:
          - id: widget_bytes
            unti: B
        """)
    with pytest.raises(CatalogError) as err:
        load_catalog([path], use_cache=False)
    e = err.value
    assert (e.file, e.line, e.entry) == (str(path), 2, "widget_bytes")
    assert str(e) == f"{path}:2: widget_bytes: unknown field 'unti' (did you mean 'unit'?)"
    assert cli_line("list", "--formulas", str(path)) == str(e)


def test_unbalanced_relation_is_a_unit_balance_error(tmp_path):
    path = user_file(tmp_path, "mine.yaml", PADDING.replace(
        "pad_total = ceil(pad_items / pad_block) * pad_block", "pad_total = pad_items * [B]"))
    with pytest.raises(UnitBalanceError) as err:
        load_catalog([path], use_cache=False)
    e = err.value
    assert isinstance(e, CatalogError)
    assert (e.file, e.entry, e.left_unit, e.right_unit) == (str(path), "pad_total", "1", "B")
    assert e.line == PADDING.lstrip("\n").splitlines().index(
        "    equation: pad_total = ceil(pad_items / pad_block) * pad_block") + 1
    assert cli_line("list", "--formulas", str(path)) == str(e)


def test_malformed_problem_file_names_file_line_and_question(tmp_path):
    from derive.documents.problems import load_problem

    path = user_file(tmp_path, "problem.yaml", """
        id: p
        title: {en: A problem, zh: 一个问题}
        statement: {en: Solve it., zh: 求解。}
        questions:
          - id: q1
            ask: {en: How much?, zh: 多少？}
            solve: kv_bytes_per_token
            model: llama2-70b
          - id: q2
            ask: {en: And this?, zh: 这个呢？}
            solve: kv_bytes_per_tokn
        """)
    with pytest.raises(CatalogError) as err:
        load_problem(path)
    e = err.value
    assert (e.file, e.entry) == (str(path), "q2")
    assert e.line in (9, 10, 11)
    assert "unknown quantity 'kv_bytes_per_tokn'" in str(e) and "did you mean" in str(e)
    assert cli_line("report", str(path), "-o", str(tmp_path / "out")) == str(e)


def test_malformed_claims_file_names_file_and_line(tmp_path):
    from derive.documents.claims import load_claims

    path = user_file(tmp_path, "claims.yaml", """
        chapter: seed-bandwidth-wall
        title: {en: Claims, zh: 数字}
        claims:
          - id: one
            quote: "x"
            stated: 312 TFLOP/s
            constant: {preset: a100, quantity: peak_flopz}
        """)
    with pytest.raises(CatalogError) as err:
        load_claims(path)
    e = err.value
    assert e.file == str(path) and e.line is not None and e.line >= 4
    assert "peak_flopz" in str(e)
    assert cli_line("check", str(path)) == str(e)


@pytest.mark.parametrize("body, line, expect", [
    ("ok\n{% for x in %}\n", 2, "template syntax error"),
    ("ok\n\n{{ s.no_such_field }}\n", 3, "no_such_field"),
    ("{{ ''.__class__.__mro__ }}\n", 1, "template tried something unsafe"),
])
def test_template_errors_name_file_and_line(tmp_path, body, line, expect):
    from derive.writeup.render import render_solution

    (tmp_path / "solution.md.j2").write_text(body, encoding="utf-8")
    with pytest.raises(TemplateError) as err:
        render_solution(solve("critical_ai", hw="a100"), "md", templates=tmp_path)
    e = err.value
    assert (e.file, e.line) == (str(tmp_path / "solution.md.j2"), line)
    assert expect in str(e)
    assert cli_line("solve", "critical_ai", "--hw", "a100", "--format", "md", "--templates", str(tmp_path)) == str(e)


def test_live_source_errors_name_file_and_line(tmp_path):
    source = user_file(tmp_path, "chapter.md", """
        # A chapter

        The A100 needs {{ q("critical_ai", hw="a1000") }} FLOP per byte.
        """)
    line = cli_line("render", str(source))
    assert line.startswith(f"{source}:3: ")
    assert "unknown hardware preset 'a1000'" in line


# ---------------------------------------------------------------------------
# the taxonomy is complete, and internal errors are told apart


def test_every_user_error_class_is_provoked_above():
    provoked = {p.values[2] for p in QUESTION_MISTAKES} | {NotInvertibleError, CatalogError, UnitBalanceError,
                                                           TemplateError,
                                                           _errors.TimeBudgetError}   # tests/test_budgets.py
    classes = {getattr(_errors, n) for n in _errors.__all__} - {DeriveError, _errors.VerificationError}
    assert classes <= provoked | {DeriveError}, classes - provoked
    for cls in classes | {_errors.VerificationError}:
        assert issubclass(cls, DeriveError)
        assert any(issubclass(cls, b) for b in (KeyError, ValueError, ArithmeticError, TypeError, TimeoutError))


PLUGIN = """
import sys
import types

from derive.cli import _main
from derive.cli._options import add_common

# a subcommand added as the recipe in derive/cli/__init__.py says: a module and one name in COMMANDS
command = types.ModuleType("derive.cli.explode")
command.HELP = "a command with a bug"
command.configure = add_common
command.run = lambda args: {}["missing"]
sys.modules["derive.cli.explode"] = command
_main.COMMANDS = (*_main.COMMANDS, "explode")
sys.exit(_main.main(sys.argv[1:]))
"""


def test_an_internal_error_is_exit_1_with_a_hint_and_debug_shows_the_traceback(tmp_path):
    """A bug (here in a command added by the recipe of ``derive.cli``) is not a user mistake."""
    script = tmp_path / "with_plugin.py"
    script.write_text(PLUGIN, encoding="utf-8")
    run = subprocess.run([sys.executable, str(script), "explode"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 1
    assert run.stderr.strip() == ("derive: internal error: KeyError: 'missing' "
                                  "(rerun with --debug for the traceback)")
    run = subprocess.run([sys.executable, str(script), "explode", "--debug"], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 1
    assert "Traceback (most recent call last)" in run.stderr and "KeyError: 'missing'" in run.stderr


def test_the_hierarchy_is_documented_in_the_module_docstring():
    doc = _errors.__doc__
    for name in _errors.__all__:
        assert name in doc, name
    assert derive.DeriveError is DeriveError
