"""Strength per CPU time: every player against the anchors, seats swapped, with each player's
CPU time per game and Bradley-Terry ratings fitted from every pairing.

    python benches/ladder.py --config benches/ladder.toml --out ladder.md

A ladder with ``seats = 3`` plays each player against two copies of each anchor instead: every
deal three times, the player in each seat in turn; its win share (a win shared by k counts 1/k)
is measured against the fair 33.3%, and its score against the best opponent's.

The config (TOML) lists the ladders, one per rule set: its players, its anchors, how many
deals a pairing plays and where that differs (``deals_for``, ``"A vs B" = N``; 0 leaves the
cell out). Every finished chunk of deals and every CPU measurement goes to a cache (JSON,
``--cache``, by default beside the config), so a run that is stopped keeps what it played:
the same command continues it, and ``--table`` assembles the tables from the cache alone
(cells not played yet are marked). A cache refuses games from another engine (a fingerprint
of a few fixed games of greedy, expert and mcts), so one table never mixes builds.

A pairing plays each deal (game seed) twice, seats swapped; a shared win counts half; 95%
Wilson intervals. CPU time is the process's (``time.process_time``) over self-play games on
one thread (both seats play the policy), so other load on the machine does not count.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import signal
import sys
import time
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from carcassonne import _core
from carcassonne.rules import Rules, option_value, rules_label

CACHE_VERSION = 1


@dataclass
class Ladder:
    """One rule set's ladder, as the config gives it."""

    name: str
    rules: Rules
    players: list[str]
    anchors: list[str]
    deals: int
    deals_for: dict[tuple[str, str], int] = field(default_factory=dict)
    cpu_games: int = 4
    cpu_seconds: float = 5.0
    interleave: list[frozenset[str]] = field(default_factory=list)
    seats: int = 2

    def pairings(self) -> list[tuple[str, str, int]]:
        """(player, anchor, deals): every player against the first anchor, then against the
        next; a pairing once, whichever side names it."""
        out: list[tuple[str, str, int]] = []
        seen: set[frozenset[str]] = set()
        for b in self.anchors:
            for a in self.players:
                if a == b or frozenset((a, b)) in seen:
                    continue
                seen.add(frozenset((a, b)))
                n = self.deals_for.get((a, b), self.deals_for.get((b, a), self.deals))
                out.append((a, b, n))
        return out

    def schedule(self, size: int) -> list[tuple[str, str, int, int, int]]:
        """(a, b, deals, first, n) chunks in the order they are played: each pairing's in
        turn, then the ``interleave`` pairings' a chunk of each in turn, so that a run stopped
        early leaves them with about as many games each."""
        pairs = self.pairings()
        late = [p for p in pairs if frozenset(p[:2]) in self.interleave]
        late.sort(key=lambda p: self.interleave.index(frozenset(p[:2])))
        out = [
            (a, b, d, f, n)
            for a, b, d in pairs
            if (a, b, d) not in late
            for f, n in chunks(d, size)
        ]
        rounds = [[(a, b, d, f, n) for f, n in chunks(d, size)] for a, b, d in late]
        for i in range(max((len(r) for r in rounds), default=0)):
            out += [r[i] for r in rounds if i < len(r)]
        return out


def parse_rules(text: str) -> Rules:
    """``NAME=VALUE,...`` (the command line's option text) -> Rules."""
    opts = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        name, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"ladder config: rule option '{item}' is not NAME=VALUE")
        opts[name.strip()] = option_value(name.strip(), value)
    return Rules(**opts)


def pair(key: str, players: list[str], ladder: str) -> tuple[str, str]:
    """``"A vs B"`` of a config -> (A, B), both among the ladder's players."""
    a, sep, b = key.partition(" vs ")
    if not sep or a not in players or b not in players:
        raise SystemExit(f"ladder config [{ladder}]: '{key}' is not 'A vs B' of its players")
    return a, b


def read_config(path: Path) -> tuple[int, int, list[Ladder]]:
    """(master seed, deals per chunk, ladders) of a config file."""
    cfg = tomllib.loads(path.read_text())
    ladders = []
    for lad in cfg["ladder"]:
        players, anchors = list(lad["players"]), list(lad["anchors"])
        for p in players + anchors:
            _core.policy_seats(p)  # a ValueError naming the policy
        missing = [a for a in anchors if a not in players]
        if missing:
            raise SystemExit(f"ladder config [{lad['name']}]: anchors not among players: {missing}")
        deals_for = {
            pair(k, players, lad["name"]): int(n) for k, n in lad.get("deals_for", {}).items()
        }
        interleave = [frozenset(pair(k, players, lad["name"])) for k in lad.get("interleave", [])]
        ladders.append(
            Ladder(
                name=lad["name"],
                rules=parse_rules(lad.get("rules", "")),
                players=players,
                anchors=anchors,
                deals=int(lad["deals"]),
                deals_for=deals_for,
                cpu_games=int(lad.get("cpu_games", 4)),
                cpu_seconds=float(lad.get("cpu_seconds", 5.0)),
                interleave=interleave,
                seats=int(lad.get("seats", 2)),
            )
        )
    return int(cfg.get("seed", 2026)), int(cfg.get("chunk", 10)), ladders


def canonical(policy: str) -> str:
    return _core.policy_seats(policy)[0]


def engine_fingerprint() -> str:
    """A hash of a few fixed games' scores (greedy, expert, both mcts evaluations): another
    build, other weights or other rules give another hash."""
    every = Rules(traders_builders="C3.1", toll_collectors=True, fortune_teller=True, big_top=True)
    h = hashlib.sha256()
    for rules, games, policy in (
        (every, 20, "expert,greedy"),
        (Rules.base(), 20, "expert,greedy"),
        (Rules.base(), 2, "mcts:30:eval=learned,mcts:30"),
    ):
        cols = _core.simulate(players=2, games=games, seed=1, policy=policy, threads=1, rules=rules)
        h.update(cols["scores"][0])
    return h.hexdigest()[:16]


def weights_note() -> str:
    """The shipped weights file this source tree holds: its terms line and a hash."""
    text = resources.files("carcassonne").joinpath("data/expert.weights").read_text()
    terms = next(line for line in text.splitlines() if line.startswith("terms "))
    return f"{terms}, sha256 {hashlib.sha256(text.encode()).hexdigest()[:12]}"


class Cache:
    """Finished work, keyed by what it measured; written after every entry."""

    def __init__(self, path: Path):
        self.path = path
        self.data = {"version": CACHE_VERSION, "engine": None, "weights": None, "entries": {}}
        if path.exists():
            self.data = json.loads(path.read_text())
            if self.data.get("version") != CACHE_VERSION:
                raise SystemExit(
                    f"{path}: cache version {self.data.get('version')}, not {CACHE_VERSION}"
                )

    def bind_engine(self, fingerprint: str, weights: str) -> None:
        if self.data["engine"] not in (None, fingerprint):
            raise SystemExit(
                f"{self.path} holds games of another engine (fingerprint {self.data['engine']}, "
                f"this one {fingerprint}): use another --cache, or --table to print it"
            )
        self.data["engine"], self.data["weights"] = fingerprint, self.data["weights"] or weights

    def merge(self, other: Cache) -> None:
        if other.data["engine"] is None:
            return
        self.bind_engine(other.data["engine"], other.data["weights"])
        self.data["entries"].update(other.data["entries"])
        self.save()

    def get(self, key: str):
        return self.data["entries"].get(key)

    def put(self, key: str, value) -> None:
        self.data["entries"][key] = value
        self.save()

    def save(self) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.data, indent=1, sort_keys=True))
        os.replace(tmp, self.path)


def rules_key(rules: Rules) -> str:
    """The options that differ from the defaults, as the engine gives them (a cache key must
    not change with how a label is written)."""
    return ",".join(f"{k}={v!r}" for k, v in sorted(rules.changed().items()))


def cpu_key(rules: Rules, policy: str, seed: int, seats: int = 2) -> str:
    many = "" if seats == 2 else f"|{seats} seats"
    return f"cpu|{rules_key(rules)}|{canonical(policy)}|{seed}{many}"


def chunk_key(rules: Rules, a: str, b: str, seed: int, first: int, n: int, seats: int = 2) -> str:
    many = "" if seats == 2 else f"|{seats} seats"
    return f"match|{rules_key(rules)}|{canonical(a)}|{canonical(b)}|{seed}|{first}+{n}{many}"


def measure_cpu(lad: Ladder, policy: str, seed: int) -> dict:
    """Self-play games of ``policy`` on one thread: ``cpu_games``, then doubling the count
    until they took at least ``cpu_seconds`` of CPU time."""
    games, spent = 0, 0.0
    while games < lad.cpu_games or spent < lad.cpu_seconds:
        batch = min(games, 4096) if games else max(1, lad.cpu_games)
        t = time.process_time()
        _core.simulate(
            players=lad.seats,
            games=batch,
            seed=seed,
            policy=policy,
            threads=1,
            first=games,
            rules=lad.rules,
        )
        spent += time.process_time() - t
        games += batch
    return {"games": games, "cpu_s": spent}


def play_chunk(
    rules: Rules, a: str, b: str, seed: int, first: int, n: int, threads: int, seats: int = 2
) -> dict:
    """Deals ``first..first+n`` played once with ``a`` in each seat, ``b`` in the others: a's
    wins (a win shared by k counts 1/k), games, the sum of a's score minus the best other
    seat's, and the CPU seconds it took."""
    wins = diff = 0.0
    t = time.process_time()
    for me in range(seats):
        policy = ",".join(a if s == me else b for s in range(seats))
        cols = _core.simulate(
            players=seats,
            games=n,
            seed=seed,
            policy=policy,
            threads=threads,
            first=first,
            rules=rules,
        )
        w = np.frombuffer(cols["winners"][0], dtype="u1")
        shared = np.array([bin(x).count("1") for x in w], dtype=float)
        wins += float((((w >> me) & 1) / np.maximum(shared, 1)).sum())
        s = np.frombuffer(cols["scores"][0], dtype="<i4").reshape(n, seats)
        others = np.delete(s, me, axis=1).max(axis=1)
        diff += float((s[:, me] - others).sum())
    return {"wins": wins, "games": seats * n, "diff": diff, "cpu_s": time.process_time() - t}


def chunks(deals: int, size: int) -> list[tuple[int, int]]:
    return [(f, min(size, deals - f)) for f in range(0, deals, size)]


def run(cache: Cache, ladders: list[Ladder], seed: int, size: int, threads: int) -> None:
    for lad in ladders:
        for p in lad.players:
            key = cpu_key(lad.rules, p, seed, lad.seats)
            if cache.get(key) is None:
                r = measure_cpu(lad, p, seed)
                cache.put(key, r)
                ms = 1000 * r["cpu_s"] / r["games"]
                log(f"[{lad.name}] {p}: {ms:.1f} CPU ms/game ({r['games']} games)")
        for a, b, deals, first, n in lad.schedule(size):
            key = chunk_key(lad.rules, a, b, seed, first, n, lad.seats)
            if cache.get(key) is None:
                cache.put(key, play_chunk(lad.rules, a, b, seed, first, n, threads, lad.seats))
                got = pairing(cache, lad, a, b, deals, seed, size)
                log(
                    f"[{lad.name}] {a} vs {b}: deals {first}-{first + n - 1} done; "
                    f"{got['wins']:g}/{got['games']} ({got['cpu_s']:.0f} CPU s so far)"
                )


def log(msg: str) -> None:
    print(time.strftime("%H:%M:%S"), msg, flush=True)


def pairing(cache: Cache, lad: Ladder, a: str, b: str, deals: int, seed: int, size: int) -> dict:
    """What the cache holds of a pairing: the finished chunks' sums, from a's side."""
    tot = {"wins": 0.0, "games": 0, "diff": 0.0, "cpu_s": 0.0}
    for first, n in chunks(deals, size):
        r = cache.get(chunk_key(lad.rules, a, b, seed, first, n, lad.seats))
        if r is not None:
            for k in tot:
                tot[k] += r[k]
    return tot


def wilson(wins: float, n: int) -> tuple[float, float]:
    z = 1.959964
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def bradley_terry(
    players: list[str], results: dict[tuple[str, str], tuple[float, int]], zero: str
) -> dict[str, float]:
    """Ratings (Elo scale, ``zero`` at 0) by the MM algorithm; half a win of prior against
    each opponent keeps a player that won or lost everything finite."""
    k = len(players)
    idx = {p: i for i, p in enumerate(players)}
    w = np.zeros((k, k))
    n = np.zeros((k, k))
    for (a, b), (wins, games) in results.items():
        i, j = idx[a], idx[b]
        w[i, j] += wins + 0.5
        w[j, i] += games - wins + 0.5
        n[i, j] += games + 1
        n[j, i] += games + 1
    g = np.ones(k)
    for _ in range(10000):
        denom = (n / (g[:, None] + g[None, :])).sum(axis=1)
        new = w.sum(axis=1) / denom
        new /= new[idx[zero]]
        done = np.max(np.abs(np.log(new) - np.log(g))) < 1e-10
        g = new
        if done:
            break
    return {p: 400 * math.log10(g[idx[p]]) for p in players}


def _ratio(x: float) -> str:
    """A CPU ratio: one decimal, or two significant digits below 1 (1/28 is 0.036, not 0.0)."""
    return f"{x:,.1f}" if x >= 1 else f"{x:.2g}"


def table(cache: Cache, lad: Ladder, seed: int, size: int) -> list[str]:
    cpu = {}
    for p in lad.players:
        r = cache.get(cpu_key(lad.rules, p, seed, lad.seats))
        cpu[p] = None if r is None else (1000 * r["cpu_s"] / r["games"], r["games"])
    results: dict[tuple[str, str], tuple[float, int]] = {}
    diffs: dict[tuple[str, str], float] = {}
    planned = {}
    spent = 0.0
    for a, b, deals in lad.pairings():
        planned[(a, b)] = lad.seats * deals
        got = pairing(cache, lad, a, b, deals, seed, size)
        spent += got["cpu_s"]
        if got["games"]:
            results[(a, b)] = (got["wins"], got["games"])
            diffs[(a, b)] = got["diff"] / got["games"]
    rated = sorted({p for pair in results for p in pair}, key=lad.players.index)
    zero = lad.anchors[0]
    # Bradley-Terry rates pairs: a table of one player against two anchors has no rating.
    two = lad.seats == 2
    ratings = bradley_terry(rated, results, zero) if zero in rated and two else {}
    what = "win rate" if two else f"win share (fair {100 / lad.seats:.1f}%)"
    against = "vs" if two else f"vs {lad.seats - 1}x"
    base = cpu.get(zero)
    lines = [
        f"#### {lad.name} (`{rules_label(lad.rules)}`)",
        "",
        f"| player | CPU ms/game | x {zero} | "
        + " | ".join(f"{against} {b}: {what} [95%], score diff (games)" for b in lad.anchors)
        + (f" | rating ({zero} = 0) |" if two else " |"),
        "|---" * (3 + two + len(lad.anchors)) + "|",
    ]
    for a in lad.players:
        cells = []
        for b in lad.anchors:
            if a == b:
                cells.append("")
                continue
            flip = (a, b) not in planned
            key = (b, a) if flip else (a, b)
            if planned.get(key, 0) == 0:
                cells.append("not run")
                continue
            if key not in results:
                cells.append(f"not run (0 of {planned[key]})")
                continue
            wins, n = results[key]
            d = diffs[key]
            if flip:
                wins, d = n - wins, -d
            lo, hi = wilson(wins, n)
            count = f"{n}" if n == planned[key] else f"{n} of {planned[key]}"
            cells.append(
                f"{100 * wins / n:.1f}% [{100 * lo:.1f}-{100 * hi:.1f}], {d:+.1f} ({count})"
            )
        c = cpu[a]
        ms = "not run" if c is None else f"{c[0]:,.1f}"
        ratio = "" if c is None or base is None else _ratio(c[0] / base[0])
        rating = f"{ratings[a]:+.0f}" if a in ratings else "-"
        # Won or lost every game: the prior alone holds the rating, a bound.
        won = [w if x == a else n - w for (x, y), (w, n) in results.items() if a in (x, y)]
        games = sum(n for (x, y), (w, n) in results.items() if a in (x, y))
        if a in ratings and a != zero and sum(won) in (0, games):
            rating = ("<= " if sum(won) == 0 else ">= ") + rating
        tail = f" | {rating} |" if two else " |"
        lines.append(f"| `{a}` | {ms} | {ratio} | " + " | ".join(cells) + tail)
    timed = ", ".join(f"{p} {c[1]}" for p, c in cpu.items() if c is not None)
    lines += [
        "",
        f"Self-play games timed: {timed}. Pairings: {spent / 60:.1f} CPU minutes.",
        "",
    ]
    return lines


def interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", type=Path, default=Path(__file__).with_name("ladder.toml"))
    ap.add_argument("--cache", type=Path, help="JSON of finished work (default: CONFIG.json)")
    ap.add_argument("--table", action="store_true", help="print the tables from the cache only")
    ap.add_argument("--threads", type=int, default=1, help="threads for the pairings' games")
    ap.add_argument("--out", type=Path, help="write the markdown tables to this file")
    ap.add_argument(
        "--ladder", action="append", default=[], metavar="NAME", help="play only these ladders"
    )
    ap.add_argument(
        "--merge",
        action="append",
        default=[],
        type=Path,
        metavar="FILE",
        help="first fold another cache of the same engine into --cache (runs side by side)",
    )
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, interrupt)  # `kill PID` stops it as Ctrl-C does
    seed, size, ladders = read_config(args.config)
    names = [lad.name for lad in ladders]
    unknown = [n for n in args.ladder if n not in names]
    if unknown:
        raise SystemExit(f"--ladder {unknown[0]!r}: the config has {names}")
    cache = Cache(args.cache or args.config.with_suffix(".json"))
    for other in args.merge:
        cache.merge(Cache(other))
    if not args.table:
        cache.bind_engine(engine_fingerprint(), weights_note())
        log(f"engine {cache.data['engine']}, weights {cache.data['weights']}")
        chosen = [lad for lad in ladders if not args.ladder or lad.name in args.ladder]
        try:
            run(cache, chosen, seed, size, args.threads)
        except KeyboardInterrupt:
            log("stopped; finished chunks are in the cache")
    lines = [
        f"Config `{args.config.name}`, master seed {seed}, {size} deals a chunk; engine "
        f"fingerprint {cache.data['engine']}; weights {cache.data['weights']}.",
        "",
    ]
    for lad in ladders:
        lines += table(cache, lad, seed, size)
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    sys.exit(main())
