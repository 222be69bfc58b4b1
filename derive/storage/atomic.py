"""Writing files so that an interrupted or failed write never leaves a half file or loses the old one.

Every output derive writes (a write-up, a sweep's CSV, a plot, a PDF, a cache entry) goes to a
temporary file in the same folder, is flushed to disk, and is renamed over the final name only
when complete. On any failure or interrupt (Ctrl-C, SIGTERM, a full disk) the temporary file is
removed and an earlier file of that name is untouched. :class:`OutputPlan` also refuses to write
over one of the run's inputs and two outputs to the same path.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import signal
import stat
import tempfile
from pathlib import Path
from typing import IO, Iterable, Iterator

from ..errors import InputError

__all__ = ["OutputPlan", "atomic_path", "check_target", "open_atomic", "sigterm_as_interrupt", "staged",
           "write_atomic"]

_KINDS = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"))


def check_target(path: str | os.PathLike) -> Path:
    """``path`` if derive may write over it: a missing path or a regular file this run has not read. Anything
    else (a device such as /dev/null, a FIFO, a socket, a folder, or a symbolic link, even to a regular file)
    is refused, since publishing a file by renaming would replace it with a regular file; so is a file the
    run read (:func:`~derive.storage.files.read_by_this_run`: a live source's claims file, a formula file)."""
    from .files import read_by_this_run

    final = Path(path)
    try:
        mode = final.lstat().st_mode
    except FileNotFoundError:
        return final
    except OSError as exc:
        raise InputError(f"cannot write {final}: {exc.strerror or exc}") from exc
    if stat.S_ISREG(mode):
        read_as = read_by_this_run(final)
        if read_as is not None:
            raise InputError(f"refusing to write {final}: this run reads it ({read_as}); choose another output")
        return final
    what = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    hint = ("give the path of the file it points to, or remove the link" if stat.S_ISLNK(mode)
            else "give the path of a regular file (to print instead, omit -o or give -o -)")
    raise InputError(f"refusing to write {final}: it is {what}, not a regular file; {hint}")


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised as an interrupt so that cleanup runs; the command exits 128 + 15, as the signal would."""

    signum = signal.SIGTERM


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated` (a KeyboardInterrupt) in the main thread, so that
    cleanup runs (a temporary file is removed, a TeX build's processes are ended); elsewhere (another thread)
    it does nothing, and in a process the library does not own (:mod:`derive.storage.process`) too."""
    from .process import guards_on

    if not guards_on():
        yield
        return
    try:
        previous = signal.getsignal(signal.SIGTERM)
    except (ValueError, AttributeError):     # not the main thread, or no SIGTERM here
        yield
        return

    def interrupt(signum, frame):  # pragma: no cover - exercised by a real signal in the tests
        raise Terminated

    try:
        signal.signal(signal.SIGTERM, interrupt)
    except ValueError:
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


class _Stage:
    """Files written inside :func:`staged`, waiting to be published together, and the folders made for them."""

    def __init__(self) -> None:
        self.pending: list[tuple[Path, Path]] = []      # (temporary file, final name)
        self.folders: list[Path] = []                   # made for the files, outermost first

    def publish(self) -> None:
        try:
            for tmp, final in self.pending:
                check_target(final)
                os.replace(tmp, final)
        except OSError as exc:
            raise InputError(f"cannot write {final}: {exc.strerror or exc}") from exc
        finally:
            self.pending = [(t, f) for t, f in self.pending if t.exists()]

    def discard(self) -> None:
        for tmp, _ in self.pending:
            tmp.unlink(missing_ok=True)
        self.pending = []
        _remove_folders(self.folders)


_STAGE: contextvars.ContextVar[_Stage | None] = contextvars.ContextVar("derive_output_stage", default=None)


@contextlib.contextmanager
def staged() -> Iterator[None]:
    """Within the block, files written with :func:`atomic_path` (a render's images and its output) are
    published together when the block completes; if it fails or is interrupted, none is, and the
    folders made for them are removed: a failed run leaves nothing new. A block inside another joins it."""
    if _STAGE.get() is not None:
        yield
        return
    stage = _Stage()
    token = _STAGE.set(stage)
    try:
        with sigterm_as_interrupt():
            yield
            stage.publish()
    except BaseException:
        stage.discard()
        raise
    finally:
        _STAGE.reset(token)


def _make_folder(folder: Path) -> list[Path]:
    """Make ``folder`` and its missing parents; returns those it made, outermost first."""
    missing = []
    p = folder
    while not p.exists() and p != p.parent:
        missing.append(p)
        p = p.parent
    folder.mkdir(parents=True, exist_ok=True)
    return missing[::-1]


def _remove_folders(folders: list[Path]) -> None:
    """Remove the folders a failed write made (innermost first), when nothing else is in them."""
    for folder in reversed(folders):
        try:
            folder.rmdir()
        except OSError:
            pass


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike, suffix: str = "", mode: int | None = None,
                stage: bool = True) -> Iterator[Path]:
    """A temporary path in ``path``'s folder to write (by any means) and then publish as ``path``.

    The folder is created if needed. Leaving the block normally fsyncs the file and renames it over
    ``path`` (inside :func:`staged`, with ``stage``, when the staged block completes); an exception (an
    interrupt included) removes it, and the folders made for it, and leaves ``path`` as it was.
    The file gets ``mode``, or the permissions a plain ``open()`` would give. Only a missing path or a
    regular file is replaced (:func:`check_target`, checked before writing and again before the rename).
    """
    final = check_target(path)
    staging = _STAGE.get() if stage else None
    try:
        made = _make_folder(final.parent)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{final.name}.", suffix=suffix or ".part", dir=final.parent)
    except OSError as exc:
        raise InputError(f"cannot write {final}: {exc.strerror or exc}") from exc
    if staging is not None:
        staging.folders.extend(made)
        made = []
    os.close(fd)
    tmp = Path(tmp_name)
    try:        # mkstemp makes the file private; by default give it what a plain open() would
        if mode is None:
            mode = final.lstat().st_mode & 0o7777 if final.exists() else 0o666 & ~_umask()
        os.chmod(tmp, mode)
    except OSError:
        pass
    try:
        with sigterm_as_interrupt():
            yield tmp
            with open(tmp, "rb") as fh:
                os.fsync(fh.fileno())
            check_target(final)         # still not a device, FIFO or link that appeared meanwhile
            if staging is not None:
                staging.pending.append((tmp, final))
            else:
                os.replace(tmp, final)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        _remove_folders(made)
        raise InputError(f"cannot write {final}: {exc.strerror or exc}") from exc
    except BaseException:
        tmp.unlink(missing_ok=True)
        _remove_folders(made)
        raise


@contextlib.contextmanager
def open_atomic(path: str | os.PathLike, mode: str = "w", encoding: str | None = "utf-8",
                newline: str | None = "\n", permissions: int | None = None, stage: bool = True) -> Iterator[IO]:
    """``open()`` for writing that publishes the file only when the block completes."""
    with atomic_path(path, mode=permissions, stage=stage) as tmp:
        binary = "b" in mode
        with open(tmp, mode, encoding=None if binary else encoding, newline=None if binary else newline) as fh:
            yield fh
            fh.flush()


def write_atomic(path: str | os.PathLike, data: str | bytes, permissions: int | None = None,
                 stage: bool = True) -> Path:
    """Write ``data`` (text as UTF-8) to ``path`` atomically; returns the path. ``stage=False``: published
    at once even inside :func:`staged` (a cache entry, which is not the run's output)."""
    with open_atomic(path, "wb" if isinstance(data, bytes) else "w", permissions=permissions, stage=stage) as fh:
        fh.write(data)
    return Path(path)


class OutputPlan:
    """The files one run will write: refuses an output that is one of the run's inputs, or a second
    output to a path already planned (two problem files with the same name into one folder)."""

    def __init__(self, inputs: Iterable[str | os.PathLike] = ()) -> None:
        self._inputs = {self._key(p) for p in inputs}
        self._planned: dict[Path, str] = {}

    @staticmethod
    def _key(path: str | os.PathLike) -> Path:
        return Path(path).resolve()

    def claim(self, path: str | os.PathLike, what: str = "") -> Path:
        check_target(path)
        key = self._key(path)
        if key in self._inputs:
            raise InputError(f"refusing to write {path}: it is an input of this run; choose another output")
        if key in self._planned:
            raise InputError(f"two outputs of this run would both be {path} ({self._planned[key]} and "
                             f"{what or 'another'}); give the inputs different names or write to different folders")
        self._planned[key] = what or str(path)
        return Path(path)
