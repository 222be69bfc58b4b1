"""Reading validated data files (problem files, claims files): one place for their small readers.

Each reader raises a :class:`CatalogError` carrying the file and the line of the
offending YAML node, with a message that says what to write instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, overload

from ..errors import CatalogError
from ..storage.yamlio import line_of

if TYPE_CHECKING:
    from ..records.entries import Text

__all__ = ["bilingual", "check_fields", "file_error", "flag", "name_list"]


def file_error(file: str, node: Any, msg: str, entry: str | None = None) -> CatalogError:
    """An error at ``node``'s line of ``file``, about ``entry``."""
    return CatalogError(msg, file=file, line=line_of(node), entry=entry)


def check_fields(file: str, node: dict, allowed: set[str], entry: str | None) -> None:
    """Refuse a field that is not in ``allowed``, suggesting the closest one."""
    for key in node:
        if key not in allowed:
            from ..catalog.schema import unknown_field

            raise file_error(file, node[key], unknown_field(key, allowed, list_allowed=False), entry)


@overload
def bilingual(file: str, node: Any, what: str, entry: str | None, required: Literal[True] = True) -> "Text": ...


@overload
def bilingual(file: str, node: Any, what: str, entry: str | None, required: bool) -> "Text | None": ...


def bilingual(file: str, node: Any, what: str, entry: str | None, required: bool = True) -> "Text | None":
    """A ``{en: ..., zh: ...}`` text with both languages filled in (``None`` when optional and absent)."""
    from ..records.entries import Text

    if node is None:
        if required:
            raise file_error(file, node, f"missing {what} (give both en and zh)", entry)
        return None
    if not isinstance(node, dict) or not str(node.get("en", "")).strip() or not str(node.get("zh", "")).strip():
        raise file_error(file, node, f"{what} needs both en and zh text", entry)
    return Text(str(node["en"]).strip(), str(node["zh"]).strip())


def name_list(file: str, node: Any, what: str, entry: str | None) -> tuple[str, ...]:
    """A list of names; a single name is a list of one."""
    if node is None:
        return ()
    if isinstance(node, str):
        return (str(node),)
    if not isinstance(node, list):
        raise file_error(file, node, f"{what} must be a list", entry)
    return tuple(str(x) for x in node)


def flag(file: str, node: Any, what: str, entry: str | None) -> bool:
    """``true``/``false`` (or ``yes``/``no``); absent is false."""
    if node is None:
        return False
    text = str(node).strip().lower()
    if text in ("true", "yes"):
        return True
    if text in ("false", "no"):
        return False
    raise file_error(file, node, f"{what} is true or false", entry)
