"""Read YAML data files keeping the line of every value, for error messages.

Every scalar is read as text (YAML's "base" schema: no implicit booleans,
dates or floats such as ``no`` becoming ``False`` or ``1e9`` staying a string
while ``1.0e9`` becomes a float); values are interpreted by the catalog loader,
which knows what each field means. Mappings and strings come back as ``LMap``
and ``LStr``, which behave like ``dict`` and ``str`` and carry ``.line``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._errors import CatalogError

if TYPE_CHECKING:
    import yaml

__all__ = ["LList", "LMap", "LStr", "line_of", "read_yaml"]

MAX_FILE_BYTES = 4_000_000
MAX_VALUES = 200_000   # values in one file once aliases are expanded (a catalog file has about 1,500)


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


def _convert(node: "yaml.Node", file: str, budget: list[int]) -> Any:
    import yaml

    line = node.start_mark.line + 1
    budget[0] -= 1
    if budget[0] < 0:   # YAML aliases (&a / *a) can expand a short file exponentially
        raise CatalogError(f"file expands to more than {MAX_VALUES} values (YAML aliases?); write the values out",
                           file=file, line=line)
    if isinstance(node, yaml.ScalarNode):
        s = LStr(node.value)
        s.line = line
        return s
    if isinstance(node, yaml.SequenceNode):
        seq = LList(_convert(n, file, budget) for n in node.value)
        seq.line = line
        return seq
    if isinstance(node, yaml.MappingNode):
        out = LMap()
        out.line = line
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise CatalogError("keys must be plain names", file=file, line=key_node.start_mark.line + 1)
            key = key_node.value
            if key in out:
                raise CatalogError(f"key {key!r} appears twice", file=file, line=key_node.start_mark.line + 1)
            out[key] = _convert(value_node, file, budget)
        return out
    raise CatalogError(f"unsupported YAML node {type(node).__name__}", file=file, line=line)


def read_yaml(path: Path, display: str | None = None) -> Any:
    """Parse one YAML file; a syntax error becomes a :class:`CatalogError` with file and line."""
    import yaml  # deferred: only needed when a catalog is (re)built

    from ._files import read_user_file

    name = display or str(path)
    data = read_user_file(path, name, MAX_FILE_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CatalogError("file is not UTF-8 text", file=name) from exc
    # libyaml's C parser when present (ten times faster), else the pure-Python one
    loader = getattr(yaml, "CBaseLoader", yaml.BaseLoader)
    try:
        node = yaml.compose(text, Loader=loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise CatalogError(f"YAML syntax error: {exc.problem or exc}", file=name, line=line) from exc
    except (yaml.YAMLError, RecursionError) as exc:
        raise CatalogError(f"YAML error: {exc}", file=name) from exc
    if node is None:
        return LMap()
    try:
        return _convert(node, name, [MAX_VALUES])
    except RecursionError as exc:
        raise CatalogError("values are nested too deeply", file=name) from exc
