"""Luck-adjusted values: a game's result minus its measured luck times a slope.

The batch runner measures each game's luck while playing (``simulate(luck=True)``; the
engine's ``luck.rs``): at every chance outcome and every uniformly broken tie, the forecast
after what happened minus its exact expectation over what could have happened. Each term has
mean zero whatever the forecast is, so ``result - slope * luck`` has the result's mean for any
slope fixed independently of the game. The slope that cuts the variance most is the
regression coefficient of the result on the luck (the control-variate coefficient); it is
*cross-fitted* here: deals are split by parity, and each half is adjusted with the slope
fitted on the other half, so no game's own result enters its adjustment and the adjusted mean
stays unbiased.

V, the engine's forecast, applies the learned evaluation with a model fitted on games of the
study's own rule set, player count and (one-ply) seats, trained on demand and cached
(:func:`carcassonne.training.value_weights`), so that no game is valued by a model of other
games.
"""

from __future__ import annotations

import numpy as np

# Metric -> the luck column(s) its adjustment regresses on ("seat": seat 1's value; "mean":
# the mean over seats; "game": the game's). Metrics not listed are not adjusted.
COVARIATES: dict[str, tuple[tuple[str, str], ...]] = {
    "advantage": (("luck_win", "seat"), ("luck_score", "seat")),
    # the spread of the seats' win rates: each seat adjusted by its own (Study.seat_wins)
    "balance": (("luck_win", "seat"), ("luck_score", "seat")),
    "win": (("luck_win", "seat"), ("luck_score", "seat")),
    "score": (("luck_score", "seat"),),
    "margin": (("luck_margin", "game"),),
    "points": (("luck_score", "mean"),),
}


def covariates(metric: str) -> tuple[tuple[str, str], ...]:
    """The luck columns a metric is adjusted with (empty: it is not adjusted)."""
    return COVARIATES.get("points" if metric.startswith("points:") else metric, ())


def slopes(y: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Least-squares coefficients of ``y`` on the columns of ``x`` (with an intercept, not
    returned); rows with a missing value are left out. Zero where nothing can be fitted."""
    ok = ~np.isnan(y) & ~np.isnan(x).any(axis=1)
    k = x.shape[1]
    if ok.sum() <= k + 1:
        return np.zeros(k)
    xc = x[ok] - x[ok].mean(axis=0)
    yc = y[ok] - y[ok].mean()
    beta, *_ = np.linalg.lstsq(xc, yc, rcond=None)
    return np.nan_to_num(beta)


def adjust(values: np.ndarray, luck: np.ndarray, deals: np.ndarray) -> np.ndarray:
    """``values`` (deals x seat orders; nan where a deal lacks an order) minus the luck
    (deals x seat orders x covariates) times cross-fitted slopes: deals of even number get the
    slopes fitted on the odd ones and the other way round."""
    out = np.array(values, np.float64)
    k = luck.shape[-1]
    flat_y = out.reshape(-1)
    flat_x = luck.reshape(-1, k)
    fold = np.repeat(deals % 2, out.shape[1] if out.ndim > 1 else 1)
    # Both slopes from the unadjusted values, then both halves adjusted.
    betas = [slopes(flat_y[fold != f], flat_x[fold != f]) for f in (0, 1)]
    adjusted = flat_y.copy()
    for f, beta in enumerate(betas):
        at = fold == f
        adjusted[at] = flat_y[at] - flat_x[at] @ beta
    return adjusted.reshape(out.shape)
