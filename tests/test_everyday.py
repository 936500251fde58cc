"""The everyday paths a new player takes through ``play`` and ``records`` (language, start-up messages,
the lock, input typed with an IME, keeping dice, long lines, undo, history)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from yahtzee_solver.cli import main
from yahtzee_solver.files import HOME_ENV
from yahtzee_solver.i18n import Translator, locale_lang

from clihelpers import lock_is_free

NO_LOCALE = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"}


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    monkeypatch.setattr("yahtzee_solver.play.session.fresh_seed", lambda: 4242)
    for k, v in NO_LOCALE.items():
        monkeypatch.setenv(k, v)
    return tmp_path / "home"


def run(args, lines=(), env=None):
    return CliRunner().invoke(main, args, input="".join(f"{line}\n" for line in lines), env=env)


# -- 5. the language stays with the game ----------------------------------------------------------------
def test_the_language_is_kept_with_the_game_and_used_by_records(home):
    ja = Translator("ja")
    res = run(["play", "--lang", "ja", "--fast"], ["r", "q"])
    assert res.exit_code == 0 and ja("quit.saved") in res.output
    res = run(["play", "--resume", "--fast"], ["q"])
    assert res.exit_code == 0
    assert ja("quit.saved") in res.output and "Game saved" not in res.output
    res = run(["records"])
    assert res.exit_code == 0 and ja("rec.none") in res.output
    # --lang still wins, and is kept from then on.
    res = run(["play", "--resume", "--lang", "en", "--fast"], ["q"])
    assert "Game saved" in res.output
    assert "Game saved" in run(["play", "--resume", "--fast"], ["q"]).output


@pytest.mark.parametrize("env, lang", [
    ({"LANG": "ja_JP.UTF-8"}, "ja"), ({"LANG": "zh_CN.UTF-8"}, "zh"), ({"LC_ALL": "zh_TW.UTF-8", "LANG": "ja_JP"}, "zh"),
    ({"LANG": "de_DE.UTF-8"}, "en"), ({"LC_ALL": "C", "LANG": "ja_JP.UTF-8"}, "en"), ({}, "en"),
])
def test_the_language_defaults_from_the_locale(home, env, lang):
    assert locale_lang(environ=env) == lang
    res = run(["play", "--fast"], ["q"], env={**NO_LOCALE, "LANG": "", **env})
    assert Translator(lang)("quit.saved") in res.output


# -- 6. start-up messages stay under the board ----------------------------------------------------------
def _on_a_terminal(monkeypatch):
    monkeypatch.setattr("yahtzee_solver.tui.session.on_terminal", lambda: True)
    monkeypatch.setattr("yahtzee_solver.tui.session.clear_screen", lambda: print("<CLEAR>"))


def _first_screen(output: str) -> str:
    """What is on the screen when the player is first asked for a command."""
    return output.split("\n> ")[0].split("<CLEAR>")[-1]


@pytest.mark.parametrize("args, lines, needle", [
    (["play", "--vs", "normal", "--fast"], [], "You go first."),
    (["play", "--resume", "--fast"], ["r", "q"], "Game resumed: Yahtzee"),
])
def test_start_up_messages_are_shown_under_the_board(home, monkeypatch, args, lines, needle):
    _on_a_terminal(monkeypatch)
    if "--resume" in args:
        run(["play", "--fast"], lines)
    res = run(args, ["q"])
    assert res.exit_code == 0, res.output
    screen = _first_screen(res.output)
    assert needle in screen and "Upper section" in screen.split(needle)[0]


def test_cpu_goes_first_and_warnings_stay_on_screen(home, monkeypatch):
    _on_a_terminal(monkeypatch)
    home.mkdir(parents=True)
    (home / "game.json").write_text("garbage")
    res = run(["play", "--vs", "expert", "--first", "cpu", "--fast"], ["q"])
    assert res.exit_code == 0, res.output
    screen = _first_screen(res.output)
    assert "CPU (expert) goes first." in screen and "cannot be restored" in screen


# -- 7. the lock ----------------------------------------------------------------------------------------
def test_a_lock_left_with_our_own_pid_is_stale(home):
    """In a container the game is pid 1 on every run: a lock naming our pid that we do not hold is stale."""
    home.mkdir(parents=True)
    (home / "game.lock").write_text(f"{os.getpid()}\n")
    res = run(["play", "--fast"], ["q"])
    assert res.exit_code == 0, res.output
    assert "another game is running" not in res.output and "Game saved" in res.output
    assert lock_is_free(home / "game.lock")


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_release_the_lock(home, sig):
    env = {**os.environ, HOME_ENV: str(home)}
    p = subprocess.Popen([sys.executable, "-m", "yahtzee_solver", "play", "--fast"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    p.stdin.write(b"r\n")
    p.stdin.flush()
    deadline = time.monotonic() + 60
    while not (home / "game.json").exists() or json.loads((home / "game.json").read_text())["rolls_used"] != 1:
        assert time.monotonic() < deadline and p.poll() is None
        time.sleep(0.1)
    assert not lock_is_free(home / "game.lock")
    p.send_signal(getattr(signal, sig))
    p.communicate(timeout=30)
    assert p.returncode != 0
    assert lock_is_free(home / "game.lock")
    res = run(["play", "--resume", "--fast"], ["q"])  # the game is still there, at the same roll
    assert res.exit_code == 0 and "roll 1 of 3" in res.output


# -- 8. full-width input from an IME ----------------------------------------------------------------------
@pytest.mark.parametrize("typed, means", [
    ("ｒ", "r"), ("ｓ　９", "s 9"), ("k １", "k 1"), ("k 1，2", "k 1,2"), ("k 1、2", "k 1,2"), ("ｋ　ａ、ｃ", "k a,c"),
    ("Ｋ ５５", "k 55"), ("ｈ", "h"), ("ｑ", "q"),
])
def test_full_width_commands_mean_what_they_say(typed, means):
    from yahtzee_solver.game import Roll, new_game
    from yahtzee_solver.tui.prompt import parse_command

    tr = Translator("ja")
    g = new_game(seed=1)
    g.apply_action(Roll())
    g.dice = (1, 2, 5, 5, 6)
    assert parse_command(typed, g, tr) == parse_command(means, g, tr)


def test_full_width_input_at_the_prompt(home):
    res = run(["play", "--lang", "ja", "--fast"], ["ｒ", "ｋ　ａ、ｃ", "ｑ"])
    assert res.exit_code == 0, res.output
    ja = Translator("ja")
    assert ja("err.unknown_command", cmd="ｒ") not in res.output
    assert json.loads((home / "game.json").read_text())["held"] == [True, False, True, False, False]


# -- 9. keeping by position and by face cannot be confused --------------------------------------------
def test_k_4_keeps_a_four_and_says_so(home):
    from yahtzee_solver.game import Roll, new_game
    from yahtzee_solver.tui.prompt import parse_command

    tr = Translator("en")
    g = new_game(seed=1)
    g.apply_action(Roll())
    g.dice = (5, 6, 5, 6, 4)
    assert parse_command("k 4", g, tr).arg == (False, False, False, False, True)  # the 4, not the die at 4
    assert parse_command("k d", g, tr).arg == (False, False, False, True, False)  # position d, by letter
    res = run(["play", "--fast"], ["r", "k a", "q"])
    d = json.loads((home / "game.json").read_text())["dice"]
    rest = " ".join(map(str, sorted(d[1:])))
    assert f"You keep {d[0]}; r rerolls {rest}." in res.output
    screen = [ln for ln in res.output.splitlines() if ln.split() == list("abcde")]
    assert screen, "the dice are labelled a-e"


# -- 10. rough edges ------------------------------------------------------------------------------------
def test_a_long_line_is_not_echoed_whole(home):
    res = run(["play", "--fast"], ["z" * 3000, "r", "s " + "y" * 3000, "k " + "x" * 3000, "q"])
    assert res.exit_code == 0
    shown = [line for line in res.output.splitlines() if not line.startswith("> ")]  # not the typed lines
    assert max(len(line) for line in shown) < 200
    assert "unknown command 'zzzzzzzzzzzzzzzzzzzzzzz…'" in res.output


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_dice_legend_is_never_broken_at_40_columns(lang):
    import click

    from yahtzee_solver.game import Roll, new_game
    from yahtzee_solver.i18n import display_width
    from yahtzee_solver.tui.board import render_dice

    tr = Translator(lang)
    g = new_game(seed=1)
    g.apply_action(Roll())
    lines = [click.unstyle(x) for x in render_dice(g, tr, 39)]
    assert all(display_width(x) <= 39 for x in lines), lines
    assert any(tr("kept_legend") in x for x in lines)


def test_messages_never_push_the_title_off_an_80x24_screen(home, monkeypatch, capsys):
    import os as _os

    from yahtzee_solver.game import new_game
    from yahtzee_solver.tui.session import Session

    monkeypatch.setattr("shutil.get_terminal_size", lambda fallback=(80, 24): _os.terminal_size((80, 24)))
    monkeypatch.setattr("yahtzee_solver.tui.session.clear_screen", lambda: print("<CLEAR>"))
    g = new_game("yahtzee", "normal", "me", seed=3)
    s = Session(g, Translator("en"), fast=True, tty=True, notices=[("You go first.", {})])
    for i in range(12):
        s.note(f"message {i}")
    s.draw()
    screen = capsys.readouterr().out.split("<CLEAR>")[-1].strip("\n").splitlines()
    assert len(screen) <= 23  # with the prompt line: 24
    assert screen[0].startswith("Yahtzee (official rules") and "You go first." in screen
    assert "message 11" in screen and "message 0" not in screen


def test_q_at_a_yes_no_question_means_no(home):
    from test_cli_play import _position, play_from
    from yahtzee_solver.state import ScoreCard

    g = _position(home, ScoreCard.empty(), (1, 2, 3, 4, 6))
    res = play_from(g, ["s y", "q", "q"])
    assert res.exit_code == 0
    assert "Not scored." in res.output and "please answer" not in res.output


def test_end_screen_against_the_cpu_shows_wins_losses_draws(home, monkeypatch):
    from test_cli_play import scripted_game

    g, lines = scripted_game("yahtzee", "beginner", "me", seed=4242)
    res = run(["play", "--vs", "beginner", "--fast"], lines)
    assert res.exit_code == 0, res.output
    w = g.winner()
    won, lost = int(w == 0), int(w == 1)
    assert f"games 1, wins {won}, losses {lost}, draws {1 - won - lost}," in res.output


# -- 11. undo and confirm-loss ---------------------------------------------------------------------------
def test_undo_the_last_score_before_the_next_roll(home):
    """'s 1' meant 's 11' with 1-2-3-4-5 showing: u takes it back, the dice stay, the game is practice."""
    from test_cli_play import _position, play_from
    from yahtzee_solver.play.records import RecordBook
    from yahtzee_solver.state import ScoreCard

    g = _position(home, ScoreCard.empty(), (1, 2, 3, 4, 5), rolls_used=3)
    res = play_from(g, ["s 1", "u", "s 11", "q"])
    assert res.exit_code == 0, res.output
    assert "You scored 1 in Ones." in res.output and "u undoes it" in res.output
    assert "Score in Ones undone" in res.output and "counts as practice" in res.output
    card = json.loads((home / "game.json").read_text())["cards"][0]
    assert card["ones"] is None and card["large-straight"] == 40
    assert "undo" in json.loads((home / "ledger.json").read_text())["game"]["practice"]
    # Not after the next roll, and not against the CPU.
    res = play_from(g, ["s 1", "r", "u", "q"])
    assert "nothing to undo" in res.output
    assert RecordBook.load().get("yahtzee", "solo").games == 0


def test_undo_is_refused_against_the_cpu(home):
    res = run(["play", "--vs", "normal", "--fast"], ["r", "r", "r", "s c", "u", "q"])
    assert res.exit_code == 0 and "nothing to undo" in res.output


def test_undone_game_resumes_and_verifies(home):
    res = run(["play", "--fast"], ["r", "r", "r", "s c", "u", "s 1", "q"])
    assert res.exit_code == 0, res.output
    res = run(["play", "--resume", "--fast"], ["q"])
    assert res.exit_code == 0 and "Game resumed" in res.output, res.output


def test_confirm_loss_asks_before_a_costly_choice(home):
    from test_cli_play import _position, play_from
    from yahtzee_solver.state import ScoreCard

    g = _position(home, ScoreCard.empty(), (1, 2, 3, 4, 5), rolls_used=3)
    res = play_from(g, ["s 1", "n", "s 11", "q"], confirm_loss=5.0)
    assert res.exit_code == 0, res.output
    assert "Scoring in Ones loses" in res.output and "s 11 (Large Straight)" in res.output
    assert "Not scored." in res.output
    card = json.loads((home / "game.json").read_text())["cards"][0]
    assert card["ones"] is None and card["large-straight"] == 40  # the best box: no question


def test_confirm_loss_option_on_the_command_line(home):
    res = run(["play", "--confirm-loss", "1000", "--fast"], ["r", "k -", "r", "q"])
    assert res.exit_code == 0 and "loses" not in res.output
    res = run(["play", "--resume", "--confirm-loss", "-1"])
    assert res.exit_code == 2


# -- 12. history -------------------------------------------------------------------------------------------
def test_history_shows_earlier_turns_the_cpus_included(home):
    res = run(["play", "--vs", "expert", "--fast"], ["r", "r", "r", "s c", "r", "history", "q"])
    assert res.exit_code == 0, res.output
    text = res.output.split("Turns so far:")[1]
    assert "Turn 1, You:" in text and "Turn 1, CPU (expert):" in text
    assert " in Chance" in text


def test_confirm_loss_asks_before_a_costly_reroll(home):
    from test_cli_play import _position, play_from
    from yahtzee_solver.state import ScoreCard

    g = _position(home, ScoreCard.empty(), (6, 6, 6, 6, 6), rolls_used=1)
    res = play_from(g, ["k -", "r", "n", "q"], confirm_loss=5.0)
    assert res.exit_code == 0, res.output
    assert "Rerolling with this keep loses" in res.output and "Not rolled." in res.output
    assert json.loads((home / "game.json").read_text())["rolls_used"] == 1  # not rolled


def test_confirm_loss_keeps_the_zero_question(home):
    """--confirm-loss adds a question; the zero-score question still comes first and still applies."""
    from test_cli_play import _position, play_from
    from yahtzee_solver.state import ScoreCard

    g = _position(home, ScoreCard.empty(), (2, 3, 6, 5, 5), rolls_used=1)
    res = play_from(g, ["s 1", "n", "q"], confirm_loss=10.0)
    assert res.exit_code == 0, res.output
    assert "Score 0 in Ones? Chance would score 21." in res.output and "Not scored." in res.output
    assert json.loads((home / "game.json").read_text())["cards"][0]["ones"] is None
    # Yes to the zero question, then the loss question is asked as well.
    res = play_from(g, ["s 1", "y", "n", "q"], confirm_loss=0.0)
    assert "Score 0 in Ones?" in res.output and "Scoring in Ones loses" in res.output
    assert json.loads((home / "game.json").read_text())["cards"][0]["ones"] is None


def test_confirm_loss_says_why_the_game_is_practice(home):
    """The loss question makes the game practice for its own reason, not 'Hint used'."""
    from test_cli_play import _position, play_from
    from yahtzee_solver.state import ScoreCard

    g = _position(home, ScoreCard.empty(), (1, 2, 3, 4, 5), rolls_used=3)
    res = play_from(g, ["s 1", "n", "q"], confirm_loss=5.0)
    assert "Hint used" not in res.output
    assert "--confirm-loss" in res.output and "counts as practice" in res.output
    assert json.loads((home / "ledger.json").read_text())["game"]["practice"] == ["confirm"]


def test_confirm_loss_must_be_a_finite_number(home):
    for bad in ("nan", "inf", "-inf"):
        res = run(["play", "--confirm-loss", bad, "--fast"], ["q"])
        assert res.exit_code == 2, (bad, res.output)
        lines = [ln for ln in res.output.splitlines() if ln.strip()]
        assert sum(ln.startswith("Error:") for ln in lines) == 1 and bad in res.output, res.output
        assert not (home / "game.json").exists()


def test_the_abandon_question_is_wrapped_on_a_terminal(home, monkeypatch):
    _on_a_terminal(monkeypatch)
    monkeypatch.setenv("COLUMNS", "80")
    run(["play", "--vs", "normal", "--fast"], ["r", "q"])
    res = run(["play", "--fast"], ["n"])
    assert res.exit_code == 0 and "saved game is kept" in res.output, res.output
    question = res.output.split("<CLEAR>")[0]
    assert "Abandon it" in question or "abandon" in question.lower()
    assert all(len(line) < 80 for line in question.splitlines()), question
    words = Translator("en")("confirm.new_game_cpu", rules="R", opponent="O", round=1, turns=13).split()
    assert " ".join(question.split()).count(" ".join(words[-6:])) == 1  # no word cut in two


def test_end_of_input_at_the_abandon_question_keeps_the_saved_game(home):
    run(["play", "--vs", "normal", "--fast"], ["r", "q"])
    before = (home / "game.json").read_text()
    res = run(["play", "--fast"])  # no input at all: Ctrl-D
    assert res.exit_code == 0, res.output
    assert "Aborted" not in res.output and "saved game is kept" in res.output
    assert (home / "game.json").read_text() == before
