"""Strength per CPU time: every player against the anchors, seats swapped, with each player's
CPU time per game and Bradley-Terry ratings fitted from every pairing.

    python benches/ladder.py --rules base --players random,greedy,expert,mcts:500 \\
        --anchors greedy,mcts:500 --deals 100 --out ladder.md

CPU time is the process's (``time.process_time``) over self-play games on one thread, so
other load on the machine does not count. A pairing plays ``--deals`` deals twice, seats
swapped; a shared win counts half. ``--deals-for POLICY=N`` plays fewer deals where a player
is expensive (the table says how many games each cell holds).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from carcassonne import _core
from carcassonne.rules import Rules

RULE_SETS = {
    "base": Rules(river=False, abbot=False),
    "default": Rules(),
    "every": Rules(
        traders_builders="C3.1", toll_collectors=True, fortune_teller=True, big_top=True
    ),
}


def cpu_ms_per_game(rules: Rules, policy: str, games: int, seed: int) -> float:
    """CPU milliseconds of one self-play game of ``policy`` (both seats), one thread."""
    t = time.process_time()
    _core.simulate(players=2, games=games, seed=seed, policy=policy, threads=1, rules=rules)
    return 1000 * (time.process_time() - t) / games


def match(rules: Rules, a: str, b: str, deals: int, seed: int, threads: int) -> tuple[float, int]:
    """(a's wins, games): every deal twice with the seats swapped, a shared win as half."""
    wins = 0.0
    for seats, me in ((f"{a},{b}", 0), (f"{b},{a}", 1)):
        cols = _core.simulate(
            players=2, games=deals, seed=seed, policy=seats, threads=threads, rules=rules
        )
        w = np.frombuffer(cols["winners"][0], dtype="u1")
        wins += float((((w >> me) & 1) * np.where((w & 3) == 3, 0.5, 1.0)).sum())
    return wins, 2 * deals


def wilson(wins: float, n: int) -> tuple[float, float]:
    z = 1.959964
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def bradley_terry(players: list[str], results: dict[tuple[str, str], tuple[float, int]]):
    """Ratings (Elo scale, first player at 0) by the MM algorithm; half a win of prior
    against each opponent keeps a player that won or lost everything finite."""
    k = len(players)
    idx = {p: i for i, p in enumerate(players)}
    w = np.full((k, k), 0.0)
    n = np.zeros((k, k))
    for (a, b), (wins, games) in results.items():
        i, j = idx[a], idx[b]
        w[i, j] += wins + 0.5
        w[j, i] += games - wins + 0.5
        n[i, j] += games + 1
        n[j, i] += games + 1
    g = np.ones(k)
    for _ in range(2000):
        total = w.sum(axis=1)
        denom = (n / (g[:, None] + g[None, :])).sum(axis=1)
        new = np.where(denom > 0, total / np.maximum(denom, 1e-300), g)
        new /= new[0]
        if np.max(np.abs(new - g)) < 1e-12:
            g = new
            break
        g = new
    return {p: 400 * math.log10(g[idx[p]]) for p in players}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="base", help="base, default or every (comma-separated)")
    ap.add_argument("--players", default="random,greedy,expert,mcts:500")
    ap.add_argument("--anchors", default="greedy,mcts:500")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--deals-for", action="append", default=[], metavar="POLICY=N")
    ap.add_argument("--cpu-games", type=int, default=20, help="self-play games timed per player")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--out", help="append the markdown tables to this file")
    args = ap.parse_args()
    fewer = {k: int(v) for k, v in (d.split("=", 1) for d in args.deals_for)}
    players = args.players.split(",")
    anchors = args.anchors.split(",")
    lines = []
    for name in args.rules.split(","):
        rules = RULE_SETS[name]
        deals = lambda *ps: min([args.deals] + [fewer[p] for p in ps if p in fewer])  # noqa: E731
        cpu = {
            p: cpu_ms_per_game(rules, p, max(2, min(args.cpu_games, deals(p))), args.seed)
            for p in players
        }
        results: dict[tuple[str, str], tuple[float, int]] = {}
        for a in players:
            for b in anchors:
                if a != b and (b, a) not in results:
                    results[(a, b)] = match(rules, a, b, deals(a, b), args.seed, args.threads)
        ratings = bradley_terry(players, results)
        first = len(lines)
        lines.append(f"\n#### {name}: {', '.join(players)} (seed {args.seed})\n")
        head = "| player | CPU ms/game | x greedy | " + " | ".join(f"vs {b}" for b in anchors)
        lines.append(head + " | rating |")
        lines.append("|---" * (4 + len(anchors)) + "|")
        for a in players:
            cells = []
            for b in anchors:
                r = results.get((a, b))
                if r is None and (b, a) in results:
                    wins, n = results[(b, a)]
                    r = (n - wins, n)
                if r is None:
                    cells.append("-")
                    continue
                lo, hi = wilson(*r)
                cells.append(f"{100 * r[0] / r[1]:.1f}% [{100 * lo:.0f}-{100 * hi:.0f}] ({r[1]})")
            ratio = cpu[a] / cpu["greedy"] if "greedy" in cpu else float("nan")
            lines.append(f"| `{a}` | {cpu[a]:.1f} | {ratio:.1f} | " + " | ".join(cells)
                         + f" | {ratings[a]:+.0f} |")
        print("\n".join(lines[first:]), flush=True)
    if args.out:
        with open(args.out, "a") as fh:
            fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
