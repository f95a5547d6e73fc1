"""Two-level (factored) actions: one to one with the flat numbering over the whole space and
over whole random games with every option, played through the two small masks."""

import numpy as np
import pytest

import carcassonne.env as cenv
from carcassonne import Rules

from rulehelpers import EVERY_OPTION


@pytest.mark.parametrize("rules", [Rules.base(), EVERY_OPTION])
def test_the_mapping_is_one_to_one_over_the_whole_space(rules):
    v = cenv.VectorEnv(rules, 2, 1)
    fa = v.factored
    a = np.arange(fa.action_size)
    p, f = fa.split(a)
    np.testing.assert_array_equal(fa.join(p, f), a)
    pairs = p * fa.figures + f
    assert len(np.unique(pairs)) == fa.action_size
    assert p.max() == fa.placements - 1 and f.max() == fa.figures - 1
    # Exact numbers of the base game, 2 players (docs/environments.md).
    if rules == Rules.base():
        assert (fa.placements, fa.figures, fa.action_size) == (3091, 9, 27763)
        assert fa.split([27756 + 2])[0][0] == 3084 + 2  # choose hand tile 0: placement 3086
    with pytest.raises(ValueError, match="only figure 0"):
        fa.join([fa.placements - 1], [1])
    with pytest.raises(ValueError):
        fa.split([fa.action_size])


@pytest.mark.parametrize("rules,players", [(EVERY_OPTION, 2), (EVERY_OPTION, 3), (Rules(), 2)])
def test_whole_random_games_played_through_the_two_levels(rules, players):
    b = 4
    v = cenv.VectorEnv(rules, players, b, opponents="self", seed=players)
    fa = v.factored
    v.reset()
    rng = np.random.default_rng(0)
    finished = 0
    while finished < 2 * b:
        actions, starts = v.legal_lists()
        p, f = fa.split(actions)
        np.testing.assert_array_equal(fa.join(p, f), actions)
        rows = np.repeat(np.arange(b), np.diff(starts))
        # Distinct legal actions of a game are distinct pairs.
        keys = (rows * fa.placements + p) * fa.figures + f
        assert len(np.unique(keys)) == len(actions)
        pm = fa.placement_mask(actions, starts)
        for i in range(b):
            assert set(np.flatnonzero(pm[i])) == set(p[rows == i])
        chosen = np.array([rng.choice(np.flatnonzero(row)) for row in pm])
        fm = fa.figure_mask(actions, starts, chosen)
        for i in range(b):
            here = (rows == i) & (p == chosen[i])
            assert set(np.flatnonzero(fm[i])) == set(f[here])
        fig = np.array([rng.choice(np.flatnonzero(row)) for row in fm])
        step = fa.join(chosen, fig)
        _, _, term, _, _ = v.step(step)  # legal, or the step would raise
        finished += int(term.sum())
