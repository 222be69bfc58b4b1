"""Which files a catalog is read from: the formulas folder's unit definitions and YAML files, then a
user's own. Light (no SymPy, no YAML): the loader and the answer store's key both list files here."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from ..errors import CatalogError

__all__ = ["catalog_sources", "default_formulas_dir"]


def default_formulas_dir() -> Path:
    env = os.environ.get("DERIVE_FORMULAS")
    if env:
        return Path(env)
    from ..storage.resources import builtin_dir

    return builtin_dir("formulas")


def catalog_sources(formulas_dir: Path, extra: Iterable[str | os.PathLike] = ()
                    ) -> tuple[Path, list[tuple[Path, str, bool]]]:
    """The files a catalog is read from: the unit definitions, then each YAML file (path, name shown in
    errors, whether it may override a built-in entry). The one list the loader and the answer store's
    key both use."""
    units = formulas_dir / "units.txt"
    if not units.is_file():
        raise CatalogError(f"no unit definitions at {units}; set DERIVE_FORMULAS to the formulas folder")
    files: list[tuple[Path, str, bool]] = []
    root = formulas_dir.parent
    for p in sorted(formulas_dir.glob("*.yaml")):
        files.append((p, _display(p, root), False))
    for item in extra:
        path = Path(item)
        if path.is_dir():
            found = sorted(path.glob("*.yaml"))
            if not found:
                raise CatalogError("no .yaml files in this folder", file=str(path))
            files.extend((p, str(p), True) for p in found)
        elif path.exists():
            files.append((path, str(path), True))       # read_user_file refuses a FIFO or a device
        else:
            raise CatalogError("no such file or folder", file=str(path))
    return units, files


def _display(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)
