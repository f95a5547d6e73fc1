"""B games of a learner against native opponents, in self-play, or against Python players,
stepped in Rust (GIL released).

Arrays are allocated once and updated in place: the observation dict holds read-only views
of them, so copy what you keep between steps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from carcassonne import _core
from carcassonne._core import Catalogue
from carcassonne.env import _common
from carcassonne.env.factored import FactoredActions
from carcassonne.errors import OneThread, one_thread
from carcassonne.rules import Rules
from carcassonne.studies.batch import MAX_THREADS

# A Python opponent: called with the games where its seat moves (int64 indices), their
# observations (a dict of row copies) and their legal actions (one int32 array per game);
# returns one action per game.
Opponent = Callable[[np.ndarray, dict[str, np.ndarray], list[np.ndarray]], Any]


class VectorEnv(gym.vector.VectorEnv, EzPickle):
    """``num_envs`` games of the learner against ``opponents``, one per opponent seat in order
    after the learner, cycled: native policy text, comma-separated (``"random"``,
    ``"greedy,random"``), or a list whose entries are policy texts, ``"self"`` (another
    learner seat: self-play, the batch then holds whoever is to move) or Python callables
    (``Opponent``: called with the batch of games where that seat moves). ``seat`` fixes the
    learner's seat; the default None draws a seat for each game from that game's seed, so
    every seat is trained; ``info["learner"]`` (every step) gives each game's learner seat
    and ``info["seat"]`` the seat to move, whose view the observation is (they differ only in
    self-play). ``reward`` is the reward of the seat that moved; ``info["rewards"]`` (B,
    players) every seat's. A finished game restarts at once (same-step
    autoreset, a Gymnasium vector environment with ``autoreset_mode`` SAME_STEP):
    ``terminated[i]`` is true, ``obs[i]`` is the first observation of the next game and
    ``info["final_scores"][i]``, ``info["final_learner"][i]`` (set where
    ``info["_final_scores"]``) describe the finished game. ``threads``: 1 steps on the
    calling thread, 0 on every core. ``reset(options={"record": r})`` starts every game from
    the position of record ``r`` (or game i from ``r[i]`` for a list, None for a new game).
    Pickling keeps the arguments, not the games in progress: an unpickled copy needs
    ``reset``."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        rules: Rules | None = None,
        players: int = 2,
        num_envs: int = 16,
        *,
        opponents: str | Sequence[str | Opponent] = "random",
        seat: int | None = None,
        reward: str = "score",
        window: int | None = None,
        seed: int = 0,
        threads: int = 1,
        catalogue: Catalogue | None = None,
    ) -> None:
        self._owner = OneThread("environment")
        EzPickle.__init__(
            self,
            rules,
            players,
            num_envs,
            opponents=opponents,
            seat=seat,
            reward=reward,
            window=window,
            seed=seed,
            threads=threads,
            catalogue=catalogue,
        )
        self.rules = _common.check_rules(rules, players)
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, not {num_envs!r}")
        text, self._callables, self._roles = _opponents(opponents)
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players
        ):
            raise ValueError(f"seat must be None or from 0 to {players - 1}, not {seat!r}")
        if (
            isinstance(seed, bool)
            or not isinstance(seed, int | np.integer)
            or not 0 <= seed < 2**64
        ):
            raise ValueError(f"seed must be an int from 0 to 2**64-1, not {seed!r}")
        if (
            isinstance(threads, bool)
            or not isinstance(threads, int)
            or not 0 <= threads <= MAX_THREADS
        ):
            raise ValueError(
                f"threads must be an int from 0 (every core) to {MAX_THREADS}, not {threads!r}"
            )
        proto = _common.new_state(self.rules, players, 0, catalogue)
        self._env = _core.VectorEnv(
            proto,
            num_envs,
            window=_common.check_window(window),
            seed=int(seed),
            opponents=text,
            seat=seat,
            reward=_common.check_reward(reward),
            threads=threads,
        )
        self.spec_ = self._env.spec()
        self.factored = FactoredActions(self.spec_)
        self.num_envs = num_envs
        self.players = players
        b = num_envs
        spec = self.spec_
        self._board = np.zeros((b, *spec.board_shape), np.uint8)
        self._vector = np.zeros((b, spec.vector_size), np.float32)
        self._mask = np.zeros((b, spec.action_size), np.int8)
        self._reward = np.zeros(b, np.float32)
        self._rewards = np.zeros((b, players), np.float32)
        self._done = np.zeros(b, np.uint8)
        # Rewards of games restarted while Python opponents moved: they go to the next step.
        self._carry = np.zeros((b, players), np.float32)
        self._obs = {
            "board": _readonly(self._board),
            "vector": _readonly(self._vector),
            "action_mask": _readonly(self._mask),
        }
        self._started = False
        # Why the games must start again (an opponent failed partway through a step).
        self._broken = ""
        n = spec.action_size
        self.single_observation_space = spaces.Dict(
            {
                **_common.observation_spaces(spec),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(n)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    @property
    def action_size(self) -> int:
        return self.spec_.action_size

    def _arrays(self) -> tuple[np.ndarray, ...]:
        m = self._mask.view(np.uint8)
        return (self._board, self._vector, m, self._reward, self._rewards, self._done)

    @one_thread
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start new games; with ``seed``, every game's stream restarts from it; with
        ``options={"record": r}``, from a recorded position (class docstring)."""
        if seed is not None and (
            isinstance(seed, bool)
            or not isinstance(seed, int | np.integer)
            or not 0 <= int(seed) < 2**64
        ):
            raise ValueError(f"seed must be an int from 0 to 2**64-1, not {seed!r}")
        seed = None if seed is None else int(seed)
        start = _common.positions(options, self.num_envs)
        if start is None or seed is not None:
            self._env_call(self._env.reset, *self._arrays(), seed=seed)
        if start is not None:
            self._env_call(self._env.start_from, start, *self._arrays())
        self._started, self._broken = True, ""
        self._carry[:] = 0.0
        if self._callables:
            done = np.zeros(self.num_envs, bool)
            self._guarded_play(done, self._carry, {})
        return self._obs, self._info()

    def _require_started(self, what: str) -> None:
        if self._broken:
            raise RuntimeError(f"call reset() before {what}: {self._broken}")
        if not self._started:
            raise RuntimeError(f"call reset() before {what}")

    def _guarded_play(self, done: np.ndarray, total: np.ndarray, results: dict[int, Any]) -> None:
        """The Python opponents' moves; if one raises, the games stand partway through a step
        (the learner's actions and some opponents' moves played, their rewards lost), so they
        refuse to go on until reset."""
        try:
            self._opponents_play(done, total, results)
        except BaseException as e:
            self._started = False
            self._broken = (
                f"an opponent raised {type(e).__name__} during the last step or reset, "
                "leaving the games partway through it"
            )
            raise

    def _env_call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        """A call that moves the games; a Ctrl-C during it (native opponents searching)
        leaves them partway through, so they refuse to go on until reset."""
        try:
            fn(*args, **kwargs)
        except KeyboardInterrupt:
            self._started = False
            self._broken = "the last step or reset was interrupted, leaving the games partway"
            raise

    def _info(self) -> dict[str, Any]:
        every = np.ones(self.num_envs, bool)
        learner, seat = np.array(self._env.learners()), np.array(self._env.seats())
        return {"learner": learner, "_learner": every, "seat": seat, "_seat": every}

    def _opponents_play(self, done: np.ndarray, total: np.ndarray, results: dict[int, Any]) -> None:
        """Let the Python opponents move until every game waits for a learner seat. Rewards
        of games not done yet add to ``total``, of those done already (now in their next
        game) to the carry; ``done`` and ``results`` gather the games that finish."""
        p, k = self.players, len(self._roles)
        while True:
            learner, seat = np.array(self._env.learners()), np.array(self._env.seats())
            role = np.asarray(self._roles)[((seat - learner) % p - 1) % k]
            role[seat == learner] = -1
            if (role < 0).all():
                return
            acts = np.full(self.num_envs, -1, np.int64)
            flat, starts = self.legal_lists()
            for r in np.unique(role[role >= 0]):
                games = np.flatnonzero(role == r)
                obs = {key: v[games] for key, v in self._obs.items()}
                legal = [flat[starts[i] : starts[i + 1]].copy() for i in games]
                fn = self._callables[r]
                chosen = np.asarray(fn(games, obs, legal))
                if chosen.shape != games.shape or chosen.dtype.kind not in "iu":
                    raise ValueError(
                        f"opponent {fn!r} must return {len(games)} int actions, "
                        f"not {chosen.dtype} of shape {chosen.shape}"
                    )
                size = self.spec_.action_size
                # Checked before the cast to int64: 2**64-1 would become -1 ("no move"), and
                # a game whose opponent does not move would be asked again for ever.
                outside = (chosen < 0) | (chosen >= size)
                if outside.any():
                    k = int(np.flatnonzero(outside)[0])
                    raise ValueError(
                        f"opponent {fn!r} chose action {chosen[k]} in game {games[k]}: outside "
                        f"the action space (0 to {size - 1})"
                    )
                acts[games] = chosen
            self._env_call(self._env.step, acts, *self._arrays())
            newly = self._done.astype(bool)
            total[~done] += self._rewards[~done]
            self._carry[done] += self._rewards[done]
            if newly.any():
                last = self._env.last_results()
                for i in np.flatnonzero(newly & ~done):
                    results[int(i)] = last[i]
            done |= newly

    @one_thread
    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        self._require_started("step()")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {a.shape}")
        if a.dtype.kind not in "iu":
            raise TypeError(f"actions must be integers, not {a.dtype}")
        size = self.spec_.action_size
        outside = (a < 0) | (a >= size)  # before any cast: 2**64-1 is not "action -1"
        if outside.any():
            i = int(np.flatnonzero(outside)[0])
            raise ValueError(f"actions[{i}] = {a[i]} is outside the action space (0 to {size - 1})")
        a = np.ascontiguousarray(a, dtype=np.int64)
        acting = np.array(self._env.seats())
        # Raises IllegalMoveError before any game moves when an action's mask bit is 0.
        self._env_call(self._env.step, a, *self._arrays())
        terminated = self._done.astype(bool)
        results: dict[int, Any] = {}
        if self._callables:
            rewards = self._rewards + self._carry
            self._carry[:] = 0.0
            if terminated.any():
                last = self._env.last_results()
                results = {int(i): last[i] for i in np.flatnonzero(terminated)}
            self._guarded_play(terminated, rewards, results)
            reward = rewards[np.arange(self.num_envs), acting]
        else:
            rewards = self._rewards.copy()
            reward = self._reward.copy()
            if terminated.any():
                last = self._env.last_results()
                results = {int(i): last[i] for i in np.flatnonzero(terminated)}
        truncated = np.zeros(self.num_envs, bool)
        info = self._info()
        every = np.ones(self.num_envs, bool)
        info |= {"rewards": rewards, "_rewards": every}
        if results:
            scores = np.zeros((self.num_envs, self.players), np.int64)
            learner = np.full(self.num_envs, -1, np.int64)
            for i, (seat, final) in results.items():
                learner[i], scores[i] = seat, final
            info |= {
                "final_scores": scores,
                "_final_scores": terminated.copy(),
                "final_learner": learner,
                "_final_learner": terminated.copy(),
            }
        return self._obs, reward, terminated, truncated, info

    def _game(self, i: Any) -> int:
        if isinstance(i, bool) or not isinstance(i, int | np.integer):
            raise TypeError(f"a game index is an int, not {type(i).__name__}")
        if not 0 <= int(i) < self.num_envs:
            raise ValueError(
                f"game {i} is not one of the {self.num_envs} games (0 to {self.num_envs - 1})"
            )
        return int(i)

    @one_thread
    def state(self, i: int) -> _core.State:
        """A copy of game ``i``'s state (for rendering or checks)."""
        return self._env.state(self._game(i))

    @one_thread
    def legal_actions(self, i: int) -> list[int]:
        """Indices of game ``i``'s legal moves (its mask's set bits), ascending."""
        return self._env.legal_indices(self._game(i))

    @one_thread
    def legal_lists(self) -> tuple[np.ndarray, np.ndarray]:
        """Every game's legal actions, sparse (instead of reading the dense masks):
        ``(actions, starts)``, int32, game i's legal actions being
        ``actions[starts[i]:starts[i + 1]]`` ascending (``starts`` has ``num_envs + 1``
        entries), those of the seat to move. Fresh arrays, valid until the next ``step`` or
        ``reset``."""
        self._require_started("legal_lists()")
        actions, starts = self._env.legal_lists()
        return np.frombuffer(actions, "<i4"), np.frombuffer(starts, "<i4")

    @one_thread
    def action_features(self) -> np.ndarray:
        """What each legal action of :meth:`legal_lists` changes, in its order: float32
        ``(len(actions), F)``; columns named by ``action_feature_names()``: the change of
        the mover's learned-evaluation terms, the mean change of the other players' terms,
        then the change of the mover's score and of the others' mean score."""
        self._require_started("action_features()")
        f = np.frombuffer(self._env.action_features(), "<f4")
        return f.reshape(-1, len(self.action_feature_names()))

    @staticmethod
    def action_feature_names() -> list[str]:
        return _core.VectorEnv.action_feature_names()

    @one_thread
    def learners(self) -> list[int]:
        return list(self._env.learners())

    def close_extras(self, **kwargs: Any) -> None:
        pass


def _opponents(opponents: Any) -> tuple[str, list[Opponent], list[int]]:
    """The engine's opponents text (``self`` for every seat decided outside), the Python
    callables, and per opponent entry the index of its callable (-1 for none)."""
    if isinstance(opponents, str):
        return opponents, [], []
    if not isinstance(opponents, Sequence) or not opponents:
        raise TypeError(
            "opponents is policy text or a non-empty list of policy texts, 'self' and callables, "
            f"not {opponents!r}"
        )
    parts, callables, roles = [], [], []
    for o in opponents:
        if isinstance(o, str):
            if "," in o:
                raise ValueError(f"one opponent per list entry, not {o!r}")
            parts.append(o)
            roles.append(-1)
        elif callable(o):
            parts.append("self")
            roles.append(len(callables))
            callables.append(o)
        else:
            raise TypeError(f"an opponent is policy text, 'self' or a callable, not {o!r}")
    return ",".join(parts), callables, roles


def _readonly(a: np.ndarray) -> np.ndarray:
    v = a.view()
    v.flags.writeable = False
    return v
