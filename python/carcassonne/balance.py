"""Balance studies: one designer's question, answered with its uncertainty.

A study is a grid of *cells*, one per (rule variant, skill level, player count). Every cell
plays the same deals (game g uses ``game_seed(master, g)`` whatever the cell: common random
numbers), and with ``rotate_seats`` each deal is played once per seat order, so that a
mixed table of players (``greedy/random``) has every player in every seat on the same tiles.

The unit of analysis is the *deal*: per-deal averages over its seat orders are independent,
so every interval here is a normal-approximation 95% interval of a mean over deals (a
bootstrap over deals for the non-linear balance metric). The headline difference of a study
(seat 1's win rate in each variant minus the baseline, paired by deal) is reported with the
variance it would have had from the same number of unpaired, unrotated games.

A skill level is one native policy for every seat (``greedy``) or one per seat joined by
``/`` (``greedy/random``); ``--skill`` lists levels separated by commas.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from carcassonne import _core
from carcassonne.batch import game_seed
from carcassonne.errors import quote
from carcassonne.policies import check_policy
from carcassonne.results import Results
from carcassonne.rules import Rules
from carcassonne.rules import rules_label as _rules_label
from carcassonne.simulate import simulate
from carcassonne.stats import Estimate, clip01, estimate, holm, spread_interval

SOURCES: tuple[str, ...] = tuple(_core.SOURCES)
TIES = ("split", "whole")


class StudyError(ValueError):
    """Bad study input (a skill, a grid, a table to append to): one clear line."""


# -- parsing -------------------------------------------------------------------------------


def parse_skills(text: str | Sequence[str], players: int | None = None) -> list[str]:
    """``"random,greedy,mcts:playouts=500"`` -> skill levels in canonical policy text (one per
    level; a level with one policy per seat is written ``greedy/random``)."""
    items = [text] if isinstance(text, str) else list(text)
    levels: list[str] = []
    for item in items:
        if not isinstance(item, str):
            raise StudyError(f"a skill level must be a text, not {type(item).__name__}")
        for level in item.split(","):
            level = level.strip()
            if not level:
                raise StudyError(f"empty skill level in {quote(item)}")
            levels.append(canonical_skill(level, players))
    if len(set(levels)) != len(levels):
        raise StudyError(f"a skill level is given twice: {', '.join(levels)}")
    return levels


def canonical_skill(level: str, players: int | None = None) -> str:
    seats = [s.strip() for s in level.split("/")]
    try:
        text = check_policy(",".join(seats))
    except ValueError as e:
        raise StudyError(f"unknown skill level {quote(level)}: {e}") from None
    seats = text.split(",")
    if players is not None and len(seats) not in (1, players):
        raise StudyError(
            f"skill level {quote(level)} names {len(seats)} seats for {players} players: give one "
            "policy for every seat, or exactly one per seat joined by '/'"
        )
    return "/".join(seats)


def seat_policies(skill: str, players: int) -> list[str]:
    """The policy of each seat (in the first seat order) of a skill level."""
    seats = skill.split("/")
    if len(seats) == 1:
        return seats * players
    if len(seats) != players:
        raise StudyError(f"skill level {skill!r} has {len(seats)} seats, not {players}")
    return seats


def rotations(skill: str, players: int, rotate: bool) -> int:
    """Seat orders a deal is played in: P when rotating a level whose seats differ; 1 when
    every seat plays the same policy (native policies are deterministic for the seed, so a
    rotated deal would replay the same game) or without rotation."""
    seats = seat_policies(skill, players)
    return players if rotate and len(set(seats)) > 1 else 1


def rotated(skill: str, players: int, r: int) -> list[str]:
    """Seat policies in seat order ``r``: player j (who sits at seat j in order 0) sits at
    seat (j + r) mod P."""
    seats = seat_policies(skill, players)
    return [seats[(s - r) % players] for s in range(players)]


def parse_until(text: str | None) -> float | None:
    """``'ci<0.5'`` -> 0.5: stop when the headline difference's 95% interval half-width is
    below 0.5 percentage points."""
    if text is None:
        return None
    t = text.replace(" ", "").lower()
    if not t.startswith("ci<"):
        raise StudyError(f"--until {quote(text)}: write ci<X (X: interval half-width in pp)")
    try:
        x = float(t[3:].rstrip("%").removesuffix("pp"))
    except ValueError:
        raise StudyError(f"--until {quote(text)}: {quote(t[3:])} is not a number") from None
    if not 0 < x < 100 or not math.isfinite(x):
        raise StudyError(f"--until {quote(text)}: the half-width must be between 0 and 100 pp")
    return x


def grid_variants(
    base: Rules, grid: Sequence[tuple[str, Sequence[Any]]], parse: Callable[[list[str]], Rules]
) -> dict[str, Rules]:
    """The cartesian product of ``[(option, [value texts])...]`` on top of ``base`` options
    (given as ``-o`` texts to ``parse``): name -> Rules, named ``opt=val,opt=val``."""
    out: dict[str, Rules] = {}
    names = [n for n, _ in grid]
    if len(set(names)) != len(names):
        raise StudyError(f"an option is gridded twice: {', '.join(names)}")
    for combo in itertools.product(*(vals for _, vals in grid)):
        items = [f"{n}={v}" for n, v in zip(names, combo, strict=True)]
        out[",".join(items)] = parse(items)
    return out


# -- the rows of a study -------------------------------------------------------------------

# column -> kind ('s' text, 'i' integer, 'u' unsigned 64, 'f' float, 'b' bool)
COLUMNS: dict[str, str] = {
    "master": "u",
    "variant": "s",
    "rules": "s",
    "skill": "s",
    "players": "i",
    "deal": "i",
    "rotation": "i",
    "rotations": "i",
    "seed": "u",
    "seat": "i",
    "player": "i",
    "policy": "s",
    "score": "i",
    "won": "b",
    "win_share": "f",
    "rank": "i",
    "margin": "i",
    "turns": "i",
    "discarded": "i",
    **{f"points_{s}": "i" for s in SOURCES},
    "lead_changes": "i",
    "lead_turn": "i",
    "figures_unused": "i",
    "trajectory": "s",
}
_DTYPES = {"s": object, "i": np.int64, "u": np.uint64, "f": np.float64, "b": bool}


def rules_label(rules: Rules) -> str:
    """The options of ``rules`` that differ from the defaults (``default`` when none), joined
    by ``;`` (a variant's options may hold commas, as tile counts do)."""
    return _rules_label(rules, ";")


def _rows(
    res: Results,
    *,
    master: int,
    variant: str,
    rules_text: str,
    skill: str,
    r: int,
    nrot: int,
    ties: str,
    paths: Mapping[int, dict[str, Any]],
) -> dict[str, np.ndarray]:
    """One row per game and seat of a batch played in seat order ``r``."""
    g, p = len(res), res.players
    scores = res.scores.astype(np.int64)
    won = res.won()
    k = won.sum(axis=1)
    share = won / (k[:, None] if ties == "split" else 1)
    ordered = np.sort(scores, axis=1)
    margin = ordered[:, -1] - ordered[:, -2]
    rank = 1 + (scores[:, None, :] > scores[:, :, None]).sum(axis=2)
    deals = res.games()
    policies = rotated(skill, p, r)
    cols: dict[str, np.ndarray] = {
        "master": np.full(g * p, master, np.uint64),
        "variant": np.full(g * p, variant, object),
        "rules": np.full(g * p, rules_text, object),
        "skill": np.full(g * p, skill, object),
        "players": np.full(g * p, p, np.int64),
        "deal": np.repeat(deals, p),
        "rotation": np.full(g * p, r, np.int64),
        "rotations": np.full(g * p, nrot, np.int64),
        "seed": np.repeat(res.seed.astype(np.uint64), p),
        "seat": np.tile(np.arange(p, dtype=np.int64), g),
        "player": np.tile((np.arange(p, dtype=np.int64) - r) % p, g),
        "policy": np.tile(np.array(policies, object), g),
        "score": scores.reshape(-1),
        "won": won.reshape(-1),
        "win_share": share.reshape(-1).astype(np.float64),
        "rank": rank.reshape(-1).astype(np.int64),
        "margin": np.repeat(margin, p),
        "turns": np.repeat(res.turns.astype(np.int64), p),
        "discarded": np.repeat(res.discarded.astype(np.int64), p),
    }
    for s, name in enumerate(res.sources):
        cols[f"points_{name}"] = res.breakdown[:, :, s].astype(np.int64).reshape(-1)
    lead_changes = np.full(g * p, -1, np.int64)
    lead_turn = np.full(g * p, -1, np.int64)
    unused = np.full(g * p, -1, np.int64)
    traj = np.full(g * p, "", object)
    for i, d in enumerate(deals):
        path = paths.get(int(d))
        if path is None:
            continue
        rows = slice(i * p, (i + 1) * p)
        lead_changes[rows] = path["lead_changes"]
        lead_turn[rows] = path["lead_turn"]
        unused[rows] = path["figures_unused"]
        traj[rows] = [" ".join(map(str, t)) for t in path["trajectory"]]
    cols.update(lead_changes=lead_changes, lead_turn=lead_turn, figures_unused=unused)
    cols["trajectory"] = traj
    return cols


# -- per-turn trajectories (replayed) ------------------------------------------------------


def trajectory(rules: Rules, players: int, seed: int, policies: Sequence[str]) -> dict[str, Any]:
    """A native game replayed move by move from its seed: each seat's score after every
    turn and after final scoring, the lead changes, the turn the sole winner took the lead
    for good (turns + 1: only at final scoring; -1 on a shared win) and the figures left in
    each supply at the end."""
    from carcassonne.game import Game

    try:
        policy = check_policy(",".join(policies), players)
        texts = _core.game_moves(players, seed, policy, rules=rules)
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


# -- tables --------------------------------------------------------------------------------


def table_format(path: str | os.PathLike[str]) -> str:
    suffix = Path(path).suffix.lower()
    fmt = {".csv": "csv", ".jsonl": "jsonl", ".parquet": "parquet"}.get(suffix)
    if fmt is None:
        raise StudyError(f"{os.fspath(path)}: a study table ends in .parquet, .csv or .jsonl")
    return fmt


def _concat(parts: Sequence[Mapping[str, np.ndarray]]) -> dict[str, np.ndarray]:
    if not parts:
        return {c: np.zeros(0, _DTYPES[k]) for c, k in COLUMNS.items()}
    return {
        c: np.concatenate([np.asarray(p[c], _DTYPES[k]) for p in parts]) for c, k in COLUMNS.items()
    }


def _typed(name: str, values: Sequence[Any]) -> np.ndarray:
    kind = COLUMNS[name]
    try:
        if kind == "b":
            return np.array([v in (True, 1, "1", "true", "True") for v in values], bool)
        if kind == "s":
            return np.array(["" if v is None else str(v) for v in values], object)
        return np.array([int(v) if kind != "f" else float(v) for v in values], _DTYPES[kind])
    except (TypeError, ValueError) as e:
        raise StudyError(f"column {name}: a value is not a {kind!r} number ({e})") from None


def read_table(path: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """A study table as numpy columns (checked: every column of :data:`COLUMNS`)."""
    fmt = table_format(path)
    p = Path(path)
    if not p.is_file():
        raise StudyError(f"{os.fspath(path)}: no such study table")
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            data = pq.read_table(p).to_pydict()
        elif fmt == "csv":
            import csv

            with p.open(newline="", encoding="utf-8") as f:
                reader = csv.DictReader(f)
                names = reader.fieldnames or []
                rows = list(reader)
            data = {n: [r[n] for r in rows] for n in names}
        else:
            data = {}
            with p.open(encoding="utf-8") as f:
                recs = [json.loads(line) for line in f if line.strip()]
            for n in COLUMNS:
                if recs and n not in recs[0]:
                    break
                data[n] = [r.get(n) for r in recs]
    except (OSError, ValueError, ImportError) as e:
        raise StudyError(f"{os.fspath(path)}: cannot read the study table ({e})") from None
    missing = [c for c in COLUMNS if c not in data]
    if missing:
        raise StudyError(
            f"{os.fspath(path)}: not a study table (no column {missing[0]!r}; "
            "tables of 'carcassonne study --out' only)"
        )
    cols = {c: _typed(c, data[c]) for c in COLUMNS}
    _check_rows(os.fspath(path), cols)
    return cols


def _check_rows(where: str, r: Mapping[str, np.ndarray]) -> None:
    """Values a study could not have written (a table edited by hand, or another file)."""
    p = r["players"]
    checks = [
        ("players", (p < 2) | (p > 6)),
        ("rotations", (r["rotations"] < 1) | (r["rotations"] > p)),
        ("rotation", (r["rotation"] < 0) | (r["rotation"] >= r["rotations"])),
        ("seat", (r["seat"] < 0) | (r["seat"] >= p)),
        ("player", (r["player"] < 0) | (r["player"] >= p)),
        ("deal", r["deal"] < 0),
        ("win_share", ~((r["win_share"] >= 0) & (r["win_share"] <= 1))),
        ("score", r["score"] < 0),
    ]
    for name, bad in checks:
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise StudyError(
                f"{where}: row {i + 1}: {name} {quote(r[name][i].item())} is not possible "
                "in a study table"
            )


def write_table(path: str | os.PathLike[str], cols: Mapping[str, np.ndarray]) -> None:
    """Write a whole study table atomically (a temporary file renamed over ``path``), so
    an interrupted or failed write leaves the previous file (or none) intact."""
    fmt = table_format(path)
    p = Path(path)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    try:
        if fmt == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            arrays = {c: pa.array(list(v) if COLUMNS[c] == "s" else v) for c, v in cols.items()}
            pq.write_table(pa.table(arrays), tmp)
        elif fmt == "csv":
            import csv

            with tmp.open("w", newline="", encoding="utf-8") as f:
                w = csv.writer(f)
                w.writerow(list(COLUMNS))
                lists = [_plain(cols[c]) for c in COLUMNS]
                w.writerows(zip(*lists, strict=True))
        else:
            with tmp.open("w", encoding="utf-8") as f:
                lists = [_plain(cols[c]) for c in COLUMNS]
                for row in zip(*lists, strict=True):
                    f.write(json.dumps(dict(zip(COLUMNS, row, strict=True))) + "\n")
        os.replace(tmp, p)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise StudyError(f"cannot write {os.fspath(path)}: {e.strerror or e}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _plain(col: np.ndarray) -> list[Any]:
    return col.tolist()


# -- running -------------------------------------------------------------------------------


@dataclass(frozen=True)
class CellKey:
    variant: str
    skill: str
    players: int


@dataclass
class Plan:
    """What a study plays: its cells and how."""

    variants: dict[str, Rules]
    skills: list[str]
    players: list[int]
    seed: int = 0
    rotate_seats: bool = True
    ties: str = "split"
    baseline: str | None = None

    def cells(self) -> list[CellKey]:
        return [CellKey(v, k, p) for p in self.players for k in self.skills for v in self.variants]


def _next_batch(n: int, done: int, head: Estimate | None, until: float | None) -> int:
    """The next batch of deals: doubling (500, 1000, ... 16000); with a stopping target, the
    deals the current interval says are still needed (10% spare), at least 500 and at most
    as many as were played. Batches depend only on the study's results, which do not depend
    on the machine, so stopping is reproducible."""
    if until is not None and head is not None and head.n > 1 and math.isfinite(head.half):
        needed = math.ceil(head.n * (100 * head.half / until) ** 2 * 1.1) - head.n
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
) -> Study:
    """Play the study's cells deal batch by deal batch (``games`` deals per cell at most)
    until, with ``until``, the headline difference's interval half-width (percentage points)
    is below it. ``existing``: rows of an earlier run of the same study; each cell continues
    after its last deal. ``KeyboardInterrupt`` stops between batches: the study then holds
    every finished batch and ``interrupted`` is set."""
    _check_plan(plan, games)
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
    study = Study(plan, _concat(parts))
    start = time.perf_counter()
    played = 0
    interrupted = False
    new: list[Mapping[str, np.ndarray]] = []
    try:
        done, n = first, batch or 500
        while done < games:
            f, n = done, min(n, games - done)
            for cell in plan.cells():
                lo = max(f, start_deal.get(cell, 0))
                if lo >= f + n:
                    continue
                new.append(_play_cell(plan, cell, lo, f + n - lo, threads, executor, trajectories))
                played += (f + n - lo) * rotations(cell.skill, cell.players, plan.rotate_seats)
            study = Study(plan, _concat([*parts, *new]))
            head = study.headline()
            if progress:
                progress(f + n, games, played, time.perf_counter() - start, head)
            if until is not None and head is not None and head.half * 100 < until:
                break
            done = f + n
            if batch is None:
                n = _next_batch(n, done, head, until)
    except KeyboardInterrupt:
        interrupted = True
        study = Study(plan, _concat([*parts, *new]))
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


def _check_plan(plan: Plan, games: int) -> None:
    if not plan.variants:
        raise StudyError("a study needs at least one variant")
    if plan.ties not in TIES:
        raise StudyError(f"ties must be one of {', '.join(TIES)}, not {plan.ties!r}")
    if plan.baseline is not None and plan.baseline not in plan.variants:
        raise StudyError(f"baseline {plan.baseline!r} is not one of: {', '.join(plan.variants)}")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= 2**40:
        raise StudyError(f"games must be an int from 1 to 2**40, got {games!r}")
    if not plan.skills:
        raise StudyError("a study needs at least one skill level")
    for p in plan.players:
        if isinstance(p, bool) or not isinstance(p, int) or not 2 <= p <= 6:
            raise StudyError(f"players must be from 2 to 6, got {p!r}")
        for k in plan.skills:
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
                    f"cannot append: cell {v}/{k}/{p}p was played in {rows['rotations'][i]} "
                    f"seat orders, now {nrot} (--rotate-seats must match)"
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
    threads: int,
    executor: Executor | None,
    trajectories: int,
) -> dict[str, np.ndarray]:
    rules = plan.variants[cell.variant]
    nrot = rotations(cell.skill, cell.players, plan.rotate_seats)
    parts = []
    for r in range(nrot):
        policy = ",".join(rotated(cell.skill, cell.players, r))
        res = simulate(
            rules, n, cell.players, policy, plan.seed, threads, executor=executor, first=first
        )
        paths = {}
        for d in range(first, min(first + n, trajectories)):
            seed = int(res.seed[d - first])
            paths[d] = trajectory(rules, cell.players, seed, policy.split(","))
        parts.append(
            _rows(
                res,
                master=plan.seed,
                variant=cell.variant,
                rules_text=rules_label(rules),
                skill=cell.skill,
                r=r,
                nrot=nrot,
                ties=plan.ties,
                paths=paths,
            )
        )
    return _concat(parts)


# -- analysis ------------------------------------------------------------------------------


@dataclass
class CellStats:
    """Every metric of one cell, each with its interval over deals."""

    key: CellKey
    deals: int
    games: int
    rotations: int
    policies: list[str]
    win: list[Estimate]  # per seat (shared wins as the table counts them)
    score: list[Estimate]
    first_advantage: Estimate  # seat 1's win rate minus the fair share 1/P
    first_minus_last_win: Estimate
    first_minus_last_score: Estimate
    balance: Estimate  # highest minus lowest seat win rate (bootstrap over deals)
    shared: Estimate  # share of games with a shared win
    margin: Estimate  # winner's score minus the runner-up's
    turns: Estimate
    sources: dict[str, list[Estimate]]  # source -> per seat
    player_win: list[Estimate]  # per player of a mixed level (over seat orders)
    lead_changes: Estimate
    lead_turn: Estimate
    figures_unused: list[Estimate]
    scores: list[np.ndarray] = field(repr=False, default_factory=list)  # per seat, all games


@dataclass
class Difference:
    """A variant minus the baseline, in one (skill, players): paired by deal."""

    variant: str
    baseline: str
    skill: str
    players: int
    win: Estimate  # seat 1's win rate, variant - baseline
    score: Estimate  # seat 1's mean score
    var_unpaired: float  # variance of the same difference from as many unpaired games
    p_adjusted: float = 1.0

    @property
    def variance_ratio(self) -> float:
        return self.var_unpaired / self.win.var if self.win.var > 0 else math.inf


class Study:
    """A study's rows and everything computed from them (see :func:`run`, :func:`load`)."""

    def __init__(self, plan: Plan | None, rows: Mapping[str, np.ndarray]) -> None:
        self.rows = dict(rows)
        self.plan = plan
        self.elapsed = 0.0
        self.played = 0
        self.workers: int | None = None
        self.threads = 1
        self.interrupted = False
        self.until: float | None = None
        self._cells: dict[CellKey, CellStats] | None = None
        self._where: dict[CellKey, tuple[np.ndarray, np.ndarray, np.ndarray, int]] = {}
        self._diffs: list[Difference] | None = None

    # -- structure --

    def keys(self) -> list[CellKey]:
        seen: dict[CellKey, None] = {}
        r = self.rows
        if len(r["deal"]):
            change = np.zeros(len(r["deal"]), bool)
            change[0] = True
            for c in ("variant", "skill", "players"):
                change[1:] |= r[c][1:] != r[c][:-1]
            for i in np.flatnonzero(change):
                seen.setdefault(
                    CellKey(str(r["variant"][i]), str(r["skill"][i]), int(r["players"][i]))
                )
        if self.plan is not None:
            order = {c: i for i, c in enumerate(self.plan.cells())}
            return sorted(seen, key=lambda c: order.get(c, len(order)))
        return list(seen)

    def variants(self) -> list[str]:
        return list(dict.fromkeys(c.variant for c in self.keys()))

    def baseline(self) -> str:
        if self.plan is not None and self.plan.baseline:
            return self.plan.baseline
        return self.variants()[0]

    def _index(self, key: CellKey) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """A cell's rows: (row indexes, its deals, each row's deal position, seat orders)."""
        found = self._where.get(key)
        if found is None:
            r = self.rows
            idx = np.flatnonzero(
                (r["players"] == key.players)
                & (r["skill"] == key.skill)
                & (r["variant"] == key.variant)
            )
            deals, di = np.unique(r["deal"][idx], return_inverse=True)
            nrot = int(r["rotations"][idx].max()) if len(idx) else 1
            found = self._where[key] = (idx, deals, di, nrot)
        return found

    def _cube(self, key: CellKey, column: str, by: str = "seat") -> tuple[np.ndarray, np.ndarray]:
        """(deals, seat orders, seats) of a column for one cell (``by="player"``: indexed by
        player instead of seat); and the deal numbers."""
        idx, deals, di, nrot = self._index(key)
        r = self.rows
        cube = np.full((len(deals), nrot, key.players), np.nan)
        cube[di, r["rotation"][idx], r[by][idx]] = r[column][idx].astype(np.float64)
        return cube, deals

    # -- metrics --

    def cells(self) -> dict[CellKey, CellStats]:
        if self._cells is None:
            self._cells = {k: self._cell(k) for k in self.keys()}
        return self._cells

    def _cell(self, key: CellKey) -> CellStats:
        P = key.players
        win, deals = self._cube(key, "win_share")
        score, _ = self._cube(key, "score")
        dwin = np.nanmean(win, axis=1)  # per deal, per seat
        dscore = np.nanmean(score, axis=1)
        seat0 = win[:, :, 0]
        shared = np.nanmean((self._cube(key, "margin")[0][:, :, 0] == 0), axis=1)
        margin = np.nanmean(self._cube(key, "margin")[0][:, :, 0], axis=1)
        turns = np.nanmean(self._cube(key, "turns")[0][:, :, 0], axis=1)
        sources = {}
        for s in SOURCES:
            c, _ = self._cube(key, f"points_{s}")
            sources[s] = [estimate(np.nanmean(c[:, :, p], axis=1)) for p in range(P)]
        pwin = np.nanmean(self._cube(key, "win_share", by="player")[0], axis=1)
        lc, _ = self._cube(key, "lead_changes")
        lt, _ = self._cube(key, "lead_turn")
        fu, _ = self._cube(key, "figures_unused")
        lcd = np.where(lc[:, :, 0] >= 0, lc[:, :, 0], np.nan)
        ltd = np.where(lt[:, :, 0] >= 0, lt[:, :, 0], np.nan)
        fud = np.where(fu >= 0, fu, np.nan)
        r = self.rows
        idx = self._index(key)[0]
        policies = [""] * P
        for i in idx[r["rotation"][idx] == 0][: 4 * P]:
            policies[int(r["seat"][i])] = str(r["policy"][i])
        return CellStats(
            key=key,
            deals=len(deals),
            games=int(np.count_nonzero(~np.isnan(seat0))),
            rotations=win.shape[1],
            policies=policies,
            win=[clip01(estimate(dwin[:, p])) for p in range(P)],
            score=[estimate(dscore[:, p]) for p in range(P)],
            first_advantage=clip01(estimate(dwin[:, 0] - 1 / P), -1.0),
            first_minus_last_win=clip01(estimate(dwin[:, 0] - dwin[:, P - 1]), -1.0),
            first_minus_last_score=estimate(dscore[:, 0] - dscore[:, P - 1]),
            balance=spread_interval(dwin),
            shared=clip01(estimate(shared)),
            margin=estimate(margin),
            turns=estimate(turns),
            sources=sources,
            player_win=[clip01(estimate(_nanmean_rows(pwin[:, p]))) for p in range(P)],
            lead_changes=estimate(_nanmean_rows(lcd)),
            lead_turn=estimate(_nanmean_rows(ltd)),
            figures_unused=[estimate(_nanmean_rows(fud[:, :, p])) for p in range(P)],
            scores=[
                score[:, :, p].reshape(-1)[~np.isnan(score[:, :, p].reshape(-1))] for p in range(P)
            ],
        )

    def differences(self) -> list[Difference]:
        """Each variant minus the baseline in every (skill, players), seat 1's win rate and
        score, paired by deal; p-values Holm-adjusted over every difference of the study."""
        if self._diffs is not None:
            return self._diffs
        base = self.baseline()
        out = []
        keys = self.keys()
        for key in keys:
            if key.variant == base:
                continue
            bkey = CellKey(base, key.skill, key.players)
            if bkey not in keys:
                continue
            out.append(self._difference(key, bkey))
        adjusted = holm([d.win.p_value() for d in out])
        for diff, p in zip(out, adjusted, strict=True):
            diff.p_adjusted = p
        self._diffs = out
        return out

    def _difference(self, key: CellKey, bkey: CellKey) -> Difference:
        w, deals = self._cube(key, "win_share")
        bw, bdeals = self._cube(bkey, "win_share")
        s, _ = self._cube(key, "score")
        bs, _ = self._cube(bkey, "score")
        common, i, j = np.intersect1d(deals, bdeals, return_indices=True)
        dw = np.nanmean(w[i, :, 0], axis=1) - np.nanmean(bw[j, :, 0], axis=1)
        ds = np.nanmean(s[i, :, 0], axis=1) - np.nanmean(bs[j, :, 0], axis=1)
        # the same number of games, unpaired and unrotated: independent single games
        ga, gb = w[i, :, 0].reshape(-1), bw[j, :, 0].reshape(-1)
        ga, gb = ga[~np.isnan(ga)], gb[~np.isnan(gb)]
        var_unpaired = (
            float(ga.var(ddof=1)) / len(ga) + float(gb.var(ddof=1)) / len(gb)
            if len(ga) > 1 and len(gb) > 1
            else math.nan
        )
        return Difference(
            variant=key.variant,
            baseline=bkey.variant,
            skill=key.skill,
            players=key.players,
            win=clip01(estimate(dw), -1.0),
            score=estimate(ds),
            var_unpaired=var_unpaired,
        )

    def headline(self) -> Estimate | None:
        """The study's headline difference with the widest interval: a variant's effect on
        seat 1's win rate (with several variants), else seat 1 minus seat P."""
        diffs = self.differences()
        if diffs:
            ests = [d.win for d in diffs]
        else:
            ests = []
            for key in self.keys():
                dwin = np.nanmean(self._cube(key, "win_share")[0], axis=1)
                ests.append(estimate(dwin[:, 0] - dwin[:, key.players - 1]))
        ests = [e for e in ests if e.n > 1]
        if not ests:
            return None
        return max(ests, key=lambda e: e.half)

    # -- words --

    def answer(self) -> str:
        """The study's answer in one paragraph of words, with 95% intervals."""
        return answer(self)

    def summary(self) -> str:
        return summary_text(self)


def _nanmean_rows(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, np.float64)
    if x.ndim == 1:
        return x
    ok = ~np.isnan(x).all(axis=1)
    out = np.full(len(x), np.nan)
    out[ok] = np.nanmean(x[ok], axis=1)
    return out


def ratio_words(d: Difference) -> str:
    """How much pairing (and rotation) cut the headline difference's variance, in words."""
    if not d.win.var > 0:
        return "left no variance in this difference (every paired difference is 0)"
    return f"cut the variance of this difference {d.variance_ratio:.1f}x"


def stars(p: float) -> str:
    return "***" if p < 0.001 else "**" if p < 0.01 else "*" if p < 0.05 else ""


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def pp(e: Estimate) -> str:
    return f"{100 * e.mean:+.1f} pp [{100 * e.low:+.1f}, {100 * e.high:+.1f}]"


def rate(e: Estimate) -> str:
    return f"{100 * e.mean:.1f}% [{100 * e.low:.1f}, {100 * e.high:.1f}]"


def num(e: Estimate, signed: bool = False) -> str:
    f = "+.1f" if signed else ".1f"
    return f"{e.mean:{f}} [{e.low:{f}}, {e.high:{f}}]"


def skill_words(skill: str) -> str:
    seats = skill.split("/")
    if len(seats) == 1:
        return f"{seats[0]} players"
    return "seats " + ", ".join(f"{i + 1} {s}" for i, s in enumerate(seats))


def answer(study: Study) -> str:
    """One paragraph: the headline differences (or the seat advantage) in words."""
    cells = study.cells()
    if not cells:
        return "The study has no finished games yet."
    parts: list[str] = []
    diffs = study.differences()
    if diffs:
        for d in diffs:
            b = cells[CellKey(d.baseline, d.skill, d.players)]
            v = cells[CellKey(d.variant, d.skill, d.players)]
            if d.win.mean == 0:
                change = (
                    f"keeps seat 1's win rate at {rate(v.win[0])} ({d.baseline}: {rate(b.win[0])})"
                )
            else:
                verb = "raises" if d.win.mean > 0 else "lowers"
                change = (
                    f"{verb} seat 1's win rate from {rate(b.win[0])} ({d.baseline}) to "
                    f"{rate(v.win[0])}"
                )
            sig = (
                "a real difference" if d.p_adjusted < 0.05 else "not distinguishable from no effect"
            )
            parts.append(
                f"With {skill_words(d.skill)} ({d.players} players), {d.variant} {change}; "
                f"paired difference {pp(d.win)} over {d.win.n:,} deals ({sig}, Holm-adjusted "
                f"p = {d.p_adjusted:.2g}); seat 1's score changes by {num(d.score, True)} "
                "points. Pairing"
                + (" and seat rotation" if v.rotations > 1 else "")
                + f" {ratio_words(d)} against as many unpaired games."
            )
    else:
        for c in cells.values():
            P = c.key.players
            parts.append(
                f"With {skill_words(c.key.skill)} ({P} players, {c.key.variant}), seat 1 wins "
                f"{rate(c.win[0])} of games (fair share {pct(1 / P)}); seat 1 minus seat {P}: "
                f"{pp(c.first_minus_last_win)} in win rate and "
                f"{num(c.first_minus_last_score, True)} points, over {c.deals:,} deals."
            )
    return " ".join(parts)


def summary_text(study: Study) -> str:
    """The study in text: the answer, then every cell's metrics and the differences."""
    lines = [answer(study), ""]
    ties = study.plan.ties if study.plan else ties_of(study.rows)
    lines.append(
        "Win rates count a shared win as 1/k for each of the k tied seats"
        if ties == "split"
        else "Win rates count a shared win as a whole win for each tied seat"
    )
    lines.append("All intervals: 95%, over deals.")
    for c in study.cells().values():
        k = c.key
        lines.append("")
        lines.append(
            f"== {k.variant} | {k.skill} | {k.players} players: {c.deals:,} deals, "
            f"{c.games:,} games ({c.rotations} seat order{'s' if c.rotations > 1 else ''} per deal)"
        )
        lines.append(f"  {'seat':<5}{'policy':<22}{'win rate':<24}{'mean score':<22}figures left")
        for p in range(k.players):
            fu = c.figures_unused[p]
            lines.append(
                f"  {p + 1:<5}{c.policies[p][:21]:<22}{rate(c.win[p]):<24}{num(c.score[p]):<22}"
                + (num(fu) if fu.n else "-")
            )
        if c.rotations > 1:
            lines.append(
                "  by player (over seat orders): "
                + "; ".join(f"{c.policies[p]}: {rate(c.player_win[p])}" for p in range(k.players))
            )
        lines.append(
            f"  first-player advantage (seat 1 - fair share): {pp(c.first_advantage)}; "
            f"seat 1 - seat {k.players}: {pp(c.first_minus_last_win)}, "
            f"{num(c.first_minus_last_score, True)} points"
        )
        lines.append(
            f"  balance (best - worst seat win rate): {pp(c.balance)}; shared wins "
            f"{rate(c.shared)}; margin {num(c.margin)} points; length {num(c.turns)} turns"
        )
        if c.lead_changes.n:
            lines.append(
                f"  lead changes {num(c.lead_changes)}; the winner took the lead for good at "
                f"turn {num(c.lead_turn)} (over {c.lead_changes.n:,} replayed deals)"
            )
        src = [
            f"{s} " + "/".join(f"{e.mean:.1f}" for e in ests)
            for s, ests in c.sources.items()
            if any(e.mean for e in ests)
        ]
        lines.append("  points by source (per seat): " + ", ".join(src))
    diffs = study.differences()
    if diffs:
        lines.append("")
        lines.append(
            f"Paired differences from {study.baseline()} (seat 1), stars: Holm-adjusted "
            "p < 0.05 *, 0.01 **, 0.001 ***"
        )
        for d in diffs:
            var = (
                f"variance paired {d.win.var:.3g} vs unpaired {d.var_unpaired:.3g} "
                f"({d.variance_ratio:.1f}x less)"
                if d.win.var > 0
                else "every paired difference is 0"
            )
            lines.append(
                f"  {d.variant} | {d.skill} | {d.players}p: win {pp(d.win)}{stars(d.p_adjusted)}"
                f"  score {num(d.score, True)}  {var}"
            )
    if study.played:
        rate_ = study.played / max(study.elapsed, 1e-9)
        per = study.workers or study.threads
        unit = "worker" if study.workers else "thread"
        lines.append("")
        lines.append(
            f"{study.played:,} games in {study.elapsed:.1f} s: {rate_:,.0f} games/s, "
            f"{rate_ / max(per, 1):,.0f} games/s per {unit} ({per} {unit}s)"
            + ("; interrupted, finished batches kept" if study.interrupted else "")
        )
        if study.until is not None:
            h = study.headline()
            met = h is not None and h.half * 100 < study.until
            lines.append(
                f"stopping rule ci<{study.until:g} pp: "
                + ("met" if met else "not met (game limit reached)")
                + (f", half-width {100 * h.half:.2f} pp" if h else "")
            )
    return "\n".join(lines)


def ties_of(rows: Mapping[str, np.ndarray]) -> str:
    shares = rows["win_share"][rows["won"]]
    return "split" if len(shares) and (shares < 1).any() else "whole" if len(shares) else "split"


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
    until: float | str | None = None,
    trajectories: int = 0,
    threads: int = 0,
    executor: Executor | None = None,
    batch: int | None = None,
    out: str | os.PathLike[str] | None = None,
    append: bool = False,
) -> Study:
    """Run a balance study from Python (as ``carcassonne study``).

    ``variants``: name -> Rules (the first is the baseline), or one Rules. ``skills``: skill
    levels (``"random,greedy"`` or a list; ``"greedy/random"`` is one policy per seat).
    ``games``: deals per cell (at most, with ``until``: a half-width in percentage points or
    ``"ci<0.5"``). ``out``: write the table there (``append``: continue the study in it).

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
    )
    target = parse_until(until) if isinstance(until, str) else until
    existing = None
    if out is not None:
        table_format(out)
        if append and Path(out).exists():
            existing = read_table(out)
    result = run(
        plan,
        games,
        threads=threads,
        executor=executor,
        until=target,
        trajectories=trajectories,
        existing=existing,
        batch=batch,
    )
    if out is not None:
        write_table(out, result.rows)
    return result
