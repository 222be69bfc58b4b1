"""The numbers behind each plot, all from the engine: ``solve()``, sweeps, catalog presets.

Each ``*_data`` function returns a plain record of NumPy arrays and exact
values; ``plot/draw.py`` draws it. Nothing here is re-derived by hand: a curve
is a :func:`derive.sweep.grid.sweep` of a catalog quantity, a point is a
:func:`derive.solve`, a limit is a catalog condition's own side with the
engine's values put in. Labels are bilingual dicts (``{"en": ..., "zh": ...}``)
from the catalog or from ``templates/messages-plot.yaml``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..errors import DeriveError, InputError, NoSolutionError

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import sympy

    from ..records.catalog import Catalog

__all__ = ["CurveData", "FrontData", "HierarchyData", "KVData", "MemoryData", "RooflineData", "TopologyData",
           "curve_data", "hierarchy_data", "kv_data", "memory_data", "roofline_data", "topology_data"]

Text = dict  # {"en": ..., "zh": ...}

# The seed chapters' operations, placed on the roofline: (message key, quantity, inputs, setup presets).
# Matrix sizes are the chapter's (a 4096³ matmul; batch 1 against a 4096 x 4096 matrix);
# the elementwise operations are the catalog's op-* presets.
OPERATIONS: tuple[tuple[str, str, Mapping[str, int], tuple[str, ...]], ...] = (
    ("plot_op_large_matmul", "matmul_intensity", {"matmul_rows": 4096, "matmul_inner": 4096, "matmul_cols": 4096}, ()),
    ("plot_op_matvec", "matmul_intensity", {"matmul_rows": 1, "matmul_inner": 4096, "matmul_cols": 4096}, ()),
    ("plot_op_add", "elementwise_intensity", {}, ("op-add",)),
    ("plot_op_layernorm", "elementwise_intensity", {}, ("op-layernorm",)),
    ("plot_op_softmax", "elementwise_intensity", {}, ("op-softmax",)),
)

# memory levels of the hierarchy plot, from the registers outwards
LEVELS = ("register", "smem", "l2", "vmem", "hbm", "host", "nvlink", "ici", "pcie", "network")


@dataclass(frozen=True)
class FrontData:
    """A plan's Pareto plot (``derive plan ... --plot``), in base units: x a time (s) or a rate (1/s), y bytes
    per device; built from a plan by ``derive.documents.plan_report.front_data``."""

    x: "np.ndarray"
    y: "np.ndarray"
    feasible: "np.ndarray"
    front: "np.ndarray"          # rows on the front, in increasing x
    best: int
    named: int | None
    capacity: float
    x_name: Text
    x_unit: str                  # "s" or "1/s"
    title: Text
    subtitle: Text
    best_label: Text


def words(key: str, **fields: Any) -> Text:
    """A message from templates/messages*.yaml in both languages."""
    from ..writeup.render import message_function, template_dirs

    msg = message_function(tuple(template_dirs()))
    return {"en": msg(key, "en", **fields), "zh": msg(key, "zh", **fields)}


def _text(t) -> Text:
    return {"en": t.en, "zh": t.zh}


def _number(value: "sympy.Expr") -> float:
    return float(value.evalf(17))


def _shown(value: "sympy.Expr", dims) -> str:
    """The value with a readable prefix: decimal, or binary when that is shorter (256 KiB, not 262.144 kB)."""
    from ..symbolic.units import format_value

    si = format_value(value, dims, "si").text
    iec = format_value(value, dims, "iec").text
    return iec if len(iec) < len(si) else si


def _catalog(catalog: "Catalog | None") -> "Catalog":
    if catalog is not None:
        return catalog
    from ..catalog.loader import load_catalog

    return load_catalog()


# ---------------------------------------------------------------------------
# roofline


@dataclass(frozen=True)
class ChipRoofline:
    hw: str
    name: Text
    intensity: "np.ndarray"        # FLOP/B
    attainable: "np.ndarray"       # FLOP/s, the engine's attainable_flops at each intensity
    ridge: float                   # critical_ai_hbm, FLOP/B
    ridge_flops: float             # attainable_flops at the ridge (the peak)
    ridge_text: str                # "156 FLOP/B"


@dataclass(frozen=True)
class OperationPoint:
    key: str                       # message key or "user:NAME"
    label: Text
    intensity: float
    intensity_text: str
    attainable: dict[str, float]   # hw -> attainable_flops at this intensity


@dataclass(frozen=True)
class RooflineData:
    chips: tuple[ChipRoofline, ...]
    operations: tuple[OperationPoint, ...]
    title: Text


def roofline_data(hw: Sequence[str], points: Mapping[str, str] | None = None, *,
                  catalog: "Catalog | None" = None, samples: int = 400) -> RooflineData:
    """Rooflines of ``hw`` chips, their ridge points, the chapters' operations and the user's ``points``
    (name → intensity text such as ``"12"`` or ``"12 FLOP/B"``)."""
    import numpy as np

    from ..catalog.values import parse_value
    from ..engine.solver import solve
    from ..sweep.grid import sweep

    catalog = _catalog(catalog)
    if not hw:
        raise InputError("the roofline needs at least one chip: give `hw` ID (repeatable)")
    ai = catalog.quantities["arithmetic_intensity"]
    ops: list[tuple[str, Text, Any]] = []
    for key, target, given, presets in OPERATIONS:
        sol = solve(target, dict(given), presets=presets, catalog=catalog)
        n = given.get("matmul_inner", "")
        ops.append((key, words(key, n=n), sol.value))
    for name, text in (points or {}).items():
        ops.append((f"user:{name}", {"en": name, "zh": name}, parse_value(str(text), ai, catalog.units)))
    ridges = {h: solve("critical_ai", hw=h, catalog=catalog) for h in hw}
    intensities = [float(v.evalf(17)) for _, _, v in ops] + [r.float for r in ridges.values()]
    lo, hi = min(intensities) / 4, max(intensities) * 8
    grid = np.geomspace(lo, hi, samples)
    chips = []
    for h in hw:
        preset = catalog.preset(h, "hw")
        curve = sweep("attainable_flops", {"arithmetic_intensity": grid}, hw=h, catalog=catalog)
        ridge = ridges[h]
        peak = solve("attainable_flops", {"arithmetic_intensity": ridge.value}, hw=h, catalog=catalog)
        chips.append(ChipRoofline(h, _text(preset.name), grid, curve.values, ridge.float, peak.float,
                                  ridge.display()))
    points_out = []
    for key, label, value in ops:
        on = {h: solve("attainable_flops", {"arithmetic_intensity": value}, hw=h, catalog=catalog).float for h in hw}
        points_out.append(OperationPoint(key, label, _number(value), _shown(value, ai.dims), on))
    return RooflineData(tuple(chips), tuple(points_out), words("plot_roofline_title"))


# ---------------------------------------------------------------------------
# training memory against batch size


@dataclass(frozen=True)
class MemoryData:
    model: Text
    hw: Text
    batches: "np.ndarray"
    parts: tuple[tuple[str, Text, "np.ndarray"], ...]   # (quantity id, name, bytes at each batch)
    total: "np.ndarray"                                 # training_memory at each batch
    capacity: float                                     # the right side of training_fits
    capacity_text: str
    largest_batch: int | None                           # None: does not fit at any batch
    assumptions: Text
    title: Text


def _given_values(catalog: "Catalog", given: Mapping[str, Any]) -> dict[str, Any]:
    out = {}
    for k, v in given.items():
        out[catalog.quantity(str(k)).id] = v
    return out


def _condition_side(catalog: "Catalog", condition: str, side: str, values: Mapping[str, "sympy.Expr"],
                    solve_for: str | None = None) -> "sympy.Expr":
    """One side of a catalog condition (or the condition, as an equality, solved for ``solve_for``),
    with the engine's values put in."""
    import sympy

    cond = catalog.condition(condition)
    if solve_for:
        sym = sympy.Symbol(solve_for, positive=True)
        expr = sympy.solve(sympy.Eq(cond.comparison.lhs, cond.comparison.rhs), sym)[0]
    else:
        expr = cond.comparison.lhs if side == "lhs" else cond.comparison.rhs
    subs = {sympy.Symbol(k, positive=True): v for k, v in values.items()}
    out = expr.xreplace(subs)
    if out.free_symbols:
        raise InputError(f"{condition}: no value for {', '.join(sorted(s.name for s in out.free_symbols))}; "
                         "give it as NAME=VALUE")
    return out


def _exact_inputs(catalog: "Catalog", hw: str, given: Mapping[str, Any], names: Sequence[str]) -> dict:
    """The exact values of ``names`` as the engine takes them: typed values over the chip's preset."""
    from ..engine.steps import coerce_given

    preset = catalog.preset(hw, "hw")
    out = {}
    for n in names:
        if n in given:
            out[n] = coerce_given(catalog, catalog.quantities[n], given[n])[0]
        elif n in preset.values:
            out[n] = preset.values[n].value
    return out


DEFAULT_ACTIVATIONS = "chapter-activations"   # the bandwidth-wall chapter's estimate, unless told otherwise


def memory_data(model: str, hw: str, given: Mapping[str, Any] | None = None, *, presets: Sequence[str] = (),
                catalog: "Catalog | None" = None, batches: Sequence[int] | None = None) -> MemoryData:
    """Weights, gradients, optimizer state and activations of training ``model`` against batch size,
    the capacity of ``hw`` (times ``num_devices``) and the largest batch that fits.

    ``seq_len`` defaults to 2048 and ``num_devices`` to 1; without an activation
    estimate among ``presets`` or ``given``, the chapter's (``chapter-activations``) is used.
    Every default shows in the plot's subtitle."""
    import numpy as np

    from ..engine.solver import solve
    from ..sweep.grid import sweep

    catalog = _catalog(catalog)
    if not model or not hw:
        raise InputError("the memory plot needs `model` ID and `hw` ID")
    given = _given_values(catalog, given or {})
    given.setdefault("num_devices", 1)
    given.setdefault("seq_len", 2048)
    if "batch" in given:
        raise InputError("the memory plot sweeps the batch size itself; do not give batch")
    presets = tuple(presets)
    chosen = [catalog.preset(p) for p in presets]
    if "activation_factor" not in given and not any("activation_factor" in p.values for p in chosen) \
            and DEFAULT_ACTIVATIONS in catalog.presets:
        presets += (DEFAULT_ACTIVATIONS,)
        chosen.append(catalog.presets[DEFAULT_ACTIVATIONS])
    try:
        fit = solve("batch", given, hw=hw, bound="max", require=["training_fits"], model=model, presets=presets,
                    catalog=catalog)
        largest = int(fit.value)
    except NoSolutionError:
        largest = None
    if batches is None:
        top = max(16, 4 * (largest or 0))
        batches = [2 ** k for k in range(0, 13) if 2 ** k <= top]
        if 2 ** (len(batches) - 1) < top and len(batches) < 13:
            batches.append(2 ** len(batches))
    grid = np.asarray(batches, dtype=np.float64)
    parts = []
    for qid in ("weight_bytes", "grad_bytes", "optimizer_bytes"):
        sol = solve(qid, given, model=model, presets=presets, catalog=catalog)      # independent of the batch
        parts.append((qid, _text(catalog.quantities[qid].name), np.full(grid.shape, sol.float)))
    act = sweep("activation_bytes", {"batch": grid}, given, model=model, presets=presets, catalog=catalog)
    parts.append(("activation_bytes", _text(catalog.quantities["activation_bytes"].name), act.values))
    total = sweep("training_memory", {"batch": grid}, given, model=model, presets=presets, catalog=catalog)
    values = _exact_inputs(catalog, hw, given, ("num_devices", "hbm_capacity"))
    cap = _condition_side(catalog, "training_fits", "rhs", values)
    cap_text = _shown(cap, catalog.quantities["hbm_capacity"].dims)
    devices = int(values["num_devices"])
    hw_name = _text(catalog.preset(hw, "hw").name)
    model_name = _text(catalog.preset(model, "model").name)
    setups = {"en": ", ".join(p.name.en for p in chosen), "zh": "、".join(p.name.zh for p in chosen)}
    seq_len = int(_exact_inputs(catalog, hw, given, ("seq_len",))["seq_len"])   # as typed: 4e3, 4k, 2**12
    assumptions = words("plot_memory_assumptions", seq_len=f"{seq_len:,}", setups=setups)
    title = words("plot_memory_title", model=model_name, hw=hw_name, devices=devices)
    return MemoryData(model_name, hw_name, grid, tuple(parts), total.values, float(cap), cap_text, largest,
                      assumptions, title)


# ---------------------------------------------------------------------------
# KV cache against batch and sequence length


@dataclass(frozen=True)
class KVData:
    model: Text
    hw: Text
    batches: "np.ndarray"
    seq_lens: "np.ndarray"
    kv: "np.ndarray"                     # kv_cache_bytes, shape (len(seq_lens), len(batches))
    free: float                          # HBM left after the weights: the limit on the KV cache
    free_text: str
    largest_batch: "np.ndarray"          # per sequence length, NaN where not even one fits
    kv_at_largest: "np.ndarray"          # kv_cache_bytes at that batch
    assumptions: Text
    title: Text


def _whole_numbers(name: str, values: Sequence[Any]) -> "np.ndarray":
    """Whole numbers as float64, refusing one a 64-bit float cannot hold exactly (past 2^53 it rounds)."""
    import numpy as np

    out = np.asarray(values, dtype=np.float64)
    for given, held in zip(values, out.tolist()):
        if isinstance(given, int) and not isinstance(given, bool) and int(held) != given:
            raise InputError(f"{name}={given} is out of range: past 2^53 (about 9.0e15) a 64-bit float, which the plot "
                             "computes in, does not hold every whole number; give a smaller value")
    return out


def kv_data(model: str, hw: str, given: Mapping[str, Any] | None = None, *, seq_lens: Sequence[int] | None = None,
            catalog: "Catalog | None" = None) -> KVData:
    """The KV cache of ``model`` for batch x sequence length, against the HBM of ``hw`` left after the weights."""
    import numpy as np

    from ..engine.solver import solve
    from ..sweep.grid import sweep

    catalog = _catalog(catalog)
    if not model or not hw:
        raise InputError("the KV cache plot needs `model` ID and `hw` ID")
    given = _given_values(catalog, given or {})
    given.setdefault("num_devices", 1)
    for name in ("batch", "seq_len"):
        if name in given:
            raise InputError(f"the KV cache plot sweeps {name} itself; do not give it (use `seq_lens` for the lines)")
    from ..sweep.grid import MAX_VERIFY

    chosen = list(seq_lens or (1024, 4096, 16384, 65536))
    if len(chosen) > MAX_VERIFY:
        raise InputError(f"the KV cache plot draws a line per `seq_lens` value, each checked exactly: give at most "
                         f"{MAX_VERIFY}, not {len(chosen):,}")
    seqs = _whole_numbers("seq_len", chosen)
    fits = sweep("batch", {"seq_len": seqs}, given, model=model, hw=hw, bound="max", require=["kv_cache_fits"],
                 catalog=catalog, verify=len(seqs))
    largest = fits.values
    top = np.nanmax(largest) if np.isfinite(largest).any() else 64
    batches = np.asarray([2 ** k for k in range(0, 21) if 2 ** k <= max(64, 4 * top)], dtype=np.float64)
    kv = sweep("kv_cache_bytes", {"seq_len": seqs, "batch": batches}, given, model=model, catalog=catalog)
    at = []
    for s, b in zip(seqs, largest):
        if np.isfinite(b):
            at.append(solve("kv_cache_bytes", {**given, "seq_len": int(s), "batch": int(b)}, model=model,
                            catalog=catalog).float)
        else:
            at.append(np.nan)
    weights = solve("weight_bytes", given, model=model, catalog=catalog)
    values = _exact_inputs(catalog, hw, given, ("num_devices", "hbm_capacity"))
    values["weight_bytes"] = weights.value
    free = _condition_side(catalog, "kv_cache_fits", "", values, solve_for="kv_cache_bytes")
    hw_name = _text(catalog.preset(hw, "hw").name)
    model_name = _text(catalog.preset(model, "model").name)
    devices = int(values["num_devices"])
    title = words("plot_kv_title", model=model_name, hw=hw_name, devices=devices)
    return KVData(model_name, hw_name, batches, seqs, kv.values, float(free),
                  _shown(free, catalog.quantities["kv_cache_bytes"].dims), largest, np.asarray(at),
                  words("plot_kv_assumptions", weights=_shown(weights.value, weights.dims)), title)


# ---------------------------------------------------------------------------
# memory hierarchy


@dataclass(frozen=True)
class HierarchyData:
    hw: Text
    levels: tuple[str, ...]
    names: tuple[Text, ...]
    capacity: "np.ndarray"               # B, NaN where the chip has no value
    capacity_text: tuple[str, ...]
    bandwidth: "np.ndarray"              # B/s, NaN where the chip has no value
    bandwidth_text: tuple[str, ...]
    title: Text
    derived: tuple[str, ...] = field(default=())   # quantity ids the engine derived (not in the preset)


def _chip_value(catalog: "Catalog", hw: str, qid: str) -> tuple["sympy.Expr | None", bool]:
    """The preset's own value, else what the engine derives from the preset; (None, False) if neither."""
    from ..engine.solver import solve

    if qid not in catalog.quantities:
        return None, False
    preset = catalog.preset(hw, "hw")
    if qid in preset.values:
        return preset.values[qid].value, False
    try:
        return solve(qid, hw=hw, catalog=catalog).value, True
    except DeriveError:
        return None, False


def hierarchy_data(hw: str, *, catalog: "Catalog | None" = None) -> HierarchyData:
    """Capacity and bandwidth of each memory level of ``hw`` that has either."""
    import numpy as np

    catalog = _catalog(catalog)
    if not hw:
        raise InputError("the hierarchy plot needs `hw` ID")
    preset = catalog.preset(hw, "hw")
    levels, names, caps, cap_t, bws, bw_t, derived = [], [], [], [], [], [], []
    for level in LEVELS:
        cap, cap_derived = _chip_value(catalog, hw, f"{level}_capacity")
        bw, bw_derived = _chip_value(catalog, hw, f"{level}_bw")
        if cap is None and bw is None:
            continue
        levels.append(level)
        names.append(words(f"plot_level_{level}"))
        caps.append(_number(cap) if cap is not None else np.nan)
        cap_t.append(_shown(cap, catalog.quantities[f"{level}_capacity"].dims) if cap is not None else "")
        bws.append(_number(bw) if bw is not None else np.nan)
        bw_t.append(_shown(bw, catalog.quantities[f"{level}_bw"].dims) if bw is not None else "")
        derived += [f"{level}_capacity"] * cap_derived + [f"{level}_bw"] * bw_derived
    if not levels:
        raise InputError(f"{hw} has no memory capacities or bandwidths in the catalog")
    name = _text(preset.name)
    title = words("plot_hierarchy_title", hw=name)
    return HierarchyData(name, tuple(levels), tuple(names), np.asarray(caps), tuple(cap_t), np.asarray(bws),
                         tuple(bw_t), title, tuple(derived))


# ---------------------------------------------------------------------------
# any quantity against one input: the general curve


MAX_CURVE_POINTS = 400      # points per line (each regime change is found by solving every point exactly)
MAX_CURVE_LINES = 12


@dataclass(frozen=True)
class CurveSeries:
    label: Text
    xs: "np.ndarray"
    ys: "np.ndarray"                     # NaN where the engine has no value
    changes: tuple[tuple[float, Text], ...]   # (first x of a new regime, the regime's name)


@dataclass(frozen=True)
class CurveData:
    x_name: Text
    x_unit: str
    y_name: Text
    y_unit: str
    x_log: bool
    y_log: bool
    series: tuple[CurveSeries, ...]
    title: Text
    assumptions: Text


def _regime_names(catalog: "Catalog", sol: Any) -> tuple[tuple[str, Text], ...]:
    """The regimes the answer's steps are in, as (id, name) pairs."""
    out = []
    for step in sol.steps:
        if step.regime and step.relation in catalog.relations:
            rel = catalog.relations[step.relation]
            reg = next((r for r in rel.regimes if r.id == step.regime), None)
            if reg is not None:
                out.append((f"{step.relation}:{reg.id}", _text(reg.name)))
    return tuple(out)


def curve_data(targets: Sequence[str], given: Mapping[str, Any] | None = None, *, hw: str = "",
               model: str | None = None, presets: Sequence[str] = (), catalog: "Catalog | None" = None) -> CurveData:
    """``targets`` (one unit) against the one input given as ``START:STOP:NUM[:log]``, one line per target
    and per value of an input given as ``V1,V2,...``; where an answer changes regime (compute- to
    memory-bound, latency- to bandwidth-bound) the first point of the new regime is marked."""
    import numpy as np

    from ..sweep.grid import is_sweep_spec, parse_axis, sweep

    catalog = _catalog(catalog)
    if not targets:
        raise InputError("the curve plot needs a quantity to draw: give `y` (derive plot curve --y QUANTITY)")
    given = dict(given or {})
    specs = {k: str(v) for k, v in given.items() if isinstance(v, str) and is_sweep_spec(v)}
    ranges = [k for k, v in specs.items() if ":" in v]
    lists = [k for k, v in specs.items() if ":" not in v]
    if len(ranges) != 1:
        raise InputError("the curve plot sweeps one input along x: give exactly one NAME=START:STOP:NUM[:log]")
    if len(lists) > 1:
        raise InputError("the curve plot draws one line per value of at most one input: give one NAME=V1,V2,...")
    x = ranges[0]
    x_axis = parse_axis(x, specs[x], catalog)
    if x_axis.values.size > MAX_CURVE_POINTS:
        raise InputError(f"a curve has at most {MAX_CURVE_POINTS} points; {x} asks for {x_axis.values.size}")
    line_name = lists[0] if lists else None
    line_values = [v.strip() for v in specs[line_name].split(",")] if line_name else [None]
    if len(targets) * len(line_values) > MAX_CURVE_LINES:
        raise InputError(f"a curve plot has at most {MAX_CURVE_LINES} lines (quantities times values)")
    fixed = {k: v for k, v in given.items() if k not in specs}
    quantities = [catalog.quantity(t) for t in targets]
    dims = quantities[0].dims
    for q in quantities[1:]:
        if q.dims != dims:
            raise InputError(f"the curve plot draws quantities of one unit: {quantities[0].id} is in "
                             f"{dims.unit_string()}, {q.id} in {q.dims.unit_string()}")
    series = []
    for q in quantities:
        for value in line_values:
            inputs = dict(fixed)
            if line_name is not None and value is not None:
                inputs[line_name] = value
            result = sweep(q.id, {x: x_axis.values}, inputs, hw=hw or None, model=model, presets=presets,
                           verify=2, catalog=catalog)
            ys = np.asarray(result.values, dtype=np.float64).ravel()
            changes: list[tuple[float, Text]] = []
            if _regime_names(catalog, result.solve_at(0)):
                last = None
                for i in range(ys.size):
                    if not np.isfinite(ys[i]):
                        continue
                    try:
                        regimes = _regime_names(catalog, result.solve_at(i))
                    except DeriveError:
                        continue
                    if last is not None and regimes != last:
                        new = [name for key, name in regimes if (key, name) not in last] or [regimes[-1][1]]
                        changes.append((float(result.axes[0].values[i]), new[-1]))
                    last = regimes
            label = _text(q.name)
            if line_name is not None and value is not None:
                line_q = catalog.quantities[line_name]
                sub = {"en": f"{line_q.name.en} = {value}", "zh": f"{line_q.name.zh} = {value}"}
                label = sub if len(quantities) == 1 else {k: f"{label[k]}, {sub[k]}" for k in label}
            series.append(CurveSeries(label, np.asarray(result.axes[0].values, dtype=np.float64), ys, tuple(changes)))
    finite = np.concatenate([s.ys[np.isfinite(s.ys) & (s.ys > 0)] for s in series])
    y_log = bool(x_axis.spec.endswith("log") and finite.size and finite.max() / finite.min() > 100)
    xq = catalog.quantities[x]
    kind = {"B": "data", "FLOP": "compute", "s": "time", "B/s": "bandwidth", "FLOP/s": "throughput",
            "1": "number"}.get(dims.unit_string(), "value")
    y_name = _text(quantities[0].name) if len(quantities) == 1 else words(f"plot_axis_kind_{kind}")
    setting = [p for p in (hw, model, *presets) if p] + [f"{k} = {v}" for k, v in fixed.items()]
    return CurveData(_text(xq.name), xq.dims.unit_string(), y_name, dims.unit_string(), x_axis.spec.endswith("log"),
                     y_log, tuple(series), words("plot_curve_title", y=y_name, x=_text(xq.name)),
                     {"en": "; ".join(setting), "zh": "; ".join(setting)})   # names and values: one text


# ---------------------------------------------------------------------------
# the topology of a TPU slice


AXES = ("x", "y", "z")
MAX_TOPOLOGY_CHIPS = 1024     # chips drawn in one plane (a 32 x 32 plane)


@dataclass(frozen=True)
class TopologyData:
    name: Text
    sizes: tuple[int, int, int]          # chips along X, Y, Z
    wraps: tuple[bool, bool, bool]
    route: tuple[tuple[int, ...], ...]    # chips visited, from the first to the last ((x, y, z) each); empty: none
    hops: tuple[int, int, int]            # per axis, as the engine counts them for the route
    total_hops: int                       # the engine's p2p_hops
    title: Text
    notes: Text


def _axis_path(a: int, b: int, size: int, wraps: bool) -> list[int]:
    """Positions from ``a`` to ``b`` along one axis: the direct way, or round the wraparound when shorter."""
    direct = b - a
    if wraps and abs(direct) > size - abs(direct):
        step = -1 if direct > 0 else 1
        out, p = [], a
        while p != b:
            p = (p + step) % size
            out.append(p)
        return out
    step = 1 if direct > 0 else -1
    return list(range(a + step, b + step, step)) if direct else []


def topology_data(preset: str, route: str | None = None, *, catalog: "Catalog | None" = None) -> TopologyData:
    """The chips and links of a slice preset (``v5e-4x4``): one XY plane, which axes wrap, and a
    dimension-ordered route between two chips (``"0,0:3,3"``) with the engine's hop count."""
    from ..engine.solver import solve

    catalog = _catalog(catalog)
    p = catalog.preset(preset)
    values: dict[str, Any] = {k: v.value for k, v in p.values.items() if v.value is not None}
    if "slice_axis_x" not in values:
        slices = ", ".join(sorted(k for k, v in catalog.presets.items() if "slice_axis_x" in v.values)[:6])
        raise InputError(f"the topology plot draws a TPU slice: {preset} has no slice shape; use one of {slices}, ...")
    sx, sy, sz = (int(values.get(f"slice_axis_{a}", 1)) for a in AXES)
    wx, wy, wz = (bool(values.get(f"slice_wraps_{a}", 0)) for a in AXES)
    sizes, wraps = (sx, sy, sz), (wx, wy, wz)
    if sizes[0] * sizes[1] > MAX_TOPOLOGY_CHIPS:
        raise InputError(f"the topology plot draws at most {MAX_TOPOLOGY_CHIPS} chips in a plane; "
                         f"{preset} has {sizes[0]} x {sizes[1]}")
    path: list[tuple[int, ...]] = []
    hops = (0, 0, 0)
    total = 0
    if route:
        ends = route.split(":")
        try:
            points = [tuple(int(c) for c in end.split(",")) for end in ends]
        except ValueError:
            points = []
        if len(points) != 2 or any(len(pt) not in (2, 3) for pt in points):
            raise InputError(f"malformed route {route!r}: write FROM:TO with chip coordinates, e.g. 0,0:3,3")
        a, b = [tuple(list(pt) + [0] * (3 - len(pt))) for pt in points]
        for pt in (a, b):
            if any(not 0 <= c < n for c, n in zip(pt, sizes)):
                raise InputError(f"chip {','.join(map(str, pt))} is not in the {'x'.join(map(str, sizes))} slice")
        path = [a]
        current = list(a)
        for i in range(3):                         # dimension-ordered: X, then Y, then Z
            for pos in _axis_path(a[i], b[i], sizes[i], wraps[i]):
                current[i] = pos
                path.append(tuple(current))
        # the hop counts are the engine's, from the two chips' coordinates and the preset's wraparound
        chips: dict[str, int] = {**{f"src_chip_{ax}": c for ax, c in zip(AXES, a)},
                                 **{f"dst_chip_{ax}": c for ax, c in zip(AXES, b)}}
        hx, hy, hz = (int(solve(f"hops_{ax}", chips, presets=[preset], catalog=catalog).value) for ax in AXES)
        hops = (hx, hy, hz)
        total = int(solve("p2p_hops", chips, presets=[preset], catalog=catalog).value)
    name = _text(p.name)
    shape = " x ".join(str(n) for n in sizes if n > 1) or "1"
    title = words("plot_topology_title", name=name) if not path else \
        words("plot_topology_route_title", name=name, a=",".join(map(str, path[0][:2 if sizes[2] == 1 else 3])),
              b=",".join(map(str, path[-1][:2 if sizes[2] == 1 else 3])), hops=total)
    wrap_words = []
    for ax, n, w in zip(AXES, sizes, wraps):
        if n > 1:
            wrap_words.append(words("plot_axis_wraps" if w else "plot_axis_line", axis=ax.upper(), n=n))
    notes = {lang: ("; " if lang == "en" else "；").join(w[lang] for w in wrap_words) for lang in ("en", "zh")}
    if sizes[2] > 1:
        extra = words("plot_topology_planes", n=sizes[2])
        notes = {lang: notes[lang] + ("; " if lang == "en" else "；") + extra[lang] for lang in ("en", "zh")}
    del shape
    return TopologyData(name, sizes, wraps, tuple(path), hops, total, title, notes)
