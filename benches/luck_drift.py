"""Where the luck adjustment leaves variance: V's drift over a game, by tiles left
(BENCHMARKS.md, "2026-12-07 (session 20)").

A game's result is V's expectation at its first corrected event, plus the luck of every event
(V after the outcome that happened less its expectation), plus V's *drift* between events
(from one event's value after its outcome to the next event's expectation: the players'
moves in between, as V failed to foresee them), plus the result less V at the last event.
With deterministic seats the luck is all the chance there is, so what the adjustment leaves
is the drift: a perfect V would have none. This plays one arm of the Fortune Teller question
with the study's V (`examples/luck_drift.rs`, the value model the study trains) and prints,
for seat 1's margin (seat 1 minus seat 2) and seat 1's win share, each span's drift
variance and its share of the residual's variance (its covariance with the residual over
the residual's variance: the shares sum to 100%).

    python benches/luck_drift.py --skill heuristic:depth=2:top=2 --deals 150 --arm base
"""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

import numpy as np

from carcassonne import Rules, _core
from carcassonne.training import value_weights

ROOT = Path(__file__).resolve().parent.parent


def trace(skill: str, arm: str, deals: int, seed: int, tail: int | None):
    """Each game's events (left, actual and expected seat-1 margin and win share), its final
    seat-1 margin and win share, and the tail V was exact over."""
    rules = Rules(fortune_teller=True) if arm == "ft" else Rules()
    values, seats = _core.luck_plan(2, skill)
    weights = value_weights(rules, seats or "greedy", 2, refit=values != "replied")
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "--example", "luck_drift"], cwd=ROOT, check=True
    )
    cmd = [str(ROOT / "target/release/examples/luck_drift"), skill, arm, str(deals), str(seed)]
    out = subprocess.run(
        [*cmd, weights, *([str(tail)] if tail is not None else [])],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    events: list[list[tuple[float, ...]]] = [[] for _ in range(deals)]
    final = np.zeros((deals, 2))
    tail = 0
    for line in out.splitlines():
        kind, game, *xs = line.split()
        v = [float(x) for x in xs]
        if kind == "T":
            tail = int(game)
        elif kind == "E":
            left, a, e, aw, ew = v[0], v[2:4], v[4:6], v[6:8], v[8:10]
            events[int(game)].append((left, a[0] - a[1], e[0] - e[1], aw[0], ew[0]))
        else:
            final[int(game)] = (v[0] - v[1], v[2])
    return events, final, tail


def spans(tail: int) -> list[tuple[str, int, int]]:
    """The spans of tiles left drift is summed over; with a tail, the event whose outcomes
    are the first valued exactly (tail + 1 tiles left) is a span of its own."""
    out = [("60 and more", 60, 999), ("40-59", 40, 59), ("25-39", 25, 39), ("15-24", 15, 24)]
    out += [("8-14", 8, 14)]
    if tail:
        out += [(f"{tail + 2}-7", tail + 2, 7), (f"{tail + 1}: into the tail", tail + 1, tail + 1)]
        out += [(f"1-{tail}", 1, tail)]
    else:
        out += [("1-7", 1, 7)]
    return out + [("0: the last turn's ties", 0, 0)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--skill", default="heuristic:depth=2:top=2")
    ap.add_argument("--arm", choices=("base", "ft"), default="base")
    ap.add_argument("--deals", type=int, default=150)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--tail", type=int, help="V's exact tail (default: the study's)")
    a = ap.parse_args()
    events, final, tail = trace(a.skill, a.arm, a.deals, a.seed, a.tail)
    bins = spans(tail)
    print(f"{a.skill}, {a.arm}, {a.deals} deals, seed {a.seed}, tail {tail}")
    for view, (ia, ie), y in (("margin", (1, 2), final[:, 0]), ("win share", (3, 4), final[:, 1])):
        parts = np.zeros((a.deals, len(bins) + 2))
        luck = np.zeros(a.deals)
        for g, ev in enumerate(events):
            e = np.array(ev)
            luck[g] = (e[:, ia] - e[:, ie]).sum()
            parts[g, 0] = e[0, ie]
            for k in range(1, len(e)):
                b = next(i for i, (_, lo, hi) in enumerate(bins) if lo <= e[k, 0] <= hi)
                parts[g, 1 + b] += e[k, ie] - e[k - 1, ia]
            parts[g, -1] = y[g] - e[-1, ia]
        r = y - luck
        assert np.allclose(parts.sum(axis=1), r)
        print(
            f"\nseat 1's {view}: variance {y.var():.4g}, after the luck {r.var():.4g} "
            f"(cut {y.var() / r.var():.2f}x, the luck unscaled)"
        )
        print("| drift over | variance | share of what the luck leaves |")
        print("|---|---|---|")
        names = ["the first event's expectation", *(b[0] for b in bins), "after the last event"]
        for i, name in enumerate(names):
            share = np.cov(parts[:, i], r)[0, 1] / r.var(ddof=1)
            print(f"| {name} | {parts[:, i].var():.4g} | {share:.1%} |")


if __name__ == "__main__":
    main()
