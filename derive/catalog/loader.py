"""Load the catalog from ``formulas/``: parse, expand families, check units, index, cache.

The files' grammar is documented in ``formulas/README.md``. Loading is strict:
an unknown field, a missing translation, a name that is not a quantity, or a
relation whose sides' dimensions differ stops the load with a
:class:`CatalogError` naming the file, line and entry.

Loading parses every expression, so it is done once and cached: the compiled
catalog is stored as JSON records (``catalog/records_json.py``; never pickle) in the cache
folder (``storage/cache.py``), keyed by a hash of every source file and of the code that
builds it, and reused while none has changed.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from time import time_ns
from typing import Any, Callable, Sequence

from ..errors import CatalogError
from ..records.catalog import Catalog, LazyTable
from ..records.entries import Condition, Preset, Quantity, Reference, Relation
from ..storage.cache import read_entry, write_entry
from ..storage.files import read_user_file
from ..symbolic import units as _units
from .sources import catalog_sources, default_formulas_dir

__all__ = ["load_catalog"]

# unit strings worth memoising with the cache, so that common inputs never import pint
_COMMON_UNITS = [p + u for u in ("B", "B/s", "FLOP", "FLOP/s", "FLOPS", "FLOPs")
                 for p in ("", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi")] + [
    "s", "ms", "us", "µs", "ns", "ps", "min", "h", "Hz", "kHz", "MHz", "GHz", "FLOP/B", "bit",
    "Gbit/s", "1", "cycle", "cycles", "B/FLOP", "s/B", "FLOP/cycle", "B/cycle"]

CACHE_VERSION = "derive-catalog-19-json"
_BUILD_MODULES = ("catalog/loader.py", "catalog/schema.py", "records/entries.py", "symbolic/expressions.py",
                  "catalog/formula_text.py", "symbolic/dimensions.py", "symbolic/units.py", "catalog/values.py",
                  "storage/yamlio.py", "records/question.py", "catalog/records_json.py", "records/overrides.py")


# ---------------------------------------------------------------------------
# small readers


def _read_files(paths: Sequence[tuple[Path, str, bool]]) -> list[tuple[str, Any, bool]]:
    from ..storage.yamlio import line_of, read_yaml
    from .schema import TOP_FIELDS, unknown_field

    docs = []
    for path, display, overridable in paths:
        data = read_yaml(path, display)
        if not isinstance(data, dict):
            raise CatalogError("a catalog file must be a mapping with sections such as quantities:, "
                               "relations:, presets:", file=display, line=1)
        for key in data:
            if key not in TOP_FIELDS:
                raise CatalogError(unknown_field(key, TOP_FIELDS, what="section", list_allowed=False), file=display,
                                   line=line_of(data[key]))
        docs.append((display, data, overridable))
    return docs


_loaded: dict[str, Catalog] = {}
_ENTRY_TYPES: dict[str, type] = {"quantities": Quantity, "relations": Relation, "conditions": Condition,
                                 "presets": Preset, "references": Reference}


def load_catalog(extra: Sequence[str | os.PathLike] = (), *, formulas_dir: str | os.PathLike | None = None,
                 use_cache: bool = True) -> Catalog:
    """Load the built-in catalog, plus user formula files or folders in ``extra``.

    The result is cached in memory and on disk (see the module docstring).
    """
    fdir = Path(formulas_dir) if formulas_dir else default_formulas_dir()
    memo_key = (str(fdir), tuple(str(e) for e in extra), use_cache)
    signature = _signature(fdir, extra)
    seen = _fresh.get(memo_key)
    if seen is not None and seen[0] == signature and seen[1] in _loaded:
        return _loaded[seen[1]]     # nothing the loader reads has changed since: no file is read again
    key, cat = _load(fdir, extra, use_cache)
    _fresh[memo_key] = (signature, key)
    return cat


def _signature(fdir: Path, extra: Sequence[str | os.PathLike]) -> tuple | None:
    """What the loader reads, by ``stat``: every file's name, size, mtime, ctime and inode. None for an
    installed wheel's own catalog with no user files: it does not change while derive runs, so it is
    not checked again."""
    if not extra and fdir == _packaged_formulas():
        return None
    found: list[tuple[str, tuple[int, ...]]] = []
    for folder in [fdir, *(Path(e) for e in extra)]:
        try:
            if folder.is_dir():
                entries = sorted(os.scandir(folder), key=lambda e: e.name)
                found.extend((e.path, _stamp(e.stat())) for e in entries
                             if e.name.endswith((".yaml", ".txt")))
            else:
                found.append((str(folder), _stamp(folder.stat())))
        except OSError:
            return ("unreadable", time_ns())     # never equal: the full load says what is wrong
    return tuple(found)         # the building code is already imported: an edit to it shows in a new process


def _stamp(st: os.stat_result) -> tuple[int, int, int, int]:
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def _packaged_formulas() -> Path | None:
    """The catalog inside an installed wheel (``derive/formulas``), or None in a source checkout."""
    packaged = Path(__file__).resolve().parent.parent / "formulas"
    return packaged if packaged.is_dir() else None


# a call's folders -> (their stat signature, the content key of the catalog they gave, in _loaded)
_fresh: dict[tuple, tuple[tuple | None, str]] = {}


def _load(fdir: Path, extra: Sequence[str | os.PathLike], use_cache: bool) -> tuple[str, Catalog]:
    """The content key and the catalog from ``fdir`` and ``extra``: in memory or from the disk cache when
    the files' content and the building code are unchanged, else built."""
    units_path, files = catalog_sources(fdir, extra)
    digest = hashlib.sha256(CACHE_VERSION.encode())
    # the code that builds the catalog is part of the key: a changed loader never reads an old cache
    for module in _BUILD_MODULES:
        st = (Path(__file__).parent.parent / module).stat()
        digest.update(f"{module}:{st.st_mtime_ns}:{st.st_size}".encode())
    for path in [units_path] + [p for p, _, _ in files]:
        digest.update(str(path).encode())
        digest.update(read_user_file(path))
    key = digest.hexdigest()
    if key in _loaded:
        return key, _loaded[key]

    def build() -> Catalog:
        from .schema import build_catalog  # only when the cache cannot answer

        units = _units.UnitTable(units_path)
        built = build_catalog(_read_files(files), units)
        units.warm(_COMMON_UNITS)
        if use_cache:
            _to_cache(key, built)
        return built

    cat = _from_cache(key, units_path, build) if use_cache else None
    if cat is None:
        cat = build()
    _loaded[key] = cat
    return key, cat


def _from_cache(key: str, units_path: Path, rebuild: Callable[[], Catalog]) -> Catalog | None:
    """The catalog stored for ``key``, or None; an entry that does not decode is rebuilt, never trusted.

    The entry holds the catalog without its tables (its indexes, aliases, the unit memo) and each
    table entry as its own JSON text, decoded on first use (:class:`~derive.records.entries.LazyTable`); one
    that does not decode then, or decodes as something else, is taken from a catalog built from the
    sources instead (``rebuild``).
    """
    from .records_json import loads

    def parse(payload: bytes) -> tuple[Catalog, dict, dict[str, dict[str, bytes]]] | None:
        """The shell (the first line) and each table entry's JSON, kept as bytes until it is decoded (a line
        ``table<TAB>id<TAB>JSON``)."""
        first, _, rest = payload.partition(b"\n")
        shell, memo = loads(first)
        tables: dict[str, dict[str, bytes]] = {table: {} for table in Catalog.TABLES}
        for line in rest.split(b"\n") if rest else ():
            table, ident, text = line.split(b"\t", 2)
            tables[table.decode("utf-8")][ident.decode("utf-8")] = text
        if not (isinstance(shell, Catalog) and isinstance(memo, dict)):
            return None
        return shell, memo, tables

    data = read_entry("catalog", key, parse)      # a planted or damaged entry reads as None
    if data is None:
        return None
    shell, memo, raw_tables = data
    fresh: list[Catalog] = []

    def decoder(table: str) -> Callable[[str, bytes], Any]:
        kind = _ENTRY_TYPES[table]

        def decode(ident: str, text: bytes) -> Any:
            try:
                entry = loads(text)
                if isinstance(entry, kind) and getattr(entry, "id", None) == ident:
                    return entry
            except (ValueError, TypeError, RecursionError, ZeroDivisionError):
                pass
            # damaged although the whole entry's digest checked out: built again, never trusted
            if not fresh:
                fresh.append(rebuild())
            return getattr(fresh[0], table)[ident]
        return decode

    for table in Catalog.TABLES:
        setattr(shell, table, LazyTable(dict(raw_tables[table]), decoder(table)))
    shell.unit_table = _units.UnitTable(units_path, memo)
    return shell


def _to_cache(key: str, cat: Catalog) -> None:
    from copy import copy

    from .records_json import encode

    shell = copy(cat)
    for table in Catalog.TABLES:
        setattr(shell, table, {})
    try:
        lines = [json.dumps(encode((shell, dict(cat.units.memo))), ensure_ascii=False, separators=(",", ":"))]
        for table in Catalog.TABLES:
            lines.extend(f"{table}\t{ident}\t" + json.dumps(encode(entry, share=False), ensure_ascii=False,
                                                             separators=(",", ":"))
                         for ident, entry in getattr(cat, table).items())
    except TypeError:
        return          # something outside the cache format (a user file's value): build each run
    write_entry("catalog", key, "\n".join(lines), text=True)
