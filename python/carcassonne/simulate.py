"""Native batch simulation: whole games in Rust, GIL released, results as columns.

Game g of a study played from master seed ``seed`` always uses ``game_seed(seed, g)``, so
results are identical for any thread count, any chunking, and any executor (threads,
processes, Dask, Ray) that the chunks are spread over.
"""

from __future__ import annotations

import math
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from carcassonne import _core
from carcassonne._core import Catalogue
from carcassonne.rules import Rules

if TYPE_CHECKING:
    from carcassonne.game import Game
    from carcassonne.stats import Comparison

POLICIES = ("random", "greedy", "mcts")
_MASK = (1 << 64) - 1
_COLUMNS = ("seed", "turns", "discarded", "winners", "scores", "breakdown")


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` of a study with master seed ``master`` (what the native
    batch runner uses): ``Game(rules, players, seed=game_seed(master, g))`` draws the same
    tiles as game g of ``simulate(rules, players=players, seed=master)``."""
    x = (master ^ (index * 0xD1B5_4A32_D192_ED03)) & _MASK
    x = (x + 0x9E37_79B9_7F4A_7C15) & _MASK
    z = ((x ^ (x >> 30)) * 0xBF58_476D_1CE4_E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D0_49BB_1331_11EB) & _MASK
    return z ^ (z >> 31)


@dataclass
class Results:
    """Per-game results of a batch, one row per game, as numpy arrays.

    ``scores[g, p]`` is player p's total in game g, ``breakdown[g, p, s]`` their points from
    ``sources[s]``; ``winners[g]`` has bit p set when p won or tied for the win. ``seed[g]`` is
    the game's own seed: ``Game(rules, players, seed=int(seed[g]))`` draws the same tiles.
    Row g is game ``first + g`` of the study. ``records`` holds each game's record
    (:meth:`Game.record`) when a Python-driven study was asked to keep them.
    """

    rules: Rules
    players: int
    policy: str
    master_seed: int
    seed: np.ndarray
    turns: np.ndarray
    discarded: np.ndarray
    winners: np.ndarray
    scores: np.ndarray
    breakdown: np.ndarray
    sources: tuple[str, ...] = tuple(_core.SOURCES)
    first: int = 0
    records: list[dict[str, Any]] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.seed)

    def won(self) -> np.ndarray:
        """Boolean (games, players): did player p win or tie for the win in game g."""
        bits = np.arange(self.players, dtype=np.uint8)
        return (self.winners[:, None] >> bits) & 1 == 1

    def games(self) -> np.ndarray:
        """The study index of each row's game (``first``, ``first + 1``, ...)."""
        return np.arange(self.first, self.first + len(self), dtype=np.int64)

    def seat_policies(self) -> list[str]:
        """The policy (or agent name) of each seat."""
        names = self.policy.split(",")
        return [names[p % len(names)].strip() for p in range(self.players)]

    def columns(self) -> dict[str, np.ndarray]:
        """Flat columns (one row per game) for pandas/polars/pyarrow, no row-by-row copying."""
        cols: dict[str, np.ndarray] = {
            "seed": self.seed,
            "turns": self.turns,
            "discarded": self.discarded,
        }
        won = self.won()
        for p in range(self.players):
            cols[f"score_{p}"] = self.scores[:, p]
            cols[f"won_{p}"] = won[:, p]
            for s, name in enumerate(self.sources):
                cols[f"{name}_{p}"] = self.breakdown[:, p, s]
        return cols

    def to_pandas(self) -> Any:
        import pandas as pd

        return pd.DataFrame(self.columns())

    def to_polars(self) -> Any:
        import polars as pl

        return pl.DataFrame(self.columns())

    def replay(self, g: int) -> Game:
        """Game g (a row index) replayed move by move as a :class:`Game` with its full record;
        only the native ``random`` policy (and Python agents whose choices depend on the game
        alone) can be replayed, see :func:`carcassonne.agents.replay`."""
        from carcassonne.agents import replay

        return replay(self.rules, self.players, int(self.seed[g]), self.policy)

    @staticmethod
    def concat(parts: list[Results]) -> Results:
        if not parts:
            raise ValueError("no results to concatenate")
        first = parts[0]
        records = None
        if all(p.records is not None for p in parts):
            records = [r for p in parts for r in p.records or ()]
        return Results(
            rules=first.rules,
            players=first.players,
            policy=first.policy,
            master_seed=first.master_seed,
            sources=first.sources,
            first=first.first,
            records=records,
            **{k: np.concatenate([getattr(p, k) for p in parts]) for k in _COLUMNS},
        )


class StudyInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a study (:func:`simulate`, :func:`compare`,
    :func:`carcassonne.agents.simulate_agents`) within about a second. ``results`` holds
    every game finished before it, in game order from the first (a :class:`Results`, or a
    :class:`Comparison` for :func:`compare`), or None when none had finished. Being a
    ``KeyboardInterrupt``, it stops a script as Ctrl-C always does unless caught."""

    def __init__(self, results: Any) -> None:
        done = f"{len(results):,} games" if isinstance(results, Results) else "the games"
        super().__init__(f"interrupted: {done} finished before it are in .results")
        self.results = results


def gather(chunks: Iterator[Results]) -> list[Results]:
    """Every chunk of a study; on Ctrl-C, :class:`StudyInterrupted` with the finished ones."""
    parts: list[Results] = []
    try:
        for part in chunks:
            parts.append(part)
    except KeyboardInterrupt:
        raise StudyInterrupted(Results.concat(parts) if parts else None) from None
    return parts


# -- one chunk -----------------------------------------------------------------------------


def _run_chunk(
    rules: dict[str, Any],
    players: int,
    first: int,
    games: int,
    seed: int,
    policy: str,
    threads: int,
    catalogue: Catalogue | None = None,
) -> dict[str, np.ndarray]:
    """Play games ``first .. first + games`` natively; plain columns, so that it pickles for
    process pools, Dask and Ray (top-level and importable on the workers)."""
    raw = _core.simulate(
        players=players,
        games=games,
        seed=seed,
        policy=policy,
        threads=threads,
        first=first,
        catalogue=catalogue,
        **rules,
    )
    return {
        name: np.frombuffer(buf, dtype=dtype).reshape(shape)
        for name, (buf, dtype, shape) in raw.items()
    }


def _results(
    rules: Rules, players: int, policy: str, seed: int, first: int, cols: Mapping[str, Any]
) -> Results:
    return Results(
        rules=rules,
        players=players,
        policy=policy,
        master_seed=seed,
        first=first,
        **{k: cols[k] for k in _COLUMNS},
        records=cols.get("records"),
    )


# -- scheduling chunks ---------------------------------------------------------------------


class _Chunker:
    """Chunk sizes: fixed, or adapted so that a chunk takes about ``target`` seconds (chunk
    sizes never change results, only how often progress is shown and Ctrl-C is checked)."""

    def __init__(self, chunk: int | None, threads: int, target: float = 0.4) -> None:
        self.fixed = chunk
        cores = threads or os.cpu_count() or 1
        self.size = chunk or 16 * cores
        self.target = target

    def observe(self, games: int, seconds: float) -> None:
        if self.fixed or games <= 0:
            return
        rate = games / max(seconds, 1e-6)
        self.size = max(8, min(50_000, int(rate * self.target), 4 * self.size))

    def ranges(self, first: int, games: int) -> Iterator[tuple[int, int]]:
        done = 0
        while done < games:
            n = min(self.size, games - done)
            yield first + done, n
            done += n


def _default_inflight(executor: Executor) -> int:
    workers = getattr(executor, "_max_workers", None) or os.cpu_count() or 2
    return 2 * int(workers)


def schedule(
    tasks: Iterable[tuple[Callable[..., Any], tuple[Any, ...]]],
    executor: Executor | None = None,
    inflight: int | None = None,
    on_done: Callable[[int, float], None] | None = None,
) -> Iterator[Any]:
    """Run ``fn(*args)`` for each task and yield the results in task order.

    Without an executor tasks run here one by one (lazily: the task list may adapt to the
    timings that ``on_done(index, seconds)`` reports). With one, at most ``inflight`` tasks
    are submitted ahead, so a study of any size holds only a few chunks; closing the
    iterator (Ctrl-C, break) cancels what was not started.
    """
    if executor is None:
        for i, (fn, args) in enumerate(tasks):
            t = time.perf_counter()
            out = fn(*args)
            if on_done:
                on_done(i, time.perf_counter() - t)
            yield out
        return
    limit = max(1, inflight or _default_inflight(executor))
    pending: deque[Future[Any]] = deque()
    it = iter(tasks)
    try:
        while True:
            while len(pending) < limit:
                task = next(it, None)
                if task is None:
                    break
                fn, args = task
                pending.append(executor.submit(fn, *args))
            if not pending:
                return
            yield pending.popleft().result()
    finally:
        for f in pending:
            f.cancel()


# -- validation ----------------------------------------------------------------------------


def _check_int(name: str, value: Any, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be an int from {low} to {high}, got {value!r}")


def check_policy(policy: Any, players: int | None = None) -> str:
    """The canonical policy text of ``policy``: one native policy for every seat, or one per
    seat, as a comma-separated text (``"mcts:playouts=1000,greedy"``) or a list of texts.
    With ``players``, a list of seats must have exactly one policy per seat."""
    if isinstance(policy, (list, tuple)) and all(isinstance(p, str) for p in policy):
        if not policy or any("," in p for p in policy):
            raise ValueError(f"bad policy list {policy!r}: one policy text per seat")
        policy = ",".join(policy)
    if not isinstance(policy, str):
        raise ValueError(
            f"policy must be a str or a list of str (one per seat), not {type(policy).__name__}"
        )
    try:
        seats = _core.policy_seats(policy)
    except ValueError as e:
        raise ValueError(
            f"{e}; give one policy for every seat, or one per seat separated by commas"
        ) from None
    if players is not None and len(seats) not in (1, players):
        raise ValueError(
            f"{len(seats)} policies for {players} players ({policy!r}): give one policy for "
            "every seat, or exactly one per seat"
        )
    return ",".join(seats)


def _validate(
    rules: Rules | None, games: int, players: int, policy: str, seed: int, threads: int
) -> Rules:
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, not {type(rules).__name__}")
    _check_int("games", games, 0, 2**40)
    _check_int("players", players, 2, 6)
    check_policy(policy, players)
    _check_int("threads", threads, 0, 4096)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an int from 0 to 2**64-1, got {seed!r}")
    return rules


def _check_chunk(chunk: int | None) -> None:
    if chunk is not None and (isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1):
        raise ValueError(f"chunk must be an int >= 1 (or None: adaptive), got {chunk!r}")


def _executor_chunk(games: int, chunk: int | None) -> int:
    return chunk or max(16, min(2000, math.ceil(games / 64)))


# -- public API ----------------------------------------------------------------------------


def simulate_chunks(
    rules: Rules | None = None,
    games: int = 1000,
    players: int = 2,
    policy: str | Sequence[str] = "random",
    seed: int = 0,
    threads: int = 0,
    *,
    chunk: int | None = None,
    catalogue: Catalogue | None = None,
    executor: Executor | None = None,
    inflight: int | None = None,
    first: int = 0,
) -> Iterator[Results]:
    """Like :func:`simulate`, but yields the results chunk by chunk, in game order (for
    progress bars and for streaming large studies without holding every game in memory).

    ``chunk`` is the number of games per chunk; ``None`` sizes chunks to about half a second
    each (or 1/64 of the study, at most 2000, with an executor). Chunk sizes never change the
    results.
    """
    rules = _validate(rules, games, players, policy, seed, threads)
    _check_chunk(chunk)
    _check_int("first", first, 0, 2**62)
    policy = check_policy(policy, players)
    rd = rules.to_dict()
    if executor is not None:
        chunker = _Chunker(_executor_chunk(games, chunk), threads)
    else:
        chunker = _Chunker(chunk, threads)

    sizes: dict[int, tuple[int, int]] = {}  # task index -> (first game, games), until done
    submitted = [0]

    def tasks() -> Iterator[tuple[Callable[..., Any], tuple[Any, ...]]]:
        for f, n in chunker.ranges(first, games):
            sizes[submitted[0]] = (f, n)
            submitted[0] += 1
            yield _run_chunk, (rd, players, f, n, seed, policy, threads, catalogue)

    def done(i: int, seconds: float) -> None:
        chunker.observe(sizes[i][1], seconds)

    for i, cols in enumerate(schedule(tasks(), executor, inflight, done)):
        f, _ = sizes.pop(i)
        yield _results(rules, players, policy, seed, f, cols)


def simulate(
    rules: Rules | None = None,
    games: int = 1000,
    players: int = 2,
    policy: str | Sequence[str] = "random",
    seed: int = 0,
    threads: int = 0,
    *,
    catalogue: Catalogue | None = None,
    executor: Executor | None = None,
    chunk: int | None = None,
    first: int = 0,
) -> Results:
    """Play ``games`` whole games natively on ``threads`` threads (0: all cores).

    ``policy`` is one native policy for every seat (``"random"``, ``"greedy"``,
    ``"mcts:playouts=1000"``) or exactly one per seat, comma-separated
    (``"mcts:playouts=1000,greedy"``: seat 1 searches, seat 2 is greedy) or as a list of texts.
    Every native policy is deterministic for the game's seed: :meth:`Results.replay` rebuilds
    any game with its full record.

    Game g uses a seed derived from ``seed`` and g alone (:func:`game_seed`), so results are
    identical for any thread count and any chunking. With ``executor`` (any
    ``concurrent.futures.Executor``: a process pool, ``dask.distributed.Client
    .get_executor()``, :class:`carcassonne.distributed.RayExecutor`) the games are split
    into chunks by game index and played there, with the same results.

    Ctrl-C stops it within about a second with :class:`StudyInterrupted`, whose ``results``
    hold the games finished so far.
    """
    rules = _validate(rules, games, players, policy, seed, threads)
    # Chunks of about half a second: Ctrl-C stops at once and keeps the finished ones.
    parts = gather(
        simulate_chunks(
            rules,
            games,
            players,
            policy,
            seed,
            threads,
            chunk=chunk,
            catalogue=catalogue,
            executor=executor,
            first=first,
        )
    )
    if not parts:  # no games: empty columns of the right shapes
        cols = _run_chunk(
            rules.to_dict(),
            players,
            first,
            0,
            seed,
            check_policy(policy, players),
            threads,
            catalogue,
        )
        return _results(rules, players, check_policy(policy, players), seed, first, cols)
    return Results.concat(parts)


def compare_chunks(
    variants: Mapping[str, Rules],
    games: int = 1000,
    players: int = 2,
    policy: str | Sequence[str] = "random",
    seed: int = 0,
    threads: int = 0,
    *,
    chunk: int | None = None,
    catalogue: Catalogue | None = None,
    executor: Executor | None = None,
    inflight: int | None = None,
) -> Iterator[tuple[str, Results]]:
    """Play every variant on the same game seeds, chunk by chunk: yields ``(name, results)``
    for each variant of a chunk of games before moving to the next chunk."""
    if not isinstance(variants, Mapping) or len(variants) < 2:
        raise ValueError("compare needs at least two variants (a mapping name -> Rules)")
    checked = {}
    for name, rules in variants.items():
        if not isinstance(name, str) or not name:
            raise ValueError(f"variant names must be non-empty strings, got {name!r}")
        checked[name] = _validate(rules, games, players, policy, seed, threads)
    _check_chunk(chunk)
    policy = check_policy(policy, players)
    chunker = _Chunker(_executor_chunk(games, chunk) if executor else chunk, threads)
    nv = len(checked)
    jobs: dict[int, tuple[str, int, int]] = {}  # task index -> (variant, first, games)
    submitted = [0]

    def tasks() -> Iterator[tuple[Callable[..., Any], tuple[Any, ...]]]:
        for f, n in chunker.ranges(0, games):
            for name, rules in checked.items():
                jobs[submitted[0]] = (name, f, n)
                submitted[0] += 1
                args = (rules.to_dict(), players, f, n, seed, policy, threads, catalogue)
                yield _run_chunk, args

    def done(i: int, seconds: float) -> None:
        chunker.observe(jobs[i][2], seconds * nv)

    for i, cols in enumerate(schedule(tasks(), executor, inflight, done)):
        name, f, _ = jobs.pop(i)
        yield name, _results(checked[name], players, policy, seed, f, cols)


def compare(
    variants: Mapping[str, Rules],
    games: int = 1000,
    players: int = 2,
    policy: str | Sequence[str] = "random",
    seed: int = 0,
    threads: int = 0,
    *,
    baseline: str | None = None,
    chunk: int | None = None,
    catalogue: Catalogue | None = None,
    executor: Executor | None = None,
) -> Comparison:
    """Paired comparison of rule variants: every variant plays games 0..games-1 with the same
    game seeds, and each variant is compared with ``baseline`` (default: the first) through
    per-game differences (win or not, score), per seat, with 95% intervals.

    >>> c = compare({"C3": Rules(), "small": Rules(small_city=True)}, games=200, seed=1)
    >>> row = c.differences()[0]   # variant, seat, games, win rate and score differences
    """
    from carcassonne.stats import Comparison

    names = list(variants) if isinstance(variants, Mapping) else []
    base = names[0] if baseline is None and names else baseline
    if names and base not in names:
        raise ValueError(f"baseline {base!r} is not one of the variants: {', '.join(names)}")
    comparison = Comparison.empty(
        names, players, list(_core.SOURCES), baseline=base, policy=policy, master_seed=seed
    )
    chunks = compare_chunks(
        variants,
        games,
        players,
        policy,
        seed,
        threads,
        chunk=chunk,
        catalogue=catalogue,
        executor=executor,
    )
    try:
        for name, res in chunks:
            comparison.add_results(name, res)
    except KeyboardInterrupt:
        raise StudyInterrupted(comparison) from None
    return comparison
