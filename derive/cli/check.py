"""``derive check FILE ...``: every number a chapter states (a claims file), with its verdict."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ._options import add_common, catalog_of, write_text

HELP = "check every number a chapter states (a claims file)"


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="claims file(s), e.g. reports/claims/bandwidth-wall.yaml")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--templates", metavar="DIR", help="a folder of templates that override the built-in ones")
    add_common(p)


def run(args: argparse.Namespace) -> int:
    from ..documents.claims import evaluate, load_claims, render_text

    catalog = catalog_of(args)
    outputs = []
    everything: list[dict[str, Any]] = []
    for path in args.files:
        claims = load_claims(path, catalog)
        results = [evaluate(c, catalog, claims.file) for c in claims.claims]
        if args.format == "json":
            everything.extend(r.to_dict(args.lang, args.templates) for r in results)
        else:
            outputs.append(render_text(results, claims.file, claims.chapter, args.lang, args.templates))
    if args.format == "json":
        write_text(json.dumps(everything, ensure_ascii=False, indent=2), None)
    else:
        write_text("\n".join(o.rstrip("\n") for o in outputs), None)
    return 0
