"""Every probability a surface shows lies in [0, 1]: float64 sums of exact probabilities are clipped
at their source (strategy/probability.py), and P(final >= the least possible total) is exactly 1.

The case that went wrong: Yacht's empty-card distribution under the expected-score policy sums
to a hair above 1, so its tail at T = 0 read 1.0000000000000004 (``100.00 %`` in a table).
"""

from __future__ import annotations

import numpy as np
import pytest

from clihelpers import run, run_json
from yahtzee_solver.analysis.curve_data import SHIPPED_RULES, curve_path, load_curve
from yahtzee_solver.i18n import format_probability
from yahtzee_solver.state import ScoreCard
from yahtzee_solver.strategy.distribution import ScoreDistribution
from yahtzee_solver.strategy.objectives import first_place_chances, opponent_pmf, survival
from yahtzee_solver.strategy.probability import clip_probability, tail_probabilities


@pytest.fixture(scope="module")
def yacht_pmf():
    """Yacht's exact final-score pmf under the expected-score policy from the empty card (the DP)."""
    return opponent_pmf("yacht", ScoreCard.empty("yacht"), "expert")


def test_clip_probability_takes_off_only_the_rounding():
    above, below = 1.0 + 2.0 ** -52, -(2.0 ** -60)
    assert clip_probability(above) == 1.0 and clip_probability(below) == 0.0
    assert clip_probability(np.float64(0.25)) == 0.25 and isinstance(clip_probability(np.float64(0.25)), float)
    np.testing.assert_array_equal(clip_probability(np.array([below, 0.5, above])), [0.0, 0.5, 1.0])


def test_the_raw_tail_of_yachts_distribution_overshoots_1(yacht_pmf):
    # the premise of the fix: the plain reversed cumsum of this DP's pmf is above 1
    assert np.cumsum(yacht_pmf[::-1])[::-1].max() > 1.0


def test_survival_is_clipped_and_certain_up_to_the_least_total(yacht_pmf):
    lo = int(np.flatnonzero(yacht_pmf)[0])
    out = survival(yacht_pmf, lo + 20)
    assert out.min() >= 0.0 and out.max() <= 1.0
    assert np.all(out[: lo + 1] == 1.0)
    np.testing.assert_array_equal(tail_probabilities(yacht_pmf)[: lo + 21], out)


def test_distribution_tail_and_cdf_stay_in_unit_interval(yacht_pmf):
    d = ScoreDistribution("yacht", "optimal", yacht_pmf)
    lo, hi = d.support
    assert d.prob_at_least(lo) == 1.0 and d.prob_at_least(0) == 1.0
    assert d.cdf.max() <= 1.0 and d.cdf.min() >= 0.0
    assert all(0.0 <= d.prob_at_least(t) <= 1.0 for t in range(lo, hi + 2))


def test_first_place_chances_stay_in_unit_interval(yacht_pmf):
    point = np.zeros(yacht_pmf.size)
    point[0] = 1.0  # a player certain to finish last
    chances = first_place_chances([yacht_pmf, point])
    assert chances.max() <= 1.0 and chances.min() >= 0.0
    assert chances[0] == pytest.approx(1.0, abs=1e-14)  # every yacht total of positive probability beats a certain 0


@pytest.mark.parametrize("rules", SHIPPED_RULES)
def test_shipped_curves_read_as_probabilities_certain_at_zero(rules):
    c = load_curve(curve_path(rules), rules)
    for col in (c.best, c.expected_score_policy):
        assert col.min() >= 0.0 and col.max() <= 1.0 and col[0] == 1.0


@pytest.mark.parametrize("rules", SHIPPED_RULES)
def test_target_curve_shows_probabilities_and_exact_certainty(rules):
    data = run_json("target-curve", "--rules", rules, "--max", "10")
    for col in ("best", "expected_score_policy"):
        assert all(0.0 <= p <= 1.0 for p in data[col]), data[col]
        assert data[col][0] == 1.0
    result = run("target-curve", "--rules", rules, "--max", "0")
    assert result.exit_code == 0, result.output
    row = result.output.splitlines()[-1].split()
    assert row[0] == "0" and " ".join(row[1:]) == f"{format_probability(1.0)} {format_probability(1.0)}"
