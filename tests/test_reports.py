"""The worked problems in reports/: committed Markdown matches a fresh render, every answer is
in every format, the LaTeX compiles with xelatex to the right number of pages with the answer
and Chinese text in it, and the HTML opens in headless Chromium with MathML and no raw LaTeX."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import tempfile
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import ROOT, need_tool

from derive import load_catalog
from derive.documents.problems import load_problem
from derive.documents.report import REGENERATE, render_report, report_context

REPORTS = ROOT / "reports"
PROBLEMS = sorted(REPORTS.glob("*.yaml"))
IDS = [p.stem for p in PROBLEMS]
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def contexts():
    catalog = load_catalog()
    out = {}
    for path in PROBLEMS:
        problem = load_problem(path, catalog)
        out[path.stem] = (problem, report_context(problem, catalog), catalog)
    return out


def _render(contexts, stem, fmt, lang):
    problem, context, catalog = contexts[stem]
    return render_report(problem, fmt, lang, catalog=catalog, context=context)


def _answers(context):
    """Each question's answer as the reports print it (mantissa and unit), e.g. '2,896' or '1.25 GiB'."""
    return [q["s"]["answer"]["text"] for q in context["questions"]]


def _typeset_in(answer: str, markup: str) -> bool:
    """Whether Markdown, LaTeX or MathML markup typesets ``answer`` (6.71e11 as 6.71 × 10^{11}; the number of
    25% or 2.562×, whose sign each markup writes its own way)."""
    shown = answer.split()[0].rstrip("%×")
    mantissa, e, exponent = shown.partition("e")
    if not e:
        return shown in markup or shown.replace(",", "{,}") in markup
    return mantissa in markup and re.search(rf"10(\^\{{|</mn>(<mrow>)?<mn>){exponent}\b", markup) is not None


def _shown_in(answer: str, text: str) -> bool:
    """Whether a page's text shows ``answer``: 6.71e11 is typeset as 6.71 × 10^11, which pdftotext and a
    browser flatten to '6.71 × 1011' (spacing aside)."""
    typeset = re.sub(r"(\d(?:\.\d+)?)e\+?(-?\d+)", r"\1×10\2", answer)
    flat = re.sub(r"\s+", "", text)
    return any(re.sub(r"\s+", "", a) in flat for a in (answer, typeset))


def test_the_reports_folder_has_the_required_problems():
    required = {"sb-ch3-problem-1", "sb-ch3-problem-2", "sb-ch3-problem-3", "sb-ch3-problem-4",
                "training-memory-7b", "kv-cache-llama2-70b", "pcie-kv-reload", "gpus-70b-training",
                "engine-inverse-questions"}
    assert required <= set(IDS), sorted(required - set(IDS))


@pytest.mark.parametrize("stem", IDS)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_committed_markdown_is_what_derive_renders_now(contexts, stem, lang):
    committed = REPORTS / f"{stem}.{lang}.md"
    assert committed.exists(), f"{committed.name} is missing; regenerate with: {REGENERATE}"
    fresh = _render(contexts, stem, "md", lang)
    assert committed.read_text(encoding="utf-8") == fresh, \
        f"{committed.name} is out of date; regenerate with: {REGENERATE}"


def test_the_reports_index_lists_every_problem():
    index = (REPORTS / "README.md").read_text(encoding="utf-8")
    for stem in IDS:
        for lang in ("en", "zh"):
            assert f"({stem}.{lang}.md)" in index, f"reports/README.md does not link {stem}.{lang}.md"
    assert REGENERATE in index


@pytest.mark.parametrize("stem", IDS)
def test_every_answer_and_expected_value_is_in_every_format(contexts, stem):
    problem, context, catalog = contexts[stem]
    from derive.documents.problems import expected_value

    for q, view in zip(problem.questions, context["questions"]):
        expected = expected_value(q, catalog)
        if expected is not None and q.tolerance is None:
            assert view["s"]["answer"]["base"] == pytest.approx(float(expected), rel=1e-12), q.id
    for fmt in ("md", "html", "tex", "beamer"):
        for lang in ("en", "zh", "both"):
            out = _render(contexts, stem, fmt, lang)
            for answer in _answers(context):
                assert _typeset_in(answer, out), (fmt, lang, answer)


def test_derive_report_writes_every_format(tmp_path, cli):
    run = cli("report", str(REPORTS / "engine-inverse-questions.yaml"), str(REPORTS / "pcie-kv-reload.yaml"),
              "--lang", "en,zh,both", "--format", "md,html,tex,beamer", "-o", str(tmp_path))
    assert run.code == 0, run.err
    names = sorted(p.name for p in tmp_path.iterdir())
    assert len(names) == 2 * 3 * 4 and len(run.out.splitlines()) == 24
    assert "engine-inverse-questions.both.slides.tex" in names and "pcie-kv-reload.zh.html" in names
    assert "26.84 ms" in (tmp_path / "pcie-kv-reload.en.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("args, words", [
    (["--format", "docx"], "unknown format 'docx'"),
    (["--lang", "fr", "-o", "X"], "unknown lang 'fr'"),
    (["--format", "md,html"], "need -o DIR"),
])
def test_derive_report_refuses_bad_options_in_one_line(cli, args, words):
    run = cli("report", str(REPORTS / "pcie-kv-reload.yaml"), *args)
    assert run.code == 2 and words in run.err and run.err.count("\n") == 1


def test_derive_report_names_a_broken_problem_file(tmp_path, cli):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\ntitle: {en: T, zh: 题}\nstatement: {en: S, zh: 述}\nquestions:\n"
                   "  - id: q\n    ask: {en: A, zh: 问}\n    solve: no_such_quantity\n", encoding="utf-8")
    run = cli("report", str(bad), "--format", "md", "--lang", "en")
    assert run.code == 2 and "bad.yaml:5" in run.err and "no_such_quantity" in run.err


def test_a_problem_writes_its_own_letters_in_every_format(contexts):
    """Problem 1 writes the paper's N and d (``symbols: {seq_len: N, head_dim: d}``) where the catalog has S
    and H, in its formulas, its given values and every format; the catalog keeps its own letters."""
    problem, context, catalog = contexts["sb-ch3-problem-1"]
    assert dict(problem.symbols) == {"seq_len": "N", "head_dim": "d"}
    assert catalog.quantities["seq_len"].latex == "S" and catalog.quantities["head_dim"].latex == "H"
    given = {g["id"]: g["symbol"] for g in context["questions"][0]["s"]["given"]}
    assert given["seq_len"] == "N" and given["head_dim"] == "d"
    for fmt in ("md", "tex", "beamer"):
        out = _render(contexts, "sb-ch3-problem-1", fmt, "en")
        assert r"4 \cdot N \cdot d + 4 \cdot N^{2}" in out and r"\cdot S \cdot H" not in out, fmt
    html = _render(contexts, "sb-ch3-problem-1", "html", "zh")
    assert "<mi>N</mi>" in html and "<mi>S</mi>" not in html


@pytest.mark.parametrize("symbols, words", [
    ("{seq_len: e}", "seq_len is written e, which question standard-bytes also uses for bytes_per_element"),
    ("{seq_len: N, head_dim: N}", "head_dim and seq_len are both written N"),
    ("{seq_len: '\\input{x}'}", "\\input is not allowed"),
    ("{no_such_quantity: N}", "unknown quantity 'no_such_quantity'"),
    ("[N]", "symbols maps quantity names to the letters"),
])
def test_a_problem_file_letter_is_checked(tmp_path, cli, symbols, words):
    text = (REPORTS / "sb-ch3-problem-1.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "p.yaml"
    bad.write_text(re.sub(r"^symbols: .*$", lambda _: "symbols: " + symbols, text, flags=re.M), encoding="utf-8")
    run = cli("report", str(bad), "--format", "md", "--lang", "en")
    assert run.code == 2 and words in run.err and "p.yaml" in run.err, run.err


# ---------------------------------------------------------------------------
# LaTeX: every report's article and slides, compiled once each with xelatex (in parallel)


def _frames_allowed(context) -> int:
    """A lecture deck: title, outline and summary, and at most two frames per question (issue 11); the
    numbered sources are on the summary frame or the title frame, never on a frame of their own."""
    return 2 * len(context["questions"]) + 3


@pytest.fixture(scope="module")
def compiled(contexts, tmp_path_factory):
    """{(stem, kind): (pdf path, log text, return code)} for kind in article, slides (lang both)."""
    xelatex = need_tool("xelatex")
    root = tmp_path_factory.mktemp("pdf")
    jobs = []
    for stem in IDS:
        for kind, fmt in (("article", "tex"), ("slides", "beamer")):
            folder = root / f"{stem}-{kind}"
            folder.mkdir()
            (folder / "doc.tex").write_text(_render(contexts, stem, fmt, "both"), encoding="utf-8")
            jobs.append((stem, kind, folder))

    def run(job):
        stem, kind, folder = job
        proc = subprocess.run([xelatex, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "doc.tex"],
                              cwd=folder, capture_output=True, text=True, timeout=300)
        log = (folder / "doc.log").read_text(encoding="utf-8", errors="replace")
        return (stem, kind), (folder / "doc.pdf", log, proc.returncode)

    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(pool.map(run, jobs))


def _pdf_pages_and_text(pdf: Path) -> tuple[int, str]:
    info = subprocess.run([need_tool("pdfinfo"), str(pdf)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    text = subprocess.run([need_tool("pdftotext"), "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    return pages, text


@pytest.mark.parametrize("stem", IDS)
@pytest.mark.parametrize("kind", ["article", "slides"])
def test_latex_compiles_with_the_answers_and_chinese_text(compiled, contexts, stem, kind):
    from derive.writeup.latex_build import tex_errors

    pdf, log, code = compiled[(stem, kind)]
    assert code == 0, f"xelatex failed: {' '.join(tex_errors(log))}"
    assert "Missing character" not in log, [ln for ln in log.splitlines() if "Missing character" in ln][:3]
    pages, text = _pdf_pages_and_text(pdf)
    _, context, _ = contexts[stem]
    if kind == "slides":
        assert len(context["questions"]) + 3 <= pages <= _frames_allowed(context), "one frame per question"
    else:
        assert 1 <= pages <= 6 * len(context["questions"]) + 2
    flat = re.sub(r"\s+", " ", text)
    for answer in _answers(context):
        assert _shown_in(answer, flat), f"answer {answer!r} is not in the PDF text"
    title_zh = context["problem"]["title"]["zh"]
    chinese = max(re.findall(r"[\u4e00-\u9fff]+", title_zh), key=len)
    assert chinese in flat.replace(" ", ""), "the Chinese title is not in the PDF text"
    for word in ("答案", "提纲") if kind == "slides" else ("已知量", "答案", "验算"):
        assert word in flat.replace(" ", "")


def _page_text(pdf: Path, first: int, last: int) -> str:
    return subprocess.run([need_tool("pdftotext"), "-f", str(first), "-l", str(last), str(pdf), "-"],
                          capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("stem", IDS)
def test_a_deck_lists_every_source_on_its_title_or_its_summary_frame(compiled, contexts, stem):
    """The title frame names the problem's own source; the numbered list, whole, is on the closing frame
    under or beside the answers or, when it fits neither way, on the title frame: never on a frame of its
    own (the summary's continuation held the sources alone)."""
    pdf, _, code = compiled[(stem, "slides")]
    citations = contexts[stem][1]["citations"]
    if code != 0 or len(citations) < 2:
        pytest.skip("no deck or a single source")
    pages, _ = _pdf_pages_and_text(pdf)
    title, closing = (re.sub(r"\s+", "", _page_text(pdf, n, n)) for n in (1, pages))
    assert "答案一览" in closing
    where = [text for text in (title, closing) if "参考出处" in text]
    assert len(where) == 1, "the sources on one frame, the title or the summary"
    assert all(f"[{c['number']}]" in where[0] for c in citations), where[0]


def _outline_items(pdf: Path) -> int:
    """How many bookmarks (outline items: dictionaries with a /Parent and a /Title) the PDF holds,
    in its plain objects and its compressed object streams."""
    data = pdf.read_bytes()
    chunks = [data]
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
        try:
            chunks.append(zlib.decompress(m.group(1)))
        except zlib.error:
            continue
    item = re.compile(rb"/Title\s*(?:<[0-9a-fA-F]*>|\((?:[^()\\]|\\.)*\))(?:(?!/Title).){0,200}?/Parent", re.S)
    return sum(len(item.findall(c)) for c in chunks)


@pytest.mark.parametrize("stem", IDS)
@pytest.mark.parametrize("kind", ["article", "slides"])
def test_one_xelatex_run_builds_a_write_up_with_its_links(compiled, contexts, stem, kind):
    # links and bookmarks need no .aux file, so no second run (issue 11: PDFs built fast); an article
    # has a bookmark per question
    pdf, log, code = compiled[(stem, kind)]
    assert code == 0
    assert not re.search(r"Rerun to get (?!/PageLabels)|Label\(s\) may have changed", log), stem
    if kind == "article":
        assert _outline_items(pdf) >= len(contexts[stem][1]["questions"])


def test_beamer_frames_fit_their_slides(compiled):
    """A question too long for its frame continues on the next, never cut: no overfull vbox beyond rounding."""
    for (stem, kind), (_, log, code) in compiled.items():
        if kind != "slides" or code != 0:
            continue
        big = [float(x) for x in re.findall(r"Overfull \\vbox \(([\d.]+)pt too high\)", log)]
        assert all(b < 6 for b in big), (stem, big)
        wide = [float(x) for x in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]
        assert all(w < 12 for w in wide), (stem, wide)


def test_an_article_keeps_its_tables_on_the_page_and_its_headings_with_what_follows(compiled):
    """Read as pages (issue 11): Problem 4's article had a blank page 2 and its answers table running off
    the foot of page 3 over the page number (three cells a row set in five columns); "已知量", "答案" and
    "说明" were left alone at the foot of a page, their table, box or list on the next."""
    from derive.writeup.render import message_table

    table = message_table()
    leads = {t for key in ("w_given", "w_derivation", "w_answer", "w_notes", "w_check") for t in table[key].values()}
    leads |= {f"{table[key]['zh']} / {table[key]['en']}" for key in ("w_given", "w_derivation", "w_answer",
                                                                      "w_notes", "w_check")}
    for (stem, kind), (pdf, log, code) in compiled.items():
        if kind != "article" or code != 0:
            continue
        high = [float(x) for x in re.findall(r"Overfull \\vbox \(([\d.]+)pt too high\)", log)]
        assert not high, (stem, high)
        pages = subprocess.run([need_tool("pdftotext"), "-layout", str(pdf), "-"], capture_output=True, text=True,
                               check=True).stdout.split("\f")[:-1]
        for n, page in enumerate(pages, start=1):
            lines = [ln.strip() for ln in page.splitlines() if ln.strip() and not re.fullmatch(r"\s*\d+\s*", ln)]
            assert lines, (stem, n, "an empty page")
            assert lines[-1] not in leads, (stem, n, lines[-1])
            assert not re.fullmatch(r"(Question|问题) \d+", lines[-1]), (stem, n, "a question's heading alone")
        # every page but the last is filled: a heading kept with its table broke the page as soon as the
        # room was short, and Problem 4's zh article and the sharding one had pages 22-60 % full
        fills = _page_fills(pdf)
        assert all(f >= 0.6 for f in fills[:-1]), (stem, [round(f, 2) for f in fills])


def _page_fills(pdf: Path) -> list[float]:
    """How far down each page its text reaches (the page number left out), as a fraction of the page."""
    out = subprocess.run([need_tool("pdftotext"), "-bbox", str(pdf), "-"], capture_output=True, text=True,
                         check=True).stdout
    fills = []
    for page in out.split("<page ")[1:]:
        height = float(re.search(r'height="([\d.]+)"', page).group(1))
        body = [float(y) for y in re.findall(r'yMax="([\d.]+)"', page) if float(y) < 0.92 * height]
        fills.append(max(body) / height if body else 0.0)
    return fills


# ---------------------------------------------------------------------------
# HTML in headless Chromium


def _chromium(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    exe = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if exe is None:
        need_tool("chromium")
    with tempfile.TemporaryDirectory(prefix="derive-chromium-") as profile:
        return subprocess.run([exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args], capture_output=True,
                              text=True, timeout=timeout)


@pytest.fixture(scope="module")
def browsed(contexts, tmp_path_factory):
    """{stem: (dom, png path)} for every report's --lang both page."""
    root = tmp_path_factory.mktemp("html")
    pages = {}
    for stem in IDS:
        page = root / f"{stem}.html"
        page.write_text(_render(contexts, stem, "html", "both"), encoding="utf-8")
        pages[stem] = page

    def visit(stem):
        page = pages[stem]
        png = page.with_suffix(".png")
        # one browser run takes the screenshot and prints the DOM after layout
        run = _chromium(f"--screenshot={png}", "--window-size=1100,1600", "--dump-dom", page.as_uri())
        assert run.returncode == 0, run.stderr[-500:]
        return stem, (run.stdout, png)

    if not (shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")):
        need_tool("chromium")
    with ThreadPoolExecutor(max_workers=3) as pool:
        return dict(pool.map(visit, IDS))


@pytest.mark.parametrize("stem", IDS)
def test_html_opens_in_chromium_with_mathml_and_no_raw_latex(browsed, contexts, stem):
    from test_render import page_text

    dom, png = browsed[stem]
    assert png is not None and png.exists()
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", head[16:24]) == (1100, 1600)
    assert png.stat().st_size > 20_000, "the screenshot is (nearly) blank"
    parsed = page_text(dom)
    text = "".join(parsed.text)
    for raw in ("\\frac", "\\mathrm", "$$", "\\left", "\\cdot", "\\sqrt", "\\le ", "{,}"):
        assert raw not in text, f"raw LaTeX {raw!r} reached the page text"
    _, context, _ = contexts[stem]
    steps = sum(len(q["s"]["steps"]) for q in context["questions"])
    assert parsed.tags.count("math") >= 2 * steps
    flat = re.sub(r"\s+", " ", text)
    for answer in _answers(context):          # as text, or as MathML (a power of ten)
        assert _shown_in(answer, flat) or ("e" in answer and _typeset_in(answer, dom)), answer
    assert context["problem"]["title"]["zh"][:6] in flat


def test_every_catalog_text_in_the_reports_has_both_languages(contexts):
    from test_render import _bilingual_texts

    for stem, (_, context, _) in contexts.items():
        for path, texts in _bilingual_texts(context, stem):
            assert texts["en"].strip() and texts["zh"].strip(), f"{path} lacks a translation"


def test_report_templates_can_be_overridden(tmp_path, cli):
    (tmp_path / "report.md.j2").write_text(
        "{{ pick(problem.title, lang) }}|{% for q in questions %}{{ q.s.answer.text }};{% endfor %}\n",
        encoding="utf-8")
    run = cli("report", str(REPORTS / "engine-inverse-questions.yaml"), "--lang", "zh", "--format", "md",
              "--templates", str(tmp_path))
    assert run.code == 0, run.err
    assert run.out == "三个反问题：求条件允许的取值|2,896;2,828;2,816;481;14;\n"


@pytest.mark.parametrize("stem", IDS)
def test_no_two_quantities_of_a_write_up_share_a_symbol(contexts, stem):
    """A reader cannot tell two quantities apart if both print as F (peak FLOP/s and the FFN width did)."""
    problem, _, catalog = contexts[stem]
    from derive.documents.problems import solve_problem

    notation = catalog.with_symbols(dict(problem.symbols))       # the problem's own letters
    for q, sol in solve_problem(problem, catalog):
        names = {g.name for g in sol.given} | {u for st in sol.steps for u in st.solved_for} | \
                {s.name for st in sol.steps for e in st.equations for s in e.free_symbols}
        seen: dict[str, str] = {}
        for name in sorted(names):
            latex = notation.quantities[name].latex
            assert latex not in seen, f"question {q.id}: {seen[latex]} and {name} both print as {latex}"
            seen[latex] = name


def _summary_rows(markdown: str) -> list[tuple[str, str]]:
    """(quantity, answer) of each row of a Markdown report's answers-at-a-glance table."""
    table = markdown.split('<a id="summary"></a>', 1)[1].split("<a id=", 1)[0]
    rows = [line.strip("| ").split(" | ") for line in table.splitlines() if line.startswith("| [")]
    return [(cells[1], cells[2]) for cells in rows]


@pytest.mark.parametrize("stem", IDS)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_two_answers_at_a_glance_read_alike(contexts, stem, lang):
    """Questions asking for one quantity are told apart in the summary by the values or conditions that
    differ (Problem 4's three PCIe load times: n_PCIe = 1, 16, 8), never three rows of one label."""
    rows = _summary_rows(_render(contexts, stem, "md", lang))
    assert len(rows) == len(contexts[stem][1]["questions"])
    assert len(set(rows)) == len(rows), [r for r in rows if rows.count(r) > 1]


def test_the_summary_names_what_sets_questions_apart(contexts):
    """The value that differs (given in one question, derived in another) and a bound's own condition
    or multiple, in the question's language and punctuation."""
    en = dict(_summary_rows(_render(contexts, "sb-ch3-problem-4", "md", "en")))
    assert r"PCIe load time ($n_{\mathrm{PCIe}} = 1$)" in en
    assert r"PCIe load time ($n_{\mathrm{PCIe}} = 8$)" in en
    assert r"ICI gather time ($M_{A} = 17.18\,\mathrm{GB}$)" in en       # derived in Question 4
    assert r"ICI gather time ($M_{A} = 16\,\mathrm{GB}$)" in en          # given in Question 11
    assert "weight matrix bytes" in en                                   # asked once: no aside
    zh = [q for q, _ in _summary_rows(_render(contexts, "sb-ch3-problem-4", "md", "zh"))]
    assert r"PCIe 加载时间（ $n_{\mathrm{PCIe}} = 16$）" in zh
    answers = [a for _, a in _summary_rows(_render(contexts, "engine-inverse-questions", "md", "en"))]
    assert r"$D \le 2{,}816$ (rounded to a multiple of 128)" in answers
    sharding = [q for q, _ in _summary_rows(_render(contexts, "sb-llama3-70b-sharding", "md", "en"))]
    assert r"tokens per chip ($B/N \ge B^{*}_{\mathrm{FSDP+TP}}$)" in sharding
