"""``derive list``: every entry of the catalog, or those of one kind."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ._options import add_common, catalog_of, write_text

HELP = "list the catalog"

KINDS = ("quantity", "relation", "condition", "hw", "model", "setup")


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kind", choices=KINDS)
    p.add_argument("--format", choices=("text", "json"), default="text")
    add_common(p)


def run(args: argparse.Namespace) -> int:
    catalog = catalog_of(args)
    rows = [entry_json(e) for e in entries(catalog, args.kind)]
    if args.format == "json":
        write_text(json.dumps(rows, ensure_ascii=False, indent=2), None)
        return 0
    from ..writeup.render import render_template

    write_text(render_template("list.txt.j2", {"rows": rows, "lang": args.lang, "counts": counts(catalog)}), None)
    return 0


def entry_json(entry: Any) -> dict[str, Any]:
    """An entry of the catalog as the JSON that list and show print."""
    from ..records.entries import Condition, Preset, Quantity, Reference, Relation

    out: dict[str, Any]
    if isinstance(entry, Quantity):
        out = {"id": entry.id, "kind": "quantity", "unit": entry.base_unit, "declared_unit": entry.unit,
               "type": "integer" if entry.integer else "real", "symbol": entry.latex,
               "aliases": list(entry.aliases)}
        if entry.default is not None:
            out["default"] = entry.default.text
    elif isinstance(entry, Relation):
        out = {"id": entry.id, "kind": "relation", "equation": entry.equation_text, "symbols": list(entry.symbols),
               "regimes": [r.id for r in entry.regimes], "holds_when": list(entry.holds_when)}
    elif isinstance(entry, Condition):
        out = {"id": entry.id, "kind": "condition", "require": entry.text, "symbols": list(entry.symbols)}
    elif isinstance(entry, Preset):
        out = {"id": entry.id, "kind": entry.kind, "extends": entry.extends or None,
               "values": {k: v.text for k, v in entry.values.items()},
               "value_notes": {k: v.note for k, v in entry.values.items() if v.note}, "note": entry.note}
    elif isinstance(entry, Reference):
        # a reference's name is its title (written here in both languages only for a convention or a
        # derivation); it is a source, so it has none of its own
        return {"id": entry.id, "kind": "reference", "title": entry.title, "url": entry.url,
                "reference_kind": entry.kind, "note": entry.note,
                "name_en": entry.title, "name_zh": entry.title_zh or entry.title}
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


def entries(catalog, kind: str | None) -> list[Any]:
    """The entries of one kind (all kinds when ``kind`` is None), in catalog order."""
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
    return [e for k in KINDS for e in tables[k]]


def counts(catalog) -> dict[str, int]:
    return {k: len(entries(catalog, k)) for k in KINDS}
