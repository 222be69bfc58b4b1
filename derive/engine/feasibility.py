"""Whether an answer's configuration fits in device memory: the :class:`~derive.records.solution.Fit` of a
time, rate, throughput, utilisation or cost.

An answer that describes a configuration running on devices (a decode step's time, a training run's
cost) is only meaningful where the configuration fits. After such an answer the engine asks the catalog
for each part of the memory one device needs (``formulas/device_memory.yaml``) with the question's own
inputs and presets, and compares their sum with the device's capacity, as the condition ``fits``
(serving: weights, KV cache, reserve) or ``fits_training`` (weights, gradients, optimizer state,
activations, reserve) does. A part the inputs do not give is listed as unknown, never guessed.

Which answers: a target measured in time, per time, FLOP per time or money, or a ratio whose own
relation reads one (MFU, MBU); of a serving question (a relation of ``inference``, ``serving`` or
``kv_cache`` on its way) or a training one (a relation of ``training_compute``, ``training_scale`` or
``training_energy``: training's time, throughput, cost). A training relation on the way makes it a
training question; ``training_memory``'s weight bytes serve both and decide nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import sympy

from ..errors import DeriveError
from ..records.catalog import Catalog
from ..records.question import Question
from ..records.solution import Fit, Solution
from ..symbolic.dimensions import Dimension
from ..symbolic.exact import holds

__all__ = ["COMPONENTS", "fit_of", "kind_of"]

# each kind's condition and its parts, in the order the verdict lists them
COMPONENTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "serving": ("fits", ("sharded_weight_bytes", "sharded_kv_cache_bytes", "memory_reserve_bytes")),
    "training": ("fits_training", ("sharded_weight_bytes", "sharded_grad_bytes", "sharded_optimizer_bytes",
                                   "sharded_activation_bytes", "memory_reserve_bytes")),
}
_SERVING_FILES = frozenset({"inference", "serving", "kv_cache", "serving_cost", "paged_kv"})
# the files of training's time, throughput, cost and energy (training_memory's weight bytes serve both)
_TRAINING_FILES = frozenset({"training_compute", "training_scale", "training_energy"})
_CAPACITY = "hbm_capacity"
_RESERVE = "memory_reserve"
_RESERVE_BYTES = "memory_reserve_bytes"


def _runs_on_devices(dims: Dimension) -> bool:
    """A time (s), a rate (1/s, tokens/s), a FLOP rate (FLOP/s) or an amount of money."""
    exps = dims.as_dict()
    if "[currency]" in exps:
        return True
    return exps.get("[time]", 0) != 0 and set(exps) <= {"[time]", "[compute]"}


def _describes_configuration(catalog: Catalog, target: str) -> bool:
    dims = catalog.quantities[target].dims
    if _runs_on_devices(dims):
        return True
    if not dims.is_dimensionless:
        return False
    # a ratio of what a configuration achieves (MFU, MBU): its own relation reads a time or a rate
    own = catalog.relations.get(target)
    return own is not None and own.defines == target and \
        any(_runs_on_devices(catalog.quantities[s].dims) for s in own.symbols if s != target)


def kind_of(catalog: Catalog, solution: Solution) -> str | None:
    """``"training"``, ``"serving"`` or None (no memory verdict) for an answer, from its target's dimension
    and the catalog files of the relations it used."""
    if solution.bound or solution.optimize or not _describes_configuration(catalog, solution.target):
        return None
    # the relation that defines the answer says first (a prefill's time is serving, though it counts
    # FLOPs per token with training's relations); else any training relation on the way decides
    own = next((catalog.relations[r] for r in solution.relations_used
                if r in catalog.relations and catalog.relations[r].defines == solution.target), None)
    if own is not None:
        stem = Path(own.file).stem
        if stem in _SERVING_FILES:
            return "serving"
        if stem in _TRAINING_FILES:
            return "training"
    files = {Path(catalog.relations[r].file).stem for r in solution.relations_used if r in catalog.relations}
    if files & _TRAINING_FILES:
        return "training"
    if files & _SERVING_FILES:
        return "serving"
    return None


def fit_of(catalog: Catalog, question: Question, solution: Solution,
           answer: Callable[[Question], Solution]) -> Fit | None:
    """The memory verdict of ``solution``: each part solved by ``answer`` (the engine's ``solve``) from the
    question's inputs and presets. None where the answer describes no configuration, or where the
    question gives no part of the memory the model needs (the reserve alone says nothing)."""
    kind = kind_of(catalog, solution)
    if kind is None:
        return None
    condition, parts = COMPONENTS[kind]

    def value(name: str) -> Solution | None:
        try:
            return answer(Question.of(name, question.given, hw=question.hw, model=question.model,
                                      presets=question.presets))
        except DeriveError:
            return None

    capacity = value(_CAPACITY)
    have = capacity.value if capacity is not None else None
    components: list[tuple[str, sympy.Expr | None]] = []
    reserve: sympy.Expr | None = None
    reserve_assumed = False
    for part in parts:
        found = value(part)
        components.append((part, found.value if found is not None else None))
        if part == _RESERVE_BYTES and found is not None:
            used = next((g for g in found.given if g.name == _RESERVE), None)
            if used is not None:
                reserve, reserve_assumed = used.value, used.is_assumption
    if all(v is None for name, v in components if name != _RESERVE_BYTES):
        return None               # nothing of the model's memory in the question: nothing to weigh
    known = [v for _, v in components if v is not None]
    need = sympy.Add(*known) if known else None
    ok: bool | None = None
    if have is not None and need is not None:
        if len(known) == len(components):
            ok = holds("<=", need, have)
        elif not holds("<=", need, have):
            ok = False            # the parts known already exceed it; the rest only add
    return Fit(kind, condition, ok, need, have, tuple(components), reserve, reserve_assumed)
