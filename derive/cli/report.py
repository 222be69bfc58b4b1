"""``derive report FILE ...``: write up problem files, each question's worked solution in turn."""

from __future__ import annotations

import argparse

from ..errors import InputError
from ..writeup.formats import LANGS
from ._options import add_common, catalog_of, split_list, write_text

HELP = "write up a problem file: statement, assumptions, worked solutions"


def configure(p: argparse.ArgumentParser) -> None:
    from ..documents.report import ALL_FORMATS

    p.add_argument("files", nargs="+", metavar="FILE", help="problem files (reports/*.yaml)")
    p.add_argument("-o", "--output", metavar="DIR", help="folder to write <name>.<lang>.<ext> into")
    p.add_argument("--format", default="md", metavar="FORMATS",
                   help=f"comma-separated: {', '.join(ALL_FORMATS)} (pdf: compiled with latexmk -xelatex; "
                        "the slides too when beamer is listed)")
    p.add_argument("--units", choices=("si", "iec"), help="decimal or binary prefixes (default: the problem file's)")
    p.add_argument("--templates", metavar="DIR", help="a folder of templates that override the built-in ones")
    p.add_argument("--lang", default="both", metavar="LANG",
                   help="en, zh or both (each block in Chinese, then English); en,zh writes one file per language")
    add_common(p, lang=False)


def run(args: argparse.Namespace) -> int:
    from ..documents.problems import load_problem
    from ..documents.report import ALL_FORMATS, render_report, write_reports

    langs = split_list(args.lang, LANGS, "lang")
    formats = split_list(args.format, ALL_FORMATS, "format")
    catalog = catalog_of(args)
    if args.output is None:
        if len(args.files) != 1 or len(langs) != 1 or len(formats) != 1 or formats[0] == "pdf":
            raise InputError("several files, languages or formats, or pdf, need -o DIR to write into")
        problem = load_problem(args.files[0], catalog)
        write_text(render_report(problem, formats[0], langs[0], catalog=catalog, units=args.units,
                                 templates=args.templates), None)
        return 0
    for item in write_reports(args.files, args.output, langs=langs, formats=formats, units=args.units,
                              templates=args.templates, catalog=catalog):
        print(item.path)
    return 0
