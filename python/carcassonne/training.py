"""Training the expert player's evaluation (``carcassonne train``).

Positions come from native self-play (``_core.training_positions``: seeded, every core, the
same rows for any thread count): at sampled turn starts, every player's evaluation terms and,
as target, the points that player still scored from there. A ridge regression (numpy: a
closed-form least-squares fit on standardised terms needs nothing more) gives one model per
set of expansions. Rounds iterate: round 1 plays greedy self-play, each later round plays the
previous round's expert against itself and fits on every round's rows. Each round is checked
on held-out games (R^2) and by a match of its expert against greedy with seats swapped.
A rule set the shipped weights have no model of its own for gets one on demand for luck
measurement (:func:`value_weights`), trained once and cached.
"""

from __future__ import annotations

import hashlib
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


def positions(
    rules: Rules,
    games: int,
    seed: int,
    policy: str,
    players: int = 2,
    every: int = 4,
    threads: int = 0,
    first: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Self-play rows: (terms, targets, game index of each row)."""
    cols = _core.training_positions(
        players=players,
        games=games,
        seed=seed,
        policy=policy,
        every=every,
        threads=threads,
        first=first,
        rules=rules,
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
    share = 0.0
    for seats, me in ((f"{expert},greedy", 0), (f"greedy,{expert}", 1)):
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
) -> tuple[str, list[Round]]:
    """Train one model per rule set over ``rounds`` rounds of ``games`` self-play games each;
    return the weights file's text and what each round did. The same arguments give the same
    weights on any machine and thread count."""
    if rounds < 1 or games < 2:
        raise ValueError("training needs at least 1 round of at least 2 games")
    keys = [_core.model_key(r) for r in rule_sets]
    if len(set(keys)) != len(keys):
        raise ValueError(f"two rule sets train the same model ({keys}): one per set of expansions")
    history: list[Round] = []
    data: dict[str, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = {k: [] for k in keys}
    models: list[tuple[str, list[float]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        current: str | None = None
        for number in range(1, rounds + 1):
            policy = "greedy" if current is None else f"expert:weights={current}"
            rnd = Round(number, "greedy" if current is None else "expert (previous round)")
            models = []
            for k, rules in zip(keys, rule_sets, strict=True):
                # Each round plays new deals: games are numbered on from the last round's.
                x, y, g = positions(
                    rules,
                    games,
                    seed,
                    policy,
                    every=every,
                    threads=threads,
                    first=(number - 1) * games,
                )
                data[k].append((x, y, g))
                xs = np.concatenate([d[0] for d in data[k]])
                ys = np.concatenate([d[1] for d in data[k]])
                gs = np.concatenate([d[2] for d in data[k]])
                held = (gs % max(2, round(1 / held_out))) == 0 if held_out > 0 else gs < 0
                w = fit(xs[~held], ys[~held])
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
                    f"round {number} [{k}] {policy.split(':')[0]} self-play: {len(y):,} new rows, "
                    f"{f.rows:,} in all; R^2 {f.r2_train:.3f} (held-out games {f.r2_held_out:.3f})"
                )
            path = os.path.join(tmp, f"round{number}.weights")
            with open(path, "w") as fh:
                fh.write(_core.weights_text(models))
            current = path
            if check_games > 0:
                for k, rules in zip(keys, rule_sets, strict=True):
                    share = match_vs_greedy(
                        rules, f"expert:weights={path}", check_games, seed + 1_000_003, threads
                    )
                    rnd.vs_greedy[k] = share
                    log(
                        f"round {number} [{k}] expert vs greedy: {100 * share:.1f}% of "
                        f"{2 * check_games} games (seats swapped)"
                    )
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
