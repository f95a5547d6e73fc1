"""The four tile sets read from their pictures (the wikicarpedia tile images): every tile of
Traders & Builders C3.1, the River (both editions), the Toll Collectors and the Fortune Teller
must match the facts per tile: edges, segments with the edges they reach, where each road ends,
goods, the cities each field borders, travellers, tents and gardens.

The facts below are transcribed from a tile-by-tile reading of the pictures (the 19 C3.1 tiles
and the 10 River tiles found in agreement keep the layouts of JCloisterZone's
traders_and_builders.xml and river.xml), not generated from the catalogue: a tile file that
drifts from its pictures fails here. Illustrations read with medium or low confidence
(farmhouse, shed, robbers, water tower on T&B and River tiles) are not checked, except that the
Toll Collectors carry none.
"""

from __future__ import annotations

import pytest

from carcassonne import Catalogue

CAT = Catalogue.builtin()
EDGES = "NESW"
HALVES = ("NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW")


def _normal(line: str) -> str:
    """One segment as a canonical string: ports in board order, ``cities=`` sorted."""
    words = line.split()
    kind, rest = words[0], words[1:]
    order = HALVES if kind == "field" else EDGES
    ports = sorted((w for w in rest if w in order), key=order.index)
    attrs = []
    for w in rest:
        if w in order:
            continue
        if w.startswith("cities="):
            w = "cities=" + ",".join(sorted(w[7:].split(","), key=EDGES.index))
        attrs.append(w)
    return " ".join([kind, *ports, *sorted(attrs)])


def describe(tile_id: str) -> tuple[str, list[str]]:
    """A catalogue tile as (edges, segment strings), in the notation of the facts below."""
    t = CAT.tile(tile_id)
    segs = t["segments"]
    out = []
    for s in segs:
        kind = s["kind"]
        words = [kind]
        if kind in ("city", "road", "river"):
            words += s["ports"]
        if kind == "road" and s["end"] != "through":
            words.append(f"end={s['end']}")
        if kind == "road" and s["items"].get("travellers"):
            words.append("travellers")
        if kind == "city" and s["goods"]:
            words.append(f"goods={s['goods']}")
        if kind == "field":
            words += s["ports"] or ["inner"]
            if s["cities"]:
                words.append("cities=" + ",".join(segs[i]["ports"][0] for i in s["cities"]))
        if kind == "garden" and s["road"] is not None:
            words.append(f"road={segs[s['road']]['ports'][0]}")
        out.append(_normal(" ".join(words)))
    return t["edges"], sorted(out)


def _facts(table: dict[str, tuple[str, list[str]]]) -> dict[str, tuple[str, list[str]]]:
    return {k: (e, sorted(_normal(s) for s in segs)) for k, (e, segs) in table.items()}


# -- Traders & Builders C3.1: picture letter in the comment --------------------------------------

TB31 = _facts(
    {
        # B: bridge, two through roads, four fields
        "TB3_24_bridge_cross.robbers": (
            "RRRR",
            ["road N S", "road E W", "field NNW WNW", "field NNE ENE", "field ESE SSE"]
            + ["field SSW WSW"],
        ),
        # C: cap N, road S to its gate, road W ends in the field
        "TB3_23_cN_rS_rW_deadend.farmhouse": (
            "CFRR",
            ["city N", "road S end=city", "road W end=field", "field WNW cities=N"]
            + ["field SSW WSW", "field ENE ESE SSE cities=N"],
        ),
        # A: cap N; road E ends in the field at a hut, short of the city; one field
        "TB3_A_cN_rE_deadend": (
            "CRFF",
            ["city N", "road E end=field", "field ENE ESE SSE SSW WSW WNW cities=N"],
        ),
        # J: monastery; road E ends at it, road S in the field; one field
        "TB3_J_mon_rE_rS": (
            "FRRF",
            ["monastery", "road E end=monastery", "road S end=field"]
            + ["field NNW NNE ENE ESE SSE SSW WSW WNW"],
        ),
        # G
        "TB3_01_cNW_grain.shed": (
            "CFFC",
            ["city N W goods=grain", "field ENE ESE SSE SSW cities=N"],
        ),
        # H
        "TB3_05_cNWE_grain": ("CCFC", ["city N E W goods=grain", "field SSE SSW cities=N"]),
        # D
        "TB3_10_cNW_cS_rE_grain": (
            "CRCC",
            ["city N W goods=grain", "city S", "road E end=city", "field ENE cities=N"]
            + ["field ESE cities=N,S"],
        ),
        # E
        "TB3_17_cWE_rS_grain": (
            "FCRC",
            ["city E W goods=grain", "road S end=city", "field NNW NNE cities=E"]
            + ["field SSE cities=E", "field SSW cities=E"],
        ),
        # F
        "TB3_21_cNW_rS_grain.robbers": (
            "CFRC",
            ["city N W goods=grain", "road S end=city", "field SSW cities=N"]
            + ["field ENE ESE SSE cities=N"],
        ),
        # I
        "TB3_22_cNWspur_rS_grain.watertower": (
            "CFRC",
            ["city N W goods=grain", "road S end=city", "field SSW cities=N"]
            + ["field SSE cities=N", "field ENE ESE cities=N"],
        ),
        # N: inner field
        "TB3_03_cWE_cS_cloth": (
            "FCCC",
            ["city E W goods=cloth", "city S", "field NNW NNE cities=E"]
            + ["field inner cities=E,S"],
        ),
        # M: inner field
        "TB3_06_cNW_cS_cE_cloth": (
            "CCCC",
            ["city N W goods=cloth", "city S", "city E", "field inner cities=N,S,E"],
        ),
        # O
        "TB3_07_cNWspur_rE_rS_cloth": (
            "CRRC",
            ["city N W goods=cloth", "road E end=city", "road S end=city"]
            + ["field ENE cities=N", "field ESE cities=N", "field SSE cities=N"]
            + ["field SSW cities=N"],
        ),
        # L: city N+W cloth, a separate city E, road S to the gate of N+W; SSW borders N+W,
        # SSE borders N+W and E
        "TB3_L_cNW_cE_rS_cloth": (
            "CCRC",
            ["city N W goods=cloth", "city E", "road S end=city", "field SSW cities=N"]
            + ["field SSE cities=N,E"],
        ),
        # K: garden
        "TB3_11_cNW_rE_cloth.garden": (
            "CRFC",
            ["city N W goods=cloth", "road E end=city", "field ENE cities=N"]
            + ["field ESE SSE SSW cities=N", "garden road=E"],
        ),
        # P: inner field
        "TB3_04_cWE_cS_chicken": (
            "FCCC",
            ["city E W goods=chicken", "city S", "field NNW NNE cities=E"]
            + ["field inner cities=E,S"],
        ),
        # U: garden
        "TB3_08_cNW_rE_rS_chicken.garden": (
            "CRRC",
            ["city N W goods=chicken", "road E end=city", "road S end=city"]
            + ["field ENE cities=N", "field ESE SSE cities=N", "field SSW cities=N"]
            + ["garden road=E"],
        ),
        # W
        "TB3_12_cNWspur_rE_chicken": (
            "CRFC",
            ["city N W goods=chicken", "road E end=city", "field ENE cities=N"]
            + ["field ESE cities=N", "field SSE SSW cities=N"],
        ),
        # V
        "TB3_13_cNWE_rS_chicken": (
            "CCRC",
            ["city N E W goods=chicken", "road S end=city", "field SSE cities=N"]
            + ["field SSW cities=N"],
        ),
        # X: inner field
        "TB3_14_cNW_cES_chicken.watertower": (
            "CCCC",
            ["city N W goods=chicken", "city E S", "field inner cities=N,E"],
        ),
        # Q: city E+W runs through, chicken
        "TB3_Q_cWE_chicken": (
            "FCFC",
            ["city E W goods=chicken", "field NNW NNE cities=E", "field SSE SSW cities=E"],
        ),
        # S
        "TB3_18_cWE_rS_chicken": (
            "FCRC",
            ["city E W goods=chicken", "road S end=city", "field NNW NNE cities=E"]
            + ["field SSE cities=E", "field SSW cities=E"],
        ),
        # R
        "TB3_19_cWE_rN_rS_chicken": (
            "RCRC",
            ["city E W goods=chicken", "road N end=city", "road S end=city"]
            + ["field NNW cities=E", "field NNE cities=E", "field SSE cities=E"]
            + ["field SSW cities=E"],
        ),
        # T: river tile; corner city N+E chicken, river W->S, no road
        "TB3_T_river_cNE_chicken": (
            "CCII",
            ["city N E goods=chicken", "river S W", "field WNW SSE cities=N"] + ["field SSW WSW"],
        ),
    }
)

# -- River (the ten common tiles as JCloisterZone's river.xml) -----------------------------------

RIVER_COMMON = _facts(
    {
        "RV_CITIES": (
            "CICI",
            ["city N", "city S", "river E W", "field ENE WNW cities=N", "field ESE WSW cities=S"],
        ),
        "RV_CITY_ROAD": (
            "CIRI",
            ["city N", "river E W", "road S end=city", "field ENE cities=N"]
            + ["field WNW cities=N", "field ESE SSE", "field SSW WSW"],
        ),
        "RV_MON_ROAD": (
            "FIRI",
            ["monastery", "river E W", "road S end=monastery", "field NNW NNE ENE WNW"]
            + ["field ESE SSE", "field SSW WSW"],
        ),
        "RV_BRIDGE": (
            "IRIR",
            ["river N S", "road E W", "field NNW WNW", "field NNE ENE", "field ESE SSE"]
            + ["field SSW WSW"],
        ),
        "RV_STRAIGHT": ("FIFI", ["river E W", "field NNW NNE ENE WNW", "field ESE SSE SSW WSW"]),
        "RV_STRAIGHT.shed": (
            "FIFI",
            ["river E W", "field NNW NNE ENE WNW", "field ESE SSE SSW WSW"],
        ),
        "RV_CORNER_CITY.watertower": (
            "CIIC",
            ["city N W", "river E S", "field ENE SSW cities=N", "field ESE SSE"],
        ),
        "RV_CURVE_ROAD.robbers": (
            "RRII",
            ["road N E", "river S W", "field NNW ESE SSE WNW", "field NNE ENE", "field SSW WSW"],
        ),
        "RV_CURVE.garden": (
            "FFII",
            ["river S W", "field NNW NNE ENE ESE SSE WNW", "field SSW WSW", "garden"],
        ),
        "RV_CURVE.farmhouse": (
            "FFII",
            ["river S W", "field NNW NNE ENE ESE SSE WNW", "field SSW WSW"],
        ),
    }
)
RIVER_EDITION = {
    # C3 spring: road W-N over the spring, three fields; C3 lake: a monastery, one field
    "river_c3": _facts(
        {
            "RV_SPRING": (
                "RIFR",
                ["river E", "road N W", "field NNW WNW", "field NNE ENE"]
                + ["field ESE SSE SSW WSW"],
            ),
            "RV_LAKE": ("FFFI", ["river W", "monastery", "field NNW NNE ENE ESE SSE SSW WSW WNW"]),
        }
    ),
    # C2: neither
    "river_c2": _facts(
        {
            "RV_SPRING_C2": ("FIFF", ["river E", "field NNW NNE ENE ESE SSE SSW WSW WNW"]),
            "RV_LAKE_C2": ("FFFI", ["river W", "field NNW NNE ENE ESE SSE SSW WSW WNW"]),
        }
    ),
}

# -- Toll Collectors -----------------------------------------------------------------------------

TOLL = _facts(
    {
        "TK01_VILLAGE_SW": (
            "FFRR",
            ["road S end=village", "road W end=village", "field NNW NNE ENE ESE SSE WNW"]
            + ["field SSW WSW"],
        ),
        "TK02_VILLAGE3": (
            "FRRR",
            ["road E end=village", "road S end=village", "road W end=village"]
            + ["field NNW NNE ENE WNW", "field ESE SSE", "field SSW WSW"],
        ),
        "TK03_VILLAGE_WE_travellers": (
            "FRFR",
            ["road E end=village travellers", "road W end=village"]
            + ["field NNW NNE ENE WNW", "field ESE SSE SSW WSW"],
        ),
        "TK04_VILLAGE3_travellers": (
            "FRRR",
            ["road E end=village travellers", "road S end=village", "road W end=village"]
            + ["field NNW NNE ENE WNW", "field ESE SSE", "field SSW WSW"],
        ),
        "TK05_ROAD_NS_travellers": (
            "RFRF",
            ["road N S travellers", "field NNW WNW WSW SSW", "field NNE ENE ESE SSE"],
        ),
        "TK06_CURVE_WS_travellers": (
            "FFRR",
            ["road S W travellers", "field NNW NNE ENE ESE SSE WNW", "field SSW WSW"],
        ),
        "TK07_CORNER_CURVE_travellers": (
            "CRRC",
            ["city N W", "road E S travellers", "field ENE SSW cities=N", "field ESE SSE"],
        ),
        "TK08_CAP_ROAD_TO_CITY_travellers": (
            "CFRF",
            ["city N", "road S end=city travellers", "field SSW WSW WNW cities=N"]
            + ["field ENE ESE SSE cities=N"],
        ),
        "TK09_CAP_W_ROAD_NS_travellers": (
            "RFRC",
            ["city W", "road N S travellers", "field NNW SSW cities=W"] + ["field NNE ENE ESE SSE"],
        ),
        "TK10_CAPS_NE_ROADS_travellers": (
            "CCRR",
            ["city N", "city E", "road W end=city", "road S end=city travellers"]
            + ["field WNW cities=N", "field WSW SSW cities=N,E", "field SSE cities=E"],
        ),
    }
)

# -- The Fortune Teller --------------------------------------------------------------------------

FT_COMMON = _facts(
    {
        "FT01_CAP_CURVE": (
            "CFRR",
            ["tent", "city N", "road W S", "field WNW ENE ESE SSE cities=N", "field SSW WSW"],
        ),
        "FT02_CAPS_NS": ("CFCF", ["tent", "city N", "city S", "field ENE ESE WSW WNW cities=N,S"]),
        "FT03_CURVE_ES": (
            "FRRF",
            ["tent", "road E S", "field NNW NNE ENE SSW WSW WNW", "field ESE SSE"],
        ),
        "FT04_ROAD_TO_TENT": (
            "FFFR",
            ["tent", "road W end=tent", "field NNW NNE ENE ESE SSE SSW WSW WNW"],
        ),
        "FT06_CORNER_NE": ("CCFF", ["tent", "city N E", "field SSE SSW WSW WNW cities=N"]),
        "FT07_CAP_W_ROAD_NS": (
            "RFRC",
            ["tent", "city W", "road N S", "field NNW SSW cities=W", "field NNE ENE ESE SSE"],
        ),
        "FT08_CAP_E_ROAD_TO_CITY": (
            "FCRF",
            ["tent", "city E", "road S end=city", "field NNW NNE WNW WSW SSW cities=E"]
            + ["field SSE cities=E"],
        ),
    }
)
FT05 = ["tent", "road N S", "field NNW WNW WSW SSW", "field NNE ENE ESE SSE"]
FT_EDITION = {
    "fortune_teller_c1": _facts({"FT05_ROAD_NS": ("RFRF", FT05)}),
    "fortune_teller_c2": _facts({"FT05_ROAD_NS.garden": ("RFRF", [*FT05, "garden road=N"])}),
}

SETS = {
    "traders_builders_c31": TB31,
    "river": RIVER_COMMON,
    **RIVER_EDITION,
    "toll_collectors": TOLL,
    "fortune_teller": FT_COMMON,
    **FT_EDITION,
}


@pytest.mark.parametrize("name", SETS)
def test_every_tile_matches_its_picture(name):
    """Each set holds exactly the tiles pictured, one copy each, and each tile has the
    pictured edges and segments (road ends, goods, fields and the cities they border,
    travellers, tents, gardens and the road a garden stands beside)."""
    ids = [t for t in CAT.tile_ids() if CAT.tile(t)["set"] == name]
    assert sorted(ids) == sorted(SETS[name])
    for tile_id, facts in SETS[name].items():
        assert CAT.tile(tile_id)["count"] == 1, tile_id
        assert describe(tile_id) == facts, tile_id


def test_sets_in_totals():
    """T&B C3.1: 24 tiles, goods chicken 9 / grain 6 / cloth 5 and 4 tiles without goods, no
    coat of arms; one river tile. River: 12 tiles per edition. Toll Collectors: 10 tiles, 8
    with travellers, villages of 2 and 3 roads on 01-04 only, roads ending at city gates on 08
    and 10. Fortune Teller: 8 tiles per art, a road ends at the tent on one tile only."""
    goods: dict[str | None, int] = {}
    for tile_id in TB31:
        kinds = [s["goods"] for s in CAT.tile(tile_id)["segments"] if s["goods"]]
        assert len(kinds) <= 1, tile_id
        k = kinds[0] if kinds else None
        goods[k] = goods.get(k, 0) + 1
        assert not any(s["arms"] for s in CAT.tile(tile_id)["segments"]), tile_id
    assert goods == {"chicken": 9, "grain": 6, "cloth": 5, None: 4}
    assert [t for t in TB31 if "I" in CAT.tile(t)["edges"]] == ["TB3_T_river_cNE_chicken"]
    for edition in RIVER_EDITION.values():
        assert len(RIVER_COMMON) + len(edition) == 12
    villages = {
        t: sum(s["end"] == "village" for s in CAT.tile(t)["segments"] if s["kind"] == "road")
        for t in TOLL
    }
    assert {t: n for t, n in villages.items() if n} == {
        "TK01_VILLAGE_SW": 2,
        "TK02_VILLAGE3": 3,
        "TK03_VILLAGE_WE_travellers": 2,
        "TK04_VILLAGE3_travellers": 3,
    }
    travellers = [t for t in TOLL if any("travellers" in s for s in TOLL[t][1])]
    assert len(travellers) == 8 and "TK01_VILLAGE_SW" not in travellers
    gates = [t for t in TOLL if any("end=city" in s for s in TOLL[t][1])]
    assert gates == ["TK08_CAP_ROAD_TO_CITY_travellers", "TK10_CAPS_NE_ROADS_travellers"]
    for edition in FT_EDITION.values():
        tiles = {**FT_COMMON, **edition}
        assert len(tiles) == 8
        assert [t for t in tiles if any("end=tent" in s for s in tiles[t][1])] == [
            "FT04_ROAD_TO_TENT"
        ]


def test_toll_collectors_carry_no_other_illustration():
    """Section 3 (H): no farmhouse, shed, garden, robbers, water tower, monastery or coat of
    arms on any of the ten; the travellers stand beside one road on 03-10."""
    for tile_id in TOLL:
        for s in CAT.tile(tile_id)["segments"]:
            assert s["kind"] not in ("garden", "monastery"), tile_id
            assert set(s["items"]) <= {"travellers"}, tile_id
            assert s["arms"] == 0, tile_id


def test_provisional_only_below_high_confidence():
    """``provisional`` stays only where the reading's confidence is below H (high): the
    village field split (M-H) on TK01-TK04, the separate caps on TK10 (M-H), the garden touching
    the road on C2 tile 05 (M), and the C3.1 illustrations (M/L). Every other tile of the four
    sets is marked as known."""
    provisional = {
        t
        for name in SETS
        for t in CAT.tile_ids()
        if CAT.tile(t)["set"] == name and CAT.tile(t)["provisional"]
    }
    assert provisional == {
        "TK01_VILLAGE_SW",
        "TK02_VILLAGE3",
        "TK03_VILLAGE_WE_travellers",
        "TK04_VILLAGE3_travellers",
        "TK10_CAPS_NE_ROADS_travellers",
        "FT05_ROAD_NS.garden",
        "TB3_24_bridge_cross.robbers",
        "TB3_23_cN_rS_rW_deadend.farmhouse",
        "TB3_01_cNW_grain.shed",
        "TB3_21_cNW_rS_grain.robbers",
        "TB3_22_cNWspur_rS_grain.watertower",
        "TB3_11_cNW_rE_cloth.garden",
        "TB3_08_cNW_rE_rS_chicken.garden",
        "TB3_14_cNW_cES_chicken.watertower",
    }
