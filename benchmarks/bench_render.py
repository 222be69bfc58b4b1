"""Benchmark: render every report in reports/, warm, and the whole set with PDFs.

Three figures, each printed against its target (run by hand, not in the test suite):

- every problem file in both languages to Markdown and HTML, warm (issue 4): < 3 s;
- the whole set, as ``derive report reports/*.yaml --lang en,zh --format md,html,tex,beamer,pdf``
  does it (PDFs of articles and decks compiled concurrently), from a fresh process (issue 11): <= 60 s;
- one single-question PDF (``derive solve critical_ai --hw a100 --format pdf``), warm (issue 11): <= 3 s.

    python benchmarks/bench_render.py            # best of 5 warm passes, and the cold first pass
    python benchmarks/bench_render.py --repeat 10 --skip-pdf
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
    from derive.documents.problems import load_problem
    from derive.documents.report import render_report, report_context

    total = 0
    for path in files:
        problem = load_problem(path, catalog)
        context = report_context(problem, catalog)
        for lang in ("en", "zh"):
            for fmt in ("md", "html"):
                total += len(render_report(problem, fmt, lang, catalog=catalog, context=context))
    return total


def whole_set(files) -> float:
    """Seconds for ``derive report FILES --lang en,zh --format md,html,tex,beamer,pdf`` in a fresh process."""
    import os
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as out:
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "derive", "report", *map(str, files), "--lang", "en,zh", "--format",
                        "md,html,tex,beamer,pdf", "-o", out], check=True, stdout=subprocess.DEVNULL,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
        return time.perf_counter() - t


def single_pdf() -> float:
    """Seconds for one single-question PDF from the command line, warm (best of 3)."""
    import os
    import subprocess
    import tempfile

    times = []
    with tempfile.TemporaryDirectory() as out:
        for _ in range(3):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "derive", "solve", "critical_ai", "--hw", "a100", "--format", "pdf",
                            "-o", str(Path(out) / "q.pdf")], check=True, stdout=subprocess.DEVNULL,
                           env=dict(os.environ, PYTHONPATH=str(ROOT)))
            times.append(time.perf_counter() - t)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--skip-pdf", action="store_true", help="only the warm Markdown and HTML figure")
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
    ok = min(times) < 3
    if not args.skip_pdf:
        whole = whole_set(files)
        print(f"whole set, {len(files)} files x en, zh x md, html, tex, beamer, pdf (article and deck): "
              f"{whole:.1f} s (target <= 60 s)")
        one = single_pdf()
        print(f"one single-question PDF (derive solve critical_ai --hw a100 --format pdf), warm: {one:.2f} s "
              f"(target <= 3 s)")
        ok = ok and whole <= 60 and one <= 3
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
