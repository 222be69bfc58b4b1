"""A repeated ``derive solve`` prints the kept answer without importing SymPy (issue 12), byte for
byte what a fresh solve prints, and never a stale one: the key covers the catalog, templates and
command line, so editing any of them answers afresh."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

QUESTIONS = [
    ("critical_ai", "--hw", "a100"),
    ("d_model", "--hw", "tpu-v5e", "--preset", "classic-ffn", "--max", "--require", "ffn_fits_in_vmem"),
    ("num_devices", "--model", "llama2-70b", "--hw", "h100", "--min", "--require", "weights_fit"),
    ("critical_ai", "--hw", "h100", "--format", "md", "--lang", "both"),
    ("critical_ai", "--hw", "h100", "--format", "json"),
    ("critical_ai", "--hw", "h100", "--format", "tex", "--lang", "zh"),
    ("roofline_time", "flops=1e12FLOP", "bytes_moved=1GB", "peak_flops=100TFLOP/s", "hbm_bw=1TB/s"),
]


def _entries(cache: Path) -> list[str]:
    return sorted(p.name for p in cache.glob("answer-*.json"))


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: " ".join(q[:3]))
def test_a_kept_answer_is_byte_for_byte_a_fresh_one(cli, tmp_path, question):
    cache = tmp_path / "cache"
    env = {"DERIVE_CACHE_DIR": str(cache)}
    fresh = cli("solve", *question, env={"DERIVE_CACHE_DIR": "off"})
    first = cli("solve", *question, env=env)
    assert len(_entries(cache)) == 1
    again = cli("solve", *question, env=env)
    assert fresh.code == first.code == again.code == 0, fresh.err
    assert fresh.out == first.out == again.out
    assert fresh.err == first.err == again.err == ""


SCRIPT = """
import sys
from derive.cli._main import main
code = main(sys.argv[1:])
print("sympy imported" if "sympy" in sys.modules else "sympy not imported", file=sys.stderr)
sys.exit(code)
"""


def test_a_repeated_question_does_not_import_sympy(tmp_path):
    env = {"DERIVE_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    args = [sys.executable, "-c", SCRIPT, "solve", "critical_ai", "--hw", "a100"]
    runs = [subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT, timeout=120) for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr
    assert runs[0].stderr.strip() == "sympy imported"
    assert runs[1].stderr.strip() == "sympy not imported"
    assert runs[0].stdout == runs[1].stdout and "156 FLOP/B" in runs[1].stdout


MINE = """
quantities:
  - id: my_bw
    unit: B/s
    symbol: W_m
    name: {en: my bandwidth, zh: 我的带宽}
    meaning: {en: a test, zh: 测试}
    source: mine
relations:
  - id: my_bw
    equation: my_bw = %s * hbm_bw
    name: {en: my bandwidth, zh: 我的带宽}
    meaning: {en: a multiple of HBM bandwidth, zh: HBM 带宽的倍数}
    source: mine
references:
  - id: mine
    kind: web
    title: mine
"""


def test_editing_a_formula_file_answers_afresh(cli, tmp_path):
    env = {"DERIVE_CACHE_DIR": str(tmp_path / "cache")}
    user = tmp_path / "mine.yaml"
    user.write_text(MINE % "2", encoding="utf-8")
    ask = ("solve", "my_bw", "--hw", "a100", "--formulas", str(user))
    first = cli(*ask, env=env)
    assert first.code == 0 and "my_bw = 4 TB/s" in first.out, first.err
    assert cli(*ask, env=env).out == first.out
    user.write_text(MINE % "3", encoding="utf-8")      # same size, new content
    run = cli(*ask, env=env)
    assert run.code == 0 and "my_bw = 6 TB/s" in run.out, run.out
    assert len(_entries(tmp_path / "cache")) == 2


def test_editing_a_template_answers_afresh(cli, tmp_path):
    env = {"DERIVE_CACHE_DIR": str(tmp_path / "cache")}
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "messages.yaml").write_text("w_question: {en: 'ANSWER ONE', zh: '答案一'}\n", encoding="utf-8")
    ask = ("solve", "critical_ai", "--hw", "a100", "--format", "md", "--templates", str(pack))
    first = cli(*ask, env=env)
    assert first.code == 0 and "ANSWER ONE" in first.out, first.err
    (pack / "messages.yaml").write_text("w_question: {en: 'ANSWER TWO', zh: '答案二'}\n", encoding="utf-8")
    second = cli(*ask, env=env)
    fresh = cli(*ask, env={"DERIVE_CACHE_DIR": "off"})
    assert second.out == fresh.out and "ANSWER TWO" in second.out
    assert len(_entries(tmp_path / "cache")) == 2


def test_errors_and_files_are_never_kept(cli, tmp_path):
    cache = tmp_path / "cache"
    env = {"DERIVE_CACHE_DIR": str(cache)}
    for _ in range(2):
        bad = cli("solve", "critical_aj", "--hw", "a100", env=env)
        assert bad.code == 2 and bad.err.startswith("derive: error:")
    out = tmp_path / "a.md"
    assert cli("solve", "critical_ai", "--hw", "a100", "--format", "md", "-o", str(out), env=env).code == 0
    assert out.is_file() and _entries(cache) == []


def test_a_tampered_entry_is_not_trusted(cli, tmp_path):
    cache = tmp_path / "cache"
    env = {"DERIVE_CACHE_DIR": str(cache)}
    first = cli("solve", "critical_ai", "--hw", "a100", env=env)
    (entry,) = cache.glob("answer-*.json")
    entry.write_text(entry.read_text(encoding="utf-8").replace("156 FLOP/B", "157 FLOP/B"), encoding="utf-8")
    again = cli("solve", "critical_ai", "--hw", "a100", env=env)
    assert again.out == first.out and "157 FLOP/B" not in again.out


def _key(tmp_path, **options):
    import argparse

    from derive.cli._answer_store import command_key

    args = argparse.Namespace(**{"target": "critical_ai", "formulas": None, "templates": None, **options})
    return command_key(args)


def test_the_key_reads_what_the_loaders_read_not_a_folder_walk(tmp_path, monkeypatch):
    """Issue 30: the key read every file under --formulas/--templates folders whole (a 6 GB file was a
    MemoryError); hidden .x.yaml files were loaded but not keyed."""
    monkeypatch.setenv("DERIVE_CACHE_DIR", str(tmp_path / "cache"))
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "solution.txt.j2").write_text("{{ s.target.id }}\n", encoding="utf-8")
    with open(pack / "huge.bin", "wb") as fh:          # a sparse 6 GB file the template loader never reads
        fh.truncate(6 * 2**30)
    first = _key(tmp_path, templates=str(pack))
    assert first is not None
    (pack / "solution.txt.j2").write_text("{{ s.target.id }}!\n", encoding="utf-8")
    assert _key(tmp_path, templates=str(pack)) not in (None, first)
    mine = tmp_path / "mine"
    mine.mkdir()
    hidden = mine / ".x.yaml"                           # the catalog loader reads it (*.yaml), so it is keyed
    hidden.write_text("quantities: []\n", encoding="utf-8")
    before = _key(tmp_path, formulas=[str(mine)])
    hidden.write_text("quantities: []\nrelations: []\n", encoding="utf-8")
    assert _key(tmp_path, formulas=[str(mine)]) not in (None, before)


def test_the_template_folder_named_by_the_environment_is_keyed(tmp_path, monkeypatch):
    monkeypatch.setenv("DERIVE_CACHE_DIR", str(tmp_path / "cache"))
    plain = _key(tmp_path)
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "solution.txt.j2").write_text("mine\n", encoding="utf-8")
    monkeypatch.setenv("DERIVE_TEMPLATES", str(pack))
    assert _key(tmp_path) not in (None, plain)
