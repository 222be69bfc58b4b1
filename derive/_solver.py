"""Solve for any quantity: plan, solve each step symbolically, substitute, verify.

``solve()`` is the engine's one verb. It

1. gathers the knowns: the user's values override preset values (``--hw``,
   ``--model``, ``--preset``); catalog defaults only fill inputs that are still
   missing, and are reported as assumptions;
2. plans a chain of relations from the knowns to the target (``_plan.py``);
   if the knowns do not reach the target, the missing natural inputs are taken
   as symbols: if the target's formula does not depend on them they cancel
   (and the answer says so), otherwise they are reported as missing;
3. solves each step symbolically, once per process (``_inverse_cache``), keeps
   the real positive branch, picks the regime that holds for relations with
   ``max``/``min``, and substitutes exact values;
4. for ``bound="max"``/``"min"``, turns the required conditions into the
   symbolic bound on the target, finds on which side they hold, and rounds to
   an integer or a multiple;
5. substitutes the answer back into every relation and condition used: a
   failed check raises :class:`VerificationError`, it is never printed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable, Mapping, Sequence

import sympy

from ._errors import (
    ContradictoryInputsError,
    InputError,
    MissingInputsError,
    NoSolutionError,
    NotInvertibleError,
    VerificationError,
)
from ._model import Catalog, CatalogMemo, Quantity, Relation
from ._plan import Plan, PlanStep, input_like, plan
from ._solution import Check, Given, Note, Solution, Step
from ._units import format_value
from ._values import check_range, parse_value

__all__ = ["solve", "solve_relation_for"]

PRECISION = 60          # digits for numeric sign and residual checks
TOLERANCE = sympy.Rational(1, 10**40)


# ---------------------------------------------------------------------------
# exact comparisons


def _sign(expr: sympy.Expr) -> int:
    """The sign of an exact real number (-1, 0, 1), deciding numerically when SymPy cannot."""
    expr = expr if isinstance(expr, sympy.Basic) else sympy.Rational(expr)   # internal numbers only
    if expr.is_zero:
        return 0
    if expr.is_positive:
        return 1
    if expr.is_negative:
        return -1
    v = expr.evalf(PRECISION)
    if not v.is_real:
        raise NoSolutionError(f"{expr} is not a real number")
    if abs(v) < sympy.Float(10) ** (-PRECISION + 10):
        return 0
    return 1 if v > 0 else -1


def _close(a: sympy.Expr, b: sympy.Expr) -> bool:
    """Exact equality, allowing for the last digits of a high-precision evaluation."""
    diff = a - b
    if diff == 0:
        return True
    if diff.is_Rational:
        return False
    scale = max(abs(a.evalf(PRECISION)), abs(b.evalf(PRECISION)), sympy.Float(1e-300))
    return abs(diff.evalf(PRECISION)) <= TOLERANCE * scale


def _holds(op: str, left: sympy.Expr, right: sympy.Expr) -> bool:
    if _close(left, right):
        return op in ("<=", ">=", "=")
    s = _sign(left - right)
    return {"<=": s < 0, "<": s < 0, ">=": s > 0, ">": s > 0, "=": s == 0}[op]


def _relative(a: sympy.Expr, b: sympy.Expr) -> float:
    fa, fb = float(a.evalf(30)), float(b.evalf(30))
    return abs(fa - fb) / max(abs(fa), abs(fb), 1e-300)


# ---------------------------------------------------------------------------
# inversion, cached per process


def solve_relation_for(rel: Relation, name: str, regime: str | None = None,
                       memo: CatalogMemo | None = None) -> tuple[sympy.Expr, ...]:
    """All solutions of ``rel`` (or one of its regimes) for ``name``, in the relation's own symbols.

    With ``memo`` (the memo of the catalog ``rel`` belongs to), solved once and reused.
    """
    key = (rel.id, regime, name)
    hit = memo.inverses.get(key) if memo is not None else None
    if hit is not None:
        return hit
    if regime is None:
        lhs, rhs = rel.lhs, rel.rhs
    else:
        reg = next(r for r in rel.regimes if r.id == regime)
        lhs, rhs = reg.lhs, reg.rhs
    sym = sympy.Symbol(name, positive=True)
    if lhs == sym and not rhs.has(sym):
        sols: tuple[sympy.Expr, ...] = (rhs,)
    elif rhs == sym and not lhs.has(sym):
        sols = (lhs,)
    else:
        try:
            raw = sympy.solve(sympy.Eq(lhs, rhs), sym, dict=False)
        except (NotImplementedError, ValueError, TypeError) as exc:
            raise NotInvertibleError(rel.id, name, f"SymPy cannot isolate it ({exc})") from exc
        sols = tuple(s for s in raw if not isinstance(s, (sympy.Piecewise,)) and s.is_positive is not False
                     and not s.has(sympy.I))
        if not sols:
            raise NotInvertibleError(rel.id, name, "no positive real closed form")
    if memo is not None:
        memo.inverses[key] = sols
    return sols


def _solve_block(rels: Sequence[Relation], names: Sequence[str], memo: CatalogMemo) -> list[dict[str, sympy.Expr]]:
    key = (tuple(r.id for r in rels), tuple(names))
    hit = memo.blocks.get(key)
    if hit is not None:
        return [dict(zip(names, sol)) for sol in hit]
    syms = [sympy.Symbol(n, positive=True) for n in names]
    try:
        raw = sympy.solve([sympy.Eq(r.lhs, r.rhs) for r in rels], syms, dict=True)
    except (NotImplementedError, ValueError, TypeError) as exc:
        raise NotInvertibleError("+".join(r.id for r in rels), ", ".join(names),
                                 f"SymPy cannot solve the system ({exc})") from exc
    sols = []
    for sol in raw:
        if all(s in sol for s in syms):
            vals = tuple(sol[s] for s in syms)
            if all(v.is_positive is not False and not v.has(sympy.I) for v in vals):
                sols.append(vals)
    if not sols:
        raise NotInvertibleError("+".join(r.id for r in rels), ", ".join(names),
                                 "no positive real closed-form solution of the system")
    memo.blocks[key] = tuple(sols)
    return [dict(zip(names, sol)) for sol in sols]


# ---------------------------------------------------------------------------
# knowns


@dataclass
class _State:
    """Everything known during one solve: values, formulas and where each came from."""

    catalog: Catalog
    given: dict[str, Given] = field(default_factory=dict)      # inputs (user, preset, default)
    values: dict[str, sympy.Expr] = field(default_factory=dict)  # exact numeric values, base units
    formulas: dict[str, sympy.Expr] = field(default_factory=dict)  # in terms of input symbols
    origins: dict[str, frozenset[str]] = field(default_factory=dict)  # {"given","preset","default"}
    params: set[str] = field(default_factory=set)             # inputs taken as free symbols
    notes: list[Note] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    used: list[str] = field(default_factory=list)
    regime: str | None = None

    def known(self) -> set[str]:
        return set(self.values) | self.params | set(self.formulas)

    def sym(self, name: str) -> sympy.Symbol:
        return sympy.Symbol(name, positive=True)

    def numeric_map(self) -> dict[sympy.Symbol, sympy.Expr]:
        return {self.sym(k): v for k, v in self.values.items()}

    def formula_map(self) -> dict[sympy.Symbol, sympy.Expr]:
        return {self.sym(k): v for k, v in self.formulas.items()}


def _coerce_given(catalog: Catalog, q: Quantity, raw: Any) -> tuple[sympy.Rational, str]:
    if isinstance(raw, str):
        return parse_value(raw, q, catalog.units), raw.strip()
    if isinstance(raw, bool):
        raise InputError(f"{q.id} must be a number, not {raw!r}", name=q.id)
    if isinstance(raw, int):
        value = sympy.Integer(raw) * q.factor
    elif isinstance(raw, Fraction):
        value = sympy.Rational(raw.numerator, raw.denominator) * q.factor
    elif isinstance(raw, float):
        if raw != raw or raw in (float("inf"), float("-inf")):
            raise InputError(f"{q.id} must be a finite number, got {raw!r}", name=q.id)
        value = sympy.Rational(repr(raw)) * q.factor
    elif isinstance(raw, sympy.Basic) and raw.is_Rational:
        value = raw * q.factor
    else:
        raise InputError(f"{q.id} must be a number or text such as '3.35 TB/s', not {type(raw).__name__}",
                         name=q.id)
    check_range(value, q, str(raw))
    return value, str(raw)


def _gather(catalog: Catalog, given: Mapping[str, Any] | None, hw: str | None, model: str | None,
            presets: Sequence[str], target: str) -> _State:
    state = _State(catalog)
    chosen = []
    if hw:
        chosen.append(catalog.preset(hw, "hw"))
    if model:
        chosen.append(catalog.preset(model, "model"))
    for p in presets:
        chosen.append(catalog.preset(p))
    for preset in chosen:
        for name, pv in preset.values.items():
            q = catalog.quantities[name]
            state.given[name] = Given(name, pv.value, q.dims, pv.text, f"{preset.kind}:{preset.id}",
                                      pv.source, pv.note)
    for raw_name, raw in (given or {}).items():
        q = catalog.quantity(str(raw_name))
        value, text = _coerce_given(catalog, q, raw)
        if q.id in state.given and state.given[q.id].origin == "given":
            raise InputError(f"{q.id} is given twice (also as an alias); give it once", name=q.id)
        state.given[q.id] = Given(q.id, value, q.dims, text, "given")
    if target in state.given:
        origin = state.given[target].origin
        if origin == "given":
            raise InputError(f"{target} is the quantity asked for; do not also give it as an input", name=target)
        del state.given[target]   # asking for a preset's own constant derives it instead
    for name, g in state.given.items():
        state.values[name] = g.value
        state.formulas[name] = sympy.Symbol(name, positive=True)
        state.origins[name] = frozenset({"given" if g.origin == "given" else "preset"})
    return state


# ---------------------------------------------------------------------------
# steps


def _pick_branch(state: _State, name: str, candidates: list[tuple[sympy.Expr, sympy.Expr | None, str | None]],
                 rel_label: str) -> tuple[sympy.Expr, sympy.Expr | None, str | None]:
    """Keep real positive candidates (formula, value, regime); note when several remain."""
    kept = []
    for formula, value, regime in candidates:
        if value is not None:
            if value.has(sympy.I) or not value.is_real and value.evalf(30).as_real_imag()[1] != 0:
                continue
            if _sign(value) <= 0:
                continue
        elif formula.is_positive is False:
            continue
        kept.append((formula, value, regime))
    if not kept:
        shown = ", ".join(f"{v.evalf(6)}" for _, v, _ in candidates if v is not None)
        raise NoSolutionError(f"no real positive value of {name} satisfies {rel_label}"
                              + (f" (solutions: {shown})" if shown else "")
                              + "; check the inputs", quantity=name, relations=rel_label.split(" and "))
    # identical values (at a regime boundary, both regimes agree) count once
    distinct: list[tuple[sympy.Expr, sympy.Expr | None, str | None]] = []
    for item in kept:
        if not any(item[1] is not None and other[1] is not None and _close(item[1], other[1])
                   for other in distinct):
            distinct.append(item)
    if len(distinct) > 1:
        distinct.sort(key=lambda it: float(it[1].evalf(30)) if it[1] is not None else 0.0)
        shown = ", ".join(str(it[1].evalf(6)) if it[1] is not None else str(it[0]) for it in distinct)
        state.notes.append(Note.of("several_solutions", name=name, values=shown))
    return distinct[0]


def _solve_step(state: _State, step: PlanStep) -> None:
    fmap = state.formula_map()
    nmap = state.numeric_map()
    rels = step.relations
    if step.is_block:
        sols = _solve_block(rels, step.unknowns, state.catalog.memo)
        options = []
        for sol in sols:
            vals = {}
            ok = True
            for u in step.unknowns:
                expr = sol[u]
                numeric = _numeric(expr, nmap)
                if numeric is not None and _sign(numeric) <= 0:
                    ok = False
                vals[u] = (expr, numeric)
            if ok:
                options.append(vals)
        if not options:
            raise NoSolutionError(f"no real positive solution of {' and '.join(r.id for r in rels)} "
                                  f"for {', '.join(step.unknowns)}; check the inputs",
                                  quantity=", ".join(step.unknowns), relations=[r.id for r in rels])
        if len(options) > 1:
            state.notes.append(Note.of("several_solutions", name=", ".join(step.unknowns),
                                       values=f"{len(options)} solutions"))
        chosen = options[0]
        solved = []
        values = []
        for u in step.unknowns:
            expr, numeric = chosen[u]
            _record(state, u, expr, numeric, fmap, rels)
            solved.append(sympy.Eq(state.sym(u), expr, evaluate=False))
            values.append(numeric)
        state.steps.append(Step("system", tuple(r.id for r in rels), step.unknowns,
                                tuple(r.equation for r in rels), tuple(solved),
                                _inputs_of(rels, step.unknowns), tuple(values),
                                tuple(state.catalog.quantities[u].dims for u in step.unknowns), inverse=True))
        state.used.extend(r.id for r in rels)
        return

    rel = rels[0]
    u = step.unknowns[0]
    candidates: list[tuple[sympy.Expr, sympy.Expr | None, str | None]] = []
    if rel.regimes:
        # a candidate from a regime's equation is valid when the whole relation (with its
        # max/min) holds there; the regime that produced it is the one that applies
        undetermined_in = []
        sym_u = state.sym(u)
        for reg in rel.regimes:
            if not (reg.lhs.has(sym_u) or reg.rhs.has(sym_u)):
                undetermined_in.append(reg)
                continue
            for expr in solve_relation_for(rel, u, reg.id, state.catalog.memo):
                numeric = _numeric(expr, nmap)
                if numeric is None:
                    candidates.append((expr, None, reg.id))
                    continue
                env = dict(nmap)
                env[sym_u] = numeric
                whole_l, whole_r = _numeric(rel.lhs, env), _numeric(rel.rhs, env)
                if whole_l is not None and whole_r is not None and _close(whole_l, whole_r):
                    candidates.append((expr, numeric, reg.id))
        # a regime without u whose equation the knowns satisfy leaves u free within that regime
        # (roofline_time = memory_time: any compute_time up to it fits), even when another
        # regime offers a value (its boundary): u is not determined
        for reg in undetermined_in:
            el, er = _numeric(reg.lhs, nmap), _numeric(reg.rhs, nmap)
            if el is not None and er is not None and _close(el, er):
                raise NoSolutionError(
                    f"{u} is not determined by {rel.id}: in the {reg.id} regime ({reg.equation_text}) "
                    f"it drops out, so every {u} with {reg.when_text} fits; give {u} or another input",
                    quantity=u, relations=[rel.id])
        if not candidates:
            raise NoSolutionError(f"relation {rel.id} ({rel.equation_text}) cannot hold for any positive {u} "
                                  "with these inputs; check them", quantity=u, relations=[rel.id])
        if all(c[1] is None for c in candidates):
            if rel.defines == u:
                candidates = [(rel.rhs, None, None)]
            else:
                raise MissingInputsError(u, sorted(state.params & {s for s in rel.symbols}),
                                         f"the regime of {rel.id} depends on their values")
    else:
        for expr in solve_relation_for(rel, u, None, state.catalog.memo):
            candidates.append((expr, _numeric(expr, nmap), None))
        if any(v is not None and v.has(sympy.nan) for _, v, _ in candidates):
            # 0/0: with these inputs the relation may hold for every u (one pipeline chunk: any
            # bottleneck time gives the serial time)
            if sympy.cancel((rel.lhs - rel.rhs).xreplace(nmap)) == 0:
                raise NoSolutionError(f"{u} is not determined by {rel.id} ({rel.equation_text}) with these "
                                      f"inputs: it holds for every {u}; give {u} or change another input",
                                      quantity=u, relations=[rel.id])
    expr, numeric, regime = _pick_branch(state, u, candidates, rel.id)
    _record(state, u, expr, numeric, fmap, rels)
    if regime is not None:
        state.regime = regime
    eq = rel.equation
    state.steps.append(Step("relation", (rel.id,), (u,), (eq,),
                            (sympy.Eq(state.sym(u), expr, evaluate=False),),
                            _inputs_of(rels, (u,)), (numeric,), (state.catalog.quantities[u].dims,),
                            inverse=(rel.defines != u), regime=regime))
    state.used.append(rel.id)


def _inputs_of(rels: Sequence[Relation], unknowns: Sequence[str]) -> tuple[str, ...]:
    seen: list[str] = []
    for r in rels:
        for s in r.symbols:
            if s not in unknowns and s not in seen:
                seen.append(s)
    return tuple(seen)


def _numeric(expr: sympy.Expr, nmap: Mapping[sympy.Symbol, sympy.Expr]) -> sympy.Expr | None:
    if not expr.free_symbols <= set(nmap):
        return None
    return expr.xreplace(nmap) if expr.free_symbols else expr


def _record(state: _State, u: str, expr: sympy.Expr, numeric: sympy.Expr | None,
            fmap: Mapping[sympy.Symbol, sympy.Expr], rels: Sequence[Relation]) -> None:
    state.formulas[u] = expr.xreplace(fmap)
    if numeric is None:
        # the step used symbols that cancel later: the formula may still be a number
        numeric = _numeric(state.formulas[u], state.numeric_map())
    if numeric is not None:
        state.values[u] = numeric
    origin: set[str] = set()
    for s in expr.free_symbols:
        origin |= state.origins.get(s.name, frozenset({"param"}))
    state.origins[u] = frozenset(origin)


# ---------------------------------------------------------------------------
# planning with missing inputs taken as symbols


def _run_plan(state: _State, targets: Sequence[str], outer_target: str) -> Plan:
    catalog = state.catalog
    p = plan(catalog, targets, state.known())
    if all(t in p.determined for t in targets):
        return p
    # take the missing natural inputs near the targets as symbols
    inputs = input_like(catalog)
    candidates = set()
    for rid in p.component:
        for s in catalog.relations[rid].symbols:
            if s not in state.known() and s in inputs and s not in targets:
                candidates.add(s)
    state.params |= candidates
    for s in candidates:
        state.formulas[s] = state.sym(s)
        state.origins[s] = frozenset({"param"})
    p = plan(catalog, targets, state.known())
    unreached = [t for t in targets if t not in p.determined]
    if unreached:
        t = unreached[0]
        rels = catalog.relations_with(t)
        if not rels:
            raise MissingInputsError(t, [t], "no relation in the catalog involves it")
        raise NoSolutionError(
            f"cannot determine {t} from the catalog's relations with these inputs "
            f"(it appears in: {', '.join(rels[:6])}); give more inputs or check 'derive show {t}'",
            quantity=t, relations=rels)
    return p


def _settle_params(state: _State, needed: Iterable[str], target: str) -> None:
    """Fill the missing inputs the answer needs from catalog defaults, or report them missing."""
    missing = []
    for p in sorted(needed):
        q = state.catalog.quantities[p]
        if q.default is not None:
            state.given[p] = Given(p, q.default.value, q.dims, q.default.text, "default",
                                   q.default.source, q.default.note)
        else:
            missing.append(p)
    if missing:
        raise MissingInputsError(target, missing, _preset_hint(state.catalog, missing))


def _preset_hint(catalog: Catalog, missing: Sequence[str]) -> str:
    kinds = []
    for kind, flag in (("hw", "--hw ID"), ("model", "--model ID")):
        if any(any(m in p.values for p in catalog.presets.values() if p.kind == kind) for m in missing):
            kinds.append(flag)
    if not kinds:
        return ""
    listed = "hw" if kinds[0] == "--hw ID" else "model"
    return f"or choose a preset with {' or '.join(kinds)} (see 'derive list --kind {listed}')"


def _evaluate(state: _State, plan_: Plan) -> None:
    for step in plan_.steps:
        _solve_step(state, step)


def _defaults_applied(state: _State) -> bool:
    changed = False
    for name, g in state.given.items():
        if g.origin == "default" and name not in state.values:
            state.values[name] = g.value
            state.origins[name] = frozenset({"default"})
            state.params.discard(name)
            state.formulas[name] = state.sym(name)
            changed = True
    return changed


def _derive(state: _State, targets: Sequence[str], outer_target: str, relevant=None) -> None:
    """Plan and solve ``targets``; missing inputs become defaults, symbols that cancel, or an error.

    ``relevant(trial)`` names the missing inputs that the answer depends on; by
    default, those left in the targets' formulas.
    """
    p = _run_plan(state, targets, outer_target)
    if state.params:
        # solve symbolically first to see which missing inputs matter
        trial = _State(state.catalog, dict(state.given), dict(state.values), dict(state.formulas),
                       dict(state.origins), set(state.params))
        _evaluate(trial, p)
        if relevant is None:
            needed = set()
            for n in targets:
                f = trial.formulas.get(n)
                if f is not None:
                    needed |= {s.name for s in f.free_symbols if s.name in trial.params}
        else:
            needed = set(relevant(trial))
        _settle_params(state, needed, outer_target)
        if _defaults_applied(state):
            p = _run_plan(state, targets, outer_target)
    _evaluate(state, p)
    state.redundant = p.redundant  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------
# checks


def _check_relations(state: _State, relation_ids: Iterable[str]) -> None:
    nmap = state.numeric_map()
    for rid in dict.fromkeys(relation_ids):
        rel = state.catalog.relations[rid]
        left, right = _numeric(rel.lhs, nmap), _numeric(rel.rhs, nmap)
        if left is None or right is None:
            continue
        ok = _close(left, right)
        state.checks.append(Check("relation", rid, left, right, "=", ok))
        if not ok:
            raise VerificationError(
                f"internal check failed: relation {rid} does not hold at the answer "
                f"({left.evalf(12)} vs {right.evalf(12)}); this is a bug in derive, please report it")
        for reg in rel.regimes:
            el, er = _numeric(reg.lhs, nmap), _numeric(reg.rhs, nmap)
            wl, wr = _numeric(reg.when.lhs, nmap), _numeric(reg.when.rhs, nmap)
            if None in (el, er, wl, wr):
                continue
            if _holds(reg.when.op, wl, wr):
                holds = _close(el, er)
                state.checks.append(Check("regime", f"{rid}.{reg.id}", el, er, "=", holds))
                if not holds:
                    raise VerificationError(f"internal check failed: regime {rid}.{reg.id} holds but its "
                                            "equation does not; this is a bug in derive, please report it")


def _over_determined(state: _State, rel: Relation, env: Mapping[sympy.Symbol, sympy.Expr],
                     origins: set[str]) -> None:
    """A relation whose every symbol has a value: it must hold.

    If it does not and every value was typed by the user, the inputs contradict
    each other; if some came from presets or defaults, the user's value wins and
    the answer notes the override.
    """
    left, right = _numeric(rel.lhs, env), _numeric(rel.rhs, env)
    if left is None or right is None or _close(left, right):
        return
    dims = state.catalog.quantities[rel.defines].dims if rel.defines else None
    ltxt = format_value(left, dims).text if dims else str(left.evalf(6))
    rtxt = format_value(right, dims).text if dims else str(right.evalf(6))
    if origins == {"given"}:
        raise ContradictoryInputsError(rel.id, f"{rel.lhs} is {ltxt}", f"{rel.rhs} is {rtxt}",
                                       _relative(left, right), f"({rel.equation_text})")
    if "given" in origins:
        state.notes.append(Note.of("override", relation=rel.id, equation=rel.equation_text,
                                   given_value=ltxt, preset_value=rtxt))


def _check_redundant(state: _State, redundant: Iterable[Relation]) -> None:
    """Relations the plan left over because the inputs already determine them."""
    nmap = state.numeric_map()
    for rel in redundant:
        origins: set[str] = set()
        for s in rel.symbols:
            origins |= state.origins.get(s, frozenset({"param"}))
        _over_determined(state, rel, nmap, origins)


def _check_given_only(state: _State) -> None:
    """Relations that the typed inputs over-determine, with catalog defaults filling the rest."""
    typed = {n for n, g in state.given.items() if g.origin == "given"}
    catalog = state.catalog
    seen = set()
    for n in typed:
        for rid in catalog.relations_with(n):
            if rid in seen:
                continue
            seen.add(rid)
            rel = catalog.relations[rid]
            env: dict[sympy.Symbol, sympy.Expr] = {}
            origins: set[str] = set()
            for sname in rel.symbols:
                if sname in state.values:
                    env[state.sym(sname)] = state.values[sname]
                    origins |= state.origins.get(sname, frozenset())
                elif (default := catalog.quantities[sname].default) is not None:
                    env[state.sym(sname)] = default.value
                    origins.add("default")
                else:
                    break
            else:
                _over_determined(state, rel, env, origins)


# ---------------------------------------------------------------------------
# bounds


def _sign_part(expr: sympy.Expr, t: sympy.Symbol, memo: CatalogMemo) -> sympy.Expr:
    """``expr`` with its positive factors free of ``t`` (and powers of ``t``) divided out: same sign,
    same positive roots in ``t``.

    ``8*B*D**2/F - 8*D**2*e/W`` becomes ``B*W - e*F``: D cancels, whether the target is B or D
    (then the condition does not depend on it). Memoised in the catalog's memo.
    """
    key = (expr, t)
    hit = memo.sign_parts.get(key)
    if hit is None:
        hit = memo.sign_parts[key] = _compute_sign_part(expr, t)
    return hit


def _compute_sign_part(expr: sympy.Expr, t: sympy.Symbol) -> sympy.Expr:
    num, den = sympy.fraction(sympy.together(expr))

    def keep(e: sympy.Expr) -> sympy.Expr:
        e = sympy.factor_terms(sympy.expand(e)) if e.is_Add else e
        factors = e.args if isinstance(e, sympy.Mul) else (e,)
        out = []
        for f in factors:
            base = f.base if isinstance(f, sympy.Pow) else f
            if not f.has(t) and (f.is_positive is True or base.is_positive is True):
                continue
            if base == t and f.is_positive is True:   # t**k > 0 for t > 0: it never changes the sign
                continue
            out.append(f)
        return sympy.Mul(*out)

    return keep(num) / keep(den)


def _bound(state: _State, target: str, bound: str, conditions: Sequence, multiple_of: int | None
           ) -> tuple[sympy.Expr, sympy.Expr, sympy.Expr, list[str], tuple[sympy.Basic, ...]]:
    """The max or min of ``target`` under ``conditions``: (answer, exact edge, symbolic edge, ids, composed)."""
    catalog = state.catalog
    q = catalog.quantities[target]
    t = state.sym(target)
    # the target is an input here: each condition becomes a function of it
    state.formulas[target] = t
    state.origins[target] = frozenset({"bound"})
    needed = sorted({s for c in conditions for s in c.symbols if s != target})

    def relevant(trial: _State) -> set[str]:
        names: set[str] = set()
        fmap = trial.formula_map()
        for c in conditions:
            g = _sign_part(c.comparison.lhs.xreplace(fmap) - c.comparison.rhs.xreplace(fmap), t, catalog.memo)
            names |= {s.name for s in g.free_symbols if s.name in trial.params}
        return names

    _derive(state, needed, target, relevant)
    fmap = state.formula_map()
    nmap = {k: v for k, v in state.numeric_map().items() if k != t}
    sides = []
    roots: list[sympy.Expr] = []
    for cond in conditions:
        L, R = cond.comparison.lhs.xreplace(fmap), cond.comparison.rhs.xreplace(fmap)
        g_sym = _sign_part(L - R, t, catalog.memo)
        g = _sign_part((L - R).xreplace(nmap), t, catalog.memo)
        if not g_sym.has(t):
            raise NoSolutionError(f"condition {cond.id} ({cond.text}) does not depend on {target}; "
                                  "it cannot bound it: bound another quantity of the condition",
                                  quantity=target, relations=[cond.id])
        if g.free_symbols - {t}:
            raise MissingInputsError(target, sorted(s.name for s in g.free_symbols - {t}))
        sides.append((cond, L, R, g, g_sym))
        if not g.has(t):   # with these inputs it holds for every target value or for none
            continue
        key = ("numeric", g, target)
        hit = catalog.memo.bounds.get(key)
        if hit is None:
            try:
                hit = tuple(sympy.solve(sympy.Eq(g, 0), t))
            except NotImplementedError as exc:
                raise NotInvertibleError(cond.id, target, f"SymPy cannot isolate it ({exc})") from exc
            catalog.memo.bounds[key] = hit
        roots.extend(r for r in hit if not r.free_symbols and not r.has(sympy.I) and _sign(r) > 0)
    roots = sorted(set(roots), key=lambda r: float(r.evalf(30)))

    def feasible(x: sympy.Expr) -> bool:
        return all(_holds(c.comparison.op, g.xreplace({t: x}), sympy.Integer(0)) for c, _, _, g, _ in sides)

    names = ", ".join(c.id for c in conditions)
    # feasibility on each interval between the boundary points
    points = [sympy.Integer(0)] + roots
    intervals = []
    for i, lo in enumerate(points):
        hi = points[i + 1] if i + 1 < len(points) else None
        probe = (lo + hi) / 2 if hi is not None else (lo * 2 if lo != 0 else sympy.Integer(1))
        intervals.append((lo, hi, feasible(probe)))
    if not any(f for _, _, f in intervals) and not any(feasible(r) for r in roots):
        raise NoSolutionError(f"no positive {target} satisfies {names} with these inputs; check the inputs",
                              quantity=target, relations=[c.id for c in conditions])
    if all(f for _, _, f in intervals) and all(feasible(r) for r in roots):
        raise NoSolutionError(f"{names} holds for every positive {target} with these inputs, so {target} "
                              f"has no {'maximum' if bound == 'max' else 'minimum'}; check the inputs",
                              quantity=target, relations=[c.id for c in conditions])
    if bound == "max":
        if intervals[-1][2]:
            raise NoSolutionError(f"{target} has no maximum: {names} holds for every large {target}; "
                                  "did you mean --min?", quantity=target, relations=[c.id for c in conditions])
        edges = [hi for lo, hi, f in intervals if f and hi is not None] + [r for r in roots if feasible(r)]
        edge = max(edges, key=lambda r: float(r.evalf(30)))
    else:
        if intervals[0][2]:
            raise NoSolutionError(f"{target} has no positive minimum: {names} holds for every small "
                                  f"{target}; did you mean --max?", quantity=target,
                                  relations=[c.id for c in conditions])
        edges = [lo for lo, hi, f in intervals if f and lo != 0] + [r for r in roots if feasible(r)]
        edge = min(edges, key=lambda r: float(r.evalf(30)))
    # the closed form whose value is the edge
    symbolic = edge
    for _cond, _L, _R, _g, g_sym in sides:
        key = ("symbolic", g_sym, target)
        hit = catalog.memo.bounds.get(key)
        if hit is None:
            try:
                hit = tuple(sympy.solve(sympy.Eq(g_sym, 0), t))
            except NotImplementedError:
                hit = ()
            catalog.memo.bounds[key] = hit
        match = next((c for c in hit if (v := _numeric(c, nmap)) is not None and not v.has(sympy.I)
                      and _close(v, edge)), None)
        if match is not None:
            symbolic = match
            break
    # round to a whole number or a multiple
    step = sympy.Integer(multiple_of) if multiple_of else (sympy.Integer(1) if q.integer else None)
    answer = edge
    if step is not None:
        if bound == "max":
            answer = sympy.floor(edge / step) * step
            if not feasible(answer):
                answer -= step
        else:
            answer = sympy.ceiling(edge / step) * step
            if not feasible(answer):
                answer += step
        if answer <= 0 or not feasible(answer):
            what = f"multiple of {step}" if multiple_of else "whole number"
            raise NoSolutionError(f"no positive {what} {target} satisfies {names}; check the inputs"
                                  + (" or use a smaller --multiple-of" if multiple_of else ""),
                                  quantity=target, relations=[c.id for c in conditions])
    elif not feasible(edge):
        state.notes.append(Note.of("strict_bound", name=target))
    # substitute back: the conditions hold at the answer and fail one step past it
    at = dict(nmap)
    at[t] = answer
    for cond, L, R, g, _ in sides:
        lv, rv = _numeric(L, at), _numeric(R, at)
        if lv is None or rv is None:   # sides with inputs that cancel: check the reduced form
            lv, rv = g.xreplace({t: answer}), sympy.Integer(0)
        ok = _holds(cond.comparison.op, lv, rv)
        state.checks.append(Check("condition", cond.id, lv, rv, cond.comparison.op, ok, at=str(answer)))
        if not ok:
            raise VerificationError(f"internal check failed: {cond.id} does not hold at the bound {answer}; "
                                    "this is a bug in derive, please report it")
    if step is not None:
        past = answer + step if bound == "max" else answer - step
        if past > 0:
            ok_past = feasible(past)
            state.checks.append(Check("tight", names, past, answer, "", not ok_past, at=str(past), expect=False))
            if ok_past:
                raise VerificationError(f"internal check failed: the bound on {target} is not tight "
                                        f"({past} also satisfies {names}); please report it")
    # every quantity of the chain, at the answer
    for name, f in list(state.formulas.items()):
        if name not in state.values:
            v = _numeric(f, at)
            if v is not None:
                state.values[name] = v
    composed = tuple(sympy.Rel(L, R, c.comparison.op) for c, L, R, _, _ in sides)
    return answer, edge, symbolic, [c.id for c in conditions], composed


# ---------------------------------------------------------------------------
# the verb


def _key(catalog: Catalog, target: str, given: Mapping[str, Any] | None, hw, model, presets, bound, require,
         multiple_of) -> tuple | None:
    try:
        items = tuple(sorted((str(k), repr(v) if not isinstance(v, str) else v) for k, v in (given or {}).items()))
    except TypeError:
        return None
    return (target, items, hw, model, tuple(presets), bound, tuple(require), multiple_of)


def solve(target: str, given: Mapping[str, Any] | None = None, *, hw: str | None = None,
          model: str | None = None, presets: Sequence[str] = (), bound: str | None = None,
          require: Sequence[str] = (), multiple_of: int | None = None,
          catalog: Catalog | None = None) -> Solution:
    """Solve for ``target`` from ``given`` values and presets.

    ``given`` maps quantity names to values: text with a unit (``"3.35 TB/s"``),
    or a number in the quantity's declared unit. ``bound`` is ``"max"`` or
    ``"min"`` and needs ``require`` (condition ids); ``multiple_of`` rounds the
    bound to a multiple. Raises a :class:`~derive.DeriveError` subclass on bad
    input; every returned value has been substituted back and checked.
    """
    if catalog is None:
        from ._loader import load_catalog

        catalog = load_catalog()
    key = _key(catalog, target, given, hw, model, presets, bound, require, multiple_of)
    answers = catalog.memo.answers
    if key is not None and key in answers:
        answers.move_to_end(key)
        return answers[key]
    solution = _solve(catalog, target, given, hw, model, presets, bound, require, multiple_of)
    if key is not None:
        catalog.memo.remember_answer(key, solution)
    return solution


def _solve(catalog: Catalog, target: str, given, hw, model, presets, bound, require, multiple_of) -> Solution:
    q = catalog.quantity(target)
    target = q.id
    if bound not in (None, "max", "min"):
        raise InputError(f"bound must be 'max' or 'min', not {bound!r}", name="bound")
    conditions = [catalog.condition(c) for c in require]
    if bound and not conditions:
        raise InputError(f"--{bound} needs at least one --require CONDITION (see 'derive list --kind condition')",
                         name="require")
    if multiple_of is not None:
        if isinstance(multiple_of, bool) or not isinstance(multiple_of, int) or multiple_of <= 0:
            raise InputError(f"--multiple-of must be a positive whole number, not {multiple_of!r}", name="multiple_of")
        if not bound:
            raise InputError("--multiple-of rounds a bound: use it with --max or --min", name="multiple_of")
    state = _gather(catalog, given, hw, model, presets, target)
    _check_given_only(state)
    exact_edge = None
    symbolic_edge = None
    if bound:
        answer, exact_edge, symbolic_edge, cond_ids, composed = _bound(state, target, bound, conditions, multiple_of)
        value = answer
        formula = symbolic_edge
        state.values[target] = answer
        op = "<=" if bound == "max" else ">="
        state.steps.append(Step("bound", tuple(cond_ids), (target,),
                                tuple(sympy.Rel(c.comparison.lhs, c.comparison.rhs, c.comparison.op)
                                      for c in conditions),
                                (sympy.Eq(state.sym(target), symbolic_edge, evaluate=False),),
                                tuple(sorted({s for c in conditions for s in c.symbols if s != target})),
                                (exact_edge,), (q.dims,), direction=bound, relation_op=op, composed=composed))
        if answer != exact_edge:
            state.steps.append(Step("round", tuple(cond_ids), (target,), (), (), (), (answer,), (q.dims,),
                                    direction=bound, note=str(multiple_of or 1)))
    else:
        _derive(state, [target] + sorted({s for c in conditions for s in c.symbols} - {target}), target)
        if target not in state.values:
            raise MissingInputsError(target, sorted(state.params))
        value = state.values[target]
        formula = state.formulas[target]
        for cond in conditions:
            nmap = state.numeric_map()
            left, right = _numeric(cond.comparison.lhs, nmap), _numeric(cond.comparison.rhs, nmap)
            ok = left is not None and right is not None and _holds(cond.comparison.op, left, right)
            if left is not None and right is not None:
                state.checks.append(Check("condition", cond.id, left, right, cond.comparison.op, ok))
            if not ok:
                raise NoSolutionError(f"{target} = {format_value(value, q.dims).text}, but condition {cond.id} "
                                      f"({cond.text}) does not hold there; change the inputs, or ask for "
                                      f"a bound with --max or --min", quantity=target, relations=[cond.id])
        if q.integer and not value.is_Integer:
            state.notes.append(Note.of("not_integer", name=target, value=format_value(value, q.dims).text))
    _check_relations(state, state.used)
    _check_redundant(state, getattr(state, "redundant", ()))
    step_inputs = {n for st in state.steps for n in st.inputs}
    formula_inputs = {s.name for s in formula.free_symbols}
    derived = {u for st in state.steps for u in st.solved_for}
    # the inputs of a max/min step choose its regime: the answer depends on them even where its formula does not
    deciding = {n for st in state.steps if st.regime for n in st.inputs}
    cancelled = tuple(sorted(n for n in step_inputs - formula_inputs - derived - deciding - {target}
                             if n in state.given or n in state.params))
    if cancelled:
        state.notes.append(Note.of("cancelled", names=", ".join(cancelled)))
    used_inputs = _inputs_used(state, formula, target)
    given_list = tuple(g for n, g in state.given.items() if n in used_inputs)
    return Solution(
        target=target, value=value, dims=q.dims, formula=formula,
        exact=exact_edge if exact_edge is not None else value, given=given_list,
        steps=tuple(state.steps), relations_used=tuple(dict.fromkeys(state.used)),
        checks=tuple(state.checks), bound=bound, require=tuple(c.id for c in conditions),
        multiple_of=multiple_of, regime=state.regime, notes=tuple(dict.fromkeys(state.notes)),
        cancelled=cancelled, catalog=catalog)


def _inputs_used(state: _State, formula: sympy.Expr, target: str) -> set[str]:
    names = {s.name for s in formula.free_symbols}
    for st in state.steps:
        names.update(st.inputs)
    return {n for n in names if n in state.given}
