"""Sweeps: a solved quantity evaluated over a grid of inputs with NumPy (``derive sweep``).

::

    derive sweep batch seq_len=512:32768:7:log --max --require kv_cache_fits \\
        --model llama2-70b --hw h100 num_devices=8

The question is solved once, symbolically, at the grid's first point; the
answer's formula (or, for ``--max``/``--min``, its symbolic boundary) is
compiled to NumPy (``sweep/vectorize.py``) and evaluated on whole arrays. The
engine then solves a few grid points again exactly (the first, the middle and
the last by default) and the sweep stops with a :class:`VerificationError` if
a vectorised value differs.

Grid specifications, one per swept name:

* ``NAME=START:STOP:NUM`` evenly spaced, ``NAME=START:STOP:NUM:log`` spaced
  evenly in the logarithm; START and STOP may carry units (``hbm_capacity=16GB:80GB:5``);
* ``NAME=V1,V2,V3`` the listed values.

Whole-number quantities (batch, seq_len, ...) are rounded to whole numbers
and repeated values dropped. Several swept names make an **outer product**
(every combination; the first name varies slowest, as in ``np.meshgrid(...,
indexing="ij")``); with ``--zip`` they are paired element by element instead
and must have the same length. Everything stays in NumPy arrays: no Python
object is made per grid point, and CSV is formatted a block of rows at a time by one
``%`` over the whole block. Columns are in base units, named in the header (``seq_len [1]``,
``kv_cache_bytes [B]``). ``write_npz`` writes NumPy's own ``.npz`` for large grids: one
float64 array per column, named by quantity id, and ``meta`` (JSON text: target, unit of
each column, grid, shape), readable with ``np.load(path)`` and no pickle.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import IO, TYPE_CHECKING, Any, Callable, Mapping, Sequence

from ..errors import DeriveError, InputError, NoSolutionError, VerificationError

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..records.catalog import Catalog
    from ..records.entries import Preset
    from ..records.overrides import Override
    from ..records.question import Question
    from ..records.solution import Solution
    from .vectorize import Vectorized

__all__ = ["Axis", "SweepResult", "check_points", "grid_values", "parse_axis", "spec_values", "sweep", "whole_values"]

MAX_POINTS = 50_000_000      # a bigger grid is refused (memory: several float64 arrays of this size)
MAX_AXIS = 10_000_000
MAX_VERIFY = 100              # grid points re-solved exactly (each is a full engine answer)
_CHUNK = 1 << 16             # rows formatted at a time
_SPEC = re.compile(r"^([^:]+):([^:]+):\s*(\d+)\s*(?::\s*(log|lin)\s*)?$")


@dataclass(frozen=True)
class Axis:
    """One swept input: its values in base units and how they were asked for."""

    name: str
    values: "np.ndarray"
    unit: str
    spec: str


def is_sweep_spec(text: str) -> bool:
    """``1GB:80GB:10`` and ``1,2,4`` are sweeps; ``80GB`` is a fixed value."""
    return ":" in text or "," in text


def parse_axis(name: str, spec: Any, catalog: "Catalog") -> Axis:
    """A grid for quantity ``name`` from ``START:STOP:NUM[:log]``, ``V1,V2,...`` or an array.

    Numbers without a unit are in the quantity's declared unit, as everywhere in
    ``derive``; the axis holds base units.
    """
    import numpy as np


    q = catalog.quantity(name)
    factor = float(q.factor)
    if isinstance(spec, str):
        text = spec.strip()
        values = grid_values(name, text, lambda part: _swept_float(name, part, q, catalog))
    else:
        values = np.asarray(spec, dtype=np.float64).ravel() * factor
        text = f"{values.size} values"
        if values.size == 0:
            raise InputError(f"{name}: the sweep has no values")
        if not np.all(np.isfinite(values)):
            raise InputError(f"{name}: every swept value must be a finite number")
        if q.minimum is None and np.any(values <= 0):
            raise InputError(f"{name}: every swept value must be a positive finite number")
        if q.minimum is not None and np.any(values < float(q.minimum) * factor):
            raise InputError(f"{name}: every swept value must be at least {q.minimum_text or q.minimum}")
    if q.integer and isinstance(spec, str):
        values = whole_values(name, values, text)
    elif q.integer and not np.array_equal(values, np.round(values)):
        raise InputError(f"{name} is a whole number; the swept array holds fractions")
    return Axis(q.id, values, q.base_unit, text)


def _swept_float(name: str, part: str, q: Any, catalog: "Catalog") -> float:
    """One value of a spec as the engine reads it, as the float a sweep computes with; a whole number a
    64-bit float does not hold (past 2^53) is refused."""
    from ..catalog.values import parse_value

    exact = parse_value(part, q, catalog.units)
    if q.integer and exact.is_Integer and int(float(exact)) != int(exact):
        raise InputError(f"{name}={part} is out of range for a sweep: past 2^53 (about 9.0e15) a 64-bit "
                         "float does not hold every whole number; ask derive solve for it exactly")
    return float(exact)


def grid_values(name: str, text: str, value: Callable[[str], float]) -> "np.ndarray":
    """The values (base units) of ``START:STOP:NUM[:log]`` or ``V1,V2,...``, each value read by ``value``."""
    import numpy as np

    m = _SPEC.match(text)
    if m:
        start_text, stop_text, num_text, scale = m.groups()
        num = int(num_text)
        if not 1 <= num <= MAX_AXIS:
            raise InputError(f"{name}={text}: NUM must be from 1 to {MAX_AXIS:,}")
        start, stop = value(start_text.strip()), value(stop_text.strip())
        return np.geomspace(start, stop, num) if scale == "log" else np.linspace(start, stop, num)
    if ":" in text:
        raise InputError(f"malformed sweep {name}={text!r}: write {name}=START:STOP:NUM or "
                         f"{name}=START:STOP:NUM:log, e.g. {name}=1:1024:11:log")
    parts = [p.strip() for p in text.split(",")]
    if not all(parts):
        raise InputError(f"malformed list {name}={text!r}: write values separated by commas, e.g. {name}=1,2,4")
    return np.array([value(p) for p in parts], dtype=np.float64)


def spec_values(text: str) -> list[str]:
    """The values a spec writes (START and STOP, or each listed value), as typed."""
    m = _SPEC.match(text.strip())
    if m:
        return [m.group(1).strip(), m.group(2).strip()]
    return [p.strip() for p in text.split(",")]


def whole_values(name: str, values: "np.ndarray", text: str) -> "np.ndarray":
    """A whole-number quantity's values: rounded, repeats dropped (first kept), all positive."""
    import numpy as np

    values = np.round(values)
    _, first = np.unique(values, return_index=True)
    values = values[np.sort(first)]
    if np.any(values <= 0):
        raise InputError(f"{name} is a positive whole number; the sweep {text!r} reaches {values.min():g}")
    return values


def check_points(size: int, count: int) -> list[int]:
    """The flat grid indices a sweep checks exactly: ``count`` of them, evenly spread, always both ends."""
    import numpy as np

    return sorted(set(int(i) for i in np.linspace(0, size - 1, max(2, count)).round())) if size > 1 else [0]


# ---------------------------------------------------------------------------
# the result


@dataclass(frozen=True)
class SweepResult:
    """The target over the grid: ``values`` has the grid's shape (one axis per swept name, or 1-D zipped)."""

    target: str
    unit: str
    axes: tuple[Axis, ...]
    values: "np.ndarray"
    grid: str                          # "outer" or "zip"
    bound: str | None
    reference: "Solution | None"       # the symbolic solve the sweep was compiled from
    compiled: "Vectorized | None"
    verified: tuple[int, ...]          # flat indices the engine re-solved and matched
    question: "Question | None" = None  # what was asked, with the fixed inputs
    catalog: "Catalog | None" = field(default=None, repr=False, compare=False)
    overrides: tuple["Override", ...] = ()   # overridden built-ins the answers rest on (a user's override: true)

    @property
    def size(self) -> int:
        return int(self.values.size)

    def inputs(self) -> list["np.ndarray"]:
        """Each swept input as a flat column aligned with ``values.ravel()``."""
        import numpy as np

        if self.grid == "zip":
            return [a.values for a in self.axes]
        shape = self.values.shape
        cols = []
        for i, a in enumerate(self.axes):
            view = a.values.reshape([-1 if j == i else 1 for j in range(len(shape))])
            cols.append(np.broadcast_to(view, shape).ravel())
        return cols

    def point(self, index: int) -> dict[str, float]:
        """The swept inputs at flat ``index`` (base units)."""
        import numpy as np

        if self.grid == "zip":
            return {a.name: float(a.values[index]) for a in self.axes}
        where = np.unravel_index(index, self.values.shape)
        return {a.name: float(a.values[i]) for a, i in zip(self.axes, where)}

    def question_at(self, index: int) -> "Question":
        """The question at flat grid ``index``: the fixed inputs and this point's swept ones, exactly."""
        assert self.question is not None and self.catalog is not None
        point = {n: _exact(v, self.catalog.quantities[n]) for n, v in self.point(index).items()}
        return self.question.with_given(**point)

    def solve_at(self, index: int) -> "Solution":
        """The engine's exact answer at flat grid ``index``."""
        from ..engine.solver import solve

        return solve(self.question_at(index), catalog=self.catalog)

    def verify(self, count: int) -> tuple[int, ...]:
        """Solve ``count`` grid points exactly (always both ends) and compare with the vectorised values;
        returns the flat indices checked, or raises :class:`~derive.VerificationError`."""
        import numpy as np

        picks = check_points(self.size, count)
        flat = self.values.ravel()
        for index in picks:
            got = float(flat[index])
            try:
                sol = self.solve_at(index)
            except NoSolutionError:
                if np.isnan(got):
                    continue
                raise VerificationError(f"sweep check failed at {self.point(index)}: the engine finds no value "
                                        f"but the vectorised sweep gives {got!r}; please report it") from None
            want = sol.value
            _check_exact_in_range(want, self.target, self.point(index))
            if np.isnan(got) or not _agrees(want, got):
                raise VerificationError(f"sweep check failed at {self.point(index)}: the engine gives "
                                        f"{float(want.evalf(17))!r}, the vectorised sweep {got!r}; please report it")
        return tuple(picks)

    def _overrides_field(self) -> dict[str, Any]:
        """``{"overrides": [{"kind", "id", "file", "replaced"}]}`` when the sweep uses an overridden built-in."""
        from ..records.overrides import as_records

        return {"overrides": as_records(self.overrides)} if self.overrides else {}

    def header(self) -> list[str]:
        return [f"{a.name} [{a.unit}]" for a in self.axes] + [f"{self.target} [{self.unit}]"]

    def write_csv(self, out: IO[str]) -> None:
        """Columns in base units; NaN where no value exists (e.g. nothing fits)."""
        import numpy as np

        out.write(",".join(self.header()) + "\n")
        cols = self.inputs() + [self.values.ravel()]
        # a column of whole numbers (batch sizes, bytes) is written from integers: the same digits as
        # %.17g gives them, about three times faster
        whole = [bool(c.size) and bool(np.all(np.isfinite(c)) and np.all(np.abs(c) < 2.0**53)
                                       and np.all(c == np.trunc(c))) for c in cols]
        if all(whole):
            # every column whole: formatted by NumPy a block at a time, the same bytes as %d
            from .csv_rows import whole_rows

            for lo in range(0, self.size, _CHUNK):
                out.write(whole_rows([c[lo:lo + _CHUNK].astype(np.int64) for c in cols]).decode("ascii"))
            return
        row = ",".join("%d" if w else "%.17g" for w in whole) + "\n"
        for lo in range(0, self.size, _CHUNK):
            parts = [(c[lo:lo + _CHUNK].astype(np.int64) if w else c[lo:lo + _CHUNK]).tolist()
                     for c, w in zip(cols, whole)]
            out.write((row * len(parts[0])) % tuple(itertools.chain.from_iterable(zip(*parts))))

    def write_npz(self, out: IO[bytes]) -> None:
        """NumPy's ``.npz``: one float64 column per input and the target (NaN where no value exists),
        named by quantity id, and ``meta``, a JSON text of the target, units, grid and shape."""
        import numpy as np

        names = [a.name for a in self.axes] + [self.target]
        meta = {"target": self.target, "bound": self.bound, "grid": self.grid, "shape": list(self.values.shape),
                "columns": [{"name": n, "unit": u} for n, u in zip(names, [a.unit for a in self.axes] + [self.unit])],
                "verified_points": len(self.verified), **self._overrides_field()}
        arrays: dict[str, Any] = dict(zip(names, self.inputs() + [self.values.ravel()]))
        arrays["meta"] = np.array(json.dumps(meta, ensure_ascii=False))
        np.savez(out, **arrays)

    def write_json(self, out: IO[str]) -> None:
        """``{"target", "unit", "bound", "grid", "shape", "columns": [{"name", "unit", "values"}]}``; NaN is null."""
        head = {"target": self.target, "unit": self.unit, "bound": self.bound, "grid": self.grid,
                "shape": list(self.values.shape), "verified_points": len(self.verified), **self._overrides_field()}
        text = json.dumps(head, ensure_ascii=False)
        out.write(text[:-1] + ', "columns": [')
        names = [(a.name, a.unit) for a in self.axes] + [(self.target, self.unit)]
        for k, ((name, unit), col) in enumerate(zip(names, self.inputs() + [self.values.ravel()])):
            out.write(("" if k == 0 else ", ") + json.dumps({"name": name, "unit": unit})[:-1] + ', "values": [')
            _write_numbers(out, col)
            out.write("]}")
        out.write("]}\n")


def _write_numbers(out: IO[str], col: "np.ndarray") -> None:
    import io

    import numpy as np

    for lo in range(0, col.size, _CHUNK):
        buf = io.StringIO()
        np.savetxt(buf, col[lo:lo + _CHUNK].reshape(1, -1), fmt="%.17g", delimiter=", ")
        text = buf.getvalue().strip().replace("nan", "null")
        out.write((", " if lo else "") + text)


# ---------------------------------------------------------------------------
# the verb


def sweep(question: "Question | str", axes: Mapping[str, Any], given: Mapping[str, Any] | None = None, *,
          hw: str | None = None, model: "str | Preset | None" = None, presets: Sequence[str] = (),
          bound: str | None = None, require: Sequence[str] = (), multiple_of: int | None = None,
          grid: str = "outer", verify: int = 3, catalog: "Catalog | None" = None) -> SweepResult:
    """Evaluate a question's target over a grid of the ``axes`` (name → spec or array), other inputs fixed.

    ``question`` is a :class:`~derive.Question` (its inputs are the fixed ones), or a target
    name with ``given`` and the options of :func:`derive.solve`. ``verify`` grid points
    (always the first and the last) are solved again exactly by the engine and must agree
    with the vectorised values; ``verify=0`` skips that. ``model`` may be a preset itself
    (``derive.load_model_config``).
    """
    import numpy as np

    from ..engine.solver import with_model

    catalog, model = with_model(catalog, model)

    from ..records.question import Question, QuestionError

    if isinstance(question, Question):
        if given is not None or hw or model or presets or bound or require or multiple_of is not None:
            raise QuestionError("give either a Question or `target` with its options, not both", name="target")
    else:
        question = Question.of(question, given, hw=hw, model=model, presets=presets, bound=bound, require=require,
                               multiple_of=multiple_of)
    if question.optimize:
        raise InputError("a sweep evaluates one formula over a grid; an optimum (minimize/maximize) is not swept "
                         "yet: ask derive solve for each point")
    if question.unit is not None:
        raise InputError("a sweep writes every column in base units, named in its header; `unit` is not applied "
                         "to sweeps: leave it out and convert the column", name="unit")
    if catalog is None:
        from ..catalog.loader import load_catalog

        catalog = load_catalog()
    if not axes:
        raise InputError("nothing to sweep: give at least one NAME=START:STOP:NUM")
    if isinstance(verify, bool) or not isinstance(verify, int) or not 0 <= verify <= MAX_VERIFY:
        raise InputError(f"`verify` is the number of grid points to re-solve exactly: from 0 to {MAX_VERIFY}, "
                         f"not {verify!r}", name="verify")
    if grid not in ("outer", "zip"):
        raise InputError(f"grid must be 'outer' or 'zip', not {grid!r}")
    parsed = [parse_axis(name, spec, catalog) for name, spec in axes.items()]
    names = [a.name for a in parsed]
    if len(set(names)) != len(names):
        raise InputError("a name is swept twice (also as an alias); sweep it once")
    for a in parsed:
        for key, _ in question.given:
            if catalog.quantity(str(key)).id == a.name:
                raise InputError(f"{a.name} is both swept and given; give it once")
    if grid == "zip":
        lengths = {a.values.size for a in parsed}
        if len(lengths) > 1:
            raise InputError("`grid` zip pairs the swept values one to one; the sweeps have different lengths "
                             f"({', '.join(f'{a.name}: {a.values.size}' for a in parsed)})")
        shape: tuple[int, ...] = (parsed[0].values.size,)
    else:
        shape = tuple(a.values.size for a in parsed)
    size = int(np.prod(shape, dtype=np.int64))
    if size > MAX_POINTS:
        raise InputError(f"the grid has {size:,} points; at most {MAX_POINTS:,} are allowed")

    from ..records.overrides import collecting

    with collecting() as used:
        result = _sweep(question, parsed, names, shape, size, grid, verify, catalog)
    return replace(result, overrides=tuple(used.values()))


def _sweep(question: "Question", parsed: list[Axis], names: list[str], shape: tuple[int, ...], size: int, grid: str,
           verify: int, catalog: "Catalog") -> SweepResult:
    import numpy as np

    result = SweepResult(question.target, "", tuple(parsed), np.empty(shape), grid, question.bound,
                         None, None, (), question, catalog)
    reference = _reference(result, size)
    compiled = _compile(reference, names)
    if grid == "zip":
        arrays = [a.values for a in parsed]
    else:
        arrays = [a.values.reshape([-1 if j == i else 1 for j in range(len(shape))]) for i, a in enumerate(parsed)]
    values = np.ascontiguousarray(compiled(*arrays))
    _check_float_range(values, reference, compiled)
    result = replace(result, target=reference.target, unit=reference.unit, values=values, reference=reference,
                     compiled=compiled)
    return replace(result, verified=result.verify(verify)) if verify else result


_FLOAT_RANGE = "magnitudes from about 2.2e-308 to 1.8e308"


def _check_float_range(values: np.ndarray, reference: "Solution", compiled: "Vectorized") -> None:
    """A sweep writes 64-bit floats: refuse a grid whose values overflow them rather than print inf, or
    underflow them to a subnormal (digits lost), or to 0 where the formula is proven positive, rather
    than print it. (Elsewhere an underflow to 0 is caught at the points the engine checks.)"""
    import numpy as np

    tiny = np.finfo(np.float64).tiny
    strictly = compiled.positive and not compiled.zero_ok      # a zero would be an underflow
    if values.size and strictly:
        low, high = values.min(), values.max()
        if tiny <= low and high < np.inf:       # two passes where every value is a normal float (NaN fails)
            return
    finite = values[np.isfinite(values)]
    low = (finite != 0) & (np.abs(finite) < tiny)
    if strictly:
        low |= finite == 0
    if np.isinf(values).any() or low.any():
        raise InputError(f"some values of {reference.target} on this grid are beyond a 64-bit float's range "
                         f"({_FLOAT_RANGE}), which a sweep writes; ask derive solve for a point's exact value")


def _check_exact_in_range(value: Any, target: str, point: Mapping[str, float]) -> None:
    """A value the engine gives that is not zero must be a normal 64-bit float for the sweep to write it:
    one that underflows to 0 (or overflows to inf) is refused, never counted as checked."""
    import sys

    import sympy

    if value == 0:
        return
    magnitude = abs(float(value.evalf(17)))
    if not sys.float_info.min <= magnitude <= sys.float_info.max:
        shown = sympy.Float(value.evalf(20), 4)
        raise InputError(f"{target} at {dict(point)} is {shown} (the engine's exact value), beyond a 64-bit float's "
                         f"range ({_FLOAT_RANGE}), which a sweep writes; ask derive solve for the exact values")


def _compile(reference: "Solution", names: Sequence[str]) -> "Vectorized":
    from .vectorize import vectorize

    return vectorize(reference, names)


def _exact(value: float, q) -> Fraction | int:
    """A base-unit float as the exact number the engine takes (in the quantity's declared unit)."""
    exact = Fraction(value) / Fraction(int(q.factor.p), int(q.factor.q))
    return int(exact) if exact.denominator == 1 else exact


def _reference(result: "SweepResult", size: int) -> "Solution":
    """Solve at the first grid point, or at the first of a few others where a value exists."""
    first_error: DeriveError | None = None
    for index in dict.fromkeys([0, size - 1, size // 2, size // 4, (3 * size) // 4]):
        try:
            return result.solve_at(index)
        except NoSolutionError as exc:
            first_error = first_error or exc
    assert first_error is not None
    raise NoSolutionError(f"no grid point has a value: {first_error}")


def _agrees(exact, got: float) -> bool:
    """The engine's exact value and the vectorised float agree (:func:`derive.sweep.agreement.agrees`)."""
    from .agreement import agrees, kept_value

    return agrees(kept_value(exact), got)
