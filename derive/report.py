"""``derive report``: write up a whole problem file, each question's worked solution in turn.

A problem file (``reports/*.yaml``, see :mod:`derive.problems`) is solved question
by question; the report template (``templates/report.<format>.j2``) gets the
problem (title, statement, assumptions, source) and, for each question, its text
and its solution's view (``_present.build_view``), with one citation list for the
whole report. Output files are named ``<stem>.<lang>.<ext>`` beside each other in
``-o DIR``: ``.md``, ``.html``, ``.tex`` (article), ``.slides.tex`` (beamer), and with
``pdf`` the compiled article ``.pdf`` (and ``.slides.pdf`` when ``beamer`` is asked too).

The committed Markdown in ``reports/`` is made by::

    derive report reports/*.yaml --lang en,zh --format md -o reports/
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from . import cli
from ._errors import InputError

if TYPE_CHECKING:
    from ._model import Catalog
    from .problems import Problem

__all__ = ["REPORT_FORMATS", "ReportFile", "render_report", "report_context", "write_reports"]

# format -> (template, file suffix)
REPORT_FORMATS = {
    "md": ("report.md.j2", "md"),
    "html": ("report.html.j2", "html"),
    "tex": ("report.tex.j2", "tex"),
    "beamer": ("report.beamer.j2", "slides.tex"),
}
ALL_FORMATS = ("md", "html", "tex", "beamer", "pdf")
REGENERATE = "derive report reports/*.yaml --lang en,zh --format md -o reports/"


@dataclass(frozen=True)
class ReportFile:
    """One written output: the problem file it came from, its format and language, and where it is."""

    source: str
    fmt: str
    lang: str
    path: Path


def _merge_citations(views: Sequence[dict[str, Any]], extra: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One numbered citation list for the whole report; every view's ``cite_index`` is renumbered to it."""
    merged: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    for c in [*extra, *(c for v in views for c in v["citations"])]:
        if c["ref"] not in index:
            index[c["ref"]] = len(merged) + 1
            merged.append(dict(c, number=index[c["ref"]]))
    for v in views:
        v["cite_index"] = dict(index)
    return merged


def report_context(problem: "Problem", catalog: "Catalog", units: str | None = None) -> dict[str, Any]:
    """Solve every question of ``problem`` and build what the report templates need."""
    from ._present import _source_view, build_view
    from .problems import solve_problem

    questions: list[dict[str, Any]] = []
    for n, (q, sol) in enumerate(solve_problem(problem, catalog), start=1):
        view = build_view(sol, units or q.units)
        questions.append({
            "n": n, "id": q.id, "ask": {"en": q.ask.en, "zh": q.ask.zh} if q.ask else None,
            "note": {"en": q.note.en, "zh": q.note.zh} if q.note else None, "s": view,
        })
    source = _source_view(catalog, problem.source) if problem.source.ref else None
    citations = _merge_citations([q["s"] for q in questions], [source] if source else [])
    stem = Path(problem.file).name.removesuffix(".yaml").removesuffix(".yml") if problem.file else problem.id
    return {
        "problem": {
            "id": problem.id, "stem": stem, "file": Path(problem.file).name if problem.file else problem.id,
            "title": {"en": problem.title.en, "zh": problem.title.zh},
            "statement": {"en": problem.statement.en, "zh": problem.statement.zh},
            "assumptions": [{"en": a.en, "zh": a.zh} for a in problem.assumptions],
            "source": source,
        },
        "questions": questions,
        "citations": citations,
        "regenerate": REGENERATE,
    }


def render_report(problem: "Problem", fmt: str, lang: str, *, catalog: "Catalog", units: str | None = None,
                  templates: str | os.PathLike | None = None, context: dict[str, Any] | None = None) -> str:
    """The text of one report in one format (md, html, tex, beamer) and language (en, zh, both)."""
    from .render import render_template, template_mode

    if fmt not in REPORT_FORMATS:
        raise InputError(f"unknown report format {fmt!r}; choose from {', '.join(ALL_FORMATS)}")
    if lang not in ("en", "zh", "both"):
        raise InputError(f"unknown language {lang!r}; choose en, zh or both")
    base = context if context is not None else report_context(problem, catalog, units)
    template = REPORT_FORMATS[fmt][0]
    other = {"en": "zh", "zh": "en"}.get(lang)
    ctx = dict(base, lang=lang, output=template_mode(template),
               other_language_file=f"{base['problem']['stem']}.{other}.{REPORT_FORMATS[fmt][1]}" if other else "")
    return render_template(template, ctx, templates=templates)


def _split(value: str, allowed: Sequence[str], what: str) -> list[str]:
    items = [v.strip() for v in value.split(",") if v.strip()]
    if not items:
        raise InputError(f"--{what} is empty; choose from {', '.join(allowed)}")
    for v in items:
        if v not in allowed:
            raise InputError(f"unknown {what} {v!r}; choose from {', '.join(allowed)} (comma-separated)")
    return list(dict.fromkeys(items))


def write_reports(files: Sequence[str | os.PathLike], out_dir: str | os.PathLike, *, langs: Sequence[str],
                  formats: Sequence[str], units: str | None = None, templates: str | os.PathLike | None = None,
                  catalog: "Catalog | None" = None) -> list[ReportFile]:
    """Render every problem file in every language and format into ``out_dir``; returns what was written."""
    from ._loader import load_catalog
    from .latex_build import compile_tex
    from .problems import load_problem

    catalog = catalog or load_catalog()
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create {out_dir}: {exc.strerror or exc}") from exc
    written: list[ReportFile] = []
    for file in files:
        problem = load_problem(file, catalog)
        context = report_context(problem, catalog, units)
        stem = context["problem"]["stem"]
        for lang in langs:
            texts: dict[str, str] = {}
            for fmt in formats:
                if fmt == "pdf":
                    continue
                texts[fmt] = render_report(problem, fmt, lang, catalog=catalog, templates=templates, context=context)
                path = out / f"{stem}.{lang}.{REPORT_FORMATS[fmt][1]}"
                _write(path, texts[fmt])
                written.append(ReportFile(str(file), fmt, lang, path))
            if "pdf" in formats:
                for fmt, suffix in (("tex", "pdf"), ("beamer", "slides.pdf")):
                    if fmt == "beamer" and "beamer" not in formats:
                        continue
                    source = texts.get(fmt) or render_report(problem, fmt, lang, catalog=catalog,
                                                             templates=templates, context=context)
                    path = out / f"{stem}.{lang}.{suffix}"
                    compile_tex(source, path)
                    written.append(ReportFile(str(file), "pdf" if fmt == "tex" else "slides-pdf", lang, path))
    return written


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror or exc}") from exc


# ---------------------------------------------------------------------------
# the command


def cmd_report(args: argparse.Namespace) -> int:
    from ._loader import load_catalog
    from .problems import load_problem

    langs = _split(args.lang, ("en", "zh", "both"), "lang")
    formats = _split(args.format, ALL_FORMATS, "format")
    catalog = load_catalog(args.formulas or ())
    if args.output is None:
        if len(args.files) != 1 or len(langs) != 1 or len(formats) != 1 or formats[0] == "pdf":
            raise InputError("several files, languages or formats, or pdf, need -o DIR to write into")
        problem = load_problem(args.files[0], catalog)
        text = render_report(problem, formats[0], langs[0], catalog=catalog, units=args.units,
                             templates=args.templates)
        cli._write(text, None)
        return 0
    for item in write_reports(args.files, args.output, langs=langs, formats=formats, units=args.units,
                              templates=args.templates, catalog=catalog):
        print(item.path)
    return 0


def _add_command(sub: argparse._SubParsersAction, common: Callable[[argparse.ArgumentParser], None]) -> None:
    p = sub.add_parser("report", help="write up a problem file: statement, assumptions, worked solutions")
    p.add_argument("files", nargs="+", metavar="FILE", help="problem files (reports/*.yaml)")
    p.add_argument("-o", "--output", metavar="DIR", help="folder to write <name>.<lang>.<ext> into")
    p.add_argument("--lang", default="both", metavar="LANG",
                   help="en, zh or both (each block in Chinese, then English); en,zh writes one file per language")
    p.add_argument("--format", default="md", metavar="FORMATS",
                   help="comma-separated: md, html, tex (article), beamer (slides), pdf (compiled with "
                        "latexmk -xelatex; the slides too when beamer is listed)")
    p.add_argument("--units", choices=("si", "iec"), help="decimal or binary prefixes (default: the problem file's)")
    p.add_argument("--templates", metavar="DIR", help="a folder of templates that override the built-in ones")
    p.add_argument("--formulas", action="append", metavar="PATH", help="extra formula file or folder; repeatable")
    p.add_argument("--debug", action="store_true", help="show the traceback of an internal error")
    p.set_defaults(func=cmd_report)


cli.register(_add_command)
