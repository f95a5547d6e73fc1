"""Refusals as typed exceptions: text that is not a move raises ``InvalidMoveError``, a move the
rules refuse ``IllegalMoveError`` with the id of the rule it breaks (``.rule``, as in
docs/rules.md), a draw that cannot happen ``DrawError``; all three are ``PlayError`` and
``ValueError``, and none changes the game.

Games use ``chance="manual"``; without the River the start tile CAP_ROAD_WE lies at 0,0 (city
N, road W-E, field S).
"""

from __future__ import annotations

import pytest

import carcassonne
from carcassonne import (
    DrawError,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    PlayError,
    Rules,
)
from carcassonne.scenario import position


def illegal(g: Game, move: str) -> IllegalMoveError:
    """``move`` raises IllegalMoveError, leaves the game unchanged; the exception."""
    fp = g.fingerprint()
    with pytest.raises(IllegalMoveError) as info:
        g.play(move)
    assert g.fingerprint() == fp
    return info.value


def test_the_classes_nest_under_play_error_and_value_error():
    for cls in (IllegalMoveError, InvalidMoveError, DrawError):
        assert issubclass(cls, PlayError)
        assert issubclass(cls, ValueError)
    assert carcassonne.PlayError is carcassonne.errors.PlayError
    assert not issubclass(InvalidMoveError, IllegalMoveError)
    assert not issubclass(IllegalMoveError, InvalidMoveError)


def test_text_that_is_not_a_move_is_an_invalid_move_error():
    g = position(Rules.base())
    g.draw("ROAD_WE")
    fp = g.fingerprint()
    with pytest.raises(
        InvalidMoveError, match="rotation `45` is not one of 0, 90, 180, 270"
    ) as info:
        g.play("1,0 45")
    assert not isinstance(info.value, IllegalMoveError)
    with pytest.raises(PlayError, match="has no segment `city:N`"):
        g.play("1,0 0 meeple city:N")
    assert g.fingerprint() == fp


@pytest.mark.parametrize(
    ("tile", "move", "rule", "says"),
    [
        ("ROAD_WE", "5,5 0", "B4", "5,5 touches no tile on an edge (B4)"),
        ("ROAD_WE", "0,0 0", "B4", "0,0 already holds a tile"),
        ("MON", "0,1 0", "B5", "does not match its neighbours' edges at 0,1 (B5)"),
    ],
)
def test_a_refused_placement_names_its_base_rule(tile, move, rule, says):
    g = position(Rules.base())
    g.draw(tile)
    e = illegal(g, move)
    assert e.rule == rule
    assert says in str(e)


def test_a_refused_figure_names_its_rule():
    g = position(Rules.base(abbot=True))
    g.draw("ROAD_WE")
    g.play("1,0 0 meeple road:E")
    g.draw("ROAD_WE")
    e = illegal(g, "2,0 0 meeple road:E")
    assert (e.rule, str(e)) == ("B9", "that road already holds a figure (B9)")
    e = illegal(g, "2,0 0 abbot road:E")
    assert e.rule == "A2"
    assert "the abbot goes only on a monastery or a garden, not a road (A2)" == str(e)


def test_a_refused_expansion_action_names_its_rule():
    g = position(Rules.base(traders_builders="C3.1"))
    g.draw("ROAD_WE")
    e = illegal(g, "1,0 0 builder road:E")
    assert e.rule == "TB4"
    assert "attached to a meeple" in str(e)
    g = position(Rules.base(fortune_teller=True, max_fortune_tellers=0))
    g.draw("FT04_ROAD_TO_TENT")
    e = illegal(g, "0,-1 270 meeple tent")
    assert e.rule == "FT2"
    assert "no fortune teller may be placed (max_fortune_tellers=0) (FT2)" == str(e)


def test_state_play_raises_the_same_typed_error():
    g = position(Rules.base())
    g.draw("MON")
    state = g._state
    m = state.parse_move("0,1 0")
    assert state.check(m) is not None
    with pytest.raises(IllegalMoveError) as info:
        state.play(m)
    assert info.value.rule == "B5"
    assert str(info.value) == state.check(m)


def test_a_draw_that_cannot_happen_is_a_draw_error():
    g = position(Rules.base())
    fp = g.fingerprint()
    with pytest.raises(DrawError, match="RV_STRAIGHT is not in play under these rules") as info:
        g.draw("RV_STRAIGHT")
    assert isinstance(info.value, PlayError)
    assert not isinstance(info.value, IllegalMoveError)
    assert g.fingerprint() == fp
    g.draw("ROAD_WE")
    with pytest.raises(DrawError, match="already drawn and waiting"):
        g.draw("ROAD_WE")
    with pytest.raises(DrawError, match="only revealed with Under the Big Top"):
        g._state.final_scores([7])


def test_an_illegal_move_error_raised_outside_the_rules_has_no_rule():
    assert IllegalMoveError("an action outside the mask").rule is None
