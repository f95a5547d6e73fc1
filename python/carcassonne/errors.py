"""Exceptions. Every one is a ``ValueError`` that says what is wrong; none changes a game.
Messages quote the input they refuse in at most about 100 characters (:func:`quote`).

A step the game refuses raises a ``PlayError``, one of: ``InvalidMoveError`` (text that is not
a move), ``IllegalMoveError`` (a move the rules do not allow now; ``.rule`` is the id of the
rule it breaks, as in docs/rules.md, e.g. ``"B5"`` or ``"TB4"``, or None when the refusal is
not a rule's, such as an action index outside an environment's mask) and ``DrawError`` (a tile
or animal token that cannot be drawn now). The one exception that is no ``ValueError`` is
``GameInUseError``, a ``RuntimeError``: one game used from two threads at once."""

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

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


_F = TypeVar("_F", bound=Callable[..., Any])


class OneThread:
    """The guard that keeps one game (or environment) to one thread at a time: every public
    call takes it without waiting, and a call from a second thread while the first is inside
    raises :class:`GameInUseError` before anything changes. Reentrant: a call may make others
    on the same thread."""

    __slots__ = ("_lock", "what")

    def __init__(self, what: str) -> None:
        self._lock = threading.RLock()
        self.what = what

    def __enter__(self) -> None:
        if not self._lock.acquire(blocking=False):
            raise GameInUseError(
                f"{self.what} is in use by another thread (inside a call, a search or a step): "
                f"one {self.what}, one thread at a time; give each thread its own copy"
            )

    def __exit__(self, *exc: object) -> None:
        self._lock.release()

    def __reduce__(self) -> tuple[Any, ...]:
        # A copy (pickle, deepcopy) is another object with a guard of its own.
        return (OneThread, (self.what,))


def one_thread(fn: _F) -> _F:
    """A method run under its object's :class:`OneThread` guard (``self._owner``)."""

    @functools.wraps(fn)
    def guarded(self: Any, *args: Any, **kwargs: Any) -> Any:
        with self._owner:
            return fn(self, *args, **kwargs)

    return guarded  # type: ignore[return-value]


__all__ = [
    "CatalogueError",
    "DrawError",
    "GameInUseError",
    "IllegalMoveError",
    "InvalidMoveError",
    "PlayError",
    "RecordError",
]
