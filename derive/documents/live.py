"""Live sources (``derive render SOURCE``): Markdown, LaTeX or HTML in which every number is an engine call.

A source is a Jinja template run in Jinja's sandbox, with these names::

    {{ q("critical_ai", hw="a100") }}                                   -> 156 FLOP/B
    {{ q("kv_cache_bytes", model="llama2-70b", seq_len=4096, batch=256) | unit("GiB") }}   -> 320 GiB
    {{ solution("d_model", hw="tpu-v5e", presets=["classic-ffn"], bound="max",
                require=["ffn_fits_in_vmem"]) }}                        -> the whole worked solution
    {{ plot("roofline", hw=["a100", "h100"]) }}                         -> an image beside the output
    {{ name("critical_ai_hbm") }}                                       -> the catalog's name, in --lang
    {{ const("hbm_bw", hw="a100") }}                                    -> 2 TB/s, a preset's constant
    {{ q("intensity_gap", hw="a100", arithmetic_intensity=q("elementwise_intensity", preset="op-add")) }}
    {% for c in claims("claims/bandwidth-wall.yaml", verdict="erratum") %} ... {% endfor %}

* ``q(TARGET, **inputs)`` solves with :func:`derive.solve`: the options ``hw``,
  ``model``, ``preset``/``presets``, ``bound``, ``require``, ``multiple_of`` and
  the inputs ``NAME=VALUE`` (numbers in the quantity's declared unit, or text
  with a unit, ``"3.35 TB/s"``). It prints as the engine's display in the
  chosen unit system (``--units si`` or ``iec``; ``units="iec"`` per call);
  ``| unit("GiB")`` converts to a named unit and refuses another dimension;
  ``.value`` (base units), ``.exact``, ``.unit`` and ``.regime`` (the name of
  the max/min regime the answer is in, e.g. 带宽瓶颈) are there too, and
  ``| percent`` prints a pure number as a percentage. A value from ``q()`` or
  ``const()`` can be another call's input, so no number is ever retyped.
* ``const(NAME, hw=..., model=..., preset=...)`` is a preset's own constant
  (the engine derives a quantity it is asked for, so ``q`` cannot show one).
* ``claims(FILE, verdict=None)`` are ``derive check``'s verdicts on a claims
  file (path relative to the source): ``.quote``, ``.stated``, ``.computed``,
  ``.verdict``, ``.note``, for a table of where a chapter and the engine differ.
* ``solution(...)`` takes the same arguments and embeds the worked solution
  (``templates/live-solution.*.j2``, the shared ``records.solution.j2``); ``level=3``
  sets its heading level. A LaTeX source that embeds solutions or plots starts
  with ``{{ preamble() }}`` (derive's own article preamble, plus graphicx).
* ``plot(KIND, ...)`` draws with :mod:`derive.plot.figures` into ``img/`` beside the
  output (PNG for Markdown, SVG for HTML, PDF for LaTeX; ``format=`` to choose)
  and inserts the reference.

Any failure (an unknown name, a solve that fails, a wrong unit) stops the
render with a :class:`~derive.TemplateError` naming the source file and line.
In LaTeX sources the statement and comment delimiters are ``((* ... *))`` and
``((# ... #))`` (LaTeX itself uses ``{%`` and ``{#``); values stay ``{{ ... }}``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from ..errors import DeriveError, InputError, TemplateError, UnitError
from ..records.question import OPTIONS

if TYPE_CHECKING:  # pragma: no cover
    import sympy

    from ..records.catalog import Catalog
    from ..records.solution import Solution
    from ..symbolic.units import Dimension, UnitTable

__all__ = ["LiveValue", "language_of", "render_source"]

_OPTIONS = (*OPTIONS, "preset", "units", "digits")    # a question's options, and how a value is printed


def mode_of(path: str | os.PathLike) -> str:
    from ..writeup.formats import MARKUPS, markup_of_source

    mode = markup_of_source(Path(path).suffix)
    if mode is None:
        ends = ", ".join(s for m in MARKUPS.values() for s in m.source_suffixes)
        raise InputError(f"cannot tell the format of {Path(path).name}: a live source ends in one of {ends}")
    return mode


# ---------------------------------------------------------------------------
# values


class LiveValue:
    """A number from the engine in a live source; prints as the engine's display of it."""

    def __init__(self, target: str, value: "sympy.Expr", dims: "Dimension", units: str, mode: str,
                 digits: int | None = None, regime: str = "", table: "UnitTable | None" = None) -> None:
        self._table = table          # the catalog's units, for .to(UNIT)
        self._target = target
        self._value = value
        self._dims = dims
        self._units = units
        self._mode = mode
        self._digits_asked = digits is not None
        self._digits = _digits(digits) if digits is not None else 4
        self._regime = regime

    @property
    def value(self) -> float:
        """The value in base units (B, FLOP, s, FLOP/B, ...)."""
        return float(self._value.evalf(17))

    @property
    def exact(self) -> str:
        return str(self._value)

    @property
    def unit(self) -> str:
        return self._dims.unit_string()

    @property
    def regime(self) -> str:
        """The name of the regime the answer is in (compute-bound, memory-bound, ...), in the source's language."""
        return self._regime

    @property
    def text(self) -> str:
        import sympy

        from ..symbolic.units import format_value

        # digits= asked for: round even a short exact decimal (9.74592 -> 9.7 with digits=2)
        value = sympy.Float(self._value, 30) if self._digits_asked else self._value
        f = format_value(value, self._dims, self._units, self._digits)
        return _spell(f.mantissa, f.unit, self._mode)

    def __str__(self) -> str:
        return self.text

    def __html__(self) -> str:
        from markupsafe import escape

        return str(escape(self.text))

    def to(self, unit: str, digits: int | None = None) -> str:
        """The value in ``unit`` (``"GiB"``, ``"TB/s"``, ``"ms"``); the dimensions must agree."""
        import sympy

        from ..symbolic.units import format_number, parse_unit

        if self._table is None:
            raise UnitError(f"{self._target} cannot be converted: it carries no unit table", unit=unit)
        factor, dims = parse_unit(unit, self._table)
        if dims != self._dims:
            raise UnitError(f"{self._target} is in {self.unit}, not in {unit} ({dims.unit_string()}); "
                            f"convert it to a unit of {self.unit}",
                            unit=unit, quantity=self._target, expected=self.unit, got=dims.unit_string())
        mantissa = self._value / sympy.Rational(factor.numerator, factor.denominator)
        return _spell(format_number(mantissa, _digits(digits) if digits is not None else self._digits), unit,
                      self._mode)

    def percent(self, digits: int | None = None) -> str:
        """A pure number as a percentage: ``0.001068`` → ``0.1068%``."""
        from ..symbolic.units import format_number

        if not self._dims.is_dimensionless:
            raise UnitError(f"{self._target} is in {self.unit}; only a pure number can be a percentage",
                            quantity=self._target, expected="1", got=self.unit)
        text = format_number(self._value * 100, _digits(digits) if digits is not None else self._digits)
        return text + ("\\%" if self._mode == "tex" else "%")


def _digits(value: Any) -> int:
    """``digits=`` from a source: a whole number of significant digits from 1 to 30."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 30:
        raise InputError(f"digits= takes a whole number of significant digits from 1 to 30, not {value!r}")
    return value


def _level(value: Any) -> int:
    """``level=`` from a source: a heading level from 1 to 6."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise InputError(f"level= takes a heading level from 1 to 6, not {value!r}")
    return value


def _spell(mantissa: str, unit: str, mode: str) -> str:
    """``1.97e14 FLOP/s`` as the output needs it (LaTeX gets math that works in text and in math mode)."""
    from ..symbolic.units import SIGNS, Formatted

    if mode == "tex":
        from ..writeup.present import latex_number, latex_unit

        u = latex_unit(unit) if unit not in ("", "1") else ""
        return r"\ensuremath{" + latex_number(mantissa) + ((u if unit in SIGNS else r"\," + u) if u else "") + "}"
    if mode == "md" and "e" in mantissa:
        from ..writeup.present import latex_number

        # a power of ten is typeset, never printed as 7e9: $7\times 10^{9}$
        mantissa = f"${latex_number(mantissa)}$"
    return Formatted(mantissa, unit).text


# ---------------------------------------------------------------------------
# the names a source can use


@dataclass
class _Context:
    source: Path
    mode: str
    lang: str
    units: str
    output: Path | None
    catalog: "Catalog"
    images: bool = True
    plots: list[Path] = field(default_factory=list)
    _claims: dict[str, list] = field(default_factory=dict)

    # -- engine calls ---------------------------------------------------------

    def _solve(self, target: Any, kwargs: Mapping[str, Any]) -> tuple["Solution", dict[str, Any]]:
        from ..engine.solver import solve
        from ..records.question import Question

        if not isinstance(target, str):
            raise InputError(f"the first argument must be a quantity name in quotes, not {target!r}")
        options = {k: kwargs[k] for k in _OPTIONS if k in kwargs}
        given = {k: self._input(k, v) for k, v in kwargs.items() if k not in _OPTIONS}
        presets = _names(options.get("presets", ())) + _names(options.get("preset", ()))
        question = Question.of(target, given, hw=options.get("hw"), model=options.get("model"), presets=presets,
                               bound=options.get("bound"), require=_names(options.get("require", ())),
                               multiple_of=options.get("multiple_of"), rounding=options.get("rounding", True),
                               unit=options.get("unit"), assume=_names(options.get("assume", ())),
                               minimize=options.get("minimize"), maximize=options.get("maximize"))
        sol = solve(question, catalog=self.catalog)
        return sol, options

    def _input(self, name: str, value: Any) -> Any:
        """A q()/const() value used as another call's input: its exact value, in the declared unit."""
        if not isinstance(value, LiveValue):
            return value
        q = self.catalog.quantity(name)
        if value._dims != q.dims:
            raise UnitError(f"{q.id} is in {q.base_unit}, but the value given for it ({value._target}) is in "
                            f"{value.unit}", quantity=q.id, expected=q.base_unit, got=value.unit)
        exact = value._value / q.factor
        if not exact.is_Rational:
            raise InputError(f"{value._target} = {exact} is not a rational number; give {q.id} a number")
        return exact

    def _units(self, options: Mapping[str, Any]) -> str:
        units = options.get("units", self.units)
        if units not in ("si", "iec"):
            raise InputError(f"units must be 'si' or 'iec', not {units!r}")
        return units

    def _regime_name(self, sol: "Solution") -> str:
        from ..writeup.render import pick

        for step in sol.steps:
            if step.regime:
                rel = self.catalog.relations[step.relation]
                reg = next(r for r in rel.regimes if r.id == step.regime)
                return pick({"en": reg.name.en, "zh": reg.name.zh}, self.lang)
        return ""

    def q(self, target: str, **kwargs: Any) -> LiveValue:
        sol, options = self._solve(target, kwargs)
        return LiveValue(sol.target, sol.value, sol.dims, self._units(options), self.mode,
                         options.get("digits"), self._regime_name(sol), self.catalog.units)

    def const(self, name: str, hw: str | None = None, model: str | None = None, preset: Any = None,
              presets: Any = None, units: str | None = None, digits: int | None = None) -> LiveValue:
        """A preset's constant (or the catalog's default) as the engine takes it: ``const("hbm_bw", hw="a100")``."""
        _text_argument("const", name, "a quantity name in quotes")
        q = self.catalog.quantity(name)
        chosen = []
        if hw:
            chosen.append(self.catalog.preset(hw, "hw"))
        if model:
            chosen.append(self.catalog.preset(model, "model"))
        chosen += [self.catalog.preset(p) for p in _names(presets) + _names(preset)]
        value = None
        for p in chosen:                     # later presets win, as in solve()
            if q.id in p.values:
                value = p.values[q.id].value
        if value is None and q.default is not None and not chosen:
            value = q.default.value
        if value is None:
            where = ", ".join(p.id for p in chosen) or "no preset"
            raise InputError(f"{q.id} has no value in {where}; name the preset that holds it")
        from ..records.overrides import record

        record(self.catalog.overrides_in(quantities=[q.id], presets=[p.id for p in chosen]))
        return LiveValue(q.id, value, q.dims, self._units({"units": units or self.units}), self.mode, digits,
                         table=self.catalog.units)

    def claims(self, file: str, verdict: str | None = None) -> list["ClaimView"]:
        """The verdicts of ``derive check`` on a claims file, a path below the source's folder."""
        from .claims import check_claims

        folder = self.source.parent.resolve()
        path = (folder / str(file)).resolve()
        if Path(str(file)).is_absolute() or not path.is_relative_to(folder):
            raise InputError(f"claims({str(file)!r}): a claims file is read only from the source's folder "
                             f"or below it ({folder})")
        key = str(path)
        if key not in self._claims:
            self._claims[key] = [ClaimView(r, self.lang, self.mode) for r in check_claims(path, self.catalog)]
        return [c for c in self._claims[key] if verdict is None or c.verdict_id == verdict]

    def solution(self, target: str, level: int = 3, **kwargs: Any) -> str:
        from ..writeup.present import build_view
        from ..writeup.render import render_template

        sol, options = self._solve(target, kwargs)
        units = options.get("units", self.units)
        view = build_view(sol, units)
        text = render_template(f"live-solution.{self.mode}.j2",
                               {"s": view, "lang": self.lang, "units": units, "output": self.mode,
                                "level": _level(level)})
        return _markup(text, self.mode)

    def preamble(self) -> str:
        from ..writeup.render import render_template

        if self.mode != "tex":
            raise InputError("preamble() writes a LaTeX preamble; use it in .tex sources")
        return render_template("live-preamble.tex.j2", {"lang": self.lang})

    def name(self, ident: str, lang: str | None = None) -> str:
        """The catalog's name of a quantity, relation, condition or preset, in the source's language."""
        from ..records.entries import Reference
        from ..writeup.render import pick

        _text_argument("name", ident, "a name in quotes")
        entry = self.catalog.entry(ident)[0]
        if isinstance(entry, Reference):        # a reference: its title
            text = entry.title
        else:
            text = pick({"en": entry.name.en, "zh": entry.name.zh}, lang or self.lang)
        if self.mode == "tex":
            from ..writeup.render import latex_escape

            return latex_escape(text)
        if self.mode == "md":
            from ..writeup.escape import markdown_escape

            return markdown_escape(text)
        return text

    def plot(self, kind: str, format: str | None = None, width: str = r"\linewidth", alt: str | None = None,
             **kwargs: Any) -> str:
        from ..plot import figures as plots
        from ..writeup.formats import MARKUPS
        from ..writeup.render import pick

        fmt = format or MARKUPS[self.mode].image
        if fmt not in plots.FORMATS:
            raise InputError(f"plot format must be png, svg or pdf, not {fmt!r}")
        if self.mode == "tex" and fmt == "svg":
            raise InputError("LaTeX cannot include SVG; use format='pdf' or 'png'")
        if self.mode != "tex" and fmt == "pdf":
            raise InputError("Markdown and HTML cannot show a PDF; use format='png' or 'svg'")
        if not self.images:
            raise InputError("plot() writes an image file beside the output; render with -o FILE to say where "
                             "(images go to img/ beside it)")
        base = self.output if self.output is not None else self.source
        stem = base.name.split(".")[0] if base.name.split(".")[0] else "live"
        suffixes = "".join(s for s in base.suffixes[:-1] if s != ".src")
        index = len(self.plots) + 1
        relative = Path("img") / f"{stem}{suffixes}-{index}-{plots.kind_of(kind)}.{fmt}"
        target = base.parent / relative
        lang = kwargs.pop("lang", self.lang)
        seq_lens = kwargs.pop("seq_lens", None)
        points = kwargs.pop("points", None)
        presets = _names(kwargs.pop("presets", ())) + _names(kwargs.pop("preset", ()))
        hw = kwargs.pop("hw", ())
        model = kwargs.pop("model", None)
        fig = plots.figure(kind, hw=hw, model=model, lang=lang, given=kwargs or None, points=points,
                           seq_lens=seq_lens, presets=presets, catalog=self.catalog)
        plots.save(fig, target)
        self.plots.append(target)
        title = alt or pick(fig.derive_data.title, lang)   # type: ignore[attr-defined]
        ref = relative.as_posix()
        if self.mode == "tex":
            return rf"\includegraphics[width={width}]{{{ref}}}"
        if self.mode == "html":
            from markupsafe import Markup, escape

            return Markup(f'<img src="{escape(ref)}" alt="{escape(title)}">')
        return f"![{_md_alt(title)}]({ref})"


class ClaimView:
    """One checked claim of a chapter, for a source's errata table: what it says, what the engine finds."""

    def __init__(self, result: Any, lang: str, mode: str) -> None:
        from ..writeup.render import message_function, template_dirs
        from .claims import computed_text, note_text

        msg = message_function(tuple(template_dirs()))
        self.id = result.claim.id
        self.verdict_id = result.verdict
        self.verdict = msg(f"check_verdict_{result.verdict}", lang)
        self.quote = result.claim.quote
        self.where = result.claim.where
        self.stated = result.claim.stated.text
        self.computed = computed_text(result)
        self.note = note_text(result, lang)
        if mode in ("tex", "md"):      # text from the claims file, made safe for the output
            from ..writeup.render import latex_escape, markdown_escape, prose_filter

            escape = latex_escape if mode == "tex" else markdown_escape
            for attr in ("verdict", "quote", "where", "stated", "computed"):
                setattr(self, attr, escape(getattr(self, attr)))
            self.note = str(prose_filter(mode)(self.note))   # the engine's words: numbers typeset as math


def _text_argument(function: str, value: Any, what: str) -> None:
    if not isinstance(value, str):
        raise InputError(f"the first argument of {function}() must be {what}, not {value!r:.60}")


def _names(value: Any) -> tuple[str, ...]:
    if value is None or value == ():
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise InputError(f"expected a name or a list of names, not {value!r}")


def _md_alt(text: str) -> str:
    return text.replace("[", "(").replace("]", ")").replace("\n", " ")


def _markup(text: str, mode: str) -> Any:
    if mode == "html":
        from markupsafe import Markup

        return Markup(text)
    return text


# ---------------------------------------------------------------------------
# rendering


def _environment(mode: str, source: Path, text: str):
    import jinja2

    from ..writeup.sandbox import sandbox

    delimiters = {}
    if mode == "tex":
        delimiters = dict(block_start_string="((*", block_end_string="*))",
                          comment_start_string="((#", comment_end_string="#))")
    name = str(source)
    return sandbox(jinja2.FunctionLoader(lambda n: (text, name, lambda: True) if n == name else None), mode,
                   **delimiters)


def _line_in(exc: BaseException, filename: str) -> int | None:
    """The innermost line of the source in the exception's traceback (Jinja rewrites it to the source)."""
    line = getattr(exc, "lineno", None) if getattr(exc, "filename", None) == filename else None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def language_of(source: str | os.PathLike, default: str = "en") -> str:
    """The language a source's file name states (``chapter.zh.src.md`` → ``zh``), else ``default``."""
    parts = Path(source).name.lower().split(".")
    for lang in ("zh", "en", "both"):
        if lang in parts[1:]:
            return lang
    return default


def render_source(source: str | os.PathLike, *, output: str | os.PathLike | None = None, lang: str = "en",
                  units: str = "si", text: str | None = None, catalog: "Catalog | None" = None,
                  images: bool = True) -> str:
    """Render a live source and return the text; plots are written beside ``output`` (or the source).

    ``images=False`` writes no file: a ``plot(...)`` in the source is then an error (the command line renders
    to standard output this way, since it has no folder to put images in).

    Raises :class:`~derive.TemplateError` with the source's file and line on any failure inside it.
    """
    import jinja2

    from ..writeup.render import LANGS

    source = Path(source)
    mode = mode_of(source)
    if lang not in LANGS:
        raise InputError(f"unknown language {lang!r}; choose en, zh or both")
    if units not in ("si", "iec"):
        raise InputError(f"unknown unit system {units!r}; choose si or iec")
    if text is None:
        from ..storage.files import read_user_file

        try:
            text = read_user_file(source).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"cannot read {source}: it is not UTF-8 text") from exc
    if catalog is None:
        from ..catalog.loader import load_catalog

        catalog = load_catalog()
    ctx = _Context(source, mode, lang, units, Path(output) if output else None, catalog, images)
    env = _environment(mode, source, text)
    env.globals.update(q=ctx.q, const=ctx.const, solution=ctx.solution, plot=ctx.plot, name=ctx.name,
                       claims=ctx.claims, lang=lang, units=units)
    if mode == "tex":
        env.globals["preamble"] = ctx.preamble
    env.filters["unit"] = _unit_filter
    env.filters["percent"] = _percent_filter
    name = str(source)
    try:
        from ..storage.atomic import staged
        from ..writeup.render import md_math_spacing
        from ..writeup.sandbox import render_bounded

        with staged():      # its images are published when the render succeeds, or not at all
            out = render_bounded(env.get_template(name), {})
        return md_math_spacing(out) if mode == "md" else out
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(f"syntax error: {exc.message}", file=name, line=exc.lineno) from None
    except SyntaxError as exc:   # Jinja's parser let it through, Python's compiler did not (a repeated keyword)
        raise TemplateError(f"syntax error: {exc.msg}", file=name) from None
    except TemplateError as exc:
        if exc.file == name:
            raise
        raise TemplateError(str(exc), file=name, line=_line_in(exc, name)) from exc
    except DeriveError as exc:
        raise TemplateError(str(exc), file=name, line=_line_in(exc, name)) from exc
    except jinja2.UndefinedError as exc:
        raise TemplateError(f"{exc.message} (the names a source can use: q, const, solution, plot, name, claims"
                            f"{', preamble' if mode == 'tex' else ''}, lang, units)", file=name,
                            line=_line_in(exc, name)) from None
    except jinja2.exceptions.SecurityError as exc:
        raise TemplateError(f"the source tried something unsafe: {exc}", file=name, line=_line_in(exc, name)) from None
    except TypeError as exc:   # a tag called with arguments it does not take
        raise TemplateError(f"bad call: {exc}", file=name, line=_line_in(exc, name)) from None
    except Exception as exc:   # {{ 1/0 }}, range(10**9): the source's mistake; from derive's code: internal
        from ..writeup.render import raised_by_template

        if not raised_by_template(exc, name):
            raise
        raise TemplateError(f"{type(exc).__name__}: {exc}", file=name, line=_line_in(exc, name)) from None


def _undefined(value: Any) -> None:
    """An undefined name handed to a filter: say so, as any other use of it does."""
    import jinja2

    if isinstance(value, jinja2.Undefined):
        value._fail_with_undefined_error()


def _percent_filter(value: Any, digits: int | None = None) -> str:
    _undefined(value)
    if not isinstance(value, LiveValue):
        raise InputError(f"percent converts a value from q(...) or const(...), not {type(value).__name__}")
    return value.percent(digits)


def _unit_filter(value: Any, unit: str, digits: int | None = None) -> str:
    _undefined(value)
    if not isinstance(value, LiveValue):
        raise InputError(f"unit({unit!r}) converts a value from q(...), not {type(value).__name__}")
    return value.to(unit, digits)
