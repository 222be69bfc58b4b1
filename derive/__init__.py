"""derive: a symbolic derivation engine for the performance math of ML accelerators.

Every quantity (critical arithmetic intensity, KV bytes per token, training
memory, ...) is a SymPy relation in a catalog (``formulas/``) with units, names
in English and Chinese, and a source. Any unknown can be solved for; answers
are exact and checked by substituting them back.

    >>> from derive import solve
    >>> solve("critical_ai", hw="a100").display()
    '156 FLOP/B'

The public surface is small: ``load_catalog``, ``solve`` (which takes a target and its
inputs, or a :class:`Question`), ``check_claims``, ``sharding_plan`` (a sharded matmul in the
Scaling Book's notation), the records they return, and the error classes. Heavy
modules (SymPy, pint, Jinja) load on first use, not at import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._errors import (
    CatalogError,
    ContradictoryInputsError,
    DeriveError,
    ExpressionError,
    InputError,
    MissingInputsError,
    NoSolutionError,
    NotInvertibleError,
    QuestionError,
    TemplateError,
    TimeBudgetError,
    UnitBalanceError,
    UnitError,
    UnknownNameError,
    VerificationError,
)

__all__ = [
    "Catalog",
    "CatalogError",
    "ContradictoryInputsError",
    "DeriveError",
    "ExpressionError",
    "InputError",
    "MissingInputsError",
    "NoSolutionError",
    "NotInvertibleError",
    "Question",
    "QuestionError",
    "ShardingPlan",
    "Solution",
    "Step",
    "TemplateError",
    "TimeBudgetError",
    "UnitBalanceError",
    "UnitError",
    "UnknownNameError",
    "VerificationError",
    "check_claims",
    "growth",
    "load_catalog",
    "sharding_plan",
    "solve",
]

_LAZY = {
    "check_claims": (".check", "check_claims"),
    "load_catalog": ("._loader", "load_catalog"),
    "solve": ("._solver", "solve"),
    "growth": ("._solver", "growth"),
    "Catalog": ("._model", "Catalog"),
    "Question": ("._question", "Question"),
    "Solution": ("._solution", "Solution"),
    "Step": ("._solution", "Step"),
    "ShardingPlan": (".sharded", "ShardingPlan"),
    "sharding_plan": (".sharded", "sharding_plan"),
}

if TYPE_CHECKING:
    from ._loader import load_catalog
    from ._model import Catalog
    from ._question import Question
    from ._solution import Solution, Step
    from ._solver import growth, solve
    from .check import check_claims
    from .sharded import ShardingPlan, sharding_plan


def _version() -> str:
    """The installed distribution's version (pyproject.toml), or a marker when run from a bare source tree."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("derive")
    except PackageNotFoundError:
        return "0+unknown"


def __getattr__(name: str) -> Any:
    if name == "__version__":
        value = globals()["__version__"] = _version()
        return value
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module 'derive' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(target[0], __name__), target[1])
    globals()[name] = value
    return value
