"""Simulation: the compiled game kernel against the Python game loop move by move,
determinism, statistics, the expert's mean against the table, level ordering, CLI."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from click.testing import CliRunner

from clihelpers import assert_clean_error, assert_click_usage_error, run, run_json
from yahtzee_solver.cli import main
from yahtzee_solver.solver import jit
from yahtzee_solver.dice import KEEPS, ROLL_SUBKEEPS, ROLLS
from yahtzee_solver.errors import IllegalMoveError, UsageError
from yahtzee_solver.strategy.levels import LEVELS, make_strategy
from yahtzee_solver.rules import get_rules
from yahtzee_solver.analysis.simulate import (
    BLOCK,
    CHUNK,
    PERCENTILES,
    draw_dice,
    play_game,
    play_games,
    simulate,
    summarise,
)
from yahtzee_solver.solver.table import default_table_path, load_table

RULE_NAMES = ("yahtzee", "yahtzee-free-joker", "yacht", "yahtzee-no-joker", "yahtzee-no-bonus", "yatzy")


# -- the kernel against the Python game loop -------------------------------------------
@pytest.mark.parametrize("level", ["expert", "normal"])
@pytest.mark.parametrize("rules", RULE_NAMES)
def test_kernel_games_match_python_games_move_by_move(level, rules):
    r = get_rules(rules)
    s = make_strategy(level, r)
    dice = draw_dice(np.random.default_rng(20), 40, r.n_categories)
    totals, flags, moves = play_games(s, dice)
    ycat = r.yahtzee_category
    for g in range(len(dice)):
        trace = []
        card = play_game(s, dice[g], moves=trace)
        kernel = [(KEEPS[k1], KEEPS[k2], ROLLS[roll], int(c)) for k1, k2, roll, c in moves[g]]
        assert kernel == trace, f"game {g}"
        assert totals[g] == card.total
        assert flags[g, 0] == (card.upper_bonus > 0)
        assert flags[g, 1] == (card.boxes[ycat] == 50)


@pytest.mark.parametrize("rules", ["yahtzee", "yahtzee-free-joker", "yahtzee-no-joker"])
def test_kernel_matches_python_in_joker_and_yahtzee_bonus_games(rules):
    """Games with two or more five-alike rolls scored (Joker, Yahtzee bonus), move by move:
    the rare rules must be exercised, or the comparison above proves little."""
    r = get_rules(rules)
    s = make_strategy("expert", r)
    dice = draw_dice(np.random.default_rng(21), 600, r.n_categories)
    totals, flags, moves = play_games(s, dice)
    jokers = bonuses = 0
    for g in range(len(dice)):
        if sum(len(set(ROLLS[roll])) == 1 for roll in moves[g, :, 2]) < 2:
            continue
        trace = []
        card = play_game(s, dice[g], moves=trace)
        assert [(KEEPS[a], KEEPS[b], ROLLS[c], int(d)) for a, b, c, d in moves[g]] == trace
        assert totals[g] == card.total
        bonuses += card.yahtzee_bonus > 0
        jokers += any(len(set(roll)) == 1 and box != r.yahtzee_category for _, _, roll, box in trace)
    assert bonuses >= 3 and jokers >= 3


def test_interpreted_kernel_matches_compiled():
    s = make_strategy("expert", "yacht")
    dice = draw_dice(np.random.default_rng(4), 2, 12)
    fast = play_games(s, dice, jit=True)
    slow = play_games(s, dice, jit=False)
    for a, b in zip(fast, slow):
        assert np.array_equal(a, b)


def test_results_do_not_depend_on_threads_or_chunking():
    import numba

    s = make_strategy("expert")
    dice = draw_dice(np.random.default_rng(7), 3000, 13)
    whole = play_games(s, dice)
    parts = [play_games(s, dice[a:b]) for a, b in ((0, 1), (1, 1000), (1000, 3000))]
    for i in range(3):
        assert np.array_equal(whole[i], np.concatenate([p[i] for p in parts]))
    k = jit.compiled()
    a = s.rules.arrays()
    for parts in (1, 3, 7, 3000):  # runs of the sorted games played by separate threads
        out = (np.zeros(3000, np.int64), np.zeros((3000, 2), np.int8), np.zeros((3000, 13, 4), np.int16))
        k.play_games(dice, s.values, a["score"], a["joker"], s.params, a["params"], ROLL_SUBKEEPS, parts, *out)
        for x, y in zip(whole, out):
            assert np.array_equal(x, y)
    n = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        single = play_games(s, dice)
    finally:
        numba.set_num_threads(n)
    for a, b in zip(whole, single):
        assert np.array_equal(a, b)


# -- dice -----------------------------------------------------------------------------
def test_draw_dice_blocks_make_every_game_independent_of_the_count():
    a = draw_dice(np.random.default_rng(3), 5, 13)
    b = draw_dice(np.random.default_rng(3), BLOCK + 7, 13)
    assert a.shape == (5, 13, 3, 5) and a.dtype == np.int8
    assert np.array_equal(a, b[:5])
    assert a.min() >= 1 and a.max() <= 6
    counts = np.bincount(b.ravel(), minlength=7)[1:]
    assert np.all(np.abs(counts / counts.sum() - 1 / 6) < 0.005)


def test_simulate_is_deterministic_for_a_seed():
    one = simulate("expert", 500, seed=42)
    again = simulate("expert", 500, seed=42)
    other = simulate("expert", 500, seed=43)
    assert np.array_equal(one.scores, again.scores)
    assert not np.array_equal(one.scores, other.scores)
    longer = simulate("expert", CHUNK + 10, seed=42)  # two kernel calls
    assert np.array_equal(longer.scores[:500], one.scores)
    b1 = simulate("beginner", 20, seed=42)
    b2 = simulate("beginner", 30, seed=42)
    assert np.array_equal(b1.scores, b2.scores[:20])


def test_unseeded_runs_report_a_seed_that_repeats_them():
    res = simulate("normal", 50)
    assert np.array_equal(simulate("normal", 50, seed=res.seed).scores, res.scores)


# -- statistics -----------------------------------------------------------------------
def test_summarise():
    scores = np.array([100, 150, 150, 200, 400])
    res = summarise("expert", "yahtzee", 1, scores, [1, 0, 0, 1, 1], [0, 0, 1, 0, 0], 2.0)
    assert res.mean == 200.0
    sd = np.sqrt(((scores - 200.0) ** 2).sum() / 4)
    assert res.sd == pytest.approx(sd)
    assert res.ci95 == pytest.approx((200 - 1.96 * sd / np.sqrt(5), 200 + 1.96 * sd / np.sqrt(5)))
    assert res.percentiles[50] == 150.0 and list(res.percentiles) == list(PERCENTILES)
    assert (res.min, res.max) == (100, 400)
    assert res.upper_bonus_rate == 0.6 and res.yahtzee_rate == 0.2
    assert res.games_per_second == 2.5
    d = json.loads(json.dumps(res.to_dict()))
    assert d["percentiles"]["p50"] == 150.0 and d["games"] == 5 and "scores" not in d
    with pytest.raises(ValueError):
        res.scores[0] = 1


def test_summarise_one_game_has_no_sd_or_interval():
    """The sample sd (n - 1) is undefined for one game: NaN in the object, None in to_dict (strict JSON)."""
    res = summarise("expert", "yahtzee", 1, np.array([245]), [0], [1], 1.0)
    assert res.mean == 245.0 and np.isnan(res.sd) and all(np.isnan(x) for x in res.ci95)
    d = res.to_dict()
    assert d["sd"] is None and d["ci95"] is None
    json.dumps(d, allow_nan=False)
    two = summarise("expert", "yahtzee", 1, np.array([200, 300]), [0, 0], [0, 0], 1.0)
    assert two.sd == pytest.approx(np.sqrt(2 * 50.0 ** 2 / 1))  # n - 1 kept for two games


def test_cli_simulate_one_game_says_sd_and_interval_are_not_defined():
    res = run("simulate", "--games", "1", "--seed", "1", "--no-progress")
    assert res.exit_code == 0, res.output
    lib = simulate("expert", 1, seed=1)
    lines = res.output.splitlines()
    assert lines[0] == "expert player, rules yahtzee: 1 game (seed 1)"
    mean_line = next(line for line in lines if line.split()[0] == "mean")
    assert f"{lib.mean:.2f}" in mean_line and "n/a" in mean_line and ".." not in mean_line
    sd_line = next(line for line in lines if line.split()[0] == "sd")
    assert sd_line.split()[1:] == ["n/a", "(one", "game)"]
    assert "nan" not in res.output.lower()
    d = json.loads(CliRunner().invoke(main, ["simulate", "-n", "1", "--seed", "1", "--json", "--no-progress"]).output)
    assert d["games"] == 1 and d["mean"] == lib.mean and d["sd"] is None and d["ci95"] is None
    two = run("simulate", "--games", "2", "--seed", "1", "--no-progress")
    lib2 = simulate("expert", 2, seed=1)
    assert "2 games (seed 1)" in two.output and f"{lib2.sd:.2f}" in two.output and "n/a" not in two.output


def test_losses_of_one_game_have_no_interval():
    """--losses: the per-game half-widths use n - 1 too, so one game has none (null in JSON, n/a in the text)."""
    from yahtzee_solver.analysis.review import policy_losses

    one = policy_losses("normal", 1, seed=1)
    assert np.isnan(one.per_game[1]) and np.isnan(one.mean_score[1])
    d = one.to_dict()
    assert d["loss_per_game_ci95"] is None and d["mean_score_ci95"] is None and d["loss_per_game"] == one.per_game[0]
    json.dumps(d, allow_nan=False)
    res = run("simulate", "--strategy", "normal", "-n", "1", "--seed", "1", "--losses", "--no-progress")
    assert res.exit_code == 0, res.output
    line = next(line for line in res.output.splitlines() if "points a game" in line)
    assert "95% CI n/a: one game" in line and "nan" not in res.output.lower()
    assert run_json("simulate", "--strategy", "normal", "-n", "1", "--seed", "1", "--losses",
                    "--no-progress")["expected_loss"] == d
    two = policy_losses("normal", 2, seed=1)
    assert np.isfinite(two.per_game[1]) and two.to_dict()["loss_per_game_ci95"] == two.per_game[1]


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_expert_mean_agrees_with_the_table(rules):
    """100,000 optimal games: the table's empty-card value lies in the 95 % interval."""
    res = simulate("expert", 100_000, rules, seed=2024)
    value = load_table(rules).empty_value
    lo, hi = res.ci95
    assert lo <= value <= hi, (lo, value, hi)
    assert hi - lo < 1.0  # and the interval is tight enough to mean something


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_levels_are_ordered_by_clear_margins(rules):
    expert = simulate("expert", 20_000, rules, seed=5)
    normal = simulate("normal", 20_000, rules, seed=5)
    beginner = simulate("beginner", 600, rules, seed=5)
    assert normal.ci95[1] + 15 < expert.ci95[0]
    assert beginner.ci95[1] + 15 < normal.ci95[0]
    # the normal player ignores the upper bonus; in Yatzy (six more boxes that reward high
    # faces: One Pair, Three/Four of a Kind) it still makes it by chance more often
    normal_max = 0.15 if rules == "yatzy" else 0.1
    assert expert.upper_bonus_rate > 0.6 > normal_max > normal.upper_bonus_rate


# -- errors ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"level": "wizard", "games": 1}, r"unknown level 'wizard' \(choose from beginner, normal, expert\)"),
        ({"level": "expert", "games": 0}, "invalid number of games 0: want at least 1"),
        ({"level": "expert", "games": 2.5}, "invalid number of games 2.5"),
        ({"level": "expert", "games": True}, "invalid number of games True"),
        ({"level": "expert", "games": 1, "seed": -3}, "invalid seed -3"),
    ],
)
def test_simulate_rejects_bad_arguments(kwargs, message):
    with pytest.raises(UsageError, match=message):
        simulate(**kwargs)


def test_play_games_needs_a_table_player_and_good_dice():
    with pytest.raises(UsageError, match="the beginner player does not run in the game kernel"):
        play_games(make_strategy("beginner", rng=np.random.default_rng(0)), draw_dice(np.random.default_rng(0), 1, 13))
    s = make_strategy("normal")
    with pytest.raises(UsageError, match=r"invalid pre-drawn dice of shape \(1, 12, 3, 5\)"):
        play_games(s, draw_dice(np.random.default_rng(0), 1, 12))
    bad = draw_dice(np.random.default_rng(0), 1, 13)
    bad[0, 3, 1, 2] = 7
    with pytest.raises(UsageError, match="faces must be whole numbers 1-6"):
        play_games(s, bad)


class _Cheat:
    level = "cheat"
    rules = get_rules("yahtzee")

    def __init__(self, keep=None, box=None):
        self.keep, self.box = keep, box

    def choose_keep(self, card, dice, rolls_left):
        return self.keep if self.keep is not None else dice

    def choose_box(self, card, dice):
        return self.box


def test_play_game_rejects_illegal_moves():
    dice = draw_dice(np.random.default_rng(1), 1, 13)[0]
    first = tuple(sorted(int(d) for d in dice[0, 0]))
    missing = next(f for f in range(1, 7) if f not in first)
    with pytest.raises(IllegalMoveError, match=rf"illegal keep \({missing},\) of dice"):
        play_game(_Cheat(keep=(missing,)), dice)
    with pytest.raises(IllegalMoveError, match="illegal box 13 for dice"):
        play_game(_Cheat(box=13), dice)


# -- CLI ------------------------------------------------------------------------------
def test_cli_simulate_json_matches_the_library():
    res = CliRunner().invoke(main, ["simulate", "--strategy", "normal", "-n", "300", "--seed", "9",
                                    "--rules", "yacht", "--json", "--no-progress"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    lib = simulate("normal", 300, "yacht", seed=9)
    assert d["mean"] == lib.mean and d["games"] == 300 and d["seed"] == 9 and d["rules"] == "yacht"
    assert d["ci95"] == list(lib.ci95) and d["yahtzee_rate"] == lib.yahtzee_rate


@pytest.mark.parametrize("level", LEVELS)
def test_cli_simulate_text(level):
    res = CliRunner().invoke(main, ["simulate", "--strategy", level, "--games", "40", "--seed", "1", "--no-progress"])
    assert res.exit_code == 0, res.output
    lib = simulate(level, 40, seed=1)
    assert f"{level} player, rules yahtzee: 40 games (seed 1)" in res.output
    lo, hi = lib.ci95
    mean_line = next(line.split() for line in res.output.splitlines() if line.split()[0] == "mean")
    assert mean_line == ["mean", f"{lib.mean:.2f}", "(95%", "CI", f"{lo:.2f}", "..", f"{hi:.2f})"]
    for word in ("95% CI", "sd", "P10", "P50", "P90", "upper bonus", "yahtzee (50)"):
        assert word in res.output


def test_cli_simulate_yacht_names_its_own_box():
    res = run("simulate", "--strategy", "normal", "-n", "40", "--seed", "1", "--rules", "yacht", "--no-progress")
    assert res.exit_code == 0, res.output
    lib = simulate("normal", 40, "yacht", seed=1)
    line = next(line for line in res.output.splitlines() if "(50)" in line)
    assert line.split() == ["yacht", "(50)", f"{100 * lib.yahtzee_rate:.2f}", "%"]
    assert "yahtzee" not in res.output.lower()


def test_cli_simulate_takes_the_rules_of_its_table(tmp_path):
    p = tmp_path / "t.h5"
    shutil.copyfile(default_table_path("yacht"), p)
    args = ("simulate", "-n", "50", "--seed", "3", "--no-progress")
    data = run_json(*args, "--table", str(p))
    assert data["rules"] == "yacht"
    assert data == {**run_json(*args, "--rules", "yacht"), "seconds": data["seconds"],
                    "games_per_second": data["games_per_second"]}


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--strategy", "wizard"], "'wizard'"),
        (["--games", "0"], "0 is not in the range"),
        (["--games", "x"], "'x'"),
        (["--games", "1000000000000"], "1000000000000"),
        (["--seed", "-1"], "-1"),
        (["--rules", "poker"], "'poker'"),
    ],
)
def test_cli_simulate_usage_errors_exit_2(args, needle):
    assert_click_usage_error(run("simulate", "--no-progress", *args), needle, command="simulate")


def test_cli_simulate_games_bound_is_documented_and_allowed():
    from yahtzee_solver.cli.simulate import MAX_GAMES

    assert f"{MAX_GAMES:,}" in run("simulate", "-h").output
    assert_click_usage_error(run("simulate", "-n", str(MAX_GAMES + 1)), str(MAX_GAMES + 1), command="simulate")


def test_cli_simulate_out_of_memory_is_one_line(monkeypatch):
    import yahtzee_solver.analysis.simulate as simulate_module

    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(simulate_module, "simulate", no_memory)
    res = run("simulate", "-n", "5", "--no-progress")
    assert_clean_error(res, 1, "out of memory")


def test_cli_simulate_missing_table_exits_1(tmp_path):
    res = CliRunner().invoke(main, ["simulate", "-n", "5", "--no-progress", "--table", str(tmp_path / "none.h5")])
    assert res.exit_code == 1
    assert res.output.strip().startswith("Error: value table") and "not found" in res.output


def test_cli_simulate_help():
    res = CliRunner().invoke(main, ["simulate", "--help"])
    assert res.exit_code == 0 and "--strategy" in res.output and "--seed" in res.output


# -- Ctrl-C and the progress bar ------------------------------------------------------------------------
def _interrupt_after(monkeypatch, n: int):
    """Make the beginner's games raise KeyboardInterrupt (as Ctrl-C does) when game ``n + 1`` starts."""
    import yahtzee_solver.analysis.simulate as sim

    real = sim.play_game
    calls = []

    def play(*args, **kw):
        calls.append(1)
        if len(calls) > n:
            raise KeyboardInterrupt
        return real(*args, **kw)

    monkeypatch.setattr(sim, "play_game", play)


@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_prints_the_games_done_and_exits_130(monkeypatch, as_json):
    full = simulate("beginner", 30, seed=4)  # the first 30 games of any run with this seed
    _interrupt_after(monkeypatch, 30)
    args = ["simulate", "--strategy", "beginner", "-n", "500", "--seed", "4"] + (["--json"] if as_json else [])
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 130, res.output
    assert "Aborted!" not in res.output
    if as_json:
        data = json.loads(res.stdout)
        assert data["interrupted"] and data["games"] == 30 and data["requested"] == 500
        assert data["mean"] == full.mean
    else:
        assert "30 games (seed 4), interrupted after 30 of 500" in res.stdout
        assert f"mean          {full.mean:8.2f}" in res.stdout
        assert "Interrupted: 30 of 500 games played." in res.stderr


def test_ctrl_c_before_any_game_is_exit_130_without_statistics(monkeypatch):
    _interrupt_after(monkeypatch, 0)
    res = CliRunner().invoke(main, ["simulate", "--strategy", "beginner", "-n", "50", "--seed", "4"])
    assert res.exit_code == 130 and "mean" not in res.output and "Interrupted before" in res.output


@pytest.mark.parametrize("extra, bar", [([], False), (["--json"], False), (["--progress"], True),
                                        (["--json", "--progress"], True)])
def test_no_progress_bar_unless_asked_when_not_on_a_terminal(monkeypatch, extra, bar):
    seen = []
    import yahtzee_solver.analysis.simulate as sim

    real = sim.simulate
    monkeypatch.setattr(sim, "simulate", lambda *a, **kw: seen.append(kw["progress"]) or real(*a, **kw))
    res = CliRunner().invoke(main, ["simulate", "--strategy", "normal", "-n", "20", "--seed", "1", *extra])
    assert res.exit_code == 0, res.output
    assert seen == [bar]
    assert ("game/s" in res.stderr or "it/s" in res.stderr or "%|" in res.stderr) == bar


def test_sigint_to_a_running_simulation_keeps_the_games_done():
    import signal
    import subprocess
    import sys
    import time

    p = subprocess.Popen([sys.executable, "-m", "yahtzee_solver", "simulate", "--strategy", "beginner",
                          "-n", "10000000", "--seed", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(6)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, (out, err)
    assert "Aborted!" not in err and "Traceback" not in err
    if "Interrupted before the first game" not in err:
        assert "interrupted after" in out and "mean" in out and "of 10,000,000 games played" in err


def test_ctrl_c_with_losses_says_the_losses_were_not_computed(monkeypatch):
    _interrupt_after(monkeypatch, 10)
    res = CliRunner().invoke(main, ["simulate", "--strategy", "beginner", "-n", "100", "--seed", "4", "--losses"])
    assert res.exit_code == 130, res.output
    assert "Expected losses not computed: the run was interrupted." in res.stderr
