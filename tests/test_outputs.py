"""Outputs are written whole or not at all, never over an input (issue 16, item 3).

Real processes are interrupted with real signals and run out of room under a real
file-size limit; the test then looks at what is on disk.
"""

from __future__ import annotations

import os
import resource
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, derive_command

BIG_SWEEP = ("sweep", "critical_ai_hbm", "peak_flops=1e14:2e14:3000", "hbm_bw=1e12:2e12:3000")


def _leftovers(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("sig, fmt", [(signal.SIGTERM, "csv"), (signal.SIGINT, "csv"), (signal.SIGTERM, "json")])
def test_interrupted_sweep_leaves_the_old_file_untouched(tmp_path, sig, fmt):
    out = tmp_path / f"s.{fmt}"
    out.write_text("the old, complete file\n")
    proc = subprocess.Popen([*derive_command(), *BIG_SWEEP, "--format", fmt, "-o", str(out)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not _leftovers(tmp_path) and time.monotonic() < deadline:   # wait until it is writing
        time.sleep(0.05)
    assert _leftovers(tmp_path), "the sweep never started writing"
    time.sleep(0.3)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig         # as the shell reports a signal: 143 for SIGTERM, 130 for Ctrl-C
    assert "Traceback" not in err
    assert out.read_text() == "the old, complete file\n"
    assert _leftovers(tmp_path) == []


def _limit_file_size():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)          # a write past the limit fails (EFBIG) like a full disk
    resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_a_full_disk_leaves_the_old_file_and_one_error_line(tmp_path):
    out = tmp_path / "s.csv"
    out.write_text("old\n")
    proc = subprocess.run([*derive_command(), "sweep", "critical_ai_hbm", "peak_flops=1e14:2e14:100000",
                           "hbm_bw=1e12", "-o", str(out)], cwd=ROOT, capture_output=True, text=True,
                          preexec_fn=_limit_file_size, timeout=120, env={**os.environ, "DERIVE_CACHE_DIR": "off"})
    assert proc.returncode == 2
    assert proc.stderr.startswith("derive: error: cannot write") and proc.stderr.count("\n") == 1
    assert out.read_text() == "old\n"
    assert _leftovers(tmp_path) == []


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
@pytest.mark.parametrize("limit", [8_000, 40_000])
def test_a_full_disk_leaves_the_old_report_and_pdf(tmp_path, limit):
    """Issue 16, item 3: a full disk left a truncated HTML report and a 16 KB PDF under the final names.
    With room for neither, the HTML write fails; with room for the HTML, the PDF's build fails."""
    from conftest import need_tool

    need_tool("xelatex")
    src = ROOT / "reports" / "pcie-kv-reload.yaml"
    out = tmp_path / "out"
    out.mkdir()
    olds = {out / "pcie-kv-reload.en.html": b"old html", out / "pcie-kv-reload.en.pdf": b"%PDF old"}
    for path, data in olds.items():
        path.write_bytes(data)

    def limits():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    proc = subprocess.run([*derive_command(), "report", str(src), "--format", "html,pdf", "--lang", "en", "-o", str(out)],
                          cwd=ROOT, capture_output=True, text=True, preexec_fn=limits, timeout=300,
                          env={**os.environ, "DERIVE_CACHE_DIR": "off"})
    assert proc.returncode == 2 and proc.stderr.startswith("derive: error: ") and proc.stderr.count("\n") == 1
    html, pdf = olds
    text = html.read_bytes()
    assert text == b"old html" or (text.startswith(b"<!DOCTYPE html>") and text.rstrip().endswith(b"</html>"))
    assert pdf.read_bytes() == b"%PDF old"
    assert _leftovers(out) == []


def test_render_refuses_to_overwrite_its_source(cli, tmp_path):
    src = tmp_path / "x.md"
    text = (ROOT / "reports" / "bandwidth-wall.zh.src.md").read_text(encoding="utf-8")
    src.write_text(text, encoding="utf-8")
    run = cli("render", str(src), "-o", str(src))
    assert run.code == 2 and run.err.startswith("derive: error: refusing to write")
    assert src.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.md"]          # no img/ either


def test_solve_refuses_to_overwrite_a_formula_file(cli, tmp_path):
    extra = tmp_path / "mine.yaml"
    extra.write_text("quantities: []\n", encoding="utf-8")
    before = extra.read_text(encoding="utf-8")
    run = cli("solve", "critical_ai", "--hw", "a100", "--formulas", str(tmp_path), "-o", str(extra))
    assert run.code == 2 and "refusing to write" in run.err
    assert extra.read_text(encoding="utf-8") == before


def test_outputs_get_ordinary_permissions(cli, tmp_path):
    out = tmp_path / "a.md"
    run = cli("solve", "critical_ai", "--hw", "a100", "-o", str(out))
    assert run.code == 0, run.err
    mask = os.umask(0)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask
    assert "156 FLOP/B" in out.read_text(encoding="utf-8")
    assert _leftovers(tmp_path) == []


def test_the_unit_asked_for_is_the_unit_of_the_answer_in_its_step_too(cli):
    run = cli("solve", "train_time", "train_tokens=780e9", "train_throughput=238.3e3", "--unit", "h")
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[0].startswith("train_time = 909.2 h")
    step = lines[lines.index("Derivation") + 1:lines.index("Given")]
    assert step[-2].strip() == "= 909.2 h" and "days" not in run.out


def _special(tmp_path: Path, kind: str) -> Path:
    """A real special file where an output is asked for: a copy of /dev/null, a FIFO, a link, a folder."""
    path = tmp_path / f"out-{kind}"
    if kind == "device":
        if os.geteuid() != 0:
            pytest.skip("making a device node needs root")
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))           # the numbers of /dev/null
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink":
        (tmp_path / "target.csv").write_text("the linked file\n")
        path.symlink_to(tmp_path / "target.csv")
    else:
        path.mkdir()
    return path


def _mode(path: Path) -> int:
    return stat.S_IFMT(path.lstat().st_mode)


SPECIAL_OUTPUTS = {
    "sweep": ("sweep", "critical_ai_hbm", "hbm_bw=1e12:2e12:3", "peak_flops=312e12"),
    "solve": ("solve", "critical_ai", "--hw", "a100"),
    "plot": ("plot", "roofline", "--hw", "a100"),
}


@pytest.mark.skipif(sys.platform == "win32", reason="device nodes and FIFOs are POSIX")
@pytest.mark.parametrize("kind", ["device", "fifo", "symlink", "folder"])
@pytest.mark.parametrize("command", sorted(SPECIAL_OUTPUTS))
def test_an_output_never_replaces_a_special_file(cli, tmp_path, command, kind):
    """Audit of issue 16: ``sweep -o X`` turned a device node (as root, /dev/null itself), a FIFO or a
    symbolic link into a regular file. Only a missing path or a regular file is written over."""
    path = _special(tmp_path, kind)
    before = _mode(path)
    run = cli(*SPECIAL_OUTPUTS[command], "-o", str(path), timeout=120)
    assert run.code == 2 and run.err.startswith("derive: error: refusing to write") and run.err.count("\n") == 1
    assert _mode(path) == before
    if kind == "symlink":
        assert (tmp_path / "target.csv").read_text() == "the linked file\n"
    assert _leftovers(tmp_path) == []


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs are POSIX")
def test_a_special_file_that_appears_after_the_check_is_not_replaced(tmp_path):
    """The rename itself checks again: a FIFO made while the output was being written stays a FIFO."""
    from derive.errors import InputError
    from derive.storage.atomic import atomic_path

    out = tmp_path / "late.csv"
    with pytest.raises(InputError, match="it is a FIFO"):
        with atomic_path(out) as tmp:
            tmp.write_text("a,b\n")
            os.mkfifo(out)
    assert _mode(out) == stat.S_IFIFO
    assert _leftovers(tmp_path) == []


def test_dash_is_standard_output(cli, tmp_path):
    """``-o -`` prints, as omitting -o does: the way to discard output without naming /dev/null."""
    sweep = ("sweep", "critical_ai_hbm", "hbm_bw=1e12:2e12:2", "peak_flops=312e12")
    dash, plain = cli(*sweep, "-o", "-", cwd=tmp_path), cli(*sweep, cwd=tmp_path)
    assert dash.code == plain.code == 0 and dash.out == plain.out and "312" in dash.out
    assert list(tmp_path.iterdir()) == []
    run = cli("solve", "critical_ai", "--hw", "a100", "--format", "pdf", "-o", "-", cwd=tmp_path)
    assert run.code == 2 and "-o FILE.pdf" in run.err and list(tmp_path.iterdir()) == []


CLAIMS = ("chapter: seed-bandwidth-wall\ntitle: {en: t, zh: t}\nclaims:\n  - id: a\n    quote: x\n"
          "    stated: 156 FLOP/B\n    solve: critical_ai\n    hw: a100\n")


@pytest.mark.parametrize("name", ["claims.md", "same-file.md"])
def test_render_never_writes_over_a_file_its_source_reads(cli, tmp_path, name):
    """Audit of issue 16: ``render src.md -o c.yaml`` replaced c.yaml, which the source reads with claims()
    (an output must now end as its source does, so here the claims file is named claims.md). Every file the
    run reads is an input, under its own name or another (a hard link)."""
    claims = tmp_path / "claims.md"
    claims.write_text(CLAIMS, encoding="utf-8")
    if name != claims.name:
        os.link(claims, tmp_path / name)
    src = tmp_path / "src.md"
    src.write_text('{% for c in claims("claims.md") %}{{ c.verdict }}{% endfor %}\n', encoding="utf-8")
    run = cli("render", str(src), "-o", str(tmp_path / name))
    assert run.code == 2 and run.err.startswith("derive: error: refusing to write") and "reads it" in run.err
    assert claims.read_text(encoding="utf-8") == CLAIMS
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted({claims.name, name, "src.md"})
    ok = cli("render", str(src), "-o", str(tmp_path / "out.md"))
    assert ok.code == 0 and (tmp_path / "out.md").read_text(encoding="utf-8").strip() == "reproduced"


@pytest.mark.parametrize("existing", [False, True])
def test_a_failed_render_leaves_no_images(cli, tmp_path, existing):
    """Audit of issue 16: a failed ``render -o`` left the images its plot() calls had written in img/. They are
    published with the output, when the whole render succeeds; a failure removes them and the folders made."""
    src = tmp_path / "src.md"
    src.write_text('{{ plot("roofline", hw="a100") }}\n{{ q("no_such_quantity") }}\n', encoding="utf-8")
    out = tmp_path / "out" / "page.md"
    if existing:                                    # an earlier good render: left exactly as it was
        (tmp_path / "out" / "img").mkdir(parents=True)
        out.write_text("the old page\n", encoding="utf-8")
        (tmp_path / "out" / "img" / "page-1-roofline.png").write_bytes(b"old image")
    before = sorted((p.relative_to(tmp_path), p.read_bytes() if p.is_file() else b"") for p in tmp_path.rglob("*"))
    run = cli("render", str(src), "-o", str(out))
    assert run.code == 2 and "no_such_quantity" in run.err and run.err.count("\n") == 1
    after = sorted((p.relative_to(tmp_path), p.read_bytes() if p.is_file() else b"") for p in tmp_path.rglob("*"))
    assert after == before


def test_a_render_publishes_its_images_with_its_output(cli, tmp_path):
    src = tmp_path / "src.md"
    src.write_text('{{ plot("roofline", hw="a100") }}\n', encoding="utf-8")
    run = cli("render", str(src), "-o", str(tmp_path / "out" / "page.md"))
    assert run.code == 0, run.err
    image = tmp_path / "out" / "img" / "page-1-roofline.png"
    assert image.read_bytes().startswith(b"\x89PNG")
    assert "img/page-1-roofline.png" in (tmp_path / "out" / "page.md").read_text(encoding="utf-8")
    assert [p for p in tmp_path.rglob(".*")] == []
