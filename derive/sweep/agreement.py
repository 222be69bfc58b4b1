"""Whether a sweep's float is the engine's exact value: the one comparison the sweep's own check and
the sweep store's replay both make (a whole number exactly, anything else to 1e-12 relative)."""

from __future__ import annotations

from typing import Any


def kept_value(value: Any) -> dict[str, Any]:
    """An exact engine value as the store keeps it: a whole number exactly, else its float."""
    if value.is_Integer:
        return {"int": str(int(value))}
    return {"real": float(value.evalf(30))}


def agrees(want: dict[str, Any], got: float) -> bool:
    """Whether a sweep's float ``got`` is the engine's value ``want`` (:func:`kept_value`, or ``none``
    for no value): a whole number exactly, anything else to 1e-12 relative."""
    import math

    if want.get("none") is True:
        return math.isnan(got)
    if "int" in want:
        exact = int(want["int"])
        if abs(exact) < 2**53:
            return float(exact) == got
        w = float(exact)
    else:
        w = float(want["real"])
    return not math.isnan(got) and abs(w - got) <= 1e-12 * max(abs(w), abs(got))
