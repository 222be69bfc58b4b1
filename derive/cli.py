"""The ``derive`` command line: ``solve``, ``list``, ``show`` and the commands of later modules.

Every user mistake ends as one line on stderr, ``derive: error: ...``, and exit
status 2; an unexpected internal error is exit 1 with a hint to rerun with
``--debug`` for the traceback. Success is exit 0.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, Callable, NoReturn, Sequence

from ._errors import DeriveError, InputError

__all__ = ["main"]

_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", re.S)


class _UsageError(InputError):
    """A malformed command line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2, no usage dump
        raise _UsageError(f"{message} (see '{self.prog} --help')")


def parse_assignments(items: Sequence[str]) -> dict[str, str]:
    """``["seq_len=4096", "hbm_bw=3.35TB/s"]`` → ``{"seq_len": "4096", "hbm_bw": "3.35TB/s"}``."""
    given: dict[str, str] = {}
    for item in items:
        m = _ASSIGNMENT.match(item)
        if not m:
            shown = item if len(item) <= 60 else item[:57] + "..."
            raise InputError(f"malformed input {shown!r}: write NAME=VALUE, e.g. seq_len=4096 or hbm_bw=3.35TB/s")
        name, value = m.groups()
        if name in given:
            raise InputError(f"{name} is given twice; give it once")
        if not value.strip():
            raise InputError(f"{name}= has no value; write e.g. {name}=4096")
        given[name] = value
    return given


# ---------------------------------------------------------------------------
# commands


def _catalog(args: argparse.Namespace):
    from ._loader import load_catalog

    return load_catalog(args.formulas or ())


def _write(text: str, output: str | None) -> None:
    if output:
        path = Path(output)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write {output}: {exc.strerror or exc}") from exc
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")


def cmd_solve(args: argparse.Namespace) -> int:
    from ._solver import solve

    catalog = _catalog(args)
    given = parse_assignments(args.inputs)
    bound = "max" if args.max else ("min" if args.min else None)
    sol = solve(args.target, given, hw=args.hw, model=args.model, presets=args.preset or (), bound=bound,
                require=args.require or (), multiple_of=args.multiple_of, catalog=catalog)
    if args.format == "json":
        _write(json.dumps(sol.to_dict(units=args.units, lang=args.lang), ensure_ascii=False, indent=2), args.output)
        return 0
    if args.format == "pdf":
        from .latex_build import build_pdf

        out = build_pdf(sol, lang=args.lang, units=args.units, templates=args.templates,
                        output=args.output, beamer=args.beamer)
        print(out)
        return 0
    from .render import render_solution

    _write(render_solution(sol, args.format, lang=args.lang, units=args.units, templates=args.templates), args.output)
    return 0


def _entry_json(entry: Any) -> dict[str, Any]:
    from ._model import Condition, Preset, Quantity, Reference, Relation

    out: dict[str, Any]
    if isinstance(entry, Quantity):
        out = {"id": entry.id, "kind": "quantity", "unit": entry.base_unit, "declared_unit": entry.unit,
               "type": "integer" if entry.integer else "real", "symbol": entry.latex,
               "aliases": list(entry.aliases)}
        if entry.default is not None:
            out["default"] = entry.default.text
    elif isinstance(entry, Relation):
        out = {"id": entry.id, "kind": "relation", "equation": entry.equation_text, "symbols": list(entry.symbols),
               "regimes": [r.id for r in entry.regimes]}
    elif isinstance(entry, Condition):
        out = {"id": entry.id, "kind": "condition", "require": entry.text, "symbols": list(entry.symbols)}
    elif isinstance(entry, Preset):
        out = {"id": entry.id, "kind": entry.kind, "extends": entry.extends or None,
               "values": {k: v.text for k, v in entry.values.items()}}
    elif isinstance(entry, Reference):
        return {"id": entry.id, "kind": "reference", "title": entry.title, "url": entry.url,
                "reference_kind": entry.kind}
    else:  # pragma: no cover - the catalog has no other kinds
        raise TypeError(type(entry))
    out["name_en"] = entry.name.en
    out["name_zh"] = entry.name.zh
    meaning = getattr(entry, "meaning", None)
    if meaning is not None:
        out["meaning_en"] = meaning.en
        out["meaning_zh"] = meaning.zh
    out["source"] = str(entry.source)
    return out


_KINDS = ("quantity", "relation", "condition", "hw", "model", "setup")


def _entries(catalog, kind: str | None) -> list[Any]:
    tables = {
        "quantity": list(catalog.quantities.values()),
        "relation": list(catalog.relations.values()),
        "condition": list(catalog.conditions.values()),
        "hw": [p for p in catalog.presets.values() if p.kind == "hw"],
        "model": [p for p in catalog.presets.values() if p.kind == "model"],
        "setup": [p for p in catalog.presets.values() if p.kind == "setup"],
    }
    if kind:
        return tables[kind]
    return [e for k in _KINDS for e in tables[k]]


def cmd_list(args: argparse.Namespace) -> int:
    catalog = _catalog(args)
    entries = _entries(catalog, args.kind)
    rows = [_entry_json(e) for e in entries]
    if args.format == "json":
        _write(json.dumps(rows, ensure_ascii=False, indent=2), None)
        return 0
    from .render import render_template

    _write(render_template("list.txt.j2", {"rows": rows, "lang": args.lang,
                                           "counts": _counts(catalog)}), None)
    return 0


def _counts(catalog) -> dict[str, int]:
    return {k: len(_entries(catalog, k)) for k in _KINDS}


def cmd_show(args: argparse.Namespace) -> int:
    catalog = _catalog(args)
    found = catalog.entry(args.id)
    rows = [_entry_json(e) for e in found]
    for row, entry in zip(rows, found):
        if row["kind"] == "quantity":
            row["relations"] = list(catalog.relations_with(entry.id))
            row["conditions"] = [c.id for c in catalog.conditions.values() if entry.id in c.symbols]
            row["presets"] = {p.id: p.values[entry.id].text for p in catalog.presets.values()
                              if entry.id in p.values}
    if args.format == "json":
        _write(json.dumps(rows if len(rows) > 1 else rows[0], ensure_ascii=False, indent=2), None)
        return 0
    from .render import render_template

    _write(render_template("show.txt.j2", {"rows": rows, "lang": args.lang}), None)
    return 0


# ---------------------------------------------------------------------------
# the parser


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--formulas", action="append", metavar="PATH",
                   help="extra formula file or folder (same format as formulas/); repeatable")
    p.add_argument("--lang", choices=("en", "zh", "both"), default="en", help="language of names and text")
    p.add_argument("--debug", action="store_true", help="show the traceback of an internal error")


def add_question_options(p: argparse.ArgumentParser, per: str = "") -> None:
    """The options that make a question, shared by every command that asks one (solve, sweep).

    ``per`` is appended to the bound options' help (e.g. ", per point").
    """
    p.add_argument("--hw", metavar="ID", help="hardware preset (see 'derive list --kind hw')")
    p.add_argument("--model", metavar="ID", help="model preset (see 'derive list --kind model')")
    p.add_argument("--preset", action="append", metavar="ID", help="setup preset; repeatable")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--max", action="store_true", help=f"the largest value satisfying --require{per}")
    g.add_argument("--min", action="store_true", help=f"the smallest value satisfying --require{per}")
    p.add_argument("--require", action="append", metavar="CONDITION", help="a condition that must hold; repeatable")
    p.add_argument("--multiple-of", type=int, metavar="N", help="round a bound to a multiple of N")


_EXTRA_COMMANDS: list[Callable[[argparse._SubParsersAction, Callable], None]] = []


def register(adder: Callable[[argparse._SubParsersAction, Callable], None]) -> None:
    """Let another module add a subcommand: ``adder(subparsers, common)``."""
    _EXTRA_COMMANDS.append(adder)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="derive", description="Symbolic derivations for the performance math of ML accelerators.")
    from . import __version__

    parser.add_argument("--version", action="version", version=f"derive {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser("solve", help="solve for a quantity (forward, inverse, or a bound)")
    p.add_argument("target", help="the quantity to find (see 'derive list --kind quantity')")
    p.add_argument("inputs", nargs="*", metavar="NAME=VALUE", help="given values, e.g. seq_len=4096 hbm_bw=3.35TB/s")
    add_question_options(p)
    p.add_argument("--units", choices=("si", "iec"), default="si", help="decimal (si) or binary (iec) prefixes")
    p.add_argument("--format", choices=("text", "json", "md", "html", "tex", "beamer", "pdf"), default="text")
    p.add_argument("--beamer", action="store_true", help="with --format pdf: build the slides, not the article")
    p.add_argument("--templates", metavar="DIR", help="a folder of templates that override the built-in ones")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    _common(p)
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("list", help="list the catalog")
    p.add_argument("--kind", choices=_KINDS)
    p.add_argument("--format", choices=("text", "json"), default="text")
    _common(p)
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("show", help="show one entry of the catalog")
    p.add_argument("id")
    p.add_argument("--format", choices=("text", "json"), default="text")
    _common(p)
    p.set_defaults(func=cmd_show)

    for adder in _EXTRA_COMMANDS:
        adder(sub, _common)
    return parser


# the commands other modules add, and the module that adds each
EXTRA_COMMANDS = {"check": "derive.check", "report": "derive.report", "render": "derive.live",
                  "plot": "derive.plot", "sweep": "derive.sweep"}
_BUILTIN_COMMANDS = ("solve", "list", "show")


def _load_extra_commands(argv: Sequence[str] = ()) -> None:
    """Import the module of the command being run, or all of them (for help and unknown words)."""
    import importlib

    word = next((a for a in argv if not a.startswith("-")), None)
    if word in _BUILTIN_COMMANDS:
        return
    modules = [EXTRA_COMMANDS[word]] if word in EXTRA_COMMANDS else list(EXTRA_COMMANDS.values())
    for name in modules:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise


def one_line(text: str) -> str:
    """``text`` as one printable line: line breaks become spaces, other control and format characters
    (``\x85``, ``\u2028``, ANSI escapes, bidi overrides) from user input are shown escaped."""
    import unicodedata

    out = []
    for ch in text:
        if ch in "\n\r\t":
            out.append(" ")
        elif unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs"):
            out.append(ascii(ch)[1:-1])
        else:
            out.append(ch)
    return "".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    try:
        _load_extra_commands(argv)
        parser = build_parser()
        # NAME=VALUE inputs may come before or after options: argparse leaves the late ones over
        args, extra = parser.parse_known_args(argv)
        if extra:
            if not hasattr(args, "inputs") or any(x.startswith("-") for x in extra):
                parser.error(f"unrecognized arguments: {' '.join(extra)}")
            args.inputs = list(args.inputs) + extra
        return int(args.func(args) or 0)
    except DeriveError as exc:
        print(f"derive: error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("derive: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # an internal error: short message, traceback on request
        if debug:
            raise
        print(f"derive: internal error: {type(exc).__name__}: {one_line(str(exc))} "
              "(rerun with --debug for the traceback)", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
