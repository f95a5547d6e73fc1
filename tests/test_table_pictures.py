"""Pictures for entering moves at a table: coordinates on the board, the open positions where
the drawn tile fits, the drawn tile in each rotation; players counted from 1 in what people
read."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from carcassonne import Game, Rules, render

SVG = "{http://www.w3.org/2000/svg}"


def groups(svg: str, cls: str) -> list[ET.Element]:
    return [g for g in ET.fromstring(svg).iter() if cls in (g.get("class") or "").split()]


def test_open_positions_are_exactly_where_the_drawn_tile_fits() -> None:
    g = Game(Rules.base(), players=2, seed=2)
    for _ in range(5):
        g.play(g.legal_moves[0])
    svg = render.svg(g, open_positions=True)
    shown = {
        (int(e.get("data-x")), int(e.get("data-y"))): {
            int(r) for r in e.get("data-rotations").split()
        }
        for e in groups(svg, "open-position")
    }
    fits: dict = {}
    for m in g.legal_moves:
        fits.setdefault((m.x, m.y), set()).add(m.rotation)
    assert shown == fits and shown
    assert not groups(render.svg(g), "open-position")  # off unless asked
    g2 = Game(Rules.base(), players=2, chance="manual")
    assert not groups(render.svg(g2, open_positions=True), "open-position")  # nothing drawn


def test_coordinates_label_every_column_and_row() -> None:
    g = Game(Rules.base(), players=2, seed=2)
    for _ in range(6):
        g.play(g.legal_moves[-1])
    svg = render.svg(g, coordinates=True, open_positions=True)
    xs = {p.x for p in g.board} | {m.x for m in g.legal_moves}
    ys = {p.y for p in g.board} | {m.y for m in g.legal_moves}
    cols = {int(e.get("data-x")) for e in groups(svg, "column")}
    rows = {int(e.get("data-y")) for e in groups(svg, "row")}
    assert cols == set(range(min(xs), max(xs) + 1))
    assert rows == set(range(min(ys), max(ys) + 1))
    assert not groups(render.svg(g), "coordinates")


def test_the_drawn_tile_in_each_rotation() -> None:
    svg = render.rotations_svg("CITY3_ROAD", [0, 90, 270])
    rots = [int(e.get("data-rotation")) for e in groups(svg, "rotation")]
    assert rots == [0, 90, 270]
    for r in (0, 90, 270):  # each drawn as tile_svg draws it (the board's own tile body)
        alone = render.tile_svg("CITY3_ROAD", r)
        body = alone.split("</title>", 1)[1].rsplit("</svg>", 1)[0]
        assert body in svg


def test_players_are_counted_from_one_in_what_people_read() -> None:
    g = Game(Rules.base(), players=3, seed=1)
    while not any(f.player == 2 for f in g.figures()):
        g.play(next((m for m in g.legal_moves if m.action == "meeple"), g.legal_moves[0]))
    svg = render.svg(g)
    titles = [t.text or "" for t in ET.fromstring(svg).iter(SVG + "title")]
    assert any(t.startswith("player 3 (yellow)") for t in titles)
    assert not any("player 0" in t.lower() for t in titles)
    assert "player 0" not in render.text(g).lower()
