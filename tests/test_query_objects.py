"""The advisor's result objects and the scorecard's cached facts (issue 22, goal 3).

The rankings are lazy sequences (built on first look) that behave as the lists
they stand for; the card computes its derived facts once and pickles only its
fields.  Exact values come from the policy (the same DP) and from brute force
over the card's boxes, never typed in.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from yahtzee_solver import Advisor
from yahtzee_solver.dice import KEEPS, ROLL_OFFSET, ROLL_SUBKEEPS, ROLLS, roll_index
from yahtzee_solver.rules import N_UPPER
from yahtzee_solver.state import ScoreCard, parse_card

CARDS = [None, "sixes=18,fours=12,chance=22,yahtzee=50", "ones=3,twos=6,threes=9,fours=16,fives=20,sixes=24",
         "yahtzee=0,full-house=25,chance=20", "yahtzee=50,fives=25,3k=20,4k=25,full-house=25,sm-straight=30,"
         "lg-straight=40,chance=22"]


@pytest.fixture(scope="module")
def adv():
    return Advisor("yahtzee")


def test_card_facts_by_brute_force_and_pickle_holds_fields_only():
    for text in CARDS:
        card = parse_card(text)
        fields = {"rules", "boxes", "yahtzee_bonus"}
        # derived facts, once by the card and once by brute force over its boxes
        boxes = card.boxes
        filled = sum(1 << c for c, v in enumerate(boxes) if v is not None)
        up = sum(v for v in boxes[:N_UPPER] if v is not None)
        ubonus = card.rules.upper_bonus if up >= card.rules.upper_threshold else 0
        assert card.filled == filled
        assert card.upper_subtotal == up
        assert card.upper_bonus == ubonus
        assert card.total == sum(v for v in boxes if v is not None) + ubonus + card.yahtzee_bonus
        assert card.is_full == all(v is not None for v in boxes)
        assert card.open_categories == tuple(c for c, v in enumerate(boxes) if v is None)
        card.key, card.scoring("66666")  # noqa: B018 - fill the caches
        assert set(card.__reduce_ex__(pickle.HIGHEST_PROTOCOL)[2]) == fields  # the caches are not pickled
        back = pickle.loads(pickle.dumps(card))
        assert set(vars(back)) == fields
        assert back == card and back.key == card.key and back.total == card.total


def test_rankings_are_sequences_equal_to_their_lists(adv):
    card = parse_card(CARDS[1])
    for rl in (2, 1, 0):
        opts = adv.hint(card, "22555", rl)
        items = list(opts)
        assert len(opts) == len(items) > 0
        assert opts == items and items == list(adv.hint(card, (5, 2, 5, 2, 5), rl))
        assert opts[0] is items[0] and opts[-1] is items[-1] and opts[:3] == items[:3]
        assert pickle.loads(pickle.dumps(opts)) == items  # pickles as a plain list, no advisor inside
        assert repr(opts) == repr(items)


def test_keep_options_match_the_policy_and_the_multiset_difference(adv):
    for text in CARDS[:4]:
        card = parse_card(text)
        for r in range(0, 252, 5):
            dice = ROLLS[r]
            for rl in (2, 1):
                codes, values = adv.policy.keep_ranking(card.key, 0, r, rl)
                opts = adv.keep_options(card, dice, rl)
                assert [o.keep for o in opts] == [KEEPS[k] for k in codes.tolist()]
                assert [o.expected - card.total for o in opts] == pytest.approx(values.tolist(), abs=1e-12)
                best = values[0]
                for o, k, v in zip(opts, codes.tolist(), values.tolist()):
                    rest = list(dice)
                    for d in KEEPS[k]:
                        rest.remove(d)
                    assert o.reroll == tuple(rest)
                    assert o.loss == pytest.approx(best - v, abs=1e-12)
                    assert (o.score is not None) == (k == ROLL_OFFSET + r)
                assert len(opts) == int((ROLL_SUBKEEPS[r] >= 0).sum())


def test_box_options_match_the_policy_and_the_scoring(adv):
    for text in CARDS:
        card = parse_card(text)
        for r in range(0, 252, 3):
            dice = ROLLS[r]
            boxes, values = adv.policy.box_ranking(card.key, 0, r)
            opts = adv.box_options(card, dice)
            s = card.scoring(dice)
            assert [o.category for o in opts] == boxes.tolist()
            assert [o.expected - card.total for o in opts] == pytest.approx(values.tolist(), abs=1e-12)
            for o in opts:
                assert (o.points, o.yahtzee_bonus, o.upper_bonus, o.joker) == (
                    s.points[o.category], s.yahtzee_bonus, s.upper_bonus[o.category], s.joker is not None)


def test_dice_spellings_and_errors(adv):
    card = ScoreCard.empty("yahtzee")
    want = adv.hint(card, (1, 3, 3, 5, 6), 2)
    for spelling in ("13356", "6 5 3 3 1", "3,1,3,6,5", [6, 5, 3, 3, 1], (3, 3, 1, 6, 5), np.array([1, 3, 3, 5, 6])):
        assert adv.hint(card, spelling, 2) == want
    assert roll_index((1, 3, 3, 5, 6)) == roll_index(want[0].keep + want[0].reroll)
    from yahtzee_solver.errors import DiceError, ScoreCardError, UsageError

    with pytest.raises(DiceError):
        adv.hint(card, "1335", 2)
    with pytest.raises(DiceError):
        adv.hint(card, "13357", 0)
    with pytest.raises(UsageError):
        adv.hint(card, "13356", 3)
    with pytest.raises(UsageError):
        adv.keep_options(card, "13356", 0)
    full = parse_card(CARDS[4]).with_box(0, 5).with_box(1, 10).with_box(2, 15).with_box(3, 20).with_box(5, 30)
    with pytest.raises(ScoreCardError):
        adv.hint(full, "13356", 0)
