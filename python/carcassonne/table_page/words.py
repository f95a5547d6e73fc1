"""Moves, scorings and tiles said the way people at a table say them: "place CITY3 at 1,0
turned 90°, a knight on the city (north side)", "Anna: city of 5 tiles with 2 pennants, 14
points". Everything here reads the engine's answers (move text, ``ScoreEvent``, ``TileLook``);
no rule is decided."""

from __future__ import annotations

from collections.abc import Sequence

from carcassonne.scored import ScoreEvent
from carcassonne.tiles import TileLook

SIDES = {"N": "north", "E": "east", "S": "south", "W": "west"}
# A half-edge port names a field by the side it touches (docs/notation.md).
HALF_SIDES = {
    "NNW": "north", "NNE": "north", "ENE": "east", "ESE": "east",
    "SSE": "south", "SSW": "south", "WSW": "west", "WNW": "west",
}  # fmt: skip
ROLES = {
    "city": "knight", "road": "thief", "field": "farmer", "monastery": "monk",
    "tent": "fortune teller", "garden": "abbot",
}  # fmt: skip


def spot(label: str) -> str:
    """``city:N`` -> "the city (north side)"; ``field#2`` -> "the field (inner, 2)"."""
    kind, _, port = label.partition(":")
    kind, _, number = kind.partition("#")
    where = SIDES.get(port) or HALF_SIDES.get(port)
    if where:
        return f"the {kind} ({where} side)"
    return f"the {kind} ({number})" if number else f"the {kind}"


def _role(label: str) -> str:
    return ROLES.get(label.split(":")[0].split("#")[0], "meeple")


def move_words(text: str) -> str:
    """A move's text as a sentence (docs/notation.md lists every form)."""
    parts = text.split()
    if parts[0] == "keep-farmer":
        return "keep the farmer on the field"
    if parts[0] == "return-farmer":
        return "take the farmer back"
    if parts[0] == "choose":
        return f"place {parts[1]} from the fortune teller's hand"
    where = f"at {parts[0]} turned {parts[1]}°"
    rest = parts[2:]
    extra = ""
    if rest and rest[-1] in ("+builder", "+pig"):
        extra = f" with the {rest[-1][1:]}"
        rest = rest[:-1]
    if not rest:
        return f"place it {where}, no figure"
    action, arg = rest[0], " ".join(rest[1:])
    said = {
        "meeple": lambda: f"a {_role(arg)} on {spot(arg)}{extra}",
        "abbot": lambda: f"the abbot on {spot(arg)}",
        "recall": lambda: f"take the abbot back from {arg} (it scores)",
        "builder": lambda: f"the builder on {spot(arg)}",
        "pig": lambda: f"the pig on {spot(arg)}",
        "tollhouse": lambda: f"the tollhouse to the crossroads at {arg}",
        "ringmaster": lambda: f"the ringmaster on {spot(arg)}",
        "acrobat": lambda: f"a meeple onto the acrobat space at {arg}",
        "score-pyramid": lambda: f"score the acrobat pyramid at {arg}",
    }.get(action)
    return f"place it {where}, " + (said() if said else " ".join(rest))


def figure_words(text: str) -> str:
    """The figure part of a placement alone: "a knight on the city (north side)", or "no
    figure"."""
    words = move_words(text)
    return words.split(", ", 1)[1] if ", " in words else words


def player_label(player: int, names: Sequence[str]) -> str:
    """Player ``player`` (from 0) by the name the table gave, else "player N"."""
    name = names[player] if player < len(names) else ""
    return name or f"player {player + 1}"


def event_words(e: ScoreEvent, names: Sequence[str]) -> str:
    """``str(ScoreEvent)`` with the player's name."""
    text = str(e)
    prefix = f"player {e.player + 1}"
    return player_label(e.player, names) + text[len(prefix) :] if text.startswith(prefix) else text


def tile_words(t: TileLook) -> str:
    """What is printed on a tile: "city on 3 sides, a road, 1 shield, garden"."""
    counts = {k: t.edges.count(k) for k in "CRFI"}
    parts = []
    for letter, name in (("C", "city"), ("R", "road"), ("I", "river")):
        n = counts[letter]
        if n:
            parts.append(f"{name} on {n} side{'' if n == 1 else 's'}")
    if t.cities > 1:
        parts.append(f"{t.cities} separate cities")
    if t.roads > 1:
        parts.append(f"{t.roads} roads")
    parts += list(t.spaces)
    if t.arms:
        parts.append(f"{t.arms} shield{'' if t.arms == 1 else 's'}")
    parts += list(t.goods) + list(t.illustrations)
    return ", ".join(parts) or "fields only"
