"""Studies through their quick forms: the simulate/compare/report/record commands end to end
on the one results table, results identical across thread counts, chunkings and executors (a
real Dask LocalCluster; a local Ray cluster where ray is installed), the same games giving the
same rows, win rates and report in every command, report files, Ctrl-C keeping what
finished, and one clear line for bad input.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pytest

import carcassonne
from carcassonne import Game, IllegalMoveError, Rules, game_seed, simulate
from carcassonne.cli import main
from carcassonne.cli import study as study_mod
from carcassonne.cli.common import CliError, parse_rules
from carcassonne.players import (
    Agent,
    NativeRandomAgent,
    RandomAgent,
    play_game,
    replay,
    simulate_agents,
)
from carcassonne.studies import Study, compare
from carcassonne.studies import table as table_mod
from carcassonne.studies.plan import StudyError
from carcassonne.studies.table import read_table

COLS = ("seed", "turns", "discarded", "winners", "scores", "breakdown")
PY = sys.executable


def same(a, b) -> bool:
    return all(np.array_equal(getattr(a, k), getattr(b, k)) for k in COLS)


def table(path) -> dict[str, np.ndarray]:
    return read_table(path)


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# -- seeds, threads, chunks, executors -----------------------------------------------------


def test_game_seed_is_the_native_seed():
    r = simulate(Rules.base(), games=20, seed=2**63 + 5)
    assert [game_seed(2**63 + 5, g) for g in range(20)] == r.seed.tolist()


def test_identical_across_threads_chunks_and_python_executors():
    kw = {"games": 120, "players": 3, "seed": 77}
    ref = simulate(Rules(), threads=1, **kw)
    assert same(ref, simulate(Rules(), threads=2, **kw))
    assert same(ref, simulate(Rules(), threads=2, chunk=7, **kw))
    with ThreadPoolExecutor(2) as ex:
        assert same(ref, simulate(Rules(), executor=ex, chunk=11, threads=1, **kw))
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=spawn) as ex:
        assert same(ref, simulate(Rules(), executor=ex, chunk=40, threads=1, **kw))
    # a later slice of the study is the same games
    tail = simulate(Rules(), threads=2, first=100, games=20, players=3, seed=77)
    assert np.array_equal(tail.scores, ref.scores[100:]) and tail.first == 100


def test_dask_local_cluster_gives_the_same_results(capsys, tmp_path):
    pytest.importorskip("distributed")
    from distributed import LocalCluster

    from carcassonne.studies.executors import dask_executor

    ref = simulate(Rules(), games=300, players=2, seed=5, policy="greedy,random")
    variants = {"C3": Rules(), "small": Rules(small_city=True)}
    ref_cmp = compare(variants, games=200, seed=3)
    with dask_executor("local", workers=2, processes=False) as (ex, slots):
        assert slots == 2
        got = simulate(
            Rules(), games=300, players=2, seed=5, policy="greedy,random", executor=ex, threads=1
        )
        assert same(ref, got)
        cmp = compare(variants, games=200, seed=3, executor=ex, threads=1, chunk=30)
        assert cmp.answer() == ref_cmp.answer()
        for name in variants:  # batches of 30 deals: each variant's rows in deal order
            a, b = cmp.rows["variant"] == name, ref_cmp.rows["variant"] == name
            for col in ref_cmp.rows:
                assert cmp.rows[col][a].tolist() == ref_cmp.rows[col][b].tolist(), col
    # the command line against a running scheduler's address
    with LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        out = tmp_path / "dask.parquet"
        code, text, _ = run(
            capsys, "simulate", "-n", 300, "-s", 5, "--policy", "greedy,random",
            "--scheduler", cluster.scheduler_address, "--out", out, "-q",
        )  # fmt: skip
        assert code == 0, text
    rows = table(out)
    assert np.array_equal(rows["score"].reshape(-1, 2), ref.scores.astype(np.int32))
    assert np.array_equal(rows["seed"][::2], ref.seed)


def test_ray_executor_gives_the_same_results():
    """A local Ray cluster (where ray is installed: the ``ray`` extra) plays the same games,
    and a study on it writes the same rows as one on this machine."""
    ray = pytest.importorskip("ray")
    from carcassonne.studies.executors import RayExecutor

    ref = simulate(Rules.base(), games=200, players=3, seed=8)
    variants = {"C3": Rules(), "small": Rules(small_city=True)}
    serial = compare(variants, games=120, players=3, seed=8, policy="greedy,random,random")
    ex = RayExecutor(num_cpus=2, include_dashboard=False)
    try:
        assert same(ref, simulate(Rules.base(), games=200, players=3, seed=8, executor=ex))
        on_ray = compare(
            variants, 120, 3, "greedy,random,random", 8, threads=1, executor=ex, chunk=40
        )
    finally:
        ex.shutdown()
    assert not ray.is_initialized()
    for name in variants:
        a, b = on_ray.rows["variant"] == name, serial.rows["variant"] == name
        for col in serial.rows:
            assert on_ray.rows[col][a].tolist() == serial.rows[col][b].tolist(), col


def test_append_after_a_kill_gives_the_rows_of_an_uninterrupted_run(tmp_path):
    out = tmp_path / "k.csv"
    argv = ["-n", "3000", "--batch", "250", "-s", "4", "--variant", "C3",
            "--variant", "small:small_city=on", "--out", str(out)]  # fmt: skip
    proc = subprocess.Popen([PY, "-m", "carcassonne", "study", *argv, "-q"])
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if out.exists() and out.read_text().count("\n") > 1001:  # two batches of a cell
                break
            time.sleep(0.05)
        proc.kill()  # no clean-up: as a power cut or an out-of-memory kill
        proc.wait(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == -signal.SIGKILL
    killed = len(read_table(out, partial_tail=True)["deal"])
    assert 0 < killed < 12_000
    done = subprocess.run([PY, "-m", "carcassonne", "study", *argv, "--append", "-q"],
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    whole = compare({"C3": Rules(), "small": Rules(small_city=True)}, 3000, seed=4, chunk=250)
    got, want = read_table(out), whole.rows

    def order(r):
        return np.lexsort((r["seat"], r["deal"], r["variant"].astype(str)))

    a, b = order(got), order(want)
    for col in want:
        assert got[col][a].tolist() == want[col][b].tolist(), col


# -- the command line ------------------------------------------------------------------------


@pytest.mark.parametrize("ext", ["parquet", "csv", "jsonl"])
def test_simulate_writes_one_row_per_game_and_seat(capsys, tmp_path, ext):
    out = tmp_path / f"r.{ext}"
    code, text, err = run(
        capsys, "simulate", "-n", 150, "-p", 3, "-s", 7, "-o", "small_city=on", "--out", out
    )
    assert code == 0
    ref = simulate(Rules(small_city=True), games=150, players=3, seed=7)
    rows = table(out)
    assert len(rows["deal"]) == 450
    assert np.array_equal(rows["deal"], np.repeat(np.arange(150), 3))
    assert np.array_equal(rows["seat"], np.tile(np.arange(3), 150))
    assert np.array_equal(rows["seed"], np.repeat(ref.seed, 3))
    assert np.array_equal(rows["score"], ref.scores.reshape(-1))
    assert np.array_equal(rows["won"], ref.won().reshape(-1))
    assert np.array_equal(rows["turns"], np.repeat(ref.turns, 3))
    for s, name in enumerate(carcassonne.SOURCES):
        assert np.array_equal(rows[f"points_{name}"], ref.breakdown[:, :, s].reshape(-1))
    for name, value in Rules(small_city=True).to_dict().items():
        assert {table_mod.rule_value(name, v) for v in rows[f"rule_{name}"]} == {value}
    assert set(rows["variant"]) == {"small_city=on"}
    assert set(rows["skill"]) == {"random"} and set(rows["master"]) == {7}
    best = ref.scores.max(axis=1)
    assert np.array_equal(rows["rank"] == 1, (ref.scores == best[:, None]).reshape(-1))
    # a shared win counts 1/k: the seats' win rates add up to 1
    assert np.allclose(rows["win_share"].reshape(-1, 3).sum(axis=1), 1.0)
    # the summary: the answer first, then win rates with intervals, every source, length
    assert text.startswith("With random players (3 players, small_city=on), seat 1 wins ")
    for p in (1, 2, 3):
        assert any(line.split()[:2] == [str(p), "random"] for line in text.splitlines())
    assert "All intervals: 95%, over deals." in text and "length" in text
    sources = next(line for line in text.splitlines() if "points by source" in line)
    for name in ("roads", "cities", "monasteries", "gardens", "fields"):
        assert f"{name} " in sources
    assert "goods" not in sources and "circus" not in sources
    assert "games/s" in text and "games/s" in err  # the progress line (a log: one per batch)


def test_python_m_carcassonne_and_thread_counts_give_identical_tables(tmp_path):
    outs = []
    for threads, chunk in ((1, None), (2, 9)):
        out = tmp_path / f"t{threads}.csv"
        cmd = [PY, "-m", "carcassonne", "simulate", "-n", "90", "-p", "4", "-s", "3", "-q"]
        cmd += ["-t", str(threads), "--out", str(out)]
        cmd += ["--chunk", str(chunk)] if chunk else []
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        outs.append(out.read_text())
    assert outs[0] == outs[1]


def test_every_command_gives_the_same_games_the_same_rows_and_answer(capsys, tmp_path):
    """simulate, compare and study are one system: the same games make the same rows (every
    column but the variant's name) and the same win rates; a shared win counts 1/k in each,
    or whole in each with --ties whole."""
    for ties in ("split", "whole"):
        outs = {c: tmp_path / f"{c}-{ties}.csv" for c in ("simulate", "compare", "study")}
        common = ["-n", 120, "-p", 3, "-s", 5, "--ties", ties, "-q"]
        assert run(capsys, "simulate", *common, "--name", "C3", "--out", outs["simulate"])[0] == 0
        variants = ["--variant", "C3", "--variant", "small:small_city=on"]
        assert run(capsys, "compare", *common, *variants, "--out", outs["compare"])[0] == 0
        assert run(capsys, "study", *common, *variants, "--out", outs["study"])[0] == 0
        rows = {c: table(o) for c, o in outs.items()}
        assert rows["compare"]["deal"].tolist() == rows["study"]["deal"].tolist()
        for col in rows["study"]:
            assert rows["compare"][col].tolist() == rows["study"][col].tolist(), col
        c3 = rows["study"]["variant"] == "C3"
        for col in rows["simulate"]:
            assert rows["simulate"][col].tolist() == rows["study"][col][c3].tolist(), col
        shares = rows["simulate"]["win_share"].reshape(-1, 3).sum(axis=1)
        tied = rows["simulate"]["won"].reshape(-1, 3).sum(axis=1) > 1
        assert tied.any()
        if ties == "split":
            assert np.allclose(shares, 1.0)
        else:
            assert np.array_equal(shares[tied], rows["simulate"]["won"].reshape(-1, 3)[tied].sum(1))
        reports = [run(capsys, "report", o, "-o", tmp_path / f"r-{o.stem}") for o in outs.values()]
        assert all(code == 0 for code, _, _ in reports)
        seat_lines = [
            [line for line in text.splitlines() if line.startswith("  1    random")][0]
            for _, text, _ in reports
        ]
        assert len(set(seat_lines)) == 1, seat_lines  # the same win rate for seat 1 of C3


def test_compare_command_and_api_agree(capsys, tmp_path):
    out = tmp_path / "cmp.parquet"
    code, text, _ = run(
        capsys, "compare", "-n", 300, "-s", 11, "-o", "river=off", "--variant", "C3",
        "--variant", "small:small_city=on", "--variant", "abbotless:abbot=off",
        "--out", out, "-q",
    )  # fmt: skip
    assert code == 0
    assert "Paired differences from C3: seat 1's advantage" in text
    api = compare(
        {
            "C3": Rules(river=False),
            "small": Rules(river=False, small_city=True),
            "abbotless": Rules(river=False, abbot=False),
        },
        games=300,
        seed=11,
    )
    from_table = Study(None, read_table(out))
    assert from_table.answer() == api.answer()
    assert from_table.variants() == ["C3", "small", "abbotless"]
    # small_city changes nothing but small-city points: the scores move, the deals pair
    small = next(d for d in api.differences() if d.variant == "small")
    assert small.score.n == 300 and small.score.mean <= 0


# -- reports -----------------------------------------------------------------------------------


def test_report_writes_summary_html_and_readable_pngs(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib.image

    out = tmp_path / "cmp.jsonl"
    code, _, _ = run(capsys, "compare", "-n", 200, "--variant", "C3", "--variant",
                     "tb:traders_builders=C3.1", "--out", out, "-q")  # fmt: skip
    assert code == 0
    code, text, _ = run(capsys, "report", out, "-o", tmp_path / "rep")
    assert code == 0 and "report:" in text
    rep = tmp_path / "rep"
    pngs = ["scores.png", "win_rate.png", "sources.png", "differences.png"]
    for name in pngs:
        img = matplotlib.image.imread(rep / name)
        assert img.ndim == 3 and img.shape[0] > 100 and img.shape[1] > 100
    page = (rep / "report.html").read_text()
    assert page.count("<img src='") == 4
    assert "http://" not in page and "https://" not in page  # no outside resources
    assert "Paired differences" in page
    summary = (rep / "summary.txt").read_text()
    assert "200 deals" in summary and "Paired differences from C3" in summary


def test_report_without_matplotlib_writes_text_and_says_so(capsys, tmp_path, monkeypatch):
    out = tmp_path / "r.csv"
    assert run(capsys, "simulate", "-n", 50, "--out", out, "-q")[0] == 0
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name, *a, **kw):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real_import(name, *a, **kw)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    code, text, _ = run(capsys, "report", out, "-q")
    assert code == 0
    assert "no plots: they need matplotlib (pip install 'carcassonne[plot]')" in text
    rep = tmp_path / "r-report"
    assert sorted(p.name for p in rep.iterdir()) == ["report.html", "summary.txt"]
    assert "carcassonne[plot]" in (rep / "report.html").read_text()


# -- agents, records, replays ------------------------------------------------------------------


def test_python_agents_reproduce_native_random_games_and_keep_records():
    native = simulate(Rules(), games=6, players=3, seed=21)
    py = simulate_agents(Rules(), NativeRandomAgent(), 6, 3, seed=21, record_games=True, chunk=4)
    assert same(native, py) and py.policy == "random,random,random"
    assert len(py.records) == 6
    for g, rec in enumerate(py.records):
        assert Game.from_record(rec).scores == native.scores[g].tolist()
    game = native.replay(4)
    assert game.scores == native.scores[4].tolist() and game.seed == native.seed[4]
    # Every native policy replays: greedy and search games too, with their full records.
    mixed = simulate(Rules.base(), games=3, seed=21, policy="greedy,mcts:playouts=30")
    for g in range(3):
        rec = mixed.replay(g).record()
        assert Game.from_record(rec).scores == mixed.scores[g].tolist()
    with pytest.raises(ValueError, match="cannot replay"):
        replay(Rules(), 2, 1, policy="mymod:Agent")


def test_random_agent_is_reproducible_and_chunking_does_not_matter():
    assert isinstance(RandomAgent(), Agent)
    a = simulate_agents(Rules.base(), RandomAgent(3), games=8, seed=2, chunk=3)
    with ThreadPoolExecutor(2) as ex:
        b = simulate_agents(Rules.base(), [RandomAgent(3)], games=8, seed=2, executor=ex, chunk=5)
    assert same(a, b)
    g = play_game(Rules.base(), RandomAgent(3), a.seed[0].item())
    assert g.scores == a.scores[0].tolist()

    class Cheater:
        def choose(self, game, moves):
            return "40,40 0"

    with pytest.raises(IllegalMoveError, match="Cheater"):
        play_game(Rules.base(), [RandomAgent(), Cheater()], seed=1)


def test_record_command_replays_a_table_game(capsys, tmp_path):
    out = tmp_path / "r.parquet"
    assert run(capsys, "simulate", "-n", 12, "-p", 3, "-s", 9, "--out", out, "-q")[0] == 0
    code, text, _ = run(capsys, "record", out, "--game", 10)
    assert code == 0
    game = Game.from_record(text)
    rows = table(out)
    assert game.scores == rows["score"][rows["deal"] == 10].tolist()
    native = tmp_path / "g.csv"
    policy = "mcts:playouts=20,greedy"
    assert run(capsys, "simulate", "-n", 3, "--policy", policy, "--out", native, "-q")[0] == 0
    code, text, _ = run(capsys, "record", native, "--game", 1)
    rows = table(native)
    assert code == 0
    assert Game.from_record(text).scores == rows["score"][rows["deal"] == 1].tolist()
    # every table: a compare table names the variant; a rotated study the seat order
    cmp = tmp_path / "c.jsonl"
    argv = ["-n", 4, "--variant", "C3", "--variant", "small:small_city=on", "-q"]
    assert run(capsys, "compare", *argv, "--out", cmp)[0] == 0
    code, _, err = run(capsys, "record", cmp, "--game", 2)
    assert code == 2 and "choose one with --variant (C3, small)" in err
    code, text, _ = run(capsys, "record", cmp, "--game", 2, "--variant", "small")
    rows = table(cmp)
    sel = (rows["deal"] == 2) & (rows["variant"] == "small")
    assert code == 0 and Game.from_record(text).scores == rows["score"][sel].tolist()
    rot = tmp_path / "rot.parquet"
    argv = ["-n", 3, "--skill", "greedy,random", "--rotate-seats", "-q", "--out", rot]
    assert run(capsys, "study", *argv)[0] == 0
    code, text, _ = run(capsys, "record", rot, "--game", 1, "--rotation", 1)
    rows = table(rot)
    sel = (rows["deal"] == 1) & (rows["rotation"] == 1)
    assert code == 0 and Game.from_record(text).scores == rows["score"][sel].tolist()
    assert rows["policy"][sel].tolist() == ["random", "greedy"]


def test_policy_lists_name_every_seat_and_agents_load_from_files(capsys, tmp_path):
    code, _, err = run(capsys, "simulate", "-n", 2, "-p", 2, "--policy", "greedy,random,greedy")
    assert code == 2 and "3 policies for 2 players" in err
    code, _, err = run(capsys, "simulate", "-n", 2, "-p", 3, "--policy", "greedy,random")
    assert code == 2 and "2 policies for 3 players" in err
    with pytest.raises(ValueError, match="3 policies for 2 players"):
        simulate(Rules.base(), games=1, policy="greedy,random,greedy")
    with pytest.raises(ValueError, match="unknown mcts parameter"):
        simulate(Rules.base(), games=1, policy="mcts:bogus=1")
    assert simulate(Rules.base(), games=1, policy=["mcts:300", "greedy"]).seat_policies() == [
        "mcts:playouts=300",
        "greedy",
    ]
    code, _, err = run(capsys, "simulate", "-n", 2, "--policy", "no_such_module:Agent")
    assert code == 2 and "must be importable" in err and "file" in err
    agent = tmp_path / "my_agents.py"
    agent.write_text("class First:\n    def choose(self, game, moves):\n        return moves[0]\n")
    recs = tmp_path / "games.jsonl"
    policy = f"{agent}:First,mcts:playouts=10"
    code, text, _ = run(capsys, "simulate", "-n", 2, "--policy", policy, "--records", recs, "-q")
    assert code == 0 and "First" in text
    assert all(Game.from_record(line).is_over() for line in recs.read_text().splitlines())


def test_simulate_with_a_python_agent_and_records(capsys, tmp_path):
    recs = tmp_path / "games.jsonl"
    policy = "carcassonne.players:RandomAgent,random"
    code, text, _ = run(capsys, "simulate", "-n", 4, "--policy", policy, "--records", recs, "-q")
    assert code == 0 and "py-random" in text
    lines = recs.read_text().splitlines()
    assert len(lines) == 4
    assert all(Game.from_record(line).is_over() for line in lines)


# -- streaming and Ctrl-C ----------------------------------------------------------------------


def test_ctrl_c_stops_cleanly_and_keeps_finished_games(tmp_path):
    out = tmp_path / "partial.parquet"
    cmd = [PY, "-m", "carcassonne", "simulate", "-n", str(10**9), "-o", "river=off",
           "--out", str(out)]  # fmt: skip
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Python keeps SIGINT ignored if it starts ignored (a test run in a background job).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert proc.stderr is not None
        deadline = time.monotonic() + 30
        progress = 0
        while progress < 1 and time.monotonic() < deadline:
            if "games/s" in proc.stderr.readline():
                progress += 1
        proc.send_signal(signal.SIGINT)
        out_text, err_text = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130, err_text
    assert "Traceback" not in err_text
    assert "interrupted, finished batches kept" in out_text
    rows = table(out)
    games = len(rows["deal"]) // 2
    assert games > 0
    assert np.array_equal(rows["deal"], np.repeat(np.arange(games), 2))
    ref = simulate(Rules(river=False), games=games)
    assert np.array_equal(rows["score"], ref.scores.reshape(-1))


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["simulate", "-o", "colour=blue"], "unknown rule option 'colour'"),
        (["simulate", "-p", "7"], "--players must be from 2 to 6"),
        (["simulate", "-p", "1"], "--players must be from 2 to 6"),
        (["simulate", "--policy", "clever"], "unknown policy 'clever'"),
        (["simulate", "--policy", "nosuchmodule:Agent"], "cannot load agent"),
        (["simulate", "--out", "results.txt"], "cannot tell the table format"),
        (["simulate", "-n", "5", "--out", "/no/such/dir/r.csv"], "cannot write"),
        (["report", "missing.parquet"], "results table 'missing.parquet' not found"),
        (["report", "missing.csv"], "not found"),
        (["record", "missing.jsonl", "--game", "1"], "not found"),
        (["compare", "--variant", "a"], "at least two --variant"),
        (["compare", "--variant", "a", "--variant", "b:wings=on"], "variant 'b': unknown rule"),
        (["compare", "--variant", "a", "--variant", "a"], "given twice"),
        (["compare", "--variant", "a", "--variant", "b"], "have the same rules"),
        (["compare", "--variant", "a", "--variant", "x:"], "have the same rules"),
        (["study", "--grid", "river=on,,off"], "an empty value"),
        (
            ["compare", "--variant", "a", "--variant", "b:river=off", "--baseline", "c"],
            "--baseline",
        ),
    ],
)
def test_bad_input_is_one_clear_line(capsys, tmp_path, monkeypatch, argv, needle):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("carcassonne: error: ") and needle in err


def test_unreachable_scheduler_and_bad_table_fail_fast_without_traceback(tmp_path):
    bad = tmp_path / "bad.parquet"
    bad.write_text("not parquet")
    for argv in (
        ["simulate", "-n", "10", "--scheduler", "tcp://127.0.0.1:9", "--connect-timeout", "1"],
        ["report", str(bad)],
    ):
        t = time.monotonic()
        proc = subprocess.run(
            [PY, "-m", "carcassonne", *argv], capture_output=True, text=True, timeout=60
        )
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
        assert time.monotonic() - t < 20
    assert "cannot reach the Dask scheduler" in subprocess.run(
        [PY, "-m", "carcassonne", "compare", "--variant", "a", "--variant", "b:river=off",
         "--scheduler", "127.0.0.1:9", "--connect-timeout", "0.5"],
        capture_output=True, text=True, timeout=60, env={**os.environ},
    ).stderr  # fmt: skip


def test_results_tables_read_back_in_every_format_alike(tmp_path):
    res = simulate(Rules(traders_builders="C3.1"), games=25, players=2, seed=6)
    got = []
    for ext in ("parquet", "csv", "jsonl"):
        path = tmp_path / f"t.{ext}"
        rows = table_mod.rows_of(
            res, variant='odd "name", with comma', skill="random", policies=res.seat_policies()
        )
        with table_mod.TableWriter(path) as w:
            w.write(rows)
        got.append(table(path))
    for other in got[1:]:
        assert set(other) == set(got[0])
        for k in got[0]:
            if k.startswith("rule_"):
                assert [table_mod.rule_value(k[5:], v) for v in other[k]] == [
                    table_mod.rule_value(k[5:], v) for v in got[0][k]
                ]
            else:
                assert other[k].tolist() == got[0][k].tolist(), k
    assert set(got[1]["variant"]) == {'odd "name", with comma'}
    json.dumps(table_mod.read_meta(tmp_path / "t.parquet"))
    found = table_mod.find_game(tmp_path / "t.csv", 3)
    assert found["seed"] == res.seed[3] and found["rules"] == res.rules


def test_rule_options_with_editions_switch_off():
    editions = [k for k, allowed in Rules.options().items() if None in allowed]
    if not editions:
        pytest.skip("no option with editions yet")
    name = editions[0]
    edition = next(a for a in Rules.options()[name] if a is not None)
    assert getattr(parse_rules([f"{name}=off"]), name) is None
    assert getattr(parse_rules([f"{name}={edition}"]), name) == edition
    variants = study_mod.parse_variants(["a", f"b:{name}={edition}"], [f"{name}=off"])
    assert getattr(variants["a"], name) is None and getattr(variants["b"], name) == edition
    with pytest.raises(CliError, match=f"rule option {name}: 'none' is not one of off, "):
        parse_rules([f"{name}=none"])  # one word for off, as the docs and the help write it


def test_tile_edition_options_on_the_command_line_and_in_tables(capsys, tmp_path):
    """``-o river_edition=C2`` and ``-o fortune_teller_edition=C1`` reach the games, the
    results table (a ``rule_`` column each) and the rules read back from it; an edition for an
    expansion that is off ends with one clear line, exit status 2."""
    out = tmp_path / "e.csv"
    opts = ["-o", "river_edition=C2", "-o", "fortune_teller=on", "-o", "fortune_teller_edition=C1"]
    code, _, _ = run(capsys, "simulate", "-n", 20, "-s", 4, *opts, "--out", out)
    assert code == 0
    rules = Rules(river_edition="C2", fortune_teller=True, fortune_teller_edition="C1")
    ref = simulate(rules, games=20, seed=4)
    rows = table(out)
    assert np.array_equal(rows["score"], ref.scores.reshape(-1))
    assert {table_mod.rule_value("river_edition", v) for v in rows["rule_river_edition"]} == {"C2"}
    assert {
        table_mod.rule_value("fortune_teller_edition", v)
        for v in rows["rule_fortune_teller_edition"]
    } == {"C1"}
    assert table_mod.find_game(out, 3)["rules"] == rules
    assert not np.array_equal(
        ref.scores, simulate(Rules(fortune_teller=True), games=20, seed=4).scores
    )
    code, _, err = run(capsys, "simulate", "-n", 5, "-o", "river=off", "-o", "river_edition=C2")
    assert code == 2
    assert err.strip().splitlines()[-1] == (
        "carcassonne: error: rule option river_edition='C2' needs river=True (river is off)"
    )


@pytest.mark.parametrize("ext", [".csv", ".jsonl", ".parquet"])
def test_a_table_written_before_an_option_or_a_source_reads_them_as_default_and_zero(
    capsys, tmp_path, ext
):
    """A table written before a rule option or a point source existed lacks its column: it
    reads as the option's default (every game then played it) and as 0 points. Written here
    with every column, then each format's copy is cut to the columns of an engine with one
    option and one source fewer, as an older version wrote it."""
    if ext == ".parquet":
        pytest.importorskip("pyarrow")
    new = tmp_path / "new.csv"
    argv = ["-n", 2, "-s", 3, "--skill", "random", "-q", "-o", "toll_collectors=on"]
    assert run(capsys, "study", *argv, "--out", new)[0] == 0
    rows = table(new)
    option, source = "rule_toll_flip", "points_" + table_mod.SOURCES[-1]
    assert rows[option].tolist() == [Rules.defaults()["toll_flip"]] * 4
    cut = {c: v for c, v in rows.items() if c not in (option, source)}
    old = tmp_path / f"old{ext}"
    if ext == ".csv":
        import csv

        with open(old, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(cut)
            w.writerows(zip(*(v.tolist() for v in cut.values()), strict=True))
    elif ext == ".jsonl":
        old.write_text(
            "".join(
                json.dumps(
                    {c: v[i].item() if hasattr(v[i], "item") else v[i] for c, v in cut.items()}
                )
                + "\n"
                for i in range(4)
            )
        )
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.table({c: v.tolist() for c, v in cut.items()}), old)
    back = table(old)
    assert back[option].tolist() == rows[option].tolist()
    assert back[source].tolist() == [0] * 4
    for c in cut:
        assert back[c].tolist() == rows[c].tolist(), c
    # The other option columns and their defaults come from the one option table.
    assert set(table_mod.OLD_DEFAULTS) >= {"rule_" + o for o in Rules.options()}
    assert {"points_" + s for s in table_mod.SOURCES} <= set(table_mod.OLD_DEFAULTS)


def test_tables_carry_the_deal_version_and_older_tables_are_not_replayed(capsys, tmp_path):
    """A table written before deal versions (no column ``deal_version``) was dealt by version
    1: reading it still works, but ``record`` would replay another game and ``--append`` would
    pair unlike deals, so both refuse it in one line."""
    new = tmp_path / "new.csv"
    argv = ["-n", 3, "-s", 5, "--skill", "random", "-q"]
    assert run(capsys, "study", *argv, "--out", new)[0] == 0
    rows = table(new)
    assert rows["deal_version"].tolist() == [carcassonne._core.DEAL_VERSION] * 6 == [2] * 6
    lines = new.read_text().splitlines()
    at = lines[0].split(",").index("deal_version")
    old = tmp_path / "old.csv"
    old.write_text(
        "".join(",".join(x for i, x in enumerate(r.split(",")) if i != at) + "\n" for r in lines)
    )
    assert "deal_version" not in old.read_text()
    assert table(old)["deal_version"].tolist() == [1] * 6
    code, text, err = run(capsys, "record", old, "--game", 1)
    assert code == 2 and text == "" and len(err.strip().splitlines()) == 1
    assert "deal version 1" in err and "version 2" in err and "rerun the study" in err
    code, _, err = run(capsys, "study", *argv, "--out", old, "--append")
    assert code == 2 and "deal version 1" in err and "start a new table" in err
    assert run(capsys, "record", new, "--game", 1)[0] == 0
    # One table, one deal version.
    mixed = tmp_path / "mixed.csv"
    last = lines[-1].split(",")
    last[at] = "1"
    mixed.write_text("\n".join([*lines[:-1], ",".join(last)]) + "\n")
    with pytest.raises(StudyError, match="row 6: deal version 1, not 2 as row 1"):
        table(mixed)
