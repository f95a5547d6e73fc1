"""``Game.expansions``: exactly the expansions that are on, each with its own read-out, equal
to the older read-outs on ``Game`` (``supply``, ``goods``, ``big_top``, ...) over whole random
games; an expansion that is off is an AttributeError naming its option."""

from __future__ import annotations

import itertools
import random

import pytest

from carcassonne import Game, Rules, _core

from rulehelpers import EVERY_OPTION

EVERY = Rules.every_expansion()


def with_only(names: tuple[str, ...]) -> Rules:
    return Rules.base(**{n: getattr(EVERY, n) for n in names})


@pytest.mark.parametrize(
    "names",
    [
        c
        for k in range(len(_core.EXPANSIONS) + 1)
        for c in itertools.combinations(_core.EXPANSIONS, k)
    ],
    ids=lambda c: "+".join(c) or "base",
)
def test_exactly_the_expansions_on_are_read_out(names):
    g = Game(players=3, seed=5, rules=with_only(names))
    assert list(g.expansions) == list(names)  # registry order
    assert len(g.expansions) == len(names)
    for name in _core.EXPANSIONS:
        assert (name in g.expansions) == (name in names)
        if name in names:
            assert getattr(g.expansions, name) == getattr(g.expansions, name)
        else:
            with pytest.raises(AttributeError, match=f"{name} is off in this game"):
                getattr(g.expansions, name)


def test_an_unknown_name_or_fact_and_writing_are_refused():
    g = Game(players=2, seed=1, rules=EVERY_OPTION)
    with pytest.raises(AttributeError, match="no expansion 'inns'; the expansions: river"):
        _ = g.expansions.inns
    with pytest.raises(AttributeError, match="big_top has no read-out 'atx'; it has: at, "):
        _ = g.expansions.big_top.atx
    with pytest.raises(AttributeError, match="read-only"):
        g.expansions.big_top = 1  # type: ignore[misc]
    with pytest.raises(AttributeError, match="read-only"):
        g.expansions.big_top.at = (0, 0)
    assert g.expansions.river.as_dict() == {}


def test_the_facts_at_the_start_of_a_three_player_game():
    g = Game(players=3, seed=2, rules=EVERY_OPTION)
    e = g.expansions
    assert e.abbot.abbots == [1, 1, 1]
    assert e.traders_builders.as_dict() == {
        "goods": [{"chicken": 0, "grain": 0, "cloth": 0}] * 3,
        "builders": [1, 1, 1],
        "pigs": [1, 1, 1],
        "second_part": False,
        "builder_triggered": False,
    }
    assert e.toll_collectors.as_dict() == {"tollhouses_in_supply": [1, 1, 1], "tollhouses": []}
    assert e.fortune_teller.fortune_tellers == [0, 0, 0]
    assert e.big_top.at is None
    assert e.big_top.revealed == []
    assert e.big_top.left == {7: 1, 6: 2, 5: 3, 4: 5, 3: 4, 1: 1}
    assert e.big_top.pyramids == []
    assert e.big_top.ringmasters == [1, 1, 1]


# Each player's supply in the order the table page's panels show it (the figures' ranks,
# `InSupply`), with the expansion that brings each figure.
SUPPLY_ORDER = {
    "meeple": None,
    "abbot": "abbot",
    "builder": "traders_builders",
    "pig": "traders_builders",
    "tollhouse": "toll_collectors",
    "ringmaster": "big_top",
}


@pytest.mark.parametrize(
    "names",
    [
        c
        for k in range(len(_core.EXPANSIONS) + 1)
        for c in itertools.combinations(_core.EXPANSIONS, k)
    ],
    ids=lambda c: "+".join(c) or "base",
)
def test_the_supply_shows_the_figures_of_the_expansions_on_in_a_pinned_order(names):
    """`supply` comes from the read-outs (each expansion's figures in supply), so its keys are
    the meeple and the figures of exactly the expansions that are on, always in one order."""
    g = Game(players=3, seed=5, rules=with_only(names))
    want = [k for k, by in SUPPLY_ORDER.items() if by is None or by in names]
    for p in range(3):
        assert list(g.supply(p)) == want
        assert all(v == 1 for k, v in g.supply(p).items() if k != "meeple")
    with pytest.raises(IndexError, match="no player 3"):
        g.supply(3)


def test_a_figure_switched_off_leaves_the_supply():
    for option, figure in (("builder", "builder"), ("pig", "pig"), ("ringmaster", "ringmaster")):
        g = Game(players=2, seed=1, rules=EVERY_OPTION.replace(**{option: False}))
        assert list(g.supply(0)) == [k for k in SUPPLY_ORDER if k != figure]


def old_read_outs(g: Game) -> dict[str, dict]:
    """The same facts from the read-outs ``Game`` had before ``Game.expansions`` (the builder's
    double turn: ``Game.double_turn``, checked apart)."""
    players = range(g.players)
    supply = [g.supply(p) for p in players]
    big_top = g.big_top()
    return {
        "river": {},
        "fortune_teller": {"fortune_tellers": g.fortune_tellers(), "hand": g.hand},
        "toll_collectors": {
            "tollhouses_in_supply": [s["tollhouse"] for s in supply],
            "tollhouses": g.tollhouses(),
        },
        "big_top": {
            "at": big_top["at"],
            "revealed": big_top["revealed"],
            "left": big_top["left"],
            "pyramids": g.pyramids(),
            "ringmasters": [s["ringmaster"] for s in supply],
        },
        "traders_builders": {
            "goods": [g.goods(p) for p in players],
            "builders": [s["builder"] for s in supply],
            "pigs": [s["pig"] for s in supply],
        },
        "abbot": {"abbots": [s["abbot"] for s in supply]},
    }


@pytest.mark.parametrize("seed", range(4))
def test_the_read_outs_equal_the_old_ones_over_whole_random_games(seed):
    rng = random.Random(seed)
    g = Game(players=2 + seed % 3, seed=seed, rules=EVERY_OPTION)
    seen = set()
    while True:
        got = {name: getattr(g.expansions, name).as_dict() for name in g.expansions}
        tb = got["traders_builders"]
        second, triggered = tb.pop("second_part"), tb.pop("builder_triggered")
        assert g.double_turn == (
            "second part" if second else "builder triggered" if triggered else None
        )
        assert got == old_read_outs(g)
        seen.update(
            fact
            for facts in got.values()
            for fact, v in facts.items()
            if v not in ([], None, False)
        )
        if g.is_over():
            break
        g.play(rng.choice(g.legal_moves))
    # The games reached the facts that change (not only the starting ones).
    assert {"at", "revealed", "tollhouses"} <= seen
