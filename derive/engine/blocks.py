"""Relations solved together: the positive real solutions of a block of relations for its unknowns.

Shared by the planner (``engine/plan.py``), which passes over a block whose relations contradict each
other, and the steps (``engine/steps.py``), which solve the block it chose; solved once per catalog
(``Catalog.memo``).
"""

from __future__ import annotations

from typing import Sequence

import sympy

from ..errors import NotInvertibleError, TimeBudgetError
from ..records.catalog import CatalogMemo
from ..records.entries import Relation
from ..symbolic.budget import time_budget

__all__ = ["block_solutions", "solve_block"]


def solve_block(rels: Sequence[Relation], names: Sequence[str], memo: CatalogMemo) -> list[dict[str, sympy.Expr]]:
    """The positive real solutions of ``rels`` together for ``names``, in the relations' own symbols;
    :class:`NotInvertibleError` when there is none or the algebra cannot find them."""
    sols = block_solutions(rels, names, memo)
    if not sols:
        raise NotInvertibleError("+".join(r.id for r in rels), ", ".join(names),
                                 "no positive real closed-form solution of the system")
    return [dict(zip(names, sol)) for sol in sols]


def block_solutions(rels: Sequence[Relation], names: Sequence[str],
                    memo: CatalogMemo) -> tuple[tuple[sympy.Expr, ...], ...]:
    """The solutions of :func:`solve_block` as tuples in the order of ``names`` (empty when the relations
    contradict each other), solved once per catalog."""
    key = (tuple(r.id for r in rels), tuple(names))
    hit = memo.blocks.get(key)
    if hit is not None:
        return hit
    syms = [sympy.Symbol(n, positive=True) for n in names]
    try:
        with time_budget(f"solving {' + '.join(r.id for r in rels)} for {', '.join(names)}"):
            raw = sympy.solve([sympy.Eq(r.lhs, r.rhs) for r in rels], syms, dict=True)
    except (NotImplementedError, ValueError, TypeError) as exc:
        raise NotInvertibleError("+".join(r.id for r in rels), ", ".join(names),
                                 f"SymPy cannot solve the system ({exc})") from exc
    except TimeBudgetError as exc:
        raise NotInvertibleError("+".join(r.id for r in rels), ", ".join(names),
                                 f"SymPy found no closed form within {exc.seconds:g} s") from exc
    sols = []
    for sol in raw:
        if all(s in sol for s in syms):
            vals = tuple(sol[s] for s in syms)
            if all(v.is_positive is not False and not v.has(sympy.I) for v in vals):
                sols.append(vals)
    found = memo.blocks[key] = tuple(sols)
    return found
