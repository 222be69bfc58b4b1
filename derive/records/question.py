"""A question to the engine as one value: what to find, from which inputs, under which conditions.

Every way of asking builds a :class:`Question` (the Python API, the CLI, problem files,
claims files, live sources, sweeps, plots) and the engine takes only that. Its fields are
checked once, when it is made; the checks that need the catalog (do the names exist?) are
made by :meth:`Question.resolve`. Errors about a field are :class:`QuestionError`\\ s that name
the field in backticks (`require`); the CLI shows the matching flag (``--require``) instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..errors import QuestionError

if TYPE_CHECKING:
    from ..symbolic.asymptotic import Assumption

__all__ = ["BOUNDS", "FILE_FIELDS", "OPTIONS", "Question", "QuestionError", "is_inequality"]

# A question's options beside its target and inputs: :meth:`Question.of`'s keywords, as a live
# source's ``q(...)`` takes them. The one list of a question's fields: problem files, claims files
# and live sources read it, so a new field of a question reaches all three.
OPTIONS = ("hw", "model", "presets", "bound", "require", "multiple_of", "rounding", "unit", "assume", "minimize",
           "maximize")
# the same fields as a problem or claims file writes them: ``solve:`` names the target, ``round:`` is rounding
FILE_FIELDS = ("solve", "given", *("round" if o == "rounding" else o for o in OPTIONS))

BOUNDS = ("max", "min")
_INEQUALITY = re.compile(r"<=|>=|<|>")


def is_inequality(text: str) -> bool:
    """Whether a ``require`` entry is an inequality written inline rather than a condition id."""
    return bool(_INEQUALITY.search(text))


def _names(value: Any, field_name: str) -> tuple[str, ...]:
    """A list of names given as one name, a list or a tuple."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,) if value else ()
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise QuestionError(f"`{field_name}` is a name or a list of names, not {value!r}", name=field_name)


def _optional_name(value: Any, field_name: str) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise QuestionError(f"`{field_name}` is a name, not {value!r}", name=field_name)
    return value


def _assumptions(value: Any) -> tuple[str, ...]:
    """``assume`` as a tuple of texts, each checked for its form (``small << large``)."""
    texts = _names(value, "assume") if not isinstance(value, str) else ((value,) if value else ())
    for text in texts:
        from ..symbolic.asymptotic import parse_assumption  # SymPy: loaded when a question assumes

        parse_assumption(text)
    return texts


def _given_pairs(given: Mapping[str, Any] | Sequence[tuple[str, Any]] | None) -> tuple[tuple[str, Any], ...]:
    if given is None:
        return ()
    items = list(given.items()) if isinstance(given, Mapping) else list(given)
    pairs = []
    for item in items:
        if not isinstance(item, tuple) or len(item) != 2 or not isinstance(item[0], str):
            raise QuestionError(f"`given` maps quantity names to values, not {given!r}", name="given")
        name, value = item
        if not isinstance(value, (str, int, float, Fraction)) and not _is_exact_number(value):
            raise QuestionError(f"`given` value of {name} must be a number or text such as '3.35 TB/s', "
                                f"not {type(value).__name__}", name="given")
        pairs.append((name, value))
    names = [n for n, _ in pairs]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise QuestionError(f"`given` names {', '.join(twice)} twice; give each once", name="given")
    return tuple(pairs)


def _is_exact_number(value: Any) -> bool:
    """A SymPy number without free symbols: a fraction, or an exact value ``solve()`` returned (2·√3, a sum
    with a power); whether it is real and in range is checked with the quantity (``coerce_given``)."""
    return getattr(value, "is_number", False) is True and not getattr(value, "free_symbols", True)


@dataclass(frozen=True)
class Question:
    """What to find (``target``) from which inputs and presets, as a bound or not.

    ``given`` holds the inputs as typed (``"3.35 TB/s"``, or a number in the quantity's declared
    unit), in order. ``bound`` is ``"max"`` or ``"min"`` and needs ``require``: condition ids whose
    largest or smallest satisfying ``target`` is asked for; ``multiple_of`` rounds that bound.
    Without ``bound``, ``require`` lists conditions the answer must satisfy. ``optimize`` is ``"min"``
    or ``"max"`` with an ``objective`` quantity: the value of ``target`` that makes the objective least
    or greatest, every other input held fixed (``multiple_of`` then rounds it to the better neighbour).
    """

    target: str
    given: tuple[tuple[str, Any], ...] = ()
    hw: str | None = None
    model: str | None = None
    presets: tuple[str, ...] = ()
    bound: str | None = None
    require: tuple[str, ...] = ()
    multiple_of: int | None = None
    rounding: bool = True               # False: a bound on a whole number stays exact (how many chips, as a fraction)
    unit: str | None = None             # show the answer in this unit (days, GiB, PFLOP/s); the value is unchanged
    assume: tuple[str, ...] = ()        # "batch << d_model, d_ff": answer with the leading term
    optimize: str | None = None         # "min" or "max": the target that makes `objective` least or greatest
    objective: str | None = None
    shared: tuple[str, ...] = ()        # inputs given for a whole problem: not reported as unused by one question

    @classmethod
    def of(cls, target: str, given: Mapping[str, Any] | Sequence[tuple[str, Any]] | None = None, *,
           hw: str | None = None, model: str | None = None, presets: Sequence[str] | str | None = (),
           bound: str | None = None, require: Sequence[str] | str | None = (),
           multiple_of: int | None = None, rounding: bool = True, unit: str | None = None,
           assume: Sequence[str] | str | None = (), minimize: str | None = None,
           maximize: str | None = None, shared: Sequence[str] = ()) -> "Question":
        """Build and check a question from the values a caller has at hand."""
        if not isinstance(target, str) or not target:
            raise QuestionError(f"`target` is a quantity name, not {target!r}", name="target")
        if not isinstance(rounding, bool):
            raise QuestionError(f"`rounding` is True or False, not {rounding!r}", name="rounding")
        if minimize and maximize:
            raise QuestionError("give `minimize` or `maximize`, not both", name="minimize")
        objective = _optional_name(minimize, "minimize") or _optional_name(maximize, "maximize")
        optimize = ("min" if minimize else "max") if objective else None
        return cls(target, _given_pairs(given), _optional_name(hw, "hw"), _optional_name(model, "model"),
                   _names(presets, "presets"), bound, _names(require, "require"), multiple_of, rounding,
                   _optional_name(unit, "unit"), _assumptions(assume), optimize, objective,
                   _names(shared, "shared"))

    def __post_init__(self) -> None:
        if self.bound not in (None, *BOUNDS):
            raise QuestionError(f"`bound` is 'max' or 'min', not {self.bound!r}", name="bound")
        if self.multiple_of is not None:
            m = self.multiple_of
            if isinstance(m, bool) or not isinstance(m, int) or m <= 0:
                raise QuestionError(f"`multiple_of` must be a positive whole number, not {m!r}", name="multiple_of")
            if not self.bound and not self.optimize:
                raise QuestionError("`multiple_of` rounds a bound or an optimum: use it with `bound`, `minimize` "
                                    "or `maximize`", name="multiple_of")
            if not self.rounding:
                raise QuestionError("`multiple_of` rounds a bound and `rounding` off keeps it exact: give one of them",
                                    name="rounding")

        if (self.optimize is None) != (self.objective is None) or self.optimize not in (None, "min", "max"):
            raise QuestionError("an optimum needs `minimize` or `maximize` with the quantity to optimise",
                                name="minimize")
        if self.optimize and (self.bound or self.require or self.assume):
            raise QuestionError("`minimize`/`maximize` chooses the target that optimises a quantity: give it "
                                "without `bound`, `require` or `assume`", name="minimize")

    # -- views --------------------------------------------------------------
    @property
    def given_map(self) -> dict[str, Any]:
        return dict(self.given)

    def key(self) -> tuple:
        """A hashable identity of the question (its inputs as typed), for memo tables."""
        # a value by its type and itself (an exact SymPy number solve() returned may be too long to print)
        return (self.target, tuple((n, v if isinstance(v, str) else (type(v).__name__, v)) for n, v in self.given),
                self.hw, self.model, self.presets, self.bound, self.require, self.multiple_of, self.rounding,
                self.unit, self.assume, self.optimize, self.objective, self.shared)

    def with_given(self, **values: Any) -> "Question":
        """The same question with some inputs added or replaced."""
        merged = dict(self.given)
        merged.update(values)
        return replace(self, given=_given_pairs(merged))

    @property
    def assumptions(self) -> tuple["Assumption", ...]:
        """The ``assume`` texts, parsed."""
        from ..symbolic.asymptotic import parse_assumption

        return tuple(parse_assumption(text) for text in self.assume)
