"""User text with LaTeX and HTML specials renders safely in every format.

A user formula file and a problem file put ``% & _ # $ { } ~ ^ \\``, ``<script>``, ``</math>``,
an ``<img onerror=...>``, quotes, backticks and a ``javascript:`` link into every text a
write-up shows: names and meanings (English and Chinese), relation, condition and preset names,
a preset value's note, a reference's title and URL, a problem's title, statement, assumptions
and questions. Then:

* Markdown, rendered by a CommonMark renderer, shows the characters and makes no HTML element;
* HTML has no element or attribute from the text (no ``<script>``, no ``<img>``, no ``on...=``,
  no ``javascript:`` link), shows the characters, and headless Chromium runs no script in it;
* LaTeX (article and slides, English, Chinese and both) compiles with xelatex, and the PDF's text
  shows the characters.
"""

from __future__ import annotations

import html
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from conftest import need_tool

from derive import load_catalog, solve
from derive.writeup.render import render_solution

PAYLOAD = ("<script>document.title='PWNED'</script> <img src=x onerror=\"document.body.dataset.pwned=1\"> "
           "</math> \"dq\" 'sq' `bt` *st* [l](javascript:alert(1))")
TEX_CHARS = "50% & more_under #1 $5 {x} ~ ^ \\"
EN = f"{TEX_CHARS} {PAYLOAD}"
ZH = f"特殊 {TEX_CHARS} <b>粗</b> </math> {PAYLOAD}"


def text(en: str = EN, zh: str = ZH) -> dict[str, str]:
    return {"en": en, "zh": zh}


def user_formulas() -> dict:
    return {
        "references": [{"id": "specials-ref", "kind": "measured", "title": f"A reference: {EN}",
                        "url": "https://example.com/a%20b?x=1&y=<script>#frag{}\\^~"}],
        "quantities": [
            {"id": "special_bytes", "unit": "B", "symbol": r"S_{\mathrm{sp}}", "name": text(),
             "meaning": text("Meaning: " + EN, "含义：" + ZH), "source": f"specials-ref, p. 3 {TEX_CHARS} <i>x</i>"},
            {"id": "special_count", "unit": "1", "type": "integer", "symbol": r"n_{\mathrm{sp}}",
             "name": text("count " + EN, "个数 " + ZH), "meaning": text(), "source": "specials-ref"},
            {"id": "special_cap", "unit": "B", "symbol": r"C_{\mathrm{sp}}", "name": text("capacity " + EN),
             "meaning": text(), "source": "specials-ref",
             "default": {"value": "1 MB", "note": "a default " + EN}},
        ],
        "relations": [{"id": "special_bytes", "equation": "special_bytes = special_count * bytes_per_element",
                       "name": text("relation " + EN), "meaning": text(), "source": "specials-ref"}],
        "conditions": [{"id": "special_fits", "require": "special_bytes <= special_cap",
                        "name": text("condition " + EN), "meaning": text(), "source": "specials-ref"}],
        "presets": [{"id": "special-hw", "kind": "hw", "name": text("preset " + EN), "source": "specials-ref",
                     "values": {"special_cap": {"value": "64 kB", "note": "a note " + EN}}}],
    }


def problem() -> dict:
    return {
        "id": "specials", "title": text("Title " + EN), "statement": text("Statement " + EN),
        "assumptions": [text("Assumption " + EN)], "hw": "special-hw",
        "questions": [
            {"id": "bytes", "ask": text("Ask " + EN), "solve": "special_bytes", "given": {"special_count": 3},
             "note": text("Note " + EN)},
            {"id": "most", "ask": text("Most " + EN), "solve": "special_count", "bound": "max",
             "require": ["special_fits"]},
        ],
    }


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("specials")
    formulas = folder / "specials.yaml"
    formulas.write_text(yaml.safe_dump(user_formulas(), allow_unicode=True, sort_keys=False), encoding="utf-8")
    prob = folder / "problem.yaml"
    prob.write_text(yaml.safe_dump(problem(), allow_unicode=True, sort_keys=False), encoding="utf-8")
    return {"formulas": formulas, "problem": prob, "folder": folder}


@pytest.fixture(scope="module")
def solutions(files):
    cat = load_catalog([files["formulas"]])
    return [solve("special_bytes", {"special_count": 3}, catalog=cat),
            solve("special_count", hw="special-hw", bound="max", require=["special_fits"], catalog=cat)]


# ---------------------------------------------------------------------------
# what a browser sees


class Page(HTMLParser):
    """Elements, attributes and the text of an HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str]] = []
        self.chunks: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend((k, v or "") for k, v in attrs)
        if tag in ("style", "script", "title"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in ("style", "script", "title") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.chunks.append(data)

    @property
    def text(self) -> str:
        return " ".join(" ".join(self.chunks).split())


def page(source: str) -> Page:
    p = Page()
    p.feed(source)
    p.close()
    return p


def assert_inert(p: Page, where: str) -> None:
    """No element or attribute that the user's text could have made."""
    assert not {"script", "img", "iframe", "object", "embed", "b", "i"} & set(p.tags), (where, set(p.tags))
    assert not [k for k, _ in p.attrs if k.startswith("on")], where
    assert not [v for k, v in p.attrs if k in ("href", "src") and v.strip().lower().startswith("javascript:")], where
    assert p.tags.count("style") <= 1, where      # the template's own stylesheet, nothing more


def shown(s: str) -> str:
    return " ".join(s.split())


def straight(s: str) -> str:
    """Problem files' prose is typeset with curly quotes ('sq' as ‘sq’): compare it with them straightened."""
    return s.translate(str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"'}))


# ---------------------------------------------------------------------------
# Markdown


@pytest.mark.parametrize("lang", ["en", "zh", "both"])
def test_markdown_shows_the_text_and_makes_no_html(solutions, lang):
    from markdown_it import MarkdownIt

    renderer = MarkdownIt("commonmark").enable("table")
    for sol in solutions:
        md = render_solution(sol, "md", lang=lang)
        p = page(renderer.render(md))
        assert_inert(p, f"md {sol.target} {lang}")
        want = EN if lang == "en" else ZH
        assert shown(want) in p.text, (want, p.text[:600])


# ---------------------------------------------------------------------------
# HTML


@pytest.mark.parametrize("lang", ["en", "zh", "both"])
def test_html_escapes_every_special(solutions, lang):
    for sol in solutions:
        source = render_solution(sol, "html", lang=lang)
        p = page(source)
        assert_inert(p, f"html {sol.target} {lang}")
        want = EN if lang == "en" else ZH
        assert shown(want) in p.text
        assert html.escape("<script>", quote=False) in source and "<script" not in source


def test_html_runs_no_script_in_chromium(solutions, tmp_path):
    chromium = need_tool("chromium")
    for i, sol in enumerate(solutions):
        out = tmp_path / f"page{i}.html"
        out.write_text(render_solution(sol, "html", lang="both"), encoding="utf-8")
        run = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                              out.as_uri()], capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr[-2000:]
        dom = run.stdout
        assert "<body" in dom
        assert "data-pwned" not in dom and "<title>PWNED" not in dom
        p = page(dom)
        assert_inert(p, f"chromium {sol.target}")
        assert shown(EN) in p.text and shown(ZH) in p.text


# ---------------------------------------------------------------------------
# LaTeX: article and slides compile, and the PDF shows the characters


def pdf_text(pdf: Path) -> str:
    need_tool("pdftotext")
    run = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return " ".join(run.stdout.split())


@pytest.mark.parametrize("fmt, lang", [("tex", "en"), ("tex", "both"), ("beamer", "zh")])
def test_latex_compiles_and_the_pdf_shows_the_specials(solutions, tmp_path, fmt, lang):
    need_tool("xelatex")
    need_tool("latexmk")
    from derive.writeup.latex_build import compile_tex

    for i, sol in enumerate(solutions):
        source = render_solution(sol, fmt, lang=lang)
        pdf = compile_tex(source, tmp_path / f"{fmt}-{lang}-{i}.pdf")
        got = pdf_text(pdf)
        assert TEX_CHARS in got, got[:600]
        assert "<script>document.title='PWNED'</script>" in got.replace("’", "'").replace("‘", "'")
        if lang != "en":
            assert "特殊" in got


def test_pdf_from_the_cli(files, tmp_path, cli):
    need_tool("xelatex")
    out = tmp_path / "special.pdf"
    run = cli("solve", "special_count", "--max", "--require", "special_fits", "--hw", "special-hw",
              "--formulas", str(files["formulas"]), "--format", "pdf", "--lang", "both", "-o", str(out),
              env={"DERIVE_CACHE_DIR": str(tmp_path / "cache")})
    assert run.code == 0, run.err
    got = pdf_text(out)
    assert TEX_CHARS in got and "特殊" in got


# ---------------------------------------------------------------------------
# problem files: derive report


def test_report_of_a_problem_file_with_specials(files, tmp_path, cli):
    from markdown_it import MarkdownIt

    out = tmp_path / "reports"
    run = cli("report", str(files["problem"]), "--formulas", str(files["formulas"]), "--format", "md,html,tex",
              "--lang", "both", "-o", str(out), env={"DERIVE_CACHE_DIR": str(tmp_path / "cache")})
    assert run.code == 0, run.err
    written = {p.suffix: p for p in out.iterdir()}
    assert {".md", ".html", ".tex"} <= set(written)
    md_page = page(MarkdownIt("commonmark").enable("table").render(written[".md"].read_text(encoding="utf-8")))
    html_page = page(written[".html"].read_text(encoding="utf-8"))
    for where, p in (("report md", md_page), ("report html", html_page)):
        assert_inert(p, where)
        for piece in ("Title ", "Statement ", "Assumption ", "Ask ", "Note "):
            assert shown(piece + EN) in straight(p.text), (where, piece)
    if need_tool("xelatex"):
        from derive.writeup.latex_build import compile_tex

        got = pdf_text(compile_tex(written[".tex"].read_text(encoding="utf-8"), tmp_path / "report.pdf"))
        assert "Statement " + TEX_CHARS in got
