"""B games of a learner against native opponents, stepped in Rust (GIL released).

Arrays are allocated once and updated in place: the observation dict holds read-only views
of them, so copy what you keep between steps.
"""

from __future__ import annotations

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
from carcassonne.errors import in_use
from carcassonne.rules import Rules


class VectorEnv(gym.vector.VectorEnv, EzPickle):
    """``num_envs`` games of the learner against ``opponents`` (native policy text, one per
    opponent seat in order after the learner, comma-separated, cycled: ``"random"``,
    ``"greedy,random"``). ``seat`` fixes the learner's seat; the default None draws a seat
    for each game from that game's seed, so every seat is trained; ``info["learner"]`` (every
    step) gives each game's learner seat. A finished game restarts at once (same-step
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
        opponents: str = "random",
        seat: int | None = None,
        reward: str = "score",
        window: int | None = None,
        seed: int = 0,
        threads: int = 1,
        catalogue: Catalogue | None = None,
    ) -> None:
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
        if not isinstance(opponents, str):
            raise TypeError(f"opponents is policy text, not {type(opponents).__name__}")
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players
        ):
            raise ValueError(f"seat must be None or from 0 to {players - 1}, not {seat!r}")
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 0:
            raise ValueError(f"threads must be a non-negative int, not {threads!r}")
        proto = _common.new_state(self.rules, players, 0, catalogue)
        self._env = _core.VectorEnv(
            proto,
            num_envs,
            window=_common.check_window(window),
            seed=seed,
            opponents=opponents,
            seat=seat,
            reward=_common.check_reward(reward),
            threads=threads,
        )
        self.spec_ = self._env.spec()
        self.num_envs = num_envs
        self.players = players
        b = num_envs
        spec = self.spec_
        self._board = np.zeros((b, *spec.board_shape), np.uint8)
        self._vector = np.zeros((b, spec.vector_size), np.float32)
        self._mask = np.zeros((b, spec.action_size), np.int8)
        self._reward = np.zeros(b, np.float32)
        self._done = np.zeros(b, np.uint8)
        self._obs = {
            "board": _readonly(self._board),
            "vector": _readonly(self._vector),
            "action_mask": _readonly(self._mask),
        }
        self._started = False
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
        return (self._board, self._vector, self._mask.view(np.uint8), self._reward, self._done)

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
            self._env.reset(*self._arrays(), seed=seed)
        if start is not None:
            self._env.start_from(start, *self._arrays())
        self._started = True
        every = np.ones(self.num_envs, bool)
        return self._obs, {"learner": np.array(self._env.learners()), "_learner": every}

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
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
        # Raises IllegalMoveError before any game moves when an action's mask bit is 0.
        try:
            self._env.step(a, *self._arrays())
        except RuntimeError as e:
            raise in_use(e, "environment") from None
        terminated = self._done.astype(bool)
        truncated = np.zeros(self.num_envs, bool)
        every = np.ones(self.num_envs, bool)
        info: dict[str, Any] = {"learner": np.array(self._env.learners()), "_learner": every}
        if terminated.any():
            results = self._env.last_results()
            scores = np.zeros((self.num_envs, self.players), np.int64)
            learner = np.full(self.num_envs, -1, np.int64)
            for i in np.flatnonzero(terminated):
                learner[i], scores[i] = results[i]
            info |= {
                "final_scores": scores,
                "_final_scores": terminated.copy(),
                "final_learner": learner,
                "_final_learner": terminated.copy(),
            }
        return self._obs, self._reward.copy(), terminated, truncated, info

    def _game(self, i: Any) -> int:
        if isinstance(i, bool) or not isinstance(i, int | np.integer):
            raise TypeError(f"a game index is an int, not {type(i).__name__}")
        if not 0 <= int(i) < self.num_envs:
            raise ValueError(
                f"game {i} is not one of the {self.num_envs} games (0 to {self.num_envs - 1})"
            )
        return int(i)

    def state(self, i: int) -> _core.State:
        """A copy of game ``i``'s state (for rendering or checks)."""
        return self._env.state(self._game(i))

    def legal_actions(self, i: int) -> list[int]:
        """Indices of game ``i``'s legal moves (its mask's set bits), ascending."""
        return self._env.legal_indices(self._game(i))

    def legal_lists(self) -> tuple[np.ndarray, np.ndarray]:
        """Every game's legal actions, sparse (instead of reading the dense masks):
        ``(actions, starts)``, int32, game i's legal actions being
        ``actions[starts[i]:starts[i + 1]]`` ascending (``starts`` has ``num_envs + 1``
        entries). Fresh arrays, valid until the next ``step`` or ``reset``."""
        if not self._started:
            raise RuntimeError("call reset() before legal_lists()")
        actions, starts = self._env.legal_lists()
        return np.frombuffer(actions, "<i4"), np.frombuffer(starts, "<i4")

    def learners(self) -> list[int]:
        return list(self._env.learners())

    def close_extras(self, **kwargs: Any) -> None:
        pass


def _readonly(a: np.ndarray) -> np.ndarray:
    v = a.view()
    v.flags.writeable = False
    return v
