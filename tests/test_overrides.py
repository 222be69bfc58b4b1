"""Overrides that show (issue 16, item 8): a user's ``override: true`` is named by every
answer, write-up and claim verdict that uses it, with the file that made it."""

from __future__ import annotations

import pytest
from conftest import ROOT

DOUBLED_RIDGE = """
relations:
  - id: critical_ai_hbm
    override: true
    equation: critical_ai_hbm = 2 * peak_flops / hbm_bw
    name: {en: a doubled ridge point, zh: 加倍的拐点}
    meaning: {en: twice the ridge, zh: 两倍拐点}
    source: scaling-book-rooflines
"""
MY_A100 = """
presets:
  - id: a100
    override: true
    extends: a100-2039
    kind: hw
    name: {en: my A100, zh: 我的 A100}
    source: nvidia-a100
    values:
      peak_flops: 624 TFLOP/s
"""
CLAIMS = str(ROOT / "reports" / "claims" / "bandwidth-wall.yaml")


@pytest.fixture
def doubled(tmp_path):
    path = tmp_path / "doubled.yaml"
    path.write_text(DOUBLED_RIDGE, encoding="utf-8")
    return path


def test_an_answer_names_the_overridden_relation_in_every_format(cli, doubled):
    text = cli("solve", "critical_ai", "--hw", "a100", "--formulas", str(doubled))
    assert text.code == 0, text.err
    assert text.out.startswith("critical_ai_hbm = 312 FLOP/B")
    assert f"The relation critical_ai_hbm is the one in {doubled}, which overrides the built-in relation of " \
           "formulas/hierarchy.yaml." in text.out
    js = cli("solve", "critical_ai", "--hw", "a100", "--formulas", str(doubled), "--format", "json").json
    assert {"kind": "catalog_override", "what": "relation", "id": "critical_ai_hbm", "file": str(doubled),
            "replaced": "formulas/hierarchy.yaml"} in js["notes"]
    md = cli("solve", "critical_ai", "--hw", "a100", "--formulas", str(doubled), "--format", "md", "--lang", "zh")
    assert md.code == 0 and "覆盖了 formulas/hierarchy.yaml 中的内置关系式" in md.out


def test_an_answer_that_does_not_use_the_override_says_nothing(cli, doubled):
    run = cli("solve", "kv_cache_bytes", "--model", "llama2-7b", "batch=1", "seq_len=4096",
              "--formulas", str(doubled), "--format", "json")
    assert run.code == 0, run.err
    assert not [n for n in run.json["notes"] if n["kind"] == "catalog_override"]


def test_an_overridden_preset_is_named(cli, tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text(MY_A100, encoding="utf-8")
    run = cli("solve", "critical_ai", "--hw", "a100", "--formulas", str(path), "--format", "json")
    assert run.code == 0, run.err
    assert run.json["exact"] == "624000/2039"
    notes = [n for n in run.json["notes"] if n["kind"] == "catalog_override"]
    assert notes == [{"kind": "catalog_override", "what": "preset", "id": "a100", "file": str(path),
                      "replaced": "formulas/hardware_gpu.yaml"}]


def test_check_verdicts_name_the_override_they_rest_on(cli, doubled):
    plain = cli("check", CLAIMS, "--format", "json").json
    changed = cli("check", CLAIMS, "--formulas", str(doubled), "--format", "json").json
    by_id = {c["id"]: c for c in changed}
    ridge = by_id["a100-ridge-point"]
    assert ridge["verdict"] == "erratum" and ridge["computed"] == 312
    assert ridge["overrides"] == [{"kind": "relation", "id": "critical_ai_hbm", "file": str(doubled),
                                   "replaced": "formulas/hierarchy.yaml"}]
    assert "overrides the built-in one of formulas/hierarchy.yaml" in ridge["note"]
    assert all("overrides" not in c for c in plain)
    untouched = [c for c in changed if "overrides" not in c]
    assert untouched and all(c["verdict"] == {p["id"]: p for p in plain}[c["id"]]["verdict"] for c in untouched)
    text = cli("check", CLAIMS, "--formulas", str(doubled))
    n = sum("overrides" in c for c in changed)
    assert text.out.rstrip().endswith(f"{n} of these verdicts use the relation critical_ai_hbm from {doubled}, "
                                      "not the built-in one.")


def test_overrides_survive_the_compiled_cache(doubled, tmp_path, monkeypatch):
    from derive.catalog import loader as _loader

    monkeypatch.setenv("DERIVE_CACHE_DIR", str(tmp_path / "cache"))
    first = _loader.load_catalog([doubled])
    _loader._loaded.clear()
    again = _loader.load_catalog([doubled])
    assert first is not again
    assert again.overrides == first.overrides
    assert again.overrides["relation:critical_ai_hbm"].file == str(doubled)


def test_show_says_an_entry_is_overridden(cli, doubled):
    run = cli("show", "critical_ai_hbm", "--formulas", str(doubled))
    assert f"overridden by {doubled} (the built-in one is in formulas/hierarchy.yaml)" in run.out
    assert "overridden" not in cli("show", "critical_ai_hbm").out


def _warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("derive: warning:")]


def _names_override(line: str, kind: str, ident: str, path, replaced: str) -> bool:
    return line == (f"derive: warning: the {kind} {ident} used here is the one in {path}, which overrides the "
                    f"built-in {kind} of {replaced}")


SWEEP = ("sweep", "critical_ai_hbm", "hbm_bw=1e12:2e12:2", "peak_flops=312e12")


def test_a_sweep_names_the_override_in_every_format(cli, doubled, tmp_path):
    """Audit of issue 16: sweep CSV, JSON and npz said nothing of an overridden relation. JSON and npz carry
    an ``overrides`` field; CSV stays plain rows (a header line and numbers) and the warning goes to stderr.
    A repeated sweep, answered from the cache, says the same."""
    import numpy as np

    cache = {"DERIVE_CACHE_DIR": str(tmp_path / "cache")}
    record = [{"kind": "relation", "id": "critical_ai_hbm", "file": str(doubled),
               "replaced": "formulas/hierarchy.yaml"}]
    for _ in range(2):                                   # fresh, then from the sweep store
        csv = cli(*SWEEP, "--formulas", str(doubled), env=cache)
        assert csv.code == 0 and csv.out == "hbm_bw [B/s],critical_ai_hbm [FLOP/B]\n1000000000000,624\n" \
                                            "2000000000000,312\n"
        (line,) = _warnings(csv.err)
        assert _names_override(line, "relation", "critical_ai_hbm", doubled, "formulas/hierarchy.yaml")
        js = cli(*SWEEP, "--formulas", str(doubled), "--format", "json", env=cache)
        assert js.code == 0 and js.json["overrides"] == record and len(_warnings(js.err)) == 1
    npz = tmp_path / "s.npz"
    run = cli(*SWEEP, "--formulas", str(doubled), "--format", "npz", "-o", str(npz), env=cache)
    assert run.code == 0, run.err
    import json

    with np.load(npz) as data:
        assert json.loads(str(data["meta"]))["overrides"] == record
    plain = cli(*SWEEP, "--format", "json", env=cache)
    assert "overrides" not in plain.json and _warnings(plain.err) == []


def test_a_live_source_names_the_overrides_its_numbers_use(cli, doubled, tmp_path):
    preset = tmp_path / "mine.yaml"
    preset.write_text(MY_A100, encoding="utf-8")
    src = tmp_path / "s.md"
    src.write_text('{{ q("critical_ai", hw="a100") }}\n', encoding="utf-8")
    run = cli("render", str(src), "--formulas", str(doubled))
    assert run.code == 0 and run.out.strip() == "312 FLOP/B"
    (line,) = _warnings(run.err)
    assert _names_override(line, "relation", "critical_ai_hbm", doubled, "formulas/hierarchy.yaml")
    src.write_text('{{ const("peak_flops", hw="a100") }}\n', encoding="utf-8")
    run = cli("render", str(src), "--formulas", str(preset))
    assert run.code == 0 and run.out.strip() == "624 TFLOP/s"
    (line,) = _warnings(run.err)
    assert _names_override(line, "preset", "a100", preset, "formulas/hardware_gpu.yaml")
    assert _warnings(cli("render", str(src)).err) == []


def test_a_plot_names_the_overrides_it_draws(cli, tmp_path):
    preset = tmp_path / "mine.yaml"
    preset.write_text(MY_A100, encoding="utf-8")
    run = cli("plot", "roofline", "--hw", "a100", "--formulas", str(preset), "-o", str(tmp_path / "r.png"))
    assert run.code == 0, run.err
    (line,) = _warnings(run.err)
    assert _names_override(line, "preset", "a100", preset, "formulas/hardware_gpu.yaml")
    plain = cli("plot", "roofline", "--hw", "a100", "-o", str(tmp_path / "p.png"))
    assert plain.code == 0 and _warnings(plain.err) == []


MY_V5E = """
presets:
  - id: tpu-v5e
    override: true
    extends: tpu-v5e-8.1e11
    kind: hw
    name: {en: my v5e, zh: 我的 v5e}
    source: seed-memory-hierarchy
    values:
      ici_link_bw: 2.25e10 B/s
"""
SHARD = ("shard", "A[I_X, J] * B[J_X, K_Y] -> C[I_X, K_Y]", "I=8192", "J=8192", "K=32768", "--mesh", "X=4,Y=4",
         "--hw", "tpu-v5e")


def test_a_shard_plan_names_the_override_it_rests_on(cli, tmp_path):
    """Issue 30: derive shard timed the collectives with an overridden preset (half the ICI bandwidth,
    twice the time) without a word."""
    path = tmp_path / "myv5e.yaml"
    path.write_text(MY_V5E, encoding="utf-8")
    plain = cli(*SHARD, "--format", "json")
    text = cli(*SHARD, "--formulas", str(path))
    js = cli(*SHARD, "--formulas", str(path), "--format", "json")
    assert plain.code == text.code == js.code == 0, (text.err, js.err)
    assert [_names_override(w, "preset", "tpu-v5e", path, "formulas/hardware_tpu.yaml")
            for w in _warnings(text.err)] == [True]
    assert js.json["overrides"] == [{"kind": "preset", "id": "tpu-v5e", "file": str(path),
                                     "replaced": "formulas/hardware_tpu.yaml"}]
    assert "overrides" not in plain.json
    # half the built-in 4.5e10 B/s one way: the collectives take twice as long
    assert js.json["comms_time"]["value"] == pytest.approx(2 * plain.json["comms_time"]["value"], rel=1e-12)
