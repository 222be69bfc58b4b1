"""Fuzz the command line: generated arguments never crash it, never hang it, never run anything.

Hypothesis generates command lines from pieces that users get wrong or that attackers try:
random and real names, units, numbers (negative, zero, NaN, inf, 1e400, empty), malformed
NAME=VALUE pairs, hostile expressions (``__import__``, attribute access, lambdas,
comprehensions, ``9**9**9``, very long inputs), random flags, and hostile files (user formula
files, templates, live sources, problem and claims files). Every call must end with exit 0,
or with exit 2 and exactly one ``derive: error:`` line: never exit 1, never a traceback, never
past a time limit or a memory budget (peak resident memory, MEMORY_LIMIT).

Each call runs in a fresh folder that is its working directory, its HOME and its TMPDIR. An
audit hook (``sys.addaudithook``) records every file the call opens for writing, every folder it
creates, every rename or removal and every process it starts: writing outside the call's folder
(or the shared catalog cache) fails the test, and starting any process fails it. Thousands of
cases run in this process (``derive.cli.main``, the console script's entry point); a smaller
number run as real ``python -m derive`` processes, where a snapshot of the fuzz folder is also
compared before and after.

In CI: 2,000 calls in this process and 50 real processes; ``DERIVE_HYPOTHESIS=dev`` runs ten
times as many (``DERIVE_FUZZ_CASES=N`` sets the in-process count, a fortieth of it as processes).
"""

from __future__ import annotations

import contextlib
import io
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest
from conftest import write_report
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from derive import load_catalog

ROOT = Path(__file__).resolve().parent.parent
DEV = os.environ.get("DERIVE_HYPOTHESIS", "ci") == "dev"
IN_PROCESS_CASES = int(os.environ.get("DERIVE_FUZZ_CASES", 20000 if DEV else 2000))
SUBPROCESS_CASES = max(3, IN_PROCESS_CASES // 40)
TIME_LIMIT = 20          # seconds per call
MEMORY_LIMIT = 2 * 2**30  # peak resident memory of a call (its own process, or this process's growth)
COUNTS: Counter = Counter()
COMMANDS: Counter = Counter()
REPORT: list[str] = []

# ---------------------------------------------------------------------------
# pieces of command lines


def _catalog_names() -> dict[str, list[str]]:
    cat = load_catalog()
    return {
        "quantity": sorted(cat.quantities)[:400] + sorted(cat.aliases),
        "condition": sorted(cat.conditions),
        "hw": sorted(k for k, p in cat.presets.items() if p.kind == "hw"),
        "model": sorted(k for k, p in cat.presets.items() if p.kind == "model"),
        "setup": sorted(k for k, p in cat.presets.items() if p.kind == "setup"),
    }


NAMES = _catalog_names()

NUMBERS = ["0", "-0", "-1", "1", "1.5", "2", "4096", "0.001", "nan", "NaN", "inf", "-inf", "Infinity", "1e400",
           "1e-400", "1e308", "1e60", "1e61", "1e-61", "", " ", ".", "1e", "e5", "1..2", "0x10", "0b1", "1_000",
           "1__0", "٣", "½", "1e9999999999", "10**400", "10**401", "2**4096", "9**9**9", "(1+10**-400)**4096",
           "1/0", "0/0", "1/3", "4096*1024", "2**30", "(2)", "((((1))))", "-(-(1))", "1e-6", "1e18",
           "123456789012345678901234567890", "0.1+0.2", "3.35", "1e5e5", "+1", "--1", "1-", "*1"]

UNITS = ["", "B", "kB", "KB", "KiB", "MB", "MiB", "GB", "GiB", "TB", "B/s", "GB/s", "TB/s", "TiB/s", "FLOP",
         "TFLOP/s", "TFLOPS", "FLOP/B", "s", "ms", "us", "µs", "ns", "min", "h", "bit", "Gbit/s", "Hz", "GHz", "1",
         "1/s", "B*B", "B**2", "B^2", "s/s", "m", "kg", "parsec", "°C", "%", "B/0", "(B", "B)", "B//s",
         "TB/s/s/s/s/s/s", "__import__", "os.system", "B**99999999", "B^-1", "cycle", "FLOP/cycle"]

HOSTILE = ["__import__('os').system('touch PWNED')", "().__class__.__bases__[0].__subclasses__()",
           "(lambda: 1)()", "[x for x in range(10)]", "{x: 1 for x in 'a'}", "9**9**9", "2**2**2**2**2",
           "open('PWNED', 'w')", "exec('1')", "eval('1')", "getattr(1, 'real')", "1 if 1 else 2", "(x := 1)",
           "f'{1}'", "'a' * 10", "b'x'", "1; 2", "1\n2", "1\x00", "a.b", "a[0]", "*a", "**a", "await x",
           "yield 1", "1 == 1", "1 < 2 < 3", "not 1", "~1", "1 & 2", "1 << 2000000", "1 % 2", "1 // 2",
           "1 @ 2", "sqrt(-1)", "log(0)", "log(-1)", "exp(1000)", "exp(exp(exp(10)))", "max()", "min(1)",
           "ceil(1, 2)", "sqrt(x=1)", "sqrt(*[1])", "cbrt(8)", "log2(8)", "floor(1.5)", "Max(1, 2)",
           "ceiling(1.5)", "import os", "__builtins__", "globals()", "\u202e1", "1" * 5000, "(" * 1000 + "1",
           "-" * 3000 + "1", "1+" * 2000 + "1", "9" * 401, "{{ 7*7 }}", "${7*7}", "%s%s%s", "\\input{/etc/passwd}",
           "<script>alert(1)</script>", "'; DROP TABLE x; --", "../../../../etc/passwd"]

WEIRD_NAMES = ["", "=", "__class__", "__import__", "a" * 300, "批次", "Batch", "batch ", " batch", "-batch",
               "batch.x", "0batch", "_", "x" * 5000, "hbm_bw\x00", "critical ai", "critical-ai", "None", "True"]

FILES = ["@formulas_ok", "@formulas_hostile", "@formulas_bomb", "@formulas_deep", "@formulas_binary",
         "@formulas_clash", "@formulas_dir", "@templates_bad", "@templates_empty", "@problem_ok", "@problem_bad",
         "@claims_bad", "@live_ok", "@live_hostile", "@missing", "@dir", "/dev/null", "", "-"]

OUTPUTS = ["out.txt", "sub/dir/out.md", "@sandbox/abs.txt", "", ".", "..", "../beside.txt", "/dev/null",
           "out.png", "out.svg", "x" * 300]


def names(kind: str = "quantity") -> st.SearchStrategy[str]:
    real = st.sampled_from(NAMES[kind]) if NAMES[kind] else st.nothing()
    return st.one_of(real, real, real, st.sampled_from(WEIRD_NAMES),
                     st.from_regex(r"[a-z_][a-z0-9_]{0,24}", fullmatch=True), st.text(max_size=20))


numbers = st.one_of(st.sampled_from(NUMBERS), st.integers(-10**30, 10**30).map(str),
                    st.floats(allow_nan=True, allow_infinity=True).map(repr),
                    st.decimals(allow_nan=True).map(str))
values = st.one_of(
    st.tuples(numbers, st.sampled_from(["", " "]), st.sampled_from(UNITS)).map("".join),
    st.tuples(numbers, st.sampled_from(["", " "]), st.sampled_from(UNITS)).map("".join),
    st.sampled_from(HOSTILE),
    st.text(max_size=40),
)
pairs = st.one_of(
    st.tuples(names(), values).map(lambda nv: f"{nv[0]}={nv[1]}"),
    st.tuples(names(), values).map(lambda nv: f"{nv[0]}={nv[1]}"),
    names(),                                                     # NAME without a value
    values.map(lambda v: "=" + v),                               # a value without a name
    st.tuples(names(), values).map(lambda nv: f"{nv[0]}=={nv[1]}"),
    st.tuples(names(), values, values).map(lambda t: f"{t[0]}={t[1]}={t[2]}"),
)
multiples = st.one_of(st.sampled_from(["0", "-1", "1", "8", "128", "1e3", "99999999999999999999999", "x", ""]),
                      st.integers(-10**6, 10**20).map(str))


def flag() -> st.SearchStrategy[list[str]]:
    arg = lambda strategy, name: strategy.map(lambda v: [name, v])  # noqa: E731
    return st.one_of(
        arg(names("hw"), "--hw"), arg(names("model"), "--model"), arg(names("setup"), "--preset"),
        st.just(["--max"]), st.just(["--min"]), arg(names("condition"), "--require"),
        arg(names("condition"), "--require"), arg(multiples, "--multiple-of"),
        arg(st.sampled_from(["si", "iec", "x", ""]), "--units"),
        arg(st.sampled_from(["text", "json", "md", "html", "tex", "beamer", "csv", "x", ""]), "--format"),
        arg(st.sampled_from(["en", "zh", "both", "fr", "", "en,zh"]), "--lang"),
        arg(st.sampled_from(FILES), "--templates"), arg(st.sampled_from(FILES), "--formulas"),
        arg(st.sampled_from(OUTPUTS), "-o"), st.just(["--debug"]), st.just(["--beamer"]), st.just(["--zip"]),
        arg(st.sampled_from(["quantity", "relation", "condition", "hw", "model", "setup", "x"]), "--kind"),
        arg(st.sampled_from(["0", "1", "-1", "x"]), "--verify"),
        st.just(["--help"]), st.just(["--version"]), st.just(["--"]), st.just(["-"]), st.just(["-x"]),
        st.from_regex(r"--[a-z][a-z-]{0,12}", fullmatch=True).map(lambda f: [f]),
    )


SWEEP_SPECS = st.one_of(
    st.tuples(names(), st.sampled_from(["1:10:3", "1:1024:11:log", "1,2,4", "5:1:3", "1:10:0", "1:10:10000001",
                                        "a:b:c", "1:1e300:5:log", "0:10:3:log", "1:10:3:log:x", "1,,2", "-1:1:3",
                                        "1:10:99999999999999999999", "nan:inf:3"])).map(lambda t: f"{t[0]}={t[1]}"),
    pairs,
)


@st.composite
def command_lines(draw) -> list[str]:
    command = draw(st.sampled_from(["solve"] * 10 + ["list", "show", "sweep", "check", "report", "render",
                                                     "plot", "frobnicate", "", "--version"]))
    argv = [command] if command else []
    if command in ("solve", "show", "sweep"):
        argv.append(draw(names()))
    elif command in ("check", "report", "render"):
        argv.append(draw(st.sampled_from(FILES)))
    elif command == "plot":
        argv.append(draw(st.sampled_from(["roofline", "memory", "kv-cache", "hierarchy", "pie", ""])))
    items = draw(st.lists(st.one_of(SWEEP_SPECS if command == "sweep" else pairs, flag()), max_size=8))
    for item in items:
        argv.extend(item if isinstance(item, list) else [item])
    if command == "plot" and "-o" not in argv:
        argv += ["-o", "plot.png"]
    return argv


# ---------------------------------------------------------------------------
# hostile files


def make_fixtures(folder: Path) -> dict[str, Path]:
    """The files that ``@name`` tokens stand for (read by the calls, never written to)."""
    folder.mkdir(parents=True, exist_ok=True)
    files: dict[str, Path] = {}

    def put(name: str, text: str | bytes, filename: str) -> None:
        path = folder / filename
        path.parent.mkdir(parents=True, exist_ok=True)
        (path.write_bytes if isinstance(text, bytes) else lambda t: path.write_text(t, encoding="utf-8"))(text)
        files[name] = path

    put("formulas_ok", (ROOT / "examples" / "checkpoint.yaml").read_text(encoding="utf-8"), "ok.yaml")
    put("formulas_hostile", "quantities:\n  - id: evil_bytes\n    unit: B\n    symbol: e\n"
        "    name: {en: e, zh: e}\n    meaning: {en: e, zh: e}\n    source: derived\n"
        "relations:\n  - id: evil_bytes\n    equation: \"evil_bytes = __import__('os').system('touch PWNED')\"\n"
        "    name: {en: e, zh: e}\n    meaning: {en: e, zh: e}\n    source: derived\n", "hostile.yaml")
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    put("formulas_bomb", "\n".join(lines) + "\nquantities: *a8\n", "bomb.yaml")
    put("formulas_deep", "quantities: " + "[" * 3000 + "]" * 3000 + "\n", "deep.yaml")
    put("formulas_binary", bytes(range(256)) * 4, "binary.yaml")
    put("formulas_clash", "quantities:\n  - id: hbm_bw\n    unit: B\n    symbol: W\n    name: {en: x, zh: x}\n"
        "    meaning: {en: x, zh: x}\n    source: derived\n", "clash.yaml")
    put("formulas_dir", (ROOT / "examples" / "checkpoint.yaml").read_text(encoding="utf-8"), "fdir/a.yaml")
    files["formulas_dir"] = folder / "fdir"
    for fmt, body in [("txt", "{{ 1/0 }}"), ("md", '{{ ("x" * 10**10)|length }}'),
                      ("html", "{{ ''.__class__.__mro__[1].__subclasses__() }}"), ("tex", "{% for x in %}"),
                      ("beamer", "{{ range(10**9)|list }}")]:
        put("templates_bad", body + "\n", f"templates/solution.{fmt}.j2")
    files["templates_bad"] = folder / "templates"
    (folder / "empty").mkdir(exist_ok=True)
    files["templates_empty"] = folder / "empty"
    put("problem_ok", (ROOT / "reports" / "gpus-70b-training.yaml").read_text(encoding="utf-8"), "problem.yaml")
    put("problem_bad", "id: p\ntitle: {en: t, zh: t}\nstatement: {en: s, zh: s}\nquestions:\n"
        "  - id: q\n    ask: {en: a, zh: a}\n    solve: \"__import__('os')\"\n", "problem_bad.yaml")
    put("claims_bad", "chapter: seed-bandwidth-wall\ntitle: {en: t, zh: t}\nclaims:\n  - id: c\n    quote: q\n"
        "    stated: 9**9**9 B\n    constant: {preset: a100, quantity: hbm_bw}\n", "claims_bad.yaml")
    put("live_ok", 'A100: {{ q("critical_ai", hw="a100") }} FLOP/B.\n', "live.md")
    put("live_hostile", "{{ cycler.__init__.__globals__.os.system('touch PWNED') }}\n{{ 1/0 }}\n"
        '{{ ("x" * 10**10)|length }}\n{{ q("critical_ai", hw="a100", peak_flops="9**9**9") }}\n', "live_evil.md")
    files["missing"] = folder / "no-such-file.yaml"
    files["dir"] = folder
    return files


def resolve(argv: list[str], files: dict[str, Path], sandbox: Path) -> list[str]:
    out = []
    for a in argv:
        if a.startswith("@sandbox/"):
            a = str(sandbox / a[len("@sandbox/"):])
        elif a.startswith("@") and a[1:] in files:
            a = str(files[a[1:]])
        out.append(a)
    return out


# ---------------------------------------------------------------------------
# the watch on what a call does


class Watch:
    """An audit hook: every write, folder, rename, removal and process start, checked against the sandbox."""

    WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
    PATH_EVENTS = {"os.mkdir": 0, "os.remove": 0, "os.rmdir": 0, "os.truncate": 0, "os.symlink": 1, "os.link": 1,
                   "shutil.rmtree": 0, "shutil.copyfile": 1, "os.chmod": 0, "os.utime": 0}
    PROCESS_EVENTS = {"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
                      "os.forkpty", "pty.spawn", "ctypes.dlopen"}

    def __init__(self) -> None:
        self.allowed: tuple[str, ...] = ()
        self.active = False
        self.violations: list[str] = []
        sys.addaudithook(self.hook)

    def ok(self, path) -> bool:
        if isinstance(path, int):
            return True
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        full = os.path.realpath(os.path.abspath(os.fspath(path)))
        if "__pycache__" in full.split(os.sep) or full in ("/dev/null", "/dev/tty"):
            return True
        return any(full == a or full.startswith(a + os.sep) for a in self.allowed)

    def hook(self, event: str, args: tuple) -> None:
        if not self.active:
            return
        if event == "open":
            path, mode, flags = (list(args) + [None, None])[:3]
            writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or \
                      (isinstance(flags, int) and flags & self.WRITE_FLAGS)
            if writing and path is not None and not self.ok(path):
                self.violations.append(f"open for writing: {path}")
        elif event == "os.rename":
            for p in args[:2]:
                if not self.ok(p):
                    self.violations.append(f"rename: {p}")
        elif event in self.PATH_EVENTS:
            p = args[self.PATH_EVENTS[event]]
            if not self.ok(p):
                self.violations.append(f"{event}: {p}")
        elif event in self.PROCESS_EVENTS:
            self.violations.append(f"{event}: {args[:2]}")


class Hang(BaseException):
    """A call ran past the time limit (a BaseException, so that the CLI's handlers let it through)."""


@pytest.fixture(scope="module")
def fuzz_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz")
    (root / "cache").mkdir()
    # matplotlib lists the system's fonts (it runs fc-list) the first time it meets a config folder:
    # do that here, outside the watch, for this process and for the real processes
    env = {**os.environ, "MPLCONFIGDIR": str(root / "cache" / "mpl")}
    subprocess.run([sys.executable, "-c", "import matplotlib.font_manager"], env=env, check=True, timeout=300)
    saved = os.environ.get("MPLCONFIGDIR")
    os.environ["MPLCONFIGDIR"] = env["MPLCONFIGDIR"]
    try:
        import matplotlib.font_manager  # noqa: F401
    finally:
        os.environ.pop("MPLCONFIGDIR") if saved is None else os.environ.update(MPLCONFIGDIR=saved)
    return root


@pytest.fixture(scope="module")
def watch():
    return Watch()


@pytest.fixture(scope="module")
def fixtures(fuzz_root):
    return make_fixtures(fuzz_root / "fixtures")


def check_outcome(code: int, out: str, err: str, argv: list[str]) -> None:
    assert code in (0, 2), f"exit {code} for {argv!r}:\n{err[-2000:]}"
    assert "Traceback" not in err, f"traceback for {argv!r}:\n{err[-2000:]}"
    if code == 2:
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("derive: error: "), f"{argv!r}:\n{err[-2000:]}"
    COUNTS[f"exit {code}"] += 1


# ---------------------------------------------------------------------------
# in this process


def run_in_process(argv: list[str], sandbox: Path, watch: Watch, cache: Path) -> tuple[int, str, str]:
    from derive.cli import main

    out, err = io.StringIO(), io.StringIO()
    env_before = {k: os.environ.get(k) for k in ("HOME", "TMPDIR", "XDG_CACHE_HOME", "DERIVE_CACHE_DIR", "MPLCONFIGDIR")}
    cwd = os.getcwd()
    saved_tempdir = tempfile.tempdir

    def timeout(signum, frame):
        raise Hang(f"{argv!r} ran longer than {TIME_LIMIT} s")

    old_handler = signal.signal(signal.SIGALRM, timeout)
    try:
        os.environ.update(HOME=str(sandbox / "home"), TMPDIR=str(sandbox / "tmp"), MPLCONFIGDIR=str(cache / "mpl"),
                          XDG_CACHE_HOME=str(sandbox / "xdg"), DERIVE_CACHE_DIR=str(cache))
        tempfile.tempdir = str(sandbox / "tmp")
        os.chdir(sandbox / "work")
        watch.allowed = (os.path.realpath(sandbox), os.path.realpath(cache))
        watch.active = True
        signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:     # argparse's --help and --version
                code = exc.code if isinstance(exc.code, int) else 2
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old_handler)
        watch.active = False
        os.chdir(cwd)
        tempfile.tempdir = saved_tempdir
        for k, v in env_before.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return code, out.getvalue(), err.getvalue()


def _peak_rss(who: int) -> int:
    """Peak resident memory in bytes of this process or of the largest child it waited for."""
    peak = resource.getrusage(who).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def new_sandbox(root: Path) -> Path:
    sandbox = Path(tempfile.mkdtemp(dir=root / "calls"))
    for sub in ("work", "home", "tmp"):
        (sandbox / sub).mkdir()
    return sandbox


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs POSIX timers")
def test_fuzz_the_cli_in_process(fuzz_root, fixtures, watch):
    (fuzz_root / "calls").mkdir(exist_ok=True)
    cache = fuzz_root / "cache"
    slowest = [0.0, None]
    baseline = _peak_rss(resource.RUSAGE_SELF)

    @settings(max_examples=IN_PROCESS_CASES, deadline=None, database=None, derandomize=not DEV,
              suppress_health_check=list(HealthCheck), print_blob=True)
    @given(command_lines())
    def check(argv):
        sandbox = new_sandbox(fuzz_root)
        argv = resolve(argv, fixtures, sandbox)
        note(f"argv = {argv!r}")
        start = time.perf_counter()
        code, out, err = run_in_process(argv, sandbox, watch, cache)
        took = time.perf_counter() - start
        grown = _peak_rss(resource.RUSAGE_SELF) - baseline
        assert grown < MEMORY_LIMIT, f"{argv!r} raised this process's peak memory by {grown / 2**30:.1f} GiB"
        if took > slowest[0]:
            slowest[:] = [took, argv]
        violations, watch.violations = watch.violations, []
        assert not violations, f"{argv!r} wrote outside its folder or started a process: {violations}"
        assert not (sandbox / "work" / "PWNED").exists() and not Path("PWNED").exists()
        check_outcome(code, out, err, argv)
        COUNTS["in-process calls"] += 1
        COMMANDS[argv[0] if argv else ""] += 1
        shutil.rmtree(sandbox, ignore_errors=True)

    check()
    REPORT.append(f"fuzz, in process: {COUNTS['in-process calls']} calls ({COUNTS['exit 0']} exit 0, "
                  f"{COUNTS['exit 2']} exit 2); slowest {slowest[0]:.2f} s: {slowest[1]!r}")
    # the generator reaches both outcomes and every command
    assert COUNTS["exit 0"] >= IN_PROCESS_CASES // 50 and COUNTS["exit 2"] >= IN_PROCESS_CASES // 2
    assert {"solve", "list", "show", "sweep", "check", "report", "render", "plot"} <= set(COMMANDS)


# ---------------------------------------------------------------------------
# as real processes

WRAPPER = r"""
import os, runpy, sys
allowed = tuple(os.path.realpath(p) for p in os.environ["FUZZ_ALLOWED"].split(os.pathsep))
log = open(os.environ["FUZZ_LOG"], "a", encoding="utf-8")
WRITE = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
PROCESS = {"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty"}
def ok(p):
    if isinstance(p, int):
        return True
    p = os.path.realpath(os.path.abspath(os.fsdecode(p) if isinstance(p, bytes) else os.fspath(p)))
    return "__pycache__" in p.split(os.sep) or p in ("/dev/null", "/dev/tty") or \
        any(p == a or p.startswith(a + os.sep) for a in allowed)
def hook(event, args):
    bad = None
    if event == "open":
        path, mode, flags = (list(args) + [None, None])[:3]
        w = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (isinstance(flags, int) and flags & WRITE)
        if w and path is not None and not ok(path):
            bad = path
    elif event in ("os.rename", "os.mkdir", "os.remove", "os.rmdir", "shutil.rmtree", "os.symlink"):
        bad = next((p for p in args[:2] if isinstance(p, (str, bytes, os.PathLike)) and not ok(p)), None)
    elif event in PROCESS:
        bad = repr(args[:2])
    if bad is not None:
        log.write(f"{event}: {bad}\n")
        log.flush()
sys.addaudithook(hook)
sys.argv = ["derive"] + sys.argv[1:]
runpy.run_module("derive", run_name="__main__", alter_sys=True)
"""


def snapshot(folder: Path, skip: tuple[Path, ...]) -> set[str]:
    found = set()
    for dirpath, dirnames, filenames in os.walk(folder):
        if any(Path(dirpath) == s or Path(dirpath).is_relative_to(s) for s in skip):
            dirnames[:] = []
            continue
        found.update(os.path.join(dirpath, n) for n in dirnames + filenames)
    return found


def run_process(argv: list[str], sandbox: Path, cache: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DERIVE_", "PYTEST"))}
    env.update(HOME=str(sandbox / "home"), TMPDIR=str(sandbox / "tmp"), XDG_CACHE_HOME=str(sandbox / "xdg"),
               MPLCONFIGDIR=str(cache / "mpl"),
               DERIVE_CACHE_DIR=str(cache), FUZZ_ALLOWED=os.pathsep.join([str(sandbox), str(cache)]),
               FUZZ_LOG=str(sandbox / "audit.log"), PYTHONPATH=str(ROOT))

    def limits():   # a memory bomb must fail with MemoryError, not take the machine down
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (8 * 2**30, 8 * 2**30))

    # an argument cannot hold a NUL byte or a lone surrogate: the shell could not pass them either
    argv = [a.encode("utf-8", "replace").decode("utf-8").replace("\x00", "") for a in argv]
    return subprocess.run([sys.executable, "-c", WRAPPER, *argv], cwd=sandbox / "work", env=env,
                          capture_output=True, text=True, timeout=TIME_LIMIT, preexec_fn=limits)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX resource limits")
def test_fuzz_the_cli_as_real_processes(fuzz_root, fixtures):
    (fuzz_root / "calls").mkdir(exist_ok=True)
    cache = fuzz_root / "cache"
    # a first call builds the catalog cache (not timed like the others)
    warm = new_sandbox(fuzz_root)
    subprocess.run([sys.executable, "-m", "derive", "list"], cwd=warm / "work", capture_output=True, timeout=300,
                   env={**os.environ, "DERIVE_CACHE_DIR": str(cache), "HOME": str(warm / "home")})
    seen = Counter()

    @settings(max_examples=SUBPROCESS_CASES, deadline=None, database=None, derandomize=not DEV,
              suppress_health_check=list(HealthCheck), print_blob=True)
    @given(command_lines())
    def check(argv):
        sandbox = new_sandbox(fuzz_root)
        argv = resolve(argv, fixtures, sandbox)
        note(f"argv = {argv!r}")
        before = snapshot(fuzz_root, (sandbox, cache))
        try:
            run = run_process(argv, sandbox, cache)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{argv!r} ran longer than {TIME_LIMIT} s") from None
        peak = _peak_rss(resource.RUSAGE_CHILDREN)     # the largest child so far: this call's, if it is over
        assert peak < MEMORY_LIMIT, f"{argv!r} used {peak / 2**30:.1f} GiB of memory"
        after = snapshot(fuzz_root, (sandbox, cache))
        assert after == before, f"{argv!r} created {sorted(after - before)[:5]} outside its folder"
        log = sandbox / "audit.log"
        violations = log.read_text(encoding="utf-8") if log.exists() else ""
        assert not violations, f"{argv!r} wrote outside its folder or started a process:\n{violations}"
        assert not (sandbox / "work" / "PWNED").exists()
        check_outcome(run.returncode, run.stdout, run.stderr, argv)
        seen[run.returncode] += 1
        COUNTS["subprocess calls"] += 1
        shutil.rmtree(sandbox, ignore_errors=True)

    check()
    REPORT.append(f"fuzz, real processes: {sum(seen.values())} calls ({seen[0]} exit 0, {seen[2]} exit 2)")


@pytest.fixture(scope="module", autouse=True)
def _report(request):
    yield
    write_report(request, REPORT)

