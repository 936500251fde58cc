"""Game review and history: expert games lose nothing, scripted mistakes cost exactly the
advisor's "vs best", the loss identity for the normal CPU, the history file (atomic,
bounded, corrupt set aside, newer format refused), and the review command."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

from clihelpers import assert_clean_error, run, run_json
from yahtzee_solver.strategy.advisor import Advisor
from yahtzee_solver.game import cpu_actions, new_game
from yahtzee_solver.play.history import MAX_GAMES, History, add_finished_game, history_path
from yahtzee_solver.i18n import Translator
from yahtzee_solver.i18n.text import MESSAGES
from yahtzee_solver.strategy.levels import make_strategy
from yahtzee_solver.analysis.review import TurnPlay, policy_losses, review_game, review_turns, turns_from_log
from yahtzee_solver.rules import RULESETS
from yahtzee_solver.play.savegame import SAVE_FORMAT, SAVE_VERSION, state_to_dict


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("YAHTZEE_SOLVER_HOME", str(tmp_path))
    return tmp_path


def play_out(state, strategies):
    """Play the game to the end, each player by its strategy (through the game engine)."""
    while not state.is_terminal():
        for a in cpu_actions(state, strategies[state.current]):
            state.apply_action(a)
    return state


# -- expert games lose nothing -----------------------------------------------------------------------
@pytest.mark.parametrize("rules", tuple(RULESETS))
def test_every_decision_of_an_expert_game_has_loss_zero(rules):
    expert = make_strategy("expert", rules, jit=False)
    for seed in (1, 2):
        state = play_out(new_game(rules, "expert", seed=seed), [expert, expert])
        for player in (0, 1):
            rev = review_game(state, player)
            assert rev.complete and rev.final_score == state.cards[player].total
            assert len(rev.decisions) >= 2 * state.rules.n_categories
            assert all(d.loss == 0.0 for d in rev.decisions)
            assert rev.total_loss == 0.0 and rev.bands["0"] == len(rev.decisions)


# -- scripted mistakes -------------------------------------------------------------------------------
def test_scripted_mistakes_cost_exactly_the_advisors_vs_best():
    """A fixed game: the dice are chosen, the keeps and boxes are the second-best or worst options."""
    rules = "yahtzee"
    adv = Advisor(rules, jit=False)
    rng = np.random.default_rng(3)
    turns, expected_losses = [], []
    from yahtzee_solver.state import ScoreCard

    card = ScoreCard.empty(rules)
    for _ in range(13):
        roll1 = tuple(sorted(int(x) for x in rng.integers(1, 7, 5)))
        k1 = adv.keep_options(card, roll1, 2)
        pick1 = k1[min(1, len(k1) - 1)]  # second best
        roll2 = tuple(sorted(pick1.keep + tuple(int(x) for x in rng.integers(1, 7, 5 - len(pick1.keep)))))
        k2 = adv.keep_options(card, roll2, 1)
        pick2 = k2[-1]  # worst
        roll3 = tuple(sorted(pick2.keep + tuple(int(x) for x in rng.integers(1, 7, 5 - len(pick2.keep)))))
        if len(pick1.keep) == 5 or len(pick2.keep) == 5:
            # keeping all five is no roll in a real game: make it a plain reroll of everything
            pick1 = next(o for o in k1 if len(o.keep) < 5)
            roll2 = tuple(sorted(pick1.keep + tuple(int(x) for x in rng.integers(1, 7, 5 - len(pick1.keep)))))
            k2 = adv.keep_options(card, roll2, 1)
            pick2 = next(o for o in reversed(k2) if len(o.keep) < 5)
            roll3 = tuple(sorted(pick2.keep + tuple(int(x) for x in rng.integers(1, 7, 5 - len(pick2.keep)))))
        boxes = adv.box_options(card, roll3)
        box = boxes[-1]  # worst box
        turns.append(TurnPlay((roll1, roll2, roll3), (pick1.keep, pick2.keep), box.category))
        expected_losses += [pick1.loss, pick2.loss, box.loss]
        points, _, bonus = card.box_points(roll3)
        card = card.with_box(box.category, points[box.category], bonus)
    rev = review_turns(turns, rules, advisor=adv)
    got = [d.loss for d in rev.decisions]
    want = [0.0 if x < 1e-9 else x for x in expected_losses]
    assert got == want  # exactly the advisor's numbers
    assert rev.final_score == card.total
    assert rev.total_loss == pytest.approx(sum(want))
    assert sum(rev.bands.values()) == 39
    worst = rev.costliest()
    assert [d.loss for d in worst] == sorted(want, reverse=True)[:3]


def test_scoring_with_rerolls_left_is_reviewed_as_a_stand():
    rules = "yahtzee"
    adv = Advisor(rules, jit=False)
    from yahtzee_solver.state import ScoreCard

    card = ScoreCard.empty(rules)
    dice = (2, 3, 4, 5, 6)  # a large straight: standing is best
    box = adv.box_options(card, dice)[0].category
    rev = review_turns([TurnPlay((dice,), (), box)], rules, advisor=adv)
    stand, scored = rev.decisions
    assert stand.kind == "keep" and stand.rolls_left == 2 and stand.choice == dice
    best2 = adv.keep_options(card, dice, 2)[0]
    assert stand.loss == pytest.approx(max(0.0, best2.expected - adv.box_options(card, dice)[0].expected), abs=1e-12)
    assert scored.kind == "box" and scored.loss == 0.0
    # standing on junk with one reroll left costs the advisor's "keep all five" row
    junk = (1, 1, 2, 4, 6)
    rev = review_turns([TurnPlay(((1, 2, 3, 5, 6), junk), ((1,),), 0)], rules, advisor=adv)
    stand = rev.decisions[1]
    row = next(o for o in adv.keep_options(card, junk, 1) if o.keep == junk)
    assert stand.loss == pytest.approx(row.loss, abs=1e-12) and stand.loss > 1


def test_log_of_a_game_matches_its_turns():
    normal = make_strategy("normal", "yahtzee", jit=False)
    state = play_out(new_game("yahtzee", "normal", seed=5), [normal, normal])
    turns = turns_from_log(state.log, 0)
    assert len(turns) == 13
    assert [t.box for t in turns] == [e.category for e in state.log if e.kind == "score" and e.player == 0]


def test_a_tampered_log_is_refused():
    from yahtzee_solver.errors import SavedGameError

    normal = make_strategy("normal", "yahtzee", jit=False)
    state = play_out(new_game("yahtzee", seed=6), [normal])
    ev = state.log[-1]
    state.log[-1] = type(ev)(ev.kind, ev.player, ev.dice, ev.held, ev.roll, ev.category, ev.points + 1)
    first = state.log[0]
    state.log[0] = type(first)("roll", 0, (7, 1, 1, 1, 1), first.held, 1)
    with pytest.raises((SavedGameError, ValueError)):
        review_game(state, 0)


# -- the loss identity ---------------------------------------------------------------------------
def test_mean_score_is_the_table_value_minus_the_mean_loss_for_the_normal_level():
    res = policy_losses("normal", 3000, "yahtzee", seed=11)
    x = res.scores + res.game_losses  # E[x] = optimal value (martingale)
    half = 1.96 * x.std(ddof=1) / math.sqrt(len(x))
    assert abs(x.mean() - res.start_value) < half
    assert res.per_decision > 0.3  # the normal player does lose points
    expert = policy_losses("expert", 300, "yahtzee", seed=11)
    assert expert.per_decision == 0.0


def test_policy_losses_are_the_reviews_of_the_same_games():
    """Beginner games (which stand with two rerolls left): the per-game losses and the
    number of decisions are those of review_turns on the same games -- a stand is one decision."""
    from yahtzee_solver.analysis.simulate import draw_dice, play_game

    games, seed = 25, 5
    res = policy_losses("beginner", games, "yahtzee", seed=seed)
    ss = np.random.SeedSequence(seed)
    dice = draw_dice(np.random.default_rng(ss), games, 13)
    player = make_strategy("beginner", "yahtzee", rng=np.random.default_rng(ss.spawn(1)[0]))
    adv = Advisor("yahtzee")
    decisions = 0
    stands = 0
    for g in range(games):
        moves: list = []
        play_game(player, dice[g], "yahtzee", moves=moves)
        turns = []
        for t, (k1, k2, final, box) in enumerate(moves):
            roll1 = tuple(sorted(int(x) for x in dice[g, t, 0]))
            if len(k1) == 5:
                stands += 1
                turns.append(TurnPlay((roll1,), (), box))
                continue
            roll2 = tuple(sorted(k1 + tuple(int(x) for x in dice[g, t, 1, : 5 - len(k1)])))
            if len(k2) == 5:
                turns.append(TurnPlay((roll1, roll2), (k1,), box))
            else:
                turns.append(TurnPlay((roll1, roll2, final), (k1, k2), box))
        rev = review_turns(turns, "yahtzee", advisor=adv)
        decisions += len(rev.decisions)
        assert res.game_losses[g] == pytest.approx(rev.total_loss, abs=1e-9), g
        assert res.scores[g] == rev.final_score
    assert stands > 0
    assert res.decisions == decisions


# -- the history file ------------------------------------------------------------------------------
def _finished(seed=1, opponent="normal"):
    normal = make_strategy("normal", "yahtzee", jit=False)
    return play_out(new_game("yahtzee", opponent, seed=seed), [normal, normal])


def test_history_keeps_finished_games_atomically(home):
    n, problem = add_finished_game(_finished(1))
    assert (n, problem) == (1, None)
    n, _ = add_finished_game(_finished(2, "none"))
    assert n == 2
    h = History.load()
    assert [e.seed for e in h.entries] == [1, 2]
    assert h.entries[1].result == "solo" and h.entries[0].result in ("win", "loss", "draw")
    assert h.entries[0].scores == _finished(1).totals()
    assert sorted(p.name for p in home.iterdir()) == ["history.json"]  # no temp file left
    with pytest.raises(ValueError, match="no game number 3"):
        h.get(3)


def test_history_is_bounded_and_files_a_game_once(home, monkeypatch):
    import yahtzee_solver.play.history as hist

    state = _finished(1)
    assert add_finished_game(state)[0] == add_finished_game(state)[0] == 1  # filed again: not duplicated
    monkeypatch.setattr(hist, "MAX_GAMES", 3)
    for seed in range(2, 7):
        add_finished_game(_finished(seed, "none"))
    assert [e.seed for e in History.load().entries] == [4, 5, 6]
    assert MAX_GAMES >= 100


def test_corrupt_history_is_set_aside_and_reported(home):
    history_path().write_text("{not json")
    h = History.load()
    assert h.entries == [] and "unreadable" in h.problem
    aside = [p for p in home.iterdir() if p.name.startswith("history.json.corrupt-")]
    assert len(aside) == 1 and aside[0].read_text() == "{not json"


def test_newer_history_is_refused_and_left_alone(home):
    from yahtzee_solver.errors import DataFileError

    text = json.dumps({"format": "yahtzee_solver game history", "version": 99, "games": []})
    history_path().write_text(text)
    with pytest.raises(DataFileError, match="version 99"):
        History.load()
    with pytest.raises(DataFileError):
        add_finished_game(_finished(1))
    assert history_path().read_text() == text


def test_a_damaged_history_entry_is_skipped_and_the_others_stay(home):
    """One bad entry costs that game only: reported in words, skipped, kept in the file; numbers stay."""
    from yahtzee_solver.errors import DataFileError
    from yahtzee_solver.play.history import DamagedEntry, HistoryEntry

    for seed in (1, 2, 3):
        add_finished_game(_finished(seed))
    data = json.loads(history_path().read_text())
    data["games"][0]["scores"][0] += 1
    data["games"][1]["log"] = None
    data["games"][2]["log"][0] = None  # a TypeError inside: no Python text in the message
    history_path().write_text(json.dumps(data))
    add_finished_game(_finished(4, "none"))
    h = History.load()
    assert [type(e) for e in h.entries] == [DamagedEntry] * 3 + [HistoryEntry]
    assert "games 1, 2, 3 are damaged and skipped" in h.problem and "scores" in h.problem
    assert "the other games can be reviewed" in h.problem
    assert "no move log" in h.entries[1].reason and "malformed event" in h.entries[2].reason
    for e in h.entries[:3]:
        assert "NoneType" not in e.reason and "object" not in e.reason, e.reason
    assert h.get(4).seed == 4 and h.last_number() == 4
    with pytest.raises(DataFileError, match="game 2 in the history .* is damaged"):
        h.get(2)
    assert json.loads(history_path().read_text())["games"][:3] == data["games"]  # kept as they were
    assert not [p for p in home.iterdir() if ".corrupt-" in p.name]
    # The review names the problem with the same prefix as the records' warnings and reviews game 4.
    res = run("review", "--json", "--no-chances")
    assert res.exit_code == 0
    assert "Warning: history file" in res.stderr and "games 1, 2, 3 are damaged" in res.stderr
    assert json.loads(res.stdout)["number"] == 4
    assert_clean_error(run("review", "2"), 1, "game 2", "damaged", only_line=False)
    for lang in ("zh", "ja"):  # the warning in the language of the rest, not English after 警告：
        res = run("review", "--json", "--lang", lang, "--no-chances")
        warning = res.stderr.strip().splitlines()[0]
        assert warning == Translator(lang)("warn.history", detail=Translator(lang)("history.damaged_many", **{
            "path": repr(str(history_path())), "numbers": "1, 2, 3", "first": 1,
            "reason": h.problem.fields["reason"]})), warning
        assert "are damaged and skipped" not in warning and "1, 2, 3" in warning


def test_a_history_unreadable_as_a_whole_is_reported_in_the_players_language(home):
    for lang, word in (("zh", "整体无法读取"), ("ja", "全体が読めません"), ("en", "unreadable as a whole")):
        history_path().write_text("{not json")
        res = run("review", "--lang", lang)
        warning = res.output.splitlines()[0]
        assert warning.startswith(Translator(lang)("warn.history", detail="")) and word in warning, warning
        assert str(history_path()) in warning and ".corrupt-" in warning


def test_a_history_with_only_damaged_entries_says_so(home):
    add_finished_game(_finished(1))
    data = json.loads(history_path().read_text())
    data["games"][0]["log"] = None
    history_path().write_text(json.dumps(data))
    assert_clean_error(run("review"), 1, "every entry is damaged", only_line=False)


def test_a_history_unreadable_as_a_whole_says_so(home):
    history_path().write_text(json.dumps({"format": "yahtzee_solver game history", "version": 1, "games": 3}))
    res = run("review")
    assert "Warning: history file" in res.output and "unreadable as a whole" in res.output
    assert "moved to" in res.output and "starting a new history" in res.output


def test_unfinished_game_is_not_added(home):
    with pytest.raises(ValueError, match="not over"):
        add_finished_game(new_game("yahtzee", seed=1))


# -- the command -------------------------------------------------------------------------------------
def test_review_command_last_number_and_file(home, tmp_path):
    add_finished_game(_finished(1, "none"))
    add_finished_game(_finished(2, "normal"))
    last = run_json("review", "--no-chances")
    assert last["number"] == 2 and last["seed"] == 2 and last["n_decisions"] >= 26
    first = run_json("review", "1")
    assert first["number"] == 1
    want = review_game(_finished(1, "none"))
    assert first["total_loss"] == pytest.approx(want.total_loss, abs=1e-12)
    game_file = tmp_path / "g.json"
    game_file.write_text(json.dumps(state_to_dict(_finished(2, "normal"))))
    from_file = run_json("review", str(game_file), "--no-chances")
    assert from_file["total_loss"] == pytest.approx(last["total_loss"], abs=1e-12)
    cpu = run_json("review", "2", "--cpu", "--no-chances")
    assert cpu["player"] == "cpu"
    for lang in ("en", "zh", "ja"):
        res = run("review", "--lang", lang, "--no-chances")
        assert res.exit_code == 0, res.output
        assert Translator(lang)("review.col_loss") in res.output


@pytest.mark.parametrize(
    "setup,args,code,needle",
    [
        ("none", ["review"], 1, "no finished games"),
        ("two", ["review", "7"], 2, "no game number 7"),
        ("two", ["review", "missing.json"], 1, "no game file 'missing.json'"),  # a file problem: exit 1
        ("two", ["review", "abc"], 1, "no game file 'abc'"),
        ("two", ["review", ""], 2, "invalid game ''"),  # no path at all: a usage error, not a missing file
        ("two", ["review", "  "], 2, "invalid game '"),
        ("die7_file", ["review", "die7.json"], 1, "die7.json: invalid die 7"),
        ("die_half_file", ["review", "die.json"], 1, "die 2.5 is not a whole number"),
        ("die_true_file", ["review", "die.json"], 1, "die True is not a whole number"),
        ("die_text_file", ["review", "die.json"], 1, "die '5' is not a whole number"),
        ("closed_box_file", ["review", "box.json"], 1, "box.json: turn 2: box"),
        ("corrupt_file", ["review", "bad.json"], 1, "bad.json"),
        ("newer_file", ["review", "new.json"], 1, f"version {SAVE_VERSION + 1}"),
        ("two", ["review", "1", "--rules", "yacht"], 2, "'yacht'"),
        ("two", ["review", "1", "--last"], 2, "not both"),
        ("solo", ["review", "--cpu"], 2, "solitaire"),
    ],
)
def test_review_bad_input(home, monkeypatch, setup, args, code, needle):
    monkeypatch.chdir(home)
    if setup == "two":
        add_finished_game(_finished(1))
        add_finished_game(_finished(2))
    if setup == "solo":
        add_finished_game(_finished(1, "none"))
    if setup == "corrupt_file":
        (home / "bad.json").write_text(json.dumps({"format": SAVE_FORMAT, "version": SAVE_VERSION, "config": 3}))
    if setup in ("die7_file", "closed_box_file"):
        d = state_to_dict(_finished(1))
        if setup == "die7_file":
            d["log"][0]["dice"][0] = 7
            (home / "die7.json").write_text(json.dumps(d))
        else:
            first, second = [e for e in d["log"] if e["kind"] == "score" and e["player"] == 0][:2]
            second["category"] = first["category"]
            (home / "box.json").write_text(json.dumps(d))
    if setup in ("die_half_file", "die_true_file", "die_text_file"):  # never rounded into another game
        d = state_to_dict(_finished(1))
        d["log"][0]["dice"][1] = {"die_half_file": 2.5, "die_true_file": True, "die_text_file": "5"}[setup]
        (home / "die.json").write_text(json.dumps(d))
    if setup == "newer_file":
        d = state_to_dict(_finished(1))
        d["version"] = SAVE_VERSION + 1
        (home / "new.json").write_text(json.dumps(d))
    before = sorted(p.name for p in home.iterdir())
    assert_clean_error(run(*args), code, needle)
    assert sorted(p.name for p in home.iterdir()) == before  # nothing moved or lost


def _unfinished(turns: int, seed: int = 5):
    normal = make_strategy("normal", "yahtzee", jit=False)
    state = new_game("yahtzee", "none", seed=seed)
    while sum(v is not None for v in state.cards[0].boxes) < turns:
        for a in cpu_actions(state, normal):
            state.apply_action(a)
    return state


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_review_text_fits_80_columns_and_says_score_so_far(home, monkeypatch, lang):
    from yahtzee_solver.i18n import display_width

    monkeypatch.chdir(home)
    tr = Translator(lang)
    add_finished_game(_finished(123456789))
    finished = run("review", "--lang", lang, "--no-chances")
    assert finished.exit_code == 0, finished.output
    for turns in (1, 3):
        state = _unfinished(turns)
        (home / f"u{turns}.json").write_text(json.dumps(state_to_dict(state)))
        res = run("review", f"u{turns}.json", "--lang", lang)
        assert res.exit_code == 0, res.output
        so_far = tr("review.score_so_far", score=state.cards[0].total, expected="X").split("X")[0]
        assert so_far in res.output and tr("review.score", score=state.cards[0].total, expected="X").split(
            "X")[0] not in res.output
        key = "review.unfinished_one" if turns == 1 else "review.unfinished"
        assert tr(key, turns=turns) in res.output
        if lang == "en":
            assert ("1 turn reviewed" in res.output) == (turns == 1)
    for line in finished.output.splitlines() + res.output.splitlines():
        assert display_width(line) <= 80, line
    assert tr("review.score", score="X", expected="Y").split("X")[0] in finished.output
    if lang == "ja":
        assert "） の" not in finished.output  # no space between the full-width bracket and the particle


def test_losses_are_negative_in_every_language(home):
    add_finished_game(_finished(1))
    for lang in ("en", "zh", "ja"):
        res = run("review", "--lang", lang, "--no-chances")
        costly = res.output.split(Translator(lang)("review.costliest"))[1].split("\n\n")[0].strip().splitlines()
        assert costly and all(re.search(r"-\d+\.\d\d", line) for line in costly), costly


def test_summary_lines_in_every_language():
    from yahtzee_solver.tui.review import summary_lines

    state = _finished(3)
    for lang in ("en", "zh", "ja"):
        lines = summary_lines(state, Translator(lang))
        assert len(lines) >= 2
    assert set(MESSAGES["zh"]) >= {k for k in MESSAGES["en"] if k.startswith("review.")}


def test_simulate_reports_the_levels_expected_loss():
    out = run_json("simulate", "--strategy", "beginner", "-n", "150", "--seed", "3", "--losses", "--no-progress")
    want = policy_losses("beginner", 150, "yahtzee", seed=3)
    assert out["expected_loss"]["loss_per_decision"] == pytest.approx(want.per_decision, abs=1e-12)
    assert out["expected_loss"]["mean_score"] == pytest.approx(out["mean"], abs=1e-9)  # the same games
    res = run("simulate", "--strategy", "normal", "-n", "100", "--seed", "3", "--losses", "--no-progress")
    assert res.exit_code == 0 and "points a decision" in res.output


def test_a_review_number_of_thousands_of_digits_is_a_usage_error(home):
    """It ended in a traceback ("Exceeds the limit (4300 digits)"); now one line, exit 2, clipped."""
    add_finished_game(_finished(1))
    res = run("review", "9" * 5000)
    assert_clean_error(res, 2, "no game number", "99999")
    assert len(res.output) < 200


@pytest.mark.parametrize("number", ["3", "999", "9" * 19, "9" * 30, "9" * 5000])
def test_a_missing_game_number_names_the_games_there_are_however_long(home, number):
    # a number of more than 18 digits used to lose the "(games 1-2)" a shorter one got
    add_finished_game(_finished(1))
    add_finished_game(_finished(2, "none"))
    res = run("review", number)
    assert_clean_error(res, 2, "no game number", number[:20], "(games 1-2)")
    assert len(res.output) < 200
    # a superscript is a digit to str.isdigit but no number to int(): it was a traceback
    assert_clean_error(run("review", "\u00b2"), 1, "no game file '\u00b2'")


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_a_missing_game_is_said_in_the_language_asked_for(home, lang):
    add_finished_game(_finished(1))
    tr = Translator(lang)
    for number in ("999", "9" * 30):
        res = run("review", number, "--lang", lang)
        assert res.exit_code == 2 and "Traceback" not in res.output, res.output
        shown = number if len(number) <= 40 else number[:40]
        assert res.output.strip() == "Error: " + tr("review.missing_one", n=shown, games="1"), res.output
    add_finished_game(_finished(2, "none"))
    res = run("review", "999", "--lang", lang)
    assert res.output.strip() == "Error: " + tr("review.missing", n="999", games="1-2"), res.output
    assert not re.search(r"[a-z]{4}", res.output.removeprefix("Error: ")), res.output  # no English words


@pytest.mark.parametrize("date,needle", [(5, "date 5 is not a text date"), (None, "has no date"),
                                         ("", "has no date"), ("x" * 41, "too long for a date"),
                                         ("yesterday", "date 'yesterday' is not an ISO 8601 date"),
                                         ("2026-13-45", "date '2026-13-45' is not an ISO 8601 date"),
                                         ("2026-12-03T25:05:00Z", "is not an ISO 8601 date"),
                                         ("2026-12-03T14:05:00Z\n", "is not an ISO 8601 date")])
def test_a_history_entry_with_a_bad_date_says_what_is_wrong_with_it(home, date, needle):
    from yahtzee_solver.play.history import DamagedEntry

    add_finished_game(_finished(1))
    data = json.loads(history_path().read_text())
    data["games"][0]["date"] = date
    history_path().write_text(json.dumps(data))
    (entry,) = History.load().entries
    assert isinstance(entry, DamagedEntry) and needle in entry.reason, entry.reason


@pytest.mark.parametrize("date", ["2026-12-03T14:05:00Z", "2026-12-03T14:05:00+01:00", "2026-12-03 14:05", "2026-12-03"])
def test_a_history_entry_with_an_iso_date_loads(home, date):
    add_finished_game(_finished(1))
    data = json.loads(history_path().read_text())
    data["games"][0]["date"] = date
    history_path().write_text(json.dumps(data))
    (entry,) = History.load().entries
    assert entry.date == date


def test_a_history_with_a_number_too_long_to_read_says_so_in_plain_words(home):
    history_path().write_text('{"format": "yahtzee_solver game history", "version": ' + "9" * 5000 + "}")
    problem = History.load().problem
    assert "a number of 5,000 digits is too long" in problem and "sys.set_int_max_str_digits" not in problem, problem
