"""Ctrl-C, as a user presses it: a study stops within a moment, keeps (or hands back) the
games it finished, and ends without tracebacks. Each test runs the study in a subprocess and
sends SIGINT; the only time bounds are generous ones that keep a hang from hanging the suite.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

PY = sys.executable
HANG = 90  # seconds: far beyond any stop, far below what the unstopped work would take


def _start(argv: list[str], cwd: object = None) -> subprocess.Popen:
    def child() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # even if this process ignores it
        os.setpgid(0, 0)  # its own group: a "terminal" Ctrl-C reaches its workers too

    return subprocess.Popen(
        argv,
        preexec_fn=child,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
    )


def _wait_for(proc: subprocess.Popen, needle: str) -> None:
    """Read stdout until a line holds ``needle`` (the study has started)."""
    assert proc.stdout is not None
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if needle in line or not line:
            return


def _ctrl_c(proc: subprocess.Popen, times: int = 1) -> tuple[str, str]:
    """Ctrl-C ``times`` times (to the whole process group, as a terminal does)."""
    try:
        for _ in range(times):
            os.killpg(proc.pid, signal.SIGINT)
            time.sleep(0.3)
        return proc.communicate(timeout=HANG)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()


def test_python_simulate_raises_with_the_finished_games():
    script = textwrap.dedent(
        """
        import carcassonne
        from carcassonne import Rules, StudyInterrupted, simulate
        print("started", flush=True)
        try:
            simulate(Rules(), games=10**9, seed=3, threads=2)
        except StudyInterrupted as e:
            r = e.results
            assert isinstance(e, KeyboardInterrupt)
            assert r is not None and len(r) > 0 and r.first == 0
            again = simulate(Rules(), games=len(r), seed=3)
            assert (again.scores == r.scores).all()
            print("kept", len(r), flush=True)
        """
    )
    proc = _start([PY, "-c", script])
    _wait_for(proc, "started")
    time.sleep(1.5)  # some chunks finish
    out, err = _ctrl_c(proc)
    assert proc.returncode == 0, err
    assert "kept" in out


def test_second_ctrl_c_stops_at_once_even_with_large_chunks():
    # One chunk of a million games takes minutes on two cores: only an interrupted chunk ends.
    # Everything the study imports is imported before "started": a Ctrl-C that lands in an
    # import under a loaded machine would test the interpreter, not the study.
    script = textwrap.dedent(
        """
        import sys
        import carcassonne.cli.study, carcassonne.studies.simulate, carcassonne.studies.report
        from carcassonne.cli import main
        print("started", flush=True)
        sys.exit(main(["simulate", "-n", str(10**8), "--chunk", str(10**6), "-q"]))
        """
    )
    proc = _start([PY, "-c", script])
    _wait_for(proc, "started")
    time.sleep(1)  # inside the first chunk
    out, err = _ctrl_c(proc, times=2)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert "interrupted" in err


def test_local_cluster_ctrl_c_ends_quietly():
    pytest.importorskip("distributed")
    proc = _start(
        [
            PY,
            "-m",
            "carcassonne",
            "simulate",
            "-n",
            str(10**7),
            "-p",
            "2",
            "-o",
            "river=off",
            "--scheduler",
            "local",
            "--workers",
            "2",
        ]  # fmt: skip
    )
    assert proc.stderr is not None
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline and "games/s" not in proc.stderr.readline():
        pass  # wait until chunks come back from the workers
    out, err = _ctrl_c(proc)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-2000:]
    assert "interrupted, finished batches kept" in out


@pytest.mark.parametrize("workers", ["0", "-1"])
def test_workers_must_be_at_least_one(workers):
    proc = subprocess.run(
        [
            PY,
            "-m",
            "carcassonne",
            "simulate",
            "-n",
            "10",
            "--scheduler",
            "local",
            "--workers",
            workers,
        ],  # fmt: skip
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "--workers must be at least 1" in proc.stderr


def test_workers_without_a_local_cluster_is_refused():
    proc = subprocess.run(
        [PY, "-m", "carcassonne", "simulate", "-n", "10", "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    assert proc.returncode == 2
    assert "--workers" in proc.stderr and "--scheduler local" in proc.stderr


def test_ray_ctrl_c_keeps_finished_batches_and_append_gives_the_uninterrupted_rows(tmp_path):
    """A study on a local Ray cluster (where ray is installed), Ctrl-C'd as a terminal does
    (the whole process group) once batches have come back: exit status 130, no traceback, a
    table of whole batches only (every cell's deals 0..k-1); ``--append`` on Ray then goes on
    to the rows of one uninterrupted run here."""
    pytest.importorskip("ray")
    import numpy as np

    from carcassonne.studies.table import read_table

    out, ref = tmp_path / "s.csv", tmp_path / "ref.csv"
    study = ["study", "--batch", "50", "--variant", "C3", "--variant", "small:small_city=on"]
    study += ["--skill", "greedy,random", "--rotate-seats", "-s", "5"]
    ray = ["--scheduler", "ray", "--out", str(out)]
    proc = _start([PY, "-m", "carcassonne", *study, "-n", str(10**6), *ray], cwd=tmp_path)
    assert proc.stderr is not None
    deadline = time.monotonic() + 5 * HANG  # starting Ray on a loaded machine takes a while
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if "deals" in line or not line:  # a progress line: a batch came back from Ray
            break
    out_text, err = _ctrl_c(proc)
    assert proc.returncode == 130, err[-3000:]
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-3000:]
    assert "interrupted, finished batches kept" in out_text
    rows = read_table(out)
    deals = {}
    for v in ("C3", "small"):
        d = np.unique(rows["deal"][rows["variant"] == v])
        assert len(d) % 50 == 0 and d.tolist() == list(range(len(d))), (v, len(d))
        deals[v] = len(d)
    assert deals["C3"] >= 50
    n = str(max(deals.values()) + 100)
    cont = subprocess.run(
        [PY, "-m", "carcassonne", *study, "-n", n, *ray, "--append", "-q"],
        capture_output=True,
        text=True,
        timeout=5 * HANG,
        cwd=tmp_path,
    )
    assert cont.returncode == 0, cont.stderr[-3000:]
    here = subprocess.run(
        [PY, "-m", "carcassonne", *study, "-n", n, "--out", str(ref), "-q"],
        capture_output=True,
        text=True,
        timeout=5 * HANG,
        cwd=tmp_path,
    )
    assert here.returncode == 0, here.stderr[-3000:]
    got, want = read_table(out), read_table(ref)

    def order(r):
        return np.lexsort((r["seat"], r["rotation"], r["deal"], r["variant"].astype(str)))

    a, b = order(got), order(want)
    assert len(a) == len(b) == 2 * int(n) * 2 * 2  # variants x deals x seat orders x seats
    for col in want:
        assert got[col][a].tolist() == want[col][b].tolist(), col


# -- Ctrl-C inside games played by a long search (mcts) ----------------------------------------
# Each game below would take hours: only a search that stops on Ctrl-C lets these end.

LONG_SEARCH = "mcts:playouts=3000000"


def _cli_stops(argv: list[str], times: int, cwd: object = None) -> tuple[str, str]:
    proc = _start([PY, "-m", "carcassonne", *argv], cwd=cwd)
    time.sleep(2)  # inside the first search
    out, err = _ctrl_c(proc, times=times)
    assert proc.returncode == 130, (proc.returncode, err)
    assert "Traceback" not in err
    return out, err


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "-n", "2", "-t", "1", "--policy", LONG_SEARCH, "-q"],
        ["study", "-n", "2", "-t", "1", "--skill", LONG_SEARCH, "-q"],
        [
            "compare",
            "-n",
            "2",
            "-t",
            "1",
            "--policy",
            LONG_SEARCH,
            "--variant",
            "a",
            "--variant",
            "b:river=off",
            "-q",
        ],
    ],
    ids=["simulate", "study", "compare"],
)
def test_two_ctrl_c_stop_a_study_of_long_searches(argv):
    _cli_stops(argv, times=2)


def test_ctrl_c_stops_record_replaying_a_long_search(tmp_path):
    """A results table whose policy column names a long search: ``record`` replays that game
    natively, and Ctrl-C ends it."""
    table = tmp_path / "t.csv"
    done = subprocess.run(
        [
            PY,
            "-m",
            "carcassonne",
            "simulate",
            "-n",
            "1",
            "--policy",
            "mcts:playouts=2",
            "--out",
            str(table),
            "-q",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    text = table.read_text()
    assert "mcts:playouts=2" in text
    table.write_text(text.replace("mcts:playouts=2", LONG_SEARCH))
    _cli_stops(["record", str(table), "--game", "0"], times=1)


def test_python_simulate_of_long_searches_stops_on_ctrl_c():
    script = textwrap.dedent(
        f"""
        from carcassonne import Rules, simulate
        print("started", flush=True)
        try:
            simulate(Rules(), games=2, threads=1, policy={LONG_SEARCH!r})
        except KeyboardInterrupt:
            print("stopped", flush=True)
        """
    )
    proc = _start([PY, "-c", script])
    _wait_for(proc, "started")
    time.sleep(1.5)
    out, err = _ctrl_c(proc)
    assert proc.returncode == 0, err
    assert "stopped" in out


def test_vector_env_native_searching_opponents_stop_on_ctrl_c():
    script = textwrap.dedent(
        f"""
        import numpy as np
        from carcassonne import Rules
        from carcassonne.env import VectorEnv
        env = VectorEnv(Rules.base(), players=2, num_envs=1, seat=0, opponents={LONG_SEARCH!r})
        env.reset(seed=1)
        flat, starts = env.legal_lists()
        print("started", flush=True)
        try:
            env.step(np.array([flat[0]], np.int64))
        except KeyboardInterrupt:
            print("stopped", flush=True)
        try:
            env.step(np.array([flat[0]], np.int64))
        except RuntimeError as e:
            print("then:", e, flush=True)
        """
    )
    proc = _start([PY, "-c", script])
    _wait_for(proc, "started")
    time.sleep(1.5)
    out, err = _ctrl_c(proc)
    assert proc.returncode == 0, err
    assert "stopped" in out
    assert "then: call reset() before step()" in out


def test_a_native_agent_searching_stops_on_ctrl_c():
    """A Python game driven move by move, with the native search as an agent."""
    script = textwrap.dedent(
        f"""
        from carcassonne import Game, Rules, _core
        g = Game(Rules(), players=2, seed=1)
        p = _core.Policy({LONG_SEARCH!r}, 1)
        print("started", flush=True)
        try:
            p.choose(g._state)
        except KeyboardInterrupt:
            print("stopped", flush=True)
        """
    )
    proc = _start([PY, "-c", script])
    _wait_for(proc, "started")
    time.sleep(1.5)
    out, err = _ctrl_c(proc)
    assert proc.returncode == 0, err
    assert "stopped" in out
