"""Escaping plain text for each markup, and writing LaTeX math the way each markup shows it.

Text from the catalog, problem files and users is always escaped before it is placed in a
document: Markdown and math specials, HTML entities, or LaTeX's ``% & _ # $ { } ~ ^ \\``.
"""

from __future__ import annotations

import re
from typing import Any, Callable

__all__ = ["escaper", "html_escape", "latex_escape", "latex_url", "markdown_escape", "math_filter",
           "visible_length"]

_TEX_SPECIALS = {
    "\\": r"\textbackslash{}", "%": r"\%", "&": r"\&", "_": r"\_", "#": r"\#", "$": r"\$",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}


def latex_escape(text: Any) -> str:
    """Escape ``% & _ # $ { } ~ ^ \\`` so that text typesets as itself."""
    return "".join(_TEX_SPECIALS.get(ch, ch) for ch in str(text))


def latex_url(url: Any) -> str:
    """A URL for ``\\href{...}``: unusual characters percent-encoded, then ``% #`` escaped."""
    from urllib.parse import quote

    return quote(str(url), safe=":/?=&.-_~+,;@!*'()").replace("%", r"\%").replace("#", r"\#").replace("&", r"\&")


_MD_SPECIALS = {ch: "\\" + ch for ch in "\\`*_[]<>|$#"}


def markdown_escape(text: Any) -> str:
    """Escape Markdown and math specials (``\\ ` * _ [ ] < > | $ #``) so that text shows as itself on GitHub."""
    return "".join(_MD_SPECIALS.get(ch, ch) for ch in _WHITESPACE.sub(" ", str(text)))


_WHITESPACE = re.compile(r"\s+")


def math_filter(mode: str):
    """The ``math`` filter: LaTeX math as this output writes it (``$...$``, ``$$...$$`` or MathML)."""
    from markupsafe import Markup

    def math(latex: Any, display: bool = False) -> Markup:
        latex = str(latex)
        if mode == "html":
            from ._mathml import to_mathml

            return Markup(to_mathml(latex, display))
        if mode == "md" and display:
            return Markup(f"\n\n$$\n{latex}\n$$\n\n")
        if mode == "tex" and display:
            return Markup(f"\\[ {latex} \\]")
        return Markup(f"${latex}$")

    return math




def html_escape(text: Any) -> Any:
    """HTML entities for ``< > & " '``; the result is marked safe for Jinja's autoescape."""
    from markupsafe import escape

    return escape(text)


ESCAPERS: dict[str, Callable[[Any], Any]] = {"tex": latex_escape, "md": markdown_escape, "html": html_escape}


def escaper(markup: str) -> Callable[[Any], Any] | None:
    """The function that makes plain text safe in ``markup`` (plain text needs none)."""
    return ESCAPERS.get(markup)


def visible_length(latex: Any) -> int:
    """About how many characters wide LaTeX math prints (a fraction counts its wider part)."""
    text = str(latex)
    for _ in range(5):   # innermost fractions first: \frac{a}{b} → the longer of a and b
        text = re.sub(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", lambda m: max(m.group(1), m.group(2), key=len), text)
        text = re.sub(r"\{([^{}]*)\}", r"\1", text) if "\\frac" not in text else text
    text = re.sub(r"\\(mathrm|left|right|frac|sqrt|boxed|,|;|!|quad|qquad)", "", text)
    text = re.sub(r"\\[A-Za-z]+", "x", text)
    return len(re.sub(r"[{}_^\s]", "", text))
