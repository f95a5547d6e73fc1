"""Learner steps per second of the environments, driven from Python.

Run: .venv/bin/python benches/env_bench.py [--steps N]

- vector: `VectorEnv` (B games, native random opponents), uniformly random legal actions
  (chosen outside the timed `step` calls), 1 thread and every core;
- aec: the PettingZoo AEC environment, one game, random legal actions.
The native figure without Python is `cargo bench --bench env` (BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from carcassonne import Rules
from carcassonne.env import VectorEnv, env


def vector(rules: Rules, num_envs: int, threads: int, steps: int) -> float:
    v = VectorEnv(rules, 2, num_envs, opponents="random", seed=1, threads=threads)
    v.reset()
    rng = np.random.default_rng(0)
    n, spent = 0, 0.0
    while n < steps:
        # The policy (not timed): uniformly random legal actions.
        actions = np.array([rng.choice(v.legal_actions(i)) for i in range(num_envs)])
        t = time.perf_counter()
        v.step(actions)
        spent += time.perf_counter() - t
        n += num_envs
    return n / spent


def aec(rules: Rules, steps: int) -> float:
    e = env(rules=rules, players=2)
    rng = np.random.default_rng(0)
    n = 0
    t = time.perf_counter()
    while n < steps:
        e.reset(seed=n)
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
    return n / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=100_000)
    args = ap.parse_args()
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()}")
    for name, rules in [("base", Rules.base()), ("base+river+abbot", Rules())]:
        for b, threads in [(64, 1), (256, 0)]:
            rate = vector(rules, b, threads, args.steps)
            print(f"vector {name:18} B={b:3} threads={threads}: {rate:10,.0f} steps/s")
        print(f"aec    {name:18}: {aec(rules, args.steps // 20):10,.0f} steps/s")


if __name__ == "__main__":
    main()
