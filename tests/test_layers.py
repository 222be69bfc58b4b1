"""The house rules, checked on the code itself: the package is wings (subpackages) in the order data
flows, each importing only the wings below it; the CLI sits on top; modules import in one
direction; private names stay in their module; and output formats live in one table."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "derive"


def _modules() -> dict[str, Path]:
    mods = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        mods[name] = path
    return mods


MODULES = _modules()
LIBRARY = sorted(m for m in MODULES if not m.startswith("derive.cli") and m != "derive.__main__")


# The layers contract: a wing imports only wings on lower floors (same-floor wings are independent).
FLOORS: dict[str, int] = {
    "errors": 0, "storage": 1, "symbolic": 2, "records": 3, "catalog": 4, "engine": 5,
    "sweep": 6, "writeup": 6, "plot": 7, "sharding": 7, "planning": 7, "documents": 8, "cli": 9,
    "__main__": 10,
}
# the one edge allowed up: a Solution shows itself (to_dict, Jupyter) through the write-ups, deferred
ALLOWED_UP = {("derive.records.display", "derive.writeup.present"), ("derive.records.display", "derive.writeup.render")}


def _wing(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def _imports(name: str, typing_too: bool = False) -> list[tuple[str, list[str], bool]]:
    """(imported module, names taken from it, at module level?) for every relative import of ``name``
    that runs (imports under ``if TYPE_CHECKING:`` are for the type checker only, counted with ``typing_too``)."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    top = {id(n) for n in tree.body}
    typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and getattr(block.test, "id", None) == "TYPE_CHECKING" for n in ast.walk(block)}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level and (typing_too or id(node) not in typing_only):
            base = package[:len(package) - (node.level - 1)] if node.level > 1 else package
            target = ".".join(base + ([node.module] if node.module else []))
            names = [a.name for a in node.names]
            submodules = [f"{target}.{n}" for n in names if f"{target}.{n}" in MODULES]
            for module in submodules or [target]:
                out.append((module, [] if submodules else names, id(node) in top))
    return out


@pytest.mark.parametrize("module", LIBRARY)
def test_no_library_module_loads_the_cli(module):
    """Library modules never import argparse or derive.cli: the CLI is a layer on top."""
    code = f"import sys, {module}; print('argparse' in sys.modules, any(m.startswith('derive.cli') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.split() == ["False", "False"], module


def test_the_cli_imports_only_the_command_being_run():
    code = ("import sys; from derive.cli import main\n"
            "try:\n    main(['list', '--kind', 'hw', '--format', 'json'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('derive.cli.') and not m.startswith('derive.cli._')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip().splitlines()[-1] == "['derive.cli.list']"


def _graph(skip: frozenset[str] = frozenset(), typing_too: bool = False) -> dict[str, set[str]]:
    return {m: {t for t, _, _ in _imports(m, typing_too) if t in MODULES and t != m and not t.startswith(f"{m}.")}
            for m in MODULES if m not in skip}


def test_the_package_is_a_few_wings_and_every_module_is_in_one():
    """At most 13 rooms at the top of derive/; every wing is on a floor of the contract, and its
    __init__ is a docstring only (no re-exports: importing a wing loads nothing)."""
    top = sorted(p.name for p in PACKAGE.iterdir() if not p.name.startswith((".", "__"))   # the package's own
                 and (p.suffix == ".py" or (p / "__init__.py").is_file()))          # modules and wings
    # __init__ (the public verbs) and __main__ (python -m derive) are the building, not rooms in it
    assert len(top) <= 13, top
    for path in PACKAGE.iterdir():
        if path.is_dir() and (path / "__init__.py").is_file():
            assert path.name in FLOORS, f"{path.name} is not on a floor of the layers contract"
            tree = ast.parse((path / "__init__.py").read_text(encoding="utf-8"))
            if path.name != "cli":          # the command's entry point is re-exported for [project.scripts]
                assert len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr), path.name
            assert ast.get_docstring(tree), f"{path.name}/__init__.py says what the wing does"
    for module in MODULES:
        if module not in ("derive",):
            assert _wing(module) in FLOORS, module


def test_every_wing_imports_only_wings_below_it():
    """The layers contract: every import (deferred and type-only ones included) goes down a floor,
    except the display mixin's one deferred edge."""
    up = []
    for module in MODULES:
        for target, _, _ in _imports(module, typing_too=True):
            wing, other = _wing(module), _wing(target)
            if wing and other and wing != other and FLOORS[other] >= FLOORS[wing] \
                    and (module, target) not in ALLOWED_UP:
                up.append(f"{module} -> {target}")
    assert not up, up


def test_no_circle_inside_a_wing():
    """Inside a wing, imports (type-only ones included) never close a circle."""
    graph = _graph(typing_too=True)
    for module, targets in graph.items():
        graph[module] = {t for t in targets if _wing(t) == _wing(module)}
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_import_circle_among_modules():
    """Every import, deferred ones included, points one way. The one edge allowed back from the engine
    to the write-ups is ``derive.records.display`` (Solution's to_dict and Jupyter displays), deferred."""
    graph = _graph()
    graph["derive.records.display"] = set()
    graph["derive"] = set()            # the package's lazy __getattr__ re-exports the public verbs
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_private_names_stay_in_their_module():
    """A name starting with _ is private to its module; private modules share only public names."""
    crossing = []
    for module in MODULES:
        for target, names, _ in _imports(module):
            for n in names:
                if n.startswith("_") and not n.startswith("__"):
                    crossing.append(f"{module} imports {target}.{n}")
    assert not crossing, crossing


def test_output_formats_come_from_one_table():
    """The CLI's --format choices, the report formats and render's solution formats are views of
    derive.writeup.formats.FORMATS, and every template a format names exists."""
    from derive.cli._main import build_parser
    from derive.documents.report import ALL_FORMATS, REPORT_FORMATS
    from derive.storage.resources import builtin_dir
    from derive.writeup.formats import FORMATS, MARKUPS
    from derive.writeup.render import FORMATS as SOLUTION_FORMATS

    templates = builtin_dir("templates")
    for fmt in FORMATS.values():
        for name in (fmt.solution, fmt.report):
            if name:
                assert (templates / name).is_file(), name
        assert fmt.markup is None or fmt.markup in MARKUPS
    assert SOLUTION_FORMATS == {f.name: f.solution for f in FORMATS.values() if f.solution}
    assert set(REPORT_FORMATS) | {"pdf"} == set(ALL_FORMATS) == {f.name for f in FORMATS.values()
                                                                  if f.report or f.compiled_from}
    solve = build_parser("solve")._subparsers._group_actions[0].choices["solve"]
    choices = next(a.choices for a in solve._actions if a.dest == "format")
    assert set(choices) == set(FORMATS) - {"latex-fragment"}


def test_a_new_format_is_one_table_entry_and_its_templates(tmp_path, monkeypatch):
    """The contributor's recipe works: an entry in the table and a template, nothing else."""
    from derive import solve
    from derive.writeup.formats import FORMATS, OutputFormat
    from derive.writeup.render import render_solution

    (tmp_path / "solution.rst.j2").write_text("{{ s.target.id }} = {{ s.answer.text }}\n", encoding="utf-8")
    monkeypatch.setitem(FORMATS, "rst", OutputFormat("rst", "text", "solution.rst.j2", help="reStructuredText"))
    out = render_solution(solve("critical_ai", hw="a100"), "rst", templates=tmp_path)
    assert out == "critical_ai_hbm = 156 FLOP/B\n"
