"""Fuzz what a user writes, not only what a user types: generated units, claims files, problem files,
live sources and template packs, through the real commands.

``tests/test_fuzz_cli.py`` fuzzes the command line, with a handful of fixed files. Here Hypothesis
generates the files' contents and the units themselves:

- **units** with powers, nested powers, parentheses, prefixes, products and quotients
  (``(EB^8)^8/s``, ``TB^1^1/s``, ``GiB*s^-2``), sometimes mangled (a bracket dropped, an operator
  doubled), as values typed on the command line (``solve``), ``--unit``, stated values of claims,
  givens of problem files and ``q()`` inputs and ``| unit()`` conversions of live sources;
- **claims files**: real claims of ``reports/claims/`` with fields replaced, dropped or added
  (ids, quotes, stated values with units, solve/given/bound/require/tolerance/approx/constant/
  conventions/stated_order, wrong types, huge numbers, inf and nan, unknown names), and files
  built from nothing;
- **problem files**: real questions of ``reports/*.yaml`` mutated the same way (the grammar is in
  ``derive/documents/problems.py``), with problem-level fields;
- **live sources** (Markdown, HTML and LaTeX): text with ``{{ q(...) }}``, ``const(...)``, ``name(...)``,
  ``claims(...)`` over a generated claims file beside the source, filters (``unit``, ``percent``,
  Jinja's own), attributes (``.value``, ``.exact``), and Jinja statements (``set``, ``for``, ``if``,
  ``macro``), sometimes broken;
- **template packs**: ``solution.{md,html,tex}.j2`` bodies built from Jinja constructs over the
  write-up's view (``s.target``, ``s.steps``, ``msg``, ``pick``, the built-in blocks, filters,
  loops, macros, ``extends``/``include``/``import``), with a generated ``messages-x.yaml`` beside.

Each input goes through ``derive check``, ``derive report``, ``derive render`` or ``derive solve
--templates`` in this process (``derive.cli.main``, with the audit hook of the CLI fuzz: nothing
written outside the call's folder, no process started) and a few as real processes. Every call ends
with exit 0, or exit 2 and one ``derive: error:`` line (never exit 1 or a traceback), within the CLI
fuzz's per-call time limit and memory budget (``TIME_LIMIT``, ``MEMORY_LIMIT``). In this process a
render's CPU budget is lowered to a few seconds (its 60 s would pass the time limit), so that
generated loops are stopped by it; the real processes keep the shipped budgets and their loops short.

In CI: 120 calls per surface in this process (600 in all), 240 readings of the unit reader alone and 6
real processes, about 35 s on a 2-core machine; ``DERIVE_HYPOTHESIS=dev`` runs ten times as many, with a
fresh random seed each run (``DERIVE_FUZZ_INPUT_CASES=N`` sets the per-surface count). What the fuzz found
is in ``tests/test_fuzz_findings.py``.
"""

from __future__ import annotations

import glob
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import write_report
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from test_fuzz_cli import (
    DEV,
    MEMORY_LIMIT,
    NAMES,
    TIME_LIMIT,
    Watch,
    _peak_rss,
    check_outcome,
    new_sandbox,
    run_in_process,
    run_process,
    snapshot,
)

from derive import DeriveError, load_catalog

ROOT = Path(__file__).resolve().parent.parent
CASES = int(os.environ.get("DERIVE_FUZZ_INPUT_CASES", 1200 if DEV else 120))
UNIT_CASES = CASES * 2          # the unit reader alone: cheap, so more of them
PROCESS_CASES = max(5, CASES // 20)
RENDER_SECONDS = 1.0            # a render's CPU budget in this process (the shipped one is 60 s)
COUNTS: Counter = Counter()
REPORT: list[str] = []

SETTINGS = dict(deadline=None, database=None, derandomize=not DEV, suppress_health_check=list(HealthCheck),
                print_blob=True)

# ---------------------------------------------------------------------------
# units


DATA_UNITS = ["B", "kB", "MB", "GB", "TB", "PB", "EB", "ZB", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "bit", "kbit",
              "Gbit", "Tbit", "byte", "octet"]
TIME_UNITS = ["s", "ms", "us", "µs", "μs", "ns", "ps", "min", "h", "hr", "day", "week", "year", "sec"]
OTHER_UNITS = ["FLOP", "TFLOP", "PFLOP", "EFLOP", "FLOPs", "FLOPS", "TFLOPS", "OP", "TOPS", "Hz", "GHz", "MHz",
               "cycle", "cycles", "USD", "bps", "Gbps", "GBps", "1"]
ODD_UNITS = ["KB", "Kb", "x", "parsec", "m", "kg", "Bq", "_", "B_", "e", "E", "inf", "nan", "GB2", "µ", "Ki",
             "__class__", "TB/", "/s"]
EXPONENTS = ["0", "1", "2", "3", "-1", "-2", "8", "-8", "9", "-9", "16", "64", "4096", "4097", "9999999", "(2)",
             "(-1)", "(-9)", "-(1)", "1^1", "2^2", "8^8", "2^3", "(1/2)", "0.5", "1.5", "2**3", "-0", "+2", "1e1",
             "(8)", "((8))", "x", ""]
NUMBERS = ["1", "2", "3.35", "0.5", "156", "1e3", "2**30", "1e-3", "1.5e12", "4096", "0", "-1", "1e400", "1e60",
           "1e-60", "1e61", "2^10", "(2)", "1/3", ".5", "5.", "1_000", "9**9**9", "10**400"]


def _unit_tree(atoms: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    power = st.tuples(st.sampled_from(["^", "**", "^", " ^ "]), st.sampled_from(EXPONENTS)).map("".join)
    return st.recursive(atoms, lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["*", "/", "·", " * ", " / ", "*", "/"]), inner).map("".join),
        inner.map(lambda u: f"({u})"),
        st.tuples(inner, power).map("".join),
        st.tuples(inner.map(lambda u: f"({u})"), power).map("".join),
        st.tuples(inner.map(lambda u: f"({u})"), power, power).map("".join),
    ), max_leaves=6)


def _mangle(text: str, draw) -> str:
    """Drop, double or insert one character (a bracket, an operator) somewhere in ``text``."""
    if not text:
        return text
    i = draw(st.integers(0, len(text) - 1))
    how = draw(st.sampled_from(["drop", "double", "insert"]))
    if how == "drop":
        return text[:i] + text[i + 1:]
    if how == "double":
        return text[:i] + text[i] + text[i:]
    return text[:i] + draw(st.sampled_from(list("()^*/ ·-+.e0"))) + text[i:]


def _neutral() -> st.SearchStrategy[str]:
    """A factor of dimension one (``(GiB^3/GB^3)``, ``^1^1``): keeps a unit's dimension while making it odd."""
    name = st.sampled_from(DATA_UNITS + TIME_UNITS + OTHER_UNITS[:6])
    n = st.sampled_from(["1", "2", "3", "8", "9", "(2)", "1^1"])
    return st.one_of(
        st.tuples(name, n, st.sampled_from(DATA_UNITS + TIME_UNITS), n)
        .map(lambda t: f"*({t[0]}^{t[1]}/{t[2]}^{t[3]})" if t[1] != t[3] else f"*({t[0]}^{t[1]}/{t[0]}^{t[1]})"),
        st.tuples(name, n).map(lambda t: f"*(({t[0]}^{t[1]})^{t[1]}/({t[0]}^{t[1]})^{t[1]})"),
        st.just("^1^1"), st.just("^1"), st.just("^(1)"), st.just("**1"),
    )


NEUTRALS = {n: st.lists(_neutral(), max_size=n) for n in (1, 2)}
UNIT_TREE = _unit_tree(st.sampled_from(DATA_UNITS + TIME_UNITS + OTHER_UNITS + ODD_UNITS[:6]) | st.sampled_from(ODD_UNITS))
UNIT_PARTS = {"data": DATA_UNITS, "time": TIME_UNITS, "compute": ["FLOP", "TFLOP", "PFLOP", "EFLOP", "OP", "GFLOP"]}


@st.composite
def _units(draw, dims: str) -> str:
    """A unit string: of the given dimension (``data/time``, ``compute/time``, ``data``), odd but right; or any."""
    if dims != "any" and draw(st.integers(0, 3)):
        top, _, bottom = dims.partition("/")
        text = draw(st.sampled_from(UNIT_PARTS[top])) + "".join(draw(NEUTRALS[2]))
        if bottom:
            den = draw(st.sampled_from(UNIT_PARTS[bottom])) + "".join(draw(NEUTRALS[1]))
            text = f"{text}/{den}" if draw(st.booleans()) else f"({text})/({den})"
        return text
    text = draw(UNIT_TREE)
    if not draw(st.integers(0, 5)):
        text = _mangle(text, draw)
    return text


_UNITS = {d: _units(d) for d in ("any", "data", "time", "data/time", "compute/time")}


def units(dims: str = "any") -> st.SearchStrategy[str]:
    return _UNITS[dims]


NUMBER_TEXTS = st.sampled_from(NUMBERS) | st.floats(1e-5, 1e15).map(lambda x: f"{x:.4g}")


@st.composite
def _values(draw, dims: str) -> str:
    """A value as typed: a number, a space or not, a unit (``3.35 TB/s``, ``1 (EB^8)^8/s``, ``2**30 B``)."""
    number = draw(NUMBER_TEXTS)
    unit = draw(units(dims))
    sep = draw(st.sampled_from(["", " ", " ", "*"]))
    if unit.startswith("(") and sep == "" and draw(st.booleans()):
        sep = " "          # '1 (EB^8)^8/s': a number, a space and a bracket
    return f"{number}{sep}{unit}"


_VALUES = {d: _values(d) for d in _UNITS}


def values(dims: str = "any") -> st.SearchStrategy[str]:
    return _VALUES[dims]


# ---------------------------------------------------------------------------
# claims and problem files, from the real ones


def _real(pattern: str, key: str) -> list[dict]:
    found = []
    for path in sorted(glob.glob(str(ROOT / pattern))):
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        found += [dict(entry) for entry in data.get(key) or [] if isinstance(entry, dict)]
    return found


REAL_CLAIMS = _real("reports/claims/*.yaml", "claims")
REAL_QUESTIONS = _real("reports/*.yaml", "questions")
REAL_CLAIM = st.sampled_from(REAL_CLAIMS)
REAL_QUESTION = st.sampled_from(REAL_QUESTIONS)
CATALOG = load_catalog()
REFERENCES = sorted(CATALOG.references)
CONDITIONS = sorted(CATALOG.conditions)
QUANTITIES = sorted(CATALOG.quantities)

# every kind of YAML scalar and collection, for a field that wants something else
odd_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**30, 10**30), st.just(10**400), st.just("HUGE_INT_5000"),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([float("inf"), float("-inf"), float("nan")]),
    st.text(max_size=12), st.sampled_from(["", " ", "~", "null", "yes", "no", "on", "1e400", "-0", "0x10", "1_0",
                                           ".inf", "NaN", "批次", "a" * 300, "{{ 7*7 }}", "\\input{/etc/passwd}"]),
)
odd_values = st.one_of(odd_scalars, st.lists(odd_scalars, max_size=3),
                       st.dictionaries(st.sampled_from(["en", "zh", "x", "id", "value"]), odd_scalars, max_size=3))


def names_of(pool: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(pool), st.sampled_from(pool), st.sampled_from(pool),
                     st.from_regex(r"[a-z_][a-z0-9_]{0,20}", fullmatch=True), st.sampled_from(["", "批次", "x" * 200]))


hw_names = names_of(NAMES["hw"])
model_names = names_of(NAMES["model"])
setup_names = names_of(NAMES["setup"])
quantity_names = names_of(QUANTITIES)
condition_names = names_of(CONDITIONS)


_GIVEN_VALUE = st.one_of(values(), st.sampled_from(NUMBERS), st.integers(-10**6, 10**20), st.floats(), odd_scalars)
GIVENS = st.one_of(st.dictionaries(quantity_names, _GIVEN_VALUE, max_size=3), odd_values)
_TEXT = st.text(max_size=30) | st.sampled_from(["x", "中文", "{n}", "{n:>1000000000}", "$x$", "**b**", "<b>"])
BILINGUAL = st.one_of(st.fixed_dictionaries({"en": _TEXT, "zh": _TEXT}), odd_values)


def givens() -> st.SearchStrategy[Any]:
    return GIVENS


def bilingual_texts() -> st.SearchStrategy[Any]:
    return BILINGUAL


def question_fields() -> dict[str, st.SearchStrategy[Any]]:
    """Each field a question takes (claims and problem files share them), with plausible and odd values."""
    return {
        "solve": quantity_names | odd_scalars,
        "given": givens(),
        "hw": hw_names | odd_scalars,
        "model": model_names | odd_scalars,
        "presets": st.lists(setup_names, max_size=3) | setup_names | odd_values,
        "bound": st.sampled_from(["max", "min", "max", "MAX", "x", ""]) | odd_scalars,
        "require": st.lists(condition_names, max_size=2) | condition_names | odd_values,
        "multiple_of": st.sampled_from([1, 8, 128, 0, -1, "128", "x", 10**400, 1.5]) | odd_scalars,
        "round": st.sampled_from([True, False, "true", "no", "x"]) | odd_scalars,
        "assume": st.lists(st.sampled_from(["batch << d_model", "seq_len >> batch", "x << y", "batch <", "1 << 2"]),
                           max_size=2) | odd_values,
        "tolerance": st.sampled_from([0.01, 0, 1, 2, -1, "0.05", "x"]) | odd_scalars,
        "unit": units() | odd_scalars,
    }


SHORT_TEXT = st.text(max_size=8)
MUTATIONS = st.sampled_from([0, 0, 0, 1, 1, 2, 3])   # how many fields of an entry are changed
FEW = st.sampled_from([0, 0, 0, 0, 0, 0, 1, 2])      # ... of a whole file


def rarely(draw, one_in: int) -> bool:
    return draw(st.integers(0, one_in - 1)) == one_in // 2


@st.composite
def mutated(draw, base: dict, fields: dict[str, st.SearchStrategy[Any]], unknown: list[str],
            how_many: st.SearchStrategy[int] = MUTATIONS) -> dict:
    """``base`` with a few fields replaced, dropped or added (an unknown one, now and then)."""
    entry = dict(base)
    for _ in range(draw(how_many)):
        how = draw(st.sampled_from(["set", "set", "set", "drop", "unknown"]))
        if how == "set":
            key = draw(st.sampled_from(sorted(fields)))
            entry[key] = draw(fields[key])
        elif how == "drop" and entry:
            entry.pop(draw(st.sampled_from(sorted(entry, key=str))))
        elif how == "unknown":
            entry[draw(st.sampled_from(unknown) | SHORT_TEXT)] = draw(odd_values)
    return entry


def _claim_fields() -> dict[str, st.SearchStrategy[Any]]:
    fields = question_fields()
    fields.pop("unit")
    fields.pop("tolerance")
    stated = st.one_of(values(), values(dims="data/time"), values(dims="compute/time"), values(dims="data"),
                       st.sampled_from(["156 FLOP/B", "2 TB/s", "80 GB", "~156", "156", "1e400 B", "9**9**9 B",
                                        "1 (EB^8)^8/s", "2 TB^1^1/s", "inf B", "nan", "-3 s"]), odd_scalars)
    fields.update({
        "id": st.text(max_size=10) | odd_scalars,
        "quote": st.text(max_size=40) | odd_scalars,
        "where": st.text(max_size=10) | odd_scalars,
        "stated": stated,
        "approx": st.sampled_from([True, False, "yes", "x"]) | odd_scalars,
        "tolerance": st.sampled_from([0.01, 0, 1, 0.5, "0.05", "inf", "nan", -1, 1e400]) | odd_scalars,
        "note": bilingual_texts(),
        "constant": st.one_of(st.fixed_dictionaries({"preset": hw_names | model_names, "quantity": quantity_names}),
                              st.fixed_dictionaries({"preset": hw_names}), odd_values),
        "conventions": st.lists(st.fixed_dictionaries(
            {"name": bilingual_texts()},
            optional={"given": givens(), "hw": hw_names, "stated": stated, "presets": setup_names,
                      "model": model_names, "x": odd_scalars}), max_size=2) | odd_values,
        "stated_order": st.sampled_from(["N", "N^2", "N*log(N)", "N^9999", "1", "M^2", "N^N", "x"]) | odd_scalars,
        "order_in": quantity_names | odd_scalars,
    })
    return fields


CLAIM_FIELDS = _claim_fields()
CHAPTERS = st.one_of(*[st.sampled_from(REFERENCES)] * 6, names_of(REFERENCES), odd_scalars)
CLAIMS_FILE_FIELDS = {"chapter": st.sampled_from(REFERENCES) | odd_scalars, "title": bilingual_texts(),
                      "note": bilingual_texts(), "claims": odd_values}


@st.composite
def claims_files(draw, max_claims: int = 3) -> str:
    """The text of a claims file: real claims mutated, or claims from nothing; now and then cut short."""
    claims = []
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, max_claims]))):
        base = draw(REAL_CLAIM) if draw(st.integers(0, 4)) else \
            {"id": "c", "quote": "q", "stated": draw(values()), "solve": "critical_ai", "hw": "a100"}
        claims.append(draw(mutated(base, CLAIM_FIELDS, ["sovle", "stated_value", "presets_", "given2"])))
    chapter = draw(CHAPTERS)
    data: Any = {"chapter": chapter, "title": {"en": "t", "zh": "标题"}, "claims": claims}
    data = draw(mutated(data, CLAIMS_FILE_FIELDS, ["chapters"], FEW))
    if rarely(draw, 16):
        data = draw(odd_values)
    return _dump(data, draw)


def _dump(data: Any, draw) -> str:
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=200)
    text = text.replace("HUGE_INT_5000", "-" + "9" * 5000)     # a number no str() of an int may print
    if rarely(draw, 12):
        text = text[:draw(st.integers(0, len(text)))]          # a file cut short
    if rarely(draw, 20):
        text += draw(st.sampled_from(["\n!!python/object/apply:os.system ['touch PWNED']\n", "\n- &a [*a]\n",
                                      "\n\t\tbad: indent\n", "\nclaims: *x\n", "\n{{\n", "\x00"]))
    return text


PROBLEM_QUESTION_FIELDS = {**question_fields(),
                           "id": st.text(max_size=10) | odd_scalars, "ask": bilingual_texts(),
                           "note": bilingual_texts(), "units": st.sampled_from(["si", "iec", "x"]) | odd_scalars,
                           "expect": values() | st.sampled_from(["156 FLOP/B", "312", "x"]) | odd_scalars,
                           "minimize": quantity_names | odd_scalars, "maximize": quantity_names | odd_scalars}


PROBLEM_FIELDS = {
    "id": st.text(max_size=10) | odd_scalars, "title": bilingual_texts(), "statement": bilingual_texts(),
    "source": st.sampled_from(REFERENCES).map(lambda r: f"{r}, section 1") | odd_scalars,
    "assumptions": st.lists(bilingual_texts(), max_size=2) | odd_values, "hw": hw_names | odd_scalars,
    "model": model_names | odd_scalars, "presets": st.lists(setup_names, max_size=2) | odd_values,
    "given": givens(), "units": st.sampled_from(["si", "iec", "x"]) | odd_scalars, "note": bilingual_texts(),
    "questions": odd_values}


@st.composite
def problem_files(draw) -> str:
    """The text of a problem file: real questions mutated, problem-level fields generated."""
    questions = []
    for _ in range(draw(st.sampled_from([1, 1, 2]))):
        base = draw(REAL_QUESTION) if draw(st.integers(0, 4)) else \
            {"id": "q", "ask": {"en": "a", "zh": "问"}, "solve": "critical_ai", "hw": "a100"}
        questions.append(draw(mutated(base, PROBLEM_QUESTION_FIELDS, ["sovle", "givens", "bounds"])))
    data = {"id": "p", "title": {"en": "t", "zh": "标题"}, "statement": {"en": "s", "zh": "题"}, "questions": questions}
    data = draw(mutated(data, PROBLEM_FIELDS, ["question", "titles"], FEW))
    if rarely(draw, 16):
        data = draw(odd_values)
    return _dump(data, draw)


# ---------------------------------------------------------------------------
# live sources


def _literal(value: Any) -> str:
    """A Python value as a Jinja literal."""
    return repr(value) if not isinstance(value, float) or value == value and abs(value) != float("inf") \
        else "(1e400 * 0)" if value != value else ("1e400" if value > 0 else "-1e400")


live_value = st.one_of(values(), values(dims="data/time"), values(dims="compute/time"),
                       st.sampled_from([1, 2, 4096, 0, -1, 1.5, 10**70, "x", "2 TB/s", "1 (EB^8)^8/s"]),
                       st.integers(-10**6, 10**20), st.floats(allow_nan=False, allow_infinity=False))
live_option = st.one_of(
    hw_names.map(lambda n: f"hw={n!r}"), model_names.map(lambda n: f"model={n!r}"),
    setup_names.map(lambda n: f"preset={n!r}"), st.lists(setup_names, max_size=2).map(lambda n: f"presets={n!r}"),
    st.sampled_from(["max", "min", "x"]).map(lambda b: f"bound={b!r}"),
    st.lists(condition_names, max_size=2).map(lambda n: f"require={n!r}"),
    st.sampled_from([1, 2, 4, 30, 31, 0, -5, "'x'", "none", "2.5", "true"]).map(lambda d: f"digits={d}"),
    st.sampled_from(["'si'", "'iec'", "'x'", "1"]).map(lambda u: f"units={u}"),
    units().map(lambda u: f"unit={u!r}"),
    st.sampled_from([8, 128, 0, -1, "'x'"]).map(lambda m: f"multiple_of={m}"),
    st.sampled_from(["true", "false", "'x'"]).map(lambda r: f"rounding={r}"),
    st.tuples(quantity_names, live_value).map(lambda t: f"{t[0]}={_literal(t[1])}"),
    st.sampled_from(["peak_flops=const('peak_flops', hw='a100')", "hbm_bw=q('hbm_bw', hw='h100')",
                     "arithmetic_intensity=q('elementwise_intensity', preset='op-add')", "hbm_bw=x",
                     "hbm_bw=const('hbm_capacity', hw='a100')"]),
)
LIVE_TARGETS = ["critical_ai", "critical_ai_hbm", "hbm_bw", "kv_cache_bytes", "smem_bw", "num_devices", "d_model",
                "elementwise_intensity", "intensity_gap", "batch"]


def live_call(func: str) -> st.SearchStrategy[str]:
    target = st.sampled_from(LIVE_TARGETS) | quantity_names
    return st.tuples(target, st.lists(live_option, max_size=4)).map(
        lambda t: f"{func}({', '.join([repr(t[0])] + t[1])})")


def _real_calls() -> list[str]:
    """The engine calls of the repository's live sources whose arguments are all literals (good calls)."""
    found: set[str] = set()
    for path in sorted(glob.glob(str(ROOT / "reports" / "*.src.*"))):
        text = Path(path).read_text(encoding="utf-8")
        found.update(c for c in re.findall(r"(?<![\w.])(?:q|const|name)\([^(){}]*\)", text)
                     if not re.search(r"=\s*[A-Za-z_]\w*\s*[,)]", c))
    return sorted(found)


REAL_CALLS = st.sampled_from(_real_calls())
live_atom = st.one_of(
    REAL_CALLS, REAL_CALLS, REAL_CALLS, REAL_CALLS,
    st.tuples(REAL_CALLS.filter(lambda c: not c.startswith("name")), live_option)
    .map(lambda t: f"{t[0][:-1]}, {t[1]})"),
    st.tuples(REAL_CALLS.filter(lambda c: not c.startswith("name")), live_option)
    .map(lambda t: f"{t[0][:-1]}, {t[1]})"),
    live_call("q"),
    st.tuples(quantity_names, st.lists(st.one_of(hw_names.map(lambda n: f"hw={n!r}"),
                                                 model_names.map(lambda n: f"model={n!r}"),
                                                 setup_names.map(lambda n: f"preset={n!r}"),
                                                 st.sampled_from(["units='iec'", "digits=2", "digits=0"])),
                                       max_size=2))
    .map(lambda t: f"const({', '.join([repr(t[0])] + t[1])})"),
    st.sampled_from(["const('hbm_bw', hw='a100')", "const('peak_flops', hw='h100')",
                     "const('hbm_capacity', hw='a100', units='iec')"]),
    st.one_of(quantity_names, hw_names, condition_names, st.sampled_from(REFERENCES))
    .map(lambda n: f"name({n!r})"),
    st.sampled_from(["x", "lang", "units", "1", "'text'", "range(3)", "none", "q", "q()", "const()", "name(1)",
                     "claims", "solution", "preamble()", "lipsum(2)", "cycler.__init__", "''.__class__",
                     "1/0", "10**10**10", "'x' * 10**9"]),
)
live_filter = st.one_of(
    units(dims="data/time").map(lambda u: f"unit({u!r})"), units().map(lambda u: f"unit({u!r})"),
    st.sampled_from(["unit('GiB')", "unit('TB/s')", "unit('FLOP/B')", "unit('ms')", "unit('GiB', digits=2)",
                     "unit('x')", "unit(1)", "percent", "percent(2)", "percent(-1)", "string", "length", "upper",
                     "round(2)", "float", "int", "e", "safe", "default('d')", "center(10)", "replace('1', '2')",
                     "truncate(5)", "list", "first", "tojson", "abs", "unit"]),
)
live_attribute = st.sampled_from(["", "", "", ".value", ".exact", ".unit", ".regime", ".text", ".to('GiB')",
                                  ".to('TB/s', digits=3)", ".percent()", "._value", "._table", ".__class__"])


LIVE_FILTERS = st.lists(live_filter, max_size=2)
SOLUTION_CALL = live_call("solution")


@st.composite
def live_expressions(draw) -> str:
    expr = draw(live_atom) + draw(live_attribute)
    for f in draw(LIVE_FILTERS):
        expr += " | " + f
    return expr


# text without Jinja's delimiters (nor lone surrogates), written in hypothesis 6.80's API
PLAIN_TEXT = st.text(max_size=30).map(lambda t: re.sub(r"[{}%#\ud800-\udfff]", "", t))
LIVE_TEXT = PLAIN_TEXT | st.sampled_from(
    ["\n\n## 标题\n", " | a | b |\n", "$x^2$", "<b>", "\\section{x}", "\n"])
LIVE_INNER: dict[int, st.SearchStrategy[list[str]]] = {}


@st.composite
def live_pieces(draw, depth: int = 0) -> str:
    kind = draw(st.sampled_from(["text", "text", "text", "value", "value", "value", "value", "set", "for", "if",
                                 "macro", "claims", "broken"] + (["solution", "plot"] if not depth else [])))
    inner = (lambda: "".join(draw(LIVE_INNER[depth + 1]))) if depth < 2 else (lambda: "{{ x }}")
    if kind == "text":
        return draw(LIVE_TEXT)
    if kind == "value":
        return "{{ " + draw(live_expressions()) + " }}"
    if kind == "set":
        return "{% set x = " + draw(live_expressions()) + " %}" + inner()
    if kind == "for":
        seq = draw(st.sampled_from(["[1, 2, 4]", "range(3)", "['a100', 'h100']", "x", "[]"]))
        seq = "range(10**9)" if rarely(draw, 10) else seq       # stopped by the render's CPU budget
        return "{% for x in " + seq + " %}" + inner() + "{% endfor %}"
    if kind == "if":
        return "{% if " + draw(live_expressions()) + " %}" + inner() + "{% else %}.{% endif %}"
    if kind == "macro":
        return "{% macro m(x) %}" + inner() + "{% endmacro %}{{ m(" + draw(live_expressions()) + ") }}"
    if kind == "claims":
        verdict = draw(st.sampled_from(["", ", verdict='erratum'", ", verdict='x'", ", verdict=1"]))
        path = draw(st.sampled_from(["c.yaml", "c.yaml", "./c.yaml", "../c.yaml", "/etc/passwd", "missing.yaml",
                                     "sub", 1]))
        attr = draw(st.sampled_from(["quote", "stated", "computed", "verdict", "note", "where", "id", "x"]))
        return "{% for c in claims(" + repr(path) + verdict + ") %}{{ c." + attr + " }}\n{% endfor %}"
    if kind == "solution":
        level = draw(st.sampled_from(["", ", level=2", ", level=9", ", level='x'"]))
        return "{{ " + draw(SOLUTION_CALL)[:-1] + level + ") }}"
    if kind == "plot":
        return "{{ plot('roofline', hw='a100') }}"          # refused when rendering to standard output
    return draw(st.sampled_from(["{{", "}}", "{% for %}", "{% endif %}", "{% set %}", "{{ q( }}", "{{ 'a' }",
                                 "{% raw %}", "{# x", "{% include 'x' %}", "{% extends 'y' %}",
                                 "{% import 'z' as w %}"]))


LIVE_INNER.update({d: st.lists(live_pieces(d), min_size=1, max_size=2) for d in (1, 2)})
LIVE_BODY = st.lists(live_pieces(), min_size=1, max_size=3)


@st.composite
def live_sources(draw) -> tuple[str, str, bool]:
    """(file name, text, whether it is rendered to a file): a Markdown, HTML or LaTeX live source."""
    suffix = draw(st.sampled_from([".md", ".md", ".md", ".zh.md", ".html", ".tex"]))
    to_file = draw(st.booleans())
    pieces = draw(LIVE_BODY)
    if to_file:
        pieces = [p for p in pieces if "plot(" not in p]   # a plot is a real matplotlib drawing: slow, not fuzzed
    text = "".join(pieces)
    if suffix == ".tex":
        text = text.replace("{%", "((*").replace("%}", "*))")
    return "live" + suffix, text, to_file


# ---------------------------------------------------------------------------
# template packs


TEMPLATE_GOOD = st.sampled_from([
    "s.target.id", "s.target.name", "s.target.symbol", "s.answer.text", "s.answer.latex", "s.answer.exact",
    "s.answer.formula_latex", "s.answer.interval_text", "s.steps", "s.steps[0]", "s.steps[0].relation",
    "s.given", "s.given[0]", "s.checks", "s.notes", "s.citations", "s.cite_index", "s.regime", "s.bound",
    "s.conditions", "s.units", "s", "lang", "output", "units", "pick(s.target.name, lang)",
    "pick(s.target.name, 'zh')", "pick(s.target.name, 'both')", "msg('w_checks_hold', lang)",
    "msg('w_checks_hold', 'zh', n=3)", "'x'", "'中文 $x$ _y_ <b> & % #'", "1", "1.5", "10**6", "[1, 2, 3]",
    "range(5)", "none", "true", "{'a': 1}", "namespace(a=1)", "dict(a=1)", "cycler(1, 2)", "joiner(',')",
    "s.target.name.en * 3", "s.answer.text ~ 'x'", "s.steps | length"])
template_atom = st.one_of(TEMPLATE_GOOD, TEMPLATE_GOOD, st.sampled_from([
    "msg('no_such_key', lang)", "msg('w_question', lang, name=s.target.name)", "msg(1)", "pick(1)", "s.nope",
    "s.target.name.en * 3", "s.answer.text ~ 'x'", "s.steps | length", "s.__class__", "s.items() | list",
    "().__class__.__mro__", "self", "lipsum(2)", "range(10**9) | list", "'%1000000000d' % 1", "'x' * 10**7",
    "s.steps[99]", "s.given[0].nope", "s.answer.text.__len__()", "caller()", "varargs", "kwargs", "loop",
]))
template_filter = st.sampled_from([
    "tex", "md", "prose", "zh", "has_han", "mostly_latin", "vislen", "localize", "localize('zh')", "texurl",
    "striptex", "math", "upper", "lower", "title", "trim", "string", "length", "list", "first", "last", "sort",
    "unique", "reverse", "join(', ')", "join", "replace('a', 'b')", "center(20)", "center(10**9)", "indent(4)",
    "wordwrap(10)", "truncate(10)", "format(1)", "batch(2)", "slice(2)", "sum", "map('string')",
    "map(attribute='relation')", "select", "reject", "selectattr('kind')", "groupby('kind')", "dictsort",
    "items", "tojson", "tojson(indent=2)", "e", "safe", "int", "float", "round(1)", "abs", "default('d')",
    "wordcount", "urlize", "xmlattr", "filesizeformat", "pprint", "attr('en')", "min", "max", "count",
])


TEMPLATE_FILTERS = st.lists(template_filter, max_size=2)


@st.composite
def template_expressions(draw) -> str:
    expr = draw(template_atom)
    for f in draw(TEMPLATE_FILTERS):
        expr += " | " + f
    return expr


TEMPLATE_TEXT = PLAIN_TEXT | st.sampled_from(
    ["\n## h\n", "\\section{x}\n", "<p>", "$x$", "\n"])
TEMPLATE_INNER: dict[int, st.SearchStrategy[list[str]]] = {}


@st.composite
def template_pieces(draw, depth: int = 0) -> str:
    kind = draw(st.sampled_from(["text", "text", "value", "value", "value", "set", "for", "if", "macro", "call",
                                 "builtin", "builtin", "broken"]))
    inner = (lambda: "".join(draw(TEMPLATE_INNER[depth + 1]))) if depth < 2 else (lambda: "{{ x }}")
    if kind == "text":
        return draw(TEMPLATE_TEXT)
    if kind == "value":
        return "{{ " + draw(template_expressions()) + " }}"
    if kind == "set":
        return "{% set x = " + draw(template_expressions()) + " %}" + inner()
    if kind == "for":
        seq = draw(st.sampled_from(["s.steps", "s.given", "s.checks", "s.notes", "s.citations", "range(3)",
                                    "s.target.name", "s", "x", "1"]))
        seq = "range(10**6)" if rarely(draw, 10) else seq       # stopped by the render's CPU budget
        return "{% for x in " + seq + " %}" + inner() + "{% endfor %}"
    if kind == "if":
        return "{% if " + draw(template_expressions()) + " %}" + inner() + "{% else %}.{% endif %}"
    if kind == "macro":
        return "{% macro m(x) %}" + inner() + "{% endmacro %}{{ m(" + draw(template_expressions()) + ") }}"
    if kind == "call":
        return "{% macro m() %}[{{ caller() }}]{% endmacro %}{% call m() %}" + inner() + "{% endcall %}"
    if kind == "builtin":
        return draw(st.sampled_from([
            '{% import "_solution.j2" as w with context %}{{ w.solution(s, 3) }}',
            '{% import "_solution.j2" as w with context %}{{ w.solution(s, 99) }}',
            '{% import "_solution.j2" as w with context %}{{ w.solution(1, 3) }}',
            '{% import "_solution.j2" as w %}{{ w.solution(s, 3) }}',
            '{% import "_" ~ output ~ ".j2" as f %}{{ f.p("x") }}{{ f.h(2, "t") }}',
            '{% include "_md.j2" %}', '{% include "solution.txt.j2" %}', '{% include "nope.j2" %}',
            '{% include "../secret.j2" %}', '{% include "/etc/passwd" %}',
            '{% extends "solution.md.j2" %}', '{% extends "_solution.j2" %}', '{% include "solution.md.j2" %}',
            '{% from "_solution.j2" import question %}{{ question(s) }}',
        ]))
    return draw(st.sampled_from(["{{", "}}", "{% for %}", "{% endif %}", "{% block b %}", "{{ s. }}",
                                 "{% set %}", "{% raw %}", "{# x", "{% endblock %}"]))


message_texts = st.one_of(st.text(max_size=20), st.sampled_from(
    ["{n}", "{n:,}", "{n:>1000000000}", "{n.__class__}", "{n[0]}", "{0}", "{}", "{{", "}", "{name}", "%s", "$x$"]))


TEMPLATE_INNER.update({d: st.lists(template_pieces(d), min_size=1, max_size=2) for d in (1, 2)})
TEMPLATE_BODY = st.lists(template_pieces(), min_size=1, max_size=3)
MESSAGE_TABLES = st.dictionaries(
    st.sampled_from(["w_checks_hold", "w_question", "w_ask_solve", "w_given", "check_verdict_erratum", "x"]),
    st.fixed_dictionaries({"en": message_texts, "zh": message_texts}) | odd_values, max_size=3) | odd_values


@st.composite
def template_packs(draw) -> dict[str, str]:
    """Files of a ``--templates`` folder: one solution template (the format asked for), a messages file now and then."""
    fmt = draw(st.sampled_from(["md", "md", "html", "tex", "beamer", "txt"]))
    files = {f"solution.{fmt}.j2": "".join(draw(TEMPLATE_BODY))}
    if draw(st.integers(0, 3)) == 0:
        table = draw(MESSAGE_TABLES)
        files[draw(st.sampled_from(["messages-x.yaml", "messages-report.yaml", "messages.yaml"]))] = \
            yaml.safe_dump(table, allow_unicode=True)
    if draw(st.integers(0, 5)) == 0:
        files["_md.j2"] = "".join(draw(TEMPLATE_INNER[1]))
    return {"format": fmt, **files}


# ---------------------------------------------------------------------------
# the calls


@pytest.fixture(scope="module")
def fuzz_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz-inputs")
    (root / "cache").mkdir()
    (root / "calls").mkdir()
    return root


@pytest.fixture(scope="module")
def watch():
    return Watch()


@pytest.fixture
def short_renders(monkeypatch):
    import derive.writeup.sandbox as sb

    monkeypatch.setattr(sb, "MAX_SECONDS", RENDER_SECONDS)


def _write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", errors="surrogatepass") if "\x00" not in text else \
            path.write_bytes(text.encode("utf-8", "surrogatepass"))


class Caller:
    """One in-process call with the CLI fuzz's watch, time limit and memory budget."""

    def __init__(self, root: Path, watch: Watch, surface: str) -> None:
        self.root, self.watch, self.surface = root, watch, surface
        self.cache = root / "cache"
        self.baseline = _peak_rss(resource.RUSAGE_SELF)
        self.slowest = (0.0, "")
        self.exits: Counter = Counter()

    def __call__(self, argv: list[str], sandbox: Path, shown: str) -> tuple[int, str, str]:
        note(f"argv = {argv!r}\n{shown}")
        start = time.perf_counter()
        code, out, err = run_in_process(argv, sandbox, self.watch, self.cache)
        took = time.perf_counter() - start
        grown = _peak_rss(resource.RUSAGE_SELF) - self.baseline
        assert grown < MEMORY_LIMIT, f"{argv!r} raised this process's peak memory by {grown / 2**30:.1f} GiB"
        assert took < TIME_LIMIT, f"{argv!r} took {took:.1f} s"
        violations, self.watch.violations = self.watch.violations, []
        assert not violations, f"{argv!r} wrote outside its folder or started a process: {violations}"
        assert not (sandbox / "work" / "PWNED").exists()
        check_outcome(code, out, err, argv)
        if took > self.slowest[0]:
            self.slowest = (took, shown[:200])
        self.exits[code] += 1
        COUNTS[self.surface] += 1
        shutil.rmtree(sandbox, ignore_errors=True)
        return code, out, err

    def report(self) -> None:
        REPORT.append(f"{self.surface}: {sum(self.exits.values())} calls ({self.exits[0]} exit 0, "
                      f"{self.exits[2]} exit 2); slowest {self.slowest[0]:.2f} s: {self.slowest[1]!r}")


FORMULA = """quantities:
  - id: fuzz_rate
    symbol: r
    unit: '{unit}'
    name: {{en: a rate, zh: 速率}}
    meaning: {{en: a generated unit, zh: 生成的单位}}
    source: derived
relations:
  - id: fuzz_rate
    equation: fuzz_rate = hbm_bw * {factor}
    name: {{en: a rate, zh: 速率}}
    meaning: {{en: a generated unit, zh: 生成的单位}}
    source: derived
"""


def _unit_call(draw) -> tuple[list[str], dict[str, str]]:
    """(argv with {work} for the call's folder, files to write there): a generated unit where a unit is read."""
    how = draw(st.sampled_from(["value", "value", "value", "unit", "sweep"]))
    how = "formula" if rarely(draw, 25) else how     # a user formula file is compiled afresh: a second each
    fmt = draw(st.sampled_from(["text", "text", "json", "md", "html", "tex", "beamer"]))
    if how == "value":
        name, dims = draw(st.sampled_from([("hbm_bw", "data/time"), ("peak_flops", "compute/time"),
                                           ("hbm_bw", "any")]))
        return ["solve", "critical_ai", "--hw", "a100", f"{name}={draw(values(dims))}", "--format", fmt], {}
    if how == "formula":     # a unit declared in a user formula file (and a unit literal in its equation)
        factor = draw(st.sampled_from(["1", "2", "[s]/[s]", "[GiB]/[GB]", "([EB^8]/[EB^8])"])
                      | units().map(lambda u: f"[{u}]/[{u}]"))
        text = FORMULA.format(unit=draw(units("data/time")).replace("'", "''"), factor=factor)
        return ["solve", "fuzz_rate", "--hw", "a100", "--formulas", "{work}/mine.yaml", "--format", fmt], \
            {"work/mine.yaml": text}
    if how == "unit":
        target, dims = draw(st.sampled_from([("critical_ai", "any"), ("hbm_capacity", "data"),
                                             ("memory_time", "time"), ("hbm_bw", "data/time")]))
        argv = ["solve", target, "--hw", "a100", "--unit", draw(units(dims)), "--format", fmt]
        return argv + (["bytes_moved=1 GB"] if target == "memory_time" else []), {}
    return ["sweep", "critical_ai_hbm", f"peak_flops=1e14:{draw(values('compute/time'))}:3",
            f"hbm_bw={draw(values('data/time'))}"], {}


# ---------------------------------------------------------------------------
# the tests, in this process


@settings(max_examples=UNIT_CASES, **SETTINGS)
@given(text=st.one_of(units(), units("data/time"), values(), values("data/time")))
def test_generated_units_parse_or_refuse_quickly(text):
    """The unit reader alone: a unit or a value is read, or refused with one of derive's errors, fast."""
    from derive.catalog.values import parse_value

    catalog = CATALOG
    start = time.process_time()
    for read in (lambda: catalog.units.parse(text), lambda: catalog.units.evaluate(text),
                 lambda: parse_value(text, catalog.quantity("hbm_bw"), catalog.units)):
        try:
            read()
        except DeriveError as exc:
            # the reason given is the text's: no function is named, so none is blamed ('1 (EB^8)^8/s' was)
            assert "functions are allowed" not in exc.message or re.search(r"[A-Za-z_]\s*\(", text), exc.message
    assert time.process_time() - start < 2, text
    COUNTS["unit reader"] += 1


@pytest.mark.skipif(not hasattr(__import__("signal"), "setitimer"), reason="needs POSIX timers")
def test_fuzz_units_through_the_cli(fuzz_root, watch):
    call = Caller(fuzz_root, watch, "units on the command line")

    @settings(max_examples=CASES, **SETTINGS)
    @given(st.data())
    def check(data):
        argv, files = _unit_call(data.draw)
        sandbox = new_sandbox(fuzz_root)
        _write(sandbox, files)
        call([a.replace("{work}", str(sandbox / "work")) for a in argv], sandbox, "\n".join(files.values()))

    check()
    call.report()
    assert call.exits[0] >= CASES // 10 and call.exits[2] >= CASES // 10


@pytest.mark.skipif(not hasattr(__import__("signal"), "setitimer"), reason="needs POSIX timers")
def test_fuzz_claims_files(fuzz_root, watch):
    call = Caller(fuzz_root, watch, "claims files (derive check)")

    @settings(max_examples=CASES, **SETTINGS)
    @given(text=claims_files(), fmt=st.sampled_from(["text", "text", "json"]))
    def check(text, fmt):
        sandbox = new_sandbox(fuzz_root)
        _write(sandbox / "work", {"c.yaml": text})
        call(["check", str(sandbox / "work" / "c.yaml"), "--format", fmt], sandbox, text)

    check()
    call.report()
    assert call.exits[0] >= CASES // 20 and call.exits[2] >= CASES // 4


@pytest.mark.skipif(not hasattr(__import__("signal"), "setitimer"), reason="needs POSIX timers")
def test_fuzz_problem_files(fuzz_root, watch, short_renders):
    call = Caller(fuzz_root, watch, "problem files (derive report)")

    @settings(max_examples=CASES, **SETTINGS)
    @given(text=problem_files(), fmt=st.sampled_from(["md", "md", "html", "tex", "md,html"]),
           lang=st.sampled_from(["en", "zh", "both", "en,zh"]))
    def check(text, fmt, lang):
        sandbox = new_sandbox(fuzz_root)
        _write(sandbox / "work", {"p.yaml": text})
        call(["report", str(sandbox / "work" / "p.yaml"), "--format", fmt, "--lang", lang, "-o",
              str(sandbox / "work" / "out")], sandbox, text)

    check()
    call.report()
    assert call.exits[0] >= CASES // 20 and call.exits[2] >= CASES // 4


@pytest.mark.skipif(not hasattr(__import__("signal"), "setitimer"), reason="needs POSIX timers")
def test_fuzz_live_sources(fuzz_root, watch, short_renders):
    call = Caller(fuzz_root, watch, "live sources (derive render)")

    @settings(max_examples=CASES, **SETTINGS)
    @given(source=live_sources(), claims=claims_files(max_claims=2))
    def check(source, claims):
        name, text, to_file = source
        sandbox = new_sandbox(fuzz_root)
        _write(sandbox / "work", {name: text, "c.yaml": claims, "sub/x": ""})
        argv = ["render", str(sandbox / "work" / name)]
        if to_file:
            argv += ["-o", str(sandbox / "work" / "out" / ("out" + Path(name).suffix))]
        call(argv, sandbox, text)

    check()
    call.report()
    assert call.exits[0] >= CASES // 20 and call.exits[2] >= CASES // 4


@pytest.mark.skipif(not hasattr(__import__("signal"), "setitimer"), reason="needs POSIX timers")
def test_fuzz_template_packs(fuzz_root, watch, short_renders):
    call = Caller(fuzz_root, watch, "template packs (derive solve --templates)")

    @settings(max_examples=CASES, **SETTINGS)
    @given(pack=template_packs(), question=st.sampled_from([
        ["critical_ai", "--hw", "a100"], ["critical_ai", "--hw", "a100", "hbm_bw=2 TB^1^1/s"],
        ["batch", "--max", "--require", "kv_cache_fits", "--model", "llama2-70b", "--hw", "h100", "num_devices=8",
         "seq_len=4096"], ["kv_cache_bytes", "--model", "llama2-70b", "seq_len=4096", "batch=256"]]),
        lang=st.sampled_from(["en", "zh", "both"]))
    def check(pack, question, lang):
        sandbox = new_sandbox(fuzz_root)
        files = dict(pack)
        fmt = files.pop("format")
        _write(sandbox / "pack", files)
        argv = ["solve", *question, "--format", fmt, "--lang", lang, "--templates", str(sandbox / "pack")]
        call(argv, sandbox, "\n".join(f"--- {k}\n{v}" for k, v in files.items()))

    check()
    call.report()
    assert call.exits[0] >= CASES // 20 and call.exits[2] >= CASES // 4


# ---------------------------------------------------------------------------
# as real processes: the shipped budgets, so the generated loops stay short


def _short_loops(text: str) -> str:
    return re.sub(r"range\(10\*\*\d\)", "range(3)", text)


@st.composite
def process_calls(draw) -> tuple[list[str], dict[str, str]]:
    """(argv with {work} and {pack} for the call's folders, files to write there) for one surface."""
    surface = draw(st.sampled_from(["units", "claims", "problem", "live", "templates"]))
    if surface == "units":
        return _unit_call(draw)
    if surface == "claims":
        return ["check", "{work}/c.yaml"], {"work/c.yaml": draw(claims_files())}
    if surface == "problem":
        return ["report", "{work}/p.yaml", "--format", "md", "-o", "{work}/out"], {"work/p.yaml": draw(problem_files())}
    if surface == "live":
        name, text, _ = draw(live_sources())
        return ["render", "{work}/" + name, "-o", "{work}/out/x" + Path(name).suffix], \
            {"work/" + name: _short_loops(text).replace("plot(", "q("), "work/c.yaml": draw(claims_files(2))}
    pack = dict(draw(template_packs()))
    fmt = pack.pop("format")
    return ["solve", "critical_ai", "--hw", "a100", "--format", fmt, "--templates", "{pack}"], \
        {"pack/" + k: _short_loops(v) for k, v in pack.items()}


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX resource limits")
def test_fuzz_generated_inputs_as_real_processes(fuzz_root):
    cache = fuzz_root / "cache"
    warm = new_sandbox(fuzz_root)
    subprocess.run([sys.executable, "-m", "derive", "list"], cwd=warm / "work", capture_output=True, timeout=300,
                   env={**os.environ, "DERIVE_CACHE_DIR": str(cache), "HOME": str(warm / "home")})
    seen: Counter = Counter()

    @settings(max_examples=PROCESS_CASES, **SETTINGS)
    @given(process_calls())
    def check(generated):
        argv, files = generated
        sandbox = new_sandbox(fuzz_root)
        _write(sandbox, files)
        argv = [a.replace("{work}", str(sandbox / "work")).replace("{pack}", str(sandbox / "pack")) for a in argv]
        note(f"argv = {argv!r}\n{files!r}")
        before = snapshot(fuzz_root, (sandbox, cache))
        try:
            run = run_process(argv, sandbox, cache)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{argv!r} ran longer than {TIME_LIMIT} s") from None
        peak = _peak_rss(resource.RUSAGE_CHILDREN)
        assert peak < MEMORY_LIMIT, f"{argv!r} used {peak / 2**30:.1f} GiB of memory"
        assert snapshot(fuzz_root, (sandbox, cache)) == before, f"{argv!r} created files outside its folder"
        log = sandbox / "audit.log"
        assert not log.exists() or not log.read_text(encoding="utf-8"), log.read_text(encoding="utf-8")
        check_outcome(run.returncode, run.stdout, run.stderr, argv)
        seen[run.returncode] += 1
        shutil.rmtree(sandbox, ignore_errors=True)

    check()
    REPORT.append(f"generated inputs, real processes: {sum(seen.values())} calls ({seen[0]} exit 0, "
                  f"{seen[2]} exit 2)")


@pytest.fixture(scope="module", autouse=True)
def _report(request):
    yield
    write_report(request, REPORT)
