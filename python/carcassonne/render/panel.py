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
    ink = COLOURS["ink"]
    out = [
        f'<g class="score-panel" transform="translate({_num(x0)},0)">',
        f'<rect x="0" y="10" width="{_num(PANEL_WIDTH - 12)}" height="__H__" rx="8" '
        f'fill="{COLOURS["panel"]}" stroke="#cfc6b0"/>',
        f'<text x="18" y="42" font-size="22" font-weight="bold" fill="{ink}">Carcassonne</text>',
        f'<text x="18" y="66" font-size="14" fill="{ink}">{escape(_status(game))}</text>',
    ]
    y = 76.0
    if game.tile is not None:
        tid = game.tile
        out.append(
            f'<g class="next-tile" transform="translate(18,{_num(y)}) scale(0.6)">'
            f"{tiles.body(tid, 0)}</g>"
            f'<text x="88" y="{_num(y + 24)}" font-size="12" fill="{ink}">next tile</text>'
            f'<text x="88" y="{_num(y + 42)}" font-size="13" font-weight="bold" fill="{ink}">'
            f"{escape(tid)}</text>"
        )
        y += 70
    hand = [t for t in (_call(game, "hand") or []) if isinstance(t, str)]
    if hand:
        out.append(
            f'<g class="hand" data-tiles="{len(hand)}">'
            f'<text x="18" y="{_num(y + 14)}" font-size="12" fill="{ink}">'
            f"hand: {len(hand)} drawn tile{'' if len(hand) == 1 else 's'}</text>"
        )
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
        y += 26 + 46 * min(len(hand), 6)
    decision = game.decision.value
    out.append(f'<g class="decision" data-decision="{escape(decision)}">')
    for line in _wrap([f"pending: {decision}", DECISIONS.get(decision, decision)], 40):
        out.append(
            f'<text x="18" y="{_num(y + 14)}" font-size="12" fill="{ink}">{escape(line)}</text>'
        )
        y += 16
    out.append("</g>")
    y += 2
    left = sum(game.bag.values())
    out.append(
        f'<text x="18" y="{_num(y + 14)}" font-size="12" fill="{ink}">'
        f"{left} tiles in the bag</text>"
    )
    y += 18
    bt = big_top(game)
    if bt is not None:
        revealed = [int(v) for v in bt.get("revealed") or []]
        hidden = sum(int(n) for n in (bt.get("left") or {}).values())
        where = "big top at {},{}".format(*bt["at"]) if bt.get("at") else "big top not placed"
        said = f"{len(revealed)} token{'' if len(revealed) == 1 else 's'} revealed"
        if revealed:
            said += f" ({', '.join(map(str, revealed))})"
        # Word by word, so that a long list of tokens wraps inside the panel.
        parts = [*textwrap.wrap(said, 38), f"{hidden} face down"]
        out.append(
            f'<g class="big-top-info" data-revealed="{len(revealed)}" data-left="{hidden}">'
            f'<g transform="translate(29,{_num(y + 12)}) scale(0.55)">{BIG_TOP_FIGURE}</g>'
            f'<text x="46" y="{_num(y + 10)}" font-size="12" fill="{ink}">{escape(where)}</text>'
        )
        for line in _wrap(parts, 38):
            y += 14
            out.append(
                f'<text x="46" y="{_num(y + 10)}" font-size="11" fill="#5a5245">'
                f"{escape(line)}</text>"
            )
        out.append("</g>")
        y += 18
    y += 12
    tellers = _call(game, "fortune_tellers") or []
    acrobats = [0] * game.players
    for _, _, owners in pyramids(game):
        for o in owners:
            if 0 <= o < game.players:
                acrobats[o] += 1
    over = game.is_over()
    winners = set(game.winners) if over else set()
    sc = game.scores
    for p in range(game.players):
        colour = player_colour(p)
        status = "winner" if p in winners else ("to move" if not over and p == game.turn else "")
        supply = [f"{k} {v}" for k, v in game.supply(p).items()]
        goods = _goods(game, p)
        out_there = []
        if p < len(tellers) and tellers[p]:
            out_there.append(f"fortune tellers on tents {tellers[p]}")
        if acrobats[p]:
            out_there.append(f"acrobats in pyramids {acrobats[p]}")
        lines = _wrap(supply + out_there + ([status] if status else []), 36)
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
            f'<g class="swatch" transform="translate(32,24) scale(1.3)">{_meeple(colour)}</g>'
            f'<text x="58" y="20" font-size="16" font-weight="bold" fill="{ink}">'
            f"Player {p + 1}</text>"
            f'<text x="{_num(PANEL_WIDTH - 28)}" y="24" font-size="24" font-weight="bold" '
            f'text-anchor="end" fill="{ink}" class="score">{sc[p]}</text>'
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
        out += row
        y += rh
    height = y + 14
    out.append("</g>")
    text = "".join(out).replace("__H__", _num(height - 20))
    return text, height
