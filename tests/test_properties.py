"""Whole-game property tests across rule sets (base, River + Abbot, small city, River alone).

Random games (seed, player count, rule set and every move choice drawn by hypothesis) must:
raise nothing; conserve figures (B1, A1) and tiles (B1, R1, B7) at every step; never lower a
score; accept every legal move (on a copy, leaving the original untouched); refuse mutated
illegal moves and garbage text without changing the game; replay identically from their
record; be restored exactly by pop(). Native batch simulation must not depend on the thread
count or on chunking.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carcassonne import (
    Catalogue,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Results,
    Rules,
    simulate,
    simulate_chunks,
)

import reference as ref

RULESETS = [
    Rules.base(),
    Rules(),
    Rules(small_city=True),
    Rules(river=True, abbot=False),
    Rules(river_edition="C2"),
    # Study variables on and off: no farmers, no gardens, the strict river, tile counts.
    Rules.base(farmers=False),
    Rules(gardens=False, river_turns="strict", river_start="discard"),
    Rules.base(abbot=True, tiles="CAP:4,MON:0,ROAD_WE:6"),
]
CAT = Catalogue.builtin()
REFUSED = (IllegalMoveError, InvalidMoveError)
MEEPLES = 7


COUNTS = {t: (CAT.tile(t)["set"], CAT.tile(t)["count"]) for t in CAT.tile_ids()}


def river_sets(rules: Rules) -> set[str]:
    """The ten common River tiles and the edition's spring and lake."""
    return {"river", "river_" + rules.river_edition.lower()} if rules.river else set()


def spring(rules: Rules) -> str:
    return {"C3": "RV_SPRING", "C2": "RV_SPRING_C2"}[rules.river_edition]


def total_tiles(rules: Rules) -> int:
    """72 land tiles (B1), + 12 river tiles (R1), with the counts of option ``tiles``; the
    start tile set aside by ``river_start="discard"`` (R2) is out."""
    sets = {"base"} | river_sets(rules)
    counts = {t: n for t, (s, n) in COUNTS.items() if s in sets}
    for item in filter(None, rules.tiles.split(",")):
        tile, n = item.split(":")
        counts[tile] = int(n)
    return sum(counts.values()) - (rules.river and rules.river_start == "discard")


def test_tile_totals():
    assert total_tiles(Rules.base()) == 72 and total_tiles(Rules()) == 84
    assert total_tiles(Rules(river_edition="C2")) == 84
    assert total_tiles(Rules.base(tiles="CAP:4,MON:0")) == 72 + 2 - 2
    for rules in RULESETS:
        g = Game(rules, players=2, seed=1)
        assert len(g.board) + sum(g.bag.values()) + 1 + g.discarded == total_tiles(rules)


def _context(g: Game) -> str:
    return (
        f"\nrules={g.rules!r} players={g.players} seed={g.seed} "
        f"moves={json.dumps(g.record()['moves'])}"
    )


# -- invariants of one position ---------------------------------------------------------------


def check_conservation(g: Game) -> None:
    """B1/A1: 7 meeples (+1 abbot) per player, each in supply or on the board. B1/R1/B7:
    every tile is placed, in the bag, waiting to be placed, or discarded."""
    figs = g.figures()
    for p in range(g.players):
        supply = g.supply(p)
        on_board = [f for f in figs if f.player == p]
        assert supply.get("meeple", 0) + sum(f.role == "meeple" for f in on_board) == MEEPLES, (
            f"player {p}: supply {supply}, on board {on_board}{_context(g)}"
        )
        abbots = supply.get("abbot", 0) + sum(f.role == "abbot" for f in on_board)
        assert abbots == (1 if g.rules.abbot else 0), f"player {p} abbots {abbots}{_context(g)}"
        assert set(supply) <= {"meeple", "abbot"} and min(supply.values(), default=0) >= 0
    waiting = 1 if g.tile is not None else 0
    assert len(g.board) + sum(g.bag.values()) + g.discarded + waiting == total_tiles(g.rules), (
        f"board {len(g.board)} bag {sum(g.bag.values())} discarded {g.discarded} "
        f"waiting {waiting}{_context(g)}"
    )
    assert len({(p.x, p.y) for p in g.board}) == len(g.board)
    assert g.turns == len(g.move_stack)


def check_legal_moves_play(g: Game) -> None:
    """Every legal move is accepted on a copy; the original is untouched; the text form
    round-trips."""
    fp = g.fingerprint()
    legal = g.legal_moves
    assert len(set(legal)) == len(legal), f"duplicate legal moves{_context(g)}"
    for m in legal:
        assert g.parse_move(str(m)) == m
        assert g.is_legal(m) and g.is_legal(str(m))
        h = g.copy()
        h.play(m)
        assert h.move_stack[-1] == m
    assert g.fingerprint() == fp, f"playing on a copy changed the game{_context(g)}"
    assert g.legal_moves == legal


def illegal_mutations(g: Game, rnd) -> list[tuple[str, object]]:
    """Moves that must be refused, each with a reason (for messages)."""
    legal = g.legal_moves
    legal_texts = {str(m) for m in legal}
    board = ref.Board([(p.tile, p.x, p.y, p.rotation) for p in g.board], CAT)
    tile = g.tile
    out: list[tuple[str, object]] = []
    m = rnd.choice(legal)
    big = rnd.choice([50, -50, 1000, -73])
    out.append(("far away (B4)", f"{m.x + big},{m.y} {m.rotation}"))
    out.append(("far away (B4)", f"{m.x},{m.y - big} {m.rotation}"))
    px, py = rnd.choice([(p.x, p.y) for p in g.board])
    out.append(("occupied position", f"{px},{py} {m.rotation}"))
    # A rotation that does not fit at a legal position (B5), judged by the reference.
    spots = {(mv.x, mv.y) for mv in legal}
    for x, y in sorted(spots):
        for r in (0, 90, 180, 270):
            if not ref.fits(board, tile, x, y, r):
                out.append((f"rotation {r} does not fit (B5)", f"{x},{y} {r}"))
                break
    # A meeple on a segment whose feature is occupied (B9), per the reference.
    figs = [(f.player, f.role, f.x, f.y, f.segment) for f in g.figures()]
    passes = [mv for mv in legal if mv.action == "pass"]
    for mv in rnd.sample(passes, min(3, len(passes))):
        after = board.with_tile(tile, mv.x, mv.y, mv.rotation)
        occupied = {ref.figure_node(after, f) for f in figs}
        for s in after.tiles[(mv.x, mv.y)].segs:
            if s.kind not in ref.MEEPLE_KINDS:
                continue
            text = f"{mv.x},{mv.y} {mv.rotation} meeple {s.label}"
            if after.feature((mv.x, mv.y, s.index)).nodes & occupied:
                assert text not in legal_texts, f"{text} is on an occupied feature{_context(g)}"
                out.append(("meeple on an occupied feature (B9)", text))
            elif g.supply(g.turn).get("meeple", 0) == 0:
                out.append(("no meeple in supply", text))
        for s in after.tiles[(mv.x, mv.y)].segs:
            if s.kind == "river":
                out.append(
                    ("meeple on the river (R6)", f"{mv.x},{mv.y} {mv.rotation} meeple {s.label}")
                )
            if s.kind in ("road", "city", "field"):
                out.append(
                    (
                        "abbot off a monastery or garden (A2)",
                        f"{mv.x},{mv.y} {mv.rotation} abbot {s.label}",
                    )
                )
            if s.kind == "garden":
                out.append(
                    ("meeple on a garden (A1)", f"{mv.x},{mv.y} {mv.rotation} meeple {s.label}")
                )
            if s.kind == "field" and not g.rules.farmers:
                out.append(
                    ("farmer with farmers=off", f"{mv.x},{mv.y} {mv.rotation} meeple {s.label}")
                )
            if s.kind == "garden" and not g.rules.gardens:
                out.append(
                    (
                        "abbot on a garden with gardens=off",
                        f"{mv.x},{mv.y} {mv.rotation} abbot {s.label}",
                    )
                )
            if not g.rules.abbot and s.kind in ref.CLOISTERS:
                out.append(
                    (
                        "abbot without the Abbot rules",
                        f"{mv.x},{mv.y} {mv.rotation} abbot {s.label}",
                    )
                )
    # Recalling an abbot that is not there (A4).
    out.append(("recall of a missing abbot", f"{m.x},{m.y} {m.rotation} recall {m.x},{m.y}"))
    mine = [f for f in g.figures() if f.player == g.turn and f.role == "meeple"]
    if mine:
        f = rnd.choice(mine)
        out.append(("recall of a meeple", f"{m.x},{m.y} {m.rotation} recall {f.x},{f.y}"))
    # Garbage.
    out += [
        ("garbage", t)
        for t in (
            "",
            " ",
            "pass",
            "1,0",
            "0,0 45",
            f"{m.x},{m.y} {m.rotation} meeple",
            f"{m.x},{m.y} {m.rotation} meeple nowhere",
            f"{m.x},{m.y} {m.rotation} dragon city:N",
            f"{m.x};{m.y} {m.rotation}",
            f"{m.x},{m.y} {m.rotation} meeple city:N extra",
            "99999999999999999999,0 0",
            "x" * 300,
            "1,0 0 meeple city:Q",
            "\x00",
            "é,ü 0",
        )
    ]
    return [(why, mv) for why, mv in out if mv not in legal_texts]


def check_refused(g: Game, rnd, garbage: str) -> None:
    """Every mutation is refused with IllegalMoveError/InvalidMoveError and changes nothing
    (fingerprint, legal moves)."""
    fp = g.fingerprint()
    legal = g.legal_moves
    pristine = g.copy()
    cases = illegal_mutations(g, rnd) + [("hypothesis text", garbage)]
    tried = []
    for why, mv in cases:
        if why == "hypothesis text":
            try:
                if g.parse_move(mv) in legal:
                    continue  # a legal move after all (a non-canonical spelling, say)
            except InvalidMoveError:
                pass
        with pytest.raises(REFUSED):
            g.play(mv)
            pytest.fail(f"{why}: {mv!r} was accepted{_context(g)}")
        assert not g.is_legal(mv), f"{why}: is_legal({mv!r}){_context(g)}"
        tried.append((why, mv))
    if g.fingerprint() != fp:  # find the culprit on fresh copies
        for why, mv in tried:
            h = pristine.copy()
            with pytest.raises(REFUSED):
                h.play(mv)
            assert h.fingerprint() == fp, f"refusing {why} {mv!r} changed the game{_context(g)}"
        pytest.fail(f"refusing illegal moves changed the game{_context(g)}")
    assert g.legal_moves == legal


# -- whole games ------------------------------------------------------------------------------


def choose(g: Game, rnd, sparing: bool):
    legal = g.legal_moves
    if sparing and rnd.random() < 0.7:
        passes = [m for m in legal if m.action == "pass"]
        if passes:
            return rnd.choice(passes)
    return rnd.choice(legal)


game_args = dict(
    rules=st.sampled_from(RULESETS),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**64 - 1),
    rnd=st.randoms(use_true_random=False),
    sparing=st.booleans(),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**game_args, garbage=st.text(max_size=30))
def test_game_invariants(rules, players, seed, rnd, sparing, garbage):
    g = Game(rules, players=players, seed=seed)
    start = (spring(rules) if rules.river else "CAP_ROAD_WE", 0, 0, 0)
    assert [(p.tile, p.x, p.y, p.rotation) for p in g.board] == [start]  # B2, R2
    fingerprints = [g.fingerprint()]
    scores = g.scores
    assert scores == [0] * players
    while not g.is_over():
        check_conservation(g)
        check_legal_moves_play(g)
        check_refused(g, rnd, garbage)
        m = choose(g, rnd, sparing)
        fp = g.fingerprint()
        g.play(m)
        if rnd.random() < 0.2:  # undo and redo (the draw after the move is seeded)
            after = g.fingerprint()
            assert g.pop() == m
            assert g.fingerprint() == fp, f"pop after {m} did not restore{_context(g)}"
            g.play(m)
            assert g.fingerprint() == after
        new = g.scores
        assert all(b >= a for a, b in zip(scores, new, strict=True)), (
            f"scores went down {scores} -> {new} at {m}{_context(g)}"
        )
        assert new == [sum(b.values()) for b in g.breakdown]
        scores = new
        fingerprints.append(g.fingerprint())
    check_conservation(g)
    assert g.legal_moves == [] and g.tile is None and g.bag == {}
    assert len(g.board) + g.discarded == total_tiles(rules)
    best = max(g.scores)
    assert g.winners == [p for p in range(players) if g.scores[p] == best]
    with pytest.raises(REFUSED):
        g.play(f"{g.board[-1].x + 1},{g.board[-1].y} 0")
    # pop() all the way back restores every position in turn.
    for want in reversed(fingerprints[:-1]):
        g.pop()
        assert g.fingerprint() == want
    assert g.board == [g.board[0]] and g.turns == 0
    with pytest.raises(IndexError):
        g.pop()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**game_args, cut=st.floats(0, 1))
def test_record_replay(rules, players, seed, rnd, sparing, cut):
    """A record replays to the same state, mid-game (and then continues identically) and at
    the end; the JSON and dict forms agree."""
    g = Game(rules, players=players, seed=seed)
    snapshot = None
    n = 0
    while not g.is_over():
        if snapshot is None and rnd.random() < cut / 20:
            snapshot = (g.to_json(), g.fingerprint(), g.scores, n)
        g.play(choose(g, rnd, sparing))
        n += 1
    for rec in (g.to_json(), g.record()):
        h = Game.from_record(rec)
        assert h.fingerprint() == g.fingerprint() and h.scores == g.scores
        assert h.breakdown == g.breakdown and h.board == g.board and h.is_over()
    if snapshot is not None:
        text, fp, scores, k = snapshot
        h = Game.from_record(text)
        assert h.fingerprint() == fp and h.scores == scores and h.turns == k
        for m in g.move_stack[k:]:
            h.play(str(m))
        assert h.fingerprint() == g.fingerprint() and h.scores == g.scores


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**{**game_args, "rules": st.sampled_from([r for r in RULESETS if r.river])})
def test_river_comes_first(rules, players, seed, rnd, sparing):
    """R2/R3: the spring starts; river tiles are placed before any land tile, the lake last
    of them; the records' draws account for every tile (B7 discards included)."""
    g = Game(rules, players=players, seed=seed)
    while not g.is_over():
        g.play(choose(g, rnd, sparing))
    river = river_sets(rules)
    is_river = [CAT.tile(p.tile)["set"] in river for p in g.board]
    assert g.board[0].tile == spring(rules) and (g.board[0].x, g.board[0].y) == (0, 0)
    k = sum(is_river)
    assert is_river[:k] == [True] * k, f"river tiles after land tiles{_context(g)}"
    lake = {"C3": "RV_LAKE", "C2": "RV_LAKE_C2"}[rules.river_edition]
    if lake in [p.tile for p in g.board]:
        assert g.board[k - 1].tile == lake
    rec = g.record()
    assert len(rec["draws"]) == len(g.board) - 1 + g.discarded
    box = [t for t, (s, n) in COUNTS.items() if s in {"base"} | river for _ in range(n)]
    if rules.river_start == "discard":  # R2 option: the base start tile is set aside
        box.remove("CAP_ROAD_WE")
    assert sorted(rec["draws"] + [spring(rules)]) == sorted(box)


# -- simulate ---------------------------------------------------------------------------------

FIELDS = ("seed", "turns", "discarded", "winners", "scores", "breakdown")


def _same(a, b) -> None:
    for k in FIELDS:
        x, y = getattr(a, k), getattr(b, k)
        assert x.shape == y.shape and np.array_equal(x, y), k


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(RULESETS),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**64 - 1),
    games=st.integers(1, 60),
    chunks=st.lists(st.integers(1, 70), min_size=1, max_size=3),
)
def test_simulate_independent_of_threads_and_chunks(rules, players, seed, games, chunks):
    one = simulate(rules, games=games, players=players, seed=seed, threads=1)
    assert len(one) == games
    _same(one, simulate(rules, games=games, players=players, seed=seed, threads=2))
    for c in chunks:
        for threads in (1, 2):
            parts = list(
                simulate_chunks(
                    rules, games=games, players=players, seed=seed, threads=threads, chunk=c
                )
            )
            assert [len(p) for p in parts] == [min(c, games - i) for i in range(0, games, c)]
            _same(one, Results.concat(parts))
    # Consistency of each row.
    assert np.array_equal(one.scores, one.breakdown.sum(axis=2))
    assert np.all(one.turns + 1 + one.discarded == total_tiles(rules))
    best = one.scores.max(axis=1, keepdims=True)
    bits = ((one.scores == best) * (1 << np.arange(players))).sum(axis=1)
    assert np.array_equal(one.winners.astype(np.int64), bits)
    assert np.all(one.breakdown >= 0)
    # A prefix of a batch is the smaller batch (game g depends on the master seed and g only).
    k = max(1, games // 2)
    _same(
        simulate(rules, games=k, players=players, seed=seed, threads=2),
        Results(
            rules=rules,
            players=players,
            policy="random",
            master_seed=seed,
            **{f: getattr(one, f)[:k] for f in FIELDS},
        ),
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seeds=st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=3),
    ops=st.lists(
        st.tuples(st.sampled_from(["copy", "play", "play", "pop"]), st.integers(0, 1000)),
        max_size=60,
    ),
    rnd=st.randoms(use_true_random=False),
)
def test_copies_and_undo_are_independent(seeds, ops, rnd):
    """Copies, plays and pops interleaved on several games: every game stays exactly at its
    own history (a copy shares no state with its original, before or after an undo)."""
    games = [Game(Rules(), players=2, seed=s) for s in seeds]
    root = list(range(len(games)))  # game -> the seed index it descends from
    history: list[list[str]] = [[] for _ in games]
    seen: dict[tuple, str] = {}  # (root, moves) -> fingerprint when first reached

    def check(i: int) -> None:
        g = games[i]
        assert [str(m) for m in g.move_stack] == history[i]
        key = (root[i], *history[i])
        assert seen.setdefault(key, g.fingerprint()) == g.fingerprint()

    for i in range(len(games)):
        check(i)
    for op, k in ops:
        i = k % len(games)
        g = games[i]
        if op == "copy":
            games.append(g.copy())
            root.append(root[i])
            history.append(list(history[i]))
        elif op == "play" and not g.is_over():
            m = rnd.choice(g.legal_moves)
            g.play(m)
            history[i].append(str(m))
        elif op == "pop" and history[i]:
            assert str(g.pop()) == history[i].pop()
        for j in range(len(games)):
            check(j)


def test_undo_on_a_copy_after_the_original_moved_on():
    """The case that once failed: g2 = g.copy(); g.pop(); g.play(m); g2.pop()."""
    g = Game(Rules(), players=2, seed=5)
    for _ in range(3):
        g.play(g.legal_moves[0])
    at_two = g.copy()
    at_two.pop()
    expected = at_two.fingerprint()
    g2 = g.copy()
    g.pop()
    g.play(g.legal_moves[-1])
    g2.pop()
    assert g2.fingerprint() == expected
    assert len(g2.move_stack) == 2
