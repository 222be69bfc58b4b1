"""Every number of the Scaling Book chapter (memory hierarchy), checked by the real ``derive check`` CLI.

``derive check reports/claims/memory-hierarchy.yaml --format json`` runs as a process; each
claim's verdict, computed value (in the stated unit) and agreement are compared with values
worked out here by hand from the chapter's inputs and the presets' documented constants,
independently of the engine. A catalog change that moves any verdict or value fails here.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

CLAIMS = "reports/claims/memory-hierarchy.yaml"

KIB, MIB, GIB = 2**10, 2**20, 2**30
V5E_PEAK, V5E_HBM, V5E_VMEM_BW = F(197 * 10**12), F(82 * 10**10), 22 * F(82 * 10**10)
H100_PEAK = F(989 * 10**12)
KV_PER_TOKEN = 2 * 80 * 8 * 128 * 2                  # LLaMA-2 70B, bf16: 327,680 B
KV_4096 = 4096 * KV_PER_TOKEN                         # 1,342,177,280 B = 1.25 GiB
ACT_SELECTIVE = 80 * 34 * 4096 * 8192 // 8            # Megatron eq. 6 per layer x 80 layers, TP = 8

# id: (verdict, computed value in the stated unit, agrees with the stated value)
EXPECTED: dict[str, tuple[str, F, bool]] = {
    # 3.1 the hierarchy
    "hbm-bw-range-low": ("constant", F(82, 100), True),
    "hbm-bw-range-high": ("constant", F(8), False),                  # B200 datasheet 8 TB/s, stated 9
    "onchip-bw-range-low": ("reproduced", V5E_VMEM_BW / 10**12, True),
    "onchip-bw-range-high": ("constant", F(40), True),
    "table-registers": ("constant", F(256 * KIB, 1000), False),      # "几 KB" vs 256 KiB per SM
    "table-smem": ("constant", F(228 * KIB, 1000), True),
    "table-vmem": ("constant", F(128 * MIB, 1000), False),           # "几十-几百 KB" vs 128 MiB
    "table-l2": ("constant", F(50), True),
    "table-hbm": ("constant", F(80), True),
    "table-host-dram": ("constant", F(512 * GIB, 10**9), True),
    "tpu-dataflow-vmem": ("constant", F(128 * MIB, 10**6), True),    # agrees as MiB
    "gpu-hbm-capacity-low": ("constant", F(80), True),
    "gpu-hbm-capacity-high": ("constant", F(180), False),
    "gpu-hbm-bw-low": ("constant", F(335, 100), True),
    "gpu-hbm-bw-high": ("constant", F(8), False),
    "gpu-l2-capacity-low": ("constant", F(50), True),
    "gpu-l2-capacity-high": ("constant", F(126), True),
    "h100-l2-bw": ("constant", F(55, 10), True),
    "h100-smem-per-sm": ("constant", F(256 * KIB, 1000), True),      # agrees as KiB
    "h100-registers-per-sm": ("constant", F(256 * KIB, 1000), True),
    "vmem-vs-l2-capacity": ("erratum", F(128 * MIB, 50 * 10**6), False),   # 2.68, stated 2
    "vmem-vs-l2-bandwidth": ("erratum", V5E_VMEM_BW / F(55 * 10**11), False),  # 3.28, stated 10
    "h100-sm-count": ("constant", F(132), True),
    "coalesced-warp-size": ("constant", F(32), True),
    "coalesced-128-bytes": ("reproduced", F(32 * 4), True),
    "scattered-one-32nd": ("reproduced", F(32 * 4, 32 * 128), True),
    "h100-l2-50mb": ("constant", F(50), True),
    # 3.2 TPU internals
    "tensorcores-low": ("constant", F(1), True),
    "tensorcores-high": ("constant", F(2), True),
    "diagram-mxu-count": ("constant", F(4), True),
    "diagram-vpu-alus": ("reproduced", F(8 * 128 * 4), True),
    "diagram-vregs": ("convention", F(64 * 8 * 128 * 4, 1000), True),   # 256 KiB
    "diagram-hbm-bw-low": ("constant", F(82, 100), True),
    "diagram-hbm-bw-high": ("constant", F(28, 10), True),
    "diagram-hbm-capacity-low": ("constant", F(16), True),
    "diagram-hbm-capacity-high": ("constant", F(96), True),
    "mxu-array-128": ("constant", F(128), True),
    "mxu-array-256-v6e": ("constant", F(256), True),
    "mxu-8-cycles": ("reproduced", F(2 * 8 * 128**2, 2 * 128**2), True),
    "v5e-mxu-count": ("erratum", V5E_PEAK / (2 * 128**2 * F(15 * 10**8)), False),  # 4.0, stated 2
    "v5e-mxu-count-constant": ("constant", F(4), False),
    "v5e-mxu-peak": ("reproduced", F(4 * 2 * 128**2 * 15 * 10**8), True),
    "vpu-shape-sublanes": ("constant", F(8), True),
    "vpu-shape-lanes": ("constant", F(128), True),
    "vpu-shape-alus": ("constant", F(4), True),
    "vpu-flops": ("reproduced", F(2 * 8 * 128 * 4 * 175 * 10**7), True),   # v5p
    "vpu-vs-mxu": ("erratum", F(2 * 4 * 2 * 128**2, 2 * 8 * 128 * 4), False),  # 32, stated 14
    "vmem-capacity-v5e": ("constant", F(128 * MIB, 10**6), True),
    "vmem-4x-gpu-smem": ("reproduced", F(128 * MIB, 132 * 256 * KIB), True),
    "vmem-22x-hbm": ("constant", F(22), True),
    # 3.3 the systolic array
    "systolic-alus": ("reproduced", F(128 * 128), True),
    "weight-load-cycles": ("reproduced", F(128), True),
    "input-every-8-cycles": ("reproduced", F(8), True),
    "fill-latency": ("reproduced", F(128 + 8), True),
    "steady-state-8-cycles": ("reproduced", F(8), True),
    "min-dimension-128": ("reproduced", F(128), True),
    "weight-reuse-8": ("constant", F(8), True),
    "input-reuse-128": ("constant", F(128), True),
    "v6e-flops-per-cycle-4x": ("reproduced", F(256**2, 128**2), True),
    "v6e-min-dimension-256": ("reproduced", F(256), True),
    # 3.4 GPU SMs
    "h100-sm-count-diagram": ("constant", F(132), True),
    "diagram-h100-smem": ("constant", F(256 * KIB, 1000), True),
    "diagram-h100-l2": ("constant", F(50), True),
    "diagram-h100-hbm-capacity": ("constant", F(80), True),
    "diagram-h100-hbm-bw": ("constant", F(335, 100), True),
    "simt-warp-32": ("constant", F(32), True),
    "resident-warps-64": ("constant", F(64), True),
    "resident-threads-2048": ("reproduced", F(64 * 32), True),
    # 3.5 VMEM prefetch and intensity
    "critical-ai-hbm-240": ("reproduced", V5E_PEAK / V5E_HBM, True),
    "critical-ai-vmem-11": ("reproduced", V5E_PEAK / V5E_VMEM_BW, True),
    "vmem-prefetch-vmem-size": ("constant", F(128 * MIB, 10**6), True),
    "l2-1.6x-hbm": ("reproduced", F(55, 10) / F(335, 100), True),
    # 3.6 PCIe
    "pcie-67x": ("reproduced", F(335 * 10**10, 50 * 10**9), True),
    "pcie-roofline-19800": ("reproduced", H100_PEAK / (50 * 10**9), True),
    "offload-intensity-20000": ("reproduced", H100_PEAK / (50 * 10**9), True),
    "pcie-50-gbs": ("constant", F(64), False),       # Gen5 x16, one direction; 50 GB/s is a practical rate
    "kv-reload-size": ("erratum", F(KV_4096, 10**9), False),          # 1.34 GB, stated 1.28
    "kv-reload-time": ("erratum", F(KV_4096 * 1000, 50 * 10**9), False),  # 26.8 ms, stated 25.6
    # 3.7 memory capacity
    "h100s-for-70b": ("reproduced", F(14), True),
    "llama70b-layers": ("constant", F(80), True),
    "llama70b-kv-heads": ("constant", F(8), True),
    "llama70b-head-dim": ("constant", F(128), True),
    "kv-bytes-per-token": ("reproduced", F(KV_PER_TOKEN), True),
    "kv-bytes-per-token-320kb": ("convention", F(KV_PER_TOKEN, 1000), True),   # 320 KiB
    "kv-per-request": ("erratum", F(KV_4096, 10**9), False),
    "kv-batch-256": ("erratum", F(256 * KV_4096, 10**9), False),      # 343.6 GB, stated 328
    "weights-140gb": ("reproduced", F(140), True),
    "optimizer-840gb": ("reproduced", F(840), True),
    "budget-params-per-card": ("reproduced", F(175, 10), True),
    "budget-optimizer-per-card": ("reproduced", F(105), True),
    "budget-activations-per-card": ("erratum", F(ACT_SELECTIVE, 10**9), False),   # 11.4 GB, stated ~8
    "budget-total-per-card": ("erratum", F(175, 10) + F(175, 10) + 105 + 8, False),  # 148 GB, stated ~30
    # 3.8 quick numbers and the key takeaways
    "quick-ai-hbm-240": ("reproduced", V5E_PEAK / V5E_HBM, True),
    "quick-ai-hbm-570": ("reproduced", F(92 * 10**13, 16 * 10**11), True),
    "quick-ai-vmem-11": ("reproduced", V5E_PEAK / V5E_VMEM_BW, True),
    # only when the ICI link is counted in both directions (9e10 B/s, the book's table): 2,189 ~ 2000
    "quick-ai-network-low": ("convention", V5E_PEAK / (9 * 10**10), True),
    "quick-ai-network-high": ("reproduced", H100_PEAK / (50 * 10**9), True),
    "quick-ai-pcie-20000": ("reproduced", H100_PEAK / (50 * 10**9), True),
    "takeaway-mxu-8-cycles": ("reproduced", F(8), True),
    "takeaway-min-dimension-128": ("reproduced", F(128), True),
    "takeaway-vmem-128mb": ("constant", F(128 * MIB, 10**6), True),
    "takeaway-vmem-22x": ("constant", F(22), True),
    "takeaway-l2-50mb": ("constant", F(50), True),
    "takeaway-intensity-240": ("reproduced", V5E_PEAK / V5E_HBM, True),
    "takeaway-intensity-11": ("reproduced", V5E_PEAK / V5E_VMEM_BW, True),
    "takeaway-pcie-67x": ("reproduced", F(67), True),
    "takeaway-pcie-19800": ("reproduced", H100_PEAK / (50 * 10**9), True),
    "takeaway-16-bytes": ("reproduced", F(2 + 2 + 12), True),
    "takeaway-1.1tb": ("reproduced", F(70 * 16, 1000), True),
    "takeaway-132-sms": ("constant", F(132), True),
    "takeaway-14-h100": ("reproduced", F(14), True),
    # 3.9 the worked problems' givens
    "p1-h100-hbm-bw": ("constant", F(335, 100), True),
    "p2-vmem-128mb": ("constant", F(128 * MIB, 10**6), True),
    "p2-hbm-bw": ("constant", F(82, 100), True),
    "p3-array": ("constant", F(128), True),
    "p4-matrix-size": ("convention", F(2**34, 10**9), True),           # 16 GiB
    "p4-hosts": ("reproduced", F(2), True),
    "p4-pcie-bw": ("constant", F(15), True),
    "p4-ici-bw": ("constant", F(45), True),
    "p4-ici-bidi": ("reproduced", F(90), True),
    "p4-hbm-bw": ("constant", F(820), True),
    "p4-peak": ("constant", V5E_PEAK, True),
    "p4-ici-links": ("constant", F(4), False),                          # 4 ports; only corner chips use 2
    # orders of growth in the sequence length N: the power of N derive finds against the stated one
    "standard-attention-traffic-order": ("reproduced", F(2), True),
    "flash-attention-traffic-order": ("erratum", F(2), False),         # "O(N)": its traffic is Θ(N²d²/M)
    "takeaway-flash-order": ("reproduced", F(2), True),
}


@pytest.fixture(scope="module")
def results():
    from conftest import run_cli

    out = run_cli("check", CLAIMS, "--format", "json")
    assert out.code == 0, out.err
    return {r["id"]: r for r in out.json}


def test_every_claim_is_in_the_expected_table(results):
    assert set(results) == set(EXPECTED), (sorted(set(results) - set(EXPECTED)),
                                           sorted(set(EXPECTED) - set(results)))


@pytest.mark.parametrize("cid", sorted(EXPECTED))
def test_claim_verdict_and_value(results, cid):
    verdict, value, agrees = EXPECTED[cid]
    r = results[cid]
    assert r["verdict"] == verdict, (cid, r["verdict"], r["note"])
    assert r["agrees"] is agrees, (cid, r["note"])
    got = F(str(r["computed"]))
    assert abs(got - value) <= abs(value) * F(1, 10**9), (cid, float(got), float(value))
    assert r["quote"] and r["note"]


def test_summary_counts_and_errata_sizes(results):
    counts = {v: sum(1 for r in results.values() if r["verdict"] == v)
              for v in ("reproduced", "convention", "erratum", "constant")}
    assert counts == {"reproduced": 47, "convention": 4, "erratum": 11, "constant": 64}
    # an erratum gives the correct value and the size of the error
    kv = results["kv-batch-256"]
    assert kv["error"] == pytest.approx(328 - 256 * KV_4096 / 1e9)
    assert kv["relative_error"] == pytest.approx((328e9 - 256 * KV_4096) / (256 * KV_4096))
    assert results["budget-total-per-card"]["relative_error"] == pytest.approx((30 - 148) / 148)


def test_conventions_are_named(results):
    for cid, unit in (("diagram-vregs", "KiB"), ("kv-bytes-per-token-320kb", "KiB"), ("p4-matrix-size", "GiB")):
        assert unit in results[cid]["convention"]["en"], results[cid]
        assert results[cid]["convention"]["zh"]


def test_text_output_ends_with_the_summary_line(cli):
    out = cli("check", CLAIMS)
    assert out.code == 0, out.err
    assert out.out.strip().splitlines()[-1] == "126 claims: 47 reproduced, 4 convention, 11 erratum, 64 constant"
