"""Premises: the conditions on its inputs under which a relation holds (``holds_when:`` in the catalog).

Some relations are true only for part of what a question may describe: an ICI collective timed as a
bidirectional ring needs wraparound links; hops along an axis counted the direct way are the hops
only when the axis is a line. Such a relation names, with ``holds_when``, the catalog conditions under
which it holds, on inputs only (a slice preset's ``slice_wraps_y``, a typed ``axis_wraps``).

Before a question is planned its premises are read on the values it gives: typed, from its presets,
or the catalog's defaults (a convention, such as the book's rings). A relation whose premise those
values contradict, or say nothing about, is left out of the question (:func:`excluded`); where
another relation gives the same quantity under its own premise (the AllGather over a line for the
one over a ring), that one answers, and where none does, the error says which premise failed and
on which values (:func:`left_out_hint`). The premises of the relations an answer uses are written
into its notes with the values that decided them (:func:`premise_notes`).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING, Iterable, Mapping

import sympy

from ..symbolic.exact import holds, value_at
from ..symbolic.units import format_value

if TYPE_CHECKING:
    from ..records.catalog import Catalog
    from ..records.entries import Condition, Relation
    from ..records.solution import Given, Note

__all__ = ["Reading", "excluded", "left_out_hint", "premise_inputs", "premise_notes", "read_premise", "readings",
           "unsettled", "witness"]


@dataclass(frozen=True)
class Reading:
    """One premise of one relation, read on a question's values."""

    relation: str
    condition: str
    values: tuple[tuple[str, sympy.Expr, str], ...]   # name, value, origin ("given", "setup:v5e-8x4", "default")
    missing: tuple[str, ...]                          # the condition's inputs the question does not give
    holds: bool | None                                # None: not known (something is missing)


def _premised(catalog: "Catalog") -> tuple["Relation", ...]:
    hit = catalog.memo.premised
    if hit is None:
        hit = catalog.memo.premised = tuple(catalog.relations[rid] for rid in catalog.premised)
    return hit


def read_premise(catalog: "Catalog", rel: "Relation", cid: str, given: Mapping[str, "Given"]) -> Reading:
    """Premise ``cid`` of ``rel`` on the values of ``given`` (and the catalog's defaults, a convention's
    own value: a default that follows other quantities says nothing about a premise)."""
    cond: Condition = catalog.conditions[cid]
    values: list[tuple[str, sympy.Expr, str]] = []
    missing: list[str] = []
    for name in cond.symbols:
        g = given.get(name)
        if g is not None and not g.is_formula:
            values.append((name, g.value, g.origin))
            continue
        default = catalog.quantities[name].default
        if default is not None and default.same_as is None and default.value is not None:
            values.append((name, default.value, "default"))
        else:
            missing.append(name)
    ok: bool | None = None
    if not missing:
        env = {catalog.symbol(n): v for n, v, _ in values}
        left, right = value_at(cond.comparison.lhs, env), value_at(cond.comparison.rhs, env)
        ok = left is not None and right is not None and holds(cond.comparison.op, left, right)
    return Reading(rel.id, cid, tuple(values), tuple(missing), ok)


def excluded(catalog: "Catalog", given: Mapping[str, "Given"]) -> Mapping[str, Reading]:
    """The relations a question leaves out, each with the first premise its values contradict (do not
    modify the result). Found once per set of values of the premises' inputs (kept in the catalog's memo):
    every question reads them, and few questions change them."""
    key = tuple((name, _given_key(given.get(name))) for name in premise_inputs(catalog))
    memo = catalog.memo.premise_exclusions
    hit = memo.get(key)
    if hit is None:
        hit = {}
        for rel in _premised(catalog):
            for cid in rel.holds_when:
                reading = read_premise(catalog, rel, cid, given)
                if reading.holds is False:
                    hit[rel.id] = reading
                    break
        memo[key] = hit
        if len(memo) > catalog.memo.PREMISE_READINGS:
            memo.popitem(last=False)
    return hit


def premise_inputs(catalog: "Catalog") -> tuple[str, ...]:
    """Every input a premise reads, in a fixed order."""
    hit = catalog.memo.premise_inputs
    if hit is None:
        names = {s for rel in _premised(catalog) for cid in rel.holds_when for s in catalog.conditions[cid].symbols}
        hit = catalog.memo.premise_inputs = tuple(sorted(names))
    return hit


def _given_key(g: "Given | None") -> tuple:
    """What of a known value a premise reading depends on: the value and where it came from."""
    if g is None:
        return ()
    return ("formula",) if g.is_formula else (g.value, g.origin)


def readings(catalog: "Catalog", relation_ids: Iterable[str], given: Mapping[str, "Given"]) -> list[Reading]:
    """Every premise of the relations an answer used, read on its values (each relation once)."""
    out: list[Reading] = []
    for rid in dict.fromkeys(relation_ids):
        rel = catalog.relations.get(rid)
        if rel is not None:
            out.extend(read_premise(catalog, rel, cid, given) for cid in rel.holds_when)
    return out


def unsettled(catalog: "Catalog", relation_ids: Iterable[str], given: Mapping[str, "Given"]) -> list[Reading]:
    """The premises of the relations an answer used that its values say nothing about (nothing gives
    ``slice_wraps_x``): such an answer is not given; the inputs that would settle them are asked for."""
    return [r for r in readings(catalog, relation_ids, given) if r.holds is None]


def premise_notes(catalog: "Catalog", relation_ids: Iterable[str], given: Mapping[str, "Given"]) -> list["Note"]:
    """A note for each premise of the relations an answer used, with the values that decided it."""
    from ..records.solution import Note

    return [Note.of("premise", relation=r.relation, condition=r.condition, values=r.values)
            for r in readings(catalog, relation_ids, given)]


def _origin_text(origin: str) -> str:
    if origin == "given":
        return "given"
    if origin == "default":
        return "the catalog's default"
    return f"preset {origin.partition(':')[2]}"


def left_out_hint(catalog: "Catalog", readings: Mapping[str, Reading], target: str) -> str:
    """Why the relations ``target`` needs cannot be used: one clause per relation, naming the premise and
    the values that fail it, or the inputs that would decide it."""
    parts = []
    for rid, r in sorted(readings.items()):
        rel = catalog.relations[rid]
        cond = catalog.conditions[r.condition]
        if r.missing:
            why = f"and nothing gives {', '.join(r.missing)}"
        else:
            shown = ", ".join(f"{n} = {format_value(v, catalog.quantities[n].dims).text} ({_origin_text(o)})"
                              for n, v, o in r.values)
            why = f"but {shown}"
        parts.append(f"relation {rel.id} holds only where {cond.text} ({cond.name.en}), {why}")
    if not parts:
        return ""
    return f"{target} needs " + ("relations that hold only under a condition: " if len(parts) > 1 else
                                 "a relation that holds only under a condition: ") + "; ".join(parts)


_SMALL = (0, 1, 2, 4, 16)


def witness(catalog: "Catalog", rel: "Relation") -> dict[str, sympy.Integer]:
    """Small whole values of a relation's premise inputs under which all its premises hold (``{"axis_wraps":
    0, "ici_axes": 1}`` for a collective over a line): what a question about the relation alone must add.
    Empty for a relation without premises; raises ValueError when no small values satisfy them."""
    out: dict[str, sympy.Integer] = {}
    for cid in rel.holds_when:
        cond = catalog.conditions[cid]
        free = [n for n in cond.symbols if n not in out]
        allowed = [[v for v in _SMALL if v > 0 or catalog.quantities[n].minimum == 0] for n in free]
        for combo in product(*allowed):
            env = {catalog.symbol(n): v for n, v in out.items()}
            env.update({catalog.symbol(n): sympy.Integer(v) for n, v in zip(free, combo)})
            left, right = value_at(cond.comparison.lhs, env), value_at(cond.comparison.rhs, env)
            if left is not None and right is not None and holds(cond.comparison.op, left, right):
                out.update({n: sympy.Integer(v) for n, v in zip(free, combo)})
                break
        else:
            raise ValueError(f"{rel.id}: no small whole values satisfy its premise {cid}")
    return out
