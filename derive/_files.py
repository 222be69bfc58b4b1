"""Reading a user's file: a regular file only, size-capped, never blocking.

Formula, problem and claims files and live sources arrive as paths a user (or a folder
someone else filled) names. A FIFO, a socket or a device there would block a read forever
or stream without end, so :func:`read_user_file` opens without blocking, refuses anything
that is not a regular file, and reads at most ``limit`` bytes.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ._errors import CatalogError

__all__ = ["MAX_USER_FILE_BYTES", "read_user_file"]

MAX_USER_FILE_BYTES = 16 * 1024 * 1024


def read_user_file(path: str | os.PathLike, display: str | None = None, limit: int = MAX_USER_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path``; a :class:`CatalogError` naming ``display`` otherwise."""
    name = display or str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(Path(path), flags)
    except OSError as exc:
        raise CatalogError(f"cannot read file: {exc.strerror or exc}", file=name) from exc
    try:
        mode = os.fstat(fd).st_mode
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
    return b"".join(chunks)
