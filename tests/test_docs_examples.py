"""The examples of docs/fortune_teller.md and the luck-adjusted walk-through of
docs/studies.md run and print what they say."""

import contextlib
import io
import re
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "fortune_teller.md"


def test_fortune_teller_doc_example_runs():
    code = re.search(r"```python\n(.*?)```", DOC.read_text(), re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {})
    lines = out.getvalue().splitlines()
    assert "draw ['CAP']" in lines
    assert "choose ['CAP', 'MON']" in lines
    assert lines[-1] == "place MON"
    assert any(line.startswith("hand: ") for line in lines)


STUDIES = DOC.parent / "studies.md"


def test_the_luck_adjusted_walk_through_prints_what_the_docs_say(shipped_value_models):
    text = STUDIES.read_text()
    section = text[text.index("## Luck-adjusted answers") :]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    said = re.search(r"```text\n(.*?)\n```", section, re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(STUDIES), "exec"), {})
    answer = out.getvalue().strip()
    assert answer.endswith(said)
    assert "+18.6 [+14.5, +22.8] over 100 deals" in answer
