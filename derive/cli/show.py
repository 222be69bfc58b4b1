"""``derive show ID``: one entry of the catalog, with the relations, conditions and presets that use it."""

from __future__ import annotations

import argparse
import json

from ._options import add_common, catalog_of, write_text
from .list import entry_json

HELP = "show one entry of the catalog"


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("id")
    p.add_argument("--format", choices=("text", "json"), default="text")
    add_common(p)


def run(args: argparse.Namespace) -> int:
    catalog = catalog_of(args)
    found = catalog.entry(args.id)
    rows = [entry_json(e) for e in found]
    for row, entry in zip(rows, found):
        override = catalog.overrides.get(f"{row['kind']}:{entry.id}")
        if override is not None:
            row["overridden_by"] = {"file": override.file, "replaced": override.replaced}
        if row["kind"] == "quantity":
            row["relations"] = list(catalog.relations_with(entry.id))
            row["conditions"] = [c.id for c in catalog.conditions.values() if entry.id in c.symbols]
            # each preset's value with the note that says how its source counts it, and the source
            row["presets"] = {p.id: {"value": p.values[entry.id].text, "note": p.values[entry.id].note,
                                     "note_zh": p.values[entry.id].note_zh,
                                     "source": str(p.values[entry.id].source)}
                              for p in catalog.presets.values() if entry.id in p.values}
    if args.format == "json":
        write_text(json.dumps(rows if len(rows) > 1 else rows[0], ensure_ascii=False, indent=2), None)
        return 0
    from ..writeup.render import render_template

    write_text(render_template("show.txt.j2", {"rows": rows, "lang": args.lang}), None)
    return 0
