"""Read YAML data files keeping the line of every value, for error messages.

Every scalar is read as text (YAML's "base" schema: no implicit booleans,
dates or floats such as ``no`` becoming ``False`` or ``1e9`` staying a string
while ``1.0e9`` becomes a float); values are interpreted by the catalog loader,
which knows what each field means. Mappings and strings come back as ``LMap``
and ``LStr``, which behave like ``dict`` and ``str`` and carry ``.line``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..errors import CatalogError

__all__ = ["LList", "LMap", "LStr", "line_of", "read_yaml"]

MAX_FILE_BYTES = 4_000_000
# control characters a terminal acts on (ESC sequences, BEL, ...), line separators and bidirectional
# overrides (text that reads differently from what it says); tab and line breaks are ordinary text
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
MAX_VALUES = 1_000_000   # keys and values in one file once aliases are expanded (a catalog file has about
#                          3,000; a user file of 5,000 relations about 250,000)


class LStr(str):
    """A string with the 1-based line it came from."""

    line: int = 0


class LMap(dict):
    """A mapping with the 1-based line it starts on."""

    line: int = 0


class LList(list):
    """A sequence with the 1-based line it starts on."""

    line: int = 0


def line_of(value: Any) -> int | None:
    return getattr(value, "line", None)


class _Frame:
    """A mapping or sequence being read, with its anchor, the values counted when it began and, for a
    mapping, the key waiting for its value."""

    __slots__ = ("value", "anchor", "start", "key")

    def __init__(self, value: "LMap | LList", anchor: str | None, start: int) -> None:
        self.value = value
        self.anchor = anchor
        self.start = start
        self.key: str | None = None


def _build(events: Any, file: str) -> Any:
    """The file's one document as LMap, LList and LStr, from the parser's events; text with a control
    character other than tab and line breaks (``"\\e]0;...\\a"``, a bidirectional override) is refused.

    Built here from the event stream, with a stack, rather than by YAML's composer: libyaml's composer
    recurses once per level of nesting and crashes the process (SIGSEGV) on a file of 40,000 ``[``. Nesting
    past :data:`MAX_DEPTH` is refused at its line, and aliases count their whole value against
    :data:`MAX_VALUES` (``&a`` / ``*a`` can expand a short file exponentially)."""
    import yaml

    stack: list[_Frame] = []
    anchors: dict[str, tuple[Any, int]] = {}
    counted = 0
    root: list[Any] = []
    documents = 0
    shared = False                  # an alias placed a mapping or sequence a second time

    def count(n: int, line: int) -> None:
        nonlocal counted
        counted += n
        if counted > MAX_VALUES:
            raise CatalogError(f"file expands to more than {MAX_VALUES} values (YAML aliases?); write the values out",
                               file=file, line=line)

    def place(value: Any, line: int) -> None:
        if not stack:
            root.append(value)
            return
        top = stack[-1]
        if isinstance(top.value, LList):
            top.value.append(value)
        elif top.key is None:
            if not isinstance(value, LStr):
                raise CatalogError("keys must be plain names", file=file, line=line)
            key = str(value)                    # keys are plain strings (values carry their line)
            if key in top.value:
                raise CatalogError(f"key {key!r} appears twice", file=file, line=line)
            top.key = key
        else:
            top.value[top.key] = value
            top.key = None

    for event in events:
        line = event.start_mark.line + 1 if event.start_mark is not None else None
        if isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise CatalogError("a second YAML document ('---'); a file holds one", file=file, line=line)
        elif isinstance(event, yaml.ScalarEvent):
            control = _CONTROL.search(event.value)
            if control is not None:
                import unicodedata

                char = control.group()
                name = unicodedata.name(char, "a control character")
                raise CatalogError(f"text holds U+{ord(char):04X} ({name.lower()}), which a terminal or viewer "
                                   "would act on; remove it (tabs and line breaks are fine)", file=file, line=line)
            value = LStr(event.value)
            value.line = line or 0
            count(1, line or 0)
            if event.anchor is not None:
                anchors[event.anchor] = (value, 1)
            place(value, line or 0)
        elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            if stack and isinstance(stack[-1].value, LMap) and stack[-1].key is None:
                raise CatalogError("keys must be plain names", file=file, line=line)
            if len(stack) >= MAX_DEPTH:
                raise CatalogError(f"values are nested more than {MAX_DEPTH} deep", file=file, line=line)
            container: LMap | LList = LList() if isinstance(event, yaml.SequenceStartEvent) else LMap()
            container.line = line or 0
            count(1, line or 0)
            stack.append(_Frame(container, event.anchor, counted))
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            frame = stack.pop()
            if frame.anchor is not None:
                anchors[frame.anchor] = (frame.value, counted - frame.start + 1)
            place(frame.value, frame.value.line)
        elif isinstance(event, yaml.AliasEvent):
            if event.anchor not in anchors:
                raise CatalogError(f"YAML syntax error: found undefined alias {event.anchor!r}", file=file, line=line)
            value, size = anchors[event.anchor]
            count(size, line or 0)
            shared = shared or not isinstance(value, LStr)
            place(value, line or 0)
    if not root:
        return None
    # an alias shares its value while the file is read, so that a file refused for its expanded size
    # (an alias bomb) is refused before anything is copied; a file within the budget gets its own copies
    if not shared:
        return root[0]
    try:
        return _unshared(root[0])
    except RecursionError:
        raise CatalogError(f"values are nested more than {MAX_DEPTH} deep through aliases", file=file) from None


def _unshared(value: Any) -> Any:
    """``value`` with every mapping and sequence a distinct object (an alias's target copied at each use),
    keeping lines; only called on files whose expanded size is within :data:`MAX_VALUES`."""
    if isinstance(value, LMap):
        mapping = LMap((key, _unshared(item)) for key, item in value.items())
        mapping.line = value.line
        return mapping
    if isinstance(value, LList):
        sequence = LList(_unshared(item) for item in value)
        sequence.line = value.line
        return sequence
    return value


MAX_DEPTH = 200        # levels of nesting in one file (a catalog file has 6)


def read_yaml(path: Path, display: str | None = None) -> Any:
    """Parse one YAML file; a syntax error becomes a :class:`CatalogError` with file and line."""
    import yaml  # deferred: only needed when a catalog is (re)built

    from .files import read_user_file

    name = display or str(path)
    data = read_user_file(path, name, MAX_FILE_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CatalogError("file is not UTF-8 text", file=name) from exc
    # libyaml's C parser when present (ten times faster), else the pure-Python one; either way only its
    # events are used (the parser keeps its own stack; YAML's composer would recurse per level)
    loader = getattr(yaml, "CBaseLoader", yaml.BaseLoader)
    try:
        try:
            node = _build(yaml.parse(text, Loader=loader), name)
        except yaml.YAMLError:
            if loader is yaml.BaseLoader:
                raise
            # libyaml refuses some files by limits of its own (its nesting depth, in newer builds) before
            # derive's guards see the events: the pure-Python parser reads the file again, so the error
            # is derive's own (nested too deep, at its line) or the parser's syntax error, whichever build
            node = _build(yaml.parse(text, Loader=yaml.BaseLoader), name)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise CatalogError(f"YAML syntax error: {exc.problem or exc}", file=name, line=line) from exc
    except (yaml.YAMLError, RecursionError) as exc:
        raise CatalogError(f"YAML error: {exc}", file=name) from exc
    return LMap() if node is None else node
