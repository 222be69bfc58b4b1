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
  is applied to whole arrays, with the points whose edge lies within float64
  rounding of a multiple settled by evaluating the conditions there.

Values are float64: a value that is exactly a whole number (a rounded bound, a
product of whole numbers below 2**53) comes out exactly; a real value agrees
with the engine's exact one to about 1e-15 relative. Conditions are taken to
hold when their two sides agree within 1e-12 relative, as at an exact boundary.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from ._errors import InputError, NotInvertibleError

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import sympy

    from ._solution import Solution

__all__ = ["Vectorized", "vectorize"]

REL_TOL = 1e-12          # two sides this close count as equal (a boundary that holds)
NEAR_MULTIPLE = 1e-9     # an edge this close to a multiple is checked against the conditions


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

    def __call__(self, *arrays: Any) -> "np.ndarray":
        import numpy as np

        if len(arrays) != len(self.names):
            raise InputError(f"expected {len(self.names)} arrays ({', '.join(self.names)}), got {len(arrays)}")
        arrays = tuple(np.asarray(a, dtype=np.float64) for a in arrays)
        shape = np.broadcast_shapes(*(a.shape for a in arrays)) if arrays else ()
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            if self.kind == "bound":
                out = self._bound_values(arrays, shape)
            else:
                out = np.asarray(self._fn(*arrays), dtype=np.float64)
                out = np.where(np.isfinite(out) & (out > 0), out, np.nan) if out.ndim else (
                    out if np.isfinite(out) and out > 0 else np.float64(np.nan))
        if out.shape != shape:
            out = np.broadcast_to(out, shape)
        return out

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

    def _bound_values(self, arrays: Sequence["np.ndarray"], shape) -> "np.ndarray":
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
        if self._bound == "max":
            edge, other = upper, lower
        else:
            edge, other = lower, upper
        edge = np.where(np.isinf(edge) | (edge <= 0), np.nan, edge)
        step = self._step
        if step is None:
            answer = edge
        else:
            answer = self._round(edge, arrays, shape, step)
        # the other side's limit must let the answer through
        ok = np.isfinite(answer) & (answer > 0)
        if self._bound == "max":
            ok &= _at_least(answer, other, lower_strict)
        else:
            ok &= _at_least(other, answer, upper_strict)
        return np.where(ok, answer, np.nan)

    def _round(self, edge: "np.ndarray", arrays: Sequence["np.ndarray"], shape, step: float) -> "np.ndarray":
        """floor (max) or ceil (min) of ``edge`` to a multiple of ``step``, exact near the multiples."""
        import numpy as np

        r = edge / step
        if self._bound == "max":
            n = np.floor(r)
            # just below a multiple: float rounding may hide an exact edge at n + 1
            near_next = (n + 1 - r) <= NEAR_MULTIPLE * np.maximum(1.0, r)
            # just above a multiple: an exact edge may lie a hair below n
            near_this = (r - n) <= NEAR_MULTIPLE * np.maximum(1.0, r)
            n = self._settle(n, near_next, +1, arrays, shape, step)
            n = self._settle(n, near_this & ~near_next, 0, arrays, shape, step, fallback=-1)
        else:
            n = np.ceil(r)
            near_prev = (r - (n - 1)) <= NEAR_MULTIPLE * np.maximum(1.0, r)
            near_this = (n - r) <= NEAR_MULTIPLE * np.maximum(1.0, r)
            n = self._settle(n, near_prev, -1, arrays, shape, step)
            n = self._settle(n, near_this & ~near_prev, 0, arrays, shape, step, fallback=+1)
        return n * step

    def _settle(self, n: "np.ndarray", mask: "np.ndarray", shift: int, arrays, shape, step: float,
                fallback: int = 0) -> "np.ndarray":
        """Where ``mask``: take ``n + shift`` if the conditions hold there, else ``n + fallback``."""
        import numpy as np

        mask = mask & np.isfinite(n)
        if not mask.any():
            return n
        idx = np.nonzero(mask)
        sub = [np.broadcast_to(a, shape)[idx] for a in arrays]
        trial = (n[idx] + shift) * step
        ok = self._feasible(trial, sub) & (trial > 0)
        n = n.copy()
        n[idx] = np.where(ok, n[idx] + shift, n[idx] + fallback)
        return n


def _at_least(a: "np.ndarray", b: "np.ndarray", strict: "np.ndarray") -> "np.ndarray":
    """``a >= b`` (``a > b`` where strict), equal within REL_TOL counting as equal."""
    import numpy as np

    tie = np.abs(a - b) <= REL_TOL * np.maximum(np.abs(a), np.abs(b))
    return np.where(strict, (a > b) & ~tie, (a >= b) | tie)


# ---------------------------------------------------------------------------
# compiling


def _lambdify(args: Sequence["sympy.Symbol"], expr: "sympy.Expr", extra: Mapping[str, Any] | None = None):
    import sympy

    modules: list[Any] = [dict(extra)] if extra else []
    modules.append("numpy")
    return sympy.lambdify(list(args), expr, modules=modules, cse=True, docstring_limit=0)


def _pick_smallest(*args: Any) -> Any:
    """NumPy side of ``derive_pick``: (candidate, residual, scale) triples; smallest valid candidate."""
    import numpy as np

    best = None
    for i in range(0, len(args), 3):
        cand, res, scale = (np.asarray(a, dtype=np.float64) for a in args[i:i + 3])
        valid = np.isfinite(cand) & (cand > 0) & (np.abs(res) <= REL_TOL * np.abs(scale))
        value = np.where(valid, cand, np.inf)
        best = value if best is None else np.minimum(best, value)
    return np.where(np.isinf(best), np.nan, best)


def _scale(expr: "sympy.Expr") -> "sympy.Expr":
    import sympy

    return sympy.Add(*[sympy.Abs(a) for a in sympy.Add.make_args(sympy.expand(expr))])


def _compose(solution: "Solution") -> "sympy.Expr":
    """The target in terms of the inputs, with each max/min relation kept whole (regime per point)."""
    import sympy

    from ._solver import solve_relation_for

    catalog = solution.catalog
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
    fn = _lambdify(syms, expr, {"derive_pick": _pick_smallest})
    return Vectorized(solution.target, names, kind, expr, fn)


def _vectorize_bound(solution: "Solution", names: tuple[str, ...], syms, consts) -> Vectorized:
    import sympy

    from ._solver import _sign_part

    if any(st.regime for st in solution.steps):
        raise NotInvertibleError(", ".join(solution.require), solution.target,
                                 "the bound passes through a max/min relation; a sweep cannot vectorise it "
                                 "(solve each point with 'derive solve')")
    step = next(st for st in solution.steps if st.kind == "bound")
    t = sympy.Symbol(solution.target, positive=True)
    conditions: list[_Condition] = []
    allowed = set(syms) | {t}
    for cond_id, composed in zip(step.relations, step.composed):
        op = composed.rel_op
        g = _sign_part(composed.lhs - composed.rhs, t).xreplace(consts)
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
            roots=tuple(_lambdify(syms, r) for r in roots), root_exprs=tuple(roots)))
    direction = "above" if solution.bound == "max" else "below"
    if not any(c.caps == direction for c in conditions):
        edge = "maximum" if solution.bound == "max" else "positive minimum"
        raise InputError(f"{solution.target} has no {edge}: {', '.join(c.id for c in conditions)} "
                         f"does not limit it from {'above' if solution.bound == 'max' else 'below'}")
    q = solution.catalog.quantities[solution.target]
    step_size = float(solution.multiple_of) if solution.multiple_of else (1.0 if q.integer else None)
    expr = solution.formula.xreplace(consts)
    return Vectorized(solution.target, names, "bound", expr, None, conditions, solution.bound, step_size)
