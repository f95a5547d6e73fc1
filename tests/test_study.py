"""Studies: the simulate/compare/report/record commands end to end, results identical across
thread counts, chunkings and executors (a real Dask LocalCluster; Ray where installed), the
paired-comparison arithmetic on a hand-made table, report files, streaming without memory
growth (measured), Ctrl-C keeping what finished, and one clear line for bad input.
"""

from __future__ import annotations

import csv
import json
import math
import multiprocessing
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pytest

import carcassonne
from carcassonne import Game, IllegalMoveError, Rules, simulate
from carcassonne import report as report_mod
from carcassonne import study as study_mod
from carcassonne import table as table_mod
from carcassonne.agents import (
    Agent,
    NativeRandomAgent,
    RandomAgent,
    play_game,
    replay,
    simulate_agents,
)
from carcassonne.cli import main
from carcassonne.simulate import compare, game_seed, simulate_chunks
from carcassonne.stats import Z95, Tally
from carcassonne.table import read_batches, summarise

COLS = ("seed", "turns", "discarded", "winners", "scores", "breakdown")
PY = sys.executable


def same(a, b) -> bool:
    return all(np.array_equal(getattr(a, k), getattr(b, k)) for k in COLS)


def table(path) -> dict[str, np.ndarray]:
    parts = list(read_batches(path))
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


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

    from carcassonne.distributed import dask_executor

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
        assert cmp.differences() == ref_cmp.differences()
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
    ray = pytest.importorskip("ray")
    from carcassonne.distributed import RayExecutor

    ref = simulate(Rules.base(), games=200, players=3, seed=8)
    ex = RayExecutor(num_cpus=2, include_dashboard=False)
    try:
        assert same(ref, simulate(Rules.base(), games=200, players=3, seed=8, executor=ex))
    finally:
        ex.shutdown()
    assert not ray.is_initialized()


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
    assert len(rows["game"]) == 450
    assert np.array_equal(rows["game"], np.repeat(np.arange(150), 3))
    assert np.array_equal(rows["seat"], np.tile(np.arange(3), 150))
    assert np.array_equal(rows["seed"], np.repeat(ref.seed, 3))
    assert np.array_equal(rows["score"], ref.scores.reshape(-1))
    assert np.array_equal(rows["won"], ref.won().reshape(-1))
    assert np.array_equal(rows["turns"], np.repeat(ref.turns, 3))
    for s, name in enumerate(carcassonne.SOURCES):
        assert np.array_equal(rows[f"points_{name}"], ref.breakdown[:, :, s].reshape(-1))
    for name, value in Rules(small_city=True).to_dict().items():
        assert {table_mod.rule_value(name, v) for v in rows[f"rule_{name}"]} == {value}
    assert set(rows["variant"]) == {"small_city=True"}
    best = ref.scores.max(axis=1)
    assert np.array_equal(rows["rank"] == 1, (ref.scores == best[:, None]).reshape(-1))
    # the summary: win rates with intervals, spread, every source, length, discards, speed
    assert "150 games, 3 players, policy random, seed 7" in text
    for p in (1, 2, 3):
        assert any(line.split()[:2] == [str(p), "random"] for line in text.splitlines())
    assert "95% interval" in text and "sd" in text and "10%-90%" in text
    # every base source; an expansion's source only when its expansion is in play
    for name in ("roads", "cities", "monasteries", "gardens", "fields"):
        assert f"\n  {name} " in text
    assert "\n  goods " not in text and "\n  circus " not in text
    assert "game length:" in text and "tiles discarded:" in text and "games/s" in text
    assert "games/s" in err  # the progress bar (not a terminal: one line per chunk)


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


def test_summary_is_the_tally_of_the_chunks():
    t = Tally(2, carcassonne.SOURCES)
    for part in simulate_chunks(Rules(), games=100, seed=4, chunk=13):
        t.add_results(part)
    whole = simulate(Rules(), games=100, seed=4)
    scores = whole.scores.astype(float)
    assert t.n == 100
    assert np.allclose(t.score_mean, scores.mean(axis=0))
    assert np.allclose(t.score_sd(), scores.std(axis=0, ddof=1))
    assert np.array_equal(t.wins, whole.won().sum(axis=0))
    assert t.score_quantile(0, 0.5) == int(np.quantile(whole.scores[:, 0], 0.5, method="lower"))
    assert np.allclose(t.source_means(), whole.breakdown.mean(axis=0))
    assert study_mod.summary(whole, 1.0).splitlines()[3:] == t.summary(1.0).splitlines()[3:]


def test_compare_command_and_api_agree(capsys, tmp_path):
    out = tmp_path / "cmp.parquet"
    code, text, _ = run(
        capsys, "compare", "-n", 300, "-s", 11, "-o", "river=off", "--variant", "C3",
        "--variant", "small:small_city=on", "--variant", "abbotless:abbot=off",
        "--out", out, "-q",
    )  # fmt: skip
    assert code == 0
    assert "paired differences, variant minus baseline 'C3'" in text
    api = compare(
        {
            "C3": Rules(river=False),
            "small": Rules(river=False, small_city=True),
            "abbotless": Rules(river=False, abbot=False),
        },
        games=300,
        seed=11,
    )
    from_table = summarise(out)
    assert from_table.comparison is not None
    assert from_table.comparison.differences() == api.differences()
    assert set(from_table.tallies) == {"C3", "small", "abbotless"}
    # small_city changes nothing but small-city points: the scores move, the seeds pair
    small = [r for r in api.differences() if r["variant"] == "small"]
    assert all(r["games"] == 300 and r["score_diff"] <= 0 for r in small)


def test_paired_comparison_arithmetic_on_a_hand_made_table(tmp_path):
    # Two variants, five games (seeds 11..15), two seats; scores chosen by hand.
    a = {11: (10, 15), 12: (20, 15), 13: (30, 35), 14: (40, 35), 15: (50, 55)}
    b = {11: (12, 15), 12: (20, 25), 13: (33, 30), 14: (38, 35), 15: (57, 50)}
    path = tmp_path / "hand.csv"
    header = ["variant", "game", "seed", "players", "seat", "policy", "score", "won", "rank",
              "turns", "discarded", "points_roads", "rule_river"]  # fmt: skip
    lines = []
    for variant, games in (("B", b), ("A", a)):  # the baseline A comes second in the file
        for seed in sorted(games, reverse=True):  # and the games in any order
            s0, s1 = games[seed]
            for seat, score in ((1, s1), (0, s0)):
                won = score == max(s0, s1)
                rank = 1 if won else 2
                won_text = str(won).lower()
                row = [variant, seed - 11, seed, 2, seat, "random", score, won_text, rank]
                lines.append([*row, 70, 0, score, "false"])
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(lines)
    summ = summarise(path, baseline="A", batch_rows=3)  # games split across batches
    rows = {r["seat"]: r for r in summ.comparison.differences() if r["variant"] == "B"}
    # seat 0: score differences 2, 0, 3, -2, 7 -> mean 2, sample variance 46/4
    half = Z95 * math.sqrt(11.5 / 5)
    assert rows[0]["games"] == 5
    assert rows[0]["score_diff"] == pytest.approx(2.0)
    assert (rows[0]["score_low"], rows[0]["score_high"]) == pytest.approx((2 - half, 2 + half))
    # seat 0 wins: A F T F T F, B F F T T T -> differences 0 -1 1 0 1: mean 0.2, variance 0.7
    half = Z95 * math.sqrt(0.7 / 5)
    assert rows[0]["win_diff"] == pytest.approx(0.2)
    assert (rows[0]["win_low"], rows[0]["win_high"]) == pytest.approx((0.2 - half, 0.2 + half))
    # seat 1: score differences 0, 10, -5, 0, -5 -> mean 0, variance 150/4
    half = Z95 * math.sqrt(37.5 / 5)
    assert rows[1]["score_diff"] == pytest.approx(0.0)
    assert rows[1]["score_high"] == pytest.approx(half)
    # seat 1 wins: A T F T F T, B T T F F F -> 0 1 -1 0 -1: mean -0.2, variance 0.7
    assert rows[1]["win_diff"] == pytest.approx(-0.2)
    # per-variant tallies
    ta = summ.tallies["A"]
    assert ta.n == 5 and ta.wins.tolist() == [2, 3] and ta.ties == 0
    assert ta.score_mean.tolist() == pytest.approx([30.0, 31.0])
    assert ta.rules == {"river": False}
    assert summ.comparison.unpaired == {"A": 0, "B": 0}


def test_comparison_pairs_by_seed_and_counts_the_unpaired(tmp_path):
    res = simulate(Rules(), games=40, seed=1)
    other = simulate(Rules(), games=30, seed=1)  # games 0..29 only
    out = tmp_path / "p.jsonl"
    with table_mod.TableWriter(out) as w:
        w.write(res, "all")
        w.write(other, "some")
    summ = summarise(out)
    diffs = summ.comparison.differences()
    assert all(r["games"] == 30 and r["score_diff"] == 0 and r["win_low"] == 0 for r in diffs)
    assert summ.comparison.unpaired == {"all": 10, "some": 0}


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
    assert page.count("src='data:image/png;base64,") == 4
    assert "http://" not in page and "https://" not in page  # self-contained
    assert "Paired differences from C3" in page
    summary = (rep / "summary.txt").read_text()
    assert "200 games, 2 players" in summary and "paired differences" in summary


def test_report_without_matplotlib_writes_text_and_says_so(capsys, tmp_path, monkeypatch):
    out = tmp_path / "r.csv"
    assert run(capsys, "simulate", "-n", 50, "--out", out, "-q")[0] == 0
    monkeypatch.setattr(report_mod, "_has_matplotlib", lambda: False)
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
    assert game.scores == rows["score"][rows["game"] == 10].tolist()
    native = tmp_path / "g.csv"
    policy = "mcts:playouts=20,greedy"
    assert run(capsys, "simulate", "-n", 3, "--policy", policy, "--out", native, "-q")[0] == 0
    code, text, _ = run(capsys, "record", native, "--game", 1)
    rows = table(native)
    assert code == 0
    assert Game.from_record(text).scores == rows["score"][rows["game"] == 1].tolist()


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
    policy = "carcassonne.agents:RandomAgent,random"
    code, text, _ = run(capsys, "simulate", "-n", 4, "--policy", policy, "--records", recs, "-q")
    assert code == 0 and "py-random" in text
    lines = recs.read_text().splitlines()
    assert len(lines) == 4
    assert all(Game.from_record(line).is_over() for line in lines)


# -- streaming and Ctrl-C ----------------------------------------------------------------------


def test_a_large_run_streams_without_memory_growth(capsys, tmp_path, monkeypatch):
    pa = pytest.importorskip("pyarrow")
    monkeypatch.setattr(table_mod.writer, "BUFFER_ROWS", 4096)
    samples: list[tuple[int, int]] = []
    monkeypatch.setattr(
        study_mod.Progress,
        "update",
        lambda self, done: samples.append(
            (tracemalloc.get_traced_memory()[0], pa.total_allocated_bytes())
        ),
    )
    tracemalloc.start()
    try:
        base = ["-o", "river=off", "-o", "abbot=off"]
        out = tmp_path / "big.parquet"
        code, _, _ = run(capsys, "simulate", "-n", 30_000, *base, "--chunk", 1000, "--out", out)
    finally:
        tracemalloc.stop()
    assert code == 0 and len(samples) == 30
    # Holding the games would add about 4 MB between the first and the last third.
    py_growth = max(s[0] for s in samples[20:]) - max(s[0] for s in samples[:10])
    arrow_growth = max(s[1] for s in samples[20:]) - max(s[1] for s in samples[:10])
    assert py_growth < 1_000_000, samples
    assert arrow_growth < 1_000_000, samples
    assert len(table(tmp_path / "big.parquet")["game"]) == 60_000


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
    assert "(interrupted: partial results)" in out_text
    first = out_text.splitlines()[0]
    games = int(first.split(" games")[0].replace(",", ""))
    assert games > 0
    rows = table(out)
    assert np.array_equal(rows["game"], np.repeat(np.arange(games), 2))
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
        (["report", "missing.parquet"], "results file 'missing.parquet' not found"),
        (["report", "missing.csv"], "not found"),
        (["record", "missing.jsonl", "--game", "1"], "not found"),
        (["compare", "--variant", "a"], "at least two --variant"),
        (["compare", "--variant", "a", "--variant", "b:wings=on"], "variant 'b': unknown rule"),
        (["compare", "--variant", "a", "--variant", "a"], "given twice"),
        (["compare", "--variant", "a", "--variant", "b", "--baseline", "c"], "--baseline"),
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
        [PY, "-m", "carcassonne", "compare", "--variant", "a", "--variant", "b",
         "--scheduler", "127.0.0.1:9", "--connect-timeout", "0.5"],
        capture_output=True, text=True, timeout=60, env={**os.environ},
    ).stderr  # fmt: skip


def test_results_tables_read_back_in_every_format_alike(tmp_path):
    res = simulate(Rules(traders_builders="C3.1") if "traders_builders" in Rules.options()
                   else Rules(), games=25, players=2, seed=6)  # fmt: skip
    got = []
    for ext in ("parquet", "csv", "jsonl"):
        path = tmp_path / f"t.{ext}"
        with table_mod.TableWriter(path) as w:
            w.write(res, 'odd "name", with comma')
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
    assert getattr(study_mod.parse_rules([f"{name}=off"]), name) is None
    assert getattr(study_mod.parse_rules([f"{name}={edition}"]), name) == edition
    variants = study_mod.parse_variants(["a", f"b:{name}={edition}"], [f"{name}=none"])
    assert getattr(variants["a"], name) is None and getattr(variants["b"], name) == edition


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
