"""Time budgets for symbolic work: a SymPy call that runs too long stops with an error, not a hang.

User formula files can hold relations SymPy solves slowly or never (``x = y * z**4096``
solved for ``z``, nested exponentials). Each symbolic step derive takes runs inside
:func:`time_budget`, which interrupts it after ``DERIVE_SYMBOLIC_SECONDS`` (default 10 s)
and raises :class:`~derive.TimeBudgetError` naming what was being done; the solver turns
that into a :class:`~derive.NotInvertibleError` for the relation, so another route is tried.

The budget is a real-time timer (``SIGALRM``), so it works only in the main thread of a
POSIX process; elsewhere (threads, Windows) symbolic work runs unbounded. Nested budgets
keep the outer deadline when it is sooner.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from typing import Iterator

from ..errors import InputError, TimeBudgetError

__all__ = ["symbolic_seconds", "time_budget"]

DEFAULT_SECONDS = 10.0


class _OutOfTime(BaseException):
    """Raised by the timer inside SymPy; a BaseException, so SymPy's own ``except Exception`` cannot swallow it."""


_deadline: list[float] = []     # the active budgets' deadlines (monotonic), innermost last


def symbolic_seconds() -> float:
    """The budget per symbolic step: ``$DERIVE_SYMBOLIC_SECONDS`` or 10 s."""
    text = os.environ.get("DERIVE_SYMBOLIC_SECONDS")
    if not text:
        return DEFAULT_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds <= 3600:
        raise InputError(f"DERIVE_SYMBOLIC_SECONDS={text!r}: give seconds from 0 to 3600, e.g. 10")
    return seconds


def _usable() -> bool:
    """A timer signal may stop the work: the process's owner allows it (the command does) and this is
    the main thread, where Python delivers signals."""
    from ..storage.process import guards_on

    return guards_on() and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def time_budget(what: str, seconds: float | None = None) -> Iterator[None]:
    """Run the block within ``seconds`` (default :func:`symbolic_seconds`) or raise TimeBudgetError about ``what``."""
    limit = symbolic_seconds() if seconds is None else seconds
    if not _usable():
        yield
        return
    now = time.monotonic()
    deadline = now + limit
    outer = _deadline[-1] if _deadline else None
    if outer is not None and outer <= deadline:
        yield                   # the enclosing budget ends first and is already armed
        return

    def out_of_time(signum, frame):
        raise _OutOfTime

    previous_handler = signal.signal(signal.SIGALRM, out_of_time)
    _deadline.append(deadline)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    except _OutOfTime:
        if outer is not None and time.monotonic() >= outer - 1e-3:
            raise                   # the outer budget's time: let it report
        raise TimeBudgetError(what, limit) from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _deadline.pop()
        signal.signal(signal.SIGALRM, previous_handler)
        if outer is not None:   # re-arm the enclosing budget for what is left of it
            signal.setitimer(signal.ITIMER_REAL, max(outer - time.monotonic(), 1e-3))
