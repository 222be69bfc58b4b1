"""The solver's output: a :class:`Solution` and its trace of :class:`Step` records.

These are data, not text: exact SymPy values in base units and SymPy equations.
Turning them into words, LaTeX, Markdown or HTML is the renderer's job
(``writeup/present.py`` and the templates), so the solver never formats anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Literal

import sympy

from ..symbolic.units import Dimension, Formatted, NamedUnit, format_in, format_value
from .display import SolutionDisplay
from .entries import Source
from .overrides import Override

if TYPE_CHECKING:
    from ..symbolic.interval import Interval
    from .catalog import Catalog

__all__ = ["Check", "Fit", "Given", "Note", "Solution", "Step"]


@dataclass(frozen=True)
class Note:
    """A remark about an answer, as data: ``kind`` names a message in
    ``templates/messages.yaml`` and ``data`` fills its placeholders.

    Kinds: ``cancelled`` (names), ``several_solutions`` (name, values),
    ``override`` (relation, equation, preset_value, given_value),
    ``strict_bound`` (name), ``not_integer`` (name, value), ``unused_inputs`` (names, name: inputs
    the user gave that nothing on the way to the target reads), ``regime_inputs`` / ``regime_balanced``
    (names, relation, regime, sides: inputs that only choose a regime, or that change the answer too on
    its boundary), ``exact_beside_approximate`` (name, op, exact), ``preset_replaced(_all)`` (preset,
    later, names, kept), ``preset_differs`` (name, preset, preset_value: the target's own preset figure,
    beside the value derived instead), ``premise`` (relation, condition, values: a premise of a relation
    used, with the values and origins that decided it). A message may have a singular form,
    ``note_<kind>_one``, for one name.
    """

    kind: str
    data: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, kind: str, **data: Any) -> "Note":
        return cls(kind, tuple(sorted(data.items())))

    def get(self, key: str) -> Any:
        return dict(self.data)[key]

    def as_dict(self) -> dict[str, Any]:
        return dict(self.data)


@dataclass(frozen=True)
class Given:
    """An input value: typed by the user, taken from a preset, or a catalog default."""

    name: str
    value: sympy.Expr          # exact, base units (a formula for a default that follows a missing input)
    dims: Dimension
    text: str                  # as written ("3.35 TB/s")
    origin: str                # "given", "hw:a100", "model:llama2-70b", "setup:adam-mixed", "default"
    source: Source | None = None
    note: str = ""             # the preset's or default's note, in English
    note_zh: str = ""          # the same in Chinese, when the catalog gives it
    follows: sympy.Expr | None = None   # the quantities it is the same as (``same_as``: bytes_per_element)

    @property
    def unit(self) -> str:
        return self.dims.unit_string()

    @property
    def is_assumption(self) -> bool:
        return self.origin == "default"

    @property
    def is_formula(self) -> bool:
        """A default taken as the formula it follows, because what it follows is missing too
        (``head_dim = d_model / num_heads`` with ``num_heads`` unknown): ``value`` is that formula,
        in the quantities' symbols, and ``text`` the catalog's ``same_as``."""
        return not self.value.is_Number and bool(self.value.free_symbols)


@dataclass(frozen=True)
class Step:
    """One step of a derivation.

    ``kind`` is ``"relation"`` (one relation solved for one quantity),
    ``"system"`` (several relations solved together), ``"bound"`` (a condition
    turned into a bound on the target) or ``"round"`` (a bound rounded to an
    integer or a multiple).
    """

    kind: str
    relations: tuple[str, ...]            # relation or condition ids
    solved_for: tuple[str, ...]
    equations: tuple[sympy.Basic, ...]    # as written in the catalog (Eq or relational)
    solved: tuple[sympy.Eq, ...]          # unknown = expression of earlier quantities
    inputs: tuple[str, ...]               # quantities substituted in this step
    values: tuple[sympy.Expr | None, ...] # the value of each solved_for (exact, base units)
    dims: tuple[Dimension, ...]
    inverse: bool = False                 # solved for a symbol other than the relation's left side
    regime: str | None = None
    direction: str | None = None          # for a bound: "max" or "min"
    relation_op: str | None = None        # for a bound: "<=" or ">=" of the isolated inequality
    composed: tuple[sympy.Basic, ...] = ()  # for a bound: each condition in terms of the inputs and the target
    note: str = ""
    # for an optimum: the second derivative there, and the whole-number neighbours tried (x, objective(x))
    second: sympy.Expr | None = None
    candidates: tuple[tuple[sympy.Expr, sympy.Expr], ...] = ()
    balanced: bool = False                # a regime whose condition holds with equality: the regimes meet

    @property
    def relation(self) -> str:
        return self.relations[0]

    @property
    def value(self) -> sympy.Expr | None:
        return self.values[0] if self.values else None


@dataclass(frozen=True)
class Check:
    """A substitute-back check: one relation or condition evaluated at the answer."""

    kind: str            # "relation", "regime", "condition", "tight"
    name: str            # relation or condition id
    lhs: sympy.Expr
    rhs: sympy.Expr
    op: str              # "=", "<=", ">=", "<", ">"
    holds: bool
    at: str = ""         # for "tight": the value the condition was evaluated at
    expect: bool = True  # for "tight": whether the condition should hold there


@dataclass(frozen=True)
class Fit:
    """Whether the configuration an answer describes fits in its devices' memory, as data.

    ``condition`` is the catalog condition it evaluates (``fits`` for serving, ``fits_training`` for
    training); ``components`` pairs each part's quantity id (``sharded_weight_bytes``, ...) with its
    bytes per device, or None where the question's inputs do not give it. ``need`` is the sum of the
    parts known, ``have`` the device's capacity (None when no device memory is in the question).
    ``ok`` is None when neither a fit nor a misfit follows: capacity unknown, or the known parts fit
    and some part is unknown (a part is never negative, so known parts beyond capacity already fail).
    """

    kind: str                                              # "serving" or "training"
    condition: str
    ok: bool | None
    need: sympy.Expr | None                                # bytes per device, the parts known
    have: sympy.Expr | None                                # bytes per device
    components: tuple[tuple[str, sympy.Expr | None], ...]
    reserve: sympy.Expr | None = None                      # the reserve fraction used
    reserve_assumed: bool = False                          # the reserve is the catalog's default

    @property
    def unknown(self) -> tuple[str, ...]:
        return tuple(name for name, value in self.components if value is None)


@dataclass(frozen=True)
class Solution(SolutionDisplay):
    """The answer to one question, with everything needed to explain and check it.

    Its write-ups (``to_dict``, and the Markdown and LaTeX Jupyter shows) come from
    :class:`~derive.records.display.SolutionDisplay`, the one link from the engine to the renderer.
    """

    target: str
    value: sympy.Expr
    dims: Dimension
    formula: sympy.Expr                # the target in terms of the inputs' symbols
    exact: sympy.Expr                  # the exact value before rounding (== value without a bound)
    given: tuple[Given, ...]
    steps: tuple[Step, ...]
    relations_used: tuple[str, ...]
    checks: tuple[Check, ...]
    bound: str | None = None           # "max" or "min"
    require: tuple[str, ...] = ()
    multiple_of: int | None = None
    regime: str | None = None
    notes: tuple[Note, ...] = ()
    alternatives: tuple[sympy.Expr, ...] = ()
    cancelled: tuple[str, ...] = ()    # inputs that dropped out of the formula
    integer: bool = False              # the target is a whole number (a count)
    display_unit: NamedUnit | None = None  # the unit the question asked the answer in (days, GiB)
    interval: "Interval | None" = None     # every value a step function allows (value is its top end)
    optimize: str | None = None        # "min" or "max": the target makes `objective` least or greatest
    objective: str | None = None
    # how to weigh the memory the answer's configuration needs (the engine's, for a time, rate or cost of
    # one): called once, when `fits` is first read, so an answer nobody shows costs nothing more
    fit_source: "Callable[[Solution], Fit | None] | None" = field(default=None, repr=False, compare=False)
    catalog: "Catalog | None" = field(default=None, repr=False, compare=False)

    @cached_property
    def fits(self) -> Fit | None:
        """Whether the configuration the answer describes fits in its devices' memory; None where the
        answer describes none (a byte count, a chip's ratio) or its question gives no part of the memory."""
        return self.fit_source(self) if self.fit_source is not None else None

    def catalog_overrides(self) -> list[Override]:
        """The user's catalog entries that replaced built-in ones in this answer (its override notes)."""
        return [Override(n.get("what")["en"], n.get("id"), n.get("file"), n.get("replaced"))
                for n in self.notes if n.kind == "catalog_override"]

    @property
    def unit(self) -> str:
        """The base unit of the value: ``B``, ``FLOP``, ``s``, ``B/s``, ``FLOP/s``, ``FLOP/B``, ``1``."""
        return self.dims.unit_string()

    @property
    def float(self) -> float:
        return float(self.value.evalf(30))

    def formatted(self, units: str = "si") -> Formatted:
        """The value for a reader; a value that is not whole keeps its fraction (15,728.64, never 15,729);
        a bound's figures are cut towards its inside (a largest value down, a smallest up), and a count
        prints in full (46,702,792,704)."""
        digits = 4
        direction = self.rounding_direction
        if self.display_unit is not None:
            return format_in(self.value, self.display_unit, digits, direction)
        return format_value(self.value, self.dims, units, digits, direction, count=self.integer)

    @property
    def rounding_direction(self) -> "Literal['down', 'up'] | None":
        """How a printed bound rounds: down for a largest value, up for a smallest, else to nearest."""
        return "down" if self.bound == "max" else "up" if self.bound == "min" else None

    def display(self, units: str = "si") -> str:
        return self.formatted(units).text

    def reduced_formula(self) -> sympy.Expr:
        """The formula with assumed and setup constants that are pure numbers put in: ``F·b/(2·W)`` keeps
        ``b`` (1 byte per weight: put in as the number 1, the line would read F/(2·W), in FLOP/B, for a
        batch size), while a count (2 matrices, 4 of d_ff = 4·d_model) becomes its number. A value a
        setup takes from another quantity (fp8's ``peak_flops``, the chip's FP8 peak) is no constant of
        the setup: it stays a symbol, as the chip's own figures do."""
        subs = {sympy.Symbol(g.name, positive=True): g.value for g in self.given
                if g.dims.is_dimensionless and not g.is_formula
                and (g.origin == "default" or (g.origin.startswith("setup:") and not self._followed(g)))}
        return self.formula.xreplace(subs) if subs else self.formula

    def _followed(self, g: Given) -> bool:
        """Whether the setup value ``g`` is one its preset takes from another quantity (``same_as``)."""
        presets = self.catalog.presets if self.catalog is not None else {}
        preset = presets.get(g.origin.partition(":")[2])
        pv = preset.values.get(g.name) if preset is not None else None
        return pv is not None and pv.same_as is not None

    @property
    def assumptions(self) -> tuple[Given, ...]:
        return tuple(g for g in self.given if g.is_assumption)

    def __str__(self) -> str:
        return f"{self.target} = {self.display()}"
