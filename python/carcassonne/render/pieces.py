"""What the board picture reads from a game beside tiles and figures, and draws as its
expansions' layers: tollhouses (Toll Collectors), the big top and acrobat pyramids (Under the
Big Top), the last move; the frame that places them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from carcassonne.render.figures import _outline, figure_svg
from carcassonne.render.geometry import CENTRE, Point, T, _num, _pt, rotate_point
from carcassonne.render.symbols import COLOURS, PLAYER_COLOURS, player_colour, player_name

if TYPE_CHECKING:
    from carcassonne._core import Move
    from carcassonne.game import Game
    from carcassonne.render.tiles import _Tiles

# -- the board picture --------------------------------------------------------------------------

MARGIN = 30.0
PANEL_WIDTH = 300.0


@dataclass(frozen=True)
class Frame:
    """Where the board picture draws: the top-left corner of a board position, and the places
    (a tile layout's ``acrobat``, ``bigtop``, ``village``) of the tiles laid there."""

    tiles: _Tiles
    placed: dict[tuple[int, int], tuple[str, int]]  # (x, y) -> (tile id, rotation)
    minx: int
    maxy: int

    def origin(self, x: int, y: int) -> Point:
        return (MARGIN + (x - self.minx) * T, MARGIN + (self.maxy - y) * T)

    def place(self, x: int, y: int, name: str) -> Point:
        """Place ``name`` of the tile at (x, y), from its origin (the centre when the tile or
        its layout has none)."""
        tile_id, rot = self.placed.get((x, y), ("", 0))
        if not tile_id:
            return CENTRE
        return rotate_point(self.tiles.layout(tile_id).places.get(name, CENTRE), rot)


def last_ring(at: Point, r: int) -> str:
    """The ring around the figure or piece the last move placed."""
    return (
        f'<circle class="last-figure" cx="{_num(at[0])}" cy="{_num(at[1])}" r="{r}" '
        f'fill="#ffffff" fill-opacity="0.55" stroke="{COLOURS["highlight"]}" '
        'stroke-width="2.5"/>'
    )


def tollhouses(game: Game) -> list[tuple[int, int, int, int]]:
    """Tollhouses on the board, (player, x, y, value), where the game has them (Toll
    Collectors)."""
    get = getattr(game, "tollhouses", None)
    if not callable(get):
        return []
    try:
        return [(int(p), int(x), int(y), int(v)) for p, x, y, v in get()]
    except (ValueError, TypeError, AttributeError):
        return []


def tollhouse_svg(player: int, value: int, at: Point, x: int, y: int) -> str:
    """A tollhouse in its owner's colour showing its value, standing on a village."""
    colour = player_colour(player)
    ink = "#151515" if colour in (PLAYER_COLOURS[2], PLAYER_COLOURS[5]) else "#ffffff"
    return (
        f'<g class="tollhouse player-{player}" data-player="{player}" data-value="{value}" '
        f'transform="translate({_pt(at)})">'
        f'<path d="M-9.5,9 V-1.5 L0,-11 L9.5,-1.5 V9 Z" fill="{colour}" '
        f'stroke="{_outline(colour)}" stroke-width="1.4" stroke-linejoin="round"/>'
        f'<text y="7" font-size="11" font-weight="bold" text-anchor="middle" fill="{ink}">'
        f"{value}</text><title>player {player + 1} ({player_name(player)}): tollhouse worth "
        f"{value} at {x},{y}</title></g>"
    )


def big_top(game: Game) -> dict[str, Any] | None:
    """Under the Big Top: ``game.big_top()`` (where it stands, tokens revealed and left), or
    None when the game has no big top option or the engine does not say."""
    rules = getattr(game, "rules", None)
    get = getattr(game, "big_top", None)
    if not callable(get) or not getattr(rules, "big_top", False):
        return None
    try:
        info = get()
    except (ValueError, TypeError, AttributeError):
        return None
    return info if isinstance(info, dict) else None


def pyramids(game: Game) -> list[tuple[int, int, list[int]]]:
    """Acrobat pyramids on the board, (x, y, owners from the bottom), where the game has them."""
    get = getattr(game, "pyramids", None)
    if not callable(get):
        return []
    try:
        return [(int(x), int(y), [int(o) for o in owners]) for x, y, owners in get()]
    except (ValueError, TypeError, AttributeError):
        return []


def pyramid_spots(n: int) -> list[Point]:
    """Where the acrobats of a pyramid of ``n`` stand, from the bottom, relative to the centre
    of their platform: two side by side, the third on their shoulders, any more above."""
    spots: list[Point] = []
    if n == 1:
        return [(0.0, -11.0)]
    for i in range(n):
        if i < 2:
            spots.append((-6.5 if i == 0 else 6.5, -11.0))
        else:
            spots.append((0.0, -11.0 - 12.5 * (i - 1)))
    return spots


BIG_TOP_FIGURE = (
    '<ellipse cy="12.5" rx="17" ry="3" fill="#000000" fill-opacity="0.3"/>'
    '<path d="M-13.5,12 V1.5 H-16.5 Q-7,-4 0,-16 Q7,-4 16.5,1.5 H13.5 V12 Z" fill="#f4f4f4" '
    'stroke="#2b2b2b" stroke-width="1.8" stroke-linejoin="round"/>'
    '<path d="M0,-16 Q-3,-5 -7.5,0 M0,-16 Q3,-5 7.5,0 M-6.5,2.5 V12 M6.5,2.5 V12" fill="none" '
    'stroke="#8c8c8c" stroke-width="1.6"/><path d="M-16.5,1.5 H16.5" stroke="#2b2b2b" '
    'stroke-width="1.4"/><path d="M0,-16 V-23.5 L7.5,-21.3 L0,-19.1" fill="#2b2b2b"/>'
)


def big_top_svg(at: Point, x: int, y: int, revealed: int) -> str:
    """The big top (a neutral figure, no player's) standing on the big-top space of its tile."""
    return (
        f'<g class="big-top" data-x="{x}" data-y="{y}" data-revealed="{revealed}" '
        f'transform="translate({_pt(at)})">{BIG_TOP_FIGURE}<title>the big top at {x},{y}: '
        f"{revealed} animal token{'' if revealed == 1 else 's'} revealed</title></g>"
    )


def _last_placement(game: Game) -> Move | None:
    """The last move that placed a tile (a later decision may place none)."""
    for m in reversed(game.move_stack):
        if getattr(m, "places_tile", True):
            return m
    return None


def _last_mover(game: Game) -> int | None:
    if not game.move_stack:
        return None
    g = game.copy()
    g.pop()
    return g.turn


# -- the expansions' layers of the board picture ------------------------------------------------


def pyramids_layer(game: Game, frame: Frame) -> list[str]:
    """Acrobat pyramids on the acrobat space of their tile, 2 + 1 from the bottom."""
    out = []
    for x, y, owners in pyramids(game):
        spot = frame.place(x, y, "acrobat")
        o = frame.origin(x, y)
        for level, (owner, (dx, dy)) in enumerate(
            zip(owners, pyramid_spots(len(owners)), strict=True)
        ):
            at = (o[0] + spot[0] + dx, o[1] + spot[1] + dy)
            title = (
                f"player {owner + 1} ({player_name(owner)}): acrobat {level + 1} of "
                f"{len(owners)} in the pyramid at {x},{y}"
            )
            out.append(figure_svg("acrobat", owner, at, title, f"pyramid-{level}"))
    return out


def big_top_layer(game: Game, frame: Frame) -> list[str]:
    """The big top on the big-top space of its tile, once placed."""
    bt = big_top(game)
    if bt is None or bt.get("at") is None:
        return []
    x, y = bt["at"]
    spot = frame.place(x, y, "bigtop")
    o = frame.origin(x, y)
    return [big_top_svg((o[0] + spot[0], o[1] + spot[1]), x, y, len(bt["revealed"]))]


def tollhouses_layer(game: Game, frame: Frame, last: Move | None) -> list[str]:
    """Tollhouses on the village of their crossroads; the last move's ringed."""
    houses = tollhouses(game)
    if not houses:
        return []
    out = ['<g class="tollhouses">']
    for player, x, y, value in houses:
        spot = frame.place(x, y, "village")
        o = frame.origin(x, y)
        at = (o[0] + spot[0], o[1] + spot[1] - 2)
        if last is not None and last.action == "tollhouse" and last.target == (x, y):
            out.append(last_ring(at, 16))
        out.append(tollhouse_svg(player, value, at, x, y))
    out.append("</g>")
    return out
