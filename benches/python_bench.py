"""Throughput from Python: native batches (random and greedy policies, 1 and 2 threads) and
the same games driven move by move from Python.

Run: .venv/bin/python benches/python_bench.py [--games N] [--greedy-games N] [--py-games N]

Rule sets: the base game alone, base + River + Abbot (the C3 box), and every option on
(every expansion and rule option switched away from its default, read from Rules.options(),
so new expansions join by themselves). Headline figures are the ratios: native over
Python-driven, and 2 threads over 1; absolute rates beside them.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time

import carcassonne
from carcassonne import Game, Rules, simulate


def every_option_on() -> Rules:
    """Each option set to "on": True for switches, else the first value that is neither the
    default nor None (river_start=discard, traders_builders=C3.1, ...)."""
    default = Rules().to_dict()
    chosen = {}
    for name, allowed in Rules.options().items():
        if True in allowed:
            chosen[name] = True
        else:
            others = [a for a in allowed if a != default[name] and a is not None]
            if others:
                chosen[name] = others[0]
    return Rules(**chosen)


RULE_SETS = {
    "base": Rules.base(),
    "base+river+abbot": Rules(),
    "every option on": every_option_on(),
}


def native(rules: Rules, games: int, threads: int, policy: str = "random") -> float:
    simulate(rules, games=max(1, games // 20), players=2, seed=99, threads=threads, policy=policy)
    t = time.perf_counter()
    simulate(rules, games=games, players=2, seed=1, threads=threads, policy=policy)
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
    ap.add_argument("--games", type=int, default=20000, help="native random-policy games")
    ap.add_argument("--greedy-games", type=int, default=2000, help="native greedy-policy games")
    ap.add_argument("--py-games", type=int, default=300, help="Python-driven games")
    args = ap.parse_args()
    print(
        f"carcassonne {carcassonne.__version__}, Python {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} cores; 2 players, games per second"
    )
    for name, rules in RULE_SETS.items():
        print(f"  {name}: {rules}")
    print()
    print(
        f"{'rules':<18} {'policy':<7} {'native 1 thr':>14} {'native 2 thr':>14} "
        f"{'speed-up':>9} {'Python-driven':>14} {'native/Python':>14}"
    )
    for name, rules in RULE_SETS.items():
        py = python_driven(rules, args.py_games)
        for policy, games in (("random", args.games), ("greedy", args.greedy_games)):
            n1 = native(rules, games, 1, policy)
            n2 = native(rules, games, 2, policy)
            vs_py = f"{py:>10,.0f} g/s {n1 / py:>13.1f}x" if policy == "random" else ""
            print(
                f"{name:<18} {policy:<7} {n1:>10,.0f} g/s {n2:>10,.0f} g/s {n2 / n1:>8.2f}x "
                f"{vs_py}".rstrip()
            )


if __name__ == "__main__":
    main()
