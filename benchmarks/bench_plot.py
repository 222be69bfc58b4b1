"""Plot speed, measured in one run (run by hand: python benchmarks/bench_plot.py).

`derive plot roofline --hw a100 --hw h100 -o FILE.png` as a fresh process, next to
`python -c "import matplotlib.pyplot"` (the price of merely importing pyplot) and
`python -c "import matplotlib.figure, matplotlib.backends.backend_agg"` (what derive
imports instead). Caches are warm, as after the first run on a machine: the compiled
catalog and matplotlib's font list. Runs are interleaved so machine noise hits all alike;
the medians are reported.

Also shown: the same plot drawn in a process that has already drawn one (the figure
alone, engine answers cached), which is what `derive render` pays per plot after the first.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 9


def _time(cmd: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    return time.perf_counter() - t


def fresh_processes(out: Path) -> dict[str, float]:
    cmds = {
        "derive plot roofline": [sys.executable, "-m", "derive", "plot", "roofline", "--hw", "a100", "--hw", "h100",
                                 "-o", str(out)],
        "import matplotlib.pyplot": [sys.executable, "-c", "import matplotlib.pyplot"],
        "import matplotlib Figure + Agg": [sys.executable, "-c",
                                           "import matplotlib.figure, matplotlib.backends.backend_agg"],
        "python -c pass": [sys.executable, "-c", "pass"],
    }
    for cmd in cmds.values():        # warm every cache once
        subprocess.run(cmd, check=True, capture_output=True)
    times: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(RUNS):
        for name, cmd in cmds.items():
            times[name].append(_time(cmd))
    return {k: statistics.median(v) for k, v in times.items()}


def in_process(out: Path, repeats: int = 5) -> float:
    from derive.plot.figures import plot

    plot("roofline", out, hw=["a100", "h100"])          # first: imports, solves, font cache
    t = time.perf_counter()
    for _ in range(repeats):
        plot("roofline", out, hw=["a100", "h100"])
    return (time.perf_counter() - t) / repeats


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "roofline.png"
        res = fresh_processes(out)
        again = in_process(out)
        size = out.stat().st_size
    plot_s = res["derive plot roofline"]
    pyplot_s = res["import matplotlib.pyplot"]
    print(f"medians of {RUNS} fresh processes each:")
    for name, s in res.items():
        print(f"  {name:32s} {s * 1e3:7.0f} ms")
    print(f"derive plot roofline / import matplotlib.pyplot = {plot_s / pyplot_s:.2f}x")
    print(f"the same plot again in a warm process: {again * 1e3:.0f} ms (PNG {size:,} bytes)")
