"""The docs stay true where a fact is cheap to check: docs/rules.md cites every rule id with
tests and code that exist; every source path the docs cite exists; architecture.md's tree names
every module; the README lists every doc; the metrics, flags, policy texts, results columns and
terminal view the docs show are the program's."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULE_IDS = (
    [f"B{i}" for i in range(1, 24)]
    + [f"R{i}" for i in range(1, 8)]
    + [f"A{i}" for i in range(1, 6)]
    + [f"TB{i}" for i in range(1, 13)]
    + [f"TC{i}" for i in range(1, 8)]
    + [f"FT{i}" for i in range(1, 10)]
    + [f"BT{i}" for i in range(1, 12)]
    + [f"T{i}" for i in range(1, 8)]
)


def _test_names() -> set[str]:
    names = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        names |= set(re.findall(r"^def (test_\w+)", path.read_text(), re.M))
    return names


def _rows() -> dict[str, tuple[str, str]]:
    """docs/rules.md's rule rows: id -> (code cell, tests cell)."""
    doc = (ROOT / "docs" / "rules.md").read_text()
    return {
        m[1]: (m[2], m[3]) for m in re.finditer(r"^\| ([A-Z]+\d+) \| (.*?) \| (.*) \|$", doc, re.M)
    }


def _rust_source(*folders: Path) -> str:
    return "\n".join(
        p.read_text()
        for f in folders
        for p in sorted(f.rglob("*"))
        if p.suffix in (".rs", ".tiles")
    )


def test_every_rule_is_cited_with_existing_tests():
    rows = _rows()
    rust = re.findall(r"#\[test\]\s*fn (\w+)", _rust_source(ROOT / "tests", ROOT / "src"))
    names = _test_names() | set(rust)
    for rid in RULE_IDS:
        assert rid in rows, f"docs/rules.md has no row for {rid}"
        cited = re.findall(r"`(\w+)`", rows[rid][1])
        assert any(t.startswith("test_") for t in cited), f"docs/rules.md cites no test for {rid}"
        for t in cited:
            assert t in names, f"docs/rules.md cites {t} for {rid}, but no such test exists"


def test_every_code_name_in_the_rule_map_exists():
    """Each name in a row's code column (`State::draw`, `collect_tolls`, `Phase::Farmer`) is
    still a word of the engine's source: a renamed function shows here."""
    source = set(re.findall(r"\w+", _rust_source(ROOT / "src")))
    missing = [
        f"{rid}: {name}"
        for rid, (code, _) in _rows().items()
        for span in re.findall(r"`([^`]*)`", code)
        if not re.search(r"[/=]", span)  # a path (checked below) or tile data
        for name in re.findall(r"[A-Za-z_]\w*(?:::\w+)*", span)
        if not set(name.split("::")) <= source
    ]
    assert not missing, "docs/rules.md names code that does not exist:\n" + "\n".join(missing)


PATH = r"(?<![\w/])((?:src|python|tests|benches|examples)/[\w/.-]*\w)"


def test_every_source_path_the_docs_cite_exists():
    cited = set()
    for doc in [*(ROOT / "docs").glob("*.md"), ROOT / "README.md", ROOT / "BENCHMARKS.md"]:
        paths = re.findall(PATH, doc.read_text())
        cited |= {(doc.name, p) for p in paths}
    missing = sorted(f"{doc}: {p}" for doc, p in cited if not (ROOT / p).exists())
    assert not missing, "docs cite paths that do not exist:\n" + "\n".join(missing)


def test_the_architecture_tree_names_every_module():
    """docs/architecture.md's tree names each Rust and Python module (by file name or stem), so
    a module added, moved or renamed shows there."""
    doc = (ROOT / "docs" / "architecture.md").read_text()
    start = doc.index("```")
    tree = doc[start : doc.index("```", start + 3)]
    named = set(re.findall(r"[\w.]+", tree)) | set(re.findall(r"\w+", tree))
    modules = [*(ROOT / "src").rglob("*.rs"), *(ROOT / "python" / "carcassonne").rglob("*.py")]
    missing = sorted(
        str(p.relative_to(ROOT))
        for p in modules
        if p.name not in ("mod.rs", "__init__.py") and not {p.name, p.stem} & named
    )
    assert not missing, "docs/architecture.md's tree does not name:\n" + "\n".join(missing)


def test_every_metric_the_docs_and_the_help_show_is_one():
    """`points:SOURCE` examples (docs, `--metric` help) name a source that exists."""
    from carcassonne.studies.plan import METRICS, check_metric

    texts = [d.read_text() for d in [*(ROOT / "docs").glob("*.md"), ROOT / "README.md"]]
    shown = set(re.findall(r"\bpoints:[a-z_]+", "\n".join([*texts, *METRICS.values()])))
    assert shown
    for metric in shown:
        check_metric(metric)


def test_the_terminal_view_the_docs_show_is_the_golden_one():
    """docs/rendering.md's terminal view is tests/golden/small_game.txt, which test_render.py
    holds to `render.text`."""
    doc = (ROOT / "docs" / "rendering.md").read_text()
    section = doc[doc.index("## `render.text(") :]
    shown = re.search(r"^```\n(.*?)^```", section, re.S | re.M).group(1)
    assert shown == (ROOT / "tests" / "golden" / "small_game.txt").read_text()


def test_the_results_table_the_docs_describe_has_the_columns_written():
    """docs/studies.md's column table names every column of the results table, in order."""
    from carcassonne import SOURCES, Rules
    from carcassonne.studies.table import COLUMNS

    doc = (ROOT / "docs" / "studies.md").read_text()
    section = doc[doc.index("## The results table") :]
    section = section[: section.index("\n\n", section.index("| column | meaning |"))]
    names = re.findall(r"`([\w<>]+)`", "\n".join(r.split(" | ")[0] for r in section.splitlines()))
    expanded = []
    for name in names:
        if name == "points_<source>":
            expanded += [f"points_{s}" for s in SOURCES]
        elif name == "rule_<option>":
            expanded += [f"rule_{o}" for o in Rules.options()]
        else:
            expanded.append(name)
    assert expanded == list(COLUMNS)


def test_the_readme_lists_every_doc():
    readme = (ROOT / "README.md").read_text()
    listed = set(re.findall(r"^- \[docs/([\w.]+)\]\(docs/\1\)", readme, re.M))
    missing = sorted({d.name for d in (ROOT / "docs").glob("*.md")} - listed)
    assert not missing, f"README.md's list of docs leaves out {missing}"


def test_every_flag_a_documented_command_passes_is_one_of_that_command():
    """`carcassonne SUBCOMMAND ... --flag` in the docs (code blocks and inline): the flag is
    one of that subcommand's (`--help`)."""
    import argparse

    from carcassonne.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    flags = {name: set(p._option_string_actions) for name, p in sub.choices.items()}
    command = re.compile(rf"carcassonne ({'|'.join(flags)})\b((?:\\\n|[^`\n#|])*)")
    wrong = [
        f"{doc.name}: carcassonne {name} {flag}"
        for doc in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
        for name, rest in command.findall(doc.read_text())
        for flag in re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", rest)
        if flag not in flags[name]
    ]
    assert not wrong, "docs pass flags their command does not have:\n" + "\n".join(wrong)


def test_every_policy_text_the_docs_show_parses():
    """Policy texts in backticks (`expert:depth=2`, `mcts:500:eval=learned`,
    `greedy,random`) are ones the engine's parser takes; placeholders (`N`, `X`, `PATH`,
    `[...]`, `a|b`) and the example of a refused text are left out."""
    from carcassonne import _core

    names = "random|greedy|heuristic|expert|mcts"
    seat = rf"(?:{names})(?::[^`\s,]*)?"
    texts = {
        text
        for doc in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
        for text in re.findall(rf"`({seat}(?:,{seat})*)`", doc.read_text())
        if not re.search(r"[A-Z|\[]|\.\.\.", text)
    }
    assert len(texts) > 20
    refused = {"mcts:::"}  # docs/players.md's example of a refused text
    for text in texts - refused:
        _core.policy_seats(text)
    for text in refused:
        with pytest.raises(ValueError):
            _core.policy_seats(text)
