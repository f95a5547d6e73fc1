"""Reading a results table back in batches, with its rows checked."""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from carcassonne.errors import quote
from carcassonne.table.schema import BASE, POINTS, TableError, format_of


def _typed(name: str, values: list[Any]) -> np.ndarray:
    kind = BASE.get(name)
    if name.startswith(POINTS):
        kind = "int32"
    if kind is None or kind == "O":
        return np.array(values, dtype=object)
    if kind == "bool":
        out = np.zeros(len(values), dtype=bool)
        for i, v in enumerate(values):
            word = v if isinstance(v, bool) else _BOOLS.get(str(v).strip().lower())
            if word is None:
                raise TableError(f"column {name!r} holds {quote(v)}, not true or false")
            out[i] = word
        return out
    try:
        return np.fromiter((int(v) for v in values), dtype=kind, count=len(values))
    except (TypeError, ValueError, OverflowError):
        bad = next(v for v in values if not _fits(v, kind))
        raise TableError(
            f"column {name!r} holds {quote(bad)}, not a whole number that fits {kind}"
        ) from None


_BOOLS = {"true": True, "1": True, "false": False, "0": False}


def _fits(value: Any, kind: str) -> bool:
    try:
        np.array(int(value), dtype=kind)
    except (TypeError, ValueError, OverflowError):
        return False
    return True


# Integer columns that can never be negative.
_NATURAL = ("game", "score", "turns", "discarded")


def check_rows(path: str | os.PathLike[str], batch: dict[str, np.ndarray], first: int) -> None:
    """Refuse values no study writes (``first``: the batch's first row, counted from 1)."""

    def refuse(col: str, bad: np.ndarray, what: str) -> None:
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            v = batch[col][i]
            v = v.item() if isinstance(v, np.generic) else v
            raise TableError(f"{str(path)!r} row {first + i}: {col} is {quote(v)}, {what}")

    for col in ("players", "seat", *_NATURAL, *(c for c in batch if c.startswith(POINTS))):
        if batch[col].dtype.kind not in "iu":
            batch[col] = _typed(col, list(batch[col]))
    players, seat = batch["players"], batch["seat"]
    refuse("players", (players < 2) | (players > 6), "not from 2 to 6")
    refuse("seat", (seat < 0) | (seat >= players), "not a seat of its game (0 to players - 1)")
    for col in (*_NATURAL, *(c for c in batch if c.startswith(POINTS))):
        refuse(col, batch[col] < 0, "negative")


def read_batches(
    path: str | os.PathLike[str], fmt: str | None = None, batch_rows: int = 65_536
) -> Iterator[dict[str, np.ndarray]]:
    """The table's rows, a batch at a time, as numpy columns."""
    path = _existing(path)
    fmt = format_of(path, fmt)
    if fmt == "parquet":
        yield from _read_parquet(path, batch_rows)
    elif fmt == "csv":
        yield from _read_csv(path, batch_rows)
    else:
        yield from _read_jsonl(path, batch_rows)


def _existing(path: str | os.PathLike[str]) -> Path:
    path = Path(path)
    if not path.is_file():
        raise TableError(f"results file {str(path)!r} not found")
    return path


def read_meta(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The study description a Parquet table carries (empty for CSV and JSON Lines)."""
    if format_of(path) != "parquet":
        return {}
    pf = _parquet_file(_existing(path))
    raw = (pf.schema_arrow.metadata or {}).get(b"carcassonne")
    try:
        return json.loads(raw) if raw else {}
    except ValueError:
        return {}


def _parquet_file(path: Path) -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise TableError(
            "reading Parquet needs pyarrow: pip install 'carcassonne[study]'"
        ) from None
    try:
        return pq.ParquetFile(path)
    except Exception as e:  # pyarrow raises several types for a bad file
        raise TableError(f"{str(path)!r} is not a readable Parquet file: {e}") from None


def _read_parquet(path: Path, batch_rows: int) -> Iterator[dict[str, np.ndarray]]:
    pf = _parquet_file(path)
    for batch in pf.iter_batches(batch_size=batch_rows):
        out = {}
        for name, col in zip(batch.schema.names, batch.columns, strict=True):
            arr = col.to_numpy(zero_copy_only=False)
            out[name] = arr.astype(object) if arr.dtype.kind in "OUS" else arr
        yield out


def _read_csv(path: Path, batch_rows: int) -> Iterator[dict[str, np.ndarray]]:
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if not header:
            raise TableError(f"{str(path)!r} is empty: no header row")
        batch: list[list[str]] = []
        for line, row in enumerate(reader, start=2):
            if len(row) != len(header):
                raise TableError(
                    f"{str(path)!r} line {line} has {len(row)} fields, not {len(header)}"
                )
            batch.append(row)
            if len(batch) >= batch_rows:
                yield {
                    h: _typed(h, list(c))
                    for h, c in zip(header, zip(*batch, strict=True), strict=True)
                }
                batch = []
        if batch:
            yield {
                h: _typed(h, list(c)) for h, c in zip(header, zip(*batch, strict=True), strict=True)
            }


def _read_jsonl(path: Path, batch_rows: int) -> Iterator[dict[str, np.ndarray]]:
    with open(path, encoding="utf-8") as f:
        batch: list[dict[str, Any]] = []
        names: list[str] | None = None
        for i, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError:
                raise TableError(f"{str(path)!r} line {i} is not JSON") from None
            if not isinstance(row, dict):
                raise TableError(f"{str(path)!r} line {i} is not a JSON object")
            if names is None:
                names = list(row)
            batch.append(row)
            if len(batch) >= batch_rows:
                yield _json_cols(path, names, batch)
                batch = []
        if batch and names is not None:
            yield _json_cols(path, names, batch)


def _json_cols(path: Path, names: list[str], batch: list[dict[str, Any]]) -> dict[str, np.ndarray]:
    try:
        return {n: _typed(n, [r[n] for r in batch]) for n in names}
    except KeyError as e:
        raise TableError(f"{quote(str(path))}: a row has no field {quote(e.args[0])}") from None
