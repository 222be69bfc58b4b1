"""Sweeps kept as the program they compile to, so that a question swept once is swept again without SymPy.

A sweep's work is solving its question once in symbols and checking a few grid points with
the engine; evaluating the grid itself is NumPy on whole arrays. When the formula is a plain
program (:mod:`derive.symbolic.program`), a successful sweep keeps, in the cache (:mod:`derive.storage.cache`:
JSON in a private folder, verified on every read), the program, the formula's text, and what is
needed to read a grid of the swept quantities (each one's declared unit and the units the
sweep's values were written in). The key is the answer store's (the command line, the folder,
derive's code, the libraries' versions and the contents of every catalog, unit and template
file) with the swept ranges left out: the same question over *another grid* of the same swept
quantities runs the kept program too. Its grid is read as the engine reads it, the program is
evaluated over it, and the check points a fresh sweep would solve exactly are computed exactly
from the formula's text over fractions (:func:`derive.catalog.formula_text.exact_value_of_text`)
and compared with the program's floats as a fresh run compares them with the engine's.
Anything the store cannot do exactly (a unit it has not kept, a value that is not rational, a
point with no value) goes to the engine instead. Bounds and relations with regimes are not kept.
This module imports nothing heavy: it is consulted before the engine is.
"""

from __future__ import annotations

import re
from copy import copy
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Mapping

from ..sweep.agreement import agrees

if TYPE_CHECKING:  # pragma: no cover
    import argparse

    from ..records.catalog import Catalog
    from ..sweep.grid import SweepResult

__all__ = ["SweepStore"]

KIND = "sweep"
SWEPT = "<swept>"                 # what stands in the key for a swept quantity's range
_VALUE = re.compile(r"^\s*((?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*([A-Za-z/µ]*)\s*$")


class SweepStore:
    """The kept sweep program of one question over its swept quantities (see the module docstring)."""

    def __init__(self, key: str) -> None:
        self.key = key

    @classmethod
    def for_command(cls, args: "argparse.Namespace") -> "SweepStore | None":
        """The store entry for this parsed command line's question, or None when caching is off or a
        file cannot be keyed. Swept ranges, the output and its format and ``--verify`` are not part of it."""
        from ..sweep.grid import is_sweep_spec
        from ._answer_store import command_key
        from ._options import parse_assignments

        masked = copy(args)
        masked.inputs = [f"{k}={SWEPT if is_sweep_spec(v) else v}" for k, v in parse_assignments(args.inputs).items()]
        key = command_key(masked, ignore=("output", "format", "verify"))
        return None if key is None else cls(key)

    def lookup(self, specs: Mapping[str, str], verify: int) -> "SweepResult | None":
        """The sweep over the grid ``specs`` (name → spec, as typed) as a fresh run would make it, from the
        kept program, ``verify`` points checked exactly; None when nothing (usable) is kept."""
        from ..storage.cache import read_entry

        entry = read_entry(KIND, self.key)
        if not isinstance(entry, dict):
            return None
        try:
            return _replay(entry, specs, verify)
        except (KeyError, TypeError, ValueError, IndexError, ArithmeticError):
            return None                     # not what keep() writes, or nothing exact: the engine answers

    def keep(self, result: "SweepResult", specs: Mapping[str, str], catalog: "Catalog") -> None:
        """Keep ``result`` (a successful, checked sweep) when its formula is a program whose text reads back."""
        from ..errors import DeriveError
        from ..storage.cache import write_entry

        compiled = result.compiled
        expr = getattr(compiled, "expr", None)
        if compiled is None or compiled.program is None or result.bound is not None or expr is None \
                or len(specs) != len(result.axes):
            return
        formula = str(expr)
        units: dict[str, list] = {}
        axes = []
        try:
            for axis, text in zip(result.axes, specs.values()):
                q = catalog.quantities[axis.name]
                axes.append({"name": axis.name, "factor": [int(q.factor.p), int(q.factor.q)],
                             "integer": q.integer, "dims": q.dims.unit_string()})
                for value in _spec_parts(text):
                    unit = value[1]
                    if unit and unit not in units:
                        factor, dims = catalog.units.parse(unit)
                        units[unit] = [factor.numerator, factor.denominator, dims.unit_string()]
            if not _formula_agrees(result, formula, 0):     # the text must read back to the engine's value
                return
        except (DeriveError, KeyError, ValueError, ArithmeticError):
            return
        write_entry(KIND, self.key, {
            "target": result.target, "unit": result.unit, "grid": result.grid, "names": list(compiled.names),
            "program": compiled.program, "positive": compiled.positive, "zero_ok": compiled.zero_ok,
            "formula": formula, "axes": axes,
            "units": units, "overrides": [[o.kind, o.id, o.file, o.replaced] for o in result.overrides]})


def _spec_parts(text: str) -> list[tuple[Fraction, str]]:
    """Each value a spec writes as (number, unit as typed); ValueError for anything else."""
    from ..sweep.grid import spec_values

    out = []
    for part in spec_values(text):
        m = _VALUE.match(part)
        if m is None:
            raise ValueError(part)
        out.append((Fraction(m.group(1)), m.group(2)))
    return out


def _formula_agrees(result: "SweepResult", formula: str, index: int) -> bool:
    """Whether the formula's text, evaluated exactly at flat grid ``index``, is the program's float there."""
    from ..catalog.formula_text import Irrational, exact_value_of_text

    point = {name: Fraction(value) for name, value in result.point(index).items()}
    try:
        exact = exact_value_of_text(formula, point)
    except Irrational:
        return False
    if exact <= 0:
        return False                        # no value there, or one the engine may refuse: ask the engine
    kept = {"int": str(exact.numerator)} if exact.denominator == 1 else {"real": float(exact)}
    return agrees(kept, float(result.values.ravel()[index]))


def _replay(entry: dict[str, Any], specs: Mapping[str, str], verify: int) -> "SweepResult | None":
    import numpy as np

    from ..sweep.grid import Axis, SweepResult, check_points, grid_values, whole_values
    from ..sweep.vectorize import Vectorized

    names = tuple(entry["names"])
    kept_axes = entry["axes"]
    if tuple(specs) != names or [a["name"] for a in kept_axes] != list(names):
        return None                         # swept under other names (an alias): the engine reads them
    units = entry["units"]
    axes = []
    for kept, (name, text) in zip(kept_axes, specs.items()):
        factor = Fraction(*kept["factor"])
        readings: dict[str, float] = {}
        for number, unit in _spec_parts(text):
            if not unit:
                scale = factor
            elif unit in units and units[unit][2] == kept["dims"]:
                scale = Fraction(units[unit][0], units[unit][1])
            else:
                return None                 # a unit not kept (or of another dimension): the engine says
            if kept["integer"] and (number * scale).denominator != 1:
                return None                 # not a whole number: the engine refuses it, and says why
            readings[f"{number}{unit}"] = float(number * scale)
        values = grid_values(name, text.strip(), readings_of(readings))
        if kept["integer"]:
            values = whole_values(name, values, text.strip())
        axes.append(Axis(name, values, kept["dims"], text.strip()))
    compiled = Vectorized.from_program(entry["target"], names, entry["program"], entry["positive"] is True,
                                       entry.get("zero_ok") is True)
    grid = entry["grid"]
    if grid == "zip":
        if len({a.values.size for a in axes}) != 1:
            return None
        arrays = [a.values for a in axes]
        shape: tuple[int, ...] = (axes[0].values.size,)
    elif grid == "outer":
        shape = tuple(a.values.size for a in axes)
        arrays = [a.values.reshape([-1 if j == i else 1 for j in range(len(shape))]) for i, a in enumerate(axes)]
    else:
        return None
    values = np.ascontiguousarray(compiled(*arrays))
    if values.shape != shape or not np.all(np.isfinite(values)) \
            or np.any(np.abs(values) < np.finfo(np.float64).tiny):
        return None                         # no value somewhere, beyond floats, or 0: the engine explains
    result = SweepResult(entry["target"], entry["unit"], tuple(axes), values, grid, None, None, compiled, ())
    picks = check_points(result.size, verify) if verify else []
    if not all(_formula_agrees(result, entry["formula"], index) for index in picks):
        return None
    from ..records.overrides import Override

    overrides = tuple(Override(*(str(part) for part in o)) for o in entry["overrides"])
    return SweepResult(entry["target"], entry["unit"], tuple(axes), values, grid, None, None, compiled,
                       tuple(picks), overrides=overrides)


def readings_of(readings: dict[str, float]) -> "Callable[[str], float]":
    """A reader of the values a spec writes, from those read before (by number and unit)."""
    return lambda part: readings[_reading_key(part)]


def _reading_key(part: str) -> str:
    m = _VALUE.match(part)
    if m is None:
        raise ValueError(part)
    return f"{Fraction(m.group(1))}{m.group(2)}"
