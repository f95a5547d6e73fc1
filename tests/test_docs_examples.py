"""The Fortune Teller example of docs/fortune_teller.md runs and prints what it says."""

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
