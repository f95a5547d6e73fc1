"""Exceptions. Every one is a ``ValueError`` that says what is wrong; none changes a game.
Messages quote the input they refuse in at most about 100 characters (:func:`quote`).

A step the game refuses raises a ``PlayError``, one of: ``InvalidMoveError`` (text that is not
a move), ``IllegalMoveError`` (a move the rules do not allow now; ``.rule`` is the id of the
rule it breaks, as in docs/rules.md, e.g. ``"B5"`` or ``"TB4"``, or None when the refusal is
not a rule's, such as an action index outside an environment's mask) and ``DrawError`` (a tile
or animal token that cannot be drawn now). The one exception that is no ``ValueError`` is
``GameInUseError``, a ``RuntimeError``: one game used from two threads at once."""

from carcassonne._core import (
    CatalogueError,
    DrawError,
    IllegalMoveError,
    InvalidMoveError,
    PlayError,
)

QUOTE_LIMIT = 100


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)``, cut to about ``limit`` characters (an error message quotes what it
    refuses, not a whole file that happened to be given)."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 15]}... ({len(text):,} chars)"


class RecordError(ValueError):
    """A game record that is malformed, or that does not replay to what it claims."""


class GameInUseError(RuntimeError):
    """One game (or environment) used from two threads at once: a step while another thread's
    search or step runs on it. Use each from one thread at a time; give threads copies."""


def in_use(e: RuntimeError, what: str) -> RuntimeError:
    """PyO3's "Already borrowed" as a :class:`GameInUseError`; any other error as it is."""
    if str(e).startswith("Already"):
        return GameInUseError(
            f"{what} is in use by another thread (a search or a step is running): one {what}, "
            "one thread at a time; give each thread its own copy"
        )
    return e


__all__ = [
    "CatalogueError",
    "DrawError",
    "GameInUseError",
    "IllegalMoveError",
    "InvalidMoveError",
    "PlayError",
    "RecordError",
]
