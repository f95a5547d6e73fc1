"""The page that follows a game at a real table (`carcassonne table`): its API and its guard
through Starlette's test client, the command as a process (Ctrl-C, a kill, --resume), and
whole games played by taps on phone-sized pages in a real headless browser (Debian's chromium
and its driver)."""

from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from carcassonne import Decision, Game, Rules, _core, render
from carcassonne.cli import main
from carcassonne.tiles import find, look

starlette = pytest.importorskip("starlette")
pytest.importorskip("segno")
from starlette.testclient import TestClient  # noqa: E402

from carcassonne.table_page import this_computer, url_host  # noqa: E402
from carcassonne.table_page.app import MAX_BODY, create_app  # noqa: E402
from carcassonne.table_page.guard import Guard  # noqa: E402
from carcassonne.table_page.qr import qr_svg  # noqa: E402
from carcassonne.table_page.suggest import suggester  # noqa: E402
from carcassonne.table_page.table import Table, recolour  # noqa: E402
from carcassonne.table_page.words import move_words  # noqa: E402

EVERY = Rules(
    small_city=True,
    traders_builders="C3.1",
    toll_collectors=True,
    fortune_teller=True,
    big_top=True,
)
# A small bag with a tile of every expansion: a whole game is 20 tiles.
BAG = {
    "RV_STRAIGHT": 1,
    "RV_LAKE": 1,
    "FT04_ROAD_TO_TENT": 1,
    "BT_TOP_RS": 1,
    "BT_ACRO_RS_RW": 1,
    "TB3_13_cNWE_rS_chicken": 1,
    "TK01_VILLAGE_SW": 1,
    "CITY3": 1,
    "ROAD_WE": 2,
    "CAP": 2,
    "MON": 1,
    "CROSS3": 1,
    "CITY3_ROAD": 1,
}
TOKEN = "test-token"
BASE = "http://127.0.0.1:8000"


def scripted_game(seed: int, rules: Rules = EVERY, players: int = 3, bag=BAG) -> list:
    """The steps of a whole game, chosen by the engine's own play: ("draw", tile) or ("play",
    move); a fortune teller goes on the tent as soon as it can, so that hands come."""
    g = Game(rules, players=players, seed=seed, chance="manual", bag=bag)
    rng = random.Random(seed)
    steps = []
    while not g.is_over():
        if g.decision in (Decision.DRAW, Decision.REVEAL):
            drawable = sorted(g.drawable)
            tile = "FT04_ROAD_TO_TENT" if "FT04_ROAD_TO_TENT" in drawable else rng.choice(drawable)
            g.draw(tile)
            steps.append(("draw", tile))
        else:
            moves = [str(m) for m in g.legal_moves]
            move = rng.choice([m for m in moves if "tent" in m] or moves)
            g.play(move)
            steps.append(("play", move))
    return steps


def fresh() -> Game:
    return Game(EVERY, players=3, seed=1, chance="manual", bag=BAG)


def client(game: Game | None = None, save_to: Path | None = None) -> TestClient:
    app = create_app(game or fresh(), token=TOKEN, save_to=save_to)
    return TestClient(app, base_url=BASE, headers={"X-Table-Token": TOKEN})


def post(c: TestClient, path: str, **body) -> object:
    version = c.get("/api/state").json()["version"]
    return c.post(path, json={"version": version, "device": "test", **body})


def test_the_api_plays_undoes_redoes_suggests_saves_and_loads(tmp_path: Path) -> None:
    c = client(save_to=tmp_path / "game.json")
    v = c.get("/api/state").json()
    assert v["decision"] == "draw" and v["player"] == 1 and "RV_STRAIGHT" in v["drawable"]
    assert c.get("/?token=" + TOKEN).status_code == 200
    assert c.get("/static/table.js").status_code == 200
    bad = post(c, "/api/draw", tile="CITY3")  # the river comes first (R3)
    assert bad.status_code == 400 and "river" in bad.json()["error"]
    assert c.get("/api/state").json() == v  # a refusal changes nothing
    v = post(c, "/api/draw", tile="rv_straight").json()
    assert v["decision"] == "place" and v["tile"] == "RV_STRAIGHT" and v["version"] == 1
    assert 'class="open-position"' in v["board"] and 'class="coordinates"' in v["board"]
    assert v["log"][-1]["text"] == "drew RV_STRAIGHT" and v["log"][-1]["device"] == "test"
    assert post(c, "/api/play", move="9,9 0").status_code == 400
    again = post(c, "/api/draw", tile="rv_lake")  # a known id in any case, while a tile waits
    assert again.status_code == 400 and "waiting to be placed" in again.json()["error"]
    s = c.get("/api/suggest").json()
    assert s["move"] in v["legal"] and s["version"] == 1 and "<svg" in s["board"]
    g = fresh()
    g.draw("RV_STRAIGHT")
    # The suggestion is the look-ahead expert's choice (the River is an expansion).
    assert str(_core.Policy("expert:depth=2", 0).choose(g._state)) == s["move"]
    p = c.get("/api/preview", params={"move": s["move"]}).json()
    assert p["move"] == s["move"] and p["words"] == move_words(s["move"])
    assert c.get("/api/state").json()["version"] == 1  # a preview changes nothing
    after = post(c, "/api/play", move=s["move"]).json()
    assert after["player"] == 2 and after["decision"] == "draw"
    saved = json.loads((tmp_path / "game.json").read_text())
    assert saved["moves"] == [s["move"]]  # saved after the step
    undone = post(c, "/api/undo").json()
    assert undone["legal"] == v["legal"] and undone["can_redo"] and undone["redo"] == s["move"]
    assert post(c, "/api/undo").json()["decision"] == "draw"  # then the draw alone
    assert json.loads((tmp_path / "game.json").read_text())["draws"] == []
    post(c, "/api/redo")
    redone = post(c, "/api/redo").json()
    assert redone["board"] == after["board"] and not redone["can_redo"]
    assert post(c, "/api/redo").status_code == 400  # nothing left to do again
    colours = ["red", "blue", "green"]
    named = post(c, "/api/players", names=["Anna", " Ben  B ", ""], colours=colours).json()
    assert [p["label"] for p in named["players"]] == ["Anna", "Ben B", "player 3"]
    assert [p["colour"] for p in named["players"]] == colours
    same = post(c, "/api/players", names=["A", "B", "C"], colours=["red", "red", "blue"])
    assert same.status_code == 400 and "different colours" in same.json()["error"]
    assert named["log"][-1]["name"] == "Anna"
    text = c.get("/api/record").text
    assert json.loads(text)["meta"]["table"] == {"names": ["Anna", "Ben B", ""], "colours": colours}
    other = client(save_to=tmp_path / "b" / "game.json")
    loaded = post(other, "/api/load", record=text).json()
    assert loaded["board"] == redone["board"] and loaded["players"][0]["label"] == "Anna"
    # the loaded game goes to a new file: the one it replaced keeps its game
    assert loaded["saved_to"] != str(tmp_path / "b" / "game.json")
    assert post(other, "/api/load", record='{"format": "chess"}').status_code == 400
    assert post(other, "/api/load", record={"format": "chess"}).status_code == 400
    odd = json.loads(text)
    odd["meta"]["table"]["names"][1] = "\ud800"  # valid JSON, no text: refused on load
    refused = post(other, "/api/load", record=json.dumps(odd))
    assert refused.status_code == 400 and "Unicode" in refused.json()["error"]
    svg = c.get("/tile/CITY3.svg", params={"rotation": "90"})
    assert svg.status_code == 200 and 'data-rotation="90"' in svg.text
    assert c.get("/tile/CITY3.svg", params={"rotation": "45"}).status_code == 400
    assert c.get("/tile/NOPE.svg").status_code == 400
    qr = c.get("/api/qr.svg")
    assert qr.headers["content-type"].startswith("image/svg+xml")
    assert 'xmlns="http://www.w3.org/2000/svg"' in qr.text  # an <img> shows it
    assert qr.text == qr_svg(f"{BASE}/?token={TOKEN}")  # the page's address, with its token


def test_the_terminal_qr_code_sets_its_own_colours() -> None:
    from carcassonne.table_page.qr import LIGHT_ON_DARK, RESET, qr_text

    plain = qr_text("http://127.0.0.1:8000/?token=x")
    coloured = qr_text("http://127.0.0.1:8000/?token=x", colour=True)
    # Light modules are full blocks in the foreground colour, dark ones blanks: on a light
    # terminal's own colours the code would be inverted, so each line sets white on black.
    assert "\u2588" in plain and "\x1b" not in plain
    lines = coloured.splitlines()
    assert all(line.startswith(LIGHT_ON_DARK) and line.endswith(RESET) for line in lines)
    assert coloured.replace(LIGHT_ON_DARK, "").replace(RESET, "") == plain


def test_figures_take_the_colour_of_the_real_meeples() -> None:
    g = Game(Rules.base(), players=2, seed=2)
    while len(g.figures()) < 4:
        g.play(next((m for m in g.legal_moves if m.segment), g.legal_moves[0]))
    board = render.svg(g)
    swapped = recolour(board, ["black", "blue"])
    assert recolour(board, ["blue", "red"]) == board
    for seat, (was, now) in enumerate((("#2f63d8", "#262626"), ("#d7322b", "#2f63d8"))):
        figures = re.findall(rf'class="figure [^"]*player-{seat}".*?<title>', swapped, re.S)
        assert figures and all(f'fill="{now}"' in f and f'fill="{was}"' not in f for f in figures)


def play_out(seed: int, until) -> Table:
    """A Traders & Builders game through a table, builders first, until ``until(table)``."""
    g = Game(Rules(traders_builders="C3.1", river=False), players=2, seed=seed, chance="manual")
    t, rng = Table(g), random.Random(seed)
    while not g.is_over() and not until(t):
        if g.decision.is_chance:
            t.draw(rng.choice(sorted(g.drawable)), "test")
        else:
            ms = g.legal_moves
            builder = [m for m in ms if "+builder" in str(m)]
            t.play(str(rng.choice(builder or [m for m in ms if m.segment] or ms)), "test")
    return t


def test_what_to_do_at_the_table_follows_each_step() -> None:
    t = play_out(0, lambda t: t.game.double_turn == "second part")
    assert t.log()[-1]["todo"] == ["player 1 takes another turn (the builder)"]
    t = play_out(7, lambda t: any(any(t.game.goods(p).values()) for p in (0, 1)))
    assert not t.game.is_over()
    given = [x for x in t.log()[-1]["todo"] if x.startswith("hand player")]
    goods = {p: {k: n for k, n in t.game.goods(p).items() if n} for p in (0, 1)}
    assert given == [
        f"hand player {p + 1} goods tokens: " + ", ".join(f"{n} {k}" for k, n in g.items())
        for p, g in goods.items()
        if g
    ]
    assert t.log()[-1]["points"] and "moves the score marker" in " ".join(t.log()[-1]["todo"])


def test_undo_and_redo_have_no_limit() -> None:
    steps = scripted_game(3)
    c = client()
    for kind, value in steps:
        post(c, f"/api/{kind}", **({"tile": value} if kind == "draw" else {"move": value}))
    end = c.get("/api/state").json()
    assert end["decision"] == "over" and end["end"]["rows"][0]["total"] == end["scores"][0]
    assert all("completed cit" in f for f in end["end"]["fields"])
    for _ in steps:
        assert post(c, "/api/undo").status_code == 200
    assert post(c, "/api/undo").status_code == 400
    for _ in steps:
        assert post(c, "/api/redo").status_code == 200
    assert c.get("/api/state").json()["board"] == end["board"]


def test_a_seed_is_kept_exact_in_the_record() -> None:
    seed = 2**63 - 27  # a double would round it
    c = client(Game(Rules(), players=2, seed=seed, chance="manual"))
    text = c.get("/api/record").text
    assert f'"seed": {seed}' in text
    other = client()
    assert post(other, "/api/load", record=text).status_code == 200
    assert f'"seed": {seed}' in other.get("/api/record").text


# -- the guard --------------------------------------------------------------------------------


def test_only_the_user_is_obeyed() -> None:
    game = fresh()
    c = TestClient(create_app(game, token=TOKEN), base_url=BASE)
    h = {"X-Table-Token": TOKEN}
    body = json.dumps({"tile": "RV_STRAIGHT", "version": 0})
    assert c.get("/api/state").status_code == 403  # no token
    assert c.get("/api/state", headers={"X-Table-Token": "guess"}).status_code == 403
    assert c.get("/").status_code == 403
    assert c.get("/?token=" + TOKEN).status_code == 200
    assert c.get("/api/state?token=" + TOKEN).status_code == 200
    refused = [
        # a cross-site form or no-cors fetch: not JSON
        c.post("/api/draw", content=body, headers={**h, "Content-Type": "text/plain"}),
        c.post("/api/draw", data={"tile": "RV_STRAIGHT"}, headers=h),
        # another site's page, even with JSON and the token
        c.post(
            "/api/draw",
            content=body,
            headers={**h, "Content-Type": "application/json", "Origin": "http://evil.example"},
        ),
        c.post(
            "/api/draw",
            content=body,
            headers={**h, "Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"},
        ),
        # DNS rebinding: a name that is not this server's
        c.post(
            "/api/draw",
            content=body,
            headers={**h, "Content-Type": "application/json", "Host": "evil.example:8000"},
        ),
        c.get("/api/record", headers={**h, "Host": "evil.example:8000"}),
    ]
    assert [r.status_code for r in refused] == [415, 415, 403, 403, 403, 403]
    assert all("refused" in r.json()["error"] for r in refused)
    assert game.record()["draws"] == []
    ok = c.post(
        "/api/draw", content=body, headers={**h, "Content-Type": "application/json", "Origin": BASE}
    )
    assert ok.status_code == 200 and ok.headers["x-frame-options"] == "DENY"
    assert ok.headers["referrer-policy"] == "no-referrer"
    assert ok.headers["x-content-type-options"] == "nosniff"
    # only the page's own files: an inline or injected script does not run
    policy = dict(d.strip().split(" ", 1) for d in ok.headers["content-security-policy"].split(";"))
    assert policy["default-src"] == "'self'" and "script-src" not in policy
    assert policy["frame-ancestors"] == "'none'"
    for host in ("localhost:8000", "[::1]:8000", "192.168.1.20:8000"):
        assert c.get("/api/state", headers={**h, "Host": host}).status_code == 200


def test_no_websocket_is_let_past_the_guard() -> None:
    from starlette.websockets import WebSocket, WebSocketDisconnect

    async def accepting(scope, receive, send) -> None:  # an app that would take one
        if scope["type"] == "websocket":
            await WebSocket(scope, receive, send).accept()

    c = TestClient(Guard(accepting, TOKEN, "127.0.0.1"), base_url=BASE)
    with (
        pytest.raises(WebSocketDisconnect),
        c.websocket_connect(f"/api/state?token={TOKEN}", headers={"Origin": BASE}),
    ):
        pass


def test_a_bug_is_one_line_and_a_json_500(capsys) -> None:
    app = create_app(fresh(), token=TOKEN)
    c = TestClient(app, base_url=BASE, raise_server_exceptions=False)

    def broken() -> dict:
        raise KeyError("nope")

    app.table.view = broken
    r = c.get("/api/state", headers={"X-Table-Token": TOKEN})
    assert r.status_code == 500 and "KeyError" in r.json()["error"]
    err = capsys.readouterr().err
    assert err.startswith("carcassonne table: internal error: KeyError") and err.count("\n") == 1


def test_a_stale_change_is_refused() -> None:
    c = client()
    assert post(c, "/api/draw", tile="RV_STRAIGHT").status_code == 200
    late = c.post("/api/draw", json={"tile": "RV_LAKE", "version": 0})  # made for version 0
    assert late.status_code == 409 and "another device" in late.json()["error"]
    assert c.post("/api/undo", json={}).status_code == 400  # no version named
    assert c.get("/api/state").json()["version"] == 1


def test_a_step_that_cannot_be_saved_is_not_made(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    c = client(save_to=save)
    assert post(c, "/api/draw", tile="RV_STRAIGHT").status_code == 200
    before = c.get("/api/state").json()
    part = tmp_path / "game.json.part"
    part.mkdir()  # the next save cannot be written (as on a full or read-only disk)
    for path, body in (
        ("/api/play", {"move": before["legal"][0]}),
        ("/api/undo", {}),
        ("/api/players", {"names": ["Anna", "Ben", "Chloé"]}),
    ):
        r = post(c, path, **body)
        assert r.status_code == 500, (path, r.text)
        assert r.json()["error"].startswith("the step is not made: cannot save the game to ")
        assert c.get("/api/state").json() == before  # the page, the file and the game agree
    assert json.loads(save.read_text())["draws"] == ["RV_STRAIGHT"]
    part.rmdir()
    assert post(c, "/api/undo").status_code == 200  # saved again: steps go on
    assert json.loads(save.read_text())["draws"] == []


def test_each_save_is_on_the_disk_before_it_replaces_the_last(tmp_path: Path, monkeypatch) -> None:
    save = tmp_path / "game.json"
    c = client(save_to=save)
    assert post(c, "/api/draw", tile="RV_STRAIGHT").status_code == 200
    last = save.read_text()
    synced = []
    sync = os.fsync

    def fsync(fd: int) -> None:
        synced.append((os.fstat(fd).st_size, save.read_text()))
        sync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    assert post(c, "/api/undo").status_code == 200
    # the new record was written out in full while the file still held the last one
    assert synced == [(len(save.read_bytes()), last)] and save.read_text() != last


def test_bad_bodies_are_a_json_400() -> None:
    c = client()
    h = {"Content-Type": "application/json"}
    cases = {
        "[" * 100_000 + "]" * 100_000: "deeper",
        '{"a":' * 30 + "1" + "}" * 30: "deeper",
        b'{"tile": "\xff"}': "UTF-8",
        '{"tile": "RV_STRAIGHT", "version": 0, "device": "\\ud800"}': "Unicode",
        "{nope": "not JSON",
        "[1]": "JSON object",
    }
    for body, words in cases.items():
        r = c.post("/api/draw", content=body, headers=h)
        assert r.status_code == 400 and words in r.json()["error"], (body[:20], r.text)
    big = c.post("/api/load", content=b"x" * (MAX_BODY + 1), headers=h)
    assert big.status_code == 413

    def chunks() -> Iterator[bytes]:  # no Content-Length: cut off as it streams
        for _ in range(MAX_BODY // 65536 + 2):
            yield b" " * 65536

    assert c.post("/api/load", content=chunks(), headers=h).status_code == 413
    assert c.get("/api/state").json()["version"] == 0


def test_the_finder_narrows_by_printed_features() -> None:
    c = client(Game(Rules(traders_builders="C3.1"), players=2, seed=1, chance="manual"))
    everything = c.get("/api/tiles").json()
    assert everything["drawable"] == len(everything["tiles"]) > 10
    cities = c.get("/api/tiles", params={"edges": "CC??"}).json()["tiles"]
    assert cities and all(t["id"] in find(edges="CC??") for t in cities)
    assert all("city on" in t["words"] for t in cities)
    assert c.get("/api/tiles", params={"edges": "CX??"}).status_code == 400
    four, three = find(edges="CCCC"), find(edges="CC?C")
    assert four and set(four) < set(three) and "CITY3" in three and "CITY2_WE" not in three


# -- the command ------------------------------------------------------------------------------


def test_the_command_refuses_bad_options_in_one_line(capsys, tmp_path) -> None:
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    port = busy.getsockname()[1]
    save = ["--save", str(tmp_path / "g.json")]
    old = tmp_path / "old.json"
    old.write_text(Game(Rules(), players=2, seed=1, chance="manual").to_json())
    kept = old.read_text()
    try:
        assert main(["table", "--players", "7"]) == 2
        assert main(["table", "-o", "big_top=maybe"]) == 2
        assert main(["table", "--record", str(tmp_path / "none.json")]) == 2
        assert main(["table", "--record", "/dev/zero"]) == 2
        assert main(["table", "--port", "0"]) == 2
        assert main(["table", "--port", str(port), *save]) == 2
        assert main(["table", "--resume", str(tmp_path / "none.json")]) == 2
        # a new game never overwrites a saved one (the same command run again, say); going
        # on with the game in the file saves to it (here the port is busy)
        for args in (["--save", old], ["--record", old, "--save", old], ["--resume", old]):
            assert main(["table", *map(str, args), "--port", str(port)]) == 2
    finally:
        busy.close()
    assert old.read_text() == kept
    out, err = capsys.readouterr()
    assert out == ""  # nothing printed before a refusal: no address that does not answer
    lines = err.splitlines()
    assert len(lines) == 10 and all(line.startswith("carcassonne: error:") for line in lines)
    assert "cannot listen" in lines[5] and "cannot listen" in lines[9]
    assert all(f"--save {old}: the file exists: --resume {old} goes on" in x for x in lines[7:9])
    assert url_host("::") == "[::]" and url_host("127.0.0.1") == "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def command(*args: str, env: dict | None = None) -> Iterator[tuple[subprocess.Popen, str]]:
    """`carcassonne table ARGS` as a process, and the address it printed."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "carcassonne", "table", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=None if env is None else {**os.environ, **env},
    )
    try:
        line = proc.stdout.readline()
        assert line.startswith("carcassonne table: open http://"), line + proc.stderr.read()
        yield proc, line.split("open ", 1)[1].strip()
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
        proc.stdout.close()
        proc.stderr.close()


def api(address: str, path: str, body: dict | None = None) -> dict:
    base, token = address.split("/?token=")
    req = urllib.request.Request(base + path, headers={"X-Table-Token": token})
    if body is not None:
        req.data = json.dumps(body).encode()
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


def wait_up(address: str) -> None:
    for _ in range(200):
        try:
            api(address, "/api/state")
            return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.05)
    raise AssertionError("the page never answered")


def test_a_killed_server_loses_nothing_and_ctrl_c_saves(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    port = str(free_port())
    with command("--save", str(save), "--port", port, "-o", "river=off") as (proc, address):
        wait_up(address)
        v = api(address, "/api/state")
        tile = sorted(v["drawable"])[0]
        v = api(address, "/api/draw", {"tile": tile, "version": v["version"]})
        v = api(address, "/api/play", {"move": v["legal"][0], "version": v["version"]})
        proc.kill()  # no goodbye: what was saved after each step is all there is
    with command("--resume", str(save), "--port", port) as (proc, address):
        wait_up(address)
        back = api(address, "/api/state")
        assert back["board"] == v["board"] and back["log"][-1]["text"] == v["log"][-1]["text"]
        back = api(address, "/api/draw", {"tile": sorted(back["drawable"])[0], "version": 0})
        host, port_text = address.split("//")[1].split("/")[0].rsplit(":", 1)
        token = address.split("token=")[1]
        for request in (  # a phone that goes away halfway through: no news on the terminal
            f"POST /api/undo HTTP/1.1\r\nHost: {host}\r\nX-Table-Token: {token}\r\n"
            'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"ver',
            f"GET /api/events?token={token} HTTP/1.1\r\nHost: {host}\r\n\r\n",
        ):
            with socket.create_connection((host, int(port_text))) as s:
                s.sendall(request.encode())
                time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 130
        rest, err = proc.communicate()
        assert "saved" in rest and "Traceback" not in err and err == ""
    assert len(json.loads(save.read_text())["draws"]) == 2


def test_resume_goes_on_with_the_game_saved_last(tmp_path: Path) -> None:
    env = {"XDG_STATE_HOME": str(tmp_path)}
    port = str(free_port())
    with command("--port", port, "-p", "3", env=env) as (proc, address):
        wait_up(address)
        v = api(address, "/api/state")
        drawn = api(address, "/api/draw", {"tile": sorted(v["drawable"])[0], "version": 0})
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 130
    saved = list((tmp_path / "carcassonne" / "table").glob("table-*.json"))
    assert len(saved) == 1 and drawn["saved_to"] == str(saved[0])
    with command("--resume", "--port", port, env=env) as (proc, address):
        wait_up(address)
        back = api(address, "/api/state")
        assert back["board"] == drawn["board"] and len(back["players"]) == 3
        assert back["saved_to"] == str(saved[0])


def test_every_network_interface_is_a_warned_mode(tmp_path: Path) -> None:
    with command(
        "--save", str(tmp_path / "g.json"), "--port", str(free_port()), "--host", "0.0.0.0"
    ) as (proc, address):
        warning = [proc.stdout.readline() for _ in range(2)][1]
        assert warning.startswith("warning: listening on every network interface")
        assert "0.0.0.0" not in address and "token=" in address
        wait_up(address)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 130


def test_an_address_other_computers_reach_is_warned_and_loopback_says_how_phones_join(
    tmp_path: Path,
) -> None:
    lan = this_computer()
    hosts = ["127.0.0.1", "::1"] + ([lan] if not ipaddress.ip_address(lan).is_loopback else [])
    for host in hosts:
        save = ["--save", str(tmp_path / f"{host}.json"), "--port", str(free_port())]
        with command(*save, "--host", host) as (proc, address):
            saving, then = proc.stdout.readline(), proc.stdout.readline()
            assert saving.startswith("saving every step")
            warned = then.startswith(f"warning: listening on {host}: anyone on this network")
            assert warned == (host == lan), (host, then)
            # a phone that scans a loopback address reaches itself: the way to let phones in
            noted = then.startswith("note: only this computer opens this address; for phones")
            assert noted == (host != lan) and ("--host 0.0.0.0" in then) == noted
            wait_up(address)
            proc.send_signal(signal.SIGINT)
            assert proc.wait(timeout=30) == 130


# -- a real browser ---------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
needs_browser = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="no chromium and chromedriver on PATH (CI installs Debian's chromium, chromium-driver)",
)
PHONE = (412, 860)


@contextlib.contextmanager
def served(app) -> Iterator[str]:
    uvicorn = pytest.importorskip("uvicorn")
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            app, host="127.0.0.1", port=port, log_level="critical", timeout_graceful_shutdown=1
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextlib.contextmanager
def browser(tmp_path: Path, name: str, size: tuple[int, int] = PHONE):
    webdriver = pytest.importorskip("selenium.webdriver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        f"--window-size={size[0]},{size[1]}",
    ):
        options.add_argument(arg)
    options.add_argument(f"--user-data-dir={tmp_path / name}")
    if size[0] < 600:  # a phone: its width, touch and user agent
        metrics = {"width": size[0], "height": size[1], "pixelRatio": 1.0}
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": metrics})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(DRIVER))
    try:
        yield driver
        # the page works within its Content-Security-Policy: nothing of it was blocked
        blocked = [
            e["message"] for e in driver.get_log("browser") if "Security Policy" in e["message"]
        ]
        assert not blocked, blocked
    finally:
        driver.quit()


class Page:
    """One open page and the taps a person makes on it."""

    def __init__(self, driver, address: str, name: str = "phone") -> None:
        from selenium.webdriver.support.ui import WebDriverWait

        self.d = driver
        self.name = name
        self.wait = WebDriverWait(driver, 30)
        driver.get(address)
        self.wait.until(lambda d: self.shown() >= 1)
        driver.execute_script("document.getElementById('device').value = arguments[0]", name)

    def css(self, sel: str):
        from selenium.webdriver.common.by import By

        return self.d.find_element(By.CSS_SELECTOR, sel)

    def all(self, sel: str):
        from selenium.webdriver.common.by import By

        return self.d.find_elements(By.CSS_SELECTOR, sel)

    def shown(self) -> int:
        return int(self.d.execute_script("return +document.body.dataset.shown || 0"))

    def version(self) -> int:
        return int(self.d.execute_script("return view ? view.version : -1"))

    def tap(self, sel: str, then: bool = True) -> None:
        before = self.version()
        el = self.css(sel)
        self.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
        self.d.execute_script(
            "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", el
        )
        if then:
            self.wait.until(lambda d: self.version() > before)

    def find_tile(self, tile: str, catalogue) -> None:
        """Narrow the picker by what is printed on ``tile`` until it shows, then tap it."""
        t = look(catalogue.tile(tile))
        self.tap("#f-clear", then=False)
        for i, letter in enumerate(t.edges):
            for _ in range("CRFI".index(letter) + 1):
                self.tap(f'#edges button[data-edge="{i}"]', then=False)
        from selenium.webdriver.support.ui import Select

        self.wait.until(lambda d: self.all(f'#f-set option[value="{t.set}"]'))
        Select(self.css("#f-set")).select_by_value(t.set)
        Select(self.css("#f-arms")).select_by_value(str(t.arms)) if t.arms <= 2 else None
        Select(self.css("#f-goods")).select_by_value(t.goods[0] if t.goods else "")
        if len(t.illustrations) <= 1:
            Select(self.css("#f-illustrations")).select_by_value(
                t.illustrations[0] if t.illustrations else ""
            )
        sel = f'#choices .draw-tile[data-tile="{tile}"]'
        self.wait.until(lambda d: self.all(sel) and len(self.all("#choices .draw-tile")) <= 4)
        self.tap(sel)

    def play(self, move: str) -> None:
        decision = self.css("#status").get_attribute("data-decision")
        if decision != "place":
            self.tap(f'#choices .move-choice[data-move="{move}"]')
            return
        spot, rotation = move.split()[:2]
        x, y = spot.split(",")
        g = f'#board .open-position[data-x="{x}"][data-y="{y}"]'
        self.tap(g, then=False)
        for _ in range(4):  # tap the spot again until the tile lies that way
            if self.css(g).get_attribute("data-rotation") == rotation:
                break
            self.tap(g, then=False)
        self.tap(f'#figures .move-choice[data-move="{move}"]', then=False)
        self.tap("#place")


@needs_browser
def test_a_two_player_game_on_two_phones_in_sync(tmp_path: Path) -> None:
    rules = Rules(traders_builders="C3.1", big_top=True)
    bag = {
        "RV_STRAIGHT": 1,
        "RV_LAKE": 1,
        "CITY3": 1,
        "ROAD_WE": 2,
        "CAP": 2,
        "MON": 1,
        "CROSS3": 1,
        "CITY3_ROAD": 1,
        "TB3_13_cNWE_rS_chicken": 1,
        "BT_TOP_RS": 1,
        "TB3_03_cWE_cS_cloth": 1,
        "ROAD_CURVE_SW.garden": 1,
    }
    game = Game(rules, players=2, seed=5, chance="manual", bag=bag)
    steps = scripted_game(5, rules, 2, bag)
    app = create_app(game, token=TOKEN, save_to=tmp_path / "game.json")
    with served(app) as base, browser(tmp_path, "a") as da, browser(tmp_path, "b") as db:
        a = Page(da, f"{base}/?token={TOKEN}", "Anna's phone")
        b = Page(db, f"{base}/?token={TOKEN}", "Ben's phone")
        board_width = da.execute_script("return document.getElementById('board-view').clientWidth")
        assert board_width >= PHONE[0] - 20  # the board fills a phone's width
        found = 0
        for i, (kind, value) in enumerate(steps):
            page, other = (a, b) if i % 4 < 2 else (b, a)  # the phones take turns
            if kind == "draw" and ":" not in value:
                page.find_tile(value, game.catalogue)
                found += 1
            elif kind == "draw":
                page.tap(f'#choices .draw-tile[data-tile="{value}"]')
            else:
                page.play(value)
            version = page.version()
            other.wait.until(lambda d, o=other, v=version: o.version() == v)  # followed live
            assert other.css("#news").text.startswith(page.name + ": ")  # who changed what
        assert found >= 12  # every tile found by its printed features
        for page in (a, b):
            assert page.css("#status").get_attribute("data-decision") == "over"
            assert not page.css("#end").get_attribute("hidden")
        scores = [int(li.get_attribute("data-points")) for li in b.all("#scores .score")]
    engine = Game(rules, players=2, seed=5, chance="manual", bag=bag)
    for kind, value in steps:
        engine.draw(value) if kind == "draw" else engine.play(value)
    assert scores == engine.scores and game.fingerprint() != "" and app.table.game.is_over()
    assert Game.from_record((tmp_path / "game.json").read_text()).scores == engine.scores


@needs_browser
def test_a_stale_tap_and_another_site_change_nothing(tmp_path: Path) -> None:
    app = create_app(fresh(), token=TOKEN)
    with served(app) as base, browser(tmp_path, "a") as da:
        # the page hears no news (its event stream blocked), as a phone on a slow network
        da.execute_cdp_cmd("Network.enable", {})
        da.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/events*"]})
        page = Page(da, f"{base}/?token={TOKEN}")
        offered = '#choices .draw-tile[data-tile="RV_STRAIGHT"]'
        page.wait.until(lambda d: page.all(offered))
        api(f"{base}/?token={TOKEN}", "/api/draw", {"tile": "RV_STRAIGHT", "version": 0})
        page.tap(offered, then=False)  # the tile another device entered already
        page.wait.until(lambda d: "another device" in page.css("#error").text)
        page.wait.until(lambda d: page.version() == 1)  # and it looks again
        assert app.table.game.record()["draws"] == ["RV_STRAIGHT"]
        # another web site the user visits: a form, a no-cors fetch, a JSON fetch
        da.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        from starlette.applications import Starlette
        from starlette.responses import HTMLResponse
        from starlette.routing import Route

        site = Starlette(routes=[Route("/", lambda r: HTMLResponse("<p>another site</p>"))])
        with served(site) as evil:  # another site's server
            da.get(evil)
            before = app.refused
            da.execute_script(
                """
                const target = arguments[0];
                const f = document.createElement('form');
                f.method = 'POST'; f.action = target + '/api/undo'; f.enctype = 'text/plain';
                const i = document.createElement('input');
                i.name = '{"version":1,"x":"'; i.value = '"}';
                f.append(i); document.body.append(f);
                setTimeout(() => f.submit(), 500);
                fetch(target + '/api/undo?token=test-token', {method: 'POST', mode: 'no-cors',
                  headers: {'Content-Type': 'text/plain'}, body: '{"version": 1}'});
                fetch(target + '/api/undo', {method: 'POST', headers: {'Content-Type':
                  'application/json', 'X-Table-Token': 'test-token'}, body: '{"version": 1}'})
                  .catch(() => {});
                """,
                base,
            )
            page.wait.until(lambda d: app.refused >= before + 3)  # each one reached us, refused
        assert app.table.game.record()["draws"] == ["RV_STRAIGHT"]  # nothing undone
        assert app.table.version == 1


@needs_browser
def test_a_double_tap_is_one_step(tmp_path: Path) -> None:
    app = create_app(fresh(), token=TOKEN)
    with served(app) as base, browser(tmp_path, "a") as d:
        page = Page(d, f"{base}/?token={TOKEN}")
        offered = '#choices .draw-tile[data-tile="RV_STRAIGHT"]'
        page.wait.until(lambda d: page.all(offered))
        sent = d.execute_script(
            """
            let posts = 0;
            const send = window.fetch;
            window.fetch = (url, init) => {
              if (init?.method === "POST") posts++;
              return send(url, init);
            };
            const tile = document.querySelector(arguments[0]);
            tile.click(); tile.click();  // before the first tap's answer
            return posts;
            """,
            offered,
        )
        page.wait.until(lambda d: page.version() == 1)
        assert sent == 1 and page.css("#error").text == ""  # not "changed on another device"
    assert app.table.game.record()["draws"] == ["RV_STRAIGHT"]


CONTRAST = """
const lum = (c) => {
  const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map((v) => {
    v = v / 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const back = (e) => {
  for (; e; e = e.parentElement) {
    const c = getComputedStyle(e).backgroundColor;
    if (!c.startsWith("rgba(0, 0, 0, 0)") && !c.endsWith(", 0)")) return c;
  }
  return "rgb(255, 255, 255)";
};
return [...document.querySelectorAll(arguments[0])].filter((e) => e.offsetParent).map((e) => {
  const [a, b] = [lum(getComputedStyle(e).color), lum(back(e))];
  return [e.id || e.className || e.tagName, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
});
"""


@needs_browser
def test_the_page_is_reached_by_keyboard_and_zoomed_by_fingers(tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    app = create_app(fresh(), token=TOKEN)
    with served(app) as base, browser(tmp_path, "a") as d:
        page = Page(d, f"{base}/?token={TOKEN}")
        page.tap('#choices .draw-tile[data-tile="RV_STRAIGHT"]')
        for _ in range(30):  # Tab through the page until a spot of the board has the focus
            d.switch_to.active_element.send_keys(Keys.TAB)
            if "open-position" in (d.switch_to.active_element.get_attribute("class") or ""):
                break
        spot = d.switch_to.active_element
        assert "open-position" in spot.get_attribute("class")
        spot.send_keys(Keys.ENTER)
        page.wait.until(lambda d: page.css("#placing").is_displayed())
        assert page.all("#figures .move-choice")
        ratios = d.execute_script(CONTRAST, "#status, button, #step-title, .score, #todo li, label")
        assert ratios and min(r for _, r in ratios) >= 4.5, ratios  # WCAG AA for text
        scale = "return +getComputedStyle(document.getElementById('board')).transform.split(',')[3]"
        before = d.execute_script(scale)
        box = d.execute_script(
            "const r = document.getElementById('board-view').getBoundingClientRect();"
            "return [r.left + r.width / 2, r.top + r.height / 2]"
        )

        def touch(kind: str, spread: float) -> None:
            points = [
                {"x": box[0] - spread, "y": box[1], "id": 1},
                {"x": box[0] + spread, "y": box[1], "id": 2},
            ]
            d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        touch("touchStart", 20)
        for spread in (30, 45, 60, 80):  # two fingers move apart: the board grows
            touch("touchMove", spread)
        d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        assert d.execute_script(scale) > before * 1.5


NARROW = (360, 740)  # a small phone
# The page's width, how far the sheet scrolls sideways, and the controls smaller than a finger.
FIT = """
const sheet = document.getElementById("sheet");
const small = [...document.querySelectorAll("button, select, input")]
  .filter((e) => e.getClientRects().length)
  .map((e) => [e.id || e.className || e.tagName, e.getBoundingClientRect()])
  .filter(([, r]) => r.width < 44 || r.height < 44)
  .map(([name, r]) => `${name} ${r.width}x${r.height}`);
return [document.documentElement.scrollWidth, sheet.scrollWidth - sheet.clientWidth, small];
"""


@needs_browser
def test_a_small_phone_never_scrolls_sideways_and_every_control_takes_a_finger(
    tmp_path: Path,
) -> None:
    names = ["Anna-Katharina Wolkenstein", "Bartholomew", "Chloé", "Dominique", "Eleanor", "Fred"]
    rules = Rules(traders_builders="C3.1", river=False)
    placing = Game(rules, players=6, seed=3, chance="manual")
    placing.meta["table"] = {"names": names}
    placing.draw(max(sorted(placing.drawable), key=len))  # the longest tile id in the page
    over = placing.copy()
    rng = random.Random(3)
    while not over.is_over():
        if over.decision.is_chance:
            over.draw(rng.choice(sorted(over.drawable)))
        else:
            over.play(rng.choice(over.legal_moves))
    fits = [NARROW[0], 0, []]
    with served(create_app(placing, token=TOKEN)) as base, browser(tmp_path, "a", NARROW) as d:
        page = Page(d, f"{base}/?token={TOKEN}")
        assert d.execute_script(FIT) == fits
        page.tap("#board .open-position", then=False)  # the figures to choose from
        page.wait.until(lambda d: page.all("#figures .move-choice"))
        assert d.execute_script(FIT) == fits
        page.tap("#menu-button", then=False)  # players' names and colours, load, QR code
        assert d.execute_script(FIT) == fits
        page.tap("#menu-close", then=False)
        api(f"{base}/?token={TOKEN}", "/api/undo", {"version": 0})  # the tile finder
        page.wait.until(lambda d: page.version() == 1 and page.all("#choices .draw-tile"))
        assert d.execute_script(FIT) == fits
    with served(create_app(over, token=TOKEN)) as base, browser(tmp_path, "b", NARROW) as d:
        page = Page(d, f"{base}/?token={TOKEN}")
        assert page.css("#end table").size["width"] > NARROW[0]  # six players' columns...
        assert d.execute_script(FIT) == fits  # ...scroll in their own box


# What lies under a phone's notch, round corners or home bar (the safe area's insets).
UNSAFE = """
const [top, right, , left] = arguments[0];
const shown = "#bar p, #bar button, #zoom button, #sheet section, #menu > *";
return [...document.querySelectorAll(shown)]
  .filter((e) => e.getClientRects().length)
  .filter((e) => {
    const b = e.getBoundingClientRect();
    return b.left < left || b.right > innerWidth - right || b.top < top;
  })
  .map((e) => e.id || e.tagName);
"""


@needs_browser
def test_only_the_board_lies_under_a_phones_notch(tmp_path: Path) -> None:
    with served(create_app(fresh(), token=TOKEN)) as base:
        for size, insets in (((740, 360), (0, 44, 21, 44)), ((360, 740), (47, 0, 34, 0))):
            with browser(tmp_path, f"notch{size[0]}", size) as d:
                edges = dict(zip(("top", "right", "bottom", "left"), insets, strict=True))
                d.execute_cdp_cmd("Emulation.setSafeAreaInsetsOverride", {"insets": edges})
                page = Page(d, f"{base}/?token={TOKEN}")
                assert d.execute_script(UNSAFE, insets) == [], size
                page.tap("#menu-button", then=False)
                assert d.execute_script(UNSAFE, insets) == [], size


def test_the_screenshot_script_is_the_one_the_docs_name() -> None:
    script = Path(__file__).resolve().parent.parent / "scripts" / "table-screenshots"
    assert script.is_file() and os.access(script, os.X_OK)
    doc = (script.parent.parent / "docs" / "table.md").read_text()
    for name in (
        "table-phone.png",
        "table-phone-draw.png",
        "table-desktop.png",
        "table-desktop-end.png",
    ):
        assert name in doc and (script.parent.parent / "docs" / name).is_file()


def test_the_suggestion_is_the_strongest_player_for_the_rules_legal_and_repeatable() -> None:
    """The base game's suggestion is the heuristic's rollouts' choice (they beat the one-ply
    heuristic, which beats the expert there); with expansions it is the look-ahead expert's
    (the ladder in BENCHMARKS.md). Asked again, the same move."""
    base = Rules(river=False, abbot=False)
    for rules, expected in ((base, "heuristic:rollouts=16:top=4"), (EVERY, "expert:depth=2")):
        game = Game(rules, players=2, seed=4, chance="manual")
        assert suggester(game) == expected
        for _ in range(2):
            assert game.decision == Decision.DRAW
            game.draw(sorted(game.drawable)[-1])
            c = client(game.copy())
            s = c.get("/api/suggest").json()
            assert s["move"] in [str(m) for m in game.legal_moves]
            assert c.get("/api/suggest").json()["move"] == s["move"]  # repeatable
            assert str(_core.Policy(expected, 0).choose(game._state)) == s["move"]
            game.play(s["move"])
