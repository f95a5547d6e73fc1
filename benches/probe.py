"""The exploitability probe: a best-response search over the heuristic player's weights
against a target player (by default the shipped expert), reported with the best win rate it
found on deals the search never saw.

    python benches/probe.py --target expert --deals 50 --rounds 2 --check 200

Coordinate search: from the heuristic's defaults (or ``--start``), each round tries every
parameter in turn at a few multiples of its value (clamped to its range) and keeps a change
that wins more of the same ``--deals`` deals (each played twice, seats swapped, so every
candidate meets the same tiles). Winning the search's own deals is biased upward (the best of
many noisy tries), so the best setting is then played on ``--check`` fresh deals, and that
figure, with its 95% interval, is the probe's answer: a setting whose interval lies above 60%
exploits the target. What it finds can join training as a league opponent (docs/players.md).
"""

from __future__ import annotations

import argparse
import sys
import time

from ladder import parse_rules, play_chunk, wilson

from carcassonne import _core

FACTORS = (0.0, 0.5, 0.75, 1.33, 2.0)


def text(setting: dict[str, float]) -> str:
    """The canonical policy text (parameters at their defaults left out)."""
    full = "heuristic" + "".join(f":{k}={v:g}" for k, v in setting.items())
    return _core.policy_seats(full)[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--target", default="expert", help="the player probed (a policy text)")
    ap.add_argument("--rules", default="river=off,abbot=off", help="NAME=VALUE,... (base game)")
    ap.add_argument("--start", default="heuristic", help="the heuristic setting to start from")
    ap.add_argument("--deals", type=int, default=50, help="deals per candidate (x2 seats)")
    ap.add_argument("--rounds", type=int, default=2, help="passes over every parameter")
    ap.add_argument("--check", type=int, default=200, help="fresh deals for the answer (x2)")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    rules = parse_rules(args.rules)
    table = _core.heuristic_parameters()
    setting = {name: default for name, default, *_ in table}
    start = _core.policy_seats(args.start)[0]
    for kv in start.split(":")[1:]:
        k, v = kv.split("=")
        setting[k] = float(v)

    def score(s: dict[str, float], seed: int, deals: int) -> dict:
        return play_chunk(rules, text(s), args.target, seed, 0, deals, args.threads)

    t0 = time.process_time()
    best = score(setting, args.seed, args.deals)
    evaluated = 1
    print(f"start {text(setting)}: {best['wins']:g}/{best['games']}", flush=True)
    for r in range(args.rounds):
        for name, _default, lo, hi, _help in table:
            base = setting[name]
            for f in FACTORS:
                value = min(hi, max(lo, round(base * f, 4)))
                if value == base:
                    continue
                trial = dict(setting, **{name: value})
                got = score(trial, args.seed, args.deals)
                evaluated += 1
                better = got["wins"] > best["wins"]
                kept = " (kept)" if better else ""
                print(f"round {r + 1} {name}={value:g}: {got['wins']:g}/{got['games']}{kept}")
                if better:
                    best, setting = got, trial
    check = score(setting, args.seed + 1_000_003, args.check)
    lo, hi = wilson(check["wins"], check["games"])
    rate = check["wins"] / check["games"]
    print(
        f"best found: {text(setting)} against {args.target}: {100 * rate:.1f}% "
        f"[{100 * lo:.1f}-{100 * hi:.1f}] of {check['games']} fresh games "
        f"({check['diff'] / check['games']:+.1f} points a game); searched {evaluated} settings x "
        f"{2 * args.deals} games in {(time.process_time() - t0) / 60:.1f} CPU minutes"
    )
    print("exploits the target (above 60%)" if lo > 0.6 else "no setting shown above 60%")


if __name__ == "__main__":
    sys.exit(main())
