"""Rule configuration: which expansions are in play and the options where sources differ.

:class:`Rules` is the engine's own class (``carcassonne._core.Rules``): option names, allowed
values, defaults and validation have one source, the Rust core. This module adds the one
parser of option text (the command line, results tables).
"""

from __future__ import annotations

from typing import Any

from carcassonne._core import Rules

# The words of option values as people write and read them (the command line, docs/rules.md,
# help, messages, variant labels): ``on`` and ``off``; ``off`` also switches off an
# expansion with editions (None in Python). The same synonyms hold for every option.
ON_WORDS = ("on", "yes", "true", "1")
OFF_WORDS = ("off", "no", "false", "0")


def option_value(name: str, value: Any) -> Any:
    """One rule option's value as written (``-o NAME=VALUE`` on the command line, a results
    table's cell) -> the value ``Rules`` takes: on/off words for switches (``off`` for an
    expansion with editions: None; synonyms :data:`ON_WORDS`, :data:`OFF_WORDS`), whole
    numbers, choices in any case, tile counts as text. The one parser of option text; a value it
    cannot read is returned as given, for ``Rules`` to refuse with the valid choices. A whole
    number that is not one raises ``ValueError``."""
    allowed = Rules.options().get(name, ())
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
    if any(isinstance(a, bool) for a in allowed) and v in ON_WORDS + OFF_WORDS:
        return v in ON_WORDS
    for a in allowed:
        if isinstance(a, str) and v == a.lower():
            return a
    return value


def value_word(value: Any) -> str:
    """An option's value as people write it: ``on``/``off`` for a switch, ``off`` for an
    expansion switched off (None), else its text."""
    if value is True:
        return "on"
    if value is False or value is None:
        return "off"
    return str(value)


def option_words(name: str) -> list[str]:
    """The values of an option as people write them (``["off", "C3.1", "C2"]``); tile
    counts: ``ID:N;ID:N|@FILE`` (``;`` between counts, as a ``--variant`` needs)."""
    return ["ID:N;ID:N|@FILE" if a is str else value_word(a) for a in Rules.options().get(name, ())]


def is_allowed(name: str, value: Any) -> bool:
    """Whether ``value`` (as :func:`option_value` reads it) is one of the option's values
    (tile counts: any text, which the engine checks)."""
    allowed = Rules.options().get(name, ())
    if str in allowed:
        return isinstance(value, str)
    return any(value is a or (type(value) is type(a) and value == a) for a in allowed)


__all__ = [
    "OFF_WORDS",
    "ON_WORDS",
    "Rules",
    "is_allowed",
    "option_value",
    "option_words",
    "value_word",
]


def rules_label(rules: Rules, sep: str = ",") -> str:
    """The options of ``rules`` that differ from the defaults, ``NAME=VALUE`` joined by
    ``sep`` (``default`` when none): a variant's name when the user gives none."""
    default = Rules().to_dict()
    diff = [f"{k}={value_word(v)}" for k, v in rules.to_dict().items() if default[k] != v]
    return sep.join(diff) or "default"
