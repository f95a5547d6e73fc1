"""Native batch simulation: whole games in Rust, GIL released, results as columns.

Game g of a study played from master seed ``seed`` always uses ``game_seed(seed, g)``
(:mod:`carcassonne.studies.batch`), so results are identical for any thread count, any
chunking, and any executor (threads, processes, Dask, Ray) that the chunks are spread over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from typing import Any

import numpy as np

from carcassonne import _core
from carcassonne._core import Catalogue
from carcassonne.policies import POLICIES, check_policy, parsed_policy
from carcassonne.rules import Rules
from carcassonne.studies.batch import (
    Chunker,
    check_chunk,
    check_int,
    check_study,
    executor_chunk,
    game_seed,
    schedule,
)
from carcassonne.studies.results import COLUMNS, LUCK, Results, StudyInterrupted, gather, replay
from carcassonne.training import value_weights

# Importable from here as before; their homes are batch, policies and results.
__all__ = [
    "POLICIES",
    "Results",
    "StudyInterrupted",
    "check_policy",
    "game_seed",
    "replay",
    "simulate",
    "simulate_chunks",
]


# -- one chunk -----------------------------------------------------------------------------


def _run_chunk(
    rules: dict[str, Any],
    players: int,
    first: int,
    games: int,
    seed: int,
    policy: str | _core.Policy,
    threads: int,
    catalogue: Catalogue | None = None,
    luck: bool = False,
) -> dict[str, np.ndarray]:
    """Play games ``first .. first + games`` natively; plain columns, so that it pickles for
    process pools, Dask and Ray (top-level and importable on the workers). ``policy``: the
    study's parsed policy, or on another process its text (parsed once per process there)."""
    policy = policy if isinstance(policy, _core.Policy) else parsed_policy(policy)
    weights, values = None, "auto"
    if luck:
        # On the worker: V's value model, fitted on games of these seats (of their one-ply
        # rankings where they look ahead) and this rule set (trained once, cached).
        values, seats = _core.luck_plan(players, policy)
        if seats is not None:
            refit = values != "replied"
            weights = value_weights(Rules(**rules), seats, players, refit=refit)
    raw = _core.simulate(
        players=players,
        games=games,
        seed=seed,
        policy=policy,
        threads=threads,
        first=first,
        catalogue=catalogue,
        rules=Rules(**rules),
        luck=luck,
        luck_weights=weights,
        luck_values=values,
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
        **{k: cols[k] for k in COLUMNS},
        records=cols.get("records"),
        luck={k: cols[k] for k in LUCK} if "luck_events" in cols else None,
    )


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
    luck: bool = False,
) -> Iterator[Results]:
    """Like :func:`simulate`, but yields the results chunk by chunk, in game order (for
    progress bars and for streaming large studies without holding every game in memory).

    ``chunk`` is the number of games per chunk; ``None`` sizes chunks to about half a second
    each (or 1/64 of the study, at most 2000, with an executor). Chunk sizes never change the
    results.
    """
    rules = check_study(rules, games, players, policy, seed, threads)
    check_chunk(chunk)
    check_int("first", first, 0, 2**62)
    policy = check_policy(policy, players)
    # Parsed once here and handed to every chunk; a chunk on another process gets the text.
    handed = parsed_policy(policy) if executor is None else policy
    rd = rules.to_dict()
    if executor is not None:
        chunker = Chunker(executor_chunk(games, chunk), threads)
    else:
        chunker = Chunker(chunk, threads)

    sizes: dict[int, tuple[int, int]] = {}  # task index -> (first game, games), until done
    submitted = [0]

    def tasks() -> Iterator[tuple[Callable[..., Any], tuple[Any, ...]]]:
        for f, n in chunker.ranges(first, games):
            sizes[submitted[0]] = (f, n)
            submitted[0] += 1
            yield _run_chunk, (rd, players, f, n, seed, handed, threads, catalogue, luck)

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
    luck: bool = False,
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
    .get_executor()``, :class:`carcassonne.studies.executors.RayExecutor`) the games are split
    into chunks by game index and played there, with the same results.

    ``luck=True`` also measures each game's luck (``Results.luck``; the games are the same):
    the corrections a study subtracts for luck-adjusted estimates (docs/studies.md).

    Ctrl-C stops it within about a second with :class:`StudyInterrupted`, whose ``results``
    hold the games finished so far.
    """
    rules = check_study(rules, games, players, policy, seed, threads)
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
            luck=luck,
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
            luck,
        )
        return _results(rules, players, check_policy(policy, players), seed, first, cols)
    return Results.concat(parts)
