"""Bounds: the largest or smallest value of a quantity for which required conditions hold.

``find_bound`` makes the target an input, derives each condition as a function of it
(``engine.steps.derive``), reduces each to a sign-equivalent expression in the target
(:func:`sign_part`), finds the boundary points, decides on which side of them the
conditions hold, and rounds to a whole number or a multiple. The answer is checked:
every condition holds at it, and (when rounded) fails one step past it.
"""

from __future__ import annotations

import math
from collections import ChainMap
from fractions import Fraction
from typing import Mapping, Sequence

import sympy

from ..errors import MissingInputsError, NoSolutionError, NotInvertibleError, TimeBudgetError, VerificationError
from ..records.catalog import CatalogMemo
from ..records.solution import Check, Note
from ..symbolic.asymptotic import Assumption, leading_term, require_involved
from ..symbolic.budget import time_budget
from ..symbolic.evaluate import exact_env, exact_value, sign_of, sympy_number
from ..symbolic.exact import PRECISION, TOLERANCE, close, holds, sign, value_at
from .steps import State, default_value, derive

__all__ = ["find_bound", "sign_part"]


# bounds


def sign_part(expr: sympy.Expr, t: sympy.Symbol, memo: CatalogMemo) -> sympy.Expr:
    """``expr`` with its positive factors free of ``t`` (and powers of ``t``) divided out: same sign,
    same positive roots in ``t``.

    ``8*B*D**2/F - 8*D**2*e/W`` becomes ``B*W - e*F``: D cancels, whether the target is B or D
    (then the condition does not depend on it). Memoised in the catalog's memo.
    """
    key = (expr, t)
    hit = memo.sign_parts.get(key)
    if hit is None:
        hit = memo.sign_parts[key] = _compute_sign_part(expr, t)
    return hit


def _compute_sign_part(expr: sympy.Expr, t: sympy.Symbol) -> sympy.Expr:
    num, den = sympy.fraction(sympy.together(expr))

    def keep(e: sympy.Expr) -> sympy.Expr:
        e = sympy.factor_terms(sympy.expand(e)) if e.is_Add else e
        factors = e.args if isinstance(e, sympy.Mul) else (e,)
        out = []
        for f in factors:
            base = f.base if isinstance(f, sympy.Pow) else f
            if not f.has(t) and (f.is_positive is True or base.is_positive is True):
                continue
            if base == t and f.is_positive is True:   # t**k > 0 for t > 0: it never changes the sign
                continue
            out.append(f)
        return sympy.Mul(*out)

    return keep(num) / keep(den)


def find_bound(state: State, target: str, bound: str, conditions: Sequence, multiple_of: int | None,
               rounding: bool = True, assumptions: Sequence[Assumption] = ()
               ) -> tuple[sympy.Expr, sympy.Expr, sympy.Expr, list[str], tuple[sympy.Basic, ...]]:
    """The max or min of ``target`` under ``conditions``: (answer, exact edge, symbolic edge, ids, composed).

    With ``assumptions`` (``batch << d_model``) each condition is replaced by its leading term, and
    the large quantities may be left unknown when the leading term does not depend on them.
    """
    catalog = state.catalog
    large = {n for a in assumptions for n in a.large}

    def leading(expr: sympy.Expr) -> sympy.Expr:
        return sign_part(leading_term(expr, assumptions), t, catalog.memo) if assumptions else expr

    q = catalog.quantities[target]
    t = state.sym(target)
    # the target is an input here: each condition becomes a function of it
    state.formulas[target] = t
    state.origins[target] = frozenset({"bound"})
    needed = sorted({s for c in conditions for s in c.symbols if s != target})

    def in_target(fmap: Mapping) -> sympy.Expr:
        """The conditions as one expression of the inputs (for the symbols they hold)."""
        return sympy.Add(*(c.comparison.lhs.xreplace(fmap) - c.comparison.rhs.xreplace(fmap) for c in conditions))

    def relevant(trial: State) -> set[str]:
        names: set[str] = set()
        fmap = trial.formula_map()
        if assumptions:
            require_involved(assumptions, in_target(fmap), target)
        for c in conditions:
            g = sign_part(c.comparison.lhs.xreplace(fmap) - c.comparison.rhs.xreplace(fmap), t, catalog.memo)
            # the catalog's defaults are taken as any question takes them (act_bytes_per_element)
            names |= {s.name for s in g.free_symbols
                      if s.name in trial.params and default_value(catalog, s.name, trial.values) is not None}
            g = leading(g)
            names |= {s.name for s in g.free_symbols if s.name in trial.params}
        return names - large if assumptions else names

    derive(state, needed, target, relevant,
           relevant_key=("bound", target, tuple(c.id for c in conditions), tuple(a.text for a in assumptions)))
    fmap = state.formula_map()
    if assumptions:
        require_involved(assumptions, in_target(fmap), target)
    nmap = {catalog.symbol(n): v for n, v in state.values.items() if n != target}
    env = exact_env({n: v for n, v in state.values.items() if n != target})
    names = ", ".join(c.id for c in conditions)
    step = sympy.Integer(multiple_of) if multiple_of else (sympy.Integer(1) if q.integer and rounding else None)
    located = None
    if step is not None and not assumptions:
        located = _locate_numerically(conditions, fmap, nmap, env, t, bound, catalog.memo)
    if located is not None:
        sides, edge_root, edge, edge_float = located
        symbolic = _closed_form(sides, target, t, nmap, catalog.memo, edge, edge_root)
    else:
        sides, edge, symbolic = _locate_exactly(state, conditions, fmap, nmap, t, target, bound, leading,
                                                bool(assumptions))
        edge_float = float(edge.evalf(30))

    conditions_hold = _Feasibility(sides, t, nmap, bool(assumptions), env)

    def feasible(x: sympy.Expr) -> bool:
        """The conditions hold at ``x``; a quantity is positive, so at zero or below they never do (and are
        not evaluated there, where a formula may divide by zero)."""
        return bool(x > 0) and conditions_hold(x)

    # round to a whole number or a multiple
    answer = edge
    if step is not None:
        # the multiple next to the edge, from its value to PRECISION digits (or to float precision when
        # located numerically), then settled by the conditions themselves (exact at a whole number):
        # the last multiple that satisfies them
        numeric = located is not None and edge_float / float(step) < 2**50   # floats then miss by at most one
        below = step * (sympy.Integer(math.floor(edge_float / float(step))) if numeric else _floor_of(edge / step))
        if bound == "max":
            answer = below if feasible(below) else below - step
            while feasible(answer + step) and answer + step <= edge_float * 2:   # an edge a hair above its estimate
                answer += step
        else:
            answer = below if (below == edge and feasible(below)) else below + step
            if not feasible(answer):
                answer += step
            while answer - step > 0 and feasible(answer - step) and answer - step >= edge_float / 2:
                answer -= step
        if answer <= 0 or not feasible(answer):
            what = f"multiple of {step}" if multiple_of else "whole number"
            raise NoSolutionError(f"no positive {what} {target} satisfies {names}; check the inputs"
                                  + (" or use a smaller `multiple_of`" if multiple_of else ""),
                                  quantity=target, relations=[c.id for c in conditions])
    elif not feasible(edge):
        state.notes.append(Note.of("strict_bound", name=target))
    # substitute back: the conditions hold at the answer and fail one step past it
    at = dict(nmap)
    at[t] = answer
    for cond, L, R, g, g_sym in sides:
        lv, rv = value_at(L, at), value_at(R, at)
        if lv is None or rv is None or assumptions:
            # sides with inputs that cancel, or approximated by their leading term: check the reduced form
            g = g if g is not None else g_sym.xreplace(nmap)
            reduced = g if assumptions else _compute_sign_part(g, t)     # positive factors divided out
            lv, rv = reduced.xreplace({t: answer}), sympy.Integer(0)
        ok = holds(cond.comparison.op, lv, rv)
        state.checks.append(Check("condition", cond.id, lv, rv, cond.comparison.op, ok, at=str(answer)))
        if not ok:
            raise VerificationError(f"internal check failed: {cond.id} does not hold at the bound {answer}; "
                                    "this is a bug in derive, please report it")
    if step is not None:
        past = answer + step if bound == "max" else answer - step
        if past > 0:
            ok_past = feasible(past)
            state.checks.append(Check("tight", names, past, answer, "", not ok_past, at=str(past), expect=False))
            if ok_past:
                raise VerificationError(f"internal check failed: the bound on {target} is not tight "
                                        f"({past} also satisfies {names}); please report it")
    # every quantity of the chain, at the answer
    for name, f in list(state.formulas.items()):
        if name not in state.values and not (f.is_Symbol and f.name != target):    # not a parameter nobody gave
            v = value_at(f, at)
            if v is not None:
                state.values[name] = v
    composed = tuple(sympy.Rel(L, R, c.comparison.op, evaluate=False) for c, L, R, _, _ in sides)
    return answer, edge, symbolic, [c.id for c in conditions], composed


Side = tuple  # (condition, lhs, rhs, sign-equivalent form at the inputs or None, symbolic sign-equivalent form)


class _Feasibility:
    """Whether every condition holds with the target at a point, each point decided once: exactly,
    through the compiled symbolic form where it evaluates, else by substituting into the form at the
    inputs (``approximated``: only that form, the leading term, counts)."""

    def __init__(self, sides: Sequence[Side], t: sympy.Symbol, nmap: dict, approximated: bool,
                 env: dict | None = None) -> None:
        self.sides, self.t, self.nmap, self.approximated = sides, t, nmap, approximated
        self.env = env                   # the inputs as exact Python numbers, when all are rational
        self.decided: dict[sympy.Expr, bool] = {}

    def __call__(self, x: sympy.Expr) -> bool:
        hit = self.decided.get(x)
        if hit is None:
            hit = self.decided[x] = all(self._holds(c.comparison.op, g, g_sym, x) for c, _, _, g, g_sym in self.sides)
        return hit

    def _holds(self, op: str, g: sympy.Expr | None, g_sym: sympy.Expr, x: sympy.Expr) -> bool:
        if self.env is not None and not self.approximated and x.is_Rational:
            # over fractions, no SymPy number built: the common case, a whole number near the edge
            v = exact_value(g_sym, {**self.env, self.t.name: Fraction(int(x.p), int(x.q))})
            if v is not None:
                return _EXACT_HOLDS[op](sign_of(v))
        return holds(op, self._at(g, g_sym, x), sympy.Integer(0))

    def _at(self, g: sympy.Expr | None, g_sym: sympy.Expr, x: sympy.Expr) -> sympy.Expr:
        """A condition's sign-equivalent form with the target at ``x``."""
        v = None if self.approximated else value_at(g_sym, ChainMap({self.t: x}, self.nmap))
        if v is not None:
            return v
        return (g if g is not None else g_sym.xreplace(self.nmap)).xreplace({self.t: x})


def _locate_exactly(state: State, conditions: Sequence, fmap: Mapping, nmap: dict, t: sympy.Symbol, target: str,
                    bound: str, leading, approximated: bool) -> tuple[list[Side], sympy.Expr, sympy.Expr]:
    """(sides, exact edge, its closed form): the boundary points found exactly, each interval between
    them probed, and the edge picked among them. Raises when no positive value, or every one, satisfies
    the conditions."""
    catalog = state.catalog
    sides: list[Side] = []
    roots: list[sympy.Expr] = []
    root_values: dict[sympy.Expr, sympy.Expr] = {}     # each closed-form root at these inputs, computed once
    for cond in conditions:
        L, R = cond.comparison.lhs.xreplace(fmap), cond.comparison.rhs.xreplace(fmap)
        g_sym = leading(sign_part(L - R, t, catalog.memo))
        if not g_sym.has(t):
            raise NoSolutionError(f"condition {cond.id} ({cond.text}) does not depend on {target}; "
                                  "it cannot bound it: bound another quantity of the condition",
                                  quantity=target, relations=[cond.id])
        # the sign-equivalent form at these inputs: the symbolic one with the values put in (approximated,
        # the leading term taken in symbols: with the large quantities' values put in first, no term is small)
        g = g_sym.xreplace(nmap)
        if g.free_symbols - {t}:
            raise MissingInputsError(target, sorted(s.name for s in g.free_symbols - {t}))
        sides.append((cond, L, R, g, g_sym))
        if not g.has(t):   # with these inputs it holds for every target value or for none
            continue
        hit = None if approximated else _roots_at(cond.id, g_sym, t, nmap, catalog.memo, root_values)
        if hit is None:     # not a polynomial SymPy solved once for every input: solve at these values
            try:
                with time_budget(f"solving {cond.id} for {target}"):
                    hit = _boundary_points(g, t)
            except NotImplementedError as exc:
                raise NotInvertibleError(cond.id, target, f"SymPy cannot isolate it ({exc})") from exc
        roots.extend(r for r in hit if not r.free_symbols and not r.has(sympy.I) and sign(r) > 0)
    roots = sorted(set(roots), key=lambda r: float(r.evalf(30)))

    feasible = _Feasibility(sides, t, nmap, approximated)

    # feasibility on each interval between the boundary points
    points = [sympy.Integer(0)] + roots
    intervals = []
    for i, lo in enumerate(points):
        hi = points[i + 1] if i + 1 < len(points) else None
        probe = _rational_between(lo, hi) if hi is not None else _rational_above(lo)
        intervals.append((lo, hi, feasible(probe)))
    _refuse_unbounded(intervals, [feasible(r) for r in roots], target, bound, conditions)
    if bound == "max":
        edges = [hi for lo, hi, f in intervals if f and hi is not None] + [r for r in roots if feasible(r)]
        edge = max(edges, key=lambda r: float(r.evalf(30)))
    else:
        edges = [lo for lo, hi, f in intervals if f and lo != 0] + [r for r in roots if feasible(r)]
        edge = min(edges, key=lambda r: float(r.evalf(30)))
    # the closed form whose value is the edge
    symbolic = edge
    for _cond, _L, _R, _g, g_sym in sides:
        match = next((c for c in _symbolic_roots(_cond.id, g_sym, t, target, catalog.memo)
                      if (v := root_values.get(c) or value_at(c, nmap)) is not None
                      and not v.has(sympy.I) and close(v, edge)), None)
        if match is not None:
            symbolic = match
            break
    return sides, edge, symbolic


def _refuse_unbounded(intervals: Sequence[tuple], root_feasible: Sequence[bool], target: str, bound: str,
                      conditions: Sequence) -> None:
    """Raise when no positive value, or every one, satisfies the conditions, or the bound asked for
    does not exist (``intervals``: (low, high, feasible inside) from 0 up; ``root_feasible``: at each
    boundary point)."""
    names = ", ".join(c.id for c in conditions)
    ids = [c.id for c in conditions]
    if not any(f for _, _, f in intervals) and not any(root_feasible):
        raise NoSolutionError(f"no positive {target} satisfies {names} with these inputs; check the inputs",
                              quantity=target, relations=ids)
    if all(f for _, _, f in intervals) and all(root_feasible):
        raise NoSolutionError(f"{names} holds for every positive {target} with these inputs, so {target} "
                              f"has no {'maximum' if bound == 'max' else 'minimum'}; check the inputs",
                              quantity=target, relations=ids)
    if bound == "max" and intervals[-1][2]:
        raise NoSolutionError(f"{target} has no maximum: {names} holds for every large {target}; "
                              "did you mean `bound=min`?", quantity=target, relations=ids)
    if bound == "min" and intervals[0][2]:
        raise NoSolutionError(f"{target} has no positive minimum: {names} holds for every small "
                              f"{target}; did you mean `bound=max`?", quantity=target, relations=ids)


def _symbolic_roots(cond_id: str, g_sym: sympy.Expr, t: sympy.Symbol, target: str,
                    memo: CatalogMemo) -> tuple[sympy.Expr, ...]:
    """The closed forms where ``g_sym`` changes sign, solved once per catalog (empty when SymPy cannot)."""
    key = ("symbolic", g_sym, target)
    hit = memo.bounds.get(key)
    if hit is None:
        try:
            with time_budget(f"solving {cond_id} for {target}"):
                hit = _boundary_points(g_sym, t)
        except NotImplementedError:
            hit = ()
        memo.bounds[key] = hit
    return hit


_EXACT_HOLDS = {"<=": lambda s: s <= 0, "<": lambda s: s < 0, ">=": lambda s: s >= 0, ">": lambda s: s > 0,
                "=": lambda s: s == 0}


# Numbers this close (relative) are too close to tell apart in floats: the exact path decides.
_AMBIGUOUS = 1e-9


def _locate_numerically(conditions: Sequence, fmap: Mapping, nmap: dict, env: dict, t: sympy.Symbol, bound: str,
                        memo: CatalogMemo) -> tuple[list[Side], sympy.Expr, sympy.Expr, float] | None:
    """(sides, the edge's closed form, its exact value, that value in floats) for a question whose
    shape was solved before, or None when the exact path must decide.

    Each condition's roots were solved once in symbols (:func:`_roots_at`'s table); here their
    exact values are put in order by their floating-point values, a rational probe is placed
    inside each interval between them, and the probes are decided exactly (the conditions
    evaluated over fractions), without evaluating any condition at an irrational point. Used only
    when every input is rational, every condition a polynomial of degree at most 4 in the target
    with a leading coefficient that does not vanish, and no two roots lie too close to tell apart
    in floats; the caller rounds the edge to a whole number and settles it exactly.
    """
    if not all(v.is_Rational for v in nmap.values()):
        return None
    exact = nmap
    sides: list[Side] = []
    roots: list[tuple[float, sympy.Expr, sympy.Expr]] = []
    for cond in conditions:
        L, R = cond.comparison.lhs.xreplace(fmap), cond.comparison.rhs.xreplace(fmap)
        g_sym = sign_part(L - R, t, memo)
        if not g_sym.has(t) or g_sym.free_symbols - {t} - set(nmap):
            return None
        found: dict[sympy.Expr, sympy.Expr] = {}
        if _roots_at(cond.id, g_sym, t, exact, memo, found, env) is None:
            return None
        for r, v in found.items():
            if not v.is_Rational and v.has(sympy.I):
                continue                           # as on the exact path: not a boundary
            x = _float_of(v)
            if x is None or abs(x) < 1e-250:
                return None                        # too large, too small or not real: decide exactly
            if x > 0:
                roots.append((x, r, v))
        sides.append((cond, L, R, None, g_sym))
    roots.sort(key=lambda root: root[0])
    if any(b[0] - a[0] <= _AMBIGUOUS * b[0] for a, b in zip(roots, roots[1:])):
        return None

    def feasible(x: Fraction) -> bool | None:
        at = {**env, t.name: x}
        out = True
        for c, _, _, _, g_sym in sides:
            v = exact_value(g_sym, at)
            if v is None:
                return None
            out = out and _EXACT_HOLDS[c.comparison.op](sign_of(v))
        return out

    points = [0.0] + [x for x, _, _ in roots]
    intervals = []
    for i, lo in enumerate(points):
        hi = points[i + 1] if i + 1 < len(points) else None
        # a rational well inside the interval: roots this far apart are ordered right in floats
        probe = Fraction(*((lo + hi) / 2 if hi is not None else 2 * lo + 1).as_integer_ratio())
        ok = feasible(probe)
        if ok is None:
            return None
        intervals.append((lo, hi, ok))
    # a boundary point feasible on its own (two conditions meeting there, a double root) is told
    # apart only exactly
    if any(not intervals[i][2] and not intervals[i + 1][2] for i in range(len(roots))):
        return None
    if bound == "max":
        if intervals[-1][2] or not any(f for _, _, f in intervals):
            return None                            # the exact path says why there is no maximum
        i = max(i for i, (_, hi, f) in enumerate(intervals) if f)
        x, root, value = roots[i]
    else:
        if intervals[0][2] or not any(f for _, _, f in intervals):
            return None
        i = min(i for i, (lo, _, f) in enumerate(intervals) if f)
        x, root, value = roots[i - 1]
    return sides, root, value, x


def _float_of(v: sympy.Expr) -> float | None:
    """An exact real number as a float, correctly rounded for a rational (None when it is out of
    range or not real)."""
    try:
        if v.is_Rational:
            return int(v.p) / int(v.q)
        z = complex(v.evalf(20))
    except (OverflowError, TypeError, ValueError):
        return None
    if z.imag != 0 or not math.isfinite(z.real):
        return None
    return z.real


def _closed_form(sides: Sequence[Side], target: str, t: sympy.Symbol, nmap: dict, memo: CatalogMemo,
                 edge: sympy.Expr, edge_root: sympy.Expr) -> sympy.Expr:
    """The closed form (a root of one condition, solved in symbols) whose value is the edge."""
    for cond, _L, _R, _g, g_sym in sides:
        for c in _symbolic_roots(cond.id, g_sym, t, target, memo):
            if c == edge_root:
                return c
            v = value_at(c, nmap)
            if v is not None and not v.has(sympy.I) and close(v, edge):
                return c
    return edge


def _boundary_points(g: sympy.Expr, t: sympy.Symbol) -> tuple[sympy.Expr, ...]:
    """Where ``g`` may change sign in ``t``: its roots, and where a ``max``/``min`` of ``t`` switches
    branch. A ``min``/``max`` (expert parallelism's ``min(n·k/Z, 1)``, ``max(Z − n, 0)``) is split
    into its branches, each solved on its own; points a branch gives outside the range where that
    branch holds only split an interval in two, since every interval is then probed with ``g``
    itself. Raises ``NotImplementedError`` when SymPy cannot solve a branch."""
    inner = [a for a in g.atoms(sympy.Min, sympy.Max)
             if a.has(t) and not any(b.has(t) for arg in a.args for b in arg.atoms(sympy.Min, sympy.Max))]
    if not inner:
        return tuple(sympy.solve(sympy.Eq(g, 0), t))
    picked = min(inner, key=sympy.default_sort_key)
    points: list[sympy.Expr] = []
    for i, first in enumerate(picked.args):
        for second in picked.args[i + 1:]:
            points.extend(sympy.solve(sympy.Eq(first, second), t))
    for branch in picked.args:
        points.extend(_boundary_points(g.xreplace({picked: branch}), t))
    return tuple(dict.fromkeys(points))


def _floor_of(x: sympy.Expr) -> sympy.Integer:
    """The whole number at or below the positive number ``x``: exact for a rational, else from its
    value to PRECISION digits (off by one only when ``x`` is within 10^-PRECISION of a whole number,
    which the caller settles by testing the conditions)."""
    if x.is_Rational:
        return sympy.Integer(x.p // x.q)
    return sympy.Integer(int(x.evalf(PRECISION)))


def _rational_between(lo: sympy.Expr, hi: sympy.Expr) -> sympy.Expr:
    """A rational number strictly between two exact numbers ``lo < hi`` (the midpoint when both are
    rational): a probe that evaluates exactly and fast."""
    mid = (lo + hi) / 2
    if mid.is_Rational:
        return mid
    lo_f, hi_f = lo.evalf(PRECISION), hi.evalf(PRECISION)
    if hi_f - lo_f > TOLERANCE * max(abs(lo_f), abs(hi_f), 1):
        # the midpoint to PRECISION digits is far inside an interval this wide
        return sympy.Rational(str(((lo_f + hi_f) / 2).evalf(PRECISION)))
    return mid


def _rational_above(lo: sympy.Expr) -> sympy.Expr:
    """A rational number above ``lo >= 0`` (twice it, or twice the next whole number)."""
    if lo == 0:
        return sympy.Integer(1)
    return lo * 2 if lo.is_Rational else sympy.Integer(int(lo.evalf(PRECISION)) + 1) * 2


def _roots_at(cond_id: str, g_sym: sympy.Expr, t: sympy.Symbol, nmap: dict,
              memo: CatalogMemo, found_values: dict | None = None,
              env: dict | None = None) -> tuple[sympy.Expr, ...] | None:
    """The roots in ``t`` of ``g_sym`` at the inputs ``nmap``, from its roots solved once symbolically.

    Used when they are all of them: the numerator is a polynomial in ``t`` of degree at most 4
    (SymPy's closed forms are complete, and leave out only roots it proves not positive) whose
    leading coefficient does not vanish at these inputs. Otherwise None: solve at the values.
    ``found_values`` (when given) receives each closed form's value.
    """
    key = ("generic", g_sym, t)
    entry = memo.bounds.get(key)
    if entry is None:
        entry = memo.bounds[key] = _generic_roots(cond_id, g_sym, t)
    if not entry:
        return None
    lead, found = entry[0], entry[1:]
    quick = exact_value(lead, env) if env is not None else None
    lc = (sympy.Integer(1) if quick else sympy.Integer(0)) if quick is not None else value_at(lead, nmap)
    if lc is None or lc == 0:
        return None
    values = []
    for r in found:
        q = exact_value(r, env) if env is not None else None      # rational: no SymPy substitution
        v = sympy_number(q) if q is not None else value_at(r, nmap)
        if v is None:
            return None
        values.append(v)
        if found_values is not None:      # the closed form's value, for the caller to match its edge with
            found_values[r] = v
    return tuple(values)


def _generic_roots(cond_id: str, g_sym: sympy.Expr, t: sympy.Symbol) -> tuple[sympy.Expr, ...]:
    """(leading coefficient, roots...) of ``g_sym``'s numerator in ``t``, or () when not usable."""
    num, _ = sympy.fraction(sympy.together(g_sym))
    try:
        poly = sympy.Poly(num, t)
    except (sympy.PolynomialError, sympy.GeneratorsNeeded):
        return ()
    if not 1 <= poly.degree() <= 4:
        return ()
    try:
        with time_budget(f"solving {cond_id} for {t}"):
            found = tuple(sympy.solve(sympy.Eq(num, 0), t))
    except (NotImplementedError, TimeBudgetError):
        return ()
    if any(isinstance(r, sympy.Piecewise) for r in found):
        return ()
    return (poly.LC(), *found)


# ---------------------------------------------------------------------------
# the verb

