"""Sweep speed, as ratios measured in one run (run by hand: python benchmarks/bench_sweep.py).

A 10^6-point sweep (1000 batch sizes x 1000 sequence lengths) of two questions:

1. a forward formula, the KV cache of LLaMA-2 70B: ``kv_cache_bytes`` over batch x seq_len;
2. a bound, the largest batch whose KV cache fits beside the weights on 8 H100s,
   over 1000 sequence lengths x 1000 device memory sizes (``--max --require kv_cache_fits``).

For each, three timings:

* derive: the compiled sweep evaluated on the grid (the symbolic solve and the
  compile happen once before; their time is printed separately);
* NumPy by hand: the same formula typed out in NumPy, constants folded by hand
  (target: derive at most 1.5x this);
* SymPy subs/evalf: a loop substituting each point into the formula and calling
  evalf, timed on 2,000 points and scaled to 10^6 (target: derive at least 100x faster).

Each timing is the best of 45 runs, derive and NumPy called in turn so that machine noise hits both alike.
"""

from __future__ import annotations

import time

import numpy as np

N = 1000          # per axis: N x N = 10^6 points
REPEATS = 15
SYMPY_POINTS = 2000


def best_of_pair(ours, theirs, repeats: int = 3 * REPEATS) -> tuple[float, float]:
    """The best time of each of two functions, called in turn (ours, theirs, ours, ...) so that a slow
    spell of the machine slows both alike rather than one side's block of runs."""
    a, b = [], []
    for _ in range(repeats):
        for fn, out in ((ours, a), (theirs, b)):
            t = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t)
    return min(a), min(b)


def forward() -> dict[str, float]:
    import sympy

    from derive import solve
    from derive.sweep.grid import sweep

    t = time.perf_counter()
    result = sweep("kv_cache_bytes", {"batch": f"1:{N}:{N}", "seq_len": f"1:{N * 32}:{N}"}, model="llama2-70b")
    setup = time.perf_counter() - t
    batch = result.axes[0].values.reshape(-1, 1)
    seq = result.axes[1].values.reshape(1, -1)
    compiled = result.compiled

    def by_hand():
        # 2 (K and V) x 80 layers x 8 KV heads x 128 dims x 2 bytes = 327,680 B per token
        return 327680.0 * batch * seq

    assert np.array_equal(compiled(batch, seq), by_hand())
    derive_s, hand_s = best_of_pair(lambda: compiled(batch, seq), by_hand)
    # SymPy, one point at a time
    sol = solve("kv_cache_bytes", {"batch": 1, "seq_len": 1}, model="llama2-70b")
    expr = sol.formula
    consts = {sympy.Symbol(g.name, positive=True): g.value for g in sol.given if g.name not in ("batch", "seq_len")}
    b, s = sympy.Symbol("batch", positive=True), sympy.Symbol("seq_len", positive=True)
    flat_b = np.broadcast_to(batch, result.values.shape).ravel()
    flat_s = np.broadcast_to(seq, result.values.shape).ravel()
    t = time.perf_counter()
    for i in range(SYMPY_POINTS):
        expr.subs(consts).subs({b: int(flat_b[i]), s: int(flat_s[i])}).evalf()
    sympy_loop = (time.perf_counter() - t) * (N * N / SYMPY_POINTS)
    return {"setup": setup, "derive": derive_s, "hand": hand_s, "sympy": sympy_loop,
            "points": result.size}


def bound() -> dict[str, float]:
    import sympy

    from derive import solve
    from derive.sweep.grid import sweep

    opts = dict(model="llama2-70b", hw="h100", bound="max", require=["kv_cache_fits"])
    t = time.perf_counter()
    result = sweep("batch", {"seq_len": f"128:{128 * N}:{N}", "hbm_capacity": f"20GB:200GB:{N}"},
                   {"num_devices": 8}, **opts)
    setup = time.perf_counter() - t
    seq = result.axes[0].values.reshape(-1, 1)
    cap = result.axes[1].values.reshape(1, -1)
    compiled = result.compiled

    def by_hand():
        # (8 devices x capacity - 70e9 params x 2 B) / (327,680 B per token x seq_len), floored; none -> NaN
        edge = (8.0 * cap - 140e9) / (327680.0 * seq)
        out = np.floor(edge)
        out[~(out > 0)] = np.nan
        return out

    a, h = compiled(seq, cap), by_hand()
    assert np.array_equal(np.isnan(a), np.isnan(h)) and np.array_equal(a[~np.isnan(a)], h[~np.isnan(h)])
    derive_s, hand_s = best_of_pair(lambda: compiled(seq, cap), by_hand)
    sol = solve("batch", {"seq_len": 4096, "num_devices": 8}, **opts)
    consts = {sympy.Symbol(g.name, positive=True): g.value for g in sol.given
              if g.name not in ("seq_len", "hbm_capacity")}
    expr = sympy.floor(sol.formula.subs(consts))
    s_sym, c_sym = sympy.Symbol("seq_len", positive=True), sympy.Symbol("hbm_capacity", positive=True)
    flat_s = np.broadcast_to(seq, result.values.shape).ravel()
    flat_c = np.broadcast_to(cap, result.values.shape).ravel()
    t = time.perf_counter()
    for i in range(SYMPY_POINTS):
        expr.subs({s_sym: int(flat_s[i]), c_sym: sympy.Rational(str(flat_c[i]))}).evalf()
    sympy_loop = (time.perf_counter() - t) * (N * N / SYMPY_POINTS)
    return {"setup": setup, "derive": derive_s, "hand": hand_s, "sympy": sympy_loop,
            "points": result.size}


def report(name: str, r: dict[str, float]) -> None:
    print(f"{name}: {r['points']:,} points")
    print(f"  derive (compiled sweep)   {r['derive'] * 1e3:8.2f} ms")
    print(f"  NumPy by hand             {r['hand'] * 1e3:8.2f} ms   derive / hand  = {r['derive'] / r['hand']:.2f}x "
          f"(target <= 1.5x)")
    print(f"  SymPy subs/evalf loop     {r['sympy']:8.1f} s    (timed on {SYMPY_POINTS:,} points, scaled)  "
          f"sympy / derive = {r['sympy'] / r['derive']:,.0f}x (target >= 100x)")
    print(f"  one-time solve + compile + engine check of 3 points: {r['setup'] * 1e3:.0f} ms")


if __name__ == "__main__":
    report("forward formula (kv_cache_bytes over batch x seq_len)", forward())
    report("bound (largest batch that fits, over seq_len x hbm_capacity)", bound())
