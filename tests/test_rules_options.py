"""Rule options as study variables (docs/rules.md, "Rule options"): each value of each option
pinned by an exact test (points or legality), options with no effect refused, tile counts,
``Game.final_scores()`` and games set up from a bag.

The corrections R5 (``river_turns``) and FT5 (tents without a fortune teller) are tested with
their rules in test_rules_river_abbot.py and test_rules_fortune_teller.py.
"""

from __future__ import annotations

import json
import pickle
from collections import Counter
from pathlib import Path

import pytest

from carcassonne import Catalogue, Decision, Game, IllegalMoveError, Rules
from carcassonne.cli.common import CliError, parse_rule_options
from carcassonne.scenario import position, turn

from rulehelpers import legal_texts, only, refused

CAT = Catalogue.builtin()


def n_tiles(g: Game) -> int:
    """Tiles of the game: placed, in the bag, waiting, discarded."""
    return len(g.board) + sum(g.bag.values()) + g.discarded + (g.tile is not None)


# -- farmers ----------------------------------------------------------------------------------


@pytest.mark.parametrize("farmers", [True, False])
def test_farmers_option_B8_B22(farmers):
    """``farmers`` on (default): a farmer in the field beside the start tile's city scores 3
    once the city is completed (B22). Off: no figure may go on a field, fields score nothing."""
    g = position(Rules.base(farmers=farmers))
    assert g.draw("ROAD_WE")
    fields = {t for t in legal_texts(g) if " field:" in t}
    if farmers:
        assert "1,0 0 meeple field:NNW" in fields
        g.play("1,0 0 meeple field:NNW")  # P0: farmer north of the road, beside the city
    else:
        assert fields == set()
        refused(g, "1,0 0 meeple field:NNW")
        with pytest.raises(IllegalMoveError, match="farmers=off"):
            g.play("1,0 0 meeple field:NNW")
        g.play("1,0 0")
    turn(g, "CAP", "0,1 180")  # P1 completes the two-tile city, nobody in it
    only(g, {})
    final = g.final_scores()
    assert [b["fields"] for b in final["breakdown"]] == ([3, 0] if farmers else [0, 0])


def test_farmers_off_no_ringmaster_or_pig_on_a_field():
    g = position(Rules.base(big_top=True, farmers=False))
    assert g.draw("ROAD_WE")
    assert not any(m.feature == "field" for m in g.legal_moves)
    refused(g, "1,0 0 ringmaster field:NNW")
    g = position(Rules.base(traders_builders="C3.1", farmers=False))
    assert g.draw("ROAD_WE")
    refused(g, "1,0 0 meeple field:NNW +pig")
    assert "1,0 0 meeple road:E +builder" in legal_texts(g)


# -- gardens ----------------------------------------------------------------------------------


@pytest.mark.parametrize("gardens", [True, False])
def test_gardens_option_A1_A2(gardens):
    """``gardens`` on (default): the abbot may go on a garden. Off: only on a monastery; the
    garden tile plays as a plain tile."""
    g = position(Rules.base(abbot=True, gardens=gardens))
    assert g.draw("CAP.garden")
    if gardens:
        g.play("0,-1 180 abbot garden")
        assert g.supply(0)["abbot"] == 0
    else:
        assert not any(m.feature == "garden" for m in g.legal_moves)
        refused(g, "0,-1 180 abbot garden")
        with pytest.raises(IllegalMoveError, match="gardens=off"):
            g.play("0,-1 180 abbot garden")
        g.play("0,-1 180")
    assert g.draw("MON")
    assert "1,-1 0 abbot monastery" in legal_texts(g)  # monasteries take it either way


# -- Traders & Builders: builder, pig, goods ---------------------------------------------------


@pytest.mark.parametrize("edition", ["C3.1", "C2"])
@pytest.mark.parametrize("builder", [True, False])
def test_builder_option_TB4_TB8(edition, builder):
    g = position(Rules.base(traders_builders=edition, builder=builder))
    assert ("builder" in g.supply(0)) is builder
    assert g.draw("ROAD_WE")
    if edition == "C3.1":
        move = "1,0 0 meeple road:E +builder"
    else:
        g.play("1,0 0 meeple road:E")  # P0 thief
        turn(g, "MON", "0,-1 0")  # P1
        assert g.draw("ROAD_WE")
        move = "2,0 0 builder road:E"  # beside P0's own thief
    if builder:
        g.play(move)
        assert g.supply(0)["builder"] == 0
    else:
        assert not any("builder" in m.action for m in g.legal_moves)
        with pytest.raises(IllegalMoveError, match="builder=off"):
            g.play(move)


@pytest.mark.parametrize("edition", ["C3.1", "C2"])
@pytest.mark.parametrize("pig", [True, False])
def test_pig_option_TB9_TB12(edition, pig):
    g = position(Rules.base(traders_builders=edition, pig=pig))
    assert ("pig" in g.supply(0)) is pig
    assert g.draw("ROAD_WE")
    if edition == "C3.1":
        move = "1,0 0 meeple field:NNW +pig"
    else:
        g.play("1,0 0 meeple field:NNW")  # P0 farmer
        turn(g, "MON", "0,-1 0")  # P1
        assert g.draw("ROAD_WE")
        move = "2,0 0 pig field:NNW"
    if pig:
        g.play(move)
        assert g.supply(0)["pig"] == 0
    else:
        assert not any("pig" in m.action for m in g.legal_moves)
        with pytest.raises(IllegalMoveError, match="pig=off"):
            g.play(move)


@pytest.mark.parametrize("goods", [True, False])
def test_goods_option_TB1_TB2(goods):
    """``goods`` on (default): closing a city with a chicken gives the closer the token and
    10 at the end (TB1, TB2). Off: no token, nothing at the end; the city scores as usual."""
    g = position(Rules.base(traders_builders="C3.1", goods=goods))
    turn(g, "CORNER_SHIELD", "0,1 270 meeple city:S")  # P0 knight
    turn(g, "TB3_12_cNWspur_rE_chicken", "-1,1 180")  # P1
    turn(g, "CAP_ROAD_WE", "-1,0 0")  # P0 closes: 4 tiles + 1 arms = 10
    only(g, {0: {"cities": 10}})
    assert g.goods(0) == {"chicken": int(goods), "grain": 0, "cloth": 0}
    final = g.final_scores()
    assert final["breakdown"][0]["goods"] == (10 if goods else 0)
    assert final["breakdown"][1]["goods"] == 0


# -- Under the Big Top: ringmaster, acrobats ---------------------------------------------------


@pytest.mark.parametrize("ringmaster", [True, False])
def test_ringmaster_option_BT10(ringmaster):
    g = position(Rules.base(big_top=True, ringmaster=ringmaster))
    assert ("ringmaster" in g.supply(0)) is ringmaster
    assert g.draw("ROAD_WE")
    if ringmaster:
        g.play("1,0 0 ringmaster road:E")
        assert g.supply(0)["ringmaster"] == 0
    else:
        assert not any(m.action == "ringmaster" for m in g.legal_moves)
        refused(g, "1,0 0 ringmaster road:E")
        with pytest.raises(IllegalMoveError, match="ringmaster=off"):
            g.play("1,0 0 ringmaster road:E")


@pytest.mark.parametrize("acrobats", [True, False])
def test_acrobats_option_BT6(acrobats):
    """``acrobats`` off: no acrobat may be placed (the acrobat space still ends roads)."""
    g = position(Rules.base(big_top=True, acrobats=acrobats))
    assert g.draw("BT_ACRO_RN_RS")
    if acrobats:
        g.play("1,0 90 acrobat 1,0")
        assert g.pyramids() == [(1, 0, [0])]
        assert g.final_scores()["breakdown"][0]["acrobats"] == 5  # BT9
    else:
        assert not any(m.action == "acrobat" for m in g.legal_moves)
        refused(g, "1,0 90 acrobat 1,0")
        with pytest.raises(IllegalMoveError, match="acrobats=off"):
            g.play("1,0 90 acrobat 1,0")


# -- Fortune Teller: max_fortune_tellers -------------------------------------------------------


def _draw_hand(g: Game, tiles: list[str]) -> None:
    for t in tiles:
        assert g.draw(t)
    assert g.hand == tiles


@pytest.mark.parametrize("most", [0, 1, 2, 3])
def test_max_fortune_tellers_option_FT2_FT3(most):
    """A player may have ``max_fortune_tellers`` fortune tellers (default 2) and draws 1 + k
    tiles with k of them; with 0 no fortune teller is placed, tents still complete (FT5)."""
    g = position(Rules.base(fortune_teller=True, max_fortune_tellers=most))
    tents = ["FT04_ROAD_TO_TENT", "FT03_CURVE_ES", "FT05_ROAD_NS.garden"]
    spots = ["0,-1 0", "1,0 90", "-1,-1 90"]
    for k in range(3):
        move = f"{spots[k]} meeple tent"
        hand = [tents[k]] + ["MON", "CAP", "MON"][: min(k, most)]
        if len(hand) > 1:
            _draw_hand(g, hand)
            g.play(f"choose {tents[k]}")
        else:
            assert g.draw(tents[k])
        if k < most:
            g.play(move)
        else:
            refused(g, move)
            g.play(spots[k])
        assert g.fortune_tellers()[0] == min(k + 1, most)
        turn(g, ["ROAD_WE.robbers", "CAP", "ROAD_WE"][k], ["-1,0 0", "0,1 180", "-2,0 0"][k])
    # P0's next draw: 1 + tellers tiles
    want = 1 + min(3, most)
    for t in ["MON.farmhouse", "CAP", "MON.shed", "ROAD_WE"][:want]:
        assert g.draw(t)
    assert len(g.hand) == (want if want > 1 else 0)
    assert g.decision == (Decision.CHOOSE if want > 1 else Decision.PLACE)


def test_max_fortune_tellers_range():
    with pytest.raises(ValueError, match="max_fortune_tellers"):
        Rules.base(fortune_teller=True, max_fortune_tellers=5)
    with pytest.raises(ValueError, match="max_fortune_tellers"):
        Rules.base(fortune_teller=True, max_fortune_tellers=True)


# -- Toll Collectors: toll_flip ---------------------------------------------------------------


@pytest.mark.parametrize("toll_flip", ["turn", "owner"])
def test_toll_flip_option_TC5(toll_flip):
    """Player 1 completes the road at player 0's tollhouse with travellers on it: player 0
    collects 3 (small toll). ``turn`` (default): the tollhouse flips at the end of that turn;
    ``owner`` ("you flip your toll only at the end of your turn"): at the end of player 0's
    next turn, so a road it collects from before then still uses the small toll."""
    g = position(Rules.base(toll_collectors=True, toll_flip=toll_flip))
    turn(g, "TK03_VILLAGE_WE_travellers", "1,0 180 tollhouse 1,0")  # P0; travellers by road W
    turn(g, "ROAD_WE.robbers", "2,0 0")  # P1
    turn(g, "CROSS3", "-1,0 0")  # P0 completes 1,0 W in its own turn: flips either way
    only(g, {0: {"tolls": 3}})
    assert g.tollhouses() == [(0, 1, 0, 2)]
    turn(g, "TK04_VILLAGE3_travellers", "3,0 180")  # P1 completes 1,0 E: robbers + group
    only(g, {0: {"tolls": 3 + 2 + 6}})  # large toll
    assert g.tollhouses() == [(0, 1, 0, 1 if toll_flip == "turn" else 2)]
    turn(g, "MON", "0,-1 0")  # P0's turn ends
    assert g.tollhouses() == [(0, 1, 0, 1)]


# -- options with no effect are refused --------------------------------------------------------


@pytest.mark.parametrize(
    "options,needs",
    [
        (dict(river=False, river_start="discard"), "River"),
        (dict(river=False, river_turns="strict"), "River"),
        (dict(abbot=False, gardens=False), "Abbot"),
        (dict(builder=False), "Traders & Builders"),
        (dict(pig=False), "Traders & Builders"),
        (dict(traders_builders="C2", farmers=False, pig=False), "farmers"),
        (dict(goods=False), "Traders & Builders"),
        (dict(ringmaster=False), "Big Top"),
        (dict(acrobats=False), "Big Top"),
        (dict(max_fortune_tellers=1), "Fortune Teller"),
        (dict(toll_flip="owner"), "Toll Collectors"),
    ],
)
def test_option_with_no_effect_is_refused(options, needs):
    with pytest.raises(ValueError, match=f"no effect without .*{needs}"):
        Rules(**options)
    name = next(k for k in options if k not in ("river", "abbot", "traders_builders", "farmers"))
    assert name not in Rules.lenient(**options).changed()
    # ... and accepted where it applies.
    fix = {
        "River": dict(river=True),
        "Abbot": dict(abbot=True),
        "Traders & Builders": dict(traders_builders="C3.1"),
        "farmers": dict(farmers=True),
        "Big Top": dict(big_top=True),
        "Fortune Teller": dict(fortune_teller=True),
        "Toll Collectors": dict(toll_collectors=True),
    }[needs]
    assert Rules(**{**options, **fix}).changed()[name] == options[name]


# -- tile counts --------------------------------------------------------------------------------


def test_tiles_option_changes_the_bag():
    """``tiles`` sets how many copies of tiles the bag holds (B1: 72 land tiles)."""
    r = Rules.base(tiles="ROAD_WE:8; CAP:3")  # 3 and 2 in the box
    assert r.tiles == "CAP:3,ROAD_WE:8"  # canonical: catalogue order
    assert Rules.base(tiles={"CAP": 3, "ROAD_WE": 8}) == r
    assert Rules.base(tiles="CAP:2") == Rules.base()  # the box count is no change
    g = Game(r, players=2, seed=1)
    assert g.bag.get("CAP", 0) + (g.tile == "CAP") == 3
    assert n_tiles(g) == 72 + 1 + 5
    h = Game(Rules.base(tiles="MON:0"), players=2, seed=1)
    while not h.is_over():
        h.play(h.legal_moves[0])
    assert "MON" not in {p.tile for p in h.board}
    assert len(h.board) + h.discarded == 72 - 2


@pytest.mark.parametrize(
    "options,message",
    [
        (dict(tiles="NOPE:3"), "unknown tile id `NOPE`"),
        (dict(tiles="CAP"), "must look like ID:COUNT"),
        (dict(tiles="CAP:100"), "from 0 to 99"),
        (dict(tiles="CAP:-1"), "from 0 to 99"),
        (dict(tiles="CAP:2,CAP:3"), "two counts"),
        (dict(tiles="TB3_12_cNWspur_rE_chicken:2"), "not in play"),
        (dict(river=False, abbot=False, tiles="CAP_ROAD_WE:0"), "start tile"),
        (dict(tiles="RV_SPRING:2"), "exactly one spring"),
        (dict(tiles="RV_LAKE:0"), "exactly one lake"),
        (dict(big_top=True, tiles="BT_TOP_CN_RS:7"), "animal tokens"),  # 11 + 7 big tops
        (dict(tiles=3), "must be text"),
    ],
)
def test_tiles_option_refuses_what_breaks_the_game(options, message):
    with pytest.raises(ValueError, match=message):
        Rules(**options)


def test_tiles_option_from_a_file(tmp_path):
    counts = tmp_path / "counts.txt"
    counts.write_text("# fewer caps\nCAP:3\nMON:2\n")
    assert Rules.base(tiles=counts) == Rules.base(tiles="CAP:3,MON:2")
    assert Rules.base(tiles=f"@{counts}") == Rules.base(tiles="CAP:3,MON:2")
    # A catalogue in the .tiles format: its counts are taken.
    text = Catalogue.builtin_text("base").replace("tile CAP 2 ", "tile CAP 1 ")
    cat = tmp_path / "base.tiles"
    cat.write_text(text)
    assert Rules.base(tiles=cat).tiles == "CAP:1"
    with pytest.raises(ValueError, match="cannot read"):
        Rules.base(tiles=tmp_path / "missing.txt")
    assert parse_rule_options([f"tiles=@{counts}", "river=off"]) == Rules(
        river=False, tiles="CAP:3,MON:2"
    )


# -- every option travels: CLI, records, pickling, tables ---------------------------------------

STUDY = Rules(
    traders_builders="C2",
    toll_collectors=True,
    fortune_teller=True,
    big_top=True,
    river_turns="strict",
    builder=False,
    goods=False,
    acrobats=False,
    max_fortune_tellers=1,
    toll_flip="owner",
    gardens=False,
    tiles="CAP:1,MON:6",
)


def test_cli_options():
    r = parse_rule_options(
        [
            "traders_builders=C2",
            "toll_collectors=on",
            "fortune_teller=on",
            "big_top=on",
            "river_turns=strict",
            "builder=off",
            "goods=off",
            "acrobats=off",
            "max_fortune_tellers=1",
            "toll_flip=owner",
            "gardens=off",
            "tiles=CAP:1;MON:6",
        ]
    )
    assert r == STUDY
    with pytest.raises(CliError, match="'two' is not one of 0, 1, 2, 3, 4"):
        parse_rule_options(["fortune_teller=on", "max_fortune_tellers=two"])
    with pytest.raises(CliError, match="no effect"):
        parse_rule_options(["farmers=off", "traders_builders=C2", "pig=off"])


def test_options_pickle_and_replay_from_records():
    assert pickle.loads(pickle.dumps(STUDY)) == STUDY
    assert Rules.from_dict(json.loads(json.dumps(STUDY.to_dict()))) == STUDY
    g = Game(STUDY, players=3, seed=5)
    while not g.is_over():
        g.play(g.legal_moves[len(g.legal_moves) // 2])
    rec = g.record()
    assert rec["rules"]["tiles"] == "MON:6,CAP:1" and rec["rules"]["builder"] is False
    h = Game.from_record(json.dumps(rec))
    assert h.fingerprint() == g.fingerprint() and h.scores == g.scores


@pytest.mark.parametrize("ext", ["parquet", "csv", "jsonl"])
def test_options_in_results_tables(tmp_path, ext):
    """Every option has its ``rule_`` column; a game found in the table replays with them."""
    from carcassonne import simulate
    from carcassonne.studies import table as table_mod

    res = simulate(STUDY, games=4, players=2, seed=6)
    path = tmp_path / f"t.{ext}"
    with table_mod.TableWriter(path) as w:
        w.write(table_mod.rows_of(res, variant="study", skill="random", policies=["random"] * 2))
    found = table_mod.find_game(path, 2)
    assert found["rules"] == STUDY
    g = Game(found["rules"], players=found["players"], seed=found["seed"])
    assert g.rules.tiles == "MON:6,CAP:1" and g.rules.max_fortune_tellers == 1
    # Native games follow the options: no goods without goods, no acrobats without acrobats.
    sources = list(res.sources)
    assert not res.breakdown[:, :, sources.index("goods")].any()
    assert not res.breakdown[:, :, sources.index("acrobats")].any()


# -- final_scores ---------------------------------------------------------------------------------


def test_final_scores_on_a_copy_B21():
    """Final scoring as if the game ended now; the game is unchanged; at the end it is the
    game's result."""
    g = position(Rules.base())
    turn(g, "ROAD_WE", "1,0 0 meeple road:E")  # P0 thief: 2 tiles, open
    turn(g, "MON", "0,-1 0 meeple monastery")  # P1 monk: 2 tiles around
    assert g.draw("CAP")  # waiting to be placed: left out
    fp = g.fingerprint()
    final = g.final_scores()
    assert final["scores"] == [2, 3] and final["winners"] == [1]
    assert final["breakdown"][0]["roads"] == 2 and final["breakdown"][1]["monasteries"] == 3
    assert g.fingerprint() == fp and g.scores == [0, 0] and g.decision == Decision.PLACE
    g = Game(Rules(), players=3, seed=11)
    while not g.is_over():
        g.play(g.legal_moves[0])
    assert g.final_scores() == {
        "scores": g.scores,
        "breakdown": g.breakdown,
        "winners": g.winners,
        "events": [],  # at the end nothing more scores
        "animals": [],
    }


def test_final_scores_with_the_big_top_BT4():
    """The final circus reveals the token given (else one drawn by the seed)."""
    g = position(Rules.base(big_top=True))
    turn(g, "BT_TOP_RE_RW", "1,0 0 meeple road:W")  # P0: the big top arrives; a thief beside
    final = g.final_scores([7])
    assert final["breakdown"][0]["circus"] == 7 and final["breakdown"][0]["roads"] == 2
    seeded = g.final_scores()["breakdown"][0]["circus"]
    assert seeded in (7, 6, 5, 4, 3, 1)
    assert g.scores == [0, 0]
    with pytest.raises(ValueError, match="worth 2"):
        g.final_scores([2])
    with pytest.raises(ValueError, match="animals"):
        g.final_scores("7")
    with pytest.raises(ValueError, match="more animal tokens"):
        g.final_scores([7, 6])
    with pytest.raises(ValueError, match="Big Top"):
        position(Rules.base()).final_scores([7])


def test_final_scores_during_a_reveal_BT3_BT4():
    """A second big-top tile waits for its reveal: the game ending now scores that circus
    (first token given), moves the big top, then the final circus (second token)."""
    g = position(Rules.base(big_top=True))
    turn(g, "BT_TOP_RE_RW", "1,0 0 meeple road:W")  # P0: the big top arrives at 1,0
    turn(g, "BT_TOP_CN", "0,1 180")  # P1: a second big top, 0,1 (1,0 is diagonal to it)
    assert g.decision == Decision.REVEAL
    fp = g.fingerprint()
    final = g.final_scores([5, 7])
    assert final["breakdown"][0]["circus"] == 5 + 7 and final["breakdown"][0]["roads"] == 2
    assert final["scores"] == [14, 0]
    assert g.fingerprint() == fp and g.decision == Decision.REVEAL


def test_final_scores_during_a_farmer_choice_TB10():
    """Owed farmer choices (C3.1 pig scoring) keep the farmers: the result is the one after
    both owners keep theirs (the drawn tile of the next part is left out either way)."""
    g = position(Rules.base(traders_builders="C3.1"))
    turn(g, "CORNER_SHIELD", "0,1 270 meeple city:S +builder")  # 0: knight + builder
    turn(g, "ROAD_WE", "1,0 0 meeple road:E +builder")  # 1: thief + builder
    turn(g, "ROAD_WE", "2,0 0 meeple field:ESE +pig")  # 0: south of the road
    turn(g, "TB3_12_cNWspur_rE_chicken", "-1,1 180 meeple field:NNW +pig")  # 1: beside the city
    turn(g, "ROAD_WE", "3,0 0")  # 0
    turn(g, "CAP_ROAD_WE", "-1,0 0")  # 1 closes the coat-of-arms city: pigs score
    assert g.decision == Decision.FARMER
    during = g.final_scores()
    assert during["breakdown"][1]["fields"] == 3 and during["breakdown"][1]["goods"] == 10
    g.play("keep-farmer")
    g.play("keep-farmer")
    assert g.draw("MON")  # the second part of player 1's double turn
    assert g.final_scores() == during


# -- a game set up from a bag ---------------------------------------------------------------------


def test_bag_in_order_ends_and_scores_when_used_up():
    bag = ["ROAD_WE", "MON", "CAP"]
    g = Game(Rules.base(), players=2, seed=3, bag=bag)
    assert g.bag == {"MON": 1, "CAP": 1} and g.tile == "ROAD_WE"
    g.play("1,0 0 meeple road:E")
    assert g.tile == "MON"
    g.play("0,-1 0 meeple monastery")
    assert g.tile == "CAP"
    g.play("0,1 180")  # completes the start tile's city (nobody in it)
    assert g.is_over()
    assert g.scores == [2, 3] and [p.tile for p in g.board][1:] == bag
    rec = g.record()
    assert rec["bag"] == bag
    assert Game.from_record(json.dumps(rec)).fingerprint() == g.fingerprint()


def test_bag_by_counts_is_shuffled_by_the_seed():
    counts = {"ROAD_WE": 3, "CAP": 2, "MON": 1}
    orders = set()
    for seed in range(8):
        g = Game(Rules.base(), players=2, seed=seed, bag=counts)
        while not g.is_over():
            g.play(g.legal_moves[0])
        orders.add(tuple(p.tile for p in g.board[1:]))
        assert Counter(g.record()["draws"]) == Counter(counts)
        assert Game.from_record(g.to_json()).fingerprint() == g.fingerprint()
    assert len(orders) > 1


def test_bag_with_the_river_R3():
    g = Game(Rules(), players=2, seed=0, bag=["RV_STRAIGHT", "RV_LAKE", "CAP", "MON"])
    assert g.tile == "RV_STRAIGHT" and g.drawable == {"RV_LAKE": 1}
    with pytest.raises(ValueError, match="R3"):
        Game(Rules(), players=2, seed=0, bag=["CAP", "RV_STRAIGHT"])


@pytest.mark.parametrize(
    "rules,bag,message",
    [
        (Rules.base(), ["NOPE"], "unknown tile id `NOPE`"),
        (Rules.base(), ["RV_STRAIGHT"], "not in play"),
        (Rules(), ["RV_SPRING"], "start tile"),
        (Rules(), ["RV_LAKE", "RV_LAKE"], "lake"),
        (Rules.base(big_top=True), ["BT_TOP_RE_RW"] * 17, "animal tokens"),
        (Rules.base(), "CAP", "list of tile ids"),
        (Rules.base(), {"CAP": -1}, "count"),
        (Rules.base(), [3], "id"),
    ],
)
def test_bag_refused(rules, bag, message):
    with pytest.raises(ValueError, match=message):
        Game(rules, players=2, seed=0, bag=bag)


def test_manual_game_from_a_bag():
    g = Game(Rules.base(), players=2, seed=0, chance="manual", bag={"CAP": 1, "MON": 1})
    assert g.drawable == {"CAP": 1, "MON": 1}
    assert g.draw("MON")
    g.play("0,-1 0")
    assert g.draw("CAP")
    g.play("0,1 180")
    assert g.is_over()


def test_bag_in_order_with_a_fortune_teller_FT3():
    """A tile a fortune teller's hand leaves is shuffled back into a bag in order too (FT7):
    by the seed, before or after the tile left."""
    bag = ["FT04_ROAD_TO_TENT", "ROAD_WE", "CAP", "MON", "ROAD_WE.robbers"]
    next_tiles = []
    for seed in range(4):
        g = Game(Rules.base(fortune_teller=True), players=2, seed=seed, bag=bag)
        g.play("0,-1 0 meeple tent")  # P0: a fortune teller
        assert g.tile == "ROAD_WE"
        g.play("1,0 0")  # P1
        assert g.decision == Decision.CHOOSE and g.hand == ["CAP", "MON"]
        g.play("choose MON")
        g.play("1,-1 0")  # P0 places MON; CAP goes back into the bag
        other = ({"CAP", "ROAD_WE.robbers"} - {g.tile}).pop()
        assert g.bag == {other: 1}
        next_tiles.append(g.tile)
    assert next_tiles == ["ROAD_WE.robbers", "CAP", "CAP", "ROAD_WE.robbers"]


def test_repr_names_the_options_that_differ():
    assert repr(Rules()) == "Rules()"
    r = Rules.base(fortune_teller=True, max_fortune_tellers=1, tiles="CAP:3")
    assert repr(r) == (
        "Rules(river=False, abbot=False, fortune_teller=True, max_fortune_tellers=1, tiles='CAP:3')"
    )
    assert eval(repr(r)) == r


def test_option_text_has_one_parser():
    from carcassonne.rules import option_value

    assert option_value("river", "off") is False
    assert option_value("river", " Yes ") is True
    assert option_value("traders_builders", "off") is None
    assert option_value("traders_builders", "none") == "none"  # for Rules to refuse: not a word
    assert option_value("traders_builders", "c3.1") == "C3.1"
    assert option_value("river_start", "DISCARD") == "discard"
    assert option_value("max_fortune_tellers", "1") == 1
    assert option_value("tiles", " CAP:3 ") == "CAP:3"
    assert option_value("river", True) is True  # typed values pass through
    assert option_value("river_start", "sideways") == "sideways"  # for Rules to refuse
    with pytest.raises(ValueError, match="whole number"):
        option_value("max_fortune_tellers", "two")


# -- the option table ---------------------------------------------------------------------------


def test_option_values_have_one_set_of_words_in_docs_help_and_messages():
    """docs/rules.md's option table, ``--help`` and the command line's messages write every
    option's values in the same words (``on``/``off``; ``off`` for an expansion with
    editions), the default first in the docs; a value's word reads back as that value."""
    import re
    from pathlib import Path

    from carcassonne.cli.common import CliError, parse_rule_options, rule_help
    from carcassonne.rules import option_value, option_words, value_word

    doc = (Path(__file__).resolve().parent.parent / "docs" / "rules.md").read_text()
    rows = dict(re.findall(r"^\| `(\w+)` \| ([^|]+) \|", doc, re.M))
    defaults = Rules.defaults()
    assert set(rows) == set(Rules.options())
    assert option_words("traders_builders") == ["off", "C3.1", "C2"]
    assert option_words("river") == ["on", "off"]
    assert value_word(None) == value_word(False) == "off" and value_word(True) == "on"
    help_text = rule_help()
    for name in Rules.options():
        words = option_words(name)
        assert f"{name}={'|'.join(words)}" in help_text
        if name == "tiles":
            continue
        cell = [w.strip(" `") for w in rows[name].split(",")]
        assert cell[0] == value_word(defaults[name]), name
        if name != "max_fortune_tellers":  # "2, 0-4"
            assert sorted(cell) == sorted(words), name
        for w in words:
            assert value_word(option_value(name, w)) == w
        with pytest.raises(CliError) as e:
            parse_rule_options([f"{name}=nonsense"])
        assert str(e.value).endswith(f"is not one of {', '.join(words)}"), str(e.value)
    assert "none" not in help_text and "True" not in help_text and "None" not in help_text


def test_option_table_gives_every_option_a_doc_and_a_getter():
    """The engine's option table (src/engine/rules.rs) is the one source: every option has a
    description citing its rule and a getter equal to its value."""
    options = Rules.options()
    docs = Rules.option_docs()
    defaults = Rules.defaults()
    assert list(docs) == list(options) == list(defaults)
    for name, doc in docs.items():
        assert doc and doc[0] in "BRATF" and ":" in doc, (name, doc)
        assert getattr(Rules(), name) == defaults[name]


def test_the_stubs_rules_class_is_the_one_the_table_makes():
    """The stub's ``Rules`` is generated (scripts/rules_stub.py): the committed stub equals the
    generator's output, whose ``__new__`` lists every option with its default and whose
    properties are the options, in the table's order."""
    import ast
    import importlib.util

    script = Path(__file__).resolve().parent.parent / "scripts" / "rules_stub.py"
    spec = importlib.util.spec_from_file_location("rules_stub", script)
    assert spec and spec.loader
    rules_stub = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rules_stub)
    committed = rules_stub.STUB.read_text(encoding="utf-8")
    assert committed == rules_stub.stub_text(committed), "run scripts/rules_stub.py"
    options, defaults = Rules.options(), Rules.defaults()
    tree = ast.parse(rules_stub.rules_class())
    rules = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Rules")
    new = next(n for n in rules.body if isinstance(n, ast.FunctionDef) and n.name == "__new__")
    assert [a.arg for a in new.args.kwonlyargs] == list(options)
    for a, d in zip(new.args.kwonlyargs, new.args.kw_defaults, strict=True):
        assert ast.literal_eval(d) == defaults[a.arg], a.arg
    props = {
        n.name: ast.unparse(n.returns)
        for n in rules.body
        if isinstance(n, ast.FunctionDef)
        and any(isinstance(x, ast.Name) and x.id == "property" for x in n.decorator_list)
    }
    assert list(props) == list(options)
    assert props["river"] == "bool" and props["max_fortune_tellers"] == "int"
    assert props["traders_builders"] == "str | None" and props["river_start"] == "str"
    assert props["tiles"] == "str"
    # Each option is one line, its default written as ruff writes it.
    assert "        river: bool = True,\n" in rules_stub.rules_class()
    assert '        toll_flip: str = "turn",\n' in rules_stub.rules_class()


def test_rules_command_lists_every_option_with_values_default_and_doc(capsys):
    """``carcassonne rules`` lists the option table (values, default, doc); every command's
    ``-o`` help names every option with its values and points to it."""
    from carcassonne.cli import main

    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert "river=on|off  (default: on)" in lines
    assert "    R1-R7: the 12 River tiles open the game." in lines
    assert "traders_builders=off|C3.1|C2  (default: off)" in lines
    assert "max_fortune_tellers=0|1|2|3|4  (default: 2)" in lines
    assert "river_turns=consecutive|strict|clear_ahead  (default: consecutive)" in lines
    assert "tiles=ID:N;ID:N|@FILE  (default: none)" in lines
    heads = [line.split("=")[0] for line in lines[2:] if line and line[0] != " "]
    assert heads == list(Rules.options())
    flat = " ".join(out.split())
    for name, doc in Rules.option_docs().items():
        assert " ".join(doc.split()) in flat, name
    for command in ("simulate", "compare", "study", "table"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        shown = " ".join(capsys.readouterr().out.split())
        assert "'carcassonne rules' lists each option's default and meaning" in shown, command
        for name in Rules.options():
            assert f"{name}=" in shown, (command, name)
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    assert "'carcassonne rules' lists the options" in " ".join(capsys.readouterr().out.split())
