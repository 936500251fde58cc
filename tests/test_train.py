"""``yahtzee-solve train``: positions, grading, the proficiency score and its sessions file (issue 18.4).

Exact values come from the advisor (the play hint's values); the expert's answers come from the
``expert`` CPU (:class:`~yahtzee_solver.strategy.players.ExpertStrategy`), an independent caller of
the policy.  Interpreted kernels throughout (no numba start-up); a few positions per test.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from yahtzee_solver.analysis.training import (
    KINDS, STRONG, Answer, Mistake, SessionRecord, TrainingStats, classify, draw_positions, grade,
    history_mistakes, play_positions, training_path, trend_bars,
)
from yahtzee_solver.cli import main

from clihelpers import CtrlC
from yahtzee_solver.game import cpu_actions, new_game
from yahtzee_solver.play.history import History, add_finished_game
from yahtzee_solver.state import ScoreCard, parse_card
from yahtzee_solver.strategy.advisor import Advisor
from yahtzee_solver.strategy.players import BeginnerStrategy, ExpertStrategy


@pytest.fixture(scope="module")
def advisor():
    return Advisor("yahtzee", jit=False)


@pytest.fixture(scope="module")
def expert():
    return ExpertStrategy("yahtzee", jit=False)


def expert_command(expert, pos) -> str:
    """What the expert CPU plays at ``pos``, typed as a prompt command."""
    if pos.rolls_left:
        keep = expert.choose_keep(pos.card, pos.dice, pos.rolls_left)
        if len(keep) < 5:
            return "k " + ("".join(map(str, keep)) or "-")
    return f"s {expert.choose_box(pos.card, pos.dice) + 1}"


def run(args, text=""):
    return CliRunner().invoke(main, ["train", *args], input=text)


def sessions():
    return json.loads(training_path().read_text())["sessions"]


def finished_game(strategy, seed):
    state = new_game("yahtzee", seed=seed)
    while not state.is_terminal():
        for a in cpu_actions(state, strategy):
            state.apply_action(a)
    return state


# -- the command ---------------------------------------------------------------------------------
def test_expert_answers_score_zero_from_an_empty_history(advisor, expert):
    positions = draw_positions(advisor, np.random.default_rng(5), 4)
    answers = "".join(expert_command(expert, p) + "\n" for p in positions)
    res = run(["--count", "4", "--seed", "5"], answers)
    assert res.exit_code == 0, res.output
    assert "best options are close" in res.output
    assert res.output.count("is the best: it cost nothing") == 4
    assert "Seed 5 (the same positions again: --seed 5)." in res.output
    (s,) = sessions()
    assert s["positions"] == 4 and s["source"] == "sampled" and s["seed"] == 5
    assert s["proficiency"] == 0 and s["total_loss"] == 0


def test_library_grade_of_the_expert_is_zero_and_other_answers_cost_the_hints_loss(advisor, expert):
    positions = play_positions(advisor, np.random.default_rng(11), 2)
    assert len(positions) > 40
    for pos in positions:
        cmd = expert_command(expert, pos)
        ans = Answer(box=int(cmd[2:]) - 1) if cmd.startswith("s") else Answer(
            keep=() if cmd == "k -" else tuple(int(c) for c in cmd[2:]))
        assert grade(advisor, pos, ans).cost == 0
    # any other keep costs exactly the advisor's "vs best" of that keep (the hint's number)
    pos = next(p for p in positions if p.rolls_left == 2)
    opts = advisor.keep_options(pos.card, pos.dice, 2)
    for o in opts:
        g = grade(advisor, pos, Answer(keep=o.keep))
        assert g.cost == pytest.approx(o.loss, abs=1e-9)
    # scoring a box with rolls left costs the best keep's value minus that box's value
    for b in advisor.box_options(pos.card, pos.dice):
        g = grade(advisor, pos, Answer(box=b.category))
        assert g.cost == pytest.approx(opts[0].expected - b.expected, abs=1e-9)


def test_train_from_a_real_history_draws_the_kinds_of_its_mistakes(advisor, expert):
    state = finished_game(BeginnerStrategy("yahtzee", rng=np.random.default_rng(1)), seed=3)
    add_finished_game(state)
    (entry,) = History.load().entries
    mistakes = history_mistakes([(entry.log, 0)], "yahtzee", advisor)
    assert mistakes and all(m.loss > 0 and m.kind in KINDS for m in mistakes)
    positions = draw_positions(advisor, np.random.default_rng(8), 3, mistakes)
    answers = "".join(expert_command(expert, p) + "\n" for p in positions)
    res = run(["--from-history", "--count", "3", "--seed", "8"], answers)
    assert res.exit_code == 0, res.output
    assert "costliest past decisions" in res.output
    (s,) = sessions()
    assert s["source"] == "history" and s["positions"] == 3 and s["proficiency"] == 0


def test_from_history_with_no_history_says_so_and_samples_close_positions():
    res = run(["--from-history", "--count", "1", "--seed", "2"], "q\n")
    assert res.exit_code == 0, res.output
    # no game to read is not a game without a loss: it says so and how to get a history
    assert "game in your history yet: finish a game" in res.output, res.output
    assert "No past decision of yours lost points" not in res.output
    assert "No position answered: nothing saved." in res.output
    assert not training_path().exists()


def test_bad_input_gets_one_line_errors_and_the_session_goes_on(advisor, expert):
    seed = next(s for s in range(50) if draw_positions(advisor, np.random.default_rng(s), 2)[0].rolls_left)
    positions = draw_positions(advisor, np.random.default_rng(seed), 2)
    good = [expert_command(expert, p) for p in positions]
    text = "bogus\nk 7\ns 99\nr\n" + good[0] + "\n" + "help\nxyz 1\n" + good[1] + "\n"
    res = run(["--count", "2", "--seed", str(seed)], text)
    assert res.exit_code == 0, res.output
    for msg in ("unknown command 'bogus'", "invalid face '7'", "unknown box '99'", "'r' is not an answer",
                "unknown command 'xyz'", "answer as in a game"):
        assert res.output.count(msg) == 1, msg
    assert "Traceback" not in res.output
    (s,) = sessions()
    assert s["positions"] == 2 and s["proficiency"] == 0


def test_quitting_keeps_the_answers_given_and_a_costly_answer_is_counted(advisor):
    positions = draw_positions(advisor, np.random.default_rng(4), 3)
    pos = positions[0]
    # a legal answer that is not the best: the worst keep, or the worst box
    if pos.rolls_left:
        worst = advisor.keep_options(pos.card, pos.dice, pos.rolls_left)[-1]
        cmd, loss = "k " + ("".join(map(str, worst.keep)) or "-"), worst.loss
    else:
        worst = advisor.box_options(pos.card, pos.dice)[-1]
        cmd, loss = f"s {worst.category + 1}", worst.loss
    res = run(["--count", "3", "--seed", "4"], cmd + "\nq\n")
    assert res.exit_code == 0, res.output
    (s,) = sessions()
    assert s["positions"] == 1
    assert s["proficiency"] == pytest.approx(loss, abs=1e-9)
    assert f"it cost {loss:.2f} points" in res.output


@pytest.mark.parametrize("ctrl_c", [True, False])
def test_ctrl_c_saves_the_answers_given_and_exits_130(advisor, expert, ctrl_c):
    # Ctrl-C at the prompt saved the session and exited 0, as the end of input does (still: 0)
    pos = draw_positions(advisor, np.random.default_rng(4), 3)[0]
    text = expert_command(expert, pos) + "\n"
    res = CliRunner().invoke(main, ["train", "--count", "3", "--seed", "4"], input=CtrlC(text) if ctrl_c else text)
    assert res.exit_code == (130 if ctrl_c else 0), res.output
    assert "Session saved" in res.output and "Seed 4 (the same positions again" in res.output
    (s,) = sessions()
    assert s["positions"] == 1


def test_same_seed_same_positions(advisor):
    a = draw_positions(advisor, np.random.default_rng(9), 5)
    b = draw_positions(advisor, np.random.default_rng(9), 5)
    assert [p.key for p in a] == [p.key for p in b]
    assert len({p.key for p in a}) == 5


def test_sampling_prefers_close_decisions(advisor):
    pool = [p for p in play_positions(advisor, np.random.default_rng(0), 8) if np.isfinite(p.gap)]
    drawn = draw_positions(advisor, np.random.default_rng(1), 30)
    # exp(-gap / 1 point) weights: the drawn gaps average well under the gaps of optimal play
    assert np.mean([p.gap for p in drawn]) < 0.5 * np.mean([p.gap for p in pool])


def test_mistakes_of_one_kind_draw_that_kind_at_other_positions(advisor):
    pool = play_positions(advisor, np.random.default_rng(2), 4)
    chased = [p for p in pool if p.kind == "yahtzee_chase"]
    assert chased
    mistakes = [Mistake("yahtzee_chase", p.key, 1.0) for p in chased]
    drawn = draw_positions(advisor, np.random.default_rng(3), 4, mistakes)
    assert len(drawn) == 4
    assert all(p.kind == "yahtzee_chase" for p in drawn)
    assert not {p.key for p in drawn} & {m.key for m in mistakes}


def test_classify_the_decision_kinds():
    empty = ScoreCard.empty("yahtzee")
    # a 0 in Ones with every box open, against Chance
    assert classify(empty, (2, 3, 4, 6, 6), 0, Answer(box=0), Answer(box=12)) == "early_scratch"
    assert classify(empty, (1, 2, 3, 4, 4), 2, Answer(keep=(1, 2, 3, 4)), Answer(keep=(4, 4))) == "straight_vs_pairs"
    assert classify(empty, (5, 5, 5, 1, 2), 2, Answer(keep=(5, 5, 5)), Answer(keep=(1, 2, 5))) == "yahtzee_chase"
    no_y = parse_card("yahtzee=0", "yahtzee")
    assert classify(no_y, (5, 5, 5, 1, 2), 2, Answer(keep=(5, 5, 5)), Answer(keep=(5, 5))) == "upper_bonus"
    assert classify(empty, (2, 3, 4, 5, 6), 2, Answer(keep=(2, 3, 4, 5, 6)), Answer(keep=(2, 3, 4, 5))) == "stand"
    late = parse_card("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=0", "yahtzee")
    assert classify(late, (1, 1, 2, 2, 6), 0, Answer(box=12), Answer(box=8)) == "box"


# -- the sessions file and --stats -----------------------------------------------------------------
def test_stats_with_no_sessions_says_so():
    res = run(["--stats"])
    assert res.exit_code == 0, res.output
    assert res.output.strip() == "No training sessions yet: yahtzee-solve train starts one."
    from yahtzee_solver.i18n import Translator

    for lang in ("zh", "ja"):
        res = run(["--stats", "--lang", lang])
        assert res.exit_code == 0 and res.output.strip() == Translator(lang)("stats.none")


def test_stats_shows_a_table_and_a_chart_of_the_saved_sessions():
    st = TrainingStats.load()
    for i, loss in enumerate((4.0, 1.0, 0.5)):
        st.add(SessionRecord(f"2026-12-0{i + 1}T10:00:00Z", "yahtzee", "sampled", i, 10, loss,
                             {"keep": [10, loss]}))
    assert [s.proficiency for s in TrainingStats.load().sessions] == [0.4, 0.1, 0.05]
    res = run(["--stats"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    rows = [ln for ln in lines if ln.startswith(("1 ", "2 ", "3 "))]
    assert len(rows) == 3
    assert "0.400" in rows[0] and "█" * 24 in rows[0]
    assert " * " in rows[1] and " * " in rows[2] and " * " not in rows[0]  # under 0.2: strong
    assert "Mean of the last 3: 0.183" in res.output
    assert "By kind of decision (points lost per decision, positions): which dice to keep 0.183 (30)." in res.output


def test_stats_refuses_other_options():
    res = run(["--stats", "--count", "3"])
    assert res.exit_code == 2
    assert "drop --count" in res.output


def test_a_damaged_sessions_file_is_set_aside_and_reported():
    path = training_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"format": "yahtzee_solver training sessions", "version": 1, "sessions": [{"date": 5}]}')
    st = TrainingStats.load()
    assert st.sessions == [] and "unreadable" in st.problem
    assert not path.exists() and list(path.parent.glob("training.json.corrupt-*"))


def test_a_newer_sessions_file_is_refused_and_left_alone():
    path = training_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"format": "yahtzee_solver training sessions", "version": 99, "sessions": []}')
    res = run(["--stats"])
    assert res.exit_code == 1
    assert "version 99" in res.output and len(res.output.strip().splitlines()) == 1
    assert path.exists()


def test_trend_bars_scale_to_the_largest():
    bars = trend_bars([1.0, 0.5, 0.0, 0.0625], width=8)
    assert bars[0] == "█" * 8 and bars[1] == "█" * 4 and bars[2] == "" and bars[3] == "▌"
    assert STRONG == 0.2


def test_the_ranking_is_plays_hint_for_the_same_position(advisor, tmp_path, capsys):
    """The rows shown after an answer are the rows ``play``'s hint (``h``) prints at that position."""
    import click

    from yahtzee_solver.i18n import Translator
    from yahtzee_solver.tui.session import Session
    from yahtzee_solver.tui.train import position_state, ranking_lines

    tr = Translator("en")
    positions = draw_positions(advisor, np.random.default_rng(6), 6)
    assert {p.rolls_left for p in positions} & {1, 2}
    for pos in positions:
        session = Session(position_state(pos), tr, game_file=tmp_path / "game.json", tty=False)
        capsys.readouterr()
        session.hint()
        hint = [click.unstyle(x) for x in capsys.readouterr().out.splitlines()]
        g = grade(advisor, pos, pos.best)
        shown = [click.unstyle(x) for x in ranking_lines(advisor, g, tr)]
        assert shown[: len(hint)] == hint


# -- the coach's games in the history, and the reasons -------------------------------------------------------
def _coach_history(advisor):
    """A two-player coach game in the history: Ann plays as the expert (no mistake), Bob as a beginner."""
    from gamehelpers import table_log
    from yahtzee_solver.play.history import HistoryEntry, add_entry

    ann = finished_game(ExpertStrategy("yahtzee", jit=False), seed=21)
    bob = finished_game(BeginnerStrategy("yahtzee", rng=np.random.default_rng(2)), seed=22)
    log = table_log((ann, bob))
    entry = HistoryEntry.of_table("yahtzee", ("Ann", "Bob"), log, (ann.cards[0].total, bob.cards[0].total))
    add_entry(entry)
    return entry


def test_train_from_a_coach_history_reads_every_player_or_the_one_named(advisor, expert):
    entry = _coach_history(advisor)
    assert not history_mistakes([(entry.log, 0)], "yahtzee", advisor)  # Ann, the first player, lost nothing
    bobs = history_mistakes([(entry.log, 1)], "yahtzee", advisor)
    assert bobs
    positions = draw_positions(advisor, np.random.default_rng(3), 2, bobs)
    answers = "".join(expert_command(expert, p) + "\n" for p in positions)
    for args in ([], ["--player", "bob"]):  # every player's decisions, or Bob's
        res = run(["--from-history", *args, "--count", "2", "--seed", "3"], answers)
        assert res.exit_code == 0, res.output
        assert "costliest past decisions" in res.output
        assert res.output.count("is the best: it cost nothing") == 2
    assert [s["source"] for s in sessions()] == ["history", "history"]
    assert all(s["proficiency"] == 0 for s in sessions())
    res = run(["--from-history", "--player", "Ann", "--count", "1", "--seed", "3"], "q\n")
    assert res.exit_code == 0 and "No past decision of yours lost points" in res.output
    from clihelpers import assert_clean_error

    assert_clean_error(run(["--from-history", "--player", "Zed"]), 2, "unknown player 'Zed'", "Ann, Bob")
    assert_clean_error(run(["--player", "Ann"]), 2, "--from-history")


def test_the_reason_after_an_answer_is_hint_whys(advisor):
    """The sentence shown is that of the reasons (strategy.reasons, worded as hint --why) of the best
    option, then of the answer when it is another."""
    from yahtzee_solver.analysis.training import _position
    from yahtzee_solver.i18n import Translator
    from yahtzee_solver.strategy.reasons import option_reasons
    from yahtzee_solver.tui.train import run_training
    from yahtzee_solver.tui.why import sentence

    card = parse_card("ones=3,twos=6,threes=9,fours=12,3k=20,4k=0,fh=25,ls=40,chance=22", "yahtzee")
    pos, _ = _position(advisor, card, (2, 5, 5, 5, 6), 2)
    worst = advisor.keep_options(card, pos.dice, 2)[-1].keep
    for lang in ("en", "zh", "ja"):
        tr = Translator(lang)
        why = option_reasons(card, pos.dice, 2, [pos.best.keep, worst])
        best_text = sentence(tr, card.rules, why.options[pos.best.keep], why.start)
        mine_text = sentence(tr, card.rules, why.options[worst], why.start)
        best_cmd, worst_cmd = "k " + "".join(map(str, pos.best.keep)), "k " + ("".join(map(str, worst)) or "-")
        for cmd, shown in ((best_cmd, [best_text]), (worst_cmd, [best_text, mine_text])):
            out: list[str] = []
            graded = run_training([pos], advisor, tr, read=lambda _p, c=cmd: c, echo=out.append)
            assert len(graded) == 1
            def bare(x: str) -> str:  # the lines are wrapped (Chinese and Japanese between any characters)
                return "".join(x.split())

            text = bare("\n".join(out))
            for t in shown:
                assert bare(t) in text, (lang, cmd, t)
            assert (bare(mine_text) in text) == (cmd == worst_cmd)
            assert bare(tr("train.reason", reason=best_text)) in text
