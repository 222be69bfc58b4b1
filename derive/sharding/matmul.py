"""Sharded matmuls in the Scaling Book's notation: which case, which collectives, and what they cost.

``sharding_plan("A[I_X, J] · B[J, K_Y]", sizes={...}, mesh={"X": 4, "Y": 4}, hw="tpu-v5e")`` reads the
notation (``sharding/notation.py``), decides what the sharding chapter's four cases call for, and asks the
engine for every number:

1. neither operand sharded along the contracting dimension: multiply the shards, no communication;
2. one operand sharded along it: AllGather that operand over those axes first (the book's choice;
   when both are sharded along it over different axes, both are gathered);
3. both sharded along it over the same axes: multiply the shards into partial sums, then AllReduce
   them, or ReduceScatter them when the output (``-> C[I_X, K]``) shards a dimension over such an axis,
   or leave them unreduced when the output says ``{U_X}``;
4. both operands shard a non-contracting dimension over the same axis: invalid as is, so AllGather
   one of them over it first (the one the output's sharding asks for, else the smaller), then go on
   as case 1, 2 or 3.

An output written with less sharding than the matmul gives is AllGathered after the matmul. FLOPs
and compute time per chip are ``matmul_flops`` and ``matmul_compute_time`` of the local shapes; each
collective's bytes are ``array_bytes`` of the array each chip holds once it is gathered (before it
is reduced), the catalog's ``collective_bytes``, and its time is ``ici_allgather_time``,
``ici_reducescatter_time`` or ``ici_allreduce_time`` (rings over wrapped axes, as the book's
formulas take them), with its latency- or bandwidth-bound regime. The collectives hide behind the
matmul when their time, overlapped perfectly (the book's max(T_math, T_comms)), is no longer.

Axes without wraparound are lines, not rings: the TPU chapter's slices smaller than a full axis (TPU
v5e and v6e: any axis under 16; v4p and v5p: slices smaller than a full 4x4x4 cube, such as 2x2x1 or
2x2x4). With a chip that has such a rule (``hw="tpu-v5e"``) the mesh is taken as the slice and the axes
the rule makes lines are timed as lines; ``wraparound=("X",)`` (``--wraparound X``) keeps the book's
ring on such an axis (the mesh sits in a larger slice that wraps it, or to reproduce the book's answer),
and the plan then says the ring is assumed. ``no_wraparound=("Y",)`` (``--no-wraparound Y``) makes an
axis a line whatever the chip. Without a chip's rule, rings are the book's assumption, and said so.
A collective over one such axis is timed by
``ici_allgather_time_nowrap``, ``ici_reducescatter_time_nowrap`` or ``ici_allreduce_time_nowrap``: an
edge shard crosses |X| − 1 links one way, about twice the time of a ring ("it typically doubles the
time of most throughput-bound comms"). The book gives no rule for a collective over several axes
when any of them lacks wraparound, so the plan takes the slower rule: the whole collective is timed
as if none of its axes wrapped, along one line through all its chips (a snake through the axes):
``axis_size`` = the product of the axes' sizes, |X|·|Y| − 1 hops at one link's one-way bandwidth.
That is an upper bound: an algorithm that used every axis's links at once could be up to n_axes
times faster, and one over a wrapped axis's ring shorter in latency.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

import sympy

from ..errors import InputError
from .notation import Dim, ShardedArray, ShardedMatmul, parse_matmul

if TYPE_CHECKING:
    from ..records.catalog import Catalog
    from ..records.solution import Solution

__all__ = ["COLLECTIVE_TIMES", "COLLECTIVE_TIMES_NOWRAP", "Collective", "Dim", "ShardedArray", "ShardedMatmul",
           "ShardingPlan", "dimension_names", "sharding_plan"]

#: the catalog quantity that times each collective
COLLECTIVE_TIMES = {"AllGather": "ici_allgather_time", "ReduceScatter": "ici_reducescatter_time",
                    "AllReduce": "ici_allreduce_time"}

#: the catalog quantity that times each collective over axes without wraparound (a line, not a ring)
COLLECTIVE_TIMES_NOWRAP = {"AllGather": "ici_allgather_time_nowrap", "ReduceScatter": "ici_reducescatter_time_nowrap",
                           "AllReduce": "ici_allreduce_time_nowrap"}

#: inputs the plan sets itself from the notation, sizes and mesh
PLAN_INPUTS = ("array_elements", "array_bytes", "collective_bytes", "axis_size", "ici_axes", "ici_ring_hops",
               "axis_size_sum", "axis_wraps",
               "matmul_rows", "matmul_inner", "matmul_cols", "matmul_flops", "matmul_compute_time",
               *COLLECTIVE_TIMES.values(), *COLLECTIVE_TIMES_NOWRAP.values())

#: the case each reason for a collective belongs to
CASE_OF = {"contracting": 2, "reduce": 3, "conflict": 4}

_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9]*$")
_INTEGER = re.compile(r"^\s*[0-9][0-9_]{0,30}\s*$")


@dataclass(frozen=True)
class Collective:
    """One collective of the plan: what it does to which array, over which mesh axes, and its cost.

    ``reasons`` say why it is needed: ``conflict`` (case 4), ``contracting`` (case 2), ``reduce``
    (case 3: AllReduce or ReduceScatter of the partial sums) or ``output`` (the output asked for
    less sharding); one AllGather of an operand may serve cases 4 and 2 at once. ``bytes`` is the
    engine's ``array_bytes`` of the array each chip holds once gathered (before reducing), ``time``
    its ``ici_*_time`` with the regime the engine found (``ici_*_time_nowrap`` when ``wraps`` is
    false: some of its axes have no wraparound).
    """

    kind: str                  # "AllGather", "ReduceScatter" or "AllReduce"
    axes: tuple[str, ...]
    array: str                 # the array's name: A, B or C
    before: ShardedArray
    after: ShardedArray
    reasons: tuple[str, ...]
    bytes: "Solution"
    time: "Solution"
    wraps: bool = True         # False: some of ``axes`` have no wraparound, timed as a line
    wraps_assumed: bool = False   # timed as a ring that no chip's rule vouches for (the book's assumption)

    @property
    def cases(self) -> tuple[int, ...]:
        """The book's cases this collective serves (none for an output gather)."""
        return tuple(CASE_OF[r] for r in self.reasons if r in CASE_OF)

    @property
    def regime(self) -> str | None:
        """``latency_bound`` or ``bandwidth_bound``, as the engine decided it."""
        return self.time.regime

    def text(self) -> str:
        """``AllGather_X A[I, J_X] -> A[I, J]``."""
        return f"{Dim(self.kind, self.axes).text()} {self.before.text()} -> {self.after.text()}"


@dataclass(frozen=True)
class ShardingPlan:
    """What a sharded matmul costs per chip, each number an engine :class:`~derive.Solution`.

    ``case`` is the book's case of the matmul as written (4 when both operands shard a
    non-contracting dimension over the same axis, else 1, 2 or 3 by the contracting dimension);
    ``cases`` every case met, in order (``(4, 1)``: gather one operand, then multiply locally).
    ``local_lhs``, ``local_rhs`` and ``local_out`` are the arrays as the local matmul sees them;
    ``output`` the result after every collective; ``no_wraparound`` the mesh axes without wraparound.
    """

    matmul: ShardedMatmul
    mesh: tuple[tuple[str, int], ...]
    sizes: tuple[tuple[str, int], ...]
    hw: str | None
    case: int
    cases: tuple[int, ...]
    gathered_for_conflict: str | None     # case 4: the operand gathered, A or B
    conflict_choice: str | None           # case 4: "output" (the output asks for it) or "smaller"
    local_lhs: ShardedArray
    local_rhs: ShardedArray
    local_out: ShardedArray
    output: ShardedArray
    collectives: tuple[Collective, ...]
    flops: "Solution"                     # matmul_flops of the local shapes, per chip
    compute_time: "Solution"              # matmul_compute_time per chip
    no_wraparound: tuple[str, ...] = ()   # mesh axes timed as lines, not rings (told, or the chip's rule)
    lines_on_hardware: tuple[str, ...] = ()   # axes timed as rings (told --wraparound) that the chip's rule makes lines
    lines_from_hardware: tuple[str, ...] = ()   # axes timed as lines because the chip's slice rule makes them so
    wrap_rule: str = ""                   # the rule that says so: "axis_size" (v5e: 16) or "cube_edge" (v5p: 4)
    wrap_rule_value: int = 0              # its number

    @property
    def mesh_map(self) -> dict[str, int]:
        return dict(self.mesh)

    @property
    def size_map(self) -> dict[str, int]:
        return dict(self.sizes)

    def local_shape(self, array: ShardedArray) -> tuple[int, ...]:
        """The shape of ``array``'s shard on one chip."""
        return array.local_shape(self.size_map, self.mesh_map)

    @property
    def comms_time(self) -> sympy.Expr:
        """The collectives' times added up (exact, seconds)."""
        return sympy.Add(*(c.time.value for c in self.collectives)) if self.collectives else sympy.Integer(0)

    @property
    def ratio(self) -> sympy.Expr:
        """Communication time over compute time: at most 1 when the collectives hide behind the matmul."""
        return self.comms_time / self.compute_time.value

    @property
    def hidden(self) -> bool:
        """Whether the collectives, overlapped with the matmul, take no longer than it."""
        return bool(self.comms_time <= self.compute_time.value)


# ---------------------------------------------------------------------------
# inputs


def _mesh(mesh: Mapping[str, Any]) -> dict[str, int]:
    if not isinstance(mesh, Mapping):
        raise InputError("`mesh` maps axis names to sizes, e.g. {'X': 4, 'Y': 4}", name="mesh")
    if not mesh:
        raise InputError("`mesh` is empty; give its axes and sizes, e.g. X=4,Y=4", name="mesh")
    out = {}
    for name, size in mesh.items():
        if not isinstance(name, str) or not _NAME.match(name) or name == "U":
            raise InputError(f"mesh axis name {name!r} must be letters and digits starting with a letter "
                             "(and not U, which marks unreduced axes), e.g. X", name="mesh")
        out[name] = _whole(size, f"mesh axis {name}", "mesh")
    if len(out) > 16:
        raise InputError(f"the mesh has {len(out)} axes; give at most 16", name="mesh")
    return out


def _lines(no_wraparound: Iterable[str] | str | None, mesh: Mapping[str, int],
           flag: str = "no_wraparound") -> tuple[str, ...]:
    """The mesh axes named by --no-wraparound (or ``flag``), each checked against the mesh, in the mesh's order."""
    if no_wraparound is None:
        return ()
    if isinstance(no_wraparound, str):
        no_wraparound = (no_wraparound,)
    names = list(no_wraparound)
    for name in names:
        if not isinstance(name, str) or name not in mesh:
            axes = ", ".join(mesh)
            option = "--" + flag.replace("_", "-")
            raise InputError(f"{option} names axis {str(name)[:30]!r}, which is not in the mesh ({axes}); "
                             f"give axes of --mesh, e.g. {option} " + next(iter(mesh)), name=flag)
    return tuple(x for x in mesh if x in names)


def _whole(value: Any, what: str, field: str) -> int:
    """A positive whole number given as an int or its decimal text."""
    if isinstance(value, bool):
        value = None
    elif isinstance(value, str) and _INTEGER.match(value):
        value = int(value.replace("_", ""))
    if not isinstance(value, int) or value <= 0:
        raise InputError(f"{what} must be a positive whole number, not {str(value)[:30]!r}", name=field)
    return value


def _sizes(mm: ShardedMatmul, sizes: Mapping[str, Any], mesh: Mapping[str, int]) -> dict[str, int]:
    if not isinstance(sizes, Mapping):
        raise InputError("sizes map dimension names to whole numbers, e.g. {'I': 4096}", name="sizes")
    out = {}
    for name in mm.dim_names:
        if name not in sizes:
            raise InputError(f"no size for dimension {name}; give it as {name}=VALUE (e.g. {name}=4096)",
                             name="sizes")
        out[name] = _whole(sizes[name], f"dimension {name}", "sizes")
    extra = sorted(set(sizes) - set(out))
    if extra:
        raise InputError(f"a size is given for {extra[0]}, which {mm.text()} does not name; drop it or fix "
                         "the notation", name="sizes")
    arrays = [mm.lhs, mm.rhs] + ([mm.out] if mm.out is not None else [])
    for arr in arrays:
        for d in arr.dims:
            ways = 1
            for a in d.axes:
                ways *= mesh[a]
            if out[d.name] % ways:
                over = "·".join(d.axes)
                raise InputError(f"{arr.text()}: {d.name}={out[d.name]} does not split evenly over {over} "
                                 f"({ways} shards); choose a size that {ways} divides", name="sizes")
    return out


def _given(given: Mapping[str, Any] | None) -> dict[str, Any]:
    out = dict(given or {})
    for name in out:
        if name in PLAN_INPUTS:
            raise InputError(f"{name} is set by the plan from the notation, sizes and mesh; give the "
                             "dimensions' sizes instead", name=name)
    return out


# ---------------------------------------------------------------------------
# the strategy: cases and collectives, without numbers


@dataclass(frozen=True)
class _Move:
    """A collective as the strategy decides it (the numbers come later)."""

    kind: str
    axes: tuple[str, ...]
    before: ShardedArray
    after: ShardedArray
    reasons: tuple[str, ...]


def _without(arr: ShardedArray, removed: Mapping[str, Sequence[str]]) -> ShardedArray:
    """``arr`` with some axes taken off some dimensions (what an AllGather over them leaves)."""
    return arr.with_axes({d.name: [a for a in d.axes if a not in removed.get(d.name, ())] for d in arr.dims})


def _gather(arr: ShardedArray, removed: Mapping[str, Sequence[str]], reasons: tuple[str, ...]) -> _Move:
    axes = tuple(a for d in arr.dims for a in removed.get(d.name, ()))
    return _Move("AllGather", axes, arr, _without(arr, removed), reasons)


@dataclass(frozen=True)
class _Strategy:
    case: int
    cases: tuple[int, ...]
    gathered_for_conflict: str | None
    conflict_choice: str | None
    local_lhs: ShardedArray
    local_rhs: ShardedArray
    local_out: ShardedArray
    output: ShardedArray
    moves: tuple[_Move, ...]


def _strategy(mm: ShardedMatmul, sizes: Mapping[str, int], mesh: Mapping[str, int]) -> _Strategy:
    a, b, c = mm.lhs, mm.rhs, mm.contracting
    i, k = mm.free_lhs, mm.free_rhs
    sa, sb = a.dim(c).axes, b.dim(c).axes
    removed: dict[str, dict[str, list[str]]] = {a.name: {}, b.name: {}}
    reasons: dict[str, list[str]] = {a.name: [], b.name: []}
    reduce_axes: tuple[str, ...] = ()
    if sa and sa == sb:
        contracting_case = 3
        reduce_axes = sa
    elif not sa and not sb:
        contracting_case = 1
    else:
        contracting_case = 2
        for arr, axes in ((a, sa), (b, sb)):
            if axes:
                removed[arr.name][c] = list(axes)
                reasons[arr.name].append("contracting")

    # case 4: both operands shard a non-contracting dimension over the same axes
    conflict = tuple(x for x in a.dim(i).axes if x in b.dim(k).axes)
    chosen = choice = None
    if conflict:
        chosen, choice = _conflict_choice(mm, conflict, removed, sizes, mesh)
        dim = i if chosen == a.name else k
        removed[chosen].setdefault(dim, []).extend(conflict)
        reasons[chosen].insert(0, "conflict")
    moves = []
    for arr in (a, b):
        if removed[arr.name]:
            moves.append(_gather(arr, removed[arr.name], tuple(reasons[arr.name])))
    la, lb = _without(a, removed[a.name]), _without(b, removed[b.name])
    out_name = mm.out.name if mm.out is not None else next(n for n in "CDEFGH" if n not in (a.name, b.name))
    natural = ShardedArray(out_name, (Dim(i, la.dim(i).axes), Dim(k, lb.dim(k).axes)), reduce_axes)
    if mm.out is not None:
        natural = ShardedArray(out_name, tuple(natural.dim(n) for n in mm.out.dim_names), reduce_axes)
    moves.extend(_output_moves(natural, mm.out))
    output = moves[-1].after if moves and moves[-1].before.name == out_name else natural
    cases = ((4,) if conflict else ()) + (contracting_case,)
    return _Strategy(cases[0], cases, chosen, choice, la, lb, natural, output, tuple(moves))


def _conflict_choice(mm: ShardedMatmul, conflict: tuple[str, ...], removed: Mapping[str, Mapping[str, list[str]]],
                     sizes: Mapping[str, int], mesh: Mapping[str, int]) -> tuple[str, str]:
    """Which operand case 4 gathers: the one the output's sharding asks for, else the one whose
    gathered array is smaller (A on a tie)."""
    a, b = mm.lhs, mm.rhs
    if mm.out is not None:
        keeps_rows = all(x in mm.out.dim(mm.free_lhs).axes for x in conflict)
        keeps_cols = all(x in mm.out.dim(mm.free_rhs).axes for x in conflict)
        if keeps_rows and not keeps_cols:
            return b.name, "output"
        if keeps_cols and not keeps_rows:
            return a.name, "output"

    def gathered(arr: ShardedArray, dim: str) -> int:
        plan = {d: list(v) for d, v in removed[arr.name].items()}
        plan.setdefault(dim, []).extend(conflict)
        return _without(arr, plan).local_elements(sizes, mesh)

    return (a.name if gathered(a, mm.free_lhs) <= gathered(b, mm.free_rhs) else b.name), "smaller"


def _output_moves(natural: ShardedArray, wanted: ShardedArray | None) -> list[_Move]:
    """The collectives after the local matmul: reduce the partial sums (case 3), then gather the output
    down to the sharding written after ``->``."""
    reduce_axes = natural.unreduced
    if wanted is None:
        if not reduce_axes:
            return []
        return [_Move("AllReduce", reduce_axes, natural, natural.with_axes({}, ()), ("reduce",))]
    for x in wanted.unreduced:
        if x not in reduce_axes:
            raise InputError(f"the output {wanted.text()} is unreduced over {x}, but the matmul leaves no partial "
                             f"sums over {x}; drop it from {{U_...}}", name="notation")
    moves = []
    current = natural
    scatter = tuple(x for x in reduce_axes if x in wanted.axes)
    if scatter:
        onto = {d.name: [*d.axes, *(x for x in scatter if x in wanted.dim(d.name).axes)] for d in current.dims}
        after = current.with_axes(onto, [x for x in current.unreduced if x not in scatter])
        moves.append(_Move("ReduceScatter", scatter, current, after, ("reduce",)))
        current = after
    allreduce = tuple(x for x in current.unreduced if x not in wanted.unreduced)
    if allreduce:
        after = current.with_axes({}, [x for x in current.unreduced if x not in allreduce])
        moves.append(_Move("AllReduce", allreduce, current, after, ("reduce",)))
        current = after
    for d in wanted.dims:
        missing = [x for x in d.axes if x not in current.dim(d.name).axes]
        if missing:
            raise InputError(f"the output {wanted.text()} shards {d.name} over {missing[0]}, but the matmul gives "
                             f"{current.text()}; drop {missing[0]} from {d.name} or shard an operand over it",
                             name="notation")
    extra = {d.name: [x for x in d.axes if x not in wanted.dim(d.name).axes] for d in current.dims}
    if any(extra.values()):
        moves.append(_gather(current, extra, ("output",)))
    return moves


# ---------------------------------------------------------------------------
# the numbers, from the engine


def dimension_names(text: str, mesh: Mapping[str, Any]) -> tuple[str, ...]:
    """The dimensions ``text`` names, rows, contracting, columns (``("I", "J", "K")``): the names that
    take sizes; the command line passes any other NAME=VALUE to the engine."""
    return parse_matmul(text, _mesh(mesh)).dim_names


def sharding_plan(text: str, sizes: Mapping[str, Any], mesh: Mapping[str, Any], *, hw: str | None = None,
                  given: Mapping[str, Any] | None = None, catalog: "Catalog | None" = None,
                  no_wraparound: Iterable[str] | None = None,
                  wraparound: Iterable[str] | None = None) -> ShardingPlan:
    """The plan of a sharded matmul written in the Scaling Book's notation, with the engine's numbers.

    ``text`` is e.g. ``"A[I_X, J] · B[J, K_Y]"`` (``*``, ``@``, ``x`` or ``·`` as the product, an
    optional ``-> C[I_X, K_Y]``); ``sizes`` maps every dimension to its size, ``mesh`` every mesh axis
    to its size. ``hw`` is a hardware preset (``"tpu-v5e"``); ``given`` other inputs of the engine
    (``{"bytes_per_element": "1 B"}``, ``{"ici_hop_latency": "0.5 us"}``), which override the preset.
    ``no_wraparound`` names the mesh axes without wraparound (``("Y",)``): collectives over them are
    timed as lines (``ici_*_time_nowrap``; the module's docstring gives the rule for several axes).
    With a chip whose slice rule makes some axes lines, those are timed as lines too, unless
    ``wraparound`` names them: then they are timed as the book's rings, marked as assumed.
    Raises :class:`~derive.InputError` (one line) on malformed notation or sizes.
    """
    from ..engine.solver import solve

    _check_ici(hw, catalog)
    mesh_map = _mesh(mesh)
    told_lines = _lines(no_wraparound, mesh_map)
    told_rings = _lines(wraparound, mesh_map, flag="wraparound")
    both = [x for x in told_lines if x in told_rings]
    if both:
        raise InputError(f"axis {both[0]} is given both --wraparound and --no-wraparound; give it one of them",
                         name="wraparound")
    rule, value, hardware_lines = _slice_rule(hw, mesh_map, catalog)
    lines = tuple(x for x in mesh_map if x in told_lines or (x in hardware_lines and x not in told_rings))
    mm = parse_matmul(text, mesh_map)
    size_map = _sizes(mm, sizes, mesh_map)
    extra = _given(given)
    strategy = _strategy(mm, size_map, mesh_map)

    def answer(target: str, inputs: Mapping[str, Any], with_hw: bool = True) -> "Solution":
        return solve(target, {**extra, **inputs}, hw=hw if with_hw else None, catalog=catalog)

    lhs = dict(zip(mm.lhs.dim_names, strategy.local_lhs.local_shape(size_map, mesh_map)))
    rhs = dict(zip(mm.rhs.dim_names, strategy.local_rhs.local_shape(size_map, mesh_map)))
    dims = {"matmul_rows": lhs[mm.free_lhs], "matmul_inner": lhs[mm.contracting], "matmul_cols": rhs[mm.free_rhs]}
    flops = answer("matmul_flops", dims, with_hw=False)
    compute = answer("matmul_compute_time", dims)
    collectives = []
    for move in strategy.moves:
        axes = tuple(x for x in move.axes if mesh_map[x] > 1)
        if not axes:        # over axes of one chip: nothing moves
            continue
        held = move.after if move.kind == "AllGather" else move.before
        nbytes = answer("array_bytes", {"array_elements": held.local_elements(size_map, mesh_map)}, with_hw=False)
        wraps = not any(x in lines for x in axes)
        target, ring = (COLLECTIVE_TIMES[move.kind], _ring(axes, mesh_map)) if wraps else \
            (COLLECTIVE_TIMES_NOWRAP[move.kind], _line(axes, mesh_map))
        time = answer(target, {"collective_bytes": nbytes.value, **ring})
        # a ring is the hardware's only when the chip has a slice rule and it wraps every one of these axes
        assumed = wraps and (not rule or any(x in hardware_lines for x in axes))
        collectives.append(Collective(move.kind, axes, move.before.name, move.before, move.after, move.reasons,
                                      nbytes, time, wraps, assumed))
    timed_as_rings = {x for c in collectives if c.wraps for x in c.axes}
    timed_as_lines = {x for c in collectives if not c.wraps for x in c.axes}
    return ShardingPlan(mm, tuple(mesh_map.items()), tuple(size_map.items()), hw, strategy.case, strategy.cases,
                        strategy.gathered_for_conflict, strategy.conflict_choice, strategy.local_lhs,
                        strategy.local_rhs, strategy.local_out, strategy.output, tuple(collectives), flops, compute,
                        lines, tuple(x for x in hardware_lines if x in timed_as_rings),
                        tuple(x for x in hardware_lines if x in timed_as_lines and x not in told_lines), rule, value)


def _check_ici(hw: str | None, catalog: "Catalog | None") -> None:
    """The plan times collectives over a TPU mesh's ICI links: a GPU (NVLink within a node, a network beyond)
    is refused with the questions that time its collectives."""
    if hw is None:
        return
    from ..catalog.loader import load_catalog

    values = (catalog or load_catalog()).preset(hw, "hw").values
    if "ici_link_bw" not in values and "nvlink_gpu_bw" in values:
        raise InputError(f"derive shard times collectives over a TPU mesh's ICI links, and {hw} is a GPU; time its "
                         "collectives with derive solve: nvlink_allgather_time, nvlink_reducescatter_time or "
                         "nvlink_allreduce_time within a node (collective_bytes=... axis_size=...), "
                         "hierarchical_allgather_time or hierarchical_allreduce_time across nodes (num_nodes=...), "
                         "gpu_sharded_allgather_time for an array also sharded over an inner axis "
                         "(inner_axis_size=...)", name="hw")


def _slice_rule(hw: str | None, mesh: Mapping[str, int], catalog: "Catalog | None") -> tuple[str, int, tuple[str, ...]]:
    """Which mesh axes the chip's wraparound rule makes lines, if the mesh is the slice itself: v5e/v6e
    (``ici_wrap_axis_size``, 16) wrap only axes of exactly that size; v4/v5p (``ici_wrap_cube_edge``, 4)
    wrap every axis of a slice of whole cubes and none of a smaller one. ("", 0, ()) without such a rule."""
    if hw is None:
        return "", 0, ()
    from ..catalog.loader import load_catalog

    values = (catalog or load_catalog()).preset(hw, "hw").values
    size, edge = values.get("ici_wrap_axis_size"), values.get("ici_wrap_cube_edge")
    if size is not None and size.value is not None:
        n = int(size.value)
        return "axis_size", n, tuple(x for x, k in mesh.items() if k > 1 and k != n)
    if edge is not None and edge.value is not None:
        n = int(edge.value)
        whole = all(k % n == 0 for k in mesh.values() if k > 1)
        return "cube_edge", n, () if whole else tuple(x for x, k in mesh.items() if k > 1)
    return "", 0, ()


def _ring(axes: tuple[str, ...], mesh: Mapping[str, int]) -> dict[str, Any]:
    """The inputs of a collective over wrapped axes: rings, with the book's multi-axis rule (the longest
    path is the sum of the axes' halves, ``ici_ring_hops = axis_size_sum / 2``), as ``derive solve`` takes
    them (``axis_size_sum=12 ici_axes=2`` for axes of 4 and 8)."""
    return {"ici_axes": len(axes), "axis_size_sum": sum(mesh[x] for x in axes), "axis_wraps": 1}


def _line(axes: tuple[str, ...], mesh: Mapping[str, int]) -> dict[str, Any]:
    """The inputs of a collective when some of its axes have no wraparound: one line through all its chips
    (over several axes, the slower rule of the module's docstring)."""
    chips = 1
    for x in axes:
        chips *= mesh[x]
    return {"axis_size": chips}

