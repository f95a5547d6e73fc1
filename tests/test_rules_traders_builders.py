"""Traders & Builders rules TB1-TB12 (docs/rules.md, turn order T), both editions.

Every game here uses ``chance="manual"`` (the test names each drawn tile) and the notation of
docs/notation.md: x east, y north, rotations clockwise, labels in board orientation. Without
the River the start tile CAP_ROAD_WE lies at 0,0 unturned: city N, road W-E, a field strip
north of the road touching the city (``field:ENE``) and a field south of it.

The examples of the seed (the Romanian rule page of Traders & Builders C3.1) are rebuilt as
equivalent positions: example 1 (goods to the completing player, 10 points to the knight's
owner), example 2 (goods majorities), example 5 (builder double turn), examples 7a/7b (pig
scoring and each owner's farmer choice).

Final scoring is reached by ``play_out_quietly`` (stricter than rulehelpers.play_out, which
the other rule tests use): every remaining tile is placed without a figure away from the
features under test, never changing a feature holding a figure, never completing a city (no
goods, no pig scoring) and never scoring, so every final assertion is an exact number.

T&B tiles used (canonical orientation; C3.1 id / C2 id, same layout unless said):
  corner N+W with goods:  TB3_12_cNWspur_rE_chicken / TB2_02_cNW_wine   (chicken | wine)
                          (C3.1 has no chicken corner without a road: its road E, turned
                          180 road W, leads where these positions place nothing)
                          TB3_01_cNW_grain.shed / TB2_01_cNW_grain          (grain)
  corner N+W, road S:     TB3_21_cNW_rS_grain.robbers / TB2_21_cNW_rS_grain (grain)
  spur N+W, road S:       TB3_22_cNWspur_rS_grain.watertower / TB2_22_cNWspur_rS_grain (grain)
  corner N+W, road E:     TB3_11_cNW_rE_cloth.garden / TB2_11_cNW_rE_cloth  (cloth)
Turned 90 a N+W corner covers N+E, turned 180 E+S, turned 270 S+W.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carcassonne import Catalogue, Decision, Game, IllegalMoveError, InvalidMoveError, Rules
from carcassonne.scenario import pick, position, turn

from rulehelpers import _sig, legal_texts, only, refused

# -- helpers ------------------------------------------------------------------------------------

CAT = Catalogue.builtin()
COUNTS = {
    t: (CAT.tile(t)["set"], CAT.tile(t)["count"], CAT.tile(t)["edges"]) for t in CAT.tile_ids()
}
SOURCES = ("roads", "cities", "monasteries", "gardens", "fields", "goods", "pigs")
EDITIONS = ("C3.1", "C2")

TILES = {
    "C3.1": {
        "first": "chicken",
        "first_corner": "TB3_12_cNWspur_rE_chicken",
        "grain_corner": "TB3_01_cNW_grain.shed",
        "grain_road": "TB3_21_cNW_rS_grain.robbers",
        "grain_spur": "TB3_22_cNWspur_rS_grain.watertower",
        "cloth_road": "TB3_11_cNW_rE_cloth.garden",
        # west of first_corner at 0,1 (its road W): a grain corner N+W whose road E meets it
        "ring_c": ("TB3_10_cNW_cS_rE_grain", "-1,1 0"),
    },
    "C2": {
        "first": "wine",
        "first_corner": "TB2_02_cNW_wine",
        "grain_corner": "TB2_01_cNW_grain",
        "grain_road": "TB2_21_cNW_rS_grain",
        "grain_spur": "TB2_22_cNWspur_rS_grain",
        "cloth_road": "TB2_11_cNW_rE_cloth",
        "ring_c": ("TB2_22_cNWspur_rS_grain", "-1,1 0"),
    },
}


def rejected(g: Game, move: str) -> None:
    """``move`` is not a legal move (ill-formed or illegal); the game is unchanged."""
    fp = g.fingerprint()
    assert move not in legal_texts(g)
    assert not g.is_legal(move)
    with pytest.raises((IllegalMoveError, InvalidMoveError)):
        g.play(move)
    assert g.fingerprint() == fp


def choose(g: Game, choice: str) -> None:
    """The pig owner's choice after pig scoring (C3.1, TB10)."""
    assert g.decision == Decision.FARMER
    assert legal_texts(g) == {"keep-farmer", "return-farmer"}
    g.play(choice)


def goods(g: Game, edition: str, *held: tuple[int, int, int]) -> None:
    """Goods tokens of every player: (first kind, grain, cloth) per player."""
    first = TILES[edition]["first"]
    want = [{first: a, "grain": b, "cloth": c} for a, b, c in held]
    assert [g.goods(p) for p in range(g.players)] == want


def figs(g: Game, role: str | None = None) -> list[tuple]:
    return sorted(
        (f.player, f.role, f.x, f.y, f.segment)
        for f in g.figures()
        if role is None or f.role == role
    )


def _sigs(g: Game, loose: bool = False, feats=None) -> set[tuple]:
    feats = g.features() if feats is None else feats
    return {_sig(f, loose) for f in feats if f.figures}


def _state(g: Game) -> tuple:
    """What a filler tile must never change: points, goods, supplies, figures."""
    n = range(g.players)
    return (g.scores, [g.goods(p) for p in n], [g.supply(p) for p in n], figs(g))


def _harmless_move(g: Game, near, blocked, guarded, before) -> str | None:
    """A move without figure for the drawn tile that changes nothing under test (see
    ``play_out_quietly``), preferring places far from the guarded features; None if there is none.
    The game is left as it was."""
    cands = []
    for m in g.legal_moves:
        text = str(m)
        parts = text.split()
        if len(parts) != 2:
            continue  # only moves without a figure
        x, y = map(int, parts[0].split(","))
        if (x, y) in blocked:
            continue
        d = min(max(abs(x - a), abs(y - b)) for a, b in near)
        cands.append((-d, text))
    cands.sort()
    complete_before = sum(f.complete for f in g.features() if f.kind == "city")
    for _, text in cands:
        g.play(text)
        feats = g.features()
        complete_after = sum(f.complete for f in feats if f.kind == "city")
        now = _state(g)
        if g.is_over():  # final scoring is what the tests check: compare the rest
            now = (before[0],) + now[1:]
        ok = (
            guarded <= _sigs(g, True, feats)
            and now == before
            and complete_after == complete_before
            and g.decision in (Decision.DRAW, Decision.OVER)
            and g.double_turn is None
        )
        g.pop()
        if ok:
            return text
    return None


def play_out_quietly(g: Game, keep: tuple[str, ...] = (), avoid: frozenset = frozenset()) -> None:
    """Draw and place every remaining tile (but ``keep``) without figures, never changing a
    feature that holds a figure (nor placing in the 3x3 around an occupied monastery or
    garden, nor on the positions in ``avoid``), never scoring, never completing a city (no
    goods, no pig scoring) and never triggering a builder. A field may grow, but never gains
    or loses a farmer or a completed city. Ends the game unless ``keep`` is given; then it
    stops when only the ``keep`` tiles are left in the bag. The tile drawn is the first
    (hardest to place first: most road and city edges) that has such a place. Fails loudly
    if no tile has one."""
    guarded = [f for f in g.features() if f.figures]
    loose = _sigs(g, loose=True)
    near = {t for f in guarded for t in f.tiles} or {(0, 0)}
    blocked: set[tuple[int, int]] = set(avoid)
    for f in guarded:
        if f.kind in ("monastery", "garden"):
            for x, y in f.tiles:
                blocked |= {(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    before = _state(g)
    kept: dict[str, int] = {}
    for t in keep:
        kept[t] = kept.get(t, 0) + 1
    retry: dict[str, int] = {}  # tile -> board size at which to try it again
    while not g.is_over():
        assert g.decision == Decision.DRAW, g.decision
        drawable = dict(g.drawable)
        for t, n in kept.items():
            drawable[t] = drawable.get(t, 0) - n
        left = sorted(
            (t for t, n in drawable.items() if n > 0),
            key=lambda t: (-sum(e in "RC" for e in COUNTS[t][2]), t),
        )
        if not left:
            assert keep, "nothing left to draw"
            return
        size = len(g.board)
        for tile in sorted(left, key=lambda t: retry.get(t, 0) > size):
            h = g.copy()
            if not h.draw(tile):
                assert g.draw(tile) is False  # B7: fits nowhere, leaves the game
                break
            text = _harmless_move(h, near, blocked, loose, before)
            if text is not None:
                assert g.draw(tile) is True
                g.play(text)
                break
            retry[tile] = size + 8  # no place now: try others first for a while
        else:
            raise AssertionError(f"play_out_quietly: no harmless place for any of {left}")
    assert not keep, "the game ended before the kept tiles were drawn"


# -- components (section TB preamble, R7) --------------------------------------------------------


@pytest.mark.parametrize("ed", EDITIONS)
def test_TB_components_tiles_goods_symbols_and_supply(ed):
    """TB components: 24 tiles, one copy each; goods symbols 9 chicken (C2: wine), 6 grain,
    5 cloth on 20 tiles, 4 tiles without goods; C3.1 has one river tile, which is out of
    play without the River (23 land tiles). Each player starts with one builder and one pig
    and no goods."""
    tb_set = {"C3.1": "traders_builders_c31", "C2": "traders_builders_c2"}[ed]
    ids = [t for t in CAT.tile_ids() if CAT.tile(t)["set"] == tb_set]
    assert len(ids) == 24 and all(CAT.tile(t)["count"] == 1 for t in ids)
    symbols: dict[str, int] = {}
    plain = 0
    for t in ids:
        kinds = [s["goods"] for s in CAT.tile(t)["segments"] if s["goods"]]
        plain += not kinds
        for k in kinds:
            symbols[k] = symbols.get(k, 0) + 1
    assert symbols == {TILES[ed]["first"]: 9, "grain": 6, "cloth": 5}
    assert plain == 4
    river_tiles = [t for t in ids if "I" in CAT.tile(t)["edges"]]
    assert river_tiles == (["TB3_T_river_cNE_chicken"] if ed == "C3.1" else [])
    for players in (2, 5):
        g = position(Rules.base(traders_builders=ed), players)
        bag = g.bag
        assert sum(bag.values()) == 71 + 24 - len(river_tiles)
        assert not any(t in bag for t in river_tiles)
        for p in range(players):
            assert g.supply(p) == {"meeple": 7, "builder": 1, "pig": 1}
            assert g.goods(p) == {TILES[ed]["first"]: 0, "grain": 0, "cloth": 0}
        assert g.double_turn is None
    other = {"C3.1": "TB2_", "C2": "TB3_"}[ed]
    assert not any(t.startswith(other) for t in position(Rules.base(traders_builders=ed)).bag)
    base = position(Rules.base())
    assert not any(t.startswith("TB") for t in base.bag)


def test_R7_TB1_C31_river_tile_among_the_river_tiles_and_its_chicken():
    """R7: with the River, the C3.1 river tile is drawn with the other river tiles (before the
    lake and the land tiles). TB1: its city shows a chicken: whoever completes it takes one."""
    g = Game(
        Rules(river=True, abbot=False, traders_builders="C3.1"), players=2, seed=0, chance="manual"
    )
    drawable = set(g.drawable)
    assert "TB3_T_river_cNE_chicken" in drawable and "RV_LAKE" not in drawable
    assert all(t.startswith("RV_") or t == "TB3_T_river_cNE_chicken" for t in drawable)
    # river W-S (a right turn after the spring), chicken city N+E open at 1,1 and 2,0
    turn(g, "TB3_T_river_cNE_chicken", "1,0 0")
    # the rest of the river, placed away from the city's open edges
    while any(t.startswith("RV_") for t in g.drawable):
        assert g.draw(sorted(g.drawable)[0]) is True
        moves = [m for m in g.legal_moves if str(m).count(" ") == 1]
        far = [m for m in moves if min(abs(m.x - a) + abs(m.y - b) for a, b in OPEN) > 1]
        g.play(max(far or moves, key=lambda m: (-m.y, -abs(m.x), str(m))))
    assert not any(t.startswith("RV_") for t in g.drawable)
    city = [f for f in g.features() if f.kind == "city" and (1, 0) in f.tiles][0]
    assert not city.complete and city.tiles == ((1, 0),)
    goods(g, "C3.1", (0, 0, 0), (0, 0, 0))
    turn(g, "CAP*", "1,1 180")  # the city stays open at 2,0
    goods(g, "C3.1", (0, 0, 0), (0, 0, 0))
    p = g.turn
    turn(g, "CAP*", "2,0 270")  # closes the chicken city
    want = [(0, 0, 0), (0, 0, 0)]
    want[p] = (1, 0, 0)
    goods(g, "C3.1", *want)


OPEN = ((1, 1), (2, 0))  # the open edges of the C3.1 river tile's city in the test above


def test_TB_C31_tile_A_road_dead_ends_in_its_one_field():
    """C3.1 tile A (its wikicarpedia picture): the road from E ends in the field, short of the city,
    and one field runs all round it. Turned 180 at 1,0 its road W ends the start road there: a
    village at -1,0 completes it (3 tiles, 3 points to the thief placed on the village tile).
    The farmer on A's field: the field wraps round the road's end and joins both start-tile
    fields, so it borders A's city (closed by a CAP: 3 at the end) and the open start city (0)."""
    g = position(Rules.base(traders_builders="C3.1"))
    turn(g, "TB3_A_cN_rE_deadend", "1,0 180 meeple field:NNW")  # P0: farmer
    fields = [f for f in g.features() if f.kind == "field" and (1, 0) in f.tiles]
    assert len(fields) == 1 and set(fields[0].tiles) == {(0, 0), (1, 0)}
    turn(g, "CROSS3*", "-1,0 0 meeple road:E")  # P1: closes the road's west end
    only(g, {1: {"roads": 3}})
    turn(g, "CAP*", "1,-1 0")  # P0: closes A's city (2 tiles, no knight, no goods)
    only(g, {1: {"roads": 3}})
    goods(g, "C3.1", (0, 0, 0), (0, 0, 0))
    play_out_quietly(g)
    only(g, {0: {"fields": 3}, 1: {"roads": 3}})


@pytest.mark.parametrize("ed", EDITIONS)
def test_TB_special_tiles_dead_end_road_and_bridge(ed):
    """Special tiles: the dead-end tile (#23) ends a road in its field: the start road,
    extended west to a village, is complete (4 tiles). The bridge (#24): its two roads do not
    connect (a thief may go on the N-S road while the W-E road is occupied; that road is
    completed alone), and its four fields are separate."""
    n = {"C3.1": "TB3_", "C2": "TB2_"}[ed]
    dead_end = [
        t for t in position(Rules.base(traders_builders=ed)).bag if t.startswith(n + "23_")
    ][0]
    bridge = [t for t in position(Rules.base(traders_builders=ed)).bag if t.startswith(n + "24_")][
        0
    ]
    g = position(Rules.base(traders_builders=ed))
    turn(g, "ROAD_WE*", "-1,0 0 meeple road:E")  # P0: thief on the start road
    turn(g, dead_end, "1,0 0")  # P1: road W ends in the field
    only(g, {})
    turn(g, "CROSS3*", "-2,0 0")  # P0: the village closes the west end
    only(g, {0: {"roads": 4}})
    g = position(Rules.base(traders_builders=ed))
    turn(g, "ROAD_WE*", "-1,0 0 meeple road:E")  # P0: thief on the start road
    assert g.draw(bridge) is True  # P1
    refused(g, "1,0 0 meeple road:E")  # the W-E road joins the start road (B9)
    assert "1,0 0 meeple road:N" in legal_texts(g)
    g.play("1,0 0 meeple road:N")
    fields = {f.at for f in g.features() if f.kind == "field" and (1, 0) in f.tiles}
    assert len(fields) == 4
    turn(g, "CROSS3*", "1,1 0")  # P0: village, closes the N end
    only(g, {})
    turn(g, "CROSS3*", "1,-1 180")  # P1: village, closes the S end
    only(g, {1: {"roads": 3}})
    assert figs(g) == [(0, "meeple", -1, 0, "road:E")]


# -- TB1, TB2, TB3: goods -----------------------------------------------------------------------


@pytest.mark.parametrize("ed", EDITIONS)
def test_TB1_one_tile_completes_two_goods_cities_tokens_from_both(ed):
    """TB1 with B19: a CAPS_NW tile (caps W and S at 1,-1) completes two unoccupied goods
    cities at once: a grain city (0,-1 + CAP 0,-2) and a chicken (C2: wine) city (1,-2 + CAP
    2,-2). The completing player takes one token of each."""
    t = TILES[ed]
    g = position(Rules.base(traders_builders=ed))
    turn(g, t["grain_corner"], "0,-1 180")  # P0: city E+S
    turn(g, "CAP*", "0,-2 0")  # P1: closes S
    turn(g, t["first_corner"], "1,-2 90")  # P0: city N+E
    turn(g, "CAP*", "2,-2 270")  # P1: closes E
    assert g.draw(pick(g, "CAPS_NW*")) is True
    rejected(g, "keep-farmer")  # no pig choice is waiting
    g.play("1,-1 270")  # P0: caps W and S close both
    done = [f for f in g.features() if f.kind == "city" and (1, -1) in f.tiles]
    assert len(done) == 2 and all(f.complete for f in done)
    goods(g, ed, (1, 1, 0), (0, 0, 0))
    only(g, {})


def _seed_example_1_city(g: Game, ed: str, knight: bool = True) -> None:
    """Seed example 1, rebuilt: a 5-tile city without coat of arms (10 points) showing one
    chicken (C2: wine) and two grain, with player 1's knight, completed by player 0.
    Tiles: start cap 0,0 (N); 0,1 first-kind corner turned 180 (S+E); 1,1 grain corner (N+W);
    1,2 grain corner with road turned 270 (S+W, road E); 0,2 CAP turned 90 (E) closes it."""
    t = TILES[ed]
    turn(g, t["first_corner"], "0,1 180")  # P0
    turn(g, t["grain_corner"], "1,1 0 meeple city:N" if knight else "1,1 0")  # P1 knight
    turn(g, t["grain_spur"], "1,2 270")  # P0
    turn(g, "ROAD_WE*", "-1,0 0")  # P1
    only(g, {})
    goods(g, ed, (0, 0, 0), (0, 0, 0))
    turn(g, "CAP*", "0,2 90")  # P0 closes


@pytest.mark.parametrize("ed", EDITIONS)
def test_TB1_seed_example1_goods_to_completing_player_knight_owner_scores_10(ed):
    """TB1, seed example 1: the city is scored as usual first (player 1's knight: 10 points),
    then only the player who completed it (player 0) takes one token per symbol: 1 chicken
    (C2: wine) and 2 grain. TB2 at the end: player 0 holds the most of two kinds: 20."""
    g = position(Rules.base(traders_builders=ed))
    _seed_example_1_city(g, ed)
    city = [f for f in g.features() if f.kind == "city" and (0, 0) in f.tiles][0]
    assert city.complete and len(city.tiles) == 5 and city.arms == 0
    only(g, {1: {"cities": 10}})
    goods(g, ed, (1, 2, 0), (0, 0, 0))
    assert figs(g) == [] and g.supply(1)["meeple"] == 7
    play_out_quietly(g)
    goods(g, ed, (1, 2, 0), (0, 0, 0))
    only(g, {0: {"goods": 20}, 1: {"cities": 10}})
    assert g.winners == [0]


@pytest.mark.parametrize("ed", EDITIONS)
def test_TB1_goods_to_completing_player_even_without_knight(ed):
    """TB1: nobody has a knight in the city: it scores nothing (B18) but the completing player
    (here player 1, who placed only the last, plain tile) still takes every symbol's token."""
    t = TILES[ed]
    g = position(Rules.base(traders_builders=ed))
    turn(g, t["first_corner"], "0,1 180")  # P0: S+E
    turn(g, "ROAD_WE*", "-1,0 0")  # P1
    turn(g, t["grain_corner"], "1,1 270")  # P0: W+S, open S at 1,0
    only(g, {})
    goods(g, ed, (0, 0, 0), (0, 0, 0))
    turn(g, "CAP_ROAD_WE*", "1,0 0")  # P1: city N closes the 4-tile city
    city = [f for f in g.features() if f.kind == "city" and (0, 0) in f.tiles][0]
    assert city.complete and sorted(city.tiles) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    only(g, {})
    goods(g, ed, (0, 0, 0), (1, 1, 0))
    # a completed city without goods symbols gives no token
    turn(g, "CORNER*", "2,1 90")  # P0: N+E city, W field (1,1's E is field)
    turn(g, "CAP*", "2,2 180")  # P1: closes N
    turn(g, "CAP*", "3,1 270")  # P0: closes E
    assert [f.complete for f in g.features() if f.kind == "city" and (2, 1) in f.tiles] == [True]
    goods(g, ed, (0, 0, 0), (1, 1, 0))
    only(g, {})


def _rings_a_b(g: Game, ed: str) -> None:
    """Ring A (player 0 completes): start cap 0,0 + first-kind corner 0,1 (S+E) + grain corner
    1,1 (W+S) + CAP_ROAD_WE 1,0. Ring B (player 1 completes), south of the start tile:
    CORNER 0,-1 (E+S), CORNER 1,-1 (W+S), cloth corner 0,-2 (N+E), grain corner 1,-2 (N+W).
    No knights: only goods change hands."""
    t = TILES[ed]
    turn(g, t["first_corner"], "0,1 180")  # P0
    turn(g, "CORNER*", "0,-1 180")  # P1
    turn(g, t["grain_corner"], "1,1 270")  # P0
    turn(g, "CORNER*", "1,-1 270")  # P1
    turn(g, "CAP_ROAD_WE*", "1,0 0")  # P0 closes ring A
    goods(g, ed, (1, 1, 0), (0, 0, 0))
    turn(g, t["cloth_road"], "0,-2 90")  # P1: N+E, road S
    turn(g, "ROAD_WE*", "2,0 0")  # P0
    turn(g, t["grain_road"], "1,-2 0")  # P1 closes ring B: N+W, road S


@pytest.mark.parametrize("ed", EDITIONS)
def test_TB2_seed_example2_goods_majorities_ties_all_score_10(ed):
    """TB2, seed example 2 (two players, 20 points each): player 0 holds 1 chicken (C2: wine)
    and 1 grain, player 1 holds 1 grain and 1 cloth. Chicken: player 0 alone, 10. Grain: a
    tie, both score 10. Cloth: player 1, 10; player 0 holds none and never scores it."""
    g = position(Rules.base(traders_builders=ed))
    _rings_a_b(g, ed)
    goods(g, ed, (1, 1, 0), (0, 1, 1))
    only(g, {})
    play_out_quietly(g)
    goods(g, ed, (1, 1, 0), (0, 1, 1))
    only(g, {0: {"goods": 20}, 1: {"goods": 20}})
    assert g.winners == [0, 1]


@pytest.mark.parametrize("ed", EDITIONS)
def test_TB2_only_the_most_tokens_score_and_none_held_never_scores(ed):
    """TB2: player 0 holds 1 chicken (C2: wine) and 2 grain (seed example 1's city), player 1
    1 grain and 1 cloth (no knights anywhere). Grain: 2 beats 1, only player 0 scores it.
    Chicken: player 0 alone; cloth: player 1 alone (player 0 holds none): 20 and 10."""
    t = TILES[ed]
    g = position(Rules.base(traders_builders=ed))
    _seed_example_1_city(g, ed, knight=False)
    goods(g, ed, (1, 2, 0), (0, 0, 0))
    # ring B south of the start tile, completed by player 1 (grain + cloth)
    turn(g, "CORNER*", "0,-1 180")  # P1
    turn(g, "CORNER*", "1,-1 270")  # P0
    turn(g, t["cloth_road"], "0,-2 90")  # P1
    turn(g, "ROAD_WE*", "-2,0 0")  # P0
    turn(g, t["grain_road"], "1,-2 0")  # P1 closes ring B
    goods(g, ed, (1, 2, 0), (0, 1, 1))
    only(g, {})
    play_out_quietly(g)
    only(g, {0: {"goods": 20}, 1: {"goods": 10}})


@pytest.mark.parametrize("ed", EDITIONS)
def test_TB2_kind_held_by_nobody_scores_nothing(ed):
    """TB2: only player 0 holds goods (one chicken / wine): 10 to player 0; grain and cloth
    are held by nobody (0 = 0 is no majority) and score nothing for anyone."""
    t = TILES[ed]
    g = position(Rules.base(traders_builders=ed))
    turn(g, t["first_corner"], "0,1 180")  # P0
    turn(g, "ROAD_WE*", "-1,0 0")  # P1
    turn(g, "CORNER*", "1,1 270")  # P0
    turn(g, "ROAD_WE*", "-2,0 0")  # P1
    turn(g, "CAP_ROAD_WE*", "1,0 0")  # P0 closes
    goods(g, ed, (1, 0, 0), (0, 0, 0))
    play_out_quietly(g)
    only(g, {0: {"goods": 10}})


@pytest.mark.parametrize("ed", EDITIONS)
def test_TB2_goods_ties_across_three_players(ed):
    """TB2 with three players: each completes one city. Player 0: 1 chicken (C2: wine) + 1
    grain; player 1: 1 grain + 1 cloth; player 2: 1 grain. Grain is a three-way tie: all three
    score 10. Chicken: player 0, cloth: player 1. Totals 20, 20, 10."""
    t = TILES[ed]
    g = position(Rules.base(traders_builders=ed), 3)
    turn(g, t["first_corner"], "0,1 180")  # P0  ring A: S+E
    turn(g, "CORNER*", "0,-1 180")  # P1  ring B: E+S
    turn(g, *t["ring_c"])  # P2  ring C: N+W (grain)
    turn(g, t["grain_corner"], "1,1 270")  # P0  ring A: W+S
    turn(g, "CORNER*", "1,-1 270")  # P1  ring B: W+S
    turn(g, "CORNER_CURVE*", "-1,2 270")  # P2  ring C: S+W
    turn(g, "CAP_ROAD_WE*", "1,0 0")  # P0  closes ring A
    goods(g, ed, (1, 1, 0), (0, 0, 0), (0, 0, 0))
    turn(g, t["cloth_road"], "0,-2 90")  # P1  ring B: N+E
    turn(g, "CORNER_CURVE*", "-2,1 90")  # P2  ring C: N+E
    turn(g, "ROAD_WE*", "2,0 0")  # P0
    turn(g, t["grain_road"], "1,-2 0")  # P1  closes ring B
    goods(g, ed, (1, 1, 0), (0, 1, 1), (0, 0, 0))
    turn(g, "CORNER_CURVE*", "-2,2 180")  # P2 closes ring C
    goods(g, ed, (1, 1, 0), (0, 1, 1), (0, 1, 0))
    only(g, {})
    play_out_quietly(g)
    goods(g, ed, (1, 1, 0), (0, 1, 1), (0, 1, 0))
    only(g, {0: {"goods": 20}, 1: {"goods": 20}, 2: {"goods": 10}})
    assert g.winners == [0, 1]


@pytest.mark.parametrize("ed", EDITIONS)
def test_TB3_goods_from_city_completed_in_second_part_go_to_active_player(ed):
    """TB3: player 0's builder gives a double turn; in the second part player 0 completes
    ring A (1 chicken / wine + 1 grain) holding player 1's knight: player 1 scores the city
    (4 tiles, 8), player 0 (the active player) takes the tokens. The second part's tile also
    extends the builder's road: no third part (TB6)."""
    t = TILES[ed]
    g = position(Rules.base(traders_builders=ed))
    if ed == "C3.1":
        turn(g, "ROAD_WE*", "-1,0 0 meeple road:E +builder")  # P0 thief + builder
        turn(g, t["first_corner"], "0,1 180 meeple city:E")  # P1 knight in ring A
        turn(g, "MON*", "0,-1 0")  # P0: away from the road
        assert g.active_player == 1 and g.double_turn is None
        turn(g, t["grain_corner"], "1,1 270")  # P1
        turn(g, "ROAD_WE*", "-2,0 0")  # P0 extends: triggered
    else:
        turn(g, "ROAD_WE*", "-1,0 0 meeple road:E")  # P0 thief
        turn(g, t["first_corner"], "0,1 180 meeple city:E")  # P1 knight in ring A
        turn(g, "ROAD_WE*", "-2,0 0 builder road:E")  # P0 builder on own road
        assert g.active_player == 1 and g.double_turn is None
        turn(g, t["grain_corner"], "1,1 270")  # P1
        turn(g, "ROAD_WE*", "-3,0 0")  # P0 extends: triggered
    assert g.active_player == 0 and g.turn == 0 and g.double_turn == "second part"
    goods(g, ed, (0, 0, 0), (0, 0, 0))
    turn(g, "CAP_ROAD_WE*", "1,0 0")  # P0, second part: closes A
    only(g, {1: {"cities": 8}})
    goods(g, ed, (1, 1, 0), (0, 0, 0))
    assert g.active_player == 1 and g.turn == 1 and g.double_turn is None


# -- TB4-TB7: builder, C3.1 ------------------------------------------------------------------


def test_TB4_C31_builder_only_with_thief_or_knight():
    """TB4: the builder is attached to a thief or knight placed in the same move
    (``meeple LABEL +builder``); never to a farmer, a monk, the abbot, never alone (the C2
    ``builder LABEL`` form is refused). Refused moves leave the game unchanged."""
    g = position(Rules.base(traders_builders="C3.1", abbot=True))
    assert g.draw(pick(g, "CAP_ROAD_WE*")) is True  # P0
    legal = legal_texts(g)
    assert "1,0 0 meeple road:E +builder" in legal
    refused(g, "1,0 0 meeple road:E +pig")
    refused(g, "1,0 0 meeple field:ENE +builder")  # farmer
    refused(g, "1,0 0 builder road:E")  # alone (C2 form)
    refused(g, "1,0 0 builder city:N")
    refused(g, "1,0 0 pig field:ENE")
    g.play("1,0 0")  # P0 places no figure
    assert g.draw(pick(g, "MON_ROAD*")) is True  # P1: monastery, road S ends at it
    legal = legal_texts(g)
    assert "0,-1 0 abbot monastery" in legal and "0,-1 0 meeple monastery" in legal
    assert "0,-1 0 meeple road:S +builder" in legal
    refused(g, "0,-1 0 meeple monastery +builder")  # monk
    refused(g, "0,-1 0 meeple field:NNW +builder")  # farmer
    rejected(g, "0,-1 0 abbot monastery +builder")  # abbot
    g.play("0,-1 0 meeple road:S +builder")
    assert figs(g) == [(1, "builder", 0, -1, "road:S"), (1, "meeple", 0, -1, "road:S")]
    assert g.supply(1) == {"meeple": 6, "abbot": 1, "builder": 0, "pig": 1}
    # placing the builder does not trigger a double turn (TB6)
    assert g.turn == 0 and g.double_turn is None
    turn(g, "ROAD_WE*", "2,0 0")  # P0
    assert g.draw(pick(g, "CAP*")) is True  # P1: the builder is on the board
    assert not any("+builder" in t for t in legal_texts(g))
    refused(g, "0,1 180 meeple city:S +builder")
    assert "0,1 180 meeple city:S" in legal_texts(g)


def test_TB4_C31_builder_returns_with_its_knight_when_the_city_is_scored():
    """TB4: a knight with the builder attached; player 1 completes the city (an opponent's
    extension never triggers the builder: TB5): the city scores 3 tiles = 6 for player 0,
    knight and builder return to player 0's supply."""
    g = position(Rules.base(traders_builders="C3.1"))
    turn(g, "CORNER*", "0,1 180 meeple city:E +builder")  # P0: city S+E joins the start
    assert figs(g) == [(0, "builder", 0, 1, "city:E"), (0, "meeple", 0, 1, "city:E")]
    turn(g, "CAP*", "1,1 270")  # P1 closes it
    only(g, {0: {"cities": 6}})
    assert figs(g) == []
    assert g.supply(0) == {"meeple": 7, "builder": 1, "pig": 1}
    assert g.turn == 0 and g.active_player == 0 and g.double_turn is None


def test_TB5_TB6_C31_seed_example5_double_turn():
    """Seed example 5. Player 0's thief has the builder. (1) Player 0 extends that road: the
    builder leaves the road (the thief stays), and at the end of the turn it returns to the
    supply and player 0 plays a second turn. (2) In the second part player 0 attaches the
    builder again, to a new knight. (3) That gives no third part: player 1 moves next. In a
    later turn the re-placed builder triggers again as usual."""
    g = position(Rules.base(traders_builders="C3.1"))
    turn(g, "ROAD_WE*", "1,0 0 meeple road:E +builder")  # P0: thief + builder, start road
    assert g.turn == 1 and g.double_turn is None  # placing never triggers
    turn(g, "CAP*", "0,-1 90")  # P1: city E, away from the road
    assert g.turn == 0
    assert g.draw(pick(g, "ROAD_WE*")) is True  # P0 extends the builder's road
    assert not any("+builder" in t for t in legal_texts(g))  # builder not in supply
    g.play("2,0 0")
    # (1) the builder is back in the supply; the thief stays; same player again
    assert g.turn == 0 and g.active_player == 0
    assert g.double_turn == "second part"
    assert g.decision == Decision.DRAW
    assert figs(g) == [(0, "meeple", 1, 0, "road:E")]
    assert g.supply(0) == {"meeple": 6, "builder": 1, "pig": 1}
    only(g, {})
    # (2) second part: extend the road again (builder not on it) and attach the builder
    # to a knight on the tile's new city
    turn(g, "CAP_ROAD_WE*", "3,0 0 meeple city:N +builder")
    # (3) no third part
    assert g.turn == 1 and g.active_player == 1 and g.double_turn is None
    assert figs(g, "builder") == [(0, "builder", 3, 0, "city:N")]
    assert g.supply(0) == {"meeple": 5, "builder": 0, "pig": 1}
    # player 1 extends player 0's builder city: no trigger for anyone
    turn(g, "CITY_WE*", "3,1 90")  # P1: city N-S over 3,0's city
    assert g.turn == 0 and g.double_turn is None
    # a later turn of player 0 extending it triggers again, even though the same tile
    # completes the city (3 tiles: 6 points; knight and builder back)
    turn(g, "CAP*", "3,2 180")  # P0
    only(g, {0: {"cities": 6}})
    assert g.turn == 0 and g.double_turn == "second part"
    assert g.supply(0) == {"meeple": 6, "builder": 1, "pig": 1}
    assert figs(g) == [(0, "meeple", 1, 0, "road:E")]
    turn(g, "MON*", "0,-2 0")  # P0, second part
    assert g.turn == 1 and g.double_turn is None


@pytest.mark.parametrize("ed", EDITIONS)
def test_TB5_TB8_first_tile_completes_builder_city_extra_turn_still_happens(ed):
    """TB5 (C3.1) / TB8 (C2): player 0's tile extends and completes the city holding player 0's
    knight and builder. The city scores (C3.1: 3 tiles = 6; C2: 4 tiles = 8), the knight and
    the builder return to the supply, and player 0 still gets the second part. The city shows
    goods: player 0 (the active player) takes them (TB1, TB3)."""
    t = TILES[ed]
    g = position(Rules.base(traders_builders=ed))
    if ed == "C3.1":
        turn(g, t["first_corner"], "0,1 180 meeple city:E +builder")  # P0: S+E, open E
        turn(g, "ROAD_WE*", "-1,0 0")  # P1
        turn(g, "CAP*", "1,1 270")  # P0 completes
        points = 6
    else:
        turn(g, t["first_corner"], "0,1 180 meeple city:E")  # P0: S+E, open E
        turn(g, "ROAD_WE*", "-1,0 0")  # P1
        turn(g, "CITY_WE*", "1,1 0 builder city:E")  # P0: W-E, builder
        assert figs(g, "builder") == [(0, "builder", 1, 1, "city:E")]
        assert g.supply(0) == {"meeple": 6, "builder": 0, "pig": 1}  # instead of a meeple
        assert g.turn == 1 and g.double_turn is None  # placing: no trigger
        turn(g, "ROAD_WE*", "-2,0 0")  # P1
        turn(g, "CAP*", "2,1 270")  # P0 completes
        points = 8
    only(g, {0: {"cities": points}})
    goods(g, ed, (1, 0, 0), (0, 0, 0))
    assert figs(g) == []
    assert g.supply(0) == {"meeple": 7, "builder": 1, "pig": 1}
    assert g.turn == 0 and g.active_player == 0 and g.double_turn == "second part"
    turn(g, "MON*", "0,-1 0")  # P0, second part
    assert g.turn == 1 and g.double_turn is None


@pytest.mark.parametrize("ed", EDITIONS)
def test_TB7_builder_strength_zero_city_tie(ed):
    """TB7 (C3.1) and C2: player 0's knight and builder against player 1's knight in one city:
    a tie (the builder has strength 0), both score the whole city (B16). (C2 closes it with a
    coat of arms: 5 tiles + 1 arms = 12; C3.1: 4 tiles = 8.)"""
    g = position(Rules.base(traders_builders=ed))
    if ed == "C3.1":
        turn(g, "CORNER*", "0,1 180 meeple city:E +builder")  # P0: start city + S+E
        turn(g, "ROAD_WE*", "1,0 0")  # P1
        turn(g, "ROAD_WE*", "2,0 0")  # P0
        turn(g, "CAP*", "2,1 270 meeple city:W")  # P1: a separate city
        turn(g, "ROAD_WE*", "-1,0 0")  # P0
        turn(g, "CITY_WE*", "1,1 0")  # P1 joins and completes them
        tiles = 4
    else:
        turn(g, "CORNER*", "0,1 180 meeple city:E")  # P0
        turn(g, "ROAD_WE*", "1,0 0")  # P1
        turn(g, "CITY_WE*", "1,1 0 builder city:E")  # P0: builder, open E at 2,1
        turn(g, "ROAD_WE*", "2,0 0")  # P1
        turn(g, "ROAD_WE*", "-1,0 0")  # P0
        turn(g, "ROAD_WE*", "3,0 0")  # P1
        turn(g, "ROAD_WE*", "-2,0 0")  # P0
        turn(g, "CAP*", "3,1 270 meeple city:W")  # P1: a separate city
        turn(g, "ROAD_WE*", "-3,0 0")  # P0
        turn(g, "CITY_WE_SHIELD*", "2,1 0")  # P1 joins and completes them
        tiles = 5
    arms = 0 if ed == "C3.1" else 1
    points = 2 * tiles + 2 * arms
    only(g, {0: {"cities": points}, 1: {"cities": points}})
    assert figs(g) == []
    assert g.supply(0) == {"meeple": 7, "builder": 1, "pig": 1}
    assert g.turn == 0 and g.double_turn is None


# -- TB8: builder, C2 ---------------------------------------------------------------------------


def test_TB8_C2_builder_only_on_feature_holding_own_meeple():
    """TB8: the C2 builder goes, instead of a meeple, on a road or city of the placed tile
    whose feature already holds one of the player's meeples. Refused (game unchanged): on a
    free road, on a road holding only the opponent's thief, on a field, in the C3.1 form."""
    g = position(Rules.base(traders_builders="C2"))
    assert g.draw(pick(g, "ROAD_WE*")) is True
    assert not any(" builder " in t or " pig " in t for t in legal_texts(g))
    refused(g, "1,0 0 builder road:E")  # the start road holds nobody
    g.play("1,0 0 meeple road:E")  # P0 thief on the start road
    turn(g, "ROAD_WE*", "0,-1 0 meeple road:E")  # P1 thief on a road to the south
    assert g.draw(pick(g, "ROAD_WE*")) is True  # P0
    legal = legal_texts(g)
    assert "2,0 0 builder road:E" in legal and "-1,0 0 builder road:E" in legal
    refused(g, "1,-1 0 builder road:E")  # P1's road
    refused(g, "0,-2 0 builder road:E")  # a new, free road
    refused(g, "2,0 0 builder field:NNW")  # not a road or city
    refused(g, "0,-2 0 meeple road:E +builder")  # C3.1 form
    refused(g, "2,0 0 pig field:NNW")  # no farmer there
    g.play("2,0 0 builder road:E")
    assert figs(g) == [
        (0, "builder", 2, 0, "road:E"),
        (0, "meeple", 1, 0, "road:E"),
        (1, "meeple", 0, -1, "road:E"),
    ]
    assert g.supply(0) == {"meeple": 6, "builder": 0, "pig": 1}
    assert g.turn == 1 and g.double_turn is None  # placing never triggers
    assert g.draw(pick(g, "ROAD_WE*")) is True  # P1
    refused(g, "3,0 0 builder road:E")  # player 0's road: no meeple of P1
    assert "1,-1 0 builder road:E" in legal_texts(g)


def test_TB8_C2_builder_stays_and_gives_one_extra_turn_per_own_extension():
    """TB8: the C2 builder stays on the road; each later turn in which player 0 extends the
    road gives one second part (TB6), and extending it again in the second part gives no
    third. Player 1 extending it gives nothing. When the road is completed and scored the
    builder returns."""
    g = position(Rules.base(traders_builders="C2"))
    turn(g, "ROAD_WE*", "1,0 0 meeple road:E")  # P0 thief
    turn(g, "CAP*", "0,1 180")  # P1
    turn(g, "ROAD_WE*", "2,0 0 builder road:E")  # P0 builder
    turn(g, "MON*", "0,-1 0")  # P1
    turn(g, "ROAD_WE*", "3,0 0")  # P0 extends: triggered
    assert g.turn == 0 and g.double_turn == "second part"
    assert figs(g, "builder") == [(0, "builder", 2, 0, "road:E")]  # stays (C2)
    turn(g, "ROAD_WE*", "4,0 0")  # P0, second part: extends again
    assert g.turn == 1 and g.double_turn is None  # no third part
    turn(g, "ROAD_WE*", "5,0 0")  # P1 extends: nothing
    assert g.turn == 0 and g.double_turn is None
    turn(g, "ROAD_WE*", "-1,0 0")  # P0 extends the west end
    assert g.turn == 0 and g.double_turn == "second part"
    turn(g, "CROSS3*", "6,0 0")  # P0, second part: closes east end
    assert g.turn == 1 and g.double_turn is None
    only(g, {})
    turn(g, "CROSS3*", "-2,0 0")  # P1 closes the road: 9 tiles
    only(g, {0: {"roads": 9}})
    assert figs(g) == []
    assert g.supply(0) == {"meeple": 7, "builder": 1, "pig": 1}
    assert g.turn == 0 and g.double_turn is None


# -- TB9-TB11: pig, C3.1 -------------------------------------------------------------------------


def test_TB9_C31_pig_only_with_a_farmer():
    """TB9: the pig is attached to a farmer placed in the same move (``meeple LABEL +pig``),
    inner fields included; never to a thief or knight, never alone (C2 form refused)."""
    g = position(Rules.base(traders_builders="C3.1"))
    assert g.draw(pick(g, "ROAD_WE*")) is True
    legal = legal_texts(g)
    assert "1,0 0 meeple field:NNW +pig" in legal
    refused(g, "1,0 0 meeple road:E +pig")
    refused(g, "1,0 0 pig field:NNW")
    g.play("1,0 0 meeple field:NNW +pig")
    assert figs(g) == [(0, "meeple", 1, 0, "field:NNW"), (0, "pig", 1, 0, "field:NNW")]
    assert g.supply(0) == {"meeple": 6, "builder": 1, "pig": 0}
    # inner field of a T&B tile: the pig may go with the farmer
    assert g.draw("TB3_03_cWE_cS_cloth") is True  # P1: city S closes the start city
    assert "0,1 0 meeple field +pig" in legal_texts(g)
    g.play("0,1 0 meeple field +pig")
    assert figs(g, "pig") == [(0, "pig", 1, 0, "field:NNW"), (1, "pig", 0, 1, "field")]
    # the start city had no coat of arms: no pig scoring
    only(g, {})
    assert g.decision == Decision.DRAW and g.turn == 0
    assert g.draw(pick(g, "ROAD_WE*")) is True  # P0: the pig is on the board
    assert not any("+pig" in t for t in legal_texts(g))
    refused(g, "-1,0 0 meeple field:ESE +pig")


def _seed_example_7(g: Game, fillers: int = 0) -> None:
    """Seed example 7a, rebuilt with 3 players (0 = "you", 1 = blue, 2 = yellow).
    Player 0's farmer and pig: the field round the CAP at 0,1, which touches the completed
    start city. Players 1 and 2: farmer and pig each in the start tile's north strip, joined
    through a CROSS4 (its NW and NE corner fields) and a MON_ROAD north of it; the field
    touches the completed start city only. Then a 3-tile city with a coat of arms south of
    the start tile, touching none of those fields, is completed (after ``fillers``
    monasteries further south) by player ``fillers % 3``."""
    turn(g, "CAP*", "0,1 180 meeple field:NNW +pig")  # P0: also completes the start city
    turn(g, "ROAD_WE*", "1,0 0 meeple field:NNW +pig")  # P1: the start tile's north strip
    turn(g, "CROSS4*", "2,0 0 meeple field:NNE +pig")  # P2: the NE corner, still separate
    turn(g, "MON_ROAD*", "2,1 0")  # P0: joins P1's and P2's fields
    only(g, {})
    assert g.decision == Decision.DRAW  # the start city has no coat of arms: no pig scoring
    turn(g, "CITY_WE_SHIELD*", "0,-1 0")  # P1: city W-E, coat of arms
    turn(g, "CAP*", "-1,-1 90")  # P2: closes it west
    for i in range(fillers):
        turn(g, ["MON", "MON.shed"][i], f"0,{-2 - i} 0")
    assert g.decision == Decision.DRAW and g.turn == fillers % 3
    turn(g, "CAP*", "1,-1 270")  # closes it east: coat of arms city


def test_TB10_seed_examples_7a_7b_pig_scoring_and_farmer_choices():
    """TB10, seed examples 7a and 7b: a city with a coat of arms is completed (by player 0,
    unoccupied), so all pigs score: player 0's field touches 1 completed city: 3; the field
    of player 1's and player 2's pigs touches 1 completed city: 3 each. Player 0 (active)
    first, then clockwise; each pig returns, and each owner chooses: player 0 keeps the
    farmer, player 1 keeps it, player 2 takes it back. Then player 1's turn."""
    g = position(Rules.base(traders_builders="C3.1"), 3)
    _seed_example_7(g)
    # 7b: player 0 decides first, its pig has scored and is back
    assert g.decision == Decision.FARMER
    assert g.active_player == 0 and g.turn == 0
    assert g.tile is None
    rejected(g, "0,-2 0")  # no tile waits: only the choice is a move
    assert g.breakdown[0]["pigs"] == 3
    assert g.supply(0)["pig"] == 1
    choose(g, "keep-farmer")
    assert g.decision == Decision.FARMER and g.active_player == 0 and g.turn == 1
    assert g.breakdown[1]["pigs"] == 3 and g.supply(1)["pig"] == 1
    choose(g, "keep-farmer")
    assert g.decision == Decision.FARMER and g.active_player == 0 and g.turn == 2
    assert g.breakdown[2]["pigs"] == 3 and g.supply(2)["pig"] == 1
    choose(g, "return-farmer")
    assert g.decision == Decision.DRAW and g.active_player == 1 and g.turn == 1
    only(g, {0: {"pigs": 3}, 1: {"pigs": 3}, 2: {"pigs": 3}})
    assert figs(g) == [(0, "meeple", 0, 1, "field:NNW"), (1, "meeple", 1, 0, "field:NNW")]
    assert [g.supply(p) for p in range(3)] == [
        {"meeple": 6, "builder": 1, "pig": 1},
        {"meeple": 6, "builder": 1, "pig": 1},
        {"meeple": 7, "builder": 1, "pig": 1},
    ]


@pytest.mark.parametrize("active", [1, 2])
def test_TB10_pig_order_active_player_first_then_clockwise(active):
    """TB10: the pigs score and their owners choose in turn order starting with the active
    player (the one who completed the coat-of-arms city), then clockwise."""
    g = position(Rules.base(traders_builders="C3.1"), 3)
    _seed_example_7(g, fillers=active)
    order = []
    while g.decision == Decision.FARMER:
        assert g.active_player == active
        order.append(g.turn)
        assert g.breakdown[g.turn]["pigs"] == 3
        choose(g, "keep-farmer")
    assert order == [(active + k) % 3 for k in range(3)]
    assert g.decision == Decision.DRAW and g.turn == (active + 1) % 3
    only(g, {0: {"pigs": 3}, 1: {"pigs": 3}, 2: {"pigs": 3}})


def _pig_then_arms_city(g: Game) -> None:
    """Player 0's farmer and pig in the start tile's north strip (touching the start city);
    player 1 completes the start city (no coat of arms: no pig scoring), then, unoccupied,
    a 3-tile city with a coat of arms south of the start tile: pig scoring in player 1's
    turn, and player 0 (the pig's owner) must choose."""
    turn(g, "ROAD_WE*", "1,0 0 meeple field:NNW +pig")  # P0
    turn(g, "CAP*", "0,1 180")  # P1: start city complete, no arms
    only(g, {})
    assert g.decision == Decision.DRAW and g.turn == 0
    turn(g, "CORNER_SHIELD*", "0,-1 180")  # P0: city E+S with coat of arms
    turn(g, "CAP*", "0,-2 0")  # P1: closes S
    turn(g, "MON*", "0,-3 0")  # P0
    turn(g, "CAP*", "1,-1 270")  # P1: closes E: 3 tiles + arms


@pytest.mark.parametrize("choice", ["keep-farmer", "return-farmer"])
def test_TB10_TB11_farmer_choice_then_later_pig_scoring_and_final(choice):
    """TB10: player 1 completes an unoccupied coat-of-arms city: player 0's pig scores 3 (its
    field touches the completed start city) in player 1's turn, and player 0 chooses.
    keep-farmer: the farmer stays without its pig; return-farmer: the farmer returns with
    the pig. A second coat-of-arms city later involves neither (no pig on the board, no
    choice). TB11: at the end a pig scores nothing; the kept farmer scores its field (3)."""
    g = position(Rules.base(traders_builders="C3.1"))
    _pig_then_arms_city(g)
    assert g.decision == Decision.FARMER
    assert g.active_player == 1 and g.turn == 0
    assert g.breakdown[0]["pigs"] == 3
    choose(g, choice)
    assert g.decision == Decision.DRAW and g.turn == 0 and g.active_player == 0
    only(g, {0: {"pigs": 3}})
    assert figs(g, "pig") == []
    if choice == "keep-farmer":
        assert figs(g) == [(0, "meeple", 1, 0, "field:NNW")]
        assert g.supply(0) == {"meeple": 6, "builder": 1, "pig": 1}
    else:
        assert figs(g) == []
        assert g.supply(0) == {"meeple": 7, "builder": 1, "pig": 1}
    # a second coat-of-arms city, completed by player 0 itself: no pig anywhere
    turn(g, "CORNER_SHIELD*", "-1,-1 270")  # P0: city W+S with arms
    turn(g, "CAP*", "-1,-2 0")  # P1: closes S
    turn(g, "CAP*", "-2,-1 90")  # P0: closes W
    assert g.decision == Decision.DRAW and g.turn == 1
    only(g, {0: {"pigs": 3}})
    # the pig is back and may go with a new farmer
    turn(g, "ROAD_WE*", "2,0 0")  # P1
    assert g.draw(pick(g, "ROAD_WE*")) is True
    assert "-1,0 0 meeple field:ESE +pig" in legal_texts(g)
    g.play("-1,0 0")
    play_out_quietly(g)
    if choice == "keep-farmer":
        only(g, {0: {"pigs": 3, "fields": 3}})
    else:
        only(g, {0: {"pigs": 3}})


def test_TB10_one_tile_completes_two_coat_of_arms_cities_pigs_score_once():
    """TB10 decision: one tile (CAPS_NW at 1,-1) completes two coat-of-arms cities, each
    holding a knight: both score first (8 each), then the pigs score once: player 0's pig,
    placed with that tile on its field touching both cities: 6; player 1's pig, in the field
    of the CAP at 2,0 touching one of them: 3. One choice per pig."""
    g = position(Rules.base(traders_builders="C3.1"))
    turn(g, "CITY_WE_SHIELD*", "0,-1 0 meeple city:E")  # P0: city A, arms
    turn(g, "CORNER_CURVE_SHIELD*", "1,0 180 meeple city:E")  # P1: city B E+S, arms
    turn(g, "CAP*", "-1,-1 90")  # P0: closes A west
    turn(g, "CAP*", "2,0 270 meeple field:NNW +pig")  # P1: closes B east; pig
    only(g, {})
    assert g.decision == Decision.DRAW and g.turn == 0
    turn(g, "CAPS_NW*", "1,-1 0 meeple field:ENE +pig")  # P0 closes A and B
    cities = [f for f in g.features() if f.kind == "city" and (1, -1) in f.tiles]
    assert len(cities) == 2 and all(c.complete and c.arms == 1 for c in cities)
    assert g.decision == Decision.FARMER and g.turn == 0
    only(g, {0: {"cities": 8, "pigs": 6}, 1: {"cities": 8, "pigs": 3}})
    choose(g, "keep-farmer")
    assert g.decision == Decision.FARMER and g.turn == 1
    choose(g, "keep-farmer")
    assert g.decision == Decision.DRAW and g.turn == 1
    only(g, {0: {"cities": 8, "pigs": 6}, 1: {"cities": 8, "pigs": 3}})


def test_TB6_TB10_pig_choice_inside_the_first_part_of_a_double_turn():
    """T4/T6: player 0's tile extends and completes its coat-of-arms city holding its knight
    and builder (8 points). Player 1's pig then scores 3 (its field touches that city) and
    player 1 chooses while player 0's builder is triggered; then player 0's second part."""
    g = position(Rules.base(traders_builders="C3.1"))
    turn(g, "CORNER_SHIELD*", "0,1 180 meeple city:E +builder")  # P0: S+E, arms
    turn(g, "ROAD_WE*", "1,0 0 meeple field:NNW +pig")  # P1: north strip
    turn(g, "CAP*", "1,1 270")  # P0: completes, triggers
    assert g.decision == Decision.FARMER
    assert g.turn == 1 and g.active_player == 0
    assert g.double_turn == "builder triggered"
    only(g, {0: {"cities": 8}, 1: {"pigs": 3}})
    choose(g, "return-farmer")
    assert g.decision == Decision.DRAW
    assert g.turn == 0 and g.active_player == 0 and g.double_turn == "second part"
    assert figs(g) == []
    assert g.supply(0) == {"meeple": 7, "builder": 1, "pig": 1}
    assert g.supply(1) == {"meeple": 7, "builder": 1, "pig": 1}
    turn(g, "MON*", "0,-1 0")  # P0, second part
    assert g.turn == 1 and g.double_turn is None


def test_TB9_TB11_C31_pig_strength_zero_and_nothing_at_the_end():
    """TB9: player 0's farmer with pig and player 1's farmer share a field touching one
    completed city: a tie (the pig has strength 0), both score 3. TB11: the pig adds
    nothing at final scoring."""
    g = position(Rules.base(traders_builders="C3.1"))
    turn(g, "CAP*", "0,1 180 meeple field:NNW +pig")  # P0: completes the start city
    turn(g, "ROAD_WE*", "1,0 0 meeple field:NNW")  # P1: the start tile's north strip
    turn(g, "MON*", "1,1 0")  # P0 joins the two fields
    field = [f for f in g.features() if f.kind == "field" and f.figures]
    assert len(field) == 1 and field[0].completed_cities == 1
    play_out_quietly(g)
    only(g, {0: {"fields": 3}, 1: {"fields": 3}})
    assert (0, "pig", 0, 1, "field:NNW") in figs(g)


# -- TB12: pig, C2 ------------------------------------------------------------------------------


def test_TB12_C2_pig_only_on_field_holding_own_farmer():
    """TB12: the C2 pig goes, instead of a meeple, on a field of the placed tile that already
    holds one of the player's farmers. Refused (game unchanged): on a free field, on a field
    holding only the opponent's farmer, on a road, in the C3.1 form."""
    g = position(Rules.base(traders_builders="C2"))
    assert g.draw(pick(g, "ROAD_WE*")) is True
    refused(g, "1,0 0 pig field:NNW")  # nobody's field
    refused(g, "1,0 0 meeple field:NNW +pig")  # C3.1 form
    g.play("1,0 0 meeple field:NNW")  # P0 farmer, north strip
    turn(g, "ROAD_WE*", "-1,0 0 meeple field:ESE")  # P1 farmer, south field
    assert g.draw(pick(g, "ROAD_WE*")) is True  # P0
    legal = legal_texts(g)
    assert "2,0 0 pig field:NNW" in legal and "-2,0 0 pig field:NNW" in legal
    refused(g, "2,0 0 pig field:ESE")  # P1's farmer's field
    refused(g, "0,-1 0 pig field:NNW")  # P1's farmer's field (south)
    refused(g, "2,0 0 pig road:E")  # a road
    refused(g, "2,0 0 meeple field:ESE +pig")  # C3.1 form
    g.play("2,0 0 pig field:NNW")
    assert figs(g, "pig") == [(0, "pig", 2, 0, "field:NNW")]
    assert g.supply(0) == {"meeple": 6, "builder": 1, "pig": 0}  # instead of a meeple
    assert g.draw(pick(g, "ROAD_WE*")) is True  # P1
    refused(g, "3,0 0 pig field:NNW")  # player 0's field: no farmer of P1
    assert "3,0 0 pig field:ESE" in legal_texts(g)


def test_TB12_C2_pig_final_bonus_owner_wins_alone():
    """TB12: player 0's farmer and pig in a field touching two completed cities, nobody else:
    the field scores 3 per city (6) under fields, and the pig 1 more per city (2) under
    pigs: 4 per city. A coat-of-arms city completed during the game scores no C2 pig
    (TB10 is C3.1 only)."""
    g = position(Rules.base(traders_builders="C2"))
    turn(g, "CAP*", "0,1 180 meeple field:NNW")  # P0: farmer; start city complete
    turn(g, "CAP*", "1,1 0")  # P1: a cap N at 1,1, field joins
    turn(g, "ROAD_WE*", "1,0 0 pig field:NNW")  # P0: pig (1,0 north joins too)
    assert figs(g, "pig") == [(0, "pig", 1, 0, "field:NNW")]
    turn(g, "CORNER_SHIELD*", "1,2 180")  # P1: city S+E with arms
    turn(g, "MON*", "0,-1 0")  # P0: away
    turn(g, "CAP*", "2,2 270")  # P1: completes the arms city
    assert g.decision == Decision.DRAW and g.turn == 0
    only(g, {})
    field = [f for f in g.features() if f.kind == "field" and f.figures]
    assert len(field) == 1 and field[0].completed_cities == 2
    play_out_quietly(g)
    only(g, {0: {"fields": 6, "pigs": 2}})


@pytest.mark.parametrize("case", ["tie", "loses"])
def test_TB12_C2_pig_bonus_only_when_owner_scores_the_field(case):
    """TB12 with B16: player 0's farmer and pig against player 1's farmer(s) in one field
    touching one completed city. tie: both score the field, player 0 gets 4 (3 + pig 1),
    player 1 3. loses (player 1 has two farmers): player 1 scores 3, player 0 nothing, the
    pig included."""
    g = position(Rules.base(traders_builders="C2"))
    turn(g, "CAP*", "0,1 180 meeple field:NNW")  # P0: farmer F1; start city complete
    turn(g, "ROAD_WE*", "1,0 0 meeple field:NNW")  # P1: farmer F2 (north strip)
    turn(g, "ROAD_WE*", "0,2 0 pig field:ESE")  # P0: pig, on F1 (south of 0,2)
    if case == "tie":
        turn(g, "MON*", "1,1 0")  # P1 joins F1 and F2
        want = {0: {"fields": 3, "pigs": 1}, 1: {"fields": 3}}
    else:
        turn(g, "ROAD_CURVE_SW*", "1,2 0 meeple field:NNW")  # P1: farmer F3, north of 0,2
        turn(g, "MON*", "0,-1 0")  # P0: away
        turn(g, "MON_ROAD*", "1,1 180")  # P1 joins F1, F2, F3
        want = {1: {"fields": 3}}
    fields = [f for f in g.features() if f.kind == "field" and f.figures]
    assert len(fields) == 1 and fields[0].completed_cities == 1
    play_out_quietly(g)
    only(g, want)


# -- last tile, and whole games --------------------------------------------------------------


def test_TB6_builder_triggered_by_the_last_tile_returns_to_supply():
    """TB6 with B20: the last tile of the game extends its player's builder road. That turn
    ends the game; at the end of the turn the builder returns to the supply (it does not
    stay beside the tile stacks), and no further part is announced. Both players have a
    thief with builder, so whoever draws the last tile extends their own road: player 0 the
    start road (east end 2,0), player 1 a road south of it (east end 1,-1)."""
    g = position(Rules.base(traders_builders="C3.1"))
    turn(g, "ROAD_WE*", "1,0 0 meeple road:E +builder")  # P0: start road
    turn(g, "ROAD_WE*", "0,-1 0 meeple road:E +builder")  # P1: separate road
    spots = frozenset({(2, 0), (2, 1), (3, 0), (2, -1), (1, -1), (1, -2)})
    play_out_quietly(g, keep=("ROAD_CURVE_SW",), avoid=spots)
    assert g.bag == {"ROAD_CURVE_SW": 1}
    p = g.turn
    assert g.double_turn is None and g.decision == Decision.DRAW
    move = {0: "2,0 0", 1: "1,-1 0"}[p]
    turn(g, "ROAD_CURVE_SW", move)  # extends p's own builder road
    assert g.is_over() and g.decision == Decision.OVER
    assert g.double_turn is None
    assert figs(g, "builder") == [(1 - p, "builder", *{0: (1, 0), 1: (0, -1)}[1 - p], "road:E")]
    assert g.supply(p) == {"meeple": 6, "builder": 1, "pig": 1}
    assert g.supply(1 - p) == {"meeple": 6, "builder": 0, "pig": 1}
    # B21: the roads are incomplete: 1 per tile (start road 2 tiles, the other 1; +1 for
    # the one the last tile extended)
    only(g, {0: {"roads": 2 + (p == 0)}, 1: {"roads": 1 + (p == 1)}})


def total_tiles(rules: Rules) -> int:
    """72 land tiles (B1), + 12 river tiles (R1), + 24 T&B tiles, of which the C3.1 river
    tile only with the River (R7): 23 without."""
    tb = {"C3.1": "traders_builders_c31", "C2": "traders_builders_c2"}[rules.traders_builders]
    n = 0
    for s, c, edges in COUNTS.values():
        river = ("river", "river_" + rules.river_edition.lower())
        if s == "base" or (s in river and rules.river):
            n += c
        elif s == tb and (rules.river or "I" not in edges):
            n += c
    return n


def test_TB_R1_tile_totals_per_edition_and_river():
    assert total_tiles(Rules.base(traders_builders="C3.1")) == 72 + 23
    assert total_tiles(Rules.base(traders_builders="C2")) == 72 + 24
    assert total_tiles(Rules(traders_builders="C3.1")) == 72 + 12 + 24
    assert total_tiles(Rules(traders_builders="C2")) == 72 + 12 + 24


def check_position(g: Game) -> None:
    """Figures conserved (7 meeples, 1 abbot with the Abbot, 1 builder, 1 pig per player:
    in supply or on the board; a C3.1 builder triggered in the current part stands beside
    the stacks until the part ends), tiles conserved, goods never more than the symbols."""
    figures = g.figures()
    for p in range(g.players):
        s = g.supply(p)
        mine = [f for f in figures if f.player == p]
        beside = int(
            g.rules.traders_builders == "C3.1"
            and p == g.active_player
            and g.double_turn == "builder triggered"
            and not g.is_over()
        )
        assert s["meeple"] + sum(f.role == "meeple" for f in mine) == 7, (p, s, mine)
        assert s.get("abbot", 0) + sum(f.role == "abbot" for f in mine) == int(g.rules.abbot)
        assert s["builder"] + sum(f.role == "builder" for f in mine) + beside == 1, (p, s, mine)
        assert s["pig"] + sum(f.role == "pig" for f in mine) == 1, (p, s, mine)
        assert min(s.values()) >= 0
        # C3.1: a builder or pig stands with a meeple of its owner on the same segment
        if g.rules.traders_builders == "C3.1":
            for f in mine:
                if f.role in ("builder", "pig"):
                    assert (p, "meeple", f.x, f.y, f.segment) in {
                        (h.player, h.role, h.x, h.y, h.segment) for h in mine
                    }, f
    waiting = 1 if g.tile is not None else 0
    assert len(g.board) + sum(g.bag.values()) + g.discarded + waiting == total_tiles(g.rules)
    first = "chicken" if g.rules.traders_builders == "C3.1" else "wine"
    held = [g.goods(p) for p in range(g.players)]
    for kind, n in ((first, 9), ("grain", 6), ("cloth", 5)):
        assert sum(h[kind] for h in held) <= n
    if g.is_over():
        assert g.double_turn is None and g.decision == Decision.OVER


def _choose_move(g: Game, rnd: random.Random, eager: bool):
    """A random legal move; ``eager`` games prefer moves placing a builder or pig."""
    legal = g.legal_moves
    if eager and rnd.random() < 0.6:
        special = [m for m in legal if "builder" in str(m) or "pig" in str(m)]
        if special:
            return rnd.choice(special)
    return rnd.choice(legal)


@settings(
    max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    edition=st.sampled_from(EDITIONS),
    river=st.booleans(),
    abbot=st.booleans(),
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32 - 1),
    moves=st.integers(0, 2**32 - 1),
    eager=st.booleans(),
)
def test_TB_whole_game_properties(edition, river, abbot, players, seed, moves, eager):
    """Random whole games, both editions, River on and off, 2-5 players: no exception; at
    every step figures (meeples, abbots, builders, pigs) and tiles conserved, scores never
    decrease, a double turn keeps the same player and never has a third part; the record
    replays to the same fingerprint."""
    rules = Rules(river=river, abbot=abbot, traders_builders=edition)
    g = Game(rules, players=players, seed=seed)
    rnd = random.Random(moves)
    check_position(g)
    last = g.scores
    while not g.is_over():
        before = (g.decision, g.active_player, g.double_turn)
        if g.decision == Decision.FARMER:
            assert g.legal_moves and {str(m) for m in g.legal_moves} == {
                "keep-farmer",
                "return-farmer",
            }
        g.play(_choose_move(g, rnd, eager))
        check_position(g)
        assert all(a >= b for a, b in zip(g.scores, last, strict=True)), (last, g.scores)
        last = g.scores
        if g.decision in (Decision.DRAW, Decision.PLACE) and before[0] != Decision.DRAW:
            # a turn part just ended
            if g.double_turn == "second part":
                assert before[2] != "second part", "a third part (TB6)"
                assert g.active_player == before[1]
            elif not g.is_over():
                assert g.active_player == (before[1] + 1) % players
    assert sum(g.bag.values()) == 0
    text = g.to_json()
    h = Game.from_record(json.loads(text))
    assert h.fingerprint() == g.fingerprint()
    assert h.scores == g.scores and h.breakdown == g.breakdown


def test_TB4_C31_no_builder_with_a_meeple_on_a_road_or_city_the_tile_completes():
    """TB4 (engine decision, as JCloisterZone): the builder may not go with a meeple onto a
    road or city that the placed tile completes; it would return at once, so the move would
    be the same as the meeple alone. The meeple alone stays legal (B11) and scores."""
    g = position(Rules.base(traders_builders="C3.1"))
    assert g.draw(pick(g, "CAP*")) is True  # P0: closes the start tile's city
    legal = legal_texts(g)
    assert "0,1 180 meeple city:S" in legal
    refused(g, "0,1 180 meeple city:S +builder")
    with pytest.raises(IllegalMoveError, match="completes that city") as e:
        g.play("0,1 180 meeple city:S +builder")
    assert e.value.rule == "TB4"
    g.play("0,1 180")
    turn(g, "CROSS3*", "-1,0 0")  # P1 closes the start road's west end
    assert g.draw(pick(g, "CROSS3*")) is True  # P0: closes its east end
    legal = legal_texts(g)
    assert "1,0 0 meeple road:E +builder" in legal  # a new road, open
    refused(g, "1,0 0 meeple road:W +builder")
    g.play("1,0 0 meeple road:W")
    only(g, {0: {"roads": 3}})
    assert g.supply(0) == {"meeple": 7, "builder": 1, "pig": 1}


def test_TB8_C2_no_builder_on_a_road_the_tile_completes():
    """TB8 (engine decision, as JCloisterZone): the C2 builder may not go on the player's road
    that the placed tile completes (it would return at once); on the same road still open it
    may."""
    g = position(Rules.base(traders_builders="C2"))
    turn(g, "ROAD_WE*", "1,0 0 meeple road:E")  # P0 thief on the start road
    turn(g, "CAP*", "0,1 180")  # P1, away from the road
    assert g.draw(pick(g, "CROSS3*")) is True  # P0: the west end is still open
    assert "2,0 0 builder road:W" in legal_texts(g)
    g.play("2,0 0")  # closes the east end
    turn(g, "ROAD_WE*", "-1,0 0")  # P1 extends the west end
    assert g.draw(pick(g, "CROSS3*")) is True  # P0: closes the road
    assert "-2,0 0 builder road:S" not in legal_texts(g)  # a new road holds no meeple
    refused(g, "-2,0 0 builder road:E")
    with pytest.raises(IllegalMoveError, match="completes that road") as e:
        g.play("-2,0 0 builder road:E")
    assert e.value.rule == "TB8"
    g.play("-2,0 0")
    only(g, {0: {"roads": 5}})
    assert g.supply(0) == {"meeple": 7, "builder": 1, "pig": 1}
