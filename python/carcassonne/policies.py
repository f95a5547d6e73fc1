"""Native policies: their names, and a policy text for every seat or one per seat.

A policy text's syntax is the engine's (src/players/text.rs): seats separated by commas,
parameters after colons, and a value holding ``:``, ``,`` or ``"`` written in double quotes
(``expert:weights="C:\\w.txt"``, ``""`` for a quote inside). Python never splits a policy text
itself: :func:`seat_texts` and :func:`quote_value` are the engine's."""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from typing import Any

from carcassonne import _core

#: Every native player as (name, parameters, what it does), weakest first: the engine's own
#: table (``_core.players``), so a new player needs no edit here.
PLAYERS: tuple[tuple[str, str, str], ...] = tuple(_core.players())
POLICIES = tuple(name for name, _, _ in PLAYERS)


def seat_texts(policy: str) -> list[str]:
    """The seats' texts of a comma-separated policy text, split as the engine splits them (a
    comma inside a quoted value is the value's). ValueError for a quote left open."""
    return _core.policy_texts(policy)


def quote_value(value: str) -> str:
    """``value`` as a policy text writes it: as it is, or in double quotes when it holds
    ``:``, ``,`` or ``"`` (so ``f"expert:weights={quote_value(path)}"`` names any path)."""
    return _core.quote_value(value)


def player_parameters(name: str) -> list[tuple[str, str, Any, Any, str]]:
    """The parameters of native player ``name`` as (name, kind, default, range, help): the
    engine's table, which its parser checks policy texts against. ``kind`` is ``whole`` or
    ``number`` (range: lowest, highest), ``choice`` (range: its words, the first the
    default) or ``path`` (no default: the shipped weights)."""
    return _core.player_parameters(name)


def policy_text(name: str, **params: Any) -> str:
    """The policy text of native player ``name`` with ``params`` (values quoted as needed):
    ``policy_text("mcts", playouts=500, weights="C:\\w.txt")``. A name not in the player's
    table is a ValueError naming the valid ones; values are checked when the text is
    parsed."""
    names = [p[0] for p in player_parameters(name)]
    for key in params:
        if key not in names:
            valid = ", ".join(names) or "none"
            raise ValueError(f"unknown {name} parameter `{key}` (valid: {valid})")
    return name + "".join(f":{k}={quote_value(str(v))}" for k, v in params.items())


def policy_name(policy: str) -> str:
    """The player's name of one seat's policy text (``"mcts"`` for ``"mcts:playouts=9"``)."""
    return _core.policy_parts(policy)[0]


def policies_help() -> str:
    """One line per native player, for ``--help`` texts."""
    return "; ".join(f"{name}{params}: {what}" for name, params, what in PLAYERS)


def check_policy(policy: Any, players: int | None = None) -> str:
    """The canonical policy text of ``policy``: one native policy for every seat, or one per
    seat, as a comma-separated text (``"mcts:playouts=1000,greedy"``) or a list of texts.
    With ``players``, a list of seats must have exactly one policy per seat."""
    if isinstance(policy, (list, tuple)) and all(isinstance(p, str) for p in policy):
        if not policy or any(len(seat_texts(p)) != 1 for p in policy):
            raise ValueError(f"bad policy list {policy!r}: one policy text per seat")
        policy = ",".join(policy)
    if not isinstance(policy, str):
        raise ValueError(
            f"policy must be a str or a list of str (one per seat), not {type(policy).__name__}"
        )
    try:
        seats = canonical_seats(policy)
    except ValueError as e:
        raise ValueError(
            f"{e}; give one policy for every seat, or one per seat separated by commas"
        ) from None
    if players is not None and len(seats) not in (1, players):
        raise ValueError(
            f"{len(seats)} policies for {players} players ({policy!r}): give one policy for "
            "every seat, or exactly one per seat"
        )
    return ",".join(seats)


@functools.lru_cache(maxsize=256)
def canonical_seats(policy: str) -> tuple[str, ...]:
    """The engine's canonical seat texts of ``policy``: a study checks the same text at every
    step (options, plan, each chunk's results). Each seat's text is parsed once
    (:func:`parsed_seat`); errors are not kept (the next call parses again)."""
    return tuple(parsed_seat(seat).text for seat in seat_texts(policy))


# Parsed seats by text (as given and canonical), the most recently used last. Bounded, since a
# parsed seat holds its weights file's contents while it is kept.
_PARSED: OrderedDict[str, _core.Policy] = OrderedDict()
_PARSED_MOST = 64
_PARSED_LOCK = threading.Lock()


def parsed_seat(seat: str) -> _core.Policy:
    """One seat's policy text parsed by the engine, once per text in this process (while it
    is among the last texts used): the edge where a policy text is parsed. Never choose with
    it (it is shared): :func:`parsed_policy` and ``reseeded`` give players of their own."""
    with _PARSED_LOCK:
        policy = _PARSED.get(seat)
        if policy is not None:
            _PARSED.move_to_end(seat)
            return policy
    policy = _core.Policy(seat, 0)  # a ValueError keeps nothing
    with _PARSED_LOCK:
        _PARSED[seat] = _PARSED[policy.text] = policy
        while len(_PARSED) > _PARSED_MOST:
            _PARSED.popitem(last=False)
    return policy


def parsed_policy(policy: str, seed: int = 0) -> _core.Policy:
    """The players of a policy text (one for every seat, or one per seat) with the generator
    of the game with seed ``seed``, each seat's text parsed once (:func:`parsed_seat`): what a
    study hands to every chunk it plays in this process."""
    return _core.Policy.join([parsed_seat(seat) for seat in seat_texts(policy)], seed)


def policy_files(policy: str) -> list[str]:
    """The files a policy text would read (its ``weights=PATH`` parameters), found in the
    text alone: nothing is opened."""
    return [
        value
        for seat in seat_texts(policy)
        for key, value in _core.policy_parts(seat)[1]
        if key == "weights"
    ]
