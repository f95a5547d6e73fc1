"""Rule configuration: which expansions are in play and the options where sources differ."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from carcassonne import _core
from carcassonne.errors import quote

# option -> (allowed values, default, rule id). Booleans accept True/False only; ints are
# ints, not bools; ``(str,)`` means any text the engine validates (tile counts).
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
    # Study variables (docs/rules.md, "Rule options"): components on/off and readings.
    "farmers": ((True, False), True, "B8, B22"),
    "gardens": ((True, False), True, "A1-A3"),
    "builder": ((True, False), True, "TB4-TB8"),
    "pig": ((True, False), True, "TB9-TB12"),
    "goods": ((True, False), True, "TB1-TB3"),
    "ringmaster": ((True, False), True, "BT10-BT11"),
    "acrobats": ((True, False), True, "BT6-BT9"),
    "max_fortune_tellers": ((0, 1, 2, 3, 4), 2, "FT2"),
    "river_turns": (("consecutive", "strict"), "consecutive", "R5"),
    "toll_flip": (("turn", "owner"), "turn", "TC5"),
    "tiles": ((str,), "", "B1"),
}

# An edition option other than its default needs its expansion: option -> expansion option.
_EDITION_NEEDS = {"river_edition": "river", "fortune_teller_edition": "fortune_teller"}


def _allowed(value: Any, allowed: tuple[Any, ...]) -> bool:
    for a in allowed:
        if a is str:
            return isinstance(value, str)
        if value is a:
            return True
        if isinstance(a, str) and value == a:
            return True
        if type(a) is int and type(value) is int and value == a:
            return True
    return False


# Words that switch an option off: to None for an option whose "off" is None (an expansion
# with editions), to False for an on/off option.
OFF_WORDS = ("off", "none", "no", "false", "0")
_BOOL_WORDS = {"on": True, "true": True, "yes": True, "1": True}
_BOOL_WORDS.update((w, False) for w in ("off", "false", "no", "0"))


def option_value(name: str, value: Any) -> Any:
    """One rule option's value as written (``-o NAME=VALUE`` on the command line, a results
    table's cell) -> the value ``Rules`` takes: on/off words for switches and editions, whole
    numbers, choices in any case, tile counts as text. The one parser of option text; a value it
    cannot read is returned as given, for ``Rules`` to refuse with the valid choices. A whole
    number that is not one raises ``ValueError``."""
    allowed = _OPTIONS[name][0] if name in _OPTIONS else ()
    if not isinstance(value, str):
        return value
    if str in allowed:  # tile counts: ID:N,... or @FILE; the engine checks them
        return value.strip()
    v = value.strip().lower()
    if None in allowed and v in OFF_WORDS:
        return None
    if allowed and all(type(a) is int for a in allowed):
        try:
            return int(v)
        except ValueError:
            raise ValueError(f"rule option {name}={value!r} must be a whole number") from None
    if any(isinstance(a, bool) for a in allowed) and v in _BOOL_WORDS:
        return _BOOL_WORDS[v]
    for a in allowed:
        if isinstance(a, str) and v == a.lower():
            return a
    return value


def tile_counts_text(value: Any) -> str:
    """Option ``tiles`` as text: ``"CAP:3,ROAD_WE:6"``, a mapping ``{"CAP": 3}``, a path
    (``os.PathLike``, or text starting with ``@``) to a file of such counts or to a catalogue
    in the ``.tiles`` format whose counts are taken."""
    if isinstance(value, Mapping):
        items = []
        for k, v in value.items():
            if not isinstance(k, str) or isinstance(v, bool) or not isinstance(v, int):
                raise ValueError(
                    f"rule option 'tiles': {quote(k)}: {quote(v)} must be a tile id: count"
                )
            items.append(f"{k}:{v}")
        return ",".join(items)
    if isinstance(value, os.PathLike) or (isinstance(value, str) and value.startswith("@")):
        path = os.fspath(value)
        path = path[1:] if isinstance(value, str) else path
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read(1_000_000)
        except OSError as e:
            raise ValueError(f"rule option 'tiles': cannot read {path!r}: {e.strerror}") from None
        lines = [ln.split("#", 1)[0].strip() for ln in text.splitlines()]
        if any(ln.startswith("tile ") for ln in lines):
            try:
                cat = _core.Catalogue.from_text(text)
            except ValueError as e:
                raise ValueError(f"rule option 'tiles': {path!r}: {e}") from None
            return ",".join(f"{t}:{cat.tile(t)['count']}" for t in cat.tile_ids())
        return ",".join(ln for ln in lines if ln)
    if not isinstance(value, str):
        raise ValueError(
            f"rule option 'tiles' must be text like 'CAP:3,ROAD_WE:6', a mapping or a path, "
            f"not {type(value).__name__}"
        )
    return value


class Rules:
    """Which rules are in play. The default is the C3 base box: River and Abbot on.

    >>> Rules(river=False).river
    False

    An unknown option or a bad value raises ``ValueError`` naming the valid ones; so does an
    option set away from its default where it changes nothing (``river_start`` without the
    River, ``gardens`` without the Abbot, ``pig`` without Traders & Builders, ...).
    ``tiles`` changes how many copies of tiles the bag holds: ``Rules(tiles="CAP:3")``.
    """

    __slots__ = ("_values",)

    def __init__(self, **options: Any) -> None:
        values = {name: default for name, (_, default, _) in _OPTIONS.items()}
        for name, value in options.items():
            if name not in _OPTIONS:
                raise ValueError(
                    f"unknown rule option {quote(name)}; valid options: {', '.join(_OPTIONS)}"
                )
            allowed = _OPTIONS[name][0]
            if name == "tiles":
                value = tile_counts_text("" if value is None else value)
            if not _allowed(value, allowed):
                raise ValueError(
                    f"rule option {name!r} must be one of "
                    f"{', '.join(repr(a) for a in allowed)}; got {quote(value)}"
                )
            values[name] = value
        for name, needs in _EDITION_NEEDS.items():
            if values[name] != _OPTIONS[name][1] and not values[needs]:
                raise ValueError(
                    f"rule option {name}={values[name]!r} needs {needs}=True ({needs} is off)"
                )
        # The engine refuses options with no effect under the others and tile counts that
        # break the game, and gives the counts their canonical text.
        values["tiles"] = _core.check_rules(**values)
        object.__setattr__(self, "_values", values)

    @classmethod
    def base(cls, **options: Any) -> Rules:
        """The base game alone (no River, no Abbot)."""
        return cls(**{"river": False, "abbot": False, **options})

    @classmethod
    def lenient(cls, **options: Any) -> Rules:
        """Like ``Rules(**options)``, but options with no effect under the others go back to
        their defaults instead of being refused: for sweeping a grid of options.

        >>> Rules.lenient(river=False, river_start="discard") == Rules(river=False)
        True
        """
        for name in ("tiles",):
            if name in options and options[name] is not None:
                options[name] = tile_counts_text(options[name])
        idle = _core.idle_rule_options(**{k: v for k, v in options.items() if k in _OPTIONS})
        return cls(**{k: v for k, v in options.items() if k not in idle})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        if not isinstance(data, Mapping):
            raise ValueError(f"rules must be a mapping of options, not {type(data).__name__}")
        return cls(**dict(data))

    @staticmethod
    def options() -> dict[str, tuple[Any, ...]]:
        """Every option with its allowed values (``(str,)``: text, for ``tiles``)."""
        return {name: allowed for name, (allowed, _, _) in _OPTIONS.items()}

    @staticmethod
    def defaults() -> dict[str, Any]:
        """Every option with its default value."""
        return {name: default for name, (_, default, _) in _OPTIONS.items()}

    def changed(self) -> dict[str, Any]:
        """The options that differ from their defaults."""
        return {k: v for k, v in self._values.items() if v != _OPTIONS[k][1]}

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
        # Only the options away from their defaults: Rules(**those) is the same rules.
        inner = ", ".join(f"{k}={v!r}" for k, v in self.changed().items())
        return f"Rules({inner})"
