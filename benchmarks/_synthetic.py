"""Synthetic user formula files for the catalog benchmarks: ``n`` relations over built-in and new quantities.

Each relation defines a new quantity from two earlier ones (a product, a ratio or a sum of
like units), in the shapes the real catalog uses, so that loading checks units, builds
symbols and indexes as it would for a large real catalog.
"""

from __future__ import annotations

import random
from pathlib import Path

UNITS = ["B", "s", "FLOP", "B/s", "FLOP/s", "1"]
_MUL = {("B/s", "s"): "B", ("FLOP/s", "s"): "FLOP", ("1", "B"): "B", ("1", "s"): "s", ("1", "FLOP"): "FLOP",
        ("1", "1"): "1", ("1", "B/s"): "B/s", ("1", "FLOP/s"): "FLOP/s"}
_DIV = {("B", "B/s"): "s", ("FLOP", "FLOP/s"): "s", ("B", "s"): "B/s", ("FLOP", "s"): "FLOP/s", ("B", "B"): "1",
        ("s", "s"): "1", ("FLOP", "FLOP"): "1"}


def _quantity(qid: str, unit: str) -> str:
    return (f"  - id: {qid}\n    symbol: 'q_{{{qid[1:]}}}'\n    unit: '{unit}'\n"
            f"    name: {{en: synthetic {qid}, zh: 合成量 {qid}}}\n"
            f"    meaning: {{en: a synthetic quantity, zh: 合成的物理量}}\n    source: derived\n")


def write_file(path: Path, n: int, seed: int = 0) -> Path:
    """A formula file with ``n`` relations (and ``n`` + 12 quantities) at ``path``."""
    rng = random.Random(seed)
    quantities: list[tuple[str, str]] = []
    text_q: list[str] = []
    for i, unit in enumerate(UNITS * 2):
        qid = f"s{i}"
        quantities.append((qid, unit))
        text_q.append(_quantity(qid, unit))
    text_r: list[str] = []
    for i in range(n):
        while True:
            (a, ua), (b, ub) = rng.choice(quantities), rng.choice(quantities[-50:])
            op = rng.choice("*/+")
            if op == "*" and ((ua, ub) in _MUL or (ub, ua) in _MUL):
                unit = _MUL.get((ua, ub)) or _MUL[(ub, ua)]
                break
            if op == "/" and (ua, ub) in _DIV:
                unit = _DIV[(ua, ub)]
                break
            if op == "+" and ua == ub and a != b:
                unit = ua
                break
        qid = f"r{i}"
        text_q.append(_quantity(qid, unit))
        quantities.append((qid, unit))
        text_r.append(f"  - id: rel_{qid}\n    equation: {qid} = {a} {op} {b}\n"
                      f"    name: {{en: relation {i}, zh: 关系 {i}}}\n"
                      f"    meaning: {{en: a synthetic relation, zh: 合成的关系}}\n    source: derived\n")
    path.write_text("quantities:\n" + "".join(text_q) + "relations:\n" + "".join(text_r), encoding="utf-8")
    return path
