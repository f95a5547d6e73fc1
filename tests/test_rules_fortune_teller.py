"""Fortune Teller rules FT1-FT9 (docs/rules.md, turn order T).

Every scenario uses ``chance="manual"`` (the test names each drawn tile) and the notation of
docs/notation.md: x east, y north, rotations clockwise, labels in board orientation. Without
the River the start tile CAP_ROAD_WE lies at 0,0 unturned: city N, road W-E, field S.

Engine decisions under test (docs/rules.md FT3-FT5, FT7): a tent scores (3 points, source
``fortune_tellers``, to the player who placed the 4th orthogonal neighbour) only when a
fortune teller stands on it, and the teller then returns; the tiles drawn but not placed go
back into the bag at the end of the whole turn (after a builder's second part).

Tent tiles used (the real tiles, src/engine/tiles/fortune_teller.tiles), canonical orientation:
  FT04_ROAD_TO_TENT     FFFR  road W ends at the tent (turned 270: road S; the tile used
                              where a tent tile with three field sides is needed)
  FT05_ROAD_NS.garden   RFRF  tent beside a road N-S (C2 art, the default: a garden beside the
                              road, inert without the Abbot); turned 90: road W-E
  FT02_CAPS_NS          CFCF  two separate city caps N and S
  FT03_CURVE_ES         FRRF  road E-S runs through
  FT07_CAP_W_ROAD_NS    RFRC  city cap W, road N-S
  FT08_CAP_E_ROAD_TO_CITY FCRF city cap E, road S ends at its gate
An unplaceable tile is made early in a base game by closing the start city and both ends of
the start road: then every open edge of the board is a field, and no tile without a field
edge (CITY4_SHIELD.watertower CCCC, CROSS4 RRRR, CAP_CROSS3 CRRR, ...) fits anywhere.

Whole games (hypothesis) run with the option alone and with every other option: River,
Abbot, Traders & Builders (C3.1, C2), Toll Collectors.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carcassonne import Catalogue, Decision, Game, IllegalMoveError, InvalidMoveError, Rules
from carcassonne.scenario import position, turn

from rulehelpers import legal_texts, only, refused

# -- helpers ------------------------------------------------------------------------------------

SOURCES = (
    "roads",
    "cities",
    "monasteries",
    "gardens",
    "fields",
    "goods",
    "pigs",
    "tolls",
    "fortune_tellers",
)
CITY4 = "CITY4_SHIELD.watertower"
FORTUNE = Rules.base(fortune_teller=True)


def bag_n(g: Game) -> int:
    return sum(g.bag.values())


def tellers(g: Game) -> list[int]:
    return list(g.fortune_tellers())


def figs(g: Game) -> list[tuple]:
    return sorted((f.player, f.role, f.x, f.y, f.segment) for f in g.figures())


def draw_hand(g: Game, tiles: list[str]) -> None:
    """Draw a hand of 2 or 3 tiles: DRAW until the last one, then CHOOSE (FT3)."""
    assert len(tiles) >= 2
    for i, t in enumerate(tiles):
        assert g.decision == Decision.DRAW, (i, g.decision)
        assert g.draw(t) is True
        assert g.hand == tiles[: i + 1]
        assert g.tile is None
    assert g.decision == Decision.CHOOSE


def choose(g: Game, tile: str) -> None:
    assert g.decision == Decision.CHOOSE
    move = f"choose {tile}"
    assert move in legal_texts(g), (move, legal_texts(g))
    rest = list(g.hand)
    rest.remove(tile)
    g.play(move)
    assert g.decision == Decision.PLACE and g.tile == tile and g.hand == rest


def place(g: Game, move: str) -> None:
    legal = legal_texts(g)
    assert move in legal, f"{move!r} should be legal for {g.tile}: " + repr(
        sorted(t for t in legal if t.split()[0] == move.split()[0])
    )
    g.play(move)


def hand_turn(g: Game, tiles: list[str], tile: str, move: str) -> None:
    """Draw ``tiles``, choose ``tile``, play ``move``."""
    draw_hand(g, tiles)
    choose(g, tile)
    place(g, move)


def rejected(g: Game, move: str) -> None:
    """``move`` is not a legal move (ill-formed or illegal); the game is unchanged."""
    fp = g.fingerprint()
    assert move not in legal_texts(g)
    assert not g.is_legal(move)
    with pytest.raises((IllegalMoveError, InvalidMoveError)):
        g.play(move)
    assert g.fingerprint() == fp


def fill(
    g: Game, empty: set[tuple[int, int]], keep: tuple[str, ...] = (), stop_at_bag: int | None = None
) -> None:
    """Filler turns: draw (hands included), choose and place tiles without a figure, never on
    a spot of ``empty`` (each tent under test keeps one side empty, so none completes), until
    the bag holds ``stop_at_bag`` tiles at the start of a turn, or the game ends. Tiles of
    ``keep`` are drawn only when nothing else is left, and never chosen while another choice
    exists. Nothing scores: the only figures are fortune tellers on incomplete tents."""
    kept = Counter(keep)

    def harmless(moves):
        out = []
        for m in moves:
            parts = str(m).split()
            if len(parts) != 2:
                continue
            x, y = map(int, parts[0].split(","))
            if (x, y) in empty:
                continue
            d = min(max(abs(x - a), abs(y - b)) for a, b in empty)
            out.append((-d, str(m)))
        return [t for _, t in sorted(out)]

    while not g.is_over():
        assert g.scores == [0] * g.players, "a filler turn scored"
        if g.decision == Decision.DRAW:
            if not g.hand and stop_at_bag is not None and bag_n(g) == stop_at_bag:
                return
            free = Counter(g.drawable) - kept
            tile = sorted(free)[0] if free else sorted(g.drawable)[0]
            g.draw(tile)
            continue
        if g.decision == Decision.CHOOSE:
            pool = Counter(g.bag) + Counter(g.hand)
            choices = sorted(
                legal_texts(g), key=lambda t: (pool[t.split()[1]] <= kept[t.split()[1]], t)
            )
            for c in choices:
                g.play(c)
                if harmless(g.legal_moves):
                    break
                g.pop()
            else:
                raise AssertionError(f"fill: no harmless choice in {g.hand}")
            continue
        assert g.decision == Decision.PLACE
        cands = harmless(g.legal_moves)
        assert cands, f"fill: no harmless place for {g.tile}"
        g.play(cands[0])
    assert stop_at_bag is None or stop_at_bag == 0, "the game ended before the bag ran low"


# -- components ---------------------------------------------------------------------------------

CAT = Catalogue.builtin()
COUNTS = Counter()
for _t in CAT.tile_ids():
    _d = CAT.tile(_t)
    COUNTS[_d["set"]] += _d["count"]


def total_tiles(rules: Rules) -> int:
    """72 base (B1) + 8 Fortune Teller tiles, + 12 River (R1), + 24 Traders & Builders tiles
    (C3.1 without the River: 23, its river tile stays out, R7), + 10 Toll Collectors tiles."""
    n = 72 + 8
    if rules.river:
        n += 12
    if rules.traders_builders == "C2":
        n += 24
    elif rules.traders_builders == "C3.1":
        n += 24 if rules.river else 23
    if rules.toll_collectors:
        n += 10
    return n


def test_FT_components_eight_tent_tiles_in_the_bag():
    """Eight tent tiles, each with one tent segment; with the option they are all in the bag
    (72 + 8 tiles), without it none is. Seven are common to both arts; tile 05 has one version
    per art (C2, the default: with a garden; C1: without)."""
    common = [t for t in CAT.tile_ids() if CAT.tile(t)["set"] == "fortune_teller"]
    assert COUNTS["fortune_teller"] == 7 and len(common) == 7
    assert COUNTS["fortune_teller_c2"] == COUNTS["fortune_teller_c1"] == 1
    tents = common + ["FT05_ROAD_NS.garden"]
    for t in tents + ["FT05_ROAD_NS"]:
        kinds = [s["kind"] for s in CAT.tile(t)["segments"]]
        assert kinds.count("tent") == 1, t
    assert [s["kind"] for s in CAT.tile("FT05_ROAD_NS.garden")["segments"]].count("garden") == 1
    assert "garden" not in [s["kind"] for s in CAT.tile("FT05_ROAD_NS")["segments"]]
    g = position(FORTUNE)
    assert len(g.board) + bag_n(g) == 80 == total_tiles(g.rules)
    assert all(g.bag[t] == 1 for t in tents) and "FT05_ROAD_NS" not in g.bag
    c1 = position(Rules.base(fortune_teller=True, fortune_teller_edition="C1"))
    assert c1.bag["FT05_ROAD_NS"] == 1 and "FT05_ROAD_NS.garden" not in c1.bag
    assert bag_n(c1) == bag_n(g)
    assert g.hand == [] and tellers(g) == [0, 0]
    h = position(Rules.base())
    assert not any(t in h.bag for t in tents) and bag_n(h) == 71


def test_tile_totals_with_every_option():
    for river in (False, True):
        for tb in (None, "C3.1", "C2"):
            for toll in (False, True):
                r = Rules(
                    river=river,
                    abbot=river,
                    traders_builders=tb,
                    toll_collectors=toll,
                    fortune_teller=True,
                )
                g = Game(r, players=2, seed=3, chance="manual")
                assert len(g.board) + bag_n(g) == total_tiles(r), r


def test_FT2_fortune_tellers_is_a_list_of_ints():
    """``Game.fortune_tellers()`` is documented (and typed) as ``list[int]``, one entry per
    player."""
    g = position(FORTUNE, 3)
    assert g.fortune_tellers() == [0, 0, 0]
    assert isinstance(g.fortune_tellers(), list)
    turn(g, "FT04_ROAD_TO_TENT", "0,-1 270 meeple tent")
    assert g.fortune_tellers() == [1, 0, 0]


# -- FT1: a meeple on the tent ---------------------------------------------------------------


def test_FT1_meeple_on_the_tent_of_the_tile_just_placed():
    """FT1: a tent tile is placed as usual; the player may put a meeple on its tent (a fortune
    teller) instead of on another feature of that tile; it counts for FT2/FT3."""
    g = position(FORTUNE)
    assert g.draw("FT05_ROAD_NS.garden") is True
    legal = legal_texts(g)
    # placed as usual: W-E road continuing the start road, or N-S elsewhere
    assert {"1,0 90", "1,0 90 meeple tent", "1,0 90 meeple road:E", "1,0 90 meeple field:NNW"} <= (
        legal
    )
    assert "1,0 0" not in legal  # road N-S would meet the start road (B5)
    assert sum(t.endswith("meeple tent") for t in legal) == sum(
        len(t.split()) == 2 for t in legal
    )  # every placement offers the tent
    g.play("1,0 90 meeple tent")
    assert figs(g) == [(0, "meeple", 1, 0, "tent")]
    assert [f.feature for f in g.figures()] == ["tent"]
    assert g.supply(0) == {"meeple": 6} and tellers(g) == [1, 0]
    tent = [f for f in g.features() if f.kind == "tent"]
    assert len(tent) == 1 and tent[0].tiles == ((1, 0),) and not tent[0].complete
    # the road beside the tent is still free: player 1 may take it
    turn(g, "ROAD_WE", "2,0 0 meeple road:E")
    only(g, {})
    # a tent tile with a meeple on another feature is no fortune teller
    g2 = position(FORTUNE)
    turn(g2, "FT05_ROAD_NS.garden", "1,0 90 meeple road:E")
    assert tellers(g2) == [0, 0] and g2.supply(0) == {"meeple": 6}
    turn(g2, "ROAD_WE", "-1,0 0")
    assert g2.draw("MON") is True and g2.decision == Decision.PLACE  # one tile: no teller


def test_FT1_no_meeple_in_supply_no_fortune_teller():
    """FT1: a fortune teller is a meeple from the supply: with none left, no tent move."""
    g = position(FORTUNE)
    mine = [
        ("MON", "0,-1 0 meeple monastery"),
        ("MON", "0,-2 0 meeple monastery"),
        ("MON.farmhouse", "0,-3 0 meeple monastery"),
        ("MON.shed", "0,-4 0 meeple monastery"),
        ("MON_ROAD", "0,-5 0 meeple monastery"),
        ("MON_ROAD.robbers", "0,-6 180 meeple monastery"),
        ("ROAD_WE.shed", "-1,0 0 meeple field:NNW"),
    ]
    theirs = [
        "ROAD_WE",
        "ROAD_WE",
        "ROAD_WE",
        "ROAD_WE.robbers",
        "ROAD_WE.robbers",
        "ROAD_WE.farmhouse",
        "ROAD_WE.garden",
    ]
    for k, ((tile, move), filler) in enumerate(zip(mine, theirs, strict=True)):
        turn(g, tile, move)  # P0
        turn(g, filler, f"{k + 1},0 0")  # P1
    assert g.supply(0) == {"meeple": 0}
    only(g, {})
    assert g.draw("FT02_CAPS_NS") is True
    assert not any("meeple" in t for t in legal_texts(g))
    assert "0,1 0" in legal_texts(g)
    refused(g, "0,1 0 meeple tent")


# -- FT2: at most two fortune tellers ----------------------------------------------------------


def _two_tellers(g: Game) -> None:
    """Player 0 gets two fortune tellers: tents at 0,-1 and 1,0 (no tent completes)."""
    turn(g, "FT04_ROAD_TO_TENT", "0,-1 270 meeple tent")  # P0
    turn(g, "ROAD_WE", "-1,0 0")  # P1
    hand_turn(g, ["FT05_ROAD_NS.garden", "MON"], "FT05_ROAD_NS.garden", "1,0 90 meeple tent")  # P0
    assert tellers(g) == [2, 0] and g.supply(0) == {"meeple": 5}


def test_FT2_third_fortune_teller_refused_game_unchanged():
    """FT2: a player with 2 fortune tellers cannot place a third (not offered, refused, game
    unchanged); other features of the tent tile still take a meeple; another player still may
    place one; once a teller returns (FT5), a new one is allowed again."""
    g = position(FORTUNE)
    _two_tellers(g)
    turn(g, "CAP", "0,1 180")  # P1
    draw_hand(g, ["FT07_CAP_W_ROAD_NS", "MON", "ROAD_WE.robbers"])  # P0: 3 tiles
    choose(g, "FT07_CAP_W_ROAD_NS")
    legal = legal_texts(g)
    assert not any(t.endswith("meeple tent") for t in legal)
    assert {"-2,0 90", "-2,0 90 meeple road:E", "-2,0 90 meeple field:ENE"} <= legal
    refused(g, "-2,0 90 meeple tent")
    fp = g.fingerprint()
    with pytest.raises(IllegalMoveError, match="FT2"):
        g.play("-2,0 90 meeple tent")
    assert g.fingerprint() == fp and g.decision == Decision.PLACE
    place(g, "-2,0 90")
    assert tellers(g) == [2, 0]
    turn(g, "ROAD_WE.shed", "2,0 0")  # P1: side E
    hand_turn(
        g, ["MON.farmhouse", "MON", "ROAD_WE.robbers"], "MON.farmhouse", "1,-1 0"
    )  # P0: side S
    # player 1 (no fortune teller) may place one
    turn(g, "FT02_CAPS_NS", "0,2 90 meeple tent")  # P1
    assert tellers(g) == [2, 1]
    hand_turn(g, ["MON.shed", "MON", "ROAD_WE.robbers"], "MON.shed", "1,1 0")  # P0: side N
    only(g, {0: {"fortune_tellers": 3}})  # the tent at 1,0 is complete
    assert tellers(g) == [1, 1] and g.supply(0) == {"meeple": 6}
    hand_turn(g, ["ROAD_WE", "MON"], "ROAD_WE", "3,0 0")  # P1
    draw_hand(g, ["FT08_CAP_E_ROAD_TO_CITY", "MON"])  # P0: 1 + 1
    choose(g, "FT08_CAP_E_ROAD_TO_CITY")
    assert "-1,1 180 meeple tent" in legal_texts(g)
    place(g, "-1,1 180 meeple tent")
    assert tellers(g) == [2, 1]


# -- FT3: draws of 1 + k tiles -----------------------------------------------------------------


def test_FT3_hands_of_1_2_3_and_unused_tiles_back_in_the_bag():
    """FT3: with 0, 1, 2 fortune tellers a player draws 1, 2, 3 tiles; the decision stays DRAW
    until the hand is full, then CHOOSE (one ``choose TILE`` per placeable tile), then PLACE.
    The tiles not placed go back into the bag at the end of the turn."""
    g = position(FORTUNE)
    b = bag_n(g)
    assert b == 79
    # 0 fortune tellers: one tile, no choice
    assert g.draw("FT04_ROAD_TO_TENT") is True
    assert g.decision == Decision.PLACE and g.hand == [] and g.tile == "FT04_ROAD_TO_TENT"
    g.play("0,-1 270 meeple tent")
    assert bag_n(g) == 78
    turn(g, "ROAD_WE", "-1,0 0")  # P1: 0 tellers
    assert bag_n(g) == 77
    # 1 fortune teller: two tiles
    assert g.draw("FT05_ROAD_NS.garden") is True
    assert g.decision == Decision.DRAW and g.hand == ["FT05_ROAD_NS.garden"] and bag_n(g) == 76
    assert g.draw("MON") is True
    assert g.decision == Decision.CHOOSE and g.hand == ["FT05_ROAD_NS.garden", "MON"]
    assert g.tile is None and bag_n(g) == 75 and g.bag["MON"] == 1
    assert legal_texts(g) == {"choose FT05_ROAD_NS.garden", "choose MON"}
    assert all(m.action == "choose" for m in g.legal_moves)
    assert {m.tile for m in g.legal_moves} == {"FT05_ROAD_NS.garden", "MON"}
    choose(g, "FT05_ROAD_NS.garden")
    assert bag_n(g) == 75
    place(g, "1,0 90 meeple tent")
    assert bag_n(g) == 76 and g.bag["MON"] == 2 and g.hand == []  # MON is back
    assert tellers(g) == [2, 0] and g.turn == 1 and g.discarded == 0
    # player 1 still draws one tile
    turn(g, "CAP", "0,1 180")
    assert bag_n(g) == 75
    # 2 fortune tellers: three tiles
    before = dict(g.bag)
    for i, t in enumerate(["MON", "CAP", "ROAD_WE"]):
        assert g.decision == Decision.DRAW
        g.draw(t)
        assert bag_n(g) == 74 - i
    assert g.decision == Decision.CHOOSE and g.hand == ["MON", "CAP", "ROAD_WE"]
    assert legal_texts(g) == {"choose MON", "choose CAP", "choose ROAD_WE"}
    choose(g, "ROAD_WE")
    assert g.hand == ["MON", "CAP"]
    place(g, "-2,0 0")
    assert bag_n(g) == 74 and g.hand == [] and g.turn == 1
    want = Counter(before)
    want["ROAD_WE"] -= 1
    assert Counter(g.bag) == +want  # MON, CAP back
    # the returned tiles can be drawn again at once
    assert g.drawable["MON"] == before["MON"] and g.drawable["CAP"] == before["CAP"]
    only(g, {})


def test_FT3_two_copies_of_one_tile_offer_one_choice():
    """FT3: a hand holding two copies of one tile offers one ``choose`` move for it; the
    other copy goes back."""
    g = position(FORTUNE)
    _two_tellers(g)
    turn(g, "CAP", "0,1 180")  # P1
    draw_hand(g, ["ROAD_WE", "ROAD_WE", "MON"])
    assert legal_texts(g) == {"choose ROAD_WE", "choose MON"}
    choose(g, "ROAD_WE")
    assert g.hand == ["ROAD_WE", "MON"]
    place(g, "-2,0 0")
    assert g.bag["ROAD_WE"] == 1 and g.bag["MON"] == 2


def test_FT3_undo_a_choice_and_a_placement():
    """pop() after ``choose`` restores the CHOOSE decision with the whole hand; pop() after
    the placement restores PLACE with the remaining hand."""
    g = position(FORTUNE)
    turn(g, "FT04_ROAD_TO_TENT", "0,-1 270 meeple tent")
    turn(g, "ROAD_WE", "-1,0 0")
    draw_hand(g, ["MON", "CAP"])
    fp_choose = g.fingerprint()
    choose(g, "CAP")
    fp_place = g.fingerprint()
    place(g, "0,1 180")
    assert g.bag["MON"] == 2
    g.pop()
    assert g.fingerprint() == fp_place and g.hand == ["MON"] and g.tile == "CAP"
    g.pop()
    assert g.fingerprint() == fp_choose and g.hand == ["MON", "CAP"]
    assert g.decision == Decision.CHOOSE


def _four_tellers() -> Game:
    """Both players with 2 fortune tellers: tents at 0,-1 (P0), 1,0 (P1), -1,0 (P0), 0,1
    (P1). The spots 1,-1, -1,-1 and 1,1 stay empty, so no tent ever completes."""
    g = position(FORTUNE)
    turn(g, "FT04_ROAD_TO_TENT", "0,-1 270 meeple tent")  # P0
    turn(g, "FT07_CAP_W_ROAD_NS", "1,0 90 meeple tent")  # P1: road W-E, cap N
    hand_turn(g, ["FT05_ROAD_NS.garden", "MON"], "FT05_ROAD_NS.garden", "-1,0 90 meeple tent")  # P0
    hand_turn(g, ["FT02_CAPS_NS", "MON"], "FT02_CAPS_NS", "0,1 0 meeple tent")  # P1
    assert tellers(g) == [2, 2]
    only(g, {})
    return g


EMPTY = {(1, -1), (-1, -1), (1, 1)}


@pytest.mark.parametrize("last", [("ROAD_WE", "MON"), ("MON", "CITY3")])
def test_FT3_low_bag_draws_what_is_left_FT6_tellers_score_nothing_at_the_end(last):
    """FT3: with 2 fortune tellers and only 2 tiles left, a player draws 2 (CHOOSE between
    them); the unused one goes back, and the next player (2 tellers too) draws the single
    tile left (PLACE at once). FT6: the game then ends; the four fortune tellers still out
    score nothing."""
    g = _four_tellers()
    fill(g, EMPTY, keep=last, stop_at_bag=2)
    assert Counter(g.bag) == Counter(last) and g.discarded == 0
    a = g.active_player
    assert tellers(g) == [2, 2]
    draw_hand(g, list(last))  # only two tiles: the hand is complete
    assert bag_n(g) == 0
    assert legal_texts(g) == {f"choose {t}" for t in last}
    choose(g, last[0])
    fill_place = [
        t
        for t in legal_texts(g)
        if len(t.split()) == 2 and tuple(map(int, t.split()[0].split(","))) not in EMPTY
    ]
    g.play(sorted(fill_place)[0])
    assert bag_n(g) == 1 and g.bag == {last[1]: 1}  # back into the bag
    assert g.active_player == 1 - a and not g.is_over()
    assert g.decision == Decision.DRAW
    assert g.draw(last[1]) is True
    assert g.decision == Decision.PLACE and g.hand == [] and g.tile == last[1]
    fill_place = [
        t
        for t in legal_texts(g)
        if len(t.split()) == 2 and tuple(map(int, t.split()[0].split(","))) not in EMPTY
    ]
    g.play(sorted(fill_place)[0])
    assert g.is_over() and bag_n(g) == 0 and g.hand == []
    # FT6: nothing for the fortune tellers still out
    assert sorted((f.player, f.x, f.y) for f in g.figures() if f.feature == "tent") == [
        (0, -1, 0),
        (0, 0, -1),
        (1, 0, 1),
        (1, 1, 0),
    ]
    assert [g.supply(p)["meeple"] for p in (0, 1)] == [5, 5]
    only(g, {})
    assert len(g.board) + g.discarded == 80


def test_FT3_bag_with_one_tile_left_player_with_one_teller_draws_one():
    """FT3: a player with 1 fortune teller facing a bag of 1 draws that tile alone."""
    g = position(FORTUNE)
    turn(g, "FT04_ROAD_TO_TENT", "0,-1 270 meeple tent")  # P0
    fill(g, {(0, -2)}, keep=("MON", "ROAD_WE", "CAP"), stop_at_bag=3)
    # make sure player 0 faces a bag of 1: player 1 (no teller) places singles meanwhile
    while not (bag_n(g) == 1 and g.active_player == 0):
        assert bag_n(g) > 1
        fill(g, {(0, -2)}, stop_at_bag=bag_n(g) - 1)
    assert tellers(g) == [1, 0]
    (t,) = list(g.bag)
    assert g.draw(t) is True
    assert g.decision == Decision.PLACE and g.hand == [] and g.tile == t


# -- FT4: no drawn tile fits ---------------------------------------------------------------------


def _closed_board(g: Game) -> None:
    """Close the start city and both ends of the start road; player 1 gets a fortune teller
    on the tent of FT04_ROAD_TO_TENT at 1,0 (the start road ends there). Afterwards every open
    edge of the board is a field, and player 1 (1 teller) moves."""
    turn(g, "CAP", "0,1 180")  # P0
    turn(g, "FT04_ROAD_TO_TENT", "1,0 0 meeple tent")  # P1
    turn(g, "MON_ROAD", "-1,0 270")  # P0
    assert tellers(g) == [0, 1] and g.active_player == 1
    assert all(f.complete for f in g.features() if f.kind in ("city", "road"))
    only(g, {})


def test_FT4_whole_hand_unplaceable_removed_then_single_draws():
    """FT4: both tiles of a 2-tile hand fit nowhere: both leave the game (discarded), and the
    player then draws single tiles (no new hand) until one fits; the fortune teller stays."""
    g = position(FORTUNE)
    _closed_board(g)
    assert g.active_player == 1 and tellers(g) == [0, 1]
    b = bag_n(g)
    assert g.draw(CITY4) is True  # the hand is not complete yet
    assert g.decision == Decision.DRAW and g.hand == [CITY4]
    assert g.draw("CROSS4") is False  # FT4: no tile of the hand fits
    assert g.decision == Decision.DRAW and g.hand == [] and g.tile is None
    assert g.discarded == 2 and bag_n(g) == b - 2
    assert CITY4 not in g.bag and "CROSS4" not in g.bag
    # single draws now: an unplaceable single tile is discarded (B7)
    assert g.draw("CAP_CROSS3") is False
    assert g.discarded == 3 and g.decision == Decision.DRAW and g.hand == []
    # a fitting tile waits at once, with no choice (no second tile drawn)
    assert g.draw("ROAD_WE") is True
    assert g.decision == Decision.PLACE and g.tile == "ROAD_WE" and g.hand == []
    assert bag_n(g) == b - 4
    place(g, "2,0 90")
    assert g.active_player == 0 and bag_n(g) == b - 4 and g.discarded == 3
    assert tellers(g) == [0, 1]
    # next turn of player 1: a hand of two again
    turn(g, "MON", "0,-1 0")  # P0
    draw_hand(g, ["MON.farmhouse", "MON.shed"])
    only(g, {})


def _second_teller_closed(g: Game) -> None:
    """After ``_closed_board``: player 1 takes a second fortune teller on FT08 at 2,0 (city E,
    road S to its gate); player 0 closes that city, player 1 that road: every open edge is a
    field again. Then player 0 places a monastery; player 1 (2 tellers) moves."""
    draw_hand(g, ["FT08_CAP_E_ROAD_TO_CITY", "MON"])  # P1: 1 + 1
    choose(g, "FT08_CAP_E_ROAD_TO_CITY")
    place(g, "2,0 0 meeple tent")
    assert tellers(g) == [0, 2]
    turn(g, "CAP", "3,0 270")  # P0: closes the city E
    hand_turn(g, ["MON_ROAD.robbers", "MON", "ROAD_WE"], "MON_ROAD.robbers", "2,-1 180")  # P1
    turn(g, "MON.farmhouse", "0,-1 0")  # P0
    assert all(f.complete for f in g.features() if f.kind in ("city", "road"))
    only(g, {})


def test_FT4_three_tile_hand_unplaceable_all_removed():
    """FT4 with 2 fortune tellers: three unplaceable tiles all leave the game."""
    g = position(FORTUNE)
    _closed_board(g)  # P1 teller at 1,0; now P1 to move
    _second_teller_closed(g)
    b = bag_n(g)
    assert g.draw(CITY4) is True and g.draw("CROSS4") is True
    assert g.decision == Decision.DRAW and g.hand == [CITY4, "CROSS4"]
    assert g.draw("CORNER_CURVE") is False
    assert g.discarded == 3 and g.hand == [] and bag_n(g) == b - 3
    assert g.draw("MON.shed") is True and g.decision == Decision.PLACE and g.hand == []


# -- FT8: an unplaceable tile cannot be chosen -------------------------------------------------


def test_FT8_unplaceable_drawn_tile_cannot_be_chosen():
    """FT8: in a hand with one placeable and one unplaceable tile, only the placeable one is
    offered; ``choose`` of the other is refused and the game is unchanged. The unplaceable
    tile is not removed: it goes back into the bag at the end of the turn (FT3)."""
    g = position(FORTUNE)
    _closed_board(g)
    b = bag_n(g)
    draw_hand(g, [CITY4, "ROAD_WE"])
    assert legal_texts(g) == {"choose ROAD_WE"}
    refused(g, f"choose {CITY4}")
    with pytest.raises(IllegalMoveError, match="FT8"):
        g.play(f"choose {CITY4}")
    refused(g, "choose CROSS4")  # not in the hand at all
    choose(g, "ROAD_WE")
    assert g.hand == [CITY4]
    place(g, "2,0 90")
    assert g.bag[CITY4] == 1 and bag_n(g) == b - 1 and g.discarded == 0


def test_FT8_three_tile_hand_offers_only_the_placeable_ones():
    g = position(FORTUNE)
    _closed_board(g)
    _second_teller_closed(g)  # P1: 2 tellers
    draw_hand(g, [CITY4, "MON.shed", "CROSS4"])
    assert legal_texts(g) == {"choose MON.shed"}
    refused(g, "choose CROSS4")
    refused(g, f"choose {CITY4}")
    choose(g, "MON.shed")
    assert g.hand == [CITY4, "CROSS4"]
    place(g, "-2,0 0")
    assert g.bag[CITY4] == 1 and g.bag["CROSS4"] == 1 and g.discarded == 0


# -- FT5: tent completion ----------------------------------------------------------------------


@pytest.mark.parametrize("completer", [0, 1])
def test_FT5_tent_completed_3_points_to_completer_teller_returns(completer):
    """FT5: player 0's fortune teller on the tent at 0,-1; the tent's 4th side is placed by
    player 1 (or by player 0 itself): 3 points to whoever placed it, the teller returns to
    player 0 at once, and its extra draw is lost (player 0 draws one tile again)."""
    g = position(FORTUNE)
    turn(g, "FT04_ROAD_TO_TENT", "0,-1 270 meeple tent")  # P0: road S ends at the tent
    turn(g, "MON", "1,-1 0")  # P1: side E
    hand_turn(g, ["MON.farmhouse", "CAP"], "MON.farmhouse", "-1,-1 0")  # P0: side W
    assert g.bag["CAP"] == 2 and tellers(g) == [1, 0]
    if completer == 1:
        turn(g, "ROAD_WE", "0,-2 90")  # P1: side S
    else:
        turn(g, "CAP", "0,1 180")  # P1 elsewhere
        hand_turn(g, ["ROAD_WE", "MON.shed"], "ROAD_WE", "0,-2 90")  # P0: side S
    only(g, {completer: {"fortune_tellers": 3}})
    assert g.figures() == [] and tellers(g) == [0, 0]
    assert g.supply(0) == {"meeple": 7}
    tent = [f for f in g.features() if f.kind == "tent"]
    assert len(tent) == 1 and tent[0].figures == ()
    # the extra draw is lost: player 0 draws a single tile
    if completer == 0:
        turn(g, "ROAD_WE.robbers", "-1,0 0")  # P1
    assert g.active_player == 0
    assert g.draw("MON.shed" if completer == 1 else "CAP") is True
    assert g.decision == Decision.PLACE and g.hand == []


@pytest.mark.parametrize("completer", [0, 1])
def test_FT5_tent_without_fortune_teller_completes_too(completer):
    """FT5: a tent completes when its tile has tiles on all 4 sides whether or not a fortune
    teller stands on it: 3 points to whoever placed the 4th side tile (here player 1, or
    player 0 who placed the tent), once; later tiles around it score nothing more."""
    g = position(FORTUNE)
    turn(g, "FT04_ROAD_TO_TENT", "0,-1 270")  # P0: no teller
    turn(g, "MON", "1,-1 0")  # P1
    turn(g, "MON.farmhouse", "-1,-1 0")  # P0
    if completer == 0:
        turn(g, "CAP", "0,1 180")  # P1 elsewhere
    turn(g, "ROAD_WE", "0,-2 90")  # 4th side
    only(g, {completer: {"fortune_tellers": 3}})
    tent = [f for f in g.features() if f.kind == "tent"]
    assert len(tent) == 1 and tent[0].complete and tent[0].figures == ()
    turn(g, "MON", "-1,-2 0")  # beside the closed tent: nothing more
    only(g, {completer: {"fortune_tellers": 3}})


def _hole(g: Game) -> None:
    """Six tiles (no figure) leave 1,-1 empty with tiles on its 4 sides: 1,0 ROAD_WE (N),
    0,-1 MON (W), 2,-1 MON (E), all field edges, and 1,-2 MON_ROAD (S), its road N. Player 0
    moves next."""
    for tile, move in [
        ("MON", "0,-1 0"),
        ("ROAD_WE", "1,0 0"),
        ("ROAD_WE", "2,0 0"),
        ("MON", "2,-1 0"),
        ("MON.farmhouse", "0,-2 0"),
        ("MON_ROAD", "1,-2 180"),
    ]:
        turn(g, tile, move)
    assert g.active_player == 0
    only(g, {})


@pytest.mark.parametrize("teller", [True, False])
def test_FT5_tent_into_a_hole_closed_on_four_sides_completes_at_once(teller):
    """FT5: a tent tile placed into a hole already closed on 4 sides completes at once: 3
    points to its player, with or without a fortune teller (who goes back at once). (Its road
    S, ending at the tent, meets the monastery's road: a complete road with nobody on it.)"""
    g = position(FORTUNE)
    _hole(g)
    assert g.draw("FT04_ROAD_TO_TENT") is True
    assert "1,-1 270 meeple tent" in legal_texts(g)
    g.play("1,-1 270 meeple tent" if teller else "1,-1 270")
    only(g, {0: {"fortune_tellers": 3}})
    assert g.figures() == [] and tellers(g) == [0, 0]
    assert g.supply(0) == {"meeple": 7}
    # player 0's next turn: one tile (the teller is gone)
    turn(g, "ROAD_WE", "3,0 0")  # P1
    assert g.draw("CAP") is True and g.decision == Decision.PLACE


def test_FT5_one_tile_completes_two_tents():
    """FT5: one tile closing the last side of two tents (player 0's at 0,-1, player 1's at
    2,-1) scores 3 for each tent to its placer, and both fortune tellers return."""
    g = position(FORTUNE)
    turn(g, "FT04_ROAD_TO_TENT", "0,-1 270 meeple tent")  # P0: road S ends at the tent
    turn(g, "ROAD_WE", "1,0 0")  # P1
    hand_turn(g, ["ROAD_WE.robbers", "CROSS3"], "ROAD_WE.robbers", "2,0 0")  # P0
    turn(g, "FT03_CURVE_ES", "2,-1 0 meeple tent")  # P1: road E-S
    assert tellers(g) == [1, 1]
    hand_turn(g, ["MON", "CROSS3"], "MON", "-1,-1 0")  # P0
    # P1: road N to the tent at 0,-1 (a complete road with nobody on it)
    hand_turn(g, ["MON_ROAD.robbers", "CROSS3"], "MON_ROAD.robbers", "0,-2 180")
    hand_turn(g, ["ROAD_CURVE_SW", "CROSS3"], "ROAD_CURVE_SW", "3,-1 0")  # P0
    hand_turn(g, ["ROAD_WE", "CROSS3"], "ROAD_WE", "2,-2 90")  # P1
    only(g, {})
    assert g.bag["CROSS3"] == 4
    hand_turn(g, ["MON_ROAD", "CROSS3"], "MON_ROAD", "1,-1 0")  # P0 closes both
    only(g, {0: {"fortune_tellers": 6}})
    assert g.figures() == [] and tellers(g) == [0, 0]
    assert g.supply(0) == {"meeple": 7} and g.supply(1) == {"meeple": 7}


# -- FT7: builder double turn ------------------------------------------------------------------


def test_FT7_second_part_chooses_between_the_two_tiles_left_then_returns_the_last():
    """FT7 (C3.1): player 0 has 2 fortune tellers and a thief with the builder. The chosen
    tile of a 3-tile hand extends the builder's road: the second part draws nothing, the
    player chooses between the 2 tiles left; only at the end of the whole turn does the
    unused one go back into the bag."""
    g = position(Rules.base(fortune_teller=True, traders_builders="C3.1"))
    turn(g, "FT04_ROAD_TO_TENT", "0,-1 270 meeple tent")  # P0
    turn(g, "ROAD_WE", "-1,0 0")  # P1
    hand_turn(g, ["FT05_ROAD_NS.garden", "MON"], "FT05_ROAD_NS.garden", "1,0 90 meeple tent")  # P0
    turn(g, "CAP", "0,1 180")  # P1
    hand_turn(
        g, ["ROAD_WE.robbers", "MON", "CAP"], "ROAD_WE.robbers", "2,0 0 meeple road:E +builder"
    )  # P0
    assert g.supply(0) == {"meeple": 4, "builder": 0, "pig": 1}
    assert g.double_turn is None  # placing the builder never triggers
    turn(g, "MON.farmhouse", "-1,1 0")  # P1
    b = bag_n(g)
    ndraws = len(g.record()["draws"])
    bag_before = Counter(g.bag)
    hand_turn(g, ["ROAD_WE", "MON", "CAP"], "ROAD_WE", "3,0 0")  # P0: trigger
    assert g.active_player == 0 and g.double_turn == "second part"
    assert g.decision == Decision.CHOOSE and g.hand == ["MON", "CAP"]
    assert len(g.record()["draws"]) == ndraws + 3  # no new draw for the second part
    assert bag_n(g) == b - 3  # nothing back yet
    assert legal_texts(g) == {"choose MON", "choose CAP"}
    choose(g, "CAP")
    assert g.hand == ["MON"] and bag_n(g) == b - 3
    place(g, "0,2 0")
    assert g.active_player == 1 and g.double_turn is None and g.hand == []
    assert bag_n(g) == b - 2
    want = bag_before - Counter(["ROAD_WE", "CAP"])
    assert Counter(g.bag) == want  # MON back at the end of the whole turn
    assert g.supply(0) == {"meeple": 4, "builder": 1, "pig": 1}
    assert tellers(g) == [2, 0] and g.discarded == 0
    only(g, {})


def test_FT7_second_part_places_the_one_tile_left_without_drawing():
    """FT7 (C3.1): with 1 fortune teller, the hand's second tile is placed in the second part
    (no draw, no choice); nothing goes back into the bag."""
    g = position(Rules.base(fortune_teller=True, traders_builders="C3.1"))
    turn(g, "FT04_ROAD_TO_TENT", "0,-1 270 meeple tent")  # P0
    turn(g, "ROAD_WE", "-1,0 0")  # P1
    hand_turn(
        g, ["ROAD_WE.robbers", "MON"], "ROAD_WE.robbers", "1,0 0 meeple road:E +builder"
    )  # P0
    turn(g, "CAP", "0,1 180")  # P1
    b = bag_n(g)
    ndraws = len(g.record()["draws"])
    hand_turn(g, ["ROAD_WE", "MON"], "ROAD_WE", "2,0 0")  # P0: trigger
    assert g.active_player == 0 and g.double_turn == "second part"
    assert g.decision == Decision.PLACE and g.tile == "MON" and g.hand == []
    assert len(g.record()["draws"]) == ndraws + 2 and bag_n(g) == b - 2
    place(g, "1,1 0")
    assert g.active_player == 1 and g.double_turn is None
    assert bag_n(g) == b - 2 and g.discarded == 0
    assert g.draw("MON.shed") is True and g.decision == Decision.PLACE  # P1: one tile


def test_FT7_FT4_tile_left_for_the_second_part_fits_nowhere():
    """FT7 + FT4 (C3.1): the tile left for the second part fits nowhere (an all-city tile
    with no open city edge): it leaves the game, and the player draws single tiles until one
    fits; nothing goes back at the end. Also FT8: that tile could not be chosen before."""
    g = position(Rules.base(fortune_teller=True, traders_builders="C3.1"))
    turn(g, "FT04_ROAD_TO_TENT", "0,-1 270 meeple tent")  # P0
    turn(g, "CAP", "0,1 180")  # P1 closes city
    draw_hand(g, ["ROAD_WE.robbers", CITY4])  # P0
    assert legal_texts(g) == {"choose ROAD_WE.robbers"}  # FT8
    choose(g, "ROAD_WE.robbers")
    place(g, "1,0 0 meeple road:E +builder")
    assert g.bag[CITY4] == 1
    turn(g, "MON_ROAD", "-1,0 270")  # P1
    b = bag_n(g)
    hand_turn(g, ["ROAD_WE", CITY4], "ROAD_WE", "2,0 0")  # P0: trigger
    assert g.active_player == 0 and g.double_turn == "second part"
    assert g.decision == Decision.DRAW and g.hand == [] and g.tile is None
    assert g.discarded == 1 and CITY4 not in g.bag and bag_n(g) == b - 2
    assert g.draw("MON") is True  # a single draw, not a new hand
    assert g.decision == Decision.PLACE and g.hand == [] and g.tile == "MON"
    place(g, "1,1 0")
    assert g.active_player == 1 and g.double_turn is None
    assert bag_n(g) == b - 3 and g.discarded == 1
    only(g, {})


# -- FT9: neither abbot nor builder nor pig on a tent ---------------------------------------------


def test_FT9_abbot_cannot_be_a_fortune_teller():
    g = position(Rules.base(fortune_teller=True, abbot=True))
    assert g.draw("FT04_ROAD_TO_TENT") is True
    legal = legal_texts(g)
    assert "0,-1 270 meeple tent" in legal
    assert not any(m.action == "abbot" for m in g.legal_moves)
    rejected(g, "0,-1 270 abbot tent")
    g.play("0,-1 270 meeple tent")
    assert g.supply(0) == {"meeple": 6, "abbot": 1}


@pytest.mark.parametrize(
    "tile, spot", [("FT05_ROAD_NS.garden", "1,0 90"), ("FT04_ROAD_TO_TENT", "0,-1 270")]
)
def test_FT9_C31_no_builder_or_pig_on_a_fortune_teller(tile, spot):
    """FT9 (C3.1): the builder and the pig are never attached to a fortune teller; they can
    be attached to a thief / farmer of the same tile."""
    g = position(Rules.base(fortune_teller=True, traders_builders="C3.1"))
    assert g.draw(tile) is True
    legal = legal_texts(g)
    assert f"{spot} meeple tent" in legal
    assert not any("tent" in t and ("+builder" in t or "+pig" in t) for t in legal)
    assert all(m.action == "meeple" for m in g.legal_moves if m.feature == "tent")
    if tile == "FT05_ROAD_NS.garden":
        assert f"{spot} meeple road:E +builder" in legal
    assert f"{spot} meeple field:NNW +pig" in legal
    rejected(g, f"{spot} meeple tent +builder")
    rejected(g, f"{spot} meeple tent +pig")
    g.play(f"{spot} meeple tent")
    assert g.supply(0) == {"meeple": 6, "builder": 1, "pig": 1}


def test_FT9_C2_no_builder_or_pig_on_a_tent():
    """FT9 (C2): the builder and the pig (placed instead of a meeple) never go on a tent."""
    g = position(Rules.base(fortune_teller=True, traders_builders="C2"))
    turn(g, "FT05_ROAD_NS.garden", "1,0 90 meeple road:E")  # P0 thief
    turn(g, "MON", "0,-1 0")  # P1
    assert g.draw("FT04_ROAD_TO_TENT") is True  # P0: road W ends at the tent
    legal = legal_texts(g)
    assert "2,0 0 builder road:W" in legal  # the road holds player 0's thief
    assert not any(m.action in ("builder", "pig") and m.feature == "tent" for m in g.legal_moves)
    rejected(g, "2,0 0 builder tent")
    rejected(g, "2,0 0 pig tent")


# -- whole games ---------------------------------------------------------------------------------


RULESETS = (
    [
        Rules(
            river=river, abbot=abbot, traders_builders=tb, toll_collectors=toll, fortune_teller=True
        )
        for river in (False, True)
        for abbot in (False, True)
        for tb in (None, "C3.1", "C2")
        for toll in (False, True)
    ]
    + [
        # the other tile editions: C2 River spring and lake, C1 Fortune Teller art
        Rules(
            toll_collectors=True,
            fortune_teller=True,
            river_edition="C2",
            fortune_teller_edition="C1",
        ),
    ]
    + [
        Rules.base(fortune_teller=True, max_fortune_tellers=most, toll_collectors=True)
        for most in (0, 1, 3, 4)
    ]
)


def _ctx(g: Game) -> str:
    return (
        f"\nrules={g.rules!r} players={g.players} seed={g.seed} "
        f"moves={json.dumps(g.record()['moves'])}"
    )


def check_position(g: Game) -> None:
    """Tiles and figures conserved; fortune-teller counts agree with the board (FT2, FT9)."""
    rules = g.rules
    hand = g.hand
    waiting = 1 if g.tile is not None else 0
    assert len(hand) <= 1 + g.rules.max_fortune_tellers, _ctx(g)
    assert len(g.board) + bag_n(g) + g.discarded + len(hand) + waiting == total_tiles(rules), (
        f"board {len(g.board)} bag {bag_n(g)} discarded {g.discarded} hand {hand} "
        f"waiting {waiting}{_ctx(g)}"
    )
    figures = g.figures()
    houses = {p for p, *_ in g.tollhouses()}
    counts = list(g.fortune_tellers())
    assert len(counts) == g.players
    for p in range(g.players):
        s = g.supply(p)
        mine = [f for f in figures if f.player == p]
        assert min(s.values()) >= 0, _ctx(g)
        assert s["meeple"] + sum(f.role == "meeple" for f in mine) == 7, (p, s, _ctx(g))
        assert s.get("abbot", 0) + sum(f.role == "abbot" for f in mine) == int(rules.abbot)
        if rules.traders_builders is not None:
            beside = (
                rules.traders_builders == "C3.1"
                and p == g.active_player
                and g.double_turn == "builder triggered"
                and not g.is_over()
            )
            assert s["builder"] + sum(f.role == "builder" for f in mine) + beside == 1, (
                p,
                s,
                _ctx(g),
            )
            assert s["pig"] + sum(f.role == "pig" for f in mine) == 1, (p, s, _ctx(g))
        if rules.toll_collectors:
            assert s["tollhouse"] + (p in houses) == 1, _ctx(g)
        on_tents = [f for f in mine if f.feature == "tent"]
        assert counts[p] == len(on_tents) <= g.rules.max_fortune_tellers, (
            p,
            counts,
            on_tents,
            _ctx(g),
        )
    tent_spots = {(f.x, f.y) for f in figures if f.feature == "tent"}
    for f in figures:
        if f.feature == "tent":
            assert f.role == "meeple", f"{f} on a tent (FT9){_ctx(g)}"
    if g.decision == Decision.CHOOSE:
        moves = g.legal_moves
        assert len(hand) >= 2 and moves, _ctx(g)
        assert all(m.action == "choose" for m in moves)
        tiles = [m.tile for m in moves]
        assert len(set(tiles)) == len(tiles) and set(tiles) <= set(hand), _ctx(g)
    elif g.decision == Decision.PLACE:
        for m in g.legal_moves:
            if m.feature == "tent":
                assert m.action == "meeple", f"{m} (FT9){_ctx(g)}"
                assert counts[g.active_player] < g.rules.max_fortune_tellers, (
                    f"{m} with {counts[g.active_player]} tellers (FT2){_ctx(g)}"
                )
    assert len(tent_spots) == sum(counts)
    if g.is_over():
        assert hand == [] and bag_n(g) == 0 and g.double_turn is None


def pick(g: Game, rnd):
    legal = g.legal_moves
    r = rnd.random()
    if r < 0.6:
        tents = [m for m in legal if m.feature == "tent"]
        if tents:
            return rnd.choice(tents)
    if r < 0.8:
        builders = [m for m in legal if "builder" in m.action]
        if builders:
            return rnd.choice(builders)
    return rnd.choice(legal)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULESETS),
    players=st.integers(2, 5),
    seed=st.integers(0, 2**64 - 1),
    rnd=st.randoms(use_true_random=False),
)
def test_whole_games_fortune_teller(rules, players, seed, rnd):
    """Random whole games with the Fortune Teller alone and with every other option: no
    exception; tiles (bag + board + discarded + hand + waiting) and figures conserved at
    every step; fortune-teller counts match the board (FT2, FT9); each turn draws
    min(1 + k, 3, bag) tiles when nothing is discarded (FT3); a builder's second part draws
    nothing while tiles are left in the hand (FT7); scores never decrease; the record replays
    to the same fingerprint, seeded and manual; pop() undoes a move with its draws."""
    g = Game(rules, players=players, seed=seed)
    check_position(g)
    scores = g.scores
    while not g.is_over():
        active, double = g.active_player, g.double_turn
        hand_before = list(g.hand)
        discarded = g.discarded
        ndraws = len(g.record()["draws"])
        decision = g.decision
        m = pick(g, rnd)
        if rnd.random() < 0.2:  # undo restores hand, bag and draws
            fp = g.fingerprint()
            g.play(m)
            assert g.pop() == m
            assert g.fingerprint() == fp and g.hand == hand_before, _ctx(g)
            assert len(g.record()["draws"]) == ndraws
        g.play(m)
        check_position(g)
        assert all(a >= b for a, b in zip(g.scores, scores, strict=True)), _ctx(g)
        scores = g.scores
        if g.is_over() or g.decision == Decision.FARMER or decision == Decision.CHOOSE:
            continue
        drawn = len(g.record()["draws"]) - ndraws
        if g.double_turn == "second part" and double != "second part":
            # FT7: the second part uses the tiles left in the hand
            if hand_before:
                assert drawn == g.discarded - discarded, f"drew in the second part{_ctx(g)}"
                if g.discarded == discarded:
                    held = list(g.hand) + ([g.tile] if g.tile else [])
                    assert Counter(held) == Counter(hand_before), _ctx(g)
        elif g.active_player != active and g.discarded == discarded:
            k = list(g.fortune_tellers())[g.active_player]
            want = min(1 + k, 1 + g.rules.max_fortune_tellers, bag_n(g) + drawn)
            assert drawn == want, f"drew {drawn}, FT3 wants {want}{_ctx(g)}"
            held = len(g.hand) + (1 if g.tile else 0)
            assert held == drawn, _ctx(g)
    text = g.to_json()
    h = Game.from_record(json.loads(text))
    assert h.fingerprint() == g.fingerprint(), _ctx(g)
    assert h.scores == g.scores and h.breakdown == g.breakdown
    rec = json.loads(text)
    rec["chance"] = "manual"
    k = Game.from_record(rec)
    assert k.fingerprint() == g.fingerprint(), _ctx(g)
    assert k.is_over() and k.scores == g.scores


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULESETS),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**64 - 1),
    rnd=st.randoms(use_true_random=False),
    cut=st.floats(0, 1),
    cut_draws=st.floats(0, 1),
)
def test_manual_replay_of_a_cut_record_continues_identically(
    rules, players, seed, rnd, cut, cut_draws
):
    """A seeded game's record cut anywhere, even in the middle of a hand's draws, replays with
    manual draws; the manual game then takes the rest of the draws one by one (DRAW until
    the hand is complete) and the rest of the moves, and ends in the same state."""
    full = Game(rules, players=players, seed=seed)
    while not full.is_over():
        full.play(pick(full, rnd))
    rec = full.record()
    draws, moves = rec["draws"], rec["moves"]
    n = int(cut * len(moves))
    # which draws come before move n: replay by hand up to it
    replay = Game(rules, players=players, seed=seed, chance="manual")
    di = 0
    for move in moves[:n]:
        while replay.decision == Decision.DRAW:
            replay.draw(draws[di])
            di += 1
        replay.play(move)
    start = di
    while replay.decision == Decision.DRAW:
        replay.draw(draws[di])
        di += 1
    dc = start + int(cut_draws * (di - start))  # cut inside the draws before move n
    part = {**rec, "moves": moves[:n], "draws": draws[:dc], "chance": "manual"}
    part.pop("result")
    h = Game.from_record(part)
    assert h.chance == "manual"
    if dc < di:
        assert h.decision == Decision.DRAW and h.tile is None
        assert len(h.hand) <= dc - start
    for t in draws[dc:di]:
        assert h.decision == Decision.DRAW
        h.draw(t)
    assert h.fingerprint() == replay.fingerprint()
    for move in moves[n:]:
        while h.decision == Decision.DRAW:
            h.draw(draws[di])
            di += 1
        h.play(move)
    assert h.is_over() and di == len(draws)
    assert h.fingerprint() == full.fingerprint()
    assert h.breakdown == full.breakdown


# -- the two arts: C2 tile 05 has an abbot's garden ------------------------------------------------


@pytest.mark.parametrize("edition", ["C2", "C1"])
def test_FT_edition_garden_on_tile_05(edition):
    """``fortune_teller_edition``: the C2 art (default) draws a garden beside the road of tile
    05; the C1 art has none. The garden takes an abbot (A2) and counts 1 for a tollhouse at the
    end of its road (TC3); the C1 tile gives nothing. The option needs the Fortune Teller."""
    tile = {"C2": "FT05_ROAD_NS.garden", "C1": "FT05_ROAD_NS"}[edition]
    rules = dict(abbot=True, toll_collectors=True, fortune_teller_edition=edition)
    g = position(Rules.base(fortune_teller=True, **rules))
    assert g.rules.fortune_teller_edition == edition
    turn(g, "CROSS3", "-1,0 0 tollhouse -1,0")  # P0: village at the start road's W end
    assert g.draw(tile) is True  # P1: the road W-E continues the start road E
    assert ("1,0 90 abbot garden" in legal_texts(g)) == (edition == "C2")
    g.play("1,0 90")
    turn(g, "CROSS3", "2,0 0")  # P0: closes -1,0 - 0,0 - 1,0 - 2,0
    only(g, {0: {"tolls": 1}} if edition == "C2" else {})
    with pytest.raises(ValueError, match="fortune_teller_edition='C1' needs fortune_teller=True"):
        Rules(fortune_teller_edition="C1")
