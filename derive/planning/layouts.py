"""The layouts a plan searches, as columns of NumPy arrays, and the structural reasons some are not run.

A training layout is data × tensor × pipeline × context parallel degrees whose product is the
device count, an expert-parallel degree inside the data-parallel group (MoE models), a micro-batch
size, virtual pipeline stages, a ZeRO stage and an activation-recomputation scheme. A serving
layout is a replica's tensor × pipeline degrees, its batch per micro-batch and its precision (a
setup preset: bf16, fp8, w4a16). Layouts that cannot run at all (a degree that does not divide what it splits) are
counted by reason and not evaluated; memory and SLOs are judged later, on evaluated numbers.

Each axis is put on the link it would use, Megatron's order from the inside out: tensor, context,
expert (inside data), data, pipeline. A group of g devices or fewer lies inside one NVLink
domain (``gpus_per_node``) and runs at ``nvlink_gpu_bw``; a larger one crosses nodes and each
device sends through its NIC, ``network_chip_bw``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

__all__ = ["RECOMPUTE", "ZERO", "LayoutTable", "divisors", "serving_layouts", "training_layouts"]

#: ZeRO stage -> the setup preset that holds its shard counts and collective passes
ZERO = {0: "zero-0", 1: "zero-1", 2: "zero-2", 3: "zero-3"}
#: recomputation scheme -> the setup preset that holds its activation factor and recomputed share
RECOMPUTE = {"none": "no-remat", "selective": "megatron-selective", "full": "block-remat"}

# structural reasons a layout is not run, as the plan reports them
NOT_HEADS = "tensor parallelism does not divide the attention heads"
NOT_LAYERS = "pipeline stages do not divide the layers"
NOT_SEQ = "context parallelism does not divide the sequence"
NOT_BATCH = "data parallelism × micro-batch does not divide the global batch"
FEW_MICRO = "fewer micro-batches than pipeline stages"
NOT_EXPERTS = "expert parallelism does not divide the experts and the data-parallel group"
NOT_VIRTUAL = "virtual stages need a pipeline, layers per stage they divide, and micro-batches a multiple of the stages"


def divisors(n: int) -> list[int]:
    """The divisors of ``n`` in increasing order."""
    small = [d for d in range(1, int(n ** 0.5) + 1) if n % d == 0]
    return sorted(set(small + [n // d for d in small]))


@dataclass
class LayoutTable:
    """Layouts as columns (one NumPy array per axis, same length) and the count of those refused by reason."""

    columns: dict[str, "np.ndarray"]
    labels: dict[str, list[str]] = field(default_factory=dict)   # axis -> the names its integer codes stand for
    refused: Counter = field(default_factory=Counter)

    @property
    def size(self) -> int:
        return int(next(iter(self.columns.values())).size) if self.columns else 0


def _bw(group: "np.ndarray", per_node: int, nvlink: float, nic: float) -> "np.ndarray":
    import numpy as np

    return np.where(group <= per_node, nvlink, nic)


def training_layouts(*, devices: int, sequences: int, seq_len: int, layers: int, heads: int, experts: int,
                     per_node: int, nvlink: float, nic: float, zero: Sequence[int] = (0, 1, 2, 3),
                     recompute: Sequence[str] = ("none", "selective", "full"),
                     micro_batches: Sequence[int] = (1, 2, 4, 8), virtual: Sequence[int] = (1, 2, 4),
                     max_context: int = 16) -> LayoutTable:
    """Every training layout of ``devices`` devices for a global batch of ``sequences`` sequences."""
    import numpy as np

    refused: Counter = Counter()
    rows: list[tuple[int, ...]] = []
    for t in divisors(devices):
        for p in divisors(devices // t):
            for c in divisors(devices // (t * p)):
                d = devices // (t * p * c)
                if c > max_context:
                    continue
                ways = len(micro_batches) * len(virtual)
                if heads % t:
                    refused[NOT_HEADS] += ways
                    continue
                if layers % p:
                    refused[NOT_LAYERS] += ways
                    continue
                if seq_len % c:
                    refused[NOT_SEQ] += ways
                    continue
                eps = [e for e in divisors(d) if experts and experts % e == 0] if experts else [1]
                if experts and len(divisors(d)) > len(eps):
                    refused[NOT_EXPERTS] += (len(divisors(d)) - len(eps)) * ways
                for e in eps:
                    for b in micro_batches:
                        if sequences % (d * b):
                            refused[NOT_BATCH] += len(virtual)
                            continue
                        m = sequences // (d * b)
                        if p > 1 and m < p:
                            refused[FEW_MICRO] += len(virtual)
                            continue
                        for v in virtual:
                            if v > 1 and (p == 1 or (layers // p) % v or m % p):
                                refused[NOT_VIRTUAL] += 1
                                continue
                            rows.append((d, t, p, c, e, b, m, v))
    for key in refused:
        refused[key] *= len(zero) * len(recompute)
    base = np.array(rows, dtype=np.float64).reshape(-1, 8)
    n = base.shape[0]
    k = len(zero) * len(recompute)
    grid = np.repeat(base, k, axis=0)
    zero_code = np.tile(np.repeat(np.arange(len(zero)), len(recompute)), n)
    recompute_code = np.tile(np.arange(len(recompute)), n * len(zero))
    axes = ("data_parallel", "tensor_parallel", "pp_stages", "context_parallel", "expert_parallel", "micro_batch",
            "pp_microbatches", "pp_virtual_stages")
    columns: dict[str, np.ndarray] = {name: grid[:, i] for i, name in enumerate(axes)}
    dp_, tp_, pp_, cp_, ep_ = (columns[a] for a in axes[:5])
    columns |= {
        "zero_stage": np.asarray(zero, dtype=np.float64)[zero_code],
        "recompute": recompute_code.astype(np.float64),
        "tp_link_bw": _bw(tp_, per_node, nvlink, nic),
        "cp_link_bw": _bw(tp_ * cp_, per_node, nvlink, nic),
        "ep_link_bw": _bw(tp_ * cp_ * ep_, per_node, nvlink, nic),
        "dp_link_bw": _bw(tp_ * cp_ * dp_, per_node, nvlink, nic),
        "pp_link_bw": _bw(tp_ * cp_ * dp_ * pp_, per_node, nvlink, nic),
    }
    return LayoutTable(columns, {"recompute": list(recompute)}, refused)


def serving_layouts(*, layers: int, heads: int,
                    precisions: Sequence[str],
                    tensor: Sequence[int] = (1, 2, 4, 8, 16, 32, 64), stages: Sequence[int] = (1, 2, 4, 8, 16),
                    batches: Sequence[int] = (1, 2, 4, 8, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024)
                    ) -> LayoutTable:
    """Every serving replica: tensor × pipeline degrees, batch per micro-batch and precision (a setup preset)."""
    import numpy as np

    refused: Counter = Counter()
    rows = []
    ways = len(batches) * len(precisions)
    for t in tensor:
        for p in stages:
            if heads % t:
                refused[NOT_HEADS] += ways
                continue
            if layers % p:
                refused[NOT_LAYERS] += ways
                continue
            for w in range(len(precisions)):
                for b in batches:
                    rows.append((t, p, b, w))
    grid = np.array(rows, dtype=np.float64).reshape(-1, 4)
    columns = {name: grid[:, i] for i, name in enumerate(("tensor_parallel", "pp_stages", "batch", "precision"))}
    return LayoutTable(columns, {"precision": list(precisions)}, refused)
