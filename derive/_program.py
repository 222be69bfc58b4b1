"""A formula as plain data, a list of NumPy operations, evaluated without SymPy.

A sweep evaluates one formula over a grid. :func:`program_of` turns a SymPy expression once into
a *program*: a list of steps ``[op, *operands]``, each operand a previous step's index, each
repeated subexpression computed once (SymPy shares equal subtrees, so this is its common
subexpressions). :func:`run` evaluates it with NumPy alone. Being JSON, a program can be kept
in the cache (:mod:`derive._sweep_store`) and run again in a process that never imports SymPy;
a fresh sweep runs the same program, so both give the same floats, bit for bit. Nothing is
``exec``'d: the operations are a fixed table.

Operations: ``in`` (an input, by name), ``const`` (a float, ``inf`` or ``0`` beyond a float's
range), ``add``, ``mul``, ``pow`` (with a constant exponent), ``max``, ``min``, ``ceil``,
``floor``, ``log``, ``exp``, ``abs``. An expression with anything else has no program (None),
and the caller compiles it another way.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import sympy

__all__ = ["Program", "program_of", "run"]

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


def _power(base: "np.ndarray", exponent: Any) -> "np.ndarray":
    import numpy as np

    e = float(exponent)
    if e == -1:
        return 1.0 / base
    if e == 0.5:
        return np.sqrt(base)
    return np.power(base, e)


def run(program: Program, inputs: Mapping[str, Any]) -> "np.ndarray | float":
    """The program's value at ``inputs`` (arrays or scalars by name, broadcast together); raises ValueError
    on a malformed program."""
    import functools

    import numpy as np

    values: list[Any] = []
    last_use: dict[int, int] = {}          # each step's value is dropped after the last step that reads it
    for i, step in enumerate(program):
        if isinstance(step, list) and step and step[0] not in ("in", "const"):
            for a in step[1:]:
                if isinstance(a, int):
                    last_use[a] = i
    for i, step in enumerate(program):
        if not isinstance(step, list) or not step or not isinstance(step[0], str):
            raise ValueError("a program step is not [op, ...]")
        op, args = step[0], step[1:]
        if op == "in":
            if len(args) != 1 or args[0] not in inputs:
                raise ValueError(f"no input {args[:1]!r}")
            values.append(inputs[args[0]])
            continue
        if op == "const":
            if len(args) != 1 or not isinstance(args[0], (int, float)) or isinstance(args[0], bool):
                raise ValueError("a constant is not a number")
            values.append(float(args[0]))
            continue
        arity = _ARITY.get(op, -1)
        if arity == -1 or (arity is not None and len(args) != arity) or not args \
                or not all(isinstance(a, int) and not isinstance(a, bool) and 0 <= a < len(values) for a in args):
            raise ValueError(f"a malformed step {op!r}")
        xs = [values[a] for a in args]
        if any(x is None for x in xs):
            raise ValueError("a step reads a value already dropped")
        if op == "add":
            out = functools.reduce(np.add, xs)
        elif op == "mul":
            out = functools.reduce(np.multiply, xs)
        elif op == "max":
            out = functools.reduce(np.maximum, xs)
        elif op == "min":
            out = functools.reduce(np.minimum, xs)
        elif op == "pow":
            if not isinstance(xs[1], float):
                raise ValueError("an exponent is not a constant")
            out = _power(xs[0], xs[1])
        else:
            out = {"ceil": np.ceil, "floor": np.floor, "log": np.log, "exp": np.exp, "abs": np.abs}[op](xs[0])
        values.append(out)
        for a in args:
            if last_use.get(a) == i:
                values[a] = None
    if not values:
        raise ValueError("an empty program")
    return values[-1]
