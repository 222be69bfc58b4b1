"""New inputs and long chains, as ratios measured in one run (run by hand: python benchmarks/bench_questions.py).

1. The same question with 1,000 different input values, the answer cache off (every value is
   new), against ``sympy.solve`` on the same equation each time (the value substituted, then
   solved; a floor or ceiling for bounds). Target: derive at least 20x faster, for
   - a forward question: ``memory_time`` from ``bytes_moved`` and ``hbm_bw``;
   - a ``--max`` bound: the largest ``d_model`` whose FFN weights fit in a new ``vmem_capacity``;
   - a ``--min`` device count: the fewest H100s whose HBM holds a new parameter count.
   derive's time is the whole answer (plan, steps, exact values, every relation substituted
   back); SymPy's is the bare solve. Both loops are timed as ``timeit`` times: after a collection,
   with Python's cyclic garbage collector off, so that a full collection of the process's heap
   (60-75 ms with SymPy's caches loaded), which falls in one loop or the other by chance, is not
   charged to either.
2. A chain of 100 relations against a chain of 20 (each relation defines the next quantity
   from the one before), planned and solved afresh each time, as medians of interleaved blocks.
   Target: at most 5x (linear).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

N = 1000


def _per_call(fn, n: int) -> float:
    import gc

    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        t = time.perf_counter()
        for i in range(n):
            fn(i)
        return (time.perf_counter() - t) / n
    finally:
        if was_enabled:
            gc.enable()


def new_values() -> list[tuple[str, float, float]]:
    import sympy

    from derive import solve

    rows = []       # each through the call a user makes: no catalog= (the default catalog, checked by stat)

    # forward: T = B / W
    def derive_forward(i: int) -> None:
        solve("memory_time", given={"bytes_moved": f"{1000 + i} MB", "hbm_bw": "2 TB/s"})

    T, B, W = sympy.symbols("T B W", positive=True)

    def sympy_forward(i: int) -> None:
        sympy.solve(sympy.Eq(T * W, B).subs({B: sympy.Integer((1000 + i) * 10**6), W: sympy.Integer(2 * 10**12)}), T)

    derive_forward(0)
    rows.append(("forward memory_time", _per_call(derive_forward, N), _per_call(sympy_forward, N // 5)))

    # --max: 16 D^2 <= vmem (8 bytes-per-element products of the classic FFN on v5e)
    question = dict(hw="tpu-v5e", presets=["classic-ffn"], bound="max", require=["ffn_fits_in_vmem"])

    def derive_max(i: int) -> None:
        solve("d_model", given={"vmem_capacity": f"{64 + i} MiB"}, **question)

    D = sympy.Symbol("D", positive=True)

    def sympy_max(i: int) -> None:
        roots = sympy.solve(sympy.Eq(2 * 4 * 2 * D**2, sympy.Integer((64 + i) * 2**20)), D)
        sympy.floor(roots[0])

    derive_max(0)
    rows.append(("--max d_model, new vmem_capacity", _per_call(derive_max, N // 5), _per_call(sympy_max, N // 5)))

    # --min: params * 2 B <= n * 80 GB
    def derive_min(i: int) -> None:
        solve("num_devices", given={"params": (7 + i) * 10**9}, model="llama2-70b", hw="h100",
              bound="min", require=["weights_fit"])

    n = sympy.Symbol("n", positive=True)

    def sympy_min(i: int) -> None:
        roots = sympy.solve(sympy.Eq(n * sympy.Integer(80 * 10**9), sympy.Integer((7 + i) * 10**9 * 2)), n)
        sympy.ceiling(roots[0])

    derive_min(0)
    rows.append(("--min num_devices, new params", _per_call(derive_min, N // 5), _per_call(sympy_min, N // 5)))
    return rows


def _chain_file(folder: Path, n: int) -> Path:
    lines = ["quantities:"]
    for k in range(n + 1):
        lines += [f"  - id: chain{n}_{k}", f"    symbol: 'c_{{{k}}}'", "    unit: B",
                  f"    name: {{en: link {k}, zh: 第 {k} 环}}", "    meaning: {en: a chain link, zh: 链的一环}",
                  "    source: bench"]
    lines.append("relations:")
    for k in range(1, n + 1):
        lines += [f"  - id: chain{n}_{k}", f"    equation: chain{n}_{k} = 2 * chain{n}_{k - 1}",
                  f"    name: {{en: link {k}, zh: 第 {k} 环}}", "    meaning: {en: doubles the last, zh: 翻倍}",
                  "    source: bench"]
    lines += ["references:", "  - id: bench", "    kind: web", "    title: a benchmark chain"]
    path = folder / f"chain{n}.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def chains(blocks: int = 9) -> tuple[float, float]:
    """Per-question seconds for the chains of 20 and of 100 relations: the median of ``blocks`` blocks of
    20 questions each, the two lengths interleaved block by block so that machine noise (and Python's
    garbage collector, which runs more often as more objects are made) hits both alike."""
    import statistics

    from derive import load_catalog, solve

    folder = Path(tempfile.mkdtemp())
    asks = {}
    for n in (20, 100):
        catalog = load_catalog(extra=[_chain_file(folder, n)])
        solve(f"chain{n}_{n}", catalog=catalog, given={f"chain{n}_0": "1 B"})

        def ask(i: int, n: int = n, catalog=catalog) -> None:
            catalog.memo.answers.clear()
            catalog.memo.plans.clear()
            sol = solve(f"chain{n}_{n}", catalog=catalog, given={f"chain{n}_0": f"{i + 1} B"})
            assert sol.value == (i + 1) * 2**n

        asks[n] = ask
    times: dict[int, list[float]] = {20: [], 100: []}
    for block in range(blocks):
        for n in (20, 100):
            times[n].append(_per_call(lambda i, n=n, block=block: asks[n](block * 20 + i), 20))
    return statistics.median(times[20]), statistics.median(times[100])


def main() -> None:
    print(f"{N} new input values each (answer cache off), per question:")
    for what, ours, theirs in new_values():
        verdict = "faster" if ours < theirs else "SLOWER"
        print(f"  {what:36s} derive {ours * 1e3:6.2f} ms, sympy.solve {theirs * 1e3:6.2f} ms: "
              f"{theirs / ours:5.2f}x ({verdict}; target >= 20x)")
    c20, c100 = chains()
    print(f"chain of 100 relations {c100 * 1e3:.1f} ms vs 20: {c20 * 1e3:.1f} ms: {c100 / c20:.2f}x (target <= 5x)")


if __name__ == "__main__":
    sys.exit(main())
