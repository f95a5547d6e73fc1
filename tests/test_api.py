"""The Python API: bad input is refused with the documented exception and a clear message,
never changing a game; records are checked and hostile ones refused with ``RecordError``
naming the first problem; and the positive behaviour the docs promise (move text round trip,
copy, pop, decisions, winners, breakdown, batch results) holds.
"""

from __future__ import annotations

import copy
import json
import random
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import carcassonne
from carcassonne import (
    SOURCES,
    Catalogue,
    Decision,
    DrawError,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    RecordError,
    Results,
    Rules,
    _core,
    simulate,
    simulate_chunks,
)

from rulehelpers import play_random

CAT = Catalogue.builtin()
MOVE_RE = re.compile(
    r"^-?\d+,-?\d+ (0|90|180|270)"
    r"( (meeple|abbot) [a-z]+(:[NESW]{1,3}|#\d+)?| recall -?\d+,-?\d+)?$"
)


def finished(rules: Rules | None = None, seed: int = 3, players: int = 2) -> Game:
    return play_random(Game(rules or Rules.base(), players=players, seed=seed), random.Random(seed))


def state(g: Game) -> tuple:
    """Everything observable that an error must leave unchanged."""
    return (
        g.fingerprint(),
        json.dumps(g.record()),
        g.decision,
        g.tile,
        [str(m) for m in g.legal_moves],
        g.scores,
        g.turn,
    )


# -- rules -----------------------------------------------------------------------------------


def test_unknown_rule_option_names_valid_options():
    with pytest.raises(ValueError) as info:
        Rules(rivers=True)
    msg = str(info.value)
    assert "rivers" in msg
    for name in Rules.options():
        assert name in msg
    with pytest.raises(ValueError, match="rivers"):
        Rules.base(rivers=True)
    with pytest.raises(ValueError, match="rivers"):
        Rules().replace(rivers=True)


@pytest.mark.parametrize(
    "option,value",
    [
        ("river", 1),
        ("river", "yes"),
        ("abbot", None),
        ("small_city", 0),
        ("river_start", "x"),
        ("river_start", True),
    ],
)
def test_bad_rule_value_names_allowed_values(option, value):
    with pytest.raises(ValueError) as info:
        Rules(**{option: value})
    msg = str(info.value)
    assert option in msg
    for allowed in Rules.options()[option]:
        assert repr(allowed) in msg


def test_rules_are_values():
    r = Rules()
    assert r.river and r.abbot and not r.small_city and r.river_start == "shuffle"
    assert Rules.base() == Rules(river=False, abbot=False)
    assert Rules.from_dict(r.to_dict()) == r and hash(Rules.from_dict(r.to_dict())) == hash(r)
    assert r.replace(abbot=False) == Rules(abbot=False) and r.abbot
    with pytest.raises(AttributeError):
        r.river = False
    with pytest.raises(ValueError, match="mapping"):
        Rules.from_dict(["river"])
    assert eval(repr(r), {"Rules": Rules}) == r
    # Tile editions are options like the others: they pickle and compare by value.
    import pickle

    e = Rules(river_edition="C2", fortune_teller=True, fortune_teller_edition="C1")
    assert pickle.loads(pickle.dumps(e)) == e and e != Rules(fortune_teller=True)
    assert e.to_dict()["river_edition"] == "C2" and Rules().river_edition == "C3"


# -- game construction -----------------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 7, -1, 100, 2**70])
def test_bad_player_count(players):
    with pytest.raises(ValueError, match="players"):
        Game(Rules.base(), players=players)


@pytest.mark.parametrize("players", [2, 6])
def test_player_count_bounds(players):
    g = Game(Rules.base(), players=players, seed=1)
    assert g.players == players and len(g.scores) == players


@pytest.mark.parametrize("seed", [-1, 2**64, "7", 1.5, True, [1]])
def test_bad_seed(seed):
    with pytest.raises(ValueError, match="seed"):
        Game(Rules.base(), seed=seed)


def test_seed_bounds_and_determinism():
    for seed in (0, 2**64 - 1):
        a, b = Game(seed=seed), Game(seed=seed)
        assert a.fingerprint() == b.fingerprint() and a.seed == seed


def test_bad_chance_and_rules():
    with pytest.raises(ValueError, match="chance"):
        Game(Rules.base(), chance="x")
    with pytest.raises(ValueError, match="chance"):
        Game(Rules.base(), chance=None)
    with pytest.raises(TypeError):
        Game("base")


# -- moves -----------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [42, None, 1.5, b"1,0 0", ["1,0 0"], object()])
def test_move_of_the_wrong_type(bad):
    g = Game(Rules.base(), seed=1)
    before = state(g)
    with pytest.raises(InvalidMoveError):
        g.play(bad)
    assert not g.is_legal(bad)
    assert state(g) == before


GARBAGE = [
    "",
    " ",
    "garbage",
    "1,0",
    "1 0 0",
    "1,0 45",
    "1,0 -90",
    "1,0 360",
    "x,0 0",
    "1,y 0",
    "1,0,0 0",
    "99999,0 0",
    "1,0 0 meeple",
    "1,0 0 meeple castle",
    "1,0 0 meeple city:Q",
    "1,0 0 meeple field:N",
    "1,0 0 dance",
    "1,0 0 recall",
    "1,0 0 recall 1",
    "1,0 0 recall a,b",
    "1,0 0 meeple road:S extra",
    "1,0 0 0",
    "1,0 0 meeple road:S road:S",
    "\x00",
    "é,é 0",
    "1,0 0 abbot",
    "1,0 0 recall 1,0 1,0",
]


@pytest.mark.parametrize("text", GARBAGE)
def test_parse_move_garbage(text):
    g = Game(Rules.base(), seed=1)
    before = state(g)
    with pytest.raises(InvalidMoveError) as info:
        g.parse_move(text)
    assert str(info.value)
    with pytest.raises(InvalidMoveError):
        g.play(text)
    assert not g.is_legal(text)
    assert state(g) == before


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_any_text_parses_or_raises_invalid_move(text):
    g = Game(Rules(), seed=5)
    before = state(g)
    try:
        m = g.parse_move(text)
    except InvalidMoveError:
        pass
    else:
        assert isinstance(m, Move)
    try:
        g.play(text)
    except (InvalidMoveError, IllegalMoveError):
        assert state(g) == before


def test_illegal_move_leaves_the_game_unchanged():
    g = Game(Rules.base(), seed=1)
    before = state(g)
    for text in ("5,5 0", "0,0 0"):
        with pytest.raises(IllegalMoveError) as info:
            g.play(text)
        assert str(info.value)
        assert state(g) == before


def test_move_from_another_tile_is_refused():
    g = Game(Rules.base(), seed=1)
    h = next(h for s in range(2, 50) if (h := Game(Rules.base(), seed=s)).tile != g.tile)
    before = state(g)
    with pytest.raises(IllegalMoveError, match="tile"):
        g.play(h.legal_moves[0])
    assert state(g) == before


def test_playing_when_the_game_is_over(finished_game):
    g = finished_game
    last = g.move_stack[-1]
    before = state(g)
    assert g.decision is Decision.OVER and g.legal_moves == [] and g.tile is None
    with pytest.raises(InvalidMoveError, match="over"):
        g.play("1,0 0")
    with pytest.raises(InvalidMoveError, match="over"):
        g.parse_move("1,0 0")
    assert not g.is_legal(last)
    with pytest.raises((IllegalMoveError, InvalidMoveError)) as info:
        g.play(last)
    # The error says what is wrong: the game is over (not some other tile).
    assert "over" in str(info.value), str(info.value)
    with pytest.raises(DrawError):
        g.draw("CROSS4")
    assert state(g) == before


def test_playing_before_the_draw():
    g = Game(Rules.base(), seed=1, chance="manual")
    h = Game(Rules.base(), seed=1)
    before = state(g)
    assert g.decision is Decision.DRAW and g.legal_moves == []
    with pytest.raises(InvalidMoveError, match="draw"):
        g.play("1,0 0")
    with pytest.raises((IllegalMoveError, InvalidMoveError)) as info:
        g.play(h.legal_moves[0])
    # The error says what is wrong: no tile has been drawn yet.
    assert "no tile" in str(info.value), str(info.value)
    assert state(g) == before


# -- draws -----------------------------------------------------------------------------------


@pytest.mark.parametrize("tile", ["NOPE", "", "cross*", "RV_BRIDGE", 3, None])
def test_draw_unknown_or_absent_tile(tile):
    g = Game(Rules.base(), seed=1, chance="manual")
    before = state(g)
    with pytest.raises(DrawError) as info:
        g.draw(tile)
    assert str(info.value)
    assert state(g) == before


def test_draw_a_tile_no_longer_in_the_bag():
    g = Game(Rules.base(), seed=1, chance="manual")
    assert g.draw("CROSS4") is True
    g.play(g.legal_moves[0])
    before = state(g)
    assert "CROSS4" not in g.bag and "CROSS4" not in g.drawable
    with pytest.raises(DrawError, match="not in the bag"):
        g.draw("CROSS4")
    assert state(g) == before
    # The start tile's copy left the bag: 4 CAP_ROAD_WE in all, one laid.
    n = sum(v for k, v in g.bag.items() if k.split(".")[0] == "CAP_ROAD_WE")
    assert n == 3


def test_draw_land_tile_during_the_river():
    g = Game(Rules(), seed=1, chance="manual")
    before = state(g)
    assert set(g.drawable) <= {t for t in CAT.tile_ids() if CAT.tile(t)["set"] == "river"}
    assert "RV_LAKE" not in g.drawable and "RV_SPRING" not in g.drawable
    for tile, why in (("CROSS4", "river"), ("RV_LAKE", "river"), ("RV_SPRING", "not in the bag")):
        with pytest.raises(DrawError, match=why):
            g.draw(tile)
        assert state(g) == before
    # Once drawn, a second draw before placing is refused too.
    assert g.draw(next(iter(g.drawable)))
    before = state(g)
    with pytest.raises(DrawError):
        g.draw(next(iter(g.drawable)))
    assert state(g) == before


def test_draw_in_an_auto_game_while_a_tile_waits():
    g = Game(Rules.base(), seed=1)
    before = state(g)
    with pytest.raises(DrawError):
        g.draw(next(iter(g.bag)))
    assert state(g) == before


# -- simulate errors -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs,needle",
    [
        ({"policy": "smart"}, "random"),
        ({"players": 7}, "players"),
        ({"players": 1}, "players"),
        ({"games": -1}, "games"),
        ({"games": True}, "games"),
        ({"games": 1.5}, "games"),
        ({"threads": -1}, "threads"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"games": 2**70}, "games"),
        ({"threads": 2**70}, "threads"),
    ],
)
def test_simulate_bad_arguments(kwargs, needle):
    with pytest.raises(ValueError, match=needle):
        simulate(Rules.base(), **{"games": 2, **kwargs})
    with pytest.raises(ValueError, match=needle):
        list(simulate_chunks(Rules.base(), **{"games": 2, **kwargs}))


def test_simulate_bad_chunk_and_rules():
    with pytest.raises(ValueError, match="chunk"):
        list(simulate_chunks(Rules.base(), games=2, chunk=0))
    with pytest.raises(TypeError):
        simulate("base", games=2)


# -- records ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def auto_record() -> dict:
    return finished(Rules(), seed=4).record()


@pytest.fixture(scope="module")
def manual_record() -> dict:
    g = Game(Rules(), seed=4, chance="manual")
    rng = random.Random(4)
    while not g.is_over():
        if g.decision is Decision.DRAW:
            tiles = sorted(g.drawable)
            g.draw(rng.choice(tiles))
        else:
            g.play(rng.choice(g.legal_moves))
    return g.record()


def refused(record, *needles: str) -> str:
    with pytest.raises(RecordError) as info:
        Game.from_record(record)
    msg = str(info.value)
    for n in needles:
        assert n in msg, (n, msg)
    return msg


def test_records_round_trip(auto_record, manual_record):
    for rec in (auto_record, manual_record):
        g = Game.from_record(rec)
        assert g.record() == rec
        assert Game.from_record(json.dumps(rec)).fingerprint() == g.fingerprint()
        assert Game.from_record(json.dumps(rec).encode()).fingerprint() == g.fingerprint()
    # An unfinished seeded game continues drawing from its seed.
    g = play_random(Game(Rules(), seed=9), random.Random(9), stop=20)
    h = Game.from_record(g.to_json())
    assert h.fingerprint() == g.fingerprint() and h.decision is Decision.PLACE
    m = g.legal_moves[0]
    g.play(m)
    h.play(str(m))
    assert h.fingerprint() == g.fingerprint()


@pytest.mark.parametrize(
    "text,needle",
    [
        ("{not json", "not valid JSON"),
        ("", "not valid JSON"),
        ("[" * 100_000, "not valid JSON"),
        (b"\xff\xfe\x00", "JSON"),
        ("[1, 2]", "JSON object"),
        ("42", "JSON object"),
        ("null", "JSON object"),
        ('"record"', "JSON object"),
    ],
)
def test_record_not_json_or_not_an_object(text, needle):
    refused(text, needle)


def test_record_too_large():
    refused(" " * 10_000_001, "10 MB")


def test_record_format_and_version(auto_record):
    refused({**auto_record, "format": "chess"}, "format")
    refused({k: v for k, v in auto_record.items() if k != "format"}, "format")
    refused({**auto_record, "version": 3}, "version", "3", "versions 1 and 2")
    refused({**auto_record, "version": "1"}, "version")
    refused({**auto_record, "version": 0}, "version", "0")


def test_a_version_1_record_replays_its_draws_and_goes_on_by_hand():
    """Version 1 seeds dealt the old way: the draws a record lists replay as given (they need
    not be what this engine deals for the seed), and the game goes on with manual draws."""
    other = finished(Rules(), seed=5)  # another deal than seed 4's, under the same rules
    old = {**other.record(), "seed": 4, "version": 1}
    assert old["chance"] == "auto"
    refused({**old, "version": 2}, "draws[0]", "seed 4 draws")
    g = Game.from_record(old)
    assert g.is_over() and g.scores == other.scores and g.fingerprint() == other.fingerprint()
    assert g.chance == "manual" and g.record()["version"] == 2
    assert Game.from_record(g.record()).fingerprint() == g.fingerprint()
    # Unfinished: it stops where the record does, then waits for tiles given by hand.
    part = play_random(Game(Rules(), seed=9), random.Random(9), stop=20)
    h = Game.from_record({**part.record(), "seed": 4, "version": 1})
    assert h.chance == "manual" and h.fingerprint() == part.fingerprint()
    m = part.legal_moves[0]
    h.play(str(m))
    assert h.decision is Decision.DRAW


@pytest.mark.parametrize("field", ["rules", "players", "seed", "draws", "moves"])
def test_record_missing_field(auto_record, field):
    refused({k: v for k, v in auto_record.items() if k != field}, repr(field))


def test_record_unknown_field(auto_record):
    refused({**auto_record, "comment": "hi"}, "unknown record field", "'comment'")


@pytest.mark.parametrize(
    "field,value",
    [
        ("players", "2"),
        ("players", 7),
        ("players", 1),
        ("players", True),
        ("players", 2.0),
        ("players", None),
        ("seed", -1),
        ("seed", "4"),
        ("seed", 2**64),
        ("seed", 4.0),
        ("chance", "x"),
        ("chance", None),
        ("rules", "base"),
        ("rules", {"river": "yes"}),
        ("rules", {"rivers": True}),
        ("rules", None),
        ("draws", "CROSS4"),
        ("moves", {"0": "1,0 0"}),
        ("draws", None),
    ],
)
def test_record_bad_field_value(auto_record, field, value):
    refused({**auto_record, field: value}, repr(field))


def test_record_huge_lists(auto_record):
    refused({**auto_record, "draws": ["CROSS4"] * 10_001}, "'draws'", "10000")
    refused({**auto_record, "moves": ["1,0 0"] * 10_001}, "'moves'", "10000")
    refused({**auto_record, "moves": ["1,0 0" * 100]}, "moves[0]")


@pytest.mark.parametrize("bad", [1, None, ["1,0 0"], {"m": 1}, 1.5])
def test_record_non_string_moves(auto_record, bad):
    moves = list(auto_record["moves"])
    moves[3] = bad
    refused({**auto_record, "moves": moves}, "moves[3]", "string")
    draws = list(auto_record["draws"])
    draws[2] = bad
    refused({**auto_record, "draws": draws}, "draws[2]", "string")


@pytest.mark.parametrize("bad", ["99,99 0", "garbage", "0,0 0", "1,0 0 meeple castle"])
def test_record_illegal_move_in_the_middle(auto_record, manual_record, bad):
    for rec in (auto_record, manual_record):
        moves = list(rec["moves"])
        moves[17] = bad
        msg = refused({**rec, "moves": moves}, "moves[17]")
        assert bad in msg


def test_record_draw_not_matching_the_seed(auto_record):
    draws = list(auto_record["draws"])
    i = 15
    other = next(t for t in draws[i + 1 :] if t != draws[i])
    draws[i] = other
    refused({**auto_record, "draws": draws}, f"draws[{i}]", "seed", repr(other))


def test_record_manual_bad_draw(manual_record):
    draws = list(manual_record["draws"])
    draws[5] = "NOPE"
    refused({**manual_record, "draws": draws}, "draws[5]", "NOPE")
    draws = list(manual_record["draws"])
    draws[0] = "CROSS4"  # a land tile while the river is drawn
    refused({**manual_record, "draws": draws}, "draws[0]", "CROSS4")


def test_record_trailing_moves_and_draws(auto_record, manual_record):
    n = len(auto_record["moves"])
    refused({**auto_record, "moves": auto_record["moves"] + ["1,0 0"]}, f"moves[{n}]")
    d = len(manual_record["draws"])
    refused(
        {**manual_record, "draws": manual_record["draws"] + ["CROSS4"], "result": None},
        f"draws[{d}]",
    )
    # Moves without their draws in a manual record.
    refused({**manual_record, "draws": manual_record["draws"][:10], "result": None}, "moves[")


def test_record_result_scores_differ(auto_record):
    scores = list(auto_record["result"]["scores"])
    scores[0] += 1
    refused({**auto_record, "result": {**auto_record["result"], "scores": scores}}, "result scores")
    refused({**auto_record, "result": {"breakdown": []}}, "'result'")
    refused({**auto_record, "result": [1, 2]}, "'result'")
    # A result on a game the moves do not finish.
    unfinished = play_random(Game(Rules(), seed=4), random.Random(4), stop=30).record()
    refused({**unfinished, "result": auto_record["result"]}, "result", "do not end")


@pytest.mark.parametrize("scores", [5, None, True, {"a": 1}])
def test_record_result_scores_not_a_list(auto_record, scores):
    """A malformed ``result.scores`` is a RecordError, not a TypeError from deep inside."""
    refused({**auto_record, "result": {**auto_record["result"], "scores": scores}}, "result")


def test_record_result_winners_or_breakdown_differ(auto_record):
    """A record whose claimed result does not replay is refused (RecordError's contract),
    whichever part of the result is wrong."""
    res = auto_record["result"]
    losers = [p for p in range(auto_record["players"]) if p not in res["winners"]]
    refused({**auto_record, "result": {**res, "winners": losers}}, "result")
    bd = [dict(b) for b in res["breakdown"]]
    bd[0]["roads"], bd[0]["cities"] = bd[0]["cities"], bd[0]["roads"] + 1
    if bd != res["breakdown"]:
        refused({**auto_record, "result": {**res, "breakdown": bd}}, "result")


def _discard_game() -> Game:
    """A base game (deterministic) in which the seeded bag discards a tile (B7)."""
    for seed in range(5000):
        g = play_random(Game(Rules.base(), seed=seed), random.Random(seed))
        if g.discarded:
            return g
    pytest.fail("no seeded game with a discard found")


def test_record_mismatch_after_a_discard_names_the_right_draw():
    """When the seed draws a discarded tile and then another, a record whose second draw is
    wrong is refused naming that second draw, not the (correct) discarded one."""
    g = _discard_game()
    rec = g.record()
    draws = rec["draws"]
    # Find the discarded draw: replay by hand.
    h = Game(Rules.base(), seed=g.seed, chance="manual")
    moves = iter(rec["moves"])
    k = None
    for i, t in enumerate(draws):
        if not h.draw(t):
            k = i
            break
        h.play(next(moves))
    assert k is not None and k + 1 < len(draws)
    other = next(t for t in draws[k + 2 :] if t != draws[k + 1])
    bad = list(draws)
    bad[k + 1] = other
    msg = refused({**rec, "draws": bad}, f"draws[{k + 1}]", repr(other))
    assert f"draws[{k}]" not in msg, msg


# -- move text -------------------------------------------------------------------------------

_EDGES = ["N", "E", "S", "W"]
_HALVES = ["NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"]


def board_ports(seg: dict, rotation: int) -> list[str]:
    """A segment's ports turned `rotation` degrees, in board order (N E S W / NNW ... WNW)."""
    r = rotation // 90
    if seg["kind"] == "field":
        idx = sorted((_HALVES.index(p) + 2 * r) % 8 for p in seg["ports"])
        return [_HALVES[i] for i in idx]
    idx = sorted((_EDGES.index(p) + r) % 4 for p in seg["ports"])
    return [_EDGES[i] for i in idx]


def check_move_texts(g: Game) -> int:
    """Every legal move: canonical text parses back to itself, and every other port of its
    segment (a non-canonical label) parses to the same move. Returns how many alternates."""
    alternates = 0
    legal = g.legal_moves
    assert len(set(legal)) == len(legal), "legal moves are distinct"
    assert len({str(m) for m in legal}) == len(legal), "move texts are distinct"
    tile = g.catalogue.tile(g.tile)
    for m in legal:
        text = str(m)
        assert MOVE_RE.match(text), text
        assert repr(m) == f"Move('{text}')"
        p = g.parse_move(text)
        assert p == m and hash(p) == hash(m) and str(p) == text
        assert m.tile == g.tile and m.rotation in (0, 90, 180, 270)
        assert text.startswith(f"{m.x},{m.y} {m.rotation}")
        if m.action in ("meeple", "abbot"):
            matches = []
            for seg in tile["segments"]:
                ports = board_ports(seg, m.rotation)
                label = f"{seg['kind']}:{ports[0]}" if ports else seg["kind"]
                if label == m.segment:
                    matches.append((seg, ports))
            assert len(matches) == 1, (m, tile["id"])
            seg, ports = matches[0]
            assert m.feature == seg["kind"] and text.endswith(f" {m.action} {m.segment}")
            for port in ports[1:]:
                alt = f"{m.x},{m.y} {m.rotation} {m.action} {seg['kind']}:{port}"
                q = g.parse_move(alt)
                assert q == m and str(q) == text, (alt, text)
                alternates += 1
            assert m.target is None
        elif m.action == "recall":
            assert m.segment is None and m.feature is None
            assert text.endswith(f" recall {m.target[0]},{m.target[1]}")
        else:
            assert m.action == "pass" and m.segment is None and m.target is None
    return alternates


@pytest.mark.parametrize(
    "rules,seed", [(Rules(), 1), (Rules.base(), 2), (Rules(small_city=True), 3)]
)
def test_move_text_round_trip(rules, seed):
    g = Game(rules, players=3, seed=seed)
    rng = random.Random(seed)
    alternates = 0
    recalls = 0
    while not g.is_over():
        alternates += check_move_texts(g)
        recalls += any(m.action == "recall" for m in g.legal_moves)
        g.play(rng.choice(g.legal_moves))
    assert alternates > 0
    if rules.abbot:
        assert recalls > 0


def test_non_canonical_label_gives_the_canonical_move():
    g = Game(Rules.base(), seed=0, chance="manual")
    assert g.draw("CORNER")  # city N+W, turned 180: a S+E city on the board
    m = g.parse_move("0,1 180 meeple city:S")
    assert str(m) == "0,1 180 meeple city:E"
    assert m == g.parse_move("0,1 180 meeple city:E") and m in g.legal_moves
    assert m.segment == "city:E" and m.feature == "city"
    # Turned 0 at a spot where it is not legal, the label still parses (form only).
    assert str(g.parse_move("5,5 0 meeple city:W")) == "5,5 0 meeple city:N"
    # Any half-edge of a field names it.
    f = g.parse_move("0,1 180 meeple field:WNW")
    assert str(f) == "0,1 180 meeple field:NNW"
    g.play("0,1 180 meeple city:S")
    assert g.figures()[0].segment == "city:E"
    assert g.record()["moves"] == ["0,1 180 meeple city:E"]


def test_symmetric_tiles_offer_distinct_rotations_only():
    g = Game(Rules.base(), seed=0, chance="manual")
    assert g.draw("CROSS4")
    assert {m.rotation for m in g.legal_moves} == {0}
    g.play(g.legal_moves[0])
    assert g.draw("ROAD_WE")
    assert {m.rotation for m in g.legal_moves} <= {0, 90}


# -- copy, pop, decisions --------------------------------------------------------------------


def test_copy_is_independent():
    g = play_random(Game(Rules(), seed=6), random.Random(6), stop=15)
    before = state(g)
    for c in (g.copy(), copy.copy(g)):
        assert state(c) == before
        play_random(c, random.Random(1), stop=25)
        assert state(g) == before
        c.pop()
        c.pop()
        assert state(g) == before
    c = g.copy()
    g.play(g.legal_moves[0])
    assert state(c) == before
    g.pop()
    assert state(g) == before == state(c)


def test_pop_restores():
    for rules, chance in ((Rules(), "auto"), (Rules.base(), "auto"), (Rules(), "manual")):
        g = Game(rules, seed=8, chance=chance)
        rng = random.Random(8)
        history = []
        while not g.is_over() and len(history) < 60:
            if g.decision is Decision.DRAW:
                g.draw(sorted(g.drawable)[0])
                continue
            history.append((state(g), g.legal_moves))
            g.play(rng.choice(g.legal_moves))
        assert len(history) == 60
        moves = g.move_stack
        for i in range(len(history) - 1, -1, -1):
            m = g.pop()
            assert m == moves[i]
            # A manual game returns to the state right after the draw for that move.
            assert state(g) == history[i][0]
            assert g.legal_moves == history[i][1]
        assert g.move_stack == []
        with pytest.raises(IndexError):
            g.pop()
    # Popping and replaying a seeded game gives the same draws.
    g = play_random(Game(Rules(), seed=2), random.Random(2), stop=30)
    fp, rec = g.fingerprint(), g.record()
    ms = [g.pop() for _ in range(10)][::-1]
    for m in ms:
        g.play(m)
    assert g.fingerprint() == fp and g.record() == rec


def test_pop_from_a_finished_game(finished_game):
    g = finished_game
    m = g.move_stack[-1]
    g.pop()
    assert g.decision is Decision.PLACE and m in g.legal_moves
    g.play(m)
    assert g.is_over()


def test_decision_values():
    assert [d.value for d in Decision] == ["draw", "place", "farmer", "choose", "reveal", "over"]
    assert Decision.DRAW == "draw" and Decision("place") is Decision.PLACE
    assert isinstance(Decision.OVER, str)
    # One member for each of the engine's decisions, and the engine says which are chance.
    native = {k: v for k, v in vars(_core.Decision).items() if isinstance(v, _core.Decision)}
    assert {d.name: d.value for d in Decision} == {k: v.value for k, v in native.items()}
    assert [d for d in Decision if d.is_chance] == [Decision.DRAW, Decision.REVEAL]
    g = Game(Rules(), seed=1, chance="manual")
    assert g.decision is Decision.DRAW and g.tile is None
    g.draw(sorted(g.drawable)[0])
    assert g.decision is Decision.PLACE and g.tile is not None
    a = Game(Rules(), seed=1)
    seen = set()
    rng = random.Random(0)
    while not a.is_over():
        seen.add(a.decision)
        a.play(rng.choice(a.legal_moves))
    assert seen == {Decision.PLACE} and a.decision is Decision.OVER


# -- results ---------------------------------------------------------------------------------


def test_winners_and_breakdown():
    assert Game(Rules.base(), players=4, seed=1).winners == [0, 1, 2, 3]
    for seed, players, rules in ((1, 2, Rules()), (2, 3, Rules.base()), (3, 5, Rules())):
        g = finished(rules, seed, players)
        scores = g.scores
        assert g.winners == [p for p in range(players) if scores[p] == max(scores)]
        bd = g.breakdown
        assert len(bd) == players
        for p in range(players):
            assert list(bd[p]) == list(SOURCES)
            assert sum(bd[p].values()) == scores[p]
            assert all(v >= 0 for v in bd[p].values())
        if not rules.abbot:
            assert all(b["gardens"] == 0 for b in bd)
        rec = g.record()["result"]
        assert rec == {"scores": scores, "breakdown": bd, "winners": g.winners}


def test_sources():
    assert list(SOURCES) == [
        "roads",
        "cities",
        "monasteries",
        "gardens",
        "fields",
        "goods",
        "pigs",
        "tolls",
        "fortune_tellers",
        "circus",
        "acrobats",
        "ringmaster",
    ]
    assert carcassonne.SOURCES is SOURCES


def test_results_columns():
    for players in (2, 4):
        r = simulate(Rules(), games=25, players=players, seed=3, threads=2)
        assert isinstance(r, Results) and len(r) == 25
        assert r.scores.shape == (25, players)
        assert r.breakdown.shape == (25, players, len(SOURCES))
        assert r.sources == tuple(SOURCES)
        cols = r.columns()
        want = ["seed", "turns", "discarded"]
        for p in range(players):
            want += [f"score_{p}", f"won_{p}"] + [f"{s}_{p}" for s in SOURCES]
        assert list(cols) == want
        for name, col in cols.items():
            assert col.shape == (25,), name
        assert (r.breakdown.sum(axis=2) == r.scores).all()
        won = r.won()
        assert won.shape == (25, players) and won.dtype == bool
        best = r.scores.max(axis=1, keepdims=True)
        assert (won == (r.scores == best)).all()
        for p in range(players):
            assert (cols[f"won_{p}"] == won[:, p]).all()
            assert (cols[f"score_{p}"] == r.scores[:, p]).all()
        assert (r.turns + r.discarded == 83).all()  # 84 tiles, the spring laid first
    empty = simulate(Rules.base(), games=0)
    assert len(empty) == 0 and all(c.shape == (0,) for c in empty.columns().values())


def test_simulate_matches_a_seeded_game_length():
    r = simulate(Rules.base(), games=5, seed=11)
    assert (r.turns + r.discarded == 71).all()
    assert len(set(r.seed.tolist())) == 5


def test_simulate_is_deterministic_across_threads_and_chunks():
    kw = {"games": 60, "players": 3, "seed": 12345}
    runs = [simulate(Rules(), threads=t, **kw) for t in (1, 3, 0)]
    runs.append(Results.concat(list(simulate_chunks(Rules(), chunk=7, threads=2, **kw))))
    first = runs[0]
    for other in runs[1:]:
        for k in ("seed", "turns", "discarded", "winners", "scores", "breakdown"):
            assert np.array_equal(getattr(first, k), getattr(other, k)), k
    other_seed = simulate(Rules(), threads=2, **{**kw, "seed": 54321})
    assert not np.array_equal(first.seed, other_seed.seed)
