"""Defects the generated-input fuzz (``tests/test_fuzz_inputs.py``) found, each as the smallest reproducer.

Each must end with exit 0 and the right number, or with one ``derive: error:`` line and exit 2 that says
what is wrong (never an internal error, a traceback or a misleading reason).
"""

from __future__ import annotations

import pytest


def _one_error_line(run) -> str:
    assert run.code == 2, (run.code, run.out, run.err)
    assert run.err.startswith("derive: error: ") and run.err.count("\n") == 1, run.err
    return run.err


# ---------------------------------------------------------------------------
# units: a number, a space and a bracket


def test_a_unit_power_behind_a_bracket_is_refused_as_too_large_not_as_a_function(cli):
    """'1 (EB^8)^8/s' was refused with "only these functions are allowed": the parser read 1(...) as a call."""
    err = _one_error_line(cli("solve", "critical_ai", "--hw", "a100", "hbm_bw=1 (EB^8)^8/s"))
    assert "too large" in err and "64" in err and "at most 8" in err and "function" not in err


@pytest.mark.parametrize("value", ["2 (TB/s)", "2(TB)/s", "(2 TB)/s", "2*(TB/s)", "(2 (TB/s))", "2 ((TB))/s"])
def test_a_number_before_a_bracketed_unit_multiplies_it(cli, value):
    """'2 (TB/s)' was split as the number '2 (' and the unit 'TB/s)': unbalanced parentheses."""
    run = cli("solve", "critical_ai", "--hw", "a100", f"hbm_bw={value}", "--format", "json")
    assert run.code == 0, run.err
    assert run.json["value"] == 156


def test_a_number_called_like_a_function_says_so():
    from derive import ExpressionError
    from derive.symbolic.expressions import parse_expression

    with pytest.raises(ExpressionError, match="write \\* to multiply"):
        parse_expression("2(3)")
    with pytest.raises(ExpressionError, match="only these functions are allowed"):
        parse_expression("foo(3)", {})


def test_a_stated_value_with_a_bracketed_unit_is_read_as_number_and_unit(cli, tmp_path):
    """A claim's 'stated: 1 (EB^8)^8/s' was refused as not a plain decimal number (the number was '1 (')."""
    head = "chapter: seed-bandwidth-wall\ntitle: {en: t, zh: t}\nclaims:\n"
    claims = tmp_path / "c.yaml"
    claims.write_text(head + "  - id: a\n    quote: x\n    stated: 1 (EB^8)^8/s\n    solve: hbm_bw\n    hw: a100\n",
                      encoding="utf-8")
    err = _one_error_line(cli("check", str(claims)))
    assert "too large" in err and "plain decimal" not in err
    claims.write_text(head + "  - id: b\n    quote: x\n    stated: 2 (TB/s)\n"
                      "    constant: {preset: a100, quantity: hbm_bw}\n", encoding="utf-8")
    run = cli("check", str(claims), "--format", "json")
    assert run.code == 0, run.err
    (claim,) = run.json
    assert claim["verdict"] == "constant" and claim["agrees"] and claim["computed"] == 2


# ---------------------------------------------------------------------------
# templates: what derive's bounded sandbox does for the template is the template's


@pytest.mark.parametrize("body", ["{% for x in 1 %}{% endfor %}", "{{ 1 | join }}", "{{ 1 | sum }}",
                                  "{{ [1, 'a'] | sum }}"])
def test_a_template_looping_over_a_number_is_the_templates_mistake(cli, tmp_path, body):
    """A loop over a number (or join/sum of one) raised TypeError inside derive/writeup/sandbox.py, which was taken
    for derive's own bug: exit 1, "internal error"."""
    (tmp_path / "solution.md.j2").write_text(body, encoding="utf-8")
    err = _one_error_line(cli("solve", "critical_ai", "--hw", "a100", "--format", "md", "--templates", str(tmp_path)))
    assert "solution.md.j2:1" in err and "TypeError" in err
    (tmp_path / "live.md").write_text(body, encoding="utf-8")
    err = _one_error_line(cli("render", str(tmp_path / "live.md")))
    assert "live.md:1" in err


@pytest.mark.parametrize("body, says", [
    ("a\n{% set x = msg(1) %}", "msg() takes a message key"),
    ("a\n{{ msg([1], 'en') }}", "msg() takes a message key"),
    ("a\n{{ msg('w_checks_hold', [1]) }}", "msg() takes a message key"),
    ("a\n{{ pick(1, lang) }}", "pick() takes a bilingual text"),
    ("a\n{{ pick('x') }}", "pick() takes a bilingual text"),
    ("a\n{{ pick(s.target.name, [1]) }}", "pick() takes a language"),
    ("a\n{{ msg('no_such_message', lang) }}", "no message 'no_such_message'"),
])
def test_msg_and_pick_called_with_anything_refuse_it_naming_the_template_line(cli, tmp_path, body, says):
    """msg(1) and pick(1) reached derive's code (1.endswith, 1.get) and exited 1 as an internal error; an
    unknown message key was refused without saying which template asked for it."""
    (tmp_path / "solution.md.j2").write_text(body, encoding="utf-8")
    err = _one_error_line(cli("solve", "critical_ai", "--hw", "a100", "--format", "md", "--templates", str(tmp_path)))
    assert says in err and "solution.md.j2:2:" in err


@pytest.mark.parametrize("call", ["unit(1)", "unit(none)", "unit([1])", "unit(1.5)"])
def test_a_live_unit_conversion_to_something_not_text_is_refused(cli, tmp_path, call):
    """q(...) | unit(1) and .to(none) reached 1.strip() in the unit reader: exit 1."""
    for text in (f"{{{{ q('hbm_bw', hw='a100') | {call} }}}}", f"{{{{ q('hbm_bw', hw='a100').to({call[5:-1]}) }}}}"):
        (tmp_path / "live.md").write_text(text + "\n", encoding="utf-8")
        err = _one_error_line(cli("render", str(tmp_path / "live.md")))
        assert "live.md:1:" in err and "a unit is text" in err


def test_a_repeated_keyword_is_a_syntax_error_of_the_source_without_a_wrong_line(cli, tmp_path):
    """Jinja's parser lets q(..., hw='a', hw='b') through and Python's compiler refuses it: the error was
    'live.md:13: SyntaxError: ... (live.md, line 13)' for a three-line source (a line of the compiled code)."""
    (tmp_path / "live.md").write_text("a\nb\n{{ q('critical_ai', hw='a100', hw='h100') }}\n", encoding="utf-8")
    err = _one_error_line(cli("render", str(tmp_path / "live.md")))
    assert f"{tmp_path / 'live.md'}: syntax error: keyword argument repeated: hw" in err and "line 1" not in err
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "_md.j2").write_text("{% macro p(t, second=false) %}{{ pick(t, lang=1, lang=2) }}{% endmacro %}",
                                 encoding="utf-8")
    err = _one_error_line(cli("solve", "critical_ai", "--hw", "a100", "--format", "md", "--templates", str(pack)))
    assert f"{pack / '_md.j2'}: template syntax error: keyword argument repeated: lang" in err


@pytest.mark.parametrize("body", ["{{ x | unit('GiB') }}", "{{ x | percent }}"])
def test_an_undefined_name_given_to_a_live_filter_is_called_undefined(cli, tmp_path, body):
    """The unit and percent filters said 'converts a value from q(...), not StrictUndefined'."""
    (tmp_path / "live.md").write_text(body, encoding="utf-8")
    err = _one_error_line(cli("render", str(tmp_path / "live.md")))
    assert "'x' is undefined" in err and "StrictUndefined" not in err


@pytest.mark.parametrize("body, says", [
    ("{{ s.nope | tojson }}", "has no attribute 'nope'"),
    ("{{ {'a': s.nope} | tojson }}", "not JSON serializable"),
    ("{{ s.answer | dictsort | tojson }}", ""),
])
def test_a_template_error_inside_a_library_a_filter_calls_is_the_templates(cli, tmp_path, body, says):
    """tojson of an undefined name raised TypeError inside json (the standard library), the innermost frame,
    so the error was not recognized as the template's: exit 1. The traceback is now read outwards to the
    first frame that is the template's, Jinja's or derive's own."""
    (tmp_path / "solution.md.j2").write_text(body, encoding="utf-8")
    run = cli("solve", "critical_ai", "--hw", "a100", "--format", "md", "--templates", str(tmp_path))
    if says:
        assert says in _one_error_line(run) and "solution.md.j2:1" in run.err
    else:
        assert run.code == 0, run.err


def test_derives_own_errors_under_a_template_stay_internal():
    """The other side of the rule: an exception raised in derive's code that a template called is derive's."""
    import json

    from derive.writeup.render import raised_by_template

    def derive_side():
        from derive.symbolic.units import Dimension
        Dimension.of({"[data]": object()})     # TypeError inside derive's own code (Fraction of an object)

    try:
        derive_side()
    except TypeError as exc:
        assert not raised_by_template(exc)
    try:
        json.dumps(object())
    except TypeError as exc:
        assert not raised_by_template(exc)       # no template, Jinja or derive frame at all


@pytest.mark.parametrize("call, says", [("name(1)", "name() must be a name"),
                                        ("const([1])", "const() must be a quantity name")])
def test_a_live_name_or_const_of_something_not_text_says_so(cli, tmp_path, call, says):
    """name(1) and const([1]) failed inside the catalog's lookup: 'bad call: 'int' object is not iterable'."""
    (tmp_path / "live.md").write_text("{{ %s }}" % call, encoding="utf-8")
    assert says in _one_error_line(cli("render", str(tmp_path / "live.md")))
