"""What the environments share: the game's rules, the numbering of moves and the spaces."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from carcassonne import _core
from carcassonne._core import Catalogue
from carcassonne.game import Game
from carcassonne.rules import Rules

REWARDS = ("score", "win")
# Bound of the vector's entries (scores, counts, window-relative positions).
VECTOR_BOUND = 2.0**15


def check_rules(rules: Rules | None, players: int) -> Rules:
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules, not {type(rules).__name__}")
    if isinstance(players, bool) or not isinstance(players, int):
        raise TypeError(f"players must be an int, not {type(players).__name__}")
    if not 2 <= players <= 6:
        raise ValueError(f"players must be from 2 to 6, not {players}")
    return rules


def check_window(window: int | None) -> int | None:
    """None lets the engine choose by the rules (25 cells, or 33 when an expansion adds
    tiles: docs/environments.md)."""
    if window is None:
        return None
    if isinstance(window, bool) or not isinstance(window, int):
        raise TypeError(f"window must be an int, not {type(window).__name__}")
    if not 3 <= window <= 255:
        raise ValueError(f"window must be from 3 to 255 cells, not {window}")
    return window


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    return reward


def new_state(rules: Rules, players: int, seed: int, catalogue: Catalogue | None) -> _core.State:
    return _core.State(players=players, seed=seed, catalogue=catalogue, rules=rules)


def observation_spaces(spec: _core.EnvSpec) -> dict[str, spaces.Space[Any]]:
    """The board planes and the vector of counts (docs/environments.md)."""
    return {
        "board": spaces.Box(0, 255, spec.board_shape, np.uint8),
        "vector": spaces.Box(-VECTOR_BOUND, VECTOR_BOUND, (spec.vector_size,), np.float32),
    }


def action_index(action: Any, size: int) -> int:
    """An action as a Python int, or a clear error for anything that is not one."""
    if isinstance(action, np.ndarray):
        if action.shape not in ((), (1,)):
            raise ValueError(f"an action is one int, not an array of shape {action.shape}")
        action = action.reshape(()).item()
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        raise TypeError(f"an action is an int index, not {type(action).__name__}")
    a = int(action)
    if not 0 <= a < size:
        raise ValueError(f"action {a} is outside the action space (0 to {size - 1})")
    return a


def positions(options: dict[str, Any] | None, games: int) -> list[_core.State | None] | None:
    """The positions ``reset(options={"record": ...})`` starts from, one per game (None for
    a new game), or None without a record. A record is a ``Game``, a record dict or its
    JSON text (docs/notation.md), or a ``State`` copied from an environment; the vector
    environment also takes a list, one per game."""
    if not options:
        return None
    if not isinstance(options, dict):
        raise TypeError(f"options must be a dict, not {type(options).__name__}")
    unknown = sorted(set(options) - {"record"}, key=str)
    if unknown:
        raise ValueError(f"unknown reset option {unknown[0]!r} (known: 'record')")
    record = options["record"]
    records = list(record) if isinstance(record, list | tuple) else [record] * games
    if len(records) != games:
        raise ValueError(f"expected one record per game ({games}), got {len(records)}")
    return [None if r is None else _position(r) for r in records]


def _position(record: Any) -> _core.State:
    if isinstance(record, _core.State):  # a position taken from an environment (`state(i)`)
        if record.phase == _core.Decision.OVER:
            raise ValueError("the position's game is over: there is nothing to play from")
        return record.copy()
    game = record if isinstance(record, Game) else Game.from_record(record)
    if game.is_over():
        raise ValueError("the record's game is over: there is no position to play from")
    with game._owner:  # one thread at a time on the game (GameInUseError)
        return game._state.copy()


RENDER_MODES = ("ansi", "rgb_array")


def check_render_mode(render_mode: str | None) -> str | None:
    if render_mode not in (None, *RENDER_MODES):
        raise ValueError(f"render_mode must be None, 'ansi' or 'rgb_array', not {render_mode!r}")
    return render_mode


def render(
    mode: str | None, state: _core.State, rules: Rules, catalogue: Catalogue | None
) -> str | np.ndarray | None:
    """``"ansi"``: the board and scores as text; ``"rgb_array"``: the board picture
    (``render.svg``) as (height, width, 3) uint8 on white."""
    from carcassonne.render import svg, text
    from carcassonne.render.pixels import rgb

    if mode is None:
        return None
    game = Game._view(state, rules, catalogue)
    return text(game) if mode == "ansi" else rgb(svg(game))
