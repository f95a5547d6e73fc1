"""Pictures of a game (carcassonne.render, carcassonne.view): the SVG is well-formed XML with
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

from carcassonne import Catalogue, Game, Rules, render, view
from carcassonne.cli import main

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


def check_svg(game: Game, **kwargs) -> ET.Element:
    """Parse the picture and check the counts and that each figure stands on its tile."""
    root = ET.fromstring(render.svg(game, **kwargs))
    assert root.tag == SVG_NS + "svg"
    tiles = with_class(root, "tile")
    assert len(tiles) == len(game.board)
    figures = with_class(root, "figure")
    assert len(figures) == len(game.figures())
    assert len(with_class(root, "tollhouse")) == len(render.tollhouses(game))
    origin = {(int(t.get("data-x")), int(t.get("data-y"))): translate(t) for t in tiles}
    assert set(origin) == {(p.x, p.y) for p in game.board}
    for el, f in zip(figures, game.figures(), strict=True):
        fx, fy = translate(el)
        ox, oy = origin[(f.x, f.y)]
        assert ox <= fx <= ox + 100 + 25 and oy - 10 <= fy <= oy + 100, (f, fx, fy, ox, oy)
    return root


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
                assert render._inside(a, areas[i]), (tid, i)
            elif seg["kind"] in ("field", "monastery", "garden"):
                assert not any(render._inside(a, poly) for poly in areas.values()), (tid, i)
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
            {"kind": "road", "ports": ["N"], "end": "acrobat", "items": {"tollhouse": 1}},
            {"kind": "city", "ports": ["S"], "arms": 2, "goods": "spice", "tent": True},
            {"kind": "bigtop", "ports": []},
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
        assert {"road end: acrobat", "tollhouse", "goods: spice", "tent: True", "bigtop"} <= titles
        assert {"end: circus"} <= titles
        assert len(with_class(root, "arms")) == 2
        assert len(with_class(root, "provisional")) == 1
        render.tile_cells(tile, rot)
    el = ET.fromstring(render.figure_svg("ringmaster", 7, (10, 10), "a ringmaster"))
    assert classes(el)[:2] == ["figure", "ringmaster"]


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


# -- rendering never fails ------------------------------------------------------------------------

OPTIONS = Rules.options()


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    options=st.fixed_dictionaries({k: st.sampled_from(v) for k, v in OPTIONS.items()}),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    stop=st.integers(0, 120),
    manual=st.booleans(),
)
def test_rendering_never_fails_on_a_legal_state(options, players, seed, stop, manual):
    rng = random.Random(seed)
    g = Game(Rules(**options), players=players, seed=seed, chance="manual" if manual else "auto")
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


def test_render_command_png(tmp_path, capsys, monkeypatch):
    out = tmp_path / "board.png"
    if view.find_png_converter() is not None:
        assert run_cli(capsys, "render", str(RECORD), "-o", str(out), "--size", "300")[0] == 0
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    monkeypatch.setattr(view, "find_png_converter", lambda: None)
    code, _, err = run_cli(capsys, "render", str(RECORD), "-o", str(tmp_path / "x.png"))
    assert code == 2 and err.count("\n") == 1
    assert "cairosvg" in err and "rsvg-convert" in err
    assert not (tmp_path / "x.png").exists()


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
