"""Answers to repeated ``derive solve`` questions, kept so that asking again needs no SymPy.

The engine answers a question on the command line once; the text it printed is kept in the
cache (:mod:`derive.storage.cache`: JSON in a private folder, verified on every read) under a key made
of everything that text depends on: the parsed command line, the working folder, the
environment variables derive reads, derive's own code, the versions of the libraries that
compute and render it, and the *contents* of every catalog, unit, template and message file the
run can read (built-in and the user's ``--formulas`` and ``--templates``). Asking the same
question again prints the kept text, byte for byte, without importing SymPy; editing any of
those files, upgrading derive or a library, or changing folder makes a new key, so a stale
answer is never shown.

Only answers printed to standard output by a run that succeeded are kept; PDFs, ``-o FILE``
and errors always go through the engine. This module imports nothing heavy: it is consulted
before the engine is.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import argparse

__all__ = ["AnswerStore", "command_key"]

KIND = "answer"
_LIBRARIES = ("sympy", "mpmath", "jinja2", "markupsafe", "pint", "yaml", "latex2mathml", "numpy")
_ENVIRONMENT = ("DERIVE_FORMULAS", "DERIVE_TEMPLATES", "DERIVE_SYMBOLIC_SECONDS")


class _Unkeyable(Exception):
    """A path the key cannot vouch for (missing, a FIFO, unreadable): the engine answers and reports it."""


def _hash_files(digest: "hashlib._Hash", paths: list[Path]) -> None:
    """Each file's name and bytes, in order; a file that is not a regular file, cannot be read or is
    larger than derive reads makes the command unkeyable (the loader then says what is wrong)."""
    from ..errors import DeriveError
    from ..storage.files import read_user_file

    for path in paths:
        try:
            data = read_user_file(path)
        except DeriveError as exc:
            raise _Unkeyable(str(path)) from exc
        digest.update(f"\0{path}\0{len(data)}\0".encode("utf-8", "surrogateescape"))
        digest.update(data)


def _code_fingerprint() -> list:
    """derive's own modules and the installed libraries it uses, by name, size and modification time."""
    here = Path(__file__).resolve().parent.parent   # the package folder, derive/
    marks: list = [sys.version, sys.executable]
    for path in sorted(here.rglob("*.py")):
        st = path.stat()
        marks.append((str(path.relative_to(here)), st.st_size, st.st_mtime_ns))
    for name in _LIBRARIES:
        spec = find_spec(name)                     # finds the package without importing it
        if spec is None or spec.origin is None:
            marks.append((name, None))
            continue
        origin = Path(spec.origin)
        st = origin.stat()
        marks.append((name, str(origin), st.st_size, st.st_mtime_ns, origin.parent.stat().st_mtime_ns))
    return marks


def command_key(args: "argparse.Namespace", ignore: tuple[str, ...] = ()) -> str | None:
    """The key of what a parsed command line prints (its options but ``ignore``, the folder, the code,
    the libraries and the contents of every file it can read), or None when caching is off or a file
    cannot be keyed."""
    if os.environ.get("DERIVE_CACHE_DIR") == "off":
        return None

    options = {k: v for k, v in sorted(vars(args).items()) if k not in ("run", "debug", *ignore)}
    digest = hashlib.sha256()
    header = {"options": options, "cwd": os.getcwd(), "code": _code_fingerprint(),
              "environment": {k: os.environ.get(k) for k in _ENVIRONMENT}}
    digest.update(json.dumps(header, sort_keys=True, default=str).encode("utf-8", "surrogateescape"))
    # the files the catalog loader and the template loader read, as they list them: never a folder walk
    from ..catalog.sources import catalog_sources, default_formulas_dir
    from ..errors import DeriveError
    from ..writeup.render import template_files

    try:
        units, sources = catalog_sources(default_formulas_dir(), getattr(args, "formulas", None) or ())
        templates = template_files(getattr(args, "templates", None))
        if templates is None:
            return None
        _hash_files(digest, [units, *(path for path, _, _ in sources), *templates])
    except (_Unkeyable, DeriveError):
        return None
    return digest.hexdigest()


class AnswerStore:
    """The kept answer of one ``derive solve`` command line (see the module docstring)."""

    def __init__(self, key: str) -> None:
        self.key = key

    @classmethod
    def for_command(cls, args: argparse.Namespace) -> "AnswerStore | None":
        """The store entry for this parsed command line, or None when its answer is not to be kept."""
        if getattr(args, "output", None) or getattr(args, "format", "text") == "pdf":
            return None
        key = command_key(args)
        return None if key is None else cls(key)

    def lookup(self) -> str | None:
        """The text a fresh solve printed for this command line, if it was kept."""
        from ..storage.cache import read_entry

        entry = read_entry(KIND, self.key)
        return entry["text"] if isinstance(entry, dict) and isinstance(entry.get("text"), str) else None

    def keep(self, text: str) -> None:
        """Keep ``text``, the whole standard output of a successful fresh solve."""
        from ..storage.cache import write_entry

        write_entry(KIND, self.key, {"text": text})
