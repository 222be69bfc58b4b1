"""Problem files: worked problems as data (``reports/*.yaml``), solved through the catalog.

A problem file states a problem in both languages, the assumptions it takes,
and its questions; each question is one ``solve()`` call (target, givens,
presets, bound, conditions). Problem-level ``given``/``hw``/``model``/``presets``
apply to every question, which may override them. ``expect`` records the answer
a test asserts. Grammar::

    id: sb-ch3-problem-2
    title: {en: ..., zh: ...}
    source: seed-memory-hierarchy, section 3.9
    statement: {en: ..., zh: ...}
    assumptions:                       # stated in the write-up
      - {en: "VMEM is 128 MiB = 2^27 B", zh: "..."}
    hw: tpu-v5e                        # defaults for every question
    presets: [classic-ffn]
    given: {d_model: 4096}
    units: iec                         # si (default) or iec, for the write-up
    symbols: {seq_len: N, head_dim: d} # optional: the problem's own letters for some quantities, used in
                                       # its write-up's formulas and tables (LaTeX, as a catalog symbol:)
    questions:
      - id: largest-d
        ask: {en: ..., zh: ...}
        solve: d_model
        bound: max                     # optional: max | min
        require: [ffn_fits_in_vmem]    # conditions
        multiple_of: 128               # optional
        round: false                   # optional: keep a bound on a whole number exact
        unit: GiB                      # optional: show the answer in this unit
        assume: ["batch << d_model"]   # optional: answer with the leading term
        minimize: mixed_comms_time     # optional (or maximize:): the solve value that makes it least
        given: {vmem_capacity: 128 MiB}
        note: {en: ..., zh: ...}       # optional: an assumption this question takes
        expect: 2896                   # optional: value (and unit) the tests assert
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import sympy

from ..catalog.schema import condition_of
from ..errors import CatalogError, DeriveError
from ..records.catalog import Catalog
from ..records.entries import Source, Text
from ..records.question import FILE_FIELDS, Question
from ..storage.yamlio import line_of, read_yaml
from .datafile import bilingual as _text
from .datafile import check_fields as _check_fields
from .datafile import file_error as _err
from .datafile import name_list as _list

__all__ = ["Problem", "ProblemQuestion", "load_problem", "read_question", "solve_problem"]

PROBLEM_FIELDS = {"id", "title", "source", "statement", "assumptions", "questions", "hw", "model", "presets",
                  "given", "units", "note", "symbols"}
QUESTION_FIELDS = {*FILE_FIELDS, "id", "ask", "units", "note", "expect", "tolerance"}


@dataclass(frozen=True)
class ProblemQuestion:
    """One question of a problem: the :class:`~derive.Question` it asks, and its text."""

    id: str
    ask: Text | None   # None only for questions read with ask_required=False (claims)
    question: Question
    units: str = "si"
    note: Text | None = None
    expect: str | None = None
    tolerance: float | None = None
    line: int = 0

    @property
    def target(self) -> str:
        return self.question.target

    def solve(self, catalog: Catalog | None = None):
        from ..engine.solver import solve

        return solve(self.question, catalog=catalog)


@dataclass(frozen=True)
class Problem:
    """A worked problem: statement, assumptions and questions."""

    id: str
    title: Text
    statement: Text
    source: Source
    assumptions: tuple[Text, ...]
    questions: tuple[ProblemQuestion, ...]
    units: str = "si"
    file: str = ""
    symbols: tuple[tuple[str, str], ...] = ()    # (quantity id, LaTeX symbol): the problem's own notation










def read_question(file: str, raw: Any, catalog: Catalog, *, qid: str,
                  defaults: Any = None, ask_required: bool = True) -> ProblemQuestion:
    """Validate one question mapping (``solve``, ``given``, ``hw``, ``model``, ``presets``, ``bound``,
    ``require``, ``multiple_of``, ``units``, ``note``, ``expect``, ``tolerance``, ``ask``) into a
    :class:`ProblemQuestion`; names are checked against the catalog.

    ``defaults`` holds values that apply when the question does not give its own: ``given`` (merged
    under the question's), ``hw``, ``model``, ``presets``, ``units``. Unknown fields are the caller's
    to check (problem files and claims files allow different ones). Errors name ``file`` and the line.
    """
    defaults = defaults or {}
    base_given = defaults.get("given") or {}
    target = raw.get("solve")
    if target is None:
        raise _err(file, raw, "missing 'solve: QUANTITY'", qid)
    try:
        target = catalog.quantity(str(target)).id
        given = dict(base_given)
        extra = raw.get("given") or {}
        if not isinstance(extra, dict):
            raise _err(file, extra, "given must map quantity names to values", qid)
        given.update(extra)
        for name in given:
            catalog.quantity(str(name))
        hw = raw.get("hw", defaults.get("hw"))
        model = raw.get("model", defaults.get("model"))
        if hw:
            catalog.preset(str(hw), "hw")
        if model:
            catalog.preset(str(model), "model")
        presets = _list(file, raw.get("presets", defaults.get("presets")), "presets", qid)
        for pr in presets:
            catalog.preset(pr)
        require = _list(file, raw.get("require"), "require", qid)
        for c in require:
            condition_of(catalog, c)
    except CatalogError:
        raise
    except DeriveError as exc:
        raise _err(file, raw, exc.message, qid) from exc
    bound = raw.get("bound")
    if bound is not None and bound not in ("max", "min"):
        raise _err(file, raw.get("bound"), "bound is max or min", qid)
    multiple = raw.get("multiple_of")
    if multiple is not None:
        try:
            multiple = int(str(multiple))
        except ValueError as exc:
            raise _err(file, multiple, "multiple_of is a whole number", qid) from exc
    rounding = str(raw.get("round", "true")).strip().lower()
    if rounding not in ("true", "false"):
        raise _err(file, raw.get("round"), "round is true (a bound on a whole number is rounded) or false", qid)
    units = str(raw.get("units") or defaults.get("units") or "si")
    if units not in ("si", "iec"):
        raise _err(file, raw.get("units"), "units is si or iec", qid)
    tol = raw.get("tolerance")
    if tol is not None:
        try:
            tol = float(str(tol))
        except ValueError as exc:
            raise _err(file, tol, "tolerance is a number (a relative error, e.g. 0.01)", qid) from exc
        if not 0 <= tol <= 1:      # nan and inf fail too
            raise _err(file, raw.get("tolerance"), "tolerance is a relative error from 0 to 1 (e.g. 0.01 for 1%)",
                       qid)
    try:
        question = Question.of(target, {str(k): str(v) for k, v in given.items()}, hw=str(hw) if hw else None,
                               model=str(model) if model else None, presets=presets,
                               bound=str(bound) if bound else None, require=require, multiple_of=multiple,
                               rounding=rounding == "true",
                               unit=str(raw["unit"]).strip() if raw.get("unit") is not None else None,
                               assume=_list(file, raw.get("assume"), "assume", qid),
                               minimize=str(raw["minimize"]) if raw.get("minimize") is not None else None,
                               maximize=str(raw["maximize"]) if raw.get("maximize") is not None else None,
                               shared=[str(k) for k in base_given if k not in extra])
    except DeriveError as exc:
        raise _err(file, raw, exc.message, qid) from exc
    return ProblemQuestion(
        id=qid, ask=_text(file, raw.get("ask"), "ask", qid, required=ask_required), question=question,
        units=units, note=_text(file, raw.get("note"), "note", qid, required=False),
        expect=str(raw["expect"]) if raw.get("expect") is not None else None,
        tolerance=tol, line=line_of(raw) or 0)


def load_problem(path: str | os.PathLike, catalog: Catalog | None = None) -> Problem:
    """Read and validate a problem file; names are checked against the catalog."""
    from ..catalog.loader import load_catalog

    catalog = catalog or load_catalog()
    p = Path(path)
    file = str(path)
    data = read_yaml(p, file)
    if not isinstance(data, dict):
        raise CatalogError("a problem file is a mapping with id, title, statement and questions", file=file, line=1)
    _check_fields(file, data, PROBLEM_FIELDS, None)
    pid = str(data.get("id") or p.stem)
    src_text = str(data.get("source") or "")
    ref, _, locator = src_text.partition(",")
    if ref.strip() and ref.strip() not in catalog.references:
        raise _err(file, data.get("source"), f"unknown reference {ref.strip()!r}", pid)
    base_given = data.get("given") or {}
    if not isinstance(base_given, dict):
        raise _err(file, base_given, "given must map quantity names to values", pid)
    units = str(data.get("units") or "si")
    if units not in ("si", "iec"):
        raise _err(file, data.get("units"), "units is si or iec", pid)
    questions: list[ProblemQuestion] = []
    raw_questions = data.get("questions")
    if not isinstance(raw_questions, list) or not raw_questions:
        raise _err(file, data, "a problem needs a list of questions", pid)
    seen = set()
    defaults = {"given": base_given, "hw": data.get("hw"), "model": data.get("model"),
                "presets": data.get("presets"), "units": units}
    for raw in raw_questions:
        if not isinstance(raw, dict):
            raise _err(file, raw, "each question is a mapping", pid)
        qid = str(raw.get("id") or f"q{len(questions) + 1}")
        if qid in seen:
            raise _err(file, raw, f"question id {qid!r} appears twice", pid)
        seen.add(qid)
        _check_fields(file, raw, QUESTION_FIELDS, qid)
        questions.append(read_question(file, raw, catalog, qid=qid, defaults=defaults))
    assumptions = tuple(_text(file, a, "assumption", pid) for a in (data.get("assumptions") or []))
    symbols = _symbols(file, data.get("symbols"), catalog, pid)
    return Problem(id=pid, title=_text(file, data.get("title"), "title", pid),
                   statement=_text(file, data.get("statement"), "statement", pid),
                   source=Source(ref.strip(), locator.strip()), assumptions=assumptions,
                   questions=tuple(questions), units=units, file=file, symbols=symbols)


def _symbols(file: str, raw: Any, catalog: Catalog, pid: str) -> tuple[tuple[str, str], ...]:
    """``symbols:``, the problem's own letters: quantity ids (or aliases) mapped to LaTeX symbols that the
    catalog's symbol grammar allows, no letter given to two quantities."""
    from ..catalog.schema import symbol_mistake

    if raw is None:
        return ()
    if not isinstance(raw, dict):
        raise _err(file, raw, "symbols maps quantity names to the letters this problem writes them with "
                              "(symbols: {seq_len: N})", pid)
    out: dict[str, str] = {}
    for name, latex in raw.items():
        try:
            qid = catalog.quantity(str(name)).id
        except DeriveError as exc:
            raise _err(file, raw, f"symbols: {exc.message}", pid) from exc
        text = str(latex).strip() if latex is not None else ""
        mistake = symbol_mistake(text)
        if mistake:
            raise _err(file, latex if latex is not None else raw, f"symbols: {name}: {mistake}", pid)
        twice = next((other for other, t in out.items() if t == text), None)
        if twice:
            raise _err(file, latex, f"symbols: {name} and {twice} are both written {text}: one letter for two "
                                    "quantities", pid)
        out[qid] = text
    return tuple(out.items())


def expected_value(question: ProblemQuestion, catalog: Catalog) -> sympy.Expr | None:
    """The ``expect`` value of a question in base units."""
    if question.expect is None:
        return None
    from ..catalog.values import parse_value

    return parse_value(question.expect, catalog.quantity(question.target), catalog.units)


def solve_problem(problem: Problem, catalog: Catalog | None = None) -> list[tuple[ProblemQuestion, Any]]:
    """Solve every question; errors carry the problem file and the question's line."""
    from ..catalog.loader import load_catalog

    catalog = catalog or load_catalog()
    out = []
    for q in problem.questions:
        try:
            out.append((q, q.solve(catalog)))
        except DeriveError as exc:
            raise CatalogError(f"question {q.id}: {exc.message}", file=problem.file, line=q.line) from exc
    return out


def load_problems(paths: Sequence[str | os.PathLike], catalog: Catalog | None = None) -> list[Problem]:
    return [load_problem(p, catalog) for p in paths]
