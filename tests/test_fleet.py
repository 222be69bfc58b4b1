"""Fleet studies: every model × hardware × device count planned, here and on a real local Dask cluster.

A row is the best layout ``derive.plan_training`` finds for its combination; a combination that cannot
be planned is a row with its reason. On a LocalCluster of two worker processes (each loading the
catalog itself) the rows equal the in-process ones exactly.
"""

from __future__ import annotations

import csv
import io
import json
import sys

import pytest
from conftest import REQUIRE_TOOLS

import derive
from derive.errors import InputError, UnknownNameError
from derive.planning.fleet import fleet_study

MODELS = ["llama3-8b", "llama2-13b"]
HWS = ["h100", "b200", "tpu-v5e"]          # two GPUs the plan places, a TPU it refuses
DEVICES = [64, 128]
GIVEN = {"batch_tokens": "524288", "seq_len": 4096}   # text or numbers, as derive takes them
PRESETS = ["bf16", "adam-mixed"]


def study(**options):
    return fleet_study(MODELS, HWS, DEVICES, GIVEN, presets=PRESETS, **options)


@pytest.fixture(scope="module")
def here():
    return study()


def test_each_row_is_the_plan_of_its_combination(here):
    assert [(r["model"], r["hw"], r["devices"]) for r in here.rows] == sorted(
        (m, h, n) for m in MODELS for h in HWS for n in DEVICES)
    planned = [r for r in here.rows if r["hw"] != "tpu-v5e"]
    assert len(planned) == 8 and all(r["ok"] and r["reason"] == "" for r in planned)
    for row in planned:
        plan = derive.plan_training({**GIVEN, "num_devices": row["devices"]}, model=row["model"], hw=row["hw"],
                                    presets=PRESETS)
        best = plan.best
        assert row["layout"] == plan.layout(best)
        assert row["numbers"]["step_time"] == plan.numbers(best)["step_time"]
        assert row["numbers"] == plan.numbers(best)
        assert row["fits"] == plan.fits(best) and row["fits"]["ok"]
        assert (row["evaluated"], row["searched"]) == (plan.evaluated, plan.searched)
        assert row["refused"] == dict(plan.refused)


def test_a_refused_question_is_a_row_with_its_reason(here):
    tpu = [r for r in here.rows if r["hw"] == "tpu-v5e"]
    assert len(tpu) == 4
    for row in tpu:
        assert not row["ok"] and row["layout"] is None and row["numbers"] is None
        assert "nvlink_gpu_bw" in row["reason"] and "\n" not in row["reason"]
        assert row["evaluated"] == 0


def test_a_combination_where_nothing_fits_is_a_row_with_the_reasons():
    (row,) = fleet_study(["llama3-405b"], ["h100"], [8], GIVEN, presets=PRESETS).rows
    assert not row["ok"] and row["reason"].startswith("none of the")
    assert row["evaluated"] > 0 and row["refused"]["does not fit in device memory"] > 0


def test_counts_json_and_csv(here):
    assert (here.combinations, here.planned) == (12, 8)
    assert here.evaluated == sum(r["evaluated"] for r in here.rows) > 0
    assert here.searched >= here.evaluated
    data = json.loads(json.dumps(here.to_dict()))
    assert data["combinations"] == 12 and data["rows"] == here.rows
    out = io.StringIO()
    here.write_csv(out)
    lines = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert len(lines) == 12
    for line, row in zip(lines, here.rows):
        assert (line["model"], line["hw"], int(line["devices"])) == (row["model"], row["hw"], row["devices"])
        if row["ok"]:
            assert float(line["step_time"]) == row["numbers"]["step_time"] and int(line["tp"]) == row["layout"]["tp"]
        else:
            assert line["reason"] == row["reason"] and line["step_time"] == ""


@pytest.mark.parametrize("options, message", [
    ({"given": {**GIVEN, "num_devices": 64}}, "num_devices"),
    ({"chunk_size": 0}, "chunk_size"),
    ({"objective": "speed"}, "objective"),
    ({"device_counts": [0]}, "device counts"),
])
def test_mistakes_about_the_whole_study_are_raised_once(options, message):
    args = {"models": MODELS, "hws": HWS, "device_counts": DEVICES, "given": GIVEN, "presets": PRESETS, **options}
    with pytest.raises(InputError, match=message):
        fleet_study(**args)


def test_a_misspelt_preset_is_raised_not_recorded():
    with pytest.raises(UnknownNameError):
        fleet_study(["llama3-8bb"], HWS, DEVICES, GIVEN, presets=PRESETS)


@pytest.mark.parametrize("scheduler", ["local:2", "tcp://127.0.0.1:8786"])
def test_without_dask_a_cluster_study_says_what_to_install(monkeypatch, scheduler):
    for name in ("dask", "dask.distributed", "distributed", "distributed.comm.addressing"):
        monkeypatch.setitem(sys.modules, name, None)    # import fails as it does when dask is not installed
    with pytest.raises(InputError, match=r"pip install 'derive\[distributed\]'") as caught:
        study(scheduler=scheduler)
    assert "\n" not in str(caught.value)


# ------------------------------------------------------------------ on a real local Dask cluster

def need_dask():
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        if REQUIRE_TOOLS:
            pytest.fail("dask[distributed] is required in CI (DERIVE_REQUIRE_TOOLS=1): pip install -e '.[test]'")
        pytest.skip("dask[distributed] is not installed (pip install 'derive[distributed]')")


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes of one thread each; no dashboard (a 2-core CI machine runs this)."""
    need_dask()
    from dask.distributed import LocalCluster

    local = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                         scheduler_kwargs={"dashboard_address": ":0"})
    try:
        yield local
    finally:
        local.close()


@pytest.mark.dask
def test_a_study_on_a_dask_cluster_equals_the_one_in_process(cluster, here):
    there = study(scheduler=cluster.scheduler_address, chunk_size=3)
    assert there.rows == here.rows
    assert there.to_dict() == here.to_dict()


@pytest.mark.dask
def test_local_n_starts_a_cluster_for_the_study(here):
    need_dask()
    assert study(scheduler="local:2").rows == here.rows


@pytest.mark.dask
def test_a_scheduler_that_is_not_there_is_one_line():
    need_dask()
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        for address in ("tcp://127.0.0.1:1", "nowhere"):
            with pytest.raises(InputError, match="cannot reach the Dask scheduler"):
                study(scheduler=address)
    with pytest.raises(InputError, match="local:N"):
        study(scheduler="local:0")
