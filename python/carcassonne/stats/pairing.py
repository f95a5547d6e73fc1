"""Paired comparison of rule variants played on the same game seeds: per-seat differences
(variant minus baseline) of the win indicator and the score, with 95% intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from carcassonne.stats.intervals import mean_interval
from carcassonne.stats.tally import Moments, Tally

if TYPE_CHECKING:
    from carcassonne.results import Results


class Paired:
    """Per-seat paired differences (variant minus baseline) over games with the same seed:
    the win indicator and the score."""

    def __init__(self, players: int) -> None:
        self.players = players
        self._won = Moments(players)
        self._score = Moments(players)

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
