r"""The turn kernel: arrays in, arrays out; no objects, no I/O.

This module is plain Python written in the subset numba compiles.  The same
source runs two ways (see :mod:`yahtzee_solver.solver.jit`):

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

Points and bonuses are decided in :func:`box_points` only (docs/rules.md: upper
bonus +35 at 63, Yahtzee bonus +100, forced or free Joker).
"""

import numpy as np

from ..dice import CHILD, KEEP_COUNTS, N_KEEPS, N_ROLLS, ROLL_FACE, ROLL_OFFSET, ROLL_PROB, ROLL_SUBKEEPS, SUB

# Rebound to numba.prange in the compiled copy of this module.
prange = range

# params indices (mirror of rules.P_*; literal ints so numba folds them)
_NCAT, _YCAT, _JOKER, _YBONUS, _THRESH, _UBONUS, _NFLAGS, _NUPPER = 0, 1, 2, 3, 4, 5, 6, 7
_FORCED, _FREE = 1, 2

# Names compiled by yahtzee_solver.solver.jit (every function here).
KERNELS = (
    "param_tuple",
    "joker_case",
    "yahtzee_bonus",
    "box_points",
    "upper_bonus_gain",
    "box_scoring",
    "after_box",
    "box_values",
    "expect_keeps",
    "best_subkeeps",
    "final_roll_values",
    "final_roll_index",
    "final_roll_columns",
    "turn",
    "vec_expect_keeps",
    "vec_best_subkeeps",
    "turn_columns",
    "keep_columns",
    "best_keep_columns",
    "policy_mass_columns",
    "aligned_empty",
    "solve_states",
    "layer_states",
    "copy_class_values",
    "turn_options",
    "fill_options",
    "ranked_options",
    "state_has_value",
    "ranked_boxes",
    "ranked_keeps",
    "batch_turn",
    "batch_boxes",
    "play_games",
    "sort_by_key",
    "play_run",
    "best_keep",
    "play_keeps",
    "play_box",
    "roll_of_counts",
    "_code",
    "beginner_keep",
    "beginner_box",
    "spread_keeps",
    "final_roll_masses",
    "final_roll_boxes",
    "best_keeps",
    "start_masses",
    "policy_masses",
    "roll_gains",
    "dist_outcomes",
    "dist_convolve",
    "dist_dense",
    "row_top",
)


def param_tuple(params):
    """The rule parameters ``params`` (8 ints, ``rules.P_*``) as a tuple, to hand to the helpers.

    A compiled kernel that passes an array to a small helper in a loop pays
    numba's reference counting of that array on each call (an atomic
    increment and decrement: about 150 ns per roll scored in 13 boxes,
    measured against 15 ns with the tuple); a tuple is a plain value.  The
    helpers (:func:`after_box`, :func:`box_points`, ...) index either the
    same way, so the kernels that loop over boxes convert once at the top.
    Taking a tuple, it returns an equal tuple.
    """
    return (params[0], params[1], params[2], params[3], params[4], params[5], params[6], params[7])


#: Joker cases reported by :func:`joker_case` (docs/rules.md, "Joker").
JOKER_NONE, JOKER_UPPER, JOKER_LOWER, JOKER_UPPER_ZERO, JOKER_FREE, JOKER_FREE_FIXED = 0, 1, 2, 3, 4, 5


def joker_case(mask, r, params):
    """Which Joker rule applies to roll ``r`` with filled-box mask ``mask``.

    Returns
    -------
    int
        :data:`JOKER_NONE` unless ``r`` is five alike, the Yahtzee box is
        filled and the rules have a Joker.  Forced Joker: :data:`JOKER_UPPER`
        (rule 1: the open upper box of that face must take it),
        :data:`JOKER_LOWER` (rule 2: any open lower box, at Joker points),
        :data:`JOKER_UPPER_ZERO` (rule 3: an open upper box, for 0).  Free
        Joker: :data:`JOKER_FREE` (upper box of that face open: any box,
        scored as usual) or :data:`JOKER_FREE_FIXED` (it is filled: the
        fixed-point boxes score their value).
    """
    face = ROLL_FACE[r]
    ycat = params[_YCAT]
    mode = params[_JOKER]
    if face == 0 or ycat < 0 or not (mask >> ycat) & 1:
        return JOKER_NONE
    if mode == _FORCED:
        if not (mask >> (face - 1)) & 1:
            return JOKER_UPPER
        for c in range(params[_NUPPER], params[_NCAT]):
            if not (mask >> c) & 1:
                return JOKER_LOWER
        return JOKER_UPPER_ZERO
    if mode == _FREE:
        if (mask >> (face - 1)) & 1:
            return JOKER_FREE_FIXED
        return JOKER_FREE
    return JOKER_NONE


def yahtzee_bonus(mask, yb, r, params):
    """The Yahtzee bonus roll ``r`` earns in any box (docs/rules.md), as :func:`box_points` returns it.

    The bonus of the rules (``params``) when the roll is five alike, the
    Yahtzee box is filled and the flag ``yb`` is set (the box holds 50);
    else 0.  The points and legal boxes :func:`box_points` gives do not
    depend on ``yb``, only this does.

    Parameters
    ----------
    mask, yb : int
        Filled-box mask, Yahtzee-bonus flag (0/1).
    r : int
        Roll index (0..251).
    params : (8,) int64 or tuple
        Rule parameters (``rules.P_*``).

    Returns
    -------
    int
        Points (100 or 0 in the shipped rule sets).
    """
    ycat = params[_YCAT]
    if ROLL_FACE[r] == 0 or ycat < 0 or not (mask >> ycat) & 1 or not yb:
        return 0
    return params[_YBONUS]


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
        Yahtzee bonus earned by this roll in any box (100 or 0; docs/rules.md).
    """
    C = params[_NCAT]
    ycat = params[_YCAT]
    for c in range(C):
        points[c] = score[r, c]
        legal[c] = 0 if (mask >> c) & 1 else 1
    if ROLL_FACE[r] == 0 or ycat < 0 or not (mask >> ycat) & 1:
        return 0
    bonus = yahtzee_bonus(mask, yb, r, params)
    case = joker_case(mask, r, params)
    nup = params[_NUPPER]
    if case == JOKER_UPPER:
        for c in range(C):
            legal[c] = 1 if c == ROLL_FACE[r] - 1 else 0
    elif case == JOKER_LOWER:
        for c in range(C):
            if not (mask >> c) & 1:
                legal[c] = 1 if c >= nup else 0
                points[c] = joker[r, c]
    elif case == JOKER_FREE_FIXED:
        for c in range(C):
            points[c] = joker[r, c]
    # JOKER_UPPER_ZERO: every lower box is filled, so the open (upper) boxes
    # take it as usual; JOKER_FREE: any open box, scored as usual.
    return bonus


def upper_bonus_gain(up, c, pts, params):
    """Upper bonus (points) completed by writing ``pts`` in box ``c`` at upper subtotal ``up``."""
    if c < params[_NUPPER]:
        thr = params[_THRESH]
        if up < thr and up + pts >= thr:
            return params[_UBONUS]
    return 0


def box_scoring(mask, up, yb, r, score, joker, params, points, legal, upper_gain):
    """:func:`box_points`, plus the upper bonus each box completes and the Joker case.

    The one place callers outside the turn loops read how a roll scores.

    Parameters
    ----------
    upper_gain : (C,) int64, out
        Upper bonus (points) writing the roll in each box would complete.

    Returns
    -------
    bonus : int
        Yahtzee bonus earned (as :func:`box_points`).
    case : int
        :func:`joker_case`.
    """
    bonus = box_points(mask, up, yb, r, score, joker, params, points, legal)
    for c in range(params[_NCAT]):
        upper_gain[c] = upper_bonus_gain(up, c, points[c], params)
    return bonus, joker_case(mask, r, params)


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
        if nu > thr:
            nu = thr
        return pts + upper_bonus_gain(up, c, pts, params) + V[nm, nu, yb]
    nyb = yb
    if c == params[_YCAT] and pts > 0 and params[_NFLAGS] == 2:
        nyb = 1
    return pts + V[nm, up, nyb]


def box_values(mask, up, yb, r, V, score, joker, params, points, legal, values):
    """Value of scoring roll ``r`` in each box: points now (bonuses included) + future.

    ``values[c]`` is NaN for a box that is filled or closed by the Joker rule.
    ``points`` and ``legal`` are filled as by :func:`box_points`.

    Returns
    -------
    float
        The best of ``values`` (``-inf`` if no box is legal).
    """
    P = param_tuple(params)
    bonus = box_points(mask, up, yb, r, score, joker, P, points, legal)
    best = -np.inf
    for c in range(P[_NCAT]):
        if legal[c]:
            v = bonus + after_box(mask, up, yb, c, points[c], V, P)
            values[c] = v
            if v > best:
                best = v
        else:
            values[c] = np.nan
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
    """``B[k] = max(E[j] for j a sub-multiset of k)``: the best keep inside each keep.

    Every proper sub-multiset of ``k`` lies inside ``k`` minus one die, so
    ``B[k] = max(E[k], B[k - one die of face f])`` over the faces in ``k``.
    Missing faces point at the empty keep (:data:`_SUB0`), a sub-multiset of
    every keep, so the six-way max needs no branch.
    """
    B[0] = E[0]
    for k in range(1, N_KEEPS):
        b = E[k]
        for f in range(6):
            x = B[_SUB0[k, f]]
            b = x if x > b else b
        B[k] = b


#: ``_ROLL_COUNTS_T[f, r]``: how many dice of roll ``r`` show face ``f + 1`` (contiguous by roll).
_ROLL_COUNTS_T = np.ascontiguousarray(KEEP_COUNTS[ROLL_OFFSET:].T, dtype=np.int64)
#: ``_FIVE_ALIKE[f]``: the roll of five dice showing face ``f + 1``.
_FIVE_ALIKE = np.array([r for r in range(N_ROLLS) if ROLL_FACE[r] > 0], dtype=np.int64)
_FIVE_ALIKE.setflags(write=False)


def final_roll_values(mask, up, yb, V, score, joker, params, S):
    """``S[r]`` = value of ending the turn with roll ``r`` (best box), for all 252 rolls.

    Ordinary rolls use the ordinary points, one pass over the rolls per open
    box.  Once the Yahtzee box is filled, the five-alike rolls are scored
    again by the Joker rule: :func:`box_points` gives their points and legal
    boxes, valued with the same ``after_box`` values as the ordinary pass
    (``upv`` of an upper box by dice count, ``base`` + points of a lower box),
    the Yahtzee bonus added first, as :func:`box_values` does.
    """
    P = param_tuple(params)
    C = P[_NCAT]
    nup = P[_NUPPER]
    ycat = P[_YCAT]
    for r in range(N_ROLLS):
        S[r] = -np.inf
    upv = np.empty((nup if nup > 0 else 1, 6))
    base = np.empty(C)
    for c in range(C):
        if (mask >> c) & 1:
            continue
        if c < nup:
            u = upv[c]
            for n in range(6):
                u[n] = after_box(mask, up, yb, c, n * (c + 1), V, P)
            cnt = _ROLL_COUNTS_T[c]
            for r in range(N_ROLLS):
                v = u[cnt[r]]
                y = S[r]
                S[r] = v if v > y else y
        elif c == ycat:
            v0 = after_box(mask, up, yb, c, 0, V, P)
            for r in range(N_ROLLS):
                p = score[r, c]
                v = v0 if p == 0 else after_box(mask, up, yb, c, p, V, P)
                if v > S[r]:
                    S[r] = v
        else:
            b = after_box(mask, up, yb, c, 0, V, P)
            base[c] = b
            col = score[:, c]
            for r in range(N_ROLLS):
                v = col[r] + b
                y = S[r]
                S[r] = v if v > y else y
    if ycat >= 0 and (mask >> ycat) & 1:
        points = np.empty(C, np.int64)
        legal = np.empty(C, np.int8)
        for r in range(N_ROLLS):
            if ROLL_FACE[r] > 0:
                bonus = box_points(mask, up, yb, r, score, joker, P, points, legal)
                best = -np.inf
                for c in range(C):
                    if legal[c]:
                        p = points[c]
                        if c < nup and p % (c + 1) == 0 and p // (c + 1) <= 5:
                            v = bonus + upv[c, p // (c + 1)]
                        elif c >= nup and c != ycat:
                            v = bonus + (p + base[c])
                        else:
                            v = bonus + after_box(mask, up, yb, c, p, V, P)
                        if v > best:
                            best = v
                S[r] = best


def final_roll_index(score, params):
    """The tables :func:`final_roll_columns` reads each box's value row and added points from.

    They depend only on the rules, so a kernel that scores many tiles builds
    them once (the build: once a layer, before the threads start; built for
    each tile they took about 2 % of a turn).  The value rows they name are
    those of :func:`final_roll_columns`: the upper boxes by dice count (row
    ``6 c + count``), the other boxes at 0 points (row ``6 nup + c``), the
    Yahtzee box's rolls of nonzero points (row ``6 nup + C + q`` for the
    ``q``-th of them), and a ``-inf`` row (``6 nup + C + ny``).

    Parameters
    ----------
    score : (252, C) int64
        Ordinary points (``RuleSet.arrays()``).
    params : (8,) int64
        Rule parameters (``rules.P_*``).

    Returns
    -------
    IX : (C + 1, 252) int64
        ``IX[c, r]``: the value row box ``c`` takes for roll ``r``; row ``C``
        names the ``-inf`` row for every roll (the unused boxes of a pass).
    AD : (C + 1, 252) float64
        ``AD[c, r]``: the points added to that row (roll ``r``'s points in a
        lower box other than Yahtzee, else 0.0).
    yroll : (ny,) int64
        The rolls whose Yahtzee box points are not 0, in roll order (empty
        without a Yahtzee box).
    """
    P = param_tuple(params)
    C = P[_NCAT]
    nup = P[_NUPPER]
    ycat = P[_YCAT]
    yrow = np.full(N_ROLLS, -1, np.int64)
    yroll = np.empty(N_ROLLS, np.int64)
    ny = 0
    if ycat >= 0:
        for r in range(N_ROLLS):
            if score[r, ycat] != 0:
                yrow[r] = ny
                yroll[ny] = r
                ny += 1
    nU = 6 * nup
    IX = np.empty((C + 1, N_ROLLS), np.int64)
    AD = np.zeros((C + 1, N_ROLLS))
    for r in range(N_ROLLS):
        IX[C, r] = nU + C + ny
    for c in range(C):
        ix = IX[c]
        if c < nup:
            cnt = _ROLL_COUNTS_T[c]
            for r in range(N_ROLLS):
                ix[r] = 6 * c + cnt[r]
        elif c == ycat:
            for r in range(N_ROLLS):
                q = yrow[r]
                ix[r] = nU + C + q if q >= 0 else nU + c
        else:
            ad = AD[c]
            col = score[:, c]
            for r in range(N_ROLLS):
                ix[r] = nU + c
                ad[r] = col[r]
    return IX, AD, yroll[:ny].copy()


def final_roll_columns(masks, ups, ybs, lo, hi, V, score, joker, params, IX, AD, yroll, E, BX, boxes):
    """:func:`final_roll_values` of the states ``lo..hi-1`` as the columns of ``E`` (any masks).

    ``E[210 + r, t]`` becomes the value of ending the turn of state ``lo + t``
    with roll ``r``, for the ``W = E.shape[1]`` columns of the buffer
    (columns ``hi - lo`` and on, if any, are left at ``-inf``).  First the
    successor values (``after_box``) of every box open in any of the states
    go into rows of a table, ``-inf`` in a column whose state has the box
    filled: an upper box by dice count, a lower box at 0 points, the Yahtzee
    box at each roll's points where they are not 0.  Then each roll's row of
    ``E`` is the maximum, box by box in order and from ``-inf``, of a table
    row (plus the roll's points, for a lower box other than Yahtzee), the
    boxes taken four (or two, or one) to a pass over the ``W`` columns, so
    the innermost loop vectorises and a row of ``E`` is loaded and stored
    once per four boxes.  A ``-inf`` leaves a maximum as it is, and an upper
    box's row gets ``0.0`` added, which changes no value (``after_box`` adds
    integer points, so it never returns ``-0.0``); so each column goes
    through :func:`final_roll_values`'s operations in the same order (the
    same sums, the maxima of the same numbers, box by box) and ends with its
    ``S[r]`` bit for bit.  The five-alike rolls of states whose Yahtzee
    box is filled are then scored by the Joker rule as there, over each run
    of neighbouring states with the same mask: :func:`box_points` gives
    their points and legal boxes (the same for the whole run, one call a
    roll; the Yahtzee bonus by flag, :func:`yahtzee_bonus`), valued with the
    same ``after_box`` values, the bonus added first, the maximum over the
    legal boxes in order.

    Parameters
    ----------
    masks, ups, ybs : (n,) int64
        States; ``hi - lo`` at most ``W``.
    V, score, joker, params
        As in :func:`turn`.
    IX, AD, yroll
        :func:`final_roll_index` of ``score`` and ``params``.
    E : (462, W) float64, out
        Rows 210..461 receive the values of the rolls.
    BX : (252, W) int64, out
        With ``boxes``: ``BX[r, t]`` the box :func:`final_roll_boxes` picks for roll
        ``r`` of state ``lo + t`` (``-1`` in the columns past ``hi - lo``): the first
        box reaching the maximum, each maximum taken with a strict ``>`` over the
        boxes in order as there (the Joker rolls as :func:`play_box` does, over
        the legal boxes).  The boxes are tracked in a pass of their own, always
        four boxes wide (the padding's ``-inf`` row never wins), after a pass
        setting the rows to ``-inf`` and ``-1``.  Not touched without ``boxes``
        (the build: one branch a call, outside the loops over the rolls).
    boxes : bool
    """
    P = param_tuple(params)
    C = P[_NCAT]
    nup = P[_NUPPER]
    ycat = P[_YCAT]
    n = hi - lo
    W = E.shape[1]
    neg = -np.inf
    anyopen = 0
    for j in range(n):
        anyopen |= ~masks[lo + j]
    # the rolls whose Yahtzee box points are not 0 (valued state by state): yroll[q] is row q's roll
    ny = yroll.shape[0]
    # value rows, -inf where the box is filled: the upper boxes by dice count (row 6 c + count),
    # the lower boxes' after_box at 0 points (row nU + c), the Yahtzee box's nonzero rolls, a -inf row
    nU = 6 * nup
    NEG = nU + C + ny
    # 64-byte aligned as the tile (aligned_empty): the passes below load whole cache lines of its
    # rows; from numpy's 16-byte aligned allocation the final rolls took about a fifth longer, in
    # the runs where it fell off a line
    VT = aligned_empty(NEG + 1, W)
    vn = VT[NEG]
    for j in range(W):
        vn[j] = neg
    for c in range(C):
        if not (anyopen >> c) & 1:
            continue
        bit = 1 << c
        if c < nup:
            # the six dice counts' rows, -inf past the tile's states and where the box is filled
            for f in range(6):
                vf = VT[6 * c + f]
                for j in range(n, W):
                    vf[j] = neg
            for j in range(n):
                m = masks[lo + j]
                if m & bit:
                    for f in range(6):
                        VT[6 * c + f, j] = neg
                    continue
                for f in range(6):
                    VT[6 * c + f, j] = after_box(m, ups[lo + j], ybs[lo + j], c, f * (c + 1), V, P)
            continue
        vc = VT[nU + c]
        for j in range(n, W):
            vc[j] = neg
        for j in range(n):
            m = masks[lo + j]
            vc[j] = neg if m & bit else after_box(m, ups[lo + j], ybs[lo + j], c, 0, V, P)
        if c == ycat:
            for q in range(ny):
                vq = VT[nU + C + q]
                for j in range(n, W):
                    vq[j] = neg
            for j in range(n):
                m = masks[lo + j]
                if m & bit:
                    for q in range(ny):
                        VT[nU + C + q, j] = neg
                    continue
                # the same points give the same value (the five-alike rolls all score 50)
                p0 = -1
                v = neg
                for q in range(ny):
                    p = score[yroll[q], c]
                    if p != p0:
                        v = after_box(m, ups[lo + j], ybs[lo + j], c, p, V, P)
                        p0 = p
                    VT[nU + C + q, j] = v
    # the boxes open in any state, in order
    ob = np.empty(C + 4, np.int64)
    nb = 0
    for c in range(C):
        if (anyopen >> c) & 1:
            ob[nb] = c
            nb += 1
    for i in range(4):
        ob[nb + i] = C
    if nb == 0 or boxes:
        for r in range(N_ROLLS):
            er = E[ROLL_OFFSET + r]
            for j in range(W):
                er[j] = neg
            if boxes:
                bx = BX[r]
                for j in range(W):
                    bx[j] = -1
    # with the boxes: four boxes to a pass (the padding's -inf row never wins), the box of each
    # maximum taken as final_roll_boxes does, the first box reaching it with a strict >
    g0 = 0
    while boxes and g0 < nb:
        c0 = ob[g0 + 0]
        c1 = ob[g0 + 1]
        c2 = ob[g0 + 2]
        c3 = ob[g0 + 3]
        x0 = IX[c0]
        d0 = AD[c0]
        x1 = IX[c1]
        d1 = AD[c1]
        x2 = IX[c2]
        d2 = AD[c2]
        x3 = IX[c3]
        d3 = AD[c3]
        for r in range(N_ROLLS):
            R0 = VT[x0[r]]
            a0 = d0[r]
            R1 = VT[x1[r]]
            a1 = d1[r]
            R2 = VT[x2[r]]
            a2 = d2[r]
            R3 = VT[x3[r]]
            a3 = d3[r]
            er = E[ROLL_OFFSET + r]
            bx = BX[r]
            for j in range(W):
                y = er[j]
                b = bx[j]
                x = a0 + R0[j]
                b = c0 if x > y else b
                y = x if x > y else y
                x = a1 + R1[j]
                b = c1 if x > y else b
                y = x if x > y else y
                x = a2 + R2[j]
                b = c2 if x > y else b
                y = x if x > y else y
                x = a3 + R3[j]
                bx[j] = c3 if x > y else b
                er[j] = x if x > y else y
        g0 += 4
    # four boxes to a pass over the rows, then two, then one: each element's maxima box by box, in order
    g0 = 0
    while not boxes and g0 < nb:
        g = 4 if nb - g0 >= 4 else (2 if nb - g0 >= 2 else 1)
        x0 = IX[ob[g0 + 0]]
        d0 = AD[ob[g0 + 0]]
        x1 = IX[ob[g0 + 1]]
        d1 = AD[ob[g0 + 1]]
        x2 = IX[ob[g0 + 2]]
        d2 = AD[ob[g0 + 2]]
        x3 = IX[ob[g0 + 3]]
        d3 = AD[ob[g0 + 3]]
        if g == 4 and g0 == 0:
            for r in range(N_ROLLS):
                R0 = VT[x0[r]]
                a0 = d0[r]
                R1 = VT[x1[r]]
                a1 = d1[r]
                R2 = VT[x2[r]]
                a2 = d2[r]
                R3 = VT[x3[r]]
                a3 = d3[r]
                er = E[ROLL_OFFSET + r]
                for j in range(W):
                    y = neg
                    x = a0 + R0[j]
                    y = x if x > y else y
                    x = a1 + R1[j]
                    y = x if x > y else y
                    x = a2 + R2[j]
                    y = x if x > y else y
                    x = a3 + R3[j]
                    er[j] = x if x > y else y
        elif g == 4:
            for r in range(N_ROLLS):
                R0 = VT[x0[r]]
                a0 = d0[r]
                R1 = VT[x1[r]]
                a1 = d1[r]
                R2 = VT[x2[r]]
                a2 = d2[r]
                R3 = VT[x3[r]]
                a3 = d3[r]
                er = E[ROLL_OFFSET + r]
                for j in range(W):
                    y = er[j]
                    x = a0 + R0[j]
                    y = x if x > y else y
                    x = a1 + R1[j]
                    y = x if x > y else y
                    x = a2 + R2[j]
                    y = x if x > y else y
                    x = a3 + R3[j]
                    er[j] = x if x > y else y
        elif g == 2 and g0 == 0:
            for r in range(N_ROLLS):
                R0 = VT[x0[r]]
                a0 = d0[r]
                R1 = VT[x1[r]]
                a1 = d1[r]
                er = E[ROLL_OFFSET + r]
                for j in range(W):
                    y = neg
                    x = a0 + R0[j]
                    y = x if x > y else y
                    x = a1 + R1[j]
                    er[j] = x if x > y else y
        elif g == 2:
            for r in range(N_ROLLS):
                R0 = VT[x0[r]]
                a0 = d0[r]
                R1 = VT[x1[r]]
                a1 = d1[r]
                er = E[ROLL_OFFSET + r]
                for j in range(W):
                    y = er[j]
                    x = a0 + R0[j]
                    y = x if x > y else y
                    x = a1 + R1[j]
                    er[j] = x if x > y else y
        elif g == 1 and g0 == 0:
            for r in range(N_ROLLS):
                R0 = VT[x0[r]]
                a0 = d0[r]
                er = E[ROLL_OFFSET + r]
                for j in range(W):
                    y = neg
                    x = a0 + R0[j]
                    er[j] = x if x > y else y
        elif g == 1:
            for r in range(N_ROLLS):
                R0 = VT[x0[r]]
                a0 = d0[r]
                er = E[ROLL_OFFSET + r]
                for j in range(W):
                    y = er[j]
                    x = a0 + R0[j]
                    er[j] = x if x > y else y
        g0 += g
    if ycat < 0:
        return
    # the Joker rolls, run by run of states with the same filled boxes: box_points gives the same
    # points and legal boxes for every state of a mask, and a Yahtzee bonus by flag
    points = np.empty(C, np.int64)
    legal = np.empty(C, np.int8)
    bcol = np.empty(W)
    j0 = 0
    while j0 < n:
        m = masks[lo + j0]
        j1 = j0 + 1
        while j1 < n and masks[lo + j1] == m:
            j1 += 1
        if (m >> ycat) & 1:
            up0 = ups[lo + j0]
            for f in range(6):
                r = _FIVE_ALIKE[f]
                # box_points once a roll: its points and legal boxes do not depend on the flag, only
                # the Yahtzee bonus does
                b0 = box_points(m, up0, 0, r, score, joker, P, points, legal)
                b1 = yahtzee_bonus(m, 1, r, P)
                for j in range(j0, j1):
                    bcol[j] = b1 if ybs[lo + j] else b0
                er = E[ROLL_OFFSET + r]
                for j in range(j0, j1):
                    er[j] = neg
                if boxes:
                    for j in range(j0, j1):
                        BX[r, j] = -1
                for c in range(C):
                    if not legal[c]:
                        continue
                    p = points[c]
                    if c < nup and p % (c + 1) == 0 and p // (c + 1) <= 5:
                        u = VT[6 * c + p // (c + 1)]
                        if boxes:
                            for j in range(j0, j1):
                                v = bcol[j] + u[j]
                                if v > er[j]:
                                    er[j] = v
                                    BX[r, j] = c
                        else:
                            # the build: the same maximum without a branch, so the loop vectorises
                            for j in range(j0, j1):
                                v = bcol[j] + u[j]
                                y = er[j]
                                er[j] = v if v > y else y
                    elif c >= nup and c != ycat:
                        b = VT[nU + c]
                        if boxes:
                            for j in range(j0, j1):
                                v = bcol[j] + (p + b[j])
                                if v > er[j]:
                                    er[j] = v
                                    BX[r, j] = c
                        else:
                            for j in range(j0, j1):
                                v = bcol[j] + (p + b[j])
                                y = er[j]
                                er[j] = v if v > y else y
                    else:
                        for j in range(j0, j1):
                            v = bcol[j] + after_box(m, ups[lo + j], ybs[lo + j], c, p, V, P)
                            if v > er[j]:
                                er[j] = v
                                if boxes:
                                    BX[r, j] = c
        j0 = j1


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
        holding roll ``r`` with ``n - 1`` rolls left, i.e. ``S_{n-1}(r)``.  As a
        *keep* value that entry is a pass (reroll no dice, decide again) for
        ``n`` >= 2, which the rules do not allow; it is weakly dominated
        (``S_1(r) = max(S_0(r), best keep at 1) <= max(S_0(r), best keep at 2)``),
        so every maximum here, and so ``V``, is the one of the game without
        passes.  Option lists value keeping all five as scoring now,
        ``E[0, 210 + r]`` (:func:`fill_options`).
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


# -- the turn as columns: many states at once (the build) -----------------------------------------

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
#: ``_NSUBS[k]``: the number of subs of keep ``k`` in ``_SUBS``.
_NSUBS = (_SUBS >= 0).sum(axis=1).astype(np.int32)
_NSUBS.setflags(write=False)


def vec_expect_keeps(E, n):
    """``E[0:210, t]`` (keeps of 0..4 dice) from ``E[210:462, t]`` (the rolls), for ``t`` in ``0..n-1``.

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
        for t in range(n):
            ek[t] = (e0[t] + e1[t] + e2[t] + e3[t] + e4[t] + e5[t]) / 6.0


#: ``_LEVEL_START[m]``: the first keep of ``m`` dice (keeps are listed by size); ``_LEVEL_START[6] = 462``.
_LEVEL_START = np.searchsorted(KEEP_COUNTS.sum(axis=1), np.arange(7)).astype(np.int64)
_LEVEL_START.setflags(write=False)


def vec_best_subkeeps(E, B, n, S):
    """``B[210 + r, t] = max(E[i, t] for i a sub-multiset of roll r)``, for ``t`` in ``0..n-1``.

    As :func:`kernels.best_subkeeps`, element by element: the best keep inside
    each roll may differ from one offset to the next.  ``B`` must not be ``E``.
    The maxima are taken in the order ``E[k]``, then the best keeps of the
    subs of ``k`` in ``_SUBS`` order, each as numba's ``max(y, x)`` (``x if
    x > y else y``), in one pass per keep so that the loops vectorise.

    The best keeps of ``m`` dice are read from the keeps of ``m - 1``, so
    each size is written to the other buffer than the one it reads: sizes 1,
    3 and 5 into ``B``, sizes 0, 2 and 4 into ``S``.  Reading and writing
    rows of one buffer in the same loop measured about three times slower
    (one thread, 32 and 64 columns; the cause was not pinned down).
    ``B[0:210]`` is therefore scratch on return (the keeps of 1 and 3 dice
    hold their best keeps, the others are left as they were).

    Parameters
    ----------
    E : (462, >= n) float64
        Keep values.
    B : (462, >= n) float64, out
        Rows 210..461: the best keep inside each roll.
    n : int
        Columns.
    S : (210, >= n) float64
        Scratch, not ``B`` or ``E``.
    """
    b0 = S[0]
    e0 = E[0]
    for t in range(n):
        b0[t] = e0[t]
    for m in range(1, 6):
        src = B if m % 2 == 0 else S
        dst = S if m % 2 == 0 else B
        for k in range(_LEVEL_START[m], _LEVEL_START[m + 1]):
            ek = E[k]
            bk = dst[k]
            ns = _NSUBS[k]
            # every keep but the empty one has 1..5 subs; missing ones repeat the last (max is idempotent)
            s0 = src[_SUBS[k, 0]]
            s1 = src[_SUBS[k, min(1, ns - 1)]]
            s2 = src[_SUBS[k, min(2, ns - 1)]]
            if ns <= 3:
                for t in range(n):
                    y = ek[t]
                    x = s0[t]
                    y = x if x > y else y
                    x = s1[t]
                    y = x if x > y else y
                    x = s2[t]
                    bk[t] = x if x > y else y
            else:
                s3 = src[_SUBS[k, 3]]
                s4 = src[_SUBS[k, ns - 1]]
                for t in range(n):
                    y = ek[t]
                    x = s0[t]
                    y = x if x > y else y
                    x = s1[t]
                    y = x if x > y else y
                    x = s2[t]
                    y = x if x > y else y
                    x = s3[t]
                    y = x if x > y else y
                    x = s4[t]
                    bk[t] = x if x > y else y


#: States a build thread solves together (:func:`solve_states`): the columns of two
#: 462 x 64 float64 buffers and a 210 x 64 scratch (580 KB), which stay in a core's L2
#: cache (1 MB here).  Wider rows spread each row's set-up over more columns: a build's
#: turn took about 15 % less CPU than with 32 columns, and about the same with 96 or 128.
BUILD_TILE = 64

#: Tiles a build thread takes at a time (:func:`solve_states`, 256 states): the item of numba's
#: dynamic schedule (``build._dynamic_schedule``), small enough that a thread slowed by other
#: processes takes fewer of them instead of holding up the whole layer; its buffers are allocated
#: once for its tiles (allocated for each tile, the 580 KB took about 5 % of a turn).
BUILD_CHUNK = 4


def turn_columns(masks, ups, ybs, lo, hi, V, score, joker, params, IX, AD, yroll, E0, E1, S):
    """The turn of states ``lo..hi-1`` (any masks) as the columns of ``E0``: ``E0[0, t]`` is the value of state ``lo + t``.

    The final rolls are scored over all the columns at once
    (:func:`final_roll_columns`, straight into ``E0``), and so are the keep
    steps, which are the same for every state (:func:`vec_expect_keeps`,
    :func:`vec_best_subkeeps`).  Column ``t`` undergoes the operations of
    :func:`turn` with ``levels=3`` in the same order (the same sums, maxima of
    the same numbers), so its value is :func:`turn`'s bit for bit.

    Parameters
    ----------
    masks, ups, ybs : (n,) int64
        States; ``hi - lo`` at most :data:`BUILD_TILE`.  Neighbours with
        similar masks (the build's lists, in Gray-code order of the masks)
        leave fewer boxes open in none of the states, which the final rolls skip.
    V, score, joker, params
        As in :func:`turn`.
    IX, AD, yroll
        :func:`final_roll_index` of ``score`` and ``params``.
    E0, E1 : (462, BUILD_TILE) float64
        Scratch; on return ``E0[0, :hi - lo]`` holds the state values.
    S : (210, BUILD_TILE) float64
        Scratch (:func:`vec_best_subkeeps`).
    """
    final_roll_columns(masks, ups, ybs, lo, hi, V, score, joker, params, IX, AD, yroll, E0, np.empty((1, 1), np.int64),
                       False)
    # the keep steps over every column of the tile, a count known when the kernel is compiled: the
    # compiler then unrolls the rows' loops with no remainder (a turn's keep steps took about 15 %
    # less time than over hi - lo columns, one thread); the columns past hi - lo hold -inf from
    # final_roll_columns, which the averages and maxima keep at -inf
    vec_expect_keeps(E0, BUILD_TILE)
    vec_best_subkeeps(E0, E1, BUILD_TILE, S)
    vec_expect_keeps(E1, BUILD_TILE)
    vec_best_subkeeps(E1, E0, BUILD_TILE, S)
    vec_expect_keeps(E0, BUILD_TILE)


def keep_columns(masks, ups, ybs, lo, hi, levels, V, score, joker, params, IX, AD, yroll, E0, E1, S, BX):
    """The keep values of the first ``levels`` (1, 2) levels of :func:`turn` for the states ``lo..hi-1``, as columns.

    The first steps of :func:`turn_columns` (the same kernels in the same
    order), each level kept in its own buffer, as the keep masses of a policy
    need them (:func:`dist_outcomes`): ``E0[k, t]`` and, with ``levels=2``,
    ``E1[k, t]`` are :func:`turn`'s ``E[0, k]`` and ``E[1, k]`` of state
    ``lo + t`` bit for bit (``E1`` is not touched with ``levels=1``).
    ``E0[210 + r]`` holds the value of ending the turn with roll ``r`` and
    ``BX[r]`` the box it is scored in (:func:`final_roll_columns`).

    Parameters
    ----------
    masks, ups, ybs : (n,) int64
        States; ``hi - lo`` at most the buffers' width.
    levels : int
        1 or 2: the rerolls to come.
    V, score, joker, params
        As in :func:`turn`.
    IX, AD, yroll
        :func:`final_roll_index` of ``score`` and ``params``.
    E0, E1 : (462, W) float64, out
    S : (210, W) float64
        Scratch (:func:`vec_best_subkeeps`).
    BX : (252, W) int64, out
    """
    n = hi - lo
    final_roll_columns(masks, ups, ybs, lo, hi, V, score, joker, params, IX, AD, yroll, E0, BX, True)
    vec_expect_keeps(E0, n)
    if levels >= 2:
        vec_best_subkeeps(E0, E1, n, S)
        vec_expect_keeps(E1, n)


def best_keep_columns(E, n, B, A, BK):
    """:func:`best_keeps` of the columns ``0..n-1`` of ``E`` at once: ``BK[r, t]`` (252, W) int64.

    Keep by keep in size order, as :func:`vec_best_subkeeps`: ``B[k, t]``
    becomes the best value inside keep ``k`` and ``A[k, t]`` the least keep
    index reaching it, from ``E[k]`` and the ``B``, ``A`` of the keeps of
    ``k`` minus one die (every proper sub-multiset lies inside one of them):
    the larger value wins, a tie takes the lesser index.  ``A`` of a roll is
    so the first of the largest keeps inside it in index order, which is the
    order of ``subkeeps`` and the keep of :func:`best_keeps`'s strict ``>``
    scan.  One pass over 462 keeps of up to five subs each, in place of a
    scan of every keep inside every roll (4,368 pairs): about a third of the
    time (measured, one thread, 32 columns).  The keep numbers are float64,
    as the values, so each select vectorises.  (:func:`best_keeps` gives
    ``-1`` where every keep is ``-inf``, which a card with a box open never has.)

    Parameters
    ----------
    E : (462, >= n) float64
        Keep values.
    n : int
        Columns.
    B, A : (462, >= n) float64
        Scratch, neither ``E``.
    BK : (252, >= n) int64, out
    """
    b0 = B[0]
    a0 = A[0]
    e0 = E[0]
    for t in range(n):
        b0[t] = e0[t]
        a0[t] = 0.0
    for k in range(1, N_KEEPS):
        ek = E[k]
        bk = B[k]
        ak = A[k]
        kf = float(k)
        for t in range(n):
            bk[t] = ek[t]
            ak[t] = kf
        for i in range(_NSUBS[k]):
            bs = B[_SUBS[k, i]]
            As = A[_SUBS[k, i]]
            for t in range(n):
                x = bs[t]
                y = bk[t]
                ax = As[t]
                ay = ak[t]
                bk[t] = x if x > y else y
                ak[t] = ax if x > y else (min(ax, ay) if x == y else ay)
    for r in range(N_ROLLS):
        ar = A[ROLL_OFFSET + r]
        out = BK[r]
        for t in range(n):
            out[t] = np.int64(ar[t])


def policy_mass_columns(rl, BK1, BK2, n, K, M, F):
    """:func:`policy_masses` of the expert and normal policies (``kind`` 0) for the columns ``0..n-1``.

    Column ``t`` of ``M`` (252, W) float64 holds the masses of the rolls
    showing, in, and of the final rolls, out, after ``rl`` (0..2) rerolls
    whose keeps are ``BK1[r, t]`` (one reroll left) and ``BK2[r, t]`` (two),
    as :func:`best_keep_columns` gives them.  Each column gets
    :func:`policy_masses`'s sums in the same order: the masses moved onto a
    keep roll by roll, then spread keep by keep (:func:`spread_keeps`; a keep
    with no mass adds ``0.0``, which changes no sum of non-negative masses),
    so it is that kernel's bit for bit.  ``K`` (462, W), ``F`` (252, W) float64: scratch.
    """
    for r in range(N_ROLLS):
        f = F[r]
        for t in range(n):
            f[t] = 0.0
    while rl > 0:
        BK = BK1 if rl == 1 else BK2
        for k in range(N_KEEPS):
            kk = K[k]
            for t in range(n):
                kk[t] = 0.0
        for r in range(N_ROLLS):
            m = M[r]
            bk = BK[r]
            for t in range(n):
                if m[t] != 0.0:
                    K[bk[t], t] += m[t]
        # the mass that stands (keeps all five) is final; the rest is rerolled
        for r in range(N_ROLLS):
            kr = K[ROLL_OFFSET + r]
            f = F[r]
            for t in range(n):
                f[t] += kr[t]
                kr[t] = 0.0
        for k in range(ROLL_OFFSET):
            kk = K[k]
            c0 = K[CHILD[k, 0]]
            c1 = K[CHILD[k, 1]]
            c2 = K[CHILD[k, 2]]
            c3 = K[CHILD[k, 3]]
            c4 = K[CHILD[k, 4]]
            c5 = K[CHILD[k, 5]]
            for t in range(n):
                w = kk[t] / 6.0
                c0[t] += w
                c1[t] += w
                c2[t] += w
                c3[t] += w
                c4[t] += w
                c5[t] += w
        for r in range(N_ROLLS):
            m = M[r]
            kr = K[ROLL_OFFSET + r]
            for t in range(n):
                m[t] = kr[t]
        rl -= 1
    for r in range(N_ROLLS):
        m = M[r]
        f = F[r]
        for t in range(n):
            m[t] += f[t]


def aligned_empty(rows, cols):
    """An uninitialised (rows, cols) float64 array whose data starts on a 64-byte boundary.

    A row of :data:`BUILD_TILE` float64 is then whole cache lines, which the
    vector loops load and store 64 bytes at a time; numpy's own allocation is
    16-byte aligned, so most of those loads span two lines (the build's keep
    steps took about a third longer so).
    """
    raw = np.empty(rows * cols + 8)
    off = ((-raw.ctypes.data) % 64) // 8
    return raw[off:off + rows * cols].reshape((rows, cols))


def solve_states(masks, ups, ybs, V, score, joker, params):
    """Write ``V[m, u, y]`` for the given states (one layer: all successors known).

    The states go :data:`BUILD_TILE` at a time through :func:`turn_columns`,
    :data:`BUILD_CHUNK` tiles to a chunk; the chunks are independent, so
    this loop runs in parallel (``prange``).  Each value depends only on its
    own state and is :func:`turn`'s bit for bit, so the result is the same on
    any number of threads.
    """
    n = masks.shape[0]
    tiles = (n + BUILD_TILE - 1) // BUILD_TILE
    chunks = (tiles + BUILD_CHUNK - 1) // BUILD_CHUNK
    IX, AD, yroll = final_roll_index(score, params)
    for c in prange(chunks):
        E0 = aligned_empty(N_KEEPS, BUILD_TILE)
        E1 = aligned_empty(N_KEEPS, BUILD_TILE)
        S = aligned_empty(ROLL_OFFSET, BUILD_TILE)
        for i in range(c * BUILD_CHUNK, min(tiles, (c + 1) * BUILD_CHUNK)):
            lo = i * BUILD_TILE
            hi = min(n, lo + BUILD_TILE)
            turn_columns(masks, ups, ybs, lo, hi, V, score, joker, params, IX, AD, yroll, E0, E1, S)
            for t in range(hi - lo):
                V[masks[lo + t], ups[lo + t], ybs[lo + t]] = E0[0, t]


def layer_states(layer, reach, ycat, two_flags):
    """The turn-start states of one layer: masks ``layer``, the upper subtotals ``reach`` marks.

    The build's state lists (:func:`yahtzee_solver.solver.build.state_arrays`): the masks in
    the order of ``layer``, each by upper subtotal, then Yahtzee-bonus flag.  Compiled, about 0.1 ms for the biggest
    Yahtzee layer, against about 0.7 ms of numpy calls, which ran on one thread between the
    parallel layers of the build.

    Parameters
    ----------
    layer : (n,) int64
        Masks, each once, in the order to list them.
    reach : (64, T+1) bool
        ``reach[mask & 63, u]``: subtotal ``u`` is listed for ``mask``.
    ycat : int
        The Yahtzee box (read only when ``two_flags``).
    two_flags : bool
        Whether a mask with the Yahtzee box filled has both flags (0 and 1).

    Returns
    -------
    masks, ups, ybs : (states,) int64
    """
    top = reach.shape[1]
    low = reach.shape[0] - 1  # the upper boxes' bits of a mask (64 rows: six upper boxes)
    per_row = np.zeros(reach.shape[0], np.int64)  # subtotals listed for each set of upper boxes
    for r in range(reach.shape[0]):
        for u in range(top):
            per_row[r] += reach[r, u]
    n = 0
    for i in range(layer.shape[0]):
        n += per_row[layer[i] & low] * (2 if two_flags and (layer[i] >> ycat) & 1 else 1)
    masks = np.empty(n, np.int64)
    ups = np.empty(n, np.int64)
    ybs = np.empty(n, np.int64)
    j = 0
    for i in range(layer.shape[0]):
        m = layer[i]
        f = 2 if two_flags and (m >> ycat) & 1 else 1
        for u in range(top):
            if reach[m & low, u]:
                for y in range(f):
                    masks[j] = m
                    ups[j] = u
                    ybs[j] = y
                    j += 1
    return masks, ups, ybs


def copy_class_values(layer, copied, classes, V):
    """``V[m, u, :] = V[m, classes[m & 63, u], :]`` for each mask ``m`` of ``layer`` and each ``u`` that ``copied`` marks.

    The build solves one upper subtotal per class of equivalent ones
    (:func:`yahtzee_solver.solver.build.upper_classes`) and gives the others its values, every
    flag at once.  A representative is never itself copied, so the order does not matter.
    Compiled, about 1 ms for a Yahtzee build in all, against about 7 ms of numpy indexing.

    Parameters
    ----------
    layer : (n,) int64
        Masks.
    copied, classes : (64, T+1) bool, int64
        Subtotals that take their class's value, and each subtotal's representative.
    V : (2**C, T+1, F) float64, in out
    """
    low = copied.shape[0] - 1  # the upper boxes' bits of a mask
    for i in range(layer.shape[0]):
        m = layer[i]
        for u in range(copied.shape[1]):
            if copied[m & low, u]:
                r = classes[m & low, u]
                for y in range(V.shape[2]):
                    V[m, u, y] = V[m, r, y]


def turn_options(mask, up, yb, r, rolls_left, V, score, joker, params, subkeeps, E, B,
                 points, legal, keep_vals, box_vals):
    """Values of every option at one position: the keeps of roll ``r`` and its boxes.

    Parameters
    ----------
    mask, up, yb : int
        Turn-start state of the scorecard.
    r : int
        Roll index (0..251) of the dice showing.
    rolls_left : int
        Rerolls still allowed this turn (0, 1 or 2).
    V, score, joker, params : arrays
        Value table and ``RuleSet.arrays()``.
    subkeeps : (252, 32) int32
        ``dice.ROLL_SUBKEEPS``.
    E : (3, 462) float64, B : (462,) float64
        Scratch for :func:`turn`.
    points : (C,) int64, legal : (C,) int8
        Scratch for :func:`box_points`.
    keep_vals : (32,) float64, out
        ``keep_vals[j]`` = expected points still to come when keeping
        ``subkeeps[r, j]`` and rerolling the rest; keeping all five (the last
        keep) is stopping to score now, worth the best of ``box_vals`` (see
        :func:`fill_options`); NaN for padding and when ``rolls_left == 0``.
    box_vals : (C,) float64, out
        Expected points still to come when scoring roll ``r`` in box ``c`` now
        (points + bonuses + value of the next state); NaN for a box that is
        filled or closed by the Joker rule.

    Returns
    -------
    int
        Number of keeps written (0 when ``rolls_left == 0``).
    """
    if rolls_left > 0:
        turn(mask, up, yb, rolls_left, V, score, joker, params, E, B)
    return fill_options(mask, up, yb, r, rolls_left, E, V, score, joker, params, subkeeps,
                        points, legal, keep_vals, box_vals)


def fill_options(mask, up, yb, r, rolls_left, E, V, score, joker, params, subkeeps,
                 points, legal, keep_vals, box_vals):
    """:func:`turn_options` once ``E`` holds :func:`turn` of the state (levels >= ``rolls_left``).

    Keeping all five dice (keep ``ROLL_OFFSET + r``, listed last) is not a
    reroll: a roll rerolls one to five dice, so a player who keeps them all
    stops and scores now.  Its value is the best box value (``fill``), not
    ``E[rolls_left - 1, ROLL_OFFSET + r]``, which with two rerolls left is
    the value of a *pass* (holding the dice and deciding again with one
    reroll left), a move the rules do not allow.  The pass is weakly
    dominated (its value is max(score now, best keep with one reroll left),
    and a keep is worth at least as much with more rerolls), so :func:`turn`
    and the table keep it without changing any value or best decision.
    """
    stop = box_values(mask, up, yb, r, V, score, joker, params, points, legal, box_vals)
    n = 0
    if rolls_left > 0:
        for j in range(subkeeps.shape[1]):
            k = subkeeps[r, j]
            if k < 0:
                break
            keep_vals[j] = stop if k >= ROLL_OFFSET else E[rolls_left - 1, k]
            n += 1
    for j in range(n, keep_vals.shape[0]):
        keep_vals[j] = np.nan
    return n


def ranked_options(mask, up, yb, r, rolls_left, V, score, joker, params, subkeeps, E, B,
                   points, legal, keep_vals, box_vals, codes, vals):
    """The options of one position, best first: keeps if ``rolls_left`` > 0, else boxes.

    Runs :func:`turn_options`, then writes the ranking: ``codes[i]`` is a
    keep index (0..461) when ``rolls_left`` > 0, else a box index; ``vals[i]``
    its expected points still to come.  A stable sort, so ties follow the
    tie-break rule of :mod:`yahtzee_solver.strategy.policy`.  ``codes`` and ``vals``
    need room for every option (32 keeps at most; ``C`` boxes).

    Returns
    -------
    int
        Number of options written; -1 (nothing written) if the state has no
        value (:func:`state_has_value`).
    """
    if not state_has_value(mask, up, yb, V):
        return -1
    nk = turn_options(mask, up, yb, r, rolls_left, V, score, joker, params, subkeeps, E, B,
                      points, legal, keep_vals, box_vals)
    n = 0
    if rolls_left > 0:
        for j in range(nk):
            codes[n] = subkeeps[r, j]
            vals[n] = keep_vals[j]
            n += 1
    else:
        for c in range(box_vals.shape[0]):
            if legal[c]:
                codes[n] = c
                vals[n] = box_vals[c]
                n += 1
    # insertion sort, descending, stable
    for i in range(1, n):
        v = vals[i]
        code = codes[i]
        j = i - 1
        while j >= 0 and vals[j] < v:
            vals[j + 1] = vals[j]
            codes[j + 1] = codes[j]
            j -= 1
        vals[j + 1] = v
        codes[j + 1] = code
    return n


def state_has_value(mask, up, yb, V):
    """True when turn-start state ``(mask, up, yb)`` has a value in ``V``.

    That is: indices in range (``V`` is ``(2**C, T+1, F)``), not the full card
    (no move left), and ``V`` not NaN (NaN marks a state no game reaches).
    """
    if mask < 0 or mask >= V.shape[0] - 1 or up < 0 or up >= V.shape[1] or yb < 0 or yb >= V.shape[2]:
        return False
    v = V[mask, up, yb]
    return v == v


def ranked_boxes(mask, up, yb, r, V, packed, codes, vals):
    """The boxes for final roll ``r``, best first: :func:`ranked_options` with no rerolls left.

    Only :func:`box_values` runs (no turn, no keeps), and the call takes four
    arrays (a compiled kernel's dispatch costs about 0.1 us per array
    argument, more than the work here; the scratch is allocated inside), so a
    single query from Python is cheap.  The state is checked here too
    (:func:`state_has_value`), so the caller needs no look-up of its own.

    Parameters
    ----------
    mask, up, yb, r : int
        Turn-start state and roll index (0..251).
    V : (2**C, T+1, F) float64
        Value table.
    packed : (1 + 2 * 252, max(C, 8)) int64
        ``RuleSet.arrays()["packed"]``: ``params`` (row 0), then the rows of
        ``score`` and of ``joker`` (sliced here, no reshape).
    codes : (m,) int64, out
        The legal box indices, best first (ties: the lower box first), if
        ``m`` is their number ``n``; untouched otherwise.
    vals : (m,) float64, out
        Their expected points still to come (points + bonuses + value of the
        next state), written with ``codes``.

    Returns
    -------
    int
        ``n``, the number of legal boxes (the open boxes, fewer when a Joker
        rule closes some); -1 if the state has no value.
    """
    if not state_has_value(mask, up, yb, V):
        return -1
    params = param_tuple(packed[0])
    C = params[_NCAT]
    score = packed[1:1 + N_ROLLS]
    joker = packed[1 + N_ROLLS:1 + 2 * N_ROLLS]
    buf = np.empty(2 * C, np.int64)  # one allocation: points, then legal
    points = buf[:C]
    legal = buf[C:]
    bonus = box_points(mask, up, yb, r, score, joker, params, points, legal)
    n = 0
    for c in range(C):
        if legal[c]:
            n += 1
    if n != codes.shape[0] or n != vals.shape[0]:
        return n
    n = 0
    for c in range(C):
        if legal[c]:
            v = bonus + after_box(mask, up, yb, c, points[c], V, params)  # box_values' sum, bit for bit
            j = n - 1
            while j >= 0 and vals[j] < v:  # insertion, descending, stable
                vals[j + 1] = vals[j]
                codes[j + 1] = codes[j]
                j -= 1
            vals[j + 1] = v
            codes[j + 1] = c
            n += 1
    return n


def ranked_keeps(mask, up, yb, r, rolls_left, V, packed, codes, vals):
    """The moves after roll ``r`` with rerolls left, best first, from one :func:`turn` (the advisor's path).

    The keeps of :func:`ranked_options` in the same order, with the values
    :class:`~yahtzee_solver.strategy.policy.Policy` gives them: keep ``k`` is
    worth ``E[rolls_left - 1, k]``, and keeping all five (no reroll: scoring
    now, there is no pass) ``E[0, ROLL_OFFSET + r]``, the best box value
    :math:`S_0(r)` (the sums of :func:`box_values`, bit for bit), so no second
    kernel runs.  Four array arguments and the scratch allocated inside, as
    :func:`ranked_boxes`: a single query from Python is cheap to dispatch.

    Parameters
    ----------
    mask, up, yb, r : int
        Turn-start state and roll index (0..251).
    rolls_left : int
        1 or 2 (not checked here).
    V : (2**C, T+1, F) float64
        Value table.
    packed : (1 + 2 * 252, max(C, 8)) int64
        ``RuleSet.arrays()["packed"]`` (as :func:`ranked_boxes`).
    codes : (m,) int64, out
        Keep indices (:data:`yahtzee_solver.dice.KEEPS`), best first; ``m >= 32``.
    vals : (m,) float64, out
        Their expected points still to come, descending (a stable sort over
        :data:`~yahtzee_solver.dice.ROLL_SUBKEEPS` order: the tie-break rule).

    Returns
    -------
    int
        The number of keeps written; -1 (nothing written) if the state has no value.
    """
    if not state_has_value(mask, up, yb, V):
        return -1
    params = packed[0]
    score = packed[1:1 + N_ROLLS]
    joker = packed[1 + N_ROLLS:1 + 2 * N_ROLLS]
    E = np.empty((3, N_KEEPS))
    B = np.empty(N_KEEPS)
    turn(mask, up, yb, rolls_left, V, score, joker, params, E, B)
    row = rolls_left - 1
    n = 0
    for j in range(ROLL_SUBKEEPS.shape[1]):
        k = ROLL_SUBKEEPS[r, j]
        if k < 0:
            break
        v = E[0, k] if k >= ROLL_OFFSET else E[row, k]
        i = n - 1
        while i >= 0 and vals[i] < v:  # insertion, descending, stable
            vals[i + 1] = vals[i]
            codes[i + 1] = codes[i]
            i -= 1
        vals[i + 1] = v
        codes[i + 1] = k
        n += 1
    return n


def batch_turn(masks, ups, ybs, rolls, rolls_left, order, starts, V, score, joker, params, subkeeps,
               keep_out, box_out):
    """:func:`turn_options` for many positions, one :func:`turn` per distinct state, in parallel.

    Parameters
    ----------
    masks, ups, ybs, rolls, rolls_left : (n,) int64
        The positions (as in :func:`turn_options`).
    order : (n,) int64, starts : (g + 1,) int64
        Positions ``order[starts[i]:starts[i + 1]]`` share one turn-start state;
        its :func:`turn` is computed once, to the most rerolls any of them has
        left.  The groups run in parallel (``prange``).
    V, score, joker, params, subkeeps : arrays
        As in :func:`turn_options`.
    keep_out : (n, 32) float64, out
    box_out : (n, C) float64, out
        ``keep_vals`` and ``box_vals`` of each position.

    Notes
    -----
    Each row depends only on its own position, so the result is the same on
    any number of threads and for any grouping.
    """
    C = params[_NCAT]
    for g in prange(starts.shape[0] - 1):
        E = np.empty((3, N_KEEPS))
        B = np.empty(N_KEEPS)
        points = np.empty(C, np.int64)
        legal = np.empty(C, np.int8)
        lo = starts[g]
        hi = starts[g + 1]
        i0 = order[lo]
        levels = 0
        for j in range(lo, hi):
            if rolls_left[order[j]] > levels:
                levels = rolls_left[order[j]]
        if levels > 0:
            turn(masks[i0], ups[i0], ybs[i0], levels, V, score, joker, params, E, B)
        for j in range(lo, hi):
            i = order[j]
            fill_options(masks[i], ups[i], ybs[i], rolls[i], rolls_left[i], E, V, score, joker, params, subkeeps,
                         points, legal, keep_out[i], box_out[i])


def batch_boxes(masks, ups, ybs, dice, V, packed, rolls, box_out, best_box, best_value):
    """:func:`box_values` of many positions with no rerolls left, with their rolls and best boxes.

    The box path of a batch: no turn to share and a tenth of a microsecond
    of work per position, so one thread, no work arrays per position, and
    the checks of each row here rather than in numpy calls around it.

    Parameters
    ----------
    masks, ups, ybs : (n,) int64
        Turn-start states.
    dice : (n, 5) int64 or (n, 1) int64
        Five faces 1..6 per row in any order, or one roll index 0..251 per row.
    V : (2**C, T+1, F) float64
        Value table.
    packed : (1 + 2 * 252, max(C, 8)) int64
        ``RuleSet.arrays()["packed"]`` (as :func:`ranked_boxes`).
    rolls : (n,) int64, out
        Roll index of each row.
    box_out : (n, C) float64, out
        ``values`` of :func:`box_values` (NaN: filled or closed by the Joker rule).
    best_box : (n,) int64, out
        The first box of the best value (the tie-break rule of
        :mod:`yahtzee_solver.strategy.policy`: the lower box).
    best_value : (n,) float64, out
        The best value (what :func:`box_values` returns).

    Returns
    -------
    int
        -1 when every row was valid; else the first row whose dice or state
        has no value (:func:`state_has_value`), the rows from it on not written.
    """
    params = packed[0]
    score = packed[1:1 + N_ROLLS]
    joker = packed[1 + N_ROLLS:1 + 2 * N_ROLLS]
    C = params[_NCAT]
    points = np.empty(C, np.int64)
    legal = np.empty(C, np.int8)
    cnt = np.zeros(6, np.int64)
    five = dice.shape[1] == 5
    for i in range(masks.shape[0]):
        if five:
            for f in range(6):
                cnt[f] = 0
            for j in range(5):
                d = dice[i, j]
                if d < 1 or d > 6:
                    return i
                cnt[d - 1] += 1
            r = roll_of_counts(cnt)
        else:
            r = dice[i, 0]
            if r < 0 or r >= N_ROLLS:
                return i
        if not state_has_value(masks[i], ups[i], ybs[i], V):
            return i
        rolls[i] = r
        row = box_out[i]
        best = box_values(masks[i], ups[i], ybs[i], r, V, score, joker, params, points, legal, row)
        best_value[i] = best
        b = 0
        for c in range(C):
            if legal[c] and row[c] == best:
                b = c
                break
        best_box[i] = b
    return -1


def play_games(dice, V, score, joker, policy, params, subkeeps, parts, totals, flags, moves):
    """Play whole solitaire games with the policy of ``(V, policy)``, one per row of ``dice``.

    Turn by turn, the games are sorted by turn-start state (serially, by
    :func:`sort_by_key`), and the sorted list is cut into ``parts`` runs of
    equal length, played in parallel (``prange``) by :func:`play_run`: the keep values of each
    distinct state are computed once per run (:func:`turn`, the kernel of the
    build and the advisor) and used by every game of the run in that state.
    Each game's moves depend only on its own dice, so the results do not
    depend on ``parts``, the number of threads, or how the caller splits the
    games.

    Parameters
    ----------
    dice : (G, turns, 3, 5) int8
        Pre-drawn faces 1..6, ``turns >= C``: ``dice[g, t, 0]`` is the first
        roll of turn ``t``; a reroll of ``n`` dice after roll ``j`` (0 or 1)
        takes ``dice[g, t, j + 1, :n]`` (randomness is injected by the caller).
    V : (2**C, T+1, F) float64
        Future values the policy maximises: the value table (optimal play),
        or zeros (best points this turn only).
    score, joker : (252, C) int64
        Rule arrays (``RuleSet.arrays()``).
    policy : (8,) int64
        Rule parameters the decisions use (``params``, or a variant such as
        no upper bonus for a player who ignores it).
    params : (8,) int64
        The true rule parameters, used to score the games.
    subkeeps : (252, 32) int32
        ``dice.ROLL_SUBKEEPS``.  Ties: the rule of :mod:`yahtzee_solver.strategy.policy`
        (:func:`best_keep`, :func:`play_box`).
    parts : int
        Number of runs each turn's games are cut into, played in parallel
        (a few per thread, handed out as threads come free).  The runs are
        cut from the games sorted by state, so a state is shared by every
        game in it whatever ``parts`` is; only a state that straddles a cut
        is looked at once more.
    totals : (G,) int64, out
        Final score of each game (points, bonuses included).
    flags : (G, 2) int8, out
        ``flags[g, 0]`` 1 if the upper bonus was made; ``flags[g, 1]`` 1 if five
        alike were scored as 50 in the Yahtzee (Yacht) box.
    moves : (G, turns, 4) int16, out
        The moves of each turn: first keep, second keep (keep indices 0..461;
        keeping all five is roll index + 210), final roll (0..251), box.
        Rows past turn ``C`` are left as they are.
    """
    G = dice.shape[0]
    C = params[_NCAT]
    thr = params[_THRESH]
    mask = np.zeros(G, np.int64)
    up = np.zeros(G, np.int64)
    yb = np.zeros(G, np.int64)
    upsum = np.zeros(G, np.int64)
    total = np.zeros(G, np.int64)
    yahtzee = np.zeros(G, np.int8)
    ids = np.empty(G, np.int64)
    sort_a = np.empty(G, np.int64)
    sort_b = np.empty(G, np.int64)
    for t in range(C):
        for g in range(G):
            ids[g] = (mask[g] * (thr + 1) + up[g]) * 2 + yb[g]
        order = sort_by_key(ids, sort_a, sort_b)  # one of the two, the other scratch
        for p in prange(parts):
            play_run(dice, t, order, ids, p * G // parts, (p + 1) * G // parts, V, score, joker, policy,
                     params, subkeeps, mask, up, yb, upsum, total, yahtzee, moves)
    for g in range(G):
        flags[g, 0] = 0
        flags[g, 1] = yahtzee[g]
        if upsum[g] >= thr:
            total[g] += params[_UBONUS]
            flags[g, 0] = 1
        totals[g] = total[g]


#: Bits of the key a pass of :func:`sort_by_key` sorts on (2,048 counters, in a core's L1 cache).
_SORT_BITS = 11


def sort_by_key(keys, order, spare):
    """The indices of ``keys`` in order of key, equal keys in index order (a stable sort).

    What ``np.argsort(keys, kind="stable")`` returns, by a least-significant-digit radix sort
    of :data:`_SORT_BITS` bits a pass: for the game kernel's 40,000 state ids (up to 22 bits,
    two passes) about 0.15 ms, against 2.3 ms for numba's merge sort, which ran on one thread
    between the parallel turns of :func:`play_games`.

    Parameters
    ----------
    keys : (n,) int64
        Keys, all >= 0.
    order, spare : (n,) int64
        Scratch, two different arrays; the result is one of them.

    Returns
    -------
    (n,) int64
        ``order`` or ``spare``, holding the sorted indices.
    """
    n = keys.shape[0]
    top = 0
    for i in range(n):
        if keys[i] > top:
            top = keys[i]
    for i in range(n):
        order[i] = i
    size = 1 << _SORT_BITS
    digit = size - 1
    count = np.empty(size + 1, np.int64)
    shift = 0
    while shift == 0 or (top >> shift) > 0:
        count[:] = 0
        for i in range(n):
            count[((keys[order[i]] >> shift) & digit) + 1] += 1
        for b in range(size):
            count[b + 1] += count[b]
        for i in range(n):
            g = order[i]
            d = (keys[g] >> shift) & digit
            spare[count[d]] = g
            count[d] += 1
        order, spare = spare, order
        shift += _SORT_BITS
    return order


def play_run(dice, t, order, ids, lo, hi, V, score, joker, policy, params, subkeeps,
             mask, up, yb, upsum, total, yahtzee, moves):
    """Turn ``t`` of the games ``order[lo:hi]`` (sorted by their state ``ids``) for :func:`play_games`, serially.

    Games in the same turn-start state come one after another, so they share
    the state's keep values and, per final roll, the best box.  Updates the
    games' states (``mask``, ``up``, ``yb``), points (``upsum``, ``total``),
    ``yahtzee`` flag and ``moves[g, t]``.
    """
    C = params[_NCAT]
    thr = params[_THRESH]
    E = np.empty((3, N_KEEPS))
    B = np.empty(N_KEEPS)
    points = np.empty(C, np.int64)
    legal = np.empty(C, np.int8)
    values = np.empty(C)
    cnt = np.empty(6, np.int64)
    best_box = np.empty(N_ROLLS, np.int64)
    stamp = np.full(N_ROLLS, -1, np.int64)  # best_box[r] is valid when stamp[r] == current group
    group = -1
    nup = params[_NUPPER]
    ycat = params[_YCAT]
    two_flags = params[_NFLAGS] == 2
    for j in range(lo, hi):
        g = order[j]
        m = mask[g]
        u = up[g]
        y = yb[g]
        if j == lo or ids[g] != ids[order[j - 1]]:
            turn(m, u, y, 2, V, score, joker, policy, E, B)
            group += 1
        mv = moves[g, t]
        r = play_keeps(dice[g, t], E, subkeeps, cnt, mv)
        if stamp[r] != group:
            best_box[r] = play_box(m, u, y, r, V, score, joker, policy, points, legal, values)
            stamp[r] = group
        c = best_box[r]
        mv[3] = c
        bonus = box_points(m, u, y, r, score, joker, params, points, legal)
        p = points[c]
        total[g] += p + bonus
        if c < nup:
            upsum[g] += p
            up[g] = min(thr, u + p)
        elif c == ycat and p > 0:
            yahtzee[g] = 1
            if two_flags:
                yb[g] = 1
        mask[g] = m | (1 << c)


def best_keep(E, r, subkeeps):
    """Index of the best keep inside roll ``r`` by the keep values ``E`` (462,); ties: :mod:`yahtzee_solver.strategy.policy`.

    ``E`` is a row of :func:`turn`, whose keep-all entry with two rerolls
    left is a pass; the pass is weakly dominated and listed last, so it wins
    only when scoring now beats every reroll strictly, and then its value is
    that of scoring now: the choice is the one without passes.
    """
    best = -np.inf
    bk = -1
    for s in range(subkeeps.shape[1]):
        k = subkeeps[r, s]
        if k < 0:
            break
        if E[k] > best:
            best = E[k]
            bk = k
    return bk


def play_keeps(dice, E, subkeeps, cnt, move):
    """The two keeps of a turn by the keep values ``E``; returns the final roll index.

    Parameters
    ----------
    dice : (3, 5) int8
        This turn's pre-drawn faces (see :func:`play_games`).
    E : (3, 462) float64
        Keep values of the turn-start state from :func:`turn`: row 0 with 1
        reroll left, row 1 with 2.
    subkeeps : (252, 32) int32
        ``dice.ROLL_SUBKEEPS``.
    cnt : (6,) int64
        Scratch (face counts).
    move : (4,) int16, out
        ``move[0]``, ``move[1]``: the first and second keep; ``move[2]``: the final roll.
    """
    for f in range(6):
        cnt[f] = 0
    for j in range(5):
        cnt[dice[0, j] - 1] += 1
    for rl in range(2, 0, -1):
        bk = best_keep(E[rl - 1], roll_of_counts(cnt), subkeeps)
        move[2 - rl] = bk
        m = 0
        for f in range(6):
            cnt[f] = KEEP_COUNTS[bk, f]
            m += cnt[f]
        for j in range(5 - m):
            cnt[dice[3 - rl, j] - 1] += 1
    r = roll_of_counts(cnt)
    move[2] = r
    return r


def play_box(mask, up, yb, r, V, score, joker, policy, points, legal, values):
    """The box of highest value (:func:`box_values`) for final roll ``r``; ties: :mod:`yahtzee_solver.strategy.policy`."""
    box_values(mask, up, yb, r, V, score, joker, policy, points, legal, values)
    bc = -1
    bv = -np.inf
    for c in range(policy[_NCAT]):
        if legal[c] and values[c] > bv:
            bv = values[c]
            bc = c
    return bc


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


def _make_sub0():
    sub0 = np.where(SUB < 0, 0, SUB).astype(np.int32)
    sub0.setflags(write=False)
    return sub0


# ``SUB`` with "no such die" (-1) replaced by the empty keep (0); see best_subkeeps.
_SUB0 = _make_sub0()


# -- exact final-score distributions ---------------------------------------------------------
# A turn under a fixed policy moves probability mass forward: first-roll chances onto the
# rolls, each roll's mass onto its chosen keep(s), each keep's mass onto the rolls it can
# become (the reverse of expect_keeps), and each final roll onto its chosen box.  The same
# kernels as the table build pick the moves (turn, best_keep, play_box).

_POLICY_TURN, _POLICY_BEGINNER = 0, 1


def beginner_keep(mask, up, yb, r, made, score, joker, params, points, legal):
    """The casual keep of the ``beginner`` CPU for roll ``r`` (what it keeps when it does not blunder).

    It stands on a made pattern -- a box of the bit mask ``made`` (Full House,
    straights, five alike) that is legal and scores more than 0 for this roll
    (Joker points included) -- and otherwise keeps every die of its most common
    face (the higher face on a tie).  Depends on the card only through ``mask``.

    Returns
    -------
    int
        Keep index (0..461); ``ROLL_OFFSET + r`` = keep all five (stand).
    """
    box_points(mask, up, yb, r, score, joker, params, points, legal)
    for c in range(params[_NCAT]):
        if (made >> c) & 1 and legal[c] and points[c] > 0:
            return ROLL_OFFSET + r
    best_f = 0
    best_n = -1
    for f in range(6):
        n = KEEP_COUNTS[ROLL_OFFSET + r, f]
        if n >= best_n:
            best_n = n
            best_f = f
    k = 0
    for _ in range(best_n):
        k = CHILD[k, best_f]
    return k


def beginner_box(mask, up, yb, r, score, joker, params, points, legal):
    """The box of the ``beginner`` CPU for final roll ``r``: the legal box with the most points now (ties: lowest)."""
    box_points(mask, up, yb, r, score, joker, params, points, legal)
    bc = -1
    bp = -1
    for c in range(params[_NCAT]):
        if legal[c] and points[c] > bp:
            bp = points[c]
            bc = c
    return bc


def best_keeps(E, subkeeps, out):
    """:func:`best_keep` for every roll at once: ``out[r]`` (252,) int64 = the best keep inside roll ``r``.

    The same rule (highest ``E``; ties: the keep listed first in ``subkeeps``),
    in one call: calls with array arguments inside a loop over the rolls would
    cost more than the comparisons themselves.
    """
    for r in range(N_ROLLS):
        best = -np.inf
        bk = -1
        for s in range(subkeeps.shape[1]):
            k = subkeeps[r, s]
            if k < 0:
                break
            if E[k] > best:
                best = E[k]
                bk = k
        out[r] = bk


def roll_gains(mask, up, yb, box, score, joker, params, points, legal, gain, nmask, nup, nyb):
    """Points gained and next state when each final roll ``r`` is scored in box ``box[r]``.

    ``gain[r]`` is the box's points, the Yahtzee bonus (:func:`box_points`) and
    the upper bonus when the score completes it (as :func:`after_box`);
    ``(nmask[r], nup[r], nyb[r])`` is the next turn-start state.  Five-alike
    rolls are scored by :func:`box_points` (Joker, bonus); any other roll scores
    its ordinary points with no bonus, which is what :func:`box_points` gives it.
    Rolls with ``box[r] < 0`` are skipped.
    """
    nup_ = params[_NUPPER]
    thr = params[_THRESH]
    for r in range(N_ROLLS):
        c = box[r]
        if c < 0:
            continue
        if ROLL_FACE[r] > 0:
            bonus = box_points(mask, up, yb, r, score, joker, params, points, legal)
            p = points[c]
        else:
            bonus = 0
            p = score[r, c]
        g = p + bonus
        u = up
        y = yb
        if c < nup_:
            u = up + p
            if up < thr and u >= thr:
                g += params[_UBONUS]
            if u > thr:
                u = thr
        elif c == params[_YCAT] and p > 0 and params[_NFLAGS] == 2:
            y = 1
        gain[r] = g
        nmask[r] = mask | (1 << c)
        nup[r] = u
        nyb[r] = y


def spread_keeps(K):
    """Move the probability of each keep of 0..4 dice onto the rolls it can become (``K[210:]``).

    The reverse of :func:`expect_keeps`: a keep of ``m < 5`` dice passes 1/6 of
    its mass to the keep with one more die of each face; rolling the missing
    dice one at a time gives the same rolls with the same chances as rolling
    them together.
    """
    for k in range(ROLL_OFFSET):
        w = K[k]
        if w != 0.0:
            w = w / 6.0
            for f in range(6):
                K[CHILD[k, f]] += w


def final_roll_masses(mask, up, yb, kind, r0, rl0, k0, V, score, joker, policy, params, subkeeps,
                      blunder, made, rkeeps, E, B, K, M, F, BK, points, legal):
    """Probability of each final roll of a turn played by a policy.

    Parameters
    ----------
    mask, up, yb : int
        Turn-start state.
    kind : int
        0: the policy of the turn kernel on ``V`` with decision parameters
        ``policy`` (the expert on the value table, the normal CPU on zeros):
        the keep of :func:`best_keep` after :func:`turn`.  1: the beginner CPU,
        a mixture: its casual keep (:func:`beginner_keep`) with probability
        ``1 - blunder``, else each of the 32 position subsets ``rkeeps[r]``
        with probability ``blunder / 32``.
    r0, rl0, k0 : int
        ``k0 >= 0``: keep ``k0`` was just chosen with ``rl0`` (1..2) rerolls
        left; else ``r0 < 0``: the turn starts with its first roll (two rerolls
        to come); else roll ``r0`` is showing with ``rl0`` (0..2) rerolls left.
    V, score, joker, policy, params, subkeeps : arrays
        As in :func:`play_games` (``params`` are the true rules).
    blunder : float, made : int, rkeeps : (252, 32) int32
        The beginner's data (see :mod:`yahtzee_solver.strategy.players`); unused for ``kind`` 0.
    E : (3, 462), B, K : (462,) float64, F : (252,) float64, BK : (2, 252) int64, points : (C,) int64,
    legal : (C,) int8
        Scratch.
    M : (252,) float64, out
        ``M[r]`` = probability that the turn ends with roll ``r`` (sums to 1).

    Notes
    -----
    A keep of all five dice chosen by the policy ends the turn: the mass goes
    straight to the final roll, as in the game engine, where a CPU that keeps all
    five scores at once (:func:`yahtzee_solver.game.cpu_actions`).  So the beginner
    that stands with two rerolls left cannot blunder into a reroll later.  (For
    the deterministic policies this changes nothing: standing with two rerolls
    left implies standing with one.)  A keep given as ``k0`` is rolled as the
    advisor values it: all five with two rerolls left passes to the one-reroll
    decision (the advisor's "keep all five" row).
    """
    rl = start_masses(r0, rl0, k0, K, M)
    if kind == _POLICY_TURN and rl > 0:
        turn(mask, up, yb, rl, V, score, joker, policy, E, B)
        for n in range(rl):
            best_keeps(E[n], subkeeps, BK[n])
    policy_masses(mask, up, yb, kind, rl, score, joker, params, blunder, made, rkeeps, BK, K, M, F, points, legal)


def start_masses(r0, rl0, k0, K, M):
    """The masses of the rolls showing at the start of a turn, from :func:`final_roll_masses`'s ``r0``, ``rl0``, ``k0``.

    ``M`` (252,) float64 receives them (``K`` (462,) float64 scratch).

    Returns
    -------
    int
        The rerolls still to come from those rolls (0..2).
    """
    rl = rl0
    if k0 >= 0:
        for k in range(N_KEEPS):
            K[k] = 0.0
        K[k0] = 1.0
        spread_keeps(K)
        for r in range(N_ROLLS):
            M[r] = K[ROLL_OFFSET + r]
        rl = rl0 - 1
    elif r0 < 0:
        for r in range(N_ROLLS):
            M[r] = ROLL_PROB[r]
        rl = 2
    else:
        for r in range(N_ROLLS):
            M[r] = 0.0
        M[r0] = 1.0
    return rl


def policy_masses(mask, up, yb, kind, rl, score, joker, params, blunder, made, rkeeps, BK, K, M, F, points, legal):
    """Carry the masses ``M`` of the rolls showing through ``rl`` rerolls of a policy onto the final rolls.

    The rest of :func:`final_roll_masses` once the policy's keeps are known:
    for ``kind`` 0 the keep of roll ``r`` with ``n + 1`` rerolls left is
    ``BK[n, r]`` ((2, 252) int64; rows ``0..rl-1`` are read); the beginner's
    keeps are drawn here.  ``M`` (252,) float64, in: the rolls showing, out:
    the final rolls.  ``K`` (462,), ``F`` (252,) float64, ``points``, ``legal``: scratch.
    """
    for r in range(N_ROLLS):
        F[r] = 0.0
    while rl > 0:
        for k in range(N_KEEPS):
            K[k] = 0.0
        for r in range(N_ROLLS):
            m = M[r]
            if m == 0.0:
                continue
            if kind == _POLICY_TURN:
                K[BK[rl - 1, r]] += m
            else:
                K[beginner_keep(mask, up, yb, r, made, score, joker, params, points, legal)] += m * (1.0 - blunder)
                if blunder > 0.0:
                    w = m * blunder / 32.0
                    for j in range(32):
                        K[rkeeps[r, j]] += w
        # the mass that stands (keeps all five) is final; the rest is rerolled
        for r in range(N_ROLLS):
            F[r] += K[ROLL_OFFSET + r]
            K[ROLL_OFFSET + r] = 0.0
        spread_keeps(K)
        for r in range(N_ROLLS):
            M[r] = K[ROLL_OFFSET + r]
        rl -= 1
    for r in range(N_ROLLS):
        M[r] += F[r]


def final_roll_boxes(mask, up, yb, V, score, joker, policy, S, box):
    """The box :func:`play_box` picks for every final roll, at once: ``box[r]`` (252,) int64.

    The argmax twin of :func:`final_roll_values`: the same values, computed by
    the same calls in the same order (ordinary rolls by box, five alike through
    :func:`box_values` once the Yahtzee box is filled), and the same tie-break
    (the lowest box).  ``S`` (252,) float64 receives the best values.  It is a
    twin, not the one loop, on purpose: the box bookkeeping costs the table
    build and every keep query about 3 % (measured, ``kernels.turn``), and
    ``tests/test_distribution.py`` checks it against :func:`play_box` on every roll.
    """
    C = policy[_NCAT]
    nup = policy[_NUPPER]
    ycat = policy[_YCAT]
    for r in range(N_ROLLS):
        S[r] = -np.inf
        box[r] = -1
    upv = np.empty(6)
    for c in range(C):
        if (mask >> c) & 1:
            continue
        if c < nup:
            for n in range(6):
                upv[n] = after_box(mask, up, yb, c, n * (c + 1), V, policy)
            for r in range(N_ROLLS):
                v = upv[KEEP_COUNTS[ROLL_OFFSET + r, c]]
                if v > S[r]:
                    S[r] = v
                    box[r] = c
        elif c == ycat:
            v0 = after_box(mask, up, yb, c, 0, V, policy)
            for r in range(N_ROLLS):
                p = score[r, c]
                v = v0 if p == 0 else after_box(mask, up, yb, c, p, V, policy)
                if v > S[r]:
                    S[r] = v
                    box[r] = c
        else:
            base = after_box(mask, up, yb, c, 0, V, policy)
            for r in range(N_ROLLS):
                v = score[r, c] + base
                if v > S[r]:
                    S[r] = v
                    box[r] = c
    if ycat >= 0 and (mask >> ycat) & 1:
        points = np.empty(C, np.int64)
        legal = np.empty(C, np.int8)
        values = np.empty(C)
        for r in range(N_ROLLS):
            if ROLL_FACE[r] > 0:
                box[r] = play_box(mask, up, yb, r, V, score, joker, policy, points, legal, values)


#: States :func:`dist_outcomes` takes together: a block a thread solves, its keep values as the
#: columns of three 462 x 32 float64 buffers (:func:`keep_columns`, 355 KB, in a core's L2 cache).
DIST_TILE = 32


def dist_outcomes(masks, ups, ybs, r0, rl0, k0, kind, V, score, joker, policy, params, subkeeps,
                  blunder, made, rkeeps, index, lo_next, hi_next, gmax,
                  out_idx, out_gain, out_prob, counts, lo, hi):
    """The outcomes of one turn from each state: (next state, points gained, probability).

    Parameters
    ----------
    masks, ups, ybs : (n,) int64
        Turn-start states (one layer).
    r0, rl0, k0, kind, V, score, joker, policy, params, subkeeps, blunder, made, rkeeps
        The policy and the start of the turn (see :func:`final_roll_masses`).
    index : (2**C, T+1, F) int32
        Position of each next state in the next layer's arrays (int32: half the memory of the
        int64 positions, 4 MiB of Yahtzee's empty-card distribution).
    lo_next, hi_next : (m,) int64
        Least and greatest points still to come from each next state (support of its distribution).
    gmax : int
        Greatest points one turn can gain.
    out_idx, out_gain : (n, M) int64, out_prob : (n, M) float64, out
        Row ``i``: ``counts[i]`` outcomes of state ``i`` -- next-state position,
        points gained, probability -- each (next state, gain) once, in a fixed order.
    counts, lo, hi : (n,) int64, out
        Number of outcomes; least and greatest points still to come from state ``i``.

    Notes
    -----
    States are independent (``prange`` over blocks of :data:`DIST_TILE`); the result does not
    depend on the number of threads.  For ``kind`` 0 with a reroll to come, a block's turns are
    solved as columns (:func:`keep_columns`, :func:`best_keep_columns`,
    :func:`policy_mass_columns`, the boxes from :func:`final_roll_columns`), each column bit for
    bit the one-state path (:func:`final_roll_masses`, :func:`final_roll_boxes`), which the
    beginner and the starts with no reroll left take.
    """
    n = masks.shape[0]
    C = params[_NCAT]
    G = gmax + 1
    rl = rl0 - 1 if k0 >= 0 else (2 if r0 < 0 else rl0)  # the rerolls to come (start_masses)
    columns = kind == _POLICY_TURN and rl > 0
    W = min(DIST_TILE, max(n, 1))  # a start inside a turn is one state: buffers of one column
    nblk = (n + W - 1) // W
    IX, AD, yroll = final_roll_index(score, policy)
    for b in prange(nblk):
        E = np.empty((3, N_KEEPS))
        B = np.empty(N_KEEPS)
        K = np.empty(N_KEEPS)
        M = np.empty(N_ROLLS)
        F = np.empty(N_ROLLS)
        points = np.empty(C, np.int64)
        legal = np.empty(C, np.int8)
        S = np.empty(N_ROLLS)
        box = np.empty(N_ROLLS, np.int64)
        BK = np.empty((2, N_ROLLS), np.int64)
        gain = np.empty(N_ROLLS, np.int64)
        nmask = np.empty(N_ROLLS, np.int64)
        nup = np.empty(N_ROLLS, np.int64)
        nyb = np.empty(N_ROLLS, np.int64)
        acc = np.zeros(C * G)
        where = np.empty(C * G, np.int64)
        touched = np.empty(C * G, np.int64)
        b0 = b * W
        b1 = min(n, b0 + W)
        if columns:
            # the policy's keeps and final rolls, a block of states at once (the build's column kernels)
            E0 = aligned_empty(N_KEEPS, W)
            E1 = aligned_empty(N_KEEPS, W)
            E2 = aligned_empty(N_KEEPS, W)
            SS = aligned_empty(ROLL_OFFSET, W)
            BX = np.empty((N_ROLLS, W), np.int64)
            keep_columns(masks, ups, ybs, b0, b1, rl, V, score, joker, policy, IX, AD, yroll, E0, E1, SS, BX)
            BK1 = np.empty((N_ROLLS, W), np.int64)
            BK2 = np.empty((N_ROLLS, W), np.int64)
            A = aligned_empty(N_KEEPS, W)
            best_keep_columns(E0, b1 - b0, E2, A, BK1)
            if rl >= 2:
                best_keep_columns(E1, b1 - b0, E2, A, BK2)
            start_masses(r0, rl0, k0, K, M)
            # the masses in the keep values' buffers, which are read no more
            MC = E0[:N_ROLLS]
            FC = E1[:N_ROLLS]
            for r in range(N_ROLLS):
                mr = MC[r]
                for t in range(b1 - b0):
                    mr[t] = M[r]
            policy_mass_columns(rl, BK1, BK2, b1 - b0, E2, MC, FC)
        for i in range(b0, b1):
            mask = masks[i]
            up = ups[i]
            yb = ybs[i]
            if columns:
                t = i - b0
                for r in range(N_ROLLS):
                    M[r] = MC[r, t]
                    box[r] = BX[r, t]
            else:
                final_roll_masses(mask, up, yb, kind, r0, rl0, k0, V, score, joker, policy, params, subkeeps,
                                  blunder, made, rkeeps, E, B, K, M, F, BK, points, legal)
                if kind == _POLICY_TURN:
                    final_roll_boxes(mask, up, yb, V, score, joker, policy, S, box)
                else:
                    for r in range(N_ROLLS):
                        box[r] = beginner_box(mask, up, yb, r, score, joker, params, points, legal) if M[r] > 0.0 else -1
            roll_gains(mask, up, yb, box, score, joker, params, points, legal, gain, nmask, nup, nyb)
            nt = 0
            for r in range(N_ROLLS):
                m = M[r]
                if m == 0.0:
                    continue
                key = box[r] * G + gain[r]
                if acc[key] == 0.0:
                    touched[nt] = key
                    where[key] = index[nmask[r], nup[r], nyb[r]]
                    nt += 1
                acc[key] += m
            lo_i = 1 << 40
            hi_i = -1
            for t in range(nt):
                key = touched[t]
                s = where[key]
                g = key % G
                out_idx[i, t] = s
                out_gain[i, t] = g
                out_prob[i, t] = acc[key]
                acc[key] = 0.0
                if g + lo_next[s] < lo_i:
                    lo_i = g + lo_next[s]
                if g + hi_next[s] > hi_i:
                    hi_i = g + hi_next[s]
            counts[i] = nt
            lo[i] = lo_i
            hi[i] = hi_i


def dist_convolve(out_off, out_end, out_idx, out_gain, out_prob, lo, off, D, lo_next, off_next, D_next, dense_next,
                  stride_next, dense, stride, top, want_top):
    """Distribution of the points still to come from each state of a layer, packed.

    Row ``i`` is P(points still to come from state ``i`` = ``lo[i] + x``), ``x`` = 0 ..
    ``hi[i] - lo[i]``: the mixture over the state's outcomes (``out_*[out_off[i]:out_end[i]]``,
    from :func:`dist_outcomes`) of the next state's distribution shifted by the points gained.
    It is stored packed in ``D[off[i]:off[i+1]]``: totals ``x < dense[i]`` at ``x``, and from
    ``dense[i]`` (chosen by :func:`dist_dense`) only every ``stride``-th total, at
    ``dense[i] + (x - dense[i]) // stride`` -- the totals between are exactly 0.  ``D_next``,
    ``off_next``, ``lo_next``, ``dense_next``, ``stride_next`` describe the next layer the same
    way.  Each entry gets the same products in the same order as in whole rows (a total left
    out would only have had ``p * 0.0`` added), so the rows are bit for bit those of whole
    rows.  ``top[i]`` (out, when ``want_top``): the least ``h`` from which row ``i`` is 0.0 but on
    every :data:`TAIL_STRIDE`-th total down from its last (:func:`row_top`).  Parallel over states
    (``prange``); each row is summed in the same order on any number of threads.
    """
    n = lo.shape[0]
    for i in prange(n):
        a = off[i]
        for t in range(a, off[i + 1]):
            D[t] = 0.0
        h = dense[i]
        for j in range(out_off[i], out_end[i]):
            s = out_idx[j]
            p = out_prob[j]
            sa = off_next[s]
            hs = dense_next[s]
            cnt = off_next[s + 1] - sa - hs
            base = out_gain[j] + lo_next[s] - lo[i]
            lim = min(hs, h - base)
            dst = D[a + base : a + base + lim]
            src = D_next[sa : sa + hs]
            for t in range(lim):
                dst[t] += p * src[t]
            for t in range(lim + (h - base - lim) % stride, hs, stride):
                D[a + h + (base + t - h) // stride] += p * src[t]
            for q in range(cnt):
                x = base + hs + stride_next * q
                if x < h:
                    D[a + x] += p * D_next[sa + hs + q]
                else:
                    D[a + h + (x - h) // stride] += p * D_next[sa + hs + q]
        if want_top:
            top[i] = row_top(D, a, h, off[i + 1] - a - h, stride)


#: The stride of the packed top of a row: the greatest totals of a Yahtzee distribution come
#: from Yahtzee bonuses (100) and boxes of 25, 30, 40 and 50 points.
TAIL_STRIDE = 5


def row_top(D, a, h, cnt, stride):
    """For a packed row ``D[a:a+h+cnt]`` (``h`` totals, then ``cnt`` every ``stride``-th): the least
    total ``g`` from which every total off the :data:`TAIL_STRIDE`-th ones down from the last is 0.0."""
    w = h + stride * (cnt - 1) + 1 if cnt > 0 else h
    if stride % TAIL_STRIDE != 0:  # the packed top may hold totals off the stride: scan all
        g = w - 1
        t = w - 2
        while t >= 0:
            if (w - 1 - t) % TAIL_STRIDE == 0:
                g = t
            else:
                v = D[a + t] if t < h else (D[a + h + (t - h) // stride] if (t - h) % stride == 0 else 0.0)
                if v != 0.0:
                    break
            t -= 1
        return g
    g = h if cnt > 0 else w - 1
    t = min(h, w - 1) - 1
    while t >= 0:
        if (w - 1 - t) % TAIL_STRIDE == 0:
            g = t
        elif D[a + t] != 0.0:
            break
        t -= 1
    return g


def dist_dense(out_off, out_end, out_idx, out_gain, lo, hi, lo_next, hi_next, top_next, stride, dense):
    """Where each row of a layer can be packed from with ``stride`` (see :func:`dist_convolve`).

    ``dense[i]`` (out) is the least total ``h`` (relative to ``lo[i]``, on the stride down from
    the row's last) such that from ``h`` on, the outcomes of state ``i`` add only to totals on
    that stride: each outcome's next row, shifted by its gain, is 0.0 from ``top_next`` on but
    on its own stride (:func:`row_top`), which must fall on the row's.  The whole row
    (``hi[i] - lo[i] + 1``) when ``stride`` is 1.  Parallel over states (``prange``): a slice's
    states take about 50 us in all, and the second thread is still spinning from the outcome
    kernel just before (:data:`yahtzee_solver.solver.jit.SPIN_COUNT`).
    """
    n = lo.shape[0]
    for i in prange(n):
        w = hi[i] - lo[i] + 1
        if stride == 1:
            dense[i] = w
            continue
        h = 0
        for j in range(out_off[i], out_end[i]):
            s = out_idx[j]
            base = out_gain[j] + lo_next[s] - lo[i]
            ws = hi_next[s] - lo_next[s] + 1
            if (w - base - ws) % stride == 0:
                need = base + top_next[s]
            else:
                need = base + ws
            if need > h:
                h = need
        if h >= w:
            h = w
        else:
            h += (w - 1 - h) % stride
        dense[i] = h
