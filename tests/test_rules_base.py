"""Base-game rules B1-B23 (docs/rules.md) and the ``small_city`` option, position by position.

Every game here uses ``chance="manual"``: the test names each drawn tile. Positions use the
notation of docs/notation.md (x east, y north, rotations clockwise, labels in board
orientation). The start tile CAP_ROAD_WE lies at 0,0 unturned: city N, road W-E, field S.

Final scoring (B20-B23) is reached by ``play_out``: after the position under test is set up,
every remaining tile is drawn and placed without a figure, as far as possible from the
features holding figures, and never in a way that changes any of them (roads, cities,
monasteries: their tiles and open edges; fields: their farmers and their count of completed
cities) or puts a tile next to an occupied monastery.
So the only points scored after set-up come from the features under test, and every
assertion is an exact number.
"""

from __future__ import annotations

import pytest

from carcassonne import DrawError, Game, IllegalMoveError, InvalidMoveError, Rules
from carcassonne.scenario import position, turn

from rulehelpers import legal_texts, n_figures, only, play_out, refused

# -- helpers ------------------------------------------------------------------------------------

SOURCES = ("roads", "cities", "monasteries", "gardens", "fields")
BASE = Rules.base()


# -- B1, B2: components and set-up -----------------------------------------------------------


def test_B1_B2_start_tile_bag_and_supply():
    """B1/B2: 72 land tiles, one CAP_ROAD_WE on the board at 0,0 unturned, the other 71 in the
    bag (3 more CAP_ROAD_WE-type tiles); each player has 7 meeples."""
    for players in (2, 3, 6):
        g = position(BASE, players)
        assert [(p.x, p.y, p.tile, p.rotation) for p in g.board] == [(0, 0, "CAP_ROAD_WE", 0)]
        bag = g.bag
        assert sum(bag.values()) == 71
        d_type = sum(n for t, n in bag.items() if t.split(".")[0] == "CAP_ROAD_WE")
        assert d_type == 3
        assert bag["CAP_ROAD_WE"] == 1
        assert (
            bag["ROAD_CURVE_SW"] + sum(n for t, n in bag.items() if t.startswith("ROAD_CURVE_SW."))
            == 9
        )
        assert bag["CROSS4"] == 1 and bag["CROSS3"] == 4
        assert not any(t.startswith("RV_") for t in bag)
        for p in range(players):
            assert g.supply(p) == {"meeple": 7}
        assert g.scores == [0] * players
        assert g.turn == 0
        assert g.decision.value == "draw"
        assert g.labels(0, 0) == ["city:N", "road:E", "field:ENE", "field:ESE"]


def test_B2_bag_is_shuffled_by_seed():
    """B2: the other tiles are shuffled; different seeds draw different first tiles, the same
    seed the same ones."""
    firsts = set()
    for seed in range(12):
        g = Game(Rules.base(), players=2, seed=seed)
        assert g.tile is not None and g.decision.value == "place"
        assert Game(Rules.base(), players=2, seed=seed).tile == g.tile
        firsts.add(g.tile)
    assert len(firsts) > 1


# -- B3: turn ------------------------------------------------------------------------------------


def test_B3_turn_passes_clockwise_and_scoring_is_in_the_same_turn():
    """B3: place, optional figure, scoring in the same turn; then the next player."""
    g = position(BASE, 3)
    assert g.turn == 0
    turn(g, "ROAD_WE", "1,0 0")
    assert g.turn == 1 and g.decision.value == "draw"
    # player 1 closes the start city with a knight on it: scored within the turn (B3 step 3)
    turn(g, "CAP", "0,1 180 meeple city:S")
    only(g, {1: {"cities": 4}})
    assert g.turn == 2
    turn(g, "ROAD_WE", "-1,0 0")
    assert g.turn == 0


# -- B4-B7: tile placement ------------------------------------------------------------------------


def test_B4_corner_contact_refused():
    """B4: a tile must share an edge with the board; touching a corner is not enough."""
    g = position(BASE)
    assert g.draw("MON") is True
    # MON has fields all round: its only edge-legal spot next to the start tile is 0,-1
    assert {str(m).split()[0] for m in g.legal_moves} == {"0,-1"}
    refused(g, "1,1 0")  # corner contact only
    refused(g, "-1,-1 0")  # corner contact only
    refused(g, "3,0 0")  # no contact at all
    refused(g, "0,0 0")  # occupied position
    g.play("0,-1 0")
    assert g.tile_at(0, -1) == ("MON", 0)


def test_B5_edge_mismatch_refused():
    """B5: every shared edge must match (city-city, road-road, field-field)."""
    g = position(BASE)
    assert g.draw("CAP") is True
    refused(g, "0,1 0")  # CAP's field (S) against the start tile's city (N)
    refused(g, "0,1 90")
    refused(g, "0,-1 0")  # CAP's city (N) against the start tile's field (S)
    refused(g, "1,0 0")  # CAP's field (W) against the start tile's road (E)
    # the rotations that match are all offered
    legal = legal_texts(g)
    assert {"0,1 180", "0,-1 90", "0,-1 180", "0,-1 270"} <= legal
    assert {t.split()[0] for t in legal} == {"0,1", "0,-1"}
    g.play("0,1 180")
    assert g.draw("ROAD_WE") is True
    refused(g, "1,0 90")  # road N-S: its field W against the start tile's road E
    refused(g, "1,1 0")  # road W against the field E of the cap at 0,1
    g.play("1,0 0")


def test_B5_shared_edges_all_checked():
    """B5: a tile touching two placed tiles must match both of them."""
    g = position(BASE)
    turn(g, "ROAD_WE", "1,0 0")
    turn(g, "CAP", "0,1 180")  # closes the start city; 0,1 now has fields N, E, W
    assert g.draw("CAP") is True
    # at 1,1 the tile touches 0,1 (field on its W) and 1,0 (field on its S)
    legal = {t for t in legal_texts(g) if t.startswith("1,1 ")}
    assert {t.split()[1] for t in legal} == {"0", "90"}  # city N or city E
    refused(g, "1,1 180")  # city S against 1,0's field
    refused(g, "1,1 270")  # city W against 0,1's field


def test_B5_tiles_are_turned_never_mirrored():
    """B5: a tile may be turned but not mirrored. At 0,1 the spot needs city S (start city)
    and road W (from -1,1): CAP_CURVE_ES fits (turned 180), its mirror image CAP_CURVE_SW
    does not fit anywhere there."""
    g = position(BASE)
    turn(g, "ROAD_WE", "-1,0 0")
    turn(g, "ROAD_CURVE_SW", "-1,1 180")  # road N-E: its E road faces 0,1
    assert g.draw("CAP_CURVE_SW.robbers") is True
    assert not any(t.startswith("0,1 ") for t in legal_texts(g))
    for rot in (0, 90, 180, 270):
        refused(g, f"0,1 {rot}")
    g.play(sorted(t for t in legal_texts(g) if len(t.split()) == 2)[0])
    assert g.draw("CAP_CURVE_ES.robbers") is True
    assert {t for t in legal_texts(g) if t.startswith("0,1 ") and len(t.split()) == 2} == {
        "0,1 180"
    }


def test_B6_drawn_tile_must_be_placed():
    """B6: a drawn tile that fits must be placed: no second draw, no move without placing."""
    g = position(BASE)
    assert g.draw("CROSS4") is True
    assert g.decision.value == "place" and g.tile == "CROSS4"
    fp = g.fingerprint()
    with pytest.raises(DrawError):
        g.draw("MON")
    assert g.fingerprint() == fp
    for bad in ("", "pass"):
        with pytest.raises((InvalidMoveError, IllegalMoveError)):
            g.play(bad)
        assert g.fingerprint() == fp
    # every legal move places the tile, at one of the two spots where it fits
    assert {t.split()[0] for t in legal_texts(g)} == {"1,0", "-1,0"}
    assert {t for t in legal_texts(g) if len(t.split()) == 2} == {"1,0 0", "-1,0 0"}


def test_B7_unplaceable_tile_is_discarded_and_same_player_draws_again():
    """B7: a drawn tile with no legal placement leaves the game; the same player draws again."""
    g = position(BASE)
    turn(g, "CAP", "0,1 180")  # closes the only open city edge: no open city edge is left
    assert g.turn == 1
    bag_before = sum(g.bag.values())
    board_before = g.board
    assert g.draw("CITY4_SHIELD.watertower") is False
    assert g.discarded == 1
    assert "CITY4_SHIELD.watertower" not in g.bag
    assert sum(g.bag.values()) == bag_before - 1
    assert g.board == board_before
    assert g.turn == 1
    assert g.decision.value == "draw"
    assert g.legal_moves == []
    assert g.draw("MON") is True
    assert g.turn == 1
    g.play("0,-1 0 meeple monastery")
    assert [(f.player, f.x, f.y) for f in g.figures()] == [(1, 0, -1)]


_DELTA = [(0, 1), (1, 0), (0, -1), (-1, 0)]  # N E S W


def _city4_spots(g: Game, edges: dict[str, str]) -> list[tuple[int, int]]:
    """Empty places where an all-city tile would match every neighbour (computed here from
    the catalogue's edge strings, independently of the engine's legality check)."""
    board = {(p.x, p.y): (p.tile, p.rotation) for p in g.board}
    around = {(x + dx, y + dy) for (x, y) in board for dx, dy in _DELTA} - set(board)
    spots = []
    for x, y in sorted(around):
        ok = True
        for d, (dx, dy) in enumerate(_DELTA):
            nb = board.get((x + dx, y + dy))
            if nb is not None:
                tile, rot = nb
                if edges[tile][((d + 2) % 4 - rot // 90) % 4] != "C":
                    ok = False
        if ok:
            spots.append((x, y))
    return spots


def test_B7_unplaceable_last_tile_ends_the_game():
    """B7 + B20: when the last tile in the bag fits nowhere it is removed and, the bag being
    empty, the game ends (final scoring done). The city tiles are played first, each placed
    so as to leave as few places as possible for the all-city tile, which is drawn last."""
    g = position(BASE)
    cat = g.catalogue
    edges = {t: cat.tile(t)["edges"] for t in list(g.bag) + ["CAP_ROAD_WE"]}

    def order(t: str) -> tuple:
        c = edges[t].count("C")
        if t.startswith("CITY4"):
            return (9, t)
        if c == 0:
            return (5, t)
        if t.split(".")[0] == "CAP":
            return (4, t)
        return (-c, t)

    while sum(g.bag.values()) > 1:
        tile = min(g.drawable, key=order)
        assert g.draw(tile) is True
        best = None
        for text in sorted(str(m) for m in g.legal_moves):
            if len(text.split()) != 2:
                continue
            g.play(text)
            v = len(_city4_spots(g, edges))
            g.pop()
            if best is None or v < best[0]:
                best = (v, text)
        g.play(best[1])
    assert g.bag == {"CITY4_SHIELD.watertower": 1}
    assert _city4_spots(g, edges) == [], "test set-up failed: the all-city tile still fits"
    assert not g.is_over()
    assert g.draw("CITY4_SHIELD.watertower") is False
    assert g.discarded == 1
    assert g.is_over() and g.decision.value == "over"
    assert len(g.board) == 71
    only(g, {})
    assert g.winners == [0, 1]


# -- B8-B11: figures ------------------------------------------------------------------------------


def test_B8_figure_comes_from_supply_and_only_one():
    """B8: at most one figure per turn, from the player's own supply (7 meeples)."""
    g = position(BASE)
    with_fig = 0
    tiles = [
        "MON",
        "MON",
        "MON.farmhouse",
        "MON.shed",
        "MON_ROAD",
        "MON_ROAD.robbers",
        "ROAD_WE",
        "ROAD_WE",
        "ROAD_WE",
        "CROSS3",
        "CROSS3",
        "CROSS3",
        "CROSS3",
        "ROAD_CURVE_SW",
        "ROAD_CURVE_SW",
        "ROAD_CURVE_SW",
        "CAP_CROSS3",
        "CAP_CROSS3",
        "CAP_CROSS3",
    ]
    i = 0
    while g.supply(0)["meeple"] > 0:
        assert i < len(tiles), "ran out of tiles before player 0 placed 7 meeples"
        tile = tiles[i]
        i += 1
        assert g.draw(tile) is True
        before = g.scores
        if g.turn == 0:
            ok = False
            for m in sorted(legal_texts(g)):
                if " meeple " not in m:
                    continue
                n = g.supply(0)["meeple"]
                g.play(m)
                if g.supply(0)["meeple"] == n - 1 and g.scores == before:
                    ok = True
                    break
                g.pop()
            assert ok
            with_fig += 1
        else:
            for m in sorted(legal_texts(g)):
                if len(m.split()) == 2:
                    g.play(m)
                    if g.scores == before:
                        break
                    g.pop()
    assert with_fig == 7
    assert n_figures(g, 0) == 7
    if g.turn != 0:
        assert g.draw("ROAD_WE.robbers") is True
        g.play(sorted(t for t in legal_texts(g) if len(t.split()) == 2)[0])
    assert g.turn == 0
    assert g.draw("CAP") is True
    legal = legal_texts(g)
    assert legal and not any(" meeple " in t for t in legal)
    # a knight on a new, unoccupied one-tile city would be legal but for the empty supply
    plain = label = None
    for text in sorted(t for t in legal if len(t.split()) == 2):
        x, y = map(int, text.split()[0].split(","))
        g.play(text)
        free = [
            f
            for f in g.features()
            if f.kind == "city" and f.tiles == ((x, y),) and not f.figures and not f.complete
        ]
        labels = [lab for lab in g.labels(x, y) if lab.startswith("city")]
        g.pop()
        if free and labels:
            plain, label = text, labels[0]
            break
    assert plain is not None
    refused(g, f"{plain} meeple {label}")
    # two figures in one move are not a move at all
    fp = g.fingerprint()
    with pytest.raises((InvalidMoveError, IllegalMoveError)):
        g.play(f"{plain} meeple {label} meeple {label}")
    assert g.fingerprint() == fp


def test_B9_occupied_road_refused():
    """B9: no figure on a segment whose feature (after placing) already holds a meeple."""
    g = position(BASE)
    turn(g, "ROAD_WE", "1,0 0 meeple road:E")  # P0 thief on the start road
    assert g.draw("ROAD_WE") is True  # P1 extends it west
    refused(g, "-1,0 0 meeple road:E")
    legal = legal_texts(g)
    assert "-1,0 0" in legal  # placing the tile itself is fine (B10)
    assert "-1,0 0 meeple field:NNW" in legal
    g.play("-1,0 0")
    assert n_figures(g, 1) == 0


def test_B9_occupied_field_refused():
    """B9 (fields): no farmer anywhere in the field."""
    g = position(BASE)
    turn(g, "ROAD_WE", "1,0 0 meeple field:NNW")  # P0 farmer north of the start road
    assert g.draw("ROAD_WE") is True
    refused(g, "-1,0 0 meeple field:NNW")  # joins the start tile's north field
    assert "-1,0 0 meeple field:ESE" in legal_texts(g)  # south field is a different field
    g.play("-1,0 0 meeple field:ESE")
    assert g.supply(1) == {"meeple": 6}


def test_B9_occupied_city_refused():
    """B9 (cities): the start city gets a knight; extending it with another knight is
    refused, even for the same player."""
    g = position(BASE)
    turn(g, "CITY3", "0,1 180 meeple city:E")  # city S,E,W: joins the start city
    turn(g, "ROAD_WE", "1,0 0")
    assert g.turn == 0
    assert g.draw("CAP") is True
    refused(g, "1,1 270 meeple city:W")  # would join P0's own city
    assert "1,1 270" in legal_texts(g)
    g.play("1,1 270")


def test_B10_B16_B12_joined_roads_tie_both_score_loop():
    """B10: a tile may join two occupied roads; B12: a closed loop is complete (6 tiles);
    B16: a tie scores in full for both; B17: both thieves return."""
    g = position(BASE)
    turn(g, "ROAD_CURVE_SW", "1,0 0 meeple road:S")  # P0, road W-S joins the start road
    turn(g, "ROAD_WE", "0,-1 0 meeple road:E")  # P1, separate road south
    assert g.draw("ROAD_CURVE_SW") is True  # P0: curve N-W joins both roads
    refused(g, "1,-1 90 meeple road:N")  # B9: merged road is occupied
    g.play("1,-1 90")  # B10: joining is allowed
    roads = [f for f in g.features() if f.kind == "road" and f.figures]
    assert len(roads) == 1 and len(roads[0].figures) == 2
    assert not roads[0].complete
    turn(g, "ROAD_CURVE_SW", "-1,-1 180")  # P1: N-E curve
    only(g, {})
    assert g.draw("ROAD_CURVE_SW.robbers") is True  # P0: E-S curve closes the loop
    refused(g, "-1,0 270 meeple road:E")  # B9 also holds for a completing tile
    g.play("-1,0 270")
    only(g, {0: {"roads": 6}, 1: {"roads": 6}})
    assert g.figures() == []
    assert g.supply(0) == {"meeple": 7} and g.supply(1) == {"meeple": 7}
    loop = [f for f in g.features() if f.kind == "road" and (0, 0) in f.tiles][0]
    assert loop.complete and len(loop.tiles) == 6


def test_B12_road_closed_by_village_and_city_gate():
    """B12: a road ending at a village (CROSS3) and at a city gate is complete: 1 per tile."""
    g = position(BASE)
    turn(g, "CROSS3", "1,0 0 meeple road:W")  # road from the start ends here
    only(g, {})
    turn(g, "CITY3_ROAD", "-1,0 270")  # P1: road ends at the city gate
    only(g, {0: {"roads": 3}})
    assert g.supply(0) == {"meeple": 7}


def test_B12_road_closed_by_monastery_and_village():
    """B12: a road ending at a monastery is closed there."""
    g = position(BASE)
    turn(g, "CROSS3", "1,0 0")
    turn(g, "ROAD_WE", "-1,0 0 meeple road:E")  # P1 thief
    turn(g, "MON_ROAD", "-2,0 270")  # road from E ends at the monastery
    only(g, {1: {"roads": 4}})


def test_B12_road_with_open_end_is_not_complete():
    """B12: only closed roads score during the game."""
    g = position(BASE)
    turn(g, "CROSS3", "1,0 0 meeple road:W")
    turn(g, "ROAD_WE", "-1,0 0")
    turn(g, "ROAD_CURVE_SW", "-2,0 270")
    only(g, {})
    road = [f for f in g.features() if f.kind == "road" and f.figures][0]
    assert not road.complete and len(road.tiles) == 4


# -- B13: cities --------------------------------------------------------------------------------


def test_B11_B13_city_two_tiles_scores_4_and_knight_returns_at_once():
    """B13: a two-tile city scores 4. B11: the knight put on it by the tile that completes
    it scores and returns at once."""
    g = position(BASE)
    turn(g, "CAP", "0,1 180 meeple city:S")
    only(g, {0: {"cities": 4}})
    assert g.figures() == []
    assert g.supply(0) == {"meeple": 7}
    city = [f for f in g.features() if f.kind == "city"][0]
    assert city.complete and sorted(city.tiles) == [(0, 0), (0, 1)]


def test_B11_thief_on_road_the_same_tile_completes():
    """B11: a thief put on a road that its own tile completes scores and returns at once."""
    g = position(BASE)
    turn(g, "CROSS3", "1,0 0")
    turn(g, "CITY3_ROAD", "-1,0 270 meeple road:E")  # P1 closes the road and takes it
    only(g, {1: {"roads": 3}})
    assert g.figures() == [] and g.supply(1) == {"meeple": 7}


def test_B13_city_with_coat_of_arms_completed_by_opponent():
    """B13: 2 per tile + 2 per coat of arms, to the knight's owner whoever completes it."""
    g = position(BASE)
    turn(g, "CORNER_SHIELD", "0,1 180 meeple city:E")  # city S+E with arms, joins start
    only(g, {})
    turn(g, "CAP", "1,1 270")  # P1 closes it
    only(g, {0: {"cities": 3 * 2 + 2}})
    assert g.supply(0) == {"meeple": 7}


def test_B13_city_of_five_tiles_with_two_arms():
    """B13: 5 tiles, 2 coats of arms = 14."""
    g = position(BASE)
    turn(g, "CITY3_SHIELD", "0,1 180 meeple city:E")  # city S,E,W + arms
    turn(g, "ROAD_WE", "1,0 0")
    turn(g, "CITY_WE_SHIELD", "1,1 0")  # city W-E + arms
    turn(g, "CAP", "2,1 270")  # closes east
    only(g, {})
    turn(g, "CAP.farmhouse", "-1,1 90")  # closes west
    only(g, {0: {"cities": 5 * 2 + 2 * 2}})


def test_small_city_option_B13_two_tile_city_scores_2():
    """B13 option small_city (C1 rule): a two-tile city scores 2; larger cities unchanged."""
    g = position(Rules.base(small_city=True))
    turn(g, "CAP", "0,1 180 meeple city:S")
    only(g, {0: {"cities": 2}})
    g2 = position(Rules.base(small_city=True))
    turn(g2, "CORNER", "0,1 180 meeple city:E")
    turn(g2, "CAP", "1,1 270")
    only(g2, {0: {"cities": 6}})
    g3 = position(Rules.base(small_city=False))
    turn(g3, "CAP", "0,1 180 meeple city:S")
    only(g3, {0: {"cities": 4}})


def test_B14_city_through_one_tile_twice_counts_it_once():
    """B14: a CAPS_NS tile whose two caps end up in one city counts once: the ring city of 6
    tiles with one coat of arms scores 2*6 + 2 = 14 (not 16)."""
    g = position(BASE)
    turn(g, "CAPS_NS", "0,-1 90 meeple city:E")  # caps E and W; fields N and S
    turn(g, "CORNER", "1,-1 270")  # city W+S
    turn(g, "CORNER.watertower", "1,-2 0")  # city N+W
    turn(g, "CITY_WE", "0,-2 0")  # city W-E under the CAPS_NS tile
    turn(g, "CORNER_SHIELD", "-1,-2 90")  # city N+E, arms
    only(g, {})
    city = [f for f in g.features() if f.kind == "city" and f.figures][0]
    assert not city.complete
    turn(g, "CORNER.garden", "-1,-1 180")  # city E+S, closes the ring
    only(g, {0: {"cities": 14}})
    city = [f for f in g.features() if f.kind == "city" and (0, -1) in f.tiles][0]
    assert city.complete and len(set(city.tiles)) == 6


def test_B14_B16_road_through_village_twice_majority():
    """B14: a road whose two ends are two roads of the same CROSS3 tile counts that tile once
    (6 tiles). B16: two thieves beat one: 6 to player 0, 0 to player 1, everyone's thieves
    return (B17)."""
    g = position(BASE)
    turn(g, "ROAD_CURVE_SW", "1,0 0 meeple road:S")  # P0: start road turns south
    turn(g, "ROAD_WE", "0,-1 0 meeple road:E")  # P1: separate road
    turn(g, "CROSS3", "-1,0 0 meeple road:S")  # P0: closes start road W; thief on S
    turn(g, "ROAD_CURVE_SW", "-1,-1 180")  # P1: joins the S road and P1's road
    only(g, {})
    turn(g, "ROAD_CURVE_SW.shed", "1,-1 90")  # P0: closes it
    only(g, {0: {"roads": 6}})
    assert g.figures() == []
    assert g.supply(0) == {"meeple": 7} and g.supply(1) == {"meeple": 7}


# -- B15: monastery -------------------------------------------------------------------------------


def _monastery_ring(g: Game, monk: str = "meeple monastery") -> None:
    """MON at 0,-1 (player 0's figure), then seven of its eight neighbours (0,0 is the start
    tile); the eighth, 1,-2, is left for the caller."""
    turn(g, "MON", f"0,-1 0 {monk}".strip())
    turn(g, "ROAD_WE", "-1,0 0")
    turn(g, "ROAD_WE", "1,0 0")
    turn(g, "CAP", "-1,-1 270")
    turn(g, "CAP", "1,-1 90")
    turn(g, "CAP.farmhouse", "-1,-2 180")
    turn(g, "CAP.watertower", "0,-2 180")


def test_B15_monastery_surrounded_scores_9():
    """B15: a monastery with all 8 neighbours placed scores 9; the monk returns."""
    g = position(BASE)
    _monastery_ring(g)
    only(g, {})
    assert g.turn == 1
    turn(g, "MON.shed", "1,-2 0")  # player 1 places the ninth tile
    only(g, {0: {"monasteries": 9}})
    assert g.figures() == []
    assert g.supply(0) == {"meeple": 7}


def test_B15_monk_on_monastery_placed_into_full_hole_scores_at_once():
    """B15 + B11: a monastery placed into a hole already surrounded scores 9 at once."""
    g = position(BASE)
    turn(g, "ROAD_WE", "-1,0 0")
    turn(g, "ROAD_WE", "1,0 0")
    turn(g, "CAP", "-1,-1 270")
    turn(g, "CAP", "1,-1 90")
    turn(g, "CAP.farmhouse", "-1,-2 180")
    turn(g, "MON.shed", "1,-2 0")
    turn(g, "MON.farmhouse", "0,-2 0")  # the hole at 0,-1 now has all 8 neighbours
    only(g, {})
    assert g.turn == 1
    turn(g, "MON", "0,-1 0 meeple monastery")
    only(g, {1: {"monasteries": 9}})
    assert g.figures() == []


# -- B16-B19: majority, returns, unoccupied features, several features -------------------------


def test_B16_majority_in_city_loser_scores_zero():
    """B16: player 0 has two knights, player 1 one: 0 gets the full 5-tile city, 1 gets 0."""
    g = position(BASE)
    turn(g, "ROAD_WE", "1,0 0")  # P0
    turn(g, "CAP", "1,1 270 meeple city:W")  # P1 knight, cap facing W (0,1 empty)
    turn(g, "ROAD_WE", "-1,0 0")  # P0
    turn(g, "MON", "1,2 0")  # P1
    turn(g, "CAP.farmhouse", "0,2 180 meeple city:S")  # P0 knight, cap facing S (0,1 empty)
    turn(g, "ROAD_WE", "2,0 0")  # P1
    turn(g, "CAP.watertower", "-1,1 90 meeple city:E")  # P0 knight, cap facing E
    only(g, {})
    assert g.turn == 1
    assert len([f for f in g.features() if f.kind == "city" and f.figures]) == 3
    turn(g, "CITY4_SHIELD.watertower", "0,1 0")  # P1 closes: 5 tiles + arms = 12
    only(g, {0: {"cities": 5 * 2 + 2}})
    assert g.figures() == []
    assert g.supply(0) == {"meeple": 7} and g.supply(1) == {"meeple": 7}


def test_B17_B18_completed_unoccupied_city_scores_nothing_farmer_stays():
    """B18: a completed city without knights scores nothing but is complete (the field now
    borders a completed city). B17: the farmer placed on the same tile stays."""
    g = position(BASE)
    turn(g, "CAP", "0,1 180 meeple field:NNW")
    only(g, {})
    city = [f for f in g.features() if f.kind == "city"][0]
    assert city.complete
    field = [f for f in g.features() if f.kind == "field" and f.figures][0]
    assert field.completed_cities == 1
    assert [(f.player, f.x, f.y, f.feature) for f in g.figures()] == [(0, 0, 1, "field")]
    assert g.supply(0) == {"meeple": 6}
    # later completions do not return the farmer either
    turn(g, "CROSS3", "1,0 0 meeple road:W")
    turn(g, "CITY3_ROAD", "-1,0 270")
    only(g, {1: {"roads": 3}})
    assert [(f.player, f.feature) for f in g.figures()] == [(0, "field")]


def test_B19_one_tile_completes_city_and_road():
    """B19: one tile completes a city (P0's knight, placed now: B11) and a road (P1's thief):
    each scores on its own."""
    g = position(BASE)
    turn(g, "ROAD_WE", "-1,0 0")  # P0
    turn(g, "CROSS3", "-1,1 180 meeple road:E")  # P1: village; road E open
    only(g, {})
    turn(g, "CAP_CROSS3", "0,1 180 meeple city:S")  # P0: city S closes the start city,
    # its W road ends at its village and meets P1's road, which ends at -1,1's village
    only(g, {0: {"cities": 4}, 1: {"roads": 2}})
    assert g.figures() == []


# -- B20-B23: end of game -------------------------------------------------------------------------


def test_B20_game_ends_after_last_tile():
    """B20: the game ends with the turn that places the last tile: no more draws or moves."""
    g = position(BASE)
    play_out(g)
    assert g.is_over() and g.decision.value == "over"
    assert sum(g.bag.values()) == 0
    assert len(g.board) + g.discarded == 72
    fp = g.fingerprint()
    with pytest.raises(DrawError):
        g.draw("MON")
    assert g.fingerprint() == fp
    assert g.legal_moves == []
    only(g, {})
    assert g.winners == [0, 1]


def test_B21_final_scoring_incomplete_road_city_monastery():
    """B21: incomplete road 1/tile, incomplete city 1/tile + 1/arms, incomplete monastery 1 +
    1 per neighbour. B23: the higher total wins alone."""
    g = position(BASE)
    turn(g, "MON", "0,-1 0 meeple monastery")  # P0 monk; neighbour: 0,0
    turn(g, "ROAD_WE", "1,0 0 meeple road:E")  # P1 thief; monastery neighbour
    turn(g, "CORNER_SHIELD", "0,1 180 meeple city:E")  # P0 knight: city S+E, arms, open E
    turn(g, "ROAD_WE.farmhouse", "-1,0 0")  # P1: road now 3 tiles; neighbour
    only(g, {})
    play_out(g)
    # monastery: itself + 0,0, 1,0, -1,0 = 4; city: 2 tiles + 1 arms = 3; road: 3 tiles
    only(g, {0: {"monasteries": 4, "cities": 3}, 1: {"roads": 3}})
    assert g.winners == [0]


def test_B21_final_city_majority_and_tie():
    """B21 with B16 at the end: the incomplete city's majority scores, a tie scores in full."""
    g = position(BASE)
    turn(g, "CITY3", "0,1 180 meeple city:E")  # P0 knight: start city + S,E,W
    turn(g, "ROAD_WE", "1,0 0")  # P1
    turn(g, "ROAD_WE", "2,0 0")  # P0
    turn(g, "CAP", "2,1 270 meeple city:W")  # P1 knight on a separate cap
    turn(g, "CITY_WE", "1,1 0")  # P0 joins them: 4 tiles, open W
    city = [f for f in g.features() if f.kind == "city" and f.figures][0]
    assert sorted(p for p, *_ in city.figures) == [0, 1] and not city.complete
    play_out(g)
    only(g, {0: {"cities": 4}, 1: {"cities": 4}})
    assert g.winners == [0, 1]


def test_B22_field_touching_city_twice_counts_once():
    """B22: the field running from the start tile's north strip round to the cap at 0,1
    touches the same completed city on two tiles: 3 points, not 6."""
    g = position(BASE)
    turn(g, "CAP", "0,1 180")  # P0 closes the start city, no knight
    turn(g, "ROAD_WE", "1,0 0")  # P1
    turn(g, "MON", "1,1 0 meeple field:NNW")  # P0 farmer; links the two strips of field
    field = [f for f in g.features() if f.kind == "field" and f.figures][0]
    assert {(0, 0), (0, 1), (1, 0), (1, 1)} <= set(field.tiles)
    assert field.completed_cities == 1
    play_out(g)
    only(g, {0: {"fields": 3}})


def test_B22_city_touching_two_fields_counts_for_each():
    """B22: the completed start city touches two separate fields (the start tile's north
    strip and the field of the cap at 0,1): each field's farmer scores 3 for it."""
    g = position(BASE)
    turn(g, "CAP", "0,1 180 meeple field:NNW")  # P0 farmer; completes the city (B18)
    turn(g, "ROAD_WE", "1,0 0 meeple field:NNW")  # P1 farmer on the start tile's north strip
    fields = [f for f in g.features() if f.kind == "field" and f.figures]
    assert len(fields) == 2 and all(f.completed_cities == 1 for f in fields)
    play_out(g)
    only(g, {0: {"fields": 3}, 1: {"fields": 3}})
    assert g.winners == [0, 1]


def test_B22_field_majority_and_incomplete_city():
    """B22: two farmers of player 0 beat one of player 1 in the merged field north of the
    start road; it touches one completed city (on two tiles: counts once) and an incomplete
    city (counts nothing): 3 to player 0, 0 to player 1."""
    g = position(BASE)
    turn(g, "CAP", "0,1 180 meeple field:NNW")  # P0 farmer, cap's field; city complete
    turn(g, "ROAD_WE", "1,0 0 meeple field:NNW")  # P1 farmer, start tile's north strip
    turn(g, "CROSS3", "2,0 180 meeple field:NNE")  # P0 farmer, NE corner field of a village
    assert len([f for f in g.features() if f.kind == "field" and f.figures]) == 3
    turn(g, "MON_ROAD", "2,1 0")  # P1: road from 2,0 ends at a monastery;
    # its one field joins the village's NE and NW corners (P0's and P1's fields)
    turn(g, "MON", "1,1 0")  # P0: joins the cap's field too
    fields = [f for f in g.features() if f.kind == "field" and f.figures]
    assert len(fields) == 1
    assert sorted(p for p, *_ in fields[0].figures) == [0, 0, 1]
    assert fields[0].completed_cities == 1
    turn(g, "CAP.watertower", "1,2 0")  # P1: open city north of the field
    field = [f for f in g.features() if f.kind == "field" and f.figures][0]
    assert field.completed_cities == 1 and (1, 2) in field.tiles
    play_out(g)
    only(g, {0: {"fields": 3}})
    assert g.winners == [0]


def test_B22_field_tie_both_score():
    """B22 with B16: one farmer each in the merged field: both score 3."""
    g = position(BASE)
    turn(g, "CAP", "0,1 180 meeple field:NNW")  # P0 farmer on the cap's field
    turn(g, "ROAD_WE", "1,0 0 meeple field:NNW")  # P1 farmer on the start tile's north strip
    turn(g, "MON", "1,1 0")  # P0 joins the two fields (B10)
    fields = [f for f in g.features() if f.kind == "field" and f.figures]
    assert len(fields) == 1 and fields[0].completed_cities == 1
    play_out(g)
    only(g, {0: {"fields": 3}, 1: {"fields": 3}})
    assert g.winners == [0, 1]


def test_B22_field_touching_ring_city_on_three_tiles_counts_once():
    """B22 + B14: the field inside the ring city of the B14 test touches that one city on
    both caps of the CAPS_NS tile and on the CITY_WE tile: 3 points, once."""
    g = position(BASE)
    turn(g, "CAPS_NS", "0,-1 90 meeple city:E")  # P0 knight
    turn(g, "CORNER", "1,-1 270")  # P1
    turn(g, "CORNER.watertower", "1,-2 0")  # P0
    turn(g, "CITY_WE", "0,-2 0 meeple field:NNW")  # P1 farmer inside the ring
    turn(g, "CORNER_SHIELD", "-1,-2 90")  # P0
    turn(g, "CORNER.garden", "-1,-1 180")  # P1 closes the ring
    only(g, {0: {"cities": 14}})
    field = [f for f in g.features() if f.kind == "field" and f.figures][0]
    assert {(0, 0), (0, -1), (0, -2)} <= set(field.tiles)
    assert field.completed_cities == 1
    play_out(g)
    only(g, {0: {"cities": 14}, 1: {"fields": 3}})


def test_B22_field_with_only_incomplete_city_scores_nothing():
    """B22: only completed cities count."""
    g = position(BASE)
    turn(g, "ROAD_WE", "1,0 0 meeple field:NNW")  # touches the start city, still open
    play_out(g)
    only(g, {})
    assert [(f.player, f.feature) for f in g.figures()] == [(0, "field")]


def test_B22_field_with_two_completed_cities():
    """B22: 3 per completed city touching the field: two cities = 6."""
    g = position(BASE)
    turn(g, "CAP", "0,1 180 meeple field:NNW")  # P0 farmer; city 1 complete
    turn(g, "CAP", "1,1 0")  # P1: cap N at 1,1, its field joins
    turn(g, "CAP.farmhouse", "1,2 180")  # P0: closes the city at 1,1-1,2
    field = [f for f in g.features() if f.kind == "field" and f.figures][0]
    assert field.completed_cities == 2
    play_out(g)
    only(g, {0: {"fields": 6}})


def test_B23_tied_players_share_the_win():
    """B23: equal totals share the win (the B16 tie on a loop, then nothing else scores)."""
    g = position(BASE, 3)
    turn(g, "ROAD_CURVE_SW", "1,0 0 meeple road:S")  # P0
    turn(g, "ROAD_WE", "0,-1 0 meeple road:E")  # P1
    turn(g, "MON", "0,-2 0")  # P2
    turn(g, "ROAD_CURVE_SW", "1,-1 90")  # P0 joins
    turn(g, "ROAD_CURVE_SW", "-1,-1 180")  # P1
    turn(g, "ROAD_CURVE_SW.robbers", "-1,0 270")  # P2 closes the loop
    only(g, {0: {"roads": 6}, 1: {"roads": 6}})
    play_out(g)
    only(g, {0: {"roads": 6}, 1: {"roads": 6}})
    assert g.winners == [0, 1]
