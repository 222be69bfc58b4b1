"""A formula as plain data, a list of NumPy operations, evaluated without SymPy.

A sweep evaluates one formula over a grid. :func:`program_of` turns a SymPy expression once into
a *program*: a list of steps ``[op, *operands]``, each operand a previous step's index, each
repeated subexpression computed once (SymPy shares equal subtrees, so this is its common
subexpressions). :func:`compile_program` checks a program once and returns a function of its
inputs, which a sweep calls block after block; :func:`run` does both at once. A sum or product
combines its smallest operands first, so that a grid-sized array is made once, at the last
operation. Being JSON, a program can be kept in the cache (:mod:`derive.cli._sweep_store`) and run
again in a process that never imports SymPy; a fresh sweep runs the same program, so both give
the same floats, bit for bit. Nothing is ``exec``'d: the operations are a fixed table.

Operations: ``in`` (an input, by name), ``const`` (a float, ``inf`` or ``0`` beyond a float's
range), ``add``, ``mul``, ``pow`` (with a constant exponent), ``max``, ``min``, ``ceil``,
``floor``, ``log``, ``exp``, ``abs``. An expression with anything else has no program (None),
and the caller compiles it another way.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import sympy

__all__ = ["CompiledProgram", "Program", "compile_program", "program_of", "run"]

Program = list  # [[op, *operands], ...]; the last step is the value

_ARITY = {"add": None, "mul": None, "max": None, "min": None, "pow": 2, "ceil": 1, "floor": 1, "log": 1,
          "exp": 1, "abs": 1}


def _float(value: "sympy.Rational") -> float:
    try:
        return int(value.p) / int(value.q)        # correctly rounded
    except OverflowError:
        return math.inf if abs(value.p) > abs(value.q) else 0.0


def program_of(expr: "sympy.Expr") -> Program | None:
    """``expr`` as a program of its symbols (by name), or None when it uses an operation not in the table."""
    import sympy

    steps: Program = []
    seen: dict[Any, int] = {}
    functions = {sympy.Max: "max", sympy.Min: "min", sympy.ceiling: "ceil", sympy.floor: "floor",
                 sympy.log: "log", sympy.exp: "exp", sympy.Abs: "abs"}

    def emit(node: "sympy.Expr") -> int:
        hit = seen.get(node)
        if hit is not None:
            return hit
        if node.is_Symbol:
            step: list = ["in", node.name]
        elif node.is_Rational:
            step = ["const", _float(node)]
        elif node.is_Float:
            step = ["const", float(node)]
        elif node.is_Add or node.is_Mul:
            step = ["add" if node.is_Add else "mul", *[emit(a) for a in node.args]]
        elif node.is_Pow:
            if not node.exp.is_Number:
                raise _Unsupported
            step = ["pow", emit(node.base), emit(node.exp)]
        elif type(node) in functions and len(node.args) >= 1:
            op = functions[type(node)]
            if _ARITY[op] == 1 and len(node.args) != 1:
                raise _Unsupported
            step = [op, *[emit(a) for a in node.args]]
        else:
            raise _Unsupported
        steps.append(step)
        seen[node] = len(steps) - 1
        return len(steps) - 1

    try:
        emit(expr)
    except (_Unsupported, RecursionError):
        return None
    return steps


class _Unsupported(Exception):
    pass


def _power(base: "np.ndarray", exponent: float, out: Any = None) -> "np.ndarray":
    import numpy as np

    if exponent == -1:
        return np.divide(1.0, base, out=out)
    if exponent == 0.5:
        return np.sqrt(base, out=out)
    return np.power(base, exponent, out=out)


def _size(value: Any) -> int:
    return getattr(value, "size", 1)


def _operations() -> dict[str, Callable[..., Any]]:
    import functools

    import numpy as np

    def by_size(ufunc: Any) -> Callable[..., Any]:
        def combine(*xs: Any, out: Any = None) -> Any:
            if len(xs) > 2:
                # the smallest operands first: constants and one-axis arrays combine before anything is
                # broadcast to the whole grid, which then takes one pass rather than one per operand
                xs = tuple(sorted(xs, key=_size))
            if out is None:
                return functools.reduce(ufunc, xs)
            if len(xs) == 1:
                np.copyto(out, xs[0])
                return out
            return ufunc(functools.reduce(ufunc, xs[:-1]), xs[-1], out=out)
        return combine

    return {"add": by_size(np.add), "mul": by_size(np.multiply), "max": by_size(np.maximum),
            "min": by_size(np.minimum), "pow": _power, "ceil": np.ceil, "floor": np.floor, "log": np.log,
            "exp": np.exp, "abs": np.abs}


def _outer(axes: tuple[int, int], nd: int) -> Callable[..., Any]:
    """The product of two one-axis arrays, along ``axes[0]`` and ``axes[1]`` of an ``nd``-axis grid, as one
    outer product: einsum's loop for it is faster than a broadcast multiply, which NumPy runs without
    its vector instructions when one operand repeats along the inner axis."""
    import numpy as np

    i, j = axes

    def outer(x: Any, y: Any, out: Any = None) -> Any:
        shape = [1] * nd
        shape[i], shape[j] = x.size, y.size
        if out is not None and out.size == x.size * y.size and out.flags.c_contiguous:
            np.einsum("i,j->ij", x.reshape(-1), y.reshape(-1), out=out.reshape(x.size, y.size))
            return out
        product = np.einsum("i,j->ij", x.reshape(-1), y.reshape(-1)).reshape(shape)
        if out is None:
            return product
        np.copyto(out, product)            # the grid has more axes than the product spans
        return out
    return outer


_COMBINING = frozenset({"add", "mul", "max", "min"})


class CompiledProgram:
    """A checked program, called with its inputs in order (arrays or scalars, broadcast together).

    :meth:`in_blocks` evaluates it over a grid block by block, what spans one axis only computed once.
    """

    def __init__(self, ops: list[str], plan: list[tuple[int, Callable[..., Any] | None, tuple[int, ...]]],
                 constants: dict[int, float], count: int) -> None:
        self._ops = ops
        self._plan = plan                  # per step: (input position or -1, operation or None, operand steps)
        self._constants = constants
        self.count = count
        self._all = self._evaluator()

    def __call__(self, *arrays: Any) -> "np.ndarray | float":
        if len(arrays) != self.count:
            raise ValueError(f"expected {self.count} inputs, got {len(arrays)}")
        return self._all(*arrays)

    def in_blocks(self, arrays: Sequence[Any]) -> Callable[..., "np.ndarray | float"]:
        """The program over the grid ``arrays`` broadcast to, as ``block(lo, hi, out=None)``: its value on
        rows ``lo:hi`` of the grid's first axis, written into ``out`` (C-contiguous, the block's shape)
        when given.

        What varies along one axis at most (a constant, an input, a function of one input) is
        computed here, once, for the whole grid, and sliced per block; so are the operands of a sum,
        product, max or min that combine into such a value. Only the steps whose value spans two
        axes or more run per block.
        """
        import numpy as np

        if len(arrays) != self.count:
            raise ValueError(f"expected {self.count} inputs, got {len(arrays)}")
        nd = max((np.ndim(a) for a in arrays), default=0)

        def shape_of(value: Any) -> tuple[int, ...]:
            shape = np.shape(value)
            return (1,) * (nd - len(shape)) + shape

        def spans_one_axis(*operands: Any) -> bool:      # their result varies along one axis at most
            return sum(1 for n in np.broadcast_shapes(*map(shape_of, operands)) if n != 1) <= 1

        def cut(value: Any) -> bool:                  # varies along the first axis: sliced per block
            return nd > 0 and shape_of(value)[0] != 1

        def axis_of(value: Any) -> int | None:        # the one axis a one-axis array varies along
            varying = [k for k, n in enumerate(shape_of(value)) if n != 1]
            return varying[0] if len(varying) == 1 and np.ndim(value) == nd else None

        size = len(self._plan)
        values: list[Any] = [None] * size       # the steps' values, then operands combined ahead
        whole = [False] * size
        # per block: (step, operation, operands as (slot, sliced to the block))
        steps: list[tuple[int, Callable[..., Any], tuple[tuple[int, bool], ...]]] = []

        def keep(value: Any) -> int:
            values.append(value)
            whole.append(True)
            return len(values) - 1

        for i, (position, fn, args) in enumerate(self._plan):
            op = self._ops[i]
            if fn is None:
                values[i], whole[i] = (self._constants[i] if op == "const" else arrays[position]), True
                continue
            if all(whole[a] for a in args) and spans_one_axis(*[values[a] for a in args]):
                values[i], whole[i] = fn(*[values[a] for a in args]), True
                continue
            operands = list(args)
            if op in _COMBINING:
                # the operands known now combine while the result still varies along one axis at most
                known = sorted((a for a in args if whole[a]), key=lambda a: _size(values[a]))
                while len(known) > 1 and spans_one_axis(values[known[0]], values[known[1]]):
                    combined = keep(fn(values[known[0]], values[known[1]]))
                    known = sorted([combined, *known[2:]], key=lambda a: _size(values[a]))
                operands = [a for a in args if not whole[a]] + known
                if op == "mul" and len(operands) == 2 and all(whole[a] for a in operands):
                    first, second = (axis_of(values[a]) for a in operands)
                    if first is not None and second is not None and first != second:
                        # two one-axis factors along different axes: an outer product
                        if first > second:
                            operands.reverse()
                        fn = _outer((min(first, second), max(first, second)), nd)
            steps.append((i, fn, tuple((a, whole[a] and cut(values[a])) for a in operands)))
        last = size - 1
        if whole[last]:
            value, sliced = values[last], cut(values[last])

            def whole_block(lo: int, hi: int, out: "np.ndarray | None" = None) -> "np.ndarray | float":
                part = value[lo:hi] if sliced else value
                if out is None:
                    return part
                np.copyto(out, part)
                return out
            return whole_block
        template = tuple(values)
        final = len(steps) - 1

        def block(lo: int, hi: int, out: "np.ndarray | None" = None) -> "np.ndarray | float":
            current = list(template)
            for k, (i, fn, operands) in enumerate(steps):
                xs = [current[a][lo:hi] if sliced else current[a] for a, sliced in operands]
                current[i] = fn(*xs) if k != final or out is None else fn(*xs, out=out)
            return current[last]

        return block

    def _evaluator(self) -> Callable[..., "np.ndarray | float"]:
        size = len(self._plan)
        last_use: dict[int, int] = {}
        for i, (_, _, args) in enumerate(self._plan):
            for a in args:
                last_use[a] = i
        # each step with the values no later step reads, freed as soon as it has run
        steps = [(position, fn, args, tuple(a for a in set(args) if last_use[a] == i))
                 for i, (position, fn, args) in enumerate(self._plan)]
        constants = self._constants

        def evaluate(*arrays: Any) -> "np.ndarray | float":
            values: list[Any] = [None] * size
            for i, (position, fn, args, drop) in enumerate(steps):
                if fn is None:
                    values[i] = arrays[position] if position >= 0 else constants[i]
                    continue
                values[i] = fn(*[values[a] for a in args])
                for a in drop:
                    values[a] = None
            return values[-1]

        return evaluate


def compile_program(program: Program, names: Sequence[str]) -> CompiledProgram:
    """``program`` as a function of the arrays (or scalars) named ``names``, passed in that order and
    broadcast together. The program is checked here, once: ValueError when it is malformed."""
    positions = {name: i for i, name in enumerate(names)}
    operations = _operations()
    ops: list[str] = []
    constants: dict[int, float] = {}
    plan: list[tuple[int, Callable[..., Any] | None, tuple[int, ...]]] = []
    if not isinstance(program, list) or not program:
        raise ValueError("an empty program")
    for i, step in enumerate(program):
        if not isinstance(step, list) or not step or not isinstance(step[0], str):
            raise ValueError("a program step is not [op, ...]")
        op, args = step[0], step[1:]
        ops.append(op)
        if op == "in":
            if len(args) != 1 or not isinstance(args[0], str) or args[0] not in positions:
                raise ValueError(f"no input {args[:1]!r}")
            plan.append((positions[args[0]], None, ()))
            continue
        if op == "const":
            if len(args) != 1 or not isinstance(args[0], (int, float)) or isinstance(args[0], bool):
                raise ValueError("a constant is not a number")
            constants[i] = float(args[0])
            plan.append((-1, None, ()))
            continue
        arity = _ARITY.get(op, -1)
        if arity == -1 or (arity is not None and len(args) != arity) or not args \
                or not all(isinstance(a, int) and not isinstance(a, bool) and 0 <= a < i for a in args):
            raise ValueError(f"a malformed step {op!r}")
        if op == "pow" and ops[args[1]] != "const":
            raise ValueError("an exponent is not a constant")
        plan.append((-1, operations[op], tuple(args)))
    return CompiledProgram(ops, plan, constants, len(positions))


def run(program: Program, inputs: Mapping[str, Any]) -> "np.ndarray | float":
    """The program's value at ``inputs`` (arrays or scalars by name, broadcast together); raises ValueError
    on a malformed program."""
    return compile_program(program, list(inputs))(*inputs.values())
