"""The review's winning chance given up in the endgame of a game against a CPU (analysis/review.py).

The games are played through the game engine with seeded dice; the CPU's card
at the start of each of my turns is read off the engine's state while it is
played (not from the log).  Each endgame decision is valued again by a fresh
:class:`DuelSolver` per game: the keep values from the solver's raw keep
array (keeping all five: the best box now, no pass), the box values as they
are; the chance given up is the best of those minus the chosen one.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pytest

from clihelpers import run, run_json
from yahtzee_solver.analysis.review import WIN_ZERO, review_game
from yahtzee_solver.dice import ROLL_OFFSET, ROLL_SUBKEEPS, keep_index, roll_index
from yahtzee_solver.game import CPU, HUMAN, cpu_actions, new_game
from yahtzee_solver.i18n import Translator
from yahtzee_solver.play.history import add_finished_game
from yahtzee_solver.strategy.duel import DEFAULT_MAX_OPEN, DuelSolver, DuelSource
from yahtzee_solver.strategy.levels import make_strategy

R = "yahtzee"


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("YAHTZEE_SOLVER_HOME", str(tmp_path))
    return tmp_path


def play(level: str, seed: int, first: str = "me", human: str = "normal"):
    """A finished game against the CPU ``level``; the human side played by ``human``.

    Returns the state and the CPU's card at the start of each of the human's turns.
    """
    state = new_game(R, level, first=first, seed=seed)
    players = {HUMAN: make_strategy(human, R), CPU: make_strategy(level, R, rng=np.random.default_rng(seed))}
    cpu_cards = []
    while not state.is_terminal():
        if state.current == HUMAN and state.rolls_used == 0:
            cpu_cards.append(state.cards[CPU])
        for a in cpu_actions(state, players[state.current]):
            state.apply_action(a)
    return state, cpu_cards


def direct(src: DuelSource, card, dice, rolls_left, choice):
    """(chosen, best) winning chance of a decision, read straight off the solver's arrays."""
    r = roll_index(dice)
    boxes = src.box_values(card.key, card.total, r)
    if rolls_left == 0:
        return boxes[choice], np.nanmax(boxes)
    kv = src.keep_values(card.key, card.total, rolls_left)
    ks = [k for k in ROLL_SUBKEEPS[r] if k >= 0]
    vals = {k: (np.nanmax(boxes) if k == ROLL_OFFSET + r else kv[k]) for k in ks}  # all five: score now
    return vals[keep_index(choice)], max(vals.values())


GAMES = [("expert", 3, "me"), ("normal", 4, "cpu"), ("master", 5, "me"), ("beginner", 6, "cpu")]


@pytest.mark.parametrize("level,seed,first", GAMES)
def test_win_lost_is_a_direct_duel_ranking_of_the_same_positions(level, seed, first):
    state, cpu_cards = play(level, seed, first)
    t0 = time.perf_counter()
    rev = review_game(state, HUMAN, winning_chances=True)
    seconds = time.perf_counter() - t0
    model = "optimal" if level == "master" else level
    assert rev.win_model == model and rev.win_max_open == DEFAULT_MAX_OPEN
    solver = DuelSolver(R, model)
    cards = {}
    card = None
    n_win = 0
    for d in rev.decisions:
        # my card at this decision: replay the boxes scored before this turn
        if d.turn not in cards:
            cards[d.turn] = _card_before(state, d.turn)
        card = cards[d.turn]
        opp = cpu_cards[d.turn - 1]
        n_me, n_opp = len(card.open_categories), len(opp.open_categories)
        assert n_me - n_opp in (0, 1)  # my turn: the cards are always in turn in a game
        if n_me + n_opp > DEFAULT_MAX_OPEN:
            assert d.win_lost is None and d.win_choice is None and d.win_best is None
            continue
        n_win += 1
        mine, best = direct(DuelSource(R, opp, model, solver=solver), card, d.dice, d.rolls_left, d.choice)
        assert d.win_choice == pytest.approx(mine, abs=1e-12)
        assert d.win_best == pytest.approx(best, abs=1e-12)
        assert d.win_lost >= 0.0
        assert d.win_lost == pytest.approx(max(best - mine, 0.0), abs=1e-12)
        if mine >= best - WIN_ZERO:  # the duel-optimal choice (to the tie tolerance): nothing given up
            assert d.win_lost == 0.0
        if d.choice == d.best and d.kind == "box":
            assert d.win_lost == 0.0 or d.win_best > d.win_choice
    assert n_win >= 6  # the last turns of the game, three decisions each at most
    assert rev.win_lost == pytest.approx(sum(d.win_lost for d in rev.win_decisions), abs=1e-15)
    assert seconds < 60  # interactive on a quiet machine: a few seconds (the README has the figure)


def _card_before(state, turn):
    """My card at the start of turn ``turn``, from the engine's log (scores of player 0 only)."""
    from yahtzee_solver.state import ScoreCard

    card = ScoreCard.empty(R)
    n = 0
    for e in state.log:
        if e.player == HUMAN and e.kind == "score":
            if n == turn - 1:
                break
            dice = tuple(sorted(e.dice))
            pts, _, bonus = card.box_points(dice)
            card = card.with_box(e.category, pts[e.category], bonus)
            n += 1
    return card


def test_some_endgame_decision_gives_up_a_chance_and_the_expert_human_gives_up_little():
    """A normal player against the expert gives something up somewhere over a few games; the duel-optimal
    choice (win_best's option) is then not the chosen one."""
    lost = []
    for seed in (3, 7, 8):
        state, _ = play("expert", seed)
        rev = review_game(state, HUMAN, winning_chances=True)
        lost += [d.win_lost for d in rev.win_decisions]
    assert all(x >= 0 for x in lost) and max(lost) > 1e-6


def test_no_column_without_a_cpu_or_for_the_cpu_itself():
    state, _ = play("expert", 3)
    rev = review_game(state, CPU, winning_chances=True)
    assert rev.win_model is None and all(d.win_lost is None for d in rev.decisions)
    assert review_game(state, HUMAN).win_model is None  # not asked for (the end-of-game summary)
    solo = new_game(R, "none", seed=2)
    normal = make_strategy("normal", R)
    while not solo.is_terminal():
        for a in cpu_actions(solo, normal):
            solo.apply_action(a)
    rev = review_game(solo, HUMAN, winning_chances=True)
    assert rev.win_model is None and rev.to_dict()["win_lost"] is None


def test_review_json_and_text_carry_the_column(home):
    state, _ = play("expert", 3)
    add_finished_game(state)
    # --no-chances: the table review's chart (tests/test_table_review.py) is not what is checked here
    out = run_json("review", "--no-chances")
    want = review_game(state, HUMAN, winning_chances=True)
    assert out["win_model"] == "expert" and out["win_max_open"] == DEFAULT_MAX_OPEN
    got = [d["win_lost"] for d in out["decisions"]]
    assert got == [d.win_lost for d in want.decisions]
    assert any(x is None for x in got) and any(x is not None for x in got)
    assert out["n_win_decisions"] == sum(x is not None for x in got)
    cpu = run_json("review", "--cpu", "--no-chances")
    assert cpu["win_model"] is None and all(d["win_lost"] is None for d in cpu["decisions"])
    for lang in ("en", "zh", "ja"):
        tr = Translator(lang)
        res = run("review", "--lang", lang, "--no-chances")
        assert res.exit_code == 0, res.output
        lines = res.output.splitlines()
        h = next(i for i, line in enumerate(lines) if tr("review.col_loss") in line)
        assert tr("review.col_win") in lines[h]
        # the rows outside the endgame leave the column empty; inside, a signed percentage or 0
        rows = lines[h + 1: lines.index("", h)]
        assert len(rows) == len(want.decisions)
        for line, d in zip(rows, want.decisions):
            cell = line.rstrip().rsplit(None, 1)[-1]
            if d.win_lost is None:
                assert not cell.endswith("%")
            elif d.win_lost == 0:
                assert cell == "0"
            else:
                assert cell == f"-{100 * d.win_lost:.2f}%" or (cell == "-0.00%" and 100 * d.win_lost < 0.005)
        note = tr("review.win_note", model=tr("review.win_model.expert"), k=DEFAULT_MAX_OPEN)
        assert note[:10] in res.output
        # the total line says "given up": its figure is unsigned, not a double negative
        total = want.win_lost or 0.0
        n_win = sum(d.win_lost is not None for d in want.decisions)
        assert tr("review.win_total", total=f"{100 * total:.2f}%" if total else "0", n=n_win) in res.output
    assert math.isfinite(out["win_lost"])


@pytest.mark.parametrize("level,seed,first", [("expert", 21, "cpu"), ("master", 22, "me")])
def test_the_review_and_the_play_hint_give_an_endgame_decision_one_chance(level, seed, first):
    """At every endgame decision of a game, the hint's chance of the option chosen is the review's."""
    from yahtzee_solver.game import Score
    from yahtzee_solver.strategy.advisor import Advisor
    from yahtzee_solver.strategy.win_chances import WinHints

    state = new_game(R, level, first=first, seed=seed)
    players = {HUMAN: make_strategy("normal", R), CPU: make_strategy(level, R)}
    hints, adv = WinHints(), Advisor(R)
    seen = []
    while not state.is_terminal():
        human = state.current == HUMAN and state.dice is not None and WinHints.is_duel(state)
        acts = cpu_actions(state, players[state.current])
        if human:
            wc = hints(state, adv)
            dice = state.sorted_dice
            if isinstance(acts[-1], Score):
                if state.rerolls_left:  # a stand: the keep of all five, then its box
                    seen.append(wc.of_keep(dice).win)
                    seen.append({o.box: o.win for o in hints.boxes(state, adv)}[acts[-1].category])
                else:
                    seen.append(wc.of_box(acts[-1].category).win)
            else:
                seen.append(wc.of_keep(players[HUMAN].choose_keep(state.card, dice, state.rerolls_left)).win)
        for a in acts:
            state.apply_action(a)
    rev = review_game(state, HUMAN, winning_chances=True)
    assert [d.win_choice for d in rev.win_decisions] == seen and len(seen) >= 6
