"""Benchmark: render every report in reports/ in both languages to Markdown and HTML, warm.

Target (issue 4): under 3 s on the development machine for the whole set, after one warm-up
pass (catalog loaded, questions solved once per process, templates compiled, MathML cached
per expression). Run by hand, not in the test suite:

    python benchmarks/bench_render.py            # best of 5 warm passes, and the cold first pass
    python benchmarks/bench_render.py --repeat 10
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def render_all(files, catalog) -> int:
    """Solve and render every problem file to md and html in en and zh; returns the characters written."""
    from derive.problems import load_problem
    from derive.report import render_report, report_context

    total = 0
    for path in files:
        problem = load_problem(path, catalog)
        context = report_context(problem, catalog)
        for lang in ("en", "zh"):
            for fmt in ("md", "html"):
                total += len(render_report(problem, fmt, lang, catalog=catalog, context=context))
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    t0 = time.perf_counter()
    from derive import load_catalog

    catalog = load_catalog()
    files = sorted((ROOT / "reports").glob("*.yaml"))
    chars = render_all(files, catalog)
    cold = time.perf_counter() - t0
    times = []
    for _ in range(args.repeat):
        t = time.perf_counter()
        render_all(files, catalog)
        times.append(time.perf_counter() - t)
    print(f"{len(files)} problem files x 2 languages x (md, html): {chars:,} characters")
    print(f"cold (import, catalog, first solve and render): {cold:.2f} s")
    print(f"warm: best {min(times):.3f} s, median {statistics.median(times):.3f} s over {args.repeat} passes "
          f"(target < 3 s)")
    return 0 if min(times) < 3 else 1


if __name__ == "__main__":
    sys.exit(main())
