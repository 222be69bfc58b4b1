"""Asides in running text: where a label or a note already ends in a parenthesis of its own.

A text that ends in an aside, 汇聚并相乘的时间（无重叠） or "AllGather time (ring)", takes a further
aside inside that parenthesis rather than a second pair after it. :func:`inside_own_aside` finds
that parenthesis; the templates' ``aside()`` (:mod:`derive.writeup.render`) and the notes on given values
(:mod:`derive.writeup.present`) both use it.
"""

from __future__ import annotations

__all__ = ["inside_own_aside"]


def inside_own_aside(text: str, lang: str) -> str | None:
    """``text`` without the closing parenthesis of the aside it ends in, or None when it ends in none: a
    full-width （…） in Chinese, `` (…)`` after a space in English (not the parenthesis of a formula such
    as (p − 1)/(m + p − 1))."""
    close, open_ = ("）", "（") if lang == "zh" else (")", "(")
    if not text.endswith(close):
        return None
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        if text[i] == close:
            depth += 1
        elif text[i] == open_:
            depth -= 1
            if depth == 0:
                return text[:-1] if lang == "zh" or text[i - 1:i] == " " else None
    return None
