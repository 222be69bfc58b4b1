"""Published numbers from sources other than the Scaling Book, each asked as one `derive solve`.

Every expected value is computed here by hand from the inputs the source states (the source and its
statement in the comment), never copied from derive's answer; the published figure is compared too,
to the digits it states (``rel`` is the rounding the source's figure carries). A question the engine
could not answer before (a missing relation, preset or engine case) says so in its comment.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from derive import solve

HOUR, DAY = 3600, 86400
T, P = 10**12, 10**15


def value(target, given=None, **kw):
    return float(solve(target, given or {}, **kw).value)


CASES = [
    # --- scaling laws and training compute -------------------------------------------------------
    # Hoffmann et al. 2022 (Chinchilla): 70B parameters on 1.4T tokens, about 20 tokens per parameter
    ("chinchilla-tokens-per-param", "tokens_per_param", {"train_tokens": "1.4e12", "params": "70e9"}, {},
     1.4e12 / 70e9, 20, 0),
    # Chinchilla with C = 6·N·D (Kaplan et al. 2020; EleutherAI's Transformer Math 101): 6·70e9·1.4e12
    ("chinchilla-compute", "train_flops", {"params": "70e9", "train_tokens": "1.4e12"}, {},
     6 * 70e9 * 1.4e12, 5.88e23, 0.005),
    # Chinchilla's budget of 5.76e23 FLOPs at 20 tokens per parameter: N = sqrt(C/120) ≈ 70B, D ≈ 1.4T
    ("chinchilla-optimal-params", "params", {"train_flops": "5.76e23", "tokens_per_param": 20}, {},
     (5.76e23 / 120) ** 0.5, 70e9, 0.05),
    ("chinchilla-optimal-tokens", "train_tokens", {"train_flops": "5.76e23", "tokens_per_param": 20}, {},
     20 * (5.76e23 / 120) ** 0.5, 1.4e12, 0.05),
    # Brown et al. 2020 (GPT-3), Table D.1: 174.6B parameters, 300B tokens, 3.14e23 FLOPs = 3.64e3 PF-days
    ("gpt3-compute", "train_flops", {"params": "174.6e9", "train_tokens": "300e9"}, {},
     6 * 174.6e9 * 300e9, 3.14e23, 0.005),
    ("gpt3-pf-days", "train_flops", {"params": "174.6e9", "train_tokens": "300e9"}, {},
     6 * 174.6e9 * 300e9, 3.64e3 * P * DAY, 0.005),
    # Llama 3 (2024): 405B parameters on 15.6T tokens, "3.8 × 10^25 FLOPs"
    ("llama3-405b-compute", "train_flops", {"params": "405e9", "train_tokens": "15.6e12"}, {},
     6 * 405e9 * 15.6e12, 3.8e25, 0.01),
    # Kaplan et al. 2020: non-embedding N ≈ 12·n_layer·d_model² (GPT-3: 96 layers, d = 12,288, "175B");
    # before the engine fix vocab_size was asked for although it only multiplies embedding_matrices = 0
    ("kaplan-gpt3-params", "params",
     {"num_layers": 96, "d_model": 12288, "num_heads": 96, "d_ff": 4 * 12288, "ffn_matrices": 2,
      "embedding_matrices": 0, "norms_per_layer": 0, "final_norms": 0}, {},
     12 * 96 * 12288**2, 175e9, 0.01),
    # --- Megatron-LM (Narayanan et al. 2021) ----------------------------------------------------
    # P = 12·l·h²·(1 + 13/(12h) + (V + s)/(12·l·h)); Table 1: the 1T row (128 layers, h = 25,600) is 1008B
    ("megatron-1t-params", "megatron_param_count",
     {"num_layers": 128, "d_model": 25600, "vocab_size": 51200, "seq_len": 2048}, {},
     12 * 128 * 25600**2 * (1 + 13 / (12 * 25600) + (51200 + 2048) / (12 * 128 * 25600)), 1008e9, 0.0005),
    # end-to-end time ≈ 8·T·P/(n·X): GPT-3 on 1,024 A100s at 140 teraFLOP/s, 300B tokens: "34 days";
    # before the engine fix this asked for mfu and peak_flops (which cancel)
    ("megatron-gpt3-34-days", "train_time",
     {"params": "175e9", "train_tokens": "300e9", "num_devices": 1024,
      "achieved_flops_per_device": "140 TFLOP/s", "recompute_fraction": 1}, {},
     8 * 300e9 * 175e9 / (1024 * 140 * T), 34 * DAY, 0.015),
    # the 1T model (1008B) on 3,072 GPUs at 163 teraFLOP/s, 450B tokens: "84 days"
    ("megatron-1t-84-days", "train_time",
     {"params": "1.008e12", "train_tokens": "450e9", "num_devices": 3072,
      "achieved_flops_per_device": "163 TFLOP/s", "recompute_fraction": 1}, {},
     8 * 450e9 * 1.008e12 / (3072 * 163 * T), 84 * DAY, 0.006),
    # Table 1: 163 teraFLOP/s per A100 is 52% of the 312 teraFLOP/s peak
    ("megatron-1t-52-percent", "hfu", {"achieved_flops_per_device": "163 TFLOP/s"}, {"hw": "a100"},
     163 / 312, 0.52, 0.005),
    # Table 1: 502 petaFLOP/s aggregate over 3,072 GPUs (163 teraFLOP/s each, rounded); before the
    # engine fix this asked for mfu
    ("megatron-1t-aggregate", "cluster_model_flops",
     {"num_devices": 3072, "achieved_flops_per_device": "163 TFLOP/s"}, {"hw": "a100"},
     3072 * 163 * T, 502 * P, 0.005),
    # --- Korthikanti et al. 2022: selective recomputation --------------------------------------
    # GPT-3 (a = 96, s = 2048, h = 12288): 5as/h = 80, selective recomputation removes 80/114 ≈ 70%
    ("korthikanti-gpt3-70-percent", "act_selective_saving",
     {"num_heads": 96, "seq_len": 2048, "d_model": 12288}, {},
     80 / 114, 0.70, 0.005),
    # MT-NLG 530B (a = 128, s = 2048, h = 20480): 5as/h = 64, 64/98 ≈ 65%
    ("korthikanti-mtnlg-65-percent", "act_selective_saving",
     {"num_heads": 128, "seq_len": 2048, "d_model": 20480}, {},
     64 / 98, 0.65, 0.005),
    # --- ZeRO (Rajbhandari et al. 2020), Table 1: 7.5B model on 64 GPUs, K = 12 ------------------
    ("zero-baseline-120gb", "state_bytes_per_device_ddp", {"params": "7.5e9"}, {},
     16 * 7.5e9, 120e9, 0),
    ("zero-pos-31.4gb", "state_bytes_per_device_zero1", {"params": "7.5e9", "data_parallel": 64}, {},
     (2 + 2 + 12 / 64) * 7.5e9, 31.4e9, 0.0005),
    ("zero-pos-g-16.6gb", "state_bytes_per_device_zero2", {"params": "7.5e9", "data_parallel": 64}, {},
     (2 + 14 / 64) * 7.5e9, 16.6e9, 0.003),
    ("zero-pos-g-p-1.88gb", "state_bytes_per_device_zero3", {"params": "7.5e9", "data_parallel": 64}, {},
     16 * 7.5e9 / 64, 1.88e9, 0.003),
    # "a trillion parameter model ... on 1024 GPUs ... 15.6 GB per GPU" (ZeRO-3, 16 B per parameter)
    ("zero-1t-1024-gpus", "state_bytes_per_device_zero3", {"params": "1e12", "data_parallel": 1024}, {},
     16e12 / 1024, 15.6e9, 0.002),
    # "GPT-2 with 1.5B parameters ... at least 24 GB" for the model states
    ("zero-gpt2-24gb", "training_state_bytes", {"params": "1.5e9"}, {}, 16 * 1.5e9, 24e9, 0),
    # "12 × hidden dim × batch × seq length × transformer layers" activations for GPT-2 1.5B
    # (1600 wide, 48 layers), seq 1K, batch 32, in fp16: "about 60 GB"
    ("zero-gpt2-activations-60gb", "activation_bytes",
     {"num_layers": 48, "d_model": 1600, "batch": 32, "seq_len": 1024, "activation_factor": 12,
      "bytes_per_element": 2}, {},
     12 * 1600 * 32 * 1024 * 48 * 2, 60e9, 0.01),
    # ZeRO-3 moves 3Ψ per step against data parallelism's 2Ψ: 1.5x
    ("zero3-comm-1.5x", "zero3_comm_ratio", {}, {}, 1.5, 1.5, 0),
    # "ZeRO ... 100B parameters ... 400 GPUs ... 15 PetaFlops", over 30% of the V100's 125 TFLOP/s;
    # before the V100 preset this needed peak_flops typed
    ("zero-100b-30-percent", "hfu", {"achieved_flops_per_device": "15PFLOP/s/400"}, {"hw": "v100"},
     15e15 / 400 / 125e12, 0.30, 0),
    # Shoeybi et al. 2019 (Megatron-LM): 39 TeraFLOPs on one V100, "30% of the theoretical peak"
    ("megatron-2019-39-tflops", "hfu", {"achieved_flops_per_device": "39 TFLOP/s"}, {"hw": "v100"},
     39 / 125, 0.30, 0.05),
    # --- PaLM (Chowdhery et al. 2022), Table 3 / Appendix B ------------------------------------
    # 540B parameters, 238.3K tokens/s on 6,144 TPU v4 (275 TFLOP/s), L = 118, H = 48 heads of 256, T = 2048
    ("palm-mfu-46.2", "mfu_attention",
     {"train_throughput": "238.3e3/s", "num_devices": 6144, "params": "540e9", "num_layers": 118,
      "num_heads": 48, "head_dim": 256, "seq_len": 2048}, {"hw": "tpu-v4"},
     238.3e3 * (6 * 540e9 + 12 * 118 * 48 * 256 * 2048) / (6144 * 275e12), 0.462, 0.002),
    # --- LLaMA, Llama 3, DeepSeek-V3 -------------------------------------------------------------
    # Touvron et al. 2023: 65B "processes around 380 tokens/sec/GPU on 2048 A100 ... 1.4T tokens ...
    # approximately 21 days"; Table 15: 1,022,362 GPU-hours
    ("llama-65b-21-days", "train_time",
     {"train_tokens": "1.4e12", "train_throughput_per_device": "380/s", "num_devices": 2048}, {},
     1.4e12 / (380 * 2048), 21 * DAY, 0.01),
    ("llama-65b-gpu-hours", "device_hours",
     {"train_tokens": "1.4e12", "train_throughput_per_device": "380/s"}, {},
     1.4e12 / 380, 1022362 * HOUR, 0.002),
    # Llama 3 Table 4: 430 TFLOPs per H100 is "43%" BF16 MFU (989 TFLOP/s dense); before the engine
    # fix an MFU from the achieved FLOP/s asked for 17 architecture counts
    ("llama3-mfu-43", "mfu", {"achieved_flops_per_device": "430 TFLOP/s"}, {"hw": "h100"},
     430 / 989, 0.43, 0.02),
    # Llama 3 Table 4: 16,384 GPUs, TP 8, PP 16 -> DP 128 (before: expert_parallel was asked for)
    ("llama3-dp-128", "mesh_dp_degree", {"num_devices": 16384, "tensor_parallel": 8, "pp_stages": 16}, {},
     16384 / (8 * 16), 128, 0),
    # the long-context row: TP 8, CP 16, PP 16 -> DP 8 (before: no context parallelism in the mesh)
    ("llama3-dp-8-cp-16", "mesh_dp_degree",
     {"num_devices": 16384, "tensor_parallel": 8, "context_parallel": 16, "pp_stages": 16}, {},
     16384 / (8 * 16 * 16), 8, 0),
    # DeepSeek-V3: 2.788M H800 GPU-hours at $2 per GPU-hour is $5.576M
    ("deepseek-v3-cost", "train_cost", {"device_hours": "2.788e6 h", "device_hour_price": "2 USD/h"}, {},
     2.788e6 * 2, 5.576e6, 0),
    # "each trillion tokens requires 180K H800 GPU hours, i.e., 3.7 days on our cluster with 2048 H800 GPUs"
    ("deepseek-v3-3.7-days", "train_time", {"device_hours": "180e3 h", "num_devices": 2048}, {},
     180e3 * HOUR / 2048, 3.7 * DAY, 0.015),
    # 14.8T tokens at 180K GPU-hours per trillion: 2664K GPU-hours of pre-training (the value with a
    # unit inside parentheses was refused before the engine fix)
    ("deepseek-v3-pretraining-hours", "device_hours",
     {"train_tokens": "14.8e12", "train_throughput_per_device": "1e12/(180e3h)"}, {},
     14.8 * 180e3 * HOUR, 2664e3 * HOUR, 0),
    # --- serving ---------------------------------------------------------------------------------
    # Kwon et al. 2023 (vLLM): OPT-13B, "2 × 5120 × 40 × 2 ... 800 KB" per token (KiB), 2048 tokens
    ("vllm-opt13b-800kb", "kv_bytes_per_token", {"num_layers": 40, "d_model": 5120, "num_heads": 40},
     {"presets": ["fp16"]}, 2 * 5120 * 40 * 2, 800 * 1024, 0),
    ("vllm-opt13b-1.6gb", "kv_cache_bytes",
     {"num_layers": 40, "d_model": 5120, "num_heads": 40, "seq_len": 2048, "batch": 1}, {"presets": ["fp16"]},
     2 * 5120 * 40 * 2 * 2048, 1.6 * 2**30, 0.03),
    # Databricks, "LLM Inference Performance Engineering": 7B in 16-bit, TPOT 14 ms, 2 TB/s peak: MBU 50%
    ("databricks-mbu-50", "mbu",
     {"weight_bytes": "14 GB", "kv_cache_bytes": 0, "decode_step_time": "14 ms", "hbm_bw": "2 TB/s",
      "num_devices": 1}, {},
     14e9 / 14e-3 / 2e12, 0.5, 0),
    # Hugging Face Ultra-Scale Playbook: 405B needs 6,480 GB (16 B/param) or 8,100 GB with fp32 gradients
    ("playbook-405b-6480gb", "training_state_bytes", {"params": "405e9"}, {}, 16 * 405e9, 6480e9, 0),
    ("playbook-405b-8100gb", "training_state_bytes", {"params": "405e9"}, {"presets": ["adam-mixed-fp32-grads"]},
     20 * 405e9, 8100e9, 0),
    # FlashAttention-2: "225 TFLOPs/s per A100 GPU (72% model FLOPs utilization)"
    ("flashattention2-72", "mfu", {"achieved_flops_per_device": "225 TFLOP/s"}, {"hw": "a100"},
     225 / 312, 0.72, 0.005),
    # FlashAttention-3: "up to 740 TFLOPs/s (75% utilization)" on H100
    ("flashattention3-75", "mfu", {"achieved_flops_per_device": "740 TFLOP/s"}, {"hw": "h100"},
     740 / 989, 0.75, 0.005),
    # --- hardware datasheets ---------------------------------------------------------------------
    ("a100-ridge-153", "critical_ai", {}, {"hw": "a100-2039"}, 312e12 / 2039e9, 153, 0.005),
    ("h100-ridge-295", "critical_ai", {}, {"hw": "h100"}, 989e12 / 3.35e12, 295, 0.002),
    ("h100-fp8-ridge-591", "critical_ai", {}, {"hw": "h100", "presets": ["fp8"]}, 1979e12 / 3.35e12, 591, 0.001),
    ("b200-ridge-281", "critical_ai", {}, {"hw": "b200"}, 2.25e15 / 8e12, 281, 0.002),
    ("v5e-ridge-240", "critical_ai", {}, {"hw": "tpu-v5e-google"}, 197e12 / 819e9, 240, 0.003),
    # Google Cloud's v6e page: 918 TFLOPs, 1638 GBps (the book-valued preset gives 575)
    ("v6e-ridge-560", "critical_ai", {}, {"hw": "tpu-v6e-google"}, 918e12 / 1638e9, 560, 0.001),
    # Google Cloud's v5p page: 459 TFLOPs, 2765 GBps
    ("v5p-ridge-166", "critical_ai", {}, {"hw": "tpu-v5p-google"}, 459e12 / 2765e9, 166, 0.001),
    # "BF16 peak compute per Pod: 234.9 PFLOPs" for 256 v6e chips
    ("v6e-pod-234.9", "pod_peak_flops", {"num_devices": 256}, {"hw": "tpu-v6e-google"},
     256 * 918e12, 234.9e15, 0.001),
    # TPU v4 (Jouppi et al. 2023): 4,096 chips of 275 TFLOP/s, "1.1 exaflops"
    ("tpu-v4-pod-1.1ef", "pod_peak_flops", {"num_devices": 4096}, {"hw": "tpu-v4"}, 4096 * 275e12, 1.1e18, 0.03),
    # NVLink as datasheets print it, both directions: H100 900 GB/s, A100 600 GB/s; PCIe Gen5 x16 128 GB/s
    ("h100-nvlink-900", "nvlink_gpu_bidi_bw", {}, {"hw": "h100"}, 2 * 450e9, 900e9, 0),
    ("a100-nvlink-600", "nvlink_gpu_bidi_bw", {}, {"hw": "a100"}, 2 * 300e9, 600e9, 0),
    ("h100-pcie-128", "pcie_link_bidi_bw", {}, {"hw": "h100"}, 2 * 64e9, 128e9, 0),
    # DGX H100: "7.2 terabytes per second of bidirectional GPU-to-GPU bandwidth" (8 × 900 GB/s);
    # GB200 NVL72: "130 TB/s" (72 × 1.8 TB/s); both new (node_nvlink_bidi_bw)
    ("dgx-h100-7.2tbs", "node_nvlink_bidi_bw", {}, {"hw": "h100", "presets": ["dgx-h100"]},
     8 * 900e9, 7.2e12, 0),
    ("gb200-nvl72-130tbs", "node_nvlink_bidi_bw", {}, {"hw": "b200", "presets": ["gb200-nvl72"]},
     72 * 1.8e12, 130e12, 0.004),
    # --- Roofline (Williams et al. 2009): Opteron X2, 17.6 GFlops/s, 15 GB/s ---------------------
    ("roofline-x2-ridge", "ridge_point", {"peak_flops": "17.6 GFLOP/s", "hbm_bw": "15 GB/s"}, {},
     17.6 / 15, 17.6 / 15, 0),
    # SpMV at 0.25 Flops/byte is memory-bound: 0.25 × 15 GB/s
    ("roofline-x2-spmv", "attainable_flops",
     {"peak_flops": "17.6 GFLOP/s", "hbm_bw": "15 GB/s", "arithmetic_intensity": 0.25}, {},
     0.25 * 15e9, 3.75e9, 0),
    # --- NCCL tests (PERFORMANCE.md): busbw = algbw × 2(n−1)/n for AllReduce, (n−1)/n for AllGather
    ("nccl-allreduce-busbw", "allreduce_bus_bw", {"alg_bw": "100 GB/s", "axis_size": 8}, {},
     100e9 * 2 * 7 / 8, 175e9, 0),
    ("nccl-allgather-busbw", "allgather_bus_bw", {"alg_bw": "100 GB/s", "axis_size": 8}, {},
     100e9 * 7 / 8, 87.5e9, 0),
    # --- speculative decoding (Leviathan et al. 2023), Corollary 3.9 at γ = 1: (1 + α)/(1 + c)
    ("speculative-gamma-1", "spec_speedup",
     {"spec_accept_rate": 0.8, "spec_draft_tokens": 1, "spec_draft_cost_ratio": 0.1}, {},
     (1 + 0.8) / (1 + 0.1), (1 + 0.8) / (1 + 0.1), 0),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_published_number(case):
    _, target, given, kw, by_hand, published, rel = case
    got = value(target, given, **kw)
    assert got == pytest.approx(by_hand, rel=1e-12)
    assert by_hand == pytest.approx(published, rel=rel, abs=0)


def test_chinchilla_tokens_per_param_is_exact():
    assert solve("tokens_per_param", {"train_tokens": "1.4e12", "params": "70e9"}).value == 20


def test_exact_fractions_where_the_source_is_exact():
    # ZeRO-3 with 64 devices, 7.5B parameters: 16 · 7.5e9 / 64 = 1,875,000,000 B exactly
    assert solve("state_bytes_per_device_zero3", {"params": "7.5e9", "data_parallel": 64}).value == 1875 * 10**6
    # Megatron-LM's 84 days: 8·T·P/(n·X) exactly
    sol = solve("train_time", {"params": "1.008e12", "train_tokens": "450e9", "num_devices": 3072,
                               "achieved_flops_per_device": "163 TFLOP/s", "recompute_fraction": 1})
    assert sol.value == Fraction(8 * 1008 * 10**9 * 450 * 10**9, 3072 * 163 * 10**12)
