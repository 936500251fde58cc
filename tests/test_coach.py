"""The coach (issue 18.1): a game played with real dice, scripted on stdin; the chance of finishing first."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from clihelpers import CtrlC, assert_clean_error, run, run_json
from yahtzee_solver.analysis.table_review import review_table
from yahtzee_solver.play.coach import CoachGame, coach_path, judge, load, ranking
from yahtzee_solver.play.history import History
from yahtzee_solver.strategy.advisor import Advisor
from yahtzee_solver.strategy.objectives import first_place_chances, first_place_utility, win_utility
from yahtzee_solver.strategy.win_chances import TableOdds


# -- the chance of finishing first ------------------------------------------------------------------------
def _brute_first(pmfs):
    """Every player's expected share of first place by enumerating all joint outcomes (ties share: 1/k)."""
    out = np.zeros(len(pmfs))
    for combo in itertools.product(*[range(len(p)) for p in pmfs]):
        pr = np.prod([p[t] for p, t in zip(pmfs, combo)])
        top = max(combo)
        winners = [i for i, t in enumerate(combo) if t == top]
        for i in winners:
            out[i] += pr / len(winners)
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_first_place_chances_match_brute_force_with_ties(n):
    rng = np.random.default_rng(n)
    pmfs = []
    for _ in range(n):
        p = rng.random(rng.integers(3, 7))
        p[rng.integers(0, p.size)] = 0.0
        pmfs.append(p / p.sum())
    got = first_place_chances(pmfs)
    assert np.allclose(got, _brute_first(pmfs), atol=1e-12, rtol=0)
    assert abs(got.sum() - 1.0) < 1e-12
    # the utility seen by player 0 at each of its totals, against the others
    u = first_place_utility(pmfs[1:], 0).values  # constant from its last entry on
    u = u[np.minimum(np.arange(pmfs[0].size), u.size - 1)]
    assert abs(float(pmfs[0] @ u) - got[0]) < 1e-12


def test_first_place_utility_with_one_opponent_is_the_win_utility():
    p = np.array([0.1, 0.0, 0.3, 0.6])
    for total in (0, 1, 3):
        assert np.allclose(first_place_utility([p], total).values, win_utility(p, total).values, atol=1e-15)


# -- a scripted game ----------------------------------------------------------------------------------------
def _script(seed=5, players=("Ann", "Bob"), mistakes=True, rules="yahtzee"):
    """Lines that play a whole game with dice from a seeded generator, best moves except a few mistakes.

    Returns the lines and the CoachGame the lines lead to.
    """
    rng = np.random.default_rng(seed)
    adv = Advisor(rules)
    g = CoachGame(rules, players)
    lines = []
    while not g.is_over():
        dice = "".join(map(str, rng.integers(1, 7, 5)))
        lines.append(dice)
        g.roll(dice)
        while True:
            st = g.state
            rl = st.rerolls_left if st.rolls_used < 3 else 0
            opts = ranking(st.cards[0], st.dice, rl, adv)
            best = opts[0]
            if rl and best.score is None:
                keep = best.keep
                if mistakes and g.round == 2 and len(opts) > 1 and opts[1].score is None:
                    keep = opts[1].keep  # a mistake, flagged
                lines.append("k " + ("".join(map(str, keep)) or "-"))
                g.keep(tuple(k in () for k in range(5)) if not keep else _held(st.dice, keep))
                new = rng.integers(1, 7, 5 - len(keep))
                typed = "".join(map(str, new))
                if len(typed) < 5 and rng.random() < 0.5:  # or all five dice showing
                    typed = "".join(map(str, sorted(list(keep) + list(new))))
                lines.append(typed)
                g.roll(typed)
                continue
            box = best.score.category if rl else best.category
            lines.append(f"s {box + 1}")
            g.score(box)
            break
    return lines, g


def _held(dice, keep):
    from yahtzee_solver.game import positions_of

    return positions_of(dice, keep)


@pytest.mark.parametrize("rules", ["yacht", pytest.param("yahtzee", marks=pytest.mark.slow)])
def test_a_whole_two_player_game_from_stdin_goes_to_the_history(rules):
    """The game ends with every player's split and the chart of the chances, and is filed as one game of
    the table, which review reads with the names (text and JSON)."""
    lines, expected = _script(rules=rules)
    result = run("coach", "--rules", rules, "--players", "Ann,Bob", input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output[-2000:]
    assert "Traceback" not in result.output
    assert "Game over." in result.output
    assert "that cost" in result.output  # the round-2 mistakes are flagged
    a, b = expected.totals()
    assert f"Ann: {a}" in result.output and f"Bob: {b}" in result.output
    h = History.load()
    (entry,) = h.entries  # one game of the table, not one solitaire game per player
    assert entry.scores == (a, b) and entry.names == ("Ann", "Bob") and entry.opponent == "coach"
    assert not coach_path().exists()  # a finished game leaves no save
    # the end of the game: every player's split, exactly the per-game review's, and the chart
    want = review_table(rules, ("Ann", "Bob"), expected.table_log())
    end = result.output[result.output.index("Game over."):]
    assert "Filed in the game history as game 1" in end
    assert "final score = value of the empty card − skill loss + luck" in " ".join(end.split())
    for p, total in zip(want.players, (a, b)):
        assert p.final == total and abs(p.final - (p.start_value - p.skill_loss + p.luck)) < 1e-9
        row = next(line for line in end.splitlines() if line.strip().startswith(p.name + " "))
        assert row.split()[1:] == [str(total), f"{p.start_value:.2f}", f"{p.skill_loss:.2f}", f"{p.luck:+.2f}"]
    chart = _chart_rows(end, ("Ann", "Bob"))
    for i, cells in enumerate(chart):
        assert cells == [_pct(x) for x in want.series(i)] + [_pct(want.result[i])]
    # review reads the game with the names: the table, then any player's decisions
    r = run("review")
    assert r.exit_code == 0 and "Traceback" not in r.output, r.output
    assert "coach game" in r.output and "Ann's decisions" in r.output
    assert _chart_rows(r.output, ("Ann", "Bob")) == chart
    bob = run("review", "1", "--player", "bob", "--no-chances")
    assert bob.exit_code == 0 and "Bob's decisions" in bob.output, bob.output
    assert f"Final score {b};" in bob.output and "turn   " not in bob.output.split("Every player")[1]
    out = run_json("review", "--player", "Bob")
    assert out["final_score"] == b and out["player"] == "Bob" and out["names"] == ["Ann", "Bob"]
    t = out["table"]
    assert [p["name"] for p in t["players"]] == ["Ann", "Bob"]
    for p, w in zip(t["players"], want.players):
        assert (p["final"], p["luck"], p["skill_loss"]) == (w.final, w.luck, w.skill_loss)
    assert t["rounds"] == list(range(1, expected.rules.n_categories + 1))
    for row in t["chances"]:
        assert abs(sum(row) - 1.0) < 1e-9
    assert_clean_error(run("review", "--player", "Zed"), 2, "unknown player 'Zed'", "Ann, Bob")
    assert_clean_error(run("review", "--cpu"), 2, "--cpu")


def _pct(p):
    """A chart cell's number: the chance in whole percents (``<1``, ``>99`` near the ends)."""
    n = round(100 * p)
    return "<1" if 0 < p and n == 0 else ">99" if p < 1 and n == 100 else str(n)


def _chart_rows(text, names):
    """The numbers of the chart's rows (one per player, the result last), bars dropped."""
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith("Chance of finishing first"))
    out = []
    for name in names:
        row = next(line for line in lines[top:] if line.startswith("  " + name + " "))
        cells = row[2 + len(name):]
        out.append([c.strip(" ▁▂▃▄▅▆▇█") for c in cells.split() if c.strip(" ▁▂▃▄▅▆▇█")])
    return out


def test_quiet_flags_nothing():
    lines, _ = _script(seed=8)
    result = run("coach", "--players", "Ann,Bob", "--quiet", input="\n".join(lines) + "\n")
    assert result.exit_code == 0 and "Game over." in result.output
    assert "that cost" not in result.output


def test_chances_of_all_players_add_up_to_one_at_every_decision():
    """Replay a game: at every decision where the chances are shown, they add up to 1 (1e-9)."""
    _, g = _script(seed=3, players=("Ann", "Bob", "Chen"), mistakes=False)
    odds = TableOdds("yahtzee")
    replay = CoachGame("yahtzee", g.players)
    checked = 0
    for a in g.actions:
        st = replay.state
        if st.dice is None:
            wc = odds(replay.cards, replay.current)
        else:
            rl = st.rerolls_left if st.rolls_used < 3 else 0
            wc = odds(replay.cards, replay.current, st.dice, rl)
        if wc.shown:
            assert abs(sum(wc.players) - 1.0) < 1e-9
            assert all(-1e-12 <= p <= 1 + 1e-12 for p in wc.players)
            checked += 1
            if st.dice is not None and wc.options:  # the expert's option is the position's chance
                best = max(wc.options.values())
                assert best >= wc.players[replay.current] - 1e-9
        replay._do(a)
    assert checked > 20


def test_undo_what_if_and_resume():
    result = run("coach", "--players", "Ann,Bob", input="12555\nk 555\n34\nq\n")
    assert result.exit_code == 0 and "Saved" in result.output
    game, lang = load()
    assert game.state.dice is not None and sorted(game.state.dice) == [3, 4, 5, 5, 5]
    result = run("coach", "--resume", input="what-if 66666\nu\nu\ncard\nq\n")
    assert result.exit_code == 0, result.output
    assert "What if the dice were 6 6 6 6 6" in result.output
    assert "undone: Ann's roll 3 4" in result.output and "undone: Ann's keep 5 5 5" in result.output
    game, _ = load()
    assert game.actions == [{"player": 0, "roll": [1, 2, 5, 5, 5]}]  # what-if changed nothing


def test_resume_with_nothing_saved_is_a_usage_error_worded_as_plays():
    """Nothing to resume is the caller's mistake (exit 2), for coach as for play, in the same words."""
    play = run("play", "--resume")
    coach = run("coach", "--resume")
    assert_clean_error(play, 2, "there is no saved game to resume: start one with 'yahtzee-solve play'")
    assert_clean_error(coach, 2, "there is no saved coach game to resume: start one with 'yahtzee-solve coach'")
    assert not coach_path().exists()  # nothing written


def test_a_damaged_save_is_refused_on_resume():
    run("coach", "--players", "Ann,Bob", input="12555\nq\n")
    good = json.loads(coach_path().read_text())
    data = json.loads(json.dumps(good))
    data["actions"].append({"player": 0, "roll": [7, 7]})
    coach_path().write_text(json.dumps(data))
    assert_clean_error(run("coach", "--resume"), 1, "damaged")
    # fields of the wrong type are named, not read letter by letter or as a Python error
    for field, value, needle in (("players", "Ann", "invalid players 'Ann'"), ("actions", None, "invalid actions"),
                                 ("players", [], "invalid players"),
                                 # was read as English and saved back so
                                 ("lang", "fr", "invalid lang 'fr': want en, zh, ja"), ("lang", 5, "invalid lang 5")):
        coach_path().write_text(json.dumps({**good, field: value}))
        assert_clean_error(run("coach", "--resume"), 1, "damaged", needle)


def test_the_coachs_words_ask_for_the_dice_typed_not_an_r_command():
    result = run("coach", "--players", "Ann,Bob", input="h\ns 1\nq\n")
    assert result.exit_code == 0, result.output
    assert "(r)" not in result.output
    assert "Type the dice you rolled. Expected final score from here: 254.59" in result.output
    assert "type the dice you rolled first" in result.output


def test_ctrl_c_during_advice_goes_back_to_the_prompt(monkeypatch):
    from yahtzee_solver.tui.coach import CoachSession

    def slow_hint(self, *a, **k):
        raise KeyboardInterrupt  # as Ctrl-C during a long computation

    monkeypatch.setattr(CoachSession, "hint", slow_hint)
    result = run("coach", "--players", "Ann,Bob", input="12555\nh\nk 555\nq\n")
    assert result.exit_code == 0, result.output
    assert "Stopped; the game is as it was" in result.output
    assert [list(a) for a in load()[0].actions] == [["player", "roll"], ["player", "keep"]]


def test_ctrl_c_at_the_prompt_saves_and_exits_130():
    # it saved and exited 0, as q does; the CLI's Ctrl-C is 130 (128 + SIGINT)
    result = run("coach", "--players", "Ann,Bob", input=CtrlC("12555\n"))
    assert result.exit_code == 130, result.output
    assert "Saved: yahtzee-solve coach --resume" in result.output
    assert [list(a) for a in load()[0].actions] == [["player", "roll"]]
    # the end of input saves and exits 0, as before
    result = run("coach", "--resume", input="k 555\n")
    assert result.exit_code == 0, result.output
    assert [list(a) for a in load()[0].actions] == [["player", "roll"], ["player", "keep"]]


def test_the_card_shows_the_rows_that_make_the_total():
    # Ann: 6 6 6 6 6 in Sixes (30: the upper subtotal 30/63), Bob nothing yet
    result = run("coach", "--players", "Ann,Bob", input="66666\ns sixes\ncard\nq\n")
    assert result.exit_code == 0, result.output
    card = result.output[result.output.rindex("Upper subtotal") - 200:]
    lines = {ln.split("  ")[1].strip() if ln.startswith("  ") else "": ln for ln in card.splitlines()}
    assert "30/63" in lines["Upper subtotal"] and "0/63" in lines["Upper subtotal"]
    assert lines["Upper bonus"].split()[-2:] == ["0", "0"]
    assert lines["Yahtzee bonus"].split()[-2:] == ["0", "0"]
    assert lines["Total"].split()[-2:] == ["30", "0"]


def test_a_reroll_typed_without_a_keep_is_that_rolls_keep_and_is_judged():
    # 1 2 3 4 6, keep 3 4 6, the two rerolled dice give 2 5: a large straight with two rolls gone.  Typing
    # the next roll at once (no k) rerolls the same two dice: keeping 3 4 6 from 2 3 4 5 6 is a choice,
    # recorded as that roll's keep and flagged with its cost as a typed keep is
    result = run("coach", "--players", "Ann,Bob", input="12346\nk 346\n25\n15\nq\n")
    assert result.exit_code == 0, result.output
    game, _ = load()
    assert game.actions[3] == {"player": 0, "keep": [3, 4, 6]} and game.actions[4]["player"] == 0
    adv = Advisor("yahtzee")
    best = adv.keep_options(game.cards[0], "23456", 1)[0]
    mine = next(o for o in adv.keep_options(game.cards[0], "23456", 1) if o.keep == (3, 4, 6))
    assert f"that cost {mine.expected - best.expected:.2f}".replace("-", "") in result.output.replace("-", "")
    # a bad roll typed there records nothing
    result = run("coach", "--resume", input="12\nq\n")
    assert load()[0].actions == game.actions


def test_a_new_game_keeps_an_unfinished_one_and_sets_a_damaged_one_aside():
    run("coach", "--players", "Ann,Bob", input="12555\nq\n")
    before = coach_path().read_bytes()
    # an unfinished game is not replaced without --abandon (usage error, the save untouched)
    assert_clean_error(run("coach", "--players", "Cy,Di"), 2, "in progress (Ann, Bob", "--abandon")
    assert coach_path().read_bytes() == before
    assert run("coach", "--players", "Cy,Di", "--abandon", input="q\n").exit_code == 0
    assert load()[0].players == ("Cy", "Di")
    # a damaged save is renamed aside, with its bytes, and said so: never overwritten
    coach_path().write_text('{"format": "yahtzee_solver coach game", "vers')
    damaged = coach_path().read_bytes()
    result = run("coach", "--players", "Ed,Flo", input="q\n")
    assert result.exit_code == 0, result.output
    aside = list(coach_path().parent.glob("coach.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == damaged
    assert "moved to" in result.output and "unreadable" in result.output
    assert load()[0].players == ("Ed", "Flo")


@pytest.mark.parametrize("line,needle", [
    ("1255", "the first roll of a turn is five dice"),
    ("12375", "invalid"),
    ("s zz", "unknown box"),
    ("card Zed", "unknown player 'Zed'"),
    ("k 12345", None),
])
def test_bad_input_is_one_line_and_nothing_is_lost(line, needle):
    first = "" if line in ("1255", "card Zed") else "12345\n"
    result = run("coach", "--players", "Ann,Bob", input=f"{first}{line}\nq\n")
    assert result.exit_code == 0 and "Traceback" not in result.output
    game, _ = load()
    assert len(game.actions) == (1 if first else 0)  # the bad line changed nothing
    if needle:
        assert needle in result.output


def test_a_roll_that_contradicts_the_keep_is_refused_with_the_reason():
    result = run("coach", "--players", "Ann,Bob", input="12555\nk 555\n12346\n1\n34\nq\n")
    assert "the roll 12346 does not contain the kept dice 5 5 5" in result.output
    assert "type the 5 dice showing or the 2 rerolled dice" in result.output
    game, _ = load()
    assert sorted(game.state.dice) == [3, 4, 5, 5, 5]


def test_bad_players_are_usage_errors():
    assert_clean_error(run("coach", "--players", "Ann,ann"), 2, "named twice")
    assert_clean_error(run("coach", "--players", "Ann,,Bob"), 2, "invalid players")
    # a name over the limit was quoted cut to exactly the limit (20 x's, a valid name); now cut with '...'
    assert_clean_error(run("coach", "--players", "Ann," + "x" * 30), 2,
                       f"invalid player name '{'x' * 17}...': want at most 20 printable characters")
    assert_clean_error(run("coach", "--players", "Ann,B\tb"), 2, "invalid player name 'B\\tb'")  # short: as typed


@pytest.mark.parametrize("players", ["Ann,\uff21\uff4e\uff4e", "\uff41\uff4e\uff4e,Ann", "Ann,ANN"])
def test_names_the_table_cannot_tell_apart_are_refused_as_duplicates(players):
    # typed lines are NFKC-normalised, so `card Ａｎｎ` would find the first Ann: one key for both checks
    assert_clean_error(run("coach", "--players", players), 2, "named twice")


def test_a_full_width_name_finds_its_player():
    g = CoachGame("yahtzee", ("\uff21\uff4e\uff4e", "Bob"))
    assert g.player_index("ann") == 0 and g.player_index(" \uff42\uff4f\uff42 ") == 1


def test_the_cost_of_a_keep_is_the_advisors_loss():
    adv = Advisor("yahtzee")
    g = CoachGame("yahtzee", ("Ann",))
    g.roll("12555")
    loss, best, chosen = judge(g, adv, keep=(5, 5))
    opts = {o.keep: o for o in adv.keep_options(None, "12555", 2)}
    assert best.keep == max(opts.values(), key=lambda o: o.expected).keep
    assert loss == pytest.approx(opts[(5, 5, 5)].expected - opts[(5, 5)].expected, abs=1e-12)


def test_h_shows_the_reasons_of_the_two_best_options():
    """The coach's h: the ranking, then the reasons of strategy.reasons for the two best options (as play's why)."""
    from yahtzee_solver.i18n import Translator
    from yahtzee_solver.state import parse_card
    from yahtzee_solver.strategy.reasons import option_reasons
    from yahtzee_solver.tui.why import figures, sentence

    result = run("coach", "--players", "Ann,Bob", input="22555\nh\nq\n")
    assert result.exit_code == 0, result.output
    adv = Advisor("yahtzee")
    card = parse_card(None, "yahtzee")
    top = adv.keep_options(card, "22555", 2)[:2]
    why = option_reasons(card, (2, 2, 5, 5, 5), 2, [o.keep for o in top])
    tr = Translator("en")
    out = result.output
    assert all(len(line) <= 80 for line in out[out.index("Why"):].splitlines()[:6])  # wrapped

    def bare(x):  # the lines are wrapped at 80 columns
        return "".join(x.split())

    assert bare(tr("why.head", figures=figures(tr, card.rules, why.start))) in bare(out)
    for o in top:
        r = why.options[o.keep]
        assert bare(f"{' '.join(map(str, o.keep))}: {figures(tr, card.rules, r)}") in bare(out)
        assert bare(sentence(tr, card.rules, r, why.start)) in bare(out)
    assert out.index(tr("hint.title")) < out.index(tr("why.head", figures="")[:12])  # after the ranking


@pytest.mark.parametrize("lang", ["zh", "ja"])
@pytest.mark.parametrize("line,key,params", [
    ("12375", "coach.err.face", {"die": "7", "roll": "12375"}),
    ("1234556", "coach.err.too_many", {"roll": "1234556", "n": 5}),
    ("what-if 125", "coach.err.whatif_five", {"roll": "125"}),
    ("what-if 12x55", "coach.err.face", {"die": "x", "roll": "12x55"}),
])
def test_the_coachs_errors_are_in_the_players_language(lang, line, key, params):
    from yahtzee_solver.i18n import Translator

    result = run("coach", "--players", "Ann,Bob", "--lang", lang, input=f"{line}\nq\n")
    assert result.exit_code == 0 and "Traceback" not in result.output
    want = Translator(lang)(key, **params)
    assert want in result.output, result.output
    assert "invalid" not in result.output and "faces are" not in result.output  # no English engine text
    game, _ = load()
    assert game.actions == []  # nothing changed


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_a_move_the_engine_refuses_is_said_in_the_players_language(lang):
    """No roll left after the third: the engine's reason, translated (not its English text)."""
    from yahtzee_solver.game import PROBLEMS
    from yahtzee_solver.i18n import Translator

    result = run("coach", "--players", "Ann", "--lang", lang, input="12345\nk 1\n1234\nk 1\n1234\n5\nq\n")
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert Translator(lang)("problem.no_rolls_left") in result.output
    if lang != "en":
        assert PROBLEMS["no_rolls_left"] not in result.output


@pytest.mark.parametrize("setting, needle", [("NUMBA_THREADING_LAYER=bogus", "NUMBA_THREADING_LAYER='bogus'"),
                                             ("NUMBA_NUM_THREADS=0", "NUMBA_NUM_THREADS='0'")])
def test_a_numba_setting_the_advice_cannot_start_is_refused_before_the_game_is_touched(monkeypatch, setting,
                                                                                        needle):
    # the coach's advice runs the compiled kernels: the setting used to be said only at the first h,
    # inside a game already begun (or abandoned) and saved
    run("coach", "--players", "Ann,Bob", input="12555\nq\n")
    before = coach_path().read_bytes()
    monkeypatch.setenv(*setting.split("="))
    for args in (["--players", "Cy", "--abandon"], ["--resume"]):
        result = run("coach", *args, input="h\nq\n")
        assert_clean_error(result, 2, needle, only_line=False)  # the message starts with the variable's name
        assert result.output.count("\n") == 1, result.output
        assert coach_path().read_bytes() == before
