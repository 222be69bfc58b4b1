"""Render solutions and catalog entries through the Jinja templates in ``templates/``.

Templates get a *view* (plain data, see ``writeup/present.py``) and two helpers:
``msg(key, lang, **fields)`` for the words in ``templates/messages*.yaml`` and
``pick(texts, lang)`` for a catalog text in one language. The output mode comes
from the template's name (``.html.j2``, ``.md.j2``, ``.tex.j2``/``.beamer.j2``,
else plain text): in each mode ``msg`` and ``pick`` return text escaped for it
(HTML entities, Markdown and ``$``, or LaTeX's ``% & _ # $ { } ~ ^ \\``), the
``math`` filter writes LaTeX math as ``$...$``, as ``\\[...\\]`` or as MathML made
on the server, and the ``tex``/``md`` filters escape a raw catalog field. Templates
run in Jinja's sandbox with undefined names as errors and HTML autoescaped, so a
user's own template folder (``--templates DIR``, searched before the built-in
one) cannot run code.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

from ..errors import InputError, TemplateError
from .asides import inside_own_aside
from .escape import (
    INLINE_MATH,
    latex_escape,
    latex_url,
    markdown_escape,
    math_filter,
    plain_prose,
    visible_length,
)
from .formats import FORMATS as _ALL_FORMATS
from .formats import LANGS, escaper, markup_of_template, output_format

__all__ = ["FORMATS", "LANGS", "environment_for", "latex_escape", "latex_url", "markdown_escape", "message_table",
           "pick", "render_solution", "render_template", "template_dirs", "template_files"]

# the formats that write one worked solution, and their templates (a view of the one table in _formats.py)
FORMATS = {f.name: f.solution for f in _ALL_FORMATS.values() if f.solution}


def default_templates_dir() -> Path:
    env = os.environ.get("DERIVE_TEMPLATES")
    if env:
        return Path(env)
    from ..storage.resources import builtin_dir

    return builtin_dir("templates")


def template_dirs(user_dir: str | os.PathLike | None = None) -> list[Path]:
    dirs = []
    if user_dir:
        p = Path(user_dir)
        if not p.is_dir():
            raise InputError(f"`templates` {user_dir}: no such folder")
        dirs.append(p)
    dirs.append(default_templates_dir())
    return dirs


@lru_cache(maxsize=8)
def _messages(dirs: tuple[Path, ...]) -> dict[str, dict[str, str]]:
    """The merged message tables of ``dirs``, cached on disk as JSON (data only) keyed by their content."""
    import hashlib

    from ..errors import CatalogError
    from ..storage.cache import read_entry, write_entry
    from ..storage.files import read_user_file

    files = [p for d in dirs for p in sorted(d.glob("messages*.yaml"))]
    digest = hashlib.sha256(b"derive-messages-2")
    for f in files:
        _inside_folder(f, dirs)
        try:                        # a regular file only: a FIFO named messages-x.yaml blocked here forever
            data = read_user_file(f)
        except CatalogError as exc:
            raise TemplateError(exc.bare_message, file=str(f)) from exc
        digest.update(f"{f.name}\0".encode() + data + b"\0")
    key = digest.hexdigest()
    stored = read_entry("messages", key)
    if stored is not None and _is_table(stored):
        return dict(stored)
    table = _read_messages(dirs)
    write_entry("messages", key, table)
    return table


def _is_table(table: Any) -> bool:
    return isinstance(table, dict) and all(
        isinstance(k, str) and isinstance(v, dict) and all(isinstance(a, str) and isinstance(b, str)
                                                           for a, b in v.items()) for k, v in table.items())


def _read_messages(dirs: tuple[Path, ...]) -> dict[str, dict[str, str]]:
    from ..errors import CatalogError
    from ..storage.yamlio import read_yaml

    table: dict[str, dict[str, str]] = {}
    for d in reversed(dirs):  # the user's folder wins
        origin: dict[str, Path] = {}
        for path in sorted(d.glob("messages*.yaml")):   # messages.yaml, messages-report.yaml, ...
            try:
                data = read_yaml(path)
            except CatalogError as exc:
                raise TemplateError(exc.bare_message, file=str(path), line=exc.line) from exc
            if not isinstance(data, dict):
                raise TemplateError("messages must map keys to {en, zh}", file=str(path))
            for key, val in data.items():
                if not isinstance(val, dict):
                    raise TemplateError(f"message {key!r} must have en and zh", file=str(path),
                                        line=getattr(val, "line", None))
                if key in origin:
                    raise TemplateError(f"message {key!r} is also defined in {origin[key].name}", file=str(path),
                                        line=getattr(val, "line", None))
                origin[str(key)] = path
                table[str(key)] = {str(k): str(v) for k, v in val.items()}
    return table


def message_table(templates: str | os.PathLike | None = None) -> dict[str, dict[str, str]]:
    """Every message key with its texts (for tests that check translations are complete)."""
    return dict(_messages(tuple(template_dirs(templates))))


def _fill(text: str, fields: Mapping[str, Any], escape) -> str:
    """``text.format(**fields)`` where the message's own words and every plain field are escaped.

    Only plain field names are looked up (``{name}``, never ``{name.attr}`` or ``{name[0]}``), and a
    format spec's width or precision is bounded (``{value:>1000000000}`` is refused).

    A field that is already formatted (``markupsafe.Markup``, e.g. ``"$D$" | safe`` or
    MathML) is put in as it is.
    """
    import string

    from markupsafe import Markup

    out = []
    for literal, name, spec, _conversion in string.Formatter().parse(text):
        out.append(escape(literal))
        if name is None:
            continue
        if name not in fields:
            raise KeyError(name)
        value = fields[name]
        if spec:
            from .sandbox import check_format_spec

            check_format_spec(spec)
        if not isinstance(value, Markup):
            value = escape(format(value, spec or ""))
        out.append(str(value))
    return Markup("".join(out))


def message_function(dirs: tuple[Path, ...], mode: str = "text"):
    table = _messages(dirs)
    escape = escaper(mode)

    def msg(key: str, lang: str = "en", **fields: Any) -> str:
        if not isinstance(key, str) or not isinstance(lang, str):     # called by templates, with anything
            raise TemplateError(f"msg() takes a message key and a language as text, not {key!r:.40} and "
                                f"{lang!r:.40}")
        entry = table.get(key)
        if entry is None and key.endswith("_one"):
            entry = table.get(key.removesuffix("_one"))      # a message with one form for one name and many
        if entry is None:
            raise TemplateError(f"no message {key!r} in templates/messages*.yaml")
        if lang == "both":
            zh, en = msg(key, "zh", **fields), msg(key, "en", **fields)
            joined = f"{zh} / {en}"
            return _markup(joined) if escape else joined
        text = entry.get(lang)
        if text is None:
            raise TemplateError(f"message {key!r} has no {lang!r} text in templates/messages*.yaml")
        # a field may itself be bilingual ({"en": ..., "zh": ...}): take this language's text
        fields = {k: (v.get(lang, v.get("en", "")) if isinstance(v, Mapping) and "en" in v else v)
                  for k, v in fields.items()}
        try:
            filled = _fill(text, fields, escape or str)
            if lang == "zh":
                filled = type(filled)(zh_typeset(filled))
            return filled if escape else str(filled)
        except (KeyError, IndexError, ValueError) as exc:
            raise TemplateError(f"message {key!r}: cannot fill {exc}") from exc

    return msg


def aside_function(msg: Callable[..., str]) -> Callable[..., str]:
    """``aside(text, extra, lang)``: the text with an aside, ``text (extra)`` as the language writes it
    (message ``w_aside``). A text that already ends in an aside of its own, 汇聚并相乘的时间（无重叠） or
    "AllGather time (ring)", takes the extra inside it (``w_aside_within``: 汇聚并相乘的时间（无重叠，
    n = 16）), never a second pair of parentheses."""

    def aside(text: Any, extra: Any, lang: str = "en") -> str:
        inner = inside_own_aside(str(text), lang) if lang in ("en", "zh") else None
        if inner is None:
            return msg("w_aside", lang, text=text, aside=extra)
        return msg("w_aside_within", lang, text=type(text)(inner) if isinstance(text, str) else inner, aside=extra)

    return aside


def _markup(text: str):
    from markupsafe import Markup

    return Markup(text)


def _pick_arguments(texts: Any, lang: Any, sep: Any = " / ") -> None:
    """``pick`` is called by templates, which may pass anything: refuse what is not a bilingual text."""
    if texts is not None and not isinstance(texts, Mapping):
        raise TemplateError(f"pick() takes a bilingual text ({{'en': ..., 'zh': ...}}), not {texts!r:.80}")
    if not isinstance(lang, str) or not isinstance(sep, str):
        raise TemplateError(f"pick() takes a language (en, zh or both) and a separator as text, not {lang!r:.40}"
                            + (f" and {sep!r:.40}" if not isinstance(sep, str) else ""))


def pick(texts: Mapping[str, str] | None, lang: str = "en", sep: str = " / ") -> str:
    """One language of a bilingual text; ``both`` gives Chinese then English."""
    _pick_arguments(texts, lang, sep)
    if texts is None:
        return ""
    if lang == "both":
        zh, en = texts.get("zh", ""), texts.get("en", "")
        return zh if zh == en else f"{zh}{sep}{en}"
    return texts.get(lang, "")


def _shown(key: str, lang: str) -> bool:
    """Whether ``pick`` in ``lang`` shows the text in language ``key`` (only those are typeset)."""
    return key == lang or lang == "both"


def _make_pick(mode: str):
    """``pick`` for an output mode: the catalog text comes out escaped (and marked as such), its ``$...$``
    typeset as math, and Chinese text spaced and punctuated (``VMEM容量`` → ``VMEM 容量``)."""
    escape = escaper(mode)
    if escape is None:
        def pick_text(texts: Mapping[str, str] | None, lang: str = "en", sep: str = " / ") -> str:
            _pick_arguments(texts, lang, sep)
            if isinstance(texts, Mapping):
                # the terminal has no math: $B^{*}_{\mathrm{HBM}}$ is written B^*_HBM
                texts = {k: plain_prose(zh_typeset(str(v)) if k == "zh" else v)
                         for k, v in texts.items() if _shown(k, lang)}
            return pick(texts, lang, sep)

        return pick_text
    prose = prose_filter(mode)

    def pick_escaped(texts: Mapping[str, str] | None, lang: str = "en", sep: str = " / "):
        from markupsafe import Markup

        _pick_arguments(texts, lang, sep)
        if isinstance(texts, Mapping):
            texts = {k: (v if isinstance(v, Markup) else prose(zh_typeset(str(v)) if k == "zh" else v))
                     for k, v in texts.items() if _shown(k, lang)}
        return Markup(pick(texts, lang, sep))

    return pick_escaped


class _Lazy:
    """A regular expression compiled on first use: a class of Chinese characters takes milliseconds to
    compile, which a command that writes no Chinese need not pay at start-up."""

    __slots__ = ("_source", "_compiled")

    def __init__(self, source: str) -> None:
        self._source = source
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        if self._compiled is None:
            self._compiled = re.compile(self._source)
        return getattr(self._compiled, name)


_HAN = "\u3400-\u4dbf\u4e00-\u9fff"
_HAN_LATIN = _Lazy(f"([{_HAN}])([A-Za-z0-9\\(\\[])")
_LATIN_HAN = _Lazy(f"([A-Za-z0-9%\\)\\]])([{_HAN}])")
_HALF_PUNCT = _Lazy(f"([{_HAN}])\\s*([:;,?!])(?=\\s|[{_HAN}]|$)")
_FULL = {":": "：", ";": "；", ",": "，", "?": "？", "!": "！"}


_ZH_NUMERALS = {"一": "1", "二": "2", "三": "3", "四": "4", "五": "5", "六": "6", "七": "7", "八": "8", "九": "9",
                "十": "10"}
_HAN_RUN = _Lazy(r"[\u3400-\u4dbf\u4e00-\u9fff][\u3400-\u4dbf\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]*")


# the words of a locator, in Chinese ("Table 1" is "表 1"); longer phrases first
_ZH_LOCATORS = (("Pop Quiz", "随堂测验"), ("Quiz", "测验"), ("Question", "问题"), ("Problem", "习题"),
                ("Figure", "图"), ("Table", "表"), ("equation", "式"), ("Equation", "式"), ("Appendix", "附录"),
                ("Algorithm", "算法"), ("Theorem", "定理"), ("Proposition", "命题"))


def localize(text: Any, lang: str = "en") -> str:
    """A source's title or locator for one language: in English, "section 三" is "section 3" and a
    Chinese title is quoted as such; in Chinese, "section 3.9" is "第 3.9 节"."""
    from .quotes import curly_quotes

    text = curly_quotes(str(text))                                    # a quoted heading, in every language
    if lang == "en":
        text = re.sub(r"\bsection ([一二三四五六七八九十])", lambda m: "section " + _ZH_NUMERALS[m.group(1)], text)
        return _HAN_RUN.sub(lambda m: f"“{m.group(0)}”", text)
    if lang == "zh":
        text = re.sub(r"\bsections? ([\d.]+(?:[-–][\d.]+)?)", r"第 \1 节", text)
        text = re.sub(r"\bsection ([一二三四五六七八九十])", r"第\1节", text)
        text = re.sub(r"\bsection [“‘]([^”’]+)[”’]", r"“\1”一节", text)         # section "TPU Specs"
        for word, zh in _ZH_LOCATORS:
            text = re.sub(rf"\b{word}s ([\d.]+) and ([\d.]+)", rf"{zh} \1 和 \2", text)   # Questions 7 and 8
            text = re.sub(rf"\b{word} ([A-Z]?[\d.]+|[A-Z]\b)", rf"{zh} \1", text)
        text = re.sub(r"\bline (\d+)", r"第 \1 行", text)
        text = re.sub(r"\bproof of (定理|命题) (\S+)", r"\1 \2 的证明", text)
        # a Chinese title's English gloss is dropped; an English title is quoted as the name it is
        text = re.sub(f"([{_HAN}]+)\\s*\\([A-Za-z ,'-]+\\)", r"\1", text)
        # a comma or semicolon between two Chinese parts (一节, 问题 6) is Chinese: 一节，问题 6
        text = re.sub(f"(?<=[{_HAN}”\\d])\\s*([,;])\\s*(?=[{_HAN}“])", lambda m: _FULL[m.group(1)], text)
        # a heading quoted in the source ("The Formula in One Line") is quoted once, not ““…””
        quoted = re.fullmatch(r"“[^“”]*”", text) is not None
        return text if has_han(text) or quoted or re.fullmatch(r"[\d.\s]*", text) else f"“{text}”"
    return text


def mostly_latin(text: Any) -> bool:
    """Whether a text is written mostly in English (more Latin words than Chinese characters)."""
    return len(re.findall(r"[A-Za-z]{2,}", str(text))) > len(re.findall(f"[{_HAN}]", str(text)))


def has_han(text: Any) -> bool:
    """Whether a text has Chinese characters."""
    return re.search(f"[{_HAN}]", str(text)) is not None


# what a CJK face sets: ideographs, CJK punctuation (、。「」) and the full-width forms (（）：)
_CJK_TEXT = _Lazy(f"[\u3000-\u303f{_HAN}\uff00-\uffef]")


def cjk_setup(document: Any, lang: str) -> str:
    """How a LaTeX write-up in ``lang`` sets Chinese, for ``_tex.j2``'s preamble: ``"ctex"`` (a Chinese or
    bilingual text), ``"quoted"`` (an English text quoting a Chinese title: xeCJK and one face) or ``""``
    (an English text without a Chinese character: fontspec alone)."""
    if lang != "en":
        return "ctex"
    return "quoted" if _CJK_TEXT.search(str(document)) else ""


_PLAIN_WORD = re.compile(r"[a-z][a-z'-]*(?=[\s,.:;)]|$)")


def sentence_start(text: Any) -> str:
    """``text`` opening a sentence: its first letter capitalised when its first word is an ordinary
    word ("step time" → "Step time"), never when it is a name a user types (``my_step_time``), a
    symbol or a word with capitals of its own (vLLM)."""
    text = str(text)
    return text[:1].upper() + text[1:] if _PLAIN_WORD.match(text) else text


def zh_typeset(text: str) -> str:
    """Chinese prose as a typesetter writes it: full-width punctuation after Han characters and a space
    between Han and Latin letters or digits (math in ``$...$`` is left alone)."""
    parts = re.split(r"(\$[^$\n]+?\$)", str(text))
    for i in range(0, len(parts), 2):
        t = _HALF_PUNCT.sub(lambda m: m.group(1) + _FULL[m.group(2)], parts[i])
        t = re.sub(r"([：；，？！])\s+", r"\1", t)
        parts[i] = _LATIN_HAN.sub(r"\1 \2", _HAN_LATIN.sub(r"\1 \2", t))
    return "".join(parts)


_MATH_COMMANDS = frozenset("""
mathrm mathit mathbf text frac dfrac tfrac sqrt cdot times div le ge leq geq lt gt ll gg ne neq approx sim
simeq propto to rightarrow leftarrow Rightarrow infty sum prod min max log ln exp lceil rceil lfloor rfloor
left right quad qquad ldots cdots dots prime circ pm mp in notin subset alpha beta gamma delta epsilon
varepsilon zeta eta theta lambda mu nu xi pi rho sigma tau phi varphi chi psi omega Gamma Delta Theta
Lambda Pi Sigma Phi Psi Omega ell hat bar tilde overline underline boxed
""".split())
_MATH_COMMAND = re.compile(r"\\([A-Za-z]+|.)")


def _safe_math(latex: str) -> bool:
    """Whether ``$...$`` in prose is plain math: known commands only (never ``\\input``, ``\\def``, ...),
    no TeX specials, and short."""
    if len(latex) > 400 or any(ch in latex for ch in "#%&~\n"):
        return False
    for m in _MATH_COMMAND.finditer(latex):
        name = m.group(1)
        if name not in _MATH_COMMANDS and name not in ",;:! {}|":
            return False
    return True


# (not inside an id such as the preset tpu-v5e-8.1e11)
_E_NUMBER = re.compile(r"(?<![\w.$\\])(?<!\w-)(\d+(?:\.\d+)?)e([+-]?)0*(\d+)(?![\w.])")
_POWER = re.compile(r"(?<![\w$\\{])(\d+)\^(\d+)(?![\w}])")
_SUBSCRIPT = re.compile(r"(?<![\w$\\])([A-Z])_([a-z0-9]{1,2}|[A-Z])(?![\w])")
_WORD_SUBSCRIPT = re.compile(r"(?<![\w$\\])([A-Z])_([A-Za-z]{2,})(?![\w])")   # F_dense, W_ICI, T_math
_IDENT = re.compile(r"(?<![\w$\\])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![\w])")
# a product typed with an x (131072 x 131072, 2 x 45 GB/s) and a factor typed as 2.6x: the sign is ×
# (a name such as 4x4 stays as it is written)
_TIMES = re.compile(r"(?<=\d) x (?=\d)")
_FACTOR = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)x(?=[\s,.;:)]|$)")
# a number (or the math before the text) and its unit are one word in TeX (~): a line broke between
# "1.15" and "s"
_UNIT_TIE = re.compile(r"(?:(?<=\d)|^) (?=(?:[kMGTPE]i?)?B(?:/s)?\b|[mµun]?s\b|(?:[kMGTP])?FLOPs?\b"
                       r"|GHz\b|W\b|days?\b|h\b|%)")


def _math_in_prose(text: str) -> str:
    """Numbers typed as ``1.97e14`` or ``2^30`` and symbols typed as ``B_c`` or ``W_ICI`` in prose become math
    (``$1.97\\times10^{14}$``, ``$B_{c}$``, ``$W_{\\text{ICI}}$``), outside ``$...$``; quotes are curly."""
    from .quotes import curly_quotes

    parts = re.split(r"(\$[^$\n]+?\$)", text)
    for i in range(0, len(parts), 2):
        parts[i] = _E_NUMBER.sub(lambda m: f"${m.group(1)}\\times10^{{{m.group(2).replace('+', '')}{m.group(3)}}}$",
                                 parts[i])
        parts[i] = _POWER.sub(r"$\1^{\2}$", parts[i])
        parts[i] = _SUBSCRIPT.sub(r"$\1_{\2}$", parts[i])
        parts[i] = _WORD_SUBSCRIPT.sub(r"$\1_{\\text{\2}}$", parts[i])
        parts[i] = _FACTOR.sub("\\1×", _TIMES.sub(" × ", parts[i]))
        parts[i] = curly_quotes(parts[i])     # TeX set both straight marks of '…' as closing quotes
    return "".join(parts)


def _tex_code(text: str) -> str:
    """An id as code in TeX, breakable after its hyphens and underscores (scaling-book-applied-inference ran
    47 pt past the margin of a sources list)."""
    escaped = latex_escape(text).replace("-", "-\\allowbreak{}").replace("\\_", "\\_\\allowbreak{}")
    return "\\texttt{" + escaped + "}"


def _with_code(text: str, escape: Any, code: Any) -> str:
    """Plain text escaped, with each snake_case identifier (``bytes_per_element``) set as code."""
    out, pos = [], 0
    for m in _IDENT.finditer(text):
        out.append(str(escape(text[pos:m.start()])))
        out.append(code(m.group(1)))
        pos = m.end()
    out.append(str(escape(text[pos:])))
    return "".join(out)


def prose_filter(mode: str):
    """Plain text with ``$...$`` inline math: the text escaped for ``mode``, the math typeset."""
    from markupsafe import Markup

    escape = escaper(mode) or (lambda t: t)
    if mode == "tex":
        tex_escape = escape

        def escape(t: Any) -> str:
            return _UNIT_TIE.sub("~", str(tex_escape(t)))
    math = math_filter(mode)

    from markupsafe import escape as html_escape

    code = {"md": lambda t: f"`{t}`", "tex": _tex_code,
            "html": lambda t: f"<code>{html_escape(t)}</code>"}.get(mode, lambda t: t)

    def prose(text: Any) -> Any:
        if isinstance(text, Markup):
            return text
        if mode == "text":
            return plain_prose(str(text))        # the terminal reads $B^{*}_{\mathrm{HBM}}$ as B^*_HBM
        text = _math_in_prose(str(text))
        out, pos = [], 0
        for m in INLINE_MATH.finditer(text):
            if not _safe_math(m.group(1)):
                continue            # not plain math: stays text, escaped with the rest
            out.append(_with_code(text[pos:m.start()], escape, code))
            out.append(str(math(m.group(1))))
            pos = m.end()
        out.append(_with_code(text[pos:], escape, code))
        return Markup("".join(out))

    return prose


def _escaping(escape):
    """A filter that escapes a text, or each language of a bilingual ``{en, zh}`` text; text that is
    already escaped (``Markup``) is left alone, so applying a filter twice is harmless."""
    def apply(value: Any) -> Any:
        from markupsafe import Markup

        if isinstance(value, Markup):
            return value
        if isinstance(value, Mapping):
            return {k: (v if isinstance(v, Markup) else Markup(escape(v))) for k, v in value.items()}
        return Markup(escape(value))
    return apply


def template_files(templates: str | os.PathLike | None = None) -> list[Path] | None:
    """Every file the template loader may read for ``templates`` (a user's folder, then the built-in
    one): the templates (``*.j2``) and messages (``messages*.yaml``) in each folder; None when a
    folder has subfolders (a template may include one by path), which the answer store does not key."""
    files: list[Path] = []
    for d in template_dirs(templates):
        entries = sorted(d.iterdir())
        if any(e.is_dir() and e.name != "__pycache__" for e in entries):
            return None
        files += [e for e in entries if e.name.endswith(".j2") or (e.name.startswith("messages") and
                                                                    e.name.endswith(".yaml"))]
    return files


def template_mode(name: str) -> str:
    """How text is escaped in a template, from its file name: html, md, tex or text."""
    return markup_of_template(name)


def _safe_loader(dirs: tuple[Path, ...], mode: str):
    """A file loader that refuses a template reached through a symlink out of its folder, and takes a
    built-in template's code compiled ahead of time when there is one for its text
    (:mod:`derive.writeup.precompile`)."""
    import jinja2

    from .precompile import compiled_ahead

    class FolderLoader(jinja2.FileSystemLoader):
        def get_source(self, environment: Any, template: str) -> Any:
            _regular_template(dirs, template)       # and not larger than derive reads a user file
            source, filename, uptodate = super().get_source(environment, template)
            _inside_folder(Path(filename), dirs)
            return source, filename, uptodate

        def load(self, environment: Any, name: str, globals: Any = None) -> Any:
            # jinja2.BaseLoader.load without a bytecode cache, the code compiled ahead when it is this text's
            source, filename, uptodate = self.get_source(environment, name)
            code = compiled_ahead(mode, name, source) or environment.compile(source, name, filename)
            return environment.template_class.from_code(environment, code, {} if globals is None else globals,
                                                        uptodate)

    return FolderLoader([str(d) for d in dirs])


def _regular_template(dirs: tuple[Path, ...], template: str) -> None:
    """Refuse a template that is there but is not a regular file (a FIFO, a folder): Jinja's loader skips
    it and takes the built-in one, which would hide the user's file; a FIFO read would block."""
    import stat

    from jinja2.loaders import split_template_path

    pieces = split_template_path(template)
    for d in dirs:
        candidate = d.joinpath(*pieces)
        try:
            mode = candidate.stat().st_mode
        except OSError:
            continue
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "not a regular file"
            raise TemplateError(f"refusing {candidate.name}: it is {kind}; a template is a regular file",
                                file=str(candidate))
        from ..storage.files import MAX_USER_FILE_BYTES

        size = candidate.stat().st_size
        if size > MAX_USER_FILE_BYTES:
            raise TemplateError(f"refusing {candidate.name}: {size:,} bytes, more than a template may be "
                                f"({MAX_USER_FILE_BYTES:,})", file=str(candidate))
        return


def _inside_folder(path: Path, dirs: tuple[Path, ...]) -> None:
    """Refuse ``path`` unless it resolves (symlinks followed) inside one of ``dirs``."""
    real = path.resolve()
    if not any(real.is_relative_to(d.resolve()) for d in dirs):
        raise TemplateError(f"refusing {path.name}: it is a symlink to {real}, outside the template folder",
                            file=str(path))


@lru_cache(maxsize=16)
def _environment(dirs: tuple[Path, ...], mode: str):
    from markupsafe import Markup

    from .sandbox import sandbox

    # no bytecode cache: compiled templates on disk would be code another user could plant
    env = sandbox(_safe_loader(dirs, mode), mode)
    env.globals["msg"] = message_function(dirs, mode)
    env.globals["aside"] = aside_function(env.globals["msg"])
    env.globals["pick"] = _make_pick(mode)
    env.filters["tex"] = _escaping(latex_escape)
    env.filters["md"] = _escaping(markdown_escape)
    env.filters["prose"] = prose_filter(mode)
    env.filters["zh"] = zh_typeset
    env.filters["sentence_start"] = sentence_start
    env.filters["has_han"] = has_han
    env.filters["cjk_setup"] = cjk_setup
    env.filters["mostly_latin"] = mostly_latin
    env.filters["vislen"] = visible_length
    env.filters["localize"] = localize
    env.filters["texurl"] = latex_url
    env.filters["striptex"] = _strip_tex
    env.filters["texcode"] = lambda text: Markup(_tex_code(str(text)))
    env.filters["math"] = math_filter(mode)
    return env


def environment_for(mode: str, templates: str | os.PathLike | None = None):
    """The Jinja environment templates of ``mode`` (``text``, ``md``, ``html``, ``tex``) are rendered in,
    with a user's ``templates`` folder searched before the built-in one."""
    return _environment(tuple(template_dirs(templates)), mode)


def render_template(name: str, context: Mapping[str, Any], *, templates: str | os.PathLike | None = None) -> str:
    """Render one template by file name with ``context``; errors name the template and line."""
    import jinja2

    dirs = tuple(template_dirs(templates))
    env = _environment(dirs, template_mode(name))
    try:
        from .sandbox import render_bounded

        out = render_bounded(env.get_template(name), dict(context))
        return md_math_spacing(_BLANK_LINES.sub("\n\n", out)) if template_mode(name) == "md" else out
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(f"template syntax error: {exc.message}", file=exc.filename or name,
                            line=exc.lineno) from exc
    except jinja2.TemplateNotFound as exc:
        raise TemplateError(f"no template {exc.name!r} in {', '.join(str(d) for d in dirs)}") from exc
    except SyntaxError as exc:   # Jinja's parser let it through, Python's compiler did not (a repeated keyword)
        raise TemplateError(f"template syntax error: {exc.msg}", file=_compiled_file(exc, dirs, name)) from exc
    except jinja2.UndefinedError as exc:
        raise TemplateError(f"{exc.message}", file=_template_file(exc, name), line=_template_line(exc)) from exc
    except jinja2.exceptions.SecurityError as exc:
        raise TemplateError(f"template tried something unsafe: {exc}", file=_template_file(exc, name),
                            line=_template_line(exc)) from exc
    except TemplateError as exc:
        if exc.file is not None:
            raise
        # raised by a function the template called (msg, pick): say where in the template
        raise TemplateError(str(exc), file=_template_file(exc, name), line=_template_line(exc)) from exc
    except jinja2.TemplateError as exc:
        raise TemplateError(str(exc), file=_template_file(exc, name), line=_template_line(exc)) from exc
    except Exception as exc:
        # raised by the template's own code ({{ 1/0 }}, a bad filter argument): the template's mistake;
        # raised inside Python code the template called: an internal error, left to propagate
        if not raised_by_template(exc):
            raise
        raise TemplateError(f"{type(exc).__name__}: {exc}", file=_template_file(exc, name),
                            line=_template_line(exc)) from exc


_BLANK_LINES = re.compile(r"\n{3,}")
_CJK_BEFORE_MATH = _Lazy(r"([\u3000-\u303f\uff00-\uffef\u3400-\u4dbf\u4e00-\u9fff])(\$[^$\s][^$\n]*?\$)")
_MATH_BEFORE_CJK = _Lazy(r"(\$[^$\n]*?[^$\s\\]\$)([\u3400-\u4dbf\u4e00-\u9fff])")


def md_math_spacing(text: str) -> str:
    """A space between Chinese text (or full-width punctuation) and inline ``$...$`` math, which GitHub
    renders only when the dollar sign does not follow such a character directly."""
    lines = []
    for line in text.split("\n"):
        if "$" in line and not line.startswith("$$"):
            line = _CJK_BEFORE_MATH.sub(r"\1 \2", line)
            line = _MATH_BEFORE_CJK.sub(r"\1 \2", line)
        lines.append(line)
    return "\n".join(lines)
_TEX_COMMAND = re.compile(r"\\[A-Za-z]+\*?|[{}]")


def _strip_tex(text: Any) -> str:
    """Escaped LaTeX text as plain text for a PDF bookmark: commands and braces dropped, ``\\_`` kept as ``_``."""
    from markupsafe import Markup

    plain = re.sub(r"\\([%&_#$])", r"\1", str(text))
    return Markup(_TEX_COMMAND.sub("", plain).strip())


def _compiled_file(exc: SyntaxError, dirs: tuple[Path, ...], name: str) -> str:
    """The template Python's compiler refused (its file name is the template's name, as Jinja compiles it)."""
    compiled = exc.filename or name
    found = next((d / compiled for d in dirs if (d / compiled).is_file()), None)
    return str(found) if found is not None else compiled


def _template_file(exc: BaseException, name: str) -> str:
    """The path of the innermost template in the traceback (the user's copy or the built-in one)."""
    tb = exc.__traceback__
    found = name
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(".j2"):
            found = tb.tb_frame.f_code.co_filename
        tb = tb.tb_next
    return found


def raised_by_template(exc: BaseException, source: str | None = None) -> bool:
    """Whether ``exc`` was raised by template code (a ``.j2`` file or ``source``) or by Jinja on its
    behalf (the sandbox, a filter, derive's bounded sandbox looping over or adding up what the template
    gave it), rather than by derive's own code: then it is the template's mistake.

    The traceback is read from where the exception was raised outwards: library code that is neither
    (``json`` under ``tojson``, ``markupsafe``) is passed over, and the first frame that is template or
    Jinja code, or derive's own, decides."""
    import jinja2

    from . import sandbox as _sandbox

    jinja_dir = Path(jinja2.__file__).parent.resolve()
    derive_dir = Path(__file__).parent.parent.resolve()
    sandbox_file = Path(_sandbox.__file__).resolve()
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame.f_code.co_filename)
        tb = tb.tb_next
    for filename in reversed(frames):
        if filename.endswith(".j2") or filename == source:
            return True
        path = Path(filename).resolve()
        if path == sandbox_file or path.is_relative_to(jinja_dir):
            return True
        if path.is_relative_to(derive_dir):
            return False
    return False


def _template_line(exc: BaseException) -> int | None:
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(".j2") or "template" in tb.tb_frame.f_code.co_filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def render_solution(solution, fmt: str = "md", lang: str = "en", units: str = "si", *,
                    templates: str | os.PathLike | None = None, extra: Mapping[str, Any] | None = None) -> str:
    """Write up a :class:`~derive.Solution` as ``text``, ``md``, ``html``, ``tex`` or ``beamer``."""
    from .present import build_view

    template = output_format(fmt, needs="solution").solution
    assert template is not None
    if lang not in LANGS:
        raise InputError(f"unknown language {lang!r}; choose en, zh or both", name="lang")
    view = build_view(solution, units)
    context = {"s": view, "lang": lang, "units": units, "output": template_mode(template)}
    if extra:
        context.update(extra)
    return render_template(template, context, templates=templates)
