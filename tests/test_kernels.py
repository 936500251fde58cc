"""The turn kernel against an independent brute-force expectimax and the docs/rules.md hand values.

The reference solver below is written from docs/rules.md alone: it enumerates the
ordered outcomes of rerolled dice, scores with the plain reference of
``conftest.py`` (its own Joker logic, not :func:`kernels.box_points`) and
tracks the upper subtotal and the Yahtzee box itself.  It solves reduced games
(two or three open boxes, the rest filled) exactly, and must agree with

* the full table built in this session (``build_values``, compiled), and
* :func:`kernels.turn` run on a table whose later states hold the reference's
  own values (so each turn is checked on its own, keep by keep),

to 1e-9.
"""

from __future__ import annotations

import itertools
import math
import random
import sys
from collections import Counter

import numpy as np
import pytest

from yahtzee_solver.solver import jit
from yahtzee_solver.dice import KEEP_COUNTS, KEEPS, N_KEEPS, ROLL_OFFSET, ROLLS, keep_index
from yahtzee_solver.rules import get_rules

from rulesdoc import hand_value

RULE_NAMES = ("yahtzee", "yahtzee-free-joker", "yacht", "yahtzee-no-joker", "yahtzee-no-bonus", "yatzy")
BACKENDS = pytest.mark.parametrize("jitted", [False, True], ids=["interpreted", "compiled"])


def backend(jitted: bool):
    return jit.compiled() if jitted else jit.interpreted()


# -- brute-force reference -----------------------------------------------------
def _outcomes(n: int) -> list[tuple[tuple[int, ...], float]]:
    """Sorted outcomes of rolling ``n`` dice with their probabilities (from the 6**n ordered ones)."""
    ways = Counter(tuple(sorted(o)) for o in itertools.product(range(1, 7), repeat=n))
    return [(o, w / 6**n) for o, w in sorted(ways.items())]


_OUTCOMES = {n: _outcomes(n) for n in range(6)}
_ROLLS = [o for o, _ in _OUTCOMES[5]]
_SUBS = {
    r: sorted({tuple(sorted(c)) for m in range(6) for c in itertools.combinations(r, m)}) for r in _ROLLS
}
_KEEPS = sorted({k for subs in _SUBS.values() for k in subs})
_TRANS = {k: [(tuple(sorted(k + o)), p) for o, p in _OUTCOMES[5 - len(k)]] for k in _KEEPS}


class ReferenceSolver:
    """Plain expectimax for a game of ``game`` from any card (memoised per state).

    A state is ``(open boxes (frozenset), upper subtotal capped at 63, Yahtzee box
    content: None (open), 0 or 50)``.
    """

    def __init__(self, game: str, ref):
        self.game = game
        self.ref = ref
        self.n = len(ref.names[game])
        self.ybox = ref.ybox(game)
        self.upper_bonus = ref.ubonus(game)
        self.memo: dict = {}

    def norm(self, ybox):
        """Without a Yahtzee bonus, what the Yahtzee box holds does not matter once it is filled."""
        return 0 if not self.ref.has_ybonus(self.game) and ybox is not None else ybox

    def value(self, open_: frozenset, up: int, ybox) -> float:
        key = (open_, up, self.norm(ybox))
        if key not in self.memo:
            self.memo[key] = self.turn(*key)[-1] if open_ else 0.0
        return self.memo[key]

    def final(self, open_, up, ybox, roll) -> float:
        """Best points now + future value over the legal boxes for the final ``roll``."""
        ref = self.ref
        best = -math.inf
        for c, (pts, bonus) in ref.moves(self.game, open_, ybox, roll).items():
            gain = pts + bonus
            nup, nyb = up, ybox
            if c < 6:
                if up < ref.threshold <= up + pts:
                    gain += self.upper_bonus
                nup = min(ref.threshold, up + pts)
            if c == self.ybox:
                nyb = pts
            best = max(best, gain + self.value(open_ - {c}, nup, nyb))
        return best

    def turn(self, open_, up, ybox):
        """``(S0, E1, S1, E2, S2, V)``: roll values with n rerolls left, keep values, state value."""
        S0 = {r: self.final(open_, up, ybox, r) for r in _ROLLS}

        def expect(S):
            return {k: sum(p * S[r] for r, p in _TRANS[k]) for k in _KEEPS}

        def best(E):
            return {r: max(E[k] for k in _SUBS[r]) for r in _ROLLS}

        E1 = expect(S0)
        S1 = best(E1)
        E2 = expect(S1)
        S2 = best(E2)
        V = sum(p * S2[r] for r, p in _TRANS[()])
        return S0, E1, S1, E2, S2, V

    def kernel_state(self, open_, up, ybox):
        mask = ((1 << self.n) - 1) & ~sum(1 << c for c in open_)
        yb = int(self.ref.has_ybonus(self.game) and ybox == 50)
        return mask, up, yb


def _random_card(rng: random.Random, game: str, n_open: int, must_open=(), must_fill=()):
    """A reachable card: ``n_open`` open boxes; filled upper boxes hold face x (0..5) dice."""
    rules = get_rules(game)
    n = rules.n_categories
    y = rules.yahtzee_category
    must_open = tuple(y if c == "Y" else c for c in must_open)
    must_fill = tuple(y if c == "Y" else c for c in must_fill)
    rest = [c for c in range(n) if c not in must_open and c not in must_fill]
    open_ = set(must_open) | set(rng.sample(rest, n_open - len(must_open)))
    up = 0
    for c in range(6):
        if c not in open_:
            up += (c + 1) * rng.choice([0, 1, 2, 3, 3, 4, 4, 5])
    up = min(up, 63)
    ybox = None if y in open_ else rng.choice([0, 50])
    return frozenset(open_), up, ybox


def _cases(game: str, seed: str):
    rng = random.Random(seed)
    rules = get_rules(game)
    fh, ss, ls, chance = (rules.category_index(b) for b in ("fh", "ss", "ls", "chance"))
    cases = [_random_card(rng, game, 2) for _ in range(24)]
    cases += [_random_card(rng, game, 3) for _ in range(4)]
    # Joker situations: own upper box open; only upper boxes open; Yahtzee box open
    cases.append(_random_card(rng, game, 2, must_open=(rng.randrange(6), fh), must_fill=("Y",)))
    cases.append(_random_card(rng, game, 2, must_open=(0, 5), must_fill=("Y",)))
    cases.append(_random_card(rng, game, 3, must_open=(2, ss, ls), must_fill=("Y",)))
    cases.append(_random_card(rng, game, 2, must_open=("Y", 4)))
    cases.append(_random_card(rng, game, 2, must_open=(fh, chance), must_fill=("Y",)))
    # the upper bonus at stake
    for _ in range(200):
        c = _random_card(rng, game, 2, must_open=(5,))
        if 45 <= c[1] < 63:
            cases.append(c)
            break
    return cases


@pytest.fixture(scope="module")
def reference_runs(ref):
    """Solve the reduced games once per rule set: ``{game: (solver, cases)}``."""
    out = {}
    for game in RULE_NAMES:
        solver = ReferenceSolver(game, ref)
        cases = _cases(game, f"reference-{game}")
        for c in cases:
            solver.value(*c)
        out[game] = (solver, cases)
    return out


@pytest.mark.parametrize("game", RULE_NAMES)
def test_reference_agrees_with_the_built_table(game, reference_runs, built):
    solver, cases = reference_runs[game]
    V = built(game).values
    checked = 0
    for key, v in solver.memo.items():
        mask, up, yb = solver.kernel_state(*key)
        assert not np.isnan(V[mask, up, yb]), key
        assert V[mask, up, yb] == pytest.approx(v, abs=1e-9), key
        checked += 1
    assert checked >= len(cases)
    # the Joker cases are really present (Yahtzee box filled with 50 and with 0)
    if get_rules(game).n_flags == 2:
        assert {c[2] for c in cases} >= {0, 50, None}


@pytest.mark.parametrize("game", RULE_NAMES)
def test_turn_kernel_on_reference_values_keep_by_keep(game, reference_runs):
    """kernels.turn on a table filled only with reference values reproduces every keep value."""
    solver, cases = reference_runs[game]
    rules = get_rules(game)
    a = rules.arrays()
    V = np.full((1 << rules.n_categories, 64, rules.n_flags), np.nan)
    for key, v in solver.memo.items():
        V[solver.kernel_state(*key)] = v
    k = jit.compiled()
    E = np.empty((3, N_KEEPS))
    B = np.empty(N_KEEPS)
    # every state of every reduced game: the state value
    for key, v in solver.memo.items():
        if not key[0]:
            continue
        mask, up, yb = solver.kernel_state(*key)
        got = k.turn(mask, up, yb, 3, V, a["score"], a["joker"], a["params"], E, B)
        assert got == pytest.approx(v, abs=1e-9), key
    # the start states: every keep at every level
    for case in cases[:4] + cases[-6:]:
        S0, E1, S1, E2, S2, v = solver.turn(*case)
        mask, up, yb = solver.kernel_state(*case)
        k.turn(mask, up, yb, 3, V, a["score"], a["joker"], a["params"], E, B)
        for i, keep in enumerate(KEEPS):
            if i >= ROLL_OFFSET:
                want = (S0[keep], S1[keep], S2[keep])
            else:
                want = (E1[keep], E2[keep], v if i == 0 else None)
            for n in range(3):
                if want[n] is not None:
                    assert E[n, i] == pytest.approx(want[n], abs=1e-9), (case, keep, n)


# -- box_points against the reference -----------------------------------------
def _check_box_points(k, game, ref, mask, yb, rolls):
    rules = get_rules(game)
    a = rules.arrays()
    C = rules.n_categories
    pts = np.empty(C, np.int64)
    legal = np.empty(C, np.int8)
    open_ = {c for c in range(C) if not (mask >> c) & 1}
    ybox = None if rules.yahtzee_category in open_ else (50 if yb else 0)
    for r in rolls:
        bonus = k.box_points(mask, 0, yb, r, a["score"], a["joker"], a["params"], pts, legal)
        want = ref.moves(game, open_, ybox, ROLLS[r])
        assert {c for c in range(C) if legal[c]} == set(want), (game, mask, yb, ROLLS[r])
        for c, (p, b) in want.items():
            assert (pts[c], bonus) == (p, b), (game, mask, yb, ROLLS[r], c)
            # the bonus alone, as the build's Joker rolls take it for each flag
            assert k.yahtzee_bonus(mask, yb, r, a["params"]) == b, (game, mask, yb, ROLLS[r])


@BACKENDS
@pytest.mark.parametrize("game", RULE_NAMES)
def test_box_points_on_random_cards(game, jitted, ref):
    k = backend(jitted)
    rng = random.Random(f"box-{game}")
    rules = get_rules(game)
    C = rules.n_categories
    for _ in range(60 if jitted else 12):
        mask = rng.randrange((1 << C) - 1)
        yb = int(rules.n_flags == 2 and (mask >> rules.yahtzee_category) & 1 and rng.random() < 0.5)
        _check_box_points(k, game, ref, mask, yb, range(252))


@pytest.mark.parametrize("game", RULE_NAMES)
def test_box_points_five_alike_on_every_card(game, ref):
    """Every Joker situation: all masks with the Yahtzee box filled, both flags, the six five-alike rolls."""
    k = jit.compiled()
    rules = get_rules(game)
    C, y = rules.n_categories, rules.yahtzee_category
    five = [ROLLS.index((f,) * 5) for f in range(1, 7)]
    flags = (0, 1) if rules.n_flags == 2 else (0,)
    for mask in range(0, (1 << C) - 1, 1 if C <= 13 else 5):
        if (mask >> y) & 1 or mask % 7 == 0:  # Yahtzee box filled (and a sample of open ones)
            for yb in flags if (mask >> y) & 1 else (0,):
                _check_box_points(k, game, ref, mask, yb, five)


# -- docs/rules.md hand values ---------------------------------------------------
@pytest.mark.parametrize("game", RULE_NAMES)
def test_only_chance_open_is_70_thirds(game, built):
    """docs/rules.md: only Chance open, no bonus possible: 70/3 points."""
    chance_only = float(hand_value("chance-only"))
    rules = get_rules(game)
    chance = rules.category_index("chance")
    row = built(game).values[rules.full_mask & ~(1 << chance), :, 0]
    reachable = row[~np.isnan(row)]
    assert reachable.size >= 2
    assert np.allclose(reachable, chance_only, rtol=0, atol=1e-12)
    if rules.n_flags == 2:  # with 50 in the Yahtzee box, five alike earns +100: worth more
        with_bonus = built(game).values[rules.full_mask & ~(1 << chance), :, 1]
        assert np.all(with_bonus[~np.isnan(with_bonus)] > chance_only + 1)


def _five_alike_indicator() -> np.ndarray:
    E = np.zeros(N_KEEPS)
    for r, roll in enumerate(ROLLS):
        E[ROLL_OFFSET + r] = float(len(set(roll)) == 1)
    return E


@BACKENDS
def test_five_alike_within_a_turn_keeping_the_most_common_face(jitted):
    """docs/rules.md: 347897/7558272 when always keeping the dice of the most common face."""
    k = backend(jitted)

    def most_common_keep(r):
        counts = KEEP_COUNTS[ROLL_OFFSET + r]
        f = int(np.argmax(counts))
        return keep_index([f + 1] * int(counts[f]))

    E = _five_alike_indicator()
    for _ in range(2):  # two rerolls
        k.expect_keeps(E)
        S = np.array([E[most_common_keep(r)] for r in range(len(ROLLS))])
        E = np.zeros(N_KEEPS)
        E[ROLL_OFFSET:] = S
    k.expect_keeps(E)
    p = E[0]
    assert p == pytest.approx(float(hand_value("five-alike-in-a-turn")), abs=1e-15)
    # maximising the chance instead cannot do worse
    E = _five_alike_indicator()
    B = np.empty(N_KEEPS)
    for _ in range(2):
        k.expect_keeps(E)
        k.best_subkeeps(E, B)
        E[ROLL_OFFSET:] = B[ROLL_OFFSET:]
    k.expect_keeps(E)
    assert E[0] >= p - 1e-15


@BACKENDS
def test_straight_draw_probabilities(jitted):
    """docs/rules.md: holding 2-3-4-5 completes a large straight in two rerolls with 20/36, 1-2-3-4 with 11/36."""
    k = backend(jitted)
    E = np.zeros(N_KEEPS)
    for r, roll in enumerate(ROLLS):
        E[ROLL_OFFSET + r] = float(set(roll) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}))
    B = np.empty(N_KEEPS)
    k.expect_keeps(E)  # one reroll left
    assert E[keep_index((2, 3, 4, 5))] == pytest.approx(2 / 6, abs=1e-15)
    k.best_subkeeps(E, B)
    E[ROLL_OFFSET:] = B[ROLL_OFFSET:]
    k.expect_keeps(E)  # two rerolls left
    assert E[keep_index((2, 3, 4, 5))] == pytest.approx(float(hand_value("straight-two-ends")), abs=1e-15)
    assert E[keep_index((1, 2, 3, 4))] == pytest.approx(float(hand_value("straight-one-end")), abs=1e-15)
    assert E[keep_index((3, 4, 5, 6))] == pytest.approx(float(hand_value("straight-one-end")), abs=1e-15)


# -- smaller kernels and backend agreement -----------------------------------------
def test_roll_of_counts_inverts_keep_counts():
    k = jit.interpreted()
    for r in range(len(ROLLS)):
        assert k.roll_of_counts(KEEP_COUNTS[ROLL_OFFSET + r].astype(np.int64)) == r


@BACKENDS
def test_after_box_bonuses(jitted):
    """Upper bonus once on reaching 63 (capped subtotal), the Yahtzee flag when the box gets 50."""
    k = backend(jitted)
    rules = get_rules("yahtzee")
    p = rules.arrays()["params"]
    V = np.zeros((1 << 13, 64, 2))
    V[1 << 5, 63, 0] = 1000.0
    V[1 << 5, 60, 0] = 2000.0
    V[1 << 11, 0, 1] = 3000.0
    V[1 << 11, 0, 0] = 4000.0
    assert k.after_box(0, 40, 0, 5, 24, V, p) == 24 + 35 + 1000.0  # 40 + 24 = 64 -> bonus, capped
    assert k.after_box(0, 36, 0, 5, 24, V, p) == 24 + 2000.0  # 60: no bonus yet
    assert k.after_box(0, 63, 0, 5, 24, V, p) == 24 + 1000.0  # bonus already made
    assert k.after_box(0, 0, 0, 11, 50, V, p) == 50 + 3000.0
    assert k.after_box(0, 0, 0, 11, 0, V, p) == 0 + 4000.0
    y = get_rules("yacht")
    Vy = np.zeros((1 << 12, 64, 1))
    Vy[1 << 11, 0, 0] = 5.0
    assert k.after_box(0, 0, 0, 11, 50, Vy, y.arrays()["params"]) == 55.0


@pytest.mark.parametrize("game", RULE_NAMES)
def test_compiled_and_interpreted_turn_agree_exactly(game, fresh_table):
    table = fresh_table(game)
    rules = table.rules
    a = rules.arrays()
    rng = random.Random(f"jit-{game}")
    V = table.values
    reachable = np.argwhere(~np.isnan(V))
    Ec, Ei = np.empty((3, N_KEEPS)), np.empty((3, N_KEEPS))
    B = np.empty(N_KEEPS)
    picked = [tuple(reachable[rng.randrange(len(reachable))]) for _ in range(12)] + [(0, 0, 0)]
    for mask, up, yb in picked:
        if mask == rules.full_mask:
            continue
        args = (int(mask), int(up), int(yb), 3, V, a["score"], a["joker"], a["params"])
        vc = jit.compiled().turn(*args, Ec, B)
        vi = jit.interpreted().turn(*args, Ei, B)
        assert vc == vi == V[mask, up, yb]
        assert np.array_equal(Ec, Ei)


@pytest.mark.parametrize("game", RULE_NAMES)
def test_solve_states_is_the_turn_value(game, fresh_table):
    """solve_states writes turn(...) for each state and leaves the others alone."""
    table = fresh_table(game)
    a = table.rules.arrays()
    V = table.values.copy()
    states = np.argwhere(~np.isnan(V))
    popcount = np.array([bin(int(m)).count("1") for m in states[:, 0]])
    # one layer (all successors known), every 7th state of it
    states = states[popcount == table.rules.n_categories - 3][::7]
    masks, ups, ybs = (np.ascontiguousarray(states[:, i], dtype=np.int64) for i in range(3))
    V[masks, ups, ybs] = -1.0
    k = jit.compiled()
    k.solve_states(masks, ups, ybs, V, a["score"], a["joker"], a["params"])
    assert np.array_equal(V, table.values, equal_nan=True)


def test_reduced_games_tell_the_joker_conventions_apart(reference_runs, built):
    """The sampled states are sharp enough: the forced-Joker reference disagrees with the free-Joker table."""
    solver, _ = reference_runs["yahtzee"]
    other = built("yahtzee-free-joker").values
    diffs = [abs(other[solver.kernel_state(*key)] - v) for key, v in solver.memo.items()]
    assert len(diffs) > 100
    assert max(diffs) > 1e-3


@BACKENDS
@pytest.mark.parametrize("game", RULE_NAMES)
def test_ranked_boxes_is_ranked_options_with_no_rerolls(game, jitted, fresh_table):
    """The box-only path (no turn, packed arguments) ranks exactly as the full option kernel.

    It writes only into arrays of the exact size (the number of legal boxes,
    which it returns either way), and both kernels answer -1 for a state with
    no value, writing nothing.
    """
    from yahtzee_solver.dice import ROLL_SUBKEEPS

    k = backend(jitted)
    table = fresh_table(game)
    rules = table.rules
    a = rules.arrays()
    C = rules.n_categories
    packed = a["packed"]
    assert packed.shape == (1 + 2 * 252, max(C, 8)) and not packed.flags.writeable
    assert np.array_equal(packed[0, :8], a["params"]) and not packed[0, 8:].any()
    assert np.array_equal(packed[1:253, :C], a["score"]) and np.array_equal(packed[253:, :C], a["joker"])
    assert not packed[1:, C:].any()
    V = table.values
    reachable = np.argwhere(~np.isnan(V[: rules.full_mask]))
    rng = random.Random(f"boxes-{game}")
    E, B = np.empty((3, N_KEEPS)), np.empty(N_KEEPS)
    pts, legal = np.empty(C, np.int64), np.empty(C, np.int8)
    kv, bv = np.empty(32), np.empty(C)
    codes, vals = np.empty(32, np.int64), np.empty(32)
    args = (a["score"], a["joker"], a["params"], ROLL_SUBKEEPS, E, B, pts, legal, kv, bv, codes, vals)
    for _ in range(40 if jitted else 8):
        mask, up, yb = (int(x) for x in reachable[rng.randrange(len(reachable))])
        r = rng.randrange(252) if rng.random() < 0.8 else ROLLS.index((rng.randint(1, 6),) * 5)
        n = k.ranked_options(mask, up, yb, r, 0, V, *args)
        # a wrong size: the count, nothing written
        ci, cf = np.full(n + 1, -7, np.int64), np.full(n + 1, -7.0)
        assert k.ranked_boxes(mask, up, yb, r, V, a["packed"], ci, cf) == n > 0
        assert (ci == -7).all() and (cf == -7.0).all()
        ci, cf = np.empty(n, np.int64), np.empty(n)
        assert k.ranked_boxes(mask, up, yb, r, V, a["packed"], ci, cf) == n
        assert np.array_equal(ci, codes[:n]) and np.array_equal(cf, vals[:n])
    unreachable = np.argwhere(np.isnan(V[: rules.full_mask]))
    T, F = rules.upper_threshold, rules.n_flags
    bad = [(rules.full_mask, 0, 0), (-1, 0, 0), (rules.full_mask + 1, 0, 0), (0, -1, 0), (0, T + 1, 0),
           (0, 0, -1), (0, 0, F)] + [tuple(int(x) for x in unreachable[i]) for i in range(0, len(unreachable), 9973)]
    ci, cf = np.full(C, -7, np.int64), np.full(C, -7.0)
    codes[:] = -7
    for mask, up, yb in bad:
        assert not k.state_has_value(mask, up, yb, V)
        assert k.ranked_boxes(mask, up, yb, 0, V, a["packed"], ci, cf) == -1
        for rl in (0, 1, 2):
            assert k.ranked_options(mask, up, yb, 0, rl, V, *args) == -1
    assert (ci == -7).all() and (cf == -7.0).all() and (codes == -7).all()

_FRESH_PROCESS_LOAD = """
import json, sys
import numpy as np
from numba.core.registry import cpu_target

ctx = cpu_target.target_context
refreshes = []
refresh = ctx.refresh
ctx.refresh = lambda: (refreshes.append(1), refresh())  # counts numba's registry refreshes

from yahtzee_solver.solver import jit
from yahtzee_solver.dice import N_KEEPS
from yahtzee_solver.solver.table import load_table

t = load_table("yacht")
a = t.rules.arrays()
V = t.values
args = (0b000001111111, 9, 0, 3, V, a["score"], a["joker"], a["params"])
E, B = np.empty((3, N_KEEPS)), np.empty(N_KEEPS)
vc = jit.compiled().turn(*args, E, B)
vi = jit.interpreted().turn(*args, np.empty((3, N_KEEPS)), B)
masks = np.array([0b000001111111, 0b000010111111], np.int64)  # one layer: solved independently
ups, ybs = np.array([9, 9], np.int64), np.zeros(2, np.int64)
W = V.copy()
W[masks, ups, ybs] = -1.0
jit.compiled().solve_states(masks, ups, ybs, W, a["score"], a["joker"], a["params"])
print(json.dumps({"refreshes": len(refreshes), "same": bool(vc == vi == V[0b000001111111, 9, 0]),
                  "solved": bool(np.array_equal(W, V, equal_nan=True))}))
"""


def test_a_fresh_process_loads_cached_kernels_without_the_registry_refresh():
    """The second process finds the kernels in numba's cache and loads them (a parallel one included)
    without numba's typing/lowering registry refresh; they compute what the interpreted source does."""
    import json
    import subprocess
    import sys

    runs = []
    for _ in range(2):  # the first may compile (and write the cache); the second must load
        p = subprocess.run([sys.executable, "-c", _FRESH_PROCESS_LOAD], capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        runs.append(json.loads(p.stdout.splitlines()[-1]))
    assert runs[1] == {"refreshes": 0 if jit._short_load_checked() else runs[1]["refreshes"], "same": True,
                       "solved": True}
    assert runs[0]["same"] and runs[0]["solved"]


def test_a_failing_short_load_falls_back_to_numbas_own():
    """If rebuilding cached code without the refresh fails, numba's own load (refresh first) runs."""
    from types import SimpleNamespace

    calls = []

    def short(sig, ctx):
        calls.append("short")
        raise RuntimeError("unresolved symbol")

    def full(sig, ctx):
        calls.append("full")
        return "cres"

    if not jit._short_load_checked():
        pytest.skip("numba version not checked for the short load")
    d = SimpleNamespace(_cache=SimpleNamespace(_load_overload=short, load_overload=full))
    assert jit._load_without_refresh(d)
    from numba.core.registry import cpu_target

    assert d._cache.load_overload("sig", cpu_target.target_context) == "cres" and calls == ["short", "full"]
    assert not jit._load_without_refresh(SimpleNamespace(py_func=len))  # not a caching dispatcher: left alone


def test_an_unchecked_numba_version_loads_numbas_own_way(monkeypatch):
    import numba

    monkeypatch.setattr(numba, "__version__", "0.99.0")
    assert not jit._short_load_checked()
    cache = type("Cache", (), {"load_overload": lambda self, sig, ctx: None,
                               "_load_overload": lambda self, sig, ctx: None})()
    from types import SimpleNamespace

    d = SimpleNamespace(_cache=cache)
    assert not jit._load_without_refresh(d) and "load_overload" not in vars(cache)


def test_entry_point_is_the_overload_for_the_sample_types():
    """``jit.entry_point`` gives the compiled overload of exactly the sample's argument types.

    Called with arguments of those types it answers as the dispatcher does;
    an interpreted kernel comes back as it is.  A writable table (built in
    memory) and the read-only shipped one are different types, so each gets
    its own overload.
    """
    from yahtzee_solver.solver.table import load_table

    k = jit.compiled()
    rules = get_rules("yahtzee")
    packed = rules.arrays()["packed"]
    V = load_table(rules).values
    one_i, one_f = np.empty(1, np.int64), np.empty(1)
    assert jit.entry_point(jit.interpreted().ranked_boxes, 0, 0, 0, 0, V, packed, one_i, one_f) \
        is jit.interpreted().ranked_boxes
    for table in (V, V.copy()):
        ep = jit.entry_point(k.ranked_boxes, 0, 0, 0, 0, table, packed, one_i, one_f)
        assert ep is not k.ranked_boxes and callable(ep)
        assert ep in [c.entry_point for c in k.ranked_boxes.overloads.values()]
        keeps = jit.entry_point(k.ranked_keeps, 0, 0, 0, 0, 0, table, packed, one_i, one_f)
        reachable = np.argwhere(~np.isnan(table[: rules.full_mask]))
        rng = random.Random("entry-point")
        for _ in range(30):
            mask, up, yb = (int(x) for x in reachable[rng.randrange(len(reachable))])
            r = rng.randrange(252)
            n = rules.n_categories - mask.bit_count()
            got = (np.empty(n, np.int64), np.empty(n))
            want = (np.empty(n, np.int64), np.empty(n))
            assert ep(mask, up, yb, r, table, packed, *got) == k.ranked_boxes(mask, up, yb, r, table, packed, *want)
            assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
            rl = rng.choice((1, 2))
            got = (np.empty(32, np.int64), np.empty(32))
            want = (np.empty(32, np.int64), np.empty(32))
            m = keeps(mask, up, yb, r, rl, table, packed, *got)
            assert m == k.ranked_keeps(mask, up, yb, r, rl, table, packed, *want) > 0
            assert np.array_equal(got[0][:m], want[0][:m]) and np.array_equal(got[1][:m], want[1][:m])


_RELEASE_COMPILER_PAGES = """
import json
import numpy as np
from yahtzee_solver.solver import jit
from yahtzee_solver.dice import N_KEEPS
from yahtzee_solver.solver.table import load_table


def compiler_kib():
    kib, on = 0, False
    for line in open("/proc/self/smaps"):
        head = line.split()
        if "-" in head[0] and len(head) >= 5 and not head[0].endswith(":"):
            on = len(head) > 5 and "llvmlite" in head[5]
        elif on and head[0] == "Rss:":
            kib += int(head[1])
    return kib


t = load_table("yacht")
a = t.rules.arrays()
args = (0b000001111111, 9, 0, 3, t.values, a["score"], a["joker"], a["params"])
before = jit.compiled().turn(*args, np.empty((3, N_KEEPS)), np.empty(N_KEEPS))
loaded = compiler_kib()
released = jit.release_compiler_pages()
after = compiler_kib()
again = jit.compiled().turn(*args, np.empty((3, N_KEEPS)), np.empty(N_KEEPS))
# a kernel first loaded after the release runs LLVM again: its pages come back from the file
from yahtzee_solver import ScoreCard
card = ScoreCard.from_mapping({"sixes": 18, "fours": 12, "yacht": 50}, t.rules)
later = [list(map(repr, card.scoring(d, kernels=jit.compiled()))) for d in ("11111", "12345", "66666")]
later_ref = [list(map(repr, card.scoring(d, kernels=jit.interpreted()))) for d in ("11111", "12345", "66666")]
print(json.dumps({"loaded": loaded, "after": after, "released": released, "later": later == later_ref,
                  "same": bool(before == again == jit.interpreted().turn(*args, np.empty((3, N_KEEPS)),
                                                                           np.empty(N_KEEPS)))}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/smaps")
def test_release_compiler_pages_drops_llvms_code_from_the_resident_set():
    """Once the kernels are loaded, the pages of LLVM's library they touched leave the resident set
    (no copy of them is lost: read-only and unmodified), and the kernels still run and agree."""
    import json
    import subprocess

    p = subprocess.run([sys.executable, "-c", _RELEASE_COMPILER_PAGES], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout.splitlines()[-1])
    assert r["same"] and r["later"]
    assert r["loaded"] > 16 * 1024 and r["released"] > 0
    assert r["after"] < r["loaded"] // 4


def test_release_compiler_pages_without_numba_does_nothing(monkeypatch):
    monkeypatch.delitem(sys.modules, "llvmlite.binding", raising=False)
    assert jit.release_compiler_pages() == 0


def test_only_unmodified_read_only_ranges_of_llvm_are_released():
    # dropping a page that was written (a private copy: relocations before the range was made
    # read-only) would lose it; such ranges, writable ones and other files are left alone
    def mapping(rng, perms, path, anon):
        return (f"{rng} {perms} 00000000 08:01 123 {path}\nSize: 8 kB\nRss: 8 kB\n"
                f"Anonymous: {anon} kB\nVmFlags: rd mr mw me\n")

    lib = "/x/site-packages/llvmlite/binding/libllvmlite.so"
    smaps = "".join([
        mapping("1000-3000", "r--p", lib, 0),
        mapping("3000-9000", "r-xp", lib, 0),
        mapping("9000-a000", "r--p", lib, 4),  # RELRO: written, then made read-only
        mapping("a000-b000", "rw-p", lib, 0),
        mapping("b000-c000", "r-xp", "/usr/lib/libc.so.6", 0),
        "c000-d000 rw-p 00000000 00:00 0\nRss: 4 kB\nAnonymous: 4 kB\n",
    ])
    assert jit._compiler_ranges(smaps) == [(0x1000, 0x3000), (0x3000, 0x9000)]


def _layer_runs(rules, filled):
    """The build's states of one layer (one per class of equal upper subtotals), in the build's order."""
    from yahtzee_solver.solver import build
    from yahtzee_solver.rules import N_UPPER

    reach = build.reachable_upper(rules)
    classes = build.upper_classes(rules, reach)
    masks, ups, ybs = build.state_arrays(rules, filled, reach)
    first = classes[masks & ((1 << N_UPPER) - 1), ups] == ups
    return masks[first], ups[first], ybs[first]


@pytest.mark.parametrize("game", RULE_NAMES)
def test_solve_states_on_runs_of_one_mask_is_the_table(game):
    """The build's own lists (tiles of states of several masks, runs of one mask of every length, cut
    by tile edges; kernels.final_roll_columns) give the table's values bit for bit, Joker rolls
    (Yahtzee box filled) included, and a last tile narrower than the buffer."""
    from yahtzee_solver.solver.table import load_table

    table = load_table(game)
    rules = table.rules
    a = rules.arrays()
    k = jit.compiled()
    C = rules.n_categories
    lengths = []
    for filled in (C - 2, C - 4, 6):
        masks, ups, ybs = _layer_runs(rules, filled)
        lengths.append(np.diff(np.flatnonzero(np.diff(masks, prepend=-1, append=-1))))
        # a chunk of tiles (kernels.BUILD_CHUNK), two more tiles and a narrower one
        length = (k.BUILD_CHUNK + 2) * k.BUILD_TILE + 22
        for start in (0, masks.size // 3, masks.size - length):  # a few hundred states in a row
            sl = slice(max(start, 0), max(start, 0) + length)
            m, u, y = masks[sl], ups[sl], ybs[sl]
            V = table.values.copy()
            V[m, u, y] = -1.0
            k.solve_states(m, u, y, V, a["score"], a["joker"], a["params"])
            assert np.array_equal(V, table.values, equal_nan=True)
        if rules.yahtzee_category >= 0:
            assert ((masks >> rules.yahtzee_category) & 1).any()
    lengths = np.concatenate(lengths)
    assert lengths.max() > 32 and lengths.min() <= 2  # long runs of one mask, and of one or two states


@pytest.mark.parametrize("game", RULE_NAMES)
def test_turn_columns_interpreted_is_the_turn(game):
    """The interpreted source of the column turn (a tile of mixed masks) is kernels.turn's value for each column."""
    from yahtzee_solver.solver.table import load_table

    table = load_table(game)
    rules = table.rules
    a = rules.arrays()
    ki = jit.interpreted()
    C = rules.n_categories
    masks, ups, ybs = _layer_runs(rules, C - 3)
    ycat = rules.yahtzee_category
    # a tile across a mask boundary, with the Yahtzee box filled where the rules have one
    starts = np.flatnonzero(np.diff(masks)) + 1
    if ycat >= 0:
        starts = starts[(masks[starts] >> ycat) & 1 == 1]
    lo = int(starts[len(starts) // 2]) - 3
    hi = lo + 7  # fewer states than the tile's columns
    W = ki.BUILD_TILE
    E0, E1, S = np.empty((N_KEEPS, W)), np.empty((N_KEEPS, W)), np.empty((ROLL_OFFSET, W))
    V = table.values
    index = ki.final_roll_index(a["score"], a["params"])
    ki.turn_columns(masks, ups, ybs, lo, hi, V, a["score"], a["joker"], a["params"], *index, E0, E1, S)
    E, B = np.empty((3, N_KEEPS)), np.empty(N_KEEPS)
    for t in range(hi - lo):
        s = (int(masks[lo + t]), int(ups[lo + t]), int(ybs[lo + t]))
        assert E0[0, t] == ki.turn(*s, 3, V, a["score"], a["joker"], a["params"], E, B) == V[s]


@pytest.mark.parametrize("game", RULE_NAMES)
def test_keep_columns_are_the_turns_keep_levels(game):
    """A tile of mixed masks (Yahtzee box filled where the rules have one): each column's keep levels
    are kernels.turn's bit for bit, each final roll's box is final_roll_boxes', and each roll's best
    keep at each level is best_keeps'."""
    from yahtzee_solver.dice import ROLL_SUBKEEPS
    from yahtzee_solver.solver.table import load_table

    table = load_table(game)
    rules = table.rules
    a = rules.arrays()
    k = jit.compiled()
    masks, ups, ybs = _layer_runs(rules, rules.n_categories - 3)
    starts = np.flatnonzero(np.diff(masks)) + 1
    if rules.yahtzee_category >= 0:
        starts = starts[(masks[starts] >> rules.yahtzee_category) & 1 == 1]
    lo = int(starts[len(starts) // 2]) - 5
    W = k.DIST_TILE
    hi = lo + W - 3  # a narrower tile than the buffers
    n = hi - lo
    E, B = np.empty((3, N_KEEPS)), np.empty(N_KEEPS)
    Sv, box, want = np.empty(252), np.empty(252, np.int64), np.empty(252, np.int64)
    for levels in (1, 2):
        E0, E1, E2, A = (k.aligned_empty(N_KEEPS, W) for _ in range(4))
        S = k.aligned_empty(ROLL_OFFSET, W)
        BX = np.full((252, W), -7, np.int64)
        k.keep_columns(masks, ups, ybs, lo, hi, levels, table.values, a["score"], a["joker"], a["params"],
                       *k.final_roll_index(a["score"], a["params"]), E0, E1, S, BX)
        assert (BX[:, n:] == -1).all()
        BK = [np.full((252, W), -7, np.int64) for _ in range(levels)]
        for lv in range(levels):
            k.best_keep_columns(E0 if lv == 0 else E1, n, E2, A, BK[lv])
        for t in range(n):
            s = (int(masks[lo + t]), int(ups[lo + t]), int(ybs[lo + t]))
            k.final_roll_boxes(*s, table.values, a["score"], a["joker"], a["params"], Sv, box)
            assert np.array_equal(BX[:, t], box)  # the box of every final roll (Joker rolls included)
            k.turn(*s, levels, table.values, a["score"], a["joker"], a["params"], E, B)
            for lv in range(levels):
                assert np.array_equal((E0 if lv == 0 else E1)[:, t], E[lv])
                k.best_keeps(E[lv], ROLL_SUBKEEPS, want)
                assert np.array_equal(BK[lv][:, t], want)


def test_best_keep_columns_is_best_keeps():
    """Random keep values with many ties: each column's keeps are best_keeps' (the same tie-break)."""
    from yahtzee_solver.dice import ROLL_SUBKEEPS

    k = jit.compiled()
    rng = np.random.default_rng(12)
    W, n = 32, 29
    for _ in range(5):
        E = rng.integers(0, 4, (N_KEEPS, W)).astype(float)
        BK = np.full((252, W), -7, np.int64)
        k.best_keep_columns(E, n, np.empty((N_KEEPS, W)), np.empty((N_KEEPS, W)), BK)
        out = np.empty(252, np.int64)
        for t in range(n):
            k.best_keeps(np.ascontiguousarray(E[:, t]), ROLL_SUBKEEPS, out)
            assert np.array_equal(BK[:, t], out)
        assert (BK[:, n:] == -7).all()


@pytest.mark.parametrize("start", [(-1, 2, -1), (40, 2, -1), (40, 1, -1), (40, 0, -1), (-1, 2, 100), (-1, 1, 17)])
def test_policy_mass_columns_is_policy_masses(start):
    """Random keeps inside each roll, every start of a turn: each column's final-roll masses are
    policy_masses' bit for bit."""
    from yahtzee_solver.dice import ROLL_SUBKEEPS

    k = jit.compiled()
    rng = np.random.default_rng(5)
    W, n = 32, 30
    r0, rl0, k0 = start
    K, M = np.empty(N_KEEPS), np.empty(252)
    rl = k.start_masses(r0, rl0, k0, K, M)
    n_sub = (ROLL_SUBKEEPS >= 0).sum(axis=1)
    BK1, BK2 = (ROLL_SUBKEEPS[np.arange(252)[:, None], rng.integers(0, n_sub[:, None], (252, W))].astype(np.int64)
                for _ in range(2))
    MC = np.repeat(M[:, None], W, axis=1)
    k.policy_mass_columns(rl, BK1, BK2, n, np.empty((N_KEEPS, W)), MC, np.empty((252, W)))
    C = 13
    for t in range(n):
        Mt = M.copy()
        BK = np.stack([BK1[:, t], BK2[:, t]])
        k.policy_masses(0, 0, 0, 0, rl, np.zeros((252, C), np.int64), np.zeros((252, C), np.int64),
                        get_rules("yahtzee").arrays()["params"], 0.0, 0, np.zeros((1, 1), np.int32), BK,
                        np.empty(N_KEEPS), Mt, np.empty(252), np.empty(C, np.int64), np.empty(C, np.int8))
        assert np.array_equal(MC[:, t], Mt)
    assert abs(MC[:, :n].sum(axis=0) - 1).max() < 1e-12


@BACKENDS
@pytest.mark.parametrize("case", ["empty", "one", "all equal", "few keys", "one pass", "two passes", "three passes"])
def test_the_game_kernels_sort_is_numpys_stable_argsort(jitted, case):
    """``sort_by_key`` (the radix sort of ``play_games``) gives the order of a stable argsort, ties by index."""
    rng = np.random.default_rng(len(case))
    n = {"empty": 0, "one": 1}.get(case, 5000)
    high = {"all equal": 1, "few keys": 7, "one pass": 1 << 11, "two passes": 1 << 22,
            "three passes": 1 << 30}.get(case, 10)
    keys = rng.integers(0, high, n).astype(np.int64)
    a, b = np.empty(n, np.int64), np.empty(n, np.int64)
    got = backend(jitted).sort_by_key(keys, a, b)
    assert got is a or got is b
    np.testing.assert_array_equal(got, np.argsort(keys, kind="stable"))
