"""Summaries of a results table: per variant and policy, paired comparisons, one game."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from carcassonne.errors import quote
from carcassonne.rules import Rules
from carcassonne.stats import Comparison, Tally, format_differences
from carcassonne.table.reader import check_rows, read_batches, read_meta
from carcassonne.table.schema import POINTS, RULE, TableError, rule_value


@dataclass
class TableSummary:
    """What :func:`summarise` finds in a results table."""

    tallies: dict[str, Tally]
    comparison: Comparison | None
    meta: dict[str, Any]
    rows: int = 0
    incomplete: int = 0  # rows of games that lack some seat
    notes: list[str] = field(default_factory=list)

    def text(self) -> str:
        parts = [t.summary() for t in self.tallies.values()]
        if self.comparison is not None:
            c = self.comparison
            parts.append(format_differences(c.differences(), c.baseline))
        parts += self.notes
        return "\n\n".join(parts)


REQUIRED = (
    "variant",
    "game",
    "seed",
    "players",
    "seat",
    "policy",
    "score",
    "won",
    "turns",
    "discarded",
)


def summarise(
    path: str | os.PathLike[str],
    baseline: str | None = None,
    fmt: str | None = None,
    *,
    batch_rows: int = 65_536,
) -> TableSummary:
    """Stream a results table into per-variant tallies and, when it holds several variants,
    a paired comparison (games matched by seed) of each with ``baseline`` (default: the
    study's baseline, else the first variant in the file)."""
    meta = read_meta(path)
    master = meta.get("seed") if isinstance(meta.get("seed"), int) else None
    base_name = baseline or meta.get("baseline")
    tallies: dict[str, Tally] = {}
    pending: dict[str, dict[str, np.ndarray] | None] = {}
    waiting: dict[str, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}
    comparison: Comparison | None = None
    comparable = True
    total = 0
    for batch in read_batches(path, fmt, batch_rows):
        missing = [c for c in REQUIRED if c not in batch]
        if missing:
            raise TableError(
                f"{quote(str(path))} is not a results table: no column {quote(missing[0])}"
            )
        check_rows(path, batch, total + 1)
        total += len(batch["game"])
        sources = [c[len(POINTS) :] for c in batch if c.startswith(POINTS)]
        variants = batch["variant"]
        for name in dict.fromkeys(variants.tolist()):
            part = {k: v[variants == name] for k, v in batch.items()}
            name = str(name)
            if name not in tallies:
                rules = {
                    k[len(RULE) :]: rule_value(k[len(RULE) :], part[k][0])
                    for k in part
                    if k.startswith(RULE)
                }
                tallies[name] = Tally(
                    int(part["players"][0]), sources, name=name, rules=rules, master_seed=master
                )
                pending[name] = None
                waiting[name] = []
            tally = tallies[name]
            prev = pending[name]
            if prev is not None:
                part = {k: np.concatenate([prev[k], part[k]]) for k in part}
            done, pending[name] = _complete_games(part, tally.players)
            if done is None:
                continue
            if tally.policies is None:
                tally.policies = [str(x) for x in done["policy"][0]]
            tally.add(
                done["score"], done["won"], done["breakdown"], done["turns"], done["discarded"]
            )
            if comparable:
                waiting[name].append((done["seed"], done["score"], done["won"]))
        if comparable and len({t.players for t in tallies.values()}) > 1:
            comparable = False
            waiting = {n: [] for n in waiting}
        names = list(tallies)
        if comparable and comparison is None and len(names) >= 2:
            base = base_name if base_name in tallies else (None if baseline else names[0])
            if base is not None:
                comparison = Comparison.empty(
                    names,
                    tallies[names[0]].players,
                    tallies[names[0]].sources,
                    baseline=base,
                    master_seed=master,
                )
                comparison.tallies = tallies
        if comparison is not None and comparable:
            for name in names:
                comparison.add_variant(name)
                for seeds, scores, won in waiting[name]:
                    comparison.add_games(name, seeds, scores, won)
                waiting[name] = []
    if not tallies:
        raise TableError(f"{str(path)!r} holds no games")
    if baseline is not None and baseline not in tallies:
        raise TableError(
            f"baseline {quote(baseline)} is not a variant of the table: {', '.join(tallies)}"
        )
    notes = []
    incomplete = sum(len(v["game"]) for v in pending.values() if v is not None)
    if incomplete:
        notes.append(f"({incomplete:,} rows belong to games that lack some seat: left out)")
    if not comparable:
        comparison = None
        notes.append("(variants have different player counts: no paired comparison)")
    if comparison is not None and sum(comparison.unpaired.values()):
        notes.append(
            f"({sum(comparison.unpaired.values()):,} games found no partner with the same "
            "seed in the baseline: left out of the differences)"
        )
    return TableSummary(tallies, comparison, meta, total, incomplete, notes)


def _complete_games(
    part: dict[str, np.ndarray], players: int
) -> tuple[dict[str, np.ndarray] | None, dict[str, np.ndarray] | None]:
    """Split rows into whole games (reshaped to (games, players)) and the rest."""
    order = np.lexsort((part["seat"], part["game"]))
    part = {k: v[order] for k, v in part.items()}
    game = part["game"]
    uniq, start, count = np.unique(game, return_index=True, return_counts=True)
    whole = count == players
    ok_game = np.isin(game, uniq[whole])
    if ok_game.any():
        # the seats of each whole game must be exactly 0..players-1
        seats = part["seat"][ok_game].reshape(-1, players)
        if not (seats == np.arange(players)).all():
            raise TableError("a game has a repeated or missing seat number")
    rest = {k: v[~ok_game] for k, v in part.items()}
    if not ok_game.any():
        return None, rest if len(rest["game"]) else None
    sel = {k: v[ok_game] for k, v in part.items()}
    k = len(sel["game"]) // players
    sources = [c for c in sel if c.startswith(POINTS)]
    done = {
        "seed": sel["seed"].reshape(k, players)[:, 0].astype(np.uint64),
        "score": sel["score"].reshape(k, players).astype(np.int64),
        "won": sel["won"].reshape(k, players).astype(bool),
        "turns": sel["turns"].reshape(k, players)[:, 0],
        "discarded": sel["discarded"].reshape(k, players)[:, 0],
        "policy": sel["policy"].reshape(k, players),
        "breakdown": np.stack([sel[c].reshape(k, players) for c in sources], axis=2)
        if sources
        else np.zeros((k, players, 0), np.int64),
    }
    return done, rest if len(rest["game"]) else None


def find_game(
    path: str | os.PathLike[str], game: int, variant: str | None = None
) -> dict[str, Any]:
    """The rows of game ``game`` (of ``variant``, or the only variant): rules, players, seed,
    per-seat policies and scores."""
    seen: list[str] = []
    rows_found: list[dict[str, Any]] = []
    for batch in read_batches(path):
        for name in dict.fromkeys(batch["variant"].tolist()):
            if str(name) not in seen:
                seen.append(str(name))
        sel = batch["game"] == game
        if variant is not None:
            sel &= batch["variant"] == variant
        for i in np.flatnonzero(sel):
            rows_found.append({k: v[i] for k, v in batch.items()})
    if variant is None and len(seen) > 1:
        raise TableError(f"the table holds several variants; choose one: {', '.join(seen)}")
    if variant is not None and variant not in seen:
        raise TableError(f"no variant {quote(variant)} in the table (it has {', '.join(seen)})")
    if not rows_found:
        raise TableError(f"no game {game} in the table")
    rows_found.sort(key=lambda r: int(r["seat"]))
    first = rows_found[0]
    rules = Rules(
        **{
            k[len(RULE) :]: rule_value(k[len(RULE) :], v)
            for k, v in first.items()
            if k.startswith(RULE)
        }
    )
    return {
        "variant": str(first["variant"]),
        "game": int(first["game"]),
        "rules": rules,
        "players": int(first["players"]),
        "seed": int(first["seed"]),
        "policy": ",".join(str(r["policy"]) for r in rows_found),
        "scores": [int(r["score"]) for r in rows_found],
    }
