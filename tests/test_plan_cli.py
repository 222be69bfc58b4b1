"""``derive plan train|serve`` as users run it: the issue's two questions as JSON, the winner's write-up
in every format and both languages (PDF compiled, HTML opened in headless Chromium), every evaluated
layout as CSV, a named layout's rank, and bad input as one line with a non-zero exit."""

from __future__ import annotations

import csv
import io
import json
import math
import re
import shutil
import subprocess
import tempfile

import pytest
from conftest import need_tool, run_cli

TRAIN = ("plan", "train", "--model", "llama3-70b", "--hw", "h100", "num_devices=1024", "batch_tokens=4e6",
         "seq_len=8192")
SERVE = ("plan", "serve", "--model", "llama3-70b", "--hw", "h100", "seq_len=4096", "output_len=512",
         "--slo-tpot", "50ms")


@pytest.fixture(scope="module")
def train_json():
    run = run_cli(*TRAIN, "--format", "json")
    assert run.code == 0, run.err
    return json.loads(run.out)


@pytest.fixture(scope="module")
def serve_json():
    run = run_cli(*SERVE, "--format", "json")
    assert run.code == 0, run.err
    return json.loads(run.out)


def test_the_issues_training_question_returns_the_plan_fields(train_json):
    best = train_json["best"]
    assert set(best["layout"]) >= {"dp", "tp", "pp", "ep", "cp", "zero", "recompute", "micro_batch", "microbatches",
                                   "virtual_stages"}
    assert best["fits"]["ok"] is True and best["fits"]["need"] <= best["fits"]["have"] == 80e9
    assert set(best["fits"]["by_component"]) == {"weights", "gradients", "optimizer_state", "activations", "reserve"}
    assert math.isclose(sum(best["fits"]["by_component"].values()), best["fits"]["need"], rel_tol=1e-12)
    layout = best["layout"]
    assert layout["dp"] * layout["tp"] * layout["pp"] * layout["cp"] == 1024
    # 4e6 tokens are 488.28 sequences of 8192: the plan takes 488 and says so
    assert "488 sequences" in train_json["assumed"]["batch_tokens"]
    assert layout["dp"] * layout["micro_batch"] * layout["microbatches"] == 488
    tokens = 488 * 8192
    assert math.isclose(best["tokens_per_s"] * best["step_time"], tokens, rel_tol=1e-12)
    assert 0 < best["mfu"] <= 1
    assert train_json["evaluated"] > 1000 and train_json["searched"] > train_json["evaluated"]
    assert train_json["infeasible"]["more pipeline stages than layers"] > 0
    for row in train_json["top"]:
        assert row["fits"]["ok"] is True and row["step_time"] >= best["step_time"]
    times = [p["step_time"] for p in train_json["pareto"]]
    memory = [p["fits"]["need"] for p in train_json["pareto"]]
    assert times == sorted(times) and memory == sorted(memory, reverse=True)


def test_the_issues_serving_question_returns_the_plan_fields(serve_json):
    best = serve_json["best"]
    assert set(best) >= {"layout", "devices", "batch", "ttft", "tpot", "tokens_per_s", "kv_sequences", "fits"}
    assert best["fits"]["ok"] is True and best["tpot"] <= 0.05
    assert isinstance(best["kv_sequences"], int) and best["kv_sequences"] >= best["batch"]
    assert best["devices"] == best["layout"]["tp"] * best["layout"]["pp"] * best["layout"]["replicas"]
    # every listed replica serves no more per device than the best
    assert all(r["tokens_per_s_per_device"] <= best["tokens_per_s_per_device"] * (1 + 1e-12)
               for r in serve_json["top"])


def test_a_user_count_sizes_the_fleet_and_a_price_gives_the_cost_per_million_tokens():
    run = run_cli(*SERVE, "--users", "1000", "--price", "2", "--format", "json")
    assert run.code == 0, run.err
    best = json.loads(run.out)["best"]
    replicas = best["layout"]["replicas"]
    assert replicas * best["batch"] >= 1000 > (replicas - 1) * best["batch"]
    # cost per million tokens = devices of a replica x price per hour / tokens per hour of the replica
    per_replica = best["layout"]["tp"] * best["layout"]["pp"]
    assert math.isclose(best["cost_per_mtok"], 1e6 * per_replica * 2 / (best["tokens_per_s_per_replica"] * 3600),
                        rel_tol=1e-9)


def test_a_named_layout_gets_its_rank_and_its_gap_to_the_best():
    run = run_cli(*TRAIN, "--layout", "dp=8,tp=8,pp=16", "--format", "json")
    assert run.code == 0, run.err
    data = json.loads(run.out)
    named = data["named"]
    assert named["layout"]["dp"] == 8 and named["layout"]["tp"] == 8 and named["layout"]["pp"] == 16
    assert named["rank"] > 1 and named["gap"] > 0
    assert math.isclose(named["step_time"], data["best"]["step_time"] * (1 + named["gap"]), rel_tol=1e-12)
    text = run_cli(*TRAIN, "--layout", "dp=8,tp=8,pp=16")
    assert text.code == 0 and f"rank {named['rank']:,}" in text.out


def test_csv_holds_every_evaluated_layout_with_its_verdict(tmp_path):
    out = tmp_path / "layouts.csv"
    run = run_cli(*SERVE, "--format", "csv", "-o", str(out))
    assert run.code == 0, run.err
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert len(rows) == json.loads(run_cli(*SERVE, "--format", "json").out)["evaluated"]
    refused = [r for r in rows if r["feasible"] == "false"]
    assert refused and all(r["refused"] for r in refused)
    assert all(float(r["serve_memory_per_device"]) <= 80e9 for r in rows if r["feasible"] == "true")


@pytest.mark.parametrize("fmt", ["md", "html", "tex", "beamer"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_winners_write_up_renders_in_every_format(fmt, lang):
    run = run_cli(*TRAIN, "--format", fmt, "--lang", lang)
    assert run.code == 0, run.err
    best = json.loads(run_cli(*TRAIN, "--format", "json").out)["best"]["layout"]
    shape = f"dp {best['dp']} × tp {best['tp']} × pp {best['pp']} × cp {best['cp']}"
    text = run.out.replace("\\times", "×").replace("$", "")
    assert shape in text or shape.replace("×", "\\ensuremath{\\times}") in run.out, shape
    assert ("方案" if lang == "zh" else "plan") in run.out


def test_pdf_article_and_slides_compile(tmp_path):
    need_tool("xelatex")
    for extra, name in (((), "train.pdf"), (("--beamer",), "train.slides.pdf")):
        out = tmp_path / name
        run = run_cli(*TRAIN, "--format", "pdf", "--lang", "zh", *extra, "-o", str(out), timeout=300)
        assert run.code == 0, run.err
        assert out.read_bytes()[:5] == b"%PDF-"
        text = subprocess.run([need_tool("pdftotext"), str(out), "-"], capture_output=True, text=True).stdout
        assert "训练方案" in text


def test_html_write_up_opens_in_chromium(tmp_path):
    exe = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if exe is None:
        need_tool("chromium")
    page = tmp_path / "serve.html"
    run = run_cli(*SERVE, "--format", "html", "--lang", "both", "-o", str(page))
    assert run.code == 0, run.err
    png = tmp_path / "serve.png"
    with tempfile.TemporaryDirectory(prefix="derive-chromium-") as profile:
        shot = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                               f"--user-data-dir={profile}", f"--screenshot={png}", "--window-size=1100,1600",
                               "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert shot.returncode == 0, shot.stderr[-500:]
    assert png.stat().st_size > 20_000
    assert "推理方案" in shot.stdout and "Serving plan" in shot.stdout
    body = re.sub(r"<annotation[^>]*>.*?</annotation>", "", shot.stdout, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", body)
    assert "\\mathrm" not in text and "\\frac" not in text          # formulas are MathML, not raw LaTeX


@pytest.mark.parametrize("args, says", [
    (("plan", "train", "--model", "llama3-70b", "--hw", "h100", "batch_tokens=4194304", "seq_len=8192"),
     "num_devices"),
    (("plan", "train", "--model", "llama3-70b", "--hw", "tpu-v5e", "num_devices=64", "batch_tokens=524288",
      "seq_len=4096"), "nvlink_gpu_bw"),
    (TRAIN + ("--zero", "5"), "ZeRO"),
    (TRAIN + ("--layout", "dp=3,tp=8"), "no layout"),
    (TRAIN + ("--layout", "dp"), "--layout"),
    (TRAIN + ("--objective", "cost"), "device_hour_price"),
    (TRAIN + ("--format", "pdf"), "-o FILE"),
    (SERVE + ("--slo-tpot", "fast"), "--slo-tpot"),
    (("plan", "serve", "--model", "llama3-70b", "--hw", "h100", "seq_len=4096"), "gen_tokens"),
])
def test_bad_input_is_one_line_and_a_non_zero_exit(args, says):
    run = run_cli(*args)
    assert run.code == 2, (run.code, run.err)
    assert run.err.count("\n") == 1 and run.err.startswith("derive: error:") and says in run.err, run.err


def test_the_pareto_plot_marks_what_does_not_fit(tmp_path):
    """The plot's artists carry the plan's numbers: the shaded region starts at the capacity, every point
    drawn as able to run is below it, the front is the plan's and the star is the best layout."""
    import numpy as np

    import derive
    from derive.documents.plan_report import front_data
    from derive.plot.figures import front_figure

    plan = derive.plan_serving({"seq_len": 4096, "gen_tokens": 512}, model="llama3-70b", hw="h100", slo_tpot="50ms")
    fig = front_figure(front_data(plan), "zh")
    artists = {a.get_gid(): a for ax in fig.axes for a in [*ax.collections, *ax.lines, *ax.patches] if a.get_gid()}
    capacity = plan.fits(plan.best)["have"]
    assert artists["capacity"].get_ydata()[0] == capacity
    feasible = artists["feasible"].get_offsets()
    assert len(feasible) == int(plan.feasible.sum()) and (np.asarray(feasible)[:, 1] <= capacity).all()
    best = plan.row_dict(plan.best)
    assert tuple(artists["best"].get_offsets()[0]) == (best["tokens_per_s_per_device"], best["fits"]["need"])
    front = artists["front"].get_xydata()
    assert len(front) == len(plan.pareto)
    # along the front, more tokens per device cost more memory per device
    order = np.argsort(front[:, 0])
    assert (np.diff(front[order, 1]) >= 0).all()
    out = tmp_path / "front.png"
    run = run_cli(*SERVE, "--plot", str(out), "--lang", "zh")
    assert run.code == 0, run.err
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 20_000


def test_a_fleet_study_from_the_command_line_matches_the_plans():
    """``derive plan fleet`` runs one training plan per combination; each row's best is that plan's best."""
    run = run_cli("plan", "fleet", "--models", "llama3-8b", "--hws", "h100,tpu-v5e", "--devices", "64",
                  "batch_tokens=524288", "seq_len=4096", "--preset", "bf16", "--preset", "adam-mixed", "--format",
                  "json")
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert data["combinations"] == 2 and data["planned"] == 1
    ok = next(r for r in data["rows"] if r["ok"])
    refused = next(r for r in data["rows"] if not r["ok"])
    assert refused["hw"] == "tpu-v5e" and "nvlink_gpu_bw" in refused["reason"]
    plan = run_cli("plan", "train", "--model", "llama3-8b", "--hw", "h100", "num_devices=64", "batch_tokens=524288",
                   "seq_len=4096", "--preset", "bf16", "--preset", "adam-mixed", "--format", "json")
    best = json.loads(plan.out)["best"]
    assert ok["layout"] == best["layout"] and ok["numbers"]["step_time"] == best["step_time"]
    bad = run_cli("plan", "fleet", "--models", "llama3-8b", "--hws", "h100", "--devices", "64,x",
                  "batch_tokens=524288", "seq_len=4096")
    assert bad.code == 2 and bad.err.count("\n") == 1 and "--devices" in bad.err
