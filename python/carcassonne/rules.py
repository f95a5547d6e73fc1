"""Rule configuration: which expansions are in play and the options where sources differ.

:class:`Rules` is the engine's own class (``carcassonne._core.Rules``): option names, allowed
values, defaults and validation have one source, the Rust core. This module adds the one
parser of option text (the command line, results tables).
"""

from __future__ import annotations

from typing import Any

from carcassonne._core import Rules

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
    if any(isinstance(a, bool) for a in allowed) and v in _BOOL_WORDS:
        return _BOOL_WORDS[v]
    for a in allowed:
        if isinstance(a, str) and v == a.lower():
            return a
    return value


__all__ = ["OFF_WORDS", "Rules", "option_value"]


def rules_label(rules: Rules, sep: str = ",") -> str:
    """The options of ``rules`` that differ from the defaults, ``NAME=VALUE`` joined by
    ``sep`` (``default`` when none): a variant's name when the user gives none."""
    default = Rules().to_dict()
    diff = [f"{k}={v}" for k, v in rules.to_dict().items() if default[k] != v]
    return sep.join(diff) or "default"
