"""Draw the records of ``plot/data.py`` on a matplotlib Figure: layout and words, no numbers of its own.

Every artist that carries an engine number has a ``gid`` (``roofline:a100``,
``ridge:a100``, ``op:plot_op_add``, ``part:weight_bytes``, ``total``,
``capacity``, ``kv:4096``, ``free_hbm``, ``largest``, ``capacity_points``,
``bandwidth_points``) so that tests read the plotted values back from the
figure's data (``Line2D.get_xydata``, bar rectangles), not from pixels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from .data import CurveData, FrontData, HierarchyData, KVData, MemoryData, RooflineData, TopologyData

__all__ = ["draw_curve", "draw_front", "draw_hierarchy", "draw_kv", "draw_memory", "draw_roofline", "draw_topology"]

COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
MARKERS = ("s", "D", "^", "v", "P", "X", "*", "h", "<", ">")


def _say(texts: dict, lang: str, sep: str = " / ") -> str:
    from ..writeup.render import pick

    return pick(texts, lang, sep)


def _word(key: str, lang: str, sep: str = " / ", **fields: Any) -> str:
    """A message in ``lang``; with ``both``, Chinese then English joined by ``sep`` (a newline for
    titles and notes on the plot, " / " for legends and axes)."""
    from .data import words

    return _say(words(key, **fields), lang, sep)


def _entry(name: dict, value: str, lang: str) -> str:
    """A legend entry "name: value"; with ``both``, the two names share one value."""
    if lang == "both":
        return _word("plot_op_entry", "en", name=_say(name, "both"), value=value)
    return _word("plot_op_entry", lang, name=name, value=value)


NL = "\n"


def _literal(label: dict) -> dict:
    """A user's label shown as typed: ``$`` would start matplotlib's math mode."""
    return {k: v.replace("$", r"\$") for k, v in label.items()}


def _eng(unit: str):
    from matplotlib.ticker import EngFormatter

    return EngFormatter(unit=unit, sep=" ")


def _title(ax, title: str, subtitle: str = "") -> None:
    ax.set_title(title, fontsize=12, pad=18 if subtitle else 8)
    if subtitle:
        ax.text(0.5, 1.01, subtitle, transform=ax.transAxes, ha="center", va="bottom", fontsize=9, color="0.35")


# ---------------------------------------------------------------------------


def draw_roofline(fig: "Figure", data: "RooflineData", lang: str) -> None:
    ax = fig.add_subplot()
    ax.set_xscale("log")
    ax.set_yscale("log")
    for i, chip in enumerate(data.chips):
        color = COLORS[i % len(COLORS)]
        ax.plot(chip.intensity, chip.attainable, color=color, lw=2.2, label=_say(chip.name, lang),
                gid=f"roofline:{chip.hw}", zorder=2)
        ax.plot([chip.ridge], [chip.ridge_flops], "o", color=color, ms=7, gid=f"ridge:{chip.hw}", zorder=4)
        # below and right of the knee: under its own flat line, clear of the other chips' slopes
        ax.annotate(_word("plot_ridge", lang, NL, value=chip.ridge_text), xy=(chip.ridge, chip.ridge_flops),
                    xytext=(8, -10), textcoords="offset points", fontsize=9, color=color,
                    ha="left", va="top")
    lows = []
    for j, op in enumerate(data.operations):
        hws = [c.hw for c in data.chips]
        ys = [op.attainable[h] for h in hws]
        lows.extend(ys)
        ax.plot([op.intensity] * len(ys), ys, linestyle="none", marker=MARKERS[j % len(MARKERS)], ms=8,
                mfc="white", mec="0.15", mew=1.4, gid=f"op:{op.key}", zorder=5,
                label=_entry(_literal(op.label) if op.key.startswith("user:") else op.label, op.intensity_text, lang))
        ax.axvline(op.intensity, color="0.6", lw=0.6, ls=":", zorder=1)
    peak = max(c.ridge_flops for c in data.chips)
    ax.set_ylim(min(lows) / 4, peak * 3)
    ax.set_xlim(data.chips[0].intensity[0], data.chips[0].intensity[-1])
    ax.yaxis.set_major_formatter(_eng("FLOP/s"))
    ax.minorticks_off()        # ten decades of minor ticks cost more to lay out than they help
    ax.set_xlabel(_word("plot_axis_intensity", lang))
    ax.set_ylabel(_word("plot_axis_attainable", lang))
    ax.grid(True, which="major", color="0.88", lw=0.8)
    ax.text(0.02, 0.97, _word("plot_memory_bound", lang), transform=ax.transAxes, fontsize=9, color="0.4",
            va="top")
    # above the highest flat line, where the ridge labels (below each knee) never go
    ax.text(0.98, peak * 1.3, _word("plot_compute_bound", lang), transform=ax.get_yaxis_transform(),
            fontsize=9, color="0.4", va="bottom", ha="right")
    ax.legend(loc="lower right", fontsize=8, framealpha=0.92)
    _title(ax, _say(data.title, lang, NL))


def draw_memory(fig: "Figure", data: "MemoryData", lang: str) -> None:
    import numpy as np

    ax = fig.add_subplot()
    pos = np.arange(len(data.batches), dtype=float)
    bottom = np.zeros(len(pos))
    for i, (qid, name, values) in enumerate(data.parts):
        ax.bar(pos, values, bottom=bottom, width=0.68, color=COLORS[(i + 2) % len(COLORS)], label=_say(name, lang),
               gid=f"part:{qid}", edgecolor="white", linewidth=0.6)
        bottom = bottom + values          # stacking: where the next bar starts
    ax.plot(pos, data.total, color="0.1", marker="o", ms=4, lw=1.2, gid="total", label=_word("plot_total", lang))
    ax.axhline(data.capacity, color=COLORS[1], ls="--", lw=1.6, gid="capacity",
               label=_word("plot_capacity", lang, value=data.capacity_text))
    log_b = np.log2(data.batches)
    if data.largest_batch is not None:
        x = float(np.interp(np.log2(data.largest_batch + 0.5), log_b, pos))
        ax.axvline(x, color=COLORS[1], ls=":", lw=1.4, gid="fit")
        ax.annotate(_word("plot_fits_up_to", lang, NL, batch=data.largest_batch), xy=(x, data.capacity),
                    xytext=(-6, 10), textcoords="offset points", ha="right", fontsize=9, color=COLORS[1])
    else:
        ax.text(0.5, 0.55, _word("plot_never_fits", lang, NL), transform=ax.transAxes, ha="center", fontsize=11,
                color=COLORS[1], gid="never_fits",
                bbox=dict(boxstyle="round", fc="white", ec=COLORS[1], alpha=0.9))
    ax.set_xticks(pos, [f"{int(b)}" for b in data.batches])
    ax.set_xlabel(_word("plot_axis_batch", lang))
    ax.set_ylabel(_word("plot_axis_memory", lang))
    ax.yaxis.set_major_formatter(_eng("B"))
    ax.set_ylim(0, max(float(np.nanmax(data.total)), data.capacity) * 1.12)
    ax.grid(True, axis="y", color="0.88", lw=0.8)
    ax.set_axisbelow(True)
    handles, labels = ax.get_legend_handles_labels()
    n = len(data.parts)        # the parts listed top-down, as they are stacked
    order = list(range(len(handles) - n)) + list(range(len(handles) - 1, len(handles) - n - 1, -1))
    ax.legend([handles[i] for i in order], [labels[i] for i in order], loc="upper left", fontsize=8,
              framealpha=0.92)
    _title(ax, _say(data.title, lang, NL), _say(data.assumptions, lang))


def draw_kv(fig: "Figure", data: "KVData", lang: str) -> None:
    import numpy as np

    ax = fig.add_subplot()
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    for i, s in enumerate(data.seq_lens):
        ax.plot(data.batches, data.kv[i], color=COLORS[(i + 2) % len(COLORS)], lw=2, gid=f"kv:{int(s)}",
                label=_word("plot_seq_line", lang, n=f"{int(s):,}"))
    ax.axhline(data.free, color=COLORS[1], ls="--", lw=1.6, gid="free_hbm",
               label=_word("plot_free_hbm", lang, value=data.free_text))
    ok = np.isfinite(data.largest_batch)
    ax.plot(data.largest_batch[ok], data.kv_at_largest[ok], linestyle="none", marker="o", ms=7, color=COLORS[1],
            mfc="white", mew=1.6, gid="largest", zorder=5, label=_word("plot_largest_batch_legend", lang))
    for b, y in zip(data.largest_batch[ok], data.kv_at_largest[ok]):
        ax.annotate(_word("plot_largest_batch", lang, batch=f"{int(b):,}"), xy=(b, y), xytext=(-4, 8),
                    textcoords="offset points", ha="right", fontsize=8, color=COLORS[1])
    ax.xaxis.set_major_formatter(_int_formatter())
    ax.yaxis.set_major_formatter(_eng("B"))
    ax.minorticks_off()
    ax.set_xlabel(_word("plot_axis_batch", lang))
    ax.set_ylabel(_word("plot_axis_kv", lang))
    ax.grid(True, which="major", color="0.88", lw=0.8)
    ax.legend(loc="upper left", fontsize=8, framealpha=0.92)
    _title(ax, _say(data.title, lang, NL), _say(data.assumptions, lang))


def _int_formatter():
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda x, _pos: f"{int(round(x)):,}" if x >= 1 else f"{x:g}")


def draw_hierarchy(fig: "Figure", data: "HierarchyData", lang: str) -> None:
    import numpy as np

    left, right = fig.subplots(1, 2, sharey=True)
    pos = np.arange(len(data.levels))[::-1].astype(float)     # registers at the top
    for ax, values, texts, unit, key, gid, color in (
            (left, data.capacity, data.capacity_text, "B", "plot_axis_capacity", "capacity_points", COLORS[0]),
            (right, data.bandwidth, data.bandwidth_text, "B/s", "plot_axis_bandwidth", "bandwidth_points", COLORS[1])):
        ax.set_xscale("log")
        ok = np.isfinite(values)
        lo = float(np.nanmin(values)) / 30 if ok.any() else 1.0
        hi = float(np.nanmax(values)) * 200 if ok.any() else 10.0      # room for the value labels
        ax.hlines(pos[ok], lo, values[ok], color=color, lw=3, alpha=0.35)
        ax.plot(values[ok], pos[ok], linestyle="none", marker="o", ms=8, color=color, gid=gid)
        for p, v, t, has in zip(pos, values, texts, ok):
            if has:
                ax.annotate(t, xy=(v, p), xytext=(7, 0), textcoords="offset points", va="center", fontsize=8.5)
            else:
                ax.text(lo * 1.5, p, _word("plot_no_value", lang), va="center", fontsize=9, color="0.5")
        ax.set_xlim(lo, hi)
        ax.xaxis.set_major_formatter(_eng(unit))
        ax.minorticks_off()
        ax.set_xlabel(_word(key, lang))
        ax.grid(True, axis="x", which="major", color="0.88", lw=0.8)
        ax.set_axisbelow(True)
        for label in ax.get_xticklabels():
            label.set_rotation(30)
            label.set_ha("right")
    left.set_yticks(pos, [_say(n, lang, "\n") for n in data.names])
    left.set_ylim(-0.7, len(pos) - 0.3)
    fig.suptitle(_say(data.title, lang, NL), fontsize=12)


def draw_curve(fig: "Figure", data: "CurveData", lang: str) -> None:
    """Each series a line (gid ``curve:i``); each change of regime a dotted line at its first x (``regime:i:j``)."""
    import numpy as np

    ax = fig.add_subplot()
    if data.x_log:
        ax.set_xscale("log")
    if data.y_log:
        ax.set_yscale("log")
    for i, s in enumerate(data.series):
        color = COLORS[i % len(COLORS)]
        ok = np.isfinite(s.ys)
        ax.plot(s.xs[ok], s.ys[ok], color=color, lw=2, gid=f"curve:{i}", label=_say(_literal(s.label), lang))
        for j, (x, regime) in enumerate(s.changes):
            ax.axvline(x, color=color, ls=":", lw=1.2, gid=f"regime:{i}:{j}")
            ax.annotate(_word("plot_regime_from", lang, "\n", regime=regime), xy=(x, 0.04 + 0.09 * ((i + j) % 4)),
                        xycoords=("data", "axes fraction"), xytext=(4, 0), textcoords="offset points",
                        fontsize=8, color=color, ha="left", va="bottom")
    ax.xaxis.set_major_formatter(_eng(data.x_unit if data.x_unit != "1" else ""))
    ax.yaxis.set_major_formatter(_eng(data.y_unit if data.y_unit != "1" else ""))
    ax.set_xlabel(_say(data.x_name, lang))
    ax.set_ylabel(_say(data.y_name, lang))
    ax.grid(True, which="major", color="0.88", lw=0.8)
    ax.legend(loc="best", fontsize=8, framealpha=0.92)
    _title(ax, _say(data.title, lang, NL), _say(data.assumptions, lang))


def draw_topology(fig: "Figure", data: "TopologyData", lang: str) -> None:
    """One XY plane of the slice: chips (gid ``chips``), links (``links``), wraparound links as dashed stubs
    at both edges (``wrap:x``, ``wrap:y``) and a route's hops (``route``) with its two end chips (``route_ends``)."""
    from matplotlib.collections import LineCollection

    ax = fig.add_subplot()
    nx, ny, _ = data.sizes
    xs = [i for i in range(nx) for _ in range(ny)]
    ys = [j for _ in range(nx) for j in range(ny)]
    segments = [((i, j), (i + 1, j)) for i in range(nx - 1) for j in range(ny)] + \
               [((i, j), (i, j + 1)) for i in range(nx) for j in range(ny - 1)]
    ax.add_collection(LineCollection(segments, colors="0.55", linewidths=1.4, zorder=1, gid="links"))
    size = max(nx, ny)
    marker = max(30, 2400 / size ** 1.6)
    ax.scatter(xs, ys, s=marker, marker="s", color="white", edgecolors="0.25", linewidths=1.2, zorder=3, gid="chips")
    stub = 0.42
    for axis, n, wraps in (("x", nx, data.wraps[0]), ("y", ny, data.wraps[1])):
        if not wraps or n < 2:
            continue
        # a wraparound link leaves one edge chip and comes back at the other: drawn as two stubs
        stubs: list[Any]
        if axis == "x":
            stubs = [((n - 1, k), (n - 1 + stub, k)) for k in range(ny)] + [((0, k), (-stub, k)) for k in range(ny)]
        else:
            stubs = [((k, n - 1), (k, n - 1 + stub)) for k in range(nx)] + [((k, 0), (k, -stub)) for k in range(nx)]
        ax.add_collection(LineCollection(stubs, colors=COLORS[0], linewidths=2.2, zorder=1, gid=f"wrap:{axis}"))
    if data.route:
        pts = [(p[0], p[1]) for p in data.route]
        plane: list[Any] = []
        wrapped: list[Any] = []
        for a, b in zip(pts, pts[1:]):
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1:
                plane.append((a, b))
            elif a != b:                            # a hop over a wraparound link: out of one edge, in at the other
                d = (1 if b[0] < a[0] else -1, 0) if a[1] == b[1] else (0, 1 if b[1] < a[1] else -1)
                wrapped += [(a, (a[0] + d[0] * stub, a[1] + d[1] * stub)),
                            (b, (b[0] - d[0] * stub, b[1] - d[1] * stub))]
        ax.add_collection(LineCollection(plane + wrapped, colors=COLORS[1], linewidths=3.2, zorder=2, gid="route"))
        ends = [pts[0], pts[-1]]
        ax.scatter([e[0] for e in ends], [e[1] for e in ends], s=marker * 1.15, marker="s", color=COLORS[1],
                   zorder=4, gid="route_ends")
        for (x, y), label in zip(ends, (data.route[0], data.route[-1])):
            ax.annotate("{" + ",".join(map(str, label[:2] if data.sizes[2] == 1 else label)) + "}", xy=(x, y),
                        xytext=(7, 7), textcoords="offset points", ha="left", fontsize=8, color=COLORS[1],
                        zorder=5, bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.9})
    ax.set_xlim(-0.9, nx - 0.1)
    ax.set_ylim(-0.9, ny - 0.1)
    if any(data.wraps[:2]):
        ax.text(0.5, -0.1, _word("plot_wrap_link", lang, " / "), transform=ax.transAxes, ha="center", va="top",
                fontsize=8, color=COLORS[0])
    ax.set_aspect("equal")
    ax.set_xticks(range(nx))
    ax.set_yticks(range(ny))
    ax.tick_params(labelsize=7 if size > 12 else 9)
    ax.set_xlabel("X")
    ax.set_ylabel("Y")
    for spine in ax.spines.values():
        spine.set_visible(False)
    _title(ax, _say(data.title, lang, NL), _say(data.notes, lang))


def draw_front(fig: "Figure", data: "FrontData", lang: str) -> None:
    """A plan's layouts, speed against memory per device: the region above the capacity shaded as not fitting
    (gid ``over_capacity``), ``capacity``, the layouts refused (``refused``) and those that can run
    (``feasible``), the Pareto ``front``, the ``best`` layout and one the user ``named``."""
    import numpy as np

    ax = fig.add_subplot()
    ax.set_xscale("log")
    shown = np.isfinite(data.x) & np.isfinite(data.y)
    # the view stops at 2.5x the capacity: a layout needing more is refused either way
    top = min(max(float(np.nanmax(data.y[shown])) if shown.any() else data.capacity, data.capacity) * 1.08,
              2.5 * data.capacity)
    ax.axhspan(data.capacity, top, color="#d62728", alpha=0.08, lw=0, gid="over_capacity",
               label=_word("plot_front_over", lang))
    ax.axhline(data.capacity, color="#d62728", lw=1.2, ls="--", gid="capacity",
               label=_word("plot_capacity", lang, value=f"{data.capacity / 1e9:.4g} GB"))
    refused = shown & ~data.feasible
    ax.scatter(data.x[refused], data.y[refused], s=6, marker="x", color="0.7", lw=0.6, gid="refused",
               label=_word("plot_front_refused", lang))
    ok = shown & data.feasible
    ax.scatter(data.x[ok], data.y[ok], s=8, color=COLORS[0], alpha=0.35, lw=0, gid="feasible",
               label=_word("plot_front_feasible", lang))
    ax.plot(data.x[data.front], data.y[data.front], color=COLORS[2], lw=1.6, marker="o", ms=4, gid="front",
            label=_word("plot_front_front", lang))
    ax.scatter([data.x[data.best]], [data.y[data.best]], s=150, marker="*", color=COLORS[4], zorder=5,
               edgecolor="black", lw=0.6, gid="best", label=_say(data.best_label, lang))
    if data.named is not None:
        ax.scatter([data.x[data.named]], [data.y[data.named]], s=60, marker="D", color=COLORS[3], zorder=5,
                   edgecolor="black", lw=0.6, gid="named", label=_word("plot_front_named", lang))
    ax.set_ylim(0, top)
    ax.xaxis.set_major_formatter(_eng(data.x_unit))
    ax.yaxis.set_major_formatter(_eng("B"))
    ax.set_xlabel(_say(data.x_name, lang))
    ax.set_ylabel(_word("plot_front_memory", lang))
    ax.grid(True, which="major", color="0.88", lw=0.8)
    ax.legend(loc="upper right" if data.x_unit == "s" else "upper left", fontsize=8, framealpha=0.92)
    _title(ax, _say(data.title, lang, "\n"), _say(data.subtitle, lang))
