"""``derive check``: the comparison rule, each verdict on real catalog answers, JSON, and bad files."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest

from derive.documents.claims import Stated, agrees, check_claims, load_claims, stated_digits

HEADER = "chapter: seed-bandwidth-wall\nclaims:\n"


def write(tmp_path, body: str, name: str = "claims.yaml"):
    path = tmp_path / name
    path.write_text(HEADER + body, encoding="utf-8")
    return path


def stated(number: str) -> Stated:
    value, ulp, digits = stated_digits(number)
    return Stated(number, number, "", value, ulp, digits, Fraction(1))


@pytest.mark.parametrize("number, value, ulp, digits", [
    ("156", Fraction(156), Fraction(1), 3),
    ("0.17", Fraction(17, 100), Fraction(1, 100), 2),
    ("14.0", Fraction(14), Fraction(1, 10), 3),
    ("900", Fraction(900), Fraction(1), 3),       # trailing zeros of a whole number are stated digits
    ("9e2", Fraction(900), Fraction(100), 1),     # ... unless written in scientific notation
    ("3.35", Fraction(335, 100), Fraction(1, 100), 3),
    ("1.97e14", Fraction(197 * 10**12), Fraction(10**12), 3),
    ("0.001", Fraction(1, 1000), Fraction(1, 1000), 1),
])
def test_stated_digits(number, value, ulp, digits):
    assert stated_digits(number) == (value, ulp, digits)


def test_rule_exact_and_approx():
    # exact: within half a unit of the last stated digit
    assert agrees(Fraction(4096, 3), stated("1365"))
    assert not agrees(Fraction(936), stated("900"))
    assert agrees(Fraction(1, 6), stated("0.17"))
    assert not agrees(Fraction(1, 6), stated("0.16"))
    # approximate: one digit coarser (0.1667 is not ~0.25; 0.25 is)
    assert not agrees(Fraction(1, 6), stated("0.25"), approx=True)
    assert agrees(Fraction(1, 4), stated("0.25"), approx=True)
    assert not agrees(Fraction(936), stated("900"), approx=True)  # ~900 means 895..905 at one digit coarser
    assert agrees(Fraction(904), stated("900"), approx=True)
    # a one-digit approximate claim keeps its digit: ~2 needs 1.5..2.5
    assert not agrees(Fraction(1), stated("2"), approx=True)
    assert agrees(Fraction(5, 2), stated("2"), approx=True)
    assert agrees(Fraction(39, 5), stated("8"))                   # 7.8 rounds to 8
    # a relative tolerance replaces the digit rule
    assert agrees(Fraction(936), stated("900"), tolerance=0.05)
    assert not agrees(Fraction(936), stated("900"), tolerance=0.03)


def test_rule_truncated():
    # a chapter that cuts at the last digit: 46.6 is "46" and 976.5625 "976", but 45.9 is not "46" there
    assert not agrees(Fraction(233, 5), stated("46"))                          # 46.6 rounds to 47
    assert agrees(Fraction(233, 5), stated("46"), truncated=True)
    assert agrees(Fraction(4 * 10**6, 4096), stated("976"), truncated=True)
    assert agrees(Fraction(46), stated("46"), truncated=True)
    assert not agrees(Fraction(47), stated("46"), truncated=True)
    assert not agrees(Fraction(459, 10), stated("46"), truncated=True)       # 45.9 rounds to 46, cuts to 45
    # with approx one digit coarser: "about 190" cut from 199
    assert agrees(Fraction(199), stated("190"), approx=True, truncated=True)
    assert not agrees(Fraction(201), stated("190"), approx=True, truncated=True)


def test_each_verdict_from_real_answers(tmp_path):
    path = write(tmp_path, """
  - id: ridge
    quote: "312 TFLOPS ÷ 2.0 TB/s ≈ 156 FLOP/字节"
    stated: 156 FLOP/B
    approx: true
    solve: critical_ai
    hw: a100
  - id: ridge-datasheet
    quote: "≈ 153"
    stated: 153 FLOP/B
    solve: critical_ai
    hw: a100
    conventions:
      - name: {en: "HBM at the datasheet's 2,039 GB/s", zh: "HBM 取数据手册的 2,039 GB/s"}
        hw: a100-2039
  - id: cards
    quote: "至少 13 张"
    stated: 13
    solve: num_devices
    bound: min
    require: [training_state_fits]
    given: {params: 70e9, hbm_capacity: 80 GB}
    conventions:
      - name: {en: "GB read as GiB", zh: "GB 按 GiB 理解"}
        given: {hbm_capacity: 80 GiB}
  - id: h100-hbm
    quote: "3.35 TB/s"
    stated: 3.35 TB/s
    constant: {preset: h100, quantity: hbm_bw}
  - id: a100-hbm-wrong
    quote: "2.5 TB/s"
    stated: 2.5 TB/s
    constant: {preset: a100, quantity: hbm_bw}
""")
    results = {r.claim.id: r for r in check_claims(path)}
    assert results["ridge"].verdict == "reproduced" and results["ridge"].computed == 156
    conv = results["ridge-datasheet"]
    assert conv.verdict == "convention"
    assert conv.main_computed == 156
    assert conv.computed == Fraction(312 * 10**12, 2039 * 10**9)   # 153.0...
    assert conv.convention.en.startswith("HBM at the datasheet")
    err = results["cards"]
    assert err.verdict == "erratum"
    assert err.computed == 14                      # 70e9 * 16 B / 80 GB = 14 cards; 80 GiB gives 14 as well
    assert err.error == -1 and err.tried[0].en == "GB read as GiB"
    assert results["h100-hbm"].verdict == "constant" and results["h100-hbm"].agrees
    assert results["h100-hbm"].preset == "h100"
    wrong = results["a100-hbm-wrong"]
    assert wrong.verdict == "constant" and not wrong.agrees and wrong.computed == 2


def test_cli_text_json_and_languages(tmp_path, cli):
    path = write(tmp_path, """
  - id: add
    quote: "1 / 6 ≈ 0.17 FLOP/字节"
    stated: 0.17 FLOP/B
    approx: true
    solve: elementwise_intensity
    given: {flops_per_element: 1 FLOP, tensors_accessed: 3, bytes_per_element: 2 B}
  - id: table
    quote: "逐元素操作 ~0.25"
    stated: 0.25 FLOP/B
    approx: true
    solve: elementwise_intensity
    given: {flops_per_element: 1 FLOP, tensors_accessed: 3, bytes_per_element: 2 B}
""")
    out = cli("check", str(path))
    assert out.code == 0, out.err
    assert out.out.strip().splitlines()[-1] == "2 claims: 1 reproduced, 0 convention, 1 erratum, 0 constant"
    assert "the correct value is 0.1667 FLOP/B" in out.out
    zh = cli("check", str(path), "--lang", "zh")
    assert zh.code == 0 and zh.out.strip().splitlines()[-1] == "共 2 条：复现 1，约定 0，勘误 1，常数 0"
    js = cli("check", str(path), "--format", "json")
    assert js.code == 0, js.err
    rows = js.json
    assert [r["verdict"] for r in rows] == ["reproduced", "erratum"]
    assert set(rows[1]) >= {"id", "quote", "stated", "computed", "unit", "verdict", "note"}
    assert rows[1]["stated"] == 0.25 and rows[1]["computed"] == pytest.approx(1 / 6)
    assert rows[1]["unit"] == "FLOP/B"
    assert rows[1]["relative_error"] == pytest.approx(0.5)


@pytest.mark.parametrize("body, expect", [
    ("  - id: a\n    quote: q\n    stated: 156 GB\n    solve: critical_ai\n    hw: a100\n",
     "claims.yaml:5: a: stated unit 'GB' is B, but critical_ai_hbm is in FLOP/B"),
    ("  - id: a\n    quote: q\n    stated: 156\n    solv: critical_ai\n", "unknown field 'solv' (did you mean 'solve'?)"),
    ("  - id: a\n    quote: q\n    stated: 156\n    solve: critical_ai\n", "claims.yaml:3: a: cannot evaluate: cannot determine"),
    ("  - id: a\n    quote: q\n    stated: 1/6\n    solve: critical_ai\n    hw: a100\n", "plain decimal number"),
    ("  - id: a\n    quote: q\n    stated: 3 TB/s\n    constant: {preset: a100, quantity: vmem_capacity}\n",
     "preset a100 has no value for vmem_capacity"),
    ("  - id: a\n    quote: q\n    stated: 3\n    solve: critical_ai\n    hw: a1000\n", "unknown hardware preset 'a1000'"),
    ("  - id: a\n    stated: 3\n    solve: critical_ai\n    hw: a100\n", "missing 'quote:'"),
    ("  - id: a\n    quote: q\n    stated: 156\n    solve: critical_ai\n    hw: a100\n"
     "  - id: a\n    quote: q\n    stated: 156\n    solve: critical_ai\n    hw: a100\n", "claim id 'a' appears twice"),
    ("  - id: a\n    quote: q\n    stated: 156\n    solve: critical_ai\n    hw: a100\n    conventions:\n"
     "      - name: {en: only english}\n        hw: a100-2039\n", "convention name needs both en and zh"),
    ("  - [\n", "YAML syntax error"),
    ("  - id: a\n    quote: q\n    stated: 156\n    truncated: true\n    tolerance: 0.01\n    solve: critical_ai\n"
     "    hw: a100\n", "a truncated claim is read by its digits"),
])
def test_malformed_files_exit_2_with_file_and_line(tmp_path, cli, body, expect):
    path = write(tmp_path, body)
    out = cli("check", str(path))
    assert out.code == 2, (out.out, out.err)
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("derive: error: "), out.err
    assert expect in lines[0], lines[0]
    assert str(path) in lines[0]
    assert out.out == ""


def test_unknown_chapter_and_missing_file(tmp_path, cli):
    path = tmp_path / "c.yaml"
    path.write_text("chapter: seed-bandwidth-wal\nclaims: []\n", encoding="utf-8")
    out = cli("check", str(path))
    assert out.code == 2 and "did you mean 'seed-bandwidth-wall'" in out.err
    out = cli("check", str(tmp_path / "none.yaml"))
    assert out.code == 2 and "cannot read file" in out.err


def test_load_claims_reuses_question_parsing(tmp_path, catalog):
    path = write(tmp_path, """
  - id: cards
    quote: "14 张"
    stated: 14
    solve: num_devices
    bound: min
    require: training_state_fits
    given: {params: 70e9, hbm_capacity: 80 GB}
""")
    claim = load_claims(path, catalog).claims[0]
    q = claim.question
    assert (q.target, q.bound, q.require, q.given_map["params"]) == ("num_devices", "min", ("training_state_fits",), "70e9")
    assert claim.line == 4


def test_import_is_light():
    code = "import sys, derive.documents.claims; print('sympy' in sys.modules, 'yaml' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_constant_that_agrees_only_under_a_reading(tmp_path, cli):
    path = write(tmp_path, """
  - id: regs
    quote: "寄存器 | ~256 KB/SM"
    stated: 256 kB
    constant: {preset: h100, quantity: register_capacity}
    conventions:
      - name: {en: "KB read as KiB", zh: "KB 按 KiB 理解"}
        stated: 256 KiB
""")
    r = check_claims(path)[0]
    assert r.verdict == "constant" and r.agrees and r.convention.en == "KB read as KiB"
    assert r.computed == Fraction(262144, 1000)          # the preset's 256 KiB in the stated kB
    out = cli("check", str(path), "--lang", "both")
    assert out.code == 0, out.err
    assert "仅在「KB 按 KiB 理解」时与原文 256 kB 相符" in out.out
    assert "agrees with it only under the reading “KB read as KiB”" in out.out
    row = cli("check", str(path), "--format", "json").json[0]
    assert row["convention"] == {"en": "KB read as KiB", "zh": "KB 按 KiB 理解"} and row["verdict"] == "constant"


def test_a_restated_value_says_what_it_becomes(tmp_path, cli):
    # a convention that only re-reads the stated value leaves the computed value the plain reading's:
    # the note says what the stated value becomes, not "that gives X; the plain reading gives X"
    path = write(tmp_path, """
  - id: array
    quote: "Our array is about 16GB."
    stated: 16 GB
    solve: array_bytes
    given: {array_elements: 2**34}
    presets: [int8]
    conventions:
      - name: {en: "GB read as GiB", zh: "GB 按 GiB 理解"}
        stated: 16 GiB
""")
    r = check_claims(path)[0]
    assert r.verdict == "convention" and r.restated is not None and r.restated.text == "16 GiB"
    assert r.computed == r.main_computed == Fraction(2**34, 10**9)
    out = cli("check", str(path), "--lang", "both")
    assert out.code == 0, out.err
    assert "the stated 16 GB, read as 16 GiB, is 17.18 GB, which agrees with the computed 17.18 GB" in out.out
    assert "原文 16 GB 按 16 GiB 理解即 17.18 GB" in out.out
    assert "the plain reading gives" not in out.out
