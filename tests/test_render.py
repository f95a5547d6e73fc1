"""Pictures of a game (carcassonne.render, carcassonne.cli.view): the SVG is well-formed XML with
one ``tile`` group per placed tile and one ``figure`` group per figure, each figure inside its
tile; every catalogue tile lays out sensibly in every rotation; unknown segment kinds and
attributes are drawn generically; rendering never fails on a legal state of any rule option;
the terminal view of a small known game matches tests/golden/; the ``render`` and ``replay``
commands work end to end and refuse bad input with one line and exit status 2; and a headless
Chromium (when installed) screenshots a rendered board that shows fields, cities and figures.

Set UPDATE_GOLDEN=1 to rewrite the golden text after an intended change of the text view.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carcassonne import SOURCES, Catalogue, Decision, Game, Rules, render
from carcassonne.cli import main
from carcassonne.render.geometry import _inside, _polyline_dist
from carcassonne.scenario import turn

GOLDEN = Path(__file__).resolve().parent / "golden"
RECORD = GOLDEN / "small_game.json"
SVG_NS = "{http://www.w3.org/2000/svg}"


# -- helpers ------------------------------------------------------------------------------------


def small_game() -> Game:
    """The saved manual-chance game: 6 fixed draws and moves, base game with the Abbot."""
    return Game.from_record(RECORD.read_text())


def classes(el: ET.Element) -> list[str]:
    return (el.get("class") or "").split()


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [el for el in root.iter() if name in classes(el)]


def translate(el: ET.Element) -> tuple[float, float]:
    t = el.get("transform") or ""
    assert t.startswith("translate("), t
    x, y = t[len("translate(") :].split(")")[0].split(",")
    return float(x), float(y)


def role_of(el: ET.Element) -> str:
    return classes(el)[1]


def check_svg(game: Game, **kwargs) -> ET.Element:
    """Parse the picture and check the counts and that each figure stands on its tile: one
    ``figure`` group per figure and per acrobat in a pyramid (role ``acrobat``), one
    ``big-top`` group when the big top is on the board, one ``tollhouse`` per tollhouse."""
    root = ET.fromstring(render.svg(game, **kwargs))
    assert root.tag == SVG_NS + "svg"
    tiles = with_class(root, "tile")
    assert len(tiles) == len(game.board)
    figures = with_class(root, "figure")
    pyramids = game.pyramids()
    acrobats = [el for el in figures if role_of(el) == "acrobat"]
    others = [el for el in figures if role_of(el) != "acrobat"]
    assert len(acrobats) == sum(len(owners) for _, _, owners in pyramids)
    assert len(others) == len(game.figures())
    assert len(with_class(root, "tollhouse")) == len(render.tollhouses(game))
    origin = {(int(t.get("data-x")), int(t.get("data-y"))): translate(t) for t in tiles}
    assert set(origin) == {(p.x, p.y) for p in game.board}

    def on_tile(el: ET.Element, x: int, y: int) -> None:
        fx, fy = translate(el)
        ox, oy = origin[(x, y)]
        assert ox <= fx <= ox + 100 + 25 and oy - 10 <= fy <= oy + 100, (x, y, fx, fy, ox, oy)

    for el, f in zip(others, game.figures(), strict=True):
        assert el.get("data-player") == str(f.player)
        on_tile(el, f.x, f.y)
    stacked = [(x, y, owner) for x, y, owners in pyramids for owner in owners]
    for el, (x, y, owner) in zip(acrobats, stacked, strict=True):
        assert el.get("data-player") == str(owner)
        on_tile(el, x, y)
    at = game.big_top()["at"] if game.rules.big_top else None
    markers = with_class(root, "big-top")
    assert len(markers) == (0 if at is None else 1)
    for el in markers:
        assert (int(el.get("data-x")), int(el.get("data-y"))) == at
        on_tile(el, *at)
        assert el.get("data-revealed") == str(len(game.big_top()["revealed"]))
    if with_class(root, "score-panel"):
        check_panel(game, root)
    return root


def check_panel(game: Game, root: ET.Element) -> None:
    """The panel names the pending decision, shows the hand, and lists every non-zero source
    of points (carcassonne.SOURCES) per player, in that order."""
    (decision,) = with_class(root, "decision")
    assert decision.get("data-decision") == game.decision.value
    hand = with_class(root, "hand-tile")
    assert [el.get("data-tile") for el in hand] == game.hand[:6]
    for p, row in enumerate(with_class(root, "player")):
        shown = " · ".join(el.text for el in with_class(row, "sources"))
        points = game.breakdown[p]
        want = [f"{k.replace('_', ' ')} {points[k]}" for k in SOURCES if points.get(k)]
        assert shown == (" · ".join(want) or "no points yet"), (shown, want)
        assert sum(v for k, v in points.items() if k in SOURCES) == game.scores[p]


def play_randomly(game: Game, rng: random.Random, stop: int) -> Game:
    """Random legal play; with chance="manual", random draws (weighted by copies)."""
    while not game.is_over() and len(game.move_stack) < stop:
        if game.decision == "draw":
            bag = game.drawable
            if not bag:
                break
            ids = sorted(bag)
            game.draw(rng.choices(ids, weights=[bag[i] for i in ids])[0])
            continue
        if game.decision == "reveal":
            left = sorted(v for v, n in game.big_top()["left"].items() if n)
            game.draw(f"animal:{rng.choice(left)}")
            continue
        moves = game.legal_moves
        figures = [m for m in moves if m.action != "pass"]
        game.play(rng.choice(figures if figures and rng.random() < 0.7 else moves))
    return game


# -- SVG of known states --------------------------------------------------------------------------


def test_svg_of_a_fresh_game_has_the_start_tile_and_no_figure():
    for rules, start in ((Rules.base(), "CAP_ROAD_WE"), (Rules(), "RV_SPRING")):
        root = check_svg(Game(rules, seed=1))
        (tile,) = with_class(root, "tile")
        assert tile.get("data-tile") == start
        assert (tile.get("data-x"), tile.get("data-y"), tile.get("data-rotation")) == (
            "0",
            "0",
            "0",
        )
        assert with_class(root, "figure") == []
        assert with_class(root, "last-move") == []
        assert len(with_class(root, "player")) == 2


def test_svg_of_the_small_game_counts_tiles_figures_and_roles():
    g = small_game()
    root = check_svg(g)
    assert len(with_class(root, "tile")) == 7
    roles = sorted(c for el in with_class(root, "figure") for c in classes(el)[1:2])
    assert roles == ["abbot", "farmer", "knight", "monk", "thief"]
    players = sorted(el.get("data-player") for el in with_class(root, "figure"))
    assert players == ["0", "0", "1", "1", "1"]
    # the last move (-2,0 0 meeple field:NNW) is outlined and its farmer ringed
    (last,) = with_class(root, "last-move")
    (tile,) = [
        t for t in with_class(root, "tile") if (t.get("data-x"), t.get("data-y")) == ("-2", "0")
    ]
    assert (float(last.get("x")) - 2, float(last.get("y")) - 2) == translate(tile)
    assert len(with_class(root, "last-figure")) == 1
    # the score panel: a row per player with the score; no next tile while waiting for a draw
    rows = with_class(root, "player")
    assert [r.get("data-player") for r in rows] == ["0", "1"]
    assert [with_class(r, "score")[0].text for r in rows] == [str(s) for s in g.scores]
    assert with_class(root, "next-tile") == []
    # the catalogue's symbols: a monastery, a village, a garden and a coat of arms
    for name in ("monastery", "village", "garden", "arms"):
        assert with_class(root, name), name


def test_svg_options_and_notebook_hook():
    g = small_game()
    bare = ET.fromstring(render.svg(g, last_move=False, scores=False, size=400))
    assert with_class(bare, "last-move") == [] and with_class(bare, "score-panel") == []
    assert max(float(bare.get("width")), float(bare.get("height"))) == pytest.approx(400)
    assert g._repr_svg_() == render.svg(g)
    g.draw("CITY4_SHIELD.watertower")
    root = check_svg(g)
    (nxt,) = with_class(root, "next-tile")
    assert with_class(nxt, "tile") == []  # the waiting tile is not counted as a board tile


def test_every_catalogue_tile_lays_out_in_every_rotation():
    """Figure anchors lie on the tile, on their own city or outside every city; the picture
    of each tile is well-formed XML."""
    cat = Catalogue.builtin()
    for tid in cat.tile_ids():
        entry = cat.tile(tid)
        lay = render.layout_tile(entry)
        areas = dict(lay.areas)
        for i, seg in enumerate(entry["segments"]):
            a = lay.anchors[i]
            assert a is not None and 0 < a[0] < 100 and 0 < a[1] < 100, (tid, seg)
            if seg["kind"] == "city":
                assert _inside(a, areas[i]), (tid, i)
            elif seg["kind"] in ("field", "monastery", "garden"):
                assert not any(_inside(a, poly) for poly in areas.values()), (tid, i)
        for rot in (0, 90, 180, 270):
            body = render.tile_body(lay, rot)
            ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{body}</svg>')
            grid, cells = render.tile_cells(entry, rot)
            assert len(grid) == 3 and all(len(row) == 3 for row in grid)
            assert len(cells) == len(entry["segments"])


def test_unknown_kinds_attributes_ends_and_roles_are_drawn_generically():
    tile = {
        "id": "FUTURE",
        "edges": "RFCF",
        "provisional": "made up",
        "segments": [
            {"kind": "road", "ports": ["N"], "end": "trapeze", "items": {"tollhouse": 1}},
            {"kind": "city", "ports": ["S"], "arms": 2, "goods": "spice", "tent": True},
            {"kind": "menagerie", "ports": []},
            {"kind": "field", "ports": ["ENE", "ESE"], "end": "circus"},
            {"kind": "field", "ports": []},
        ],
    }
    lay = render.layout_tile(tile)
    assert all(a is not None for a in lay.anchors)
    for rot in (0, 90, 180, 270):
        root = ET.fromstring(
            f'<svg xmlns="http://www.w3.org/2000/svg">{render.tile_body(lay, rot)}</svg>'
        )
        titles = {t.text for el in with_class(root, "generic") for t in el.iter(SVG_NS + "title")}
        assert {"road end: trapeze", "tollhouse", "goods: spice", "tent: True"} <= titles
        assert {"menagerie"} <= titles
        assert {"end: circus"} <= titles
        assert len(with_class(root, "arms")) == 2
        assert len(with_class(root, "provisional")) == 1
        render.tile_cells(tile, rot)
    el = ET.fromstring(render.figure_svg("juggler", 7, (10, 10), "a juggler"))
    assert classes(el)[:3] == ["figure", "juggler", "player-7"]
    assert el.find("text").text == "J"  # the generic figure: a lettered disc


def test_tollhouses_show_owner_and_value_in_svg_and_text():
    g = Game(Rules(toll_collectors=True), players=3, seed=0)
    rng = random.Random(0)
    while not g.tollhouses():
        moves = g.legal_moves
        toll = [m for m in moves if m.action == "tollhouse"]
        g.play(toll[0] if toll else rng.choice(moves))
    ((player, x, y, value),) = g.tollhouses()
    root = check_svg(g)
    (house,) = with_class(root, "tollhouse")
    assert (house.get("data-player"), house.get("data-value")) == (str(player), str(value))
    assert len(with_class(root, "last-figure")) == 1  # the tollhouse just placed is ringed
    txt = render.text(g)
    assert "$" in txt and f"tollhouse at {x},{y} worth {value}" in txt


# -- Under the Big Top and the Fortune Teller ------------------------------------------------------


def test_big_top_acrobat_and_tent_spaces_are_drawn_from_the_catalogue():
    """Every tile with a big-top, acrobat or tent space shows that space's own symbol (never a
    generic marker), once, and every road ending at the space ends on it; the Toll Collectors
    travellers are a small group beside their road."""
    cat = Catalogue.builtin()
    seen = set()
    for tid in cat.tile_ids():
        entry = cat.tile(tid)
        kinds = {seg["kind"] for seg in entry["segments"]} & {"bigtop", "acrobat", "tent"}
        lay = render.layout_tile(entry)
        body = ET.fromstring(
            f'<svg xmlns="http://www.w3.org/2000/svg">{render.tile_body(lay, 90)}</svg>'
        )
        assert with_class(body, "generic") == [], tid
        for kind in kinds:
            seen.add(kind)
            assert len(with_class(body, kind)) == 1, (tid, kind)
            at = lay.places[kind]
            for i, seg in enumerate(entry["segments"]):
                if seg["kind"] == kind:
                    assert lay.anchors[i] == at
                if seg["kind"] == "road" and seg.get("end") == kind:
                    road = [sh for sh in lay.shapes if sh.cls == "road"]
                    assert any(sh.cmds[-1][-1] == at for sh in road), (tid, i)
        if any((seg.get("items") or {}).get("travellers") for seg in entry["segments"]):
            (group,) = [sy for sy in lay.symbols if sy.name == "travellers"]
            roads = [pts for pts, hw in lay.lines if hw == 5.5]
            assert min(_polyline_dist(group.at, pts) for pts in roads) < 25, tid
            seen.add("travellers")
    assert seen == {"bigtop", "acrobat", "tent", "travellers"}


def roles(root: ET.Element) -> list[tuple[str, str]]:
    return sorted((role_of(el), el.get("data-player")) for el in with_class(root, "figure"))


def test_svg_of_a_big_top_game_shows_pyramids_ringmaster_and_the_big_top():
    g = Game(Rules.base(big_top=True), chance="manual")
    turn(g, "BT_ACRO_RN_RS", "1,0 90 acrobat 1,0")  # player 1's acrobat: a pyramid at 1,0
    turn(g, "BT_ACRO_RS", "1,-1 0 acrobat 1,0")  # player 2's on top of it
    turn(g, "BT_ACRO_RS_RW", "2,0 0 acrobat 1,0")  # player 1's third: 2 + 1
    turn(g, "BT_TOP_RS", "-1,0 270 ringmaster field:NNW")  # the big top at -1,0
    turn(g, "BT_TOP_CN", "0,1 180 meeple field:NNW")  # a second big top: reveal, then move
    assert g.decision == "reveal" and g.pyramids() == [(1, 0, [0, 1, 0])]
    root = check_svg(g)
    assert roles(root) == [
        ("acrobat", "0"),
        ("acrobat", "0"),
        ("acrobat", "1"),
        ("farmer", "0"),
        ("ringmaster", "1"),
    ]
    (marker,) = with_class(root, "big-top")
    assert (marker.get("data-x"), marker.get("data-y"), marker.get("data-revealed")) == (
        "-1",
        "0",
        "0",
    )
    assert len(with_class(root, "bigtop")) == 2 and len(with_class(root, "acrobat")) == 3 + 3
    # the pyramid: two acrobats side by side, the third above them, all on the tile at 1,0
    pyramid = sorted(
        (el for el in with_class(root, "figure") if role_of(el) == "acrobat"),
        key=lambda el: classes(el)[3],
    )
    assert [classes(el)[3] for el in pyramid] == ["pyramid-0", "pyramid-1", "pyramid-2"]
    (x0, y0), (x1, y1), (x2, y2) = (translate(el) for el in pyramid)
    assert y0 == y1 and y2 < y0 - 8 and x0 < x2 < x1
    (decision,) = with_class(root, "decision")
    assert decision.get("data-decision") == "reveal"
    assert [t.text for t in decision] == ["pending: reveal", "the big top's animal token"]
    (info,) = with_class(root, "big-top-info")
    assert (info.get("data-revealed"), info.get("data-left")) == ("0", "16")

    g.draw("animal:7")  # the circus around -1,0 scores 7 a figure; the big top moves to 0,1
    assert g.breakdown[0]["circus"] == g.breakdown[1]["circus"] == 7
    turn(g, "BT_ACRO_FFFF.garden", "0,-1 0 acrobat 0,-1")  # player 2: a pyramid of one
    root = check_svg(g)
    acrobats = [
        el.get("data-player") for el in with_class(root, "figure") if role_of(el) == "acrobat"
    ]
    assert sorted(acrobats) == ["0", "0", "1", "1"]
    (marker,) = with_class(root, "big-top")
    assert (marker.get("data-x"), marker.get("data-y"), marker.get("data-revealed")) == (
        "0",
        "1",
        "1",
    )
    (info,) = with_class(root, "big-top-info")
    assert (info.get("data-revealed"), info.get("data-left")) == ("1", "15")
    assert "1 token revealed (7)" in "".join(info.itertext())
    rows = with_class(root, "player")
    assert [[el.text for el in with_class(r, "sources")] for r in rows] == [["circus 7"]] * 2
    assert "acrobats in pyramids 2" in "".join(rows[1].itertext())


def test_svg_of_a_fortune_teller_game_shows_tellers_on_tents_and_the_hand():
    g = Game(Rules.base(fortune_teller=True), chance="manual")
    turn(g, "FT05_ROAD_NS.garden", "1,0 90 meeple tent")  # a tent beside the road
    turn(g, "FT04_ROAD_TO_TENT", "-1,0 180 meeple tent")  # the road ends at the tent
    assert g.fortune_tellers() == [1, 1]
    g.draw("ROAD_WE")  # player 1 has a fortune teller out: a hand of two tiles (FT3)
    g.draw("MON")
    assert g.decision == Decision.CHOOSE and len(g.hand) == 2
    root = check_svg(g)
    assert roles(root) == [("fortune-teller", "0"), ("fortune-teller", "1")]
    assert len(with_class(root, "tent")) == 2
    # each teller stands on (just above) its tent
    tents = {}
    for t in with_class(root, "tile"):
        for sym in with_class(t, "tent"):
            tx, ty = translate(t)
            sx, sy = translate(sym)
            tents[(t.get("data-x"), t.get("data-y"))] = (tx + sx, ty + sy)
    for el, f in zip(with_class(root, "figure"), g.figures(), strict=True):
        fx, fy = translate(el)
        tx, ty = tents[(str(f.x), str(f.y))]
        assert abs(fx - tx) < 5 and ty - 20 < fy < ty, (fx, fy, tx, ty)
    (hand,) = with_class(root, "hand")
    assert [el.get("data-tile") for el in with_class(hand, "hand-tile")] == g.hand
    assert with_class(hand, "tile") == [] and with_class(root, "next-tile") == []
    rows = with_class(root, "player")
    assert all("fortune tellers on tents 1" in "".join(r.itertext()) for r in rows)
    g.play(f"choose {g.hand[0]}")
    root = check_svg(g)
    assert len(with_class(root, "next-tile")) == 1 and len(with_class(root, "hand-tile")) == 1


# -- rendering never fails ------------------------------------------------------------------------

OPTIONS = Rules.options()
DEFAULTS = Rules().to_dict()


def _playable(options: dict) -> dict:
    """A tile edition other than the default needs its expansion: reset it where it is off."""
    for edition, expansion in (
        ("river_edition", "river"),
        ("fortune_teller_edition", "fortune_teller"),
    ):
        if not options[expansion]:
            options[edition] = DEFAULTS[edition]
    return options


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    options=st.fixed_dictionaries(
        {k: st.sampled_from(v) for k, v in OPTIONS.items() if k != "tiles"}
    ).map(_playable),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    stop=st.integers(0, 120),
    manual=st.booleans(),
)
def test_rendering_never_fails_on_a_legal_state(options, players, seed, stop, manual):
    rng = random.Random(seed)
    rules = Rules.lenient(**options)
    g = Game(rules, players=players, seed=seed, chance="manual" if manual else "auto")
    play_randomly(g, rng, stop)
    check_svg(g)
    txt = render.text(g, color=True)
    plain = render.text(g)
    rows = {p.y for p in g.board}
    board_lines = [
        line for line in plain.splitlines() if line[:1] in (" ", "-") or line[:1].isdigit()
    ]
    assert len(board_lines) == 1 + 3 * (max(rows) - min(rows) + 1)
    assert "\x1b[" in txt or not g.figures()
    assert render.text(g, ascii=True).isascii()


# -- the terminal view ----------------------------------------------------------------------------


def test_text_view_of_the_small_game_matches_the_golden_text():
    got = render.text(small_game())
    path = GOLDEN / "small_game.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(got, encoding="utf-8")
    assert got == path.read_text(encoding="utf-8")


def test_text_view_ascii_and_colour():
    g = small_game()
    plain = render.text(g, legend=False)
    asc = render.text(g, ascii=True, legend=False)
    assert asc.isascii() and len(asc.splitlines()) == len(plain.splitlines())
    coloured = render.text(g, color=True, legend=False)
    assert "\x1b[7m" in coloured  # the last tile in reverse video
    assert "\x1b[1;34m1" in coloured and "\x1b[1;31m2" in coloured  # blue 1, red 2
    assert "(blue)" in plain and "(blue)" not in render.text(g, scores=False, legend=False)


# -- the commands ---------------------------------------------------------------------------------


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_render_command_writes_svg_for_final_position_and_move_n(tmp_path, capsys):
    out = tmp_path / "board.svg"
    assert run_cli(capsys, "render", str(RECORD), "-o", str(out)) == (0, "", "")
    root = ET.parse(out).getroot()
    assert len(with_class(root, "tile")) == 7 and len(with_class(root, "figure")) == 5
    assert run_cli(capsys, "render", str(RECORD), "-o", str(out), "--move", "0")[0] == 0
    root = ET.parse(out).getroot()
    assert len(with_class(root, "tile")) == 1 and with_class(root, "figure") == []
    code, text, _ = run_cli(capsys, "render", str(RECORD), "--move", "3", "--no-scores")
    root = ET.fromstring(text)
    assert code == 0 and len(with_class(root, "tile")) == 4
    assert with_class(root, "score-panel") == []


def test_render_command_png(tmp_path, capsys):
    out = tmp_path / "board.png"
    assert run_cli(capsys, "render", str(RECORD), "-o", str(out), "--size", "300")[0] == 0
    width, height, _, _ = png_pixels(out.read_bytes())
    assert max(width, height) == 300


def test_png_is_the_picture_decoded(finished_game):
    svg = render.svg(finished_game, size=240)
    width, height, rows, bpp = png_pixels(render.png(svg))
    root = ET.fromstring(svg)
    assert (width, height) == (round(float(root.get("width"))), round(float(root.get("height"))))
    # the top-left corner is the background colour; the board has field green in it
    bg = bytes.fromhex(render.COLOURS["background"][1:])
    assert rows[1][bpp : bpp + 3] == bg
    field = bytes.fromhex(render.COLOURS["field"][1:])
    assert any(row[i : i + 3] == field for row in rows for i in range(0, len(row), bpp))
    w, h, _, _ = png_pixels(render.png(render.tile_svg("CITY3", 90, size=64)))
    assert (w, h) == (64, 64)
    with pytest.raises(ValueError):
        render.png("<svg")


def bad_records(tmp_path: Path) -> list[tuple[str, str]]:
    """(path, expected text in the error line)"""
    rec = json.loads(RECORD.read_text())
    cases = []
    for name, text, why in [
        ("notjson.json", "{not json", "not valid JSON"),
        ("illegal.json", json.dumps({**rec, "moves": ["5,5 0"] + rec["moves"][1:]}), "moves[0]"),
        ("format.json", json.dumps({**rec, "format": "chess"}), "format"),
    ]:
        (tmp_path / name).write_text(text)
        cases.append((str(tmp_path / name), why))
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00")
    cases.append((str(tmp_path / "binary.json"), "UTF-8"))
    cases.append((str(tmp_path / "missing.json"), "No such file"))
    cases.append((str(tmp_path), "cannot read"))
    return cases


@pytest.mark.parametrize("command", ["render", "replay"])
def test_commands_refuse_bad_input_with_one_line(tmp_path, capsys, command):
    for path, why in bad_records(tmp_path):
        code, out, err = run_cli(
            capsys, command, path, *(["-o", str(tmp_path / "o.svg")] if command == "render" else [])
        )
        assert code == 2, (path, err)
        assert err.startswith("carcassonne: error: ") and err.count("\n") == 1, err
        assert why in err, (why, err)
        assert out == ""
    for n in ("7", "-1", "99"):
        code, out, err = run_cli(capsys, command, str(RECORD), "--move", n)
        assert code == 2 and "out of range" in err and err.count("\n") == 1 and out == ""
    assert not (tmp_path / "o.svg").exists()


def test_replay_prints_every_position_when_stdin_is_not_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, _ = run_cli(capsys, "replay", str(RECORD))
    assert code == 0
    heads = [line for line in out.splitlines() if line.startswith("== position")]
    assert heads == [f"== position after move {k} of 6 ==" for k in range(7)]
    assert out.endswith(render.text(small_game(), legend=False))
    # --step without a terminal: the positions one after another, from --move N on
    code, out, _ = run_cli(capsys, "replay", str(RECORD), "--step", "--move", "4")
    heads = [line for line in out.splitlines() if line.startswith("== position")]
    assert code == 0 and heads == [f"== position after move {k} of 6 ==" for k in (4, 5, 6)]
    # --move N alone: that position only; --ascii: no box drawing
    code, out, _ = run_cli(capsys, "replay", str(RECORD), "--move", "2", "--ascii")
    assert code == 0 and out.count("== position") == 1 and out.isascii()
    assert "move 2 - player 1 to place - tile CORNER_SHIELD.garden" in out  # drawn for move 3


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_replay_steps_interactively_on_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", FakeTerminal("\nb\n5\n\n\n"))
    code, out, _ = run_cli(capsys, "replay", str(RECORD), "--step", "--move", "1")
    assert code == 0
    shown = [int(n) for n in re.findall(r"== position after move (\d+) of 6 ==", out)]
    assert shown == [1, 2, 1, 5, 6]  # Enter, back, jump to 5, Enter, Enter at the end quits


def test_commands_run_as_a_program(tmp_path):
    out = tmp_path / "b.svg"
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "carcassonne", "render", str(RECORD), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    ET.parse(out)
    proc = subprocess.run(
        [sys.executable, "-m", "carcassonne", "replay", str(RECORD), "--move", "6"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert render.text(small_game(), legend=False) in proc.stdout
    proc = subprocess.run(
        [sys.executable, "-m", "carcassonne", "render", str(tmp_path / "nope.json")],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


# -- a real browser -------------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def png_pixels(data: bytes) -> tuple[int, int, list[bytes], int]:
    """Decode an 8-bit, non-interlaced RGB(A) PNG: (width, height, rows, bytes per pixel)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, ihdr = 8, b"", b""
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + n]
        if kind == b"IHDR":
            ihdr = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", ihdr)
    assert depth == 8 and ctype in (2, 6) and interlace == 0, (depth, ctype, interlace)
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, rows, bpp


@pytest.mark.skipif(
    CHROMIUM is None,
    reason="no chromium or chromium-browser on PATH (CI installs Debian's chromium)",
)
def test_headless_chromium_screenshots_a_rendered_board(tmp_path):
    g = play_randomly(Game(Rules(), players=3, seed=5), random.Random(5), 25)
    picture = render.svg(g, size=900)
    root = ET.fromstring(picture)
    w, h = round(float(root.get("width"))), round(float(root.get("height")))
    page = tmp_path / "board.svg"
    page.write_text(picture)
    shot = tmp_path / "shot.png"
    proc = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--hide-scrollbars",
            f"--user-data-dir={tmp_path / 'profile'}",
            f"--window-size={w},{h}",
            f"--screenshot={shot}",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert shot.exists() and shot.stat().st_size > 20_000
    width, height, rows, bpp = png_pixels(shot.read_bytes())
    assert (width, height) == (w, h)
    counts: dict[str, int] = {}
    targets = {
        "field": (0x9C, 0xC4, 0x66),
        "city": (0xDC, 0xB5, 0x7A),
        "figure": tuple(int(render.player_colour(0)[i : i + 2], 16) for i in (1, 3, 5)),
    }
    for row in rows[::3]:
        for x in range(0, width * bpp, 3 * bpp):
            px = row[x : x + 3]
            for name, (r, gg, b) in targets.items():
                if abs(px[0] - r) < 14 and abs(px[1] - gg) < 14 and abs(px[2] - b) < 14:
                    counts[name] = counts.get(name, 0) + 1
    sampled = (height // 3 + 1) * (width // 3 + 1)
    assert counts.get("field", 0) > 0.08 * sampled, counts
    assert counts.get("city", 0) > 0.005 * sampled, counts
    assert counts.get("figure", 0) > 20, counts


def test_the_render_package_hands_on_public_names_only():
    """``carcassonne.render`` re-exports its modules' public names; a private helper is imported
    from its own module (as this file does), so it may change without notice."""
    assert [n for n in vars(render) if n.startswith("_") and not n.startswith("__")] == []
