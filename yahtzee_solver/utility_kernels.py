r"""Turn kernels over a score offset: play to reach a target or to beat an opponent.

The expected-value DP (:mod:`yahtzee_solver.kernels`) maximises the mean of the
final total.  Here a policy maximises the expectation of a *utility of the
final total*, :math:`u(\text{final})`: the probability of reaching a target
(:math:`u(t) = [t \ge T]`) or of beating an opponent whose final total has the
distribution :math:`p` (:math:`u(t) = F(t - 1) + p(t)/2`, a draw counting half).
Such a policy must know how many points it already has, so the state grows by a
score offset :math:`j` = points gained since the root card of the query (its
total is :math:`t_0`).  The values of a turn-start state are a vector over
:math:`j = 0..J`:

.. math::

    W[s](j) = \max_\pi \; \mathbb{E}\,[\,u(t_0 + j + \text{points still to come})\,]

with the same turn structure as the expected-value kernel, the maxima taken
element by element (one decision per offset):

.. math::

    S_0(r)(j) &= \max_{c \text{ legal}} W[\mathrm{next}(c, r)]\big(\min(j + g(r, c), J)\big) \\
    E_n(k) &= \sum_r P(r \mid k)\, S_{n-1}(r), \qquad
    S_n(r) = \max_{k \subseteq r} E_n(k) \quad (n = 1, 2) \\
    W[s] &= E_3(\varnothing), \qquad W[\text{full card}](j) = u(t_0 + j)

where :math:`g(r, c)` is every point the score brings now -- box points (Joker
points where the Joker applies), the +100 Yahtzee bonus and the upper bonus
when it completes it -- exactly as :func:`kernels.box_points` and
:func:`kernels.after_box` decide them.  :math:`J` is chosen so that :math:`u` is
constant from :math:`t_0 + J` on (the target, or one past the opponent's best
total), so clamping the offset at :math:`J` is exact.

Work is cut without changing any value: a state's entries below ``a[s]`` are
either unreachable from the root (fewer points than the state's upper subtotal
and bonuses imply) or cannot leave the region where :math:`u` is constant even
with the most points the open boxes can still give; they hold that constant and
are never computed.  Entries from ``b[s]`` on (below ``J``) need more points
than the root's open boxes can have given on the way to the state; they are
never read.

Like :mod:`kernels`, this is plain Python in the subset numba compiles;
:func:`yahtzee_solver.jit.compiled_module` compiles it (calls into
:mod:`kernels` resolve to the compiled kernels), and it also runs interpreted.
"""

import numpy as np

from .dice import CHILD, N_KEEPS, N_ROLLS, ROLL_OFFSET, SUB
from .kernels import after_box, box_points

# Rebound to numba.prange in the compiled copy of this module.
prange = range

_NCAT, _YCAT, _NUPPER, _THRESH, _NFLAGS = 0, 1, 7, 4, 6

#: Names compiled by yahtzee_solver.jit.compiled_module.
KERNELS = (
    "vec_final_rolls",
    "vec_expect_keeps",
    "vec_best_subkeeps",
    "vec_turn",
    "solve_layer",
)
#: Kernels whose prange loops run in parallel.
PARALLEL = ("solve_layer",)
#: Names the compiled copy takes from the compiled :mod:`kernels`.
IMPORTS = ("after_box", "box_points")


def _make_subs():
    """``_SUBS[k]``: the keeps of ``k`` minus one die, one per face present, padded with -1."""
    subs = np.full((N_KEEPS, 6), -1, np.int32)
    for k in range(N_KEEPS):
        n = 0
        for f in range(6):
            if SUB[k, f] >= 0:
                subs[k, n] = SUB[k, f]
                n += 1
    subs.setflags(write=False)
    return subs


# Every proper sub-multiset of a keep lies inside the keep minus one die of a face it holds.
_SUBS = _make_subs()


def vec_final_rolls(mask, up, yb, a, b, Wn, idx, score, joker, params, Z, points, legal, S):
    """``S[r, j]`` = value of ending the turn with roll ``r`` at offset ``j``, for ``j`` in ``a..b-1``.

    Parameters
    ----------
    mask, up, yb : int
        Turn-start state.
    a, b : int
        The offsets computed: ``a <= j < b <= J`` (see the module docstring).
    Wn : (n_next, J+1) float64
        Values of the next layer's states (rows given by ``idx``); column ``J``
        holds the constant top of the utility.
    idx : (2**C, T+1, F) int32
        Row of each state in its layer's value array.
    score, joker, params : arrays
        ``RuleSet.arrays()``.
    Z : (2**C, T+1, F) float64
        All zeros: :func:`kernels.after_box` over ``Z`` gives the points a
        score brings now (box points and the upper bonus).
    points : (C,) int64, legal : (C,) int8
        Scratch for :func:`kernels.box_points`.
    S : (252, J+1) float64, out
        Columns ``a..b-1`` written.
    """
    C = params[_NCAT]
    J = Wn.shape[1] - 1
    thr = params[_THRESH]
    nup = params[_NUPPER]
    ycat = params[_YCAT]
    for r in range(N_ROLLS):
        for j in range(a, b):
            S[r, j] = -np.inf
        bonus = box_points(mask, up, yb, r, score, joker, params, points, legal)
        for c in range(C):
            if not legal[c]:
                continue
            pts = points[c]
            g = bonus + int(after_box(mask, up, yb, c, pts, Z, params))
            nm = mask | (1 << c)
            nu = up
            nyb = yb
            if c < nup:
                nu = up + pts
                if nu > thr:
                    nu = thr
            elif c == ycat and pts > 0 and params[_NFLAGS] == 2:
                nyb = 1
            row = idx[nm, nu, nyb]
            w = Wn[row]
            hi = J - g
            if hi > b:
                hi = b
            if hi < a:
                hi = a
            s = S[r]
            for j in range(a, hi):
                s[j] = max(s[j], w[j + g])
            top = w[J]
            for j in range(hi, b):
                s[j] = max(s[j], top)


def vec_expect_keeps(E, a, b):
    """``E[0:210, j]`` (keeps of 0..4 dice) from ``E[210:462, j]`` (the rolls), for ``j`` in ``a..b-1``.

    As :func:`kernels.expect_keeps`, one offset at a time: the mean over six
    faces of the keep with one more die.
    """
    for k in range(ROLL_OFFSET - 1, -1, -1):
        e0 = E[CHILD[k, 0]]
        e1 = E[CHILD[k, 1]]
        e2 = E[CHILD[k, 2]]
        e3 = E[CHILD[k, 3]]
        e4 = E[CHILD[k, 4]]
        e5 = E[CHILD[k, 5]]
        ek = E[k]
        for j in range(a, b):
            ek[j] = (e0[j] + e1[j] + e2[j] + e3[j] + e4[j] + e5[j]) / 6.0


def vec_best_subkeeps(E, B, a, b):
    """``B[k, j] = max(E[i, j] for i a sub-multiset of k)``, for ``j`` in ``a..b-1``.

    As :func:`kernels.best_subkeeps`, element by element: the best keep inside
    each roll may differ from one offset to the next.
    """
    for j in range(a, b):
        B[0, j] = E[0, j]
    for k in range(1, N_KEEPS):
        ek = E[k]
        bk = B[k]
        for j in range(a, b):
            bk[j] = ek[j]
        for f in range(6):
            sk = _SUBS[k, f]
            if sk < 0:
                break
            bs = B[sk]
            for j in range(a, b):
                bk[j] = max(bk[j], bs[j])


def vec_turn(mask, up, yb, a, b, levels, Wn, idx, score, joker, params, Z, E, B, points, legal):
    """Keep values of one turn over the offsets ``a..b-1``, from the last roll back to the first.

    Parameters
    ----------
    mask, up, yb, a, b, Wn, idx, score, joker, params, Z, points, legal
        As in :func:`vec_final_rolls`.
    levels : int
        1..3: how many keep levels to compute (3 for the state value).
    E : (3, 462, J+1) float64, out
        ``E[n-1, k, j]`` = value of keeping ``k`` with ``n`` rolls to go at
        offset ``j`` (probability units); ``E[n-1, 210 + r]`` is ``S_{n-1}(r)``.
    B : (462, J+1) float64
        Scratch.
    """
    vec_final_rolls(mask, up, yb, a, b, Wn, idx, score, joker, params, Z, points, legal, E[0, ROLL_OFFSET:])
    vec_expect_keeps(E[0], a, b)
    for n in range(1, levels):
        vec_best_subkeeps(E[n - 1], B, a, b)
        for k in range(ROLL_OFFSET, N_KEEPS):
            for j in range(a, b):
                E[n, k, j] = B[k, j]
        vec_expect_keeps(E[n], a, b)


def solve_layer(masks, ups, ybs, lows, highs, low_value, Wn, Wc, idx, score, joker, params, Z, parts):
    """Write ``Wc[i]`` = :math:`W` of state ``(masks[i], ups[i], ybs[i])`` for one layer.

    Parameters
    ----------
    masks, ups, ybs : (n,) int64
        The layer's states; state ``i`` owns row ``i`` of ``Wc``.
    lows, highs : (n,) int64
        Offsets computed per state: ``lows[i] <= j < highs[i]``.  Entries
        below hold ``low_value``; entries from ``highs[i]`` to ``J - 1``
        cannot be reached from the root (more points than the open boxes
        can give) and hold NaN; column ``J`` holds the utility's top.
    low_value : float
        Value of the entries below ``lows`` (the utility's constant bottom).
    Wn : (n_next, J+1) float64
        The next layer's values (complete).
    Wc : (n, J+1) float64, out
    idx, score, joker, params, Z
        As in :func:`vec_final_rolls`.
    parts : int
        Number of slices run in parallel (``prange``), each with its own
        scratch; the states of a slice are ``i = p, p + parts, ...``.  Each
        row depends only on its own state, so the result does not depend on
        ``parts`` or the number of threads.
    """
    n = masks.shape[0]
    L = Wn.shape[1]
    J = L - 1
    C = params[_NCAT]
    for p in prange(parts):
        E = np.empty((3, N_KEEPS, L))
        B = np.empty((N_KEEPS, L))
        points = np.empty(C, np.int64)
        legal = np.empty(C, np.int8)
        for i in range(p, n, parts):
            b = highs[i]
            if b > J:
                b = J
            a = lows[i]
            if a > b:
                a = b
            vec_turn(masks[i], ups[i], ybs[i], a, b, 3, Wn, idx, score, joker, params, Z, E, B, points, legal)
            w = Wc[i]
            for j in range(a):
                w[j] = low_value
            for j in range(a, b):
                w[j] = E[2, 0, j]
            for j in range(b, J):
                w[j] = np.nan
            w[J] = Wn[0, J]

