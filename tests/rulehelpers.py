"""Helpers shared by the tests: the "every option" rule set, moves that must be legal or refused,
exact score breakdowns, a play-out to the end that leaves occupied features alone, and random
play to the end.
Positions themselves are built with the public builder (carcassonne.scenario)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

import pytest

from carcassonne import SOURCES, Decision, Game, IllegalMoveError, Rules

# Every expansion (the engine's registry), small cities scoring 2 and the River's start tile
# discarded: the same set as the engine's `Rules::every_option` (the players' figures and
# ladder, BENCHMARKS.md).
EVERY_OPTION = Rules.every_expansion(small_city=True, river_start="discard")


def legal_texts(g: Game) -> set[str]:
    return {str(m) for m in g.legal_moves}


def play_random(g: Game, rng: random.Random, stop: int | None = None) -> Game:
    """Random legal moves (drawn from ``rng``) until the game ends, or until ``stop`` moves
    have been played in all."""
    while not g.is_over() and (stop is None or len(g.move_stack) < stop):
        g.play(rng.choice(g.legal_moves))
    return g


def refused(g: Game, move: str) -> None:
    """``move`` is illegal: it is not offered, play() raises, and the game is unchanged."""
    fp = g.fingerprint()
    assert move not in legal_texts(g)
    assert not g.is_legal(move)
    with pytest.raises(IllegalMoveError):
        g.play(move)
    assert g.fingerprint() == fp


def only(g: Game, expected: dict[int, dict[str, int]]) -> None:
    """Breakdown equals ``expected`` (player -> {source: points}); every other entry is 0."""
    want = [{s: expected.get(p, {}).get(s, 0) for s in SOURCES} for p in range(g.players)]
    got = [{s: b.get(s, 0) for s in SOURCES} for b in g.breakdown]
    assert got == want
    assert g.scores == [sum(w.values()) for w in want]


def n_figures(g: Game, player: int) -> int:
    return sum(1 for f in g.figures() if f.player == player)


def _sig(f, loose: bool = False) -> tuple:
    if loose and f.kind == "field":
        # a field may grow, but keeps its farmers and its count of completed cities
        return (f.kind, tuple(sorted(f.figures)), f.completed_cities)
    return (
        f.kind,
        tuple(sorted(f.tiles)),
        f.complete,
        f.open_edges,
        f.arms,
        tuple(sorted(f.figures)),
        f.completed_cities,
    )


def _with_figures(g: Game) -> list:
    return [f for f in g.features() if f.figures]


def _sigs(g: Game, loose: bool = False, guarded: Callable[[Game], list] = _with_figures) -> set:
    return {_sig(f, loose) for f in guarded(g)}


def around(x: int, y: int) -> set[tuple[int, int]]:
    """The 3x3 square centred on x,y."""
    return {(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}


def play_out(
    g: Game,
    *,
    guarded: Callable[[Game], list] = _with_figures,
    near: Iterable[tuple[int, int]] = (),
    zones: Iterable[tuple[int, int]] = (),
    apart: Callable[[str], int] = lambda tile: 0,
    reveal: Callable[[Game], str | None] | None = None,
    unchanged: Callable[[Game], object] = lambda g: None,
) -> None:
    """Draw and place every remaining tile without figures until the game ends, never
    changing a guarded feature (``guarded(g)``: those holding figures), nor placing in the 3x3
    around an occupied monastery or garden or on ``zones``, nor a tile closer than
    ``apart(tile)`` to the guarded features and ``near``. A field may grow if nothing else
    fits, but never gains or loses a farmer or a completed city. Fillers go as far from the
    guarded features and ``near`` as they can. A chance step of Under the Big Top draws
    ``reveal(g)``; when that is None, the play-out stops there. Fails loudly if a tile could
    only go somewhere harmful, or if a filler scores or changes ``unchanged(g)``."""
    kept = guarded(g)
    loose = _sigs(g, True, guarded)
    close = {t for f in kept for t in f.tiles} | set(near) or {(0, 0)}
    blocked = set(zones)
    for f in kept:
        if f.figures and f.kind in ("monastery", "garden"):
            for x, y in f.tiles:
                blocked |= around(x, y)
    scores_before, other_before = g.scores, unchanged(g)
    while not g.is_over():
        if g.decision == Decision.REVEAL and reveal is not None:
            token = reveal(g)
            if token is None:
                return
            g.draw(token)
        else:
            tile = sorted(g.drawable)[0]
            if not g.draw(tile):
                continue  # B7: fits nowhere, drawn again
            _place_filler(g, tile, close, blocked, apart(tile), loose, guarded)
        if not g.is_over():
            assert g.scores == scores_before, "a filler tile scored points"
            assert unchanged(g) == other_before, "a filler tile changed what it must not"
    assert g.is_over()


def _place_filler(g, tile, close, blocked, apart, loose, guarded) -> None:
    strict = _sigs(g, False, guarded)
    cands = []
    for m in g.legal_moves:
        text = str(m)
        parts = text.split()
        if len(parts) != 2:
            continue  # only moves without a figure (or tollhouse)
        x, y = map(int, parts[0].split(","))
        if (x, y) in blocked:
            continue
        d = min(max(abs(x - a), abs(y - b)) for a, b in close)
        if d < apart:
            continue
        cands.append((-d, text))
    cands.sort()
    for want, is_loose in ((strict, False), (loose, True)):
        for _, text in cands:
            g.play(text)
            if want <= _sigs(g, is_loose, guarded):
                return
            g.pop()
    raise AssertionError(f"play_out: no harmless place for {tile}")
