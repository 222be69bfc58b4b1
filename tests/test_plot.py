"""Plots: the files are written, and every plotted number read back from the figure equals the engine's."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from derive import load_catalog, solve
from derive.plot.figures import figure, save


def artist(fig, gid: str):
    found = [a for ax in fig.axes for a in ax.get_children() if a.get_gid() == gid]
    assert found, f"no artist {gid!r} in the figure"
    return found[0]


def bars(fig, gid: str):
    """The rectangles of one bar series, left to right."""
    found = [p for ax in fig.axes for p in ax.patches if p.get_gid() == gid]
    assert found, f"no bars {gid!r}"
    return sorted(found, key=lambda r: r.get_x())


def xy(fig, gid: str) -> np.ndarray:
    return artist(fig, gid).get_xydata()


def close(a, b, rel=1e-12):
    return np.allclose(np.asarray(a, float), np.asarray(b, float), rtol=rel, atol=0)


def png_size(path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def chinese_has_glyphs(fig) -> None:
    """Every character of every text is in the font matplotlib picked for it (no tofu boxes)."""
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    fig.canvas.draw()
    texts = [t for t in fig.findobj(lambda a: hasattr(a, "get_text") and hasattr(a, "get_fontproperties"))
             if t.get_text()]
    assert any(any("\u4e00" <= ch <= "\u9fff" for ch in t.get_text()) for t in texts)
    for t in texts:
        for ch in set(t.get_text()):
            if "\u4e00" <= ch <= "\u9fff" or "\u3000" <= ch <= "\uffef":
                path = font_manager.findfont(t.get_fontproperties())
                assert "NotoSansCJK" in path, (ch, path)
                assert FT2Font(path).get_char_index(ord(ch)) != 0, (ch, t.get_text())


# ---------------------------------------------------------------------------
# roofline


def test_roofline_points_are_the_engines(tmp_path):
    fig = figure("roofline", hw=["a100", "h100"], points={"my kernel": "12 FLOP/B"})
    for hw in ("a100", "h100"):
        line = xy(fig, f"roofline:{hw}")
        assert line.shape[0] >= 200
        # both regimes on the curve; a few points re-solved exactly
        peak = solve("attainable_flops", {"arithmetic_intensity": 10**6}, hw=hw).float
        assert (line[:, 1] < peak).any() and (line[:, 1] == peak).any()
        for i in (0, len(line) // 3, len(line) // 2, len(line) - 1):
            from fractions import Fraction

            want = solve("attainable_flops", {"arithmetic_intensity": Fraction(line[i, 0])}, hw=hw).float
            assert close(line[i, 1], want)
        ridge = xy(fig, f"ridge:{hw}")[0]
        crit = solve("critical_ai", hw=hw)
        assert close(ridge[0], crit.float)
        assert close(ridge[1], solve("attainable_flops", {"arithmetic_intensity": crit.value}, hw=hw).float)
    ops = {
        "op:plot_op_large_matmul": solve("matmul_intensity", {"matmul_rows": 4096, "matmul_inner": 4096,
                                                              "matmul_cols": 4096}),
        "op:plot_op_matvec": solve("matmul_intensity", {"matmul_rows": 1, "matmul_inner": 4096, "matmul_cols": 4096}),
        "op:plot_op_add": solve("elementwise_intensity", presets=["op-add"]),
        "op:plot_op_layernorm": solve("elementwise_intensity", presets=["op-layernorm"]),
        "op:plot_op_softmax": solve("elementwise_intensity", presets=["op-softmax"]),
    }
    for gid, sol in ops.items():
        pts = xy(fig, gid)
        assert close(pts[:, 0], [sol.float] * 2)
        assert close(pts[:, 1], [solve("attainable_flops", {"arithmetic_intensity": sol.value}, hw=h).float
                                 for h in ("a100", "h100")])
    mine = xy(fig, "op:user:my kernel")
    assert close(mine[:, 0], [12, 12]) and close(mine[:, 1], [24e12, 40.2e12])
    # the seed's numbers: ridge 156 FLOP/B on the A100, 1/6 FLOP/B for c = a + b, 4096/3 for the 4096³ matmul
    assert xy(fig, "ridge:a100")[0][0] == 156
    assert close(xy(fig, "op:plot_op_add")[0][0], 1 / 6)
    assert close(xy(fig, "op:plot_op_large_matmul")[0][0], 4096 / 3)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "ridge 156 FLOP/B" in texts and "ridge 295.2 FLOP/B" in texts
    for suffix in ("png", "svg", "pdf"):
        out = save(fig, tmp_path / f"roofline.{suffix}")
        assert 20_000 < out.stat().st_size < 3_000_000, (suffix, out.stat().st_size)
    assert png_size(tmp_path / "roofline.png") == (1200, 750)


def test_same_figure_same_bytes(tmp_path):
    a = save(figure("roofline", hw="a100"), tmp_path / "a.png").read_bytes()
    b = save(figure("roofline", hw="a100"), tmp_path / "b.png").read_bytes()
    assert a == b
    a = save(figure("hierarchy", hw="h100"), tmp_path / "a.svg").read_bytes()
    b = save(figure("hierarchy", hw="h100"), tmp_path / "b.svg").read_bytes()
    assert a == b


# ---------------------------------------------------------------------------
# training memory


def test_memory_breakdown_bars_and_fit(tmp_path):
    fig = figure("memory", model="llama2-7b", hw="a100", given={"num_devices": 2, "seq_len": 2048})
    data = fig.derive_data
    opts = dict(model="llama2-7b", presets=["chapter-activations"])
    given = {"num_devices": 2, "seq_len": 2048}
    batches = [int(b) for b in data.batches]
    assert batches[0] == 1 and batches == sorted(batches)
    heights = {qid: [r.get_height() for r in bars(fig, f"part:{qid}")] for qid, _, _ in data.parts}
    assert close(heights["weight_bytes"], [solve("weight_bytes", given, **opts).float] * len(batches))
    assert heights["weight_bytes"][0] == 14e9 and heights["optimizer_bytes"][0] == 84e9   # the chapter's 7B table
    assert close(heights["grad_bytes"], [14e9] * len(batches))
    for i, b in enumerate(batches):
        assert close(heights["activation_bytes"][i], solve("activation_bytes", {**given, "batch": b}, **opts).float)
    total = xy(fig, "total")
    assert close(total[:, 1], [solve("training_memory", {**given, "batch": b}, **opts).float for b in batches])
    cap = xy(fig, "capacity")
    assert close(cap[:, 1], [160e9, 160e9])
    largest = solve("batch", given, hw="a100", bound="max", require=["training_fits"], **opts)
    assert data.largest_batch == int(largest.value) == 2
    fit_x = xy(fig, "fit")[0][0]
    pos_2, pos_4 = batches.index(2), batches.index(4)
    assert pos_2 < fit_x < pos_4      # the mark sits between the last batch that fits and the next
    save(fig, tmp_path / "m.png")
    assert (tmp_path / "m.png").stat().st_size > 20_000


def test_memory_plot_takes_a_sequence_length_typed_as_arithmetic(cli, tmp_path):
    """Issue 16, item 10: ``seq_len=4e3`` was an internal error (exit 1) in the subtitle's int('4e3')."""
    out = tmp_path / "m.png"
    run = cli("plot", "memory", "--model", "llama2-7b", "--hw", "a100", "seq_len=4e3", "-o", str(out))
    assert run.code == 0, run.err
    assert png_size(out)[0] > 0
    fig = figure("memory", model="llama2-7b", hw="a100", given={"num_devices": 2, "seq_len": "2**11"})
    assert "sequence length 2,048" in fig.derive_data.assumptions["en"]


def test_memory_that_never_fits_says_so():
    fig = figure("memory", model="llama2-7b", hw="a100")       # 112 GB of state on one 80 GB card
    assert fig.derive_data.largest_batch is None
    assert artist(fig, "never_fits").get_text() == "does not fit at any batch size"


# ---------------------------------------------------------------------------
# KV cache


def test_kv_cache_lines_limit_and_largest_batches():
    fig = figure("kv-cache", model="llama2-70b", hw="h100", given={"num_devices": 8}, seq_lens=[1024, 4096, 32768])
    data = fig.derive_data
    for s in (1024, 4096, 32768):
        line = xy(fig, f"kv:{s}")
        for b, y in line[[0, len(line) // 2, -1]]:
            assert y == solve("kv_cache_bytes", {"batch": int(b), "seq_len": s}, model="llama2-70b").float
    weights = solve("weight_bytes", model="llama2-70b")
    assert close(xy(fig, "free_hbm")[:, 1], [8 * 80e9 - weights.float] * 2)
    marks = xy(fig, "largest")
    want = [solve("batch", {"seq_len": s, "num_devices": 8}, model="llama2-70b", hw="h100", bound="max",
                  require=["kv_cache_fits"]).float for s in (1024, 4096, 32768)]
    assert list(marks[:, 0]) == want == [1490, 372, 46]
    assert list(marks[:, 1]) == [solve("kv_cache_bytes", {"batch": int(b), "seq_len": s}, model="llama2-70b").float
                                 for b, s in zip(want, (1024, 4096, 32768))]
    assert data.free_text == "500 GB"


# ---------------------------------------------------------------------------
# hierarchy


def test_hierarchy_values_are_the_presets_or_derived():
    catalog = load_catalog()
    fig = figure("hierarchy", hw="h100")
    data = fig.derive_data
    caps = xy(fig, "capacity_points")
    bws = xy(fig, "bandwidth_points")
    preset = catalog.preset("h100", "hw")
    want_caps = [float(preset.values[f"{lv}_capacity"].value) for lv in data.levels
                 if f"{lv}_capacity" in preset.values]
    assert list(caps[:, 0]) == want_caps
    got_bw = dict(zip([lv for lv, v in zip(data.levels, data.bandwidth) if np.isfinite(v)], bws[:, 0]))
    assert got_bw["hbm"] == 3.35e12 and got_bw["l2"] == 5.5e12
    if "smem_bw" in data.derived:            # derived by the engine from SMs x bytes/cycle x clock
        assert close(got_bw["smem"], solve("smem_bw", hw="h100").float)
    assert data.levels[0] == "register" and "hbm" in data.levels


# ---------------------------------------------------------------------------
# languages and the command


@pytest.mark.parametrize("kind, opts", [
    ("roofline", dict(hw=["a100", "h100"])),
    ("memory", dict(model="llama2-7b", hw="a100", given={"num_devices": 2})),
    ("kv-cache", dict(model="llama2-70b", hw="h100", given={"num_devices": 8})),
    ("hierarchy", dict(hw="a100")),
])
def test_chinese_labels_have_glyphs(kind, opts, tmp_path):
    fig = figure(kind, lang="zh", **opts)
    chinese_has_glyphs(fig)
    both = figure(kind, lang="both", **opts)
    title = both.axes[0].get_title() or both.get_suptitle()
    zh, _, en = title.partition("\n")              # both: Chinese, then English on its own line
    assert any("\u4e00" <= c <= "\u9fff" for c in zh) and en and not any("\u4e00" <= c <= "\u9fff" for c in en)
    save(fig, tmp_path / f"{kind}.png")


def test_cli_writes_the_file(cli, tmp_path):
    out = tmp_path / "r.svg"
    run = cli("plot", "roofline", "--hw", "a100", "--point", "fused MLP=40", "-o", str(out))
    assert run.code == 0, run.err
    assert run.out.strip() == str(out) and out.stat().st_size > 20_000
    assert out.read_text().startswith("<?xml")


@pytest.mark.parametrize("args, expect", [
    (["plot", "pie", "--hw", "a100"], "unknown plot kind"),
    (["plot", "roofline"], "at least one chip"),
    (["plot", "roofline", "--hw", "a100", "-o", "x.jpg"], "must end in .png, .svg or .pdf"),
    (["plot", "roofline", "--hw", "a100", "--point", "oops"], "malformed --point"),
    (["plot", "roofline", "--hw", "a100", "--point", "x=3GB"], "arithmetic_intensity is in FLOP/B"),
    (["plot", "memory", "--hw", "a100"], "needs --model"),
    (["plot", "hierarchy", "--hw", "a100", "--hw", "h100"], "for one chip"),
    (["plot", "kv-cache", "--model", "llama2-70b", "--hw", "h100", "batch=4"], "sweeps batch itself"),
])
def test_cli_errors_are_one_line(cli, args, expect, tmp_path):
    run = cli(*args, cwd=tmp_path)
    assert run.code == 2, (run.out, run.err)
    assert run.err.startswith("derive: error: ") and expect in run.err and "Traceback" not in run.err


def test_readme_plot_commands_run(cli, tmp_path):
    """Every `derive plot` line of the README runs (into a temporary folder) and writes its file."""
    import shlex

    from conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [ln for ln in readme.splitlines() if ln.startswith("derive plot ")]
    assert len(lines) == 8
    for line in lines:
        args = shlex.split(line)[1:]
        i = args.index("-o")
        args[i + 1] = str(tmp_path / args[i + 1].split("/")[-1])
        run = cli(*args)
        assert run.code == 0, (line, run.err)
        assert (tmp_path / args[i + 1].split("/")[-1]).stat().st_size > 10_000
    for name in ("roofline.png", "allgather-knee.png", "topology-v5e-4x4.png"):
        assert (ROOT / "reports" / "img" / name).stat().st_size > 20_000


def test_missing_cjk_font_warns_and_falls_back(monkeypatch, tmp_path):
    import warnings

    import derive.plot.figures as plots

    monkeypatch.setattr(plots, "CJK_FONT", "Derive No Such CJK Font")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig = figure("hierarchy", hw="a100", lang="zh")
        save(fig, tmp_path / "h.png")
    assert any(issubclass(w.category, plots.FontWarning) and "no CJK font" in str(w.message) for w in caught)
    assert (tmp_path / "h.png").stat().st_size > 20_000
    with warnings.catch_warnings(record=True) as caught:       # English needs no CJK font: no warning
        warnings.simplefilter("always")
        figure("hierarchy", hw="a100", lang="en")
    assert not any(issubclass(w.category, plots.FontWarning) for w in caught)


# -- the curve: any quantity against one input ---------------------------------------------


def test_a_collective_against_message_size_shows_its_knee_where_the_engine_changes_regime():
    fig = figure("curve", y="ici_allgather_time", hw="tpu-v5e",
                 given={"collective_bytes": "1kB:1GB:61:log", "axis_size": 4, "ici_axes": 1})
    line = xy(fig, "curve:0")
    assert line.shape == (61, 2) and line[0, 0] == 1e3 and line[-1, 0] == 1e9
    for x, y in line[[0, 20, 30, 60]]:
        want = solve("ici_allgather_time", {"collective_bytes": f"{float(x)!r} B", "axis_size": 4, "ici_axes": 1},
                     hw="tpu-v5e")
        assert close(y, want.float)
    knee = artist(fig, "regime:0:0").get_xdata()[0]
    i = int(np.flatnonzero(line[:, 0] == knee)[0])

    def regime(x):
        sol = solve("ici_allgather_time", {"collective_bytes": f"{float(x)!r} B", "axis_size": 4, "ici_axes": 1},
                    hw="tpu-v5e")
        return [s.regime for s in sol.steps if s.regime]

    assert regime(line[i - 1, 0]) == ["latency_bound"] and regime(knee) == ["bandwidth_bound"]
    assert fig.axes[0].get_xscale() == "log" and fig.axes[0].get_yscale() == "log"


def test_curve_lines_per_value_and_per_quantity(tmp_path):
    fig = figure("curve", y="decode_step_time", model="llama3-70b", hw="tpu-v5e", lang="zh",
                 given={"batch": "1:512:32", "num_devices": 16, "seq_len": "1024,8192"})
    labels = [artist(fig, f"curve:{i}").get_label() for i in (0, 1)]
    assert labels == ["序列长度 = 1024", "序列长度 = 8192"]
    b, t = xy(fig, "curve:1")[-1]
    assert close(t, solve("decode_step_time", {"batch": int(b), "num_devices": 16, "seq_len": 8192},
                          model="llama3-70b", hw="tpu-v5e").float)
    save(fig, tmp_path / "decode.png")
    fig = figure("curve", y=["decode_kv_time", "decode_weight_time"], model="llama3-70b", hw="tpu-v5e",
                 given={"batch": "1:512:8", "num_devices": 16, "seq_len": 8192})
    assert [artist(fig, f"curve:{i}").get_label() for i in (0, 1)] == [
        load_catalog().quantities[q].name.en for q in ("decode_kv_time", "decode_weight_time")]


@pytest.mark.parametrize("args, expect", [
    (["plot", "curve", "batch=1:8:8", "--model", "llama3-70b"], "--y"),
    (["plot", "curve", "--y", "kv_cache_bytes", "--model", "llama3-70b", "batch=4"], "exactly one"),
    (["plot", "curve", "--y", "kv_cache_bytes", "--model", "llama3-70b", "batch=1:8:8", "seq_len=1:9:3"],
     "exactly one"),
    (["plot", "curve", "--y", "kv_cache_bytes", "--y", "decode_kv_time", "--model", "llama3-70b", "batch=1:8:8",
      "seq_len=128"], "one unit"),
    (["plot", "curve", "--y", "kv_cache_bytes", "--model", "llama3-70b", "batch=1:1000:1000", "seq_len=128"],
     "at most 400"),
    (["plot", "roofline", "--y", "kv_cache_bytes", "--hw", "a100"], "curve"),
])
def test_curve_errors_are_one_line(cli, args, expect, tmp_path):
    run = cli(*args, "-o", str(tmp_path / "c.png"))
    assert run.code == 2 and run.err.startswith("derive: error:") and expect in run.err, run.err
    assert len(run.err.strip().splitlines()) == 1 and not (tmp_path / "c.png").exists()


# -- the topology of a slice ------------------------------------------------------------------


def test_a_v5e_4x4_route_is_the_books_six_hops():
    fig = figure("topology", presets=["v5e-4x4"], route="0,0:3,3")
    data = fig.derive_data
    assert data.sizes == (4, 4, 1) and data.wraps == (False, False, False)
    assert data.hops == (3, 3, 0) and data.total_hops == 6          # the book's TPU{0,0} -> TPU{3,3}: six hops
    assert len(artist(fig, "route").get_segments()) == 6
    assert len(artist(fig, "chips").get_offsets()) == 16
    assert not [a for ax in fig.axes for a in ax.get_children() if str(a.get_gid()).startswith("wrap:")]
    assert "6 hops" in fig.axes[0].get_title()


def test_a_torus_route_goes_round_the_wraparound():
    fig = figure("topology", presets=["v5e-16x16"], route="1,2:14,3", lang="zh")
    data = fig.derive_data
    assert data.wraps[:2] == (True, True)
    assert data.hops == (3, 1, 0)                                   # 1 -> 0 -> 15 -> 14, then 2 -> 3
    assert data.total_hops == solve("p2p_hops", {"hops_x": 3, "hops_y": 1, "hops_z": 0}).value == 4
    assert len(artist(fig, "wrap:x").get_segments()) == 2 * 16
    assert "共 4 跳" in fig.axes[0].get_title()
    three_d = figure("topology", presets=["v5p-16x16x16"]).derive_data
    assert three_d.sizes == (16, 16, 16) and "16 such planes" in three_d.notes["en"]


@pytest.mark.parametrize("args, expect", [
    (["plot", "topology", "--preset", "classic-ffn"], "slice"),
    (["plot", "topology", "--preset", "v5e-4x4", "--route", "0,0-3,3"], "malformed route"),
    (["plot", "topology", "--preset", "v5e-4x4", "--route", "0,0:4,0"], "not in the 4x4x1 slice"),
    (["plot", "roofline", "--hw", "a100", "--route", "0,0:1,1"], "topology"),
])
def test_topology_errors_are_one_line(cli, args, expect, tmp_path):
    run = cli(*args, "-o", str(tmp_path / "t.png"))
    assert run.code == 2 and run.err.startswith("derive: error:") and expect in run.err, run.err
    assert not (tmp_path / "t.png").exists()


def test_memory_per_device_of_each_zero_stage_on_one_figure():
    fig = figure("curve", y=["state_bytes_per_device_zero1", "state_bytes_per_device_zero2",
                             "state_bytes_per_device_zero3"], model="llama3-70b",
                 given={"data_parallel": "1:1024:11:log", "tensor_parallel": 1})
    assert fig.axes[0].get_ylabel() == "memory"
    for i, stage in enumerate(("zero1", "zero2", "zero3")):
        n, m = xy(fig, f"curve:{i}")[-1]
        want = solve(f"state_bytes_per_device_{stage}", {"data_parallel": int(n), "tensor_parallel": 1},
                     model="llama3-70b")
        assert close(m, want.float)
    # stage 3 shards everything: a thousandth of stage 0 on 1,024 devices
    assert close(xy(fig, "curve:2")[-1][1] * 1024, xy(fig, "curve:2")[0][1])
