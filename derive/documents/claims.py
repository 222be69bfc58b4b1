"""``derive check``: evaluate every numeric claim of a chapter (a claims file) against the catalog.

A claims file lists what a chapter states, one entry per number: a short quote,
the stated value with its unit, and either the question whose answer the number
should be (the fields of a problem-file question: ``solve``, ``given``, ``hw``,
``model``, ``presets``, ``bound``, ``require``, ``multiple_of``) or the preset
constant it is (``constant: {preset: h100, quantity: hbm_bw}``)::

    chapter: seed-bandwidth-wall          # a reference id (formulas/references.yaml)
    claims:
      - id: a100-ridge-point
        quote: "312 TFLOPS ÷ 2.0 TB/s ≈ 156 FLOP/字节"
        where: "section 二"               # optional locator
        stated: 156 FLOP/B                 # number + unit in derive's spelling
        approx: true                       # the chapter marks it ≈ ~ 约
        truncated: true                    # the chapter cuts the number at its last digit (46.6 written 46)
        tolerance: 0.01                    # optional relative tolerance, replaces the digit rule
        solve: critical_ai
        hw: a100
        conventions:                       # optional, tried in order when the main reading fails
          - name: {en: "GB read as GiB (2^30 B)", zh: "GB 按 GiB（2^30 B）理解"}
            given: {hbm_capacity: 80 GiB}  # and/or hw, model, presets, stated (a re-reading of it)
        note: {en: ..., zh: ...}           # optional remark shown with the verdict
      - id: h100-hbm-bandwidth
        quote: "HBM (80 GB, 3.35 TB/s)"
        stated: 3.35 TB/s
        constant: {preset: h100, quantity: hbm_bw}

Verdicts:

* ``reproduced``: the catalog's answer from the claim's inputs agrees with the stated value;
* ``convention``: it agrees only under one of the claim's named conventions (the first
  that agrees, in the order listed), which the verdict names;
* ``erratum``: it agrees under no reading; the verdict gives the correct value (the main
  reading's) and the size of the error;
* ``constant``: a preset constant with nothing to derive; the verdict names the preset and
  says whether its value agrees with the stated one.

An order-of-growth claim states how a quantity grows in one input, every other input held
fixed (``solve``, ``order_in`` and ``stated_order``; no ``stated``)::

      - id: flash-attention-traffic-order
        quote: "减少 HBM 访问量从 O(N²) 到 O(N)！"
        solve: flash_hbm_bytes
        order_in: seq_len
        stated_order: "O(N)"             # any one letter for the variable

Its notation is judged by what it means against the power p of the variable in the derived
leading term (``derive solve TARGET --order VARIABLE``): ``O(N^k)`` is an upper bound, reproduced
when k >= p (not tightly when k > p); ``Θ(N^k)`` (``Theta``, or a bare ``N^k``) is the exact order,
reproduced when k = p; ``Ω(N^k)`` (``Omega``) is a lower bound, reproduced when k <= p. Otherwise
it is an erratum, and the verdict gives the derived Θ.

The comparison rule ("agrees"). The stated number is read as written: its significant
digits run from the first non-zero digit to the last digit written, trailing zeros
included (``900`` states three digits, ``14.0`` three, ``0.17`` two; write ``9e2`` to
state one). Let *u* be one unit in the last stated digit (1 for ``900``, 0.01 for
``0.17``), in the stated unit. The computed value *c*, converted to the stated unit,
agrees with the stated *s* when

* exact claims: ``|c - s| <= u/2`` (c rounded to the stated digits is s);
* approximate claims (``approx: true``): ``|c - s| <= 10u/2``, i.e. one digit coarser;
  a one-digit approximate claim keeps its one digit (``~2`` needs 1.5 <= c <= 2.5);
* truncated claims (``truncated: true``, a chapter that cuts 46.6 to ``46`` and 976.56 to ``976``):
  ``|s| <= |c| < |s| + u``, c cut at the stated digits is s (with ``approx``, one digit coarser);
  every number a chapter truncates is marked so, and agrees or not by this one rule;
* with ``tolerance: r``: ``|c - s| <= r·|s|`` instead of the rules above.

Exit status 0 when every claim was evaluated, whatever the verdicts; a malformed file
(unknown field, quantity or preset, a stated unit of the wrong dimension, a question
the catalog cannot answer) is one ``derive: error: FILE:LINE: ...`` line and exit 2.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from ..errors import CatalogError, DeriveError
from ..records.question import FILE_FIELDS as QUESTION_FIELDS
from .datafile import bilingual
from .datafile import check_fields as _check_fields
from .datafile import file_error as _err
from .datafile import flag as _flag

if TYPE_CHECKING:

    import sympy

    from ..records.catalog import Catalog
    from ..records.entries import Text
    from ..records.overrides import Override
    from ..records.question import Question

__all__ = ["Claim", "ClaimResult", "ClaimsFile", "VERDICTS", "agrees", "check_claims", "load_claims",
           "stated_digits"]

VERDICTS = ("reproduced", "convention", "erratum", "constant")

FILE_FIELDS = {"chapter", "title", "note", "claims"}
CLAIM_FIELDS = {"id", "quote", "where", "stated", "approx", "truncated", "tolerance", "note", "conventions", "constant",
                *QUESTION_FIELDS, "stated_order", "order_in"}
CONVENTION_FIELDS = {"name", "given", "hw", "model", "presets", "stated"}
CONSTANT_FIELDS = {"preset", "quantity"}

MAX_EXPONENT = 60   # stated values from 1e-60 to 1e60, like every other value (derive.catalog.values)
_DECIMAL = re.compile(r"^(?P<int>\d+)(?:\.(?P<frac>\d*))?(?:[eE](?P<exp>[+-]?\d+))?$")


# ---------------------------------------------------------------------------
# records


@dataclass(frozen=True)
class Stated:
    """A stated value: the number as written, its unit, and its precision."""

    text: str                 # "147.0 GB"
    number: str               # "147.0"
    unit: str                 # "GB" (empty: the quantity's declared unit)
    value: Fraction           # in the stated unit, exactly
    ulp: Fraction             # one unit in the last stated digit, in the stated unit
    digits: int               # significant digits written
    factor: Fraction          # stated unit -> base units


@dataclass(frozen=True)
class Convention:
    """A named alternative reading of a claim: other inputs, or another reading of the stated value."""

    name: "Text"
    question: "Question | None"
    stated: Stated | None = None
    line: int = 0


@dataclass(frozen=True)
class Claim:
    """One stated number of a chapter and how to check it."""

    id: str
    quote: str
    where: str
    stated: Stated
    quantity: str                       # the quantity the number is a value of
    declared_unit: str = ""             # the quantity's unit, for a stated value given without one
    approx: bool = False
    tolerance: float | None = None
    question: "Question | None" = None  # what derives it (None for a constant)
    truncated: bool = False             # the chapter cuts the number at its last digit instead of rounding
    preset: str | None = None           # the preset holding it (a constant)
    conventions: tuple[Convention, ...] = ()
    note: "Text | None" = None
    line: int = 0
    order_in: str | None = None         # an order-of-growth claim: the variable ("O(N)" in seq_len)
    order_kind: str = "tight"           # what its notation claims: "upper" (O), "tight" (Θ), "lower" (Ω)


@dataclass(frozen=True)
class ClaimsFile:
    chapter: str
    claims: tuple[Claim, ...]
    file: str = ""


@dataclass(frozen=True)
class ClaimResult:
    """The verdict on one claim, as data (words come from templates/messages-check.yaml)."""

    claim: Claim
    verdict: str                          # one of VERDICTS
    computed: Fraction                    # in the stated unit (the correct value for an erratum)
    agrees: bool                          # the computed value agrees with the stated one
    convention: "Text | None" = None      # the convention that makes it agree
    main_computed: Fraction | None = None  # the main reading's value, when a convention was needed
    restated: "Stated | None" = None      # the stated value as the convention re-reads it (16 GB as 16 GiB)
    tried: tuple["Text", ...] = ()        # conventions tried without success (an erratum)
    preset: str | None = None             # for a constant: the preset holding it
    preset_text: str = ""                 # the preset's value as written there
    preset_source: str = ""
    relations: tuple[str, ...] = ()       # relations used by the derivation
    regime: str | None = None
    growth: str = ""                      # an order claim: the derived order, Θ(...)
    overrides: tuple["Override", ...] = ()  # overridden built-ins the verdict rests on

    @property
    def error(self) -> Fraction:
        """Stated minus computed, in the stated unit."""
        return self.claim.stated.value - self.computed

    @property
    def relative_error(self) -> float:
        """(stated - computed) / computed."""
        return float(self.error / self.computed) if self.computed else float("inf")

    def to_dict(self, lang: str = "en", templates: str | None = None) -> dict[str, Any]:
        c = self.claim
        out: dict[str, Any] = {
            "id": c.id,
            "quote": c.quote,
            "where": c.where,
            "stated": _number(c.stated.value),
            "stated_text": c.stated.text,
            "computed": _number(self.computed),
            "computed_text": computed_text(self),
            "unit": c.stated.unit or c.declared_unit,
            "verdict": self.verdict,
            "agrees": self.agrees,
            "note": note_text(self, lang, templates),
            "quantity": c.quantity,
        }
        if self.verdict == "erratum":
            out["error"] = _number(self.error)
            out["relative_error"] = self.relative_error
        if self.convention is not None:
            out["convention"] = {"en": self.convention.en, "zh": self.convention.zh}
        if self.preset:
            out["preset"] = self.preset
        if self.overrides:
            out["overrides"] = [{"kind": o.kind, "id": o.id, "file": o.file, "replaced": o.replaced}
                                for o in self.overrides]
        return out


def _number(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


# ---------------------------------------------------------------------------
# the comparison rule


def stated_digits(number: str) -> tuple[Fraction, Fraction, int]:
    """``"0.17"`` → (17/100, 1/100, 2): the value, one unit in the last digit, significant digits.

    Every written digit from the first non-zero one counts, trailing zeros included
    (``"900"`` → ulp 1, three digits); ``"9e2"`` states one digit (ulp 100).
    """
    m = _DECIMAL.match(number.strip())
    if not m:
        raise ValueError(number)
    whole, frac, exp_text = m.group("int"), m.group("frac") or "", m.group("exp") or "0"
    if len(exp_text) > 4 or abs(int(exp_text)) > MAX_EXPONENT or len(whole + frac) > 40:
        raise ValueError(number)
    exp = int(exp_text)
    digits = (whole + frac).lstrip("0")
    value = Fraction(int(whole + frac), 10 ** len(frac)) * Fraction(10) ** exp
    ulp = Fraction(10) ** (exp - len(frac))
    return value, ulp, max(len(digits), 1)


def agrees(computed: Fraction, stated: Stated, approx: bool = False, tolerance: float | None = None,
           truncated: bool = False) -> bool:
    """Whether ``computed`` (in the stated unit) agrees with ``stated`` under the module's rule."""
    diff = abs(computed - stated.value)
    if tolerance is not None:
        return diff <= Fraction(tolerance) * abs(stated.value)
    ulp = stated.ulp * 10 if approx and stated.digits >= 2 else stated.ulp
    if truncated:
        same_sign = (computed >= 0) == (stated.value >= 0)
        return same_sign and abs(stated.value) <= abs(computed) < abs(stated.value) + ulp
    return diff * 2 <= ulp


# ---------------------------------------------------------------------------
# reading a claims file








def _read_stated(file: str, node: Any, catalog: "Catalog", quantity: str, entry: str) -> Stated:
    from ..catalog.values import split_value
    from ..symbolic.units import parse_unit

    if node is None or not str(node).strip():
        raise _err(file, node, "missing 'stated: NUMBER UNIT' (e.g. 156 FLOP/B, 14 GB, 0.17)", entry)
    text = str(node).strip()
    number, unit = split_value(text)
    try:
        value, ulp, digits = stated_digits(number)
    except ValueError:
        raise _err(file, node, f"stated value {text!r} must be a plain decimal number and a unit "
                               "(e.g. 0.17, 1365, 3.35 TB/s, 9e2; exponent within ±60)", entry) from None
    q = catalog.quantity(quantity)
    if unit:
        try:
            factor, dims = parse_unit(unit, catalog.units)
        except DeriveError as exc:
            raise _err(file, node, exc.message, entry) from exc
        if dims != q.dims:
            raise _err(file, node, f"stated unit {unit!r} is {dims.unit_string()}, but {q.id} is in "
                                   f"{q.base_unit}", entry)
    else:
        factor = Fraction(int(q.factor.p), int(q.factor.q))
    if value <= 0:
        raise _err(file, node, "stated value must be positive", entry)
    return Stated(text, number, unit, value, ulp, digits, factor)




def _read_claim(file: str, raw: Any, catalog: "Catalog", cid: str) -> Claim:
    from ..storage.yamlio import line_of
    from .problems import read_question

    _check_fields(file, raw, CLAIM_FIELDS, cid)
    quote = str(raw.get("quote") or "").strip()
    if not quote:
        raise _err(file, raw, "missing 'quote:' (a short quote from the chapter)", cid)
    approx = _flag(file, raw.get("approx"), "approx", cid)
    truncated = _flag(file, raw.get("truncated"), "truncated", cid)
    if truncated and raw.get("tolerance") is not None:
        raise _err(file, raw["tolerance"], "a truncated claim is read by its digits; drop 'tolerance:' or "
                                           "'truncated:'", cid)
    note = bilingual(file, raw["note"], "note", cid) if raw.get("note") is not None else None
    constant = raw.get("constant")
    question: "Question | None" = None
    read_tolerance: float | None = None
    preset = None
    if constant is not None and raw.get("solve") is not None:
        raise _err(file, constant, "a claim is either 'solve:' (derived) or 'constant:', not both", cid)
    if constant is not None:
        if not isinstance(constant, dict):
            raise _err(file, constant, "constant is {preset: ID, quantity: NAME}", cid)
        _check_fields(file, constant, CONSTANT_FIELDS, cid)
        for key in QUESTION_FIELDS:
            if key != "solve" and raw.get(key) is not None:
                raise _err(file, raw[key], f"{key!r} belongs to a derived claim ('solve:'), not a constant", cid)
        try:
            quantity = catalog.quantity(str(constant.get("quantity") or "")).id
            preset = catalog.preset(str(constant.get("preset") or "")).id
        except DeriveError as exc:
            raise _err(file, constant, exc.message, cid) from exc
        if quantity not in catalog.presets[preset].values:
            raise _err(file, constant, f"preset {preset} has no value for {quantity}", cid)
    elif raw.get("solve") is not None:
        fields = {k: v for k, v in raw.items() if k in (*QUESTION_FIELDS, "tolerance")}
        fields = _with_line(fields, raw)
        read = read_question(file, fields, catalog, qid=cid, ask_required=False)
        question, read_tolerance = read.question, read.tolerance
        quantity = question.target
    else:
        raise _err(file, raw, "a claim needs 'solve: QUANTITY' (what derives it) or "
                              "'constant: {preset: ID, quantity: NAME}'", cid)
    order_in, order_kind = None, "tight"
    if raw.get("stated_order") is not None:
        if question is None or raw.get("stated") is not None or raw.get("order_in") is None:
            raise _err(file, raw, "an order claim has 'solve:', 'order_in: VARIABLE' and 'stated_order: N' "
                                  "(no 'stated:')", cid)
        try:
            order_in = catalog.quantity(str(raw["order_in"])).id
        except DeriveError as exc:
            raise _err(file, raw["order_in"], exc.message, cid) from exc
        stated, order_kind = _read_order(file, raw["stated_order"], cid)
    else:
        stated = _read_stated(file, raw.get("stated"), catalog, quantity, cid)
    tolerance = read_tolerance if question is not None else None
    if question is None and raw.get("tolerance") is not None:
        try:
            tolerance = float(str(raw["tolerance"]))
        except ValueError:
            raise _err(file, raw["tolerance"], "tolerance is a number (a relative error, e.g. 0.01)", cid) from None
    conventions = []
    raw_conv = raw.get("conventions")
    if raw_conv is not None:
        if not isinstance(raw_conv, list):
            raise _err(file, raw_conv, "conventions is a list of {name, given, ...}", cid)
        for item in raw_conv:
            if not isinstance(item, dict):
                raise _err(file, item, "each convention is a mapping with a name", cid)
            _check_fields(file, item, CONVENTION_FIELDS, cid)
            name = bilingual(file, item.get("name"), "convention name", cid)
            conv_q = None
            if any(item.get(k) is not None for k in ("given", "hw", "model", "presets")):
                if question is None:
                    raise _err(file, item, "a constant's convention can only re-read 'stated'", cid)
                merged = dict(fields)
                merged["given"] = {**(raw.get("given") or {}), **(item.get("given") or {})}
                for key in ("hw", "model", "presets"):
                    if item.get(key) is not None:
                        merged[key] = item[key]
                conv_q = read_question(file, _with_line(merged, item), catalog, qid=cid,
                                       ask_required=False).question
            conv_stated = (_read_stated(file, item["stated"], catalog, quantity, cid)
                           if item.get("stated") is not None else None)
            if conv_q is None and conv_stated is None:
                raise _err(file, item, "a convention changes 'given', 'hw', 'model', 'presets' or 'stated'", cid)
            conventions.append(Convention(name, conv_q, conv_stated, line_of(item) or 0))
    return Claim(id=cid, quote=quote, where=str(raw.get("where") or "").strip(), stated=stated,
                 quantity=quantity, declared_unit=catalog.quantities[quantity].unit, approx=approx,
                 tolerance=tolerance, question=question, preset=preset, truncated=truncated,
                 conventions=tuple(conventions), note=note, line=line_of(raw) or 0, order_in=order_in,
                 order_kind=order_kind)


_ORDER_NOTATION = re.compile(r"^\s*(O|Θ|Theta|Ω|Omega)\s*\((.*)\)\s*$", re.S)
_ORDER_KINDS = {"O": ("upper", "O"), "Θ": ("tight", "Θ"), "Theta": ("tight", "Θ"), "Ω": ("lower", "Ω"),
                "Omega": ("lower", "Ω")}


def _read_order(file: str, node: Any, cid: str) -> tuple[Stated, str]:
    """``stated_order: "O(N^2)"``: an order as the chapter writes it (any letter for the variable), kept as
    the power of the variable it states and what its notation claims: ``O(...)`` an upper bound,
    ``Θ(...)`` (or ``Theta``) a tight order, ``Ω(...)`` (or ``Omega``) a lower bound; a bare ``N^2`` is Θ."""
    import sympy

    from ..symbolic.asymptotic import growth_exponent
    from ..symbolic.expressions import parse_expression

    text = str(node).strip()
    notation = _ORDER_NOTATION.match(text)
    kind, symbol = _ORDER_KINDS[notation.group(1)] if notation else ("tight", "Θ")
    if notation:
        text = notation.group(2).strip()
    letters: dict[str, sympy.Symbol] = {}
    try:
        expr = parse_expression(text.replace("^", "**"),
                                lambda n: letters.setdefault(n, sympy.Symbol(n, positive=True)), "order")
    except DeriveError as exc:
        raise _err(file, node, f"stated_order {text!r}: {exc.message}", cid) from exc
    if len(letters) > 1:
        raise _err(file, node, f"stated_order {text!r}: write it in one letter, the variable (N, N^2, N*log(N))", cid)
    exponent = growth_exponent(expr, next(iter(letters.values()))) if letters else sympy.Integer(0)
    if not exponent.is_Rational:
        raise _err(file, node, f"stated_order {text!r} is not a power of its variable", cid)
    value = Fraction(int(exponent.p), int(exponent.q))
    return Stated(f"{symbol}({text})", str(value), "", value, Fraction(0), 0, Fraction(1)), kind


def _with_line(fields: dict, node: Any) -> Any:
    from ..storage.yamlio import LMap, line_of

    out = LMap(fields)
    out.line = line_of(node) or 0
    return out


def load_claims(path: str | os.PathLike, catalog: "Catalog | None" = None) -> ClaimsFile:
    """Read and validate a claims file; every name is checked against the catalog."""
    from ..catalog.loader import load_catalog
    from ..storage.yamlio import read_yaml

    catalog = catalog or load_catalog()
    file = str(path)
    data = read_yaml(Path(path), file)
    if not isinstance(data, dict):
        raise CatalogError("a claims file is a mapping with 'chapter' and 'claims'", file=file, line=1)
    _check_fields(file, data, FILE_FIELDS, None)
    chapter = str(data.get("chapter") or "").strip()
    if not chapter:
        raise _err(file, data, "missing 'chapter: REFERENCE-ID' (see formulas/references.yaml)")
    if chapter not in catalog.references:
        close = difflib.get_close_matches(chapter, list(catalog.references), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise _err(file, data["chapter"], f"unknown reference {chapter!r}{hint}")
    raw_claims = data.get("claims")
    if not isinstance(raw_claims, list) or not raw_claims:
        raise _err(file, data, "a claims file needs a non-empty list 'claims'")
    claims = []
    seen: set[str] = set()
    for raw in raw_claims:
        if not isinstance(raw, dict):
            raise _err(file, raw, "each claim is a mapping with id, quote, stated and solve or constant")
        cid = str(raw.get("id") or "").strip()
        if not cid:
            raise _err(file, raw, "missing 'id:'")
        if cid in seen:
            raise _err(file, raw.get("id"), f"claim id {cid!r} appears twice")
        seen.add(cid)
        claims.append(_read_claim(file, raw, catalog, cid))
    return ClaimsFile(chapter, tuple(claims), file)


# ---------------------------------------------------------------------------
# evaluating


def _to_fraction(value: "sympy.Expr") -> Fraction:
    """An exact SymPy value as a Fraction (irrational ones to 40 digits, which the rule cannot tell apart)."""
    if value.is_Rational:
        return Fraction(int(value.p), int(value.q))
    import sympy

    return Fraction(str(sympy.Float(value.evalf(40), 40)))


def _derive(claim: Claim, question: "Question", catalog: "Catalog", file: str, line: int = 0):
    from ..engine.solver import solve

    try:
        return solve(question, catalog=catalog)
    except DeriveError as exc:
        raise CatalogError(f"cannot evaluate: {exc.message}", file=file, line=line or claim.line,
                           entry=claim.id) from exc


def evaluate(claim: Claim, catalog: "Catalog", file: str = "") -> ClaimResult:
    """The verdict on one claim, naming any overridden built-in it rests on."""
    result = _verdict(claim, catalog, file)
    if not catalog.overrides:
        return result
    questions = [q for q in (claim.question, *(c.question for c in claim.conventions)) if q is not None]
    touched = set(catalog.overrides_in(presets=[result.preset] if result.preset else (),
                                       quantities=[claim.quantity], relations=result.relations))
    for q in questions:
        for preset in (q.hw, q.model, *q.presets):
            if preset:
                touched.update(catalog.overrides_in(presets=[preset]))
        try:
            sol = _derive(claim, q, catalog, file) if claim.order_in is None else None
        except CatalogError:
            sol = None
        if sol is not None:
            touched.update(o for o in catalog.overrides.values()
                           if any(n.kind == "catalog_override" and n.get("id") == o.id for n in sol.notes))
    return replace(result, overrides=tuple(sorted(touched, key=lambda o: (o.kind, o.id))))


def _verdict(claim: Claim, catalog: "Catalog", file: str = "") -> ClaimResult:
    stated = claim.stated
    if claim.preset is not None:
        pv = catalog.presets[claim.preset].values[claim.quantity]
        computed = _to_fraction(pv.value) / stated.factor
        ok = agrees(computed, stated, claim.approx, claim.tolerance, claim.truncated)
        used = None
        if not ok:
            for conv in claim.conventions:
                s = conv.stated
                if s is not None and agrees(_to_fraction(pv.value) / s.factor, s, claim.approx, claim.tolerance,
                                            claim.truncated):
                    used, ok = conv.name, True
                    break
        return ClaimResult(claim, "constant", computed, ok, convention=used, preset=claim.preset,
                           preset_text=pv.text, preset_source=str(pv.source))
    assert claim.question is not None
    if claim.order_in is not None:
        return _evaluate_order(claim, catalog, file)
    sol = _derive(claim, claim.question, catalog, file)
    computed = _to_fraction(sol.value) / stated.factor
    rels = tuple(sol.relations_used)
    if agrees(computed, stated, claim.approx, claim.tolerance, claim.truncated):
        return ClaimResult(claim, "reproduced", computed, True, relations=rels, regime=sol.regime)
    tried = []
    for conv in claim.conventions:
        s = conv.stated or stated
        if conv.question is not None:
            alt = _derive(claim, conv.question, catalog, file, conv.line)
            value = _to_fraction(alt.value)
            alt_rels = tuple(alt.relations_used)
        else:
            value = _to_fraction(sol.value)
            alt_rels = rels
        if agrees(value / s.factor, s, claim.approx, claim.tolerance, claim.truncated):
            return ClaimResult(claim, "convention", value / stated.factor, True, convention=conv.name,
                               main_computed=computed, relations=alt_rels,
                               restated=conv.stated if conv.question is None else None)
        tried.append(conv.name)
    return ClaimResult(claim, "erratum", computed, False, tried=tuple(tried), relations=rels, regime=sol.regime)


def _evaluate_order(claim: Claim, catalog: "Catalog", file: str) -> ClaimResult:
    """An order-of-growth claim: the derived leading power of the variable against the stated one."""
    from ..engine.solver import growth

    q = claim.question
    assert q is not None and claim.order_in is not None
    try:
        g = growth(q.target, claim.order_in, q.given_map, hw=q.hw, model=q.model, presets=q.presets, catalog=catalog)
    except DeriveError as exc:
        raise CatalogError(f"cannot evaluate: {exc.message}", file=file, line=claim.line, entry=claim.id) from exc
    computed = Fraction(int(g.exponent.p), int(g.exponent.q)) if g.exponent.is_Rational else Fraction(-1)
    shown = "Θ(" + str(g.theta()).replace("**", "^") + ")"
    stated = claim.stated.value
    # O is an upper bound (true when the stated power is at least the derived one), Ω a lower bound, Θ tight
    holds = {"upper": stated >= computed, "lower": stated <= computed, "tight": stated == computed}[claim.order_kind]
    verdict = "reproduced" if holds else "erratum"
    return ClaimResult(claim, verdict, computed, holds, growth=shown)


def check_claims(path: str | os.PathLike, catalog: "Catalog | None" = None) -> list[ClaimResult]:
    """Evaluate every claim of a claims file; raises :class:`CatalogError` (file and line) on a bad file."""
    from ..catalog.loader import load_catalog

    catalog = catalog or load_catalog()
    claims = load_claims(path, catalog)
    return [evaluate(c, catalog, claims.file) for c in claims.claims]


# ---------------------------------------------------------------------------
# words (all from templates/messages-check.yaml)


def _fmt(x: Fraction, digits: int) -> str:
    from ..symbolic.units import format_number

    return format_number(x, digits)


def _with_unit(number: str, unit: str) -> str:
    return f"{number} {unit}" if unit and unit != "1" else number


def _decimals(ulp: Fraction) -> int:
    places = 0
    while ulp < 1 and places < 30:
        ulp *= 10
        places += 1
    return places


def _at_least_decimals(text: str, places: int) -> str:
    """``"14"`` with 1 place → ``"14.0"``: show as many decimals as the stated value has."""
    if places == 0 or "e" in text:
        return text
    whole, _, frac = text.partition(".")
    return f"{whole}.{frac.ljust(places, '0')}" if len(frac) < places else text


def computed_text(result: ClaimResult) -> str:
    """The computed value in the stated unit, to a digit or two more than the chapter states."""
    if result.growth:
        return result.growth
    s = result.claim.stated
    text = _at_least_decimals(_fmt(result.computed, max(4, s.digits + 1)), _decimals(s.ulp))
    return _with_unit(text, s.unit)


def note_text(result: ClaimResult, lang: str = "en", templates: str | None = None) -> str:
    """The one-paragraph explanation of a verdict, in ``en``, ``zh`` or ``both``."""
    from ..writeup.render import message_function, template_dirs

    msg = message_function(tuple(template_dirs(templates)))
    if lang == "both":
        return f"{note_text(result, 'zh', templates)} / {note_text(result, 'en', templates)}"
    c = result.claim
    s = c.stated
    digits = max(4, s.digits + 1)
    parts = []
    if result.growth:
        if not result.agrees:
            key = f"check_note_order_erratum_{c.order_kind}"
        else:
            key = "check_note_order_reproduced" + ("" if result.computed == s.value else "_loose")
        parts.append(msg(key, lang, target=c.quantity, variable=c.order_in or "", computed=result.growth,
                         stated=s.text))
    elif result.verdict == "reproduced":
        key = "check_note_reproduced_truncated" if c.truncated else "check_note_reproduced"
        parts.append(msg(key, lang, computed=computed_text(result), stated=s.text))
    elif result.verdict == "convention":
        main = _with_unit(_at_least_decimals(_fmt(result.main_computed or Fraction(0), digits), _decimals(s.ulp)),
                          s.unit)
        convention = result.convention.get(lang) if result.convention is not None else ""
        if result.restated is not None:
            # only the stated value is re-read: the computed value is the plain reading's, so say what the
            # stated one becomes (16 GB read as 16 GiB is 17.18 GB), not "that gives X; the plain reading gives X"
            restated = _with_unit(_at_least_decimals(
                _fmt(result.restated.value * result.restated.factor / s.factor, digits), _decimals(s.ulp)), s.unit)
            parts.append(msg("check_note_convention_restated", lang, convention=convention,
                             computed=computed_text(result), restated=restated, stated=s.text,
                             as_written=result.restated.text))
        else:
            parts.append(msg("check_note_convention", lang, convention=convention,
                             computed=computed_text(result), main=main, stated=s.text))
    elif result.verdict == "erratum":
        pct = abs(result.relative_error) * 100
        rel = f"{pct:.3g}%"
        if result.error > 0:
            parts.append(msg("check_note_erratum_high", lang, correct=computed_text(result), stated=s.text,
                             error=_with_unit(_fmt(abs(result.error), digits), s.unit), relative=rel))
        else:
            parts.append(msg("check_note_erratum_low", lang, correct=computed_text(result), stated=s.text,
                             error=_with_unit(_fmt(abs(result.error), digits), s.unit), relative=rel))
        if result.tried:
            sep = msg("check_list_sep", lang)
            parts.append(msg("check_note_tried", lang, conventions=sep.join(t.get(lang) for t in result.tried)))
    else:
        if result.convention is not None:
            key = "check_note_constant_convention"
        else:
            key = "check_note_constant_match" if result.agrees else "check_note_constant_differs"
        parts.append(msg(key, lang, preset=result.preset, value=result.preset_text, stated=s.text,
                         source=result.preset_source,
                         convention=result.convention.get(lang) if result.convention else ""))
    if c.note is not None:
        parts.append(c.note.get(lang))
    for o in result.overrides:
        parts.append(msg("check_note_overridden", lang, kind=msg(f"check_kind_{o.kind}", lang), id=o.id,
                         file=o.file, replaced=o.replaced))
    return msg("check_sentence_sep", lang).join(parts)


def summary_counts(results: Sequence[ClaimResult]) -> dict[str, int]:
    return {v: sum(1 for r in results if r.verdict == v) for v in VERDICTS}


def render_text(results: Sequence[ClaimResult], file: str, chapter: str, lang: str = "en",
                templates: str | None = None) -> str:
    from ..writeup.render import render_template

    rows = []
    for r in results:
        rows.append({"id": r.claim.id, "verdict": r.verdict, "quote": r.claim.quote, "where": r.claim.where,
                     "stated": r.claim.stated.text, "computed": computed_text(r),
                     "note": note_text(r, lang, templates)})
    overridden = sorted({o for r in results for o in r.overrides}, key=lambda o: (o.kind, o.id))
    return render_template("check.txt.j2", {"rows": rows, "lang": lang, "file": file, "chapter": chapter,
                                            "counts": summary_counts(results), "total": len(results),
                                            "verdicts": list(VERDICTS),
                                            "overridden": [{"kind": o.kind, "id": o.id, "file": o.file,
                                                            "n": sum(o in r.overrides for r in results)}
                                                           for o in overridden]}, templates=templates)
