"""The move the table page suggests: the strongest the engine finds in about a fifth of a
second. Today that is the ``expert`` player's choice (the learned evaluation of the position
after each move, docs/players.md); a stronger player replaces it here, in one place."""

from __future__ import annotations

from carcassonne._core import Move
from carcassonne.game import Game


def suggest(game: Game) -> Move:
    """The suggested move for the decision waiting (``game.legal_moves`` must not be empty).
    Ties go to the first move in ``legal_moves`` order, so a suggestion is repeatable."""
    values = game.expert_values()
    return max(game.legal_moves, key=lambda m: values[m])
