"""Tile-local geometry of the pictures: points, edges and half-edges, rotation, paths."""

from __future__ import annotations

import math
from typing import Any

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
