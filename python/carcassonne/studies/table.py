"""The results table of every study command: one row per game and seat, written chunk by chunk
and read back in bounded batches, with every row checked.

Formats, chosen by the file's extension: Parquet (``.parquet``, ``.pq``; needs pyarrow, the
``study`` extra), CSV (``.csv``) and JSON Lines (``.jsonl``, ``.ndjson``). The columns are
:data:`COLUMNS`, in that order (docs/studies.md lists their meanings): the cell (``variant``,
its options ``rules`` and one ``rule_<option>`` column per rule option, ``skill``,
``players``), the game (``master``, ``deal``, ``rotation`` of ``rotations``, ``seed``,
``deal_version``: which games a seed plays, 1 in tables written before it), the
seat (``seat``, ``player``, ``policy``) and what happened (``score``, ``won``, ``win_share``,
``rank``, ``margin``, ``turns``, ``discarded``, ``points_<source>``, the replayed
``lead_changes``, ``lead_turn``, ``figures_unused``, ``trajectory``) and the game's measured
luck (``luck_events``, ``luck_score``, ``luck_win``, ``luck_margin``; 0 when not measured,
and in tables written before them).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from carcassonne import _core
from carcassonne.errors import quote
from carcassonne.rules import Rules, option_value
from carcassonne.rules import rules_label as _rules_label
from carcassonne.studies.plan import StudyError
from carcassonne.studies.results import Results

SOURCES: tuple[str, ...] = tuple(_core.SOURCES)
FORMATS = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".csv": "csv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
}
POINTS = "points_"
RULE = "rule_"
# Rows a reader hands on at a time: small enough that the text of a batch being parsed
# (a Python object per field) costs little beside the table read so far.
BATCH_ROWS = 8_192
# The longest line (CSV, JSON Lines) a reader accepts: a row of this table is far shorter
# (a trajectory is a few hundred numbers), so anything longer is not a results table.
MAX_LINE = 1 << 20


def _rule_kind(name: str) -> str:
    allowed = Rules.options()[name]
    if all(isinstance(a, bool) for a in allowed):
        return "b"
    if all(isinstance(a, int) and not isinstance(a, bool) for a in allowed):
        return "i"
    return "s"


# column -> kind ('s' text, 'i' integer, 'u' unsigned 64, 'f' float, 'b' bool)
COLUMNS: dict[str, str] = {
    "master": "u",
    "variant": "s",
    "rules": "s",
    "skill": "s",
    "players": "i",
    "deal": "i",
    "rotation": "i",
    "rotations": "i",
    "seed": "u",
    "deal_version": "i",
    "seat": "i",
    "player": "i",
    "policy": "s",
    "score": "i",
    "won": "b",
    "win_share": "f",
    "rank": "i",
    "margin": "i",
    "turns": "i",
    "discarded": "i",
    **{POINTS + s: "i" for s in SOURCES},
    "lead_changes": "i",
    "lead_turn": "i",
    "figures_unused": "i",
    "trajectory": "s",
    "luck_events": "i",
    "luck_score": "f",
    "luck_win": "f",
    "luck_margin": "f",
    **{RULE + name: _rule_kind(name) for name in Rules.options()},
}


def rule_cell(name: str, value: Any) -> Any:
    """Rule option ``name``'s ``value`` as a row holds it (text: an option switched off, None,
    is an empty cell)."""
    if COLUMNS[RULE + name] == "s":
        return "" if value is None else str(value)
    return value


# Columns a table written before them lacks, and their value there: tables before deal
# versions were dealt by version 1; before a rule option existed every game played its
# default, before a point source existed it scored nothing, before luck was measured a game
# has no luck (0 events, every correction 0). Derived from the option table and the sources,
# so a new option or source leaves older tables readable.
OLD_DEFAULTS: dict[str, Any] = {
    "deal_version": 1,
    "luck_events": 0,
    "luck_score": 0.0,
    "luck_win": 0.0,
    "luck_margin": 0.0,
    **{POINTS + s: 0 for s in SOURCES},
    **{RULE + name: rule_cell(name, value) for name, value in Rules.defaults().items()},
}
# The luck columns (a game whose luck was not measured: 0 events, every correction 0).
LUCK_COLUMNS = ("luck_events", "luck_score", "luck_win", "luck_margin")
DTYPES = {"s": object, "i": np.int64, "u": np.uint64, "f": np.float64, "b": bool}


def format_of(path: str | os.PathLike[str], fmt: str | None = None) -> str:
    """The table format of ``path``: ``fmt`` if given (it may not contradict a known
    extension: a file is never written in one format under another's name), else the
    extension's."""
    ext = Path(path).suffix.lower()
    if fmt:
        if fmt not in set(FORMATS.values()):
            raise StudyError(f"unknown table format {quote(fmt)}; valid: parquet, csv, jsonl")
        if ext in FORMATS and FORMATS[ext] != fmt:
            raise StudyError(
                f"{str(path)!r} names a {FORMATS[ext]} file but the format is {fmt}: "
                "change the extension or the format"
            )
        return fmt
    if ext not in FORMATS:
        raise StudyError(
            f"cannot tell the table format of {str(path)!r}: use .parquet, .csv or .jsonl"
        )
    return FORMATS[ext]


def rules_label(rules: Rules) -> str:
    """The options of ``rules`` that differ from the defaults (``default`` when none), joined
    by ``;`` (a variant's options may hold commas, as tile counts do)."""
    return _rules_label(rules, ";")


# -- rows ----------------------------------------------------------------------------------


def rows_of(
    res: Results,
    *,
    variant: str,
    skill: str,
    policies: Sequence[str],
    rotation: int = 0,
    rotations: int = 1,
    ties: str = "split",
    paths: Mapping[int, dict[str, Any]] | None = None,
) -> dict[str, np.ndarray]:
    """One row per game and seat of a batch played in seat order ``rotation`` (game-major);
    ``policies``: each seat's policy (or agent) in that order."""
    g, p = len(res), res.players
    n = g * p
    scores = res.scores.astype(np.int64)
    won = res.won()
    k = won.sum(axis=1)
    share = won / (k[:, None] if ties == "split" else 1)
    ordered = np.sort(scores, axis=1)
    margin = ordered[:, -1] - ordered[:, -2]
    rank = 1 + (scores[:, None, :] > scores[:, :, None]).sum(axis=2)
    cols: dict[str, np.ndarray] = {
        "master": np.full(n, res.master_seed, np.uint64),
        "variant": np.full(n, variant, object),
        "rules": np.full(n, rules_label(res.rules), object),
        "skill": np.full(n, skill, object),
        "players": np.full(n, p, np.int64),
        "deal": np.repeat(res.games(), p),
        "rotation": np.full(n, rotation, np.int64),
        "rotations": np.full(n, rotations, np.int64),
        "seed": np.repeat(res.seed.astype(np.uint64), p),
        "deal_version": np.full(n, _core.DEAL_VERSION, np.int64),
        "seat": np.tile(np.arange(p, dtype=np.int64), g),
        "player": np.tile((np.arange(p, dtype=np.int64) - rotation) % p, g),
        "policy": np.tile(np.array(policies, object), g),
        "score": scores.reshape(-1),
        "won": won.reshape(-1),
        "win_share": share.reshape(-1).astype(np.float64),
        "rank": rank.reshape(-1).astype(np.int64),
        "margin": np.repeat(margin, p),
        "turns": np.repeat(res.turns.astype(np.int64), p),
        "discarded": np.repeat(res.discarded.astype(np.int64), p),
    }
    for s, name in enumerate(res.sources):
        cols[POINTS + name] = res.breakdown[:, :, s].astype(np.int64).reshape(-1)
    lead_changes = np.full(n, -1, np.int64)
    lead_turn = np.full(n, -1, np.int64)
    unused = np.full(n, -1, np.int64)
    traj = np.full(n, "", object)
    for i, d in enumerate(res.games()):
        path = (paths or {}).get(int(d))
        if path is None:
            continue
        at = slice(i * p, (i + 1) * p)
        lead_changes[at] = path["lead_changes"]
        lead_turn[at] = path["lead_turn"]
        unused[at] = path["figures_unused"]
        traj[at] = [" ".join(map(str, t)) for t in path["trajectory"]]
    cols.update(lead_changes=lead_changes, lead_turn=lead_turn, figures_unused=unused)
    cols["trajectory"] = traj
    luck = res.luck or {}
    zero = np.zeros(g)
    cols["luck_events"] = np.repeat(np.asarray(luck.get("luck_events", zero), np.int64), p)
    for name in ("luck_score", "luck_win"):
        cols[name] = np.asarray(luck.get(name, np.zeros((g, p))), np.float64).reshape(-1)
    cols["luck_margin"] = np.repeat(np.asarray(luck.get("luck_margin", zero), np.float64), p)
    for name, value in res.rules.to_dict().items():
        kind = COLUMNS[RULE + name]
        cols[RULE + name] = np.full(n, rule_cell(name, value), DTYPES[kind])
    return {c: cols[c] for c in COLUMNS}


def concat(parts: Sequence[Mapping[str, np.ndarray]]) -> dict[str, np.ndarray]:
    if not parts:
        return {c: np.zeros(0, DTYPES[k]) for c, k in COLUMNS.items()}
    return {
        c: np.concatenate([np.asarray(p[c], DTYPES[k]) for p in parts]) for c, k in COLUMNS.items()
    }


def _concat_releasing(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """:func:`concat` of batches that are not used again, each batch's column freed as soon
    as it is copied: the peak is the table and one column, not the table twice."""
    if not parts:
        return concat([])
    out = {}
    for c, k in COLUMNS.items():
        out[c] = np.concatenate([np.asarray(p.pop(c), DTYPES[k]) for p in parts])
    return out


def _codes(column: np.ndarray) -> tuple[np.ndarray, int]:
    """Each row's value as a small integer (the index of its distinct value), and how many."""
    values, codes = np.unique(column, return_inverse=True)
    return codes.reshape(-1), len(values)


def rule_value(name: str, value: Any) -> Any:
    """A rule option's value as read from a table cell (bool, int or text) -> the value
    ``Rules`` takes."""
    options = Rules.options()
    if name not in options:
        raise StudyError(f"unknown rule option {quote(name)} in the table")
    if isinstance(value, np.generic):
        value = value.item()
    if str in options[name]:  # free text (tile counts): the engine checks it
        text = "" if value is None else str(value)
        if text.strip().startswith("@"):
            # A study writes its counts out; a table may come from anyone: it opens no file.
            raise StudyError(
                f"rule option {name!r} is {quote(text)} in the table: a table writes its tile "
                "counts out (ID:N,...), it cannot name a file (@FILE)"
            )
        return text
    if value is None or value == "":
        if None in options[name]:
            return None
        raise StudyError(f"rule option {name!r} has no value in the table")
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
    raise StudyError(f"rule option {name!r} has the value {quote(value)} in the table")


def rules_of(cols: Mapping[str, np.ndarray], i: int) -> Rules:
    """The rules of row ``i`` (from its ``rule_<option>`` columns)."""
    try:
        return Rules(
            **{
                c[len(RULE) :]: rule_value(c[len(RULE) :], cols[c][i])
                for c in COLUMNS
                if c.startswith(RULE)
            }
        )
    except ValueError as e:
        raise StudyError(f"row {i + 1}: its rules cannot be played: {e}") from None


# -- writing -------------------------------------------------------------------------------


def _csv_text(value: str) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="").writerow([value])
    return buf.getvalue()


def _tokens(col: np.ndarray, quote_: Any, null: str) -> list[str]:
    if col.dtype == bool:
        return np.where(col, "true", "false").tolist()
    if col.dtype == object:
        memo: dict[Any, str] = {None: null}
        return [memo[v] if v in memo else memo.setdefault(v, quote_(str(v))) for v in col]
    if col.dtype.kind == "f":
        return [repr(float(x)) for x in col]
    return col.astype(str).tolist()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def remove_stale(path: Path) -> None:
    """Remove the hidden files that runs killed while writing ``path`` left beside it
    (``.NAME.PID.partial``, ``.NAME.PID.writing``), those of processes that are gone: a live
    run's files are its own."""
    prefix = f".{path.name}."
    try:
        names = [e.name for e in os.scandir(path.parent) if e.name.startswith(prefix)]
    except OSError:
        return
    for name in names:
        pid, _, kind = name[len(prefix) :].partition(".")
        if kind in ("partial", "writing") and pid.isdigit() and not _alive(int(pid)):
            with contextlib.suppress(OSError):
                (path.parent / name).unlink()


class TableWriter:
    """Streams rows (:func:`rows_of` columns) to a table file, each :meth:`write` reaching
    the file whole: CSV and JSON Lines append lines; Parquet, whose footer comes last, writes
    the whole table again to a hidden ``.NAME.PID.writing`` file, the earlier row groups
    copied and the new rows as one more, and renames it over the table. So a run killed at
    any moment (even SIGKILL) leaves a readable table holding every batch written before.
    ``temporary``: write to a hidden ``.NAME.PID.partial`` file beside ``path`` that
    :meth:`close` renames over it (a failed or killed run leaves ``path`` as it was; the
    next writer of ``path`` removes such files left by processes that are gone). Errors name
    ``path``, never the hidden files; :meth:`abort` removes what this writer wrote (a full
    disk leaves no partial file)."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        fmt: str | None = None,
        *,
        meta: Mapping[str, Any] | None = None,
        temporary: bool = False,
    ) -> None:
        self.path = Path(path)
        self.format = format_of(path, fmt)
        self.meta = dict(meta or {})
        self.rows = 0
        self._target = (
            self.path.with_name(f".{self.path.name}.{os.getpid()}.partial")
            if temporary
            else self.path
        )
        self._writing = self.path.with_name(f".{self.path.name}.{os.getpid()}.writing")
        self._schema: Any = None
        self._file: Any = None
        if self.format == "parquet":
            try:
                import pyarrow  # noqa: F401
                import pyarrow.parquet  # noqa: F401
            except ImportError:
                raise StudyError(
                    "writing Parquet needs pyarrow: pip install 'carcassonne[study]' "
                    "(or write .csv / .jsonl)"
                ) from None
        remove_stale(self.path)
        try:
            if self.format != "parquet":
                self._file = open(self._target, "w", encoding="utf-8", newline="")
                if self.format == "csv":
                    self._file.write(",".join(_csv_text(c) for c in COLUMNS) + "\n")
                    self._file.flush()
            else:
                self._write_parquet(concat([]))  # an empty table at once: never a 0-byte file
        except OSError as e:
            self.abort()
            raise StudyError(f"cannot write {str(self.path)!r}: {e.strerror or e}") from None

    def write(self, cols: Mapping[str, np.ndarray]) -> None:
        """Append rows (every column of :data:`COLUMNS`)."""
        try:
            self._write(cols)
        except OSError as e:  # a full disk, a vanished mount: one clear line
            raise StudyError(f"cannot write {str(self.path)!r}: {e.strerror or e}") from None

    def _write(self, cols: Mapping[str, np.ndarray]) -> None:
        n = len(cols["deal"])
        if not n:
            return
        self.rows += n
        if self.format == "parquet":
            self._write_parquet(cols)
            return
        if self.format == "csv":
            toks = [_tokens(np.asarray(cols[c]), _csv_text, "") for c in COLUMNS]
            text = "\n".join(map(",".join, zip(*toks, strict=True))) + "\n"
        else:
            template = "{" + ", ".join(f"{json.dumps(c)}: %s" for c in COLUMNS) + "}"
            toks = [_tokens(np.asarray(cols[c]), json.dumps, "null") for c in COLUMNS]
            text = "\n".join(template % row for row in zip(*toks, strict=True)) + "\n"
        self._file.write(text)
        self._file.flush()

    def _write_parquet(self, cols: Mapping[str, np.ndarray]) -> None:
        """The table so far plus ``cols``, written whole beside it and renamed over it."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        if self._schema is None:
            kinds = {"s": pa.string(), "i": pa.int64(), "u": pa.uint64(), "f": pa.float64()}
            fields = [pa.field(c, kinds.get(k, pa.bool_())) for c, k in COLUMNS.items()]
            meta = {"carcassonne": json.dumps(self.meta, default=str)}
            self._schema = pa.schema(fields, metadata=meta)
        table = pa.table(
            {c: pa.array(v, type=self._schema.field(c).type) for c, v in cols.items()},
            schema=self._schema,
        )
        before = pq.ParquetFile(self._target) if self._target.is_file() and self.rows else None
        try:
            with open(self._writing, "wb") as f:
                with pq.ParquetWriter(f, self._schema) as w:
                    if before is not None:
                        for g in range(before.num_row_groups):  # one batch at a time
                            if before.metadata.row_group(g).num_rows:
                                w.write_table(before.read_row_group(g))
                    if len(table) or before is None:
                        w.write_table(table)
                f.flush()
                os.fsync(f.fileno())
        finally:
            if before is not None:
                before.close()
        os.replace(self._writing, self._target)

    def close(self) -> None:
        """Finish the file (and rename the temporary file over ``path``). A failure removes
        what this writer wrote."""
        try:
            if self._file is not None:
                f, self._file = self._file, None
                f.close()
            if self._target != self.path:
                os.replace(self._target, self.path)
        except OSError as e:
            self.abort()
            raise StudyError(f"cannot write {str(self.path)!r}: {e.strerror or e}") from None

    def abort(self) -> None:
        """Close and remove the file this writer wrote (a write failed: no partial table)."""
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()
        self._file = None
        for f in (self._writing, self._target):
            if f.is_file():  # never a device such as /dev/null
                with contextlib.suppress(OSError):
                    f.unlink()

    def __enter__(self) -> TableWriter:
        return self

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        if isinstance(exc, StudyError | OSError):
            self.abort()
        else:
            self.close()


# -- reading -------------------------------------------------------------------------------


def read_batches(
    path: str | os.PathLike[str],
    fmt: str | None = None,
    batch_rows: int = BATCH_ROWS,
    *,
    partial_tail: bool = False,
) -> Iterator[dict[str, np.ndarray]]:
    """The table's rows, a batch at a time, as typed numpy columns (every column of
    :data:`COLUMNS`; a value that cannot be one is refused with its row number). Lines are
    read at most :data:`MAX_LINE` characters at a time, so no file makes this hold more than
    a batch. ``partial_tail``: a last line cut short (a run killed while writing) is left
    out instead of refused."""
    path = _existing(path)
    fmt = format_of(path, fmt)
    first = 1
    if fmt == "parquet":
        raw: Iterator[dict[str, list[Any]]] = _parquet_batches(path, batch_rows)
    elif fmt == "csv":
        raw = _csv_batches(path, batch_rows, partial_tail)
    else:
        raw = _jsonl_batches(path, batch_rows, partial_tail)
    for batch in raw:
        cols = {c: _typed(path, c, batch[c], first) for c in COLUMNS}
        check_rows(path, cols, first)
        first += len(cols["deal"])
        yield cols


def _existing(path: str | os.PathLike[str]) -> Path:
    path = Path(path)
    if not path.is_file():
        what = "not a regular file" if path.exists() else "not found"
        raise StudyError(f"results table {str(path)!r} {what}")
    return path


def _typed(path: Path, name: str, values: list[Any], first: int) -> np.ndarray:
    kind = COLUMNS[name]
    if isinstance(values, np.ndarray) and values.dtype == DTYPES[kind] and kind != "s":
        return values
    out = np.zeros(len(values), DTYPES[kind])
    # One object per distinct text: a column repeats a few values (variant, rules, policy),
    # and a str per row would cost some 50 bytes a row for each text column.
    texts: dict[str, str] = {}
    for i, v in enumerate(values):
        if isinstance(v, np.generic):
            v = v.item()
        try:
            if kind == "s":
                text = "" if v is None else str(v)
                out[i] = texts.setdefault(text, text)
            elif kind == "b":
                word = v if isinstance(v, bool) else _BOOLS.get(str(v).strip().lower())
                if word is None:
                    raise ValueError
                out[i] = word
            elif kind == "f":
                out[i] = float(v)
            else:
                # Digits only, as a study writes them: int() would also take True, "1_000"
                # and " 5 ".
                if isinstance(v, bool) or (isinstance(v, float) and not v.is_integer()):
                    raise ValueError
                if isinstance(v, str) and not _WHOLE.fullmatch(v):
                    raise ValueError
                out[i] = int(v)
        except (TypeError, ValueError, OverflowError):
            what = {"b": "true or false", "f": "a number"}.get(kind, "a whole number that fits")
            raise StudyError(
                f"{str(path)!r} row {first + i}: {name} is {quote(v)}, not {what}"
            ) from None
    return out


_BOOLS = {"true": True, "1": True, "false": False, "0": False}
_WHOLE = re.compile(r"-?[0-9]+")


def _not_a_table(path: Path, missing: str) -> StudyError:
    return StudyError(
        f"{str(path)!r} is not a results table of this version: no column {quote(missing)} "
        "(tables of 'carcassonne simulate|compare|study --out')"
    )


def _parquet_batches(path: Path, batch_rows: int) -> Iterator[dict[str, list[Any]]]:
    pf = _parquet_file(path)
    names = pf.schema_arrow.names
    for c in COLUMNS:
        if c not in names and c not in OLD_DEFAULTS:
            raise _not_a_table(path, c)
    present = [c for c in COLUMNS if c in names]
    try:
        for batch in pf.iter_batches(batch_size=batch_rows, columns=present):
            yield {
                **{c: [OLD_DEFAULTS[c]] * batch.num_rows for c in COLUMNS if c not in names},
                **{
                    name: _column(col)
                    for name, col in zip(batch.schema.names, batch.columns, strict=True)
                },
            }
    except Exception as e:  # pyarrow raises several types for a damaged file
        raise StudyError(f"{str(path)!r} is not a readable Parquet file: {e}") from None


def _column(col: Any) -> np.ndarray:
    """A Parquet column as numpy; text through a dictionary, so that a value repeated on
    every row is one object, not one per row."""
    import pyarrow as pa

    if not (pa.types.is_string(col.type) or pa.types.is_large_string(col.type)):
        return col.to_numpy(zero_copy_only=False)
    enc = col.dictionary_encode()
    values = np.array([*enc.dictionary.to_pylist(), ""], dtype=object)  # "" for a null
    return values[enc.indices.fill_null(len(enc.dictionary)).to_numpy(zero_copy_only=False)]


def _parquet_file(path: Path) -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise StudyError(
            "reading Parquet needs pyarrow: pip install 'carcassonne[study]'"
        ) from None
    try:
        return pq.ParquetFile(path)
    except Exception as e:  # pyarrow raises several types for a bad file
        raise StudyError(f"{str(path)!r} is not a readable Parquet file: {e}") from None


def _lines(path: Path, partial_tail: bool) -> Iterator[tuple[int, str]]:
    """The file's lines (number, text), each at most MAX_LINE bytes, decoded as UTF-8."""
    with open(path, "rb") as f:
        number = 0
        while True:
            raw = f.readline(MAX_LINE + 1)
            if not raw:
                return
            number += 1
            if len(raw) > MAX_LINE:
                raise StudyError(
                    f"{str(path)!r} line {number} is longer than {MAX_LINE:,} bytes: "
                    "not a results table"
                )
            if not raw.endswith(b"\n") and partial_tail:
                return  # the last line, cut short by a killed writer
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise StudyError(f"{str(path)!r} line {number} is not UTF-8 text") from None
            yield number, line.removeprefix("\ufeff") if number == 1 else line


def _csv_batches(path: Path, batch_rows: int, partial_tail: bool) -> Iterator[dict[str, list]]:
    lines = _lines(path, partial_tail)
    first = next(lines, None)
    if first is None:
        raise StudyError(f"{str(path)!r} is empty: no header row")
    header = next(csv.reader([first[1]]), [])
    # A column named twice: which one is the table's is anybody's guess, so neither is.
    twice = next((c for c in COLUMNS if header.count(c) > 1), None)
    if twice is not None:
        raise StudyError(f"{str(path)!r} names the column {quote(twice)} twice")
    for c in COLUMNS:
        if c not in header and c not in OLD_DEFAULTS:
            raise _not_a_table(path, c)
    at = {c: header.index(c) for c in COLUMNS if c in header}

    def columns(batch: list[list[str]]) -> dict[str, list[Any]]:
        return {
            c: [r[at[c]] for r in batch] if c in at else [OLD_DEFAULTS[c]] * len(batch)
            for c in COLUMNS
        }

    batch: list[list[str]] = []
    for number, line in lines:
        try:
            row = next(csv.reader([line]), [])
        except csv.Error as e:
            raise StudyError(f"{str(path)!r} line {number} is not CSV: {e}") from None
        if len(row) != len(header):
            raise StudyError(
                f"{str(path)!r} line {number} has {len(row)} fields, not {len(header)}"
            )
        batch.append(row)
        if len(batch) >= batch_rows:
            yield columns(batch)
            batch = []
    if batch:
        yield columns(batch)


def _jsonl_batches(path: Path, batch_rows: int, partial_tail: bool) -> Iterator[dict[str, list]]:
    batch: list[dict[str, Any]] = []
    for number, line in _lines(path, partial_tail):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            raise StudyError(f"{str(path)!r} line {number} is not JSON") from None
        if not isinstance(row, dict):
            raise StudyError(f"{str(path)!r} line {number} is not a JSON object")
        for c in COLUMNS:
            if c not in row and c not in OLD_DEFAULTS:
                if not batch and number == 1:
                    raise _not_a_table(path, c)
                raise StudyError(f"{str(path)!r} line {number} has no field {quote(c)}")
        batch.append(row)
        if len(batch) >= batch_rows:
            yield {c: [r.get(c, OLD_DEFAULTS.get(c)) for r in batch] for c in COLUMNS}
            batch = []
    if batch:
        yield {c: [r.get(c, OLD_DEFAULTS.get(c)) for r in batch] for c in COLUMNS}


def check_rows(path: str | os.PathLike[str], r: Mapping[str, np.ndarray], first: int) -> None:
    """Values no study writes (a table edited by hand, or another file); ``first``: the
    batch's first row, counted from 1."""
    p = r["players"]
    checks = [
        ("players", (p < 2) | (p > 6), "not from 2 to 6"),
        ("rotations", (r["rotations"] < 1) | (r["rotations"] > p), "not from 1 to players"),
        ("rotation", (r["rotation"] < 0) | (r["rotation"] >= r["rotations"]), "not a seat order"),
        ("seat", (r["seat"] < 0) | (r["seat"] >= p), "not a seat of its game"),
        ("player", (r["player"] < 0) | (r["player"] >= p), "not a player of its game"),
        ("deal", r["deal"] < 0, "negative"),
        (
            "deal_version",
            (r["deal_version"] < 1) | (r["deal_version"] > _core.DEAL_VERSION),
            f"not a deal version of this engine (1 to {_core.DEAL_VERSION}; a newer engine's "
            "table?)",
        ),
        ("win_share", ~((r["win_share"] >= 0) & (r["win_share"] <= 1)), "not from 0 to 1"),
        ("score", r["score"] < 0, "negative"),
        ("turns", r["turns"] < 0, "negative"),
        ("discarded", r["discarded"] < 0, "negative"),
        *((c, r[c] < 0, "negative") for c in COLUMNS if c.startswith(POINTS)),
        ("luck_events", r["luck_events"] < 0, "negative"),
        *((c, ~np.isfinite(r[c]), "not a finite number") for c in LUCK_COLUMNS[1:]),
    ]
    for name, bad, what in checks:
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise StudyError(
                f"{str(path)!r} row {first + i}: {name} is {quote(r[name][i].item())}, {what}"
            )


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


GAME = ("variant", "skill", "players", "deal", "rotation")


def _same_in_every_row(col: np.ndarray, where: str, what: str, why: str) -> None:
    """Refuse a table whose column ``col`` changes between rows, naming the first that differs."""
    if (col != col[0]).any():
        i = int(np.flatnonzero(col != col[0])[0])
        raise StudyError(f"{where!r} row {i + 1}: {what} {col[i]}, not {col[0]} as row 1: {why}")


def read_table(
    path: str | os.PathLike[str], fmt: str | None = None, *, partial_tail: bool = False
) -> dict[str, np.ndarray]:
    """A whole table as numpy columns, checked as one study: a single master seed, every game
    once with all its seats, every deal in all its seat orders. ``partial_tail`` (to go on
    with a killed run): leave out a last line cut short and the unfinished deals at the end
    of each cell instead of refusing them."""
    cols = _concat_releasing(list(read_batches(path, fmt, partial_tail=partial_tail)))
    where = str(path)
    n = len(cols["deal"])
    if not n:
        return cols
    _same_in_every_row(cols["master"], where, "master seed", "one table holds one study")
    _same_in_every_row(
        cols["deal_version"], where, "deal version", "one table holds games of one engine's deals"
    )
    # one key per game and seat: (cell, deal, rotation, seat); a cell is numbered from its
    # columns' codes (no text per row: that cost some 100 bytes a row at the peak)
    cell = np.zeros(n, np.int64)
    for column in ("variant", "skill", "players"):
        codes, distinct = _codes(cols[column])
        cell = cell * distinct + codes
    order = np.lexsort((cols["seat"], cols["rotation"], cols["deal"], cell))
    key = np.stack([cell[order], cols["deal"][order], cols["rotation"][order], cols["seat"][order]])
    same = (key[:, 1:] == key[:, :-1]).all(axis=0)
    if same.any():
        j = int(np.flatnonzero(same)[0])
        a, b = sorted((int(order[j]) + 1, int(order[j + 1]) + 1))
        raise StudyError(f"{where!r} rows {a} and {b} are the same game and seat: a duplicate")
    # rows per game must be its seats; games per deal its seat orders
    game = np.concatenate([[True], (key[:3, 1:] != key[:3, :-1]).any(axis=0)])
    starts = np.flatnonzero(game)
    counts = np.diff(np.append(starts, n))
    players = cols["players"][order][starts]
    deal_start = np.concatenate([[True], (key[:2, 1:] != key[:2, :-1]).any(axis=0)])
    per_deal = np.add.reduceat(np.ones(n, np.int64), np.flatnonzero(deal_start))
    nrot = cols["rotations"][order][np.flatnonzero(deal_start)]
    nplay = cols["players"][order][np.flatnonzero(deal_start)]
    bad_game = counts != players
    bad_deal = per_deal != nrot * nplay
    _check_no_deal_missing(where, cols, key, order, np.flatnonzero(deal_start))
    if bad_game.any() or bad_deal.any():
        if partial_tail:
            return _drop_unfinished(where, cols, cell, order, deal_start, bad_deal)
        i = (
            starts[np.flatnonzero(bad_game)[0]]
            if bad_game.any()
            else (np.flatnonzero(deal_start)[np.flatnonzero(bad_deal)[0]])
        )
        r = int(order[i])
        raise StudyError(
            f"{where!r} row {r + 1}: deal {cols['deal'][r]} of {cols['variant'][r]} | "
            f"{cols['skill'][r]} | {cols['players'][r]} players lacks some seat or seat order "
            "(a row was deleted?)"
        )
    return cols


def _check_no_deal_missing(
    where: str, cols: dict[str, np.ndarray], key: np.ndarray, order: np.ndarray, ds: np.ndarray
) -> None:
    """Every cell plays the same deals from the same first one, without a gap: a deal missing
    in one cell (its rows deleted) would pass every other check and never be played again."""
    cell, deal = key[0][ds], key[1][ds]
    same = cell[1:] == cell[:-1]
    gap = same & (deal[1:] != deal[:-1] + 1)
    firsts = np.concatenate([[True], ~same])
    late = firsts & (deal != deal[firsts].min())
    if gap.any() or late.any():
        j = int(np.flatnonzero(gap)[0]) + 1 if gap.any() else int(np.flatnonzero(late)[0])
        r = int(order[ds[j]])
        before = (
            f"deal {deal[j - 1]}" if gap.any() else f"deal {deal[firsts].min()} in another cell"
        )
        raise StudyError(
            f"{where!r} row {r + 1}: deal {cols['deal'][r]} of {cols['variant'][r]} | "
            f"{cols['skill'][r]} | {cols['players'][r]} players comes after {before}: the "
            "deals between are missing (rows deleted?)"
        )


def _drop_unfinished(
    where: str,
    cols: dict[str, np.ndarray],
    cell: np.ndarray,
    order: np.ndarray,
    deal_start: np.ndarray,
    bad_deal: np.ndarray,
) -> dict[str, np.ndarray]:
    """Leave out each cell's unfinished deals at its end (a killed run stops in the middle
    of its last batch); an unfinished deal followed by a finished one is refused."""
    starts = np.flatnonzero(deal_start)
    ends = np.append(starts[1:], len(order))
    keep = np.ones(len(order), bool)
    cut: set[int] = set()
    for s, e, bad in zip(starts, ends, bad_deal, strict=True):
        c = int(cell[order[s]])
        if bad:
            cut.add(c)
            keep[order[s:e]] = False
        elif c in cut:
            r = int(order[s])
            raise StudyError(
                f"{where!r} row {r + 1}: deal {cols['deal'][r]} of {cols['variant'][r]} | "
                f"{cols['skill'][r]} | {cols['players'][r]} players follows a deal that lacks "
                "some seat or seat order (a row was deleted?)"
            )
    return {k: v[keep] for k, v in cols.items()}


def find_game(
    path: str | os.PathLike[str],
    deal: int,
    variant: str | None = None,
    skill: str | None = None,
    players: int | None = None,
    rotation: int | None = None,
) -> dict[str, Any]:
    """The rows of one game of a table (deal ``deal``; the other arguments choose among the
    table's cells and seat orders when it has several): its rules, players, seed, deal
    version, per-seat policies and scores."""
    wanted = {"variant": variant, "skill": skill, "players": players, "rotation": rotation}
    found: list[dict[str, Any]] = []
    versions: set[int] = set()
    for batch in read_batches(path):
        versions.update(np.unique(batch["deal_version"]).tolist())
        if len(versions) > 1:  # as read_table refuses it
            raise StudyError(
                f"{str(path)!r} mixes deal versions {sorted(versions)}: one table holds games "
                "of one engine's deals"
            )
        sel = batch["deal"] == deal
        for k, v in wanted.items():
            if v is not None:
                sel &= batch[k] == v
        for i in np.flatnonzero(sel):
            row = {k: batch[k][i] for k in COLUMNS}
            row["_rules"] = rules_of(batch, int(i))
            found.append(row)
    if not found:
        chosen = "".join(f", {k} {v}" for k, v in wanted.items() if v is not None)
        raise StudyError(f"no game with deal {deal}{chosen} in the table")
    games = {tuple(str(r[k]) for k in GAME) for r in found}
    if len(games) > 1:
        for k, option in (
            ("variant", "--variant"),
            ("skill", "--skill"),
            ("players", "--players"),
            ("rotation", "--rotation"),
        ):
            values = sorted({str(r[k]) for r in found})
            if len(values) > 1:
                raise StudyError(
                    f"deal {deal} was played in several games: choose one with {option} "
                    f"({', '.join(values)})"
                )
    found.sort(key=lambda r: int(r["seat"]))
    first = found[0]
    return {
        "variant": str(first["variant"]),
        "deal": int(first["deal"]),
        "rules": first["_rules"],
        "players": int(first["players"]),
        "seed": int(first["seed"]),
        "deal_version": int(first["deal_version"]),
        "policy": ",".join(str(r["policy"]) for r in found),
        "scores": [int(r["score"]) for r in found],
    }
