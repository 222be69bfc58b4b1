"""Reading a user's file: a regular file only, size-capped, never blocking.

Formula, problem and claims files and live sources arrive as paths a user (or a folder
someone else filled) names. A FIFO, a socket or a device there would block a read forever
or stream without end, so :func:`read_user_file` opens without blocking, refuses anything
that is not a regular file, and reads at most ``limit`` bytes.

Every file read this way is remembered for the rest of the process (:func:`read_by_this_run`): an
output is never written over a file the run has read, whatever asked for it (a live source's
``claims("c.yaml")`` with ``-o c.yaml``), by its path or by another name for the same file.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import CatalogError

__all__ = ["MAX_USER_FILE_BYTES", "read_by_this_run", "read_user_file"]

MAX_USER_FILE_BYTES = 16 * 1024 * 1024

_read_paths: dict[str, str] = {}                      # resolved path → the name it was read by
_read_files: dict[tuple[int, int, int], str] = {}     # (device, inode, modified) → the name it was read by


def _remember(path: str | os.PathLike, name: str, st: os.stat_result) -> None:
    try:
        _read_paths[os.path.realpath(path)] = name
    except (OSError, ValueError):
        pass
    _read_files[(st.st_dev, st.st_ino, st.st_mtime_ns)] = name


def read_by_this_run(path: str | os.PathLike) -> str | None:
    """The name under which this process read the file at ``path`` (:func:`read_user_file`), or None."""
    try:
        found = _read_paths.get(os.path.realpath(path))
        if found is not None:
            return found
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return _read_files.get((st.st_dev, st.st_ino, st.st_mtime_ns))


def read_user_file(path: str | os.PathLike, display: str | None = None, limit: int = MAX_USER_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path``; a :class:`CatalogError` naming ``display`` otherwise."""
    name = display or str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(Path(path), flags)
    except OSError as exc:
        raise CatalogError(f"cannot read file: {exc.strerror or exc}", file=name) from exc
    try:
        st = os.fstat(fd)
        mode = st.st_mode
        if not stat.S_ISREG(mode):
            kind = ("a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
                    else "a socket" if stat.S_ISSOCK(mode) else "a device")
            raise CatalogError(f"not a regular file ({kind}); give a file", file=name)
        chunks = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise CatalogError(f"cannot read file: {exc.strerror or exc}", file=name) from exc
    finally:
        os.close(fd)
    if size > limit:
        raise CatalogError(f"file is larger than {limit:,} bytes", file=name)
    _remember(path, name, st)
    return b"".join(chunks)
