"""Standard environments for learning agents (docs/environments.md).

- :func:`env` / :class:`raw_env`: PettingZoo AEC environment, every seat an agent.
- :class:`CarcassonneEnv`: Gymnasium environment, one learner against native opponents,
  registered as ``carcassonne/Carcassonne-v0`` (``gymnasium.make`` finds it without an import
  as ``carcassonne.env:carcassonne/Carcassonne-v0``).
- :class:`VectorEnv`: B games of a learner against native, Python or self-play opponents
  stepped in Rust; :class:`FactoredActions`: its actions in two levels.

Needs the ``rl`` extra: ``pip install carcassonne[rl]`` (gymnasium, pettingzoo).
"""

from __future__ import annotations

try:
    import gymnasium
    import pettingzoo  # noqa: F401
except ImportError as e:  # pragma: no cover - depends on the installation
    raise ImportError(
        "carcassonne.env needs gymnasium and pettingzoo: pip install 'carcassonne[rl]'"
    ) from e

from carcassonne._core import EnvSpec
from carcassonne.env.aec import env, raw_env
from carcassonne.env.factored import FactoredActions
from carcassonne.env.single import CarcassonneEnv
from carcassonne.env.vector import VectorEnv

ENV_ID = "carcassonne/Carcassonne-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="carcassonne.env.single:CarcassonneEnv")

__all__ = [
    "ENV_ID",
    "CarcassonneEnv",
    "EnvSpec",
    "FactoredActions",
    "VectorEnv",
    "env",
    "raw_env",
]
