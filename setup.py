"""The wheel's build step that pyproject.toml cannot say: the built-in templates compiled by Jinja.

Jinja compiles a template to Python before it renders it (about 50 ms for ``solution.txt.j2``, a
tenth of a first ``derive solve``). A wheel ships that code for every built-in template, made here
by the installed Jinja (:func:`derive.writeup.precompile.generate`) into the built package's
``derive/_compiled_templates``; git holds none of it. A source checkout or an editable install
compiles the templates as it renders them, as before.
"""

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class build_py_with_compiled_templates(build_py):  # noqa: N801 (setuptools' command naming)
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        built = Path(self.build_lib)
        sys.path.insert(0, str(built))
        try:
            from derive.writeup.precompile import generate
            from derive.writeup.render import environment_for

            folder = built / "derive" / "_compiled_templates"
            folder.mkdir(exist_ok=True)
            for name, text in generate(environment_for).items():
                (folder / name).write_text(text, encoding="utf-8")
        finally:
            sys.path.remove(str(built))
            for name in [m for m in sys.modules if m == "derive" or m.startswith("derive.")]:
                del sys.modules[name]


setup(cmdclass={"build_py": build_py_with_compiled_templates})
