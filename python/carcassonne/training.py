"""Training the expert player's evaluation (``carcassonne train``).

Positions come from native games (``_core.training_positions``: seeded, every core, the same
rows for any thread count): at sampled turn starts, every player's evaluation terms and the
points that player still scored from there. A ridge regression (numpy: a closed-form
least-squares fit on standardised terms needs nothing more) gives one model per set of
expansions. Rounds iterate: round 1 plays greedy against itself; each later round plays a
league around the previous round's expert (against itself, greedy, the expert of two rounds
before, the learned search, and hand-tuned heuristic players with perturbed weights), with
some exploring moves, and fits on every round's rows. Targets look past one game's outcome:
TD(lambda) returns bootstrapped from the previous round's predictions at the game's later
sampled turns. Each round is checked on held-out games (R^2) and by matches, seats swapped,
against greedy and the held-out ``heuristic`` (never a training opponent).
A rule set the shipped weights have no model of its own for gets one on demand for luck
measurement (:func:`value_weights`), trained once and cached.
"""

from __future__ import annotations

import hashlib
import math
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from carcassonne import _core
from carcassonne.rules import Rules

#: Ridge penalty on standardised terms, per row (small: it only tames collinear terms).
RIDGE = 1e-3
#: Greedy self-play games a rule set's own value model is trained on (one round).
TRAIN_GAMES = 2000

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


def perturbed_heuristic(rng: np.random.Generator) -> str:
    """A heuristic player's text with every weight of ``HEURISTIC_WEIGHTS`` times
    exp(N(0, 0.4)): never the held-out default."""
    parts = [f"{k}={v * math.exp(rng.normal(0.0, 0.4)):.4g}" for k, v in HEURISTIC_WEIGHTS.items()]
    text = ":".join(["heuristic", *parts])
    assert text != ANCHOR
    return text


def league(
    number: int,
    current: str | None,
    earlier: list[str],
    games: int,
    seed: int,
    self_play: bool = False,
) -> list[tuple[str, int]]:
    """The seats and number of games of each match round ``number`` plays: greedy against
    itself in round 1; then the previous round's expert (``current``) against itself, greedy,
    an earlier round's expert, the learned search, and perturbed heuristics, seats swapped
    (against itself only with ``self_play``)."""
    if current is None:
        return [("greedy,greedy", games)]
    me = f"expert:weights={_core.quote_value(current)}"
    if self_play:
        return [(f"{me},{me}", games)]
    rng = np.random.default_rng([seed, number])
    others = [
        ("greedy", 0.15),
        (f"expert:weights={_core.quote_value(earlier[-1])}" if earlier else "greedy", 0.15),
        (f"mcts:playouts=60:weights={_core.quote_value(current)}", 0.05),
    ]
    if has_player("heuristic"):
        others += [(perturbed_heuristic(rng), 0.1) for _ in range(3)]
    else:
        others += [("greedy", 0.3)]
    rest = games - sum(2 * max(1, round(games * share / 2)) for _, share in others)
    plan = [(f"{me},{me}", max(2, rest))]
    for other, share in others:
        k = max(1, round(games * share / 2))
        plan += [(f"{me},{other}", k), (f"{other},{me}", k)]
    return plan


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
    out = []
    for name in ("terms", "targets", "games"):
        buf, dtype, shape = cols[name]
        out.append(np.frombuffer(buf, dtype=dtype).reshape(shape))
    return out[0], out[1], out[2]


def fit(terms: np.ndarray, targets: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """Ridge least squares of ``targets`` on ``terms`` (the first term is the bias, never
    penalised), solved on standardised columns and returned in the terms' own units."""
    x = terms.astype(np.float64)
    y = targets.astype(np.float64)
    n, k = x.shape
    mean = x.mean(axis=0)
    std = x.std(axis=0)
    mean[0], std[0] = 0.0, 1.0
    live = std > 1e-9
    std[~live] = 1.0
    z = (x - mean) / std
    z[:, ~live] = 0.0
    z[:, 0] = 1.0
    gram = z.T @ z
    penalty = np.full(k, ridge * n)
    penalty[0] = 0.0
    penalty[~live] = 1.0  # a term that never varies gets weight 0
    beta = np.linalg.solve(gram + np.diag(penalty), z.T @ y)
    w = beta / std
    w[0] = beta[0] - float((beta[1:] * mean[1:] / std[1:]).sum())
    w[~live] = 0.0
    return w


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
            players=2, games=games, seed=seed, policy=seats, threads=threads, rules=rules
        )
        buf, dtype, shape = cols["winners"]
        winners = np.frombuffer(buf, dtype=dtype).reshape(shape)
        mine = (winners >> me) & 1
        both = np.where((winners & 3) == 3, 0.5, 1.0)
        share += float((mine * both).sum())
    return share / (2 * games)


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
) -> tuple[str, list[Round]]:
    """Train one model per rule set over ``rounds`` rounds of ``games`` games each; return
    the weights file's text and what each round did. The same arguments give the same
    weights on any machine and thread count."""
    if rounds < 1 or games < 2:
        raise ValueError("training needs at least 1 round of at least 2 games")
    if not 0.0 <= lam <= 1.0 or not 0.0 <= explore <= 1.0:
        raise ValueError("lambda and explore must be from 0 to 1")
    keys = [_core.model_key(r) for r in rule_sets]
    if len(set(keys)) != len(keys):
        raise ValueError(f"two rule sets train the same model ({keys}): one per set of expansions")
    history: list[Round] = []
    data: dict[str, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = {k: [] for k in keys}
    models: list[tuple[str, list[float]]] = []
    anchor = has_player(ANCHOR)
    with tempfile.TemporaryDirectory() as tmp:
        current: str | None = None
        earlier: list[str] = []
        weights: dict[str, np.ndarray] = {}
        first = 0
        for number in range(1, rounds + 1):
            plan = league(number, current, earlier, games, seed, self_play)
            later = "expert (previous round)" if self_play else "league (previous round)"
            rnd = Round(number, "greedy" if current is None else later)
            models = []
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
                xs = np.concatenate([d[0] for d in data[k]])
                ys = np.concatenate([d[1] for d in data[k]])
                gs = np.concatenate([d[2] for d in data[k]])
                # Returns bootstrapped from the previous round's model, chunk by chunk (a
                # chunk's rows are whole games).
                ts = np.concatenate(
                    [td_targets(d[0], d[1], d[2], weights.get(k), lam) for d in data[k]]
                )
                held = (gs % max(2, round(1 / held_out))) == 0 if held_out > 0 else gs < 0
                w = fit(xs[~held], ts[~held])
                weights[k] = w
                f = Fit(
                    k,
                    [float(v) for v in w],
                    len(ys),
                    r2(xs[~held], ys[~held], w),
                    r2(xs[held], ys[held], w),
                )
                rnd.fits.append(f)
                models.append((k, f.weights))
                log(
                    f"round {number} [{k}] {rnd.policy}: {new:,} new rows, {f.rows:,} in all; "
                    f"R^2 of the points to the end {f.r2_train:.3f} "
                    f"(held-out games {f.r2_held_out:.3f})"
                )
            first = at
            path = os.path.join(tmp, f"round{number}.weights")
            with open(path, "w") as fh:
                fh.write(_core.weights_text(models))
            if current is not None:
                earlier.append(current)
            current = path
            if check_games > 0:
                for k, rules in zip(keys, rule_sets, strict=True):
                    me = f"expert:weights={_core.quote_value(path)}"
                    share = match(rules, me, "greedy", check_games, seed + 1_000_003, threads)
                    rnd.vs_greedy[k] = share
                    line = f"round {number} [{k}] expert vs greedy {100 * share:.1f}%"
                    if anchor:
                        share = match(rules, me, ANCHOR, check_games, seed + 2_000_003, threads)
                        rnd.vs_anchor[k] = share
                        line += f", vs held-out {ANCHOR} {100 * share:.1f}%"
                    log(f"{line} of {2 * check_games} games each (seats swapped)")
            history.append(rnd)
    return _core.weights_text(models), history


def _shipped_models() -> set[str]:
    text = resources.files("carcassonne").joinpath("data/expert.weights").read_text()
    return {key for key, _ in _core.read_weights(text, "builtin")}


def cache_dir() -> Path:
    """Where trained value models are kept: ``$CARCASSONNE_CACHE``, else the user's cache."""
    if os.environ.get("CARCASSONNE_CACHE"):
        return Path(os.environ["CARCASSONNE_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "carcassonne"


def value_weights(rules: Rules) -> str | None:
    """The weights file the luck forecast uses for ``rules``: None (the shipped weights) when
    they have a model of exactly its expansions; else a model trained for them (greedy
    self-play, ``TRAIN_GAMES`` games, seeded: the same file on every machine), trained on
    first use and cached under :func:`cache_dir`, keyed by the expansions and the
    evaluation's terms."""
    key = _core.model_key(rules)
    if key in _shipped_models():
        return None
    terms = hashlib.sha256("\n".join(_core.evaluation_terms()).encode()).hexdigest()[:12]
    path = cache_dir() / f"value-{key}-{terms}-{TRAIN_GAMES}.weights"
    if not path.is_file():
        text, _ = train([rules], TRAIN_GAMES, rounds=1, check_games=0, log=lambda _: None)
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written beside and renamed: a worker reading it never sees half a file.
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".partial")
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, path)
    return str(path)
