"""Colours and upright symbols (houses, goods, illustrations) of the pictures."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from carcassonne.render.geometry import _num

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
