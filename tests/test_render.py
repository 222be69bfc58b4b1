"""Worked solutions in every format: words from the message tables, math where it belongs,
escaping of hostile catalog text, user templates in the sandbox, Jupyter reprs, real xelatex."""

from __future__ import annotations

import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import ROOT, need_tool

from derive import TemplateError, load_catalog, solve
from derive.writeup.render import FORMATS, message_table, render_solution, template_dirs

TEMPLATES = ROOT / "templates"

# questions that between them take every kind of step: relation, inverse, regime, bound
# (max and min), rounding to an integer and to a multiple, notes (a cancelled input)
QUESTIONS = {
    "kv": dict(target="kv_bytes_per_token", model="llama2-70b"),
    "regime": dict(target="roofline_time", given={"flops": "1e12 FLOP", "bytes_moved": "1e9 B"}, hw="h100"),
    "inverse": dict(target="hbm_bw", given={"critical_ai_hbm": "156 FLOP/B"}, hw="a100"),
    "max": dict(target="d_model", hw="tpu-v5e", presets=["classic-ffn"], bound="max",
                require=["ffn_fits_in_vmem"], multiple_of=128),
    "min": dict(target="batch", given={"d_model": 4096}, hw="tpu-v5e", presets=["classic-ffn"], bound="min",
                require=["ffn_prefetch_hidden"]),
}


def _solve(key, catalog=None):
    q = dict(QUESTIONS[key])
    return solve(q.pop("target"), q.pop("given", None), catalog=catalog, **q)


@pytest.fixture(scope="module")
def solutions():
    return {k: _solve(k) for k in QUESTIONS}


# ---------------------------------------------------------------------------
# words: every message a template asks for exists in both languages


_MSG_CALL = re.compile(r"""msg\(\s*["']([A-Za-z0-9_]+)["']\s*(~)?""")
_SAY_CALL = re.compile(r"""(?:say|label|heading|subheading)\(\s*["']([A-Za-z0-9_]+)["']\s*(~)?""")


def _template_keys() -> tuple[set[str], set[str]]:
    """Literal message keys used by the templates, and prefixes of keys built as "prefix_" ~ value."""
    keys, prefixes = set(), set()
    for path in TEMPLATES.glob("*.j2"):
        text = path.read_text(encoding="utf-8")
        for rx in (_MSG_CALL, _SAY_CALL):
            for key, concat in rx.findall(text):
                (prefixes if concat else keys).add(key)
    return keys, prefixes


def test_every_message_key_used_by_the_templates_has_english_and_chinese():
    table = message_table()
    keys, prefixes = _template_keys()
    assert len(keys) > 40 and {"w_answer", "w_check", "w_step_n"} <= keys
    missing = sorted(k for k in keys if k not in table)
    assert not missing, f"templates use messages that do not exist: {missing}"
    for key in keys:
        for lang in ("en", "zh"):
            assert table[key].get(lang, "").strip(), f"message {key!r} has no {lang} text"
    # keys built from data: every value the data can take has its message
    domains = {
        "w_ask_": ["solve", "max", "min"], "w_origin_": ["hw", "model", "setup", "given", "default"],
        "note_": ["cancelled", "several_solutions", "override", "strict_bound", "not_integer"],
        "step_round_": ["max", "min"], "step_round_multiple_": ["max", "min"], "w_round_": ["max", "min"],
        "w_round_multiple_": ["max", "min"], "w_isolate_": ["max", "min"], "w_answer_": ["solve", "max", "min"],
        "w_assume_units_": ["si", "iec"],
    }
    for prefix in prefixes:
        for value in domains.get(prefix, []):
            entry = table.get(prefix + value)
            assert entry and entry.get("en", "").strip() and entry.get("zh", "").strip(), prefix + value
        # a prefix of another module's template: every key it can reach has both languages
        family = [k for k in table if k.startswith(prefix)]
        assert family, f"no message starts with {prefix!r}"
        for key in family:
            assert table[key].get("en", "").strip() and table[key].get("zh", "").strip(), key


def test_report_messages_have_both_languages_with_the_same_placeholders():
    from derive.storage.yamlio import read_yaml

    data = read_yaml(TEMPLATES / "messages-report.yaml")
    assert all(str(k).startswith("w_") for k in data), "report messages are prefixed w_ (no clash with messages.yaml)"
    for key, texts in data.items():
        en, zh = str(texts["en"]), str(texts["zh"])
        assert en.strip() and zh.strip(), key
        assert set(re.findall(r"\{(\w+)\}", en)) == set(re.findall(r"\{(\w+)\}", zh)), key


def _bilingual_texts(node, path="view"):
    """Every {en, zh} pair in a view, with where it is."""
    if isinstance(node, dict):
        if set(node) >= {"en", "zh"} and all(isinstance(node[k], str) for k in ("en", "zh")):
            yield path, node
        for k, v in node.items():
            yield from _bilingual_texts(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _bilingual_texts(v, f"{path}[{i}]")


def test_every_catalog_text_a_write_up_uses_has_both_languages(solutions):
    from derive.writeup.present import build_view

    seen = 0
    for sol in solutions.values():
        for path, texts in _bilingual_texts(build_view(sol)):
            assert texts["en"].strip() and texts["zh"].strip(), f"{sol.target}: {path} lacks a translation"
            seen += 1
    assert seen > 50


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("lang", ["en", "zh", "both"])
def test_every_format_renders_every_kind_of_step(solutions, fmt, lang):
    for key, sol in solutions.items():
        out = render_solution(sol, fmt, lang=lang)
        assert sol.formatted().mantissa in out or sol.display("si").split()[0].replace(",", "{,}") in out, key
        if lang in ("zh", "both") and fmt != "latex-fragment":
            assert re.search(r"[\u4e00-\u9fff]", out), f"{key} {fmt}: no Chinese text"
        if lang == "en" and fmt not in ("tex", "beamer"):
            # English alone has no Chinese except in reference titles (the seed chapters' own names)
            body = re.sub(r"内存层级与带宽|显存与带宽墙", "", out)
            assert not re.search(r"[\u4e00-\u9fff]", body), f"{key} {fmt}: Chinese in an English write-up"


def test_a_regime_is_named_with_the_numbers_that_choose_it(solutions):
    md = render_solution(solutions["regime"], "md", lang="en")
    assert ("The compute-bound branch holds, since $T_{\\mathrm{math}} \\ge T_{\\mathrm{mem}} \\quad "
            "\\left(1.011\\,\\mathrm{ms} \\ge 298.5\\,\\mathrm{µs}\\right)$.") in md   # after its display: a sentence
    # the max with both arguments' values, then the one that wins (issue 14: not "= (1.011 ms)")
    assert "T &= \\max\\left(T_{\\mathrm{math}}, T_{\\mathrm{mem}}\\right)" in md
    assert "&= \\max\\left(1.011\\,\\mathrm{ms}, 298.5\\,\\mathrm{µs}\\right) = 1.011\\,\\mathrm{ms}" in md
    assert "Regime: compute-bound" in md
    # the inputs that only chose the regime are named as such, with the numbers that chose it
    assert "bytes moved, HBM bandwidth only choose the regime" in md


def test_both_languages_put_chinese_first_then_english(solutions):
    md = render_solution(solutions["max"], "md", lang="both")
    zh, en = md.index("思路"), md.index("Plan:")
    assert zh < en
    assert "答案" in md and "Answer" in md


# ---------------------------------------------------------------------------
# Markdown for GitHub


def test_markdown_math_is_in_dollar_delimiters(solutions):
    md = render_solution(solutions["min"], "md", lang="en")
    lines = md.splitlines()
    blocks = [i for i, ln in enumerate(lines) if ln == "$$"]
    assert len(blocks) >= 6 and len(blocks) % 2 == 0
    for start, end in zip(blocks[::2], blocks[1::2]):
        assert end >= start + 2, "a display equation stands between $$ lines"
        assert lines[start - 1] == "" and lines[end + 1] == "", "$$ blocks stand in their own paragraph"
    outside = "\n".join(ln for i, ln in enumerate(lines)
                        if not any(s <= i <= e for s, e in zip(blocks[::2], blocks[1::2])))
    outside = re.sub(r"(?<!\\)\$[^$\n]+?(?<!\\)\$", "", outside)        # inline math
    assert "\\frac" not in outside and "\\mathrm" not in outside
    # the reduced bound, in symbols: the pure numbers (2 matrices, 4x, 8 FLOPs) put in, the 2 B per weight kept
    assert "B \\ge \\frac{F_{\\mathrm{peak}} \\cdot b_{w}}{W_{\\mathrm{HBM}}}" in md
    assert "\\left\\lceil 480.4878 \\right\\rceil = 481" in md          # the rounding, shown
    assert "\n\n\n" not in md


# ---------------------------------------------------------------------------
# HTML: one page, MathML, no script, fonts with fallbacks


class _PageText(HTMLParser):
    """The text of a page outside <math>, and what it loads."""

    def __init__(self):
        super().__init__()
        self.depth = 0
        self.text: list[str] = []
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend(attrs)
        if tag in ("math", "style"):
            self.depth += 1

    def handle_endtag(self, tag):
        if tag in ("math", "style"):
            self.depth -= 1

    def handle_data(self, data):
        if self.depth == 0:
            self.text.append(data)


def page_text(html: str) -> _PageText:
    p = _PageText()
    p.feed(html)
    return p


def test_html_is_one_self_contained_page_with_mathml(solutions):
    html = render_solution(solutions["max"], "html", lang="both")
    page = page_text(html)
    text = "".join(page.text)
    assert page.tags.count("math") > 20
    for raw in ("\\frac", "\\mathrm", "$$", "\\left", "\\cdot", "\\sqrt"):
        assert raw not in text, raw
    assert "script" not in page.tags and "link" not in page.tags and "img" not in page.tags
    assert not [a for a in page.attrs if a[0] == "src"]
    assert "http://" not in html.split("<main>")[0] and "https://" not in html.split("<main>")[0]
    assert '"Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC"' in html and "sans-serif" in html
    assert '<html lang="zh-Hans">' in html
    assert "<msqrt>" in html and "2,816" in html


def test_mathml_from_hostile_latex_stays_mathml():
    from derive.writeup.mathml import to_mathml

    out = to_mathml(r"\text{<script>alert(1)</script>} + x_{<b>}")
    assert "<script" not in out and "<b>" not in out
    assert out.startswith("<math")


def test_a_unit_slash_in_mathml_has_no_space_around_it():
    """TeX sets B/s with no space at the slash; MathML's operator dictionary spaces it, and the HTML pages
    read "FLOP / s" and "B / s"."""
    from derive.writeup.mathml import to_mathml

    out = to_mathml(r"1.97\times 10^{14}\,\mathrm{FLOP/s} \cdot \frac{a}{b}")
    slashes = re.findall(r"<mo[^>]*>&#x0002F;</mo>", out)
    assert slashes == ['<mo lspace="0em" rspace="0em">&#x0002F;</mo>'], out


# ---------------------------------------------------------------------------
# escaping: a user formula file whose names hold every LaTeX special


HOSTILE = r"""
quantities:
  - id: odd_bytes
    unit: B
    symbol: 'm_{\mathrm{odd}}'
    name: {en: 'odd 100% & co_#1 ${x} ~^\ bytes <script>alert(1)</script>', zh: '怪 100% & _ # $ { } ~ ^ \ 字节'}
    meaning: {en: 'Doubled 50% & _ # $ { } ~ ^ \ *bold* [a](b) | x', zh: '翻倍 50% & _ # $ { } ~ ^ \ 的缓存'}
    source: convention
relations:
  - id: odd_bytes
    equation: odd_bytes = 2 * kv_bytes_per_token
    name: {en: 'doubling 50% & _ # $ { } ~ ^ \ <i>', zh: '翻倍 50% & _ # $ { } ~ ^ \ 关系'}
    meaning: {en: 'Twice 10% & _ # $ { } ~ ^ \ *bold* [a](b) | x', zh: '两倍 10% & _ # $ { } ~ ^ \ 。'}
    source: convention, page 1 % & _ # ~ ^
"""
SPECIALS = "% & _ # $ { } ~ ^ \\"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    path = tmp_path_factory.mktemp("formulas") / "odd.yaml"
    path.write_text(HOSTILE, encoding="utf-8")
    catalog = load_catalog([path])
    return path, solve("odd_bytes", model="llama2-70b", catalog=catalog)


def test_latex_specials_in_catalog_text_are_escaped(hostile):
    _, sol = hostile
    tex = render_solution(sol, "tex", lang="both")
    assert r"100\% \& co\_\#1 \$\{x\} \textasciitilde{}\textasciicircum{}\textbackslash{} bytes" in tex
    assert r"怪 100\% \& \_ \# \$ \{ \} \textasciitilde{} \textasciicircum{} \textbackslash{} 字节" in tex
    assert SPECIALS not in tex
    assert r"翻倍 50\% \& \_ \# \$ \{ \} \textasciitilde{} \textasciicircum{} \textbackslash{} 关系" in tex
    beamer = render_solution(sol, "beamer", lang="both")
    assert SPECIALS not in beamer


def test_html_and_markdown_escape_catalog_text(hostile):
    _, sol = hostile
    html = render_solution(sol, "html", lang="en")
    assert "<script>" not in html and "<i>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    md = render_solution(sol, "md", lang="en")
    assert r"co\_\#1 \${x} ~^\\ bytes" in md and r"\<script\>" in md and r"\*bold\* \[a\](b) \| x" in md


def test_escaped_specials_compile_with_xelatex(hostile, tmp_path):
    need_tool("xelatex")
    pdftotext = need_tool("pdftotext")
    _, sol = hostile
    for fmt in ("tex", "beamer"):
        pdf = _xelatex(render_solution(sol, fmt, lang="both"), tmp_path / fmt)
        text = subprocess.run([pdftotext, str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        assert "100% & co_#1 ${x} ~^\\ bytes" in text.replace("\n", " ") or fmt == "beamer"
        assert "怪 100% & _ # $ { } ~ ^ \\ 字节" in text


def test_an_english_write_up_loads_ctex_only_for_chinese_text(solutions, tmp_path):
    """ctex, xeCJK and the CJK fonts are a third of an article's xelatex time: an English write-up with no
    Chinese character loads the plain classes and fontspec; one quoting a Chinese title loads xeCJK and
    one face, and the title is in the PDF; a Chinese or bilingual one the ctex classes."""
    from derive.writeup.render import cjk_setup

    assert cjk_setup("no Chinese here: µs, ≤, “quoted”", "en") == ""
    assert cjk_setup("ch. 3: “内存层级与带宽”", "en") == "quoted"
    assert cjk_setup("a full-width colon：", "en") == "quoted"
    assert cjk_setup("x", "zh") == cjk_setup("x", "both") == "ctex"
    pdftotext = need_tool("pdftotext")
    sol = solutions["kv"]
    for fmt, cls in (("tex", "article"), ("beamer", "beamer")):
        en = render_solution(sol, fmt, lang="en")
        assert "内存层级与带宽" in en          # the seed chapter's title, quoted in the sources
        assert re.search(r"\\documentclass\[[^]]*\]\{" + cls + r"\}", en) and "ctex" not in en
        assert "\\usepackage{xeCJK}" in en and en.count("\\setCJKmainfont{Noto") == 1
        text = subprocess.run([pdftotext, str(_xelatex(en, tmp_path / fmt)), "-"], capture_output=True, text=True,
                              check=True).stdout
        assert "327.68 kB" in text and "内存层级与带宽" in text
        assert "]{ctex" + ("art" if fmt == "tex" else "beamer") + "}" in render_solution(sol, fmt, lang="zh")
    (tmp_path / "user").mkdir()       # a write-up without the sources: nothing Chinese in it
    (tmp_path / "user" / "solution.tex.j2").write_text(
        '{% import "_tex.j2" as f %}{% set document %}\\begin{document}{{ s.answer.text }}\\end{document}'
        '{% endset %}{{ f.preamble("article", lang, cjk=document | cjk_setup(lang)) }}{{ document }}\n',
        encoding="utf-8")
    en = render_solution(sol, "tex", lang="en", templates=tmp_path / "user")
    assert "\\usepackage{fontspec}" in en and "CJK" not in en
    text = subprocess.run([pdftotext, str(_xelatex(en, tmp_path / "plain")), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "327.68 kB" in text


def test_an_aside_goes_inside_a_name_that_ends_in_its_own():
    from markupsafe import Markup

    from derive.writeup.render import environment_for

    aside = environment_for("md").globals["aside"]
    assert aside("汇聚并相乘的时间（无重叠）", "n = 16", "zh") == "汇聚并相乘的时间（无重叠，n = 16）"
    assert aside("PCIe 加载时间", "n = 1", "zh") == "PCIe 加载时间（n = 1）"
    assert aside("AllGather time over NVLink (ring)", "n = 8", "en") == "AllGather time over NVLink (ring; n = 8)"
    assert aside("PCIe load time", "n = 1", "en") == "PCIe load time (n = 1)"
    # the parenthesis of a formula is not an aside
    assert aside("bubble, (p − 1)/(m + p − 1)", "m = 8", "en") == "bubble, (p − 1)/(m + p − 1) (m = 8)"
    html = environment_for("html").globals["aside"](Markup("a &lt;b&gt; (c)"), "<d>", "en")
    assert isinstance(html, Markup) and html == "a &lt;b&gt; (c; &lt;d&gt;)"


def test_a_given_values_note_takes_what_it_follows_inside_its_own_aside(catalog):
    """A note that ends in a parenthesis of its own gets the follows-marker inside it, never a second pair."""
    import dataclasses

    import sympy

    from derive.writeup.present import given_notes

    sol = solve("ici_allgather_time", {"axis_size": 4, "ici_axes": 1, "collective_bytes": "1 MB"}, hw="tpu-v5e")
    g = dataclasses.replace(sol.given[0], follows=sympy.Symbol("axis_size", positive=True) * 2)
    for note, note_zh, en, zh in [
        ("unequal axes add up (4 + 8 = 12)", "轴长不等时相加（4 + 8 = 12）",
         "unequal axes add up (4 + 8 = 12; = $2 \\cdot |X|$)", "轴长不等时相加（4 + 8 = 12，= $2 \\cdot |X|$）"),
        ("the one element size", "通用元素大小", "the one element size (= $2 \\cdot |X|$)", "通用元素大小（= $2 \\cdot |X|$）"),
        ("a bubble of (p - 1)/(m + p - 1)", "", "a bubble of (p - 1)/(m + p - 1) (= $2 \\cdot |X|$)", ""),
    ]:
        assert given_notes(catalog, dataclasses.replace(g, note=note, note_zh=note_zh)) == (en, zh)


# ---------------------------------------------------------------------------
# user templates: searched first, sandboxed, undefined names are errors


def test_user_templates_override_the_built_in_ones(tmp_path, solutions):
    (tmp_path / "solution.md.j2").write_text("MINE {{ s.answer.text }} {{ msg('w_answer', lang) }}\n",
                                             encoding="utf-8")
    out = render_solution(solutions["kv"], "md", lang="zh", templates=tmp_path)
    assert out == "MINE 327.68 kB 答案\n"
    # the other formats still come from the built-in folder
    assert "<math" in render_solution(solutions["kv"], "html", templates=tmp_path)
    assert template_dirs(tmp_path)[0] == tmp_path


@pytest.mark.parametrize("body, words", [
    ("{{ s.no_such_field }}", "no_such_field"),
    ("{{ ''.__class__.__mro__[1].__subclasses__() }}", "unsafe"),
    ("{{ msg('no_such_message', 'en') }}", "no_such_message"),
    ("{% for %}", "syntax"),
])
def test_user_templates_cannot_run_code_or_use_undefined_names(tmp_path, solutions, body, words):
    (tmp_path / "solution.md.j2").write_text(body + "\n", encoding="utf-8")
    with pytest.raises(TemplateError) as err:
        render_solution(solutions["kv"], "md", templates=tmp_path)
    assert words in str(err.value)
    assert "\n" not in str(err.value)


def test_user_template_errors_are_one_line_in_the_cli(tmp_path, cli):
    (tmp_path / "solution.html.j2").write_text("{{ s.answer.nope }}\n", encoding="utf-8")
    run = cli("solve", "critical_ai", "--hw", "a100", "--format", "html", "--templates", str(tmp_path))
    assert run.code == 2
    assert run.err.startswith("derive: error:") and run.err.count("\n") == 1 and "nope" in run.err


# ---------------------------------------------------------------------------
# Jupyter


def test_solution_displays_itself_in_jupyter(solutions, tmp_path):
    sol = solutions["max"]
    md = sol._repr_markdown_()
    assert md.startswith("## model width") and "$$" in md and "**2,816**" in md
    frag = sol._repr_latex_()
    assert frag.startswith("$$\n\\begin{aligned}") and frag.rstrip().endswith("\\end{aligned}\n$$")
    assert "D &= 128 \\cdot \\left\\lfloor" in frag and "D &\\le 2{,}816" in frag
    assert frag.count("{") == frag.count("}")
    doc = "\\documentclass{article}\\usepackage{amsmath}\\begin{document}\n" + frag + "\n\\end{document}\n"
    _xelatex(doc, tmp_path)


# ---------------------------------------------------------------------------
# PDF through latexmk, and its errors


def test_solve_format_pdf_compiles_with_latexmk(tmp_path, cli):
    need_tool("latexmk")
    pdftotext = need_tool("pdftotext")
    out = tmp_path / "d.pdf"
    run = cli("solve", "d_model", "--max", "--require", "ffn_fits_in_vmem", "--hw", "tpu-v5e", "--preset",
              "classic-ffn", "--lang", "both", "--format", "pdf", "--beamer", "-o", str(out))
    assert run.code == 0, run.err
    assert out.read_bytes().startswith(b"%PDF")
    text = subprocess.run([pdftotext, str(out), "-"], capture_output=True, text=True, check=True).stdout
    assert "2,896" in text and "模型宽度" in text


def test_a_failing_compile_reports_the_tex_error_lines(tmp_path, cli):
    need_tool("latexmk")
    (tmp_path / "solution.tex.j2").write_text(
        "\\documentclass{article}\n\\begin{document}\n{{ s.answer.text }}\n\\undefinedmacro\n\\end{document}\n",
        encoding="utf-8")
    out = tmp_path / "out" / "x.pdf"
    # the user's own x.tex and x.log beside the PDF are never overwritten by a failed build (issue 16, item 2)
    out.parent.mkdir()
    (out.parent / "x.tex").write_text("my paper", encoding="utf-8")
    (out.parent / "x.log").write_text("my log", encoding="utf-8")
    run = cli("solve", "critical_ai", "--hw", "a100", "--format", "pdf", "--templates", str(tmp_path),
              "-o", str(out))
    assert run.code == 2
    assert run.err.count("\n") == 1
    # the error line quotes TeX's report of where it stopped (the offending line of the source) and names
    # the kept log; TeX's own wording is not the contract
    assert "\\undefinedmacro" in run.err and "x.log" in run.err
    kept = [p for p in out.parent.iterdir() if p.name.startswith("x.pdf.failed-")]
    assert len(kept) == 1 and (kept[0] / "x.log").exists() and "\\undefinedmacro" in (kept[0] / "x.tex").read_text()
    assert str(kept[0] / "x.log") in run.err and not out.exists()
    assert (out.parent / "x.tex").read_text() == "my paper" and (out.parent / "x.log").read_text() == "my log"


def test_tex_error_lines_are_read_from_the_log():
    from derive.writeup.latex_build import tex_errors

    log = "This is XeTeX\n(./doc.tex\n! Missing $ inserted.\n<inserted text>\n$\nl.12 a_b\n\n"
    assert tex_errors(log) == ["! Missing $ inserted.", "l.12 a_b"]


# ---------------------------------------------------------------------------


def _xelatex(source: str, folder: Path) -> Path:
    """Compile once with xelatex (enough for page counts and text); fail with TeX's error lines."""
    from derive.writeup.latex_build import tex_errors

    xelatex = need_tool("xelatex")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "doc.tex").write_text(source, encoding="utf-8")
    proc = subprocess.run([xelatex, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "doc.tex"],
                          cwd=folder, capture_output=True, text=True, timeout=180)
    log = (folder / "doc.log").read_text(encoding="utf-8", errors="replace")
    assert proc.returncode == 0, " ".join(tex_errors(log))
    assert "Missing character" not in log, [ln for ln in log.splitlines() if "Missing character" in ln][:3]
    return folder / "doc.pdf"


@pytest.mark.parametrize("locator, zh", [
    ('section "TPU Specs"', "“TPU Specs”一节"),
    ("section 3.9", "第 3.9 节"),
    ("sections 2-3", "第 2-3 节"),
    ("section 3.9, equation 2", "第 3.9 节，式 2"),
    ("Quiz 2, Question 3", "测验 2，问题 3"),
    ("Pop Quiz 2", "随堂测验 2"),
    ("Table D.2", "表 D.2"),
    ("Appendix B", "附录 B"),
    ("Algorithm 1 line 5", "算法 1 第 5 行"),
    ("Algorithm 0; proof of Theorem 2", "算法 0；定理 2 的证明"),
    ("FLOP count stated here", "“FLOP count stated here”"),      # no locator word: quoted as the name it is
    ('section "Case 2", "How long does this take?"', "“Case 2”一节，“How long does this take?”"),
    ('"The Formula in One Line"', "“The Formula in One Line”"),   # a quoted heading: quoted once, not ““…””
])
def test_a_locator_reads_in_chinese(locator, zh):
    """A Chinese write-up cited `[6] “section "TPU Specs"”`: the locator's words are Chinese now, and so is
    the punctuation between its parts (“Worked Problems”一节, 问题 6 mixed a half-width comma in)."""
    from derive.writeup.render import localize

    assert localize(locator, "zh") == zh


def test_an_english_locator_quotes_a_heading_with_curly_quotes():
    """The en article printed `section "Worked Problems"` with straight quotes."""
    from derive.writeup.render import localize

    assert localize('section "Worked Problems", Question 6', "en") == "section “Worked Problems”, Question 6"


# ---------------------------------------------------------------------------
# a reader's audit of the write-ups (issue 11): what the pictures showed


@pytest.fixture(scope="module")
def report_texts():
    """{(stem, fmt, lang): text} of every problem file in md, tex and beamer, in en, zh and both."""
    from derive.documents.problems import load_problem
    from derive.documents.report import render_report, report_context

    catalog = load_catalog()
    out = {}
    for path in sorted((ROOT / "reports").glob("*.yaml")):
        problem = load_problem(path, catalog)
        context = report_context(problem, catalog)
        for fmt in ("md", "tex", "beamer"):
            for lang in ("en", "zh", "both"):
                out[(path.stem, fmt, lang)] = render_report(problem, fmt, lang, catalog=catalog, context=context)
    return out


def _columns(spec: str) -> int:
    """The columns of a tabular spec: p{..}, X, l, c, r (a >{...} prefix and @{} are not columns)."""
    spec = re.sub(r"[>@<]\{(?:[^{}]|\{[^{}]*\})*\}", "", spec)
    spec = re.sub(r"\{(?:[^{}]|\{[^{}]*\})*\}", "", spec)
    return len(re.findall(r"[pXlcrm]", spec))


def test_every_article_table_has_a_column_for_each_cell(report_texts):
    """The answers at a glance (three cells a row) were set with the given values' five columns: the
    quantity's name ran one word a line in a tenth of the page, and the table off the foot of page 3."""
    for (stem, fmt, lang), tex in report_texts.items():
        if fmt != "tex":
            continue
        for m in re.finditer(r"\\begin\{tabularx\}\{\\linewidth\}\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}\n"
                             r"\\toprule\n(.*?) \\\\\n", tex):
            cells = m.group(2).count(" & ") + 1
            assert _columns(m.group(1)) == cells, (stem, lang, m.group(1), m.group(2)[:60])


def test_a_given_values_table_has_a_source_column_only_when_a_row_has_a_source(report_texts):
    for (stem, fmt, lang), md in report_texts.items():
        if fmt != "md" or lang == "both":
            continue
        head = "| Quantity | Symbol | Value | From |" if lang == "en" else "| 物理量 | 符号 | 数值 | 来源 |"
        for table in re.findall(re.escape(head) + r"(.*?)\n\n", md, flags=re.S):
            rows = [r for r in table.splitlines()[2:] if r.startswith("|")]
            if table.startswith(" Source |") or table.startswith(" 出处 |"):
                assert any(r.rstrip(" |").split("|")[-1].strip() for r in rows), (stem, lang, rows[:2])


def test_the_source_line_is_in_each_language_on_its_own_line(report_texts):
    """The deck's title frame and every article read "出处 / Source: ... (memory hierarchy and bandwidth)":
    two languages joined on one line, and a half-width colon after Chinese."""
    for (stem, fmt, lang), text in report_texts.items():
        assert "出处 / Source:" not in text, (stem, fmt, lang)
        if lang in ("zh", "both") and "出处" in text:
            assert "出处：" in text and "出处:" not in text, (stem, fmt, lang)


def test_a_continued_frame_title_has_no_space_before_the_chinese_bracket(report_texts):
    for (stem, fmt, lang), tex in report_texts.items():
        if fmt == "beamer" and lang != "en":
            assert "\\unskip（续）" in tex and "\\,（续）" not in tex, (stem, lang)


def test_prose_in_tex_keeps_a_number_with_its_unit_and_writes_products_with_a_times_sign():
    """A note broke "1.15" from its "s" at a line end, and "131072 x 131072" kept the letter x."""
    from derive.writeup.render import prose_filter

    tex = str(prose_filter("tex")("约 1.15 s，是 6 倍；131072 x 131072 int8 = $2^{34}$ B, 12.9x more, a 4x4 slice"))
    assert "1.15~s" in tex and "$2^{34}$~B" in tex
    assert "131072 × 131072" in tex and "12.9× more" in tex and "4x4 slice" in tex
    md = str(prose_filter("md")("2 x 45 GB/s"))
    assert md == "2 × 45 GB/s"


# ---------------------------------------------------------------------------
# algebra as the catalog writes it (issue 11): sums and products in the written order


def _math_text(html: str) -> str:
    """The characters of a page's MathML in reading order (tags dropped, entities read)."""
    import html as html_lib

    maths = re.findall(r"<math\b.*?</math>", html, flags=re.S)
    return "\n".join(html_lib.unescape(re.sub(r"<[^>]+>", "", m)) for m in maths)


@pytest.mark.parametrize("fmt", ["md", "tex", "html", "text"])
def test_a_relation_prints_its_sums_and_products_in_the_order_the_catalog_writes_them(fmt):
    """training_bytes_per_param is written weights + gradients + optimizer and ffn_weight_bytes
    ffn_matrices * d_model * d_ff * weight_bytes_per_param; SymPy keeps b_g + b_o + b_w and F·D·n·b_w.
    The symbolic line and the line with the values put in both follow the catalog."""
    catalog = load_catalog()
    mem = solve("training_bytes_per_param", {"weight_bytes_per_param": "2 B", "grad_bytes_per_param": "4 B",
                                             "optimizer_bytes_per_param": "12 B"}, catalog=catalog)
    ffn = solve("ffn_weight_bytes", {"ffn_matrices": 2, "d_model": 4096, "d_ff": 16384,
                                     "weight_bytes_per_param": "2 B"}, catalog=catalog)
    mem_out, ffn_out = render_solution(mem, fmt, lang="en"), render_solution(ffn, fmt, lang="en")
    if fmt == "text":
        assert ("training_bytes_per_param = weight_bytes_per_param + grad_bytes_per_param + "
                "optimizer_bytes_per_param") in mem_out
        assert "= (2 B) + (4 B) + (12 B)" in mem_out
        assert "ffn_weight_bytes = ffn_matrices*d_model*d_ff*weight_bytes_per_param" in ffn_out
        assert "= 2*4,096*16,384*(2 B)" in ffn_out
        return
    if fmt == "html":
        mem_math, ffn_math = _math_text(mem_out), _math_text(ffn_out)
        assert "=bw+bg+bo" in mem_math and "=(2B)+(4B)+(12B)=18B" in mem_math
        assert "=nff·D·F·bw" in ffn_math and "=2·4,096·16,384·(2B)" in ffn_math
        return
    assert r"b_{\mathrm{train}} &= b_{w} + b_{g} + b_{o}" in mem_out
    assert (r"\left(2\,\mathrm{B}\right) + \left(4\,\mathrm{B}\right) + \left(12\,\mathrm{B}\right)"
            r" = 18\,\mathrm{B}") in mem_out
    assert r"M_{\mathrm{ffn}} &= n_{\mathrm{ff}} \cdot D \cdot F \cdot b_{w}" in ffn_out
    assert r"= 2 \cdot 4{,}096 \cdot 16{,}384 \cdot \left(2\,\mathrm{B}\right) = " in ffn_out


def test_a_solved_form_keeps_sympys_order_and_a_written_sum_inside_it_its_written_order():
    """The ZeRO-3 bound isolated by SymPy: its sum of bytes per parameter is the one the catalog writes
    (weights, gradients, optimizer); the terminal's closed form says the same."""
    from derive.writeup.present import build_view

    catalog = load_catalog()
    s = solve("data_parallel", catalog=catalog, bound="min", require=["zero3_fits"], presets=["adam-mixed"],
              given={"params": 20e9, "seq_len": 2048, "batch": 1, "d_model": 6144, "num_layers": 44,
                     "hbm_capacity": "40 GB"})
    view = build_view(s)
    assert view["answer"]["formula_text"] == (
        "params*(weight_bytes_per_param + grad_bytes_per_param + optimizer_bytes_per_param)/"
        "(hbm_capacity*tensor_parallel - 34*batch*d_model*num_layers*seq_len)")
    assert r"\left(b_{w} + b_{g} + b_{o}\right)" in view["answer"]["formula_latex"]


def test_the_written_order_is_read_by_the_whitelist_parser():
    import sympy

    from derive import ExpressionError
    from derive.symbolic.expressions import written_order

    sym = {n: sympy.Symbol(n, positive=True) for n in "wgoxyzab"}
    chains = written_order("t = w + g - o", lambda n: sym.get(n) or sympy.Symbol(n, positive=True))
    assert chains == (("+", (sym["w"], sym["g"], -sym["o"])),)
    chains = written_order("x * 3 * y / (2 * z)", sym)
    assert chains == (("*", (sympy.Rational(3, 2), sym["x"], sym["y"], 1 / sym["z"])),)
    with pytest.raises(ExpressionError):
        written_order("__import__('os').system('true') + a", sym)


# ---------------------------------------------------------------------------
# a quantity's display (issue 11): 25%, 2.562×


def test_a_quantity_shows_its_values_as_its_catalog_entry_says_in_every_format(catalog):
    """A utilisation was printed 0.25 and FlashAttention's saving 2.562: the catalog's ``display:`` (percent,
    times) is how text, Markdown, HTML, LaTeX and the deck show the value, and JSON keeps the number."""
    from derive.documents.report import render_report

    util = solve("mxu_utilization", {"matmul_rows": 8, "matmul_inner": 64, "matmul_cols": 64}, hw="tpu-v5e",
                 catalog=catalog)
    assert render_solution(util, "text", lang="en").count("25%") >= 2
    for fmt in ("md", "tex", "beamer"):
        out = render_solution(util, fmt, lang="zh")
        boxed = [line for line in out.splitlines() if "\\boxed{" in line]
        assert boxed and all(r"25\mathrm{\%}}" in line for line in boxed) and "= 0.25" not in out, fmt
    html = render_solution(util, "html", lang="en")
    assert '<mn>25</mn><mrow><mi mathvariant="normal">&#x00025;</mi>' in html and "0.25" not in html
    data = util.to_dict()
    assert data["value"] == 0.25 and data["display"] == "25%"

    saving = solve("flash_traffic_ratio", {"seq_len": 4096, "head_dim": 128, "bytes_per_element": "2 B",
                                           "flash_block_cols": 256}, catalog=catalog)
    assert saving.display() == "2.562×"
    assert r"= 2.562{\times}" in render_solution(saving, "md", lang="en")
    # a given value is shown the same way: the MFU a question gives
    from derive.documents.problems import load_problem

    problem = load_problem(ROOT / "reports" / "sb-gpus-parallelism.yaml", catalog)
    md = render_report(problem, "md", "en", catalog=catalog)
    assert r"| $\mathrm{MFU}$ | $45\mathrm{\%}$ |" in md


@pytest.mark.parametrize("display, unit, words", [
    ("percents", "'1'", "display is percent or times"),
    ("percent", "B", "display: percent is for a quantity of unit '1', not B"),
])
def test_a_quantity_display_is_checked(tmp_path, display, unit, words):
    from derive import CatalogError

    path = tmp_path / "mine.yaml"
    path.write_text(f"""quantities:
  - id: widget_share
    unit: {unit}
    symbol: 'w'
    display: {display}
    name: {{en: widget share, zh: 部件占比}}
    meaning: {{en: A share., zh: 一个占比。}}
    source: derived
""", encoding="utf-8")
    with pytest.raises(CatalogError, match=re.escape(words)) as err:
        load_catalog(extra=[str(path)])
    assert err.value.line == 5


def test_the_terminal_writes_catalog_math_as_plain_text(cli, catalog):
    """Catalog texts write math as $...$, which the write-ups typeset; `derive show` printed it raw
    ("$B^{*}_{\\mathrm{HBM}} = F_{\\mathrm{peak}} \\cdot b_{w}/(2 W_{\\mathrm{HBM}})$")."""
    from derive.writeup.escape import plain_math, plain_prose

    assert plain_math(r"B^{*}_{\mathrm{HBM}} = F_{\mathrm{peak}} \cdot b_{w}/(2 W_{\mathrm{HBM}})") == \
        "B^*_HBM = F_peak · b_w/(2 W_HBM)"
    assert plain_math(r"\frac{a}{b + c} \le 1.97\times10^{14}, 2^{30}, a^{n+1}, \beta_{\max}") == \
        "a/(b + c) ≤ 1.97×10^14, 2^30, a^(n+1), β_max"
    assert plain_prose("a batch of $B$ sequences and $QK^{T}$") == "a batch of B sequences and QK^T"
    with_math = [c.id for c in catalog.conditions.values() if "$" in (c.meaning.en or "")][:5]
    assert with_math
    for lang in ("en", "zh"):
        for cid in with_math:
            out = cli("show", cid, "--lang", lang)
            assert out.code == 0, out.err
            meaning = next(ln for ln in out.out.splitlines() if ln.strip().startswith(("meaning", "含义")))
            assert "$" not in meaning and "\\" not in meaning, meaning
