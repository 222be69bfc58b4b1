"""``plan_training`` and ``plan_serving``: every layout a question allows, evaluated and ranked.

A plan never recommends a layout that does not fit: layouts are refused by reason (a degree that
does not divide what it splits, memory, an SLO) and the rest ranked by the objective. The best
layout's numbers are the catalog's layout relations; :meth:`Plan.solution` asks the engine for the
same quantity on that layout, so the derivation behind the winner is the engine's own.
"""

from __future__ import annotations

import math
import numbers
from collections import Counter
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, Mapping, Sequence

from ..errors import InputError, NoSolutionError
from .inputs import PlanInputs
from .layouts import RECOMPUTE, ZERO, LayoutTable, serving_layouts, training_layouts

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..records.catalog import Catalog
    from ..records.entries import Preset
    from ..records.solution import Solution

__all__ = ["Plan", "plan_serving", "plan_training"]

DOES_NOT_FIT = "does not fit in device memory"
TTFT_SLO = "time to first token above the SLO"
TPOT_SLO = "time per output token above the SLO"
NO_VALUE = "no value (a relation has none for this layout)"

TRAIN_OBJECTIVES = {"step_time": ("layout_step_time", 1), "mfu": ("layout_mfu", -1),
                    "cost": ("layout_step_cost", 1), "energy": ("layout_step_energy", 1)}

# the numbers of a training layout, in the order a table shows them: (json key, quantity)
TRAIN_QUANTITIES = (
    ("step_time", "layout_step_time"), ("mfu", "layout_mfu"), ("tokens_per_s", "layout_tokens_per_s"),
    ("compute_time", "layout_compute_time"), ("bubble", "pipeline_bubble_interleaved"),
    ("tp_comms_time", "layout_tp_comms_time"), ("ep_comms_time", "layout_ep_comms_time"),
    ("pp_comms_time", "layout_pp_comms_time"), ("dp_comms_time", "layout_dp_comms_time"),
    ("cp_comms_time", "layout_cp_comms_time"), ("attention_time", "layout_attention_time"),
    ("memory_per_device", "layout_memory_per_device"), ("weights", "layout_weight_bytes"),
    ("gradients", "layout_grad_bytes"), ("optimizer_state", "layout_optimizer_bytes"),
    ("activations", "layout_activation_bytes"),
)
TRAIN_COMPONENTS = (("weights", "layout_weight_bytes"), ("gradients", "layout_grad_bytes"),
                    ("optimizer_state", "layout_optimizer_bytes"), ("activations", "layout_activation_bytes"))
SERVE_QUANTITIES = (
    ("tpot", "serve_tpot"), ("ttft", "serve_ttft"), ("tokens_per_s", "serve_tokens_per_s"),
    ("kv_sequences", "serve_kv_sequences"), ("memory_per_device", "serve_memory_per_device"),
    ("weights", "serve_weight_bytes"), ("kv_cache", "serve_kv_bytes"), ("tp_comms_time", "serve_tp_comms_time"),
)
SERVE_COMPONENTS = (("weights", "serve_weight_bytes"), ("kv_cache", "serve_kv_bytes"))
TRAIN_AXES = ("data_parallel", "tensor_parallel", "pp_stages", "context_parallel", "expert_parallel",
              "micro_batch", "pp_microbatches", "pp_virtual_stages")
SHORT = {"data_parallel": "dp", "tensor_parallel": "tp", "pp_stages": "pp", "context_parallel": "cp",
         "expert_parallel": "ep", "micro_batch": "micro_batch", "pp_microbatches": "microbatches",
         "pp_virtual_stages": "virtual_stages", "batch": "batch"}
LONG = {v: k for k, v in SHORT.items()} | {"mb": "micro_batch", "v": "pp_virtual_stages", "m": "pp_microbatches"}


@dataclass
class Plan:
    """Every layout a plan evaluated, ranked: the table, the refusals by reason, the best and the front."""

    kind: str                                  # "train" or "serve"
    inputs: PlanInputs
    columns: dict[str, "np.ndarray"]           # layout axes and evaluated quantities, base units, one row a layout
    labels: dict[str, list[str]]
    feasible: "np.ndarray"                     # bool per row
    reason: "np.ndarray"                       # per row: "" or why it is refused
    order: "np.ndarray"                        # feasible rows, best first
    refused: Counter                           # reason -> layouts (structural ones never evaluated)
    objective: str
    pareto: "np.ndarray"                       # rows on the front (time or throughput against memory per device)
    fixed: dict[str, Any]                      # inputs every layout shares (typed, or chosen by the plan)
    assumed: dict[str, dict[str, str]] = field(default_factory=dict)   # name -> {en, zh}: what the plan chose
    structural: int = 0                        # layouts refused before evaluation
    links: dict[str, float] = field(default_factory=dict)   # gpus_per_node, nvlink_gpu_bw, network_chip_bw
    slo: dict[str, float] = field(default_factory=dict)     # serving: "ttft", "tpot" limits in seconds
    named: int | None = None                   # the row of the layout the user named

    # ------------------------------------------------------------------ reading rows
    @property
    def evaluated(self) -> int:
        return int(self.feasible.size)

    @property
    def best(self) -> int:
        if not self.order.size:
            raise NoSolutionError(self._none_fits())
        return int(self.order[0])

    @property
    def searched(self) -> int:
        """Layouts considered: those evaluated and those refused before (a degree that does not divide)."""
        return self.evaluated + self.structural

    def _none_fits(self) -> str:
        reasons = "; ".join(f"{r} ({n:,})" for r, n in self.refused.most_common(3))
        return f"none of the {self.searched:,} layouts searched can run: {reasons}"

    def layout(self, row: int) -> dict[str, Any]:
        """The layout of ``row`` as the plan names it (``dp``, ``tp``, ... and the recipe's names)."""
        c = self.columns
        if self.kind == "train":
            out: dict[str, Any] = {SHORT[a]: int(c[a][row]) for a in TRAIN_AXES}
            out["zero"] = int(c["zero_stage"][row])
            out["schedule"] = "interleaved-1f1b" if out["virtual_stages"] > 1 else "1f1b"
            out["recompute"] = self.labels["recompute"][int(c["recompute"][row])]
            return out
        return {"tp": int(c["tensor_parallel"][row]), "pp": int(c["pp_stages"][row]), "batch": int(c["batch"][row]),
                "precision": self.labels["precision"][int(c["precision"][row])],
                "replicas": int(c["replicas"][row])}

    def presets_for(self, row: int) -> list[str]:
        """The setup presets the layout of ``row`` runs with, after the question's own."""
        c = self.columns
        if self.kind == "train":
            return [*self.inputs.presets, ZERO[int(c["zero_stage"][row])],
                    RECOMPUTE[self.labels["recompute"][int(c["recompute"][row])]]]
        precision = self.labels["precision"][int(c["precision"][row])]
        return [*self.inputs.presets, precision] if precision not in self.inputs.presets else list(self.inputs.presets)

    def given_for(self, row: int) -> dict[str, Any]:
        """The inputs that make ``derive solve`` answer for the layout of ``row``: the question's and the axes."""
        c = self.columns
        names = TRAIN_AXES + ("tp_link_bw", "cp_link_bw", "ep_link_bw", "dp_link_bw", "pp_link_bw") \
            if self.kind == "train" else ("tensor_parallel", "pp_stages", "batch", "tp_link_bw")
        given = dict(self.fixed)
        for name in names:
            value = float(c[name][row])
            given[name] = f"{value:.17g} B/s" if name.endswith("_bw") else int(value)
        return given

    def numbers(self, row: int) -> dict[str, float]:
        pairs = TRAIN_QUANTITIES if self.kind == "train" else SERVE_QUANTITIES
        out = {key: float(self.columns[q][row]) for key, q in pairs if q in self.columns}
        for key, q in (("cost", "layout_step_cost"), ("energy", "layout_step_energy"),
                       ("cost_per_mtok", "serve_cost_per_mtok")):
            if q in self.columns:
                out[key] = float(self.columns[q][row])
        if self.kind == "serve":
            c = self.columns
            out["devices"] = int(c["devices"][row])
            out["batch"] = int(c["pp_stages"][row] * c["batch"][row])        # sequences in flight per replica
            out["tokens_per_s_per_replica"] = out["tokens_per_s"]
            out["tokens_per_s"] = out["tokens_per_s"] * int(c["replicas"][row])
            out["tokens_per_s_per_device"] = float(c["tokens_per_s_per_device"][row])
            out["kv_sequences"] = math.floor(out["kv_sequences"] * (1 + 1e-12))   # whole sequences at full context
        return out

    def fits(self, row: int) -> dict[str, Any]:
        """``{ok, need, have, by_component}`` for the layout of ``row`` (bytes per device)."""
        c = self.columns
        parts = TRAIN_COMPONENTS if self.kind == "train" else SERVE_COMPONENTS
        total = "layout_memory_per_device" if self.kind == "train" else "serve_memory_per_device"
        by = {key: float(c[q][row]) for key, q in parts}
        by["reserve"] = float(c[total][row]) - sum(by.values())
        need, have = float(c[total][row]), float(self.fixed_numbers["hbm_capacity"])
        return {"ok": bool(need <= have * (1 + 1e-12)), "need": need, "have": have, "by_component": by}

    @property
    def fixed_numbers(self) -> dict[str, float]:
        return {"hbm_capacity": self.inputs.needs("hbm_capacity", "the device memory every layout must fit in")}

    def rank_of(self, row: int) -> int | None:
        """1 for the best layout; None for a layout that is refused."""
        import numpy as np

        hits = np.nonzero(self.order == row)[0]
        return int(hits[0]) + 1 if hits.size else None

    def solution(self, row: int | None = None, target: str | None = None) -> "Solution":
        """The engine's own answer for a layout (the best by default): its step time, or its TPOT for serving."""
        from ..engine.solver import solve

        row = self.best if row is None else row
        target = target or ("layout_step_time" if self.kind == "train" else "serve_tpot")
        return solve(target, self.given_for(row), hw=self.inputs.hw, model=self.inputs.model,
                     presets=self.presets_for(row), catalog=self.inputs.catalog)

    def find(self, layout: Mapping[str, Any]) -> int:
        """The row of a layout named by its axes (``{"dp": 128, "tp": 8, "pp": 16}``); axes left out take
        whatever value ranks best. Refused with the reason when no evaluated layout matches."""
        import numpy as np

        mask = np.ones(self.feasible.size, dtype=bool)
        for key, value in layout.items():
            if key in ("zero",):
                mask &= self.columns["zero_stage"] == float(value)
            elif key in self.labels:
                names = self.labels[key]
                if value not in names:
                    raise InputError(f"--layout {key}={value}: {key} is one of {', '.join(names)}")
                mask &= self.columns[key] == float(names.index(value))
            elif key in ("recompute", "precision"):
                raise InputError(f"--layout {key}: not an axis of a {self.kind} plan")
            else:
                name = LONG.get(key, key)
                if name not in self.columns:
                    axes = ", ".join(sorted(set(SHORT.values()) | {"zero", "recompute"}))
                    raise InputError(f"--layout {key}: not an axis of a plan (axes: {axes})")
                mask &= self.columns[name] == float(value)
        rows = np.nonzero(mask)[0]
        if not rows.size:
            raise InputError(f"no layout the plan could run matches {_layout_text(layout)}: "
                             "its degrees must multiply to the devices and divide what they split")
        ranked = [r for r in self.order if mask[r]]
        if ranked:
            return int(ranked[0])
        return int(rows[0])

    # ------------------------------------------------------------------ output
    def top(self, k: int) -> list[int]:
        return [int(r) for r in self.order[:k]]

    def row_dict(self, row: int) -> dict[str, Any]:
        return {"layout": self.layout(row), **self.numbers(row), "fits": self.fits(row), "rank": self.rank_of(row)}

    def to_dict(self, top: int = 5) -> dict[str, Any]:
        """The plan as JSON data: best, top, named layout, Pareto front, counts of evaluated and refused layouts."""
        out: dict[str, Any] = {"kind": self.kind, "objective": self.objective,
                               "question": {"hw": self.inputs.hw, "model": self.inputs.model,
                                            "presets": list(self.inputs.presets),
                                            "given": {k: str(v) for k, v in self.inputs.given.items()}},
                               "assumed": {k: v["en"] for k, v in self.assumed.items()}}
        out["best"] = self.row_dict(self.best) if self.order.size else None
        out["top"] = [self.row_dict(r) for r in self.top(top)]
        if self.named is not None:
            named = self.row_dict(self.named)
            if named["rank"] is None:
                named["refused"] = str(self.reason[self.named])
            elif self.order.size:
                key = "step_time" if self.kind == "train" else "tokens_per_s_per_device"
                best, mine = self.numbers(self.best)[key], named[key]
                named["gap"] = (mine / best - 1) if self.kind == "train" else (1 - mine / best)
            out["named"] = named
        out["evaluated"] = self.evaluated
        out["searched"] = self.searched
        out["infeasible"] = dict(self.refused.most_common())
        out["pareto"] = [self.row_dict(int(r)) for r in self.pareto]
        return out

    def write_csv(self, out: IO[str]) -> None:
        """Every evaluated layout, one row each, base units; ``feasible`` and ``refused`` say which may run."""
        import numpy as np

        names = list(self.columns)
        out.write(",".join(names + ["feasible", "refused"]) + "\n")
        block = np.column_stack([self.columns[n] for n in names]) if names else np.empty((0, 0))
        for i in range(block.shape[0]):
            cells = [f"{v:.17g}" for v in block[i]]
            out.write(",".join(cells + [str(bool(self.feasible[i])).lower(), f'"{self.reason[i]}"']) + "\n")

    def write_npz(self, out: IO[bytes]) -> None:
        import json

        import numpy as np

        meta = {"kind": self.kind, "objective": self.objective, "labels": self.labels,
                "infeasible": dict(self.refused)}
        arrays: dict[str, Any] = dict(self.columns, feasible=self.feasible, reason=self.reason.astype("U"),
                                      meta=np.array(json.dumps(meta)))
        np.savez(out, **arrays)


def _layout_text(layout: Mapping[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in layout.items())


def _pareto(x: "np.ndarray", y: "np.ndarray", rows: "np.ndarray") -> "np.ndarray":
    """Rows not beaten on both x and y (both smaller is better), in increasing x."""
    import numpy as np

    if not rows.size:
        return rows
    order = rows[np.lexsort((y[rows], x[rows]))]
    front, best_y = [], math.inf
    for r in order:
        if y[r] < best_y:
            front.append(r)
            best_y = y[r]
    return np.array(front, dtype=np.int64)


def _links(inputs: PlanInputs) -> tuple[int, float, float]:
    """The NVLink domain size and the two bandwidths each axis may run over."""
    nic = inputs.number("network_chip_bw")
    nvlink = inputs.number("nvlink_gpu_bw")
    if nic is None or nvlink is None:
        raise InputError("a plan places each parallel axis on NVLink inside a node or on the NIC across nodes, so "
                         "it needs nvlink_gpu_bw and network_chip_bw: give --hw with a GPU preset (h100, b200, ...) "
                         "or both values; TPU slices are not planned yet")
    per_node = inputs.number("gpus_per_node")
    if per_node is None:
        per_node = 8
        inputs.assume("gpus_per_node")
    return int(per_node), nvlink, nic


def _is_moe(inputs: PlanInputs) -> int:
    experts = inputs.number("num_experts")
    return int(experts) if experts else 0


def plan_training(given: Mapping[str, Any] | None = None, *, hw: str | None = None,
                  model: "str | Preset | None" = None, presets: Sequence[str] = (), objective: str = "step_time",
                  zero: Sequence[int] = (0, 1, 2, 3), recompute: Sequence[str] = ("none", "selective", "full"),
                  micro_batches: Sequence[int] = (1, 2, 4, 8), layout: Mapping[str, Any] | None = None,
                  catalog: "Catalog | None" = None) -> Plan:
    """Search every training layout of ``num_devices`` devices for a step of ``batch_tokens`` tokens of
    ``seq_len`` each: data, tensor, pipeline, context and (MoE) expert parallel degrees, micro-batch
    size, virtual stages, ZeRO stage and recomputation. ``objective`` is step_time, mfu, cost (needs
    device_hour_price) or energy (needs device_power). ``layout`` names one layout to rank."""
    if objective not in TRAIN_OBJECTIVES:
        raise InputError(f"the objective of a training plan is one of {', '.join(TRAIN_OBJECTIVES)}, not {objective!r}")
    bad = [z for z in zero if z not in ZERO]
    if bad:
        raise InputError(f"ZeRO stages are 0, 1, 2 and 3, not {bad[0]!r}")
    bad_r = [r for r in recompute if r not in RECOMPUTE]
    if bad_r:
        raise InputError(f"recompute (activation recomputation) is one of {', '.join(RECOMPUTE)}, not {bad_r[0]!r}")
    bad_b = [b for b in micro_batches if isinstance(b, bool) or not isinstance(b, numbers.Integral) or b < 1]
    if bad_b:
        raise InputError(f"micro_batches are sequences per micro-batch, positive whole numbers, not {bad_b[0]!r}")
    inputs = PlanInputs.of(given, hw=hw, model=model, presets=presets, catalog=catalog)
    devices = inputs.whole("num_devices", "the devices to lay out")
    seq_len = inputs.whole("seq_len", "tokens per sequence")
    tokens = inputs.number("batch_tokens")
    if tokens is None:
        raise InputError("a plan needs batch_tokens (tokens per step); give batch_tokens=...")
    sequences = tokens / seq_len
    if not math.isfinite(sequences) or round(sequences) < 1:
        raise InputError(f"batch_tokens = {tokens:g} is less than one sequence of seq_len = {seq_len:,}")
    if sequences != int(sequences):         # "4e6 tokens" said loosely: the nearest whole number of sequences
        inputs.assume("batch_tokens", tokens=f"{tokens:,.0f}", sequences=f"{sequences:,.2f}", seq_len=f"{seq_len:,}",
                      whole=f"{round(sequences):,}", used=f"{round(sequences) * seq_len:,}")
        sequences = round(sequences)
    per_node, nvlink, nic = _links(inputs)
    _default_dtypes(inputs)
    table = training_layouts(devices=devices, sequences=int(sequences), seq_len=seq_len,
                             layers=inputs.whole("num_layers", "the layers pipeline stages split"),
                             heads=inputs.whole("num_heads", "the heads tensor parallelism splits"),
                             experts=_is_moe(inputs), per_node=per_node, nvlink=nvlink, nic=nic,
                             zero=zero, recompute=recompute, micro_batches=micro_batches)
    quantities = [q for _, q in TRAIN_QUANTITIES]
    if inputs.number("device_hour_price") is not None:
        quantities.append("layout_step_cost")
    elif objective == "cost":
        raise InputError("--objective cost needs a price: give device_hour_price=... (USD per device-hour)")
    if inputs.number("device_power") is not None:
        quantities.append("layout_step_energy")
    elif objective == "energy":
        raise InputError("--objective energy needs device_power=... (watts per device)")
    fixed = inputs.fixed_given(("num_devices", "batch_tokens", *TRAIN_AXES))
    if "gpus_per_node" in inputs.assumed:
        fixed.pop("gpus_per_node", None)
    columns = _evaluate_training(table, quantities, inputs, fixed)
    plan = _rank(inputs, "train", table, columns, objective, fixed)
    plan.links = {"gpus_per_node": per_node, "nvlink_gpu_bw": nvlink, "network_chip_bw": nic}
    if layout:
        plan.named = plan.find(layout)
    return plan


def _default_dtypes(inputs: PlanInputs) -> None:
    """Without a precision or optimizer preset, train as most runs do: bf16 with Adam in mixed precision."""
    added = [p for p, name in (("bf16", "act_bytes_per_element"), ("adam-mixed", "optimizer_bytes_per_param"))
             if inputs.number(name) is None]
    if added:
        inputs.presets = (*inputs.presets, *added)
        inputs.assume("dtypes", presets=", ".join(added))


def _recipe_axes(table: LayoutTable, inputs: PlanInputs) -> dict[str, "np.ndarray"]:
    """The ZeRO and recomputation presets' values as columns (their ``same_as`` read on each layout)."""
    import numpy as np

    c = table.columns
    catalog = inputs.catalog
    out: dict[str, np.ndarray] = {}
    zero = c["zero_stage"].astype(int)
    for name in ("weight_shards", "grad_shards", "optimizer_shards", "grad_collective_passes", "weight_gathers"):
        col = np.empty(zero.size)
        for stage, preset in ZERO.items():
            stage_value = catalog.preset(preset, "setup").values[name]
            sel = zero == stage
            if stage_value.value is not None:
                col[sel] = float(stage_value.value)
            elif stage_value.same_as == "data_parallel":
                col[sel] = c["data_parallel"][sel]
            elif stage_value.same_as == "2 * pp_microbatches":
                col[sel] = 2 * c["pp_microbatches"][sel]
            elif stage_value.same_as == "pp_microbatches":
                col[sel] = c["pp_microbatches"][sel]
            else:  # pragma: no cover - a preset this search does not read
                raise InputError(f"preset {preset}: {name} follows {stage_value.same_as}, which a plan does not "
                                 "evaluate")
        out[name] = col
    names = table.labels["recompute"]
    code = c["recompute"].astype(int)
    for name in ("activation_factor", "recompute_fraction"):
        col = np.empty(code.size)
        for i, scheme in enumerate(names):
            rv = catalog.preset(RECOMPUTE[scheme], "setup").values.get(name)
            default = catalog.quantity(name).default
            value = rv.value if rv is not None else (default.value if default is not None else None)
            if value is None:  # pragma: no cover - a preset this search does not read
                raise InputError(f"preset {RECOMPUTE[scheme]}: {name} has no number a plan can read")
            col[code == i] = float(value)
        out[name] = col
    return out


def _evaluate_training(table: LayoutTable, quantities: list[str], inputs: PlanInputs,
                       fixed: dict[str, Any]) -> dict[str, "np.ndarray"]:
    import numpy as np

    from .evaluate import evaluate

    c = dict(table.columns)
    recipe = _recipe_axes(table, inputs)
    axes_all = {k: v for k, v in c.items() if k not in ("zero_stage", "recompute")} | recipe
    out = {q: np.full(table.size, np.nan) for q in quantities}
    for group in (c["expert_parallel"] < 2, c["expert_parallel"] >= 2):
        rows = np.nonzero(group)[0]
        if not rows.size:
            continue
        axes = {k: v[rows] for k, v in axes_all.items()}
        values = evaluate(quantities, axes, fixed, hw=inputs.hw, model=inputs.model, presets=inputs.presets,
                          catalog=inputs.catalog)
        for q, v in values.items():
            out[q][rows] = v
    return {**c, **recipe, **out}


def _rank(inputs: PlanInputs, kind: str, table: LayoutTable, columns: dict[str, "np.ndarray"], objective: str,
          fixed: dict[str, Any], extra_checks: Sequence[tuple[str, "np.ndarray"]] = ()) -> Plan:
    import numpy as np

    capacity = inputs.needs("hbm_capacity", "the device memory every layout must fit in")
    total = columns["layout_memory_per_device" if kind == "train" else "serve_memory_per_device"]
    key, sign = (TRAIN_OBJECTIVES[objective] if kind == "train" else ("", 1))
    reason = np.full(table.size, "", dtype=object)
    checks = [(NO_VALUE, ~np.isfinite(total)), (DOES_NOT_FIT, total > capacity * (1 + 1e-12)), *extra_checks]
    for why, bad in checks:
        reason[(reason == "") & bad] = why
    feasible = reason == ""
    refused = Counter(table.refused)
    for why, _ in checks:
        n = int((reason == why).sum())
        if n:
            refused[why] += n
    rows = np.nonzero(feasible)[0]
    if kind == "train":
        score = sign * columns[key]
        order = rows[np.lexsort((total[rows], score[rows]))]
        front = _pareto(columns["layout_step_time"], total, rows)
    else:
        order = _serve_order(columns, rows, objective)
        front = _pareto(-columns["tokens_per_s_per_device"], total, rows)
    return Plan(kind, inputs, columns, dict(table.labels), feasible, reason, order, refused, objective, front,
                fixed, dict(inputs.assumed), sum(table.refused.values()))


def _serve_order(columns: dict[str, "np.ndarray"], rows: "np.ndarray", objective: str) -> "np.ndarray":
    import numpy as np

    per_device = columns["tokens_per_s_per_device"][rows]
    tpot = columns["serve_tpot"][rows]
    replica = columns["tensor_parallel"][rows] * columns["pp_stages"][rows]
    memory = columns["serve_memory_per_device"][rows]
    if objective == "devices":      # the fewest devices; among those the fastest tokens, then the most per device
        return rows[np.lexsort((memory, replica, -per_device, tpot, columns["devices"][rows]))]
    # the most per device; among equals the fastest tokens, then the smallest replica, then the least memory
    return rows[np.lexsort((memory, replica, tpot, -per_device))]


def plan_serving(given: Mapping[str, Any] | None = None, *, hw: str | None = None,
                 model: "str | Preset | None" = None, presets: Sequence[str] = (), slo_ttft: Any = None,
                 slo_tpot: Any = None, precisions: Sequence[str] | None = None,
                 layout: Mapping[str, Any] | None = None, catalog: "Catalog | None" = None) -> Plan:
    """Search serving replicas (tensor × pipeline degrees, batch, weight precision) for a prompt of ``seq_len``
    tokens and ``gen_tokens`` generated ones. With ``request_rate`` or ``concurrent_requests`` the plan finds
    the fewest devices that meet the SLOs; without, the most output tokens per second per device."""
    import numpy as np

    inputs = PlanInputs.of(given, hw=hw, model=model, presets=presets, catalog=catalog)
    inputs.whole("seq_len", "prompt tokens per request")
    inputs.whole("gen_tokens", "output tokens per request (output_len)")
    per_node, nvlink, nic = _links(inputs)
    chosen = [p for p in inputs.presets if inputs.catalog.preset(p, "setup").values.get("weight_bytes_per_param")]
    if precisions is None:
        precisions = chosen or [p for p in ("bf16", "fp8", "w4a16") if _precision_runs(inputs, p)]
    rest = [p for p in inputs.presets if p not in chosen]
    table = serving_layouts(layers=inputs.whole("num_layers", "the layers pipeline stages split"),
                            heads=inputs.whole("num_heads", "the heads tensor parallelism splits"),
                            per_node=per_node, nvlink=nvlink, nic=nic, precisions=list(precisions))
    quantities = [q for _, q in SERVE_QUANTITIES]
    if inputs.number("device_hour_price") is not None:
        quantities.append("serve_cost_per_mtok")
    rate = inputs.number("request_rate")
    users = inputs.number("concurrent_requests")
    if rate is not None and users is not None:
        raise InputError("give request_rate or concurrent_requests, not both: a plan sizes the fleet for one")
    if rate is not None:
        quantities.append("serve_replica_load")
    fixed = inputs.fixed_given(("num_devices", "tensor_parallel", "pp_stages", "batch", "concurrent_requests"))
    c = table.columns
    out = {q: np.full(table.size, np.nan) for q in quantities}
    from .evaluate import evaluate

    for i, precision in enumerate(precisions):
        rows = np.nonzero(c["precision"] == i)[0]
        axes = {k: c[k][rows] for k in ("tensor_parallel", "pp_stages", "batch", "tp_link_bw")}
        values = evaluate(quantities, axes, fixed, hw=inputs.hw, model=inputs.model, presets=[*rest, precision],
                          catalog=inputs.catalog)
        for q, v in values.items():
            out[q][rows] = v
    columns = {**c, **out}
    replica_devices = c["tensor_parallel"] * c["pp_stages"]
    if rate is not None:
        replicas = np.ceil(out["serve_replica_load"] * (1 - 1e-12))
    elif users is not None:
        replicas = np.ceil(users / (c["pp_stages"] * c["batch"]))
    else:
        replicas = np.ones(table.size)
    columns["replicas"] = np.maximum(replicas, 1)
    columns["devices"] = columns["replicas"] * replica_devices
    columns["tokens_per_s_per_device"] = out["serve_tokens_per_s"] / replica_devices
    checks = []
    slo: dict[str, float] = {}
    if slo_ttft is not None:
        slo["ttft"] = _seconds(inputs, slo_ttft, "slo_ttft")
        checks.append((TTFT_SLO, out["serve_ttft"] > slo["ttft"] * (1 + 1e-12)))
    if slo_tpot is not None:
        slo["tpot"] = _seconds(inputs, slo_tpot, "slo_tpot")
        checks.append((TPOT_SLO, out["serve_tpot"] > slo["tpot"] * (1 + 1e-12)))
    objective = "devices" if (rate is not None or users is not None) else "throughput"
    plan = _rank(inputs, "serve", table, columns, objective, fixed, checks)
    plan.slo = slo
    plan.links = {"gpus_per_node": per_node, "nvlink_gpu_bw": nvlink, "network_chip_bw": nic}
    if layout:
        plan.named = plan.find(layout)
    return plan


def _precision_runs(inputs: PlanInputs, preset: str) -> bool:
    """A precision the chip computes in: its preset's peak (fp8's ``peak_flops_fp8``) is known for this hardware."""
    values = inputs.catalog.preset(preset, "setup").values
    peak = values.get("peak_flops")
    return peak is None or peak.same_as is None or inputs.number(peak.same_as) is not None


def _seconds(inputs: PlanInputs, value: Any, name: str) -> float:
    """An SLO in seconds: a number of seconds or a time with its unit, positive and finite."""
    from ..catalog.values import parse_value
    from ..errors import ExpressionError, UnitError

    q = inputs.catalog.quantity("serve_tpot")
    wrong = f"`{name}` is a time such as 500ms or 0.05 s, not {value!r}"
    if isinstance(value, bool):
        raise InputError(wrong, name=name)
    if isinstance(value, (int, float)):
        seconds = float(value)
    else:
        try:
            seconds = float(parse_value(str(value), q, inputs.catalog.units))
        except (InputError, ExpressionError, UnitError):
            raise InputError(wrong, name=name) from None
    if not (math.isfinite(seconds) and seconds > 0):
        raise InputError(wrong, name=name)
    return seconds
