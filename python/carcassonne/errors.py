"""Exceptions. Every one is a ``ValueError`` that says what is wrong; none changes a game."""

from carcassonne._core import CatalogueError, DrawError, IllegalMoveError, InvalidMoveError


class RecordError(ValueError):
    """A game record that is malformed, or that does not replay to what it claims."""


__all__ = ["CatalogueError", "DrawError", "IllegalMoveError", "InvalidMoveError", "RecordError"]
