"""The GPU, pipelining, trend and training-memory parts of the catalog, through the real solver.

Each expected value is computed here by hand from the presets' documented constants
or the paper's formula, with the arithmetic written out.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
import sympy

from derive import load_catalog, solve

TB = 10**12


def exact(sol) -> F:
    assert sol.value.is_Rational, sol.value
    return F(int(sol.value.p), int(sol.value.q))


# ---------------------------------------------------------------- GPU internals

def test_shared_memory_bandwidth_is_derived_from_sms_and_clock():
    assert exact(solve("smem_bw", hw="h100")) == 132 * 128 * F(198, 100) * 10**9     # 33.45 TB/s
    assert exact(solve("smem_bw", hw="a100")) == 108 * 128 * F(141, 100) * 10**9     # 19.49 TB/s
    sol = solve("critical_ai_smem", hw="h100")
    assert exact(sol) == F(989 * TB, 132 * 128 * 198 * 10**7)
    assert "smem_bw" in sol.relations_used


def test_occupancy_and_register_limit():
    assert solve("max_threads_per_sm", hw="h100").value == 2048
    assert solve("occupancy", {"active_warps": 32}, hw="h100").value == sympy.Rational(1, 2)
    # Scaling Book: 256 registers per thread leave room for 8 warps in a 256 KiB register file
    sol = solve("max_warps_by_registers", {"registers_per_thread": 256}, hw="h100")
    assert sol.value == 8 and {g.name for g in sol.assumptions} == {"register_bytes"}
    warps = solve("active_warps", {"registers_per_thread": 128}, hw="a100", bound="max",
                  require=["occupancy_fits_registers"])
    assert warps.value == 16


def test_coalesced_and_scattered_access():
    base = {"threads_per_warp": 32, "bytes_per_thread": "4 B", "transaction_bytes": "128 B"}
    assert solve("access_efficiency", {**base, "memory_transactions": 1}).value == 1
    assert solve("access_efficiency", {**base, "memory_transactions": 32}).value == sympy.Rational(1, 32)
    eff = solve("effective_hbm_bw", {"bytes_per_thread": "4 B", "transaction_bytes": "128 B",
                                     "memory_transactions": 32}, hw="h100")
    assert exact(eff) == F(335 * 10**10, 32)


def test_level_ratios():
    assert exact(solve("l2_to_hbm_bw_ratio", hw="h100")) == F(55, 10) / F(335, 100)
    # like for like: 450 GB/s of NVLink each way over one 400 Gb/s NIC (the chapter's 18 ~ 20 adds NVLink's directions)
    assert solve("nvlink_to_network_bw_ratio", hw="h100").value == 9
    assert solve("smem_to_hbm_bw_ratio", {"smem_bw": "10 TB/s", "hbm_bw": "2 TB/s"}).value == 5


# ---------------------------------------------------------------- intensity and batch size

def test_smallest_compute_bound_batch_per_level():
    # B·D·F / (B·D + D·F + B·F) >= I* with D = F = 8192 and I* = 989/3.35: B >= I*·D / (D - 2·I*) = 318.2
    sol = solve("matmul_rows", {"matmul_inner": 8192, "matmul_cols": 8192}, hw="h100", bound="min",
                require=["matmul_compute_bound_hbm"])
    crit = F(989 * 100, 335)
    assert sol.value == 319
    assert F(int(sol.exact.p), int(sol.exact.q)) == crit * 8192 / (8192 - 2 * crit)
    # from shared memory the same matmul is compute-bound at a batch ten times smaller
    smem = solve("matmul_rows", {"matmul_inner": 8192, "matmul_cols": 8192}, hw="h100", bound="min",
                 require=["matmul_compute_bound_smem"])
    assert smem.value == 30


def test_elementwise_and_normalisation_presets():
    assert solve("elementwise_intensity", presets=["op-add", "fp32"]).value == sympy.Rational(1, 12)
    assert solve("elementwise_intensity", presets=["op-softmax"]).value == sympy.Rational(5, 4)
    assert solve("elementwise_intensity", presets=["op-layernorm"]).value == sympy.Rational(7, 4)
    assert solve("elementwise_intensity", presets=["op-layernorm-no-affine"]).value == sympy.Rational(5, 4)
    assert solve("fusion_traffic_ratio", {"fused_ops": 10, "fused_tensors_accessed": 12},
                 presets=["op-add"]).value == sympy.Rational(30, 12)


def test_convolution_intensity_is_hundreds():
    given = {"matmul_rows": 1, "conv_height": 56, "conv_width": 56, "conv_kernel": 3, "channels_in": 256,
             "channels_out": 256}
    flops = 2 * 56 * 56 * 9 * 256 * 256
    bytes_ = 2 * (56 * 56 * (256 + 256) + 9 * 256 * 256)
    assert exact(solve("conv_intensity", given)) == F(flops, bytes_)          # 842.5


# ---------------------------------------------------------------- pipelining

def test_pipelined_time_and_its_limit():
    g = {"load_time": "3 ms", "compute_time": "5 ms", "store_time": "1 ms"}
    assert exact(solve("serial_time", g)) == F(9, 1000)
    ten = solve("pipelined_time", {**g, "pipeline_chunks": 10})
    assert exact(ten) == F(9 + 9 * 5, 10 * 1000) and ten.regime == "compute_bound"
    many = solve("pipelined_time", {**g, "pipeline_chunks": 10**6})
    assert abs(float(many.value) - 0.005) < 1e-8
    assert exact(solve("pipeline_speedup", {**g, "pipeline_chunks": 10})) == F(9, 1) / F(54, 10)
    busy = solve("compute_busy_fraction", {**g, "pipeline_chunks": 10})
    assert exact(busy) == F(5, 1) / F(54, 10)
    load_bound = solve("pipeline_bottleneck_time", {"load_time": "7 ms", "compute_time": "5 ms",
                                                    "store_time": "1 ms"})
    assert load_bound.regime == "load_bound" and exact(load_bound) == F(7, 1000)


def test_double_buffer_fits_vmem():
    sol = solve("chunk_bytes", hw="tpu-v5e", presets=["double-buffering"], bound="max",
                require=["buffers_fit_in_vmem"])
    assert sol.value == 64 * 2**20       # two buffers of 64 MiB fill 128 MiB


# ---------------------------------------------------------------- the bandwidth wall

def test_ridge_growth_over_generations():
    assert solve("critical_ai", hw="gpu-2012").value == 20
    g = {"peak_flops_old": "312 TFLOP/s", "hbm_bw_old": "2.0 TB/s", "peak_flops_new": "989 TFLOP/s",
         "hbm_bw_new": "3.35 TB/s"}
    assert exact(solve("ridge_growth", g)) == F(989 * 2, 312 * F(335, 100))


# ---------------------------------------------------------------- training memory

SBH_70B = 4096 * 1 * 8192          # s = 4096, b = 1, h = 8192 (LLaMA-2 70B, a = 64)


@pytest.mark.parametrize("target, extra, expected", [
    ("act_bytes_layer_megatron", {}, SBH_70B * (34 + F(5 * 64 * 4096, 8192))),
    ("act_bytes_layer_tp", {"tensor_parallel": 8}, SBH_70B * (10 + F(24, 8) + F(5 * 64 * 4096, 8192 * 8))),
    ("act_bytes_layer_tp_sp", {"tensor_parallel": 8}, SBH_70B * (34 + F(5 * 64 * 4096, 8192)) / 8),
    ("act_bytes_layer_selective", {"tensor_parallel": 8}, F(34 * SBH_70B, 8)),
    ("act_bytes_layer_tp_selective", {"tensor_parallel": 8}, SBH_70B * (10 + F(24, 8))),
    ("act_bytes_layer_full", {}, F(2 * SBH_70B)),
])
def test_megatron_activation_formulas(target, extra, expected):
    sol = solve(target, {"seq_len": 4096, "batch": 1, **extra}, model="llama2-70b")
    assert exact(sol) == expected


def test_chapter_activation_estimate_and_checkpointing():
    g = {"batch": 4, "seq_len": 2048}
    per_layer = 4 * 2048 * 4096 * 34 * 2
    opts = dict(model="example-7b", presets=["adam-mixed", "chapter-activations"])
    assert solve("activation_bytes_per_layer", g, **opts).value == per_layer
    assert solve("activation_bytes", g, **opts).value == 32 * per_layer
    ckpt = solve("activation_bytes_ckpt", g, **opts)
    assert sympy.simplify(ckpt.value - sympy.sqrt(32) * per_layer) == 0
    # the paper's 34 bytes are 17 two-byte elements: half the chapter's estimate
    paper = solve("activation_bytes", g, model="example-7b", presets=["megatron-selective"])
    assert paper.value == 32 * per_layer // 2


def test_adam_breakdown_sgd_and_devices():
    assert solve("adam_bytes_per_param", presets=["adam-mixed"]).value == 12
    assert solve("training_bytes_per_param", presets=["sgd-mixed"]).value == 8
    per_device = solve("training_memory_per_device", {"tensor_parallel": 8, "optimizer_shards": 8,
                                                      "activation_bytes_per_device": "8 GB"},
                       model="llama2-70b", presets=["adam-mixed"])
    assert exact(per_device) == (F(140, 8) + F(140, 8) + F(840, 64) + 8) * 10**9      # 56.125 GB
    shards = solve("optimizer_shards", {"tensor_parallel": 8, "activation_bytes_per_device": "8 GB"},
                   model="llama2-70b", hw="h100", presets=["adam-mixed"], bound="min",
                   require=["training_fits_per_device"])
    assert shards.value == 3          # 35 + 8 + 105/N <= 80 needs N >= 2.84
    cards = solve("num_devices", {"batch": 4, "seq_len": 2048, "hbm_capacity": "80 GB"}, model="example-7b",
                  presets=["adam-mixed", "chapter-activations", "headroom-15"], bound="min",
                  require=["training_fits_with_headroom"])
    assert cards.value == 3           # 185.0 GB / (0.85 x 80 GB) = 2.72


def test_non_embedding_parameters_are_twelve_layers_of_d_squared():
    # Kaplan et al.'s N ≈ 12·L·d² (no embeddings, no norms, a 4x MLP, multi-head attention)
    given = {"d_model": 4096, "num_layers": 32, "embedding_matrices": 0, "norms_per_layer": 0, "final_norms": 0,
             "num_heads": 32, "num_kv_heads": 32, "head_dim": 128, "vocab_size": 32000}
    assert exact(solve("params", given, presets=["classic-ffn"])) == 12 * 32 * 4096**2


def test_zero_stages_take_no_tensor_parallelism_unless_told():
    # Rajbhandari et al.'s 7.5B model on 64 data-parallel GPUs, 16 B/param: ZeRO-3 keeps 16·Ψ/N_d
    sol = solve("state_bytes_per_device_zero3", {"params": 7.5e9, "data_parallel": 64}, presets=["adam-mixed"])
    assert exact(sol) == F(16 * 75 * 10**8, 64)
    assert {g.name: g.origin for g in sol.given}["tensor_parallel"] == "default"


def test_palm_reports_its_mfu_with_attention_counted():
    # PaLM 540B (Appendix B): 238.3K tokens/s on 6,144 TPU v4 chips is 46.2% MFU counting the attention
    # scores (6N + 12·L·H·Q·T), 45.7% with 6N alone
    given = {"train_throughput": 238.3e3, "num_devices": 6144, "params": 540.35e9, "num_layers": 118,
             "seq_len": 2048, "num_heads": 48, "head_dim": 256}
    with_attention = solve("mfu_attention", given, hw="tpu-v4")
    flops = 6 * F(54035, 100) * 10**9 + 12 * 118 * 48 * 256 * 2048
    assert exact(with_attention) == F(2383, 10) * 1000 * flops / (6144 * 275 * 10**12)
    assert round(float(exact(with_attention)), 3) == 0.462
    six_n = solve("mfu", {k: v for k, v in given.items() if k in ("train_throughput", "num_devices", "params")},
                  hw="tpu-v4")
    assert round(float(exact(six_n)), 3) == 0.457


def test_training_cost_is_device_hours_at_their_price_in_dollars(cli):
    # DeepSeek-V3, Table 1: 2.788M H800 GPU-hours at $2 per GPU-hour is $5.576M
    sol = solve("train_cost", {"device_hours": "2.788e6 h", "gpu_hour_price": "2 USD/h"})
    assert exact(sol) == 5_576_000
    assert sol.display().endswith("USD")
    back = solve("gpu_hours", {"train_cost": "5.576e6 USD", "device_hour_price": "2 USD/h"}, unit="h")
    assert exact(back) == F(2788 * 10**3) * 3600
    # money is its own dimension: dollars are not hours, and a price must be per time
    run = cli("solve", "train_cost", "device_hours=2.788e6h", "device_hour_price=2USD")
    assert run.code == 2 and run.err.count("\n") == 1 and "device_hour_price" in run.err


def test_a_prefill_takes_every_weight_matmul_and_the_books_estimate_only_the_mlps():
    # LLaMA-2 7B, one 512-token prompt on an A100 at 100 % MFU: 2·N·512 FLOPs of weight matmuls
    # plus the causal attention scores, 2·L·T²·N·H = 2·32·512²·32·128
    ask = dict(model="llama2-7b", hw="a100", presets=["bf16"])
    given = {"batch": 1, "seq_len": 512, "num_devices": 1, "mfu": 1}
    full = solve("prefill_time", given, **ask)
    weights = 2 * 7 * 10**9 * 512                                  # the preset's nominal 7e9
    attention = 2 * 32 * 512**2 * 32 * 128
    assert exact(full) == F(weights + attention, 312 * TB)
    assert exact(solve("prefill_weight_flops", given, **ask)) == weights
    mlp = solve("prefill_mlp_time", given, **ask)
    assert exact(mlp) == F(2 * 3 * 4096 * 11008 * 32 * 512, 312 * TB)
    # the first token comes out of the prefill: an idle server adds nothing, a queue adds its wait
    assert solve("ttft", given, **ask).value == full.value
    queued = solve("ttft", {**given, "ttft_overhead": "30 ms"}, **ask)
    assert exact(queued) == exact(full) + F(3, 100)


def test_a_long_prefill_counts_its_causal_attention_in_prefill_time_and_ttft():
    # issue 29 item 5: Llama-3 70B, one 32k-token prompt on 8 H100s at 100 % MFU. By hand:
    # weights 2·70e9·32768 = 4.58752e15 FLOP; causal attention 2·L·T²·N·H = 2·80·32768²·64·128
    # = 1.40737e15 FLOP; over 8·989e12 FLOP/s: 757.7 ms (579.8 ms with the weights alone)
    ask = dict(model="llama3-70b", hw="h100")
    given = {"batch": 1, "seq_len": 32768, "num_devices": 8, "mfu": 1}
    weights = 2 * 70 * 10**9 * 32768
    attention = 2 * 80 * 32768**2 * 64 * 128
    expected = F(weights + attention, 8 * 989 * TB)
    assert exact(solve("prefill_attn_flops", given, **ask)) == attention
    assert exact(solve("prefill_time", given, **ask)) == expected
    assert round(float(expected) * 1000, 1) == 757.7
    assert exact(solve("ttft", given, **ask)) == expected      # an idle server: TTFT is the prefill
    # the weights-only count says so in its name
    names = {q.id: q.name.en for q in load_catalog().quantities.values()}
    for six_n in ("prefill_weight_flops", "forward_flops_per_token", "train_flops_per_token", "train_flops"):
        assert "attention scores left out" in names[six_n], six_n


def test_both_pipeline_bubble_conventions_answer_under_the_names_the_papers_use():
    # Megatron-LM: "bubble time fraction = (p − 1)/m"; GPipe: (p − 1)/(m + p − 1) of the step
    assert exact(solve("bubble_time_fraction", {"pp_stages": 8, "pp_microbatches": 32})) == F(7, 32)
    assert exact(solve("bubble_share_of_step", {"pp_stages": 8, "pp_microbatches": 32})) == F(7, 39)


def test_rules_of_thumb_for_serving_and_training_memory():
    # EleutherAI's Transformer Math 101: serving takes about 1.2 × the weights (7B in fp16: 16.8 GB)
    assert exact(solve("inference_memory_estimate", {"params": 7e9}, presets=["fp16"])) == 168 * 10**8
    # The Ultra-Scale Playbook: 16 bytes per parameter with bf16 mixed precision, 20 when the
    # gradients are also accumulated in fp32 (70B: 1,120 GB and 1,400 GB)
    assert exact(solve("training_state_bytes", {"params": 70e9}, presets=["adam-mixed"])) == 1120 * 10**9
    assert exact(solve("training_state_bytes", {"params": 70e9}, presets=["adam-mixed-fp32-grads"])) == 1400 * 10**9


def test_model_state_alone_is_asked_with_activations_left_out():
    """The largest model under ZeRO-3 on 64 A100s, model state only: the activation relation's inputs are
    not the question's, and the error says how to leave activations out; with them 0 it answers
    (64 · 80 GB / 16 B = 320e9)."""
    from derive import MissingInputsError

    with pytest.raises(MissingInputsError) as err:
        solve("params", {"data_parallel": 64}, hw="a100", bound="max", require=["zero3_fits"])
    assert "activation_bytes_per_device itself (0 leaves it out)" in str(err.value)
    sol = solve("params", {"data_parallel": 64, "activation_bytes_per_device": 0}, hw="a100", bound="max",
                require=["zero3_fits"])
    assert exact(sol) == F(64 * 80 * 10**9, 16)


def test_checkpoints_after_the_ffw_matmuls_follow_the_architecture():
    """The training chapter's Question 2: checkpoints after the three FFW matmuls keep D + 2F elements per
    token and layer, 2·L·B·T·(D + 2F) bytes in bf16 (LLaMA-2 13B, F = 2.7·D = 13,824, 16M tokens: 42 TB);
    a plain MLP (two matrices) keeps D + F."""
    sol = solve("activation_bytes", {"batch_tokens": "16e6"}, model="llama2-13b-arch",
                presets=["bf16", "ffw-checkpoints"])
    assert exact(sol) == 2 * 40 * 16 * 10**6 * (5120 + 2 * 13824)
    factor = {g.name: g.value for g in sol.given}["activation_factor"]
    assert factor == sympy.Rational(5120 + 2 * 13824, 5120)                      # 6.4 = 1 + 2·2.7
    plain = solve("activation_bytes_per_layer", {"batch_tokens": 1, "d_model": 1024, "d_ff": 4096,
                                                 "ffn_matrices": 2}, presets=["bf16", "ffw-checkpoints"])
    assert exact(plain) == 2 * (1024 + 4096)


@pytest.mark.parametrize("preset, per_layer", [("no-remat", 20), ("big-matmuls-remat", 7), ("block-remat", 1)])
def test_the_books_checkpointing_schemes_are_presets(preset, per_layer):
    # B·T = 4M tokens, L = 64, D = 8192 in bf16: 84 TB without remat, 4.2 TB with block remat
    sol = solve("activation_bytes", {"batch_tokens": "4e6", "num_layers": 64, "d_model": 8192}, presets=["bf16", preset])
    assert exact(sol) == 2 * per_layer * 4 * 10**6 * 8192 * 64


def test_a_global_batch_in_tokens_is_enough_for_the_training_memory():
    """`training_memory ... batch_tokens=4e6` asked for batch and seq_len; B·T is what the memory reads
    (LLaMA 3-70B, 10 B/param, 3 checkpoints of width D per layer: 16.43 TB), and batch × seq_len gives the
    same."""
    tokens = solve("training_memory", {"activation_factor": 3, "batch_tokens": "4e6"}, model="llama3-70b",
                   presets=["adam-10", "bf16"])
    assert exact(tokens) == 10 * 70 * 10**9 + 2 * 3 * 4 * 10**6 * 8192 * 80
    split = solve("training_memory", {"activation_factor": 3, "batch": 1000, "seq_len": 4000}, model="llama3-70b",
                  presets=["adam-10", "bf16"])
    assert split.value == tokens.value
