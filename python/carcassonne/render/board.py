"""The SVG board picture of a game, layer by layer: tiles, open positions, coordinates,
figures, the expansions' pieces (render.pieces), last move, panel."""

from __future__ import annotations

from collections import Counter
from html import escape
from typing import TYPE_CHECKING

from carcassonne.render.figures import FEATURE_OFFSETS, figure_role, figure_svg
from carcassonne.render.geometry import CENTRE, T, _num, _pt
from carcassonne.render.panel import _panel
from carcassonne.render.pieces import (
    MARGIN,
    PANEL_WIDTH,
    Frame,
    _last_mover,
    _last_placement,
    big_top_layer,
    last_ring,
    pyramids_layer,
    tollhouses_layer,
)
from carcassonne.render.symbols import COLOURS, player_name
from carcassonne.render.tiles import _Tiles

if TYPE_CHECKING:
    from carcassonne._core import Move
    from carcassonne.game import Game


def svg(
    game: Game,
    *,
    last_move: bool = True,
    scores: bool = True,
    size: float | None = None,
    coordinates: bool = False,
    open_positions: bool = False,
) -> str:
    """The game as an SVG document (a string).

    ``last_move`` outlines the tile of the last move (and the figure it placed); ``scores``
    adds a panel with the scores, supplies and the tile waiting to be placed; ``size`` is the
    longer side of the picture in pixels (default: 60 pixels per tile). ``coordinates`` writes
    each column's x above the board and each row's y beside it (y grows north);
    ``open_positions`` outlines, while a tile waits to be placed, every position where it fits
    with its x,y and the rotations that fit there. Each board tile is a ``<g class="tile">``,
    each figure a ``<g class="figure ROLE player-N">``, each open position a ``<g
    class="open-position" data-x data-y data-rotations>``.
    """
    if size is not None and not size > 0:
        raise ValueError(f"size must be a positive number of pixels, not {size!r}")
    tiles = _Tiles(game)
    board = game.board
    fits: dict[tuple[int, int], set[int]] = {}
    if open_positions:
        for m in game.legal_moves:
            if m.places_tile:
                fits.setdefault((m.x, m.y), set()).add(m.rotation)
    xs = [p.x for p in board] + [x for x, _ in fits] or [0]
    ys = [p.y for p in board] + [y for _, y in fits] or [0]
    minx, maxx, miny, maxy = min(xs), max(xs), min(ys), max(ys)
    bw = (maxx - minx + 1) * T + 2 * MARGIN
    bh = (maxy - miny + 1) * T + 2 * MARGIN
    frame = Frame(tiles, {(p.x, p.y): (p.tile, p.rotation) for p in board}, minx, maxy)
    last = _last_placement(game) if last_move else None
    out = _tiles_layer(game, frame)
    if fits:
        out += _open_positions_layer(game, frame, fits)
    if coordinates:
        out += _coordinates_layer(frame, range(minx, maxx + 1), range(miny, maxy + 1))
    out += ['<g class="figures">', *_figures(game, frame, last), *pyramids_layer(game, frame)]
    out.append("</g>")
    out += big_top_layer(game, frame)
    out += tollhouses_layer(game, frame, last)
    if last is not None:
        out += _highlight_layer(game, frame, last)
    width, height = bw, bh
    if scores:
        panel, ph = _panel(game, tiles, bw)
        out.append(panel)
        width = bw + PANEL_WIDTH
        height = max(bh, ph)
    scale = 0.6 if size is None else float(size) / max(width, height)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="carcassonne" '
        f'viewBox="0 0 {_num(width)} {_num(height)}" width="{_num(width * scale)}" '
        f'height="{_num(height * scale)}" font-family="DejaVu Sans, Verdana, sans-serif">'
        f"<title>Carcassonne: {len(board)} tiles, move {len(game.move_stack)}</title>"
        f'<rect class="background" width="{_num(width)}" height="{_num(height)}" '
        f'fill="{COLOURS["background"]}"/>'
    )
    return head + "".join(out) + "</svg>"


def _tiles_layer(game: Game, frame: Frame) -> list[str]:
    out = ['<g class="board">']
    for p in game.board:
        out.append(
            f'<g class="tile" data-tile="{escape(p.tile)}" data-x="{p.x}" data-y="{p.y}" '
            f'data-rotation="{p.rotation}" transform="translate({_pt(frame.origin(p.x, p.y))})">'
            f"<title>{escape(p.tile)} at {p.x},{p.y} turned {p.rotation}</title>"
            f"{frame.tiles.body(p.tile, p.rotation)}</g>"
        )
    out.append("</g>")
    return out


def _open_positions_layer(
    game: Game, frame: Frame, fits: dict[tuple[int, int], set[int]]
) -> list[str]:
    """Every position where the waiting tile fits, with the rotations that fit there."""
    out = ['<g class="open-positions">']
    for (x, y), rots in sorted(fits.items()):
        o = frame.origin(x, y)
        turns = " ".join(str(r) for r in sorted(rots))
        out.append(
            f'<g class="open-position" data-x="{x}" data-y="{y}" data-rotations="{turns}" '
            f'transform="translate({_pt(o)})"><title>{escape(str(game.tile))} fits at '
            f'{x},{y} turned {turns}</title><rect x="4" y="4" width="92" height="92" '
            f'fill="#ffffff" fill-opacity="0.35" stroke="{COLOURS["highlight"]}" '
            'stroke-width="2" stroke-dasharray="6 4" rx="4"/>'
            f'<text x="50" y="46" font-size="16" text-anchor="middle" '
            f'fill="{COLOURS["ink"]}">{x},{y}</text><text x="50" y="66" font-size="11" '
            f'text-anchor="middle" fill="{COLOURS["ink"]}">{turns}</text></g>'
        )
    out.append("</g>")
    return out


def _coordinates_layer(frame: Frame, columns: range, rows: range) -> list[str]:
    """Each column's x above the board, each row's y beside it."""
    out = [f'<g class="coordinates" font-size="13" fill="{COLOURS["ink"]}">']
    for x in columns:
        cx = frame.origin(x, frame.maxy)[0] + T / 2
        out.append(
            f'<text class="column" data-x="{x}" x="{_num(cx)}" y="20" '
            f'text-anchor="middle">{x}</text>'
        )
    for y in rows:
        cy = frame.origin(frame.minx, y)[1] + T / 2 + 5
        out.append(
            f'<text class="row" data-y="{y}" x="{_num(MARGIN - 5)}" y="{_num(cy)}" '
            f'text-anchor="end">{y}</text>'
        )
    out.append("</g>")
    return out


def _figures(game: Game, frame: Frame, last: Move | None) -> list[str]:
    """Every figure on its segment; the one the last move placed ringed."""
    labels: dict[tuple[int, int], list[str]] = {}
    out = []
    placed = []
    for f in game.figures():
        key = (f.x, f.y)
        if key not in labels:
            try:
                labels[key] = game.labels(f.x, f.y)
            except ValueError:
                labels[key] = []
        placed.append((f, labels[key].index(f.segment) if f.segment in labels[key] else None))
    crowds = Counter((f.x, f.y, index) for f, index in placed)
    seen: Counter[tuple[int, int, int | None]] = Counter()
    for f, index in placed:
        key = (f.x, f.y)
        tile_id, rot = frame.placed.get(key, ("", 0))
        a = frame.tiles.anchor(tile_id, rot, index) if tile_id else CENTRE
        # several figures on one segment (a meeple with a builder or pig) stand side by side,
        # centred on the segment's spot and far enough apart that none hides another
        n, k = crowds[(f.x, f.y, index)], seen[(f.x, f.y, index)]
        seen[(f.x, f.y, index)] += 1
        o = frame.origin(f.x, f.y)
        role = figure_role(f)
        dx, dy = FEATURE_OFFSETS.get(f.feature, (0.0, 0.0))
        x = o[0] + a[0] + dx + 20 * (k - (n - 1) / 2)
        at = (min(max(x, o[0] + 11), o[0] + T - 11), max(o[1] + a[1] + dy, o[1] + 10))
        if last is not None and (last.x, last.y) == key and last.segment is not None:
            out.append(last_ring(at, 15))
        title = f"player {f.player + 1} ({player_name(f.player)}): {role} on {f.segment}"
        out.append(figure_svg(role, f.player, at, title + f" at {f.x},{f.y}"))
    return out


def _highlight_layer(game: Game, frame: Frame, last: Move) -> list[str]:
    """The last move's tile outlined (and the tile an abbot was recalled from)."""
    o = frame.origin(last.x, last.y)
    mover = _last_mover(game)
    who = f"player {mover + 1}: " if mover is not None else ""
    out = [
        '<g class="highlight">',
        f'<rect class="last-move" x="{_num(o[0] + 2)}" y="{_num(o[1] + 2)}" width="96" '
        f'height="96" fill="none" stroke="{COLOURS["highlight"]}" stroke-width="4" '
        f'rx="3"><title>last move, {escape(who + str(last))}</title></rect>',
    ]
    if last.action == "recall" and last.target is not None:
        ro = frame.origin(*last.target)
        out.append(
            f'<rect class="recalled" x="{_num(ro[0] + 6)}" y="{_num(ro[1] + 6)}" '
            f'width="88" height="88" fill="none" stroke="{COLOURS["highlight"]}" '
            'stroke-width="2.5" stroke-dasharray="7 5" rx="3">'
            "<title>abbot recalled from here</title></rect>"
        )
    out.append("</g>")
    return out


def repr_svg(game: Game) -> str:
    """``Game._repr_svg_``: the picture notebooks show."""
    return svg(game)
