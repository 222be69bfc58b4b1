"""The catalog loads strictly: a wrong entry refuses to load and says where and why."""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from pathlib import Path

import pytest

from derive import CatalogError, UnitBalanceError, load_catalog

ROOT = Path(__file__).resolve().parent.parent


def catalog_with(tmp_path: Path, text: str):
    """The built-in catalog plus one user file holding ``text``."""
    path = tmp_path / "extra.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_catalog([path], use_cache=False)


QUANTITY = """
quantities:
  - id: widget_bytes
    unit: B
    symbol: 'w'
    name: {en: widget bytes, zh: 部件字节数}
    meaning: {en: Bytes of a widget., zh: 部件的字节数。}
    source: convention
"""


def test_builtin_catalog_loads_with_every_text_in_both_languages(catalog):
    assert len(catalog.quantities) > 50 and len(catalog.relations) > 25
    for entry in list(catalog.quantities.values()) + list(catalog.relations.values()) + list(catalog.conditions.values()):
        assert entry.name.en and entry.name.zh, entry.id
        assert entry.meaning.en and entry.meaning.zh, entry.id
        assert entry.source.ref in catalog.references, entry.id
    for preset in catalog.presets.values():
        assert preset.name.en and preset.name.zh
        for v in preset.values.values():
            assert v.source.ref in catalog.references


def test_unbalanced_relation_refuses_to_load_naming_file_entry_and_units(tmp_path):
    with pytest.raises(UnitBalanceError) as err:
        catalog_with(tmp_path, QUANTITY + """
relations:
  - id: widget_bad
    equation: widget_bytes = peak_flops * 2
    name: {en: bad, zh: 错}
    meaning: {en: Bytes equal FLOP/s., zh: 字节等于算力。}
    source: convention
""")
    msg = str(err.value)
    assert "extra.yaml:" in msg and "widget_bad" in msg
    assert "left side is B" in msg and "right side is FLOP/s" in msg
    assert err.value.left_unit == "B" and err.value.right_unit == "FLOP/s"


def test_adding_bytes_to_flops_is_refused(tmp_path):
    with pytest.raises(UnitBalanceError, match="different units: B vs FLOP|FLOP vs B"):
        catalog_with(tmp_path, QUANTITY + """
relations:
  - id: widget_sum
    equation: widget_bytes = bytes_moved + flops
    name: {en: bad, zh: 错}
    meaning: {en: Adds bytes to FLOPs., zh: 字节加运算。}
    source: convention
""")


@pytest.mark.parametrize("body, expect", [
    ("quantities:\n  - id: x_bytes\n    unti: B\n", "unknown field 'unti' (did you mean 'unit'?)"),
    (QUANTITY.replace("zh: 部件字节数", "zh: ''"), "missing its zh text"),
    (QUANTITY.replace("source: convention", "source: nowhere"), "unknown reference 'nowhere'"),
    (QUANTITY.replace("unit: B", "unit: parsecs"), "unknown unit"),
    (QUANTITY + "relations:\n  - id: r\n    equation: widget_bytes = __import__('os')\n    name: {en: a, zh: b}\n"
     "    meaning: {en: a, zh: b}\n    source: convention\n", "only these functions are allowed"),
    (QUANTITY + "relations:\n  - id: r\n    equation: widget_bytes = widget_byts\n    name: {en: a, zh: b}\n"
     "    meaning: {en: a, zh: b}\n    source: convention\n", "unknown quantity 'widget_byts' (did you mean widget_bytes"),
    ("quantities: [\n", "YAML syntax error"),
    (QUANTITY.replace("id: widget_bytes", "id: hbm_bw"), "already defined"),
])
def test_malformed_entries_name_file_and_line(tmp_path, body, expect):
    with pytest.raises(CatalogError) as err:
        catalog_with(tmp_path, body)
    assert expect in str(err.value)
    assert str(err.value).startswith(str(tmp_path / "extra.yaml"))
    assert err.value.line is not None


def test_a_user_entry_may_override_a_builtin_when_it_says_so(tmp_path):
    cat = catalog_with(tmp_path, QUANTITY.replace("id: widget_bytes", "id: hbm_bw").replace("unit: B", "unit: B/s")
                       + "    override: true\n")
    assert cat.quantities["hbm_bw"].file.endswith("extra.yaml")


def test_families_expand_into_one_entry_per_member(catalog):
    for level in ("hbm", "vmem", "l2", "smem"):
        assert f"critical_ai_{level}" in catalog.relations
        assert catalog.quantities[f"{level}_bw"].base_unit == "B/s"
    assert catalog.quantities["critical_ai_vmem"].name.zh == "VMEM的临界算术强度"
    # a link's bandwidth names its scope and counts one direction; the family's field names the id
    for link, bw in (("pcie", "pcie_link_bw"), ("nvlink", "nvlink_gpu_bw"), ("network", "network_chip_bw"),
                     ("ici", "ici_link_bw")):
        assert catalog.relations[f"critical_ai_{link}"].rhs.free_symbols == {
            catalog.quantities["peak_flops"].symbol, catalog.quantities[bw].symbol}
        assert "one direction" in catalog.quantities[bw].name.en
        assert catalog.relations[bw.replace("_bw", "_bidi_bw")].equation_text == f"{bw.replace('_bw', '_bidi_bw')} = 2 * {bw}"


def test_a_retired_name_says_what_to_type_instead(catalog):
    from derive import UnknownNameError, solve

    with pytest.raises(UnknownNameError) as err:
        solve("critical_ai_pcie", {"pcie_bw": "50 GB/s"}, hw="h100")
    assert "pcie_link_bw (one direction" in str(err.value) and "pcie_link_bidi_bw" in str(err.value)
    # a name whose meaning did not change still works: ici_bw is the one-way bandwidth per ICI link
    assert solve("critical_ai_ici", {"ici_bw": "45 GB/s"}, hw="tpu-v5e").value * 45 * 10**9 == 197 * 10**12


def test_unit_literals_are_checked_then_become_numbers(catalog):
    rel = catalog.relations["matmul_flops"]
    assert "[FLOP]" in rel.equation_text
    assert not any(s.name.startswith("[") for s in rel.rhs.free_symbols)


def test_compiled_catalog_cache_is_reused_and_invalidated(tmp_path, monkeypatch):
    formulas = tmp_path / "formulas"
    shutil.copytree(ROOT / "formulas", formulas)
    monkeypatch.setenv("DERIVE_CACHE_DIR", str(tmp_path / "cache"))
    first = load_catalog(formulas_dir=formulas)
    assert list((tmp_path / "cache").glob("catalog-*.json"))
    # an edit changes the key: the next load sees it
    hierarchy = formulas / "hierarchy.yaml"
    hierarchy.write_text(hierarchy.read_text(encoding="utf-8").replace("peak compute throughput", "peak throughput"),
                         encoding="utf-8")
    second = load_catalog(formulas_dir=formulas)
    assert second.quantities["peak_flops"].name.en == "peak throughput"
    assert first.quantities["peak_flops"].name.en == "peak compute throughput"


def test_the_index_a_cached_catalog_carries_is_what_its_relations_say(tmp_path, monkeypatch):
    """The planner walks a catalog by its index (which relations relate which quantities, which
    quantities are defined) and decodes only the relations it considers: read back from the cache,
    before any relation is decoded, the index must be each relation's own symbols and left side."""
    from derive.catalog import loader as _loader

    monkeypatch.setenv("DERIVE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(_loader, "_loaded", {})
    built = load_catalog()          # built from the sources, and written to the cache
    monkeypatch.setattr(_loader, "_loaded", {})
    cached = load_catalog()         # read back as a fresh process reads it
    assert type(cached.relations).__name__ == "LazyTable"
    by_index = {rid: cached.symbols_of(rid) for rid in cached.relations}
    defined = set(cached.defined)
    assert by_index == {rid: frozenset(rel.symbols) for rid, rel in built.relations.items()}
    assert defined == {rel.defines for rel in built.relations.values() if rel.defines}
    assert len(by_index) > 400 and "kv_cache_bytes" in defined and "batch" not in defined


def test_renaming_catalog_files_changes_no_answer_step_or_citation(tmp_path):
    """Which relation (and so which citation) a derivation uses never follows file names: every
    question of every problem file and claims file is answered the same from a copy of formulas/
    whose files are renamed so that they load in the opposite order."""
    import shutil

    from derive import load_catalog, solve
    from derive.documents.claims import load_claims
    from derive.documents.problems import load_problem

    source = ROOT / "formulas"
    renamed = tmp_path / "formulas"
    renamed.mkdir()
    files = sorted(source.glob("*.yaml"))
    for i, path in enumerate(reversed(files)):
        shutil.copy(path, renamed / f"{i:02d}-{path.name}")
    shutil.copy(source / "units.txt", renamed / "units.txt")
    original, shuffled = load_catalog(), load_catalog(formulas_dir=renamed)
    assert [f.split("/")[-1] for f in shuffled.files] != [f.split("/")[-1] for f in original.files]

    questions = [pq.question for path in sorted((ROOT / "reports").glob("*.yaml"))
                 for pq in load_problem(path, original).questions]
    questions += [c.question for path in sorted((ROOT / "reports" / "claims").glob("*.yaml"))
                  for c in load_claims(path, original).claims if c.question is not None and c.order_in is None]
    assert len(questions) > 100

    def trace(sol):
        return (sol.value, sol.formula, sol.regime, sol.relations_used,
                tuple((st.kind, st.relations, st.solved_for) for st in sol.steps),
                tuple(str(original.relations[r].source) for r in sol.relations_used))

    for q in questions:
        assert trace(solve(q, catalog=original)) == trace(solve(q, catalog=shuffled)), q


TIE_QUANTITIES = """
quantities:
  - {id: tie_p, unit: '1', symbol: 'p', name: {en: p, zh: p}, meaning: {en: p, zh: p}, source: derived}
  - {id: tie_x, unit: '1', symbol: 'x', name: {en: x, zh: x}, meaning: {en: x, zh: x}, source: derived}
  - {id: tie_y, unit: '1', symbol: 'y', name: {en: y, zh: y}, meaning: {en: y, zh: y}, source: derived}
"""
TIE_RELATION = """
relations:
  - {{id: {id}, equation: '{eq}', name: {{en: r, zh: r}}, meaning: {{en: r, zh: r}}, source: derived}}
"""


@pytest.mark.parametrize("order", [("a", "b"), ("b", "a")])
def test_a_tie_between_relations_is_decided_by_the_rule_not_the_file_order(tmp_path, order):
    """tie_p can be found from either relation (both solved for it, both as direct): the one
    whose id sorts first determines it and is cited; the other is checked as redundant."""
    from derive import load_catalog, solve

    folder = tmp_path / "user"
    folder.mkdir()
    (folder / "0-quantities.yaml").write_text(TIE_QUANTITIES, encoding="utf-8")
    bodies = {"a": TIE_RELATION.format(id="zeta_from_x", eq="tie_x = 2 * tie_p"),
              "b": TIE_RELATION.format(id="alpha_from_y", eq="tie_y = 3 * tie_p")}
    for i, key in enumerate(order, start=1):
        (folder / f"{i}-relation.yaml").write_text(bodies[key], encoding="utf-8")
    sol = solve("tie_p", {"tie_x": 2, "tie_y": 3}, catalog=load_catalog([folder]))
    assert sol.value == 1
    assert [st.relations for st in sol.steps] == [("alpha_from_y",)]


def test_show_answers_for_every_id_of_the_catalog(catalog, capsys):
    """`derive show ID` for every quantity, relation, condition, preset, reference and alias, in both
    languages and as JSON: an id that names several kinds (mistral-7b, deepseek-v3 are a model preset
    and the paper it cites) shows each, the preset with its values and the reference with its address."""
    from derive.cli._main import main

    ids = (list(catalog.quantities) + list(catalog.relations) + list(catalog.conditions)
           + list(catalog.presets) + list(catalog.references) + list(catalog.aliases))
    assert len(ids) > 1000
    for name in dict.fromkeys(ids):
        for extra in (["--lang", "both"], ["--format", "json"]):
            code = main(["show", name, *extra])
            out, err = capsys.readouterr()
            assert code == 0 and not err, (name, extra, err)
            assert name in out or catalog.aliases.get(name, "") in out
    for name in ("mistral-7b", "deepseek-v3"):
        assert main(["show", name]) == 0
        out = capsys.readouterr().out
        kinds = [line.split(" (")[1].split(")")[0] for line in out.splitlines() if line.startswith(f"{name} (")]
        assert kinds == ["model", "reference"]
        assert "num_layers = " in out and "https://arxiv.org/abs/" in out
    assert main(["show", "llama2", "--format", "json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["kind"] == "reference" and row["url"] == catalog.references["llama2"].url


def test_no_symbol_reads_as_a_product_of_two(catalog):
    """The ICI bandwidth of a collective was written W_ICI\\,n_axes: beside the relation W = W↔ · n_axes a
    reader took it for a product. A thin space at a symbol's top level (outside braces) sets two symbols side
    by side. (Symbols written as their formula, N C_HBM for the slice's HBM, are the catalog's choice.)"""
    for q in catalog.quantities.values():
        top, depth = [], 0
        for ch in q.latex:
            depth += {"{": 1, "}": -1}.get(ch, 0)
            top.append(ch if depth == 0 and ch not in "{}" else "")
        assert not re.search(r"\\[,;:! ]", "".join(top)), (q.id, q.latex)


def test_the_default_catalog_is_loaded_once_and_checked_by_stat(monkeypatch):
    """Issue 31: solve() without catalog= re-read and hashed every catalog file on every call."""
    import derive.catalog.loader as loader

    first = load_catalog()

    def no_reading(*args, **kwargs):
        raise AssertionError("a catalog file was read again")

    monkeypatch.setattr(loader, "read_user_file", no_reading)
    assert load_catalog() is first


def test_an_edited_catalog_file_is_seen_by_the_next_call(tmp_path):
    import shutil

    from derive.storage.resources import builtin_dir

    folder = tmp_path / "formulas"
    shutil.copytree(builtin_dir("formulas"), folder)
    before = load_catalog(formulas_dir=folder)
    assert load_catalog(formulas_dir=folder) is before
    roofline = folder / "roofline.yaml"
    roofline.write_text(roofline.read_text(encoding="utf-8").replace("name: {en: operation FLOPs,",
                                                                     "name: {en: operation FLOP count,"),
                        encoding="utf-8")
    after = load_catalog(formulas_dir=folder)
    assert after is not before and after.quantities["flops"].name.en == "operation FLOP count"
