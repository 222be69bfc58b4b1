"""The catalog's entries: quantities, relations, conditions, presets, references and published examples.

These are plain frozen records built by the catalog's schema (:mod:`derive.catalog.schema`) from
the YAML files in ``formulas/``; the engine reads them and never changes them. The tables that
hold them are :class:`derive.records.catalog.Catalog`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Mapping

import sympy

from ..symbolic.expressions import Comparison
from ..symbolic.units import Dimension

if TYPE_CHECKING:
    from .question import Question

__all__ = ["Condition", "Example", "Preset", "PresetValue", "Quantity", "Reference", "Regime", "Relation", "Source",
           "Text"]


class _LazyExpressions:
    """Expressions kept as canonical text in the compiled cache and parsed on first use.

    A catalog of hundreds of relations loads from its cache in milliseconds: only
    the relations a question uses are turned back into SymPy objects. Subclasses
    name their lazily parsed attributes in ``_lazy``; each ``X`` is parsed from
    the field ``X_src`` (the text ``str()`` gives, which the whitelist parser reads
    back exactly; the loader checks that when it builds the cache).
    """

    _lazy: tuple[str, ...] = ()

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        for name in self._lazy:
            state.pop(name, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


def parse_canonical(text: str) -> sympy.Expr:
    """Parse a catalog expression's canonical text (written by the loader, :mod:`derive.catalog.formula_text`)."""
    from ..symbolic.expressions import parse_expression

    return parse_expression(text, _positive_symbol, "compiled expression")


class _LazySides(_LazyExpressions):
    """The two sides of an equation, parsed from ``lhs_src`` and ``rhs_src`` on first use."""

    lhs_src: str
    rhs_src: str

    @cached_property
    def lhs(self) -> sympy.Expr:
        return parse_canonical(self.lhs_src)

    @cached_property
    def rhs(self) -> sympy.Expr:
        return parse_canonical(self.rhs_src)


class _WrittenOrder:
    """The order the catalog's text writes each sum's terms and each product's factors in
    (:func:`derive.symbolic.expressions.written_order`), read from the canonical text on first use: a printer given
    these chains writes ``w + g + o`` as the catalog does, not in SymPy's order."""

    def _canonical_texts(self) -> tuple[str, ...]:
        raise NotImplementedError

    @cached_property
    def written(self) -> tuple[tuple[str, tuple[sympy.Expr, ...]], ...]:
        from ..symbolic.expressions import written_order

        chains: list[tuple[str, tuple[sympy.Expr, ...]]] = []
        for text in self._canonical_texts():
            chains.extend(c for c in written_order(text, _positive_symbol) if len(c[1]) > 1)
        return tuple(chains)


def _positive_symbol(name: str) -> sympy.Symbol:
    return sympy.Symbol(name, positive=True)


@dataclass(frozen=True)
class Text:
    """A short text in English and Chinese."""

    en: str
    zh: str

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True)
class Source:
    """Where an entry comes from: a reference id and a locator inside it (section, table, page)."""

    ref: str
    locator: str = ""

    def __str__(self) -> str:
        return f"{self.ref}, {self.locator}" if self.locator else self.ref


@dataclass(frozen=True)
class Reference:
    """A cited document: a datasheet, a paper, a book chapter, one of the seed chapters."""

    id: str
    title: str
    kind: str            # datasheet | paper | book | seed | derived | measured | estimate | convention
    url: str = ""
    note: str = ""
    title_zh: str = ""   # for a title written here (a convention, a derivation): its Chinese, or empty


@dataclass(frozen=True)
class Quantity:
    """A named physical or counted quantity with its unit and both languages' names."""

    id: str
    unit: str                # the declared unit, as written in the catalog
    dims: Dimension
    factor: sympy.Rational   # declared unit → base units
    integer: bool
    latex: str
    name: Text
    meaning: Text
    source: Source
    aliases: tuple[str, ...] = ()
    default: "PresetValue | None" = None
    minimum: sympy.Rational | None = None   # None: positive; else the least value allowed (min: 0 allows zero)
    minimum_text: str = ""
    file: str = ""
    line: int = 0

    @property
    def symbol(self) -> sympy.Symbol:
        return sympy.Symbol(self.id, positive=True)

    @property
    def base_unit(self) -> str:
        return self.dims.unit_string()


@dataclass(frozen=True)
class Regime(_WrittenOrder, _LazySides):
    """One branch of a non-smooth relation (a max or min): its equation holds when ``when`` does."""

    id: str
    name: Text
    lhs_src: str
    rhs_src: str
    when_src: tuple[str, str, str]      # lhs, op, rhs
    equation_text: str
    when_text: str

    _lazy = ("lhs", "rhs", "when", "written")

    def _canonical_texts(self) -> tuple[str, ...]:
        return (self.lhs_src, self.rhs_src, self.when_src[0], self.when_src[2])

    @cached_property
    def when(self) -> Comparison:
        left, op, right = self.when_src
        return Comparison(parse_canonical(left), op, parse_canonical(right))


@dataclass(frozen=True)
class Example:
    """A number a source publishes that a relation gives: the question that reproduces it, and the value."""

    question: "Question"
    expect: str                # as published, with its unit: "327680 B"
    source: Source
    tolerance: float | None = None
    file: str = ""
    line: int = 0


@dataclass(frozen=True)
class Relation(_WrittenOrder, _LazySides):
    """An equation ``lhs = rhs`` between quantities; solvable for any of its symbols."""

    id: str
    lhs_src: str
    rhs_src: str
    equation_text: str
    symbols: tuple[str, ...]
    name: Text
    meaning: Text
    source: Source
    regimes: tuple[Regime, ...] = ()
    defines: str | None = None             # the quantity on the left, when the left side is one symbol
    solvable: frozenset[str] = frozenset()  # symbols it can be solved for (not only inside ceil/floor)
    examples: tuple[Example, ...] = ()     # published numbers it gives, solved by the tests
    holds_when: tuple[str, ...] = ()       # conditions on the inputs under which it holds (its premises)
    file: str = ""
    line: int = 0

    _lazy = ("lhs", "rhs", "written")

    def _canonical_texts(self) -> tuple[str, ...]:
        return (self.lhs_src, self.rhs_src)

    @property
    def equation(self) -> sympy.Eq:
        return sympy.Eq(self.lhs, self.rhs, evaluate=False)


@dataclass(frozen=True)
class Condition(_WrittenOrder, _LazyExpressions):
    """A named inequality such as ``ffn_weight_bytes <= vmem_capacity``."""

    id: str
    comparison_src: tuple[str, str, str]   # lhs, op, rhs
    text: str
    symbols: tuple[str, ...]
    name: Text
    meaning: Text
    source: Source
    file: str = ""
    line: int = 0

    _lazy = ("comparison", "written")

    def _canonical_texts(self) -> tuple[str, ...]:
        return (self.comparison_src[0], self.comparison_src[2])

    @cached_property
    def comparison(self) -> Comparison:
        left, op, right = self.comparison_src
        return Comparison(parse_canonical(left), op, parse_canonical(right))


@dataclass(frozen=True)
class PresetValue:
    """One constant of a preset (or a quantity's default), with where it comes from."""

    quantity: str
    value: sympy.Rational | None   # in base units; None when it follows another quantity (same_as)
    text: str                 # as written, e.g. "3.35 TB/s"
    source: Source
    note: str = ""            # how the source counts it, in English
    same_as: str | None = None     # the quantity (or arithmetic of quantities) whose value this takes:
    #                                peak_flops_int8 in a precision preset, d_model / num_heads for head_dim
    note_zh: str = ""         # the note in Chinese (``note: {en, zh}`` in the catalog), or empty


@dataclass(frozen=True)
class Preset:
    """A named set of constants: a chip (``hw``), a model (``model``) or a setup (``setup``)."""

    id: str
    kind: str
    name: Text
    source: Source
    values: Mapping[str, PresetValue]
    note: str = ""
    extends: str = ""
    file: str = ""
    line: int = 0
    hw: str = ""          # a setup preset's chip (a TPU slice's tpu-v5e), taken when a question names none
