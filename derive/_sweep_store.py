"""Sweeps kept as the program they compile to, so that running the same ``derive sweep`` again needs no SymPy.

A sweep's work is solving its question once in symbols and checking a few grid points with
the engine; evaluating the grid itself is NumPy on whole arrays. When the formula is a plain
program (:mod:`derive._program`), a successful sweep keeps, in the cache (:mod:`derive._cache`:
JSON in a private folder, verified on every read), the grid's axes in base units, the program,
and the engine's exact values at the checked points, under the key of the answer store (the
command line but for ``-o`` and ``--format``, the folder, derive's code, the libraries' versions
and the contents of every catalog, unit and template file). Running it again evaluates the kept
program over the kept axes, compares the checked points with the kept exact values as a fresh
run compares them with the engine's, and writes the same file, byte for byte, without importing
SymPy. Bounds, relations with regimes and grids with more than :data:`MAX_AXIS_VALUES` swept
values are not kept. This module imports nothing heavy: it is consulted before the engine is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._agreement import agrees, kept_value

if TYPE_CHECKING:  # pragma: no cover
    import argparse

    from .sweep import SweepResult

__all__ = ["MAX_AXIS_VALUES", "SweepStore"]

KIND = "sweep"
MAX_AXIS_VALUES = 100_000        # swept values kept (the grid is their product; it is computed again)


class SweepStore:
    """The kept sweep of one ``derive sweep`` command line (see the module docstring)."""

    def __init__(self, key: str) -> None:
        self.key = key

    @classmethod
    def for_command(cls, args: "argparse.Namespace") -> "SweepStore | None":
        """The store entry for this parsed command line, or None when caching is off or a file cannot be keyed."""
        from ._answer_store import command_key

        key = command_key(args, ignore=("output", "format"))
        return None if key is None else cls(key)

    def lookup(self) -> "SweepResult | None":
        """The sweep as a fresh run would make it, from the kept program; None when nothing (usable) is kept."""
        from ._cache import read_entry

        entry = read_entry(KIND, self.key)
        if not isinstance(entry, dict):
            return None
        try:
            return _replay(entry)
        except (KeyError, TypeError, ValueError, IndexError):
            return None                     # not what keep() writes: the engine answers instead

    def keep(self, result: "SweepResult") -> None:
        """Keep ``result`` (a successful, checked sweep) when its formula is a program and its axes are small."""
        from ._cache import write_entry

        compiled = result.compiled
        if compiled is None or compiled.program is None or result.bound is not None \
                or sum(a.values.size for a in result.axes) > MAX_AXIS_VALUES:
            return
        checked = []
        for index in result.verified:
            checked.append([index, _exact_of(result, index)])
        write_entry(KIND, self.key, {
            "target": result.target, "unit": result.unit, "grid": result.grid, "shape": list(result.values.shape),
            "axes": [{"name": a.name, "unit": a.unit, "spec": a.spec, "values": a.values.tolist()}
                     for a in result.axes],
            "names": list(compiled.names), "program": compiled.program, "positive": compiled.positive,
            "checked": checked, "overrides": [[o.kind, o.id, o.file, o.replaced] for o in result.overrides]})


def _exact_of(result: "SweepResult", index: int) -> dict[str, Any]:
    """The engine's value at a checked grid point, as JSON: a whole number exactly, else its float."""
    from ._errors import NoSolutionError

    try:
        return kept_value(result.solve_at(index).value)
    except NoSolutionError:
        return {"none": True}


def _replay(entry: dict[str, Any]) -> "SweepResult | None":
    import numpy as np

    from ._vectorize import Vectorized
    from .sweep import Axis, SweepResult

    axes = tuple(Axis(a["name"], np.asarray(a["values"], dtype=np.float64), a["unit"], a["spec"])
                 for a in entry["axes"])
    names = tuple(entry["names"])
    if names != tuple(a.name for a in axes) or not isinstance(entry["program"], list):
        return None
    compiled = Vectorized.from_program(entry["target"], names, entry["program"], entry["positive"] is True)
    shape = tuple(int(n) for n in entry["shape"])
    if entry["grid"] == "zip":
        arrays = [a.values for a in axes]
    elif entry["grid"] == "outer":
        arrays = [a.values.reshape([-1 if j == i else 1 for j in range(len(shape))]) for i, a in enumerate(axes)]
    else:
        return None
    values = np.ascontiguousarray(compiled(*arrays))
    if values.shape != shape:
        return None
    flat = values.ravel()
    verified = []
    for index, want in entry["checked"]:
        if not agrees(want, float(flat[index])):
            return None                     # not the values the engine checked: answer afresh
        verified.append(int(index))
    from ._override_log import Override

    overrides = tuple(Override(*(str(part) for part in o)) for o in entry["overrides"])
    return SweepResult(entry["target"], entry["unit"], axes, values, entry["grid"], None, None, compiled,
                       tuple(verified), overrides=overrides)
