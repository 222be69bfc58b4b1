"""The built-in templates compiled ahead of time (derive.writeup.precompile): made by the wheel's build,
never kept in git, used only for exactly the text they were made from, and printing what compiling
the template prints."""

from __future__ import annotations

import hashlib
import importlib
import subprocess
import sys
from pathlib import Path

import jinja2
import pytest
from conftest import ROOT

import derive
from derive import load_catalog, solve
from derive.storage.resources import builtin_dir
from derive.writeup import render
from derive.writeup.formats import MARKUPS, markup_of_template
from derive.writeup.precompile import MODES, PACKAGE, compiled_ahead, generate
from derive.writeup.render import environment_for, render_solution

FORMATS = ("text", "md", "html", "tex", "beamer")


@pytest.fixture
def built(tmp_path, monkeypatch):
    """The package the wheel build makes (setup.py writes generate()'s files), importable as in a wheel."""
    folder = tmp_path / "derive" / "_compiled_templates"
    folder.mkdir(parents=True)
    for name, text in generate(environment_for).items():
        (folder / name).write_text(text, encoding="utf-8")
    monkeypatch.setattr(derive, "__path__", [*derive.__path__, str(tmp_path / "derive")])
    for name in [m for m in sys.modules if m.startswith(PACKAGE)]:
        monkeypatch.delitem(sys.modules, name)
    render._environment.cache_clear()
    yield importlib.import_module(PACKAGE)
    for name in [m for m in sys.modules if m.startswith(PACKAGE)]:
        del sys.modules[name]
    render._environment.cache_clear()


def test_git_holds_no_generated_code():
    listed = subprocess.run(["git", "ls-files", "derive"], capture_output=True, text=True, cwd=ROOT)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    assert listed.stdout and "_compiled_templates" not in listed.stdout
    assert importlib.util.find_spec(PACKAGE) is None or not Path(derive.__file__).is_relative_to(ROOT)


def test_every_built_in_template_is_compiled_from_its_current_text_in_every_markup(built):
    assert set(MODES) == set(MARKUPS)
    assert built.JINJA2 == jinja2.__version__
    for (_mode, name), (digest, _module) in built.INDEX.items():
        text = (builtin_dir("templates") / name).read_text(encoding="utf-8")
        assert digest == hashlib.sha256(text.encode("utf-8")).hexdigest()
    for path in builtin_dir("templates").glob("*.j2"):
        if not path.name.startswith("_"):
            assert (markup_of_template(path.name), path.name) in built.INDEX
    # the macro files a markup's templates import, in that markup
    for mode, partial in (("md", "_solution.j2"), ("html", "_report.j2"), ("tex", "_beamer.j2"), ("tex", "_tex.j2")):
        assert (mode, partial) in built.INDEX


def test_a_source_checkout_compiles_every_template():
    if importlib.util.find_spec(PACKAGE) is not None:
        pytest.skip("this install was built with its templates compiled")
    text = (builtin_dir("templates") / "solution.txt.j2").read_text(encoding="utf-8")
    assert compiled_ahead("text", "solution.txt.j2", text) is None


def test_the_built_code_is_used_only_for_the_text_it_was_made_from(built):
    text = (builtin_dir("templates") / "solution.txt.j2").read_text(encoding="utf-8")
    assert compiled_ahead("text", "solution.txt.j2", text) is not None
    assert compiled_ahead("text", "solution.txt.j2", text + "\n") is None      # an edited copy
    assert compiled_ahead("md", "solution.txt.j2", text) is None                # not a markdown template
    assert compiled_ahead("text", "other.txt.j2", text) is None


def test_built_code_of_another_jinja_is_not_used(built, monkeypatch):
    text = (builtin_dir("templates") / "solution.txt.j2").read_text(encoding="utf-8")
    monkeypatch.setattr(built, "JINJA2", "0.0")
    assert compiled_ahead("text", "solution.txt.j2", text) is None


def _renders(sols) -> list[list[str]]:
    render._environment.cache_clear()      # templates are loaded again, through the loader
    return [[render_solution(sol, fmt, "both") for fmt in FORMATS] for sol in sols]


def test_an_answer_prints_the_same_from_the_built_code_as_compiled_from_the_template(built, monkeypatch):
    catalog = load_catalog()
    sols = [solve("critical_ai", hw="a100", catalog=catalog),
            solve("d_model", catalog=catalog, hw="tpu-v5e", presets=["classic-ffn"], bound="max",
                  require=["ffn_fits_in_vmem"])]
    ahead = _renders(sols)
    assert "_compiled_templates" in environment_for("text").get_template("solution.txt.j2").filename
    monkeypatch.setattr(built, "INDEX", {})
    compiled = _renders(sols)
    assert "_compiled_templates" not in environment_for("text").get_template("solution.txt.j2").filename
    assert ahead == compiled
    assert all("156" in out for out in ahead[0]) and all("2,896" in out.replace("{,}", ",") for out in ahead[1])


def test_a_users_copy_of_a_terminal_template_is_compiled_from_its_own_text(built, tmp_path):
    text = (builtin_dir("templates") / "solution.txt.j2").read_text(encoding="utf-8")
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "solution.txt.j2").write_text("MINE\n" + text, encoding="utf-8")
    out = render_solution(solve("critical_ai", hw="a100"), "text", "en", templates=mine)
    assert out.startswith("MINE") and "156" in out


def test_a_users_copy_of_a_macro_file_is_compiled_from_its_own_text(built, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    text = (builtin_dir("templates") / "_md.j2").read_text(encoding="utf-8")
    (mine / "_md.j2").write_text(text + "{% macro mine() %}MINE{% endmacro %}\n", encoding="utf-8")
    (mine / "solution.md.j2").write_text('{% import "_md.j2" as f %}{{ f.mine() }}\n', encoding="utf-8")
    assert render_solution(solve("critical_ai", hw="a100"), "md", "en", templates=mine) == "MINE\n"
