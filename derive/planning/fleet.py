"""A fleet study: the best training layout of every model × hardware × device count, in process or on Dask.

Each combination is one :func:`~derive.planning.search.plan_training` search; its row holds the best
layout, its numbers, ``fits``, how many layouts were evaluated and searched and the refusals by
reason. A combination that cannot be planned (nothing fits, or the question is refused: a TPU preset
has no NVLink) is a row with its one-line reason, never an exception. Combinations run in chunks:
here, or as tasks on a Dask cluster (``scheduler="tcp://host:8786"``, or ``"local:N"`` for a local
cluster of N worker processes for the duration). A task carries plain data only (names, numbers,
text); each worker loads the built-in catalog itself, once per process. Rows come back sorted by
model, hardware and devices, so a study on a cluster equals the same study run here.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, Mapping, Sequence

from ..errors import DeriveError, InputError, NoSolutionError

if TYPE_CHECKING:  # pragma: no cover
    from ..records.catalog import Catalog

__all__ = ["FleetResult", "fleet_study"]

INSTALL_HINT = "pip install 'derive[distributed]'"
Combination = tuple[str, str, int]   # (model preset, hardware preset, devices)


@dataclass
class FleetResult:
    """One row per combination (model, hw, devices), sorted; the counts over the whole study."""

    rows: list[dict[str, Any]]
    given: dict[str, Any] = field(default_factory=dict)
    presets: tuple[str, ...] = ()
    objective: str = "step_time"

    @property
    def combinations(self) -> int:
        return len(self.rows)

    @property
    def planned(self) -> int:
        """Combinations with a best layout."""
        return sum(1 for r in self.rows if r["ok"])

    @property
    def evaluated(self) -> int:
        """Layouts evaluated over the whole study."""
        return sum(int(r["evaluated"]) for r in self.rows)

    @property
    def searched(self) -> int:
        """Layouts considered over the whole study (evaluated, or refused before evaluation)."""
        return sum(int(r["searched"]) for r in self.rows)

    def to_dict(self) -> dict[str, Any]:
        """The study as JSON data: the question, the counts and every row."""
        return {"objective": self.objective, "presets": list(self.presets),
                "given": {k: str(v) for k, v in self.given.items()},
                "combinations": self.combinations, "planned": self.planned,
                "evaluated": self.evaluated, "searched": self.searched, "rows": self.rows}

    def write_csv(self, out: IO[str]) -> None:
        """One line per combination: the layout's axes, its numbers (base units), fits and the reasons."""
        layout_keys = _keys(r["layout"] for r in self.rows)
        number_keys = _keys(r["numbers"] for r in self.rows)
        head = ["model", "hw", "devices", "ok", "reason", "evaluated", "searched"]
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(head + layout_keys + number_keys + ["fits_ok", "fits_need", "fits_have", "refused"])
        for r in self.rows:
            layout, numbers, fits = r["layout"] or {}, r["numbers"] or {}, r["fits"] or {}
            writer.writerow([r["model"], r["hw"], r["devices"], str(r["ok"]).lower(), r["reason"], r["evaluated"],
                             r["searched"], *(_cell(layout.get(k)) for k in layout_keys),
                             *(_cell(numbers.get(k)) for k in number_keys),
                             _cell(fits.get("ok")), _cell(fits.get("need")), _cell(fits.get("have")),
                             "; ".join(f"{why}: {n}" for why, n in r["refused"].items())])


def _keys(dicts: Any) -> list[str]:
    """The keys of the dicts that are there, in the order first seen."""
    seen: dict[str, None] = {}
    for d in dicts:
        for k in d or ():
            seen.setdefault(k, None)
    return list(seen)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:.17g}"
    return str(value)


def fleet_study(models: Sequence[str], hws: Sequence[str], device_counts: Sequence[int], given: Mapping[str, Any],
                *, presets: Sequence[str] = (), objective: str = "step_time", scheduler: str | None = None,
                chunk_size: int | None = None, catalog: "Catalog | None" = None) -> FleetResult:
    """The best training layout of every (model, hw, devices) combination, ``given`` shared by all of them
    (``batch_tokens``, ``seq_len``, ... as :func:`derive.plan_training` takes them; not ``num_devices``).

    ``scheduler`` is None (here), a Dask scheduler's address (``tcp://host:8786``) or ``local:N``;
    ``chunk_size`` is the combinations per task (1 by default). A catalog of your own runs here only."""
    from .search import TRAIN_OBJECTIVES

    if objective not in TRAIN_OBJECTIVES:
        raise InputError(f"the objective of a fleet study is one of {', '.join(TRAIN_OBJECTIVES)}, not {objective!r}")
    if chunk_size is not None and (isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1):
        raise InputError(f"chunk_size is the combinations per task, a positive whole number, not {chunk_size!r}")
    plain = {str(k): v for k, v in given.items()}
    combos = _combinations(models, hws, device_counts)
    _check(combos, plain, tuple(presets), catalog)
    size = chunk_size or 1
    chunks = [combos[i:i + size] for i in range(0, len(combos), size)]
    if scheduler is None:
        parts = [_run_chunk(chunk, plain, tuple(presets), objective, catalog) for chunk in chunks]
    else:
        if catalog is not None and catalog is not _builtin():
            raise InputError("a fleet study on Dask loads the built-in catalog on each worker; "
                             "a catalog of your own (--formulas) runs in process only (no scheduler)")
        parts = _on_dask(scheduler, chunks, plain, tuple(presets), objective)
    rows = sorted((row for part in parts for row in part), key=lambda r: (r["model"], r["hw"], r["devices"]))
    return FleetResult(rows, plain, tuple(presets), objective)


def _combinations(models: Sequence[str], hws: Sequence[str], device_counts: Sequence[int]) -> list[Combination]:
    for what, names in (("model", models), ("hw", hws)):
        if isinstance(names, str) or not names or not all(isinstance(n, str) for n in names):
            raise InputError(f"a fleet study takes a list of {what} preset names, not {names!r}")
    counts = list(device_counts)
    bad = [n for n in counts if isinstance(n, bool) or not isinstance(n, int) or n < 1]
    if not counts or bad:
        raise InputError(f"device counts are positive whole numbers, not {bad[0] if bad else counts!r}")
    return sorted({(m, h, n) for m in models for h in hws for n in counts})


def _builtin() -> "Catalog":
    from ..catalog.loader import load_catalog

    return load_catalog()


def _check(combos: list[Combination], given: Mapping[str, Any], presets: tuple[str, ...],
           catalog: "Catalog | None") -> None:
    """Mistakes that concern the whole study (a misspelt name, num_devices in ``given``) are raised once,
    here, not recorded in every row."""
    cat = catalog if catalog is not None else _builtin()
    for key in given:
        if cat.quantity(key).id == "num_devices":
            raise InputError("num_devices is the study's own axis: give device counts, not num_devices in given")
    for model in sorted({c[0] for c in combos}):
        cat.preset(model, "model")
    for hw in sorted({c[1] for c in combos}):
        cat.preset(hw, "hw")
    for p in presets:
        cat.preset(p, "setup")


def _run_chunk(combos: Sequence[Combination], given: Mapping[str, Any], presets: tuple[str, ...], objective: str,
               catalog: "Catalog | None" = None) -> list[dict[str, Any]]:
    """The rows of a chunk of combinations: the task a Dask worker runs (plain data in, plain data out)."""
    return [_plan_row(model, hw, int(devices), given, presets, objective, catalog) for model, hw, devices in combos]


def _plan_row(model: str, hw: str, devices: int, given: Mapping[str, Any], presets: tuple[str, ...], objective: str,
              catalog: "Catalog | None") -> dict[str, Any]:
    from .search import plan_training

    row: dict[str, Any] = {"model": model, "hw": hw, "devices": devices, "ok": False, "reason": "",
                           "layout": None, "numbers": None, "fits": None, "evaluated": 0, "searched": 0,
                           "refused": {}}
    try:
        plan = plan_training({**given, "num_devices": devices}, hw=hw, model=model, presets=presets,
                             objective=objective, catalog=catalog)
    except DeriveError as exc:
        row["reason"] = _one_line(exc)
        return row
    row.update(evaluated=plan.evaluated, searched=plan.searched,
               refused={why: int(n) for why, n in plan.refused.most_common()})
    try:
        best = plan.best
    except NoSolutionError as exc:
        row["reason"] = _one_line(exc)
        return row
    numbers = {k: (v if math.isfinite(v) else None) for k, v in plan.numbers(best).items()}
    row.update(ok=True, layout=plan.layout(best), numbers=numbers, fits=plan.fits(best))
    return row


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def _on_dask(scheduler: str, chunks: list[list[Combination]], given: dict[str, Any], presets: tuple[str, ...],
             objective: str) -> list[list[dict[str, Any]]]:
    """Every chunk as a task on the cluster at ``scheduler`` (or on a local one, ``local:N``); the rows of each."""
    try:
        from dask.distributed import Client, LocalCluster
        from distributed.comm.addressing import parse_address, parse_host_port
    except ImportError:
        raise InputError(f"a fleet study on a Dask cluster needs dask: {INSTALL_HINT}") from None

    def run(client: Any) -> list[list[dict[str, Any]]]:
        futures = client.map(_run_chunk, chunks, given=given, presets=presets, objective=objective, pure=False)
        return list(client.gather(futures))

    if scheduler.startswith("local:"):
        text = scheduler.partition(":")[2]
        if not text.isdigit() or int(text) < 1:
            raise InputError(f"scheduler local:N starts N local worker processes; N is a positive number, not {text!r}")
        # no dashboard; the scheduler's HTTP server on a free port (not 8787, which another may hold)
        with LocalCluster(n_workers=int(text), threads_per_worker=1, processes=True, dashboard_address=None,
                          scheduler_kwargs={"dashboard_address": ":0"}) as cluster, \
                Client(cluster, set_as_default=False) as client:
            return run(client)
    try:
        scheme, where = parse_address(scheduler)   # checked first: Dask's client half-made on a bad address
        if scheme in ("tcp", "tls"):                # lingers and fails again when Python exits
            parse_host_port(where)
        client = Client(scheduler, set_as_default=False)
    except (OSError, ValueError) as exc:   # not an address, refused or timed out
        raise InputError(f"cannot reach the Dask scheduler at {scheduler} (tcp://HOST:PORT, or local:N for "
                         f"worker processes here): {_one_line(exc)}") from None
    with client:
        return run(client)
