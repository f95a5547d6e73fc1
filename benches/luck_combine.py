"""Several V side by side (BENCHMARKS.md, "2026-12-06 (session 11)"): the same games' luck
measured with different V, saved by ``benches/luck_values.py --save``, adjusted with every
V's covariates together. Measuring luck changes no move, so runs with the same skill, deals
and seed hold the same games (checked here); each V's corrections have mean zero, so their
cross-fitted regression stays unbiased and can only explain more, less the slopes' noise.

    python benches/luck_combine.py A.npz B.npz [--cost X]

``--cost``: CPU per deal with every V measured / without luck, for the last column.
"""

from __future__ import annotations

import argparse

import numpy as np
from luck_values import ARMS, metrics, table


def load(path: str) -> dict[str, dict[str, np.ndarray]]:
    z = np.load(path)
    return {
        arm: {k.split(".", 1)[1]: z[k] for k in z.files if k.startswith(f"{arm}.")} for arm in ARMS
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--cost", type=float, default=float("nan"))
    a = ap.parse_args()
    runs = [load(p) for p in a.runs]
    for arm in ARMS:
        for r in runs[1:]:
            if not np.array_equal(r[arm]["scores"], runs[0][arm]["scores"]):
                raise SystemExit(f"{arm}: the runs did not play the same games")
    per = {}
    for arm in ARMS:
        each = [metrics(r[arm]) for r in runs]
        per[arm] = {
            m: (each[0][m][0], np.concatenate([e[m][1] for e in each], axis=1)) for m in each[0]
        }
    print(f"covariates of {len(runs)} runs together: {', '.join(a.runs)}")
    table(per, a.cost)


if __name__ == "__main__":
    main()
