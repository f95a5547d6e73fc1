"""The score panel beside the board picture: status, scores by source, supplies."""

from __future__ import annotations

import textwrap
from html import escape
from typing import TYPE_CHECKING, Any

from carcassonne._core import SOURCES
from carcassonne.render.figures import _meeple
from carcassonne.render.geometry import _num
from carcassonne.render.pieces import BIG_TOP_FIGURE, PANEL_WIDTH, big_top, pyramids
from carcassonne.render.symbols import COLOURS, player_colour
from carcassonne.render.tiles import _Tiles

if TYPE_CHECKING:
    from carcassonne.game import Game


def _status(game: Game, sep: str = " · ") -> str:
    moves = len(game.move_stack)
    decision = game.decision.value
    if decision == "over":
        return f"game over after {moves} moves"
    who = f"player {game.turn + 1}"
    doing = {"draw": "to draw", "place": "to place"}.get(decision, f"to decide ({decision})")
    extra = getattr(game, "double_turn", None)
    return f"move {moves}{sep}{who} {doing}" + (f"{sep}{extra}" if extra else "")


def _goods(game: Game, player: int) -> dict[str, int]:
    """Goods tokens a player holds, where the game has them (Traders & Builders)."""
    get = getattr(game, "goods", None)
    if not callable(get):
        return {}
    try:
        return {k: v for k, v in get(player).items() if v}
    except (ValueError, IndexError, AttributeError):
        return {}


# The decision a game waits for, as the panel says it.
DECISIONS = {
    "draw": "a tile to be drawn",
    "place": "the tile to be placed",
    "farmer": "keep or return the farmer",
    "choose": "a tile to choose from the hand",
    "reveal": "the big top's animal token",
    "over": "none, the game is over",
}


def _call(game: Game, name: str, *args: Any) -> Any:
    """``game.name(*args)`` (or the property), None when the game has no such thing."""
    try:
        get = getattr(game, name, None)
        return get(*args) if callable(get) else get
    except (ValueError, TypeError, IndexError, AttributeError):
        return None


def sources(game: Game, player: int) -> list[tuple[str, int]]:
    """A player's non-zero points by source, in the order of ``carcassonne.SOURCES`` (then
    any source the engine adds)."""
    points = game.breakdown[player]
    order = list(SOURCES) + sorted(k for k in points if k not in SOURCES)
    return [(k, points[k]) for k in order if points.get(k)]


def _wrap(parts: list[str], width: int, first: str = "") -> list[str]:
    """Join ``parts`` with " · " into lines of at most ``width`` characters."""
    lines: list[str] = []
    line = first
    for part in parts:
        if line not in ("", first) and len(line) + 3 + len(part) > width:
            lines.append(line)
            line = ""
        line = part if line == "" else (line + part if line == first else f"{line} · {part}")
    if line:
        lines.append(line)
    return lines


def _panel(game: Game, tiles: _Tiles, x0: float) -> tuple[str, float]:
    """The panel at ``x0``: its blocks from the top (each drawn at a height, giving the next),
    then a row per player; its SVG and its height."""
    ink = COLOURS["ink"]
    out = [
        f'<g class="score-panel" transform="translate({_num(x0)},0)">',
        f'<rect x="0" y="10" width="{_num(PANEL_WIDTH - 12)}" height="__H__" rx="8" '
        f'fill="{COLOURS["panel"]}" stroke="#cfc6b0"/>',
        f'<text x="18" y="42" font-size="22" font-weight="bold" fill="{ink}">Carcassonne</text>',
        f'<text x="18" y="66" font-size="14" fill="{ink}">{escape(_status(game))}</text>',
    ]
    y = 76.0
    for block in (_next_tile, _hand, _decision, _bag, _big_top_info):
        parts, y = block(game, tiles, y)
        out += parts
    y += 12
    on_board = _on_the_board(game)
    over = game.is_over()
    winners = set(game.winners) if over else set()
    for p in range(game.players):
        row, rh = _player_row(game, p, y, on_board[p], winners)
        out += row
        y += rh
    height = y + 14
    out.append("</g>")
    text = "".join(out).replace("__H__", _num(height - 20))
    return text, height


def _next_tile(game: Game, tiles: _Tiles, y: float) -> tuple[list[str], float]:
    if game.tile is None:
        return [], y
    ink = COLOURS["ink"]
    tid = game.tile
    return [
        f'<g class="next-tile" transform="translate(18,{_num(y)}) scale(0.6)">'
        f"{tiles.body(tid, 0)}</g>"
        f'<text x="88" y="{_num(y + 24)}" font-size="12" fill="{ink}">next tile</text>'
        f'<text x="88" y="{_num(y + 42)}" font-size="13" font-weight="bold" fill="{ink}">'
        f"{escape(tid)}</text>"
    ], y + 70


def _hand(game: Game, tiles: _Tiles, y: float) -> tuple[list[str], float]:
    """The Fortune Teller's hand of drawn tiles (the first six)."""
    hand = [t for t in (_call(game, "hand") or []) if isinstance(t, str)]
    if not hand:
        return [], y
    ink = COLOURS["ink"]
    out = [
        f'<g class="hand" data-tiles="{len(hand)}">'
        f'<text x="18" y="{_num(y + 14)}" font-size="12" fill="{ink}">'
        f"hand: {len(hand)} drawn tile{'' if len(hand) == 1 else 's'}</text>"
    ]
    for k, tid in enumerate(hand[:6]):
        ty = y + 22 + 46 * k
        out.append(
            f'<g class="hand-tile" data-tile="{escape(tid)}" '
            f'transform="translate(18,{_num(ty)}) scale(0.4)">'
            f"{tiles.body(tid, 0)}<title>{escape(tid)}</title></g>"
            f'<text x="66" y="{_num(ty + 24)}" font-size="11" fill="{ink}">'
            f"{escape(tid)}</text>"
        )
    out.append("</g>")
    return out, y + 26 + 46 * min(len(hand), 6)


def _decision(game: Game, tiles: _Tiles, y: float) -> tuple[list[str], float]:
    decision = game.decision.value
    out = [f'<g class="decision" data-decision="{escape(decision)}">']
    for line in _wrap([f"pending: {decision}", DECISIONS.get(decision, decision)], 40):
        out.append(
            f'<text x="18" y="{_num(y + 14)}" font-size="12" fill="{COLOURS["ink"]}">'
            f"{escape(line)}</text>"
        )
        y += 16
    out.append("</g>")
    return out, y + 2


def _bag(game: Game, tiles: _Tiles, y: float) -> tuple[list[str], float]:
    left = sum(game.bag.values())
    return [
        f'<text x="18" y="{_num(y + 14)}" font-size="12" fill="{COLOURS["ink"]}">'
        f"{left} tiles in the bag</text>"
    ], y + 18


def _big_top_info(game: Game, tiles: _Tiles, y: float) -> tuple[list[str], float]:
    """Under the Big Top: where the big top stands, the tokens revealed and face down."""
    bt = big_top(game)
    if bt is None:
        return [], y
    revealed = [int(v) for v in bt.get("revealed") or []]
    hidden = sum(int(n) for n in (bt.get("left") or {}).values())
    where = "big top at {},{}".format(*bt["at"]) if bt.get("at") else "big top not placed"
    said = f"{len(revealed)} token{'' if len(revealed) == 1 else 's'} revealed"
    if revealed:
        said += f" ({', '.join(map(str, revealed))})"
    # Word by word, so that a long list of tokens wraps inside the panel.
    parts = [*textwrap.wrap(said, 38), f"{hidden} face down"]
    out = [
        f'<g class="big-top-info" data-revealed="{len(revealed)}" data-left="{hidden}">'
        f'<g transform="translate(29,{_num(y + 12)}) scale(0.55)">{BIG_TOP_FIGURE}</g>'
        f'<text x="46" y="{_num(y + 10)}" font-size="12" fill="{COLOURS["ink"]}">'
        f"{escape(where)}</text>"
    ]
    for line in _wrap(parts, 38):
        y += 14
        out.append(
            f'<text x="46" y="{_num(y + 10)}" font-size="11" fill="#5a5245">{escape(line)}</text>'
        )
    out.append("</g>")
    return out, y + 18


def _on_the_board(game: Game) -> list[list[str]]:
    """Each player's expansion figures on the board: fortune tellers on tents, acrobats."""
    tellers = _call(game, "fortune_tellers") or []
    acrobats = [0] * game.players
    for _, _, owners in pyramids(game):
        for o in owners:
            if 0 <= o < game.players:
                acrobats[o] += 1
    out: list[list[str]] = [[] for _ in range(game.players)]
    for p in range(game.players):
        if p < len(tellers) and tellers[p]:
            out[p].append(f"fortune tellers on tents {tellers[p]}")
        if acrobats[p]:
            out[p].append(f"acrobats in pyramids {acrobats[p]}")
    return out


def _player_row(
    game: Game, p: int, y: float, on_board: list[str], winners: set[int]
) -> tuple[list[str], float]:
    """Player ``p``'s row: name, score, supply and figures out, goods, points by source."""
    ink = COLOURS["ink"]
    over = game.is_over()
    status = "winner" if p in winners else ("to move" if not over and p == game.turn else "")
    supply = [f"{k} {v}" for k, v in game.supply(p).items()]
    goods = _goods(game, p)
    lines = _wrap(supply + on_board + ([status] if status else []), 36)
    if goods:
        lines += _wrap([f"{k} {v}" for k, v in goods.items()], 36, "goods: ")
    points = [f"{k.replace('_', ' ')} {v}" for k, v in sources(game, p)]
    small = _wrap(points, 42) if points else ["no points yet"]
    rh = 34 + 14 * len(lines) + 12 * len(small)
    row = [f'<g class="player" data-player="{p}" transform="translate(0,{_num(y)})">']
    if not over and p == game.turn:
        row.append(
            f'<rect x="6" y="-2" width="{_num(PANEL_WIDTH - 24)}" height="{_num(rh - 4)}" '
            'rx="6" fill="#fff1c9" stroke="#e6b84a"/>'
        )
    row.append(
        f'<g class="swatch" transform="translate(32,24) scale(1.3)">{_meeple(player_colour(p))}</g>'
        f'<text x="58" y="20" font-size="16" font-weight="bold" fill="{ink}">'
        f"Player {p + 1}</text>"
        f'<text x="{_num(PANEL_WIDTH - 28)}" y="24" font-size="24" font-weight="bold" '
        f'text-anchor="end" fill="{ink}" class="score">{game.scores[p]}</text>'
    )
    ly = 36.0
    for line in lines:
        row.append(
            f'<text x="58" y="{_num(ly)}" font-size="11" fill="#5a5245">{escape(line)}</text>'
        )
        ly += 14
    for line in small:
        row.append(
            f'<text class="sources" x="58" y="{_num(ly)}" font-size="10" fill="#7a705e">'
            f"{escape(line)}</text>"
        )
        ly += 12
    if p in winners:
        row.append(
            '<path class="winner" d="M12,4 L14.4,9.2 L20,9.8 L15.8,13.4 L17,19 L12,16.2 '
            'L7,19 L8.2,13.4 L4,9.8 L9.6,9.2 Z" fill="#f2b705" stroke="#8a6400"/>'
        )
    row.append("</g>")
    return row, rh
