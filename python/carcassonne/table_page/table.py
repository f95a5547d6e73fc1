"""The one game a table page follows: every change checked against the state the page saw,
saved to its file at once, taken back and done again without limit, and announced to every
open page. The engine decides every rule; this module keeps the history and says what
happened in a table's words (:mod:`carcassonne.table_page.words`)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from carcassonne import render
from carcassonne.errors import RecordError
from carcassonne.game import Decision, Game
from carcassonne.render.symbols import PLAYER_COLOURS, PLAYER_NAMES, player_colour, player_name
from carcassonne.table_page.suggest import suggest
from carcassonne.table_page.words import event_words, move_words, player_label
from carcassonne.tiles import GOODS

META = "table"  # the record's meta namespace for the page's own data (player names)
MAX_NAME = 40


class Stale(Exception):
    """A change made for a state the table has left (another device changed the game)."""


class NotSaved(Exception):
    """A change that could not be saved to the table's file, and so was not made."""


@dataclass
class Table:
    """The game, its redo list, where it is saved, and the pages listening."""

    game: Game
    save_to: Path | None = None
    version: int = 0  # counts changes; a page names the one it saw with every change
    redo: list[tuple[str, str]] = field(default_factory=list)  # ("draw"|"play", text), last first
    who: list[str] = field(default_factory=list)  # the device that made each step
    last_change: dict[str, Any] | None = None
    listeners: set[asyncio.Queue[int]] = field(default_factory=set)
    _log: tuple[int, list[dict[str, Any]]] | None = None

    def __post_init__(self) -> None:
        self.who = [""] * self._steps()

    # -- changes ----------------------------------------------------------------------------

    def change(self, version: Any, device: Any, what: str, act: Callable[[], str]) -> None:
        """Apply ``act`` (which returns what it did, in words) if the page saw the current
        state, then save and tell every page. ``version`` is the state the page saw."""
        if isinstance(version, bool) or not isinstance(version, int):
            raise ValueError("every change names the state it was made for ('version': int)")
        if version != self.version:
            raise Stale(
                "the game changed on another device since this page showed it; look again "
                "and repeat if it still applies"
            )
        device = device if isinstance(device, str) and device.strip() else "a device"
        kept = (self.game.copy(), list(self.redo), list(self.who), self.save_to)
        done = act()  # a refused step raises and changes nothing
        try:
            self.save()
        except OSError as e:
            # Not made either: the page, its file and the other devices keep showing one game.
            path = self.save_to
            self.game, self.redo, self.who, self.save_to = kept
            raise NotSaved(
                f"the step is not made: cannot save the game to {path}: {e.strerror or e}"
            ) from None
        self.version += 1
        self.last_change = {"device": device.strip()[:MAX_NAME], "what": done, "kind": what}
        for q in list(self.listeners):
            q.put_nowait(self.version)

    def draw(self, tile: str, device: str) -> str:
        self.game.draw(tile)
        drawn = self._last_draw()
        self._stepped(("draw", drawn), device)
        return f"entered the draw {drawn}"

    def play(self, move: str, device: str) -> str:
        player = self.game.turn
        self.game.play(move)
        text = str(self.game.move_stack[-1])
        self._stepped(("play", text), device)
        return f"{self.name(player)}: {move_words(text)}"

    def _stepped(self, step: tuple[str, str], device: str) -> None:
        # A step that is the one undone last keeps the rest of the redo list.
        if self.redo and self.redo[-1] == step:
            self.redo.pop()
        else:
            self.redo.clear()
        self.who.append(device)

    def undo(self) -> str:
        step = self.game.undo()  # IndexError when nothing is left
        kind = "draw" if isinstance(step, str) else "play"
        self.redo.append((kind, str(step)))
        self.who.pop()
        return f"took back {'the draw ' if kind == 'draw' else ''}{step}"

    def redo_step(self, device: str) -> str:
        if not self.redo:
            raise IndexError("nothing to redo")
        kind, text = self.redo[-1]
        return self.draw(text, device) if kind == "draw" else self.play(text, device)

    def load(self, text: str, save_to: Path | None) -> str:
        """Replace the game by a record; the replaced game stays in its own file."""
        game = Game.from_record(text)
        _names(game), _colours(game)  # a record's page data must be sound too
        self.game = game
        self.redo.clear()
        self.who = [""] * self._steps()
        if save_to is not None:
            self.save_to = save_to
        return "loaded a saved game"

    def set_players(self, names: Any, colours: Any) -> str:
        """The players' names and the colours of their meeples in the box."""
        n = self.game.players
        if not isinstance(names, list) or len(names) != n:
            raise ValueError(f"names: a list of {n} names")
        clean = []
        for name in names:
            if not isinstance(name, str) or len(name) > MAX_NAME:
                raise ValueError(f"a name is text of at most {MAX_NAME} characters")
            clean.append(" ".join(name.split()))
        if colours is None:
            colours = [player_name(i) for i in range(n)]
        if (
            not isinstance(colours, list)
            or len(colours) != n
            or not all(c in PLAYER_NAMES for c in colours)
            or len(set(colours)) != n
        ):
            raise ValueError(f"colours: {n} different colours of {', '.join(PLAYER_NAMES)}")
        self.game.meta[META] = {"names": clean, "colours": colours}
        return "named the players " + ", ".join(f"{self.name(i)} ({colours[i]})" for i in range(n))

    # -- reading ----------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return _names(self.game)

    @property
    def colours(self) -> list[str]:
        """Each player's meeple colour (by name): the table's choice, else the seat's."""
        return _colours(self.game)

    def name(self, player: int) -> str:
        return player_label(player, self.names)

    def _steps(self) -> int:
        rec = self.game.record()
        return len(rec["draws"]) + len(rec["moves"])

    def _last_draw(self) -> str:
        return self.game.record()["draws"][-1]

    def save(self) -> None:
        """Write the record next to its file and move it over (never half a file)."""
        if self.save_to is None:
            return
        self.save_to.parent.mkdir(parents=True, exist_ok=True)
        part = self.save_to.with_name(self.save_to.name + ".part")
        with part.open("w", encoding="utf-8") as f:
            f.write(self.game.to_json(indent=1))
            f.flush()
            # On the disk before it replaces the last save: after a power cut or a crash of the
            # computer the file holds one whole game, never an empty one.
            os.fsync(f.fileno())
        os.replace(part, self.save_to)

    def log(self) -> list[dict[str, Any]]:
        """Every step so far, first first: who did what, what it scored, what to do at the
        table. Read from the game's own history (a copy taken back step by step)."""
        if self._log is not None and self._log[0] == self.version:
            return self._log[1]
        g = self.game.copy()
        names = self.names
        out: list[dict[str, Any]] = []
        n = len(self.who)
        while n:
            after = _table_facts(g)
            events = g.scored
            decision = g.decision
            step = g.undo()
            n -= 1
            player = g.turn
            before = _table_facts(g)
            kind = "draw" if isinstance(step, str) else "play"
            if kind == "draw":
                text = (
                    f"drew {step}"
                    if not str(step).startswith("animal:")
                    else (f"the big top's animal token: {str(step).split(':')[1]} points")
                )
            else:
                text = move_words(str(step))
            out.append(
                {
                    "step": n + 1,
                    "player": player + 1,
                    "name": player_label(player, names),
                    "kind": kind,
                    "text": text,
                    "device": self.who[n] if n < len(self.who) else "",
                    "points": [
                        {"player": e.player + 1, "points": e.points, "text": event_words(e, names)}
                        for e in events
                    ],
                    "todo": _todo(before, after, events, decision, names),
                }
            )
        out.reverse()
        self._log = (self.version, out)
        return out

    def view(self) -> dict[str, Any]:
        """Everything the page shows; players counted from 1 as people count them."""
        g = self.game
        over = g.is_over()
        legal = [str(m) for m in g.legal_moves] if not over else []
        names = self.names
        colours = self.colours
        log = self.log()
        return {
            "version": self.version,
            "decision": g.decision.value,
            "player": g.turn + 1,
            "players": [
                {
                    "number": i + 1,
                    "name": names[i] if i < len(names) else "",
                    "label": player_label(i, names),
                    "colour": colours[i],
                    "hex": PLAYER_COLOURS[PLAYER_NAMES.index(colours[i])],
                    "score": g.scores[i],
                    "figures": g.supply(i),
                    "goods": g.goods(i),
                }
                for i in range(g.players)
            ],
            "tile": g.tile,
            "hand": g.hand,
            "drawable": g.drawable if g.decision.is_chance else {},
            "legal": legal,
            "legal_words": {m: move_words(m) for m in legal},
            "scores": g.scores,
            "winners": [w + 1 for w in g.winners] if over else [],
            "double_turn": g.double_turn,
            "board": recolour(
                render.svg(g, coordinates=True, open_positions=True, scores=False), colours
            ),
            "can_undo": bool(self.who),
            "can_redo": bool(self.redo),
            "redo": self.redo[-1][1] if self.redo else None,
            "log": log,
            "todo": log[-1]["todo"] if log else [],
            "last_change": self.last_change,
            "saved_to": str(self.save_to) if self.save_to is not None else None,
            "end": end_table(g, names) if over else None,
        }

    def preview(self, move: str) -> dict[str, Any]:
        """The board as it would be after ``move`` (nothing changes)."""
        g = self.game.copy()
        g.play(move)
        placed = g.move_stack[-1]
        return {
            "move": str(placed),
            "words": move_words(str(placed)),
            "board": recolour(render.svg(g, coordinates=True, scores=False), self.colours),
            "x": placed.x if placed.places_tile else None,
            "y": placed.y if placed.places_tile else None,
        }

    def suggestion(self) -> dict[str, Any]:
        if not self.game.legal_moves:
            raise ValueError("no decision waits: nothing to suggest")
        move = str(suggest(self.game))
        return {**self.preview(move), "version": self.version}


def _names(game: Game) -> list[str]:
    data = game.meta.get(META, {})
    names = data.get("names", []) if isinstance(data, dict) else []
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise RecordError(f"meta '{META}': 'names' must be a list of texts")
    try:
        "".join(names).encode("utf-8")
    except UnicodeEncodeError:
        raise RecordError(f"meta '{META}': a name is not valid Unicode text") from None
    return [n[:MAX_NAME] for n in names]


def _colours(game: Game) -> list[str]:
    data = game.meta.get(META, {})
    colours = data.get("colours") if isinstance(data, dict) else None
    seats = [player_name(i) for i in range(game.players)]
    if colours is None:
        return seats
    if (
        not isinstance(colours, list)
        or len(colours) != game.players
        or not all(c in PLAYER_NAMES for c in colours)
    ):
        raise RecordError(f"meta '{META}': 'colours' must name one colour per player")
    return colours


# A figure's or tollhouse's group in the board picture, up to its title (render.svg's markup).
_OWNED = re.compile(r'<g class="(?:figure [^"]*|tollhouse) player-(\d+)"(.*?)<title>', re.S)


def recolour(svg: str, colours: list[str]) -> str:
    """The board with each player's figures in the colour of their meeples in the box."""
    if colours == [player_name(i) for i in range(len(colours))]:
        return svg

    def paint(m: re.Match[str]) -> str:
        seat = int(m.group(1))
        if seat >= len(colours):
            return m.group(0)
        new = PLAYER_COLOURS[PLAYER_NAMES.index(colours[seat])]
        body = m.group(2).replace(f'fill="{player_colour(seat)}"', f'fill="{new}"')
        if colours[seat] == "black":  # a light outline, as the picture gives black figures
            body = body.replace('stroke="#151515"', 'stroke="#f0f0f0"')
        elif player_name(seat) == "black":
            body = body.replace('stroke="#f0f0f0"', 'stroke="#151515"')
        return m.group(0)[: m.start(2) - m.start(0)] + body + "<title>"

    return _OWNED.sub(paint, svg)


def _table_facts(g: Game) -> dict[str, Any]:
    return {
        "goods": [g.goods(p) for p in range(g.players)],
        "discarded": g.discarded,
        "double_turn": g.double_turn,
        "hand": g.hand,
        "decision": g.decision,
        "turn": g.turn,
    }


def _todo(
    before: dict[str, Any],
    after: dict[str, Any],
    events: list[Any],
    decision: Decision,
    names: list[str],
) -> list[str]:
    """What the people at the table do after a step, besides moving figures the page shows."""
    out = []
    for p, (was, now) in enumerate(zip(before["goods"], after["goods"], strict=True)):
        given = {k: now.get(k, 0) - was.get(k, 0) for k in GOODS if now.get(k, 0) > was.get(k, 0)}
        if given:
            what = ", ".join(f"{n} {k}" for k, n in given.items())
            out.append(f"hand {player_label(p, names)} goods tokens: {what}")
    for e in events:
        for role, x, y, label in e.returned:
            out.append(
                f"{player_label(e.player, names)} takes back the {role} from {x},{y} ({label})"
            )
        if e.points:
            out.append(f"{player_label(e.player, names)} moves the score marker {e.points} on")
    if after["discarded"] > before["discarded"]:
        out.append("the tile fits nowhere: put it back in the box and draw another")
    if after["double_turn"] == "second part" and before["double_turn"] != "second part":
        out.append(f"{player_label(after['turn'], names)} takes another turn (the builder)")
    if decision == Decision.DRAW and after["hand"]:
        out.append("draw another tile for the fortune teller's hand")
    if decision == Decision.CHOOSE:
        out.append("choose which tile of the hand to place; the rest go back in the bag")
    if decision == Decision.REVEAL:
        out.append("turn over the animal token under the big top")
    if decision == Decision.FARMER:
        out.append("the pig's owner decides: keep the farmer or take it back")
    return out


def end_table(g: Game, names: list[str]) -> dict[str, Any]:
    """The final scores by category, and every field's scoring in words."""
    sources = sorted({s for b in g.breakdown for s in b})
    cities = {f.at: f.completed_cities for f in g.features() if f.kind == "field"}
    fields = []
    for e in g.scored:  # the last step's events hold the final scoring
        if e.feature == "field" and e.points:
            n = cities.get(e.at)
            why = "" if n is None else f" (it counted {n} completed cit{'y' if n == 1 else 'ies'})"
            fields.append(event_words(e, names) + why)
    return {
        "sources": sources,
        "rows": [
            {
                "label": player_label(p, names),
                "points": [g.breakdown[p].get(s, 0) for s in sources],
                "total": g.scores[p],
            }
            for p in range(g.players)
        ],
        "fields": fields,
    }


def autosave_path(directory: Path) -> Path:
    """A new file for a new game: the date and time, never an older game's file."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = directory / f"table-{stamp}.json"
    k = 1
    while path.exists():
        k += 1
        path = directory / f"table-{stamp}-{k}.json"
    return path


def read_record(path: Path, limit: int) -> str:
    """A saved game's text, read with a cap (a device or a huge file is refused)."""
    if not path.is_file():
        raise OSError(f"{path} is not a file")
    with path.open("rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise OSError(f"{path} is larger than {limit:,} bytes")
    return data.decode("utf-8")


def record_text(game: Game) -> str:
    """The record as JSON text: the seed stays exact (the page never parses it)."""
    return json.dumps(game.record(), indent=1)
