"""Compile a LaTeX write-up to PDF with ``latexmk -xelatex`` in a temporary folder.

A failed compile becomes one :class:`~derive.TemplateError` line carrying TeX's own
error lines (``! Undefined control sequence.`` and ``l.42 ...``); the ``.tex`` and
``.log`` are kept beside the requested PDF for a closer look. TeX runs without
shell escape and with kpathsea's paranoid file access (no absolute or parent paths),
so a template or catalog text cannot read or write files outside its folder.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from ._errors import TemplateError

__all__ = ["build_pdf", "compile_tex", "tex_errors"]

TIMEOUT = 180  # seconds for the whole latexmk run
_ERROR_LINE = re.compile(r"^(! .*|l\.\d+.*)$")


def tex_errors(log: str, limit: int = 4) -> list[str]:
    """The ``! ...`` lines and ``l.NN ...`` lines of a TeX log, in order, at most ``limit`` of each pair."""
    lines = [m.group(1).strip() for m in map(_ERROR_LINE.match, log.splitlines()) if m]
    return lines[: 2 * limit]


def _tex_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"openin_any": "p", "openout_any": "p", "shell_escape": "f"})
    return env


def compile_tex(source: str, output: str | os.PathLike, *, engine: str = "latexmk") -> Path:
    """Compile LaTeX ``source`` to the PDF ``output`` (xelatex through latexmk); returns its path."""
    out = Path(output)
    tool = shutil.which(engine)
    if tool is None:
        raise TemplateError(f"{engine} is not installed; install texlive-xetex, texlive-lang-chinese and latexmk "
                            "(or ask for --format tex and compile it yourself)")
    if engine == "latexmk":
        cmd = [tool, "-xelatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "-quiet",
               "doc.tex"]
    else:
        cmd = [tool, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "doc.tex"]
    with tempfile.TemporaryDirectory(prefix="derive-tex-") as tmp:
        work = Path(tmp)
        (work / "doc.tex").write_text(source, encoding="utf-8")
        try:
            proc = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=TIMEOUT,
                                  env=_tex_env(), stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired as exc:
            raise TemplateError(f"{engine} took longer than {TIMEOUT} s on {out.name}") from exc
        pdf = work / "doc.pdf"
        log_path = work / "doc.log"
        log = log_path.read_text(encoding="utf-8", errors="replace") if log_path.exists() else proc.stdout
        if proc.returncode != 0 or not pdf.exists():
            kept = _keep_failed(work, out)
            errors = tex_errors(log) or [ln for ln in (proc.stderr or proc.stdout).splitlines() if ln.strip()][-2:]
            raise TemplateError(f"xelatex failed on {out.with_suffix('.tex').name}: {' '.join(errors)}"
                                f"{f' (see {kept})' if kept else ''}")
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(pdf, out)
        except OSError as exc:
            raise TemplateError(f"cannot write {out}: {exc.strerror or exc}") from exc
    return out


def _keep_failed(work: Path, out: Path) -> str:
    """Copy the failing ``.tex`` and ``.log`` beside the requested PDF; returns the log's path or ''."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(work / "doc.tex", out.with_suffix(".tex"))
        if (work / "doc.log").exists():
            shutil.copyfile(work / "doc.log", out.with_suffix(".log"))
            return str(out.with_suffix(".log"))
    except OSError:
        pass
    return ""


def build_pdf(sol: Any, *, lang: str = "en", units: str = "si", templates: str | os.PathLike | None = None,
              output: str | os.PathLike | None = None, beamer: bool = False) -> Path:
    """Write up one solution as an article (or slides with ``beamer``) and compile it to PDF.

    Without ``output`` the PDF is ``<target>.pdf`` (``<target>.slides.pdf``) in the current folder.
    """
    from .render import render_solution

    source = render_solution(sol, "beamer" if beamer else "tex", lang=lang, units=units, templates=templates)
    out = Path(output) if output else Path(f"{sol.target}{'.slides' if beamer else ''}.pdf")
    return compile_tex(source, out)
