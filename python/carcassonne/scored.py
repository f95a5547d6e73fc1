"""What a step scored, as a person at the table says it: "player 2: city of 5 tiles with 2
pennants, 14 points". The engine logs every award and returned figure while a Python game plays
a step (src/engine/score_log.rs); this module groups them by feature and player."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

Spot = tuple[int, int, str]


@dataclass(frozen=True)
class ScoreEvent:
    """One player's share of one scoring: ``points`` (counted in ``breakdown[source]``) for a
    ``feature`` (``"city"``, ``"road"``, ``"field"``, ``"monastery"``, ``"garden"``; None for
    an expansion's points: tolls, goods, circus, acrobats, ringmaster, tents) made of ``tiles``
    with ``pennants`` coats of arms, found at ``at`` (x, y, segment label); ``returned`` lists
    the player's figures that went back to the supply, as (role, x, y, label). ``player``
    counts from 0 like every index of the API; ``str()`` says ``player N`` counting from 1,
    as the pictures do. A player whose figures a feature returns without points has an event
    with 0 points (``source`` None)."""

    player: int
    points: int
    source: str | None
    feature: str | None
    tiles: tuple[tuple[int, int], ...] = ()
    pennants: int = 0
    at: Spot | None = None
    returned: tuple[tuple[str, int, int, str], ...] = ()

    def __str__(self) -> str:
        what = _what(self)
        parts = [f"player {self.player + 1}: {what}" if what else f"player {self.player + 1}:"]
        if self.points or self.source is not None:
            parts.append(f"{self.points} point{'' if self.points == 1 else 's'}")
        text = ", ".join(parts) if what else " ".join(parts)
        if self.returned:
            back = "; ".join(f"{r} from {x},{y} {label}" for r, x, y, label in self.returned)
            text += f" ({back} returned)" if self.points or self.source else f" {back} returned"
        return text


def _what(e: ScoreEvent) -> str:
    if e.feature is None:
        return (e.source or "").replace("_", " ")
    n = len(e.tiles)
    if e.feature in ("monastery", "garden") and e.at is not None:
        return f"{e.feature} at {e.at[0]},{e.at[1]} with {n - 1} tiles around"
    text = f"{e.feature} of {n} tile{'' if n == 1 else 's'}"
    if e.pennants:
        text += f" with {e.pennants} pennant{'' if e.pennants == 1 else 's'}"
    return text


def events(raw: Iterable[Mapping[str, Any]]) -> list[ScoreEvent]:
    """The engine's log of one step -> one event per feature, player and source, in scoring
    order; points outside a feature stay one event each."""
    groups: dict[Any, dict[str, Any]] = {}
    for k, r in enumerate(raw):
        if r.get("points", 1) == 0:
            continue  # an award of nothing (a toll with no illustration): not worth a line
        f = r["feature"]
        if f is None:
            key: Any = k
        elif "points" in r:
            key = (tuple(f["at"]), r["player"], r["source"])
        else:  # a returned figure joins its owner's points for that feature, if any
            mine = (tuple(f["at"]), r["player"])
            key = next((g for g in groups if isinstance(g, tuple) and g[:2] == mine), (*mine, None))
        g = groups.setdefault(
            key,
            {"player": r["player"], "points": 0, "source": None, "feature": f, "returned": []},
        )
        if "points" in r:
            g["points"] += r["points"]
            g["source"] = r["source"]
        else:
            g["returned"].append(tuple(r["returned"]))
    out = []
    for g in groups.values():
        f = g["feature"]
        out.append(
            ScoreEvent(
                player=g["player"],
                points=g["points"],
                source=g["source"],
                feature=None if f is None else f["kind"],
                tiles=() if f is None else tuple(tuple(t) for t in f["tiles"]),
                pennants=0 if f is None else f["arms"],
                at=None if f is None else tuple(f["at"]),
                returned=tuple(g["returned"]),
            )
        )
    return out
