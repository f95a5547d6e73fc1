"""The columns of a results table, their types, and the rows of a batch of results."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from carcassonne.errors import quote
from carcassonne.results import Results
from carcassonne.rules import Rules, option_value

FORMATS = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".csv": "csv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
}
POINTS = "points_"
RULE = "rule_"
# name -> numpy dtype of the fixed columns ("O": text)
BASE = {
    "variant": "O",
    "game": "int64",
    "seed": "uint64",
    "players": "int8",
    "seat": "int8",
    "policy": "O",
    "score": "int32",
    "won": "bool",
    "rank": "int8",
    "turns": "int16",
    "discarded": "int16",
}


class TableError(ValueError):
    """A results table that cannot be written or read (one clear line)."""


def format_of(path: str | os.PathLike[str], fmt: str | None = None) -> str:
    """The table format of ``path``: ``fmt`` if given (it may not contradict a known
    extension: a file is never written in one format under another's name), else the
    extension's."""
    ext = Path(path).suffix.lower()
    if fmt:
        if fmt not in set(FORMATS.values()):
            raise TableError(f"unknown table format {quote(fmt)}; valid: parquet, csv, jsonl")
        if ext in FORMATS and FORMATS[ext] != fmt:
            raise TableError(
                f"{str(path)!r} names a {FORMATS[ext]} file but the format is {fmt}: "
                "change the extension or the format"
            )
        return fmt
    if ext not in FORMATS:
        raise TableError(
            f"cannot tell the table format of {str(path)!r}: use .parquet, .csv or .jsonl"
        )
    return FORMATS[ext]


def _rule_kind(name: str) -> str:
    allowed = Rules.options()[name]
    if all(isinstance(a, bool) for a in allowed):
        return "bool"
    if all(isinstance(a, int) and not isinstance(a, bool) for a in allowed):
        return "int64"
    return "O"


def rule_value(name: str, value: Any) -> Any:
    """A rule option's value as read from a table cell (bool, int or text) -> the value
    ``Rules`` takes."""
    options = Rules.options()
    if name not in options:
        raise TableError(f"unknown rule option {quote(name)} in the table")
    if isinstance(value, np.generic):
        value = value.item()
    if str in options[name]:  # free text (tile counts): the engine checks it
        return "" if value is None else str(value)
    if value is None or value == "":
        if None in options[name]:
            return None
        raise TableError(f"rule option {name!r} has no value in the table")
    try:
        read = option_value(name, value)
    except ValueError:
        read = value
    if read is None and None in options[name]:
        return None
    for a in options[name]:
        if a is None:
            continue
        if read is a or (type(read) is type(a) and read == a):
            return a
    raise TableError(f"rule option {name!r} has the value {quote(value)} in the table")


def schema_columns(sources: tuple[str, ...] | list[str]) -> dict[str, str]:
    """Every column of a results table with its numpy dtype ("O": text)."""
    cols = dict(BASE)
    for s in sources:
        cols[POINTS + s] = "int32"
    for name in Rules.options():
        cols[RULE + name] = _rule_kind(name)
    return cols


def rows(res: Results, variant: str) -> dict[str, np.ndarray]:
    """One row per game and seat (game-major), as numpy columns."""
    n, p = len(res), res.players
    scores = res.scores.astype(np.int32)
    rank = 1 + (scores[:, None, :] > scores[:, :, None]).sum(axis=2)
    seat = np.tile(np.arange(p, dtype=np.int8), n)
    pol = np.array(res.seat_policies(), dtype=object)
    cols: dict[str, np.ndarray] = {
        "variant": np.full(n * p, variant, dtype=object),
        "game": np.repeat(res.games(), p),
        "seed": np.repeat(res.seed.astype(np.uint64), p),
        "players": np.full(n * p, p, dtype=np.int8),
        "seat": seat,
        "policy": pol[seat] if n else np.zeros(0, dtype=object),
        "score": scores.reshape(-1),
        "won": res.won().reshape(-1),
        "rank": rank.astype(np.int8).reshape(-1),
        "turns": np.repeat(res.turns.astype(np.int16), p),
        "discarded": np.repeat(res.discarded.astype(np.int16), p),
    }
    for s, name in enumerate(res.sources):
        cols[POINTS + name] = res.breakdown[:, :, s].astype(np.int32).reshape(-1)
    for name, value in res.rules.to_dict().items():
        kind = _rule_kind(name)
        text = value if kind != "O" or value is None else str(value)
        cols[RULE + name] = np.full(n * p, text, dtype=kind)
    return cols
