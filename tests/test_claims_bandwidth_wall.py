"""Every number of the bandwidth-wall chapter, checked by ``derive check``: verdict and value of each claim.

The expected values are worked out here by hand from the chapter's own inputs (and
the presets' documented constants), independently of the engine, so that a catalog
change that moves any verdict or value fails this test.
"""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from derive.documents.claims import VERDICTS, check_claims

ROOT = Path(__file__).resolve().parent.parent
CLAIMS = ROOT / "reports" / "claims" / "bandwidth-wall.yaml"

# the chapter's estimate_training_memory(7, 4, 2048, 4096, 32): bytes of activations
CODE_ACTIVATIONS = 4 * 2048 * 4096 * 34 * 2 * 32

# id: (verdict, computed value in the stated unit, whether it agrees with the stated value)
EXPECTED: dict[str, tuple[str, F, bool]] = {
    # section 一: the hierarchy table (constants of the H100/A100 presets)
    "registers-per-sm": ("constant", F(256 * 1024, 1000), True),     # 256 KiB in kB; agrees as KiB
    "smem-per-sm": ("constant", F(228 * 1024, 1000), True),          # 228 KiB in kB; agrees as KiB
    "smem-bandwidth": ("erratum", F(132 * 128 * 198, 10**5), False),  # 132 SMs x 128 B x 1.98 GHz, TB/s
    "l2-capacity": ("constant", F(50), True),
    "l2-bandwidth": ("constant", F(55, 10), True),
    "hbm-capacity": ("constant", F(80), True),
    "hbm-bandwidth-low": ("constant", F(2), True),
    "hbm-bandwidth-high": ("constant", F(335, 100), True),
    "nvlink-bandwidth": ("reproduced", F(900), True),     # both directions: 2 x 450 GB/s
    "pcie-bandwidth": ("constant", F(64), True),
    "network-bandwidth": ("constant", F(50), True),
    # the three ratios, from the table's own numbers
    "ratio-smem-hbm": ("reproduced", F(10, 2), True),
    "ratio-hbm-pcie": ("convention", F(2500, 64), True),              # 2.5 TB/s / 64 GB/s; plain 2 TB/s gives 31.25
    # NVLink's two directions over the network's one: 18 ~ 20; like for like it is 9
    "ratio-nvlink-network": ("convention", F(900, 50), True),
    # section 二: A100 ridge point and the intensity table
    "a100-peak-flops": ("constant", F(312), True),
    "a100-hbm-bandwidth": ("constant", F(2), True),
    "a100-ridge-point": ("reproduced", F(312, 2), True),
    "matmul-4096-intensity": ("reproduced", F(2 * 4096**3, 2 * 3 * 4096**2), True),
    "matvec-batch1-intensity": ("erratum", F(2 * 4096 * 4096, 2 * (4096 + 4096 * 4096 + 4096)), False),
    "elementwise-relu-intensity": ("reproduced", F(1, 2 * 2), True),
    "elementwise-add-table-intensity": ("erratum", F(1, 3 * 2), False),
    "softmax-intensity": ("reproduced", F(5, 4), True),
    "layernorm-intensity": ("convention", F(5, 4), True),             # 7 FLOPs with gamma, beta: 1.75
    "add-element-bytes": ("constant", F(2), True),
    "add-flops": ("constant", F(1), True),
    "add-bytes": ("reproduced", F(6), True),
    "add-intensity": ("reproduced", F(1, 6), True),
    "add-ridge-gap": ("erratum", F(156 * 6), False),
    "add-idle-compute": ("reproduced", F(1, 156 * 6), True),
    "fusion-traffic": ("reproduced", F(10), True),
    # section 三: training memory of the 7B example, 16 bytes per parameter
    "table-weights-7b": ("reproduced", F(14), True),
    "table-grads-7b": ("reproduced", F(14), True),
    "table-optimizer-7b": ("reproduced", F(84), True),
    "bf16-weight-bytes": ("constant", F(2), True),
    "bf16-grad-bytes": ("constant", F(2), True),
    "master-weight-bytes": ("constant", F(4), True),
    "adam-m-bytes": ("constant", F(4), True),
    "adam-v-bytes": ("constant", F(4), True),
    "adam-state-12": ("reproduced", F(12), True),
    "bytes-per-param-16": ("reproduced", F(16), True),
    "rule-7b": ("reproduced", F(112), True),
    "rule-70b": ("reproduced", F(1120), True),
    "rule-70b-cards": ("reproduced", F(14), True),
    "sgd-optimizer-bytes": ("constant", F(4), True),
    "zero-optimizer-84": ("reproduced", F(84), True),
    # section 四: the estimate_training_memory printout
    "activation-coefficient": ("constant", F(17), True),             # Megatron's 34 bytes = 17 elements
    "printed-weights": ("reproduced", F(14), True),
    "printed-grads": ("reproduced", F(14), True),
    "printed-optimizer": ("reproduced", F(84), True),
    "printed-activations": ("erratum", F(CODE_ACTIVATIONS, 10**9), False),
    "printed-total": ("erratum", F(112 * 10**9 + CODE_ACTIVATIONS, 10**9), False),
    "printed-cards": ("erratum", F(3), False),
    "memory-headroom": ("constant", F(15, 100), True),
    # section 五: the bandwidth wall
    "trend-2012-flops": ("constant", F(4), True),
    "trend-2012-bandwidth": ("constant", F(200), True),
    "trend-2012-ratio": ("reproduced", F(4000, 200), True),
    "trend-2020-flops": ("constant", F(312), True),
    "trend-2020-bandwidth": ("constant", F(2000), True),
    "trend-2020-ratio": ("reproduced", F(312000, 2000), True),
    "trend-2024-flops": ("constant", F(989), True),
    "trend-2024-bandwidth": ("constant", F(3350), True),
    "trend-2024-ratio": ("reproduced", F(989000, 3350), True),
    "trend-worsened-8x": ("reproduced", F(312 * 200, 4 * 2000), True),
}

# what each erratum's verdict says is the correct value, as a reader would write it
ERRATA_TEXT = {
    "smem-bandwidth": "33.45 TB/s",
    "matvec-batch1-intensity": "0.9995 FLOP/B",
    "elementwise-add-table-intensity": "0.1667 FLOP/B",
    "add-ridge-gap": "936",
    "printed-activations": "73.01 GB",
    "printed-total": "185.01 GB",
    "printed-cards": "3",
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
    assert r.verdict == verdict
    assert r.computed == value
    assert r.agrees is agrees


def test_errata_give_the_correct_value(results):
    errata = {k for k, r in results.items() if r.verdict == "erratum"}
    assert errata == set(ERRATA_TEXT)
    from derive.documents.claims import computed_text, note_text

    for cid, text in ERRATA_TEXT.items():
        r = results[cid]
        assert computed_text(r) == text
        assert f"the correct value is {text}" in note_text(r, "en")
        assert f"正确值为 {text}" in note_text(r, "zh")


def test_conventions_are_named(results):
    assert results["ratio-hbm-pcie"].main_computed == F(2000, 64)        # 31.25 without the convention
    assert "2.5 TB/s" in results["ratio-hbm-pcie"].convention.en
    assert results["layernorm-intensity"].main_computed == F(7, 4)
    assert "γ、β" in results["layernorm-intensity"].convention.zh
    assert results["registers-per-sm"].convention.en.startswith("KB read as KiB")
    assert results["activation-coefficient"].convention is not None
    # the 900-times gap stays an erratum even from the rounded 0.17
    assert [t.en for t in results["add-ridge-gap"].tried] == ["dividing by the rounded 0.17 FLOP/B"]


def test_cli_summary_line_matches_the_readme(cli):
    out = cli("check", str(CLAIMS.relative_to(ROOT)))
    assert out.code == 0, out.err
    summary = out.out.strip().splitlines()[-1]
    counts = {v: sum(1 for e in EXPECTED.values() if e[0] == v) for v in VERDICTS}
    assert summary == (f"{len(EXPECTED)} claims: {counts['reproduced']} reproduced, {counts['convention']} convention, "
                       f"{counts['erratum']} erratum, {counts['constant']} constant")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert summary in readme
    rows = cli("check", str(CLAIMS), "--format", "json").json
    assert [r["id"] for r in rows] == list(EXPECTED)
    assert all(set(r) >= {"id", "quote", "stated", "computed", "unit", "verdict", "note"} for r in rows)
