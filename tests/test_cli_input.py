"""The command line as a new user meets it: tables it reads are validated, files it writes are
never silently overwritten or mislabelled, and errors are one line with the right exit status
(none at all for a closed pipe)."""

from __future__ import annotations

import csv
import sys
import tracemalloc

import numpy as np
import pytest

from carcassonne import SOURCES, Rules, simulate
from carcassonne.cli import main
from carcassonne.stats import Tally
from carcassonne.table import TableWriter

PY = sys.executable


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code: int, err: str, needle: str) -> None:
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("carcassonne: error: "), err
    assert needle in err, err


# -- report reads a table it must not trust --------------------------------------------------


def _table(path, edit=None) -> None:
    with TableWriter(path) as w:
        w.write(simulate(Rules(), games=6, seed=1), "default")
    if edit is None:
        return
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    edit(rows)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


@pytest.mark.parametrize(
    "column,value,needle",
    [
        ("score", "-5", "row 3: score is -5, negative"),
        ("points_roads", "-1", "points_roads is -1, negative"),
        ("seat", "7", "seat is 7, not a seat of its game"),
        ("players", "9", "players is 9, not from 2 to 6"),
        ("score", "12x", "column 'score' holds '12x', not a whole number"),
        ("score", "9" * 30, "not a whole number that fits int32"),
        ("won", "maybe", "column 'won' holds 'maybe', not true or false"),
        ("turns", "x" * 5000, "(5,002 chars)"),
    ],
)
def test_report_refuses_values_no_study_writes(capsys, tmp_path, column, value, needle):
    path = tmp_path / "r.csv"

    def edit(rows):
        rows[2][column] = value

    _table(path, edit)
    code, _, err = run(capsys, "report", path, "-o", tmp_path / "rep")
    one_line_error(code, err, needle)
    assert len(err) < 300  # the offending input is quoted, not copied whole


def test_a_huge_score_costs_one_bin_not_gigabytes(capsys, tmp_path):
    path = tmp_path / "r.csv"

    def edit(rows):
        rows[0]["score"] = str(2_000_000_000)

    _table(path, edit)
    tracemalloc.start()
    try:
        code, out, err = run(capsys, "report", path, "-o", tmp_path / "rep")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 0, err
    assert "2000000000" in out  # min-max of seat 1
    assert peak < 200 * 2**20  # it used to allocate 16 GB: one bin per possible score


def test_tally_counts_scores_by_value_and_plots_by_range():
    t = Tally(2, SOURCES)
    scores = np.array([[10, 20], [10, 1_000_000], [30, 20]])
    k = len(scores)
    t.add(scores, scores == scores.max(axis=1, keepdims=True), np.zeros((k, 2, len(SOURCES))),
          np.full(k, 71), np.zeros(k))  # fmt: skip
    assert t.score_quantile(0, 0.5) == 10 and t.score_quantile(1, 0.9) == 1_000_000
    assert (t.score_min(1), t.score_max(1)) == (20, 1_000_000)
    starts, share = t.score_histogram(1, bins=100)
    assert len(starts) <= 100 and starts[0] == 10
    assert share.sum() == pytest.approx(1.0) and share[0] == pytest.approx(2 / 3)
