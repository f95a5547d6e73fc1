"""Pictures of a game: an SVG board drawn from the catalogue's own geometry, and a compact
terminal view.

    svg(game)   -> str   board, figures in player colours, last move, score panel
    text(game)  -> str   3x3 characters per tile, plus scores

Every tile is drawn from its catalogue entry (``catalogue.tile(id)``): cities are polygons
over their edges, roads and rivers run from edge midpoints to the centre or through, fields
are the background, and the rest (monastery, garden, village, coats of arms, illustrations)
are small upright symbols placed on a free spot of their segment. The drawing is driven by
tables, so an expansion adds a rule without rewriting the code:

- ``SEGMENT_PAINTERS``: segment kind -> (phase, painter);
- ``ATTRIBUTE_PAINTERS``: segment attribute (``arms``, ``goods``, ``items``) -> painter;
- ``ROAD_ENDS``: where a one-edge road ends (``village``, ``city``, ``bigtop``, ...) -> painter;
- ``SYMBOLS``: symbol name -> SVG markup; ``ITEM_SYMBOLS``, ``GOODS_COLOURS``;
- ``FIGURE_SHAPES``: figure role (knight, thief, monk, farmer, abbot, ringmaster, acrobat,
  fortune-teller, ...) -> SVG markup;
- ``TEXT_GLYPHS``: characters of the terminal view.

Whatever a table does not know (a new segment kind, attribute, road end, item or figure role)
is drawn as a generic labelled marker, never an error.
"""

from __future__ import annotations

import json
import math
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any

from carcassonne._core import SOURCES

if TYPE_CHECKING:
    from carcassonne._core import Move
    from carcassonne.game import Figure, Game

Point = tuple[float, float]

# -- geometry (tile-local SVG units: a tile is 100 x 100, y grows DOWN, north is up) ----------

T = 100.0
CENTRE: Point = (50.0, 50.0)
EDGES = ("N", "E", "S", "W")
HALVES = ("NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW")
EDGE_MID: dict[str, Point] = {"N": (50, 0), "E": (100, 50), "S": (50, 100), "W": (0, 50)}
# Each edge from its first to its last corner, walking the border clockwise.
EDGE_SPAN: dict[str, tuple[Point, Point]] = {
    "N": ((0, 0), (100, 0)),
    "E": ((100, 0), (100, 100)),
    "S": ((100, 100), (0, 100)),
    "W": ((0, 100), (0, 0)),
}
HALF_MID: dict[str, Point] = {
    "NNW": (25, 0),
    "NNE": (75, 0),
    "ENE": (100, 25),
    "ESE": (100, 75),
    "SSE": (75, 100),
    "SSW": (25, 100),
    "WSW": (0, 75),
    "WNW": (0, 25),
}
INWARD: dict[str, Point] = {"N": (0, 1), "E": (-1, 0), "S": (0, -1), "W": (1, 0)}


def half_edge(h: str) -> str:
    """The edge a half-edge lies on (``NNE`` -> ``N``)."""
    return EDGES[HALVES.index(h) // 2]


def rotate_point(p: Point, rotation: int) -> Point:
    """Turn a tile-local point ``rotation`` degrees clockwise about the tile centre."""
    x, y = p
    for _ in range(rotation // 90 % 4):
        x, y = T - y, x
    return (x, y)


def rotate_port(port: str, rotation: int) -> str:
    """Edge e -> (e + r/90) % 4; half-edge h -> (h + 2r/90) % 8."""
    k = rotation // 90 % 4
    if port in EDGES:
        return EDGES[(EDGES.index(port) + k) % 4]
    if port in HALVES:
        return HALVES[(HALVES.index(port) + 2 * k) % 8]
    return port


def _lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _quad(p0: Point, c: Point, p1: Point, t: float) -> Point:
    u = 1 - t
    return (
        u * u * p0[0] + 2 * t * u * c[0] + t * t * p1[0],
        u * u * p0[1] + 2 * t * u * c[1] + t * t * p1[1],
    )


def _dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _seg_dist(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n))
    return _dist(p, (a[0] + t * dx, a[1] + t * dy))


def _polyline_dist(p: Point, pts: list[Point]) -> float:
    if len(pts) == 1:
        return _dist(p, pts[0])
    return min(_seg_dist(p, pts[i], pts[i + 1]) for i in range(len(pts) - 1))


def _inside(p: Point, poly: list[Point]) -> bool:
    x, y = p
    inside = False
    j = len(poly) - 1
    for i in range(len(poly)):
        (xi, yi), (xj, yj) = poly[i], poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


# A path is a list of commands: ("M", p), ("L", p), ("Q", control, p), ("Z",).
Cmd = tuple[Any, ...]


def _flatten(cmds: list[Cmd], steps: int = 10) -> list[Point]:
    pts: list[Point] = []
    for c in cmds:
        if c[0] in ("M", "L"):
            pts.append(c[1])
        elif c[0] == "Q":
            p0 = pts[-1]
            pts.extend(_quad(p0, c[1], c[2], k / steps) for k in range(1, steps + 1))
    return pts


def _num(v: float) -> str:
    s = f"{v:.1f}"
    if s.endswith(".0"):
        s = s[:-2]
    return "0" if s == "-0" else s


def _pt(p: Point) -> str:
    return f"{_num(p[0])},{_num(p[1])}"


def _path_d(cmds: list[Cmd], rotation: int) -> str:
    out = []
    for c in cmds:
        if c[0] == "Z":
            out.append("Z")
        else:
            out.append(c[0] + " ".join(_pt(rotate_point(p, rotation)) for p in c[1:]))
    return " ".join(out)


# -- colours and symbols ----------------------------------------------------------------------

COLOURS = {
    "background": "#ece6d6",
    "field": "#9cc466",
    "field_line": "#6e9a3e",
    "city": "#dcb57a",
    "wall": "#86602f",
    "road": "#f5efdd",
    "road_edge": "#6f5f45",
    "river": "#5fa4e2",
    "river_edge": "#2e6aa8",
    "highlight": "#ff8c00",
    "panel": "#faf7ef",
    "ink": "#2b2620",
}
PLAYER_COLOURS = ("#2f63d8", "#d7322b", "#f2c418", "#262626", "#1f8a3c", "#e07ac4")
PLAYER_NAMES = ("blue", "red", "yellow", "black", "green", "pink")


def player_colour(player: int) -> str:
    return PLAYER_COLOURS[player % len(PLAYER_COLOURS)]


def player_name(player: int) -> str:
    return PLAYER_NAMES[player % len(PLAYER_NAMES)]


def _house(x: float, y: float, s: float = 1.0, roof: str = "#b3432e") -> str:
    return (
        f'<path d="M{_num(x - 5 * s)},{_num(y + 5 * s)} V{_num(y)} L{_num(x)},{_num(y - 5 * s)} '
        f'L{_num(x + 5 * s)},{_num(y)} V{_num(y + 5 * s)} Z" fill="#fbf5e6" stroke="#5b4630" '
        f'stroke-width="0.9"/><path d="M{_num(x - 6 * s)},{_num(y + 0.8 * s)} '
        f'L{_num(x)},{_num(y - 5.6 * s)} L{_num(x + 6 * s)},{_num(y + 0.8 * s)}" fill="none" '
        f'stroke="{roof}" stroke-width="{_num(2.2 * s)}" stroke-linejoin="round"/>'
    )


def _generic_symbol(label: str) -> str:
    return (
        '<circle r="7" fill="#f4f1ea" stroke="#555" stroke-width="1" stroke-dasharray="2 1.5"/>'
        f'<text y="3.2" font-size="9" text-anchor="middle" fill="#333">{escape(label[:1])}</text>'
    )


# Upright symbols drawn around (0, 0); the argument is a colour or a label where one applies.
SYMBOLS: dict[str, Callable[[str], str]] = {
    "monastery": lambda _: (
        '<path d="M-10,12 V-2 L0,-10 L10,-2 V12 Z" fill="#f3e6c9" stroke="#5b4630" '
        'stroke-width="1.4"/><path d="M-12.5,-0.5 L0,-11.5 L12.5,-0.5" fill="none" '
        'stroke="#a8432c" stroke-width="3.2" stroke-linejoin="round"/>'
        '<path d="M0,-19 V-11 M-3.2,-15.8 H3.2" stroke="#5b4630" stroke-width="1.6"/>'
        '<path d="M-3,12 V6 A3,3 0 0 1 3,6 V12 Z" fill="#5b4630"/>'
    ),
    "garden": lambda _: (
        '<circle r="9.5" fill="#4f8f2f" stroke="#2f5e18" stroke-width="2"/>'
        '<circle r="5" fill="#6fae45"/>'
        '<circle cx="-4" cy="-4" r="1.7" fill="#f6d2e0"/><circle cx="4.5" cy="-2" r="1.7" '
        'fill="#fff3a0"/><circle cx="-1" cy="4.5" r="1.7" fill="#f6d2e0"/>'
        '<circle cx="5" cy="5" r="1.4" fill="#ffffff"/>'
    ),
    "village": lambda _: _house(-5, -3, 0.9) + _house(5, -3, 0.9, "#8e3b2a") + _house(0, 5, 0.9),
    "arms": lambda _: (
        '<path d="M-5.5,-6.5 H5.5 V0 C5.5,4.5 0,7.5 0,7.5 C0,7.5 -5.5,4.5 -5.5,0 Z" '
        'fill="#2a56b8" stroke="#ffffff" stroke-width="1.3"/>'
        '<path d="M0,-4 V4 M-3,-1 H3" stroke="#ffffff" stroke-width="1.1"/>'
    ),
    "farmhouse": lambda _: _house(0, 1, 1.2),
    "shed": lambda _: (
        '<rect x="-6" y="-2.5" width="12" height="8" fill="#b07a41" stroke="#5b3c1e" '
        'stroke-width="0.9"/><path d="M-7.5,-2.5 L0,-7.5 L7.5,-2.5 Z" fill="#6b4a2a"/>'
        '<rect x="-1.8" y="1" width="3.6" height="4.5" fill="#5b3c1e"/>'
    ),
    "robbers": lambda _: (
        '<circle cx="-3.5" cy="-3" r="2.6" fill="#3a3030"/><path d="M-7.5,6.5 Q-3.5,-3 0.5,6.5 Z" '
        'fill="#3a3030"/><circle cx="3.5" cy="-2" r="2.4" fill="#514444"/>'
        '<path d="M0,6.5 Q3.5,-1.5 7.2,6.5 Z" fill="#514444"/>'
    ),
    "watertower": lambda _: (
        '<path d="M-4,7 L-2.2,-1 M4,7 L2.2,-1 M-3.2,3 H3.2" stroke="#4a4a4a" '
        'stroke-width="1.2"/><rect x="-5.5" y="-8" width="11" height="7.5" rx="2" '
        'fill="#8fb0cc" stroke="#3d5a74" stroke-width="1"/>'
    ),
    # Toll Collectors: a small group of travellers (three walkers, one with a staff)
    "travellers": lambda _: (
        '<ellipse cy="6.6" rx="8.5" ry="1.6" fill="#000000" fill-opacity="0.18"/>'
        '<circle cx="-4.6" cy="-3.2" r="2" fill="#7a3f8f" stroke="#2b2620" stroke-width="0.5"/>'
        '<path d="M-7.4,6.4 Q-4.6,-2.4 -1.8,6.4 Z" fill="#7a3f8f" stroke="#2b2620" '
        'stroke-width="0.5"/>'
        '<circle cx="4.6" cy="-3" r="2" fill="#2f7d7a" stroke="#2b2620" stroke-width="0.5"/>'
        '<path d="M1.8,6.4 Q4.6,-2.2 7.4,6.4 Z" fill="#2f7d7a" stroke="#2b2620" '
        'stroke-width="0.5"/><path d="M8.2,6.4 L7.4,-5.5" stroke="#5b3c1e" stroke-width="0.9"/>'
        '<circle cy="-5.2" r="2.3" fill="#b07b2a" stroke="#2b2620" stroke-width="0.5"/>'
        '<path d="M-3.1,6.6 Q0,-3.8 3.1,6.6 Z" fill="#b07b2a" stroke="#2b2620" '
        'stroke-width="0.5"/>'
    ),
    # The Fortune Teller: a small striped tent with a pennant
    "tent": lambda _: (
        '<path d="M-9.5,7.5 L0,-8 L9.5,7.5 Z" fill="#f6e7b8" stroke="#4e2461" '
        'stroke-width="1.2" stroke-linejoin="round"/>'
        '<path d="M0,-8 L-5,7.5 M0,-8 L5,7.5" stroke="#7b3a8f" stroke-width="2.3"/>'
        '<path d="M-2.2,7.5 L0,2.2 L2.2,7.5 Z" fill="#3a2040"/>'
        '<path d="M0,-8 V-13 L4,-11.6 L0,-10.2" fill="#d7322b" stroke="#4e2461" '
        'stroke-width="0.6"/>'
    ),
    # Under the Big Top: the big-top space (a red and white circus tent) ...
    "bigtop": lambda _: (
        '<ellipse cy="11.5" rx="14" ry="2.2" fill="#000000" fill-opacity="0.18"/>'
        '<rect x="-12" y="1.5" width="24" height="9.5" fill="#fbf5e6" stroke="#8a1f1a" '
        'stroke-width="1.2"/><path d="M-6,1.5 V11 M6,1.5 V11" stroke="#c8322a" '
        'stroke-width="2.6"/><path d="M-3,11 V6.5 Q0,3.5 3,6.5 V11 Z" fill="#3a2a20"/>'
        '<path d="M-14.5,2.5 Q-6,-1.5 0,-12 Q6,-1.5 14.5,2.5 Z" fill="#c8322a" '
        'stroke="#8a1f1a" stroke-width="1.2" stroke-linejoin="round"/>'
        '<path d="M0,-12 Q-2.6,-4 -6.2,0.8 M0,-12 Q2.6,-4 6.2,0.8" fill="none" '
        'stroke="#fbf5e6" stroke-width="2.2"/>'
        '<path d="M0,-12 V-17.5 L5,-15.9 L0,-14.3" fill="#f2c418" stroke="#8a1f1a" '
        'stroke-width="0.7"/>'
    ),
    # ... and the acrobat space (a small platform on two poles, where a pyramid stands)
    "acrobat": lambda _: (
        '<path d="M-7.5,9 L-5.5,-1 M7.5,9 L5.5,-1 M-6.6,4.5 H6.6" stroke="#6b4a2a" '
        'stroke-width="1.6"/>'
        '<rect x="-10.5" y="-4" width="21" height="4.2" rx="1.5" fill="#2a6fb0" '
        'stroke="#173f66" stroke-width="1"/>'
        '<path d="M-9,-1.9 H9" stroke="#f2c418" stroke-width="1" stroke-dasharray="2 1.6"/>'
    ),
    "goods": lambda colour: (
        f'<path d="M0,-6.5 L6.5,0 L0,6.5 L-6.5,0 Z" fill="{colour}" stroke="#2b2620" '
        'stroke-width="1"/>'
    ),
    "spring": lambda _: (
        f'<circle r="8" fill="{COLOURS["river"]}" stroke="{COLOURS["river_edge"]}" '
        'stroke-width="1.6"/><circle r="3" fill="#bfe0fb"/>'
    ),
    "lake": lambda _: (
        f'<ellipse rx="24" ry="18" fill="{COLOURS["river"]}" stroke="{COLOURS["river_edge"]}" '
        'stroke-width="1.8"/><path d="M-10,-4 q3,-3 6,0 t6,0 M-4,5 q3,-3 6,0 t6,0" '
        'fill="none" stroke="#d7ecfd" stroke-width="1.2"/>'
    ),
    "pond": lambda _: f'<circle r="9" fill="{COLOURS["river"]}" stroke="{COLOURS["river_edge"]}"/>',
    "gate": lambda _: '<rect x="-4" y="-2" width="8" height="4" fill="#5b4630"/>',
    "dead_end": lambda _: f'<circle r="4" fill="{COLOURS["road_edge"]}"/>',
    "provisional": lambda _: (
        '<circle r="6" fill="#fffbe6" stroke="#a07a00" stroke-width="1"/>'
        '<text y="3.3" font-size="9" font-weight="bold" text-anchor="middle" '
        'fill="#a07a00">?</text>'
    ),
    "generic": _generic_symbol,
}
# Catalogue item -> symbol name (small illustrations).
ITEM_SYMBOLS = {
    "farmhouse": "farmhouse",
    "shed": "shed",
    "robbers": "robbers",
    "watertower": "watertower",
    "travellers": "travellers",
}
# Traders & Builders goods (a city's ``goods``): a diamond in the good's colour.
GOODS_COLOURS = {"wine": "#7b2d6b", "grain": "#e8c440", "cloth": "#4f86c6", "chicken": "#e8702a"}
SYMBOL_RADIUS = {
    "monastery": 15.0,
    "garden": 10.0,
    "village": 11.0,
    "lake": 22.0,
    "bigtop": 15.0,
    "acrobat": 11.0,
    "tent": 10.0,
}
# Room kept free around a space for the figures on it (in any rotation of the tile).
SPACE_ROOM = {"acrobat": 22.0, "tent": 14.0}
# Spaces of the expansions (a segment kind that is a place on the tile, where roads may end):
# kind -> tooltip. Each is drawn once per tile by its symbol of the same name.
SPACES = {
    "bigtop": "big-top space",
    "acrobat": "acrobat space",
    "tent": "fortune-teller tent",
}


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


# -- figures ------------------------------------------------------------------------------------

MEEPLE_PATH = (
    "M0,-11 C3.4,-11 4.6,-8 3.6,-4.6 L9.6,-2.6 C11.4,-2 11.4,1.4 9,1.4 L4.6,0.8 L7.4,10 "
    "L2.2,10 L0,4.6 L-2.2,10 L-7.4,10 L-4.6,0.8 L-9,1.4 C-11.4,1.4 -11.4,-2 -9.6,-2.6 "
    "L-3.6,-4.6 C-4.6,-8 -3.4,-11 0,-11 Z"
)
ABBOT_PATH = (
    "M0,-12.5 C3,-12.5 4.4,-9.8 3.6,-7.2 L6.4,-4.4 L5.2,0 L9,11 L-9,11 L-5.2,0 L-6.4,-4.4 "
    "L-3.6,-7.2 C-4.4,-9.8 -3,-12.5 0,-12.5 Z"
)
# A meeple's role comes from the feature it stands on (on a tent: a fortune teller).
MEEPLE_ROLES = {
    "city": "knight",
    "road": "thief",
    "monastery": "monk",
    "field": "farmer",
    "tent": "fortune-teller",
}


def _outline(colour: str) -> str:
    return "#f0f0f0" if colour in ("#262626",) else "#151515"


def _meeple(colour: str) -> str:
    return (
        f'<path d="{MEEPLE_PATH}" fill="{colour}" stroke="{_outline(colour)}" stroke-width="1.4"/>'
    )


FIGURE_SHAPES: dict[str, Callable[[str], str]] = {
    "knight": _meeple,
    "thief": _meeple,
    "monk": _meeple,
    # a farmer lies in its field
    "farmer": lambda colour: f'<g transform="rotate(-90)">{_meeple(colour)}</g>',
    "abbot": lambda colour: (
        f'<path d="{ABBOT_PATH}" fill="{colour}" stroke="{_outline(colour)}" stroke-width="1.4"/>'
        '<path d="M0,-2 V7 M-3,1.2 H3" stroke="#ffffff" stroke-width="1.6"/>'
    ),
    # Under the Big Top: the ringmaster is a meeple in a top hat; an acrobat (in a pyramid) a
    # small meeple with its arms up. The Fortune Teller: a meeple with a crystal ball.
    "ringmaster": lambda colour: (
        f"{_meeple(colour)}"
        f'<path d="M-6.8,-10.2 H6.8 M-3.8,-10.6 V-17.6 H3.8 V-10.6 Z" fill="#151515" '
        f'stroke="{_outline(colour) if colour == "#262626" else "#151515"}" '
        'stroke-width="1.6" stroke-linejoin="round"/>'
        '<path d="M-3.8,-12.2 H3.8" stroke="#d7322b" stroke-width="1.3"/>'
    ),
    "acrobat": lambda colour: (
        '<path d="M0,-11 C3.4,-11 4.6,-8 3.6,-4.6 L7.5,-11 C8.5,-12.6 11.2,-11.6 10.2,-9.6 '
        "L4.6,0.8 L7.4,10 L2.2,10 L0,4.6 L-2.2,10 L-7.4,10 L-4.6,0.8 L-10.2,-9.6 "
        'C-11.2,-11.6 -8.5,-12.6 -7.5,-11 L-3.6,-4.6 C-4.6,-8 -3.4,-11 0,-11 Z" '
        f'fill="{colour}" stroke="{_outline(colour)}" stroke-width="1.4" '
        'transform="scale(0.68)"/>'
    ),
    "fortune-teller": lambda colour: (
        f'<g transform="scale(0.85)">{_meeple(colour)}</g>'
        '<circle cx="8.5" cy="-1" r="3.2" fill="#bfe3f5" stroke="#4e2461" stroke-width="0.9"/>'
        '<path d="M5.5,2.6 H11.5" stroke="#4e2461" stroke-width="1.4"/>'
    ),
    # Traders & Builders: the builder is a tall meeple, the pig a pig
    "builder": lambda colour: f'<g transform="scale(1.05,1.35)">{_meeple(colour)}</g>',
    "pig": lambda colour: (
        f'<path d="M-6,4 V9 M-2,5 V9.5 M3,5 V9.5 M6.5,4 V9" stroke="{_outline(colour)}" '
        'stroke-width="1.8"/>'
        f'<ellipse cx="0" cy="0" rx="9" ry="6" fill="{colour}" stroke="{_outline(colour)}" '
        'stroke-width="1.3"/>'
        f'<circle cx="8.5" cy="-2.5" r="4.2" fill="{colour}" stroke="{_outline(colour)}" '
        'stroke-width="1.3"/>'
        f'<ellipse cx="12.3" cy="-2" rx="1.8" ry="2.2" fill="#f3b5c4" stroke="{_outline(colour)}" '
        'stroke-width="0.8"/>'
        f'<path d="M6.5,-6 L8,-9.5 L10,-6" fill="{colour}" stroke="{_outline(colour)}" '
        'stroke-width="1"/>'
    ),
}


# Upright offset (board orientation) of a figure from its segment's anchor, by the feature it
# stands on: a fortune teller (or a ringmaster) stands on top of its tent, leaving it in sight.
FEATURE_OFFSETS: dict[str, Point] = {"tent": (2.0, -13.0)}


def figure_role(fig: Figure) -> str:
    """knight, thief, monk or farmer for a meeple (by its feature); otherwise its role."""
    if fig.role == "meeple":
        return MEEPLE_ROLES.get(fig.feature, "meeple")
    return fig.role


def figure_svg(role: str, player: int, at: Point, title: str, extra_class: str = "") -> str:
    colour = player_colour(player)
    shape = FIGURE_SHAPES.get(role)
    if shape is None:
        body = (
            f'<circle r="8" fill="{colour}" stroke="{_outline(colour)}" stroke-width="1.4"/>'
            f'<text y="3.4" font-size="10" text-anchor="middle" fill="#ffffff">'
            f"{escape(role[:1].upper())}</text>"
        )
    else:
        body = shape(colour)
    cls = f"figure {escape(role)} player-{player}" + (f" {extra_class}" if extra_class else "")
    return (
        f'<g class="{cls}" data-player="{player}" transform="translate({_pt(at)})">'
        f"{body}<title>{escape(title)}</title></g>"
    )


# -- the board picture --------------------------------------------------------------------------

MARGIN = 30.0
PANEL_WIDTH = 300.0


def tollhouses(game: Game) -> list[tuple[int, int, int, int]]:
    """Tollhouses on the board, (player, x, y, value), where the game has them (Toll
    Collectors)."""
    get = getattr(game, "tollhouses", None)
    if not callable(get):
        return []
    try:
        return [(int(p), int(x), int(y), int(v)) for p, x, y, v in get()]
    except (ValueError, TypeError, AttributeError):
        return []


def tollhouse_svg(player: int, value: int, at: Point, x: int, y: int) -> str:
    """A tollhouse in its owner's colour showing its value, standing on a village."""
    colour = player_colour(player)
    ink = "#151515" if colour in (PLAYER_COLOURS[2], PLAYER_COLOURS[5]) else "#ffffff"
    return (
        f'<g class="tollhouse player-{player}" data-player="{player}" data-value="{value}" '
        f'transform="translate({_pt(at)})">'
        f'<path d="M-9.5,9 V-1.5 L0,-11 L9.5,-1.5 V9 Z" fill="{colour}" '
        f'stroke="{_outline(colour)}" stroke-width="1.4" stroke-linejoin="round"/>'
        f'<text y="7" font-size="11" font-weight="bold" text-anchor="middle" fill="{ink}">'
        f"{value}</text><title>player {player + 1} ({player_name(player)}): tollhouse worth "
        f"{value} at {x},{y}</title></g>"
    )


def big_top(game: Game) -> dict[str, Any] | None:
    """Under the Big Top: ``game.big_top()`` (where it stands, tokens revealed and left), or
    None when the game has no big top option or the engine does not say."""
    rules = getattr(game, "rules", None)
    get = getattr(game, "big_top", None)
    if not callable(get) or not getattr(rules, "big_top", False):
        return None
    try:
        info = get()
    except (ValueError, TypeError, AttributeError):
        return None
    return info if isinstance(info, dict) else None


def pyramids(game: Game) -> list[tuple[int, int, list[int]]]:
    """Acrobat pyramids on the board, (x, y, owners from the bottom), where the game has them."""
    get = getattr(game, "pyramids", None)
    if not callable(get):
        return []
    try:
        return [(int(x), int(y), [int(o) for o in owners]) for x, y, owners in get()]
    except (ValueError, TypeError, AttributeError):
        return []


def pyramid_spots(n: int) -> list[Point]:
    """Where the acrobats of a pyramid of ``n`` stand, from the bottom, relative to the centre
    of their platform: two side by side, the third on their shoulders, any more above."""
    spots: list[Point] = []
    if n == 1:
        return [(0.0, -11.0)]
    for i in range(n):
        if i < 2:
            spots.append((-6.5 if i == 0 else 6.5, -11.0))
        else:
            spots.append((0.0, -11.0 - 12.5 * (i - 1)))
    return spots


BIG_TOP_FIGURE = (
    '<ellipse cy="12.5" rx="17" ry="3" fill="#000000" fill-opacity="0.3"/>'
    '<path d="M-13.5,12 V1.5 H-16.5 Q-7,-4 0,-16 Q7,-4 16.5,1.5 H13.5 V12 Z" fill="#f4f4f4" '
    'stroke="#2b2b2b" stroke-width="1.8" stroke-linejoin="round"/>'
    '<path d="M0,-16 Q-3,-5 -7.5,0 M0,-16 Q3,-5 7.5,0 M-6.5,2.5 V12 M6.5,2.5 V12" fill="none" '
    'stroke="#8c8c8c" stroke-width="1.6"/><path d="M-16.5,1.5 H16.5" stroke="#2b2b2b" '
    'stroke-width="1.4"/><path d="M0,-16 V-23.5 L7.5,-21.3 L0,-19.1" fill="#2b2b2b"/>'
)


def big_top_svg(at: Point, x: int, y: int, revealed: int) -> str:
    """The big top (a neutral figure, no player's) standing on the big-top space of its tile."""
    return (
        f'<g class="big-top" data-x="{x}" data-y="{y}" data-revealed="{revealed}" '
        f'transform="translate({_pt(at)})">{BIG_TOP_FIGURE}<title>the big top at {x},{y}: '
        f"{revealed} animal token{'' if revealed == 1 else 's'} revealed</title></g>"
    )


def _last_placement(game: Game) -> Move | None:
    """The last move that placed a tile (a later decision may place none)."""
    for m in reversed(game.move_stack):
        if getattr(m, "places_tile", True):
            return m
    return None


def _last_mover(game: Game) -> int | None:
    if not game.move_stack:
        return None
    g = game.copy()
    g.pop()
    return g.turn


def svg(
    game: Game,
    *,
    last_move: bool = True,
    scores: bool = True,
    size: float | None = None,
) -> str:
    """The game as an SVG document (a string).

    ``last_move`` outlines the tile of the last move (and the figure it placed); ``scores``
    adds a panel with the scores, supplies and the tile waiting to be placed; ``size`` is the
    longer side of the picture in pixels (default: 60 pixels per tile). Each board tile is a
    ``<g class="tile">`` and each figure a ``<g class="figure ROLE player-N">``.
    """
    if size is not None and not size > 0:
        raise ValueError(f"size must be a positive number of pixels, not {size!r}")
    tiles = _Tiles(game)
    board = game.board
    xs = [p.x for p in board] or [0]
    ys = [p.y for p in board] or [0]
    minx, maxx, miny, maxy = min(xs), max(xs), min(ys), max(ys)
    bw = (maxx - minx + 1) * T + 2 * MARGIN
    bh = (maxy - miny + 1) * T + 2 * MARGIN

    def origin(x: int, y: int) -> Point:
        return (MARGIN + (x - minx) * T, MARGIN + (maxy - y) * T)

    out: list[str] = []
    placed: dict[tuple[int, int], tuple[str, int]] = {}
    out.append('<g class="board">')
    for p in board:
        placed[(p.x, p.y)] = (p.tile, p.rotation)
        o = origin(p.x, p.y)
        out.append(
            f'<g class="tile" data-tile="{escape(p.tile)}" data-x="{p.x}" data-y="{p.y}" '
            f'data-rotation="{p.rotation}" transform="translate({_pt(o)})">'
            f"<title>{escape(p.tile)} at {p.x},{p.y} turned {p.rotation}</title>"
            f"{tiles.body(p.tile, p.rotation)}</g>"
        )
    out.append("</g>")

    last = _last_placement(game) if last_move else None
    labels: dict[tuple[int, int], list[str]] = {}
    crowd: dict[tuple[int, int, int | None], int] = {}
    out.append('<g class="figures">')
    for f in game.figures():
        key = (f.x, f.y)
        if key not in labels:
            try:
                labels[key] = game.labels(f.x, f.y)
            except ValueError:
                labels[key] = []
        index = labels[key].index(f.segment) if f.segment in labels[key] else None
        tile_id, rot = placed.get(key, ("", 0))
        a = tiles.anchor(tile_id, rot, index) if tile_id else CENTRE
        # several figures on one segment (a meeple with a builder or pig) stand side by side
        k = crowd[(f.x, f.y, index)] = crowd.get((f.x, f.y, index), -1) + 1
        o = origin(f.x, f.y)
        role = figure_role(f)
        dx, dy = FEATURE_OFFSETS.get(f.feature, (0.0, 0.0))
        at = (o[0] + a[0] + dx + 12 * k, max(o[1] + a[1] + dy - 3 * k, o[1] + 10))
        is_last = last is not None and (last.x, last.y) == key and last.segment is not None
        if is_last:
            out.append(
                f'<circle class="last-figure" cx="{_num(at[0])}" cy="{_num(at[1])}" r="15" '
                f'fill="#ffffff" fill-opacity="0.55" stroke="{COLOURS["highlight"]}" '
                'stroke-width="2.5"/>'
            )
        title = f"player {f.player + 1} ({player_name(f.player)}): {role} on {f.segment}"
        out.append(figure_svg(role, f.player, at, title + f" at {f.x},{f.y}"))
    # acrobat pyramids stand on the acrobat space of their tile, 2 + 1 from the bottom
    for x, y, owners in pyramids(game):
        tile_id, rot = placed.get((x, y), ("", 0))
        spot = CENTRE
        if tile_id:
            spot = rotate_point(tiles.layout(tile_id).places.get("acrobat", CENTRE), rot)
        o = origin(x, y)
        for level, (owner, (dx, dy)) in enumerate(
            zip(owners, pyramid_spots(len(owners)), strict=True)
        ):
            at = (o[0] + spot[0] + dx, o[1] + spot[1] + dy)
            title = (
                f"player {owner + 1} ({player_name(owner)}): acrobat {level + 1} of "
                f"{len(owners)} in the pyramid at {x},{y}"
            )
            out.append(figure_svg("acrobat", owner, at, title, f"pyramid-{level}"))
    out.append("</g>")

    bt = big_top(game)
    if bt is not None and bt.get("at") is not None:
        x, y = bt["at"]
        tile_id, rot = placed.get((x, y), ("", 0))
        spot = CENTRE
        if tile_id:
            spot = rotate_point(tiles.layout(tile_id).places.get("bigtop", CENTRE), rot)
        o = origin(x, y)
        out.append(big_top_svg((o[0] + spot[0], o[1] + spot[1]), x, y, len(bt["revealed"])))

    houses = tollhouses(game)
    if houses:
        out.append('<g class="tollhouses">')
        for player, x, y, value in houses:
            tile_id, rot = placed.get((x, y), ("", 0))
            spot = CENTRE
            if tile_id:
                spot = rotate_point(tiles.layout(tile_id).places.get("village", CENTRE), rot)
            o = origin(x, y)
            at = (o[0] + spot[0], o[1] + spot[1] - 2)
            if last is not None and last.action == "tollhouse" and last.target == (x, y):
                out.append(
                    f'<circle class="last-figure" cx="{_num(at[0])}" cy="{_num(at[1])}" r="16" '
                    f'fill="#ffffff" fill-opacity="0.55" stroke="{COLOURS["highlight"]}" '
                    'stroke-width="2.5"/>'
                )
            out.append(tollhouse_svg(player, value, at, x, y))
        out.append("</g>")

    if last is not None:
        out.append('<g class="highlight">')
        o = origin(last.x, last.y)
        mover = _last_mover(game)
        who = f"player {mover + 1}: " if mover is not None else ""
        out.append(
            f'<rect class="last-move" x="{_num(o[0] + 2)}" y="{_num(o[1] + 2)}" width="96" '
            f'height="96" fill="none" stroke="{COLOURS["highlight"]}" stroke-width="4" '
            f'rx="3"><title>last move, {escape(who + str(last))}</title></rect>'
        )
        if last.action == "recall" and last.target is not None:
            ro = origin(*last.target)
            out.append(
                f'<rect class="recalled" x="{_num(ro[0] + 6)}" y="{_num(ro[1] + 6)}" '
                f'width="88" height="88" fill="none" stroke="{COLOURS["highlight"]}" '
                'stroke-width="2.5" stroke-dasharray="7 5" rx="3">'
                "<title>abbot recalled from here</title></rect>"
            )
        out.append("</g>")

    width, height = bw, bh
    if scores:
        panel, ph = _panel(game, tiles, bw)
        out.append(panel)
        width = bw + PANEL_WIDTH
        height = max(bh, ph)
    scale = 0.6 if size is None else float(size) / max(width, height)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="carcassonne" '
        f'viewBox="0 0 {_num(width)} {_num(height)}" width="{_num(width * scale)}" '
        f'height="{_num(height * scale)}" font-family="DejaVu Sans, Verdana, sans-serif">'
        f"<title>Carcassonne: {len(board)} tiles, move {len(game.move_stack)}</title>"
        f'<rect class="background" width="{_num(width)}" height="{_num(height)}" '
        f'fill="{COLOURS["background"]}"/>'
    )
    return head + "".join(out) + "</svg>"


def _status(game: Game, sep: str = " · ") -> str:
    moves = len(game.move_stack)
    decision = game.decision.value
    if decision == "over":
        return f"game over after {moves} moves"
    who = f"player {game.turn + 1}"
    doing = {"draw": "to draw", "place": "to place"}.get(decision, f"to decide ({decision})")
    extra = getattr(game, "double_turn", None)
    return f"move {moves}{sep}{who} {doing}" + (f"{sep}{extra}" if extra else "")


def _goods(game: Game, player: int) -> dict[str, int]:
    """Goods tokens a player holds, where the game has them (Traders & Builders)."""
    get = getattr(game, "goods", None)
    if not callable(get):
        return {}
    try:
        return {k: v for k, v in get(player).items() if v}
    except (ValueError, IndexError, AttributeError):
        return {}


# The decision a game waits for, as the panel says it.
DECISIONS = {
    "draw": "a tile to be drawn",
    "place": "the tile to be placed",
    "farmer": "keep or return the farmer",
    "choose": "a tile to choose from the hand",
    "reveal": "the big top's animal token",
    "over": "none, the game is over",
}


def _call(game: Game, name: str, *args: Any) -> Any:
    """``game.name(*args)`` (or the property), None when the game has no such thing."""
    try:
        get = getattr(game, name, None)
        return get(*args) if callable(get) else get
    except (ValueError, TypeError, IndexError, AttributeError):
        return None


def sources(game: Game, player: int) -> list[tuple[str, int]]:
    """A player's non-zero points by source, in the order of ``carcassonne.SOURCES`` (then
    any source the engine adds)."""
    points = game.breakdown[player]
    order = list(SOURCES) + sorted(k for k in points if k not in SOURCES)
    return [(k, points[k]) for k in order if points.get(k)]


def _wrap(parts: list[str], width: int, first: str = "") -> list[str]:
    """Join ``parts`` with " · " into lines of at most ``width`` characters."""
    lines: list[str] = []
    line = first
    for part in parts:
        if line not in ("", first) and len(line) + 3 + len(part) > width:
            lines.append(line)
            line = ""
        line = part if line == "" else (line + part if line == first else f"{line} · {part}")
    if line:
        lines.append(line)
    return lines


def _panel(game: Game, tiles: _Tiles, x0: float) -> tuple[str, float]:
    ink = COLOURS["ink"]
    out = [
        f'<g class="score-panel" transform="translate({_num(x0)},0)">',
        f'<rect x="0" y="10" width="{_num(PANEL_WIDTH - 12)}" height="__H__" rx="8" '
        f'fill="{COLOURS["panel"]}" stroke="#cfc6b0"/>',
        f'<text x="18" y="42" font-size="22" font-weight="bold" fill="{ink}">Carcassonne</text>',
        f'<text x="18" y="66" font-size="14" fill="{ink}">{escape(_status(game))}</text>',
    ]
    y = 76.0
    if game.tile is not None:
        tid = game.tile
        out.append(
            f'<g class="next-tile" transform="translate(18,{_num(y)}) scale(0.6)">'
            f"{tiles.body(tid, 0)}</g>"
            f'<text x="88" y="{_num(y + 24)}" font-size="12" fill="{ink}">next tile</text>'
            f'<text x="88" y="{_num(y + 42)}" font-size="13" font-weight="bold" fill="{ink}">'
            f"{escape(tid)}</text>"
        )
        y += 70
    hand = [t for t in (_call(game, "hand") or []) if isinstance(t, str)]
    if hand:
        out.append(
            f'<g class="hand" data-tiles="{len(hand)}">'
            f'<text x="18" y="{_num(y + 14)}" font-size="12" fill="{ink}">'
            f"hand: {len(hand)} drawn tile{'' if len(hand) == 1 else 's'}</text>"
        )
        for k, tid in enumerate(hand[:6]):
            ty = y + 22 + 46 * k
            out.append(
                f'<g class="hand-tile" data-tile="{escape(tid)}" '
                f'transform="translate(18,{_num(ty)}) scale(0.4)">'
                f"{tiles.body(tid, 0)}<title>{escape(tid)}</title></g>"
                f'<text x="66" y="{_num(ty + 24)}" font-size="11" fill="{ink}">'
                f"{escape(tid)}</text>"
            )
        out.append("</g>")
        y += 26 + 46 * min(len(hand), 6)
    decision = game.decision.value
    out.append(f'<g class="decision" data-decision="{escape(decision)}">')
    for line in _wrap([f"pending: {decision}", DECISIONS.get(decision, decision)], 40):
        out.append(
            f'<text x="18" y="{_num(y + 14)}" font-size="12" fill="{ink}">{escape(line)}</text>'
        )
        y += 16
    out.append("</g>")
    y += 2
    left = sum(game.bag.values())
    out.append(
        f'<text x="18" y="{_num(y + 14)}" font-size="12" fill="{ink}">'
        f"{left} tiles in the bag</text>"
    )
    y += 18
    bt = big_top(game)
    if bt is not None:
        revealed = [int(v) for v in bt.get("revealed") or []]
        hidden = sum(int(n) for n in (bt.get("left") or {}).values())
        where = "big top at {},{}".format(*bt["at"]) if bt.get("at") else "big top not placed"
        said = f"{len(revealed)} token{'' if len(revealed) == 1 else 's'} revealed"
        if revealed:
            said += f" ({', '.join(map(str, revealed))})"
        # Word by word, so that a long list of tokens wraps inside the panel.
        parts = [*textwrap.wrap(said, 38), f"{hidden} face down"]
        out.append(
            f'<g class="big-top-info" data-revealed="{len(revealed)}" data-left="{hidden}">'
            f'<g transform="translate(29,{_num(y + 12)}) scale(0.55)">{BIG_TOP_FIGURE}</g>'
            f'<text x="46" y="{_num(y + 10)}" font-size="12" fill="{ink}">{escape(where)}</text>'
        )
        for line in _wrap(parts, 38):
            y += 14
            out.append(
                f'<text x="46" y="{_num(y + 10)}" font-size="11" fill="#5a5245">'
                f"{escape(line)}</text>"
            )
        out.append("</g>")
        y += 18
    y += 12
    tellers = _call(game, "fortune_tellers") or []
    acrobats = [0] * game.players
    for _, _, owners in pyramids(game):
        for o in owners:
            if 0 <= o < game.players:
                acrobats[o] += 1
    over = game.is_over()
    winners = set(game.winners) if over else set()
    sc = game.scores
    for p in range(game.players):
        colour = player_colour(p)
        status = "winner" if p in winners else ("to move" if not over and p == game.turn else "")
        supply = [f"{k} {v}" for k, v in game.supply(p).items()]
        goods = _goods(game, p)
        out_there = []
        if p < len(tellers) and tellers[p]:
            out_there.append(f"fortune tellers on tents {tellers[p]}")
        if acrobats[p]:
            out_there.append(f"acrobats in pyramids {acrobats[p]}")
        lines = _wrap(supply + out_there + ([status] if status else []), 36)
        if goods:
            lines += _wrap([f"{k} {v}" for k, v in goods.items()], 36, "goods: ")
        points = [f"{k.replace('_', ' ')} {v}" for k, v in sources(game, p)]
        small = _wrap(points, 42) if points else ["no points yet"]
        rh = 34 + 14 * len(lines) + 12 * len(small)
        row = [f'<g class="player" data-player="{p}" transform="translate(0,{_num(y)})">']
        if not over and p == game.turn:
            row.append(
                f'<rect x="6" y="-2" width="{_num(PANEL_WIDTH - 24)}" height="{_num(rh - 4)}" '
                'rx="6" fill="#fff1c9" stroke="#e6b84a"/>'
            )
        row.append(
            f'<g class="swatch" transform="translate(32,24) scale(1.3)">{_meeple(colour)}</g>'
            f'<text x="58" y="20" font-size="16" font-weight="bold" fill="{ink}">'
            f"Player {p + 1}</text>"
            f'<text x="{_num(PANEL_WIDTH - 28)}" y="24" font-size="24" font-weight="bold" '
            f'text-anchor="end" fill="{ink}" class="score">{sc[p]}</text>'
        )
        ly = 36.0
        for line in lines:
            row.append(
                f'<text x="58" y="{_num(ly)}" font-size="11" fill="#5a5245">{escape(line)}</text>'
            )
            ly += 14
        for line in small:
            row.append(
                f'<text class="sources" x="58" y="{_num(ly)}" font-size="10" fill="#7a705e">'
                f"{escape(line)}</text>"
            )
            ly += 12
        if p in winners:
            row.append(
                '<path class="winner" d="M12,4 L14.4,9.2 L20,9.8 L15.8,13.4 L17,19 L12,16.2 '
                'L7,19 L8.2,13.4 L4,9.8 L9.6,9.2 Z" fill="#f2b705" stroke="#8a6400"/>'
            )
        row.append("</g>")
        out += row
        y += rh
    height = y + 14
    out.append("</g>")
    text = "".join(out).replace("__H__", _num(height - 20))
    return text, height


def repr_svg(game: Game) -> str:
    """``Game._repr_svg_``: the picture notebooks show."""
    return svg(game)


# -- the terminal view --------------------------------------------------------------------------

# Characters of the terminal view (Unicode; ASCII_GLYPHS replaces the box-drawing ones).
TEXT_GLYPHS = {
    "empty": " ",
    "field": ".",
    "city": "#",
    "river": "~",
    "road_NS": "│",
    "road_EW": "─",
    "road_NE": "└",
    "road_ES": "┌",
    "road_SW": "┐",
    "road_NW": "┘",
    "road_cross": "┼",
    "village": "o",
    "monastery": "M",
    "garden": "g",
    "tent": "t",
    "bigtop": "*",  # not B: that is player 2's abbot
    "acrobat": "^",
    "generic": "?",
    "tollhouse": "$",
    "sep": " · ",
}
ASCII_GLYPHS = {"│": "|", "─": "-", "└": "+", "┌": "+", "┐": "+", "┘": "+", "┼": "+", " · ": " - "}
EDGE_CELL = {"N": (1, 0), "E": (2, 1), "S": (1, 2), "W": (0, 1)}
HALF_CORNER = {
    "NNW": (0, 0),
    "NNE": (2, 0),
    "ENE": (2, 0),
    "ESE": (2, 2),
    "SSE": (2, 2),
    "SSW": (0, 2),
    "WSW": (0, 2),
    "WNW": (0, 0),
}
CORNER_OF = {frozenset("NW"): (0, 0), frozenset("NE"): (2, 0), frozenset("ES"): (2, 2)}
CORNER_OF[frozenset("SW")] = (0, 2)
ANSI_PLAYER = ("34", "31", "33", "90", "32", "35")
LEGEND = (
    "# city  ─│┌ road  ~ river  M monastery  g garden  o village  t tent  * big top  "
    "^ acrobats  $ tollhouse  1-6 meeple, A-F abbot, a-f other figure (builder, pig) of "
    "player 1-6"
)


def _road_glyph(edges: Iterable[str]) -> str:
    key = "".join(e for e in EDGES if e in set(edges))
    return TEXT_GLYPHS.get(
        {
            "NS": "road_NS",
            "EW": "road_EW",
            "NE": "road_NE",
            "ES": "road_ES",
            "SW": "road_SW",
            "NW": "road_NW",
        }.get(key, "road_cross")
    )


def tile_cells(
    tile: dict[str, Any], rotation: int
) -> tuple[list[list[str]], list[tuple[int, int]]]:
    """A tile turned ``rotation`` as 3x3 characters (rows north to south), and for each
    segment the cell a figure on it is shown in."""
    g = TEXT_GLYPHS
    grid = [[g["field"]] * 3 for _ in range(3)]
    segs = tile.get("segments") or []
    cell: list[tuple[int, int]] = [(1, 1)] * len(segs)

    def put(at: tuple[int, int], ch: str) -> None:
        grid[at[1]][at[0]] = ch

    def get(at: tuple[int, int]) -> str:
        return grid[at[1]][at[0]]

    ports = [[rotate_port(p, rotation) for p in (s.get("ports") or [])] for s in segs]
    edges = [[p for p in ps if p in EDGES] for ps in ports]
    kinds = [str(s.get("kind")) for s in segs]
    taken_centre = False
    for i, k in enumerate(kinds):
        if k == "city" and edges[i]:
            for e in edges[i]:
                put(EDGE_CELL[e], g["city"])
            if len(edges[i]) >= 2:
                put((1, 1), g["city"])
                taken_centre = True
                for a in edges[i]:
                    for b in edges[i]:
                        corner = CORNER_OF.get(frozenset(a + b))
                        if corner and a != b:
                            put(corner, g["city"])
            cell[i] = EDGE_CELL[edges[i][0]]
    for i, k in enumerate(kinds):
        if k == "river" and edges[i]:
            for e in edges[i]:
                put(EDGE_CELL[e], g["river"])
            if not taken_centre:
                put((1, 1), g["river"])
            cell[i] = EDGE_CELL[edges[i][0]]
    village = False
    for i, k in enumerate(kinds):
        if k == "road" and edges[i]:
            for e in edges[i]:
                put(EDGE_CELL[e], g["road_NS"] if e in "NS" else g["road_EW"])
            cell[i] = EDGE_CELL[edges[i][0]]
            road_glyphs = {v for k, v in g.items() if k.startswith("road_")}
            if len(edges[i]) >= 2 and not taken_centre:
                put((1, 1), _road_glyph(edges[i]))
                taken_centre = True
            elif len(edges[i]) >= 2 and get((1, 1)) in road_glyphs:  # two roads cross
                put((1, 1), g["road_cross"])
            elif len(edges[i]) == 1 and segs[i].get("end") == "village":
                village = True
    if village:
        put((1, 1), g["village"])
        taken_centre = True

    def free_cell() -> tuple[int, int]:
        if get((1, 1)) == g["field"]:
            return (1, 1)
        for e in EDGES:
            if get(EDGE_CELL[e]) == g["field"]:
                return EDGE_CELL[e]
        for at in ((0, 0), (2, 0), (2, 2), (0, 2)):
            if get(at) == g["field"]:
                return at
        return (1, 1)

    for i, k in enumerate(kinds):
        if k == "field":
            halves = [p for p in (segs[i].get("ports") or []) if p in HALVES]
            if halves:
                cell[i] = HALF_CORNER[rotate_port(halves[len(halves) // 2], rotation)]
            else:
                cell[i] = free_cell()
        elif k in ("monastery", "garden") or k not in ("city", "river", "road"):
            at = free_cell()
            put(at, g.get(k, g["generic"]))
            cell[i] = at
    return grid, cell


_SPARE_CELLS = ((1, 1), (1, 0), (2, 1), (1, 2), (0, 1), (0, 0), (2, 0), (2, 2), (0, 2))


def _figure_char(f: Figure) -> str:
    if f.role == "meeple":
        return str(f.player + 1)
    if f.role == "abbot":
        return "ABCDEF"[f.player % 6]
    return "abcdef"[f.player % 6]


def text(
    game: Game,
    *,
    scores: bool = True,
    legend: bool = True,
    color: bool = False,
    ascii: bool = False,
) -> str:
    """The board as text, 3x3 characters per tile (x grows east, y north; axes labelled),
    then the scores. Figures show as the player's number (meeples) or letter (abbots).
    ``color`` adds ANSI colours (figures in player colours, the last tile in reverse video);
    ``ascii`` avoids box-drawing characters."""
    tiles = _Tiles(game)
    board = game.board
    cells: dict[tuple[int, int], list[list[str]]] = {}
    seg_cells: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for p in board:
        grid, cell = tile_cells(tiles.entry(p.tile), p.rotation)
        cells[(p.x, p.y)] = grid
        seg_cells[(p.x, p.y)] = cell
    colored: dict[tuple[int, int, int, int], str] = {}
    used: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for f in game.figures():
        key = (f.x, f.y)
        if key not in cells:
            continue
        labels = game.labels(f.x, f.y)
        at = seg_cells[key][labels.index(f.segment)] if f.segment in labels else (1, 1)
        taken = used.setdefault(key, set())
        if at in taken:  # a second figure on the tile (a builder or pig): the next free cell
            at = next((c for c in _SPARE_CELLS if c not in taken), at)
        taken.add(at)
        ch = _figure_char(f)
        cells[key][at[1]][at[0]] = ch
        if color:
            colored[(f.x, f.y, at[0], at[1])] = f"\x1b[1;{ANSI_PLAYER[f.player % 6]}m{ch}\x1b[0m"
    houses = tollhouses(game)
    for player, x, y, _ in houses:
        if (x, y) in cells:
            ch = TEXT_GLYPHS["tollhouse"]
            cells[(x, y)][1][1] = ch
            used.setdefault((x, y), set()).add((1, 1))
            if color:
                colored[(x, y, 1, 1)] = f"\x1b[1;{ANSI_PLAYER[player % 6]}m{ch}\x1b[0m"
    last = game.move_stack[-1] if game.move_stack else None
    last_tile = _last_placement(game)
    lines: list[str] = []
    if board:
        xs = [p.x for p in board]
        ys = [p.y for p in board]
        minx, maxx, miny, maxy = min(xs), max(xs), min(ys), max(ys)
        wy = max(len(str(y)) for y in (miny, maxy))
        header = " " * (wy + 1) + "".join(f"{x:^3}" for x in range(minx, maxx + 1))
        lines.append(header.rstrip())
        for y in range(maxy, miny - 1, -1):
            for r in range(3):
                row = [f"{y:>{wy}} " if r == 1 else " " * (wy + 1)]
                for x in range(minx, maxx + 1):
                    grid = cells.get((x, y))
                    if grid is None:
                        row.append(TEXT_GLYPHS["empty"] * 3)
                        continue
                    chars = [colored.get((x, y, c, r), grid[r][c]) for c in range(3)]
                    s = "".join(chars)
                    if color and last_tile is not None and (last_tile.x, last_tile.y) == (x, y):
                        s = "\x1b[7m" + s.replace("\x1b[0m", "\x1b[0;7m") + "\x1b[0m"
                    row.append(s)
                lines.append("".join(row).rstrip())
    sep = TEXT_GLYPHS["sep"]
    head = [_status(game, sep)]
    if game.tile is not None:
        head[0] += f"{sep}tile {game.tile}"
    head[0] += f"{sep}{sum(game.bag.values())} in the bag"
    if last is not None:
        mover = _last_mover(game)
        head.append(f"last: player {(mover or 0) + 1} played {last}")
    out = head + lines
    if scores:
        over = game.is_over()
        winners = set(game.winners) if over else set()
        sc = game.scores
        width = max(len(str(s)) for s in sc)
        for p in range(game.players):
            supply = "  ".join(f"{k} {v}" for k, v in game.supply(p).items())
            goods = _goods(game, p)
            if goods:
                supply += "  goods " + " ".join(f"{k} {v}" for k, v in goods.items())
            for owner, x, y, value in houses:
                if owner == p:
                    supply += f"  tollhouse at {x},{y} worth {value}"
            mark = (
                "  winner"
                if p in winners
                else ("  <- to move" if not over and p == game.turn else "")
            )
            name = f"player {p + 1} ({player_name(p)})"
            out.append(f"{name:<18} {sc[p]:>{width}}  {supply}{mark}".rstrip())
    if legend:
        out.append(LEGEND)
    result = "\n".join(out) + "\n"
    if ascii:
        for u, a in ASCII_GLYPHS.items():
            result = result.replace(u, a)
    return result
