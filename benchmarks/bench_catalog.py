"""Catalog size, as ratios measured in one run (run by hand: python benchmarks/bench_catalog.py).

1. First load of a user formula file of 1,000 and 5,000 relations (empty cache), in a fresh
   process (`derive list --formulas FILE`), against the same command on the built-in catalog
   alone; targets: 1,000 relations <= 2 s, 5,000 <= 10 s. Also the cost per relation at 5,000
   against 1,000 (1.0 is linear).
2. Warm per-question cost with the 5,000-relation file loaded against the built-in catalog
   alone (target <= 1.3x): in process (a new value each time, the answer cache cleared, after two
   questions of the same shape: the second makes the template a new value replays) and as a whole
   `derive solve` process with a warm cache.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _synthetic import write_file  # noqa: E402


def _process(args: list[str], cache: str, runs: int = 1) -> float:
    env = dict(os.environ, DERIVE_CACHE_DIR=cache)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "derive", *args], check=True, capture_output=True, env=env)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def first_load(folder: Path, n: int) -> float:
    path = write_file(folder / f"user{n}.yaml", n)
    return _process(["list", "--formulas", str(path)], tempfile.mkdtemp())


def per_question(extra_sets: list[list[str]], blocks: int = 9, n: int = 200) -> list[float]:
    """Seconds per question with each catalog: medians of blocks of ``n`` new values, the catalogs
    taking turns block by block (so a slow spell of the machine hits both alike)."""
    from derive import load_catalog, solve

    catalogs = [load_catalog(extra) for extra in extra_sets]
    for catalog in catalogs:
        # warm: the question's shape asked twice first (the second makes its template), as in any session
        for warm in ("1.5 TB/s", "1.6 TB/s"):
            solve("critical_ai", {"hbm_bw": warm}, hw="a100", catalog=catalog)
    times: list[list[float]] = [[] for _ in catalogs]
    asked = 0
    for _ in range(blocks):
        for k, catalog in enumerate(catalogs):
            t = time.perf_counter()
            for _ in range(n):
                asked += 1
                catalog.memo.answers.clear()
                solve("critical_ai", {"hbm_bw": f"{2 + asked / 10**6} TB/s"}, hw="a100", catalog=catalog)
            times[k].append((time.perf_counter() - t) / n)
    return [statistics.median(ts) for ts in times]


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    builtin = _process(["list"], tempfile.mkdtemp())
    t1000 = first_load(folder, 1000)
    t5000 = first_load(folder, 5000)
    print(f"first load, built-in catalog alone:  {builtin:.2f} s")
    print(f"first load, 1,000-relation file:     {t1000:.2f} s   (target <= 2 s)   {t1000 / builtin:.2f}x built-in")
    print(f"first load, 5,000-relation file:     {t5000:.2f} s   (target <= 10 s)  {t5000 / builtin:.2f}x built-in")
    print(f"cost per added relation, 5,000 vs 1,000: "
          f"{((t5000 - builtin) / 5000) / ((t1000 - builtin) / 1000):.2f}x  (1.0 is linear)")

    big = str(folder / "user5000.yaml")
    small_q, big_q = per_question([[], [big]])
    print(f"per question in process, built-in {small_q * 1e3:.2f} ms, with 5,000 relations {big_q * 1e3:.2f} ms: "
          f"{big_q / small_q:.2f}x  (target <= 1.3x)")
    cache = tempfile.mkdtemp()
    question = ["solve", "critical_ai", "--hw", "a100"]
    _process(question, cache)
    _process([*question, "--formulas", big], cache)
    p_small = _process(question, cache, runs=5)
    p_big = _process([*question, "--formulas", big], cache, runs=5)
    print(f"whole process, warm cache, built-in {p_small:.2f} s, with 5,000 relations {p_big:.2f} s: "
          f"{p_big / p_small:.2f}x")


if __name__ == "__main__":
    main()
