"""Study results as a table: one row per game and seat, written and read chunk by chunk.

Formats, chosen by the file's extension: Parquet (``.parquet``, ``.pq``; needs pyarrow, the
``study`` extra), CSV (``.csv``) and JSON Lines (``.jsonl``, ``.ndjson``). Columns:

- ``variant``: the variant's name (``compare``) or its rule options (``simulate``)
- ``game``: the game's index in the study; ``seed``: its own seed (``Game(rules, players,
  seed=seed)`` draws the same tiles; with the ``random`` policy :func:`carcassonne.agents
  .replay` replays it move by move); ``players``; ``seat`` (0-based, as ``Game.turn``);
  ``policy``: that seat's policy or agent
- ``score``, ``won`` (won or shared the win), ``rank`` (1 + players with a higher score),
  ``turns``, ``discarded`` (the game's, repeated on each seat's row)
- ``points_<source>`` for every point source (``carcassonne.SOURCES``)
- ``rule_<option>`` for every rule option (``Rules.options()``)

Writers buffer at most ``buffer_rows`` rows, so a million-game study never sits in memory.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from carcassonne.errors import quote
from carcassonne.rules import Rules
from carcassonne.simulate import Results
from carcassonne.stats import Comparison, Tally, format_differences

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


# Rows a Parquet writer gathers before writing them as one row group.
BUFFER_ROWS = 65_536


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
    for a in options[name]:
        if a is None:
            continue
        if value is a or (type(value) is type(a) and value == a):
            return a
        if isinstance(value, str) and value.strip().lower() == str(a).lower():
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


# -- writing -------------------------------------------------------------------------------


def _csv_text(value: str) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="").writerow([value])
    return buf.getvalue()


def _tokens(col: np.ndarray, quote: Any, null: str) -> list[str]:
    if col.dtype == bool:
        return np.where(col, "true", "false").tolist()
    if col.dtype == object:
        memo: dict[Any, str] = {None: null}
        return [memo[v] if v in memo else memo.setdefault(v, quote(str(v))) for v in col]
    return col.astype(str).tolist()


class TableWriter:
    """Streams results to a table file. Use as a context manager or call :meth:`close`;
    every chunk written before a close (or an interruption) is kept."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        fmt: str | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        buffer_rows: int | None = None,
    ) -> None:
        self.path = Path(path)
        self.format = format_of(path, fmt)
        self.meta = dict(meta or {})
        self.buffer_rows = buffer_rows or BUFFER_ROWS
        self.rows = 0
        self._buffer: list[dict[str, np.ndarray]] = []
        self._buffered = 0
        self._pq: Any = None
        self._file: Any = None
        self._columns: list[str] | None = None
        if self.format == "parquet":
            try:
                import pyarrow  # noqa: F401
                import pyarrow.parquet  # noqa: F401
            except ImportError:
                raise TableError(
                    "writing Parquet needs pyarrow: pip install 'carcassonne[study]' "
                    "(or write .csv / .jsonl)"
                ) from None
        try:
            if self.format != "parquet":
                self._file = open(self.path, "w", encoding="utf-8", newline="")
            else:
                self.path.open("wb").close()  # fail early on a bad path
        except OSError as e:
            raise TableError(f"cannot write {str(self.path)!r}: {e.strerror}") from None

    def write(self, res: Results, variant: str) -> None:
        """Append one chunk of results under the name ``variant``."""
        try:
            self._write(res, variant)
        except OSError as e:  # a full disk, a vanished mount: one clear line
            raise TableError(f"cannot write {str(self.path)!r}: {e.strerror or e}") from None

    def _write(self, res: Results, variant: str) -> None:
        cols = rows(res, variant)
        self.rows += len(cols["game"])
        if self.format == "parquet":
            self._buffer.append(cols)
            self._buffered += len(cols["game"])
            if self._buffered >= self.buffer_rows:
                self._flush_parquet()
        elif self.format == "csv":
            self._write_csv(cols)
        else:
            self._write_jsonl(cols)

    def _write_csv(self, cols: dict[str, np.ndarray]) -> None:
        if self._columns is None:
            self._columns = list(cols)
            self._file.write(",".join(_csv_text(c) for c in cols) + "\n")
        toks = [_tokens(cols[c], _csv_text, "") for c in self._columns]
        if toks and toks[0]:
            self._file.write("\n".join(map(",".join, zip(*toks, strict=True))) + "\n")

    def _write_jsonl(self, cols: dict[str, np.ndarray]) -> None:
        if self._columns is None:
            self._columns = list(cols)
        names = self._columns
        template = "{" + ", ".join(f"{json.dumps(c)}: %s" for c in names) + "}"
        toks = [_tokens(cols[c], json.dumps, "null") for c in names]
        if toks and toks[0]:
            self._file.write("\n".join(template % row for row in zip(*toks, strict=True)) + "\n")

    def _flush_parquet(self) -> None:
        if not self._buffer:
            return
        import pyarrow as pa
        import pyarrow.parquet as pq

        cols = {k: np.concatenate([b[k] for b in self._buffer]) for k in self._buffer[0]}
        self._buffer, self._buffered = [], 0
        if self._pq is None:
            fields = []
            for name, col in cols.items():
                t = pa.string() if col.dtype == object else pa.from_numpy_dtype(col.dtype)
                fields.append(pa.field(name, t))
            schema = pa.schema(fields, metadata={"carcassonne": json.dumps(self.meta, default=str)})
            self._pq = pq.ParquetWriter(self.path, schema)
        table = pa.table(
            {k: pa.array(v, type=self._pq.schema.field(k).type) for k, v in cols.items()},
            schema=self._pq.schema,
        )
        self._pq.write_table(table)

    def close(self) -> None:
        try:
            self._close()
        except OSError as e:
            raise TableError(f"cannot write {str(self.path)!r}: {e.strerror or e}") from None

    def _close(self) -> None:
        if self.format == "parquet":
            self._flush_parquet()
            if self._pq is not None:
                self._pq.close()
                self._pq = None
            elif self.rows == 0:
                self.path.unlink(missing_ok=True)
        elif self._file is not None:
            f, self._file = self._file, None
            f.close()

    def __enter__(self) -> TableWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- reading -------------------------------------------------------------------------------


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


# -- summarising a table -------------------------------------------------------------------


@dataclass
class TableSummary:
    """What :func:`summarise` finds in a results table."""

    tallies: dict[str, Tally]
    comparison: Comparison | None
    meta: dict[str, Any]
    rows: int = 0
    incomplete: int = 0  # rows of games that lack some seat
    notes: list[str] = field(default_factory=list)

    def text(self) -> str:
        parts = [t.summary() for t in self.tallies.values()]
        if self.comparison is not None:
            c = self.comparison
            parts.append(format_differences(c.differences(), c.baseline))
        parts += self.notes
        return "\n\n".join(parts)


REQUIRED = (
    "variant",
    "game",
    "seed",
    "players",
    "seat",
    "policy",
    "score",
    "won",
    "turns",
    "discarded",
)


def summarise(
    path: str | os.PathLike[str],
    baseline: str | None = None,
    fmt: str | None = None,
    *,
    batch_rows: int = 65_536,
) -> TableSummary:
    """Stream a results table into per-variant tallies and, when it holds several variants,
    a paired comparison (games matched by seed) of each with ``baseline`` (default: the
    study's baseline, else the first variant in the file)."""
    meta = read_meta(path)
    master = meta.get("seed") if isinstance(meta.get("seed"), int) else None
    base_name = baseline or meta.get("baseline")
    tallies: dict[str, Tally] = {}
    pending: dict[str, dict[str, np.ndarray] | None] = {}
    waiting: dict[str, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}
    comparison: Comparison | None = None
    comparable = True
    total = 0
    for batch in read_batches(path, fmt, batch_rows):
        missing = [c for c in REQUIRED if c not in batch]
        if missing:
            raise TableError(
                f"{quote(str(path))} is not a results table: no column {quote(missing[0])}"
            )
        check_rows(path, batch, total + 1)
        total += len(batch["game"])
        sources = [c[len(POINTS) :] for c in batch if c.startswith(POINTS)]
        variants = batch["variant"]
        for name in dict.fromkeys(variants.tolist()):
            part = {k: v[variants == name] for k, v in batch.items()}
            name = str(name)
            if name not in tallies:
                rules = {
                    k[len(RULE) :]: rule_value(k[len(RULE) :], part[k][0])
                    for k in part
                    if k.startswith(RULE)
                }
                tallies[name] = Tally(
                    int(part["players"][0]), sources, name=name, rules=rules, master_seed=master
                )
                pending[name] = None
                waiting[name] = []
            tally = tallies[name]
            prev = pending[name]
            if prev is not None:
                part = {k: np.concatenate([prev[k], part[k]]) for k in part}
            done, pending[name] = _complete_games(part, tally.players)
            if done is None:
                continue
            if tally.policies is None:
                tally.policies = [str(x) for x in done["policy"][0]]
            tally.add(
                done["score"], done["won"], done["breakdown"], done["turns"], done["discarded"]
            )
            if comparable:
                waiting[name].append((done["seed"], done["score"], done["won"]))
        if comparable and len({t.players for t in tallies.values()}) > 1:
            comparable = False
            waiting = {n: [] for n in waiting}
        names = list(tallies)
        if comparable and comparison is None and len(names) >= 2:
            base = base_name if base_name in tallies else (None if baseline else names[0])
            if base is not None:
                comparison = Comparison.empty(
                    names,
                    tallies[names[0]].players,
                    tallies[names[0]].sources,
                    baseline=base,
                    master_seed=master,
                )
                comparison.tallies = tallies
        if comparison is not None and comparable:
            for name in names:
                comparison.add_variant(name)
                for seeds, scores, won in waiting[name]:
                    comparison.add_games(name, seeds, scores, won)
                waiting[name] = []
    if not tallies:
        raise TableError(f"{str(path)!r} holds no games")
    if baseline is not None and baseline not in tallies:
        raise TableError(
            f"baseline {quote(baseline)} is not a variant of the table: {', '.join(tallies)}"
        )
    notes = []
    incomplete = sum(len(v["game"]) for v in pending.values() if v is not None)
    if incomplete:
        notes.append(f"({incomplete:,} rows belong to games that lack some seat: left out)")
    if not comparable:
        comparison = None
        notes.append("(variants have different player counts: no paired comparison)")
    if comparison is not None and sum(comparison.unpaired.values()):
        notes.append(
            f"({sum(comparison.unpaired.values()):,} games found no partner with the same "
            "seed in the baseline: left out of the differences)"
        )
    return TableSummary(tallies, comparison, meta, total, incomplete, notes)


def _complete_games(
    part: dict[str, np.ndarray], players: int
) -> tuple[dict[str, np.ndarray] | None, dict[str, np.ndarray] | None]:
    """Split rows into whole games (reshaped to (games, players)) and the rest."""
    order = np.lexsort((part["seat"], part["game"]))
    part = {k: v[order] for k, v in part.items()}
    game = part["game"]
    uniq, start, count = np.unique(game, return_index=True, return_counts=True)
    whole = count == players
    ok_game = np.isin(game, uniq[whole])
    if ok_game.any():
        # the seats of each whole game must be exactly 0..players-1
        seats = part["seat"][ok_game].reshape(-1, players)
        if not (seats == np.arange(players)).all():
            raise TableError("a game has a repeated or missing seat number")
    rest = {k: v[~ok_game] for k, v in part.items()}
    if not ok_game.any():
        return None, rest if len(rest["game"]) else None
    sel = {k: v[ok_game] for k, v in part.items()}
    k = len(sel["game"]) // players
    sources = [c for c in sel if c.startswith(POINTS)]
    done = {
        "seed": sel["seed"].reshape(k, players)[:, 0].astype(np.uint64),
        "score": sel["score"].reshape(k, players).astype(np.int64),
        "won": sel["won"].reshape(k, players).astype(bool),
        "turns": sel["turns"].reshape(k, players)[:, 0],
        "discarded": sel["discarded"].reshape(k, players)[:, 0],
        "policy": sel["policy"].reshape(k, players),
        "breakdown": np.stack([sel[c].reshape(k, players) for c in sources], axis=2)
        if sources
        else np.zeros((k, players, 0), np.int64),
    }
    return done, rest if len(rest["game"]) else None


def find_game(
    path: str | os.PathLike[str], game: int, variant: str | None = None
) -> dict[str, Any]:
    """The rows of game ``game`` (of ``variant``, or the only variant): rules, players, seed,
    per-seat policies and scores."""
    seen: list[str] = []
    rows_found: list[dict[str, Any]] = []
    for batch in read_batches(path):
        for name in dict.fromkeys(batch["variant"].tolist()):
            if str(name) not in seen:
                seen.append(str(name))
        sel = batch["game"] == game
        if variant is not None:
            sel &= batch["variant"] == variant
        for i in np.flatnonzero(sel):
            rows_found.append({k: v[i] for k, v in batch.items()})
    if variant is None and len(seen) > 1:
        raise TableError(f"the table holds several variants; choose one: {', '.join(seen)}")
    if variant is not None and variant not in seen:
        raise TableError(f"no variant {quote(variant)} in the table (it has {', '.join(seen)})")
    if not rows_found:
        raise TableError(f"no game {game} in the table")
    rows_found.sort(key=lambda r: int(r["seat"]))
    first = rows_found[0]
    rules = Rules(
        **{
            k[len(RULE) :]: rule_value(k[len(RULE) :], v)
            for k, v in first.items()
            if k.startswith(RULE)
        }
    )
    return {
        "variant": str(first["variant"]),
        "game": int(first["game"]),
        "rules": rules,
        "players": int(first["players"]),
        "seed": int(first["seed"]),
        "policy": ",".join(str(r["policy"]) for r in rows_found),
        "scores": [int(r["score"]) for r in rows_found],
    }
