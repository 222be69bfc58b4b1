"""Values that follow other quantities: ``same_as`` in a preset value or a quantity's default.

``same_as: bytes_per_element`` takes that quantity's value; ``same_as: d_model / num_heads``
takes the value of arithmetic over quantities (the head dimension of most models). The text
is read by the catalog's whitelist expression parser (nothing is evaluated as code), once per
catalog, and evaluated exactly at the values a question has.
"""

from __future__ import annotations

from typing import Callable

import sympy

from ..records.catalog import Catalog
from ..symbolic.evaluate import value_at
from ..symbolic.expressions import parse_expression

__all__ = ["followed", "followed_value"]


def followed(catalog: Catalog, text: str) -> tuple[sympy.Expr, tuple[str, ...]]:
    """``same_as`` text as (expression over quantity symbols, the quantity ids it uses, sorted)."""
    hit = catalog.memo.follows.get(text)
    if hit is None:
        def symbol(name: str) -> sympy.Symbol:
            return catalog.symbol(catalog.aliases.get(name, name))

        expr = parse_expression(text, symbol, "same_as")
        hit = catalog.memo.follows[text] = (expr, tuple(sorted(s.name for s in expr.free_symbols)))
    return hit


def followed_value(catalog: Catalog, text: str,
                   lookup: Callable[[str], sympy.Expr | None]) -> sympy.Expr | None:
    """The value ``same_as`` text gives when ``lookup`` knows each quantity it uses, else None."""
    expr, names = followed(catalog, text)
    values = {}
    for name in names:
        v = lookup(name)
        if v is None:
            return None
        values[catalog.symbol(name)] = v
    return value_at(expr, values)
