"""Command-line input as people type it: full-width dice and cards, options that imply others, Ctrl-C."""

from __future__ import annotations

import json
import os
import stat

import numpy as np
import pytest
from clihelpers import run, run_json

CARD = "sixes=18,fours=12,chance=22,yahtzee=50"


def test_full_width_dice_and_card_read_as_ascii():
    ascii_ = run_json("hint", "22555", "--card", CARD)
    wide = run_json("hint", "２２５５５", "--card", "ｓｉｘｅｓ＝１８，ｆｏｕｒｓ＝１２，ｃｈａｎｃｅ＝２２，ｙａｈｔｚｅｅ＝５０")
    assert wide == ascii_


def test_dist_threshold_implies_dist():
    both = run_json("hint", "22555", "--card", CARD, "--dist", "--dist-threshold", "250")
    alone = run_json("hint", "22555", "--card", CARD, "--dist-threshold", "250")
    assert alone == both
    assert "250" in json.dumps(alone)  # the threshold asked for is the one reported


def test_plain_hint_has_no_distribution():
    plain = run_json("hint", "22555", "--card", CARD)
    with_dist = run_json("hint", "22555", "--card", CARD, "--dist")
    assert plain != with_dist


def test_ctrl_c_exits_130(monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("yahtzee_solver.cli.query._advisor", interrupted)
    res = run("hint", "22555")
    assert res.exit_code == 130 and "Aborted!" in res.output and "Traceback" not in res.output


def test_plot_file_gets_the_usual_permissions(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "d.svg"
    old = os.umask(0o022)
    try:
        res = run("dist", "--card", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30",
                  "--plot", str(out))
    finally:
        os.umask(old)
    assert res.exit_code == 0, res.output
    assert stat.S_IMODE(out.stat().st_mode) == 0o644  # not the temp file's owner-only 0600


LATE = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,ls=40"


def test_target_curve_checks_the_plot_file_before_the_work(monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("the DP ran before the plot file was checked")

    monkeypatch.setattr("yahtzee_solver.strategy.objectives.target_curve", never)
    res = run("target-curve", "--max", "300", "--card", LATE, "--plot", "curve.txt", "--no-progress")
    assert res.exit_code == 2 and "'curve.txt'" in res.output and "Traceback" not in res.output


@pytest.mark.parametrize("args,needle", [
    (["target-curve", "--max", "10000000", "--no-progress"], "10000000"),
    (["match", "master", "expert", "--games", "99999999999999999999999"], "99999999999999999999999"),
])
def test_huge_numbers_are_usage_errors(args, needle):
    res = run(*args)
    assert res.exit_code == 2 and needle in res.output and "Traceback" not in res.output


def test_targets_beyond_the_card_are_zero_without_solving_them():
    from yahtzee_solver.strategy.objectives import target_curve
    from yahtzee_solver.state import parse_card

    card = parse_card(LATE)
    small = target_curve(card.rules, 450, card)
    big = target_curve(card.rules, 5000, card)
    assert np.array_equal(big.probabilities[:451], small.probabilities)
    assert not big.probabilities[451:].any()
