"""Command-line input as people type it: full-width dice and cards, options that imply others, Ctrl-C."""

from __future__ import annotations

import json
import os
import stat

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
