"""The package as users get it: its version, errors that cross processes, and caches that
belong to the catalog they were computed from."""

from __future__ import annotations

import pickle
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import derive
from derive import errors as _errors

BLOCK = """
quantities:
  - {{id: xa, unit: '1', symbol: 'x_a', name: {{en: xa, zh: xa}}, meaning: {{en: a, zh: a}}, source: derived}}
  - {{id: xb, unit: '1', symbol: 'x_b', name: {{en: xb, zh: xb}}, meaning: {{en: b, zh: b}}, source: derived}}
  - {{id: xc, unit: '1', symbol: 'x_c', name: {{en: xc, zh: xc}}, meaning: {{en: c, zh: c}}, source: derived}}
relations:
  - {{id: xsum, equation: 'xc = xa + xb', name: {{en: sum, zh: 和}}, meaning: {{en: s, zh: s}}, source: derived}}
  - {{id: xratio, equation: 'xa = {k} * xb', name: {{en: ratio, zh: 比}}, meaning: {{en: r, zh: r}}, source: derived}}
"""


def _user_catalog(tmp_path: Path, name: str, k: int):
    from derive import load_catalog

    path = tmp_path / name / "block.yaml"     # the same file name, so only the content differs
    path.parent.mkdir()
    path.write_text(BLOCK.format(k=k), encoding="utf-8")
    return load_catalog([path])


@pytest.mark.parametrize("order", [("two", "three"), ("three", "two")])
def test_two_catalogs_in_one_process_never_share_solved_blocks(tmp_path, order):
    """Issue 9: the cache of solved simultaneous blocks was keyed by relation ids only, so a
    second catalog whose relations have the same ids but other equations got the first
    catalog's solution (VerificationError, "this is a bug in derive")."""
    from derive import solve

    catalogs = {"two": _user_catalog(tmp_path, "two", 2), "three": _user_catalog(tmp_path, "three", 3)}
    expected = {"two": Fraction(10, 3), "three": Fraction(10, 4)}   # xc = k·xb + xb with xc = 10
    for _ in range(2):          # alternately, twice round
        for name in order:
            sol = solve("xb", {"xc": 10}, catalog=catalogs[name])
            assert sol.steps[0].kind == "system"
            assert Fraction(str(sol.value)) == expected[name]


def test_two_catalogs_alternate_with_the_builtin_one(tmp_path):
    from derive import load_catalog, solve

    builtin = load_catalog()
    user = _user_catalog(tmp_path, "user", 2)
    for _ in range(2):
        assert solve("critical_ai", hw="a100", catalog=builtin).display() == "156 FLOP/B"
        assert Fraction(str(solve("xb", {"xc": 10}, catalog=user).value)) == Fraction(10, 3)
        d = solve("d_model", hw="tpu-v5e", presets=["classic-ffn"], bound="max",
                  require=["ffn_fits_in_vmem"], catalog=builtin)
        assert d.value == 2896


def _module_tables() -> dict[tuple[str, str], int]:
    """The size of every dict, list and set held at module level by derive's modules."""
    sizes = {}
    for name, module in list(sys.modules.items()):
        if name != "derive" and not name.startswith("derive."):
            continue
        for attr, value in vars(module).items():
            if isinstance(value, (dict, list, set)) and not attr.startswith("__"):
                sizes[(name, attr)] = len(value)
    return sizes


def test_no_module_level_table_grows_while_solving_and_rendering(tmp_path):
    """Everything computed from a catalog's content is kept on that catalog (its ``memo``):
    solving and writing up questions with two catalogs leaves every module-level table as it was."""
    from derive import load_catalog, solve
    from derive.writeup.render import render_solution

    builtin = load_catalog()
    user = _user_catalog(tmp_path, "user", 2)
    # warm every module once, so that lazily imported modules and their constant tables exist
    render_solution(solve("kv_cache_bytes", {"batch": 1, "seq_len": 4096}, model="llama2-7b", catalog=builtin), "md")
    before = _module_tables()
    questions = [
        (builtin, "critical_ai", {}, {"hw": "h100"}),
        (builtin, "seq_len", {"kv_cache_bytes": "40 GB", "batch": 3}, {"model": "llama3-8b"}),
        (builtin, "batch", {"d_model": 8192}, {"hw": "tpu-v5p", "presets": ["classic-ffn"], "bound": "min",
                                              "require": ["ffn_prefetch_hidden"]}),
        (builtin, "roofline_time", {"flops": "1e12 FLOP", "bytes_moved": "3 GB"}, {"hw": "a100"}),
        (user, "xa", {"xc": 7}, {}),
    ]
    for catalog, target, given, options in questions:
        sol = solve(target, given, catalog=catalog, **options)
        for fmt in ("md", "html", "tex", "text"):
            render_solution(sol, fmt, lang="both")
    after = _module_tables()
    grown = {key: (before.get(key), size) for key, size in after.items() if size > before.get(key, size)}
    assert not grown, f"module-level tables grew while solving: {grown}"


def test_each_catalog_owns_its_memo(tmp_path):
    from derive import load_catalog, solve

    builtin = load_catalog()
    user = _user_catalog(tmp_path, "owner", 3)
    assert builtin.memo is not user.memo
    solve("xb", {"xc": 10}, catalog=user)
    assert any(key[0] == ("xratio", "xsum") or key[0] == ("xsum", "xratio") for key in user.memo.blocks)
    assert not any("xratio" in key[0] for key in builtin.memo.blocks)


# ---------------------------------------------------------------------------
# errors cross process boundaries


def _one_of_each() -> list[derive.DeriveError]:
    E = _errors
    return [
        E.DeriveError("plain"),
        E.UnknownNameError("hbm_bandwith", "quantity", ["hbm_bw"]),
        E.UnitError("bad unit", unit="TB/x", quantity="hbm_bw", expected="B/s", got="B"),
        E.ExpressionError("bad expression", text="1 +"),
        E.InputError("bad input", name="batch"),
        E.MissingInputsError("kv_cache_bytes", ["batch", "seq_len"], "or choose --model"),
        E.ContradictoryInputsError("critical_ai_hbm", "left is 1", "right is 2", 0.5, "(eq)"),
        E.NoSolutionError("none", quantity="d_model", relations=["ffn_fits_in_vmem"]),
        E.NotInvertibleError("flash_col_blocks", "seq_len", "only inside ceil"),
        E.QuestionError("`multiple_of` rounds a bound: use it with `bound`", name="multiple_of"),
        E.VerificationError("check failed"),
        E.CatalogError("bad entry", file="formulas/x.yaml", line=12, entry="x"),
        E.UnitBalanceError(file="x.yaml", line=3, entry="r", left_unit="B", right_unit="s", detail="d"),
        E.TemplateError("bad template", file="t.md.j2", line=4),
        E.TimeBudgetError("solving slow_power for xc", 10.0),
    ]


def test_every_public_error_class_is_covered_here():
    covered = {type(e).__name__ for e in _one_of_each()}
    assert covered == set(_errors.__all__)


@pytest.mark.parametrize("error", _one_of_each(), ids=lambda e: type(e).__name__)
def test_errors_pickle_with_their_fields(error):
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error)
    assert str(back) == str(error)
    assert back.args == error.args
    assert vars(back) == vars(error)


def test_errors_cross_a_real_process_boundary():
    import concurrent.futures
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        future = pool.submit(derive.solve, "kv_cache_bytes", {"batch": 1}, model="llama2-70b")
        with pytest.raises(derive.MissingInputsError) as err:
            future.result(timeout=120)
    assert err.value.target == "kv_cache_bytes"
    assert err.value.missing == ("seq_len",)


# ---------------------------------------------------------------------------
# version


def test_version_comes_from_the_package_metadata(cli):
    from importlib.metadata import version

    assert derive.__version__ == version("derive")
    run = cli("--version")
    assert run.code == 0
    assert run.out.strip() == f"derive {derive.__version__}"


def test_the_wheel_lists_every_subpackage_of_derive():
    """The wheel holds only the packages pyproject.toml lists (the catalog and templates are mapped
    in, so discovery cannot be used): a new subpackage left off the list installs a ``derive``
    command that cannot import itself. Every folder of ``derive/`` with an ``__init__.py`` must be
    listed."""
    tomllib = pytest.importorskip("tomllib")
    root = Path(__file__).resolve().parent.parent
    if not (root / "pyproject.toml").is_file():
        pytest.skip("run from the installed wheel: no pyproject.toml beside the tests")
    listed = set(tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
                 ["tool"]["setuptools"]["packages"])
    found = {".".join(init.parent.relative_to(root).parts) for init in (root / "derive").rglob("__init__.py")}
    assert found - listed == set()
