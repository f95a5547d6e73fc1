"""The training example of docs/environments.md runs and its policy learns."""

import contextlib
import io
import re
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "environments.md"


def test_training_example_runs_and_learns():
    code = re.search(r"```python\n(.*?)```", DOC.read_text(), re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {})
    line = out.getvalue().strip()
    assert line in DOC.read_text()  # the doc shows what it prints
    m = re.fullmatch(r"mean final margin against random: (\S+) untrained, (\S+) trained", line)
    assert float(m.group(2)) > float(m.group(1)) + 5
