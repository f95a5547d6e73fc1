"""docs/architecture.md's table of what a new expansion touches, counted: every file it lists
exists, every file marked for an expansion names it, and the counts written under the table
are the table's."""

from __future__ import annotations

import re
from pathlib import Path

from carcassonne import _core

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"

# The table's columns, the expansions (registry names) and the words that name each in code,
# comments and data.
COLUMNS = {
    "R": ("river", ("river",)),
    "A": ("abbot", ("abbot", "garden")),
    "TB": ("traders_builders", ("traders", "builder", "pig", "goods")),
    "TC": ("toll_collectors", ("toll",)),
    "FT": ("fortune_teller", ("fortune",)),
    "BT": ("big_top", ("big_top", "bigtop", "big top", "acrobat", "ringmaster", "animal")),
}
COUNTED = {
    "R": "River",
    "A": "Abbot",
    "TB": "Traders & Builders",
    "TC": "Toll Collectors",
    "FT": "Fortune Teller",
    "BT": "Under the Big Top",
}


def table() -> tuple[list[str], list[tuple[list[str], set[str]]]]:
    """The table's expansion columns and its rows: (files, the columns marked)."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## What a new expansion touches", 1)[1]
    lines = [ln for ln in section.splitlines() if ln.startswith("|")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    columns = head[3:]
    rows = []
    for ln in lines[2:]:
        cells = [c.strip() for c in ln.strip("|").split("|")]
        files = re.findall(r"`([^`]+)`", cells[1])
        marked = {col for col, c in zip(columns, cells[3:], strict=True) if c == "x"}
        rows.append((files, marked))
    return columns, rows


def names(path: Path, words: tuple[str, ...]) -> bool:
    paths = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    for p in paths:
        text = p.read_text(encoding="utf-8", errors="replace").lower()
        if any(w in text for w in words):
            return True
    return False


def test_the_table_covers_every_expansion_of_the_registry():
    columns, _ = table()
    assert columns == list(COLUMNS)
    assert sorted(name for name, _ in COLUMNS.values()) == sorted(_core.EXPANSIONS)


def test_every_file_marked_for_an_expansion_names_it():
    _, rows = table()
    assert len(rows) > 10
    for files, marked in rows:
        for f in files:
            path = ROOT / f
            assert path.exists(), f"{f} in the table does not exist"
            for col in marked:
                assert names(path, COLUMNS[col][1]), f"{f} is marked for {col} but never names it"


def test_the_counts_under_the_table_are_the_tables():
    _, rows = table()
    counts = {
        col: len({f for files, marked in rows if col in marked for f in files}) for col in COLUMNS
    }
    text = DOC.read_text(encoding="utf-8").split("## What a new expansion touches", 1)[1]
    said = " ".join(text.split("Files per expansion", 1)[1].split())
    for col, title in COUNTED.items():
        assert f"{title} {counts[col]}" in said, (title, counts[col])
