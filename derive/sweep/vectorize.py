"""Compile a solved :class:`~derive.Solution` into one NumPy function of some of its inputs.

``vectorize(solution, names)`` turns the symbolic answer into a function that
takes an array (or a scalar) per name, in base units, and returns the target's
values in base units, NaN where no value exists. SymPy runs once, here; the
returned function is NumPy only. Three shapes of answer:

* a plain chain: ``Solution.formula`` (the target in terms of the inputs), the
  other inputs put in as exact constants, lambdified once;
* a chain through a relation with ``max``/``min`` regimes: the relation's whole
  ``max``/``min`` is composed into the formula (``np.maximum``/``np.minimum``),
  so each point takes the regime that holds there; a relation solved *for* an
  input of a ``max``/``min`` keeps each regime's candidate where the whole
  relation holds and, like the solver, the smallest of those;
* a bound (``--max``/``--min``): each required condition is solved once for its
  boundary in the target, and the sign of its derivative says whether the
  condition caps the target from above or from below. The tightest cap wins
  point by point (``np.minimum``/``np.maximum``), so the binding condition may
  change across the grid; the floor/ceil to a whole number or ``--multiple-of``
  is applied to whole arrays, with the points whose edge lies within NEAR
  (relative) of a multiple settled by evaluating the conditions there.

Formulas and boundaries run as programs (:mod:`derive.symbolic.program`) where they can.
A single boundary is evaluated block by block along the first axis (its
one-axis parts once, a product of two axes as an outer product), already
moved outward by NEAR and counted in steps (the factor folded into its
constants), into one scratch block: rounding it and finding the points near
a multiple then take three passes, and marking where nothing fits one more.

Values are float64: a value that is exactly a whole number (a rounded bound, a
product of whole numbers below 2**53) comes out exactly; a real value agrees
with the engine's exact one to about 1e-15 relative. Conditions are taken to
hold when their two sides agree within 1e-12 relative, as at an exact boundary.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from ..errors import InputError, NotInvertibleError
from ..symbolic.program import CompiledProgram, compile_program, program_of

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import sympy

    from ..records.solution import Solution

__all__ = ["Vectorized", "vectorize"]

REL_TOL = 1e-12          # two sides this close count as equal (a boundary that holds)
NEAR = 1e-9              # relative: an edge this close to a multiple is checked against the conditions
CHUNK = 1 << 16          # grid points evaluated together: a block's arrays stay in the CPU cache


@dataclass
class _Condition:
    """One required condition as ``g(t, inputs) op 0`` with its boundary ``t = root(inputs)``."""

    id: str
    op: str                                   # <= >= < >
    caps: str                                 # "above" (t <= root) or "below" (t >= root)
    g: Callable[..., Any]                     # g(t, *inputs)
    scale: Callable[..., Any]                 # sum of |terms| of g, for the tolerance
    roots: tuple[Callable[..., Any], ...]     # candidate boundaries, keep the positive real one
    root_exprs: tuple["sympy.Expr", ...] = ()
    shifted: Callable[..., Any] | None = None  # the one boundary x (1 +- NEAR) / step, for rounding (fast path)

    @property
    def strict(self) -> bool:
        return self.op in ("<", ">")


@dataclass
class Vectorized:
    """The target as a NumPy function of ``names`` (arrays or scalars in base units)."""

    target: str
    names: tuple[str, ...]
    kind: str                                 # "formula", "regimes" or "bound"
    expr: "sympy.Expr | None"                 # what was lambdified (formula kinds), constants put in
    _fn: Callable[..., Any] | None = None
    _conditions: list[_Condition] = field(default_factory=list)
    _bound: str | None = None
    _step: float | None = None
    _positive: bool = False                   # SymPy proved the formula positive for positive inputs
    zero_ok: bool = False                     # the target may be zero (``min: 0``): only negatives are NaN
    program: list | None = None               # the formula as a program (derive.symbolic.program), when it is one

    @classmethod
    def from_program(cls, target: str, names: Sequence[str], program: list, positive: bool,
                     zero_ok: bool = False) -> "Vectorized":
        """A plain formula given as a program (:mod:`derive.symbolic.program`) of ``names``; ``positive``: its
        value is positive (or, where ``zero_ok``, not negative) wherever the inputs are (no NaN to mark)."""
        names = tuple(names)
        return cls(target, names, "formula", None, compile_program(program, names), _positive=positive,
                   zero_ok=zero_ok, program=program)

    @property
    def positive(self) -> bool:
        """SymPy proved the value positive for positive inputs: nothing to mark NaN."""
        return self._positive

    def __call__(self, *arrays: Any) -> "np.ndarray":
        import numpy as np

        if len(arrays) != len(self.names):
            raise InputError(f"expected {len(self.names)} arrays ({', '.join(self.names)}), got {len(arrays)}")
        arrays = tuple(np.asarray(a, dtype=np.float64) for a in arrays)
        shape = np.broadcast_shapes(*(a.shape for a in arrays)) if arrays else ()
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            if self.kind != "bound":
                assert self._fn is not None
                out = self._fn(*arrays)
                out = np.asarray(out, dtype=np.float64) if self._positive else _positive(out, self.zero_ok)
                return out if out.shape == shape else np.broadcast_to(out, shape)
            if self._fast:
                return self._bound_fast(arrays, shape)
            return self._bound_general(arrays, shape)

    # -- bounds ---------------------------------------------------------------

    @property
    def _fast(self) -> bool:
        """One condition with one boundary expression: the common case, evaluated block by block."""
        return len(self._conditions) == 1 and len(self._conditions[0].roots) == 1

    def _bound_fast(self, arrays: Sequence["np.ndarray"], shape: tuple[int, ...]) -> "np.ndarray":
        """The boundary, rounded, in blocks along the first axis so that each block's passes stay
        in the CPU cache; the few points next to a multiple are settled together at the end."""
        import numpy as np

        cond = self._conditions[0]
        # rounded: the boundary already moved NEAR outward and counted in steps (made with the conditions)
        root = cond.shifted if self._step is not None else cond.roots[0]
        assert root is not None
        nd = len(shape)
        arrays = tuple(a.reshape((1,) * (nd - a.ndim) + a.shape) for a in arrays)
        size = int(np.prod(shape, dtype=np.int64))
        if nd == 0 or size <= CHUNK:
            blocks = [(0, shape[0] if nd else 1)]
        else:
            rows = max(1, CHUNK // max(1, size // shape[0]))
            blocks = [(lo, min(lo + rows, shape[0])) for lo in range(0, shape[0], rows)]
        out = np.empty(shape)
        pending_at, pending_m = [], []
        per_row = size // shape[0] if nd else 1
        per_block = _in_blocks(root, arrays)
        # one block's boundary and its marks, written over block after block
        scratch = np.empty((blocks[0][1] - blocks[0][0],) + shape[1:]) if nd else None
        marks = np.empty(scratch.shape, dtype=bool) if scratch is not None else None
        for lo, hi in blocks:
            if scratch is not None:
                edge = per_block(lo, hi, out=scratch[:hi - lo])
            else:
                edge = _owned(per_block(lo, hi), ())
            block = out[lo:hi] if nd else out
            if self._step is not None:
                _, flat, m = self._round(edge, into=block, marks=None if marks is None else marks[:hi - lo])
                if flat.size:
                    pending_at.append(flat + lo * per_row)
                    pending_m.append(m)
            else:
                block[...] = edge
            # a boundary at or below zero: no maximum / no positive minimum (rounding keeps it <= 0)
            _nan_unless_positive(block)
        if pending_at:
            self._settle(out, np.concatenate(pending_at), np.concatenate(pending_m), arrays, shape)
        return out

    def _bound_general(self, arrays: Sequence["np.ndarray"], shape: tuple[int, ...]) -> "np.ndarray":
        """Several conditions: the tightest on the bound's side, checked against the other side."""
        import numpy as np

        upper = np.full(shape, np.inf)
        lower = np.zeros(shape)
        upper_strict = np.zeros(shape, dtype=bool)
        lower_strict = np.zeros(shape, dtype=bool)
        for cond in self._conditions:
            edge = self._edge(cond, arrays, shape)
            if cond.caps == "above":
                upper_strict = np.where(edge < upper, cond.strict, upper_strict | ((edge == upper) & cond.strict))
                upper = np.where(np.isnan(edge), np.nan, np.minimum(upper, edge))
            else:
                lower_strict = np.where(edge > lower, cond.strict, lower_strict | ((edge == lower) & cond.strict))
                lower = np.where(np.isnan(edge), np.nan, np.maximum(lower, edge))
        edge, other = (upper, lower) if self._bound == "max" else (lower, upper)
        answer = np.where(np.isinf(edge) | (edge <= 0), np.nan, edge)
        if self._step is not None:
            answer, flat, m = self._round(np.multiply(answer, self._shift / self._step, out=answer))
            answer = _nan_unless_positive(answer)
            if flat.size:
                self._settle(answer, flat, m, arrays, shape)
        # the other side's limit must let the answer through
        if self._bound == "max":
            ok = _at_least(answer, other, lower_strict)
        else:
            ok = _at_least(other, answer, upper_strict)
        return _nan_unless_positive(np.where(ok, answer, np.nan))

    # -- bounds ---------------------------------------------------------------

    def _holds(self, cond: _Condition, t: "np.ndarray", arrays: Sequence["np.ndarray"]) -> "np.ndarray":
        """``g(t) op 0`` with two sides within REL_TOL counted as equal."""
        import numpy as np

        g = np.asarray(cond.g(t, *arrays), dtype=np.float64)
        tie = np.abs(g) <= REL_TOL * np.asarray(cond.scale(t, *arrays), dtype=np.float64)
        raw = {"<=": g <= 0, "<": g < 0, ">=": g >= 0, ">": g > 0}[cond.op]
        return (raw & ~tie) if cond.strict else (raw | tie)

    def _feasible(self, t: "np.ndarray", arrays: Sequence["np.ndarray"]) -> "np.ndarray":
        import numpy as np

        ok = np.ones(np.shape(t), dtype=bool)
        for cond in self._conditions:
            ok &= self._holds(cond, t, arrays)
        return ok

    def _edge(self, cond: _Condition, arrays: Sequence["np.ndarray"], shape) -> "np.ndarray":
        """The condition's boundary per point; +inf (no limit) or NaN (never holds) without one."""
        import numpy as np

        root = np.full(shape, np.nan)
        for fn in cond.roots:
            r = np.broadcast_to(np.asarray(fn(*arrays), dtype=np.float64), shape)
            root = np.where(np.isnan(root) & np.isfinite(r) & (r > 0), r, root)
        missing = np.isnan(root)
        if missing.any():
            # no positive boundary: the condition holds everywhere or nowhere on t > 0
            ones = np.ones(shape)
            always = self._holds(cond, ones, [np.broadcast_to(a, shape) for a in arrays])
            limit = np.inf if cond.caps == "above" else 0.0
            root = np.where(missing, np.where(always, limit, np.nan), root)
        return root

    @property
    def _shift(self) -> float:
        """The factor that moves an edge NEAR outward: up for a maximum, down for a minimum."""
        return 1.0 + NEAR if self._bound == "max" else 1.0 - NEAR

    def _round(self, shifted: "np.ndarray", into: "np.ndarray | None" = None, marks: "np.ndarray | None" = None
               ) -> tuple["np.ndarray", "np.ndarray", "np.ndarray"]:
        """floor (max) or ceil (min) to a multiple of the step, of ``shifted``: the edge in steps, moved
        NEAR outward (``edge * _shift / step``; overwritten).

        The exact edge lies within NEAR (relative) of the float one. Rounded from the edge moved
        outward, a multiple that is not within 2 NEAR inward of it is the answer; one that is may lie
        on either side of the exact edge. Returns the rounded values and those points (flat indices,
        and the multiple's index ``m``), for :meth:`_settle` to let the conditions decide.
        """
        import numpy as np

        if self._bound == "max":
            n = np.floor(shifted, out=into)
            inward = np.multiply(shifted, (1.0 - NEAR) / (1.0 + NEAR), out=shifted)
            near = np.greater_equal(n, inward, out=marks)
        else:
            n = np.ceil(shifted, out=into)
            inward = np.multiply(shifted, (1.0 + NEAR) / (1.0 - NEAR), out=shifted)
            near = np.less_equal(n, inward, out=marks)
        flat = near.reshape(-1).nonzero()[0]     # flatnonzero, without its two wrappers
        m = n.reshape(-1)[flat] if flat.size else np.empty(0)     # a copy: n is contiguous
        step = self._step
        assert step is not None
        if step != 1:
            np.multiply(n, step, out=n)
        return n, flat.astype(np.intp, copy=False), m

    def _settle(self, out: "np.ndarray", flat: "np.ndarray", m: "np.ndarray", arrays: Sequence["np.ndarray"],
                shape: tuple[int, ...]) -> None:
        """At points next to a multiple: ``m`` if the conditions hold there, else the next one inward."""
        import numpy as np

        step = self._step
        where = np.unravel_index(flat, shape)
        sub = [np.broadcast_to(a, shape)[where] for a in arrays]
        ok = self._feasible(m * step, sub) & (m > 0)
        value = np.where(ok, m, m - 1 if self._bound == "max" else m + 1) * step
        value[~(value > 0)] = np.nan
        out.reshape(-1)[flat] = value


def _in_blocks(fn: Callable[..., Any], arrays: Sequence["np.ndarray"]) -> Callable[..., Any]:
    """``fn`` over the grid of ``arrays`` (of the grid's number of dimensions), as ``block(lo, hi, out=None)``:
    its value on rows ``lo:hi`` of the first axis, written into ``out`` when given."""
    import numpy as np

    if isinstance(fn, CompiledProgram):
        return fn.in_blocks(arrays)

    def block(lo: int, hi: int, out: "np.ndarray | None" = None) -> Any:
        value = fn(*[a[lo:hi] if a.ndim and a.shape[0] != 1 else a for a in arrays])
        if out is None:
            return value
        np.copyto(out, value)
        return out
    return block


def _owned(values: Any, shape) -> "np.ndarray":
    """``values`` as a writeable float64 array of ``shape`` that nothing else holds."""
    import numpy as np

    out = np.asarray(values, dtype=np.float64)
    if out.shape != shape or not out.flags.writeable or not out.flags.owndata:
        out = np.array(np.broadcast_to(out, shape), dtype=np.float64)
    return out


def _nan_unless_positive(out: "np.ndarray", zero_ok: bool = False) -> "np.ndarray":
    """NaN (in place) wherever ``out`` is not a positive number (with ``zero_ok``, wherever it is negative)."""
    import numpy as np

    if out.size and (out.min() >= 0 if zero_ok else out.min() > 0):   # one pass (a NaN makes the minimum NaN)
        return out
    bad = np.less(out, 0) if zero_ok else np.less_equal(out, 0)       # a NaN compares false and stays NaN
    where = bad.reshape(-1).nonzero()[0]
    if where.size > out.size // 8:
        np.putmask(out, bad, np.nan)
    elif where.size:
        np.put(out, where, np.nan)    # a few points: written one by one rather than a pass over all
    return out


def _positive(values: Any, zero_ok: bool = False) -> "np.ndarray":
    """Values as float64 with NaN where the engine would find no positive real value (no value at or above
    zero, for a quantity that may be zero)."""
    import numpy as np

    out = np.asarray(values, dtype=np.float64)
    if out.ndim == 0:
        return out if (out >= 0 if zero_ok else out > 0) else np.float64(np.nan)
    return _nan_unless_positive(_owned(out, out.shape), zero_ok)


def _at_least(a: "np.ndarray", b: "np.ndarray", strict: "np.ndarray") -> "np.ndarray":
    """``a >= b`` (``a > b`` where strict), equal within REL_TOL counting as equal."""
    import numpy as np

    tie = np.abs(a - b) <= REL_TOL * np.maximum(np.abs(a), np.abs(b))
    return np.where(strict, (a > b) & ~tie, (a >= b) | tie)


# ---------------------------------------------------------------------------
# compiling


def _lambdify(args: Sequence["sympy.Symbol"], expr: "sympy.Expr", extra: Mapping[str, Any] | None = None):
    """A NumPy function of ``args``; max/min are elementwise whatever SymPy's printer of the day does
    (SymPy 1.12 prints ``amax`` of a tuple, which fails when a scalar meets an array)."""

    import numpy as np
    import sympy

    elementwise = {"derive_max": lambda *a: functools.reduce(np.maximum, a),
                   "derive_min": lambda *a: functools.reduce(np.minimum, a)}
    expr = expr.replace(sympy.Max, sympy.Function("derive_max")).replace(sympy.Min, sympy.Function("derive_min"))
    # an exact constant beyond a float's range is written as a float literal (inf or 0 in NumPy, which
    # the sweep reports) rather than as a Python int that NumPy cannot convert
    huge = {n: sympy.Float(n, 17) for n in expr.atoms(sympy.Rational)
            if n != 0 and not 1e-300 < abs(n) < 1e300}
    if huge:
        expr = expr.xreplace(huge)
    # NumPy's module itself, not the name "numpy": by name SymPy runs `from numpy import *`, which
    # imports every NumPy submodule (f2py, ma, random, ...) and costs a sweep 60 ms of start-up
    modules: list[Any] = [dict(extra or {}, **elementwise), np]
    return sympy.lambdify(list(args), expr, modules=modules, cse=True, docstring_limit=0)


def _pick_smallest(*args: Any) -> Any:
    """NumPy side of ``derive_pick``: (candidate, residual, scale) triples; smallest valid candidate."""
    import numpy as np

    best: np.ndarray | None = None
    for i in range(0, len(args), 3):
        cand, res, scale = (np.asarray(a, dtype=np.float64) for a in args[i:i + 3])
        valid = np.isfinite(cand) & (cand > 0) & (np.abs(res) <= REL_TOL * np.abs(scale))
        value = np.where(valid, cand, np.inf)
        best = value if best is None else np.minimum(best, value)
    assert best is not None
    return np.where(np.isinf(best), np.nan, best)


def _scale(expr: "sympy.Expr") -> "sympy.Expr":
    import sympy

    return sympy.Add(*[sympy.Abs(a) for a in sympy.Add.make_args(sympy.expand(expr))])


def _compose(solution: "Solution") -> "sympy.Expr":
    """The target in terms of the inputs, with each max/min relation kept whole (regime per point)."""
    import sympy

    from ..engine.solver import solve_relation_for

    catalog = solution.catalog
    assert catalog is not None
    pick = sympy.Function("derive_pick")
    formulas: dict[sympy.Symbol, sympy.Expr] = {}
    for step in solution.steps:
        if step.kind == "system":
            current = dict(formulas)
            for eq in step.solved:
                formulas[eq.lhs] = eq.rhs.xreplace(current)
            continue
        if step.kind != "relation":
            continue
        rel = catalog.relations[step.relation]
        u = sympy.Symbol(step.solved_for[0], positive=True)
        if not rel.regimes:
            formulas[u] = step.solved[0].rhs.xreplace(formulas)
        elif rel.defines == u.name:
            formulas[u] = rel.rhs.xreplace(formulas)          # the whole max/min
        else:
            args: list[sympy.Expr] = []
            for reg in rel.regimes:
                if not (reg.lhs.has(u) or reg.rhs.has(u)):
                    continue
                for cand in solve_relation_for(rel, u.name, reg.id):
                    c = cand.xreplace(formulas)
                    left = rel.lhs.xreplace({u: cand}).xreplace(formulas)
                    right = rel.rhs.xreplace({u: cand}).xreplace(formulas)
                    args += [c, left - right, _scale(left) + _scale(right)]
            formulas[u] = pick(*args)
    target = sympy.Symbol(solution.target, positive=True)
    return formulas.get(target, target)


def _constants(solution: "Solution", names: Sequence[str]) -> dict["sympy.Symbol", "sympy.Expr"]:
    import sympy

    return {sympy.Symbol(g.name, positive=True): g.value for g in solution.given if g.name not in names}


def _check_free(expr: "sympy.Expr", allowed: set, target: str) -> None:
    extra = sorted(s.name for s in expr.free_symbols if s not in allowed)
    if extra:
        raise InputError(f"cannot sweep {target}: its formula still depends on {', '.join(extra)}, "
                         f"which has no value; give {extra[0]}=VALUE")


def vectorize(solution: "Solution", names: Sequence[str]) -> Vectorized:
    """Compile ``solution`` (solved at one point of the grid) into a NumPy function of ``names``."""
    import sympy

    names = tuple(names)
    syms = [sympy.Symbol(n, positive=True) for n in names]
    consts = _constants(solution, names)
    if solution.bound:
        return _vectorize_bound(solution, names, syms, consts)
    has_regimes = any(st.regime for st in solution.steps)
    if has_regimes:
        expr = _compose(solution).xreplace(consts)
        kind = "regimes"
    else:
        expr = solution.formula.xreplace(consts)
        kind = "formula"
    _check_free(expr, set(syms), solution.target)
    # a plain formula runs as a program (plain data, which the sweep store can keep and run without SymPy)
    program = program_of(expr) if kind == "formula" else None
    # positive inputs give a positive value (no NaN to mark) when SymPy can prove it; a quantity that may be
    # zero (``min: 0``) keeps its zeros
    quantity = solution.catalog.quantities.get(solution.target) if solution.catalog is not None else None
    zero_ok = quantity is not None and quantity.minimum is not None and bool(quantity.minimum <= 0)
    positive = bool(expr.is_positive) or (zero_ok and bool(expr.is_nonnegative))
    if program is not None:
        made = Vectorized.from_program(solution.target, names, program, positive, zero_ok)
        made.expr = expr
        return made
    fn = _lambdify(syms, expr, {"derive_pick": _pick_smallest})
    return Vectorized(solution.target, names, kind, expr, fn, _positive=positive, zero_ok=zero_ok)


def _vectorize_bound(solution: "Solution", names: tuple[str, ...], syms, consts) -> Vectorized:
    import sympy

    from ..engine.bounds import sign_part

    if any(st.regime for st in solution.steps):
        raise NotInvertibleError(", ".join(solution.require), solution.target,
                                 "the bound passes through a max/min relation; a sweep cannot vectorise it "
                                 "(solve each point with 'derive solve')")
    step = next(st for st in solution.steps if st.kind == "bound")
    catalog = solution.catalog
    assert catalog is not None
    t = sympy.Symbol(solution.target, positive=True)
    conditions: list[_Condition] = []
    allowed = set(syms) | {t}
    for cond_id, composed in zip(step.relations, step.composed):
        op = composed.rel_op
        g = sign_part(composed.lhs - composed.rhs, t, catalog.memo).xreplace(consts)
        if not g.has(t):
            raise InputError(f"condition {cond_id} does not depend on {solution.target}; it cannot bound it")
        _check_free(g, allowed, solution.target)
        slope = sympy.diff(g, t)
        if slope.is_positive:
            rising = True
        elif slope.is_negative:
            rising = False
        else:
            raise NotInvertibleError(cond_id, solution.target,
                                     "the condition is not monotone in it for every input, so a sweep "
                                     "cannot tell its side vectorised (solve each point with 'derive solve')")
        below = op in ("<=", "<")          # g below zero is allowed
        caps = "above" if rising == below else "below"
        roots = [r for r in sympy.solve(sympy.Eq(g, 0), t)
                 if not r.has(sympy.I) and r.is_positive is not False]
        conditions.append(_Condition(
            cond_id, op, caps,
            g=_lambdify([t, *syms], g), scale=_lambdify([t, *syms], _scale(g)),
            roots=tuple(_numpy_function(names, syms, r) for r in roots), root_exprs=tuple(roots)))
    direction = "above" if solution.bound == "max" else "below"
    if not any(c.caps == direction for c in conditions):
        edge = "maximum" if solution.bound == "max" else "positive minimum"
        raise InputError(f"{solution.target} has no {edge}: {', '.join(c.id for c in conditions)} "
                         f"does not limit it from {'above' if solution.bound == 'max' else 'below'}")
    q = catalog.quantities[solution.target]
    step_size = float(solution.multiple_of) if solution.multiple_of else (1.0 if q.integer else None)
    made = Vectorized(solution.target, names, "bound", solution.formula.xreplace(consts), None, conditions,
                      solution.bound, step_size)
    if step_size is not None and made._fast:
        # the one boundary already moved outward and counted in steps: no pass over the grid for either
        only = conditions[0]
        shift = 1 + sympy.Rational(1, round(1 / NEAR)) * (1 if solution.bound == "max" else -1)
        only.shifted = _numpy_function(names, syms, only.root_exprs[0] * shift / (solution.multiple_of or 1))
    return made


def _numpy_function(names: tuple[str, ...], syms, expr: "sympy.Expr") -> Callable[..., Any]:
    """``expr`` as a NumPy function of ``names``: a program where it is one, else lambdified."""
    program = program_of(expr)
    if program is not None:
        return compile_program(program, names)
    return _lambdify(syms, expr)
