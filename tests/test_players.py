"""CPU strategies: the expert is the advisor's best move, the normal player the best
single turn, the beginner a seeded casual player; every answer legal.

Goldens come from docs/rules.md (Chance-only keep rule and value 70/3, five-alike
probability 347897/7558272); everything else is checked against an independent
computation in this file or against the advisor.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from yahtzee_solver import Advisor, ScoreCard
from yahtzee_solver.dice import ROLLS, keep_index
from yahtzee_solver.errors import DiceError, ScoreCardError, UsageError
from yahtzee_solver.strategy.players import (
    LEVELS,
    BeginnerStrategy,
    ExpertStrategy,
    NormalStrategy,
    Strategy,
    turn_only_params,
    zero_values,
)
from yahtzee_solver.rules import P_UPPER_BONUS, get_rules
from yahtzee_solver.strategy.levels import make_strategy
from yahtzee_solver.solver.table import load_table

from rulesdoc import hand_value

RULE_NAMES = ("yahtzee", "yahtzee-free-joker", "yacht", "yahtzee-no-joker", "yahtzee-no-bonus", "yatzy")


# -- helpers -------------------------------------------------------------------------
def _reroll_outcomes(n: int) -> list[tuple[tuple[int, ...], Fraction]]:
    """Sorted faces of ``n`` rerolled dice with their exact probabilities."""
    counts = Counter(tuple(sorted(o)) for o in itertools.product(range(1, 7), repeat=n))
    return [(faces, Fraction(c, 6**n)) for faces, c in counts.items()]


OUTCOMES = {n: _reroll_outcomes(n) for n in range(6)}


def _one_box_open(rules, box: int, **extra) -> ScoreCard:
    """A card with every box filled with its lowest score except ``box`` (and ``extra`` name=points)."""
    rules = get_rules(rules)
    boxes = [min(p) for p in rules.possible_points]
    boxes[box] = None
    for name, pts in extra.items():
        boxes[rules.category_index(name)] = pts
    return ScoreCard(rules, tuple(boxes))


def _random_cards(rules, n_games: int, seed: int):
    """Cards met while playing random legal moves (all turns, joker positions included)."""
    rng = np.random.default_rng(seed)
    rules = get_rules(rules)
    for _ in range(n_games):
        card = ScoreCard.empty(rules)
        while not card.is_full:
            dice = tuple(sorted(int(d) for d in rng.integers(1, 7, 5)))
            yield card, dice
            pts, legal, bonus = card.box_points(dice)
            choices = [c for c in range(rules.n_categories) if legal[c]]
            c = choices[int(rng.integers(len(choices)))]
            card = card.with_box(c, pts[c], bonus)


def _strategy_value(strategy, card, final_value) -> Fraction:
    """Exact expected ``final_value(roll)`` of one turn played by ``strategy`` (two keeps)."""
    memo = {}

    def held(roll, rolls_left):
        if rolls_left == 0:
            return final_value(roll)
        key = (roll, rolls_left)
        if key not in memo:
            keep = tuple(strategy.choose_keep(card, roll, rolls_left))
            memo[key] = sum(
                (p * held(tuple(sorted(keep + o)), rolls_left - 1) for o, p in OUTCOMES[5 - len(keep)]),
                Fraction(0),
            )
        return memo[key]

    return sum((p * held(r, 2) for r, p in OUTCOMES[5]), Fraction(0))


# -- construction and interface ---------------------------------------------------------
def test_levels_make_their_strategy():
    assert LEVELS == ("beginner", "normal", "expert")
    kinds = {"beginner": BeginnerStrategy, "normal": NormalStrategy, "expert": ExpertStrategy}
    for level in LEVELS:
        s = make_strategy(level.upper(), rng=np.random.default_rng(0), jit=False)
        assert isinstance(s, kinds[level]) and isinstance(s, Strategy)
        assert s.level == level


def test_unknown_level_is_a_usage_error():
    with pytest.raises(UsageError, match=r"unknown level 'grandmaster' \(choose from beginner, normal, expert\)"):
        make_strategy("grandmaster")


def test_expert_rejects_a_table_of_other_rules():
    with pytest.raises(UsageError, match="table is for rules 'yacht', not 'yahtzee'"):
        make_strategy("expert", "yahtzee", table=load_table("yacht"))


@pytest.mark.parametrize("level", LEVELS)
def test_bad_input_errors(level):
    s = make_strategy(level, rng=np.random.default_rng(0), jit=False)
    card = ScoreCard.empty("yahtzee")
    with pytest.raises(DiceError, match="'2255'"):
        s.choose_keep(card, "2255", 2)
    with pytest.raises(DiceError, match="'7'"):
        s.choose_box(card, "22557")
    for bad in (0, 3, True):
        with pytest.raises(UsageError, match=f"invalid rolls-left {bad!r}"):
            s.choose_keep(card, "22555", bad)
    with pytest.raises(ScoreCardError, match="card is for rules 'yacht', not 'yahtzee'"):
        s.choose_box(ScoreCard.empty("yacht"), "22555")
    full = ScoreCard(get_rules("yahtzee"), tuple(min(p) for p in get_rules("yahtzee").possible_points))
    with pytest.raises(ScoreCardError, match="the card is full"):
        s.choose_keep(full, "22555", 1)
    with pytest.raises(ScoreCardError, match="the card is full"):
        s.choose_box(full, "22555")


# -- expert ------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", RULE_NAMES)
def test_expert_plays_the_advisors_best_move(rules):
    adv = Advisor(rules)
    expert = make_strategy("expert", rules)
    n = 0
    for card, dice in _random_cards(rules, 6, seed=11):
        for rl in (2, 1):
            assert expert.choose_keep(card, dice, rl) == adv.keep_options(card, dice, rl)[0].keep
        assert expert.choose_box(card, dice) == adv.box_options(card, dice)[0].category
        n += 1
    assert n == 6 * get_rules(rules).n_categories


def test_expert_compiled_and_interpreted_agree():
    fast = make_strategy("expert", "yacht", jit=True)
    slow = make_strategy("expert", "yacht", jit=False)
    for i, (card, dice) in enumerate(_random_cards("yacht", 2, seed=3)):
        if i % 4:
            continue
        assert fast.choose_keep(card, dice, 2) == slow.choose_keep(card, dice, 2)
        assert fast.choose_keep(card, dice, 1) == slow.choose_keep(card, dice, 1)
        assert fast.choose_box(card, dice) == slow.choose_box(card, dice)


@pytest.mark.parametrize("level", ["expert", "normal"])
@pytest.mark.parametrize("rules", RULE_NAMES)
def test_only_chance_open_follows_the_per_die_rule(level, rules):
    """docs/rules.md: only Chance open is worth 70/3, 14/3 per die, each die on its own.

    One die with one reroll left is worth 3.5 rerolled, so keep 4-6 (worth 4.25);
    with two rerolls left a reroll is worth 4.25, so keep 5-6 (worth 14/3).
    """
    r = get_rules(rules)
    card = _one_box_open(r, r.category_index("chance"))
    s = make_strategy(level, r)
    for roll in ROLLS:
        assert s.choose_keep(card, roll, 2) == tuple(d for d in roll if d >= 5)
        assert s.choose_keep(card, roll, 1) == tuple(d for d in roll if d >= 4)
    assert _strategy_value(s, card, sum) == hand_value("chance-only") == 5 * hand_value("chance-per-die")


# -- normal --------------------------------------------------------------------------------
def test_normal_decision_data():
    p = turn_only_params("yahtzee")
    true = get_rules("yahtzee").arrays()["params"]
    assert p[P_UPPER_BONUS] == 0 and true[P_UPPER_BONUS] == 35
    assert np.array_equal(np.delete(p, P_UPPER_BONUS), np.delete(true, P_UPPER_BONUS))
    z = zero_values("yacht")
    assert z.shape == load_table("yacht").values.shape and not z.any()


def _turn_points(card, roll) -> int:
    """Most points (box + Yahtzee bonus, no upper bonus) ``roll`` can score now."""
    pts, legal, bonus = card.box_points(roll)
    return max(p for p, ok in zip(pts, legal) if ok) + bonus


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_normal_maximises_this_turns_points(rules):
    """Brute force over every keep and reroll outcome: the normal keep (one reroll left)
    has the best expected points of the turn, and its box the most points now."""
    normal = make_strategy("normal", rules)
    for i, (card, dice) in enumerate(_random_cards(rules, 3, seed=5)):
        if i % 3:
            continue
        assert normal.choose_box(card, dice) == max(
            (c for c, ok in enumerate(card.box_points(dice)[1]) if ok),
            key=lambda c: (card.box_points(dice)[0][c], -c),
        )

        def ev(keep, card=card):
            return sum(p * _turn_points(card, tuple(sorted(keep + o))) for o, p in OUTCOMES[5 - len(keep)])

        keeps = {tuple(sorted(s)) for n in range(6) for s in itertools.combinations(dice, n)}
        best = max(ev(k) for k in keeps)
        assert ev(normal.choose_keep(card, dice, 1)) == best


def test_normal_ignores_the_upper_bonus_and_expert_does_not():
    """Upper subtotal 57 with Threes and Chance open, final dice 11133: Threes makes 6 + 35,
    Chance 9.  The normal player takes the 9 it sees; the expert the bonus."""
    r = get_rules("yahtzee")
    boxes = [min(p) for p in r.possible_points]
    boxes[:6] = [3, 6, None, 16, 20, 12]
    boxes[r.category_index("chance")] = None
    card = ScoreCard(r, tuple(boxes))
    assert card.upper_subtotal == 57
    chance, threes = r.category_index("chance"), r.category_index("threes")
    assert make_strategy("normal").choose_box(card, "11133") == chance
    assert make_strategy("expert").choose_box(card, "11133") == threes


def test_normal_counts_the_yahtzee_bonus():
    """With 50 in the Yahtzee box, five 1s score 5 + 100 in Ones: the normal player's
    single-turn value of standing on them is 105 (from its own keep values)."""
    r = get_rules("yahtzee")
    normal = make_strategy("normal", r)
    boxes = [None] * 13
    boxes[r.yahtzee_category] = 50
    card = ScoreCard(r, tuple(boxes))
    E = normal.keep_values(card.key)
    assert E[0, keep_index((1, 1, 1, 1, 1))] == 105.0


# -- beginner ------------------------------------------------------------------------------
def test_beginner_keeps_its_most_common_face_and_stands_on_made_patterns():
    b = make_strategy("beginner", rng=np.random.default_rng(0))
    b.blunder = 0.0
    card = ScoreCard.empty()
    assert b.choose_keep(card, "12456", 2) == (6,)  # no pair: the highest face
    assert b.choose_keep(card, "22455", 2) == (5, 5)  # tie: the higher face
    assert b.choose_keep(card, "13336", 1) == (3, 3, 3)
    assert b.choose_keep(card, "22555", 2) == (2, 2, 5, 5, 5)  # full house
    assert b.choose_keep(card, "23456", 2) == (2, 3, 4, 5, 6)  # large straight
    assert b.choose_keep(card, "12346", 1) == (1, 2, 3, 4, 6)  # small straight
    filled = ScoreCard.from_mapping({"fh": 25})
    assert b.choose_keep(filled, "22555", 2) == (5, 5, 5)  # full house box taken
    yacht = BeginnerStrategy("yacht", rng=np.random.default_rng(0), blunder=0.0)
    assert yacht.choose_keep(ScoreCard.empty("yacht"), "22555", 1) == (2, 2, 5, 5, 5)  # sum scores


def test_beginner_five_alike_probability_is_the_rules_md_value():
    """Only the Yahtzee box open: keeping the most common face makes five alike in a
    turn with probability 347897/7558272 (docs/rules.md), computed exactly."""
    b = BeginnerStrategy("yahtzee", rng=np.random.default_rng(0), blunder=0.0)
    card = _one_box_open("yahtzee", 11)
    p = _strategy_value(b, card, lambda roll: int(len(set(roll)) == 1))
    assert p == hand_value("five-alike-in-a-turn")


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_beginner_scores_the_most_points_now(rules, ref):
    b = make_strategy("beginner", rules, rng=np.random.default_rng(1))
    for card, dice in _random_cards(rules, 4, seed=8):
        y = card.boxes[ref.ybox(rules)]
        moves = ref.moves(rules, card.open_categories, y, list(dice))
        best = max(moves, key=lambda c: (moves[c][0], -c))
        assert b.choose_box(card, dice) == best


def test_beginner_blunders_only_through_its_rng():
    card = ScoreCard.empty()
    dice = "11346"

    def answers(seed, blunder):
        b = BeginnerStrategy(rng=np.random.default_rng(seed), blunder=blunder)
        return [b.choose_keep(card, dice, 2) for _ in range(200)]

    assert answers(4, 0.3) == answers(4, 0.3)
    assert answers(4, 0.3) != answers(5, 0.3)
    casual = answers(4, 0.0)
    assert set(casual) == {(1, 1)}
    wild = answers(4, 1.0)
    assert len(set(wild)) > 10
    for keep in wild:  # always a sub-multiset of the dice
        assert not Counter(keep) - Counter((1, 1, 3, 4, 6))
    rate = sum(k != (1, 1) for k in answers(6, 0.3)) / 200
    assert 0.1 < rate < 0.35  # about 0.3 minus random keeps that happen to be 11


@pytest.mark.parametrize("blunder", [-0.1, 1.5])
def test_beginner_rejects_a_bad_blunder_probability(blunder):
    with pytest.raises(UsageError, match=f"invalid blunder probability {blunder}"):
        BeginnerStrategy(blunder=blunder)


# -- every level, whole games ----------------------------------------------------------------
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("rules", RULE_NAMES)
def test_random_playouts_are_legal(level, rules):
    """Whole games through the Python game loop, which checks every keep and box."""
    from yahtzee_solver.analysis.simulate import draw_dice, play_game

    r = get_rules(rules)
    s = make_strategy(level, r, rng=np.random.default_rng(2))
    dice = draw_dice(np.random.default_rng(9), 30 if level == "beginner" else 8, r.n_categories)
    for d in dice:
        card = play_game(s, d)
        assert card.is_full
        assert card.total >= sum(card.boxes)
        assert math.isfinite(card.total)
