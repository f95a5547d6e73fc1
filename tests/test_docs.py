"""docs/rules.md stays true: every implemented rule id is cited with tests that exist."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULE_IDS = (
    [f"B{i}" for i in range(1, 24)]
    + [f"R{i}" for i in range(1, 8)]
    + [f"A{i}" for i in range(1, 6)]
    + [f"TB{i}" for i in range(1, 13)]
    + [f"TC{i}" for i in range(1, 8)]
    + [f"FT{i}" for i in range(1, 10)]
    + [f"BT{i}" for i in range(1, 12)]
)


def _test_names() -> set[str]:
    names = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        names |= set(re.findall(r"^def (test_\w+)", path.read_text(), re.M))
    return names


def test_every_rule_is_cited_with_existing_tests():
    doc = (ROOT / "docs" / "rules.md").read_text()
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| ([A-Z]+\d+) \|(.*)$", doc, re.M)}
    names = _test_names()
    for rid in RULE_IDS:
        assert rid in rows, f"docs/rules.md has no row for {rid}"
        cited = re.findall(r"`(test_\w+)`", rows[rid])
        assert cited, f"docs/rules.md cites no test for {rid}"
        for t in cited:
            assert t in names, f"docs/rules.md cites {t} for {rid}, but no such test exists"


PATH = r"(?<![\w/])((?:src|python|tests|benches|examples)/[\w/.-]*\w)"


def test_every_source_path_the_docs_cite_exists():
    cited = set()
    for doc in [*(ROOT / "docs").glob("*.md"), ROOT / "README.md", ROOT / "BENCHMARKS.md"]:
        paths = re.findall(PATH, doc.read_text())
        cited |= {(doc.name, p) for p in paths}
    missing = sorted(f"{doc}: {p}" for doc, p in cited if not (ROOT / p).exists())
    assert not missing, "docs cite paths that do not exist:\n" + "\n".join(missing)
