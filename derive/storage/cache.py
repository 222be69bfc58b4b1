"""Where derive keeps what it computes once and reuses between runs, as data that cannot run code.

``$DERIVE_CACHE_DIR`` names the folder (``off`` turns caching off); the default is
``$XDG_CACHE_HOME/derive`` or ``~/.cache/derive``. The folder is created private (0700) and
used only while it belongs to the user running derive and nobody else can write to it: a
cache another user could plant a file in (a shared team folder, a group-writable ``~/.cache``)
is bypassed with one warning, never trusted.

Entries are JSON (:func:`read_entry`, :func:`write_entry`): no pickle, so reading an entry
never runs code. An entry is a header line (its kind, the key it was built for and an HMAC of
both and the payload) and the payload; an entry whose key or HMAC does not match, or that does
not parse, is rebuilt, never used. The HMAC's key is a random secret kept *outside* the cache
folder (:func:`secret`: ``$XDG_CONFIG_HOME/derive/cache-key`` or ``~/.config/derive/cache-key``,
0600 in a 0700 folder, held to the cache folder's rules), so whoever can edit the cache folder
but not that file (a cache restored from another branch or machine, a copied folder) cannot
make an entry derive accepts: entries made with another key are rebuilt. Writes are atomic, so
a reader never sees half an entry.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import stat
import sys
from pathlib import Path
from typing import Any, Callable

__all__ = ["cache_dir", "key_path", "read_entry", "secret", "write_entry"]

_warned: set[str] = set()
_secrets: dict[tuple[Path, Path | None], bytes | None] = {}
SECRET_BYTES = 32


def _location() -> Path | None:
    env = os.environ.get("DERIVE_CACHE_DIR")
    if env == "off":
        return None
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "derive"


_FOLDER_HINT = "set DERIVE_CACHE_DIR to a private folder (or to off)"
_KEY_HINT = "make it yours and private (chmod 600, its folder 700), or set XDG_CONFIG_HOME or DERIVE_CACHE_DIR=off"


def _warn_once(path: Path, why: str, what: str = "the cache folder", hint: str = _FOLDER_HINT) -> None:
    """One warning per run that the cache is not used, and why."""
    key = f"{path}:{why}"
    if key not in _warned:
        _warned.add(key)
        print(f"derive: warning: not using {what} {path}: {why}; {hint}", file=sys.stderr)


def _unsafe(st: os.stat_result, private: int) -> str:
    """Why a file or folder with status ``st`` cannot be trusted ('' if it can): another user's, or
    open to others by the mode bits in ``private``."""
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return "it belongs to another user"
    if st.st_mode & private:
        return "other users can write to it" if st.st_mode & private & (stat.S_IWGRP | stat.S_IWOTH) \
            else "other users can read it"
    return ""


def key_path() -> Path:
    """Where the cache's secret lives: ``$XDG_CONFIG_HOME/derive/cache-key`` or ``~/.config/derive/cache-key``."""
    base = os.environ.get("XDG_CONFIG_HOME")
    if not base or not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "derive" / "cache-key"


def secret(cache: Path | None = None) -> bytes | None:
    """The random key that authenticates cache entries, made on first use; None (caching bypassed, one
    warning) when it cannot be made or read, or when another user could read or replace it, or when it
    lies inside the cache folder ``cache`` (where whoever edits the cache could read it)."""
    path = key_path()
    memo = (path, cache)
    if memo not in _secrets:
        _secrets[memo] = _read_or_make_secret(path, cache)
    return _secrets[memo]


def _read_or_make_secret(path: Path, cache: Path | None) -> bytes | None:
    folder = path.parent
    what = "the cache key"
    if cache is not None:
        try:
            inside = folder.resolve().is_relative_to(cache.resolve())
        except OSError:
            inside = True
        if inside:
            _warn_once(path, "it is inside the cache folder, where whoever edits the cache could read it", what,
                       "set XDG_CONFIG_HOME to a folder outside the cache")
            return None
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = folder.lstat()
    except OSError as exc:
        _warn_once(path, f"its folder cannot be created ({exc.strerror or exc})", what, _KEY_HINT)
        return None
    why = "it is not a folder" if not stat.S_ISDIR(st.st_mode) else _unsafe(st, stat.S_IWGRP | stat.S_IWOTH)
    if why:
        _warn_once(folder, why, "the cache key's folder", _KEY_HINT)
        return None
    if not os.path.lexists(path):
        _make_secret(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        _warn_once(path, f"it cannot be read ({exc.strerror or exc})", what, _KEY_HINT)
        return None
    try:
        st = os.fstat(fd)
        why = "it is not a regular file" if not stat.S_ISREG(st.st_mode) else _unsafe(st, 0o077)
        data = b"" if why else os.read(fd, 4 * SECRET_BYTES + 1)
    finally:
        os.close(fd)
    if why:
        _warn_once(path, why, what, _KEY_HINT)
        return None
    try:
        key = bytes.fromhex(data.decode("ascii").strip())
    except ValueError:
        key = b""
    if len(key) != SECRET_BYTES:
        _warn_once(path, f"it does not hold a key of {SECRET_BYTES} bytes in hex", what, "remove it to make a new one")
        return None
    return key


def _make_secret(path: Path) -> None:
    """Write a new random key at ``path`` unless another process got there first (a complete file appears
    under the final name, or none does: written aside, then hard-linked, which never replaces)."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(secrets.token_hex(SECRET_BYTES) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass                                   # another run made it first: theirs is read
        except OSError:                            # a file system without hard links
            if not os.path.lexists(path):
                os.replace(tmp, path)
    except OSError:
        pass                                       # reported when the key is read
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass


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
    why = "it is not a folder" if not stat.S_ISDIR(st.st_mode) else _unsafe(st, stat.S_IWGRP | stat.S_IWOTH)
    if why:
        _warn_once(folder, why)
        return None
    return folder if secret(folder) is not None else None


def _entry_path(folder: Path, kind: str, key: str) -> Path:
    return folder / f"{kind}-{key[:32]}.json"


def _mac(secret_key: bytes, kind: str, key: str, payload: bytes) -> str:
    """The entry's HMAC-SHA256 under the secret key: its kind, its key and its payload (UTF-8)."""
    mac = hmac.new(secret_key, json.dumps([kind, key]).encode("utf-8") + b"\n", hashlib.sha256)
    mac.update(payload)
    return mac.hexdigest()


def read_entry(kind: str, key: str, parse: Callable[[bytes], Any] = json.loads) -> Any | None:
    """The payload stored for ``key`` (its UTF-8 bytes read by ``parse``), or None (no cache, no entry,
    or an entry that is not exactly it). The payload is checked and handed over as bytes: a catalog's
    is megabytes of mostly Chinese text, and decoding it whole took longer than the rest of the read."""
    folder = cache_dir()
    secret_key = secret(folder) if folder is not None else None
    if folder is None or secret_key is None:
        return None
    path = _entry_path(folder, kind, key)
    try:
        st = path.lstat()
        if not stat.S_ISREG(st.st_mode) or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
            return None                     # a link, a FIFO or another user's file: never read
        first, _, payload = path.read_bytes().partition(b"\n")
        header = json.loads(first)
        mac = header.get("mac")
        if header.get("kind") != kind or header.get("key") != key or not isinstance(mac, str) \
                or not hmac.compare_digest(mac, _mac(secret_key, kind, key, payload)):
            return None                     # made by someone without the key: rebuilt
        return parse(payload)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError, ZeroDivisionError):
        return None                         # missing, corrupt or foreign: rebuilt by the caller


def write_entry(kind: str, key: str, data: Any, *, text: bool = False) -> None:
    """Store ``data`` (JSON-able; with ``text``, the payload's text itself, read back by the ``parse`` the
    reader gives) for ``key``; a failure to write (a full disk) only loses the cache."""
    from ..errors import DeriveError
    from .atomic import write_atomic

    folder = cache_dir()
    secret_key = secret(folder) if folder is not None else None
    if folder is None or secret_key is None:
        return
    payload = data if text else json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    entry = json.dumps({"kind": kind, "key": key, "mac": _mac(secret_key, kind, key, payload.encode("utf-8"))}) \
        + "\n" + payload
    try:
        write_atomic(_entry_path(folder, kind, key), entry, permissions=0o600, stage=False)
    except (DeriveError, OSError):
        pass
