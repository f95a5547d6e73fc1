"""The heuristic player (docs/players.md): exact expected points on hand-built positions,
seat symmetry, blindness to the bag's order, parameters."""

import math

import pytest

from carcassonne import Rules, _core, simulate
from carcassonne.scenario import position

BASE = Rules(river=False, abbot=False)
# Explicit parameters, so that retuning the defaults changes none of these figures.
PARAMS = "meeple=4:open=0.5:reach=0.5:help=0.2:join=0.5:field=1:complete=1"
BAG = ["ROAD_WE", "MON", "CAP", "CAP", "CAP", "CAP", "ROAD_WE", "MON"]
TURNS = [
    ("ROAD_WE", "1,0 0 meeple road:E"),  # seat 1: a road of 2 tiles, open at both ends
    ("MON", "0,-1 0 meeple monastery"),  # seat 2: a monastery with 2 neighbours
    ("CAP", "0,1 180 meeple city:S"),  # seat 1 closes the start city: 4 points, meeple back
]


def test_expected_points_of_a_road_and_a_monastery():
    g = position(BASE, 2, TURNS, bag=BAG)
    assert g.scores == [4, 0]
    # 5 tiles left (CAP x3, ROAD_WE, MON), 2 players: 2.5 own draws each; a gap is filled by
    # 0.5 of one's own draws and 0.2 of the other's.
    left, own = 5, 2.5
    draws = 0.5 * own + 0.2 * (left - own)

    def fill(fitting):
        return 1 - (1 - fitting / left) ** draws

    figure = 4 * own / 6  # a figure in supply, with 2.5 of the ~6 turns it needs left
    # Seat 1: road 2 points if the game ended now plus 4 of the city; each road end is
    # fitted by the ROAD_WE alone; each filled end adds a tile, both filled bring the meeple
    # back; 6 meeples in supply.
    p = fill(1)
    seat1 = 4 + 2 + 2 * p + p * p * figure + 6 * figure
    # Seat 2: the monastery's 3 points now; its 6 empty neighbours: two fitted by all 5
    # tiles, one beside the road tile by CAP x3 and MON (not the straight road), the road's
    # west end by the ROAD_WE, two diagonals next to no tile (half the bag, rounded down).
    fills = [fill(5), fill(5), fill(4), fill(1), fill(2), fill(2)]
    seat2 = 3 + sum(fills) + math.prod(fills) * figure + 6 * figure
    assert g.heuristic_scores(PARAMS) == pytest.approx([seat1, seat2], abs=1e-4)


def test_holding_many_open_features_costs_more_each():
    # Seat 1 holds two open roads: open x k(k-1)/2 = 0.5 x 1 less than without the penalty.
    bag = ["ROAD_WE", "ROAD_WE", "ROAD_WE", "CAP"]
    turns = [
        ("ROAD_WE", "1,0 0 meeple road:E"),
        ("ROAD_WE", "-1,0 0"),
        ("ROAD_WE", "1,1 0 meeple road:E"),  # a second road, north of the first
    ]
    g = position(BASE, 2, turns, bag=bag)
    with_penalty = g.heuristic_scores(PARAMS)
    without = g.heuristic_scores(PARAMS.replace("open=0.5", "open=0"))
    assert with_penalty[0] == pytest.approx(without[0] - 0.5, abs=1e-5)
    assert with_penalty[1] == pytest.approx(without[1], abs=1e-5)


def test_values_are_the_expected_margin_after_each_move():
    g = position(BASE, 2, TURNS, bag=BAG)
    g.draw("CAP")
    values = g.heuristic_values(PARAMS)
    assert set(values) == set(g.legal_moves)
    for m in list(values)[:12]:
        after = g.copy()
        after.play(m)
        s = after.heuristic_scores(PARAMS)
        assert values[m] == pytest.approx(s[1] - s[0], abs=1e-3)


def test_scores_follow_the_player_not_the_seat():
    """The same board with the road held by the other seat: the scores swap."""
    bag = ["ROAD_WE", "ROAD_WE", "MON", "CAP"]
    a = position(BASE, 2, [("ROAD_WE", "1,0 0 meeple road:E"), ("ROAD_WE", "-1,0 0")], bag=bag)
    b = position(BASE, 2, [("ROAD_WE", "1,0 0"), ("ROAD_WE", "-1,0 0 meeple road:E")], bag=bag)
    sa, sb = a.heuristic_scores(), b.heuristic_scores()
    assert sa == pytest.approx(sb[::-1], abs=1e-5)
    assert sa[0] > sa[1]


def test_values_read_the_bag_contents_not_its_order():
    dealt = ["ROAD_WE", "MON", "CAP", "CAP", "MON", "ROAD_WE", "CAP", "CAP"]
    shuffled = dealt[:3] + ["CAP", "ROAD_WE", "CAP", "MON", "CAP"]
    a = position(BASE, 2, TURNS, bag=dealt)
    b = position(BASE, 2, TURNS, bag=shuffled)
    assert a.heuristic_values() == b.heuristic_values()
    assert a.heuristic_scores() == b.heuristic_scores()


@pytest.mark.parametrize(
    "params, message",
    [
        ("meeple=-1", "meeple must be a number from 0 to 20"),
        ("bogus=1", "unknown heuristic parameter `bogus`"),
        ("open=1:open=2", "given twice"),
    ],
)
def test_bad_parameters_say_what_is_wrong(params, message):
    g = position(BASE, 2, TURNS, bag=BAG)
    with pytest.raises(ValueError, match=message):
        g.heuristic_scores(params)
    with pytest.raises(ValueError, match=message):
        _core.policy_seats(f"heuristic:{params}")


def test_heuristic_plays_whole_games_under_every_option_and_player_count():
    every = Rules(traders_builders="C3.1", toll_collectors=True, fortune_teller=True, big_top=True)
    for rules, players in ((BASE, 2), (Rules(), 3), (every, 4)):
        res = simulate(rules, games=2, players=players, policy="heuristic", seed=11)
        assert res.scores.shape == (2, players) and res.scores.min() > 0
        # The results replay from their seed alone.
        assert res.replay(1).scores == list(res.scores[1])


def test_the_heuristic_never_places_a_fortune_teller():
    """docs/players.md and docs/studies.md: a figure on a tent is worth nothing to the
    heuristic, so its games with the Fortune Teller have none, where greedy's have some (the
    evaluation's terms count each player's fortune tellers at every turn start)."""
    from carcassonne.training import positions

    column = _core.evaluation_terms().index("fortune_teller.tellers")
    for skill, placed in (("heuristic", False), ("greedy", True)):
        x, _, _ = positions(Rules(fortune_teller=True), 20, 11, skill, every=1)
        assert bool((x[:, column] > 0).any()) == placed, skill
