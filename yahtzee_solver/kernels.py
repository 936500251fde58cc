r"""The turn kernel: arrays in, arrays out; no objects, no I/O.

This module is plain Python written in the subset numba compiles.  The same
source runs two ways (see :mod:`yahtzee_solver.jit`):

* compiled by numba (``cache=True``; ``prange`` spreads a layer over the cores)
  for the table build, batch queries and the simulator;
* interpreted, for a single query from a cold shell, where importing numba
  would cost more than the query itself.

So there is exactly one definition of the optimal move.

The Bellman equation
--------------------
A turn-start state is ``(mask, up, yb)``: filled boxes, upper subtotal capped
at the threshold (63), Yahtzee-bonus flag.  ``V[mask, up, yb]`` is the expected
number of points still to come under optimal play; ``V[full] = 0``.  Within a
turn, with :math:`P(r \mid k)` the chance that rerolling the dice not in keep
:math:`k` gives roll :math:`r`,

.. math::

    S_0(r) &= \max_{c \text{ legal}} \; \mathrm{pts}(r, c) + \mathrm{bonus}(r, c)
              + V[\mathrm{next}(c, r)] \\
    E_n(k) &= \sum_r P(r \mid k)\, S_{n-1}(r), \qquad
    S_n(r) = \max_{k \subseteq r} E_n(k) \quad (n = 1, 2) \\
    V[\mathrm{mask}, \mathrm{up}, \mathrm{yb}] &= E_3(\varnothing)

:math:`E_n(k)` is computed one die at a time: a keep of :math:`m < 5` dice is
the mean over the six faces of the keep with one more die (``CHILD``), and the
best keep inside each roll by a max over the keeps with one die less (``SUB``).
A whole turn is a few thousand additions.

Points and bonuses are decided in :func:`box_points` only (RULES.md: upper
bonus +35 at 63, Yahtzee bonus +100, forced or free Joker).
"""

import numpy as np

from .dice import CHILD, KEEP_COUNTS, N_KEEPS, N_ROLLS, ROLL_FACE, ROLL_OFFSET, ROLL_PROB, SUB

# Rebound to numba.prange in the compiled copy of this module.
prange = range

# params indices (mirror of rules.P_*; literal ints so numba folds them)
_NCAT, _YCAT, _JOKER, _YBONUS, _THRESH, _UBONUS, _NFLAGS, _NUPPER = 0, 1, 2, 3, 4, 5, 6, 7
_FORCED, _FREE = 1, 2

# Names compiled by yahtzee_solver.jit (every function here).
KERNELS = (
    "box_points",
    "after_box",
    "box_values",
    "expect_keeps",
    "best_subkeeps",
    "final_roll_values",
    "turn",
    "solve_states",
    "batch_turn",
    "play_games",
    "roll_of_counts",
    "_code",
)


def box_points(mask, up, yb, r, score, joker, params, points, legal):
    """Points of roll ``r`` in every box, and which boxes the rules allow.

    Parameters
    ----------
    mask, up, yb : int
        Filled-box mask, upper subtotal (capped), Yahtzee-bonus flag (0/1).
    r : int
        Roll index (0..251).
    score, joker : (252, C) int64
        Ordinary and Joker points (``RuleSet.arrays()``).
    params : (8,) int64
        Rule parameters (``rules.P_*``).
    points : (C,) int64, out
        Points written in each box (Joker points where the Joker applies).
    legal : (C,) int8, out
        1 where the roll may be scored now (open, and allowed by the Joker rule).

    Returns
    -------
    int
        Yahtzee bonus earned by this roll in any box (100 or 0; RULES.md).
    """
    C = params[_NCAT]
    ycat = params[_YCAT]
    mode = params[_JOKER]
    for c in range(C):
        points[c] = score[r, c]
        legal[c] = 0 if (mask >> c) & 1 else 1
    face = ROLL_FACE[r]
    if face == 0 or ycat < 0 or not (mask >> ycat) & 1:
        return 0
    bonus = 0
    if yb:
        bonus = params[_YBONUS]
    if mode == _FORCED:
        if not (mask >> (face - 1)) & 1:
            # Joker rule 1: the upper box of that face must take it.
            for c in range(C):
                legal[c] = 1 if c == face - 1 else 0
        else:
            nup = params[_NUPPER]
            lower_open = False
            for c in range(nup, C):
                if not (mask >> c) & 1:
                    lower_open = True
            for c in range(C):
                if (mask >> c) & 1:
                    continue
                if lower_open:
                    # rule 2: any open lower box, at Joker points
                    legal[c] = 1 if c >= nup else 0
                    points[c] = joker[r, c]
                else:
                    # rule 3: an open upper box, scoring as usual (0)
                    legal[c] = 1
    elif mode == _FREE:
        if (mask >> (face - 1)) & 1:
            for c in range(C):
                points[c] = joker[r, c]
    return bonus


def after_box(mask, up, yb, c, pts, V, params):
    """Points gained by writing ``pts`` in box ``c``, plus the value of the next state.

    Adds the upper bonus when the upper subtotal reaches the threshold and sets
    the Yahtzee-bonus flag when the Yahtzee box gets 50.  The +100 Yahtzee bonus
    is *not* included (see :func:`box_points`).

    Returns
    -------
    float
        Points now (excluding the Yahtzee bonus) + expected future points.
    """
    nm = mask | (1 << c)
    if c < params[_NUPPER]:
        thr = params[_THRESH]
        nu = up + pts
        gain = pts
        if up < thr and nu >= thr:
            gain += params[_UBONUS]
        if nu > thr:
            nu = thr
        return gain + V[nm, nu, yb]
    nyb = yb
    if c == params[_YCAT] and pts > 0 and params[_NFLAGS] == 2:
        nyb = 1
    return pts + V[nm, up, nyb]


def box_values(mask, up, yb, r, V, score, joker, params, points, legal, values):
    """Value of scoring roll ``r`` in each box: points now (bonuses included) + future.

    ``values[c]`` is ``-inf`` for a box that is filled or closed by the Joker rule.
    ``points`` and ``legal`` are filled as by :func:`box_points`.

    Returns
    -------
    float
        The best of ``values`` (``-inf`` if no box is legal).
    """
    bonus = box_points(mask, up, yb, r, score, joker, params, points, legal)
    best = -np.inf
    for c in range(params[_NCAT]):
        if legal[c]:
            v = bonus + after_box(mask, up, yb, c, points[c], V, params)
            values[c] = v
            if v > best:
                best = v
        else:
            values[c] = -np.inf
    return best


def expect_keeps(E):
    """Fill ``E[0:210]`` (keeps of 0..4 dice) from ``E[210:462]`` (the rolls).

    ``E[k]`` becomes the expected value of rerolling the dice not in ``k``: the
    mean over six faces of ``E`` of the keep with one more die.
    """
    for k in range(ROLL_OFFSET - 1, -1, -1):
        E[k] = (
            E[CHILD[k, 0]] + E[CHILD[k, 1]] + E[CHILD[k, 2]]
            + E[CHILD[k, 3]] + E[CHILD[k, 4]] + E[CHILD[k, 5]]
        ) / 6.0


def best_subkeeps(E, B):
    """``B[k] = max(E[j] for j a sub-multiset of k)``: the best keep inside each keep."""
    for k in range(N_KEEPS):
        b = E[k]
        for f in range(6):
            s = SUB[k, f]
            if s >= 0 and B[s] > b:
                b = B[s]
        B[k] = b


def final_roll_values(mask, up, yb, V, score, joker, params, S):
    """``S[r]`` = value of ending the turn with roll ``r`` (best box), for all 252 rolls.

    Ordinary rolls use the ordinary points; the five-alike rolls go through
    :func:`box_values` (Joker rules) once the Yahtzee box is filled.
    """
    C = params[_NCAT]
    nup = params[_NUPPER]
    ycat = params[_YCAT]
    for r in range(N_ROLLS):
        S[r] = -np.inf
    upv = np.empty(6)
    for c in range(C):
        if (mask >> c) & 1:
            continue
        if c < nup:
            for n in range(6):
                upv[n] = after_box(mask, up, yb, c, n * (c + 1), V, params)
            for r in range(N_ROLLS):
                v = upv[KEEP_COUNTS[ROLL_OFFSET + r, c]]
                if v > S[r]:
                    S[r] = v
        elif c == ycat:
            v0 = after_box(mask, up, yb, c, 0, V, params)
            for r in range(N_ROLLS):
                p = score[r, c]
                v = v0 if p == 0 else after_box(mask, up, yb, c, p, V, params)
                if v > S[r]:
                    S[r] = v
        else:
            base = after_box(mask, up, yb, c, 0, V, params)
            for r in range(N_ROLLS):
                v = score[r, c] + base
                if v > S[r]:
                    S[r] = v
    if ycat >= 0 and (mask >> ycat) & 1:
        points = np.empty(C, np.int64)
        legal = np.empty(C, np.int8)
        values = np.empty(C)
        for r in range(N_ROLLS):
            if ROLL_FACE[r] > 0:
                S[r] = box_values(mask, up, yb, r, V, score, joker, params, points, legal, values)


def turn(mask, up, yb, levels, V, score, joker, params, E, B):
    """Keep values of one turn, from the last roll back to the first.

    Parameters
    ----------
    mask, up, yb : int
        Turn-start state.
    levels : int
        1..3: how many keep levels to compute (3 for the state value).
    V : (2**C, T+1, F) float64
        Values of later states (the layers with more filled boxes must be done).
    score, joker, params : arrays
        ``RuleSet.arrays()``.
    E : (3, 462) float64, out
        ``E[n-1, k]`` = expected final points still to come when keeping ``k``
        with ``n`` rolls to go (n = 1, 2, 3).  ``E[n-1, 210 + r]`` is the value of
        holding roll ``r`` with ``n - 1`` rolls left, i.e. ``S_{n-1}(r)``.
    B : (462,) float64
        Scratch.

    Returns
    -------
    float
        ``E[levels-1, 0]``; with ``levels=3`` the state value ``V[mask, up, yb]``.
    """
    final_roll_values(mask, up, yb, V, score, joker, params, E[0, ROLL_OFFSET:])
    expect_keeps(E[0])
    for n in range(1, levels):
        best_subkeeps(E[n - 1], B)
        for k in range(ROLL_OFFSET, N_KEEPS):
            E[n, k] = B[k]
        expect_keeps(E[n])
    return E[levels - 1, 0]


def solve_states(masks, ups, ybs, V, score, joker, params):
    """Write ``V[m, u, y]`` for the given states (one layer: all successors known).

    States are independent, so this loop runs in parallel (``prange``); each
    value depends only on its own state, so the result is the same on any
    number of threads.
    """
    n = masks.shape[0]
    for i in prange(n):
        E = np.empty((3, N_KEEPS))
        B = np.empty(N_KEEPS)
        V[masks[i], ups[i], ybs[i]] = turn(masks[i], ups[i], ybs[i], 3, V, score, joker, params, E, B)


def batch_turn(masks, ups, ybs, levels, V, score, joker, params, out):
    """:func:`turn` for many states in parallel: ``out[i]`` (3, 462) gets ``E`` of state ``i``."""
    n = masks.shape[0]
    for i in prange(n):
        B = np.empty(N_KEEPS)
        turn(masks[i], ups[i], ybs[i], levels, V, score, joker, params, out[i], B)


def play_games(dice, V, score, joker, params, subkeeps, totals, flags):
    """Play whole solitaire games with the optimal policy, one per row of ``dice``.

    Parameters
    ----------
    dice : (G, turns, 3, 5) int8
        Pre-drawn faces 1..6: ``dice[g, t, j]`` are the five faces available
        on roll ``j`` of turn ``t``; a reroll takes the next faces of that row
        for the dice it replaces (randomness is injected by the caller).
    V, score, joker, params : arrays
        Value table and rule arrays.
    subkeeps : (252, 32) int32
        ``dice.ROLL_SUBKEEPS``.
    totals : (G,) int64, out
        Final score of each game.
    flags : (G, 2) int8, out
        ``flags[g, 0]`` 1 if the upper bonus was made, ``flags[g, 1]`` the
        number of five-alike rolls scored as 50 in the Yahtzee box (0/1).
    """
    G = dice.shape[0]
    C = params[_NCAT]
    thr = params[_THRESH]
    ycat = params[_YCAT]
    for g in prange(G):
        E = np.empty((3, N_KEEPS))
        B = np.empty(N_KEEPS)
        points = np.empty(C, np.int64)
        legal = np.empty(C, np.int8)
        values = np.empty(C)
        cnt = np.zeros(6, np.int64)
        mask = 0
        up = 0
        yb = 0
        upsum = 0
        total = 0
        for t in range(C):
            turn(mask, up, yb, 2, V, score, joker, params, E, B)
            for f in range(6):
                cnt[f] = 0
            for j in range(5):
                cnt[dice[g, t, 0, j] - 1] += 1
            for rl in range(2, 0, -1):
                r = roll_of_counts(cnt)
                best = -np.inf
                bk = 0
                for s in range(32):
                    k = subkeeps[r, s]
                    if k < 0:
                        break
                    if E[rl - 1, k] > best:
                        best = E[rl - 1, k]
                        bk = k
                # reroll the dice not kept, taking fresh faces from roll 3 - rl
                for f in range(6):
                    cnt[f] = KEEP_COUNTS[bk, f]
                m = 0
                for f in range(6):
                    m += cnt[f]
                for j in range(5 - m):
                    cnt[dice[g, t, 3 - rl, j] - 1] += 1
            r = roll_of_counts(cnt)
            box_values(mask, up, yb, r, V, score, joker, params, points, legal, values)
            bc = 0
            bv = -np.inf
            for c in range(C):
                if values[c] > bv:
                    bv = values[c]
                    bc = c
            bonus = box_points(mask, up, yb, r, score, joker, params, points, legal)
            p = points[bc]
            total += p + bonus
            if bc < params[_NUPPER]:
                upsum += p
                up = min(thr, up + p)
            elif bc == ycat and p > 0:
                flags[g, 1] = 1
                if params[_NFLAGS] == 2:
                    yb = 1
            mask |= 1 << bc
        if upsum >= thr:
            total += params[_UBONUS]
            flags[g, 0] = 1
        totals[g] = total


def roll_of_counts(cnt):
    """Roll index (0..251) of face counts ``cnt`` (6,) that sum to 5."""
    return _ROLL_LOOKUP[_code(cnt)]


def _code(cnt):
    return ((((cnt[0] * 6 + cnt[1]) * 6 + cnt[2]) * 6 + cnt[3]) * 6 + cnt[4]) * 6 + cnt[5]


def _make_roll_lookup():
    look = np.full(6**6, -1, dtype=np.int32)
    for r in range(N_ROLLS):
        look[_code(KEEP_COUNTS[ROLL_OFFSET + r].astype(np.int64))] = r
    look.setflags(write=False)
    return look


_ROLL_LOOKUP = _make_roll_lookup()
