"""Single tiles as pictures, and the tile gallery (docs/tiles.md): every tile of every set with
its id, so a person holding a tile finds its name."""

from __future__ import annotations

import difflib
import json
from html import escape

from carcassonne._core import Catalogue
from carcassonne.render.geometry import _num, rotate_point
from carcassonne.render.symbols import COLOURS
from carcassonne.render.tiles import _layout_cached, tile_body
from carcassonne.tiles import looks

ROTATIONS = (0, 90, 180, 270)
GALLERY_COLUMNS = 6
_CELL_W, _CELL_H = 130, 150  # a tile (100) with its id and facts below


def _entry_key(catalogue: Catalogue, tile_id: str) -> str:
    if tile_id not in catalogue.tile_ids():
        close = difflib.get_close_matches(tile_id, catalogue.tile_ids(), n=4, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise ValueError(f"unknown tile id {tile_id!r:.60}{hint}")
    return json.dumps(catalogue.tile(tile_id), sort_keys=True)


def tile_svg(
    tile: str,
    rotation: int = 0,
    *,
    size: float = 100,
    catalogue: Catalogue | None = None,
    north: bool = True,
) -> str:
    """One tile alone as an SVG document, turned ``rotation`` degrees clockwise (0, 90, 180,
    270) as a move with that rotation lays it; ``size`` in pixels. ``north`` marks the tile's
    catalogue north edge (where rotation 0 puts it) with a small triangle, so a person can
    match the printed tile to a rotation. Unknown ids raise ``ValueError`` naming close
    matches."""
    if rotation not in ROTATIONS:
        raise ValueError(f"rotation must be 0, 90, 180 or 270, not {rotation!r}")
    if not size > 0:
        raise ValueError(f"size must be a positive number of pixels, not {size!r}")
    cat = catalogue if catalogue is not None else Catalogue.builtin()
    body = tile_body(_layout_cached(_entry_key(cat, tile)), rotation)
    mark = _north_mark(rotation) if north else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tile-picture" viewBox="0 0 100 100" '
        f'width="{_num(size)}" height="{_num(size)}" data-tile="{escape(tile)}" '
        f'data-rotation="{rotation}"><title>{escape(tile)} turned {rotation}</title>'
        f"{body}{mark}</svg>"
    )


def rotations_svg(
    tile: str,
    rotations: tuple[int, ...] | list[int] = ROTATIONS,
    *,
    catalogue: Catalogue | None = None,
) -> str:
    """The tile in each of ``rotations`` side by side, each as it would lie on the board, with
    its rotation written under it and the catalogue's north edge marked: a person matches the
    tile in their hand to a rotation. Each is a ``<g class="rotation" data-rotation>``."""
    rots = list(rotations)
    if not rots or any(r not in ROTATIONS for r in rots):
        raise ValueError(f"rotations must be some of 0, 90, 180, 270, not {rotations!r}")
    cat = catalogue if catalogue is not None else Catalogue.builtin()
    lay = _layout_cached(_entry_key(cat, tile))
    width = 120 * len(rots)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tile-rotations" viewBox="0 0 {width} '
        f'125" width="{width}" height="125" font-family="DejaVu Sans, Verdana, sans-serif">'
        f"<title>{escape(tile)} in each rotation</title>"
    ]
    for k, r in enumerate(rots):
        out.append(
            f'<g class="rotation" data-rotation="{r}" transform="translate({120 * k + 10},2)">'
            f"<title>{escape(tile)} turned {r}</title>{tile_body(lay, r)}{_north_mark(r)}"
            f'<text x="50" y="118" font-size="13" text-anchor="middle">{r}</text></g>'
        )
    out.append("</svg>")
    return "".join(out)


def _north_mark(rotation: int) -> str:
    """A small triangle inside the edge that was the tile's catalogue north."""
    pts = [rotate_point(p, rotation) for p in ((44.0, 1.0), (56.0, 1.0), (50.0, 8.0))]
    d = " ".join(f"{_num(x)},{_num(y)}" for x, y in pts)
    return (
        f'<polygon class="north-mark" points="{d}" fill="{COLOURS["highlight"]}" '
        'stroke="#ffffff" stroke-width="0.8"><title>the catalogue\'s north edge</title></polygon>'
    )


def gallery_svg(set_name: str, catalogue: Catalogue | None = None) -> str:
    """Every tile of one set, unturned, with its id, copies and what is printed on it."""
    cat = catalogue if catalogue is not None else Catalogue.builtin()
    if set_name not in cat.set_names():
        raise ValueError(f"unknown tile set {set_name!r} ({', '.join(cat.set_names())})")
    tiles = [t for t in looks(cat) if t.set == set_name]
    rows = max(1, -(-len(tiles) // GALLERY_COLUMNS))
    width, height = GALLERY_COLUMNS * _CELL_W, rows * _CELL_H
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tile-gallery" viewBox="0 0 {width} '
        f'{height}" width="{width}" height="{height}" font-family="DejaVu Sans, Verdana, '
        f'sans-serif"><title>tile set {escape(set_name)}: {len(tiles)} tiles</title>'
        f'<rect width="{width}" height="{height}" fill="{COLOURS["background"]}"/>'
    ]
    for k, t in enumerate(tiles):
        x, y = (k % GALLERY_COLUMNS) * _CELL_W + 15, (k // GALLERY_COLUMNS) * _CELL_H + 8
        count = cat.tile(t.id)["count"]
        body = tile_body(_layout_cached(_entry_key(cat, t.id)), 0)
        font = 9 if len(t.id) <= 22 else 9 * 22 / len(t.id)  # long ids in smaller type
        out.append(
            f'<g class="gallery-tile" data-tile="{escape(t.id)}" transform="translate({x},{y})">'
            f"<title>{escape(t.id)}: edges {t.edges}, {count} in the box</title>{body}"
            f'<text x="50" y="116" font-size="{_num(font)}" text-anchor="middle">'
            f"{escape(t.id)}</text>"
            f'<text x="50" y="130" font-size="8" text-anchor="middle" fill="#555">{t.edges} '
            f"x{count}</text></g>"
        )
    out.append("</svg>")
    return "".join(out)


GALLERY_BEGIN = "<!-- gallery: generated by scripts/tile-gallery, checked by tests -->"
GALLERY_END = "<!-- end of gallery -->"


def gallery_markdown(catalogue: Catalogue | None = None) -> str:
    """The gallery section of docs/tiles.md: per set a picture (``tiles/SET.svg``, from
    :func:`gallery_svg`) and a table of its tiles: id, edges, copies, what is printed."""
    cat = catalogue if catalogue is not None else Catalogue.builtin()
    all_looks = looks(cat)
    out = [GALLERY_BEGIN, ""]
    for name in cat.set_names():
        tiles = [t for t in all_looks if t.set == name]
        copies = sum(cat.tile(t.id)["count"] for t in tiles)
        kinds = "1 design" if len(tiles) == 1 else f"{len(tiles)} designs"
        out += [
            f"### `{name}` ({kinds}, {copies} {'tile' if copies == 1 else 'tiles'})",
            "",
            f"![tile set {name}](tiles/{name}.svg)",
            "",
        ]
        out += ["| id | edges | copies | printed |", "| --- | --- | --- | --- |"]
        for t in tiles:
            printed = [f"{t.cities} city" if t.cities == 1 else f"{t.cities} cities"]
            printed.append(f"{t.roads} road" if t.roads == 1 else f"{t.roads} roads")
            printed += list(t.spaces)
            if t.arms:
                printed.append(
                    f"{t.arms} coat of arms" if t.arms == 1 else f"{t.arms} coats of arms"
                )
            printed += [f"goods: {g}" for g in t.goods] + list(t.illustrations)
            count = cat.tile(t.id)["count"]
            out.append(f"| `{t.id}` | {t.edges} | {count} | {', '.join(printed)} |")
        out.append("")
    out.append(GALLERY_END)
    return "\n".join(out)
