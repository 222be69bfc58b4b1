"""Where the built-in catalog (``formulas/``) and templates (``templates/``) are.

Both folders sit at the top of the repository, where a tutorial author edits them.
A built wheel carries them inside the package (``derive/formulas``,
``derive/templates``: ``pyproject.toml`` maps them there at build time), and they
are read from there, beside this module: a wheel is installed as files, never
imported zipped, so :mod:`importlib.resources` would only add its imports (zipfile
among them) to every start. In a source checkout (an editable install, or
``python -m derive`` run from the repository) the package has no such folders and
the repository's own are used, so an edit shows at once.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

__all__ = ["builtin_dir"]

BUILTIN = ("formulas", "templates")


@lru_cache(maxsize=None)
def builtin_dir(name: str) -> Path:
    """The folder of built-in ``formulas`` or ``templates``."""
    if name not in BUILTIN:
        raise ValueError(f"no built-in folder {name!r}")
    here = Path(__file__).resolve().parent.parent   # the package folder, derive/
    packaged = here / name
    if packaged.is_dir():
        return packaged                  # an installed wheel: a real folder in site-packages
    return here.parent / name
