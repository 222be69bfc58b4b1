"""Shared fixtures: the catalog, a CLI runner, and the rule that CI must not skip tool tests."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REQUIRE_TOOLS = os.environ.get("DERIVE_REQUIRE_TOOLS") == "1"


@pytest.fixture(scope="session")
def catalog():
    from derive import load_catalog

    return load_catalog()


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def json(self):
        return json.loads(self.out)


def run_cli(*args: str, timeout: float = 120, cwd: Path | None = None, env: dict | None = None) -> Run:
    """Run ``python -m derive ARGS`` as a real process."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    proc = subprocess.run([sys.executable, "-m", "derive", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd or ROOT, env=full_env)
    return Run(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def cli():
    return run_cli


def need_tool(name: str) -> str:
    """The path of an external tool; skip without it, but fail when CI requires tools."""
    path = shutil.which(name)
    if path is None:
        if REQUIRE_TOOLS:
            pytest.fail(f"{name} is required in CI (DERIVE_REQUIRE_TOOLS=1) but is not installed")
        pytest.skip(f"{name} is not installed")
    return path
