# ruff: noqa: F401
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

# One concept per module (schema, writer, reader, summary); every name stays importable as
# `carcassonne.table.NAME`.
from carcassonne.table.reader import (
    _BOOLS,
    _NATURAL,
    _existing,
    _fits,
    _json_cols,
    _parquet_file,
    _read_csv,
    _read_jsonl,
    _read_parquet,
    _typed,
    check_rows,
    read_batches,
    read_meta,
)
from carcassonne.table.schema import (
    BASE,
    FORMATS,
    POINTS,
    RULE,
    TableError,
    _rule_kind,
    format_of,
    rows,
    rule_value,
    schema_columns,
)
from carcassonne.table.summary import REQUIRED, TableSummary, _complete_games, find_game, summarise
from carcassonne.table.writer import BUFFER_ROWS, TableWriter, _csv_text, _tokens
