"""Running statistics for studies: per-variant summaries and paired comparisons.

Everything here is streaming: a :class:`Tally` or a :class:`Comparison` takes results chunk by
chunk and keeps only exact sums (integer sums and sums of squares, and how many games had
each score), so a study of any length summarises in constant memory, and to the same numbers
however it was chunked.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from carcassonne.results import Results

Z95 = 1.959963984540054


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for a proportion k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(mean: float, sd: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Normal-approximation 95% interval of a mean: mean +- z * sd / sqrt(n)."""
    if n < 2 or not math.isfinite(sd):
        return (math.nan, math.nan)
    half = z * sd / math.sqrt(n)
    return (mean - half, mean + half)


class _Moments:
    """Exact running sums of integer observations per column (count, sum, sum of squares in
    Python integers): the mean and the variance do not depend on how the data was chunked,
    so a study gives the same summary on any number of threads or machines."""

    def __init__(self, width: int) -> None:
        self.n = 0
        self.sum = [0] * width
        self.sumsq = [0] * width

    def add(self, x: np.ndarray) -> None:
        """Add rows of integer observations, x: (k, width)."""
        x = np.asarray(x, dtype=np.int64)
        if not len(x):
            return
        self.n += len(x)
        s, q = x.sum(axis=0), (x * x).sum(axis=0)
        self.sum = [a + int(b) for a, b in zip(self.sum, s, strict=True)]
        self.sumsq = [a + int(b) for a, b in zip(self.sumsq, q, strict=True)]

    def mean(self) -> np.ndarray:
        if not self.n:
            return np.full(len(self.sum), np.nan)
        return np.array([s / self.n for s in self.sum])

    def sd(self) -> np.ndarray:
        """Sample standard deviation (n - 1), exact up to the final rounding."""
        if self.n < 2:
            return np.full(len(self.sum), np.nan)
        n = self.n
        return np.array(
            [
                math.sqrt((n * q - s * s) / (n * (n - 1)))
                for s, q in zip(self.sum, self.sumsq, strict=True)
            ]
        )


class Tally:
    """Running summary of one set of games (one variant): win rates, score mean, spread and
    histogram per seat, points by source, game length, discards."""

    def __init__(
        self,
        players: int,
        sources: Sequence[str],
        *,
        name: str = "",
        rules: Mapping[str, Any] | None = None,
        policies: Sequence[str] | None = None,
        master_seed: int | None = None,
    ) -> None:
        self.players = players
        self.sources = tuple(sources)
        self.name = name
        self.rules = dict(rules) if rules is not None else None
        self.policies = list(policies) if policies is not None else None
        self.master_seed = master_seed
        p, s = players, len(self.sources)
        self.n = 0
        self.wins = np.zeros(p, np.int64)
        self.ties = 0
        self._scores = _Moments(p)
        # Per seat: score -> games. Only the scores that occur, so one huge score costs one
        # entry (exact quantiles, and memory that does not grow with the scores' size).
        self._score_counts: list[dict[int, int]] = [{} for _ in range(p)]
        self.source_sum = np.zeros((p, s), np.int64)
        self.turns_sum = 0
        self.turns_min: int | None = None
        self.turns_max: int | None = None
        self.discarded_sum = 0
        self.discarded_games = 0

    # -- adding games ---------------------------------------------------------------------

    def add(
        self,
        scores: np.ndarray,
        won: np.ndarray,
        breakdown: np.ndarray,
        turns: np.ndarray,
        discarded: np.ndarray,
    ) -> None:
        """Add k games: scores (k, players), won (k, players) bool, breakdown
        (k, players, sources), turns (k,), discarded (k,)."""
        k = len(turns)
        if k == 0:
            return
        scores = np.asarray(scores)
        self._scores.add(scores)
        self.n += k
        won = np.asarray(won, dtype=bool)
        self.wins += won.sum(axis=0)
        self.ties += int((won.sum(axis=1) > 1).sum())
        for p in range(self.players):
            values, counts = np.unique(scores[:, p].astype(np.int64), return_counts=True)
            seen = self._score_counts[p]
            for v, c in zip(values.tolist(), counts.tolist(), strict=True):
                seen[v] = seen.get(v, 0) + c
        self.source_sum += np.asarray(breakdown, dtype=np.int64).sum(axis=0)
        t = np.asarray(turns, dtype=np.int64)
        self.turns_sum += int(t.sum())
        lo, hi = int(t.min()), int(t.max())
        self.turns_min = lo if self.turns_min is None else min(self.turns_min, lo)
        self.turns_max = hi if self.turns_max is None else max(self.turns_max, hi)
        d = np.asarray(discarded, dtype=np.int64)
        self.discarded_sum += int(d.sum())
        self.discarded_games += int((d > 0).sum())

    def add_results(self, res: Results) -> None:
        if self.rules is None:
            self.rules = res.rules.to_dict()
        if self.policies is None:
            self.policies = res.seat_policies()
        if self.master_seed is None:
            self.master_seed = res.master_seed
        self.add(res.scores, res.won(), res.breakdown, res.turns, res.discarded)

    # -- reading --------------------------------------------------------------------------

    def win_rate(self) -> np.ndarray:
        return self.wins / self.n if self.n else np.full(self.players, np.nan)

    def win_interval(self, p: int) -> tuple[float, float]:
        return wilson(int(self.wins[p]), self.n)

    @property
    def score_mean(self) -> np.ndarray:
        """Mean score per seat."""
        return self._scores.mean() if self.n else np.zeros(self.players)

    def score_sd(self) -> np.ndarray:
        """Standard deviation of the score per seat (0 with fewer than two games)."""
        if self.n < 2:
            return np.zeros(self.players)
        return self._scores.sd()

    def score_counts(self, p: int) -> tuple[np.ndarray, np.ndarray]:
        """Seat p's scores that occurred, ascending, and how many games had each."""
        seen = self._score_counts[p]
        values = np.array(sorted(seen), dtype=np.int64)
        return values, np.array([seen[v] for v in values.tolist()], dtype=np.int64)

    def score_histogram(self, p: int, bins: int = 100) -> tuple[np.ndarray, np.ndarray]:
        """Seat p's score distribution in at most ``bins`` equal ranges of whole points
        spanning every seat's scores: (first score of each range, share of games)."""
        lo = min((self.score_min(s) for s in range(self.players)), default=0)
        hi = max((self.score_max(s) for s in range(self.players)), default=0)
        width = max(1, math.ceil((hi - lo + 1) / bins))
        starts = np.arange(lo, hi + 1, width, dtype=np.int64)
        values, counts = self.score_counts(p)
        share = np.zeros(len(starts))
        np.add.at(share, (values - lo) // width, counts / max(self.n, 1))
        return starts, share

    def score_quantile(self, p: int, q: float) -> int:
        """The q-quantile of seat p's score (exact: the lowest score with at least a share
        q of the games at or below it)."""
        if self.n == 0:
            return 0
        values, counts = self.score_counts(p)
        i = int(np.searchsorted(np.cumsum(counts), q * self.n, side="left"))
        return int(values[min(i, len(values) - 1)])

    def score_min(self, p: int) -> int:
        return min(self._score_counts[p], default=0)

    def score_max(self, p: int) -> int:
        return max(self._score_counts[p], default=0)

    def source_means(self) -> np.ndarray:
        """Mean points per game, (players, sources)."""
        return self.source_sum / self.n if self.n else np.zeros(self.source_sum.shape)

    def turns_mean(self) -> float:
        return self.turns_sum / self.n if self.n else math.nan

    def summary(
        self,
        elapsed: float | None = None,
        interrupted: bool = False,
        games_total: int | None = None,
    ) -> str:
        """A readable summary (what ``carcassonne simulate`` prints)."""
        n = self.n
        head = f"{n:,} games"
        if interrupted:
            head += f" of {games_total:,}" if games_total else ""
        head += f", {self.players} players"
        if self.policies:
            pol = self.policies
            head += f", policy {pol[0] if len(set(pol)) == 1 else ','.join(pol)}"
        if self.master_seed is not None:
            head += f", seed {self.master_seed}"
        if interrupted:
            head += "  (interrupted: partial results)"
        lines = [f"{self.name}: {head}" if self.name else head]
        if self.rules is not None:
            lines.append("rules: " + ", ".join(f"{k}={v}" for k, v in self.rules.items()))
        if n == 0:
            return "\n".join(lines)
        lines += ["", self._seat_table(), ""]
        lines.append(
            f"shared wins (ties): {self.ties:,} game{'' if self.ties == 1 else 's'} "
            f"({self.ties / n:.1%})"
        )
        lines.append("")
        lines.append("mean points per game by source:")
        means = self.source_means()
        lines.append(
            f"  {'source':<16}"
            + "".join(f"{'seat ' + str(p + 1):>9}" for p in range(self.players))
            + f"{'share':>8}"
        )
        total = max(float(means.sum()), 1e-12)
        base = ("roads", "cities", "monasteries", "gardens", "fields")
        for s, name in enumerate(self.sources):
            if name not in base and not means[:, s].any():
                continue  # an expansion's source, and that expansion is not in play
            lines.append(
                f"  {name:<16}"
                + "".join(f"{v:>9.2f}" for v in means[:, s])
                + f"{means[:, s].sum() / total:>8.1%}"
            )
        lines.append(
            f"  {'total':<16}" + "".join(f"{v:>9.2f}" for v in means.sum(axis=1)) + f"{1:>8.0%}"
        )
        lines.append("")
        lines.append(
            f"game length: {self.turns_mean():.1f} turns "
            f"(min {self.turns_min}, max {self.turns_max})"
        )
        any_ = f"{self.discarded_games:,} game{'' if self.discarded_games == 1 else 's'}"
        lines.append(f"tiles discarded: {self.discarded_sum / n:.3f} per game ({any_} with any)")
        if elapsed is not None and elapsed > 0:
            lines.append(f"speed: {n / elapsed:,.0f} games/s ({elapsed:.2f} s)")
        return "\n".join(lines)

    def _seat_table(self) -> str:
        pol = self.policies or ["?"] * self.players
        w = max(6, *(len(x) for x in pol))
        rows = [
            f"{'seat':>4}  {'policy':<{w}}  {'win rate':>8}  {'95% interval':>16}  "
            f"{'mean score':>10}  {'sd':>6}  {'10%-90%':>9}  {'min-max':>9}"
        ]
        rate, sd = self.win_rate(), self.score_sd()
        for p in range(self.players):
            lo, hi = self.win_interval(p)
            q = f"{self.score_quantile(p, 0.1)}-{self.score_quantile(p, 0.9)}"
            mm = f"{self.score_min(p)}-{self.score_max(p)}"
            rows.append(
                f"{p + 1:>4}  {pol[p % len(pol)]:<{w}}  {rate[p]:>8.1%}  "
                f"[{lo:6.1%}, {hi:6.1%}]  {self.score_mean[p]:>10.2f}  {sd[p]:>6.2f}  "
                f"{q:>9}  {mm:>9}"
            )
        return "\n".join(rows)


class Paired:
    """Per-seat paired differences (variant minus baseline) over games with the same seed:
    the win indicator and the score."""

    def __init__(self, players: int) -> None:
        self.players = players
        self._won = _Moments(players)
        self._score = _Moments(players)

    @property
    def n(self) -> int:
        return self._won.n

    def add(
        self, won_base: np.ndarray, won: np.ndarray, score_base: np.ndarray, score: np.ndarray
    ) -> None:
        """Add k paired games: each argument is (k, players)."""
        dw = np.asarray(won, dtype=np.int64) - np.asarray(won_base, dtype=np.int64)
        ds = np.asarray(score, dtype=np.int64) - np.asarray(score_base, dtype=np.int64)
        self._won.add(dw)
        self._score.add(ds)

    def win(self, p: int) -> tuple[float, float, float]:
        """Difference of win rate for seat p: (mean, low, high), 95%."""
        m = float(self._won.mean()[p])
        return (m, *mean_interval(m, float(self._won.sd()[p]), self.n))

    def score(self, p: int) -> tuple[float, float, float]:
        """Difference of mean score for seat p: (mean, low, high), 95%."""
        m = float(self._score.mean()[p])
        return (m, *mean_interval(m, float(self._score.sd()[p]), self.n))


@dataclass
class _Pending:
    seeds: np.ndarray
    scores: np.ndarray
    won: np.ndarray
    matched: np.ndarray  # base only: how many other variants matched this row


def _empty_pending(players: int) -> _Pending:
    return _Pending(
        np.zeros(0, np.uint64),
        np.zeros((0, players), np.int64),
        np.zeros((0, players), bool),
        np.zeros(0, np.int64),
    )


@dataclass
class Comparison:
    """Paired comparison of rule variants played on the same game seeds.

    ``tallies[name]`` summarises each variant; ``paired[name]`` holds the per-seat
    differences of each non-baseline variant from ``baseline``, over the games that both
    played with the same seed. Games are matched by seed, so results may arrive in any order
    (chunks, files); rows that never found their partner are counted in ``unpaired``.
    """

    names: list[str]
    players: int
    sources: tuple[str, ...]
    baseline: str
    tallies: dict[str, Tally]
    paired: dict[str, Paired]
    policy: str | None = None
    master_seed: int | None = None
    _pending: dict[str, _Pending] = field(default_factory=dict, repr=False)

    @classmethod
    def empty(
        cls,
        names: Sequence[str],
        players: int,
        sources: Sequence[str],
        *,
        baseline: str | None = None,
        policy: str | None = None,
        master_seed: int | None = None,
    ) -> Comparison:
        names = list(names)
        if len(names) < 2:
            raise ValueError("a comparison needs at least two variants")
        if len(set(names)) != len(names):
            raise ValueError("variant names must be distinct")
        base = names[0] if baseline is None else baseline
        if base not in names:
            raise ValueError(f"baseline {base!r} is not one of the variants: {', '.join(names)}")
        return cls(
            names=names,
            players=players,
            sources=tuple(sources),
            baseline=base,
            tallies={n: Tally(players, sources, name=n, master_seed=master_seed) for n in names},
            paired={n: Paired(players) for n in names if n != base},
            policy=policy,
            master_seed=master_seed,
            _pending={n: _empty_pending(players) for n in names},
        )

    def add_variant(self, name: str) -> None:
        """Compare one more variant with the baseline (its games pair with the baseline
        games that are still waiting for a partner)."""
        if name in self._pending:
            return
        self.names.append(name)
        self.tallies.setdefault(
            name, Tally(self.players, self.sources, name=name, master_seed=self.master_seed)
        )
        self.paired[name] = Paired(self.players)
        self._pending[name] = _empty_pending(self.players)

    def add_results(self, name: str, res: Results) -> None:
        self.tallies[name].add_results(res)
        self.add_games(name, res.seed, res.scores, res.won())

    def add_games(self, name: str, seeds: np.ndarray, scores: np.ndarray, won: np.ndarray) -> None:
        """Feed the pairing with k games of variant ``name`` (the tallies are fed
        separately): seeds (k,), scores and won (k, players)."""
        if name not in self._pending:
            raise ValueError(f"unknown variant {name!r}")
        pend = self._pending[name]
        pend.seeds = np.concatenate([pend.seeds, np.asarray(seeds, np.uint64)])
        pend.scores = np.concatenate([pend.scores, np.asarray(scores, np.int64)])
        pend.won = np.concatenate([pend.won, np.asarray(won, bool)])
        pend.matched = np.concatenate([pend.matched, np.zeros(len(seeds), np.int64)])
        others = [n for n in self.names if n != self.baseline]
        for other in others if name == self.baseline else [name]:
            self._match(other)
        base = self._pending[self.baseline]
        keep = base.matched < len(others)
        if not keep.all():
            self._pending[self.baseline] = _Pending(
                base.seeds[keep], base.scores[keep], base.won[keep], base.matched[keep]
            )

    def _match(self, name: str) -> None:
        base, pend = self._pending[self.baseline], self._pending[name]
        if not len(base.seeds) or not len(pend.seeds):
            return
        _, ib, iv = np.intersect1d(base.seeds, pend.seeds, return_indices=True)
        if not len(ib):
            return
        self.paired[name].add(base.won[ib], pend.won[iv], base.scores[ib], pend.scores[iv])
        base.matched[ib] += 1
        keep = np.ones(len(pend.seeds), bool)
        keep[iv] = False
        self._pending[name] = _Pending(
            pend.seeds[keep], pend.scores[keep], pend.won[keep], pend.matched[keep]
        )

    @property
    def unpaired(self) -> dict[str, int]:
        """Games still waiting for their partner, per variant."""
        return {n: len(p.seeds) for n, p in self._pending.items()}

    def differences(self) -> list[dict[str, Any]]:
        """One row per (variant, seat): paired differences from the baseline with 95%
        intervals. ``seat`` is 0-based; win-rate differences are fractions (0.012 = 1.2
        percentage points)."""
        rows = []
        for name, pr in self.paired.items():
            for p in range(self.players):
                w, wlo, whi = pr.win(p)
                s, slo, shi = pr.score(p)
                rows.append(
                    {
                        "variant": name,
                        "baseline": self.baseline,
                        "seat": p,
                        "games": pr.n,
                        "win_diff": w,
                        "win_low": wlo,
                        "win_high": whi,
                        "score_diff": s,
                        "score_low": slo,
                        "score_high": shi,
                    }
                )
        return rows

    def summary(self, elapsed: float | None = None, interrupted: bool = False) -> str:
        """Each variant's seat table, then the paired differences."""
        lines = []
        for name in self.names:
            t = self.tallies[name]
            rules = ", ".join(f"{k}={v}" for k, v in (t.rules or {}).items())
            tag = " (baseline)" if name == self.baseline else ""
            lines.append(f"variant {name}{tag}: {t.n:,} games; rules: {rules}")
            if t.n:
                lines.append(t._seat_table())
            lines.append(
                "  points by source (all seats): "
                + ", ".join(
                    f"{s} {v:.2f}"
                    for s, v in zip(t.sources, t.source_means().sum(axis=0), strict=True)
                )
            )
            lines.append("")
        lines.append(format_differences(self.differences(), self.baseline))
        unpaired = sum(self.unpaired.values())
        if unpaired:
            lines.append(f"({unpaired:,} games had no partner with the same seed)")
        if interrupted:
            lines.append("(interrupted: partial results)")
        if elapsed:
            n = sum(t.n for t in self.tallies.values())
            lines.append(f"speed: {n / elapsed:,.0f} games/s ({elapsed:.2f} s)")
        return "\n".join(lines)


def _signed(x: float, fmt: str) -> str:
    return "n/a" if not math.isfinite(x) else format(x, "+" + fmt)


def format_differences(rows: list[dict[str, Any]], baseline: str) -> str:
    """The paired-difference table as text; '*' marks intervals that exclude zero."""
    if not rows:
        return "no paired games"
    n = rows[0]["games"]
    w = max(7, *(len(r["variant"]) for r in rows))
    out = [
        f"paired differences, variant minus baseline {baseline!r} "
        f"({n:,} games on the same seeds; 95% intervals, * excludes 0):",
        f"  {'variant':<{w}}  {'seat':>4}  {'win rate (points of %)':<28}  mean score",
    ]
    for r in rows:
        win = (
            f"{_signed(100 * r['win_diff'], '.2f')} "
            f"[{_signed(100 * r['win_low'], '.2f')}, {_signed(100 * r['win_high'], '.2f')}]"
        )
        score = (
            f"{_signed(r['score_diff'], '.2f')} "
            f"[{_signed(r['score_low'], '.2f')}, {_signed(r['score_high'], '.2f')}]"
        )
        win += " *" if r["win_low"] > 0 or r["win_high"] < 0 else ""
        score += " *" if r["score_low"] > 0 or r["score_high"] < 0 else ""
        out.append(f"  {r['variant']:<{w}}  {r['seat'] + 1:>4}  {win:<28}  {score}")
    return "\n".join(out)
