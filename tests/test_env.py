"""Learning environments (carcassonne.env): the standard API checks, the action mask against
the engine's legal moves on whole games with every option, observations, rewards, bad input,
and a smoke run of the vector environment."""

import pickle
import random
import subprocess
import sys
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test

import carcassonne.env as cenv
from carcassonne import IllegalMoveError, Rules, _core, render
from carcassonne.game import Game

from rulehelpers import EVERY_OPTION

RULE_SETS = [
    Rules.base(),
    Rules(),
    EVERY_OPTION,
    EVERY_OPTION.replace(traders_builders="C2", river=False, river_start="shuffle"),
]
# Editions and study variables too (for the property test).
MORE_RULE_SETS = RULE_SETS + [
    Rules(river_edition="C2", gardens=False, river_turns="strict"),
    Rules.base(farmers=False, tiles="CAP:4,MON:0,ROAD_WE:6"),
    EVERY_OPTION.replace(builder=False, goods=False, acrobats=False, max_fortune_tellers=4),
    EVERY_OPTION.replace(
        traders_builders="C2", pig=False, ringmaster=False, fortune_teller_edition="C1"
    ),
    Rules(toll_collectors=True, toll_flip="owner", fortune_teller=True, max_fortune_tellers=0),
]


def quiet(f, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args, **kwargs)


def random_game(e, rng, check=None):
    """Play an AEC game to the end with uniformly random legal actions."""
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        if check is not None:
            check(e, agent, obs)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


# -- standard checks -------------------------------------------------------------------------


@pytest.mark.parametrize("rules,players", [(Rules(), 2), (EVERY_OPTION, 3)])
def test_pettingzoo_api(rules, players):
    quiet(api_test, cenv.env(rules=rules, players=players), num_cycles=300)


def test_gymnasium_checker_and_registration():
    assert cenv.ENV_ID in gym.registry
    env = gym.make(cenv.ENV_ID, opponents="greedy")
    obs, info = env.reset(seed=3)
    assert obs["action_mask"].sum() > 0 and info["learner"] in (0, 1)
    # The checker steps unmasked samples taken before a reset, so it needs the penalty mode.
    quiet(check_env, gym.make(cenv.ENV_ID, illegal="penalty").unwrapped)
    quiet(check_env, cenv.CarcassonneEnv(EVERY_OPTION, 3, seat=None, illegal="penalty"))


# -- the action mask -------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULE_SETS, ids=["base", "default", "every", "every-c2"])
def test_mask_bits_are_exactly_the_legal_moves(rules):
    spec_checked = {"decisions": 0}

    def check(e, agent, obs):
        u = e.unwrapped
        st = u.state
        mask = obs["action_mask"]
        legal = st.legal_moves()
        bits = np.flatnonzero(mask)
        assert len(bits) == len(legal)
        assert {u.spec_.decode(st, int(a)) for a in bits} == set(legal)
        assert sorted(u.spec_.legal_indices(st)) == list(bits)
        # Another agent sees the same position with no legal move.
        other = u.possible_agents[(u.possible_agents.index(agent) + 1) % u.players]
        assert not u.observe(other)["action_mask"].any()
        spec_checked["decisions"] += 1

    for seed in range(2):
        e = cenv.env(rules=rules, players=2 + seed)
        e.reset(seed=seed)
        random_game(e, np.random.default_rng(seed), check)
    assert spec_checked["decisions"] > 100


def test_small_window_overflows_without_losing_a_move():
    e = cenv.env(rules=Rules.base(), players=2, window=5)
    u = e.unwrapped
    w, slots = u.spec_.window, u.spec_.slots
    overflow = {"moves": 0}

    def check(e, agent, obs):
        st = u.state
        bits = np.flatnonzero(obs["action_mask"])
        assert len(bits) == len(st.legal_moves())
        overflow["moves"] += int((bits < u.spec_.layout()["special"]).sum())
        overflow["moves"] -= int((bits < w * w * 4 * slots).sum())

    e.reset(seed=5)
    random_game(e, np.random.default_rng(5), check)
    assert u.state.phase == "over"
    assert overflow["moves"] > 0


# -- observations and rewards ----------------------------------------------------------------


def test_observation_shows_tiles_figures_scores_and_supply():
    e = cenv.raw_env(rules=Rules.base(), players=2)
    lay = e.spec_.layout()
    ch, roles = lay["channels"], lay["roles_per_seat"]
    sup0, per = lay["vector"]["supply"][0], len(lay["supply_names"])
    e.reset(seed=11)
    rng = np.random.default_rng(1)
    while e.agents and not all(e.terminations.values()):
        agent = e.agent_selection
        p = e.possible_agents.index(agent)
        obs = e.observe(agent)
        board, vector = obs["observation"]["board"], obs["observation"]["vector"]
        st = e.state
        assert board[..., ch["tile"]].sum() == len(st.placed())
        for seat in range(2):
            q = (p + seat) % 2
            assert vector[seat] == st.scores()[q]
            meeples = st.supply(q)["meeple"]
            assert vector[sup0 + seat * per] == meeples
            on_board = np.count_nonzero(board[..., ch["figures"] + roles * seat])
            assert on_board == 7 - meeples
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("players", [2, 4])
def test_score_rewards_sum_to_the_final_margin(players):
    e = cenv.env(rules=Rules(), players=players)
    e.reset(seed=players)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(players)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    scores = e.unwrapped.state.scores()
    for i, a in enumerate(e.possible_agents):
        margin = scores[i] - (sum(scores) - scores[i]) / (players - 1)
        assert totals[a] == pytest.approx(margin)


def test_win_rewards_and_gym_margin():
    e = cenv.env(rules=Rules.base(), players=3, reward="win")
    e.reset(seed=8)
    finals = {}
    rng = np.random.default_rng(8)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            finals[agent] = reward
            e.step(None)
            continue
        assert reward == 0.0
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    w = e.unwrapped.state.winners()
    for i, a in enumerate(e.unwrapped.possible_agents):
        assert finals[a] == ((1.0 if len(w) == 1 else 0.0) if i in w else -1.0)

    # The learner's rewards sum to its final margin, whatever its seat.
    g = cenv.CarcassonneEnv(Rules(), 3, opponents="greedy,random", seat=None)
    for seed in range(6):
        obs, info = g.reset(seed=seed)
        me = info["learner"]
        total, done = 0.0, False
        while not done:
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, r, done, trunc, info = g.step(a)
            total += r
        s = info["scores"]
        assert total == pytest.approx(s[me] - (sum(s) - s[me]) / 2)


# -- bad input -------------------------------------------------------------------------------


def test_bad_actions_raise_and_leave_the_game_unchanged():
    e = cenv.raw_env(rules=Rules(), players=2)
    with pytest.raises(RuntimeError):
        e.step(0)
    e.reset(seed=2)
    mask = e.observe(e.agent_selection)["action_mask"]
    before = e.state.fingerprint()
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalMoveError, match="mask bit is 0"):
        e.step(illegal)
    with pytest.raises(ValueError, match="outside the action space"):
        e.step(e.spec_.action_size)
    with pytest.raises(ValueError, match="outside the action space"):
        e.step(-1)
    with pytest.raises(TypeError):
        e.step(1.5)
    with pytest.raises(TypeError):
        e.step("3")
    assert e.state.fingerprint() == before
    random_game(e, np.random.default_rng(0))
    with pytest.raises(RuntimeError, match="over"):
        e.step(0)

    g = cenv.CarcassonneEnv(Rules.base(), 2)
    with pytest.raises(RuntimeError):
        g.step(0)
    obs, _ = g.reset(seed=1)
    before = g.state.fingerprint()
    with pytest.raises(IllegalMoveError):
        g.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert g.state.fingerprint() == before
    with pytest.raises(ValueError):
        g.step(np.array([1, 2]))
    done = False
    while not done:
        obs, _, done, _, _ = g.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert not obs["action_mask"].any()
    with pytest.raises(RuntimeError, match="over"):
        g.step(0)

    for bad in (
        dict(reward="points"),
        dict(window=2),
        dict(players=7),
        dict(rules="base"),
    ):
        with pytest.raises((ValueError, TypeError)):
            cenv.raw_env(**bad)
    with pytest.raises(ValueError, match="unknown policy"):
        cenv.CarcassonneEnv(opponents="clever")
    with pytest.raises(ValueError, match="seat"):
        cenv.CarcassonneEnv(seat=2)


def test_vector_env_rejects_bad_actions_before_any_game_moves():
    v = cenv.VectorEnv(Rules(), 2, 4, seed=1)
    with pytest.raises(RuntimeError):
        v.step(np.zeros(4, np.int64))
    obs, _ = v.reset()
    prints = [v.state(i).fingerprint() for i in range(4)]
    acts = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
    bad = acts.copy()
    bad[3] = np.flatnonzero(obs["action_mask"][3] == 0)[0]
    with pytest.raises(IllegalMoveError, match="game 3"):
        v.step(bad)
    with pytest.raises(ValueError, match="shape"):
        v.step(acts[:3])
    with pytest.raises(TypeError):
        v.step(acts.astype(float))
    assert [v.state(i).fingerprint() for i in range(4)] == prints
    with pytest.raises(ValueError):
        obs["board"][0, 0, 0, 0] = 1  # read-only views
    v.step(acts)


# -- seats -----------------------------------------------------------------------------------


def test_gymnasium_default_seat_covers_every_seat_and_follows_the_seed():
    g = cenv.CarcassonneEnv(Rules(), 3, opponents="random")
    seats = []
    for seed in range(60):
        obs, info = g.reset(seed=seed)
        seats.append(info["learner"])
        # The learner decides first in its own game: the mask is its legal moves.
        assert g.state.to_move == info["learner"] and obs["action_mask"].sum() > 0
        _, _, _, _, step_info = g.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert step_info["learner"] == info["learner"]
    counts = np.bincount(seats, minlength=3)
    assert (counts >= 10).all(), counts  # about 20 each
    again = cenv.CarcassonneEnv(Rules(), 3, opponents="random")
    assert [again.reset(seed=seed)[1]["learner"] for seed in range(60)] == seats
    fixed = cenv.CarcassonneEnv(Rules(), 3, seat=2)
    assert {fixed.reset(seed=seed)[1]["learner"] for seed in range(20)} == {2}


def test_vector_default_seat_covers_every_seat():
    v = cenv.VectorEnv(Rules.base(), 2, 8, opponents="random", seed=4)
    obs, info = v.reset()
    seen = list(info["learner"])
    rng = np.random.default_rng(1)
    finished = 0
    while finished < 48:
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, _, term, _, info = v.step(acts)
        np.testing.assert_array_equal(info["learner"], v.learners())
        for i in np.flatnonzero(term):
            seen.append(info["learner"][i])  # the seat of the game that starts now
        finished += int(term.sum())
    counts = np.bincount(seen, minlength=2)
    assert (counts >= 15).all(), counts  # 56 games, about 28 each
    fixed = cenv.VectorEnv(Rules.base(), 2, 8, seat=1, seed=4)
    assert set(fixed.reset()[1]["learner"]) == {1}


# -- vector environment ----------------------------------------------------------------------


def test_vector_env_smoke_and_determinism():
    def run(threads):
        v = cenv.VectorEnv(
            Rules(), 3, 8, opponents="greedy,random", seat=None, seed=9, threads=threads
        )
        assert isinstance(v, gym.vector.VectorEnv)
        assert v.metadata["autoreset_mode"] == gym.vector.AutoresetMode.SAME_STEP
        obs, info = v.reset()
        assert set(info["learner"]) <= {0, 1, 2}
        assert v.observation_space.contains(obs)
        rng = np.random.default_rng(0)
        rewards, dones = [], 0
        for _ in range(150):
            masks = obs["action_mask"]
            assert (masks.sum(axis=1) > 0).all()
            acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            learners = v.learners()
            obs, r, term, trunc, info = v.step(acts)
            assert np.isfinite(r).all() and not trunc.any()
            if term.any():
                np.testing.assert_array_equal(info["_final_scores"], term)
                for i in np.flatnonzero(term):
                    assert info["final_learner"][i] == learners[i]
                    assert info["final_scores"][i].sum() > 0
            rewards.append(r.copy())
            dones += int(term.sum())
        return np.array(rewards), dones, obs["board"].copy()

    r1, d1, b1 = run(1)
    r2, d2, b2 = run(2)
    assert d1 >= 1
    np.testing.assert_array_equal(r1, r2)
    np.testing.assert_array_equal(b1, b2)

    v = cenv.VectorEnv(Rules.base(), 2, 2, seed=5)
    a, _ = v.reset(seed=7)
    a = {k: x.copy() for k, x in a.items()}
    b, _ = v.reset(seed=7)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])


def test_spec_layout_is_consistent():
    st = _core.State(players=2, seed=0, rules=EVERY_OPTION)
    spec = _core.EnvSpec(st, 9)
    lay = spec.layout()
    assert spec.board_shape == (9, 9, spec.channels)
    assert lay["special"] == (81 + spec.overflow) * 4 * spec.slots
    first = lay["special"]
    for name, (at, n) in lay["decisions"].items():  # keep-farmer, return-farmer, choose hand
        assert at == first, name
        first += n
    assert spec.action_size == first
    assert lay["decisions"]["choose hand"][1] == 5  # 1 + the most fortune tellers any rules allow
    first, n = lay["vector"]["overflow"]
    assert first + n == spec.vector_size
    assert spec.channels == lay["channels"]["figures"] + 2 * lay["roles_per_seat"]
    assert "keep-farmer" == spec.describe(lay["special"])
    assert "outside" in spec.describe(spec.action_size)
    assert len(lay["tile_types"]) == lay["vector"]["bag"][1]
    with pytest.raises(ValueError):
        _core.EnvSpec(st, 300)


def test_vector_env_rows_equal_a_fresh_observation():
    # The vector environment clears only what it wrote last: its rows must match a fresh
    # observation of the same state after the window has moved many times.
    for rules in (Rules(), EVERY_OPTION):
        v = cenv.VectorEnv(rules, 2, 3, seed=2, seat=None, opponents="greedy")
        spec = v.spec_
        obs, _ = v.reset()
        rng = np.random.default_rng(2)
        for step in range(120):
            acts = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
            obs, *_ = v.step(acts)
            if step % 10:
                continue
            for i, me in enumerate(v.learners()):
                assert v.legal_actions(i) == list(np.flatnonzero(obs["action_mask"][i]))
                board = np.empty(spec.board_shape, np.uint8)
                vector = np.empty(spec.vector_size, np.float32)
                mask = np.empty(spec.action_size, np.uint8)
                spec.observe(v.state(i), me, board, vector, mask)
                np.testing.assert_array_equal(obs["board"][i], board)
                np.testing.assert_array_equal(obs["vector"][i], vector)
                np.testing.assert_array_equal(obs["action_mask"][i], mask.view(np.int8))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(MORE_RULE_SETS),
    players=st.integers(2, 6),
    window=st.integers(3, 35),
    seed=st.integers(0, 2**63),
)
def test_property_mask_matches_legal_moves_in_whole_games(rules, players, window, seed):
    e = cenv.raw_env(rules=rules, players=players, window=window)
    e.reset(seed=seed)
    rnd = random.Random(seed)
    decisions = 0
    while not all(e.terminations.values()):
        agent = e.agent_selection
        mask = e.observe(agent)["action_mask"]
        bits = np.flatnonzero(mask)
        legal = e.state.legal_moves()
        assert len(bits) == len(legal)
        for a in rnd.sample(list(bits), min(4, len(bits))):
            assert e.decode(a) in legal and e.index(e.decode(a)) == a
        e.step(int(rnd.choice(bits)))
        decisions += 1
    assert e.state.phase == "over" and decisions > 20


def test_default_windows_follow_the_rules():
    assert cenv.raw_env(rules=Rules()).spec_.window == 25
    assert cenv.raw_env(rules=Rules.base(toll_collectors=True)).spec_.window == 33
    assert cenv.VectorEnv(EVERY_OPTION, 2, 1).spec_.window == 33
    st = _core.State(players=2, seed=0)
    assert _core.EnvSpec(st).window == 25 and _core.EnvSpec(st, 7).window == 7


# -- registration, rendering, positions, pickling ----------------------------------------------


def test_gym_make_with_the_module_in_the_id_in_a_fresh_interpreter():
    code = (
        "import gymnasium as gym\n"
        "e = gym.make('carcassonne.env:carcassonne/Carcassonne-v0', opponents='greedy', seat=1)\n"
        "obs, info = e.reset(seed=2)\n"
        "assert info['learner'] == 1 and obs['action_mask'].sum() > 0\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"


def test_ansi_render_returns_the_board_text_and_prints_nothing(capsys):
    g = cenv.CarcassonneEnv(Rules(), 2, render_mode="ansi", seat=0)
    assert g.render() == ""
    obs, _ = g.reset(seed=5)
    g.step(int(np.flatnonzero(obs["action_mask"])[0]))
    text = g.render()
    game = Game._view(g.state, g.rules)
    assert text == render.text(game) and str(g.state.scores()[0]) in text
    e = cenv.raw_env(rules=Rules(), players=2, render_mode="ansi")
    e.reset(seed=1)
    e.step(int(np.flatnonzero(e.action_mask())[0]))
    assert e.render() == render.text(Game._view(e.state, e.rules))
    assert capsys.readouterr().out == ""
    with pytest.raises(ValueError, match="render_mode"):
        cenv.CarcassonneEnv(render_mode="human")


def test_rgb_array_render_is_the_board_picture():
    from carcassonne.render.pixels import decode

    g = cenv.CarcassonneEnv(Rules(), 2, render_mode="rgb_array", seat=0)
    assert g.render() is None
    obs, _ = g.reset(seed=5)
    g.step(int(np.flatnonzero(obs["action_mask"])[0]))
    picture = g.render()
    svg = render.svg(Game._view(g.state, g.rules))
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    expected = decode(render.png(svg, background="#ffffff"))
    np.testing.assert_array_equal(picture, expected[:, :, :3])
    assert (expected[:, :, 3] == 255).all()  # opaque on white
    assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 10  # a picture, not a blank
    e = cenv.raw_env(rules=Rules(), players=2, render_mode="rgb_array")
    e.reset(seed=1)
    assert e.render().shape[2] == 3


def _png(pixels, filters):
    """A PNG of RGBA ``pixels`` with the given filter per row (the standard's definitions)."""
    import struct
    import zlib

    h, w, _ = pixels.shape
    raw = pixels.reshape(h, w * 4).astype(int)
    out = b""
    for y in range(h):
        up = raw[y - 1] if y else np.zeros(w * 4, int)
        row, kind = raw[y], filters[y]
        left = np.concatenate([[0] * 4, row[:-4]])
        upleft = np.concatenate([[0] * 4, up[:-4]])
        if kind == 0:
            f = row
        elif kind == 1:
            f = row - left
        elif kind == 2:
            f = row - up
        elif kind == 3:
            f = row - (left + up) // 2
        else:
            p = left + up - upleft
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - upleft)
            pred = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, up, upleft))
            f = row - pred
        out += bytes([kind]) + bytes((f % 256).astype(np.uint8))

    def chunk(kind, body):
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(out))
        + chunk(b"IEND", b"")
    )


def test_png_decoder_undoes_every_filter():
    from carcassonne.render.pixels import decode

    rng = np.random.default_rng(0)
    pixels = rng.integers(0, 256, (10, 7, 4), dtype=np.uint8)
    pixels[3:6] = pixels[2]  # some smooth rows
    np.testing.assert_array_equal(decode(_png(pixels, [0, 1, 2, 3, 4, 4, 3, 2, 1, 0])), pixels)
    with pytest.raises(ValueError):
        decode(b"GIF89a")


def recorded_game(turns, seed=11):
    g = Game(Rules(), 2, seed=seed)
    rng = random.Random(seed)
    while g.turns < turns:
        g.play(rng.choice(g.legal_moves))
    return g


def test_reset_from_a_record_gives_the_recorded_position():
    g = recorded_game(9)
    env = cenv.CarcassonneEnv(Rules(), 2, opponents="greedy")
    for record in (g.record(), g.to_json(), g):
        obs, info = env.reset(options={"record": record})
        assert info["learner"] == g.turn  # no seat fixed: the player to move
        assert env.state.fingerprint() == g._state.fingerprint()
        legal = sorted(env.spec_.index(g._state, m) for m in g.legal_moves)
        np.testing.assert_array_equal(np.flatnonzero(obs["action_mask"]), legal)
    # A fixed seat that is not to move: the opponents play until it is.
    other = cenv.CarcassonneEnv(Rules(), 2, seat=1 - g.turn)
    _, info = other.reset(options={"record": g.record()})
    assert info["learner"] == 1 - g.turn == other.state.to_move
    assert other.state.turns > g.turns
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(options={"recrod": g.record()})
    with pytest.raises(ValueError, match="other rules"):
        cenv.CarcassonneEnv(Rules.base(), 2).reset(options={"record": g.record()})
    assert env.state.fingerprint() == g._state.fingerprint()  # unchanged by the errors


def test_vector_reset_from_records():
    g = recorded_game(6)
    v = cenv.VectorEnv(Rules(), 2, 3, seed=1, opponents="random")
    obs, info = v.reset(options={"record": [g.record(), None, g]})
    assert v.state(0).fingerprint() == g._state.fingerprint() == v.state(2).fingerprint()
    assert v.state(1).fingerprint() != g._state.fingerprint()
    assert info["learner"][0] == g.turn
    assert obs["action_mask"][0].sum() == len(g.legal_moves)
    with pytest.raises(ValueError, match="one record per game"):
        v.reset(options={"record": [g.record()]})


def test_envs_pickle_and_run_in_an_async_vector_env():
    env = cenv.CarcassonneEnv(Rules.base(), 2, opponents="greedy", seat=1, reward="win")
    copy = pickle.loads(pickle.dumps(env))
    assert (copy.rules, copy.illegal) == (env.rules, env.illegal)
    assert copy.reset(seed=3)[1]["learner"] == 1
    np.testing.assert_array_equal(copy.reset(seed=3)[0]["board"], env.reset(seed=3)[0]["board"])
    v = cenv.VectorEnv(Rules.base(), 2, 4, seed=8)
    w = pickle.loads(pickle.dumps(v))
    np.testing.assert_array_equal(w.reset()[0]["vector"], v.reset()[0]["vector"])
    fns = [lambda: cenv.CarcassonneEnv(Rules.base(), 2, seat=0) for _ in range(2)]
    a = gym.vector.AsyncVectorEnv(fns)
    try:
        obs, info = a.reset(seed=4)
        acts = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
        obs, reward, term, trunc, info = a.step(acts)
        assert obs["board"].shape[0] == 2 and not term.any()
    finally:
        a.close()


@pytest.mark.parametrize("rules,players", [(Rules(), 2), (EVERY_OPTION, 3)])
def test_sparse_legal_lists_equal_the_masks(rules, players):
    v = cenv.VectorEnv(rules, players, 6, seed=3, opponents="greedy,random")
    with pytest.raises(RuntimeError, match="reset"):
        v.legal_lists()
    obs, _ = v.reset()
    rng = np.random.default_rng(2)
    finished = 0
    for _ in range(400):
        actions, starts = v.legal_lists()
        assert actions.dtype == starts.dtype == np.int32 and starts.shape == (7,)
        for i, mask in enumerate(obs["action_mask"]):
            np.testing.assert_array_equal(actions[starts[i] : starts[i + 1]], np.flatnonzero(mask))
        # A random legal action per game from the lists alone.
        pick = starts[:-1] + (rng.random(6) * np.diff(starts)).astype(np.int64)
        obs, _, term, _, _ = v.step(actions[pick])
        finished += int(term.sum())
    assert finished > 0
