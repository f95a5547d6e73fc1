"""The terminal view: 3x3 characters per tile, figures, and the scores."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from carcassonne.render.geometry import EDGES, HALVES, rotate_port
from carcassonne.render.panel import _goods, _status
from carcassonne.render.pieces import _last_mover, _last_placement, tollhouses
from carcassonne.render.symbols import player_name
from carcassonne.render.tiles import _Tiles

if TYPE_CHECKING:
    from carcassonne.game import Figure, Game

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
