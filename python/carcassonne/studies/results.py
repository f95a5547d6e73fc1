"""The results of a batch of games (one row per game, numpy columns), how the chunks of a study
are gathered (keeping the finished ones on Ctrl-C), and any game replayed from its seed."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from carcassonne import _core
from carcassonne._core import Catalogue
from carcassonne.game import Game
from carcassonne.policies import check_policy, parsed_policy, seat_texts
from carcassonne.rules import Rules

COLUMNS = ("seed", "turns", "discarded", "winners", "scores", "breakdown")
# Each game's luck, when the batch measured it (``simulate(luck=True)``; docs/studies.md):
# per player (``luck_score``, ``luck_win``) and per game (``luck_margin``, ``luck_events``).
LUCK = ("luck_score", "luck_win", "luck_margin", "luck_events")


@dataclass
class Results:
    """Per-game results of a batch, one row per game, as numpy arrays.

    ``scores[g, p]`` is player p's total in game g, ``breakdown[g, p, s]`` their points from
    ``sources[s]``; ``winners[g]`` has bit p set when p won or tied for the win. ``seed[g]`` is
    the game's own seed: ``Game(rules, players, seed=int(seed[g]))`` draws the same tiles.
    Row g is game ``first + g`` of the study. ``records`` holds each game's record
    (:meth:`Game.record`) when a Python-driven study was asked to keep them. ``luck`` holds
    each game's measured luck (:data:`LUCK` columns) when the batch measured it.
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
    luck: dict[str, np.ndarray] | None = field(default=None, repr=False)

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
        try:
            names = seat_texts(self.policy)
        except ValueError:  # Python agents' names, not policy text
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
        """Game g (a row index) replayed move by move as a :class:`Game` with its full record
        (native policies only: see :func:`replay`)."""
        return replay(self.rules, self.players, int(self.seed[g]), self.policy)

    @staticmethod
    def concat(parts: list[Results]) -> Results:
        if not parts:
            raise ValueError("no results to concatenate")
        first = parts[0]
        records = None
        if all(p.records is not None for p in parts):
            records = [r for p in parts for r in p.records or ()]
        luck = None
        if all(p.luck is not None for p in parts):
            luck = {k: np.concatenate([(p.luck or {})[k] for p in parts]) for k in LUCK}
        return Results(
            rules=first.rules,
            players=first.players,
            policy=first.policy,
            master_seed=first.master_seed,
            sources=first.sources,
            first=first.first,
            records=records,
            luck=luck,
            **{k: np.concatenate([getattr(p, k) for p in parts]) for k in COLUMNS},
        )


class StudyInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a batch (:func:`carcassonne.simulate`,
    :func:`carcassonne.players.simulate_agents`) within about a second. ``results`` holds
    every game finished before it, in game order from the first (a :class:`Results`), or
    None when none had finished. Being a
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


def replay(
    rules: Rules | None,
    players: int,
    seed: int,
    policy: str | Sequence[str] = "random",
    *,
    catalogue: Catalogue | None = None,
) -> Game:
    """Replay a natively simulated game from its seed (``Results.seed[g]`` or a table's
    ``seed`` column) and return it, with its full record. Every native policy is replayed
    (the game is played again natively, then its moves on a :class:`Game`), so a search
    player's game costs its search time again."""
    rules = Rules() if rules is None else rules
    try:
        canonical = check_policy(policy, players)
    except ValueError as e:
        raise ValueError(
            f"cannot replay policy {policy!r}: {e} (only native policies are replayed from a "
            "seed; Python agents keep records with simulate_agents(record_games=True))"
        ) from None
    texts = _core.game_moves(
        players, seed, parsed_policy(canonical), catalogue=catalogue, rules=rules
    )
    game = Game(rules, players, seed, catalogue=catalogue)
    for text in texts:
        game.play(text)
    return game
