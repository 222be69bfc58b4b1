"""Where derive keeps what it computes once and reuses between runs, as data that cannot run code.

``$DERIVE_CACHE_DIR`` names the folder (``off`` turns caching off); the default is
``$XDG_CACHE_HOME/derive`` or ``~/.cache/derive``. The folder is created private (0700) and
used only while it belongs to the user running derive and nobody else can write to it: a
cache another user could plant a file in (a shared team folder, a group-writable ``~/.cache``)
is bypassed with one warning, never trusted.

Entries are JSON (:func:`read_entry`, :func:`write_entry`): no pickle, so reading an entry
never runs code. An entry is a header line (its kind, the key it was built for and a hash of
the payload) and the payload; an entry whose key or hash does not match, or that does not
parse, is rebuilt, never used. Writes are atomic, so a reader never sees half an entry.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from pathlib import Path
from typing import Any, Callable

__all__ = ["cache_dir", "read_entry", "write_entry"]

_warned: set[str] = set()


def _location() -> Path | None:
    env = os.environ.get("DERIVE_CACHE_DIR")
    if env == "off":
        return None
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "derive"


def _warn_once(folder: Path, why: str) -> None:
    key = f"{folder}:{why}"
    if key not in _warned:
        _warned.add(key)
        print(f"derive: warning: not using the cache folder {folder}: {why}; "
              "set DERIVE_CACHE_DIR to a private folder (or to off)", file=sys.stderr)


def cache_dir() -> Path | None:
    """The cache folder, created private if missing; None when caching is off or the folder is unsafe."""
    folder = _location()
    if folder is None:
        return None
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = folder.stat()
    except OSError as exc:
        _warn_once(folder, f"it cannot be created ({exc.strerror or exc})")
        return None
    if not stat.S_ISDIR(st.st_mode):
        _warn_once(folder, "it is not a folder")
        return None
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        _warn_once(folder, "it belongs to another user")
        return None
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        _warn_once(folder, "other users can write to it")
        return None
    return folder


def _entry_path(folder: Path, kind: str, key: str) -> Path:
    return folder / f"{kind}-{key[:32]}.json"


def _digest(payload: str) -> str:
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def read_entry(kind: str, key: str, parse: Callable[[str], Any] = json.loads) -> Any | None:
    """The payload stored for ``key`` (read by ``parse``), or None (no cache, no entry, or an entry
    that is not exactly it)."""
    folder = cache_dir()
    if folder is None:
        return None
    path = _entry_path(folder, kind, key)
    try:
        st = path.lstat()
        if not stat.S_ISREG(st.st_mode) or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
            return None                     # a link, a FIFO or another user's file: never read
        text = path.read_text(encoding="utf-8")
        first, _, payload = text.partition("\n")
        header = json.loads(first)
        if header.get("kind") != kind or header.get("key") != key or header.get("digest") != _digest(payload):
            return None
        return parse(payload)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError, ZeroDivisionError):
        return None                         # missing, corrupt or foreign: rebuilt by the caller


def write_entry(kind: str, key: str, data: Any) -> None:
    """Store ``data`` (JSON-able) for ``key``; a failure to write (a full disk) only loses the cache."""
    from ._atomic import write_atomic
    from ._errors import DeriveError

    folder = cache_dir()
    if folder is None:
        return
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    entry = json.dumps({"kind": kind, "key": key, "digest": _digest(payload)}) + "\n" + payload
    try:
        write_atomic(_entry_path(folder, kind, key), entry, permissions=0o600)
    except (DeriveError, OSError):
        pass
