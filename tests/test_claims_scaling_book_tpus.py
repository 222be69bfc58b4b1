"""Every number of the Scaling Book's TPU chapter, checked by ``derive check``: verdict and value of each claim.

The expected values are worked out here by hand from the chapter's own inputs (its spec tables, the
clocks and MXU counts it states, the figures its answers compute with), independently of the engine.
"""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from derive.documents.claims import VERDICTS, check_claims

ROOT = Path(__file__).resolve().parent.parent
CLAIMS = ROOT / "reports" / "claims" / "scaling-book-tpus.yaml"

MXU_CYCLE = 2 * 128**2                       # FLOPs per cycle of one 128x128 MXU
V5E_C, V5E_HBM = 197 * 10**12, 82 * 10**10
V5E_INT8 = 394 * 10**12
V5P_C = 459 * 10**12
GB, TB, MS, US = 10**9, 10**12, 1000, 10**6


def int8_crossover(c: int, w: F, d: int = 4096, f: int = 16384) -> F:
    """Smallest B with 2BDF / (BD + DF + BF) >= C / W (int8: one byte per element)."""
    return F(c) * d * f / (2 * d * f * w - c * (d + f))


Q5_BYTES = 2 * 8 * 128 * 8192
Q6_N = 128 * 1024
Q6_FLOPS = 2 * 8 * Q6_N * Q6_N

# id: (verdict, computed value in the stated unit, whether it agrees with the stated value)
EXPECTED: dict[str, tuple[str, F, bool]] = {
    "mxu-flops-v5e": ("reproduced", F(MXU_CYCLE * 15 * 10**8), True),
    "v5e-total-bf16": ("reproduced", F(4 * MXU_CYCLE * 15 * 10**8), True),
    "v5e-int8": ("constant", F(V5E_INT8), True),
    "v5p-chip-flops": ("erratum", F(2 * 4 * MXU_CYCLE * 175 * 10**7), False),     # 4.59e14, 5e14 = 2 x 2.5e14
    "v5p-core-flops": ("erratum", F(4 * MXU_CYCLE * 175 * 10**7), False),        # 2.29e14, stated 2.5e14
    "v5p-pod-exaflops": ("reproduced", F(8960 * V5P_C), True),
    "v5p-pod-chips": ("reproduced", F(16 * 20 * 28), True),
    "v5e-host-chips": ("constant", F(8), True),
    "vmem-critical-intensity": ("reproduced", F(V5E_C, 22 * V5E_HBM), True),
    "pcie-v4-vs-hbm": ("reproduced", F(12 * 10**11, 16 * GB), True),              # 75
    "v4-pcie": ("constant", F(16), True),
    "v5p-ici-per-axis": ("constant", F(9 * 10**10), True),
    "v5p-dcn-per-tpu": ("constant", F(625 * 10**7), True),
    "v5e-dcn-per-tpu": ("constant", F(3125 * 10**6), True),
    "v6e-dcn-per-tpu": ("constant", F(125 * 10**8), True),
    "v5e-dcn-per-host": ("reproduced", F(8 * 3125 * 10**6), True),
    "pcie-per-tpu": ("constant", F(16 * GB), True),
    "pcie-v6e": ("constant", F(32 * GB), True),
    "torus-max-distance": ("reproduced", F(8), True),
    "table-v5e-hbm-bw": ("constant", F(V5E_HBM), True),
    "table-v5e-flops": ("constant", F(V5E_C), True),
    "table-v5p-hbm-bw": ("constant", F(28 * 10**11), True),
    "table-v5p-flops": ("constant", F(V5P_C), True),
    "table-v5p-int8": ("constant", F(2 * V5P_C), True),
    "table-v5p-hbm-capacity": ("constant", F(96), True),
    "table-v5e-hbm-capacity": ("constant", F(16), True),
    "table-v4p-hbm-bw": ("constant", F(12 * 10**11), True),
    "table-v4p-flops": ("constant", F(275 * 10**12), True),
    "table-v6e-hbm-bw": ("constant", F(16 * 10**11), True),
    "table-v6e-hbm-capacity": ("constant", F(32), True),
    "table-v6e-flops": ("constant", F(92 * 10**13), True),
    "table-v6e-int8": ("constant", F(184 * 10**13), True),
    "table-v5e-ici": ("constant", F(45 * GB), True),
    "table-v5e-ici-bidi": ("reproduced", F(90 * GB), True),
    "table-v5p-ici-bidi": ("reproduced", F(180 * GB), True),
    "table-v4p-ici": ("constant", F(45 * GB), True),
    "table-v4p-ici-bidi": ("reproduced", F(2 * 45 * GB), True),
    "table-v6e-ici": ("constant", F(90 * GB), True),
    "table-v6e-ici-bidi": ("reproduced", F(2 * 90 * GB), True),
    "q1-total-bytes": ("reproduced", F(200 * GB * 2), True),                    # bf16: 2 B per parameter
    "q1-param-bytes": ("reproduced", F(200 * GB * 2, 32), True),
    "q1-load-time": ("reproduced", F(125 * 10**8 * MS, 123 * 10**10), True),
    "q2-v5e-hosts": ("reproduced", F(256, 8), True),
    "q2-v5e-cores": ("reproduced", F(256), True),
    "q2-v5e-flops": ("reproduced", F(256 * 2 * 10**14), True),
    "q2-v5e-hbm": ("reproduced", F(256 * 16 * GB, TB), True),
    "q2-v5p-hosts": ("reproduced", F(8960, 4), True),
    "q2-v5p-cores": ("reproduced", F(8960 * 2), True),
    "q2-v5p-flops": ("reproduced", F(8960 * V5P_C), True),
    "q2-v5p-hbm": ("reproduced", F(8960 * 96 * GB, TB), True),
    "q3-pcie-critical-batch": ("reproduced", F(92 * 10**13, 16 * GB), True),
    "q4-flops-per-token": ("reproduced", F(2 * 4096 * 16384), True),
    "q4-weight-bytes": ("reproduced", F(4096 * 16384), True),
    "q4-critical-batch-hbm": ("erratum", int8_crossover(V5E_INT8, F(V5E_HBM)), False),   # 259.3, stated 267
    "q4-vmem-bw": ("reproduced", F(22 * V5E_HBM), True),
    "q4-critical-batch-vmem": ("reproduced", int8_crossover(V5E_INT8, F(22 * V5E_HBM)), True),
    "q5-bytes": ("reproduced", F(Q5_BYTES), True),
    "q5-bandwidth-time": ("reproduced", F(Q5_BYTES * US, 2 * 45 * GB), True),
    "q5-hops": ("reproduced", F(6), True),
    "q5-first-byte": ("reproduced", F(6), True),
    "q5-total-time": ("reproduced", 6 + F(Q5_BYTES * US, 2 * 45 * GB), True),
    "q6-array-size": ("convention", F(Q6_N * Q6_N, GB), True),                       # 17.18 GB = 16 GiB
    "q6-hosts": ("reproduced", F(2), True),
    "q6-host-bytes": ("reproduced", F(16, 2), True),                             # 16 GB over 2 hosts, in GB
    "q6-pcie-load": ("reproduced", F(16 * GB * MS, 16 * 16 * GB), True),
    "q6-per-chip-shard": ("reproduced", F(1), True),
    "q6-ici-gather": ("reproduced", F(16 * GB * 15 * MS, 16 * 2 * 45 * GB), True),
    "q6-vector-bytes": ("reproduced", F(2 * 8 * Q6_N, 10**6), True),
    "q6-hbm-load": ("reproduced", F(16 * GB * MS, V5E_HBM), True),
    "q6-flops": ("reproduced", F(Q6_FLOPS), True),
    "q6-flops-time": ("reproduced", F(Q6_FLOPS * MS, V5E_C), True),
    "q6-lower-bound": ("reproduced", F(16 * GB * 15 * MS, 16 * 2 * 45 * GB), True),  # the ICI gather is slowest
    "vreg-capacity": ("convention", F(64 * 8 * 128 * 4, 1000), True),
    "vpu-flops-per-core": ("reproduced", F(8 * 128 * 4 * 175 * 10**7), True),
    "mxu-vs-vpu": ("reproduced", F(2 * 10**14, 7 * 10**12), True),
    "vpu-alus": ("reproduced", F(8 * 128 * 4), True),
    "systolic-alus": ("reproduced", F(128 * 128), True),
    "v6e-flops-per-cycle": ("reproduced", F(4), True),
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


def test_errata_give_the_correct_value(results):
    from derive.documents.claims import computed_text, note_text

    texts = {"v5p-chip-flops": "4.588e14 FLOP/s", "v5p-core-flops": "2.294e14 FLOP/s", "q4-critical-batch-hbm": "259.3"}
    assert {k for k, r in results.items() if r.verdict == "erratum"} == set(texts)
    for cid, text in texts.items():
        assert computed_text(results[cid]) == text
        assert f"the correct value is {text}" in note_text(results[cid], "en")


def test_the_transfer_is_bandwidth_bound_and_the_gather_sets_the_bound(results):
    assert results["q6-lower-bound"].regime in ("offchip_bound", "ici_bound")
    assert results["q6-array-size"].main_computed == F(Q6_N * Q6_N, GB)


def test_cli_summary_line_matches_the_reports_readme(cli):
    out = cli("check", str(CLAIMS.relative_to(ROOT)))
    assert out.code == 0, out.err
    summary = out.out.strip().splitlines()[-1]
    counts = {v: sum(1 for e in EXPECTED.values() if e[0] == v) for v in VERDICTS}
    assert summary == (f"{len(EXPECTED)} claims: {counts['reproduced']} reproduced, {counts['convention']} convention, "
                       f"{counts['erratum']} erratum, {counts['constant']} constant")
    assert summary in (ROOT / "reports" / "README.md").read_text(encoding="utf-8")
