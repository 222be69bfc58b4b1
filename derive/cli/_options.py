"""Options and helpers shared by the subcommands: the options that make a question, the
catalog options, NAME=VALUE inputs, and writing a command's output."""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from ..errors import InputError
from ..writeup.formats import LANGS

if TYPE_CHECKING:
    from ..records.catalog import Catalog
    from ..records.entries import Preset
    from ..records.question import Question

__all__ = ["add_common", "add_model_config", "add_question_options", "catalog_of", "input_files", "model_of",
           "parse_assignments", "question_of", "to_stdout", "write_text"]

_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", re.S)

#: how the command line spells each field of a question (errors name fields as `field`)
FLAGS = {
    "target": "TARGET", "given": "NAME=VALUE", "hw": "--hw", "model": "--model", "model_config": "--model-config",
    "presets": "--preset",
    "bound": "--max/--min", "bound=max": "--max", "bound=min": "--min", "require": "--require",
    "multiple_of": "--multiple-of", "rounding": "--no-round", "format": "--format", "lang": "--lang",
    "units": "--units", "unit": "--unit", "assume": "--assume", "minimize": "--minimize", "maximize": "--maximize",
    "templates": "--templates", "points": "--point", "seq_lens": "--seq-len", "grid": "--zip", "verify": "--verify",
    "mesh": "--mesh", "slo_tpot": "--slo-tpot", "slo_ttft": "--slo-ttft",
}


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


def add_common(p: argparse.ArgumentParser, *, lang: bool = True) -> None:
    """``--formulas``, ``--lang`` (unless the command defines its own) and ``--debug``."""
    p.add_argument("--formulas", action="append", metavar="PATH",
                   help="extra formula file or folder (same format as formulas/); repeatable")
    if lang:
        p.add_argument("--lang", choices=LANGS, default="en", help="language of names and text")
    p.add_argument("--debug", action="store_true", help="show the traceback of an internal error")


def add_question_options(p: argparse.ArgumentParser, per: str = "") -> None:
    """The options that make a question, shared by every command that asks one (solve, sweep).

    ``per`` is appended to the bound options' help (e.g. ", per point").
    """
    p.add_argument("--hw", metavar="ID", help="hardware preset (see 'derive list --kind hw')")
    p.add_argument("--model", metavar="ID", help="model preset (see 'derive list --kind model')")
    add_model_config(p)
    p.add_argument("--preset", action="append", metavar="ID", help="setup preset; repeatable")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--max", action="store_true", help=f"the largest value satisfying --require{per}")
    g.add_argument("--min", action="store_true", help=f"the smallest value satisfying --require{per}")
    g.add_argument("--minimize", metavar="QUANTITY",
                   help=f"the value of TARGET that makes QUANTITY least, the other inputs fixed{per}")
    g.add_argument("--maximize", metavar="QUANTITY",
                   help=f"the value of TARGET that makes QUANTITY greatest, the other inputs fixed{per}")
    p.add_argument("--require", action="append", metavar="CONDITION", help="a condition that must hold; repeatable")
    p.add_argument("--multiple-of", type=int, metavar="N", help="round a bound or an optimum to a multiple of N")
    p.add_argument("--no-round", dest="rounding", action="store_false",
                   help="keep a bound on a whole number exact (how many chips, as a fraction)")
    p.add_argument("--unit", metavar="UNIT", help="show the answer in UNIT (days, h, GiB, PFLOP/s, ...)")
    p.add_argument("--assume", action="append", metavar="'SMALL << LARGE'",
                   help="answer with the leading term when SMALL is negligible next to LARGE, e.g. "
                        "'matmul_rows << matmul_inner, matmul_cols'; repeatable")


def add_model_config(p: argparse.ArgumentParser) -> None:
    """``--model-config PATH``: a Hugging Face ``config.json`` read as the model preset."""
    p.add_argument("--model-config", metavar="PATH",
                   help="a Hugging Face config.json read as the model (Llama, Mistral, Mixtral, Qwen2/3, Gemma, "
                        "DeepSeek-V2/V3), instead of --model")


def _config_preset(args: argparse.Namespace) -> "Preset | None":
    """The preset ``--model-config`` reads (read once per run), or None without the option."""
    path = getattr(args, "model_config", None)
    if not path:
        return None
    preset = getattr(args, "model_config_preset", None)
    if preset is None:
        if getattr(args, "model", None):
            raise InputError("give --model or --model-config, not both", name="model")
        from ..catalog.model_config import load_model_config

        preset = args.model_config_preset = load_model_config(path)
    return preset


def model_of(args: argparse.Namespace) -> str | None:
    """The model a command's options name: ``--model ID``, or the id of the ``--model-config`` preset."""
    preset = _config_preset(args)
    return preset.id if preset is not None else getattr(args, "model", None)


def question_of(args: argparse.Namespace, given: dict | None = None) -> "Question":
    """The question the options of ``add_question_options`` (and TARGET, NAME=VALUE) ask."""
    from ..records.question import Question

    bound = "max" if args.max else ("min" if args.min else None)
    return Question.of(args.target, parse_assignments(args.inputs) if given is None else given, hw=args.hw,
                       model=model_of(args), presets=args.preset or (), bound=bound, require=args.require or (),
                       multiple_of=args.multiple_of, rounding=args.rounding, unit=args.unit,
                       assume=args.assume or (), minimize=getattr(args, "minimize", None),
                       maximize=getattr(args, "maximize", None))


def catalog_of(args: argparse.Namespace) -> "Catalog":
    """The built-in catalog plus the ``--formulas`` files (and the ``--model-config`` preset)."""
    from ..catalog.loader import load_catalog

    catalog = load_catalog(args.formulas or ())
    preset = _config_preset(args)
    return catalog if preset is None else catalog.with_presets((preset,))


def input_files(args: argparse.Namespace, *more: str | os.PathLike) -> list[Path]:
    """Every file this run reads that an output must never overwrite: ``more`` (a source, problem
    files), the ``--formulas`` files (folders' ``*.yaml``), the ``--templates`` files and the
    ``--model-config`` file."""
    found: list[Path] = []
    for item in [*more, *(getattr(args, "formulas", None) or ()), getattr(args, "templates", None),
                 getattr(args, "model_config", None)]:
        if not item:
            continue
        path = Path(item)
        if path.is_dir():
            found.extend(p for p in path.rglob("*") if p.is_file())
        else:
            found.append(path)
    return found


def to_stdout(args: argparse.Namespace) -> None:
    """``-o -`` means standard output, as omitting ``-o`` does (the way to print rather than write
    over a device such as /dev/null, which derive refuses to replace)."""
    if getattr(args, "output", None) == "-":
        args.output = None
        args.output_dash = True


def write_text(text: str, output: str | None, inputs: Sequence[str | os.PathLike] = ()) -> None:
    """``text`` to ``output`` (written atomically, never over one of ``inputs``) or to standard output."""
    if output:
        from ..storage.atomic import OutputPlan, write_atomic

        write_atomic(OutputPlan(inputs).claim(output), text)
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")


def split_list(value: str, allowed: Sequence[str], what: str) -> list[str]:
    """A comma-separated option (``--lang en,zh``), each item checked against ``allowed``."""
    items = [v.strip() for v in value.split(",") if v.strip()]
    if not items:
        raise InputError(f"--{what} is empty; choose from {', '.join(allowed)}")
    for v in items:
        if v not in allowed:
            raise InputError(f"unknown {what} {v!r}; choose from {', '.join(allowed)} (comma-separated)")
    return list(dict.fromkeys(items))
