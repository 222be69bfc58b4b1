"""Relations whose unknown occurs only inside ``ceil`` or ``floor``: an exact interval, not a value.

``flash_col_blocks = ceil(seq_len / flash_block_cols)`` cannot be inverted to one value: 16
column blocks of 256 hold every sequence length from 3,841 to 4,096. Solving for the
unknown therefore gives the interval: the rounded expression is set to a symbol, that
symbol's value (a whole number) is read off the relation, and ``ceil(h(u)) = k`` becomes
``k - 1 < h(u) <= k`` (``floor``: ``k <= h(u) < k + 1``), solved at both ends for a monotone
``h``. A whole-number unknown gets the whole numbers inside. An end where ``h`` reaches zero only as
the unknown grows without limit is ``oo`` (one column block holds every sequence up to its width).
"""

from __future__ import annotations

import sympy

from ..errors import NoSolutionError, NotInvertibleError
from ..records.entries import Relation
from ..symbolic.budget import time_budget
from ..symbolic.exact import sign
from ..symbolic.interval import Interval

__all__ = ["solve_interval"]

_Z = sympy.Symbol("derive_rounded", real=True)


def _rounding_atom(expr: sympy.Expr, u: sympy.Symbol) -> sympy.Expr | None:
    atoms = [a for a in expr.atoms(sympy.ceiling, sympy.floor) if a.has(u)]
    return atoms[0] if len(atoms) == 1 else None


def solve_interval(rel: Relation, name: str, values: dict[sympy.Symbol, sympy.Expr], integer: bool) -> Interval:
    """Every ``name`` for which ``rel`` holds with the other symbols at ``values``."""
    u = sympy.Symbol(name, positive=True)
    expr = rel.lhs - rel.rhs
    atom = _rounding_atom(expr, u)
    if atom is None:
        raise NotInvertibleError(rel.id, name, "it occurs in more than one ceil/floor")
    reduced = expr.xreplace({atom: _Z}).xreplace(values)
    if reduced.has(u):
        raise NotInvertibleError(rel.id, name, "it occurs inside and outside ceil/floor")
    with time_budget(f"solving {rel.id} for {name}"):
        found = sympy.solve(sympy.Eq(reduced, 0), _Z)
    if len(found) != 1 or found[0].free_symbols:
        raise NotInvertibleError(rel.id, name, "the rounded part cannot be isolated")
    k = found[0]
    what = "ceil" if isinstance(atom, sympy.ceiling) else "floor"
    if not k.is_Integer:
        raise NoSolutionError(f"no {name} satisfies {rel.id}: its {what}(...) would have to be {k}, which is not "
                              "a whole number; check the inputs", quantity=name, relations=[rel.id])
    inner = atom.args[0].xreplace(values)
    lo_k, hi_k = (k - 1, k) if what == "ceil" else (k, k + 1)
    ends = []
    for target in (lo_k, hi_k):
        with time_budget(f"solving {rel.id} for {name}"):
            roots = [r for r in sympy.solve(sympy.Eq(inner, target), u)
                     if r.is_real is not False and not r.has(sympy.I)]
        roots = [r for r in roots if not r.free_symbols and sign(r) >= 0] if target != 0 else [_zero_end(inner, u)]
        if len(roots) != 1:
            raise NotInvertibleError(rel.id, name, f"{inner} = {target} has no single non-negative solution")
        ends.append(roots[0])
    # h falls towards zero as u grows (ceil(N / B) for B): its zero end is u = oo, above the other one
    increasing = ends[1] is sympy.oo or (ends[0] is not sympy.oo and sign(ends[1] - ends[0]) > 0)
    low, high = (ends[0], ends[1]) if increasing else (ends[1], ends[0])
    # ceil: h in (k-1, k]; floor: h in [k, k+1): which end is open depends on the direction of h
    h_open_low, h_open_high = (True, False) if what == "ceil" else (False, True)
    low_open, high_open = (h_open_low, h_open_high) if increasing else (h_open_high, h_open_low)
    if integer:
        first = sympy.floor(low) + 1 if (low_open or not low.is_Integer) else low
        last = sympy.ceiling(high) - 1 if (high_open or not high.is_Integer) else high
        first = max(first, sympy.Integer(1))
        if high is sympy.oo:
            return Interval(first, sympy.oo, False, True, k)
        if first > last:
            raise NoSolutionError(f"no whole {name} gives {rel.id} = {k}; check the inputs", quantity=name,
                                  relations=[rel.id])
        return Interval(first, last, False, False, k)
    return Interval(low, high, low_open, high is sympy.oo or high_open, k)


def _zero_end(inner: sympy.Expr, u: sympy.Symbol) -> sympy.Expr:
    """Where the rounded expression ``inner`` (of positive ``u``) reaches zero: at u = 0 when it grows from
    zero (ceil(N / B) for N), at u = oo when it falls towards zero (ceil(N / B) for B: one block holds any
    sequence no longer than a block)."""
    with time_budget("finding where a rounded expression is zero"):
        if sympy.limit(inner, u, 0, "+") == 0:
            return sympy.Integer(0)
        if sympy.limit(inner, u, sympy.oo) == 0:
            return sympy.oo
    raise NotInvertibleError("", u.name, f"{inner} is zero neither at 0 nor at infinity")
