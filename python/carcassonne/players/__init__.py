"""Players written in Python: an agent is any object with ``choose(game, moves) -> move``;
the native players as agents (:class:`NativeAgent` for any of them, seeded per game and seat);
whole games and batches played by agents (:func:`play_game`, :func:`simulate_agents`). The
module is :mod:`carcassonne.players.agents`."""

from carcassonne.players.agents import (
    Agent,
    ExpertAgent,
    GreedyAgent,
    MctsAgent,
    NativeAgent,
    NativeRandomAgent,
    RandomAgent,
    agent_name,
    native_agent,
    play_game,
    replay,
    simulate_agents,
    simulate_agents_chunks,
)

__all__ = [
    "Agent",
    "ExpertAgent",
    "GreedyAgent",
    "MctsAgent",
    "NativeAgent",
    "NativeRandomAgent",
    "RandomAgent",
    "agent_name",
    "native_agent",
    "play_game",
    "replay",
    "simulate_agents",
    "simulate_agents_chunks",
]
