"""The command line as a new user meets it: tables it reads are validated, files it writes are
never silently overwritten or mislabelled, and errors are one line with the right exit status
(none at all for a closed pipe)."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import tracemalloc

import pytest

from carcassonne import Catalogue, Game, Rules
from carcassonne.cli import main
from carcassonne.cli.common import CliError, parse_rule_options
from carcassonne.cli.progress import StudyProgress
from carcassonne.studies import study

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
    study(Rules(), 6, seed=1, out=path)
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
        ("score", "12x", "row 3: score is '12x', not a whole number"),
        ("score", "1_000", "row 3: score is '1_000', not a whole number"),
        ("turns", " 80", "row 3: turns is ' 80', not a whole number"),
        ("score", "9" * 30, "not a whole number that fits"),
        ("won", "maybe", "row 3: won is 'maybe', not true or false"),
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


def test_report_refuses_a_column_named_twice(capsys, tmp_path):
    # A second 'score' column after the first: the reader took the first and said nothing.
    path = tmp_path / "r.csv"
    _table(path)
    lines = path.read_text().splitlines()
    lines = [lines[0] + ",score"] + [line + ",99" for line in lines[1:]]
    path.write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, "report", path, "-o", tmp_path / "rep")
    one_line_error(code, err, "names the column 'score' twice")


def test_report_refuses_true_as_a_whole_number_in_json_lines(capsys, tmp_path):
    path = tmp_path / "r.jsonl"
    study(Rules(), 6, seed=1, out=path)
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    rows[2]["score"] = True
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, _, err = run(capsys, "report", path, "-o", tmp_path / "rep")
    one_line_error(code, err, "row 3: score is True, not a whole number")


def test_a_huge_score_costs_no_memory(capsys, tmp_path):
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
    assert peak < 200 * 2**20  # a histogram of one bin per possible score would take 16 GB


# -- output files: never silently replaced or mislabelled ------------------------------------


def test_out_refuses_to_replace_a_file_unless_overwrite(capsys, tmp_path):
    out = tmp_path / "r.csv"
    out.write_text("precious\n")
    code, _, err = run(capsys, "simulate", "-n", "3", "-q", "--out", out)
    one_line_error(code, err, "already exists: --append goes on with the study in it, --overwrite")
    assert out.read_text() == "precious\n"
    code, _, err = run(capsys, "simulate", "-n", "3", "-q", "--out", out, "--overwrite")
    assert code == 0, err
    assert out.read_text().startswith("master,variant,")
    # An empty file, or a device, loses nothing.
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert run(capsys, "simulate", "-n", "3", "-q", "--out", empty)[0] == 0
    assert run(capsys, "simulate", "-n", "3", "-q", "--out", "/dev/null", "--format", "csv")[0] == 0


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "-n", "3", "-q", "--out", "{f}"],
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
    assert g.read_text().startswith("master,variant,")


def test_render_writes_only_svg_or_png(capsys, tmp_path, record_file):
    rec = record_file
    code, _, err = run(capsys, "render", rec, "-o", tmp_path / "x.gif")
    one_line_error(code, err, "written as .svg or .png")
    assert not (tmp_path / "x.gif").exists()


def test_record_out_never_replaces_the_table(capsys, tmp_path):
    table = tmp_path / "r.csv"
    assert run(capsys, "simulate", "-n", "3", "-q", "--out", table)[0] == 0
    before = table.read_text()
    for overwrite in ([], ["--overwrite"]):
        code, _, err = run(capsys, "record", table, "--game", "1", "--out", table, *overwrite)
        one_line_error(code, err, "is the file this command reads")
        assert table.read_text() == before


def test_outputs_are_checked_before_playing_and_a_failed_write_leaves_no_file(capsys, tmp_path):
    out = tmp_path / "x.csv"
    code, _, err = run(capsys, "study", "-n", "100000", "-q", "--out", out, "--report", out)
    one_line_error(code, err, "--out and --report name the same file")
    assert not out.exists()
    (tmp_path / "afile").write_text("x")
    code, _, err = run(capsys, "study", "-n", "100000", "-q", "--out", out,
                       "--report", tmp_path / "afile")  # fmt: skip
    one_line_error(code, err, "--report")
    assert not out.exists()
    # a full disk: one line naming the file asked for (never a temporary name), no file left
    if os.path.exists("/dev/full"):
        code, _, err = run(capsys, "simulate", "-n", "20", "-q", "--out", "/dev/full",
                           "--format", "csv")  # fmt: skip
        one_line_error(code, err, "cannot write '/dev/full'")
        assert os.path.exists("/dev/full")  # a device is never removed


# -- one line, right exit status ---------------------------------------------------------------


def test_help_prints_percent_signs_once(capsys):
    for command in ("study", "compare", "simulate", "report"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = capsys.readouterr().out
        assert "%%" not in text, command
    with pytest.raises(SystemExit):
        main(["study", "--help"])
    assert "with 95% intervals" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["simulate", "-t", "100000"], "--threads must be from 0 (all cores) to 256"),
        (["simulate", "-n", str(2**50)], "--games must be from 1 to 2**40"),
        (["compare", "-t", "100000", "--variant", "a", "--variant", "b:river=off"], "--threads"),
        # Every study command has the same limits and messages (command.check_run_options).
        (["study", "-t", "100000"], "--threads must be from 0 (all cores) to 256"),
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
    p = StudyProgress(s)
    p.columns = 80  # as on an 80-column terminal
    for done in (0, 1, total // 3, total):
        p(done, total, 2 * done, 1.5, None)
    p.close()
    lines = s.getvalue().replace("\r", "\n").splitlines()
    assert lines and max(len(x) for x in lines) < 80
    assert "games/s" in lines[-1]


def test_progress_on_a_log_writes_a_line_every_few_seconds_and_the_end():
    s = _Stream(tty=False)
    p = StudyProgress(s)
    for done in range(0, 100_001, 10):  # ten thousand batches, in well under a second
        p(done, 100_000, done, 1.0, None)
    p.close()
    lines = s.getvalue().splitlines()
    assert 1 <= len(lines) <= 2 and lines[-1].startswith("[") and "100,000/100,000" in lines[-1]
    # Interrupted: the last state is written when the line closes.
    s = _Stream(tty=False)
    p = StudyProgress(s)
    p(5, 100_000, 5, 1.0, None)
    p(20, 100_000, 20, 1.0, None)
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
    one_line_error(code, err, "rule option river")
    assert len(err) < 300


# -- usage errors: one line too (argparse printed the whole usage first) ----------------------


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["simulate", "-n", "abc"], "argument -n/--games: invalid int value: 'abc'"),
        (["simulate", "-n", "1e99"], "invalid int value: '1e99'"),
        (["simulate", "--seed", "1e3"], "argument -s/--seed"),
        (["simulate", "--format", "xls"], "invalid choice: 'xls'"),
        (["render", "r.json", "--size", "1e9"], "argument --size"),
        (["train", "--games", "abc"], "argument --games/-n"),
        (["rules", "extra"], "unrecognized arguments: extra"),
        (["bogus"], "invalid choice: 'bogus'"),
        (["report"], "the following arguments are required: RESULTS"),
        (["simulate", "-n", LONG], "(5,"),
    ],
)
def test_usage_errors_are_one_line(capsys, argv, needle):
    with pytest.raises(SystemExit) as e:
        main(argv)
    out, err = capsys.readouterr()
    one_line_error(e.value.code, err, needle)
    assert out == "" and "usage:" not in err and len(err) < 400
    assert "--help" in err  # where to read the usage


@pytest.mark.parametrize(
    "source,policy,needle",
    [
        (None, ":", "'' is not a module name"),
        (None, "random,:", "'' is not a module name"),
        (None, ".agents:Agent", "'.agents' is not a module name"),
        ("def f(:\n", "{f}:Agent", "SyntaxError"),
        ("raise RuntimeError('boom')\n", "{f}:Agent", "RuntimeError: boom ("),
    ],
)
def test_an_agent_that_cannot_load_is_one_line(capsys, tmp_path, source, policy, needle):
    """A policy that is no module name, or an agent file that fails while it runs: one line
    naming the agent (a ValueError, a SyntaxError or the file's own exception escaped)."""
    f = tmp_path / "agents.py"
    if source is not None:
        f.write_text(source)
    code, _, err = run(capsys, "simulate", "-n", "2", "-q", "--policy", policy.format(f=f))
    one_line_error(code, err, "cannot load agent")
    assert needle in err


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--rank-models", "base"], "and --rank-games"),
        (["--rank-games", "10", "--rank-models", ","], "give one or more model keys"),
        (["--rank-games", "10", "--rank-models", "bass"], "'bass' is not a model this training"),
    ],
)
def test_train_refuses_rank_models_it_would_ignore(capsys, tmp_path, argv, needle):
    """--rank-models without ranking rows, or naming no model the training fits, was ignored
    and the training (hours at these settings) went on without the ranking fit asked for."""
    out = tmp_path / "w.weights"
    code, _, err = run(capsys, "train", "--games", "10000000", "-t", "1", "--out", out, *argv)
    one_line_error(code, err, needle)
    assert not out.exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "-n", "3", "-q", "--out", ""],
        ["simulate", "-n", "3", "-q", "--records", " "],
        ["simulate", "-n", "3", "-q", "--report", ""],
        ["study", "-n", "3", "-q", "--out", ""],
        ["record", "r.csv", "--game", "0", "--out", ""],
        ["report", "r.csv", "-o", ""],
        ["table", "--save", ""],
    ],
)
def test_an_empty_output_path_is_refused(capsys, argv):
    """``--out "$UNSET"`` read as no --out: the study ran and its table was never written."""
    with pytest.raises(SystemExit) as e:
        main(argv)
    out, err = capsys.readouterr()
    one_line_error(e.value.code, err, "an empty path names no file")
    assert out == ""


@pytest.mark.parametrize(
    "extra", [["-p", "3"], ["-p", "2"], ["-o", "river=off"], ["--rule", "small_city=on"]]
)
@pytest.mark.parametrize("source", ["--record", "--resume"])
def test_table_refuses_new_game_options_for_a_saved_game(capsys, record_file, source, extra):
    """-p and -o were ignored beside --record or --resume: the page followed the saved game
    with its own players and rules, not those asked for."""
    code, out, err = run(capsys, "table", source, record_file, *extra)
    one_line_error(code, err, "--players and --rule set up a new game")
    assert out == ""


@pytest.mark.parametrize(
    "answer,needle",
    [
        ("None", "agent Bad chose no move: expected a Move or its text, not NoneType"),
        ("'99,99 0'", "agent Bad chose an illegal move: 99,99 touches no tile on an edge (B4)"),
    ],
)
def test_an_agent_answering_no_legal_move_is_one_line(capsys, tmp_path, answer, needle):
    """An agent's answer that is no move, or an illegal one, ended simulate with a traceback
    (exit 1)."""
    f = tmp_path / "bad.py"
    f.write_text(f"class Bad:\n    def choose(self, game, moves):\n        return {answer}\n")
    code, _, err = run(
        capsys, "simulate", "-n", "2", "-q", "-t", "1", "--policy", f"{f}:Bad,random"
    )
    one_line_error(code, err, needle)


def test_rule_options_have_one_long_name_in_every_command() -> None:
    # One option parser, one name: every command taking NAME=VALUE rule options calls the
    # flag --rule (the table called it --option).
    import argparse

    from carcassonne.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    takers = {}
    for name, p in sub.choices.items():
        for a in p._actions:
            if a.metavar == "NAME=VALUE":
                takers[name] = a.option_strings
    assert {"simulate", "compare", "study", "table"} <= set(takers)
    assert all(flags == ["-o", "--rule"] for flags in takers.values()), takers
