"""Intervals and tests: Wilson for a proportion, the normal interval of a mean (from exact sums
or from an array), a bootstrap interval of a spread, p-values and Holm's adjustment."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

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


@dataclass
class Estimate:
    """A mean with its 95% interval (``low``, ``high``) over ``n`` independent units."""

    mean: float
    low: float
    high: float
    n: int
    var: float = math.nan  # variance of the estimate (sd^2 / n)

    @property
    def half(self) -> float:
        """The interval's half-width before any clipping to the possible range."""
        if self.n < 2:
            return math.inf
        if math.isfinite(self.var) and self.var >= 0:
            return Z95 * math.sqrt(self.var)
        return (self.high - self.low) / 2

    def p_value(self, null: float = 0.0) -> float:
        if not self.var > 0:
            return 1.0 if self.mean == null else 0.0
        z = abs(self.mean - null) / math.sqrt(self.var)
        return math.erfc(z / math.sqrt(2))

    def to_dict(self) -> dict[str, float]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}


def estimate(x: np.ndarray) -> Estimate:
    x = np.asarray(x, np.float64)
    x = x[~np.isnan(x)]
    n = len(x)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    m = float(x.mean())
    if n < 2:
        return Estimate(m, math.nan, math.nan, n)
    var = float(x.var(ddof=1)) / n
    h = Z95 * math.sqrt(var)
    return Estimate(m, m - h, m + h, n, var)


def clip01(e: Estimate, low: float = 0.0) -> Estimate:
    """A rate's interval kept inside [0, 1] (a difference of rates: [-1, 1]); the normal
    approximation can leave it with few deals."""
    if e.n < 2:
        return e
    return Estimate(e.mean, max(low, e.low), min(1.0, e.high), e.n, e.var)


def spread_interval(dwin: np.ndarray, resamples: int = 400) -> Estimate:
    """Highest minus lowest column mean (seats' win rates, rows: deals), with a bootstrap
    interval over rows (a fixed generator: the same rows give the same interval)."""
    dwin = dwin[~np.isnan(dwin).any(axis=1)]
    n = len(dwin)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    w = dwin.mean(axis=0)
    stat = float(w.max() - w.min())
    if n < 2:
        return Estimate(stat, math.nan, math.nan, n)
    rng = np.random.default_rng(12345)
    acc = np.zeros((resamples, dwin.shape[1]))
    weight = np.zeros(resamples)
    step = max(1, 4_000_000 // resamples)
    for lo in range(0, n, step):
        block = dwin[lo : lo + step]
        counts = rng.poisson(1.0, size=(resamples, len(block))).astype(np.float64)
        acc += counts @ block
        weight += counts.sum(axis=1)
    boot = acc / np.maximum(weight, 1.0)[:, None]  # each resample's mean win rate per seat
    spread = boot.max(axis=1) - boot.min(axis=1)
    lo_q, hi_q = np.quantile(spread, [0.025, 0.975])
    return Estimate(stat, float(lo_q), float(hi_q), n, float(spread.var(ddof=1)))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of ``pvalues`` (family-wise error over all the comparisons
    shown), in the order given."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted
