r"""Turn kernel of the two-player game: the winning chance and the draw chance over a score difference.

The two-player solve (:mod:`yahtzee_solver.strategy.duel`) values a turn-start
position of the player to move by a vector over the score difference
:math:`d` (mine minus the opponent's).  Inside one turn it is the utility DP of
:mod:`yahtzee_solver.solver.utility_kernels`: the offset is :math:`j = d + M`
(``M`` = the most points the mover can still make) and the terminal value of
scoring roll :math:`r` in box :math:`c` is the value of the position that
follows, read at offset :math:`j + g(r, c)`:

.. math::

    S_0(r)(j) &= \max_{c \text{ legal}} W_v[\mathrm{next}(c, r)]\big(\min(j + g(r, c), J)\big) \\
    E_n(k) &= \sum_r P(r \mid k)\, S_{n-1}(r), \qquad
    S_n(r) = \max_{k \subseteq r} E_n(k) \quad (n = 1, 2)

The value is P(win) + P(draw) / 2.  Alongside it this kernel carries the draw
probability of the same play, :math:`D`: the option chosen at each decision
-- the first whose value is within :data:`TIE` of the best, in the policy
layer's order (boxes by increasing index, keeps in
:data:`yahtzee_solver.dice.ROLL_SUBKEEPS` order) -- passes on its own draw
probability, and the means over rerolls average it.  The values are the
maxima of the same numbers as :func:`utility_kernels.vec_turn`'s; ``D``
depends on the tie-break, the value does not.

Like :mod:`kernels`, this is plain Python in the subset numba compiles
(:func:`yahtzee_solver.solver.jit.compiled_module`), and it runs interpreted too.
"""

import numpy as np

from ..dice import N_ROLLS, ROLL_OFFSET, ROLL_SUBKEEPS
from .kernels import vec_expect_keeps

prange = range

#: Names compiled by yahtzee_solver.solver.jit.compiled_module.
KERNELS = ("duel_final_rolls", "duel_expect_keeps", "duel_best_keeps", "duel_turn")
PARALLEL = ()
IMPORTS = ("vec_expect_keeps",)

_SUBKEEPS = np.ascontiguousarray(ROLL_SUBKEEPS, dtype=np.int64)

#: Options whose values are within this of the best count as tied for the draw chance: the first of them
#: in the policy layer's order is played (the ``master`` CPU's tolerance, :data:`strategy.master.TIE`).
#: Exact ties computed by different sums differ by a few units in the last place; the tolerance makes the
#: choice among them, and so the draw chance, independent of rounding.
TIE = 1e-12


def duel_final_rolls(a, b, Wv, Wd, nopt, orow, ogain, V, D):
    """Rows ``210 + r`` of ``V``/``D``: value and draw chance of ending the turn with roll ``r``, offsets ``a..b-1``.

    Parameters
    ----------
    a, b : int
        Offsets computed, ``0 <= a <= b <= J``; column ``t`` is offset ``a + t``.
    Wv, Wd : (n_next, J+1) float64
        Value and draw chance of each position after the turn, by offset;
        column ``J`` holds the value for every offset from ``J`` on.
    nopt, orow, ogain : arrays
        The legal scores of each roll (:func:`utility_kernels.vec_options`), in increasing box order.
    V, D : (462, >= b - a) float64, out
    """
    J = Wv.shape[1] - 1
    n = b - a
    for r in range(N_ROLLS):
        v = V[ROLL_OFFSET + r]
        d = D[ROLL_OFFSET + r]
        for t in range(n):
            v[t] = -np.inf
            d[t] = np.nan
        for o in range(nopt[r]):  # the best value
            g = ogain[r, o]
            wv = Wv[orow[r, o]]
            for t in range(n):
                j = a + t + g
                if j > J:
                    j = J
                x = wv[j]
                y = v[t]
                v[t] = x if x > y else y
        for o in range(nopt[r]):  # the draw chance of the first box within TIE of it
            g = ogain[r, o]
            wv = Wv[orow[r, o]]
            wd = Wd[orow[r, o]]
            for t in range(n):
                if d[t] == d[t]:
                    continue
                j = a + t + g
                if j > J:
                    j = J
                if wv[j] >= v[t] - TIE:
                    d[t] = wd[j]


def duel_expect_keeps(V, D, n):
    """Rows ``0..209``: the mean over the six faces of the keep with one more die (value and draw chance)."""
    vec_expect_keeps(V, n)
    vec_expect_keeps(D, n)


def duel_best_keeps(V, D, Vn, Dn, n):
    """Rows ``210 + r`` of ``Vn``/``Dn``: the best keep inside roll ``r`` (first best in ``ROLL_SUBKEEPS`` order)."""
    for r in range(N_ROLLS):
        vo = Vn[ROLL_OFFSET + r]
        do = Dn[ROLL_OFFSET + r]
        for t in range(n):
            vo[t] = -np.inf
            do[t] = np.nan
        for s in range(_SUBKEEPS.shape[1]):  # the best value
            k = _SUBKEEPS[r, s]
            if k < 0:
                break
            vk = V[k]
            for t in range(n):
                x = vk[t]
                y = vo[t]
                vo[t] = x if x > y else y
        for s in range(_SUBKEEPS.shape[1]):  # the draw chance of the first keep within TIE of it
            k = _SUBKEEPS[r, s]
            if k < 0:
                break
            vk = V[k]
            dk = D[k]
            for t in range(n):
                if do[t] != do[t] and vk[t] >= vo[t] - TIE:
                    do[t] = dk[t]


def duel_turn(a, b, levels, Wv, Wd, nopt, orow, ogain, V, D):
    """Keep values of one turn over offsets ``a..b-1``: ``V[l]``, ``D[l]`` are level ``l + 1`` (``l + 1`` rerolls to go).

    Row ``k < 210`` of level ``n`` is keeping ``k`` with ``n`` rerolls to go;
    row ``210 + r`` is holding roll ``r`` with ``n - 1`` rerolls left.  Level
    3's row 0 (keep nothing, three rolls to go) is the turn-start value.

    Parameters
    ----------
    a, b, Wv, Wd, nopt, orow, ogain
        As in :func:`duel_final_rolls`.
    levels : int
        1..3.
    V, D : (3, 462, >= b - a) float64, out
    """
    n = b - a
    duel_final_rolls(a, b, Wv, Wd, nopt, orow, ogain, V[0], D[0])
    duel_expect_keeps(V[0], D[0], n)
    for lv in range(1, levels):
        duel_best_keeps(V[lv - 1], D[lv - 1], V[lv], D[lv], n)
        duel_expect_keeps(V[lv], D[lv], n)
