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


def _engine_moves(masters, seed):
    """Every action of a seeded engine game with a master on each side (both observe the other)."""
    from yahtzee_solver.game import cpu_actions, new_game

    state = new_game("yahtzee", "master", seed=seed)
    actions = []
    while not state.is_terminal():
        for act in cpu_actions(state, masters[state.current]):
            actions.append(repr(act))
            state.apply_action(act)
    return actions, state.totals()


def test_two_masters_sharing_one_duel_solver_play_the_same_moves():
    """They solve the same zero-sum game: sharing the solver changes the cost, not a move."""
    from yahtzee_solver.strategy.duel import DuelSolver

    for seed in (1, 2):
        own = [MasterStrategy("yahtzee", max_open=3), MasterStrategy("yahtzee", max_open=3)]
        solver = DuelSolver("yahtzee", "optimal")
        shared = [MasterStrategy("yahtzee", max_open=3, duel_solver=solver) for _ in range(2)]
        a, b = _engine_moves(own, seed), _engine_moves(shared, seed)
        assert a == b and len(a[0]) > 60
        # the second master's solves were look-ups: fewer nodes than the two own solvers solved
        n_own = sum(len(m._duel_model[1]._memo) for m in own if m._duel_model is not None)
        assert 0 < len(solver._memo) < n_own
    res = [play_match("master", "master", 4, seed=3, max_open=3, share_duel=s) for s in (True, False)]
    assert np.array_equal(res[0].scores, res[1].scores)
    with pytest.raises(UsageError, match="optimal"):
        MasterStrategy("yahtzee", duel_solver=DuelSolver("yahtzee", "expert"))


def test_play_match_new_master_against_the_old_one():
    """duel_max_open=(None, 0): master with the exact endgame against master without it, on the same dice."""
    new_old = play_match("master", "master", 2, seed=4, max_open=3, duel_max_open=(None, 0))
    old_old = play_match("master", "master", 2, seed=4, max_open=3, duel_max_open=(0, 0))
    # the old master's side plays the same with either opponent until the endgame, so the scores of
    # seat b differ from the all-old match only through the endgame; at least the match ran whole
    assert new_old.scores.shape == old_old.scores.shape == (2, 2)
    assert (new_old.scores > 0).all()
