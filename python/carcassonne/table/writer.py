"""Writing a results table chunk by chunk (Parquet, CSV, JSON Lines)."""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from carcassonne.results import Results
from carcassonne.table.schema import TableError, format_of, rows

# Rows a Parquet writer gathers before writing them as one row group.
BUFFER_ROWS = 65_536


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
