"""Scorecards: parsing, validation, totals, state keys and how a roll scores on a card."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yahtzee_solver.errors import CategoryError, DataFileError, DiceError, ScoreCardError, UsageError
from yahtzee_solver.rules import get_rules
from yahtzee_solver.state import ScoreCard, StateKey, parse_card

RULE_NAMES = ("yahtzee", "yahtzee-free-joker", "yacht", "yahtzee-no-joker", "yahtzee-no-bonus", "yatzy")


def boxes(card: ScoreCard) -> dict[str, int]:
    return {c.key: v for c, v in zip(card.rules.categories, card.boxes) if v is not None}


def assert_one_line(err: Exception, *fragments):
    msg = str(err)
    assert "\n" not in msg and not msg[0].isupper()
    for f in fragments:
        assert f in msg, (f, msg)


# -- construction and parsing ----------------------------------------------------
def test_empty_card():
    card = ScoreCard.empty()
    assert card.rules.name == "yahtzee"
    assert card.key == StateKey(0, 0, 0) and card.total == 0 and not card.is_full
    assert card.open_categories == tuple(range(13))
    assert parse_card(None) == card
    assert ScoreCard.empty("yacht").boxes == (None,) * 12


@pytest.mark.parametrize("text", ["", " ", "   ", "\t", "\u3000"])
def test_an_empty_or_blank_card_is_refused_not_read_as_the_empty_card(text):
    # '' and blanks were the empty card while ',,,' was refused: a slip either way; None is the empty card
    with pytest.raises(ScoreCardError) as info:
        parse_card(text)
    assert info.value.key == "none"
    assert_one_line(info.value, f"invalid card {text!r}", "leave the card out for the empty card")


def test_parse_card_with_aliases_case_insensitive():
    card = parse_card("6s=18,FOURS=12,C=22,y=50,Full_House=25,sm-straight:30,toak=17")
    assert boxes(card) == {
        "sixes": 18, "fours": 12, "chance": 22, "yahtzee": 50, "full-house": 25,
        "small-straight": 30, "three-of-a-kind": 17,
    }
    assert card == parse_card("sixes=18; fours=12 chance=22,,yahtzee=50 fh=25 ss=30 3k=17")


def test_open_markers():
    card = parse_card("sixes=18,fours=-,chance=open,ones=none")
    assert boxes(card) == {"sixes": 18}


def test_yacht_names():
    card = parse_card("aces=3,choice=22,four-dice=24,yacht=50,fh=19", "yacht")
    assert boxes(card) == {"ones": 3, "chance": 22, "four-of-a-kind": 24, "yahtzee": 50, "full-house": 19}
    assert card.key.yb == 0  # Yacht has no bonus flag


@pytest.mark.parametrize("text", ["sixes=18,6s=12", "sixes=18,SIXES=12", "c=20,chance=20", "fh=25,full_house=25"])
def test_repeated_names(text):
    with pytest.raises(CategoryError) as info:
        parse_card(text)
    assert_one_line(info.value, "repeated category")


def test_repeated_bonus():
    with pytest.raises(CategoryError, match="repeated"):
        ScoreCard.from_mapping({"yahtzee": 50, "sixes": 6, "twos": 4, "bonus": 100, "yahtzee-bonus": 100})


@pytest.mark.parametrize(
    "rules, text, quoted",
    [
        ("yahtzee", "fours=13", "13"),
        ("yahtzee", "full-house=20", "20"),
        ("yahtzee", "yahtzee=40", "40"),
        ("yahtzee", "chance=0", "0"),
        ("yahtzee", "chance=31", "31"),
        ("yahtzee", "sixes=-6", "-6"),
        ("yahtzee", "ss=40", "40"),
        ("yahtzee", "3k=4", "4"),
        ("yacht", "full-house=6", "6"),
        ("yacht", "fh=25", "25"),
        ("yacht", "ss=30", "30"),
    ],
)
def test_impossible_values(rules, text, quoted):
    with pytest.raises(ScoreCardError) as info:
        parse_card(text, rules)
    assert_one_line(info.value, "impossible score", quoted)
    assert isinstance(info.value, UsageError)


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("sixes", "invalid card entry 'sixes'"),
        ("sixes=abc", "'abc'"),
        ("sixes=18.0", "'18.0'"),
        ("sevens=7", "unknown category 'sevens'"),
        ("yahtzee-bonus=100", "needs 50"),
        ("yahtzee=0,sixes=6,yahtzee-bonus=100", "needs 50"),
        ("yahtzee=50,yahtzee-bonus=100", "more than one bonus per box"),
        ("yahtzee=50,sixes=6,yahtzee-bonus=200", "more than one bonus per box"),
        ("yahtzee=50,ones=3,yahtzee-bonus=100", "needs 1 box besides the yahtzee box"),
        ("yahtzee=50,ones=5,sixes=24,yahtzee-bonus=200", "needs 2 boxes besides"),
        ("yahtzee=50,sixes=6,yahtzee-bonus=50", "multiple of 100"),
        ("yahtzee=50,sixes=6,yahtzee-bonus=-100", "yahtzee-bonus"),
    ],
)
def test_invalid_cards(text, fragment):
    with pytest.raises(UsageError) as info:
        parse_card(text)
    assert_one_line(info.value, fragment)


@pytest.mark.parametrize("rules, text, ok", [
    ("yahtzee", "yahtzee=50,ones=5,yahtzee-bonus=100", True),
    ("yahtzee", "yahtzee=50,twos=0,yahtzee-bonus=100", True),          # five alike scratched in an upper box
    ("yahtzee", "yahtzee=50,full-house=25,large-straight=40,yahtzee-bonus=200", True),   # Joker points
    ("yahtzee-no-joker", "yahtzee=50,full-house=25,yahtzee-bonus=100", False),  # no Joker: five alike score 0 there
    ("yahtzee-no-joker", "yahtzee=50,full-house=0,yahtzee-bonus=100", True),
    ("yahtzee", "yahtzee=50,chance=29,yahtzee-bonus=100", False),       # not five alike's sum
    ("yahtzee", "yahtzee=50,chance=30,three-of-a-kind=25,yahtzee-bonus=200", True),
])
def test_each_yahtzee_bonus_needs_a_box_holding_five_alike(rules, text, ok):
    """A bonus roll was written in a box of its own, so that box holds what five alike score there."""
    if ok:
        assert parse_card(text, rules).yahtzee_bonus > 0
    else:
        with pytest.raises(ScoreCardError) as info:
            parse_card(text, rules)
        assert_one_line(info.value, "five alike")


def test_yacht_has_no_yahtzee_bonus():
    with pytest.raises(ScoreCardError, match="no yahtzee bonus"):
        parse_card("yacht=50,sixes=6,yahtzee-bonus=100", "yacht")


def test_constructor_validates():
    r = get_rules("yahtzee")
    with pytest.raises(ScoreCardError, match="13 boxes"):
        ScoreCard(r, (None,) * 12)
    with pytest.raises(ScoreCardError, match="impossible score True"):
        ScoreCard(r, (True,) + (None,) * 12)
    with pytest.raises(ScoreCardError):
        ScoreCard(r, (1.0,) + (None,) * 12)


# -- @file.json -----------------------------------------------------------------------
def test_card_from_json_file(tmp_path):
    p = tmp_path / "card.json"
    p.write_text(json.dumps({"Sixes": 30, "4s": 12, "yahtzee": 50, "yahtzee-bonus": 100, "chance": None}))
    card = parse_card(f"@{p}")
    assert boxes(card) == {"sixes": 30, "fours": 12, "yahtzee": 50}
    assert card.yahtzee_bonus == 100
    assert card.total == 30 + 12 + 50 + 100


@pytest.mark.parametrize("bonus_key", ["yahtzee-bonus", "yahtzee_bonus", "Bonus"])
def test_wrapped_card_file_takes_rules_boxes_and_the_bonus(tmp_path, bonus_key):
    p = tmp_path / "card.json"
    p.write_text(json.dumps({"rules": "yahtzee", "boxes": {"sixes": 30, "yahtzee": 50}, bonus_key: 100}))
    card = parse_card(f"@{p}")
    assert boxes(card) == {"sixes": 30, "yahtzee": 50} and card.yahtzee_bonus == 100


@pytest.mark.parametrize("key", ["extra", "sixes"])
def test_wrapped_card_file_names_an_unknown_key_as_a_key_not_a_box(tmp_path, key):
    """Beside "boxes", a key that is neither the rule set nor the bonus is the file's mistake, not a box."""
    p = tmp_path / "card.json"
    p.write_text(json.dumps({"rules": "yahtzee", "boxes": {"fours": 12}, "yahtzee-bonus": 0, key: 18}))
    with pytest.raises(ScoreCardError) as info:
        parse_card(f"@{p}")
    msg = str(info.value)
    assert f"unknown key {key!r}" in msg and str(p) in msg and "category" not in msg
    assert all(f'"{k}"' in msg for k in ("rules", "boxes", "yahtzee-bonus"))
    assert "\n" not in msg


def test_card_file_errors(tmp_path):
    missing = tmp_path / "missing.json"
    with pytest.raises(DataFileError) as info:  # a file problem, not a card's value
        parse_card(f"@{missing}")
    assert_one_line(info.value, "cannot read card file", str(missing))
    with pytest.raises(DataFileError) as info:  # named as typed: the folder's slash kept
        parse_card(f"@{tmp_path}/")
    assert_one_line(info.value, f"cannot read card file {str(tmp_path) + '/'!r}")
    bad = tmp_path / "bad.json"
    bad.write_text("{sixes: 18")
    with pytest.raises(ScoreCardError) as info:
        parse_card(f"@{bad}")
    assert_one_line(info.value, "is not valid JSON", str(bad))
    lst = tmp_path / "list.json"
    lst.write_text("[18, 12]")
    with pytest.raises(ScoreCardError, match="must hold a JSON object"):
        parse_card(f"@{lst}")
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"sixes": 19}))
    with pytest.raises(ScoreCardError, match="impossible score 19"):
        parse_card(f"@{wrong}")


def test_card_rules_is_the_rule_set_a_card_file_or_json_card_names(tmp_path):
    from yahtzee_solver.state import card_rules

    named = tmp_path / "named.json"
    named.write_text(json.dumps({"rules": "yacht", "boxes": {"aces": 3}}))
    flat = tmp_path / "flat.json"
    flat.write_text(json.dumps({"rules": "yatzy", "one-pair": 12}))
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({"sixes": 18}))
    assert card_rules(f"@{named}") == "yacht" and card_rules(f" @{flat}") == "yatzy"
    assert card_rules('{"rules": "yahtzee-no-bonus"}') == "yahtzee-no-bonus"
    for text in (None, "sixes=18", f"@{plain}", "{}"):
        assert card_rules(text) is None
    assert parse_card(f"@{named}", "yacht").rules.name == "yacht"  # what it names parses it
    bad = tmp_path / "bad.json"
    for content, needle in (('{"rules": "poker"}', "unknown rules 'poker'"), ('{"rules": 5}', '"rules" must be'),
                            ("[1]", "must hold a JSON object"), ('{"rules": "yacht", "rules": "yatzy"}', "repeats")):
        bad.write_text(content)
        with pytest.raises(ScoreCardError, match=needle):
            card_rules(f"@{bad}")
    with pytest.raises(DataFileError, match="cannot read card file"):
        card_rules(f"@{tmp_path / 'missing.json'}")


# -- totals and keys ------------------------------------------------------------------
def test_totals_and_upper_bonus():
    card = parse_card("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18")  # exactly 63
    assert card.upper_subtotal == 63 and card.upper_bonus == 35
    assert card.total == 63 + 35
    assert card.key == StateKey(0b111111, 63, 0)
    short = parse_card("ones=2,twos=6,threes=9,fours=12,fives=15,sixes=18")
    assert short.upper_subtotal == 62 and short.upper_bonus == 0 and short.total == 62
    big = parse_card("fours=20,fives=25,sixes=30,chance=30,yahtzee=50,ones=5,3k=30,yahtzee-bonus=100")
    assert big.upper_subtotal == 80 and big.key.up == 63  # capped
    assert big.total == 80 + 35 + 30 + 50 + 30 + 100
    assert big.key.yb == 1


def test_state_key_flag():
    assert parse_card("yahtzee=50").key == StateKey(1 << 11, 0, 1)
    assert parse_card("yahtzee=0").key == StateKey(1 << 11, 0, 0)
    assert parse_card("yahtzee=50", "yahtzee-free-joker").key.yb == 1
    assert parse_card("yacht=50", "yacht").key == StateKey(1 << 11, 0, 0)


def test_with_box():
    card = parse_card("sixes=18")
    nxt = card.with_box(11, 50)
    assert nxt.boxes[11] == 50 and card.boxes[11] is None
    again = nxt.with_box(4, 25, 100)
    assert again.yahtzee_bonus == 100 and again.total == 18 + 50 + 25 + 100
    with pytest.raises(ScoreCardError, match="already filled"):
        again.with_box(5, 12)
    with pytest.raises(ScoreCardError, match="impossible"):
        card.with_box(0, 7)


def test_full_card():
    text = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=0,fh=25,ss=30,ls=40,yahtzee=0,chance=22"
    card = parse_card(text)
    assert card.is_full and card.open_categories == ()
    assert card.total == 63 + 35 + 20 + 25 + 30 + 40 + 22


# -- round trips (hypothesis) -----------------------------------------------------------
@st.composite
def cards(draw, rules_name=None):
    rules = get_rules(rules_name or draw(st.sampled_from(RULE_NAMES)))
    bx = []
    for c in range(rules.n_categories):
        filled = draw(st.booleans())
        bx.append(draw(st.sampled_from(sorted(rules.possible_points[c]))) if filled else None)
    bonus = 0
    y = rules.yahtzee_category
    holders = sum(v is not None and c != y and v in rules.five_alike_points[c] for c, v in enumerate(bx))
    if rules.yahtzee_bonus and bx[y] == 50 and holders > 0:
        bonus = rules.yahtzee_bonus * draw(st.integers(0, holders))
    return ScoreCard(rules, tuple(bx), bonus)


@given(cards())
def test_card_text_round_trip(card):
    assert parse_card(card.format() or None, card.rules)  # the empty card formats as "" == card


@given(cards())
def test_card_mapping_and_json_round_trip(card):
    assert ScoreCard.from_mapping(card.to_dict(), card.rules) == card
    assert ScoreCard.from_mapping(json.loads(json.dumps(card.to_dict())), card.rules) == card


@given(cards())
def test_card_derived_fields(card):
    r = card.rules
    filled = [c for c, v in enumerate(card.boxes) if v is not None]
    upper = sum(card.boxes[c] for c in filled if c < 6)
    assert card.filled == sum(1 << c for c in filled)
    assert card.total == sum(card.boxes[c] for c in filled) + (r.upper_bonus if upper >= 63 else 0) + card.yahtzee_bonus
    assert card.key == (card.filled, min(upper, 63), int(r.n_flags == 2 and card.boxes[r.yahtzee_category] == 50))
    assert set(card.open_categories) | set(filled) == set(range(r.n_categories))


# -- how a roll scores on a card ---------------------------------------------------------
def test_box_points_joker_cases(joker_case, ref):
    case = joker_case
    card = parse_card(case.card, case.rules)
    rules = card.rules
    points, legal, bonus = card.box_points(case.dice)
    assert len(points) == len(legal) == rules.n_categories
    want = {rules.category_index(k): v for k, v in case.legal.items()}
    assert {c for c in range(rules.n_categories) if legal[c]} == set(want)
    assert {c: points[c] for c in want} == want
    assert bonus == case.bonus
    # the hand-written case agrees with the docs/rules.md reference of conftest
    y = card.boxes[ref.ybox(case.rules)]
    ref_moves = ref.moves(case.rules, card.open_categories, y, tuple(int(d) for d in case.dice))
    assert ref_moves == {c: (p, case.bonus) for c, p in want.items()}


@pytest.mark.parametrize("box", [-1, -13, 13, 99, True, "chance", None, 2.0])
def test_with_box_refuses_a_box_index_that_is_no_box(box):
    """-1 used to fill Chance (Python's negative index), 13 raised a bare IndexError, "chance" a TypeError."""
    card = ScoreCard.empty("yahtzee")
    with pytest.raises(CategoryError) as info:
        card.with_box(box, 20)
    assert_one_line(info.value, repr(box), "0-12")
    assert isinstance(info.value, UsageError) and isinstance(info.value, IndexError)  # IndexError as before


@pytest.mark.parametrize("points, bonus", [(2.5, 0), (True, 0), ("2", 0), (None, 0), (2, 0.5), (2, True)])
def test_with_box_refuses_points_that_are_no_whole_number(points, bonus):
    """2.5 used to be written as 2 and True as 1."""
    with pytest.raises(ScoreCardError) as info:
        ScoreCard.empty("yahtzee").with_box(1, points, bonus)
    assert_one_line(info.value, repr(points) if points != 2 else repr(bonus))


def test_with_box_takes_numpy_integers():
    import numpy as np

    card = ScoreCard.empty("yahtzee").with_box(np.int64(11), np.int16(50)).with_box(np.int8(1), np.int64(10),
                                                                                    np.int64(100))
    assert card.boxes[11] == 50 and card.boxes[1] == 10 and card.yahtzee_bonus == 100
    assert all(type(v) is int for v in card.boxes if v is not None) and type(card.yahtzee_bonus) is int


def test_scoring_validates_dice_it_has_seen_as_ints():
    """The memo of a card's scoring is no way around the dice check: 5.0 and True are not faces."""
    card = ScoreCard.empty("yahtzee")
    card.box_points((1, 2, 3, 4, 5))
    card.box_points((1, 1, 2, 3, 4))
    for bad in ((1, 2, 3, 4, 5.0), (True, 1, 2, 3, 4)):
        with pytest.raises(DiceError):
            card.box_points(bad)


def test_box_points_accepts_typed_dice_and_rejects_bad_dice():
    card = parse_card("yahtzee=50")
    assert card.box_points("5 5 5 5 5") == card.box_points([5, 5, 5, 5, 5]) == card.box_points("55555")
    with pytest.raises(DiceError):
        card.box_points("5555")
    with pytest.raises(DiceError):
        card.box_points("55557")


def test_card_file_edge_cases(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ScoreCardError) as info:
        parse_card(f"@{deep}")
    assert_one_line(info.value, "not valid JSON", "nested too deeply")
    big = tmp_path / "big.json"
    big.write_text(" " * (2 << 20) + "{}")
    with pytest.raises(ScoreCardError) as info:
        parse_card(f"@{big}")
    assert_one_line(info.value, "too large")
    rep = tmp_path / "rep.json"
    rep.write_text('{"sixes": 18, "sixes": 24}')
    with pytest.raises(ScoreCardError) as info:
        parse_card(f"@{rep}")
    assert_one_line(info.value, "repeats the key", "'sixes'")
    flt = tmp_path / "flt.json"
    flt.write_text('{"sixes": [18]}')
    with pytest.raises(ScoreCardError) as info:
        parse_card(f"@{flt}")
    assert_one_line(info.value, "whole number (like 18) or null", "[18]")


def test_card_text_edge_cases():
    assert parse_card("sixes = 18, fours : 12").boxes[5] == 18
    for text, needle in (("sixes=", "missing points"), ("=18", "no box name"), ("sixes", "want box=points"),
                         (",,,", "no box=points entry"), (" ; ,", "no box=points entry")):
        with pytest.raises(ScoreCardError) as info:
            parse_card(text)
        assert_one_line(info.value, needle)
    with pytest.raises(ScoreCardError) as info:
        parse_card("yahtzee-bonus=100")
    assert_one_line(info.value, "yahtzee-bonus=100", "(it is open)")
    assert "None" not in str(info.value)


def test_card_inline_json_bom_and_ascii_digits(tmp_path):
    card = parse_card('{"sixes": 18, "yahtzee": 50}')
    assert card.boxes[5] == 18 and card.key.yb == 1
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + b'{"fours": 12}')
    assert parse_card(f"@{bom}").boxes[3] == 12
    for text, needle in (("@", "missing file name"), ("sixes=\u0663", "invalid points '\u0663'")):
        with pytest.raises(ScoreCardError) as info:
            parse_card(text)
        assert_one_line(info.value, needle)


def test_impossible_score_lists_ranges():
    with pytest.raises(ScoreCardError) as info:
        parse_card("chance=31")
    assert_one_line(info.value, "(possible: 5-30)")
    with pytest.raises(ScoreCardError) as info:
        parse_card("3k=4")
    assert_one_line(info.value, "(possible: 0, 5-30)")


# -- repr and pickling -------------------------------------------------------------
REPR_CARDS = {
    "yahtzee": [None, "sixes=18,fours=12,chance=25,yahtzee=50,yahtzee-bonus=100", "3k=0,ones=0"],
    "yacht": [None, "aces=3,choice=22,yacht=0"],
    "yatzy": ["1p=12,2p=22,yatzy=50"],
    "yahtzee-no-joker": ["yahtzee=50,fh=0,yahtzee-bonus=100"],
}


@pytest.mark.parametrize("rules,text", [(r, t) for r, ts in REPR_CARDS.items() for t in ts])
def test_repr_is_short_and_evaluates_back_to_the_card(rules, text):
    from yahtzee_solver import ScoreCard as PublicScoreCard

    card = parse_card(text, rules)
    r = repr(card)
    assert len(r) <= 200, r
    back = eval(r, {"ScoreCard": PublicScoreCard})  # noqa: S307 - the point of the test
    assert back == card and back.rules is card.rules and back.yahtzee_bonus == card.yahtzee_bonus


def test_repr_of_an_unregistered_rule_set_still_evaluates_back():
    import dataclasses

    from yahtzee_solver.rules import CategorySpec, RuleSet

    mine = dataclasses.replace(get_rules("yacht"), name="my-yacht")
    card = ScoreCard.from_mapping({"aces": 3}, mine)
    back = eval(repr(card), {"ScoreCard": ScoreCard, "RuleSet": RuleSet, "CategorySpec": CategorySpec})  # noqa: S307
    assert back == card and back.rules == mine


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_a_pickled_card_does_not_grow_after_a_query(rules):
    import pickle

    from yahtzee_solver import Advisor

    text = {"yacht": "aces=3,choice=22", "yatzy": "1p=12,ones=3"}.get(rules, "sixes=18,chance=22")
    fresh = pickle.dumps(parse_card(text, rules))
    card = parse_card(text, rules)
    card.scoring("22555"), card.key, card.box_points("66666")  # fills the card's memo
    Advisor(rules, jit=False).box_options(card, "22555")  # and the rule set's kernel arrays
    after = pickle.dumps(card)
    assert len(after) == len(fresh) and len(after) < 1024, (len(fresh), len(after))
    back = pickle.loads(after)
    assert back == card and back.rules is card.rules  # a registered rule set comes back as itself
    assert back.scoring("22555") == card.scoring("22555") and back.key == card.key


def test_a_card_quotes_the_points_as_typed():
    """``sixes=18:25``: the points quoted are those typed (``18:25``), not the entry with ``:`` read as ``=``."""
    from yahtzee_solver.state import card_entries

    with pytest.raises(ScoreCardError, match=r"invalid points '18:25' for sixes"):
        parse_card("sixes=18:25")
    assert card_entries("sixes:18=2") == [("sixes:18=2", "sixes", "18=2")]


def test_a_card_files_rules_are_read_as_a_rules_name_is(tmp_path):
    """"Yacht" in a card file is yacht, as --rules Yacht and get_rules read it (it was 'unknown rules')."""
    from yahtzee_solver.state import card_rules

    p = tmp_path / "c.json"
    p.write_text('{"rules": " Yacht ", "boxes": {"sixes": 18}}')
    assert card_rules(f"@{p}") == "yacht"
    assert parse_card(f"@{p}", "yacht").rules.name == "yacht"
