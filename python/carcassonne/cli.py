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

from carcassonne.errors import quote
from carcassonne.rules import Rules, option_value

# Modules that contribute subcommands: each has add_parser(subparsers) -> None and sets
# `func` on its parser.
SUBCOMMAND_MODULES = (
    "carcassonne.study",
    "carcassonne.balance_cli",
    "carcassonne.report",
    "carcassonne.view",
)


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


def parse_rule_options(items: Sequence[str] | None) -> Rules:
    """``["river=off", "small_city=on", "river_start=discard"]`` -> Rules (``tiles=CAP:3;MON:2``
    or ``tiles=@FILE`` for tile counts, ``max_fortune_tellers=1`` for a number); each value is
    read by :func:`carcassonne.rules.option_value`."""
    options: dict[str, object] = {}
    for item in items or ():
        if "=" not in item:
            raise CliError(f"rule option {quote(item)} must look like NAME=VALUE (e.g. river=off)")
        name, value = item.split("=", 1)
        name = name.strip().replace("-", "_")
        try:
            options[name] = option_value(name, value)
        except ValueError as e:
            raise CliError(str(e)) from None
    try:
        return Rules(**options)
    except ValueError as e:
        raise CliError(str(e)) from None


def check_new_file(path: str | None, overwrite: bool, option: str = "--out") -> None:
    """Refuse to replace an existing non-empty file unless ``--overwrite`` was given (an
    empty file, or a device such as /dev/null, loses nothing)."""
    if not path or path == "-" or overwrite:
        return
    try:
        if os.path.isfile(path) and os.path.getsize(path) > 0:
            raise CliError(f"{option} {path} already exists: give --overwrite to replace it")
    except OSError:
        return  # unreadable: opening it for writing will say what is wrong


def add_overwrite(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--overwrite", action="store_true", help="replace output files that already exist"
    )


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so that exiting flushes nothing into a closed pipe
    or a full disk (which Python would report as an ignored exception)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def build_parser() -> argparse.ArgumentParser:
    import importlib

    parser = argparse.ArgumentParser(
        prog="carcassonne",
        description="Fast, rules-faithful Carcassonne engine: simulations and tools.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    from carcassonne.table import TableError

    try:
        code = func(args)
        sys.stdout.flush()  # here, where a closed pipe or a full disk can still be reported
        return code
    except (CliError, TableError) as e:
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
