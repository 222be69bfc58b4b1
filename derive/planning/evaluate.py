"""Catalog quantities evaluated over a table of layouts: SymPy once per quantity, then NumPy.

Each quantity is a sweep over the layouts' columns paired one to one (``grid="zip"``): the engine
solves it once, exactly, at the first layout, and the answer's formula (its ``max``/``min`` regimes
included) runs on whole arrays. The layout relations' premises (expert parallelism used or not)
choose relations, so the caller evaluates the layouts on each side of a premise as separate groups.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from ..records.catalog import Catalog

__all__ = ["evaluate"]


def evaluate(quantities: Sequence[str], axes: Mapping[str, "np.ndarray"], given: Mapping[str, Any], *,
             hw: str | None, model: str | None, presets: Sequence[str], catalog: "Catalog",
             verify: int = 0) -> dict[str, "np.ndarray"]:
    """``{quantity: values}`` over the layouts (one value per row of ``axes``), base units, NaN where none."""
    import numpy as np

    from ..sweep.grid import sweep

    size = int(next(iter(axes.values())).size)
    if size == 0:
        return {q: np.empty(0) for q in quantities}
    out: dict[str, np.ndarray] = {}
    for name in quantities:
        result = sweep(name, dict(axes), dict(given), hw=hw, model=model, presets=list(presets), grid="zip",
                       verify=verify, catalog=catalog)
        out[name] = np.asarray(result.values, dtype=np.float64).reshape(size)
    return out
