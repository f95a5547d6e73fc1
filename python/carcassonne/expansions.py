"""What the expansions in play show on the table (``Game.expansions``): one read-out per
expansion that is on, each written by the expansion's own step in the engine
(``Expansion::read_out``), so this module names no expansion."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from carcassonne import _core


class ReadOut:
    """One expansion's public facts at the moment it was read, as read-only attributes
    (``game.expansions.big_top.at``); :meth:`as_dict` gives them all."""

    __slots__ = ("_facts", "_name")

    def __init__(self, name: str, facts: dict[str, Any]) -> None:
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_facts", facts)

    def __getattr__(self, fact: str) -> Any:
        facts = object.__getattribute__(self, "_facts")
        if fact in facts:
            return facts[fact]
        name = object.__getattribute__(self, "_name")
        raise AttributeError(f"{name} has no read-out {fact!r}; it has: {', '.join(facts)}")

    def __setattr__(self, fact: str, value: Any) -> None:
        raise AttributeError(f"{self._name}'s read-out is read-only")

    def __dir__(self) -> list[str]:
        return [*self._facts, "as_dict"]

    def as_dict(self) -> dict[str, Any]:
        """Every fact by name (a copy)."""
        return dict(self._facts)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ReadOut):
            return NotImplemented
        return (self._name, self._facts) == (other._name, other._facts)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        facts = ", ".join(f"{k}={v!r}" for k, v in self._facts.items())
        return f"{self._name}({facts})"


class Expansions:
    """The expansions that are on in a game, each an attribute holding its :class:`ReadOut`
    (``game.expansions.traders_builders.goods``). Iterating gives their names in the engine's
    registry order; an expansion that is off raises ``AttributeError`` naming its option."""

    __slots__ = ("_on",)

    def __init__(self, read_outs: dict[str, dict[str, Any]]) -> None:
        on = {name: ReadOut(name, facts) for name, facts in read_outs.items()}
        object.__setattr__(self, "_on", on)

    def __getattr__(self, name: str) -> ReadOut:
        on = object.__getattribute__(self, "_on")
        if name in on:
            return on[name]
        if name in _core.EXPANSIONS:
            raise AttributeError(
                f"{name} is off in this game: the rule option {name!r} turns it on"
            )
        raise AttributeError(
            f"no expansion {name!r}; the expansions: {', '.join(_core.EXPANSIONS)}"
        )

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("the expansions' read-outs are read-only")

    def __dir__(self) -> list[str]:
        return list(self._on)

    def __iter__(self) -> Iterator[str]:
        return iter(self._on)

    def __contains__(self, name: object) -> bool:
        return name in self._on

    def __len__(self) -> int:
        return len(self._on)

    def __repr__(self) -> str:
        return f"Expansions({', '.join(map(repr, self._on.values()))})"
