"""docs/environments.md: its training example runs and its policy learns; the sizes it states
are the environments'."""

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


def test_the_sizes_the_doc_states_are_the_environments():
    from carcassonne import Rules
    from carcassonne.env import FactoredActions, VectorEnv

    text = DOC.read_text()

    def number(s: str) -> int:
        return int(s.replace(",", ""))

    sizes = re.search(r"Sizes, 2 players: (.*?)\.\n", text, re.S).group(1)
    stated = re.findall(r"`\((\d+), (\d+), (\d+)\)`, (?:vector )?([\d,]+), ([\d,]+)", sizes)
    factored = re.findall(r"^\| [^|]+ \| ([\d,]+) \| ([\d,]+) \| (\d+) \|$", text, re.M)
    width = number(re.search(r"float32 `\(len\(actions\), (\d+)\)`", text).group(1))
    every = Rules(traders_builders="C3.1", toll_collectors=True, fortune_teller=True, big_top=True)
    rules = [Rules.base(), Rules(), every]
    for r, (w, _, c, vector, actions), (flat, placements, slots) in zip(
        rules, stated, factored, strict=True
    ):
        env = VectorEnv(r, 2, 1, seed=0)
        obs, _ = env.reset(seed=0)
        assert obs["board"].shape[1:] == (int(w), int(w), int(c))
        assert obs["vector"].shape[1] == number(vector)
        assert obs["action_mask"].shape[1] == number(actions) == number(flat)
        assert FactoredActions(env.spec_).placements == number(placements)
        assert env.spec_.slots == int(slots)
        assert env.action_features().shape[1] == len(env.action_feature_names()) == width
