"""A question swept before runs the kept program (issue 12), over the same grid or a new one: the same
bytes as a fresh sweep, without importing SymPy, never stale (the key covers the command line but the
swept ranges, the code and the catalog files) and never trusted beyond its checked points, computed
exactly from the formula's text; and the program itself evaluates formulas as SymPy does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import sympy
from conftest import ROOT

from derive.storage import cache as _cache
from derive.symbolic.program import compile_program, program_of, run

GRID = ("kv_cache_bytes", "batch=1:64:16", "seq_len=128:32768:9:log", "--model", "llama2-70b")

SCRIPT = """
import sys
from derive.cli._main import main
code = main(sys.argv[1:])
print("sympy imported" if "sympy" in sys.modules else "sympy not imported", file=sys.stderr)
sys.exit(code)
"""


def _sweep(cache: Path, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = {"DERIVE_CACHE_DIR": str(cache), "XDG_CONFIG_HOME": str(cache.parent / "config"), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-c", SCRIPT, "sweep", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=300)


def _entries(cache: Path) -> list[Path]:
    return sorted(cache.glob("sweep-*.json"))


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_a_repeated_sweep_prints_the_same_bytes_without_sympy(tmp_path, fmt):
    cache = tmp_path / "cache"
    fresh = _sweep(tmp_path / "off", *GRID, "--format", fmt)
    first = _sweep(cache, *GRID, "--format", fmt)
    again = _sweep(cache, *GRID, "--format", fmt)
    assert fresh.returncode == first.returncode == again.returncode == 0, first.stderr
    assert first.stderr.strip() == "sympy imported" and again.stderr.strip() == "sympy not imported"
    assert fresh.stdout == first.stdout == again.stdout
    assert len(_entries(cache)) == 1
    if fmt == "csv":
        rows = again.stdout.splitlines()
        assert rows[0] == "batch [1],seq_len [1],kv_cache_bytes [B]"
        # LLaMA-2 70B: 2 (K, V) x 80 layers x 8 KV heads x 128 x 2 B = 327,680 B per token
        assert rows[1] == "1,128,41943040" and len(rows) == 1 + 16 * 9


def test_one_kept_sweep_serves_every_format_and_output_file(tmp_path):
    cache = tmp_path / "cache"
    out1, out2 = tmp_path / "a.npz", tmp_path / "b.npz"
    assert _sweep(cache, *GRID, "--format", "csv").returncode == 0
    again = _sweep(cache, *GRID, "--format", "npz", "-o", str(out1))
    fresh = _sweep(tmp_path / "other", *GRID, "--format", "npz", "-o", str(out2))
    assert again.stderr.strip() == "sympy not imported" and fresh.stderr.strip() == "sympy imported"
    assert out1.read_bytes() == out2.read_bytes()
    data = np.load(out1)
    assert data["kv_cache_bytes"][0] == 327680 * 128 and json.loads(str(data["meta"]))["verified_points"] == 3


def test_a_changed_formula_file_sweeps_afresh(tmp_path):
    cache = tmp_path / "cache"
    user = tmp_path / "mine.yaml"
    text = (ROOT / "examples" / "checkpoint.yaml").read_text(encoding="utf-8")
    user.write_text(text, encoding="utf-8")
    first = _sweep(cache, *GRID, "--formulas", str(user))
    user.write_text(text + "\n# edited\n", encoding="utf-8")
    second = _sweep(cache, *GRID, "--formulas", str(user))
    assert first.returncode == second.returncode == 0, first.stderr
    assert second.stderr.strip() == "sympy imported" and second.stdout == first.stdout
    assert len(_entries(cache)) == 2


def test_a_kept_program_that_disagrees_with_its_checked_points_is_not_used(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    fresh = _sweep(cache, *GRID)
    [entry] = _entries(cache)
    header, payload = entry.read_text(encoding="utf-8").split("\n", 1)
    data = json.loads(payload)
    for step in data["program"]:
        if step[0] == "const":
            step[1] *= 2                    # a tampered program, signed with the user's own key
    payload = json.dumps(data)
    head = json.loads(header)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    _cache._secrets.clear()
    head["mac"] = _cache._mac(_cache.secret(), head["kind"], head["key"], payload.encode("utf-8"))
    entry.write_text(json.dumps(head) + "\n" + payload, encoding="utf-8")
    again = _sweep(cache, *GRID)
    assert again.returncode == 0 and again.stdout == fresh.stdout
    assert again.stderr.strip() == "sympy imported"


def test_a_question_swept_before_sweeps_a_new_grid_without_sympy(tmp_path):
    """The kept program serves another range of the same swept quantities: numbers in the declared unit or
    in a unit the first sweep was written in; a unit it has not kept, or another fixed input, goes to the
    engine. Every output is what a fresh sweep prints."""
    cache, off = tmp_path / "cache", tmp_path / "off"

    def both(*inputs: str, verify: str = "3") -> tuple[subprocess.CompletedProcess, subprocess.CompletedProcess]:
        args = ("memory_time", *inputs, "--verify", verify)
        return _sweep(cache, *args), _sweep(off, *args)

    first, _ = both("bytes_moved=1GB:10GB:4", "hbm_bw=2TB/s")
    assert first.returncode == 0 and first.stderr.strip() == "sympy imported", first.stderr
    for inputs, verify, kept in [(("bytes_moved=2GB:30GB:5", "hbm_bw=2TB/s"), "3", True),      # a new range
                                 (("bytes_moved=3:3000:7:log", "hbm_bw=2TB/s"), "5", True),    # in bytes
                                 (("bytes_moved=5GB,7GB,11GB", "hbm_bw=2TB/s"), "0", True),    # a list
                                 (("bytes_moved=2GiB:30GiB:5", "hbm_bw=2TB/s"), "3", False),   # GiB: not kept
                                 (("bytes_moved=2GB:30GB:5", "hbm_bw=3TB/s"), "3", False)]:    # another input
        ours, fresh = both(*inputs, verify=verify)
        assert ours.returncode == fresh.returncode == 0, ours.stderr
        assert ours.stdout == fresh.stdout
        assert ours.stderr.strip() == ("sympy not imported" if kept else "sympy imported"), inputs
    rows = _sweep(cache, "memory_time", "bytes_moved=2GB:30GB:5", "hbm_bw=2TB/s").stdout.splitlines()
    assert rows[1] == "2000000000,0.001"
    last = rows[-1].split(",")
    assert last[0] == "30000000000" and float(last[1]) == pytest.approx(0.015, rel=1e-15)   # 30 GB at 2 TB/s


def test_a_bound_sweep_is_not_kept(tmp_path):
    cache = tmp_path / "cache"
    args = ("batch", "seq_len=512:32768:4:log", "--max", "--require", "kv_cache_fits", "--model", "llama2-70b",
            "--hw", "h100", "num_devices=8")
    first, again = _sweep(cache, *args), _sweep(cache, *args)
    assert first.returncode == again.returncode == 0, first.stderr
    assert again.stderr.strip() == "sympy imported" and first.stdout == again.stdout
    assert _entries(cache) == []


X, Y, Z = sympy.symbols("x y z", positive=True)


@pytest.mark.parametrize("expr", [
    327680 * X * Y,
    X / Y + sympy.Rational(3, 7) * Z**2,
    sympy.sqrt(X * Y) / 4 + 1 / (X + Z),
    sympy.Max(X, 2 * Y) + sympy.Min(Y, Z) + sympy.ceiling(X / 3) - sympy.floor(Y / 5),
    sympy.log(X) * sympy.exp(Y / 1000) + sympy.Abs(X - Y),
    sympy.Integer(10) ** 400 * X,                        # beyond a float: inf, as a float literal gives
])
def test_a_program_evaluates_a_formula_as_sympy_does(expr):
    program = program_of(expr)
    assert program is not None and json.loads(json.dumps(program)) == program    # plain data
    rng = np.random.default_rng(7)
    xs, ys, zs = (rng.uniform(0.5, 900.0, 50) for _ in range(3))
    got = np.asarray(run(program, {"x": xs, "y": ys, "z": zs}))
    for i in range(0, 50, 7):
        want = float(expr.subs({X: xs[i], Y: ys[i], Z: zs[i]}).evalf(30)) if expr.has(X) else None
        assert got[i] == pytest.approx(want, rel=1e-13)


@pytest.mark.parametrize("expr", [
    327680 * X * Y,                                      # an outer product of two axes
    sympy.Rational(3, 7) * X / Y,                        # constants folded into one axis, then the outer product
    (X - 17) / (40960 * Y) + Z,                          # a product spanning two axes, then a third
    X / Y + sympy.Rational(3, 7) * Z**2,
    sympy.Max(X, 2 * Y) + sympy.Min(Y, Z) + sympy.ceiling(X / 3) - sympy.floor(Y / 5),
    sympy.sqrt(X * Y * Z) / 4 + 1 / (X + Z),
    sympy.log(X) * sympy.exp(Z / 1000),                  # no step spans two axes: all of it is sliced
])
@pytest.mark.parametrize("layout", ["2d", "3d"])
def test_a_program_run_in_blocks_gives_what_it_gives_whole(expr, layout):
    """Blocks of the first axis, with and without an output to write into, put together are the
    whole grid's values (what spans one axis is computed once; sums and products may associate
    differently, so equal within a few units in the last place)."""
    rng = np.random.default_rng(11)
    if layout == "2d":
        inputs = {"x": rng.uniform(20, 900, (9, 1)), "y": rng.uniform(0.5, 900, (1, 7)), "z": np.float64(3.5)}
    else:
        inputs = {"x": rng.uniform(20, 900, (9, 1, 1)), "y": rng.uniform(0.5, 900, (1, 5, 1)),
                  "z": rng.uniform(0.5, 900, (1, 1, 4))}
    program = program_of(expr)
    compiled = compile_program(program, list(inputs))
    whole = np.broadcast_to(compiled(*inputs.values()), np.broadcast_shapes(*(np.shape(v) for v in inputs.values())))
    block = compiled.in_blocks(list(inputs.values()))
    bounds = [(0, 4), (4, 8), (8, 9)]
    returned = np.concatenate([np.broadcast_to(block(lo, hi), (hi - lo,) + whole.shape[1:]) for lo, hi in bounds])
    written = np.empty(whole.shape)
    for lo, hi in bounds:
        assert block(lo, hi, out=written[lo:hi]).base is written
    for got in (returned, written):
        np.testing.assert_allclose(got, whole, rtol=4e-16 * 8, atol=0)
        assert not np.array_equal(got, np.zeros_like(got))


def test_a_program_shares_a_repeated_subexpression():
    common = (X + Y) ** 2
    program = program_of(common * Z + common / Z)
    assert sum(1 for step in program if step[0] == "pow" and program[step[2]] == ["const", 2.0]) == 1


def test_what_a_program_cannot_hold_has_none():
    f = sympy.Function("f")
    assert program_of(f(X) + 1) is None
    assert program_of(X ** Y) is None                     # an exponent that is not a constant
    assert program_of(sympy.Piecewise((X, X > 1), (Y, True))) is None


@pytest.mark.parametrize("bad", [[], [["in"]], [["in", "w"]], [["const", "1"]], [["add", 0]],
                                 [["const", 1.0], ["add", 0, 5]], [["const", 1.0], ["nope", 0]],
                                 [["in", "x"], ["pow", 0, 0]], [["const", 1.0], ["mul", True, 0]], [5]])
def test_a_malformed_program_is_refused(bad):
    with pytest.raises(ValueError):
        run(bad, {"x": np.ones(3)})


@pytest.mark.parametrize("grid", ["seq_len=1.5:10.5:4", "seq_len=2,3.5,8"])
def test_a_warm_store_refuses_what_the_engine_refuses(tmp_path, grid):
    """Issue 30: after one sweep, seq_len=1.5:10.5:4 was rounded to 2, 4, 8, 10 from the store; the
    engine refuses a fraction of a whole-number quantity, and so does a warm store."""
    cache = tmp_path / "cache"
    question = ("kv_cache_bytes", "--model", "llama2-7b", "--preset", "bf16", "batch=1")
    cold = _sweep(tmp_path / "cold", *question, grid)
    assert _sweep(cache, *question, "seq_len=2:10:5").returncode == 0 and _entries(cache)
    warm = _sweep(cache, *question, grid)
    assert cold.returncode == warm.returncode == 2
    assert warm.stderr == cold.stderr and warm.stderr.startswith("derive: error:") and "seq_len" in warm.stderr
