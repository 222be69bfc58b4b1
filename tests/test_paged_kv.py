"""Paged KV cache, prefix caching, chunked prefill and speculative decoding, asked beyond their examples.

Blocks per sequence round up, the blocks that fit and the sequences they hold round down; the memory
for blocks is what the runtime reserve, the activation peak and the weights leave. Every expected value
is worked out here by hand (the arithmetic is in the comment), never copied from derive's answer.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from derive import solve

G = 10**9
# LLaMA-3 8B (published architecture): 8,030,261,248 parameters, 2 B each in bf16 = 16,060,522,496 B;
# KV per token 2 x 32 layers x 8 heads x 128 x 2 B = 131,072 B; a block of 16 tokens 2,097,152 B.
LLAMA3_8B_WEIGHTS = 2 * 8_030_261_248
KV_PER_TOKEN = 2 * 32 * 8 * 128 * 2


def exact(target, given=None, **kw) -> F:
    v = solve(target, given or {}, **kw).value
    return F(int(v.p), int(v.q))


@pytest.mark.parametrize("seq_len, blocks", [
    (4096, 256),    # 4096 / 16 exactly
    (4097, 257),    # one token past a block boundary takes a whole new block
    (1, 1),         # a single token still takes a block
    (0, 0),         # nothing cached, no block
])
def test_blocks_per_sequence_round_up(seq_len, blocks):
    assert exact("kv_blocks_per_seq", {"seq_len": seq_len, "kv_block_size": 16}) == blocks


@pytest.mark.parametrize("seq_len, empty", [
    (4100, 12),     # ceil(4100/16) = 257 blocks = 4112 slots, 12 of them empty
    (4096, 0),      # a whole number of blocks wastes nothing
    (4081, 15),     # 256 blocks = 4096 slots: the most a block of 16 can waste, 15
])
def test_internal_fragmentation_stays_within_one_block(seq_len, empty):
    assert exact("kv_block_waste_tokens", {"seq_len": seq_len, "kv_block_size": 16}) == empty


def test_the_block_size_defaults_to_vllms_16():
    # no kv_block_size given: ceil(100 / 16) = 7 blocks
    assert exact("kv_blocks_per_seq", {"seq_len": 100}) == 7


def test_blocks_of_llama3_8b_on_an_h100_with_the_default_reserve():
    # 80 GB x 0.9 (memory_reserve defaults to 0.1) - 2 GB of activations - 16,060,522,496 B of weights
    # = 53,939,477,504 B; over 2,097,152 B per block = 25,720.35, so 25,720 blocks
    given = {"num_devices": 1, "serving_activation_bytes": "2 GB"}
    assert exact("kv_block_memory", given, hw="h100", model="llama3-8b-arch") == 72 * G - 2 * G - LLAMA3_8B_WEIGHTS
    assert exact("num_kv_blocks", given, hw="h100", model="llama3-8b-arch") == 25720


@pytest.mark.parametrize("seq_len, sequences", [
    (4096, 100),    # 25,720 / 256 blocks = 100.5
    (2048, 200),    # 25,720 / 128 = 200.9
    (8192, 50),     # 25,720 / 512 = 50.2
    (4097, 100),    # 257 blocks each: 25,720 / 257 = 100.08
])
def test_most_concurrent_sequences(seq_len, sequences):
    given = {"num_devices": 1, "serving_activation_bytes": "2 GB", "seq_len": seq_len}
    assert exact("paged_max_seqs", given, hw="h100", model="llama3-8b-arch") == sequences


def test_one_token_blocks_without_reserve_or_activations_agree_with_the_kv_budget():
    # blocks of 1 token, nothing but the weights taken: 80e9 - 16,060,522,496 = 63,939,477,504 B;
    # / (131,072 B x 4096) = 119.09 caches of 4096 tokens, the same count as kv_max_batch
    given = {"num_devices": 1, "seq_len": 4096}
    paged = {**given, "kv_block_size": 1, "memory_reserve": 0, "serving_activation_bytes": "0 B"}
    assert exact("paged_max_seqs", paged, hw="h100", model="llama3-8b-arch") == 119
    assert exact("kv_max_batch", given, hw="h100", model="llama3-8b-arch") == 119


def test_a_prefix_hit_reloaded_over_the_h100_pcie_link():
    # 0.75 x 4096 tokens x 131,072 B = 402,653,184 B; at 64 GB/s one way: 6.291456 ms
    given = {"prefix_hit_rate": 0.75, "seq_len": 4096, "batch": 1}
    assert exact("prefix_kv_bytes_hit", given, model="llama3-8b-arch") == F(3, 4) * 4096 * KV_PER_TOKEN
    assert exact("prefix_kv_load_time", given, hw="h100", model="llama3-8b-arch") == F(402_653_184, 64 * G)


def test_a_prefix_hit_saves_its_share_of_the_weight_flops():
    # 2 x 8e9 FLOP per token x 1000 tokens = 1.6e13 FLOP; a hit rate of 0.9 saves 1.44e13
    assert exact("prefix_flops_saved", {"prefix_hit_rate": 0.9, "prefill_weight_flops": "1.6e13 FLOP"}) \
        == F(144, 10) * 10**12


@pytest.mark.parametrize("seq_len, chunks", [(4096, 8), (4097, 9), (100, 1)])
def test_prefill_chunks_round_up(seq_len, chunks):
    # chunks of 512 tokens: 4096/512 = 8; one more token needs a ninth; a short prompt is one chunk
    assert exact("prefill_chunks", {"seq_len": seq_len, "prefill_chunk_size": 512}) == chunks


def test_speculative_speedup_with_a_free_draft_is_the_expected_tokens():
    # alpha = 0.8, gamma = 4: (1 - 0.8^5) / 0.2 = (1 - 0.32768) / 0.2 = 3.3616; with c = 0 the speedup is the same
    given = {"spec_accept_rate": 0.8, "spec_draft_tokens": 4}
    assert exact("spec_expected_tokens", given) == F(33616, 10000)
    assert exact("spec_speedup", {**given, "spec_draft_cost_ratio": 0}) == F(33616, 10000)


def test_speculative_speedup_with_a_draft_cost():
    # c = 0.1: 3.3616 / (4 x 0.1 + 1) = 3.3616 / 1.4 = 2.40114...
    given = {"spec_accept_rate": 0.8, "spec_draft_tokens": 4, "spec_draft_cost_ratio": 0.1}
    assert exact("spec_speedup", given) == F(33616, 14000)
