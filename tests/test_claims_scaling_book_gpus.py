"""The networking numbers of the Scaling Book's GPU chapter, checked by ``derive check``: verdict and value of each.

Worked out by hand from the chapter's inputs (NVLink 25 GB/s per link each way, 18 links per H100 GPU,
64-port NVSwitches and 64-port 400 Gbps InfiniBand switches, 8 GPUs and 400 GB/s of egress per node,
C = 990e12 FLOP/s for an H100 and 2250e12 for a B200), independently of the engine.
"""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from derive.documents.claims import VERDICTS, check_claims

ROOT = Path(__file__).resolve().parent.parent
CLAIMS = ROOT / "reports" / "claims" / "scaling-book-gpus.yaml"

GBs = 10**9                       # GB/s in B/s
TBs = 10**12
NVLINK_GPU = 18 * 25              # GB/s
IB_PORT = 50                      # GB/s: 400 Gbps
IB_SWITCH = 64 * IB_PORT          # GB/s

EXPECTED: dict[str, tuple[str, F, bool]] = {
    "h100-nvlink-link": ("constant", F(25), True),
    "b200-nvlink-link": ("constant", F(50), True),
    "h100-nvlink-per-gpu": ("reproduced", F(18 * 25), True),
    "a100-nvlink-per-gpu": ("reproduced", F(12 * 25), True),
    "b200-nvlink-per-gpu": ("reproduced", F(18 * 50), True),
    "h100-node-switch-bw": ("reproduced", F(4 * 64 * 25, 1000), True),
    "nvswitch-bw": ("reproduced", F(64 * 25, 1000), True),
    "node-gpu-bw": ("reproduced", F(8 * NVLINK_GPU, 1000), True),
    "node-peak-bw": ("reproduced", F(8 * NVLINK_GPU, 1000), True),           # below the switches' 6.4
    "node-bisection": ("reproduced", F(8 * NVLINK_GPU, 1000), True),
    "q2-3-array-bytes": ("reproduced", F(4096 * 65536 * 2), True),            # 536.9e6 B, stated 536e6
    "q2-3-allgather-node": ("reproduced", F(4096 * 65536 * 2 * 7 * 1000, 8 * NVLINK_GPU * GBs), True),
    "q2-3-allgather-approx": ("reproduced", F(4096 * 65536 * 2 * 1000, NVLINK_GPU * GBs), True),   # B / W, in ms
    "nic-per-gpu": ("constant", F(400), True),
    "node-egress": ("reproduced", F(8 * IB_PORT), True),
    "superpod-gpus": ("reproduced", F(128 * 8), True),
    "superpod-sus": ("reproduced", F(128, 32), True),
    "superpod-switches": ("reproduced", F(128 * 4 + 4 * 8 + 16), True),
    "ib-switch-bw": ("reproduced", F(IB_SWITCH, 1000), True),
    "leaf-level-bw": ("reproduced", F(32 * 8 * IB_PORT, 1000), True),
    "summary-leaf-switch-bw": ("reproduced", F(8 * IB_SWITCH, 1000), True),   # 8 leaf switches, every port
    "su-uplink-bw": ("reproduced", F(8 * 16 * 2 * IB_PORT, 1000), True),
    "spine-bw": ("reproduced", F(16 * IB_SWITCH, 1000), True),
    "spine-per-node": ("reproduced", F(16 * IB_SWITCH, 128), True),
    "appb-node-switch-bw": ("reproduced", F(4 * 64 * 25, 1000), True),
    "appb-leaf-egress-bw": ("reproduced", F(8 * 32 * IB_PORT, 1000), True),
    "appb-spine-switch-bw": ("reproduced", F(IB_SWITCH, 1000), True),
    "appb-spine-bw": ("reproduced", F(16 * IB_SWITCH, 1000), True),           # the newest text: 16 x 3.2 TB/s
    "appb-per-gpu-scaleout": ("constant", F(IB_PORT), True),
    "v5p-egress-all-axes": ("reproduced", F(6 * 90), True),
    "quiz3-q2-sus-2048": ("reproduced", F(2048 // 8, 32), True),
    "quiz3-q2-spine-2048": ("reproduced", F(400 * (2048 // 8), IB_SWITCH), True),   # 400 GB/s per node kept
    "gb200-node-egress": ("reproduced", F(72 * IB_PORT, 1000), True),
    "pop1-allgather-precise": ("reproduced", F(2 * 1024 * 16384 * 7 * 10**6, 8 * NVLINK_GPU * GBs), True),
    "pop1-allgather-rough": ("reproduced", F(2 * 1024 * 16384 * 10**6, NVLINK_GPU * GBs), True),   # 74.6
    "llama-mlp-shard-bytes": ("reproduced", F(8192 * 28672 * 2, 8 * 10**6), True),                 # 58.7 MB
    "ring-level-node": ("reproduced", F(8 * 450, 7), True),
    "ring-level-leaf": ("reproduced", F(32 * 400, 31), True),
    "ring-level-spine": ("reproduced", F(4 * 128, 3 * 10), True),
    "quiz4-q4-spine-per-su": ("reproduced", F(8 * 16 * 2 * IB_PORT, 1000), True),
    "two-node-scaleout-ring": ("reproduced", F(2 * 400), True),
    "dp-critical-batch-node": ("reproduced", F(990 * 10**12, 450 * GBs), True),
    "dp-critical-batch-beyond": ("reproduced", F(990 * 10**12, 400 * GBs), True),
    "dp-tpu-850": ("reproduced", F(459 * 10**12, 3 * 180 * GBs), True),
    "dp-deepseek-3300": ("reproduced", F(990 * 10**12, 300 * GBs), True),
    "takeaway-dp-2500": ("reproduced", F(990 * 10**12, 400 * GBs), True),
    "q5-1-b200-tp-alpha": ("reproduced", F(2250 * 10**12, 900 * GBs), True),
    "q5-1-b200-dp": ("reproduced", F(2250 * 10**12, 400 * GBs), True),
    "q5-2-3c-pp-roofline": ("reproduced", F(990 * 10**12, 3200 * GBs), True),
    # parallelism (formulas/parallelism.yaml)
    "dp-llama3-40m-tokens": ("reproduced", 16000 * F(990 * 10**12, 400 * GBs), True),
    "dp-deepseek-6.7m-tokens": ("reproduced", 2048 * F(990 * 10**12, 300 * GBs), True),
    "dp-deepseek-used-4m": ("erratum", F(15360 * 4096), False),              # 62.9M
    "dp-moe-79200": ("reproduced", F(128, 4) * F(990 * 10**12, 400 * GBs), True),
    "dp-two-nodes-1237": ("reproduced", F(990 * 10**12, 400 * GBs) / 2, True),   # 1237.5
    "tp-llama3-11-way": ("reproduced", F(int(28000 * 400 * GBs / (990 * 10**12))), True),
    "tp-llama3-8-way": ("reproduced", F(8 * (28000 * 400 * GBs // (990 * 10**12) // 8)), True),   # 11.3 down to a node
    "tp-two-nodes-19-way": ("reproduced", F(8 + int(28000 * 400 * GBs / (990 * 10**12))), True),
    "deepseek-batch-tokens": ("reproduced", F(4096 * 15360), True),
    "deepseek-tokens-per-gpu": ("reproduced", F(4096 * 15360, 2048), True),
    "deepseek-ep-nodes": ("reproduced", F(64, 8), True),
    "deepseek-model-parallel-1024": ("reproduced", F(64 * 16), True),
    "llama3-tokens-per-gpu": ("reproduced", F(16 * 10**6, 16000), True),
    "llama3-pp-16x": ("reproduced", F(8 * 16, 8), True),
    "q5-2-1-memory": ("reproduced", F(10 * 70), True),                        # GB
    "q5-2-1-gpus": ("reproduced", F(9), True),                                # ceil(700 / 80)
    "q5-2-1-nodes": ("reproduced", F(8 * -(-700 // (80 * 8))), True),               # 9 GPUs up to 2 nodes
    "q5-2-2-flops": ("reproduced", F(6 * 70 * 15) * 10**21, True),
    "q5-2-2-cluster-flops": ("reproduced", 4096 * F(990 * 10**12) * F(45, 100), True),
    "q5-2-2-seconds": ("reproduced", F(6 * 70 * 15) * 10**21 / (4096 * F(990 * 10**12) * F(45, 100)), True),
    "q5-2-2-days": ("reproduced", F(6 * 70 * 15) * 10**21 / (4096 * F(990 * 10**12) * F(45, 100)) / 86400, True),
    "q5-2-3-tp-limit": ("erratum", F(28672 * 450 * GBs, 990 * 10**12), False),   # 13.03, not F / 1995
    "q5-2-3-alpha-1995": ("erratum", F(990 * 10**12, 450 * GBs), False),          # 2200
    "q5-2-3-8-way": ("reproduced", F(8 * (28672 * 450 * GBs // (990 * 10**12) // 8)), True),     # 13.0 down to a node
    "q5-2-3-1-dp-512": ("reproduced", F(4096, 8), True),
    "q5-2-3-1-memory-per-gpu": ("reproduced", F(700, 8), True),
    "q5-2-3-2-tokens-per-gpu": ("reproduced", F(4 * 10**6, 4096), True),          # 976.6, truncated to 976
    "q5-2-3-3-bandwidth": ("reproduced", F(8 * 400), True),
    "q5-3-16b-tokens-per-gpu": ("reproduced", F(4096), True),
    "q5-3-70b-tokens-per-gpu": ("reproduced", F(2048), True),
    "q5-3-314b-tokens-per-gpu": ("reproduced", F(2048), True),
    "q5-3-bound-2472": ("reproduced", F(989 * 10**12, 400 * GBs), True),          # 2472.5, truncated to 2,472
    "q5-3-70b-spine-2x": ("reproduced", F(16, 8), True),
    "q5-3-314b-spine-8x": ("reproduced", F(64, 8), True),
    "q5-3-70b-bound-1k": ("reproduced", F(990 * 10**12, 2 * 400 * GBs), True),
    "q5-3-314b-bound-300": ("reproduced", F(990 * 10**12, 8 * 400 * GBs), True),
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


def test_the_spine_has_the_bandwidth_of_its_switches(results):
    from derive.documents.claims import computed_text

    # Appendix B's older 16 x 1.6 TB/s = 25.6 TB/s is gone from the newest text: 16 x 3.2 TB/s
    r = results["appb-spine-bw"]
    assert computed_text(r) == "51.2 TB/s"
    assert results["node-peak-bw"].regime == "gpu_link_bound"


def test_cli_summary_line_matches_the_reports_readme(cli):
    out = cli("check", str(CLAIMS.relative_to(ROOT)))
    assert out.code == 0, out.err
    summary = out.out.strip().splitlines()[-1]
    counts = {v: sum(1 for e in EXPECTED.values() if e[0] == v) for v in VERDICTS}
    assert summary == (f"{len(EXPECTED)} claims: {counts['reproduced']} reproduced, {counts['convention']} convention, "
                       f"{counts['erratum']} erratum, {counts['constant']} constant")
    assert summary in (ROOT / "reports" / "README.md").read_text(encoding="utf-8")
