"""Tests of :mod:`yahtzee_solver.strategy.batch`: raw single-position and batch queries.

Exact values always come from the DP (the shipped tables, which
``test_build`` checks against a fresh build) or from docs/rules.md goldens; the
batch results are checked against the advisor, against the table through the
Bellman equation, and single call against batch.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from yahtzee_solver import Advisor, ScoreCard
from yahtzee_solver.strategy.batch import ArrayAdvisor, MAX_KEEPS, OptionValues, option_values, roll_indices
from yahtzee_solver.dice import KEEPS, ROLL_OFFSET, ROLL_PROB, ROLL_SUBKEEPS, ROLLS, keep_index, roll_index
from yahtzee_solver.errors import DiceError, ScoreCardError, UsageError
from yahtzee_solver.state import StateKey
from yahtzee_solver.solver.table import ValueTable, load_table

from rulesdoc import hand_value

RULES = ("yahtzee", "yahtzee-free-joker", "yacht", "yatzy")
ALL_RULES = ("yahtzee", "yahtzee-free-joker", "yahtzee-no-joker", "yahtzee-no-bonus", "yacht", "yatzy")


@pytest.fixture(scope="module")
def arr():
    cache = {}

    def get(name: str) -> ArrayAdvisor:
        if name not in cache:
            cache[name] = ArrayAdvisor(name)
        return cache[name]

    return get


@pytest.fixture(scope="module")
def adv(arr):
    cache = {}

    def get(name: str) -> Advisor:
        if name not in cache:
            cache[name] = Advisor(name, arr(name).table)
        return cache[name]

    return get


def random_positions(name: str, n_games: int, seed: int):
    """Every decision point of seeded random games: (card, dice, rolls_left)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_games):
        card = ScoreCard.empty(name)
        for _t in range(card.rules.n_categories):
            dice = tuple(sorted(int(d) for d in rng.integers(1, 7, 5)))
            for rl in (2, 1):
                out.append((card, dice, rl))
                keep = tuple(d for d in dice if rng.random() < 0.5)
                dice = tuple(sorted(keep + tuple(int(d) for d in rng.integers(1, 7, 5 - len(keep)))))
            out.append((card, dice, 0))
            points, legal, bonus = card.box_points(dice)
            boxes = [c for c, ok in enumerate(legal) if ok]
            # favour the most points half the time, so Yahtzees (and Jokers) happen
            c = max(boxes, key=lambda b: points[b]) if rng.random() < 0.5 else int(rng.choice(boxes))
            card = card.with_box(c, points[c], bonus)
    return out


def as_arrays(positions):
    keys = [card.key for card, _, _ in positions]
    return (
        np.array([k.mask for k in keys]),
        np.array([k.up for k in keys]),
        np.array([k.yb for k in keys]),
        np.array([d for _, d, _ in positions]),
        np.array([rl for _, _, rl in positions]),
    )


@pytest.mark.parametrize("name", RULES)
def test_ranked_equals_the_advisor(name, arr, adv):
    """Same options, same order, values = advisor's expected final total - card total."""
    a, advisor = arr(name), adv(name)
    for card, dice, rl in random_positions(name, 4, seed=11):
        k = card.key
        codes, values = a.ranked(k.mask, k.up, k.yb, dice, rl)
        rich = advisor.hint(card, dice, rl)
        assert len(codes) == len(rich) == len(values)
        got = [KEEPS[c] for c in codes] if rl else [int(c) for c in codes]
        want = {(o.keep if rl else o.category): o.expected - card.total for o in rich}
        assert set(got) == set(want)
        for option, v in zip(got, values):
            assert v == pytest.approx(want[option], abs=1e-9)
        # the same ranking; options tied up to rounding (e.g. keeps that are
        # mirror images) may come in either order
        np.testing.assert_allclose(values, [o.expected - card.total for o in rich], rtol=0, atol=1e-9)
        assert np.all(np.diff(values) <= 0)


@pytest.mark.parametrize("name", RULES)
def test_batch_equals_single_calls(name, arr):
    a = arr(name)
    positions = random_positions(name, 6, seed=5)
    masks, ups, ybs, dice, rls = as_arrays(positions)
    res = a.option_values(masks, ups, ybs, dice, rls)
    assert isinstance(res, OptionValues)
    n, C = len(positions), a.rules.n_categories
    assert res.keep_values.shape == (n, MAX_KEEPS) and res.box_values.shape == (n, C)
    assert res.keep_values.dtype == res.box_values.dtype == np.float64
    for i, (card, d, rl) in enumerate(positions):
        k = card.key
        assert res.rolls[i] == roll_index(d)
        assert res.keeps[i].tolist() == ROLL_SUBKEEPS[roll_index(d)].tolist()
        codes, values = a.ranked(k.mask, k.up, k.yb, d, rl)
        if rl:
            row = dict(zip(res.keeps[i].tolist(), res.keep_values[i].tolist()))
            assert {int(c): row[int(c)] for c in codes} == dict(zip(codes.tolist(), values.tolist()))
            assert np.isnan(res.keep_values[i, len(codes):]).all()
            assert res.best_keep[i] == codes[0]
        else:
            assert np.isnan(res.keep_values[i]).all()
            assert res.best_keep[i] == -1
            assert dict(zip(codes.tolist(), values.tolist())) == {
                c: v for c, v in enumerate(res.box_values[i].tolist()) if v == v
            }
        assert res.best_value[i] == values[0]
        # scoring now, also with rerolls left, is the rolls-left-0 ranking
        c0, v0 = a.ranked(k.mask, k.up, k.yb, d, 0)
        assert res.best_box[i] == c0[0]
        legal = ~np.isnan(res.box_values[i])
        assert sorted(np.flatnonzero(legal).tolist()) == sorted(c0.tolist())
        assert res.box_values[i, c0].tolist() == v0.tolist()


@pytest.mark.parametrize("name", ALL_RULES)
def test_boxes_only_batch_is_the_general_path(name, arr):
    """A batch with no rerolls left given as int64 arrays runs its own kernel (``kernels.batch_boxes``).

    Every field equals the general path's (the same positions as lists), for
    dice as faces in any order or as roll indices and ``rolls_left`` as 0 or
    an array of zeros: positions of random games, and every roll of sampled
    reachable states (the Joker rolls included).
    """
    a = arr(name)
    rules = a.rules
    positions = [p for p in random_positions(name, 6, seed=23) if p[2] == 0]
    masks, ups, ybs, dice, _ = (np.asarray(x, dtype=np.int64) for x in as_arrays(positions))
    V = a.table.values
    reachable = np.argwhere(~np.isnan(V[: rules.full_mask]))
    rng = np.random.default_rng(7)
    picked = reachable[rng.choice(len(reachable), 12, replace=False)]
    y = rules.yahtzee_category
    if y >= 0:  # states with the Yahtzee box filled: the Joker rules apply to the five-alike rolls
        filled = reachable[(reachable[:, 0] >> y) & 1 == 1]
        picked = np.concatenate([picked, filled[rng.choice(len(filled), 12, replace=False)]])
    every = np.repeat(picked, len(ROLLS), axis=0)
    masks = np.concatenate([masks, every[:, 0]])
    ups = np.concatenate([ups, every[:, 1]])
    ybs = np.concatenate([ybs, every[:, 2]])
    dice = np.concatenate([dice, np.array(ROLLS * len(picked), dtype=np.int64)[:, ::-1]])
    n = len(masks)
    want = a.option_values(masks.tolist(), ups.tolist(), ybs.tolist(), dice.tolist(), [0] * n)
    rolls = np.ascontiguousarray(want.rolls, dtype=np.int64)
    for d in (np.ascontiguousarray(dice), np.ascontiguousarray(dice[:, ::-1]), rolls):
        for rl in (0, np.zeros(n, np.int64)):
            got = a.option_values(masks, ups, ybs, d, rl)
            for field, g, w in zip(OptionValues._fields, got, want):
                assert g.dtype == w.dtype and g.shape == w.shape, field
                np.testing.assert_array_equal(g, w, err_msg=field)


def test_boxes_only_batch_errors_are_the_general_paths(arr):
    """A bad row in a boxes-only batch of int64 arrays stops with the error of the same batch as lists."""
    a = arr("yahtzee")
    good = ([0, 0, 3], [0, 0, 4], [0, 0, 0], [[1, 2, 3, 4, 5], [6, 6, 6, 6, 6], [2, 2, 3, 3, 3]])
    bad_rows = [
        (1, "ups", 5),  # unreachable
        (1, "masks", 8191),  # full card
        (2, "masks", -1),
        (0, "ybs", 2),
        (2, "ups", 64),
        (1, "dice", [1, 2, 3, 4, 0]),
        (0, "dice", [7, 1, 1, 1, 1]),
    ]
    names = ("masks", "ups", "ybs", "dice")
    for row, what, value in bad_rows:
        args = [list(x) for x in good]
        args[names.index(what)][row] = value
        with pytest.raises(Exception) as general:
            a.option_values(*args, [0, 0, 0])
        with pytest.raises(type(general.value), match=f"^{re.escape(str(general.value))}$"):
            a.option_values(*(np.array(x, dtype=np.int64) for x in args), 0)
    with pytest.raises(DiceError, match=r"^invalid roll index 252 at row 1: want 0..251$"):
        a.option_values(*(np.array(x, dtype=np.int64) for x in good[:3]), np.array([0, 252, 3]), 0)


@pytest.mark.parametrize("name", RULES)
def test_batch_is_the_same_in_any_order_and_grouping(name, arr):
    """Positions are grouped by state internally; the answer per row must not depend on it."""
    a = arr(name)
    masks, ups, ybs, dice, rls = as_arrays(random_positions(name, 3, seed=8))
    res = a.option_values(masks, ups, ybs, dice, rls)
    perm = np.random.default_rng(0).permutation(len(masks))
    res2 = a.option_values(masks[perm], ups[perm], ybs[perm], dice[perm], rls[perm])
    for f in ("keep_values", "box_values"):
        np.testing.assert_array_equal(getattr(res2, f), getattr(res, f)[perm])
    # one row at a time
    for i in range(0, len(masks), 7):
        one = a.option_values(masks[i : i + 1], ups[i : i + 1], ybs[i : i + 1], dice[i : i + 1], rls[i : i + 1])
        np.testing.assert_array_equal(one.keep_values[0], res.keep_values[i])
        np.testing.assert_array_equal(one.box_values[0], res.box_values[i])


@pytest.mark.parametrize("name", RULES)
def test_first_roll_averages_to_the_table_value(name, arr):
    """Bellman: V(state) = sum over the 252 first rolls of P(roll) x best option with 2 rerolls left."""
    a = arr(name)
    V = a.table.values
    rng = np.random.default_rng(3)
    m, u, y = np.nonzero(~np.isnan(V))
    full = a.rules.full_mask
    picks = [i for i in rng.choice(len(m), size=40, replace=False) if m[i] != full][:12] + [0]
    for i in picks:
        n = len(ROLLS)
        res = a.option_values(
            np.full(n, m[i]), np.full(n, u[i]), np.full(n, y[i]), np.arange(n), 2
        )
        assert float(ROLL_PROB @ res.best_value) == pytest.approx(V[m[i], u[i], y[i]], abs=1e-9)


@pytest.mark.parametrize("name", RULES)
def test_keeping_all_five_is_the_best_box_with_one_or_two_rerolls_left(name, arr):
    """Keeping all five rerolls nothing: it scores now, worth the best box, with 1 or 2 rerolls left (no pass)."""
    a = arr(name)
    masks, ups, ybs, dice, rls = as_arrays(random_positions(name, 3, seed=21))
    one = a.option_values(masks, ups, ybs, dice, 1)
    two = a.option_values(masks, ups, ybs, dice, 2)
    for i, r in enumerate(one.rolls):
        j = ROLL_SUBKEEPS[r].tolist().index(ROLL_OFFSET + r)
        assert one.keep_values[i, j] == np.nanmax(one.box_values[i])
        assert two.keep_values[i, j] == np.nanmax(two.box_values[i])
        assert one.best_value[i] <= two.best_value[i] + 1e-12


def test_only_chance_open_golden(arr):
    """docs/rules.md: only Chance open, each die rerolled below 4 then below 5: 70/3 from the turn start."""
    a = arr("yahtzee")
    chance = a.rules.category_index("chance")
    mask = a.rules.full_mask & ~(1 << chance)
    n = len(ROLLS)
    for up in (0, 63):
        res = a.option_values(np.full(n, mask), np.full(n, up), np.zeros(n, int), np.arange(n), 2)
        assert float(ROLL_PROB @ res.best_value) == pytest.approx(float(hand_value("chance-only")), abs=1e-12)
    # one die rerolled once is worth 3.5, so with one reroll left keep 4 and up;
    # rerolled twice it is worth 4/6 * 3.5 + (4 + 5 + 6) / 6 = 4.25, so keep 5 and up
    codes, values = a.ranked(mask, 0, 0, (1, 4, 5, 6, 6), 1)
    assert KEEPS[codes[0]] == (4, 5, 6, 6)
    assert values[0] == pytest.approx(21 + 3.5, abs=1e-12)
    codes, values = a.ranked(mask, 0, 0, (1, 4, 5, 6, 6), 2)
    assert KEEPS[codes[0]] == (5, 6, 6)
    assert values[0] == pytest.approx(17 + 2 * 4.25, abs=1e-12)
    codes, values = a.ranked(mask, 0, 0, (1, 4, 5, 6, 6), 0)
    assert codes.tolist() == [chance] and values.tolist() == [22.0]


def test_forced_joker_closes_boxes(arr):
    a = arr("yahtzee")
    card = ScoreCard.from_mapping({"yahtzee": 50}, "yahtzee")
    k = card.key
    codes, values = a.ranked(k.mask, k.up, k.yb, (5, 5, 5, 5, 5), 0)
    assert codes.tolist() == [a.rules.category_index("fives")]
    res = a.option_values([k.mask], [k.up], [k.yb], [(5, 5, 5, 5, 5)], [1])
    assert np.flatnonzero(~np.isnan(res.box_values[0])).tolist() == codes.tolist()


def test_interpreted_equals_compiled(arr):
    a = arr("yahtzee")
    slow = ArrayAdvisor("yahtzee", a.table, jit=False)
    positions = random_positions("yahtzee", 1, seed=2)[::4]
    masks, ups, ybs, dice, rls = as_arrays(positions)
    fast_res = a.option_values(masks, ups, ybs, dice, rls)
    slow_res = slow.option_values(masks, ups, ybs, dice, rls)
    for f in ("keep_values", "box_values", "best_value", "best_keep", "best_box"):
        np.testing.assert_array_equal(getattr(slow_res, f), getattr(fast_res, f))
    card, d, _ = positions[0]
    k = card.key
    for rl in (2, 1, 0):
        for x, y in zip(slow.ranked(k.mask, k.up, k.yb, d, rl),
                        a.ranked(k.mask, k.up, k.yb, d, rl)):
            np.testing.assert_array_equal(x, y)
    with pytest.raises(ScoreCardError, match=r"invalid state \(0, 7, 0\): it cannot occur"):
        slow.ranked(0, 7, 0, d, 0)


def test_thread_count_does_not_change_values(arr, monkeypatch):
    import numba

    from yahtzee_solver.strategy import batch

    a = arr("yahtzee")
    masks, ups, ybs, dice, rls = as_arrays(random_positions("yahtzee", 2, seed=4))
    monkeypatch.setattr(batch, "_PARALLEL_MIN_SECONDS", 0.0)  # every thread, however small the batch
    res = a.option_values(masks, ups, ybs, dice, rls)
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = a.option_values(masks, ups, ybs, dice, rls)
    finally:
        numba.set_num_threads(old)
    assert numba.get_num_threads() == old
    np.testing.assert_array_equal(one.keep_values, res.keep_values)
    np.testing.assert_array_equal(one.box_values, res.box_values)


def test_module_function_and_dice_forms(arr):
    a = arr("yahtzee")
    table = load_table("yahtzee")
    dice = np.array([[6, 1, 3, 5, 3], [2, 2, 2, 2, 2]])
    rolls = np.array([roll_index((1, 3, 3, 5, 6)), roll_index((2,) * 5)])
    r1 = option_values(table, [0, 0], [0, 0], [0, 0], dice, [2, 0])
    r2 = a.option_values([0, 0], [0, 0], [0, 0], rolls, np.array([2, 0]))
    np.testing.assert_array_equal(r1.keep_values, r2.keep_values)
    np.testing.assert_array_equal(r1.box_values, r2.box_values)
    assert r1.rolls.tolist() == rolls.tolist()
    # a roll index and unsorted dice give the same single answer
    x = a.ranked(0, 0, 0, (6, 1, 3, 5, 3), 2)
    y = a.ranked(0, 0, 0, int(rolls[0]), 2)
    z = a.ranked(np.int64(0), 0, 0, np.int64(rolls[0]), 2)
    for p, q, s in zip(x, y, z):
        np.testing.assert_array_equal(p, q)
        np.testing.assert_array_equal(p, s)
    empty = a.option_values([], [], [], np.zeros((0, 5), int), 1)
    assert empty.keep_values.shape == (0, MAX_KEEPS) and empty.best_value.shape == (0,)


def test_roll_indices_every_roll_any_order():
    rng = np.random.default_rng(9)
    dice = np.array([rng.permutation(r) for r in ROLLS])
    assert roll_indices(dice).tolist() == list(range(len(ROLLS)))
    assert keep_index(ROLLS[7]) == ROLL_OFFSET + 7


@pytest.mark.parametrize(
    "dice, match",
    [
        (np.array([[1, 2, 3, 4, 7]]), r"invalid dice '12347' at row 0"),
        (np.array([[1, 2, 3, 4]]), r"shape \(1, 4\)"),
        (np.array([[1.0, 2, 3, 4, 5]]), r"dtype float64"),
    ],
)
def test_roll_indices_errors(dice, match):
    with pytest.raises(DiceError, match=match):
        roll_indices(dice)


def test_batch_errors(arr):
    a = arr("yahtzee")
    ok = dict(masks=[0, 0], ups=[0, 0], ybs=[0, 0], dice=[[1, 2, 3, 4, 5]] * 2, rolls_left=[2, 1])

    def call(**kw):
        args = {**ok, **kw}
        return a.option_values(args["masks"], args["ups"], args["ybs"], args["dice"], args["rolls_left"])

    call()  # the baseline is valid
    with pytest.raises(ScoreCardError, match=r"invalid state \(0, 5, 0\) at row 1: it cannot occur"):
        call(ups=[0, 5])
    with pytest.raises(ScoreCardError, match=r"invalid state \(8191, 63, 1\) at row 0: the card is full"):
        call(masks=[8191, 0], ups=[63, 0], ybs=[1, 0])
    with pytest.raises(ScoreCardError, match=r"upper subtotal must be 0..63"):
        call(ups=[0, 64])
    with pytest.raises(ScoreCardError, match=r"yahtzee-bonus flag must be 0..1"):
        call(ybs=[0, 2])
    with pytest.raises(ScoreCardError, match=r"mask must be 0..8190"):
        call(masks=[-1, 0])
    with pytest.raises(UsageError, match=r"invalid rolls-left 3 at row 1"):
        call(rolls_left=[2, 3])
    with pytest.raises(UsageError, match=r"invalid rolls-left 'x'"):
        call(rolls_left="x")
    with pytest.raises(UsageError, match=r"invalid ups: 1 rows, want 2"):
        call(ups=[0])
    with pytest.raises(UsageError, match=r"invalid masks: want a 1-d integer array"):
        call(masks=[0.5, 0])
    with pytest.raises(DiceError, match=r"invalid dice '12340' at row 1"):
        call(dice=[[1, 2, 3, 4, 5], [1, 2, 3, 4, 0]])
    with pytest.raises(DiceError, match=r"invalid roll index 252 at row 0"):
        call(dice=[252, 0])
    with pytest.raises(UsageError, match=r"invalid dice: 1 rows, want 2"):
        call(dice=[[1, 2, 3, 4, 5]])


def test_single_errors(arr):
    a = arr("yahtzee")
    with pytest.raises(DiceError, match=r"invalid dice '1234'"):
        a.ranked(0, 0, 0, (1, 2, 3, 4), 2)
    with pytest.raises(DiceError, match=r"invalid dice '12347'"):
        a.ranked(0, 0, 0, (1, 2, 3, 4, 7), 2)
    with pytest.raises(DiceError, match=r"invalid roll index 300"):
        a.ranked(0, 0, 0, 300, 2)
    # neither a roll index nor a face: refused and named, not read as another roll
    for bad, quoted in ((True, "True"), (np.bool_(False), "False"), (None, "None"), (2.0, "2.0"),
                        ((1, 2, 3, 4, 5.5), "5.5"), ([1, 2, 3, 4, True], "True"), ([1, 2, 3, 4, 5.0], "5.0"),
                        ("22555", "'22555'")):
        with pytest.raises(DiceError) as info:
            a.ranked(0, 0, 0, bad, 2)
        assert quoted in str(info.value) and "12345" not in str(info.value), str(info.value)
    with pytest.raises(UsageError, match=r"invalid rolls-left 3"):
        a.ranked(0, 0, 0, (1, 2, 3, 4, 5), 3)
    with pytest.raises(UsageError, match=r"invalid rolls-left True"):
        a.ranked(0, 0, 0, (1, 2, 3, 4, 5), True)
    with pytest.raises(ScoreCardError, match=r"invalid state \(0, 7, 0\): it cannot occur"):
        a.ranked(0, 7, 0, (1, 2, 3, 4, 5), 2)
    with pytest.raises(ScoreCardError, match=r"upper subtotal must be 0..63"):
        a.ranked(1, -1, 0, (1, 2, 3, 4, 5), 2)
    with pytest.raises(ScoreCardError, match=r"the card is full"):
        a.ranked(8191, 63, 0, (1, 2, 3, 4, 5), 0)
    with pytest.raises(ScoreCardError, match=r"yahtzee-bonus flag must be 0..0"):
        arr("yacht").ranked(0, 0, 1, (1, 2, 3, 4, 5), 2)


@pytest.mark.parametrize("future", ["table", "none"])
@pytest.mark.parametrize("name", ALL_RULES)
def test_ranked_is_the_policy_in_every_argument_form(name, future, arr):
    """ranked() on Python ints (the inline path, the kernel checking the state) gives the
    policy's ranking (the reference: the source's values and a Python sort) exactly, and so
    does every other form of the same question (numpy ints, a list, an array, a roll index:
    the path that checks in Python first); the arrays returned are the caller's own.

    ``future="none"``: a table of zeros (NaN where the shipped one has NaN), so an option
    is worth its points now; many options tie, which checks the tie-break rule."""
    a = arr(name)
    rules = a.rules
    V = a.table.values
    if future == "none":
        a = ArrayAdvisor(rules, ValueTable(rules, V * 0.0))
    ties = 0
    reachable = np.argwhere(~np.isnan(V[: rules.full_mask]))
    rng = np.random.default_rng(sum(map(ord, name)))
    fives = [roll_index((f,) * 5) for f in range(1, 7)]
    closed = 0  # positions where a Joker rule closed open boxes
    previous = None
    for i in range(150):
        mask, up, yb = (int(x) for x in reachable[rng.integers(len(reachable))])
        r = fives[i % 6] if i % 3 == 0 else int(rng.integers(len(ROLLS)))
        dice = tuple(int(d) for d in rng.permutation(ROLLS[r]))
        for rl in (0, 1, 2):
            codes, values = a.ranked(mask, up, yb, dice, rl)
            if rl:
                want = a.policy.keep_ranking(StateKey(mask, up, yb), 0, r, rl)
            else:
                want = a.policy.box_ranking(StateKey(mask, up, yb), 0, r)
                closed += len(codes) < rules.n_categories - mask.bit_count()
            assert codes.dtype == np.int64 and values.dtype == np.float64
            assert codes.tolist() == want[0].tolist() and values.tolist() == want[1].tolist()
            ties += len(set(values.tolist())) < len(values)
            assert codes.flags.owndata and values.flags.owndata
            for args in (
                (np.int64(mask), np.int64(up), np.int64(yb), list(dice), rl),
                (mask, up, yb, r, np.int64(rl)),
                (np.int32(mask), up, np.uint8(yb), np.array(dice), rl),
            ):
                c, v = a.ranked(*args)
                assert c.tolist() == codes.tolist() and v.tolist() == values.tolist()
            if previous is not None:  # the last answer is untouched by the next calls
                assert previous[0].tolist() == previous[2] and previous[1].tolist() == previous[3]
            previous = (codes, values, codes.tolist(), values.tolist())
    if name == "yahtzee":  # forced Joker: the inline path hands these over to the checked one
        assert closed > 0
    if future == "none":
        assert ties > 100


@pytest.mark.parametrize("name", ["yahtzee", "yacht"])
def test_ranked_errors_are_the_same_in_every_argument_form(name, arr):
    """A bad state gives the same one-line error on the inline path (Python ints, the kernel
    checks) as on the checked path (numpy ints), for every rerolls-left; a bad rerolls-left
    or bad dice is named before a bad state."""
    a = arr(name)
    rules = a.rules
    V = a.table.values
    T, F, full = rules.upper_threshold, rules.n_flags, rules.full_mask
    unreachable = [tuple(int(x) for x in s) for s in np.argwhere(np.isnan(V[:full]))[::50000]]
    assert unreachable
    bad = [(full, 0, 0), (full, T, F - 1), (-1, 0, 0), (full + 1, 0, 0), (0, -1, 0), (0, T + 1, 0),
           (0, 0, -1), (0, 0, F), (0, 2**63, 0), (0, 0, -(2**70)), (2**70, 0, 0), *unreachable]
    for mask, up, yb in bad:
        for rl in (0, 1, 2):
            with pytest.raises(ScoreCardError) as fast:
                a.ranked(mask, up, yb, (3, 1, 2, 5, 4), rl)
            msg = str(fast.value)
            assert msg.startswith(f"invalid state ({mask}, {up}, {yb}): ") and "\n" not in msg
            if abs(up) < 2**63 and abs(yb) < 2**63 and abs(mask) < 2**63:
                with pytest.raises(ScoreCardError) as slow:
                    a.ranked(np.int64(mask), np.int64(up), np.int64(yb), [3, 1, 2, 5, 4], rl)
                assert str(slow.value) == msg
            with pytest.raises(UsageError, match=r"invalid rolls-left 3"):
                a.ranked(mask, up, yb, (3, 1, 2, 5, 4), 3)
            with pytest.raises(DiceError, match=r"invalid dice '3125'"):
                a.ranked(mask, up, yb, (3, 1, 2, 5), rl)
    for state in ((0, 0.0, 0), (0, None, 0), ("0", 0, 0), (0, 0, [0])):
        with pytest.raises(ScoreCardError, match=r"^invalid state \(.*\): mask, upper subtotal and "
                                                 r"yahtzee-bonus flag must be integers$"):
            a.ranked(*state, (1, 2, 3, 4, 5), 0)


def test_table_for_other_rules_is_refused(arr):
    with pytest.raises(UsageError, match=r"table is for rules 'yacht', not 'yahtzee'"):
        ArrayAdvisor("yahtzee", arr("yacht").table)
