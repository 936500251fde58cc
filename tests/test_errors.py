"""Every error a public call raises on bad input derives from YahtzeeError and from the builtin it replaced.

The README promises it ("Every error derives from YahtzeeError and a builtin"); each case
here raised a bare builtin (or nothing) before issue 16.4.
"""

from __future__ import annotations

import dataclasses

import pytest

from yahtzee_solver import ScoreCard
from yahtzee_solver.errors import YahtzeeError
from yahtzee_solver.rules import get_rules


def _win_chances_position():
    from yahtzee_solver.game import HUMAN, Roll, cpu_actions, new_game
    from yahtzee_solver.strategy.levels import make_strategy

    st = new_game("yahtzee", opponent="expert", seed=4)
    expert = make_strategy("expert", "yahtzee")
    while not (st.current == HUMAN and st.rolls_used == 0 and len(st.cards[HUMAN].open_categories) == 1):
        for action in cpu_actions(st, expert):
            st.apply_action(action)
    st.apply_action(Roll())
    return st


def _win_chances(what):
    from yahtzee_solver.strategy.advisor import Advisor
    from yahtzee_solver.game import HUMAN, Score
    from yahtzee_solver.strategy.win_chances import WinHints

    st = _win_chances_position()
    wc = WinHints()(st, Advisor("yahtzee", jit=False))
    if what == "keep":
        return wc.of_keep((7, 7))
    if what == "box":
        return wc.of_box(99)
    st.apply_action(Score(st.cards[HUMAN].open_categories[0]))  # the player's last box: the game is over
    return WinHints()(st, Advisor("yahtzee", jit=False))


def _record_unfinished_game():
    from yahtzee_solver.game import new_game
    from yahtzee_solver.play.records import file_finished_game

    return file_finished_game(new_game("yahtzee", seed=1), store=None, records_file="/nonexistent/records.json")


def _bad_rules(**change):
    return dataclasses.replace(get_rules("yahtzee"), **change)


CASES = {
    "dice None": (lambda: __import__("yahtzee_solver.dice", fromlist=["x"]).parse_dice(None), ValueError),
    "roll of a number": (lambda: __import__("yahtzee_solver.dice", fromlist=["x"]).roll_index(12345), ValueError),
    "box index -1": (lambda: ScoreCard.empty().with_box(-1, 20), IndexError),
    "box index 13": (lambda: ScoreCard.empty().with_box(13, 20), IndexError),
    "box index 'chance'": (lambda: ScoreCard.empty().with_box("chance", 20), IndexError),
    "zero warning of box -1": (lambda: _win_chances_position().zero_warning(-1), IndexError),
    "table state": (lambda: __import__("yahtzee_solver.solver.table", fromlist=["x"]).load_table("yacht").value(0, 5, 0),
                    ValueError),
    "language": (lambda: __import__("yahtzee_solver.i18n", fromlist=["x"]).Translator("xx"), ValueError),
    "joker convention": (lambda: _bad_rules(joker="sometimes"), ValueError),
    "categories out of order": (lambda: _bad_rules(categories=get_rules("yahtzee").categories[::-1]), ValueError),
    "no keep of the position": (lambda: _win_chances("keep"), KeyError),
    "no box of the position": (lambda: _win_chances("box"), KeyError),
    "chances after the game": (lambda: _win_chances("cpu"), ValueError),
    "records of a game in progress": (_record_unfinished_game, ValueError),
    "records key": (lambda: __import__("yahtzee_solver.play.records", fromlist=["x"]).RecordBook().add_game(
        "poker", "solo", 100), ValueError),
}


@pytest.mark.parametrize("name", list(CASES))
def test_public_errors_are_yahtzee_errors(name):
    call, builtin = CASES[name]
    with pytest.raises(YahtzeeError) as info:
        call()
    assert isinstance(info.value, builtin), type(info.value).__mro__
    msg = str(info.value)
    assert msg and "\n" not in msg


def test_a_bad_outcome_counts_nothing():
    from yahtzee_solver.play.records import RecordBook

    book = RecordBook()
    with pytest.raises(YahtzeeError, match="'tie'"):
        book.add_game("yahtzee", "expert", 200, outcome="tie")
    assert book.add_game("yahtzee", "expert", 150, outcome="win").record.games == 1
