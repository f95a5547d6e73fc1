"""Figures (meeples and the expansions' pieces) as SVG, by role."""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING

from carcassonne.render.geometry import Point, _pt
from carcassonne.render.symbols import player_colour

if TYPE_CHECKING:
    from carcassonne.game import Figure

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
