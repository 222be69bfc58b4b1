"""The compiled catalog as JSON: records in, records out, nothing else.

The loader caches a built :class:`~derive.records.entries.Catalog` between runs. The cache is
JSON over an allow-list of record types (:func:`record_types`), not pickle: decoding an
entry can only make these records, tuples, sets, fractions and exact numbers, so a
planted cache file cannot run code; anything else in it is a :class:`ValueError` and the
catalog is rebuilt from its sources. Expressions travel as the canonical text the
whitelist parser reads back (see ``records.catalog._LazyExpressions``).

Encoding: a record is ``{"$r": type name, "state": {...}}`` (its ``__getstate__``), a
tuple ``{"$t": [...]}``, a frozenset ``{"$s": [...]}``, a dict ``{"$d": [[key, value], ...]}``,
a :class:`~fractions.Fraction` ``{"$f": [n, d]}`` and a SymPy rational ``{"$q": [p, q]}``.
A record equal to one written before is ``{"$ref": n}``, the n-th record written (counted as
each one is completed, children first: the order in which the JSON parser completes them), so
the 1,900 copies of a few hundred sources are read once.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

__all__ = ["decode", "encode", "loads", "record_types"]


def record_types() -> dict[str, type]:
    """The record types a cache may contain, by name (a function: the model imports SymPy)."""
    from ..records.catalog import Catalog
    from ..records.entries import (
        Condition,
        Example,
        Preset,
        PresetValue,
        Quantity,
        Reference,
        Regime,
        Relation,
        Source,
        Text,
    )
    from ..records.overrides import Override
    from ..records.question import Question
    from ..symbolic.units import Dimension

    kinds: list[type] = [Catalog, Condition, Example, Override, Preset, PresetValue, Quantity, Reference, Regime,
                         Relation, Source, Text, Question, Dimension]
    return {k.__name__: k for k in kinds}


def encode(value: Any, *, share: bool = True) -> Any:
    """``value`` as JSON-able data; a :class:`TypeError` for anything outside the allow-list. With
    ``share``, a record equal to one written before is written as a reference to it (for one large
    value with many repeated records); without, every record is written out (faster, for small values)."""
    return _Encoder(record_types(), share).encode(value)


def decode(data: Any) -> Any:
    """The value :func:`encode` gave ``data`` for; a :class:`ValueError` for anything else."""
    return _Decoder(record_types()).decode(data)


def loads(text: str | bytes) -> Any:
    """:func:`decode` of a JSON text (or its UTF-8 bytes), in one pass (the JSON parser calls the decoder
    per object)."""
    import json

    hook = _Decoder(record_types()).hook
    return json.loads(text, object_hook=hook)


class _Encoder:
    def __init__(self, types: dict[str, type], share: bool = True) -> None:
        self.types = types
        self.share = share
        self.written: dict[str, int] = {}     # a record's encoding -> its number

    def encode(self, value: Any) -> Any:
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, int):
            return value
        if isinstance(value, float):
            return value
        if isinstance(value, Fraction):
            return {"$f": [value.numerator, value.denominator]}
        if isinstance(value, tuple):
            return {"$t": [self.encode(v) for v in value]}
        if isinstance(value, frozenset):
            # a stable order, chosen before the items are written so that records inside are numbered
            # in the order they are read back
            order = sorted(value, key=lambda v: json.dumps(_Encoder(self.types, self.share).encode(v), sort_keys=True))
            return {"$s": [self.encode(v) for v in order]}
        if isinstance(value, dict):
            return {"$d": [[self.encode(k), self.encode(v)] for k, v in value.items()]}
        name = type(value).__name__
        if self.types.get(name) is type(value):
            state = value.__getstate__()  # type: ignore[attr-defined]
            if not isinstance(state, dict):
                raise TypeError(f"{name} has no state dictionary")
            encoded = {"$r": name, "state": {k: self.encode(v) for k, v in state.items()}}
            if not self.share:
                return encoded
            text = json.dumps(encoded, sort_keys=True)
            number = self.written.get(text)
            if number is not None:
                return {"$ref": number}
            self.written[text] = len(self.written)
            return encoded
        import sympy

        if isinstance(value, sympy.Rational):
            return {"$q": [int(value.p), int(value.q)]}
        raise TypeError(f"cannot store a {type(value).__name__} in the catalog cache")


class _Decoder:
    def __init__(self, types: dict[str, type]) -> None:
        self.types = types
        self.records: list[Any] = []          # every record read so far, in order, for "$ref"

    def hook(self, data: dict) -> Any:
        """One JSON object, its members already decoded (``json.loads(object_hook=...)``).

        An object without a tag this module writes is a record's fields and passes through as
        a mapping of data (which can make nothing but data)."""
        if "$r" in data:
            if len(data) != 2:
                raise ValueError("not a cache value")
            return self._record(data["$r"], data.get("state"))
        if len(data) != 1:
            return data
        if "$ref" in data:
            return self._reference(data["$ref"])
        tag = next(iter(data))
        if tag[:1] != "$":
            return data
        body = data[tag]
        if tag == "$t":
            return tuple(self._items(body))
        if tag == "$s":
            return frozenset(self._items(body))
        if tag == "$d":
            out = {}
            for pair in self._items(body):
                if not isinstance(pair, list) or len(pair) != 2:
                    raise ValueError("a dict entry is not a pair")
                out[pair[0]] = pair[1]
            return out
        if tag == "$f":
            n, d = self._pair(body)
            return Fraction(n, d)
        if tag == "$q":
            import sympy

            p, q = self._pair(body)
            return sympy.Rational(p, q)
        raise ValueError(f"unknown tag {tag!r}")

    def _record(self, name: Any, fields: Any) -> Any:
        kind = self.types.get(name) if isinstance(name, str) else None
        if kind is None or not isinstance(fields, dict):
            raise ValueError(f"unknown record type {name!r}")
        if "__dict__" in fields or "__class__" in fields:
            raise ValueError("a record field name is not plain")
        obj: Any = object.__new__(kind)
        setstate = getattr(obj, "__setstate__", None)
        if setstate is not None:
            setstate(fields)
        else:
            obj.__dict__.update(fields)
        self.records.append(obj)
        return obj

    def _reference(self, number: Any) -> Any:
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < len(self.records):
            raise ValueError("a reference to no record read before")
        return self.records[number]

    def decode(self, data: Any) -> Any:
        if data is None or isinstance(data, (bool, str, int, float)):
            return data
        if isinstance(data, list):
            raise ValueError("a bare list is not part of the cache format")
        if not isinstance(data, dict) or len(data) not in (1, 2):
            raise ValueError("not a cache value")
        if "$t" in data:
            return tuple(self.decode(v) for v in self._items(data["$t"]))
        if "$s" in data:
            return frozenset(self.decode(v) for v in self._items(data["$s"]))
        if "$d" in data:
            out = {}
            for pair in self._items(data["$d"]):
                if not isinstance(pair, list) or len(pair) != 2:
                    raise ValueError("a dict entry is not a pair")
                out[self.decode(pair[0])] = self.decode(pair[1])
            return out
        if "$f" in data:
            n, d = self._pair(data["$f"])
            return Fraction(n, d)
        if "$q" in data:
            import sympy

            p, q = self._pair(data["$q"])
            return sympy.Rational(p, q)
        if "$ref" in data:
            return self._reference(data["$ref"])
        if "$r" in data:
            state = data.get("state")
            if not isinstance(state, dict):
                raise ValueError(f"unknown record type {data['$r']!r}")
            return self._record(data["$r"], {k: self.decode(v) for k, v in state.items()})
        raise ValueError("not a cache value")

    @staticmethod
    def _items(data: Any) -> list[Any]:
        if not isinstance(data, list):
            raise ValueError("expected a list")
        return data

    @staticmethod
    def _pair(data: Any) -> tuple[int, int]:
        if (not isinstance(data, list) or len(data) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in data) or data[1] == 0):
            raise ValueError("expected two whole numbers")
        return data[0], data[1]
