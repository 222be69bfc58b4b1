"""Quotation marks as a typesetter sets them: straight quotes typed in a text become curly ones.

A quote opens where a word starts (after a space, an opening bracket or the start of the text) and
closes where a word ends; an apostrophe inside a word ("What's", "chapter's") is not a quote and
stays as typed. TeX sets both straight marks of '…' or "…" as closing quotes (”Worked Problems”), and
a pattern that took the apostrophe of "What's" for a closing quote cut a section title in two.
"""

from __future__ import annotations

import re

__all__ = ["curly_quotes"]

# a mark that opens: at the start or after a space, an opening bracket, a dash or Chinese text
_CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
_OPENS = r"(?:(?<=^)|(?<=[\s(\[{–—/" + _CJK + r"]))"
# a mark that closes: at the end or before a space, punctuation or Chinese text
_CLOSES = r"(?=$|[\s)\]}.,;:!?…–—/" + _CJK + r"])"
# the quoted text: anything but the mark itself, where an apostrophe between two letters is part of it
_DOUBLE = re.compile(_OPENS + r'"([^"\n]+?)"' + _CLOSES)
_SINGLE = re.compile(_OPENS + r"'((?:[^'\n]|(?<=\w)'(?=\w))+?)'" + _CLOSES)


def curly_quotes(text: str) -> str:
    """``text`` with its "…" and '…' quotations set in curly quotes (“…”, ‘…’); apostrophes inside a
    word and a mark without its partner are left as typed."""
    if "'" not in text and '"' not in text:
        return text
    text = _DOUBLE.sub("“\\1”", text)
    return _SINGLE.sub("‘\\1’", text)
