"""Exact two-player play (strategy/duel.py) against a brute-force expectiminimax, and its invariants.

The brute force plays both players' turns on :class:`ScoreCard` objects: every
first roll and reroll enumerated as multisets with multinomial
probabilities, every keep tried, every legal box tried (``ScoreCard.box_points``,
the rules' definition), the score difference read off the two cards' totals,
the game's end scored 1 / 1/2 / 0.  The fixed-policy opponent is played by the
CPU player object itself (``choose_keep`` / ``choose_box``).  It shares nothing
with the duel solver but the scoring rules and, for a CPU opponent, the CPU.
"""

from __future__ import annotations

import itertools
import math
from functools import cache

import numpy as np
import pytest

from yahtzee_solver import parse_card
from yahtzee_solver.dice import KEEPS, ROLL_SUBKEEPS, keep_index, roll_index
from yahtzee_solver.errors import UsageError
from yahtzee_solver.state import ScoreCard
from yahtzee_solver.strategy.duel import DuelSolver, DuelSource
from yahtzee_solver.strategy.objectives import WinSource, opponent_pmf
from yahtzee_solver.strategy.players import fixed_strategy

R = "yahtzee"

FULL = ("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,three-of-a-kind=20,four-of-a-kind=20,full-house=25,"
        "small-straight=30,large-straight=40,yahtzee=50,chance=22")


def card_without(*open_boxes, base=FULL, **changes):
    """The full card ``base`` with ``open_boxes`` emptied and some boxes changed (slug=points)."""
    parts = dict(p.split("=") for p in base.split(","))
    for k, v in changes.items():
        parts[k.replace("_", "-")] = str(v)
    for b in open_boxes:
        parts.pop(b)
    return parse_card(",".join(f"{k}={v}" for k, v in parts.items()), R)


# -- brute force -------------------------------------------------------------------------

def _outcomes(m: int):
    out = []
    for combo in itertools.combinations_with_replacement(range(1, 7), m):
        c = [combo.count(f) for f in range(1, 7)]
        p = math.factorial(m) / math.prod(math.factorial(x) for x in c) / 6 ** m
        out.append((combo, p))
    return out


OUT = {m: _outcomes(m) for m in range(6)}
ROLLS5 = [r for r, _ in OUT[5]]


@cache
def _keeps_in_order(roll):
    """The distinct keeps of a roll in the policy's tie-break order (``ROLL_SUBKEEPS``)."""
    row = ROLL_SUBKEEPS[roll_index(roll)]
    return tuple(KEEPS[k] for k in row if k >= 0)


#: Every keep with what rerolling the other dice can give: (keep, [(the roll it makes, probability)]).
KEEP_OUTCOMES = [
    (keep, [(tuple(sorted(keep + add)), p) for add, p in OUT[5 - size]])
    for size in range(6) for keep in itertools.combinations_with_replacement(range(1, 7), size)
]


def brute_turn(terminal):
    """(value, draw) of one turn from its start: ``terminal(roll)`` gives the best (value, draw) of scoring ``roll``."""
    S = {r: terminal(r) for r in ROLLS5}
    for _ in range(2):
        E = {}
        for keep, outcomes in KEEP_OUTCOMES:
            v = d = 0.0
            for roll, p in outcomes:
                sv, sd = S[roll]
                v += p * sv
                d += p * sd
            E[keep] = (v, d)
        S = {r: first_best([E[k] for k in _keeps_in_order(r)]) for r in ROLLS5}
    v = d = 0.0
    for r, p in OUT[5]:
        v += p * S[r][0]
        d += p * S[r][1]
    return v, d


@cache  # the brute force asks again for every position of the other card
def scores(card: ScoreCard, roll):
    """(box, card after) for every legal box, lowest box first."""
    pts, legal, bonus = card.box_points(roll)
    return tuple((c, card.with_box(c, pts[c], bonus)) for c in range(len(pts)) if legal[c])


def first_best(options):
    """The best value, with the draw chance of the first option within 1e-12 of it (the solver's tie rule)."""
    top = max(v for v, _ in options)
    return top, next(d for v, d in options if v >= top - 1e-12)


def best_score(card, roll, value_of):
    return first_best([value_of(nxt) for _, nxt in scores(card, roll)])


def end_value(d):
    return (1.0, 0.0) if d > 0 else ((0.5, 1.0) if d == 0 else (0.0, 0.0))


@cache
def brute_optimal(mover: ScoreCard, other: ScoreCard):
    """(value, draw) of the mover at a turn start, both maximising their own winning chance."""
    if mover.is_full and other.is_full:
        return end_value(mover.total - other.total)

    def after(nxt):
        if other.is_full:
            return brute_optimal(nxt, other)
        v, d = brute_optimal(other, nxt)
        return 1.0 - v, d

    return brute_turn(lambda r: best_score(mover, r, after))


def cpu_turn(cpu, card: ScoreCard):
    """{card after: probability} of one turn of a deterministic CPU, enumerated exactly.

    The CPU's choice depends only on the dice and the rerolls left, so the turn is
    the outcome distribution of each (dice, rerolls left), from the last roll back:
    every sum is over at most 252 rolls, added with ``math.fsum`` (correctly rounded).
    Summing the 16 million paths one by one instead loses about 4e-12 of probability
    to rounding (each path added to a total near 1).
    """

    @cache
    def dist(roll, rolls_left):
        if rolls_left:
            keep = tuple(sorted(cpu.choose_keep(card, roll, rolls_left)))
            if len(keep) < 5:
                terms: dict = {}
                for add, q in OUT[5 - len(keep)]:
                    for nxt, p in dist(tuple(sorted(keep + add)), rolls_left - 1).items():
                        terms.setdefault(nxt, []).append(q * p)
                return {nxt: math.fsum(ps) for nxt, ps in terms.items()}
        c = cpu.choose_box(card, roll)
        pts, legal, bonus = card.box_points(roll)
        assert legal[c]
        return {card.with_box(c, pts[c], bonus): 1.0}

    terms: dict = {}
    for r, p in OUT[5]:
        for nxt, q in dist(r, 2).items():
            terms.setdefault(nxt, []).append(p * q)
    return {nxt: math.fsum(ps) for nxt, ps in terms.items()}


def make_brute_fixed(cpu):
    turns: dict = {}

    @cache
    def mine(me: ScoreCard, opp: ScoreCard, my_turn: bool):
        if me.is_full and opp.is_full:
            return end_value(me.total - opp.total)
        if my_turn:
            return brute_turn(lambda r: best_score(me, r, lambda nxt: mine(nxt, opp, opp.is_full)))
        if opp not in turns:
            turns[opp] = cpu_turn(cpu, opp)
        v = d = 0.0
        for nxt, p in turns[opp].items():
            a, b = mine(me, nxt, not me.is_full)
            v += p * a
            d += p * b
        return v, d

    return mine


# -- positions -----------------------------------------------------------------------------

POSITIONS = [
    # (my card, opponent card): I move first (equal open boxes) or second (one more)
    (card_without("yahtzee"), card_without("chance", chance=22)),
    (card_without("chance", fives=10), card_without("large-straight", sixes=24)),
    (card_without("fours", "full-house", fours=12, sixes=6), card_without("sixes", "yahtzee")),
    (card_without("large-straight", "chance"), card_without("small-straight", small_straight=30)),
    (card_without("sixes", "chance", fours=8), card_without("sixes", "small-straight", fives=20)),
]


@pytest.mark.parametrize("i", [0, 1, 2, 3, pytest.param(4, marks=pytest.mark.slow)])  # 4: over a minute
def test_optimal_matches_brute_force(i):
    me, opp = POSITIONS[i]
    src = DuelSource(R, opp, "optimal", jit=False)
    for shift in (-20, 0, 7):  # other score differences: the opponent's chance box moved
        o2 = opp if shift == 0 else _shift(opp, shift)
        if o2 is None:
            continue
        src2 = DuelSource(R, o2, "optimal", solver=src.solver)
        v, d = src2.state_outcomes(me.key, me.total)
        bv, bd = brute_optimal(me, o2)
        assert v == pytest.approx(bv, abs=1e-12)
        assert d == pytest.approx(bd, abs=1e-12)
        w, loss = v - d / 2, 1 - v - d / 2
        assert w >= -1e-15 and loss >= -1e-15 and w + d + loss == pytest.approx(1.0, abs=1e-15)


def _shift(card, shift):
    """The card with its chance box (filled) moved by ``shift`` points, or None when impossible."""
    c = card.rules.category_index("chance")
    if card.boxes[c] is None or not 5 <= card.boxes[c] + shift <= 30:
        return None
    b = list(card.boxes)
    b[c] += shift
    return ScoreCard(card.rules, tuple(b), card.yahtzee_bonus)


@pytest.mark.parametrize("level", ["expert", "normal"])
@pytest.mark.parametrize("i", [0, 1, 3, pytest.param(2, marks=pytest.mark.slow)])
def test_fixed_policy_matches_brute_force(level, i):
    me, opp = POSITIONS[i]
    cpu = fixed_strategy(level, R)
    brute = make_brute_fixed(cpu)
    src = DuelSource(R, opp, level, jit=False)
    v, d = src.state_outcomes(me.key, me.total)
    bv, bd = brute(me, opp, True)
    assert v == pytest.approx(bv, abs=1e-12)
    assert d == pytest.approx(bd, abs=1e-12)


def test_keep_and_box_values_match_brute_force():
    me, opp = POSITIONS[2]
    src = DuelSource(R, opp, "optimal", jit=False)

    def after(nxt):
        v, d = brute_optimal(opp, nxt)
        return 1.0 - v, d

    roll = (4, 4, 6, 6, 6)
    r = roll_index(roll)
    bv = src.box_values(me.key, me.total, r)
    for c, nxt in scores(me, roll):
        assert bv[c] == pytest.approx(after(nxt)[0], abs=1e-12)
    assert np.isnan(bv[[c for c in range(13) if me.boxes[c] is not None]]).all()
    # one reroll to go, keep 4-4: the mean over the three fresh dice of the best box
    kv = src.keep_values(me.key, me.total, 1)
    want = sum(p * best_score(me, tuple(sorted((4, 4) + add)), after)[0] for add, p in OUT[3])
    assert kv[keep_index((4, 4))] == pytest.approx(want, abs=1e-12)


def test_zero_sum_values_of_the_two_sides_sum_to_one():
    """At the opponent's turn start, its value (its own solve) + mine (brute force, I minimise for it) = 1."""
    me, opp = POSITIONS[3]
    solver = DuelSolver(R, "optimal", jit=False)
    # every card I reach after one turn on these rolls, the opponent to move
    src = DuelSource(R, opp, "optimal", solver=solver)
    src.state_value(me.key, me.total)
    seen = 0
    for roll in [(6, 6, 6, 6, 1), (2, 3, 4, 5, 6), (2, 3, 3, 2, 2)]:
        for _, nxt in scores(me, roll):
            theirs = DuelSource(R, nxt, "optimal", solver=solver).state_value(opp.key, opp.total)
            mine = _brute_min(me_card=nxt, opp_card=opp)
            assert theirs + mine == pytest.approx(1.0, abs=1e-12)
            seen += 1
    assert seen >= 4


def _brute_min(me_card, opp_card):
    """My value at the opponent's turn start when it plays to minimise my value (brute force, my perspective)."""

    @cache
    def mine(me, opp, my_turn):
        if me.is_full and opp.is_full:
            return end_value(me.total - opp.total)[0]
        if my_turn:
            return brute_turn(lambda r: (max(mine(n, opp, opp.is_full) for _, n in scores(me, r)), 0.0))[0]
        # the opponent minimises my value: maximise 1 - mine
        return 1.0 - brute_turn(lambda r: (max(1.0 - mine(me, n, not me.is_full) for _, n in scores(opp, r)),
                                            0.0))[0]

    return mine(me_card, opp_card, False)


# -- invariants on random endgames (compiled) -----------------------------------------------

def random_endgame(rng, n_me, n_opp):
    """A card pair from a random finished game with ``n_me`` / ``n_opp`` boxes opened again."""
    from yahtzee_solver.strategy.players import ExpertStrategy

    cards = []
    exp = ExpertStrategy(R)
    for n in (n_me, n_opp):
        card = ScoreCard.empty(R)
        order = rng.permutation(13)[: 13 - n]
        for _ in range(13 - n):
            dice = tuple(sorted(int(x) for x in rng.integers(1, 7, 5)))
            legal_boxes = [c for c, _ in scores(card, dice)]
            allowed = [c for c in legal_boxes if c in order]
            c = allowed[0] if allowed else exp.choose_box(card, dice)
            pts, legal, bonus = card.box_points(dice)
            card = card.with_box(c, pts[c], bonus)
        cards.append(card)
    return cards


@pytest.mark.parametrize("seed", range(4))
def test_invariants_on_random_endgames(seed):
    rng = np.random.default_rng(seed)
    me, opp = random_endgame(rng, 2, 2)
    opt = DuelSource(R, opp, "optimal")
    v, d = opt.state_outcomes(me.key, me.total)
    w, loss = v - d / 2, 1 - v - d / 2
    assert min(w, d, loss) >= -1e-15 and w + d + loss == pytest.approx(1, abs=1e-15)
    for level in ("expert", "beginner"):
        fx = DuelSource(R, opp, level)
        pmf = opponent_pmf(R, opp, level)
        best_response = WinSource(R, pmf).probability(me)
        assert fx.state_value(me.key, me.total) >= best_response - 1e-12


@pytest.mark.parametrize("seed", range(3))
def test_opponent_finished_equals_the_target_dp(seed):
    rng = np.random.default_rng(10 + seed)
    me, opp = random_endgame(rng, 3, 0)
    pmf = np.zeros(opp.total + 1)
    pmf[opp.total] = 1.0
    want = WinSource(R, pmf).probability(me)
    for model in ("optimal", "expert"):
        got = DuelSource(R, opp, model).state_value(me.key, me.total)
        assert got == pytest.approx(want, abs=1e-12)


def test_unknown_model_is_a_usage_error():
    with pytest.raises(UsageError, match="unknown opponent model 'genius'"):
        DuelSolver(R, "genius")


# -- the win command ---------------------------------------------------------------------------

def _slugs(card: ScoreCard) -> str:
    return ",".join(f"{card.rules.categories[c].slug}={v}" for c, v in enumerate(card.boxes) if v is not None)


def test_win_command_ranks_keeps_by_the_exact_chance():
    import sys
    sys.path.insert(0, "tests")
    from clihelpers import run_json

    me, opp = POSITIONS[1]
    out = run_json("win", "55123", "-r", "1", "--card", _slugs(me), "--opponent", _slugs(opp))
    assert out["exact"] is True and out["move"] == "first" and out["opponent_plays"] == "optimal"
    src = DuelSource(R, opp, "optimal", jit=False)
    v, d = src.keep_outcomes(me.key, me.total, 1)
    for o in out["options"]:
        k = keep_index(parse_dice_str(o["keep"]))
        assert o["probability"] == v[k]
        assert o["draw"] == d[k]
        assert o["win"] + o["draw"] + o["loss"] == pytest.approx(1.0, abs=1e-15)
    probs = [o["probability"] for o in out["options"]]
    assert probs == sorted(probs, reverse=True)
    # keeping all five is scoring now: the option names the box (the stop of the same value source)
    stop = next(o for o in out["options"] if len(parse_dice_str(o["keep"])) == 5)
    from yahtzee_solver.rules import get_rules
    from yahtzee_solver.solver.table import load_table
    from yahtzee_solver.strategy.policy import ExpectedValueSource, Policy

    rules = get_rules(R)
    tiebreak = ExpectedValueSource(rules, load_table(rules), jit=False)  # as the command's
    c, _ = Policy(src, tiebreak=tiebreak).stop_option(me.key, me.total, roll_index((1, 2, 3, 5, 5)))
    assert stop["score"]["box"] == rules.categories[c].slug and stop["score"]["points"] == me.box_points((1, 2, 3, 5, 5))[0][c]
    assert all("score" not in o for o in out["options"] if o is not stop)
    # no dice: the chance from the turn start
    out = run_json("win", "--card", _slugs(me), "--opponent", _slugs(opp), "--opponent-plays", "expert")
    assert out["probability"] == DuelSource(R, opp, "expert").state_value(me.key, me.total)


def parse_dice_str(text):
    return tuple(int(ch) for ch in text if ch.isdigit())


def test_win_command_boxes_and_move_second():
    import sys
    sys.path.insert(0, "tests")
    from clihelpers import run_json

    me, opp = card_without("sixes", "chance"), card_without("yahtzee")
    out = run_json("win", "66663", "-r", "0", "--card", _slugs(me), "--opponent", _slugs(opp))
    assert out["move"] == "second" and out["kind"] == "box"
    bv = DuelSource(R, opp, "optimal").box_values(me.key, me.total, roll_index((3, 6, 6, 6, 6)))
    assert {o["box"]: o["probability"] for o in out["options"]} == {
        "sixes": bv[5], "chance": bv[12]}


def test_win_command_says_one_open_box_in_the_singular():
    import sys
    sys.path.insert(0, "tests")
    from clihelpers import run

    me = card_without("chance")
    r = run("win", "--card", _slugs(me), "--opponent", FULL)
    assert r.exit_code == 0, r.output
    assert "(1 open box in all)" in r.output
    r = run("win", "--card", _slugs(me), "--opponent", _slugs(card_without("chance", "ones")))
    assert r.exit_code == 2 and "I have 1 open box and the opponent 2" in r.output, r.output


def test_win_command_card_errors_name_the_card_that_holds_them(tmp_path):
    import sys
    sys.path.insert(0, "tests")
    from clihelpers import assert_clean_error, run

    good = _slugs(card_without("chance"))
    assert_clean_error(run("win", "--card", "ones=7", "--opponent", good), 2, "--card:", "ones")
    assert_clean_error(run("win", "--card", good, "--opponent", "ones=7"), 2, "--opponent:", "ones")
    assert_clean_error(run("win", "--card", good, "--opponent", f"@{tmp_path / 'none.json'}"), 1,
                       "--opponent:", "none.json")
    other = tmp_path / "yatzy.json"
    other.write_text('{"rules": "yatzy", "boxes": {}}')
    assert_clean_error(run("win", "--rules", "yahtzee", "--card", f"@{other}", "--opponent", good), 2,
                       f"--card '@{other}' is for rules 'yatzy', but --rules is 'yahtzee'")


def test_win_command_refuses_rolls_left_without_dice():
    """Without DICE the chance is the turn start's; a --rolls-left given then would be ignored, so it is refused."""
    import sys
    sys.path.insert(0, "tests")
    from clihelpers import assert_clean_error, run

    good = _slugs(card_without("chance"))
    for r in ("0", "2"):
        assert_clean_error(run("win", "-r", r, "--card", good, "--opponent", good), 2, f"--rolls-left {r}", "dice")
    assert run("win", "--card", good, "--opponent", good).exit_code == 0


def test_win_command_shows_an_impossible_loss_as_zero_not_rounding():
    """Tied with only my Yahtzee box open and the opponent done, I cannot lose: loss is 0 exactly
    (1 - p - d/2 left -5.6e-15 % and 1.1e-16), and no chance is negative."""
    import sys
    sys.path.insert(0, "tests")
    from clihelpers import run_json

    me = card_without("yahtzee", chance=20)
    opp = card_without(yahtzee=0, chance=20)
    assert me.total == opp.total
    for args in (["11112", "-r", "1"], ["11112", "-r", "2"], ["11112", "-r", "0"], []):
        out = run_json("win", *args, "--card", _slugs(me), "--opponent", _slugs(opp))
        rows = out.get("options", [out])
        for o in rows:
            assert o["loss"] == 0.0, o
            assert 0.0 <= o["win"] <= 1.0 and 0.0 <= o["draw"] <= 1.0
            assert abs(o["win"] + o["draw"] / 2 - o["probability"]) < 1e-12


def test_ctrl_c_in_the_two_player_solve_stops_with_one_line(monkeypatch):
    """Ctrl-C in a long exact solve (--max-open 10 takes minutes): one stderr line, exit 130, no stdout."""
    import sys
    sys.path.insert(0, "tests")
    from clihelpers import run

    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(DuelSource, "state_outcomes", interrupt)
    monkeypatch.setattr(DuelSource, "keep_outcomes", interrupt)
    me, opp = card_without("sixes", "chance"), card_without("yahtzee", "fours")
    for dice in ([], ["66612"]):
        res = run("win", *dice, "--card", _slugs(me), "--opponent", _slugs(opp))
        assert res.exit_code == 130 and res.stdout == "", res.output
        assert res.stderr.strip() == "Interrupted: the two-player solve stopped; nothing written."
    # a long solve says so first (9 open boxes in all and more), on stderr
    me, opp = card_without("sixes", "chance", "fours", "fives", "threes"), card_without("yahtzee", "ones", "twos", "full-house")
    res = run("win", "--card", _slugs(me), "--opponent", _slugs(opp), "--max-open", "9")
    assert res.exit_code == 130 and res.stdout == "", res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 2 and "exact two-player solve of 9 open boxes in all" in lines[0] and "Ctrl-C" in lines[0]


def test_win_command_out_of_turn_and_beyond_k():
    import sys
    sys.path.insert(0, "tests")
    from clihelpers import assert_clean_error, run, run_json

    me = card_without("sixes", "chance", "fours")
    opp = card_without("yahtzee")
    r = run("win", "--card", _slugs(me), "--opponent", _slugs(opp))
    assert_clean_error(r, 2, "3 open boxes", "opponent 1")
    r = run("win", "--card", FULL, "--opponent", _slugs(opp))
    assert_clean_error(r, 2, "my card is full")
    # beyond --max-open: labelled best response, never silently approximate
    me = card_without("sixes", "chance")
    opp = card_without("yahtzee", "fours")
    out = run_json("win", "--card", _slugs(me), "--opponent", _slugs(opp), "--max-open", "3",
                   "--opponent-plays", "expert")
    assert out["exact"] is False and "best response" in out["method"] and out["draw"] is None
    pmf = opponent_pmf(R, opp, "expert")
    assert out["probability"] == WinSource(R, pmf).probability(me)
    text = run("win", "--card", _slugs(me), "--opponent", _slugs(opp), "--max-open", "3").output
    assert "NOT exact" in text and "best response" in text
    # its tables have the one chance it knows: no empty win / draw / loss columns
    for dice in (["66612"], ["66612", "-r", "0"]):
        text = run("win", *dice, "--card", _slugs(me), "--opponent", _slugs(opp), "--max-open", "3").output
        head = next(line for line in text.splitlines() if "P(win)+draw/2" in line)
        assert head.split()[-1] == "P(win)+draw/2" and "draw " not in head + " " and "loss" not in head, text
    exact = run("win", "66612", "--card", _slugs(me), "--opponent", _slugs(opp)).output
    assert next(line for line in exact.splitlines() if "P(win)+draw/2" in line).split()[-3:] == ["win", "draw", "loss"]


def test_master_plays_the_exact_zero_sum_strategy_within_scope():
    from yahtzee_solver.dice import KEEPS
    from yahtzee_solver.strategy.master import TIE, MasterStrategy
    from yahtzee_solver.strategy.policy import Policy

    me, opp = POSITIONS[2]
    master = MasterStrategy(R)
    master.observe(opp, "expert")
    assert master.is_duel(me)
    src = DuelSource(R, opp, "optimal")
    assert master.win_probability(me) == src.probability(me)
    pol = Policy(src, tiebreak=master.expert.source, tie_tolerance=TIE)
    for dice in [(4, 4, 6, 6, 6), (1, 2, 3, 4, 6), (6, 6, 6, 6, 6)]:
        r = roll_index(dice)
        assert master.choose_keep(me, dice, 2) == KEEPS[pol.choose_keep(me.key, me.total, r, 2)]
        assert master.choose_box(me, dice) == pol.choose_box(me.key, me.total, r)
    # out of scope (or out of turn): today's best response
    master.observe(card_without("yahtzee", "chance", "ones", "twos"), "expert")
    assert not master.is_duel(me)
    small = MasterStrategy(R, duel_max_open=3)
    small.observe(opp, "expert")
    # its best response to the expert's distribution: at most the exact value against the expert
    assert not small.is_duel(me)
    assert small.win_probability(me) <= DuelSource(R, opp, "expert").probability(me) + 1e-12


def test_win_refuses_a_max_open_beyond_its_limit():
    """--max-open 30 ran for minutes with the memory growing; it is a usage error naming the range."""
    from clihelpers import assert_clean_error, run

    from yahtzee_solver.cli.win import MAX_OPEN_LIMIT

    res = run("win", "--card", "1s=3", "--opponent", "1s=3", "--max-open", str(MAX_OPEN_LIMIT + 20))
    assert_clean_error(res, 2, "--max-open", str(MAX_OPEN_LIMIT + 20))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("model", ["optimal", "expert", "beginner"])
def test_values_without_draws_are_the_same_bits(seed, model):
    """``draws=False`` (the values through utility_kernels.vec_turn) gives the draw-carrying solver's values exactly."""
    rng = np.random.default_rng(40 + seed)
    me, opp = random_endgame(rng, 3, 2 + seed % 2)
    with_d = DuelSource(R, opp, model, solver=DuelSolver(R, model, draws=True))
    no_d = DuelSource(R, opp, model, solver=DuelSolver(R, model, draws=False))
    assert no_d.state_value(me.key, me.total) == with_d.state_value(me.key, me.total)
    # every node both solvers hold: the same vectors, bit for bit
    memo_d, memo_n = with_d.solver._memo, no_d.solver._memo
    assert memo_d.keys() == memo_n.keys() and len(memo_n) > 10
    for k, (v, _) in memo_d.items():
        assert np.array_equal(memo_n[k][0], v)
        assert np.isnan(memo_n[k][1]).all()
    for total in (me.total - 40, me.total, me.total + 25):
        for rolls_left in (1, 2):
            assert np.array_equal(no_d.keep_values(me.key, total, rolls_left),
                                  with_d.keep_values(me.key, total, rolls_left))
        for roll in (0, 100, 251):
            assert np.array_equal(no_d.box_values(me.key, total, roll), with_d.box_values(me.key, total, roll),
                                  equal_nan=True)


def test_outcomes_need_a_solver_with_draws():
    me, opp = POSITIONS[0]
    src = DuelSource(R, opp, "optimal", solver=DuelSolver(R, "optimal", draws=False, jit=False))
    assert 0.0 <= src.state_value(me.key, me.total) <= 1.0
    for call in (lambda: src.state_outcomes(me.key, me.total), lambda: src.keep_outcomes(me.key, me.total, 2),
                 lambda: src.box_outcomes(me.key, me.total, 0)):
        with pytest.raises(UsageError, match="draws=False"):
            call()


def test_a_source_refuses_cards_out_of_turn_too_large_or_of_other_rules():
    """The library checks what the command line checks: my turn, at most MAX_SOLVE_OPEN open boxes, one rule set."""
    from yahtzee_solver.cli.win import MAX_OPEN_LIMIT
    from yahtzee_solver.strategy.duel import MAX_SOLVE_OPEN

    assert MAX_OPEN_LIMIT == MAX_SOLVE_OPEN
    opp = card_without("chance", "yahtzee", "sixes", "fives")  # 4 open
    src = DuelSource(R, opp, "optimal", solver=DuelSolver(R, "optimal", draws=False, jit=False))
    for mine in (card_without("chance", "yahtzee"), card_without("chance", "yahtzee", "sixes", "fives", "fours",
                                                                  "threes")):  # 2 and 6 open: not my turn
        with pytest.raises(UsageError, match="not in turn"):
            src.state_value(mine.key, mine.total)
        with pytest.raises(UsageError, match="not in turn"):
            src.keep_values(mine.key, mine.total, 2)
    big = parse_card("ones=3", R)  # 12 open against a finished card: far beyond the solver
    with pytest.raises(UsageError, match="13 open boxes in all|12 open boxes in all"):
        DuelSource(R, card_without(), "optimal").state_value(big.key, big.total)
    with pytest.raises(UsageError, match="rules 'yahtzee', not 'yatzy'"):
        DuelSource("yatzy", opp, "optimal")


def test_the_fallback_note_is_a_bound_only_against_a_fixed_policy():
    """Beyond the exact scope ``win`` answers with the best response to the expert: a lower bound against the
    expert, but only an estimate against an opponent who plays to win (the exact value can be lower)."""
    from click.testing import CliRunner

    from yahtzee_solver.cli import main

    me = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,ls=40"
    opp = "ones=3,twos=6,threes=9,fours=12,fives=20,sixes=24,3k=30,4k=29,fh=25,ss=30,ls=40"
    r = CliRunner().invoke(main, ["win", "--card", me, "--opponent", opp, "--max-open", "3"])
    assert r.exit_code == 0, r.output
    assert "estimate, neither exact nor a bound" in r.output and "lower bound" not in r.output
    r = CliRunner().invoke(main, ["win", "--card", me, "--opponent", opp, "--max-open", "3",
                                  "--opponent-plays", "expert"])
    assert "a lower bound of the best winning chance against the expert" in r.output
