"""User formula files (``--formulas``, ``load_catalog(extra=...)``): the README example runs as
written, clashes need ``override: true``, and user files get the same unit checks and the same
whitelist parser as the built-in catalog (hostile expressions are refused, nothing runs).
"""

from __future__ import annotations

import re
import shutil
import textwrap
from pathlib import Path

import pytest
import sympy

from derive import CatalogError, UnitBalanceError, load_catalog, solve
from derive.writeup.render import render_solution

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "checkpoint.yaml"


# ---------------------------------------------------------------------------
# the README's worked example, run as written


def readme_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Your own formulas")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def fences(section: str, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", section, flags=re.S)


def console_runs(block: str) -> list[tuple[list[str], list[str]]]:
    """``$ derive ARGS`` lines with the output lines shown under them (up to a ``...``)."""
    runs: list[tuple[list[str], list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ derive "):
            runs.append((line[len("$ derive "):].split(), []))
        elif runs and line != "...":
            runs[-1][1].append(line)
    return runs


def test_readme_yaml_excerpt_is_taken_from_the_example_file():
    excerpt = fences(readme_section(), "yaml")[0]
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    pos = 0
    for want in excerpt.strip("\n").splitlines():
        while pos < len(lines) and lines[pos] != want:
            pos += 1
        assert pos < len(lines), f"README line not in examples/checkpoint.yaml (in this order): {want!r}"


def test_readme_worked_example_runs_as_written(cli, tmp_path):
    """Every ``$ derive ...`` of the section runs and prints the lines the README shows.

    The commands run in a scratch folder holding ``examples/`` and the README's ``my.yaml``.
    """
    section = readme_section()
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    for block in fences(section, "yaml"):
        first = block.splitlines()[0]
        if first.startswith("# ") and first.split()[1].endswith(".yaml:"):
            (tmp_path / first.split()[1].rstrip(":")).write_text(block, encoding="utf-8")
    runs = [run for block in fences(section, "console") for run in console_runs(block)]
    assert len(runs) >= 3
    inverse = [args for args, _ in runs if "--max" not in args and "solve" in args]
    assert inverse, "the README should solve a user formula for an unknown"
    for args, shown in runs:
        run = cli(*args, cwd=tmp_path, env={"DERIVE_CACHE_DIR": str(tmp_path / "cache")})
        if shown and shown[0].startswith("derive: error:"):
            assert run.code == 2, run.err
            assert run.err.strip().splitlines() == shown, run.err
        else:
            assert run.code == 0, run.err
            assert run.out.splitlines()[:len(shown)] == shown, run.out


def test_readme_python_call_gives_the_same_answer():
    assert ('solve("storage_write_bw", {"params": "70e9", "checkpoint_time": "2 min"},\n'
            'catalog=load_catalog(extra=["examples/checkpoint.yaml"]))') in readme_section()
    sol = solve("storage_write_bw", {"params": "70e9", "checkpoint_time": "2 min"},
                catalog=load_catalog(extra=[EXAMPLE]))
    assert sol.value == sympy.Rational(70 * 10**9 * 14, 120)     # B/s, exactly
    assert sol.display() == "8.167 GB/s"
    assert [g.name for g in sol.assumptions] == ["checkpoint_bytes_per_param"]


def test_the_bound_of_the_example_is_the_largest_whole_model():
    cat = load_catalog(extra=[EXAMPLE])
    sol = solve("params", {"checkpoint_budget": "5 min"}, hw="lab-nfs", bound="max",
                require=["checkpoint_within_budget"], catalog=cat)
    assert sol.value == (2 * 10**9 * 300) // 14
    assert sol.exact == sympy.Rational(2 * 10**9 * 300, 14)


def test_a_folder_of_formula_files_loads_like_one_file(cli, tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    shutil.copy(EXAMPLE, folder / "checkpoint.yaml")
    run = cli("show", "checkpoint_within_budget", "--formulas", str(folder), "--format", "json",
              env={"DERIVE_CACHE_DIR": str(tmp_path / "cache")})
    assert run.code == 0, run.err
    assert run.json["require"] == "checkpoint_time <= checkpoint_budget"
    empty = tmp_path / "empty"
    empty.mkdir()
    run = cli("list", "--formulas", str(empty))
    assert run.code == 2 and "no .yaml files in this folder" in run.err


def test_the_builtin_catalog_does_not_contain_the_example():
    """If the catalog ever gains these ids, the example would clash: rename the example's."""
    builtin = load_catalog()
    user = load_catalog(extra=[EXAMPLE])
    added = set(user.quantities) - set(builtin.quantities)
    assert {"checkpoint_bytes_per_param", "storage_write_bw", "checkpoint_time", "checkpoint_budget"} <= added
    assert "lab-nfs" in user.presets and "lab-nfs" not in builtin.presets


# ---------------------------------------------------------------------------
# clashes and overrides


def user_file(tmp_path: Path, text: str, name: str = "mine.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


QUANTITY = """
quantities:
  - id: widget_bytes
    unit: B
    symbol: 'w'
    name: {en: widget bytes, zh: 部件字节数}
    meaning: {en: Bytes of a widget., zh: 部件的字节数。}
    source: derived
"""

RELATION = """
relations:
  - id: {id}
    equation: {equation}
    name: {{en: a relation, zh: 一个关系式}}
    meaning: {{en: For the test., zh: 测试用。}}
    source: derived
"""

CLASHES = [
    ("quantity", "hbm_bw", QUANTITY.replace("widget_bytes", "hbm_bw").replace("unit: B", "unit: B/s")),
    ("relation", "critical_ai_hbm", RELATION.format(id="critical_ai_hbm", equation="critical_ai_hbm = peak_flops / hbm_bw")),
    ("condition", "ffn_fits_in_vmem", """
conditions:
  - id: ffn_fits_in_vmem
    require: ffn_weight_bytes <= vmem_capacity
    name: {en: a condition, zh: 一个条件}
    meaning: {en: For the test., zh: 测试用。}
    source: derived
"""),
    ("preset", "a100", """
presets:
  - id: a100
    kind: hw
    name: {en: my A100, zh: 我的 A100}
    source: derived
    values:
      hbm_bw: 1 TB/s
"""),
    ("reference", "derived", """
references:
  - id: derived
    title: Mine
    kind: derived
"""),
]


@pytest.mark.parametrize("kind, ident, text", CLASHES, ids=[c[0] for c in CLASHES])
def test_a_name_clash_without_override_is_an_error_naming_both_files(tmp_path, cli, kind, ident, text):
    path = user_file(tmp_path, text)
    with pytest.raises(CatalogError) as err:
        load_catalog([path], use_cache=False)
    e = err.value
    assert (e.file, e.entry) == (str(path), ident)
    assert e.line is not None and e.line >= 2
    assert f"{kind} {ident!r} is already defined in formulas/" in str(e)
    assert "add 'override: true'" in str(e)
    run = cli("list", "--formulas", str(path), env={"DERIVE_CACHE_DIR": str(tmp_path / "cache")})
    assert run.code == 2
    assert run.err.strip() == f"derive: error: {e}"


@pytest.mark.parametrize("kind, ident, text", CLASHES[:4], ids=[c[0] for c in CLASHES[:4]])
def test_override_true_replaces_the_builtin_entry(tmp_path, kind, ident, text):
    text = text.rstrip("\n") + "\n    override: true\n"
    if kind == "preset":   # 'values' is the last field of the preset: put override before it
        text = text.replace("    values:\n      hbm_bw: 1 TB/s\n    override: true\n",
                            "    override: true\n    values:\n      hbm_bw: 1 TB/s\n")
    path = user_file(tmp_path, text)
    cat = load_catalog([path], use_cache=False)
    table = {"quantity": cat.quantities, "relation": cat.relations, "condition": cat.conditions,
             "preset": cat.presets}[kind]
    entry = table[ident]
    if kind == "quantity":
        assert entry.name.en == "widget bytes" and entry.file == str(path)
    elif kind == "relation":
        assert entry.name.en == "a relation"
    elif kind == "condition":
        assert entry.name.en == "a condition"
    else:
        assert entry.name.en == "my A100"
        # the replaced preset is what solve uses
        sol = solve("critical_ai", {"peak_flops": "312 TFLOP/s"}, hw="a100", catalog=cat)
        assert sol.value == 312


def test_override_of_a_relation_changes_the_answer(tmp_path):
    """An FP8 KV cache written as an override of the built-in relation: one byte per element."""
    path = user_file(tmp_path, RELATION.format(
        id="kv_bytes_per_token",
        equation="kv_bytes_per_token = 2 * num_layers * num_kv_heads * head_dim * [B]")
        + "    override: true\n")
    cat = load_catalog([path], use_cache=False)
    assert solve("kv_bytes_per_token", model="llama2-70b", catalog=cat).value == 163840
    assert solve("kv_bytes_per_token", model="llama2-70b").value == 327680   # the built-in is untouched


def test_override_is_only_for_user_files_and_only_when_true(tmp_path):
    path = user_file(tmp_path, QUANTITY.replace("widget_bytes", "hbm_bw").replace("unit: B", "unit: B/s")
                     + "    override: 'no'\n")
    with pytest.raises(CatalogError, match="already defined"):
        load_catalog([path], use_cache=False)


def test_two_user_files_clashing_with_each_other(tmp_path):
    a = user_file(tmp_path, QUANTITY, "a.yaml")
    b = user_file(tmp_path, QUANTITY, "b.yaml")
    with pytest.raises(CatalogError) as err:
        load_catalog([a, b], use_cache=False)
    assert err.value.file == str(b)
    assert f"already defined in {a}" in str(err.value)


# ---------------------------------------------------------------------------
# the same checks as the built-in catalog


def test_unbalanced_user_relation_names_file_entry_and_both_units(tmp_path):
    path = user_file(tmp_path, QUANTITY + RELATION.format(id="widget_rate", equation="widget_bytes = hbm_bw * 2"))
    with pytest.raises(UnitBalanceError) as err:
        load_catalog([path], use_cache=False)
    e = err.value
    assert (e.file, e.entry, e.left_unit, e.right_unit) == (str(path), "widget_rate", "B", "B/s")
    line = path.read_text(encoding="utf-8").splitlines().index("    equation: widget_bytes = hbm_bw * 2") + 1
    assert e.line == line
    assert str(e) == (f"{path}:{line}: widget_rate: units do not balance: left side is B, right side is B/s; "
                      "fix the equation or the quantities' units")


@pytest.mark.parametrize("where, text", [
    ("condition", """
conditions:
  - id: widget_fits
    require: widget_bytes <= hbm_bw
    name: {en: c, zh: c}
    meaning: {en: c, zh: c}
    source: derived
"""),
    ("regime", """
relations:
  - id: widget_max
    equation: widget_bytes = max(weight_bytes, kv_cache_bytes)
    name: {en: r, zh: r}
    meaning: {en: r, zh: r}
    source: derived
    regimes:
      - id: weights
        when: weight_bytes >= hbm_bw
        equation: widget_bytes = weight_bytes
        name: {en: w, zh: w}
      - id: kv
        when: kv_cache_bytes >= weight_bytes
        equation: widget_bytes = kv_cache_bytes
        name: {en: k, zh: k}
"""),
])
def test_unbalanced_conditions_and_regime_tests_are_refused_too(tmp_path, where, text):
    path = user_file(tmp_path, QUANTITY + text)
    with pytest.raises(UnitBalanceError) as err:
        load_catalog([path], use_cache=False)
    assert err.value.file == str(path) and "B/s" in (err.value.left_unit + err.value.right_unit)


@pytest.mark.parametrize("field, value, expect", [
    ("unit", "parsecs", "unknown unit"),
    ("unit", "KB", "ambiguous unit"),
    ("default", "3 TB/s", "widget_bytes is in B, but 'TB/s' is B/s"),
    ("default", "-3 B", "must be positive"),
    ("source", "nowhere", "unknown reference 'nowhere'"),
    # the English alone is enough in a user's file (tests/test_model_config.py); the Chinese alone is not
    ("name", "{en: '', zh: only Chinese}", "field 'name' is missing its en text"),
    ("name", "{en: a, zh: b, fr: c}", "must have exactly the keys en and zh"),
    ("typ", "real", "unknown field 'typ' (did you mean 'type'?)"),
])
def test_malformed_user_quantities_are_refused_with_file_and_line(tmp_path, field, value, expect):
    text = QUANTITY
    if field in ("unit", "source"):
        text = re.sub(rf"{field}: \S+", f"{field}: {value}", text)
    elif field == "name":
        text = re.sub(r"name: \{.*\}", f"name: {value}", text)
    else:
        text = text + f"    {field}: {value}\n"
    path = user_file(tmp_path, text)
    with pytest.raises(CatalogError) as err:
        load_catalog([path], use_cache=False)
    assert expect in str(err.value)
    assert err.value.file == str(path) and err.value.line is not None


def test_a_default_can_follow_arithmetic_over_other_quantities(tmp_path):
    path = user_file(tmp_path, QUANTITY + """    default: {same_as: 2 * weight_bytes / num_devices}
  - id: widget_time
    unit: s
    symbol: 't_w'
    name: {en: widget time, zh: 部件时间}
    meaning: {en: Time to read a widget., zh: 读取部件的时间。}
    source: derived
    equation: widget_bytes / hbm_bw
""")
    catalog = load_catalog([path], use_cache=False)
    sol = solve("widget_time", {"weight_bytes": "6 GB", "num_devices": "4", "hbm_bw": "1 TB/s"}, catalog=catalog)
    assert sol.value == sympy.Rational(3, 1000)
    assert {g.name: (g.origin, g.value) for g in sol.given}["widget_bytes"] == ("default", 3 * 10**9)
    # the write-ups say what it follows in the catalog's symbols, never its ids
    widget = next(g for g in sol.given if g.name == "widget_bytes")
    assert widget.follows == 2 * catalog.symbol("weight_bytes") / catalog.symbol("num_devices")
    markdown = render_solution(sol, "md")
    assert next(ln for ln in markdown.splitlines() if ln.startswith("†1")) == r"†1 = $\frac{2 \cdot M_{w}}{N}$"
    assert "derived; = (2 · M_w)/N" in render_solution(sol, "text")


@pytest.mark.parametrize("same_as, expect", [
    ("weight_bytes * hbm_bw", "same_as: weight_bytes * hbm_bw is in B^2/s, but widget_bytes is in B"),
    ("weight_bytes + hbm_bw", "same_as: terms of"),
    ("2 * widget_bytes", "same_as: widget_bytes cannot follow itself"),
    ("2 * weight_byts", "unknown quantity 'weight_byts' (did you mean weight_bytes"),
    ("2 * (weight_bytes", "same_as"),
])
def test_a_default_following_arithmetic_is_checked_when_the_file_loads(tmp_path, same_as, expect):
    path = user_file(tmp_path, QUANTITY + f"    default: {{same_as: '{same_as}'}}\n")
    with pytest.raises(CatalogError) as err:
        load_catalog([path], use_cache=False)
    assert expect in str(err.value)
    assert err.value.file == str(path) and err.value.line is not None


# ---------------------------------------------------------------------------
# hostile expressions in user files: refused, and nothing runs

HOSTILE = [
    "__import__('os').system('touch {marker}')",
    "widget_bytes.__class__.__mro__",
    "(lambda: open('{marker}', 'w'))()",
    "[open('{marker}', 'w') for x in (1,)]",
    "{{x: 1 for x in (1,)}}",
    "widget_bytes[0]",
    "getattr(widget_bytes, 'x')",
    "exec('open(\"{marker}\", \"w\")')",
    "'a' * 10",
    "f'{{widget_bytes}}'",
    "(x := 1)",
    "9**9**9 * [B]",
    "widget_bytes if 1 else 2",
    "widget_bytes + " * 500 + "widget_bytes",
    "(" * 500 + "widget_bytes" + ")" * 500,
    "-" * 1500 + "widget_bytes",
    "widget_bytes; import os",
    "widget_bytes == widget_bytes",
    "open('{marker}', 'w')",
]


@pytest.fixture(scope="session")
def small_formulas(tmp_path_factory) -> Path:
    """A catalog folder with only the units and the references: loads in milliseconds."""
    folder = tmp_path_factory.mktemp("formulas")
    for name in ("units.txt", "references.yaml"):
        shutil.copy(ROOT / "formulas" / name, folder / name)
    return folder


@pytest.mark.parametrize("hostile", HOSTILE, ids=range(len(HOSTILE)))
@pytest.mark.parametrize("place", ["equation", "condition", "default", "preset"])
def test_hostile_expressions_in_user_files_are_refused_and_run_nothing(tmp_path, cli, small_formulas, hostile,
                                                                        place):
    marker = tmp_path / "pwned"
    expr = hostile.format(marker=marker)
    quoted = "'" + expr.replace("'", "''") + "'"      # a YAML single-quoted scalar
    if place == "equation":
        text = QUANTITY + RELATION.format(id="widget_evil", equation="'widget_bytes = " + quoted[1:])
    elif place == "condition":
        text = QUANTITY + ("conditions:\n  - id: widget_evil\n    require: 'widget_bytes <= " + quoted[1:]
                           + "\n    name: {en: c, zh: c}\n    meaning: {en: c, zh: c}\n    source: derived\n")
    elif place == "default":
        text = QUANTITY + f"    default: {quoted}\n"
    else:
        text = QUANTITY + ("presets:\n  - id: evil\n    kind: hw\n    name: {en: e, zh: e}\n"
                           f"    source: derived\n    values:\n      widget_bytes: {quoted}\n")
    path = user_file(tmp_path, text)
    # the file is valid without the hostile part
    load_catalog([user_file(tmp_path, QUANTITY, "good.yaml")], formulas_dir=small_formulas, use_cache=False)
    with pytest.raises(CatalogError) as err:
        load_catalog([path], formulas_dir=small_formulas, use_cache=False)
    assert err.value.file == str(path) and err.value.line is not None
    assert not marker.exists()
    run = cli("list", "--formulas", str(path), env={"DERIVE_CACHE_DIR": str(tmp_path / "cache")}) \
        if hostile == HOSTILE[0] else None
    if run is not None:
        assert run.code == 2 and run.err.startswith(f"derive: error: {path}:")
        assert not marker.exists()


@pytest.mark.parametrize("tagged", [
    "!!python/object/apply:os.system ['touch {marker}']",
    "!!python/name:os.system",
    "!!binary aGVsbG8=",
    "!custom {{a: 1}}",
])
def test_yaml_tags_construct_nothing(tmp_path, tagged):
    """The YAML reader composes nodes and reads every scalar as text: a tag builds no object."""
    marker = tmp_path / "pwned"
    path = user_file(tmp_path, QUANTITY + f"    note: {tagged.format(marker=marker)}\n")
    try:
        cat = load_catalog([path], use_cache=False)
    except CatalogError as exc:
        assert exc.file == str(path)
    else:
        assert "widget_bytes" in cat.quantities
    assert not marker.exists()


@pytest.mark.parametrize("content, expect", [
    (b"\xff\xfe not utf-8", "not UTF-8"),
    (b"quantities: [\n", "YAML syntax error"),
    (b"- just\n- a list\n", "a catalog file must be a mapping"),
    (b"quantities:\n  - id: a\n  - id: a\n", "missing field"),
    (b"quantities: {}\nquantities: []\n", "appears twice"),
    (b"formulas: []\n", "unknown section 'formulas'"),
])
def test_malformed_user_files_name_the_file(tmp_path, content, expect):
    path = tmp_path / "bad.yaml"
    path.write_bytes(content)
    with pytest.raises(CatalogError) as err:
        load_catalog([path], use_cache=False)
    assert expect in str(err.value)
    assert err.value.file == str(path)


NOTED = """
quantities:
  - id: my_link_bw
    unit: B/s
    symbol: 'W_{\\mathrm{my}}'
    name: {en: my link bandwidth, zh: 我的链路带宽}
    meaning: {en: one way, zh: 单向}
    source: derived
    default: {value: 50 GB/s, note: {en: "one direction; the datasheet adds both", zh: "单向；数据手册是两个方向之和"}}
  - id: my_send_time
    unit: s
    symbol: 'T_{\\mathrm{my}}'
    name: {en: my send time, zh: 我的发送时间}
    meaning: {en: bytes over the link, zh: 字节除以链路带宽}
    source: derived
    equation: collective_bytes / my_link_bw
"""


def test_a_value_note_in_both_languages_is_shown_in_each(tmp_path, cli):
    """A preset value's or default's note may be {en, zh}: a Chinese write-up shows the Chinese, an English
    one the English, `both` the two; a plain string is still shown as is in both."""
    path = user_file(tmp_path, NOTED)
    catalog = load_catalog([path], use_cache=False)
    assert catalog.quantities["my_link_bw"].default.note_zh == "单向；数据手册是两个方向之和"
    env = {"DERIVE_CACHE_DIR": str(tmp_path / "cache")}
    ask = ["solve", "my_send_time", "collective_bytes=1GB", "--formulas", str(path)]
    zh = cli(*ask, "--lang", "zh", "--format", "md", env=env).out
    en = cli(*ask, "--lang", "en", "--format", "md", env=env).out
    text = cli(*ask, "--lang", "zh", env=env).out
    assert "单向；数据手册是两个方向之和" in zh and "one direction; the datasheet adds both" not in zh
    assert "one direction; the datasheet adds both" in en and "单向" not in en
    assert "单向；数据手册是两个方向之和" in text
    bad = NOTED.replace('zh: "单向；数据手册是两个方向之和"', 'fr: "sens unique"')
    with pytest.raises(CatalogError, match="a note is a string or"):
        load_catalog([user_file(tmp_path, bad, "bad.yaml")], use_cache=False)


def test_a_reference_title_written_here_is_shown_in_each_language(catalog):
    """The catalog's own 'convention' reference is a title written here, not a document's: Chinese
    write-ups cite it in Chinese; a published title stays as published."""
    from derive import solve
    from derive.writeup.render import render_solution

    ref = catalog.references["convention"]
    assert ref.title_zh.startswith("在使用处说明的约定")
    sol = solve("num_devices", {"params": 70e9, "hbm_capacity": "80GB"}, bound="min", require=["training_state_fits"])
    zh = render_solution(sol, "md", lang="zh")
    en = render_solution(sol, "md", lang="en")
    assert ref.title_zh in zh and ref.title not in zh
    assert ref.title in en and ref.title_zh not in en


@pytest.mark.parametrize("entry", [
    # an id that is already another quantity's alias (tpot is decode_step_time)
    "  - id: tpot\n    unit: s\n    symbol: t\n    name: {en: t, zh: t}\n    meaning: {en: t, zh: t}\n    source: convention\n",
    # an alias that is already another quantity's alias
    "  - id: my_step\n    unit: s\n    symbol: t\n    aliases: [tpot]\n    name: {en: t, zh: t}\n    meaning: {en: t, zh: t}\n"
    "    source: convention\n",
])
def test_a_name_that_already_means_another_quantity_is_refused(tmp_path, entry):
    path = tmp_path / "mine.yaml"
    path.write_text("topic: mine\ntitle: {en: mine, zh: mine}\nquantities:\n" + entry, encoding="utf-8")
    with pytest.raises(CatalogError, match="decode_step_time"):
        load_catalog(extra=[path])
