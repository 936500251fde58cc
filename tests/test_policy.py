"""The policy layer: one greedy policy over a value source, its tie-break rule, and its sources."""

from __future__ import annotations

import random

import numpy as np
import pytest

from yahtzee_solver.strategy.advisor import Advisor
from yahtzee_solver.strategy.batch import ArrayAdvisor
from yahtzee_solver.dice import KEEPS, N_KEEPS, ROLL_SUBKEEPS, roll_index
from yahtzee_solver.errors import DiceError, UsageError
from yahtzee_solver.strategy.players import ExpertStrategy, NormalStrategy, PolicyStrategy
from yahtzee_solver.strategy.policy import (
    ExpectedValueSource,
    Policy,
    TurnOnlySource,
    ValueSource,
    check_rolls_left,
)
from yahtzee_solver.rules import get_rules
from yahtzee_solver.state import ScoreCard, parse_card

RULE_NAMES = ("yahtzee", "yahtzee-free-joker", "yacht")


def random_cards(name: str, n: int, seed: int):
    """Open cards of ``name`` met by filling random boxes with random legal scores."""
    rules = get_rules(name)
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        card = ScoreCard.empty(rules)
        for _ in range(rnd.randrange(rules.n_categories)):
            dice = tuple(sorted(rnd.randint(1, 6) for _ in range(5)))
            points, legal, bonus = card.box_points(dice)
            c = rnd.choice([c for c in range(rules.n_categories) if legal[c]])
            card = card.with_box(c, points[c], bonus)
        out.append(card)
    return out


@pytest.mark.parametrize("name", RULE_NAMES)
def test_policy_rankings_are_the_advisors(name, fresh_table):
    """Advisor is a thin layer: same order, expected final totals = the policy's values at the card's total."""
    rules = get_rules(name)
    adv = Advisor(rules, fresh_table(name))
    policy = Policy(ExpectedValueSource(rules, fresh_table(name)))
    rnd = random.Random(3)
    for card in random_cards(name, 12, seed=4):
        dice = tuple(sorted(rnd.randint(1, 6) for _ in range(5)))
        r = roll_index(dice)
        for rl in (1, 2):
            codes, values = policy.keep_ranking(card.key, card.total, r, rl)
            opts = adv.keep_options(card, dice, rl)
            assert [KEEPS[k] for k in codes] == [o.keep for o in opts]
            assert values == pytest.approx([o.expected for o in opts], abs=1e-9)
            assert policy.choose_keep(card.key, card.total, r, rl) == codes[0]
        boxes, values = policy.box_ranking(card.key, card.total, r)
        opts = adv.box_options(card, dice)
        assert boxes.tolist() == [o.category for o in opts]
        assert values == pytest.approx([o.expected for o in opts], abs=1e-9)
        assert policy.choose_box(card.key, card.total, r) == boxes[0]


@pytest.mark.parametrize("name", ["yahtzee", "yacht"])
def test_array_advisor_and_players_play_the_same_policy(name, fresh_table):
    rules = get_rules(name)
    arr = ArrayAdvisor(rules, fresh_table(name))
    expert = ExpertStrategy(rules, fresh_table(name))
    rnd = random.Random(8)
    for card in random_cards(name, 10, seed=9):
        dice = tuple(sorted(rnd.randint(1, 6) for _ in range(5)))
        for rl in (1, 2):
            codes, values = arr.ranked(*card.key, dice, rl)
            pc, pv = arr.policy.keep_ranking(card.key, 0, roll_index(dice), rl)
            assert codes.tolist() == pc.tolist() and np.array_equal(values, pv)
            assert expert.choose_keep(card, dice, rl) == KEEPS[codes[0]]
        codes, values = arr.ranked(*card.key, dice, 0)
        assert expert.choose_box(card, dice) == codes[0]
    # the batch API reads the source's public arrays
    assert arr.source.values is fresh_table(name).values
    assert arr.source.params is not None and arr.source.score.shape[1] == rules.n_categories


class _Flat:
    """A toy probability source: every option worth the same, except the ones listed in ``bump``."""

    units = "probability"

    def __init__(self, rules, bump=None):
        self.rules = rules
        self.bump = bump or {}
        self.totals = []

    def keep_values(self, state, total, rolls_left):
        self.totals.append(total)
        v = np.full(N_KEEPS, 0.5)
        for k, x in self.bump.items():
            v[k] = x
        return v

    def box_values(self, state, total, roll):
        self.totals.append(total)
        v = np.full(self.rules.n_categories, 0.5)
        mask = state[0]
        for c in range(self.rules.n_categories):
            if (mask >> c) & 1:
                v[c] = np.nan
        return v


def test_ties_go_to_the_smaller_keep_and_the_lower_box():
    rules = get_rules("yahtzee")
    policy = Policy(_Flat(rules))
    card = parse_card("ones=3,yahtzee=50", rules)
    for dice in ((1, 3, 3, 5, 6), (2, 2, 2, 2, 2), (1, 2, 3, 4, 5)):
        r = roll_index(dice)
        codes, values = policy.keep_ranking(card.key, card.total, r, 2)
        listed = [k for k in ROLL_SUBKEEPS[r] if k >= 0]
        assert codes.tolist() == listed  # all tied: the listed order, the smaller keep first
        assert KEEPS[policy.choose_keep(card.key, card.total, r, 1)] == ()
        assert np.all(values == 0.5)
        boxes, values = policy.box_ranking(card.key, card.total, r)
        assert boxes.tolist() == [c for c in range(13) if c not in (0, 11)]  # filled boxes left out
        assert policy.choose_box(card.key, card.total, r) == 1


def test_a_new_objective_plugs_into_the_same_policy():
    """A source in other units is ranked on its own values, with the card's total passed through."""
    rules = get_rules("yahtzee")
    dice = (1, 3, 3, 5, 6)
    r = roll_index(dice)
    listed = [k for k in ROLL_SUBKEEPS[r] if k >= 0]
    src = _Flat(rules, bump={listed[-2]: 0.9, listed[3]: 0.7})  # listed[-1], all five, is scoring now
    assert isinstance(src, ValueSource)
    player = PolicyStrategy(src, "target")
    card = parse_card("sixes=18", rules)
    assert player.choose_keep(card, dice, 2) == KEEPS[listed[-2]]
    codes, values = player.policy.keep_ranking(card.key, card.total, r, 1)
    assert codes[:2].tolist() == [listed[-2], listed[3]] and values[:2].tolist() == [0.9, 0.7]
    assert set(src.totals) == {18}  # a non-additive source sees the real total
    assert player.level == "target"


def test_a_tie_break_source_orders_equal_values_only(fresh_table):
    """All tied: the tie-break source's order (here the expected total); unequal values still rank first."""
    rules = get_rules("yahtzee")
    ev = ExpectedValueSource(rules, fresh_table("yahtzee"), jit=False)
    card = parse_card("ones=3,sixes=18,ss=30", rules)
    for dice in ((1, 3, 3, 5, 6), (2, 2, 2, 4, 6)):
        r = roll_index(dice)
        flat = Policy(_Flat(rules), tiebreak=ev)
        codes, values = flat.keep_ranking(card.key, card.total, r, 2)
        assert codes.tolist() == Policy(ev).keep_ranking(card.key, card.total, r, 2)[0].tolist()
        assert np.all(values == 0.5)
        boxes, _ = flat.box_ranking(card.key, card.total, r)
        assert boxes.tolist() == Policy(ev).box_ranking(card.key, card.total, r)[0].tolist()
        listed = [k for k in ROLL_SUBKEEPS[r] if k >= 0]
        bumped = Policy(_Flat(rules, bump={listed[-2]: 0.9}), tiebreak=ev)
        codes, _ = bumped.keep_ranking(card.key, card.total, r, 2)
        assert codes[0] == listed[-2]
        ev_order = Policy(ev).keep_ranking(card.key, card.total, r, 2)[0].tolist()
        assert codes[1:].tolist() == [k for k in ev_order if k != listed[-2]]
    with pytest.raises(UsageError, match="yacht"):
        Policy(_Flat(rules), tiebreak=ExpectedValueSource(get_rules("yacht"), fresh_table("yacht"), jit=False))


def test_tie_tolerance_merges_rounding_noise():
    """Values 1e-15 apart tie under a tolerance of 1e-12 (then the listed order), not without one."""
    rules = get_rules("yahtzee")
    dice = (1, 3, 3, 5, 6)
    r = roll_index(dice)
    listed = [k for k in ROLL_SUBKEEPS[r] if k >= 0]
    card = parse_card("sixes=18", rules)
    src = _Flat(rules, bump={listed[-2]: 0.5 + 1e-15})
    assert Policy(src).choose_keep(card.key, card.total, r, 2) == listed[-2]
    tol = Policy(src, tie_tolerance=1e-12)
    assert tol.choose_keep(card.key, card.total, r, 2) == listed[0]
    assert tol.keep_ranking(card.key, card.total, r, 2)[1].max() == 0.5 + 1e-15  # values are not rounded
    with pytest.raises(UsageError):
        Policy(src, tie_tolerance=-1.0)


def test_kernel_sources_rank_points_to_come():
    """Additive sources are ranked at total 0, so a large total cannot merge two values by rounding."""
    rules = get_rules("yahtzee")
    src = TurnOnlySource(rules, jit=False)
    policy = Policy(src)
    card = parse_card("sixes=18", rules)
    r = roll_index((6, 6, 6, 2, 3))
    c0, v0 = policy.keep_ranking(card.key, 0, r, 2)
    c1, v1 = policy.keep_ranking(card.key, 10**6, r, 2)
    assert c0.tolist() == c1.tolist()
    assert np.array_equal(v1, 10**6 + v0)
    assert src.units == "points" and src.additive
    # the normal player plays this policy
    assert NormalStrategy(rules, jit=False).choose_keep(card, (6, 6, 6, 2, 3), 2) == KEEPS[c0[0]]


@pytest.mark.parametrize("bad", [0, 3, -1, True, 1.0, "2", None])
def test_rolls_left_is_checked_in_one_place(bad):
    with pytest.raises(UsageError, match=r"invalid rolls-left .* for a keep: want 1 or 2"):
        check_rolls_left(bad)
    policy = Policy(_Flat(get_rules("yahtzee")))
    with pytest.raises(UsageError, match="invalid rolls-left"):
        policy.keep_ranking((0, 0, 0), 0, 0, bad)


def test_rolls_left_for_a_hint_allows_zero():
    assert check_rolls_left(0, (0, 1, 2)) == 0 and check_rolls_left(np.int64(2), (0, 1, 2)) == 2
    with pytest.raises(UsageError, match=r"invalid rolls-left 3: want 0, 1 or 2"):
        check_rolls_left(3, (0, 1, 2))


def test_bad_roll_index():
    policy = Policy(_Flat(get_rules("yahtzee")))
    for bad in (-1, 252, 2.0):
        with pytest.raises(DiceError, match="invalid roll index"):
            policy.box_ranking((0, 0, 0), 0, bad)


def test_expected_source_refuses_a_table_of_other_rules(fresh_table):
    with pytest.raises(UsageError, match="table is for rules 'yacht', not 'yahtzee'"):
        ExpectedValueSource(get_rules("yahtzee"), fresh_table("yacht"))


def test_turn_values_are_cached_per_state_and_level(fresh_table):
    src = ExpectedValueSource(get_rules("yahtzee"), fresh_table("yahtzee"), jit=False)
    card = parse_card("sixes=18")
    one = src.keep_values(card.key, 0, 1).copy()
    two = src.turn_values(card.key, 2).copy()
    assert np.array_equal(two[0], one)  # level 1 row unchanged by computing level 2
    other = parse_card("fives=15")
    assert not np.array_equal(src.keep_values(other.key, 0, 1), one)
    assert np.array_equal(src.keep_values(card.key, 0, 1), one)
    assert np.array_equal(src.keep_values(card.key, 5, 2), 5 + two[1])


class _Fixed:
    """Stands pat (``keep_all``) or rerolls every die; scores in the first legal box."""

    level = "fixed"
    rules = get_rules("yahtzee")

    def __init__(self, keep_all: bool):
        self.keep_all = keep_all

    def choose_keep(self, card, dice, rolls_left):
        return dice if self.keep_all else ()

    def choose_box(self, card, dice):
        return card.box_points(dice)[1].index(True)


def test_play_game_runs_on_the_engine_with_pre_drawn_dice():
    """The Python game loop is the engine's: dice dealt by the draw_dice convention, pat ends the rolls."""
    from yahtzee_solver.analysis.simulate import draw_dice, play_game

    dice = draw_dice(np.random.default_rng(3), 1, 13)[0]
    moves: list = []
    card = play_game(_Fixed(True), dice, moves=moves)
    assert card.is_full
    for t, (k1, k2, roll, _box) in enumerate(moves):
        first = tuple(sorted(int(d) for d in dice[t, 0]))
        assert k1 == k2 == roll == first
    moves = []
    play_game(_Fixed(False), dice, moves=moves)
    for t, (k1, k2, roll, _box) in enumerate(moves):
        assert k1 == k2 == () and roll == tuple(sorted(int(d) for d in dice[t, 2]))
