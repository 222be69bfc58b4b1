"""Plots of the engine's numbers (``derive plot KIND``): roofline, training memory, KV cache, hierarchy, curve.

::

    derive plot roofline --hw a100 --hw h100 --point "my kernel=12" -o roofline.png
    derive plot memory --model llama2-7b --hw a100 seq_len=2048 --lang zh -o memory.svg
    derive plot kv-cache --model llama2-70b --hw h100 num_devices=8 -o kv.pdf
    derive plot hierarchy --hw h100 --lang both
    derive plot topology --preset v5e-4x4 --route 0,0:3,3 -o slice.png
    derive plot curve --y allgather_time_ici bytes_per_shard=1kB:1GB:121:log --hw tpu-v5e-4x4 -o knee.png

Kinds:

* ``roofline``: attainable FLOP/s against arithmetic intensity on log-log axes
  for one or more chips, each ridge point labelled with its value, and the seed
  chapters' operations (a large matmul, a batch-1 matrix-vector product, an
  elementwise add, LayerNorm, softmax) plus any ``--point NAME=INTENSITY``;
* ``memory``: weights, gradients, optimizer state and activations of training
  against batch size, stacked, with the device memory as a line and the
  largest batch that fits marked (``seq_len`` defaults to 2048, ``num_devices`` to 1);
* ``kv-cache``: the KV cache against batch size, one line per sequence length
  (``--seq-len``, repeatable), with the HBM left after the weights as the limit
  and the largest batch that fits at each sequence length marked;
* ``hierarchy``: capacity and bandwidth of each memory level of one chip, on log axes;
* ``topology``: one XY plane of a TPU slice preset (``--preset v5e-4x4``): chips, ICI links,
  wraparound links as arcs, and with ``--route 0,0:3,3`` a dimension-ordered route and its hops;
* ``curve``: any quantities of one unit (``--y``, repeatable) against one input given as
  ``NAME=START:STOP:NUM[:log]``, one line per quantity and per value of an input given as
  ``NAME=V1,V2,...``; where the answer changes regime (latency- to bandwidth-bound, memory- to
  compute-bound) a dotted line marks the first point of the new regime. This one mechanism draws
  a collective's time against message size with its knee, a decode step against batch, the
  memory per chip of each ZeRO stage against the number of chips, each parallelism's critical
  batch on one figure.

The numbers come from the engine (``plot/data.py``), the drawing from
``plot/draw.py``, the words from ``templates/messages-plot.yaml`` and the
catalog (``--lang en``, ``zh`` or ``both``). Figures are drawn with matplotlib's
Agg canvas without importing pyplot; Chinese uses "Noto Sans CJK SC" when
matplotlib finds it, and a warning says so when it does not. PNG, SVG and PDF
output carry no timestamps, so the same figure gives the same file.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from ..errors import InputError

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from ..records.catalog import Catalog
    from .data import FrontData

__all__ = ["FORMATS", "KINDS", "figure", "front_figure", "plot", "save"]

KINDS = ("roofline", "memory", "kv-cache", "hierarchy", "curve", "topology")
_ALIASES = {"kv": "kv-cache", "kv_cache": "kv-cache", "training-memory": "memory", "memory-breakdown": "memory"}
FORMATS = ("png", "svg", "pdf")
CJK_FONT = "Noto Sans CJK SC"
SIZE = (8.0, 5.0)       # inches
DPI = 150


class FontWarning(UserWarning):
    """No CJK font was found: Chinese labels may show as empty boxes."""


def kind_of(name: str) -> str:
    k = _ALIASES.get(name, name)
    if k not in KINDS:
        raise InputError(f"unknown plot kind {name!r}; choose one of {', '.join(KINDS)}")
    return k


def _font_rc(lang: str) -> Any:   # matplotlib types rc keys as a Literal; these are known keys
    """rcParams for the figure: a CJK font first for Chinese, second (for fallback) for English."""
    from matplotlib import font_manager

    try:
        font_manager.findfont(font_manager.FontProperties(family=CJK_FONT), fallback_to_default=False)
        found = True
    except ValueError:
        found = False
    families = ["DejaVu Sans"]
    if found:
        families = [CJK_FONT, "DejaVu Sans"] if lang in ("zh", "both") else ["DejaVu Sans", CJK_FONT]
    elif lang in ("zh", "both"):
        warnings.warn(f"no CJK font ({CJK_FONT}) found by matplotlib; Chinese labels may show as boxes "
                      "(install fonts-noto-cjk)", FontWarning, stacklevel=3)
    # the families by name, not "sans-serif": a figure then draws the same outside this rc context
    return {"font.family": families, "axes.unicode_minus": False,
            "svg.hashsalt": "derive", "svg.fonttype": "path", "pdf.fonttype": 42}


def figure(kind: str, *, hw: Sequence[str] | str = (), model: str | None = None, lang: str = "en",
           given: Mapping[str, Any] | None = None, points: Mapping[str, str] | None = None,
           seq_lens: Sequence[int] | None = None, presets: Sequence[str] = (), y: Sequence[str] | str = (),
           route: str | None = None, catalog: "Catalog | None" = None) -> "Figure":
    """Draw one plot and return its matplotlib Figure (its data record is ``fig.derive_data``)."""
    import matplotlib
    from matplotlib.figure import Figure

    from . import data, draw

    kind = kind_of(kind)
    if lang not in ("en", "zh", "both"):
        raise InputError(f"unknown language {lang!r}; choose en, zh or both")
    chips = [hw] if isinstance(hw, str) else list(hw)
    if kind != "roofline" and len(chips) > 1:
        raise InputError(f"the {kind} plot is for one chip; give `hw` once")
    if points and kind != "roofline":
        raise InputError("`points` places an operation on the roofline; use it with 'derive plot roofline'")
    if presets and kind not in ("memory", "curve", "topology"):
        raise InputError("`presets` chooses the setup; use it with 'derive plot memory', 'curve' or 'topology'")
    if route and kind != "topology":
        raise InputError("`route` marks a route between two chips; use it with 'derive plot topology'")
    targets = [y] if isinstance(y, str) else list(y)
    if targets and kind != "curve":
        raise InputError("`y` names the quantities of the curve plot; use it with 'derive plot curve'")
    if seq_lens and kind != "kv-cache":
        raise InputError("`seq_lens` sets the lines of the KV cache plot; use it with 'derive plot kv-cache'")
    one = chips[0] if chips else ""
    record: Any
    painter: Callable[["Figure", Any, str], None]
    if kind == "roofline":
        record = data.roofline_data(chips, points, catalog=catalog)
        painter = draw.draw_roofline
        if given:
            raise InputError("the roofline takes no NAME=VALUE inputs; use `hw` and `points`")
    elif kind == "memory":
        record = data.memory_data(model or "", one, given, presets=presets, catalog=catalog)
        painter = draw.draw_memory
    elif kind == "topology":
        if len(presets) != 1:
            raise InputError("the topology plot draws one slice preset: give --preset ID (v5e-4x4, v5p-4x4x4, ...) "
                             "and an optional --route")
        if given or model:
            raise InputError("the topology plot draws the slice preset and a route only: drop "
                             + ("the NAME=VALUE inputs" if given else "--model"))
        from ..catalog.loader import load_catalog

        slice_chip = (catalog or load_catalog()).preset(presets[0]).hw
        for chip in chips:
            if chip != slice_chip:
                raise InputError(f"--hw {chip} is not the chip of slice {presets[0]}"
                                 + (f" ({slice_chip}); drop --hw, the slice brings its chip" if slice_chip else
                                    "; drop --hw: the topology plot draws the slice alone"))
        record = data.topology_data(presets[0], route, catalog=catalog)
        painter = draw.draw_topology
    elif kind == "curve":
        record = data.curve_data(targets, given, hw=one, model=model, presets=presets, catalog=catalog)
        painter = draw.draw_curve
    elif kind == "kv-cache":
        record = data.kv_data(model or "", one, given, seq_lens=seq_lens, catalog=catalog)
        painter = draw.draw_kv
    else:
        if given or model:
            raise InputError("the hierarchy plot takes only `hw`")
        record = data.hierarchy_data(one, catalog=catalog)
        painter = draw.draw_hierarchy
    with matplotlib.rc_context(_font_rc(lang)):
        fig = Figure(figsize=SIZE, dpi=DPI, layout="constrained")
        painter(fig, record, lang)
    fig.derive_data = record          # type: ignore[attr-defined]
    fig.derive_lang = lang            # type: ignore[attr-defined]
    return fig


def front_figure(data: "FrontData", lang: str = "en") -> "Figure":
    """A plan's Pareto plot (its record built by ``derive.documents.plan_report.front_data``) as a Figure."""
    import matplotlib
    from matplotlib.figure import Figure

    from .draw import draw_front

    if lang not in ("en", "zh", "both"):
        raise InputError(f"unknown language {lang!r}; choose en, zh or both")
    with matplotlib.rc_context(_font_rc(lang)):
        fig = Figure(figsize=SIZE, dpi=DPI, layout="constrained")
        draw_front(fig, data, lang)
    fig.derive_data = data          # type: ignore[attr-defined]
    fig.derive_lang = lang          # type: ignore[attr-defined]
    return fig


def save(fig: "Figure", path: str | Path) -> Path:
    """Write ``fig`` as PNG, SVG or PDF (by the file's suffix), without timestamps."""
    import matplotlib

    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise InputError(f"cannot write {path.name}: the plot file must end in .png, .svg or .pdf")
    metadata = {"png": {"Software": None}, "svg": {"Date": None, "Creator": None},
                "pdf": {"CreationDate": None, "Creator": None, "Producer": None}}[fmt]
    from ..storage.atomic import atomic_path

    with atomic_path(path, suffix=f".{fmt}") as tmp, \
            matplotlib.rc_context(_font_rc(getattr(fig, "derive_lang", "en"))):
        fig.savefig(tmp, format=fmt, metadata=metadata)
    return path


def plot(kind: str, output: str | Path, **options: Any) -> Path:
    """Draw a plot (see :func:`figure` for the options) and write it to ``output``."""
    return save(figure(kind, **options), output)
