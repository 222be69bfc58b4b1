"""derive: a symbolic derivation engine for the performance math of ML accelerators.

Every quantity (critical arithmetic intensity, KV bytes per token, training
memory, ...) is a SymPy relation in a catalog (``formulas/``) with units, names
in English and Chinese, and a source. Any unknown can be solved for; answers
are exact and checked by substituting them back.

    >>> from derive import solve
    >>> solve("critical_ai", hw="a100").display()
    '156 FLOP/B'

The public surface is the verbs and the records they return: ``load_catalog``, ``load_model_config``
(a Hugging Face ``config.json`` as a model preset, for ``solve(..., model=preset)``), ``solve``
(a target and its inputs, or a :class:`Question`), ``growth``, ``sweep``, ``check_claims``,
``sharding_plan`` and ``render_plan`` (a sharded matmul in the Scaling Book's notation),
``plan_training`` and ``plan_serving`` (the best parallel layout, searched over every layout),
``render_solution``, ``build_pdf`` and ``plot`` (write-ups and figures), ``load_problem``,
``solve_problem``, ``render_report`` and ``write_reports`` (problem files), ``render_source``
(live documents); the error classes are also in :mod:`derive.errors`. The subpackages (wings,
in the order data flows: storage, symbolic, records, catalog, engine, sweep and writeup, plot
sharding and planning, documents, cli) are the implementation. Heavy modules (SymPy, pint, Jinja)
load on first use, not at import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import (
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
    "Plan",
    "Question",
    "QuestionError",
    "ShardingPlan",
    "Solution",
    "Step",
    "SweepResult",
    "TemplateError",
    "TimeBudgetError",
    "UnitBalanceError",
    "UnitError",
    "UnknownNameError",
    "VerificationError",
    "build_pdf",
    "check_claims",
    "growth",
    "load_catalog",
    "load_model_config",
    "load_problem",
    "plan_serving",
    "plan_training",
    "plot",
    "render_plan",
    "render_report",
    "render_solution",
    "render_source",
    "sharding_plan",
    "solve",
    "solve_problem",
    "sweep",
    "write_reports",
]

_LAZY = {
    "check_claims": (".documents.claims", "check_claims"),
    "load_catalog": (".catalog.loader", "load_catalog"),
    "load_model_config": (".catalog.model_config", "load_model_config"),
    "solve": (".engine.solver", "solve"),
    "growth": (".engine.solver", "growth"),
    "Catalog": (".records.catalog", "Catalog"),
    "Question": (".records.question", "Question"),
    "Solution": (".records.solution", "Solution"),
    "Step": (".records.solution", "Step"),
    "ShardingPlan": (".sharding.matmul", "ShardingPlan"),
    "sharding_plan": (".sharding.matmul", "sharding_plan"),
    "render_solution": (".writeup.render", "render_solution"),
    "build_pdf": (".writeup.latex_build", "build_pdf"),
    "sweep": (".sweep.grid", "sweep"),
    "SweepResult": (".sweep.grid", "SweepResult"),
    "plot": (".plot.figures", "plot"),
    "load_problem": (".documents.problems", "load_problem"),
    "solve_problem": (".documents.problems", "solve_problem"),
    "write_reports": (".documents.report", "write_reports"),
    "render_report": (".documents.report", "render_report"),
    "render_source": (".documents.live", "render_source"),
    "render_plan": (".sharding.view", "render_plan"),
    "plan_training": (".planning.search", "plan_training"),
    "plan_serving": (".planning.search", "plan_serving"),
    "Plan": (".planning.search", "Plan"),
}

if TYPE_CHECKING:
    from .catalog.loader import load_catalog
    from .catalog.model_config import load_model_config
    from .documents.claims import check_claims
    from .documents.live import render_source
    from .documents.problems import load_problem, solve_problem
    from .documents.report import render_report, write_reports
    from .engine.solver import growth, solve
    from .planning.search import Plan, plan_serving, plan_training
    from .plot.figures import plot
    from .records.catalog import Catalog
    from .records.question import Question
    from .records.solution import Solution, Step
    from .sharding.matmul import ShardingPlan, sharding_plan
    from .sharding.view import render_plan
    from .sweep.grid import SweepResult, sweep
    from .writeup.latex_build import build_pdf
    from .writeup.render import render_solution


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
