"""Throughput from Python: native batches (1 and 2 threads) and games driven move by move.

Run: .venv/bin/python benches/python_bench.py [--games N]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time

import carcassonne
from carcassonne import Game, Rules, simulate

RULE_SETS = {"base": Rules.base(), "base+river+abbot": Rules()}


def native(rules: Rules, games: int, threads: int) -> float:
    simulate(rules, games=min(games, 500), players=2, seed=99, threads=threads)  # warm up
    t = time.perf_counter()
    simulate(rules, games=games, players=2, seed=1, threads=threads)
    return games / (time.perf_counter() - t)


def python_driven(rules: Rules, games: int) -> float:
    rng = random.Random(0)
    t = time.perf_counter()
    for seed in range(games):
        g = Game(rules, players=2, seed=seed)
        while not g.is_over():
            g.play(rng.choice(g.legal_moves))
    return games / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20000, help="native games per measurement")
    ap.add_argument("--py-games", type=int, default=300, help="Python-driven games")
    args = ap.parse_args()
    print(f"carcassonne {carcassonne.__version__}, Python {platform.python_version()}, "
          f"{platform.machine()}, {os.cpu_count()} cores")
    print(f"{'rules':<18} {'native 1 thr':>14} {'native 2 thr':>14} {'speed-up':>9} "
          f"{'Python-driven':>14} {'native/Python':>14}")
    for name, rules in RULE_SETS.items():
        n1 = native(rules, args.games, 1)
        n2 = native(rules, args.games, 2)
        py = python_driven(rules, args.py_games)
        print(f"{name:<18} {n1:>10,.0f} g/s {n2:>10,.0f} g/s {n2 / n1:>8.2f}x "
              f"{py:>10,.0f} g/s {n1 / py:>13.1f}x")


if __name__ == "__main__":
    main()
