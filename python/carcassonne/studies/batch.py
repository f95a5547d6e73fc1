"""A study as a batch of games split into chunks: game g's seed, chunk sizes, running the
chunks here or on an executor, and the checks of a study's arguments.

Game g of a study played from master seed ``seed`` always uses ``game_seed(seed, g)``, so
results are identical for any thread count, any chunking, and any executor (threads,
processes, Dask, Ray) that the chunks are spread over.
"""

from __future__ import annotations

import math
import operator
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future
from typing import Any

from carcassonne import _core
from carcassonne.policies import check_policy
from carcassonne.rules import Rules

_MASK = (1 << 64) - 1


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` of a study with master seed ``master`` (what the native
    batch runner uses): ``Game(rules, players, seed=game_seed(master, g))`` draws the same
    tiles as game g of ``simulate(rules, players=players, seed=master)``."""
    checked = []
    for name, value in (("master", master), ("index", index)):
        try:
            whole = None if isinstance(value, bool) else operator.index(value)  # numpy too
        except TypeError:
            whole = None
        if whole is None or not 0 <= whole <= _MASK:
            # Masked, 2**64 would be master 0's deals and -1 another study's.
            raise ValueError(f"{name} must be an int from 0 to 2**64-1, not {value!r}")
        checked.append(whole)
    return _core.game_seed(*checked)


class Chunker:
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


def default_inflight(executor: Executor) -> int:
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
    limit = max(1, inflight or default_inflight(executor))
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


# -- checks ------------------------------------------------------------------------------


# More native threads than any machine has cores only costs memory (and thousands fail).
MAX_THREADS = 256


def check_int(name: str, value: Any, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be an int from {low} to {high}, got {value!r}")


def check_study(
    rules: Rules | None, games: int, players: int, policy: Any, seed: int, threads: int
) -> Rules:
    """The study's rules (the defaults for None), after checking every argument of a study."""
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, not {type(rules).__name__}")
    check_int("games", games, 0, 2**40)
    check_int("players", players, 2, 6)
    check_policy(policy, players)
    check_int("threads", threads, 0, MAX_THREADS)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an int from 0 to 2**64-1, got {seed!r}")
    return rules


def check_chunk(chunk: int | None) -> None:
    if chunk is not None and (isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1):
        raise ValueError(f"chunk must be an int >= 1 (or None: adaptive), got {chunk!r}")


def executor_chunk(games: int, chunk: int | None) -> int:
    return chunk or max(16, min(2000, math.ceil(games / 64)))
