"""``derive shard "A[I_X, J] * B[J, K_Y]" I=... J=... K=... --mesh X=4,Y=4 --hw ID``: a sharded matmul's plan."""

from __future__ import annotations

import argparse
import json

from ..errors import InputError
from ._options import add_common, catalog_of, parse_assignments, write_text

HELP = "the case, collectives and costs of a sharded matmul in the Scaling Book's notation"
DESCRIPTION = ("Expand a sharded matmul written as A[I_X, J] * B[J, K_Y] (optionally '-> C[I_X, K_Y]') into its "
               "case (1-4), the local matmul, FLOPs and compute time per chip, each collective with its bytes, "
               "time and regime, and whether the collectives hide behind the matmul. NAME=VALUE gives a "
               "dimension's size (I=8192) or, for any other name, an input of the engine (bytes_per_element=1).")


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("notation", help="the sharded matmul, e.g. 'A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]'")
    p.add_argument("inputs", nargs="*", metavar="NAME=VALUE",
                   help="each dimension's size (I=8192), and other engine inputs (ici_hop_latency=0.5us)")
    p.add_argument("--mesh", required=True, metavar="AXIS=SIZE,...", help="the mesh axes and sizes, e.g. X=4,Y=4")
    p.add_argument("--no-wraparound", metavar="AXIS[,AXIS...]", dest="no_wraparound",
                   help="mesh axes without wraparound links, timed as lines (about twice a ring's time); with --hw "
                        "the chip's slice rule already makes them so (TPU v5e/v6e: any axis under 16, v4p/v5p: "
                        "slices smaller than a 4x4x4 cube); e.g. X,Y")
    p.add_argument("--wraparound", metavar="AXIS[,AXIS...]", dest="wraparound",
                   help="mesh axes to time as the book's rings although the chip's slice rule makes them lines "
                        "(the mesh sits in a larger slice that wraps them); the answer says the ring is assumed")
    p.add_argument("--hw", metavar="ID", help="hardware preset (see 'derive list --kind hw'), e.g. tpu-v5e")
    p.add_argument("--units", choices=("si", "iec"), default="si", help="decimal (si) or binary (iec) prefixes")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--templates", metavar="DIR", help="a folder of templates that override the built-in ones")
    add_common(p)


def mesh_of(text: str) -> dict[str, str]:
    """``"X=4,Y=4"`` → ``{"X": "4", "Y": "4"}`` (the library checks names and sizes)."""
    mesh: dict[str, str] = {}
    for item in (t.strip() for t in text.split(",")):
        name, eq, size = item.partition("=")
        if not eq or not name.strip() or not size.strip():
            raise InputError(f"--mesh {text[:60]!r} is malformed; write AXIS=SIZE pairs separated by commas, "
                             "e.g. --mesh X=4,Y=4", name="mesh")
        if name.strip() in mesh:
            raise InputError(f"mesh axis {name.strip()[:30]} is given twice in --mesh; give each axis once",
                             name="mesh")
        mesh[name.strip()] = size.strip()
    return mesh


def axes_of(text: str | None, flag: str = "no_wraparound") -> tuple[str, ...]:
    """``"X,Y"`` → ``("X", "Y")`` (the library checks that each is an axis of the mesh)."""
    if text is None:
        return ()
    axes = tuple(t.strip() for t in text.split(","))
    option = "--" + flag.replace("_", "-")
    if not all(axes):
        raise InputError(f"{option} {text[:60]!r} is malformed; write mesh axes separated by commas, "
                         f"e.g. {option} X,Y", name=flag)
    return axes


def run(args: argparse.Namespace) -> int:
    from ..records.overrides import as_records, collecting, warn
    from ..sharding.matmul import dimension_names, sharding_plan
    from ..sharding.view import plan_to_dict, render_plan

    mesh = mesh_of(args.mesh)
    items = parse_assignments(args.inputs)
    dims = dimension_names(args.notation, mesh)
    sizes = {k: v for k, v in items.items() if k in dims}
    given = {k: v for k, v in items.items() if k not in dims}
    with collecting() as overrides:     # a user's catalog entry that replaced a built-in one is named
        plan = sharding_plan(args.notation, sizes, mesh, hw=args.hw, given=given, catalog=catalog_of(args),
                             no_wraparound=axes_of(args.no_wraparound),
                             wraparound=axes_of(args.wraparound, "wraparound"))
    if args.format == "json":
        data = plan_to_dict(plan, units=args.units, lang=args.lang, templates=args.templates)
        if overrides:
            data["overrides"] = as_records(overrides.values())
        text = json.dumps(data, ensure_ascii=False, indent=2)
    else:
        text = render_plan(plan, lang=args.lang, units=args.units, templates=args.templates)
    write_text(text, None)
    warn(overrides.values())
    return 0
