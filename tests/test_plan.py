"""Plans (issue 33): every number a plan reports is the engine's, and the published formulas by hand.

The contract of ``derive.plan_training`` and ``derive.plan_serving``, checked with real SymPy solving:

* agreement: on 200 training layouts and 60 serving ones, drawn with a fixed seed across feasible and
  refused rows, every ZeRO stage and recomputation scheme, every precision, and a mixture of experts
  with and without expert parallelism, each evaluated column equals ``derive.solve`` on that layout
  (``Plan.given_for`` and ``Plan.presets_for``) to 1e-9 relative;
* a plan never recommends a layout that does not fit, and accounts for every layout it searched;
* the issue's two Done-when questions give the JSON fields it lists, serialisable without NaN;
* one training and two serving layouts recomputed by hand from the published formulas (Megatron's
  tensor-parallel volume and 1F1B bubble, ZeRO-1's state, 6·N plus attention FLOPs; weights and KV
  reads over HBM bandwidth), so a wrong catalog relation fails here even where the vectorised
  evaluation reproduces it faithfully;
* a named layout, a mixture of experts, and one-line refusals of bad input.
"""

from __future__ import annotations

import json
import math
from collections import Counter

import numpy as np
import pytest

import derive
from derive.errors import InputError, NoSolutionError

PRICE = "2 USD/h"
TRAIN = {"num_devices": 1024, "batch_tokens": 4194304, "seq_len": 8192}
SERVE = {"seq_len": 4096, "gen_tokens": 512}
SETUP = dict(model="llama3-70b", hw="h100", presets=["bf16", "adam-mixed"])
MOE_TRAIN = {"num_devices": 64, "batch_tokens": 1048576, "seq_len": 4096}

# the columns of a training plan that are a layout's inputs (axes, links, the recipes' preset values);
# every other column is a quantity the plan evaluated and must equal the engine's answer
TRAIN_INPUTS = {"data_parallel", "tensor_parallel", "pp_stages", "context_parallel", "expert_parallel", "micro_batch",
                "pp_microbatches", "pp_virtual_stages", "zero_stage", "recompute", "tp_link_bw", "cp_link_bw",
                "ep_link_bw", "dp_link_bw", "pp_link_bw", "weight_shards", "grad_shards", "optimizer_shards",
                "grad_collective_passes", "weight_gathers", "activation_factor", "recompute_fraction"}
# a serving plan's inputs, and the columns it derives in NumPy from evaluated ones (fleet size)
SERVE_INPUTS = {"tensor_parallel", "pp_stages", "batch", "precision", "tp_link_bw", "replicas", "devices",
                "tokens_per_s_per_device"}

# rows per plan: 200 training layouts (a mixture of experts' solves take three times a dense model's) and 60 serving
TRAIN_ROWS = {"llama": 120, "mixtral": 80}
TRAIN_CHUNK = 10
SERVE_ROWS, SERVE_CHUNK = 30, 10      # per serving plan (the same two models): 60 rows


# ---------------------------------------------------------------------------------------------- plans
@pytest.fixture(scope="module")
def llama():
    """The issue's training question with a price and a power, so cost and energy are evaluated too."""
    return derive.plan_training({**TRAIN, "device_hour_price": PRICE, "device_power": "700 W"}, **SETUP)


@pytest.fixture(scope="module")
def llama_named():
    """The issue's training question as asked (no price), with a layout the user names."""
    return derive.plan_training(TRAIN, layout={"dp": 8, "tp": 8, "pp": 16}, **SETUP)


@pytest.fixture(scope="module")
def mixtral():
    return derive.plan_training(MOE_TRAIN, model="mixtral-8x7b", hw="h100", presets=["bf16", "adam-mixed"])


@pytest.fixture(scope="module")
def serve():
    """The issue's serving question, priced."""
    return derive.plan_serving({**SERVE, "device_hour_price": PRICE}, model="llama3-70b", hw="h100", slo_tpot="50ms")


@pytest.fixture(scope="module")
def serve_moe():
    """A mixture of experts served at a request rate (replicas sized by load), both SLOs."""
    return derive.plan_serving({"seq_len": 2048, "gen_tokens": 256, "device_hour_price": PRICE, "request_rate": "5 /s"},
                               model="mixtral-8x7b", hw="h100", slo_tpot="50ms", slo_ttft="300ms")


def spread(keys: list[tuple], n: int, seed: int) -> list[int]:
    """``n`` rows drawn with a fixed seed, round-robin over the groups the rows' keys form, so that
    every group (feasible or not, each recipe, ...) is represented even when it is small."""
    rng = np.random.default_rng(seed)
    groups: dict[tuple, list[int]] = {}
    for row, key in enumerate(keys):
        groups.setdefault(key, []).append(row)
    queues = [list(rng.permutation(rows)) for _, rows in sorted(groups.items(), key=lambda kv: str(kv[0]))]
    out: list[int] = []
    while len(out) < n and any(queues):
        for q in queues:
            if q and len(out) < n:
                out.append(int(q.pop()))
    return out


def train_keys(plan) -> list[tuple]:
    c = plan.columns
    return list(zip(plan.feasible.tolist(), c["zero_stage"].astype(int).tolist(), c["recompute"].astype(int).tolist(),
                    (c["expert_parallel"] >= 2).tolist()))


def serve_keys(plan) -> list[tuple]:
    return list(zip(plan.reason.tolist(), plan.columns["precision"].astype(int).tolist()))


def quantity_columns(plan) -> list[str]:
    inputs = TRAIN_INPUTS if plan.kind == "train" else SERVE_INPUTS
    return [name for name in plan.columns if name not in inputs]


def engine(plan, quantity: str, row: int) -> float:
    """``derive solve`` for one quantity on one layout of a plan, base units (NaN where it has no value)."""
    try:
        sol = derive.solve(quantity, plan.given_for(row), hw=plan.inputs.hw, model=plan.inputs.model,
                           presets=plan.presets_for(row))
    except NoSolutionError:
        return math.nan
    return sol.float


def assert_agrees(plan, rows: list[int]) -> None:
    bad = []
    for row in rows:
        for q in quantity_columns(plan):
            mine, theirs = float(plan.columns[q][row]), engine(plan, q, row)
            same = (math.isnan(mine) and math.isnan(theirs)) or math.isclose(mine, theirs, rel_tol=1e-9, abs_tol=0)
            if not same:
                bad.append((row, plan.layout(row), q, mine, theirs))
    assert not bad, bad


# ---------------------------------------------------------------------------------------------- agreement
@pytest.mark.parametrize("which, chunk", [(w, i) for w, n in TRAIN_ROWS.items() for i in range(n // TRAIN_CHUNK)])
def test_training_plan_equals_solve_on_random_layouts(which, chunk, request):
    plan = request.getfixturevalue(which)
    rows = spread(train_keys(plan), TRAIN_ROWS[which], seed=33)
    assert_agrees(plan, rows[chunk * TRAIN_CHUNK:(chunk + 1) * TRAIN_CHUNK])


@pytest.mark.parametrize("chunk", range(SERVE_ROWS // SERVE_CHUNK))
@pytest.mark.parametrize("which", ["serve", "serve_moe"])
def test_serving_plan_equals_solve_on_random_layouts(which, chunk, request):
    plan = request.getfixturevalue(which)
    rows = spread(serve_keys(plan), SERVE_ROWS, seed=33)
    assert_agrees(plan, rows[chunk * SERVE_CHUNK:(chunk + 1) * SERVE_CHUNK])


def test_the_sampled_rows_cover_what_the_agreement_claims(llama, mixtral, serve, serve_moe):
    """The 200 + 60 rows span feasible and refused layouts, every recipe, precision and expert parallelism,
    and every quantity the plans report (cost and energy included)."""
    for which, plan in (("llama", llama), ("mixtral", mixtral)):
        rows = spread(train_keys(plan), TRAIN_ROWS[which], seed=33)
        assert len(set(rows)) == TRAIN_ROWS[which]
        keys = Counter(train_keys(plan)[r] for r in rows)
        assert {k[0] for k in keys} == {True, False}
        assert {k[1] for k in keys} == {0, 1, 2, 3} and {k[2] for k in keys} == {0, 1, 2}
    ep = {train_keys(mixtral)[r][3] for r in spread(train_keys(mixtral), TRAIN_ROWS["mixtral"], seed=33)}
    assert ep == {True, False}
    assert {"layout_step_cost", "layout_step_energy", "layout_memory_per_device", "layout_step_time", "layout_mfu",
            "layout_tp_comms_time", "layout_dp_comms_time", "layout_weight_bytes",
            "layout_activation_bytes"} <= set(quantity_columns(llama))
    for plan in (serve, serve_moe):
        rows = spread(serve_keys(plan), SERVE_ROWS, seed=33)
        reasons = {plan.reason[r] for r in rows}
        assert "" in reasons and "does not fit in device memory" in reasons
        assert {int(plan.columns["precision"][r]) for r in rows} == set(range(len(plan.labels["precision"])))
    assert any("SLO" in plan.reason[r] for plan in (serve, serve_moe)
               for r in spread(serve_keys(plan), SERVE_ROWS, seed=33))
    assert {"serve_tpot", "serve_ttft", "serve_tokens_per_s", "serve_memory_per_device", "serve_kv_sequences",
            "serve_cost_per_mtok", "serve_replica_load"} <= set(quantity_columns(serve_moe))


# ---------------------------------------------------------------------------------------------- never infeasible
@pytest.mark.parametrize("which", ["llama", "mixtral", "serve", "serve_moe"])
def test_a_plan_recommends_only_layouts_that_fit_and_counts_every_refusal(which, request):
    plan = request.getfixturevalue(which)
    d = plan.to_dict(top=20)
    assert d["best"]["fits"]["ok"] is True and d["best"]["rank"] == 1
    assert len(d["top"]) == 20 and all(r["fits"]["ok"] for r in d["top"] + d["pareto"])
    assert [r["rank"] for r in d["top"]] == list(range(1, 21))
    total = "layout_memory_per_device" if plan.kind == "train" else "serve_memory_per_device"
    capacity = 80e9                                                        # the H100's HBM
    mem = plan.columns[total]
    assert np.all(mem[plan.feasible] <= capacity) and np.all(plan.reason[~plan.feasible] != "")
    assert np.all(mem[plan.reason == "does not fit in device memory"] > capacity)
    assert set(plan.order.tolist()) == set(np.nonzero(plan.feasible)[0].tolist())
    for r in d["top"]:
        assert r["fits"]["need"] == r["memory_per_device"] and r["fits"]["have"] == capacity
        assert math.isclose(sum(r["fits"]["by_component"].values()), r["fits"]["need"], rel_tol=1e-12)
        assert r["fits"]["by_component"]["reserve"] == pytest.approx(0.1 * capacity, rel=1e-12)
    # every layout searched is either evaluated or refused before, and every refusal has its reason counted
    assert d["searched"] == d["evaluated"] + plan.structural == plan.searched
    assert sum(d["infeasible"].values()) == d["searched"] - len(plan.order)
    evaluated_refusals = Counter(plan.reason[~plan.feasible].tolist())
    for why, n in evaluated_refusals.items():
        assert d["infeasible"][why] >= n
    assert d["evaluated"] == plan.feasible.size and d["evaluated"] > 0
    if plan.kind == "train":        # the objective is the step time: best first, no feasible layout faster
        t = plan.columns["layout_step_time"]
        assert np.all(np.diff(t[plan.order]) >= 0) and t[plan.best] == t[plan.feasible].min()


@pytest.mark.parametrize("which", ["llama", "mixtral"])
def test_every_training_layout_searched_is_accounted_for_and_each_evaluated_one_can_run(which, request):
    """The search space counted independently (degrees whose product is the devices, context parallelism up
    to 16, expert parallelism over the divisors of the data-parallel degree, 4 micro-batch sizes, 4 virtual
    stage counts, 4 ZeRO stages, 3 recomputation schemes) equals ``searched``; every evaluated layout's
    degrees divide what they split (pipeline stages need not divide the layers: the busiest stage holds
    ceil(L/p) of them, and at most L stages)."""
    from derive.planning.layouts import divisors

    plan = request.getfixturevalue(which)
    question = TRAIN if which == "llama" else MOE_TRAIN
    moe = which == "mixtral"
    heads, layers, experts = (64, 80, 0) if not moe else (32, 32, 8)
    n, seq = question["num_devices"], question["seq_len"]
    sequences = question["batch_tokens"] // seq
    space = 0
    for t in divisors(n):
        for p in divisors(n // t):
            for c in divisors(n // (t * p)):
                if c <= 16:
                    space += (len(divisors(n // (t * p * c))) if moe else 1) * 4 * 4 * 4 * 3
    assert plan.searched == space
    c = {k: v.astype(np.int64) for k, v in plan.columns.items() if k in TRAIN_INPUTS and not k.endswith("_bw")}
    d, t, p, cp, e = c["data_parallel"], c["tensor_parallel"], c["pp_stages"], c["context_parallel"], c["expert_parallel"]
    b, m, v = c["micro_batch"], c["pp_microbatches"], c["pp_virtual_stages"]
    assert np.all(d * t * p * cp == n) and np.all(heads % t == 0) and np.all(p <= layers)
    assert np.all(seq % cp == 0) and np.all(d * b * m == sequences) and np.all((p == 1) | (m >= p))
    assert np.all((v == 1) | ((p > 1) & ((-(-layers // p)) % v == 0) & (m % p == 0)))
    if moe:
        assert np.all((experts % e == 0) & (d % e == 0))
    else:
        assert np.all(e == 1)
    # each axis on the link it would use: inside the 8-GPU NVLink domain at NVLink's 450 GB/s, else the NIC's 50
    for axis, group in (("tp", t), ("cp", t * cp), ("ep", t * cp * e), ("dp", t * cp * d), ("pp", t * cp * d * p)):
        assert np.array_equal(plan.columns[f"{axis}_link_bw"], np.where(group <= 8, 450e9, 50e9)), axis


# ---------------------------------------------------------------------------------------------- Done when
def test_training_question_of_the_issue_returns_its_json_fields(llama_named, llama):
    d = json.loads(json.dumps(llama_named.to_dict(), allow_nan=False))
    best = d["best"]
    assert {"dp", "tp", "pp", "ep", "cp", "zero", "recompute", "micro_batch", "microbatches",
            "virtual_stages"} <= set(best["layout"])
    lay = best["layout"]
    assert lay["dp"] * lay["tp"] * lay["pp"] * lay["cp"] == 1024 and lay["ep"] == 1
    assert lay["dp"] * lay["micro_batch"] * lay["microbatches"] * 8192 == 4194304
    assert best["fits"]["ok"] is True and best["fits"]["need"] <= best["fits"]["have"] == 80e9
    for key in ("step_time", "mfu", "tokens_per_s"):
        assert isinstance(best[key], float) and best[key] > 0, key
    assert 0 < best["mfu"] <= 1
    assert best["tokens_per_s"] == pytest.approx(4194304 / best["step_time"], rel=1e-12)
    assert "cost" not in best and "energy" not in best                        # no price, no power given
    assert d["evaluated"] > 0 and isinstance(d["infeasible"], dict) and d["infeasible"]
    assert isinstance(d["pareto"], list) and d["pareto"]
    assert "gpus_per_node" in d["assumed"]                                    # the h100 preset does not say
    # priced: the cost of a step is every device for the whole step at the price; energy at the power
    priced = json.loads(json.dumps(llama.to_dict(), allow_nan=False))["best"]
    assert priced["layout"] == lay and priced["step_time"] == best["step_time"]
    assert priced["cost"] == pytest.approx(1024 * priced["step_time"] * 2 / 3600, rel=1e-12)
    assert priced["energy"] == pytest.approx(1024 * priced["step_time"] * 700, rel=1e-12)


def test_the_issues_4e6_tokens_train_on_the_nearest_whole_number_of_sequences_and_say_so():
    """4e6 tokens is 488.28 sequences of 8,192: the plan trains on 488 and says so; a batch below one
    sequence, or not a finite number, is refused in one line naming batch_tokens."""
    plan = derive.plan_training({"num_devices": 1024, "batch_tokens": 4e6, "seq_len": 8192}, **SETUP)
    assert "488 sequences (3,997,696 tokens)" in plan.assumed["batch_tokens"]["en"]
    best = plan.layout(plan.best)
    assert best["dp"] * best["micro_batch"] * best["microbatches"] == 488
    for tokens in (4000, float("nan"), float("inf")):
        with pytest.raises(InputError) as info:
            derive.plan_training({"num_devices": 1024, "batch_tokens": tokens, "seq_len": 8192}, **SETUP)
        message = str(info.value)
        assert "batch_tokens" in message and "\n" not in message


def test_serving_question_of_the_issue_returns_its_json_fields(serve):
    bare = derive.plan_serving(SERVE, model="llama3-70b", hw="h100", slo_tpot="50ms")
    d = json.loads(json.dumps(bare.to_dict(), allow_nan=False))
    best = d["best"]
    assert {"tp", "pp", "batch", "precision", "replicas"} <= set(best["layout"])
    assert best["layout"]["precision"] in ("bf16", "fp8", "w4a16")
    assert best["fits"]["ok"] is True
    for key in ("ttft", "tpot", "tokens_per_s"):
        assert isinstance(best[key], float) and best[key] > 0, key
    assert isinstance(best["kv_sequences"], int) and best["kv_sequences"] > 0      # whole sequences
    assert best["devices"] == best["layout"]["tp"] * best["layout"]["pp"] * best["layout"]["replicas"]
    assert best["tpot"] <= 0.05 and "cost_per_mtok" not in best
    assert best["kv_sequences"] >= best["layout"]["pp"] * best["layout"]["batch"]   # the batch's caches fit
    assert np.all(bare.columns["serve_tpot"][bare.feasible] <= 0.05)
    assert d["infeasible"].get("time per output token above the SLO", 0) > 0
    # priced: the replica's device-hours for a million tokens at its throughput
    priced = json.loads(json.dumps(serve.to_dict(), allow_nan=False))["best"]
    assert priced["layout"] == best["layout"]
    per_replica = priced["layout"]["tp"] * priced["layout"]["pp"]
    assert priced["cost_per_mtok"] == pytest.approx(1e6 * per_replica * 2 / 3600 / priced["tokens_per_s"], rel=1e-12)


def test_every_plan_is_json_without_nan(llama, mixtral, serve, serve_moe):
    for plan in (llama, mixtral, serve, serve_moe):
        json.dumps(plan.to_dict(top=50), allow_nan=False)


# ---------------------------------------------------------------------------------------------- by hand
def test_a_training_layout_recomputed_by_hand(llama_named):
    """Llama-3-70B on 1,024 H100s, dp 8 × tp 8 × pp 16, one sequence a micro-batch, 64 micro-batches,
    ZeRO-1, selective recomputation; NVLink (450 GB/s) inside an 8-GPU node, the NIC (50 GB/s) across."""
    plan = llama_named
    row = plan.find({"dp": 8, "tp": 8, "pp": 16, "cp": 1, "micro_batch": 1, "virtual_stages": 1, "zero": 1,
                     "recompute": "selective"})
    got = plan.numbers(row)
    assert plan.layout(row)["microbatches"] == 64
    N, L, D, H, dh = 70e9, 80, 8192, 64, 128                # the llama3-70b preset
    peak, nvlink, nic, hbm = 989e12, 450e9, 50e9, 80e9      # the h100 preset
    T, d, t, p, b, m, v = 8192, 8, 8, 16, 1, 64, 1
    devices, tokens = d * t * p, b * m * d * T
    # FLOPs: 6·N for the weights (forward and backward), attention scores 3 × 4·L·T·H·d_h (PaLM's count);
    # selective recomputation recomputes no matmul
    attention = 4 * L * T * H * dh
    compute = tokens * (6 * N + 3 * attention) / (devices * peak)
    # Megatron with sequence parallelism: per layer and micro-batch, 2 all-gathers + 2 reduce-scatters forward
    # and as many backward, each moving (t − 1)/t of the b·T·D bf16 activations per device, on NVLink
    tp_comms = 8 * (L / p) * m * (t - 1) / t * b * T * D * 2 / nvlink
    bubble = (p - 1) / (v * m)
    # pipeline fill and drain: one micro-batch's activations (split t ways) over p − 1 hops each way, on the NIC
    pp_comms = 2 * (p - 1) * b * T * D * 2 / t / nic
    # ZeRO-1: reduce-scatter bf16 gradients and all-gather bf16 weights of the t·p shard over d ranks
    dp_comms = (d - 1) / d * N / (t * p) * (2 + 2) / nic
    step = (compute + tp_comms) * (1 + bubble) + pp_comms + max(dp_comms - compute, 0)
    mfu = tokens * (6 * N + 12 * L * H * dh * T) / (devices * peak * step)
    # memory: bf16 weights and gradients of the shard, Adam's 12 B/param split over d, 34·s·b·h/t bytes a layer
    # (Korthikanti et al., sequence parallelism + selective recomputation) for L layers on the first stage
    weights, grads, optimizer = N / (t * p) * 2, N / (t * p) * 2, N / (t * p) * 12 / d
    activations = 34 * T * b * D * L / t
    memory = weights + grads + optimizer + activations + 0.1 * hbm
    expected = {"compute_time": compute, "tp_comms_time": tp_comms, "bubble": bubble, "pp_comms_time": pp_comms,
                "dp_comms_time": dp_comms, "cp_comms_time": 0.0, "ep_comms_time": 0.0, "step_time": step,
                "mfu": mfu, "tokens_per_s": tokens / step, "weights": weights, "gradients": grads,
                "optimizer_state": optimizer, "activations": activations, "memory_per_device": memory}
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, rel=1e-12, abs=0), key
    assert got["step_time"] == pytest.approx(3.3112514315, rel=1e-10)     # the figure these formulas give
    assert got["memory_per_device"] == 33824826260.0


@pytest.mark.parametrize("tp, pp, batch, precision", [(8, 1, 64, "bf16"), (16, 2, 32, "fp8")])
def test_a_serving_layout_recomputed_by_hand(serve, tp, pp, batch, precision):
    """TPOT: each of p stages reads its weights over t devices' HBM (or computes 2·N·B FLOPs, if longer), then
    the KV cache of its B sequences at the mean context, split over min(t, 8 KV heads) × p devices, and
    all-reduces its B·D activations twice per layer over the tensor-parallel link (NVLink up to 8 GPUs)."""
    row = serve.find({"tp": tp, "pp": pp, "batch": batch, "precision": precision})
    got = serve.numbers(row)
    N, L, H, kv_heads, dh, D = 70e9, 80, 64, 8, 128, 8192
    peak = {"bf16": 989e12, "fp8": 1979e12}[precision]
    byte = {"bf16": 2, "fp8": 1}[precision]                 # weights and KV cache in the precision's bytes
    hbm_bw, hbm, T, out = 3.35e12, 80e9, 4096, 512
    devices = tp * pp
    kv_per_token = 2 * L * kv_heads * dh * byte
    kv_shards = pp * min(tp, kv_heads)
    stage = max(2 * N * batch / (devices * peak), N * byte / (devices * hbm_bw)) \
        + batch * (T + out / 2) * kv_per_token / (kv_shards * hbm_bw) \
        + 4 * (tp - 1) * batch * D * byte * L / (tp * pp * (450e9 if tp <= 8 else 50e9))
    tpot = pp * stage
    ttft = (2 * N * T + 2 * L * T ** 2 * H * dh) / (tp * peak)
    weights = N * byte / devices
    kv = pp * batch * (T + out) * kv_per_token / kv_shards
    expected = {"tpot": tpot, "ttft": ttft, "tokens_per_s": pp * batch / tpot, "weights": weights, "kv_cache": kv,
                "memory_per_device": weights + kv + 0.1 * hbm,
                "kv_sequences": math.floor((hbm - 0.1 * hbm - weights) * kv_shards / ((T + out) * kv_per_token)),
                "cost_per_mtok": 1e6 * devices * 2 / 3600 / (pp * batch / tpot)}
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, rel=1e-12, abs=0), key
    assert got["devices"] == devices


# ---------------------------------------------------------------------------------------------- named layout
def test_a_named_layout_is_ranked_with_its_gap_to_the_best(llama_named):
    named = llama_named.to_dict()["named"]
    assert {k: named["layout"][k] for k in ("dp", "tp", "pp", "cp")} == {"dp": 8, "tp": 8, "pp": 16, "cp": 1}
    assert isinstance(named["rank"], int) and named["rank"] >= 1 and named["fits"]["ok"]
    best = llama_named.numbers(llama_named.best)["step_time"]
    assert named["gap"] >= 0 and named["gap"] == pytest.approx(named["step_time"] / best - 1, rel=1e-12)
    # the axes left out (micro-batch, recipe, ...) take what ranks best among the layouts with these degrees
    same = np.nonzero((llama_named.columns["data_parallel"] == 8) & (llama_named.columns["tensor_parallel"] == 8)
                      & (llama_named.columns["pp_stages"] == 16) & llama_named.feasible)[0]
    assert named["step_time"] == llama_named.columns["layout_step_time"][same].min()


def test_a_named_layout_whose_degrees_do_not_multiply_to_the_devices_is_refused(llama_named):
    with pytest.raises(InputError, match="multiply to the devices"):
        llama_named.find({"dp": 8, "tp": 8, "pp": 16, "cp": 2})          # 2,048 devices, not 1,024
    with pytest.raises(InputError, match="dp=3"):
        derive.plan_training(TRAIN, layout={"dp": 3}, **SETUP)


# ---------------------------------------------------------------------------------------------- MoE
def test_a_mixture_of_experts_plan_splits_the_experts(mixtral):
    c = mixtral.columns
    e = c["expert_parallel"]
    assert set(np.unique(e).tolist()) == {1.0, 2.0, 4.0, 8.0}
    assert np.any(mixtral.feasible & (e >= 2))
    routed = 32 * 8 * 3 * 4096 * 14336                       # moe layers × experts × 3 matrices × D × F
    params = derive.solve("params", model="mixtral-8x7b").float
    t, p = c["tensor_parallel"], c["pp_stages"]
    unsharded = c["zero_stage"] < 3
    # bf16 weights of the t·p shard: the routed experts split e ways besides
    want = (params - routed + routed / e) / (t * p) * 2
    assert np.allclose(c["layout_weight_bytes"][unsharded], want[unsharded], rtol=1e-12, atol=0)
    assert np.all((c["layout_ep_comms_time"] > 0) == (e >= 2))
    # the same layout with and without expert parallelism: fewer weight bytes per device with it
    axes = ("data_parallel", "tensor_parallel", "pp_stages", "context_parallel", "micro_batch", "pp_microbatches",
            "pp_virtual_stages", "zero_stage", "recompute")
    index = {tuple(c[a][r] for a in axes): r for r in np.nonzero(e == 1)[0]}
    pairs = [(r, index[tuple(c[a][r] for a in axes)]) for r in np.nonzero(e >= 2)[0]]
    assert len(pairs) == int((e >= 2).sum())
    for with_ep, without in pairs:
        # ZeRO-3 already spreads every weight over the d ranks: expert parallelism saves nothing more there,
        # each expert's state being sharded over its d/e replicas instead
        if c["zero_stage"][with_ep] < 3:
            assert c["layout_weight_bytes"][with_ep] < c["layout_weight_bytes"][without]
        else:
            assert c["layout_weight_bytes"][with_ep] == pytest.approx(c["layout_weight_bytes"][without], rel=1e-12)
        assert c["layout_memory_per_device"][with_ep] <= c["layout_memory_per_device"][without] * (1 + 1e-12)


def test_sharded_state_of_a_mixture_of_experts_adds_up_to_the_whole_model(mixtral):
    """Summed over the t·p·d devices of one context-parallel rank, ZeRO's optimizer shards hold at least
    Adam's 12 bytes for every parameter: no layout may keep less state than the model has."""
    c = mixtral.columns
    params = derive.solve("params", model="mixtral-8x7b").float
    rows = np.nonzero(c["zero_stage"] >= 1)[0]
    held = c["layout_optimizer_bytes"][rows] * (c["tensor_parallel"] * c["pp_stages"] * c["data_parallel"])[rows]
    assert np.all(held >= 12 * params * (1 - 1e-12)), c["expert_parallel"][rows][held < 12 * params].tolist()[:5]


# ---------------------------------------------------------------------------------------------- bad input
BAD_TRAINING = [
    ("objective", dict(objective="speed"), TRAIN),
    ("zero", dict(zero=[5]), TRAIN),
    ("recompute", dict(recompute=["sometimes"]), TRAIN),
    ("micro", dict(micro_batches=[0]), TRAIN),
    ("num_devices", {}, {"batch_tokens": 4194304, "seq_len": 8192}),
    ("batch_tokens", {}, {"num_devices": 1024, "seq_len": 8192}),
    ("seq_len", {}, {"num_devices": 1024, "batch_tokens": 4194304}),
    ("num_devices", {}, {**TRAIN, "num_devices": 0}),
    ("num_devices", {}, {**TRAIN, "num_devices": 1.5}),
    ("num_devices", {}, {**TRAIN, "num_devices": float("inf")}),
    ("num_devices", {}, {**TRAIN, "num_devices": float("nan")}),
    ("batch_tokens", {}, {**TRAIN, "batch_tokens": float("nan")}),
    ("batch_tokens", {}, {**TRAIN, "batch_tokens": float("inf")}),
    ("batch_tokens", {}, {**TRAIN, "batch_tokens": 0}),
]


@pytest.mark.parametrize("field, options, given", BAD_TRAINING,
                         ids=[f"{f}-{i}" for i, (f, _, _) in enumerate(BAD_TRAINING)])
def test_bad_training_input_is_refused_in_one_line_naming_the_field(field, options, given):
    with pytest.raises(InputError) as info:
        derive.plan_training(given, **SETUP, **options)
    assert type(info.value) is InputError
    message = str(info.value)
    assert field.lower() in message.lower() and "\n" not in message, message


BAD_SERVING = [
    ("gen_tokens", {}, {"seq_len": 4096}),
    ("gen_tokens", {}, {"seq_len": 4096, "gen_tokens": float("nan")}),
    ("slo_tpot", dict(slo_tpot="fast"), SERVE),
    ("slo_tpot", dict(slo_tpot="5 GB"), SERVE),
    ("slo_tpot", dict(slo_tpot=float("nan")), SERVE),
    ("slo_ttft", dict(slo_ttft=-1), SERVE),
]


@pytest.mark.parametrize("field, options, given", BAD_SERVING,
                         ids=[f"{f}-{i}" for i, (f, _, _) in enumerate(BAD_SERVING)])
def test_bad_serving_input_is_refused_in_one_line_naming_the_field(field, options, given):
    with pytest.raises(InputError) as info:
        derive.plan_serving(given, model="llama3-70b", hw="h100", **options)
    message = str(info.value)
    assert field in message and "\n" not in message, message
