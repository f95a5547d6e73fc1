"""Luck adjustment: the variance cut and the net CPU per answer (BENCHMARKS.md, "Luck-adjusted
answers").

For each question and skill level it plays the study once with ``luck=True`` (the games are
the same as without) and reads, for each metric, the variance of the paired difference raw
and luck-adjusted; a smaller run without luck gives the CPU per deal of playing alone. The CPU
an answer of a given precision costs is proportional to CPU per deal / variance cut, so the
last column, (CPU with luck / CPU without) / cut, is what the adjustment costs per answer
(below 1: it pays).

    python benches/luck.py [--deals N] [--search-deals N] [--only greedy,expert,mcts]
    python benches/luck.py --run pigs,heuristic:depth=2:top=2,2,100,5 [--run ...]

``--run QUESTION,SKILL,PLAYERS,DEALS,PLAIN`` measures one question (``ft`` or ``pigs``) with
those seats instead of the default plans (PLAIN: the deals played without luck for the CPU of
playing alone).
"""

from __future__ import annotations

import argparse
import math
import resource
import time

from carcassonne import Rules, study

QUESTIONS = {
    "ft": ({"base": Rules(), "ft": Rules(fortune_teller=True)}, ("advantage", "score", "margin")),
    "pigs": (
        {
            "C3.1": Rules(traders_builders="C3.1"),
            "C2": Rules(traders_builders="C2"),
        },
        ("advantage", "points:pigs", "score", "margin"),
    ),
}


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def measure(question: str, skill: str, players: int, deals: int, plain: int) -> list[str]:
    variants, metrics = QUESTIONS[question]
    t = cpu()
    study(variants, plain, skills=skill, players=players, threads=1, batch=plain)
    cpu_plain = (cpu() - t) / plain
    t, wall = cpu(), time.perf_counter()
    s = study(variants, deals, skills=skill, players=players, threads=1, luck=True, batch=deals)
    cpu_luck = (cpu() - t) / deals
    wall = time.perf_counter() - wall
    rows = []
    for metric in metrics:
        s.metric = metric
        s._diffs = None  # recompute for this metric
        d = s.differences()[0]
        cut = d.luck_ratio
        unpaired = d.var_unpaired
        raw_unpaired = "-"
        if d.raw is not None and math.isfinite(unpaired):
            raw_unpaired = f"{s_raw_unpaired(s, metric) / d.value.var:.2f}x"
        net = (cpu_luck / cpu_plain) / cut if cut > 0 else math.nan
        rows.append(
            f"| {question} | {skill} | {players} | {metric} | {deals} | "
            f"{d.raw.mean * s.scale:+.2f} +- {d.raw.half * s.scale:.2f} | "
            f"{d.value.mean * s.scale:+.2f} +- {d.value.half * s.scale:.2f} | {cut:.2f}x | "
            f"{raw_unpaired} | {1000 * cpu_plain:.1f} | {1000 * cpu_luck:.1f} | {net:.2f} |"
        )
    print(f"  ({question}, {skill}: {wall:.0f} s wall)", flush=True)
    return rows


def s_raw_unpaired(s, metric: str) -> float:
    """The raw difference's variance from as many unpaired games (pairing and luck both off)."""
    raw = type(s)(s.plan, s.rows, metric=metric, raw=True)
    return raw.differences()[0].var_unpaired


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--search-deals", type=int, default=120)
    ap.add_argument("--only", default="greedy,expert,mcts")
    ap.add_argument("--run", action="append", default=[], metavar="Q,SKILL,PLAYERS,DEALS,PLAIN")
    args = ap.parse_args()
    only = args.only.split(",")
    print(
        "| question | skill | players | metric | deals | raw paired difference | "
        "luck-adjusted | cut | cut vs unpaired raw | ms/deal plain | ms/deal with luck | "
        "CPU per answer (with / without) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    plans = []
    if "greedy" in only:
        plans += [
            ("ft", "greedy", 2, args.deals, 200),
            ("ft", "greedy", 3, args.deals // 2, 100),
            ("pigs", "greedy", 2, args.deals // 2, 100),
        ]
    if "expert" in only:
        plans += [("ft", "expert", 2, args.deals, 200)]
    if "mcts" in only:
        plans += [("ft", "mcts:playouts=200", 2, args.search_deals, 10)]
    if args.run:
        plans = []
        for text in args.run:
            q, skill, players, deals, plain = text.split(",")
            if q not in QUESTIONS:
                ap.error(f"--run: the question must be one of {', '.join(QUESTIONS)}, not {q!r}")
            plans.append((q, skill, int(players), int(deals), int(plain)))
    for plan in plans:
        for row in measure(*plan):
            print(row, flush=True)


if __name__ == "__main__":
    main()
