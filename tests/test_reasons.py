"""Reasons of a hint (strategy.reasons): exact P(upper bonus by the end), P(further Yahtzee),
expected points of the turn and the most likely box, under optimal play.

Checked against an independent brute force -- every roll enumerated with its
probability, every move the advisor's best -- on reduced games (one or two open
boxes) to 1e-12, and against Monte Carlo play of the same policy within 99 %
confidence intervals.
"""

from __future__ import annotations

import itertools
import math
from functools import cache

import numpy as np
import pytest

from clihelpers import assert_clean_error, run, run_json
from yahtzee_solver.i18n import Translator
from yahtzee_solver.state import parse_card
from yahtzee_solver.strategy.advisor import Advisor
from yahtzee_solver.strategy.reasons import option_reasons


@pytest.fixture(scope="module")
def adv():
    return Advisor("yahtzee")


@cache
def _outcomes(n: int):
    """Every sorted roll of ``n`` dice with its probability."""
    out: dict = {}
    for faces in itertools.product(range(1, 7), repeat=n):
        key = tuple(sorted(faces))
        out[key] = out.get(key, 0.0) + 6.0 ** -n
    return tuple(out.items())


class BruteForce:
    """The figures by plain recursion over the game tree, moves from the advisor's rankings.

    Each position returns (B, Q, G, Y, per_box): P(bonus by the end), P(no further
    Yahtzee), expected points this turn, P(Yahtzee this turn), P(turn ends in box c).
    """

    def __init__(self, adv):
        self.adv = adv
        self.rules = adv.rules
        self.memo: dict = {}

    def after_box(self, card, dice, c):
        rules = self.rules
        points, _, bonus = card.box_points(dice)
        nxt = card.with_box(c, points[c], bonus)
        made = (c == rules.yahtzee_category and points[c] > 0) or bonus > 0
        if nxt.is_full:
            B, Q = float(nxt.upper_subtotal >= rules.upper_threshold), 1.0
        else:
            B, Q = self.start(nxt)[:2]
        per_box = np.zeros(rules.n_categories)
        per_box[c] = 1.0
        return B, 0.0 if made else Q, float(nxt.total - card.total), float(made), per_box

    def position(self, card, dice, rl):
        key = (card.key, card.total, dice, rl)
        if key in self.memo:
            return self.memo[key]
        if rl == 0:
            res = self.after_box(card, dice, self.adv.box_options(card, dice)[0].category)
        else:
            best = self.adv.keep_options(card, dice, rl)[0]
            res = self.keep(card, best.keep, rl) if best.reroll else self.position(card, dice, 0)
        self.memo[key] = res
        return res

    def keep(self, card, keep, rl):
        acc = None
        for faces, p in _outcomes(5 - len(keep)):
            part = self.position(card, tuple(sorted(keep + faces)), rl - 1)
            acc = [p * x for x in part] if acc is None else [a + p * x for a, x in zip(acc, part)]
        return tuple(acc)

    def start(self, card):
        return self.keep(card, (), 3)


def _check(mine, want):
    B, Q, G, Y, per_box = want
    assert mine.p_upper_bonus == pytest.approx(B, abs=1e-12)
    assert mine.p_yahtzee == pytest.approx(1.0 - Q, abs=1e-12)
    assert mine.turn_points == pytest.approx(G, abs=1e-12)
    assert mine.p_yahtzee_turn == pytest.approx(Y, abs=1e-12)
    assert mine.p_box == pytest.approx(per_box.max(), abs=1e-12)
    assert per_box[mine.box] == pytest.approx(per_box.max(), abs=1e-12)


REDUCED = [
    # two open boxes: Sixes (18 more make the bonus) and Yahtzee
    ("ones=3,twos=6,threes=9,fours=12,fives=15,3k=20,4k=0,fh=25,ss=30,ls=40,chance=21", "16666", 2),
    ("ones=3,twos=6,threes=9,fours=12,fives=15,3k=20,4k=0,fh=25,ss=30,ls=40,chance=21", "12366", 1),
    # Yahtzee scored: a further five alike is a +100 bonus (Joker); Fives and Chance open
    ("ones=3,twos=6,threes=9,fours=12,sixes=24,3k=20,4k=0,fh=25,ss=30,ls=40,yahtzee=50", "15556", 2),
    # one open box
    ("ones=3,twos=6,threes=9,fours=12,fives=10,3k=20,4k=0,fh=25,ss=30,ls=40,chance=21,yahtzee=50", "24666", 1),
]


@pytest.mark.parametrize("card_text,dice,rl", REDUCED)
def test_reasons_match_brute_force_on_reduced_games(adv, card_text, dice, rl):
    card = parse_card(card_text, "yahtzee")
    faces = tuple(int(x) for x in dice)
    bf = BruteForce(adv)
    got = option_reasons(card, dice, rl)
    _check(got.start, bf.start(card))
    assert len(got.options) == len(adv.keep_options(card, dice, rl))
    for keep, reason in got.options.items():
        want = bf.keep(card, keep, rl) if len(keep) < 5 else bf.position(card, faces, 0)
        _check(reason, want)
    boxes = option_reasons(card, dice, 0)
    for c, reason in boxes.options.items():
        _check(reason, bf.after_box(card, faces, c))
    # the figures move with the options: otherwise the test could not tell them apart
    assert len({round(r.p_upper_bonus, 9) for r in got.options.values()}) > 1


def _mc_from_keep(adv, card, keep, rl, rng, games):
    """Play ``games`` from a keep just chosen, advisor's best moves: the figures' sample values."""
    rules = adv.rules
    bonus = np.zeros(games)
    yahtzee = np.zeros(games)
    points = np.zeros(games)
    box = np.zeros(games, np.int64)
    for g in range(games):
        c0, k, r = card, keep, rl
        first = True
        made = False
        while True:
            dice = tuple(sorted(k + tuple(int(x) for x in rng.integers(1, 7, 5 - len(k)))))
            r -= 1
            while r > 0:
                best = adv.keep_options(c0, dice, r)[0]
                if not best.reroll:
                    break
                dice = tuple(sorted(best.keep + tuple(int(x) for x in rng.integers(1, 7, 5 - len(best.keep)))))
                r -= 1
            c = adv.box_options(c0, dice)[0].category
            pts, _, yb = c0.box_points(dice)
            nxt = c0.with_box(c, pts[c], yb)
            made |= (c == rules.yahtzee_category and pts[c] > 0) or yb > 0
            if first:
                points[g], box[g], first = nxt.total - card.total, c, False
            c0 = nxt
            if c0.is_full:
                break
            k, r = (), 3
        bonus[g] = c0.upper_subtotal >= rules.upper_threshold
        yahtzee[g] = made
    return bonus, yahtzee, points, box


def test_reasons_agree_with_monte_carlo_play_of_the_same_policy(adv):
    card = parse_card("ones=2,threes=9,fours=12,3k=22,4k=0,fh=25,ss=30,ls=40,chance=21", "yahtzee")
    dice, rl = "25556", 2
    res = option_reasons(card, dice, rl, options=[(5, 5, 5), (5, 5)])
    rng = np.random.default_rng(20261201)
    z = 2.5758  # 99 %
    n = 3000
    for keep, reason in res.options.items():
        bonus, yahtzee, points, box = _mc_from_keep(adv, card, keep, rl, rng, n)
        for p, x in ((reason.p_upper_bonus, bonus), (reason.p_yahtzee, yahtzee),
                     (reason.p_box, box == reason.box)):
            assert 0.02 < p < 0.98  # a real test of the probability
            assert abs(x.mean() - p) < z * math.sqrt(p * (1 - p) / n), (keep, p, x.mean())
        assert abs(points.mean() - reason.turn_points) < z * points.std(ddof=1) / math.sqrt(n)


def test_bad_options_and_full_card_are_refused():
    from yahtzee_solver.errors import ScoreCardError, UsageError, YahtzeeError

    card = parse_card("sixes=18", "yahtzee")
    with pytest.raises(UsageError, match="invalid option"):
        option_reasons(card, "22555", 2, options=[(6,)])
    with pytest.raises(UsageError, match="rolls-left 3"):
        option_reasons(card, "22555", 3)
    full = parse_card("ones=3,twos=6,threes=9,fours=12,fives=10,sixes=18,3k=20,4k=0,fh=25,ss=30,ls=40,chance=21,"
                      "yahtzee=50", "yahtzee")
    with pytest.raises(ScoreCardError):
        option_reasons(full, "22555", 2)
    assert issubclass(UsageError, YahtzeeError)


def test_certain_and_impossible_events_are_exactly_one_and_zero():
    """With the Yahtzee box scratched no further Yahtzee can come (a Yahtzee bonus needs a 50 there), and
    with the upper section full at 63 or more the bonus is earned: the figures are 0 and 1 exactly, not
    rounding noise such as 1.1e-14 (which the sentences would print).  With one box open every keep ends
    in it, with probability 1 exactly."""
    card = parse_card("yahtzee=0,ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,chance=20", "yahtzee")
    r = option_reasons(card, "12346", 2)
    for reason in [r.start, *r.options.values()]:
        assert reason.p_yahtzee == 0.0
        assert reason.p_upper_bonus == 1.0
    last = parse_card("yahtzee=0,ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,chance=20,3k=20,4k=0,"
                      "fh=25,ss=30", "yahtzee")
    r = option_reasons(last, "12346", 2)
    keeps = [x for x in r.options.values() if x.kind == "keep"]
    assert keeps and all(x.p_box == 1.0 and x.box == last.rules.category_index("large-straight") for x in keeps)


MID = "sixes=18,fours=12,chance=22,yahtzee=50,ones=3,small-straight=30"


def test_hint_why_json_carries_the_exact_figures_and_a_sentence():
    card = parse_card(MID, "yahtzee")
    out = run_json("hint", "25556", "--why", "--card", MID)
    want = option_reasons(card, "25556", 2)
    assert out["why_start"]["p_upper_bonus"] == pytest.approx(want.start.p_upper_bonus, abs=1e-12)
    explained = [o for o in out["options"] if o["why"] is not None]
    assert len(explained) == 3 and explained == out["options"][:3]  # the best three
    for o in explained:
        keep = tuple(int(x) for x in o["keep"]) if o["keep"] != "-" else ()
        r = want.options[keep]
        w = o["why"]
        assert w["p_upper_bonus"] == pytest.approx(r.p_upper_bonus, abs=1e-12)
        assert w["p_yahtzee"] == pytest.approx(r.p_yahtzee, abs=1e-12)
        assert w["turn_points"] == pytest.approx(r.turn_points, abs=1e-12)
        assert w["likely_box"] == card.rules.categories[r.box].slug
        assert f"{round(100 * r.p_upper_bonus)}" in w["sentence"] and w["sentence"].endswith(".")
    boxes = run_json("hint", "22555", "-r", "0", "--why", "--card", MID, "--top", "2")
    assert [o["why"]["kind"] for o in boxes["options"]] == ["box", "box"]


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_hint_why_text_in_every_language(lang):
    from yahtzee_solver.i18n import NBSP, display_width
    from yahtzee_solver.tui.why import percent, sentence

    card = parse_card(MID, "yahtzee")
    res = run("hint", "25556", "--why", "--card", MID, "--lang", lang, "--top", "2")
    assert res.exit_code == 0, res.output
    tr = Translator(lang)
    want = option_reasons(card, "25556", 2, [(5, 5, 5)])
    s = sentence(tr, card.rules, want.options[(5, 5, 5)], want.start)
    flat = " ".join(line.strip() for line in res.output.splitlines())
    assert s.replace(NBSP, " ")[:12] in flat
    for p in (want.start.p_upper_bonus, want.options[(5, 5, 5)].p_upper_bonus, want.start.p_yahtzee):
        assert percent(p).replace(NBSP, " ") in res.output
    assert tr("why.head", figures="").split(":")[0][:6] in res.output
    block = res.output.split("\n\n")[-1].splitlines()  # the reasons (the state line above is the hint's own)
    assert len(block) >= 5 and all(display_width(line) <= 80 for line in block), block


def test_the_sentence_follows_the_numbers():
    from yahtzee_solver.strategy.reasons import Reason
    from yahtzee_solver.tui.why import sentence

    rules = parse_card(None, "yahtzee").rules
    start = Reason(None, "start", 0.64, 0.34, 0.04, 20.0, 4, 0.1)
    up = Reason((5, 5, 5), "keep", 0.71, 0.41, 0.09, 22.0, 4, 0.8)
    down = Reason((5, 5, 5), "keep", 0.50, 0.30, 0.01, 22.0, 4, 0.8)
    tr = Translator("en")
    assert sentence(tr, rules, up, start) == ("Keeping 5 5 5 goes for Fives and a Yahtzee: your bonus chance rises "
                                              "from 64\u00a0% to 71\u00a0%, a Yahtzee this game from 34\u00a0% to "
                                              "41\u00a0%.")
    text = sentence(tr, rules, down, start)
    assert "falls from 64\u00a0% to 50\u00a0%" in text and "Yahtzee chance this game falls" in text
    assert "and a Yahtzee" not in text  # 1 % this turn: not what the keep goes for
    for lang in ("zh", "ja"):
        t = sentence(Translator(lang), rules, up, start)
        assert "64\u00a0%" in t and "71\u00a0%" in t and "41\u00a0%" in t


@pytest.mark.parametrize("args,needle", [
    (["--why", "--target", "250"], "--why and --target"),
    (["--why", "--dist"], "--why and --dist"),
    (["--why", "--lang", "fr"], "fr"),
])
def test_hint_why_bad_input(args, needle):
    assert_clean_error(run("hint", "22555", *args), 2, needle)


def test_play_why_explains_the_best_options(tmp_path, monkeypatch):
    """``why`` at the terminal game's prompt: the same figures and sentences as the library's."""
    monkeypatch.setenv("YAHTZEE_SOLVER_HOME", str(tmp_path))
    res = run("play", "--seed", "3", "--lang", "en", input="r\nwhy\nq\n")
    assert res.exit_code == 0, res.output
    assert "Why (exact, optimal play afterwards)" in res.output
    assert res.output.count("  Keeping ") + res.output.count("  Rerolling ") + res.output.count("  Scoring ") == 2
    assert "counts as practice" in res.output  # a why shows the best options, like a hint
