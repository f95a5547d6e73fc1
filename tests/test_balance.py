"""Studies (carcassonne.studies, ``carcassonne study``): seat rotation on common deals,
skill levels, honest win rates, metrics with intervals, paired differences and their
variance, sequential stopping, appending, the report (in a real headless browser where
installed) and Dask runs identical to one machine."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from carcassonne import Rules, game_seed, simulate
from carcassonne.studies import CellKey, Plan, StudyError, load, run, study
from carcassonne.studies.analysis import answer
from carcassonne.studies.plan import MIN_STOP_DEALS, parse_skills, parse_until, rotated, rotations
from carcassonne.studies.play import summarise_path
from carcassonne.studies.table import read_table


def cli(*args: str, check: bool = False) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "carcassonne", *args], capture_output=True, text=True, timeout=600
    )
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def one_line_error(proc: subprocess.CompletedProcess[str], *words: str) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    for w in words:
        assert w in proc.stderr, proc.stderr


# -- seat orders -----------------------------------------------------------------------------


def test_rotation_puts_every_player_in_every_seat_on_the_same_tiles():
    assert rotated("greedy,random,random", 3, 0) == ["greedy", "random", "random"]
    assert rotated("greedy,random,random", 3, 1) == ["random", "greedy", "random"]
    assert rotated("greedy,random,random", 3, 2) == ["random", "random", "greedy"]
    assert rotations("greedy,random", 2, True) == 2
    assert rotations("greedy,random", 2, False) == 1
    # one policy everywhere: a rotated deal would replay the same (deterministic) game
    assert rotations("greedy", 4, True) == 1

    s = study(Rules(), 40, skills="greedy,random", rotate_seats=True, seed=3)
    r = s.rows
    assert len(r["deal"]) == 40 * 2 * 2  # deals x seat orders x seats
    for d in (0, 17, 39):
        rows = np.flatnonzero(r["deal"] == d)
        assert set(r["seed"][rows].tolist()) == {game_seed(3, d)}
        # seat order 1 is the game with the policies swapped, on the same seed
        native = simulate(Rules(), 1, 2, "random,greedy", 3, first=d)
        rot1 = rows[r["rotation"][rows] == 1]
        assert r["score"][rot1].tolist() == native.scores[0].tolist()
        assert r["policy"][rot1].tolist() == ["random", "greedy"]
        assert r["player"][rot1].tolist() == [1, 0]  # the greedy player (0) sits at seat 2
    c = s.cells()[CellKey("default", "greedy,random", 2)]
    assert c.rotations == 2 and c.games == 80 and c.deals == 40
    # the seat effect is free of the players' strength: each player sat in each seat once
    assert c.player_win[0].mean > 0.9 > 0.1 > c.player_win[1].mean
    assert abs(c.win[0].mean + c.win[1].mean - 1) < 1e-12


def test_common_deals_across_variants_skills_and_player_counts():
    s = study(
        {"C3": Rules(), "small": Rules(small_city=True)},
        30,
        skills=["random", "greedy"],
        players=[2, 3],
        seed=11,
    )
    r = s.rows
    assert len(s.cells()) == 2 * 2 * 2
    for d in (0, 29):
        assert set(r["seed"][r["deal"] == d].tolist()) == {game_seed(11, d)}
    # each cell is the native batch of its skill level
    native = simulate(Rules(small_city=True), 30, 3, "greedy", 11)
    mask = (r["variant"] == "small") & (r["skill"] == "greedy") & (r["players"] == 3)
    assert r["score"][mask].reshape(30, 3).tolist() == native.scores.tolist()
    for p in range(3):
        col = r[f"points_{'cities'}"][mask].reshape(30, 3)[:, p]
        assert col.tolist() == native.breakdown[:, p, list(native.sources).index("cities")].tolist()


# -- honest win rates ------------------------------------------------------------------------


def test_a_shared_win_counts_one_kth_by_default_and_whole_on_request():
    split = study(Rules(), 400, skills="random", seed=5)
    whole = study(Rules(), 400, skills="random", seed=5, ties="whole")
    r = split.rows
    per_game = r["win_share"].reshape(-1, 2).sum(axis=1)
    assert np.allclose(per_game, 1.0)  # seat win rates add up to 100%
    tied = r["won"].reshape(-1, 2).all(axis=1)
    assert tied.any(), "seed 5 has shared wins in its first 400 games"
    assert np.allclose(r["win_share"].reshape(-1, 2)[tied], 0.5)
    assert np.allclose(whole.rows["win_share"].reshape(-1, 2)[tied], 1.0)
    c = split.cells()[CellKey("default", "random", 2)]
    assert math.isclose(c.win[0].mean + c.win[1].mean, 1.0)
    assert math.isclose(c.shared.mean, tied.mean())
    cw = whole.cells()[CellKey("default", "random", 2)]
    assert math.isclose(cw.win[0].mean + cw.win[1].mean, 1.0 + tied.mean())


# -- metrics -----------------------------------------------------------------------------------


def test_metrics_are_the_means_of_the_rows_with_intervals_over_deals():
    s = study(Rules(), 300, skills="random", players=3, seed=2)
    c = s.cells()[CellKey("default", "random", 3)]
    r = s.rows
    scores = r["score"].reshape(-1, 3)
    share = r["win_share"].reshape(-1, 3)
    assert math.isclose(c.score[1].mean, scores[:, 1].mean())
    sd = scores[:, 1].std(ddof=1)
    assert math.isclose(c.score[1].high - c.score[1].mean, 1.959963984540054 * sd / math.sqrt(300))
    assert math.isclose(c.first_advantage.mean, share[:, 0].mean() - 1 / 3)
    assert math.isclose(c.first_minus_last_win.mean, (share[:, 0] - share[:, 2]).mean())
    srt = np.sort(scores, axis=1)
    assert math.isclose(c.margin.mean, (srt[:, -1] - srt[:, -2]).mean())
    assert math.isclose(c.turns.mean, r["turns"][::3].mean())
    w = share.mean(axis=0)
    assert math.isclose(c.balance.mean, w.max() - w.min())
    assert c.balance.low <= c.balance.mean <= c.balance.high
    assert math.isclose(c.sources["cities"][2].mean, r["points_cities"].reshape(-1, 3)[:, 2].mean())
    for e in (c.score[0], c.shared, c.margin, c.turns, c.first_advantage):
        assert e.low <= e.mean <= e.high and e.n == 300


def test_lead_changes_and_the_turn_the_winner_took_the_lead_for_good():
    # seat 2 leads after turn 2, seat 1 after turn 3, ties at turn 4, seat 1 wins
    path = summarise_path([[0, 0], [0, 2], [5, 2], [5, 5], [9, 5], [12, 5]], [3, 1])
    assert path["lead_changes"] == 1
    assert path["lead_turn"] == 5  # sole leader from the 5th point on
    assert path["trajectory"] == [[0, 0, 5, 5, 9, 12], [0, 2, 2, 5, 5, 5]]
    shared = summarise_path([[1, 0], [3, 3]], [0, 0])
    assert shared["lead_turn"] == -1 and shared["lead_changes"] == 0
    only_at_the_end = summarise_path([[0, 4], [0, 6], [9, 6]], [0, 0])
    assert only_at_the_end["lead_turn"] == 3 and only_at_the_end["lead_changes"] == 1


@pytest.mark.parametrize("skill", ["random", "greedy,random"])
def test_trajectories_replay_the_games_of_the_table(skill):
    s = study(Rules(), 12, skills=skill, seed=4, trajectories=5, rotate_seats=True)
    r = s.rows
    replayed = r["lead_changes"] >= 0
    nrot = 2 if "," in skill else 1
    assert r["deal"][replayed].max() == 4 and replayed.sum() == 5 * 2 * nrot
    for i in np.flatnonzero(replayed):
        points = [int(x) for x in r["trajectory"][i].split()]
        assert points[-1] == r["score"][i]  # the path ends at the final score
        assert points == sorted(points)  # scores never decrease
        assert 0 <= r["figures_unused"][i] <= 9
    c = s.cells()[CellKey("default", skill, 2)]
    assert c.lead_changes.n == 5 and c.lead_turn.n <= 5


# -- paired differences and variance -----------------------------------------------------------


def test_paired_difference_and_its_variance_against_unpaired_games():
    s = study({"C3": Rules(), "small": Rules(small_city=True)}, 600, skills="random", seed=8)
    (d,) = s.differences()
    r = s.rows
    base = r["win_share"][(r["variant"] == "C3") & (r["seat"] == 0)]
    var = r["win_share"][(r["variant"] == "small") & (r["seat"] == 0)]
    diff = var - base
    assert math.isclose(d.win.mean, diff.mean(), abs_tol=1e-15)
    assert math.isclose(d.win.var, diff.var(ddof=1) / 600)
    unpaired = base.var(ddof=1) / 600 + var.var(ddof=1) / 600
    assert math.isclose(d.var_unpaired, unpaired)
    # an option that changes scoring only keeps the games alike: pairing pays off
    assert d.variance_ratio > 2
    assert "cut the variance of this difference" in s.answer()


def test_the_same_rules_under_two_names_differ_by_exactly_nothing():
    s = study({"a": Rules(), "b": Rules()}, 50, skills="greedy,random", rotate_seats=True)
    (d,) = s.differences()
    assert d.win.mean == 0 and d.score.mean == 0 and d.value.mean == 0 and d.p_adjusted == 1.0
    assert "every paired difference is 0" in s.answer()


def test_several_differences_get_simultaneous_intervals_that_agree_with_their_p_values():
    s = study(
        {"C3": Rules(), "small": Rules(small_city=True), "nofarm": Rules(farmers=False)},
        200,
        skills="random",
        seed=1,
    )
    diffs = s.differences()
    for d in diffs:
        raw = (d.value.mean / math.sqrt(d.value.var)) if d.value.var > 0 else 0
        assert d.p_adjusted == pytest.approx(min(1.0, 2 * math.erfc(abs(raw) / math.sqrt(2))))
        z = (d.value.high - d.value.mean) / math.sqrt(d.value.var)
        assert z == pytest.approx(2.2414, abs=1e-4)  # 1 - 0.05/4: two differences
        assert d.distinguishable == (d.p_adjusted < 0.05)
    assert "simultaneous (Bonferroni)" in s.answer()


def test_the_answer_says_raises_or_lowers_only_when_its_interval_excludes_zero():
    variants = {"C3": Rules(), "nofarm": Rules(farmers=False)}
    s = study(variants, 200, skills="random", seed=1)
    assert s.answer() == (
        "With random players (2 players), nofarm does not measurably change seat 1's advantage "
        "over the fair share (50.0%): +6.0 pp [-0.7, +12.7] (C3), +9.5 pp [+2.8, +16.2] "
        "(nofarm); the paired difference, +3.5 pp [-5.1, +12.1] over 200 deals, is not "
        "distinguishable from no effect: its interval contains zero (p = 0.42). Pairing by "
        "deal cut the variance of this difference 1.2x against as many unpaired games."
    )
    s = study(variants, 200, skills="random", seed=1, metric="points:fields")
    assert s.answer() == (
        "With random players (2 players), nofarm lowers the points per player from fields "
        "from 3.3 [3.0, 3.7] (C3) to 0.0 [0.0, 0.0]; the paired difference, -3.3 [-3.7, -3.0] "
        "over 200 deals, is distinguishable from no effect (p = 3e-81). Pairing by deal cut "
        "the variance of this difference 1.0x against as many unpaired games."
    )
    for d in s.differences():
        assert "raises" not in s.answer() or d.distinguishable


def test_the_skill_axis_says_whether_the_effect_depends_on_skill(tmp_path):
    """With several skill levels, the answer gives the effect at each level and the
    difference between the levels, paired by deal, with an interval simultaneous with the
    differences' (Bonferroni over all three), and says in words whether it depends on
    skill: outside the interval it does, inside it does not measurably."""
    from statistics import NormalDist

    variants = {"C3": Rules(), "nofarm": Rules(farmers=False)}
    s = study(variants, 200, skills=["random", "greedy"], seed=1, metric="points:fields")
    d_random, d_greedy = s.differences()
    (c,) = s.skill_contrasts()
    assert (c.variant, c.baseline, c.skill, c.base_skill) == ("nofarm", "C3", "greedy", "random")
    assert c.value.mean == pytest.approx(d_greedy.value.mean - d_random.value.mean, abs=1e-12)
    z = NormalDist().inv_cdf(1 - 0.025 / 3)  # two differences and one contrast
    for e in (c, d_random, d_greedy):
        assert (e.value.high - e.value.mean) / math.sqrt(e.value.var) == pytest.approx(z)
        raw = math.erfc(abs(e.value.mean) / math.sqrt(e.value.var) / math.sqrt(2))
        assert e.p_adjusted == pytest.approx(min(1.0, 3 * raw))
        assert e.distinguishable == (e.p_adjusted < 0.05)
    assert s.answer().endswith(
        "With 2 players, the effect of nofarm on the points per player from fields depends on "
        "skill: -3.3 [-3.7, -2.9] with random players, -14.3 [-15.2, -13.5] with greedy "
        "players; the difference between the levels, -11.0 [-11.9, -10.1] over 200 deals, is "
        "distinguishable from zero (p = 7.2e-176). Intervals and p-values of the 2 differences "
        "from C3 and 1 between skill levels are simultaneous (Bonferroni): each says at 95% "
        "what all say together."
    )
    assert "  nofarm | greedy - random | 2p: -11.0 [-11.9, -10.1]***" in s.summary()
    from carcassonne.studies.report import write_report

    page = Path(write_report(s, tmp_path / "rep")).read_text()
    assert "<h2>Differences between skill levels</h2>" in page
    assert "<td>nofarm</td><td>greedy</td><td>random</td><td>2</td><td>-11.0 [-11.9, -10.1]" in page
    assert "<td>-14.3 [-15.2, -13.5]</td><td>***</td>" in page  # the question, not the win rate

    s = study(variants, 200, skills=["random", "greedy"], seed=1)
    (c,) = s.skill_contrasts()
    assert c.value.low < 0 < c.value.high and not c.distinguishable
    assert (
        "With 2 players, the effect of nofarm on seat 1's advantage over the fair share does "
        "not measurably depend on skill: +3.5 pp [-7.0, +14.0] with random players, -6.5 pp "
        "[-16.0, +3.0] with greedy players; the difference between the levels, -10.0 pp "
        "[-24.3, +4.3] over 200 deals, is not distinguishable from zero: its interval contains "
        "zero (p = 0.28)."
    ) in s.answer()
    # the balance (a bootstrap over deals) between levels too
    b = study(variants, 100, skills=["random", "greedy"], seed=1, metric="balance")
    (c,) = b.skill_contrasts()
    assert c.value.n == 100 and c.value.var > 0 and "depend on skill" in b.answer()


def test_expert_is_a_skill_level_and_one_variant_compares_the_metric_between_levels():
    s = study(Rules(), 40, skills=["greedy", "expert"], seed=1, metric="score")
    (c,) = s.skill_contrasts()
    assert c.baseline is None and c.skill == "expert"
    greedy, expert = (s.cell_metric(k) for k in s.keys())
    assert c.value.mean == pytest.approx(expert.mean - greedy.mean, abs=1e-12)
    assert s.answer().endswith(
        "With 2 players (default), seat 1's score depends on skill: 103.0 [97.2, 108.8] with "
        "greedy players, 126.9 [122.5, 131.4] with expert players; the difference between the "
        "levels, +23.9 [+17.4, +30.5] over 40 deals, is distinguishable from zero "
        "(p = 1.1e-12)."
    )


def test_three_players_are_measured_against_a_fair_third_and_balance_can_be_zero():
    s = study(Rules(), 300, players=3, seed=2)
    assert s.answer() == (
        "With random players (3 players, default), seat 1 wins 28.3% [23.4, 33.3] of games "
        "against a fair share of 33.3%: an advantage of -5.0 pp [-10.0, -0.0] over 300 deals, "
        "distinguishable from none."
    )
    b = study(Rules(), 300, seed=2, skills="greedy", metric="balance")
    e = b.cell_metric(b.keys()[0])
    assert e.low == 0 < e.high and "balance between seats" in b.answer()


def test_the_summary_names_the_variants_and_rotated_seats_by_player():
    variants = {"C3": Rules(), "small": Rules(small_city=True)}
    s = study(variants, 30, skills="greedy,random", rotate_seats=True, seed=3)
    text = s.summary()
    assert "Variants: C3: the default rules; small: small_city=on." in text
    assert "every player in turn" in text and "greedy  " not in text.split("by player")[0]
    assert "player 1 (greedy) 100.0%" in text and "player 2 (random) 0.0%" in text


# -- stopping, appending -------------------------------------------------------------------------


def test_sequential_stopping_stops_once_the_interval_is_narrow_enough():
    variants = {"C3": Rules(), "small": Rules(small_city=True)}
    seen = []
    plan = Plan(variants=variants, skills=["random"], players=[2], seed=6)
    s = run(plan, 100_000, until=0.6, batch=100, progress=lambda *a: seen.append(a))
    h = s.headline()
    assert h is not None and 100 * h.half < 0.6
    deals = len(np.unique(s.rows["deal"]))
    assert deals < 100_000 and deals % 100 == 0
    # it stopped at the first batch that met the target
    assert len(seen) == deals // 100 >= 2 and 100 * seen[-2][4].half >= 0.6
    assert parse_until("ci<0.5") == 0.5 and parse_until("CI < 1pp") == 1.0
    for bad in ("ci>1", "ci<x", "ci<0", "width<1"):
        with pytest.raises(StudyError):
            parse_until(bad)


def test_the_stopping_rule_reads_the_printed_intervals_and_waits_for_enough_deals():
    # Two differences: their intervals are simultaneous (wider than 1.96 standard errors),
    # and ci<3 is met only when those, as printed, are narrower than 3 pp.
    variants = {"C3": Rules(), "nofarm": Rules(farmers=False), "small": Rules(small_city=True)}
    s = study(variants, 20_000, skills="random", seed=3, until="ci<3")
    assert all(100 * (d.value.high - d.value.mean) < 3 for d in s.differences())
    assert "stopping rule ci<3 pp: met" in s.summary()
    # A score's interval is in points, not percentage points.
    points = study(variants, 2_000, skills="random", seed=3, metric="score", until="ci<4")
    assert "stopping rule ci<4: met" in points.summary()
    # A variant against itself differs by exactly 0 in every deal: no variance after one
    # small batch, which must not stop the study before MIN_STOP_DEALS deals.
    same = study({"a": Rules(), "b": Rules()}, 2_000, skills="random", until="ci<1", batch=50)
    assert len(np.unique(same.rows["deal"])) == MIN_STOP_DEALS
    assert "stopping rule ci<1 pp: met" in same.summary()


def test_appending_continues_each_cell_and_equals_one_run(tmp_path):
    out = tmp_path / "s.parquet"
    variants = {"C3": Rules(), "small": Rules(small_city=True)}
    study(variants, 60, skills=["random", "greedy,random"], rotate_seats=True, seed=9, out=out)
    study(
        variants,
        150,
        skills=["random", "greedy,random"],
        rotate_seats=True,
        seed=9,
        out=out,
        append=True,
    )
    whole = study(variants, 150, skills=["random", "greedy,random"], rotate_seats=True, seed=9)
    got, want = read_table(out), whole.rows

    def order(r):
        return np.lexsort(
            (
                r["seat"],
                r["rotation"],
                r["deal"],
                r["players"],
                r["skill"].astype(str),
                r["variant"].astype(str),
            )
        )

    a, b = order(got), order(want)
    for col in want:
        assert got[col][a].tolist() == want[col][b].tolist(), col
    # a different study cannot be appended to it
    with pytest.raises(StudyError, match="master seed"):
        study(variants, 200, seed=10, out=out, append=True)
    with pytest.raises(StudyError, match="rules"):
        study({"C3": Rules(farmers=False)}, 200, seed=9, out=out, append=True)


@pytest.mark.parametrize("ext", ["csv", "jsonl", "parquet"])
def test_tables_round_trip(tmp_path, ext):
    out = tmp_path / f"s.{ext}"
    s = study(Rules(), 20, skills="random", seed=1, trajectories=3, out=out)
    back = read_table(out)
    for col, values in s.rows.items():
        assert back[col].tolist() == values.tolist(), col
    assert load(out).answer() == s.answer()


# -- the command line ------------------------------------------------------------------------------


def test_study_command_writes_table_summary_and_report(tmp_path):
    out, rep = tmp_path / "ft.csv", tmp_path / "rep"
    proc = cli(
        "study",
        "-n",
        "120",
        "--skill",
        "random",
        "--skill",
        "greedy",
        "--variant",
        "base",
        "--variant",
        "ft:fortune_teller=on",
        "--out",
        str(out),
        "--report",
        str(rep),
        "-q",
        check=True,
    )
    assert proc.stdout.startswith("With random players (2 players), ft ")
    assert "With greedy players (2 players), ft " in proc.stdout
    assert "games/s per thread" in proc.stdout
    page = (rep / "report.html").read_text()
    first = page.split("<p class='answer'>", 1)[1].split("</p>", 1)[0]
    assert "seat 1&#x27;s advantage" in first and "paired difference" in first and "[" in first
    for png in ("win_rate", "scores", "sources", "differences"):
        assert (rep / f"{png}.png").stat().st_size > 5000
    again = cli("report", str(out), "-o", str(tmp_path / "rep2"), check=True)
    assert again.stdout.splitlines()[0] == proc.stdout.splitlines()[0]
    # the table is kept unless asked
    one_line_error(cli("study", "-n", "5", "--out", str(out), "-q"), "--append", "--overwrite")


def test_progress_line_shows_the_running_estimate(tmp_path):
    proc = cli(
        "study",
        "-n",
        "400",
        "--batch",
        "100",
        "--variant",
        "C3",
        "--variant",
        "small:small_city=on",
        "--until",
        "ci<0.01",
        check=True,
    )
    lines = [ln for ln in proc.stderr.splitlines() if "deals" in ln]
    # a log gets a line at most every 5 s, and the last state
    assert 1 <= len(lines) <= 4 and lines[-1].startswith("[##########] 400/400 deals")
    assert "est " in lines[-1] and "target ±0.01" in lines[-1]
    assert "stopping rule ci<0.01 pp: not met" in proc.stdout


def test_grid_of_options_players_and_skills(tmp_path):
    out = tmp_path / "g.jsonl"
    cli(
        "study",
        "-n",
        "20",
        "-p",
        "2,3",
        "--skill",
        "random",
        "--skill",
        "greedy",
        "--grid",
        "small_city=off,on",
        "--grid",
        "farmers=on,off",
        "--out",
        str(out),
        "-q",
        check=True,
    )
    r = read_table(out)
    cells = {(v, k, int(p)) for v, k, p in zip(r["variant"], r["skill"], r["players"], strict=True)}
    assert len(cells) == 4 * 2 * 2
    assert "small_city=on,farmers=off" in {c[0] for c in cells}


@pytest.mark.parametrize(
    "args, words",
    [
        (["--skill", "random,clever"], ["clever"]),
        (["--skill", "greedy,random", "-p", "3"], ["2 seats for 3 players", "repeat --skill"]),
        (["--skill", "greedy/random"], ["write --skill greedy,random"]),
        (["--skill", "random,greedy/random"], ["write --skill random --skill greedy,random"]),
        (["--policy", "greedy/random"], ["write --policy greedy,random"]),
        (["-o", "tiles=NOPE:3"], ["NOPE"]),
        (["--variant", "a", "--variant", "b:river=off,tiles=CAP_ROAD_WE:0"], ["cannot be played"]),
        (["-o", "tiles=CAP:100000"], ["CAP:100000"]),
        (["--until", "ci<"], ["--until"]),
        (["-p", "7"], ["--players"]),
        (["--policy", "greedy", "--skill", "random"], ["--skill or --policy"]),
        (["--policy", "greedy,random,random"], ["3 seats for 2 players"]),
        (["--workers", "2"], ["--scheduler local"]),
        (["--grid", "small_city=on"], ["--grid"]),
        (["--grid", "small_city=on,on"], ["--grid small_city: 'on' is given twice"]),
        (["--grid", "small_city=off,no"], ["'off' and 'no' are the same value"]),
        (["--scheduler", "tcp://127.0.0.1:9", "--connect-timeout", "0.5"], ["scheduler"]),
        (["--out", "x.txt"], [".parquet"]),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, args, words):
    out = tmp_path / "never.csv"
    extra = [] if "--out" in args else ["--out", str(out)]
    proc = cli("study", "-n", "10", *args, *extra, "-q", "--report", str(tmp_path / "rep"))
    one_line_error(proc, *words)
    assert not out.exists() and not (tmp_path / "rep").exists()
    assert list(tmp_path.iterdir()) == []


def test_a_study_of_more_than_a_thousand_cells_needs_many_cells(tmp_path):
    """1,280 cells (128 variants x 2 skill levels x 5 player counts) are refused in one line
    before any variant is built, unless --many-cells is given (then the next check speaks)."""
    grid = []
    for o in ("river", "abbot", "small_city", "farmers", "toll_collectors", "fortune_teller"):
        grid += ["--grid", f"{o}=on,off"]
    grid += [
        "--grid",
        "big_top=off,on",
        "-p",
        "2,3,4,5,6",
        "--skill",
        "random",
        "--skill",
        "greedy",
    ]
    out = tmp_path / "never.csv"
    proc = cli("study", "-n", "100", *grid, "--trajectories", "-1", "--out", str(out), "-q")
    one_line_error(
        proc,
        "the study has 1,280 cells (variants x skill levels x player counts), more than 1,000",
        "at least 128,000 deals",
        "--many-cells",
    )
    proc = cli("study", "-n", "100", *grid, "--trajectories", "-1", "--many-cells", "-q")
    one_line_error(proc, "--trajectories must be >= 0")
    assert not out.exists()


def test_policy_per_seat_is_one_skill_level(tmp_path):
    out = tmp_path / "p.csv"
    cli(
        "study",
        "-n",
        "10",
        "--policy",
        "greedy,random",
        "--rotate-seats",
        "--out",
        str(out),
        "-q",
        check=True,
    )
    r = read_table(out)
    assert set(r["skill"].tolist()) == {"greedy,random"} and set(r["rotation"].tolist()) == {0, 1}


def test_search_players_are_a_skill_level():
    s = study(Rules(), 3, skills=["greedy", "mcts:playouts=20"], seed=2, threads=1)
    level = [k.skill for k in s.keys()][1]
    assert level.startswith("mcts")
    native = simulate(Rules(), 3, 2, level, 2, threads=1)
    r = s.rows
    mask = r["skill"] == level
    assert r["score"][mask].reshape(3, 2).tolist() == native.scores.tolist()
    mixed = study(Rules(), 2, skills="mcts:playouts=20,greedy", rotate_seats=True, threads=1)
    assert set(mixed.rows["rotation"].tolist()) == {0, 1}


def test_skill_levels_parse_to_canonical_policies():
    assert parse_skills(["random", " greedy"]) == ["random", "greedy"]
    assert parse_skills("greedy, random", 2) == ["greedy,random"]  # one level, seat by seat
    assert parse_skills(["greedy,random", ["random", "greedy"]], 2) == [
        "greedy,random",
        "random,greedy",
    ]
    assert parse_skills("expert") == ["expert"]
    for bad in ("", [], "random,,greedy", ["random", "random"], "nope", ["greedy,random,random"]):
        with pytest.raises(StudyError):
            parse_skills(bad, 2)
    # the old form (levels by commas, seats by '/') says what to write instead
    with pytest.raises(StudyError, match=r"write \['random', 'greedy,random'\]$"):
        parse_skills("random,greedy/random")
    with pytest.raises(StudyError, match="not '/': write --skill greedy,random$"):
        parse_skills(["greedy/random"], option="--skill")
    # a '/' inside a policy's own text is no seat separator: the policy's error stands
    with pytest.raises(StudyError, match="unknown skill level"):
        parse_skills("expert:weights=no/such.weights")


# -- scale-out and a real browser ------------------------------------------------------------------


def test_dask_local_cluster_gives_the_same_rows():
    pytest.importorskip("distributed")
    from distributed import Client, LocalCluster

    variants = {"C3": Rules(), "small": Rules(small_city=True)}
    here = study(variants, 90, skills=["random", "greedy,random"], rotate_seats=True, seed=12)
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as lc,
        Client(lc) as client,
    ):
        there = study(
            variants,
            90,
            skills=["random", "greedy,random"],
            rotate_seats=True,
            seed=12,
            threads=1,
            executor=client.get_executor(),
        )
    for col in here.rows:
        assert there.rows[col].tolist() == here.rows[col].tolist(), col
    assert there.answer() == here.answer()


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(
    CHROMIUM is None,
    reason="no chromium or chromium-browser on PATH (CI installs Debian's chromium)",
)
def test_report_opens_in_headless_chromium_without_console_errors(tmp_path):
    from carcassonne.studies.report import write_report

    s = study(
        {"C3": Rules(), "small": Rules(small_city=True)},
        200,
        skills=["random", "greedy,random"],
        rotate_seats=True,
        trajectories=10,
    )
    page = write_report(s, tmp_path / "rep")
    shot = tmp_path / "shot.png"
    base = [
        CHROMIUM,
        "--headless",
        "--disable-gpu",
        "--no-sandbox",
        "--hide-scrollbars",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--enable-logging=stderr",
        "--v=0",
    ]
    proc = subprocess.run(
        [*base, "--window-size=1200,2400", f"--screenshot={shot}", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert shot.exists() and shot.stat().st_size > 20_000
    console = [ln for ln in proc.stderr.splitlines() if "CONSOLE" in ln or "Uncaught" in ln]
    assert console == [], console
    dom = subprocess.run(
        [*base, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120
    )
    assert dom.returncode == 0
    assert '<p class="answer">With random players' in dom.stdout
    # every image of the page loaded from the report's directory
    for src in ("win_rate.png", "scores.png", "sources.png", "differences.png", "lead_changes.png"):
        assert src in dom.stdout and (page.parent / src).exists()
    json.dumps(s.differences()[0].win.to_dict())


def test_ctrl_c_keeps_every_finished_batch(tmp_path):
    import signal
    import time

    out = tmp_path / "s.csv"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "carcassonne",
            "study",
            "-n",
            "1000000",
            "--batch",
            "200",
            "--skill",
            "random",
            "--variant",
            "C3",
            "--variant",
            "small:small_city=on",
            "--out",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Python keeps SIGINT ignored if it starts ignored (a test run in a background job).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stderr is not None
    assert "deals" in proc.stderr.readline()  # a progress line: 5 s of batches done
    proc.send_signal(signal.SIGINT)
    t = time.monotonic()
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert time.monotonic() - t < 60
    assert "interrupted, finished batches kept" in stdout
    r = read_table(out)
    for v in ("C3", "small"):
        deals = np.unique(r["deal"][r["variant"] == v])
        assert len(deals) >= 200 and deals.tolist() == list(range(len(deals)))


def test_cli_on_a_local_dask_cluster_writes_the_same_table(tmp_path):
    pytest.importorskip("distributed")
    common = [
        "study",
        "-n",
        "120",
        "--skill",
        "random",
        "--skill",
        "greedy,random",
        "--rotate-seats",
        "--variant",
        "C3",
        "--variant",
        "small:small_city=on",
        "-q",
    ]
    cli(*common, "--out", str(tmp_path / "here.parquet"), check=True)
    proc = cli(
        *common,
        "--out",
        str(tmp_path / "there.parquet"),
        "--scheduler",
        "local",
        "--workers",
        "2",
        check=True,
    )
    assert "games/s per worker (2 workers)" in proc.stdout
    here, there = read_table(tmp_path / "here.parquet"), read_table(tmp_path / "there.parquet")
    for col in here:
        assert there[col].tolist() == here[col].tolist(), col


def _edited(tmp_path, name, edit):
    """A small study table (CSV) edited by ``edit(header, rows)`` (rows: lists of fields)."""
    out = tmp_path / name
    if not (tmp_path / "clean.csv").exists():
        study(Rules(), 5, seed=1, out=tmp_path / "clean.csv")
    lines = (tmp_path / "clean.csv").read_text().splitlines()
    head = lines[0].split(",")
    rows = [line.split(",") for line in lines[1:]]
    rows = edit(head, rows) or rows
    out.write_text("\n".join([lines[0], *(",".join(r) for r in rows)]) + "\n")
    return out


def _set(column, row, value):
    def edit(head, rows):
        rows[row - 1][head.index(column)] = value

    return edit


@pytest.mark.parametrize(
    "edit,words",
    [
        (_set("seat", 3, "7"), "row 3: seat is 7, not a seat of its game"),
        (_set("won", 2, "maybe"), "row 2: won is 'maybe', not true or false"),
        (_set("deal", 4, str(2**70)), f"row 4: deal is '{2**70}', not a whole number"),
        (_set("master", 5, "3"), "row 5: master seed 3, not 1 as row 1"),
        (lambda head, rows: [*rows, rows[2]], "rows 3 and 11 are the same game and seat"),
        (
            lambda head, rows: rows[:6] + rows[7:],
            "row 7: deal 3 of default | random | 2 players lacks some seat",
        ),  # fmt: skip
    ],
)
def test_an_edited_table_is_refused_in_one_line_naming_the_row(tmp_path, edit, words):
    out = _edited(tmp_path, "s.csv", edit)
    with pytest.raises(StudyError) as e:
        read_table(out)
    assert words in str(e.value)
    one_line_error(cli("report", str(out), "-o", str(tmp_path / "r")), words)
    assert not (tmp_path / "r").exists()
    # --append refuses it too, before playing anything
    before = out.read_text()
    proc = cli("study", "-n", "8", "-s", "1", "--out", str(out), "--append", "-q")
    one_line_error(proc, *(words if "lacks" not in words else ["row", "lacks some seat"]))
    assert out.read_text() == before


def test_unreadable_tables_are_one_line(tmp_path):
    one_line_error(cli("report", str(tmp_path / "none.csv")), "not found")
    one_line_error(cli("report", "/dev/zero"), "not a regular file")
    study(Rules(), 3, seed=1, out=tmp_path / "t.csv")
    latin = tmp_path / "latin.csv"
    header = (tmp_path / "t.csv").read_bytes().splitlines()[0]
    latin.write_bytes(header + b"\n\xe9t\xe9\n")
    one_line_error(cli("report", str(latin)), "line 2 is not UTF-8")
    long = tmp_path / "long.jsonl"
    long.write_text("x" * 2_000_000)
    one_line_error(cli("report", str(long)), "longer than")
    one_line_error(cli("record", str(long), "--game", "0"), "longer than")
    t = str(tmp_path / "t.csv")
    proc = cli("record", t, "--game", "0", "--out", t, "--overwrite")
    one_line_error(proc, "is the file this command reads")
    assert read_table(tmp_path / "t.csv")["deal"].tolist() == [0, 0, 1, 1, 2, 2]


def test_with_whole_ties_the_fair_share_counts_the_shared_wins():
    # With a shared win whole for each tied seat the seats' rates sum to more than 100%, so
    # a seat's fair share is the winners per game over P, not 1/P (which read the tied
    # seats' extra wins as an advantage).
    split = study(Rules(), 400, skills="random", players=3, seed=5)
    whole = study(Rules(), 400, skills="random", players=3, seed=5, ties="whole")
    key = CellKey("default", "random", 3)
    cs, cw = split.cells()[key], whole.cells()[key]
    assert math.isclose(cs.fair_share, 1 / 3)
    wins = whole.rows["win_share"].reshape(-1, 3)
    assert (wins.sum(axis=1) > 1).any(), "seed 5 has shared wins in its first 400 games"
    assert math.isclose(cw.fair_share, wins.sum(axis=1).mean() / 3)
    assert math.isclose(cw.first_advantage.mean, (wins[:, 0] - wins.sum(axis=1) / 3).mean())
    assert f"fair share of {100 * cw.fair_share:.1f}%" in answer(whole)
    games, _ = whole.games(key, "advantage")
    assert math.isclose(np.nanmean(games), cw.first_advantage.mean)
