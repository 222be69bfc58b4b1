"""A plan's write-up: the search's verdict as prose, then the engine's derivations of the winner.

``plan_problem(plan)`` turns a :class:`~derive.planning.search.Plan` into a worked problem (the
same record a ``reports/*.yaml`` file makes): its statement says which layout wins, why the faster
layouts lose (they do not fit, or miss an SLO) and what the runner-up loses; its questions ask the
engine for the winner's numbers on that very layout, so every number in the write-up is derived
step by step. ``render_plan_report`` renders it in any report format and language. The words are
``templates/messages-plan.yaml``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from ..planning.search import Plan
    from ..plot.data import FrontData
    from .problems import Problem, ProblemQuestion

__all__ = ["front_data", "plan_problem", "render_plan_report"]

LANGS = ("en", "zh")
_TERMS = ("compute", "tp", "ep", "bubble", "pp", "dp", "cp")


def _say(table: dict[str, dict[str, str]], key: str, lang: str, **fields: Any) -> str:
    return table[key][lang].format(**fields)


def _both(table: dict[str, dict[str, str]], key: str, **fields: Any) -> dict[str, str]:
    """A message in both languages; a field given as ``{en, zh}`` is taken in each language."""
    return {lang: _say(table, key, lang, **{k: (v[lang] if isinstance(v, dict) else v) for k, v in fields.items()})
            for lang in LANGS}


def _time(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.3g} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds * 1e6:.3g} µs"


def _bytes(value: float) -> str:
    return f"{value / 1e9:.3g} GB"


def _count(value: float) -> str:
    return f"{value:,.0f}"


def _train_layout(table: dict[str, dict[str, str]], layout: dict[str, Any]) -> dict[str, str]:
    ep = _both(table, "plan_layout_ep", ep=layout["ep"]) if layout["ep"] > 1 else {"en": "", "zh": ""}
    virtual = _both(table, "plan_layout_virtual", v=layout["virtual_stages"]) if layout["virtual_stages"] > 1 \
        else {"en": "", "zh": ""}
    recompute = _both(table, f"plan_recompute_{layout['recompute']}")
    return _both(table, "plan_train_layout", dp=layout["dp"], tp=layout["tp"], pp=layout["pp"], cp=layout["cp"],
                 ep=ep, micro_batch=layout["micro_batch"], microbatches=layout["microbatches"], virtual=virtual,
                 zero=layout["zero"], recompute=recompute)


def _serve_layout(table: dict[str, dict[str, str]], layout: dict[str, Any]) -> dict[str, str]:
    return _both(table, "plan_serve_layout", tp=layout["tp"], pp=layout["pp"], batch=layout["batch"],
                 precision=layout["precision"])


def _terms(plan: "Plan", row: int) -> dict[str, float]:
    """The parts a step time adds up, in seconds (the bubble as the time it adds)."""
    c = plan.columns
    busy = c["layout_compute_time"][row] + c["layout_tp_comms_time"][row] + c["layout_ep_comms_time"][row]
    return {
        "compute": float(c["layout_compute_time"][row]), "tp": float(c["layout_tp_comms_time"][row]),
        "ep": float(c["layout_ep_comms_time"][row]),
        "bubble": float(busy * c["pipeline_bubble_interleaved"][row]), "pp": float(c["layout_pp_comms_time"][row]),
        "dp": float(max(c["layout_dp_comms_time"][row] - c["layout_compute_time"][row], 0.0)),
        "cp": float(max(c["layout_cp_comms_time"][row] - c["layout_attention_time"][row], 0.0)),
    }


def _question(plan: "Plan", row: int, qid: str, target: str, ask: dict[str, str]) -> "ProblemQuestion":
    from ..records.entries import Text
    from ..records.question import Question
    from .problems import ProblemQuestion

    question = Question.of(target, plan.given_for(row), hw=plan.inputs.hw, model=plan.inputs.model,
                           presets=plan.presets_for(row))
    return ProblemQuestion(qid, Text(ask["en"], ask["zh"]), question)


def _names(plan: "Plan") -> tuple[str, str]:
    catalog = plan.inputs.catalog
    model = catalog.preset(plan.inputs.model, "model").name.en if plan.inputs.model else "the model"
    hw = catalog.preset(plan.inputs.hw, "hw").name.en if plan.inputs.hw else "the devices"
    return model, hw


def plan_problem(plan: "Plan", templates: str | os.PathLike | None = None) -> "Problem":
    """The plan as a worked problem: the verdict in its statement, the winner's numbers as its questions."""
    from ..records.entries import Source, Text
    from ..writeup.render import message_table
    from .problems import Problem

    table = message_table(templates)
    best = plan.best
    model, hw = _names(plan)
    assumptions: list[dict[str, str]] = []
    assumptions.extend(dict(text) for text in plan.assumed.values())
    if plan.kind == "train":
        statement, questions, extra = _train(plan, table, best, model, hw)
        title = _both(table, "plan_train_title", model=model, hw=hw, devices=_count(plan.inputs.number("num_devices")
                                                                                     or 0))
    else:
        statement, questions, extra = _serve(plan, table, best, model, hw)
        title = _both(table, "plan_serve_title", model=model, hw=hw)
    assumptions = extra + assumptions
    return Problem(f"plan-{plan.kind}", Text(title["en"], title["zh"]), Text(statement["en"], statement["zh"]),
                   Source("megatron-lm-2021" if plan.kind == "train" else "scaling-book-inference"),
                   tuple(Text(a["en"], a["zh"]) for a in assumptions), tuple(questions))


def _train(plan: "Plan", table, best: int, model: str, hw: str):
    import numpy as np

    c = plan.columns
    step = c["layout_step_time"]
    layout = _train_layout(table, plan.layout(best))
    numbers = plan.numbers(best)
    evaluated_ok = np.isfinite(step)
    faster = np.nonzero(evaluated_ok & (step < step[best] * (1 - 1e-12)) & ~plan.feasible)[0]
    if faster.size:
        fastest = int(faster[np.argmin(step[faster])])
        fit = plan.fits(fastest)
        why = _both(table, "plan_why_faster_refused", faster=_count(faster.size),
                    layout=_train_layout(table, plan.layout(fastest)), step_time=_time(float(step[fastest])),
                    need=_bytes(fit["need"]), have=_bytes(fit["have"]))
    else:
        fastest, why = None, _both(table, "plan_why_fastest")
    runner_row = _runner_up(plan, best)
    if runner_row is not None:
        mine, theirs = _terms(plan, best), _terms(plan, runner_row)
        term = max(_TERMS, key=lambda k: theirs[k] - mine[k])
        runner = _both(table, "plan_runner", layout=_train_layout(table, plan.layout(runner_row)),
                       step_time=_time(float(step[runner_row])),
                       gap=f"{(step[runner_row] / step[best] - 1) * 100:.2g} %", term=_both(table, f"plan_term_{term}"),
                       delta=_time(theirs[term] - mine[term]))
    else:
        runner = _both(table, "plan_runner_none")
    statement = _both(table, "plan_train_statement", model=model, hw=hw,
                      devices=_count(plan.inputs.number("num_devices") or 0),
                      tokens=_count(plan.inputs.number("batch_tokens") or 0),
                      seq_len=_count(plan.inputs.number("seq_len") or 0), evaluated=_count(plan.evaluated),
                      searched=_count(plan.searched), feasible=_count(plan.order.size), layout=layout,
                      step_time=_time(numbers["step_time"]), mfu=f"{numbers['mfu'] * 100:.3g} %", why=why,
                      runner=runner)
    per_node, nvlink, nic = (int(plan.links["gpus_per_node"]), plan.links["nvlink_gpu_bw"],
                             plan.links["network_chip_bw"])
    extra = [
        _both(table, "plan_assume_links", per_node=per_node, nvlink=f"{nvlink / 1e9:.4g} GB/s",
              nic=f"{nic / 1e9:.4g} GB/s"),
        _both(table, "plan_assume_overlap", peak=f"{(plan.inputs.number('peak_flops') or 0) / 1e12:.4g} TFLOP/s",
              efficiency=f"{plan.inputs.number('kernel_efficiency') or 1:g}"),
        _both(table, "plan_assume_presets", presets=", ".join(plan.presets_for(best))),
    ]
    questions = [
        _question(plan, best, "step-time", "layout_step_time", _both(table, "plan_q_step", layout=layout)),
        _question(plan, best, "memory", "layout_memory_per_device", _both(table, "plan_q_memory")),
        _question(plan, best, "mfu", "layout_mfu", _both(table, "plan_q_mfu")),
    ]
    if runner_row is not None:
        questions.append(_question(plan, runner_row, "runner-up", "layout_step_time",
                                   _both(table, "plan_q_runner", layout=_train_layout(table, plan.layout(runner_row)))))
    if fastest is not None:
        questions.append(_question(plan, fastest, "fastest-refused", "layout_memory_per_device",
                                   _both(table, "plan_q_refused", layout=_train_layout(table, plan.layout(fastest)))))
    return statement, questions, extra


def _serve(plan: "Plan", table, best: int, model: str, hw: str):
    import numpy as np

    from ..planning.search import DOES_NOT_FIT, TPOT_SLO, TTFT_SLO

    c = plan.columns
    numbers = plan.numbers(best)
    layout = _serve_layout(table, plan.layout(best))
    per_device = c["tokens_per_s_per_device"]
    better = np.nonzero(np.isfinite(per_device) & (per_device > per_device[best] * (1 + 1e-12)) & ~plan.feasible)[0]
    if better.size:
        first = int(better[np.argmax(per_device[better])])
        reason_text = plan.reason[first]
        if reason_text == DOES_NOT_FIT:
            fit = plan.fits(first)
            reason = _both(table, "plan_serve_reason_fit", need=_bytes(fit["need"]), have=_bytes(fit["have"]))
        elif reason_text == TPOT_SLO:
            reason = _both(table, "plan_serve_reason_tpot", tpot=_time(float(c["serve_tpot"][first])))
        elif reason_text == TTFT_SLO:
            reason = _both(table, "plan_serve_reason_ttft", ttft=_time(float(c["serve_ttft"][first])))
        else:
            reason = {"en": str(reason_text), "zh": str(reason_text)}
        why = _both(table, "plan_serve_why", better=_count(better.size),
                    layout=_serve_layout(table, plan.layout(first)), reason=reason)
    else:
        why = _both(table, "plan_serve_why_best")
    runner_row = _runner_up(plan, best)
    runner = _both(table, "plan_serve_runner", layout=_serve_layout(table, plan.layout(runner_row)),
                   per_device=f"{per_device[runner_row]:,.0f}", tpot=_time(float(c["serve_tpot"][runner_row]))) \
        if runner_row is not None else _both(table, "plan_runner_none")
    limits = [f"TTFT ≤ {_time(v)}" for v in [plan.slo.get("ttft")] if v] + \
             [f"TPOT ≤ {_time(v)}" for v in [plan.slo.get("tpot")] if v]
    slo = _both(table, "plan_serve_slo", limits=", ".join(limits)) if limits else {"en": "", "zh": ""}
    sized = plan.objective == "devices"
    fleet = _both(table, "plan_serve_fleet", replicas=_count(c["replicas"][best]), devices=_count(c["devices"][best])) \
        if sized else {"en": "", "zh": ""}
    statement = _both(table, "plan_serve_statement", model=model, hw=hw,
                      seq_len=_count(plan.inputs.number("seq_len") or 0),
                      gen=_count(plan.inputs.number("gen_tokens") or 0), slo=slo, evaluated=_count(plan.evaluated),
                      searched=_count(plan.searched), feasible=_count(plan.order.size), layout=layout,
                      tpot=_time(numbers["tpot"]), ttft=_time(numbers["ttft"]),
                      per_device=f"{numbers['tokens_per_s_per_device']:,.0f}", fleet=fleet, why=why, runner=runner)
    extra = [_both(table, "plan_serve_assume", efficiency=f"{plan.inputs.number('kernel_efficiency') or 1:g}"),
             _both(table, "plan_assume_presets", presets=", ".join(plan.presets_for(best)) or "-")]
    questions = [
        _question(plan, best, "tpot", "serve_tpot", _both(table, "plan_q_tpot", layout=layout)),
        _question(plan, best, "ttft", "serve_ttft", _both(table, "plan_q_ttft")),
        _question(plan, best, "memory", "serve_memory_per_device", _both(table, "plan_q_serve_memory")),
        _question(plan, best, "tokens", "serve_tokens_per_s", _both(table, "plan_q_tokens")),
    ]
    return statement, questions, extra


def _runner_up(plan: "Plan", best: int) -> int | None:
    """The best layout that differs from the winner in its parallel degrees (or, for serving, its replica
    shape): a recipe of the same degrees that ties is not what the winner beats."""
    keys = ("dp", "tp", "pp", "cp", "ep") if plan.kind == "train" else ("tp", "pp", "batch", "precision")
    mine = {k: plan.layout(best)[k] for k in keys}
    for row in plan.order[1:]:
        theirs = plan.layout(int(row))
        if any(theirs[k] != mine[k] for k in keys):
            return int(row)
    return None


def render_plan_report(plan: "Plan", fmt: str, lang: str, *, command: str = "derive plan",
                       templates: str | os.PathLike | None = None) -> str:
    """The plan's write-up in one report format (md, html, tex, beamer) and language (en, zh, both);
    ``command`` is what regenerates it, named in the write-up's header."""
    from .report import render_report, report_context

    problem = plan_problem(plan, templates)
    context = dict(report_context(problem, plan.inputs.catalog), regenerate=command)
    return render_report(problem, fmt, lang, catalog=plan.inputs.catalog, templates=templates, context=context)


def front_data(plan: "Plan") -> "FrontData":
    """The plan's Pareto plot as plain arrays: step time (training) or output tokens per second per device
    (serving) against memory per device, every evaluated layout."""
    from ..plot.data import FrontData, words

    c = plan.columns
    model, hw = _names(plan)
    if plan.kind == "train":
        x, y, x_unit = c["layout_step_time"], c["layout_memory_per_device"], "s"
        title = words("plot_front_title_train", model=model, hw=hw,
                      devices=_count(plan.inputs.number("num_devices") or 0))
        x_name = words("plot_front_step_time")
    else:
        x, y, x_unit = c["tokens_per_s_per_device"], c["serve_memory_per_device"], "1/s"
        title = words("plot_front_title_serve", model=model, hw=hw)
        x_name = words("plot_front_per_device")
    subtitle = words("plot_front_subtitle", evaluated=_count(plan.evaluated), feasible=_count(plan.order.size))
    best_label = {lang: words("plot_front_best", layout=_short(plan.layout(plan.best)))[lang] for lang in LANGS}
    return FrontData(x, y, plan.feasible, plan.pareto, plan.best, plan.named,
                     plan.fits(plan.best)["have"], x_name, x_unit, title, subtitle, best_label)


def _short(layout: dict[str, Any]) -> str:
    """A layout in a few characters for a legend: its degrees (and batch), e.g. dp32·tp1·pp4·cp8."""
    keys = ("dp", "tp", "pp", "cp", "ep") if "dp" in layout else ("tp", "pp", "batch")
    return "·".join(f"{k}{layout[k]}" for k in keys if k in layout and (k != "ep" or layout[k] > 1))

