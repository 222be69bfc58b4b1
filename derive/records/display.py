"""How a :class:`~derive.Solution` shows itself: the one edge from the engine to the write-up layer.

The engine's records are data (``records/solution.py``); turning them into text is the renderer's
job (``writeup/present.py``, ``writeup/render.py``). These three conveniences, mixed into ``Solution``,
import the renderer only when called, so the engine never depends on it at import time.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SolutionDisplay"]


class SolutionDisplay:
    """``to_dict`` (the JSON of ``derive solve --format json``) and Jupyter's rich displays."""

    __slots__ = ()

    def to_dict(self, units: str = "si", lang: str = "en") -> dict[str, Any]:
        from ..writeup.present import solution_to_dict

        return solution_to_dict(self, units=units, lang=lang)   # type: ignore[arg-type]

    def _repr_markdown_(self) -> str:
        from ..writeup.render import render_solution

        return render_solution(self, "md", lang="en")

    def _repr_latex_(self) -> str:
        from ..writeup.render import render_solution

        return render_solution(self, "latex-fragment", lang="en")
