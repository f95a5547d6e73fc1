"""Toll Collectors rules TC1-TC7 (docs/rules.md, turn order T3/T4/T6), position by position.

Source: the seed, the Romanian rule page of Toll Collectors. The 10 tiles of
``src/engine/tiles/toll_collectors.tiles`` are the real ones, read from their pictures:
villages (crossroads) where 2 or 3 roads ``end=village`` on TK01-TK04, travellers beside one
road on TK03-TK10, roads ending at city gates on TK08 and TK10, and no farmhouse, shed, garden
or robbers on any. Those items come from base tiles (and a Traders & Builders garden).

Every game here uses ``chance="manual"``: the test names each drawn tile. Positions use the
notation of docs/notation.md (x east, y north, rotations clockwise, labels in board
orientation). The start tile CAP_ROAD_WE lies at 0,0 unturned: city N, road W-E, field S.
A tile turned r degrees moves its canonical edge e to (e + r/90) % 4, so e.g.
TK04_VILLAGE3_travellers (roads E, S, W; travellers beside road E) turned 180 has roads W, N,
E and its travellers beside road W.

Final scoring is reached by ``play_out`` (as in test_rules_base.py): the remaining tiles are
placed without figures, far from, and never changing, any feature holding a figure or any road
ending at a tollhouse's crossroads. So every assertion is an exact number.

The last test plays whole random games with the option on (alone, with River + Abbot, with
Traders & Builders C3.1, with all of them) and checks every toll collection against an
independent model built on tests/reference.py's flood fill.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carcassonne import Catalogue, Game, IllegalMoveError, Rules
from carcassonne.scenario import position, turn

import reference as ref
from rulehelpers import legal_texts, only, play_out

# -- helpers ------------------------------------------------------------------------------------

SOURCES = ("roads", "cities", "monasteries", "gardens", "fields", "goods", "pigs", "tolls")
CAT = Catalogue.builtin()
TOLL = Rules.base(toll_collectors=True)


def refused(g: Game, move: str) -> None:
    """``move`` is illegal: it is not offered, play() raises, and the game is unchanged."""
    fp = g.fingerprint()
    houses = g.tollhouses()
    assert move not in legal_texts(g)
    assert not g.is_legal(move)
    with pytest.raises(IllegalMoveError):
        g.play(move)
    assert g.fingerprint() == fp
    assert g.tollhouses() == houses


def targets(g: Game) -> dict[str, set[tuple[int, int]]]:
    """For the drawn tile: placement ("X,Y ROT") -> crossroads offered for the tollhouse."""
    out: dict[str, set[tuple[int, int]]] = {}
    for m in g.legal_moves:
        place = f"{m.x},{m.y} {m.rotation}"
        out.setdefault(place, set())
        if m.action == "tollhouse":
            words = str(m).split()
            assert words[2] == "tollhouse"
            tx, ty = map(int, words[3].split(","))
            out[place].add((tx, ty))
    return out


def _guarded(g: Game) -> list:
    """Features to keep as they are: those holding figures, and every road with a tile at a
    tollhouse (a road crossing a crossroads tile ends there)."""
    houses = {(x, y) for _, x, y, _ in g.tollhouses()}
    return [f for f in g.features() if f.figures or (f.kind == "road" and houses & set(f.tiles))]


def value(g: Game, player: int) -> int:
    """The side a player's tollhouse shows (1 small toll, 2 large toll)."""
    (v,) = [v for p, _, _, v in g.tollhouses() if p == player]
    return v


def house(g: Game, player: int) -> tuple[int, int] | None:
    hs = [(x, y) for p, x, y, _ in g.tollhouses() if p == player]
    assert len(hs) <= 1
    return hs[0] if hs else None


# -- components -------------------------------------------------------------------------------


def test_TC_components_tiles_and_tollhouses():
    """Seed: 10 land tiles, 8 with a group of travellers, shuffled into the land tiles; one
    tollhouse per player in supply. Off by default: no TC tile, no tollhouse."""
    toll_ids = [t for t in CAT.tile_ids() if CAT.tile(t)["set"] == "toll_collectors"]
    assert sum(CAT.tile(t)["count"] for t in toll_ids) == 10
    with_travellers = sum(
        CAT.tile(t)["count"]
        for t in toll_ids
        if any((s["items"] or {}).get("travellers") for s in CAT.tile(t)["segments"])
    )
    assert with_travellers == 8
    for players in (2, 6):
        g = position(TOLL, players)
        assert sum(g.bag.values()) == 71 + 10
        assert all(g.bag.get(t) == CAT.tile(t)["count"] for t in toll_ids)
        assert g.tollhouses() == []
        for p in range(players):
            assert g.supply(p) == {"meeple": 7, "tollhouse": 1}
        assert all(b["tolls"] == 0 for b in g.breakdown)
    off = position(Rules.base())
    assert sum(off.bag.values()) == 71
    assert not any(t in off.bag for t in toll_ids)
    assert "tollhouse" not in off.supply(0)
    assert off.draw("CROSS3") is True
    assert not any(m.action == "tollhouse" for m in off.legal_moves)
    refused(off, "1,0 0 tollhouse 1,0")


# -- TC1, TC2: placing and moving -------------------------------------------------------------


def test_TC1_TC2_tollhouse_only_on_crossroads():
    """TC1/TC2: the tollhouse goes only on a village where 2-4 roads end: not on a plain road
    tile, not on a city or a monastery where a road ends, not on the (non-village) start tile,
    not on an empty position. The offered targets are exactly the free crossroads on the
    board plus the tile just placed when it is one."""
    g = position(TOLL)
    assert g.draw("ROAD_WE") is True
    assert all(t == set() for t in targets(g).values())  # no crossroads anywhere yet
    refused(g, "1,0 0 tollhouse 1,0")  # plain road tile
    refused(g, "1,0 0 tollhouse 0,0")  # start tile: city + road through
    g.play("-1,0 0")  # P0: road W extends the start road
    turn(g, "CROSS3", "1,0 0")  # P1: village, roads E S W; no action
    # P0: a city where a road ends (road S to the gate, turned: road N meets 1,0's road S)
    assert g.draw("CITY3_ROAD") is True
    assert targets(g)["1,-1 180"] == {(1, 0)}
    assert all(t == {(1, 0)} for t in targets(g).values())
    refused(g, "1,-1 180 tollhouse 1,-1")  # city with a road ending: no
    refused(g, "1,-1 180 tollhouse 0,0")
    refused(g, "1,-1 180 tollhouse -1,0")
    refused(g, "1,-1 180 tollhouse 5,5")  # nothing there
    g.play("1,-1 180")
    # P1: a monastery where a road ends (road W meets 1,0's road E)
    assert g.draw("MON_ROAD") is True
    assert targets(g)["2,0 90"] == {(1, 0)}
    refused(g, "2,0 90 tollhouse 2,0")
    g.play("2,0 90")
    # P0: the base 3-road village with a city cap is a crossroads, so is a 4-road one
    assert g.draw("CAP_CROSS3") is True
    assert targets(g)["-2,0 0"] == {(-2, 0), (1, 0)}
    g.play("-2,0 0 tollhouse -2,0")  # the tile just placed
    assert g.tollhouses() == [(0, -2, 0, 1)]
    assert g.supply(0) == {"meeple": 7, "tollhouse": 0}
    only(g, {})
    # P1: a two-road village (TC tile) counts too ("2 to 4 roads")
    assert g.draw("TK03_VILLAGE_WE_travellers") is True
    assert targets(g)["3,0 90"] == {(3, 0), (1, 0)}  # -2,0 holds P0's tollhouse
    g.play("3,0 90 tollhouse 3,0")
    assert sorted(g.tollhouses()) == [(0, -2, 0, 1), (1, 3, 0, 1)]
    assert g.supply(1) == {"meeple": 7, "tollhouse": 0}
    only(g, {})
    assert g.draw("CROSS4") is True
    assert targets(g)["-2,-1 0"] == {(-2, -1), (1, 0)}  # P0's own spot is no move
    g.play("-2,-1 0 tollhouse 1,0")  # P0 moves to a crossroads elsewhere
    assert sorted(g.tollhouses()) == [(0, 1, 0, 1), (1, 3, 0, 1)]


def test_TC2_city_or_monastery_with_several_roads_is_no_crossroads():
    """TC2: "a city or monastery where roads end is not one", even with 2 or 3 roads: the
    Traders & Builders C2 monastery where roads E, S, W end and the C3.1 city tile where
    roads N and S end at its gates take no tollhouse."""
    g = position(Rules.base(toll_collectors=True, traders_builders="C2"))
    assert CAT.tile("TB2_20_mon_rE_rS_rW")["crossroads"] is False
    assert g.draw("TB2_20_mon_rE_rS_rW") is True
    assert all(t == set() for t in targets(g).values())
    refused(g, "1,0 0 tollhouse 1,0")
    g.play("1,0 0")
    assert g.tile_at(1, 0) == ("TB2_20_mon_rE_rS_rW", 0)
    assert g.draw("CROSS3") is True
    assert targets(g)["-1,0 0"] == {(-1, 0)}  # only the new village
    refused(g, "-1,0 0 tollhouse 1,0")
    g2 = position(Rules.base(toll_collectors=True, traders_builders="C3.1"))
    assert g2.draw("TB3_19_cWE_rN_rS_chicken") is True  # roads N, S end at the city
    places = targets(g2)
    assert places and all(t == set() for t in places.values())
    first = sorted(places)[0]
    x, y = first.split()[0].split(",")
    refused(g2, f"{first} tollhouse {x},{y}")


def test_TC2_occupied_crossroads_refused_meeples_do_not_matter():
    """TC2: free = no other tollhouse; a move onto another player's tollhouse is refused and
    the game is unchanged. A thief on the crossroads' roads does not matter."""
    g = position(TOLL)
    turn(g, "CROSS3", "1,0 0 tollhouse 1,0")  # P0
    assert g.draw("CROSS4") is True  # P1
    assert targets(g)["-1,0 0"] == {(-1, 0)}  # 1,0 is taken
    refused(g, "-1,0 0 tollhouse 1,0")
    g.play("-1,0 0 meeple road:S")  # P1's thief on the village's road S
    assert [(f.player, f.x, f.y) for f in g.figures()] == [(1, -1, 0)]
    assert g.draw("ROAD_WE") is True  # P0
    assert all(t == {(-1, 0)} for t in targets(g).values())
    g.play("2,0 0 tollhouse -1,0")  # onto the tile holding P1's thief
    assert g.tollhouses() == [(0, -1, 0, 1)]
    assert g.draw("CROSS3") is True  # P1 places their own tollhouse
    assert targets(g)["1,-1 180"] == {(1, -1), (1, 0)}  # 1,0 is free again
    refused(g, "1,-1 180 tollhouse -1,0")  # P0's tollhouse is there now
    g.play("1,-1 180 tollhouse 1,0")
    assert sorted(g.tollhouses()) == [(0, -1, 0, 1), (1, 1, 0, 1)]
    assert g.draw("ROAD_WE") is True  # P0 may not join P1
    refused(g, "3,0 0 tollhouse 1,0")
    only(g, {})  # roads completed on the way carried nothing: no toll, no thief


def test_TC2_crossroads_tiles_are_villages_with_2_to_4_roads():
    """TC2: the catalogue's crossroads are exactly the tiles with 2 to 4 roads ending at a
    village: CROSS3, CROSS4, CAP_CROSS3 and the 4 TC village tiles (2 or 3 roads); never a
    road ending at a city, a monastery, a tent or in a field, nor through roads (the T&B
    bridge tile, the C3 spring)."""
    crossroads = set()
    for t in CAT.tile_ids():
        d = CAT.tile(t)
        villages = sum(1 for s in d["segments"] if s["kind"] == "road" and s["end"] == "village")
        assert d["crossroads"] == (2 <= villages <= 4), t
        if d["crossroads"]:
            crossroads.add(t)
    assert crossroads == {
        "CROSS3",
        "CROSS4",
        "CAP_CROSS3",
        "TK01_VILLAGE_SW",
        "TK02_VILLAGE3",
        "TK03_VILLAGE_WE_travellers",
        "TK04_VILLAGE3_travellers",
    }


def test_TC1_move_happens_before_scoring():
    """TC1 + T3/T4: the action (moving the tollhouse) comes before scoring. P0 completes a
    road with travellers ending at 1,0 while moving the tollhouse from 1,0 to -1,0, which is
    not on that road: nothing is collected, nothing flips. Later P0 completes a road with
    robbers ending at 1,0 while moving the tollhouse back there: it collects 1."""
    g = position(TOLL)
    turn(g, "TK04_VILLAGE3_travellers", "1,0 0 tollhouse 1,0")  # P0; travellers on road E
    turn(g, "CROSS3", "-1,0 0")  # P1: bare road 1,0 W - -1,0 E
    only(g, {})
    assert g.draw("CROSS3") is True  # P0: closes 1,0 E (travellers)
    assert targets(g)["2,0 0"] == {(2, 0), (-1, 0)}
    g.play("2,0 0 tollhouse -1,0")  # ... and leaves 1,0
    only(g, {})
    assert g.tollhouses() == [(0, -1, 0, 1)]
    turn(g, "ROAD_WE.robbers", "1,-1 90")  # P1: 1,0 S, robbers
    assert g.draw("CROSS3") is True  # P0: closes it ...
    assert targets(g)["1,-2 180"] == {(1, -2), (1, 0), (2, 0)}
    g.play("1,-2 180 tollhouse 1,0")  # ... moving back to 1,0
    only(g, {0: {"tolls": 1}})
    assert g.tollhouses() == [(0, 1, 0, 1)]


# -- TC3: collecting when a road is completed -------------------------------------------------


def test_TC3_small_toll_robbers_road_owner_scores_as_usual():
    """TC3: P0's tollhouse (small toll) at 1,0; P0 completes the road 1,0 - 0,0 - -1,0 -
    -2,0 (village to village, robbers on -1,0) held by P1's thief: P0 collects 1, P1 scores
    the road's 4 points as usual. A road ending at the tollhouse with nothing on it gives
    nothing; neither does a road ending only at a crossroads without tollhouse."""
    g = position(TOLL)
    turn(g, "CROSS3", "1,0 0 tollhouse 1,0")  # P0: village, roads E S W
    assert g.tollhouses() == [(0, 1, 0, 1)]
    turn(g, "ROAD_WE.robbers", "-1,0 0 meeple road:E")  # P1: thief
    only(g, {})
    turn(g, "CROSS3", "-2,0 0")  # P0 completes the road
    only(g, {0: {"tolls": 1}, 1: {"roads": 4}})
    assert g.figures() == []
    assert g.tollhouses() == [(0, 1, 0, 1)]  # no travellers: no flip (TC5)
    turn(g, "CROSS3", "1,-1 180 meeple road:W")  # P1: closes 1,0 S - 1,-1 N, bare
    only(g, {0: {"tolls": 1}, 1: {"roads": 4}})
    turn(g, "ROAD_WE.farmhouse", "-3,0 0")  # P0: extends -2,0's road W
    turn(g, "CROSS3", "-4,0 0")  # P1: closes it, no tollhouse there
    only(g, {0: {"tolls": 1}, 1: {"roads": 4}})
    play_out(g, guarded=_guarded, unchanged=Game.tollhouses)
    # TC6: 1,0's road E is incomplete and bare; P1's thief: 1,-1's road W (1 tile)
    only(g, {0: {"tolls": 1}, 1: {"roads": 4 + 1}})
    assert g.tollhouses() == [(0, 1, 0, 1)]
    assert g.supply(0)["tollhouse"] == 0  # TC1: never back to the supply


def test_TC3_TC5_large_toll_and_moving_keeps_the_value():
    """TC3: travellers give 3 at the small toll, then the tollhouse shows the large toll
    (TC5): robbers 2, travellers 6. TC1: moving the tollhouse keeps its value; it may collect
    in the very turn it moved. Whoever completes the road, the owner collects."""
    g = position(TOLL)
    turn(g, "TK04_VILLAGE3_travellers", "1,0 180 tollhouse 1,0")  # P0; travellers beside W
    turn(g, "ROAD_WE.robbers", "2,0 0 meeple road:E")  # P1 thief on 1,0's road E
    turn(g, "CROSS3", "-1,0 0")  # P0 completes 1,0 W (3 tiles)
    only(g, {0: {"tolls": 3}})  # small toll, travellers: 3
    assert g.tollhouses() == [(0, 1, 0, 2)]  # flipped at the end of turn
    turn(g, "CROSS3", "3,0 0")  # P1 completes 1,0 E (robbers)
    only(g, {0: {"tolls": 3 + 2}, 1: {"roads": 3}})  # large toll: 2 per item
    assert g.tollhouses() == [(0, 1, 0, 2)]  # no travellers: stays large
    # P0 moves the tollhouse to the village at 3,0 (not the tile just placed): still large
    assert g.draw("ROAD_WE") is True
    assert targets(g)["1,1 90"] == {(-1, 0), (3, 0)}
    g.play("1,1 90 tollhouse 3,0")
    assert g.tollhouses() == [(0, 3, 0, 2)]
    assert g.supply(0)["tollhouse"] == 0
    only(g, {0: {"tolls": 5}, 1: {"roads": 3}})
    turn(g, "MON", "0,-1 0")  # P1, nothing
    # P0 completes 3,0 E - 4,0 W, travellers beside 4,0's road W
    turn(g, "TK03_VILLAGE_WE_travellers", "4,0 180")
    only(g, {0: {"tolls": 5 + 6}, 1: {"roads": 3}})  # large toll: 6 per group
    assert g.tollhouses() == [(0, 3, 0, 1)]  # flipped back
    play_out(g, guarded=_guarded, unchanged=Game.tollhouses)
    # TC6: of the roads left open, only 3,0's road S ends at the tollhouse, and it is bare
    only(g, {0: {"tolls": 11}, 1: {"roads": 3}})


def test_TC3_tollhouse_placed_this_turn_collects_and_two_ends_both_collect():
    """TC1 + T3/T4: the tollhouse placed on the tile just placed stands before the tile's
    completed roads are scored, so it collects at once. TC7: tollhouses at both ends of one
    road both collect, each at its own value. The thief's owner scores the 5 tiles."""
    g = position(TOLL)
    turn(g, "CROSS3", "1,0 0 tollhouse 1,0")  # P0
    turn(g, "TK05_ROAD_NS_travellers", "-1,0 90 meeple road:E")  # P1 thief
    turn(g, "ROAD_WE.robbers", "-2,0 0")  # P0
    turn(g, "CROSS3", "-3,0 0 tollhouse -3,0")  # P1: places and completes
    # travellers 3 + robbers 1 at the small toll, for each tollhouse
    only(g, {0: {"tolls": 4}, 1: {"tolls": 4, "roads": 5}})
    assert sorted(g.tollhouses()) == [(0, 1, 0, 2), (1, -3, 0, 2)]
    assert g.supply(1) == {"meeple": 7, "tollhouse": 0}


# -- TC4: only the road's own segments; water towers never ------------------------------------


def test_TC4_items_beside_other_roads_of_the_village_do_not_count():
    """TC4: TK04_VILLAGE3_travellers has travellers beside road E only. Its road W collects
    nothing; its road S, with a farmhouse further on, collects 1 (the travellers beside road
    E are not on it). Road E runs past a water tower to a village: 3 for the travellers,
    nothing for the water tower (water towers never count)."""
    g = position(TOLL)
    turn(g, "TK04_VILLAGE3_travellers", "1,0 0 tollhouse 1,0")  # P0; roads E S W
    turn(g, "CROSS3", "-1,0 0")  # P1: closes 1,0 W - 0,0 - -1,0
    only(g, {})
    turn(g, "ROAD_WE.farmhouse", "1,-1 90")  # P0: 1,0 S goes on
    turn(g, "CROSS3", "1,-2 180")  # P1: closes 1,0 S (farmhouse)
    only(g, {0: {"tolls": 1}})
    turn(g, "CORNER_CURVE.watertower", "2,0 180 meeple road:N")  # P0: road W-N, water tower
    turn(g, "CROSS3", "2,1 0")  # P1: closes 1,0 E - 2,0 - 2,1 S
    # P0's thief scores 3 tiles; the toll is 3 for the travellers, 0 for the water tower
    only(g, {0: {"tolls": 1 + 3, "roads": 3}})
    assert g.tollhouses() == [(0, 1, 0, 2)]
    play_out(g, guarded=_guarded, unchanged=Game.tollhouses)
    only(g, {0: {"tolls": 4, "roads": 3}})


def test_TC4_garden_counts_only_beside_its_road():
    """TC4: a garden counts only for the road it stands beside. TK02_VILLAGE3 at 1,0 (roads
    E, S, W, nothing beside them). Road S ends at the gate of a Traders & Builders C3.1 tile
    (TB3_08, turned 180) whose garden stands beside its other road (W): 0. Road E runs
    through a ROAD_WE.garden (garden beside that road) to a monastery: 1."""
    g = position(Rules.base(toll_collectors=True, traders_builders="C3.1"))
    turn(g, "TK02_VILLAGE3", "1,0 0 tollhouse 1,0")  # P0; roads E S W
    turn(g, "CROSS3", "-1,0 0")  # P1: closes W, bare
    only(g, {})
    turn(g, "TB3_08_cNW_rE_rS_chicken.garden", "1,-1 180")  # P0: closes S at a city gate
    only(g, {})  # the garden stands beside the tile's road W
    turn(g, "ROAD_WE.garden", "2,0 0")  # P1: road E goes on
    turn(g, "MON_ROAD", "3,0 90")  # P0: ends at a monastery
    only(g, {0: {"tolls": 1}})  # the ROAD_WE garden only
    assert g.tollhouses() == [(0, 1, 0, 1)]


def test_TC3_toll_on_a_two_road_village():
    """TC2 + TC3 on the real two-road village TK01_VILLAGE_SW (roads S and W end there, no
    travellers): its road W, through the start tile and the travellers of TK05 to a village,
    collects 3 at the small toll; the tollhouse flips. Its road S, left open and bare, gives
    nothing at the end (TC6)."""
    g = position(TOLL)
    assert CAT.tile("TK01_VILLAGE_SW")["crossroads"] is True
    turn(g, "TK01_VILLAGE_SW", "1,0 0 tollhouse 1,0")  # P0; roads S and W
    turn(g, "TK05_ROAD_NS_travellers", "-1,0 90")  # P1: road W-E, travellers
    only(g, {})
    turn(g, "CROSS3", "-2,0 0")  # P0: closes 1,0 W - 0,0 - -1,0 - -2,0
    only(g, {0: {"tolls": 3}})
    assert g.tollhouses() == [(0, 1, 0, 2)]
    play_out(g, guarded=_guarded, unchanged=Game.tollhouses)
    only(g, {0: {"tolls": 3}})


def test_TC3_travellers_on_a_road_from_a_city_gate_to_a_village():
    """TC3: the travellers of TK08 stand on a road that ends at the gate of TK08's city; the
    road's other end is a village on another tile. TK08 turned 180 (city S, road N) below
    the village at 1,0 completes the 2-tile road at once: 3 at the small toll. TK10's road W
    ends at its city N's gate and has no travellers: completing it from the village collects
    nothing; its road S (travellers) ends at its other city's gate."""
    g = position(TOLL)
    turn(g, "TK02_VILLAGE3", "1,0 0 tollhouse 1,0")  # P0; roads E S W
    turn(g, "TK08_CAP_ROAD_TO_CITY_travellers", "1,-1 180")  # P1: road N to 1,0's S
    only(g, {0: {"tolls": 3}})
    assert g.tollhouses() == [(0, 1, 0, 2)]
    # TK10 unturned: road W to the gate of its city N, road S (travellers) to its city E
    turn(g, "TK10_CAPS_NE_ROADS_travellers", "2,0 0")  # P0: 1,0's road E ends at a gate
    only(g, {0: {"tolls": 3}})  # that road (1,0 E - 2,0 W) is bare: nothing
    assert g.tollhouses() == [(0, 1, 0, 2)]


# -- TC5: flipping at the end of the turn -----------------------------------------------------


def _two_roads_to_one_village(g: Game, last: str) -> None:
    """P0's tollhouse on CROSS4 at 1,0. Road N runs 1,1 (travellers, curve S-E) to
    2,1; road E runs 2,0 (travellers, curve W-N) to 2,1. The CROSS3 placed at 2,1 by P1
    (move ``last``) completes both roads, each from 1,0 to 2,1."""
    turn(g, "CROSS4", "1,0 0 tollhouse 1,0")  # P0
    turn(g, "TK06_CURVE_WS_travellers", "1,1 270")  # P1: road S-E
    turn(g, "TK07_CORNER_CURVE_travellers", "2,0 180")  # P0: road W-N, city S-E
    only(g, {})
    turn(g, "CROSS3", last)  # P1: roads E S W


def test_TC5_two_roads_in_one_turn_use_the_start_of_turn_value():
    """TC5: one tile completes two roads ending at P0's small-toll tollhouse, both with
    travellers: each is collected at 1 (3 + 3 = 6, not 3 + 6), and the tollhouse flips once,
    at the end of that turn, which is P1's: P0 meets the large toll at once. The next
    travellers road is collected at 2 (6) and flips it back."""
    g = position(TOLL)
    _two_roads_to_one_village(g, "2,1 0")
    only(g, {0: {"tolls": 3 + 3}})
    assert g.turn == 0
    assert g.tollhouses() == [(0, 1, 0, 2)]
    # P0: road S of 1,0 meets 1,-1's road N, travellers beside it
    turn(g, "TK03_VILLAGE_WE_travellers", "1,-1 270")
    only(g, {0: {"tolls": 6 + 6}})
    assert g.tollhouses() == [(0, 1, 0, 1)]
    play_out(g, guarded=_guarded, unchanged=Game.tollhouses)
    # TC6: 1,0's road W (to the start tile, bare): nothing more
    only(g, {0: {"tolls": 12}})


def test_TC5_TC7_second_tollhouse_placed_on_the_completing_tile():
    """TC7 + TC5: P1 places the completing CROSS3 with their tollhouse on it: both roads end
    at both tollhouses, so both collect 3 + 3 at the small toll, and both flip at the end of
    P1's turn."""
    g = position(TOLL)
    _two_roads_to_one_village(g, "2,1 0 tollhouse 2,1")
    only(g, {0: {"tolls": 6}, 1: {"tolls": 6}})
    assert sorted(g.tollhouses()) == [(0, 1, 0, 2), (1, 2, 1, 2)]


def test_TC5_no_travellers_no_flip():
    """TC5: only collecting from travellers flips; items alone do not, nor does a road with
    travellers that ends at no tollhouse."""
    g = position(TOLL)
    turn(g, "CROSS4", "1,0 0 tollhouse 1,0")  # P0
    turn(g, "ROAD_WE.shed", "2,0 0")  # P1
    turn(g, "CROSS3", "3,0 0")  # P0: shed road, 1
    only(g, {0: {"tolls": 1}})
    assert g.tollhouses() == [(0, 1, 0, 1)]
    turn(g, "TK05_ROAD_NS_travellers", "4,0 90")  # P1: 3,0 E - 4,0 - ...
    turn(g, "CROSS3", "5,0 0")  # P0: ... - 5,0: no toll
    only(g, {0: {"tolls": 1}})
    assert g.tollhouses() == [(0, 1, 0, 1)]


def test_TC5_builder_double_turn_flips_after_the_second_part():
    """TC5 Decision with Traders & Builders C3.1: P1's builder gives a double turn. In the
    first part P1 completes a travellers road at P0's tollhouse (3 at the small toll); the
    tollhouse does not flip between the parts, so the second part's travellers road is still
    collected at 1 (3, not 6); it flips after the second part."""
    g = position(Rules.base(toll_collectors=True, traders_builders="C3.1"))
    turn(g, "CROSS4", "1,0 0 tollhouse 1,0")  # P0
    turn(g, "TK05_ROAD_NS_travellers", "2,0 90 meeple road:E +builder")  # P1: thief + builder
    turn(g, "TK06_CURVE_WS_travellers", "1,1 270")  # P0: 1,0 N - 1,1 - E
    assert g.turn == 1 and g.double_turn is None
    turn(g, "CROSS3", "3,0 0")  # P1 part 1: extends the builder's road, completes it
    assert g.double_turn == "second part" and g.active_player == 1
    only(g, {0: {"tolls": 3}, 1: {"roads": 3}})
    assert g.tollhouses() == [(0, 1, 0, 1)]  # not yet flipped
    turn(g, "CROSS3", "2,1 180")  # P1 part 2: completes 1,0 N - 1,1 - 2,1 W
    only(g, {0: {"tolls": 3 + 3}, 1: {"roads": 3}})
    assert g.double_turn is None and g.turn == 0
    assert g.tollhouses() == [(0, 1, 0, 2)]  # flipped once, now


# -- TC6: final scoring ------------------------------------------------------------------------


def test_TC6_incomplete_roads_one_per_item_whatever_the_side():
    """TC6: at the end, every incomplete road ending at a tollhouse's crossroads gives its
    owner 1 per farmhouse, shed, garden, robbers and travellers group, large toll or small.
    P0's tollhouse shows the large toll (it collected travellers); its incomplete roads carry
    travellers + farmhouse (2) and robbers (1)."""
    g = position(TOLL)
    turn(g, "TK04_VILLAGE3_travellers", "1,0 180 tollhouse 1,0")  # P0; roads W N E, trav. W
    turn(g, "CROSS3", "-1,0 0")  # P1 completes W: 3
    only(g, {0: {"tolls": 3}})
    assert g.tollhouses() == [(0, 1, 0, 2)]
    turn(g, "TK06_CURVE_WS_travellers", "2,0 0")  # P0: road E, W-S, travellers, open S
    turn(g, "ROAD_WE.robbers", "1,1 90 meeple road:N")  # P1: road N, thief
    turn(g, "ROAD_CURVE_SW.farmhouse", "2,-1 90")  # P0: ... N-W, farmhouse, open W
    only(g, {0: {"tolls": 3}})
    play_out(g, guarded=_guarded, unchanged=Game.tollhouses)
    assert g.tollhouses() == [(0, 1, 0, 2)]
    # P1's thief: the incomplete road 1,0 N - 1,1 (2 tiles, B21)
    only(g, {0: {"tolls": 3 + 2 + 1}, 1: {"roads": 2}})


def test_TC6_each_tollhouse_scores_its_own_roads_at_the_end():
    """TC6 with two small-toll tollhouses: each owner scores only the incomplete roads ending
    at their own crossroads (P0: robbers 1; P1: shed 1 + travellers 1); the bare road between
    the two villages, completed during the game, is not scored again."""
    g = position(TOLL)
    turn(g, "CROSS3", "1,0 0 tollhouse 1,0")  # P0
    turn(g, "CAP_CROSS3", "-1,0 0 tollhouse -1,0")  # P1: closes 1,0 W - -1,0 E
    only(g, {})
    turn(g, "ROAD_WE.robbers", "2,0 0")  # P0: 1,0 E, robbers, open
    turn(g, "ROAD_CURVE_SW.shed", "-1,-1 90")  # P1: -1,0 S, shed, open W
    turn(g, "TK05_ROAD_NS_travellers", "-2,0 90")  # P0: -1,0 W, travellers, open
    only(g, {})
    play_out(g, guarded=_guarded, unchanged=Game.tollhouses)
    only(g, {0: {"tolls": 1}, 1: {"tolls": 1 + 1}})
    assert sorted(g.tollhouses()) == [(0, 1, 0, 1), (1, -1, 0, 1)]


# -- TC7: a road with both ends at the same crossroads -----------------------------------------


def test_TC7_road_with_both_ends_at_one_crossroads_counts_once():
    """TC7: the loop 1,0 N - 1,1 - 2,1 - 2,0 - 1,0 E starts and ends at P0's crossroads: it
    collects once, 3 (travellers) + 1 (robbers) = 4, not 8. The thief scores 4 tiles (B14:
    the crossroads counts once)."""
    g = position(TOLL)
    turn(g, "CROSS4", "1,0 0 tollhouse 1,0")  # P0
    turn(g, "TK06_CURVE_WS_travellers", "1,1 270 meeple road:E")  # P1 thief, road S-E
    turn(g, "ROAD_CURVE_SW.robbers", "2,1 0")  # P0: road W-S
    only(g, {})
    turn(g, "ROAD_CURVE_SW", "2,0 90")  # P1: road N-W closes it
    only(g, {0: {"tolls": 4}, 1: {"roads": 4}})
    assert g.tollhouses() == [(0, 1, 0, 2)]
    play_out(g, guarded=_guarded, unchanged=Game.tollhouses)
    only(g, {0: {"tolls": 4}, 1: {"roads": 4}})


# -- whole games --------------------------------------------------------------------------------

RULESETS = [
    Rules.base(toll_collectors=True),
    Rules(river=True, abbot=True, toll_collectors=True),
    Rules.base(toll_collectors=True, traders_builders="C3.1"),
    Rules(river=True, abbot=True, toll_collectors=True, traders_builders="C3.1"),
    # TC5's other reading: a tollhouse flips at the end of its owner's turn.
    Rules.base(toll_collectors=True, toll_flip="owner"),
    Rules(river=True, abbot=True, toll_collectors=True, traders_builders="C3.1", toll_flip="owner"),
]
_DESC: dict[str, dict] = {}


def desc(tile: str) -> dict:
    if tile not in _DESC:
        _DESC[tile] = CAT.tile(tile)
    return _DESC[tile]


def total_tiles(rules: Rules) -> int:
    """72 base (B1) + 10 toll tiles, + 12 river tiles (R1), + 24 Traders & Builders tiles
    with the River or 23 without it (its river tile stays out, R7)."""
    n = 72 + 10
    if rules.river:
        n += 12
    if rules.traders_builders is not None:
        n += 24 if rules.river else 23
    return n


def test_tile_totals_with_toll_collectors():
    assert [total_tiles(r) for r in RULESETS] == [82, 94, 105, 118, 82, 118]
    for r in RULESETS:
        g = Game(r, players=2, seed=1, chance="manual")
        assert len(g.board) + sum(g.bag.values()) == total_tiles(r)


def road_tolls(board: ref.Board, f: ref.Feature) -> tuple[int, int, set[tuple[int, int]]]:
    """Independent reading of a road (TC3, TC4): items beside its own segments (farmhouse,
    shed, robbers, a garden whose ``road=`` is that segment; never water towers), travellers
    groups, and the crossroads tiles where it ends."""
    items = travellers = 0
    ends: set[tuple[int, int]] = set()
    for x, y, i in f.nodes:
        segs = desc(board.tiles[(x, y)].tile)["segments"]
        s = segs[i]
        it = s["items"] or {}
        items += it.get("farmhouse", 0) + it.get("shed", 0) + it.get("robbers", 0)
        travellers += it.get("travellers", 0)
        items += sum(1 for o in segs if o["kind"] == "garden" and o["road"] == i)
        if s["end"] == "village":
            ends.add((x, y))
    return items, travellers, ends


def _ctx(g: Game) -> str:
    return (
        f"\nrules={g.rules!r} players={g.players} seed={g.seed} "
        f"moves={json.dumps(g.record()['moves'])}"
    )


def choose(g: Game, rnd):
    legal = g.legal_moves
    r = rnd.random()
    if r < 0.3:
        tolls = [m for m in legal if m.action == "tollhouse"]
        if tolls:
            return rnd.choice(tolls)
    if r < 0.7:
        passes = [m for m in legal if m.action == "pass"]
        if passes:
            return rnd.choice(passes)
    return rnd.choice(legal)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULESETS),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**64 - 1),
    rnd=st.randoms(use_true_random=False),
)
def test_whole_games_toll_collectors(rules, players, seed, rnd):
    """Random whole games with Toll Collectors (alone, with River + Abbot, with Traders &
    Builders C3.1, with all): no exception; tiles conserved; scores never decrease; a
    tollhouse once placed never returns to the supply (TC1), stands alone (TC2) on a
    crossroads tile (TC2) and keeps its value when moved (TC1); every collection equals the
    independent model (TC3, TC4, TC7 at the start-of-turn value, flips at the end of the
    whole turn, TC5; TC6 at the end); the record replays to the same fingerprint."""
    g = Game(rules, players=players, seed=seed)
    values = [1] * players  # model: the side each tollhouse shows
    flips: set[int] = set()  # model: collected from travellers this turn
    placed_ever: set[int] = set()
    scores = g.scores
    while not g.is_over():
        waiting = 1 if g.tile is not None else 0
        assert len(g.board) + sum(g.bag.values()) + g.discarded + waiting == total_tiles(rules), (
            _ctx(g)
        )
        houses = {p: (x, y) for p, x, y, _ in g.tollhouses()}
        tolls = [b["tolls"] for b in g.breakdown]
        m = choose(g, rnd)
        mover = g.turn
        active = g.active_player
        fp = g.fingerprint()
        g.play(m)
        if rnd.random() < 0.1:  # undo restores the tollhouses; replaying is identical
            done_fp = g.fingerprint()
            assert g.pop() == m
            assert g.fingerprint() == fp, _ctx(g)
            assert {p: (x, y) for p, x, y, _ in g.tollhouses()} == houses, _ctx(g)
            g.play(m)
            assert g.fingerprint() == done_fp, _ctx(g)
        after = {p: (x, y, v) for p, x, y, v in g.tollhouses()}
        # TC1/TC2: placed tollhouses stay, never two on one crossroads, always on one.
        assert len(after) == len(g.tollhouses()), _ctx(g)
        assert set(houses) <= set(after), f"a tollhouse left the board{_ctx(g)}"
        assert len({(x, y) for x, y, _ in after.values()}) == len(after), _ctx(g)
        for x, y, _ in after.values():
            assert desc(g.tile_at(x, y)[0])["crossroads"], _ctx(g)
        for p in range(players):
            assert g.supply(p)["tollhouse"] == (0 if p in after else 1), _ctx(g)
        if m.action == "tollhouse":
            assert after[mover][:2] == m.target, f"{m}{_ctx(g)}"
            placed_ever.add(mover)
        for p in after:
            if not (m.action == "tollhouse" and p == mover):
                assert after[p][:2] == houses[p], f"tollhouse {p} moved by {m}{_ctx(g)}"
        assert set(after) == placed_ever, _ctx(g)
        # Collections this move, by the model.
        want = [0] * players
        board = None
        if m.places_tile:
            board = ref.Board([(t.tile, t.x, t.y, t.rotation) for t in g.board], CAT)
            tile, _ = g.tile_at(m.x, m.y)
            done: set[frozenset] = set()
            for s in board.tiles[(m.x, m.y)].segs:
                if s.kind != "road":
                    continue
                f = board.feature((m.x, m.y, s.index))
                if not f.complete or f.nodes in done:
                    continue
                done.add(f.nodes)
                items, trav, ends = road_tolls(board, f)
                for p, (x, y, _) in after.items():
                    if (x, y) in ends:  # TC7: a road counts once per tollhouse
                        want[p] += values[p] * (items + 3 * trav)
                        if trav:
                            flips.add(p)
        if g.is_over():
            board = board or ref.Board([(t.tile, t.x, t.y, t.rotation) for t in g.board], CAT)
            for f in board.all_features():
                if f.kind != "road" or f.complete:
                    continue
                items, trav, ends = road_tolls(board, f)
                for p, (x, y, _) in after.items():
                    if (x, y) in ends:
                        want[p] += items + trav  # TC6: whatever side shows
        got = [b["tolls"] - t for b, t in zip(g.breakdown, tolls, strict=True)]
        assert got == want, f"tolls {got} != model {want} after {m}{_ctx(g)}"
        # TC5: flips at the end of the whole turn (after a builder's second part, after a
        # pig owner's farmer choice); with toll_flip="owner" only at the end of its owner's.
        if not g.is_over() and g.decision.value != "farmer" and g.double_turn != "second part":
            for p in sorted(flips):
                if rules.toll_flip == "turn" or p == active:
                    values[p] = 3 - values[p]
                    flips.discard(p)
        if not g.is_over():
            for p, (_, _, v) in after.items():
                assert v == values[p], f"tollhouse {p} shows {v}, model {values[p]}{_ctx(g)}"
        new = g.scores
        assert all(b >= a for a, b in zip(scores, new, strict=True)), (
            f"scores went down {scores} -> {new} at {m}{_ctx(g)}"
        )
        assert new == [sum(b.values()) for b in g.breakdown], _ctx(g)
        scores = new
    assert g.bag == {} and g.tile is None
    assert len(g.board) + g.discarded == total_tiles(rules), _ctx(g)
    h = Game.from_record(g.to_json())
    assert h.fingerprint() == g.fingerprint(), _ctx(g)
    assert h.scores == g.scores and h.breakdown == g.breakdown
    assert h.tollhouses() == g.tollhouses()
