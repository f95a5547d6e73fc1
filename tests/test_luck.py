"""Luck-adjusted study estimates (issue 35): the adjustment keeps the mean (any covariate,
cross-fitted slopes), pinned questions give the same answer raw and adjusted with 2 and 3
players, and tables with and without the luck columns are read by every command."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from carcassonne import Rules, _core, simulate, training
from carcassonne.cli import main
from carcassonne.studies import Study, study
from carcassonne.studies.luck import adjust
from carcassonne.studies.table import LUCK_COLUMNS, read_table
from carcassonne.training import value_weights


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_adjusted_mean_is_unbiased_whatever_the_covariate():
    """Over many seeded samples, the adjusted mean's error averages zero with a covariate
    that explains most of the result, one that explains nothing and one that is constant;
    the informative one cuts the variance."""
    rng = np.random.default_rng(3)
    errors = {"good": [], "noise": [], "constant": []}
    cuts = []
    for _ in range(400):
        luck = rng.normal(0, 1, 200)
        y = 5.0 + 2.0 * luck + rng.normal(0, 1, 200)
        deals = np.arange(200)
        for name, c in (
            ("good", luck),
            ("noise", rng.normal(0, 1, 200)),
            ("constant", np.zeros(200)),
        ):
            a = adjust(y[:, None], c[:, None, None], deals)[:, 0]
            errors[name].append(a.mean() - 5.0)
            if name == "good":
                cuts.append(y.var() / a.var())
    for name, e in errors.items():
        e = np.array(e)
        assert abs(e.mean()) < 4 * e.std() / np.sqrt(len(e)), name
    assert np.mean(cuts) > 4


def test_the_luck_is_measured_without_changing_the_games():
    plain = simulate(Rules(), 6, 2, "greedy", 3, 1)
    lucky = simulate(Rules(), 6, 2, "greedy", 3, 1, luck=True)
    assert plain.luck is None
    assert np.array_equal(plain.scores, lucky.scores)
    assert lucky.luck is not None and (lucky.luck["luck_events"] > 50).all()
    assert lucky.luck["luck_score"].shape == (6, 2)
    # The win probabilities of a game's seats add up to one, so their luck sums to zero.
    assert np.allclose(lucky.luck["luck_win"].sum(axis=1), 0, atol=1e-9)


def test_look_ahead_seats_lend_v_their_replies(monkeypatch):
    # Look-ahead seats: V values each tile of the draw after a searched move after the reply
    # the search found for it (the default), or is their own values of it (asked for).
    monkeypatch.setattr(training, "TRAIN_GAMES", 40)  # the model of the one-ply ranking's games
    monkeypatch.setattr(training, "LUCK_GAMES", 20)
    pol = "heuristic:depth=2:top=2"
    plain = simulate(Rules(), 2, 2, pol, 3, 1)
    lucky = simulate(Rules(), 2, 2, pol, 3, 1, luck=True)
    assert np.array_equal(plain.scores, lucky.scores)
    assert lucky.luck is not None and (lucky.luck["luck_events"] > 50).all()

    def seat_luck(values: str) -> np.ndarray:
        raw = _core.simulate(2, 2, 3, pol, 1, luck=True, luck_values=values)
        assert np.array_equal(np.frombuffer(raw["scores"][0], "<i4").reshape(2, 2), plain.scores)
        return np.frombuffer(raw["luck_score"][0], "<f8").reshape(2, 2)

    searched, replied, settled = (seat_luck(v) for v in ("searched", "replied", "settled"))
    # The searched V is one seat's margin: its gain is the other's loss.
    assert np.allclose(searched.sum(axis=1), 0, atol=1e-6)
    assert not np.allclose(replied, settled) and not np.allclose(replied, searched)


def test_luck_values_are_checked():
    with pytest.raises(ValueError, match="look-ahead at every seat"):
        _core.simulate(2, 1, 0, "greedy", 1, luck=True, luck_values="searched")
    with pytest.raises(ValueError, match="look-ahead at every seat"):
        _core.simulate(3, 1, 0, "heuristic:depth=2", 1, luck=True, luck_values="searched")
    with pytest.raises(ValueError, match="'auto', 'settled', 'searched' or 'replied'"):
        _core.simulate(2, 1, 0, "greedy", 1, luck=True, luck_values="best")
    with pytest.raises(ValueError, match="luck_settle must choose in one ply"):
        _core.simulate(2, 1, 0, "greedy", 1, luck=True, luck_settle="expert:depth=2")
    with pytest.raises(ValueError, match="luck_tail must be at most 8"):
        _core.simulate(2, 1, 0, "greedy", 1, luck=True, luck_tail=9)


def test_the_tail_changes_the_luck_near_the_end_and_no_game():
    # V exact with the last 4 tiles left or never (the default for one-ply seats): the same
    # games, other luck.
    def run(tail: int | None) -> dict[str, np.ndarray]:
        raw = _core.simulate(2, 4, 5, "greedy", 1, luck=True, luck_tail=tail)
        return {k: np.frombuffer(b, t).reshape(s) for k, (b, t, s) in raw.items()}

    tailed, never = run(4), run(None)
    assert np.array_equal(never["luck_win"], run(0)["luck_win"])
    assert np.array_equal(tailed["scores"], never["scores"])
    assert np.array_equal(tailed["luck_events"], never["luck_events"])
    assert not np.allclose(tailed["luck_win"], never["luck_win"])
    # Early events are valued alike: the luck of the first two thirds of the bag is the same.
    early = slice(0, 2)
    for k in ("luck_score_parts", "luck_win_parts"):
        d, n = (x[k].reshape(4, 2, 4, 3)[..., early] for x in (tailed, never))
        assert np.allclose(d, n)


def test_seats_that_search_take_the_tail_by_default():
    # mcts neither chooses in one ply nor looks ahead: its V is settled, with the tail.
    def run(tail: int | None) -> np.ndarray:
        raw = _core.simulate(2, 2, 5, "mcts:playouts=5", 1, luck=True, luck_tail=tail)
        return np.frombuffer(*raw["luck_win"][:2])

    default = run(None)
    assert np.array_equal(default, run(4))
    assert not np.allclose(default, run(0))


# The pinned questions (docs/studies.md): the Fortune Teller's effect on seat 1's advantage,
# the base game's first-player advantage with 3 players, C3.1 against C2 on the pigs' points.
QUESTIONS = [
    ({"base": Rules(), "ft": Rules(fortune_teller=True)}, 2, "advantage"),
    ({"base": Rules()}, 3, "advantage"),
    (
        {"C3.1": Rules(traders_builders="C3.1"), "C2": Rules(traders_builders="C2")},
        2,
        "points:pigs",
    ),
    ({"base": Rules(), "ft": Rules(fortune_teller=True)}, 3, "score"),
    # the balance (best minus worst seat's win rate): each seat adjusted by its own luck
    ({"base": Rules(), "ft": Rules(fortune_teller=True)}, 3, "balance"),
    ({"base": Rules()}, 3, "balance"),
]


@pytest.mark.parametrize(("variants", "players", "metric"), QUESTIONS)
def test_pinned_questions_agree_raw_and_luck_adjusted(variants, players, metric):
    s = study(variants, 60, skills="greedy", players=players, metric=metric, luck=True, seed=11)
    raw = Study(s.plan, s.rows, raw=True)
    if len(variants) > 1:
        adj, unadj = s.differences()[0].value, raw.differences()[0].value
        assert s.differences()[0].raw.mean == pytest.approx(unadj.mean)
    else:
        key = s.keys()[0]
        adj, unadj = s.cell_metric(key), raw.cell_metric(key)
    assert adj.mean != unadj.mean
    assert abs(adj.mean - unadj.mean) < unadj.half, (adj, unadj)
    assert "Luck-adjusted" in s.answer() and "cut the variance" in s.answer()
    assert "Luck-adjusted" not in raw.answer()


def test_tables_with_and_without_luck_are_read_by_every_command(capsys, tmp_path):
    lucky = tmp_path / "lucky.csv"
    argv = ["study", "--skill", "greedy", "--variant", "a", "--variant", "b:small_city=on"]
    code, out, _ = run(capsys, *argv, "-n", 8, "-q", "--luck", "--out", lucky)
    assert code == 0 and "Luck-adjusted" in out and "unadjusted:" in out
    rows = read_table(lucky)
    assert (rows["luck_events"] > 0).all() and rows["luck_score"].any()
    code, out, _ = run(capsys, "report", lucky, "-q", "-o", tmp_path / "r1")
    text = (tmp_path / "r1" / "summary.txt").read_text()
    assert code == 0 and "Luck-adjusted" in text
    code, _, _ = run(capsys, "report", lucky, "--raw", "-q", "-o", tmp_path / "r2")
    assert code == 0 and "Luck-adjusted" not in (tmp_path / "r2" / "summary.txt").read_text()
    # A table from before the luck columns: read everywhere, answered raw.
    lines = lucky.read_text().splitlines()
    header = lines[0].split(",")
    keep = [i for i, c in enumerate(header) if c not in LUCK_COLUMNS]
    old = tmp_path / "old.csv"
    old.write_text("".join(",".join(r.split(",")[i] for i in keep) + "\n" for r in lines))
    assert "luck_" not in old.read_text()
    rows = read_table(old)
    assert (rows["luck_events"] == 0).all() and not rows["luck_score"].any()
    code, out, _ = run(capsys, "report", old)
    assert code == 0 and "Luck-adjusted" not in out
    assert run(capsys, "record", old, "--game", 1, "--variant", "a")[0] == 0
    # Going on: the same way the table was played, or a one-line refusal.
    code, _, err = run(capsys, *argv, "-n", 10, "-q", "--out", lucky, "--append")
    assert code == 2 and "give --luck" in err
    code, _, err = run(capsys, *argv, "-n", 10, "-q", "--luck", "--out", old, "--append")
    assert code == 2 and "no luck measured" in err
    code, out, _ = run(capsys, *argv, "-n", 10, "-q", "--luck", "--out", lucky, "--append")
    assert code == 0 and "Luck-adjusted" in out
    assert len(read_table(lucky)["deal"]) == 2 * 10 * 2


def test_a_value_model_per_rule_set_seats_and_players_trained_once(value_model_cache, monkeypatch):
    monkeypatch.setattr(training, "TRAIN_GAMES", 60)
    monkeypatch.setattr(training, "LUCK_GAMES", 30)
    ft = Rules(fortune_teller=True)
    greedy = value_weights(ft)
    assert greedy.startswith(str(value_model_cache))
    text = open(greedy).read()
    assert "model abbot+fortune_teller+river\n" in text and text.count("model ") == 1
    stamp = os.stat(greedy).st_mtime_ns
    assert value_weights(ft, "greedy,greedy", 2) == greedy  # the same seats
    assert os.stat(greedy).st_mtime_ns == stamp  # cached: not trained again
    # Fitted on the games of other seats, or of three players: other models.
    expert, three = value_weights(ft, "expert"), value_weights(ft, "greedy", 3)
    assert len({greedy, expert, three}) == 3
    assert open(expert).read() != text and open(three).read() != text
    assert value_weights(Rules(fortune_teller=True, farmers=False)) != greedy  # any option
    # The first fit alone (the replied V's): a model of its own, also trained once.
    level = value_weights(ft, "greedy", 2, refit=False)
    assert level != greedy and open(level).read() != text
    assert "model abbot+fortune_teller+river\n" in open(level).read()
    stamp = os.stat(level).st_mtime_ns
    assert value_weights(ft, "greedy", 2, refit=False) == level
    assert os.stat(level).st_mtime_ns == stamp


def test_the_luck_plan_says_where_v_comes_from():
    assert _core.luck_plan(2, "expert") == ("settled", "expert")
    assert _core.luck_plan(3, "expert,greedy,random") == ("settled", "expert,greedy,random")
    # Look-ahead seats: V after their replies, fitted on games of their one-ply rankings.
    for players in (2, 3):
        assert _core.luck_plan(players, "heuristic:depth=2") == ("replied", "heuristic")
    assert _core.luck_plan(2, "expert:depth=2:width=16,greedy") == (
        "replied",
        "expert:width=16,greedy",
    )
    assert _core.luck_plan(2, "heuristic:depth=2", "searched") == ("searched", None)
    assert _core.luck_plan(2, "heuristic:depth=2", "settled") == ("settled", "greedy")
    assert _core.luck_plan(2, "mcts:playouts=10") == ("settled", "greedy")
    with pytest.raises(ValueError, match="look-ahead at every seat"):
        _core.luck_plan(2, "expert", "searched")


def test_a_study_fits_v_on_its_own_seats_or_their_rankings(value_model_cache, monkeypatch):
    monkeypatch.setattr(training, "TRAIN_GAMES", 40)
    monkeypatch.setattr(training, "LUCK_GAMES", 20)
    before = set(value_model_cache.iterdir())
    simulate(Rules(), 2, 2, "expert", 3, 1, luck=True)
    new = set(value_model_cache.iterdir()) - before
    assert new == {Path(value_weights(Rules(), "expert"))}
    # Look-ahead seats: a model of their one-ply ranking's games, which their replies follow,
    # fitted once (the replied V wants no refit).
    # (An earlier test may have trained the same model: the cache is the session's.)
    simulate(Rules(), 1, 2, "heuristic:depth=2:top=2", 3, 1, luck=True)
    after = set(value_model_cache.iterdir())
    heuristic = Path(value_weights(Rules(), "heuristic", refit=False))
    assert heuristic in after and after - before <= new | {heuristic}


def test_luck_rows_are_each_seats_margin_over_the_others_mean_less_its_score_luck():
    # 1 game, 3 seats, features (score, bias, one term).
    luck = np.array([[[1.0, 0.0, 2.0], [4.0, 0.0, -1.0], [-2.0, 0.0, 5.0]]])
    scores = np.array([[30, 20, 10]])
    rows, targets = training.luck_rows(luck, scores)
    # Seat 2: term luck -1 - (2 + 5) / 2 = -4.5; margin 20 - (30 + 10) / 2 = 0, less its
    # score luck 4 - (1 - 2) / 2 = 4.5. The bias column is 0 (no level).
    assert rows.tolist() == [[0.0, 0.0], [0.0, -4.5], [0.0, 4.5]]
    assert targets.tolist() == [15.0, -4.5, -10.5]


def test_v_is_refitted_so_that_its_luck_explains_the_margins(tmp_path):
    """The second step of ``value_weights``: V's luck is its features' luck times its
    weights (exactly: the model is linear), and the refit explains the seats' margins
    better than the outcome predictor it starts from (their common fit trades the level for
    the luck: never worse on the luck)."""
    rules = Rules.base()
    x, y, _ = training.positions(rules, 60, 11, "greedy")
    first = training.fit(x, y)
    path = tmp_path / "first.weights"
    key = _core.model_key(rules)
    path.write_text(_core.weights_text([(key, [float(v) for v in first])]))
    raw = _core.simulate(
        games=60,
        seed=12,
        policy="greedy",
        rules=rules,
        luck=True,
        luck_weights=str(path),
        luck_values="settled",
        luck_terms=True,
    )
    cols = {k: np.frombuffer(b, dtype=t).reshape(s) for k, (b, t, s) in raw.items()}
    terms = cols["luck_terms"]
    assert terms.shape == (60, 2, 1 + len(first))
    weighed = terms[:, :, 0] + terms[:, :, 1:] @ first
    assert np.allclose(weighed, cols["luck_score"], atol=1e-2)
    rows, targets = training.luck_rows(terms, cols["scores"])
    refit = training.fit(x, y, ranking=(rows, targets))

    def unexplained(w: np.ndarray) -> float:
        return float(((targets - rows @ w) ** 2).sum())

    assert unexplained(refit) < 0.9 * unexplained(first)
