"""PettingZoo AEC environment: every seat is an agent; chance is resolved by the game's seed."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from carcassonne import _core
from carcassonne._core import Catalogue
from carcassonne.env import _common
from carcassonne.errors import IllegalMoveError, OneThread, one_thread, quote
from carcassonne.rules import Rules


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's naming convention)
    """Carcassonne for ``players`` agents ``player_0`` ... in seat order.

    Observations are ``{"observation": {"board", "vector"}, "action_mask"}`` from the
    observing agent's point of view; actions index the fixed action space of
    :class:`carcassonne._core.EnvSpec` (docs/environments.md). ``reward="score"`` pays
    every agent the change of its score margin (own score minus the mean of the others')
    after each move; ``reward="win"`` pays +1 (sole winner), 0 (shared win) or -1 at the end.
    """

    metadata = {
        "name": "carcassonne_v0",
        "render_modes": list(_common.RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | None = None,
        players: int = 2,
        *,
        reward: str = "score",
        window: int | None = None,
        catalogue: Catalogue | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self._owner = OneThread("environment")
        self.rules = _common.check_rules(rules, players)
        self.players = players
        self.reward_mode = _common.check_reward(reward)
        self.render_mode = _common.check_render_mode(render_mode)
        self._catalogue = catalogue
        proto = _common.new_state(self.rules, players, 0, catalogue)
        self.spec_ = _core.EnvSpec(proto, _common.check_window(window))
        self.possible_agents = [f"player_{i}" for i in range(players)]
        n = self.spec_.action_size
        obs = spaces.Dict(
            {
                "observation": spaces.Dict(_common.observation_spaces(self.spec_)),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            }
        )
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._seeds = np.random.default_rng()
        self.state: _core.State | None = None
        self._began: tuple[int, Any] = (0, None)
        self._actions: list[int] = []
        self.agents = []

    def __getstate__(self) -> dict[str, Any]:
        # The spec and the game's state are made again when loaded (neither pickles itself):
        # the spec from the rules, the state by playing the game's actions again.
        state = self.__dict__.copy()
        state["spec_"] = self.spec_.window
        state["state"] = state["state"] is not None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        window = state.pop("spec_")
        started = state.pop("state")
        self.__dict__.update(state)
        proto = _common.new_state(self.rules, self.players, 0, self._catalogue)
        self.spec_ = _core.EnvSpec(proto, window)
        self.state = None
        if started:
            seed, record = self._began
            start = _common.positions(record, 1)
            if start is None:
                self.state = _common.new_state(self.rules, self.players, seed, self._catalogue)
            else:
                self.state = start[0]
            if self.state.phase.is_chance:
                self.state.draw_random()
            for a in self._actions:
                self.spec_.play(self.state, a)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- episode ------------------------------------------------------------------------------

    @one_thread
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """``options={"record": r}`` starts from the position of record ``r`` (as the
        Gymnasium environment's reset); tile draws continue from its generator. Other
        options are ignored (PettingZoo's ``api_test`` passes some)."""
        record = {"record": options["record"]} if options and "record" in options else None
        start = _common.positions(record, 1)  # a bad record raises before anything changes
        if start is not None and not self._same_game(start[0]):
            raise ValueError("the record is of other rules or player count than this environment")
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        game_seed = int(self._seeds.integers(0, 2**63))
        if start is None:
            self.state = _common.new_state(self.rules, self.players, game_seed, self._catalogue)
        else:
            self.state = start[0]
        # How the game began and the actions since: what a pickle keeps (a State does not
        # pickle itself; playing them again gives the same state, chance included).
        self._began = (game_seed, record)
        self._actions: list[int] = []
        if self.state.phase.is_chance:
            self.state.draw_random()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._margins = self._margin_list()
        self.agent_selection = self.possible_agents[self.state.to_move]

    def _same_game(self, state: _core.State) -> bool:
        try:
            self.spec_.legal_indices(state)  # refuses other rules or player counts
        except ValueError:
            return False
        return True

    def _margin_list(self) -> list[float]:
        s = self.state.scores()
        total = sum(s)
        return [v - (total - v) / (self.players - 1) for v in s]

    def _seat(self, agent: Any) -> int:
        """The seat of ``agent`` (its name), or a ValueError naming the agents."""
        if agent not in self.possible_agents:
            raise ValueError(
                f"no agent {quote(agent)}: the agents are {', '.join(self.possible_agents)}"
            )
        return self.possible_agents.index(agent)

    @one_thread
    def observe(self, agent: str) -> dict[str, Any]:
        if self.state is None:
            raise RuntimeError("call reset() before observe()")
        p = self._seat(agent)
        spec = self.spec_
        board = np.empty(spec.board_shape, np.uint8)
        vector = np.empty(spec.vector_size, np.float32)
        mask = np.empty(spec.action_size, np.int8)
        spec.observe(self.state, p, board, vector, mask.view(np.uint8))
        return {"observation": {"board": board, "vector": vector}, "action_mask": mask}

    @one_thread
    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """The mask alone (cheaper than :meth:`observe`)."""
        mask = np.zeros(self.spec_.action_size, np.int8)
        if self.state is None or self.state.phase == _core.Decision.OVER:
            return mask
        agent = self.agent_selection if agent is None else agent
        if self._seat(agent) == self.state.to_move:
            mask[self.spec_.legal_indices(self.state)] = 1
        return mask

    @one_thread
    def step(self, action: Any) -> None:
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("the game is over and every agent is done: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = _common.action_index(action, self.spec_.action_size)
        # Raises IllegalMoveError (state unchanged) for an index whose mask bit is 0.
        self.spec_.play(self.state, a)
        self._actions.append(a)
        self._cumulative_rewards[agent] = 0.0
        over = self.state.phase == _core.Decision.OVER
        now = self._margin_list()
        for i, name in enumerate(self.possible_agents):
            if self.reward_mode == "score":
                self.rewards[name] = float(now[i] - self._margins[i])
            elif over:
                w = self.state.winners()
                self.rewards[name] = (1.0 if len(w) == 1 else 0.0) if i in w else -1.0
            else:
                self.rewards[name] = 0.0
        self._margins = now
        if over:
            for name in self.agents:
                self.terminations[name] = True
                self.infos[name] = {"scores": self.state.scores()}
        else:
            self.agent_selection = self.possible_agents[self.state.to_move]
        self._accumulate_rewards()

    @one_thread
    def render(self) -> str | np.ndarray | None:
        """``render_mode="ansi"``: the board and scores as text (nothing is printed);
        ``"rgb_array"``: the board picture, (height, width, 3) uint8. Before ``reset``: ""
        and None."""
        if self.state is None:
            return "" if self.render_mode == "ansi" else None
        return _common.render(self.render_mode, self.state, self.rules, self._catalogue)

    def close(self) -> None:
        pass

    # -- helpers for agents -------------------------------------------------------------------

    @one_thread
    def decode(self, action: int) -> _core.Move:
        """The legal move that ``action`` names now (IllegalMoveError if none)."""
        return self.spec_.decode(self.state, int(action))

    @one_thread
    def index(self, move: _core.Move) -> int:
        """The action index of legal move ``move``."""
        i = self.spec_.index(self.state, move)
        if i is None:
            raise IllegalMoveError(f"{move} is not a legal move now")
        return i


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order-enforcing wrapper, but a step after the end raises RuntimeError (as
    docs/environments.md says) where PettingZoo's only warns."""

    def step(self, action: Any) -> None:
        if self._has_reset and not self.agents:
            raise RuntimeError("the game is over and every agent is done: call reset()")
        super().step(action)


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment wrapped in PettingZoo's order-enforcing wrapper."""
    return _OrderEnforcing(raw_env(**kwargs))
