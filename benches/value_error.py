"""How far V's value model is from the truth, by tiles left (BENCHMARKS.md, "2026-12-07
(session 22)").

From positions of games between one-ply seats, `examples/value_error.rs` plays the rest of
the game K times with the bag reshuffled and the same seats choosing. The continuations'
mean estimates the truth (the points each player will still score, in expectation under
these seats); their variance is the luck still to come. V's squared error against the truth
is the mean of (V - continuations' mean)^2 less the mean's own noise (variance / K). The
luck adjustment leaves only what V's error varies between a draw's outcomes, so this bounds
what a better V could still take out, stage by stage. The value model is the one a study
fits on these seats (`training.value_weights`; `--refit` for the refitted model greedy and
expert seats' studies use, else the first fit, as the replied V of look-ahead seats).

    python benches/value_error.py --seats heuristic --arm ft --games 60
"""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

import numpy as np

from carcassonne import Rules
from carcassonne.training import value_weights

ROOT = Path(__file__).resolve().parent.parent
SPANS = [
    ("0-5", 0, 5),
    ("6-10", 6, 10),
    ("11-20", 11, 20),
    ("21-40", 21, 40),
    ("41 and more", 41, 999),
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seats", default="heuristic", help="one-ply seats (default: heuristic)")
    ap.add_argument("--arm", choices=("base", "ft"), default="base")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", type=int, default=99)
    ap.add_argument("--k", type=int, default=32, help="continuations per position")
    ap.add_argument("--every", type=int, default=6, help="a position every this many turns")
    ap.add_argument("--refit", action="store_true", help="the refitted value model")
    a = ap.parse_args()
    rules = Rules(fortune_teller=True) if a.arm == "ft" else Rules()
    weights = value_weights(rules, a.seats, 2, refit=a.refit)
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "--example", "value_error"], cwd=ROOT, check=True
    )
    exe = str(ROOT / "target/release/examples/value_error")
    args = [a.seats, a.arm, str(a.games), str(a.seed), weights, str(a.k), str(a.every)]
    out = subprocess.run([exe, *args], check=True, capture_output=True, text=True).stdout
    rows = np.array([[float(x) for x in line.split()[1:]] for line in out.splitlines()])
    left = rows[:, 1]
    v = rows[:, [2, 5]]
    truth = rows[:, [3, 6]]
    luck = rows[:, [4, 7]]
    vm, tm, lm = v[:, 0] - v[:, 1], rows[:, 8], rows[:, 9]
    print(f"{a.seats}, {a.arm}, {a.games} games, seed {a.seed}, {a.k} continuations a position")
    print(
        "| tiles left | positions | margin: luck to come | V's error^2 "
        "| a player: luck | V's error^2 |"
    )
    print("|---|---|---|---|---|---|")
    for name, lo, hi in SPANS:
        m = (left >= lo) & (left <= hi)
        if not m.any():
            continue
        err_m = ((vm[m] - tm[m]) ** 2).mean() - lm[m].mean() / a.k
        err_p = ((v[m] - truth[m]) ** 2).mean() - luck[m].mean() / a.k
        print(
            f"| {name} | {m.sum()} | {lm[m].mean():.1f} | {err_m:.1f} | "
            f"{luck[m].mean():.1f} | {err_p:.1f} |"
        )


if __name__ == "__main__":
    main()
