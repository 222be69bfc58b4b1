"""Built-in templates compiled to Python ahead of time, so a first answer or write-up does not wait for Jinja.

Jinja compiles a template to Python source and then to code; for ``solution.txt.j2`` that takes
about 50 ms, a tenth of a first ``derive solve``, and for the write-ups' shared macros
(``records.solution.j2``) about 200 ms in each markup, a sixth of a one-question PDF. The Python Jinja
makes of every built-in template, in every markup it is rendered in (a markup's own templates and
the macro files they import), is made by the wheel's build (``setup.py`` calls :func:`generate`)
into the built package's ``derive/_compiled_templates``, never kept in git, and is loaded as any
module's code is (from its bytecode once compiled). It is used only when the template the loader
found is byte for byte the one the code was made from (a user's ``--templates`` copy or an edited
file is compiled from its text, as before) and the installed Jinja is the version that made it; a
source checkout, which has no such package, compiles every template. Nothing is read from the
cache folder: the code is part of the installed package, like the rest of derive's code.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import re
from types import CodeType
from typing import Any, Callable

from .formats import MARKUPS

__all__ = ["MODES", "compiled_ahead", "generate"]

MODES = tuple(MARKUPS)      # every markup's built-in templates are compiled ahead
PACKAGE = "derive._compiled_templates"


def _digest(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


def _module_name(mode: str, name: str) -> str:
    return f"{mode}__{re.sub(r'[^0-9A-Za-z]', '_', name)}"


def compiled_ahead(mode: str, name: str, source: str) -> CodeType | None:
    """The code Jinja would compile ``source`` (template ``name``, in ``mode``'s environment) to, when
    it ships with derive for exactly this text and this Jinja; else None (compile it)."""
    if mode not in MODES:
        return None
    from jinja2 import __version__ as jinja_version

    try:
        kept = importlib.import_module(PACKAGE)
    except ModuleNotFoundError:     # a source checkout: nothing was built
        return None
    entry = kept.INDEX.get((mode, name))
    if entry is None or kept.JINJA2 != jinja_version or entry[0] != _digest(source):
        return None
    spec = importlib.util.find_spec(f"{PACKAGE}.{entry[1]}")
    if spec is None or spec.loader is None or not hasattr(spec.loader, "get_code"):
        return None
    return spec.loader.get_code(spec.name)


def _builtin_templates(environment: Any, mode: str) -> list[str]:
    """The built-in templates rendered in ``mode``: its own and every template they import or include (a
    name computed as the template runs, ``"_" ~ output ~ ".j2"``, may be any of the macro files)."""
    from jinja2 import meta

    from ..storage.resources import builtin_dir
    from .formats import markup_of_template

    folder = builtin_dir("templates")
    todo = [p.name for p in folder.glob("*.j2") if not p.name.startswith("_") and markup_of_template(p.name) == mode]
    found: set[str] = set()
    while todo:
        name = todo.pop()
        if name in found or not (folder / name).is_file():
            continue
        found.add(name)
        source = (folder / name).read_text(encoding="utf-8")
        for ref in meta.find_referenced_templates(environment.parse(source)):
            todo.extend([ref] if ref else [p.name for p in folder.glob("_*.j2")])
    return sorted(found)


def generate(environment_for: Callable[[str], Any]) -> dict[str, str]:
    """The files of :mod:`derive._compiled_templates`, by file name, for the built-in templates as they
    are now and the installed Jinja; ``environment_for(mode)`` is :func:`derive.writeup.render.environment_for`.

    The code is compiled as Jinja's own module loader has it (``defer_init``: the environment is
    bound when a template is made from it, so the module also imports on its own)."""
    from jinja2 import __version__ as jinja_version

    files: dict[str, str] = {}
    index: list[str] = []
    modules: dict[str, tuple[str, str, list[str]]] = {}     # code: its module, template and markups
    for mode in MODES:
        env = environment_for(mode)
        for name in _builtin_templates(env, mode):
            source, filename, _ = env.loader.get_source(env, name)
            code = env.compile(source, name, filename, raw=True, defer_init=True)
            # a macro file compiles to the same code in every markup that does not escape HTML: kept once
            module, _name, markups = modules.setdefault(code, (_module_name(mode, name), name, []))
            markups.append(mode)
            index.append(f"    ({mode!r}, {name!r}): ({_digest(source)!r}, {module!r}),")
    for code, (module, name, markups) in modules.items():
        files[f"{module}.py"] = (f'"""{name} ({", ".join(markups)}) compiled by Jinja {jinja_version}; made by '
                                 f'the wheel build (setup.py), do not edit."""\n{code}\n')
    files["__init__.py"] = (
        '"""Built-in templates as Jinja compiles them (see :mod:`derive.writeup.precompile`); made by\n'
        'the wheel build (setup.py), do not edit."""\n\n'
        f"JINJA2 = {jinja_version!r}\n\n"
        "# (markup, template name): (SHA-256 of the template text, module)\n"
        "INDEX: dict[tuple[str, str], tuple[str, str]] = {\n" + "\n".join(index) + "\n}\n")
    return files
