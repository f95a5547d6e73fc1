"""Fixtures shared by the tests. Positions are built with the public scenario builder
(``carcassonne.Scenario`` and ``position``: tiles and moves as texts, a small bag that ends the
game); rulehelpers.py holds the checks on them (legal or refused moves, exact breakdowns) and
the play-outs (harmless fillers to the end, random play)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from carcassonne import Game, Rules, training

from rulehelpers import play_random


@pytest.fixture
def finished_game() -> Game:
    """A whole base game of 2 players, seed 3, every move drawn at random (random.Random(3))."""
    return play_random(Game(Rules.base(), players=2, seed=3), random.Random(3))


@pytest.fixture
def record_file(tmp_path: Path) -> str:
    """The record (JSON) of a whole game with every rule of the defaults, seed 4, each move the
    first legal one: ``game.json`` in the test's folder."""
    g = Game(Rules(), players=2, seed=4)
    while not g.is_over():
        g.play(g.legal_moves[0])
    path = tmp_path / "game.json"
    path.write_text(g.to_json())
    return str(path)


#: The games a value model is refitted on in the tests (``training.LUCK_GAMES``): fewer than
#: a user's, since a luck-adjusted answer is unbiased whatever V is; tests that pin a user's
#: figures ask for ``shipped_value_models``.
TEST_LUCK_GAMES = 200
SHIPPED_LUCK_GAMES = training.LUCK_GAMES


@pytest.fixture(autouse=True, scope="session")
def value_model_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Value models trained on demand (luck measurement) go to a folder of the session, never
    the user's cache: each is trained once per session (the games are in its name)."""
    path = tmp_path_factory.mktemp("value-models")
    before = os.environ.get("CARCASSONNE_CACHE")
    os.environ["CARCASSONNE_CACHE"] = str(path)
    training.LUCK_GAMES = TEST_LUCK_GAMES
    yield path
    training.LUCK_GAMES = SHIPPED_LUCK_GAMES
    if before is None:
        del os.environ["CARCASSONNE_CACHE"]
    else:
        os.environ["CARCASSONNE_CACHE"] = before


@pytest.fixture
def shipped_value_models(monkeypatch: pytest.MonkeyPatch) -> None:
    """Value models refitted as a user's are (``training.LUCK_GAMES`` as shipped)."""
    monkeypatch.setattr(training, "LUCK_GAMES", SHIPPED_LUCK_GAMES)
