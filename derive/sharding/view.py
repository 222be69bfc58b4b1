"""The view of a :class:`~derive.sharding.matmul.ShardingPlan`: plain data for ``derive shard``'s JSON and text.

One job: turn a plan (records and engine Solutions) into a dict of strings and numbers, the words
taken from ``templates/messages-shard.yaml`` in English, Chinese or both; ``templates/shard.txt.j2``
lays the same dict out as text. Nothing here decides or computes the plan.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import sympy

if TYPE_CHECKING:
    from ..records.solution import Solution
    from .matmul import Collective, ShardingPlan

__all__ = ["plan_to_dict", "render_plan"]


def _number(value: sympy.Expr) -> int | float:
    return int(value) if value.is_Integer else float(value)


def _regime_name(sol: "Solution") -> dict[str, str] | None:
    """The regime the engine found for ``sol`` (``latency-bound``), in both languages."""
    if sol.regime is None or sol.catalog is None:
        return None
    for step in sol.steps:
        if step.regime == sol.regime and step.relation in sol.catalog.relations:
            for reg in sol.catalog.relations[step.relation].regimes:
                if reg.id == sol.regime:
                    return {"en": reg.name.en, "zh": reg.name.zh}
    return None


def _answer(sol: "Solution", units: str, pick: Callable[[dict[str, str] | None], str]) -> dict[str, Any]:
    """One engine answer: the quantity, its value, how it reads, and the relations behind it."""
    return {"quantity": sol.target, "value": _number(sol.value), "unit": sol.unit, "display": sol.display(units),
            "exact": str(sol.value), "regime": sol.regime, "regime_name": pick(_regime_name(sol)),
            "relations_used": list(sol.relations_used)}


def _axes(axes: tuple[str, ...]) -> str:
    return "·".join(axes) if any(len(a) > 1 for a in axes) else "".join(axes)


def plan_to_dict(plan: "ShardingPlan", units: str = "si", lang: str = "en", templates: str | None = None
                 ) -> dict[str, Any]:
    """The plan as JSON-ready data; sentences and names in ``lang`` (``both``: Chinese / English)."""
    from ..writeup.render import message_function, pick, template_dirs

    msg = message_function(tuple(template_dirs(templates)))

    def name_of(texts: dict[str, str] | None) -> str:
        return pick(texts, lang) if texts else ""

    mm = plan.matmul

    def array(arr: Any) -> dict[str, Any]:
        return {"array": arr.name, "notation": arr.text(), "local_shape": list(plan.local_shape(arr))}

    collectives = []
    for c in plan.collectives:
        collectives.append({
            "kind": c.kind, "axes": list(c.axes), "array": c.array, "text": c.text(), "before": c.before.text(),
            "after": c.after.text(), "reasons": list(c.reasons), "cases": list(c.cases),
            "why": msg("shard_list_sep", lang).join(msg(f"shard_why_{r}", lang) for r in c.reasons),
            "bytes": _answer(c.bytes, units, name_of), "time": _answer(c.time, units, name_of),
            "regime": c.regime, "wraps": c.wraps, "wraps_assumed": c.wraps_assumed,
            "topology": _topology(plan, c, msg, lang),
        })
    comms = plan.comms_time
    from ..symbolic.units import format_value

    # seconds, the unit of the compute time the collectives are compared with
    comms_display = format_value(comms, plan.compute_time.dims, units, 4).text if plan.collectives else "0 s"
    ratio = float(plan.ratio)
    fields = {"comms": comms_display, "compute": plan.compute_time.display(units), "ratio": f"{ratio:.3g}"}
    if not plan.collectives:
        verdict = msg("shard_verdict_none", lang, **fields)
    else:
        verdict = msg("shard_verdict_hidden" if plan.hidden else "shard_verdict_exposed", lang, **fields)
    return {
        "notation": mm.text(),
        "mesh": dict(plan.mesh),
        "no_wraparound": list(plan.no_wraparound),
        "sizes": dict(plan.sizes),
        "hw": plan.hw,
        "contracting": mm.contracting,
        "case": plan.case,
        "cases": list(plan.cases),
        "summary": _sentences(plan, msg, lang),
        "operands": [array(mm.lhs), array(mm.rhs)],
        "local_matmul": {"lhs": array(plan.local_lhs), "rhs": array(plan.local_rhs), "out": array(plan.local_out)},
        "output": array(plan.output),
        "flops_per_chip": _answer(plan.flops, units, name_of),
        "compute_time": _answer(plan.compute_time, units, name_of),
        "collectives": collectives,
        "comms_time": {"value": _number(comms), "unit": "s", "display": comms_display, "exact": str(comms)},
        "ratio": ratio,
        "hidden": plan.hidden,
        "verdict": verdict,
        "assumed": _assumed(plan, units),
        "model": msg(_model_key(plan), lang, axes=", ".join(plan.no_wraparound)),
        "lines_on_hardware": list(plan.lines_on_hardware),
        "lines_from_hardware": list(plan.lines_from_hardware),
        "rings_assumed": [x for x in plan.mesh_map if any(c.wraps_assumed and x in c.axes for c in plan.collectives)],
        "hardware_note": _hardware_note(plan, msg, lang),
        "units": units,
    }


def _model_key(plan: "ShardingPlan") -> str:
    """Which sentence states the plan's model: rings only, rings and lines, or lines only."""
    if not plan.no_wraparound:
        return "shard_model"
    rings = [x for x, k in plan.mesh if k > 1 and x not in plan.no_wraparound]
    return "shard_model_lines" if rings else "shard_model_all_lines"


def _hardware_note(plan: "ShardingPlan", msg: Callable[..., str], lang: str) -> str:
    """What the chip's slice rule says about the axes timed: lines it makes so, rings assumed against it."""
    notes = []
    if plan.lines_from_hardware:
        notes.append(msg(f"shard_rule_{plan.wrap_rule}_lines", lang, hw=plan.hw, n=plan.wrap_rule_value,
                         axes=", ".join(plan.lines_from_hardware)))
    if plan.lines_on_hardware:
        notes.append(msg(f"shard_rule_{plan.wrap_rule}", lang, hw=plan.hw, n=plan.wrap_rule_value,
                         axes=", ".join(plan.lines_on_hardware)))
    return " ".join(notes)


def _topology(plan: "ShardingPlan", c: "Collective", msg: Callable[..., str], lang: str) -> str:
    """Whether a collective's axes wrap around: a ring (the chip's, or assumed), a line, or (several axes) one
    line through its chips."""
    axes = c.axes
    if c.wraps and c.wraps_assumed:
        why = "shard_assumed_told" if any(x in plan.lines_on_hardware for x in axes) else "shard_assumed_no_rule"
        return msg("shard_ring_assumed", lang, axes=_axes(axes), why=msg(why, lang))
    if c.wraps:
        return msg("shard_ring", lang, axes=_axes(axes))
    lines = ", ".join(x for x in axes if x in plan.no_wraparound)
    if len(axes) == 1:
        return msg("shard_line", lang, axes=lines)
    chips = 1
    for x in axes:
        chips *= plan.mesh_map[x]
    return msg("shard_line_several", lang, axes=_axes(axes), lines=lines, chips=chips)


def _sentences(plan: "ShardingPlan", msg: Callable[..., str], lang: str) -> list[str]:
    """One sentence per case met, in order, and one for a gather of the output."""
    mm = plan.matmul
    out = []
    gathered = {c.array: c for c in plan.collectives if c.kind == "AllGather"}
    for case in plan.cases:
        if case == 4:
            arr = mm.lhs if plan.gathered_for_conflict == mm.lhs.name else mm.rhs
            shared = tuple(x for x in mm.lhs.dim(mm.free_lhs).axes if x in mm.rhs.dim(mm.free_rhs).axes)
            why = (msg("shard_choice_output", lang, out=mm.out.text()) if plan.conflict_choice == "output"
                   and mm.out is not None else msg("shard_choice_smaller", lang))
            out.append(msg("shard_case_4", lang, lhs=mm.lhs.text(), rhs=mm.rhs.text(), axes=_axes(shared),
                           array=arr.text(), why=why))
        elif case == 1:
            out.append(msg("shard_case_1", lang, dim=mm.contracting, out=plan.local_out.text()))
        elif case == 2:
            sharded = [a for a in (mm.lhs, mm.rhs) if a.dim(mm.contracting).axes]
            if len(sharded) == 2:
                out.append(msg("shard_case_2_both", lang, lhs=mm.lhs.text(), rhs=mm.rhs.text(), dim=mm.contracting,
                               out=plan.local_out.text()))
            else:
                arr = sharded[0]
                out.append(msg("shard_case_2", lang, array=arr.text(), dim=mm.contracting,
                               axes=_axes(arr.dim(mm.contracting).axes), out=plan.local_out.text()))
        else:
            axes = _axes(mm.lhs.dim(mm.contracting).axes)
            reduced = [c for c in plan.collectives if "reduce" in c.reasons]
            key = "shard_case_3" if reduced else "shard_case_3_kept"
            out.append(msg(key, lang, dim=mm.contracting, axes=axes, out=plan.local_out.text()))
    for c in plan.collectives:
        if "output" in c.reasons and c is gathered.get(c.array):
            out.append(msg("shard_output_gather", lang, axes=_axes(c.axes), out=c.after.text()))
    return out


def _assumed(plan: "ShardingPlan", units: str) -> list[dict[str, str]]:
    """The catalog defaults the answers took (bytes per element), once each."""
    from ..writeup.present import given_notes

    seen: dict[str, dict[str, str]] = {}
    sols = [plan.flops, plan.compute_time, *(s for c in plan.collectives for s in (c.bytes, c.time))]
    for sol in sols:
        for g in sol.assumptions:
            note, note_zh = given_notes(sol.catalog, g) if sol.catalog is not None else (g.note, g.note_zh)
            seen.setdefault(g.name, {"name": g.name, "value": g.text, "note": note, "note_zh": note_zh})
    return list(seen.values())


def render_plan(plan: "ShardingPlan", lang: str = "en", units: str = "si", templates: str | None = None) -> str:
    """The plan as text, through ``templates/shard.txt.j2``."""
    from ..writeup.render import render_template

    view = plan_to_dict(plan, units=units, lang=lang, templates=templates)
    return render_template("shard.txt.j2", {"p": view, "lang": lang}, templates=templates)
