"""Whether seats play the Fortune Teller at all: the share of games in which a seat had a
fortune teller on a tent at the start of some turn, and the share of turn starts with one
(BENCHMARKS.md, "2026-12-07 (session 21)"). A study of the Fortune Teller with seats that
never place one measures only its tent tiles (docs/studies.md).

    python benches/fortune_tellers.py --skill heuristic --skill greedy --games 200
"""

from __future__ import annotations

import argparse

import numpy as np

from carcassonne import Rules, _core
from carcassonne.training import positions


def teller_use(skill: str, games: int, seed: int, players: int) -> tuple[float, float]:
    """(share of games with a fortune teller on the board at some turn start, share of
    turn starts with one), read from each turn's evaluation terms."""
    column = _core.evaluation_terms().index("fortune_teller.tellers")
    rules = Rules(fortune_teller=True)
    x, _, game = positions(rules, games, seed, skill, players=players, every=1)
    # A turn's rows are its players' rows: any one with a teller makes the turn count.
    turn = x[:, column].reshape(-1, players).max(axis=1) > 0
    per_game = np.bincount(game[::players], weights=turn, minlength=games)
    return float((per_game > 0).mean()), float(turn.mean())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--skill", action="append", required=True, help="a policy text; repeat")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--players", type=int, default=2)
    a = ap.parse_args()
    print(f"fortune_teller=on, {a.players} players, seed {a.seed}")
    print("| seats | games | games with a fortune teller | turn starts with one |")
    print("|---|---|---|---|")
    for skill in a.skill:
        games, turns = teller_use(skill, a.games, a.seed, a.players)
        print(f"| `{skill}` | {a.games} | {games:.0%} | {turns:.1%} |")


if __name__ == "__main__":
    main()
