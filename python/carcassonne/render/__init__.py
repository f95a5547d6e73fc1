# ruff: noqa: F401
"""Pictures of a game: an SVG board drawn from the catalogue's own geometry, and a compact
terminal view.

    svg(game)   -> str   board, figures in player colours, last move, score panel
    text(game)  -> str   3x3 characters per tile, plus scores
    tile_svg(id, rotation) -> str   one tile alone, turned as a move with that rotation lays it
    rotations_svg(id, rotations)    the tile in each rotation, side by side, labelled
    png(svg_text) -> bytes          any of these pictures as PNG (resvg, no extra tools)

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

# One concept per module (geometry, symbols, tiles, figures, pieces, board, panel, terminal);
# every public name is importable as `carcassonne.render.NAME` (private ones from their module).
from carcassonne.render.board import repr_svg, svg
from carcassonne.render.figures import (
    ABBOT_PATH,
    FEATURE_OFFSETS,
    FIGURE_SHAPES,
    MEEPLE_PATH,
    MEEPLE_ROLES,
    figure_role,
    figure_svg,
)
from carcassonne.render.gallery import gallery_markdown, gallery_svg, rotations_svg, tile_svg
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
    half_edge,
    rotate_point,
    rotate_port,
)
from carcassonne.render.panel import DECISIONS, sources
from carcassonne.render.pieces import (
    BIG_TOP_FIGURE,
    MARGIN,
    PANEL_WIDTH,
    big_top,
    big_top_svg,
    pyramid_spots,
    pyramids,
    tollhouse_svg,
    tollhouses,
)
from carcassonne.render.png import png
from carcassonne.render.symbols import (
    COLOURS,
    GOODS_COLOURS,
    ITEM_SYMBOLS,
    PLAYER_COLOURS,
    PLAYER_NAMES,
    SPACE_ROOM,
    SPACES,
    SYMBOL_RADIUS,
    SYMBOLS,
    player_colour,
    player_name,
)
from carcassonne.render.terminal import (
    ANSI_PLAYER,
    ASCII_GLYPHS,
    CORNER_OF,
    EDGE_CELL,
    HALF_CORNER,
    LEGEND,
    TEXT_GLYPHS,
    text,
    tile_cells,
)
from carcassonne.render.tiles import (
    ATTRIBUTE_PAINTERS,
    GENERIC_PHASE,
    ROAD_ENDS,
    SEGMENT_PAINTERS,
    STRUCTURAL_ATTRIBUTES,
    SegmentAttributePainter,
    SegmentPainter,
    Shape,
    Symbol,
    TileCanvas,
    field_anchor,
    layout_tile,
    paint_arms,
    paint_city,
    paint_field,
    paint_garden,
    paint_generic,
    paint_goods,
    paint_items,
    paint_monastery,
    paint_river,
    paint_road,
    paint_space,
    place_space,
    tile_body,
)
