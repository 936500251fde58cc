"""Rule sets as data: every box on every roll against the docs/rules.md reference, names, params."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from yahtzee_solver import rules as R
from yahtzee_solver.dice import ROLL_FACE, ROLLS
from yahtzee_solver.errors import CategoryError, RuleSetError, UsageError
from yahtzee_solver.rules import (
    RULESETS,
    YACHT,
    YAHTZEE,
    YAHTZEE_FREE_JOKER,
    YAHTZEE_NO_BONUS,
    YAHTZEE_NO_JOKER,
    YATZY,
    get_rules,
    score_roll,
)

ALL_NAMES = ["yahtzee", "yahtzee-free-joker", "yacht", "yahtzee-no-joker", "yahtzee-no-bonus", "yatzy"]
ALL = pytest.mark.parametrize("name", ALL_NAMES)


def test_the_registry_holds_every_rules_md_rule_set():
    assert sorted(RULESETS) == sorted(ALL_NAMES)


@ALL
def test_categories_are_the_rules_md_tables(name, ref):
    rules = get_rules(name)
    assert tuple(c.name for c in rules.categories) == ref.names[name]
    assert rules.n_categories == len(ref.names[name])
    assert rules.full_mask == (1 << rules.n_categories) - 1
    assert rules.yahtzee_category == ref.ybox(name)
    assert rules.lower_mask == rules.full_mask & ~0b111111
    assert rules.upper_bonus == ref.ubonus(name) and rules.upper_threshold == ref.threshold
    assert bool(rules.yahtzee_bonus) == ref.has_ybonus(name)
    assert rules.n_flags == (2 if ref.has_ybonus(name) else 1)


@ALL
def test_every_box_on_every_roll_matches_the_reference(name, ref):
    rules = get_rules(name)
    score = rules.arrays()["score"]
    assert score.shape == (252, rules.n_categories) and score.dtype == np.int64
    for r, roll in enumerate(ROLLS):
        for c, spec in enumerate(rules.categories):
            want = ref.score(name, c, roll)
            assert score[r, c] == want, (roll, spec.name)
            assert score_roll(roll, spec) == want


@ALL
def test_joker_points_table(name, ref):
    """Joker points differ from ordinary points only for FH/SS/LS on five alike (Yahtzee rules)."""
    rules = get_rules(name)
    a = rules.arrays()
    for r, roll in enumerate(ROLLS):
        for c in range(rules.n_categories):
            cname = ref.names[name][c]
            if ROLL_FACE[r] and name in ("yahtzee", "yahtzee-free-joker") and cname in ("Full House", "Small Straight", "Large Straight"):
                want = {"Full House": 25, "Small Straight": 30, "Large Straight": 40}[cname]
            else:
                want = ref.score(name, c, roll)
            assert a["joker"][r, c] == want, (roll, cname)


def test_five_alike_scoring_per_rule_set():
    for r, roll in enumerate(ROLLS):
        if not ROLL_FACE[r]:
            continue
        s = sum(roll)
        y = YAHTZEE.arrays()["score"][r]
        assert (y[8], y[9], y[10], y[11], y[6], y[7], y[12]) == (0, 0, 0, 50, s, s, s)
        # Yacht: five alike counts for Four Dice but not for Full House
        a = YACHT.arrays()["score"][r]
        assert (a[7], a[8], a[11], a[6]) == (s, 0, 50, s)


def test_yacht_full_house_and_straights():
    def pts(dice, box):
        return score_roll(dice, YACHT.categories[YACHT.category_index(box)])

    assert pts((2, 2, 5, 5, 5), "full-house") == 19
    assert pts((6, 6, 6, 6, 5), "full-house") == 0
    assert pts((1, 2, 3, 4, 6), "small-straight") == 15
    assert pts((2, 3, 4, 5, 6), "large-straight") == 30
    assert pts((6, 6, 6, 6, 5), "four-dice") == 29


def _yatzy(dice, box):
    return score_roll(dice, YATZY.categories[YATZY.category_index(box)])


def test_yatzy_rules_md_examples():
    """docs/rules.md, section yatzy: the examples and the cases that tell the variants apart."""
    assert _yatzy((1, 5, 5, 6, 6), "two-pairs") == 22
    assert _yatzy((1, 5, 5, 5, 5), "two-pairs") == 0  # one face twice is not two pairs
    assert _yatzy((5, 5, 5, 5, 5), "two-pairs") == 0
    assert _yatzy((3, 3, 3, 5, 5), "two-pairs") == 16  # a full house holds two pairs
    assert _yatzy((2, 2, 5, 5, 5), "full-house") == 19
    assert _yatzy((5, 5, 5, 5, 5), "full-house") == 0  # different faces needed
    assert _yatzy((3, 3, 5, 5, 6), "one-pair") == 10  # the highest pair
    assert _yatzy((5, 5, 5, 5, 5), "one-pair") == 10
    assert _yatzy((6, 6, 6, 6, 1), "three-of-a-kind") == 18  # the matching dice only
    assert _yatzy((6, 6, 6, 6, 6), "four-of-a-kind") == 24
    assert _yatzy((1, 2, 3, 4, 5), "small-straight") == 15
    assert _yatzy((2, 3, 4, 5, 6), "small-straight") == 0  # exactly 1-2-3-4-5
    assert _yatzy((2, 3, 4, 5, 6), "large-straight") == 20
    assert _yatzy((1, 2, 3, 4, 5), "large-straight") == 0
    assert _yatzy((1, 2, 3, 4, 4), "small-straight") == 0
    assert _yatzy((4, 4, 4, 4, 4), "yatzy") == 50
    assert YATZY.possible_points[7] == frozenset({0} | {2 * (a + b) for a in range(1, 7) for b in range(1, a)})
    assert YATZY.possible_points[6] == frozenset({0, 2, 4, 6, 8, 10, 12})
    assert YATZY.possible_points[10] == frozenset({0, 15})
    assert 0 not in YATZY.possible_points[13]


def test_yatzy_aliases():
    where = {"ones": 0, "6s": 5, "1p": 6, "pair": 6, "one-pair": 6, "One Pair": 6, "2p": 7, "tp": 7,
             "two pairs": 7, "3k": 8, "toak": 8, "4k": 9, "ss": 10, "ls": 11, "fh": 12, "c": 13,
             "chance": 13, "y": 14, "yatzy": 14, "yahtzee": 14, "Yatzy": 14}
    for n, c in where.items():
        assert YATZY.category_index(n) == c, n
    with pytest.raises(CategoryError, match="'two-pairs'.*yahtzee"):
        YAHTZEE.category_index("two-pairs")


def test_params_arrays():
    for rules in RULESETS.values():
        p = rules.arrays()["params"]
        assert p.dtype == np.int64 and p.shape == (8,)
        assert p[R.P_NCAT] == rules.n_categories
        assert p[R.P_YAHTZEE_CAT] == rules.yahtzee_category
        assert p[R.P_THRESHOLD] == 63 and p[R.P_UPPER_BONUS] == rules.upper_bonus and p[R.P_NUPPER] == 6
    y = YAHTZEE.arrays()["params"]
    assert (y[R.P_JOKER], y[R.P_YAHTZEE_BONUS], y[R.P_NFLAGS]) == (R.JOKER_FORCED, 100, 2)
    f = YAHTZEE_FREE_JOKER.arrays()["params"]
    assert (f[R.P_JOKER], f[R.P_YAHTZEE_BONUS], f[R.P_NFLAGS]) == (R.JOKER_FREE, 100, 2)
    a = YACHT.arrays()["params"]
    assert (a[R.P_JOKER], a[R.P_YAHTZEE_BONUS], a[R.P_NFLAGS]) == (R.JOKER_NONE, 0, 1)
    n = YAHTZEE_NO_JOKER.arrays()["params"]
    assert (n[R.P_JOKER], n[R.P_YAHTZEE_BONUS], n[R.P_NFLAGS]) == (R.JOKER_NONE, 100, 2)
    b = YAHTZEE_NO_BONUS.arrays()["params"]
    assert (b[R.P_JOKER], b[R.P_YAHTZEE_BONUS], b[R.P_NFLAGS]) == (R.JOKER_NONE, 0, 1)
    z = YATZY.arrays()["params"]
    assert (z[R.P_NCAT], z[R.P_YAHTZEE_CAT], z[R.P_UPPER_BONUS]) == (15, 14, 50)
    assert (z[R.P_JOKER], z[R.P_YAHTZEE_BONUS], z[R.P_NFLAGS]) == (R.JOKER_NONE, 0, 1)


def test_arrays_are_read_only():
    for a in YAHTZEE.arrays().values():
        with pytest.raises(ValueError):
            a[0] = 0


# -- names -------------------------------------------------------------------
ALIASES = {
    0: ["ones", "aces", "1s", "ONES", "Aces"],
    1: ["twos", "2s"],
    2: ["threes", "3s"],
    3: ["fours", "4s", "Fours"],
    4: ["fives", "5s"],
    5: ["sixes", "6s", "SIXES"],
    6: ["3k", "three-of-a-kind", "toak", "Three of a Kind", "three_of_a_kind", "3K"],
    7: ["4k", "four-of-a-kind", "four-dice", "foak", "FOAK"],
    8: ["fh", "full-house", "Full House", "FH"],
    9: ["ss", "sm-straight", "small-straight", "s-straight", "Small Straight"],
    10: ["ls", "lg-straight", "large-straight", "l-straight", "LS"],
    11: ["y", "yahtzee", "yacht", "Yahtzee", "YACHT"],
    12: ["c", "chance", "choice", "Chance"],
}


@pytest.mark.parametrize("c, names", sorted(ALIASES.items()))
def test_yahtzee_aliases(c, names):
    for n in names:
        assert YAHTZEE.category_index(n) == c, n
        assert YAHTZEE_FREE_JOKER.category_index(n) == c, n


def test_yacht_aliases():
    where = {"aces": 0, "ones": 0, "6s": 5, "choice": 6, "chance": 6, "c": 6, "four-dice": 7, "4k": 7,
             "Four Dice": 7, "fh": 8, "ss": 9, "ls": 10, "yacht": 11, "y": 11, "yahtzee": 11}
    for n, c in where.items():
        assert YACHT.category_index(n) == c, n


def test_yacht_has_no_three_of_a_kind():
    with pytest.raises(CategoryError) as info:
        YACHT.category_index("3k")
    msg = str(info.value)
    assert "'3k'" in msg and "yacht" in msg and msg == msg.lower() and "\n" not in msg


@pytest.mark.parametrize("bad", ["sevens", "", "full house house", "7s"])
def test_unknown_category(bad):
    with pytest.raises(CategoryError) as info:
        YAHTZEE.category_index(bad)
    assert repr(bad) in str(info.value)
    assert isinstance(info.value, UsageError)


def test_get_rules():
    assert get_rules("yahtzee") is YAHTZEE
    assert get_rules(" YACHT ") is YACHT
    assert get_rules(YAHTZEE_FREE_JOKER) is YAHTZEE_FREE_JOKER
    assert get_rules() is YAHTZEE
    assert get_rules(None) is YAHTZEE  # as a rules left out
    with pytest.raises(RuleSetError, match="unknown rules 'poker'"):
        get_rules("poker")


@pytest.mark.parametrize("bad, kind", [(3, "int"), (object(), "object"), (b"yahtzee", "bytes")])
def test_get_rules_names_a_value_that_is_not_a_name(bad, kind):
    # a value table passed where the rules go: said as such, not as a misspelt name
    with pytest.raises(RuleSetError, match=f"rules must be a rule-set name or a RuleSet, not {kind} ") as info:
        get_rules(bad)
    assert "unknown rules" not in str(info.value)


# -- rule sets as values -------------------------------------------------------
def test_rule_sets_are_frozen_values():
    assert YAHTZEE != YAHTZEE_FREE_JOKER
    assert YAHTZEE.categories == YAHTZEE_FREE_JOKER.categories
    assert hash(YAHTZEE) == hash(dataclasses.replace(YAHTZEE))
    with pytest.raises(dataclasses.FrozenInstanceError):
        YAHTZEE.joker = "free"  # type: ignore[misc]


def test_json_definition():
    for rules in RULESETS.values():
        d = json.loads(rules.to_json())
        assert d["name"] == rules.name
        assert [c["name"] for c in d["categories"]] == [c.name for c in rules.categories]
        rebuilt = R.RuleSet(**{**d, "categories": tuple(R.CategorySpec(**c) for c in d["categories"])})
        assert rebuilt == rules


def test_invalid_rule_sets_are_rejected():
    with pytest.raises(ValueError, match="joker"):
        dataclasses.replace(YAHTZEE, joker="sometimes")
    with pytest.raises(ValueError, match="Ones..Sixes"):
        dataclasses.replace(YAHTZEE, categories=YAHTZEE.categories[1:] + YAHTZEE.categories[:1])
    no_yahtzee = tuple(c for c in YAHTZEE.categories if c.kind != "five_alike")
    with pytest.raises(ValueError, match="Joker"):
        dataclasses.replace(YAHTZEE, categories=no_yahtzee)
    with pytest.raises(ValueError, match="kind"):
        dataclasses.replace(YAHTZEE, categories=YAHTZEE.categories + (R.CategorySpec("X", "x", "pairs"),))


def test_possible_points():
    pp = YAHTZEE.possible_points
    assert pp[3] == frozenset({0, 4, 8, 12, 16, 20})
    assert pp[8] == frozenset({0, 25})
    assert pp[9] == frozenset({0, 30})
    assert pp[10] == frozenset({0, 40})
    assert pp[11] == frozenset({0, 50})
    assert pp[12] == frozenset(range(5, 31))  # Chance never holds 0
    assert pp[6] == frozenset({0} | set(range(5, 31)))
    # Yacht Full House: sums 3a + 2b with a != b, never 6 or 5*a alone
    fh = {3 * a + 2 * b for a in range(1, 7) for b in range(1, 7) if a != b}
    assert YACHT.possible_points[8] == frozenset({0} | fh)
    assert 6 not in YACHT.possible_points[8]
    assert YACHT.possible_points[9] == frozenset({0, 15})
    assert YACHT.possible_points[6] == frozenset(range(5, 31))


def test_rule_sets_pickle_by_name_without_their_caches():
    import pickle

    for rules in RULESETS.values():
        rules.arrays(), rules.possible_points  # the cached kernel inputs
        data = pickle.dumps(rules)
        assert len(data) < 200, (rules.name, len(data))
        assert pickle.loads(data) is rules
    mine = dataclasses.replace(YAHTZEE, name="my-yahtzee")  # not registered: pickled by value
    mine.arrays()
    data = pickle.dumps(mine)
    back = pickle.loads(data)
    assert back == mine and back.name == "my-yahtzee" and b"_kernel_arrays" not in data
    assert np.array_equal(back.arrays()["score"], mine.arrays()["score"])


# -- docs/rules.md, the rules authority ------------------------------------------------------------
def test_reference_values_are_the_rules_doc_values():
    from rulesdoc import reference_values

    doc = reference_values()
    assert set(doc) <= set(RULESETS) and len(doc) == 5
    for name, rules in RULESETS.items():
        assert rules.reference_value == doc.get(name), name  # None where the doc quotes none (Yacht)


def test_every_box_name_of_the_rules_doc_is_accepted():
    from rulesdoc import box_names

    names = box_names()
    by_name = {c.name: c.key for r in RULESETS.values() for c in r.categories}
    assert set(names) <= set(by_name)
    assert set(by_name.values()) == {by_name[n] for n in names}  # every kind of box is listed
    for box, aliases in names.items():
        key = by_name[box]
        for rules in RULESETS.values():
            want = [i for i, c in enumerate(rules.categories) if c.key == key]
            for alias in aliases:
                if want:
                    assert rules.category_index(alias) == want[0], (rules.name, alias)
                    assert rules.category_index(alias.upper().replace("-", " ")) == want[0]
                else:
                    with pytest.raises(CategoryError):
                        rules.category_index(alias)


def test_the_rules_doc_names_every_rule_set():
    from rulesdoc import RULES_DOC

    text = RULES_DOC.read_text(encoding="utf-8")
    for name in RULESETS:
        assert f"## `{name}`" in text or f"`{name}` and" in text or f"and `{name}`" in text, name


def test_the_rules_doc_parser_refuses_a_broken_table(tmp_path, monkeypatch):
    import rulesdoc

    bad = tmp_path / "rules.md"
    monkeypatch.setattr(rulesdoc, "RULES_DOC", bad)
    for body in ("no markers at all",
                 "<!-- t -->\n| a | b |\n|---|---|\n| 1 |\n<!-- /t -->",
                 "<!-- t -->\n| a | b |\n| 1 | 2 |\n<!-- /t -->"):
        bad.write_text(body)
        rulesdoc.table.cache_clear()
        with pytest.raises(ValueError):
            rulesdoc.table("t")
    rulesdoc.table.cache_clear()
