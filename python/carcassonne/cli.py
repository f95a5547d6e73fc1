"""Command line: ``carcassonne SUBCOMMAND ...`` (also ``python -m carcassonne``).

Each subcommand lives in its own module and registers itself through ``add_parser``; bad
input ends with one clear line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from carcassonne.rules import Rules

# Modules that contribute subcommands: each has add_parser(subparsers) -> None and sets
# `func` on its parser.
SUBCOMMAND_MODULES = ("carcassonne.study", "carcassonne.report", "carcassonne.view")


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


def parse_rule_options(items: Sequence[str] | None) -> Rules:
    """``["river=off", "small_city=on", "river_start=discard"]`` -> Rules (``tiles=CAP:3;MON:2``
    or ``tiles=@FILE`` for tile counts, ``max_fortune_tellers=1`` for a number)."""
    options: dict[str, object] = {}
    for item in items or ():
        if "=" not in item:
            raise CliError(f"rule option {item!r} must look like NAME=VALUE (e.g. river=off)")
        name, value = item.split("=", 1)
        name = name.strip().replace("-", "_")
        v = value.strip().lower()
        allowed = Rules.options().get(name, ())
        if None in allowed and v in ("off", "none", "no", "false"):
            options[name] = None  # an edition option switched off
            continue
        if str in allowed:  # tile counts: ID:N,... or @FILE
            options[name] = value.strip()
            continue
        if allowed and all(type(a) is int for a in allowed):
            try:
                options[name] = int(v)
            except ValueError:
                raise CliError(f"rule option {name}={value!r} must be a whole number") from None
            continue
        options[name] = {
            "on": True,
            "true": True,
            "yes": True,
            "1": True,
            "off": False,
            "false": False,
            "no": False,
            "0": False,
        }.get(v, value)
    try:
        return Rules(**options)
    except ValueError as e:
        raise CliError(str(e)) from None


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
    try:
        return func(args)
    except CliError as e:
        print(f"carcassonne: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("carcassonne: interrupted", file=sys.stderr)
        return 130
