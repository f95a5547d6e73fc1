"""Undo one step (`Game.undo`) and the move with its draws (`Game.pop`): the game is exactly as
before (fingerprints), for every step kind and every expansion."""

from __future__ import annotations

import random

import pytest

from carcassonne import Decision, DrawError, Game, Move, Rules

from rulehelpers import EVERY_OPTION

RULE_SETS = {
    "base": Rules.base(),
    "river+abbot": Rules(),
    "traders_builders C3.1": Rules.base(traders_builders="C3.1"),
    "traders_builders C2": Rules.base(traders_builders="C2"),
    "toll_collectors": Rules.base(toll_collectors=True),
    "fortune_teller": Rules.base(fortune_teller=True),
    "big_top": Rules.base(big_top=True),
    "every option": EVERY_OPTION,
}


def view(g: Game) -> tuple:
    """Everything a caller sees of a game, the whole rule state included."""
    return (
        g.fingerprint(),
        g.decision,
        g.turn,
        g.tile,
        g.hand,
        g.drawable,
        [str(m) for m in g.legal_moves],
        g.record(),
    )


def step(g: Game, rng: random.Random) -> str:
    """Take one step of a manual game at random: a chance step or a move. Returns its kind."""
    if g.decision in (Decision.DRAW, Decision.REVEAL):
        outcomes = g.chance_outcomes()
        pick = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        kind = "reveal" if pick.startswith("animal:") else "draw"
        if kind == "draw" and g.hand:
            kind = "hand draw"
        g.draw(pick)
        return kind
    kind = g.decision.value
    g.play(rng.choice(g.legal_moves))
    return kind


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_undo_takes_back_every_step_alone(name: str) -> None:
    rules = RULE_SETS[name]
    expected = {"draw", "place"}
    if rules.traders_builders == "C3.1" and rules.pig:
        expected.add("farmer")  # a pig's owner decides: rare in random play, so a few games
    if rules.fortune_teller:
        expected |= {"choose", "hand draw"}
    if rules.big_top:
        expected.add("reveal")
    kinds: set[str] = set()
    for seed in range(12):
        if expected <= kinds:
            break
        rng = random.Random(seed)
        g = Game(rules, players=3, seed=seed, chance="manual")
        while not g.is_over():
            before = view(g)
            moves = g.move_stack
            kind = step(g, rng)
            kinds.add(kind)
            after = view(g)
            draws = g.record()["draws"]
            undone = g.undo()
            assert view(g) == before, (name, kind)
            if kind in ("place", "farmer", "choose"):
                assert isinstance(undone, Move) and g.move_stack == moves
            else:
                assert isinstance(undone, str) and undone == draws[-1]
            # the same step again gives the same game
            if isinstance(undone, Move):
                g.play(undone)
            else:
                g.draw(undone)
            assert view(g) == after
    assert expected <= kinds, f"{name}: steps never taken: {expected - kinds}"


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_pop_takes_back_the_move_and_its_draws(name: str) -> None:
    rng = random.Random(5)
    g = Game(RULE_SETS[name], players=2, seed=5, chance="manual")
    history = []
    while not g.is_over() and len(history) < 60:
        if g.decision in (Decision.PLACE, Decision.FARMER, Decision.CHOOSE):
            history.append(view(g))
        step(g, rng)
    while history:
        g.pop()
        assert view(g) == history.pop()
    with pytest.raises(IndexError, match="no move to undo"):
        g.pop()
    assert g.decision == Decision.PLACE  # the first draw stays: pop takes back moves only
    g.undo()
    assert g.decision == Decision.DRAW and g.record()["draws"] == []
    with pytest.raises(IndexError, match="nothing to undo"):
        g.undo()


def test_undo_in_a_seeded_game_takes_back_the_move_and_its_draws() -> None:
    g = Game(EVERY_OPTION, players=2, seed=3)
    rng = random.Random(3)
    history = []
    for _ in range(40):
        history.append(view(g))
        g.play(rng.choice(g.legal_moves))
    while history:
        assert isinstance(g.undo(), Move)
        assert view(g) == history.pop()


def test_a_mistaken_draw_is_taken_back_alone() -> None:
    g = Game(Rules.base(), players=2, chance="manual")
    g.draw("CROSS4")
    g.play("1,0 0")
    before = view(g)
    g.draw("ROAD_WE")
    assert g.undo() == "ROAD_WE"
    assert view(g) == before
    g.draw("CAP")
    assert g.tile == "CAP" and [str(m) for m in g.move_stack] == ["1,0 0"]


def test_a_fortune_teller_hand_cannot_hold_a_tile_twice_beyond_its_copies() -> None:
    # CROSS4 has one copy: a hand cannot hold it twice (the second entry is a mistake).
    g = Game(Rules.base(fortune_teller=True), players=2, chance="manual")
    g.draw("FT04_ROAD_TO_TENT")
    g.play("0,-1 270 meeple tent")
    g.draw("ROAD_WE")
    g.play("1,0 0")
    g.draw("CROSS4")
    before = view(g)
    with pytest.raises(DrawError, match="CROSS4.*hand"):
        g.draw("CROSS4")
    assert view(g) == before
    g.draw("CROSS3")
    assert g.hand == ["CROSS4", "CROSS3"]
    assert g.undo() == "CROSS3" and g.hand == ["CROSS4"]
