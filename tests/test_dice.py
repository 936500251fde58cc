"""Dice multisets: the 252 rolls, the 462 keeps, their transition tables and parsing."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from yahtzee_solver import dice
from yahtzee_solver.dice import (
    CHILD,
    KEEP_COUNTS,
    KEEP_SIZE,
    KEEPS,
    N_KEEPS,
    N_ROLLS,
    ROLL_FACE,
    ROLL_OFFSET,
    ROLL_PROB,
    ROLL_SUBKEEPS,
    ROLLS,
    SUB,
    format_dice,
    keep_index,
    parse_dice,
    roll_index,
)
from yahtzee_solver.errors import DiceError, UsageError

faces = st.integers(min_value=1, max_value=6)


# -- enumeration ---------------------------------------------------------------
def test_counts_of_rolls_and_keeps():
    assert (N_KEEPS, N_ROLLS, ROLL_OFFSET) == (462, 252, 210)
    assert len(KEEPS) == len(set(KEEPS)) == 462
    assert ROLLS == KEEPS[ROLL_OFFSET:]


def test_keeps_are_every_sorted_multiset_ordered_by_size():
    expected = {tuple(sorted(c)) for n in range(6) for c in itertools.product(range(1, 7), repeat=n)}
    assert set(KEEPS) == expected
    assert all(list(k) == sorted(k) for k in KEEPS)
    sizes = [len(k) for k in KEEPS]
    assert sizes == sorted(sizes)
    for n in range(6):
        same = [k for k in KEEPS if len(k) == n]
        assert same == sorted(same)


def test_keep_counts_and_sizes():
    for i, k in enumerate(KEEPS):
        c = Counter(k)
        assert list(KEEP_COUNTS[i]) == [c[f] for f in range(1, 7)]
        assert KEEP_SIZE[i] == len(k)


def test_roll_probabilities_match_the_7776_ordered_outcomes():
    ways = Counter(tuple(sorted(o)) for o in itertools.product(range(1, 7), repeat=5))
    assert len(ways) == 252
    for r, roll in enumerate(ROLLS):
        assert ROLL_PROB[r] == pytest.approx(ways[roll] / 6**5, abs=1e-15)
    assert ROLL_PROB.sum() == pytest.approx(1.0, abs=1e-12)


def test_child_adds_one_die_and_sub_removes_one():
    assert CHILD.shape == (ROLL_OFFSET, 6)
    for k, keep in enumerate(KEEPS):
        for f in range(1, 7):
            if len(keep) < 5:
                assert KEEPS[CHILD[k, f - 1]] == tuple(sorted(keep + (f,)))
            if f in keep:
                rest = list(keep)
                rest.remove(f)
                assert KEEPS[SUB[k, f - 1]] == tuple(rest)
            else:
                assert SUB[k, f - 1] == -1


def test_roll_face_marks_exactly_the_five_alike_rolls():
    for r, roll in enumerate(ROLLS):
        assert ROLL_FACE[r] == (roll[0] if len(set(roll)) == 1 else 0)
    assert np.count_nonzero(ROLL_FACE) == 6


def test_roll_subkeeps_are_the_distinct_sub_multisets():
    for r, roll in enumerate(ROLLS):
        listed = [int(k) for k in ROLL_SUBKEEPS[r] if k >= 0]
        assert all(k == -1 for k in ROLL_SUBKEEPS[r][len(listed):])
        subs = {tuple(sorted(c)) for n in range(6) for c in itertools.combinations(roll, n)}
        assert len(listed) == len(set(listed)) == len(subs)
        assert {KEEPS[k] for k in listed} == subs
        assert listed == sorted(listed)  # smaller keeps first


def test_tables_are_read_only():
    for a in (KEEP_COUNTS, KEEP_SIZE, CHILD, SUB, ROLL_PROB, ROLL_FACE, ROLL_SUBKEEPS):
        with pytest.raises(ValueError):
            a[0] = a[0]


def test_keep_transition_probabilities_are_multinomial():
    """Averaging over CHILD from a keep gives P(roll | keep) = multinomial of the rerolled dice."""
    for keep in [(), (3,), (2, 5), (1, 1, 6), (2, 3, 4, 5), (6, 6, 6, 6)]:
        k = keep_index(keep)
        # propagate a probability mass of 1 down the CHILD tree, exactly
        mass = {k: Fraction(1)}
        for _ in range(5 - len(keep)):
            nxt = Counter()
            for j, p in mass.items():
                for f in range(6):
                    nxt[int(CHILD[j, f])] += p / 6
            mass = nxt
        n = 5 - len(keep)
        brute = Counter()
        for o in itertools.product(range(1, 7), repeat=n):
            brute[keep_index(keep + o)] += Fraction(1, 6**n)
        assert dict(mass) == dict(brute)


# -- indices -----------------------------------------------------------------
def test_keep_and_roll_index_round_trip():
    for i, k in enumerate(KEEPS):
        assert keep_index(k) == i
        assert keep_index(reversed(k)) == i
    for r, roll in enumerate(ROLLS):
        assert roll_index(roll) == r
        assert roll_index(roll[::-1]) == r


@pytest.mark.parametrize("bad", [(0,), (7, 1), (1, 2, 3, 4, 5, 6)])
def test_keep_index_rejects_bad_keeps(bad):
    with pytest.raises(DiceError, match="invalid keep"):
        keep_index(bad)


@pytest.mark.parametrize("bad", [(1, 2, 3, 4), (1, 2, 3, 4, 5, 6), (0, 1, 2, 3, 4), (1, 2, 3, 4, 7)])
def test_roll_index_rejects_bad_rolls(bad):
    with pytest.raises(DiceError, match="invalid dice"):
        roll_index(bad)


# -- parsing -----------------------------------------------------------------
@pytest.mark.parametrize("text", ["22555", "2 2 5 5 5", "2,2,5,5,5", " 52525 ", "5, 2,5  2,5", "2\t2\t5\t5\t5"])
def test_parse_dice_accepts_the_typed_forms(text):
    assert parse_dice(text) == (2, 2, 5, 5, 5)


def test_parse_dice_sequences_and_keeps():
    assert parse_dice([5, 2, 2, 5, 5]) == (2, 2, 5, 5, 5)
    assert parse_dice("31", n=None) == (1, 3)
    assert parse_dice("", n=None) == ()
    assert parse_dice("-", n=None) == ()
    assert parse_dice("666", n=3) == (6, 6, 6)


@pytest.mark.parametrize(
    "text, n, quoted",
    [
        ("22575", 5, "'7'"),
        ("2257", 5, "'2257'"),
        ("225555", 5, "'225555'"),
        ("22a55", 5, "'a'"),
        ("2,2,5,5,0", 5, "'0'"),
        ("2 2 5 5 55", 5, "'55'"),
        ("²2345", 5, "'²'"),
        ("", 5, "''"),
        ("-", 5, "'-'"),
        ("123456", None, "'123456'"),
        ([1, 2, 3, 4, 9], 5, "9"),
        ([1, 2, 3], 5, "[1, 2, 3]"),
    ],
)
def test_parse_dice_errors_are_one_clear_line(text, n, quoted):
    with pytest.raises(DiceError) as info:
        parse_dice(text, n=n)
    msg = str(info.value)
    assert isinstance(info.value, UsageError) and isinstance(info.value, ValueError)
    assert "\n" not in msg and msg == msg.lower()
    assert quoted in msg


@pytest.mark.parametrize(
    "dice, quoted",
    [
        ((1, 2, 3, 4, 5.5), "5.5"),  # was read as 12345
        ((1, 2, 3, 4, 5.0), "5.0"),  # a float is not a face, whole or not
        ((True, 2, 3, 4, 5), "True"),  # was read as a 1
        ([1, 2, 3, 4, np.bool_(True)], "True"),
        (np.array([1.0, 2, 3, 4, 5]), "1.0"),
        (["2", "2", "5", "5", "5"], "'2'"),  # a sequence holds ints; text is one string
        ((1, 2, 3, 4, None), "None"),
    ],
)
def test_dice_that_are_not_whole_numbers_are_refused(dice, quoted):
    """A sequence of dice holds ints (numpy integers too): no float, bool or string is read as a face."""
    for f in (parse_dice, roll_index, keep_index):  # a keep may hold all five
        with pytest.raises(DiceError) as info:
            f(dice)
        assert "\n" not in str(info.value) and quoted in str(info.value)


@pytest.mark.parametrize("dice", [None, 12345, 2.5, object()])
def test_dice_that_are_no_sequence_are_a_dice_error(dice):
    """None or a number where dice belong: the project's DiceError naming it, not a bare TypeError."""
    for f in (parse_dice, roll_index, keep_index):
        with pytest.raises(DiceError) as info:
            f(dice)
        assert repr(dice) in str(info.value) and "\n" not in str(info.value)


def test_numpy_integer_dice_are_faces():
    for dtype in (np.int8, np.int16, np.int64, np.uint8):
        a = np.array([5, 2, 2, 5, 5], dtype=dtype)
        assert parse_dice(a) == (2, 2, 5, 5, 5) and all(type(d) is int for d in parse_dice(a))
        assert roll_index(a) == roll_index((2, 2, 5, 5, 5))
        assert keep_index(a[:2]) == keep_index((2, 5))


@given(st.lists(faces, min_size=5, max_size=5), st.sampled_from(["", " ", ",", ", ", "  "]))
def test_parse_format_round_trip(ds, sep):
    text = sep.join(str(d) for d in ds)
    parsed = parse_dice(text)
    assert parsed == tuple(sorted(ds))
    assert parse_dice(format_dice(parsed)) == parsed
    assert format_dice(parsed) == "".join(str(d) for d in sorted(ds))


@given(st.lists(faces, min_size=0, max_size=5))
def test_keep_format_round_trip(ds):
    text = format_dice(sorted(ds))
    assert parse_dice(text, n=None) == tuple(sorted(ds))
    assert KEEPS[keep_index(parse_dice(text, n=None))] == tuple(sorted(ds))


@given(st.text(max_size=12))
def test_parse_dice_never_fails_other_than_dice_error(text):
    try:
        out = parse_dice(text)
    except DiceError as e:
        assert "\n" not in str(e)
    else:
        assert len(out) == 5 and all(1 <= d <= 6 for d in out)


def test_format_dice():
    assert format_dice((2, 2, 5, 5, 5)) == "22555"
    assert format_dice(()) == "-"
    assert dice.__all__  # public names exist
    for name in dice.__all__:
        assert hasattr(dice, name)
