"""Simulation studies from the command line: ``carcassonne simulate``, ``compare``, ``record``.

- ``simulate``: play many games (native policies, or Python agents ``module:Class``), show a
  progress bar, print a summary; ``--out`` streams one row per game and seat to Parquet, CSV
  or JSON Lines; ``--records`` keeps every game's record (Python-driven, slower).
- ``compare``: two or more rule variants on the same game seeds, paired differences per seat.
- ``record``: a game of a results table, replayed move by move from its seed (native random
  policy): its record, for ``carcassonne replay`` / ``render`` or ``Game.from_record``.

``--scheduler ADDRESS`` (or ``local``, or ``ray``) runs the chunks on a cluster with the same
results. Ctrl-C stops after the chunk in progress and keeps every finished game (a second
Ctrl-C stops at once); the exit status is then 130.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import json
import os
import signal
import sys
import time
from typing import Any, TextIO

from carcassonne import _core
from carcassonne.command import (
    CliError,
    add_overwrite,
    check_new_file,
    check_run_options,
    open_executor,
    parse_rules,
    rule_help,
)
from carcassonne.errors import quote
from carcassonne.policies import POLICIES
from carcassonne.progress import ProgressLine
from carcassonne.results import Results
from carcassonne.rules import Rules, rules_label
from carcassonne.simulate import compare_chunks, simulate_chunks
from carcassonne.stats import Comparison, Tally, wilson

__all__ = ["Progress", "summary", "wilson", "add_parser"]


class Progress(ProgressLine):
    """A one-line progress bar with rate and time left, fitted to the terminal's width (80
    columns when unknown); see :class:`carcassonne.progress.ProgressLine`."""

    def __init__(
        self, total: int, stream: TextIO | None = None, width: int = 30, every: float = 5.0
    ) -> None:
        super().__init__(stream, every)
        self.total, self.width = total, width
        self.start = time.perf_counter()

    def line(self, done: int) -> str:
        elapsed = time.perf_counter() - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (self.total - done) / rate if rate > 0 else 0.0
        text = (
            f" {done:,}/{self.total:,} games  {rate:,.0f} games/s  "
            f"{_clock(elapsed)} elapsed, {_clock(left)} left"
        )
        room = self.columns - 1 - len(text) - 2  # one column spare: no wrap at the edge
        width = min(self.width, room)
        if width < 5:  # too narrow for a bar (a huge study): the figures alone
            return text.strip()[: self.columns - 1]
        filled = int(width * done / self.total) if self.total else width
        return "[" + "#" * filled + "." * (width - filled) + "]" + text

    def update(self, done: int) -> None:
        self.show(self.line(done), final=done >= self.total)


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def summary(res: Results, elapsed: float, interrupted: bool = False) -> str:
    """A readable summary of a batch (see :meth:`carcassonne.stats.Tally.summary`)."""
    t = Tally(res.players, res.sources)
    t.add_results(res)
    return t.summary(elapsed, interrupted)


# -- Ctrl-C --------------------------------------------------------------------------------


class _StopOnInterrupt:
    """First Ctrl-C: finish the chunk in progress, then stop (``stop`` becomes True).
    Second Ctrl-C: KeyboardInterrupt at once. Outside the main thread: plain behaviour."""

    def __init__(self, quiet: bool) -> None:
        self.stop = False
        self.quiet = quiet
        self._old: Any = None

    def _handler(self, signum: int, frame: Any) -> None:
        if self.stop:
            raise KeyboardInterrupt
        self.stop = True
        if not self.quiet:
            print(
                "\ninterrupted: stopping after the games in progress (Ctrl-C again to stop now)",
                file=sys.stderr,
                flush=True,
            )

    def __enter__(self) -> _StopOnInterrupt:
        try:
            self._old = signal.signal(signal.SIGINT, self._handler)
        except ValueError:  # not the main thread
            self._old = None
        return self

    def __exit__(self, *exc: object) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)


# -- shared options ------------------------------------------------------------------------


def _check_common(args: argparse.Namespace) -> None:
    if not 2 <= args.players <= 6:
        raise CliError(f"--players must be from 2 to 6, got {args.players}")
    check_run_options(args)
    if args.chunk is not None and args.chunk < 1:
        raise CliError(f"--chunk must be at least 1, got {args.chunk}")


def _writer(path: str | None, fmt: str | None, meta: dict[str, Any]) -> Any:
    from carcassonne.table import TableError, TableWriter

    if not path:
        return contextlib.nullcontext(None)
    try:
        return TableWriter(path, fmt, meta=meta)
    except TableError as e:
        raise CliError(str(e)) from None


def _variant_label(rules: Rules) -> str:
    return rules_label(rules, ",")


def _study_meta(args: argparse.Namespace, command: str, variants: dict[str, Rules]) -> dict:
    import carcassonne

    return {
        "format": "carcassonne-study",
        "version": 1,
        "carcassonne": carcassonne.__version__,
        "command": command,
        "games": args.games,
        "players": args.players,
        "seed": args.seed,
        "policy": args.policy,
        "variants": {name: r.to_dict() for name, r in variants.items()},
        "baseline": next(iter(variants)),
    }


# -- simulate ------------------------------------------------------------------------------


def _agents(policy: str, players: int) -> list[Any] | None:
    """None when every seat is native; else one agent per listed seat. A list of seats must
    have one policy per seat (one policy alone plays every seat)."""
    items = [p.strip() for p in policy.split(",")]
    if not items or any(not p for p in items):
        raise CliError(f"bad --policy {policy!r}: give one policy, or one per seat with commas")
    if len(items) not in (1, players):
        raise CliError(
            f"--policy lists {len(items)} policies for {players} players: give one policy for "
            "every seat, or exactly one per seat"
        )
    native = {}
    for item in items:
        try:
            native[item] = _core.policy_seats(item)[0]
        except ValueError as e:
            if ":" not in item or item.split(":", 1)[0] in POLICIES:
                raise CliError(
                    f"{e}; or a Python agent as module:Class or path/to/file.py:Class"
                ) from None
    if len(native) == len(set(items)):
        return None
    from carcassonne.agents import native_agent

    return [native_agent(native[i]) if i in native else _load_agent(i) for i in items]


def _load_agent(spec: str) -> Any:
    module, _, name = spec.rpartition(":")
    try:
        if module.endswith(".py") or os.sep in module or "/" in module:
            path = os.path.abspath(module)
            if not os.path.isfile(path):
                raise ImportError(f"no file {module!r}")
            found = importlib.util.spec_from_file_location(
                os.path.splitext(os.path.basename(path))[0], path
            )
            if found is None or found.loader is None:
                raise ImportError(f"cannot load {module!r} as Python code")
            mod = importlib.util.module_from_spec(found)
            found.loader.exec_module(mod)
        else:
            mod = importlib.import_module(module)
        cls = getattr(mod, name)
    except ImportError as e:
        raise CliError(
            f"cannot load agent {spec!r}: {e} (a module:Class agent's module must be "
            "importable: installed or on PYTHONPATH; or give its "
            "file, e.g. ./my_agents.py:MyAgent)"
        ) from None
    except AttributeError as e:
        raise CliError(f"cannot load agent {spec!r}: {e}") from None
    try:
        agent = cls()
    except Exception as e:
        raise CliError(f"cannot create agent {spec!r}: {e}") from None
    if not callable(getattr(agent, "choose", None)):
        raise CliError(f"agent {spec!r} has no choose(game, moves) method")
    return agent


def _native_records(part: Results) -> list[dict[str, Any]]:
    """Full records of a native chunk's games, each played again natively from its seed."""
    return [part.replay(g).record() for g in range(len(part))]


def run_simulate(args: argparse.Namespace) -> int:
    rules = parse_rules(args.rule)
    _check_common(args)
    if args.csv and args.out:
        raise CliError("give --out or --csv, not both")
    out, fmt = (args.csv, "csv") if args.csv else (args.out, args.format)
    _check_outputs(args, **{"csv" if args.csv else "out": out, "records": args.records})
    agents = _agents(args.policy, args.players)
    name = args.name or _variant_label(rules)
    meta = _study_meta(args, "simulate", {name: rules})
    tally: Tally | None = None
    interrupted = False
    start = time.perf_counter()
    progress = None
    with open_executor(args) as (executor, inflight, threads), _writer(out, fmt, meta) as writer:
        records = _open_records(args.records)
        progress = None if args.quiet else Progress(args.games)
        if agents is None:
            chunks = simulate_chunks(
                rules,
                args.games,
                args.players,
                args.policy,
                args.seed,
                threads,
                chunk=args.chunk,
                executor=executor,
                inflight=inflight,
            )
        else:
            from carcassonne.agents import simulate_agents_chunks

            chunks = simulate_agents_chunks(
                rules,
                agents,
                args.games,
                args.players,
                args.seed,
                record_games=records is not None,
                executor=executor,
                chunk=args.chunk,
            )
        done = 0
        try:
            with _StopOnInterrupt(args.quiet) as guard, contextlib.closing(chunks):
                for part in chunks:
                    if tally is None:
                        tally = Tally(part.players, part.sources, master_seed=args.seed)
                    tally.add_results(part)
                    if writer is not None:
                        writer.write(part, name)
                    if records is not None:
                        recs = part.records if part.records is not None else _native_records(part)
                        _write_records(records, args.records, recs)
                    done += len(part)
                    if progress:
                        progress.update(done)
                    if guard.stop:
                        interrupted = done < args.games
                        break
        except KeyboardInterrupt:
            interrupted = True
        finally:
            if records is not None:
                _close_records(records, args.records)
    elapsed = time.perf_counter() - start
    if progress:
        progress.close()
    if tally is None:
        print("interrupted before any game finished", file=sys.stderr)
        return 130
    print(tally.summary(elapsed, interrupted, args.games))
    if out:
        print(f"results: {out} ({tally.n * args.players:,} rows, one per game and seat)")
    if args.records:
        print(f"records: {args.records} ({tally.n:,} games)")
    return 130 if interrupted else 0


def _check_outputs(args: argparse.Namespace, **files: str | None) -> None:
    """Output files (option -> path): none replaced unless --overwrite, no two the same."""
    given = {opt: path for opt, path in files.items() if path}
    for opt, path in given.items():
        check_new_file(path, args.overwrite, f"--{opt}")
    real = {os.path.realpath(path) for path in given.values()}
    if len(real) < len(given):
        raise CliError(f"{' and '.join(f'--{o}' for o in given)} name the same file: give two")


def _open_records(path: str | None) -> TextIO | None:
    if not path:
        return None
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as e:
        raise CliError(f"cannot write {path}: {e.strerror}") from None


def _write_records(f: TextIO, path: str, records: Any) -> None:
    try:
        f.write("".join(json.dumps(rec) + "\n" for rec in records))
    except OSError as e:
        raise CliError(f"cannot write {path}: {e.strerror or e}") from None


def _close_records(f: TextIO, path: str) -> None:
    try:
        f.close()
    except OSError as e:
        raise CliError(f"cannot write {path}: {e.strerror or e}") from None


# -- compare -------------------------------------------------------------------------------


def parse_variants(items: list[str] | None, common: list[str] | None) -> dict[str, Rules]:
    """``["C3", "small:small_city=on", "noriver:river=off,abbot=off"]`` -> name -> Rules
    (each on top of the common ``-o`` options). A variant without a name is named by its
    options."""
    variants: dict[str, Rules] = {}
    for item in items or ():
        item = item.strip()
        if ":" in item:
            name, _, opts = item.partition(":")
        elif "=" in item:
            name, opts = item, item
        else:
            name, opts = item, ""
        name = name.strip()
        if not name:
            raise CliError(f"variant {quote(item)} has no name: write NAME:option=value,...")
        if name in variants:
            raise CliError(f"variant name {quote(name)} is given twice")
        own = [o for o in opts.split(",") if o.strip()]
        try:
            variants[name] = parse_rules([*(common or []), *own])
        except CliError as e:
            raise CliError(f"variant {quote(name)}: {e}") from None
    if len(variants) < 2:
        raise CliError(
            "compare needs at least two --variant NAME:option=value,... "
            "(e.g. --variant C3 --variant small:small_city=on)"
        )
    return variants


def run_compare(args: argparse.Namespace) -> int:
    parse_rules(args.rule)  # report a bad common option first
    variants = parse_variants(args.variant, args.rule)
    _check_common(args)
    if _agents(args.policy, args.players) is not None:
        raise CliError("compare runs native policies only: random, greedy, mcts (one per seat)")
    baseline = args.baseline or next(iter(variants))
    if baseline not in variants:
        raise CliError(f"--baseline {quote(baseline)} is not one of: {', '.join(variants)}")
    if baseline != next(iter(variants)):
        variants = {baseline: variants[baseline], **variants}
    meta = _study_meta(args, "compare", variants)
    _check_outputs(args, out=args.out)
    comparison: Comparison | None = None
    progress = None
    interrupted = False
    start = time.perf_counter()
    with (
        open_executor(args) as (executor, inflight, threads),
        _writer(args.out, args.format, meta) as writer,
    ):
        progress = None if args.quiet else Progress(args.games * len(variants))
        chunks = compare_chunks(
            variants,
            args.games,
            args.players,
            args.policy,
            args.seed,
            threads,
            chunk=args.chunk,
            executor=executor,
            inflight=inflight,
        )
        done = 0
        try:
            with _StopOnInterrupt(args.quiet) as guard, contextlib.closing(chunks):
                for name, part in chunks:
                    if comparison is None:
                        comparison = Comparison.empty(
                            list(variants),
                            args.players,
                            part.sources,
                            baseline=baseline,
                            policy=args.policy,
                            master_seed=args.seed,
                        )
                    comparison.add_results(name, part)
                    if writer is not None:
                        writer.write(part, name)
                    done += len(part)
                    if progress:
                        progress.update(done)
                    if guard.stop and name == list(variants)[-1]:
                        interrupted = True
                        break
        except KeyboardInterrupt:
            interrupted = True
    elapsed = time.perf_counter() - start
    if progress:
        progress.close()
    if comparison is None:
        print("interrupted before any game finished", file=sys.stderr)
        return 130
    print(
        f"{args.games:,} games per variant, {args.players} players, policy {args.policy}, "
        f"seed {args.seed}"
    )
    print()
    print(comparison.summary(elapsed, interrupted))
    if args.out:
        print(f"results: {args.out}")
    return 130 if interrupted else 0


# -- record --------------------------------------------------------------------------------


def run_record(args: argparse.Namespace) -> int:
    from carcassonne.results import replay
    from carcassonne.table import TableError, find_game

    try:
        found = find_game(args.results, args.game, args.variant)
    except TableError as e:
        raise CliError(str(e)) from None
    try:
        game = replay(found["rules"], found["players"], found["seed"], found["policy"])
    except ValueError as e:
        raise CliError(str(e)) from None
    if game.scores != found["scores"]:
        raise CliError(
            f"the replay scores {game.scores} differ from the table's {found['scores']}: "
            "was the table written by another engine version?"
        )
    text = game.to_json(indent=None if args.compact else 1)
    check_new_file(args.out, args.overwrite)
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as f:
                f.write(text + "\n")
        except OSError as e:
            raise CliError(f"cannot write {args.out}: {e.strerror}") from None
        print(
            f"game {found['game']} ({found['variant']}): scores {game.scores}; record: {args.out}"
        )
    else:
        print(text)
    return 0


# -- parsers -------------------------------------------------------------------------------


def _add_study_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("-n", "--games", type=int, default=1000, help="games to play (1000)")
    p.add_argument("-p", "--players", type=int, default=2, help="players, 2 to 6 (2)")
    p.add_argument("-s", "--seed", type=int, default=0, help="master seed (0)")
    p.add_argument("-t", "--threads", type=int, default=0, help="threads, 0 = all cores (0)")
    p.add_argument(
        "--policy",
        default="random",
        help="policy for every seat, or exactly one per seat separated by commas: native "
        "random, greedy or mcts[:playouts=N[:c=X:widen=X:depth=N:margin=X]], e.g. "
        "mcts:playouts=1000,greedy (default random)",
    )
    p.add_argument("-o", "--rule", action="append", metavar="NAME=VALUE", help=rule_help())
    p.add_argument(
        "--chunk",
        type=int,
        default=None,
        help="games per chunk (default: about half a second each; never changes results)",
    )
    p.add_argument(
        "--out",
        metavar="FILE",
        help="stream one row per game and seat to FILE (.parquet, .csv or .jsonl)",
    )
    p.add_argument("--format", choices=("parquet", "csv", "jsonl"), help="table format of --out")
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on Dask (tcp://host:8786, or 'local' for a local cluster) or on Ray "
        "('ray', or ray:ADDRESS); same results as one machine",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="worker processes of --scheduler local (default: one per core)",
    )
    p.add_argument(
        "--connect-timeout",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="give up reaching the scheduler after this long (5)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    add_overwrite(p)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate",
        help="run a simulation study and print a summary",
        description="Play many whole games and summarise them. Ctrl-C stops after the games "
        "in progress and keeps every finished game.",
    )
    _add_study_args(p)
    p.add_argument("--name", help="the study's variant name in --out (default: its options)")
    p.add_argument("--csv", metavar="FILE", help="same as --out FILE --format csv")
    p.add_argument(
        "--records",
        metavar="FILE",
        help="keep every game's record as JSON Lines (native policies: each game is played "
        "again natively to record it, so it costs about twice the time)",
    )
    p.epilog = (
        "Python agents: --policy mypkg.mymodule:MyAgent or ./my_agents.py:MyAgent (an object "
        "with choose(game, moves); see carcassonne.agents), alone or per seat beside native "
        "policies (which then play through Python)."
    )
    p.set_defaults(func=run_simulate)

    c = sub.add_parser(
        "compare",
        help="compare rule variants on the same game seeds (paired)",
        description="Play every variant on the same game seeds and report, per seat, the "
        "difference of win rate and mean score from the baseline with 95% intervals "
        "(from per-game differences).",
        epilog="example: carcassonne compare -n 20000 -o river=off --variant C3 "
        "--variant small:small_city=on",
    )
    _add_study_args(c)
    c.add_argument(
        "--variant",
        action="append",
        metavar="NAME:OPT=VAL,...",
        help="a variant: a name, then its rule options on top of the -o ones (repeat, 2+)",
    )
    c.add_argument("--baseline", help="the variant the others are compared with (the first)")
    c.set_defaults(func=run_compare)

    r = sub.add_parser(
        "record",
        help="a game of a results table, replayed from its seed: its record",
        description="Replay game N of a results table move by move from its seed (any "
        "native policy) and print its record (JSON, as Game.to_json() writes it), e.g. "
        "carcassonne record results.parquet --game 17 | carcassonne replay -",
    )
    r.add_argument("results", metavar="RESULTS", help="a table written by --out")
    r.add_argument("--game", type=int, required=True, help="the game's index (column game)")
    r.add_argument("--variant", help="the variant, when the table has several")
    r.add_argument("--out", metavar="FILE", help="write the record to FILE")
    r.add_argument("--compact", action="store_true", help="one-line JSON")
    add_overwrite(r)
    r.set_defaults(func=run_record)
