"""The page that follows a game at a real table (`carcassonne table`): its API through
Starlette's test client, and a scripted game with every expansion played by clicks in a real
headless browser (Debian's chromium and its driver) whose final scores equal the engine's."""

from __future__ import annotations

import json
import random
import shutil
import socket
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from carcassonne import Decision, Game, Rules
from carcassonne.cli import main

starlette = pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from carcassonne.table_page.app import create_app  # noqa: E402

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


def scripted_game(seed: int) -> list[tuple[str, str]]:
    """The steps of a whole game, chosen by the engine's own play: ("draw", tile) or ("play",
    move); a fortune teller goes on the tent as soon as it can, so that hands come."""
    g = Game(EVERY, players=3, seed=seed, chance="manual", bag=BAG)
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


def test_the_api_plays_undoes_suggests_saves_and_loads() -> None:
    c = TestClient(create_app(fresh()))
    v = c.get("/api/state").json()
    assert v["decision"] == "draw" and v["player"] == 1 and "RV_STRAIGHT" in v["drawable"]
    assert c.get("/").status_code == 200 and c.get("/static/table.js").status_code == 200
    bad = c.post("/api/draw", json={"tile": "CITY3"})  # the river comes first (R3)
    assert bad.status_code == 400 and "river" in bad.json()["error"]
    assert c.get("/api/state").json() == v  # a refusal changes nothing
    v = c.post("/api/draw", json={"tile": "rv_straight"}).json()
    assert v["decision"] == "place" and v["tile"] == "RV_STRAIGHT"
    assert 'class="open-position"' in v["board"] and 'class="coordinates"' in v["board"]
    assert c.post("/api/play", json={"move": "9,9 0"}).status_code == 400
    suggestion = c.get("/api/suggest").json()["move"]
    assert suggestion in v["legal"]
    after = c.post("/api/play", json={"move": suggestion}).json()
    assert after["player"] == 2 and after["decision"] == "draw"
    assert c.post("/api/undo").json() == v  # the move alone
    assert c.post("/api/undo").json()["decision"] == "draw"  # then the draw alone
    c.post("/api/draw", json={"tile": "RV_STRAIGHT"})
    c.post("/api/play", json={"move": suggestion})
    record = c.get("/api/record").json()
    other = TestClient(create_app(fresh()))
    assert other.post("/api/load", json=record).json() == after
    assert other.post("/api/load", json={"format": "chess"}).status_code == 400
    svg = c.get("/tile/CITY3.svg", params={"rotation": "90"})
    assert svg.status_code == 200 and 'data-rotation="90"' in svg.text
    assert c.get("/tile/CITY3.svg", params={"rotation": "45"}).status_code == 400
    assert c.get("/tile/NOPE.svg").status_code == 400


def test_the_command_refuses_bad_options_in_one_line(capsys, tmp_path) -> None:
    assert main(["table", "--players", "7"]) == 2
    assert main(["table", "-o", "big_top=maybe"]) == 2
    assert main(["table", "--record", str(tmp_path / "none.json")]) == 2
    assert main(["table", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 4 and all(
        line.startswith("carcassonne: error:") for line in err.splitlines()
    )


# -- a real browser -------------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="no chromium and chromedriver on PATH (CI installs Debian's chromium, chromium-driver)",
)
def test_a_scripted_game_with_every_expansion_in_a_real_browser(tmp_path: Path) -> None:
    uvicorn = pytest.importorskip("uvicorn")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    steps = scripted_game(2)
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(fresh()), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"):
        options.add_argument(arg)
    options.add_argument(f"--user-data-dir={tmp_path / 'profile'}")
    driver = None
    try:
        for _ in range(100):
            if server.started:
                break
            time.sleep(0.1)
        driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(DRIVER))
        wait = WebDriverWait(driver, 30)
        base = f"http://127.0.0.1:{port}"
        driver.get(base + "/")

        def shown() -> int:
            return int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-shown") or 0)

        wait.until(lambda d: shown() >= 1)

        def click(css: str) -> None:
            """Click the element and wait for the page to show the server's answer."""
            before = shown()
            driver.find_element(By.CSS_SELECTOR, css).click()
            wait.until(lambda d: shown() > before)

        def record() -> dict:
            with urllib.request.urlopen(base + "/api/record") as r:
                return json.load(r)

        undone = suggested = False
        for kind, value in steps:
            if kind == "draw":
                if not undone and value not in ("RV_STRAIGHT", "RV_LAKE"):
                    # a tile entered by mistake, taken back alone with the undo button
                    before = record()
                    wrong = driver.find_elements(By.CSS_SELECTOR, "#choices .draw-tile")[-1]
                    click(f'.draw-tile[data-tile="{wrong.get_attribute("data-tile")}"]')
                    click("#undo")
                    assert record() == before
                    undone = True
                click(f'#choices .draw-tile[data-tile="{value}"]')
                continue
            status = driver.find_element(By.ID, "status").get_attribute("data-decision")
            if status != "place":
                click(f'#choices .move-choice[data-move="{value}"]')
                continue
            if not suggested:  # the engine's suggestion, shown with a button to play it
                driver.find_element(By.ID, "suggest").click()
                wait.until(lambda d: d.find_elements(By.ID, "play-suggestion"))
                assert driver.find_element(By.ID, "suggestion").text.startswith("Suggested:")
                suggested = True
                driver.save_screenshot(str(tmp_path / "placing.png"))
            spot, rotation = value.split()[0], value.split()[1]
            x, y = spot.split(",")
            driver.find_element(
                By.CSS_SELECTOR, f'#board .open-position[data-x="{x}"][data-y="{y}"]'
            ).click()
            driver.find_element(
                By.CSS_SELECTOR, f'.rotation-choice[data-rotation="{rotation}"]'
            ).click()
            click(f'#figures .move-choice[data-move="{value}"]')
        assert undone and suggested
        status = driver.find_element(By.ID, "status")
        assert status.get_attribute("data-decision") == "over"
        assert status.text.startswith("Game over")
        shot = tmp_path / "over.png"
        driver.save_screenshot(str(shot))
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        page_scores = [
            int(li.get_attribute("data-points"))
            for li in driver.find_elements(By.CSS_SELECTOR, "#scores .score")
        ]
        saved = Game.from_record(record())
    finally:
        if driver is not None:
            driver.quit()
        server.should_exit = True
        thread.join(timeout=10)
    engine = fresh()
    for kind, value in steps:
        engine.draw(value) if kind == "draw" else engine.play(value)
    assert engine.is_over() and page_scores == engine.scores
    assert saved.scores == engine.scores and saved.fingerprint() == engine.fingerprint()
