"""Luck and skill in a game review: final score = value of the empty card - skill loss + luck.

The skill loss is the sum of the decisions' expected losses (the advisor's "vs best"),
the luck the change in expected final total at every roll of the dice.  The identity is
tested on 100 seeded games of each CPU level; the luck of a roll is checked against
its definition (``before`` is the chance node's expected value: the average of
``after`` over every outcome of the roll, with its multinomial probability).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from clihelpers import run, run_json
from yahtzee_solver.analysis.review import review_game
from yahtzee_solver.game import cpu_actions, new_game
from yahtzee_solver.i18n import Translator
from yahtzee_solver.play.history import add_finished_game
from yahtzee_solver.state import ScoreCard
from yahtzee_solver.strategy.advisor import Advisor
from yahtzee_solver.strategy.levels import make_strategy


@pytest.fixture(scope="module")
def advisor():
    return Advisor("yahtzee")  # compiled: 300 games of 39+ queries each


def _play(level: str, seed: int, *, jit: bool = True):
    rng = np.random.default_rng(1000 + seed)  # the beginner's blunders, seeded too
    player = make_strategy(level, "yahtzee", rng=rng, jit=jit)
    state = new_game("yahtzee", "none", seed=seed)
    while not state.is_terminal():
        for a in cpu_actions(state, player):
            state.apply_action(a)
    return state


@pytest.mark.parametrize("level", ["beginner", "normal", "expert"])
def test_final_score_is_start_value_minus_skill_loss_plus_luck(level, advisor):
    lucks = []
    for seed in range(100):
        state = _play(level, seed)
        rev = review_game(state, 0, advisor=advisor)
        assert rev.complete and rev.expected_end == rev.final_score == state.cards[0].total
        assert rev.skill_loss == rev.total_loss
        want = rev.start_value - rev.skill_loss + rev.luck
        assert abs(rev.final_score - want) < 1e-9, (level, seed, rev.final_score, want)
        # every roll of the game is a chance node: one first roll a turn, one more per keep
        keeps = sum(1 for d in rev.decisions if d.kind == "keep" and d.choice != d.dice)
        assert len(rev.rolls) == 13 + keeps
        assert [r.roll for r in rev.rolls if r.roll == 1] == [1] * 13
        lucks.append(rev.luck)
    assert np.std(lucks) > 10  # luck differs from game to game (not a constant)


def test_expert_games_are_all_luck(advisor):
    for seed in range(5):
        rev = review_game(_play("expert", seed), 0, advisor=advisor)
        assert rev.skill_loss == 0.0
        assert rev.luck == pytest.approx(rev.final_score - rev.start_value, abs=1e-9)


def _outcomes(kept):
    """Every roll of the dice not kept, with its probability: (sorted five dice, probability)."""
    n = 5 - len(kept)
    out: dict = {}
    for faces in itertools.product(range(1, 7), repeat=n):
        dice = tuple(sorted(kept + faces))
        out[dice] = out.get(dice, 0.0) + 6.0 ** -n
    return out


def test_the_luck_of_a_roll_averages_to_zero_over_its_outcomes(advisor):
    """``before`` is the expected value of the chance node, ``after`` the value of the dice with best play."""
    state = _play("normal", 7)
    rev = review_game(state, 0, advisor=advisor)
    adv = advisor
    card = ScoreCard.empty("yahtzee")
    checked = 0
    boxes = iter(d for d in rev.decisions if d.kind == "box")
    for r in rev.rolls:
        while True:  # the card at this roll's turn
            if r.turn == len([b for b in card.boxes if b is not None]) + 1:
                break
            d = next(boxes)
            points, _, bonus = card.box_points(d.dice)
            card = card.with_box(d.choice, points[d.choice], bonus)
        rl = 3 - r.roll

        def value(dice, card=card, rl=rl):
            return adv.hint(card, dice, rl)[0].expected

        assert r.after == pytest.approx(value(r.dice), abs=1e-12)
        if r.roll == 1:
            assert r.before == pytest.approx(adv.expected_final(card), abs=1e-9)
        if checked < 6 and (r.roll == 1 or len(r.kept) >= 2):  # the average over every outcome
            mean = sum(p * value(d) for d, p in _outcomes(r.kept).items())
            assert r.before == pytest.approx(mean, abs=1e-9)
            checked += 1
    assert checked == 6


def test_an_unfinished_game_ends_at_its_expected_final_total(advisor):
    normal = make_strategy("normal", "yahtzee")
    state = new_game("yahtzee", "none", seed=4)
    while sum(v is not None for v in state.cards[0].boxes) < 5:
        for a in cpu_actions(state, normal):
            state.apply_action(a)
    from yahtzee_solver.analysis.review import review_log

    rev = review_log(state.log, "yahtzee", 0, advisor=advisor)
    assert not rev.complete
    assert rev.expected_end == pytest.approx(advisor.expected_final(state.cards[0]), abs=1e-12)
    assert abs(rev.expected_end - (rev.start_value - rev.skill_loss + rev.luck)) < 1e-9


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("YAHTZEE_SOLVER_HOME", str(tmp_path))
    return tmp_path


def test_review_json_and_text_carry_luck_and_skill(home):
    state = _play("normal", 3, jit=False)
    add_finished_game(state)
    want = review_game(state, 0)
    out = run_json("review")
    assert out["luck"] == pytest.approx(want.luck, abs=1e-12)
    assert out["skill_loss"] == pytest.approx(want.total_loss, abs=1e-12) == out["total_loss"]
    assert out["final_score"] == state.cards[0].total
    assert abs(out["final_score"] - (out["start_value"] - out["skill_loss"] + out["luck"])) < 1e-9
    assert sum(r["luck"] for r in out["rolls"]) == pytest.approx(out["luck"], abs=1e-9)
    assert len(out["rolls"]) == len(want.rolls) and {"turn", "roll", "kept", "dice", "luck"} <= set(out["rolls"][0])
    for lang in ("en", "zh", "ja"):
        res = run("review", "--lang", lang)
        assert res.exit_code == 0, res.output
        tr = Translator(lang)
        line = tr("review.luck_skill", score=want.final_score, start=f"{want.start_value:.2f}",
                  skill=f"{want.skill_loss:.2f}", luck=f"{want.luck:+.2f}")
        assert line.split("\n")[0][:10] in res.output
        for number in (f"{want.start_value:.2f}", f"{want.skill_loss:.2f}", f"{want.luck:+.2f}"):
            assert number in res.output, (lang, number)


def test_the_end_of_game_summary_shows_luck_and_skill():
    from yahtzee_solver.tui.review import summary_lines

    state = _play("normal", 5, jit=False)
    rev = review_game(state, 0)
    for lang in ("en", "zh", "ja"):
        text = "\n".join(summary_lines(state, Translator(lang)))
        assert f"{rev.luck:+.2f}" in text and f"{rev.skill_loss:.2f}" in text and f"{rev.start_value:.2f}" in text
