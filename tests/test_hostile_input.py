"""Defects found by a hostile-input round (issue 26, "Defects found by a hostile-input
round"): each test names the item it pins. The CLI and study-table items are tested with
their commands."""

from __future__ import annotations

import copy
import csv
import json
import os
import pickle
import re
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
        while True:
            try:
                g.search(playouts=10_000_000)
            except GameInUseError:  # the other thread's draw was inside the game: again
                time.sleep(0.001)
            except KeyboardInterrupt:
                print("search stopped", flush=True)
                break
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


# == Round 4 (issue 33: nothing lost, nothing hangs, nothing read that should not be) ===========
# Threads: tests/test_threads.py; Ctrl-C inside long searches: tests/test_interrupt.py.

from carcassonne import _core  # noqa: E402


def _n_terms():
    return len(_core.evaluation_terms())


def _weights(tmp_path, models=None, name="w.weights", prefix=""):
    good = _core.weights_text(models or [("base", [0.5] * _n_terms())])
    path = tmp_path / name
    path.write_text(prefix + good, encoding="utf-8")
    return path


# -- 3: bounded reads and memory -----------------------------------------------------------------


def test_r4_3_the_weights_reader_reads_no_more_than_its_cap(tmp_path):
    """A file whose size says nothing (/proc) is read up to the cap and refused, under an
    address-space limit far below what reading it whole would take."""
    if not os.path.exists("/proc/self/pagemap"):
        pytest.skip("no /proc/self/pagemap")
    script = textwrap.dedent(
        """
        import resource
        from carcassonne import Game, Rules
        g = Game(Rules(), players=2, seed=1)
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, hard))  # reading it whole: far more
        try:
            g.expert_values(weights="/proc/self/pagemap")
        except ValueError as e:
            print("refused:", e)
        """
    )
    done = subprocess.run([PY, "-c", script], capture_output=True, text=True, timeout=HANG)
    assert "refused: weights file /proc/self/pagemap" in done.stdout, done.stderr
    big = tmp_path / "big.weights"
    with open(big, "wb") as f:  # sparse: 4 GiB, costs no disk
        f.truncate(4 << 30)
    with pytest.raises(ValueError, match="larger than 1024 KiB"):
        _core.policy_seats(f"expert:weights={big}")


def test_r4_3_loaded_weights_are_shared_while_held_and_then_dropped(tmp_path):
    """Weights are loaded once per content while a player holds them and dropped when none
    does: 2000 distinct files in sequence, each dropped after use, leave at most one held.
    At most 1000 different ones are held at once, then a clear refusal."""
    script = textwrap.dedent(
        f"""
        import pathlib
        from carcassonne import _core
        d = pathlib.Path({str(tmp_path)!r})
        n = len(_core.evaluation_terms())

        def path(i):
            p = d / f"w{{i}}.weights"
            p.write_text(_core.weights_text([("base", [i / 10000] * n)]))
            return p

        most = 0
        for i in range(2000):
            player = _core.Policy(f"expert:weights={{path(i)}}", 0)
            most = max(most, _core.loaded_weights())
            del player
        print("sequence ok, most held", most, "now", _core.loaded_weights())
        held = [_core.Policy(f"mcts:playouts=2:weights={{path(i)}}", 0) for i in range(1000)]
        again = _core.Policy(f"expert:weights={{path(3)}}", 0)  # shared: no new one
        print("held", _core.loaded_weights())
        try:
            _core.Policy(f"expert:weights={{path(1000)}}", 0)
        except ValueError as e:
            print("refused:", e)
        del held, again
        print("after drop", _core.loaded_weights())
        """
    )
    done = subprocess.run([PY, "-c", script], capture_output=True, text=True, timeout=HANG)
    out = done.stdout + done.stderr
    assert "sequence ok, most held 1 now 0" in done.stdout, out
    assert "held 1000" in done.stdout, out
    assert "refused: 1000 different weights are held by players" in done.stdout, out
    assert "after drop 0" in done.stdout, out


def test_r4_3_vector_env_threads_are_capped():
    from carcassonne.env import VectorEnv

    for threads in (257, 4097, 10**6):
        with pytest.raises(ValueError, match="threads must be an int from 0 .* to 256"):
            VectorEnv(Rules.base(), players=2, num_envs=2, threads=threads)


# -- 4: a Python opponent's answer outside the action space ----------------------------------------


@pytest.mark.parametrize("answer", [-1, -5, np.uint64(2**64 - 1), 10**9])
def test_r4_4_an_opponent_answer_outside_the_actions_is_a_value_error(answer):
    from carcassonne.env import VectorEnv

    calls = []

    def opponent(games, obs, legal):
        calls.append(1)
        dtype = np.uint64 if isinstance(answer, np.uint64) else np.int64
        return np.full(len(games), answer, dtype)

    env = VectorEnv(Rules.base(), players=2, num_envs=2, opponents=[opponent], seat=0)
    env.reset(seed=1)
    flat, starts = env.legal_lists()
    with pytest.raises(ValueError, match="outside the action space"):
        env.step(np.array([flat[starts[i]] for i in range(2)], np.int64))
    assert len(calls) == 1  # asked once, not for ever


# -- 6: no file's contents in messages; a table names no file silently -----------------------------


def test_r4_6_weights_errors_never_quote_the_file(tmp_path):
    secret = tmp_path / "secret"
    secret.write_text("SHADOWUSER:$6$SECRETHASH:19000:0:99999:7:::\n" * 3)
    for policy in (f"expert:weights={secret}", f"mcts:weights={secret}"):
        with pytest.raises(ValueError) as e:
            _core.policy_seats(policy)
        assert "SECRETHASH" not in str(e.value) and "SHADOWUSER" not in str(e.value)
        assert "not a weights file" in str(e.value)
    bad_term = _weights(tmp_path).read_text().replace("meeples", "SECRETHASH", 1)
    (tmp_path / "b.weights").write_text(bad_term)
    with pytest.raises(ValueError, match="expected term") as e:
        _core.policy_seats(f"expert:weights={tmp_path / 'b.weights'}")
    assert "SECRETHASH" not in str(e.value)


def test_r4_6_record_opens_no_file_a_table_names_unless_told(tmp_path):
    table = tmp_path / "t.csv"
    run = [PY, "-m", "carcassonne"]
    done = subprocess.run(
        [*run, "simulate", "-n", "1", "--policy", "expert", "--out", str(table), "-q"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    weights = _weights(tmp_path, prefix="")
    table.write_text(table.read_text().replace(",expert,", f",expert:weights={weights},"))
    done = subprocess.run(
        [*run, "record", str(table), "--game", "0"], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "reads the file" in done.stderr and "--read-files" in done.stderr
    assert "Traceback" not in done.stderr


# -- 7: weights named and read as written ----------------------------------------------------------


def test_r4_7_mcts_weights_are_used_and_eval_final_with_weights_is_refused(tmp_path):
    path = _weights(tmp_path)
    assert _core.policy_seats(f"mcts:weights={path}:eval=learned") == [
        f"mcts:playouts=1000:weights={path}"
    ]
    assert _core.policy_seats(f"mcts:eval=learned:weights={path}") == [
        f"mcts:playouts=1000:weights={path}"
    ]
    with pytest.raises(ValueError, match="contradict"):
        _core.policy_seats(f"mcts:weights={path}:eval=final")


def test_r4_7_a_byte_order_mark_is_read(tmp_path):
    path = _weights(tmp_path, prefix="\ufeff")
    assert _core.policy_seats(f"expert:weights={path}") == [f"expert:weights={path}"]


@pytest.mark.parametrize("key", ["bass", "river+abbot", "base+river", "abbot+abbot", "abbot+"])
def test_r4_7_unknown_model_keys_are_refused(tmp_path, key):
    text = _weights(tmp_path).read_text().replace("model base", f"model {key}")
    (tmp_path / "k.weights").write_text(text)
    with pytest.raises(ValueError, match="a model key is `base` or expansion names"):
        _core.policy_seats(f"expert:weights={tmp_path / 'k.weights'}")


def test_r4_7_huge_finite_weights_are_refused(tmp_path):
    """3.4e38 is a finite f32, but a prediction summing such weights is inf or NaN."""
    path = _weights(tmp_path, [("base", [2.0] * _n_terms())])
    path.write_text(path.read_text().replace(" 2e0", " 3.4e38"))
    with pytest.raises(ValueError, match="at most 1e6 in size"):
        _core.policy_seats(f"expert:weights={path}")
    with pytest.raises(ValueError, match="at most 1e6 in size"):
        _core.weights_text([("base", [3.4e38] * _n_terms())])


# -- 5: killed or full-disk runs lose nothing and leave nothing ----------------------------------


@pytest.mark.parametrize("fmt", ["parquet", "csv", "jsonl"])
def test_r4_5_sigkill_keeps_every_written_batch(tmp_path, fmt):
    """SIGKILL once batches were written: the table reads back with whole deals (Parquet too:
    each batch is written as a whole table renamed over the last)."""
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    from carcassonne.studies.table import read_table

    out = tmp_path / f"t.{fmt}"
    proc = _start(
        [
            PY,
            "-m",
            "carcassonne",
            "simulate",
            "-n",
            "100000000",
            "--batch",
            "200",
            "-t",
            "1",
            "--out",
            str(out),
            "-q",
        ]
    )
    try:
        deadline = time.monotonic() + HANG
        while time.monotonic() < deadline:  # until a few batches are in the file
            time.sleep(0.5)
            try:
                if len(read_table(out, partial_tail=True)["deal"]) >= 800:
                    break
            except Exception:  # noqa: BLE001 (not written yet)
                pass
        os.killpg(proc.pid, 9)
        proc.communicate()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 9)
            proc.communicate()
    rows = read_table(out, partial_tail=True)
    assert len(rows["deal"]) >= 800
    assert len(rows["deal"]) % 400 == 0 or fmt != "parquet"  # whole batches of 200 deals x 2


@pytest.mark.parametrize("fmt", ["parquet", "csv", "jsonl"])
def test_r4_5_a_full_disk_leaves_no_partial_table(tmp_path, fmt):
    """RLIMIT_FSIZE stands for a full disk: writing fails part way, and the command says so in
    one line and leaves neither the table nor a hidden file."""
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    out = tmp_path / f"t.{fmt}"
    script = textwrap.dedent(
        f"""
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a failed write, not a killed process
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))
        from carcassonne.cli import main
        sys.exit(main(["simulate", "-n", "5000", "-t", "1", "--out", {str(out)!r}, "-q"]))
        """
    )
    done = subprocess.run([PY, "-c", script], capture_output=True, text=True, timeout=HANG)
    assert done.returncode == 2, done.stderr
    assert "cannot write" in done.stderr and "Traceback" not in done.stderr
    assert os.listdir(tmp_path) == []


def test_r4_5_a_full_disk_leaves_no_partial_records_or_record(tmp_path):
    records = tmp_path / "r.jsonl"
    script = textwrap.dedent(
        f"""
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))
        from carcassonne.cli import main
        sys.exit(main(["simulate", "-n", "50", "-t", "1", "--records", {str(records)!r}, "-q"]))
        """
    )
    done = subprocess.run([PY, "-c", script], capture_output=True, text=True, timeout=HANG)
    assert done.returncode == 2, done.stderr
    assert "cannot write" in done.stderr and "Traceback" not in done.stderr
    assert os.listdir(tmp_path) == []


def test_r4_5_a_full_disk_leaves_no_partial_record(tmp_path):
    table = tmp_path / "t.csv"
    done = subprocess.run(
        [PY, "-m", "carcassonne", "simulate", "-n", "1", "--out", str(table), "-q"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    out = tmp_path / "g.json"
    script = textwrap.dedent(
        f"""
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (2_000, 2_000))
        from carcassonne.cli import main
        sys.exit(main(["record", {str(table)!r}, "--game", "0", "--out", {str(out)!r}]))
        """
    )
    done = subprocess.run([PY, "-c", script], capture_output=True, text=True, timeout=HANG)
    assert done.returncode == 2, done.stderr
    assert "cannot write" in done.stderr and "Traceback" not in done.stderr
    assert sorted(os.listdir(tmp_path)) == ["t.csv"]


def test_r4_5_hidden_files_of_killed_runs_are_removed(tmp_path):
    """A killed --append run leaves .NAME.PID.partial; the next run writing NAME removes the
    files of processes that are gone, never a live one's."""
    out = tmp_path / "t.csv"
    done = subprocess.run(
        [PY, "-m", "carcassonne", "simulate", "-n", "2", "--out", str(out), "-q"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    gone = subprocess.run([PY, "-c", "import os; print(os.getpid())"], capture_output=True)
    dead = int(gone.stdout)
    stale = tmp_path / f".t.csv.{dead}.partial"
    stale.write_text("left by a killed run")
    live = tmp_path / f".t.csv.{os.getpid()}.partial"
    live.write_text("a live run's")
    done = subprocess.run(
        [PY, "-m", "carcassonne", "simulate", "-n", "4", "--out", str(out), "--append", "-q"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert not stale.exists()
    assert live.exists()


# -- 8: crashes and messages ---------------------------------------------------------------------


def test_r4_8_a_tiny_until_target_is_no_overflow():
    from carcassonne.studies.play import _next_batch
    from carcassonne.studies.stats import Estimate

    head = Estimate(0.5, 0.4, 0.6, 500)
    assert _next_batch(500, 500, head, until=1e-300) == 500  # as many as were played
    done = subprocess.run(
        [PY, "-m", "carcassonne", "study", "-n", "600", "--until", "ci<1e-300", "-q"],
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("version", [0, -1, 3])
def test_r4_8_an_unknown_deal_version_is_refused_by_every_reader(tmp_path, version):
    table = tmp_path / "t.csv"
    done = subprocess.run(
        [PY, "-m", "carcassonne", "simulate", "-n", "2", "--out", str(table), "-q"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    lines = table.read_text().splitlines()
    col = lines[0].split(",").index("deal_version")
    rows = [line.split(",") for line in lines[1:]]
    for r in rows:
        r[col] = str(version)
    table.write_text("\n".join([lines[0], *(",".join(r) for r in rows)]) + "\n")
    for argv in (
        ["report", str(table), "-q", "-o", str(tmp_path / "rep")],
        ["record", str(table), "--game", "0"],
    ):
        done = subprocess.run([PY, "-m", "carcassonne", *argv], capture_output=True, text=True)
        assert done.returncode == 2, done.stderr
        assert "not a deal version of this engine" in done.stderr
        assert "older engine" not in done.stderr


def test_r4_8_record_refuses_a_table_mixing_deal_versions(tmp_path):
    table = tmp_path / "t.csv"
    done = subprocess.run(
        [PY, "-m", "carcassonne", "simulate", "-n", "2", "--out", str(table), "-q"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    lines = table.read_text().splitlines()
    col = lines[0].split(",").index("deal_version")
    last = lines[-1].split(",")
    last[col] = "1"
    table.write_text("\n".join([*lines[:-1], ",".join(last)]) + "\n")
    done = subprocess.run(
        [PY, "-m", "carcassonne", "record", str(table), "--game", "0"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert "mixes deal versions" in done.stderr


def test_r4_8_vector_env_seed_is_checked():
    from carcassonne.env import VectorEnv

    for seed in (-1, 2**64, 1.5):
        with pytest.raises(ValueError, match="seed must be an int from 0 to 2"):
            VectorEnv(Rules.base(), players=2, num_envs=1, seed=seed)


def test_r4_8_the_aec_env_pickles_mid_game():
    from carcassonne.env import env as aec_env

    e = aec_env(rules=Rules.base(), players=2)
    e.reset(seed=0)
    for _ in range(3):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    again = pickle.loads(pickle.dumps(e))
    agent = e.agent_selection
    assert (again.observe(agent)["action_mask"] == e.observe(agent)["action_mask"]).all()
    assert again.unwrapped.state.fingerprint() == e.unwrapped.state.fingerprint()


@pytest.mark.parametrize("out", ["/nonexistent/dir/t.weights", ""])
def test_r4_8_train_checks_its_output_before_training(tmp_path, out):
    done = subprocess.run(
        [PY, "-m", "carcassonne", "train", "--games", "10000000", "-t", "1", "--out", out],
        capture_output=True,
        text=True,
        timeout=HANG,  # the training itself would take hours
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and ".part" not in done.stderr


def test_r4_8_render_offers_game_n_for_a_file_of_records(tmp_path):
    records = tmp_path / "r.jsonl"
    done = subprocess.run(
        [PY, "-m", "carcassonne", "simulate", "-n", "3", "--records", str(records), "-q"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    run = [PY, "-m", "carcassonne", "render", str(records)]
    done = subprocess.run(run, capture_output=True, text=True)
    assert done.returncode == 2
    assert "holds 3 records" in done.stderr and "--game N (0 to 2)" in done.stderr
    done = subprocess.run([*run, "--game", "2"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("<svg") or "<svg" in done.stdout[:200]


# -- 9, 10: honest words, and what was left from the last round ----------------------------------


def test_r4_9_a_zero_effect_with_a_zero_width_interval_is_called_no_effect():
    from carcassonne.studies.analysis import excludes_zero, zero_words
    from carcassonne.studies.stats import Estimate

    nothing = Estimate(1e-17, 1e-17, 1e-17, 200)  # rounding noise, every deal the same
    assert not excludes_zero(nothing)
    assert zero_words(nothing) == "exactly no effect (the same in every deal)"
    assert zero_words(Estimate(0.1, 0.05, 0.15, 200)) == "distinguishable from no effect"


def test_r4_10_search_parameters_out_of_range_name_the_range():
    g = Game(Rules(), players=2, seed=1)
    for kwargs, message in (
        ({"c": 1e308}, "c must be a number from 0 to 100"),
        ({"widen": 0.0}, "widen must be a number from 0.01 to 1000"),
        ({"margin": 2.0}, "margin must be a number from 0 to 1"),
    ):
        with pytest.raises(ValueError, match=message):
            g.search(playouts=10, **kwargs)


def test_r4_10_an_empty_counts_file_is_refused(tmp_path):
    empty = tmp_path / "counts.txt"
    empty.write_text("# nothing but a comment\n\n")
    with pytest.raises(ValueError, match="holds no tile count"):
        Rules(tiles=f"@{empty}")


def test_r4_10_a_deal_deleted_in_one_variant_is_refused(tmp_path):
    table = tmp_path / "t.csv"
    done = subprocess.run(
        [
            PY,
            "-m",
            "carcassonne",
            "compare",
            "-n",
            "4",
            "--variant",
            "a",
            "--variant",
            "b:river=off",
            "--out",
            str(table),
            "-q",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    lines = table.read_text().splitlines()
    head = lines[0].split(",")
    v, d = head.index("variant"), head.index("deal")
    kept = [ln for ln in lines[1:] if not (ln.split(",")[v] == "b" and ln.split(",")[d] == "1")]
    assert len(kept) == len(lines) - 1 - 2
    table.write_text("\n".join([lines[0], *kept]) + "\n")
    for extra in ([], ["--append"]):
        argv = (
            ["report", str(table), "-q", "-o", str(tmp_path / "r")]
            if not extra
            else [
                "compare",
                "-n",
                "6",
                "--variant",
                "a",
                "--variant",
                "b:river=off",
                "--out",
                str(table),
                "--append",
                "-q",
            ]
        )
        done = subprocess.run([PY, "-m", "carcassonne", *argv], capture_output=True, text=True)
        assert done.returncode == 2, done.stderr
        assert "deals between are missing" in done.stderr


# == Round 5 ===================================================================================


# -- every message quotes its input escaped and short (weights paths, parameters, tile files) ------


@pytest.mark.parametrize(
    "call",
    [
        lambda w: Game(Rules(), seed=1).expert_values(weights=w),
        lambda w: Game(Rules(), seed=1).search(playouts=2, weights=w),
        lambda w: _core.policy_seats(f"expert:weights={_core.quote_value(w)}"),
        lambda w: Game(Rules(), seed=1).heuristic_values(f"meeple={w}"),
        lambda w: Rules(tiles=f"@{w}"),
    ],
)
@pytest.mark.parametrize("value", ["x" * 5000, "a\nb\x1b[31m\x00"])
def test_r5_a_path_or_parameter_is_quoted_escaped_and_short(call, value):
    """A weights path, a parameter or a tile-count file name was quoted whole and raw: a
    message of 5,000 characters, or one that broke the command line's one line and wrote a
    terminal's escape sequence."""
    with pytest.raises(ValueError) as e:
        call(value)
    message = str(e.value)
    assert len(message) < 300, message[:300]
    assert not any(c in message for c in "\n\x1b\x00"), repr(message)


def test_r5_a_weights_path_with_a_newline_is_one_line_on_the_command_line(tmp_path):
    policy = f"expert:weights={tmp_path}/a\nb"
    done = subprocess.run(
        [PY, "-m", "carcassonne", "simulate", "-n", "2", "-q", "--policy", policy],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "a\\x0ab" in done.stderr, done.stderr


# -- record opens no tile-count file a table names ----------------------------------------------


def test_r5_record_opens_no_tile_counts_file_a_table_names(tmp_path):
    """A study writes its tile counts out; ``@FILE`` in a table's rule_tiles made ``record``
    read that file (here one that would replay the game, so it went unnoticed)."""
    table, counts = tmp_path / "t.csv", tmp_path / "counts.txt"
    counts.write_text("CAP:3\n")
    run = [PY, "-m", "carcassonne"]
    done = subprocess.run(
        [
            *run,
            "simulate",
            "-n",
            "1",
            "-o",
            "river=off",
            "-o",
            "tiles=CAP:3",
            "--out",
            str(table),
            "-q",
        ],  # fmt: skip
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    with open(table, newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        row["rule_tiles"] = f"@{counts}"
    with open(table, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    done = subprocess.run(
        [*run, "record", str(table), "--game", "0"], capture_output=True, text=True
    )
    assert done.returncode == 2, done.stdout[:200]
    assert done.stderr.count("\n") == 1 and "cannot name a file (@FILE)" in done.stderr


# -- board and player read-outs say what is wrong with their arguments ----------------------------


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda g: g.tile_at(40_000, 0), None, None),  # off the board: no tile
        (lambda g: g.tile_at(1.5, 0), TypeError, "x must be an int, not float"),
        (lambda g: g.labels(0, 10**30), ValueError, "no tile at 0,1000000000000000000000000000000"),
        (lambda g: g.labels("0", 0), TypeError, "x must be an int, not str"),
        (lambda g: g.supply(-1), IndexError, "no player -1"),
        (lambda g: g.supply(2**70), IndexError, "no player"),
        (lambda g: g.supply("a"), TypeError, "player must be an int, not str"),
        (lambda g: g.goods("a"), TypeError, "player must be an int, not str"),
        (lambda g: g.final_scores(5), ValueError, "animals must be a list of token values"),
    ],
)
def test_r5_read_outs_check_their_arguments(call, error, message):
    """These raised OverflowError ("out of range integral type conversion attempted",
    "can't convert negative int to unsigned") or a TypeError about '<=' or iteration."""
    g = Game(Rules(traders_builders="C3.1"), players=2, seed=1)
    fp = g.fingerprint()
    if error is None:
        assert call(g) is None
    else:
        with pytest.raises(error, match=re.escape(message)):
            call(g)
    assert g.fingerprint() == fp
    assert g.supply(np.int64(1)) == g.supply(1) and g.tile_at(np.int16(0), 0) == g.tile_at(0, 0)


# -- a scenario's steps: refused whole, and tiles named by text ------------------------------------


def test_r5_scenario_play_is_all_or_nothing_and_a_tile_is_text():
    from carcassonne import DrawError, InvalidMoveError, Scenario

    s = Scenario(Rules.base(), players=2).draw("ROAD_WE")
    fp = s.game.fingerprint()
    with pytest.raises(InvalidMoveError):
        s.play("1,0 0", "not a move")  # the first was played before the second was refused
    assert s.game.fingerprint() == fp
    s.play("1,0 0")
    with pytest.raises(DrawError, match="a tile is named by its id, not NoneType"):
        s.turn(None, "2,0 0")  # was AttributeError: 'NoneType' object has no attribute 'endswith'


# -- a vector environment's size is bounded ----------------------------------------------------


def test_r5_a_vector_env_of_a_billion_games_is_refused_not_aborted():
    """``VectorEnv(num_envs=10**9)`` asked the allocator for 10 TB and aborted the process
    ("memory allocation of 10248000000000 bytes failed"): refused before any allocation."""
    script = textwrap.dedent(
        """
        from carcassonne import Rules
        from carcassonne.env import VectorEnv
        for n in (10**9, 2**16 + 1):
            try:
                VectorEnv(Rules.base(), players=2, num_envs=n)
            except ValueError as e:
                print("refused:", e)
        """
    )
    done = subprocess.run([PY, "-c", script], capture_output=True, text=True, timeout=HANG)
    assert done.returncode == 0, done.stderr[-500:]
    assert "refused: a vector environment holds at most 65536 games, not 1000000000" in done.stdout
    assert "not 65537" in done.stdout


# -- any argument to the game's calls: a clear refusal, the game unchanged -----------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_ANY = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.text(max_size=12)
    | st.binary(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)
_CALLS = {  # method: number of positional arguments
    "play": 1, "parse_move": 1, "is_legal": 1, "draw": 1, "tile_at": 2, "labels": 2,
    "supply": 1, "goods": 1, "final_scores": 1, "resample": 1, "expert_values": 1,
    "predicted_scores": 1, "heuristic_values": 1, "heuristic_scores": 1,
}  # fmt: skip


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(
    manual=st.booleans(),
    method=st.sampled_from(sorted(_CALLS)),
    args=st.lists(
        st.sampled_from(["1,0 0", "CAP", "animal:7", "@x", -1, 40_000, 2**70, 1.5]) | _ANY,
        max_size=2,
    ),
)
def test_r5_any_argument_is_refused_clearly_and_changes_nothing(manual, method, args):
    """What the fuzz round threw at the game: every refusal is a ValueError (PlayError),
    TypeError or IndexError, never an OverflowError or a panic, and the game is unchanged."""
    g = Game(Rules(traders_builders="C3.1"), 2, seed=1, chance="manual" if manual else "auto")
    before = (g.fingerprint(), g.to_json())
    try:
        getattr(g, method)(*(args + [0, 0])[: _CALLS[method]])
    except (ValueError, TypeError, IndexError) as e:
        assert (g.fingerprint(), g.to_json()) == before
        assert len(str(e)) < 400


# -- study arguments: no seed wraps around, no empty player list -------------------------------


@pytest.mark.parametrize("args", [(-1, 0), (2**64, 0), (0, -1), (0, 2**64), (1.0, 0), (True, 0)])
def test_r5_game_seed_refuses_what_is_no_master_seed_or_deal(args):
    """game_seed masked its arguments: game_seed(2**64, g) was master 0's deal g and
    game_seed(-1, g) master 2**64-1's, silently."""
    from carcassonne import game_seed

    with pytest.raises(ValueError, match="must be an int from 0 to 2\\*\\*64-1"):
        game_seed(*args)
    assert game_seed(np.uint64(2**63 + 5), np.int64(3)) == game_seed(2**63 + 5, 3)


def test_r5_a_study_with_no_player_count_is_refused():
    from carcassonne import study
    from carcassonne.studies.plan import StudyError

    with pytest.raises(StudyError, match="at least one player count"):  # was an IndexError
        study(Rules(), 2, players=[])


def test_r5_the_aec_env_names_its_agents_for_an_unknown_one():
    from carcassonne.env import env as aec_env

    e = aec_env(rules=Rules.base(), players=2)
    e.reset(seed=0)
    for agent in ("player_9", 5, None):  # was ValueError: 'player_9' is not in list
        with pytest.raises(ValueError, match="no agent .*: the agents are player_0, player_1"):
            e.observe(agent)
    with pytest.raises(ValueError, match="no agent 'player_9'"):
        e.unwrapped.action_mask("player_9")
