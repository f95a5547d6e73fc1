"""The study commands, one system: ``carcassonne study`` (variants x skill levels x player
counts, seat rotation, sequential stopping), and its quick forms ``simulate`` (one variant,
one policy; also Python agents and game records) and ``compare`` (variants, one policy).

Every one plays through :func:`carcassonne.studies.run`, streams the one results table
(``--out``), prints the one summary (the answer first) and can write the one report
(``--report``). ``--scheduler ADDRESS`` (``local``, ``ray``) plays the batches on a cluster
with the same rows. Ctrl-C stops after the batch in progress and keeps every finished one
(exit status 130); ``--append`` goes on with the study in ``--out``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import json
import math
import os
import signal
import sys
import traceback
from pathlib import Path
from typing import Any, TextIO

from carcassonne.cli.common import (
    CliError,
    check_new_file,
    check_run_options,
    once,
    open_executor,
    parse_rules,
    path_arg,
    rule_help,
)
from carcassonne.cli.progress import StudyProgress
from carcassonne.errors import PlayError, quote
from carcassonne.policies import POLICIES, canonical_seats, policies_help, seat_texts
from carcassonne.rules import Rules
from carcassonne.studies.plan import (
    FIRST_BATCH,
    MAX_CELLS,
    METRICS,
    TIES,
    Plan,
    StudyError,
    check_grid,
    check_metric,
    check_size,
    grid_variants,
    old_form_hint,
    parse_skills,
    parse_until,
)
from carcassonne.studies.play import _check_existing, run, skill_of, start_table
from carcassonne.studies.results import Results, gather
from carcassonne.studies.simulate import simulate
from carcassonne.studies.table import format_of, read_table, rules_label

# -- the options ---------------------------------------------------------------------------


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


def parse_variants(items: list[str] | None, common: list[str] | None) -> dict[str, Rules]:
    """``["C3", "small:small_city=on", "noriver:river=off,abbot=off"]`` -> name -> Rules
    (each on top of the common ``-o`` options). A variant without a name is named by its
    options."""
    parse_rules(once(common))  # a bad common option first
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
        own = once([o for o in opts.split(",") if o.strip()], f"variant {quote(name)}: rule option")
        try:
            rules = parse_rules([*(common or []), *own])
        except CliError as e:
            raise CliError(f"variant {quote(name)}: {e}") from None
        for other, same in variants.items():
            if same == rules:  # paired by deal, they would play the very same games
                raise CliError(
                    f"variants {quote(other)} and {quote(name)} have the same rules: a variant "
                    "compared with itself measures nothing; give each its own options"
                )
        variants[name] = rules
    return variants


def _grid_specs(args: argparse.Namespace) -> list[tuple[str, list[str]]]:
    """``--grid OPT=V1,V2`` texts -> [(option, [values])], each checked (:func:`check_grid`)."""
    grid = []
    for g in args.grid or ():
        name, eq, values = g.partition("=")
        vals = [v.strip() for v in values.split(",")] if eq else []
        if "" in vals:
            raise CliError(f"--grid {quote(g)}: an empty value (two commas, or one at an end)")
        if not name.strip() or len(vals) < 2:
            raise CliError(
                f"--grid {quote(g)}: write OPTION=VALUE,VALUE[,...] (two values or more)"
            )
        grid.append((name.strip(), vals))
    try:
        check_grid(grid)
    except StudyError as e:
        raise CliError(str(e)) from None
    return grid


def _grid(args: argparse.Namespace, grid: list[tuple[str, list[str]]]) -> dict[str, Rules]:
    common = list(args.rule or [])
    try:
        return grid_variants(Rules(), grid, lambda items: parse_rules([*common, *items]))
    except StudyError as e:
        raise CliError(str(e)) from None


def _baseline_first(variants: dict[str, Rules], baseline: str | None) -> dict[str, Rules]:
    """The variants, the baseline first (a table read back takes its first as baseline)."""
    if baseline is None:
        return variants
    if baseline not in variants:
        raise CliError(f"--baseline {quote(baseline)} is not one of: {', '.join(variants)}")
    return {baseline: variants[baseline], **variants}


# -- Python agents (simulate) --------------------------------------------------------------


def _agents(policy: str, players: int) -> list[Any] | None:
    """None when every seat is native; else one agent per listed seat. A list of seats must
    have one policy per seat (one policy alone plays every seat)."""
    hint = old_form_hint(policy, "--policy")
    if hint:
        raise CliError(hint)
    try:
        items = seat_texts(policy)
    except ValueError as e:
        raise CliError(f"bad --policy: {e}") from None
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
            native[item] = canonical_seats(item)[0]
        except ValueError as e:
            if ":" not in item or item.split(":", 1)[0] in POLICIES:
                raise CliError(
                    f"{e}; or a Python agent as module:Class or path/to/file.py:Class"
                ) from None
    if len(native) == len(set(items)):
        return None
    from carcassonne.players import native_agent

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
            if not module or module.startswith("."):
                raise ImportError(f"{module!r} is not a module name")
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
    except Exception as e:  # the agent's module failed while it ran: where, in one line
        raise CliError(f"cannot load agent {spec!r}: {_where(e)}") from None
    try:
        agent = cls()
    except Exception as e:
        raise CliError(f"cannot create agent {spec!r}: {e}") from None
    if not callable(getattr(agent, "choose", None)):
        raise CliError(f"agent {spec!r} has no choose(game, moves) method")
    return agent


def _where(e: BaseException) -> str:
    """An exception raised by the user's code as one line: its type, message and the last
    line of that code it passed through (``SyntaxError`` names its own)."""
    text = f"{type(e).__name__}: {e}"
    if isinstance(e, SyntaxError):
        return text
    frames = traceback.extract_tb(e.__traceback__)
    own = [f for f in frames if "importlib" not in f.filename] or frames
    return f"{text} ({own[-1].filename}, line {own[-1].lineno})" if own else text


def _agent_play(agents: list[Any], executor: Any, records: Any) -> Any:
    """A batch played by Python agents (see :data:`carcassonne.studies.play.Play`)."""
    from carcassonne.players import simulate_agents_chunks

    def play(rules: Rules, n: int, players: int, policy: str, seed: int, first: int) -> Results:
        chunks = simulate_agents_chunks(
            rules,
            agents,
            first + n,
            players,
            seed,
            record_games=records is not None,
            executor=executor,
            first=first,
        )
        try:
            return Results.concat(gather(chunks))
        except PlayError as e:  # an agent's answer that is no legal move (it names the agent)
            raise CliError(str(e)) from None

    return play


# -- one study, whichever command ----------------------------------------------------------


class _Records:
    """``simulate --records FILE``: every game's record as JSON Lines, batch by batch."""

    def __init__(self, path: str) -> None:
        self.path, self.games = path, 0
        try:
            self.file: TextIO = open(path, "w", encoding="utf-8")
        except OSError as e:
            raise CliError(f"cannot write {path}: {e.strerror}") from None

    def _failed(self, e: OSError) -> CliError:
        """A write failed (a full disk): the file goes, rather than a record cut short."""
        with contextlib.suppress(OSError):
            self.file.close()
        if Path(self.path).is_file():  # never a device such as /dev/null
            with contextlib.suppress(OSError):
                os.unlink(self.path)
        return CliError(f"cannot write {self.path}: {e.strerror or e}")

    def wrap(self, play: Any) -> Any:
        def recorded(*a: Any) -> Results:
            res = play(*a)
            recs = res.records
            if recs is None:  # native games: each played again natively to record it
                recs = [res.replay(g).record() for g in range(len(res))]
            try:
                self.file.write("".join(json.dumps(r) + "\n" for r in recs))
                self.file.flush()
            except OSError as e:
                raise self._failed(e) from None
            self.games += len(recs)
            return res

        return recorded

    def close(self) -> None:
        try:
            self.file.close()
        except OSError as e:
            raise self._failed(e) from None


class _StopOnInterrupt:
    """First Ctrl-C: finish the batch in progress, then stop (``stop`` becomes True; a
    KeyboardInterrupt raised anywhere could land inside the extension's argument conversion).
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
                "\ninterrupted: stopping after the batch in progress (Ctrl-C again to stop now)",
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


def _check_outputs(args: argparse.Namespace, records: str | None = None) -> Any:
    """Every output checked before anything is played: the table's format and whether it may
    be replaced or appended to, the report folder, the records file; no two the same. Returns
    the rows of the study to go on with (``--append``), else None."""
    out, report = args.out, args.report
    given = {o: p for o, p in (("--out", out), ("--report", report), ("--records", records)) if p}
    real = {os.path.realpath(p) for p in given.values()}
    if len(real) < len(given):
        raise CliError(f"{' and '.join(given)} name the same file: give two")
    if records:
        check_new_file(records, args.overwrite, "--records")
    if report and Path(report).exists() and not Path(report).is_dir():
        raise CliError(f"--report {report} exists and is not a folder")
    if args.append and not out:
        raise CliError("--append needs --out FILE")
    if not out:
        return None
    if args.append and args.overwrite:
        raise CliError("give --append or --overwrite, not both")
    try:
        format_of(out, args.format)
    except StudyError as e:
        raise CliError(str(e)) from None
    parent = Path(out).parent
    if not parent.is_dir():
        raise CliError(f"cannot write {out}: no folder {str(parent)!r}")
    exists = Path(out).is_file() and Path(out).stat().st_size > 0
    if exists and args.append:
        try:
            return read_table(out, args.format, partial_tail=True)
        except StudyError as e:
            raise CliError(str(e)) from None
    if exists and not args.overwrite:
        raise CliError(
            f"--out {out} already exists: --append goes on with the study in it, "
            "--overwrite replaces it"
        )
    return None


def _play_study(
    args: argparse.Namespace,
    plan: Plan,
    *,
    until: float | None = None,
    trajectories: int = 0,
    agents: list[Any] | None = None,
    records: str | None = None,
) -> int:
    if agents is not None and plan.luck:
        raise CliError("--luck is measured by the native players only, not by Python agents")
    existing = _check_outputs(args, records)
    if existing is not None:
        try:
            _check_existing(plan, existing)
        except StudyError as e:
            raise CliError(str(e)) from None
    progress = None if args.quiet else StudyProgress(until=until)
    recorder = _Records(records) if records else None
    writer = None
    try:
        with (
            open_executor(args) as (executor, _inflight, threads),
            _StopOnInterrupt(args.quiet) as guard,
        ):
            if args.out:
                writer = start_table(args.out, existing, fmt=args.format)
            play = None
            if agents is not None:
                play = _agent_play(agents, executor, recorder)
            elif recorder is not None:

                def play(r: Rules, n: int, p: int, pol: str, seed: int, first: int) -> Results:
                    return simulate(
                        r, n, p, pol, seed, threads, executor=executor, first=first, luck=plan.luck
                    )

            if recorder is not None:
                play = recorder.wrap(play)
            study = run(
                plan,
                args.games,
                threads=threads,
                executor=executor,
                workers=_worker_count(executor),
                until=until,
                trajectories=trajectories,
                existing=existing,
                batch=args.batch,
                progress=progress,
                sink=writer.write if writer else None,
                play=play,
                stop=lambda: guard.stop,
                raw=args.raw,
            )
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    finally:
        if progress:
            progress.close()
        if recorder is not None:
            recorder.close()
    try:
        if writer is not None:
            writer.close()
    except StudyError as e:
        raise CliError(str(e)) from None
    if not len(study.rows["deal"]):
        print("interrupted before any game finished", file=sys.stderr)
        return 130
    print(study.summary())
    if args.out:
        print(f"results: {args.out} ({len(study.rows['deal']):,} rows, one per game and seat)")
    if recorder is not None:
        print(f"records: {records} ({recorder.games:,} games)")
    if args.report:
        from carcassonne.studies.report import write_report

        try:
            print(f"report: {write_report(study, args.report)}")
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


def _check_common(args: argparse.Namespace) -> None:
    check_run_options(args)
    try:
        args.metric = check_metric(args.metric)
    except StudyError as e:
        raise CliError(str(e)) from None
    if args.batch is not None and args.batch < 1:
        raise CliError(f"--batch must be at least 1, got {args.batch}")


def _one_player_count(args: argparse.Namespace) -> int:
    players = _players(args.players)
    if len(players) != 1:
        raise CliError(f"{args.command} plays one player count: use study for several")
    return players[0]


def _skill(policy: str, players: int) -> str:
    try:
        return skill_of(policy, players)
    except StudyError as e:
        raise CliError(str(e)) from None


# -- the commands --------------------------------------------------------------------------


def run_simulate(args: argparse.Namespace) -> int:
    rules = parse_rules(once(args.rule))
    players = _one_player_count(args)
    _check_common(args)
    agents = _agents(args.policy, players)
    if agents is None:
        skill = _skill(args.policy, players)
    else:
        names = [getattr(a, "name", None) or type(a).__name__ for a in agents]
        skill = ",".join(names) if len(set(names)) > 1 else names[0]
    plan = Plan(
        variants={args.name or rules_label(rules): rules},
        skills=[skill],
        players=[players],
        seed=args.seed,
        rotate_seats=False,
        ties=args.ties,
        metric=args.metric,
        luck=args.luck,
    )
    return _play_study(args, plan, agents=agents, records=args.records)


def run_compare(args: argparse.Namespace) -> int:
    variants = parse_variants(args.variant, args.rule)
    if len(variants) < 2:
        raise CliError(
            "compare needs at least two --variant NAME:option=value,... "
            "(e.g. --variant C3 --variant small:small_city=on)"
        )
    players = _one_player_count(args)
    _check_common(args)
    if _agents(args.policy, players) is not None:
        raise CliError(f"compare runs native policies only: {', '.join(POLICIES)} (one per seat)")
    plan = Plan(
        variants=_baseline_first(variants, args.baseline),
        skills=[_skill(args.policy, players)],
        players=[players],
        seed=args.seed,
        rotate_seats=False,
        ties=args.ties,
        metric=args.metric,
        luck=args.luck,
    )
    return _play_study(args, plan)


def run_study(args: argparse.Namespace) -> int:
    levels, option = list(args.skill or []), "--skill"
    if args.policy is not None:
        if levels:
            raise CliError("give --skill or --policy, not both")
        levels, option = [args.policy], "--policy"
    levels = levels or ["random"]
    variants = parse_variants(args.variant, args.rule)
    if args.grid and variants:
        raise CliError("give --variant or --grid, not both")
    grid = _grid_specs(args)
    try:
        players = _players(args.players)
        skills = parse_skills(levels, option=option)
        for p in players:
            parse_skills(levels, p, option)
        until = parse_until(args.until)
        cells = math.prod(len(v) for _, v in grid) if grid else max(1, len(variants))
        first = min(args.games, args.batch or FIRST_BATCH)
        check_size(cells * len(skills) * len(players), first, args.many_cells)
    except StudyError as e:
        raise CliError(str(e)) from None
    if grid:
        variants = _grid(args, grid)
    if not variants:
        variants[args.name or "default"] = parse_rules(once(args.rule))
    _check_common(args)
    if args.trajectories < 0:
        raise CliError(f"--trajectories must be >= 0, got {args.trajectories}")
    plan = Plan(
        variants=_baseline_first(variants, args.baseline),
        skills=skills,
        players=players,
        seed=args.seed,
        rotate_seats=args.rotate_seats,
        ties=args.ties,
        metric=args.metric,
        luck=args.luck,
    )
    try:
        return _play_study(args, plan, until=until, trajectories=args.trajectories)
    except StudyError as e:
        raise CliError(str(e)) from None


# -- parsers -------------------------------------------------------------------------------


def _add_study_args(p: argparse.ArgumentParser, games: str = "games to play") -> None:
    p.add_argument("-n", "--games", type=int, default=1000, help=f"{games} (1000)")
    p.add_argument("-s", "--seed", type=int, default=0, help="master seed (0)")
    p.add_argument("-t", "--threads", type=int, default=0, help="threads, 0 = all cores (0)")
    p.add_argument("-o", "--rule", action="append", metavar="NAME=VALUE", help=rule_help())
    p.add_argument(
        "--ties",
        choices=TIES,
        default="split",
        help="a shared win counts 1/k for each of k tied seats (split, default) or whole",
    )
    p.add_argument(
        "--metric",
        default="advantage",
        help="the question: "
        + "; ".join(f"{k}: {v}" for k, v in METRICS.items())
        + " (default advantage)",
    )
    p.add_argument(
        "--batch",
        "--chunk",
        type=int,
        default=None,
        help="deals per batch (default: 500, doubling to 16000; never changes the rows)",
    )
    p.add_argument(
        "--out",
        metavar="FILE",
        type=path_arg,
        help="stream one row per game and seat to FILE (.parquet, .csv or .jsonl)",
    )
    p.add_argument("--format", choices=("parquet", "csv", "jsonl"), help="table format of --out")
    p.add_argument("--append", action="store_true", help="go on with the study in --out")
    p.add_argument(
        "--report",
        metavar="DIR",
        type=path_arg,
        help="write report.html, summary and plots to DIR",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on Dask (tcp://host:8786, or 'local' for a local cluster) or on Ray "
        "('ray', or ray:ADDRESS); the same rows as one machine",
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
    p.add_argument(
        "--luck",
        action="store_true",
        help="measure each game's luck while playing (slower) and answer luck-adjusted: "
        "the same question with less variance (docs/studies.md)",
    )
    p.add_argument(
        "--raw", action="store_true", help="answer without the luck adjustment (as measured)"
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress line")
    p.add_argument(
        "--overwrite", action="store_true", help="replace output files that already exist"
    )


POLICY_HELP = (
    "policy for every seat, or exactly one per seat separated by commas: a native player ("
    + policies_help()
    + "), e.g. expert,greedy or mcts:playouts=1000,greedy (default random)"
)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate",
        help="play many games of one rule set and summarise them (a study of one variant)",
        description="Play many whole games and summarise them: a study of one variant and "
        "one policy. Ctrl-C stops after the games in progress and keeps every finished game.",
    )
    _add_study_args(p)
    p.add_argument("-p", "--players", default="2", help="players, 2 to 6 (2)")
    p.add_argument("--policy", default="random", help=POLICY_HELP)
    p.add_argument("--name", help="the variant's name in --out (default: its options)")
    p.add_argument(
        "--records",
        metavar="FILE",
        type=path_arg,
        help="keep every game's record as JSON Lines (native policies: each game is played "
        "again natively to record it, so it costs about twice the time)",
    )
    p.epilog = (
        "Python agents: --policy mypkg.mymodule:MyAgent or ./my_agents.py:MyAgent (an object "
        "with choose(game, moves); see carcassonne.players), alone or per seat beside native "
        "policies (which then play through Python)."
    )
    p.set_defaults(func=run_simulate, append=False)

    c = sub.add_parser(
        "compare",
        help="compare rule variants on the same deals (a study of several variants)",
        description="Play every variant on the same deals and answer, for seat 1, the "
        "difference of win rate and score from the baseline with 95% intervals, paired by "
        "deal: a study of several variants and one policy.",
        epilog="example: carcassonne compare -n 20000 -o river=off --variant C3 "
        "--variant small:small_city=on",
    )
    _add_study_args(c)
    c.add_argument("-p", "--players", default="2", help="players, 2 to 6 (2)")
    c.add_argument("--policy", default="random", help=POLICY_HELP)
    c.add_argument(
        "--variant",
        action="append",
        metavar="NAME:OPT=VAL,...",
        help="a variant: a name, then its rule options on top of the -o ones (repeat, 2+)",
    )
    c.add_argument("--baseline", help="the variant the others are compared with (the first)")
    c.set_defaults(func=run_compare)

    s = sub.add_parser(
        "study",
        help="a balance study: variants x skill levels x player counts, one answer",
        description="Play every variant at every skill level and player count on the same "
        "deals (seat orders rotated with --rotate-seats), and answer with 95% intervals: seat "
        "win rates, first-player advantage, balance, margins, lead changes, points by source, "
        "each variant's paired effect on the question (--metric) and, with several skill "
        "levels, whether that effect depends on skill.",
        epilog="example: carcassonne study --skill greedy --variant base "
        "--variant ft:fortune_teller=on --until 'ci<1' -n 200000 --out ft.parquet --report ft",
    )
    _add_study_args(s, "deals per cell, at most")
    s.add_argument("-p", "--players", default="2", help="player counts, e.g. 2 or 2,3,4 (2)")
    s.add_argument(
        "--skill",
        action="append",
        metavar="POLICY[,POLICY...]",
        help="a skill level (repeat for several): one native policy for every seat "
        f"({', '.join(POLICIES)}, e.g. expert or mcts:playouts=500) or one per seat separated "
        "by commas (greedy,random), as --policy writes it; e.g. --skill greedy --skill "
        "expert,greedy (default random)",
    )
    s.add_argument("--policy", help="the same as one --skill (as simulate and compare write it)")
    s.add_argument(
        "--variant",
        action="append",
        metavar="NAME[:OPT=VAL,...]",
        help="a variant on top of the -o options (repeat; the first is the baseline)",
    )
    s.add_argument(
        "--grid",
        action="append",
        metavar="OPT=V1,V2",
        help="vary an option over values; several --grid: every combination is a variant",
    )
    s.add_argument(
        "--many-cells",
        action="store_true",
        help=f"play a study of more than {MAX_CELLS:,} cells (variants x skill levels x player "
        "counts), which is refused otherwise",
    )
    s.add_argument("--name", help="the variant's name when there is only one (default)")
    s.add_argument("--baseline", help="the variant the others are compared with (the first)")
    s.add_argument(
        "--rotate-seats",
        action="store_true",
        help="play every deal once per seat order (for levels with different seat policies)",
    )
    s.add_argument(
        "--until",
        metavar="'ci<X'",
        help="stop once the headline difference's 95%% interval half-width is below X "
        "percentage points (-n is then the limit)",
    )
    s.add_argument(
        "--trajectories",
        type=int,
        default=0,
        metavar="N",
        help="replay the first N deals of each cell for per-turn scores: lead changes, the "
        "turn the winner took the lead for good, figures left unused (slow: Python)",
    )
    s.set_defaults(func=run_study)
