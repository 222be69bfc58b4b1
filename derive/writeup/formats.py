"""The table of output formats: the one place that says what each ``--format`` is.

A format names its markup (how plain text is escaped and math written, see :data:`MARKUPS`),
the templates that write one solution and a whole problem file, the file suffix of a report,
and the image format plots take inside it. ``derive solve --format``, ``derive report``,
``render_solution`` and live sources all read this table, so a new format is one entry here
plus its templates (``templates/solution.<name>.j2``, ``templates/report.<name>.j2``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..errors import InputError
from .escape import html_escape, latex_escape, markdown_escape

__all__ = ["FORMATS", "LANGS", "MARKUPS", "Markup", "OutputFormat", "escaper", "markup_of_source", "markup_of_template",
           "output_format"]

LANGS = ("en", "zh", "both")


@dataclass(frozen=True)
class Markup:
    """A kind of document text: how text is escaped in it and which images it shows."""

    name: str                          # "text", "md", "html", "tex"
    template_suffixes: tuple[str, ...]  # template names ending so are rendered in this markup
    source_suffixes: tuple[str, ...] = ()  # live sources ending so are written in it
    image: str | None = None           # the plot format it includes: png, svg, pdf
    escape: Callable[[Any], Any] | None = None   # makes plain text safe in it (plain text needs none)


MARKUPS: dict[str, Markup] = {m.name: m for m in (
    Markup("md", (".md.j2",), (".md", ".markdown"), "png", markdown_escape),
    Markup("html", (".html.j2",), (".html", ".htm"), "svg", html_escape),
    Markup("tex", (".tex.j2", ".beamer.j2"), (".tex",), "pdf", latex_escape),
    Markup("text", ()),
)}


@dataclass(frozen=True)
class OutputFormat:
    """One ``--format``: its markup, its templates and where its reports go."""

    name: str
    markup: str | None                 # None: not a document (json)
    solution: str | None               # template of one worked solution
    report: str | None = None          # template of a whole problem file
    suffix: str = ""                   # a report's file suffix: <stem>.<lang>.<suffix>
    compiled_from: str | None = None   # pdf: compiled (xelatex) from this format's LaTeX
    help: str = ""


FORMATS: dict[str, OutputFormat] = {f.name: f for f in (
    OutputFormat("text", "text", "solution.txt.j2", help="plain text for a terminal"),
    OutputFormat("json", None, None, help="the answer as one JSON object"),
    OutputFormat("md", "md", "solution.md.j2", "report.md.j2", "md", help="Markdown with $...$ math"),
    OutputFormat("html", "html", "solution.html.j2", "report.html.j2", "html",
                 help="HTML with MathML made on the server"),
    OutputFormat("tex", "tex", "solution.tex.j2", "report.tex.j2", "tex", help="a LaTeX article"),
    OutputFormat("beamer", "tex", "solution.beamer.j2", "report.beamer.j2", "slides.tex",
                 help="LaTeX beamer slides"),
    OutputFormat("pdf", "tex", None, None, "pdf", compiled_from="tex",
                 help="the article compiled with latexmk -xelatex (--beamer: the slides)"),
    OutputFormat("latex-fragment", "tex", "solution.fragment.tex.j2",
                 help="LaTeX to paste into a document (Jupyter's _repr_latex_)"),
)}


def output_format(name: str, *, needs: str | None = None) -> OutputFormat:
    """The format called ``name``; ``needs="solution"`` or ``"report"`` also requires that template."""
    fmt = FORMATS.get(name)
    usable = [f.name for f in FORMATS.values() if needs is None or getattr(f, needs) or
              (needs == "report" and f.compiled_from)]
    if fmt is None or fmt.name not in usable:
        raise InputError(f"unknown format {name!r}; choose one of {', '.join(usable)}", name="format")
    return fmt


def markup_of_template(name: str) -> str:
    """The markup a template is written in, from its file name (``documents.report.md.j2`` → ``md``)."""
    for markup in MARKUPS.values():
        if name.endswith(markup.template_suffixes):
            return markup.name
    return "text"


def markup_of_source(suffix: str) -> str | None:
    """The markup a live source is written in, from its file suffix (``.md`` → ``md``), or None."""
    for markup in MARKUPS.values():
        if suffix.lower() in markup.source_suffixes:
            return markup.name
    return None


def escaper(markup: str) -> Callable[[Any], Any] | None:
    """The function that makes plain text safe in ``markup`` (plain text needs none)."""
    return MARKUPS[markup].escape if markup in MARKUPS else None
