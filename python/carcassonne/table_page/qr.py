"""The page's address as a QR code, so that phones at the table join by scanning it: in the
terminal (half-block characters) and on the page (SVG). Drawn by ``segno`` (extra ``table``)."""

from __future__ import annotations

import io

import segno


def qr_text(address: str) -> str:
    """The QR code as lines of half-block characters, dark on light, with its quiet zone."""
    out = io.StringIO()
    segno.make(address, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def qr_svg(address: str) -> str:
    """The QR code as an SVG document."""
    out = io.BytesIO()  # a whole document (with its namespace): an <img> shows it
    segno.make(address, error="m").save(out, kind="svg", scale=5, dark="#151515", light="#ffffff")
    return out.getvalue().decode("utf-8")
