"""The SVG board picture of a game: tiles, figures, expansion pieces, last move, panel."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from carcassonne.render.figures import FEATURE_OFFSETS, figure_role, figure_svg
from carcassonne.render.geometry import CENTRE, Point, T, _num, _pt, rotate_point
from carcassonne.render.panel import _panel
from carcassonne.render.pieces import (
    MARGIN,
    PANEL_WIDTH,
    _last_mover,
    _last_placement,
    big_top,
    big_top_svg,
    pyramid_spots,
    pyramids,
    tollhouse_svg,
    tollhouses,
)
from carcassonne.render.symbols import COLOURS, player_name
from carcassonne.render.tiles import _Tiles

if TYPE_CHECKING:
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

    def origin(x: int, y: int) -> Point:
        return (MARGIN + (x - minx) * T, MARGIN + (maxy - y) * T)

    out: list[str] = []
    placed: dict[tuple[int, int], tuple[str, int]] = {}
    out.append('<g class="board">')
    for p in board:
        placed[(p.x, p.y)] = (p.tile, p.rotation)
        o = origin(p.x, p.y)
        out.append(
            f'<g class="tile" data-tile="{escape(p.tile)}" data-x="{p.x}" data-y="{p.y}" '
            f'data-rotation="{p.rotation}" transform="translate({_pt(o)})">'
            f"<title>{escape(p.tile)} at {p.x},{p.y} turned {p.rotation}</title>"
            f"{tiles.body(p.tile, p.rotation)}</g>"
        )
    out.append("</g>")
    if fits:
        out.append('<g class="open-positions">')
        for (x, y), rots in sorted(fits.items()):
            o = origin(x, y)
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
    if coordinates:
        out.append(f'<g class="coordinates" font-size="13" fill="{COLOURS["ink"]}">')
        for x in range(minx, maxx + 1):
            cx = origin(x, maxy)[0] + T / 2
            out.append(
                f'<text class="column" data-x="{x}" x="{_num(cx)}" y="20" '
                f'text-anchor="middle">{x}</text>'
            )
        for y in range(miny, maxy + 1):
            cy = origin(minx, y)[1] + T / 2 + 5
            out.append(
                f'<text class="row" data-y="{y}" x="{_num(MARGIN - 5)}" y="{_num(cy)}" '
                f'text-anchor="end">{y}</text>'
            )
        out.append("</g>")

    last = _last_placement(game) if last_move else None
    labels: dict[tuple[int, int], list[str]] = {}
    crowd: dict[tuple[int, int, int | None], int] = {}
    out.append('<g class="figures">')
    for f in game.figures():
        key = (f.x, f.y)
        if key not in labels:
            try:
                labels[key] = game.labels(f.x, f.y)
            except ValueError:
                labels[key] = []
        index = labels[key].index(f.segment) if f.segment in labels[key] else None
        tile_id, rot = placed.get(key, ("", 0))
        a = tiles.anchor(tile_id, rot, index) if tile_id else CENTRE
        # several figures on one segment (a meeple with a builder or pig) stand side by side
        k = crowd[(f.x, f.y, index)] = crowd.get((f.x, f.y, index), -1) + 1
        o = origin(f.x, f.y)
        role = figure_role(f)
        dx, dy = FEATURE_OFFSETS.get(f.feature, (0.0, 0.0))
        at = (o[0] + a[0] + dx + 12 * k, max(o[1] + a[1] + dy - 3 * k, o[1] + 10))
        is_last = last is not None and (last.x, last.y) == key and last.segment is not None
        if is_last:
            out.append(
                f'<circle class="last-figure" cx="{_num(at[0])}" cy="{_num(at[1])}" r="15" '
                f'fill="#ffffff" fill-opacity="0.55" stroke="{COLOURS["highlight"]}" '
                'stroke-width="2.5"/>'
            )
        title = f"player {f.player + 1} ({player_name(f.player)}): {role} on {f.segment}"
        out.append(figure_svg(role, f.player, at, title + f" at {f.x},{f.y}"))
    # acrobat pyramids stand on the acrobat space of their tile, 2 + 1 from the bottom
    for x, y, owners in pyramids(game):
        tile_id, rot = placed.get((x, y), ("", 0))
        spot = CENTRE
        if tile_id:
            spot = rotate_point(tiles.layout(tile_id).places.get("acrobat", CENTRE), rot)
        o = origin(x, y)
        for level, (owner, (dx, dy)) in enumerate(
            zip(owners, pyramid_spots(len(owners)), strict=True)
        ):
            at = (o[0] + spot[0] + dx, o[1] + spot[1] + dy)
            title = (
                f"player {owner + 1} ({player_name(owner)}): acrobat {level + 1} of "
                f"{len(owners)} in the pyramid at {x},{y}"
            )
            out.append(figure_svg("acrobat", owner, at, title, f"pyramid-{level}"))
    out.append("</g>")

    bt = big_top(game)
    if bt is not None and bt.get("at") is not None:
        x, y = bt["at"]
        tile_id, rot = placed.get((x, y), ("", 0))
        spot = CENTRE
        if tile_id:
            spot = rotate_point(tiles.layout(tile_id).places.get("bigtop", CENTRE), rot)
        o = origin(x, y)
        out.append(big_top_svg((o[0] + spot[0], o[1] + spot[1]), x, y, len(bt["revealed"])))

    houses = tollhouses(game)
    if houses:
        out.append('<g class="tollhouses">')
        for player, x, y, value in houses:
            tile_id, rot = placed.get((x, y), ("", 0))
            spot = CENTRE
            if tile_id:
                spot = rotate_point(tiles.layout(tile_id).places.get("village", CENTRE), rot)
            o = origin(x, y)
            at = (o[0] + spot[0], o[1] + spot[1] - 2)
            if last is not None and last.action == "tollhouse" and last.target == (x, y):
                out.append(
                    f'<circle class="last-figure" cx="{_num(at[0])}" cy="{_num(at[1])}" r="16" '
                    f'fill="#ffffff" fill-opacity="0.55" stroke="{COLOURS["highlight"]}" '
                    'stroke-width="2.5"/>'
                )
            out.append(tollhouse_svg(player, value, at, x, y))
        out.append("</g>")

    if last is not None:
        out.append('<g class="highlight">')
        o = origin(last.x, last.y)
        mover = _last_mover(game)
        who = f"player {mover + 1}: " if mover is not None else ""
        out.append(
            f'<rect class="last-move" x="{_num(o[0] + 2)}" y="{_num(o[1] + 2)}" width="96" '
            f'height="96" fill="none" stroke="{COLOURS["highlight"]}" stroke-width="4" '
            f'rx="3"><title>last move, {escape(who + str(last))}</title></rect>'
        )
        if last.action == "recall" and last.target is not None:
            ro = origin(*last.target)
            out.append(
                f'<rect class="recalled" x="{_num(ro[0] + 6)}" y="{_num(ro[1] + 6)}" '
                f'width="88" height="88" fill="none" stroke="{COLOURS["highlight"]}" '
                'stroke-width="2.5" stroke-dasharray="7 5" rx="3">'
                "<title>abbot recalled from here</title></rect>"
            )
        out.append("</g>")

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


def repr_svg(game: Game) -> str:
    """``Game._repr_svg_``: the picture notebooks show."""
    return svg(game)
