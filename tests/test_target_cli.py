"""CLI: --target on the query commands, target-curve and match (errors included)."""

from __future__ import annotations

import json
import re

import pytest

from clihelpers import assert_clean_error, assert_click_usage_error, run, run_json

GLENN = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,ls=40"


def test_fill_target_glenn_example_prefers_chance():
    data = run_json("fill", "11112", "--card", GLENN, "--target", "273")
    assert data["target"] == 273 and data["reachable"] is True
    best = data["options"][0]
    assert best["category"] == "Chance" and best["points"] == 6
    assert best["probability"] > 0.04
    scratch = [o for o in data["options"] if o["category"] == "Yahtzee"][0]
    assert scratch["probability"] == 0.0
    assert scratch["expected"] > best["expected"]  # the expected-score choice is the other one
    ev = run_json("fill", "11112", "--card", GLENN)
    assert ev["options"][0]["category"] == "Yahtzee"


def test_hint_target_text_and_json_agree():
    res = run("hint", "11112", "-r", "1", "--card", GLENN, "--target", "273")
    assert res.exit_code == 0, res.output
    assert "P(>=273)" in res.output and "best: keep" in res.output
    data = run_json("hint", "11112", "-r", "1", "--card", GLENN, "--target", "273")
    probs = [o["probability"] for o in data["options"]]
    assert probs == sorted(probs, reverse=True)
    assert all("expected" in o for o in data["options"])
    keep = run_json("keep", "11112", "-r", "1", "--card", GLENN, "--target", "273")
    assert keep["options"] == data["options"]


def test_value_target():
    data = run_json("value", "--card", GLENN, "--target", "273")
    assert 0 < data["probability"] < 1 and data["expected_final"] > 233
    low = run_json("value", "--card", GLENN, "--target", "100")
    assert low["probability"] == 1.0


def test_unreachable_target_prints_zero():
    res = run("value", "--card", GLENN, "--target", "5000")
    assert res.exit_code == 0, res.output
    assert "cannot be reached" in res.output and "= 0" in res.output
    data = run_json("fill", "11112", "--card", GLENN, "--target", "5000")
    assert data["reachable"] is False
    assert all(o["probability"] == 0.0 for o in data["options"])


@pytest.mark.parametrize("bad", ["-1", "abc", "1.5"])
def test_bad_target(bad):
    assert_click_usage_error(run("hint", "11112", "--card", GLENN, "--target", bad), "--target", command="hint")


def test_target_curve_from_card():
    card = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,ls=40,yahtzee=0"
    data = run_json("target-curve", "--card", card, "--max", "300", "--no-progress")
    p = data["best"]
    assert len(p) == 301 and p[0] == 1.0 and p[data["card_total"]] == 1.0
    assert all(a >= b for a, b in zip(p, p[1:]))
    one = run_json("value", "--card", card, "--target", "250")
    assert one["probability"] == pytest.approx(p[250], abs=1e-13)
    ev = data["expected_score_policy"]
    assert len(ev) == 301 and all(a >= b - 1e-12 for a, b in zip(p, ev))
    res = run("target-curve", "--card", card, "--max", "300", "--step", "50", "--no-progress")
    assert res.exit_code == 0 and "P*(>=T)" in res.output and "P_EV(>=T)" in res.output


def test_target_curve_bad_max():
    assert_click_usage_error(run("target-curve", "--max", "-5"), "--max")


@pytest.mark.parametrize("args,needle", [
    (("match", "expert", "grandmaster", "--games", "2"), "grandmaster"),
    (("match", "expert", "normal", "--games", "0"), "0"),
    (("match", "expert", "normal", "--games", "-3"), "-3"),
])
def test_match_errors(args, needle):
    res = run(*args)
    assert_clean_error(res, 2, needle)


def test_match_json_and_alternation():
    data = json.loads(run("match", "expert", "expert", "--games", "6", "--seed", "3", "--no-progress", "--json").output)
    # games 2i and 2i+1 share the dice with the seats swapped: the same policy wins one of each pair
    assert data["wins"] == data["losses"]
    assert data["wins"] + data["draws"] + data["losses"] == 6
    assert data["mean_a"] == data["mean_b"]


def test_equal_probabilities_listed_by_expected_total():
    data = run_json("hint", "12345", "--rules", "yacht", "--target", "400")
    exp = [o["expected"] for o in data["options"]]
    assert all(o["probability"] == 0.0 for o in data["options"])
    assert exp == sorted(exp, reverse=True)


BONUS_CARD = "ones=3,twos=6,threes=9,fours=12,fives=15,3k=20,4k=20,fh=25,ss=30,ls=40,yahtzee=50"


@pytest.mark.parametrize("dice", ["36666", "66666", "11112"])
def test_fill_target_shows_box_points_and_the_plain_hint_note(dice):
    """The target table and its best line show the box points and the bonus/Joker note as the plain hint does."""
    card = BONUS_CARD if dice != "11112" else GLENN
    plain = run("fill", dice, "--card", card)
    target = run("fill", dice, "--card", card, "--target", "270")
    assert plain.exit_code == 0 and target.exit_code == 0, (plain.output, target.output)
    data = run_json("fill", dice, "--card", card, "--target", "270")
    ev = run_json("fill", dice, "--card", card)
    plain_best = [ln for ln in plain.output.splitlines() if ln.startswith("best: ")][0]
    target_best = [ln for ln in target.output.splitlines() if ln.startswith("best: ")][0]
    best = data["options"][0]
    # the words before "->" are the plain hint's for the same box
    same = [o for o in ev["options"] if o["category"] == best["category"]][0]
    assert target_best.startswith(f"best: score {best['points']} in {best['category']}")
    if same is ev["options"][0]:
        assert target_best.split(" -> ")[0] == plain_best.split(" -> ")[0]
    header = target.output.splitlines()[2]
    assert header.split()[-1] == "note"
    for o in data["options"]:
        notes = []
        if o["yahtzee_bonus"]:
            notes.append(f"+{o['yahtzee_bonus']} Yahtzee bonus")
        if o["upper_bonus"]:
            notes.append(f"+{o['upper_bonus']} upper bonus")
        if o["joker"]:
            notes.append("Joker")
        line = [ln for ln in target.output.splitlines() if f" {o['category']} " in ln and not ln.startswith("best")][0]
        assert str(o["points"]) in line
        if notes:
            assert line.rstrip().endswith(", ".join(notes))
    if dice == "36666":  # 24 in Sixes completes the upper bonus; the box holds 24, not 59
        assert target_best.startswith("best: score 24 in Sixes (+35 upper bonus)")
    if dice == "66666":
        assert "+100 Yahtzee bonus" in target_best and "Joker" in target_best and "score 30 in Sixes" in target_best


def test_target_curve_table_has_one_percentage_format():
    """Both probability columns are percentages with the same significant digits, tiny values included."""
    from yahtzee_solver.cli.target_query import format_probability

    data = run_json("target-curve", "--max", "700", "--no-progress")
    res = run("target-curve", "--max", "700", "--step", "100", "--no-progress")
    assert res.exit_code == 0, res.output
    rows = [re.split(r"\s{2,}", ln.strip()) for ln in res.output.splitlines()[2:]]
    assert rows[-1][0] == "700"
    for T, p_best, p_ev in rows:
        assert p_best == format_probability(data["best"][int(T)])
        assert p_ev == format_probability(data["expected_score_policy"][int(T)])
        assert p_best.endswith(" %") and p_ev.endswith(" %")
    # the last row: two values below 1 %, each with two significant digits
    p_best, p_ev = rows[-1][1][:-2], rows[-1][2][:-2]
    assert data["expected_score_policy"][700] < data["best"][700] < 0.01
    assert len(p_best.lstrip("0.")) == 2 and len(p_ev.lstrip("0.")) == 2


def test_value_help_does_not_promise_options():
    res = run("value", "-h")
    assert res.exit_code == 0 and "--target" in res.output
    assert "rank" not in res.output
    assert "rank the options" in " ".join(run("hint", "-h").output.split())


def test_match_of_one_game_says_game():
    res = run("match", "expert", "expert", "--games", "1", "--seed", "3", "--no-progress")
    assert res.exit_code == 0, res.output
    assert ", 1 game, seed 3" in res.output and " 1 games," not in res.output  # (not the games/s rate)
    assert ", 2 games, seed 3" in run("match", "expert", "expert", "--games", "2", "--seed", "3", "--no-progress").output


def test_progress_bars_stay_off_when_stderr_is_not_a_terminal(monkeypatch):
    """Without --no-progress, the bars of match and of a long target solve draw nothing into a pipe or log."""
    from yahtzee_solver.strategy.objectives import TargetCurve
    import numpy as np

    res = run("match", "expert", "expert", "--games", "2", "--seed", "3")
    assert res.exit_code == 0 and res.stderr == "", res.stderr

    def fake(rules, max_target, card, progress=None):
        for done in range(0, 50_001, 10_000):
            progress(done, 50_000)  # large enough for the bar
        return TargetCurve(rules, card, np.linspace(1.0, 0.5, max_target + 1), 1.0, 50_000)

    monkeypatch.setattr("yahtzee_solver.strategy.objectives.target_curve", fake)
    monkeypatch.setattr("yahtzee_solver.cli.target_curve.ev_policy_survival",
                        lambda rules, m, card, progress=False: np.linspace(1.0, 0.25, m + 1))
    res = run("target-curve", "--card", GLENN, "--max", "30")
    assert res.exit_code == 0 and res.stderr == "", res.stderr


@pytest.mark.parametrize("max_target,step", [(35, 10), (30, 10), (7, 100)])
def test_target_curve_table_ends_at_the_last_target(max_target, step):
    res = run("target-curve", "--card", GLENN, "--max", str(max_target), "--step", str(step), "--no-progress")
    assert res.exit_code == 0, res.output
    targets = [int(ln.split()[0]) for ln in res.output.splitlines()[2:]]
    assert targets == sorted(set(list(range(0, max_target + 1, step)) + [max_target]))


@pytest.mark.parametrize("extra", [(), ("--target", "273")])
def test_box_options_in_json_name_each_box_by_card_key_and_display_name(extra):
    """``fill --json`` with and without ``--target``: one convention for the box fields."""
    from yahtzee_solver.rules import get_rules

    data = run_json("fill", "11112", "--card", GLENN, *extra)
    rules = get_rules(data["rules"])
    for o in data["options"]:
        spec = rules.categories[rules.category_index(o["box"])]
        assert o["box"] == spec.slug and o["name"] == o["category"] == spec.name


def _raise_interrupt(*args, **kwargs):
    raise KeyboardInterrupt


def test_long_solves_state_their_wait_first_and_ctrl_c_stops_them_cleanly(monkeypatch, tmp_path):
    """From the empty card: one stderr line with the states and the expected wait before the solve;
    Ctrl-C in the solve: one line, exit 130, nothing on stdout, no plot file."""
    from yahtzee_solver.state import ScoreCard
    from yahtzee_solver.strategy import objectives as ob

    work = ob.utility_work("yahtzee", ScoreCard.empty("yahtzee"), None, ob.target_utility(250, 0))
    assert work.n_solved < work.n_states == 536_448 and work.state_offsets > 0
    monkeypatch.setattr("yahtzee_solver.strategy.target.TargetAdvisor.probability", _raise_interrupt)
    res = run("value", "--target", "250")
    assert res.exit_code == 130 and res.stdout == "", res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 2, res.stderr
    assert f"{work.n_solved:,} turn-start states" in lines[0] and "about" in lines[0]
    assert f"{work.state_offsets / 1e6:.1f} M state-offsets" in lines[0]
    assert lines[1] == "Interrupted: the target 250 DP stopped; nothing written."

    monkeypatch.setattr("yahtzee_solver.strategy.objectives.target_curve", _raise_interrupt)
    plot = tmp_path / "curve.svg"
    res = run("target-curve", "--recompute", "--max", "300", "--plot", str(plot))
    assert res.exit_code == 130 and res.stdout == "", res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 2 and "target curve yahtzee to 300" in lines[0], res.stderr
    assert lines[1] == "Interrupted: the target curve's DP stopped; nothing written."
    assert not plot.exists()


def test_target_curve_draws_no_bar_into_a_redirected_stderr(monkeypatch):
    """Beyond the shipped curve the command also runs the expert's distribution: its bar, like the
    DP's, is drawn only on a terminal (the runner's stderr is not one)."""
    import types

    import numpy as np

    seen = []

    def fake_curve(rules, max_target, card, progress=None, known=None):
        return types.SimpleNamespace(probabilities=np.zeros(max_target + 1), seconds=0.0, n_states=0)

    def fake_pmf(rules, card, level, progress=False, **kw):
        seen.append(progress)
        return np.array([1.0])

    monkeypatch.setattr("yahtzee_solver.strategy.objectives.target_curve", fake_curve)
    monkeypatch.setattr("yahtzee_solver.strategy.objectives.opponent_pmf", fake_pmf)
    res = run("target-curve", "--recompute", "--max", "300", "--json")
    assert res.exit_code == 0, res.output
    assert seen == [False] and "\r" not in res.stderr


def test_a_computed_curve_names_the_reachable_states_as_the_announcement_does():
    """The header's count is the card's reachable turn-start states (utility_work's n_states, the
    announcement's "reachable"), not called "solved": the DP solves fewer (one per class)."""
    from yahtzee_solver.state import ScoreCard
    from yahtzee_solver.strategy import objectives as ob

    work = ob.utility_work("yacht", ScoreCard.empty("yacht"), None, ob.target_utility(20, 0))
    assert work.n_solved < work.n_states
    res = run("target-curve", "--rules", "yacht", "--max", "20", "--recompute", "--no-progress")
    assert res.exit_code == 0, res.output
    header = res.stdout.splitlines()[0]
    assert f"({work.n_states:,} turn-start states in " in header and "solved" not in header, header
