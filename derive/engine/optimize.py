"""``minimize``/``maximize``: the value of one unknown that makes an objective quantity least or greatest.

The objective is derived through the catalog with the unknown left as a symbol and every other input
fixed, so it is a formula ``g(x)`` of one positive real ``x``. Its candidates are the stationary points
of each smooth piece (``g'(x) = 0``, solved symbolically) and, where ``g`` is a ``max``/``min`` of
terms, the points where two terms are equal (the book's "the two comms are equal at X_opt"). A
candidate counts when it is real, positive, and a true optimum: the second derivative has the right
sign at a smooth point, and the one-sided slopes have opposite signs at a kink. The best candidate
is the answer; a whole-number unknown (or ``multiple_of``) then takes the better of its two
neighbours, each evaluated exactly.

When SymPy finds no closed form (the best draft length of speculative decoding: g'(γ) = 0 mixes
α^γ·ln α with γ), a whole-number unknown is still answered exactly: the stationary point is located
numerically (the slope's sign changes on a geometric grid, each bracket narrowed to 40 digits), its
second derivative checked there, and the two whole numbers either side compared exactly. A real
unknown without a closed form has no exact answer, and is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from ..errors import MissingInputsError, NoSolutionError, TimeBudgetError
from ..symbolic.budget import time_budget

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


def _solve_for(equation: sympy.Expr, x: sympy.Symbol, memo: dict | None = None) -> list[sympy.Expr]:
    """The closed-form roots of ``equation`` in ``x`` (in symbols: the same for every input value, so
    kept in ``memo``, the catalog's table); none when SymPy has no closed form within the budget."""
    key = (equation, x)
    if memo is not None and key in memo:
        return memo[key]
    try:
        with time_budget(f"solving d/d{x} = 0"):
            roots = [r for r in sympy.solve(equation, x, dict=False) if isinstance(r, sympy.Expr)]
    except (NotImplementedError, ValueError, TypeError, TimeBudgetError):
        roots = []
    if memo is not None:
        memo[key] = roots
    return roots


def find_optimum(formula: sympy.Expr, x: sympy.Symbol, values: dict[sympy.Symbol, sympy.Expr], direction: str,
                 *, integer: bool, multiple_of: int | None, target: str, objective: str,
                 memo: dict | None = None) -> Optimum:
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
        for root_sym in _solve_for(slope_sym, x, memo):
            exact = sympy.simplify(root_sym.xreplace(values))
            if not _positive_real(exact):
                continue
            second = sympy.simplify(sympy.diff(piece, x, 2).xreplace({x: exact}))
            if not (sign * second).is_positive:
                continue
            candidates.append(("stationary", sympy.Eq(slope_sym, 0, evaluate=False), root_sym, exact, second))
    # kinks of a max/min where its two terms are equal
    for a_sym, b_sym in _kinks(g_sym):
        for root_sym in _solve_for(a_sym - b_sym, x, memo):
            exact = sympy.simplify(root_sym.xreplace(values))
            if not _positive_real(exact):
                continue
            eps = exact / 10**6
            left = g.xreplace({x: exact - eps}) - g.xreplace({x: exact})
            right = g.xreplace({x: exact + eps}) - g.xreplace({x: exact})
            if not (sympy.N(sign * left, 30) > 0 and sympy.N(sign * right, 30) > 0):
                continue
            candidates.append(("crossing", sympy.Eq(a_sym, b_sym), root_sym, exact, None))
    step = multiple_of or (1 if integer else None)
    if not candidates and step is not None:
        candidates = _numeric_stationary(g_sym, values, x, sign)
    if not candidates:
        word = "least" if direction == "min" else "greatest"
        raise NoSolutionError(f"{objective} has no {word} value over positive {target}: it has no stationary "
                                 f"point or kink that is a {'minimum' if direction == 'min' else 'maximum'} "
                                 "(it may keep falling or rising)", quantity=objective)
    how, condition, symbolic, exact, second = min(
        candidates, key=lambda c: sign * sympy.N(g.xreplace({x: c[3]}), 30))
    value = exact
    neighbours: tuple[tuple[sympy.Expr, sympy.Expr], ...] = ()
    if step is not None and not (exact / step).is_Integer:
        low = sympy.floor(exact / step) * step
        choices = [c for c in (low, low + step) if c > 0]
        neighbours = tuple((c, g.xreplace({x: c})) for c in choices)
        value = min(neighbours, key=lambda cv: (sign * cv[1], cv[0]))[0]
    return Optimum(g_sym, how, condition, symbolic, exact, second, value, neighbours)


# the grid the numeric search looks at: 10^-6 to 10^12, 12 points a decade
_GRID = range(-6 * 12, 12 * 12 + 1)
_DIGITS = 40


def _numeric_stationary(g_sym: sympy.Expr, values: dict[sympy.Symbol, sympy.Expr], x: sympy.Symbol,
                        sign: int) -> list[tuple[str, sympy.Eq, sympy.Expr, sympy.Expr, sympy.Expr | None]]:
    """Stationary points of each smooth piece located numerically, where SymPy has no closed form:
    a bracket of the grid where the slope changes sign the right way (falling then rising for a
    minimum), narrowed to ``_DIGITS`` digits (the Illinois method, which keeps the bracket), its
    second derivative of the right sign."""
    import mpmath

    def slope_at(f, point):
        try:
            v = f(point)
        except (ZeroDivisionError, OverflowError, ValueError, TypeError):
            return None
        return v if isinstance(v, mpmath.mpf) and mpmath.isfinite(v) else None

    out = []
    with mpmath.workdps(_DIGITS):
        grid = [mpmath.mpf(10) ** (mpmath.mpf(k) / 12) for k in _GRID]
        for piece_sym in _pieces(g_sym):
            slope_sym = sympy.diff(piece_sym, x)
            slope = slope_sym.xreplace(values)
            f = sympy.lambdify(x, slope, "mpmath")
            slopes = [slope_at(f, p) for p in grid]
            for a, sa, b, sb in zip(grid, slopes, grid[1:], slopes[1:]):
                if sa is None or sb is None or not (sign * sa < 0 < sign * sb):
                    continue
                try:
                    root_mp = mpmath.findroot(f, (a, b), solver="illinois", tol=mpmath.mpf(10) ** (-2 * _DIGITS))
                except (ValueError, ZeroDivisionError):
                    continue
                if not a <= root_mp <= b:
                    continue
                root = sympy.Float(mpmath.nstr(root_mp, _DIGITS), _DIGITS)
                second = sympy.diff(slope, x).xreplace({x: root}).evalf(_DIGITS)
                if (sign * second).is_positive:
                    out.append(("numeric", sympy.Eq(slope_sym, 0, evaluate=False), root, root, second))
    return out
