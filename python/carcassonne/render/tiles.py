"""Tile layout: each catalogue tile drawn from its own geometry, by tables of painters."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any

from carcassonne.render.geometry import (
    CENTRE,
    EDGE_MID,
    EDGE_SPAN,
    EDGES,
    HALF_MID,
    HALVES,
    INWARD,
    Cmd,
    Point,
    T,
    _dist,
    _flatten,
    _inside,
    _lerp,
    _path_d,
    _polyline_dist,
    _pt,
    _quad,
    half_edge,
    rotate_point,
)
from carcassonne.render.symbols import (
    COLOURS,
    GOODS_COLOURS,
    ITEM_SYMBOLS,
    SPACE_ROOM,
    SPACES,
    SYMBOL_RADIUS,
    SYMBOLS,
)

if TYPE_CHECKING:
    from carcassonne.game import Game

# -- tile layout --------------------------------------------------------------------------------


@dataclass
class Shape:
    layer: int
    cmds: list[Cmd]
    attrs: str  # fill/stroke attributes
    cls: str


@dataclass
class Symbol:
    layer: int
    name: str
    at: Point
    arg: str = ""
    title: str = ""


# Layers inside a tile, bottom to top.
L_RIVER, L_ROAD, L_CITY, L_BUILDING, L_SYMBOL, L_MARK = range(1, 7)


@dataclass
class TileCanvas:
    """A tile being laid out in its canonical orientation. Painters add shapes, symbols and
    figure anchors; obstacles (city areas, road and river lines, symbol discs) let later
    painters find a free spot."""

    tile: dict[str, Any]
    shapes: list[Shape] = field(default_factory=list)
    symbols: list[Symbol] = field(default_factory=list)
    anchors: list[Point | None] = field(default_factory=list)
    areas: list[tuple[int, list[Point]]] = field(default_factory=list)
    lines: list[tuple[list[Point], float]] = field(default_factory=list)
    discs: list[tuple[Point, float]] = field(default_factory=list)
    places: dict[str, Point] = field(default_factory=dict)  # e.g. "village", "monastery"

    def __post_init__(self) -> None:
        self.anchors = [None] * len(self.segments)

    @property
    def segments(self) -> list[dict[str, Any]]:
        return self.tile.get("segments") or []

    def shape(
        self,
        layer: int,
        cmds: list[Cmd],
        attrs: str,
        cls: str,
        *,
        area_of: int | None = None,
        halfwidth: float | None = None,
    ) -> None:
        self.shapes.append(Shape(layer, cmds, attrs, cls))
        if area_of is not None:
            self.areas.append((area_of, _flatten(cmds)))
        if halfwidth is not None:
            self.lines.append((_flatten(cmds), halfwidth))

    def symbol(
        self, layer: int, name: str, at: Point, arg: str = "", title: str = "", r: float = 0
    ) -> None:
        self.symbols.append(Symbol(layer, name, at, arg, title))
        if r:
            self.discs.append((at, r))

    def anchor(self, index: int, at: Point, r: float = 9.0) -> None:
        """Where a figure on segment ``index`` stands."""
        self.anchors[index] = at
        self.discs.append((at, r))

    def city_area(self, index: int) -> list[Point] | None:
        for i, poly in self.areas:
            if i == index:
                return poly
        return None

    def free(self, p: Point, r: float, within: list[Point] | None = None) -> bool:
        m = min(r, 12.0)
        if not (m <= p[0] <= T - m and m <= p[1] <= T - m):
            return False
        if within is not None:
            if not _inside(p, within) or _polyline_dist(p, within) < r * 0.7:
                return False
        else:
            for _, poly in self.areas:
                if _inside(p, poly) or _polyline_dist(p, poly) < r * 0.8:
                    return False
        for pts, hw in self.lines:
            if _polyline_dist(p, pts) < hw + r:
                return False
        return all(_dist(p, q) >= r + rq for q, rq in self.discs)

    def inner_spot(self, r: float) -> Point:
        """A free point away from the tile's field half-edges (for an inner field), the one
        nearest the centre among those far enough."""
        ports = [
            HALF_MID[h]
            for s in self.segments
            if s.get("kind") == "field"
            for h in s.get("ports") or []
            if h in HALF_MID
        ]
        grid = [(float(x), float(y)) for x in range(5, 100, 5) for y in range(5, 100, 5)]
        free = [q for q in grid if self.free(q, r)]
        if not free:
            return CENTRE

        def score(q: Point) -> tuple[float, float, float, float]:
            away = min((_dist(q, p) for p in ports), default=0.0)
            return (-min(away, 40.0), round(_dist(q, CENTRE), 6), q[1], q[0])

        return min(free, key=score)

    def free_spot(self, prefer: Point, r: float, within: list[Point] | None = None) -> Point:
        """The free point nearest ``prefer`` (on a 5-unit grid), or ``prefer`` if none."""
        if self.free(prefer, r, within):
            return prefer
        grid = [(float(x), float(y)) for x in range(5, 100, 5) for y in range(5, 100, 5)]
        grid.sort(key=lambda q: (round(_dist(q, prefer), 6), q[1], q[0]))
        for q in grid:
            if self.free(q, r, within):
                return q
        return prefer


SegmentPainter = Callable[[TileCanvas, int, dict[str, Any]], None]


def _city_path(edges: list[str], tight: bool = False) -> list[Cmd]:
    """A city over ``edges``: the tile border along its edges, closed by an inward curve over
    each run of other edges (a cap for one edge, a diagonal for a corner, ...). ``tight``
    draws it smaller, leaving room for an inner field."""
    if set(EDGES) <= set(edges):
        return [("M", (0, 0)), ("L", (100, 0)), ("L", (100, 100)), ("L", (0, 100)), ("Z",)]
    ins = [e in edges for e in EDGES]
    start = next(i for i in range(4) if ins[i] and not ins[i - 1])
    cmds: list[Cmd] = [("M", EDGE_SPAN[EDGES[start]][0])]
    i = start
    while i < start + 4:
        e = EDGES[i % 4]
        if ins[i % 4]:
            cmds.append(("L", EDGE_SPAN[e][1]))
            i += 1
            continue
        run = 0
        while run < 3 and not ins[(i + run) % 4]:
            run += 1
        a = EDGE_SPAN[e][0]
        b = EDGE_SPAN[EDGES[(i + run - 1) % 4]][1]
        if run == 1:  # one non-city edge between city edges: the field bulges in
            m = EDGE_MID[e]
            ctrl = _lerp(m, CENTRE, 1.6 if tight else 1.2)
        elif run == 2:  # a corner city: a gently bulging diagonal
            corner = EDGE_SPAN[e][1]
            ctrl = _lerp(CENTRE, corner, -0.35 if tight else 0.08)
        else:  # a cap over one edge
            chord = _lerp(a, b, 0.5)
            far = EDGE_MID[EDGES[(i + 1) % 4]]
            ctrl = _lerp(chord, far, 0.35 if tight else 0.6)
        cmds.append(("Q", ctrl, b))
        i += run
    cmds.append(("Z",))
    return cmds


def _edge_ports(seg: dict[str, Any]) -> list[str]:
    return [p for p in seg.get("ports") or [] if p in EDGES]


def paint_city(c: TileCanvas, i: int, seg: dict[str, Any]) -> None:
    edges = _edge_ports(seg)
    if not edges:
        paint_generic(c, i, seg)
        return
    tight = any(s.get("kind") == "field" and not s.get("ports") for s in c.segments)
    c.shape(
        L_CITY,
        _city_path(edges, tight),
        f'fill="{COLOURS["city"]}" stroke="{COLOURS["wall"]}" stroke-width="2.4" '
        'stroke-linejoin="round"',
        "city",
        area_of=i,
    )
    mids = [EDGE_MID[e] for e in edges]
    at = (sum(p[0] for p in mids) / len(mids), sum(p[1] for p in mids) / len(mids))
    if len(edges) == 1:
        at = _lerp(mids[0], CENTRE, 0.3)
    c.anchor(i, at)


def _line_path(ports: list[str], end: Point | None) -> list[Cmd]:
    """Two edges: straight through or a curve round the corner; one edge: to ``end``."""
    if len(ports) == 2:
        a, b = EDGE_MID[ports[0]], EDGE_MID[ports[1]]
        ia, ib = EDGES.index(ports[0]), EDGES.index(ports[1])
        if (ia - ib) % 4 == 2:
            return [("M", a), ("L", b)]
        first = ports[0] if (ib - ia) % 4 == 1 else ports[1]
        corner = EDGE_SPAN[first][1]
        return [("M", a), ("Q", _lerp(CENTRE, corner, 0.12), b)]
    if len(ports) == 1:
        return [("M", EDGE_MID[ports[0]]), ("L", end or CENTRE)]
    cmds: list[Cmd] = []
    for p in ports:
        cmds += [("M", EDGE_MID[p]), ("L", CENTRE)]
    return cmds


def _line_anchor(ports: list[str], cmds: list[Cmd]) -> Point:
    if len(ports) == 2:
        if cmds[1][0] == "Q":
            return _quad(cmds[0][1], cmds[1][1], cmds[1][2], 0.5)
        return CENTRE
    if ports:
        return _lerp(EDGE_MID[ports[0]], CENTRE, 0.3)
    return CENTRE


def paint_river(c: TileCanvas, i: int, seg: dict[str, Any]) -> None:
    ports = _edge_ports(seg)
    if not ports:
        paint_generic(c, i, seg)
        return
    cmds = _line_path(ports, CENTRE)
    c.shape(
        L_RIVER,
        cmds,
        f'fill="none" stroke="{COLOURS["river_edge"]}" stroke-width="19" stroke-linecap="butt"',
        "river-bank",
    )
    c.shape(
        L_RIVER,
        cmds,
        f'fill="none" stroke="{COLOURS["river"]}" stroke-width="15" stroke-linecap="butt"',
        "river",
        halfwidth=9.5,
    )
    if len(ports) == 1:
        if c.tile.get("lake"):
            name = "lake"
        elif c.tile.get("spring"):
            name = "spring"
        else:
            name = "pond"
        c.symbol(L_RIVER, name, CENTRE, r=SYMBOL_RADIUS.get(name, 9.0))
    c.anchor(i, _line_anchor(ports, cmds), r=0)


def _road_end_village(c: TileCanvas, i: int, seg: dict[str, Any]) -> Point:
    if "village" not in c.places:
        c.places["village"] = CENTRE
        c.symbol(L_BUILDING, "village", CENTRE, title="village", r=SYMBOL_RADIUS["village"])
    return c.places["village"]


def _road_end_city(c: TileCanvas, i: int, seg: dict[str, Any]) -> Point:
    port = _edge_ports(seg)[0]
    best: Point | None = None
    for j, s in enumerate(c.segments):
        a = c.anchors[j]
        if s.get("kind") == "city" and a is not None:
            if best is None or _dist(a, EDGE_MID[port]) < _dist(best, EDGE_MID[port]):
                best = a
    return best or CENTRE


def _road_end_monastery(c: TileCanvas, i: int, seg: dict[str, Any]) -> Point:
    return c.places.get("monastery", CENTRE)


def _road_end_field(c: TileCanvas, i: int, seg: dict[str, Any]) -> Point:
    end = _lerp(EDGE_MID[_edge_ports(seg)[0]], CENTRE, 0.6)
    c.symbol(L_SYMBOL, "dead_end", end)
    return end


def place_space(c: TileCanvas, kind: str) -> Point:
    """Where the tile's space ``kind`` (big top, acrobat, tent) stands: the free spot nearest
    the centre, chosen by whichever painter asks first (its segment or a road ending there)."""
    if kind not in c.places:
        r = SYMBOL_RADIUS.get(kind, 10.0)
        at = c.free_spot(CENTRE, r)
        c.places[kind] = at
        c.symbol(L_BUILDING, kind, at, title=SPACES.get(kind, kind), r=r)
        # room for what stands on it (a pyramid reaches well above its platform)
        c.discs.append((at, SPACE_ROOM.get(kind, r)))
    return c.places[kind]


def _road_end_space(kind: str) -> SegmentPainter:
    def end(c: TileCanvas, i: int, seg: dict[str, Any]) -> Point:
        return place_space(c, kind)

    return end


# One-edge road: where it ends -> painter returning the end point.
ROAD_ENDS: dict[str, SegmentPainter] = {
    "village": _road_end_village,
    "city": _road_end_city,
    "monastery": _road_end_monastery,
    "field": _road_end_field,
    "bigtop": _road_end_space("bigtop"),
    "acrobat": _road_end_space("acrobat"),
    "tent": _road_end_space("tent"),
}


def paint_road(c: TileCanvas, i: int, seg: dict[str, Any]) -> None:
    ports = _edge_ports(seg)
    if not ports:
        paint_generic(c, i, seg)
        return
    end: Point | None = None
    if len(ports) == 1:
        how = seg.get("end") or "through"
        painter = ROAD_ENDS.get(how)
        if painter is not None:
            end = painter(c, i, seg)
        else:  # an end this table does not know (big top, acrobat, tent, ...): a marker
            end = CENTRE
            if how != "through" and f"end:{how}" not in c.places:
                c.places[f"end:{how}"] = CENTRE
                c.symbol(L_SYMBOL, "generic", CENTRE, how[:1].upper(), f"road end: {how}", r=8)
    cmds = _line_path(ports, end)
    c.shape(
        L_ROAD,
        cmds,
        f'fill="none" stroke="{COLOURS["road_edge"]}" stroke-width="11" stroke-linecap="butt"',
        "road-edge",
    )
    c.shape(
        L_ROAD,
        cmds,
        f'fill="none" stroke="{COLOURS["road"]}" stroke-width="7.5" stroke-linecap="butt"',
        "road",
        halfwidth=5.5,
    )
    c.anchor(i, _line_anchor(ports, cmds), r=8)


def paint_monastery(c: TileCanvas, i: int, seg: dict[str, Any]) -> None:
    r = SYMBOL_RADIUS["monastery"]
    at = c.free_spot(CENTRE, r)
    c.places["monastery"] = at
    c.symbol(L_BUILDING, "monastery", at, title="monastery", r=r)
    c.anchors[i] = (at[0], at[1] + 2)


def paint_garden(c: TileCanvas, i: int, seg: dict[str, Any]) -> None:
    r = SYMBOL_RADIUS["garden"]
    at = c.free_spot(CENTRE, r + 2)
    c.places["garden"] = at
    c.symbol(L_BUILDING, "garden", at, title="garden", r=r)
    c.anchors[i] = at


def paint_space(c: TileCanvas, i: int, seg: dict[str, Any]) -> None:
    """A big-top, acrobat or tent space: its symbol (unless a road ending there placed it).
    Figures stand on it (on a tent a little above it, ``FEATURE_OFFSETS``)."""
    at = place_space(c, str(seg.get("kind")))
    c.anchors[i] = at


def field_anchor(ports: list[str]) -> Point | None:
    """A farmer stands just inside the tile from the middle half-edge of its field."""
    halves = [p for p in ports if p in HALVES]
    if not halves:
        return None
    h = halves[len(halves) // 2]
    d = INWARD[half_edge(h)]
    m = HALF_MID[h]
    return (m[0] + 12 * d[0], m[1] + 12 * d[1])


def paint_field(c: TileCanvas, i: int, seg: dict[str, Any]) -> None:
    at = field_anchor(seg.get("ports") or [])
    if at is None:  # an inner field: the free spot farthest from the other fields' edges
        at = c.inner_spot(9)
    c.anchor(i, at)


def paint_generic(c: TileCanvas, i: int, seg: dict[str, Any]) -> None:
    """A segment kind no painter knows: a labelled marker where a figure would stand."""
    kind = str(seg.get("kind") or "?")
    ports = seg.get("ports") or []
    prefer = CENTRE
    if ports and ports[0] in EDGE_MID:
        prefer = _lerp(EDGE_MID[ports[0]], CENTRE, 0.35)
    elif ports and ports[0] in HALF_MID:
        prefer = field_anchor(ports) or CENTRE
    at = c.free_spot(prefer, 8)
    c.symbol(L_SYMBOL, "generic", at, kind[:1].upper(), kind, r=8)
    c.anchors[i] = at


# Segment kind -> (phase, painter). Lower phases run first: later painters see the city
# areas, river and road lines and buildings already placed, and avoid them.
SEGMENT_PAINTERS: dict[str, tuple[int, SegmentPainter]] = {
    "city": (0, paint_city),
    "river": (1, paint_river),
    "monastery": (2, paint_monastery),
    "road": (3, paint_road),
    # after the roads: a road through the tile (beside a tent) is already there to avoid
    "bigtop": (4, paint_space),
    "acrobat": (4, paint_space),
    "tent": (4, paint_space),
    "garden": (5, paint_garden),
    "field": (6, paint_field),
}
GENERIC_PHASE = 7


def _near_segment(c: TileCanvas, i: int) -> tuple[Point, list[Point] | None]:
    """Where a symbol of segment ``i`` prefers to stand, and the area it must stay in."""
    at = c.anchors[i] or CENTRE
    kind = c.segments[i].get("kind")
    if kind == "city":
        return (at[0] + 15, at[1]), c.city_area(i)
    return at, None


def paint_arms(c: TileCanvas, i: int, seg: dict[str, Any], value: Any) -> None:
    n = value if isinstance(value, int) and not isinstance(value, bool) else 1
    prefer, within = _near_segment(c, i)
    for _ in range(min(n, 4)):
        at = c.free_spot(prefer, 6.5, within)
        c.symbol(L_SYMBOL, "arms", at, title="coat of arms", r=6.5)


def paint_goods(c: TileCanvas, i: int, seg: dict[str, Any], value: Any) -> None:
    prefer, within = _near_segment(c, i)
    at = c.free_spot((prefer[0] - 30, prefer[1]), 6.5, within)
    colour = GOODS_COLOURS.get(str(value))
    if colour is None:
        c.symbol(L_SYMBOL, "generic", at, str(value)[:1].upper(), f"goods: {value}", r=7)
    else:
        c.symbol(L_SYMBOL, "goods", at, colour, f"goods: {value}", r=6.5)


def paint_items(c: TileCanvas, i: int, seg: dict[str, Any], value: Any) -> None:
    if not isinstance(value, dict):
        return
    prefer, within = _near_segment(c, i)
    for item, count in sorted(value.items()):
        n = count if isinstance(count, int) and not isinstance(count, bool) else 1
        for _ in range(min(max(n, 0), 4)):
            at = c.free_spot(prefer, 7.5, within)
            name = ITEM_SYMBOLS.get(item)
            if name is None:
                c.symbol(L_SYMBOL, "generic", at, str(item)[:1].upper(), str(item), r=7.5)
            else:
                c.symbol(L_SYMBOL, name, at, title=str(item), r=7.5)


SegmentAttributePainter = Callable[[TileCanvas, int, dict[str, Any], Any], None]
# Segment attribute -> painter, run after every segment is laid out.
ATTRIBUTE_PAINTERS: dict[str, SegmentAttributePainter] = {
    "arms": paint_arms,
    "goods": paint_goods,
    "items": paint_items,
}
# Attributes that the segment painters themselves use (or that carry no picture).
STRUCTURAL_ATTRIBUTES = {"kind", "ports", "end", "cities", "road"}


def layout_tile(tile: dict[str, Any]) -> TileCanvas:
    """Lay out one catalogue tile in its canonical orientation."""
    c = TileCanvas(tile)
    segs = c.segments
    order = sorted(
        range(len(segs)),
        key=lambda k: (SEGMENT_PAINTERS.get(str(segs[k].get("kind")), (GENERIC_PHASE, None))[0], k),
    )
    for k in order:
        painter = SEGMENT_PAINTERS.get(str(segs[k].get("kind")), (GENERIC_PHASE, paint_generic))[1]
        painter(c, k, segs[k])
    for k, seg in enumerate(segs):
        for key, value in seg.items():
            if key in ATTRIBUTE_PAINTERS:
                if value:
                    ATTRIBUTE_PAINTERS[key](c, k, seg, value)
            elif key == "end":
                if seg.get("kind") != "road" and value not in (None, "through"):
                    _generic_attribute(c, k, key, value)
            elif key not in STRUCTURAL_ATTRIBUTES and value not in (None, False, 0, "", [], {}):
                _generic_attribute(c, k, key, value)
    return c


def _generic_attribute(c: TileCanvas, i: int, key: str, value: Any) -> None:
    prefer, within = _near_segment(c, i)
    at = c.free_spot(prefer, 7, within)
    c.symbol(L_SYMBOL, "generic", at, key[:1].upper(), f"{key}: {value}", r=7)


def _symbol_svg(s: Symbol, rotation: int) -> str:
    at = rotate_point(s.at, rotation)
    body = SYMBOLS.get(s.name, SYMBOLS["generic"])(s.arg or s.name)
    title = f"<title>{escape(s.title)}</title>" if s.title else ""
    return f'<g class="symbol {escape(s.name)}" transform="translate({_pt(at)})">{body}{title}</g>'


def tile_body(c: TileCanvas, rotation: int) -> str:
    """The inside of a tile group: a 100 x 100 picture of the tile turned ``rotation``."""
    parts = [
        f'<rect width="100" height="100" fill="{COLOURS["field"]}" '
        f'stroke="{COLOURS["field_line"]}" stroke-width="0.8"/>'
    ]
    items: list[tuple[int, int, str]] = []
    for n, sh in enumerate(c.shapes):
        d = _path_d(sh.cmds, rotation)
        items.append((sh.layer, n, f'<path class="{sh.cls}" d="{d}" {sh.attrs}/>'))
    for n, sy in enumerate(c.symbols):
        items.append((sy.layer, len(c.shapes) + n, _symbol_svg(sy, rotation)))
    parts += [s for _, _, s in sorted(items)]
    if c.tile.get("provisional"):  # upright in the top-right corner whatever the rotation
        mark = Symbol(L_MARK, "provisional", (91, 9), title=f"provisional: {c.tile['provisional']}")
        parts.append(_symbol_svg(mark, 0))
    return "".join(parts)


class _Tiles:
    """Per-call cache: catalogue entries, layouts and drawn bodies."""

    def __init__(self, game: Game) -> None:
        self.catalogue = game.catalogue
        self.entries: dict[str, dict[str, Any]] = {}
        self.layouts: dict[str, TileCanvas] = {}
        self.bodies: dict[tuple[str, int], str] = {}

    def entry(self, tile_id: str) -> dict[str, Any]:
        if tile_id not in self.entries:
            try:
                self.entries[tile_id] = self.catalogue.tile(tile_id)
            except ValueError:  # not in this catalogue: an empty field tile with a marker
                self.entries[tile_id] = {"id": tile_id, "segments": [], "provisional": "unknown"}
        return self.entries[tile_id]

    def layout(self, tile_id: str) -> TileCanvas:
        if tile_id not in self.layouts:
            self.layouts[tile_id] = _layout_cached(json.dumps(self.entry(tile_id), sort_keys=True))
        return self.layouts[tile_id]

    def body(self, tile_id: str, rotation: int) -> str:
        key = (tile_id, rotation)
        if key not in self.bodies:
            self.bodies[key] = tile_body(self.layout(tile_id), rotation)
        return self.bodies[key]

    def anchor(self, tile_id: str, rotation: int, index: int | None) -> Point:
        lay = self.layout(tile_id)
        at = CENTRE
        if index is not None and 0 <= index < len(lay.anchors):
            at = lay.anchors[index] or CENTRE
        return rotate_point(at, rotation)


_LAYOUT_CACHE: dict[str, TileCanvas] = {}


def _layout_cached(key: str) -> TileCanvas:
    lay = _LAYOUT_CACHE.get(key)
    if lay is None:
        if len(_LAYOUT_CACHE) > 2000:
            _LAYOUT_CACHE.clear()
        lay = _LAYOUT_CACHE[key] = layout_tile(json.loads(key))
    return lay
