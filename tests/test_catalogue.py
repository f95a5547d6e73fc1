"""The tile catalogue through the Python API.

The built-in catalogue seen from Python must agree with the facts pinned here
(inventory, checksums, gardens and illustrations of the base game and the River, from
JCloisterZone's basic.xml and river.xml in github.com/farin/JCloisterZone-Client and fan tile
lists of the Wikicarpedia scans); ``Catalogue.from_text`` refuses malformed text with
``CatalogueError`` (a ``ValueError`` with a clear message), never a panic; a catalogue loaded
from text plays whole games.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import carcassonne
from carcassonne import Catalogue, CatalogueError, Game, Rules, simulate

from rulehelpers import play_random

CAT = Catalogue.builtin()
RIVER_SETS = ("river", "river_c3", "river_c2")
TILES = {t: CAT.tile(t) for t in CAT.tile_ids() if CAT.tile(t)["set"] in ("base", *RIVER_SETS)}


def family(tile_id: str) -> str:
    return tile_id.split(".")[0]


def of_set(name: str | tuple[str, ...]) -> list[dict]:
    names = (name,) if isinstance(name, str) else name
    return [t for t in TILES.values() if t["set"] in names]


def checksums(name: str | tuple[str, ...]) -> dict[str, int]:
    c: Counter[str] = Counter()
    for t in of_set(name):
        n = t["count"]
        c["tiles"] += n
        for letter, key in (
            ("C", "edge_CITY"),
            ("R", "edge_ROAD"),
            ("F", "edge_FIELD"),
            ("I", "edge_RIVER"),
        ):
            c[key] += n * t["edges"].count(letter)
        kinds = [s["kind"] for s in t["segments"]]
        c["city_segments"] += n * kinds.count("city")
        c["road_segments"] += n * kinds.count("road")
        c["field_areas"] += n * kinds.count("field")
        c["monastery_tiles"] += n * ("monastery" in kinds)
        c["coat_of_arms_tiles"] += n * any(s["arms"] for s in t["segments"])
        c["crossroads_tiles"] += n * t["crossroads"]
        for s in t["segments"]:
            if s["kind"] == "road":
                assert s["end"] in ("through", "village", "city", "monastery"), t["id"]
                if s["end"] != "through":
                    c[f"road_ends_at_{s['end']}"] += n
    return c


KEYS = [
    "tiles",
    "edge_CITY",
    "edge_ROAD",
    "edge_FIELD",
    "edge_RIVER",
    "city_segments",
    "road_segments",
    "field_areas",
    "monastery_tiles",
    "coat_of_arms_tiles",
    "crossroads_tiles",
    "road_ends_at_village",
    "road_ends_at_city",
    "road_ends_at_monastery",
]

# Base and River checksums, C2/C3 (summed from JCloisterZone's basic.xml and river.xml), in KEYS
# order.
BASE = [72, 79, 94, 115, 0, 49, 62, 126, 6, 10, 8, 25, 3, 2]
RIVER = [12, 5, 6, 15, 22, 4, 4, 28, 1, 0, 0, 0, 1, 1]
# C3 (wikicarpedia tile images River1_C3): the spring's road W-N (2 road edges, 1 road, 2 more
# fields) and the lake's monastery.
RIVER_C3 = [12, 5, 8, 13, 22, 4, 5, 30, 2, 0, 0, 0, 1, 1]


@pytest.mark.parametrize(
    "name,want",
    [("base", BASE), (("river", "river_c2"), RIVER), (("river", "river_c3"), RIVER_C3)],
)
def test_checksums(name, want):
    got = checksums(name)
    assert {k: got.get(k, 0) for k in KEYS} == dict(zip(KEYS, want, strict=True))


def test_sets_and_lookup():
    assert CAT.set_names() == [
        "base",
        "river_c3",
        "river_c2",
        "river",
        "traders_builders_c2",
        "traders_builders_c31",
        "toll_collectors",
        "fortune_teller",
        "fortune_teller_c1",
        "fortune_teller_c2",
        "big_top",
    ]
    assert len(CAT) == len(CAT.tile_ids()) == len(set(CAT.tile_ids()))
    for tid, t in TILES.items():
        assert t["id"] == tid
        assert 1 <= t["count"] <= 99
    with pytest.raises(ValueError, match="NOPE"):
        CAT.tile("NOPE")
    with pytest.raises(ValueError, match="base, river"):
        Catalogue.builtin_text("traders")
    for name in CAT.set_names():
        assert Catalogue.from_text(Catalogue.builtin_text(name))


# Base and River inventory (JCloisterZone, C2/C3): family -> (copies, copies with garden, edges,
# distinct rotations).
FAMILIES = {
    "MON_ROAD": (2, 0, "FFRF", 4),
    "MON": (4, 0, "FFFF", 1),
    "CITY4_SHIELD": (1, 0, "CCCC", 1),
    "CAP_ROAD_WE": (4, 0, "CRFR", 4),
    "CAP": (5, 1, "CFFF", 4),
    "CITY_WE_SHIELD": (2, 0, "FCFC", 2),
    "CITY_WE": (1, 0, "FCFC", 2),
    "CAPS_NS": (3, 1, "CFCF", 2),
    "CAPS_NW": (2, 1, "CFFC", 4),
    "CAP_CURVE_ES": (3, 0, "CRRF", 4),
    "CAP_CURVE_SW": (3, 0, "CFRR", 4),
    "CAP_CROSS3": (3, 0, "CRRR", 4),
    "CORNER_SHIELD": (2, 1, "CFFC", 4),
    "CORNER": (3, 1, "CFFC", 4),
    "CORNER_CURVE_SHIELD": (2, 0, "CRRC", 4),
    "CORNER_CURVE": (3, 0, "CRRC", 4),
    "CITY3_SHIELD": (1, 0, "CCFC", 4),
    "CITY3": (3, 1, "CCFC", 4),
    "CITY3_ROAD_SHIELD": (2, 0, "CCRC", 4),
    "CITY3_ROAD": (1, 0, "CCRC", 4),
    "ROAD_WE": (8, 1, "FRFR", 2),
    "ROAD_CURVE_SW": (9, 1, "FFRR", 4),
    "CROSS3": (4, 0, "FRRR", 4),
    "CROSS4": (1, 0, "RRRR", 1),
    "RV_SPRING": (1, 0, "RIFR", 4),
    "RV_LAKE": (1, 0, "FFFI", 4),
    "RV_SPRING_C2": (1, 0, "FIFF", 4),
    "RV_LAKE_C2": (1, 0, "FFFI", 4),
    "RV_CITIES": (1, 0, "CICI", 2),
    "RV_CITY_ROAD": (1, 0, "CIRI", 4),
    "RV_MON_ROAD": (1, 0, "FIRI", 4),
    "RV_BRIDGE": (1, 0, "IRIR", 2),
    "RV_STRAIGHT": (2, 0, "FIFI", 2),
    "RV_CORNER_CITY": (1, 0, "CIIC", 4),
    "RV_CURVE_ROAD": (1, 0, "RRII", 4),
    "RV_CURVE": (2, 1, "FFII", 4),
}


def test_families():
    copies: Counter[str] = Counter()
    gardens: Counter[str] = Counter()
    for t in TILES.values():
        f = family(t["id"])
        assert f in FAMILIES, t["id"]
        copies[f] += t["count"]
        gardens[f] += t["count"] * sum(s["kind"] == "garden" for s in t["segments"])
        assert t["edges"] == FAMILIES[f][2], t["id"]
    assert dict(copies) == {f: v[0] for f, v in FAMILIES.items()}
    assert {f: n for f, n in gardens.items() if n} == {f: v[1] for f, v in FAMILIES.items() if v[1]}


def test_distinct_rotations():
    """Every variant of a family offers the number of distinct rotations in FAMILIES: the copies
    differ only by an illustration or a garden, which no rule reads from a field's position."""
    wrong = {}
    for t in TILES.values():
        rot = t["rotations"]
        assert rot[0] == 0 and rot == sorted(set(rot)) and set(rot) <= {0, 90, 180, 270}
        if len(rot) != FAMILIES[family(t["id"])][3]:
            wrong[t["id"]] = rot
    assert wrong == {}


def test_gardens_and_illustrations():
    for name, gardens, items in (
        ("base", 8, {"farmhouse": 8, "shed": 8, "robbers": 8, "watertower": 8}),
        ("river", 1, {"farmhouse": 1, "shed": 1, "robbers": 1, "watertower": 1}),
    ):
        g = 0
        c: Counter[str] = Counter()
        for t in of_set(name):
            for s in t["segments"]:
                g += t["count"] * (s["kind"] == "garden")
                for k, v in s["items"].items():
                    c[k] += t["count"] * v
        assert g == gardens, name
        assert dict(c) == items, name


def test_start_spring_lake_flags():
    starts = [t["id"] for t in TILES.values() if t["start"]]
    assert len(starts) == 1 and family(starts[0]) == "CAP_ROAD_WE"
    assert all(s["items"] == {} for s in TILES[starts[0]]["segments"])
    assert [t["id"] for t in TILES.values() if t["spring"]] == ["RV_SPRING", "RV_SPRING_C2"]
    assert [t["id"] for t in TILES.values() if t["lake"]] == ["RV_LAKE", "RV_LAKE_C2"]
    crossroads = {family(t["id"]) for t in TILES.values() if t["crossroads"]}
    assert crossroads == {"CAP_CROSS3", "CROSS3", "CROSS4"}


def test_python_view_of_one_tile():
    t = CAT.tile("CITY3_ROAD_SHIELD")
    assert t["edges"] == "CCRC" and t["count"] == 1 and t["set"] == "base"
    city, road, f1, f2 = t["segments"]
    assert city == {
        "kind": "city",
        "ports": ["N", "E", "W"],
        "arms": 1,
        "goods": None,
        "end": "through",
        "items": {},
        "cities": [],
        "road": None,
    }
    assert road["kind"] == "road" and road["ports"] == ["S"] and road["end"] == "city"
    assert f1["ports"] == ["SSE"] and f1["cities"] == [0]
    assert f2["ports"] == ["SSW"] and f2["cities"] == [0]
    g = CAT.tile("ROAD_WE.garden")["segments"][-1]
    assert g["kind"] == "garden" and g["road"] == 0 and g["ports"] == []


# -- from_text errors ------------------------------------------------------------------------

FULL = "field NNW NNE ENE ESE SSE SSW WSW WNW"

BAD = [
    (
        "set base\ntile A 1 FFFF\n  field NNW NNE ENE ESE SSE SSW WSW\n",
        ["tile A", "WNW", "0 fields"],
    ),
    (f"set base\ntile A 1 FFFF\n  {FULL}\n  field WNW\n", ["tile A", "WNW", "2 fields"]),
    (f"set base\ntile A 1 CFFF\n  city N\n  {FULL}\n", ["tile A", "NNW", "city edge"]),
    (
        "set base\ntile A 1 CFFF\n  city N shiny\n  field ENE ESE SSE SSW WSW WNW\n",
        ["line 3", "unknown attribute", "shiny"],
    ),
    ("set base\ntyle A 1 FFFF\n", ["line 2", "unknown keyword", "tyle"]),
    (f"set base\ntile A 1 FFFF\n  {FULL}\ntile A 1 FFFF\n  {FULL}\n", ["duplicate tile id", "A"]),
    (f"set base\ntile A 1 FFXF\n  {FULL}\n", ["tile A", "edge letter `X`"]),
    (f"set base\ntile A 0 FFFF\n  {FULL}\n", ["tile A", "count `0`"]),
    (f"set base\ntile A 100 FFFF\n  {FULL}\n", ["tile A", "count `100`"]),
    (
        "set base\ntile A 1 CFFF\n  city N\n  field ENE ESE SSE SSW WSW WNW cities=S\n",
        ["line 4", "tile A", "cities=", "edge S"],
    ),
    (
        "set base\ntile A 1 FRFR\n  road W E end=village\n  field NNW NNE ENE WNW\n"
        "  field ESE SSE SSW WSW\n",
        ["end=", "one edge"],
    ),
    (f"tile A 1 FFFF\n  {FULL}\n", ["line 1", "before any `set`"]),
    ("set base\ntile A 1 CFFF\n  field ENE ESE SSE SSW WSW WNW\n", ["tile A", "edge N"]),
    (f"set base\nstart B\ntile A 1 FFFF\n  {FULL}\n", ["start tile `B`"]),
    ("", ["no tiles"]),
    (f"set base\ntile A 1 FFFF\n  {FULL}\n  castle\n", ["unknown segment", "castle"]),
]


@pytest.mark.parametrize("text,needles", BAD)
def test_from_text_errors(text, needles):
    with pytest.raises(CatalogueError) as info:
        Catalogue.from_text(text)
    msg = str(info.value)
    for n in needles:
        assert n in msg, (n, msg)


KNOWN_SETS = (
    "base, river, river_c3, river_c2, traders_builders_c2, traders_builders_c31, "
    "toll_collectors, fortune_teller, fortune_teller_c2, fortune_teller_c1, big_top"
)


def test_unknown_set_is_refused_naming_the_known_ones(tmp_path):
    """A set no rule plays (`toll`: the set is `toll_collectors`) would have its tiles left out
    of every game: refused, in a catalogue and in a `.tiles` file of counts."""
    text = f"set base\ntile A 1 FFFF\n  {FULL}\nset toll\ntile B 1 FFFF\n  {FULL}\n"
    message = f"line 4: unknown tile set `toll` (known sets: {KNOWN_SETS})"
    with pytest.raises(CatalogueError) as info:
        Catalogue.from_text(text)
    assert str(info.value) == message
    path = tmp_path / "toll.tiles"
    path.write_text(text)
    with pytest.raises(ValueError) as info:
        Rules(tiles=f"@{path}")
    assert str(info.value) == f"rule option 'tiles': {str(path)!r}: {message}"
    assert sorted(KNOWN_SETS.split(", ")) == sorted(CAT.set_names())


def test_catalogue_error_is_a_value_error():
    assert issubclass(CatalogueError, ValueError)
    assert carcassonne.CatalogueError is carcassonne.errors.CatalogueError
    with pytest.raises(ValueError):
        Catalogue.from_text("nonsense")


def test_counters_do_not_wrap():
    """256 robbers on one road cannot be stored: refused, not loaded as 0."""
    text = (
        "set base\ntile A 1 FRFR\n  road W E "
        + " ".join(["robbers"] * 256)
        + "\n  field NNW NNE ENE WNW\n  field ESE SSE SSW WSW\n"
    )
    with pytest.raises(CatalogueError):
        Catalogue.from_text(text)


def _load(text: str) -> None:
    try:
        Catalogue.from_text(text)
    except CatalogueError as e:
        assert str(e), "an error says what is wrong"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_random_text_loads_or_raises(text):
    _load(text)


WORDS = [
    "set",
    "start",
    "tile",
    "base",
    "river",
    "A",
    "B",
    "1",
    "2",
    "0",
    "99",
    "FFFF",
    "CFFF",
    "FRFR",
    "CCCC",
    "FIFI",
    "FIFF",
    "IRIR",
    "river-spring",
    "river-lake",
    "city",
    "road",
    "field",
    "river",
    "monastery",
    "garden",
    "provisional",
    "N",
    "E",
    "S",
    "W",
    "NNW",
    "NNE",
    "ENE",
    "ESE",
    "SSE",
    "SSW",
    "WSW",
    "WNW",
    "inner",
    "arms",
    "cities=N",
    "cities=N,S",
    "cities=",
    "road=W",
    "road=",
    "end=village",
    "end=city",
    "end=",
    "goods=wine",
    "farmhouse",
    "robbers",
    "#",
    "=",
    ",",
    "é",
    "\t",
]
LINE = st.tuples(
    st.sampled_from(["", "  ", "\t"]), st.lists(st.sampled_from(WORDS), min_size=1, max_size=8)
).map(lambda p: p[0] + " ".join(p[1]))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINE, max_size=20))
def test_token_soup_loads_or_raises(lines):
    _load("\n".join(lines))


BUILTIN = Catalogue.builtin_text("base").splitlines() + Catalogue.builtin_text("river").splitlines()


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_mutated_builtin_text_loads_or_raises(data):
    lines = list(BUILTIN)
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(lines) - 1))
        op = data.draw(st.sampled_from(["del", "dup", "word", "swap"]))
        if op == "del":
            del lines[i]
        elif op == "dup":
            lines.insert(data.draw(st.integers(0, len(lines))), lines[i])
        elif op == "swap":
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            words = lines[i].split(" ")
            k = data.draw(st.integers(0, len(words) - 1))
            words[k] = data.draw(st.sampled_from(WORDS))
            lines[i] = " ".join(words)
    _load("\n".join(lines))


# -- custom catalogues play ------------------------------------------------------------------


def test_base_text_round_trip_plays_to_the_end():
    cat = Catalogue.from_text(Catalogue.builtin_text("base"))
    assert cat.tile_ids() == [t for t in TILES if TILES[t]["set"] == "base"]
    for tid in cat.tile_ids():
        assert cat.tile(tid) == CAT.tile(tid)
    rng = random.Random(3)
    for seed in range(3):
        g = Game(Rules.base(), players=3, seed=seed, catalogue=cat)
        assert g.catalogue is cat
        play_random(g, rng)
        assert g.decision.value == "over"
        assert len(g.board) + g.discarded == 72
        # The same seed with the built-in catalogue draws the same tiles.
        h = Game(Rules.base(), players=3, seed=seed)
        for m in g.move_stack:
            h.play(str(m))
        assert h.fingerprint() == g.fingerprint()
        assert h.scores == g.scores


def test_base_and_river_text_round_trip_plays_to_the_end():
    text = Catalogue.builtin_text("base") + "\n" + Catalogue.builtin_text("river")
    cat = Catalogue.from_text(text)
    assert cat.tile_ids() == [t for t in CAT.tile_ids() if t in TILES]
    g = Game(Rules(), players=2, seed=11, catalogue=cat)
    play_random(g, random.Random(0))
    assert len(g.board) + g.discarded == 84
    r = simulate(Rules(), games=20, seed=5, threads=2, catalogue=cat)
    s = simulate(Rules(), games=20, seed=5, threads=2)
    assert (r.scores == s.scores).all() and (r.turns == s.turns).all()


def test_small_custom_catalogue():
    text = (
        "set base\nstart X\n"
        "tile X 5 RRRR\n  road N end=village\n  road E end=village\n  road S end=village\n"
        "  road W end=village\n  field NNW WNW\n  field NNE ENE\n  field ESE SSE\n"
        "  field SSW WSW\n"
        "tile M 2 FFFF\n  monastery\n  field NNW NNE ENE ESE SSE SSW WSW WNW\n"
    )
    cat = Catalogue.from_text(text)
    assert cat.tile("X")["rotations"] == [0] and cat.tile("X")["crossroads"]
    g = Game(Rules.base(), players=2, seed=1, catalogue=cat)
    play_random(g, random.Random(1))
    assert len(g.board) + g.discarded == 7
    assert g.record()["draws"] and all(d in ("X", "M") for d in g.record()["draws"])


def test_catalogue_unfit_for_the_rules_is_a_value_error():
    base_only = Catalogue.from_text(Catalogue.builtin_text("base"))
    with pytest.raises(ValueError, match="spring"):
        Game(Rules(), catalogue=base_only)
    no_start = Catalogue.from_text(f"set base\ntile A 1 FFFF\n  {FULL}\n")
    with pytest.raises(ValueError, match="start"):
        Game(Rules.base(), catalogue=no_start)
    river_only = Catalogue.from_text(Catalogue.builtin_text("river"))
    with pytest.raises(ValueError, match="base"):
        Game(Rules.base(), catalogue=river_only)
    with pytest.raises(ValueError):
        simulate(Rules.base(), games=2, catalogue=river_only)


# -- catalogue fuzz with every rule option on --------------------------------------------------

# Every built-in file once (a file may hold several sets).
_FILES = dict.fromkeys(Catalogue.builtin_text(name) for name in CAT.set_names())
ALL_TEXT = [line for text in _FILES for line in text.splitlines()]
TILE_LINES = [i for i, line in enumerate(ALL_TEXT) if line.startswith("tile ")]
BIG_TOP_LINES = [i for i in TILE_LINES if ALL_TEXT[i].split()[1].startswith("BT_TOP")]
ANIMAL_TOKENS = 16


def every_option_on() -> Rules:
    """Every expansion and option switched on (the first non-default 'on' value)."""
    opts = {}
    for name, allowed in Rules.options().items():
        if any(isinstance(a, type) for a in allowed):
            continue  # free text (tile counts): its default
        on = [a for a in allowed if a is True] or [a for a in allowed if a not in (None, False)]
        opts[name] = on[0]
    return Rules(**opts)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fuzzed_counts_with_every_option_on_play_whole_games(data):
    """Tile counts changed at random (big-top tiles most of all): the catalogue is refused
    with a clear error, or whole games end (Python-driven and native), never a crash or a
    hang. More big-top tiles than animal tokens (BT2-BT3) are refused."""
    lines = list(ALL_TEXT)
    picks = data.draw(st.lists(st.sampled_from(TILE_LINES), max_size=4))
    picks += data.draw(st.lists(st.sampled_from(BIG_TOP_LINES), max_size=4))
    for i in picks:
        words = lines[i].split()
        words[2] = str(data.draw(st.integers(1, 9)))  # counts are 1 to 99
        lines[i] = " ".join(words)
    big_tops = sum(int(lines[i].split()[2]) for i in TILE_LINES if "bigtop" in _segments(lines, i))
    try:
        cat = Catalogue.from_text("\n".join(lines))
    except CatalogueError as e:
        assert str(e)
        if big_tops > ANIMAL_TOKENS:
            assert "animal tokens" in str(e)
        return
    assert big_tops <= ANIMAL_TOKENS, "a catalogue with too many big-top tiles was accepted"
    rules = every_option_on()
    seed = data.draw(st.integers(0, 2**32))
    try:
        g = Game(rules, players=data.draw(st.integers(2, 6)), seed=seed, catalogue=cat)
    except ValueError as e:  # e.g. no lake tile left for the River: said clearly
        assert str(e)
        return
    play_random(g, random.Random(seed))
    assert g.is_over()
    res = simulate(rules, games=3, players=3, seed=seed, threads=1, catalogue=cat)
    assert len(res) == 3 and (res.turns > 0).all()


def _segments(lines: list[str], i: int) -> list[str]:
    """The segment kinds of the tile whose line is ``lines[i]``."""
    kinds = []
    for line in lines[i + 1 :]:
        if not line.startswith((" ", "\t")):
            break
        if line.split():
            kinds.append(line.split()[0])
    return kinds
