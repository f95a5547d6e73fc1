"""Whole random games checked move by move against the independent scorer in reference.py.

After every move the engine's score breakdown must have grown by exactly what the reference
predicts from the position before the move plus the move (B12-B19, A3, A4, small_city option),
the figures left on the board must be the ones the reference expects (B11, B17), and at the end
the last move plus final scoring (B21, B22, A5) must match too. Each position's legal moves are
also compared with the reference's (B4, B5, B8, B9, A2, A4) and the segment labels of every
placed tile with the reference's labelling (docs/notation.md).

With Traders & Builders (both editions, River on and off) the same checks cover goods and pigs
as score sources (TB1, TB2, TB10-TB12), builders and pigs as figures of strength 0 (TB4, TB7-TB9,
TB12), every player's goods tokens after each move (TB1, TB3), the builder's trigger and the
double turn (TB5, TB6, TB8) and the C3.1 farmer choices after pig scoring (TB10: who decides, in
which order, scoring nothing, a returned farmer leaving the board).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carcassonne import Catalogue, Game, Rules
from carcassonne.scenario import position

import reference as ref

RULESETS = [
    Rules.base(),
    Rules(),
    Rules(small_city=True),
    Rules(river=True, abbot=False),
    Rules(river_edition="C2"),
    # Study variables: no farmers, no gardens, the strict river, other tile counts.
    Rules.base(farmers=False),
    Rules(gardens=False, river_turns="strict"),
    Rules.base(abbot=True, tiles="CAP:5,MON:0,MON_ROAD:5,CORNER_SHIELD:0"),
]
# Traders & Builders, both editions, River on and off (Abbot on with the River, off without).
TB_RULESETS = [
    Rules(traders_builders="C3.1"),
    Rules(traders_builders="C2"),
    Rules.base(traders_builders="C3.1"),
    Rules.base(traders_builders="C2"),
    # Study variables: each component switched off in one edition or the other.
    Rules.base(traders_builders="C3.1", builder=False, goods=False, farmers=False),
    Rules(traders_builders="C2", pig=False),
]
CAT = Catalogue.builtin()
# Land tiles (no river edge) of the sets these rule sets use: their placements are exact.
LAND = {
    t
    for t in CAT.tile_ids()
    if CAT.tile(t)["set"] in ("base", "traders_builders_c2", "traders_builders_c31")
    and "I" not in CAT.tile(t)["edges"]
}
FARMER_MOVES = ("keep-farmer", "return-farmer")


def _placed(g: Game) -> list[tuple[str, int, int, int]]:
    return [(p.tile, p.x, p.y, p.rotation) for p in g.board]


def _figs(g: Game) -> list[ref.Fig]:
    return [(f.player, f.role, f.x, f.y, f.segment) for f in g.figures()]


def _held(goods: dict[str, int]) -> dict[str, int]:
    """Goods tokens held, without the kinds held 0 times."""
    return {k: v for k, v in goods.items() if v}


def _delta(after: list[dict], before: list[dict]) -> list[dict]:
    """Points gained by source, over every source the engine reports."""
    return [{k: a[k] - b.get(k, 0) for k in a} for a, b in zip(after, before, strict=True)]


def _pad(want: list[dict], got: list[dict]) -> list[dict]:
    """The reference's points with a 0 for every other source the engine reports (none of
    which can score under the rules tested here)."""
    return [{**dict.fromkeys(g, 0), **w} for w, g in zip(want, got, strict=True)]


def _context(g: Game) -> str:
    rec = g.record()
    return (
        f"\nrules={g.rules!r} players={g.players} seed={g.seed}\n"
        f"moves so far ({len(rec['moves'])}): {json.dumps(rec['moves'])}"
    )


def _move_text(x: int, y: int, rot: int, action: str) -> str:
    return f"{x},{y} {rot}" + (f" {action}" if action else "")


def check_legal_moves(g: Game, board: ref.Board, figs: list[ref.Fig]) -> None:
    """The engine's legal moves against the reference's (land tiles: the exact set; river
    tiles: placements must at least satisfy B4/B5, figure options exactly)."""
    tile = g.tile
    engine = {str(m) for m in g.legal_moves}
    assert engine, f"no legal move for {tile}{_context(g)}"
    spots = {(m.x, m.y, m.rotation) for m in g.legal_moves}
    # The catalogue's rotations are checked in test_rotations_of_every_tile.
    allowed = ref.placements(board, tile, CAT.tile(tile)["rotations"])
    if tile in LAND:
        assert spots == allowed, (
            f"placements of {tile}: engine-only {sorted(spots - allowed)}, "
            f"reference-only {sorted(allowed - spots)}{_context(g)}"
        )
    else:
        assert spots <= allowed, (
            f"river placements of {tile} breaking B4/B5: {sorted(spots - allowed)}{_context(g)}"
        )
    supply = g.supply(g.turn)
    expected = set()
    for x, y, r in spots:
        for a in ref.legal_actions(
            board,
            figs,
            supply,
            player=g.turn,
            tile=tile,
            x=x,
            y=y,
            rotation=r,
            abbot_rule=g.rules.abbot,
            traders_builders=g.rules.traders_builders,
            farmers=g.rules.farmers,
            gardens=g.rules.gardens,
        ):
            expected.add(_move_text(x, y, r, a))
    assert engine == expected, (
        f"legal moves of {tile}: engine-only {sorted(engine - expected)}, "
        f"reference-only {sorted(expected - engine)}{_context(g)}"
    )


STYLES = ("uniform", "sparing", "greedy", "greedy-no-farmers", "compact", "mixed")


def _gain(g: Game, m) -> int:
    h = g.copy()
    h.play(m)
    return h.scores[g.turn] - g.scores[g.turn]


def choose_move(g: Game, rnd, style: str):
    """A random legal move, by style. ``uniform``: any; ``sparing``: mostly no figure, so
    that figures stay available; ``greedy``: a move that scores most for the mover now (ties
    at random, preferring to place a figure), so that features get completed while occupied;
    ``greedy-no-farmers``: the same, never placing farmers (they never come back); ``compact``:
    a placement with the most tiles around it, so that monasteries and gardens get surrounded
    and occupied features merge (ties, B16); ``mixed``: one of the others at each move."""
    if style == "mixed":
        style = rnd.choice(STYLES[:-1])
    legal = g.legal_moves
    if g.decision == "farmer":  # TB10: keep or take back the farmer, nothing else
        return rnd.choice(legal)
    if style == "uniform":
        return rnd.choice(legal)
    if style == "sparing":
        passes = [m for m in legal if m.action == "pass"]
        return rnd.choice(passes if passes and rnd.random() < 0.8 else legal)
    if style == "compact":

        def around(m) -> int:
            return sum(
                g.tile_at(m.x + dx, m.y + dy) is not None for dx in (-1, 0, 1) for dy in (-1, 0, 1)
            )

        most = max(map(around, legal))
        pool = [m for m in legal if around(m) == most]
        figure = [m for m in pool if m.action != "pass" and m.feature != "field"]
        return rnd.choice(figure if figure and rnd.random() < 0.7 else pool)
    if style == "greedy-no-farmers":
        legal = [m for m in legal if m.feature != "field"] or legal
    best, pool = None, []
    for m in legal:
        gain = _gain(g, m)
        if best is None or gain > best:
            best, pool = gain, [m]
        elif gain == best:
            pool.append(m)
    if best == 0 and rnd.random() < 0.5:
        pool = [m for m in pool if m.action != "pass"] or pool
    return rnd.choice(pool)


def _feature_rows(board: ref.Board, figs: list[ref.Fig]) -> list[tuple]:
    # The engine lists builders and pigs apart from features (Game.figures()).
    figs = [f for f in figs if f[1] in ref.STRONG]
    node_of = {f: ref.figure_node(board, f) for f in figs}
    rows = []
    for f in board.all_features():
        if f.kind == "river":
            continue
        inside = tuple(sorted(fig for fig in figs if node_of[fig] in f.nodes))
        cities = board.completed_cities_of_field(f) if f.kind == "field" else None
        opened = f.open_ports if f.kind in ("road", "city") else None
        rows.append((f.kind, tuple(sorted(f.tiles)), f.complete, f.arms, opened, inside, cities))
    return sorted(rows)


def check_features_against(g: Game, board: ref.Board, figs: list[ref.Fig]) -> None:
    """Every feature the engine reports against the reference's flood fill: kind, tiles,
    completeness, open edges (roads, cities), coats of arms, figures, and for fields the
    number of completed cities beside (B22)."""
    engine = sorted(
        (
            f.kind,
            tuple(sorted(f.tiles)),
            f.complete,
            f.arms,
            f.open_edges if f.kind in ("road", "city") else None,
            tuple(sorted(f.figures)),
            f.completed_cities if f.kind == "field" else None,
        )
        for f in g.features()
        if f.kind != "river"
    )
    want = _feature_rows(board, figs)
    assert engine == want, (
        f"features: engine-only {sorted(set(engine) - set(want))}, reference-only "
        f"{sorted(set(want) - set(engine))}{_context(g)}"
    )


class Checker:
    """Plays moves on a game, checking each one against the reference.

    Besides the figures, it keeps what the reference needs across moves: every player's goods
    tokens (TB1), the C3.1 farmer choices still owed after pig scoring (TB10) and whether the
    current turn part is the second part of a double turn (TB6)."""

    def __init__(self, g: Game) -> None:
        self.g = g
        self.cat = g.catalogue
        self.tb = g.rules.traders_builders
        self.expected_figs: list[ref.Fig] = _figs(g)
        self.goods: list[dict[str, int]] = [{} for _ in range(g.players)]
        self.farmers: list[ref.Fig] = []  # farmer choices owed, in order (TB10)
        self.mover: int | None = None  # who placed the tile of the current turn part
        self.second = False  # the current turn part is the second of a double turn (TB6)
        self.again = False  # the current turn part gives one more (TB6)
        self.triggered = False  # the current turn part triggered the mover's builder
        self.moves = 0
        self.events: dict[str, int] = {}  # what the game covered, for the caller

    def _count(self, event: str, n: int = 1) -> None:
        if n:
            self.events[event] = self.events.get(event, 0) + n

    def position(self, check_legal: bool = True) -> None:
        """Checks of the position before a move: figures, legal moves (for a farmer choice:
        who decides and the two answers)."""
        g = self.g
        figs = _figs(g)
        assert sorted(figs) == sorted(self.expected_figs), (
            f"figures on the board: engine {sorted(figs)}, reference "
            f"{sorted(self.expected_figs)}{_context(g)}"
        )
        self._check_supply(figs)
        if g.decision == "farmer":
            assert self.farmers, f"a farmer choice the reference does not expect{_context(g)}"
            assert g.turn == self.farmers[0][0], (
                f"farmer choice by player {g.turn}, reference: the owner of "
                f"{self.farmers[0]}{_context(g)}"
            )
            assert {str(m) for m in g.legal_moves} == set(FARMER_MOVES), _context(g)
            return
        assert not self.farmers, (
            f"decision {g.decision.value}, reference: farmer choices owed for "
            f"{self.farmers}{_context(g)}"
        )
        if check_legal:
            check_legal_moves(g, ref.Board(_placed(g), self.cat), figs)

    def _check_supply(self, figs: list[ref.Fig]) -> None:
        """Every figure not on the board is in its owner's supply (B1, A1, TB components;
        B17, TB4, TB9, TB10: figures that left the board went back), except a C3.1 builder
        triggered in this turn part: it waits beside the tile supply until the part ends
        (TB5, TB6); only a farmer choice can come before that end."""
        g = self.g
        for p in range(g.players):
            want = {"meeple": 7}
            if g.rules.abbot:
                want["abbot"] = 1
            if self.tb:
                want |= {"builder": 1} if g.rules.builder else {}
                want |= {"pig": 1} if g.rules.pig else {}
            for f in figs:
                if f[0] == p:
                    want[f[1]] -= 1
            if self.tb == "C3.1" and g.decision == "farmer" and self.triggered and p == self.mover:
                want["builder"] -= 1
            assert g.supply(p) == want, (
                f"supply of player {p}: engine {g.supply(p)}, reference {want}{_context(g)}"
            )

    def step(self, move, check_features: bool = True) -> list[dict[str, int]]:
        """Play ``move`` (a Move or its text) and check the points it scores (and final
        scoring when it ends the game) against the reference. Returns the engine's delta."""
        g = self.g
        if isinstance(move, str):
            move = g.parse_move(move)
        placed = _placed(g)
        figs = _figs(g)
        players = g.players
        text = str(move)
        before = g.breakdown
        if text in FARMER_MOVES:
            # TB10: the first owed choice, by the farmer's owner; it scores nothing.
            assert self.farmers, f"farmer choice {text!r} the reference does not expect"
            farmer = self.farmers.pop(0)
            player = farmer[0]
            assert g.turn == player, f"farmer choice by {g.turn}, not {player}{_context(g)}"
            take_back = text == "return-farmer"
            out = ref.MoveOutcome(ref.zero(players), ref.farmer_choice(figs, farmer, take_back), [])
            after_placed = placed
            self._count(text)
        else:
            assert not self.farmers, f"a tile placed while farmer choices are owed{_context(g)}"
            player = g.turn
            out = ref.score_move(
                placed,
                self.cat,
                figs,
                player=player,
                players=players,
                tile=move.tile,
                x=move.x,
                y=move.y,
                rotation=move.rotation,
                action=move.action,
                segment=move.segment,
                target=move.target,
                small_city=g.rules.small_city,
                traders_builders=self.tb,
                goods_rule=g.rules.goods,
            )
            after_placed = placed + [(move.tile, move.x, move.y, move.rotation)]
            for k, n in out.goods.items():  # TB1, TB3: the mover takes them
                self.goods[player][k] = self.goods[player].get(k, 0) + n
            self.farmers = list(out.farmers)
            self.mover = player
            self.triggered = out.triggered
            self.again = out.triggered and not self.second  # TB6: one extra part at most
            self._count("goods tokens", sum(out.goods.values()))
            self._count("pig scorings", len(out.farmers))
            self._count("builder triggers", out.triggered)
            self._count("double turns", self.again)
            self._count("builder triggers in a second part", out.triggered and self.second)
            self._count("several pigs scoring at once", len(out.farmers) > 1)
            self._count(move.action)
        g.play(move)
        self.moves += 1
        got = _delta(g.breakdown, before)
        for p in range(players):
            assert _held(g.goods(p)) == _held(self.goods[p]), (
                f"goods of player {p} after {text!r}: engine {_held(g.goods(p))}, reference "
                f"{_held(self.goods[p])}{_context(g)}"
            )
        if g.is_over():
            assert not self.farmers, f"game over with farmer choices owed{_context(g)}"
            final = ref.score_final(
                after_placed,
                self.cat,
                out.figures,
                players=players,
                traders_builders=self.tb,
                goods=self.goods,
            )
            want = _pad(ref.add(out.delta, final), got)
            assert got == want, (
                f"last move {text!r} by player {player} + final scoring: engine {got}, "
                f"reference {want} (move {out.delta}, final {final}){_context(g)}"
            )
            assert g.scores == [sum(b.values()) for b in g.breakdown]
            self._count("C2 pig bonus", sum(p["pigs"] for p in final))
            self._count("game ends on a farmer choice", text in FARMER_MOVES)
            self._count("goods majorities", sum(p["goods"] for p in final) // 10)
        else:
            assert got == _pad(out.delta, got), (
                f"move {text!r} by player {player}: engine scored {got}, reference "
                f"{out.delta}; completed {[(f.kind, sorted(f.tiles)) for f in out.completed]}"
                f"{_context(g)}"
            )
            if text not in FARMER_MOVES:
                after = ref.Board(after_placed, self.cat)
                assert sorted(g.labels(move.x, move.y)) == sorted(after.labels(move.x, move.y)), (
                    f"labels at {move.x},{move.y}{_context(g)}"
                )
                if check_features:
                    check_features_against(g, after, out.figures)
            self._check_turn(text)
        self.expected_figs = out.figures
        return got

    def _check_turn(self, text: str) -> None:
        """Who moves next: a pig's owner while farmer choices are owed (TB10), else the same
        player again after a triggered builder's first part (TB6), else the next player."""
        g = self.g
        if self.farmers:
            assert g.decision == "farmer" and g.turn == self.farmers[0][0], (
                f"after {text!r}: decision {g.decision.value} by player {g.turn}, reference: "
                f"farmer choice for {self.farmers[0]}{_context(g)}"
            )
            assert g.active_player == self.mover, _context(g)
            want = "builder triggered" if self.again else ("second part" if self.second else None)
            assert g.double_turn == want, (
                f"after {text!r}: double_turn {g.double_turn!r}, reference {want!r}{_context(g)}"
            )
            return
        assert g.decision != "farmer", (
            f"after {text!r}: a farmer choice the reference does not expect{_context(g)}"
        )
        if self.again:
            assert g.active_player == self.mover and g.double_turn == "second part", (
                f"after {text!r}: player {g.active_player} moves ({g.double_turn!r}), "
                f"reference: player {self.mover} again, second part (TB6){_context(g)}"
            )
        else:
            nxt = (self.mover + 1) % g.players
            assert g.active_player == nxt and g.double_turn is None, (
                f"after {text!r}: player {g.active_player} moves ({g.double_turn!r}), "
                f"reference: player {nxt}{_context(g)}"
            )
        self.second = self.again
        self.again = False


def play_checked(rules: Rules, players: int, seed: int, rnd, style: str) -> Checker:
    """Play one random game checking every position and move; returns the checker (moves,
    events covered)."""
    c = Checker(Game(rules, players=players, seed=seed))
    while not c.g.is_over():
        c.position()
        c.step(choose_move(c.g, rnd, style))
    return c


def play_and_check(rules: Rules, players: int, seed: int, rnd, style: str) -> int:
    """Play one random game checking every position and move; returns the number of moves."""
    return play_checked(rules, players, seed, rnd, style).moves


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULESETS),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**64 - 1),
    rnd=st.randoms(use_true_random=False),
    style=st.sampled_from(STYLES),
)
def test_every_move_scores_like_the_reference(rules, players, seed, rnd, style):
    play_and_check(rules, players, seed, rnd, style)


@pytest.mark.parametrize("rules", RULESETS, ids=repr)
@pytest.mark.parametrize("style", STYLES)
def test_fixed_games(rules, style):
    """A few fixed games, so that a plain run always covers every rule set and style."""
    n = STYLES.index(style)
    play_and_check(rules, 2 + n % 5, 1000 + n, random.Random(n), style)


def _turned(desc: dict, rot: int, items: bool) -> frozenset:
    """A tile turned ``rot``, as the set of its segments (kind, ports, arms, cities, ...)."""
    raw = desc["segments"]
    out = []
    for s in raw:

        def turn(ports):
            return frozenset(ref.rotate_port(p, rot) for p in ports)

        out.append(
            (
                s["kind"],
                turn(s["ports"]),
                s["arms"],
                frozenset(turn(raw[c]["ports"]) for c in s["cities"]),
                turn(raw[s["road"]]["ports"]) if s["road"] is not None else None,
                tuple(sorted(s["items"].items())) if items else (),
                s["end"],
                s.get("goods"),
            )
        )
    return frozenset(out)


@pytest.mark.parametrize("tile", CAT.tile_ids())
def test_rotations_of_every_tile(tile):
    """Legal moves offer each tile's rotations from the catalogue (docs/notation.md: only the
    distinct ones). Every rotation must be offered unless an offered one gives the same tile
    for the rules (segments, ports, arms, cities, ends, garden road); and two offered
    rotations never give the very same tile (illustrations included). Whether two rotations
    that differ only by where an illustration stands count as one is left to the engine (no
    rule here looks at illustrations)."""
    desc = CAT.tile(tile)
    offered = desc["rotations"]
    assert offered and offered == sorted(set(offered)) and set(offered) <= {0, 90, 180, 270}
    assert 0 in offered
    for r in (0, 90, 180, 270):
        assert any(_turned(desc, r, False) == _turned(desc, o, False) for o in offered), (
            f"rotation {r} of {tile} is neither offered nor equivalent to an offered one"
        )
    physical = [_turned(desc, o, True) for o in offered]
    assert len(set(physical)) == len(physical), f"{tile} offers the same tile twice"
    assert offered == ref.distinct_rotations(desc) or offered == ref.distinct_rotations(
        desc, items=False
    )


def test_reference_scorer_by_hand():
    """The reference itself on small hand-built positions (so that agreement with the engine
    is not agreement of two wrong scorers)."""
    placed = [("CAP_ROAD_WE", 0, 0, 0)]
    # A CAP turned 180 north of the start tile closes a two-tile city: 4 points (B13).
    out = ref.score_move(
        placed,
        CAT,
        [(0, "meeple", 0, 0, "city:N")],
        player=1,
        players=2,
        tile="CAP",
        x=0,
        y=1,
        rotation=180,
    )
    assert out.delta[0]["cities"] == 4 and out.figures == []
    # small_city: 1 per tile (C1 rule).
    out = ref.score_move(
        placed,
        CAT,
        [(0, "meeple", 0, 0, "city:N")],
        player=1,
        players=2,
        tile="CAP",
        x=0,
        y=1,
        rotation=180,
        small_city=True,
    )
    assert out.delta[0]["cities"] == 2
    # A shielded corner never closes the cap alone; final: 2 tiles + 1 arms = 3 (B21).
    out = ref.score_move(
        placed,
        CAT,
        [],
        player=1,
        players=2,
        tile="CORNER_SHIELD",
        x=0,
        y=1,
        rotation=270,
        action="meeple",
        segment="city:S",
    )
    assert out.delta == ref.zero(2) and out.figures == [(1, "meeple", 0, 1, "city:S")]
    final = ref.score_final(placed + [("CORNER_SHIELD", 0, 1, 270)], CAT, out.figures, players=2)
    assert final[1]["cities"] == 3
    # Road: the start tile's road closed by villages on both sides: 3 tiles, tied thieves.
    figs = [(0, "meeple", 0, 0, "road:E")]
    out = ref.score_move(
        placed + [("CROSS3", 1, 0, 0)],
        CAT,
        figs,
        player=1,
        players=2,
        tile="CROSS3",
        x=-1,
        y=0,
        rotation=0,
        action="meeple",
        segment="road:E",
    )
    assert [d["roads"] for d in out.delta] == [3, 3] and out.figures == []
    # Farmer beside a completed city: 3 points at the end (B22).
    closed = placed + [("CAP", 0, 1, 180)]
    final = ref.score_final(closed, CAT, [(1, "meeple", 0, 0, "field:ENE")], players=2)
    assert final[1]["fields"] == 3
    # The other field of the start tile touches no city.
    final = ref.score_final(closed, CAT, [(1, "meeple", 0, 0, "field:ESE")], players=2)
    assert final[1]["fields"] == 0
    # Monastery surrounded on 8 sides: 9 (B15); its incomplete value is 1 + neighbours.
    ring = [("MON", 0, 0, 0)] + [("MON", x, y, 0) for x, y in ref.neighbours8(0, 0)][:-1]
    last = ref.neighbours8(0, 0)[-1]
    figs = [(0, "abbot", 0, 0, "monastery")]
    b = ref.Board(ring, CAT)
    assert b.feature((0, 0, 0)).around == 8
    out = ref.score_move(
        ring, CAT, figs, player=1, players=2, tile="MON", x=last[0], y=last[1], rotation=0
    )
    assert out.delta[0]["monasteries"] == 9 and out.figures == []
    # Majority (B16): two thieves of player 1 against one of player 0.
    figs = [
        (0, "meeple", 0, 0, "road:E"),
        (1, "meeple", 1, 0, "road:W"),
        (1, "meeple", -1, 0, "road:E"),
    ]
    assert ref.majority(figs) == [1]
    assert ref.majority(figs[:2]) == [0, 1]


# -- scenarios with chosen tiles (chance="manual"), checked against the reference and by hand --


def _manual(rules: Rules, players: int = 2) -> Checker:
    return Checker(position(rules, players))


def _play(c: Checker, tile: str, text: str) -> list[dict[str, int]]:
    assert c.g.draw(tile), f"{tile} fits nowhere"
    c.position()
    return c.step(text)


def test_scenario_tied_thieves_on_a_merged_road():
    """Two roads, one thief each, joined and closed: 7 tiles, both score 7 (B12, B16, B17)."""
    c = _manual(Rules.base())
    _play(c, "ROAD_WE", "1,0 0 meeple road:E")
    _play(c, "CROSS3", "0,-1 0 meeple road:E")
    _play(c, "ROAD_WE", "1,-1 0")
    _play(c, "ROAD_CURVE_SW", "2,0 0")
    d = _play(c, "ROAD_CURVE_SW", "2,-1 90")  # joined, still open
    assert not any(v for p in d for v in p.values())
    d = _play(c, "CROSS3", "-1,0 0")
    assert [p["roads"] for p in d] == [7, 7] and sum(map(sum, (p.values() for p in d))) == 14
    assert c.g.figures() == [] and c.g.supply(0)["meeple"] == 7 == c.g.supply(1)["meeple"]


def test_scenario_abbot_recall_counts_the_new_tile():
    """A4: recalling scores 1 + surrounding tiles, the tile just placed included."""
    c = _manual(Rules.base(abbot=True))
    _play(c, "CAP.garden", "0,-1 180 abbot garden")
    _play(c, "MON", "1,-1 0")
    d = _play(c, "ROAD_WE", "1,0 0 recall 0,-1")  # (0,0), (1,0), (1,-1) + itself
    assert d[0]["gardens"] == 4 and sum(d[0].values()) == 4 and not any(d[1].values())
    assert c.g.supply(0) == {"meeple": 7, "abbot": 1}


@pytest.mark.parametrize("completer", [0, 1])
def test_scenario_garden_completed(completer):
    """A3: the garden's 8th neighbour gives the abbot's owner 9, whoever places it; when the
    owner places it, that placement offers no recall of the abbot (A4), others do."""
    c = _manual(Rules.base(abbot=True))
    seq = [
        ("CAP.garden", "0,-1 180 abbot garden"),
        ("ROAD_WE", "1,0 0"),
        ("ROAD_WE", "-1,0 0"),
        ("MON", "1,-1 0"),
        ("MON", "-1,-1 0"),
        ("MON.farmhouse", "-1,-2 0"),
        ("CAP", "0,-2 0"),
    ]
    if completer == 0:
        seq.append(("MON.shed", "-2,-1 0"))  # out of the garden's 3x3
    for tile, text in seq:
        _play(c, tile, text)
    assert c.g.draw("MON_ROAD")
    assert c.g.turn == completer
    c.position()
    if completer == 0:
        recalls = {(m.x, m.y) for m in c.g.legal_moves if m.action == "recall"}
        assert recalls and (1, -2) not in recalls
    d = c.step("1,-2 0")
    assert d[0]["gardens"] == 9 and sum(d[0].values()) == 9 and not any(d[1].values())
    assert c.g.figures() == []


# -- Traders & Builders: both editions, River on and off -----------------------------------------


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(TB_RULESETS),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**64 - 1),
    rnd=st.randoms(use_true_random=False),
    style=st.sampled_from(STYLES),
)
def test_traders_builders_every_move_scores_like_the_reference(rules, players, seed, rnd, style):
    play_and_check(rules, players, seed, rnd, style)


# Fixed T&B games: every rule set and style, plus two games found for rare events: the last
# tile makes pigs score, so the game ends on a farmer choice (TB10, B20); a C2 builder extended
# again in the second part of a double turn gives no third part (TB6, TB8).
TB_FIXED = [
    (rules, style, 2 + n % 5, 1000 + n + 100 * i, n)
    for i, rules in enumerate(TB_RULESETS)
    for n, style in enumerate(STYLES)
]
TB_FIXED += [
    (Rules.base(traders_builders="C3.1"), "uniform", 2, 5369, 0),
    (Rules.base(traders_builders="C2"), "compact", 2, 6004, 0),
]
_TB_EVENTS: dict[int, dict[str, int]] = {}  # fixed game index -> events it covered


def _tb_fixed(k: int) -> dict[str, int]:
    if k not in _TB_EVENTS:
        rules, style, players, seed, n = TB_FIXED[k]
        _TB_EVENTS[k] = play_checked(rules, players, seed, random.Random(n), style).events
    return _TB_EVENTS[k]


@pytest.mark.parametrize(
    "k",
    range(len(TB_FIXED)),
    ids=[f"{r.traders_builders}-river={r.river}-{s}-{p}p-{seed}" for r, s, p, seed, _ in TB_FIXED],
)
def test_traders_builders_fixed_games(k):
    _tb_fixed(k)


TB_EVENTS = {
    "C3.1": [
        "meeple+builder",
        "meeple+pig",
        "builder triggers",
        "double turns",
        "goods tokens",
        "goods majorities",
        "pig scorings",
        "several pigs scoring at once",
        "keep-farmer",
        "return-farmer",
        "game ends on a farmer choice",
    ],
    "C2": [
        "builder",
        "pig",
        "builder triggers",
        "double turns",
        "builder triggers in a second part",
        "goods tokens",
        "goods majorities",
        "C2 pig bonus",
    ],
}


@pytest.mark.parametrize("edition", TB_EVENTS)
def test_traders_builders_fixed_games_cover_every_rule(edition):
    """The fixed games together meet every T&B event the checks above look at, so that a
    plain run never passes by missing them (games not yet played here are played now)."""
    seen: dict[str, int] = {}
    for k, (rules, *_) in enumerate(TB_FIXED):
        if rules.traders_builders == edition:
            for e, n in _tb_fixed(k).items():
                seen[e] = seen.get(e, 0) + n
    missing = [e for e in TB_EVENTS[edition] if not seen.get(e)]
    assert not missing, f"{edition}: no fixed game covers {missing} (covered: {seen})"


def test_reference_scorer_by_hand_traders_builders():
    """The T&B parts of the reference on hand-built positions. The start tile's city (0,0),
    a shielded corner north of it (0,1) and a goods corner (-1,1) are closed by a start-tile
    copy at (-1,0): 4 tiles + 1 coat of arms = 10 (B13), one chicken (TB1)."""
    placed = [
        ("CAP_ROAD_WE", 0, 0, 0),
        ("CORNER_SHIELD", 0, 1, 270),
        ("TB3_12_cNWspur_rE_chicken", -1, 1, 180),
    ]
    figs = [
        (0, "meeple", 0, 0, "city:N"),
        (0, "builder", 0, 0, "city:N"),
        (1, "meeple", 0, 0, "road:E"),
        (1, "builder", 0, 0, "road:E"),
        (1, "meeple", 0, 0, "field:ENE"),
        (1, "pig", 0, 0, "field:ENE"),
        (0, "meeple", 0, 0, "field:ESE"),
        (0, "pig", 0, 0, "field:ESE"),
    ]
    out = ref.score_move(
        placed,
        CAT,
        figs,
        player=1,
        players=2,
        tile="CAP_ROAD_WE",
        x=-1,
        y=0,
        rotation=0,
        traders_builders="C3.1",
    )
    # The knight scores (its builder adds nothing, TB7); the mover takes the chicken (TB1);
    # the mover's builder is triggered by the road and leaves the board (TB5); pigs score after
    # the coat-of-arms city, the mover's first (TB10): 3 for the field beside the city, 0 for
    # the field south of the road; both farmers wait for their owner's choice.
    assert out.delta[0] == {**ref.zero(1)[0], "cities": 10}
    assert out.delta[1] == {**ref.zero(1)[0], "pigs": 3}
    assert out.goods == {"chicken": 1} and out.triggered
    assert out.farmers == [(1, "meeple", 0, 0, "field:ENE"), (0, "meeple", 0, 0, "field:ESE")]
    assert sorted(out.figures) == sorted([(1, "meeple", 0, 0, "road:E"), *out.farmers])
    assert ref.farmer_choice(out.figures, out.farmers[0], True) == [
        (1, "meeple", 0, 0, "road:E"),
        (0, "meeple", 0, 0, "field:ESE"),
    ]
    assert ref.farmer_choice(out.figures, out.farmers[0], False) == out.figures
    # Without a coat of arms no pig scores (8 for the city); with the mover 0, its builder in
    # the city is the one triggered, and the pig order starts with 0.
    plain = [("CAP_ROAD_WE", 0, 0, 0), ("CORNER", 0, 1, 270), placed[2]]
    out = ref.score_move(
        plain,
        CAT,
        figs,
        player=0,
        players=2,
        tile="CAP_ROAD_WE",
        x=-1,
        y=0,
        rotation=0,
        traders_builders="C3.1",
    )
    assert out.farmers == [] and out.goods == {"chicken": 1} and out.delta[0]["cities"] == 8
    assert out.triggered and (1, "builder", 0, 0, "road:E") in out.figures
    out = ref.score_move(
        placed,
        CAT,
        figs,
        player=0,
        players=2,
        tile="CAP_ROAD_WE",
        x=-1,
        y=0,
        rotation=0,
        traders_builders="C3.1",
    )
    assert [f[0] for f in out.farmers] == [0, 1]
    # C2: the builder stands beside the road and stays when triggered (TB8); no pig scoring.
    out = ref.score_move(
        placed,
        CAT,
        figs,
        player=1,
        players=2,
        tile="CAP_ROAD_WE",
        x=-1,
        y=0,
        rotation=0,
        traders_builders="C2",
    )
    assert out.triggered and (1, "builder", 0, 0, "road:E") in out.figures
    assert out.farmers == [] and out.delta[1]["pigs"] == 0
    # C2 final (TB12): the farmer's owner wins the field beside the city: 3 + 1 with the pig;
    # tied, both score 3 and the pig's owner 1 more; outnumbered, nothing.
    closed = placed + [("CAP_ROAD_WE", -1, 0, 0)]
    farm = [(0, "meeple", 0, 0, "field:ENE"), (0, "pig", 0, 0, "field:ENE")]
    final = ref.score_final(closed, CAT, farm, players=2, traders_builders="C2")
    assert final[0]["fields"] == 3 and final[0]["pigs"] == 1
    tie = farm + [(1, "meeple", -1, 0, "field:ENE")]
    final = ref.score_final(closed, CAT, tie, players=2, traders_builders="C2")
    assert [(p["fields"], p["pigs"]) for p in final] == [(3, 1), (3, 0)]
    lose = tie + [(1, "meeple", 1, 0, "field:NNW")]  # on a road east of the start tile
    final = ref.score_final(
        closed + [("ROAD_WE", 1, 0, 0)], CAT, lose, players=2, traders_builders="C2"
    )
    assert [(p["fields"], p["pigs"]) for p in final] == [(0, 0), (3, 0)]
    # C3.1: a pig scores nothing at the end (TB11).
    final = ref.score_final(closed, CAT, farm, players=2, traders_builders="C3.1")
    assert final[0]["fields"] == 3 and final[0]["pigs"] == 0
    # TB2: 10 per kind to each player with the most; a kind nobody holds scores nothing.
    goods = [{"wine": 2, "grain": 1}, {"wine": 2, "cloth": 0}, {"cloth": 1}]
    final = ref.score_final(
        [("CAP_ROAD_WE", 0, 0, 0)], CAT, [], players=3, traders_builders="C2", goods=goods
    )
    assert [p["goods"] for p in final] == [20, 10, 10]
    # Legal actions: C3.1 builder with a thief or knight, pig with a farmer (TB4, TB9); C2
    # builder or pig only where the player already has a meeple (TB8, TB12).
    board = ref.Board([("CAP_ROAD_WE", 0, 0, 0)], CAT)
    full = {"meeple": 7, "builder": 1, "pig": 1}
    acts = ref.legal_actions(
        board,
        [],
        full,
        player=0,
        tile="CORNER_SHIELD",
        x=0,
        y=1,
        rotation=270,
        abbot_rule=False,
        traders_builders="C3.1",
    )
    assert acts == {
        "",
        "meeple city:S",
        "meeple city:S +builder",
        "meeple field:NNW",
        "meeple field:NNW +pig",
    }
    knight = [(0, "meeple", 0, 0, "city:N")]
    for player, want in (
        (0, {"", "meeple field:NNW", "builder city:S"}),
        (1, {"", "meeple field:NNW"}),
    ):
        acts = ref.legal_actions(
            board,
            knight,
            full,
            player=player,
            tile="CORNER_SHIELD",
            x=0,
            y=1,
            rotation=270,
            abbot_rule=False,
            traders_builders="C2",
        )
        assert acts == want


def test_scenario_traders_builders_c31_double_turn_goods_pigs_farmer_choices():
    """C3.1, checked move by move against the reference and by hand: the tile that closes a
    coat-of-arms goods city also extends the mover's builder road (TB1, TB5, TB6, TB10)."""
    c = _manual(Rules.base(traders_builders="C3.1"))
    _play(c, "CORNER_SHIELD", "0,1 270 meeple city:S +builder")  # 0: knight + builder
    _play(c, "ROAD_WE", "1,0 0 meeple road:E +builder")  # 1: thief + builder
    _play(c, "ROAD_WE", "2,0 0 meeple field:ESE +pig")  # 0: south of the road, no city
    _play(c, "TB3_12_cNWspur_rE_chicken", "-1,1 180 meeple field:NNW +pig")  # 1: beside the city
    _play(c, "ROAD_WE", "3,0 0")  # 0: extends 1's road, no trigger for 0
    assert c.g.double_turn is None
    d = _play(c, "CAP_ROAD_WE", "-1,0 0")  # 1 closes the city and extends its road
    assert d[0]["cities"] == 10 and d[1]["pigs"] == 3 and d[0]["pigs"] == 0
    assert sum(map(sum, (p.values() for p in d))) == 13
    assert c.g.goods(1)["chicken"] == 1 and c.g.goods(0)["chicken"] == 0
    assert c.g.decision == "farmer" and c.g.turn == 1 and c.g.active_player == 1
    assert c.g.double_turn == "builder triggered"
    c.position()
    assert not any(v for p in c.step("return-farmer") for v in p.values())
    assert c.g.turn == 0
    c.position()
    c.step("keep-farmer")
    assert c.g.active_player == 1 and c.g.double_turn == "second part"
    assert c.g.supply(1)["builder"] == 1 and c.g.supply(1)["pig"] == 1
    assert {(f.player, f.role) for f in c.g.figures()} == {(1, "meeple"), (0, "meeple")}
    _play(c, "ROAD_WE.robbers", "4,0 0")  # extends 1's road again: no third part
    assert c.g.active_player == 0 and c.g.double_turn is None


def test_scenario_traders_builders_c2_builders_beside_and_second_part_trigger():
    """C2, checked move by move against the reference and by hand: builders stand beside
    their owner's features; the one in the completed city returns, the road's stays and gives
    one extra part at most (TB1, TB8, TB12)."""
    c = _manual(Rules.base(traders_builders="C2"))
    _play(c, "CORNER_SHIELD", "0,1 270 meeple city:S")  # 0: knight
    _play(c, "ROAD_WE", "1,0 0 meeple road:E")  # 1: thief
    _play(c, "TB2_02_cNW_wine", "-1,1 180 builder city:E")  # 0: builder beside the city
    _play(c, "ROAD_WE", "2,0 0 builder road:E")  # 1: placing never triggers
    assert c.g.active_player == 0 and c.g.double_turn is None
    d = _play(c, "CAP_ROAD_WE", "-1,0 0 meeple field:ENE")  # 0 closes its builder's city
    assert d[0]["cities"] == 10 and sum(map(sum, (p.values() for p in d))) == 10
    assert c.g.goods(0)["wine"] == 1 and c.g.supply(0)["builder"] == 1
    assert c.g.active_player == 0 and c.g.double_turn == "second part"
    _play(c, "CAP_ROAD_WE.shed", "-2,0 0 pig field:ENE")  # 0: pig beside its own farmer
    assert c.g.active_player == 1 and c.g.double_turn is None
    _play(c, "ROAD_WE", "3,0 0")  # 1 extends its builder's road: a second part
    assert c.g.active_player == 1 and c.g.double_turn == "second part"
    _play(c, "ROAD_WE.robbers", "4,0 0")  # ... and again: no third
    assert c.g.active_player == 0 and c.g.double_turn is None
    assert (1, "builder", 2, 0, "road:E") in _figs(c.g)
