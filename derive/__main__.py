"""``python -m derive``: the same as the ``derive`` command."""

from .cli import run_command

run_command()
