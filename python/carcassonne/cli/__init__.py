"""Command line: ``carcassonne SUBCOMMAND ...`` (also ``python -m carcassonne``).

Each subcommand lives in its own module and registers itself through ``add_parser``. Exit
status: 0 done; 2 with one clear line on stderr for bad input or output that cannot be
written (never a traceback); 130 after Ctrl-C; 141 (as if killed by SIGPIPE) and nothing on
stderr when the reader of standard output goes away (``carcassonne replay ... | head``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from carcassonne import __version__, table_page
from carcassonne.cli import report, rules, study, train, view
from carcassonne.cli.common import CliError, Parser
from carcassonne.studies.plan import StudyError

# Modules that contribute subcommands, one per command family: each has
# add_parser(subparsers) -> None and sets `func` on its parser.
SUBCOMMAND_MODULES = (study, report, view, train, rules, table_page)

__all__ = ["SUBCOMMAND_MODULES", "build_parser", "main"]


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so that exiting flushes nothing into a closed pipe
    or a full disk (which Python would report as an ignored exception)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="carcassonne",
        description="Fast, rules-faithful Carcassonne engine: simulations and tools.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in SUBCOMMAND_MODULES:
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        code = func(args)
        sys.stdout.flush()  # here, where a closed pipe or a full disk can still be reported
        return code
    except (CliError, StudyError) as e:
        print(f"carcassonne: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("carcassonne: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()  # the reader has what it wanted: end quietly
        return 141
    except OSError as e:
        _quiet_stdout()
        what = f"{e.filename}: {e.strerror}" if e.filename else (e.strerror or str(e))
        print(f"carcassonne: error: {what}", file=sys.stderr)
        return 2
