"""Every number of the Scaling Book's roofline chapter, checked by ``derive check``: verdict and value of each claim.

Worked out by hand from the chapter's inputs (v5e 1.97e14 FLOP/s, 8.2e11 B/s of HBM, 4.5e10 B/s of ICI
each way; H100 9.89e14 FLOP/s and 3.35e12 B/s), independently of the engine.
"""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from derive.documents.claims import VERDICTS, check_claims

ROOT = Path(__file__).resolve().parent.parent
CLAIMS = ROOT / "reports" / "claims" / "scaling-book-rooflines.yaml"

V5E_C, V5E_HBM, V5E_ICI = 197 * 10**12, 82 * 10**10, 45 * 10**9
H100_C, H100_HBM = 989 * 10**12, 335 * 10**10

EXPECTED: dict[str, tuple[str, F, bool]] = {
    "h100-time-1e12-flops": ("reproduced", F(10**12 * 1000, H100_C), True),
    "v6e-time-1e12-flops": ("reproduced", F(10**12 * 1000, 91 * 10**13), True),
    "h100-hbm": ("constant", F(H100_HBM, 10**12), True),                              # in TB/s
    "v6e-hbm": ("constant", F(16, 10), True),
    "v5e-critical-intensity": ("reproduced", F(V5E_C, V5E_HBM), True),
    "dot-product-intensity": ("reproduced", F(2, 2 * 2), True),                        # mult + add over two bf16 reads
    "v5p-vpu-critical-intensity": ("reproduced", F(7 * 10**12, 28 * 10**11), True),   # 2.5, "around 3"
    "matmul-critical-batch-240": ("reproduced", F(V5E_C, V5E_HBM), True),
    "takeaway-batch-240": ("reproduced", F(V5E_C, V5E_HBM), True),
    "takeaway-global-batch-tokens": ("reproduced", F(512 * 4096), True),
    "takeaway-local-batch-tokens": ("reproduced", F(512 * 4096, 2048), True),
    "gpu-critical-batch-300": ("reproduced", F(H100_C, H100_HBM), True),
    "network-bandwidth": ("constant", F(V5E_ICI), True),
    "two-chip-critical-intensity": ("reproduced", F(V5E_C, V5E_ICI), True),            # 4377.8, truncated
    "two-chip-critical-d": ("reproduced", F(2 * V5E_C, V5E_ICI), True),                # 8755.6, truncated
    "q1-int8-intensity": ("reproduced", F(394 * 10**12, V5E_HBM), True),
    "q1-int8-critical-batch": ("reproduced", F(394 * 10**12, 2 * V5E_HBM), True),
    "q2-int8-weights-critical-batch": ("reproduced", F(V5E_C, 2 * V5E_HBM), True),
    "q4-per-example-weights-intensity": ("reproduced", F(2 * 1, 1), True),            # 2·D·F ops over D·F int8 bytes
    "q5-h100-dense-flops": ("constant", F(H100_C), True),
    "q5-h100-hbm": ("constant", F(H100_HBM), True),
    "q5-h100-critical-batch": ("reproduced", F(H100_C, H100_HBM), True),
}


@pytest.fixture(scope="module")
def results(catalog):
    return {r.claim.id: r for r in check_claims(CLAIMS, catalog)}


def test_every_claim_is_listed_here(results):
    assert list(results) == list(EXPECTED)


@pytest.mark.parametrize("claim_id", list(EXPECTED))
def test_verdict_and_value(results, claim_id):
    verdict, value, agrees = EXPECTED[claim_id]
    r = results[claim_id]
    assert (r.verdict, r.computed, r.agrees) == (verdict, value, agrees)


def test_the_critical_batch_is_tokens_not_the_ridge_point(catalog):
    # same number for bf16 weights, different quantities and units
    assert catalog.quantities["hbm_critical_batch"].unit == "1"
    assert catalog.quantities["critical_ai_hbm"].unit == "FLOP/B"


def test_cli_summary_line_matches_the_reports_readme(cli):
    out = cli("check", str(CLAIMS.relative_to(ROOT)))
    assert out.code == 0, out.err
    summary = out.out.strip().splitlines()[-1]
    counts = {v: sum(1 for e in EXPECTED.values() if e[0] == v) for v in VERDICTS}
    assert summary == (f"{len(EXPECTED)} claims: {counts['reproduced']} reproduced, {counts['convention']} convention, "
                       f"{counts['erratum']} erratum, {counts['constant']} constant")
    assert summary in (ROOT / "reports" / "README.md").read_text(encoding="utf-8")
