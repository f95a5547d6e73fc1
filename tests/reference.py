"""A deliberately slow, independent reference for the base game, River, Abbot and Traders &
Builders (both editions) scoring.

Nothing here reuses the engine's feature code: features are rebuilt from the catalogue's tile
descriptions by flood fill over the placed tiles, every time they are asked for. The only
engine data used is the catalogue (``Catalogue.tile(id)`` as plain dicts), the list of placed
tiles and the list of figures. Rule ids are those of docs/rules.md.

Conventions (docs/notation.md, docs/catalogue.md):
- positions ``(x, y)``, y grows north; the neighbour across edge N of (x, y) is (x, y + 1);
- edges ``N E S W`` (indices 0..3), half-edges ``NNW NNE ENE ESE SSE SSW WSW WNW`` (0..7);
- a tile turned r degrees clockwise moves edge e to (e + r/90) % 4 and half-edge h to
  (h + 2r/90) % 8;
- a segment's label is its kind and its first port in board orientation (``city:N``), or
  ``monastery`` / ``garden`` / ``field`` (``field#k`` when a tile has several inner fields).

Scores are returned per player as dicts over the engine's sources:
``roads, cities, monasteries, gardens, fields, goods, pigs``.

Traders & Builders (rules TB1-TB12; ``traders_builders`` is ``None``, ``"C3.1"`` or
``"C2"``): a builder or pig is a figure like any other, ``(player, "builder" | "pig", x, y,
label)``, standing on the segment of its meeple (C3.1) or beside the segment it was placed by
(C2); both have strength 0 (TB7, TB9) and leave with everything else when their feature is
scored (B17). Goods tokens are counted per player as ``{goods name: tokens}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

EDGES = ("N", "E", "S", "W")
HALVES = ("NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW")
STEP = {0: (0, 1), 1: (1, 0), 2: (0, -1), 3: (-1, 0)}
SOURCES = ("roads", "cities", "monasteries", "gardens", "fields", "goods", "pigs")
SOURCE_OF = {
    "road": "roads",
    "city": "cities",
    "monastery": "monasteries",
    "garden": "gardens",
    "field": "fields",
}
# Which port kind a segment kind connects through (fields: half-edges; the rest: edges).
EDGE_KINDS = ("road", "city", "river")
CLOISTERS = ("monastery", "garden")  # single-tile features scored on their 3x3 surroundings
MEEPLE_KINDS = ("road", "city", "monastery", "field")  # B8; never the garden (A1) or river (R6)
STRONG = ("meeple", "abbot")  # figures that count for majorities; builders and pigs: TB7, TB9
EDITIONS = (None, "C3.1", "C2")


# -- geometry ---------------------------------------------------------------------------------


def is_edge(port: str) -> bool:
    return port in EDGES


def rotate_port(port: str, rotation: int) -> str:
    k = (rotation // 90) % 4
    if port in EDGES:
        return EDGES[(EDGES.index(port) + k) % 4]
    return HALVES[(HALVES.index(port) + 2 * k) % 8]


def port_edge(port: str) -> int:
    """The edge (0..3) a port lies on."""
    if port in EDGES:
        return EDGES.index(port)
    return HALVES.index(port) // 2


def facing_port(port: str) -> str:
    """The port of the neighbouring tile that touches ``port`` (both in board orientation).

    The west half of my north edge (NNW) touches the west half of the north neighbour's south
    edge (SSW): the edge flips to its opposite and the half flips, because halves are numbered
    clockwise round each tile."""
    if port in EDGES:
        return EDGES[(EDGES.index(port) + 2) % 4]
    h = HALVES.index(port)
    return HALVES[2 * ((h // 2 + 2) % 4) + (1 - h % 2)]


def port_order(port: str) -> int:
    return EDGES.index(port) if port in EDGES else HALVES.index(port)


def neighbours8(x: int, y: int) -> list[tuple[int, int]]:
    return [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


# -- tiles on the board -----------------------------------------------------------------------


@dataclass(frozen=True)
class Seg:
    index: int  # index in the catalogue's segment list
    kind: str
    ports: tuple[str, ...]  # board orientation, in port order
    arms: int
    cities: tuple[int, ...]  # indices of city segments a field borders
    label: str
    goods: str | None = None  # Traders & Builders: the goods symbol on a city segment


@dataclass(frozen=True)
class Placed:
    tile: str
    x: int
    y: int
    rotation: int
    segs: tuple[Seg, ...]
    edges: str  # edge letters in board orientation, N E S W


def tile_edges(desc: dict, rotation: int) -> str:
    """Edge letters N E S W of a tile turned ``rotation``."""
    canon = desc["edges"]
    out = [""] * 4
    for e in range(4):
        out[(e + rotation // 90) % 4] = canon[e]
    return "".join(out)


def tile_segments(desc: dict, rotation: int) -> tuple[Seg, ...]:
    raw = desc["segments"]
    portless: dict[str, list[int]] = {}
    for i, s in enumerate(raw):
        if not s["ports"]:
            portless.setdefault(s["kind"], []).append(i)
    segs = []
    for i, s in enumerate(raw):
        ports = tuple(sorted((rotate_port(p, rotation) for p in s["ports"]), key=port_order))
        if ports:
            label = f"{s['kind']}:{ports[0]}"
        else:
            same = portless[s["kind"]]
            label = s["kind"] if len(same) == 1 else f"{s['kind']}#{same.index(i) + 1}"
        segs.append(
            Seg(
                i,
                s["kind"],
                ports,
                s.get("arms", 0) or 0,
                tuple(s.get("cities") or ()),
                label,
                s.get("goods"),
            )
        )
    return tuple(segs)


def distinct_rotations(desc: dict, items: bool = True) -> list[int]:
    """Rotations that give different tiles: everything the catalogue says about a segment,
    turned, must coincide for two rotations to be the same. With ``items=False`` the small
    illustrations are ignored (no rule in the base game, River or Abbot looks at them)."""
    seen = set()
    out = []
    raw = desc["segments"]
    for rot in (0, 90, 180, 270):

        def turn(ports: Iterable[str], rot: int = rot) -> tuple[str, ...]:
            return tuple(sorted((rotate_port(p, rot) for p in ports), key=port_order))

        sig = []
        for s in raw:
            cities = tuple(sorted(turn(raw[c]["ports"]) for c in s["cities"] or ()))
            road = turn(raw[s["road"]]["ports"]) if s.get("road") is not None else None
            items_ = tuple(sorted((s.get("items") or {}).items())) if items else ()
            sig.append(
                repr(
                    (
                        s["kind"],
                        turn(s["ports"]),
                        s.get("arms", 0),
                        cities,
                        road,
                        items_,
                        s.get("end"),
                        s.get("goods"),
                    )
                )
            )
        key = tuple(sorted(sig))  # the turned tile as a multiset of segments
        if key not in seen:
            seen.add(key)
            out.append(rot)
    return out


# -- features ---------------------------------------------------------------------------------

Node = tuple[int, int, int]  # (x, y, segment index)


@dataclass
class Feature:
    kind: str
    nodes: frozenset[Node]
    tiles: frozenset[tuple[int, int]]
    complete: bool
    arms: int = 0
    open_ports: int = 0
    # monastery, garden: how many positions of its 3x3 hold a tile (its own included)
    around: int = 0
    figures: list[tuple] = field(default_factory=list)

    @property
    def key(self) -> frozenset[Node]:
        return self.nodes


# Turned tile descriptions, per catalogue (plain data; features are never cached).
_TURNED: dict[int, tuple[object, dict]] = {}


def _turned_cache(catalogue) -> dict:
    hit = _TURNED.get(id(catalogue))
    if hit is None or hit[0] is not catalogue:
        hit = (catalogue, {})
        _TURNED[id(catalogue)] = hit
    return hit[1]


class Board:
    """Placed tiles and nothing else. Every question is answered by a fresh search."""

    def __init__(self, placed: Iterable[tuple[str, int, int, int]], catalogue) -> None:
        self.catalogue = catalogue
        self._cache = _turned_cache(catalogue)
        self.tiles: dict[tuple[int, int], Placed] = {}
        for tile, x, y, rot in placed:
            self.put(tile, x, y, rot)

    def desc(self, tile: str) -> dict:
        key = (tile, None)
        if key not in self._cache:
            self._cache[key] = self.catalogue.tile(tile)
        return self._cache[key]

    def placed_tile(self, tile: str, x: int, y: int, rot: int) -> Placed:
        key = (tile, rot)
        if key not in self._cache:
            d = self.desc(tile)
            self._cache[key] = (tile_segments(d, rot), tile_edges(d, rot))
        segs, edges = self._cache[key]
        return Placed(tile, x, y, rot, segs, edges)

    def put(self, tile: str, x: int, y: int, rot: int) -> None:
        assert (x, y) not in self.tiles, f"two tiles at {x},{y}"
        self.tiles[(x, y)] = self.placed_tile(tile, x, y, rot)

    def with_tile(self, tile: str, x: int, y: int, rot: int) -> Board:
        b = Board((), self.catalogue)
        b.tiles = dict(self.tiles)
        b.put(tile, x, y, rot)
        return b

    # segments ---------------------------------------------------------------------------

    def seg(self, node: Node) -> Seg:
        x, y, i = node
        return self.tiles[(x, y)].segs[i]

    def seg_by_label(self, x: int, y: int, label: str) -> int:
        for s in self.tiles[(x, y)].segs:
            if s.label == label:
                return s.index
        raise KeyError(f"no segment labelled {label!r} on {self.tiles[(x, y)].tile} at {x},{y}")

    def labels(self, x: int, y: int) -> list[str]:
        return [s.label for s in self.tiles[(x, y)].segs]

    def across(self, x: int, y: int, port: str) -> Node | None:
        """The segment on the neighbouring tile touching ``port`` of (x, y), or None when no
        tile lies there (an open port)."""
        dx, dy = STEP[port_edge(port)]
        nb = self.tiles.get((x + dx, y + dy))
        if nb is None:
            return None
        want = facing_port(port)
        for s in nb.segs:
            if want in s.ports:
                return (nb.x, nb.y, s.index)
        raise AssertionError(f"port {want} of {nb.tile} at {nb.x},{nb.y} is in no segment")

    # flood fill ---------------------------------------------------------------------------

    def feature(self, node: Node) -> Feature:
        x, y, i = node
        s = self.seg(node)
        if s.kind in CLOISTERS:
            around = sum(1 for p in [(x, y), *neighbours8(x, y)] if p in self.tiles)
            return Feature(
                s.kind, frozenset([node]), frozenset([(x, y)]), around == 9, around=around
            )
        seen = {node}
        todo = [node]
        open_ports = 0
        while todo:
            cur = todo.pop()
            cx, cy, _ = cur
            cs = self.seg(cur)
            for port in cs.ports:
                nxt = self.across(cx, cy, port)
                if nxt is None:
                    open_ports += 1
                    continue
                ns = self.seg(nxt)
                assert ns.kind == cs.kind, (
                    f"{cs.kind} port {port} at {cx},{cy} touches a {ns.kind} at {nxt[:2]}"
                )
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        tiles = frozenset((nx, ny) for nx, ny, _ in seen)
        arms = sum(self.seg(n).arms for n in seen) if s.kind == "city" else 0
        # Fields are never complete; roads and cities are when no port is open.
        complete = open_ports == 0 and s.kind in ("road", "city")
        return Feature(s.kind, frozenset(seen), tiles, complete, arms=arms, open_ports=open_ports)

    def all_features(self) -> list[Feature]:
        out, seen = [], set()
        for (x, y), t in sorted(self.tiles.items()):
            for s in t.segs:
                n = (x, y, s.index)
                if n in seen:
                    continue
                f = self.feature(n)
                seen |= f.nodes
                out.append(f)
        return out

    def cities_of_field(self, f: Feature) -> set[frozenset[Node]]:
        """The city features (by node set) that border field ``f``."""
        out = set()
        for x, y, i in f.nodes:
            for c in self.seg((x, y, i)).cities:
                out.add(self.feature((x, y, c)).key)
        return out

    def completed_cities_of_field(self, f: Feature) -> int:
        n = 0
        for key in self.cities_of_field(f):
            x, y, i = next(iter(key))
            if self.feature((x, y, i)).complete:
                n += 1
        return n


# -- scoring ----------------------------------------------------------------------------------

Fig = tuple[int, str, int, int, str]  # (player, role, x, y, segment label)


def zero(players: int) -> list[dict[str, int]]:
    return [dict.fromkeys(SOURCES, 0) for _ in range(players)]


def add(total: list[dict[str, int]], more: list[dict[str, int]]) -> list[dict[str, int]]:
    return [{k: a[k] + b[k] for k in SOURCES} for a, b in zip(total, more, strict=True)]


def sub(total: list[dict[str, int]], less: list[dict[str, int]]) -> list[dict[str, int]]:
    return [{k: a[k] - b[k] for k in SOURCES} for a, b in zip(total, less, strict=True)]


def figure_node(board: Board, fig: Fig) -> Node:
    _, _, x, y, label = fig
    return (x, y, board.seg_by_label(x, y, label))


def majority(figs: Sequence[Fig]) -> list[int]:
    """B16: the players with the most figures (strength 1 each) in a feature; builders and
    pigs have strength 0 and never count (TB7, TB9)."""
    count: dict[int, int] = {}
    for f in figs:
        if f[1] in STRONG:
            count[f[0]] = count.get(f[0], 0) + 1
    if not count:
        return []
    best = max(count.values())
    return sorted(p for p, c in count.items() if c == best)


def complete_value(f: Feature, small_city: bool) -> int:
    if f.kind == "road":
        return len(f.tiles)  # B12, B14
    if f.kind == "city":
        if small_city and len(f.tiles) == 2:
            return len(f.tiles) + f.arms  # B13 option: C1 small city
        return 2 * len(f.tiles) + 2 * f.arms  # B13
    if f.kind in CLOISTERS:
        return 9  # B15, A3
    raise AssertionError(f"{f.kind} never completes")


def incomplete_value(f: Feature) -> int:
    if f.kind == "road":
        return len(f.tiles)  # B21
    if f.kind == "city":
        return len(f.tiles) + f.arms  # B21
    if f.kind in CLOISTERS:
        return f.around  # B21, A4, A5: 1 + surrounding tiles
    raise AssertionError(f"no incomplete value for {f.kind}")


def city_goods(board: Board, f: Feature) -> dict[str, int]:
    """TB1: the goods symbols of a whole city, one per symbol (a segment shows at most one)."""
    out: dict[str, int] = {}
    for node in f.nodes:
        g = board.seg(node).goods
        if g:
            out[g] = out.get(g, 0) + 1
    return out


def attached_to(figs: Sequence[Fig], fig: Fig) -> list[Fig]:
    """C3.1: the builder or pig standing with meeple ``fig`` (same owner, same segment)."""
    return [f for f in figs if f[1] in ("builder", "pig") and f[0] == fig[0] and f[2:] == fig[2:]]


def farmer_choice(figures: Iterable[Fig], farmer: Fig, take_back: bool) -> list[Fig]:
    """TB10: after pig scoring the pig's owner keeps the farmer or takes it back (with anything
    still attached to it). Scores nothing."""
    figs = list(figures)
    assert farmer in figs, f"no farmer {farmer} on the board"
    if take_back:
        for f in [farmer, *attached_to(figs, farmer)]:
            figs.remove(f)
    return figs


@dataclass
class MoveOutcome:
    delta: list[dict[str, int]]  # points by source scored during the move
    figures: list[Fig]  # figures on the board after the move
    completed: list[Feature]  # features the tile completed (occupied or not)
    # Traders & Builders: goods tokens the mover took (TB1), by goods name
    goods: dict[str, int] = field(default_factory=dict)
    # C3.1 farmers whose pig scored, in the order their owners choose (TB10)
    farmers: list[Fig] = field(default_factory=list)
    # the tile extended a road or city holding the mover's builder (TB5, TB8); whether that
    # gives an extra turn also depends on the turn part (TB6), which the caller knows
    triggered: bool = False


def score_move(
    placed: Iterable[tuple[str, int, int, int]],
    catalogue,
    figures: Iterable[Fig],
    *,
    player: int,
    players: int,
    tile: str,
    x: int,
    y: int,
    rotation: int,
    action: str = "pass",
    segment: str | None = None,
    target: tuple[int, int] | None = None,
    small_city: bool = False,
    traders_builders: str | None = None,
    goods_rule: bool = True,
) -> MoveOutcome:
    """Points each player scores when ``player`` places ``tile`` at (x, y) turned ``rotation``
    on the board ``placed`` (tile id, x, y, rotation), with ``figures`` on the board, and takes
    ``action`` (``pass``, ``meeple`` / ``abbot`` on ``segment``, or ``recall`` the abbot at
    ``target``; with Traders & Builders also ``meeple+builder`` / ``meeple+pig`` (C3.1) and
    ``builder`` / ``pig`` (C2) on ``segment``). Does not check legality. Who ``player`` is in
    the turn order (first or second part of a double turn) changes nothing here. With
    ``goods_rule`` off (rule option ``goods``) completed cities give no tokens."""
    assert traders_builders in EDITIONS, traders_builders
    board = Board(placed, catalogue).with_tile(tile, x, y, rotation)
    figs: list[Fig] = list(figures)
    delta = zero(players)

    # TB5, TB8: the tile extends a road or city holding the mover's builder; checked before
    # the action, so a builder placed now never triggers. A C3.1 builder leaves the board
    # (beside the tile supply); a C2 builder stays.
    triggered = False
    for b in [f for f in figs if f[0] == player and f[1] == "builder"]:
        assert traders_builders is not None, "a builder without Traders & Builders"
        feat = board.feature(figure_node(board, b))
        assert feat.kind in ("road", "city"), f"builder {b} in a {feat.kind}"
        if any((nx, ny) == (x, y) for nx, ny, _ in feat.nodes):
            triggered = True
            if traders_builders == "C3.1":
                figs.remove(b)

    if action in ("meeple", "abbot", "builder", "pig"):
        assert segment is not None
        assert action in ("meeple", "abbot") or traders_builders == "C2", action
        figs.append((player, action, x, y, segment))
    elif action in ("meeple+builder", "meeple+pig"):
        assert segment is not None and traders_builders == "C3.1", (action, traders_builders)
        figs.append((player, "meeple", x, y, segment))
        figs.append((player, action.split("+")[1], x, y, segment))
    elif action == "recall":
        # A4: the abbot comes back and scores 1 + surrounding tiles (the new tile included).
        assert target is not None
        ax, ay = target
        mine = [f for f in figs if f[0] == player and f[1] == "abbot" and f[2:4] == (ax, ay)]
        assert len(mine) == 1, f"no abbot of player {player} at {ax},{ay}"
        feat = board.feature(figure_node(board, mine[0]))
        assert not feat.complete, "recall of an abbot the tile completes"
        delta[player][SOURCE_OF[feat.kind]] += feat.around
        figs.remove(mine[0])
    else:
        assert action == "pass", action

    # Features the new tile can complete: roads and cities through it, and the monasteries
    # and gardens on it or around it (B12-B15, B19, A3).
    candidates: dict[frozenset[Node], Feature] = {}
    t = board.tiles[(x, y)]
    for s in t.segs:
        if s.kind in ("road", "city"):
            f = board.feature((x, y, s.index))
            candidates.setdefault(f.key, f)
    for px, py in [(x, y), *neighbours8(x, y)]:
        nt = board.tiles.get((px, py))
        if nt is None:
            continue
        for s in nt.segs:
            if s.kind in CLOISTERS:
                f = board.feature((px, py, s.index))
                candidates.setdefault(f.key, f)

    completed = [f for f in candidates.values() if f.complete]
    node_of = {fig: figure_node(board, fig) for fig in figs}
    goods: dict[str, int] = {}
    for f in completed:
        inside = [fig for fig in figs if node_of[fig] in f.nodes]
        f.figures = inside
        value = complete_value(f, small_city)
        for p in majority(inside):  # B16 (TB7, TB9: builders and pigs never count)
            delta[p][SOURCE_OF[f.kind]] += value
        for fig in inside:  # B17 (B11: a figure placed this turn too; TB4, TB8: builders)
            figs.remove(fig)
        if traders_builders and goods_rule and f.kind == "city":  # TB1, TB3: to the mover
            for g, n in city_goods(board, f).items():
                goods[g] = goods.get(g, 0) + n

    # TB10 (C3.1): after everything the tile completed has scored, a completed city with a
    # coat of arms makes every pig score 3 per completed city beside its farmer's field, the
    # mover's pig first, then clockwise; each pig returns and its owner decides on the farmer.
    farmers: list[Fig] = []
    if traders_builders == "C3.1" and any(f.kind == "city" and f.arms for f in completed):
        for k in range(players):
            p = (player + k) % players
            for pig in [f for f in figs if f[0] == p and f[1] == "pig"]:
                farmer = (p, "meeple", *pig[2:])
                assert farmer in figs, f"pig {pig} without its farmer"
                field_ = board.feature(figure_node(board, pig))
                assert field_.kind == "field", f"pig {pig} in a {field_.kind}"
                delta[p]["pigs"] += 3 * board.completed_cities_of_field(field_)
                figs.remove(pig)
                farmers.append(farmer)
    return MoveOutcome(delta, figs, completed, goods, farmers, triggered)


def score_final(
    placed: Iterable[tuple[str, int, int, int]],
    catalogue,
    figures: Iterable[Fig],
    *,
    players: int,
    traders_builders: str | None = None,
    goods: Sequence[dict[str, int]] | None = None,
) -> list[dict[str, int]]:
    """Final scoring (B21, B22, A5) of the board with ``figures`` still standing; with Traders
    & Builders also the C2 pig (TB12; a C3.1 pig scores nothing, TB11) and the goods
    majorities of the tokens ``goods[player]`` (TB2)."""
    assert traders_builders in EDITIONS, traders_builders
    board = Board(placed, catalogue)
    figs = list(figures)
    out = zero(players)
    by_feature: dict[frozenset[Node], tuple[Feature, list[Fig]]] = {}
    for fig in figs:
        node = figure_node(board, fig)
        hit = next((k for k in by_feature if node in k), None)
        if hit is None:
            f = board.feature(node)
            by_feature[f.key] = (f, [fig])
        else:
            by_feature[hit][1].append(fig)
    for f, inside in by_feature.values():
        if f.kind == "field":
            cities = board.completed_cities_of_field(f)
            value = 3 * cities  # B22
        else:
            assert not f.complete, f"a completed {f.kind} at {sorted(f.tiles)} still holds figures"
            value = incomplete_value(f)
        for p in majority(inside):
            out[p][SOURCE_OF[f.kind]] += value
            if (
                f.kind == "field"
                and traders_builders == "C2"
                and any(fig[0] == p and fig[1] == "pig" for fig in inside)
            ):
                out[p]["pigs"] += cities  # TB12: 4 instead of 3 per completed city
    if traders_builders:  # TB2: 10 per goods type to each player holding the most, if any
        held = goods or [{} for _ in range(players)]
        assert len(held) == players
        for name in sorted({g for h in held for g in h}):
            best = max(h.get(name, 0) for h in held)
            if best > 0:
                for p, h in enumerate(held):
                    if h.get(name, 0) == best:
                        out[p]["goods"] += 10
    return out


# -- legality (B4, B5, B8, B9, A2, A4) ----------------------------------------------------------


def fits(board: Board, tile: str, x: int, y: int, rot: int) -> bool:
    """B4 + B5: an empty position sharing an edge with a placed tile, every shared edge
    matching."""
    if (x, y) in board.tiles:
        return False
    edges = tile_edges(board.desc(tile), rot)
    touching = False
    for e in range(4):
        dx, dy = STEP[e]
        nb = board.tiles.get((x + dx, y + dy))
        if nb is None:
            continue
        touching = True
        if nb.edges[(e + 2) % 4] != edges[e]:
            return False
    return touching


def placements(
    board: Board, tile: str, rotations: Iterable[int] | None = None
) -> set[tuple[int, int, int]]:
    """Every (x, y, rotation) that B4 and B5 allow, for the given rotations (default: the
    distinct ones)."""
    rots = distinct_rotations(board.desc(tile)) if rotations is None else list(rotations)
    spots = set()
    for x, y in board.tiles:
        for e in range(4):
            dx, dy = STEP[e]
            if (x + dx, y + dy) not in board.tiles:
                spots.add((x + dx, y + dy))
    return {(x, y, r) for (x, y) in spots for r in rots if fits(board, tile, x, y, r)}


def legal_actions(
    board: Board,
    figures: Sequence[Fig],
    supply: dict[str, int],
    *,
    player: int,
    tile: str,
    x: int,
    y: int,
    rotation: int,
    abbot_rule: bool,
    traders_builders: str | None = None,
    farmers: bool = True,
    gardens: bool = True,
) -> set[str]:
    """The actions (move text after ``X,Y ROT``) allowed with this placement:
    '' (none), 'meeple LABEL', 'abbot LABEL', 'recall AX,AY'; with Traders & Builders C3.1
    also 'meeple LABEL +builder' (TB4) and 'meeple LABEL +pig' (TB9), with C2 'builder LABEL'
    (TB8) and 'pig LABEL' (TB12); a builder never on a road or city the tile completes. Rule
    options: without ``farmers`` no figure on a field; without ``gardens`` the abbot only on a
    monastery; a builder or pig switched off is simply not in ``supply``."""
    after = board.with_tile(tile, x, y, rotation)
    occupied: set[Node] = set()  # B9 looks at meeples (builders and pigs never stand alone)
    mine: set[Node] = set()  # TB8, TB12: segments holding one of the player's meeples
    for fig in figures:
        if fig[1] in STRONG:
            occupied.add(figure_node(after, fig))
            if fig[0] == player and fig[1] == "meeple":
                mine.add(figure_node(after, fig))
    builder = traders_builders is not None and supply.get("builder", 0) > 0
    pig = traders_builders is not None and supply.get("pig", 0) > 0
    out = {""}
    for s in after.tiles[(x, y)].segs:
        f = None
        if (
            supply.get("meeple", 0) > 0
            and s.kind in MEEPLE_KINDS
            and (farmers or s.kind != "field")
        ):
            f = after.feature((x, y, s.index))
            if not (f.nodes & occupied):  # B9
                out.add(f"meeple {s.label}")
                if traders_builders == "C3.1":
                    # TB4; never on a feature the tile completes (it would return at once)
                    if builder and s.kind in ("road", "city") and not f.complete:
                        out.add(f"meeple {s.label} +builder")
                    if pig and s.kind == "field":  # TB9
                        out.add(f"meeple {s.label} +pig")
        if (
            traders_builders == "C2"
            and mine
            and ((builder and s.kind in ("road", "city")) or (pig and s.kind == "field"))
        ):
            f = f or after.feature((x, y, s.index))
            # TB8 (road, city; not one the tile completes), TB12 (field)
            if f.nodes & mine and (s.kind == "field" or not f.complete):
                out.add(f"{'pig' if s.kind == 'field' else 'builder'} {s.label}")
        if (
            abbot_rule
            and supply.get("abbot", 0) > 0
            and s.kind in CLOISTERS
            and (gardens or s.kind != "garden")
        ):  # A2
            out.add(f"abbot {s.label}")
    if abbot_rule:
        for fig in figures:
            if fig[0] == player and fig[1] == "abbot":
                f = after.feature(figure_node(after, fig))
                if not f.complete:  # A4
                    out.add(f"recall {fig[2]},{fig[3]}")
    return out
