"""Budgets for what a user supplies, and numbers beyond a float (issue 16, items 5, 7, 9, 10).

Each case is a reproducer from the issue: it must end quickly with one ``derive: error:``
line and exit 2, or print the exact value, never hang, overflow or trace back.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from derive import TimeBudgetError
from derive.symbolic.budget import time_budget

SLOW = """
quantities:
{quantities}
relations:
  - id: slow_power
    equation: xa = xb * xc**4096
    name: {{en: a slow power, zh: 高次幂}}
    meaning: {{en: SymPy takes tens of seconds to solve it for xc, zh: SymPy 求解 xc 需要几十秒}}
    source: scaling-book-tpus
  - id: tiny_power
    equation: xd = xb / xc**4096
    name: {{en: a tiny power, zh: 负高次幂}}
    meaning: {{en: far below a float, zh: 远小于浮点数下限}}
    source: scaling-book-tpus
"""
QUANTITY = """  - id: {id}
    symbol: {id}
    unit: '1'
    name: {{en: {id}, zh: {id}}}
    meaning: {{en: {id}, zh: {id}}}
    source: scaling-book-tpus
"""


@pytest.fixture
def slow_formulas(tmp_path):
    path = tmp_path / "slow.yaml"
    path.write_text(SLOW.format(quantities="".join(QUANTITY.format(id=q) for q in ("xa", "xb", "xc", "xd"))),
                    encoding="utf-8")
    return path


def _one_error_line(run) -> str:
    assert run.code == 2, (run.code, run.err)
    assert run.err.startswith("derive: error: ") and run.err.count("\n") == 1, run.err
    return run.err


def test_a_slow_symbolic_solve_stops_at_its_budget_naming_the_relation(cli, slow_formulas):
    start = time.monotonic()
    run = cli("solve", "xc", "xa=2", "xb=3", "--formulas", str(slow_formulas),
              env={"DERIVE_SYMBOLIC_SECONDS": "1"}, timeout=60)
    err = _one_error_line(run)
    assert "slow_power" in err and "1 s" in err
    assert time.monotonic() - start < 30            # the 30-60 s solve was cut off


def test_budget_setting_is_checked(cli):
    err = _one_error_line(cli("solve", "critical_ai", "--hw", "a100", env={"DERIVE_SYMBOLIC_SECONDS": "forever"}))
    assert "DERIVE_SYMBOLIC_SECONDS" in err


def test_nested_budgets_keep_the_sooner_deadline_and_rearm_the_outer_one():
    from derive.storage.process import process_guards

    with process_guards():
        _nested_budgets()


def test_a_library_call_sets_no_timer_and_no_handler():
    """Without the command's process guards a budget does not touch the process's timer or signals."""
    before = signal.getsignal(signal.SIGALRM)
    with time_budget("library work", seconds=0.2):
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        assert signal.getsignal(signal.SIGALRM) is before
        time.sleep(0.4)                                     # not interrupted


def _nested_budgets() -> None:
    with pytest.raises(TimeBudgetError) as caught:
        with time_budget("outer work", seconds=0.6):
            with time_budget("inner work", seconds=5):      # the outer deadline is sooner
                time.sleep(2)
    assert caught.value.what == "outer work"
    with pytest.raises(TimeBudgetError) as caught:
        with time_budget("outer work", seconds=0.8):
            with time_budget("inner work", seconds=0.2):
                pass                                            # inner finishes; the outer still fires
            time.sleep(2)
    assert caught.value.what == "outer work"
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_results_beyond_float_range_print_exactly(cli, slow_formulas):
    run = cli("solve", "xa", "xc=2", "xb=3", "--formulas", str(slow_formulas))
    assert run.code == 0, run.err
    assert run.out.startswith("xa = 3.133e1233")          # 3 * 2**4096
    run = cli("solve", "xd", "xc=2", "xb=3", "--formulas", str(slow_formulas), "--format", "json")
    assert run.code == 0, run.err
    assert run.json["value"] == "2.8724932382856556e-1233" and run.json["display"] == "2.872e-1233"


@pytest.mark.parametrize("sweep", [("xc=2:3:3",), ("xc=2:3:3", "--format", "json"), ("xc=2:3:3", "--verify", "0"),
                                   ("xc=1.1:1.2:3",)])
def test_a_sweep_whose_values_underflow_is_refused_not_written_as_zero(cli, slow_formulas, sweep):
    """Audit of issue 16: xd = 3/xc**4096 (about 1e-1233) was written 0,0,0 with verified_points: 3 and exit 0.
    A value the engine gives as non-zero that a 64-bit float cannot hold (0, a subnormal) is a range error."""
    run = cli("sweep", "xd", *sweep, "xb=3", "--formulas", str(slow_formulas))
    err = _one_error_line(run)
    assert "beyond a 64-bit float's range" in err and run.out == ""


def test_built_in_conv_flops_at_the_input_limits(cli):
    inputs = [f"{n}=1e60" for n in ("conv_height", "conv_width", "conv_kernel", "channels_in", "channels_out",
                                    "matmul_rows")]
    run = cli("solve", "conv_flops", *inputs)
    assert run.code == 0 and "2e420 FLOP" in run.out and "every relation holds" in run.out
    err = _one_error_line(cli("sweep", "conv_flops", "conv_height=1e59:1e60:3", *inputs[1:]))
    assert "float" in err


@pytest.mark.parametrize("args, says", [
    (("solve", "critical_ai", "--hw", "a100", "hbm_bw=2 TB/(s"), "unbalanced parentheses"),
    (("solve", "critical_ai", "--hw", "a100", "hbm_bw=1 EB^9999999/s"), "too large"),
    (("sweep", "critical_ai_hbm", "peak_flops=1e14:2e14:3", "hbm_bw=1e12", "--verify", "1000000000"), "--verify"),
    (("sweep", "critical_ai_hbm", "peak_flops=1e14:2e14:3", "hbm_bw=1e12", "--verify", "-1"), "--verify"),
    (("sweep", "critical_ai_hbm", "peak_flops=1e14:2e14:3", "hbm_bw=1e12", "--verify", "20000"), "--verify"),
    (("sweep", "critical_ai_hbm", "peak_flops=1e14:2e14:3", "hbm_bw=1 EB^9999999/s"), "too large"),
    (("sweep", "critical_ai_hbm", "peak_flops=1 EB^9999999/s:2e14:3", "hbm_bw=1e12"), "too large"),
    (("solve", "critical_ai", "--hw", "a100", "--unit", "FLOP/B^9999999"), "too large"),
])
def test_bad_inputs_get_one_line_and_exit_2(cli, args, says):
    assert says in _one_error_line(cli(*args, timeout=60))


HUGE_POWER = {
    "formula": ("mine.yaml", "quantities:\n  - id: evil_q\n    symbol: e\n    unit: EB^9999999\n"
                "    name: {en: e, zh: e}\n    meaning: {en: e, zh: e}\n    source: scaling-book-tpus\n",
                ("solve", "critical_ai", "--hw", "a100", "--formulas", "{file}")),
    "claims": ("c.yaml", "chapter: seed-bandwidth-wall\ntitle: {en: t, zh: t}\nclaims:\n  - id: a\n    quote: x\n"
               "    stated: 156 FLOP/B^9999999\n    solve: critical_ai\n    hw: a100\n", ("check", "{file}")),
    "problem": ("p.yaml", "id: p\ntitle: {en: t, zh: t}\nstatement: {en: s, zh: s}\n"
                "given: {hbm_bw: 1 EB^9999999/s}\nquestions:\n  - id: q\n    ask: {en: a, zh: a}\n"
                "    solve: critical_ai\n    hw: a100\n", ("report", "{file}", "--format", "md", "-o", "{dir}/out")),
    "live source": ("l.md", '{{ q("critical_ai", hw="a100", hbm_bw="1 EB^9999999/s") }}\n', ("render", "{file}")),
    "live unit": ("l.md", '{{ q("critical_ai", hw="a100", unit="FLOP/B^9999999") }}\n', ("render", "{file}")),
}


@pytest.mark.parametrize("surface", sorted(HUGE_POWER))
def test_a_unit_power_is_bounded_wherever_a_unit_is_read(cli, tmp_path, surface):
    """Issue 16, item 5: EB^9999999 ran past 4 minutes in formula, claims and problem files and live sources."""
    name, text, args = HUGE_POWER[surface]
    (tmp_path / name).write_text(text, encoding="utf-8")
    start = time.monotonic()
    err = _one_error_line(cli(*(a.format(file=tmp_path / name, dir=tmp_path) for a in args), timeout=60))
    assert "too large" in err and time.monotonic() - start < 30


@pytest.mark.parametrize("tolerance", ["inf", "nan", "-1", "1e400"])
def test_claims_tolerance_must_be_a_relative_error(cli, tmp_path, tolerance):
    claims = tmp_path / "c.yaml"
    claims.write_text("chapter: seed-bandwidth-wall\ntitle: {en: t, zh: t}\nclaims:\n  - id: a\n    quote: x\n"
                      f"    stated: 156 FLOP/B\n    solve: critical_ai\n    hw: a100\n    tolerance: {tolerance}\n",
                      encoding="utf-8")
    assert "tolerance" in _one_error_line(cli("check", str(claims)))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize("command", [("solve", "critical_ai", "--hw", "a100", "--formulas", "{dir}"),
                                     ("solve", "critical_ai", "--hw", "a100", "--formulas", "{dir}/f.yaml"),
                                     ("check", "{dir}/f.yaml"), ("report", "{dir}/f.yaml"),
                                     ("render", "{dir}/f.md"),
                                     # a messages file in a template folder (it blocked forever)
                                     ("solve", "critical_ai", "--hw", "a100", "--templates", "{dir}/pack",
                                      "--format", "md")])
def test_a_fifo_is_refused_not_waited_on(cli, tmp_path, command):
    os.mkfifo(tmp_path / "f.yaml")
    os.mkfifo(tmp_path / "f.md")
    (tmp_path / "pack").mkdir()
    os.mkfifo(tmp_path / "pack" / "messages-x.yaml")
    err = _one_error_line(cli(*(a.format(dir=tmp_path) for a in command), timeout=30))
    assert "not a regular file" in err


def test_point_labels_are_shown_as_typed(cli, tmp_path):
    out = tmp_path / "p.svg"
    run = cli("plot", "roofline", "--hw", "a100", "--point", r"$\frac{a$=12", "-o", str(out))
    assert run.code == 0, run.err
    assert out.stat().st_size > 0


DEEP = {"flow": "[" * 40_000, "block": "- " * 40_000 + "x\n", "mapping": "a: " + "{a: " * 40_000}
DEEP_SURFACES = {
    "formula": ("mine.yaml", ("solve", "critical_ai", "--hw", "a100", "--formulas", "{file}")),
    "claims": ("c.yaml", ("check", "{file}")),
    "problem": ("p.yaml", ("report", "{file}", "--format", "md", "-o", "{dir}/out")),
    "messages": ("pack/messages-x.yaml", ("solve", "critical_ai", "--hw", "a100", "--templates", "{dir}/pack",
                                          "--format", "md")),
}


@pytest.mark.parametrize("shape", sorted(DEEP))
@pytest.mark.parametrize("surface", sorted(DEEP_SURFACES))
def test_deeply_nested_yaml_is_refused_not_a_crash(cli, tmp_path, surface, shape):
    """Audit of issue 16: 40,000 ``[`` (80 KB) in a formula, claims or messages file crashed libyaml's
    composer (SIGSEGV, exit 139). Files are built from the parser's events with a stack; past 200 levels
    the file is refused at its line."""
    name, args = DEEP_SURFACES[surface]
    path = tmp_path / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(DEEP[shape], encoding="utf-8")
    err = _one_error_line(cli(*(a.format(file=path, dir=tmp_path) for a in args), timeout=60))
    assert "nested more than 200 deep" in err and f"{path.name}:1:" in err


@pytest.mark.parametrize("parser", ["libyaml", "pure-python"])
@pytest.mark.parametrize("shape", sorted(DEEP))
def test_derives_guards_hold_under_either_yaml_parser(tmp_path, monkeypatch, parser, shape):
    """PyYAML may come with or without libyaml, and libyaml builds differ in their own limits: the
    contract (derive's error, its file and line) holds under both parsers."""
    import yaml

    from derive.errors import CatalogError
    from derive.storage.yamlio import read_yaml

    if parser == "libyaml" and not hasattr(yaml, "CBaseLoader"):
        pytest.skip("this PyYAML has no libyaml")
    if parser == "pure-python":
        monkeypatch.delattr(yaml, "CBaseLoader", raising=False)
    path = tmp_path / "deep.yaml"
    path.write_text(DEEP[shape], encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        read_yaml(path)
    assert caught.value.line == 1 and "nested more than 200 deep" in str(caught.value)


def test_nesting_within_the_limit_is_read(tmp_path):
    from derive.storage.yamlio import read_yaml

    path = tmp_path / "ok.yaml"
    path.write_text("a: " + "[" * 199 + "x" + "]" * 199 + "\n", encoding="utf-8")
    value = read_yaml(path)["a"]
    for _ in range(198):
        (value,) = value
    assert value == ["x"] and value[0].line == 1
