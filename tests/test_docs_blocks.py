"""Every code block of README.md and docs/*.md runs as written: Python blocks as a script
(``python block.py``, so a missing ``if __name__ == "__main__":`` guard shows), shell blocks
line by line with ``carcassonne`` on the PATH, each document's blocks in order in one fresh
folder (README's ``record`` runs on the table README's ``simulate`` wrote). Only study sizes
shrink (``-n``, ``games=``), so the suite stays quick; blocks that set up the project itself
(``bash scripts/...``) are left out, and a PNG line is left out when no converter is there.
Blocks without a language (formats, layouts) and JSON are not programs.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from carcassonne import Game, Rules
from carcassonne.cli.view import find_png_converter

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
MAX_GAMES = 300


def blocks(doc: Path) -> list[tuple[str, str]]:
    return [
        (lang, body) for lang, body in BLOCK.findall(doc.read_text()) if lang in ("python", "sh")
    ]


def smaller(text: str) -> str:
    """Study sizes cut to MAX_GAMES (enough for `record --game 17`)."""

    def cut(m: re.Match) -> str:
        n = int(m.group(2).replace("_", ""))
        return m.group(1) + str(min(n, MAX_GAMES))

    text = re.sub(r"(-n )([\d_]+)", cut, text)
    return re.sub(r"(games=)([\d_]+)", cut, text)


def shell_lines(body: str) -> list[str]:
    joined = body.replace("\\\n", " ")
    return [line for line in joined.splitlines() if line.strip() and not line.startswith("#")]


def _game_record(folder: Path) -> None:
    """The recorded game the rendering examples look at (``game.json``)."""
    g = Game(Rules(), players=2, seed=7)
    while not g.is_over():
        g.play(g.legal_moves[0])
    (folder / "game.json").write_text(g.to_json())


@pytest.mark.parametrize("doc", [d for d in DOCS if blocks(d)], ids=lambda d: d.name)
def test_every_code_block_runs_as_written(doc, tmp_path):
    _game_record(tmp_path)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    for i, (lang, body) in enumerate(blocks(doc)):
        if lang == "python":
            script = tmp_path / f"block{i}.py"
            script.write_text(smaller(body))
            commands = [[sys.executable, str(script)]]
        else:
            commands = []
            for line in shell_lines(body):
                if line.startswith("bash scripts/"):
                    continue  # sets up this project: what the whole suite runs in
                if ".png" in line and find_png_converter() is None:
                    continue
                commands.append(["bash", "-o", "pipefail", "-c", smaller(line)])
        for cmd in commands:
            proc = subprocess.run(
                cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
            )
            assert proc.returncode == 0, f"{doc.name} block {i}: {cmd[-1]}\n{proc.stderr[-2000:]}"
