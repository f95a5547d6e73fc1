"""Positions built move by move: each turn names the tile drawn and the move played, as texts.

A scenario is a :class:`Game` with manual chance (``chance="manual"``): nothing is drawn at
random. With the rules' own bag the game goes on as long as the box lasts; with a small
``bag`` (a list of tile ids, or a mapping id -> copies) it ends, with final scoring, when the
last of those tiles is placed::

    from carcassonne import Rules, Scenario

    game = (
        Scenario(Rules.base(), players=2, bag=["CAP", "ROAD_WE"])
        .turn("CAP", "0,1 180 meeple city:S")  # closes the start tile's city: 4 points
        .turn("ROAD_WE", "1,0 0 meeple road:E")  # the bag is used up: final scoring
        .game
    )
    assert game.is_over() and game.scores == [4, 2]

Every step is checked: a turn's tile must be drawable and fit, its move must be legal;
otherwise ``DrawError``, ``InvalidMoveError`` or ``IllegalMoveError`` (with the broken rule's
id in ``.rule``) says what is wrong and the game is unchanged.
``NAME*`` names any copy of tile type NAME still in the bag (``ROAD_WE*`` may draw
``ROAD_WE.robbers``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from carcassonne import tiles
from carcassonne._core import Catalogue
from carcassonne.errors import DrawError, IllegalMoveError, quote
from carcassonne.game import Decision, Game
from carcassonne.rules import Rules


def pick(game: Game, tile: str) -> str:
    """``tile``, or for ``NAME*`` the first copy of tile type NAME that may be drawn now
    (the plain one before its illustrated copies: ``NAME`` sorts before ``NAME.x``)."""
    if not tile.endswith("*"):
        return tile
    return tiles.draw_id(tile, (), game.drawable)


def turn(game: Game, tile: str, move: str) -> None:
    """One whole turn of a manual-chance game: draw ``tile`` (``NAME*``: any copy of that
    type) and play ``move``. The tile must fit (it is then the only tile in hand: no fortune
    teller's hand) and the move must be legal; if not, the game is unchanged."""
    if not isinstance(tile, str):
        raise DrawError(f"a tile is named by its id, not {type(tile).__name__}")
    if game.decision != Decision.DRAW:
        raise DrawError(f"turn {quote(tile)}: the game waits for {game.decision}, not a draw")
    tile = pick(game, tile)
    probe = game.copy()
    if not probe.draw(tile):
        raise DrawError(f"{quote(tile)} fits nowhere (B7) or makes no hand: it cannot be a turn")
    if probe.decision != Decision.PLACE or probe.hand or probe.tile != tile:
        raise DrawError(
            f"drawing {quote(tile)} does not give a tile to place at once (the game waits for "
            f"{probe.decision}): draw the tiles of a hand one by one with draw()"
        )
    legal = {str(m) for m in probe.legal_moves}
    if move not in legal:
        _refuse(probe, tile, move, legal)
    game.draw(tile)
    game.play(move)


def _refuse(probe: Game, tile: str, move: str, legal: set[str]) -> None:
    """Why ``move`` is not one of the ``legal`` texts: the engine's refusal (text that is not a
    move: ``InvalidMoveError``; a broken rule: ``IllegalMoveError`` with its ``.rule``) with the
    legal moves at that spot, or a legal move not written in its canonical form."""
    try:
        probe.play(move)
    except IllegalMoveError as e:
        at = move.split()[0]
        here = sorted(t for t in legal if t.split()[0] == at)
        err = IllegalMoveError(f"{e}; legal for {tile} there: {', '.join(here) or 'none'}")
        err.rule = e.rule
        raise err from None
    canonical = str(probe.move_stack[-1])
    raise IllegalMoveError(f"{quote(move)} is legal but written {quote(canonical)} by the game")


class Scenario:
    """A manual-chance :class:`Game` built turn by turn (see the module's text); ``game`` is
    the position. Every method returns the scenario, so steps chain."""

    def __init__(
        self,
        rules: Rules | None = None,
        players: int = 2,
        *,
        bag: Sequence[str] | Mapping[str, int] | None = None,
        seed: int = 0,
        catalogue: Catalogue | None = None,
    ) -> None:
        self.game = Game(rules, players, seed, chance="manual", catalogue=catalogue, bag=bag)

    def turn(self, tile: str, move: str) -> Scenario:
        """Draw ``tile`` and play ``move`` (:func:`turn`)."""
        turn(self.game, tile, move)
        return self

    def turns(self, *turns: tuple[str, str]) -> Scenario:
        """Several turns, each a (tile, move) pair: all of them, or none when one is refused
        (they are tried on a copy first)."""
        probe = self.game.copy()
        for tile, move in turns:
            turn(probe, tile, move)
        for tile, move in turns:
            turn(self.game, tile, move)
        return self

    def draw(self, *tiles: str) -> Scenario:
        """Supply chance steps as they come: tiles (``NAME*`` allowed) one by one, e.g. a
        fortune teller's hand, or an animal token (``"animal:7"``, Under the Big Top). A tile
        that fits nowhere raises ``DrawError`` (it has then left the game, B7)."""
        for tile in tiles:
            tile = tile if tile.startswith("animal:") else pick(self.game, tile)
            if not self.game.draw(tile):
                raise DrawError(f"{quote(tile)} fits nowhere, or the hand holds no tile to place")
        return self

    def play(self, *moves: str) -> Scenario:
        """Play moves as they are: a placement of the drawn tile, or a decision without a
        draw (``keep-farmer``, ``choose TILE``). All of them, or none when one is refused
        (they are tried on a copy first)."""
        probe = self.game.copy()
        for move in moves:
            probe.play(move)
        for move in moves:
            self.game.play(move)
        return self


def position(
    rules: Rules | None = None,
    players: int = 2,
    turns: Sequence[tuple[str, str]] = (),
    *,
    bag: Sequence[str] | Mapping[str, int] | None = None,
    seed: int = 0,
    catalogue: Catalogue | None = None,
) -> Game:
    """The position after ``turns`` ((tile, move) pairs) from the start of a manual-chance
    game: ``Scenario(rules, players, bag=bag, seed=seed).turns(*turns).game``."""
    s = Scenario(rules, players, bag=bag, seed=seed, catalogue=catalogue)
    return s.turns(*turns).game
