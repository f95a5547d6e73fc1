"""Who plays the vector environment's other seats: self-play (every seat a learner's) equals
the same games through the AEC environment, native and Python opponents are deterministic
per seed, and every seat's rewards sum to its final margin."""

import numpy as np
import pytest

import carcassonne.env as cenv
from carcassonne import Rules
from carcassonne.env.aec import raw_env

from rulehelpers import EVERY_OPTION


def margins(scores):
    s = np.asarray(scores, float)
    return s - (s.sum() - s) / (len(s) - 1)


def pick(env, rng):
    """A uniformly random legal action per game, from the sparse lists."""
    actions, starts = env.legal_lists()
    assert (np.diff(starts) > 0).all()
    k = starts[:-1] + (rng.random(env.num_envs) * np.diff(starts)).astype(np.int64)
    return actions[k].astype(np.int64)


@pytest.mark.parametrize("rules,players", [(Rules.base(), 2), (EVERY_OPTION, 3)])
def test_self_play_equals_the_same_games_through_the_aec_env(rules, players):
    b = 3
    v = cenv.VectorEnv(rules, players, b, opponents="self", seed=11)
    obs, info = v.reset()
    rng = np.random.default_rng(2)
    # Per game, its first whole game: start position, then (seat, obs, action, rewards).
    starts = [v.state(i) for i in range(b)]
    steps = [[] for _ in range(b)]
    finals = [None] * b
    while any(f is None for f in finals):
        seats = info["seat"].copy()
        for i in range(b):
            assert v.state(i).to_move == seats[i]  # the observation is the mover's
        rows = {k: x.copy() for k, x in obs.items()}
        acts = pick(v, rng)
        obs, reward, term, _, info = v.step(acts)
        np.testing.assert_array_equal(reward, info["rewards"][np.arange(b), seats])
        for i in range(b):
            if finals[i] is None:
                steps[i].append((seats[i], {k: x[i] for k, x in rows.items()}, acts[i]))
                steps[i][-1] += (info["rewards"][i].copy(),)
                if term[i]:
                    finals[i] = info["final_scores"][i]
    for i in range(b):
        e = raw_env(rules=rules, players=players)
        e.reset(options={"record": starts[i]})
        for seat, row, a, rewards in steps[i]:
            assert e.agent_selection == f"player_{seat}"
            o = e.observe(e.agent_selection)
            np.testing.assert_array_equal(o["observation"]["board"], row["board"])
            np.testing.assert_array_equal(o["observation"]["vector"], row["vector"])
            np.testing.assert_array_equal(o["action_mask"], row["action_mask"])
            e.step(int(a))
            got = [e.rewards[f"player_{p}"] for p in range(players)]
            np.testing.assert_allclose(got, rewards, atol=1e-4)
        assert all(e.terminations.values())
        assert e.state.scores() == list(finals[i])
        # Every seat's rewards sum to its final margin.
        total = np.sum([r for *_, r in steps[i]], axis=0)
        np.testing.assert_allclose(total, margins(finals[i]), atol=1e-3)


def run(opponents, seed, steps=120, players=2, rules=None, seat=None):
    v = cenv.VectorEnv(rules or Rules.base(), players, 4, opponents=opponents, seed=seed, seat=seat)
    obs, info = v.reset()
    rng = np.random.default_rng(seed)
    out, returns, finished = [], np.zeros(4), []
    for _ in range(steps):
        np.testing.assert_array_equal(info["seat"], info["learner"])  # a single learner seat
        acts = pick(v, rng)
        obs, reward, term, _, info = v.step(acts)
        out.append((reward.copy(), obs["board"].copy()))
        returns += reward
        for i in np.flatnonzero(term):
            scores = info["final_scores"][i]
            seat = info["final_learner"][i]
            finished.append((seat, tuple(scores)))
            # The learner's rewards of a game sum to its final margin.
            assert returns[i] == pytest.approx(margins(scores)[seat], abs=1e-3)
            returns[i] = 0.0
    return out, finished


def same(a, b):
    assert a[1] == b[1]
    for (r1, b1), (r2, b2) in zip(a[0], b[0], strict=True):
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(b1, b2)


@pytest.mark.parametrize("opponents", ["greedy", "expert", "mcts:playouts=20"])
def test_native_opponents_are_deterministic_per_seed(opponents):
    a = run(opponents, 5, steps=80)
    same(a, run(opponents, 5, steps=80))
    assert a[1], "games finished"
    assert run(opponents, 6, steps=80)[1] != a[1]


class FirstOrRandom:
    """A Python opponent: the first legal action, or a random one from its own seeded stream."""

    def __init__(self, seed=None):
        self.rng = None if seed is None else np.random.default_rng(seed)
        self.calls = []

    def __call__(self, games, obs, legal):
        assert len(games) == len(legal) == len(obs["action_mask"])
        for row, acts in zip(obs["action_mask"], legal, strict=True):
            np.testing.assert_array_equal(np.flatnonzero(row), acts)
        self.calls.append(list(games))
        if self.rng is None:
            return np.array([a[0] for a in legal])
        return np.array([self.rng.choice(a) for a in legal])


def test_python_opponents_are_deterministic_per_seed_and_called_in_batches():
    def play(seed):
        first, rand = FirstOrRandom(), FirstOrRandom(seed)
        out = run([first, rand], seed, steps=100, players=3, rules=Rules())
        return out, first.calls, rand.calls

    a, calls1, calls2 = play(3)
    same(a, play(3)[0])
    assert a[1] and calls1 and calls2
    assert max(len(c) for c in calls1) > 1, "one call serves several games"
    assert play(4)[0][1] != a[1]


def test_python_opponent_mixed_with_native_and_self():
    # Seat after the learner: a Python player; the next: another learner seat (self-play).
    v = cenv.VectorEnv(Rules.base(), 3, 4, opponents=[FirstOrRandom(1), "self"], seed=2)
    obs, info = v.reset()
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(100):
        p = 3
        rel = (info["seat"] - info["learner"]) % p
        assert set(rel) <= {0, 2}, "the env stops only for learner seats"
        seen |= set(rel)
        obs, _, _, _, info = v.step(pick(v, rng))
    assert seen == {0, 2}


def test_bad_opponents_are_refused():
    with pytest.raises(ValueError, match="unknown policy"):
        cenv.VectorEnv(Rules.base(), 2, 2, opponents="nobody")
    with pytest.raises(TypeError):
        cenv.VectorEnv(Rules.base(), 2, 2, opponents=[3])
    with pytest.raises(ValueError, match="self-play"):
        cenv.CarcassonneEnv(Rules.base(), 2, opponents="self")
    bad = cenv.VectorEnv(Rules.base(), 2, 2, opponents=[lambda g, o, legal: np.zeros(len(g) + 1)])
    with pytest.raises(ValueError, match="must return"):
        obs, info = bad.reset(seed=1)
        for _ in range(3):
            bad.step(pick(bad, np.random.default_rng(0)))


def test_an_opponent_that_raises_stops_the_games_until_reset():
    calls = []

    def flaky(games, obs, legal):
        calls.append(len(games))
        if len(calls) == 3:
            raise KeyError("the user's bug")
        return np.array([moves[0] for moves in legal], np.int64)

    v = cenv.VectorEnv(Rules.base(), 2, 3, opponents=[flaky], seed=4)
    v.reset(seed=4)
    rng = np.random.default_rng(0)
    with pytest.raises(KeyError, match="the user's bug"):
        for _ in range(5):
            v.step(pick(v, rng))
    assert len(calls) == 3
    # The learner's actions were played, the opponent's were not: the games refuse to go on.
    for call in (lambda: v.step(np.zeros(3, np.int64)), v.legal_lists, v.action_features):
        with pytest.raises(RuntimeError, match=r"call reset\(\) before .*opponent raised KeyError"):
            call()
    v.reset(seed=4)
    v.step(pick(v, rng))
    assert len(calls) == 5


def test_aec_reset_from_a_position_checks_it():
    three = cenv.VectorEnv(Rules.base(), 3, 1, seed=1)
    three.reset()
    e = raw_env(rules=Rules.base(), players=2)
    with pytest.raises(ValueError, match="other rules or player count"):
        e.reset(options={"record": three.state(0)})
    assert e.state is None  # unchanged
    two = cenv.VectorEnv(Rules.base(), 2, 1, seed=1)
    two.reset()
    e.reset(options={"record": two.state(0), "other": 1})
    assert e.state.scores() == two.state(0).scores() and e.state is not two.state(0)
