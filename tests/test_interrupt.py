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


def _start(argv: list[str]) -> subprocess.Popen:
    def child() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # even if this process ignores it
        os.setpgid(0, 0)  # its own group: a "terminal" Ctrl-C reaches its workers too

    return subprocess.Popen(
        argv, preexec_fn=child, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
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
    proc = _start(
        [PY, "-m", "carcassonne", "simulate", "-n", str(10**8), "--chunk", str(10**6), "-q"]
    )
    time.sleep(2)  # started, inside the first chunk
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
