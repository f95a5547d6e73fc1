"""What scored (`Game.scored`, `final_scores()["events"]`): the events of every step sum to the
score changes, over whole random games with every option, and say it as a person would."""

from __future__ import annotations

import random

import pytest
from test_env import MORE_RULE_SETS

from carcassonne import Decision, Game, Rules, Scenario


def added(before: list[dict[str, int]], after: list[dict[str, int]]) -> dict:
    return {
        (p, k): after[p][k] - before[p][k]
        for p in range(len(after))
        for k in after[p]
        if after[p][k] != before[p][k]
    }


def summed(events) -> dict:
    out: dict = {}
    for e in events:
        if e.points:
            out[(e.player, e.source)] = out.get((e.player, e.source), 0) + e.points
    return out


@pytest.mark.parametrize("rules", MORE_RULE_SETS, ids=str)
@pytest.mark.parametrize("chance", ["auto", "manual"])
def test_events_sum_to_the_score_changes_over_whole_games(rules: Rules, chance: str) -> None:
    rng = random.Random(11)
    g = Game(rules, players=3, seed=11, chance=chance)
    sources = set()
    while not g.is_over():
        before = g.breakdown
        if g.decision in (Decision.DRAW, Decision.REVEAL):
            outcomes = g.chance_outcomes()
            g.draw(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            g.play(rng.choice(g.legal_moves))
        assert summed(g.scored) == added(before, g.breakdown)
        for e in g.scored:
            sources.add(e.feature or e.source)
            assert str(e).startswith(f"player {e.player + 1}:")
            if e.feature in ("city", "road", "field"):
                assert e.tiles and e.at is not None and (e.at[0], e.at[1]) in e.tiles
    assert {"city", "road"} <= sources


def test_a_closed_city_says_who_scored_what_and_returns_the_meeple() -> None:
    s = Scenario(Rules.base(), players=2, bag=["CITY3_SHIELD", "ROAD_WE", "CAP"])
    s.turn("CITY3_SHIELD", "0,1 180 meeple city:E")  # joins the start tile's city: 2 tiles
    assert s.game.scored == []
    s.turn("ROAD_WE", "1,0 0")
    s.turn("CAP", "0,2 0")  # closes nothing: the city is open to the east and west
    g = s.game
    assert g.is_over()  # final scoring: an open city of 2 tiles with 1 pennant: 3 points
    [e] = g.scored
    assert (e.player, e.feature, len(e.tiles), e.pennants, e.points) == (0, "city", 2, 1, 3)
    assert str(e) == "player 1: city of 2 tiles with 1 pennant, 3 points"


def test_a_completed_feature_lists_the_figures_it_returns() -> None:
    s = Scenario(Rules.base(), players=2, bag=["CAP", "ROAD_WE", "MON"])
    s.turn("CAP", "0,1 180 meeple city:S")
    [e] = s.game.scored
    assert (e.player, e.source, e.feature, e.points) == (0, "cities", "city", 4)
    assert e.returned == (("meeple", 0, 1, "city:S"),)
    assert str(e) == "player 1: city of 2 tiles, 4 points (meeple from 0,1 city:S returned)"
    s.game.undo()
    assert s.game.scored == []


def test_final_scores_say_which_animal_tokens_they_assumed() -> None:
    g = Game(Rules.base(big_top=True), players=2, seed=4)
    rng = random.Random(4)
    while g.big_top()["at"] is None:
        g.play(rng.choice(g.legal_moves))
    assert Game(Rules.base(big_top=True), players=2, seed=4).final_scores()["animals"] == []
    result = g.final_scores()
    [token] = result["animals"]  # the final circus (BT4) reveals one token
    assert isinstance(token, int) and g.big_top()["left"][token] > 0
    assert g.final_scores()["animals"] == [token]  # the seed's draw, every time
    # the caller's own token is used and reported
    for other in (7, 1):
        assert g.final_scores([other])["animals"] == [other]
    assert g.final_scores([token]) == result
    while not g.is_over():  # at the end: the game's own result, nothing assumed
        g.play(rng.choice(g.legal_moves))
    assert g.final_scores()["animals"] == [] and g.final_scores()["scores"] == g.scores


def test_no_event_says_zero_points_for_a_feature_that_gave_some() -> None:
    rules = Rules(toll_collectors=True, big_top=True, traders_builders="C3.1")
    g = Game(rules, players=3, seed=2)
    rng = random.Random(2)
    while not g.is_over():
        g.play(rng.choice(g.legal_moves))
        for e in g.scored:
            assert e.points > 0 or (e.source is None and e.returned), str(e)
