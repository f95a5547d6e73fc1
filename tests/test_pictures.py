"""Pictures a user reads: the score panel keeps its text inside, the terminal view's letters
say one thing each, and report plots name each seat's policy, leave out sources that never
score and keep long variant names readable."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from carcassonne import SOURCES, Game, Rules, render
from carcassonne.studies import CellKey, compare, study
from carcassonne.studies.report import _label, short, shown_sources, write_report

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


def test_plot_helpers_skip_silent_sources_and_shorten_names():
    s = study(Rules(), 20, skills="greedy,random")
    cells = list(s.cells().values())
    assert cells[0].policies == ["greedy", "random"]
    assert shown_sources(cells) == ["roads", "cities", "monasteries", "gardens", "fields"]
    assert "goods" in SOURCES
    name = ",".join(f"{o}=on" for o in ["small_city", "toll_collectors", "fortune_teller"] * 4)
    lines = short(name).split("\n")
    assert len(lines) <= 3 and all(len(line) <= 40 for line in lines)
    assert short("default") == "default"
    label = _label(CellKey(name, "greedy,random", 2), False).split("\n")
    assert all(len(line) <= 40 for line in label) and label[-1] == "greedy,random"


def test_report_with_long_variant_names_and_policies_draws_its_plots(tmp_path):
    pytest.importorskip("matplotlib")
    long = "toll_collectors=on,fortune_teller=on,big_top=on,small_city=on,abbot=off"
    variants = {"C3": Rules(), long: Rules(toll_collectors=True, fortune_teller=True,
                big_top=True, small_city=True, abbot=False)}  # fmt: skip
    page = write_report(compare(variants, 30, policy="greedy"), tmp_path / "rep")
    names = {f.name for f in page.parent.iterdir()}
    assert names >= {"scores.png", "win_rate.png", "sources.png", "differences.png"}
