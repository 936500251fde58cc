"""Every surface lists the moves the game allows, each with its true value: there is no pass.

After a roll with rerolls left a player rerolls one to five dice or stops and
scores; rerolling no dice is not a roll.  Keeping all five dice therefore
means scoring now, worth the best box for the dice (what ``fill`` shows).
These tests check that row on every surface -- :class:`Advisor`,
:class:`ArrayAdvisor`, ``option_values``, the policy over other value
sources, the CLI text and JSON, the terminal and web hints, the review --
exhaustively over the 252 rolls and a sample of cards, and that the DP
without a pass (computed here from the dice alone) gives the table's values
and the same best decisions.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from clihelpers import run_json
from yahtzee_solver.strategy.advisor import Advisor
from yahtzee_solver.strategy.batch import ArrayAdvisor
from yahtzee_solver.dice import KEEP_COUNTS, KEEPS, N_ROLLS, ROLL_OFFSET, ROLL_SUBKEEPS, ROLLS, roll_index
from yahtzee_solver.files import HOME_ENV
from yahtzee_solver.strategy.policy import Policy, TurnOnlySource
from yahtzee_solver.analysis.review import ZERO, TurnPlay, review_turns
from yahtzee_solver.rules import get_rules
from yahtzee_solver.state import ScoreCard

#: Rule sets sampled: the official one, the free Joker, Scandinavian Yatzy, Yacht.
RULES = ("yahtzee", "yahtzee-free-joker", "yatzy", "yacht")


@pytest.fixture(scope="module")
def advisors():
    cache = {}

    def get(name):
        if name not in cache:
            cache[name] = (Advisor(name), ArrayAdvisor(name))
        return cache[name]

    return get


def sample_cards(name: str, n: int = 4, seed: int = 16) -> list[ScoreCard]:
    """The empty card, ``n`` random cards (random boxes filled with possible points) and, where the rule set
    has a Yahtzee box, cards with it filled 50 (Yahtzee bonus and Joker) and 0 (Joker only)."""
    rules = get_rules(name)
    rng = np.random.default_rng(seed)
    C = rules.n_categories
    cards = [ScoreCard.empty(rules)]

    def random_boxes(k, skip=()):
        boxes = [c for c in rng.permutation(C).tolist() if c not in skip][:k]
        return {rules.categories[c].slug: int(rng.choice(sorted(rules.possible_points[c]))) for c in boxes}

    for _ in range(n):
        cards.append(ScoreCard.from_mapping(random_boxes(int(rng.integers(1, C))), rules))
    y = rules.yahtzee_category
    if y >= 0:
        slug = rules.categories[y].slug
        for pts in (50, 0):
            cards.append(ScoreCard.from_mapping({slug: pts}, rules))
            late = random_boxes(int(rng.integers(C - 4, C - 1)), skip=(y,))
            cards.append(ScoreCard.from_mapping({**late, slug: pts}, rules))
    return cards


def _positions():
    for name in RULES:
        for i in range(len(sample_cards(name))):
            yield name, i


# -- 1. the stop-and-score value is fill's, on every surface, for every roll and rolls-left value ----------
@pytest.mark.parametrize("name, i", list(_positions()))
def test_keeping_all_five_is_scoring_now_at_the_fill_value(name, i, advisors):
    adv, aa = advisors(name)
    card = sample_cards(name)[i]
    mask, up, yb = card.key
    for r in range(N_ROLLS):
        dice = ROLLS[r]
        fill = adv.box_options(card, dice)  # what `yahtzee-solve fill` prints
        assert [o.expected for o in adv.hint(card, dice, 0)] == [o.expected for o in fill]
        codes0, vals0 = aa.ranked(mask, up, yb, dice, 0)
        assert codes0[0] == fill[0].category and card.total + vals0[0] == fill[0].expected
        for rl in (2, 1):
            opts = adv.hint(card, dice, rl)
            stop = next(o for o in opts if o.keep == dice)
            # the value of keeping all five (stopping: no pass) is the best box's
            assert stop.expected == fill[0].expected, (dice, rl)
            assert stop.loss == pytest.approx(opts[0].expected - stop.expected, abs=1e-9)
            # the raw per-keep array says the same
            assert card.total + adv.keep_values(card.key, rl)[ROLL_OFFSET + r] == fill[0].expected
            # the array advisor: the keep-all code is worth the best box, the other keeps the advisor's
            codes, vals = aa.ranked(mask, up, yb, dice, rl)
            got = dict(zip(codes.tolist(), vals.tolist()))
            assert got[ROLL_OFFSET + r] == vals0[0]
            assert {KEEPS[k]: card.total + v for k, v in got.items()} == {o.keep: o.expected for o in opts}
    for r in range(N_ROLLS):  # the labels: the stop names its box, every other row rerolls
        dice = ROLLS[r]
        fill = adv.box_options(card, dice)
        for rl in (2, 1):
            opts = adv.hint(card, dice, rl)
            stop = next(o for o in opts if o.keep == dice)
            assert stop.reroll == () and [o for o in opts if o.score is not None] == [stop]
            assert stop.score.category == fill[0].category and stop.score.points == fill[0].points
            assert all(o.reroll and o.score is None for o in opts if o is not stop)
    # the batch: every roll and rolls-left value at once
    rl = np.repeat([0, 1, 2], N_ROLLS)
    rolls = np.tile(np.arange(N_ROLLS), 3)
    n = rl.size
    res = aa.option_values(np.full(n, mask), np.full(n, up), np.full(n, yb), rolls, rl)
    best_box = np.nanmax(res.box_values, axis=1)
    col = res.keeps == (ROLL_OFFSET + rolls)[:, None]
    assert (col.sum(axis=1) == 1).all()
    stop = res.keep_values[col]
    assert np.array_equal(stop[rl > 0], best_box[rl > 0])
    assert np.isnan(stop[rl == 0]).all()
    assert np.array_equal(res.best_value[rl > 0], np.nanmax(res.keep_values[rl > 0], axis=1))
    assert (res.best_value[rl > 0] >= best_box[rl > 0]).all()


# -- 2. the DP without a pass, from the dice alone: same table values, same best decisions ----------------
def _transitions() -> np.ndarray:
    """(462, 252) float64: P(roll r | keep k, the other dice rerolled), multinomial from the face counts."""
    ck = KEEP_COUNTS.astype(np.int64)[:, None, :]
    cr = KEEP_COUNTS.astype(np.int64)[ROLL_OFFSET:][None, :, :]
    d = cr - ck
    ok = (d >= 0).all(axis=2)
    fact = np.array([math.factorial(i) for i in range(6)], dtype=float)
    n = 5 - ck.sum(axis=2)  # dice rerolled
    dd = np.clip(d, 0, 5)
    P = fact[n] / fact[dd].prod(axis=2) / 6.0 ** n
    return np.where(ok, P, 0.0)


@pytest.mark.parametrize("name", ["yahtzee", "yatzy", "yacht"])
def test_the_dp_without_a_pass_gives_the_table_and_the_option_values(name, advisors):
    """The pass is weakly dominated: the table and the best decisions are those of the game without it,
    and every option the advisor lists (keeps and the stop) is worth what the no-pass DP says."""
    adv, aa = advisors(name)
    P = _transitions()
    assert np.allclose(P.sum(axis=1), 1.0)
    proper = [[k for k in ROLL_SUBKEEPS[r] if k >= 0][:-1] for r in range(N_ROLLS)]  # every keep but all five
    k = adv.kernels
    for card in sample_cards(name, n=3, seed=21):
        mask, up, yb = card.key
        S0 = np.array([aa.ranked(mask, up, yb, r, 0)[1][0] for r in range(N_ROLLS)])  # best box (fill)
        E1 = P @ S0
        S1 = np.array([max(S0[r], E1[proper[r]].max()) for r in range(N_ROLLS)])  # no pass: score, or reroll
        E2 = P @ S1
        S2 = np.array([max(S0[r], E2[proper[r]].max()) for r in range(N_ROLLS)])
        V = float(P[0] @ S2)  # keep nothing: the first roll
        assert adv.expected_final(card) - card.total == pytest.approx(V, abs=1e-9)
        E = adv.source.turn_values(card.key, 2).copy()  # the kernel's own keep values (with the pass)
        for r in range(N_ROLLS):
            for rl, Ek in ((1, E1), (2, E2)):
                opts = adv.keep_options(card, ROLLS[r], rl)
                want = {KEEPS[j]: Ek[j] for j in proper[r]}
                want[ROLLS[r]] = S0[r]
                for o in opts:
                    assert o.expected - card.total == pytest.approx(want[o.keep], abs=1e-9)
                # the best decision is the same as the simulator's (kernels.best_keep on the values with the pass)
                assert KEEPS[k.best_keep(E[rl - 1], r, ROLL_SUBKEEPS)] == opts[0].keep


# -- 3. the policy, for every value source ------------------------------------------------------------------
def _late_card(name):
    rules = get_rules(name)
    C = rules.n_categories
    keep_open = {0, 4, rules.yahtzee_category, C - 1} if name != "yatzy" else {0, 4, 13}
    return ScoreCard.from_mapping({rules.categories[c].slug: min(rules.possible_points[c]) or 0
                                   for c in range(C) if c not in keep_open}, rules)


@pytest.mark.parametrize("name", ["yahtzee", "yacht"])
def test_the_policy_values_the_stop_by_its_box_for_every_source(name, advisors):
    from yahtzee_solver.strategy.objectives import TargetSource
    from yahtzee_solver.strategy.target import TargetAdvisor

    adv, _ = advisors(name)
    rules = get_rules(name)
    card = _late_card(name)
    target = int(adv.expected_final(card))
    policies = [adv.policy, Policy(TurnOnlySource(rules)),
                Policy(TargetSource(rules, target), tiebreak=adv.source)]
    tadv = TargetAdvisor(rules, target, table=adv.table)
    for r in range(N_ROLLS):
        for pol in policies:
            boxes, bvals = pol.box_ranking(card.key, card.total, r)
            for rl in (1, 2):
                codes, vals = pol.keep_ranking(card.key, card.total, r, rl)
                got = dict(zip(codes.tolist(), vals.tolist()))
                assert got[ROLL_OFFSET + r] == bvals[0], (pol, r, rl)
            assert pol.stop_option(card.key, card.total, r) == (int(boxes[0]), float(bvals[0]))
        for rl in (1, 2):
            opts = tadv.keep_options(card, ROLLS[r], rl)
            fill = tadv.box_options(card, ROLLS[r])
            stop = next(o for o in opts if o.keep == ROLLS[r])
            assert stop.probability == fill[0].probability and stop.expected == fill[0].expected
            assert stop.reroll == () and stop.score.category == fill[0].category
            assert all(o.score is None for o in opts if o is not stop)


# -- 4. hint and review agree on every decision --------------------------------------------------------------
def random_turns(rules, rng, n_turns):
    """A random legal game: random keeps (never all five: a roll rerolls at least one die), random stops, random boxes."""
    card = ScoreCard.empty(rules)
    turns, cards = [], []
    for _ in range(n_turns):
        rolls = [tuple(sorted(rng.integers(1, 7, 5).tolist()))]
        keeps = []
        while len(rolls) < 3 and rng.random() < 0.7:
            dice = list(rolls[-1])
            keep = sorted(rng.choice(dice, size=int(rng.integers(0, 5)), replace=False).tolist())
            keeps.append(tuple(keep))
            rolls.append(tuple(sorted(keep + rng.integers(1, 7, 5 - len(keep)).tolist())))
        points, legal, bonus = card.box_points(rolls[-1])
        box = int(rng.choice(np.flatnonzero(legal)))
        turns.append(TurnPlay(tuple(rolls), tuple(keeps), box))
        cards.append(card)
        card = card.with_box(box, points[box], bonus)
    return turns, cards


@pytest.mark.parametrize("name", ["yahtzee", "yatzy", "yacht"])
def test_hint_and_review_give_every_decision_the_same_value(name, advisors):
    adv, _ = advisors(name)
    rules = get_rules(name)
    rng = np.random.default_rng(1621)
    stands = 0
    for _ in range(6):
        turns, cards = random_turns(rules, rng, rules.n_categories)
        rev = review_turns(turns, rules, advisor=adv)
        assert rev.complete
        for d in rev.decisions:
            card = cards[d.turn - 1]
            opts = adv.hint(card, d.dice, d.rolls_left)
            if d.kind == "box":
                chosen = next(o for o in opts if o.category == d.choice)
            else:
                chosen = next(o for o in opts if o.keep == d.choice)
            assert d.expected_choice == chosen.expected and d.expected_best == opts[0].expected, d
            assert d.loss == (0.0 if chosen.loss < ZERO else chosen.loss)
            if d.kind == "keep" and len(d.choice) == 5:  # a stand: scored with rerolls left, the score-now row
                stands += 1
                assert d.expected_choice == adv.box_options(card, d.dice)[0].expected
                assert chosen.score is not None
    assert stands > 5


def test_the_issue_position_review_and_hint_agree():
    """1-2-5-5-5 scored in Fives after the first roll: review loss = hint loss = best keep - fill value."""
    adv = Advisor("yahtzee", jit=False)
    card, dice = ScoreCard.empty(), (1, 2, 5, 5, 5)
    fives = 4
    rev = review_turns([TurnPlay((dice,), (), fives)], "yahtzee", advisor=adv, meta={})
    stand = rev.decisions[0]
    opts = adv.keep_options(card, dice, 2)
    stop = next(o for o in opts if o.keep == dice)
    fill = adv.box_options(card, dice)
    assert stand.expected_choice == stop.expected == fill[0].expected
    assert stand.loss == stop.loss == pytest.approx(opts[0].expected - fill[0].expected, abs=1e-9)
    assert fill[0].category == fives and stop.score.category == fives
    # the stop ranks below keeping 5 5, which is worth more than scoring now
    assert [o.keep for o in opts].index((5, 5)) < opts.index(stop)


# -- 5. the CLI: text and JSON ----------------------------------------------------------------------------
@pytest.mark.parametrize("cmd", ["hint", "keep"])
@pytest.mark.parametrize("rl", ["1", "2"])
def test_cli_lists_the_stop_with_the_fill_value_and_its_box(cmd, rl, monkeypatch, tmp_path):
    from clihelpers import run

    monkeypatch.setenv(HOME_ENV, str(tmp_path))
    card = "yahtzee=50,sixes=18"
    for dice in ("12555", "55555", "26666", "13456"):
        fill = run_json("fill", dice, "--card", card)["options"][0]
        out = run_json(cmd, dice, "-r", rl, "--card", card)
        stop = next(o for o in out["options"] if o["keep"] == dice)
        assert stop["expected"] == fill["expected"] and stop["reroll"] == "-"
        assert stop["stop"] and stop["score"]["category"] == fill["category"]
        assert all(o["score"] is None and not o["stop"] for o in out["options"] if o is not stop)
        text = run(cmd, dice, "-r", rl, "--card", card, "--top", "0").output
        row = next(line for line in text.splitlines() if line.lstrip("* ").startswith(dice + " "))
        assert f"{fill['expected']:.2f}" in row
        assert f"none: score {fill['points']} in {fill['category']}" in row


def test_cli_target_lists_the_stop_with_its_box(monkeypatch, tmp_path):
    monkeypatch.setenv(HOME_ENV, str(tmp_path))
    card = _late_card("yahtzee").format()
    fill = run_json("fill", "12555", "--card", card, "--target", "200")["options"][0]
    out = run_json("hint", "12555", "--card", card, "--target", "200")
    stop = next(o for o in out["options"] if o["keep"] == "12555")
    assert stop["probability"] == fill["probability"] and stop["expected"] == fill["expected"]
    assert stop["stop"] and stop["score"]["category"] == fill["category"]


# -- 6. the web advisor and hint ----------------------------------------------------------------------------
def test_web_advice_lists_the_stop_with_the_fill_value():
    from yahtzee_solver.web.service import _Advisors, advise

    advisors = _Advisors(jit=False)
    fill = advise(advisors, "yahtzee", None, "12555", 0, "en")["options"]
    out = advise(advisors, "yahtzee", None, "12555", 2, "en")["options"]
    stop = next(o for o in out if o["keep"] == [1, 2, 5, 5, 5])
    assert stop["expected"] == fill[0]["expected"]
    assert next(i for i, o in enumerate(out) if o["keep"] == [5, 5]) < out.index(stop)
    assert stop["stop"]["box"] == fill[0]["box"] and fill[0]["name"] in stop["text"]
    assert all(o["stop"] is None and o["reroll"] for o in out if o is not stop)


# -- 7. the terminal game: hint and --confirm-loss ----------------------------------------------------------
def _seed1_first_roll():
    from yahtzee_solver.game import Roll, new_game

    g = new_game("yahtzee", "none", "me", 1)
    g.apply_action(Roll())
    return g.sorted_dice


def test_terminal_hint_shows_the_moves_with_their_values(monkeypatch, tmp_path):
    from test_cli_play import _position, play_from, run
    from yahtzee_solver.tui.prompt import keep_command

    monkeypatch.setenv(HOME_ENV, str(tmp_path))
    dice = _seed1_first_roll()
    adv = Advisor("yahtzee", jit=False)
    card = ScoreCard.empty()
    opts = adv.keep_options(card, dice, 2)
    res = run(["play", "--seed", "1", "--fast"], ["r", "h", "q"])
    assert res.exit_code == 0, res.output
    rows = res.output.split("Hint (")[1].splitlines()[1:5]  # the four best moves
    for o, line in zip(opts[:4], rows):
        cmd = f"s {adv.box_options(card, dice)[0].category + 1}" if len(o.keep) == 5 else keep_command(o.keep)
        assert line.strip().startswith(cmd + " ") and f"{o.expected:8.2f}" in line, (o, line)
    # the pass (hold all five, decide again with one roll left) is not a move: its value is shown nowhere
    pass_value = adv.source.turn_values(card.key, 2)[1, ROLL_OFFSET + roll_index(dice)]
    stop = next(o for o in opts if o.keep == dice)
    assert pass_value > stop.expected + 0.005
    assert f"{pass_value:.2f}" not in res.output
    # a stop among the best moves: its command scores, its label names the box, its value is fill's
    for rolls_used in (1, 2):
        g = _position(tmp_path, card, (6, 6, 6, 6, 6), rolls_used=rolls_used)
        res = play_from(g, ["h", "q"])
        fill = adv.box_options(card, (6,) * 5)[0]
        line = res.output.split("Hint (")[1].splitlines()[1]
        assert line.strip().startswith(f"s {fill.category + 1} ")
        assert f"score now in {fill.name} ({fill.points})" in line and f"{fill.expected:8.2f}" in line


def test_confirm_loss_asks_before_scoring_with_rolls_left_and_survives_resume(monkeypatch, tmp_path):
    from test_cli_play import run

    monkeypatch.setenv(HOME_ENV, str(tmp_path))
    dice = _seed1_first_roll()
    adv = Advisor("yahtzee", jit=False)
    card = ScoreCard.empty()
    best = adv.keep_options(card, dice, 2)[0]
    fives = next(o for o in adv.box_options(card, dice) if o.category == 4)
    loss = best.expected - fives.expected
    assert loss > 1  # scoring Fives now loses against rerolling: the question must come
    question = f"Scoring in Fives loses {loss:.2f} expected points against the best (k {''.join(map(str, best.keep))})"
    res = run(["play", "--confirm-loss", "1", "--seed", "1", "--fast"], ["r", "s fives", "n", "q"])
    assert res.exit_code == 0, res.output
    assert question in res.output and "Not scored." in res.output
    saved = json.loads((tmp_path / "game.json").read_text())
    assert saved["cards"][0]["fives"] is None
    assert json.loads((tmp_path / "ledger.json").read_text())["game"]["confirm_loss"] == 1.0
    # --resume without the option keeps asking (the threshold is kept with the game)
    res = run(["play", "--resume", "--fast"], ["s fives", "n", "q"])
    assert res.exit_code == 0, res.output
    assert question in res.output and "Not scored." in res.output
    # answered yes, the score goes ahead
    res = run(["play", "--resume", "--fast"], ["s fives", "y", "q"])
    assert question in res.output and "You scored 15 in Fives." in res.output


def test_hint_dist_of_keeping_all_five_is_scoring_now(advisors):
    """``hint --dist``: the distribution after keeping all five is the one after scoring in the best box now."""
    from yahtzee_solver.strategy.distribution import option_distributions

    adv, _ = advisors("yahtzee")
    card = _late_card("yahtzee")
    for dice in ((1, 2, 5, 5, 5), (6, 6, 6, 6, 6), (1, 1, 3, 4, 6)):
        fill = adv.box_options(card, dice)
        boxes = option_distributions(card, dice, 0, table=adv.table)
        for rl in (2, 1):
            d = option_distributions(card, dice, rl, table=adv.table)
            assert d[dice].mean == pytest.approx(fill[0].expected, abs=1e-9), (dice, rl)
            np.testing.assert_allclose(d[dice].pmf, boxes[fill[0].category].pmf, atol=1e-15)
