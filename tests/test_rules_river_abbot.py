"""River rules R1-R7 and Abbot rules A1-A5 (docs/rules.md), position by position.

Games use ``chance="manual"`` (the test names each drawn tile) and the notation of
docs/notation.md. With the River the spring lies at 0,0 unturned (river leaving east): the
C3 spring RV_SPRING carries a road from W to N over the spring (fields NNW inside the road's
curve, NNE between road and river, ESE south of the river); the C2 spring RV_SPRING_C2
(``river_edition="C2"``) has one field all round. The C3 lake RV_LAKE has a monastery, the C2
lake RV_LAKE_C2 none. Without the River the base start tile CAP_ROAD_WE lies at 0,0 (city N,
road W-E, field S).
``play_out`` finishes a game as in test_rules_base.py: the remaining tiles are placed without
figures, away from every occupied feature, so final scores are exact.
"""

from __future__ import annotations

import pytest

from carcassonne import DrawError, Game, IllegalMoveError, InvalidMoveError, Rules
from carcassonne.scenario import position, turn

from rulehelpers import legal_texts, only, play_out, refused

# -- helpers ------------------------------------------------------------------------------------

SOURCES = ("roads", "cities", "monasteries", "gardens", "fields")


RIVER = Rules(river=True, abbot=False)
RIVER_C2 = Rules(river=True, abbot=False, river_edition="C2")
ABBOT = Rules.base(abbot=True)


def fields_at(g: Game, x: int, y: int) -> list:
    return [f for f in g.features() if f.kind == "field" and (x, y) in f.tiles]


# -- River ----------------------------------------------------------------------------------------

RIVER_TILES = {
    "RV_LAKE",
    "RV_CITIES",
    "RV_CITY_ROAD",
    "RV_MON_ROAD",
    "RV_BRIDGE",
    "RV_STRAIGHT",
    "RV_STRAIGHT.shed",
    "RV_CORNER_CITY.watertower",
    "RV_CURVE_ROAD.robbers",
    "RV_CURVE.garden",
    "RV_CURVE.farmhouse",
}

# A legal river from the spring (0,0, flowing east) to the lake: right, left, right, left.
RIVER_PATH = [
    ("RV_MON_ROAD", "1,0 0"),
    ("RV_CURVE.garden", "2,0 0"),  # W -> S: right turn
    ("RV_CURVE.farmhouse", "2,-1 180"),  # N -> E: left turn
    ("RV_STRAIGHT", "3,-1 0"),
    ("RV_CURVE_ROAD.robbers", "4,-1 0"),  # W -> S: right turn
    ("RV_CORNER_CITY.watertower", "4,-2 270"),  # N -> E: left turn
    ("RV_CITIES", "5,-2 0"),
    ("RV_CITY_ROAD", "6,-2 0"),
    ("RV_BRIDGE", "7,-2 90"),
    ("RV_STRAIGHT.shed", "8,-2 0"),
]
LAKE = ("RV_LAKE", "9,-2 0")


def land(bag: dict[str, int]) -> dict[str, int]:
    return {t: n for t, n in bag.items() if not t.startswith("RV_")}


def test_R1_twelve_river_tiles_spring_at_origin():
    """R1: 12 river tiles: the spring lies at 0,0 and the other 11 are in the bag. Each
    edition brings its own spring and lake (C3 by default)."""
    g = position(RIVER)
    assert [(p.x, p.y, p.tile, p.rotation) for p in g.board] == [(0, 0, "RV_SPRING", 0)]
    river_bag = {t: n for t, n in g.bag.items() if t.startswith("RV_")}
    assert river_bag == {t: 1 for t in RIVER_TILES}
    assert g.labels(0, 0) == ["river:E", "road:N", "field:NNW", "field:NNE", "field:ESE"]
    g = position(RIVER_C2)
    assert [(p.x, p.y, p.tile, p.rotation) for p in g.board] == [(0, 0, "RV_SPRING_C2", 0)]
    river_bag = {t: n for t, n in g.bag.items() if t.startswith("RV_")}
    assert river_bag == {t: 1 for t in RIVER_TILES - {"RV_LAKE"} | {"RV_LAKE_C2"}}
    assert g.labels(0, 0) == ["river:E", "field:NNW"]


def test_R1_river_edition_needs_the_river():
    """The River's edition is an option of the River: choosing C2 without the River is
    refused with a clear message; the default (C3) is accepted either way."""
    with pytest.raises(ValueError, match="river_edition='C2' needs river=True"):
        Rules.base(river_edition="C2")
    with pytest.raises(ValueError, match="river_edition must be one of|'C3', 'C2'"):
        Rules(river_edition="C1")
    assert Rules.base().river_edition == "C3"
    g = Game(Rules(river_edition="C2"), players=2, seed=3)
    assert g.record()["rules"]["river_edition"] == "C2"
    assert Game.from_record(g.to_json()).fingerprint() == g.fingerprint()


def test_R2_shuffle_keeps_all_four_start_type_tiles():
    """R2 (default river_start="shuffle"): the base start tile is shuffled in with the land
    tiles: all 72 land tiles are in the bag, all 4 CAP_ROAD_WE-type copies among them."""
    g = position(Rules(river=True, abbot=False, river_start="shuffle"))
    lb = land(g.bag)
    assert sum(lb.values()) == 72
    assert sum(n for t, n in lb.items() if t.split(".")[0] == "CAP_ROAD_WE") == 4
    assert lb["CAP_ROAD_WE"] == 2
    assert position(RIVER).bag == g.bag  # shuffle is the default


def test_R2_discard_option_removes_the_start_tile():
    """R2 option river_start="discard": the base start tile leaves the game: 71 land tiles,
    3 CAP_ROAD_WE-type copies."""
    g = position(Rules(river=True, abbot=False, river_start="discard"))
    lb = land(g.bag)
    assert sum(lb.values()) == 71
    assert sum(n for t, n in lb.items() if t.split(".")[0] == "CAP_ROAD_WE") == 3
    assert lb["CAP_ROAD_WE"] == 1


def test_R3_river_tiles_first_lake_last_then_land():
    """R3: river tiles are drawn first, the lake last of them; land tiles only after it.
    A refused draw changes nothing."""
    g = position(RIVER)
    for i, (tile, move) in enumerate(RIVER_PATH):
        left = {t for t, _ in RIVER_PATH[i:]}
        assert set(g.drawable) == left
        for bad in ("CAP", "CAP_ROAD_WE", "RV_LAKE"):
            fp = g.fingerprint()
            with pytest.raises(DrawError):
                g.draw(bad)
            assert g.fingerprint() == fp
        turn(g, tile, move)
    assert g.drawable == {"RV_LAKE": 1}
    fp = g.fingerprint()
    with pytest.raises(DrawError):
        g.draw("MON")
    assert g.fingerprint() == fp
    turn(g, *LAKE)
    assert g.drawable == land(g.bag) and sum(g.drawable.values()) == 72
    with pytest.raises(DrawError):
        g.draw("RV_STRAIGHT")  # already played
    assert g.draw("CAP") is True


def test_R3_seeded_bag_draws_river_then_lake_then_land():
    """R3 with the seeded bag: 10 river tiles in some order, then the lake, then land."""
    orders = set()
    for seed in range(4):
        g = Game(RIVER, players=2, seed=seed)
        while "RV_LAKE" not in g.record()["draws"]:
            g.play(g.legal_moves[0])
        g.play(g.legal_moves[0])
        draws = g.record()["draws"]
        i = draws.index("RV_LAKE")
        assert i == 10
        assert set(draws[:10]) == RIVER_TILES - {"RV_LAKE"}
        assert not any(t.startswith("RV_") for t in draws[11:]) and len(draws) == 12
        orders.add(tuple(draws[:10]))
    assert len(orders) > 1


def test_R4_river_tile_must_continue_the_river():
    """R4: a river tile goes only at the open river end, its river facing it; edges that
    would otherwise match are not enough."""
    g = position(RIVER)
    assert g.draw("RV_STRAIGHT") is True
    assert {t.split()[0] for t in legal_texts(g)} == {"1,0"}
    refused(g, "0,1 0")  # fields match (spring N / straight S) but the river does not
    refused(g, "0,-1 0")
    refused(g, "1,0 90")  # at the end, but the river runs N-S
    g.play("1,0 0")
    assert g.draw("RV_STRAIGHT.shed") is True
    refused(g, "1,1 0")  # touches 1,0 through fields only
    refused(g, "0,1 0")  # touches the spring through fields only
    refused(g, "1,-1 0")
    assert {t.split()[0] for t in legal_texts(g)} == {"2,0"}
    g.play("2,0 0")
    assert g.draw("RV_CITIES") is True
    assert {t.split()[0] for t in legal_texts(g)} == {"3,0"}


def test_R5_two_right_turns_in_a_row_refused():
    """R5: after a right turn, the next curve must turn left."""
    g = position(RIVER)
    turn(g, "RV_STRAIGHT", "1,0 0")
    assert g.draw("RV_CURVE.garden") is True
    # the first curve may turn either way
    assert {t for t in legal_texts(g) if len(t.split()) == 2} == {"2,0 0", "2,0 90"}
    g.play("2,0 0")  # heading E, turns right (S)
    assert g.draw("RV_CURVE.farmhouse") is True
    refused(g, "2,-1 90")  # heading S, N -> W: right again
    assert {t for t in legal_texts(g) if len(t.split()) == 2} == {"2,-1 180"}
    g.play("2,-1 180")  # left: allowed
    assert g.draw("RV_CURVE_ROAD.robbers") is True
    refused(g, "3,-1 90")  # heading E, W -> N: left again
    assert {t for t in legal_texts(g) if len(t.split()) == 2} == {"3,-1 0"}


@pytest.mark.parametrize("river_turns", ["consecutive", "strict"])
def test_R5_two_left_turns_with_straight_between(river_turns):
    """R5: a straight river tile between two left turns makes the second legal (default
    ``river_turns="consecutive"``: only turns placed one after the other count); the option
    ``strict`` counts turns through straight tiles and refuses it."""
    g = position(RIVER.replace(river_turns=river_turns))
    turn(g, "RV_CURVE.garden", "1,0 90")  # heading E, W -> N: left
    turn(g, "RV_STRAIGHT", "1,1 90")  # heading N, straight
    assert g.draw("RV_CURVE.farmhouse") is True
    curves = {t for t in legal_texts(g) if len(t.split()) == 2}
    if river_turns == "strict":
        refused(g, "1,2 180")  # S -> W: left again
        assert curves == {"1,2 270"}
        g.play("1,2 270")  # S -> E: right
        return
    assert curves == {"1,2 0", "1,2 270"}
    g.play("1,2 0")  # S -> W: left, legal after the straight tile
    assert g.draw("RV_CURVE_ROAD.robbers") is True
    # ... but a left turn straight after it is not (heading W, E -> S); right is.
    refused(g, "0,2 270")
    assert {t for t in legal_texts(g) if len(t.split()) == 2} == {"0,2 180"}


@pytest.mark.parametrize("river_turns", ["consecutive", "strict"])
def test_R5_two_right_turns_in_a_row_refused_under_both_readings(river_turns):
    """R5: two river tiles placed one after the other never turn the same way."""
    g = position(RIVER.replace(river_turns=river_turns))
    turn(g, "RV_STRAIGHT", "1,0 0")
    turn(g, "RV_CURVE.garden", "2,0 0")  # heading E, turns right (S)
    assert g.draw("RV_CURVE.farmhouse") is True
    refused(g, "2,-1 90")  # right again


def test_R5_clear_ahead_needs_room_before_the_river_not_a_turn_count():
    """R5, ``river_turns="clear_ahead"`` (JCloisterZone's reading): a river tile may not send
    the river toward placed tiles: the positions beside the river's next one and the three in
    the row beyond must be empty. Left, straight, left is allowed (as under ``consecutive``);
    two left turns in a row would head back beside the river and are refused."""
    g = position(RIVER.replace(river_turns="clear_ahead"))
    turn(g, "RV_CURVE.garden", "1,0 90")  # heading E, W -> N: left
    turn(g, "RV_STRAIGHT", "1,1 90")  # heading N, straight
    assert g.draw("RV_CURVE.farmhouse") is True
    assert {t for t in legal_texts(g) if len(t.split()) == 2} == {"1,2 0", "1,2 270"}
    g.play("1,2 0")  # S -> W: left; next (0,2): (0,1), (0,3), (-1,1..3) empty
    assert g.draw("RV_CURVE_ROAD.robbers") is True
    # left again (W -> S) heads for (0,1), beside the tile at (1,1)
    with pytest.raises(IllegalMoveError, match="room") as e:
        g.play("0,2 270")
    assert e.value.rule == "R5"
    assert {t for t in legal_texts(g) if len(t.split()) == 2} == {"0,2 180"}


@pytest.mark.parametrize("river_turns", ["consecutive", "clear_ahead"])
def test_R5_clear_ahead_refuses_what_consecutive_allows(river_turns):
    """Right, straight, right, straight, right: ``consecutive`` allows the last right turn (a
    straight tile resets), ``clear_ahead`` refuses it: the river's next position (-1,-1) has
    the spring two rows ahead (0,0). The left turn is allowed under both."""
    g = position(RIVER.replace(river_turns=river_turns))
    turn(g, "RV_CURVE.garden", "1,0 0")  # heading E, W -> S: right
    turn(g, "RV_STRAIGHT", "1,-1 90")
    turn(g, "RV_CURVE.farmhouse", "1,-2 90")  # N -> W: right
    turn(g, "RV_STRAIGHT.shed", "0,-2 0")
    assert g.draw("RV_CURVE_ROAD.robbers") is True
    curves = {t for t in legal_texts(g) if len(t.split()) == 2}
    if river_turns == "consecutive":
        assert curves == {"-1,-2 180", "-1,-2 270"}
    else:
        assert curves == {"-1,-2 270"}
        refused(g, "-1,-2 180")  # E -> N: right, toward the spring


def test_R5_river_turns_needs_the_river():
    with pytest.raises(ValueError, match="river_turns has no effect without the River"):
        Rules.base(river_turns="strict")
    with pytest.raises(ValueError, match="river_turns"):
        Rules(river_turns="sometimes")


def test_R6_no_figure_on_the_river():
    """R6: no figure ever stands on the river (spring, straight, lake)."""
    g = position(RIVER)
    assert g.draw("RV_STRAIGHT") is True
    assert not any("river" in t for t in legal_texts(g))
    refused(g, "1,0 0 meeple river:W")
    refused(g, "1,0 0 meeple river:E")
    g.play("1,0 0")
    assert g.draw("RV_CURVE.garden") is True
    refused(g, "2,0 0 meeple river:W")
    refused(g, "2,0 0 abbot river:W")


def test_R6_spring_field_wraps_round_the_water():
    """R6, C2 spring: its one field joins both banks of the river next to it."""
    g = position(RIVER_C2)
    turn(g, "RV_STRAIGHT", "1,0 0 meeple field:NNW")  # P0 farmer on the north bank
    assert len(fields_at(g, 1, 0)) == 1  # both banks are one field
    assert g.draw("RV_STRAIGHT.shed") is True
    refused(g, "2,0 0 meeple field:ESE")  # south bank: same field via spring
    refused(g, "2,0 0 meeple field:NNW")
    g.play("2,0 0")


def test_R6_C3_spring_road_keeps_the_banks_apart():
    """R6, C3 spring: the road W-N over the spring cuts its field, so the north bank (NNE
    between road and river) and the south bank (ESE) of the next tile stay apart."""
    g = position(RIVER)
    turn(g, "RV_STRAIGHT", "1,0 0 meeple field:NNW")  # P0 farmer on the north bank
    assert len(fields_at(g, 1, 0)) == 2
    assert g.draw("RV_STRAIGHT.shed") is True
    refused(g, "2,0 0 meeple field:NNW")  # north bank: P0's field
    assert "2,0 0 meeple field:ESE" in legal_texts(g)  # south bank: another field
    g.play("2,0 0 meeple field:ESE")
    assert len([f for f in g.features() if f.kind == "field" and f.figures]) == 2


def test_R1_C3_spring_road_scores_like_any_road():
    """C3 spring: its road (W to N over the spring) is an ordinary road: after the river,
    a village at 0,1 (thief on its road S) and one at -1,0 complete it: 3 tiles, 3 points."""
    g = position(RIVER)
    for tile, move in RIVER_PATH:
        turn(g, tile, move)
    turn(g, *LAKE)
    turn(g, "CROSS3", "0,1 0 meeple road:S")  # P1: road S meets the spring's road N
    only(g, {})
    turn(g, "CROSS3", "-1,0 0")  # P0: road E meets the spring's road W
    only(g, {1: {"roads": 3}})
    assert g.figures() == []


def test_R6_river_splits_fields():
    """R6: away from the spring and lake, the banks of the river are different fields."""
    g = position(RIVER)
    turn(g, "RV_CITY_ROAD", "1,0 0")  # city on the north bank cuts it off the spring;
    # the road on the south bank cuts that bank too
    turn(g, "RV_STRAIGHT", "2,0 0 meeple field:NNW")  # P1 farmer, north bank
    assert len(fields_at(g, 2, 0)) == 2
    assert g.draw("RV_STRAIGHT.shed") is True
    refused(g, "3,0 0 meeple field:NNW")  # north bank: occupied
    assert "3,0 0 meeple field:ESE" in legal_texts(g)  # south bank: a different field
    g.play("3,0 0 meeple field:ESE")
    farmers = [f for f in g.features() if f.kind == "field" and f.figures]
    assert len(farmers) == 2


@pytest.mark.parametrize("edition", ["C2", "C3"])
def test_R6_bridge_tile_river_and_road_split_four_fields(edition):
    """R6: on the bridge tile the river separates the banks; the east quadrants stay apart.
    The west quadrants meet again round the C2 spring; the C3 spring's road keeps them apart."""
    g = position(Rules(river=True, abbot=False, river_edition=edition))
    turn(g, "RV_BRIDGE", "1,0 90 meeple field:NNE")  # P0 farmer on the NE quadrant
    # C2: NW+SW (via the spring), NE, SE; C3: four
    assert len(fields_at(g, 1, 0)) == {"C2": 3, "C3": 4}[edition]
    assert g.draw("RV_STRAIGHT") is True  # P1
    assert "2,0 0 meeple field:ESE" in legal_texts(g)  # south bank: not P0's field
    refused(g, "2,0 0 meeple field:NNW")  # north bank: P0's NE quadrant
    g.play("2,0 0 meeple field:ESE")


def test_R6_lake_field_wraps_round_the_water():
    """R6: the lake's field joins both banks of the river's last tile."""
    g = position(RIVER)
    for tile, move in RIVER_PATH[:-1]:
        turn(g, tile, move)
    turn(g, "RV_STRAIGHT.shed", "8,-2 0 meeple field:NNW")  # farmer on the north bank
    assert len(fields_at(g, 8, -2)) == 2
    assert g.draw("RV_LAKE") is True
    refused(g, "9,-2 0 meeple field:NNW")  # joins the north bank
    refused(g, "9,-2 0 meeple river:W")
    g.play("9,-2 0")
    assert len(fields_at(g, 8, -2)) == 1


@pytest.mark.parametrize("edition", ["C2", "C3"])
def test_R1_C3_lake_monastery(edition):
    """C3 lake: a monastery stands on the lake shore; a monk there is an ordinary monk (B22,
    B26): at the end, with only the last river tile beside it, it scores 1 + 1 = 2. The C2
    lake has no monastery to take."""
    g = position(Rules(river=True, abbot=False, river_edition=edition))
    for tile, move in RIVER_PATH:
        turn(g, tile, move)
    lake = {"C2": "RV_LAKE_C2", "C3": "RV_LAKE"}[edition]
    assert g.draw(lake) is True
    p = g.turn
    if edition == "C2":
        with pytest.raises(InvalidMoveError, match="no segment `monastery`"):
            g.play("9,-2 0 meeple monastery")
        assert legal_texts(g) == {"9,-2 0", "9,-2 0 meeple field:NNW"}
        return
    assert legal_texts(g) == {"9,-2 0", "9,-2 0 meeple field:NNW", "9,-2 0 meeple monastery"}
    g.play("9,-2 0 meeple monastery")
    only(g, {})
    play_out(g)
    only(g, {p: {"monasteries": 2}})


def test_R7_traders_and_builders_river_tile_joins_the_river():
    """R7: with Traders & Builders C3.1 its river tile is shuffled in with the River's tiles
    (drawable during the river phase); without the River it is left out."""
    g = position(Rules(traders_builders="C3.1"))
    assert g.drawable.get("TB3_T_river_cNE_chicken") == 1
    assert set(g.drawable) == (RIVER_TILES - {"RV_LAKE"}) | {"TB3_T_river_cNE_chicken"}
    g = position(Rules(river=False, traders_builders="C3.1"))
    assert "TB3_T_river_cNE_chicken" not in g.bag
    assert sum(g.bag.values()) == 71 + 23
    g = position(Rules(river=False, traders_builders="C2"))
    assert sum(g.bag.values()) == 71 + 24


def test_R3_R6_full_river_then_land_game_scores():
    """R1-R6 together: the whole river, then a land tile completes the river's city cap."""
    g = position(RIVER)
    for tile, move in RIVER_PATH:
        turn(g, tile, move)
    turn(g, *LAKE)
    assert g.turn == 1
    # RV_CITY_ROAD at 6,-2 has its city cap north (open at 6,-1)
    turn(g, "CAP", "6,-1 180 meeple city:S")
    only(g, {1: {"cities": 4}})


# -- Abbot ----------------------------------------------------------------------------------------


def test_A1_abbot_in_supply_only_with_option():
    """A1: each player has one abbot besides the 7 meeples, only with the Abbot option."""
    assert position(ABBOT, 3).supply(2) == {"meeple": 7, "abbot": 1}
    assert position(Rules(), 2).supply(0) == {"meeple": 7, "abbot": 1}
    assert position(Rules.base()).supply(0) == {"meeple": 7}
    cat = Game(Rules()).catalogue
    gardens = {
        t: cat.tile(t)
        for t in cat.tile_ids()
        if any(s["kind"] == "garden" for s in cat.tile(t)["segments"])
    }
    assert sum(d["count"] for d in gardens.values() if d["set"] == "base") == 8
    assert sum(d["count"] for d in gardens.values() if d["set"] == "river") == 1
    g = position(Rules.base())
    assert g.draw("MON") is True
    refused(g, "0,-1 0 abbot monastery")
    g2 = position(Rules.base())
    assert g2.draw("CAP.garden") is True
    refused(g2, "0,1 180 abbot garden")


def test_A1_ordinary_meeple_never_on_garden_garden_does_not_split_field():
    """A1: a meeple may not stand on a garden; the garden lies in the one field of its tile."""
    g = position(ABBOT)
    assert g.draw("CAP.garden") is True
    assert not any(" meeple garden" in t for t in legal_texts(g))
    refused(g, "0,1 180 meeple garden")
    assert "0,1 180 abbot garden" in legal_texts(g)
    assert "0,1 180 meeple field:NNW" in legal_texts(g)
    g.play("0,1 180 meeple field:NNW")
    assert sorted(g.labels(0, 1)) == ["city:S", "field:NNW", "garden"]
    assert len(fields_at(g, 0, 1)) == 1
    # ROAD_WE.garden: still two fields, one each side of the road
    assert g.draw("ROAD_WE.garden") is True
    refused(g, "1,0 0 meeple garden")
    g.play("1,0 0")
    assert sorted(g.labels(1, 0)) == ["field:ESE", "field:NNW", "garden", "road:E"]


def test_A2_abbot_only_on_monastery_or_garden():
    """A2: the abbot goes on the monastery or garden of the tile just placed, nowhere else;
    there is only one."""
    g = position(ABBOT)
    assert g.draw("CAP") is True
    refused(g, "0,1 180 abbot city:S")
    refused(g, "0,1 180 abbot field:NNW")
    g.play("0,1 180")
    assert g.draw("ROAD_WE") is True
    refused(g, "1,0 0 abbot road:E")
    refused(g, "1,0 0 abbot field:NNW")
    assert not any(" abbot " in t for t in legal_texts(g))
    g.play("1,0 0")
    assert g.draw("MON") is True  # P0
    assert "0,-1 0 abbot monastery" in legal_texts(g)
    g.play("0,-1 0 abbot monastery")
    assert g.supply(0) == {"meeple": 7, "abbot": 0}
    assert [(f.player, f.role, f.x, f.y, f.segment) for f in g.figures()] == [
        (0, "abbot", 0, -1, "monastery")
    ]
    turn(g, "ROAD_WE", "-1,0 0")  # P1
    assert g.draw("CAP.garden") is True  # P0: the abbot is out already
    assert not any(" abbot " in t for t in legal_texts(g))
    refused(g, "1,1 0 abbot garden")
    g.play("1,1 0")


def test_A2_abbot_on_river_garden_and_monastery():
    """A2 with the River: the river's garden and monastery take the abbot; not the river."""
    g = position(Rules())
    assert g.draw("RV_CURVE.garden") is True
    assert "1,0 0 abbot garden" in legal_texts(g)
    refused(g, "1,0 0 meeple garden")
    g.play("1,0 0 abbot garden")
    assert g.draw("RV_MON_ROAD") is True
    assert "1,-1 90 abbot monastery" in legal_texts(g)
    g.play("1,-1 90 abbot monastery")
    assert [(f.player, f.feature) for f in g.figures()] == [(0, "garden"), (1, "monastery")]


def _ring(g: Game, centre: tuple[str, str], action: str) -> None:
    """Centre tile at 0,-1 (player 0, with ``action``), then seven of its eight neighbours
    (0,0 is the start tile); 1,-2 is left for the caller. Seven moves: player 1 is next."""
    tile, rot = centre
    turn(g, tile, f"0,-1 {rot} {action}".strip())
    turn(g, "ROAD_WE", "-1,0 0")
    turn(g, "ROAD_WE", "1,0 0")
    turn(g, "CAP", "-1,-1 270")
    turn(g, "CAP", "1,-1 90")
    turn(g, "CAP.farmhouse", "-1,-2 180")
    if tile == "MON":
        turn(g, "CAP.watertower", "0,-2 180")
    else:  # CAP.garden turned 180 has its city S: close it with a cap facing N
        turn(g, "CAP.watertower", "0,-2 0")


def test_A3_garden_complete_scores_9_abbot_returns():
    """A3: a garden with its 8 neighbours placed scores 9 to the abbot's owner."""
    g = position(ABBOT)
    _ring(g, ("CAP.garden", "180"), "abbot garden")
    only(g, {})
    turn(g, "MON.shed", "1,-2 0")  # player 1 completes it
    only(g, {0: {"gardens": 9}})
    assert g.figures() == []
    assert g.supply(0) == {"meeple": 7, "abbot": 1}


def test_A3_garden_placed_into_full_hole_scores_at_once():
    """A3 (+ B11): an abbot put on a garden that its own tile completes scores 9 at once."""
    g = position(ABBOT)
    turn(g, "ROAD_WE", "-1,0 0")
    turn(g, "ROAD_WE", "1,0 0")
    turn(g, "CAP", "-1,-1 270")
    turn(g, "CAP", "1,-1 90")
    turn(g, "CAP.farmhouse", "-1,-2 180")
    turn(g, "MON.shed", "1,-2 0")
    turn(g, "CAP.watertower", "0,-2 0")  # city N facing the hole at 0,-1
    assert g.turn == 1
    turn(g, "CAP.garden", "0,-1 180 abbot garden")
    only(g, {1: {"gardens": 9}})  # the 2-tile city has no knight
    assert g.figures() == [] and g.supply(1) == {"meeple": 7, "abbot": 1}


def test_A3_monastery_with_abbot_scores_as_B15():
    """A3: a monastery holding the abbot scores 9 when complete, like a monk."""
    g = position(ABBOT)
    _ring(g, ("MON", "0"), "abbot monastery")
    turn(g, "MON.shed", "1,-2 0")
    only(g, {0: {"monasteries": 9}})
    assert g.supply(0) == {"meeple": 7, "abbot": 1}


def test_A4_recall_scores_one_plus_neighbours():
    """A4: recalling the abbot (instead of a figure) scores 1 + 1 per neighbour at once."""
    g = position(ABBOT)
    turn(g, "MON", "0,-1 0 abbot monastery")  # P0; neighbour 0,0
    turn(g, "ROAD_WE", "1,0 0")  # P1; neighbour 1,0
    assert g.draw("CAP") is True  # P0: tile away from the monastery
    assert "0,1 180 recall 0,-1" in legal_texts(g)
    g.play("0,1 180 recall 0,-1")
    only(g, {0: {"monasteries": 3}})
    assert g.figures() == []
    assert g.supply(0) == {"meeple": 7, "abbot": 1}


def test_A4_recall_counts_the_tile_just_placed():
    """A4: the recall comes after placing the tile (B3 order): a tile placed next to the
    monastery counts as a neighbour."""
    g = position(ABBOT)
    turn(g, "MON", "0,-1 0 abbot monastery")
    turn(g, "ROAD_WE", "1,0 0")
    turn(g, "ROAD_WE", "-1,0 0 recall 0,-1")  # neighbours 0,0 1,0 -1,0
    only(g, {0: {"monasteries": 4}})


def test_A4_recall_from_garden():
    """A4: the abbot can be recalled from a garden: 1 + neighbours."""
    g = position(ABBOT)
    turn(g, "CAP.garden", "0,-1 180 abbot garden")  # P0; neighbour 0,0
    turn(g, "ROAD_WE", "1,0 0")  # P1
    turn(g, "ROAD_WE", "-1,0 0")  # P0
    turn(g, "CAP", "0,1 180")  # P1 (not a neighbour)
    turn(g, "CAP", "-1,-1 270 recall 0,-1")  # P0: 0,0 1,0 -1,0 -1,-1
    only(g, {0: {"gardens": 5}})
    assert g.supply(0) == {"meeple": 7, "abbot": 1}


def test_A4_recall_refused_when_tile_completes_it():
    """A4: no recall when the tile just placed completes that monastery: it scores 9 (A3)."""
    g = position(ABBOT)
    _ring(g, ("MON", "0"), "abbot monastery")
    turn(g, "CAP.garden", "0,1 180")  # P1 elsewhere: P0 places the last neighbour
    assert g.turn == 0
    assert g.draw("MON.shed") is True
    refused(g, "1,-2 0 recall 0,-1")
    g.play("1,-2 0")
    only(g, {0: {"monasteries": 9}})


def test_A4_recall_only_own_abbot_that_is_out():
    """A4: a player recalls only their own abbot, and only where it stands."""
    g = position(ABBOT)
    assert g.draw("ROAD_WE") is True
    refused(g, "1,0 0 recall 0,0")  # no abbot out at all
    g.play("1,0 0")
    turn(g, "MON", "0,-1 0 abbot monastery")  # P1's abbot
    assert g.draw("ROAD_WE") is True  # P0
    refused(g, "-1,0 0 recall 0,-1")  # not P0's abbot
    refused(g, "-1,0 0 recall 1,0")  # nothing there
    g.play("-1,0 0")
    assert g.draw("CAP") is True  # P1
    refused(g, "0,1 180 recall 0,0")  # P1's abbot is at 0,-1, not 0,0
    g.play("0,1 180 recall 0,-1")
    only(g, {1: {"monasteries": 4}})  # 0,-1 + 0,0 1,0 -1,0


def test_A5_final_scoring_of_abbots():
    """A5: an abbot still out at the end scores 1 + its neighbours (garden and monastery)."""
    g = position(ABBOT)
    turn(g, "CAP.garden", "0,-1 180 abbot garden")  # P0
    turn(g, "ROAD_WE", "1,0 0")  # P1
    turn(g, "ROAD_WE", "-1,0 0")  # P0
    turn(g, "MON", "-1,-1 0 abbot monastery")  # P1, next to the garden
    only(g, {})
    play_out(g)
    # garden 0,-1: itself + 0,0 1,0 -1,0 -1,-1 = 5; monastery -1,-1: itself + -1,0 0,0 0,-1
    only(g, {0: {"gardens": 5}, 1: {"monasteries": 4}})
    assert g.winners == [0]


def test_A5_final_abbot_on_river_garden():
    """A5 with River and Abbot on: an abbot on the river's garden scores at the end."""
    g = position(Rules())
    turn(g, "RV_CURVE.garden", "1,0 0 abbot garden")  # P0; neighbours: 0,0
    turn(g, "RV_STRAIGHT", "1,-1 90")  # P1; neighbour
    only(g, {})
    play_out(g)
    only(g, {0: {"gardens": 3}})
