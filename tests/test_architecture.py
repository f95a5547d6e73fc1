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
    "FT": ("fortune_teller", ("fortune", "tent")),
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


# -- the Rust crate's modules ---------------------------------------------------------------

SRC = ROOT / "src"
_PATH = r"\w+(?:::\w+)*"


def rust_modules(src: Path = SRC) -> dict[str, Path]:
    """Each module of the crate (``crate::a::b``) and its file."""
    mods = {}
    for p in sorted(src.rglob("*.rs")):
        parts = list(p.relative_to(src).with_suffix("").parts)
        if parts[-1] in ("mod", "lib"):
            parts = parts[:-1]
        mods["::".join(["crate", *parts])] = p
    return mods


def _code(path: Path) -> str:
    """A file's code without comments and without its unit tests (they use, not make, the
    module's place)."""
    text = path.read_text(encoding="utf-8")
    text = text.split("#[cfg(test)]\nmod tests", 1)[0]
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def _items(text: str, at: int) -> list[str]:
    """The leading paths of the items of the brace group opening at ``text[at]``."""
    depth, start, items = 0, at + 1, []
    for i in range(at, len(text)):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if (c == "," and depth == 1) or depth == 0:
            m = re.match(r"\s*(" + _PATH + ")", text[start:i])
            if m:
                items.append(m.group(1))
            start = i + 1
        if depth == 0:
            return items
    return items


def rust_uses(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules that module ``name`` names in its code: ``crate::``, ``super::`` and
    ``self::`` paths, brace groups, and paths through the modules it declares."""
    text = _code(path)
    parent = name.rpartition("::")[0] or "crate"
    children = re.findall(r"\bmod\s+(\w+)\s*;", text)
    starts = {"crate": "crate", "super": parent, "self": name}
    starts.update({c: f"{name}::{c}" for c in children})
    found = set()
    pattern = r"(?<![\w:$])(" + "|".join(map(re.escape, starts)) + r")((?:::\w+)*)(::\{)?"
    for m in re.finditer(pattern, text):
        base = starts[m.group(1)] + m.group(2)
        if m.group(1) in children and not m.group(2) and not m.group(3):
            continue  # the word alone (a field or a variable), not a path
        paths = [f"{base}::{item}" for item in _items(text, m.end() - 1)] if m.group(3) else [base]
        for p in paths:
            while p and p not in known:
                p = p.rpartition("::")[0]
            if p and p != name:
                found.add(p)
    return found


def rust_graph(src: Path = SRC) -> dict[str, set[str]]:
    mods = rust_modules(src)
    return {name: rust_uses(name, path, set(mods)) for name, path in mods.items()}


def circle_of(graph: dict[str, set[str]], m: str) -> set[str]:
    """The modules that ``m`` reaches and that reach ``m`` back (its import circle)."""

    def reach(start: str, edges: dict[str, set[str]]) -> set[str]:
        seen, todo = {start}, [start]
        while todo:
            for n in edges.get(todo.pop(), ()):
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen

    back: dict[str, set[str]] = {}
    for a, bs in graph.items():
        for b in bs:
            back.setdefault(b, set()).add(a)
    return reach(m, graph) & reach(m, back)


def test_the_engines_circle_holds_only_the_engine_and_the_expansions():
    # The engine and the expansions call each other (the registry's steps), so they form one
    # circle; learning, the players and the bindings stand on it and must not be drawn in
    # (an expansion naming learning's layout did: learning then changed with every rule).
    graph = rust_graph()
    circle = circle_of(graph, "crate::engine::state")
    assert {"crate::expansions", "crate::expansions::abbot", "crate::engine::scoring"} <= circle
    inside = ("crate::engine", "crate::expansions")
    # lib.rs is in it too: it re-exports the engine's vocabulary (`crate::Rules`, ...).
    outside = sorted(m for m in circle if m != "crate" and not m.startswith(inside))
    assert not outside, f"in the engine's import circle: {outside}"


def test_the_rust_graph_sees_every_kind_of_path():
    graph = rust_graph()
    assert "crate::expansions::layout" in graph["crate::learning::observation"]  # use crate::
    assert "crate::expansions::big_top" in graph["crate::expansions"]  # a declared module
    assert "crate::bindings::state" in graph["crate::bindings::search"]  # use super::
    assert "crate::engine::tiles::parse" not in graph["crate::engine::tiles::parse"]
    assert "crate::engine::tiles" in graph["crate::engine::tiles::parse"]  # super::{...}
    assert "crate::engine::rules" in graph["crate"]  # pub use engine::rules::{...}
