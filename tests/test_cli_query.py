"""The query commands (hint, keep, fill, value) through click's CliRunner.

Expected numbers come from the library (:class:`Advisor` on the shipped
tables) or from docs/rules.md reference values, never typed in.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil

import h5py
import numpy as np
import pytest

from clihelpers import assert_clean_error, assert_click_usage_error, run, run_json, run_process
from clihelpers import fifo as make_fifo
from yahtzee_solver import Advisor, ScoreCard, parse_card
from yahtzee_solver.cli import COMMANDS
from yahtzee_solver.cli.query import DEFAULT_KEEP_TOP
from yahtzee_solver.dice import format_dice
from yahtzee_solver.rules import RULESETS
from yahtzee_solver.solver.table import default_table_path, load_table

CARD = "sixes=18,fours=12,chance=22,yahtzee=50"


def table_rows(output: str) -> list[str]:
    """The option rows of a ranked table (between its header line and the footer)."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if "expected" in line and "vs best" in line) + 1
    rows = []
    for line in lines[start:]:
        if line.startswith(("(", "best:")):
            break
        rows.append(line)
    return rows


def full_card(rules: str) -> ScoreCard:
    card = ScoreCard.empty(rules)
    for c in range(card.rules.n_categories):
        card = card.with_box(c, min(card.rules.possible_points[c]))
    return card


@pytest.fixture(scope="module")
def adv() -> Advisor:
    return Advisor("yahtzee", jit=False)


# -- help and version -------------------------------------------------------------------


def _module_exists(target: str) -> bool:
    module = target.split(":")[0]
    return importlib.util.find_spec(f"yahtzee_solver.cli.{module}") is not None


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_help(name):
    if not _module_exists(COMMANDS[name]):
        pytest.skip(f"command module for {name!r} not written yet")
    for flag in ("--help", "-h"):
        result = run(name, flag)
        assert result.exit_code == 0, result.output
        assert f"Usage: yahtzee-solve {name}" in result.output
        # a real description, not just the option list
        assert len(result.output.split("Options:")[0].strip().splitlines()) >= 2


def test_group_help_and_version():
    from yahtzee_solver import __version__

    result = run("--version")
    assert result.exit_code == 0 and __version__ in result.output
    if not all(_module_exists(t) for t in COMMANDS.values()):
        pytest.skip("some command modules are not written yet")
    result = run("-h")
    assert result.exit_code == 0
    for name in COMMANDS:
        assert name in result.output


# -- hint / keep -----------------------------------------------------------------------


def test_hint_best_keep_matches_advisor(adv):
    card = parse_card(CARD)
    options = adv.keep_options(card, "22555", 2)
    result = run("hint", "22555", "--card", CARD)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    # header: card total, upper subtotal vs 63, state key
    assert f"card total {card.total}" in lines[0]
    assert f"upper {card.upper_subtotal}/63" in lines[0]
    assert f"{card.key.mask:#06x}:{card.key.up}:{card.key.yb}" in lines[0]
    rows = [row.split() for row in table_rows(result.output)]
    assert len(rows) == min(DEFAULT_KEEP_TOP, len(options))
    # the best is marked, with its keep, reroll and expected final total
    assert rows[0] == ["*", format_dice(options[0].keep), format_dice(options[0].reroll), f"{options[0].expected:.2f}", "best"]
    # every alternative shows its loss against the best, in points
    for row, opt in zip(rows[1:], options[1:]):
        assert row[0] == format_dice(opt.keep)
        assert row[-2] == f"{opt.expected:.2f}"
        assert row[-1] == f"-{opt.loss:.2f}"
    assert lines[-1].endswith(f"expected final total {options[0].expected:.2f}")


def test_hint_json_round_trips(adv):
    card = parse_card(CARD)
    for rolls in (1, 2):
        data = run_json("hint", "22555", "-r", str(rolls), "--card", CARD)
        options = adv.keep_options(card, "22555", rolls)
        assert data["kind"] == "keep"
        assert data["rolls_left"] == rolls
        assert data["dice"] == "22555"
        assert data["n_options"] == len(options)
        assert data["options"] == [o.to_dict() for o in options]
        assert data["state"] == dict(zip(("filled", "upper", "yahtzee_bonus"), card.key))  # JSON keys unchanged
        assert data["card_total"] == card.total
        assert ScoreCard.from_mapping(data["card"]) == card


@pytest.mark.parametrize("dice", [("22555",), ("2 2 5 5 5",), ("2,2,5,5,5",), ("5", "2", "5", "2", "5"), ("2, 5 2,5 5",)])
def test_dice_forms(dice):
    data = run_json("hint", *dice, "--card", CARD)
    assert data["dice"] == "22555"
    assert data == run_json("hint", "22555", "--card", CARD)


def test_keep_equals_hint():
    for rolls in ("1", "2"):
        assert run_json("keep", "13456", "-r", rolls) == run_json("hint", "13456", "-r", rolls)


def test_default_rolls_left_is_two():
    assert run_json("hint", "13456") == run_json("hint", "13456", "--rolls-left", "2")
    assert run_json("keep", "13456") == run_json("keep", "13456", "--rolls-left", "2")


def test_top_limits_keep_lists(adv):
    n = len(adv.keep_options(None, "12345", 2))
    assert n > DEFAULT_KEEP_TOP
    default = run("hint", "12345").output
    assert f"({DEFAULT_KEEP_TOP} of {n} keeps shown" in default
    assert len(table_rows(default)) == DEFAULT_KEEP_TOP
    assert len(table_rows(run("hint", "12345", "--top", "3").output)) == 3
    everything = run("hint", "12345", "--top", "0").output
    assert len(table_rows(everything)) == n
    assert "keeps shown" not in everything
    assert len(run_json("hint", "12345")["options"]) == n
    assert len(run_json("hint", "12345", "--top", "3")["options"]) == 3
    assert_click_usage_error(run("hint", "12345", "--top", "-1"), "-1", command="hint")


# -- fill / hint -r 0 -----------------------------------------------------------------


def test_fill_matches_advisor_and_hint_zero(adv):
    card = parse_card(CARD)
    data = run_json("fill", "22555", "--card", CARD)
    assert data["kind"] == "box"
    assert data["options"] == [o.to_dict() for o in adv.box_options(card, "22555")]
    assert data == run_json("hint", "22555", "-r", "0", "--card", CARD)
    text = run("fill", "22555", "--card", CARD).output
    best = adv.box_options(card, "22555")[0]
    star = next(line for line in text.splitlines() if line.startswith("*"))
    assert best.name in star and f"{best.expected:.2f}" in star


def test_fill_yahtzee_bonus_and_joker_notes(adv):
    card = "yahtzee=50,fives=15"
    options = adv.box_options(parse_card(card), "55555")
    assert all(o.yahtzee_bonus == 100 and o.joker for o in options)  # premise
    text = run("fill", "55555", "--card", card).output
    rows = table_rows(text)
    assert len(rows) == len(options)
    for row in rows:
        assert "+100 Yahtzee bonus" in row and "Joker" in row
    # The summary states the box points and the bonus apart, as the rows do.
    assert f"score {options[0].points} in {options[0].name} (+100 Yahtzee bonus, Joker)" in text


def test_fill_upper_bonus_note(adv):
    card = "sixes=24,fives=20,fours=16"  # 60 in the upper section
    options = {o.name: o for o in adv.box_options(parse_card(card), "33345")}
    assert options["Threes"].upper_bonus == 35 and options["Chance"].upper_bonus == 0
    text = run("fill", "33345", "--card", card).output
    threes = next(line for line in text.splitlines() if "Threes" in line)
    assert "+35 upper bonus" in threes
    chance = next(line for line in text.splitlines() if "Chance" in line)
    assert "upper bonus" not in chance


def test_forced_joker_closes_boxes(adv):
    # Yahtzee box filled, Fives open: the forced Joker sends 55555 to Fives only.
    card = "yahtzee=0"
    data = run_json("fill", "55555", "--card", card)
    assert [o["category"] for o in data["options"]] == ["Fives"]
    assert data["options"] == [o.to_dict() for o in adv.box_options(parse_card(card), "55555")]


def test_yacht_rules():
    yacht = Advisor("yacht", jit=False)
    data = run_json("fill", "22555", "--rules", "yacht")
    assert data["rules"] == "yacht"
    assert data["options"] == [o.to_dict() for o in yacht.box_options(None, "22555")]
    assert "state" in run("hint", "22555", "--rules", "YACHT").output


# -- value -------------------------------------------------------------------------------


def test_value_empty_card_is_reference_value(adv):
    data = run_json("value")
    assert data["expected_final"] == adv.expected_final()
    assert data["expected_final"] == pytest.approx(RULESETS["yahtzee"].reference_value, abs=5e-8)
    assert data["card_total"] == 0 and data["game_over"] is False
    assert f"expected final total {adv.expected_final():.7f}" in run("value").output


def test_value_of_a_card(adv):
    card = parse_card(CARD)
    data = run_json("value", "--card", CARD)
    assert data["expected_final"] == adv.expected_final(card)
    assert data["expected_to_come"] == pytest.approx(adv.expected_final(card) - card.total, abs=1e-12)
    assert data["state"] == dict(zip(("filled", "upper", "yahtzee_bonus"), card.key))  # JSON keys unchanged


def test_value_of_a_full_card():
    card = full_card("yacht")
    data = run_json("value", "--rules", "yacht", "--card", card.format())
    assert data["game_over"] is True and data["expected_final"] == card.total
    assert "the card is full" in run("value", "--rules", "yacht", "--card", card.format()).output


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_value_prints_the_rules_md_value_from_the_shipped_table(rules):
    """docs/rules.md quotes 7 decimals; ``value`` prints the shipped table's empty card to 7 decimals."""
    ref = RULESETS[rules].reference_value
    out = run("value", "--rules", rules).output
    if ref is None:  # Yacht: docs/rules.md quotes no value
        assert f"expected final total {load_table(rules).empty_value:.7f}" in out
    else:
        assert f"expected final total {ref:.7f} " in out


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_value_with_table_option(rules):
    path = default_table_path(rules)
    a = run_json("value", "--rules", rules)
    b = run_json("value", "--rules", rules, "--table", str(path))
    assert a == b and a["rules"] == rules


# -- card files ----------------------------------------------------------------------


def test_card_file_forms(tmp_path):
    expected = run_json("hint", "22555", "--card", CARD)
    flat = tmp_path / "flat.json"
    flat.write_text(json.dumps(parse_card(CARD).to_dict()))
    nested = tmp_path / "nested.json"
    nested.write_text(json.dumps({"rules": "yahtzee", "boxes": {"6s": 18, "fours": 12, "c": 22, "y": 50}}))
    assert run_json("hint", "22555", "--card", f"@{flat}") == expected
    assert run_json("hint", "22555", "--card", f"@{nested}") == expected
    assert_clean_error(run("hint", "22555", "--rules", "yacht", "--card", f"@{nested}"), 2, "'yahtzee'", "'yacht'")
    flat_with_rules = tmp_path / "flat-rules.json"
    flat_with_rules.write_text(json.dumps({"rules": "yahtzee", **parse_card(CARD).to_dict()}))
    assert run_json("hint", "22555", "--card", f"@{flat_with_rules}") == expected


@pytest.mark.parametrize("content, needles", [
    # points are JSON whole numbers, as in a saved game: never a string or a decimal read as one
    ({"sixes": "18"}, ["points for 'sixes'", 'got "18"', "whole number"]),
    ({"sixes": 18.0}, ["points for 'sixes'", "got 18.0"]),
    ({"sixes": 18.5}, ["points for 'sixes'", "got 18.5"]),
    ({"sixes": True}, ["points for 'sixes'", "got true"]),
    ({"rules": "yahtzee", "boxes": {"sixes": "18"}}, ["points for 'sixes'", 'got "18"']),
    ({"boxes": [1, 2]}, ['"boxes" must be a JSON object', "got [1, 2]"]),
    ({"boxes": {"sixes": 18}, "rules": 5}, ['"rules" must be a rule-set name', "got 5"]),
    ({"rules": 5}, ['"rules" must be a rule-set name', "got 5"]),
    ({"rules": "poker", "boxes": {}}, ["unknown rules 'poker'"]),
    ({"rules": "yahtzee", "boxes": {"sixes": 18}, "yahtzee-bonus": 0, "extra": 1},
     ["unknown key 'extra'", '"rules", "boxes" and "yahtzee-bonus"']),
])
def test_card_file_values_are_named_when_refused(tmp_path, content, needles):
    p = tmp_path / "card.json"
    p.write_text(json.dumps(content))
    res = run("hint", "22555", "--card", f"@{p}")
    assert_clean_error(res, 2, str(p), *needles)
    assert "pass --rules" not in res.output


# -- bad input: usage errors (exit 2) ------------------------------------------------------


@pytest.mark.parametrize(
    "args, needles",
    [
        (["hint", "22557"], ["'7'"]),
        (["hint", "02555"], ["'0'"]),
        (["hint", "2255"], ["'2255'", "5 dice"]),
        (["hint", "225556"], ["'225556'"]),
        (["hint", "2", "2", "5", "5"], ["'2 2 5 5'"]),
        (["hint", "52", "525"], ["'52'"]),
        (["hint", "22x55"], ["'x'"]),
        (["fill", "7 2 5 5 5"], ["'7'"]),
        (["keep", "2,2,5,5,9"], ["'9'"]),
        (["hint", "22555", "--card", "foo=3"], ["'foo'"]),
        (["hint", "22555", "--card", "sixes=18,6s=12"], ["repeated", "'6s'"]),
        (["hint", "22555", "--card", "sixes=18,sixes=12"], ["repeated", "'sixes'"]),
        (["hint", "22555", "--card", "fours=13"], ["13", "fours"]),
        (["hint", "22555", "--card", "full-house=20"], ["20", "full-house"]),
        (["hint", "22555", "--card", "yahtzee=40"], ["40", "yahtzee"]),
        (["hint", "22555", "--card", "sixes=abc"], ["'abc'"]),
        (["hint", "22555", "--card", "sixes"], ["'sixes'"]),
        (["hint", "22555", "--rules", "yacht", "--card", "fh=6"], ["6", "full-house"]),
        (["hint", "22555", "--card", "yahtzee-bonus=100"], ["yahtzee-bonus=100", "50"]),
        (["hint", "22555", "--card", "yahtzee=0,sixes=18,yahtzee-bonus=100"], ["yahtzee-bonus=100"]),
        (["value", "--card", "chance=400"], ["400", "chance"]),
    ],
)
def test_usage_errors(args, needles):
    assert_clean_error(run(*args), 2, *needles)


@pytest.mark.parametrize(
    "args, extra",
    [
        (["hint", "22555", "extra"], "(extra)"),
        (["hint", "22555", "3"], "(3)"),
        (["hint", "2,2,5,5,5", "extra", "more"], "(extra more)"),
        (["keep", "22555", "extra"], "(extra)"),
        (["fill", "2 2 5 5 5", "extra"], "(extra)"),
        (["dist", "22555", "extra"], "(extra)"),
        (["win", "22555", "extra", "--opponent", "sixes=18"], "(extra)"),
        # five dice over several words: what follows them is extra too, not a bad die '2255'
        (["hint", "2255", "5", "extra"], "(extra)"),
        (["hint", "22", "5,5", "5", "x", "y"], "(x y)"),
        (["hint", "2", "2", "5", "5", "5", "extra"], "(extra)"),
        (["keep", "52", "525", "6"], "(6)"),
    ],
)
def test_words_after_the_five_dice_are_named_as_extra(args, extra):
    """A word after a first word that already holds the five dice is an extra argument, not a bad die."""
    res = run(*args)
    assert_click_usage_error(res, "unexpected extra argument", extra, command=args[0])
    assert "invalid die" not in res.output


def test_five_digits_over_words_that_are_not_single_dice_are_still_refused():
    # "52 525" is no way of typing dice (one word of five, or five words of one): the die is named
    assert_clean_error(run("hint", "2255", "5"), 2, "invalid die '2255'")
    # a word that is no die before the fifth die is the bad die, not an extra argument
    res = run("hint", "22", "x", "555", "extra")
    assert_clean_error(res, 2, "invalid die")
    assert "extra argument" not in res.output
    # more than five dice before the next word: the dice are wrong, not the word after them
    assert_clean_error(run("hint", "225", "555", "extra"), 2, "invalid die '225'")


def test_missing_card_file_is_a_file_problem():
    # exit 1 like every file that cannot be read (a table, a game file); what a card file says is a card (exit 2)
    assert_clean_error(run("hint", "22555", "--card", "@/nonexistent/card.json"), 1, "'/nonexistent/card.json'")


def test_full_card_is_an_error():
    card = full_card("yahtzee")
    for cmd in (["hint", "22555"], ["hint", "22555", "-r", "0"], ["keep", "22555"], ["fill", "22555"]):
        assert_clean_error(run(*cmd, "--card", card.format()), 2, "full")


def test_bad_card_file_json(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert_clean_error(run("value", "--card", f"@{bad}"), 2, str(bad))
    listing = tmp_path / "list.json"
    listing.write_text("[1, 2]")
    assert_clean_error(run("value", "--card", f"@{listing}"), 2, str(listing))


@pytest.mark.parametrize(
    "args, needles",
    [
        (["hint", "22555", "--rolls-left", "3"], ["3 is not in the range"]),
        (["hint", "22555", "-r", "-1"], ["-1"]),
        (["hint", "22555", "-r", "two"], ["'two'"]),
        (["hint", "22555", "-r", "x"], ["'x'"]),
        (["keep", "22555", "--rolls-left", "0"], ["0"]),
        (["keep", "22555", "--rolls-left", "3"], ["3"]),
        (["hint", "22555", "--rules", "poker"], ["'poker'"]),
        (["value", "--rules", "foo"], ["'foo'"]),
        (["hint"], ["DICE"]),
        (["hint", "22555", "--bogus"], ["'--bogus'"]),
        (["fill", "22555", "-r", "1"], ["'-r'"]),
    ],
)
def test_option_errors(args, needles):
    """Click's own usage errors: one line naming the bad value and the command's help, exit 2."""
    assert_click_usage_error(run(*args), *needles, command=args[0])


@pytest.mark.parametrize("args, needle", [(["foo"], "'foo'"), (["--bogus"], "'--bogus'"), (["hnt", "22555"], "'hnt'")])
def test_group_usage_errors(args, needle):
    assert_click_usage_error(run(*args), needle, command="")


def test_bare_command_shows_the_help():
    result = run()
    assert result.exit_code == 2 and "Usage: yahtzee-solve" in result.output
    assert all(name in result.output for name in COMMANDS)


# -- bad tables (exit 1) -----------------------------------------------------------------


def _shipped(tmp_path, rules="yacht"):
    p = tmp_path / f"{rules}.h5"
    shutil.copyfile(default_table_path(rules), p)
    return p


def _assert_table_error(tmp_path, table, *needles, rules="yacht"):
    before = sorted(tmp_path.iterdir())
    for cmd in (["hint", "22555"], ["hint", "22555", "-r", "0"], ["keep", "22555"], ["fill", "22555"], ["value"]):
        assert_clean_error(run(*cmd, "--rules", rules, "--table", str(table)), 1, str(table), *needles)
    assert sorted(tmp_path.iterdir()) == before  # nothing written


def test_missing_table(tmp_path):
    _assert_table_error(tmp_path, tmp_path / "none.h5", "not found", "yahtzee-solve build --rules yacht")


def test_truncated_table(tmp_path):
    p = _shipped(tmp_path)
    data = p.read_bytes()
    p.write_bytes(data[: len(data) // 2])
    _assert_table_error(tmp_path, p, "cannot read value table")


def test_not_hdf5(tmp_path):
    p = tmp_path / "table.h5"
    p.write_text("hello\n")
    _assert_table_error(tmp_path, p, "cannot read value table")


def test_foreign_hdf5(tmp_path):
    p = tmp_path / "foreign.h5"
    with h5py.File(p, "w") as f:
        f["values"] = np.zeros(3)
    _assert_table_error(tmp_path, p, "not a yahtzee_solver value table")


def test_table_of_other_rules(tmp_path):
    p = _shipped(tmp_path, "yacht")
    _assert_table_error(tmp_path, p, "'yacht'", "'yahtzee'", rules="yahtzee")


def test_corrupt_table_fails_checksum(tmp_path):
    p = _shipped(tmp_path)
    with h5py.File(p, "r+") as f:
        f["values"][0, 0, 0] += 1.0
    _assert_table_error(tmp_path, p, "checksum")


def test_directory_as_table(tmp_path):
    assert_clean_error(run("value", "--table", str(tmp_path)), 1, str(tmp_path), "is a folder")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs os.mkfifo")
def test_fifo_as_table_is_refused_not_read(tmp_path):
    """Opening a fifo for reading blocks until a writer comes: refuse it up front."""
    with make_fifo(tmp_path / "table.h5") as path:
        for cmd in (["value"], ["hint", "22555"], ["value", "--rules", "yacht"]):
            result = run(*cmd, "--table", str(path))
            assert_clean_error(result, 1, str(path), "not a regular file")


# -- the rule set of a --table file ------------------------------------------------------


def test_rules_come_from_the_table_file(tmp_path):
    p = _shipped(tmp_path, "yacht")
    assert run_json("value", "--table", str(p)) == run_json("value", "--rules", "yacht", "--table", str(p))
    data = run_json("hint", "22555", "--table", str(p), "--card", "choice=20,aces=3")
    assert data["rules"] == "yacht"
    assert data == run_json("hint", "22555", "--rules", "yacht", "--table", str(p), "--card", "choice=20,aces=3")
    assert run_json("fill", "22555", "--table", str(p)) == run_json("fill", "22555", "--rules", "yacht")
    # without --table the default is still yahtzee; an explicit --rules is still checked against the file
    assert run_json("value")["rules"] == "yahtzee"
    assert_clean_error(run("value", "--rules", "yahtzee", "--table", str(p)), 1, "'yacht'", "'yahtzee'")


def test_table_of_unknown_rules(tmp_path):
    p = _shipped(tmp_path, "yacht")
    with h5py.File(p, "r+") as f:
        f.attrs["rules"] = "poker"
    assert_clean_error(run("value", "--table", str(p)), 1, str(p), "'poker'", "unknown")
    # with --rules, the ordinary validation reports it
    assert_clean_error(run("value", "--rules", "yacht", "--table", str(p)), 1, str(p), "'poker'")


def test_unreadable_table_without_rules_is_still_reported(tmp_path):
    p = tmp_path / "t.h5"
    p.write_text("not hdf5")
    assert_clean_error(run("value", "--table", str(p)), 1, str(p), "cannot read value table")
    assert_clean_error(run("value", "--table", str(tmp_path / "none.h5")), 1, "not found")


# -- output that cannot be written (real processes: real file descriptors) ------------------


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["hint", "22555"], ["value", "--json"]])
def test_full_disk_is_a_one_line_error(args):
    with open("/dev/full", "w") as full:
        proc = run_process(*args, stdout=full)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.splitlines() == ["Error: cannot write output: No space left on device"], proc.stderr


@pytest.mark.parametrize("args", [["hint", "22555"], ["hint", "12345", "--top", "0", "--json"]])
def test_closed_pipe_ends_quietly(args):
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first byte, like `| head -0`
    try:
        proc = run_process(*args, stdout=write_end)
    finally:
        os.close(write_end)
    assert proc.returncode == 1
    assert proc.stderr == "", proc.stderr


def test_process_exit_codes_and_streams():
    ok = run_process("value", "--rules", "yacht")
    assert ok.returncode == 0 and ok.stderr == "" and "expected final total" in ok.stdout
    bad = run_process("hint", "22555", "-r", "3")
    assert bad.returncode == 2 and bad.stdout == ""
    [line] = bad.stderr.splitlines()
    assert line.startswith("Error: invalid value for '--rolls-left'") and ": 3 " in line
    assert line.endswith(" (see 'yahtzee-solve hint -h')")


@pytest.mark.parametrize("dice, card, rules, summary", [
    # Box points and each bonus apart, as the table rows show them (not 130 in Sixes).
    ("66666", "yahtzee=50", "yahtzee", "best: score 30 in Sixes (+100 Yahtzee bonus, Joker)"),
    ("66666", "yahtzee=50,sixes=30", "yahtzee", "best: score 40 in Large Straight (+100 Yahtzee bonus, Joker)"),
    ("66612", "aces=3,twos=6,threes=9,fours=12,fives=15", "yacht", "best: score 18 in Sixes (+35 upper bonus)"),
])
def test_fill_summary_states_box_points_and_bonuses_apart(dice, card, rules, summary):
    res = run("fill", dice, "--card", card, "--rules", rules)
    assert res.exit_code == 0, res.output
    (line,) = [ln for ln in res.output.splitlines() if ln.startswith("best:")]
    assert line.startswith(summary + " -> expected final total "), line


def test_the_console_command_ends_with_its_output_and_code(tmp_path):
    """``run`` (the console command, ``python -m yahtzee_solver``) ends the process without the
    interpreter's teardown: all output is there, to a pipe or a file, and the exit codes are main's."""
    res = run_process("hint", "13356", "-r", "2")
    assert res.returncode == 0 and res.stdout == run("hint", "13356", "-r", "2").output and res.stderr == ""
    card = "ones=3,twos=6,threes=9,fours=12,3k=20,4k=0,chance=20"  # compiled: numba loaded, then the quick end
    out = tmp_path / "dist.json"
    with out.open("w") as f:
        res = run_process("dist", "--card", card, "--json", stdout=f)
    assert res.returncode == 0 and json.loads(out.read_text()) == run_json("dist", "--card", card)
    bad = run_process("hint", "1335")
    assert bad.returncode == 2 and bad.stdout == "" and bad.stderr.startswith("Error: invalid dice '1335'")
    missing = run_process("value", "--table", str(tmp_path / "none.h5"))
    assert missing.returncode == 1 and "not found" in missing.stderr


def test_a_negative_yahtzee_bonus_is_said_to_be_negative_in_every_language():
    # -100 is a multiple of 100: "want a multiple of 100 points" told the user nothing
    from yahtzee_solver.i18n import Translator

    res = run("hint", "22555", "--card", "yahtzee=50,yahtzee-bonus=-100")
    assert_clean_error(res, 2, "yahtzee-bonus -100", "negative")
    assert "multiple" not in res.output
    for lang, word in (("zh", "负"), ("ja", "負")):
        text = Translator(lang)("card.bonus_points", bonus="-100")
        assert word in text and "100 " not in text.replace("-100", ""), text
