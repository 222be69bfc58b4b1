"""Whether a sweep's float is the engine's exact value: the one comparison the sweep's own check and
the sweep store's replay both make (to 1e-12 relative: float64 arithmetic over a few operations)."""

from __future__ import annotations

from typing import Any


def kept_value(value: Any) -> dict[str, Any]:
    """An exact engine value as the store keeps it: a whole number exactly, else its float."""
    if value.is_Integer:
        return {"int": str(int(value))}
    return {"real": float(value.evalf(30))}


def agrees(want: dict[str, Any], got: float) -> bool:
    """Whether a sweep's float ``got`` is the engine's value ``want`` (:func:`kept_value`, or ``none``
    for no value), to 1e-12 relative. A whole number is held to the same rule: 800e9 B/s into
    400 TFLOP/s is 500 exactly, and float64 division may give 499.99999999999994; that is float
    noise, not a disagreement (a count is rounded to its whole number where it is written)."""
    import math

    if want.get("none") is True:
        return math.isnan(got)
    w = float(int(want["int"])) if "int" in want else float(want["real"])
    return not math.isnan(got) and abs(w - got) <= 1e-12 * max(abs(w), abs(got))
