"""Policy text quoting (issue 33, item 7): a weights path holding ':' or ',' (a Windows
``C:\\...``, ``a,b.w``) can be named, and every Python place splits policy text as the engine
does."""

from __future__ import annotations

from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carcassonne import _core, simulate
from carcassonne.players import ExpertAgent, MctsAgent, native_agent, play_game
from carcassonne.policies import (
    check_policy,
    policy_files,
    policy_name,
    quote_value,
    seat_texts,
)
from carcassonne.rules import Rules
from carcassonne.studies.plan import seat_policies
from carcassonne.studies.play import study
from carcassonne.studies.results import Results, replay


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_any_value_quoted_reads_back(path):
    text = f"expert:weights={quote_value(path)}:width=8,mcts:weights={quote_value(path)}"
    seats = seat_texts(text)
    assert len(seats) == 2
    assert _core.policy_parts(seats[0]) == ("expert", [("weights", path), ("width", "8")])
    assert _core.policy_parts(seats[1]) == ("mcts", [("weights", path)])
    assert policy_files(text) == [path, path]


def test_plain_values_stay_unquoted():
    assert quote_value("w.weights") == "w.weights"
    assert quote_value("/tmp/x/w.weights") == "/tmp/x/w.weights"
    assert quote_value("C:\\w\\x.weights") == '"C:\\w\\x.weights"'
    assert quote_value('say "hi"') == '"say ""hi"""'
    assert quote_value("") == '""'


@pytest.mark.parametrize(
    "text, what",
    [
        ('expert:weights="C:\\w', "a quoted value is not closed"),
        ('expert:weights="a"b"', "a quoted value is not closed"),
        ('expert:weights=a"b"', "a double quote may only enclose the whole value"),
        ('expert:weights="a"x', "a double quote may only enclose the whole value"),
    ],
)
def test_bad_quotes_are_clear_errors(text, what):
    with pytest.raises(ValueError, match=what):
        check_policy(text)


@pytest.fixture
def odd_weights(tmp_path):
    """The shipped weights in a file whose path holds a colon, a comma and a quote."""
    d = tmp_path / 'C:odd,dir "x"'
    d.mkdir()
    path = d / "w,1.weights"
    path.write_text(resources.files("carcassonne").joinpath("data/expert.weights").read_text())
    return str(path)


def test_a_path_with_colon_comma_and_quote_plays(odd_weights):
    q = quote_value(odd_weights)
    text = check_policy(f"expert:weights={q},mcts:playouts=8:weights={q}", 2)
    # The canonical text quotes the path, so it reads back to the same players.
    assert seat_texts(text) == [
        f"expert:weights={q}",
        f"mcts:playouts=8:weights={q}",
    ]
    assert check_policy(text, 2) == text
    assert policy_files(text) == [odd_weights, odd_weights]
    # The same weights as the shipped ones: the same games as the shipped expert.
    a = simulate(None, 4, 2, seed=3, policy=f"expert:weights={q}")
    b = simulate(None, 4, 2, seed=3, policy="expert")
    assert a.scores.tolist() == b.scores.tolist()
    assert Results.seat_policies(a) == [f"expert:weights={q}"] * 2
    assert seat_policies(text, 2) == seat_texts(text)


def test_agents_name_odd_paths(odd_weights):
    agent = ExpertAgent(weights=odd_weights)
    assert policy_name(agent.text) == "expert"
    assert _core.policy_parts(agent.text)[1] == [("weights", odd_weights)]
    search = MctsAgent(playouts=4, weights=odd_weights)
    assert _core.policy_parts(search.text)[1][-1] == ("weights", odd_weights)
    game = play_game(None, [native_agent(agent.text), search], seed=1)
    assert game.is_over()
    # A comma inside quotes is no second seat; a real second seat is refused for one agent.
    with pytest.raises(ValueError, match="one policy for one agent"):
        native_agent(f"{agent.text},greedy")
    assert check_policy([agent.text, "greedy"], 2) == f"{agent.text},greedy"


def test_a_simulation_parses_each_seat_text_once_for_every_chunk():
    """Issue 34: the text is parsed once at the edge and the parsed policy handed to every
    chunk (each chunk's threads share it): one parse for a study of three chunks, none for
    the next study of the same text."""
    text = "heuristic:meeple=4.125"  # a text no other test parses, so nothing is kept
    before = _core.policy_parses()
    res = simulate(None, 6, 2, seed=1, policy=text, chunk=2, threads=2)
    assert len(res) == 6
    assert _core.policy_parses() - before == 1
    before = _core.policy_parses()
    again = simulate(None, 6, 2, seed=1, policy=text, chunk=3)
    assert _core.policy_parses() == before
    assert again.scores.tolist() == res.scores.tolist()  # the same games, however chunked


def test_a_study_parses_each_distinct_seat_text_once():
    """Every cell, batch, seat order and chunk of a study, and a replay, plays the seats
    parsed once each: two distinct seat texts, two parses."""
    a, b = "heuristic:meeple=4.25", "heuristic:meeple=4.5"  # texts no other test parses
    check_policy("random")  # the study's playability check plays `random` (parsed before)
    before = _core.policy_parses()
    s = study(
        {"C3": Rules(), "small": Rules(small_city=True)},
        6,
        skills=f"{a},{b}",
        rotate_seats=True,
        batch=2,
        threads=1,
    )
    assert s.played == 2 * 6 * 2  # two variants, six deals, two seat orders
    replay(Rules(), 2, 5, f"{b},{a}")
    assert _core.policy_parses() - before == 2


def test_a_policy_parsed_once_plays_as_its_text():
    """`_core.simulate` takes a parsed policy (`Policy.join` of parsed seats) as its text."""
    parsed = _core.Policy.join([_core.Policy("greedy", 0), _core.Policy("random", 0)], 7)
    assert parsed.seats == ["greedy", "random"] and parsed.text == "greedy,random"
    by_text = _core.simulate(2, 4, seed=3, policy="greedy,random")
    assert _core.simulate(2, 4, seed=3, policy=parsed) == by_text
    with pytest.raises(TypeError, match="policy must be a str or a Policy, not int"):
        _core.simulate(2, 1, policy=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least one"):
        _core.Policy.join([], 0)


def test_an_agent_parses_its_text_once_for_every_game():
    agent = native_agent("heuristic:meeple=4.375")
    before = _core.policy_parses()
    for seed in range(3):
        play_game(None, agent, seed=seed)
    assert _core.policy_parses() == before
