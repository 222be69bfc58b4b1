"""Whole ``derive`` processes, as ratios measured in one run (run by hand: python benchmarks/bench_cli.py).

1. A first question (a value never asked before, so the answer store misses; the catalog
   cache warm, as after the first run on a machine) against ``python -c "import sympy"``
   (target: at most 1.3x).
2. The same question asked again (the answer store answers it without importing SymPy)
   against ``python -c "import sympy"`` (target: at most 0.25x).
3. ``derive sweep`` of 10^6 points (1000 x 1000, the KV cache of LLaMA-2 70B) written to CSV
   and to ``.npz`` against a hand-written NumPy script that computes the same grid and writes
   it with ``np.savetxt`` / ``np.savez``, each as a whole process: a question never swept (the
   engine solves it), a new grid of a question swept before and the same grid again (both the
   sweep store's kept program) (targets: CSV <= 0.8 s, npz <= 0.5 s).

derive runs as users install it: a wheel built from this checkout (with its templates compiled by
the build, see setup.py) in a fresh virtual environment that sees this Python's libraries, so that
SymPy is the same on both sides. Runs are interleaved so that machine noise hits both sides alike;
medians are printed.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 9
DERIVE: list[str] = []       # the installed wheel's interpreter, -m derive (set by _install_wheel)
RUN_IN: list[Path] = []      # an empty folder: python -m derive there finds the wheel, not this checkout

HAND = """
import sys
import numpy as np
batch = np.linspace(1, 1000, 1000)
seq = np.linspace(1, 32000, 1000)
b, s = np.meshgrid(batch, seq, indexing="ij")
kv = 327680.0 * b * s
if sys.argv[1] == "csv":
    with open(sys.argv[2], "w") as fh:
        fh.write("batch [1],seq_len [1],kv_cache_bytes [B]\\n")
        np.savetxt(fh, np.column_stack([b.ravel(), s.ravel(), kv.ravel()]), fmt="%.17g", delimiter=",")
else:
    np.savez(sys.argv[2], batch=b.ravel(), seq_len=s.ravel(), kv_cache_bytes=kv.ravel())
"""


def _time(cmd: list[str], env: dict[str, str]) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=env, cwd=RUN_IN[0] if RUN_IN else None)
    return time.perf_counter() - t


def _install_wheel(folder: Path) -> None:
    """Build the wheel and install it (pip compiles its bytecode, as for any install) into a venv."""
    root = Path(__file__).resolve().parent.parent
    dist, venv = folder / "dist", folder / "venv"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(root)], check=True)
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    wheel = next(dist.glob("derive-*.whl"))
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", str(wheel)], check=True)
    DERIVE[:] = [python, "-m", "derive"]
    empty = folder / "empty"
    empty.mkdir()
    RUN_IN[:] = [empty]
    where = subprocess.run([python, "-c", "import derive; print(derive.__file__)"], cwd=empty, check=True,
                           capture_output=True, text=True).stdout.strip()
    assert not where.startswith(str(root / "derive")), f"the benchmark would time the checkout: {where}"


def questions(env: dict[str, str]) -> tuple[float, float, float]:
    sympy_cmd = [sys.executable, "-c", "import sympy"]
    ask = [*DERIVE, "solve", "critical_ai", "--hw", "a100"]
    _time([*ask, "hbm_bw=1TB/s"], env)                  # the catalog cache, warm
    _time(ask, env)                                     # the answer store, warm for the repeated question
    first, again, bare = [], [], []
    for i in range(RUNS):
        first.append(_time([*ask, f"hbm_bw={1000 + i + time.time_ns() % 10**6}GB/s"], env))
        again.append(_time(ask, env))
        bare.append(_time(sympy_cmd, env))
    return statistics.median(first), statistics.median(again), statistics.median(bare)


def sweeps(env: dict[str, str], folder: Path) -> dict[str, tuple[float, float, float, float]]:
    """(a question never swept, a new grid of a question swept before, the same sweep again, the hand
    script) per format, medians in seconds. A question never swept gives a head size never given
    before, so the engine solves and compiles it; a new grid changes the last seq_len, so the kept
    program runs over it (its check points computed exactly, without SymPy); the same sweep again
    runs the kept program over the same grid."""
    out = {}
    for fmt in ("csv", "npz"):
        first, regrid, again, hand = [], [], [], []
        for i in range(max(3, RUNS // 3)):
            path = str(folder / f"d.{fmt}")
            unique = time.time_ns() % 10**6
            question = ["--model", "llama2-70b", f"head_dim={128 + unique % 1000 + 1000 * i}"]
            grid = ["kv_cache_bytes", "batch=1:1000:1000", f"seq_len=1:{32000 + unique}:1000"]
            first.append(_time([*DERIVE, "sweep", *grid, *question, "--format", fmt, "-o", path], env))
            new_grid = ["kv_cache_bytes", "batch=1:1000:1000", f"seq_len=1:{33000 + unique}:1000"]
            regrid.append(_time([*DERIVE, "sweep", *new_grid, *question, "--format", fmt, "-o", path], env))
            again.append(_time([*DERIVE, "sweep", *new_grid, *question, "--format", fmt, "-o", path], env))
            hand.append(_time([sys.executable, "-c", HAND, fmt, str(folder / f"h.{fmt}")], env))
        out[fmt] = tuple(statistics.median(x) for x in (first, regrid, again, hand))
    return out


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    _install_wheel(folder)
    env = dict(os.environ, DERIVE_CACHE_DIR=str(folder / "cache"))
    first, again, bare = questions(env)
    print(f"first question {first * 1e3:.0f} ms vs import sympy {bare * 1e3:.0f} ms: {first / bare:.2f}x "
          "(target <= 1.3x)")
    print(f"repeated question {again * 1e3:.0f} ms vs import sympy {bare * 1e3:.0f} ms: {again / bare:.2f}x "
          "(target <= 0.25x)")
    for fmt, (ours, regrid, kept, hand) in sweeps(env, folder).items():
        target = 0.8 if fmt == "csv" else 0.5
        print(f"derive sweep 10^6 points to {fmt} (target <= {target} s): a question never swept {ours:.2f} s, "
              f"a new grid {regrid:.2f} s, the same grid again {kept:.2f} s; hand NumPy script {hand:.2f} s: "
              f"{ours / hand:.2f}x / {regrid / hand:.2f}x / {kept / hand:.2f}x")


if __name__ == "__main__":
    main()
