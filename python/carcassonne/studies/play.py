"""Playing a study: its cells deal batch by deal batch (on this machine or an executor), each
batch's rows handed on as they come (to a table writer), until the game limit or the stopping
target; going on with an earlier run of the same study; per-turn trajectories replayed."""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import numpy as np

from carcassonne import _core
from carcassonne.errors import quote
from carcassonne.policies import check_policy, parsed_policy, seat_texts
from carcassonne.rules import Rules
from carcassonne.studies.analysis import Study
from carcassonne.studies.batch import game_seed
from carcassonne.studies.plan import (
    FIRST_BATCH,
    TIES,
    CellKey,
    Plan,
    StudyError,
    canonical_skill,
    check_metric,
    parse_skills,
    parse_until,
    rotated,
    rotations,
)
from carcassonne.studies.results import Results
from carcassonne.studies.simulate import simulate
from carcassonne.studies.stats import Estimate
from carcassonne.studies.table import (
    TableWriter,
    concat,
    format_of,
    read_table,
    rows_of,
    rules_label,
)

# A batch of games of one cell in one seat order: (rules, games, players, policy, master
# seed, first deal) -> Results. The default plays native policies here or on the executor.
Play = Callable[[Rules, int, int, str, int, int], Results]
# Receives each batch's rows as soon as they are played (a table writer).
Sink = Callable[[Mapping[str, np.ndarray]], None]


# -- per-turn trajectories (replayed) ------------------------------------------------------


def trajectory(rules: Rules, players: int, seed: int, policies: Sequence[str]) -> dict[str, Any]:
    """A native game replayed move by move from its seed: each seat's score after every
    turn and after final scoring, the lead changes, the turn the sole winner took the lead
    for good (turns + 1: only at final scoring; -1 on a shared win) and the figures left in
    each supply at the end."""
    from carcassonne.game import Game

    try:
        policy = check_policy(",".join(policies), players)
        texts = _core.game_moves(players, seed, parsed_policy(policy), rules=rules)
    except ValueError as e:
        raise StudyError(f"trajectories: {e}") from None
    game = Game(rules, players, seed=seed)
    points: list[list[int]] = []
    turn = game.turn
    for text in texts:
        game.play(text)
        if game.turn != turn:
            turn = game.turn
            points.append(list(game.scores))
    final = list(game.scores)
    if not points or points[-1] != final:
        points.append(final)
    return summarise_path(points, [sum(game.supply(p).values()) for p in range(players)])


def summarise_path(points: list[list[int]], unused: list[int]) -> dict[str, Any]:
    """Lead changes and the turn of the winner's last taking of the lead, from the scores
    after each turn (the last entry: the final scores)."""
    leaders: list[int | None] = []
    for row in points:
        top = max(row)
        leaders.append(row.index(top) if row.count(top) == 1 else None)
    changes, last = 0, None
    for who in leaders:
        if who is not None:
            if last is not None and who != last:
                changes += 1
            last = who
    winner = leaders[-1]
    lead_turn = -1
    if winner is not None:
        t = len(leaders)
        while t > 0 and leaders[t - 1] == winner:
            t -= 1
        lead_turn = t + 1
    players = len(points[0])
    return {
        "trajectory": [[row[p] for row in points] for p in range(players)],
        "lead_changes": changes,
        "lead_turn": lead_turn,
        "figures_unused": unused,
    }


# -- running -------------------------------------------------------------------------------


def _next_batch(
    n: int, done: int, head: Estimate | None, until: float | None, scale: int = 100
) -> int:
    """The next batch of deals: doubling (500, 1000, ... 16000); with a stopping target, the
    deals the current interval says are still needed (10% spare), at least 500 and at most
    as many as were played. Batches depend only on the study's results, which do not depend
    on the machine, so stopping is reproducible."""
    if until is not None and head is not None and head.n > 1 and math.isfinite(head.half):
        # Capped: a target far below the interval (ci<1e-300) asks for "many more", and
        # squaring the ratio would overflow.
        ratio = min(scale * head.half / until, 1e6)
        needed = math.ceil(head.n * ratio**2 * 1.1) - head.n
        return max(500, min(needed, max(done, 500)))
    return min(2 * n, 16_000)


def run(
    plan: Plan,
    games: int = 1000,
    *,
    threads: int = 0,
    executor: Executor | None = None,
    workers: int | None = None,
    until: float | None = None,
    trajectories: int = 0,
    existing: Mapping[str, np.ndarray] | None = None,
    batch: int | None = None,
    progress: Callable[[int, int, int, float, Any], None] | None = None,
    sink: Sink | None = None,
    play: Play | None = None,
    stop: Callable[[], bool] | None = None,
    raw: bool = False,
) -> Study:
    """Play the study's cells deal batch by deal batch (``games`` deals per cell at most)
    until, with ``until``, the headline difference's interval half-width (percentage points)
    is below it. ``existing``: rows of an earlier run of the same study; each cell continues
    after its last deal. ``sink`` receives every batch's rows as they come; ``play`` plays a
    batch of one cell in one seat order (default: native policies, here or on
    ``executor``; another one, Python agents, names its seats itself). ``stop()`` true (a
    first Ctrl-C, on the command line) or ``KeyboardInterrupt`` stops after the batch in
    progress: the study then holds every finished batch and ``interrupted`` is set. ``raw``:
    estimates (and the stopping rule) without the luck adjustment."""
    _check_plan(plan, games, native=play is None)
    if trajectories < 0:
        raise StudyError(f"trajectories must be >= 0, got {trajectories}")
    if trajectories:
        _check_trajectories(plan)
    parts: list[Mapping[str, np.ndarray]] = []
    start_deal: dict[CellKey, int] = {}
    if existing is not None and len(existing["deal"]):
        parts.append(existing)
        start_deal = _check_existing(plan, existing)
    first = min((start_deal.get(c, 0) for c in plan.cells()), default=0)
    study = Study(plan, concat(parts), raw=raw)
    start = time.perf_counter()
    played = 0
    interrupted = False
    new: list[Mapping[str, np.ndarray]] = []
    if play is None:

        def play(rules: Rules, n: int, p: int, policy: str, seed: int, first: int) -> Results:
            return simulate(
                rules, n, p, policy, seed, threads, executor=executor, first=first, luck=plan.luck
            )

    try:
        done, n = first, batch or FIRST_BATCH
        while done < games:
            f, n = done, min(n, games - done)
            for cell in plan.cells():
                lo = max(f, start_deal.get(cell, 0))
                if lo >= f + n:
                    continue
                rows = _play_cell(plan, cell, lo, f + n - lo, play, trajectories)
                new.append(rows)
                if sink is not None:
                    sink(rows)
                played += (f + n - lo) * rotations(cell.skill, cell.players, plan.rotate_seats)
                if stop is not None and stop():
                    raise KeyboardInterrupt
            study = Study(plan, concat([*parts, *new]), raw=raw)
            head = study.headline()
            if progress:
                progress(f + n, games, played, time.perf_counter() - start, head)
            if until is not None and study.meets(until):
                break
            done = f + n
            if batch is None:
                n = _next_batch(n, done, head, until, study.scale)
    except KeyboardInterrupt:
        interrupted = True
        study = Study(plan, concat([*parts, *new]), raw=raw)
    study.elapsed = time.perf_counter() - start
    study.played = played
    study.workers = workers if executor is not None else None
    study.threads = threads or os.cpu_count() or 1
    study.interrupted = interrupted
    study.until = until
    return study


def _check_trajectories(plan: Plan) -> None:
    """Trajectories replay games from their seeds: refuse, before playing anything, a skill
    level whose games cannot be replayed."""
    rules = next(iter(plan.variants.values()))
    for p in plan.players:
        for k in plan.skills:
            trajectory(rules, p, game_seed(plan.seed, 0), rotated(k, p, 0))


def _check_plan(plan: Plan, games: int, native: bool = True) -> None:
    if not plan.variants:
        raise StudyError("a study needs at least one variant")
    check_metric(plan.metric)
    if plan.ties not in TIES:
        raise StudyError(f"ties must be one of {', '.join(TIES)}, not {plan.ties!r}")
    if plan.baseline is not None and plan.baseline not in plan.variants:
        raise StudyError(f"baseline {plan.baseline!r} is not one of: {', '.join(plan.variants)}")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= 2**40:
        raise StudyError(f"games must be an int from 1 to 2**40, got {games!r}")
    if not plan.skills:
        raise StudyError("a study needs at least one skill level")
    if not plan.players:
        raise StudyError("a study needs at least one player count")
    for p in plan.players:
        if isinstance(p, bool) or not isinstance(p, int) or not 2 <= p <= 6:
            raise StudyError(f"players must be from 2 to 6, got {p!r}")
        for k in plan.skills if native else ():
            canonical_skill(k, p)
    for name, rules in plan.variants.items():
        if not isinstance(rules, Rules):
            raise StudyError(f"variant {quote(name)}: rules must be a Rules")
        for p in plan.players:
            _check_playable(name, rules, p)


def _check_playable(name: str, rules: Rules, players: int) -> None:
    """One game of every variant and player count, so that tile counts that make the game
    impossible fail before anything is played or written."""
    try:
        simulate(rules, 1, players, "random", 0, 1)
    except (ValueError, RuntimeError) as e:
        raise StudyError(
            f"variant {quote(name)} with {players} players cannot be played: {e}"
        ) from None


def _check_existing(plan: Plan, rows: Mapping[str, np.ndarray]) -> dict[CellKey, int]:
    """Where each cell of an earlier run stops (its next deal); the earlier run must be the
    same study (master seed, rules of each variant, seat orders, ties)."""
    versions = set(rows["deal_version"].tolist())
    if versions and versions != {_core.DEAL_VERSION}:
        raise StudyError(
            f"cannot append: the table's seeds were dealt by deal version {sorted(versions)[0]}, "
            f"this engine deals version {_core.DEAL_VERSION} (its deals would not pair with the "
            "new ones): start a new table"
        )
    measured = bool(len(rows["deal"])) and bool((rows["luck_events"] > 0).all())
    if measured != plan.luck:
        raise StudyError(
            "cannot append: the table's games "
            + ("had their luck measured: give --luck" if measured else "had no luck measured")
            + " (every game of a table is played one way, so that its estimates are adjusted)"
        )
    masters = set(rows["master"].tolist())
    if masters != {plan.seed}:
        raise StudyError(
            f"cannot append: the table was played with master seed {sorted(masters)[0]}, "
            f"not {plan.seed} (its deals would not pair with the new ones)"
        )
    out: dict[CellKey, int] = {}
    labels = {v: rules_label(r) for v, r in plan.variants.items()}
    keys = zip(rows["variant"], rows["skill"], rows["players"], strict=True)
    seen: dict[tuple[str, str, int], int] = {}
    for i, key in enumerate(keys):
        if key not in seen:
            seen[key] = i
    for (v, k, p), i in seen.items():
        if v in labels and rows["rules"][i] != labels[v]:
            raise StudyError(
                f"cannot append: variant {quote(v)} had rules {rows['rules'][i]!r} in the table, "
                f"now {labels[v]!r}"
            )
        if v in labels and k in plan.skills and p in plan.players:
            nrot = rotations(k, p, plan.rotate_seats)
            if int(rows["rotations"][i]) != nrot:
                raise StudyError(
                    f"cannot append: cell {v} | {k} | {p} players was played in "
                    f"{rows['rotations'][i]} seat orders, now {nrot} (--rotate-seats must match)"
                )
            mask = (rows["variant"] == v) & (rows["skill"] == k) & (rows["players"] == p)
            out[CellKey(v, k, p)] = int(rows["deal"][mask].max()) + 1
    tied = rows["won"] & (rows["margin"] == 0)
    if tied.any():
        counted = "split" if (rows["win_share"][tied] < 1).all() else "whole"
        if counted != plan.ties:
            raise StudyError(
                f"cannot append: the table counts shared wins as {counted!r}, not "
                f"{plan.ties!r} (--ties)"
            )
    return out


def _play_cell(
    plan: Plan,
    cell: CellKey,
    first: int,
    n: int,
    play: Play,
    trajectories: int,
) -> dict[str, np.ndarray]:
    rules = plan.variants[cell.variant]
    nrot = rotations(cell.skill, cell.players, plan.rotate_seats)
    parts = []
    for r in range(nrot):
        policy = ",".join(rotated(cell.skill, cell.players, r))
        res = play(rules, n, cell.players, policy, plan.seed, first)
        paths = {}
        for d in range(first, min(first + n, trajectories)):
            seed = int(res.seed[d - first])
            paths[d] = trajectory(rules, cell.players, seed, seat_texts(policy))
        parts.append(
            rows_of(
                res,
                variant=cell.variant,
                skill=cell.skill,
                policies=res.seat_policies(),
                rotation=r,
                rotations=nrot,
                ties=plan.ties,
                paths=paths,
            )
        )
    return concat(parts)


def load(path: str | os.PathLike[str]) -> Study:
    """A study read back from its table (``carcassonne study --out``)."""
    return Study(None, read_table(path))


def study(
    variants: Mapping[str, Rules] | Rules | None = None,
    games: int = 1000,
    *,
    skills: str | Sequence[str] = "random",
    players: int | Sequence[int] = 2,
    seed: int = 0,
    rotate_seats: bool = False,
    ties: str = "split",
    baseline: str | None = None,
    metric: str = "advantage",
    until: float | str | None = None,
    trajectories: int = 0,
    threads: int = 0,
    executor: Executor | None = None,
    batch: int | None = None,
    out: str | os.PathLike[str] | None = None,
    append: bool = False,
    luck: bool = False,
) -> Study:
    """Run a balance study from Python (as ``carcassonne study``).

    ``variants``: name -> Rules (the first is the baseline), or one Rules. ``skills``: one
    skill level (``"greedy"``; ``"greedy,random"`` is one policy per seat, as ``policy``
    writes it) or a list of levels (``["random", "greedy,random"]``).
    ``games``: deals per cell (at most, with ``until``: a half-width in percentage points or
    ``"ci<0.5"``). ``metric``: the question (:data:`carcassonne.studies.plan.METRICS`).
    ``out``: write the table there (``append``: continue the study in it). ``luck``:
    measure each game's luck while playing, for luck-adjusted estimates (docs/studies.md).

    >>> s = study({"C3": Rules(), "small": Rules(small_city=True)}, 200, skills="random")
    >>> d = s.differences()[0]   # small minus C3, seat 1's win rate, paired by deal
    """
    if variants is None or isinstance(variants, Rules):
        variants = {"default" if variants is None else rules_label(variants): variants or Rules()}
    if not isinstance(variants, Mapping):
        raise StudyError("variants must be a mapping name -> Rules, or one Rules")
    counts = [players] if isinstance(players, int) else list(players)
    levels = parse_skills(skills)
    plan = Plan(
        variants=dict(variants),
        skills=levels,
        players=counts,
        seed=seed,
        rotate_seats=rotate_seats,
        ties=ties,
        baseline=baseline,
        metric=metric,
        luck=luck,
    )
    target = parse_until(until) if isinstance(until, str) else until
    return _run_to(
        out,
        append,
        plan,
        games,
        threads=threads,
        executor=executor,
        until=target,
        trajectories=trajectories,
        batch=batch,
    )


def compare(
    variants: Mapping[str, Rules],
    games: int = 1000,
    players: int = 2,
    policy: str | Sequence[str] = "random",
    seed: int = 0,
    threads: int = 0,
    *,
    ties: str = "split",
    baseline: str | None = None,
    metric: str = "advantage",
    executor: Executor | None = None,
    chunk: int | None = None,
    out: str | os.PathLike[str] | None = None,
    luck: bool = False,
) -> Study:
    """Play every variant on the same deals with native ``policy`` (one for every seat, or
    one per seat) and compare each with the baseline (the first, or ``baseline``), paired by
    deal: a study of one skill level and one player count (``.summary()``,
    ``.differences()``, ``.answer()``)."""
    if not isinstance(variants, Mapping) or len(variants) < 2:
        raise StudyError("compare needs a mapping of two or more variants: name -> Rules")
    plan = Plan(
        variants=dict(variants),
        skills=[skill_of(policy, players)],
        players=[players],
        seed=seed,
        rotate_seats=False,
        ties=ties,
        baseline=baseline,
        metric=metric,
        luck=luck,
    )
    return _run_to(out, False, plan, games, threads=threads, executor=executor, batch=chunk)


def skill_of(policy: str | Sequence[str], players: int) -> str:
    """A policy (one for every seat, or one per seat) -> the skill level it is (its canonical
    text)."""
    try:
        text = check_policy(policy, players)
    except ValueError as e:
        raise StudyError(str(e)) from None
    return canonical_skill(text, players)


def start_table(
    out: str | os.PathLike[str],
    existing: Mapping[str, np.ndarray] | None,
    meta: Any = None,
    fmt: str | None = None,
) -> TableWriter:
    """A writer for a study's table: a new file, or (going on with ``existing`` rows) a
    temporary file holding them that replaces ``out`` when the run ends, so that a run
    killed while appending leaves ``out`` as it was."""
    writer = TableWriter(out, fmt, meta=meta, temporary=existing is not None)
    if existing is not None:
        try:
            writer.write(existing)
        except BaseException:
            writer.abort()
            raise
    return writer


def _run_to(
    out: str | os.PathLike[str] | None, append: bool, plan: Plan, games: int, **kw: Any
) -> Study:
    """:func:`run`, its rows streamed to the table ``out`` (``append``: going on with it)."""
    if out is None:
        return run(plan, games, **kw)
    format_of(out)
    existing = read_table(out, partial_tail=True) if append and Path(out).exists() else None
    if existing is not None:
        _check_existing(plan, existing)  # before anything is written
    writer = start_table(out, existing)
    try:
        result = run(plan, games, existing=existing, sink=writer.write, **kw)
    except BaseException:
        writer.abort()
        raise
    writer.close()
    return result
