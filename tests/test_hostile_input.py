"""Defects found by a hostile-input round (issue 26, "Defects found by a hostile-input
round"): each test names the item it pins. The CLI and study-table items are tested with
their commands."""

from __future__ import annotations

import copy
import json
import os
import pickle
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest
from test_interrupt import HANG, _ctrl_c, _start, _wait_for

from carcassonne import Game, Rules, simulate
from carcassonne.errors import RecordError

PY = sys.executable


# -- 1: Ctrl-C reaches a long search and a rule file that never ends ----------------------------


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX process groups")
def test_1_search_stops_on_ctrl_c():
    script = textwrap.dedent(
        """
        import time
        from carcassonne import Game, Rules
        g = Game(Rules(), players=2, seed=1)
        print("started", flush=True)
        try:
            g.search(playouts=10_000_000, seed=0)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            print("game unchanged", g.decision.value, len(g.move_stack), flush=True)
        """
    )
    proc = _start([PY, "-c", script])
    _wait_for(proc, "started")
    time.sleep(1.0)  # well inside the search (10 million playouts take many minutes)
    out, err = _ctrl_c(proc)
    assert "interrupted" in out, err
    assert "game unchanged place 0" in out
    assert proc.returncode == 0


def test_1_tiles_from_a_pipe_are_refused_at_once(tmp_path):
    """``Rules(tiles="@FIFO")`` waited forever for a writer, deaf to Ctrl-C: only a regular
    file is read."""
    fifo = tmp_path / "counts"
    os.mkfifo(fifo)
    script = textwrap.dedent(
        f"""
        from carcassonne import Rules
        try:
            Rules(tiles="@{fifo}")
        except ValueError as e:
            print("refused:", e)
        """
    )
    done = subprocess.run([PY, "-c", script], capture_output=True, text=True, timeout=HANG)
    assert "refused:" in done.stdout and "not a regular file" in done.stdout, done.stderr


# -- 4: an empty bag ends a manual game (tests/test_scenario.py) --------------------------------

# -- 6: errors quote short escaped excerpts, never a file's content -----------------------------


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_6_a_device_is_not_read(device):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    with pytest.raises(ValueError, match="not a regular file") as e:
        Rules(tiles=f"@{device}")
    assert len(str(e.value)) < 200


def test_6_control_characters_are_escaped(tmp_path):
    counts = tmp_path / "counts.txt"
    counts.write_text("CAP:3\x00\n")
    with pytest.raises(ValueError, match="line 1 is not a tile count") as e:
        Rules(tiles=f"@{counts}")
    assert "\x00" not in str(e.value)
    with pytest.raises(ValueError) as e:
        Rules(tiles="CAP:3\x00")
    assert "\x00" not in str(e.value) and "`CAP:3\\x00`" in str(e.value)


def test_6_a_long_line_is_quoted_short(tmp_path):
    counts = tmp_path / "counts.txt"
    counts.write_text("secret-" + "x" * 5000 + "\n")
    with pytest.raises(ValueError) as e:
        Rules(tiles=f"@{counts}")
    assert len(str(e.value)) < 400


# -- 7: pickle and deepcopy ----------------------------------------------------------------------


def test_7_pickle_and_deepcopy_give_the_same_game():
    g = Game(Rules(), players=3, seed=5)
    for _ in range(7):
        g.play(g.legal_moves[len(g.legal_moves) // 2])
    for other in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g)):
        assert other.fingerprint() == g.fingerprint()
        assert [str(m) for m in other.move_stack] == [str(m) for m in g.move_stack]
        other.play(other.legal_moves[0])
        assert other.fingerprint() != g.fingerprint()  # independent
        other.pop()
        assert other.fingerprint() == g.fingerprint()  # undo history kept


# -- 14: signed score columns -------------------------------------------------------------------


def test_14_score_columns_are_signed():
    cols = simulate(Rules.base(), games=20, players=2, seed=3).columns()
    diff = cols["score_0"] - cols["score_1"]
    assert (diff < 0).any() and diff.min() > -1000  # no wrap-around
    for name, col in cols.items():
        if name.startswith("score_") or name.split("_")[0] in ("cities", "roads", "fields"):
            assert np.issubdtype(col.dtype, np.signedinteger), name


def test_6_a_file_line_that_is_no_count_is_named_not_quoted(tmp_path):
    counts = tmp_path / "passwd"
    counts.write_text("CAP:3\nroot:x:0:0:root:/root:/bin/bash\n")
    with pytest.raises(ValueError, match="line 2 is not a tile count") as e:
        Rules(tiles=f"@{counts}")
    assert "root" not in str(e.value).replace(str(tmp_path), "")


# -- 10: option text strictness ------------------------------------------------------------------


def test_10_tile_counts_take_the_documented_separators_and_a_bom(tmp_path):
    assert Rules.base(tiles="CAP:3; ROAD_WE:8") == Rules.base(tiles="CAP:3,ROAD_WE:8")
    for text in ("CAP:3+ROAD_WE:8", "CAP:3 ROAD_WE:8"):
        with pytest.raises(ValueError, match="tile count"):
            Rules.base(tiles=text)
    counts = tmp_path / "counts.txt"
    counts.write_bytes("\ufeffCAP:3\nROAD_WE:8\n".encode())
    assert Rules.base(tiles=f"@{counts}") == Rules.base(tiles="CAP:3,ROAD_WE:8")


@pytest.mark.parametrize(
    "policy", ["mcts:::", "mcts:playouts=5:playouts=6", "mcts:c=0.3:5", "mcts:5:"]
)
def test_10_policy_text_is_strict(policy):
    with pytest.raises(ValueError, match="mcts param"):
        simulate(Rules.base(), games=1, players=2, policy=policy)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"c": True}, "c must be a number, not True"),
        ({"margin": "0.5"}, "margin must be a number"),
        ({"depth": -1}, "depth must be an int from 0 to 65535"),
        ({"depth": 2.0}, "depth must be an int"),
        ({"c": 1e308}, "1e308"),
    ],
)
def test_10_search_arguments_are_checked(kwargs, message):
    g = Game(Rules.base(), players=2, seed=1)
    with pytest.raises(ValueError, match=message):
        g.search(playouts=5, **kwargs)


# -- 9: environment arguments as documented (docs/environments.md) -------------------------------


def test_9_vector_env_arguments():
    from carcassonne.env import VectorEnv

    env = VectorEnv(num_envs=2, rules=Rules.base(), seed=1)
    env.reset(seed=np.int64(3))
    for bad in ([-1, 0], [2**63 - 1, 0]):
        with pytest.raises(ValueError, match="outside the action space"):
            env.step(np.array(bad, np.int64))
    with pytest.raises(ValueError, match=str(2**64 - 1)):
        env.step(np.array([2**64 - 1, 0], np.uint64))
    for i in (-1, 2, 10**20):
        with pytest.raises(ValueError, match="is not one of the 2 games"):
            env.legal_actions(i)
        with pytest.raises(ValueError, match="is not one of the 2 games"):
            env.state(i)


def test_9_aec_env_step_after_the_end_raises():
    from carcassonne.env import env as aec_env

    e = aec_env(rules=Rules.base(), players=2)
    e.reset(seed=0)
    while e.agents:
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
        else:
            e.step(int(np.flatnonzero(e.observe(agent)["action_mask"])[0]))
    with pytest.raises(RuntimeError, match="game is over"):
        e.step(0)


# -- 8: one game, one thread at a time ------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX process groups")
def test_8_a_step_during_another_threads_search_says_what_is_wrong():
    """The main thread searches; another thread's draw gets the project's GameInUseError (not
    PyO3's "Already borrowed"), then stops the search with a Ctrl-C to the process."""
    script = textwrap.dedent(
        """
        import os, signal, threading, time
        from carcassonne import DrawError, Game, Rules
        from carcassonne.errors import GameInUseError
        g = Game(Rules(), players=2, seed=1)

        def other():
            for _ in range(100_000):
                try:
                    g.draw("CAP")
                except DrawError:  # not searching yet: a tile already waits
                    time.sleep(0.001)
                except GameInUseError as e:
                    print("in use:", e, flush=True)
                    break
            os.kill(os.getpid(), signal.SIGINT)

        threading.Thread(target=other).start()
        try:
            g.search(playouts=10_000_000)
        except KeyboardInterrupt:
            print("search stopped", flush=True)
        """
    )
    proc = _start([PY, "-c", script])  # SIGINT handled even if this process ignores it
    try:
        out, err = proc.communicate(timeout=HANG)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert "in use: game is in use by another thread" in out, err
    assert "search stopped" in out


def test_a_rule_option_given_twice_is_refused_in_one_line(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "carcassonne",
            "simulate",
            "-n",
            "2",
            "-o",
            "river=off",
            "-o",
            "river=on",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "carcassonne: error: rule option 'river' is given twice: give each option once"
    )


def test_a_record_never_reads_a_file_named_in_its_rules(tmp_path):
    secret = tmp_path / "counts.txt"
    secret.write_text("CAP:3\n")
    record = json.loads(Game(Rules(), 2, seed=1).to_json())
    record["rules"]["tiles"] = f"@{secret}"
    with pytest.raises(RecordError, match="cannot name a file"):
        Game.from_record(json.dumps(record))
