"""The scoring kernel reports the Joker case and the bonus gains; every caller reads them from there."""

from __future__ import annotations

import random

import numpy as np
import pytest

from yahtzee_solver.solver import kernels
from yahtzee_solver.game import joker_info
from yahtzee_solver.rules import N_UPPER, get_rules
from yahtzee_solver.state import ScoreCard

RULE_NAMES = ("yahtzee", "yahtzee-free-joker", "yacht")


def expected_case(card: ScoreCard, dice) -> str | None:
    """The Joker case from docs/rules.md, written out plainly (the oracle)."""
    rules = card.rules
    y = rules.yahtzee_category
    if rules.joker == "none" or y < 0 or len(set(dice)) != 1 or card.boxes[y] is None:
        return None
    upper_open = card.boxes[dice[0] - 1] is None
    if rules.joker == "forced":
        if upper_open:
            return "upper"
        if any(card.boxes[c] is None for c in range(N_UPPER, rules.n_categories)):
            return "lower"
        return "upper_zero"
    return "free" if upper_open else "free_fixed"


def cards_and_dice(name: str, n: int, seed: int):
    rules = get_rules(name)
    rnd = random.Random(seed)
    for _ in range(n):
        card = ScoreCard.empty(rules)
        for _ in range(rnd.randrange(rules.n_categories)):
            dice = tuple(sorted(rnd.randint(1, 6) for _ in range(5)))
            if rnd.random() < 0.3:
                dice = (rnd.randint(1, 6),) * 5
            points, legal, bonus = card.box_points(dice)
            c = rnd.choice([c for c in range(rules.n_categories) if legal[c]])
            card = card.with_box(c, points[c], bonus)
        f = rnd.randint(1, 6)
        for dice in ((f,) * 5, tuple(sorted(rnd.randint(1, 6) for _ in range(5)))):
            yield card, dice


@pytest.mark.parametrize("name", RULE_NAMES)
def test_scoring_reports_joker_case_and_upper_bonus_gain(name):
    seen = set()
    for card, dice in cards_and_dice(name, 300, seed=5):
        s = card.scoring(dice)
        assert s.joker == expected_case(card, dice)
        seen.add(s.joker)
        assert (list(s.points), list(s.legal), s.yahtzee_bonus) == card.box_points(dice)
        for c in range(card.rules.n_categories):
            if s.legal[c]:
                after = card.with_box(c, s.points[c], s.yahtzee_bonus)
                assert s.upper_bonus[c] == after.upper_bonus - card.upper_bonus
        j = joker_info(card, dice)
        assert (j.case if j else None) == s.joker
        if j:
            assert j.face == dice[0] and j.category == dice[0] - 1 and j.yahtzee_bonus == s.yahtzee_bonus
    want = {"yahtzee": {None, "upper", "lower"}, "yahtzee-free-joker": {None, "free", "free_fixed"},
            "yacht": {None}}[name]
    assert want <= seen


def test_compiled_scoring_matches_interpreted():
    from yahtzee_solver.solver import jit

    k = jit.compiled()
    for card, dice in cards_and_dice("yahtzee", 60, seed=6):
        assert card.scoring(dice, kernels=k) == card.scoring(dice)


def test_upper_bonus_gain_at_the_threshold():
    p = get_rules("yahtzee").arrays()["params"]
    assert kernels.upper_bonus_gain(45, 5, 18, p) == 35  # 45 + 18 = 63
    assert kernels.upper_bonus_gain(46, 5, 18, p) == 35
    assert kernels.upper_bonus_gain(44, 5, 18, p) == 0
    assert kernels.upper_bonus_gain(63, 5, 18, p) == 0  # already made
    assert kernels.upper_bonus_gain(60, 6, 30, p) == 0  # a lower box
    assert np.int64(kernels.JOKER_NONE) == 0


def test_engine_score_event_reads_the_kernel():
    """The Event of a score carries the kernel's points, Yahtzee bonus, upper bonus and Joker flag."""
    from yahtzee_solver.game import Score, new_game

    for card, dice in cards_and_dice("yahtzee", 80, seed=7):
        g = new_game("yahtzee", seed=1)
        g.cards[0] = card
        g.dice, g.rolls_used = dice, 3
        s = card.scoring(dice)
        c = next(c for c in range(13) if s.legal[c])
        ev = g.apply_action(Score(c))
        assert (ev.points, ev.yahtzee_bonus, ev.upper_bonus, ev.joker) == (
            s.points[c], s.yahtzee_bonus, s.upper_bonus[c], s.joker is not None)
