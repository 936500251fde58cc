"""The review of a game at a table (issue 18.3): every player's luck and skill, the chances round by round.

The splits are checked against each player's own game reviewed alone (the same per-game review) and
against the identity ``final = start value - skill loss + luck``; the chances against the coach's
machinery asked card by card (:func:`~yahtzee_solver.strategy.objectives.opponent_pmf` and
:func:`~yahtzee_solver.strategy.objectives.first_place_chances`), which the one-pass solve must equal.
Chances are computed on ``yacht`` (12 boxes: a pass from the empty card takes about 2 s).
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from clihelpers import assert_clean_error, run, run_json
from gamehelpers import table_log
from yahtzee_solver.analysis.review import review_game
from yahtzee_solver.analysis.table_review import review_table
from yahtzee_solver.game import cpu_actions, new_game
from yahtzee_solver.i18n import Translator, display_width
from yahtzee_solver.play.history import DamagedEntry, History, HistoryEntry, add_entry, add_finished_game, history_path
from yahtzee_solver.state import ScoreCard
from yahtzee_solver.strategy.distribution import score_distribution, turn_start_distributions
from yahtzee_solver.strategy.levels import make_strategy
from yahtzee_solver.strategy.objectives import first_place_chances, opponent_pmf
from yahtzee_solver.strategy.advisor import Advisor
from yahtzee_solver.tui.review import chance_chart


def _solo(rules, level, seed, rng_seed):
    """A finished solitaire game of a CPU level, seeded (the beginner's blunders too)."""
    player = make_strategy(level, rules, rng=np.random.default_rng(rng_seed))
    state = new_game(rules, "none", seed=seed)
    while not state.is_terminal():
        for a in cpu_actions(state, player):
            state.apply_action(a)
    return state


LEVELS = ("expert", "normal", "beginner")


@pytest.fixture(scope="module")
def advisor():
    return Advisor("yahtzee")


def test_every_players_split_is_their_own_review_and_the_identity_holds(advisor):
    """20 seeded games of three players (expert, normal, beginner): each split is that player's game
    reviewed alone, and final = start value - skill loss + luck within 1e-9."""
    for g in range(20):
        states = [_solo("yahtzee", lvl, 100 * g + i, 7 * g + i) for i, lvl in enumerate(LEVELS)]
        table = review_table("yahtzee", LEVELS, table_log(states), advisor=advisor, chances=False)
        assert table.names == LEVELS and table.rounds == tuple(range(1, 14))
        assert table.chances == (None,) * 13 and not table.computed
        for p, st in zip(table.players, states):
            alone = review_game(st, 0, advisor=advisor)
            assert p.final == st.cards[0].total == alone.final_score
            assert (p.start_value, p.skill_loss, p.luck) == (alone.start_value, alone.skill_loss, alone.luck)
            assert abs(p.final - (p.start_value - p.skill_loss + p.luck)) < 1e-9, (g, p)
        expert = table.players[0]
        assert expert.skill_loss == 0.0
        totals = [st.cards[0].total for st in states]
        top = max(totals)
        assert table.result == tuple((t == top) / totals.count(top) for t in totals)


def _cards_by_round(states):
    """cards[t][i]: player i's card at the start of round t + 1."""
    out = []
    for st in states:
        card, row = ScoreCard.empty(st.rules), []
        for ev in st.log:
            if ev.kind == "score":
                row.append(card)
                points, _, bonus = card.box_points(ev.dice)
                card = card.with_box(ev.category, points[ev.category], bonus)
        out.append(row)
    return [list(r) for r in zip(*out)]


@pytest.fixture(scope="module")
def yacht_games():
    """Two three-player yacht games and their table reviews (chances computed)."""
    adv = Advisor("yacht")
    games = []
    for g in range(2):
        states = [_solo("yacht", lvl, 50 + 10 * g + i, g + i) for i, lvl in enumerate(LEVELS)]
        games.append((states, review_table("yacht", ("Ann", "Bob", "Chen"), table_log(states), advisor=adv)))
    return games


def test_the_chances_sum_to_one_and_are_the_coachs_card_by_card(yacht_games):
    for states, table in yacht_games:
        assert table.rounds == tuple(range(1, 13)) and table.computed
        assert table.by_symmetry == (1,)  # every card empty
        assert table.chances[0] == (1 / 3,) * 3
        for t, (row, cards) in enumerate(zip(table.chances, _cards_by_round(states))):
            assert row is not None and abs(sum(row) - 1.0) < 1e-9
            assert all(0.0 <= p <= 1.0 for p in row)
            if states is yacht_games[0][0] and t in (1, 5, 10, 11):
                # the coach's model asked card by card: each card's own distribution DP
                want = first_place_chances([opponent_pmf("yacht", c, "expert") for c in cards])
                assert np.allclose(row, want, atol=1e-12, rtol=0), t
        totals = [st.cards[0].total for st in states]
        top = max(totals)
        assert table.result == tuple((x == top) / totals.count(top) for x in totals)
        d = json.loads(json.dumps(table.to_dict()))
        assert d["rounds"] == list(table.rounds) and [p["name"] for p in d["players"]] == ["Ann", "Bob", "Chen"]
        assert [p["chances"] for p in d["players"]] == [table.series(i) for i in range(3)]
        assert d["model"] == "expert"


def test_the_first_round_is_one_nth_each_as_computed_from_the_empty_card():
    """The symmetry the first round is given by: the empty card's distribution for every player."""
    empty = opponent_pmf("yacht", ScoreCard.empty("yacht"), "expert")
    for n in (2, 3, 4):
        got = first_place_chances([empty] * n)
        assert np.allclose(got, 1 / n, atol=1e-12, rtol=0)


def test_one_pass_gives_each_cards_own_distribution(yacht_games):
    states, _ = yacht_games[0]
    cards = [c for row in _cards_by_round(states)[1:] for c in row] + [states[0].cards[0], ScoreCard.empty("yacht")]
    cards = cards[3::5] + cards[-2:]  # a few of each stage, the full card and the empty one
    got = turn_start_distributions(cards)
    for c, d in zip(cards, got):
        want = score_distribution(c)
        assert d.pmf.shape == want.pmf.shape and np.array_equal(d.pmf, want.pmf), c


def test_rounds_with_too_many_open_boxes_are_not_computed_and_the_chart_says_so(yacht_games):
    states, full = yacht_games[0]
    table = review_table("yacht", ("Ann", "Bob", "Chen"), table_log(states), max_open=5)
    open_at = [max(len(c.open_categories) for c in cards) for cards in _cards_by_round(states)]
    for row, want, n in zip(table.chances, full.chances, open_at):
        assert (row is None) == (n > 5)
        if row is not None:
            assert row == want
    assert table.by_symmetry == ()
    tr = Translator("en")
    text = "\n".join(chance_chart(tr, table))
    assert tr("table.not_computed", n=5) in " ".join(text.split())
    assert "  --" in text


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_the_chart_fits_80_columns_with_long_names(yacht_games, lang):
    _, table = yacht_games[0]
    names = ("阿尔伯特·爱因斯坦和他的朋友们", "Bartholomew Featherstonehaugh", "C")
    t = dataclasses.replace(table, players=tuple(dataclasses.replace(p, name=n) for p, n in zip(table.players, names)))
    tr = Translator(lang)
    lines = chance_chart(tr, t)
    assert all(display_width(line) <= 80 for line in lines), lines
    rows = [line for line in lines if line.startswith("  ") and ("…" in line or line.startswith("  C "))]
    assert len(rows) == 3
    assert len({display_width(r) for r in rows}) == 1  # the columns line up


# -- the history keeps the table ----------------------------------------------------------------------------
@pytest.fixture
def coach_entry(yacht_games):
    states, _ = yacht_games[0]
    return HistoryEntry.of_table("yacht", ("Ann", "Bob", "Chen"), table_log(states),
                                 [st.cards[0].total for st in states])


def test_a_coach_entry_round_trips_and_old_entries_still_load(coach_entry):
    d = json.loads(json.dumps(coach_entry.to_dict()))
    assert d["names"] == ["Ann", "Bob", "Chen"] and d["opponent"] == "coach" and d["result"] == "table"
    back = HistoryEntry.from_dict(d)
    assert back.names == ("Ann", "Bob", "Chen") and back.scores == coach_entry.scores and back.players == 3
    assert back.log == coach_entry.log
    old = HistoryEntry.of(_solo("yacht", "normal", 3, 3))
    d = old.to_dict()
    assert "names" not in d  # a play game is written as before
    assert HistoryEntry.from_dict(d).names is None


@pytest.mark.parametrize("change,needle", [
    (lambda d: d.update(names=["Ann", "ann", "Chen"]), "twice"),
    (lambda d: d.update(names=["Ann", "Bob"]), "scores"),
    (lambda d: d.update(names="Ann,Bob,Chen"), "player names"),
    (lambda d: d.update(names=["Ann", "Bob", "x" * 21]), "invalid player name"),
    (lambda d: d.update(names=["Ann", "Bob", " Chen"]), "invalid player name"),
    (lambda d: d.pop("names"), "player names"),
    (lambda d: d.update(opponent="normal"), "not a coach game"),
    (lambda d: d.update(result="win"), "result"),
    (lambda d: d["scores"].__setitem__(1, d["scores"][1] + 1), "scores"),
    (lambda d: d["log"][0].__setitem__("player", 3), "player outside"),
])
def test_a_damaged_coach_entry_is_reported_and_kept(coach_entry, change, needle):
    d = json.loads(json.dumps(coach_entry.to_dict()))
    change(d)
    history_path().parent.mkdir(parents=True, exist_ok=True)
    history_path().write_text(json.dumps({"format": "yahtzee_solver game history", "version": 1, "games": [d]}))
    h = History.load()
    (e,) = h.entries
    assert isinstance(e, DamagedEntry) and needle in e.reason, e.reason
    h.save()
    assert json.loads(history_path().read_text())["games"] == [d]  # kept as it was


def test_filing_a_table_twice_adds_it_once(coach_entry):
    assert add_entry(coach_entry)[0] == 1
    assert add_entry(coach_entry)[0] == 1
    assert len(History.load().entries) == 1


# -- review of a game against a CPU ---------------------------------------------------------------------------
def test_review_of_a_game_against_a_cpu_shows_both_players_and_the_chart():
    normal, beginner = make_strategy("normal", "yacht"), make_strategy("beginner", "yacht",
                                                                      rng=np.random.default_rng(4))
    state = new_game("yacht", "beginner", seed=9)
    while not state.is_terminal():
        for a in cpu_actions(state, (normal, beginner)[state.current]):
            state.apply_action(a)
    add_finished_game(state)
    want = review_table("yacht", ("You", "CPU (beginner)"), state.log)
    for p, i in zip(want.players, (0, 1)):
        alone = review_game(state, i)
        assert (p.final, p.skill_loss, p.luck) == (alone.final_score, alone.skill_loss, alone.luck)
    out = run_json("review")
    t = out["table"]
    assert [p["name"] for p in t["players"]] == ["You", "CPU (beginner)"]
    for got, w in zip(t["players"], want.players):
        assert (got["final"], got["skill_loss"], got["luck"]) == (w.final, w.skill_loss, w.luck)
        assert abs(got["final"] - (got["start_value"] - got["skill_loss"] + got["luck"])) < 1e-9
    assert t["chances"] == [list(r) for r in want.chances]
    for lang in ("en", "zh", "ja"):
        tr = Translator(lang)
        res = run("review", "--lang", lang)
        assert res.exit_code == 0 and "Traceback" not in res.output, res.output
        assert tr("table.chances_title")[:8] in res.output and tr("table.col_skill") in res.output
        assert tr("cpu", level=tr.level("beginner")) in res.output
        assert all(display_width(line) <= 80 for line in res.stdout.splitlines())
    assert_clean_error(run("review", "--player", "Ann"), 2, "--player", "not a coach game")


def test_an_unfinished_game_against_a_cpu_shows_each_players_expected_final_total(tmp_path):
    from yahtzee_solver.play.savegame import state_to_dict

    normal = make_strategy("normal", "yacht")
    state = new_game("yacht", "normal", seed=3)
    while sum(v is not None for v in state.cards[1].boxes) < 7:
        for a in cpu_actions(state, normal):
            state.apply_action(a)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state_to_dict(state)))
    want = review_table("yacht", ("You", "CPU (normal)"), state.log, chances=False)
    assert want.result is None and want.rounds == tuple(range(1, 9))  # the CPU has begun turn 8
    res = run("review", str(path), "--no-chances")
    assert res.exit_code == 0, res.output
    for p in want.players:
        assert not p.review.complete
        assert abs(p.expected_end - (p.start_value - p.skill_loss + p.luck)) < 1e-9
        row = next(line for line in res.output.splitlines() if line.startswith("  " + p.name + " "))
        assert row.split()[-4:] == [f"{p.expected_end:.2f}", f"{p.start_value:.2f}", f"{p.skill_loss:.2f}",
                                    f"{p.luck:+.2f}"]
    assert "unfinished game" in res.output


def test_a_chance_short_of_one_by_float_rounding_reads_100_and_a_real_near_certainty_reads_above_99():
    """The chart's cells: 1 less a few ulps (the DP's sums) is a certain outcome, 100; a real
    0.9996 is ">99"; a real tiny chance is "<1"; exact 0 is "0"."""
    from yahtzee_solver.tui.review import _cell

    assert _cell(0.9999999999999997).strip() == "100"
    assert _cell(1.0).strip() == "100"
    assert _cell(0.9996).strip().endswith(">99")
    assert _cell(1e-20).strip().endswith("<1")
    assert _cell(0.0).strip().endswith("0")
