"""Where derive keeps what it computes once and reuses between runs (the compiled catalog, messages).

``$DERIVE_CACHE_DIR`` names the folder (``off`` turns caching off); the default is
``$XDG_CACHE_HOME/derive`` or ``~/.cache/derive``.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_dir"]


def cache_dir() -> Path | None:
    """The cache folder, or None when caching is off."""
    env = os.environ.get("DERIVE_CACHE_DIR")
    if env == "off":
        return None
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "derive"
