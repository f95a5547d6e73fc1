"""The command line as a new user meets it: tables it reads are validated, files it writes are
never silently overwritten or mislabelled, and errors are one line with the right exit status
(none at all for a closed pipe)."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest

from carcassonne import SOURCES, Catalogue, Game, Rules, simulate
from carcassonne.cli import CliError, main, parse_rule_options
from carcassonne.stats import Tally
from carcassonne.study import Progress
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


# -- output files: never silently replaced or mislabelled ------------------------------------


def test_out_refuses_to_replace_a_file_unless_overwrite(capsys, tmp_path):
    out = tmp_path / "r.csv"
    out.write_text("precious\n")
    code, _, err = run(capsys, "simulate", "-n", "3", "-q", "--out", out)
    one_line_error(code, err, "already exists: give --overwrite")
    assert out.read_text() == "precious\n"
    code, _, err = run(capsys, "simulate", "-n", "3", "-q", "--out", out, "--overwrite")
    assert code == 0, err
    assert out.read_text().startswith("variant,")
    # An empty file, or a device, loses nothing.
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert run(capsys, "simulate", "-n", "3", "-q", "--out", empty)[0] == 0
    assert run(capsys, "simulate", "-n", "3", "-q", "--out", "/dev/null", "--format", "csv")[0] == 0


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "-n", "3", "-q", "--csv", "{f}"],
        ["simulate", "-n", "3", "-q", "--records", "{f}"],
        [
            "compare",
            "-n",
            "3",
            "-q",
            "--variant",
            "a",
            "--variant",
            "b:small_city=on",
            "--out",
            "{f}",
        ],  # fmt: skip
    ],
)
def test_every_output_option_refuses_to_replace(capsys, tmp_path, argv):
    f = tmp_path / "keep.jsonl"
    if "--csv" in argv:
        f = tmp_path / "keep.csv"
    f.write_text("precious\n")
    code, _, err = run(capsys, *[a.format(f=f) for a in argv])
    one_line_error(code, err, "already exists")
    assert f.read_text() == "precious\n"


def test_out_and_records_on_one_file_are_refused(capsys, tmp_path):
    f = tmp_path / "both.jsonl"
    code, _, err = run(capsys, "simulate", "-n", "3", "-q", "--out", f, "--records", f)
    one_line_error(code, err, "--out and --records name the same file")
    assert not f.exists()


def test_a_format_contradicting_the_extension_is_refused(capsys, tmp_path):
    f = tmp_path / "x.parquet"
    code, _, err = run(capsys, "simulate", "-n", "3", "-q", "--out", f, "--format", "csv")
    one_line_error(code, err, "names a parquet file but the format is csv")
    assert not f.exists()
    # An extension the formats do not claim takes the format given.
    g = tmp_path / "x.txt"
    assert run(capsys, "simulate", "-n", "3", "-q", "--out", g, "--format", "csv")[0] == 0
    assert g.read_text().startswith("variant,")


def test_render_writes_only_svg_or_png(capsys, tmp_path, record_file):
    rec = record_file
    code, _, err = run(capsys, "render", rec, "-o", tmp_path / "x.gif")
    one_line_error(code, err, "written as .svg or .png")
    assert not (tmp_path / "x.gif").exists()


def test_record_out_never_replaces_the_table(capsys, tmp_path):
    table = tmp_path / "r.csv"
    assert run(capsys, "simulate", "-n", "3", "-q", "--out", table)[0] == 0
    before = table.read_text()
    code, _, err = run(capsys, "record", table, "--game", "1", "--out", table)
    one_line_error(code, err, "already exists")
    assert table.read_text() == before


# -- one line, right exit status ---------------------------------------------------------------


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["simulate", "-t", "100000"], "--threads must be from 0 (all cores) to 4096"),
        (["simulate", "-n", str(2**50)], "--games must be from 1 to 2**40"),
        (["compare", "-t", "100000", "--variant", "a", "--variant", "b"], "--threads"),
        # Every study command has the same limits and messages (command.check_run_options).
        (["study", "-t", "100000"], "--threads must be from 0 (all cores) to 4096"),
        (["study", "-n", str(2**50)], "--games must be from 1 to 2**40"),
        (["study", "--seed", "-1"], "--seed must be from 0 to 2**64-1"),
    ],
)
def test_out_of_range_numbers_are_one_line(capsys, argv, needle):
    code, _, err = run(capsys, *argv)
    one_line_error(code, err, needle)


def test_a_full_disk_is_one_line(record_file):
    for argv in (
        ["simulate", "-n", "20", "-q", "--out", "/dev/full", "--format", "csv"],
        ["simulate", "-n", "20", "-q", "--records", "/dev/full"],
    ):
        proc = subprocess.run(
            [PY, "-m", "carcassonne", *argv], capture_output=True, text=True, timeout=120
        )
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.count("\n") == 1, proc.stderr
        assert "/dev/full" in proc.stderr and "No space left on device" in proc.stderr
    # Standard output on a full disk.
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [PY, "-m", "carcassonne", "replay", record_file],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == "carcassonne: error: No space left on device\n"


def test_a_closed_pipe_ends_quietly(record_file):
    rec = record_file
    proc = subprocess.Popen(
        [PY, "-m", "carcassonne", "replay", rec],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()  # like `| head -1`: read a line, then go away
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 141
    assert err == b""


# -- the progress line ----------------------------------------------------------------------


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize("total", [10, 1000, 10**6, 2**40])
def test_progress_line_fits_80_columns(total):
    s = _Stream(tty=True)
    p = Progress(total, s)
    p.columns = 80  # as on an 80-column terminal
    for done in (0, 1, total // 3, total):
        p.update(done)
    p.close()
    lines = s.getvalue().replace("\r", "\n").splitlines()
    assert lines and max(len(x) for x in lines) < 80
    assert "games/s" in lines[-1]


def test_progress_on_a_log_writes_a_line_every_few_seconds_and_the_end():
    s = _Stream(tty=False)
    p = Progress(100_000, s)
    for done in range(0, 100_001, 10):  # ten thousand chunks, in well under a second
        p.update(done)
    p.close()
    lines = s.getvalue().splitlines()
    assert 1 <= len(lines) <= 2 and lines[-1].startswith("[") and "100,000/100,000" in lines[-1]
    # Interrupted: the last state is written when the bar closes.
    s = _Stream(tty=False)
    p = Progress(100_000, s)
    p.update(5)
    p.update(20)
    p.close()
    assert s.getvalue().splitlines()[-1].split("]")[1].startswith(" 20/100,000")


# -- errors quote at most about 100 characters of what they refuse ---------------------------

LONG = "x" * 5000


@pytest.mark.parametrize(
    "call",
    [
        lambda: Game(Rules(), seed=1).parse_move(LONG),
        lambda: Game(Rules(), seed=1).play(LONG),
        lambda: Game(Rules(), chance="manual").draw(LONG),
        lambda: Rules(river=LONG),
        lambda: Rules(**{LONG: 1}),
        lambda: Catalogue.from_text(LONG),
        lambda: Catalogue.from_text("set base\ntile A 1 " + LONG),
        lambda: Catalogue.builtin().tile(LONG),
        lambda: parse_rule_options(["river=" + LONG]),
        lambda: parse_rule_options([LONG]),
    ],
)
def test_errors_quote_at_most_about_100_characters(call):
    with pytest.raises((ValueError, CliError)) as e:
        call()
    assert "xxxx" in str(e.value) and "x" * 101 not in str(e.value)


def test_cli_error_with_a_long_argument_is_short(capsys):
    code, _, err = run(capsys, "simulate", "-o", "river=" + LONG)
    one_line_error(code, err, "rule option 'river'")
    assert len(err) < 300
