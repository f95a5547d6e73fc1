"""The scenario builder (carcassonne.scenario): positions from move texts, a small bag that
ends the game when used up, and clear errors that leave the game unchanged."""

from __future__ import annotations

import pytest

from carcassonne import (
    Decision,
    DrawError,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Rules,
    Scenario,
    position,
)


def test_a_small_bag_ends_the_game_with_final_scoring():
    s = Scenario(Rules.base(), players=2, bag=["CAP", "ROAD_WE"])
    s.turn("CAP", "0,1 180 meeple city:S")
    assert s.game.scores == [4, 0] and s.game.decision == Decision.DRAW
    s.turn("ROAD_WE", "1,0 0 meeple road:E")
    assert s.game.is_over() and s.game.scores == [4, 2]
    assert [p.tile for p in s.game.board][1:] == ["CAP", "ROAD_WE"]


def test_the_function_and_the_builder_give_the_same_game():
    turns = [("CAP", "0,1 180 meeple city:S"), ("ROAD_WE", "1,0 0")]
    a = position(Rules.base(), 3, turns, seed=5)
    b = Scenario(Rules.base(), players=3, seed=5).turns(*turns).game
    assert a.fingerprint() == b.fingerprint() and a.players == 3
    assert a.chance == "manual" and sum(a.bag.values()) == 71 - 2  # the rules' whole bag


def test_any_copy_of_a_tile_type():
    g = Scenario(Rules.base(), bag={"ROAD_WE.garden": 1, "MON": 1}).turn("ROAD_WE*", "1,0 0").game
    assert g.board[-1].tile == "ROAD_WE.garden"


def test_bad_turns_raise_and_leave_the_game_unchanged():
    s = Scenario(Rules.base(), bag=["CAP", "ROAD_WE"])
    fp = s.game.fingerprint()
    with pytest.raises(InvalidMoveError, match="no segment"):
        s.turn("CAP", "0,1 180 meeple road:S")
    with pytest.raises(IllegalMoveError, match="there: 0,1 180, 0,1 180 meeple city:S") as e:
        s.turn("CAP", "0,1 0")
    assert e.value.rule == "B5"
    with pytest.raises(IllegalMoveError, match="there: none") as e:
        s.turn("CAP", "5,5 0")
    assert e.value.rule == "B4"
    with pytest.raises(IllegalMoveError, match="written '1,0 0'"):
        s.turn("ROAD_WE", "1,0 180")
    with pytest.raises(DrawError):
        s.turn("MON", "0,-1 0")  # not in this bag
    with pytest.raises(DrawError, match="no copy"):
        s.turn("CROSS4*", "1,0 0")
    assert s.game.fingerprint() == fp and s.game.bag == {"CAP": 1, "ROAD_WE": 1}
    s.draw("CAP")
    with pytest.raises(DrawError, match="waits for place"):
        s.turn("ROAD_WE", "1,0 0")


def test_a_fortune_tellers_hand_is_drawn_tile_by_tile():
    rules = Rules.base(fortune_teller=True)
    s = Scenario(rules, bag=["FT04_ROAD_TO_TENT", "ROAD_WE", "CAP", "MON"])
    s.turn("FT04_ROAD_TO_TENT", "-1,0 180 meeple tent")
    s.turn("ROAD_WE", "1,0 0")  # player 2 has no fortune teller: one tile
    with pytest.raises(DrawError, match="hand"):
        s.turn("CAP", "0,1 180")  # player 1 draws a hand of two
    s.draw("CAP", "MON").play("choose CAP", "0,1 180")
    assert s.game.board[-1].tile == "CAP"


def test_turns_are_all_or_nothing():
    """A refused turn among several leaves none of them played (hostile-input issue 13)."""
    s = Scenario(Rules.base(), bag=["CAP", "ROAD_WE", "MON"])
    fp = s.game.fingerprint()
    with pytest.raises(IllegalMoveError):
        s.turns(("CAP", "0,1 180"), ("ROAD_WE", "1,0 0"), ("MON", "9,9 0"))
    assert s.game.fingerprint() == fp and s.game.move_stack == []
    s.turns(("CAP", "0,1 180"), ("ROAD_WE", "1,0 0"))
    assert len(s.game.move_stack) == 2


@pytest.mark.parametrize("bag", [[], {}])
def test_an_empty_bag_ends_a_manual_game_at_once(bag):
    """With manual chance an empty bag ends the game as a seeded draw would (hostile-input
    issue 4): a ``while not is_over()`` loop ends."""
    for game in (
        Scenario(Rules.base(), bag=bag).game,
        position(Rules.base(), bag=bag),
        Game(Rules(), players=2, chance="manual", bag=bag),
        Game(Rules(), players=2, bag=bag),
    ):
        assert game.is_over() and game.scores == [0, 0]
