"""Gymnasium environment: one learner against native opponents (``carcassonne/Carcassonne-v0``)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle

from carcassonne import _core
from carcassonne._core import Catalogue
from carcassonne.env import _common
from carcassonne.errors import IllegalMoveError, OneThread, one_thread
from carcassonne.policies import seat_texts
from carcassonne.rules import Rules

# Reward for an illegal action with ``illegal="penalty"`` (the game does not move).
ILLEGAL_PENALTY = -1.0


class LegalDiscrete(spaces.Discrete):
    """``Discrete(n)`` whose ``sample()`` without a mask draws a legal action of the
    environment's current decision (so generic tools that sample the action space, such as
    Gymnasium's checker, play legal moves); with a mask it samples as ``Discrete`` does."""

    def __init__(self, n: int, env: CarcassonneEnv) -> None:
        super().__init__(n)
        self._env = env

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None and self._env._started:
            mask = self._env._mask[0]
            if not mask.any():
                return np.int64(0)
        return super().sample(mask=mask, probability=probability)


class CarcassonneEnv(gym.Env, EzPickle):
    """The learner plays seat ``seat`` (default None: a seat drawn for each game from the
    game's seed, so a learner trains for every seat; ``info["learner"]`` says which) against
    ``opponents`` (native policy text, e.g. ``"random"``, ``"greedy"``, ``"greedy,random"``:
    one per opponent seat after the learner, cycled). Observations: ``{"board", "vector",
    "action_mask"}`` (docs/environments.md). Rewards as in the AEC environment.

    An action whose mask bit is 0 raises IllegalMoveError (game unchanged); with
    ``illegal="penalty"`` it instead leaves the game unchanged and pays ``ILLEGAL_PENALTY``
    (for learners without masking, and for Gymnasium's checker, which steps unmasked samples).

    Pickling keeps the arguments, not the game in progress: an unpickled copy (as in
    Gymnasium's ``AsyncVectorEnv``) needs ``reset``."""

    metadata = {"render_modes": list(_common.RENDER_MODES)}

    def __init__(
        self,
        rules: Rules | None = None,
        players: int = 2,
        *,
        opponents: str = "random",
        seat: int | None = None,
        reward: str = "score",
        window: int | None = None,
        catalogue: Catalogue | None = None,
        illegal: str = "raise",
        render_mode: str | None = None,
    ) -> None:
        self._owner = OneThread("environment")
        EzPickle.__init__(
            self,
            rules,
            players,
            opponents=opponents,
            seat=seat,
            reward=reward,
            window=window,
            catalogue=catalogue,
            illegal=illegal,
            render_mode=render_mode,
        )
        if illegal not in ("raise", "penalty"):
            raise ValueError(f"illegal must be 'raise' or 'penalty', not {illegal!r}")
        self.illegal = illegal
        self.render_mode = _common.check_render_mode(render_mode)
        self.rules = _common.check_rules(rules, players)
        self._catalogue = catalogue
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players
        ):
            raise ValueError(f"seat must be None or from 0 to {players - 1}, not {seat!r}")
        if not isinstance(opponents, str):
            raise TypeError(f"opponents is policy text, not {type(opponents).__name__}")
        if "self" in seat_texts(opponents):
            raise ValueError("self-play needs every seat's decisions: use VectorEnv or env()")
        proto = _common.new_state(self.rules, players, 0, catalogue)
        self._env = _core.VectorEnv(
            proto,
            1,
            window=_common.check_window(window),
            seed=int(np.random.default_rng().integers(0, 2**63)),
            opponents=opponents,
            seat=seat,
            reward=_common.check_reward(reward),
            threads=1,
            autoreset=False,
        )
        self.spec_ = self._env.spec()
        n = self.spec_.action_size
        self.observation_space = spaces.Dict(
            {
                **_common.observation_spaces(self.spec_),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            }
        )
        self.action_space = LegalDiscrete(n, self)
        self._board = np.zeros((1, *self.spec_.board_shape), np.uint8)
        self._vector = np.zeros((1, self.spec_.vector_size), np.float32)
        self._mask = np.zeros((1, n), np.int8)
        self._reward = np.zeros(1, np.float32)
        self._rewards = np.zeros((1, players), np.float32)
        self._done = np.zeros(1, np.uint8)
        self._started = False
        self._over = False

    def _arrays(self) -> tuple[np.ndarray, ...]:
        m = self._mask.view(np.uint8)
        return (self._board, self._vector, m, self._reward, self._rewards, self._done)

    def _obs(self) -> dict[str, np.ndarray]:
        return {
            "board": self._board[0].copy(),
            "vector": self._vector[0].copy(),
            "action_mask": self._mask[0].copy(),
        }

    @one_thread
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        start = _common.positions(options, 1)  # a bad record raises before anything changes
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63)) if seed is not None else None
        if start is None or seed is not None:
            self._env.reset(*self._arrays(), seed=game_seed)
        if start is not None:
            self._env.start_from(start, *self._arrays())
        self._started = True
        self._over = False
        return self._obs(), {"learner": self._env.learners()[0]}

    @one_thread
    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if self._over:
            raise RuntimeError("the game is over: call reset() to start another")
        a = _common.action_index(action, self.spec_.action_size)
        if not self._mask[0, a]:
            if self.illegal == "penalty":
                info = {"illegal": True, "learner": self._env.learners()[0]}
                return self._obs(), ILLEGAL_PENALTY, False, False, info
            raise IllegalMoveError(
                f"action {a} is not a legal move now (its mask bit is 0): " + self.spec_.describe(a)
            )
        try:
            self._env.step(np.array([a], np.int64), *self._arrays())
        except KeyboardInterrupt:
            self._started = False  # native opponents were stopped partway: start again
            raise
        self._over = bool(self._done[0])
        info: dict[str, Any] = {"learner": self._env.learners()[0]}
        if self._over:
            info["scores"] = self._env.state(0).scores()
        return self._obs(), float(self._reward[0]), self._over, False, info

    @property
    @one_thread
    def state(self) -> _core.State:
        """A copy of the game's state."""
        return self._env.state(0)

    @one_thread
    def decode(self, action: int) -> _core.Move:
        """The legal move that ``action`` names now."""
        return self.spec_.decode(self._env.state(0), int(action))

    @one_thread
    def render(self) -> str | np.ndarray | None:
        """``render_mode="ansi"``: the board and scores as text (nothing is printed);
        ``"rgb_array"``: the board picture, (height, width, 3) uint8. Before ``reset``: ""
        and None."""
        if not self._started:
            return "" if self.render_mode == "ansi" else None
        return _common.render(self.render_mode, self._env.state(0), self.rules, self._catalogue)
