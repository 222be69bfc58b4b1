"""Plan a derivation: which relations, in which order, determine the targets from the knowns.

This is the structural half of solving (no algebra happens here), in the manner
of equation-based modelling tools: relations are matched to the unknowns they
can determine and sorted so that each step uses only what earlier steps found.

* A relation with exactly one unknown that it can be solved for determines it
  (a 1×1 block). Steps are found in rounds, so the chain is as short as possible.
  When several relations could determine the same unknown in a round, the rule of
  :func:`_preference` chooses (the defining relation, then the more direct one, then
  the id), so a derivation never depends on file names or the order of entries.
* When no such relation is left, the planner looks for the smallest square
  block: 2 relations sharing exactly 2 unknowns, then 3 sharing 3, which are
  solved simultaneously.
* A relation whose symbols are all known without being used is *redundant*:
  the solver checks it for contradictions among the inputs.

Only the steps the targets depend on are kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable

import sympy

from ..errors import DeriveError
from ..records.catalog import Catalog
from ..records.entries import Relation
from .blocks import block_solutions

__all__ = ["Plan", "PlanStep", "can_solve_for", "input_like", "plan"]

MAX_BLOCK = 3


@dataclass(frozen=True)
class PlanStep:
    """Relations solved together for the unknowns they determine."""

    relations: tuple[Relation, ...]
    unknowns: tuple[str, ...]

    @property
    def is_block(self) -> bool:
        return len(self.relations) > 1


@dataclass(frozen=True)
class Plan:
    steps: tuple[PlanStep, ...]          # only the steps the targets need, in solving order
    determined: frozenset[str]           # every symbol the knowns determine (targets included or not)
    redundant: tuple[Relation, ...]      # relations fully known without being used
    component: frozenset[str]            # relation ids looked at


def can_solve_for(rel: Relation, name: str) -> bool:
    """Whether ``rel`` can be solved for ``name`` (decided when the catalog was built).

    Not when the symbol only occurs inside ``ceil``/``floor`` (those are not
    invertible); for a relation with regimes, when some regime's equation has it.
    """
    return name in rel.solvable


def input_like(catalog: Catalog) -> frozenset[str]:
    """Quantities that no relation defines on its left side: the natural inputs."""
    hit = catalog.memo.natural_inputs
    if hit is None:
        hit = catalog.memo.natural_inputs = frozenset(set(catalog.quantities) - set(catalog.defined))
    return hit


def _component(catalog: Catalog, targets: Iterable[str], known: set[str],
               excluded: frozenset[str] = frozenset()) -> list[str]:
    """The ids of the relations linked to ``targets`` through quantities not ``known``, found from the
    catalog's symbol index alone (no relation is decoded)."""
    seen_syms: set[str] = set()
    seen_rels: set[str] = set()
    stack = [t for t in targets if t not in known]
    while stack:
        s = stack.pop()
        if s in seen_syms:
            continue
        seen_syms.add(s)
        for rid in catalog.relations_with(s):
            if rid in seen_rels or rid in excluded:
                continue
            seen_rels.add(rid)
            stack.extend(x for x in catalog.symbols_of(rid) if x not in known and x not in seen_syms)
    # sorted by id, so that plans never depend on file names or the order of entries in a file
    return sorted(seen_rels)


def plan(catalog: Catalog, targets: Iterable[str], known: Iterable[str],
         assumed: Iterable[str] = (), *, zeros: Iterable[str] = (), missing: Iterable[str] = (),
         check_blocks: bool = False, excluded: Iterable[str] = (),
         avoided: Iterable[tuple[str, str]] = ()) -> Plan:
    """Plan how ``known`` determines ``targets``; targets that cannot be reached are left out.

    ``assumed`` are the knowns without a value yet (missing inputs taken as symbols, or catalog
    defaults): of two relations that could determine a quantity, the one that needs fewer of
    them is preferred. ``missing`` (of those, the inputs nobody gave, taken as symbols) are
    avoided further: a quantity is determined the way that leans on the fewest of them, counted
    through every step before it (a dense model's count from its given architecture, not a
    mixture of experts' from expert counts nobody gave). ``zeros`` are the knowns whose value is 0:
    a quantity defined as a product with one of them as a factor is 0 without its other inputs
    (no dense layers: no dense-layer MLP, whatever its width). With ``check_blocks``, a set of
    relations solved together is taken only when the algebra gives it a solution (two ways of
    counting the same parameters do not make a system). ``excluded`` are relations left out of this
    question (their premises, ``holds_when``, do not hold for its inputs: :mod:`derive.engine.premises`).
    ``avoided`` are (relation id, quantity) pairs the plan must not solve that relation for (a count it
    would give as a fraction with this question's values, or find from a preset's nominal figure).
    A plan depends only on which quantities are known (and which are 0) and which relations are left
    out, never on their other values, so it is kept in the catalog's memo by that shape and reused
    for every question of the shape.
    """
    targets = tuple(dict.fromkeys(targets))
    known_set = frozenset(known)
    assumed_set = frozenset(assumed) & known_set
    zero_set = frozenset(zeros) & known_set
    missing_set = frozenset(missing) & known_set
    excluded_set = frozenset(excluded)
    avoided_set = frozenset(avoided)
    key = (targets, known_set, assumed_set, zero_set, missing_set, check_blocks, excluded_set, avoided_set)
    memo = catalog.memo.plans
    hit = memo.get(key)
    if hit is not None:
        memo.move_to_end(key)
        return hit
    made = _plan(catalog, targets, known_set, assumed_set, zero_set, missing_set, check_blocks, excluded_set,
                 avoided_set)
    memo[key] = made
    if len(memo) > catalog.memo.PLANS:
        memo.popitem(last=False)
    return made


def _plan(catalog: Catalog, targets: tuple[str, ...], known_set: frozenset[str], assumed: frozenset[str],
          zeros: frozenset[str] = frozenset(), missing: frozenset[str] = frozenset(),
          check_blocks: bool = False, excluded: frozenset[str] = frozenset(),
          avoided: frozenset[tuple[str, str]] = frozenset()) -> Plan:
    """The rounds of 1x1 steps, in time linear in the relations looked at: each relation keeps a
    count of its unknowns, lowered as symbols become determined; one with a single unknown left
    is a candidate of the next round. Of a round's candidates, only those that lean on the fewest
    ``missing`` inputs are taken; the others wait (a later round may find a way without them)."""
    ids = _component(catalog, targets, set(known_set), excluded)
    relations = catalog.relations          # decoded as the planner first considers each
    determined: set[str] = set(known_set)
    producer: dict[str, PlanStep] = {}
    used: set[str] = set()
    # the missing inputs each determined quantity was found from
    leans: dict[str, frozenset[str]] = {m: frozenset((m,)) for m in missing}
    for u, rel in _zero_products(catalog, ids, determined, zeros):
        producer[u] = PlanStep((rel,), (u,))
        used.add(rel.id)
        determined.add(u)
    given = known_set - assumed
    by_symbol: dict[str, list[str]] = {}
    unknown_count: dict[str, int] = {}
    frontier: list[str] = []
    for rid in ids:
        unk = [x for x in catalog.symbols_of(rid) if x not in determined]
        unknown_count[rid] = len(unk)
        for x in unk:
            by_symbol.setdefault(x, []).append(rid)
        if len(unk) == 1:
            frontier.append(rid)

    def determine(name: str, following: list[str]) -> None:
        determined.add(name)
        for other in by_symbol.get(name, ()):
            unknown_count[other] -= 1
            if unknown_count[other] == 1 and other not in used:
                following.append(other)

    while not all(t in determined for t in targets):
        # one round of 1x1 steps: the candidates found in the previous round
        candidates: list[tuple[str, Relation, frozenset[str]]] = []
        for rid in frontier:
            if rid in used or unknown_count[rid] != 1:
                continue
            rel = relations[rid]
            u = next(x for x in rel.symbols if x not in determined)
            if not can_solve_for(rel, u) or (rid, u) in avoided:
                continue
            behind = frozenset().union(*(leans.get(s, frozenset()) for s in rel.symbols if s != u))
            candidates.append((u, rel, behind))
        fewest = min((_weight(rel, u, b) for u, rel, b in candidates), default=0)
        chosen: dict[str, tuple[tuple[int, int, int, int, str], Relation, frozenset[str]]] = {}
        for u, rel, behind in candidates:
            if _weight(rel, u, behind) != fewest:
                continue                   # waits: it leans on more missing inputs than this round's best
            rank = _preference(rel, u, assumed, given if fewest else frozenset())
            if u not in chosen or rank < chosen[u][0]:
                chosen[u] = (rank, rel, behind)
        following: list[str] = []
        if chosen:
            for u, (_, rel, behind) in sorted(chosen.items()):
                producer[u] = PlanStep((rel,), (u,))
                used.add(rel.id)
                if behind:
                    leans[u] = behind
            for u in sorted(chosen):
                determine(u, following)
            # a relation still single-unknown but not chosen (not solvable for it) waits for later rounds
            frontier = following + [r for r in frontier if r not in used and unknown_count[r] == 1]
            continue
        block = _find_block([r for r in ids if r not in used], determined, catalog, check_blocks, avoided)
        if block is None:
            break
        used.update(r.id for r in block.relations)
        behind = frozenset().union(*(leans.get(s, frozenset()) for r in block.relations for s in r.symbols
                                     if s not in block.unknowns))
        for u in block.unknowns:
            producer[u] = block
            if behind:
                leans[u] = behind
            determine(u, following)
        frontier = following + [r for r in frontier if r not in used and unknown_count[r] == 1]

    # keep what the targets need, in dependency order
    needed: list[PlanStep] = []
    seen: set[int] = set()

    def visit(name: str) -> None:
        step = producer.get(name)
        if step is None or id(step) in seen:
            return
        seen.add(id(step))
        for rel in step.relations:
            for s in rel.symbols:
                if s not in step.unknowns:
                    visit(s)
        needed.append(step)

    for t in targets:
        visit(t)
    redundant = tuple(relations[r] for r in ids
                      if r not in used and all(s in determined for s in catalog.symbols_of(r)))
    return Plan(tuple(needed), frozenset(determined), redundant, frozenset(ids))


def _preference(rel: Relation, unknown: str, assumed: frozenset[str] = frozenset(),
                given: frozenset[str] = frozenset()) -> tuple[int, int, int, int, str]:
    """Which relation determines ``unknown`` when several could, in the same round (smaller wins).

    1. a relation that defines it (has it alone on its left) before one solved for it;
    2. when both lean on missing inputs, the relation that uses more of the ``given`` values (a
       mixture of experts' count, which reads the expert counts the user gave, before the dense
       count, which would leave them unread);
    3. then the relation that needs fewer ``assumed`` inputs (DeepSeek's latent-attention KV cache
       from its given ranks, not the dense one from a head count and a head size left to defaults);
    4. then the relation with fewer quantities (the more direct one);
    5. then the relation id, alphabetically: never the file an entry is in or its place there.
    """
    return (0 if rel.defines == unknown else 1, -sum(1 for s in rel.symbols if s in given),
            sum(1 for s in rel.symbols if s in assumed), len(rel.symbols), rel.id)


def _weight(rel: Relation, unknown: str, behind: frozenset[str]) -> int:
    """How much determining ``unknown`` by ``rel`` leans on missing inputs: how many it is found from; a
    ``max``/``min`` solved backwards from them comes last, as its regime cannot be chosen without values."""
    backwards_through_regimes = bool(behind) and bool(rel.regimes) and rel.defines != unknown
    return len(behind) + (1 << 20 if backwards_through_regimes else 0)


def _zero_products(catalog: Catalog, ids: list[str], known: set[str],
                   zeros: frozenset[str]) -> list[tuple[str, Relation]]:
    """The quantities the relations ``ids`` define as 0 whatever their other inputs, because a factor is
    known to be 0 (``dense_mlp_params = dense_layers·n·D·F_dense`` with no dense layers), each with its
    relation; found again from those, until none is left."""
    if not zeros:
        return []
    zero = set(zeros)
    found: list[tuple[str, Relation]] = []
    done: set[str] = set()
    while True:
        new = []
        for rid in ids:
            if rid in done or not (zero & catalog.symbols_of(rid)):
                continue
            rel = catalog.relations[rid]
            u = rel.defines
            if not u or u in known or u in zero:
                continue
            at_zero = rel.rhs.xreplace({catalog.symbol(z): sympy.Integer(0) for z in zero if z in rel.symbols})
            if at_zero == 0:
                new.append((u, rel))
        if not new:
            return found
        for u, rel in new:
            if u not in zero:
                zero.add(u)
                done.add(rel.id)
                found.append((u, rel))


def _find_block(ids: list[str], determined: set[str], catalog: Catalog, check_blocks: bool,
                avoided: frozenset[tuple[str, str]] = frozenset()) -> PlanStep | None:
    """The smallest set of k relations sharing exactly k unknowns (k = 2, 3), each solvable, among the
    relations ``ids``.

    Candidate unknown sets are built from the relations themselves (a relation's own
    unknowns, or the union of two that overlap), so the search grows with the number
    of relations, not with its cube; it reads the catalog's symbol index, and decodes only the
    relations of a candidate set. With ``check_blocks``, a set whose system the algebra shows to
    have no positive solution (contradictory relations) is passed over.
    """
    unknowns: dict[str, frozenset[str]] = {}
    by_symbol: dict[str, list[str]] = {}
    for rid in ids:
        unk = catalog.symbols_of(rid) - determined
        if 2 <= len(unk) <= MAX_BLOCK:
            unknowns[rid] = unk
            for s in unk:
                by_symbol.setdefault(s, []).append(rid)
    for k in range(2, MAX_BLOCK + 1):
        sets: dict[frozenset[str], None] = {}
        small = [u for u in unknowns.values() if len(u) <= k]
        for u in small:
            if len(u) == k:
                sets[u] = None
        for u in small:                      # unions of two overlapping sets
            if len(u) >= k:
                continue
            for s in sorted(u):              # by name, not hash order: the same block in every process
                for other in by_symbol.get(s, ()):
                    union = u | unknowns[other]
                    if len(union) == k:
                        sets[union] = None
        for target in sets:
            members = list(dict.fromkeys(r for s in sorted(target) for r in by_symbol.get(s, ())
                                         if unknowns[r] <= target))
            if len(members) < k:
                continue
            for combo in combinations(members, k):
                if frozenset().union(*(unknowns[r] for r in combo)) != target:
                    continue
                rels = [catalog.relations[r] for r in combo]
                if _has_perfect_matching(rels, sorted(target), avoided) \
                        and (not check_blocks or _has_solution(catalog, rels, sorted(target))):
                    return PlanStep(tuple(rels), tuple(sorted(target)))
    return None


def _has_solution(catalog: Catalog, rels: Iterable[Relation], unknowns: list[str]) -> bool:
    """Whether the system of ``rels`` has a positive solution for ``unknowns`` (solved once per catalog);
    True when the algebra cannot tell (the solver then says why, when the step is solved)."""
    try:
        return bool(block_solutions(tuple(rels), unknowns, catalog.memo))
    except DeriveError:
        return True


def _has_perfect_matching(rels: list[Relation], unknowns: list[str],
                          avoided: frozenset[tuple[str, str]] = frozenset()) -> bool:
    match: dict[str, int] = {}

    def augment(i: int, seen: set[str]) -> bool:
        for u in unknowns:
            if u in seen or u not in rels[i].symbols or not can_solve_for(rels[i], u) \
                    or (rels[i].id, u) in avoided:
                continue
            seen.add(u)
            if u not in match or augment(match[u], seen):
                match[u] = i
                return True
        return False

    return all(augment(i, set()) for i in range(len(rels)))
