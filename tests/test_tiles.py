"""Tiles a person can find: the lookup by printed facts, forgiving ids in Game.draw, one tile as
a picture, and the gallery page (docs/tiles.md) kept equal to the catalogue."""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from carcassonne import Catalogue, DrawError, Game, Rules, render, tiles
from carcassonne.render.gallery import GALLERY_BEGIN, GALLERY_END, gallery_markdown, gallery_svg

DOCS = Path(__file__).resolve().parent.parent / "docs"
CAT = Catalogue.builtin()


def printed(t: tiles.TileLook) -> tuple:
    return dataclasses.astuple(dataclasses.replace(t, id="", set=""))


def rotated(edges: str, k: int) -> str:
    return edges[-k:] + edges[:-k] if k else edges


@pytest.mark.parametrize("look", tiles.looks(), ids=lambda t: t.id)
def test_every_tile_is_found_from_its_own_printed_facts(look: tiles.TileLook) -> None:
    for k in range(4):  # the edges as the tile lies in any rotation
        found = tiles.find(
            rotated(look.edges, k).lower() if k == 3 else rotated(look.edges, k),
            cities=look.cities,
            roads=look.roads,
            spaces=look.spaces,
            arms=look.arms,
            goods=look.goods,
            illustrations=look.illustrations,
            set=look.set,
        )
        assert look.id in found
        # everything found looks the same: the lookup tells apart what is printed differently
        assert {printed(tiles.look(CAT.tile(t))) for t in found} == {printed(look)}


def test_find_by_a_few_facts() -> None:
    assert tiles.find("CCFC", arms=1, set="base") == ["CITY3_SHIELD"]
    assert tiles.find("FCCC", illustrations=["garden"]) == ["CITY3.garden"]
    assert tiles.find("cfcc", illustrations=[], arms=0, set="base") == ["CITY3"]
    assert set(tiles.find(spaces=["monastery"], roads=1, set="base")) == {
        "MON_ROAD",
        "MON_ROAD.robbers",
    }
    assert all(
        t.startswith("TK")
        for t in tiles.find(
            spaces="village", rules=Rules.base(toll_collectors=True), illustrations=["travellers"]
        )
    )  # noqa: E501
    assert "RV_MON_ROAD" not in tiles.find(spaces=["monastery"], rules=Rules.base())
    assert "RV_MON_ROAD" in tiles.find(spaces=["monastery"], rules=Rules())
    for bad in (dict(edges="CCF"), dict(edges="CCFX"), dict(spaces=["castle"]), dict(set="x")):
        with pytest.raises(ValueError):
            tiles.find(**bad)


def test_draw_reads_ids_forgivingly() -> None:
    g = Game(Rules.base(), players=2, chance="manual")
    g.draw(" cross4 ")
    assert g.tile == "CROSS4" and g.record()["draws"] == ["CROSS4"]
    g.undo()
    g.draw("city3*")
    assert g.tile == "CITY3"  # the plain copy first
    g.play(g.legal_moves[0])
    g.draw("CITY3*")
    assert g.tile == "CITY3.garden"


def test_a_refused_draw_says_what_to_draw_instead() -> None:
    g = Game(Rules(), players=2, chance="manual")
    with pytest.raises(DrawError, match=r"unknown tile id 'RV_CURVE'.*RV_CURVE\.garden"):
        g.draw("RV_CURVE")
    with pytest.raises(DrawError, match="TK01_VILLAGE_SW is not in play under these rules"):
        g.draw("TK01_VILLAGE_SW")
    g = Game(Rules.base(), players=2, chance="manual")
    g.draw("CITY3")
    g.play(g.legal_moves[0])
    fp = g.fingerprint()
    with pytest.raises(DrawError) as info:
        g.draw("CITY3")
    msg = str(info.value)
    assert "CITY3 is not in the bag" in msg
    assert "CITY3.garden (1)" in msg and "CITY3.watertower (1)" in msg and "CITY3*" in msg
    assert g.fingerprint() == fp


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_tile_svg_draws_the_tile_as_the_board_lays_it(rotation: int) -> None:
    g = Game(Rules.base(), players=2, chance="manual")
    g.draw("CROSS3")
    spot = next(m for m in g.legal_moves if m.rotation == rotation)
    g.play(spot)
    board = render.svg(g)
    alone = render.tile_svg("CROSS3", rotation, north=False)
    ET.fromstring(alone)
    body = re.search(r"<title>CROSS3 turned \d+</title>(.*)</svg>", alone)
    assert body is not None and body.group(1) in board
    marked = render.tile_svg("CROSS3", rotation, size=50)
    assert 'class="north-mark"' in marked and 'width="50"' in marked


def test_tile_svg_refuses_what_is_no_tile() -> None:
    with pytest.raises(ValueError, match="did you mean CITY3"):
        render.tile_svg("CITY")
    with pytest.raises(ValueError, match="rotation"):
        render.tile_svg("CITY3", 45)


def test_the_gallery_page_matches_the_catalogue() -> None:
    page = (DOCS / "tiles.md").read_text(encoding="utf-8")
    section = GALLERY_BEGIN + page.split(GALLERY_BEGIN, 1)[1].split(GALLERY_END, 1)[0]
    assert section + GALLERY_END == gallery_markdown(), "run scripts/tile-gallery"
    shown = set()
    for name in CAT.set_names():
        picture = (DOCS / "tiles" / f"{name}.svg").read_text(encoding="utf-8")
        assert picture == gallery_svg(name) + "\n", "run scripts/tile-gallery"
        root = ET.fromstring(picture)
        shown |= {g.get("data-tile") for g in root.iter("{http://www.w3.org/2000/svg}g")}
        assert f"](tiles/{name}.svg)" in page
    assert set(CAT.tile_ids()) <= shown
    for t in CAT.tile_ids():
        assert f"| `{t}` |" in page


def test_the_gallery_counts_copies_as_well_as_designs() -> None:
    # The base set has 57 designs (illustrated copies are their own) and 72 tiles (B1).
    page = gallery_markdown()
    assert "### `base` (57 designs, 72 tiles)" in page
    assert "### `big_top` (16 designs, 20 tiles)" in page
    assert "### `fortune_teller_c1` (1 design, 1 tile)" in page
