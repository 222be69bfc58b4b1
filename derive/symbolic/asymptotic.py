"""Leading terms: a quantity under an assumption such as ``batch << d_model, d_ff``, and the order
of growth of a quantity in one variable.

The books approximate as engineers do: with B ≪ D, F a matmul's bytes 2(BD + DF + BF) are
about 2DF. Here that is exact asymptotics, not a table of rules: the large quantities are
scaled by 1/ε and SymPy's ``as_leading_term`` keeps the term that dominates as ε → 0;
putting ε back to 1 gives the approximate expression in the original symbols. Every
approximation is checked: the exact expression over the approximate one tends to 1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

import sympy

from ..errors import NotInvertibleError, QuestionError
from .budget import time_budget

__all__ = ["Assumption", "Growth", "growth_exponent", "growth_order", "is_leading_term", "leading_term",
           "parse_assumption", "require_involved", "without_rounding"]

_EPS = sympy.Symbol("derive_epsilon", positive=True)
_MUCH_LESS = re.compile(r"\s*(<<|≪)\s*")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class Assumption:
    """``small << large``: each quantity on the left is negligible next to each on the right."""

    small: tuple[str, ...]
    large: tuple[str, ...]

    @property
    def text(self) -> str:
        return f"{', '.join(self.small)} << {', '.join(self.large)}"


def parse_assumption(text: str) -> Assumption:
    """``"batch << d_model, d_ff"`` (``≪`` works too) into an :class:`Assumption`; names are not yet checked."""
    if not isinstance(text, str):
        raise QuestionError(f"`assume` is text such as 'batch << d_model', not {text!r}", name="assume")
    parts = _MUCH_LESS.split(text.strip())
    if len(parts) != 3:
        raise QuestionError(f"`assume` {text!r}: write SMALL << LARGE, e.g. 'batch << d_model, d_ff'", name="assume")
    small = tuple(n.strip() for n in parts[0].split(",") if n.strip())
    large = tuple(n.strip() for n in parts[2].split(",") if n.strip())
    for name in small + large:
        if not _NAME.match(name):
            raise QuestionError(f"`assume` {text!r}: {name!r} is not a quantity name", name="assume")
    if not small or not large or set(small) & set(large):
        raise QuestionError(f"`assume` {text!r}: name the small quantities, then << and the large ones",
                            name="assume")
    return Assumption(small, large)


def require_involved(assumptions: Iterable[Assumption], expr: sympy.Expr, target: str) -> None:
    """Refuse an assumption none of whose large quantities ``expr`` (the exact answer, or a condition
    in the target) contains: it would approximate nothing while the answer said it was the leading term."""
    present = {s.name for s in expr.free_symbols}
    for a in assumptions:
        if not set(a.large) & present:
            shown = ", ".join(sorted(present - {target})) or "no other quantity"
            raise QuestionError(f"`assume` {a.text!r}: {target} does not depend on {', '.join(a.large)} "
                                f"here (it is found from {shown}); name quantities of this question",
                                name="assume")


def _scaled(expr: sympy.Expr, assumptions: Iterable[Assumption]) -> sympy.Expr:
    large = {sympy.Symbol(n, positive=True) for a in assumptions for n in a.large}
    return expr.xreplace({s: s / _EPS for s in large})


def leading_term(expr: sympy.Expr, assumptions: Iterable[Assumption]) -> sympy.Expr:
    """The part of ``expr`` that dominates when the assumptions' large quantities are large."""
    assumptions = tuple(assumptions)
    scaled = _scaled(expr, assumptions)
    if not scaled.has(_EPS):
        return expr
    try:
        with time_budget("the leading term under " + ", ".join(a.text for a in assumptions)):
            lead = sympy.together(scaled).as_leading_term(_EPS)
    except (NotImplementedError, ValueError, TypeError) as exc:
        raise NotInvertibleError("assume", ", ".join(a.text for a in assumptions),
                                 f"SymPy finds no leading term ({exc})") from exc
    return sympy.factor(lead.xreplace({_EPS: sympy.Integer(1)}))


def is_leading_term(exact: sympy.Expr, approx: sympy.Expr, assumptions: Iterable[Assumption]) -> bool:
    """Whether ``approx`` is the leading term of ``exact``: their ratio tends to 1."""
    assumptions = tuple(assumptions)
    if approx == 0:
        return bool(exact == 0)
    with time_budget("checking the leading term under " + ", ".join(a.text for a in assumptions)):
        ratio = sympy.simplify(_scaled(exact, assumptions) / _scaled(approx, assumptions))
        return bool(sympy.limit(ratio, _EPS, 0) == 1)


@dataclass(frozen=True)
class Growth:
    """How a quantity grows in one variable, the others held fixed: ``leading`` is its leading
    term (with its coefficient), ``exponent`` the power of the variable in it (Θ(N^exponent))."""

    target: str
    variable: str
    formula: sympy.Expr        # the quantity in terms of the inputs (ceil/floor kept)
    leading: sympy.Expr        # its leading term as the variable grows
    exponent: sympy.Expr       # the power of the variable in the leading term (log counts as 0)

    def theta(self) -> sympy.Expr:
        """The leading term without its numeric factor: Θ(N**2*d**2/M)."""
        coeff, rest = self.leading.as_coeff_Mul()
        return rest


def without_rounding(expr: sympy.Expr, variable: sympy.Symbol | None = None) -> sympy.Expr:
    """``ceil(x)`` and ``floor(x)`` replaced by ``x``: equal to leading order as ``x`` grows. With
    ``variable``, only those whose argument grows with it: ``ceil(M/(4·e·d))`` is a constant while N
    grows and stays exact in the leading term (replacing it by ``M/(4·e·d)`` is a different constant)."""
    return expr.replace(lambda e: isinstance(e, (sympy.ceiling, sympy.floor))
                        and (variable is None or e.args[0].has(variable)), lambda e: e.args[0])


def growth_exponent(leading: sympy.Expr, variable: sympy.Symbol) -> sympy.Expr:
    """The power of ``variable`` in a leading term (``N**2*d``: 2; ``log(N)``: 0)."""
    with time_budget(f"the order of {leading} in {variable}"):
        return sympy.limit(sympy.log(sympy.Abs(leading)) / sympy.log(variable), variable, sympy.oo)


def growth_order(expr: sympy.Expr, variable: sympy.Symbol) -> sympy.Expr:
    """The leading behaviour of ``expr`` as ``variable`` grows, the other symbols held fixed:
    ``N**2*d**2/M`` for FlashAttention's HBM traffic in N (its Θ, with its coefficient)."""
    inverse = expr.xreplace({variable: 1 / _EPS})
    try:
        with time_budget(f"the leading term in {variable}"):
            lead = sympy.together(inverse).as_leading_term(_EPS)
    except (NotImplementedError, ValueError, TypeError) as exc:
        raise NotInvertibleError("order", str(variable), f"SymPy finds no leading term ({exc})") from exc
    return sympy.factor(lead.xreplace({_EPS: 1 / variable}))
