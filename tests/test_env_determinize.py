"""Determinization for external search: chance outcomes with their probabilities, and
resampled copies that keep every visible fact while the hidden order changes."""

import random

import pytest

from carcassonne import Game, Rules

from rulehelpers import EVERY_OPTION


def visible(g: Game):
    return (
        g.fingerprint(),  # board, features, figures, scores, supplies, goods, hand, sorted bag
        g.bag,
        g.scores,
        [g.supply(p) for p in range(g.players)],
        g.decision,
        g.tile,
        g.hand,
        g.legal_moves,
        g.chance_outcomes(),
    )


def played(rules, seed, moves):
    g = Game(rules, players=3, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        g.play(rng.choice(g.legal_moves))
    return g


@pytest.mark.parametrize("rules", [Rules(), EVERY_OPTION], ids=["default", "every"])
def test_resampled_copies_keep_what_is_visible_and_change_the_order(rules):
    g = played(rules, 4, 20)
    seen = visible(g)
    futures = set()
    for seed in range(8):
        r = g.resample(seed)
        assert visible(r) == seen
        # The same moves on the copy draw another sequence of tiles.
        rng = random.Random(0)
        drawn = []
        for _ in range(6):
            if r.is_over():
                break
            r.play(rng.choice(r.legal_moves))
            drawn.append(r.tile)
        futures.add(tuple(drawn))
    assert len(futures) >= 6
    assert visible(g) == seen  # resampling leaves the original alone
    # The same seed gives the same determinization.
    assert g.resample(3).record() == g.resample(3).record()


def test_bag_contents_are_kept_as_a_multiset_and_undo_does_not_reveal_the_order():
    g = played(Rules(), 9, 30)
    r = g.resample(1)
    assert r.bag == g.bag and sum(r.bag.values()) == sum(g.bag.values())
    # Undo on the copy, then replay: the draws follow the resampled order, not the original.
    nexts = set()
    for seed in range(6):
        c = g.resample(seed)
        m = c.pop()
        c.play(m)
        nexts.add(c.tile)
    assert len(nexts) >= 2
    assert r.record()["chance"] == "manual"
    replay = Game.from_record(r.record())
    assert replay.fingerprint() == r.fingerprint()
    with pytest.raises(ValueError):
        g.resample(-1)


def test_chance_outcomes_are_the_bag_proportions():
    g = Game(Rules.base(), players=2, seed=5, chance="manual")
    out = dict(g.chance_outcomes())
    bag = g.bag
    total = sum(bag.values())
    assert out == pytest.approx({t: n / total for t, n in bag.items()})
    assert sum(out.values()) == pytest.approx(1.0)
    g.draw(next(iter(out)))
    assert g.chance_outcomes() == []  # a tile waits to be placed: no chance step


def test_chance_outcomes_of_the_river_and_of_animal_tokens():
    g = Game(Rules(), players=2, seed=2, chance="manual")
    out = dict(g.chance_outcomes())
    # River tiles come first (R3): only they may be drawn.
    assert out.keys() == g.drawable.keys()
    assert sum(out.values()) == pytest.approx(1.0)

    # Under the Big Top: play until the animal token is to be revealed.
    rng = random.Random(3)
    for seed in range(40):
        g = Game(Rules.base(big_top=True), players=2, seed=seed, chance="manual")
        while not g.is_over() and g.decision.value != "reveal":
            if g.decision.value == "draw":
                outs = g.chance_outcomes()
                g.draw(rng.choices([o for o, _ in outs], [p for _, p in outs])[0])
            else:
                g.play(rng.choice(g.legal_moves))
        if g.decision.value == "reveal":
            break
    assert g.decision.value == "reveal"
    out = dict(g.chance_outcomes())
    assert all(k.startswith("animal:") for k in out)
    assert sum(out.values()) == pytest.approx(1.0)
    assert out == pytest.approx({k: n / sum(g.drawable.values()) for k, n in g.drawable.items()})


def test_a_bag_given_in_order_is_reshuffled_by_resample():
    plain = Game(Rules.base(), players=2, seed=1)
    tiles = [t for t, n in sorted(plain.bag.items()) for _ in range(n)]
    g = Game(Rules.base(), players=2, seed=1, bag=tiles)
    rnd = random.Random(1)
    for _ in range(5):
        g.play(rnd.choice(g.legal_moves))
    nexts = set()
    for seed in range(8):
        r = g.resample(seed)
        # The fingerprint holds an ordered bag's order, so compare the visible facts.
        assert r.bag == g.bag and r.board == g.board and r.figures() == g.figures()
        assert r.scores == g.scores and r.tile == g.tile and r.legal_moves == g.legal_moves
        r.play(r.legal_moves[0])
        nexts.add(r.tile)
    assert len(nexts) >= 3
