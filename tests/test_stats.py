"""The statistics of studies (carcassonne.studies.stats), pinned to the last digit: the one
analysis of every study command reads them from this one place, so a change of any figure
here changes every report."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest

from carcassonne.studies import analysis
from carcassonne.studies.stats import (
    clip01,
    estimate,
    mean_interval,
    simultaneous,
    spread_difference,
    spread_interval,
    wilson,
)


def test_wilson_interval():
    assert wilson(37, 120) == (0.23272736988916298, 0.39582997723800684)
    assert wilson(0, 10) == (0.0, 0.2775327998628892)
    assert wilson(3, 0) == (0.0, 1.0)


def test_normal_interval_of_a_mean_from_its_sd():
    assert mean_interval(2.0, 6.78232998312527, 5) == (-3.9448651078376846, 7.944865107837685)
    assert all(math.isnan(x) for x in mean_interval(2.0, 1.0, 1))


def test_estimate_of_a_mean_over_units_nan_left_out():
    e = estimate(np.array([0.5, 1.0, 0.0, 0.25, 1.0, 0.75, np.nan, 0.5]))
    assert (e.mean, e.low, e.high, e.n, e.var) == (
        0.5714285714285714,
        0.29436568058687496,
        0.8484914622702678,
        7,
        0.019982993197278913,
    )
    assert e.half == 0.27706289084169644
    assert e.p_value() == 5.29228556914682e-05 and e.p_value(0.5) == 0.613354355954747
    c = clip01(estimate(np.array([1.0, 0.9, 1.0, 1.0])))
    assert (c.mean, c.low, c.high, c.n, c.var) == (
        0.975,
        0.9260009003864986,
        1.0,
        4,
        0.0006249999999999998,
    )


def test_the_spread_between_seats_has_the_pairs_simultaneous_interval():
    dwin = np.random.default_rng(7).random((50, 3))
    e = spread_interval(dwin)
    w = dwin.mean(axis=0)
    assert e.n == 50 and e.mean == pytest.approx(w.max() - w.min())
    # three pairs, each at 1 - 0.05/3: the largest gap's reach is the high end
    z = NormalDist().inv_cdf(1 - 0.025 / 3)
    assert e.z == pytest.approx(z)
    reach = {
        (i, j): z * (dwin[:, i] - dwin[:, j]).std(ddof=1) / math.sqrt(50)
        for i, j in ((0, 1), (0, 2), (1, 2))
    }
    gaps = {(i, j): abs(w[i] - w[j]) for i, j in reach}
    assert e.high == pytest.approx(max(gaps[k] + reach[k] for k in reach))
    assert e.low == pytest.approx(max(0.0, *(gaps[k] - reach[k] for k in reach)))
    # with seats that win alike it reaches down to zero, the spread of the estimates above it
    fair = np.random.default_rng(8).integers(0, 2, 400).astype(float)
    e = spread_interval(np.stack([fair, 1 - fair], axis=1))
    assert e.mean > 0 and e.low == 0 < e.high
    # seats far apart: the interval is the one pair's, clear of zero
    apart = np.stack([fair, np.zeros(400)], axis=1)
    e = spread_interval(apart)
    half = 1.959963984540054 * fair.std(ddof=1) / math.sqrt(400)
    assert (e.low, e.high) == pytest.approx((fair.mean() - half, fair.mean() + half))


def test_the_spread_interval_covers_the_truth():
    # 300 seeded studies of 200 deals at 2, 3 and 5 seats, alike and not: at least about 95%
    # of the intervals hold the true spread (the bootstrap this replaced held 77-89%).
    rng = np.random.default_rng(1)
    for rates in ([0.5, 0.5], [1 / 3] * 3, [0.2] * 5, [0.55, 0.45], [0.24, 0.2, 0.2, 0.2, 0.16]):
        truth = max(rates) - min(rates)
        held = 0
        for _ in range(300):
            won = np.eye(len(rates))[rng.choice(len(rates), size=200, p=rates)]
            e = spread_interval(won)
            held += e.low <= truth <= e.high
        assert held / 300 >= 0.92, (rates, held)


def test_simultaneous_intervals_and_the_paired_spread():
    e = estimate(np.array([1.0, 2.0, 3.0, 4.0]))
    assert simultaneous(e, 1) == e
    wide = simultaneous(e, 4)
    assert (wide.high - wide.mean) / math.sqrt(e.var) == pytest.approx(2.4977, abs=1e-4)
    # The half-width the stopping rule reads is the interval's, widened as printed.
    assert wide.half == pytest.approx(wide.high - wide.mean)
    assert clip01(wide, -1.0).half == wide.half
    a = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 0.0]])
    d = spread_difference(a, a)
    assert d.mean == 0 and d.low == d.high == 0


def test_the_analysis_uses_these_statistics():
    # one definition each: the analysis reads them from carcassonne.studies.stats
    assert analysis.estimate is estimate and analysis.simultaneous is simultaneous
    assert analysis.spread_interval is spread_interval


@pytest.mark.parametrize("n", [2, 10])
def test_estimate_and_mean_interval_agree(n):
    """The array form and the exact-sums form are the same interval (up to rounding)."""
    x = np.arange(n, dtype=np.float64) ** 2
    e = estimate(x)
    lo, hi = mean_interval(float(x.mean()), float(x.std(ddof=1)), n)
    assert (e.low, e.high) == pytest.approx((lo, hi), rel=1e-12)


def test_a_signed_sum_of_spreads_is_the_difference_of_spreads_for_two_terms():
    from carcassonne.studies.stats import spread_contrast, spread_difference

    rng = np.random.default_rng(3)
    a, b, c, d = (rng.integers(0, 2, size=(60, 2)).astype(float) for _ in range(4))
    assert spread_contrast([(a, 1.0), (b, -1.0)]) == spread_difference(a, b)
    e = spread_contrast([(a, 1.0), (b, -1.0), (c, -1.0), (d, 1.0)])
    spread = [x.mean(axis=0).max() - x.mean(axis=0).min() for x in (a, b, c, d)]
    assert e.mean == pytest.approx(spread[0] - spread[1] - spread[2] + spread[3])
    assert e.n == 60 and e.var > 0 and e.low < e.mean < e.high
