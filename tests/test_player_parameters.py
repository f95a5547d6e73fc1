"""The players' parameter table (issue 34, item 3): one table in the engine, from which the
parsers validate and which the Python side reads instead of hand-written lists."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from carcassonne import Game, Rules, _core
from carcassonne.players import MctsAgent
from carcassonne.policies import PLAYERS, player_parameters, policy_text

DOCS = Path(__file__).resolve().parent.parent / "docs" / "players.md"
PLACEHOLDER = {"whole": "N", "number": "X", "path": "PATH"}


def usage(name: str) -> str:
    return "".join(
        f"[:{p}={'|'.join(rng) if kind == 'choice' else PLACEHOLDER[kind]}]"
        for p, kind, _, rng, _ in player_parameters(name)
    )


def test_every_player_has_a_table_its_usage_is_made_from():
    for name, params, help in PLAYERS:
        assert params == usage(name), name
        assert help
    assert player_parameters("random") == player_parameters("greedy") == []
    with pytest.raises(ValueError, match='unknown player "nobody"'):
        player_parameters("nobody")


def test_the_table_holds_kinds_defaults_and_ranges():
    mcts = {p[0]: p for p in player_parameters("mcts")}
    assert mcts["playouts"][1:4] == ("whole", 1000, (1, 10_000_000))
    assert mcts["c"][1:4] == ("number", 0.3, (0.0, 100.0))
    assert mcts["widen"][1:4] == ("number", 2.0, (0.01, 1000.0))
    assert mcts["eval"][1:4] == ("choice", "final", ("final", "learned"))
    assert mcts["weights"][1:4] == ("path", None, None)
    expert = {p[0]: p for p in player_parameters("expert")}
    assert expert["width"][1:4] == ("whole", 48, (0, 65535))
    assert expert["net_top"][1:4] == ("whole", 12, (0, 65535))
    assert expert["depth"][1:4] == ("choice", "1", ("1", "2"))
    # The heuristic's rows are its tuned weights, the same as heuristic_parameters(), then its
    # look-ahead.
    rows = player_parameters("heuristic")
    weights = _core.heuristic_parameters()
    assert [(n, d, lo, hi) for n, _, d, (lo, hi), _ in rows[: len(weights)]] == [
        (n, pytest.approx(d), pytest.approx(lo), pytest.approx(hi)) for n, d, lo, hi, _ in weights
    ]
    assert [r[:4] for r in rows[len(weights) :]] == [
        ("depth", "choice", "1", ("1", "2", "3")),
        ("top", "whole", 8, (1, 500)),
        ("rollouts", "whole", 0, (0, 1_000_000)),
        ("horizon", "whole", 8, (1, 1000)),
    ]


def test_every_default_parses_and_every_range_end_is_accepted():
    for name, _, _ in PLAYERS:
        for p, kind, default, rng, _ in player_parameters(name):
            if kind == "path":
                continue
            values = list(rng) if kind == "choice" else [rng[0], rng[1], default]
            for v in values:
                assert _core.policy_seats(policy_text(name, **{p: v})), (name, p, v)
            if kind in ("whole", "number"):
                with pytest.raises(ValueError, match=f"{p} must be a"):
                    _core.policy_seats(policy_text(name, **{p: rng[1] * 2 + 1}))


def test_game_search_takes_the_mcts_table_s_parameters():
    sig = inspect.signature(Game.search)
    keywords = [n for n, p in sig.parameters.items() if p.kind is p.KEYWORD_ONLY]
    assert keywords == [p[0] for p in player_parameters("mcts") if p[0] != "playouts"]
    g = Game(Rules(), players=2, seed=4)
    a = g.search(60, seed=2, eval="learned", weights=None)
    b = g.search(60, seed=2, eval="learned")
    assert a == b


def test_agents_name_parameters_from_the_table():
    assert MctsAgent(playouts=5, widen=1).text == "mcts:playouts=5:widen=1"
    with pytest.raises(ValueError, match=r"unknown mcts parameter `wide` \(valid: playouts, c"):
        MctsAgent(playouts=5, wide=1)


def test_the_docs_table_lists_every_player_as_the_engine_writes_it():
    text = DOCS.read_text()
    for name, params, _ in PLAYERS:
        row = f"| `{name}{params}`".replace("|", r"\|").replace(r"\|", "|", 1)
        assert re.search(re.escape(row) + " |", text), row
