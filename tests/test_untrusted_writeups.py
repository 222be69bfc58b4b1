"""Templates, messages and the TeX they make are untrusted input (issue 16, items 2, 4 and 6).

Each test plants a real payload and asserts that nothing ran, nothing leaked and nothing hung: a
failed PDF build leaves the user's files alone, TeX reads no file outside its build folder, a
template cannot reach outside its folder, and every render and every TeX run ends within its budget.
"""

from __future__ import annotations

import json
import os
import pwd
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import need_tool

SECRET = "TOPSECRET-6f1d2"


def _png(path: Path) -> None:
    """A real 4x4 PNG (XeTeX would embed it)."""
    import struct
    import zlib

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * 4 for _ in range(4))

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"") + SECRET.encode())


@pytest.fixture
def secrets(tmp_path):
    """A folder outside every build with a secret text file, a secret picture and a secret PDF."""
    folder = tmp_path / "private"
    folder.mkdir()
    (folder / "secret.tex").write_text(SECRET + "\n", encoding="utf-8")
    _png(folder / "secret.png")
    return folder


def _tex(body: str) -> str:
    return "\\documentclass{article}\n\\begin{document}\nhello\n" + body + "\n\\end{document}\n"


def _no_secret_in(folder: Path) -> None:
    """No file under ``folder`` holds the secret, in its bytes or in a compressed (PDF) stream."""
    import re
    import zlib

    for p in folder.rglob("*"):
        if p.is_file():
            data = p.read_bytes()
            assert SECRET.encode() not in data, p
            for m in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
                try:
                    assert SECRET.encode() not in zlib.decompressobj().decompress(m.group(1)), p
                except zlib.error:
                    pass


# ---------------------------------------------------------------------------
# item 2: a failed build keeps its files under names that cannot collide


def test_a_failed_build_never_overwrites_the_users_tex_and_log(tmp_path):
    need_tool("xelatex")
    from derive import TemplateError
    from derive.writeup.latex_build import compile_tex

    (tmp_path / "paper.tex").write_text("the user's paper", encoding="utf-8")
    (tmp_path / "paper.log").write_text("the user's log", encoding="utf-8")
    (tmp_path / "paper.pdf").write_bytes(b"%PDF the user's old pdf")
    for _ in range(2):   # twice: the second failure does not collide with the first's kept files either
        with pytest.raises(TemplateError, match="failed"):
            compile_tex(_tex("\\undefinedmacro"), tmp_path / "paper.pdf")
    assert (tmp_path / "paper.tex").read_text() == "the user's paper"
    assert (tmp_path / "paper.log").read_text() == "the user's log"
    assert (tmp_path / "paper.pdf").read_bytes() == b"%PDF the user's old pdf"
    kept = sorted(p for p in tmp_path.iterdir() if p.name.startswith("paper.pdf.failed-"))
    assert len(kept) == 2 and all((k / "paper.log").is_file() and (k / "paper.tex").is_file() for k in kept)


def test_the_reproducer_of_item_2_keeps_the_users_files(cli, tmp_path):
    """The issue's command: a unit the engine accepts (TB^1^1) once stopped TeX (a double superscript) and the
    failed build was copied over paper.tex and paper.log; now it is typeset and builds, and a build that does
    fail from the command line keeps its files apart."""
    need_tool("xelatex")
    for name, text in (("paper.tex", "the user's paper"), ("paper.log", "the user's log")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    run = cli("solve", "critical_ai", "--hw", "a100", "hbm_bw=2 TB^1^1/s", "--format", "pdf", "-o", "paper.pdf",
              cwd=tmp_path)
    assert run.code == 0, run.err
    assert (tmp_path / "paper.pdf").read_bytes().startswith(b"%PDF")
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "solution.tex.j2").write_text(_tex("\\undefinedmacro"), encoding="utf-8")
    before = (tmp_path / "paper.pdf").read_bytes()
    run = cli("solve", "critical_ai", "--hw", "a100", "--format", "pdf", "-o", "paper.pdf", "--templates", str(pack),
              cwd=tmp_path)
    assert run.code == 2 and run.err.startswith("derive: error: xelatex failed") and run.err.count("\n") == 1
    assert (tmp_path / "paper.tex").read_text() == "the user's paper"
    assert (tmp_path / "paper.log").read_text() == "the user's log"
    assert (tmp_path / "paper.pdf").read_bytes() == before


def test_a_unit_as_typed_is_typeset_with_its_powers_grouped():
    from derive.writeup.present import latex_unit

    assert latex_unit("TB^1^1/s") == r"\mathrm{TB^{1^{1}}/s}"
    assert latex_unit("s^-1") == r"\mathrm{s^{-1}}"          # TeX raised only the minus of s^-1
    assert latex_unit("B**2/s^(2)") == r"\mathrm{B^{2}/s^{2}}"


# ---------------------------------------------------------------------------
# item 4: no file outside the build folder is read into the output


def _user_tilde_path(target: Path) -> str:
    """``~user/<relative path>`` naming ``target`` through the current user's home folder."""
    entry = pwd.getpwuid(os.getuid())
    return f"~{entry.pw_name}/" + os.path.relpath(target, entry.pw_dir)


@pytest.mark.parametrize("payload", [
    "\\input{~/secret}",
    "\\input{$HOME/secret}",
    "\\input{{SECRETS}/secret}",
    "\\input{../private/secret}",
    "\\XeTeXpicfile \"{SECRETS}/secret.png\"",
    "\\XeTeXpdffile \"{SECRETS}/secret.pdf\"",
    "\\XeTeXpicfile {SECRETS}/secret.png",
    "\\includegraphics{{SECRETS}/secret.png}",
    "\\special{pdf:image ({SECRETS}/secret.png)}",
    "\\font\\x=\"[{SECRETS}/secret.otf]\" at 10pt",
    "\\inp^^75t{~/secret}",
])
def test_file_names_outside_the_build_folder_are_refused_before_tex_runs(tmp_path, secrets, payload, monkeypatch):
    from derive import TemplateError
    from derive.writeup.latex_build import compile_tex

    monkeypatch.setenv("HOME", str(secrets))
    out = tmp_path / "out" / "x.pdf"
    with pytest.raises(TemplateError, match="refusing"):
        compile_tex(_tex(payload.replace("{SECRETS}", str(secrets))), out)
    assert not out.parent.exists() or not any(out.parent.iterdir())


@pytest.mark.parametrize("payload", [
    # names the source check cannot see (built by \csname): TeX runs, and what it read is checked afterwards
    "\\csname input\\endcsname{{TILDE}}",
    "\\csname XeTeXpicfile\\endcsname \"{SECRETS}/secret.png\"",
    "\\csname input\\endcsname{\\string~/secret}",
    # a driver special built by a macro: pdf:fstream embeds any file as a PDF stream, and the driver
    # logs nothing about it (the PDF held the secret, compressed)
    "\\csname special\\endcsname{pdf:fstream @x ({SECRETS}/secret.tex)}"
    "\\csname special\\endcsname{pdf:put @catalog <</Leak @x>>}",
    "\\def\\s{\\csname special\\endcsname}\\s{pdf:fstream @y ({SECRETS}/secret.png)}\\s{pdf:put @names <</L @y>>}",
    "\\csname special\\endcsname{html:<img src=\"{SECRETS}/secret.png\">}",
    "\\csname special\\endcsname{dvipdfmx:config f {SECRETS}/secret.tex}",
])
def test_what_tex_read_outside_the_build_folder_never_leaves_it(tmp_path, secrets, payload, monkeypatch):
    need_tool("xelatex")
    from derive import TemplateError
    from derive.writeup.latex_build import compile_tex

    monkeypatch.setenv("HOME", str(secrets))   # the user's ~ holds the secret; TeX's ~ is its build folder
    source = _tex(payload.replace("{TILDE}", _user_tilde_path(secrets / "secret.tex"))
                  .replace("{SECRETS}", str(secrets)))
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    with pytest.raises(TemplateError) as info:
        compile_tex(source, out_dir / "x.pdf")
    assert SECRET not in str(info.value)
    assert not (out_dir / "x.pdf").exists()
    _no_secret_in(out_dir)


def test_tex_runs_with_a_minimal_environment(tmp_path, monkeypatch):
    from derive.writeup.latex_build import _tex_env

    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    env = _tex_env(tmp_path)
    assert SECRET not in json.dumps(env)
    for key in ("HOME", "TEXMFHOME", "TEXMFVAR", "TEXMFCONFIG", "TMPDIR"):
        assert Path(env[key]).resolve().is_relative_to(tmp_path.resolve()), key
    assert env["openin_any"] == "p" and env["openout_any"] == "p" and env["shell_escape"] == "f"


def test_a_template_symlinked_out_of_its_folder_is_refused(tmp_path, secrets):
    from derive import TemplateError, solve
    from derive.writeup.render import render_solution

    (secrets / "stolen.md.j2").write_text(SECRET, encoding="utf-8")
    (secrets / "messages-x.yaml").write_text(f"w_question: {{en: {SECRET}, zh: {SECRET}}}\n", encoding="utf-8")
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "solution.md.j2").symlink_to(secrets / "stolen.md.j2")
    sol = solve("critical_ai", hw="a100")
    with pytest.raises(TemplateError, match="outside the template folder") as info:
        render_solution(sol, "md", templates=pack)
    assert SECRET not in str(info.value)
    (pack / "solution.md.j2").unlink()
    (pack / "messages-x.yaml").symlink_to(secrets / "messages-x.yaml")
    from derive.writeup.render import _environment, _messages
    _messages.cache_clear()
    _environment.cache_clear()
    with pytest.raises(TemplateError, match="outside the template folder"):
        render_solution(sol, "md", templates=pack)


# ---------------------------------------------------------------------------
# item 6: every render has a budget


PAYLOADS = {
    "nested loops": "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
    "squaring in a loop": "{% set ns = namespace(x=3) %}{% for i in range(64) %}{% set ns.x = ns.x * ns.x %}"
                          "{% endfor %}{{ ns.x }}",
    "lipsum": "{{ lipsum(1000000) }}",
    "percent width": "{{ '%1000000000d' % 1 }}",
    "percent star width": "{{ '%*d' % (1000000000, 1) }}",
    "format filter width": "{{ '%1000000000d' | format(1) }}",
    "str.format width": "{{ '{:>1000000000}'.format(1) }}",
    "str.format nested width": "{{ '{:>{}}'.format(1, 1000000000) }}",
    "center": "{{ 'x' | center(1000000000) }}",
    "indent": "{{ 'x\ny' | indent(1000000000) }}",
    "ljust": "{{ 'x'.ljust(1000000000) }}",
    "replace growth": "{{ ('x' * 1000000).replace('x', 'y' * 1000) }}",
    "replace filter growth": "{% set ns = namespace(s='xxxxxxxxxx') %}{% for i in range(60) %}"
                             "{% set ns.s = ns.s | replace('x', 'xx') %}{% endfor %}{{ ns.s | length }}",
    "concatenation in a loop": "{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}"
                               "{% endfor %}{{ ns.s | length }}",
    "block set doubling": "{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set t %}{{ ns.s }}{{ ns.s }}"
                          "{% endset %}{% set ns.s = t %}{% endfor %}{{ ns.s | length }}",
    "batch fill": "{{ [1] | batch(1000000000, 0) | list | length }}",
    "huge output": "{% for i in range(100000) %}{{ 'x' * 1000000 }}{% endfor %}",
    "macro fan-out": "{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(40) }}",
    # found in review: + on lists, sum, join of a string or a generator, list.extend, tojson's indent, and
    # memory kept a piece at a time (each piece within its bound, gigabytes in all, within the CPU budget)
    "list + doubling": "{% set ns = namespace(s=[1]) %}{% for i in range(64) %}{% set ns.s = ns.s + ns.s %}"
                       "{% endfor %}{{ ns.s | length }}",
    "sum of lists": "{{ ([[0] * 1000000] * 1000) | sum(start=[]) | length }}",
    "sum of many small lists": "{{ ([[0] * 10] * 100000) | sum(start=[]) | length }}",
    "str.join of a string": "{{ ('x' * 1000000).join('y' * 1000000) | length }}",
    "str.join of a generator": "{{ ('x' * 100000).join(range(100000) | map('string')) | length }}",
    "join filter of a string": "{{ ('y' * 1000000) | join('x' * 1000000) | length }}",
    "list.extend doubling": "{% set ns = namespace(s=[1]) %}{% for i in range(40) %}{% set _ = ns.s.extend(ns.s) %}"
                            "{% endfor %}{{ ns.s | length }}",
    "tojson indent": "{{ [[[[1]]]] | tojson(indent=1000000000) | length }}",
    "many big strings kept": "{% set l = [] %}{% for i in range(100000) %}{% set _ = l.append('x' * 1000000 ~ i) %}"
                             "{% endfor %}{{ l | length }}",
    "many big lists kept": "{% set l = [] %}{% for i in range(100000) %}{% set _ = l.append([i] * 1000000) %}"
                           "{% endfor %}{{ l | length }}",
    # found by the audit of issue 16: one operation making a huge text from a small value (a list of a million
    # references to one string of a million characters) ran to 24 GB; smaller ones gave 30 million characters
    "pprint of a shared list": "{{ ([('x' * 999999)] * 999999) | pprint }}",
    "string of a shared list": "{{ ([('x' * 999999)] * 999999) | string }}",
    "tojson of a shared list": "{{ ([('x' * 999999)] * 999999) | tojson }}",
    "translate growth": "{{ ('x' * 999999).translate({120: 'y' * 999999}) }}",
    "expandtabs growth": "{{ ('\t' * 999999).expandtabs(1000) }}",
    "pprint of 30 million": "{{ ([('x' * 9999)] * 3000) | pprint | length }}",
    "string of 30 million": "{{ ([('x' * 9999)] * 3000) | string | length }}",
    "writing 30 million": "{{ [('x' * 9999)] * 3000 }}",
    "~ of 30 million": "{{ (([('x' * 9999)] * 3000) ~ '') | length }}",
    "join of lists": "{{ [[('x' * 9999)] * 3000] | join | length }}",
    "map string": "{{ [[('x' * 9999)] * 3000] | map('string') | list | length }}",
    "escape of a shared list": "{{ ([('x' * 9999)] * 3000) | e | length }}",
    "format filter arguments": "{{ '%s%s' | format([('x' * 9999)] * 999, 1) | length }}",
    "percent arguments": "{{ ('%s' % ([('x' * 9999)] * 3000,)) | length }}",
    "str.format arguments": "{{ '{0}{0}{0}{0}'.format([('x' * 9999)] * 300) | length }}",
    "namespace written": "{% set ns = namespace(a=[('x' * 999999)] * 999) %}{{ ns }}",
    "tojson indent growth": "{{ ([[1] * 1000] * 1000) | tojson(indent=1000) | length }}",
    "bytes repeated": "{{ ('x' * 999).encode() * 99999999 }}",
}

_RUNNER = textwrap.dedent("""
    import json, resource, sys, time
    resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))
    import derive.writeup.sandbox as sb
    sb.MAX_SECONDS = 2.0
    sb.MAX_MEMORY = 2**28
    from derive import solve
    from derive.writeup.render import render_solution
    from derive.documents.live import render_source
    from pathlib import Path
    from derive.storage.process import process_guards
    process_guards().__enter__()        # this script owns its process, as the command does
    sol = solve("critical_ai", hw="a100")
    results = {}
    for name, body in json.loads(sys.argv[1]).items():
        pack = Path(sys.argv[2]) / name.replace(" ", "_")
        pack.mkdir()
        (pack / "solution.md.j2").write_text(body, encoding="utf-8")
        (pack / "live.md").write_text(body, encoding="utf-8")
        for where in ("template", "live"):
            t = time.process_time()     # the budget is CPU time: a loaded machine does not count against it
            try:
                out = render_solution(sol, "md", templates=pack) if where == "template" else \\
                    render_source(pack / "live.md")
                outcome = "rendered %d characters" % len(out)
            except MemoryError:
                outcome = "MemoryError"
            except Exception as exc:
                outcome = "refused: " + type(exc).__name__ + ": " + str(exc)[:200]
            results[name + " / " + where] = [outcome, time.process_time() - t]
    print(json.dumps(results))
""")


def test_every_template_payload_is_stopped_within_its_budget(tmp_path):
    run = subprocess.run([sys.executable, "-c", _RUNNER, json.dumps(PAYLOADS), str(tmp_path)], capture_output=True,
                         text=True, timeout=300, env=dict(os.environ, DERIVE_CACHE_DIR=str(tmp_path / "cache")))
    assert run.returncode == 0, run.stderr[-2000:]
    results = json.loads(run.stdout.splitlines()[-1])
    assert len(results) == 2 * len(PAYLOADS)
    for name, (outcome, seconds) in results.items():
        assert outcome.startswith("refused: TemplateError"), (name, outcome)
        assert seconds < 8, (name, seconds)


_CAP = textwrap.dedent("""
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30))
    import derive.writeup.sandbox as sb
    from derive.storage.process import process_guards
    from jinja2.exceptions import SecurityError
    try:
        with process_guards(), sb.budget():
            block = bytearray(sb.MAX_MEMORY + 2**28)          # one allocation past the render's budget
        print("allocated", len(block))
    except SecurityError as exc:
        print("refused:", exc)
    print("after:", resource.getrlimit(resource.RLIMIT_AS)[0] == 3 * 2**30)
""")


def test_a_render_cannot_allocate_past_its_memory_budget_in_one_operation(tmp_path):
    """Audit of issue 16: the 1 GiB budget was checked between operations, so one operation ran to 24 GB.
    Within a render the address space is capped at its start plus the budget; the cap is lifted after."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the address-space cap is Linux's")
    run = subprocess.run([sys.executable, "-c", _CAP], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, DERIVE_CACHE_DIR="off"))
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.splitlines() == ["refused: the render used more than 1 GiB of memory", "after: True"]


def test_a_users_messages_cannot_reach_unbounded_format(tmp_path):
    from derive import TemplateError, solve
    from derive.writeup.render import render_solution

    sol = solve("critical_ai", hw="a100")
    pack = tmp_path / "pack"
    pack.mkdir()
    for text in ("Step {n:>1000000000}", "Step {n:.1000000000f}", "Step {n.__class__.__mro__}", "Step {n[0]}"):
        (pack / "messages-report.yaml").write_text(
            json.dumps({key: {"en": text, "zh": text} for key in ("w_checks_hold", "w_checks_hold_one")}),
            encoding="utf-8")
        from derive.writeup.render import _environment, _messages
        _messages.cache_clear()
        _environment.cache_clear()
        t = time.monotonic()
        with pytest.raises(TemplateError) as info:
            render_solution(sol, "md", templates=pack)
        assert time.monotonic() - t < 5
        assert "class" not in str(info.value).split("{")[0] or "object" not in str(info.value)


def test_message_fields_are_never_looked_up_as_attributes():

    from derive.writeup.render import _fill

    with pytest.raises(KeyError):
        _fill("{n.__class__}", {"n": 1}, str)
    assert str(_fill("{n:,}", {"n": 12345}, str)) == "12,345"


# ---------------------------------------------------------------------------
# item 6: TeX's time and page budget ends the whole process group


def _processes_in(folder: Path) -> list[str]:
    """Processes still running with their working folder under ``folder`` (the builds' temporary folders)."""
    found = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                cwd = os.readlink(p / "cwd")
                cmd = (p / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if cwd.startswith(str(folder)):
                found.append(f"{p.name}: {cmd}")
    return found


def test_a_tex_loop_is_stopped_and_leaves_no_process(tmp_path, monkeypatch):
    need_tool("xelatex")
    import tempfile

    import derive.writeup.latex_build as lb
    from derive import TemplateError

    monkeypatch.setattr(lb, "TIMEOUT", 3.0)
    builds = tmp_path / "builds"
    builds.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(builds))
    t = time.monotonic()
    with pytest.raises(TemplateError, match="longer than 3 s"):
        lb.compile_tex(_tex("\\loop\\iftrue\\repeat"), tmp_path / "loop.pdf")
    assert time.monotonic() - t < 10
    time.sleep(0.2)
    assert not _processes_in(builds), "a process of the build is still running"
    assert not any(builds.iterdir()), "the build folder was left behind"
    assert not (tmp_path / "loop.pdf").exists()


def test_a_tex_loop_from_the_command_line_is_stopped(tmp_path):
    need_tool("xelatex")
    (tmp_path / "solution.tex.j2").write_text(_tex("\\loop\\iftrue\\repeat"), encoding="utf-8")
    builds = tmp_path / "builds"
    builds.mkdir()
    code = ("import derive.writeup.latex_build as lb, sys; lb.TIMEOUT = 3.0; from derive.cli import main; "
            "sys.exit(main(sys.argv[1:]))")
    t = time.monotonic()
    run = subprocess.run([sys.executable, "-c", code, "solve", "critical_ai", "--hw", "a100", "--format", "pdf",
                          "--templates", str(tmp_path), "-o", str(tmp_path / "x.pdf")],
                         capture_output=True, text=True, timeout=60, env=dict(os.environ, TMPDIR=str(builds)))
    assert time.monotonic() - t < 20
    assert run.returncode == 2 and "longer than 3 s" in run.stderr
    time.sleep(0.2)
    assert not _processes_in(builds)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("command", ["solve", "report"])
def test_an_interrupted_pdf_build_leaves_the_old_pdf_and_no_process(tmp_path, sig, command):
    """Issue 16, items 3 and 6: SIGTERM (or a SIGINT sent to derive alone) during a build ended derive and
    left xelatex spinning in its own session and its build folder behind; a report's concurrent builds too."""
    need_tool("xelatex")
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "solution.tex.j2").write_text(_tex("\\loop\\iftrue\\repeat"), encoding="utf-8")
    (pack / "report.tex.j2").write_text(_tex("\\loop\\iftrue\\repeat"), encoding="utf-8")
    builds = tmp_path / "builds"
    builds.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    if command == "solve":
        args = ["solve", "critical_ai", "--hw", "a100", "--format", "pdf", "-o", str(out / "x.pdf")]
        olds = [out / "x.pdf"]
    else:
        src = Path(__file__).resolve().parent.parent / "reports" / "pcie-kv-reload.yaml"
        args = ["report", str(src), "--format", "pdf", "--lang", "en,zh", "-o", str(out)]
        olds = [out / "pcie-kv-reload.en.pdf", out / "pcie-kv-reload.zh.pdf"]
    for old in olds:
        old.write_bytes(b"%PDF the old one")
    proc = subprocess.Popen([sys.executable, "-m", "derive", *args, "--templates", str(pack)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, TMPDIR=str(builds)))
    deadline = time.monotonic() + 60
    while len(_processes_in(builds)) < len(olds) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)                                                               # until TeX runs
    assert proc.poll() is None and _processes_in(builds), f"TeX never started: {proc.communicate()}"
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode != 0 and "Traceback" not in err
    time.sleep(0.3)
    assert not _processes_in(builds), "a process of the build outlived derive"
    assert not any(builds.iterdir()), "the build folder was left behind"
    assert all(old.read_bytes() == b"%PDF the old one" for old in olds)
    assert sorted(p.name for p in out.iterdir()) == sorted(old.name for old in olds)   # no kept failed build


def test_a_tex_page_flood_is_refused(tmp_path, monkeypatch):
    need_tool("xelatex")
    import derive.writeup.latex_build as lb
    from derive import TemplateError

    monkeypatch.setattr(lb, "MAX_PAGES", 5)
    flood = "\\count255=0 \\loop\\null\\newpage\\advance\\count255 by 1 \\ifnum\\count255<40 \\repeat"
    with pytest.raises(TemplateError, match="more than 5"):
        lb.compile_tex(_tex(flood), tmp_path / "flood.pdf")
    assert not (tmp_path / "flood.pdf").exists()


def test_two_problem_files_with_one_name_never_overwrite_each_other(tmp_path):
    """Issue 16, item 3 for reports: refused before anything is written."""
    import shutil

    from derive import InputError
    from derive.documents.report import write_reports

    src = Path(__file__).resolve().parent.parent / "reports" / "pcie-kv-reload.yaml"
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        shutil.copy(src, tmp_path / sub / "x.yaml")
    out = tmp_path / "out"
    with pytest.raises(InputError, match="two outputs"):
        write_reports([tmp_path / "a" / "x.yaml", tmp_path / "b" / "x.yaml"], out, langs=["en"], formats=["md"])
    assert not out.exists() or not any(out.iterdir())


CONTROL_FILES = {
    "formula": ("mine.yaml", 'quantities:\n  - id: evil_q\n    symbol: e\n    unit: "1"\n    name: {{en: "{text}", zh: e}}\n'
                "    meaning: {{en: e, zh: e}}\n    source: scaling-book-tpus\n", 5,
                ("list", "--formulas", "{file}")),
    "problem": ("p.yaml", 'id: p\ntitle: {{en: t, zh: t}}\nstatement: {{en: "{text}", zh: s}}\nquestions:\n'
                "  - id: q\n    ask: {{en: a, zh: a}}\n    solve: critical_ai\n    hw: a100\n", 3,
                ("report", "{file}", "--format", "md", "--lang", "en")),
    "claims": ("c.yaml", 'chapter: seed-bandwidth-wall\ntitle: {{en: t, zh: t}}\nclaims:\n  - id: a\n'
               '    quote: "{text}"\n    stated: 156 FLOP/B\n    solve: critical_ai\n    hw: a100\n', 5,
               ("check", "{file}")),
}


@pytest.mark.parametrize("text", [r"title\e]0;pwned\a", r"\e[31mred", r"\u202eevil", r"\x9b31m"])
@pytest.mark.parametrize("surface", sorted(CONTROL_FILES))
def test_control_characters_in_files_never_reach_the_terminal(cli, tmp_path, surface, text):
    """Audit of issue 16: a quantity name holding ESC]0;...BEL or ESC[31m (written as YAML escapes) was printed
    raw, retitling or recolouring the terminal. Text with control characters is refused at load, at its line."""
    name, body, line, args = CONTROL_FILES[surface]
    path = tmp_path / name
    path.write_text(body.format(text=text), encoding="utf-8")
    run = cli(*(a.format(file=path) for a in args))
    assert run.code == 2 and run.err.startswith(f"derive: error: {path}:{line}: text holds U+")
    assert run.err.count("\n") == 1 and run.out == ""
    assert not any(c in run.err for c in "\x1b\x07\u202e\x9b")


def test_every_path_a_build_read_is_resolved_before_it_is_allowed(tmp_path):
    """The check of what TeX read resolves each folder once and each file's own link: a linked file, a
    linked folder, .. and an absolute path outside the build folder and the TeX trees are all caught."""
    from derive.writeup.latex_build import _outside_of

    (tmp_path / "sub").mkdir()
    (tmp_path / "doc.tex").write_text("x", encoding="utf-8")
    os.symlink("/etc/passwd", tmp_path / "link")
    os.symlink("/etc", tmp_path / "sub" / "dl")
    read = ["doc.tex", "./doc.tex", "sub/..", ".", "sub/", "link", "sub/dl/hosts", "../x", "sub/../../y",
            "/etc/hosts", "doc.tex", "link"]
    assert _outside_of(tmp_path, read) == ["link", "sub/dl/hosts", "../x", "sub/../../y", "/etc/hosts"]


_THREADS = textwrap.dedent("""
    import resource, signal, threading
    from derive import solve
    from derive.writeup.render import render_solution
    sol = solve("critical_ai", hw="a100")
    limit, handlers = resource.getrlimit(resource.RLIMIT_AS), (signal.getsignal(signal.SIGALRM),
                                                               signal.getsignal(signal.SIGTERM))
    seen, done = set(), threading.Event()

    def render():
        for _ in range(30):
            for fmt in ("md", "html", "tex", "text"):
                render_solution(sol, fmt, "both")
        done.set()

    worker = threading.Thread(target=render)
    worker.start()
    blocks = []
    while not done.is_set():       # another thread of the kernel allocates while the renders run
        seen.add((resource.getrlimit(resource.RLIMIT_AS), signal.getsignal(signal.SIGALRM),
                  signal.getsignal(signal.SIGTERM)))
        blocks.append(bytearray(2**20))
        del blocks[:-64]
    worker.join()
    print(seen == {(limit, *handlers)})
""")


def test_a_library_render_changes_nothing_process_wide_while_another_thread_works(tmp_path):
    """Issue 30: rendering in a library (a Jupyter kernel) capped the whole process's address space, so
    other threads' allocations failed. The library's renders leave limits and signal handlers alone."""
    run = subprocess.run([sys.executable, "-c", _THREADS], capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, DERIVE_CACHE_DIR=str(tmp_path / "cache")))
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split()[-1] == "True"
