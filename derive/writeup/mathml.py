"""LaTeX math to MathML on the server, for the HTML write-ups (no JavaScript, no CDN).

``latex2mathml`` does the conversion. Its output is then checked before it is
marked safe for the page: it must parse as XML and use only MathML elements and
attributes, so a catalog symbol such as ``\\text{<script>}`` cannot inject HTML.
Conversions are cached (the same symbols recur in every step and report).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..errors import TemplateError

__all__ = ["to_mathml"]

# MathML Core elements (and the few presentation elements latex2mathml emits)
_TAGS = frozenset("""
math mrow mi mn mo ms mtext mspace msub msup msubsup mfrac msqrt mroot mstyle merror mpadded mphantom
mfenced menclose munder mover munderover mtable mtr mtd mlabeledtr semantics annotation maligngroup
malignmark mmultiscripts mprescripts none
""".split())
_ATTRS = frozenset("""
xmlns display mathvariant stretchy fence form separator width height depth lspace rspace accent
accentunder linethickness columnalign rowalign columnspacing rowspacing columnlines rowlines frame
displaystyle scriptlevel mathsize mathcolor mathbackground notation open close separators largeop
movablelimits symmetric minsize maxsize encoding
""".split())
_NS = "{http://www.w3.org/1998/Math/MathML}"


def _prepare(latex: str) -> str:
    # in math mode these become operators; inside \text{} latex2mathml would copy them raw
    latex = latex.replace("&", r"\&").replace("<", r"\lt ").replace(">", r"\gt ")
    # latex2mathml drops the upright style of a one-letter \mathrm{B} (a unit): keep it as text
    latex = _ONE_LETTER_RM.sub(r"\\text{\1}", latex)
    return _flatten_fences(latex)


_ONE_LETTER_RM = re.compile(r"\\mathrm\{([A-Za-z])\}")


_TALL = (r"\frac", r"\sqrt", r"\sum", r"\prod", r"\begin", r"\binom", r"\int")


def _flatten_fences(latex: str) -> str:
    r"""``\left( 2\,\mathrm{B} \right)`` → ``(2\,\mathrm{B})`` when nothing tall is inside.

    A stretchy MathML fence is drawn with wide side bearings in browsers; around a flat
    value like ``(2 B)`` it looks spaced out, so only parentheses around fractions and
    roots stay stretchy.
    """
    out: list[str] = []
    stack: list[int] = []        # index in `out` of each open \left(
    i = 0
    while i < len(latex):
        if latex.startswith(r"\left(", i):
            stack.append(len(out))
            out.append(r"\left(")
            i += len(r"\left(")
        elif latex.startswith(r"\right)", i) and stack:
            start = stack.pop()
            inner = "".join(out[start + 1:])
            if not any(t in inner for t in _TALL):
                out[start] = "("
                out.append(")")
            else:
                out.append(r"\right)")
            i += len(r"\right)")
        else:
            out.append(latex[i])
            i += 1
    return "".join(out)


# 4{,}096 comes out as <mn>4</mn><mrow><mo>,</mo></mrow><mn>096</mn>, spaced like a list: join it
_GROUPED = re.compile(r"<mn>(\d[\d,]*)</mn><mrow><mo>&#x0002C;</mo></mrow><mn>(\d[\d.]*)</mn>")


def _join_digit_groups(markup: str) -> str:
    while True:
        joined = _GROUPED.sub(r"<mn>\1,\2</mn>", markup)
        if joined == markup:
            return markup
        markup = joined


# a slash is an ordinary symbol in TeX (B/s, no space around it); MathML's dictionary makes it an infix
# operator with space on both sides, and browsers printed "FLOP / s"
_SLASH = "<mo>&#x0002F;</mo>"
_TIGHT_SLASH = '<mo lspace="0em" rspace="0em">&#x0002F;</mo>'


def _check(markup: str, latex: str) -> None:
    from xml.etree import ElementTree

    try:
        root = ElementTree.fromstring(markup)
    except ElementTree.ParseError as exc:
        raise TemplateError(f"LaTeX {latex!r} gave malformed MathML ({exc})") from exc
    for el in root.iter():
        tag = el.tag[len(_NS):] if el.tag.startswith(_NS) else el.tag
        if tag not in _TAGS:
            raise TemplateError(f"LaTeX {latex!r} gave a non-MathML element <{tag}>")
        for attr in el.attrib:
            if attr not in _ATTRS:
                raise TemplateError(f"LaTeX {latex!r} gave a non-MathML attribute {attr!r}")


@lru_cache(maxsize=4096)
def to_mathml(latex: str, display: bool = False) -> str:
    """``\\frac{F}{W}`` → ``<math ...><mfrac>...</mfrac></math>`` (checked, safe to insert into HTML)."""
    from latex2mathml.converter import convert

    try:
        markup = convert(_prepare(latex), display="block" if display else "inline")
    except Exception as exc:  # latex2mathml raises its own exception types for bad input
        raise TemplateError(f"cannot convert LaTeX {latex!r} to MathML: {exc}") from exc
    markup = _join_digit_groups(markup).replace(_SLASH, _TIGHT_SLASH)
    _check(markup, latex)
    return markup
