"""Training the expert player's evaluation (``carcassonne train``).

Positions come from native games (``_core.training_positions``: seeded, every core, the same
rows for any thread count): at sampled turn starts, every player's evaluation terms and the
points that player still scored from there. A ridge regression (numpy: a closed-form
least-squares fit on standardised terms needs nothing more) gives one model per set of
expansions. Rounds iterate: round 1 plays greedy against itself and a ring of hand-tuned
heuristic players with perturbed weights (drawn once from the seed) against greedy and each
other; each later round plays a league around the previous round's expert (against itself,
greedy, the expert of two rounds before, the learned search, and the ring), with some
exploring moves, and fits on every round's rows. Targets look past one game's outcome:
TD(lambda) returns bootstrapped from the previous round's predictions at the game's later
sampled turns. Each round is checked on held-out games (R^2) and by matches, seats swapped,
against greedy and the held-out ``heuristic`` (never a training opponent).
Luck measurement gets a value model per rule set and seats on demand (:func:`value_weights`),
trained once and cached.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from carcassonne import _core
from carcassonne.policies import canonical_seats, parsed_policy, policy_files
from carcassonne.rules import Rules

#: Ridge penalty on standardised terms, per row (small: it only tames collinear terms).
RIDGE = 1e-3
#: The games a luck value model is fitted on (:func:`value_weights`), and their master seed
#: (not a study's default: a study's games are not the ones its V was fitted on).
TRAIN_GAMES = 2000
VALUE_SEED = 0x5EED_0F_1C4
#: The games played with luck measured term by term to refit it (:func:`value_weights`).
LUCK_GAMES = 1000

#: The held-out anchor: matched after each round, never played in training.
ANCHOR = "heuristic"

#: The hand-tuned heuristic's weights around which league opponents are drawn (each weight
#: times exp(N(0, 0.4)), seeded): they play like it without ever being it. Its defaults, read
#: from the engine (those at zero stay zero, so they are left out).
HEURISTIC_WEIGHTS = {
    name: default for name, default, *_ in _core.heuristic_parameters() if default > 0
}


def has_player(name: str) -> bool:
    """Whether this engine has the built-in player ``name``."""
    return any(p[0] == name for p in _core.players())


@dataclass(frozen=True)
class Fit:
    """One model's fit: its weights and how well it predicts held-out games."""

    key: str
    weights: list[float]
    rows: int
    r2_train: float
    r2_held_out: float


@dataclass
class Round:
    """What one training round did, for the log."""

    number: int
    policy: str
    fits: list[Fit] = field(default_factory=list)
    #: Per model key: the round's expert's share of wins against greedy (ties 1/k).
    vs_greedy: dict[str, float] = field(default_factory=dict)
    #: Per model key: its share against the held-out heuristic (when the engine has it).
    vs_anchor: dict[str, float] = field(default_factory=dict)


#: How many perturbed heuristics the training ring holds.
RING = 10


def ring(seed: int) -> list[str]:
    """The training ring: ``RING`` heuristic players with perturbed weights, drawn once from
    the training seed, that every round plays against (positions from play like the anchor's,
    never the anchor itself)."""
    rng = np.random.default_rng([seed, 31])
    return [perturbed_heuristic(rng) for _ in range(RING)]


def perturbed_heuristic(rng: np.random.Generator) -> str:
    """A heuristic player's text with every weight of ``HEURISTIC_WEIGHTS`` times
    exp(N(0, 0.4)): never the held-out default."""
    parts = [f"{k}={v * math.exp(rng.normal(0.0, 0.4)):.4g}" for k, v in HEURISTIC_WEIGHTS.items()]
    text = ":".join(["heuristic", *parts])
    assert text != ANCHOR
    return text


# How the training's experts play (league, ranking games and their continuations, checks):
# the one-ply expert as it played when the shipped weights were made (greedy's best 32 moves,
# the network on each). The shipped `expert` now values more moves (its defaults), which wins
# more; the recipe keeps its own, so that the documented command still makes the shipped file.
TRAINED_PLAY = "width=32:net_top=0"


def trained_expert(weights: str) -> str:
    """The policy text of the training's expert with the weights file ``weights``."""
    return f"expert:weights={_core.quote_value(weights)}:{TRAINED_PLAY}"


def league(
    number: int,
    current: str | None,
    earlier: list[str],
    games: int,
    seed: int,
    self_play: bool = False,
) -> list[tuple[str, int]]:
    """The seats and number of games of each match round ``number`` plays. Round 1: greedy
    against itself, and (when the engine has the heuristic) the training ring (:func:`ring`)
    against greedy and against itself. Later rounds: the previous round's expert (``current``)
    against itself, greedy, an earlier round's expert, the learned search, and each of the
    ring, seats swapped (against itself only with ``self_play``). The default ``heuristic``
    is never a seat: it stays the held-out anchor."""
    heuristics = ring(seed) if has_player("heuristic") else []
    if current is None:
        if self_play or not heuristics:
            return [("greedy,greedy", games)]
        k = max(1, round(games * 0.4 / (2 * len(heuristics))))
        plan = []
        for i, h in enumerate(heuristics):
            plan += [(f"{h},greedy", k), (f"greedy,{h}", k)]
            plan.append((f"{h},{heuristics[(i + 1) % len(heuristics)]}", k))
        rest = games - sum(n for _, n in plan)
        return [("greedy,greedy", max(2, rest)), *plan]
    me = trained_expert(current)
    if self_play:
        return [(f"{me},{me}", games)]
    others = [
        ("greedy", 0.1),
        (trained_expert(earlier[-1]) if earlier else "greedy", 0.1),
        (f"mcts:playouts=60:weights={_core.quote_value(current)}", 0.05),
    ]
    if heuristics:
        others += [(h, 0.45 / len(heuristics)) for h in heuristics]
    else:
        others += [("greedy", 0.45)]
    rest = games - sum(2 * max(1, round(games * share / 2)) for _, share in others)
    plan = [(f"{me},{me}", max(2, rest))]
    for other, share in others:
        k = max(1, round(games * share / 2))
        plan += [(f"{me},{other}", k), (f"{other},{me}", k)]
    return plan


def columns(cols: dict[str, tuple[bytes, str, list[int]]], *names: str) -> tuple[np.ndarray, ...]:
    """The engine's named columns (buffer, dtype, shape) as arrays, in the order of ``names``."""
    return tuple(np.frombuffer(cols[n][0], dtype=cols[n][1]).reshape(cols[n][2]) for n in names)


def positions(
    rules: Rules,
    games: int,
    seed: int,
    policy: str,
    players: int = 2,
    every: int = 4,
    threads: int = 0,
    first: int = 0,
    explore: float = 0.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows of games between the seats of ``policy``: (terms, targets, game index of each
    row); the rows of one game are consecutive, a turn's players in seat order."""
    cols = _core.training_positions(
        players=players,
        games=games,
        seed=seed,
        policy=policy,
        every=every,
        threads=threads,
        first=first,
        rules=rules,
        explore=explore,
    )
    return columns(cols, "terms", "targets", "games")


#: The heuristic's own reading of the points still to come, as weights of the terms: its
#: ``anchor`` term plus the open features' values now (the score if the game ended now, less
#: the score). ``--anchor-prior`` shrinks the fit toward these weights instead of toward 0.
ANCHOR_READING = (
    "anchor",
    "road_open",
    "city_gap1",
    "city_gap2",
    "city_gap3",
    "cloister_now",
    "field_cities",
)


def anchor_prior() -> np.ndarray:
    """The weights of ``ANCHOR_READING`` (1 each, every other term 0)."""
    names = _core.evaluation_terms()
    w = np.zeros(len(names))
    for name in ANCHOR_READING:
        w[names.index(name)] = 1.0
    return w


def prior_ridge(prior: float) -> np.ndarray:
    """Each term's ridge penalty with an anchor prior of strength ``prior``: the base game's
    terms are pulled that hard toward the heuristic's reading; the expansions' terms (which
    the heuristic reads only through the score now) keep the small ``RIDGE`` toward 0."""
    names = _core.evaluation_terms()
    return np.array([RIDGE if "." in name else prior for name in names])


def decisions(
    rules: Rules,
    games: int,
    seed: int,
    policy: str,
    continuation: str,
    weights: str | None,
    candidates: int = 8,
    continuations: int = 6,
    every: int = 8,
    threads: int = 0,
    first: int = 0,
    teacher: str = "end",
    horizon: int = 8,
    random: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Ranking rows of two-player games between the seats of ``policy``
    (``_core.training_decisions``): at one turn in ``every``, the ``candidates`` best moves by
    ``weights`` and ``random`` others drawn from the rest, each continued ``continuations`` times by
    ``continuation`` with common random numbers. Returns (terms: the mover's minus the opponent's
    after the candidate, targets: the mean final margin minus the margin after it, decision of each
    row, the opponent's terms after the candidate). ``teacher`` (:data:`TEACHERS`) may value the
    candidates instead by the ``weights`` expert's own look-ahead: ``rollouts`` (``continuations``
    rollouts of ``horizon`` decisions, then its
    evaluation) or ``depth2`` (its expectimax over the next draw)."""
    cols = _core.training_decisions(
        games=games,
        seed=seed,
        policy=policy,
        continuation=continuation,
        weights=weights,
        candidates=candidates,
        continuations=continuations,
        every=every,
        threads=threads,
        first=first,
        rules=rules,
        teacher=teacher,
        horizon=horizon,
        random=random,
    )
    return columns(cols, "terms", "targets", "decisions", "theirs")


def centred(
    terms: np.ndarray, targets: np.ndarray, decision: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Terms and targets less their decision's mean: what tells one decision's moves apart
    (the luck and stage the decision's moves share cancel). Decisions with one row drop out."""
    _, idx, count = np.unique(decision, return_inverse=True, return_counts=True)
    x = terms.astype(np.float64)
    y = targets.astype(np.float64)
    sx = np.zeros((len(count), x.shape[1]))
    np.add.at(sx, idx, x)
    sy = np.bincount(idx, weights=y, minlength=len(count))
    keep = count[idx] > 1
    xc = x - sx[idx] / count[idx, None]
    yc = y - sy[idx] / count[idx]
    return xc[keep], yc[keep]


class Standardised:
    """Terms standardised column by column (what the fits solve on, so that one ridge
    penalty means the same for every term): the bias term (column 0) stays 1, a term that
    never varies in the rows is dead (0 on every row, weight 0)."""

    def __init__(self, terms: np.ndarray) -> None:
        x = terms.astype(np.float64)
        self.mean = x.mean(axis=0)
        self.std = x.std(axis=0)
        self.mean[0], self.std[0] = 0.0, 1.0
        self.live = self.std > 1e-9
        self.std[~self.live] = 1.0

    def z(self, terms: np.ndarray, centred: bool = False) -> np.ndarray:
        """``terms`` standardised; ``centred`` rows (differences, :func:`centred`) keep no
        level: they are only scaled, and their bias column is 0."""
        x = terms.astype(np.float64)
        out = x / self.std if centred else (x - self.mean) / self.std
        out[:, ~self.live] = 0.0
        out[:, 0] = 0.0 if centred else 1.0
        return out

    def toward(self, prior: np.ndarray | None) -> np.ndarray:
        """Weights in the terms' units (or none: 0) on the standardised scale, less the bias."""
        out = np.zeros(len(self.std)) if prior is None else prior * self.std
        out[0] = 0.0
        out[~self.live] = 0.0
        return out

    def beta(self, w: np.ndarray) -> np.ndarray:
        """Weights in the terms' units on the standardised scale (:meth:`weights`' inverse)."""
        b = w * self.std
        b[0] = w[0] + float((w[1:] * self.mean[1:]).sum())
        b[~self.live] = 0.0
        return b

    def weights(self, beta: np.ndarray) -> np.ndarray:
        """Weights on the standardised scale back in the terms' units."""
        w = beta / self.std
        w[0] = beta[0] - float((beta[1:] * self.mean[1:] / self.std[1:]).sum())
        w[~self.live] = 0.0
        return w


def fit(
    terms: np.ndarray,
    targets: np.ndarray,
    ridge: float | np.ndarray = RIDGE,
    prior: np.ndarray | None = None,
    ranking: tuple[np.ndarray, np.ndarray] | None = None,
    rank_weight: float = 1.0,
) -> np.ndarray:
    """Ridge least squares of ``targets`` on ``terms`` (the first term is the bias, never
    penalised), solved on standardised columns and returned in the terms' own units.
    ``ridge`` is per row, one for all terms or one per term. With ``prior`` (weights in the
    terms' units) the penalty pulls toward it instead of toward 0.

    With ``ranking`` (centred terms and targets, :func:`centred`), their squared errors are
    added with weight ``rank_weight`` times rows of ``terms`` per ranking row: at 1 the two
    sets weigh the same in all, larger weights rank moves at the cost of predicting positions.
    The ranking rows have no level (their bias column is 0): the bias, and whatever they leave
    undetermined, comes from ``terms`` and ``targets``."""
    y = targets.astype(np.float64)
    n, k = terms.shape
    st = Standardised(terms)
    z = st.z(terms)
    gram = z.T @ z
    rhs = z.T @ y
    if ranking is not None and len(ranking[1]) > 0:
        zr = st.z(ranking[0], centred=True)
        scale = rank_weight * n / len(ranking[1])
        gram = gram + scale * (zr.T @ zr)
        rhs = rhs + scale * (zr.T @ ranking[1].astype(np.float64))
    penalty = np.broadcast_to(np.asarray(ridge, dtype=np.float64) * n, (k,)).copy()
    penalty[0] = 0.0
    penalty[~st.live] = 1.0  # a term that never varies gets weight 0
    beta = np.linalg.solve(gram + np.diag(penalty), rhs + penalty * st.toward(prior))
    return st.weights(beta)


def td_targets(
    terms: np.ndarray,
    targets: np.ndarray,
    games: np.ndarray,
    w: np.ndarray | None,
    lam: float,
    players: int = 2,
) -> np.ndarray:
    """TD(lambda) returns of each row: the points its player scored until the game's next
    sampled turn, plus ``(1 - lam)`` times the prediction ``terms @ w`` there and ``lam``
    times that turn's own return; a game's last sampled turn keeps the points to the end.
    ``lam`` 1 (or no weights yet) gives the plain points to the end."""
    y = targets.astype(np.float64)
    if w is None or lam >= 1.0 or len(y) == 0:
        return y
    pred = terms.astype(np.float64) @ w
    n = len(y)
    idx = np.arange(n)
    nxt = idx + players
    has_next = nxt < n
    has_next[has_next] = games[nxt[has_next]] == games[idx[has_next]]
    out = y.copy()
    # Backwards: a row's return needs its next sampled turn's.
    for i in range(n - 1 - players, -1, -1):
        if has_next[i]:
            j = i + players
            out[i] = (y[i] - y[j]) + (1.0 - lam) * pred[j] + lam * out[j]
    return out


def r2(terms: np.ndarray, targets: np.ndarray, w: np.ndarray) -> float:
    """Share of the targets' variance the weights explain."""
    if len(targets) < 2:
        return float("nan")
    pred = terms.astype(np.float64) @ w
    resid = float(((targets - pred) ** 2).sum())
    total = float(((targets - targets.mean()) ** 2).sum())
    return 1.0 - resid / total if total > 0 else float("nan")


def match_vs_greedy(rules: Rules, expert: str, games: int, seed: int, threads: int = 0) -> float:
    """The expert's share of wins against greedy over ``games`` deals, each played twice with
    the seats swapped (a shared win counts 1/k)."""
    return match(rules, expert, "greedy", games, seed, threads)


def match(
    rules: Rules, player: str, opponent: str, games: int, seed: int, threads: int = 0
) -> float:
    """``player``'s share of wins against ``opponent`` over ``games`` deals, each played twice
    with the seats swapped (a shared win counts 1/k)."""
    share = 0.0
    for seats, me in ((f"{player},{opponent}", 0), (f"{opponent},{player}", 1)):
        cols = _core.simulate(
            players=2,
            games=games,
            seed=seed,
            policy=parsed_policy(seats),
            threads=threads,
            rules=rules,
        )
        (winners,) = columns(cols, "winners")
        mine = (winners >> me) & 1
        both = np.where((winners & 3) == 3, 0.5, 1.0)
        share += float((mine * both).sum())
    return share / (2 * games)


#: What values a ranking row's candidate (:class:`RankPlan`).
TEACHERS = ("end", "rollouts", "depth2")


def valid_teachers(text: str) -> bool:
    """Whether ``text`` names teachers: one per round, comma-separated, each one or several
    of :data:`TEACHERS` joined by ``+`` (none twice)."""
    for entry in text.split(","):
        names = entry.split("+")
        if len(set(names)) != len(names) or not all(n in TEACHERS for n in names):
            return False
    return True


@dataclass(frozen=True)
class RankPlan:
    """The ranking fit of :func:`train` (``--rank-games`` and its options): in each round
    after the first, the decisions of ``games`` games (one count for every round, or one per
    round after the first, the last for every later round) between the previous round's expert and
    the training ring (seats alternating), one turn in ``every``, their ``candidates`` best moves by
    that expert and ``random`` others drawn from the rest (what keeps a network's values of the
    moves the expert would not play sane), each continued ``continuations`` times by that expert
    against itself with common random numbers; fitted with weight ``weight`` (:func:`fit`) for the
    models of ``keys`` (all when empty). ``teacher`` (:data:`TEACHERS`, one per round after the
    first, comma-separated, the last for every later round; ``end+rollouts``: both sets
    of rows) other than ``end`` values the candidates by that expert's look-ahead instead of
    to the end (``rollouts``: ``continuations`` rollouts of ``horizon`` decisions; ``depth2``:
    the next draw). Ranking rows are kept from round to round, like the value rows; in a
    round of 0 ranking games a model that has ranking rows keeps its last fit."""

    games: int | tuple[int, ...]
    candidates: int = 8
    continuations: int = 6
    every: int = 8
    weight: float = 1.0
    keys: tuple[str, ...] = ()
    teacher: str = "end"
    horizon: int = 8
    random: int = 0

    def __post_init__(self) -> None:
        games = (self.games,) if isinstance(self.games, int) else tuple(self.games)
        if not games or any(g < 0 for g in games):
            raise ValueError(f"ranking games must be 0 or more, one per round, got {self.games!r}")
        object.__setattr__(self, "games", games[0] if len(games) == 1 else games)
        if not valid_teachers(self.teacher):
            raise ValueError(
                f"teacher must be one of {', '.join(TEACHERS)} (one per round after the first, "
                f"comma-separated; several in a round joined by +), got {self.teacher!r}"
            )
        if self.horizon < 1:
            raise ValueError(f"the rollouts' horizon must be at least 1, got {self.horizon}")

    def teacher_of(self, number: int) -> str:
        """The teacher of round ``number`` (2 or more)."""
        teachers = self.teacher.split(",")
        return teachers[min(number - 2, len(teachers) - 1)]

    def games_of(self, number: int) -> int:
        """The ranking games of round ``number`` (2 or more)."""
        if isinstance(self.games, int):
            return self.games
        return self.games[min(number - 2, len(self.games) - 1)]

    def wants(self, key: str, number: int) -> bool:
        """Whether round ``number`` makes new ranking rows for the model ``key``."""
        return self.games_of(number) > 0 and (not self.keys or key in self.keys)


def teaching(rank: RankPlan, number: int) -> str:
    """What values each candidate of ``rank`` in round ``number``, for the log."""
    words = {
        "end": f"{rank.continuations} continuations",
        "rollouts": f"{rank.continuations} rollouts of {rank.horizon} decisions",
        "depth2": "the expert's depth-2 value",
    }
    return " and ".join(words[t] for t in rank.teacher_of(number).split("+"))


def decided(rank: RankPlan, number: int, decision: np.ndarray) -> int:
    """How many decisions round ``number``'s rows ``decision`` hold (each teacher of the
    round numbers its copy of them apart)."""
    return len(np.unique(decision)) // len(rank.teacher_of(number).split("+"))


def ranking_rows(
    rules: Rules, rank: RankPlan, current: str, seed: int, number: int, threads: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Round ``number``'s ranking rows (:class:`RankPlan`) around the weights file ``current``:
    (terms, targets, decision of each row, the opponent's terms), decisions numbered apart across
    matches. Deals of their own (master seed ``seed`` + 7, numbered on per round). Teachers joined
    by ``+`` value the same decisions each: their rows are all kept."""
    me = trained_expert(current)
    others = ring(seed) if has_player("heuristic") else ["greedy"]
    per = max(1, rank.games_of(number) // len(others))
    xs, ys, ds, os_ = [], [], [], []
    base = 0
    for teacher in rank.teacher_of(number).split("+"):
        at = number * 1_000_000
        for i, other in enumerate(others):
            seats = f"{me},{other}" if i % 2 == 0 else f"{other},{me}"
            x, y, d, o = decisions(
                rules,
                per,
                seed + 7,
                seats,
                f"{me},{me}",
                current,
                candidates=rank.candidates,
                continuations=rank.continuations,
                every=rank.every,
                threads=threads,
                first=at,
                teacher=teacher,
                horizon=rank.horizon,
                random=rank.random,
            )
            at += per
            xs.append(x)
            ys.append(y)
            os_.append(o)
            ds.append(d.astype(np.int64) + base)
            base += int(d.max()) + 1 if len(d) else 0
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(ds), np.concatenate(os_)


def r2_centred(terms: np.ndarray, targets: np.ndarray, w: np.ndarray) -> float:
    """Share of centred targets' variance the weights explain (no bias: differences)."""
    if len(targets) < 2:
        return float("nan")
    resid = float(((targets - terms @ w) ** 2).sum())
    total = float((targets**2).sum())
    return 1.0 - resid / total if total > 0 else float("nan")


#: The network's default weight decay (on its standardised input weights, in the units of
#: the loss: mean squared points; chosen among 1, 100 and 1000 on the screening seeds,
#: BENCHMARKS.md, "a network over the terms").
NET_DECAY = 100.0

#: The largest network a weights file holds (the engine's ``MAX_HIDDEN``).
MAX_HIDDEN = 64


def model_class(text: str) -> int:
    """The hidden units of the model class ``text``: ``linear`` (0) or ``mlp:H`` (a network
    of H units, 1 to :data:`MAX_HIDDEN`, beside the linear part)."""
    if text == "linear":
        return 0
    name, _, h = text.partition(":")
    if name == "mlp" and h.isdigit() and 1 <= int(h) <= MAX_HIDDEN:
        return int(h)
    raise ValueError(
        f"the model is `linear` or `mlp:H` with H from 1 to {MAX_HIDDEN}, got {text!r}"
    )


@dataclass(frozen=True)
class NetFit:
    """A network's fit (:func:`fit_net`): the linear part's weights and the network (input
    weights, hidden x 2 terms row by row; biases; output weights), all in the terms' units,
    and the Adam step its weights were taken at (the best on held-out rows)."""

    weights: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    v: np.ndarray
    step: int
    #: R^2 of the points to the end on the fitted and the held-out value rows.
    r2_values: tuple[float, float] = (float("nan"), float("nan"))
    #: R^2 of the centred targets of held-out decisions: the linear start's and the fit's.
    r2_ranking: tuple[float, float] = (float("nan"), float("nan"))


class _Net:
    """rest(z_me, z_other) = z_me . beta + v . relu(W1 [z_me; z_other] + b1) on standardised
    terms (the bias term's column 1): :func:`fit_net`'s model while it learns."""

    def __init__(self, beta: np.ndarray, hidden: int, rng: np.random.Generator) -> None:
        k = len(beta)
        self.params = [
            beta.copy(),
            rng.normal(0.0, 1.0 / math.sqrt(2 * k), (hidden, 2 * k)),
            np.zeros(hidden),
            np.zeros(hidden),
        ]

    def forward(self, zm: np.ndarray, zo: np.ndarray) -> tuple[np.ndarray, tuple]:
        beta, w1, b1, v = self.params
        a = np.concatenate([zm, zo], axis=1)
        pre = a @ w1.T + b1
        hid = np.maximum(pre, 0.0)
        return zm @ beta + hid @ v, (a, pre, hid, zm)

    def backward(self, g: np.ndarray, cache: tuple, grads: list[np.ndarray]) -> None:
        """Adds to ``grads`` the gradient of ``g . forward(...)``."""
        a, pre, hid, zm = cache
        v = self.params[3]
        grads[0] += zm.T @ g
        grads[3] += hid.T @ g
        dh = (g[:, None] * v) * (pre > 0)
        grads[1] += dh.T @ a
        grads[2] += dh.sum(axis=0)


def _centre(p: np.ndarray, idx: np.ndarray, count: np.ndarray) -> np.ndarray:
    return p - (np.bincount(idx, weights=p, minlength=len(count)) / count)[idx]


def _ranked(mine: np.ndarray, theirs: np.ndarray, y: np.ndarray, decision: np.ndarray) -> tuple:
    """Ranking rows for :func:`fit_net`: decisions of one row dropped, targets centred."""
    _, idx, count = np.unique(decision, return_inverse=True, return_counts=True)
    keep = count[idx] > 1
    _, idx, count = np.unique(idx[keep], return_inverse=True, return_counts=True)
    return mine[keep], theirs[keep], _centre(y[keep].astype(np.float64), idx, count), idx, count


def fit_net(
    value: tuple[np.ndarray, np.ndarray, np.ndarray],
    value_held: tuple[np.ndarray, np.ndarray, np.ndarray],
    ranking: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None,
    ranking_held: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None,
    start: np.ndarray,
    hidden: int,
    ridge: float | np.ndarray = RIDGE,
    prior: np.ndarray | None = None,
    rank_weight: float = 1.0,
    seed: int = 0,
    steps: int = 3000,
    rate: float = 1e-3,
    decay: float = 1e-3,
) -> NetFit:
    """A network beside a linear part (the model of ``mlp:H``), fitted by full-batch Adam
    from the linear weights ``start`` (the network's output weights start at 0: the linear
    fit's predictions), stopped at the step (checked every 25) best on the held-out rows.

    ``value`` rows: (a player's terms, the other player's, the points still to come), a
    player's prediction the linear part plus the network of (its terms, the other's). Ranking
    rows: (the mover's terms, the opponent's, the target, decision); a row's prediction is the
    mover's minus the opponent's, centred within its decision *after* the network (a network
    is not linear: centring its inputs would not centre its outputs). The loss is the mean
    squared error of the value rows plus ``rank_weight`` times that of the ranking rows (the
    weighing of :func:`fit`), the ridge of :func:`fit` on the linear part (toward ``prior``)
    and ``decay`` times the squared input weights. Standardised as :func:`fit` does;
    deterministic for a seed."""
    k = value[0].shape[1]
    st = Standardised(value[0])
    z = st.z
    mean, std, live = st.mean, st.std, st.live
    beta = st.beta(start)
    pen = np.broadcast_to(np.asarray(ridge, dtype=np.float64), (k,)).copy()
    pen[0] = 0.0
    toward = st.toward(prior)

    def rows(v, r):
        vr = (z(v[0]), z(v[1]), v[2].astype(np.float64))
        if r is None or len(r[2]) == 0:
            return vr, None
        m, t, y, i, c = _ranked(*r)
        return vr, (z(m), z(t), y, i, c)

    train_v, train_r = rows(value, ranking)
    held_v, held_r = rows(value_held, ranking_held)
    net = _Net(beta, hidden, np.random.default_rng([seed, 0x31]))

    def loss(data, r, penalised: bool) -> tuple[float, list[np.ndarray]]:
        grads = [np.zeros_like(p) for p in net.params]
        zm, zo, t = data
        p, cache = net.forward(zm, zo)
        e = p - t
        total = float((e**2).mean())
        net.backward(2.0 * e / len(t), cache, grads)
        if r is not None:
            rm, ro, yc, idx, count = r
            p1, c1 = net.forward(rm, ro)
            p2, c2 = net.forward(ro, rm)
            er = _centre(p1 - p2, idx, count) - yc
            total += rank_weight * float((er**2).mean())
            # Centring is a projection and a decision's residuals sum to 0: the gradient
            # through it is the residual itself.
            g = rank_weight * 2.0 * er / len(yc)
            net.backward(g, c1, grads)
            net.backward(-g, c2, grads)
        if penalised:
            d = net.params[0] - toward
            total += float((pen * d**2).sum()) + decay * float((net.params[1] ** 2).sum())
            grads[0] += 2.0 * pen * d
            grads[1] += 2.0 * decay * net.params[1]
        return total, grads

    m1 = [np.zeros_like(p) for p in net.params]
    m2 = [np.zeros_like(p) for p in net.params]
    best = (loss(held_v, held_r, False)[0], [p.copy() for p in net.params], 0)
    worse = 0
    for step in range(1, steps + 1):
        _, grads = loss(train_v, train_r, True)
        for p, g, a, b in zip(net.params, grads, m1, m2, strict=True):
            a *= 0.9
            a += 0.1 * g
            b *= 0.999
            b += 0.001 * g * g
            p -= rate * (a / (1 - 0.9**step)) / (np.sqrt(b / (1 - 0.999**step)) + 1e-8)
        if step % 25 == 0:
            held = loss(held_v, held_r, False)[0]
            if held < best[0]:
                best, worse = (held, [p.copy() for p in net.params], step), 0
            else:
                worse += 1
                if worse >= 8:
                    break
    beta, w1, b1, v = best[1]
    w = st.weights(beta)
    # Back to the terms' units: z = (x - mean) / std, the bias term's column always 1.
    scale = np.concatenate([std, std])
    shift = np.concatenate([mean, mean])
    dead = np.concatenate([~live, ~live])
    raw = w1 / scale
    raw[:, dead] = 0.0
    b1 = b1 - (raw[:, 1:k] @ shift[1:k]) - (raw[:, k + 1 :] @ shift[k + 1 :])
    b1 = b1 + w1[:, 0] + w1[:, k]
    raw[:, 0] = 0.0
    raw[:, k] = 0.0
    return NetFit(w, raw, b1, v, best[2])


def _fit_round_net(
    xs: np.ndarray,
    ts: np.ndarray,
    held: np.ndarray,
    raw: list[tuple[np.ndarray, ...]],
    hidden: int,
    decay: float,
    rank_weight: float,
    seed: int,
    ridge: float | np.ndarray,
    prior: np.ndarray | None,
) -> NetFit:
    """:func:`train`'s network for one model and round: value rows ``xs`` (a turn's two
    players' rows consecutive) with returns ``ts``, games ``held`` out; ranking rows ``raw``
    (mover's terms, opponent's, target, decision), one decision in ten held out."""
    other = xs[np.arange(len(xs)) ^ 1]
    mine, theirs, y, d = (np.concatenate([r[i] for r in raw]) for i in range(4))
    rh = d % 10 == 0
    xc, yc = centred(mine[~rh] - theirs[~rh], y[~rh], d[~rh])
    start = fit(
        xs[~held], ts[~held], ridge=ridge, prior=prior, ranking=(xc, yc), rank_weight=rank_weight
    )
    nf = fit_net(
        (xs[~held], other[~held], ts[~held]),
        (xs[held], other[held], ts[held]),
        (mine[~rh], theirs[~rh], y[~rh], d[~rh]),
        (mine[rh], theirs[rh], y[rh], d[rh]),
        start,
        hidden,
        ridge=ridge,
        prior=prior,
        rank_weight=rank_weight,
        seed=seed,
        decay=decay,
    )

    def value_r2(m: np.ndarray) -> float:
        pred = xs[m] @ nf.weights + net_rest(nf, xs[m], other[m])
        return 1.0 - float(((ts[m] - pred) ** 2).sum()) / float(((ts[m] - ts[m].mean()) ** 2).sum())

    _, hm, ht, hy, hi, hc = (None, *_ranked(mine[rh], theirs[rh], y[rh], d[rh]))

    def rank_r2(pred: np.ndarray) -> float:
        e = _centre(pred, hi, hc) - hy
        return 1.0 - float((e**2).sum()) / float((hy**2).sum())

    lin = (hm - ht) @ start
    net = (hm - ht) @ nf.weights + net_rest(nf, hm, ht) - net_rest(nf, ht, hm)
    return dataclasses.replace(
        nf, r2_values=(value_r2(~held), value_r2(held)), r2_ranking=(rank_r2(lin), rank_r2(net))
    )


def net_rest(fitted: NetFit, mine: np.ndarray, others: np.ndarray) -> np.ndarray:
    """The network's part of each row's points still to come (the engine's ``Net::rest``)."""
    pre = mine @ fitted.w1[:, : mine.shape[1]].T + others @ fitted.w1[:, mine.shape[1] :].T
    return np.maximum(pre + fitted.b1, 0.0) @ fitted.v


def train(
    rule_sets: Sequence[Rules],
    games: int,
    rounds: int = 2,
    seed: int = 0,
    every: int = 4,
    threads: int = 0,
    check_games: int = 100,
    held_out: float = 0.1,
    log: Callable[[str], None] = print,
    lam: float = 0.8,
    explore: float = 0.03,
    self_play: bool = False,
    prior: float = 0.0,
    rank: RankPlan | None = None,
    hidden: int = 0,
    net_decay: float = NET_DECAY,
) -> tuple[str, list[Round]]:
    """Train one model per rule set over ``rounds`` rounds of ``games`` games each; return
    the weights file's text and what each round did. With ``prior`` > 0 the base game's
    model (no expansions) is pulled toward the heuristic's own reading: the ridge penalty of
    the base game's terms (that much per row, on standardised terms) pulls toward
    :func:`anchor_prior` instead of toward 0 (:func:`prior_ridge`). With ``rank``, each
    round after the first also fits the models of ``rank.keys`` to rank the moves of sampled
    decisions (:class:`RankPlan`, :func:`ranking_rows`); in a round without new ranking rows
    they keep their last fit. With ``hidden`` > 0 (``--model
    mlp:H``) the models that rank get, in the rounds with ranking rows, a network of that many
    hidden units beside their linear part (:func:`fit_net`, weight decay ``net_decay``),
    fitted from the round's linear fit on the same rows less one decision and one game in
    ten, held out to stop it; the TD returns are still bootstrapped from the linear fit. The
    same arguments give the same weights on any machine and thread count."""
    if rounds < 1 or games < 2:
        raise ValueError("training needs at least 1 round of at least 2 games")
    if not 0.0 <= lam <= 1.0 or not 0.0 <= explore <= 1.0:
        raise ValueError("lambda and explore must be from 0 to 1")
    if not 0.0 <= prior <= 1e6:
        raise ValueError("the anchor prior must be from 0 to 1e6")
    if not 0 <= hidden <= MAX_HIDDEN:
        raise ValueError(f"a network has 0 to {MAX_HIDDEN} hidden units, got {hidden}")
    if hidden and (rank is None or not any(rank.games_of(n) for n in range(2, rounds + 1))):
        raise ValueError("a network is fitted to ranking rows: it needs --rank-games")
    toward = anchor_prior() if prior > 0 else None
    ridges = prior_ridge(prior)
    keys = [_core.model_key(r) for r in rule_sets]
    if len(set(keys)) != len(keys):
        raise ValueError(f"two rule sets train the same model ({keys}): one per set of expansions")
    unknown = [k for k in (rank.keys if rank else ()) if k not in keys]
    if unknown:  # else the ranking fit would apply to no model, silently
        raise ValueError(
            f"--rank-models {unknown[0]!r} is not a model this training fits: {', '.join(keys)}"
        )
    history: list[Round] = []
    data: dict[str, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = {k: [] for k in keys}
    ranked: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {k: [] for k in keys}
    # The same rows uncentred, with the opponent's terms (what a network reads).
    raw: dict[str, list[tuple[np.ndarray, ...]]] = {k: [] for k in keys}
    models: list[tuple[str, list[float]]] = []
    # Each model's last fit, its network and the round that made it.
    kept: dict[str, tuple[Fit, tuple[list[float], list[float], list[float]] | None, int]] = {}
    anchor = has_player(ANCHOR)
    with tempfile.TemporaryDirectory() as tmp:
        current: str | None = None
        earlier: list[str] = []
        weights: dict[str, np.ndarray] = {}
        first = 0
        for number in range(1, rounds + 1):
            plan = league(number, current, earlier, games, seed, self_play)
            later = "expert (previous round)" if self_play else "league (previous round)"
            first_round = "greedy and the ring" if anchor and not self_play else "greedy"
            rnd = Round(number, first_round if current is None else later)
            models = []
            nets: dict[str, tuple[list[float], list[float], list[float]]] = {}
            for k, rules in zip(keys, rule_sets, strict=True):
                new = 0
                # Each match plays new deals: games are numbered on from the last one's.
                at = first
                for seats, n in plan:
                    x, y, g = positions(
                        rules,
                        n,
                        seed,
                        seats,
                        every=every,
                        threads=threads,
                        first=at,
                        explore=explore,
                    )
                    at += n
                    data[k].append((x, y, g))
                    new += len(y)
                if ranked[k] and rank is not None and not rank.wants(k, number):
                    # A model that ranks is refitted only with new ranking rows: refitted to
                    # the same ones beside more position rows, the base game's lost 2 points
                    # (BENCHMARKS.md, session 15). Its position rows are kept for later rounds.
                    f, net, made = kept[k]
                    rnd.fits.append(f)
                    models.append((k, f.weights))
                    if net is not None:
                        nets[k] = net
                    log(
                        f"round {number} [{k}] {rnd.policy}: {new:,} new rows; no new ranking "
                        f"rows, so it keeps its fit of round {made}"
                    )
                    continue
                xs = np.concatenate([d[0] for d in data[k]])
                ys = np.concatenate([d[1] for d in data[k]])
                gs = np.concatenate([d[2] for d in data[k]])
                # Returns bootstrapped from the previous round's model, chunk by chunk (a
                # chunk's rows are whole games).
                ts = np.concatenate(
                    [td_targets(d[0], d[1], d[2], weights.get(k), lam) for d in data[k]]
                )
                held = (gs % max(2, round(1 / held_out))) == 0 if held_out > 0 else gs < 0
                ranking = None
                if rank is not None and current is not None and rank.wants(k, number):
                    xr, yr, dr, tr = ranking_rows(rules, rank, current, seed, number, threads)
                    ranked[k].append(centred(xr, yr, dr))
                    raw[k].append((xr + tr, tr, yr, dr + number * 10**9))
                    ranking = (
                        np.concatenate([r[0] for r in ranked[k]]),
                        np.concatenate([r[1] for r in ranked[k]]),
                    )
                    log(
                        f"round {number} [{k}] ranking: {decided(rank, number, dr):,} decisions x "
                        f"<= {rank.candidates} candidates x {teaching(rank, number)}, "
                        f"{len(ranking[1]):,} centred rows in all"
                    )
                weight = rank.weight if rank is not None else 0.0
                # The heuristic reads the whole game only without expansions: only the base
                # game's model is pulled toward its reading.
                if toward is None or k != "base":
                    w = fit(xs[~held], ts[~held], ranking=ranking, rank_weight=weight)
                else:
                    w = fit(
                        xs[~held],
                        ts[~held],
                        ridge=ridges,
                        prior=toward,
                        ranking=ranking,
                        rank_weight=weight,
                    )
                if ranking is not None:
                    log(
                        f"round {number} [{k}] R^2 of the moves' differences within a decision "
                        f"{r2_centred(ranking[0], ranking[1], w):.3f}"
                    )
                weights[k] = w
                f = Fit(
                    k,
                    [float(v) for v in w],
                    len(ys),
                    r2(xs[~held], ys[~held], w),
                    r2(xs[held], ys[held], w),
                )
                if hidden > 0 and ranking is not None:
                    nf = _fit_round_net(
                        xs,
                        ts,
                        held,
                        raw[k],
                        hidden,
                        net_decay,
                        weight,
                        seed + number,
                        ridges if toward is not None and k == "base" else RIDGE,
                        toward if k == "base" else None,
                    )
                    nets[k] = (nf.w1.ravel().tolist(), nf.b1.tolist(), nf.v.tolist())
                    f = Fit(k, [float(v) for v in nf.weights], len(ys), *nf.r2_values)
                    log(
                        f"round {number} [{k}] network of {hidden} units: step {nf.step}, "
                        f"R^2 of the moves' differences within held-out decisions "
                        f"{nf.r2_ranking[1]:.4f} (its linear start {nf.r2_ranking[0]:.4f})"
                    )
                rnd.fits.append(f)
                models.append((k, f.weights))
                kept[k] = (f, nets.get(k), number)
                log(
                    f"round {number} [{k}] {rnd.policy}: {new:,} new rows, {f.rows:,} in all; "
                    f"R^2 of the points to the end {f.r2_train:.3f} "
                    f"(held-out games {f.r2_held_out:.3f})"
                )
            first = at
            path = os.path.join(tmp, f"round{number}.weights")
            with open(path, "w") as fh:
                fh.write(_core.weights_text(models, nets))
            if current is not None:
                earlier.append(current)
            current = path
            if check_games > 0:
                for k, rules in zip(keys, rule_sets, strict=True):
                    me = trained_expert(path)
                    share = match(rules, me, "greedy", check_games, seed + 1_000_003, threads)
                    rnd.vs_greedy[k] = share
                    line = f"round {number} [{k}] expert vs greedy {100 * share:.1f}%"
                    if anchor:
                        share = match(rules, me, ANCHOR, check_games, seed + 2_000_003, threads)
                        rnd.vs_anchor[k] = share
                        line += f", vs held-out {ANCHOR} {100 * share:.1f}%"
                    log(f"{line} of {2 * check_games} games each (seats swapped)")
            history.append(rnd)
    return _core.weights_text(models, nets), history


def cache_dir() -> Path:
    """Where trained value models are kept: ``$CARCASSONNE_CACHE``, else the user's cache."""
    if os.environ.get("CARCASSONNE_CACHE"):
        return Path(os.environ["CARCASSONNE_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "carcassonne"


def value_weights(rules: Rules, seats: str = "greedy", players: int = 2, refit: bool = True) -> str:
    """The weights file of the luck forecast's value model for ``rules`` played by ``seats``
    (a policy text: one for every seat or one per seat) with ``players`` players, fitted in
    two steps on games of those very seats, so that V is calibrated to the games it corrects
    (without ``refit``, the first step only):

    1. an outcome predictor: ``TRAIN_GAMES`` games, the points each player still scored from
       sampled turn starts, one ridge fit;
    2. refitted for the control: ``LUCK_GAMES`` more games played with luck measured by
       that predictor, term by term, and one fit of both the points to come (V's level) and
       each seat's margin by its luck (V's swings between outcomes, :func:`luck_rows`), the
       two weighed alike.

    Step 2 is what a luck adjustment needs: V's swings between the outcomes of a draw, not
    its level, are what the luck sums, and a predictor fitted to the level weighs them
    worse (BENCHMARKS.md, session 17). The replied V of look-ahead seats (``_core.luck_plan``)
    wants the first step only: it values each tile after the search's own reply and, with
    the exact tail, hands over to exact values with a few tiles left, where the refitted
    level is off by more than the first fit's (BENCHMARKS.md, session 20). The games are
    seeded from ``VALUE_SEED`` (the same file on every machine; a study's games come from its
    own seed, so unless it is this one they are never the ones fitted on). Trained on first
    use and cached under :func:`cache_dir`, keyed by every rule option, the seats (and the
    contents of any weights file they read), the players, the games, the fit and the
    evaluation's terms.
    ``_core.luck_plan`` says which seats a study's model is fitted on."""
    key = _core.model_key(rules)
    each = canonical_seats(seats)
    seats = each[0] if len(set(each)) == 1 else ",".join(each)  # one text for every seat
    digest = hashlib.sha256()
    # Every rule option (not only the expansions that choose the model): options change games.
    rule_text = json.dumps(rules.to_dict(), sort_keys=True)
    fitting = VALUE_FIT if refit else "level"
    parts = (seats, rule_text, str(VALUE_SEED), fitting, *_core.evaluation_terms())
    for part in parts:
        digest.update(part.encode() + b"\n")
    for f in policy_files(seats):
        digest.update(Path(f).read_bytes())
    games = f"{TRAIN_GAMES}-{LUCK_GAMES}" if refit else f"{TRAIN_GAMES}"
    name = f"value-{key}-{players}p-{digest.hexdigest()[:16]}-{games}.weights"
    path = cache_dir() / name
    if path.is_file():
        return str(path)
    x, y, _ = positions(rules, TRAIN_GAMES, VALUE_SEED, seats, players=players)
    w = first = fit(x, y)
    if refit:
        # Step 1's file is this process's own: the cache's name is only ever the final model,
        # and workers training the same model at once never share a file.
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, interim = tempfile.mkstemp(dir=path.parent, suffix=".first")
        try:
            with os.fdopen(fd, "w") as fh:
                fh.write(_core.weights_text([(key, [float(v) for v in first])]))
            luck = _core.simulate(
                players=players,
                games=LUCK_GAMES,
                seed=VALUE_SEED + 1,
                policy=seats,
                rules=rules,
                luck=True,
                luck_weights=interim,
                luck_values="settled",
                luck_terms=True,
                # The rows are linear in V's weights only where V is the forecast itself.
                luck_tail=0,
            )
        finally:
            os.unlink(interim)
        cols = {k: np.frombuffer(b, dtype=t).reshape(s) for k, (b, t, s) in luck.items()}
        w = fit(x, y, ranking=luck_rows(cols["luck_terms"], cols["scores"]), rank_weight=1.0)
    _write_atomically(path, _core.weights_text([(key, [float(v) for v in w])]))
    return str(path)


#: The version of :func:`value_weights`' fitting, in its cache key: a new fit trains anew.
VALUE_FIT = "luck-rows-1"


def _write_atomically(path: Path, text: str) -> None:
    """Written beside and renamed: a worker reading it never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".partial")
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)


def luck_rows(luck: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows that fit V's weights to the luck (:func:`value_weights`' second step): ``luck`` is
    each game's luck per seat and feature (``simulate(luck_terms=True)``: the score, then
    every term), ``scores`` the final scores. V's luck is linear in its weights
    (the score luck plus the term luck times the weights), so the weights whose luck explains
    each seat's margin over the others' mean best solve a least-squares fit of that margin,
    less its score luck, on its term luck: one row per game and seat, level-free (the bias
    column 0), as :func:`fit`'s ranking rows."""
    games, players, _ = luck.shape
    others = (luck.sum(axis=1, keepdims=True) - luck) / max(players - 1, 1)
    rows = (luck - others).reshape(games * players, -1)
    s = scores.astype(np.float64)
    margin = (s - (s.sum(axis=1, keepdims=True) - s) / max(players - 1, 1)).reshape(-1)
    x = rows[:, 1:].copy()
    x[:, 0] = 0.0  # the bias has no luck
    return x, margin - rows[:, 0]
