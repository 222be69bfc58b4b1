"""Which overridden built-ins a run's answers used, for the outputs that carry no notes of their own.

An answer names each overridden built-in it uses in its notes (a user's ``override: true``, see
:class:`~derive.records.entries.Override`). A sweep's CSV, a plot or a live source's ``q()`` shows numbers, not
notes: while :func:`collecting` is active, every answer the engine gives (and every preset constant a
live source reads) records the overrides it rests on, so the command can name them (a JSON field, the
npz's ``meta``, a warning on standard error).
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
from dataclasses import dataclass
from typing import Iterable, Iterator

__all__ = ["Override", "as_records", "collecting", "record", "warn"]


@dataclass(frozen=True)
class Override:
    """A built-in entry that a user's file replaced with ``override: true``.

    Every answer, write-up and claim verdict that uses it names it, so a changed constant
    or relation never passes for the built-in one. (Defined here, with nothing heavy imported,
    so that a sweep answered from the cache names its overrides without importing SymPy.)"""

    kind: str           # quantity, relation, condition, preset or reference
    id: str
    file: str           # the user's file that replaced it
    replaced: str       # the built-in file it came from


_LOG: contextvars.ContextVar[dict[tuple[str, str], "Override"] | None] = contextvars.ContextVar(
    "derive_overrides_used", default=None)


@contextlib.contextmanager
def collecting() -> Iterator[dict[tuple[str, str], "Override"]]:
    """The overrides used within the block, by (kind, id); a block inside another shares its record."""
    outer = _LOG.get()
    if outer is not None:
        yield outer
        return
    used: dict[tuple[str, str], Override] = {}
    token = _LOG.set(used)
    try:
        yield used
    finally:
        _LOG.reset(token)


def record(overrides: Iterable["Override"]) -> None:
    used = _LOG.get()
    if used is not None:
        for o in overrides:
            used[(o.kind, o.id)] = o


def as_records(overrides: Iterable["Override"]) -> list[dict[str, str]]:
    """Overrides as JSON: ``[{"kind", "id", "file", "replaced"}]``, in the order kind, id."""
    return [{"kind": o.kind, "id": o.id, "file": o.file, "replaced": o.replaced}
            for o in sorted(overrides, key=lambda o: (o.kind, o.id))]


def warn(overrides: Iterable["Override"]) -> None:
    """One line on standard error for each override, naming it and its file."""
    for o in sorted(overrides, key=lambda o: (o.kind, o.id)):
        print(f"derive: warning: the {o.kind} {o.id} used here is the one in {o.file}, which overrides the "
              f"built-in {o.kind} of {o.replaced}", file=sys.stderr)
