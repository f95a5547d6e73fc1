"""PNG pictures without extra tools: any SVG of this package rasterised by resvg (the
``resvg-py`` wheel, a dependency of the package)."""

from __future__ import annotations

import resvg_py


def png(svg_text: str, background: str | None = None) -> bytes:
    """The PNG bytes of an SVG document (``render.svg(game)``, ``render.tile_svg(...)``) at its
    own width and height in pixels (``render.svg(game, size=...)`` sets them), transparent
    where nothing is drawn unless ``background`` (a CSS colour) is given. Text is drawn with
    the system's fonts. A document resvg cannot read raises ``ValueError``."""
    if not isinstance(svg_text, str) or not svg_text.strip():
        raise ValueError("png() takes an SVG document as text")
    return bytes(resvg_py.svg_to_bytes(svg_string=svg_text, background=background))
