"""``derive sweep TARGET NAME=SPEC ...``: a solved quantity over a grid of inputs, as CSV, JSON or npz."""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable

from ..errors import InputError
from ._options import (
    add_common,
    add_question_options,
    catalog_of,
    input_files,
    parse_assignments,
    question_of,
    to_stdout,
)

HELP = "evaluate a solved quantity over a grid of inputs (NumPy)"
DESCRIPTION = ("Evaluate TARGET over a grid: NAME=START:STOP:NUM[:log] or NAME=V1,V2,... per swept input, "
               "NAME=VALUE for fixed ones. Several swept names make an outer product (--zip pairs them instead). "
               "Output in base units.")


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("target", help="the quantity to evaluate (see 'derive list --kind quantity')")
    p.add_argument("inputs", nargs="*", metavar="NAME=SPEC",
                   help="seq_len=512:32768:7:log, hbm_capacity=16GB:80GB:5, batch=1,8,64 or a fixed NAME=VALUE")
    add_question_options(p, per=", per point")
    p.add_argument("--zip", action="store_true", help="pair the swept values one to one instead of every combination")
    p.add_argument("--verify", type=int, default=3, metavar="N",
                   help="grid points the engine re-solves exactly to check the sweep (default 3, 0 to skip)")
    p.add_argument("--format", choices=("csv", "json", "npz"), default="csv",
                   help="csv (default), json, or npz (NumPy's binary format, for large grids; needs -o)")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output (- for it)")
    add_common(p)


def run(args: argparse.Namespace) -> int:
    from ..storage.atomic import OutputPlan, open_atomic
    from ..sweep.grid import is_sweep_spec
    from ._sweep_store import SweepStore

    to_stdout(args)
    if args.format == "npz" and not args.output and not getattr(args, "output_dash", False):
        raise InputError("--format npz writes a binary file; give -o FILE.npz (or -o - for standard output)")
    output = OutputPlan(input_files(args)).claim(args.output) if args.output else None

    items = parse_assignments(args.inputs)
    axes = {k: v for k, v in items.items() if is_sweep_spec(v)}
    given = {k: v for k, v in items.items() if not is_sweep_spec(v)}
    if not axes:
        raise InputError("nothing to sweep: give at least one NAME=START:STOP:NUM[:log] (or NAME=V1,V2,...)")
    store = SweepStore.for_command(args)          # the same question swept before: its program, no SymPy
    result = store.lookup(axes, args.verify) if store is not None and _verify_allowed(args.verify) else None
    if result is None:
        from ..sweep.grid import sweep

        catalog = catalog_of(args)
        result = sweep(question_of(args, given), axes, grid="zip" if args.zip else "outer", verify=args.verify,
                       catalog=catalog)
        if store is not None:
            store.keep(result, axes, catalog)
    if result.overrides:        # JSON and npz name them in the file too; CSV stays plain rows
        from ..records.overrides import warn

        warn(result.overrides)
    writers: dict[str, Callable[[Any], None]] = {"csv": result.write_csv, "json": result.write_json,
                                                 "npz": result.write_npz}
    write = writers[args.format]
    if output is not None:
        with open_atomic(output, "wb" if args.format == "npz" else "w") as fh:
            write(fh)
    else:
        write(sys.stdout.buffer if args.format == "npz" else sys.stdout)
    return 0


def _verify_allowed(count: int) -> bool:
    """Whether ``--verify`` is in range (the engine refuses it with the error otherwise)."""
    from ..sweep.grid import MAX_VERIFY

    return 0 <= count <= MAX_VERIFY
