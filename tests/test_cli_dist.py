"""``yahtzee-solve dist``: text, JSON, the histogram's width, --plot and bad input."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from clihelpers import assert_clean_error, assert_click_usage_error, run, run_json
from yahtzee_solver.strategy.distribution import PERCENTILES, THRESHOLDS, score_distribution
from yahtzee_solver.state import parse_card

CARD = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,chance=20,3k=25,4k=0"


def test_json_matches_the_library():
    out = run_json("dist", "--card", CARD)
    d = score_distribution(parse_card(CARD))
    assert out["mean"] == pytest.approx(d.mean, abs=1e-12)
    assert out["sd"] == pytest.approx(d.sd, abs=1e-12)
    assert out["percentiles"] == {f"p{q}": d.percentile(q) for q in PERCENTILES}
    assert set(out["p_at_least"]) == {str(t) for t in THRESHOLDS}
    pmf = np.array(out["pmf"])
    assert abs(pmf.sum() - 1) < 1e-12 and out["pmf_start"] == out["min"]
    assert out["card_total"] == parse_card(CARD).total and out["dice"] is None


def test_mid_turn_and_cpu_strategy():
    out = run_json("dist", "22555", "-r", "1", "--card", CARD, "--strategy", "normal")
    d = score_distribution(parse_card(CARD), dice="22555", rolls_left=1, strategy="normal")
    assert out["strategy"] == "normal" and out["rolls_left"] == 1 and out["dice"] == "22555"
    assert out["mean"] == pytest.approx(d.mean, abs=1e-12)


def test_text_report_fits_80_columns():
    res = run("dist", "--card", CARD)
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()[1:]  # after the card line that hint prints too
    assert max(len(line) for line in lines) <= 80
    text = res.output
    assert "mean" in text and "percentile" in text and "P(final>=T)" in text
    assert any("█" in line for line in lines)


def test_plot_writes_png_and_svg(tmp_path):
    pytest.importorskip("matplotlib")
    for name in ("d.png", "d.svg"):
        res = run("dist", "--card", CARD, "--plot", str(tmp_path / name))
        assert res.exit_code == 0, res.output
    assert (tmp_path / "d.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in (tmp_path / "d.svg").read_bytes()[:2000]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.png", "d.svg"]  # no temp files left


def _no_distribution(monkeypatch):
    """Make computing a distribution fail: a check that must come first is then seen to come first."""
    import yahtzee_solver.strategy.distribution as distribution

    def refuse(*args, **kwargs):
        raise AssertionError("the distribution was computed before the plot file was checked")

    monkeypatch.setattr(distribution, "score_distribution", refuse)


def test_plot_without_matplotlib_names_the_extra_before_any_work(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    _no_distribution(monkeypatch)
    res = run("dist", "--card", CARD, "--plot", str(tmp_path / "d.png"))
    assert_clean_error(res, 1, "yahtzee-solver[plot]")
    assert not (tmp_path / "d.png").exists()


def test_plot_folder_is_checked_before_any_work_and_never_made(tmp_path, monkeypatch):
    _no_distribution(monkeypatch)
    missing = tmp_path / "no" / "such"
    res = run("dist", "--card", CARD, "--plot", str(missing / "d.png"))
    assert_clean_error(res, 2, f"folder '{missing}' does not exist")
    assert not (tmp_path / "no").exists()
    card = tmp_path / "card.json"
    card.write_text("{}")
    res = run("dist", "--card", CARD, "--plot", str(card / "d.png"))
    assert_clean_error(res, 2, f"'{card}' is not a directory")
    assert card.read_text() == "{}"
    res = run("target-curve", "--plot", str(card / "d.png"))  # the same check
    assert_clean_error(res, 2, f"'{card}' is not a directory")


def test_plot_pdf_and_the_title_names_the_position(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    from yahtzee_solver.cli import dist as dist_cli

    titles = []
    real = dist_cli.save_plot
    monkeypatch.setattr(dist_cli, "save_plot", lambda d, path, title="", fig=None: titles.append(title)
                        or real(d, path, title, fig))
    res = run("dist", "22555", "-r", "1", "--card", CARD, "--plot", str(tmp_path / "d.pdf"))
    assert res.exit_code == 0, res.output
    assert (tmp_path / "d.pdf").read_bytes()[:5] == b"%PDF-"
    card = parse_card(CARD)
    assert "dice 22555, 1 roll left" in titles[0] and f"card total {card.total}" in titles[0]
    assert "sixes=18" in titles[0] and "turn 10 of 13" in titles[0]


@pytest.mark.parametrize(
    "args,code,needle",
    [
        (["--plot", "d.gif"], 2, ".png, .svg, .pdf"),
        (["--rolls-left", "1"], 2, "--rolls-left needs the DICE"),
        (["1234"], 2, "1234"),
        (["--card", "sixes=19"], 2, "sixes"),
    ],
)
def test_bad_input(args, code, needle, tmp_path):
    res = run("dist", *args)
    assert_clean_error(res, code, needle)


@pytest.mark.parametrize("command", ["dist", "target-curve"])
@pytest.mark.parametrize("path", ["", " "])
def test_an_empty_plot_path_is_a_usage_error_quoting_it(command, path):
    # Path('') is '.', so an empty --plot was quoted back as '.'
    res = run(command, "--plot", path)
    assert_clean_error(res, 2, f"invalid plot file {path!r}: empty")
    assert "'.'" not in res.output


def test_bad_strategy_is_a_click_usage_error():
    assert_click_usage_error(run("dist", "--strategy", "genius"), "genius", command="dist")


@pytest.mark.parametrize("rl", ["2", "0"])
def test_hint_dist_adds_sd_and_tail_probability(rl):
    from yahtzee_solver.strategy.distribution import option_distributions

    out = run_json("hint", "22555", "-r", rl, "--card", CARD, "--dist", "--dist-threshold", "250")
    dists = option_distributions(parse_card(CARD), "22555", int(rl))
    assert out["dist_threshold"] == 250 and len(out["options"]) == len(dists)
    from yahtzee_solver.dice import parse_dice
    from yahtzee_solver.rules import get_rules

    for o in out["options"]:
        key = parse_dice(o["keep"], n=None) if rl != "0" else get_rules("yahtzee").category_index(o["category"])
        d = dists[key]
        assert o["sd"] == pytest.approx(d.sd, abs=1e-12)
        assert o["p_at_least"] == pytest.approx(d.prob_at_least(250), abs=1e-15)
        assert o["expected"] == pytest.approx(d.mean, abs=1e-9)
    text = run("hint", "22555", "-r", rl, "--card", CARD, "--dist")
    assert text.exit_code == 0 and "P>=300" in text.output


def test_dist_reads_the_table_chunk_by_chunk_and_stops_at_a_damaged_one(tmp_path):
    """``dist`` from a late card reads only the chunks of the states the game can still reach; a value
    rewritten in one of them (a valid Fletcher-32, a wrong SHA-256) stops it before any figure is printed,
    and the figures from an intact file equal those from the whole table."""
    import h5py

    from yahtzee_solver.solver import table as table_mod
    from yahtzee_solver.solver.table import default_table_path, load_table, open_table

    path = tmp_path / "yahtzee.h5"
    path.write_bytes(default_table_path("yahtzee").read_bytes())
    card = parse_card(CARD)
    out = run_json("dist", "--card", CARD, "--table", str(path))
    whole = score_distribution(card, table=load_table("yahtzee"))
    assert out["mean"] == whole.mean and np.array_equal(out["pmf"], whole.pmf[out["min"]:out["max"] + 1])
    opened = open_table("yahtzee", path)
    assert not opened.is_loaded and opened._reader.loaded.sum() == 16  # boxes 8..11 open: 16 of 128 chunks
    late = card.key.mask | (1 << 10) | (1 << 11)  # a state two turns later
    with h5py.File(path, "r+") as f:
        f["values"][late, 63, 0] += 1.0
    table_mod._TABLE_CACHE.clear()
    assert_clean_error(run("dist", "--card", CARD, "--table", str(path)), 1, "fails its checksum",
                       f"chunk {late // 64}")


def test_every_probability_in_the_text_has_one_format():
    """The tail probabilities and the histogram's scale are written by the one formatter, down to the tiny
    P(final >= 300) of Yacht and the zeros (once 0%, 100.00% and 2e-04% side by side)."""
    from yahtzee_solver.cli.target_query import format_probability

    res = run("dist", "--rules", "yacht")
    assert res.exit_code == 0, res.output
    d = score_distribution(parse_card(None, "yacht"), "yacht")
    row = next(line for line in res.output.splitlines() if line.startswith("  P(final>=T)"))
    rest = row[len("  P(final>=T)"):]
    for t in THRESHOLDS:
        text = format_probability(d.prob_at_least(t))
        assert rest.lstrip().startswith(text), (t, text, rest)
        rest = rest.lstrip()[len(text):]
    assert rest == ""
    assert 0 < d.prob_at_least(300) < 1e-4 and d.prob_at_least(500) == 0  # the tiny value and zero are shown
    tallest = res.output.splitlines()[-1].rsplit("tallest column ", 1)[1]
    top_row = next(line for line in res.output.splitlines() if " |" in line)
    assert top_row.split(" |")[0].strip() == tallest and "%" in tallest


def test_ctrl_c_in_the_distribution_is_one_line_exit_130(monkeypatch):
    """As the target DPs and the build: one stderr line, nothing on stdout (it was click's bare 'Aborted!')."""
    import yahtzee_solver.strategy.distribution as distribution

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(distribution, "score_distribution", interrupted)
    result = run("dist", "--rules", "yatzy", "--json")
    assert result.exit_code == 130, result.output
    assert result.stdout == "" and result.stderr == "Interrupted: the distribution stopped; nothing written.\n"
