"""Simulation studies from the command line: ``carcassonne simulate``."""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import TextIO

import numpy as np

from carcassonne.cli import CliError, parse_rule_options
from carcassonne.simulate import POLICIES, Results, simulate_chunks


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


class Progress:
    """A one-line progress bar with rate and time left, on a terminal or a log."""

    def __init__(self, total: int, stream: TextIO = sys.stderr, width: int = 30) -> None:
        self.total, self.stream, self.width = total, stream, width
        self.start = time.perf_counter()
        self.tty = stream.isatty()

    def update(self, done: int) -> None:
        elapsed = time.perf_counter() - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (self.total - done) / rate if rate > 0 else 0.0
        filled = int(self.width * done / self.total) if self.total else self.width
        bar = "#" * filled + "." * (self.width - filled)
        line = (
            f"[{bar}] {done:,}/{self.total:,} games  {rate:,.0f} games/s  "
            f"{_clock(elapsed)} elapsed, {_clock(left)} left"
        )
        if self.tty:
            self.stream.write("\r" + line)
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def summary(res: Results, elapsed: float, interrupted: bool = False) -> str:
    """A readable summary of a batch."""
    n = len(res)
    lines = []
    rules = ", ".join(f"{k}={v}" for k, v in res.rules.to_dict().items())
    lines.append(
        f"{n:,} games, {res.players} players, policy {res.policy}, seed "
        f"{res.master_seed}" + ("  (interrupted: partial results)" if interrupted else "")
    )
    lines.append(f"rules: {rules}")
    if n == 0:
        return "\n".join(lines)
    won = res.won()
    lines.append("")
    lines.append(
        f"{'seat':>4}  {'win rate':>8}  {'95% interval':>15}  {'mean score':>10}  {'sd':>6}"
    )
    for p in range(res.players):
        k = int(won[:, p].sum())
        lo, hi = wilson(k, n)
        sc = res.scores[:, p].astype(float)
        lines.append(
            f"{p + 1:>4}  {k / n:>8.1%}  [{lo:6.1%}, {hi:6.1%}]  {sc.mean():>10.2f}  "
            f"{sc.std(ddof=1) if n > 1 else 0.0:>6.2f}"
        )
    ties = int((won.sum(axis=1) > 1).sum())
    lines.append(f"shared wins (ties): {ties:,} games ({ties / n:.1%})")
    lines.append("")
    lines.append("mean points by source, per seat:")
    header = f"  {'source':<12}" + "".join(f"{'seat ' + str(p + 1):>9}" for p in range(res.players))
    lines.append(header)
    for s, name in enumerate(res.sources):
        vals = res.breakdown[:, :, s].astype(float).mean(axis=0)
        lines.append(f"  {name:<12}" + "".join(f"{v:>9.2f}" for v in vals))
    lines.append("")
    turns = res.turns.astype(float)
    lines.append(
        f"game length: {turns.mean():.1f} turns (min {int(turns.min())}, max {int(turns.max())})"
    )
    lines.append(
        f"tiles discarded: {res.discarded.astype(float).mean():.3f} per game "
        f"({int((res.discarded > 0).sum()):,} games with any)"
    )
    lines.append(f"speed: {n / elapsed:,.0f} games/s ({elapsed:.2f} s)" if elapsed > 0 else "")
    return "\n".join(lines)


def run_simulate(args: argparse.Namespace) -> int:
    rules = parse_rule_options(args.rule)
    if not 2 <= args.players <= 6:
        raise CliError(f"--players must be from 2 to 6, got {args.players}")
    if args.games < 1:
        raise CliError(f"--games must be at least 1, got {args.games}")
    if args.threads < 0:
        raise CliError(f"--threads must be >= 0, got {args.threads}")
    if not 0 <= args.seed < 2**64:
        raise CliError(f"--seed must be from 0 to 2**64-1, got {args.seed}")
    if any(p not in POLICIES for p in args.policy.split(",")):
        raise CliError(f"unknown policy {args.policy!r}; valid: {', '.join(POLICIES)}")
    chunk = args.chunk or min(5000, max(100, args.games // 40))
    if chunk < 1:
        raise CliError(f"--chunk must be at least 1, got {chunk}")
    progress = None if args.quiet else Progress(args.games)
    parts: list[Results] = []
    done = 0
    start = time.perf_counter()
    interrupted = False
    try:
        for part in simulate_chunks(
            rules, args.games, args.players, args.policy, args.seed, args.threads, chunk=chunk
        ):
            parts.append(part)
            done += len(part)
            if progress:
                progress.update(done)
    except KeyboardInterrupt:
        interrupted = True
    elapsed = time.perf_counter() - start
    if progress:
        progress.close()
    if not parts:
        print("interrupted before any game finished", file=sys.stderr)
        return 130
    res = Results.concat(parts)
    if args.csv:
        cols = res.columns()
        try:
            with open(args.csv, "w", encoding="utf-8") as f:
                f.write(",".join(cols) + "\n")
                np.savetxt(
                    f,
                    np.column_stack([c.astype(np.uint64) for c in cols.values()]),
                    fmt="%d",
                    delimiter=",",
                )
        except OSError as e:
            raise CliError(f"cannot write {args.csv}: {e.strerror}") from None
    print(summary(res, elapsed, interrupted))
    return 130 if interrupted else 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate",
        help="run a simulation study and print a summary",
        description="Play many whole games natively and summarise them.",
    )
    p.add_argument("-n", "--games", type=int, default=1000, help="games to play (1000)")
    p.add_argument("-p", "--players", type=int, default=2, help="players, 2 to 6 (2)")
    p.add_argument("-s", "--seed", type=int, default=0, help="master seed (0)")
    p.add_argument("-t", "--threads", type=int, default=0, help="threads, 0 = all cores (0)")
    p.add_argument(
        "--policy",
        default="random",
        help=f"native policy for every seat, or one per seat separated by commas "
        f"({', '.join(POLICIES)}; default random)",
    )
    p.add_argument(
        "-o",
        "--rule",
        action="append",
        metavar="NAME=VALUE",
        help="rule option, repeatable: river=off, abbot=off, small_city=on, river_start=discard",
    )
    p.add_argument(
        "--chunk", type=int, default=0, help="games per progress step (0: about 1/40 of the games)"
    )
    p.add_argument("--csv", metavar="FILE", help="also write one row per game to FILE")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run_simulate)
