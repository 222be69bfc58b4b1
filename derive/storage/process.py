"""Process-wide guards are the command's, never the library's.

Three budgets need the whole process to enforce them: the address-space cap that stops one template
operation from allocating past a render's memory budget (``RLIMIT_AS``), the timer that stops a
SymPy call past its time budget (``SIGALRM``), and SIGTERM turned into an interrupt so that a
killed build cleans up. Each changes state every thread of the process shares: in a Jupyter kernel
another thread's allocations would fail while a render runs. So the library applies none of them
unless it owns the process: ``derive`` (the command) runs each command inside
:func:`process_guards`, and a script that owns its process may do the same. Without them the
library's budgets are still checked between operations (a template's output, CPU time and memory
are counted as it runs), but one long SymPy call or one huge allocation is not interrupted.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Iterator

__all__ = ["guards_on", "process_guards"]

_lock = threading.Lock()
_holders = 0


def guards_on() -> bool:
    """Whether the process's owner asked for the process-wide guards (see the module docstring)."""
    return _holders > 0


@contextlib.contextmanager
def process_guards() -> Iterator[None]:
    """Within the block, derive's budgets may use process-wide means (an address-space limit, a timer
    signal, a SIGTERM handler), each restored when its work ends. For a process derive owns."""
    global _holders
    with _lock:
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
