"""What the subcommands share: the user error, rule options from ``NAME=VALUE`` texts, the
options of every study command, output files that must not be replaced by accident (nor
replace an input), and the executor that ``--scheduler`` names."""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

from carcassonne.errors import QUOTE_LIMIT, quote
from carcassonne.rules import Rules, is_allowed, option_value, option_words
from carcassonne.studies.batch import MAX_THREADS


class CliError(Exception):
    """A user error: printed as one line, exit status 2."""


class Parser(argparse.ArgumentParser):
    """The parser of every command: a usage error (``-n abc``, an unknown option) is one line
    and exit status 2 like every other user error, where argparse would print the usage
    first; ``--help`` still shows it."""

    def error(self, message: str) -> NoReturn:
        if len(message) > 3 * QUOTE_LIMIT:  # argparse quotes the argument whole
            message = f"{message[: 3 * QUOTE_LIMIT - 15]}... ({len(message):,} chars)"
        self.exit(2, f"carcassonne: error: {message} (see '{self.prog} --help')\n")


def path_arg(text: str) -> str:
    """The ``type`` of an option naming a file or folder to write or read: an empty path
    (``--out "$UNSET"``) is refused, where it read as no option given and the output was
    silently not written."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path names no file")
    return text


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
        if name in options:
            raise CliError(f"rule option {quote(name)} is given twice: give each option once")
        try:
            options[name] = option_value(name, value)
        except ValueError:  # not a whole number
            options[name] = value
        if name in Rules.options() and not is_allowed(name, options[name]):
            raise CliError(
                f"rule option {name}: {quote(value.strip())} is not one of "
                f"{', '.join(option_words(name))}"
            )
    try:
        return Rules(**options)
    except ValueError as e:
        raise CliError(str(e)) from None


def check_run_options(args: argparse.Namespace) -> None:
    """The limits every study command shares: games, seed, threads, workers and the cluster's
    connect timeout (one message each, the same in every command)."""
    if not 1 <= args.games <= 2**40:
        raise CliError(f"--games must be from 1 to 2**40, got {args.games}")
    if not 0 <= args.seed < 2**64:
        raise CliError(f"--seed must be from 0 to 2**64-1, got {args.seed}")
    if not 0 <= args.threads <= MAX_THREADS:
        raise CliError(f"--threads must be from 0 (all cores) to {MAX_THREADS}, got {args.threads}")
    if args.workers is not None and args.workers < 1:
        raise CliError(f"--workers must be at least 1, got {args.workers}")
    if args.workers is not None and args.scheduler != "local":
        raise CliError("--workers is the number of worker processes of --scheduler local")
    if args.connect_timeout <= 0:
        raise CliError(f"--connect-timeout must be positive, got {args.connect_timeout}")


def check_new_file(
    path: str | None, overwrite: bool, option: str = "--out", inputs: Sequence[str] = ()
) -> None:
    """Refuse to replace an existing non-empty file unless ``--overwrite`` was given (an
    empty file, or a device such as /dev/null, loses nothing), and never one of ``inputs``
    (the files the command reads), with or without ``--overwrite``."""
    if not path or path == "-":
        return
    for given in inputs:
        if os.path.realpath(given) == os.path.realpath(path):
            raise CliError(f"{option} {path} is the file this command reads: give another")
    if overwrite:
        return
    try:
        if os.path.isfile(path) and os.path.getsize(path) > 0:
            raise CliError(f"{option} {path} already exists: give --overwrite to replace it")
    except OSError:
        return  # unreadable: opening it for writing will say what is wrong


def write_file(path: str, data: str | bytes) -> None:
    """Write a whole output file, or nothing: to a hidden ``.NAME.PID.partial`` beside it,
    renamed over ``path`` once complete (a full disk or a kill leaves no partial file; a
    device such as /dev/null is written directly). One-line ``CliError`` on failure."""
    mode = "wb" if isinstance(data, bytes) else "w"
    kw = {} if isinstance(data, bytes) else {"encoding": "utf-8"}
    target = Path(path)
    if target.exists() and not target.is_file():
        try:
            with open(target, mode, **kw) as f:
                f.write(data)
        except OSError as e:
            raise CliError(f"cannot write {path}: {e.strerror or e}") from None
        return
    tmp = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        with open(tmp, mode, **kw) as f:
            f.write(data)
        os.replace(tmp, target)
    except OSError as e:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise CliError(f"cannot write {path}: {e.strerror or e}") from None


def add_overwrite(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--overwrite", action="store_true", help="replace output files that already exist"
    )


def once(items: Sequence[str] | None, where: str = "rule option") -> list[str]:
    """``items`` (``NAME=VALUE``), refused when one option is named twice: two values for one
    option in one list is a slip, not an override (a variant's own options do override the
    common ``-o`` ones)."""
    seen: set[str] = set()
    for item in items or ():
        key = item.partition("=")[0].strip().replace("-", "_")
        if key in seen:
            raise CliError(f"{where} {quote(key)} is given twice: give each option once")
        seen.add(key)
    return list(items or ())


def parse_rules(items: list[str] | None) -> Rules:
    """``-o NAME=VALUE`` items -> Rules, as :func:`parse_rule_options`, and
    ``off`` (or ``none``) also switches off an option whose "off" value is None (an
    expansion with editions, like ``traders_builders``)."""
    last: dict[str, str | None] = {}  # option -> its last item (None: switched off)
    options = Rules.options()
    for i, item in enumerate(items or ()):
        name, _, value = item.partition("=")
        key = name.strip().replace("-", "_")
        off = key in options and None in options[key] and option_value(key, value) is None
        last.pop(key, None)  # later items win
        last[key if key in options else f"{key}#{i}"] = None if off else item
    rules = parse_rule_options([item for item in last.values() if item is not None])
    nones = {k: None for k, item in last.items() if item is None}
    return rules.replace(**nones) if nones else rules


def rule_help() -> str:
    """The help text of ``-o NAME=VALUE``: every rule option and its values (from the engine's
    option table); ``carcassonne rules`` adds defaults and docs."""
    return (
        "rule option, repeatable; "
        + "; ".join(f"{k}={'|'.join(option_words(k))}" for k in Rules.options())
        + " ('carcassonne rules' lists each option's default and meaning)"
    )


@contextlib.contextmanager
def open_executor(args: argparse.Namespace) -> Iterator[tuple[Any, int | None, int]]:
    """The executor that ``--scheduler`` names (Dask, Ray; None: here), as (executor or None,
    tasks in flight, native threads per chunk)."""
    from carcassonne.studies.executors import RayExecutor, SchedulerError, dask_executor

    address = args.scheduler
    try:
        if not address:
            yield None, None, args.threads
        elif address == "ray" or address.startswith("ray:"):
            ray_address = address[4:] or None if address.startswith("ray:") else None
            ex = RayExecutor(ray_address)
            try:
                yield ex, 2 * ex._max_workers, args.threads or 1
            finally:
                ex.shutdown()
        else:
            with dask_executor(address, timeout=args.connect_timeout, workers=args.workers) as (
                ex,
                slots,
            ):
                yield ex, 2 * slots, args.threads or 1
    except SchedulerError as e:
        raise CliError(str(e)) from None
