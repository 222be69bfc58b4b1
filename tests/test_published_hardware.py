"""Published numbers about accelerator hardware, memory and interconnects, each asked as one `derive solve`.

As tests/test_published_elsewhere.py: every expected value is computed here by hand from the inputs the
source states (the source and its statement in the comment), never copied from derive's answer; the
published figure is compared too, to the digits it states (``rel`` is the rounding the figure carries).
"before:" says what the engine did with the question before the relation, preset or unit was added.
"""

from __future__ import annotations

import pytest

from derive import solve

G, T = 10**9, 10**12


def value(target, given=None, **kw):
    return float(solve(target, given or {}, **kw).value)


CASES = [
    # --- DRAM bandwidth from the interface: pins x rate per pin -----------------------------------
    # JEDEC JESD238 (HBM3): 1024 data pins per stack at 6.4 Gb/s, "819 GB/s" per stack
    # (before: 'Gb' was an unknown unit, and no relation gave a stack's bandwidth)
    ("hbm3-stack-819", "hbm_stack_bw", {"memory_pin_rate": "6.4 Gb/s"}, {},
     1024 * 6.4e9 / 8, 819 * G, 0.0005),
    # NVIDIA A100 whitepaper: "five active HBM2 stacks" on a 5120-bit bus at 1215 MHz DDR (2.43 Gb/s
    # per pin): "1555 GB/sec" (before: no relation)
    ("a100-40gb-1555", "hbm_bw", {"memory_bus_width": 5120, "memory_pin_rate": "2.43 Gb/s"}, {},
     5120 * 2 * 1.215e9 / 8, 1555 * G, 0.0005),
    # the same A100, asked by its stacks (1024 pins each by default)
    ("a100-40gb-1555-stacks", "hbm_bw", {"hbm_stacks": 5, "memory_pin_rate": "2.43 Gb/s"}, {},
     5 * 1024 * 2.43e9 / 8, 1555 * G, 0.0005),
    # NVIDIA V100 whitepaper: four HBM2 stacks (4096 bits) at 877.5 MHz DDR, "900 GB/sec" peak; the
    # pins give 898.6 GB/s, which NVIDIA rounds up (before: no relation)
    ("v100-900", "hbm_bw", {"hbm_stacks": 4, "memory_pin_rate": "1.755 Gb/s"}, {},
     4 * 1024 * 1.755e9 / 8, 900 * G, 0.002),
    # NVIDIA Ada whitepaper: RTX 4090, 384-bit GDDR6X at 21 Gbps, "1008 GB/sec" (before: no relation)
    ("rtx4090-1008", "hbm_bw", {"memory_bus_width": 384, "memory_pin_rate": "21 Gb/s"}, {},
     384 * 21e9 / 8, 1008 * G, 0),
    # AMD CDNA 3 whitepaper / MI300X datasheet: 8 HBM3 stacks at 5.2 Gb/s, "5.3 TB/s" (before: no relation)
    ("mi300x-hbm-5.3", "hbm_bw", {"hbm_stacks": 8, "memory_pin_rate": "5.2 Gb/s"}, {},
     8 * 1024 * 5.2e9 / 8, 5.3 * T, 0.005),
    # HBM capacity from the stacks: H100 SXM 5 stacks of 16 GB = "80GB"; MI300X 8 of 24 GB = "192 GB"
    ("h100-80gb-stacks", "hbm_capacity", {"hbm_stacks": 5, "hbm_stack_capacity": "16 GB"}, {},
     5 * 16 * G, 80 * G, 0),
    ("mi300x-192gb-stacks", "hbm_capacity", {"hbm_stacks": 8, "hbm_stack_capacity": "24 GB"}, {},
     8 * 24 * G, 192 * G, 0),
    # --- PCIe: lanes x transfer rate x encoding, one direction (PCI-SIG; Wikipedia's PCI Express table)
    # Gen1 x16: 2.5 GT/s with 8b/10b, "4.000 GB/s" (before: no relation, 'GT' an unknown unit)
    ("pcie-gen1-x16", "pcie_link_bw",
     {"pcie_lanes": 16, "pcie_transfer_rate": "2.5 GT/s", "pcie_encoding_efficiency": "8/10"}, {},
     16 * 2.5e9 * 0.8 / 8, 4.000 * G, 0),
    # Gen3 x16: 8 GT/s with 128b/130b (the default), "15.754 GB/s"
    ("pcie-gen3-x16", "pcie_link_bw", {"pcie_lanes": 16, "pcie_transfer_rate": "8 GT/s"}, {},
     16 * 8e9 * 128 / 130 / 8, 15.754 * G, 0.0001),
    # Gen4 x16: 16 GT/s, "31.508 GB/s" (NVIDIA's A100 "64 GB/s" adds both directions and drops the encoding)
    ("pcie-gen4-x16", "pcie_link_bw", {"pcie_lanes": 16, "pcie_transfer_rate": "16 GT/s"}, {},
     16 * 16e9 * 128 / 130 / 8, 31.508 * G, 0.0001),
    # Gen5 x16: 32 GT/s, "63.015 GB/s"
    ("pcie-gen5-x16", "pcie_link_bw", {"pcie_lanes": 16, "pcie_transfer_rate": "32 GT/s"}, {},
     16 * 32e9 * 128 / 130 / 8, 63.015 * G, 0.0001),
    # Gen6 x16: 64 GT/s PAM4 in 256-byte FLITs of which 242 carry data, "121.000 GB/s"
    ("pcie-gen6-x16", "pcie_link_bw",
     {"pcie_lanes": 16, "pcie_transfer_rate": "64 GT/s", "pcie_encoding_efficiency": "242/256"}, {},
     16 * 64e9 * 242 / 256 / 8, 121.000 * G, 0),
    # --- NVLink, NVSwitch, InfiniBand ----------------------------------------------------------------
    # H100 whitepaper: "18 NVLink links ... 900 GB/sec of total bandwidth", 50 GB/s per link both
    # directions (before: the per-link bidirectional figure had no name; typed as nvlink_link_bw it
    # is taken as one-way and the answer doubles)
    ("h100-18-links-900", "nvlink_gpu_bidi_bw", {"nvlink_ports_per_gpu": 18, "nvlink_link_bidi_bw": "50 GB/s"}, {},
     18 * 50 * G, 900 * G, 0),
    # A100 whitepaper: 12 third-generation links, "600 GB/sec"; 25 GB/s each way per link
    ("a100-12-links-600", "nvlink_gpu_bidi_bw", {"nvlink_ports_per_gpu": 12, "nvlink_link_bw": "25 GB/s"}, {},
     2 * 12 * 25 * G, 600 * G, 0),
    # Blackwell (GB200 NVL72): 18 fifth-generation links of 100 GB/s both ways, "1.8 TB/s" per GPU
    ("b200-18-links-1.8", "nvlink_gpu_bidi_bw", {"nvlink_ports_per_gpu": 18, "nvlink_link_bidi_bw": "100 GB/s"}, {},
     18 * 100 * G, 1.8 * T, 0),
    # NVIDIA Quantum-2 QM9700: 64 ports of NDR 400 Gb/s, "51.2 Tb/s" aggregate bidirectional
    # throughput: one direction 64 x 50 GB/s = 3.2 TB/s (before: 'Gb' was an unknown unit)
    ("quantum2-51.2tbs", "ib_switch_bw", {"ib_switch_ports": 64, "ib_port_bw": "400 Gb/s"}, {},
     64 * 400e9 / 8, 51.2e12 / 8 / 2, 0),
    # --- sparse Tensor Core peaks: 2:4 structured sparsity doubles the dense rate ---------------------
    # A100 datasheet: BF16 312 TFLOPS, "624" with sparsity (before: no sparse peak)
    ("a100-sparse-624", "peak_flops_sparse", {}, {"hw": "a100"}, 2 * 312 * T, 624 * T, 0),
    # H100 SXM datasheet: FP8 1,979 TFLOPS dense, "3,958" with sparsity
    ("h100-fp8-sparse-3958", "peak_flops_sparse", {}, {"hw": "h100", "presets": ["fp8"]},
     2 * 1979 * T, 3958 * T, 0),
    # MI300X datasheet: BF16 1,307.4 TFLOPS dense, "2,614.9" with sparsity: AMD doubles the unrounded
    # 1,307.45, so the doubled 1,307.4 is 2,614.8 (before: no MI300X preset)
    ("mi300x-sparse-2614.9", "peak_flops_sparse", {}, {"hw": "mi300x"}, 2 * 1307.4 * T, 2614.9 * T, 0.00004),
    # --- ridge points of the roofline (peak FLOP/s over HBM bandwidth) ------------------------------------
    # MI300X datasheet: 1,307.4 TFLOPS BF16, 5.3 TB/s: 246.7 FLOP/B; FP8 2,614.9 TFLOPS: 493.4 FLOP/B
    # (AMD prints no ridge point: the figure is the ratio of its two, to four digits; before: no MI300X preset)
    ("mi300x-ridge-bf16", "critical_ai", {}, {"hw": "mi300x"}, 1307.4e12 / 5.3e12, 246.7, 0.0002),
    ("mi300x-ridge-fp8", "critical_ai", {}, {"hw": "mi300x", "presets": ["fp8"]},
     2614.9e12 / 5.3e12, 493.4, 0.0002),
    # MI300X datasheet: 192 GB per GPU; the 8-GPU platform's "1.5 TB" of HBM3 (1,536 GB)
    ("mi300x-platform-1.5tb", "total_hbm_capacity", {"num_devices": 8}, {"hw": "mi300x"},
     8 * 192 * G, 1.5 * T, 0.03),
    # --- collectives in the alpha-beta model (Thakur, Rabenseifner & Gropp 2005) -----------------------
    # p = 8 processes, n = 1 GB, alpha = 5 us, 1/beta = one 400 Gb/s NIC (50 GB/s); the published figure is
    # the paper's cost formula at these inputs (before: no alpha-beta relation, 'Gb' unknown)
    # ring AllReduce (Patarasuk & Yuan 2009: its bandwidth term is the lower bound): 2(p-1)a + 2(p-1)/p n b
    ("thakur-ring-allreduce", "ring_allreduce_time",
     {"axis_size": 8, "collective_bytes": "1 GB", "alpha": "5 us", "link_bw": "400 Gb/s"}, {},
     2 * 7 * 5e-6 + 2 * 7 / 8 * 1e9 / 50e9, 2 * 7 * 5e-6 + 2 * 7 / 8 * 1e9 / 50e9, 0),
    # ring AllGather: (p-1)a + (p-1)/p n b
    ("thakur-ring-allgather", "ring_allgather_time",
     {"axis_size": 8, "collective_bytes": "1 GB", "alpha": "5 us", "beta": "1/(50 GB/s)"}, {},
     7 * 5e-6 + 7 / 8 * 1e9 / 50e9, 7 * 5e-6 + 7 / 8 * 1e9 / 50e9, 0),
    # recursive-doubling AllGather: lg(p) a + (p-1)/p n b
    ("thakur-recdbl-allgather", "recdbl_allgather_time",
     {"axis_size": 8, "collective_bytes": "1 GB", "alpha": "5 us", "beta": "1/(50 GB/s)"}, {},
     3 * 5e-6 + 7 / 8 * 1e9 / 50e9, 3 * 5e-6 + 7 / 8 * 1e9 / 50e9, 0),
    # binomial-tree Broadcast: lg(p) (a + n b)
    ("thakur-binomial-bcast", "binomial_bcast_time",
     {"axis_size": 8, "collective_bytes": "1 GB", "alpha": "5 us", "beta": "1/(50 GB/s)"}, {},
     3 * (5e-6 + 1e9 / 50e9), 3 * (5e-6 + 1e9 / 50e9), 0),
    # Rabenseifner's AllReduce: 2 lg(p) a + 2(p-1)/p n b
    ("thakur-rabenseifner-allreduce", "rabenseifner_allreduce_time",
     {"axis_size": 8, "collective_bytes": "1 GB", "alpha": "5 us", "beta": "1/(50 GB/s)"}, {},
     2 * 3 * 5e-6 + 2 * 7 / 8 * 1e9 / 50e9, 2 * 3 * 5e-6 + 2 * 7 / 8 * 1e9 / 50e9, 0),
    # --- issue 32 presets: each asked of its preset, recomputed from the vendor's printed figures --------
    # HGX B300: FP4 "144 | 108 PFLOPS" (with | without sparsity) for 8 GPUs of 8 TB/s: dense FP4 ridge
    # 108e15/8 / 8e12 = 1,687.5 FLOP/B (before: no B300 preset, no fp4 peak or fp4 precision preset)
    ("b300-fp4-ridge", "critical_ai", {}, {"hw": "b300", "presets": ["fp4"]},
     108e15 / 8 / 8e12, 1687.5, 0),
    # HGX B200: FP4 "144 | 72 PFLOPS", 8 TB/s: 72e15/8 / 8e12 = 1,125 FLOP/B
    ("b200-fp4-ridge", "critical_ai", {}, {"hw": "b200", "presets": ["fp4"]}, 72e15 / 8 / 8e12, 1125, 0),
    # GB200 NVL72: FP4 "1,440 PFLOPS" with sparsity over 72 GPUs, halved; "576 TB/s" over 72: 1,250 FLOP/B
    ("gb200-fp4-ridge", "critical_ai", {}, {"hw": "gb200", "presets": ["gb200-nvl72", "fp4"]},
     1440e15 / 72 / 2 / (576e12 / 72), 1250, 0),
    # GB300 NVL72: FP4 "1,080 PFLOPS" without sparsity over 72, 576 TB/s over 72: 1,875 FLOP/B; the rack's
    # dense FP4 back from 72 chips: 72 x 15 PFLOPS = "1,080 PFLOPS"; NVLink 72 x 1.8 TB/s = "130 TB/s"
    ("gb300-fp4-ridge", "critical_ai", {}, {"hw": "gb300", "presets": ["fp4"]},
     1080e15 / 72 / (576e12 / 72), 1875, 0),
    ("gb300-nvl72-fp4-1080pf", "pod_peak_flops", {"num_devices": 72}, {"hw": "gb300", "presets": ["fp4"]},
     72 * 15e15, 1080e15, 0),
    ("gb300-nvl72-130tbs", "node_nvlink_bidi_bw", {}, {"presets": ["gb300-nvl72"]}, 72 * 1.8e12, 130e12, 0.004),
    # HGX B300: "networking bandwidth 1.6 TB/s" both directions: 8 GPUs x 800 Gb/s = 800 GB/s one way
    ("hgx-b300-network", "network_node_bw", {}, {"presets": ["hgx-b300"]}, 8 * 800e9 / 8, 1.6e12 / 2, 0),
    # H800: NVLink "400 GB/s" both directions (the H100's 900); its NVLink ridge 989e12 / 200e9 = 4,945
    ("h800-nvlink-400", "nvlink_gpu_bidi_bw", {}, {"hw": "h800"}, 2 * 200e9, 400e9, 0),
    ("h800-nvlink-ridge", "critical_ai_nvlink", {}, {"hw": "h800"}, 989e12 / 200e9, 989e12 / 200e9, 0),
    # H20: BF16 148 TFLOPS, FP8 296 TFLOPS over 4.0 TB/s: ridges 37 and 74 FLOP/B
    ("h20-ridge-bf16", "critical_ai", {}, {"hw": "h20"}, 148e12 / 4e12, 37, 0),
    ("h20-ridge-fp8", "critical_ai", {}, {"hw": "h20", "presets": ["fp8"]}, 296e12 / 4e12, 74, 0),
    # MI325X: BF16 1,307.4 TFLOPS over 6 TB/s: 217.9 FLOP/B; 8 GPUs of 256 GB: the platform's "2 TB"
    ("mi325x-ridge-bf16", "critical_ai", {}, {"hw": "mi325x"}, 1307.4e12 / 6e12, 217.9, 0),
    ("mi325x-platform-2tb", "total_hbm_capacity", {"num_devices": 8}, {"presets": ["mi325x-platform"]},
     8 * 256e9, 2e12, 0.025),
    # Infinity Fabric: 7 links of "128 GB/s" (MI300X, MI325X) or "153.6 GB/s" (MI355X), both directions:
    # MI300X's "896 GB/s" aggregate, MI355X 7 x 153.6 = 1,075.2 GB/s (before: no Infinity Fabric quantity)
    ("mi300x-if-896", "infinity_fabric_gpu_bidi_bw", {}, {"hw": "mi300x"}, 7 * 128e9, 896e9, 0),
    ("mi355x-if-1075", "infinity_fabric_gpu_bidi_bw", {}, {"hw": "mi355x"}, 7 * 153.6e9, 1075.2e9, 0),
    # one pair of MI355X GPUs shares one link: 76.8 GB/s each way
    ("mi355x-if-link", "infinity_fabric_link_bw", {}, {"hw": "mi355x"}, 153.6e9 / 2, 76.8e9, 0),
    # MI355X: MXFP4 "10 PFLOPS" over 8 TB/s: 1,250 FLOP/B
    ("mi355x-fp4-ridge", "critical_ai", {}, {"hw": "mi355x", "presets": ["fp4"]}, 10e15 / 8e12, 1250, 0),
    # Trainium2: "1,299 FP8 TFLOPS" over "2.9 TB/sec": 447.9 FLOP/B; NeuronLink "1.28 TB/sec per chip",
    # read as both directions: BF16 667 TFLOPS over 640 GB/s one way = 1,042.2 FLOP/B
    ("trainium2-fp8-ridge", "critical_ai", {}, {"hw": "trainium2", "presets": ["fp8"]}, 1299e12 / 2.9e12,
     1299e12 / 2.9e12, 0),
    ("trainium2-neuronlink-ridge", "critical_ai_neuronlink", {}, {"hw": "trainium2"}, 667e12 / 640e9,
     667e12 / 640e9, 0),
    # TPU7x: FP8 4,614 TFLOPs over 7,380 GB/s: 625.2 FLOP/B; the 9,216-chip pod's FP8 "42.5 exaflops"
    ("tpu7x-fp8-ridge", "critical_ai", {}, {"hw": "tpu7x", "presets": ["fp8"]}, 4614e12 / 7380e9, 625.2, 0.0001),
    ("tpu7x-pod-42.5ef", "pod_peak_flops", {"num_devices": 9216}, {"hw": "tpu7x", "presets": ["fp8"]},
     9216 * 4614e12, 42.5e18, 0.001),
    # TPU7x's "1200 GB/s" bidirectional ICI per chip spread over 6 ports (a 3D torus, given here): 100 GB/s
    # per link each way (before: no per-chip bidirectional ICI quantity)
    ("tpu7x-ici-link", "ici_link_bw", {"ici_ports_per_chip": 6}, {"hw": "tpu7x"}, 1200e9 / 2 / 6, 100e9, 0),
    # Google lists v6e's FP8 at its BF16 rate (918): under fp8 the v6e ridge is 918e12 / 1.6e12
    ("v6e-fp8-bf16-rate", "critical_ai", {}, {"hw": "tpu-v6e", "presets": ["fp8"]}, 918e12 / 1.6e12,
     918e12 / 1.6e12, 0),
]


# the presets of issue 32 and the setups built on them
NEW_PRESETS = ["h800", "h20", "b300", "gb200", "gb300", "mi325x", "mi355x", "trainium2",
               "trainium2-neuronlink-one-way", "tpu7x", "gb300-nvl72", "hgx-b300", "mi355x-platform",
               "mi325x-platform"]
LINKS = ("nvlink", "pcie", "network", "ici", "infinity_fabric", "neuronlink")


@pytest.mark.parametrize("preset_id", NEW_PRESETS)
def test_every_new_preset_value_cites_a_reference_and_says_what_it_counts(preset_id):
    from derive import load_catalog
    catalog = load_catalog()
    preset = catalog.presets[preset_id]
    parent = catalog.presets[preset.extends].values if preset.extends else {}
    own = {name: val for name, val in preset.values.items() if parent.get(name) != val}   # not inherited
    assert own
    for name, val in own.items():
        assert val.source.ref in catalog.references, (preset_id, name, val.source)
        assert val.note and val.note_zh, (preset_id, name)          # what the value counts, in both languages
        if name.startswith(LINKS) and name.endswith("_bw"):        # a link bandwidth says its direction
            said = val.note.lower()
            assert "direction" in said or "one way" in said or "each way" in said, (preset_id, name)


def test_the_dense_peaks_of_the_new_chips_are_not_their_sparse_ones():
    # dense is the catalog's convention: H100's 989 TFLOPS, half the 1,979 "with sparsity"; B300's dense
    # BF16 is half of HGX B300's 36 PFLOPS / 8; its FP4 is the 108 PFLOPS printed without sparsity
    assert value("peak_flops", hw="b300") == pytest.approx(36e15 / 8 / 2, rel=1e-12)
    assert value("peak_flops_fp4", hw="b300") == pytest.approx(108e15 / 8, rel=1e-12)
    assert value("peak_flops_sparse", hw="gb300") == pytest.approx(360e15 / 72, rel=1e-12)


def test_a_variant_keeps_the_other_reading_of_neuronlink():
    # AWS's "1.28 TB/sec per chip": both directions in trainium2 (640 GB/s each way), one way in the variant
    assert value("neuronlink_chip_bw", hw="trainium2") == pytest.approx(640e9, rel=1e-12)
    assert value("neuronlink_chip_bw", hw="trainium2-neuronlink-one-way") == pytest.approx(1.28e12, rel=1e-12)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_published_number(case):
    _, target, given, kw, by_hand, published, rel = case
    got = value(target, given, **kw)
    assert got == pytest.approx(by_hand, rel=1e-12)
    assert by_hand == pytest.approx(published, rel=rel, abs=0)


def test_a_line_rate_in_bits_is_read_as_bits():
    # "400 Gb/s" (InfiniBand NDR, ConnectX-7) is 50 GB/s: b is the bit, B the byte
    sol = solve("critical_ai_network", {"network_chip_bw": "400 Gb/s"}, hw="h100")
    assert float(sol.value) == pytest.approx(989e12 / 50e9, rel=1e-12)


def test_missing_bandwidth_still_asks_for_the_bandwidth():
    # a relation from HBM stacks and pin rate must not hide the figure every chip preset gives
    from derive import MissingInputsError
    with pytest.raises(MissingInputsError) as err:
        solve("critical_ai", {"peak_flops": "1 PFLOP/s"})
    assert err.value.missing == ("hbm_bw",)
    assert "derive list --kind hw" in str(err.value) and "hbm_stacks" in str(err.value)


def test_the_recursive_doubling_bandwidth_term_is_exact():
    # the bandwidth term (p - 1)/p n beta is exact: 7/8 of the array for p = 8
    from fractions import Fraction
    sol = solve("recdbl_allgather_time", {"axis_size": 8, "collective_bytes": "1 GB", "alpha": 0,
                                          "beta": "1/(50 GB/s)"})
    assert sol.value == Fraction(7, 8) * Fraction(10**9, 50 * 10**9)


def test_the_pin_rate_follows_from_a_chip_preset():
    # H100 SXM: 3.35 TB/s over five 1024-pin stacks is 5.234 Gb/s per pin (before the fix, a second
    # relation hbm_bw = stacks x stack bandwidth made this a block SymPy could not solve)
    sol = solve("memory_pin_rate", {"hbm_stacks": 5}, hw="h100")
    assert float(sol.value) * 8 == pytest.approx(3.35e12 * 8 / (5 * 1024), rel=1e-12)   # bits/s per pin
    assert float(sol.value) * 8 == pytest.approx(5.234e9, rel=1e-4)
    # a bare number is in the quantity's unit, Gb/s
    assert float(solve("hbm_stack_bw", {"memory_pin_rate": 6.4}).value) == pytest.approx(819.2e9, rel=1e-12)
