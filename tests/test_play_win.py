"""The winning chances in the play hint against a CPU, and master as a game opponent."""

from __future__ import annotations

import pytest

from yahtzee_solver.dice import ROLL_SUBKEEPS, roll_index
from yahtzee_solver.tui.win_hint import WIN_HINT_MAX_OPEN, win_hint_lines
from yahtzee_solver.game import CPU, HUMAN, Roll, cpu_actions, new_game
from yahtzee_solver.i18n import Translator
from yahtzee_solver.objectives import WinSource, opponent_pmf
from yahtzee_solver.players import make_strategy
from yahtzee_solver.table import load_table


def _play_until(st, open_boxes):
    """Both sides play the expert's moves until the human has ``open_boxes`` open boxes at a turn start."""
    expert = make_strategy("expert", st.rules)
    while not (st.current == HUMAN and st.rolls_used == 0 and len(st.cards[HUMAN].open_categories) == open_boxes):
        for action in cpu_actions(st, expert):
            st.apply_action(action)
    return st


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_win_hint_lines(lang):
    st = _play_until(new_game("yahtzee", opponent="expert", seed=4), 3)
    tr = Translator(lang)
    table = load_table("yahtzee")
    st.apply_action(Roll())
    lines = win_hint_lines(st, tr, table)
    assert len(lines) >= 2 and "*" in lines[1]
    # the best shown chance is the best keep's value of the win DP
    src = WinSource("yahtzee", opponent_pmf("yahtzee", st.cards[CPU], "expert", table))
    E = src.keep_values(st.cards[HUMAN].key, st.cards[HUMAN].total, st.rerolls_left)
    subkeeps = ROLL_SUBKEEPS[roll_index(st.sorted_dice)]
    best = E[subkeeps[subkeeps >= 0]].max()
    from yahtzee_solver.cli.target_query import format_probability

    assert format_probability(float(best)) in lines[1] or best < 1e-4


def test_win_hint_waits_for_late_game():
    st = _play_until(new_game("yahtzee", opponent="normal", seed=2), WIN_HINT_MAX_OPEN + 1)
    st.apply_action(Roll())
    lines = win_hint_lines(st, Translator("en"), load_table("yahtzee"))
    assert lines == ["  (your chance of winning is shown once 5 or fewer of your boxes are open)"]


def test_master_is_a_game_opponent():
    st = new_game("yahtzee", opponent="master", first="cpu", seed=1)
    assert st.config.opponent == "master"


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_play_vs_master_starts(tmp_path, monkeypatch, lang):
    from clihelpers import run

    monkeypatch.setenv("YAHTZEE_SOLVER_HOME", str(tmp_path))
    res = run("play", "--vs", "master", "--first", "cpu", "--seed", "1", "--fast", "--lang", lang, input="r\nh\nq\n")
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    if lang == "en":  # the terminal game's hint against a CPU ends with the winning-chance lines
        assert "your chance of winning is shown once 5 or fewer of your boxes are open" in res.output
