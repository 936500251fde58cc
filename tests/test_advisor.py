"""The advisor: ranked keeps and boxes with expected final totals, consistent with the table."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest

from yahtzee_solver.strategy.advisor import Advisor, BoxOption, KeepOption
from yahtzee_solver.dice import KEEPS, ROLL_PROB, ROLLS, format_dice
from yahtzee_solver.errors import DiceError, ScoreCardError, UsageError
from yahtzee_solver.state import ScoreCard, parse_card

RULE_NAMES = ("yahtzee", "yahtzee-free-joker", "yacht", "yahtzee-no-joker", "yahtzee-no-bonus", "yatzy")

CARDS = {
    "yahtzee": [None, "sixes=18,fours=12,chance=22,yahtzee=50", "yahtzee=50,fives=15,3k=20,fh=25",
                "ones=3,twos=6,threes=9,fours=12,fives=10,ss=30,ls=40,yahtzee=0"],
    "yahtzee-free-joker": [None, "yahtzee=50,fives=15", "sixes=24,fives=20,4k=0,yahtzee=0"],
    "yacht": [None, "yacht=50,sixes=24", "aces=2,twos=4,threes=9,fours=12,fives=15,choice=20"],
    "yahtzee-no-joker": [None, "yahtzee=50,fives=15", "sixes=18,fh=0,yahtzee=50,yahtzee-bonus=100"],
    "yahtzee-no-bonus": [None, "yahtzee=50,fives=15,ss=30", "ones=2,ls=40,chance=17,yahtzee=0"],
    "yatzy": [None, "1p=12,2p=22,yatzy=50,sixes=24", "ones=3,twos=6,threes=9,fours=12,fives=15,3k=15,ss=15"],
}
DICE = ["22555", "55555", "12346", "11111", "34566", "12345"]


@pytest.fixture(scope="module")
def advisors(fresh_table):
    """``advisors[name, jit]``: advisors on the session-built tables, compiled and interpreted."""
    out = {}
    for name in RULE_NAMES:
        for jit in (True, False):
            out[name, jit] = Advisor(name, table=fresh_table(name), jit=jit)
    return out


def positions():
    for name in RULE_NAMES:
        for text in CARDS[name]:
            for dice in DICE:
                yield name, text, dice


def _sub_multisets(dice):
    return {tuple(sorted(c)) for n in range(6) for c in itertools.combinations(sorted(dice), n)}


# -- rankings -----------------------------------------------------------------------
@pytest.mark.parametrize("name, text, dice", list(positions()))
def test_keep_rankings(name, text, dice, advisors):
    adv = advisors[name, True]
    card = parse_card(text, name)
    faces = tuple(int(d) for d in dice)
    for rolls_left in (1, 2):
        opts = adv.keep_options(card, dice, rolls_left)
        assert all(isinstance(o, KeepOption) for o in opts)
        # exactly the distinct sub-multisets, each once, with its complement as reroll
        assert len(opts) == len({o.keep for o in opts})
        assert {o.keep for o in opts} == _sub_multisets(faces)
        for o in opts:
            assert Counter(o.keep) + Counter(o.reroll) == Counter(faces)
            assert list(o.reroll) == sorted(o.reroll)
        exp = [o.expected for o in opts]
        assert exp == sorted(exp, reverse=True)
        assert opts[0].loss == 0.0
        assert all(o.loss >= 0 for o in opts)
        for o in opts:
            assert o.loss == pytest.approx(opts[0].expected - o.expected, abs=1e-9)
        # expected final total = card total + expected points to come of that keep
        E = adv.keep_values(card.key, rolls_left)
        for o in opts:
            assert o.expected == card.total + E[KEEPS.index(o.keep)]


@pytest.mark.parametrize("name, text, dice", list(positions()))
def test_box_rankings(name, text, dice, advisors):
    adv = advisors[name, True]
    card = parse_card(text, name)
    opts = adv.box_options(card, dice)
    assert all(isinstance(o, BoxOption) for o in opts)
    exp = [o.expected for o in opts]
    assert exp == sorted(exp, reverse=True)
    assert opts[0].loss == 0.0 and all(o.loss >= 0 for o in opts)
    points, legal, bonus = card.box_points(dice)
    assert [o.category for o in sorted(opts, key=lambda o: o.category)] == [c for c in range(len(legal)) if legal[c]]
    for o in opts:
        assert o.points == points[o.category] and o.yahtzee_bonus == bonus
        assert o.name == card.rules.categories[o.category].name
        # expected = total after scoring here + value of the next turn-start state
        after = card.with_box(o.category, o.points, o.yahtzee_bonus)
        assert o.upper_bonus == after.upper_bonus - card.upper_bonus
        assert o.gain == after.total - card.total
        assert o.expected == pytest.approx(adv.expected_final(after), abs=1e-9)
        assert o.to_dict()["category"] == o.name


def test_expected_final(advisors, fresh_table):
    for name in RULE_NAMES:
        adv = advisors[name, True]
        assert adv.expected_final() == fresh_table(name).empty_value
        for text in CARDS[name]:
            card = parse_card(text, name)
            k = card.key
            assert adv.expected_final(card) == card.total + fresh_table(name).values[k]
            assert adv.expected_final(text) == adv.expected_final(card)


def test_full_card_expected_final_is_its_total(advisors):
    text = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=0,fh=25,ss=30,ls=40,yahtzee=0,chance=22"
    card = parse_card(text)
    assert advisors["yahtzee", True].expected_final(card) == card.total


# -- the advisor is consistent with itself -------------------------------------------------
@pytest.mark.parametrize("name", RULE_NAMES)
def test_turn_start_value_is_the_mean_of_the_best_first_keeps(name, advisors):
    """expected_final(card) = sum over first rolls of P(roll) x best keep with two rerolls."""
    adv = advisors[name, True]
    card = parse_card(CARDS[name][1], name)
    mean = sum(p * adv.keep_options(card, format_dice(r), 2)[0].expected for r, p in zip(ROLLS, ROLL_PROB))
    assert mean == pytest.approx(adv.expected_final(card), abs=1e-9)


@pytest.mark.parametrize("name", RULE_NAMES)
def test_last_keep_is_the_mean_of_the_best_boxes(name, advisors):
    """A keep with one reroll left is worth the mean, over the rerolled dice, of the best box."""
    adv = advisors[name, True]
    card = parse_card(CARDS[name][2], name)
    for opt in adv.keep_options(card, "22555", 1)[:4]:
        n = len(opt.reroll)
        total = 0.0
        for o in itertools.product(range(1, 7), repeat=n):
            total += adv.box_options(card, opt.keep + o)[0].expected
        assert total / 6**n == pytest.approx(opt.expected, abs=1e-9)


@pytest.mark.parametrize("name", RULE_NAMES)
def test_compiled_and_interpreted_agree_exactly(name, advisors):
    a, b = advisors[name, True], advisors[name, False]
    rng = random.Random(f"advisor-jit-{name}")
    for text in CARDS[name]:
        for _ in range(3):
            dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
            for rolls_left in (0, 1, 2):
                assert a.hint(text, dice, rolls_left) == b.hint(text, dice, rolls_left)


# -- Joker restrictions -----------------------------------------------------------------------
def test_box_options_joker_cases(joker_case, advisors):
    case = joker_case
    adv = advisors[case.rules, True]
    rules = adv.rules
    opts = adv.box_options(case.card, case.dice)
    want = {rules.category_index(k): v for k, v in case.legal.items()}
    assert {o.category: o.points for o in opts} == want
    assert all(o.yahtzee_bonus == case.bonus for o in opts)
    assert all(o.joker == case.joker for o in opts)


def test_forced_joker_goes_to_the_own_upper_box(advisors):
    """With 50 in the Yahtzee box and Fives open, 55555 has one option: Fives, 25 + 100 points."""
    (only,) = advisors["yahtzee", True].box_options("yahtzee=50", "55555")
    assert (only.name, only.points, only.yahtzee_bonus, only.loss) == ("Fives", 25, 100, 0.0)
    free = advisors["yahtzee-free-joker", True].box_options("yahtzee=50", "55555")
    assert len(free) == 12


# -- errors -------------------------------------------------------------------------------------
def test_errors(advisors, fresh_table):
    adv = advisors["yahtzee", True]
    full = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=0,fh=25,ss=30,ls=40,yahtzee=0,chance=22"
    with pytest.raises(ScoreCardError, match="card is full"):
        adv.keep_options(full, "22555", 2)
    with pytest.raises(ScoreCardError, match="card is full"):
        adv.box_options(full, "22555")
    for bad in (0, 3, True):
        with pytest.raises(UsageError, match="rolls-left"):
            adv.keep_options(None, "22555", bad)
    with pytest.raises(UsageError, match="rolls-left"):
        adv.hint(None, "22555", 3)
    with pytest.raises(DiceError):
        adv.hint(None, "2255", 2)
    with pytest.raises(ScoreCardError, match="card is for rules 'yacht'"):
        adv.box_options(ScoreCard.empty("yacht"), "22555")
    with pytest.raises(UsageError, match="table is for rules 'yacht'"):
        Advisor("yahtzee", table=fresh_table("yacht"))


def test_hint_dispatch_and_json(advisors):
    adv = advisors["yahtzee", True]
    assert adv.hint(None, "22555", 0) == adv.box_options(None, "22555")
    assert adv.hint({"sixes": 18}, "22555", 2) == adv.keep_options("sixes=18", "22555", 2)
    d = adv.hint(None, "22555", 1)[0].to_dict()
    assert set(d) == {"keep", "reroll", "expected", "loss", "stop", "score"}
    assert isinstance(d["keep"], str)


def test_default_table_is_the_shipped_one():
    adv = Advisor("yacht", jit=False)
    assert adv.table.path is not None and adv.table.path.name == "yacht.h5"
    assert np.isfinite(adv.expected_final())


# -- to_dict conventions -----------------------------------------------------------
@pytest.mark.parametrize("name", RULE_NAMES)
def test_box_to_dict_gives_the_machine_name_with_the_display_name_beside(name, advisors):
    adv = advisors[name, False]
    for text in CARDS[name]:
        card = parse_card(text, name)
        for dice in DICE:
            for o in adv.box_options(card, dice):
                d = o.to_dict()
                spec = card.rules.categories[o.category]
                assert d["box"] == spec.slug and d["name"] == spec.name == o.name
                assert card.rules.category_index(d["box"]) == o.category  # the machine name reads back
                assert d["category"] == o.name  # the field scripts already read, unchanged
                assert ScoreCard.from_mapping({**card.to_dict(), d["box"]: d["points"]}, name) == card.with_box(
                    o.category, o.points)


def test_keep_to_dict_gives_dice_as_the_cli_reads_them(advisors):
    from yahtzee_solver.dice import parse_dice

    adv = advisors["yahtzee", False]
    for o in adv.keep_options(None, "22555", 2):
        d = o.to_dict()
        for field in ("keep", "reroll"):  # the digits a player types; '-' for no dice
            dice = getattr(o, field)
            assert (tuple(parse_dice(d[field], n=None)) == dice) if dice else d[field] == "-"
        assert (d["expected"], d["loss"]) == (o.expected, o.loss)


# -- pickling ------------------------------------------------------------------------
def _best_moves(adv, positions):
    """The advisor's answers for ``positions`` as plain data (module level: a spawned worker imports it)."""
    out = []
    for card, dice, rolls_left in positions:
        opts = adv.hint(card, dice, rolls_left)
        out.append([o.to_dict() for o in opts])
    return out


def _answer(args):
    adv, positions = args
    return _best_moves(adv, positions)


@pytest.mark.parametrize("jit", [False, True])
def test_advisor_pickles_by_rules_and_table_file(jit):
    import pickle

    adv = Advisor("yacht", jit=jit)
    adv.keep_options(None, "22555", 2)
    data = pickle.dumps(adv)
    assert len(data) < 2048, len(data)  # the table file's path, not its values
    back = pickle.loads(data)
    assert back.rules is adv.rules and back.table.path == adv.table.path and back.source.jit == jit
    positions = [(None, "22555", 2), ("aces=3,choice=22", "11112", 1), ("yacht=50", "66666", 0)]
    assert _best_moves(back, positions) == _best_moves(adv, positions)


def test_advisor_on_an_opened_table_stays_partial_after_unpickling(tmp_path):
    import pickle
    import shutil

    from yahtzee_solver.solver.table import default_table_path, open_table

    path = tmp_path / "yacht.h5"  # a file of its own: no other test's table from the per-process cache
    shutil.copyfile(default_table_path("yacht"), path)
    adv = Advisor("yacht", table=open_table("yacht", path), jit=False)
    assert not adv.table.is_loaded
    back = pickle.loads(pickle.dumps(adv))
    assert back.table.path == path and not back.table.is_loaded
    assert back.expected_final() == adv.expected_final()


def test_advisor_on_an_in_memory_table_pickles_its_values(fresh_table):
    import pickle

    from yahtzee_solver.solver.table import ValueTable

    t = fresh_table("yacht")
    mem = ValueTable(t.rules, np.array(t.values))
    adv = Advisor("yacht", table=mem, jit=False)
    back = pickle.loads(pickle.dumps(adv))
    assert back.table.path is None and np.array_equal(back.table.values, mem.values, equal_nan=True)
    assert back.box_options(None, "12345") == adv.box_options(None, "12345")


def test_advisor_in_a_spawn_pool_answers_as_in_this_process():
    import multiprocessing

    rng = random.Random(7)
    positions = []
    for _ in range(12):
        card = rng.choice(CARDS["yahtzee"])
        dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
        positions.append((card, dice, rng.choice((0, 1, 2))))
    adv = Advisor("yahtzee", jit=False)
    serial = [_best_moves(adv, positions[i::2]) for i in range(2)]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        parallel = pool.map(_answer, [(adv, positions[i::2]) for i in range(2)])
    assert parallel == serial


def test_a_card_or_table_of_the_wrong_type_is_a_clear_error():
    """Natural mistakes (a number for the card, a path for the table) raise the library's errors
    with a message, not an AttributeError from inside."""
    from yahtzee_solver.errors import ScoreCardError, UsageError

    adv = Advisor("yahtzee", jit=False)
    for bad in (5, 2.5, ["sixes", 18]):
        with pytest.raises(ScoreCardError, match="invalid card"):
            adv.box_options(bad, "22555")
    with pytest.raises(UsageError, match="invalid table '/nonexistent.h5'.*load_table"):
        Advisor("yahtzee", table="/nonexistent.h5")


def test_rules_none_is_the_tables_rule_set_or_the_default():
    """``Advisor(None)`` raised "unknown rules None", as if None were a misspelt name: None now means what leaving
    ``rules`` out means (yahtzee, its shipped table), or with a table, that table's rule set."""
    from yahtzee_solver.solver.table import load_table

    default = Advisor(jit=False)
    adv = Advisor(None, jit=False)
    assert adv.rules == default.rules and adv.table is default.table
    yacht = load_table("yacht")
    adv = Advisor(None, yacht, jit=False)
    assert adv.rules.name == "yacht" and adv.table is yacht
    assert adv.keep_options(None, "22555") == Advisor("yacht", yacht, jit=False).keep_options(None, "22555")
    with pytest.raises(UsageError, match="invalid table '/nonexistent.h5'"):
        Advisor(None, table="/nonexistent.h5")
