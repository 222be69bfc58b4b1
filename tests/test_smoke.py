"""Every command once, as a user runs it: from an empty folder, through the installed ``derive``.

CI runs this module (``pytest -m smoke``) three ways: in the development install, against the
wheel installed in a fresh venv with nothing of the checkout on the path (``.ci/run`` sets
``DERIVE_TEST_INSTALLED=1``, and the first test checks that it is the wheel that answers), and
against the lowest dependency versions ``pyproject.toml`` claims (``.ci/constraints-lowest.txt``).
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

pytestmark = pytest.mark.smoke

INSTALLED = os.environ.get("DERIVE_TEST_INSTALLED") == "1"


@pytest.fixture
def empty(tmp_path: Path) -> Path:
    folder = tmp_path / "empty"
    folder.mkdir()
    return folder


def test_the_package_that_answers_is_the_installed_one(empty):
    code = "import derive, derive.storage.resources as r; print(derive.__file__); print(r.builtin_dir('formulas'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=empty, check=True)
    package, formulas = (Path(line) for line in out.stdout.splitlines())
    assert (formulas / "units.txt").is_file() and (formulas / "roofline.yaml").is_file()
    if INSTALLED:
        # the wheel: the package and its catalog in site-packages, nothing from the checkout
        assert not package.resolve().is_relative_to(ROOT.resolve()), package
        assert formulas.resolve().is_relative_to(package.resolve().parent), formulas



@pytest.mark.skipif(not INSTALLED, reason="a source checkout compiles its templates as it renders them")
def test_the_wheel_answers_with_its_templates_compiled_by_its_build(empty):
    code = ("import jinja2; from derive.writeup.render import environment_for; import derive._compiled_templates as c; "
            "print(c.JINJA2 == jinja2.__version__); print(environment_for('text').get_template('solution.txt.j2').filename)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=empty, check=True)
    same_jinja, filename = out.stdout.splitlines()
    # built by the Jinja the wheel was built with; a user's older or newer Jinja compiles the templates
    assert ("_compiled_templates" in filename) == (same_jinja == "True"), out.stdout


@pytest.mark.skipif(not INSTALLED, reason="the wheel's metadata: checked where the wheel is installed")
def test_the_wheel_carries_its_license_and_types(empty):
    code = ("from importlib.metadata import metadata, files; m = metadata('derive'); "
            "names = {f.name for f in files('derive')}; "
            "print(m['License-Expression'], 'LICENSE' in names, 'py.typed' in names, "
            "any(c.startswith('Typing ::') for c in m.get_all('Classifier')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=empty, check=True)
    assert out.stdout.split() == ["MIT", "True", "True", "True"]

def test_solve_from_an_empty_folder(empty):
    run = run_cli("solve", "critical_ai", "--hw", "a100", cwd=empty)
    assert run.code == 0, run.err
    assert run.out.startswith("critical_ai_hbm = 156 FLOP/B")
    assert list(empty.iterdir()) == []          # a plain question writes nothing


def test_the_readme_main_job_from_an_empty_folder(empty):
    run = run_cli("solve", "d_model", "--max", "--require", "ffn_fits_in_vmem", "--hw", "tpu-v5e",
                  "--preset", "classic-ffn", "--lang", "both", cwd=empty)
    assert run.code == 0, run.err
    assert "d_model <= 2,896" in run.out and "模型宽度" in run.out


def test_a_bad_input_is_one_line_and_exit_2(empty):
    run = run_cli("solve", "critical_ai", "--hw", "a100", "hbm_bw=3 parsecs", cwd=empty)
    assert run.code == 2
    assert run.err.startswith("derive: error: ") and run.err.count("\n") == 1


def test_report_to_markdown_and_html(empty):
    problem = empty / "problem.yaml"
    shutil.copy(ROOT / "reports" / "kv-cache-llama2-70b.yaml", problem)
    run = run_cli("report", str(problem), "--lang", "en,zh", "--format", "md,html", "-o", str(empty / "out"),
                  cwd=empty)
    assert run.code == 0, run.err
    written = sorted(p.name for p in (empty / "out").iterdir() if p.is_file())
    assert written == ["problem.en.html", "problem.en.md", "problem.zh.html", "problem.zh.md"]
    md = (empty / "out" / "problem.en.md").read_text(encoding="utf-8")
    assert "327,680" in md or "327.68" in md     # KV bytes per token of LLaMA-2 70B


def test_check_a_claims_file(empty):
    claims = empty / "claims.yaml"
    shutil.copy(ROOT / "reports" / "claims" / "bandwidth-wall.yaml", claims)
    run = run_cli("check", str(claims), "--format", "json", cwd=empty)
    assert run.code == 0, run.err
    verdicts = {r["id"]: r["verdict"] for r in json.loads(run.out)}
    assert verdicts["a100-ridge-point"] == "reproduced"


def test_sweep_to_csv(empty):
    out = empty / "sweep.csv"
    run = run_cli("sweep", "critical_ai", "peak_flops=100TFLOP/s:1000TFLOP/s:4", "hbm_bw=2TB/s", "-o", str(out),
                  cwd=empty)
    assert run.code == 0, run.err
    rows = list(csv.reader(out.open(encoding="utf-8")))
    assert len(rows) == 5
    assert [round(float(r[-1])) for r in rows[1:]] == [50, 200, 350, 500]


def test_plot_to_png(empty):
    out = empty / "roofline.png"
    run = run_cli("plot", "roofline", "--hw", "a100", "-o", str(out), cwd=empty, timeout=300)
    assert run.code == 0, run.err
    assert out.read_bytes().startswith(b"\x89PNG")


def test_render_a_live_source(empty):
    source = empty / "note.src.md"
    source.write_text("The A100's ridge point is {{ q('critical_ai', hw='a100') }}.\n", encoding="utf-8")
    run = run_cli("render", str(source), "-o", str(empty / "note.md"), cwd=empty)
    assert run.code == 0, run.err
    assert (empty / "note.md").read_text(encoding="utf-8").strip() == "The A100's ridge point is 156 FLOP/B."
