"""The move the table page suggests: the strongest the engine finds in about a fifth of a
second. Both candidates are one-ply players that take a few milliseconds a decision; which is
stronger depends on the rules (the strength ladder, BENCHMARKS.md): in the base game with no
expansion the hand-tuned ``heuristic`` beats the learned ``expert`` (about two games in three),
with any expansion (the River and the Abbot included) the expert beats the heuristic. A
stronger player replaces them here, in one place."""

from __future__ import annotations

from carcassonne import _core
from carcassonne._core import Move
from carcassonne.game import Game


def suggester(game: Game) -> str:
    """The player whose choice is suggested for ``game``'s rules: ``heuristic`` or ``expert``."""
    return "heuristic" if _core.model_key(game.rules) == "base" else "expert"


def suggest(game: Game) -> Move:
    """The suggested move for the decision waiting (``game.legal_moves`` must not be empty).
    Ties go to the first move in ``legal_moves`` order, so a suggestion is repeatable."""
    if suggester(game) == "heuristic":
        values = game.heuristic_values()
    else:
        values = game.expert_values()
    return max(game.legal_moves, key=lambda m: values[m])
