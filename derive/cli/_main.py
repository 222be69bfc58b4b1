"""Build the parser from the command table and run one command; every error is one line.

Only the module of the command being run is imported (all of them for ``--help`` and for
a word that is not a command, so that argparse can list and suggest them).
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from typing import NoReturn, Sequence

from ..errors import DeriveError
from ._options import FLAGS

__all__ = ["COMMANDS", "build_parser", "main", "one_line", "run_command"]

#: every subcommand, in the order ``derive --help`` lists them; each is the module ``derive.cli.<name>``
COMMANDS = ("solve", "list", "show", "check", "report", "render", "sweep", "plot", "shard", "plan")


class _UsageError(DeriveError, ValueError):
    """A malformed command line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2, no usage dump
        raise _UsageError(f"{message} (see '{self.prog} --help')")


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked (reading package metadata takes time)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        from .. import __version__

        print(f"derive {__version__}")
        parser.exit()


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``derive`` parser; with ``only``, just that subcommand is configured (its module imported)."""
    parser = _Parser(prog="derive", description="Symbolic derivations for the performance math of ML accelerators.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMANDS:
        if only is not None and name != only:
            continue
        module = importlib.import_module(f"{__package__}.{name}")
        p = sub.add_parser(name, help=module.HELP, description=getattr(module, "DESCRIPTION", None))
        module.configure(p)
        p.set_defaults(run=module.run)
    return parser


MAX_LINE = 800      # characters of an error line: a huge number or name quoted in it is cut, not printed whole


def one_line(text: str, limit: int = MAX_LINE) -> str:
    """``text`` as one printable line of at most ``limit`` characters: line breaks become spaces, other
    control and format characters (``\\x85``, ``\\u2028``, ANSI escapes, bidi overrides) from user input are
    shown escaped, and a longer message is cut in the middle, saying how much was left out."""
    import unicodedata

    out = []
    for ch in text:
        if ch in "\n\r\t":
            out.append(" ")
        elif unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs"):
            out.append(ascii(ch)[1:-1])
        else:
            out.append(ch)
    line = "".join(out)
    if len(line) > limit:
        cut = len(line) - limit + 40
        head = (limit - 40) * 2 // 3
        line = f"{line[:head]} [... {cut:,} characters ...] {line[head + cut:]}"
    return line


_FIELD = re.compile(r"`([a-z_]+(?:=[a-z]+)?)`")


def spell_for_cli(message: str) -> str:
    """An error message with the library's field names (`require`) spelled as flags (``--require``)."""
    return _FIELD.sub(lambda m: FLAGS.get(m.group(1), m.group(1)), message)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    from ..storage.atomic import sigterm_as_interrupt
    from ..storage.process import process_guards

    # the command owns its process: budgets may use its limits and signals, and SIGTERM at any point
    # of the command (parsing included) ends it as an interrupt, exit 143, after cleanup
    with process_guards(), sigterm_as_interrupt():
        return _main(argv, debug)


def _main(argv: list[str], debug: bool) -> int:
    try:
        word = next((a for a in argv if not a.startswith("-")), None)
        parser = build_parser(word if word in COMMANDS else None)
        # NAME=VALUE inputs may come before or after options: argparse leaves the late ones over
        args, extra = parser.parse_known_args(argv)
        if extra:
            if not hasattr(args, "inputs") or any(x.startswith("-") for x in extra):
                parser.error(f"unrecognized arguments: {' '.join(extra)}")
            args.inputs = list(args.inputs) + extra
        return int(args.run(args) or 0)
    except DeriveError as exc:
        print(f"derive: error: {one_line(spell_for_cli(str(exc)))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:     # Ctrl-C (SIGINT) or SIGTERM: 128 + the signal, as the shell reports it
        import signal

        signum = int(getattr(exc, "signum", signal.SIGINT))
        print(f"derive: interrupted ({signal.Signals(signum).name})", file=sys.stderr)
        return 128 + signum
    except BrokenPipeError:
        return 0
    except Exception as exc:  # an internal error: short message, traceback on request
        if debug:
            raise
        print(f"derive: internal error: {type(exc).__name__}: {one_line(str(exc))} "
              "(rerun with --debug for the traceback)", file=sys.stderr)
        return 1


def run_command(argv: Sequence[str] | None = None) -> NoReturn:
    """The ``derive`` command as the shell runs it (the console script, ``python -m derive``): :func:`main`,
    then the process ends with its status as soon as its output is out.

    A finished command has nothing left to clean up: files are written atomically and closed, the PDF
    builds and their threads have ended, and derive registers no exit function. What is skipped is the
    interpreter's teardown, which frees SymPy's caches, the catalog and every module object by object:
    100 to 150 ms, longer than answering a repeated question. Exit functions that Python or another
    library registered still run, and a thread still running is waited for by a normal exit.
    """
    import atexit
    import os
    import threading

    code = main(argv)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:          # a reader that went away (a closed pipe) wanted nothing more
        pass
    if threading.active_count() > 1:
        sys.exit(code)
    atexit._run_exitfuncs()
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    run_command()
