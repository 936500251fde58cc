r"""Turn kernels over a score offset: play to reach a target or to beat an opponent.

The expected-value DP (:mod:`yahtzee_solver.solver.kernels`) maximises the mean of the
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

Each offset is an independent scalar problem inside a turn, so a state's turn
runs over a *tile* of offsets at a time (:data:`TILE`): the legal scores of
each final roll are listed once per state (:func:`vec_options`), then for one
tile the final rolls, the mean over rerolls and the best keep inside each roll
run on two 462 x tile buffers that stay in the core's cache (one
(3, 462, J+1) scratch per state, 7.8 MB at J = 700, did not).  Every value is
computed by the same operations in the same order whatever the tile, so the
result does not depend on it, bit for bit.  The maxima are written as
``x if x > y else y`` -- exactly what numba's ``max(y, x)`` computes, NaN
included -- because that form vectorises.

Like :mod:`kernels`, this is plain Python in the subset numba compiles;
:func:`yahtzee_solver.solver.jit.compiled_module` compiles it (calls into
:mod:`kernels` resolve to the compiled kernels), and it also runs interpreted.
"""

import numpy as np

from ..dice import N_KEEPS, N_ROLLS, ROLL_OFFSET
from .kernels import after_box, box_points, vec_best_subkeeps, vec_expect_keeps

# Rebound to numba.prange in the compiled copy of this module.
prange = range

_NCAT, _YCAT, _NUPPER, _THRESH, _NFLAGS = 0, 1, 7, 4, 6

#: Names compiled by yahtzee_solver.solver.jit.compiled_module.
KERNELS = (
    "vec_options",
    "vec_final_rolls",
    "vec_turn",
    "balanced_starts",
    "solve_layer",
)
#: Kernels whose prange loops run in parallel.
PARALLEL = ("solve_layer",)
#: Names the compiled copy takes from the compiled :mod:`kernels`.
IMPORTS = ("after_box", "box_points", "vec_expect_keeps", "vec_best_subkeeps")

#: Offsets per tile in :func:`solve_layer`: two 462 x 48 float64 buffers (355 KB) stay in
#: a core's L2 cache (``benchmarks/bench_target_dp.py`` compares tile sizes).
TILE = 48


def vec_options(mask, up, yb, idx, score, joker, params, Z, points, legal, nopt, orow, ogain):
    """Every legal way to end the turn, per final roll: the next state's row and the points it brings.

    Computed once per turn-start state (not per offset or tile).

    Parameters
    ----------
    mask, up, yb : int
        Turn-start state.
    idx : (2**C, T+1, F) int32
        Row of each state in its layer's value array.
    score, joker, params : arrays
        ``RuleSet.arrays()``.
    Z : (2**C, T+1, F) float64
        All zeros: :func:`kernels.after_box` over ``Z`` gives the points a
        score brings now (box points and the upper bonus).
    points : (C,) int64, legal : (C,) int8
        Scratch for :func:`kernels.box_points`.
    nopt : (252,) int64, out
        ``nopt[r]`` = number of legal boxes for roll ``r``.
    orow, ogain : (252, C) int64, out
        For ``o < nopt[r]``, in increasing box order: the row in the next layer's values of the
        state after the score and the points ``g(r, c)`` it brings now
        (box points, Joker points, the +100 Yahtzee bonus, the upper bonus).
    """
    C = params[_NCAT]
    thr = params[_THRESH]
    nup = params[_NUPPER]
    ycat = params[_YCAT]
    for r in range(N_ROLLS):
        bonus = box_points(mask, up, yb, r, score, joker, params, points, legal)
        n = 0
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
            orow[r, n] = idx[nm, nu, nyb]
            ogain[r, n] = g
            n += 1
        nopt[r] = n


def vec_final_rolls(a, b, Wn, nopt, orow, ogain, S):
    """``S[210 + r, t]`` = value of ending the turn with roll ``r`` at offset ``j = a + t``, for ``j`` in ``a..b-1``.

    :math:`S_0(r)(j) = \\max_c W[\\mathrm{next}(c, r)](\\min(j + g, J))`, the
    boxes taken in increasing order.

    Parameters
    ----------
    a, b : int
        The offsets computed: ``a <= j < b <= J`` (see the module docstring).
    Wn : (n_next, J+1) float64
        Values of the next layer's states; column ``J`` holds the constant
        top of the utility.
    nopt, orow, ogain : arrays
        From :func:`vec_options` for the turn-start state.
    S : (462, >= b - a) float64, out
        Rows ``210..461``, columns ``0..b-a-1`` written (column ``t`` is offset ``a + t``).
    """
    J = Wn.shape[1] - 1
    n = b - a
    for r in range(N_ROLLS):
        s = S[ROLL_OFFSET + r]
        for t in range(n):
            s[t] = -np.inf
        for o in range(nopt[r]):
            g = ogain[r, o]
            w = Wn[orow[r, o]]
            hi = J - g
            if hi > b:
                hi = b
            if hi < a:
                hi = a
            m = hi - a
            u = w[a + g:hi + g]  # u[t] = w[a + t + g], t < m
            for t in range(m):  # s[t] = max(s[t], u[t]), written as numba's max so that it vectorises
                x = u[t]
                y = s[t]
                s[t] = x if x > y else y
            top = w[J]
            for t in range(m, n):
                y = s[t]
                s[t] = top if top > y else y


def vec_turn(a, b, levels, Wn, nopt, orow, ogain, E0, E1, E2):
    """Keep values of one turn over the offsets ``a..b-1``, from the last roll back to the first.

    Column ``t`` of each buffer is offset ``j = a + t``.  Row ``k < 210`` of
    level ``n`` is the value of keeping ``k`` with ``n`` rerolls to go
    (probability units), row ``210 + r`` is :math:`S_{n-1}(r)`: the value of
    holding roll ``r`` with ``n - 1`` rerolls left.  Level 3's keep 0 (keep
    nothing, three rolls to go) is the turn-start value :math:`W[s]`.

    Parameters
    ----------
    a, b, Wn, nopt, orow, ogain
        As in :func:`vec_final_rolls`.
    levels : int
        1..3: how many keep levels to compute (3 for the state value).
    E0, E1, E2 : (462, >= b - a) float64, out
        Levels 1, 2, 3.  ``E2`` may be ``E0`` when level 1 is not needed
        afterwards (two buffers for a state value); ``E1`` must differ from both.
    """
    n = b - a
    vec_final_rolls(a, b, Wn, nopt, orow, ogain, E0)
    vec_expect_keeps(E0, n)
    if levels >= 2:
        S = np.empty((ROLL_OFFSET, n))
        vec_best_subkeeps(E0, E1, n, S)
        vec_expect_keeps(E1, n)
        if levels >= 3:
            vec_best_subkeeps(E1, E2, n, S)
            vec_expect_keeps(E2, n)


#: Work of listing one state's legal scores in :func:`solve_layer`, in offsets of its turn (about 5 us
#: against 1.3 us an offset): the weight of a state beside its offsets when the slices are cut.
STATE_WORK = 4


def balanced_starts(lows, highs, J, parts):
    """First state of each of ``parts`` runs of consecutive states of about equal work, and ``n`` last.

    The work of state ``i`` is its offsets ``min(highs[i], J) - lows[i]`` (none if negative) plus
    :data:`STATE_WORK` when it has any, else 1.  Returns an (parts + 1,) int64 array.
    """
    n = lows.shape[0]
    w = np.empty(n, np.int64)
    total = 0
    for i in range(n):
        b = highs[i]
        if b > J:
            b = J
        k = b - lows[i]
        w[i] = k + STATE_WORK if k > 0 else 1
        total += w[i]
    starts = np.empty(parts + 1, np.int64)
    starts[0] = 0
    q = 1
    acc = 0
    for i in range(n):
        while q < parts and acc * parts >= total * q:
            starts[q] = i
            q += 1
        acc += w[i]
    for r in range(q, parts + 1):
        starts[r] = n
    return starts


def solve_layer(masks, ups, ybs, lows, highs, low_value, Wn, Wc, idx, score, joker, params, Z, parts, tile):
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
        As in :func:`vec_options`.
    parts : int
        Number of slices run in parallel (``prange``), each with its own
        scratch.  A slice is a run of consecutive states of about equal work
        (offsets to compute, plus :data:`STATE_WORK` for listing the state's
        scores): the work per state varies along a layer, and every other
        state of a layer can have none.  Each row depends only on its own
        state, so the result does not depend on ``parts`` or the number of
        threads.
    tile : int
        Offsets per tile (>= 1): a state's turn runs over ``tile`` offsets at
        a time, so its scratch (two 462 x ``tile`` buffers) stays in cache.
        Each offset is an independent scalar problem computed by the same
        operations in the same order, so the result does not depend on
        ``tile`` either (bit for bit).
    """
    L = Wn.shape[1]
    J = L - 1
    C = params[_NCAT]
    starts = balanced_starts(lows, highs, J, parts)
    for p in prange(parts):
        X = np.empty((N_KEEPS, tile))
        Y = np.empty((N_KEEPS, tile))
        points = np.empty(C, np.int64)
        legal = np.empty(C, np.int8)
        nopt = np.empty(N_ROLLS, np.int64)
        orow = np.empty((N_ROLLS, C), np.int64)
        ogain = np.empty((N_ROLLS, C), np.int64)
        x0 = X[0]
        for i in range(starts[p], starts[p + 1]):
            b = highs[i]
            if b > J:
                b = J
            a = lows[i]
            if a > b:
                a = b
            w = Wc[i]
            for j in range(a):
                w[j] = low_value
            if b > a:
                vec_options(masks[i], ups[i], ybs[i], idx, score, joker, params, Z, points, legal,
                            nopt, orow, ogain)
            for t0 in range(a, b, tile):
                t1 = t0 + tile
                if t1 > b:
                    t1 = b
                vec_turn(t0, t1, 3, Wn, nopt, orow, ogain, X, Y, X)
                for t in range(t1 - t0):
                    w[t0 + t] = x0[t]
            for j in range(b, J):
                w[j] = np.nan
            w[J] = Wn[0, J]
