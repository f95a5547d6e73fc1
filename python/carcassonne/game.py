"""A game of Carcassonne driven from Python: decisions, legal moves, undo, records."""

from __future__ import annotations

import json
import operator
import os
import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from numbers import Real
from typing import Any

from carcassonne import _core, tiles
from carcassonne._core import Catalogue, Move
from carcassonne.errors import (
    DrawError,
    IllegalMoveError,
    InvalidMoveError,
    OneThread,
    RecordError,
    one_thread,
    quote,
)
from carcassonne.expansions import Expansions
from carcassonne.rules import Rules
from carcassonne.scored import ScoreEvent, events

RECORD_FORMAT = "carcassonne-record"
# 2: seeds deal bags by key (``_core.DEAL_VERSION``). A version-1 record's seed dealt another
# order: its draws, all written out, replay as given and the game goes on with manual draws.
RECORD_VERSION = 2
_OLD_DEALS = 1
_MAX_RECORD_ITEMS = 10_000
_MAX_TEXT = 200
MAX_META_BYTES = 65_536
_NAMESPACE = re.compile(r"[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)*")


def check_meta(meta: Any) -> dict[str, dict[str, Any]]:
    """A record's ``meta`` field, checked: namespace -> JSON object, the whole at most
    ``MAX_META_BYTES`` of JSON. A namespace is lower-case words joined by dots (``table``,
    ``org.example.app``, at most 64 characters), so apps keep apart. Returns a copy; anything
    else raises ``RecordError`` saying what is wrong."""
    if not isinstance(meta, Mapping):
        raise RecordError(f"field 'meta' must be an object namespace -> object, not {quote(meta)}")
    for ns, value in meta.items():
        if not isinstance(ns, str) or len(ns) > 64 or not _NAMESPACE.fullmatch(ns):
            raise RecordError(
                f"meta namespace {quote(ns)} must be lower-case words joined by dots, like "
                "'table' or 'org.example.app', at most 64 characters"
            )
        if not isinstance(value, Mapping):
            raise RecordError(f"meta[{ns!r}] must be an object, not {quote(value)}")
    try:
        text = json.dumps(meta, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as e:
        raise RecordError(f"field 'meta' must be plain JSON data: {e}") from None
    if len(text.encode()) > MAX_META_BYTES:
        raise RecordError(
            f"field 'meta' is {len(text.encode()):,} bytes of JSON; at most {MAX_META_BYTES:,}"
        )
    copied: dict[str, dict[str, Any]] = json.loads(text)
    return copied


class Decision(StrEnum):
    """What the game waits for: the engine's decisions (``carcassonne._core.Decision``) as
    text-valued members, so ``Decision.PLACE == "place"``."""

    DRAW = _core.Decision.DRAW.value  # chance: a tile must be drawn (only with chance="manual")
    PLACE = _core.Decision.PLACE.value  # the current player places the tile and takes an action
    FARMER = _core.Decision.FARMER.value  # T&B C3.1: a pig's owner keeps or returns its farmer
    CHOOSE = _core.Decision.CHOOSE.value  # Fortune Teller: pick one of the drawn tiles
    REVEAL = _core.Decision.REVEAL.value  # chance (Under the Big Top): the animal token
    OVER = _core.Decision.OVER.value  # final scoring is done

    @property
    def is_chance(self) -> bool:
        """A chance step (``draw`` or ``reveal``): the bag or the animal tokens decide, not a
        player. The engine's answer (``_core.Decision.is_chance``)."""
        return bool(getattr(_core.Decision, self.name).is_chance)


# Decisions a player makes with a move (the others are chance steps and the end).
_MOVE_DECISIONS = tuple(d for d in Decision if not d.is_chance and d is not Decision.OVER)


@dataclass(frozen=True)
class PlacedTile:
    x: int
    y: int
    tile: str
    rotation: int


@dataclass(frozen=True)
class Figure:
    player: int
    role: str  # "meeple" or "abbot"
    x: int
    y: int
    segment: str  # label on its tile, e.g. "city:N"
    feature: str  # "city", "road", "field", "monastery", "garden"


@dataclass(frozen=True)
class Feature:
    kind: str
    tiles: tuple[tuple[int, int], ...]
    complete: bool
    open_edges: int
    arms: int
    figures: tuple[tuple[int, str, int, int, str], ...]
    at: tuple[int, int, str]
    completed_cities: int | None = None


def _bag_spec(bag: Any) -> tuple[list[str], bool] | None:
    """A ``bag`` argument -> (tile ids, drawn in order?), or None for the rules' own bag."""
    if bag is None:
        return None
    if isinstance(bag, Mapping):
        tiles: list[str] = []
        for k, v in bag.items():
            if not isinstance(k, str) or type(v) is not int or not 0 <= v <= 1000:
                raise ValueError(f"bag: {k!r}: {v!r} must be a tile id and a count from 0 to 1000")
            tiles.extend([k] * v)
        if len(tiles) > 1000:
            raise ValueError(f"bag: {len(tiles)} tiles; at most 1000 are supported")
        return tiles, False
    if isinstance(bag, (str, bytes)) or not isinstance(bag, Sequence):
        raise ValueError(
            f"bag must be a list of tile ids (in draw order) or a mapping id -> copies, "
            f"not {type(bag).__name__}"
        )
    if not all(isinstance(t, str) for t in bag):
        raise ValueError("bag: every tile is named by its id (a str)")
    return list(bag), True


@dataclass(frozen=True)
class _Step:
    """One entry of the undo stack: the state before a step, the number of draws before it,
    the move (None for a chance step supplied with draw()) and what the step scored."""

    before: _core.State
    draws: int
    move: Move | None
    scored: list[ScoreEvent]


@dataclass(frozen=True)
class MoveStat:
    """One root move of a search: how often it was tried and its mean reward (0-1)."""

    move: Move
    visits: int
    mean: float


@dataclass(frozen=True)
class SearchResult:
    """What :meth:`Game.search` found: the move to play and the root's statistics."""

    move: Move
    stats: list[MoveStat]


# -- reading a record (Game.from_record) -------------------------------------------------------

_RECORD_FIELDS = frozenset(
    "format version rules players seed chance draws moves result bag meta".split()
)


def _record_object(record: Mapping[str, Any] | str | bytes) -> Mapping[str, Any]:
    """A record as given (JSON text, or its object), as a mapping."""
    if isinstance(record, (str, bytes)):
        if len(record) > 10_000_000:
            raise RecordError("record is larger than 10 MB")
        try:
            record = json.loads(record)
        except (ValueError, RecursionError) as e:
            raise RecordError(f"record is not valid JSON: {e}") from None
    if not isinstance(record, Mapping):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    return record


def _check_record_fields(record: Mapping[str, Any]) -> None:
    """Known fields only."""
    unknown = sorted(set(record) - _RECORD_FIELDS, key=str)
    if unknown:
        raise RecordError(f"unknown record field {quote(unknown[0])}")


def _check_record_format(record: Mapping[str, Any]) -> None:
    """The format and version, and every field a replay needs."""
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"field 'format' must be {RECORD_FORMAT!r}")
    if record.get("version") not in (_OLD_DEALS, RECORD_VERSION):
        raise RecordError(
            f"unsupported record version {quote(record.get('version'))}: this engine reads "
            f"versions {_OLD_DEALS} and {RECORD_VERSION}"
        )
    for key in ("rules", "players", "seed", "draws", "moves"):
        if key not in record:
            raise RecordError(f"record has no field {key!r}")


def _record_rules(data: Any) -> Rules:
    """A record's rules; tile counts written out, never a file to read."""
    tiles = data.get("tiles") if isinstance(data, dict) else None
    if isinstance(tiles, str) and tiles.strip().startswith("@"):
        # A record is data from anywhere (a page's upload): it never makes us read a file.
        raise RecordError(
            "field 'rules': a record writes its tile counts out (ID:N,...); "
            "it cannot name a file (@FILE)"
        )
    try:
        return Rules.from_dict(data)
    except (ValueError, TypeError) as e:
        raise RecordError(f"field 'rules': {e}") from None


def _record_players_seed_chance(record: Mapping[str, Any]) -> tuple[int, int, str]:
    players, seed = record["players"], record["seed"]
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 6:
        raise RecordError(f"field 'players' must be an int from 2 to 6, got {quote(players)}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise RecordError(f"field 'seed' must be an int from 0 to 2**64-1, got {quote(seed)}")
    chance = record.get("chance", "manual")
    if chance not in ("auto", "manual"):
        raise RecordError(f"field 'chance' must be 'auto' or 'manual', got {quote(chance)}")
    return players, seed, chance


def _record_texts(record: Mapping[str, Any], key: str) -> list[str]:
    """Field ``draws`` or ``moves``: a bounded list of short strings."""
    seq = record[key]
    if not isinstance(seq, list) or len(seq) > _MAX_RECORD_ITEMS:
        raise RecordError(f"field {key!r} must be a list of at most {_MAX_RECORD_ITEMS} strings")
    for i, item in enumerate(seq):
        if not isinstance(item, str) or len(item) > _MAX_TEXT:
            raise RecordError(
                f"{key}[{i}] must be a string of at most {_MAX_TEXT} characters, got {item!r:.60}"
            )
    return seq


_COORDINATE = range(-(2**15), 2**15)  # the board's coordinates (the engine's i16)


def _whole(name: str, value: Any) -> int:
    """``value`` as an int (a numpy integer too), or TypeError naming ``name``."""
    if not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise TypeError(f"{name} must be an int, not {type(value).__name__}")


def _search_parameters(given: dict[str, Any]) -> list[tuple[str, str]]:
    """``Game.search``'s keyword arguments as the ``mcts`` player's (name, value text), each
    checked for its kind by the engine's parameter table; ranges are the engine's to check."""
    out = []
    for name, kind, _, choices, _ in _core.player_parameters("mcts"):
        value = given.get(name)
        if name == "playouts" or value is None:
            continue
        if kind == "number" and (isinstance(value, bool) or not isinstance(value, Real)):
            raise ValueError(f"{name} must be a number, not {value!r}")
        if kind == "whole" and (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not choices[0] <= value <= choices[1]
        ):
            raise ValueError(
                f"{name} must be an int from {choices[0]} to {choices[1]}, not {value!r}"
            )
        if kind == "choice" and value not in choices:
            words = " or ".join(repr(w) for w in choices)
            raise ValueError(f"{name} must be {words}, not {value!r}")
        if kind == "path" and not isinstance(value, (str, os.PathLike)):
            raise ValueError(f"{name} must be a path, not {type(value).__name__}")
        if kind == "number":
            text = repr(float(value)).replace("e+", "e")  # 1e308 as written
        elif kind == "path":
            text = os.fspath(value)
        else:
            text = str(value)
        out.append((name, text))
    return out


class Game:
    """One game. Chance is an explicit step: with ``chance="auto"`` (default) the seeded bag
    draws; with ``chance="manual"`` the caller supplies each drawn tile with :meth:`draw`.

    ``bag`` sets up a scenario: a list of tile ids is the bag in draw order (river tiles
    first, then the lake, then land tiles, R3), a mapping ``{id: copies}`` is the bag's
    content, dealt by the seed. The game ends and scores when those tiles are used up.
    Tiles must be in play under the rules; the start tile (or the River's spring) lies at
    0,0 as usual and is not part of the bag; the bag replaces the one the rules (and their
    ``tiles`` counts) would give. Tiles a fortune teller puts back are shuffled in among the
    land tiles left (FT7), in order or not. A bad bag raises ``ValueError``.

    >>> g = Game(Rules.base(), players=2, seed=7)
    >>> m = g.legal_moves[0]
    >>> g.play(m)
    >>> g.pop() == m
    True
    """

    def __init__(
        self,
        rules: Rules | None = None,
        players: int = 2,
        seed: int | None = None,
        *,
        chance: str = "auto",
        catalogue: Catalogue | None = None,
        bag: Sequence[str] | Mapping[str, int] | None = None,
    ) -> None:
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, not {type(rules).__name__}")
        if chance not in ("auto", "manual"):
            raise ValueError(f"chance must be 'auto' or 'manual', not {chance!r}")
        if isinstance(players, bool) or not isinstance(players, int):
            raise TypeError(f"players must be an int, not {type(players).__name__}")
        if not 2 <= players <= 6:
            raise ValueError(f"players must be from 2 to 6, not {players}")
        if seed is None:
            seed = random.getrandbits(63)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise ValueError(f"seed must be an int from 0 to 2**64-1, not {seed!r}")
        # One thread at a time: the bookkeeping below (draws, moves, undo stack) changes
        # between engine calls, so a second thread is refused, not interleaved.
        self._owner = OneThread("game")
        self.rules = rules
        self.players = players
        self.seed = seed
        self.chance = chance
        self._catalogue = catalogue
        self._state = _core.State(players=players, seed=seed, catalogue=catalogue, rules=rules)
        self._bag = _bag_spec(bag)
        if self._bag is not None:
            tiles, ordered = self._bag
            self._state.set_bag(tiles, ordered)
        self._draws: list[str] = []
        self._moves: list[Move] = []
        self._move_texts: list[str] = []
        self._stack: list[_Step] = []  # one entry per step, for undo
        self._legal: list[Move] | None = None
        self._ids: frozenset[str] | None = None
        # An app's own data, kept in records: namespace -> JSON object (``check_meta``).
        self.meta: dict[str, dict[str, Any]] = {}
        self._auto_draw()

    # -- chance -------------------------------------------------------------------------------

    def _auto_draw(self) -> list[dict[str, Any]]:
        """Seeded draws (``chance="auto"``); returns what they scored (a last tile that fits
        nowhere ends the game)."""
        if self.chance == "auto" and self._state.phase.is_chance:
            drawn, raw = self._state.draw_random_scored()
            self._draws.extend(drawn)
            return raw
        return []

    @one_thread
    def draw(self, tile: str) -> bool:
        """Supply the drawn tile (``chance="manual"``). Returns False when the tile fits
        nowhere and left the game (B7), or when a fortune-teller hand held no placeable tile
        (FT4); then draw again. With fortune tellers, draw each tile of the hand in turn:
        ``decision`` stays ``DRAW`` until the hand is full. Ids are read forgivingly (any
        case; ``NAME*``: any copy of type NAME that may be drawn now, docs/tiles.md). A tile
        that is not in the bag, or that cannot be drawn yet (river tiles come first), raises
        ``DrawError`` naming the close matches and the copies of its type still in the bag.
        :meth:`undo` takes back a draw entered by mistake."""
        if not isinstance(tile, str):
            raise DrawError(f"a tile is named by its id, not {type(tile).__name__}")
        if not tile.startswith("animal:"):
            # folded in any decision, so that a refusal names the tile, not an "unknown" id
            waiting = self.drawable if self.decision == Decision.DRAW else {}
            tile = tiles.draw_id(tile, self._tile_ids(), waiting)
        before = self._state.copy()
        try:
            ready, raw = self._state.draw_scored(tile)
        except DrawError as e:
            if self.decision != Decision.DRAW or tile in self.drawable:
                raise
            raise DrawError(
                tiles.why_not_drawable(
                    tile,
                    self._tile_ids(),
                    self.drawable,
                    self.bag,
                    tiles.in_play(self.rules, self._catalogue),
                    self.hand,
                    str(e),
                )
            ) from None
        self._stack.append(_Step(before, len(self._draws), None, events(raw)))
        self._draws.append(tile)
        self._legal = None
        return ready

    def _tile_ids(self) -> frozenset[str]:
        if self._ids is None:
            self._ids = frozenset(self.catalogue.tile_ids())
        return self._ids

    @property
    @one_thread
    def drawable(self) -> dict[str, int]:
        """What may be drawn now: tiles (id -> copies), or during a reveal (Under the Big Top)
        the animal tokens left (``"animal:7"`` -> count)."""
        return self._state.drawable()

    @property
    @one_thread
    def bag(self) -> dict[str, int]:
        """Tiles left in the bag (id -> copies)."""
        return self._state.bag()

    # -- decisions and moves ------------------------------------------------------------------

    @property
    @one_thread
    def decision(self) -> Decision:
        return Decision(self._state.phase.value)

    @property
    @one_thread
    def turn(self) -> int:
        """The player who decides now (0-based): the active player, or during a farmer
        choice (Traders & Builders C3.1, TB10) the pig's owner."""
        return self._state.to_move

    @property
    @one_thread
    def active_player(self) -> int:
        """The player whose turn it is."""
        return self._state.current_player

    @property
    @one_thread
    def double_turn(self) -> str | None:
        """Why the active player moves again, if they do: ``"builder triggered"`` during the
        first part of a builder's double turn, ``"second part"`` during the second (TB6)."""
        tb = self._read_out("traders_builders")
        if tb.get("second_part"):
            return "second part"
        if tb.get("builder_triggered"):
            return "builder triggered"
        return None

    def _read_out(self, name: str) -> dict[str, Any]:
        """Expansion ``name``'s read-out (its own step in the engine), or {} while it is off."""
        return self._state.expansions().get(name, {})

    @property
    @one_thread
    def expansions(self) -> Expansions:
        """What the expansions that are on show now, one read-out each by name
        (``game.expansions.big_top.at``, ``game.expansions.traders_builders.goods``); an
        expansion that is off raises ``AttributeError`` naming its option."""
        return Expansions(self._state.expansions())

    @one_thread
    def big_top(self) -> dict:
        """Under the Big Top: where the big top stands, the animal tokens revealed so far and
        those left. In a manual game the reveal is a chance step: ``draw("animal:7")``."""
        bt = self._read_out("big_top")
        return {"at": bt.get("at"), "revealed": bt.get("revealed", []), "left": bt.get("left", {})}

    @one_thread
    def pyramids(self) -> list[tuple[int, int, list[int]]]:
        """Under the Big Top: acrobat pyramids as (x, y, owners from the bottom)."""
        return self._read_out("big_top").get("pyramids", [])

    @property
    @one_thread
    def hand(self) -> list[str]:
        """Fortune Teller: the tiles drawn this turn and not yet placed (FT3). With two or
        more, the decision is ``Decision.CHOOSE`` and the legal moves are ``choose TILE``."""
        return self._read_out("fortune_teller").get("hand", [])

    @one_thread
    def fortune_tellers(self) -> list[int]:
        """Fortune tellers each player has on tents (FT2)."""
        return self._read_out("fortune_teller").get("fortune_tellers", [0] * self._state.players)

    @one_thread
    def tollhouses(self) -> list[tuple[int, int, int, int]]:
        """Tollhouses on the board: (player, x, y, value 1 or 2) (Toll Collectors, TC1)."""
        return self._read_out("toll_collectors").get("tollhouses", [])

    @one_thread
    def goods(self, player: int) -> dict[str, int]:
        """Goods tokens a player holds (Traders & Builders, TB1)."""
        player = self._player(player)
        goods = self._read_out("traders_builders").get("goods")
        return goods[player] if goods else {}

    @property
    @one_thread
    def tile(self) -> str | None:
        """The drawn tile waiting to be placed."""
        return self._state.tile

    @property
    @one_thread
    def legal_moves(self) -> list[Move]:
        """Every legal move for the drawn tile (empty unless a tile waits to be placed)."""
        if self._legal is None:
            self._legal = self._state.legal_moves()
        return list(self._legal)

    @one_thread
    def search(
        self,
        playouts: int = 1000,
        seed: int = 0,
        *,
        c: float | None = None,
        widen: float | None = None,
        depth: int | None = None,
        margin: float | None = None,
        eval: str | None = None,
        weights: str | None = None,
    ) -> SearchResult:
        """Search the decision waiting with the native search player (``mcts``; GIL released)
        and return the move it chooses with the root's statistics: every move it tried with
        its visits and mean reward (0-1, for the player to move), most visited first.
        Deterministic for ``seed``; the search never reads the bag's order, only its
        contents. ``c`` (exploration), ``widen`` (progressive widening), ``depth`` (rollout
        cut-off in turns, 0 = to the end), ``margin`` (weight of the score margin in the
        reward) default to the ``mcts`` policy's; ``eval="learned"`` values a rollout cut off
        at ``depth`` by the learned evaluation (and tries the root's moves in its order)
        instead of final scoring, with the shipped weights or those of the file ``weights``.
        The parameters are the ``mcts`` player's, checked against the engine's table
        (``_core.player_parameters("mcts")``)."""
        for name, value in (("playouts", playouts), ("seed", seed)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a non-negative int, not {value!r}")
        if not 1 <= playouts <= 10_000_000 or seed >= 2**64:
            raise ValueError(
                "playouts must be from 1 to 10000000 and seed from 0 to 2**64-1, "
                f"not {playouts}, {seed}"
            )
        given = {"c": c, "widen": widen, "depth": depth, "margin": margin, "eval": eval}
        given["weights"] = weights
        params = _search_parameters(given)
        try:
            move, stats = self._state.search(playouts, seed, params)
        except OverflowError as e:
            raise ValueError(f"search parameter out of range: {e}") from None
        return SearchResult(move, [MoveStat(m, v, q) for m, v, q in stats])

    @one_thread
    def greedy_values(self) -> dict[Move, int]:
        """The greedy player's value of every legal move: 2 x (points now minus the best
        opponent's) + the projected value of the figure placed (see docs/players.md)."""
        return dict(zip(self.legal_moves, self._state.greedy_values(), strict=True))

    @one_thread
    def expert_values(self, weights: str | None = None) -> dict[Move, float]:
        """The expert player's value of every legal move: the learned evaluation of the
        position after it, as the mover's predicted final score minus the best opponent's
        (shipped weights, or those of the weights file ``weights``; see docs/players.md)."""
        values = _core.expert_values(self._state, weights)
        return dict(zip(self.legal_moves, values, strict=True))

    @one_thread
    def predicted_scores(self, weights: str | None = None) -> list[float]:
        """Each player's final score as the learned evaluation predicts it now."""
        return _core.predicted_scores(self._state, weights)

    @one_thread
    def heuristic_values(self, params: str = "") -> dict[Move, float]:
        """The heuristic player's value of every legal move: the mover's expected final
        score after it minus the best opponent's, by the hand-tuned ranking (``params``:
        its parameters as a policy text writes them after ``heuristic:``, e.g.
        ``"meeple=4:open=1"``; see docs/players.md)."""
        values = _core.heuristic_values(self._state, params)
        return dict(zip(self.legal_moves, values, strict=True))

    @one_thread
    def heuristic_scores(self, params: str = "") -> list[float]:
        """Each player's expected final score now, by the heuristic player's ranking."""
        return _core.heuristic_scores(self._state, params)

    @one_thread
    def is_legal(self, move: Move | str) -> bool:
        try:
            move = self._coerce(move)
        except InvalidMoveError:
            return False
        return self._state.check(move) is None

    @one_thread
    def parse_move(self, text: str) -> Move:
        """The move a text names, for the drawn tile (canonical or not)."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move text must be a str, not {type(text).__name__}")
        if self.decision not in _MOVE_DECISIONS:
            raise InvalidMoveError(
                f"no tile waits to be placed (the game is at {self.decision.value})"
            )
        return self._state.parse_move(text)

    def _coerce(self, move: Move | str) -> Move:
        if isinstance(move, str):
            return self.parse_move(move)
        if not isinstance(move, Move):
            raise InvalidMoveError(f"expected a Move or its text, not {type(move).__name__}")
        return move

    @one_thread
    def play(self, move: Move | str) -> None:
        """Play a move. An illegal move raises ``IllegalMoveError`` saying why, and the game
        is unchanged."""
        move = self._coerce(move)
        before = self._state.copy()
        raw = self._state.play_scored(move)
        ndraws = len(self._draws)
        self._moves.append(move)
        self._move_texts.append(str(move))
        self._legal = None
        raw += self._auto_draw()
        self._stack.append(_Step(before, ndraws, move, events(raw)))

    push = play

    @one_thread
    def pop(self) -> Move:
        """Undo the last move and the chance steps after it (the draws that followed it);
        returns that move. To take back one step alone, use :meth:`undo`."""
        if not any(s.move is not None for s in self._stack):
            raise IndexError("no move to undo")
        while True:
            step = self.undo()
            if isinstance(step, Move):
                return step

    @one_thread
    def undo(self) -> Move | str:
        """Take back the last step alone and return it: a move (any decision: a placement, a
        choice, a farmer kept or returned), or a chance step supplied with :meth:`draw` (a
        tile id, or ``"animal:N"`` for a revealed token), e.g. a tile drawn by mistake. The
        game is then exactly as before that step. With ``chance="auto"`` the seeded draws
        belong to the move before them (they would come again), so ``undo`` takes back the
        move and its draws, as :meth:`pop` does.

        >>> g = Game(Rules.base(), players=2, chance="manual")
        >>> g.draw("CROSS4")
        True
        >>> g.undo()
        'CROSS4'
        """
        if not self._stack:
            raise IndexError("nothing to undo")
        last = self._stack.pop()
        move = last.move
        step: Move | str = move if move is not None else self._draws[last.draws]
        # A snapshot is never played on: copies of this game share it (python-chess style).
        self._state = last.before.copy()
        del self._draws[last.draws :]
        if move is not None:
            self._moves.pop()
            self._move_texts.pop()
        self._legal = None
        return step

    @one_thread
    def copy(self) -> Game:
        """An independent copy: its moves, undo included, never change this game. (The undo
        snapshots are shared, and never played on.)"""
        g = Game.__new__(Game)
        g._owner = OneThread("game")
        g.rules, g.players, g.seed, g.chance = self.rules, self.players, self.seed, self.chance
        g._catalogue = self._catalogue
        g._bag = self._bag
        g._state = self._state.copy()
        g._draws = list(self._draws)
        g._moves = list(self._moves)
        g._move_texts = list(self._move_texts)
        g._stack = list(self._stack)
        g._legal = self._legal
        g._ids = self._ids
        g.meta = check_meta(self.meta)
        g._resampled = getattr(self, "_resampled", False)
        return g

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.copy()

    @one_thread
    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its record (``to_json()``), replayed when loaded: undo history, scores
        and what the game waits for come back identical."""
        if self._catalogue is not None:
            raise TypeError(
                "a Game on a catalogue of its own cannot be pickled: keep its record "
                "(to_json()) with the catalogue, or use copy()"
            )
        return (Game.from_record, (self.to_json(),))

    @classmethod
    def _view(cls, state: _core.State, rules: Rules, catalogue: Catalogue | None = None) -> Game:
        """A game showing ``state`` (for rendering a position kept elsewhere, such as a
        learning environment's): no history, so no record or undo."""
        g = Game.__new__(Game)
        g._owner = OneThread("game")
        g.rules, g.players, g.seed, g.chance = rules, state.players, 0, "manual"
        g._catalogue = catalogue
        g._bag = None
        g._state = state
        g._draws, g._moves, g._move_texts, g._stack = [], [], [], []
        g._legal = None
        g._ids = None
        g.meta = {}
        g._resampled = False
        return g

    # -- hidden information (external search) ---------------------------------------------------

    @one_thread
    def chance_outcomes(self) -> list[tuple[str, float]]:
        """At a chance step (``Decision.DRAW`` or ``Decision.REVEAL``, with
        ``chance="manual"``): each outcome (a tile id, or ``"animal:N"``) with its
        probability, in catalogue order. Empty when no chance step is waiting."""
        return self._state.chance_outcomes()

    @one_thread
    def resample(self, seed: int) -> Game:
        """A determinization: a copy whose hidden information (the order of the tiles in
        the bag, the face-down animal tokens) is drawn afresh from ``seed``, consistent
        with what the player to move knows. Every visible fact is kept: board, figures,
        scores, supplies, goods, the bag's contents, the tokens left, a fortune teller's
        hand. Undoing moves on the copy never reveals the original's hidden order (the
        earlier states are resampled too). Its record lists the draws made so far and
        replays them as ``chance="manual"``."""
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise ValueError(f"seed must be an int from 0 to 2**64-1, not {seed!r}")
        g = self.copy()
        g._state = self._state.resample(seed)
        g._stack = [
            _Step(s.before.resample((seed + 1 + i) % 2**64), s.draws, s.move, s.scored)
            for i, s in enumerate(self._stack)
        ]
        g._resampled = True
        return g

    @property
    @one_thread
    def scored(self) -> list[ScoreEvent]:
        """What the last step scored (empty if nothing): one :class:`ScoreEvent` per feature
        and player, e.g. ``player 2: city of 5 tiles with 2 pennants, 14 points``, with the
        figures it returned. A move's step includes the seeded draws after it
        (``chance="auto"``) and final scoring when it ends the game. :meth:`undo` takes the
        step back with its events. The points of the events of every step sum to the
        scores."""
        return list(self._stack[-1].scored) if self._stack else []

    @property
    @one_thread
    def move_stack(self) -> list[Move]:
        return list(self._moves)

    # -- results ------------------------------------------------------------------------------

    @one_thread
    def is_over(self) -> bool:
        return self._state.phase == Decision.OVER

    @property
    @one_thread
    def scores(self) -> list[int]:
        return self._state.scores()

    @property
    @one_thread
    def breakdown(self) -> list[dict[str, int]]:
        """Per player: points by source (roads, cities, monasteries, gardens, fields)."""
        return self._state.breakdown()

    @property
    @one_thread
    def winners(self) -> list[int]:
        """Players with the highest total; all of them when tied (B23)."""
        return self._state.winners()

    @one_thread
    def final_scores(self, animals: Sequence[int] = ()) -> dict[str, Any]:
        """The result if the game ended now: ``{"scores", "breakdown", "winners", "events",
        "animals"}`` after final scoring on a copy (B21, B22, A5 and every expansion's
        end-of-game rule); the game is unchanged. ``events`` says what the final scoring gave
        (:class:`ScoreEvent`, as :attr:`scored`). A tile or hand waiting to be placed is left
        out; owed farmer choices keep the farmers. With Under the Big Top the final circus
        (BT4, and a pending BT3 reveal) reveals ``animals`` in order (points per meeple, e.g.
        ``[7]``), then tokens drawn by the game's seeded generator; ``animals`` in the result
        lists every token it revealed (highest first), those given and those it assumed, so a
        caller knows
        (and can pass the real ones). At the end of the game it is the game's own result
        (``events`` and ``animals`` empty).

        >>> g = Game(Rules.base(), players=2, seed=1)
        >>> g.final_scores()["scores"]
        [0, 0]
        """
        if (
            not isinstance(animals, Sequence)
            or isinstance(animals, (str, bytes))
            or not all(type(a) is int and 0 <= a < 256 for a in animals)
        ):
            raise ValueError(f"animals must be a list of token values like [7, 3], not {animals!r}")
        try:
            result = self._state.final_scores(list(animals))
        except DrawError as e:
            raise ValueError(str(e)) from None
        result["events"] = events(result["events"])
        return result

    @property
    @one_thread
    def turns(self) -> int:
        return self._state.turns

    @property
    @one_thread
    def discarded(self) -> int:
        """Tiles removed because they fitted nowhere (B7)."""
        return self._state.discarded

    # -- board inspection ---------------------------------------------------------------------

    @property
    def catalogue(self) -> Catalogue:
        """The tile catalogue in use (``catalogue.tile(id)`` describes a tile)."""
        return self._catalogue if self._catalogue is not None else Catalogue.builtin()

    @property
    @one_thread
    def board(self) -> list[PlacedTile]:
        return [PlacedTile(*p) for p in self._state.placed()]

    @one_thread
    def tile_at(self, x: int, y: int) -> tuple[str, int] | None:
        x, y = _whole("x", x), _whole("y", y)
        if x not in _COORDINATE or y not in _COORDINATE:
            return None  # off the board: no tile there
        return self._state.tile_at(x, y)

    @one_thread
    def labels(self, x: int, y: int) -> list[str]:
        """Segment labels of the tile at (x, y), as moves name them."""
        x, y = _whole("x", x), _whole("y", y)
        if x not in _COORDINATE or y not in _COORDINATE:
            raise ValueError(f"no tile at {x},{y}")
        return self._state.labels(x, y)

    @one_thread
    def figures(self) -> list[Figure]:
        return [Figure(*f) for f in self._state.figures()]

    @one_thread
    def features(self) -> list[Feature]:
        out = []
        for d in self._state.features():
            out.append(
                Feature(
                    kind=d["kind"],
                    tiles=tuple(d["tiles"]),
                    complete=d["complete"],
                    open_edges=d["open_edges"],
                    arms=d["arms"],
                    figures=tuple(d["figures"]),
                    at=d["at"],
                    completed_cities=d.get("completed_cities"),
                )
            )
        return out

    @one_thread
    def supply(self, player: int) -> dict[str, int]:
        """Figures in a player's supply."""
        return self._state.supply(self._player(player))

    def _player(self, player: Any) -> int:
        """``player`` checked: an int naming a seat (IndexError for another number)."""
        player = _whole("player", player)
        if not 0 <= player < self._state.players:
            raise IndexError(f"no player {player}")
        return player

    @one_thread
    def fingerprint(self) -> str:
        """The whole rule state as text: equal fingerprints mean equal states."""
        return self._state.fingerprint()

    @one_thread
    def __repr__(self) -> str:
        return (
            f"<Game players={self.players} turn={self.turn} decision={self.decision.value} "
            f"tile={self.tile} scores={self.scores}>"
        )

    # -- records ------------------------------------------------------------------------------

    @one_thread
    def record(self) -> dict[str, Any]:
        """The game as a JSON-ready record: rules, players, seed, draws, moves, result, and
        ``meta`` (:attr:`meta`, an app's own data: player names, a table, timestamps) when
        set. Meta that is not valid raises ``RecordError`` (:func:`check_meta`)."""
        rec: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "seed": self.seed,
            # A determinized copy's future draws no longer follow its seed.
            "chance": "manual" if getattr(self, "_resampled", False) else self.chance,
            "draws": list(self._draws),
            "moves": list(self._move_texts),
        }
        if self._bag is not None:
            tiles, ordered = self._bag
            rec["bag"] = list(tiles) if ordered else dict(Counter(tiles))
        meta = check_meta(self.meta)
        if meta:
            rec["meta"] = meta
        if self.is_over():
            rec["result"] = {
                "scores": self.scores,
                "breakdown": self.breakdown,
                "winners": self.winners,
            }
        return rec

    @one_thread
    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.record(), **kwargs)

    @classmethod
    def from_record(cls, record: Mapping[str, Any] | str | bytes) -> Game:
        """Replay a record. Every draw and move is checked; the first problem raises
        ``RecordError`` naming it. A seeded ("auto") record must match its seed's draws. A
        version-1 record (its seed dealt by the old rule) replays its draws as written and
        goes on with manual draws."""
        record = _record_object(record)
        _check_record_fields(record)
        meta = check_meta(record["meta"]) if "meta" in record else {}
        _check_record_format(record)
        rules = _record_rules(record["rules"])
        players, seed, chance = _record_players_seed_chance(record)
        draws, moves = _record_texts(record, "draws"), _record_texts(record, "moves")
        bag = record.get("bag")
        if bag is not None and not isinstance(bag, (list, Mapping)):
            raise RecordError("field 'bag' must be a list of tile ids or an object id -> copies")
        try:
            game = cls(rules, players, seed, chance="manual", bag=bag)
        except ValueError as e:
            raise RecordError(f"field 'bag': {e}") from None
        # A version-1 seed dealt another order (see RECORD_VERSION): its draws are replayed as
        # given, and the game goes on with manual draws rather than another deal's.
        old_deal = record["version"] == _OLD_DEALS
        game._replay(draws, moves, seeded=chance == "auto" and not old_deal)
        result = record.get("result")
        if result is not None:
            game._check_result(result)
        game.meta = meta
        game.chance = "manual" if old_deal else chance
        game._auto_draw()  # an unfinished seeded game continues drawing from its seed
        return game

    def _replay(self, draws: list[str], moves: list[str], seeded: bool) -> None:
        """Play a record's draws and moves, each checked; ``seeded``: the draws must be the
        ones the game's seed makes."""
        di = mi = 0
        while True:
            if self._state.phase.is_chance:
                if di == len(draws):
                    break  # a seeded game that is not over continues from here
                di += (
                    self._replay_draw(draws, di) if seeded else self._replay_manual_draw(draws, di)
                )
            elif self.decision in _MOVE_DECISIONS:
                if mi == len(moves):
                    break
                try:
                    self.play(moves[mi])
                except (IllegalMoveError, InvalidMoveError) as e:
                    raise RecordError(f"moves[{mi}] {quote(moves[mi])}: {e}") from None
                mi += 1
            else:
                break
        if di != len(draws):
            raise RecordError(
                f"draws[{di}] {quote(draws[di])} comes after the game ended or without a move "
                "between"
            )
        if mi != len(moves):
            raise RecordError(f"moves[{mi}] {quote(moves[mi])} has no tile drawn for it")

    def _replay_draw(self, draws: list[str], di: int) -> int:
        """The seed's next chance step, which must be ``draws[di:]``'s next items: how many."""
        seeded = self._state.copy()
        got = seeded.draw_random()
        for k, tile in enumerate(got):
            if di + k >= len(draws) or draws[di + k] != tile:
                have = draws[di + k] if di + k < len(draws) else "nothing"
                raise RecordError(
                    f"draws[{di + k}] is {quote(have)} but seed {self.seed} draws {quote(tile)}"
                )
        self._state = seeded
        self._draws.extend(got)
        return len(got)

    def _replay_manual_draw(self, draws: list[str], di: int) -> int:
        """``draws[di]`` as the next chance outcome (one)."""
        try:
            self.draw(draws[di])
        except DrawError as e:
            raise RecordError(f"draws[{di}] {quote(draws[di])}: {e}") from None
        return 1

    def _check_result(self, result: Any) -> None:
        """A record's result must be the replayed game's."""
        if not isinstance(result, Mapping) or "scores" not in result:
            raise RecordError("field 'result' must be an object with 'scores'")
        if not self.is_over():
            raise RecordError("the record has a result but its moves do not end the game")
        for key, replayed in (
            ("scores", self.scores),
            ("winners", self.winners),
            ("breakdown", self.breakdown),
        ):
            if key in result and result[key] != replayed:
                raise RecordError(
                    f"result {key} {result[key]!r:.200} differ from the replayed {replayed!r}"
                )
        unknown = sorted(set(result) - {"scores", "winners", "breakdown"}, key=str)
        if unknown:
            raise RecordError(f"unknown result field {quote(unknown[0])}")
