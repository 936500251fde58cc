"""The winning chances in the play hint against a CPU, and master as a game opponent."""

from __future__ import annotations

import pytest

from yahtzee_solver.dice import KEEPS, ROLL_SUBKEEPS, roll_index
from yahtzee_solver.strategy.advisor import Advisor
from yahtzee_solver.tui.win_hint import WIN_HINT_MAX_OPEN, win_hint_lines
from yahtzee_solver.strategy.win_chances import WinHints
from yahtzee_solver.game import CPU, HUMAN, Roll, cpu_actions, new_game
from yahtzee_solver.i18n import Translator
from yahtzee_solver.strategy.objectives import WinSource, opponent_pmf
from yahtzee_solver.strategy.levels import make_strategy
from yahtzee_solver.solver.table import load_table


def _play_until(st, open_boxes):
    """Both sides play the expert's moves until the human has ``open_boxes`` open boxes at a turn start."""
    expert = make_strategy("expert", st.rules)
    while not (st.current == HUMAN and st.rolls_used == 0 and len(st.cards[HUMAN].open_categories) == open_boxes):
        for action in cpu_actions(st, expert):
            st.apply_action(action)
    return st


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_win_hint_lines(lang):
    st = _play_until(new_game("yahtzee", opponent="expert", seed=4), 5)  # 9 or 10 open in all: best response
    tr = Translator(lang)
    table = load_table("yahtzee")
    st.apply_action(Roll())
    lines = win_hint_lines(st, tr, WinHints()(st, Advisor("yahtzee", table, jit=False)))
    assert len(lines) >= 2 and "*" in lines[1]
    # the best shown chance is the best keep's value of the win DP
    src = WinSource("yahtzee", opponent_pmf("yahtzee", st.cards[CPU], "expert", table))
    E = src.keep_values(st.cards[HUMAN].key, st.cards[HUMAN].total, st.rerolls_left)
    subkeeps = ROLL_SUBKEEPS[roll_index(st.sorted_dice)]
    best = E[subkeeps[subkeeps >= 0]].max()
    from yahtzee_solver.cli.target_query import format_probability

    assert format_probability(float(best)) in lines[1] or best < 1e-4
    assert lines[-1] == "  " + tr("hint.win_note")  # the CPU plays on: a best response as seen now
    rows = lines[1:-1]
    # the keeps are in the player's language, and the columns line up in terminal cells
    assert all(("keep " in row or "reroll all" in row) == (lang == "en") for row in rows if "%" in row and ":" not in row)
    from yahtzee_solver.i18n import display_width

    assert len({display_width(row) for row in rows}) == 1


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_win_hint_before_the_first_roll(lang):
    st = _play_until(new_game("yahtzee", opponent="normal", seed=8), 5)
    tr = Translator(lang)
    table = load_table("yahtzee")
    wc = WinHints()(st, Advisor("yahtzee", table, jit=False))
    src = WinSource("yahtzee", opponent_pmf("yahtzee", st.cards[CPU], "normal", table))
    from yahtzee_solver.cli.target_query import format_probability

    assert wc.kind == "roll" and wc.options == () and wc.start == pytest.approx(src.probability(st.cards[HUMAN]))
    assert win_hint_lines(st, tr, wc) == [
        "  " + tr("hint.win_start", level=tr.level("normal"), p=format_probability(wc.start)),
        "  " + tr("hint.win_note")]


def _ranked_like_policy(options):
    """Descending chance; equal chances: the higher expected total first."""
    keys = [(o.win, o.expected) for o in options]
    return keys == sorted(keys, reverse=True)


def test_win_chances_are_the_win_dp_for_every_option():
    st = _play_until(new_game("yahtzee", opponent="expert", seed=11), 5)
    table = load_table("yahtzee")
    adv = Advisor("yahtzee", table, jit=False)
    hints = WinHints()
    src = WinSource("yahtzee", opponent_pmf("yahtzee", st.cards[CPU], "expert", table))
    me = st.cards[HUMAN]
    st.apply_action(Roll())
    r = roll_index(st.sorted_dice)
    wc = hints(st, adv)
    assert wc.kind == "keep" and wc.shown and not wc.exact and wc.level == "expert" and wc.open_boxes == 5
    E = src.keep_values(me.key, me.total, st.rerolls_left)
    subkeeps = [int(k) for k in ROLL_SUBKEEPS[r] if k >= 0]
    assert sorted(o.keep for o in wc.options) == sorted(KEEPS[k] for k in subkeeps)
    P = src.box_values(me.key, me.total, r)
    best_box = max((c for c in range(len(P)) if P[c] == P[c]), key=lambda c: P[c])
    ev_box = {o.category: o.expected for o in adv.box_options(me, st.sorted_dice)}
    for k in subkeeps[:-1]:
        o = wc.of_keep(KEEPS[k])
        assert o.win == pytest.approx(E[k], abs=1e-12) and o.box is None
    # keeping all five rerolls nothing: it scores now in the box of best chance (there is no pass)
    stop = wc.of_keep(KEEPS[subkeeps[-1]])
    assert stop.win == pytest.approx(P[best_box], abs=1e-12) and P[stop.box] == P[best_box]
    assert stop.expected == ev_box[stop.box]
    ev = {o.keep: o.expected for o in adv.keep_options(me, st.sorted_dice, st.rerolls_left)}
    assert all(o.expected == ev[o.keep] for o in wc.options if o is not stop) and _ranked_like_policy(wc.options)
    # the boxes for the dice as they are: the DP's box values
    boxes = hints.boxes(st, adv)
    assert {o.box: o.win for o in boxes} == pytest.approx({c: P[c] for c in range(len(P)) if P[c] == P[c]}, abs=1e-12)
    assert _ranked_like_policy(boxes)
    with pytest.raises(KeyError):
        wc.of_box(0)
    # after the last roll: the same values as boxes
    st.apply_action(Roll())
    st.apply_action(Roll())
    wc = hints(st, adv)
    P = src.box_values(me.key, me.total, roll_index(st.sorted_dice))
    assert wc.kind == "box" and _ranked_like_policy(wc.options)
    assert {o.box: o.win for o in wc.options} == pytest.approx({c: P[c] for c in range(len(P)) if P[c] == P[c]})
    assert wc.best.win == max(o.win for o in wc.options)


def test_win_hints_solve_once_per_cpu_card(monkeypatch):
    import yahtzee_solver.strategy.objectives as objectives

    calls = []
    real = objectives.opponent_pmf
    monkeypatch.setattr(objectives, "opponent_pmf", lambda *a, **k: calls.append(a[1].key) or real(*a, **k))
    st = _play_until(new_game("yahtzee", opponent="expert", seed=3), 5)
    adv = Advisor("yahtzee", jit=False)
    hints = WinHints()
    first = hints(st, adv)
    st.apply_action(Roll())
    hints(st, adv)
    st.apply_action(Roll())
    hints(st, adv)
    assert len(calls) == 1  # one DP for the whole turn
    expert = make_strategy("expert", st.rules)
    while st.current == HUMAN:  # the player scores
        for action in cpu_actions(st, expert):
            st.apply_action(action)
    with pytest.raises(ValueError):
        hints(st, adv)  # the CPU's turn
    while st.current == CPU:  # the CPU plays: its card changes
        for action in cpu_actions(st, expert):
            st.apply_action(action)
    assert hints(st, adv).start != first.start and len(calls) == 2


@pytest.mark.parametrize("level,model", [("expert", "expert"), ("master", "optimal")])
def test_win_chances_are_the_exact_two_player_value_within_scope(level, model):
    """Both cards within the exact scope: every option's chance is the duel solve's, the note says exact."""
    from yahtzee_solver.strategy.duel import DEFAULT_MAX_OPEN, DuelSource

    st = _play_until(new_game("yahtzee", opponent=level, seed=11), 3)
    me, cpu = st.cards[HUMAN], st.cards[CPU]
    assert len(me.open_categories) + len(cpu.open_categories) <= DEFAULT_MAX_OPEN
    table = load_table("yahtzee")
    adv = Advisor("yahtzee", table, jit=False)
    hints = WinHints()
    src = DuelSource("yahtzee", cpu, model, table=table)
    wc = hints(st, adv)
    assert wc.kind == "roll" and wc.exact and wc.duel and wc.start == src.probability(me)
    st.apply_action(Roll())
    wc = hints(st, adv)
    E = src.keep_values(me.key, me.total, st.rerolls_left)
    assert wc.exact and wc.duel
    from yahtzee_solver.dice import roll_index
    from yahtzee_solver.strategy.policy import Policy

    stop = Policy(src).stop_option(me.key, me.total, roll_index(st.dice))[1]
    for o in wc.options:
        # keeping all five is no reroll: it scores now, at the best box's chance (there is no pass)
        assert o.win == (stop if len(o.keep) == 5 else E[KEEPS.index(o.keep)])
    assert _ranked_like_policy(wc.options)
    tr = Translator("en")
    assert win_hint_lines(st, tr, wc)[-1] == "  " + tr("hint.win_exact_duel", n=wc.n_open)
    assert "exact" in tr("hint.win_exact_duel", n=wc.n_open)
    # the exact chance is at least the best response to the CPU's distribution (expert: a fixed policy)
    if model == "expert":
        best_response = WinSource("yahtzee", opponent_pmf("yahtzee", cpu, "expert", table)).keep_values(
            me.key, me.total, st.rerolls_left)
        assert max(o.win for o in wc.options) >= max(best_response[KEEPS.index(o.keep)] for o in wc.options) - 1e-12


def test_no_win_chances_in_solitaire():
    st = new_game("yahtzee", opponent="none", seed=1)
    st.apply_action(Roll())
    assert WinHints()(st, Advisor("yahtzee", jit=False)) is None
    assert win_hint_lines(st, Translator("en"), None) == []


def test_win_hint_waits_for_late_game():
    st = _play_until(new_game("yahtzee", opponent="normal", seed=2), WIN_HINT_MAX_OPEN + 1)
    st.apply_action(Roll())
    lines = win_hint_lines(st, Translator("en"), WinHints()(st, Advisor("yahtzee", jit=False)))
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


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_win_list_boxes_read_like_the_expected_score_hint_with_one_percent_format(lang):
    """A box in the win list is labelled as in the expected-score hint (``hint.box``), and every chance,
    tiny or exact, is a percentage of the same format, the columns aligned."""
    from yahtzee_solver.cli.target_query import format_probability
    from yahtzee_solver.i18n import display_width
    from yahtzee_solver.strategy.win_chances import WinChances, WinOption

    st = new_game("yahtzee", opponent="expert", seed=4)
    tr = Translator(lang)
    wins = [1.0, 0.000201, 8.31e-07, 0.0]
    options = tuple(WinOption(None, box, points, w, 250.0 - box)
                    for box, points, w in zip((12, 10, 9, 11), (19, 0, 0, 0), wins))
    wc = WinChances("expert", 2, True, False, 100, None, "box", options)
    lines = win_hint_lines(st, tr, wc)
    rows = lines[1:-1]
    assert len(rows) == 4
    for row, o in zip(rows, options):
        assert tr("hint.box", box=tr.box(st.rules, o.box), points=o.points) in row
        assert format_probability(o.win) in row
        assert row.split("%")[0].split()[-1].replace(".", "").replace("e-", "").isdigit()
    assert "100 %" in rows[0] and "0 %" in rows[3] and "8.3e-5 %" in rows[2]
    assert len({display_width(row) for row in rows}) == 1


@pytest.mark.parametrize("p,text", [
    (0.0, "0 %"), (1.0, "100 %"), (0.9999997, "100.00 %"), (0.0463, "4.63 %"), (0.5, "50.00 %"),
    (0.001408056, "0.14 %"), (7.511449e-05, "0.0075 %"), (7.5e-07, "7.5e-5 %"), (3.2e-14, "3.2e-12 %"),
])
def test_format_probability_is_one_percentage_format(p, text):
    from yahtzee_solver.cli.target_query import format_probability

    assert format_probability(p) == text
    assert len(text) <= 8 or p < 1e-13  # dist's seven columns fit 80 cells


@pytest.mark.parametrize("level", ["beginner", "normal", "expert", "master"])
def test_the_best_response_note_is_a_bound_only_against_a_fixed_cpu(level):
    """Before the exact endgame the hint is the best response to the expert-modelled distribution: a lower
    bound against a CPU that plays a fixed policy, an estimate against master (who plays to win)."""
    from yahtzee_solver.strategy.win_chances import WinChances, win_note

    tr = Translator("en")
    wc = WinChances(level=level, open_boxes=9, shown=True, exact=False, cpu_total=100, start=0.5, kind="roll",
                    options=(), duel=False, n_open=18)
    note = win_note(tr, wc)
    if level == "master":
        assert note == tr("hint.win_note_master") and "not a bound" in note
    else:
        assert note == tr("hint.win_note") and "lower bound" in note
