"""Bad input ends in one 'derive: error:' line and exit 2, never a traceback or a wrong number."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT


def one_error_line(run) -> str:
    assert run.code == 2, (run.code, run.out, run.err)
    lines = run.err.strip().splitlines()
    assert len(lines) == 1, run.err
    assert lines[0].startswith("derive: error: "), run.err
    assert "Traceback" not in run.err
    assert run.out == ""
    return lines[0]


@pytest.mark.parametrize("args, expect", [
    (["solve", "critical_aj", "--hw", "a100"], "did you mean 'critical_ai'"),
    (["solve", "critical_ai", "--hw", "a1000"], "unknown hardware preset 'a1000'"),
    (["solve", "kv_bytes_per_token", "--model", "llama-70b"], "unknown model preset"),
    (["solve", "critical_ai", "hbm_bw=3GB", "--hw", "a100"], "hbm_bw is in B/s, but 'GB' is B"),
    (["solve", "critical_ai", "hbm_bw=3 parsecs", "peak_flops=1"], "unknown unit"),
    (["solve", "critical_ai", "hbm_bw=3KB/s", "peak_flops=1"], "ambiguous unit"),
    (["solve", "kv_cache_bytes", "--model", "llama2-70b"], "missing batch, seq_len"),
    (["solve", "weight_bytes", "params=52B"], "for 52 billion write params=52e9"),
    (["solve", "weight_bytes"], "or give params itself"),
    # the most specific quantity that every missing input only serves: the KV cache of a decode step
    (["solve", "mbu", "params=7e9", "--preset", "fp16", "tpot=14ms", "hbm_bw=2TB/s", "num_devices=1"],
     "or give kv_cache_bytes itself"),
    # (mfu from the achieved FLOP/s no longer asks for it: the parameter count cancels, 430/989 = 43%)
    (["solve", "decode_flops", "batch=1"], "or give active_params itself"),
    # the way that needs fewest inputs: C = 6·N·D wants the tokens, not a model's 17 architecture numbers
    (["solve", "params", "train_flops=1e24FLOP"], "cannot determine params: missing train_tokens;"),
    (["solve", "nvlink_allreduce_time", "collective_bytes=1GB", "axis_size=1", "nvlink_gpu_bw=230GB/s"],
     "nvlink_allreduce_time is 0 with these inputs"),
    (["solve", "weight_bytes", "params=7k"], "for 7 thousand write params=7e3"),
    (["solve", "weight_bytes", "params=1.5T"], "for 1.5 trillion write params=1.5e12"),
    (["solve", "training_memory", "params=20e9", "--preset", "adam-mixed", "seq_len=2048", "batch=1",
      "d_model=6144", "num_layers=44"],
     "a preset gives activation_factor: big-matmuls-remat, block-remat, chapter-activations, ffw-checkpoints"),
    (["solve", "critical_ai", "hbm_bw=-3TB/s", "peak_flops=1"], "must be positive"),
    (["solve", "critical_ai", "hbm_bw=0", "peak_flops=1"], "must be positive"),
    (["solve", "batch", "--max"], "needs at least one --require"),
    (["solve", "batch", "--max", "--require", "fits_in_the_moon"], "unknown condition"),
    (["solve", "num_layers", "num_layers=80"], "do not also give it"),
    (["solve", "kv_cache_bytes", "batch=1.5", "seq_len=4096", "--model", "llama2-70b"], "whole number"),
    (["solve", "critical_ai", "hbm_bw", "--hw", "a100"], "malformed input 'hbm_bw'"),
    (["solve", "critical_ai", "--frobnicate"], "unrecognized arguments"),
    (["solve", "d_model", "--min", "--require", "ffn_fits_in_vmem", "--hw", "tpu-v5e", "--preset", "classic-ffn"],
     "no positive minimum"),
    (["solve", "batch", "--max", "--require", "ffn_prefetch_hidden", "--hw", "tpu-v5e", "--preset", "classic-ffn"],
     "has no maximum"),
])
def test_bad_input_is_one_line_and_exit_2(cli, args, expect):
    line = one_error_line(cli(*args))
    assert expect in line


def test_contradictory_inputs_name_the_relation_and_the_size(cli):
    line = one_error_line(cli("solve", "memory_time", "flops=1e12", "bytes_moved=1e9",
                              "arithmetic_intensity=5", "hbm_bw=2TB/s"))
    assert "relation arithmetic_intensity" in line
    assert "off by" in line


def test_no_positive_solution(cli):
    line = one_error_line(cli("solve", "weight_bytes_per_param", "training_bytes_per_param=10",
                              "grad_bytes_per_param=8", "optimizer_bytes_per_param=12"))
    assert "no real positive value" in line


@pytest.mark.parametrize("hostile", [
    "__import__('os').system('touch {marker}')",
    "2*__import__('os').system('touch {marker}')",
    "(lambda: open('{marker}', 'w'))()",
    "9**9**9",
    "[x for x in ().__class__.__base__.__subclasses__()]",
    "1" * 5000,
])
def test_hostile_values_are_refused_and_run_nothing(cli, tmp_path, hostile):
    marker = tmp_path / "pwned"
    run = cli("solve", "critical_ai", "hbm_bw=2TB/s", "peak_flops=" + hostile.format(marker=marker))
    one_error_line(run)
    assert not marker.exists()


def test_internal_errors_are_exit_1_with_a_hint(cli, tmp_path):
    # a broken catalog folder is a user error (exit 2), not an internal one
    run = cli("solve", "x", env={"DERIVE_FORMULAS": str(tmp_path)})
    assert "derive: error:" in run.err and run.code == 2


def test_a_missing_input_hint_never_names_a_quantity_the_others_bypass(cli):
    # num_devices and batch also feed the weight and compute times: giving the KV load time alone
    # would not answer a decode step, so it is not offered
    run = cli("solve", "decode_step_time", "--model", "llama2-70b", "--hw", "h100")
    assert run.code == 2 and "missing batch, num_devices, seq_len" in run.err
    assert "decode_kv_time itself" not in run.err


# ---------------------------------------------------------------------------
# the audit of issue 16: the smaller findings


def test_too_many_kv_cache_lines_name_the_users_flag(cli, tmp_path):
    """5,000 ``--seq-len`` values were refused with "--verify ... not 5000", a flag the user never gave."""
    many = [a for n in range(1, 5001) for a in ("--seq-len", str(n))]
    line = one_error_line(cli("plot", "kv-cache", "--model", "llama2-7b", "--hw", "a100", *many,
                              "-o", str(tmp_path / "k.png")))
    assert "--seq-len" in line and "--verify" not in line and "5,000" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [
    ("plot", "kv-cache", "--model", "llama2-7b", "--hw", "a100", "--seq-len", "99999999999999999999999"),
    ("sweep", "kv_cache_bytes", "seq_len=99999999999999999999999,1", "batch=1", "--model", "llama2-7b"),
])
def test_a_whole_number_a_float_cannot_hold_is_a_range_error(cli, tmp_path, args):
    """``--seq-len 99999999999999999999999`` gave "no grid point has a value" instead of a range error."""
    line = one_error_line(cli(*args, *(("-o", str(tmp_path / "k.png")) if args[0] == "plot" else ())))
    assert "seq_len=99999999999999999999999 is out of range" in line and "2^53" in line


def test_sweep_refuses_unit_instead_of_ignoring_it(cli):
    line = one_error_line(cli("sweep", "critical_ai_hbm", "hbm_bw=1e12:2e12:2", "peak_flops=1e14", "--unit", "kFLOP/B"))
    assert "--unit" in line and "base units" in line


def test_render_refuses_an_output_named_for_another_format(cli, tmp_path):
    """``render x.tex -o x.pdf`` wrote TeX source into a file named .pdf."""
    src = tmp_path / "x.tex"
    src.write_text("x\n", encoding="utf-8")
    for out in ("x.pdf", "x.md", "x"):
        line = one_error_line(cli("render", str(src), "-o", str(tmp_path / out)))
        assert f"-o {tmp_path / out}" in line and "ends in .tex" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.tex"]
    assert cli("render", str(src), "-o", str(tmp_path / "y.tex")).code == 0


def test_an_error_line_is_cut_to_a_sane_length(cli, tmp_path):
    """The squaring payload's error quoted a number of a thousand digits: a 2 KB line."""
    src = tmp_path / "sq.md"
    src.write_text("{% set ns = namespace(x=3) %}{% for i in range(64) %}{% set ns.x = ns.x * ns.x %}{% endfor %}"
                   "{{ ns.x }}\n", encoding="utf-8")
    from derive.cli._main import MAX_LINE

    line = one_error_line(cli("render", str(src)))
    assert len(line) <= MAX_LINE + 20 and "characters ...]" in line and line.endswith("digits)")


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="FIFOs are POSIX")
def test_a_template_that_is_a_fifo_is_refused_not_skipped(cli, tmp_path):
    """A FIFO named solution.md.j2 in a templates pack was skipped silently (the built-in template was used)."""
    import os

    pack = tmp_path / "pack"
    pack.mkdir()
    os.mkfifo(pack / "solution.md.j2")
    line = one_error_line(cli("solve", "critical_ai", "--hw", "a100", "--format", "md", "--templates", str(pack),
                              timeout=30))
    assert "solution.md.j2" in line and "FIFO" in line


def _run_command(body: str) -> subprocess.CompletedProcess:
    """A process that ends through derive's command entry point after ``body`` has run."""
    return subprocess.run([sys.executable, "-c", body], capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_the_command_ends_with_its_status_its_output_and_the_exit_functions_run():
    """The command skips the interpreter's teardown (derive.cli.run_command): what it printed is all
    there, its status is the process's, exit functions registered by others still run, and a thread
    still running is waited for."""
    head = ("import atexit, sys, threading, time\n"
            "atexit.register(lambda: print('exit function ran'))\n"
            "from derive.cli import run_command\n")
    ok = _run_command(head + "run_command(['solve', 'critical_ai', '--hw', 'a100'])")
    assert ok.returncode == 0
    assert ok.stdout.startswith("critical_ai_hbm = 156 FLOP/B") and ok.stdout.endswith("exit function ran\n")
    bad = _run_command(head + "run_command(['solve', 'no_such_quantity'])")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "no_such_quantity" in bad.stderr
    assert bad.stdout == "exit function ran\n"
    waited = _run_command(head + "threading.Thread(target=lambda: (time.sleep(0.5), print('thread done'))).start()\n"
                          "run_command(['solve', 'critical_ai', '--hw', 'a100'])")
    assert waited.returncode == 0 and "thread done" in waited.stdout and "exit function ran" in waited.stdout


@pytest.mark.parametrize("args, named", [
    (("--hw", "a100", "--preset", "h100"), ("a100", "h100")),
    (("--preset", "h100", "--preset", "a100"), ("a100", "h100")),
])
def test_two_chips_in_one_question_are_an_error_naming_both(cli, args, named):
    """Issue 30: ``--preset h100`` silently replaced ``--hw a100``'s values (295.2 FLOP/B, H100's)."""
    err = one_error_line(cli("solve", "critical_ai", *args))
    assert "two chips" in err and all(n in err for n in named)


def test_a_precision_preset_still_layers_on_a_chip(cli):
    run = cli("solve", "critical_ai", "--hw", "h100", "--preset", "fp8", "--format", "json")
    assert run.code == 0, run.err
    assert run.json["value"] == pytest.approx(1979e12 / 3.35e12, rel=1e-3)      # H100 SXM fp8 dense / HBM3
