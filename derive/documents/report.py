"""``derive report``: write up a whole problem file, each question's worked solution in turn.

A problem file (``reports/*.yaml``, see :mod:`derive.documents.problems`) is solved question
by question; the report template (``templates/report.<format>.j2``) gets the
problem (title, statement, assumptions, source) and, for each question, its text
and its solution's view (``writeup.present.build_view``), with one citation list for the
whole report. Output files are named ``<stem>.<lang>.<ext>`` beside each other in
``-o DIR``: ``.md``, ``.html``, ``.tex`` (article), ``.slides.tex`` (beamer), and with
``pdf`` the compiled article ``.pdf`` (and ``.slides.pdf`` when ``beamer`` is asked too).

The committed Markdown in ``reports/`` is made by::

    derive report reports/*.yaml --lang en,zh --format md -o reports/
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..errors import InputError
from ..writeup.formats import FORMATS

if TYPE_CHECKING:
    from ..records.catalog import Catalog
    from .problems import Problem

__all__ = ["REPORT_FORMATS", "ReportFile", "render_report", "report_context", "write_reports"]

# the formats with a report template: format -> (template, file suffix); pdf is compiled from tex/beamer
REPORT_FORMATS = {f.name: (f.report, f.suffix) for f in FORMATS.values() if f.report}
ALL_FORMATS = (*REPORT_FORMATS, *(f.name for f in FORMATS.values() if f.compiled_from))
REGENERATE = "derive report reports/*.yaml --lang en,zh --format md -o reports/"


@dataclass(frozen=True)
class ReportFile:
    """One written output: the problem file it came from, its format and language, and where it is."""

    source: str
    fmt: str
    lang: str
    path: Path


def _merge_citations(views: Sequence[dict[str, Any]], extra: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One numbered citation list for the whole report; every view's ``cite_index`` is renumbered to it."""
    merged: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    for c in [*extra, *(c for v in views for c in v["citations"])]:
        if c["ref"] not in index:
            index[c["ref"]] = len(merged) + 1
            merged.append(dict(c, number=index[c["ref"]]))
    for v in views:
        v["cite_index"] = dict(index)
    return merged


def report_context(problem: "Problem", catalog: "Catalog", units: str | None = None) -> dict[str, Any]:
    """Solve every question of ``problem`` and build what the report templates need."""
    from ..writeup.present import build_view, source_view
    from .problems import solve_problem

    questions: list[dict[str, Any]] = []
    notation = catalog.with_symbols(dict(problem.symbols))     # the problem's own letters (seq_len: N)
    solved = solve_problem(problem, catalog)
    for n, (q, sol) in enumerate(solved, start=1):
        view = build_view(sol, units or q.units, notation)
        questions.append({
            "n": n, "id": q.id, "ask": {"en": q.ask.en, "zh": q.ask.zh} if q.ask else None,
            "note": {"en": q.note.en, "zh": q.note.zh} if q.note else None, "s": view,
        })
    # the values that tell apart questions asking for the same quantity (three PCIe load times)
    apart = _what_sets_apart([sol for _, sol in solved], notation, [units or q.units for q, _ in solved],
                             [", ".join(c["latex"] for c in q["s"]["conditions"]) for q in questions])
    for entry, latex in zip(questions, apart):
        entry["apart"] = latex
    _one_letter_each(problem, questions)
    _mark_reused(questions)
    source = source_view(catalog, problem.source) if problem.source.ref else None
    citations = _merge_citations([q["s"] for q in questions], [source] if source else [])
    stem = Path(problem.file).name.removesuffix(".yaml").removesuffix(".yml") if problem.file else problem.id
    return {
        "problem": {
            "id": problem.id, "stem": stem, "file": Path(problem.file).name if problem.file else problem.id,
            "title": {"en": problem.title.en, "zh": problem.title.zh},
            "statement": {"en": problem.statement.en, "zh": problem.statement.zh},
            "assumptions": [{"en": a.en, "zh": a.zh} for a in problem.assumptions],
            "source": source,
        },
        "questions": questions,
        "units": units or problem.units,
        "citations": citations,
        "regenerate": REGENERATE,
    }


_REQUIRED = "\0required"     # the conditions of a bound, beside the inputs that tell questions apart


def _what_sets_apart(solutions: Sequence[Any], catalog: "Catalog", units: Sequence[str],
                     conditions: Sequence[str]) -> list[str]:
    """For each solution, the LaTeX of the values that tell it apart from the others with the same target
    (``n_{\\mathrm{PCIe}} = 1``), or '' when no other question asks for its quantity.

    The values are inputs of one of them (given, preset or default); an input of one may be derived in
    another (M_A given as 16 GB, derived as 17.18 GB), and is then compared at its derived value. Bounds
    under different conditions are told apart by them (``conditions``: each one's LaTeX, ``B/N \\ge B^*``).
    """
    from ..writeup.present import latex_expr, latex_value, written_unit

    def values_of(sol: Any, required: str) -> dict[str, Any]:
        found = {name: v for st in sol.steps for name, v in zip(st.solved_for, st.values) if v is not None}
        found.update((g.name, g.value) for g in sol.given if not g.is_formula)
        if required:
            found[_REQUIRED] = required
        return found

    def shown(sol: Any, name: str, value: Any, unit_system: str) -> str:
        """The value as the question's write-up shows it: in the unit it was written in, if given."""
        if name == _REQUIRED:
            return value
        dims = catalog.quantities[name].dims
        given = next((g for g in sol.given if g.name == name), None)
        unit = written_unit(given.text, dims, catalog.units) if given is not None else None
        return f"{latex_expr(catalog.symbol(name), catalog)} = {latex_value(value, dims, unit_system, unit=unit)}"

    out = [""] * len(solutions)
    groups: dict[str, list[int]] = {}
    for i, sol in enumerate(solutions):
        groups.setdefault(sol.target, []).append(i)
    for target, members in groups.items():
        if len(members) < 2:
            continue
        values = [values_of(solutions[i], conditions[i]) for i in members]
        names = [n for n in dict.fromkeys(g.name for i in members for g in solutions[i].given if not g.is_formula)
                 if n != target] + [_REQUIRED]
        chosen = _fewest_telling_apart(values, names)
        for i, v in zip(members, values):
            out[i] = ",\\; ".join(shown(solutions[i], n, v[n], units[i]) for n in names if n in chosen and n in v)
    return out


def _fewest_telling_apart(values: Sequence[Mapping[str, Any]], names: Sequence[str]) -> list[str]:
    """Names whose values tell every pair of ``values`` apart, as few as greedily found: each time the
    one that tells the most pairs still alike apart, a name all of them have before one some lack."""
    def alike(a: Mapping[str, Any], b: Mapping[str, Any], chosen: Sequence[str]) -> bool:
        return all(str(a.get(n)) == str(b.get(n)) for n in chosen)

    chosen: list[str] = []
    pairs = [(a, b) for k, a in enumerate(values) for b in values[k + 1:]]
    while True:
        left = [(a, b) for a, b in pairs if alike(a, b, chosen)]
        split = {n: sum(not alike(a, b, [n]) for a, b in left) for n in names if n not in chosen}
        best = max(split, key=lambda n: (split[n], all(n in v for v in values)), default=None)
        if not left or best is None or split[best] == 0:
            return chosen
        chosen.append(best)


def _one_letter_each(problem: "Problem", questions: list[dict[str, Any]]) -> None:
    """A letter the problem gives a quantity (``symbols:``) is no other quantity's in its write-up."""
    from ..errors import CatalogError

    renamed = dict(problem.symbols)
    if not renamed:
        return
    for q in questions:
        s = q["s"]
        shown = [s["target"], *s["given"]]
        for st in s["steps"]:
            shown += [*st.get("solved_for", ()), *st.get("pending", ())]
        for item in shown:
            clash = next((qid for qid, latex in renamed.items() if latex == item["symbol"] and qid != item["id"]),
                         None)
            if clash:
                raise CatalogError(f"symbols: {clash} is written {item['symbol']}, which question {q['id']} also "
                                   f"uses for {item['id']}: one letter for two quantities", file=problem.file)


def _mark_reused(questions: list[dict[str, Any]]) -> None:
    """A quantity an earlier question derived (same quantity, same value) is cited, not derived again:
    its step gets ``reused_from`` (that question's number) and ``reused_latex`` (``M = 17.18 GB``)."""
    derived: dict[tuple[str, str], int] = {}
    for q in questions:
        steps = q["s"]["steps"]
        for i, st in enumerate(steps):
            if st["kind"] == "relation" and not st["results"] and st["rows"] and len(st["solved_for"]) == 1:
                # a relation kept in symbols, the same in an earlier question: cited with its equation
                key = (st["relations"][0]["id"], " ".join(" ".join(r) for r in st["rows"]))
                if key in derived:
                    st["reused_from"] = derived[key]
                    st["reused_latex"] = " ".join(" ".join(r) for r in st["rows"]).strip()
                else:
                    derived[key] = q["n"]
                continue
            if st["kind"] != "relation" or not st["results"] or len(st["solved_for"]) != 1:
                continue
            key = (st["solved_for"][0]["id"], st["results"][0]["exact"])
            last = i == len(steps) - 1 or all(later["kind"] == "round" for later in steps[i + 1:])
            if key in derived and not last:
                st["reused_from"] = derived[key]
                st["reused_latex"] = f"{st['solved_for'][0]['symbol']} = {st['results'][0]['latex']}"
            else:
                derived.setdefault(key, q["n"])
        _drop_unread(q)


def _drop_unread(q: dict[str, Any]) -> None:
    """What the question's own derivation does not read goes: an earlier result that only fed another
    cited result (Question 7 of Problem 4 cited M_A, M_x and W_mm beside the four times it takes the max
    of), and a given value that only such a result used (Question 2 listed D, F and b_w beside the
    M_A = 17.18 GB it cites). Citations open the derivation, listed by the question they come from: each is
    then stated before the step that reads it (kept in place but sorted, "From Question 3: m_kv" came
    after the step M_kv = B·S·m_kv)."""
    s = q["s"]
    steps = s["steps"]
    read = {s["target"]["id"]}
    for st in steps:
        if not st["reused_from"]:
            read.update(st.get("inputs", ()))
            read.update(u["id"] for u in st["solved_for"])
    kept: list[dict[str, Any]] = []
    for st in reversed(steps):
        if not st["reused_from"]:
            kept.append(st)
        elif any(u["id"] in read for u in st["solved_for"]):
            kept.append(st)
            if not st["results"]:         # a relation cited in symbols: its equation's symbols are read too
                read.update(st.get("inputs", ()))
    kept.reverse()
    cited = sorted((st for st in kept if st["reused_from"]), key=lambda st: st["reused_from"])
    s["steps"] = cited + [st for st in kept if not st["reused_from"]]
    s["given"] = [g for g in s["given"] if g["id"] in read]


def render_report(problem: "Problem", fmt: str, lang: str, *, catalog: "Catalog", units: str | None = None,
                  templates: str | os.PathLike | None = None, context: dict[str, Any] | None = None) -> str:
    """The text of one report in one format (md, html, tex, beamer) and language (en, zh, both)."""
    from ..writeup.render import render_template, template_mode

    if fmt not in REPORT_FORMATS:
        raise InputError(f"unknown report format {fmt!r}; choose from {', '.join(ALL_FORMATS)}")
    if lang not in ("en", "zh", "both"):
        raise InputError(f"unknown language {lang!r}; choose en, zh or both")
    base = context if context is not None else report_context(problem, catalog, units)
    template = REPORT_FORMATS[fmt][0]
    other = {"en": "zh", "zh": "en"}.get(lang)
    ctx = dict(base, lang=lang, output=template_mode(template),
               other_language_file=f"{base['problem']['stem']}.{other}.{REPORT_FORMATS[fmt][1]}" if other else "")
    return render_template(template, ctx, templates=templates)


def write_reports(files: Sequence[str | os.PathLike], out_dir: str | os.PathLike, *, langs: Sequence[str],
                  formats: Sequence[str], units: str | None = None, templates: str | os.PathLike | None = None,
                  catalog: "Catalog | None" = None) -> list[ReportFile]:
    """Render every problem file in every language and format into ``out_dir``; returns what was written.

    Every file is written atomically; an output that is one of the inputs, or two outputs with one name
    (two problem files of the same name), is refused before anything is written. PDFs are compiled
    concurrently (one xelatex per core) while the next reports are rendered.
    """
    from concurrent.futures import ThreadPoolExecutor

    from ..catalog.loader import load_catalog
    from ..storage.atomic import OutputPlan, write_atomic
    from ..writeup.latex_build import compile_tex, interruptible
    from .problems import load_problem

    catalog = catalog or load_catalog()
    out = Path(out_dir)
    plan = OutputPlan([*files])
    for file in files:
        stem = Path(file).name.removesuffix(".yaml").removesuffix(".yml")
        for lang in langs:
            for fmt in formats:
                if fmt == "pdf":
                    plan.claim(out / f"{stem}.{lang}.pdf", str(file))
                    if "beamer" in formats:
                        plan.claim(out / f"{stem}.{lang}.slides.pdf", str(file))
                else:
                    plan.claim(out / f"{stem}.{lang}.{REPORT_FORMATS[fmt][1]}", str(file))
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create {out_dir}: {exc.strerror or exc}") from exc
    written: list[ReportFile] = []
    builds = []
    # an interrupt ends the running TeX builds before the pool waits for them
    with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool, interruptible():
        for file in files:
            problem = load_problem(file, catalog)
            context = report_context(problem, catalog, units)
            stem = context["problem"]["stem"]
            for lang in langs:
                texts: dict[str, str] = {}
                for fmt in formats:
                    if fmt == "pdf":
                        continue
                    texts[fmt] = render_report(problem, fmt, lang, catalog=catalog, templates=templates,
                                               context=context)
                    path = out / f"{stem}.{lang}.{REPORT_FORMATS[fmt][1]}"
                    write_atomic(path, texts[fmt])
                    written.append(ReportFile(str(file), fmt, lang, path))
                if "pdf" in formats:
                    for fmt, suffix in (("tex", "pdf"), ("beamer", "slides.pdf")):
                        if fmt == "beamer" and "beamer" not in formats:
                            continue
                        source = texts.get(fmt) or render_report(problem, fmt, lang, catalog=catalog,
                                                                 templates=templates, context=context)
                        path = out / f"{stem}.{lang}.{suffix}"
                        builds.append(pool.submit(compile_tex, source, path))
                        written.append(ReportFile(str(file), "pdf" if fmt == "tex" else "slides-pdf", lang, path))
        first_error = None
        for fut in builds:
            try:
                fut.result()
            except Exception as exc:  # every build finishes; the first failure is reported
                first_error = first_error or exc
    if first_error is not None:
        raise first_error
    return written
