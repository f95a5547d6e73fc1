"""A baseline that learns: a softmax policy over the legal actions, linear in what each action
changes (``VectorEnv.action_features``), trained by policy gradient (REINFORCE with
reward-to-go and a running baseline, Adam steps) with numpy only.

Run ``python -m carcassonne.env.baseline --games 20000 --out curve.json`` (one thread); the
curve is the win rate of the greedy (argmax) policy over held-out seeds against the native
random and greedy players (docs/environments.md). numpy only, by choice: the policy has one
weight per feature (80), so a deep-learning framework (PyTorch's Linux wheels alone are
gigabytes) buys nothing here.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from carcassonne.env.vector import VectorEnv
from carcassonne.rules import Rules

# Seeds of the evaluation games: never those of training (training seeds are below 2**32).
HELD_OUT = 2**40


@dataclass
class Config:
    games: int = 20_000
    """Training games (finished ones, all environments together)."""
    opponents: str = "greedy"
    """Training opponents: native policy text, or "self" for self-play."""
    num_envs: int = 32
    lr: float = 0.02
    batch: int = 64
    """Finished games per update."""
    every: int = 2_000
    """Training games between evaluations."""
    eval_games: int = 200
    seed: int = 0
    players: int = 2


@dataclass
class Result:
    config: Config
    feature_names: list[str]
    scale: list[float]
    weights: list[float]
    curve: list[dict[str, float]] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1)


def _segments(starts: np.ndarray) -> np.ndarray:
    return np.repeat(np.arange(len(starts) - 1), np.diff(starts))


def _softmax(logits: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Per game (its slice of ``logits``) probabilities."""
    rows = _segments(starts)
    top = np.maximum.reduceat(logits, starts[:-1])
    e = np.exp(logits - top[rows])
    return e / np.add.reduceat(e, starts[:-1])[rows]


def _scale(env: VectorEnv) -> np.ndarray:
    """Standard deviations of the features over a first batch of positions (1 where a
    feature never varies), so that one learning rate suits every weight."""
    env.reset(seed=HELD_OUT - 1)
    rng = np.random.default_rng(0)
    feats = []
    for _ in range(40):
        actions, starts = env.legal_lists()
        feats.append(env.action_features().copy())
        k = starts[:-1] + (rng.random(env.num_envs) * np.diff(starts)).astype(np.int64)
        env.step(actions[k])
    sd = np.concatenate(feats).std(axis=0)
    return np.where(sd > 1e-6, sd, 1.0).astype(np.float32)


def evaluate(
    weights: np.ndarray, scale: np.ndarray, opponents: str, games: int, seed: int = HELD_OUT
) -> dict[str, float]:
    """The argmax policy's results over ``games`` held-out games against ``opponents``:
    win rate (a shared win counts half) and mean final margin."""
    env = VectorEnv(Rules.base(), 2, min(games, 50), opponents=opponents, seed=seed)
    env.reset()
    wins, margins, done = 0.0, [], 0
    while done < games:
        actions, starts = env.legal_lists()
        logits = (env.action_features() / scale) @ weights
        best = np.maximum.reduceat(logits, starts[:-1])
        rows = _segments(starts)
        # The first action of each game reaching its best logit.
        first = np.flatnonzero(logits == best[rows])
        pick = first[np.unique(rows[first], return_index=True)[1]]
        _, _, term, _, info = env.step(actions[pick])
        for i in np.flatnonzero(term):
            if done == games:
                break
            s = info["final_scores"][i]
            me = info["final_learner"][i]
            other = s[1 - me]
            wins += 1.0 if s[me] > other else 0.5 if s[me] == other else 0.0
            margins.append(float(s[me] - other))
            done += 1
    return {"win_rate": wins / games, "margin": float(np.mean(margins))}


def train(config: Config, log: Any = None) -> Result:
    """Train from zero weights (the uniformly random policy); evaluate every
    ``config.every`` games and at the end."""
    c = config
    if c.players != 2:
        raise ValueError("the baseline plays 2-player base games")
    env = VectorEnv(Rules.base(), 2, c.num_envs, opponents=c.opponents, seed=c.seed)
    names = env.action_feature_names()
    scale = _scale(env)
    nf = len(names)
    w = np.zeros(nf)
    adam_m, adam_v, t_adam = np.zeros(nf), np.zeros(nf), 0
    rng = np.random.default_rng(c.seed)
    result = Result(c, names, scale.tolist(), [])
    cpu0 = time.process_time()

    def checkpoint(trained: int) -> None:
        point: dict[str, float] = {"games": trained, "cpu_s": time.process_time() - cpu0}
        for opp in ("random", "greedy"):
            r = evaluate(w, scale, opp, c.eval_games)
            point[f"win_vs_{opp}"] = r["win_rate"]
            point[f"margin_vs_{opp}"] = r["margin"]
        result.curve.append(point)
        if log:
            log(point)

    checkpoint(0)
    _, info = env.reset(seed=c.seed)
    # Per game and seat: sum of grad log p, sum of grad * (reward so far), decisions,
    # rewards so far (the reward-to-go of a decision is the final sum minus this), and
    # the sum of the rewards so far at its decisions.
    b, p = c.num_envs, 2
    g1 = np.zeros((b, p, nf))
    g2 = np.zeros((b, p, nf))
    steps = np.zeros((b, p))
    got = np.zeros((b, p))
    gsum = np.zeros((b, p))
    batch_grad, batch_n, trained, baseline = np.zeros(nf), 0, 0, 0.0
    while trained < c.games:
        actions, starts = env.legal_lists()
        x = env.action_features() / scale
        prob = _softmax(x @ w, starts)
        u = rng.random(b)
        cum = np.cumsum(prob)
        base = np.concatenate([[0.0], cum[starts[1:-1] - 1]])
        # Inverse-CDF sampling within each game's slice.
        pick = np.searchsorted(cum, base + u * (cum[starts[1:] - 1] - base), side="right")
        pick = np.minimum(np.maximum(pick, starts[:-1]), starts[1:] - 1)
        rows = _segments(starts)
        mean_x = np.zeros((b, nf))
        np.add.at(mean_x, rows, prob[:, None] * x)
        grad = x[pick] - mean_x
        seat = info["seat"]
        ar = np.arange(b)
        g1[ar, seat] += grad
        g2[ar, seat] += grad * got[ar, seat][:, None]
        gsum[ar, seat] += got[ar, seat]
        steps[ar, seat] += 1
        _, _, term, _, info = env.step(actions[pick])
        got += info["rewards"]
        for i in np.flatnonzero(term):
            for s in range(p):
                if steps[i, s] == 0:
                    continue  # a native opponent's seat
                final = got[i, s]
                # sum_t grad_t * (G_t - baseline), G_t = final - got before t.
                batch_grad += (final - baseline) * g1[i, s] - g2[i, s]
                mean_g = final - gsum[i, s] / steps[i, s]  # mean reward-to-go of its decisions
                baseline += 0.01 * (mean_g - baseline)
                batch_n += 1
            g1[i], g2[i], steps[i], got[i], gsum[i] = 0.0, 0.0, 0.0, 0.0, 0.0
            trained += 1
            if trained % c.every == 0 or trained == c.games:
                checkpoint(trained)
            if trained == c.games:
                break
        if batch_n >= c.batch:
            gr = batch_grad / batch_n / 30.0  # margins are tens of points
            t_adam += 1
            adam_m = 0.9 * adam_m + 0.1 * gr
            adam_v = 0.999 * adam_v + 0.001 * gr * gr
            mh, vh = adam_m / (1 - 0.9**t_adam), adam_v / (1 - 0.999**t_adam)
            w += c.lr * mh / (np.sqrt(vh) + 1e-8)
            batch_grad[:], batch_n = 0.0, 0
    result.weights = w.tolist()
    return result


_HELP = {
    "games": "training games, all environments together (%(default)s)",
    "opponents": "training opponents: a native policy, or 'self' for self-play (%(default)s)",
    "num_envs": "games played side by side (%(default)s)",
    "lr": "Adam's step size (%(default)s)",
    "batch": "finished games per update (%(default)s)",
    "every": "training games between evaluations (%(default)s)",
    "eval_games": "held-out games per evaluation and opponent (%(default)s)",
    "seed": "seed of the training games and the policy's samples (%(default)s)",
    "players": "players a game: 2, the only count the baseline plays",
}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        prog="python -m carcassonne.env.baseline", description=__doc__.split("\n\n")[0]
    )
    d = Config()
    for f, v in asdict(d).items():
        ap.add_argument("--" + f.replace("_", "-"), type=type(v), default=v, help=_HELP[f])
    ap.add_argument("--out", default=None, help="write the result (curve, weights) as JSON")
    a = vars(ap.parse_args(argv))
    out = a.pop("out")
    for f in ("games", "num_envs", "batch", "every", "eval_games"):
        if a[f] < 1:
            ap.error(f"--{f.replace('_', '-')} must be at least 1, not {a[f]}")
    if a["players"] != 2:
        ap.error(f"--players: the baseline plays 2-player games, not {a['players']}")
    if not 0 < a["lr"] < 10:
        ap.error(f"--lr must be between 0 and 10, not {a['lr']}")
    config = Config(**a)
    try:
        VectorEnv(Rules.base(), config.players, 1, opponents=config.opponents, seed=config.seed)
    except (ValueError, TypeError) as e:
        ap.error(str(e))
    r = train(config, log=lambda pt: print(json.dumps(pt), flush=True))
    if out:
        with open(out, "w") as f:
            f.write(r.to_json())


if __name__ == "__main__":
    main()
