"""Plan speed, as ratios measured in one run (run by hand: python benchmarks/bench_plan.py).

Layouts evaluated per second (issue 33's target: at least 10^7 layouts in at most 10 s on the 2-core machine),
each against the same step-time and memory model typed out in NumPy by hand (Llama-3-70B on H100s, bf16
weights, Adam in mixed precision; the catalog's relations in ``formulas/layouts.yaml``):

1. the user's call: ``derive.plan_training`` for Llama-3-70B on 4,096 H100s, 16M tokens a step, micro-batches
   up to 16: enumerating, every quantity of the plan evaluated, ranked. Timed twice: the first call in a
   fresh process (the engine solves and compiles each of the plan's 16 quantities once; the process's
   import not counted), and the best of repeated calls in one process (the solves memoised, as in a
   session that plans several questions). The hand-written NumPy evaluates step time and memory only,
   on the same layouts.
2. evaluation alone: ``derive.planning.evaluate.evaluate`` of ``layout_step_time`` and
   ``layout_memory_per_device`` over a fleet of at least 10^7 layouts (every layout of 512 to 32,768 devices
   at three global batches, 268,800 distinct layouts, repeated to 10^7 rows), against the hand-written
   NumPy on the same columns. The one-time solve and compile (timed in a fresh process) is shown apart and
   counted against the target.

Both sides must agree: the largest relative difference is printed (target: below 1e-12). Each timing is the
best of a few runs, derive and NumPy called in turn so that machine noise hits both alike.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numpy as np

TARGET_LAYOUTS, TARGET_SECONDS = 10_000_000, 10.0
SETUP = dict(model="llama3-70b", hw="h100", presets=["bf16", "adam-mixed"])
T = 8192                                   # tokens per sequence
MICRO = (1, 2, 4, 8, 16)


def by_hand(c: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Step time (s) and memory per device (B) of each layout: the catalog's layout relations, typed out."""
    N, L, D, H, dh, kv = 70e9, 80, 8192, 64, 128, 8         # llama3-70b
    peak, hbm = 989e12, 80e9                                  # h100 (kernel efficiency 1)
    d, t, p, cp = c["data_parallel"], c["tensor_parallel"], c["pp_stages"], c["context_parallel"]
    b, m, v = c["micro_batch"], c["pp_microbatches"], c["pp_virtual_stages"]
    rf = c["recompute_fraction"]
    devices = d * t * p * cp
    tokens = b * m * d * T
    stage = np.ceil(L / p)                                      # the busiest stage's layers
    imbalance = p * stage / L
    attention = 4.0 * L * T * H * dh                           # attention-score FLOPs per token, forward
    compute = tokens * ((6 + 2 * rf) * N + (3 + rf) * attention) * imbalance / (devices * peak)
    attn_time = tokens * (3 + rf) * attention * imbalance / (devices * peak)
    tp = (8 + 4 * rf) * (t - 1) * b * m * T * D * 2 * stage / (t * cp * c["tp_link_bw"])
    pp = 2 * (p - 1) * b * T * D * 2 / (t * cp * c["pp_link_bw"])
    g = d * cp
    shard = N * imbalance / (t * p)
    dp = (g - 1) * shard * (c["grad_collective_passes"] * 2 + c["weight_gathers"] * 2) / (g * c["dp_link_bw"])
    ring = 6 * (cp - 1) * b * m * T * kv * dh * 2 * stage / (cp * t * c["cp_link_bw"])
    bubble = (p - 1) / (v * m)
    step = (compute + tp) * (1 + bubble) + pp + np.maximum(dp - compute, 0) + np.maximum(ring - attn_time, 0)
    interleave = 1 + np.minimum(v - 1, 1) * (p - 1) / (p * v)    # the first stage's extra chunks, v >= 2
    activations = c["activation_factor"] * 2 * b * T * D * stage * interleave * np.minimum(m, p) / (t * cp)
    memory = shard * (2 / c["weight_shards"] + 2 / c["grad_shards"] + 12 / c["optimizer_shards"]) + activations \
        + 0.1 * hbm
    return step, memory


def best_of_pair(ours, theirs, repeats: int) -> tuple[float, float]:
    """The best time of each of two functions, called in turn (ours, theirs, ours, ...)."""
    a, b = [], []
    for _ in range(repeats):
        for fn, out in ((ours, a), (theirs, b)):
            start = time.perf_counter()
            fn()
            out.append(time.perf_counter() - start)
    return min(a), min(b)


def worst(ours: tuple[np.ndarray, ...], theirs: tuple[np.ndarray, ...]) -> float:
    return max(float(np.max(np.abs(x / y - 1))) for x, y in zip(ours, theirs))


def first_call(code: str) -> float:
    """Seconds ``code`` (which prints them) reports in a fresh Python process: nothing memoised yet."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")])))
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env)
    return float(out.stdout.strip().splitlines()[-1])


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QUESTION = {"num_devices": 4096, "batch_tokens": 2048 * T, "seq_len": T}
FIRST_PLAN = f"""
import time, derive
start = time.perf_counter()
derive.plan_training({QUESTION!r}, micro_batches={MICRO!r}, **{SETUP!r})
print(time.perf_counter() - start)
"""


def users_call(repeats: int = 3) -> dict[str, float]:
    import derive

    question = QUESTION
    first = first_call(FIRST_PLAN)
    plan = derive.plan_training(question, micro_batches=MICRO, **SETUP)
    columns = plan.columns

    def hand():
        return by_hand(columns)

    derive_s, hand_s = best_of_pair(lambda: derive.plan_training(question, micro_batches=MICRO, **SETUP), hand,
                                    repeats)
    diff = worst((columns["layout_step_time"], columns["layout_memory_per_device"]), hand())
    return {"layouts": plan.evaluated, "searched": plan.searched, "derive": derive_s, "hand": hand_s, "diff": diff,
            "first": first}


def fleet() -> tuple[dict[str, np.ndarray], dict[str, object]]:
    """Every layout of 512 to 32,768 devices at 512, 1,024 and 2,048 sequences a step, repeated to 10^7 rows,
    as the columns ``evaluate`` takes (the ZeRO and recomputation recipes' values included)."""
    from collections import Counter

    from derive.planning.inputs import PlanInputs
    from derive.planning.layouts import LayoutTable, training_layouts
    from derive.planning.search import _recipe_axes

    inputs = PlanInputs.of({"seq_len": T}, catalog=None, **SETUP)
    tables = [training_layouts(devices=n, sequences=s, seq_len=T, layers=80, heads=64, experts=0, per_node=8,
                               nvlink=450e9, nic=50e9, micro_batches=MICRO)
              for n in (512, 1024, 2048, 4096, 8192, 16384, 32768) for s in (512, 1024, 2048)]
    distinct = LayoutTable({k: np.concatenate([tb.columns[k] for tb in tables]) for k in tables[0].columns},
                           dict(tables[0].labels), Counter())
    columns = {k: v for k, v in distinct.columns.items() if k not in ("zero_stage", "recompute")}
    columns |= _recipe_axes(distinct, inputs)
    times = -(-TARGET_LAYOUTS // distinct.size)
    return {k: np.tile(v, times) for k, v in columns.items()}, {"distinct": distinct.size, "inputs": inputs}


FIRST_EVALUATE = f"""
import time
import numpy as np
import derive
from derive.planning.evaluate import evaluate
from derive.planning.inputs import PlanInputs
inputs = PlanInputs.of({{"seq_len": {T}}}, catalog=None, **{SETUP!r})
one = dict(data_parallel=8, tensor_parallel=8, pp_stages=16, context_parallel=1, expert_parallel=1, micro_batch=1,
           pp_microbatches=64, pp_virtual_stages=1, tp_link_bw=450e9, cp_link_bw=450e9, ep_link_bw=450e9,
           dp_link_bw=50e9, pp_link_bw=50e9, weight_shards=1, grad_shards=1, optimizer_shards=8,
           grad_collective_passes=1, weight_gathers=1, activation_factor=17, recompute_fraction=0)
start = time.perf_counter()
evaluate(["layout_step_time", "layout_memory_per_device"], {{k: np.array([float(v)]) for k, v in one.items()}},
         {{"seq_len": {T}}}, hw=inputs.hw, model=inputs.model, presets=inputs.presets, catalog=inputs.catalog)
print(time.perf_counter() - start)
"""


def evaluation_alone(repeats: int = 3) -> dict[str, float]:
    from derive.planning.evaluate import evaluate

    columns, info = fleet()
    inputs = info["inputs"]
    quantities = ["layout_step_time", "layout_memory_per_device"]

    def ours(cols=columns):
        return evaluate(quantities, cols, {"seq_len": T}, hw=inputs.hw, model=inputs.model, presets=inputs.presets,
                        catalog=inputs.catalog)

    def hand():
        return by_hand(columns)

    setup = first_call(FIRST_EVALUATE)
    got = ours()
    diff = worst((got["layout_step_time"], got["layout_memory_per_device"]), hand())
    derive_s, hand_s = best_of_pair(ours, hand, repeats)
    return {"layouts": next(iter(columns.values())).size, "distinct": info["distinct"], "derive": derive_s,
            "hand": hand_s, "diff": diff, "setup": setup}


def report(name: str, r: dict[str, float]) -> None:
    n = r["layouts"]
    print(name)
    print(f"  layouts                   {n:,}" + (f" ({r['distinct']:,} distinct)" if "distinct" in r else "")
          + (f" evaluated of {r['searched']:,} searched" if "searched" in r else ""))
    if "first" in r:
        print(f"  derive, first call        {r['first']:8.3f} s   {n / r['first']:14,.0f} layouts/s   "
              "(fresh process: each quantity solved and compiled)")
    print(f"  derive                    {r['derive']:8.3f} s   {n / r['derive']:14,.0f} layouts/s"
          + ("   (called again: solves memoised)" if "first" in r else ""))
    print(f"  NumPy by hand             {r['hand']:8.3f} s   {n / r['hand']:14,.0f} layouts/s")
    print(f"  derive / hand             {r['derive'] / r['hand']:8.2f}x   largest relative difference {r['diff']:.1e} "
          "(target < 1e-12)")
    if "setup" in r:
        print(f"  the one-time solve + compile of both quantities (a fresh process, one layout): {r['setup']:.3f} s; "
              f"with it: {r['derive'] + r['setup']:.3f} s")
        verdict = "met" if n >= TARGET_LAYOUTS and r["derive"] + r["setup"] <= TARGET_SECONDS else "NOT met"
        print(f"  target >= {TARGET_LAYOUTS:,} layouts in <= {TARGET_SECONDS:g} s: {verdict}")


if __name__ == "__main__":
    report("the user's call: plan_training, llama3-70b on 4,096 H100s, micro-batches up to 16", users_call())
    report("evaluation alone: step time and memory per device over a fleet of layouts", evaluation_alone())
