"""The learned evaluation, the expert player, mcts with eval=learned, and training
(docs/players.md)."""

import subprocess
import sys
from importlib import resources

import numpy as np
import pytest

from carcassonne import Game, Rules, _core
from carcassonne.players import ExpertAgent, native_agent, play_game
from carcassonne.policies import POLICIES
from carcassonne.scenario import position
from carcassonne.training import (
    ANCHOR,
    ANCHOR_READING,
    RING,
    NetFit,
    RankPlan,
    Standardised,
    anchor_prior,
    centred,
    decisions,
    fit,
    fit_net,
    league,
    model_class,
    net_rest,
    r2_centred,
    ranking_rows,
    ring,
    td_targets,
    train,
    trained_expert,
)

BASE = Rules(river=False, abbot=False)
EVERY = Rules(traders_builders="C3.1", toll_collectors=True, fortune_teller=True, big_top=True)
NAMES = _core.evaluation_terms()
SHIPPED = resources.files("carcassonne") / "data" / "expert.weights"


def terms(game: Game) -> list[dict[str, float]]:
    rows = _core.state_terms(game._state)
    return [{n: v for n, v in zip(NAMES, row, strict=True) if v} for row in rows]


# The held-out heuristic's hand-set weights, as the anchor terms read them.
HEURISTIC = {name: default for name, default, *_ in _core.heuristic_parameters()}


def fill(fit: int, bag: int, players: int = 2) -> float:
    """The heuristic's chance that a gap that ``fit`` of the ``bag`` tiles left fit is filled:
    one of its draws (its ``reach`` share of the player's own turns left) fits there."""
    draws = HEURISTIC["reach"] * bag / players
    return 1 - (1 - fit / bag) ** draws


def close(want: dict[str, float]) -> object:
    """Terms equal to ``want`` to single precision (the engine's)."""
    return pytest.approx(want, rel=1e-5, abs=1e-9)


def anchor(bag: int, meeples: int, players: int = 2, **t: float) -> dict[str, float]:
    """The anchor terms ``t`` of one player with ``meeples`` in supply, with their products
    and sum: the heuristic's own value (its weights) of what the terms hold."""
    t = {k: v for k, v in t.items() if v}
    figure = HEURISTIC["meeple"] * min(bag / players / 6, 1)
    back = t.get("figures_back", 0)
    if back:
        t["figures_back_x_left"] = back * t.pop("left")
    else:
        t.pop("left", None)
    t["anchor"] = (
        HEURISTIC["complete"]
        * (
            t.get("road_expect", 0)
            + t.get("city_expect", 0)
            + t.get("cloister_expect", 0)
            + figure * back
        )
        + HEURISTIC["field"] * t.get("field_expect", 0)
        + HEURISTIC["join"] * t.get("joins", 0)
        + figure * meeples
        - HEURISTIC["open"] * t.get("open_pairs", 0)
    )
    return t


def test_terms_of_a_road_a_monastery_and_a_closed_city():
    # Bag of 8 after the start tile; 3 drawn: 5 of 9 tiles still to come.
    g = position(
        BASE,
        2,
        [
            ("ROAD_WE", "1,0 0 meeple road:E"),  # road of 2 tiles, open at both ends
            ("MON", "0,-1 0 meeple monastery"),  # 2 neighbours: (0,0) and (1,0)
            ("CAP", "0,1 180 meeple city:S"),  # closes the start city: 4 points, meeple back
        ],
        bag=["ROAD_WE", "MON", "CAP", "CAP", "CAP", "CAP", "ROAD_WE", "MON"],
    )
    assert g.scores == [4, 0]
    left = 5 / 9
    t = terms(g)
    # The road's two ends: of the 5 tiles left (CAP x3, ROAD_WE, MON), one fits each (scarce).
    # A player may spend one draw on each end (a tenth of its 3 draws left, at least one): it
    # fits with chance 1/5, both ends 1/25; the road's 2 tiles times that are `road_likely`.
    both_ends = (1 / 5) ** 2
    # Under the heuristic's fill model each end is filled with chance `end`; the monastery's
    # 6 empty neighbours: 2 that every tile fits (fields only), 1 the 3 CAPs and the MON fit,
    # 1 next to the start tile's road (the ROAD_WE fits), 2 not yet on the frontier (taken as
    # half the bag).
    end = fill(1, 5)
    around = [fill(5, 5), fill(5, 5), fill(4, 5), fill(1, 5), fill(2, 5), fill(2, 5)]
    assert t[0] == close(
        {
            "bias": 1,
            "left": left,
            "left_sq": left * left,
            "meeples": 6,
            "meeples_x_left": 6 * left,
            "road_open": 2,
            "road_open_x_left": 2 * left,
            "roads_held": 1,
            "roads_held_x_left": left,
            "road_scarce": 2,
            "road_likely": 2 * both_ends,
            "open_held_sq": 1,
            **anchor(5, 6, left=left, road_expect=2 * end, figures_back=end * end),
        }
    )
    assert t[1] == close(
        {
            "bias": 1,
            "left": left,
            "left_sq": left * left,
            "meeples": 6,
            "meeples_x_left": 6 * left,
            "to_move": 1,
            "to_move_x_left": left,
            "cloister_now": 3,
            "cloister_now_x_left": 3 * left,
            "cloister_missing": 6,
            "cloister_missing_x_left": 6 * left,
            "cloisters_held": 1,
            "cloisters_held_x_left": left,
            "open_held_sq": 1,
            **anchor(
                5, 6, left=left, cloister_expect=sum(around), figures_back=float(np.prod(around))
            ),
        }
    )


def test_terms_of_a_farmer_and_an_open_city():
    g = position(
        BASE,
        2,
        [("CAP", "0,1 180 meeple field:NNW"), ("CAP", "0,2 0 meeple city:N")],
        bag=["CAP", "CAP", "CAP", "MON"],
    )
    # The farmer's field borders the completed start city (3 at the end) and the open city
    # of 0,2; that city has one open edge (a gap of one tile), which one tile left fits (the
    # CAP; the MON has no city edge): scarce. With 2 tiles left, one draw fits that gap with
    # chance 1/2: the city's completion chance, and the farmer's
    # likely city (3 points times 1/2). The heuristic's fill model gives it `city`, a one-tile
    # city worth 2 once complete: its holder expects `city` times the point it gains, and
    # `city` tiles times 1 + `city` points.
    city = fill(1, 2)
    t = terms(g)
    assert t[0] == close(
        {
            "bias": 1,
            "left": 0.4,
            "left_sq": 0.16,
            "meeples": 6,
            "meeples_x_left": 2.4,
            "to_move": 1,
            "to_move_x_left": 0.4,
            "field_cities": 3,
            "field_cities_x_left": 1.2,
            "field_open_cities_x_left": 0.4,
            "fields_held": 1,
            "fields_held_x_left": 0.4,
            "field_likely_cities": 1.5,
            **anchor(2, 6, field_expect=3 * city),
        }
    )
    assert t[1] == close(
        {
            "bias": 1,
            "left": 0.4,
            "left_sq": 0.16,
            "meeples": 6,
            "meeples_x_left": 2.4,
            "city_gap1": 1,
            "city_gap1_x_left": 0.4,
            "cities_held": 1,
            "cities_held_x_left": 0.4,
            "city_scarce": 1,
            "city_scarce_x_left": 0.4,
            "city_likely": 0.5,
            "city_likely_x_left": 0.2,
            "open_held_sq": 1,
            **anchor(
                2, 6, left=0.4, city_expect=city * (2 - 1) + city * (1 + city), figures_back=city
            ),
        }
    )


def test_terms_of_gaps_no_tile_left_fits():
    # The city of 0,0 and 0,1 is open to 0,2, where only a tile with a city edge fits; the road
    # of 0,0 and 1,0 is open at -1,0 and 2,0 (a road edge each). Left: ROAD_WE, MON, MON.
    g = position(
        BASE,
        2,
        [("CITY_WE", "0,1 90 meeple city:N"), ("ROAD_WE", "1,0 0 meeple road:E")],
        bag=["CITY_WE", "ROAD_WE", "ROAD_WE", "MON", "MON"],
    )
    t = terms(g)
    # The city can never be completed: dead, and its meeple stuck to the end.
    assert t[0] == close(
        {
            "bias": 1,
            "left": 0.5,
            "left_sq": 0.25,
            "meeples": 6,
            "meeples_x_left": 3,
            "to_move": 1,
            "to_move_x_left": 0.5,
            "city_gap1": 2,
            "city_gap1_x_left": 1,
            "cities_held": 1,
            "cities_held_x_left": 0.5,
            "city_dead": 2,
            "city_dead_x_left": 1,
            "figures_stuck": 1,
            "figures_stuck_x_left": 0.5,
            "open_held_sq": 1,
            **anchor(3, 6),
        }
    )
    # One ROAD_WE left fits either end of the road: scarce, not dead. One draw of the 3 tiles
    # left fits each end with chance 1/3.
    assert t[1] == close(
        {
            "bias": 1,
            "left": 0.5,
            "left_sq": 0.25,
            "meeples": 6,
            "meeples_x_left": 3,
            "road_open": 2,
            "road_open_x_left": 1,
            "roads_held": 1,
            "roads_held_x_left": 0.5,
            "road_scarce": 2,
            "road_likely": 2 * (1 / 3) ** 2,
            "open_held_sq": 1,
            **anchor(3, 6, left=0.5, road_expect=2 * fill(1, 3), figures_back=fill(1, 3) ** 2),
        }
    )
    # With only cloisters left, the road is dead too (and never completed).
    g = position(BASE, 2, [("ROAD_WE", "1,0 0 meeple road:E")], bag=["ROAD_WE", "MON", "MON"])
    t = terms(g)
    assert t[0] == close(
        {
            "bias": 1,
            "left": 0.5,
            "left_sq": 0.25,
            "meeples": 6,
            "meeples_x_left": 3,
            "road_open": 2,
            "road_open_x_left": 1,
            "roads_held": 1,
            "roads_held_x_left": 0.5,
            "road_dead": 2,
            "road_dead_x_left": 1,
            "figures_stuck": 1,
            "figures_stuck_x_left": 0.5,
            "open_held_sq": 1,
            **anchor(2, 6),
        }
    )


def test_terms_of_cities_one_tile_could_join_and_of_a_meeple_outnumbered():
    # Seat 0's city of -1,1 and seat 1's of 1,1 are both open to 0,1 (with the start city):
    # one tile there joins them. Of the two tiles left, the CITY3 fits there, the MON not.
    p = fill(1, 2)
    g = position(
        BASE,
        2,
        [
            ("ROAD_WE", "1,0 0"),
            ("CAP", "1,1 270 meeple city:W"),
            ("ROAD_WE", "-1,0 0"),
            ("ROAD_WE", "2,0 0"),
            ("CAP", "-1,1 90 meeple city:E"),
        ],
        bag=["ROAD_WE", "CAP", "ROAD_WE", "ROAD_WE", "CAP", "CITY3", "MON"],
    )
    t = terms(g)
    city = {
        "bias": 1,
        "left": 0.25,
        "left_sq": 0.0625,
        "meeples": 6,
        "meeples_x_left": 1.5,
        "city_gap1": 1,
        "city_gap1_x_left": 0.25,
        "cities_held": 1,
        "cities_held_x_left": 0.25,
        "city_scarce": 1,
        "city_scarce_x_left": 0.25,
        "city_merge": 1,
        "city_merge_x_left": 0.25,
        # The CITY3 is one of the 2 tiles left; one draw finds it half the time.
        "city_likely": 0.5,
        "city_likely_x_left": 0.125,
        "open_held_sq": 1,
        # In the heuristic's model the CITY3 comes with chance `p`: it completes the city and
        # joins both, held one figure each, 3 points a seat instead of 1.
        **anchor(
            2,
            6,
            left=0.25,
            city_expect=p * (2 - 1) + p * (1 + p),
            figures_back=p,
            joins=p * (3 - 1),
        ),
    }
    assert t[0] == close(city)
    assert t[1] == close({**city, "to_move": 1, "to_move_x_left": 0.25})
    # Three one-tile cities (seat 0's of 0,1 and 2,1, seat 1's of 1,0) joined by a CITY4 at
    # 1,1: seat 0 holds it 2 to 1 (4 tiles and a coat of arms, open to 1,2; a second figure),
    # seat 1's meeple is outnumbered (idle). Of the 3 tiles left the CAP fits 1,2: one draw
    # finds it with chance 1/3. In the heuristic's model: `p`, and the city of 5 points is
    # worth 10 complete.
    p = fill(1, 3)
    city_expect = p * (10 - 5) + p * (1 + p)
    t = terms(joined_cities(second_meeple=True))
    assert t[0] == close(
        {
            "bias": 1,
            "left": 0.3,
            "left_sq": 0.09,
            "meeples": 5,
            "meeples_x_left": 1.5,
            "to_move": 1,
            "to_move_x_left": 0.3,
            "city_gap1": 5,
            "city_gap1_x_left": 1.5,
            "cities_held": 1,
            "cities_held_x_left": 0.3,
            "city_scarce": 5,
            "city_scarce_x_left": 1.5,
            "city_likely": 5 / 3,
            "city_likely_x_left": 5 / 3 * 0.3,
            "figures_extra": 1,
            "open_held_sq": 1,
            **anchor(3, 5, left=0.3, city_expect=city_expect, figures_back=2 * p),
        }
    )
    assert t[1] == close(
        {
            "bias": 1,
            "left": 0.3,
            "left_sq": 0.09,
            "meeples": 6,
            "meeples_x_left": 1.8,
            "figures_idle": 1,
            "figures_idle_x_left": 0.3,
            # Its meeple comes back if the city completes, though it scores nothing.
            **anchor(3, 6, left=0.3, figures_back=p),
        }
    )
    # Without seat 0's second meeple, both hold the city, one figure each: shared.
    t = terms(joined_cities(second_meeple=False))
    held = {
        "bias": 1,
        "left": 0.3,
        "left_sq": 0.09,
        "meeples": 6,
        "meeples_x_left": 1.8,
        "city_gap1": 5,
        "city_gap1_x_left": 1.5,
        "cities_held": 1,
        "cities_held_x_left": 0.3,
        "city_scarce": 5,
        "city_scarce_x_left": 1.5,
        "city_likely": 5 / 3,
        "city_likely_x_left": 5 / 3 * 0.3,
        "shared": 1,
        "open_held_sq": 1,
        **anchor(3, 6, left=0.3, city_expect=city_expect, figures_back=p),
    }
    assert t[0] == close({**held, "to_move": 1, "to_move_x_left": 0.3})
    assert t[1] == close(held)


def test_anchor_terms_of_a_dead_road_and_a_cloister_held_together():
    # Seat 0 holds the road of -1,0 to 1,0 (no tile left has a road edge: dead) and the
    # monastery of 0,-1; left: CAP, CAP, MON.
    g = position(
        BASE,
        2,
        [
            ("ROAD_WE", "1,0 0 meeple road:E"),
            ("ROAD_WE", "-1,0 0"),
            ("MON", "0,-1 0 meeple monastery"),
        ],
        bag=["ROAD_WE", "ROAD_WE", "MON", "CAP", "CAP", "MON"],
    )
    t = terms(g)
    # Of the monastery's 5 empty neighbours, the 3 on the frontier touch only fields (every
    # tile left fits), the 2 off it are taken as half the bag: 1 of 3.
    far = fill(1, 3)
    new = ("road_expect", "cloister_expect", "figures_back", "figures_back_x_left")
    new += ("joins", "open_pairs", "anchor")
    assert {k: v for k, v in t[0].items() if k in new} == close(
        anchor(3, 5, left=3 / 7, cloister_expect=3 + 2 * far, figures_back=far**2, open_pairs=1)
    )
    assert {k: v for k, v in t[1].items() if k in new} == close(anchor(3, 7))


# Every expansion but the Big Top, whose end-of-game circus draws an animal (a chance step).
NO_BIG_TOP = Rules(traders_builders="C3.1", toll_collectors=True, fortune_teller=True)


@pytest.mark.parametrize(
    "rules", [BASE, Rules(), NO_BIG_TOP], ids=["base", "river+abbot", "tb+toll+ft"]
)
def test_the_anchor_term_plus_the_score_if_the_game_ended_now_is_the_heuristics_value(rules):
    at = NAMES.index("anchor")
    rng = np.random.default_rng(5)
    for seed in range(3):
        g = Game(rules=rules, players=2, seed=seed)
        while not g.is_over():
            moves = g.legal_moves
            if len(g.move_stack) % 5 == 0:
                now = g.final_scores()["scores"]
                rows = _core.state_terms(g._state)
                want = [now[p] + rows[p][at] for p in range(2)]
                assert g.heuristic_scores() == pytest.approx(want, abs=1e-4)
            g.play(moves[rng.integers(len(moves))])


def joined_cities(second_meeple: bool) -> Game:
    """Three one-tile cities joined by a CITY4 at 1,1: seat 0's of 0,1 and (with
    ``second_meeple``) of 2,1, seat 1's of 1,0."""
    return position(
        BASE,
        2,
        [
            ("CAPS_NW", "0,1 180 meeple city:E"),
            ("CAP_ROAD_WE", "1,0 0 meeple city:N"),
            ("ROAD_WE", "2,0 0"),
            ("MON_ROAD", "-1,0 270"),
            ("CAP", "2,1 270 meeple city:W" if second_meeple else "2,1 270"),
            ("CITY4_SHIELD.watertower", "1,1 0"),
        ],
        bag=[
            "CAPS_NW",
            "CAP_ROAD_WE",
            "ROAD_WE",
            "MON_ROAD",
            "CAP",
            "CITY4_SHIELD.watertower",
            "CAP",
            "MON",
            "MON",
        ],
    )


def test_terms_follow_the_player_not_the_seat(tmp_path):
    """The same board with the road held by the other seat: the rows swap (all but whose
    turn it is)."""
    bag = ["ROAD_WE", "ROAD_WE", "MON", "CAP"]
    a = position(BASE, 2, [("ROAD_WE", "1,0 0 meeple road:E"), ("ROAD_WE", "-1,0 0")], bag=bag)
    b = position(BASE, 2, [("ROAD_WE", "1,0 0"), ("ROAD_WE", "-1,0 0 meeple road:E")], bag=bag)
    ta, tb = terms(a), terms(b)
    for row in (*ta, *tb):
        row.pop("to_move", None)
        row.pop("to_move_x_left", None)
    assert ta[0] == tb[1] and ta[1] == tb[0]
    assert ta[0]["road_open"] == 3
    # By the shipped linear parts alone (a network mixes every term), predictions differ only
    # by the weights of whose turn it is (seat 0's in both).
    models = _core.read_weights(SHIPPED.read_text())
    linear = _weights_file(tmp_path, _core.weights_text(models))
    w = dict(models)["base"]
    to_move = w[NAMES.index("to_move")] + ta[0]["left"] * w[NAMES.index("to_move_x_left")]
    pa, pb = a.predicted_scores(linear), b.predicted_scores(linear)
    assert (pa[0] - pa[1]) - (pb[1] - pb[0]) == pytest.approx(2 * to_move, abs=1e-3)


def test_expert_values_are_the_predicted_margin_after_each_move():
    g = position(BASE, 2, [("ROAD_WE", "1,0 0 meeple road:E")], bag=["ROAD_WE", "CAP", "MON"])
    g.draw("CAP")
    values = g.expert_values()
    assert set(values) == set(g.legal_moves)
    for m in list(values)[:10]:
        after = g.copy()
        after.play(m)
        pred = after.predicted_scores()
        assert values[m] == pytest.approx(pred[1] - pred[0], abs=1e-3)


def _weights_file(tmp_path, text):
    path = tmp_path / "w.weights"
    path.write_text(text)
    return str(path)


def test_weights_from_a_file_play_and_read_back_to_the_same_moves(tmp_path):
    text = SHIPPED.read_text()
    models = _core.read_weights(text)
    path = _weights_file(tmp_path, _core.weights_text(models, _core.read_networks(text)))
    shipped = _core.simulate(games=6, seed=3, policy="expert,greedy", rules=BASE)
    loaded = _core.simulate(games=6, seed=3, policy=f"expert:weights={path},greedy", rules=BASE)
    assert shipped["scores"][0] == loaded["scores"][0]
    assert _core.policy_seats(f"expert:weights={path}") == [f"expert:weights={path}"]


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda t: t.replace("terms 78", "terms 77"), "made for other evaluation terms"),
        (lambda t: t.replace("meeples 5e-1", "meeples x"), "is not a finite number"),
        (lambda t: "\n".join(t.splitlines()[:20]), "ends before term"),
        (
            lambda t: t.replace("carcassonne-evaluation 1", "carcassonne-evaluation 9"),
            "expected `carcassonne-evaluation 2` or `carcassonne-evaluation 1`",
        ),
    ],
)
def test_weights_for_other_terms_or_damaged_are_refused(tmp_path, damage, message):
    good = _core.weights_text([("base", [0.5] * len(NAMES))])
    assert len(NAMES) == 78
    path = _weights_file(tmp_path, damage(good))
    with pytest.raises(ValueError, match=message):
        _core.simulate(games=1, policy=f"expert:weights={path}")
    with pytest.raises(ValueError, match=message):
        ExpertAgent(weights=path)


def test_expert_policy_texts_are_checked():
    assert "expert" in POLICIES
    with pytest.raises(ValueError, match="unknown expert parameter `plies`"):
        _core.policy_seats("expert:plies=3")
    with pytest.raises(ValueError, match="depth must be 1 or 2"):
        _core.policy_seats("expert:depth=3")
    with pytest.raises(ValueError, match="top must be a whole number"):
        _core.policy_seats("expert:depth=2:top=0")
    assert _core.policy_seats("expert:top=4:depth=2") == ["expert:depth=2:top=4"]
    assert _core.policy_seats("expert:depth=1:top=8") == ["expert"]
    with pytest.raises(ValueError, match="weights file /nonexistent"):
        _core.policy_seats("expert:weights=/nonexistent")
    with pytest.raises(ValueError, match="eval=final|learned|not a valid eval"):
        _core.policy_seats("mcts:eval=clever")
    assert _core.policy_seats("mcts:200:eval=learned:depth=8") == [
        "mcts:playouts=200:depth=8:eval=learned"
    ]
    # eval=learned cuts rollouts at 2 decisions unless told otherwise; texts read back.
    assert _core.policy_seats("mcts:200:eval=learned") == ["mcts:playouts=200:eval=learned"]
    assert _core.policy_seats("mcts:200:depth=0:eval=learned") == [
        "mcts:playouts=200:depth=0:eval=learned"
    ]


def test_expert_and_learned_mcts_are_deterministic_per_seed_with_every_expansion():
    for policy in ("expert", "expert:depth=2:top=3", "mcts:playouts=20:depth=6:eval=learned"):
        a = _core.simulate(games=2, seed=11, policy=f"{policy},greedy", rules=EVERY)
        b = _core.simulate(games=2, seed=11, policy=f"{policy},greedy", rules=EVERY, threads=1)
        assert a["scores"][0] == b["scores"][0]


def test_a_native_expert_game_replays_move_for_move():
    moves = _core.game_moves(2, 77, "expert,greedy", rules=EVERY)
    g = Game(EVERY, 2, seed=77)
    for m in moves:
        g.play(m)
    assert g.is_over() and len(moves) > 60


def test_search_with_the_learned_evaluation():
    g = Game(BASE, 2, seed=5)
    found = g.search(60, seed=1, depth=5, eval="learned")
    assert found.move in g.legal_moves
    assert found.move == g.search(60, seed=1, depth=5, eval="learned").move
    with pytest.raises(ValueError, match="eval must be 'final' or 'learned'"):
        g.search(10, eval="learned:x")


def test_expert_agent_plays_beside_python_agents():
    g = play_game(BASE, [ExpertAgent(seed=1), native_agent("greedy")], seed=4)
    assert g.is_over()
    assert native_agent("expert").name == "expert"


# -- strength (not timed: results of seeded games) --------------------------------------------


def _wins(policy_a: str, policy_b: str, deals: int, rules: Rules, seed: int) -> float:
    """Wins of policy_a over deals played twice, seats swapped (a shared win counts 1/2)."""
    total = 0.0
    for seats, me in ((f"{policy_a},{policy_b}", 0), (f"{policy_b},{policy_a}", 1)):
        cols = _core.simulate(games=deals, seed=seed, policy=seats, rules=rules)
        w = np.frombuffer(cols["winners"][0], dtype="u1")
        total += float((((w >> me) & 1) * np.where((w & 3) == 3, 0.5, 1.0)).sum())
    return total


def test_expert_beats_greedy_in_at_least_18_of_20_base_games():
    assert _wins("expert", "greedy", 10, BASE, seed=2026) >= 18


def test_expert_beats_mcts_300_in_at_least_12_of_20_base_games():
    assert _wins("expert", "mcts:playouts=300", 10, BASE, seed=2027) >= 12


# -- training ----------------------------------------------------------------------------------


def test_ridge_fit_recovers_known_weights():
    rng = np.random.default_rng(0)
    x = np.column_stack([np.ones(500), rng.normal(size=(500, 3)), np.zeros(500)])
    y = x @ np.array([2.0, 1.0, -3.0, 0.5, 0.0])
    w = fit(x.astype(np.float32), y.astype(np.float32), ridge=0.0)
    assert w == pytest.approx([2.0, 1.0, -3.0, 0.5, 0.0], abs=1e-4)


def test_a_ridge_fit_with_a_prior_is_pulled_toward_it():
    rng = np.random.default_rng(1)
    x = np.column_stack([np.ones(400), rng.normal(size=(400, 2))])
    y = x @ np.array([1.0, 2.0, -1.0]) + rng.normal(scale=0.1, size=400)
    prior = np.array([0.0, 5.0, 5.0])
    free = fit(x, y, ridge=1e-6, prior=prior)
    pulled = fit(x, y, ridge=1e3, prior=prior)
    assert free == pytest.approx([1.0, 2.0, -1.0], abs=0.05)
    # A strong pull keeps the prior's weights; the bias is never pulled.
    assert pulled[1:] == pytest.approx([5.0, 5.0], abs=0.05)
    # The heuristic's reading: its anchor term and the open features' values now.
    w = anchor_prior()
    assert {NAMES[i] for i in np.flatnonzero(w)} == set(ANCHOR_READING)


def test_td_targets_bootstrap_from_the_next_sampled_turn_of_the_same_player_and_game():
    # Two players; game 7 sampled at 3 turns, game 8 at 1. Targets: points to the end.
    targets = np.array([10, 20, 6, 12, 1, 2, 5, 9], dtype=np.float32)
    games = np.array([7, 7, 7, 7, 7, 7, 8, 8], dtype=np.uint32)
    terms = np.array([[1.0, k] for k in range(8)], dtype=np.float32)
    w = np.array([0.5, 1.0])  # predictions 0.5, 1.5, ..., 7.5
    pred = terms @ w
    # lambda 1: the points to the end, unchanged.
    assert td_targets(terms, targets, games, w, 1.0).tolist() == targets.tolist()
    # lambda 0: points to the next sampled turn plus the prediction there.
    got = td_targets(terms, targets, games, w, 0.0)
    want = [10 - 6 + pred[2], 20 - 12 + pred[3], 6 - 1 + pred[4], 12 - 2 + pred[5], 1, 2, 5, 9]
    assert got == pytest.approx(want)
    # lambda 1/2 on seat 0 of game 7: the half-way mix, from the last sampled turn back.
    g4 = 1.0
    g2 = (6 - 1) + 0.5 * pred[4] + 0.5 * g4
    g0 = (10 - 6) + 0.5 * pred[2] + 0.5 * g2
    assert td_targets(terms, targets, games, w, 0.5)[[0, 2, 4]] == pytest.approx([g0, g2, g4])


def test_the_league_never_plays_the_held_out_heuristic():
    assert league(1, None, [], 100, 0, self_play=True) == [("greedy,greedy", 100)]
    the_ring = ring(7)
    assert len(set(the_ring)) == RING and ANCHOR not in the_ring
    assert ring(7) == the_ring and ring(8) != the_ring
    for number in range(1, 6):
        plan = league(number, None if number == 1 else "w", ["v"], 1000, 7)
        seats = [p for s, _ in plan for p in s.split(",")]
        assert ANCHOR not in seats
        # Every round plays every heuristic of the ring, and only those.
        assert {p for p in seats if p.startswith("heuristic")} == set(the_ring)
        assert sum(n for _, n in plan) == pytest.approx(1000, abs=12)
        # The training's expert keeps the play the shipped weights were made with.
        me = "greedy" if number == 1 else "expert:weights=w:width=32:net_top=0"
        assert me == "greedy" or me == trained_expert("w")
        assert f"{me},{me}" in [s for s, _ in plan]


def test_a_ranking_fit_on_centred_rows_recovers_known_weights_whatever_each_decision_shares():
    rng = np.random.default_rng(2)
    w_true = np.array([0.0, 1.5, -2.0, 0.25])
    decision = np.repeat(np.arange(300), 6)
    x = np.column_stack([np.ones(len(decision)), rng.normal(size=(len(decision), 3))])
    # Each decision adds luck its moves share (large against their differences): centring
    # cancels it, so the fit finds the weights without noise.
    luck = rng.normal(scale=50.0, size=300)[decision]
    y = x @ w_true + luck
    xc, yc = centred(x, y, decision)
    assert np.allclose(xc[:, 0], 0.0) and np.allclose(np.bincount(decision, weights=yc), 0.0)
    # The ranking rows have no level: it comes from the position rows (a bias of 3 here).
    level = np.column_stack([np.ones(50), rng.normal(size=(50, 3))])
    w = fit(level, 3.0 + level @ w_true, ridge=0.0, ranking=(xc, yc), rank_weight=1e3)
    assert w[1:] == pytest.approx(w_true[1:], abs=1e-3)
    assert w[0] == pytest.approx(3.0, abs=1e-2)
    assert r2_centred(xc, yc, w) == pytest.approx(1.0)
    # A decision of one move tells nothing apart: it drops out.
    xs, ys = centred(x[:7], y[:7], decision[:7])
    assert len(ys) == 6


def test_decision_rows_are_the_same_for_any_thread_count_and_their_moves_share_draws():
    args = dict(candidates=4, continuations=2, every=12, first=5)
    a = decisions(BASE, 3, 4, "greedy,expert", "expert,expert", None, threads=1, **args)
    b = decisions(BASE, 3, 4, "greedy,expert", "expert,expert", None, threads=2, **args)
    for x, y in zip(a, b, strict=True):
        assert np.array_equal(x, y)
    terms, targets, decision, theirs = a
    assert terms.shape == theirs.shape == (len(targets), len(NAMES)) and len(targets) > 8
    # The opponent's own terms: the bias term is 1 for each player.
    assert np.all(theirs[:, 0] == 1)
    # Rows of a decision are consecutive, at most 4 of them, numbered 0, 1, ...
    assert decision[0] == 0 and set(np.diff(decision.astype(int))) <= {0, 1}
    assert np.bincount(decision).max() <= 4
    # The bias term cancels in the mover's terms minus the opponent's.
    assert np.all(terms[:, 0] == 0)
    assert np.isfinite(targets).all()
    with pytest.raises(ValueError, match="candidate"):
        decisions(BASE, 1, 0, "greedy", "greedy", None, candidates=0)


def test_teacher_rows_are_deterministic_and_less_noisy_than_the_games_ends():
    args = dict(candidates=4, continuations=4, every=12, first=5)
    spread = {}
    for teacher in ("end", "rollouts", "depth2"):
        a = decisions(BASE, 3, 4, "greedy,expert", "expert,expert", None, teacher=teacher, **args)
        b = decisions(BASE, 3, 4, "greedy,expert", "expert,expert", None, teacher=teacher, **args)
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y)
        assert np.isfinite(a[1]).all()
        spread[teacher] = centred(a[0], a[1], a[2])[1].std()
    # A short look-ahead tells one decision's moves apart with far less noise than games
    # played to the end (about 9 points of spread against 1-2).
    assert spread["rollouts"] < spread["end"] / 2 and spread["depth2"] < spread["end"] / 2
    for bad, match in (
        (dict(teacher="heuristic"), "unknown teacher"),
        (dict(horizon=0), "horizon"),
    ):
        with pytest.raises(ValueError, match=match):
            decisions(BASE, 1, 0, "greedy", "greedy", None, **{"teacher": "rollouts", **bad})
    for bad in ("heuristic", "end+end", "end,", "rollouts+heuristic"):
        with pytest.raises(ValueError, match="teacher must be one of"):
            RankPlan(games=10, teacher=bad)
    plan = RankPlan(games=(10, 4), teacher="end+rollouts,depth2")
    assert [plan.games_of(n) for n in (2, 3, 4)] == [10, 4, 4]
    assert RankPlan(games=(7,)).games == 7 and RankPlan(games=7).games_of(5) == 7
    assert not RankPlan(games=(10, 0)).wants("base", 3)
    with pytest.raises(ValueError, match="ranking games must be 0 or more"):
        RankPlan(games=(10, -1))
    assert [plan.teacher_of(n) for n in (2, 3, 7)] == ["end+rollouts", "depth2", "depth2"]


def test_teachers_joined_by_plus_value_the_same_decisions_each(tmp_path):
    path = _weights_file(tmp_path, SHIPPED.read_text())
    rows = {}
    for teacher in ("end", "rollouts", "end+rollouts"):
        plan = RankPlan(games=RING, candidates=3, continuations=2, every=16, teacher=teacher)
        rows[teacher] = ranking_rows(BASE, plan, path, seed=3, number=2, threads=2)
    x, y, d, _ = rows["end+rollouts"]
    n = len(rows["end"][1])
    assert n > 0 and len(y) == 2 * n
    assert np.array_equal(x[:n], rows["end"][0]) and np.array_equal(x[n:], rows["rollouts"][0])
    assert np.array_equal(y[n:], rows["rollouts"][1])
    # The second teacher's decisions are numbered after the first's.
    assert d[n:].min() == d[:n].max() + 1


def test_a_tiny_training_run_is_reproducible_and_its_weights_play(tmp_path):
    a, rounds = train([BASE], games=40, rounds=2, seed=9, check_games=5, log=lambda s: None)
    b, _ = train([BASE], games=40, rounds=2, seed=9, check_games=0, threads=1, log=lambda s: None)
    assert a == b
    assert [r.policy for r in rounds] == ["greedy and the ring", "league (previous round)"]
    # With the ranking fit: reproducible too, and other weights.
    plan = RankPlan(games=RING, candidates=3, continuations=2, every=16, weight=10.0)
    lines: list[str] = []
    c, _ = train([BASE], games=40, rounds=2, seed=9, check_games=0, log=lines.append, rank=plan)
    d, _ = train([BASE], 40, rounds=2, seed=9, check_games=0, threads=1, log=print, rank=plan)
    assert c == d and c != a
    assert any("ranking:" in line for line in lines)
    assert rounds[0].fits[0].rows > 0 and 0 <= rounds[0].vs_greedy["base"] <= 1
    path = _weights_file(tmp_path, a)
    cols = _core.simulate(games=2, policy=f"expert:weights={path},greedy", rules=BASE)
    assert len(cols["scores"][0]) == 2 * 2 * 4


def test_train_command_writes_a_weights_file_and_refuses_bad_input(tmp_path):
    out = tmp_path / "w.weights"
    cmd = [
        sys.executable,
        "-m",
        "carcassonne",
        "train",
        "-n",
        "20",
        "--rounds",
        "1",
        "--rules",
        "river=off,abbot=off",
        "--check-games",
        "0",
        "-q",
        "--out",
        str(out),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert text.startswith("# carcassonne train --games 20 --rounds 1")
    assert [k for k, _ in _core.read_weights(text)] == ["base"]
    again = subprocess.run(cmd, capture_output=True, text=True)
    assert again.returncode == 2 and again.stderr.count("\n") == 1 and "exists" in again.stderr
    bad = subprocess.run(
        cmd[:6] + ["--rounds", "0", "--out", str(tmp_path / "x")], capture_output=True, text=True
    )
    assert bad.returncode == 2 and "--rounds must be from 1 to 20" in bad.stderr
    bad = subprocess.run(
        cmd[:6] + ["--rank-games", "10", "--rank-candidates", "0", "--out", str(tmp_path / "x")],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "--rank-candidates must be from 1 to 1000" in bad.stderr
    for opt, value, message in (
        ("--rank-teacher", "heuristic", "--rank-teacher must be one of end, rollouts, depth2"),
        ("--rank-horizon", "0", "--rank-horizon must be from 1 to 1000"),
        ("--model", "mlp:0", "--model: the model is `linear` or `mlp:H` with H from 1 to 64"),
        ("--model", "tree", "--model: the model is `linear` or `mlp:H`"),
        ("--rank-random", "-1", "--rank-random must be from 0 to 1000"),
        ("--rank-games", "10,x", "--rank-games must be a count from 0 to 1000000, or one per"),
        ("--rank-games", "10,-1", "--rank-games must be a count from 0 to 1000000, or one per"),
    ):
        bad = subprocess.run(
            cmd[:6] + ["--rank-games", "10", opt, value, "--out", str(tmp_path / "x")],
            capture_output=True,
            text=True,
        )
        assert bad.returncode == 2 and message in bad.stderr


def _random_net(rng: np.random.Generator, hidden: int) -> NetFit:
    """A network of ``hidden`` units with weights of the terms' scale (most units live on
    real positions)."""
    k = len(NAMES)
    return NetFit(
        rng.normal(0.0, 0.3, k),
        rng.normal(0.0, 0.05, (hidden, 2 * k)).astype(np.float32),
        rng.normal(0.0, 1.0, hidden).astype(np.float32),
        rng.normal(0.0, 1.0, hidden).astype(np.float32),
        0,
    )


def test_the_engines_network_values_are_numpys_on_real_positions(tmp_path):
    rng = np.random.default_rng(4)
    nf = _random_net(rng, 12)
    nets = {"base": (nf.w1.ravel().tolist(), nf.b1.tolist(), nf.v.tolist())}
    text = _core.weights_text([("base", nf.weights.tolist())], nets)
    assert text.startswith("carcassonne-evaluation 2\n")
    back = _core.read_networks(text)["base"]
    assert [np.array(a, dtype=np.float32) for a in back][1:] == [
        pytest.approx(nf.b1, abs=0),
        pytest.approx(nf.v, abs=0),
    ]
    path = _weights_file(tmp_path, text)
    w = np.array(_core.read_weights(text)[0][1], dtype=np.float64)
    live = 0
    for seed in range(2):
        g = Game(rules=BASE, players=2, seed=seed)
        while not g.is_over():
            moves = g.legal_moves
            if len(g.move_stack) % 4 == 0:
                t = np.array(_core.state_terms(g._state), dtype=np.float64)
                rest = net_rest(nf, t, t[::-1])
                live += int((rest != 0).sum())
                want = np.array(g.scores) + t @ w + rest
                assert g.predicted_scores(str(path)) == pytest.approx(want, abs=2e-3)
            g.play(moves[rng.integers(len(moves))])
    assert live > 20


def test_a_network_learns_what_a_linear_model_cannot():
    rng = np.random.default_rng(2)
    k = len(NAMES)

    def rows(n):
        x = np.zeros((n, k))
        x[:, 0] = 1.0
        x[:, 1:6] = rng.normal(size=(n, 5))
        o = x.copy()
        o[:, 1:6] = rng.normal(size=(n, 5))
        # Points to come: a contest between the player's term 1 and the other's, and what the
        # other's term 3 takes away (the network reads it: the linear part reads only x).
        return x, o, 2.0 * x[:, 2] - 1.5 * o[:, 3] + 3.0 * np.maximum(x[:, 1] - o[:, 1], 0.0)

    train_rows, held_rows = rows(3000), rows(600)
    start = fit(train_rows[0], train_rows[2])
    a = fit_net(train_rows, held_rows, None, None, start, 8, rate=1e-2, decay=1e-4, steps=800)
    b = fit_net(train_rows, held_rows, None, None, start, 8, rate=1e-2, decay=1e-4, steps=800)
    assert np.array_equal(a.w1, b.w1) and a.step == b.step > 0
    x, o, y = held_rows
    linear = ((x @ start - y) ** 2).mean()
    # The written weights (linear part and network) predict what was fitted.
    net = ((x @ a.weights + net_rest(a, x, o) - y) ** 2).mean()
    assert net < 0.01 * linear


def test_standardised_terms_go_both_ways():
    rng = np.random.default_rng(5)
    x = np.column_stack(
        [np.ones(50), rng.normal(3.0, 2.0, 50), np.full(50, 7.0), rng.normal(size=50)]
    )
    st = Standardised(x)
    assert st.live.tolist() == [True, True, False, True]
    z = st.z(x)
    assert z[:, 0].tolist() == [1.0] * 50 and not z[:, 2].any()
    assert np.allclose(z[:, [1, 3]].mean(axis=0), 0.0) and np.allclose(
        z[:, [1, 3]].std(axis=0), 1.0
    )
    # A difference of rows keeps no level: only scaled, no bias.
    d = st.z(x[:10] - x[10:20], centred=True)
    assert not d[:, 0].any() and np.allclose(d[:, 1], (x[:10, 1] - x[10:20, 1]) / st.std[1])
    # The same predictions on either scale; a dead term's weight moves into the bias.
    w = np.array([1.5, -0.25, 4.0, 2.0])
    beta = st.beta(w)
    assert z @ beta == pytest.approx(x @ w)
    back = st.weights(beta)
    assert back[1:].tolist() == pytest.approx([-0.25, 0.0, 2.0])
    assert x @ back == pytest.approx(x @ w)


def test_model_classes_parse():
    assert model_class("linear") == 0 and model_class("mlp:16") == 16
    for bad in ("mlp", "mlp:0", "mlp:65", "mlp:x", "net:4"):
        with pytest.raises(ValueError, match="linear` or `mlp:H"):
            model_class(bad)
    with pytest.raises(ValueError, match="needs --rank-games"):
        train([BASE], games=4, rounds=1, hidden=4, log=lambda s: None)


def test_a_tiny_training_run_with_a_network_is_reproducible_and_plays(tmp_path):
    plan = RankPlan(games=RING, candidates=3, continuations=2, every=16, weight=10.0, random=2)
    lines: list[str] = []
    args = dict(games=40, rounds=2, seed=9, check_games=0, rank=plan, hidden=4)
    a, _ = train([BASE], log=lines.append, **args)
    b, _ = train([BASE], threads=1, log=lambda s: None, **args)
    assert a == b and a.startswith("carcassonne-evaluation 2\n")
    assert any("network of 4 units" in line for line in lines)
    assert len(_core.read_networks(a)["base"][1]) == 4
    path = _weights_file(tmp_path, a)
    cols = _core.simulate(games=2, policy=f"expert:weights={path},greedy", rules=BASE)
    assert len(cols["scores"][0]) == 2 * 2 * 4


def test_round_three_is_taught_by_round_two_with_its_own_ranking_games():
    # Round 2 ranks from games to the end, round 3 from round 2's network expert's
    # look-ahead, each round with its own number of ranking games.
    plan = RankPlan(
        games=(RING, 2 * RING),
        candidates=3,
        continuations=2,
        every=16,
        weight=10.0,
        teacher="end,depth2",
        random=2,
    )
    lines: list[str] = []
    train([BASE], 40, rounds=3, seed=9, check_games=0, rank=plan, hidden=4, log=lines.append)
    ranking = [line for line in lines if " ranking: " in line]
    assert [line.split()[1] for line in ranking] == ["2", "3"]
    assert "continuations" in ranking[0] and "depth-2" in ranking[1]
    decisions = [int(line.split("ranking: ")[1].split()[0].replace(",", "")) for line in ranking]
    assert decisions[1] > decisions[0] > 0
    assert sum("network of 4 units" in line for line in lines) == 2


def test_a_round_without_new_ranking_games_keeps_the_ranked_models_fit():
    # `--rank-games N,0`: round 3 plays no ranking games, so the model that ranks keeps round
    # 2's fit (network and all) while the other model is refitted to three rounds of rows.
    plan = RankPlan(
        games=(RING, 0), candidates=3, continuations=2, every=16, weight=10.0, keys=("base",)
    )
    lines: list[str] = []
    text, history = train(
        [BASE, Rules()], 30, rounds=3, seed=9, check_games=0, rank=plan, hidden=4, log=lines.append
    )
    assert [line.split()[1] for line in lines if " ranking: " in line] == ["2"]
    assert [line.split()[1] for line in lines if "network of 4 units" in line] == ["2"]
    assert sum("keeps its fit of round 2" in line for line in lines) == 1
    base = [[f.weights for f in r.fits if f.key == "base"][0] for r in history]
    other = [[f.weights for f in r.fits if f.key != "base"][0] for r in history]
    assert base[2] == base[1] != base[0] and other[2] != other[1]
    two, _ = train(
        [BASE], 30, rounds=2, seed=9, check_games=0, rank=plan, hidden=4, log=lambda _: None
    )
    # The base game's model in the three-round file is round 2's, its network included.
    assert two.split("model ")[1] in text
