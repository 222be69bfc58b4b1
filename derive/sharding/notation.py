"""Read the Scaling Book's sharding notation: ``A[I_X, J] · B[J, K_Y] -> C[I_X, K_Y]``.

One job: turn the text of a sharded matmul into :class:`ShardedArray` records and check it
against the mesh. Nothing is evaluated: a small tokenizer with a whitelist of characters and a
recursive-descent reader for the grammar below; every mistake is a one-line
:class:`~derive.InputError` that says where and what to write instead.

Grammar::

    matmul    := array PRODUCT ['_' NAME] array [ARROW array]
    array     := NAME '[' dim (',' dim)* ']' ['{' 'U' '_' axes '}']
    dim       := NAME ['_' axes]
    axes      := NAME | '{' NAME (',' NAME)* '}'
    PRODUCT   := '*' | '@' | 'x' | '·' | '⋅' | '×'
    ARROW     := '->' | '→'

A subscript ``XY`` is one mesh axis when the mesh has an axis of that name, else one axis per
letter (``I_XY`` is I sharded over X and Y); braces name axes of several letters
(``I_{data,model}``). ``·_J`` names the contracting dimension, as the book's ``·_D`` does;
otherwise it is the one dimension both operands name. ``{U_X}`` marks an output left unreduced
(partial sums) over X.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping, Sequence

from ..errors import InputError

__all__ = ["Dim", "ShardedArray", "ShardedMatmul", "parse_matmul"]

MAX_TEXT = 500          # characters of notation accepted
EXAMPLE = "A[I_X, J] * B[J, K_Y]"

_TOKEN = re.compile(r"\s*(?:(?P<name>[A-Za-z][A-Za-z0-9]*)|(?P<arrow>->|→)|(?P<product>[*@·⋅×])"
                    r"|(?P<punct>[\[\],_{}]))")


@dataclass(frozen=True)
class Dim:
    """One dimension of an array and the mesh axes that shard it, in order (``I_XY``: I over X then Y)."""

    name: str
    axes: tuple[str, ...] = ()

    def text(self) -> str:
        """``I_XY``, ``J``, or ``I_{data,model}`` when an axis name is longer than a letter."""
        if not self.axes:
            return self.name
        if all(len(a) == 1 for a in self.axes):
            return f"{self.name}_{''.join(self.axes)}"
        return f"{self.name}_{{{','.join(self.axes)}}}"


@dataclass(frozen=True)
class ShardedArray:
    """An array in sharding notation: its name, its dimensions with their axes, and the axes it is
    unreduced over (partial sums, the book's ``{U_X}``)."""

    name: str
    dims: tuple[Dim, ...]
    unreduced: tuple[str, ...] = ()

    def text(self) -> str:
        """``A[I_X, J]``, ``C[I, K]{U_X}``."""
        out = f"{self.name}[{', '.join(d.text() for d in self.dims)}]"
        if self.unreduced:
            out += "{" + Dim("U", self.unreduced).text() + "}"
        return out

    def dim(self, name: str) -> Dim:
        return next(d for d in self.dims if d.name == name)

    @property
    def dim_names(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.dims)

    @property
    def axes(self) -> tuple[str, ...]:
        """Every mesh axis sharding one of its dimensions, in order."""
        return tuple(a for d in self.dims for a in d.axes)

    def local_shape(self, sizes: Mapping[str, int], mesh: Mapping[str, int]) -> tuple[int, ...]:
        """The shape of the shard one device holds: each size over the product of its axes' sizes."""
        return tuple(sizes[d.name] // _product(mesh[a] for a in d.axes) for d in self.dims)

    def local_elements(self, sizes: Mapping[str, int], mesh: Mapping[str, int]) -> int:
        return _product(self.local_shape(sizes, mesh))

    def with_axes(self, axes: Mapping[str, Sequence[str]], unreduced: Sequence[str] | None = None) -> "ShardedArray":
        """The same array with the axes of some dimensions replaced (and, if given, its unreduced axes)."""
        dims = tuple(Dim(d.name, tuple(axes[d.name])) if d.name in axes else d for d in self.dims)
        return ShardedArray(self.name, dims, self.unreduced if unreduced is None else tuple(unreduced))


@dataclass(frozen=True)
class ShardedMatmul:
    """``lhs · rhs -> out``: two 2-D operands sharing one contracting dimension, and the output if written."""

    lhs: ShardedArray
    rhs: ShardedArray
    out: ShardedArray | None
    contracting: str

    @property
    def free_lhs(self) -> str:
        """The left operand's non-contracting dimension (the output's rows)."""
        return next(n for n in self.lhs.dim_names if n != self.contracting)

    @property
    def free_rhs(self) -> str:
        """The right operand's non-contracting dimension (the output's columns)."""
        return next(n for n in self.rhs.dim_names if n != self.contracting)

    @property
    def dim_names(self) -> tuple[str, ...]:
        return (self.free_lhs, self.contracting, self.free_rhs)

    def text(self) -> str:
        out = f"{self.lhs.text()} · {self.rhs.text()}"
        return out + (f" -> {self.out.text()}" if self.out is not None else "")


def _product(values) -> int:
    out = 1
    for v in values:
        out *= v
    return out


def _shown(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


class _Reader:
    """A cursor over the tokens of one text; ``fail`` says where reading stopped and what was expected."""

    def __init__(self, text: str, mesh: Sequence[str]) -> None:
        self.text = text
        self.mesh = tuple(mesh)
        self.tokens: list[tuple[str, str, int]] = []     # (kind, text, position)
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                rest = text[pos:].lstrip()
                if not rest:
                    break
                at = len(text) - len(rest)
                raise InputError(f"cannot read {_shown(text)!r}: unexpected {rest[0]!r} at character {at + 1}; "
                                 f"write e.g. {EXAMPLE}", name="notation")
            kind = m.lastgroup or ""
            self.tokens.append((kind, m.group(kind), m.start(kind)))
            pos = m.end()
        self.i = 0

    def peek(self) -> tuple[str, str, int] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def fail(self, expected: str) -> InputError:
        tok = self.peek()
        where = f"{tok[1]!r} at character {tok[2] + 1}" if tok else "the end"
        return InputError(f"cannot read {_shown(self.text)!r}: expected {expected}, found {where}; "
                          f"write e.g. {EXAMPLE}", name="notation")

    def take(self, kind: str, text: str | None = None, expected: str = "") -> str:
        tok = self.peek()
        if tok is None or tok[0] != kind or (text is not None and tok[1] != text):
            raise self.fail(expected or repr(text or kind))
        self.i += 1
        return tok[1]

    def at(self, kind: str, text: str | None = None) -> bool:
        tok = self.peek()
        return tok is not None and tok[0] == kind and (text is None or tok[1] == text)

    # -- grammar ---------------------------------------------------------------

    def matmul(self) -> tuple[ShardedArray, ShardedArray, ShardedArray | None, str | None]:
        lhs = self.array()
        if self.at("product") or self.at("name", "x"):
            self.i += 1
        else:
            raise self.fail("a product sign (*, @, x or ·) after " + lhs.text())
        named = None
        if self.at("punct", "_"):
            self.i += 1
            named = self.take("name", expected="the contracting dimension after '_'")
        rhs = self.array()
        out = None
        if self.at("arrow"):
            self.i += 1
            out = self.array()
        if self.peek() is not None:
            raise self.fail("the end (or '-> C[...]' for the output)")
        return lhs, rhs, out, named

    def array(self) -> ShardedArray:
        name = self.take("name", expected="an array name such as A")
        self.take("punct", "[", expected=f"'[' after {name}")
        dims = [self.dim()]
        while self.at("punct", ","):
            self.i += 1
            dims.append(self.dim())
        self.take("punct", "]", expected="',' or ']'")
        unreduced: tuple[str, ...] = ()
        if self.at("punct", "{"):
            self.i += 1
            self.take("name", "U", expected="'U' of {U_X}, the axes left unreduced")
            self.take("punct", "_", expected="'_' of {U_X}")
            unreduced = self.axes()
            self.take("punct", "}", expected="'}' closing {U_...}")
        return ShardedArray(name, tuple(dims), unreduced)

    def dim(self) -> Dim:
        name = self.take("name", expected="a dimension name such as I")
        if not self.at("punct", "_"):
            return Dim(name)
        self.i += 1
        return Dim(name, self.axes())

    def axes(self) -> tuple[str, ...]:
        if self.at("punct", "{"):
            self.i += 1
            names = [self.take("name", expected="a mesh axis name")]
            while self.at("punct", ","):
                self.i += 1
                names.append(self.take("name", expected="a mesh axis name"))
            self.take("punct", "}", expected="',' or '}' in the list of axes")
            return tuple(names)
        word = self.take("name", expected="mesh axes after '_', such as X or XY")
        return (word,) if word in self.mesh else tuple(word)


def parse_matmul(text: str, mesh: Mapping[str, int]) -> ShardedMatmul:
    """Read ``text`` and check it against ``mesh`` (axis name → size); raise :class:`InputError` on a mistake."""
    if not isinstance(text, str) or not text.strip():
        raise InputError(f"the sharded matmul is empty; write e.g. {EXAMPLE}", name="notation")
    if len(text) > MAX_TEXT:
        raise InputError(f"the sharded matmul is {len(text)} characters long; write at most {MAX_TEXT}, "
                         f"e.g. {EXAMPLE}", name="notation")
    lhs, rhs, out, named = _Reader(text, tuple(mesh)).matmul()
    for arr in (lhs, rhs, out):
        if arr is not None:
            _check_array(arr, mesh)
    for arr in (lhs, rhs):
        if len(arr.dims) != 2:
            raise InputError(f"{arr.text()} has {len(arr.dims)} dimension(s); a matmul takes 2-D operands "
                             f"such as {arr.name}[I, J]", name="notation")
        if arr.unreduced:
            raise InputError(f"{arr.text()}: an operand cannot be unreduced; {{U_...}} marks the output's "
                             "partial sums", name="notation")
    names = [a.name for a in (lhs, rhs, out) if a is not None]
    if len(set(names)) != len(names):
        raise InputError(f"the arrays of {_shown(text)!r} share a name; call them e.g. A, B and C",
                         name="notation")
    shared = [n for n in lhs.dim_names if n in rhs.dim_names]
    if named is not None:
        if named not in shared:
            raise InputError(f"the contracting dimension {named} must be named by both {lhs.text()} and "
                             f"{rhs.text()}", name="notation")
        if len(shared) > 1:
            raise InputError(f"{lhs.text()} and {rhs.text()} share {' and '.join(shared)}; a matmul contracts "
                             "one dimension, the others differ", name="notation")
    if not shared:
        raise InputError(f"{lhs.text()} and {rhs.text()} share no dimension; the contracting dimension is "
                         f"the one both name, e.g. {EXAMPLE}", name="notation")
    if len(shared) > 1:
        raise InputError(f"{lhs.text()} and {rhs.text()} share {' and '.join(shared)}; a matmul contracts one "
                         "dimension: rename the other", name="notation")
    mm = ShardedMatmul(lhs, rhs, out, shared[0])
    if out is not None and sorted(out.dim_names) != sorted((mm.free_lhs, mm.free_rhs)):
        raise InputError(f"the output {out.text()} must name the dimensions {mm.free_lhs} and {mm.free_rhs}, "
                         f"e.g. {out.name}[{mm.free_lhs}, {mm.free_rhs}]", name="notation")
    return mm


def _check_array(arr: ShardedArray, mesh: Mapping[str, int]) -> None:
    """One array on its own: dimension names once, axes known, each axis sharding one dimension once."""
    seen_dims: set[str] = set()
    used: dict[str, str] = {}
    for d in arr.dims:
        if d.name in seen_dims:
            raise InputError(f"{arr.text()}: dimension {d.name} appears twice; name each dimension once",
                             name="notation")
        seen_dims.add(d.name)
        for a in d.axes:
            if a not in mesh:
                known = ", ".join(f"{k}={v}" for k, v in mesh.items()) or "none"
                raise InputError(f"{arr.text()}: mesh axis {a} is not in the mesh ({known}); add it to "
                                 "`mesh` or fix the subscript", name="notation")
        twice = sorted({a for a in d.axes if d.axes.count(a) > 1})
        if twice:
            raise InputError(f"{arr.text()}: {d.text()} shards {d.name} over {twice[0]} twice; list each axis once",
                             name="notation")
        for a in d.axes:
            if a in used:
                raise InputError(f"{arr.text()}: mesh axis {a} shards both {used[a]} and {d.name}; an axis shards "
                                 "at most one dimension of an array", name="notation")
            used[a] = d.name
    for a in arr.unreduced:
        if a not in mesh:
            raise InputError(f"{arr.text()}: mesh axis {a} is not in the mesh; fix the {{U_...}} subscript",
                             name="notation")
        if a in used:
            raise InputError(f"{arr.text()}: mesh axis {a} both shards {used[a]} and is unreduced; use it once",
                             name="notation")
    if len(set(arr.unreduced)) != len(arr.unreduced):
        raise InputError(f"{arr.text()}: an axis is listed twice in {{U_...}}; list each once", name="notation")
