"""Pictures a user reads: the score panel keeps its text inside, the terminal view's letters
say one thing each, and report plots name each seat's policy, leave out sources that never
score and keep long variant names readable."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from carcassonne import SOURCES, Game, Rules, render
from carcassonne.report import seat_label, short, shown_sources, write_report
from carcassonne.stats import Tally

from rulehelpers import play_random

SVG = "{http://www.w3.org/2000/svg}"


def _big_top_game(seed: int) -> Game:
    return play_random(Game(Rules(big_top=True), players=2, seed=seed), random.Random(seed))


def test_the_token_list_stays_inside_the_score_panel():
    g = _big_top_game(3)
    assert len(g.big_top()["revealed"]) >= 10  # a long list of tokens
    root = ET.fromstring(render.svg(g))
    info = next(e for e in root.iter() if e.get("class") == "big-top-info")
    for text in info.iter(f"{SVG}text"):
        # 11-12 px sans-serif: at most ~6.5 px a character; the panel is 288 px wide.
        assert float(text.get("x")) + 6.5 * len(text.text) <= render.PANEL_WIDTH - 12, text.text


def test_terminal_view_characters_are_unique():
    glyphs = [v for k, v in render.TEXT_GLYPHS.items() if k not in ("sep", "empty", "generic")]
    figures = [*"123456", *"ABCDEF", *"abcdef"]
    assert len(set(glyphs)) == len(glyphs)
    assert not set(glyphs) & set(figures)


def test_plot_helpers_name_policies_skip_silent_sources_and_shorten_names():
    t = Tally(2, SOURCES, policies=["greedy", "random"])
    k = 4
    breakdown = np.zeros((k, 2, len(SOURCES)), np.int64)
    breakdown[:, :, SOURCES.index("cities")] = 3
    t.add(np.full((k, 2), 3), np.ones((k, 2), bool), breakdown, np.full(k, 70), np.zeros(k))
    assert [seat_label(t, p) for p in range(2)] == ["seat 1 (greedy)", "seat 2 (random)"]
    assert [SOURCES[s] for s in shown_sources([t])] == ["cities"]
    name = ",".join(f"{o}=on" for o in ["small_city", "toll_collectors", "fortune_teller"] * 4)
    lines = short(name).split("\n")
    assert len(lines) <= 3 and all(len(line) <= 40 for line in lines)
    assert short("default") == "default"


def test_report_with_long_variant_names_and_policies_draws_its_plots(tmp_path):
    pytest.importorskip("matplotlib")
    from carcassonne.cli import main

    long = "toll_collectors=True,fortune_teller=True,big_top=True,small_city=True,abbot=False"
    out = tmp_path / "r.csv"
    assert main(["simulate", "-n", "30", "-q", "--policy", "greedy", "--name", long,
                 "--out", str(out)]) == 0  # fmt: skip
    rep = write_report(out, tmp_path / "rep", plots=True)
    assert {f.name for f in rep.files} >= {"scores.png", "win_rate.png", "sources.png"}
