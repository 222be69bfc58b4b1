"""Every number of the Scaling Book's sharding chapter, checked by ``derive check``: verdict and value of each claim.

The expected values are worked out here by hand from the chapter's own inputs (TPU v5e: 4.5e10 B/s per
link each way; v4p: 4.5e10; v5p: 9e10 and 4.59e14 FLOP/s; 1 µs per hop; H100: 3.4e12 B/s as the quiz
says), independently of the engine,
so that a catalog change that moves any verdict or value fails this test.
"""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from derive.documents.claims import VERDICTS, check_claims

ROOT = Path(__file__).resolve().parent.parent
CLAIMS = ROOT / "reports" / "claims" / "scaling-book-sharding.yaml"

US = 10**6                       # seconds -> microseconds
V5E_LINK = 45 * 10**9            # B/s, one way
V5E_BIDI = 2 * V5E_LINK
V5P_BIDI = 2 * 9 * 10**10
V5P_FLOPS = 459 * 10**12

# id: (verdict, computed value in the stated unit, whether it agrees with the stated value)
EXPECTED: dict[str, tuple[str, F, bool]] = {
    "pq0-local-bytes": ("reproduced", F(1024 * 4096 * 4, 16 * 2**20), True),    # fp32[64, 4096], in MiB
    "pq0-load-time": ("convention", F(10**6 * 10**9, 34 * 10**11), True),        # 1e6 B / 3.4e12 B/s, in ns
    "pq1-device-count": ("reproduced", F(2 * 8 * 2), True),
    "pq1-per-device-bytes": ("reproduced", F(128 * 2048, 2 * 8), True),            # int8: 1 B each
    "pq1-total-bytes": ("reproduced", F(128 * 2048 * 2, 1024), True),              # 16 KiB x 32 devices, in KiB
    "wl-32-ways": ("reproduced", F(32), True),
    "q1-replication-ratio": ("reproduced", F(64, 4), True),
    "latency-threshold-45kb": ("reproduced", F(V5E_LINK, 10**6 * 1000), True),    # W x 1 µs, in kB
    "allgather-peak-shard": ("reproduced", F(10 * 10**6, 16 * 1000), True),       # 10 MB / 16, in kB
    "pq2-v5e-link-bw": ("constant", F(V5E_LINK), True),
    "pq2-shard-bytes": ("reproduced", F(512 * 8192 * 2, 10**6), True),
    "pq2-total-bytes": ("reproduced", F(2048 * 8192 * 2, 10**6), True),
    "pq2-t-bidirectional": ("reproduced", F(34 * 10**6 * US, V5E_BIDI), True),     # 377.8, stated 377
    "pq2-latency-hops": ("reproduced", F(3), True),
    "pq2-latency-bound": ("reproduced", F(3), True),
    "pq2-t-no-wraparound": ("reproduced", F(3 * 84 * 10**5 * US, V5E_LINK), True),
    "pq2b-shard-bytes": ("convention", F(32768, 1000), True),                       # 32 KiB, stated as 32 kB
    "pq2b-hop-time": ("reproduced", F(32 * 10**3 * US, V5E_LINK), True),
    "pq2b-latency-time": ("reproduced", F(3), True),                                # 3 hops x 1 µs
    "q2-1-allgather-x": ("reproduced", F(2 * 1024 * 4096 * US, 4 * V5E_BIDI), True),
    "q2-2-allgather-xy": ("reproduced", F(2 * 1024 * 4096 * US, 2 * V5E_BIDI), True),   # 46.6, stated 46
    "q2-2-latency-bound": ("reproduced", F(4), True),                               # (4 + 4)/2 hops x 1 µs
    "q2-3-allreduce-z": ("reproduced", F(2 * 2 * 1024 * 4096 * US, 16 * V5E_BIDI), True),  # 11.65, stated 11.6
    "q2-fun-allgather-xz": ("reproduced", F(2 * 1024 * 4096 * US, 4 * 2 * V5E_BIDI), True),  # 11.65, stated 11.5
    "q2-fun-allgather-xyz": ("reproduced", F(2 * 1024 * 4096 * US, 3 * V5E_BIDI), True),     # 31.07
    "q3-total-bytes": ("reproduced", F(256), True),
    "q3-per-device-bytes": ("reproduced", F(64), True),
    "q3-time": ("reproduced", F(2), True),                                          # 2 hops x 1 µs
    "q4-c-over-w": ("reproduced", F(V5P_FLOPS, V5P_BIDI), True),
    "q4-strategy1-x-bound": ("reproduced", F(8192 * V5P_BIDI, 2 * V5P_FLOPS), True),
    "q4-strategy2-batch": ("reproduced", F(V5P_FLOPS, V5P_BIDI), True),
    "q4-d-threshold": ("reproduced", F(2 * V5P_FLOPS, V5P_BIDI), True),
    "q7-weight-bytes": ("reproduced", F(2 * 8192 * 32768, 10**6), True),             # 536.9, stated 536
    "q7-activation-bytes": ("reproduced", F(2 * 128 * 8192, 10**6), True),
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


def test_conventions_are_named(results):
    # the 1 MiB shard divided as 1e6 B: the plain reading gives 1,048,576 B / 3.4e12 B/s = 308.4 ns
    assert results["pq0-load-time"].main_computed == F(2**20 * 10**9, 34 * 10**11)
    assert "1e6 B" in results["pq0-load-time"].convention.en
    assert results["pq2b-shard-bytes"].convention.en.startswith("kB read as KiB")


def test_latency_and_bandwidth_regimes(results):
    assert results["pq2b-latency-time"].regime == "latency_bound"
    assert results["q3-time"].regime == "latency_bound"
    assert results["q2-1-allgather-x"].regime == "bandwidth_bound"
    assert results["q2-3-allreduce-z"].regime == "bandwidth_bound"
    assert results["pq2-t-no-wraparound"].regime == "bandwidth_bound"


def test_cli_summary_line_matches_the_reports_readme(cli):
    out = cli("check", str(CLAIMS.relative_to(ROOT)))
    assert out.code == 0, out.err
    summary = out.out.strip().splitlines()[-1]
    counts = {v: sum(1 for e in EXPECTED.values() if e[0] == v) for v in VERDICTS}
    assert summary == (f"{len(EXPECTED)} claims: {counts['reproduced']} reproduced, {counts['convention']} convention, "
                       f"{counts['erratum']} erratum, {counts['constant']} constant")
    assert summary in (ROOT / "reports" / "README.md").read_text(encoding="utf-8")
