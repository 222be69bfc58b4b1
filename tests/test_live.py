"""Live sources: every number an engine call, the showcase kept in sync, errors naming the source line."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT, need_tool

from derive import TemplateError, solve
from derive.documents.live import render_source

SHOWCASE_SOURCE = ROOT / "reports" / "bandwidth-wall.zh.src.md"
SHOWCASE = ROOT / "reports" / "bandwidth-wall.zh.md"


def render(tmp_path: Path, text: str, name: str = "t.md", **kw) -> str:
    src = tmp_path / name
    src.write_text(text, encoding="utf-8")
    return render_source(src, **kw)


# ---------------------------------------------------------------------------
# the showcase


def test_showcase_is_in_sync_with_its_source(tmp_path):
    """The committed rendering equals a fresh one (regenerate with the command in the source's header)."""
    out = tmp_path / "reports" / SHOWCASE.name
    out.parent.mkdir()
    fresh = render_source(SHOWCASE_SOURCE, output=out, lang="zh")
    assert fresh == SHOWCASE.read_text(encoding="utf-8"), (
        "reports/bandwidth-wall.zh.md is stale: run "
        "derive render reports/bandwidth-wall.zh.src.md --lang zh -o reports/bandwidth-wall.zh.md")
    images = re.findall(r"!\[[^\]]*\]\((img/[^)]+)\)", fresh)
    assert len(images) == 4
    for rel in images:
        committed = ROOT / "reports" / rel
        assert committed.is_file(), f"{rel} is referenced but not committed"
        assert 30_000 < committed.stat().st_size < 1_000_000
        assert (out.parent / rel).is_file()


def test_showcase_source_types_no_computed_number():
    """Outside the engine calls, digits appear only in the chapter's inputs and labels."""
    text = SHOWCASE_SOURCE.read_text(encoding="utf-8")
    prose = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", " ", text, flags=re.S)
    tokens = set(re.findall(r"[^\s|（）()：:，。、；;「」《》*`$\\{}]*\d[^\s|（）()：:，。、；;「」《》*`$\\{}]*", prose))
    allowed = {
        "03", "16·P", "7B", "70B", "L1", "L2", "A100", "H100", "FP16", "FP32", "BF16", "FP8", "1",
        "4096³", "3×3", "128", "56×56", "4096×4096", "2048", "4", "10", "200", "2012", "2020", "2024",
        "estimate_training_memory(7,", "7,", "4,", "32)", "32", "1/", "2048,", "4096,", "h100", "a100", "example-7b", "bandwidth-wall.zh.src.md",
    }
    assert tokens <= allowed, sorted(tokens - allowed)


def test_showcase_numbers_are_the_engines():
    text = SHOWCASE.read_text(encoding="utf-8")
    assert f"= **{solve('critical_ai', hw='a100').display()}**" in text                    # 156 FLOP/B
    add = solve("elementwise_intensity", presets=["op-add", "fp16"])
    gap = solve("intensity_gap", {"arithmetic_intensity": add.value}, hw="a100")
    assert f"差了 {gap.display()} 倍" in text and gap.value == 936                         # not the chapter's 900
    act = solve("activation_bytes", {"batch": 4, "seq_len": 2048}, model="example-7b",
                presets=["adam-mixed", "chapter-activations"])
    assert f"batch = 4、序列长度 2048 时 {act.display()}" in text                          # 73.01 GB, not 35
    assert "| 2024 | NVIDIA H100 SXM | 989 TFLOP/s | 3.35 TB/s | 295.2 FLOP/B |" in text
    assert "| \\# 激活 35.0 GB | 35.0 GB | 73.01 GB |" in text                             # the erratum table


# ---------------------------------------------------------------------------
# q(), const(), filters


def test_q_formats_with_units_and_converts(tmp_path):
    out = render(tmp_path, "\n".join([
        '{{ q("critical_ai", hw="a100") }}',
        '{{ q("kv_cache_bytes", model="llama2-70b", seq_len=4096, batch=256) | unit("GiB") }}',
        '{{ q("kv_cache_bytes", model="llama2-70b", seq_len=4096, batch=256) }}',
        '{{ q("kv_bytes_per_token", model="llama2-70b", units="iec") }}',
        '{{ q("kv_bytes_per_token", model="llama2-70b").value }}',
        '{{ const("hbm_bw", hw="h100") }} {{ const("smem_capacity", hw="h100", units="iec") }}',
        '{{ q("d_model", hw="tpu-v5e", presets=["classic-ffn"], bound="max", require=["ffn_fits_in_vmem"]) }}',
        '{{ q("attainable_flops", hw="a100", arithmetic_intensity=q("elementwise_intensity", preset="op-add")).regime }}',
        '{{ q("compute_utilization", hw="a100", arithmetic_intensity=q("elementwise_intensity", preset="op-add")) | percent(3) }}',
        '{{ q("smem_to_hbm_bw_ratio", hw="a100", digits=2) }}',
    ]) + "\n")
    assert out.splitlines() == ["156 FLOP/B", "320 GiB", "343.6 GB", "320 KiB", "327680.0", "3.35 TB/s 228 KiB",
                                "2,896", "memory-bound", "0.107%", "9.7"]
    zh = render(tmp_path, '{{ q("attainable_flops", hw="h100", arithmetic_intensity=1000).regime }}', lang="zh")
    assert zh == "算力瓶颈"


def test_tex_values_are_math_that_works_in_text(tmp_path):
    out = render(tmp_path, '{{ q("critical_ai", hw="tpu-v5e") }}'
                 ' {{ q("kv_cache_bytes", model="llama2-70b", seq_len=4096, batch=256) | unit("GiB") }}',
                 name="t.tex")
    assert out == r"\ensuremath{240.2\,\mathrm{FLOP/B}} \ensuremath{320\,\mathrm{GiB}}"


# ---------------------------------------------------------------------------
# errors name the source file and line


@pytest.mark.parametrize("body, line, expect", [
    ('{{ q("critical_aj", hw="a100") }}', 3, "unknown quantity 'critical_aj'"),
    ('{{ q("kv_cache_bytes", model="llama2-70b") }}', 3, "missing batch, seq_len"),
    ('{{ q("kv_cache_bytes", model="llama2-70b", seq_len=4096, batch=1) | unit("GB/s") }}', 3,
     "kv_cache_bytes is in B, not in GB/s"),
    ('{{ q("critical_ai", hw="a1000") }}', 3, "unknown hardware preset"),
    ('{{ qq("critical_ai") }}', 3, "'qq' is undefined"),
    ('{{ q.__globals__ }}', 3, "unsafe"),
    ('{{ "".__class__.__mro__ }}', 3, "unsafe"),
    ('{% for x in %}', 3, "syntax error"),
    ('{{ q("batch", model="llama2-70b", hw="h100", num_devices=8, seq_len=10**9, bound="max", require=["kv_cache_fits"]) }}', 3,
     "no positive whole number batch"),
    ('{{ const("hbm_bw", hw="llama2-70b") }}', 3, "unknown hardware preset"),
    ('{{ const("hbm_bw") }}', 3, "no value"),
])
def test_errors_name_the_source_line(tmp_path, body, line, expect):
    with pytest.raises(TemplateError) as info:
        render(tmp_path, f"# title\n\n{body}\nmore\n")
    err = info.value
    assert err.file == str(tmp_path / "t.md") and err.line == line, (err.file, err.line, str(err))
    assert expect in str(err)


def test_cli_error_is_one_line(cli, tmp_path):
    src = tmp_path / "bad.md"
    src.write_text('line\n{{ q("critical_aj", hw="a100") }}\n', encoding="utf-8")
    run = cli("render", str(src))
    assert run.code == 2 and run.out == ""
    assert run.err.strip() == (f"derive: error: {src}:2: unknown quantity 'critical_aj'; did you mean "
                               + run.err.split("did you mean ", 1)[1].strip())
    assert len(run.err.strip().splitlines()) == 1


# ---------------------------------------------------------------------------
# solution() and plot()


def test_solution_and_plot_in_markdown(tmp_path):
    out_file = tmp_path / "out" / "page.md"
    text = render(tmp_path, "\n".join([
        "# D in VMEM",
        '{{ solution("d_model", hw="tpu-v5e", presets=["classic-ffn"], bound="max", require=["ffn_fits_in_vmem"]) }}',
        '{{ plot("roofline", hw=["a100", "h100"]) }}',
        '{{ plot("kv-cache", model="llama2-70b", hw="h100", num_devices=8, format="svg") }}',
    ]), name="page.src.md", output=out_file)
    assert "### Question" in text and "**2,896**" in text and "## " not in text.replace("### ", "")
    refs = re.findall(r"!\[([^\]]*)\]\(([^)]+)\)", text)
    assert [r for _, r in refs] == ["img/page-1-roofline.png", "img/page-2-kv-cache.svg"]
    assert refs[0][0].startswith("Roofline")
    for _, rel in refs:
        path = out_file.parent / rel
        assert path.is_file() and path.stat().st_size > 20_000


def test_latex_source_compiles_with_solution_plot_and_chinese(tmp_path):
    need_tool("xelatex")
    need_tool("pdftotext")
    src = tmp_path / "note.tex"
    src.write_text("\n".join([
        "{{ preamble() }}",
        r"\begin{document}",
        r"% a LaTeX comment with {% and {# in it stays LaTeX",
        r"\newcommand{\twice}[1]{#1#1}",
        r"((# a source comment #))",
        r"A100 的平衡点是 {{ q('critical_ai', hw='a100') }}，显存 {{ const('hbm_capacity', hw='a100') }}。",
        r"((* for hw in ['a100', 'h100'] *))",
        r"{{ name(hw) }}: {{ q('critical_ai', hw=hw) }}\par",
        r"((* endfor *))",
        "{{ solution('critical_ai', hw='h100', level=2) }}",
        r"\begin{center}{{ plot('roofline', hw='a100', width='0.8\\linewidth') }}\end{center}",
        r"\end{document}",
    ]), encoding="utf-8")
    out = tmp_path / "build" / "note.tex"
    text = render_source(src, output=out, lang="zh")
    out.write_text(text, encoding="utf-8")
    assert (out.parent / "img" / "note-1-roofline.pdf").is_file()
    assert r"\includegraphics[width=0.8\linewidth]{img/note-1-roofline.pdf}" in text
    proc = subprocess.run(["xelatex", "-interaction=nonstopmode", "-halt-on-error", out.name], cwd=out.parent,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:]
    pdf_text = subprocess.run(["pdftotext", "-layout", str(out.with_suffix(".pdf")), "-"], capture_output=True,
                              text=True, check=True).stdout
    assert "A100 的平衡点是 156 FLOP/B" in pdf_text
    assert "295.2 FLOP/B" in pdf_text and "80 GB" in pdf_text


def test_html_source_escapes_and_embeds(tmp_path):
    out = render(tmp_path, '<p>{{ q("critical_ai", hw="a100") }} & {{ "<b>" }}</p>\n{{ plot("hierarchy", hw="a100") }}',
                 name="p.html")
    assert out.startswith("<p>156 FLOP/B & &lt;b&gt;</p>")
    assert '<img src="img/p-1-hierarchy.svg" alt="Memory hierarchy of NVIDIA A100 SXM 80GB">' in out


def test_cli_writes_output_and_images(cli, tmp_path):
    src = tmp_path / "doc.src.md"
    src.write_text('{{ q("critical_ai", hw="h100") }}\n{{ plot("hierarchy", hw="h100") }}\n', encoding="utf-8")
    out = tmp_path / "site" / "doc.md"
    run = cli("render", str(src), "-o", str(out), "--lang", "zh")
    assert run.code == 0, run.err
    assert out.read_text(encoding="utf-8").startswith("295.2 FLOP/B\n![NVIDIA H100 SXM 的内存层级](img/doc-1-hierarchy.png)")
    assert (tmp_path / "site" / "img" / "doc-1-hierarchy.png").is_file()


def test_readme_live_example(tmp_path):
    """The README's live-number example renders to the output it shows."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Tutorials: live numbers, plots, sweeps", 1)[1]
    source = section.split("```jinja\n", 1)[1].split("```", 1)[0]
    shown = section.split("```text\n", 1)[1].split("```", 1)[0]
    assert render(tmp_path, source, name="note.src.md") == shown


def test_render_takes_the_language_from_the_source_name(tmp_path, cli):
    """`derive render chapter.zh.src.md` writes Chinese without --lang (issue 11); --lang still wins."""
    for name, han in (("note.zh.src.md", True), ("note.en.src.md", False), ("note.src.md", False)):
        src = tmp_path / name
        src.write_text('{{ name("critical_ai") }}\n', encoding="utf-8")
        run = cli("render", str(src))
        assert run.code == 0, run.err
        assert bool(re.search(r"[\u4e00-\u9fff]", run.out)) is han, (name, run.out)
    run = cli("render", str(tmp_path / "note.zh.src.md"), "--lang", "en")
    assert not re.search(r"[\u4e00-\u9fff]", run.out)


def test_render_refuses_to_write_over_its_source(tmp_path, cli):
    src = tmp_path / "x.md"
    src.write_text("{{ q('critical_ai', hw='a100') }}\n", encoding="utf-8")
    run = cli("render", str(src), "-o", str(src))
    assert run.code == 2 and "input" in run.err
    assert src.read_text(encoding="utf-8") == "{{ q('critical_ai', hw='a100') }}\n"


# ---------------------------------------------------------------------------
# what a live source may ask for (issue 16, item 10 and item 3)


@pytest.mark.parametrize("call, said", [
    ('{{ q("critical_ai", hw="a100", digits=-5) }}', "digits="),
    ('{{ q("critical_ai", hw="a100", digits="abc") }}', "digits="),
    ('{{ q("critical_ai", hw="a100") | unit("FLOP/B", -3) }}', "digits="),
    ('{{ solution("critical_ai", hw="a100", level="x") }}', "level="),
    ('{{ solution("critical_ai", hw="a100", level=9) }}', "level="),
])
def test_bad_digits_and_levels_are_one_line_errors(cli, tmp_path, call, said):
    src = tmp_path / "bad.md"
    src.write_text(call + "\n", encoding="utf-8")
    run = cli("render", str(src))
    assert run.code == 2 and run.out == ""
    assert run.err.startswith("derive: error: ") and said in run.err and len(run.err.strip().splitlines()) == 1


def test_claims_are_read_only_below_the_source_folder(cli, tmp_path):
    outside = tmp_path / "claims.yaml"
    outside.write_text((ROOT / "reports" / "claims" / "bandwidth-wall.yaml").read_text(encoding="utf-8"),
                       encoding="utf-8")
    (tmp_path / "docs" / "claims").mkdir(parents=True)
    inside = tmp_path / "docs" / "claims" / "bw.yaml"
    inside.write_text(outside.read_text(encoding="utf-8"), encoding="utf-8")
    src = tmp_path / "docs" / "page.md"
    for ref in ("../claims.yaml", str(outside), "/etc/passwd", "claims/../../claims.yaml"):
        src.write_text("{{ claims(%r) | length }}\n" % ref, encoding="utf-8")
        run = cli("render", str(src))
        assert run.code == 2 and run.out == "" and "source's folder" in run.err, (ref, run.err)
    src.write_text('{{ claims("claims/bw.yaml") | length }}\n', encoding="utf-8")
    run = cli("render", str(src))
    assert run.code == 0 and int(run.out) > 5, run.err


def test_names_are_escaped_in_markdown(tmp_path):
    from derive import load_catalog

    user = tmp_path / "mine.yaml"
    user.write_text("quantities:\n  - id: star_bw\n    unit: B/s\n    symbol: W_*\n"
                    "    name: {en: '*bold* [link](x) `code` $x$', zh: 星号}\n    meaning: {en: a test, zh: 测试}\n    source: mine\n"
                    "references:\n  - id: mine\n    kind: web\n    title: mine\n", encoding="utf-8")
    catalog = load_catalog(extra=[user])
    out = render(tmp_path, '{{ name("star_bw") }}', catalog=catalog)
    assert out == r"\*bold\* \[link\](x) \`code\` \$x\$"


def test_rendering_to_standard_output_writes_no_image(cli, tmp_path):
    src = tmp_path / "doc.md"
    src.write_text('{{ plot("hierarchy", hw="h100") }}\n', encoding="utf-8")
    run = cli("render", str(src))
    assert run.code == 2 and run.out == "" and "-o" in run.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doc.md"]
    run = cli("render", str(src), "-o", str(tmp_path / "out" / "doc.md"))
    assert run.code == 0 and (tmp_path / "out" / "img" / "doc-1-hierarchy.png").is_file()
