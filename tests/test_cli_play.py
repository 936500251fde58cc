"""``yahtzee-solve play`` and ``yahtzee-solve records`` driven by CliRunner input scripts.

The scripts are written by replaying the same seeded game with the engine
(:mod:`yahtzee_solver.game`) and the same CPU strategy, so the test knows the
dice the CLI will show and checks that the CLI ends exactly where the engine does.
"""

from __future__ import annotations

import json
import os
import string
import subprocess
import sys
from collections import Counter
from types import SimpleNamespace

import click
import pytest
from click.testing import CliRunner

from yahtzee_solver.cli import main
from yahtzee_solver.tui.board import render_board, render_dice
from yahtzee_solver.tui.prompt import PromptError, parse_command
from yahtzee_solver.tui.session import Session
from yahtzee_solver.game import MAX_ROLLS, OPPONENTS, Hold, Roll, Score, cpu_actions, new_game, positions_of
from yahtzee_solver.i18n import LANGS, Translator, display_width, pad
from yahtzee_solver.i18n.text import MESSAGES
from yahtzee_solver.strategy.levels import LEVELS, make_strategy
from yahtzee_solver.files import HOME_ENV, data_dir
from yahtzee_solver.play.history import History
from yahtzee_solver.analysis.review import review_game
from yahtzee_solver.play.records import RecordBook
from yahtzee_solver.rules import get_rules
from yahtzee_solver.state import ScoreCard

from clihelpers import CtrlC, hold_lock, lock_is_free


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    return tmp_path / "home"


def run(args, lines=(), **kw):
    text = "".join(f"{line}\n" for line in lines)
    return CliRunner().invoke(main, args, **{"input": text, **kw})


ERRORS = ("unknown command", "please answer", "Traceback", "invalid", "cannot keep")


def scripted_game(rules="yahtzee", opponent="none", first="me", seed=0, lang="en"):
    """Play a seeded game with the engine; return it and the lines a player types for the same moves.

    The player keeps the most common face (by faces on odd turns, by
    positions on even turns), rolls up to three times, and scores the legal
    box with the most points, naming it by number, alias or local name in
    turn; it confirms when that writes a 0 while another box scores.
    """
    tr = Translator(lang)
    g = new_game(rules, opponent, first, seed)
    cpu = make_strategy(opponent, g.rules, rng=g.cpu_rng, jit=opponent == "master") if opponent != "none" else None
    lines = []
    aliases = ["1s", "2s", "3s", "4s", "5s", "6s", "3k", "4k", "fh", "ss", "ls", "y", "c"]
    if g.rules.name == "yatzy":
        aliases = [tr.alias(g.rules, c) for c in range(g.rules.n_categories)]
    while not g.is_terminal():
        if g.is_cpu_turn:
            for a in cpu_actions(g, cpu):
                g.apply_action(a)
            continue
        lines.append("r")
        g.apply_action(Roll())
        while g.rolls_used < MAX_ROLLS:
            count = Counter(g.dice)
            face = max(count, key=lambda f: (count[f], f))
            keep = (face,) * count[face]
            if len(keep) == 5:
                break
            held = positions_of(g.dice, keep, g.held)
            if g.round % 2:
                lines.append("k " + ("=" if len(keep) == 1 else "") + "".join(map(str, keep)))
            else:
                flip = ["abcde"[i] for i in range(5) if held[i] != g.held[i]]
                if flip:
                    lines.append("k " + " ".join(flip))
            if held != g.held:
                g.apply_action(Hold(held))
            lines.append("r")
            g.apply_action(Roll())
        pts, legal, _ = g.preview()
        c = max((i for i in range(len(pts)) if legal[i]), key=lambda i: (pts[i], -i))
        how = g.round % 3
        if how == 0:
            lines.append(f"s {c + 1}")
        elif how == 1 and not (g.rules.name == "yacht" and c in (6, 7)):
            lines.append(f"s {aliases[c]}")
        else:
            lines.append(f"s {tr.box(g.rules, c)}")
        if g.zero_warning(c):
            lines.append("y")
        g.apply_action(Score(c))
    return g, lines


def unaided(monkeypatch, seed: int) -> None:
    """Make the next game's secret seed ``seed`` (a player cannot choose it: a chosen --seed is practice)."""
    monkeypatch.setattr("yahtzee_solver.play.session.fresh_seed", lambda: seed)


def assert_clean(output: str):
    for e in ERRORS:
        assert e not in output, e


# -- whole games --------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", ["yahtzee", "yahtzee-free-joker", "yacht", "yahtzee-no-joker", "yahtzee-no-bonus", "yatzy"])
def test_full_solo_game(rules, home, monkeypatch):
    g, lines = scripted_game(rules, seed=101)
    unaided(monkeypatch, 101)
    res = run(["play", "--rules", rules, "--fast"], lines)
    assert res.exit_code == 0, res.output
    assert_clean(res.output)
    total = g.cards[0].total
    assert f"Final score: {total}." in res.output
    assert "Seed 101" in res.output
    assert not (home / "game.json").exists()
    rec = RecordBook.load().get(rules, "solo")
    assert (rec.games, rec.best) == (1, total)
    # the finished game is in the history, and the end screen reviews it with the same numbers as `review`
    hist = History.load()
    assert len(hist.entries) == 1 and hist.entries[0].scores == (total,)
    rev = review_game(g)
    assert f"expected loss {rev.total_loss:.2f} points" in res.output
    assert "Game saved to the history as number 1" in res.output


@pytest.mark.parametrize("level", OPPONENTS[1:])
def test_full_game_against_each_level(level, home, monkeypatch):
    g, lines = scripted_game("yahtzee", level, "random", seed=202)
    unaided(monkeypatch, 202)
    res = run(["play", "--vs", level, "--first", "random", "--fast"], lines)
    assert res.exit_code == 0, res.output
    assert_clean(res.output)
    me, cpu = g.totals()
    name = f"CPU ({level})"
    if me > cpu:
        assert f"You win, {me} to {cpu}!" in res.output
        outcome = "wins"
    elif me < cpu:
        assert f"{name} wins, {cpu} to {me}." in res.output
        outcome = "losses"
    else:
        assert f"A draw: {me} each." in res.output
        outcome = "draws"
    # The CPU's turns are shown step by step.
    assert f"{name} rolls" in res.output and f"{name} scored" in res.output
    rec = RecordBook.load().get("yahtzee", level)
    assert rec.games == 1 and getattr(rec, outcome) == 1 and rec.best == me


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_full_game_in_chinese_and_japanese(lang, home):
    g, lines = scripted_game("yacht" if lang == "ja" else "yahtzee", "normal", "cpu", seed=303, lang=lang)
    rules = g.rules.name
    res = run(["play", "--rules", rules, "--vs", "normal", "--first", "cpu", "--seed", "303", "--fast",
               "--lang", lang], lines)
    assert res.exit_code == 0, res.output
    assert_clean(res.output)
    tr = Translator(lang)
    assert tr("end.title") in res.output
    for c in range(g.rules.n_categories):
        assert tr.box(g.rules, c) in res.output
    assert "Ones" not in res.output and "Your turn" not in res.output
    if lang == "ja":
        assert "ヨット" in res.output and "チョイス" in res.output
    else:
        assert "葫芦" in res.output and "快艇" in res.output


def test_same_seed_same_game(home):
    _, lines = scripted_game(seed=404)
    a = run(["play", "--seed", "404", "--fast"], lines)
    b = run(["play", "--seed", "404", "--fast"], lines)
    assert a.exit_code == b.exit_code == 0
    assert "Game over." in a.output
    assert a.output.split("Game over.")[0] == b.output.split("Game over.")[0]


# -- resume ---------------------------------------------------------------------------------------------
def _saved(home) -> dict:
    return json.loads((home / "game.json").read_text())


def _ledger(home) -> dict:
    """The records' entry of the game in progress (ledger.json)."""
    return json.loads((home / "ledger.json").read_text())["game"]


def test_resume_mid_turn_gives_the_same_dice_and_the_same_future_dice(home):
    # Uninterrupted: roll, keep dice 1 and 2, reroll, reroll, score Chance, roll again.
    straight = ["r", "k a b", "r", "r", "s c", "r", "q"]
    res = run(["play", "--seed", "55", "--vs", "beginner", "--fast"], straight)
    assert res.exit_code == 0, res.output
    full, full_ledger = _saved(home), _ledger(home)
    (home / "game.json").unlink()
    # The same moves with a quit after the second roll.
    res = run(["play", "--seed", "55", "--vs", "beginner", "--fast"], ["r", "k a b", "r", "q"])
    assert res.exit_code == 0 and "Game saved" in res.output
    mid = _saved(home)
    assert mid["rolls_used"] == 2 and mid["held"][:2] == [True, True]
    res = run(["play", "--resume", "--fast"], ["q"])
    assert res.exit_code == 0
    shown = " ".join(f"[{d}]" if h else str(d) for d, h in zip(mid["dice"], mid["held"]))
    dice_line = [ln for ln in res.output.splitlines() if ln.startswith("Dice")][-1]
    assert " ".join(dice_line.split()[1:3 + 3]) == shown
    assert "roll 2 of 3" in res.output
    res = run(["play", "--resume", "--fast"], ["r", "s c", "r", "q"])
    assert res.exit_code == 0, res.output
    assert _saved(home)["log"] == full["log"]
    assert _ledger(home)["cpu_rng"] == full_ledger["cpu_rng"]
    assert "rng" not in _saved(home) and "seed" not in _saved(home)["config"]  # the next dice are not in the save


def test_quit_and_resume_never_gives_a_fresh_roll(home):
    res = run(["play", "--seed", "9", "--fast"], ["r", "r", "r", "q"])
    assert res.exit_code == 0
    dice = _saved(home)["dice"]
    res = run(["play", "--resume", "--fast"], ["r", "k 1", "q"])
    assert "no rolls left this turn" in res.output
    assert "the dice are locked after the third roll" in res.output
    assert _saved(home)["dice"] == dice and _saved(home)["rolls_used"] == 3


def test_end_of_input_keeps_the_game_saved(home):
    res = run(["play", "--seed", "9", "--fast"], ["r"])
    assert res.exit_code == 1
    assert "The game is saved" in res.output
    assert _saved(home)["rolls_used"] == 1


def test_ctrl_c_at_the_prompt_keeps_the_game_saved_and_exits_130(home):
    # it exited 1, as at the end of input; the CLI's Ctrl-C is 130 (128 + SIGINT)
    res = run(["play", "--seed", "9", "--fast"], input=CtrlC("r\n"))
    assert res.exit_code == 130, res.output
    assert "Interrupted. The game is saved" in res.output
    assert _saved(home)["rolls_used"] == 1


def test_resume_errors(home):
    res = run(["play", "--resume"])
    assert res.exit_code == 2 and "no saved game to resume" in res.output
    run(["play", "--seed", "1", "--fast"], ["q"])
    res = run(["play", "--resume", "--seed", "3"])
    assert res.exit_code == 2 and "drop --seed" in res.output
    res = run(["play", "--resume", "--vs", "expert"])
    assert res.exit_code == 2 and "drop --vs" in res.output
    assert "Traceback" not in res.output


def test_corrupt_save_is_reported_and_set_aside(home):
    home.mkdir(parents=True)
    (home / "game.json").write_text('{"format": "yahtzee_solver saved game", "version": 1, "cards": 3}')
    res = run(["play", "--resume"])
    assert res.exit_code == 1
    assert "cannot be restored" in res.output and "moved to" in res.output
    assert "Traceback" not in res.output
    assert len(list(home.glob("game.json.corrupt-*"))) == 1
    # A corrupt save found when starting a new game: warned, set aside, new game starts.
    (home / "game.json").write_text("garbage")
    res = run(["play", "--seed", "1", "--fast"], ["q"])
    assert res.exit_code == 0 and "Warning" in res.output and "Game saved" in res.output
    assert len(list(home.glob("game.json.corrupt-*"))) == 2


def test_new_game_over_a_saved_one_asks_first(home):
    run(["play", "--seed", "1", "--vs", "normal", "--fast"], ["r", "q"])
    before = _saved(home)
    res = run(["play", "--seed", "2", "--fast"], ["n"])
    assert res.exit_code == 0 and "saved game is kept" in res.output
    assert _saved(home) == before
    res = run(["play", "--seed", "2", "--fast"], ["y", "q"])
    assert res.exit_code == 0
    assert _ledger(home)["seed"] == 2
    # Abandoned against the CPU: a loss (a practice one: its seed was chosen).
    rec = RecordBook.load().get("yahtzee", "normal", practice=True)
    assert (rec.losses, rec.forfeits, rec.abandoned) == (1, 1, 0)


# -- Joker and zero confirmation ----------------------------------------------------------------------
def _position(home, card: ScoreCard, dice, rolls_used=1):
    """A set-up solitaire position (a game cannot be saved there and resumed: see play_from)."""
    g = new_game(card.rules, "none", "me", 77)
    g.cards = [card]
    g.round = bin(card.filled).count("1") + 1
    g.dice = tuple(dice)
    g.rolls_used = rolls_used
    return g


def play_from(g, lines, lang="en", **options):
    """Play the set-up game ``g`` in-process as ``play`` would (saving after every action), typing ``lines``.

    A saved game is only resumed by replaying its moves from its seed, so a
    position set up by hand is played by a session started on it.
    """
    text = "".join(f"{line}\n" for line in lines)
    with CliRunner().isolation(input=text) as (_, _, output):
        try:
            result = Session(g, Translator(lang), fast=True, game_file=data_dir() / "game.json",
                             records_file=data_dir() / "records.json", tty=False, **options).run()
            code = 1 if result == "unrecorded" else 0
        except click.Abort:
            code = 1
        return SimpleNamespace(exit_code=code, output=output.getvalue().decode())


def test_forced_joker_is_enforced_and_explained(home):
    g = _position(home, ScoreCard.from_mapping({"yahtzee": 50}), (4,) * 5)
    res = play_from(g, ["s fh", "s 4", "q"])
    assert res.exit_code == 0, res.output
    assert "Joker: five 4s with the Yahtzee box filled must go in the open Fours box." in res.output
    assert "joker: five 4s must go in the Fours box while it is open" in res.output
    # Only Fours may take it: the bonus line does not offer a choice.
    assert "Yahtzee bonus: +100 when you score it in Fours." in res.output
    assert "whichever box you choose" not in res.output
    assert "You scored 20 in Fours (Joker)." in res.output
    assert "Yahtzee bonus +100!" in res.output
    card = _saved(home)["cards"][0]
    assert card["fours"] == 20 and card["yahtzee-bonus"] == 100


def test_forced_joker_lower_box_scores_fixed_points(home):
    g = _position(home, ScoreCard.from_mapping({"yahtzee": 0, "fours": 12}), (4,) * 5)
    res = play_from(g, ["s 1", "s ls", "q"])
    assert res.exit_code == 0, res.output
    assert "so five 4s go in any open lower box (Full House 25, Small Straight 30, Large Straight 40)" in res.output
    assert "joker: the Fours box is filled, so five 4s go in an open lower box" in res.output
    assert _saved(home)["cards"][0]["large-straight"] == 40


def test_zero_needs_confirmation_only_when_another_box_scores(home):
    g = _position(home, ScoreCard.empty(), (1, 2, 3, 4, 6))
    res = play_from(g, ["s y", "n", "s y", "maybe", "y", "q"])
    assert res.exit_code == 0, res.output
    assert res.output.count("Score 0 in Yahtzee? Small Straight would score 30.") == 3
    assert "Not scored." in res.output and "please answer y or n" in res.output
    assert _saved(home)["cards"][0]["yahtzee"] == 0
    # Only boxes that cannot score are open: no question.
    zeros = {k: 0 for k in ("ones", "twos", "threes", "fours", "fives", "sixes", "three-of-a-kind",
                            "four-of-a-kind", "full-house", "small-straight", "large-straight")}
    (home / "game.json").unlink()
    g = _position(home, ScoreCard.from_mapping({**zeros, "chance": 20}), (1, 2, 3, 4, 6))
    res = play_from(g, ["s y"])
    assert res.exit_code == 0, res.output
    assert "Score 0" not in res.output and "You scored 0 in Yahtzee." in res.output
    assert "Game over." in res.output


# -- bad commands ---------------------------------------------------------------------------------------
def test_every_bad_command_gets_a_message_and_the_prompt_again(home):
    bad_before_roll = [("k 1", "roll the dice first"), ("s 1", "roll the dice first"), ("h x", "takes no arguments")]
    bad_after_roll = [
        ("xyzzy", "unknown command 'xyzzy'"),
        ("k", "say which dice"),
        ("k 9", "invalid face '9'"),
        ("k x", "invalid die 'x'"),
        ("k a a", "die a is given twice"),
        ("k a 4", "mixes letters and digits"),
        ("k 7x", "invalid face '7'"),
        ("k =", "say which dice"),
        ("s", "say which box"),
        ("s nope", "unknown box 'nope'"),
        ("s 99", "unknown box '99'"),
        ("r 1", "takes no arguments"),
        ("q now", "takes no arguments"),
    ]
    lines = [b for b, _ in bad_before_roll] + ["r"] + [b for b, _ in bad_after_roll] + ["k a b c d e", "r", "q"]
    res = run(["play", "--seed", "5", "--fast"], lines)
    assert res.exit_code == 0, res.output
    for _, msg in bad_before_roll + bad_after_roll:
        assert msg in res.output, msg
    assert "every die is kept: release some" in res.output
    assert res.output.count("\n> ") + res.output.startswith("> ") >= len(lines) - 1
    assert "Game saved" in res.output


def test_keep_by_faces_that_are_not_showing(home):
    g = _position(home, ScoreCard.empty(), (1, 2, 3, 4, 6))
    res = play_from(g, ["k 55", "k =6", "k -", "q"])
    assert "cannot keep 55: the dice show 1 2 3 4 6" in res.output
    assert g.dice == tuple(_saved(home)["dice"]) and not any(_saved(home)["held"])


def test_filled_box_is_refused(home):
    g = _position(home, ScoreCard.from_mapping({"chance": 20}), (1, 2, 3, 4, 6))
    res = play_from(g, ["s chance", "q"])
    assert "the Chance box is already filled" in res.output


# -- hints, rules, help ------------------------------------------------------------------------------------
def test_hint_before_and_after_rolling(home):
    res = run(["play", "--seed", "8", "--fast"], ["h", "r", "h", "r", "r", "h", "q"])
    assert res.exit_code == 0, res.output
    assert "Roll the dice (r). Expected final score from here: 254.59" in res.output
    assert res.output.count("Hint (expected final score with best play from here):") == 2
    assert "best" in res.output and "keep" in res.output


@pytest.mark.parametrize("lang", LANGS)
def test_why_before_the_first_roll_is_refused_and_the_game_stays_unaided(home, lang):
    # the web's rule (POST /api/game/why before a roll: 409 no_dice): there are no dice to explain
    tr = Translator(lang)
    res = run(["play", "--fast", "--lang", lang], ["why", "q"])
    assert res.exit_code == 0, res.output
    assert sum(tr("err.no_dice") in line for line in res.output.splitlines()) == 1
    assert tr("practice.hint") not in res.output
    assert _ledger(home)["practice"] == []
    # once rolled, why explains the dice and counts as a hint
    res = run(["play", "--resume", "--fast", "--lang", lang], ["r", "why", "q"])
    assert res.exit_code == 0, res.output
    assert tr("practice.hint") in res.output and tr("err.no_dice") not in res.output
    assert _ledger(home)["practice"] == ["hint"]


def test_hint_before_the_first_roll_counts_as_a_hint_as_on_the_page(home):
    # h before a roll is answered (the expected final score), as POST /api/game/hint is: both are hints
    tr = Translator("en")
    res = run(["play", "--fast"], ["h", "q"])
    assert res.exit_code == 0, res.output
    assert tr("practice.hint") in res.output
    assert _ledger(home)["practice"] == ["hint"]


def test_hint_numbers_come_from_the_advisor(home):
    from yahtzee_solver.strategy.advisor import Advisor

    g = _position(home, ScoreCard.empty(), (2, 2, 5, 5, 5), rolls_used=1)
    res = play_from(g, ["h", "q"])
    best = Advisor("yahtzee", jit=False).keep_options(g.card, g.dice, 2)
    assert f"{best[0].expected:8.2f}" in res.output
    assert f"-{best[1].loss:.2f}" in res.output


def test_rules_pages_in_each_language(home):
    for lang in LANGS:
        tr = Translator(lang)
        res = run(["play", "--seed", "1", "--fast", "--lang", lang], ["?", "", "", "q", "help", "q"])
        assert res.exit_code == 0, res.output
        pages = tr.rules_pages(get_rules("yahtzee"))
        assert pages[0].splitlines()[0] in res.output
        assert tr("rules.pager", page=3, pages=5) in res.output
        assert tr("rules.pager", page=4, pages=5) not in res.output  # q went back to the game
        (home / "game.json").unlink()


def test_rules_text_follows_the_rule_set():
    en = Translator("en")
    yacht = "\n".join(en.rules_pages(get_rules("yacht")))
    assert "Four Dice: sum of all five dice if at least 4 show one face (five alike counts)" in yacht
    assert "Full House: sum of all five dice for three of one face and two of another (five alike does not count)" in yacht
    assert "Small Straight: 15 for 4 consecutive faces" in yacht and "no Joker" in yacht
    free = "\n".join(en.rules_pages(get_rules("yahtzee-free-joker")))
    assert "Joker (free)" in free and "Joker (forced)" not in free
    forced = "\n".join(en.rules_pages(get_rules("yahtzee")))
    assert "+100 for each further five alike" in forced and "Upper bonus: +35" in forced
    no_joker = "\n".join(en.rules_pages(get_rules("yahtzee-no-joker")))
    assert "+100 for each further five alike" in no_joker and "No Joker" in no_joker
    assert "Joker (forced)" not in no_joker and "Joker (free)" not in no_joker
    no_bonus = "\n".join(en.rules_pages(get_rules("yahtzee-no-bonus")))
    assert "+100" not in no_bonus and "no bonus for a second Yahtzee and no Joker" in no_bonus
    yatzy = "\n".join(en.rules_pages(get_rules("yatzy")))
    assert "Upper bonus: +50" in yatzy and "15 boxes, 15 turns" in yatzy
    assert "Two Pairs: two dice each of two different faces" in yatzy
    assert "Small Straight: 15 for exactly 1-2-3-4-5" in yatzy
    assert "Large Straight: 20 for exactly 2-3-4-5-6" in yatzy
    assert "One Pair: 2 dice of one face: their sum, 2 x the face (the highest such face) (five alike counts)" in yatzy


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("rules", ["yahtzee-no-joker", "yahtzee-no-bonus", "yatzy"])
def test_new_rule_sets_have_names_and_titles_in_every_language(lang, rules):
    tr = Translator(lang)
    r = get_rules(rules)
    names = [tr.box(r, c) for c in range(r.n_categories)]
    assert len(set(names)) == r.n_categories  # every box its own name
    if lang != "en":
        assert tr.title(r) != r.title  # translated
        assert all(not n.isascii() for n in names), names
    for c, n in enumerate(names):
        assert tr.box_index(r, n) == c
    pages = tr.rules_pages(r)
    for c in range(r.n_categories):
        assert any(n in p for n in [names[c]] for p in pages)


@pytest.mark.parametrize("level", LEVELS)
def test_full_yatzy_game_against_each_level(level, home, monkeypatch):
    g, lines = scripted_game("yatzy", level, "random", seed=303)
    unaided(monkeypatch, 303)
    res = run(["play", "--rules", "yatzy", "--vs", level, "--first", "random", "--fast"], lines)
    assert res.exit_code == 0, res.output
    assert_clean(res.output)
    me, cpu = g.totals()
    assert f"{me}" in res.output and f"{cpu}" in res.output
    rec = RecordBook.load().get("yatzy", level)
    assert rec.games == 1


# -- parsing and drawing, directly ------------------------------------------------------------------------
def test_a_box_number_of_thousands_of_digits_is_an_unknown_box():
    """``s 111...`` (5,000 digits) ended in a traceback (Python's 4,300-digit limit of int())."""
    tr = Translator("en")
    g = new_game(seed=1)
    g.apply_action(Roll())
    for text in ("s " + "1" * 5000, "s 14", "s 0"):
        with pytest.raises(PromptError) as e:
            parse_command(text, g, tr)
        assert e.value.key == "err.unknown_box"


def test_parse_command_keeps_by_position_and_by_face():
    tr = Translator("en")
    g = new_game(seed=1)
    g.apply_action(Roll())
    g.dice = (2, 5, 2, 5, 5)
    assert parse_command("k a c", g, tr).arg == (True, False, True, False, False)
    assert parse_command("k 225", g, tr).arg == (True, True, True, False, False)
    assert parse_command("k225", g, tr).arg == (True, True, True, False, False)
    assert parse_command("k a,c", g, tr).arg == (True, False, True, False, False)
    assert parse_command("k 5", g, tr).arg == (False, True, False, False, False)  # a face, never a position
    assert parse_command("k =5", g, tr).arg == (False, True, False, False, False)
    assert parse_command("K -", g, tr).arg == (False,) * 5
    assert parse_command("s full house", g, tr).arg == 8
    assert parse_command("s9", g, tr).arg == 8
    assert parse_command("  ", g, tr).verb == "redraw"
    with pytest.raises(PromptError) as e:
        parse_command("k f a", g, tr)
    assert e.value.key == "err.bad_position"
    with pytest.raises(PromptError) as e:
        parse_command("k 0 1", g, tr)
    assert e.value.key == "err.bad_face"
    for text in ("k a z", "k a,z", "k z", "k b c z a"):  # the wrong die is named, not the first letter
        with pytest.raises(PromptError) as e:
            parse_command(text, g, tr)
        assert (e.value.key, e.value.params) == ("err.bad_position", {"pos": "z"}), text
    zh = Translator("zh")
    assert parse_command("s 葫芦", g, zh).arg == 8
    ja = Translator("ja")
    assert parse_command("s Sストレート", g, ja).arg == 9


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("rules", ["yahtzee", "yacht", "yatzy"])
def test_board_columns_line_up_in_every_language(lang, rules):
    tr = Translator(lang)
    g = new_game(rules, "expert", "me", seed=3)
    g.apply_action(Roll())
    lines = [click.unstyle(x) for x in render_board(g, tr)]
    rows = [x for x in lines[1:] if "|" in x]
    assert len(rows) >= 9
    cut = {display_width(x[: x.index("|")]) for x in rows}
    assert len(cut) == 1, lines
    widths = {display_width(x) for x in rows[:1] + rows[2:]}
    assert len(widths) == 1, lines
    dice = [click.unstyle(x) for x in render_dice(g, tr)]
    pos, faces = dice[1], dice[2]
    digits = [k for k, ch in enumerate(faces) if ch.isdigit()][:5]
    for i in range(5):  # each die sits under its position number, in terminal cells
        assert display_width(faces[: digits[i]]) == pos.index("abcde"[i])


def test_preview_highlights_zero_and_joker_closed_boxes():
    tr = Translator("en")
    g = new_game(seed=1)
    g.cards = [ScoreCard.from_mapping({"yahtzee": 50})]
    g.round = 2
    g.apply_action(Roll())
    g.dice = (6,) * 5
    text = "\n".join(click.unstyle(x) for x in render_board(g, tr))
    assert "(30)" in text           # Sixes must take it
    assert "--" in text             # the other boxes are closed by the Joker
    assert "0+100" in text          # the Yahtzee bonus this roll earns
    styled = "\n".join(render_board(g, tr))
    g.dice = (1, 2, 3, 4, 6)
    styled = "\n".join(render_board(g, tr))
    assert "\x1b[" in styled        # colours when asked to style (stripped by click.echo off a tty)


def test_session_on_a_terminal_redraws_and_keeps_messages(monkeypatch, capsys, home):
    g = new_game("yacht", "beginner", "cpu", seed=6)
    answers = iter(["r", "h", "s 7", "q"])
    monkeypatch.setattr("yahtzee_solver.tui.prompt.ask", lambda text: next(answers))
    monkeypatch.setattr("yahtzee_solver.tui.session.clear_screen", lambda: print("<CLEAR>"))
    pauses = []
    s = Session(g, Translator("en"), fast=False, game_file=home / "game.json",
                records_file=home / "records.json", sleep=pauses.append, tty=True)
    assert s.run() == "quit"
    out = capsys.readouterr().out
    assert out.count("<CLEAR>") >= 5
    assert "CPU (beginner) rolls" in out and "Hint" in out and "You scored" in out
    assert pauses and all(p > 0 for p in pauses)


# -- records command -------------------------------------------------------------------------------------
def test_records_command_table_json_and_reset(home):
    res = run(["records"])
    assert res.exit_code == 0 and "No games recorded yet." in res.output
    book = RecordBook.load()
    book.add_game("yahtzee", "expert", 230, "win")
    book.add_game("yahtzee", "expert", 210, "loss")
    book.add_game("yacht", "solo", 190)
    book.save()
    res = run(["records"])
    assert res.exit_code == 0
    row = [ln for ln in res.output.splitlines() if "CPU (expert)" in ln][0].split()
    assert row[-7:] == ["2", "230", "220.0", "1", "1", "0", "0"]
    res = run(["records", "--json"])
    data = json.loads(res.output)
    (y,) = [r for r in data["records"] if r["rules"] == "yahtzee"]
    assert (y["games"], y["best"], y["average"], y["wins"], y["losses"]) == (2, 230, 220.0, 1, 1)
    res = run(["records", "--lang", "ja"])
    assert "上級" in res.output and "最高" in res.output
    res = run(["records", "--reset"], ["n"])
    assert RecordBook.load().records and "Nothing deleted." in res.output
    res = run(["records", "--reset"], ["y"])
    assert res.exit_code == 0 and "Records deleted." in res.output
    assert not RecordBook.load().records
    res = run(["records", "--reset", "--yes"])
    assert res.exit_code == 0 and "There are no records to delete." in res.output
    book = RecordBook.load()
    book.add_game("yacht", "solo", 190)
    book.save()
    res = run(["records", "--reset", "--yes", "--json"])
    assert res.exit_code == 0 and json.loads(res.output)["deleted"] == 1


def test_corrupt_records_file_during_a_game(home, monkeypatch):
    home.mkdir(parents=True)
    (home / "records.json").write_text("{broken")
    res = run(["records"])
    assert res.exit_code == 0 and "Warning" in res.output and "moved to" in res.output
    (home / "records.json").write_text("{broken again")
    g, lines = scripted_game("yacht", seed=11)
    unaided(monkeypatch, 11)
    res = run(["play", "--rules", "yacht", "--fast"], lines)
    assert res.exit_code == 0, res.output
    assert "Warning" in res.output and "records file" in res.output
    assert len(list(home.glob("records.json.corrupt-*"))) == 2
    assert RecordBook.load().get("yacht", "solo").games == 1


def test_new_record_notice(home, monkeypatch):
    book = RecordBook.load()
    book.add_game("yahtzee", "solo", 5)
    book.save()
    g, lines = scripted_game(seed=12)
    unaided(monkeypatch, 12)
    res = run(["play", "--fast"], lines)
    assert f"New record for Yahtzee (official rules, forced Joker), solo: {g.cards[0].total} (previous best 5)!" \
        in res.output


def test_commands_have_help():
    for cmd in ("play", "records"):
        res = run([cmd, "--help"])
        assert res.exit_code == 0 and "Usage" in res.output


# -- translations -------------------------------------------------------------------------------------------
def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_language_has_every_message_with_the_same_fields():
    en = MESSAGES["en"]
    for lang in LANGS:
        m = MESSAGES[lang]
        assert set(m) == set(en), (lang, set(en) ^ set(m))
        for k in en:
            assert _fields(m[k]) == _fields(en[k]), (lang, k)


def test_box_names_players_use():
    zh, ja = Translator("zh"), Translator("ja")
    y, yacht = get_rules("yahtzee"), get_rules("yacht")
    assert [zh.box(y, c) for c in range(13)] == [
        "一点", "二点", "三点", "四点", "五点", "六点", "三条", "四条", "葫芦", "小顺", "大顺", "快艇", "机会"]
    assert [ja.box(yacht, c) for c in range(12)] == [
        "エース", "デュース", "トレイ", "フォー", "ファイブ", "シックス", "チョイス", "フォーダイス",
        "フルハウス", "S・ストレート", "L・ストレート", "ヨット"]


def test_display_width_counts_wide_characters():
    assert display_width("abc") == 3
    assert display_width("葫芦") == 4
    assert display_width("S・ストレート") == 13
    assert display_width("e\u0301") == 1
    assert pad("快艇", 6) == "快艇  " and pad("快艇", 6, ">") == "  快艇" and pad("ab", 5, "^") == " ab  "


def test_every_engine_problem_is_translated():
    from yahtzee_solver.game import PROBLEMS

    for lang in LANGS:
        for key, text in PROBLEMS.items():
            assert f"problem.{key}" in MESSAGES[lang], (lang, key)
            assert _fields(MESSAGES[lang][f"problem.{key}"]) == _fields(text), (lang, key)


@pytest.mark.parametrize("lang", LANGS)
def test_wrap_fits_the_width_in_terminal_cells(lang):
    from yahtzee_solver.i18n import wrap

    tr = Translator(lang)
    for page in tr.rules_pages(get_rules("yahtzee"), tr.help(get_rules("yahtzee"))):
        for width in (40, 60, 79):
            out = wrap(page, width)
            assert all(display_width(line) <= width for line in out.splitlines())
            assert "".join(out.split()) == "".join(page.split())  # nothing lost, only line breaks
            assert not any(line.lstrip()[:1] in "，。、）" for line in out.splitlines() if line.strip())


# -- fixes from the fresh-user test -------------------------------------------------------------------------
def _one_line_error(res, code, *needles):
    assert res.exit_code == code, res.output
    assert "Traceback" not in res.output
    errors = [ln for ln in res.output.splitlines() if ln.startswith("Error: ")]
    assert len(errors) == 1, res.output
    for n in needles:
        assert n in errors[0], (n, errors[0])


def test_deeply_nested_save_is_set_aside_and_play_stays_usable(home):
    home.mkdir(parents=True)
    deep = "[" * 100_000 + "]" * 100_000
    (home / "game.json").write_text(deep)
    res = run(["play", "--resume"])
    _one_line_error(res, 1, "cannot be restored", "nested too deeply", "moved to")
    assert len(list(home.glob("game.json.corrupt-*"))) == 1
    (home / "game.json").write_text(deep)
    res = run(["play", "--seed", "1", "--fast"], ["q"])
    assert res.exit_code == 0 and "Warning" in res.output and "Game saved" in res.output
    assert len(list(home.glob("game.json.corrupt-*"))) == 2
    (home / "records.json").write_text(deep)
    res = run(["records"])
    assert res.exit_code == 0 and "Traceback" not in res.output and "moved to" in res.output


def _last_turn(monkeypatch, rules="yahtzee", seed=31):
    """Play a real solitaire game (unaided: the seed is injected, not chosen) up to its last score and quit.

    Returns the final total it will reach and the lines that finish it.
    """
    g, lines = scripted_game(rules, seed=seed)
    last = max(i for i, line in enumerate(lines) if line.startswith("s "))
    monkeypatch.setattr("yahtzee_solver.play.session.fresh_seed", lambda: seed)
    res = run(["play", "--rules", rules, "--fast"], lines[:last] + ["q"])
    assert res.exit_code == 0 and "Game saved" in res.output, res.output
    return g.cards[0].total, lines[last:]


def _finished_saved_game(home) -> bool:
    from yahtzee_solver.play.savegame import GameStore

    opened = GameStore(home / "game.json").open()
    return opened.status == "ok" and opened.state.is_terminal()


def test_finished_game_that_cannot_be_recorded_is_kept_and_recorded_later(home, monkeypatch):
    total, rest = _last_turn(monkeypatch)
    (home / "records.json").unlink()  # it notes the game in progress; a folder in its place cannot be written
    (home / "records.json").mkdir()
    res = run(["play", "--resume", "--fast"], rest)
    assert res.exit_code == 1, res.output
    assert f"Final score: {total}." in res.output
    assert "The result could not be recorded" in res.output and "will be recorded the next time" in res.output
    assert "Traceback" not in res.output
    assert _finished_saved_game(home)  # kept
    # Still unwritable: play refuses rather than dropping the finished game.
    res = run(["play", "--seed", "3", "--fast"], ["q"])
    _one_line_error(res, 1, "cannot record the finished game kept in")
    assert _finished_saved_game(home)
    (home / "records.json").rmdir()
    res = run(["play", "--resume"])
    assert f"finished game from last time (Yahtzee (official rules, forced Joker), solo: {total})" in res.output
    assert res.exit_code == 2 and "no saved game to resume" in res.output
    assert not (home / "game.json").exists()
    assert RecordBook.load().get("yahtzee", "solo").games == 1


@pytest.mark.parametrize("how", ["play", "records"])
def test_next_run_records_a_finished_game_left_behind(home, how, monkeypatch):
    total, rest = _last_turn(monkeypatch, "yacht")
    (home / "records.json").unlink()  # it notes the game in progress; a folder in its place cannot be written
    (home / "records.json").mkdir()
    res = run(["play", "--resume", "--fast"], rest)
    assert res.exit_code == 1 and "could not be recorded" in res.output
    (home / "records.json").rmdir()
    finished = (home / "game.json").read_text()
    if how == "play":
        res = run(["play", "--rules", "yacht", "--seed", "5", "--fast"], ["q"])
        assert res.exit_code == 0 and "Game saved" in res.output
        assert _ledger(home)["seed"] == 5
    else:
        res = run(["records"])
        assert res.exit_code == 0 and not (home / "game.json").exists()
        assert "Yacht (12 categories)" in res.output
        # The same finished game copied back is not counted twice.
        (home / "game.json").write_text(finished)
        js = CliRunner().invoke(main, ["records", "--json"])
        assert js.exit_code == 0 and json.loads(js.stdout)["records"][0]["games"] == 1  # notice on stderr
    assert f"The finished game from last time (Yacht (12 categories), solo: {total})" in res.output
    rec = RecordBook.load().get("yacht", "solo")
    assert (rec.games, rec.best, rec.abandoned) == (1, total, 0)


def test_records_leaves_a_running_games_result_to_that_game(home):
    home.mkdir(parents=True)
    (home / "game.json").write_text("{}")
    with hold_lock(home / "game.lock"):  # a live process holds the data folder
        res = run(["records"])
    assert res.exit_code == 0 and "No games recorded yet." in res.output
    assert (home / "game.json").exists()


@pytest.mark.parametrize("bad, message", [
    ("k 0", "invalid face '0'"),
    ("k 0 1", "invalid face '0'"),
    ("k ٣", "invalid face '٣'"),
    ("k ０", "invalid face '0'"),
    ("k ٣٣", "invalid face '٣'"),
    ("k٣", "unknown command 'k٣'"),
    ("s ٣", "unknown box '٣'"),
])
def test_keep_zero_and_non_ascii_digits_are_refused(home, bad, message):
    assert message in _refusal(bad)


def _refusal(typed: str) -> str:
    """The message the prompt refuses ``typed`` with, after the first roll of a new game (English)."""
    tr = Translator("en")
    g = new_game(seed=1)
    g.apply_action(Roll())
    with pytest.raises(PromptError) as e:
        parse_command(typed, g, tr)
    return tr(e.value.key, **e.value.params)


@pytest.mark.parametrize("typed, shown", [
    ("\udcff\udcfe", "unknown command '\ufffd\ufffd'"),  # bytes that are not UTF-8, as the terminal reads them
    ("k\udce9", "unknown command 'k\ufffd'"),
    ("s caf\udce9", "unknown box 'caf\ufffd'"),
    ("s caf\udcc3\udca9", "unknown box 'café'"),  # UTF-8 after all
    ("\ud800", "unknown command '\ufffd'"),  # no byte stands for it
])
def test_bytes_typed_that_are_not_text_are_named_readably(home, typed, shown):
    # they were echoed as surrogate escapes: unknown command '\udcff\udcfe'
    message = _refusal(typed)
    assert shown in message and message.encode("utf-8")  # printable on any terminal


def test_k_0_at_the_prompt_gets_an_error_naming_0(home):
    res = run(["play", "--seed", "5", "--fast"], ["r", "k 0", "k ٣", "q"])
    assert res.exit_code == 0
    assert "invalid face '0'" in res.output and "invalid face '٣'" in res.output


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("dice, rolls_used", [((4, 1, 4, 2, 3), 1), ((6, 6, 6, 6, 2), 2), ((3, 3, 3, 3, 3), 1),
                                               ((1, 2, 3, 5, 6), 3)])
def test_hint_shows_the_exact_command_to_type(home, lang, dice, rolls_used):
    from yahtzee_solver.strategy.advisor import Advisor
    from yahtzee_solver.tui.prompt import keep_command

    g = _position(home, ScoreCard.empty(), dice, rolls_used=rolls_used)
    res = play_from(g, ["h", "q"], lang)
    assert res.exit_code == 0, res.output
    adv = Advisor("yahtzee", jit=False)
    tr = Translator(lang)
    hint = res.output.split(tr("hint.title"))[1].splitlines()
    best_line = hint[1].split()
    if rolls_used < MAX_ROLLS and len(adv.keep_options(g.card, g.sorted_dice, g.rerolls_left)[0].keep) < 5:
        best = adv.keep_options(g.card, g.sorted_dice, g.rerolls_left)[0]
        cmd = keep_command(best.keep)
        assert " ".join(best_line[:2]) == cmd
        held = parse_command(cmd, g, tr).arg  # typing it keeps exactly the advised dice
        assert sorted(d for d, h in zip(g.dice, held) if h) == list(best.keep)
    else:
        box = adv.box_options(g.card, g.sorted_dice)[0]
        assert " ".join(best_line[:2]) == f"s {box.category + 1}"
        assert parse_command(f"s {box.category + 1}", g, tr).arg == box.category


def test_keep_command_forms():
    from yahtzee_solver.tui.prompt import keep_command

    tr = Translator("en")
    g = new_game(seed=1)
    g.apply_action(Roll())
    g.dice = (4, 1, 4, 2, 3)
    assert keep_command((4, 4)) == "k 44"
    assert keep_command((4,)) == "k 4" and parse_command("k 4", g, tr).arg == (True, False, False, False, False)
    assert parse_command("k =4", g, tr).arg == (True, False, False, False, False)
    assert keep_command(()) == "k -" and parse_command("k -", g, tr).arg == (False,) * 5


def test_second_play_on_the_same_data_folder_is_refused(home):
    run(["play", "--seed", "1", "--fast"], ["r", "q"])
    before = _saved(home)
    with hold_lock(home / "game.lock") as other:
        for args in (["play", "--seed", "2", "--fast"], ["play", "--resume", "--fast"]):
            res = run(args, ["y", "q"])
            _one_line_error(res, 1, f"another game is running (pid {other.pid})")
    assert _saved(home) == before
    # The pid a process that has gone left in the file is no lock: the game goes on.
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    (home / "game.lock").write_text(f"{p.pid}\n")
    res = run(["play", "--resume", "--fast"], ["q"])
    assert res.exit_code == 0 and "Game saved" in res.output
    assert lock_is_free(home / "game.lock")


def test_data_folder_that_is_a_file(tmp_path, monkeypatch):
    folder = tmp_path / "somefile"
    folder.write_text("x")
    monkeypatch.setenv(HOME_ENV, str(folder))
    res = run(["play", "--seed", "1", "--fast"], ["q"])
    _one_line_error(res, 1, "data folder", "is not a directory")
    assert "File exists" not in res.output
    res = run(["records"])
    _one_line_error(res, 1, "data folder", "is not a directory")


def test_help_documents_the_data_folder_and_no_color():
    for cmd in ("play", "records"):
        res = run([cmd, "--help"])
        text = " ".join(res.output.split())
        assert "$YAHTZEE_SOLVER_HOME when it is set and not empty" in text
        assert "NO_COLOR" in text


@pytest.mark.parametrize("lang", LANGS)
def test_yacht_help_only_suggests_yacht_boxes(lang):
    tr = Translator(lang)
    yacht = get_rules("yacht")
    g = new_game("yacht", seed=1)
    g.apply_action(Roll())
    text = tr.help(yacht)
    assert "3k" not in text and "s 4k" in text.replace("\u00a0", " ")
    for example in tr.box_examples(yacht):
        parse_command(example, g, tr)  # every suggestion is a valid command
    assert tr.box_examples(get_rules("yahtzee"))[-2 if lang == "en" else -1] == "s 3k"


def test_titles_are_the_rule_sets_titles(home):
    for name in ("yahtzee", "yahtzee-free-joker", "yacht"):
        assert Translator("en").title(get_rules(name)) == get_rules(name).title
    res = run(["play", "--rules", "yacht", "--seed", "1", "--fast"], ["q"])
    assert "Yacht (12 categories)" in res.output and "12 boxes" not in res.output


@pytest.mark.parametrize("cmd", [["play", "--seed", "1", "--fast"], ["records"]])
def test_no_color_turns_colours_off(home, cmd):
    if cmd[0] == "records":
        book = RecordBook.load()
        book.add_game("yahtzee", "solo", 200)
        book.save()
    lines = "r\nq\n"
    coloured = CliRunner().invoke(main, cmd, input=lines, color=True, env={"NO_COLOR": ""})
    assert "\x1b[" in coloured.output  # empty NO_COLOR: colours stay
    (home / "game.json").unlink(missing_ok=True)
    plain = CliRunner().invoke(main, cmd, input=lines, color=True, env={"NO_COLOR": "1"})
    assert plain.exit_code == 0, plain.output
    assert "\x1b[" not in plain.output


@pytest.mark.parametrize("lang, yes, no", [("zh", "是", "否"), ("ja", "はい", "いいえ"), ("zh", "ｙ", "Ｎ"),
                                           ("ja", "y", "n"), ("en", "Yes", "no")])
def test_zero_confirmation_takes_the_languages_answers(home, lang, yes, no):
    g = _position(home, ScoreCard.empty(), (1, 2, 3, 4, 6))
    tr = Translator(lang)
    res = play_from(g, ["s y", no, "s y", yes, "q"], lang)
    assert res.exit_code == 0, res.output
    assert tr("confirm.cancelled") in res.output and tr("confirm.again") not in res.output
    assert _saved(home)["cards"][0]["yahtzee"] == 0


def test_records_reset_takes_the_languages_answers(home):
    book = RecordBook.load()
    book.add_game("yahtzee", "solo", 200)
    book.save()
    run(["records", "--reset", "--lang", "zh"], ["否"])
    assert RecordBook.load().records
    res = run(["records", "--reset", "--lang", "ja"], ["はい"])
    assert res.exit_code == 0 and not RecordBook.load().records


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("rules", ["yahtzee", "yacht", "yatzy"])
def test_help_list_entries_are_never_split(lang, rules):
    from yahtzee_solver.i18n import wrap

    tr = Translator(lang)
    r = get_rules(rules)
    for width in (40, 50, 60, 79):
        out = wrap(tr.help(r), width).splitlines()
        assert all(display_width(line) <= width for line in out)
        for c in range(r.n_categories):
            entry = f"{c + 1} {tr.box(r, c)} ({tr.alias(r, c)})"
            assert any(entry in line for line in out), (entry, out)
        for example in tr.box_examples(r):
            assert any(example in line for line in out), (example, out)
    assert "\u00a0" not in wrap(tr.help(r), None)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("rules", ["yahtzee", "yahtzee-free-joker", "yacht", "yahtzee-no-joker", "yahtzee-no-bonus", "yatzy"])
def test_board_fits_a_narrow_terminal(lang, rules):
    tr = Translator(lang)
    g = new_game(rules, "expert", "me", seed=3)
    g.apply_action(Roll())
    for width in (59, 45):
        lines = [click.unstyle(x) for x in render_board(g, tr, width)]
        assert all(display_width(x) <= width for x in lines), lines
        if width == 45:
            assert not any("|" in x for x in lines)  # stacked, not side by side
        text = "\n".join(lines)
        for c in range(g.rules.n_categories):
            assert tr.box(g.rules, c) in text
    wide = [click.unstyle(x) for x in render_board(g, tr, 120)]
    assert wide == [click.unstyle(x) for x in render_board(g, tr)]  # side by side when there is room
    assert sum("|" in x for x in wide) >= 9


def _screens(monkeypatch, capsys, home, g, answers, size=(80, 24), **options):
    """Run a terminal session on ``g`` (tty, ``size`` columns x rows) typing ``answers``; the screens shown
    at each prompt (unstyled lines, from the last clear), the prompt line not included."""
    monkeypatch.setattr("shutil.get_terminal_size", lambda fallback=(80, 24): os.terminal_size(size))
    monkeypatch.setattr("yahtzee_solver.tui.session.clear_screen", lambda: print("<CLEAR>"))
    screens = []
    typed = iter(answers)

    def ask(text):
        screens.append(click.unstyle(capsys.readouterr().out).split("<CLEAR>")[-1].strip("\n").splitlines())
        return next(typed)

    monkeypatch.setattr("yahtzee_solver.tui.prompt.ask", ask)
    s = Session(g, Translator("en"), fast=True, game_file=home / "game.json", records_file=home / "records.json",
                sleep=lambda t: None, tty=True, **options)
    s.run()
    return screens


def _late_position(home):
    """A solitaire position three boxes from the end (its reasons take milliseconds, an early card's seconds)."""
    done = ("ones", "twos", "threes", "fives", "sixes", "three-of-a-kind", "four-of-a-kind", "full-house",
            "small-straight", "large-straight")
    return _position(home, ScoreCard.from_mapping({k: 0 for k in done}), (4, 4, 4, 2, 6))


@pytest.mark.parametrize("case", ["hint", "why", "hint against the CPU"])
def test_the_practice_notice_shows_with_the_advice_on_an_80x24_terminal(monkeypatch, capsys, home, case):
    # the notice came before the advice and was the first message left out to fit 24 rows: the game
    # never said it had become practice
    tr = Translator("en")
    if case == "why":
        g, answers = _late_position(home), ["why", "q"]
    else:
        g, answers = new_game("yahtzee", "normal" if "CPU" in case else "none", "me", seed=6), ["r", "h", "q"]
    screen = _screens(monkeypatch, capsys, home, g, answers)[-1]
    visible = screen[-23:]  # with the prompt line: 24 rows
    head = tr("hint.title") if case != "why" else tr("why.head", figures="")[:12]
    assert tr("practice.hint") in visible and any(line.startswith(head) for line in visible)
    if case != "why":  # the reasons alone are taller than the room under the board
        assert len(screen) <= 23 and screen[0].startswith("Yahtzee (official rules")  # the title stays

@pytest.mark.parametrize("answer, after", [("n", "Not scored."), ("y", "You scored 1 in Ones.")])
def test_confirm_loss_says_once_that_the_game_is_practice(monkeypatch, capsys, home, answer, after):
    # the notice was drawn with the question, then again on the screen after the answer
    tr = Translator("en")
    g = _position(home, ScoreCard.empty(), (1, 2, 3, 4, 5), rolls_used=3)
    screens = _screens(monkeypatch, capsys, home, g, ["s 1", answer, "q"], confirm_loss=5.0)
    assert [sum(tr("practice.confirm")[:30] in line for line in s) for s in screens] == [0, 1, 0]
    assert len(screens[1]) <= 23 and screens[1][0].startswith("Yahtzee (official rules")
    assert after in screens[2]


def test_session_on_a_60_column_terminal_fits(monkeypatch, capsys, home):
    monkeypatch.setattr("shutil.get_terminal_size", lambda fallback=(80, 24): os.terminal_size((60, 24)))
    g = new_game("yahtzee", "normal", "me", seed=6)
    answers = iter(["r", "h", "help", "q"])
    monkeypatch.setattr("yahtzee_solver.tui.prompt.ask", lambda text: next(answers))
    monkeypatch.setattr(click, "clear", lambda: None)
    s = Session(g, Translator("zh"), fast=True, game_file=home / "game.json",
                records_file=home / "records.json", sleep=lambda t: None, tty=True)
    assert s.run() == "quit"
    out = click.unstyle(capsys.readouterr().out)
    assert all(display_width(line) <= 60 for line in out.splitlines()), \
        [line for line in out.splitlines() if display_width(line) > 60]


def test_clear_screen_is_not_colour(monkeypatch, capsys):
    """NO_COLOR turns colours off but a terminal screen is still cleared."""
    from yahtzee_solver.tui import board as play_mod

    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    play_mod.clear_screen()
    assert "\033[2J" in capsys.readouterr().out


def test_first_without_an_opponent_is_a_usage_error(home):
    res = run(["play", "--first", "cpu"])
    assert res.exit_code == 2
    assert "--first cpu needs an opponent" in res.output
    assert "Traceback" not in res.output


def test_japanese_names_the_dice_with_one_word_everywhere():
    """The board, the review and the web page call the dice サイコロ (ダイス only inside the Yacht box
    name フォーダイス, "Four Dice")."""
    from yahtzee_solver.i18n.text import REVIEW
    from yahtzee_solver.web.text import WEB_TEXT

    texts = {**MESSAGES["ja"], **{f"review.{k}": v for k, v in REVIEW.get("ja", {}).items()},
             **{f"web.{k}": v for k, v in WEB_TEXT["ja"].items()}}
    strings = [(k, v) for k, v in texts.items() if isinstance(v, str)]
    assert any("サイコロ" in v for _, v in strings)
    assert [k for k, v in strings if "ダイス" in v.replace("フォーダイス", "")] == []


# -- numba's settings ---------------------------------------------------------------------------------
@pytest.mark.parametrize("setting, needle", [({"NUMBA_THREADING_LAYER": "bogus"}, "NUMBA_THREADING_LAYER='bogus'"),
                                             ({"NUMBA_NUM_THREADS": "0"}, "NUMBA_NUM_THREADS='0'")])
def test_play_against_master_refuses_a_numba_setting_before_it_changes_anything(home, monkeypatch, setting,
                                                                                needle):
    # master's moves need the compiled kernels: the setting used to be refused only at the CPU's first
    # move, after a "y" had abandoned the saved game (counted as a loss) and a new game had begun
    run(["play", "--seed", "1", "--vs", "normal", "--fast"], ["r", "q"])
    before, ledger = _saved(home), _ledger(home)
    for name, value in setting.items():
        monkeypatch.setenv(name, value)
    res = run(["play", "--seed", "2", "--vs", "master", "--fast"], ["y", "q"])
    _one_line_error(res, 2, needle)
    assert "abandon" not in res.output.lower()
    assert (_saved(home), _ledger(home)) == (before, ledger)
    assert RecordBook.load().get("yahtzee", "normal", practice=True).games == 0
    # a saved game against master is refused on --resume too, before it is touched
    for name in setting:
        monkeypatch.delenv(name)
    (home / "game.json").unlink()
    (home / "ledger.json").unlink()
    run(["play", "--seed", "3", "--vs", "master", "--fast"], ["r", "q"])
    before, ledger = _saved(home), _ledger(home)
    for name, value in setting.items():
        monkeypatch.setenv(name, value)
    res = run(["play", "--resume", "--fast"], ["q"])
    _one_line_error(res, 2, needle)
    assert (_saved(home), _ledger(home)) == (before, ledger)


@pytest.mark.parametrize("args", [[], ["--vs", "expert"], ["--vs", "normal"]])
def test_play_without_master_does_not_import_numba_nor_refuse_its_settings(tmp_path, args):
    # the interpreted kernels run no thread of numba's: the setting is not theirs to refuse
    env = {**os.environ, HOME_ENV: str(tmp_path / "home"), "NUMBA_THREADING_LAYER": "bogus"}
    code = ("import sys\nfrom yahtzee_solver.cli import main\n"
            f"try:\n    main(['play', '--seed', '1', '--fast', *{args!r}], standalone_mode=False)\n"
            "finally:\n    print('numba' in sys.modules, file=sys.stderr)\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, input="r\nh\nq\n", capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and out.stderr.strip().splitlines()[-1] == "False", out.stderr[-2000:]
    assert "Game saved" in out.stdout, out.stdout[-2000:]


def test_a_hint_in_a_game_already_practice_says_nothing_new(home):
    # a chosen seed makes the game practice, said when it starts; the hint adds its reason without a
    # second notice that the game "now" counts as practice
    tr = Translator("en")
    res = run(["play", "--fast", "--seed", "3"], ["r", "h", "q"])
    assert res.exit_code == 0, res.output
    assert "Chosen seed" in res.output and tr("practice.hint") not in res.output
    assert "hint" in _ledger(home)["practice"]
