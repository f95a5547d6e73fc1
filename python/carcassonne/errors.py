"""Exceptions. Every one is a ``ValueError`` that says what is wrong; none changes a game.
Messages quote the input they refuse in at most about 100 characters (:func:`quote`)."""

from carcassonne._core import CatalogueError, DrawError, IllegalMoveError, InvalidMoveError

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


__all__ = ["CatalogueError", "DrawError", "IllegalMoveError", "InvalidMoveError", "RecordError"]
