"""Write-ups a teacher would hand out (issue 11): measured on the committed reports and on the decks.

- no committed write-up has an "x = x" check or a derivation row whose two sides print the same;
- no raw ``_``, ``^`` or ``1e+NN`` math in prose (problem files write math as ``$...$``);
- language hygiene: Chinese reports have no English phrases outside quotes, code and math; English
  reports no Chinese outside quotes; Markdown math renders on GitHub's rules (a space between CJK
  text or punctuation and ``$``);
- lecture decks: at most two frames per question plus title, outline and summary, and one more for
  the numbered sources when a deck cites more than one (Problem 4 at most 16), and no text smaller
  than 9 pt on any frame (``pdftotext -bbox``).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import need_tool

ROOT = Path(__file__).resolve().parent.parent
REPORTS = sorted((ROOT / "reports").glob("*.yaml"))
WRITEUPS = sorted(p for p in (ROOT / "reports").glob("*.md") if p.name != "README.md" and ".src." not in p.name)


def _displays(md: str) -> list[str]:
    return re.findall(r"^\$\$\n(.*?)\n\$\$$", md, flags=re.S | re.M)


def _inline(md: str) -> list[str]:
    return re.findall(r"(?<![\\$])\$([^$\n]+?)(?<!\\)\$", md)


def _prose(md: str) -> str:
    """The text a reader reads as words: math, code, links' targets, HTML comments and anchors removed."""
    text = re.sub(r"^\$\$\n.*?\n\$\$$", "", md, flags=re.S | re.M)
    text = re.sub(r"<!--.*?-->|<a id=\"[^\"]*\"></a>", "", text, flags=re.S)
    text = re.sub(r"(?<![\\$])\$[^$\n]+?(?<!\\)\$", " ", text)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\]\(<?[^)>]*>?\)", "]", text)
    return text


@pytest.mark.parametrize("path", WRITEUPS, ids=lambda p: p.name)
def test_no_tautology_in_any_committed_writeup(path):
    md = path.read_text(encoding="utf-8")
    assert "both sides agree" not in md and "两边相等" not in md
    for block in _displays(md) + _inline(md):
        for row in re.split(r"\\\\", block.replace("\\begin{aligned}", "").replace("\\end{aligned}", "")):
            sides = [s.strip().lstrip("&").strip() for s in re.split(r"&?=|\\le\b|\\ge\b", row)]
            sides = [s for s in sides if s]
            for a, b in zip(sides, sides[1:]):
                assert a != b, f"{path.name}: a row whose two sides print the same: {row.strip()!r}"


@pytest.mark.parametrize("path", WRITEUPS, ids=lambda p: p.name)
def test_no_raw_math_in_prose(path):
    prose = _prose(path.read_text(encoding="utf-8"))
    for pattern, what in ((r"\b[A-Za-z]\\_[A-Za-z]+\b(?![\\_])", "a subscript typed as _"),
                          (r"\d\^\d|\w\^\{", "a power typed as ^"),
                          (r"\b\d+(?:\.\d+)?e[+-]?\d+\b", "a number typed as 1e+NN")):
        found = re.findall(r".{0,30}(?:" + pattern + r").{0,20}", prose)
        assert not found, f"{path.name}: {what} in prose: {found[:3]}"


_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


@pytest.mark.parametrize("path", [p for p in WRITEUPS if ".en." in p.name], ids=lambda p: p.name)
def test_english_writeups_have_no_chinese_outside_quotes(path):
    prose = _prose(path.read_text(encoding="utf-8"))
    prose = re.sub(r"“[^”]*”|「[^」]*」|'[^'\n]*[\u4e00-\u9fff][^'\n]*'|\[中文版\]", "", prose)
    lines = [ln for ln in prose.splitlines() if _HAN.search(ln)]
    assert not lines, f"{path.name}: Chinese in an English write-up: {lines[:3]}"


@pytest.mark.parametrize("path", [p for p in WRITEUPS if ".zh." in p.name], ids=lambda p: p.name)
def test_chinese_writeups_have_no_english_phrases_outside_quotes(path):
    prose = _prose(path.read_text(encoding="utf-8"))
    prose = re.sub(r"“[^”]*”|\[English version\]|\([a-z0-9-]+\)", "", prose)
    # three lowercase English words in a row are a phrase, not a name, unit or identifier
    found = re.findall(r"\b[a-z]{2,}\s+[a-z]{2,}\s+[a-z]{2,}\b", prose)
    assert not found, f"{path.name}: English phrases in a Chinese write-up: {found[:5]}"


@pytest.mark.parametrize("path", [p for p in WRITEUPS if ".zh." in p.name], ids=lambda p: p.name)
def test_chinese_markdown_math_renders_on_github(path):
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("$$"):
            continue
        bad = re.findall(r"[\u3000-\u303f\uff00-\uffef\u4e00-\u9fff]\$[^$\s]", line)
        assert not bad, f"{path.name}: inline math right after Chinese text: {line[:80]!r}"
        assert not re.search(r"[\u4e00-\u9fff][A-Za-z]{2,}|[A-Za-z]{2,}[\u4e00-\u9fff]", _prose(line)), \
            f"{path.name}: no space between Chinese and Latin text: {line[:80]!r}"


# ---------------------------------------------------------------------------
# decks


def _min_word_heights(pdf: Path) -> list[float]:
    out = subprocess.run([shutil.which("pdftotext") or "pdftotext", "-bbox", str(pdf), "-"], capture_output=True,
                         text=True, check=True).stdout
    heights = []
    for page in out.split("<page ")[1:]:
        hs = [float(m.group(2)) - float(m.group(1))
              for m in re.finditer(r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">', page)]
        heights.append(min(hs) if hs else 99.0)
    return heights


@pytest.fixture(scope="module")
def decks(tmp_path_factory):
    """Every problem file's deck in both languages, compiled concurrently: {stem: (pdf, frames allowed)}."""
    need_tool("xelatex")
    need_tool("pdftotext")
    from derive import load_catalog
    from derive.latex_build import compile_many
    from derive.problems import load_problem
    from derive.report import render_report, report_context

    catalog = load_catalog()
    out = tmp_path_factory.mktemp("decks")
    jobs, allowed = [], {}
    for path in REPORTS:
        problem = load_problem(path, catalog)
        context = report_context(problem, catalog)
        n = len(context["questions"])
        # title, outline, summary and at most two frames a question; the numbered sources close the deck
        # and may take a frame of their own after the summary
        allowed[path.stem] = (n + 3, 2 * n + 3 + int(len(context["citations"]) > 1))
        jobs.append((render_report(problem, "beamer", "both", catalog=catalog, context=context),
                     out / f"{path.stem}.pdf"))
    compile_many(jobs)
    return {stem: (out / f"{stem}.pdf", bounds) for stem, bounds in allowed.items()}


def test_decks_have_one_frame_per_question(decks):
    for stem, (pdf, (least, most)) in decks.items():
        pages = int(re.search(r"Pages:\s+(\d+)", subprocess.run(["pdfinfo", str(pdf)], capture_output=True,
                                                                 text=True).stdout).group(1))
        assert least <= pages <= most, (stem, pages, least, most)
        if stem == "sb-ch3-problem-4":
            assert pages <= 16, pages


def test_no_text_on_any_frame_is_smaller_than_9_pt(decks):
    for stem, (pdf, _) in decks.items():
        heights = _min_word_heights(pdf)
        assert min(heights) >= 9, (stem, [(i + 1, round(h, 2)) for i, h in enumerate(heights) if h < 9])
