"""The built-in templates ship compiled ahead of time (derive._precompile), in every markup they are
rendered in: the code is the current templates' and this Jinja's, it is used only for exactly that
text, and it prints what compiling the template prints."""

from __future__ import annotations

import hashlib
from pathlib import Path

import jinja2
import pytest

from derive import _compiled_templates as kept
from derive import load_catalog, render, solve
from derive._precompile import MODES, compiled_ahead, generate
from derive._resources import builtin_dir
from derive.render import environment_for, render_solution

TERMINAL = sorted(p.name for p in builtin_dir("templates").glob("*.txt.j2"))
FORMATS = ("text", "md", "html", "tex", "beamer")
SAME_JINJA = kept.JINJA2 == jinja2.__version__


def test_every_built_in_template_ships_compiled_from_its_current_text():
    from derive._formats import markup_of_template

    assert TERMINAL and MODES == ("text", "md", "html", "tex")
    for (_mode, name), (digest, _module) in kept.INDEX.items():
        text = (builtin_dir("templates") / name).read_text(encoding="utf-8")
        assert digest == hashlib.sha256(text.encode("utf-8")).hexdigest(), \
            f"{name} changed since it was compiled: run python -m derive._compiled_templates"
    # every markup's own templates, and the macro files they import, in that markup
    for path in builtin_dir("templates").glob("*.j2"):
        if not path.name.startswith("_"):
            assert (markup_of_template(path.name), path.name) in kept.INDEX
    for mode, partial in (("md", "_solution.j2"), ("html", "_report.j2"), ("tex", "_beamer.j2"), ("tex", "_tex.j2")):
        assert (mode, partial) in kept.INDEX


@pytest.mark.skipif(not SAME_JINJA, reason=f"the kept code is Jinja {kept.JINJA2}'s; this is Jinja "
                                            f"{jinja2.__version__}, and it compiles the templates itself")
def test_the_kept_code_is_what_this_jinja_makes_of_the_templates():
    folder = Path(kept.__file__).parent
    for name, text in generate(environment_for).items():
        assert (folder / name).read_text(encoding="utf-8") == text, \
            f"{name} is stale: run python -m derive._compiled_templates"


def test_the_kept_code_is_used_only_for_the_text_it_was_made_from():
    text = (builtin_dir("templates") / "solution.txt.j2").read_text(encoding="utf-8")
    assert (compiled_ahead("text", "solution.txt.j2", text) is not None) == SAME_JINJA
    assert compiled_ahead("text", "solution.txt.j2", text + "\n") is None      # an edited copy
    assert compiled_ahead("md", "solution.txt.j2", text) is None                # not a markdown template
    assert compiled_ahead("text", "other.txt.j2", text) is None


def _fresh_render(sol) -> list[str]:
    render._environment.cache_clear()      # templates are loaded again, through the loader
    return [render_solution(sol, fmt, "both") for fmt in FORMATS]


def test_an_answer_prints_the_same_from_the_kept_code_as_compiled_from_the_template(monkeypatch):
    catalog = load_catalog()
    sols = [solve("critical_ai", hw="a100", catalog=catalog),
            solve("d_model", catalog=catalog, hw="tpu-v5e", presets=["classic-ffn"], bound="max",
                  require=["ffn_fits_in_vmem"])]
    ahead = [_fresh_render(s) for s in sols]
    template = environment_for("text").get_template("solution.txt.j2")
    assert ("_compiled_templates" in template.filename) == SAME_JINJA
    monkeypatch.setattr(kept, "INDEX", {})
    compiled = [_fresh_render(s) for s in sols]
    assert "_compiled_templates" not in environment_for("text").get_template("solution.txt.j2").filename
    assert ahead == compiled
    assert all("156" in out for out in ahead[0]) and all("2,896" in out.replace("{,}", ",") for out in ahead[1])
    render._environment.cache_clear()


def test_a_users_copy_of_a_terminal_template_is_compiled_from_its_own_text(tmp_path):
    text = (builtin_dir("templates") / "solution.txt.j2").read_text(encoding="utf-8")
    (tmp_path / "solution.txt.j2").write_text("MINE\n" + text, encoding="utf-8")
    sol = solve("critical_ai", hw="a100")
    out = render_solution(sol, "text", "en", templates=tmp_path)
    assert out.startswith("MINE") and "156" in out


def test_a_users_copy_of_a_macro_file_is_compiled_from_its_own_text(tmp_path):
    text = (builtin_dir("templates") / "_md.j2").read_text(encoding="utf-8")
    (tmp_path / "_md.j2").write_text(text + "{% macro mine() %}MINE{% endmacro %}\n", encoding="utf-8")
    (tmp_path / "solution.md.j2").write_text('{% import "_md.j2" as f %}{{ f.mine() }}\n', encoding="utf-8")
    sol = solve("critical_ai", hw="a100")
    assert render_solution(sol, "md", "en", templates=tmp_path) == "MINE\n"
    render._environment.cache_clear()
