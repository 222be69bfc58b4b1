"""What a plan is asked about: the catalog, the presets and the typed inputs, and their numbers.

A search reads a few numbers before it evaluates anything (the devices, the global batch, the
model's layer and head counts, the chip's links). They are read as the engine reads them: a typed
value first, then the setup presets, the model, the hardware, and last the quantity's default.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..errors import InputError

if TYPE_CHECKING:  # pragma: no cover
    from ..records.catalog import Catalog
    from ..records.entries import Preset

__all__ = ["PlanInputs"]


@dataclass
class PlanInputs:
    """A plan's question: hardware, model and setup presets, typed inputs (name → text or number)."""

    catalog: "Catalog"
    hw: str | None
    model: str | None
    presets: tuple[str, ...]
    given: dict[str, Any]
    assumed: dict[str, dict[str, str]] = field(default_factory=dict)   # name -> {en, zh}: what the plan chose

    def assume(self, name: str, **fields: Any) -> None:
        """Record that the plan chose ``name`` itself, in both languages (``plan_assumed_<name>`` in
        ``templates/messages-plan.yaml``, its placeholders filled from ``fields``)."""
        from ..writeup.render import message_table

        text = message_table()[f"plan_assumed_{name}"]
        self.assumed[name] = {lang: text[lang].format(**fields) for lang in ("en", "zh")}

    @classmethod
    def of(cls, given: Mapping[str, Any] | None, *, hw: str | None, model: "str | Preset | None",
           presets: Sequence[str], catalog: "Catalog | None") -> "PlanInputs":
        from ..engine.solver import with_model

        catalog, model_id = with_model(catalog, model)
        if catalog is None:
            from ..catalog.loader import load_catalog

            catalog = load_catalog()
        named: dict[str, Any] = {}
        for key, value in (given or {}).items():
            q = catalog.quantity(str(key))
            if q.id in named:
                raise InputError(f"{q.id} is given twice (also as an alias); give it once")
            named[q.id] = value
        if hw is not None:
            catalog.preset(hw, "hw")
        if model_id is not None:
            catalog.preset(model_id, "model")
        for p in presets:
            catalog.preset(p, "setup")
        return cls(catalog, hw, model_id, tuple(presets), named)

    def _preset_chain(self) -> list["Preset"]:
        chain = [self.catalog.preset(p, "setup") for p in reversed(self.presets)]
        if self.model is not None:
            chain.append(self.catalog.preset(self.model, "model"))
        if self.hw is not None:
            chain.append(self.catalog.preset(self.hw, "hw"))
        return chain

    def number(self, name: str) -> float | None:
        """``name``'s value in base units as the engine would take it, or None where nothing gives it."""
        from ..catalog.values import parse_value

        q = self.catalog.quantity(name)
        if q.id in self.given:
            value = self.given[q.id]
            if isinstance(value, bool):
                raise InputError(f"{q.id} must be a number or a value with a unit, not {value!r}")
            if isinstance(value, (int, float)):
                return float(value) * float(q.factor)
            return float(parse_value(str(value), q, self.catalog.units))
        for preset in self._preset_chain():
            pv = preset.values.get(q.id)
            if pv is not None and pv.value is not None:
                return float(pv.value)
            if pv is not None and pv.same_as is not None and pv.same_as in self.catalog.quantities:
                return self.number(pv.same_as)
        if q.default is not None and q.default.value is not None:
            return float(q.default.value)
        return None

    def whole(self, name: str, why: str) -> int:
        """A count the search needs: refused in one line when nothing gives it or it is not whole."""
        value = self.number(name)
        if value is None:
            raise InputError(f"a plan needs {name} ({why}); give {name}=... or a preset that has it")
        if not math.isfinite(value) or value != int(value) or value < 1:
            raise InputError(f"{name} is a positive whole number, not {value:g}")
        return int(value)

    def needs(self, name: str, why: str) -> float:
        value = self.number(name)
        if value is None:
            raise InputError(f"a plan needs {name} ({why}); give {name}=... or a preset that has it")
        return value

    def fixed_given(self, drop: Sequence[str]) -> dict[str, Any]:
        """The typed inputs the layout relations take as they are (the search's own axes left out)."""
        return {k: v for k, v in self.given.items() if k not in drop}
