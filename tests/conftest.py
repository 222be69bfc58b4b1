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


def pytest_report_header(config) -> list[str]:
    """The versions this run resolved (a fresh machine gets the newest wheels) and whether PyYAML
    has libyaml: what a failure on another machine is compared against."""
    from importlib.metadata import PackageNotFoundError, version

    names = ("sympy", "mpmath", "numpy", "jinja2", "pint", "pyyaml", "latex2mathml", "matplotlib", "hypothesis",
             "markdown-it-py")
    found = []
    for name in names:
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            found.append(f"{name} (absent)")
    import yaml

    return ["derive dependencies: " + ", ".join(found), f"PyYAML with libyaml: {yaml.__with_libyaml__}"]

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


def derive_command() -> list[str]:
    """How a user runs derive: the ``derive`` script pip installed beside this Python.

    The script imports the installed package (the wheel in CI's smoke run, the checkout in an
    editable install), never a ``derive/`` folder that happens to be in the working directory.
    """
    script = Path(sys.executable).with_name("derive.exe" if os.name == "nt" else "derive")
    return [str(script)] if script.exists() else [sys.executable, "-m", "derive"]


def run_cli(*args: str, timeout: float = 120, cwd: Path | None = None, env: dict | None = None) -> Run:
    """Run ``derive ARGS`` as a real process (in the repository unless ``cwd`` is given)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    proc = subprocess.run([*derive_command(), *args], capture_output=True, text=True,
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


def write_report(request, lines: list[str]) -> None:
    """Print a test module's summary lines (what a fuzz or property run saw) after its tests, uncaptured."""
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.getplugin("capturemanager")
    if reporter is not None and lines:
        with capture.global_and_fixture_disabled():
            reporter.write_line("")
            for line in lines:
                reporter.write_line(line)
