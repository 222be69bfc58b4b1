"""Escaping plain text for each markup, and writing LaTeX math the way each markup shows it.

Text from the catalog, problem files and users is always escaped before it is placed in a
document: Markdown and math specials, HTML entities, or LaTeX's ``% & _ # $ { } ~ ^ \\``.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["INLINE_MATH", "html_escape", "latex_escape", "latex_url", "markdown_escape", "math_filter",
           "plain_math", "plain_prose", "visible_length"]

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
            from .mathml import to_mathml

            return Markup(to_mathml(latex, display))
        if mode == "md" and display:
            return Markup(f"\n\n$$\n{latex}\n$$\n\n")
        if mode == "tex" and display:
            return Markup(f"\\[ {latex} \\]")
        return Markup(f"${latex}$")

    return math




_TEXT_SYMBOLS = {"cdot": "·", "times": "×", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "approx": "≈",
                 "ll": "≪", "gg": "≫", "ne": "≠", "neq": "≠", "infty": "∞", "to": "→", "rightarrow": "→",
                 "leftrightarrow": "↔", "Leftrightarrow": "⇔", "max": "max", "min": "min", "log": "log",
                 "ell": "ℓ", "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε",
                 "varepsilon": "ε", "eta": "η", "theta": "θ", "lambda": "λ", "mu": "μ", "pi": "π",
                 "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ", "omega": "ω", "Delta": "Δ", "Sigma": "Σ",
                 "lceil": "⌈", "rceil": "⌉", "lfloor": "⌊", "rfloor": "⌋", ",": " ", ";": " ", "quad": " ",
                 "left": "", "right": "", "{": "{", "}": "}", "%": "%", "_": "_"}
_TEXT_WRAPPERS = re.compile(r"\\(?:mathrm|text|mathit|mathbf|operatorname)\{([^{}]*)\}")
_TEXT_FRAC = re.compile(r"\\frac\{([^{}]*)\}\{([^{}]*)\}")
_TEXT_SQRT = re.compile(r"\\sqrt\{([^{}]*)\}")
_TEXT_COMMAND = re.compile(r"\\([A-Za-z]+|[,;{}%_])")
INLINE_MATH = re.compile(r"\$([^$\n]+?)\$")       # $...$ in prose, as every output reads it


def plain_math(latex: str) -> str:
    """LaTeX math as a terminal prints it: ``B^{*}_{\\mathrm{HBM}} = F \\cdot b/(2 W)`` becomes
    ``B^*_HBM = F · b/(2 W)`` (names unwrapped, operators and Greek letters as their characters)."""
    text = latex
    for _ in range(4):                       # wrappers, scripts and fractions nest a few levels at most
        text = _TEXT_WRAPPERS.sub(r"\1", text)
        text = _TEXT_SCRIPT.sub(_script, text)
        text = _TEXT_FRAC.sub(lambda m: f"{_grouped(m.group(1))}/{_grouped(m.group(2))}", text)
        text = _TEXT_SQRT.sub(r"sqrt(\1)", text)
    text = _TEXT_COMMAND.sub(lambda m: _TEXT_SYMBOLS.get(m.group(1), m.group(1)), text)
    text = _TEXT_SCRIPT.sub(_script, text)
    return re.sub(r"\s+", " ", text.replace("{", "").replace("}", "")).strip()


_TEXT_SCRIPT = re.compile(r"([_^])\{([^{}]*)\}")


def _script(m: "re.Match[str]") -> str:
    """A subscript as is (W_HBM); a superscript bracketed unless one character or a whole number (a^(n+1))."""
    mark, body = m.group(1), m.group(2)
    if mark == "_" or len(body) == 1 or re.fullmatch(r"-?\d+", body):
        return mark + body
    return f"{mark}({body})"


def _grouped(part: str) -> str:
    return part if re.fullmatch(r"[\w.^*\\{}]+", part) else f"({part})"


def plain_prose(text: Any) -> str:
    """Text with ``$...$`` math, each span as :func:`plain_math` writes it (for the terminal)."""
    return INLINE_MATH.sub(lambda m: plain_math(m.group(1)), str(text))


def html_escape(text: Any) -> Any:
    """HTML entities for ``< > & " '``; the result is marked safe for Jinja's autoescape."""
    from markupsafe import escape

    return escape(text)


def visible_length(latex: Any) -> int:
    """About how many characters wide LaTeX math prints (a fraction counts its wider part)."""
    text = str(latex)
    for _ in range(5):   # innermost fractions first: \frac{a}{b} → the longer of a and b
        text = re.sub(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", lambda m: max(m.group(1), m.group(2), key=len), text)
        text = re.sub(r"\{([^{}]*)\}", r"\1", text) if "\\frac" not in text else text
    text = re.sub(r"\\(mathrm|left|right|frac|sqrt|boxed|,|;|!|quad|qquad)", "", text)
    text = re.sub(r"\\[A-Za-z]+", "x", text)
    return len(re.sub(r"[{}_^\s]", "", text))
