"""Tiles a person can find: what is printed on each tile, a lookup by it, and forgiving tile ids.

A tile id is ``TYPE`` or ``TYPE.ILLUSTRATION`` (docs/tiles.md): tiles of one type have the same
edges and features; the part after the dot names the small illustration printed on that copy
(``garden``, ``farmhouse``, ``shed``, ``robbers``, ``watertower``), which matters for the Abbot
(a garden takes an abbot) and the Toll Collectors (illustrations beside a road pay tolls).

    find(edges="CCFC", arms=1)              -> ids of every tile that looks like that
    look(catalogue.tile("CITY3.garden"))    -> TileLook: its printed facts, rotation-free

``Game.draw`` reads ids forgivingly through :func:`draw_id` (any case; ``NAME*`` for any copy
of a type still drawable) and explains a refusal through :func:`why_not_drawable` (close
matches, the copies of that type still in the bag, "not in play under these rules").
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from carcassonne import _core
from carcassonne._core import Catalogue, DrawError, Rules

ILLUSTRATIONS = ("garden", "farmhouse", "shed", "robbers", "watertower", "travellers")
SPACES = ("monastery", "village", "tent", "bigtop", "acrobat", "spring", "lake")
GOODS = ("wine", "grain", "cloth", "chicken")
EDGE_LETTERS = {"C": "city", "R": "road", "F": "field", "I": "river"}


@dataclass(frozen=True)
class TileLook:
    """What is printed on a tile, the same in every rotation. ``edges`` go clockwise from the
    catalogue's north (``C`` city, ``R`` road, ``F`` field, ``I`` river); ``cities`` and
    ``roads`` count the separate city and road pieces; ``spaces`` are the expansions' spaces
    and buildings (``monastery``, ``village``, ``tent``, ``bigtop``, ``acrobat``, ``spring``,
    ``lake``); ``arms`` counts coats of arms; ``goods`` and ``illustrations`` (``garden``,
    ``farmhouse``, ``shed``, ``robbers``, ``watertower``, ``travellers``) list what is drawn,
    sorted."""

    id: str
    set: str
    edges: str
    cities: int
    roads: int
    spaces: tuple[str, ...]
    arms: int
    goods: tuple[str, ...]
    illustrations: tuple[str, ...]

    @property
    def type(self) -> str:
        """The tile's type: its id without the illustration after the dot."""
        return tile_type(self.id)


def tile_type(tile_id: str) -> str:
    """``CITY3.garden`` -> ``CITY3``."""
    return tile_id.split(".", 1)[0]


def look(tile: Mapping[str, Any]) -> TileLook:
    """The printed facts of a tile (a ``catalogue.tile(id)`` entry)."""
    segs = tile["segments"]
    kinds = ("city", "road", "field", "river", "garden")
    spaces = {s["kind"] for s in segs if s["kind"] not in kinds}
    if any(s["kind"] == "road" and s["end"] == "village" for s in segs):
        spaces.add("village")
    for flag in ("spring", "lake"):
        if tile[flag]:
            spaces.add(flag)
    items = ["garden" for s in segs if s["kind"] == "garden"]
    for s in segs:
        for name, n in s["items"].items():
            items.extend([name] * n)
    return TileLook(
        id=tile["id"],
        set=tile["set"],
        edges=tile["edges"],
        cities=sum(s["kind"] == "city" for s in segs),
        roads=sum(s["kind"] == "road" for s in segs),
        spaces=tuple(sorted(spaces)),
        arms=sum(s["arms"] for s in segs),
        goods=tuple(sorted(s["goods"] for s in segs if s["goods"])),
        illustrations=tuple(sorted(items)),
    )


def looks(catalogue: Catalogue | None = None) -> list[TileLook]:
    """Every tile's printed facts, in catalogue order."""
    cat = catalogue if catalogue is not None else Catalogue.builtin()
    return [look(cat.tile(t)) for t in cat.tile_ids()]


def _same_edges(a: str, b: str) -> bool:
    """Edges ``a`` (``?`` for any letter) equal to ``b`` in some rotation (clockwise order
    kept)."""
    if len(a) != len(b):
        return False
    if "?" not in a:
        return a in b + b
    turns = (b[k:] + b[:k] for k in range(len(b)))
    return any(all(x in ("?", y) for x, y in zip(a, t, strict=True)) for t in turns)


def find(
    edges: str | None = None,
    *,
    cities: int | None = None,
    roads: int | None = None,
    spaces: Iterable[str] | None = None,
    arms: int | None = None,
    goods: Iterable[str] | None = None,
    illustrations: Iterable[str] | None = None,
    set: str | None = None,
    catalogue: Catalogue | None = None,
    rules: Rules | None = None,
) -> list[str]:
    """Ids of the tiles that look like this, in catalogue order. Every argument left out (None)
    matches anything. ``edges``: four letters clockwise from any side (``"CCFC"`` finds a
    city on three sides and a field on the fourth however the tile lies; ``?`` is any edge:
    ``"CC??"`` finds a city on two sides next to each other); ``spaces``: every
    space named must be on the tile (``["monastery"]``); ``goods`` and ``illustrations``:
    exactly these, in any order (``illustrations=[]`` asks for a tile with none); ``set``: a
    tile set name (``Catalogue.set_names()``); ``rules``: only tiles in play under them."""
    if edges is not None:
        edges = edges.strip().upper()
        if len(edges) != 4 or any(e not in EDGE_LETTERS and e != "?" for e in edges):
            raise ValueError(
                f"edges must be 4 letters clockwise, each C (city), R (road), F (field), "
                f"I (river) or ? (any), not {edges!r:.40}"
            )
    want_spaces = None if spaces is None else {*_texts(spaces, "spaces", SPACES)}
    want_goods = None if goods is None else tuple(sorted(_texts(goods, "goods", GOODS)))
    want_items = (
        None
        if illustrations is None
        else tuple(sorted(_texts(illustrations, "illustrations", ILLUSTRATIONS)))
    )
    cat = catalogue if catalogue is not None else Catalogue.builtin()
    if set is not None and set not in cat.set_names():
        raise ValueError(f"unknown tile set {set!r} ({', '.join(cat.set_names())})")
    playing = None if rules is None else in_play(rules, cat)
    out = []
    for t in looks(cat):
        if (
            (edges is None or _same_edges(edges, t.edges))
            and (cities is None or t.cities == cities)
            and (roads is None or t.roads == roads)
            and (want_spaces is None or want_spaces <= {*t.spaces})
            and (arms is None or t.arms == arms)
            and (want_goods is None or t.goods == want_goods)
            and (want_items is None or t.illustrations == want_items)
            and (set is None or t.set == set)
            and (playing is None or t.id in playing)
        ):
            out.append(t.id)
    return out


def _texts(values: Iterable[str], name: str, known: tuple[str, ...]) -> list[str]:
    values = [values] if isinstance(values, str) else list(values)
    for v in values:
        if not isinstance(v, str) or v.lower() not in known:
            raise ValueError(f"{name}: {v!r:.40} is not one of {', '.join(known)}")
    return [v.lower() for v in values]


def in_play(rules: Rules, catalogue: Catalogue | None = None) -> set[str]:
    """Ids of the tiles a game under ``rules`` plays with: its bag and its start tile."""
    st = _core.State(players=2, seed=0, catalogue=catalogue, rules=rules)
    return {*st.bag(), *(p[2] for p in st.placed())}


# -- forgiving ids (Game.draw) ---------------------------------------------------------------


def draw_id(text: str, ids: Collection[str], drawable: Mapping[str, int]) -> str:
    """The tile id ``text`` means: the id itself, the id in another case, or for ``NAME*``
    the first copy of type NAME that may be drawn now (the plain one before its illustrated
    copies: ``NAME`` sorts before ``NAME.x``). Text matching nothing is returned as given."""
    text = text.strip()
    if text.endswith("*"):
        name = tile_type(text[:-1]).upper()
        found = sorted(t for t in drawable if tile_type(t).upper() == name)
        if not found:
            raise DrawError(f"no copy of {text[:-1]!r:.60} can be drawn now")
        return found[0]
    if text in ids:
        return text
    folded = [t for t in ids if t.upper() == text.upper()]
    return folded[0] if len(folded) == 1 else text


def why_not_drawable(
    tile: str,
    ids: Collection[str],
    drawable: Mapping[str, int],
    bag: Mapping[str, int],
    playing: Collection[str],
    hand: list[str],
    reason: str,
) -> str:
    """What to say when ``tile`` cannot be drawn: an unknown id with its close matches, a tile
    not in play under the rules, a type whose plain copy is gone but whose illustrated copies
    are in the bag, the last copy already in a fortune teller's hand. ``reason`` is the
    engine's refusal (why a tile in the bag cannot be drawn yet)."""
    if tile not in ids:
        close = difflib.get_close_matches(tile.upper(), [t.upper() for t in ids], n=5, cutoff=0.6)
        by_upper = {t.upper(): t for t in ids}
        same_type = sorted(t for t in drawable if tile_type(t).upper() == tile_type(tile).upper())
        hints = same_type + [by_upper[c] for c in close]
        msg = f"unknown tile id {tile!r:.60}"
        if hints:
            msg += f"; did you mean {', '.join(dict.fromkeys(hints))}?"
        return msg + " (find a tile by what is printed on it: carcassonne.tiles.find)"
    if tile not in playing:
        return f"tile {tile} is not in play under these rules"
    variants = sorted(t for t in drawable if tile_type(t) == tile_type(tile) and t != tile)
    if tile in hand and tile not in bag:
        msg = f"tile {tile} is not in the bag: its last copy is already in the hand {hand}"
        return msg + " (undo() takes back a draw entered twice)"
    if tile not in bag:
        msg = f"tile {tile} is not in the bag (every copy is drawn)"
    else:
        msg = reason
    if variants:
        listed = ", ".join(f"{t} ({drawable[t]})" for t in variants)
        msg += (
            f"; copies of {tile_type(tile)} that may be drawn now: {listed} (the part after "
            f"the dot is the illustration printed on it; {tile_type(tile)}* takes any)"
        )
    return msg
