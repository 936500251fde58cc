"""Command-line input as people type it: full-width dice and cards, options that imply others, Ctrl-C."""

from __future__ import annotations

import json
import os
import stat

import numpy as np
import pytest
from clihelpers import assert_clean_error, assert_click_usage_error, run, run_json

CARD = "sixes=18,fours=12,chance=22,yahtzee=50"


def test_full_width_dice_and_card_read_as_ascii():
    ascii_ = run_json("hint", "22555", "--card", CARD)
    wide = run_json("hint", "２２５５５", "--card", "ｓｉｘｅｓ＝１８，ｆｏｕｒｓ＝１２，ｃｈａｎｃｅ＝２２，ｙａｈｔｚｅｅ＝５０")
    assert wide == ascii_


def test_dist_threshold_implies_dist():
    both = run_json("hint", "22555", "--card", CARD, "--dist", "--dist-threshold", "250")
    alone = run_json("hint", "22555", "--card", CARD, "--dist-threshold", "250")
    assert alone == both
    assert "250" in json.dumps(alone)  # the threshold asked for is the one reported


def test_plain_hint_has_no_distribution():
    plain = run_json("hint", "22555", "--card", CARD)
    with_dist = run_json("hint", "22555", "--card", CARD, "--dist")
    assert plain != with_dist


def test_ctrl_c_exits_130(monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("yahtzee_solver.cli.query._advisor", interrupted)
    res = run("hint", "22555")
    assert res.exit_code == 130 and "Aborted!" in res.output and "Traceback" not in res.output


def test_plot_file_gets_the_usual_permissions(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "d.svg"
    old = os.umask(0o022)
    try:
        res = run("dist", "--card", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30",
                  "--plot", str(out))
    finally:
        os.umask(old)
    assert res.exit_code == 0, res.output
    assert stat.S_IMODE(out.stat().st_mode) == 0o644  # not the temp file's owner-only 0600


LATE = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,ls=40"


def test_target_curve_checks_the_plot_file_before_the_work(monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("the DP ran before the plot file was checked")

    monkeypatch.setattr("yahtzee_solver.strategy.objectives.target_curve", never)
    res = run("target-curve", "--max", "300", "--card", LATE, "--plot", "curve.txt", "--no-progress")
    assert res.exit_code == 2 and "'curve.txt'" in res.output and "Traceback" not in res.output


@pytest.mark.parametrize("args,needle", [
    (["target-curve", "--max", "10000000", "--no-progress"], "10000000"),
    (["match", "master", "expert", "--games", "99999999999999999999999"], "99999999999999999999999"),
])
def test_huge_numbers_are_usage_errors(args, needle):
    res = run(*args)
    assert res.exit_code == 2 and needle in res.output and "Traceback" not in res.output


HUGE = "1" * 5000  # beyond Python's 4300-digit limit of int("...")


@pytest.mark.parametrize("card, names", [
    (f"sixes={HUGE}", ["sixes", "5000 digits"]),
    (f"yahtzee=50,yahtzee-bonus={HUGE}", ["yahtzee-bonus", "5000 digits"]),
    ('{"sixes": ' + HUGE + "}", ["the card", "5000 digits"]),
    # a JSON card's points are JSON whole numbers: a string of digits is refused as such, clipped
    ('{"sixes": "' + HUGE + '"}', ["sixes", "JSON whole number"]),
])
def test_a_card_number_of_thousands_of_digits_is_a_usage_error(card, names):
    """It ended in a traceback ("Exceeds the limit (4300 digits)"); now the usual one line, exit 2, clipped."""
    res = run("hint", "12345", "--card", card)
    assert_clean_error(res, 2, *names, "11111")
    assert len(res.output) < 300 and "set_int_max_str_digits" not in res.output


@pytest.mark.parametrize("content, in_file, needle", [
    ('{"sixes": ' + HUGE + "}", True, "5000 digits"),  # the JSON number: the reader names the file
    # a string is no JSON whole number: named as a box's points
    ('{"rules": "yahtzee", "boxes": {"sixes": "' + HUGE + '"}}', False, "JSON whole number"),
])
def test_a_card_file_number_of_thousands_of_digits_is_a_usage_error(tmp_path, content, in_file, needle):
    """What a card file says is a card: a bad value in it is exit 2, as on the command line (README, Errors)."""
    path = tmp_path / "card.json"
    path.write_text(content)
    res = run("hint", "12345", "--card", f"@{path}")
    assert_clean_error(res, 2, *([str(path)] if in_file else ["sixes"]), needle)
    assert len(res.output) < 400 and "set_int_max_str_digits" not in res.output


def test_a_die_of_thousands_of_digits_is_a_usage_error():
    res = run("hint", "1", "1", "1", "1", HUGE)
    assert_clean_error(res, 2, "11111", "5000 characters")
    assert len(res.output) < 300


def test_targets_beyond_the_card_are_zero_without_solving_them():
    from yahtzee_solver.strategy.objectives import target_curve
    from yahtzee_solver.state import parse_card

    card = parse_card(LATE)
    small = target_curve(card.rules, 450, card)
    big = target_curve(card.rules, 5000, card)
    assert np.array_equal(big.probabilities[:451], small.probabilities)
    assert not big.probabilities[451:].any()



@pytest.mark.parametrize("args", [
    ["hint", "22555", "--card", "sixes=18", "--card", "fours=12"],
    ["value", "-c", "sixes=18", "-c", "fours=12"],
    ["dist", "--card", "sixes=18", "--card", "fours=12"],
    ["win", "66612", "--card", "chance=20", "--opponent", "sixes=18", "-o", "fours=12"],
])
def test_a_second_card_is_a_usage_error_not_a_silent_replacement(args):
    assert_clean_error(run(*args), 2, "given 2 times", "'fours=12'")


def _commands_with(option):
    """The names of the commands that take ``option`` (e.g. ``--table``), from the CLI's own table."""
    import importlib

    from yahtzee_solver.cli import COMMANDS

    def command(where):
        module, attr = where.split(":")
        return getattr(importlib.import_module(f"yahtzee_solver.cli.{module}"), attr)

    return [name for name, where in COMMANDS.items()
            if any(option in getattr(p, "opts", ()) for p in command(where).params)]


def test_an_empty_table_value_is_a_usage_error_naming_it_for_every_command_that_takes_it():
    # an empty --table was read as the current folder: "value table '.' is not a regular file"
    names = _commands_with("--table")
    assert len(names) >= 5, names
    needs = {"hint": ["22555"], "keep": ["22555"], "fill": ["22555"], "win": ["22555", "--opponent", "sixes=18"]}
    for name in names:
        res = run(name, *needs.get(name, []), "--table", "")
        assert_click_usage_error(res, "'--table'", "''", "empty", command=name)
        assert "'.'" not in res.output


@pytest.mark.parametrize("value", ["", " ", "   "])
def test_an_empty_or_blank_card_is_a_usage_error_naming_it_for_every_command_that_takes_one(value):
    # '' and blanks gave the empty card's answer (exit 0) while ',,,' was refused (exit 2)
    names = _commands_with("--card")
    assert len(names) >= 5, names
    dice = {"hint": ["22555"], "keep": ["22555"], "fill": ["22555"], "win": ["22555"]}
    for name in names:
        res = run(name, *dice.get(name, []), "--card", value)
        shown = " ".join(repr(value).split())  # the error line folds runs of blanks
        assert_clean_error(res, 2, f"invalid card {shown}", "leave the card out for the empty card")
    res = run("win", "22555", "--opponent", value)
    assert_clean_error(res, 2, f"--opponent: invalid card {shown}", "leave the card out for the empty card")


def test_the_opponent_card_left_out_is_the_empty_card(tmp_path):
    # the empty opponent was asked for as --opponent '' (now refused): leaving the option out says it.  A card
    # of mine that does not fit the empty opponent's 13 open boxes shows which card was read, without a solve.
    empty = tmp_path / "empty.json"
    empty.write_text("{}")
    left_out = run("win", "22555", "--card", "chance=20,sixes=18")
    assert_clean_error(left_out, 2, "I have 11 open boxes", "13")
    assert left_out.output == run("win", "22555", "--card", "chance=20,sixes=18", "--opponent", f"@{empty}").output


#: A Yacht card with one box open (quick to answer for every command), as a card file that names its rules.
YACHT_LATE = {"rules": "yacht", "boxes": {"aces": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
                                          "choice": 20, "four-dice": 0, "full-house": 0, "small-straight": 15,
                                          "large-straight": 30}}


def _card_args(name, opponent):
    """What command ``name`` needs besides its card (``win``: the ``opponent`` card of one open box too)."""
    return {"hint": ["22555"], "keep": ["22555"], "fill": ["22555"], "win": ["22555", "-r", "0", "--opponent", opponent],
            "target-curve": ["--max", "10"]}.get(name, [])


def _yacht_card_file(tmp_path):
    p = tmp_path / "yacht.json"
    p.write_text(json.dumps(YACHT_LATE))
    return p


def test_a_card_file_that_names_its_rules_needs_no_rules_option_in_any_command(tmp_path):
    """It was refused, "(pass --rules yacht)", by every command that takes a card."""
    p = _yacht_card_file(tmp_path)
    names = _commands_with("--card")
    assert len(names) >= 6, names
    for name in names:
        args = [*_card_args(name, f"@{p}"), "--card", f"@{p}", "--json"]
        res = run(name, *args)
        assert res.exit_code == 0, (name, res.output)
        assert json.loads(res.output) == run_json(name, *args, "--rules", "yacht"), name
    # the opponent's card of win names them as well: my card is then Yacht's empty card (12 open boxes)
    assert_clean_error(run("win", "22555", "--opponent", f"@{p}"), 2, "I have 12 open boxes and the opponent 1")


def test_a_card_file_of_other_rules_than_the_rules_option_or_the_table_names_both(tmp_path):
    from yahtzee_solver.solver.table import default_table_path

    p = _yacht_card_file(tmp_path)
    for name in _commands_with("--card"):
        res = run(name, *_card_args(name, "yahtzee=50"), "--card", f"@{p}", "--rules", "yatzy")
        assert_clean_error(res, 2, f"--card '@{p}' is for rules 'yacht', but --rules is 'yatzy'")
    yatzy = str(default_table_path("yatzy"))
    for name in _commands_with("--table"):
        if name not in _commands_with("--card"):
            continue
        res = run(name, *_card_args(name, "yahtzee=50"), "--card", f"@{p}", "--table", yatzy)
        assert_clean_error(res, 2, f"--card '@{p}' is for rules 'yacht', but --table {yatzy!r} holds rules 'yatzy'")
        assert "pass --rules" not in res.output
    other = tmp_path / "yatzy.json"
    other.write_text('{"rules": "yatzy", "boxes": {}}')
    res = run("win", "22555", "--card", f"@{p}", "--opponent", f"@{other}")
    assert_clean_error(res, 2, f"--opponent '@{other}' is for rules 'yatzy', but --card '@{p}' is for rules 'yacht'")


def test_a_table_gives_its_rules_to_a_card_that_names_none(tmp_path):
    """A --table of other rules than the default needs no --rules (the card's boxes are read as its rules')."""
    from yahtzee_solver.solver.table import default_table_path

    yacht = str(default_table_path("yacht"))
    card = ",".join(f"{k}={v}" for k, v in YACHT_LATE["boxes"].items())
    for name in _commands_with("--table"):
        if name not in _commands_with("--card"):
            continue
        args = [*_card_args(name, card), "--card", card, "--json"]
        assert run_json(name, *args, "--table", yacht) == run_json(name, *args, "--rules", "yacht"), name


def test_a_rolls_left_that_is_no_number_names_the_value_and_the_range_for_every_command():
    # click said "'two' is not a valid integer range", naming neither what it wants nor the values
    names = _commands_with("--rolls-left")
    assert len(names) >= 4, names
    needs = {"win": ["--opponent", "sixes=18"]}
    for name in names:
        want = "1 or 2" if name == "keep" else "0, 1 or 2"
        for value in ("two", "1.5", ""):
            res = run(name, "22555", *needs.get(name, []), "--rolls-left", value)
            assert_click_usage_error(res, f"{value!r}", want, "rerolls", command=name)
            assert "integer range" not in res.output
        res = run(name, "22555", *needs.get(name, []), "-r", "3")
        assert_click_usage_error(res, "3 is not in the range", want, command=name)


def test_every_capital_word_of_a_commands_help_is_one_of_its_metavars_or_a_known_name():
    # simulate's help said "Play GAMES solitaire games" where GAMES is no argument but the option --games
    import importlib
    import re

    import click

    from yahtzee_solver.cli import COMMANDS

    # names (not placeholders), and what is typed at the coach's prompt (s BOX, what-if DICE)
    known = {"CPU", "DP", "HDF5", "SHA", "SD", "NO_COLOR", "YAHTZEE_SOLVER_HOME", "P_EV", "BOX", "DICE"}
    for name, where in COMMANDS.items():
        module, attr = where.split(":")
        cmd = getattr(importlib.import_module(f"yahtzee_solver.cli.{module}"), attr)
        ctx = click.Context(cmd, info_name=name)
        metavars = set()
        for p in cmd.params:
            metavars |= set(re.findall(r"[A-Z][A-Z0-9_]*", p.make_metavar(ctx)))
        words = set(re.findall(r"\b[A-Z][A-Z0-9_]+\b", cmd.help or ""))
        assert words <= metavars | known, (name, words - metavars - known)
    assert "--games" in run("simulate", "--help").output.split("Options:")[0]


def _all_commands():
    import importlib

    from yahtzee_solver.cli import COMMANDS

    for name, where in COMMANDS.items():
        module, attr = where.split(":")
        yield name, getattr(importlib.import_module(f"yahtzee_solver.cli.{module}"), attr)


def test_no_option_takes_clicks_own_number_ranges():
    # click's IntRange / FloatRange said "'abc' is not a valid integer range" and quoted -1 back as -1.0
    import click

    left = [(name, p.opts[0]) for name, cmd in _all_commands() for p in cmd.params
            if isinstance(p.type, (click.IntRange, click.FloatRange))]
    assert not left, left


@pytest.mark.parametrize("command, option, value, needles", [
    ("play", "--seed", "abc", ["'abc' is not a whole number", "want 0 or more"]),
    ("play", "--seed", "-5", ["-5 is not in the range", "want 0 or more"]),
    ("play", "--confirm-loss", "-1", ["-1 is not in the range", "want 0 or more"]),
    ("play", "--confirm-loss", "abc", ["'abc' is not a number", "want 0 or more"]),
    ("play", "--confirm-loss", "nan", ["'nan' is not a finite number"]),
    ("play", "--confirm-loss", "inf", ["'inf' is not a finite number"]),
    ("serve", "--port", "abc", ["'abc' is not a whole number", "want 0 to 65535"]),
    ("serve", "--port", "70000", ["70000 is not in the range", "want 0 to 65535"]),
    ("train", "--seed", "9" * 5000, ["too long for a number (5,000 characters)"]),
    ("simulate", "--games", "1.5", ["'1.5' is not a whole number", "want 1 to 100,000,000"]),
])
def test_a_number_option_names_itself_the_value_as_typed_and_the_range_in_words(command, option, value, needles):
    res = run(command, option, value)
    assert_click_usage_error(res, f"'{option}'", *needles, command=command)
    for clicks in ("integer range", "float range", "x>=", "<=x", "-1.0", "set_int_max_str_digits"):
        assert clicks not in res.output, res.output


def test_every_seed_option_has_the_one_limit_of_seeds():
    from yahtzee_solver.cli.options import Seed

    seeds = {name: p.type for name, cmd in _all_commands() for p in cmd.params if p.name == "seed"}
    assert set(seeds) >= {"play", "train", "match", "simulate"}
    assert all(isinstance(t, Seed) for t in seeds.values()), seeds


@pytest.mark.parametrize("command", ["play", "train", "match", "simulate"])
def test_a_seed_longer_than_the_limit_is_refused_naming_its_digits(command):
    """--seed took up to 4,300 digits (any number int() reads), the web's seed 40: one limit now, MAX_SEED_DIGITS."""
    from yahtzee_solver.cli.options import SEED
    from yahtzee_solver.game import MAX_SEED_DIGITS

    res = run(command, "--seed", "9" * (MAX_SEED_DIGITS + 1))
    assert_click_usage_error(res, "'--seed'", f"'99999999999999999...' is too long for a seed ({MAX_SEED_DIGITS + 1} "
                             f"digits): want at most {MAX_SEED_DIGITS} digits", command=command)
    assert SEED.convert("9" * MAX_SEED_DIGITS, None, None) == 10 ** MAX_SEED_DIGITS - 1
    assert SEED.convert("0" * 45 + "7", None, None) == 7  # the digits of the number
