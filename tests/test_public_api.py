"""The public surface is small, complete and sorted; importing it does no heavy work."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import derive
from derive import errors as _errors

ROOT = Path(__file__).resolve().parent.parent


def test_all_is_sorted_and_complete():
    assert derive.__all__ == sorted(derive.__all__)
    for name in derive.__all__:
        assert getattr(derive, name) is not None
    errors = {n for n in dir(_errors) if n.endswith("Error")}
    assert errors <= set(derive.__all__)


def test_every_error_is_a_derive_error_and_a_builtin():
    for name in _errors.__all__:
        cls = getattr(_errors, name)
        assert issubclass(cls, derive.DeriveError)
        if cls is not derive.DeriveError:
            assert len(cls.__mro__) > 3, name   # also subclasses a built-in exception


def test_import_does_not_load_sympy_or_parse_anything():
    code = "import sys, derive; print('sympy' in sys.modules, 'yaml' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    fences = [i for i, line in enumerate(readme[:10]) if line.startswith("```")]
    setup_cmd, test_cmd = readme[fences[0] + 1], readme[fences[0] + 2]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test_cmd in ci
    assert "pytest" in test_cmd and "derive" in setup_cmd
