"""The ``derive`` command line: a thin layer over the library, one module per subcommand.

Every user mistake ends as one line on stderr, ``derive: error: ...``, and exit status 2;
an unexpected internal error is exit 1 with a hint to rerun with ``--debug``. Library
modules never import this package; only the module of the command being run is imported.

To add a subcommand NAME:

1. write ``derive/cli/NAME.py`` with ``HELP`` (one line), ``configure(parser)`` and ``run(args) -> int``;
2. add ``"NAME"`` to ``COMMANDS`` in ``derive/cli/_main.py``.
"""

from __future__ import annotations

from ._main import COMMANDS, main, run_command

__all__ = ["COMMANDS", "main", "run_command"]
