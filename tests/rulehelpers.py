"""Helpers shared by the exact rule tests (tests/test_rules_*.py): manual-chance games, moves
that must be legal or refused, exact score breakdowns, and a play-out to the end that leaves
occupied features alone."""

from __future__ import annotations

import pytest

from carcassonne import SOURCES, Game, IllegalMoveError


def legal_texts(g: Game) -> set[str]:
    return {str(m) for m in g.legal_moves}


def step(g: Game, tile: str, move: str) -> None:
    """Draw ``tile`` and play ``move`` (which must be legal)."""
    assert g.draw(tile) is True, f"{tile} should fit somewhere"
    assert move in legal_texts(g), f"{move!r} should be legal for {tile}"
    g.play(move)


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


def _sigs(g: Game, loose: bool = False) -> set[tuple]:
    return {_sig(f, loose) for f in g.features() if f.figures}


def play_out(g: Game) -> None:
    """Draw and place every remaining tile without figures until the game ends, never
    changing a feature that holds a figure (nor placing in the 3x3 around an occupied
    monastery or garden). A field may grow if nothing else fits, but never gains or loses a
    farmer or a completed city. Fails loudly if a tile could only go somewhere harmful."""
    guarded = [f for f in g.features() if f.figures]
    loose = _sigs(g, loose=True)
    near = {t for f in guarded for t in f.tiles} or {(0, 0)}
    zones: set[tuple[int, int]] = set()
    for f in guarded:
        if f.kind in ("monastery", "garden"):
            for x, y in f.tiles:
                zones |= {(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    scores_before = g.scores
    while not g.is_over():
        tile = sorted(g.drawable)[0]
        if not g.draw(tile):
            continue  # B7: fits nowhere, drawn again
        strict = _sigs(g)
        cands = []
        for m in g.legal_moves:
            text = str(m)
            parts = text.split()
            if len(parts) != 2:
                continue  # only moves without a figure
            x, y = map(int, parts[0].split(","))
            if (x, y) in zones:
                continue
            d = min(max(abs(x - a), abs(y - b)) for a, b in near)
            cands.append((-d, text))
        cands.sort()
        done = False
        for want, is_loose in ((strict, False), (loose, True)):
            for _, text in cands:
                g.play(text)
                if want <= _sigs(g, is_loose):
                    done = True
                    break
                g.pop()
            if done:
                break
        if not done:
            raise AssertionError(f"play_out: no harmless place for {tile}")
        if not g.is_over():
            assert g.scores == scores_before, "a filler tile scored points"
    assert g.is_over()
