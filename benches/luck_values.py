"""Which V pays for which seats: the luck adjustment's variance cut and CPU per answer with
each source of V (BENCHMARKS.md, "2026-12-06 (session 10): luck with the look-ahead's own
values").

Plays the Fortune Teller question (the base game against ``fortune_teller=on``, two players,
the same deals in both arms) once without luck (the CPU of playing alone) and once with luck
measured by V = ``settled`` (greedy to the next chance step, then the learned evaluation),
``searched`` (the look-ahead seats' own values of each next draw: no extra search) or
``replied`` (the learned evaluation after each tile of the next draw and the reply the
look-ahead found for it). For each
arm and for the paired difference it adjusts seat 1's win share and seat 1's margin (seat 1
minus seat 2, in points) with cross-fitted slopes (``carcassonne.studies.luck.adjust``, the
covariates the study uses) and prints the variance cuts, the base game's first-player
advantage raw and adjusted, and (CPU per deal with luck / without) / cut: below 1 the
adjustment pays.

    python benches/luck_values.py --skill heuristic:depth=2:top=2 --values replied --deals 150
"""

from __future__ import annotations

import argparse
import resource
from importlib import resources

import numpy as np

from carcassonne import Rules, _core
from carcassonne.studies.luck import adjust
from carcassonne.training import value_weights

ARMS = {"base": Rules(), "ft": Rules(fortune_teller=True)}
KINDS, STAGES = 4, 3  # luck.rs: the parts of a game's luck
SHIPPED = {
    key
    for key, _ in _core.read_weights(
        (resources.files("carcassonne") / "data/expert.weights").read_text(), "builtin"
    )
}


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def model(rules: Rules, skill: str, fit_on: str | None, shipped: bool, values: str) -> str | None:
    """V's weights file for ``values``: fitted on games of ``fit_on`` (default: the seats
    ``_core.luck_plan`` picks; refitted to the luck except for the replied V); with
    ``shipped``, the shipped weights where they hold a model of the rule set (as before
    session 11)."""
    if shipped and _core.model_key(rules) in SHIPPED:
        return None
    seats = fit_on or _core.luck_plan(2, skill)[1] or "greedy"
    return value_weights(rules, seats, 2, refit=values != "replied")


def play(
    rules: Rules,
    skill: str,
    deals: int,
    values: str | None,
    weights: str | None = None,
    settle: str | None = None,
    seed: int = 2026,
    tail: int | None = None,
) -> dict[str, np.ndarray]:
    kw = {}
    if values is not None:
        kw = {"luck": True, "luck_values": values, "luck_tail": tail}
        if values in ("settled", "replied"):
            kw["luck_weights"] = weights
        if values == "settled":
            kw["luck_settle"] = settle
    raw = _core.simulate(
        players=2, games=deals, seed=seed, policy=skill, threads=1, rules=rules, **kw
    )
    return {k: np.frombuffer(b, dtype=t).reshape(s) for k, (b, t, s) in raw.items()}


def parts(c: dict[str, np.ndarray], view: str, split: str) -> np.ndarray:
    """One view's luck (``score`` or ``win``) per game and seat, split into columns (games x
    seats x k): ``sums`` (the game's sum, as the study uses), ``stage`` (thirds of the bag),
    ``kind`` (first draw of a turn, later draws, animal tokens, tie-breaks) or ``grid`` (each
    kind at each stage): ``luck.rs`` ``part``."""
    if split == "sums":
        return c[f"luck_{view}"][:, :, None]
    grid = c[f"luck_{view}_parts"].reshape(*c[f"luck_{view}_parts"].shape[:2], KINDS, STAGES)
    if split == "stage":
        return grid.sum(axis=2)
    if split == "kind":
        return grid.sum(axis=3)
    return grid.reshape(*grid.shape[:2], -1)


def metrics(
    c: dict[str, np.ndarray], split: str = "sums"
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per metric: seat 1's value per game and its luck covariates (games x k)."""
    w = c["winners"].astype(np.int64)
    share = (w & 1) / np.array([bin(x).count("1") for x in w])
    margin = (c["scores"][:, 0] - c["scores"][:, 1]).astype(np.float64)
    score, win = parts(c, "score", split), parts(c, "win", split)
    win_x = np.concatenate([win[:, 0], score[:, 0]], axis=1)
    margin_x = score[:, 0] - score[:, 1]
    return {"win share": (share, win_x), "margin": (margin, margin_x)}


def half(v: np.ndarray) -> float:
    return 1.96 * float(np.sqrt(v.var(ddof=1) / len(v)))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--skill", default="greedy")
    ap.add_argument("--values", default="settled", choices=("settled", "searched", "replied"))
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--plain", type=int, default=0, help="deals played without luck (CPU)")
    ap.add_argument("--fit-on", help="the seats V's model is fitted on (default: luck_plan's)")
    ap.add_argument(
        "--shipped", action="store_true", help="the shipped model where it has the rule set's"
    )
    ap.add_argument(
        "--splits", default="sums", help="covariate sets, comma-separated: sums,stage,kind,grid"
    )
    ap.add_argument("--settle", help="the players that settle V's positions (default: seats)")
    ap.add_argument("--save", help="write the games' columns here (.npz) for offline analysis")
    ap.add_argument("--seed", type=int, default=2026, help="the deals' master seed")
    ap.add_argument(
        "--tail", type=int, help="V exact with at most this many tiles left (default: luck.rs)"
    )
    a = ap.parse_args()
    # Any missing value model is trained before the clock starts.
    models = {name: model(r, a.skill, a.fit_on, a.shipped, a.values) for name, r in ARMS.items()}
    plain = a.plain or a.deals
    t = cpu()
    for rules in ARMS.values():
        play(rules, a.skill, plain, None, seed=a.seed)
    cpu_plain = (cpu() - t) / plain
    t = cpu()
    cols = {
        name: play(rules, a.skill, a.deals, a.values, models[name], a.settle, a.seed, a.tail)
        for name, rules in ARMS.items()
    }
    cpu_luck = (cpu() - t) / a.deals
    if a.save:
        np.savez(a.save, **{f"{arm}.{k}": v for arm, c in cols.items() for k, v in c.items()})
    named = ", ".join(f"{k}: {v or 'shipped'}" for k, v in models.items())
    print(
        f"{a.skill}, V={a.values} ({named}; settled by {a.settle or 'default'}; "
        f"tail {a.tail if a.tail is not None else 'default'}), "
        f"{a.deals} deals: "
        f"{1000 * cpu_plain:.1f} ms/deal plain, "
        f"{1000 * cpu_luck:.1f} ms/deal with luck (CPU, both arms)"
    )
    for split in a.splits.split(","):
        print(f"covariates: {split}")
        table({name: metrics(c, split) for name, c in cols.items()}, cpu_luck / cpu_plain)


def table(per: dict[str, dict[str, tuple[np.ndarray, np.ndarray]]], cost: float) -> None:
    """The cuts with each arm's metrics and covariates ``per`` (:func:`metrics`); ``cost``:
    CPU per deal with luck / without."""
    deals = np.arange(len(per["base"]["margin"][0]))
    print("| metric | arm | raw | adjusted | cut | CPU per answer (luck / plain) |")
    print("|---|---|---|---|---|---|")
    for m in ("win share", "margin"):
        adj = {}
        for name in ARMS:
            y, x = per[name][m]
            adj[name] = adjust(y[:, None], x[:, None, :], deals)[:, 0]
            fair = 0.5 if m == "win share" else 0.0
            scale = 100 if m == "win share" else 1
            cut = y.var(ddof=1) / adj[name].var(ddof=1)
            print(
                f"| {m} | {name} | {scale * (y.mean() - fair):+.2f} +- {scale * half(y):.2f} | "
                f"{scale * (adj[name].mean() - fair):+.2f} +- {scale * half(adj[name]):.2f} | "
                f"{cut:.2f}x | {cost / cut:.2f} |"
            )
        yb, yf = per["base"][m][0], per["ft"][m][0]
        raw_d = yf - yb
        adj_d = adj["ft"] - adj["base"]
        unpaired = yf.var(ddof=1) + yb.var(ddof=1)
        scale = 100 if m == "win share" else 1
        cut = raw_d.var(ddof=1) / adj_d.var(ddof=1)
        both = unpaired / adj_d.var(ddof=1)
        print(
            f"| {m} | ft - base, paired | "
            f"{scale * raw_d.mean():+.2f} +- {scale * half(raw_d):.2f} | "
            f"{scale * adj_d.mean():+.2f} +- {scale * half(adj_d):.2f} | {cut:.2f}x "
            f"(pairing alone {unpaired / raw_d.var(ddof=1):.2f}x; pairing and luck {both:.2f}x) | "
            f"{cost / cut:.2f} |"
        )


if __name__ == "__main__":
    main()
