"""The analysis of a study, whichever command played it: every cell's metrics with 95%
intervals over deals, the paired differences from the baseline, and the answer in words.

The unit of analysis is the *deal*: per-deal averages over its seat orders are independent,
so every interval here is a normal-approximation 95% interval of a mean over deals (for the
non-linear balance metric: from the seat pairs' simultaneous intervals in a cell, a paired
bootstrap over deals for its differences). The headline difference of a study
(seat 1's win rate in each variant minus the baseline, paired by deal) is reported with the
variance it would have had from the same number of unpaired, unrotated games.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from carcassonne.policies import seat_texts
from carcassonne.studies.luck import adjust, covariates
from carcassonne.studies.plan import METRICS, MIN_STOP_DEALS, RATE_METRICS, CellKey, Plan
from carcassonne.studies.stats import (
    Estimate,
    clip01,
    estimate,
    simultaneous,
    spread_contrast,
    spread_difference,
    spread_interval,
)
from carcassonne.studies.table import SOURCES

# -- analysis ------------------------------------------------------------------------------


@dataclass
class CellStats:
    """Every metric of one cell, each with its interval over deals."""

    key: CellKey
    deals: int
    games: int
    rotations: int
    policies: list[str]
    win: list[Estimate]  # per seat (shared wins as the table counts them)
    score: list[Estimate]
    first_advantage: Estimate  # seat 1's win rate minus the fair share (fair_share)
    # A seat's win rate if the seats were alike: 1/P, or with whole wins for tied seats
    # (--ties whole) the winners per game over P, as each tie adds a win.
    fair_share: float
    first_minus_last_win: Estimate
    first_minus_last_score: Estimate
    balance: Estimate  # highest minus lowest seat win rate (stats.spread_interval)
    shared: Estimate  # share of games with a shared win
    margin: Estimate  # winner's score minus the runner-up's
    turns: Estimate
    sources: dict[str, list[Estimate]]  # source -> per seat
    player_win: list[Estimate]  # per player of a mixed level (over seat orders)
    lead_changes: Estimate
    lead_turn: Estimate
    figures_unused: list[Estimate]
    scores: list[np.ndarray] = field(repr=False, default_factory=list)  # per seat, all games


@dataclass
class Difference:
    """A variant minus the baseline, in one (skill, players): paired by deal."""

    variant: str
    baseline: str
    skill: str
    players: int
    metric: str  # the question (plan.METRICS)
    value: Estimate  # the metric, variant - baseline (simultaneous 95% interval)
    win: Estimate  # seat 1's win rate, variant - baseline
    score: Estimate  # seat 1's mean score
    var_unpaired: float  # variance of ``value`` from as many unpaired games (nan: unknown)
    p_adjusted: float = 1.0  # Bonferroni over every difference of the study
    raw: Estimate | None = None  # luck-adjusted ``value``: the same difference unadjusted

    @property
    def luck_ratio(self) -> float:
        """How many times the luck adjustment cut the variance (nan: not adjusted)."""
        if self.raw is None or not self.value.var > 0:
            return math.nan
        return self.raw.var / self.value.var

    @property
    def variance_ratio(self) -> float:
        return self.var_unpaired / self.value.var if self.value.var > 0 else math.inf

    @property
    def distinguishable(self) -> bool:
        """Whether the interval excludes zero (the same as p_adjusted < 0.05)."""
        return excludes_zero(self.value)


@dataclass
class SkillContrast:
    """A skill level against the study's first level, in one (variant, players), paired by
    deal: a variant's effect (its :class:`Difference` from the baseline) at ``skill`` minus
    that at ``base_skill``; in a study of one variant, the metric itself at the two levels."""

    variant: str
    baseline: str | None  # None: the metric itself (a study of one variant)
    skill: str
    base_skill: str
    players: int
    metric: str
    value: Estimate  # at skill minus at base_skill (simultaneous 95% interval)
    p_adjusted: float = 1.0  # Bonferroni over every comparison of the study

    @property
    def distinguishable(self) -> bool:
        """Whether the interval excludes zero (the same as p_adjusted < 0.05)."""
        return excludes_zero(self.value)


class Study:
    """A study's rows and everything computed from them (see :func:`run`, :func:`load`)."""

    def __init__(
        self,
        plan: Plan | None,
        rows: Mapping[str, np.ndarray],
        baseline: str | None = None,
        metric: str | None = None,
        raw: bool = False,
    ) -> None:
        self.rows = dict(rows)
        # Luck-adjusted estimates where the table holds the games' luck, unless ``raw``.
        self.raw = raw
        self._lucky: dict[CellKey, bool] = {}
        self.plan = plan
        self._baseline = baseline
        self.metric = metric or (plan.metric if plan is not None else "advantage")
        self.elapsed = 0.0
        self.played = 0
        self.workers: int | None = None
        self.threads = 1
        self.interrupted = False
        self.until: float | None = None
        self._cells: dict[CellKey, CellStats] | None = None
        self._where: dict[CellKey, tuple[np.ndarray, np.ndarray, np.ndarray, int]] = {}
        self._diffs: list[Difference] | None = None
        self._contrasts: list[SkillContrast] = []

    # -- structure --

    def keys(self) -> list[CellKey]:
        seen: dict[CellKey, None] = {}
        r = self.rows
        if len(r["deal"]):
            change = np.zeros(len(r["deal"]), bool)
            change[0] = True
            for c in ("variant", "skill", "players"):
                change[1:] |= r[c][1:] != r[c][:-1]
            for i in np.flatnonzero(change):
                seen.setdefault(
                    CellKey(str(r["variant"][i]), str(r["skill"][i]), int(r["players"][i]))
                )
        if self.plan is not None:
            order = {c: i for i, c in enumerate(self.plan.cells())}
            return sorted(seen, key=lambda c: order.get(c, len(order)))
        return list(seen)

    def variants(self) -> list[str]:
        return list(dict.fromkeys(c.variant for c in self.keys()))

    def baseline(self) -> str:
        if self._baseline is not None:
            return self._baseline
        if self.plan is not None and self.plan.baseline:
            return self.plan.baseline
        return self.variants()[0]

    def _index(self, key: CellKey) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """A cell's rows: (row indexes, its deals, each row's deal position, seat orders)."""
        found = self._where.get(key)
        if found is None:
            r = self.rows
            idx = np.flatnonzero(
                (r["players"] == key.players)
                & (r["skill"] == key.skill)
                & (r["variant"] == key.variant)
            )
            deals, di = np.unique(r["deal"][idx], return_inverse=True)
            nrot = int(r["rotations"][idx].max()) if len(idx) else 1
            found = self._where[key] = (idx, deals, di, nrot)
        return found

    def _cube(self, key: CellKey, column: str, by: str = "seat") -> tuple[np.ndarray, np.ndarray]:
        """(deals, seat orders, seats) of a column for one cell (``by="player"``: indexed by
        player instead of seat); and the deal numbers."""
        idx, deals, di, nrot = self._index(key)
        r = self.rows
        cube = np.full((len(deals), nrot, key.players), np.nan)
        cube[di, r["rotation"][idx], r[by][idx]] = r[column][idx].astype(np.float64)
        return cube, deals

    # -- metrics --

    def cells(self) -> dict[CellKey, CellStats]:
        if self._cells is None:
            self._cells = {k: self._cell(k) for k in self.keys()}
        return self._cells

    def _cell(self, key: CellKey) -> CellStats:
        P = key.players
        win, deals = self._cube(key, "win_share")
        score, _ = self._cube(key, "score")
        dwin = np.nanmean(win, axis=1)  # per deal, per seat
        dfair = np.nanmean(fair_shares(win), axis=1)
        dscore = np.nanmean(score, axis=1)
        seat0 = win[:, :, 0]
        shared = np.nanmean((self._cube(key, "margin")[0][:, :, 0] == 0), axis=1)
        margin = np.nanmean(self._cube(key, "margin")[0][:, :, 0], axis=1)
        turns = np.nanmean(self._cube(key, "turns")[0][:, :, 0], axis=1)
        sources = {}
        for s in SOURCES:
            c, _ = self._cube(key, f"points_{s}")
            sources[s] = [estimate(np.nanmean(c[:, :, p], axis=1)) for p in range(P)]
        pwin = np.nanmean(self._cube(key, "win_share", by="player")[0], axis=1)
        lc, _ = self._cube(key, "lead_changes")
        lt, _ = self._cube(key, "lead_turn")
        fu, _ = self._cube(key, "figures_unused")
        lcd = np.where(lc[:, :, 0] >= 0, lc[:, :, 0], np.nan)
        ltd = np.where(lt[:, :, 0] >= 0, lt[:, :, 0], np.nan)
        fud = np.where(fu >= 0, fu, np.nan)
        r = self.rows
        idx = self._index(key)[0]
        policies = [""] * P
        for i in idx[r["rotation"][idx] == 0][: 4 * P]:
            policies[int(r["seat"][i])] = str(r["policy"][i])
        return CellStats(
            key=key,
            deals=len(deals),
            games=int(np.count_nonzero(~np.isnan(seat0))),
            rotations=win.shape[1],
            policies=policies,
            win=[clip01(estimate(dwin[:, p])) for p in range(P)],
            score=[estimate(dscore[:, p]) for p in range(P)],
            first_advantage=clip01(estimate(dwin[:, 0] - dfair), -1.0),
            first_minus_last_win=clip01(estimate(dwin[:, 0] - dwin[:, P - 1]), -1.0),
            first_minus_last_score=estimate(dscore[:, 0] - dscore[:, P - 1]),
            balance=spread_interval(dwin),
            shared=clip01(estimate(shared)),
            margin=estimate(margin),
            turns=estimate(turns),
            sources=sources,
            player_win=[clip01(estimate(_nanmean_rows(pwin[:, p]))) for p in range(P)],
            lead_changes=estimate(_nanmean_rows(lcd)),
            lead_turn=estimate(_nanmean_rows(ltd)),
            figures_unused=[estimate(_nanmean_rows(fud[:, :, p])) for p in range(P)],
            scores=[
                score[:, :, p].reshape(-1)[~np.isnan(score[:, :, p].reshape(-1))] for p in range(P)
            ],
            fair_share=float(np.nanmean(dfair)),
        )

    def differences(self) -> list[Difference]:
        """Each variant minus the baseline in every (skill, players), paired by deal: the
        study's metric (with a simultaneous 95% interval and a Bonferroni-adjusted p-value
        over every comparison of the study, these and :meth:`skill_contrasts`, so that the
        two always agree), seat 1's win rate and score."""
        if self._diffs is not None:
            return self._diffs
        base = self.baseline()
        out = []
        keys = self.keys()
        for key in keys:
            if key.variant == base:
                continue
            bkey = CellKey(base, key.skill, key.players)
            if bkey not in keys:
                continue
            out.append(self._difference(key, bkey))
        contrasts = self._skill_contrasts(bool(out))
        m = len(out) + len(contrasts)
        for c in [*out, *contrasts]:
            c.p_adjusted = min(1.0, m * c.value.p_value())
            c.value = simultaneous(c.value, m)
            if isinstance(c, Difference) and c.raw is not None:
                c.raw = simultaneous(c.raw, m)
        self._diffs, self._contrasts = out, contrasts
        return out

    def skill_contrasts(self) -> list[SkillContrast]:
        """With several skill levels: each level against the first, in every (variant,
        players), paired by deal; the variant's effect (with several variants) or the metric
        (with one). Intervals and p-values are simultaneous with :meth:`differences`."""
        self.differences()
        return self._contrasts

    def comparisons(self) -> int:
        """How many comparisons the simultaneous intervals cover."""
        return len(self.differences()) + len(self._contrasts)

    def _skill_contrasts(self, effects: bool) -> list[SkillContrast]:
        keys = self.keys()
        skills = list(dict.fromkeys(k.skill for k in keys))
        if len(skills) < 2:
            return []
        base = self.baseline()
        out = []
        for key in keys:
            first = CellKey(key.variant, skills[0], key.players)
            if key.skill == skills[0] or first not in keys or (effects and key.variant == base):
                continue
            cells = [key, first]
            if effects:
                cells += [
                    CellKey(base, key.skill, key.players),
                    CellKey(base, skills[0], key.players),
                ]
                if not all(c in keys for c in cells):
                    continue
            out.append(
                SkillContrast(
                    variant=key.variant,
                    baseline=base if effects else None,
                    skill=key.skill,
                    base_skill=skills[0],
                    players=key.players,
                    metric=self.metric,
                    value=self._contrast(cells),
                )
            )
        return out

    def _contrast(self, cells: list[CellKey]) -> Estimate:
        """cells[0] - cells[1] (+ cells[3] - cells[2], four cells) of the metric, paired by
        the deals every cell played."""
        signs = [1.0, -1.0, -1.0, 1.0][: len(cells)]
        adjusted = self.adjusts(*cells)
        if self.metric == "balance":
            cubes = [self.seat_wins(c, adjusted) for c in cells]
        else:
            cubes = [self.games(c, self.metric, adjusted) for c in cells]
        common = cubes[0][1]
        for _, deals in cubes[1:]:
            common = np.intersect1d(common, deals)
        parts = [
            (cube[np.searchsorted(deals, common)], sign)
            for (cube, deals), sign in zip(cubes, signs, strict=True)
        ]
        if self.metric == "balance":
            return spread_contrast([(np.nanmean(x, axis=1), sign) for x, sign in parts])
        return estimate(sum(sign * _nanmean_rows(x) for x, sign in parts))

    def adjusts(self, *keys: CellKey, metric: str | None = None) -> bool:
        """Whether the metric of these cells is luck-adjusted: not ``raw``, the metric has
        luck covariates, and every game of every cell had its luck measured."""
        if self.raw or not covariates(metric or self.metric):
            return False
        for key in keys:
            if key not in self._lucky:
                idx = self._index(key)[0]
                self._lucky[key] = bool(len(idx)) and bool(
                    (self.rows["luck_events"][idx] > 0).all()
                )
            if not self._lucky[key]:
                return False
        return True

    def games(
        self, key: CellKey, metric: str, adjusted: bool | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """A linear metric's value in every game of a cell, (deals, seat orders) (nan where
        a deal lacks that order), and the deal numbers; luck-adjusted when ``adjusted`` (by
        default, when :meth:`adjusts` says so)."""
        values, deals = self._raw_games(key, metric)
        if adjusted is None:
            adjusted = self.adjusts(key, metric=metric)
        if adjusted and covariates(metric):
            luck = []
            for column, how in covariates(metric):
                cube, _ = self._cube(key, column)
                luck.append(cube.mean(axis=2) if how == "mean" else cube[:, :, 0])
            values = adjust(values, np.stack(luck, axis=-1), deals)
        return values, deals

    def seat_wins(self, key: CellKey, adjusted: bool) -> tuple[np.ndarray, np.ndarray]:
        """Every seat's win share in every game of a cell, (deals, seat orders, seats) (nan
        where a deal lacks that order), and the deal numbers; when ``adjusted``, each seat's
        less its own luck (the balance metric is a spread of these, so each seat is adjusted
        as seat 1 is for the advantage)."""
        wins, deals = self._cube(key, "win_share")
        if not adjusted:
            return wins, deals
        lw, _ = self._cube(key, "luck_win")
        ls, _ = self._cube(key, "luck_score")
        out = np.empty(wins.shape, np.float64)
        for p in range(wins.shape[2]):
            luck = np.stack([lw[:, :, p], ls[:, :, p]], axis=-1)
            out[:, :, p] = adjust(wins[:, :, p], luck, deals)
        return out, deals

    def _raw_games(self, key: CellKey, metric: str) -> tuple[np.ndarray, np.ndarray]:
        column = {"advantage": "win_share", "win": "win_share", "score": "score"}.get(metric)
        if column is not None:
            cube, deals = self._cube(key, column)
            return cube[:, :, 0] - (fair_shares(cube) if metric == "advantage" else 0), deals
        if metric.startswith("points:"):
            cube, deals = self._cube(key, "points_" + metric[7:])
            return cube.mean(axis=2), deals
        column = {"length": "turns"}.get(metric, metric)
        cube, deals = self._cube(key, column)
        values = cube[:, :, 0]
        if column == "lead_changes":
            values = np.where(values >= 0, values, np.nan)
        return values, deals

    def cell_metric(
        self, key: CellKey, metric: str | None = None, adjusted: bool | None = None
    ) -> Estimate:
        """The metric in one cell, with its 95% interval over deals; luck-adjusted when
        ``adjusted`` (by default, when :meth:`adjusts` says so)."""
        metric = metric or self.metric
        if adjusted is None:
            adjusted = self.adjusts(key, metric=metric)
        if metric == "balance":
            return spread_interval(np.nanmean(self.seat_wins(key, adjusted)[0], axis=1))
        values, _ = self.games(key, metric, adjusted)
        e = estimate(_nanmean_rows(values))
        return clip01(e, -1.0) if metric in RATE_METRICS else e

    def _difference(self, key: CellKey, bkey: CellKey) -> Difference:
        w, deals = self._cube(key, "win_share")
        bw, bdeals = self._cube(bkey, "win_share")
        s, _ = self._cube(key, "score")
        bs, _ = self._cube(bkey, "score")
        common, i, j = np.intersect1d(deals, bdeals, return_indices=True)
        dw = np.nanmean(w[i, :, 0], axis=1) - np.nanmean(bw[j, :, 0], axis=1)
        ds = np.nanmean(s[i, :, 0], axis=1) - np.nanmean(bs[j, :, 0], axis=1)
        var_unpaired = math.nan
        raw = None
        adjusted = self.adjusts(key, bkey)
        if self.metric == "balance":
            sw, _ = self.seat_wins(key, adjusted)
            sb, _ = self.seat_wins(bkey, adjusted)
            value = spread_difference(np.nanmean(sw[i], axis=1), np.nanmean(sb[j], axis=1))
            if adjusted:
                raw = spread_difference(np.nanmean(w[i], axis=1), np.nanmean(bw[j], axis=1))
        else:
            gv, _ = self.games(key, self.metric, adjusted)
            gb, _ = self.games(bkey, self.metric, adjusted)
            value = estimate(_nanmean_rows(gv[i]) - _nanmean_rows(gb[j]))
            if adjusted:
                rv, _ = self.games(key, self.metric, False)
                rb, _ = self.games(bkey, self.metric, False)
                raw = estimate(_nanmean_rows(rv[i]) - _nanmean_rows(rb[j]))
            # the same number of games, unpaired and unrotated: independent single games
            ga, gb = gv[i].reshape(-1), gb[j].reshape(-1)
            ga, gb = ga[~np.isnan(ga)], gb[~np.isnan(gb)]
            if len(ga) > 1 and len(gb) > 1:
                var_unpaired = float(ga.var(ddof=1)) / len(ga) + float(gb.var(ddof=1)) / len(gb)
        return Difference(
            variant=key.variant,
            baseline=bkey.variant,
            skill=key.skill,
            players=key.players,
            metric=self.metric,
            value=value,
            win=clip01(estimate(dw), -1.0),
            score=estimate(ds),
            var_unpaired=var_unpaired,
            raw=raw,
        )

    def headline(self) -> Estimate | None:
        """The study's headline estimate with the widest interval: a variant's effect on the
        metric (with several variants), else the metric in each cell."""
        diffs = self.differences()
        ests = [d.value for d in diffs] if diffs else [self.cell_metric(k) for k in self.keys()]
        ests = [e for e in ests if e.n > 1 and math.isfinite(e.half)]
        if not ests:
            return None
        return max(ests, key=lambda e: e.half)

    def meets(self, until: float) -> bool:
        """Whether the stopping rule ``ci<until`` is met: the headline interval, as printed
        (simultaneous with several comparisons), has a half-width below ``until`` (in the
        metric's unit: percentage points for rates) over at least ``MIN_STOP_DEALS`` deals."""
        h = self.headline()
        return h is not None and h.n >= MIN_STOP_DEALS and h.half * self.scale < until

    @property
    def scale(self) -> int:
        """The metric's unit per unit of its estimates: 100 for rates (percentage points)."""
        return 100 if self.metric in RATE_METRICS else 1

    # -- words --

    def answer(self) -> str:
        """The study's answer in one paragraph of words, with 95% intervals."""
        return answer(self)

    def summary(self) -> str:
        return summary_text(self)


def fair_shares(win: np.ndarray) -> np.ndarray:
    """Each game's fair share of a win, from its seats' win shares (the last axis): the
    shares it handed out over the seats, 1/P unless ties count whole for each tied seat."""
    return win.sum(axis=-1) / win.shape[-1]


def _nanmean_rows(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, np.float64)
    if x.ndim == 1:
        return x
    ok = ~np.isnan(x).all(axis=1)
    out = np.full(len(x), np.nan)
    out[ok] = np.nanmean(x[ok], axis=1)
    return out


def ratio_words(d: Difference, rotated: bool) -> str:
    """What pairing (and rotation) did to the variance of a difference, in words."""
    how = "Pairing by deal" + (" and seat rotation" if rotated else "")
    if not d.value.var > 0:
        return f"{how} left no variance in this difference (every paired difference is 0)."
    if not math.isfinite(d.var_unpaired):
        return ""
    r = d.variance_ratio
    if r >= 1:
        return f"{how} cut the variance of this difference {r:.1f}x against as many unpaired games."
    return (
        f"{how} raised the variance of this difference {1 / r:.1f}x against as many unpaired "
        "games (the variants' games differ too much for pairing to help)."
    )


def stars(p: float) -> str:
    return "***" if p < 0.001 else "**" if p < 0.01 else "*" if p < 0.05 else ""


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def pp(e: Estimate) -> str:
    return f"{100 * e.mean:+.1f} pp [{100 * e.low:+.1f}, {100 * e.high:+.1f}]"


def rate(e: Estimate) -> str:
    return f"{100 * e.mean:.1f}% [{100 * e.low:.1f}, {100 * e.high:.1f}]"


def num(e: Estimate, signed: bool = False) -> str:
    f = "+.1f" if signed else ".1f"
    return f"{e.mean:{f}} [{e.low:{f}}, {e.high:{f}}]"


def value(e: Estimate, metric: str, signed: bool = False) -> str:
    """An estimate of ``metric`` in its unit: percentage points (rates: a signed
    difference or advantage) or %, else points and turns."""
    if metric in RATE_METRICS:
        return pp(e) if signed or metric != "win" else rate(e)
    return num(e, signed)


def metric_words(metric: str) -> str:
    if metric.startswith("points:"):
        return f"the points per player from {metric[7:]}"
    return METRICS[metric]


# Below this, a bound is rounding noise around zero (differences of win rates and scores).
_NOISE = 1e-9


def excludes_zero(e: Estimate) -> bool:
    """Whether an interval lies clear of zero (rounding noise around zero does not count)."""
    return e.low > _NOISE or e.high < -_NOISE


def zero_words(e: Estimate) -> str:
    """Whether an interval tells the estimate from zero, in words."""
    if abs(e.low) <= _NOISE and abs(e.high) <= _NOISE:
        # A zero-width interval at zero: not "distinguishable", simply nothing, every deal.
        return "exactly no effect (the same in every deal)"
    if excludes_zero(e):
        return "distinguishable from no effect"
    return "not distinguishable from no effect: its interval contains zero"


def skill_words(skill: str) -> str:
    seats = seat_texts(skill)
    if len(seats) == 1:
        return f"{seats[0]} players"
    return "seats " + ", ".join(f"{i + 1} {s}" for i, s in enumerate(seats))


def answer(study: Study) -> str:
    """One paragraph: the study's metric, its differences from the baseline (or its value in
    each cell), each with its interval and in words whether it is told from zero."""
    cells = study.cells()
    if not cells:
        return "The study has no finished games yet."
    m = study.metric
    parts: list[str] = []
    diffs = study.differences()
    for d in diffs:
        bkey = CellKey(d.baseline, d.skill, d.players)
        vkey = CellKey(d.variant, d.skill, d.players)
        b, v = study.cell_metric(bkey), study.cell_metric(vkey)
        shares = sorted({pct(cells[k].fair_share) for k in (bkey, vkey)})
        fair = f" ({' and '.join(shares)})" if m == "advantage" else ""
        if d.distinguishable:
            verb = "raises" if d.value.mean > 0 else "lowers"
            change = (
                f"{verb} {metric_words(m)}{fair} from {value(b, m)} ({d.baseline}) to {value(v, m)}"
            )
        else:
            change = (
                f"does not measurably change {metric_words(m)}{fair}: {value(b, m)} "
                f"({d.baseline}), {value(v, m)} ({d.variant})"
            )
        parts.append(
            f"With {skill_words(d.skill)} ({d.players} players), {d.variant} {change}; the "
            f"paired difference, {value(d.value, m, True)} over {d.value.n:,} deals, is "
            f"{zero_words(d.value)} (p = {d.p_adjusted:.2g}). "
            + ratio_words(d, cells[vkey].rotations > 1)
        )
    if not diffs:
        for c in cells.values():
            P = c.key.players
            e = study.cell_metric(c.key)
            if m == "advantage":
                what = (
                    f"seat 1 wins {rate(c.win[0])} of games against a fair share of "
                    f"{pct(c.fair_share)}: an advantage of {pp(e)}"
                )
            else:
                what = f"{metric_words(m)} is {value(e, m)}"
            told = ""
            if m in ("advantage", "balance"):
                told = f", {zero_words(e).replace('no effect', 'none')}"
            parts.append(
                f"With {skill_words(c.key.skill)} ({P} players, {c.key.variant}), {what} over "
                f"{c.deals:,} deals{told}."
            )
    luck = luck_words(study)
    if luck:
        parts.append(luck)
    contrasts = study.skill_contrasts()
    parts += [contrast_words(study, c) for c in contrasts]
    if study.comparisons() > 1:
        what = [f"{len(diffs)} differences from {study.baseline()}"] if diffs else []
        if contrasts:
            what.append(f"{len(contrasts)}{'' if diffs else ' differences'} between skill levels")
        parts.append(
            f"Intervals and p-values of the {' and '.join(what)} are simultaneous "
            "(Bonferroni): each says at 95% what all say together."
        )
    return " ".join(p.strip() for p in parts)


def luck_words(study: Study) -> str:
    """Whether the answer is luck-adjusted and the variance cut it measured, in words, with
    the unadjusted estimate beside ("" when nothing is adjusted)."""
    m = study.metric
    diffs = [d for d in study.differences() if d.raw is not None]
    how = (
        "Luck-adjusted: each game's result less the luck of its draws and tie-breaks as the "
        "learned evaluation measured it (a control variate with a cross-fitted slope, which "
        "leaves the mean unbiased)"
    )
    if diffs:
        told = [
            f"{d.luck_ratio:.1f}x for {d.variant} (unadjusted: {value(d.raw, m, True)})"
            for d in diffs
            if d.raw is not None
        ]
        return f"{how}; it cut the variance of the paired difference " + ", ".join(told) + "."
    cells = [k for k in study.keys() if study.adjusts(k)]
    if study.differences() or not cells:
        return ""
    told = []
    for k in cells:
        adj = study.cell_metric(k)
        raw = study.cell_metric(k, adjusted=False)
        ratio = raw.var / adj.var if adj.var > 0 else math.nan
        told.append(f"{ratio:.1f}x in {k.variant} (unadjusted: {value(raw, m)})")
    return f"{how}; it cut the variance " + ", ".join(told) + "."


def contrast_words(study: Study, c: SkillContrast) -> str:
    """A difference between two skill levels in words: the effect (or the metric) at each
    level, their difference with its interval, and whether it depends on skill."""
    m = c.metric
    if c.baseline is None:
        at = [study.cell_metric(CellKey(c.variant, k, c.players)) for k in (c.base_skill, c.skill)]
        what = f"With {c.players} players ({c.variant}), {metric_words(m)}"
    else:
        by = {(d.variant, d.skill, d.players): d.value for d in study.differences()}
        at = [by[(c.variant, k, c.players)] for k in (c.base_skill, c.skill)]
        what = f"With {c.players} players, the effect of {c.variant} on {metric_words(m)}"
    depends = "depends" if c.distinguishable else "does not measurably depend"
    signed = c.baseline is not None
    return (
        f"{what} {depends} on skill: {value(at[0], m, signed)} with "
        f"{skill_words(c.base_skill)}, {value(at[1], m, signed)} with "
        f"{skill_words(c.skill)}; the difference between the levels, "
        f"{value(c.value, m, True)} over {c.value.n:,} deals, is "
        f"{zero_words(c.value).replace('no effect', 'zero')} (p = {c.p_adjusted:.2g})."
    )


def variant_words(study: Study) -> str:
    """Each variant and its rules (the options that differ from the defaults)."""
    r = study.rows
    named = []
    for v in study.variants():
        i = int(np.flatnonzero(r["variant"] == v)[0])
        rules = str(r["rules"][i])
        named.append(f"{v}: " + ("the default rules" if rules == "default" else rules))
    return "Variants: " + "; ".join(named) + "."


def summary_text(study: Study) -> str:
    """The study in text: the answer, then every cell's metrics and the differences."""
    lines = [answer(study), "", variant_words(study)]
    ties = study.plan.ties if study.plan else ties_of(study.rows)
    lines.append(
        "Win rates count a shared win as 1/k for each of the k tied seats"
        if ties == "split"
        else "Win rates count a shared win as a whole win for each tied seat"
    )
    lines.append("All intervals: 95%, over deals.")
    if any(study.adjusts(k) for k in study.keys()):
        lines.append(
            f"The answer and the paired differences of {metric_words(study.metric)} are "
            "luck-adjusted; the cells' figures below are as measured."
        )
    for c in study.cells().values():
        k = c.key
        lines.append("")
        lines.append(
            f"== {k.variant} | {k.skill} | {k.players} players: {c.deals:,} deals, "
            f"{c.games:,} games ({c.rotations} seat order{'s' if c.rotations > 1 else ''} per deal)"
        )
        lines.append(f"  {'seat':<5}{'policy':<22}{'win rate':<24}{'mean score':<22}figures left")
        for p in range(k.players):
            fu = c.figures_unused[p]
            policy = "every player in turn" if c.rotations > 1 else c.policies[p]
            lines.append(
                f"  {p + 1:<5}{policy[:21]:<22}{rate(c.win[p]):<24}{num(c.score[p]):<22}"
                + (num(fu) if fu.n else "-")
            )
        if c.rotations > 1:
            lines.append(
                "  by player (over every seat): "
                + "; ".join(
                    f"player {p + 1} ({c.policies[p]}) {rate(c.player_win[p])}"
                    for p in range(k.players)
                )
            )
        lines.append(
            f"  first-player advantage (seat 1 - fair share): {pp(c.first_advantage)}; "
            f"seat 1 - seat {k.players}: {pp(c.first_minus_last_win)}, "
            f"{num(c.first_minus_last_score, True)} points"
        )
        lines.append(
            f"  balance (best - worst seat win rate): {pp(c.balance)}; shared wins "
            f"{rate(c.shared)}; margin {num(c.margin)} points; length {num(c.turns)} turns"
        )
        if c.lead_changes.n:
            lines.append(
                f"  lead changes {num(c.lead_changes)}; the winner took the lead for good at "
                f"turn {num(c.lead_turn)} (over {c.lead_changes.n:,} replayed deals)"
            )
        src = [
            f"{s} " + "/".join(f"{e.mean:.1f}" for e in ests)
            for s, ests in c.sources.items()
            if any(e.mean for e in ests)
        ]
        lines.append("  points by source (per seat): " + ", ".join(src))
    diffs = study.differences()
    if diffs:
        lines.append("")
        lines.append(
            f"Paired differences from {study.baseline()}: {metric_words(study.metric)}"
            + (" (simultaneous intervals)" if len(diffs) > 1 else "")
            + "; stars: p < 0.05 *, 0.01 **, 0.001 ***; seat 1's win rate and score beside"
        )
        for d in diffs:
            if not d.value.var > 0:
                var = "every paired difference is 0"
            elif math.isfinite(d.var_unpaired):
                r = d.variance_ratio
                var = f"variance paired {d.value.var:.3g} vs unpaired {d.var_unpaired:.3g} (" + (
                    f"{r:.1f}x less)" if r >= 1 else f"{1 / r:.1f}x more)"
                )
            else:
                var = ""
            if d.raw is not None:
                unadjusted = value(d.raw, d.metric, True)
                var += f"; luck adjustment {d.luck_ratio:.1f}x less (unadjusted {unadjusted})"
            lines.append(
                f"  {d.variant} | {d.skill} | {d.players}p: {value(d.value, d.metric, True)}"
                f"{stars(d.p_adjusted)}  win {pp(d.win)}  score {num(d.score, True)}  {var}"
            )
    contrasts = study.skill_contrasts()
    if contrasts:
        lines.append("")
        lines.append(
            f"Differences between skill levels (each level minus {contrasts[0].base_skill}, "
            "paired by deal, simultaneous intervals): "
            + (
                f"each variant's effect on {metric_words(study.metric)}"
                if contrasts[0].baseline is not None
                else metric_words(study.metric)
            )
        )
        for c in contrasts:
            lines.append(
                f"  {c.variant} | {c.skill} - {c.base_skill} | {c.players}p: "
                f"{value(c.value, c.metric, True)}{stars(c.p_adjusted)}"
            )
    if study.played:
        rate_ = study.played / max(study.elapsed, 1e-9)
        per = study.workers or study.threads
        unit = "worker" if study.workers else "thread"
        lines.append("")
        lines.append(
            f"{study.played:,} games in {study.elapsed:.1f} s: {rate_:,.0f} games/s, "
            f"{rate_ / max(per, 1):,.0f} games/s per {unit} ({per} {unit}s)"
            + ("; interrupted, finished batches kept" if study.interrupted else "")
        )
        if study.until is not None:
            h = study.headline()
            met = study.meets(study.until)
            lines.append(
                f"stopping rule ci<{study.until:g}{' pp' if study.scale == 100 else ''}: "
                + ("met" if met else "not met (game limit reached)")
                + (f", half-width {study.scale * h.half:.2f}" if h else "")
            )
    return "\n".join(lines)


def ties_of(rows: Mapping[str, np.ndarray]) -> str:
    shares = rows["win_share"][rows["won"]]
    return "split" if len(shares) and (shares < 1).any() else "whole" if len(shares) else "split"
