"""``derive solve TARGET [NAME=VALUE ...]``: one question, answered with its derivation."""

from __future__ import annotations

import argparse
import json
import sys

from ..writeup.formats import FORMATS
from ._options import add_common, add_question_options, catalog_of, input_files, question_of, to_stdout, write_text

HELP = "solve for a quantity (forward, inverse, or a bound)"


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("target", help="the quantity to find (see 'derive list --kind quantity')")
    p.add_argument("inputs", nargs="*", metavar="NAME=VALUE", help="given values, e.g. seq_len=4096 hbm_bw=3.35TB/s")
    add_question_options(p)
    p.add_argument("--units", choices=("si", "iec"), default="si", help="decimal (si) or binary (iec) prefixes")
    p.add_argument("--format", choices=[f.name for f in FORMATS.values() if f.name != "latex-fragment"],
                   default="text", help="; ".join(f"{f.name}: {f.help}" for f in FORMATS.values()
                                                  if f.name != "latex-fragment"))
    p.add_argument("--order", metavar="VARIABLE",
                   help="how TARGET grows with VARIABLE, the other inputs held fixed (its leading term, Θ)")
    p.add_argument("--beamer", action="store_true", help="with --format pdf: build the slides, not the article")
    p.add_argument("--templates", metavar="DIR", help="a folder of templates that override the built-in ones")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output (- for it)")
    add_common(p)


def run(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..storage.atomic import OutputPlan
    from ._answer_store import AnswerStore

    to_stdout(args)
    if args.format == "pdf" and getattr(args, "output_dash", False):
        raise InputError("--format pdf writes a file: give -o FILE.pdf, not -o -")
    if args.output:     # refused before any work
        OutputPlan(input_files(args)).claim(args.output)
    if args.format == "pdf":
        return _pdf(args)
    store = AnswerStore.for_command(args)          # the same question asked before: no SymPy needed
    kept = store.lookup() if store is not None else None
    if kept is not None:
        sys.stdout.write(kept)
        return 0
    text = _order(args) if args.order else _answer(args)
    text = text if text.endswith("\n") else text + "\n"
    write_text(text, args.output, input_files(args))
    if store is not None:
        store.keep(text)
    return 0


def _answer(args: argparse.Namespace) -> str:
    """The answer and its derivation in ``--format``."""
    from ..engine.solver import solve

    sol = solve(question_of(args), catalog=catalog_of(args))
    if args.format == "json":
        return json.dumps(sol.to_dict(units=args.units, lang=args.lang), ensure_ascii=False, indent=2)
    from ..writeup.render import render_solution

    return render_solution(sol, args.format, lang=args.lang, units=args.units, templates=args.templates)


def _pdf(args: argparse.Namespace) -> int:
    from ..engine.solver import solve
    from ..writeup.latex_build import build_pdf

    if args.order:
        return _order_refused()
    sol = solve(question_of(args), catalog=catalog_of(args))
    print(build_pdf(sol, lang=args.lang, units=args.units, templates=args.templates, output=args.output,
                    beamer=args.beamer))
    return 0


def _order_refused() -> int:
    from ..errors import InputError

    raise InputError("--order prints text or json (--format text|json)", name="format")


def _order(args: argparse.Namespace) -> str:
    """``--order VARIABLE``: the leading term of TARGET as VARIABLE grows, as text or JSON."""
    from ..engine.solver import growth
    from ..errors import InputError

    if args.format not in ("text", "json"):
        raise InputError("--order prints text or json (--format text|json)", name="format")
    question = question_of(args)
    if question.bound or question.require:
        raise InputError("--order asks how a quantity grows: give it without --max/--min/--require", name="order")
    g = growth(question.target, args.order, question.given_map, hw=question.hw, model=question.model,
               presets=question.presets, catalog=catalog_of(args))
    theta = str(g.theta()).replace("**", "^")
    if args.format == "json":
        return json.dumps({"target": g.target, "variable": g.variable, "theta": theta,
                           "leading": str(g.leading), "exponent": str(g.exponent),
                           "formula": str(g.formula)}, ensure_ascii=False, indent=2)
    return (f"{g.target} = Θ({theta}) as {g.variable} grows, the other inputs held fixed\n"
            f"  leading term: {g.leading}\n  power of {g.variable}: {g.exponent}\n"
            f"  from: {g.target} = {g.formula}")
