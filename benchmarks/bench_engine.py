"""Engine speed, as ratios measured in one run (run by hand: python benchmarks/bench_engine.py).

1. Cold start: `derive solve critical_ai --hw a100` as a fresh process versus
   `python -c "import sympy"` (target: at most 1.3x). The compiled catalog cache
   is warm, as it is after the first run on a machine.
2. Repeated questions: the same inverse question asked 1,000 times in one process
   versus calling sympy.solve for it each time (target: at least 50x faster).
   Also shown: the same with the per-question answer cache cleared each time, so
   only the per-relation inversion cache helps.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time


def _time_process(cmd: list[str], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        out.append(time.perf_counter() - t)
    return out


def cold_start(runs: int = 15) -> tuple[float, float]:
    # bytecode as an installed package has it (pip compiles on install; an editable install
    # does not, and PYTHONDONTWRITEBYTECODE=1 machines never write it): sympy is measured
    # with its .pyc files, so derive is too
    import compileall
    from pathlib import Path

    compileall.compile_dir(str(Path(__file__).resolve().parent.parent / "derive"), quiet=1)
    derive_cmd = [sys.executable, "-m", "derive", "solve", "critical_ai", "--hw", "a100"]
    sympy_cmd = [sys.executable, "-c", "import sympy"]
    subprocess.run(derive_cmd, check=True, capture_output=True)   # warm the catalog cache
    d, s = [], []
    for _ in range(runs):   # interleave so that machine noise hits both alike
        d += _time_process(derive_cmd, 1)
        s += _time_process(sympy_cmd, 1)
    return statistics.median(d), statistics.median(s)


def repeated(n: int = 1000) -> tuple[float, float, float]:
    import sympy

    from derive import load_catalog, solve

    catalog = load_catalog()
    question = dict(hw="tpu-v5e", presets=["classic-ffn"], bound="max", require=["ffn_fits_in_vmem"])
    solve("d_model", catalog=catalog, **question)      # first ask: plans and inverts once

    t = time.perf_counter()
    for _ in range(n):
        sol = solve("d_model", catalog=catalog, **question)
    engine = time.perf_counter() - t
    assert sol.value == 2896

    t = time.perf_counter()
    for _ in range(n // 10):
        catalog.memo.answers.clear()
        sol = solve("d_model", catalog=catalog, **question)
    engine_uncached = (time.perf_counter() - t) * 10
    assert sol.value == 2896

    D = sympy.Symbol("D", positive=True)
    capacity = sympy.Integer(128 * 2**20)
    t = time.perf_counter()
    for _ in range(n // 10):
        roots = sympy.solve(sympy.Eq(2 * 4 * 2 * D**2, capacity), D)
        value = sympy.floor(roots[0])
    naive = (time.perf_counter() - t) * 10
    assert value == 2896
    return engine, engine_uncached, naive


def main() -> None:
    d, s = cold_start()
    print(f"cold start: derive solve {d * 1000:.0f} ms, import sympy {s * 1000:.0f} ms, "
          f"ratio {d / s:.2f}x (target <= 1.3x)")
    engine, uncached, naive = repeated()
    print(f"1000 asks: engine {engine * 1000:.1f} ms; sympy.solve each time {naive * 1000:.0f} ms "
          f"(timed over 100, scaled); speed-up {naive / engine:.0f}x (target >= 50x)")
    print(f"           with the answer cache cleared each time: {uncached * 1000:.0f} ms, "
          f"speed-up {naive / uncached:.1f}x (inversion and plan caches only)")


if __name__ == "__main__":
    main()
