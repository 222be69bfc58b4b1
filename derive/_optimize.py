"""``minimize``/``maximize``: the value of one unknown that makes an objective quantity least or greatest.

The objective is derived through the catalog with the unknown left as a symbol and every other input
fixed, so it is a formula ``g(x)`` of one positive real ``x``. Its candidates are the stationary points
of each smooth piece (``g'(x) = 0``, solved symbolically) and, where ``g`` is a ``max``/``min`` of
terms, the points where two terms are equal (the book's "the two comms are equal at X_opt"). A
candidate counts when it is real, positive, and a true optimum: the second derivative has the right
sign at a smooth point, and the one-sided slopes have opposite signs at a kink. The best candidate
is the answer; a whole-number unknown (or ``multiple_of``) then takes the better of its two
neighbours, each evaluated exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from ._errors import MissingInputsError, NoSolutionError

__all__ = ["Optimum", "find_optimum"]


@dataclass(frozen=True)
class Optimum:
    """What an optimisation found, for the answer and its write-up."""

    objective_formula: sympy.Expr        # the objective in the unknown and the inputs' symbols
    how: str                             # "stationary": g'(x) = 0; "crossing": two terms of a max/min equal
    condition: sympy.Eq                  # g'(x) = 0, or a(x) = b(x)
    symbolic: sympy.Expr                 # x* in the inputs' symbols
    exact: sympy.Expr                    # x* with the inputs' values
    second: sympy.Expr | None            # g''(x*) at a stationary point
    value: sympy.Expr                    # the answer: x*, or its better whole-number neighbour
    neighbours: tuple[tuple[sympy.Expr, sympy.Expr], ...]   # (candidate, g(candidate)) when rounded


def _positive_real(value: sympy.Expr) -> bool:
    v = sympy.N(value, 30)
    return bool(v.is_real and v.is_positive)


def _kinks(expr: sympy.Expr) -> list[tuple[sympy.Expr, sympy.Expr]]:
    """Each pair of terms of a ``max``/``min`` inside ``expr``."""
    out = []
    for node in expr.atoms(sympy.Max, sympy.Min):
        args = list(node.args)
        out += [(a, b) for i, a in enumerate(args) for b in args[i + 1:]]
    return out


def _pieces(expr: sympy.Expr) -> list[sympy.Expr]:
    """The smooth formulas a ``max``/``min`` expression is made of (each choice of term)."""
    nodes = sorted(expr.atoms(sympy.Max, sympy.Min), key=sympy.default_sort_key)
    if not nodes:
        return [expr]
    node = nodes[0]
    out: list[sympy.Expr] = []
    for arg in node.args:
        out += _pieces(expr.xreplace({node: arg}))
    return out


def _solve_for(equation: sympy.Expr, x: sympy.Symbol) -> list[sympy.Expr]:
    try:
        roots = sympy.solve(equation, x, dict=False)
    except (NotImplementedError, ValueError, TypeError):
        return []
    return [r for r in roots if isinstance(r, sympy.Expr)]


def find_optimum(formula: sympy.Expr, x: sympy.Symbol, values: dict[sympy.Symbol, sympy.Expr], direction: str,
                 *, integer: bool, multiple_of: int | None, target: str, objective: str) -> Optimum:
    """The ``x`` that makes ``formula`` least (``direction="min"``) or greatest, ``values`` put in."""
    g_sym = formula
    g = formula.xreplace(values)
    extra = sorted(s.name for s in g.free_symbols if s != x)
    if extra:
        raise MissingInputsError(objective, extra)
    if not g.has(x):
        raise NoSolutionError(f"{objective} does not depend on {target}: there is nothing to optimise",
                              quantity=objective)
    sign = 1 if direction == "min" else -1
    candidates: list[tuple[str, sympy.Eq, sympy.Expr, sympy.Expr, sympy.Expr | None]] = []
    # stationary points of each smooth piece
    for piece_sym in _pieces(g_sym):
        piece = piece_sym.xreplace(values)
        slope_sym = sympy.diff(piece_sym, x)
        for root_sym in _solve_for(slope_sym, x):
            exact = sympy.simplify(root_sym.xreplace(values))
            if not _positive_real(exact):
                continue
            second = sympy.simplify(sympy.diff(piece, x, 2).xreplace({x: exact}))
            if not (sign * second).is_positive:
                continue
            candidates.append(("stationary", sympy.Eq(slope_sym, 0, evaluate=False), root_sym, exact, second))
    # kinks of a max/min where its two terms are equal
    for a_sym, b_sym in _kinks(g_sym):
        for root_sym in _solve_for(a_sym - b_sym, x):
            exact = sympy.simplify(root_sym.xreplace(values))
            if not _positive_real(exact):
                continue
            eps = exact / 10**6
            left = g.xreplace({x: exact - eps}) - g.xreplace({x: exact})
            right = g.xreplace({x: exact + eps}) - g.xreplace({x: exact})
            if not (sympy.N(sign * left, 30) > 0 and sympy.N(sign * right, 30) > 0):
                continue
            candidates.append(("crossing", sympy.Eq(a_sym, b_sym), root_sym, exact, None))
    if not candidates:
        word = "least" if direction == "min" else "greatest"
        raise NoSolutionError(f"{objective} has no {word} value over positive {target}: it has no stationary "
                                 f"point or kink that is a {'minimum' if direction == 'min' else 'maximum'} "
                                 "(it may keep falling or rising)", quantity=objective)
    how, condition, symbolic, exact, second = min(
        candidates, key=lambda c: sign * sympy.N(g.xreplace({x: c[3]}), 30))
    value = exact
    neighbours: tuple[tuple[sympy.Expr, sympy.Expr], ...] = ()
    step = multiple_of or (1 if integer else None)
    if step is not None and not (exact / step).is_Integer:
        low = sympy.floor(exact / step) * step
        choices = [c for c in (low, low + step) if c > 0]
        neighbours = tuple((c, g.xreplace({x: c})) for c in choices)
        value = min(neighbours, key=lambda cv: (sign * cv[1], cv[0]))[0]
    return Optimum(g_sym, how, condition, symbolic, exact, second, value, neighbours)
