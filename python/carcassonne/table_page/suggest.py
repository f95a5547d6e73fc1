"""The move the table page suggests: the strongest the engine finds in about a fifth of a
second. Which player that is depends on the rules (BENCHMARKS.md, "2026-12-06: look-ahead
against the anchor"): in the base game with no expansion, the hand-tuned ``heuristic`` with its
look-ahead over the next draw (tens of milliseconds a decision; it beats the one-ply
heuristic, which beats the expert there); with any expansion (the River and the Abbot
included), the one-ply ``expert`` (it beats the heuristic there, and its look-ahead did not
measurably beat it with every expansion: 50% of 40 games). A stronger player replaces them
here, in one place."""

from __future__ import annotations

from carcassonne import _core
from carcassonne._core import Move
from carcassonne.game import Game
from carcassonne.policies import parsed_policy

#: The suggesting player without expansions, and with any.
BASE = "heuristic:depth=2"
EXPANSIONS = "expert"


def suggester(game: Game) -> str:
    """The policy text of the player whose choice is suggested for ``game``'s rules."""
    return BASE if _core.model_key(game.rules) == "base" else EXPANSIONS


def suggest(game: Game) -> Move:
    """The suggested move for the decision waiting (``game.legal_moves`` must not be empty).
    The player's tie-breaks use a fixed seed, so a suggestion is repeatable."""
    with game._owner:  # one thread at a time on the game
        return parsed_policy(suggester(game)).choose(game._state)
