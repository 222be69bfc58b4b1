"""Bounds: the largest or smallest value of a quantity for which required conditions hold.

``find_bound`` makes the target an input, derives each condition as a function of it
(``_steps.derive``), reduces each to a sign-equivalent expression in the target
(:func:`sign_part`), finds the boundary points, decides on which side of them the
conditions hold, and rounds to a whole number or a multiple. The answer is checked:
every condition holds at it, and (when rounded) fails one step past it.
"""

from __future__ import annotations

from collections import ChainMap
from typing import Sequence

import sympy

from ._asymptotic import Assumption, leading_term
from ._budget import time_budget
from ._errors import MissingInputsError, NoSolutionError, NotInvertibleError, TimeBudgetError, VerificationError
from ._exact import PRECISION, TOLERANCE, close, holds, sign, value_at
from ._model import CatalogMemo
from ._solution import Check, Note
from ._steps import State, derive

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

    def approximate(expr: sympy.Expr) -> sympy.Expr:
        return sign_part(leading_term(expr, assumptions), t, catalog.memo) if assumptions else expr

    q = catalog.quantities[target]
    t = state.sym(target)
    # the target is an input here: each condition becomes a function of it
    state.formulas[target] = t
    state.origins[target] = frozenset({"bound"})
    needed = sorted({s for c in conditions for s in c.symbols if s != target})

    def relevant(trial: State) -> set[str]:
        names: set[str] = set()
        fmap = trial.formula_map()
        for c in conditions:
            g = sign_part(c.comparison.lhs.xreplace(fmap) - c.comparison.rhs.xreplace(fmap), t, catalog.memo)
            g = approximate(g)
            names |= {s.name for s in g.free_symbols if s.name in trial.params}
        return names - large if assumptions else names

    derive(state, needed, target, relevant)
    fmap = state.formula_map()
    nmap = {k: v for k, v in state.numeric_map().items() if k.name != target}
    sides = []
    roots: list[sympy.Expr] = []
    root_values: dict[sympy.Expr, sympy.Expr] = {}     # each closed-form root at these inputs, computed once
    for cond in conditions:
        L, R = cond.comparison.lhs.xreplace(fmap), cond.comparison.rhs.xreplace(fmap)
        g_sym = approximate(sign_part(L - R, t, catalog.memo))
        if not g_sym.has(t):
            raise NoSolutionError(f"condition {cond.id} ({cond.text}) does not depend on {target}; "
                                  "it cannot bound it: bound another quantity of the condition",
                                  quantity=target, relations=[cond.id])
        # the sign-equivalent form at these inputs: the symbolic one with the values put in
        g = (g_sym.xreplace(nmap) if not assumptions
             else approximate(sign_part((L - R).xreplace(nmap), t, catalog.memo)))
        if g.free_symbols - {t}:
            raise MissingInputsError(target, sorted(s.name for s in g.free_symbols - {t}))
        sides.append((cond, L, R, g, g_sym))
        if not g.has(t):   # with these inputs it holds for every target value or for none
            continue
        hit = None if assumptions else _roots_at(cond.id, g_sym, t, nmap, catalog.memo, root_values)
        if hit is None:     # not a polynomial SymPy solved once for every input: solve at these values
            try:
                with time_budget(f"solving {cond.id} for {target}"):
                    hit = _boundary_points(g, t)
            except NotImplementedError as exc:
                raise NotInvertibleError(cond.id, target, f"SymPy cannot isolate it ({exc})") from exc
        roots.extend(r for r in hit if not r.free_symbols and not r.has(sympy.I) and sign(r) > 0)
    roots = sorted(set(roots), key=lambda r: float(r.evalf(30)))

    def at_target(g: sympy.Expr, g_sym: sympy.Expr, x: sympy.Expr) -> sympy.Expr:
        """A condition's sign-equivalent form with the target at ``x``."""
        v = None if assumptions else value_at(g_sym, ChainMap({t: x}, nmap))
        return v if v is not None else g.xreplace({t: x})

    decided: dict[sympy.Expr, bool] = {}

    def feasible(x: sympy.Expr) -> bool:
        """Whether every condition holds with the target at ``x`` (asked once per point)."""
        hit = decided.get(x)
        if hit is None:
            hit = decided[x] = all(holds(c.comparison.op, at_target(g, g_sym, x), sympy.Integer(0))
                                   for c, _, _, g, g_sym in sides)
        return hit

    names = ", ".join(c.id for c in conditions)
    # feasibility on each interval between the boundary points
    points = [sympy.Integer(0)] + roots
    intervals = []
    for i, lo in enumerate(points):
        hi = points[i + 1] if i + 1 < len(points) else None
        probe = _rational_between(lo, hi) if hi is not None else _rational_above(lo)
        intervals.append((lo, hi, feasible(probe)))
    if not any(f for _, _, f in intervals) and not any(feasible(r) for r in roots):
        raise NoSolutionError(f"no positive {target} satisfies {names} with these inputs; check the inputs",
                              quantity=target, relations=[c.id for c in conditions])
    if all(f for _, _, f in intervals) and all(feasible(r) for r in roots):
        raise NoSolutionError(f"{names} holds for every positive {target} with these inputs, so {target} "
                              f"has no {'maximum' if bound == 'max' else 'minimum'}; check the inputs",
                              quantity=target, relations=[c.id for c in conditions])
    if bound == "max":
        if intervals[-1][2]:
            raise NoSolutionError(f"{target} has no maximum: {names} holds for every large {target}; "
                                  "did you mean `bound=min`?", quantity=target, relations=[c.id for c in conditions])
        edges = [hi for lo, hi, f in intervals if f and hi is not None] + [r for r in roots if feasible(r)]
        edge = max(edges, key=lambda r: float(r.evalf(30)))
    else:
        if intervals[0][2]:
            raise NoSolutionError(f"{target} has no positive minimum: {names} holds for every small "
                                  f"{target}; did you mean `bound=max`?", quantity=target,
                                  relations=[c.id for c in conditions])
        edges = [lo for lo, hi, f in intervals if f and lo != 0] + [r for r in roots if feasible(r)]
        edge = min(edges, key=lambda r: float(r.evalf(30)))
    # the closed form whose value is the edge
    symbolic = edge
    for _cond, _L, _R, _g, g_sym in sides:
        key = ("symbolic", g_sym, target)
        hit = catalog.memo.bounds.get(key)
        if hit is None:
            try:
                with time_budget(f"solving {_cond.id} for {target}"):
                    hit = _boundary_points(g_sym, t)
            except NotImplementedError:
                hit = ()
            catalog.memo.bounds[key] = hit
        match = next((c for c in hit if (v := root_values.get(c) or value_at(c, nmap)) is not None
                      and not v.has(sympy.I)
                      and close(v, edge)), None)
        if match is not None:
            symbolic = match
            break
    # round to a whole number or a multiple
    step = sympy.Integer(multiple_of) if multiple_of else (sympy.Integer(1) if q.integer and rounding else None)
    answer = edge
    if step is not None:
        # the multiple next to the edge, from its value to PRECISION digits, then settled by the
        # conditions themselves (exact at a whole number): the last multiple that satisfies them
        below = step * _floor_of(edge / step)
        if bound == "max":
            answer = below if feasible(below) else below - step
            while feasible(answer + step) and answer + step <= edge * 2:   # an edge a hair above its estimate
                answer += step
        else:
            answer = below if (below == edge and feasible(below)) else below + step
            if not feasible(answer):
                answer += step
            while answer - step > 0 and feasible(answer - step) and answer - step >= edge / 2:
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
    for cond, L, R, g, _ in sides:
        lv, rv = value_at(L, at), value_at(R, at)
        if lv is None or rv is None or assumptions:
            # sides with inputs that cancel, or approximated by their leading term: check the reduced form
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
    composed = tuple(sympy.Rel(L, R, c.comparison.op) for c, L, R, _, _ in sides)
    return answer, edge, symbolic, [c.id for c in conditions], composed


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
              memo: CatalogMemo, found_values: dict | None = None) -> tuple[sympy.Expr, ...] | None:
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
    lc = value_at(lead, nmap)
    if lc is None or lc == 0:
        return None
    values = []
    for r in found:
        v = value_at(r, nmap)
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

