"""The shipped target curves (curve_data.py, data/target-curve-*.json) and target-curve reading them.

The shipped Yahtzee curve took minutes of DP; here its first entries are
recomputed by the same DP from the empty card (a small maximum target), and
its invariants are checked, the expected-score column against the optimal
expected score of the value table.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from clihelpers import assert_clean_error, run, run_json
from yahtzee_solver.analysis.curve_data import (SHIPPED_RULES, curve_path, digest, load_curve, max_final_total, save_curve,
                                       shipped_curve)
from yahtzee_solver.errors import TableError
from yahtzee_solver.strategy.objectives import TargetCurve, max_points_to_come, target_curve
from yahtzee_solver.state import ScoreCard

#: Largest target recomputed by the DP from the empty card in the tests (the DP still visits every
#: state: about 15 s on 2 cores; the curve is 1 - 3e-15 there, 1 - 3e-7 at 100, which takes 4 times longer).
SMALL_MAX = 60


@pytest.fixture(scope="module")
def shipped():
    return load_curve(curve_path("yahtzee"), "yahtzee")


def test_shipped_yahtzee_curve_is_the_dp(shipped):
    assert shipped.max_target >= 700
    small = target_curve("yahtzee", SMALL_MAX)
    assert small.n_states == shipped.n_states
    np.testing.assert_allclose(shipped.best[: SMALL_MAX + 1], small.probabilities, rtol=0, atol=1e-12)
    assert small.probabilities[SMALL_MAX] < 1.0  # not every entry compared is exactly 1


def test_shipped_curve_invariants(shipped, fresh_table):
    best, ev = shipped.best, shipped.expected_score_policy
    assert best[0] == 1.0 and ev[0] == 1.0
    assert np.all(np.diff(best) <= 1e-15) and np.all(np.diff(ev) <= 1e-15)
    assert np.all(best >= ev - 1e-12)
    assert np.any(best > ev + 1e-3)  # chasing a target pays
    # sum over T = 1..M of P(final >= T) is the mean of min(final, M): for the expected-score policy the
    # optimal expected score less the mean excess above M, which is at most (top - M) * P(final > M)
    M = shipped.max_target
    card = ScoreCard.empty("yahtzee")
    top = int(max_points_to_come(card.rules, [card.key[0]], [card.key[1]], [card.key[2]])[0])
    v = fresh_table("yahtzee").value(*card.key)
    assert 0 <= v - ev[1:].sum() <= (top - M) * ev[M]
    assert best[1:].sum() > v
    assert shipped.seconds > 0 and shipped.peak_rss_mib > 0 and "target_curve_data.py" in shipped.command


def _write(path, **changes):
    best = np.array([1.0, 0.75, 0.5, 0.0])
    ev = np.array([1.0, 0.5, 0.25, 0.0])
    save_curve(path, "yahtzee", best, ev, command="test", seconds=1.0, cpu_seconds=1.0, peak_rss_mib=1.0,
               n_states=10)
    data = json.loads(path.read_text())
    data.update(changes)
    if ("best" in changes or "expected_score_policy" in changes) and "sha256" not in changes:
        data["sha256"] = digest(data["best"], data["expected_score_policy"])
    path.write_text(json.dumps(data))
    return path


def test_load_curve_round_trip(tmp_path):
    c = load_curve(_write(tmp_path / "c.json"), "yahtzee")
    assert c.max_target == 3 and c.best.tolist() == [1.0, 0.75, 0.5, 0.0] and c.command == "test"
    with pytest.raises(ValueError):
        c.best[0] = 0.5  # read-only


@pytest.mark.parametrize("changes,needle", [
    ({"format": "something else"}, "not a"),
    ({"version": 2}, "version 2"),
    ({"rules": "yacht"}, "'yacht'"),
    ({"rules": "nosuchrules"}, "nosuchrules"),
    ({"max_target": 7}, "max_target 7"),
    ({"sha256": "sha256:00"}, "sha256"),
    ({"best": [1.0, 0.5, 0.75, 0.0]}, "rises at T = 2"),
    ({"best": [0.9, 0.75, 0.5, 0.0]}, "best[0]"),
    ({"best": [1.0, 0.75, 0.2, 0.0]}, "below the expected-score policy"),
    ({"best": [1.0, 0.75, 1.5, 0.0]}, "outside [0, 1]"),
    ({"command": None, "seconds": "x"}, "malformed field 'command'"),
    ({"seconds": "x"}, "malformed field 'seconds': \"x\""),
    ({"n_states": 1.5}, "malformed field 'n_states'"),
    ({"best": "1,0.5", "sha256": "sha256:00"}, "malformed field 'best'"),
    ({"best": [1.0, 0.5, "x", 0.0], "sha256": "sha256:00"}, "malformed field 'best'"),
])
def test_load_curve_refuses_bad_files(tmp_path, changes, needle):
    path = _write(tmp_path / "c.json", **changes)
    with pytest.raises(TableError, match="invalid") as e:
        load_curve(path, "yahtzee")
    assert needle in str(e.value) and "\n" not in str(e.value)


def test_load_curve_names_a_missing_field(tmp_path):
    path = _write(tmp_path / "c.json")
    data = json.loads(path.read_text())
    del data["peak_rss_mib"]
    path.write_text(json.dumps(data))
    with pytest.raises(TableError, match="missing field 'peak_rss_mib'"):
        load_curve(path, "yahtzee")


def test_load_curve_refuses_truncated_file(tmp_path):
    path = _write(tmp_path / "c.json")
    path.write_bytes(path.read_bytes()[:-40])
    with pytest.raises(TableError, match="corrupt"):
        load_curve(path)


def test_save_curve_refuses_a_rising_column(tmp_path):
    with pytest.raises(TableError, match="rises"):
        save_curve(tmp_path / "c.json", "yahtzee", [1.0, 0.5, 0.6], [1.0, 0.5, 0.5], command="x", seconds=0,
                   cpu_seconds=0, peak_rss_mib=0, n_states=0)
    assert not (tmp_path / "c.json").exists()


def test_target_curve_reads_the_shipped_file(shipped, monkeypatch):
    def never(*a, **k):
        raise AssertionError("the DP ran")

    monkeypatch.setattr("yahtzee_solver.strategy.objectives.target_curve", never)
    data = run_json("target-curve", "--max", "400", "--no-progress")
    assert data["source"] == "precomputed" and data["seconds"] == 0.0
    assert data["precomputed"]["command"] == shipped.command
    assert data["best"] == shipped.best[:401].tolist()
    assert data["expected_score_policy"] == shipped.expected_score_policy[:401].tolist()
    res = run("target-curve", "--max", "400", "--step", "100", "--no-progress")
    assert res.exit_code == 0, res.output
    assert "precomputed by python scripts/target_curve_data.py" in res.output and "--recompute" in res.output
    assert shipped_curve("yahtzee", shipped.max_target + 1) is None  # a larger --max runs the DP


def test_target_curve_recompute_runs_the_dp(monkeypatch):
    calls = []

    def fake(rules, max_target, card, progress=None):
        calls.append((rules.name, max_target, card.filled))
        return TargetCurve(rules, card, np.linspace(1.0, 0.5, max_target + 1), 1.0, 7)

    monkeypatch.setattr("yahtzee_solver.strategy.objectives.target_curve", fake)
    monkeypatch.setattr("yahtzee_solver.cli.target_curve.ev_policy_survival",
                        lambda rules, m, card, progress=False: np.linspace(1.0, 0.25, m + 1))
    data = run_json("target-curve", "--max", "300", "--recompute", "--no-progress")
    assert calls == [("yahtzee", 300, 0)]
    assert data["source"] == "computed" and data["n_states"] == 7 and "precomputed" not in data
    assert data["best"][-1] == 0.5 and data["expected_score_policy"][-1] == 0.25


def test_target_curve_with_a_card_runs_the_dp():
    data = run_json("target-curve", "--card", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,"
                    "ss=30,ls=40", "--max", "300", "--no-progress")
    assert data["source"] == "computed" and "precomputed" not in data


def test_target_curve_names_a_bad_shipped_file(tmp_path, monkeypatch):
    bad = _write(tmp_path / "target-curve-yahtzee.json", sha256="sha256:00")
    monkeypatch.setattr("yahtzee_solver.analysis.curve_data.curve_path", lambda rules, folder=None: bad)
    res = run("target-curve", "--max", "3", "--no-progress")
    assert_clean_error(res, 1, "sha256", "--recompute")


def _never(*a, **k):
    raise AssertionError("the DP ran")


def test_shipped_rules_are_the_shipped_files():
    folder = curve_path("yahtzee").parent
    assert sorted(p.name for p in folder.glob("target-curve-*.json")) == sorted(
        curve_path(name).name for name in SHIPPED_RULES)


def test_target_curve_says_a_missing_shipped_file_before_the_dp(tmp_path, monkeypatch):
    missing = tmp_path / "target-curve-yahtzee.json"
    monkeypatch.setattr("yahtzee_solver.analysis.curve_data.curve_path", lambda rules, folder=None: missing)
    monkeypatch.setattr("yahtzee_solver.strategy.objectives.target_curve",
                        lambda rules, m, card, progress=None: TargetCurve(rules, card, np.linspace(1, .5, m + 1), 1.0, 7))
    monkeypatch.setattr("yahtzee_solver.cli.target_curve.ev_policy_survival",
                        lambda rules, m, card, progress=False: np.linspace(1.0, 0.25, m + 1))
    res = run("target-curve", "--max", "30", "--no-progress")
    assert res.exit_code == 0, res.output
    notes = res.stderr.splitlines()
    assert len(notes) == 1 and "not found" in notes[0] and str(missing) in notes[0] and "DP" in notes[0]
    assert "not found" not in res.stdout
    # a shipped file that stops short of --max is said too; none when a file answers
    short = _write(tmp_path / "short.json")
    monkeypatch.setattr("yahtzee_solver.analysis.curve_data.curve_path", lambda rules, folder=None: short)
    knowns = []

    def fake(rules, m, card, progress=None, known=None):
        knowns.append(known)
        return TargetCurve(rules, card, np.linspace(1, .5, m + 1), 1.0, 7)

    monkeypatch.setattr("yahtzee_solver.strategy.objectives.target_curve", fake)
    res = run("target-curve", "--max", "30", "--no-progress")
    assert res.exit_code == 0 and "covers T up to 3, not --max 30; running the DP for T above 3" in res.stderr
    # the DP solves only the targets above the file (target_curve(known=...) keeps the bits)
    assert knowns[-1].tolist() == load_curve(short, "yahtzee").best.tolist()
    assert "T up to 3 read from the shipped curve" in res.stdout
    res = run("target-curve", "--max", "3", "--no-progress")
    assert res.exit_code == 0 and res.stderr == ""


def test_target_curve_says_nothing_for_rules_without_a_shipped_file(monkeypatch):
    assert "yatzy" not in SHIPPED_RULES
    monkeypatch.setattr("yahtzee_solver.strategy.objectives.target_curve",
                        lambda rules, m, card, progress=None: TargetCurve(rules, card, np.linspace(1, .5, m + 1), 1.0, 7))
    monkeypatch.setattr("yahtzee_solver.cli.target_curve.ev_policy_survival",
                        lambda rules, m, card, progress=False: np.linspace(1.0, 0.25, m + 1))
    res = run("target-curve", "--rules", "yatzy", "--max", "30", "--no-progress")
    assert res.exit_code == 0 and res.stderr == ""


def test_yacht_curve_answers_any_max_above_the_most_yacht_scores(monkeypatch):
    monkeypatch.setattr("yahtzee_solver.strategy.objectives.target_curve", _never)
    monkeypatch.setattr("yahtzee_solver.cli.target_curve.ev_policy_survival", _never)
    shipped = load_curve(curve_path("yacht"), "yacht")
    most = max_final_total("yacht")
    assert shipped.max_target >= most  # the shipped file reaches the most Yacht can score
    assert shipped.best[most] > 0.0  # and that total can be reached: the bound is the maximum
    data = run_json("target-curve", "--rules", "yacht")  # default --max 700
    assert data["source"] == "precomputed" and data["max_target"] == 700 and len(data["best"]) == 701
    assert data["best"][: shipped.max_target + 1] == shipped.best.tolist()
    assert data["best"][shipped.max_target + 1:] == [0.0] * (700 - shipped.max_target)
    assert data["expected_score_policy"][shipped.max_target + 1:] == [0.0] * (700 - shipped.max_target)
    assert data["precomputed"]["padded_from"] == shipped.max_target + 1
    res = run("target-curve", "--rules", "yacht", "--step", "100")
    assert res.exit_code == 0 and res.stderr == ""
    assert f"T above {shipped.max_target} is exactly 0" in res.stdout and str(most) in res.stdout


def test_a_curve_short_of_the_most_a_rule_set_scores_is_not_padded(tmp_path):
    most = max_final_total("yacht")
    best = np.concatenate([np.linspace(1.0, 0.1, most - 10), np.zeros(5)])
    path = tmp_path / "target-curve-yacht.json"
    save_curve(path, "yacht", best, best, command="t", seconds=1, cpu_seconds=1, peak_rss_mib=1, n_states=1)
    assert shipped_curve("yacht", most - 20, tmp_path).padded_from is None
    assert shipped_curve("yacht", most - 5, tmp_path) is None
    assert shipped_curve("yacht", 700, tmp_path) is None


def test_load_curve_refuses_a_nonzero_entry_above_the_most_a_rule_set_scores(tmp_path):
    most = max_final_total("yacht")
    best = np.concatenate([np.linspace(1.0, 1e-3, most + 2), np.zeros(3)])
    path = tmp_path / "target-curve-yacht.json"
    save_curve(path, "yacht", best, best, command="t", seconds=1, cpu_seconds=1, peak_rss_mib=1, n_states=1)
    with pytest.raises(TableError, match=f"not 0 above {most} points"):
        load_curve(path, "yacht")
