"""The page's address as a QR code, so that phones at the table join by scanning it: in the
terminal (half-block characters) and on the page (SVG). Drawn by ``segno`` (extra ``table``)."""

from __future__ import annotations

import io

import segno

# Bright white on black, then reset: the half blocks are drawn in the terminal's own colours,
# so a terminal with dark text on a light background showed the code inverted, which many
# phone cameras do not read.
LIGHT_ON_DARK = "\x1b[97;40m"
RESET = "\x1b[0m"


def qr_text(address: str, colour: bool = False) -> str:
    """The QR code as lines of half-block characters, dark on light, with its quiet zone.
    ``colour``: with the terminal colours set on each line, so that the code reads the same on
    light and dark terminals (for a terminal, not a file)."""
    out = io.StringIO()
    segno.make(address, error="m").terminal(out=out, compact=True)
    text = out.getvalue()
    if not colour:
        return text
    return "".join(f"{LIGHT_ON_DARK}{line}{RESET}\n" for line in text.splitlines())


def qr_svg(address: str) -> str:
    """The QR code as an SVG document."""
    out = io.BytesIO()  # a whole document (with its namespace): an <img> shows it
    segno.make(address, error="m").save(out, kind="svg", scale=5, dark="#151515", light="#ffffff")
    return out.getvalue().decode("utf-8")
