"""Running summary of one set of games: exact sums (so the same numbers however a study was
chunked), win rates with Wilson intervals, score spread and histogram, points by source."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from carcassonne.stats.intervals import wilson

if TYPE_CHECKING:
    from carcassonne.results import Results


class Moments:
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
        self._scores = Moments(p)
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
