"""``carcassonne study``: a balance study (variants x skill levels x player counts) with seat
rotation, sequential stopping, one results table and an HTML report;
``carcassonne study-report TABLE``: the report of a study table.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from carcassonne.balance import (
    TIES,
    Plan,
    StudyError,
    grid_variants,
    load,
    parse_skills,
    parse_until,
    read_table,
    run,
    table_format,
    write_table,
)
from carcassonne.command import (
    CliError,
    check_run_options,
    open_executor,
    parse_rules,
    rule_help,
)
from carcassonne.errors import quote
from carcassonne.progress import ProgressLine
from carcassonne.rules import Rules
from carcassonne.stats import Estimate


class StudyProgress(ProgressLine):
    """One line: deals done, games/s, and the headline difference's running estimate and
    interval against the stopping target (see :class:`carcassonne.progress.ProgressLine`)."""

    def __init__(
        self, stream: TextIO | None = None, until: float | None = None, every: float = 5.0
    ) -> None:
        super().__init__(stream, every)
        self.until = until

    def line(self, done: int, total: int, games: int, seconds: float, head: Estimate | None) -> str:
        width = 10
        filled = int(width * done / total) if total else width
        bar = "#" * filled + "." * (width - filled)
        line = f"[{bar}] {done:,}/{total:,} deals {games / max(seconds, 1e-9):,.0f} games/s"
        if head is not None and head.n > 1:
            line += (
                f" est {100 * head.mean:+.2f} pp [{100 * head.low:+.2f}, {100 * head.high:+.2f}]"
            )
            if self.until is not None:
                line += f" target ±{self.until:g}"
        return line

    def __call__(
        self, done: int, total: int, games: int, seconds: float, head: Estimate | None
    ) -> None:
        self.show(self.line(done, total, games, seconds, head), final=done >= total)


def _players(text: str) -> list[int]:
    out = []
    for item in text.split(","):
        try:
            p = int(item)
        except ValueError:
            raise CliError(
                f"--players {quote(text)}: give counts from 2 to 6, e.g. 2 or 2,3,4"
            ) from None
        if not 2 <= p <= 6:
            raise CliError(f"--players must be from 2 to 6, got {p}")
        if p in out:
            raise CliError(f"--players {quote(text)} lists {p} twice")
        out.append(p)
    return out


def _variants(args: argparse.Namespace) -> dict[str, Rules]:
    common = list(args.rule or [])
    parse_rules(common)  # a bad common option first
    variants: dict[str, Rules] = {}
    for item in args.variant or ():
        name, _, opts = item.partition(":") if ":" in item else (item, "", "")
        name = name.strip()
        if not name:
            raise CliError(f"variant {quote(item)} has no name: write NAME:option=value,...")
        if name in variants:
            raise CliError(f"variant name {quote(name)} is given twice")
        try:
            variants[name] = parse_rules([*common, *(o for o in opts.split(",") if o.strip())])
        except CliError as e:
            raise CliError(f"variant {quote(name)}: {e}") from None
    if args.grid:
        if variants:
            raise CliError("give --variant or --grid, not both")
        grid = []
        for g in args.grid:
            name, eq, values = g.partition("=")
            vals = [v.strip() for v in values.split(",") if v.strip()] if eq else []
            if not name.strip() or len(vals) < 2:
                raise CliError(
                    f"--grid {quote(g)}: write OPTION=VALUE,VALUE[,...] (two values or more)"
                )
            grid.append((name.strip(), vals))
        try:
            variants = grid_variants(Rules(), grid, lambda items: parse_rules([*common, *items]))
        except StudyError as e:
            raise CliError(str(e)) from None
    if not variants:
        variants[args.name or "default"] = parse_rules(common)
    return variants


def run_study(args: argparse.Namespace) -> int:
    if args.policy is not None:
        if args.skill is not None:
            raise CliError("give --skill or --policy, not both")
        args.skill = "/".join(p.strip() for p in args.policy.split(","))
    args.skill = args.skill or "random"
    try:
        players = _players(args.players)
        variants = _variants(args)
        skills = parse_skills(args.skill)
        for p in players:
            parse_skills(args.skill, p)
        until = parse_until(args.until)
    except StudyError as e:
        raise CliError(str(e)) from None
    check_run_options(args)
    if args.trajectories < 0:
        raise CliError(f"--trajectories must be >= 0, got {args.trajectories}")
    if args.batch is not None and args.batch < 1:
        raise CliError(f"--batch must be at least 1, got {args.batch}")
    if args.baseline is not None and args.baseline not in variants:
        raise CliError(f"--baseline {args.baseline!r} is not one of: {', '.join(variants)}")
    existing = None
    if args.out:
        out = Path(args.out)
        try:
            table_format(out)
        except StudyError as e:
            raise CliError(str(e)) from None
        if args.append and args.overwrite:
            raise CliError("give --append or --overwrite, not both")
        if out.exists() and out.stat().st_size > 0:
            if args.append:
                try:
                    existing = read_table(out)
                except StudyError as e:
                    raise CliError(str(e)) from None
            elif not args.overwrite:
                raise CliError(
                    f"{args.out} exists: --append adds to the study in it, --overwrite replaces it"
                )
        if not out.parent.exists():
            raise CliError(f"cannot write {args.out}: no directory {str(out.parent)!r}")
    elif args.append:
        raise CliError("--append needs --out FILE")
    plan = Plan(
        variants=variants,
        skills=skills,
        players=players,
        seed=args.seed,
        rotate_seats=args.rotate_seats,
        ties=args.ties,
        baseline=args.baseline,
    )
    progress = None if args.quiet else StudyProgress(until=until)
    try:
        with open_executor(args) as (executor, _inflight, threads):
            workers = _worker_count(executor)
            study = run(
                plan,
                args.games,
                threads=threads,
                executor=executor,
                workers=workers,
                until=until,
                trajectories=args.trajectories,
                existing=existing,
                batch=args.batch,
                progress=progress,
            )
    except StudyError as e:
        raise CliError(str(e)) from None
    finally:
        if progress:
            progress.close()
    if not len(study.rows["deal"]):
        print("interrupted before any game finished", file=sys.stderr)
        return 130
    try:
        if args.out:
            write_table(args.out, study.rows)
        print(study.summary())
        if args.out:
            print(f"results: {args.out} ({len(study.rows['deal']):,} rows, one per game and seat)")
        if args.report:
            from carcassonne.balance_report import write_report

            rep = write_report(study, args.report)
            print(f"report: {rep}")
    except StudyError as e:
        raise CliError(str(e)) from None
    return 130 if study.interrupted else 0


def _worker_count(executor: Any) -> int | None:
    if executor is None:
        return None
    n = getattr(executor, "_max_workers", None)
    client = getattr(executor, "_client", None)
    if client is not None:
        try:
            n = len(client.scheduler_info().get("workers", {})) or n
        except Exception:  # noqa: BLE001 - the count is informative only
            pass
    return int(n) if n else None


def run_study_report(args: argparse.Namespace) -> int:
    from carcassonne.balance_report import write_report

    try:
        study = load(args.results)
        path = write_report(study, args.out)
    except StudyError as e:
        raise CliError(str(e)) from None
    print(study.answer())
    print(f"report: {path}")
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "study",
        help="a balance study: variants x skill levels x player counts, one answer",
        description="Play every variant at every skill level and player count on the same "
        "deals (seat orders rotated with --rotate-seats), and answer with 95%% intervals: seat "
        "win rates, first-player advantage, balance, margins, lead changes, points by source, "
        "and each variant's paired effect on seat 1's win rate.",
        epilog="example: carcassonne study --skill greedy --variant base "
        "--variant ft:fortune_teller=on --until 'ci<1' -n 200000 --out ft.parquet --report ft",
    )
    p.add_argument("-n", "--games", type=int, default=1000, help="deals per cell, at most (1000)")
    p.add_argument("-p", "--players", default="2", help="player counts, e.g. 2 or 2,3,4 (2)")
    p.add_argument("-s", "--seed", type=int, default=0, help="master seed (0)")
    p.add_argument("-t", "--threads", type=int, default=0, help="threads, 0 = all cores (0)")
    p.add_argument(
        "--policy",
        help="one skill level as the other commands write it: one policy for every seat, or "
        "one per seat separated by commas (same as --skill with '/')",
    )
    p.add_argument(
        "--skill",
        default=None,
        help="skill levels, comma-separated; each a native policy for every seat "
        "(random, greedy, mcts:playouts=500) or one per seat joined by '/' (greedy/random); "
        "default random",
    )
    p.add_argument("-o", "--rule", action="append", metavar="NAME=VALUE", help=rule_help())
    p.add_argument(
        "--variant",
        action="append",
        metavar="NAME[:OPT=VAL,...]",
        help="a variant on top of the -o options (repeat; the first is the baseline)",
    )
    p.add_argument(
        "--grid",
        action="append",
        metavar="OPT=V1,V2",
        help="vary an option over values; several --grid: every combination is a variant",
    )
    p.add_argument("--name", help="the variant's name when there is only one (default)")
    p.add_argument("--baseline", help="the variant the others are compared with (the first)")
    p.add_argument(
        "--rotate-seats",
        action="store_true",
        help="play every deal once per seat order (for levels with different seat policies)",
    )
    p.add_argument(
        "--until",
        metavar="'ci<X'",
        help="stop once the headline difference's 95%% interval half-width is below X "
        "percentage points (-n is then the limit)",
    )
    p.add_argument(
        "--ties",
        choices=TIES,
        default="split",
        help="a shared win counts 1/k for each of k tied seats (split, default) or whole",
    )
    p.add_argument(
        "--trajectories",
        type=int,
        default=0,
        metavar="N",
        help="replay the first N deals of each cell for per-turn scores: lead changes, the "
        "turn the winner took the lead for good, figures left unused (slow: Python)",
    )
    p.add_argument("--batch", type=int, help="deals per batch (default: 500, doubling to 16000)")
    p.add_argument("--out", metavar="FILE", help="the results table (.parquet, .csv, .jsonl)")
    p.add_argument("--append", action="store_true", help="continue the study in --out")
    p.add_argument("--overwrite", action="store_true", help="replace an existing --out")
    p.add_argument("--report", metavar="DIR", help="write report.html and its plots to DIR")
    p.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler, or 'local'")
    p.add_argument("--workers", type=int, default=None, help="workers of --scheduler local")
    p.add_argument("--connect-timeout", type=float, default=5.0, metavar="SECONDS")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress line")
    p.set_defaults(func=run_study)

    r = sub.add_parser(
        "study-report",
        help="the HTML report of a study table",
        description="Read a table written by 'carcassonne study --out' and write report.html "
        "(answer first, then plots) and its PNGs.",
    )
    r.add_argument("results", metavar="RESULTS")
    r.add_argument("-o", "--out", default="study-report", help="directory (study-report)")
    r.set_defaults(func=run_study_report)
