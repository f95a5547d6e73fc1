"""The move the table page suggests: the strongest the engine finds in about a fifth of a
second. Which player that is depends on the rules (BENCHMARKS.md, "2026-12-06 (session 10):
rollouts against the anchor"): in the base game with no expansion, the hand-tuned
``heuristic`` with 16 rollouts of its 4 best moves (79 ms a decision on average, at most
186 ms; 77% against the one-ply heuristic, where its look-ahead over the next draw won 58.5%);
with any expansion (the River and the Abbot included), the expert looking ahead over the next
draw (14 ms a decision with every option, at most 50 ms: BENCHMARKS.md, "the expert's
decisions made cheaper"; against the heuristic it wins 89% of 100 games there where the
one-ply expert wins 70%, and 58% of 100 against the one-ply expert: BENCHMARKS.md, "the expert
fitted to rank a decision's moves"). A stronger player replaces them here, in one place."""

from __future__ import annotations

from carcassonne import _core
from carcassonne._core import Move
from carcassonne.game import Game
from carcassonne.policies import parsed_policy

#: The suggesting player without expansions, and with any.
BASE = "heuristic:rollouts=16:top=4"
EXPANSIONS = "expert:depth=2"


def suggester(game: Game) -> str:
    """The policy text of the player whose choice is suggested for ``game``'s rules."""
    return BASE if _core.model_key(game.rules) == "base" else EXPANSIONS


def suggest(game: Game) -> Move:
    """The suggested move for the decision waiting (``game.legal_moves`` must not be empty).
    The player's tie-breaks use a fixed seed, so a suggestion is repeatable."""
    with game._owner:  # one thread at a time on the game
        return parsed_policy(suggester(game)).choose(game._state)
