"""``derive plot KIND``: a roofline, training memory, KV cache, memory hierarchy or curve figure."""

from __future__ import annotations

import argparse
import sys
import warnings

from ..errors import InputError
from ._options import add_common, add_model_config, catalog_of, input_files, model_of, parse_assignments

HELP = "plot a roofline, training memory, KV cache, memory hierarchy, or any quantity against an input"
DESCRIPTION = ("Plot the engine's numbers. KIND is roofline, memory, kv-cache, hierarchy or curve "
               "(--y QUANTITY against NAME=START:STOP:NUM[:log], a line per value of NAME=V1,V2,...).")


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("kind", metavar="KIND", help="roofline, memory, kv-cache, hierarchy, curve or topology")
    p.add_argument("--route", metavar="FROM:TO", help="for topology: a route between two chips, e.g. 0,0:3,3")
    p.add_argument("--y", action="append", metavar="QUANTITY",
                   help="for curve: a quantity to draw (repeatable; quantities of one unit)")
    p.add_argument("inputs", nargs="*", metavar="NAME=VALUE", help="fixed inputs, e.g. seq_len=4096 num_devices=8")
    p.add_argument("--hw", action="append", metavar="ID", help="hardware preset (repeatable for the roofline)")
    p.add_argument("--model", metavar="ID", help="model preset (memory, kv-cache)")
    add_model_config(p)
    p.add_argument("--preset", action="append", metavar="ID",
                   help="setup preset for the memory and curve plots (optimizer, precision); repeatable")
    p.add_argument("--point", action="append", metavar="NAME=INTENSITY",
                   help="put your own operation on the roofline, e.g. --point 'my kernel=12'; repeatable")
    p.add_argument("--seq-len", action="append", type=int, metavar="N",
                   help="a sequence length for the kv-cache plot; repeatable (default 1024 4096 16384 65536)")
    p.add_argument("-o", "--output", metavar="FILE", help="FILE.png, FILE.svg or FILE.pdf (default KIND.png)")
    add_common(p)


def run(args: argparse.Namespace) -> int:
    from ..plot.figures import FontWarning, kind_of, plot
    from ..records.overrides import collecting, warn
    from ..storage.atomic import OutputPlan

    kind = kind_of(args.kind)
    output = OutputPlan(input_files(args)).claim(args.output or f"{kind}.png")
    points = {}
    for item in args.point or ():
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise InputError(f"malformed --point {item!r}: write NAME=INTENSITY, e.g. --point 'my kernel=12'")
        points[name.strip()] = value.strip()
    with warnings.catch_warnings(record=True) as caught, collecting() as overrides:
        warnings.simplefilter("always", FontWarning)
        path = plot(kind, output, hw=args.hw or (), model=model_of(args), lang=args.lang,
                    given=parse_assignments(args.inputs), points=points, seq_lens=args.seq_len,
                    presets=args.preset or (), y=args.y or (), route=args.route, catalog=catalog_of(args))
    for w in caught:
        if issubclass(w.category, FontWarning):
            print(f"derive: warning: {w.message}", file=sys.stderr)
    warn(overrides.values())
    print(path)
    return 0
