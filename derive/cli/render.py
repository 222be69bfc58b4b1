"""``derive render SOURCE``: a live Markdown, LaTeX or HTML source whose numbers are engine calls."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .._errors import InputError
from ._options import add_common, catalog_of

HELP = "render a live Markdown/LaTeX/HTML source whose numbers are engine calls"
DESCRIPTION = ("Render SOURCE (.md, .tex or .html), a Jinja template run in a sandbox whose numbers are engine "
               "calls: q(...), solution(...), plot(...), name(...).")


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("source", metavar="SOURCE", help="the live source, e.g. reports/bandwidth-wall.zh.src.md")
    p.add_argument("-o", "--output", metavar="OUT", help="write to OUT (plots go to img/ beside it); default stdout")
    p.add_argument("--units", choices=("si", "iec"), default="si", help="decimal (si) or binary (iec) prefixes")
    add_common(p)


def run(args: argparse.Namespace) -> int:
    from ..live import render_source

    text = render_source(args.source, output=args.output, lang=args.lang, units=args.units, catalog=catalog_of(args))
    if args.output:
        path = Path(args.output)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write {args.output}: {exc.strerror or exc}") from exc
        print(path)
    else:
        sys.stdout.write(text)
    return 0
