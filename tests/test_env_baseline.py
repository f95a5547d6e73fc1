"""The baseline learner (carcassonne.env.baseline) and the per-action features it reads."""

import json

import numpy as np
import pytest

import carcassonne.env as cenv
from carcassonne import Rules
from carcassonne.env import baseline


def test_action_features_follow_the_legal_lists_and_score_what_the_move_scores():
    v = cenv.VectorEnv(Rules(), 3, 4, opponents="self", seed=1)
    v.reset()
    names = v.action_feature_names()
    own, others = names.index("own.score"), names.index("others.score")
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(90):
        actions, starts = v.legal_lists()
        f = v.action_features()
        assert f.shape == (len(actions), len(names)) and np.isfinite(f).all()
        for i in range(4):
            st = v.state(i)
            if st.bag_size < 3:  # a move's chance step may end the game (final scoring)
                continue
            for k in range(starts[i], starts[i + 1], 5):
                after = st.copy()
                v.spec_.play(after, int(actions[k]))
                gain = np.subtract(after.scores(), st.scores())
                me = st.to_move
                assert f[k, own] == gain[me]
                assert f[k, others] == pytest.approx(np.delete(gain, me).mean())
                checked += 1
        k = starts[:-1] + (rng.random(4) * np.diff(starts)).astype(np.int64)
        v.step(actions[k])
    assert checked > 200


def tiny(seed):
    c = baseline.Config(games=96, num_envs=8, batch=16, every=48, eval_games=24, seed=seed)
    return baseline.train(c)


def test_a_tiny_training_run_learns_and_is_deterministic_per_seed(tmp_path):
    # At 96 games learning is noisy from seed to seed: with the 78 evaluation terms as features
    # seeds 2-4 reach 88-94% against random, seed 1 only 44% (58% at 192 games).
    r = tiny(3)
    assert [p["games"] for p in r.curve] == [0, 48, 96]
    for p in r.curve:
        assert 0 <= p["win_vs_random"] <= 1 and 0 <= p["win_vs_greedy"] <= 1
    # Untrained (all weights 0) the argmax policy plays the first legal action: it loses to
    # random; 96 games against greedy teach it to beat random.
    assert r.curve[0]["win_vs_random"] < 0.2
    assert r.curve[-1]["win_vs_random"] >= 0.6
    assert r.curve[-1]["margin_vs_random"] > r.curve[0]["margin_vs_random"] + 10
    again = tiny(3)
    assert again.weights == r.weights
    strip = [{k: v for k, v in p.items() if k != "cpu_s"} for p in r.curve]
    assert strip == [{k: v for k, v in p.items() if k != "cpu_s"} for p in again.curve]
    assert tiny(2).weights != r.weights
    out = tmp_path / "curve.json"
    baseline.main(
        [
            "--games",
            "16",
            "--num-envs",
            "4",
            "--batch",
            "8",
            "--every",
            "16",
            "--eval-games",
            "4",
            "--out",
            str(out),
        ]
    )
    saved = json.loads(out.read_text())
    assert [p["games"] for p in saved["curve"]] == [0, 16]
    assert len(saved["weights"]) == len(saved["feature_names"]) == len(saved["scale"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--opponents", "foo"], "unknown policy 'foo'"),
        (["--games", "0"], "--games must be at least 1, not 0"),
        (["--players", "3"], "the baseline plays 2-player games, not 3"),
        (["--lr", "0"], "--lr must be between 0 and 10"),
    ],
)
def test_command_line_errors_are_one_line(argv, message, capsys):
    with pytest.raises(SystemExit) as e:
        baseline.main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1] and "Traceback" not in "".join(err)
