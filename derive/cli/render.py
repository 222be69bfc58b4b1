"""``derive render SOURCE``: a live Markdown, LaTeX or HTML source whose numbers are engine calls."""

from __future__ import annotations

import argparse
import sys

from ._options import add_common, catalog_of, input_files, to_stdout

HELP = "render a live Markdown/LaTeX/HTML source whose numbers are engine calls"
DESCRIPTION = ("Render SOURCE (.md, .tex or .html), a Jinja template run in a sandbox whose numbers are engine "
               "calls: q(...), solution(...), plot(...), name(...).")


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("source", metavar="SOURCE", help="the live source, e.g. reports/bandwidth-wall.zh.src.md")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="write to OUT (plots go to img/ beside it); default (or -) stdout, where plot() is refused")
    p.add_argument("--units", choices=("si", "iec"), default="si", help="decimal (si) or binary (iec) prefixes")
    add_common(p)
    p.set_defaults(lang=None)   # not given: taken from the source's name (.zh. or .en.), else English


def _same_markup(source: str, output: str) -> None:
    """Refuse an output whose name says another format than the source's (TeX source in ``x.pdf``)."""
    from pathlib import Path

    from ..documents.live import mode_of
    from ..errors import InputError
    from ..writeup.formats import MARKUPS, markup_of_source

    mode = mode_of(source)
    if markup_of_source(Path(output).suffix) != mode:
        suffixes = ", ".join(MARKUPS[mode].source_suffixes)
        hint = "; build the PDF with xelatex from the .tex" if Path(output).suffix.lower() == ".pdf" else ""
        raise InputError(f"-o {output}: render writes {mode} text like its source, so the output ends in "
                         f"{suffixes}{hint}")


def run(args: argparse.Namespace) -> int:
    from ..documents.live import language_of, render_source
    from ..records.overrides import collecting, warn
    from ..storage.atomic import OutputPlan, staged, write_atomic

    to_stdout(args)
    if args.output:     # refused before anything is written (plots go beside the output)
        _same_markup(args.source, args.output)
        OutputPlan(input_files(args, args.source)).claim(args.output, "the rendered source")
    lang = args.lang or language_of(args.source)
    with staged(), collecting() as overrides:   # the images and the output are published together, or none is
        text = render_source(args.source, output=args.output, lang=lang, units=args.units,
                             catalog=catalog_of(args), images=bool(args.output))
        path = write_atomic(args.output, text) if args.output else None
    warn(overrides.values())
    if path is not None:
        print(path)
    else:
        sys.stdout.write(text)
    return 0
