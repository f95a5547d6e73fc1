"""Native batch simulation: whole games in Rust, GIL released, results as columns."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from carcassonne import _core
from carcassonne._core import Catalogue
from carcassonne.rules import Rules

POLICIES = ("random", "greedy")


@dataclass
class Results:
    """Per-game results of a batch, one row per game, as numpy arrays.

    ``scores[g, p]`` is player p's total in game g, ``breakdown[g, p, s]`` their points from
    ``sources[s]``; ``winners[g]`` has bit p set when p won or tied for the win. ``seed[g]`` is
    the game's own seed: ``Game(rules, players, seed=int(seed[g]))`` draws the same tiles.
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

    def __len__(self) -> int:
        return len(self.seed)

    def won(self) -> np.ndarray:
        """Boolean (games, players): did player p win or tie for the win in game g."""
        bits = np.arange(self.players, dtype=np.uint8)
        return (self.winners[:, None] >> bits) & 1 == 1

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

    @staticmethod
    def concat(parts: list[Results]) -> Results:
        if not parts:
            raise ValueError("no results to concatenate")
        first = parts[0]
        return Results(
            rules=first.rules,
            players=first.players,
            policy=first.policy,
            master_seed=first.master_seed,
            **{
                k: np.concatenate([getattr(p, k) for p in parts])
                for k in ("seed", "turns", "discarded", "winners", "scores", "breakdown")
            },
        )


def _batch(
    rules: Rules,
    players: int,
    first: int,
    games: int,
    seed: int,
    policy: str,
    threads: int,
    catalogue: Catalogue | None,
) -> Results:
    raw = _core.simulate(
        players=players,
        games=games,
        seed=seed,
        policy=policy,
        threads=threads,
        first=first,
        catalogue=catalogue,
        **rules.to_dict(),
    )
    cols = {
        name: np.frombuffer(buf, dtype=dtype).reshape(shape)
        for name, (buf, dtype, shape) in raw.items()
    }
    return Results(rules=rules, players=players, policy=policy, master_seed=seed, **cols)


def _validate(
    rules: Rules | None, games: int, players: int, policy: str, seed: int, threads: int
) -> Rules:
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, not {type(rules).__name__}")
    seats = policy.split(",") if isinstance(policy, str) else None
    if not seats or any(p not in POLICIES for p in seats):
        raise ValueError(
            f"unknown policy {policy!r}; valid policies: {', '.join(POLICIES)} "
            "(one for all seats, or one per seat separated by commas)"
        )
    for name, value, low, high in (
        ("games", games, 0, 2**40),
        ("players", players, 2, 6),
        ("threads", threads, 0, 4096),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"{name} must be an int from {low} to {high}, got {value!r}")
    if not 2 <= players <= 6:
        raise ValueError(f"players must be from 2 to 6, got {players}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an int from 0 to 2**64-1, got {seed!r}")
    return rules


def simulate_chunks(
    rules: Rules | None = None,
    games: int = 1000,
    players: int = 2,
    policy: str = "random",
    seed: int = 0,
    threads: int = 0,
    *,
    chunk: int = 2000,
    catalogue: Catalogue | None = None,
) -> Iterator[Results]:
    """Like :func:`simulate`, but yields the results chunk by chunk (for progress bars and
    streaming large studies without holding every game in memory)."""
    rules = _validate(rules, games, players, policy, seed, threads)
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be an int >= 1, got {chunk!r}")
    done = 0
    while done < games:
        n = min(chunk, games - done)
        yield _batch(rules, players, done, n, seed, policy, threads, catalogue)
        done += n


def simulate(
    rules: Rules | None = None,
    games: int = 1000,
    players: int = 2,
    policy: str = "random",
    seed: int = 0,
    threads: int = 0,
    *,
    catalogue: Catalogue | None = None,
) -> Results:
    """Play ``games`` whole games natively on ``threads`` threads (0: all cores).

    ``policy`` is one native policy for every seat (``"random"``, ``"greedy"``) or one per
    seat, comma-separated (``"greedy,random"``: seat 1 greedy, seat 2 random, and so on
    cyclically).

    Game g uses a seed derived from ``seed`` and g alone, so results are identical for any
    thread count and any chunking.
    """
    rules = _validate(rules, games, players, policy, seed, threads)
    return _batch(rules, players, 0, games, seed, policy, threads, catalogue)
