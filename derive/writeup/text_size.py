"""How long the text of a value would be, found without making the text.

A template can hold a small value whose text is enormous: ``[('x' * 999999)] * 999999`` is a list of a
million references to one string of a million characters (8 MB), and its ``str()``, ``pprint``, ``tojson``
or ``~`` is 10¹² characters. :func:`text_size` walks the value and returns an upper bound on the length
of its ``str()``, ``repr()`` or JSON text (Jinja's HTML-safe JSON included), stopping as soon as the count
passes a limit, so the sandbox can refuse before anything is built. (A ``pprint`` breaks lines and
indents them, and can be longer: the sandbox bounds it as it is written.)

The bound is what Python's reprs of the built-in containers and scalars can reach: a string in a
container counts its quotes and escapes (a string that is not printable up to 10 characters per
character, ``\\U0001xxxx``), a number its digits, a container its brackets and separators, a
container already being counted (a list that holds itself) the ``[...]`` Python writes. An object the
walk cannot look into (an engine value, a Jinja helper) counts the length of its ``repr()`` when it
sits in a container; alone, its ``str()`` is its own and is checked once made.
"""

from __future__ import annotations

from collections.abc import ItemsView, KeysView, ValuesView
from typing import Any

__all__ = ["text_size"]

_SCALAR = 32           # None, a bool, a float: at most this many characters
_CONTAINER = 48        # brackets, a subclass's name (``LList([...])``), ``set()``, ``<Namespace ...>``


def _repr_size(s: str) -> int:
    """An upper bound on ``len(repr(s))`` (and on its JSON) for a string inside a container."""
    if s.isascii() and s.isprintable():
        return len(s) + 2 + s.count("\\") + s.count('"') + 5 * sum(s.count(c) for c in "<>&'")
    return 12 * len(s) + 2       # \U000e0001 in a repr, a surrogate pair of \uXXXX in JSON


def _int_size(n: int) -> int:
    return n.bit_length() * 30103 // 100000 + 3


def _namespace_items(value: Any) -> dict | None:
    """The attributes of a Jinja ``namespace()`` (its repr shows them all), or None for anything else."""
    from jinja2.utils import Namespace

    if isinstance(value, Namespace):
        try:
            attrs = object.__getattribute__(value, "_Namespace__attrs")
        except AttributeError:
            return {}
        return attrs if isinstance(attrs, dict) else {}
    return None


_END: Any = object()


class _Count:
    """The walk of :func:`text_size`: containers are opened one at a time (a stack of their iterators)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.total = 0
        self.open: set[int] = set()                 # the containers enclosing the item being counted
        self.frames: list[tuple[Any, int | None, bool]] = []   # (iterator, container's id, yields pairs)
        self.reprs: dict[int, int] = {}             # an object's repr counted once, however often it appears

    def item(self, item: Any, nested: bool) -> None:
        if isinstance(item, str):
            self.total += (_repr_size(item) + (_CONTAINER if type(item) is not str else 0)) if nested else len(item)
        elif isinstance(item, (bytes, bytearray)):
            self.total += 4 * len(item) + _CONTAINER
        elif isinstance(item, bool) or item is None or isinstance(item, float):
            self.total += _SCALAR
        elif isinstance(item, int):
            self.total += _int_size(item)
        else:
            self.container_or_object(item, nested)

    def container_or_object(self, item: Any, nested: bool) -> None:
        attrs = _namespace_items(item)
        if attrs is not None:
            children, pairs = iter(attrs.items()), True
        elif isinstance(item, dict):
            children, pairs = iter(item.items()), True
        elif isinstance(item, (list, tuple, set, frozenset, KeysView, ValuesView, ItemsView)):
            children, pairs = iter(item), False
        else:
            if nested:                  # alone, an object's str() is its own (checked once made)
                key = id(item)
                if key not in self.reprs:
                    try:
                        self.reprs[key] = len(repr(item))
                    except Exception:   # a repr that fails fails again when the text is made
                        self.reprs[key] = _SCALAR
                self.total += self.reprs[key]
            return
        if id(item) in self.open:
            self.total += 8             # [...]: Python's repr of a container inside itself
            return
        self.total += _CONTAINER
        self.open.add(id(item))
        self.frames.append((children, id(item), pairs))

    def run(self, value: Any) -> int:
        self.item(value, False)
        while self.frames and self.total <= self.limit:
            children, ident, pairs = self.frames[-1]
            child = next(children, _END)
            if child is _END:
                self.frames.pop()
                if ident is not None:
                    self.open.discard(ident)
                continue
            self.total += 4             # ", " between items (a JSON indent is bounded by the tojson filter)
            if pairs:                   # a key, then its value, each counted whole before the next
                self.total += 2
                self.frames.append((iter(child), None, False))
            else:
                self.item(child, True)
        return self.total if self.total <= self.limit else self.limit + 1


def text_size(value: Any, limit: int) -> int:
    """An upper bound on the length of ``str(value)``, ``repr(value)`` or its JSON, or ``limit + 1`` as
    soon as the count passes ``limit`` (see the module docstring)."""
    if isinstance(value, str):
        return len(value)
    return _Count(limit).run(value)
