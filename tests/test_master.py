"""The master CPU, the fixed-policy score distribution it models its opponent with, and play_match."""

from __future__ import annotations

import numpy as np
import pytest

from yahtzee_solver import parse_card
from yahtzee_solver.strategy.advisor import Advisor
from yahtzee_solver.errors import UsageError
from yahtzee_solver.analysis.match import play_match, wilson_interval
from yahtzee_solver.strategy.master import MasterStrategy
from yahtzee_solver.strategy.objectives import WinSource, opponent_pmf
from yahtzee_solver.strategy.levels import make_strategy

GLENN = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,ls=40"


def test_master_against_finished_opponent_plays_to_win():
    """39 behind a finished opponent (40 wins): only 6 in Chance keeps a chance to win."""
    me = parse_card(GLENN)
    opp = parse_card(GLENN.replace("3k=20", "3k=29") + ",yahtzee=0,chance=30")
    assert opp.total == me.total + 39
    master = make_strategy("master", "yahtzee")
    master.observe(opp, "expert")
    assert master.choose_box(me, (1, 1, 1, 1, 2)) == me.rules.category_index("chance")
    assert make_strategy("expert").choose_box(me, (1, 1, 1, 1, 2)) == me.rules.category_index("yahtzee")
    p = master.win_probability(me)
    src = WinSource("yahtzee", opponent_pmf("yahtzee", opp, "expert"))
    assert p == src.probability(me) and 0 < p < 1


def test_master_without_opponent_is_the_expert():
    master = MasterStrategy("yahtzee")
    expert = make_strategy("expert")
    card = parse_card("ones=3,twos=6,threes=9,fours=12,3k=20,4k=20,fh=25,ss=30,ls=40")
    for dice in ((1, 2, 3, 4, 6), (6, 6, 6, 2, 2), (5, 5, 5, 5, 5)):
        assert master.choose_keep(card, dice, 2) == expert.choose_keep(card, dice, 2)
        assert master.choose_box(card, dice) == expert.choose_box(card, dice)


@pytest.mark.parametrize("card_text", ["ones=3,twos=6,threes=9,fours=12,fives=15,3k=20,chance=20,fh=25",
                                       GLENN + ",yahtzee=50"])
def test_expert_distribution_mean_is_the_table_value(card_text):
    card = parse_card(card_text)
    pmf = opponent_pmf("yahtzee", card, "expert")
    assert pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert pmf.min() >= 0 and pmf[: card.total].sum() == 0
    mean = float((np.arange(pmf.size) * pmf).sum())
    assert mean == pytest.approx(Advisor("yahtzee").expected_final(card), abs=1e-9)


def test_distribution_levels():
    """The beginner is modelled by its own exact distribution; master and a human by the expert's."""
    card = parse_card(GLENN)
    expert = opponent_pmf("yahtzee", card, "expert")
    assert np.array_equal(opponent_pmf("yahtzee", card, "master"), expert)
    assert np.array_equal(opponent_pmf("yahtzee", card, "human"), expert)
    beginner = opponent_pmf("yahtzee", card, "beginner")
    assert beginner.sum() == pytest.approx(1.0, abs=1e-12)
    mean = lambda p: float((np.arange(p.size) * p).sum())  # noqa: E731
    assert mean(beginner) < mean(expert) - 1.0


def test_play_match_is_deterministic():
    a = play_match("normal", "expert", 4, seed=9)
    b = play_match("normal", "expert", 4, seed=9)
    assert np.array_equal(a.scores, b.scores)
    with pytest.raises(UsageError):
        play_match("normal", "wizard", 4)
    with pytest.raises(UsageError):
        play_match("normal", "expert", 0)


def test_wilson_interval():
    lo, hi = wilson_interval(50, 100)
    assert lo < 0.5 < hi and hi - lo == pytest.approx(2 * 1.96 * 0.05, rel=0.02)
