"""Exact final-score distributions: normalisation, the mean against the value table,
Verhoeff's published figures, a goodness-of-fit test against seeded play of the same
policy (optimal and both CPU levels), the box choice against play_box, and bad input."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

from yahtzee_solver.solver import jit
from yahtzee_solver.strategy.advisor import Advisor
from yahtzee_solver.dice import ROLL_SUBKEEPS, ROLLS
from yahtzee_solver.strategy.distribution import ScoreDistribution, score_distribution
from yahtzee_solver.errors import DiceError, ScoreCardError, UsageError
from yahtzee_solver.strategy.levels import make_strategy
from yahtzee_solver.rules import RULESETS, get_rules
from yahtzee_solver.state import ScoreCard

from rulesdoc import published_distribution

RULE_NAMES = tuple(RULESETS)


def random_card(rules, n_open: int, rng: np.random.Generator) -> ScoreCard:
    """A card reached by random play (random dice, random legal box) with ``n_open`` boxes left."""
    card = ScoreCard.empty(rules)
    while len(card.open_categories) > n_open:
        dice = tuple(int(d) for d in rng.integers(1, 7, 5))
        # favour five alike now and then so Joker and Yahtzee-bonus states occur
        if rng.random() < 0.15:
            dice = (int(rng.integers(1, 7)),) * 5
        points, legal, bonus = card.box_points(dice)
        c = int(rng.choice([c for c in range(len(legal)) if legal[c]]))
        card = card.with_box(c, points[c], bonus)
    return card


# -- normalisation and the mean ----------------------------------------------------------------
@pytest.mark.parametrize("rules", RULE_NAMES)
def test_turn_start_distributions_sum_to_one_with_the_table_mean(rules, fresh_table):
    table = fresh_table(rules)
    rng = np.random.default_rng(sum(map(ord, rules)))
    for n_open in (1, 3, 5, 6):
        card = random_card(rules, n_open, rng)
        d = score_distribution(card, strategy="optimal", table=table)
        m, u, y = card.key
        assert abs(d.pmf.sum() - 1.0) < 1e-12
        assert d.mean == pytest.approx(card.total + table.values[m, u, y], abs=1e-9)
        assert d.pmf.min() >= 0.0
        assert d.support[0] >= card.total


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_mid_turn_distributions_match_the_advisor(rules, fresh_table):
    """From dice with 2, 1 or 0 rerolls left the mean is the advisor's best option."""
    table = fresh_table(rules)
    adv = Advisor(rules, table)
    rng = np.random.default_rng(7 + len(rules))
    for n_open in (2, 5):
        card = random_card(rules, n_open, rng)
        for rl in (2, 1, 0):
            dice = tuple(int(x) for x in rng.integers(1, 7, 5))
            d = score_distribution(card, dice=dice, rolls_left=rl, table=table)
            opts = adv.keep_options(card, dice, rl) if rl else adv.box_options(card, dice)
            assert abs(d.pmf.sum() - 1.0) < 1e-12
            assert d.mean == pytest.approx(opts[0].expected, abs=1e-9)


def test_full_card_is_a_point_mass():
    rng = np.random.default_rng(3)
    card = random_card("yacht", 0, rng)
    d = score_distribution(card)
    assert d.support == (card.total, card.total)
    assert d.sd == 0.0 and d.percentile(50) == card.total


# -- Verhoeff's published optimal-play figures ---------------------------------------------------
def test_free_joker_empty_card_matches_verhoeff():
    """Verhoeff (free Joker): mean, SD and median as docs/rules.md quotes them."""
    pub = published_distribution("yahtzee-free-joker")
    d = score_distribution(rules="yahtzee-free-joker")
    assert abs(d.pmf.sum() - 1.0) < 1e-12
    assert d.mean == pytest.approx(get_rules("yahtzee-free-joker").reference_value, abs=1e-6)
    assert round(d.mean, 4) == pub["mean"]
    assert round(d.sd, 4) == pub["sd"]
    assert d.percentile(50) == pub["median"]


# -- percentiles: the convention of simulate ----------------------------------------------------
def test_percentiles_follow_numpys_inverted_cdf():
    rng = np.random.default_rng(5)
    counts = rng.integers(0, 5, 40)
    counts[[3, 17]] = 7
    n = int(counts.sum())
    # a denominator that is a power of two keeps the cdf exact in binary
    sample = np.repeat(np.arange(len(counts)), counts)
    pmf = counts / n
    d = ScoreDistribution("yahtzee", "optimal", pmf)
    for q in (1, 5, 10, 25, 50, 75, 90, 95, 99, 100):
        want = np.percentile(sample, q, method="inverted_cdf")
        assert d.percentile(q) == int(want), q
    assert d.prob_at_least(17) == pytest.approx(counts[17:].sum() / n, abs=1e-15)
    with pytest.raises(UsageError, match="percentile"):
        d.percentile(101)


# -- goodness of fit against seeded play of the same policy ----------------------------------------
def play_out(card: ScoreCard, strategy, rng: np.random.Generator) -> int:
    """Play the rest of the game from the turn start of ``card`` through the game engine
    (``GameState`` + ``cpu_actions``, the loop of ``simulate.play_game``); final total."""
    from yahtzee_solver.game import GameConfig, GameState, cpu_actions

    state = GameState(GameConfig(card.rules), rng, rng, cards=[card])
    while not state.is_terminal():
        for action in cpu_actions(state, strategy):
            state.apply_action(action)
    return state.cards[0].total


def chi2_sf(x: float, k: int) -> float:
    """P(chi-square with k degrees of freedom > x) (Wilson-Hilferty; accurate to ~1e-3 for k >= 10)."""
    z = ((x / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


def chi2_binned(scores: np.ndarray, pmf: np.ndarray, bins: int = 20) -> tuple[float, int]:
    """Chi-square statistic of ``scores`` against ``pmf`` on bins of about equal probability."""
    cdf = np.cumsum(pmf)
    edges = np.unique(np.searchsorted(cdf, np.linspace(0, 1, bins + 1)[1:-1]))
    lo = np.concatenate([[0], edges + 1])
    hi = np.concatenate([edges + 1, [len(pmf)]])
    expected = np.array([pmf[a:b].sum() for a, b in zip(lo, hi)]) * len(scores)
    counts = np.array([np.count_nonzero((scores >= a) & (scores < b)) for a, b in zip(lo, hi)])
    assert counts.sum() == len(scores), "a simulated score outside the support"
    stat = float(((counts - expected) ** 2 / expected).sum())
    return stat, len(expected) - 1


@pytest.mark.parametrize("level,games", [("optimal", 6000), ("normal", 6000), ("beginner", 4000)])
def test_exact_distribution_fits_seeded_play(level, games):
    rng = np.random.default_rng(11)
    card = random_card("yahtzee", 3, np.random.default_rng(4))
    d = score_distribution(card, strategy=level)
    player = make_strategy("expert" if level == "optimal" else level, "yahtzee", rng=np.random.default_rng(12))
    scores = np.array([play_out(card, player, rng) for _ in range(games)])
    stat, dof = chi2_binned(scores, d.pmf)
    assert chi2_sf(stat, dof) > 1e-3, (level, stat, dof)
    # the mean within its 99.9 % interval
    assert abs(scores.mean() - d.mean) < 3.3 * d.sd / math.sqrt(games)
    # power: the same games are far from another level's distribution
    other = {"optimal": "beginner", "normal": "beginner", "beginner": "normal"}[level]
    wrong = score_distribution(card, strategy=other).pmf
    stat_w, dof_w = chi2_binned(scores, wrong)
    assert chi2_sf(stat_w, dof_w) < 1e-6, (level, other, stat_w)


# -- the kernels behind it --------------------------------------------------------------------
@pytest.mark.parametrize("rules", RULE_NAMES)
def test_final_roll_boxes_is_play_box_for_every_roll(rules):
    r = get_rules(rules)
    k = jit.compiled()
    a = r.arrays()
    expert = make_strategy("expert", r)
    normal = make_strategy("normal", r)
    rng = np.random.default_rng(9)
    C = r.n_categories
    points, legal, values = np.empty(C, np.int64), np.empty(C, np.int8), np.empty(C)
    S, box = np.empty(252), np.empty(252, np.int64)
    for _ in range(40):
        card = random_card(r, int(rng.integers(1, C)), rng)
        m, u, y = card.key
        for s in (expert, normal):
            k.final_roll_boxes(m, u, y, s.values, a["score"], a["joker"], s.params, S, box)
            want = [k.play_box(m, u, y, roll, s.values, a["score"], a["joker"], s.params, points, legal, values)
                    for roll in range(252)]
            assert box.tolist() == want


def test_mass_moves_like_the_players_keeps():
    """One reroll from a fixed roll: the final-roll masses are the chosen keep's reroll chances."""
    r = get_rules("yahtzee")
    k = jit.interpreted()
    a = r.arrays()
    s = make_strategy("expert", r, jit=False)
    card = ScoreCard.empty(r)
    dice = (1, 3, 3, 5, 6)
    keep = s.choose_keep(card, dice, 1)
    E, B, K, M = np.empty((3, 462)), np.empty(462), np.empty(462), np.empty(252)
    C = r.n_categories
    from yahtzee_solver.dice import roll_index

    k.final_roll_masses(0, 0, 0, 0, roll_index(dice), 1, -1, s.values, a["score"], a["joker"], s.params, a["params"],
                        ROLL_SUBKEEPS, 0.0, 0, np.zeros((1, 1), np.int32), E, B, K, M, np.empty(252), np.empty((2, 252), np.int64),
                        np.empty(C, np.int64), np.empty(C, np.int8))
    n = 5 - len(keep)
    want = np.zeros(252)
    for faces in np.ndindex(*(6,) * n):
        roll = tuple(sorted(keep + tuple(f + 1 for f in faces)))
        want[ROLLS.index(roll)] += 6.0**-n
    np.testing.assert_allclose(M, want, atol=1e-15)


# -- bad input ---------------------------------------------------------------------------------
def test_bad_input_is_refused():
    card = ScoreCard.empty("yahtzee")
    with pytest.raises(UsageError, match="unknown strategy 'genius'"):
        score_distribution(card, strategy="genius")
    with pytest.raises(UsageError, match="rolls-left needs the dice"):
        score_distribution(card, rolls_left=1)
    with pytest.raises(UsageError, match="rolls-left 3"):
        score_distribution(card, dice="11111", rolls_left=3)
    with pytest.raises(DiceError):
        score_distribution(card, dice="1234")
    with pytest.raises(ScoreCardError, match="not 'yacht'"):
        score_distribution(card, rules="yacht")


@pytest.mark.parametrize("rl", [2, 1, 0])
def test_option_distributions_have_the_advisors_means(rl, fresh_table):
    from yahtzee_solver.strategy.distribution import option_distributions

    table = fresh_table("yahtzee")
    adv = Advisor("yahtzee", table)
    card = random_card("yahtzee", 4, np.random.default_rng(21))
    dice = (2, 2, 5, 5, 5) if rl else (5, 5, 5, 5, 5)
    dists = option_distributions(card, dice, rl, table=table)
    opts = adv.keep_options(card, dice, rl) if rl else adv.box_options(card, dice)
    assert len(dists) == len(opts)
    for o in opts:
        d = dists[o.keep if rl else o.category]
        assert abs(d.pmf.sum() - 1) < 1e-12
        assert d.mean == pytest.approx(o.expected, abs=1e-9)
    # the best option's distribution is the position's own
    whole = score_distribution(card, dice=dice, rolls_left=rl, table=table)
    best = dists[opts[0].keep if rl else opts[0].category]
    np.testing.assert_allclose(best.pmf, whole.pmf, atol=1e-15)


def test_best_keeps_is_best_keep_for_every_roll():
    k = jit.compiled()
    rng = np.random.default_rng(8)
    out = np.empty(252, np.int64)
    for _ in range(20):
        E = rng.integers(0, 4, 462).astype(float)  # many ties: the tie-break must agree too
        k.best_keeps(E, ROLL_SUBKEEPS, out)
        assert out.tolist() == [k.best_keep(E, r, ROLL_SUBKEEPS) for r in range(252)]


@pytest.mark.parametrize("level", ["expert", "normal"])
def test_empty_card_distribution_fits_simulate(level):
    """Yacht from the empty card: the exact pmf against 40,000 games of ``simulate`` (same seed, same code)."""
    from yahtzee_solver.analysis.simulate import simulate

    d = score_distribution(rules="yacht", strategy=level)
    res = simulate(level, 40_000, "yacht", seed=2026)
    stat, dof = chi2_binned(res.scores, d.pmf, bins=30)
    assert chi2_sf(stat, dof) > 1e-3, (level, stat, dof)
    other = score_distribution(rules="yacht", strategy="normal" if level == "expert" else "expert")
    stat_w, dof_w = chi2_binned(res.scores, other.pmf, bins=30)
    assert chi2_sf(stat_w, dof_w) < 1e-6


# -- the beginner as the game engine plays it -------------------------------------------------
class _Scripted:
    """A stand-in generator whose draws are set by the test: ``random()`` -> ``u``, ``integers`` -> ``pick``."""

    def __init__(self):
        self.u, self.pick = 0.5, 0

    def random(self):
        return self.u

    def integers(self, low, high, size=None):
        return self.pick


@functools.cache
def _multisets(n: int):
    """Every sorted tuple of ``n`` faces with its probability from ``n`` fresh dice."""
    out: dict = {}
    for faces in np.ndindex(*(6,) * n):
        key = tuple(sorted(f + 1 for f in faces))
        out[key] = out.get(key, 0.0) + 6.0**-n
    return out


def engine_points_to_come(card: ScoreCard, blunder: float = 0.2) -> dict:
    """{points still to come: probability} of the beginner from the turn start of ``card``, by brute force.

    Every first roll, every choice of the beginner (its casual keep with
    probability ``1 - blunder``, each of the 32 blunder picks with
    ``blunder / 32``) and every reroll, enumerated; each choice is played
    through the game engine (:func:`yahtzee_solver.game.cpu_actions` and
    :meth:`GameState.apply_action`): a keep of all five scores at once.
    """
    from yahtzee_solver.game import GameConfig, GameState, Score, cpu_actions
    from yahtzee_solver.strategy.players import BeginnerStrategy

    rules = card.rules
    gen = _Scripted()
    player = BeginnerStrategy(rules, rng=gen, blunder=blunder)
    cfg = GameConfig(rules)
    future: dict = {}
    cards: dict = {}

    def to_come(c: ScoreCard) -> dict:
        if c.is_full:
            return {0: 1.0}
        if c.key not in future:
            dist: dict = {}
            for nxt, p in turn(c).items():
                for pts, q in to_come(nxt[0]).items():
                    dist[nxt[1] + pts] = dist.get(nxt[1] + pts, 0.0) + p * q
            future[c.key] = dist
        return future[c.key]

    def turn(c: ScoreCard) -> dict:
        memo: dict = {}

        def position(dice, used) -> dict:
            if (dice, used) in memo:
                return memo[dice, used]
            choices = [(1.0, 0.5, 0)] if used == 3 else [(1 - blunder, 0.5, 0)] + [(blunder / 32, 0.0, j) for j in range(32)]
            by_action: dict = {}
            for w, u, j in choices:
                gen.u, gen.pick = u, j
                st = GameState(cfg, gen, gen, cards=[c], dice=dice, rolls_used=used)
                acts = tuple(cpu_actions(st, player))
                by_action[acts] = by_action.get(acts, 0.0) + w
            out: dict = {}
            for acts, w in by_action.items():
                st = GameState(cfg, gen, gen, cards=[c], dice=dice, rolls_used=used)
                if isinstance(acts[-1], Score):
                    st.apply_action(acts[-1])
                    after = st.cards[0]
                    cards[after.key] = after
                    k = (after.key, after.total - c.total)
                    out[k] = out.get(k, 0.0) + w
                    continue
                held = acts[0].held if len(acts) == 2 else st.held
                kept = tuple(d for d, h in zip(dice, held) if h)
                for faces, p in _multisets(5 - len(kept)).items():
                    for k, q in position(tuple(sorted(kept + faces)), used + 1).items():
                        out[k] = out.get(k, 0.0) + w * p * q
            memo[dice, used] = out
            return out

        res: dict = {}
        for dice, p in _multisets(5).items():
            for k, q in position(dice, 1).items():
                res[k] = res.get(k, 0.0) + p * q
        return {(cards[key], g): p for (key, g), p in res.items()}  # one per (next state, points gained)

    return to_come(card)


@pytest.mark.parametrize("rules,card", [
    # only Full House and Large Straight open, a Yahtzee on the card (bonus and Joker in play)
    ("yahtzee", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=15,ss=30,yahtzee=50,chance=22"),
    # only Full House open in Yacht (scored as the sum of the dice)
    ("yacht", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,choice=22,4k=20,ss=15,ls=30,yacht=50"),
])
def test_beginner_distribution_is_the_engines_turn_enumerated(rules, card):
    """The exact pmf equals the brute-force enumeration of the engine's beginner, to rounding.

    Sensitive to what a stand with two rerolls left does: the beginner stands on a
    made Full House or straight, and a blunder at the next decision would reroll it.
    """
    from yahtzee_solver import parse_card

    c = parse_card(card, rules)
    want = engine_points_to_come(c)
    d = score_distribution(c, strategy="beginner")
    got = {s - c.total: p for s, p in enumerate(d.pmf) if p > 0}
    assert sum(want.values()) == pytest.approx(1.0, abs=1e-12)
    assert set(got) == {s for s, p in want.items() if p > 0}
    for s, p in want.items():
        assert got.get(s, 0.0) == pytest.approx(p, abs=1e-13), s


@pytest.mark.parametrize("rules", RULE_NAMES)
def test_deterministic_policies_that_stand_with_two_rerolls_stand_with_one(rules):
    """Optimal and normal play: keeping all five at 2 rerolls left implies keeping all five at 1.

    So for them a stand going straight to the final roll (the engine) and a stand
    passing through the one-reroll decision give the same distribution.
    """
    from yahtzee_solver.dice import ROLL_OFFSET

    r = get_rules(rules)
    k = jit.compiled()
    a = r.arrays()
    rng = np.random.default_rng(31)
    E, B = np.empty((3, 462)), np.empty(462)
    b2, b1 = np.empty(252, np.int64), np.empty(252, np.int64)
    stands = 0
    for s in (make_strategy("expert", r), make_strategy("normal", r)):
        for _ in range(150):
            card = random_card(r, int(rng.integers(1, r.n_categories + 1)), rng)
            m, u, y = card.key
            k.turn(m, u, y, 2, s.values, a["score"], a["joker"], s.params, E, B)
            k.best_keeps(E[1], ROLL_SUBKEEPS, b2)
            k.best_keeps(E[0], ROLL_SUBKEEPS, b1)
            stand2 = b2 == ROLL_OFFSET + np.arange(252)
            stands += int(stand2.sum())
            assert (b1[stand2] == b2[stand2]).all(), (s.level, card.key)
    assert stands > 0


# -- compiled or interpreted by the size of the job --------------------------------------------
def test_for_work_runs_small_jobs_interpreted(monkeypatch):
    sentinel = object()
    monkeypatch.setattr(jit, "compiled", lambda: sentinel)
    monkeypatch.setattr(jit, "_compiled", None)
    assert jit.for_work(10, 0.007) is jit.interpreted()
    assert jit.for_work(10_000, 0.007) is sentinel
    assert jit.for_work(10_000, 0.007, jit=False) is jit.interpreted()
    monkeypatch.setattr(jit, "_compiled", sentinel)  # already loaded: compiled is free
    assert jit.for_work(1, 0.007) is sentinel


def test_a_small_card_does_not_import_numba_and_matches_the_compiled_pmf():
    import json
    import subprocess
    import sys

    card = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,chance=20,3k=20,4k=0,ss=30"
    code = (
        "import json, sys\n"
        "from yahtzee_solver.strategy.distribution import score_distribution\n"
        "from yahtzee_solver.state import parse_card\n"
        f"d = score_distribution(parse_card({card!r}), strategy='beginner')\n"
        "print(json.dumps({'numba': 'numba' in sys.modules, 'pmf': d.pmf.tolist()}))\n"
    )
    out = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                    check=True).stdout)
    assert out["numba"] is False
    from yahtzee_solver import parse_card

    jit.compiled()  # in this process: compiled
    want = score_distribution(parse_card(card), strategy="beginner")
    np.testing.assert_allclose(out["pmf"], want.pmf, atol=1e-15)


def test_one_turn_per_class_of_equal_upper_subtotals_and_a_state_read_through_its_class_is_its_own():
    # the engine solves one state per class of equivalent upper subtotals; a state that reads its
    # class's representative must get, bit for bit, the distribution a solve rooted at it gives
    from yahtzee_solver.solver.build import reachable_layers, upper_classes, upper_representatives
    from yahtzee_solver.state import parse_card
    from yahtzee_solver.strategy.distribution import _Engine, _policy, option_distributions

    rules = get_rules("yahtzee")
    card = parse_card("fives=5,sixes=6,3k=20,4k=20,fh=25,ss=30,ls=40,chance=20,yahtzee=50", rules)
    # 1 2 2 3 4 scored in Ones: subtotal 12, and Twos, Threes and Fours can add 45 at most, so
    # the bonus is out of reach as from 11 (Ones with 0), the representative of the class
    after = card.with_box(0, 1)
    assert upper_classes(rules)[after.key.mask & 63, after.key.up] < after.key.up
    for strategy in ("optimal", "normal", "beginner"):
        eng = _Engine(rules, card.key, _policy(strategy, rules, None, False), jit=False)
        layers = reachable_layers(rules, card.key)[1:]
        assert eng.n_solved == sum(len(upper_representatives(rules, *layer)[0]) for layer in layers)
        assert eng.n_solved < sum(m.size for m, _, _ in layers)
        dists = option_distributions(card, (1, 2, 2, 3, 4), 0, strategy=strategy, jit=False)
        own = score_distribution(after, strategy=strategy, jit=False)
        assert np.array_equal(dists[0].pmf, own.pmf)


def test_a_layer_is_solved_slice_by_slice_never_holding_its_outcomes_whole(monkeypatch):
    # memory: each slice's outcomes are found and at once summed into its rows, so the outcomes of
    # a whole layer are never held; the pmf does not depend on the slicing, bit for bit
    from yahtzee_solver.state import parse_card
    from yahtzee_solver.strategy import distribution

    card = parse_card("ones=3,twos=6,threes=9,fours=12,fives=15,chance=20,3k=20,4k=0,ss=30")
    want = {s: score_distribution(card, strategy=s, jit=False).pmf for s in ("optimal", "beginner")}
    base = jit.interpreted()
    calls: list[tuple[str, int]] = []

    class Recorder:
        def __getattr__(self, name):
            f = getattr(base, name)
            if name == "dist_outcomes":
                return lambda *a: (calls.append(("outcomes", len(a[0]))), f(*a))[1]
            if name == "dist_convolve":
                return lambda *a: (calls.append(("rows", len(a[5]))), f(*a))[1]
            return f

    rec = Recorder()
    monkeypatch.setattr(jit, "interpreted", lambda: rec)
    monkeypatch.setattr(jit, "for_work", lambda *a, **k: rec)
    monkeypatch.setattr(distribution, "_CONVOLVE_SLICE", 3)
    monkeypatch.setattr(distribution, "_CHUNK", 3)
    monkeypatch.setattr(distribution, "_SLICE_OUTCOMES", 0)
    for strategy, pmf in want.items():
        calls.clear()
        got = score_distribution(card, strategy=strategy, jit=False).pmf
        assert np.array_equal(got, pmf)
        assert max(n for _, n in calls) > 0 and sum(n for k, n in calls if k == "rows") > 3 * len(card.open_categories)
        kinds = [k for k, _ in calls]
        assert kinds == ["outcomes", "rows"] * (len(kinds) // 2)
        assert all(n <= 3 for _, n in calls)
    # a small layer (rows recycled) takes as many states a slice as its scratch holds: 6 here
    cap = min(distribution._max_outcomes(card.rules), card.rules.n_categories * (distribution._max_gain(card.rules) + 1))
    monkeypatch.setattr(distribution, "_SLICE_OUTCOMES", 6 * cap)
    calls.clear()
    assert np.array_equal(score_distribution(card, jit=False).pmf, want["optimal"])
    assert max(n for _, n in calls) == 6


def test_packed_layers_hold_every_row_bit_for_bit(monkeypatch):
    # memory: a big layer's rows are summed packed (their tops every 5th total only); unpacked,
    # every row of every layer is the whole row, bit for bit, and only exact zeros were left out
    from yahtzee_solver.state import parse_card
    from yahtzee_solver.strategy import distribution

    card = parse_card("ones=3,twos=6,threes=9,fours=12,fives=15,yahtzee=50,3k=20,4k=0,ss=30")
    orig = distribution._solve_layer_threads

    def layers(pack_from):
        monkeypatch.setattr(distribution, "_PACK_FROM", pack_from)
        seen = []

        def spy(*a):
            L = orig(*a)
            seen.append((L, [distribution._row(L, i) for i in range(len(L.lo))]))
            return L

        monkeypatch.setattr(distribution, "_solve_layer_threads", spy)
        score_distribution(card, jit=False)
        return seen

    whole, packed = layers(10**9), layers(1)
    assert len(whole) == len(packed) and all(L.stride == 1 for L, _ in whole)
    shorter = 0
    for (Lw, rw), (Lp, rp) in zip(whole, packed):
        assert Lp.stride == 5 and np.array_equal(Lw.lo, Lp.lo) and np.array_equal(Lw.hi, Lp.hi)
        assert Lw.D.size == int((Lw.hi - Lw.lo + 1).sum())
        shorter += Lw.D.size - Lp.D.size
        for i, (a, b) in enumerate(zip(rw, rp)):
            assert a.tobytes() == b.tobytes()
            h = int(Lp.dense[i])
            top = np.arange(h, len(a))
            assert (a[top][(len(a) - 1 - top) % 5 != 0] == 0.0).all()
    assert shorter > 0


@pytest.mark.parametrize("cardtext", [
    "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,yahtzee=50,3k=20,4k=0,chance=20",
    "ones=3,twos=6,threes=9,fours=12,fives=15,yahtzee=50,3k=20,4k=0,ss=30",
])
def test_packed_rows_give_the_pmf_bits_of_whole_rows(monkeypatch, cardtext):
    # memory: the rows of a big layer are packed (their tops every 5th total); the pmf, the
    # distributions after each option and those of several cards are those of whole rows, bit for bit
    from yahtzee_solver.state import parse_card
    from yahtzee_solver.strategy import distribution

    card = parse_card(cardtext)

    def everything():
        d = score_distribution(card, jit=False).pmf
        opts = distribution.option_distributions(card, "66612", 0, jit=False)
        keeps = distribution.option_distributions(card, "66612", 2, jit=False)
        many = distribution.turn_start_distributions([card], jit=False)
        return [d, *(o.pmf for o in opts.values()), *(o.pmf for o in keeps.values()), many[0].pmf]

    monkeypatch.setattr(distribution, "_PACK_FROM", 10**9)
    want = everything()
    packed = []
    orig = distribution._solve_layer_threads

    def spy(*a):
        L = orig(*a)
        packed.append(L.D.size < int((L.hi - L.lo + 1).sum()))
        return L

    monkeypatch.setattr(distribution, "_solve_layer_threads", spy)
    monkeypatch.setattr(distribution, "_PACK_FROM", 1)
    got = everything()
    assert any(packed)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.tobytes() == w.tobytes()


def test_the_first_big_layer_hands_the_compilers_pages_back_once_every_kernel_ran(monkeypatch):
    # memory: LLVM's code (about 70 MiB resident once the kernels are loaded) is not run by the DP;
    # once the first big layer is solved (every kernel of the distribution called, its rows in a
    # mapping of their own) it is given back, once per distribution, and the pmf is the same bits;
    # a card of small layers only (Yacht's empty card) does not spend the 15-30 ms
    from yahtzee_solver.solver import jit
    from yahtzee_solver.state import parse_card
    from yahtzee_solver.strategy import distribution

    card = parse_card("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,yahtzee=50,3k=20,4k=0,chance=20")
    want = score_distribution(card, jit=False).pmf
    calls: list[tuple[str, int]] = []
    orig = distribution._solve_layer_threads

    def spy(k, pol, rules, states, *a):
        L = orig(k, pol, rules, states, *a)
        calls.append(("layer", len(states[0])))
        return L

    monkeypatch.setattr(distribution, "_solve_layer_threads", spy)
    monkeypatch.setattr(jit, "release_compiler_pages", lambda: calls.append(("release", 0)) or 0)
    monkeypatch.setattr(distribution, "_RELEASE_COMPILER_FROM", 3)
    runs = (lambda: score_distribution(card, jit=False).pmf,
            lambda: distribution.turn_start_distributions([card], jit=False)[0].pmf)
    for run in runs:  # small layers only (their rows recycled): the card's memory does not matter
        calls.clear()
        assert run().tobytes() == want.tobytes()
        assert ("release", 0) not in calls
    monkeypatch.setattr(distribution, "_RECYCLE_ENTRIES", 0)  # every layer big: rows of its own
    for run in runs:
        calls.clear()
        assert run().tobytes() == want.tobytes()
        first = next(i for i, (kind, n) in enumerate(calls) if kind == "layer" and n >= 3)
        assert calls[first + 1] == ("release", 0)
        assert [kind for kind, _ in calls].count("release") == 1


def test_the_state_index_of_every_outcome_caller_is_int32(monkeypatch):
    # memory: the index of the reachable states holds a layer position (< 2**31) for each of the
    # (2**C, T+1, F) states: int32 is half of int64 (4 MiB of Yahtzee's empty card, 8 of Yatzy's);
    # the pmf is the same bits
    from yahtzee_solver.solver import kernels
    from yahtzee_solver.state import parse_card
    from yahtzee_solver.strategy import distribution
    from yahtzee_solver.strategy.reasons import option_reasons

    card = parse_card("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,yahtzee=50,3k=20,4k=0,chance=20")
    seen = []
    orig = kernels.dist_outcomes

    def spy(*a):
        seen.append(a[16].dtype)
        return orig(*a)

    monkeypatch.setattr(kernels, "dist_outcomes", spy)
    score_distribution(card, jit=False)
    distribution.turn_start_distributions([card], jit=False)
    distribution.option_distributions(card, "66612", 1, jit=False)
    option_reasons(card, "66612", 1, jit=False)
    assert seen and set(seen) == {np.dtype(np.int32)}


def test_small_layers_write_over_recycled_rows_and_give_the_same_bits(monkeypatch):
    # speed: a small layer's rows go into the mapping of the layer two before it (no fresh pages
    # to fault in, none to give back); what was there is never read: with the recycled memory
    # filled with NaN first, the pmf of the card, of each option and of several cards are the
    # bits of fresh zeroed rows
    from yahtzee_solver.state import parse_card
    from yahtzee_solver.strategy import distribution

    card = parse_card("ones=3,twos=6,threes=9,fours=12,fives=15,yahtzee=50,3k=20,4k=0,ss=30")

    def everything():
        d = score_distribution(card, jit=False).pmf
        keeps = distribution.option_distributions(card, "66612", 2, jit=False)
        many = distribution.turn_start_distributions([card], jit=False)
        return [d, *(o.pmf for o in keeps.values()), many[0].pmf]

    monkeypatch.setattr(distribution, "_RECYCLE_ENTRIES", 0)  # every layer in fresh memory
    want = everything()
    monkeypatch.undo()
    reused = []
    take = distribution._RowMemory.take

    def poisoned(self, entries):
        had = self._spare is not None
        D, mapping = take(self, entries)
        if mapping is not None:
            reused.append(had)
            mapping[:] = np.nan  # stale rows of an earlier layer, at their worst
        return D, mapping

    monkeypatch.setattr(distribution._RowMemory, "take", poisoned)
    got = everything()
    assert sum(reused) >= 3  # layers wrote over a recycled mapping
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.tobytes() == w.tobytes()
