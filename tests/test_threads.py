"""One game (or environment), several threads: every call either runs alone or is refused
with GameInUseError before it changes anything, so the record always replays. The threads
switch as often as Python allows (``sys.setswitchinterval``), which is what made the Python
bookkeeping between engine calls interleave before games had a guard."""

from __future__ import annotations

import random
import sys
import threading
from collections import Counter

import numpy as np
import pytest

from carcassonne import DrawError, Game, IllegalMoveError, Rules
from carcassonne.errors import GameInUseError

THREADS = 4
CALLS = 1500  # per thread


@pytest.fixture
def switch_often():
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def _hammer(work, threads: int = THREADS) -> Counter:
    """Run ``work(rng, tally)`` on ``threads`` threads at once; return what they tallied,
    every exception included by type name."""
    tally: Counter = Counter()
    lock = threading.Lock()
    start = threading.Barrier(threads)

    def run(k: int) -> None:
        rng = random.Random(k)
        mine: Counter = Counter()
        start.wait()
        for _ in range(CALLS):
            try:
                work(rng)
                mine["ok"] += 1
            except GameInUseError:
                mine["in use"] += 1
            except (DrawError, IllegalMoveError, IndexError):
                mine["refused"] += 1  # decided on what another thread then changed
            except Exception as e:  # anything else is the failure this test is about
                mine[f"{type(e).__name__}: {e}"] += 1
        with lock:
            tally.update(mine)

    ts = [threading.Thread(target=run, args=(k,)) for k in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return tally


def _unexpected(tally: Counter) -> dict:
    return {k: v for k, v in tally.items() if k not in ("ok", "in use", "refused")}


def test_a_manual_game_from_several_threads_keeps_a_record_that_replays(switch_often):
    g = Game(Rules(), players=2, seed=3, chance="manual")

    def work(rng: random.Random) -> None:
        r = rng.random()
        if r < 0.15:
            g.undo()
        elif g.decision == "draw":
            g.draw(rng.choice(sorted(g.drawable)))
        elif not g.is_over():
            g.play(rng.choice(g.legal_moves))

    tally = _hammer(work)
    assert not _unexpected(tally), tally
    assert tally["ok"] > 0
    again = Game.from_record(g.record())
    assert again.fingerprint() == g.fingerprint()
    assert again.move_stack == g.move_stack


def test_an_auto_game_from_several_threads_raises_only_game_in_use(switch_often):
    g = Game(Rules(), players=2, seed=5)

    def work(rng: random.Random) -> None:
        r = rng.random()
        if r < 0.3:
            g.legal_moves  # noqa: B018 (a read, raced against the steps)
        elif r < 0.4:
            g.pop()
        elif r < 0.5:
            g.scores  # noqa: B018
        elif not g.is_over():
            g.play(rng.choice(g.legal_moves))

    tally = _hammer(work)
    assert not _unexpected(tally), tally
    again = Game.from_record(g.record())
    assert again.fingerprint() == g.fingerprint()


def test_a_copy_per_thread_is_never_refused(switch_often):
    """The documented way: each thread its own copy, none refused."""
    g = Game(Rules(), players=2, seed=9)
    copies = [g.copy() for _ in range(THREADS)]
    errors: list[BaseException] = []

    def run(c: Game) -> None:
        try:
            while not c.is_over():
                c.play(c.legal_moves[0])
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    ts = [threading.Thread(target=run, args=(c,)) for c in copies]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors
    assert len({c.fingerprint() for c in copies}) == 1


def test_a_vector_env_from_several_threads_raises_only_game_in_use(switch_often):
    from carcassonne.env import VectorEnv

    env = VectorEnv(Rules.base(), players=2, num_envs=4, seed=1)
    env.reset(seed=1)

    def work(rng: random.Random) -> None:
        if rng.random() < 0.5:
            env.legal_lists()
        else:
            flat, starts = env.legal_lists()
            acts = np.array([flat[starts[i]] for i in range(env.num_envs)], np.int64)
            env.step(acts)

    tally = _hammer(work)
    assert not _unexpected(tally), tally


def test_a_single_env_from_several_threads_raises_only_game_in_use(switch_often):
    from carcassonne.env import CarcassonneEnv

    env = CarcassonneEnv(Rules.base(), players=2)
    env.reset(seed=1)

    def work(rng: random.Random) -> None:
        with env._owner:  # the mask, read as a call would (it may be stale by the step)
            legal = np.flatnonzero(env._mask[0])
        try:
            _, _, over, _, _ = env.step(int(legal[0]) if len(legal) else 0)
        except RuntimeError as e:
            if isinstance(e, GameInUseError) or "game is over" not in str(e):
                raise
            over = True
        if over:
            env.reset(seed=rng.randrange(100))

    tally = _hammer(work)
    assert not _unexpected(tally), tally


def test_the_guard_is_no_lock_a_thread_waits_on():
    """A refused call returns at once, and the game works again when the first is done."""
    g = Game(Rules(), players=2, seed=1)
    seen: list[BaseException] = []

    with g._owner:
        t = threading.Thread(target=lambda: _try(g, seen))
        t.start()
        t.join()
    assert len(seen) == 1 and isinstance(seen[0], GameInUseError)
    assert "one game, one thread at a time" in str(seen[0])
    g.play(g.legal_moves[0])  # free again


def _try(g: Game, seen: list[BaseException]) -> None:
    try:
        g.play(g.legal_moves[0])
    except BaseException as e:  # noqa: BLE001
        seen.append(e)
