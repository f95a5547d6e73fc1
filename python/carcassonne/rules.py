"""Rule configuration: which expansions are in play and the options where sources differ."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# option -> (allowed values, default, rule id). Booleans accept True/False only.
_OPTIONS: dict[str, tuple[tuple[Any, ...], Any, str]] = {
    "river": ((True, False), True, "R1-R7"),
    "abbot": ((True, False), True, "A1-A5"),
    "small_city": ((True, False), False, "B13"),
    "river_start": (("shuffle", "discard"), "shuffle", "R2"),
    "traders_builders": ((None, "C3.1", "C2"), None, "TB1-TB12"),
    "toll_collectors": ((True, False), False, "TC1-TC7"),
    "fortune_teller": ((True, False), False, "FT1-FT9"),
    "big_top": ((True, False), False, "BT1-BT11"),
    # Tile editions: the C3 River's spring has a road and its lake a monastery; the C2 art of
    # the Fortune Teller has a garden on tile 05 (docs/catalogue.md, "Editions").
    "river_edition": (("C3", "C2"), "C3", "R1"),
    "fortune_teller_edition": (("C2", "C1"), "C2", "FT1"),
}

# An edition option other than its default needs its expansion: option -> expansion option.
_EDITION_NEEDS = {"river_edition": "river", "fortune_teller_edition": "fortune_teller"}


class Rules:
    """Which rules are in play. The default is the C3 base box: River and Abbot on.

    >>> Rules(river=False).river
    False

    An unknown option or a bad value raises ``ValueError`` naming the valid ones.
    """

    __slots__ = ("_values",)

    def __init__(self, **options: Any) -> None:
        values = {name: default for name, (_, default, _) in _OPTIONS.items()}
        for name, value in options.items():
            if name not in _OPTIONS:
                raise ValueError(
                    f"unknown rule option {name!r}; valid options: {', '.join(_OPTIONS)}"
                )
            allowed = _OPTIONS[name][0]
            if not any(value is a or (isinstance(a, str) and value == a) for a in allowed):
                raise ValueError(
                    f"rule option {name!r} must be one of "
                    f"{', '.join(repr(a) for a in allowed)}; got {value!r}"
                )
            values[name] = value
        for name, needs in _EDITION_NEEDS.items():
            if values[name] != _OPTIONS[name][1] and not values[needs]:
                raise ValueError(
                    f"rule option {name}={values[name]!r} needs {needs}=True ({needs} is off)"
                )
        object.__setattr__(self, "_values", values)

    @classmethod
    def base(cls, **options: Any) -> Rules:
        """The base game alone (no River, no Abbot)."""
        return cls(**{"river": False, "abbot": False, **options})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        if not isinstance(data, Mapping):
            raise ValueError(f"rules must be a mapping of options, not {type(data).__name__}")
        return cls(**dict(data))

    @staticmethod
    def options() -> dict[str, tuple[Any, ...]]:
        """Every option with its allowed values."""
        return {name: allowed for name, (allowed, _, _) in _OPTIONS.items()}

    def to_dict(self) -> dict[str, Any]:
        return dict(self._values)

    def replace(self, **options: Any) -> Rules:
        return Rules(**{**self._values, **options})

    def __getattr__(self, name: str) -> Any:
        try:
            return object.__getattribute__(self, "_values")[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Rules are immutable; use replace()")

    def __reduce__(self) -> tuple:
        # Rules travel to worker processes (executors, Dask) by their options.
        return (Rules.from_dict, (self.to_dict(),))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rules) and self._values == other._values

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._values.items())))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self._values.items())
        return f"Rules({inner})"
