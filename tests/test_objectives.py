"""Target-score and win-probability DPs (objectives.py) against a brute-force expectimax.

The brute force plays out turns on :class:`ScoreCard` objects: the first roll
and every reroll enumerated as multisets with multinomial probabilities, every
keep tried, every legal box tried, the final total read off the card.  It
shares nothing with the offset DP but the scoring rules (``ScoreCard.box_points``).
"""

from __future__ import annotations

import functools
import itertools
import math
from functools import lru_cache

import numpy as np
import pytest

from yahtzee_solver import parse_card
from yahtzee_solver.solver.build import reachable_layers
from yahtzee_solver.dice import keep_index, roll_index
from yahtzee_solver.errors import UsageError
from yahtzee_solver.rules import get_rules
from yahtzee_solver.strategy.objectives import (
    TargetSource,
    WinSource,
    max_points_to_come,
    opponent_pmf,
    solve_utility,
    survival,
    target_curve,
    target_utility,
    win_utility,
)
from yahtzee_solver.state import ScoreCard


def _outcomes(m: int):
    """Every multiset of ``m`` fresh dice with its probability."""
    out = []
    for combo in itertools.combinations_with_replacement(range(1, 7), m):
        ways = math.factorial(m)
        for f in set(combo):
            ways //= math.factorial(combo.count(f))
        out.append((combo, ways / 6**m))
    return out


_OUT = {m: _outcomes(m) for m in range(6)}


def _sub_keeps(dice):
    return sorted({tuple(sorted(s)) for n in range(6) for s in itertools.combinations(dice, n)})


class Brute:
    """Expectimax of E[u(final total)] on cards, u a function of the final total.

    ``u`` may return an array (several utilities at once): maxima are then
    taken element by element, one decision per utility.
    """

    def __init__(self, u):
        self.u = u
        self.card_value = lru_cache(maxsize=None)(self._card_value)

    def _card_value(self, card: ScoreCard) -> float:
        if card.is_full:
            return self.u(card.total)
        keep_val, _ = self.turn(card)
        return keep_val((), 3)

    def turn(self, card: ScoreCard):
        """(keep_value(keep, n), box_value(dice)) for one turn of ``card``."""
        box_memo: dict = {}
        keep_memo: dict = {}

        def box_value(dice):
            if dice not in box_memo:
                points, legal, bonus = card.box_points(dice)
                best = -math.inf
                for c, ok in enumerate(legal):
                    if ok:
                        best = np.maximum(best, self.card_value(card.with_box(c, points[c], bonus)))
                box_memo[dice] = best
            return box_memo[dice]

        def roll_value(dice, n):  # n rerolls left
            if n == 0:
                return box_value(dice)
            return functools.reduce(np.maximum, (keep_value(k, n) for k in _sub_keeps(dice)))

        def keep_value(keep, n):  # n rolls to go
            key = (keep, n)
            if key not in keep_memo:
                keep_memo[key] = sum(p * roll_value(tuple(sorted(keep + o)), n - 1) for o, p in _OUT[5 - len(keep)])
            return keep_memo[key]

        return keep_value, box_value


GLENN = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,ls=40"

CASES = [
    # rules, card, offsets of targets above the card total
    ("yahtzee", GLENN, (0, 1, 20, 40, 60, 90)),
    ("yahtzee", "ones=3,twos=6,threes=9,fours=12,sixes=18,3k=20,4k=20,fh=25,ss=30,ls=40,yahtzee=50", (30, 60, 120, 200)),
    ("yahtzee", "twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,ls=40,yahtzee=50", (1, 40, 100, 140)),
    ("yahtzee-free-joker", "ones=3,twos=6,threes=9,fours=12,sixes=18,3k=20,4k=20,fh=25,ss=30,ls=40,yahtzee=50",
     (30, 60, 120)),
    ("yacht", "aces=3,twos=6,threes=9,fours=12,fives=15,sixes=18,choice=20,four-dice=20,full-house=26,yacht=50",
     (20, 45, 60)),
]


@pytest.mark.parametrize("rules,card_text,offsets", CASES)
def test_target_matches_brute_force(rules, card_text, offsets):
    card = parse_card(card_text, rules)
    targets = np.array(offsets) + card.total
    expected = Brute(lambda t: (t >= targets).astype(float)).card_value(card)
    for T, want in zip(targets.tolist(), expected.tolist()):
        sol = solve_utility(rules, card, None, target_utility(T, card.total), jit=False)
        assert sol.value == pytest.approx(want, abs=1e-12), (card_text, T)


def test_keep_and_box_values_match_brute_force():
    card = parse_card(CASES[1][1])
    T = card.total + 60
    src = TargetSource("yahtzee", T, jit=False)
    keep_val, box_val = Brute(lambda t: float(t >= T)).turn(card)
    for dice in ((1, 1, 1, 1, 2), (5, 5, 5, 5, 5), (2, 3, 4, 5, 6), (5, 5, 6, 6, 6)):
        r = roll_index(dice)
        for n in (1, 2):
            E = src.keep_values(card.key, card.total, n)
            for k in _sub_keeps(dice):
                assert E[keep_index(k)] == pytest.approx(keep_val(k, n), abs=1e-12)
        bv = src.box_values(card.key, card.total, r)
        points, legal, bonus = card.box_points(dice)
        brute = Brute(lambda t: float(t >= T))
        for c in range(13):
            if legal[c]:
                assert bv[c] == pytest.approx(brute.card_value(card.with_box(c, points[c], bonus)), abs=1e-12)
            else:
                assert np.isnan(bv[c])


def test_win_matches_brute_force():
    card = parse_card(CASES[2][1])
    rng = np.random.default_rng(5)
    pmf = np.zeros(card.total + 160)
    support = rng.choice(np.arange(card.total, card.total + 160), size=12, replace=False)
    pmf[support] = rng.random(12)
    pmf /= pmf.sum()

    def u(t):
        return float(pmf[:t].sum() + (pmf[t] / 2 if t < pmf.size else 0.0))

    src = WinSource("yahtzee", pmf, jit=False)
    assert src.probability(card) == pytest.approx(Brute(u).card_value(card), abs=1e-12)


def test_glenn_example_scores_chance():
    """40 behind with Yahtzee and Chance open and 1-1-1-1-2 final: only 6 in Chance keeps a chance."""
    card = parse_card(GLENN)
    src = TargetSource("yahtzee", card.total + 40, jit=False)
    r = roll_index((1, 1, 1, 1, 2))
    bv = src.box_values(card.key, card.total, r)
    chance, yahtzee = card.rules.category_index("chance"), card.rules.category_index("yahtzee")
    assert bv[chance] > 0
    assert bv[yahtzee] == 0.0
    assert int(np.nanargmax(bv)) == chance


def test_compiled_equals_interpreted():
    card = parse_card("ones=3,twos=6,threes=9,fours=12,3k=20,4k=20,fh=25,ss=30,ls=40,chance=20")
    u = target_utility(card.total + 100, card.total)
    a = solve_utility("yahtzee", card, None, u, jit=False)
    b = solve_utility("yahtzee", card, None, u, jit=True)
    np.testing.assert_allclose(a.root_values, b.root_values, rtol=0, atol=1e-14)


def test_curve_invariants_on_reduced_game(fresh_table):
    """P*(>= T) is 1 at T <= total, does not increase with T, and sums to at least the optimal EV."""
    card = parse_card("ones=3,twos=6,threes=9,fours=12,fives=15,3k=20,chance=20")
    J = int(max_points_to_come(card.rules, [card.key[0]], [card.key[1]], [card.key[2]])[0]) + 1
    curve = target_curve("yahtzee", card.total + J, card)
    p = curve.probabilities[card.total:]  # p[x] = P*(points to come >= x)
    assert np.all(curve.probabilities[: card.total + 1] == 1.0)
    for x in (1, 37, 90, J - 1):  # each entry is the one-target DP's answer
        one = solve_utility("yahtzee", card, None, target_utility(card.total + x, card.total))
        assert one.value == pytest.approx(p[x], abs=1e-13)
    assert p[0] == 1.0
    assert np.all(np.diff(p) <= 1e-15)
    assert p[-1] == 0.0  # J is one past the most points the card can still make
    ev = fresh_table("yahtzee").value(*card.key)
    assert p[1:].sum() >= ev - 1e-9
    # the expected-score policy's own P(final >= T): never above P*, equal where both are 1
    p_ev = survival(opponent_pmf("yahtzee", card, "expert", fresh_table("yahtzee")), card.total + J)
    assert np.all(curve.probabilities >= p_ev - 1e-12)
    assert np.all(p_ev[: card.total + 1] == pytest.approx(1.0, abs=1e-12))
    assert p_ev[1:].sum() == pytest.approx(card.total + ev, abs=1e-9)  # sum of P(final >= T) is the mean
    assert np.any(curve.probabilities > p_ev + 1e-6)  # chasing a target pays somewhere


def test_reachable_layers_hold_every_successor():
    card = parse_card("ones=3,twos=6,threes=9,fours=12,3k=20,chance=20,yahtzee=50")
    layers = reachable_layers(card.rules, card.key)
    seen = {tuple(s) for m, u, y in layers for s in zip(m.tolist(), u.tolist(), y.tolist())}
    assert (card.key[0], card.key[1], card.key[2]) in seen
    for m, u, y in layers[:-1]:
        for mask, up, yb in zip(m.tolist(), u.tolist(), y.tolist()):
            for c in range(13):
                if mask >> c & 1:
                    continue
                for pts in card.rules.possible_points[c]:
                    nu = min(63, up + pts) if c < 6 else up
                    nyb = 1 if (c == 11 and pts == 50) else yb
                    assert (mask | 1 << c, nu, nyb) in seen


def test_bad_inputs():
    with pytest.raises(UsageError, match="target"):
        TargetSource("yahtzee", -1)
    with pytest.raises(UsageError, match="target"):
        TargetSource("yahtzee", 1.5)
    with pytest.raises(UsageError, match="opponent"):
        WinSource("yahtzee", [0.5, 0.2])
    with pytest.raises(UsageError, match="opponent"):
        win_utility([], 0)


def test_win_utility_values():
    pmf = np.array([0, 0, 0.25, 0.5, 0.25])
    u = win_utility(pmf, 1)
    # totals 1..5: P(opp < t) + P(opp = t) / 2
    np.testing.assert_allclose(u.values, [0, 0.125, 0.5, 0.875, 1.0])
    assert u.low == 1



@pytest.mark.parametrize("jit", [True, False])
def test_tile_size_does_not_change_a_value(jit):
    """The offsets of a turn run in tiles; every tile size (and one tile for all) gives the same bits."""
    card = parse_card("ones=3,twos=6,threes=9,fours=12,3k=20,4k=20,fh=25,ss=30,ls=40,chance=20" if jit else
                      "ones=3,twos=6,threes=9,fours=12,fives=15,3k=20,4k=20,fh=25,ss=30,ls=40,chance=20")
    u = target_utility(card.total + 150, card.total)
    sols = {tile: solve_utility("yahtzee", card, None, u, jit=jit, every_offset=True, tile=tile)
            for tile in (1, 7, 48, 151)}
    ref = sols[151]
    assert ref.root_values[0] > 0
    for tile, sol in sols.items():
        for lay, lay_ref in zip(sol.layers, ref.layers):
            assert np.array_equal(lay[4], lay_ref[4], equal_nan=True), tile
    with pytest.raises(UsageError, match="tile"):
        solve_utility("yahtzee", card, None, u, jit=jit, tile=0)


@pytest.mark.parametrize("parts", [1, 2, 3, 8])
def test_the_parallel_slices_of_a_layer_are_consecutive_runs_of_about_equal_work(parts):
    """``balanced_starts`` cuts a layer into runs that cover each state once, each within one state's work
    of an equal share, also when every other state has no offsets (the pattern that left one of two
    threads idle when the states were dealt out in turn)."""
    from yahtzee_solver.solver import utility_kernels as uk

    rng = np.random.default_rng(7)
    J = 300
    for n in (0, 1, 5, 400):
        lows = rng.integers(0, 200, n)
        highs = lows + rng.integers(0, 400, n)
        highs[1::2] = lows[1::2]                     # no offsets on every other state
        starts = uk.balanced_starts(lows, highs, J, parts)
        assert starts[0] == 0 and starts[-1] == n and np.all(np.diff(starts) >= 0)
        k = np.minimum(highs, J) - lows
        w = np.where(k > 0, k + uk.STATE_WORK, 1)
        if n:
            share = w.sum() / parts
            loads = np.array([w[starts[p]:starts[p + 1]].sum() for p in range(parts)])
            assert loads.sum() == w.sum()
            assert np.all(np.abs(loads - share) <= w.max()), (loads, share)


@pytest.mark.parametrize("parts", [1, 2, 5])
def test_the_number_of_parallel_slices_does_not_change_a_value(parts, monkeypatch):
    """Each row of a layer depends only on its state: any number of slices gives the same bits."""
    import yahtzee_solver.strategy.objectives as ob
    from yahtzee_solver.solver import utility_kernels

    card = parse_card("ones=3,twos=6,threes=9,fours=12,fives=15,3k=20,4k=20,fh=25,ss=30,ls=40,chance=20")
    u = target_utility(card.total + 120, card.total)
    ref = solve_utility("yahtzee", card, None, u, every_offset=True)
    compiled = ob._jit.module_backend(utility_kernels, True)

    class Parts:
        def __getattr__(self, name):
            f = getattr(compiled, name)
            return (lambda *a: f(*a[:-2], parts, a[-1])) if name == "solve_layer" else f

    backend = ob._jit.module_backend
    monkeypatch.setattr(ob._jit, "module_backend",
                        lambda m, jit: Parts() if m is utility_kernels else backend(m, jit))
    sol = solve_utility("yahtzee", card, None, u, every_offset=True)
    for lay, lay_ref in zip(sol.layers, ref.layers):
        assert np.array_equal(lay[4], lay_ref[4], equal_nan=True)


def test_one_turn_per_class_of_equal_upper_subtotals_and_each_state_reads_its_own_values():
    # the DP solves one state per class of equivalent upper subtotals; every other state of a class
    # reads its representative's row, which must be what a solve rooted at that state itself gives
    from yahtzee_solver.solver.build import upper_representatives
    from yahtzee_solver.strategy.objectives import solve_utility, target_utility

    rules = get_rules("yahtzee")
    card = parse_card("fives=10,sixes=12,3k=20,4k=20,fh=25,ss=30,ls=40,chance=20,yahtzee=50", rules)
    target = card.total + 60
    sol = solve_utility(rules, card, None, target_utility(target, card.total), jit=False)
    layers = reachable_layers(rules, card.key)
    classes = sum(len(upper_representatives(rules, *layer)[0]) for layer in layers)
    assert sol.n_states == sum(m.size for m, _, _ in layers)
    assert sol.n_solved == classes < sol.n_states
    # a state one box later whose subtotal shares its class with a smaller one: ones=0 then twos scored
    masks, ups, ybs = layers[2]
    first, rep = upper_representatives(rules, masks, ups, ybs)
    others = [i for i in range(masks.size) if first[rep[i]] != i]
    assert others
    for i in others[:3]:
        key = (int(masks[i]), int(ups[i]), int(ybs[i]))
        gained = int(ups[i]) - card.key.up + (rules.upper_bonus if ups[i] >= rules.upper_threshold > card.key.up else 0)
        own = solve_utility(rules, key, card.total + gained, target_utility(target, card.total + gained), jit=False)
        assert sol.covers(key, card.total + gained)
        for rl in (1, 2, 3):
            got = sol.turn_values(key, card.total + gained, rl)
            want = own.turn_values(key, card.total + gained, rl)
            assert np.array_equal(got, want)


def test_win_utility_stops_where_it_is_one_in_float64_and_the_values_keep_every_bit():
    """A tail too thin to move ``P(opp < t) + P(opp = t) / 2`` off 1.0 in float64 is cut from the utility.

    The values are the same bits as with the utility stored up to the opponent's highest total: a
    state at an offset where every final total is worth exactly 1.0 is worth exactly 1.0.
    """
    from yahtzee_solver.strategy.objectives import Utility

    card = parse_card("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,ls=40,chance=20", "yahtzee")
    t0 = card.total
    pmf = np.zeros(t0 + 420)
    pmf[t0 + 40: t0 + 104] = 1.0 / 64  # dyadic: the cdf reaches 1.0 exactly
    pmf[-1] = 1e-18  # e.g. a run of Yahtzee bonuses: P(opp = top) below half an ulp of 1.0
    u = win_utility(pmf, t0)
    assert u.J < pmf.size - t0 and u.values[-1] == 1.0 and u.values[-2] < 1.0
    # the full-length utility, as before the cut
    t = t0 + np.arange(pmf.size + 1 - t0)
    cdf = np.concatenate(([0.0], np.cumsum(pmf)))
    full = np.minimum(cdf[np.minimum(t, pmf.size)] + np.where(t < pmf.size, pmf[np.minimum(t, pmf.size - 1)], 0) / 2,
                      1.0)
    full[t > pmf.size - 1] = 1.0
    assert np.array_equal(full[: u.J + 1], u.values) and (full[u.J:] == 1.0).all()
    for every in (False, True):
        a = solve_utility("yahtzee", card, None, u, every_offset=every)
        b = solve_utility("yahtzee", card, None, Utility(full, u.low), every_offset=every)
        assert a.value == b.value
        for la, lb in zip(a.layers, b.layers):  # every state at every offset below the cut
            assert np.array_equal(la[4][:, : u.J], lb[4][:, : u.J], equal_nan=True)
        if every:
            assert (b.root_values[u.J:] == 1.0).all() and a.root_values[u.J] == 1.0


@pytest.mark.parametrize("text", [
    "ones=3,twos=6,threes=9,fours=12,3k=20,4k=20,fh=25,ls=40,chance=20",  # Yahtzee box open
    "ones=3,twos=6,threes=9,fours=12,3k=20,4k=20,fh=25,yahtzee=50,chance=20",  # bonuses possible
    "ones=3,twos=6,threes=9,fours=12,3k=20,4k=20,fh=25,yahtzee=0,chance=20",  # scratched: none
])
def test_the_points_gained_bound_skips_only_offsets_no_game_reaches(text, monkeypatch):
    """Offsets above max_points_gained are never reached: random games stay under it, and cutting them
    leaves every other value with the same bits (also later positions read from the solution)."""
    import yahtzee_solver.strategy.objectives as obj
    from yahtzee_solver.strategy.objectives import max_points_gained

    card = parse_card(text, "yahtzee")
    pmf = np.zeros(card.total + 400)
    pmf[card.total + 60: card.total + 124] = 1 / 64
    pmf[-1] = 1e-6
    pmf /= pmf.sum()
    u = win_utility(pmf, card.total)
    new = solve_utility("yahtzee", card, None, u)
    monkeypatch.setattr(obj, "max_points_gained", lambda rules, root, m, *_: np.full(np.shape(m), 10 ** 6))
    old = solve_utility("yahtzee", card, None, u)
    monkeypatch.undo()
    assert new.value == old.value
    cut = 0
    for la, lb in zip(new.layers, old.layers):
        a, b = la[4], lb[4]
        same = ~np.isnan(a)
        assert np.array_equal(a[same], b[same])
        g = max_points_gained(card.rules, card.key, la[0], la[1], la[2])
        cols = np.arange(a.shape[1])[None, :]
        assert not (np.isnan(a) & ~np.isnan(b) & (cols <= g[:, None])).any()  # only offsets above the bound
        cut += int((np.isnan(a) & ~np.isnan(b)).sum())
    if "yahtzee=50" not in text:
        assert cut > 0  # the bonuses' offsets of a card that cannot earn them yet
    # random games from the root never gain more than the bound
    rng = np.random.default_rng(0)
    for _ in range(300):
        c = card
        while not c.is_full:
            dice = tuple(sorted(int(x) for x in rng.integers(1, 7, 5)))
            if rng.random() < 0.3:
                dice = (int(rng.integers(1, 7)),) * 5  # many Yahtzees: the bonuses' corner
            pts, legal, bonus = c.box_points(dice)
            box = int(rng.choice(np.flatnonzero(legal)))
            c = c.with_box(box, pts[box], bonus)
            k = c.key
            assert c.total - card.total <= max_points_gained(card.rules, card.key, [k[0]], [k[1]], [k[2]])[0]


CURVE_CARDS = [
    "ones=3,twos=6,threes=9,fours=12,3k=20,4k=20,fh=25,chance=20",  # Yahtzee box open, bonus still reachable
    "ones=3,twos=6,threes=9,3k=20,fh=25,yahtzee=50,chance=20",  # Yahtzee bonuses to come
    "fives=10,3k=20,4k=20,fh=25,ss=30,yahtzee=0,chance=20",  # scratched; merged upper subtotals
]


@pytest.mark.parametrize("text", CURVE_CARDS)
def test_a_curve_beyond_a_known_part_is_the_whole_curve_bit_for_bit(text):
    """target_curve(known=...) solves the root only for the targets above the known part; the states
    then compute fewer offsets (the ones those targets reach), and every probability keeps its bits."""
    from yahtzee_solver.strategy.objectives import curve_work

    card = parse_card(text, "yahtzee")
    top = 800
    whole = target_curve("yahtzee", top, card).probabilities
    full_work = curve_work("yahtzee", top, card).state_offsets
    seen_less = False
    for k in (0, card.total, card.total + 1, card.total + 57, 300, 450, 650, top + 1, top + 40):
        part = target_curve("yahtzee", top, card, known=whole[:k])
        assert np.array_equal(part.probabilities, whole), k
        work = curve_work("yahtzee", top, card, k)
        if k <= card.total:
            assert work.state_offsets == full_work
        elif work is not None:
            assert work.state_offsets <= full_work
            seen_less |= work.state_offsets < full_work
        else:
            # nothing left to solve: every target from k on is known or out of reach
            assert k > min(top, card.total + max_points_to_come(card.rules, [card.key[0]], [card.key[1]],
                                                                [card.key[2]])[0])
    assert seen_less
    # the known part is copied: a wrong one shows (what the CLI reads is the shipped DP's own)
    wrong = whole[:300].copy()
    wrong[200] = 0.5
    assert target_curve("yahtzee", top, card, known=wrong).probabilities[200] == 0.5
    with pytest.raises(UsageError, match="known curve"):
        target_curve("yahtzee", top, card, known=[1.0, 2.0])


@pytest.mark.parametrize("text", CURVE_CARDS + ["fours=4,fives=5,sixes=6,3k=20,ss=30,yahtzee=50"])
def test_the_offset_bounds_cut_only_offsets_no_game_needs(text, monkeypatch):
    """The bounds of the offsets a state computes (max_points_gained: the upper subtotal exact, a scratched
    Yahtzee box 0; the points to come without an unreachable upper bonus) leave every value solved with
    the same bits as with no cut at all, for the root's own total and for every root offset, and for
    each state of a class of equal upper subtotals read from its representative."""
    import yahtzee_solver.strategy.objectives as obj

    card = parse_card(text, "yahtzee")
    u = target_utility(card.total + 120, card.total)
    new = {r: solve_utility("yahtzee", card, None, u, root_offsets=r) for r in (0, 37, u.J)}
    huge = lambda rules, *args: np.full(np.shape(args[-3]), 10 ** 6)  # noqa: E731
    monkeypatch.setattr(obj, "max_points_gained", huge)
    monkeypatch.setattr(obj, "_most_to_come", lambda rules, m, *_: obj.max_points_to_come(rules, m, *_))
    uncut = solve_utility("yahtzee", card, None, u, every_offset=True)
    monkeypatch.undo()
    for r, sol in new.items():
        assert np.array_equal(sol.root_values[: r + 1], uncut.root_values[: r + 1])
        for la, lb in zip(sol.layers, uncut.layers):
            a, b = la[4], lb[4]
            same = ~np.isnan(a)
            assert np.array_equal(a[same], b[same])
        # later positions, class members included, read from the solution as solved from themselves
        rng = np.random.default_rng(r)
        for _ in range(20):
            c = card
            while not c.is_full and c.filled < card.filled + 2:
                dice = tuple(sorted(int(x) for x in rng.integers(1, 7, 5)))
                pts, legal, bonus = c.box_points(dice)
                box = int(rng.choice(np.flatnonzero(legal)))
                c = c.with_box(box, pts[box], bonus)
            if c.is_full or not sol.covers(c.key, c.total):
                continue
            own = solve_utility("yahtzee", c, None, target_utility(card.total + 120, c.total))
            assert np.array_equal(sol.turn_values(c.key, c.total, 3), own.turn_values(c.key, c.total, 3))


def test_the_points_to_come_bound_drops_only_an_unreachable_upper_bonus():
    from yahtzee_solver.strategy.objectives import _most_to_come

    rules = get_rules("yahtzee")
    empty = ScoreCard.empty(rules)
    for text, drop in (("ones=3,twos=6,threes=9,fours=12,fives=15", 0),  # sixes 18 makes 63
                       ("ones=0,twos=0,threes=0,fours=0,fives=5", rules.upper_bonus),  # 5 + 30 < 63
                       ("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18", 0)):  # no upper box open
        k = parse_card(text, rules).key
        assert max_points_to_come(rules, [k[0]], [k[1]], [k[2]])[0] - _most_to_come(rules, [k[0]], [k[1]], [k[2]])[0] \
            == drop
    assert _most_to_come(rules, [0], [0], [0])[0] == max_points_to_come(rules, [0], [0], [0])[0]
    # random games never make more than the bound from any state on the way
    rng = np.random.default_rng(3)
    for _ in range(200):
        c, seen = empty, []
        while not c.is_full:
            seen.append((c.key, c.total))
            dice = tuple(sorted(int(x) for x in rng.integers(1, 7, 5)))
            if rng.random() < 0.2:
                dice = (int(rng.integers(1, 7)),) * 5
            pts, legal, bonus = c.box_points(dice)
            box = int(rng.choice(np.flatnonzero(legal)))
            c = c.with_box(box, pts[box], bonus)
        for k, t in seen:
            assert c.total - t <= _most_to_come(rules, [k[0]], [k[1]], [k[2]])[0]
