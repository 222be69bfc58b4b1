"""Every relation's published example is solved by the engine and gives the published number.

A relation (or a quantity with ``equation:``) may carry ``example:``: the inputs of a number its
source publishes, and that number as written. Each is solved here and compared to the digits
written, by the same rule ``derive check`` applies to a chapter's numbers.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from derive import load_catalog, solve
from derive.documents.claims import agrees, stated_digits

ROOT = Path(__file__).resolve().parent.parent
CATALOG = load_catalog()
EXAMPLES = [(rel.id, i, ex) for rel in CATALOG.relations.values() for i, ex in enumerate(rel.examples)]


def _stated(catalog, text: str, quantity):
    from derive.catalog.values import split_value
    from derive.documents.claims import Stated

    number, unit = split_value(text)
    value, ulp, digits = stated_digits(number)
    factor = catalog.units.parse(unit)[0] if unit else Fraction(int(quantity.factor.p), int(quantity.factor.q))
    return Stated(text, number, unit, value, ulp, digits, factor)


def test_there_are_examples():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("rid, index, example", EXAMPLES, ids=[f"{r}-{i}" for r, i, _ in EXAMPLES])
def test_each_example_gives_its_published_number(rid, index, example):
    sol = solve(example.question, catalog=CATALOG)
    assert rid in sol.relations_used, f"{rid}'s example is answered without {rid}: {sol.relations_used}"
    stated = _stated(CATALOG, example.expect, CATALOG.quantities[sol.target])
    value = sol.value
    computed = (Fraction(int(value.p), int(value.q)) if value.is_Rational
                else Fraction(str(value.evalf(40)))) / stated.factor
    assert agrees(computed, stated, tolerance=example.tolerance), (
        f"{rid}: {example.expect} published ({example.source}), the engine gives {sol.display()}")


def test_the_catalog_readme_shows_the_schema_fields():
    """formulas/README.md's tables of fields are the loader's own (derive/catalog/schema.py)."""
    from derive.catalog.schema import fields_markdown

    text = (ROOT / "formulas" / "README.md").read_text(encoding="utf-8")
    start = text.index("<!-- fields: generated from derive/catalog/schema.py -->\n") + len(
        "<!-- fields: generated from derive/catalog/schema.py -->\n")
    end = text.index("<!-- end of fields -->")
    assert text[start:end] == fields_markdown(), "regenerate with: python -m derive.catalog.schema"


QUANTITIES = """
quantities:
  - id: ex_a
    unit: B
    symbol: 'a'
    name: {en: a, zh: a}
    meaning: {en: a, zh: a}
    source: derived
  - id: ex_b
    unit: B
    symbol: 'b'
    name: {en: b, zh: b}
    meaning: {en: the sum, zh: 和}
    source: derived
    equation: 2 * ex_a
    why: {en: twice a, zh: a 的两倍}
    example:
      given: {ex_a: 3 B}
      expect: 6 B
"""


def test_a_quantity_with_an_equation_is_one_entry_for_both(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text(QUANTITIES, encoding="utf-8")
    catalog = load_catalog([path])
    rel = catalog.relations["ex_b"]
    assert rel.equation_text == "ex_b = 2 * ex_a" and rel.defines == "ex_b"
    assert rel.name == catalog.quantities["ex_b"].name and rel.meaning.en == "twice a"
    assert str(rel.source) == "derived" and rel.line == catalog.quantities["ex_b"].line
    assert rel.examples[0].expect == "6 B"
    assert solve("ex_a", {"ex_b": "10 B"}, catalog=catalog).value == 5


@pytest.mark.parametrize("change, words", [
    (("    equation: 2 * ex_a\n", ""), "'why' belongs with 'equation:'"),
    (("equation: 2 * ex_a", "equation: ex_b = 2 * ex_a"), "right side only"),
    (("expect: 6 B", "expect: 6 s"), "ex_b.example"),
    (("given: {ex_a: 3 B}", "given: {ex_q: 3 B}"), "unknown quantity 'ex_q'"),
])
def test_a_malformed_equation_or_example_names_file_and_line(tmp_path, change, words):
    from derive import CatalogError

    path = tmp_path / "mine.yaml"
    path.write_text(QUANTITIES.replace(*change), encoding="utf-8")
    with pytest.raises(CatalogError) as err:
        load_catalog([path])
    assert err.value.file == str(path) and err.value.line
    assert words in str(err.value)
