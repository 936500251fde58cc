"""Exact probability distribution of the final score under a policy.

The advisor answers "what is the expected final total"; this module answers
"how is the final total spread": the exact probability mass function (pmf)
of the final score from a turn-start card, or from a position inside a turn
(dice showing, rerolls left), when the rest of the game is played by

* ``optimal`` (alias ``expert``): the optimal policy on the value table;
* ``normal``: the CPU that maximises the current turn's points;
* ``beginner``: the casual CPU, whose random blunders make it a *mixture*
  of keeps -- the distribution is the exact average over its random choices.

Method (no sampling).  Let ``D_s`` be the pmf of the points still to come from
turn-start state ``s = (mask, up, yb)``.  A turn from ``s`` under the policy
ends in outcome ``(s', g)`` -- next state, points gained (box points, Yahtzee
bonus, the upper bonus when it is completed) -- with some probability
``p(s', g)``, and

.. math:: D_s(x) = \\sum_{(s', g)} p(s', g)\\, D_{s'}(x - g), \\qquad D_{\\text{full}} = \\delta_0 .

The turn's outcome probabilities are propagated forward through the turn
(:func:`yahtzee_solver.solver.kernels.final_roll_masses`): first-roll chances onto the
252 rolls, each roll onto the keep the policy chooses (the same
:func:`~yahtzee_solver.solver.kernels.turn` and :func:`~yahtzee_solver.solver.kernels.best_keep`
that build the table and play the simulations; ties to the smaller keep), each
keep onto the rolls it can become -- a keep of all five ends the turn, as in the
game engine (:func:`yahtzee_solver.game.cpu_actions`) --, and each final roll onto its box
(:func:`~yahtzee_solver.solver.kernels.play_box`; ties to the lower box).  The layers of
states reachable from the start are then solved from the full card backwards,
the states of a layer in parallel.  Each ``D_s`` is stored only over its support
``lo_s..hi_s``.  One state per class of equivalent upper subtotals is solved
(:func:`yahtzee_solver.solver.build.upper_representatives`; the others have the
same ``D_s``, bit for bit, and read it), and about one layer is held at a time:
a layer's rows are ordered by when the layer before it stops reading them, a
layer is solved in slices (each slice's turn outcomes found and at once summed
into its rows, so a layer's outcomes are never all held), the rows read no
more give their memory back slice by slice (:func:`_release`) -- those of a small layer
are instead written over by the layer two later (:class:`_RowMemory`) --, and the rows of a
big layer are packed as summed: the top of a row, where only every 5th total has
a positive probability (Yahtzee bonuses, boxes of 25 to 50 points), holds those
totals only (:class:`_Layer`; the totals left out are exactly 0, so no sum changes).  Once the
first big layer is solved, LLVM's code pages leave the resident set (the kernels are loaded;
:func:`yahtzee_solver.solver.jit.release_compiler_pages`), and the state index is int32.  Results are float64 sums of exact probabilities: they add up to
1 up to rounding (about 1e-15; 1e-14 for the beginner, whose blunders mix more terms).

Example
-------
>>> from yahtzee_solver.strategy.distribution import score_distribution
>>> d = score_distribution(rules="yahtzee-free-joker")   # doctest: +SKIP
>>> round(d.mean, 4), round(d.sd, 4), d.percentile(50)   # doctest: +SKIP
(254.5896, 59.6117, 248)
"""

from __future__ import annotations

import contextlib
import math
import mmap
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from ..solver import jit as _jit
from ..solver import kernels as _kernels
from ..solver.build import reachable_layers, upper_representatives
from ..dice import KEEPS, ROLL_OFFSET, ROLL_SUBKEEPS, ROLLS, parse_dice, roll_index
from ..errors import ScoreCardError, UsageError
from ..rules import N_UPPER, RuleSet, get_rules
from ..state import ScoreCard
from ..solver.table import ValueTable, demand_zeros
from .probability import clip_probability

__all__ = [
    "STRATEGIES",
    "PERCENTILES",
    "THRESHOLDS",
    "ScoreDistribution",
    "score_distribution",
    "option_distributions",
    "turn_start_distributions",
]

#: Policies a distribution can be computed for (``expert`` is accepted as ``optimal``).
STRATEGIES = ("optimal", "normal", "beginner")

#: Percentiles reported by default (of the final score).
PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)

#: Thresholds ``T`` of ``P(final >= T)`` reported by default (points).
THRESHOLDS = (150, 200, 250, 300, 350, 400, 500)

#: States per call of the outcome kernel in :mod:`yahtzee_solver.strategy.reasons` (bounds its
#: scratch arrays: 16 MiB for Yahtzee).
_CHUNK = 2048

#: States per slice of a layer of the distribution: the outcomes of a slice are found and its rows
#: summed at once (scratch of about 3 MiB for Yahtzee), after which the rows no longer read are
#: freed (1024 against 2048: 15 MiB less at the peak of the empty card).  256 held 8 MiB less
#: (the empty card's peak 465 against 474 MiB, the most of any rule set) but paid two parallel
#: regions, each a wait for the last thread, four times as often: the empty Yahtzee card took 3.47
#: against 3.17 s, and two threads gave 1.75 against 1.82 of one thread's speed on an 11-box card.
_CONVOLVE_SLICE = 1024

#: Outcomes a slice's scratch holds (three arrays of 8-byte entries, about 2 MiB each): a layer
#: small enough for recycled rows (:class:`_RowMemory`, where memory does not matter) takes as
#: many states a slice as fill it -- 256 in Yahtzee, whose turns have up to 320 outcomes, 538 in
#: Yacht (152): each slice costs two parallel regions (three when packed), each a wait for the last thread (and a
#: wake-up of 30-50 us when the other thread has gone to sleep).
_SLICE_OUTCOMES = 256 * 320

#: Interpreted wall seconds to solve one turn-start state (about 5.5 ms of CPU on the
#: 2-core test machine under the load that gave :data:`yahtzee_solver.solver.jit.STARTUP_SECONDS`,
#: any policy): :func:`yahtzee_solver.solver.jit.for_work` runs a position with fewer than
#: about 55 states to solve (e.g. 4 open lower boxes, 23 states) interpreted.
_INTERPRETED_STATE_SECONDS = 0.0055


@dataclass(frozen=True)
class ScoreDistribution:
    """The exact distribution of the final score (points) of one game position.

    Attributes
    ----------
    rules : str
        Rule-set name.
    strategy : str
        The policy playing the rest of the game (:data:`STRATEGIES`).
    pmf : (max + 1,) float64, read-only
        ``pmf[s]`` = P(final total = ``s`` points), for ``s`` = 0 .. the greatest
        reachable final total; sums to 1 (up to float rounding).
    card_total : int
        Points already on the card at the position (included in every final total).

    Examples
    --------
    ``d.mean``, ``d.sd``, ``d.percentile(50)``, ``d.prob_at_least(300)``.
    """

    rules: str
    strategy: str
    pmf: np.ndarray = field(repr=False)
    card_total: int = 0

    @property
    def support(self) -> tuple[int, int]:
        """Least and greatest final total of positive probability (points)."""
        nz = np.flatnonzero(self.pmf)
        return int(nz[0]), int(nz[-1])

    @property
    def mean(self) -> float:
        """Expected final total (points)."""
        return float(np.dot(np.arange(len(self.pmf)), self.pmf))

    @property
    def sd(self) -> float:
        """Standard deviation of the final total (points; population SD of the exact distribution)."""
        x = np.arange(len(self.pmf)) - self.mean
        return math.sqrt(max(0.0, float(np.dot(x * x, self.pmf))))

    @property
    def cdf(self) -> np.ndarray:
        """``cdf[s]`` = P(final total <= s), (max + 1,) float64, each in [0, 1] (the sum's rounding clipped)."""
        return clip_probability(np.cumsum(self.pmf))

    def percentile(self, q: float) -> int:
        """The ``q``-th percentile: the least total ``s`` with P(final <= s) >= q/100.

        The inverted-CDF convention of ``simulate`` (numpy's ``inverted_cdf``), so
        always a score the game can end with.

        Raises
        ------
        UsageError
            If ``q`` is outside 0..100.
        """
        if not 0 <= q <= 100:
            raise UsageError(f"invalid percentile {q!r}: want 0 to 100")
        lo, hi = self.support
        if q == 0:
            return lo
        s = int(np.searchsorted(self.cdf, q / 100.0, side="left"))
        return min(max(s, lo), hi)

    def prob_at_least(self, threshold: int) -> float:
        """P(final total >= ``threshold``) (a probability, 0..1).

        The tail's sum with its float rounding clipped to [0, 1]; exactly 1 up to the least
        possible total (:func:`yahtzee_solver.strategy.probability.clip_probability`).
        """
        t = int(threshold)
        if t <= self.support[0]:
            return 1.0
        return clip_probability(float(self.pmf[t:].sum()))

    def to_dict(self, percentiles: Sequence[float] = PERCENTILES,
                thresholds: Sequence[int] = THRESHOLDS) -> dict[str, Any]:
        """Plain data for ``--json``: summary figures and the pmf (from ``min`` on)."""
        lo, hi = self.support
        return {
            "rules": self.rules,
            "strategy": self.strategy,
            "card_total": self.card_total,
            "mean": self.mean,
            "sd": self.sd,
            "min": lo,
            "max": hi,
            "percentiles": {f"p{q}": self.percentile(q) for q in percentiles},
            "p_at_least": {str(t): self.prob_at_least(t) for t in thresholds},
            "pmf_start": lo,
            "pmf": [float(x) for x in self.pmf[lo : hi + 1]],
        }


# -- the policy as kernel data -------------------------------------------------------------
@dataclass(frozen=True)
class _Policy:
    name: str
    kind: int
    V: np.ndarray
    policy: np.ndarray
    blunder: float
    made: int
    rkeeps: np.ndarray


def _policy(strategy: str, rules: RuleSet, table: ValueTable | None, jit: bool, filled: int = 0) -> _Policy:
    """The kernel form of a CPU strategy (``players.fixed_strategy``), one definition of each policy.

    The optimal policy reads the value table only at states with the boxes
    ``filled`` filled (:meth:`ValueTable.values_from`: an opened table reads
    and checks the chunks of those states alone).
    """
    from . import players

    name = str(strategy).strip().lower()
    if name == "expert":
        name = "optimal"
    if name not in STRATEGIES:
        raise UsageError(f"unknown strategy {strategy!r} (choose from {', '.join(STRATEGIES)})")
    level = "expert" if name == "optimal" else name
    s = players.fixed_strategy(level, rules, table=table, jit=jit, rng=np.random.default_rng(0))
    no_keeps = np.zeros((1, 1), np.int32)
    if isinstance(s, players.BeginnerStrategy):
        return _Policy(name, 1, np.zeros((1, 1, 1)), rules.arrays()["params"], s.blunder, s.made_mask,
                       players.blunder_keeps())
    assert isinstance(s, players.PolicyStrategy)  # expert or normal
    V = s.table.values_from(filled) if isinstance(s, players.ExpertStrategy) else s.values
    return _Policy(name, 0, V, s.params, 0.0, 0, no_keeps)


# -- reachable states --------------------------------------------------------------------
def _layers(rules: RuleSet, mask0: int, up0: int, yb0: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """States reachable from ``(mask0, up0, yb0)`` with more boxes filled, from the full card down
    (:func:`yahtzee_solver.solver.build.reachable_layers`, the root's own layer left out)."""
    return reachable_layers(rules, (mask0, up0, yb0))[:0:-1]


def _max_outcomes(rules: RuleSet) -> int:
    """An upper bound on the distinct (box, points gained) outcomes of one turn."""
    n = 0
    for c in range(rules.n_categories):
        k = len(rules.possible_points[c]) * (2 if rules.yahtzee_bonus else 1)
        n += k * (2 if c < N_UPPER else 1)
    return n


def _max_gain(rules: RuleSet) -> int:
    a = rules.arrays()
    return int(max(a["score"].max(), a["joker"].max())) + rules.yahtzee_bonus + rules.upper_bonus


@dataclass
class _Layer:
    """The distributions of one layer: state ``i``'s is ``D[off[i]:off[i+1]]`` over ``lo[i]..hi[i]``.

    Row ``i`` is packed (:func:`yahtzee_solver.solver.kernels.dist_convolve`): its first ``dense[i]``
    entries are the probabilities of ``lo[i]``, ``lo[i] + 1``, ..., the others those of every
    ``stride``-th total from there on up to ``hi[i]`` (the totals between have probability
    exactly 0); :func:`_row` unpacks it.  ``top[i]`` is the total (from ``lo[i]``) above which
    only every 5th total down from ``hi[i]`` is positive, whether packed or not
    (:func:`~yahtzee_solver.solver.kernels.row_top`): the layer before packs its rows by it.  ``death[i]``, when given, is the position of the last state of the layer before (one box
    fewer, solved in its order) that can read row ``i``; the rows are in that order, so a
    prefix of ``D`` is read no more once the layer before is solved that far (:func:`_release`).
    """

    lo: np.ndarray
    hi: np.ndarray
    off: np.ndarray
    D: np.ndarray
    dense: np.ndarray
    top: np.ndarray
    stride: int = 1
    death: np.ndarray | None = None
    #: The whole mapping ``D`` is a view of, when it came from a :class:`_RowMemory` (not given back as read).
    mapping: np.ndarray | None = None


#: A layer whose rows reserve at most this many entries (128 MiB) sums them into recycled memory
#: (:class:`_RowMemory`); a bigger one into a fresh mapping, given back as read (:func:`_release`).
_RECYCLE_ENTRIES = (128 << 20) // 8


class _RowMemory:
    """Memory for the rows of the small layers of one distribution, recycled from layer to layer.

    A fresh page of a layer's rows costs a fault and its zeroing when first written (in
    the parallel kernels, where two threads faulting in one mapping wait on each other)
    and a release once read (on one thread, about 0.7 us a page of 4 KiB).  A layer
    whose rows reserve at most :data:`_RECYCLE_ENTRIES` instead writes over the mapping
    of the layer two before it, which nothing reads any more: each row is zeroed by
    :func:`~yahtzee_solver.solver.kernels.dist_convolve` before it is summed, so what was
    there is never read, and the bits are the same.  The card's peak is in its big
    layers (Yahtzee's empty card: 62 to 332 MiB of rows each), which keep fresh
    mappings given back as read; the spare is dropped before one of them is solved.
    One per distribution (not thread-safe).
    """

    def __init__(self) -> None:
        self._spare: np.ndarray | None = None

    def take(self, entries: int) -> tuple[np.ndarray, np.ndarray | None]:
        """``(D, mapping)``: room for ``entries`` float64 (not zeroed when recycled), and its mapping
        when it is to be recycled (``None``: a fresh one for a big layer)."""
        spare, self._spare = self._spare, None
        if entries > _RECYCLE_ENTRIES:
            del spare  # its pages go back before the big layer takes its own
            return demand_zeros((entries,)), None
        if spare is None:
            spare = demand_zeros((_RECYCLE_ENTRIES,))
        return spare[:entries], spare

    def give(self, layer: _Layer) -> None:
        """``layer`` is read no more: its mapping, if recycled, holds the rows of a layer to come."""
        if layer.mapping is not None:
            self._spare = layer.mapping
            layer.mapping = None


def _row(L: _Layer, i: int) -> np.ndarray:
    """Row ``i`` of a layer unpacked: ``(hi[i] - lo[i] + 1,)`` float64, P(``lo[i] + j`` points still to come)."""
    a, b, h = int(L.off[i]), int(L.off[i + 1]), int(L.dense[i])
    out = np.zeros(int(L.hi[i] - L.lo[i]) + 1)
    out[:h] = L.D[a : a + h]
    out[h :: L.stride] = L.D[a + h : b]
    return out


def _full_card(n: int) -> _Layer:
    """The layer of the full card: nothing more to come, ``n`` states."""
    return _Layer(np.zeros(n, np.int64), np.zeros(n, np.int64), np.arange(n + 1, dtype=np.int64), np.ones(n),
                  np.ones(n, np.int64), np.zeros(n, np.int64))


def _release(D: np.ndarray, stop: int, start: int = 0) -> None:
    """Give the memory of ``D[start:stop]`` back to the system (its whole pages), read no more.

    ``D`` is a :func:`~yahtzee_solver.solver.table.demand_zeros` array: a private
    anonymous mapping, whose pages ``MADV_DONTNEED`` frees at once.
    """
    buf: Any = D.base
    while isinstance(buf, (np.ndarray, memoryview)):
        buf = buf.base if isinstance(buf, np.ndarray) else buf.obj
    if not isinstance(buf, mmap.mmap) or not hasattr(mmap, "MADV_DONTNEED"):
        return
    begin = -(-(start * D.itemsize) // mmap.PAGESIZE) * mmap.PAGESIZE
    end = min(stop * D.itemsize, len(buf)) // mmap.PAGESIZE * mmap.PAGESIZE
    if end > begin:
        buf.madvise(mmap.MADV_DONTNEED, begin, end - begin)


def _trim_heap() -> None:
    """Give the C heap's free pages back to the system (glibc's ``malloc_trim``; elsewhere nothing).

    The lists of every reachable state, dropped before the first layer is solved, leave
    about 23 MiB free in the middle of the heap (Yahtzee's empty card) that glibc keeps
    resident otherwise; the rows of the layers are mappings of their own (:func:`_release`).
    """
    import ctypes

    try:  # the symbols already loaded: no ``ctypes.util.find_library``, which runs ``ldconfig`` (3 ms)
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, TypeError):
        return
    trim.argtypes = [ctypes.c_size_t]
    trim(0)


def _death_order(C: int, mask0: int, masks: np.ndarray, before: np.ndarray) -> np.ndarray:
    """For each state of a layer with masks ``masks``: the last position in the layer before (one
    box fewer, masks ``before`` in solving order) of a state that can read it (-1: none).

    A state with mask ``m`` is read only by states whose mask is ``m`` less one box not in ``mask0``.
    """
    last = np.full(1 << C, -1, np.int64)
    last[before] = np.arange(before.size)  # fancy assignment keeps the last position of each mask
    death = np.full(masks.size, -1, np.int64)
    for c in range(C):
        if (mask0 >> c) & 1:
            continue
        has = ((masks >> c) & 1) == 1
        death = np.where(has, np.maximum(death, last[masks & ~(1 << c)]), death)
    return death


def _reversed_bits(C: int) -> np.ndarray:
    """``(2**C,) int64``: each mask with its ``C`` bits in reverse order (box ``c`` to bit ``C - 1 - c``)."""
    m = np.arange(1 << C, dtype=np.int64)
    out = np.zeros_like(m)
    for c in range(C):
        out |= ((m >> c) & 1) << (C - 1 - c)
    return out


def _solve_layer(k: ModuleType, pol: _Policy, rules: RuleSet, states: Sequence[np.ndarray],
                 r0: int, rl0: int, index: np.ndarray, nxt: _Layer,
                 k0: int = -1, rows: _RowMemory | None = None) -> _Layer:
    """Distributions of the points still to come from every state of one layer (rows in fresh
    memory, or in ``rows``' recycled memory; ``nxt`` is given back to ``rows`` once read)."""
    with _threads(k is not _jit.interpreted(), len(states[0])):
        out = _solve_layer_threads(k, pol, rules, states, r0, rl0, index, nxt, k0, rows)
    if rows is not None:
        rows.give(nxt)
    return out


def _solve_layer_threads(k: ModuleType, pol: _Policy, rules: RuleSet,
                         states: Sequence[np.ndarray], r0: int, rl0: int, index: np.ndarray,
                         nxt: _Layer, k0: int, rows: _RowMemory | None) -> _Layer:
    masks, ups, ybs = states
    n = len(masks)
    a = rules.arrays()
    gmax = _max_gain(rules)
    cap = min(_max_outcomes(rules), rules.n_categories * (gmax + 1))
    counts = np.empty(n, np.int64)
    lo = np.empty(n, np.int64)
    hi = np.empty(n, np.int64)
    wmax = int((nxt.hi - nxt.lo).max(initial=0)) + gmax + 1
    step = _CONVOLVE_SLICE
    if rows is not None and n * wmax <= _RECYCLE_ENTRIES:
        step = max(step, _SLICE_OUTCOMES // cap)
    m = min(n, step)
    oi = np.empty((m, cap), np.int64)
    og = np.empty((m, cap), np.int64)
    op = np.empty((m, cap), np.float64)
    out_off = np.arange(m, dtype=np.int64) * cap  # where each state's outcomes start in the scratch
    out_end = np.empty(m, np.int64)
    # the rows, in order: reserved for the widest they can be (a next row shifted by any gain) and
    # taken page by page as written (demand_zeros), so the layer's outcomes need not all be known
    # before the first row is summed
    if rows is None:
        D, mapping = demand_zeros((n * wmax,)), None
    else:
        D, mapping = rows.take(n * wmax)
    off = np.zeros(n + 1, np.int64)
    # a big layer's rows are summed packed (dist_dense, then dist_convolve): the top of each row
    # of a Yahtzee layer is mostly every 5th total, about 8 % of the biggest layer's entries (30
    # MiB of the empty card's peak); a small layer's rows (no kernel more to load) and those of
    # rules without a Yahtzee bonus (their rows have next to no zeros: 0.2 % in Yatzy's biggest
    # layer) are whole
    packing = bool(rules.yahtzee_bonus)  # the rows' tops are wanted for the layer before only then
    stride = _TAIL_STRIDE if n >= _PACK_FROM and packing else 1
    dense = np.empty(n, np.int64)
    top = np.zeros(n, np.int64)
    # in slices of states, in order: each slice's outcomes (scratch reused) and then its rows; after
    # each, the rows of the next layer no later state reads (a prefix, see _Layer) give their memory
    # back, so about one layer is held, not two, and never the outcomes of a whole layer
    freed = 0  # entries of nxt.D given back so far (a whole number of pages)
    for s0 in range(0, n, step):
        s1 = min(n, s0 + step)
        with _schedule(k is not _jit.interpreted(), _OUTCOME_BLOCKS):
            k.dist_outcomes(
                masks[s0:s1], ups[s0:s1], ybs[s0:s1], r0, rl0, k0, pol.kind, pol.V, a["score"], a["joker"],
                pol.policy, a["params"], ROLL_SUBKEEPS, pol.blunder, pol.made, pol.rkeeps,
                index, nxt.lo, nxt.hi, gmax, oi, og, op, counts[s0:s1], lo[s0:s1], hi[s0:s1],
            )
        # state i's outcomes are the first counts[i] of row i of the scratch, read in place (the
        # kernels take each row's start and end)
        np.add(out_off[: s1 - s0], counts[s0:s1], out=out_end[: s1 - s0])
        width = hi[s0:s1] - lo[s0:s1] + 1
        ui, ug, up = oi.reshape(-1), og.reshape(-1), op.reshape(-1)
        h = dense[s0:s1]
        if stride > 1:
            k.dist_dense(out_off[:s1 - s0], out_end[:s1 - s0], ui, ug, lo[s0:s1], hi[s0:s1], nxt.lo, nxt.hi,
                         nxt.top, stride, h)
        else:
            h[:] = width
        np.cumsum(h + (width - h + stride - 1) // stride, out=off[s0 + 1:s1 + 1])
        off[s0 + 1:s1 + 1] += off[s0]
        k.dist_convolve(out_off[:s1 - s0], out_end[:s1 - s0], ui, ug, up, lo[s0:s1], off[s0:s1 + 1], D, nxt.lo,
                        nxt.off, nxt.D,
                        nxt.dense, nxt.stride, h, stride, top[s0:s1], packing)
        del ui, ug, up
        if nxt.death is not None and nxt.mapping is None:  # a recycled mapping keeps its pages
            stop = int(nxt.off[np.searchsorted(nxt.death, s1)])
            if stop - freed >= _RELEASE_STEP:
                _release(nxt.D, stop, freed)
                freed = stop - stop % _PAGE_ENTRIES  # the page holding ``stop`` is given back next time
    D = D[: int(off[-1])]
    return _Layer(lo, hi, off, D, dense, top, stride, mapping=mapping)


#: Entries of a layer's rows (float64) in one page of memory.
_PAGE_ENTRIES = mmap.PAGESIZE // 8

#: Rows read no more are given back (:func:`_release`) once they make at least this many entries
#: (2 MiB): each ``madvise`` call costs about 0.1 ms, which a small card's slices do not repay.
_RELEASE_STEP = (2 << 20) // 8

#: The stride of the packed top of a row (:class:`_Layer`).
_TAIL_STRIDE = _kernels.TAIL_STRIDE

#: Layers with at least this many states to solve have their rows packed (:class:`_Layer`), under
#: rules with a Yahtzee bonus.
_PACK_FROM = 4096

#: Once the first layer of at least this many states is solved (with it every kernel a
#: distribution calls has run, :data:`_PACK_FROM` included) into rows of its own mapping (a big
#: layer, not recycled: :class:`_RowMemory`), LLVM's code pages leave the resident set
#: (:func:`yahtzee_solver.solver.jit.release_compiler_pages`: about 60 MiB of the empty card's
#: peak; 15-30 ms, reading ``/proc/self/smaps``, so once per distribution, and not for cards whose
#: layers are small enough that their memory does not matter, such as Yacht's empty card, whose
#: peak is 200 MiB).
_RELEASE_COMPILER_FROM = 16384

#: ``prange`` iterations per chunk a thread takes: states of the convolution (about 0.1 ms of
#: work each), and blocks of 32 states of the outcome kernel (``kernels.DIST_TILE``), so that
#: a thread slowed by other processes takes fewer chunks instead of holding up the layer.
_CONVOLVE_STATES = 64
_OUTCOME_BLOCKS = 1


def _schedule(jit: bool, chunk: int = _CONVOLVE_STATES) -> contextlib.AbstractContextManager[Any]:
    if not jit:
        return contextlib.nullcontext()
    numba = _jit.started_numba()
    schedule: contextlib.AbstractContextManager[Any] = numba.parallel_chunksize(chunk)
    return schedule


#: Layers with fewer states run on one thread: waking the others costs more than they save.  With
#: the short spin of idle threads (:data:`yahtzee_solver.solver.jit.SPIN_COUNT`) a layer pays one
#: wake-up, not one per parallel region: an 11-open-box card's layers of 436 and 487 states (about
#: 10 ms on one thread) run on two.
_SERIAL_BELOW = 128


def _threads(jit: bool, n: int) -> contextlib.AbstractContextManager[int]:
    """The threads for a layer of ``n`` states: one for a small layer, else those with a core free
    (:func:`yahtzee_solver.solver.jit.threads_for`)."""
    return _jit.threads_for(jit, 1 if n < _SERIAL_BELOW else None)


class _Engine:
    """The distributions of every state reachable after the current turn of one position.

    ``start`` then gives the distribution of the points still to come from any
    start inside that turn (its first roll, dice showing, a keep just chosen);
    ``starts`` says how many will be asked for, which with the states to solve
    sizes the job for :func:`yahtzee_solver.solver.jit.for_work` (compiled or interpreted).
    """

    def __init__(self, rules: RuleSet, state: tuple[int, int, int], pol: _Policy, *, jit: bool = True,
                 progress: bool = False, starts: int = 1) -> None:
        self.rules, self.pol = rules, pol
        self.state = tuple(int(x) for x in state)
        mask0, up0, yb0 = self.state
        C, T, F = rules.n_categories, rules.upper_threshold, rules.n_flags
        self.index = demand_zeros((1 << C, T + 1, F), np.int32)  # written at the reachable states only
        layers = _layers(rules, mask0, up0, yb0)
        sizes = [len(m) for m, _, _ in layers]
        # one state per class of equivalent upper subtotals is solved; the others read its row
        reps = [upper_representatives(rules, *layer) for layer in layers]
        #: Turn-start states solved (one per class of equivalent upper subtotals).
        self.n_solved = sum(len(first) for first, _ in reps)
        # a small card runs interpreted when that beats numba's start-up (one kernel source)
        self.k = _jit.for_work(starts + self.n_solved, _INTERPRETED_STATE_SECONDS, jit)
        self.jit = jit = self.k is not _jit.interpreted()
        plan = self._plan(layers, reps)
        del layers, reps
        _trim_heap()  # the freed lists of all states are scattered through the C heap
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=sum(sizes), unit="state", unit_scale=True, desc=f"distribution {rules.name}")
        cur = None
        released = False
        rows = _RowMemory()  # dropped with this call: the spare mapping's pages go back
        try:
            with _schedule(jit):
                while plan:  # each layer's state lists are dropped once it is solved
                    qmasks, qups, qybs, qdeath = plan.pop(0)
                    n = len(qmasks)
                    if cur is None:  # the full card: nothing more to come
                        cur = _full_card(n)
                    else:
                        wide = (qmasks.astype(np.int64), qups.astype(np.int64), qybs.astype(np.int64))
                        cur = _solve_layer(self.k, pol, rules, wide, -1, 2, self.index, cur, rows=rows)
                        del wide
                        if n >= _RELEASE_COMPILER_FROM and cur.mapping is None and not released:  # every kernel has run
                            _jit.release_compiler_pages()
                            released = True
                    cur.death = None if qdeath is None else qdeath.astype(np.int64)
                    if bar is not None:
                        bar.update(sizes.pop(0))
        finally:
            if bar is not None:
                bar.close()
        if cur is not None and cur.mapping is not None:  # kept for start(): its own pages only
            cur.D, cur.mapping = cur.D.copy(), None
        self.next = cur  # None for a full card

    def _plan(self, layers: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
              reps: list[tuple[np.ndarray, np.ndarray]]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]]:
        """The states solved, layer by layer from the full card, and the index of every state.

        Each layer but the last (the one after the root's, kept whole for :meth:`start`) is in
        the order in which the layer after it stops reading its rows (``death``, see
        :class:`_Layer`); ties are broken by the masks read with their boxes in reverse (the
        last box the most significant), so the rows of a state are read by states close
        together (about 25 MiB lower peak for the empty card, Yahtzee).  Every state's row
        position goes into ``self.index`` here, before any layer is solved (the layers' masks
        are disjoint, and solving a layer reads the index at the layer after it only), so the
        lists of all reachable states are dropped at once; the states solved are kept in the
        narrow integers (int32 masks, int16 upper subtotals, int8 flags;
        ``death`` int32) and widened one layer at a time: about 20 MiB less at the empty
        card's peak (Yahtzee).

        Returns
        -------
        list of (masks int32, ups int16, ybs int8, death int32 or None)
            The states to solve of each layer, in solving order, and their ``death``.
        """
        C = self.rules.n_categories
        mask0 = self.state[0]
        key = _reversed_bits(C)
        plan: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]] = []
        for j in range(len(layers) - 1, -1, -1):
            masks, ups, ybs = layers[j]
            first, rep = reps[j]
            rmasks = masks[first]
            death = _death_order(C, mask0, rmasks, plan[0][0]) if plan else None
            perm = np.lexsort((key[rmasks],) if death is None else (key[rmasks], death))
            inv = np.empty_like(perm)
            inv[perm] = np.arange(perm.size)
            self.index[masks, ups, ybs] = inv[rep]
            order = first[perm]
            plan.insert(0, (masks[order].astype(np.int32), ups[order].astype(np.int16), ybs[order].astype(np.int8),
                            None if death is None else death[perm].astype(np.int32)))
        return plan

    def start(self, *, roll: int = -1, rolls_left: int = 2, keep: int = -1) -> tuple[int, np.ndarray]:
        """``(lo, pmf)`` of the points still to come: ``pmf[j]`` = P(``lo + j`` more points).

        ``keep >= 0``: keep index just chosen with ``rolls_left`` (1, 2) rerolls;
        else ``roll >= 0``: roll index showing with ``rolls_left`` (0..2); else the turn's start.
        """
        if self.next is None:
            return 0, np.ones(1)
        start = tuple(np.array([x], np.int64) for x in self.state)
        with _schedule(self.jit):
            res = _solve_layer(self.k, self.pol, self.rules, start, roll, rolls_left, self.index, self.next, keep)
        return int(res.lo[0]), _row(res, 0)

    def after_box(self, roll: int, box: int) -> tuple[int, np.ndarray]:
        """``(lo, pmf)`` of the points still to come after scoring roll ``roll`` in box ``box`` (gain included)."""
        C = self.rules.n_categories
        a = self.rules.arrays()
        mask, up, yb = self.state
        box_of = np.full(252, -1, np.int64)
        box_of[roll] = box
        gain, nm, nu, ny = (np.zeros(252, np.int64) for _ in range(4))
        _jit.interpreted().roll_gains(mask, up, yb, box_of, a["score"], a["joker"], a["params"],
                                      np.empty(C, np.int64), np.empty(C, np.int8), gain, nm, nu, ny)
        nxt = (int(nm[roll]), int(nu[roll]), int(ny[roll]))
        points = int(gain[roll])
        if self.next is None or nxt[0] == self.rules.full_mask:
            return points, np.ones(1)
        i = int(self.index[nxt[0], nxt[1], nxt[2]])
        L = self.next
        return points + int(L.lo[i]), _row(L, i)


def _remaining(rules: RuleSet, state: tuple[int, int, int], pol: _Policy, *, roll: int = -1, rolls_left: int = 2,
                            jit: bool = True, progress: bool = False) -> tuple[int, np.ndarray]:
    """Pmf of the points still to come from one position (internal engine of :func:`score_distribution`).

    Returns
    -------
    lo : int
        Least points still to come.
    pmf : (hi - lo + 1,) float64
        ``pmf[j]`` = P(points still to come = ``lo + j``).
    """
    return _Engine(rules, state, pol, jit=jit, progress=progress).start(roll=roll, rolls_left=rolls_left)


def _final(rules: RuleSet, pol: _Policy, card: ScoreCard, lo: int, rem: np.ndarray) -> ScoreDistribution:
    base = card.total + lo
    pmf = np.zeros(base + len(rem))
    pmf[base:] = rem
    pmf.setflags(write=False)
    return ScoreDistribution(rules.name, pol.name, pmf, card.total)


def _position_roll(card: ScoreCard, dice: str | Sequence[int], rolls_left: int, table: ValueTable | None) -> int:
    """The roll index of a position inside a turn, after checking it (one check for every option evaluation).

    Raises
    ------
    ScoreCardError
        A full card.
    UsageError
        ``rolls_left`` not 0, 1 or 2; a table of other rules.
    DiceError
        Bad dice.
    """
    rules = card.rules
    if card.is_full:
        raise ScoreCardError("the card is full: the game is over, there are no dice to play")
    if isinstance(rolls_left, bool) or rolls_left not in (0, 1, 2):
        raise UsageError(f"invalid rolls-left {rolls_left!r}: want 0, 1 or 2")
    if table is not None and table.rules != rules:
        raise UsageError(f"table is for rules {table.rules.name!r}, not {rules.name!r}")
    r = roll_index(parse_dice(dice))
    return r


def option_distributions(card: ScoreCard, dice: str | Sequence[int], rolls_left: int, *,
                         table: ValueTable | None = None, strategy: str = "optimal", jit: bool = True,
                         progress: bool = False) -> dict[tuple[int, ...] | int, ScoreDistribution]:
    """The final-score distribution after each option of a position, with ``strategy`` play afterwards.

    Parameters
    ----------
    card : ScoreCard
    dice : str or sequence of int
        The five dice showing.
    rolls_left : int
        0: the options are the boxes; 1 or 2: the keeps (all five: scoring now, in the box ``strategy``
        picks for the dice; there is no pass).
    table, strategy, jit, progress
        As in :func:`score_distribution`.

    Returns
    -------
    dict
        ``{keep faces (sorted tuple): ScoreDistribution}`` for every distinct keep,
        or ``{box index: ScoreDistribution}`` for every legal box.

    Raises
    ------
    UsageError, DiceError, ScoreCardError
        As :func:`score_distribution`; a full card.
    """

    rules = card.rules
    r = _position_roll(card, dice, rolls_left, table)
    pol = _policy(strategy, rules, table, jit, card.key.mask)
    eng = _Engine(rules, card.key, pol, jit=jit, progress=progress,
                  starts=int((ROLL_SUBKEEPS[r] >= 0).sum()) if rolls_left else 1)
    out: dict[tuple[int, ...] | int, ScoreDistribution] = {}
    if rolls_left:
        for k in ROLL_SUBKEEPS[r]:
            if k < 0:
                break
            if k >= ROLL_OFFSET:  # keeping all five rerolls nothing: the dice are scored now (there is no pass)
                out[KEEPS[k]] = _final(rules, pol, card, *eng.start(roll=r, rolls_left=0))
                continue
            out[KEEPS[k]] = _final(rules, pol, card, *eng.start(keep=int(k), rolls_left=rolls_left))
    else:
        _, legal, _ = card.box_points(ROLLS[r])
        for c, ok in enumerate(legal):
            if ok:
                out[c] = _final(rules, pol, card, *eng.after_box(r, c))
    return out


def score_distribution(
    card: ScoreCard | None = None,
    rules: str | RuleSet | None = None,
    *,
    dice: str | Sequence[int] | None = None,
    rolls_left: int | None = None,
    strategy: str = "optimal",
    table: ValueTable | None = None,
    jit: bool = True,
    progress: bool = False,
) -> ScoreDistribution:
    """The exact distribution of the final score of a position under a policy.

    Parameters
    ----------
    card : ScoreCard, optional
        The scorecard (default: the empty card of ``rules``).
    rules : str or RuleSet, optional
        Default: the card's rules, else ``yahtzee``.
    dice : str or sequence of int, optional
        Five dice showing inside a turn; ``None`` = the position is the start
        of a turn (before its first roll).
    rolls_left : int, optional
        With ``dice``: rerolls still allowed this turn, 0..2 (default 2,
        right after the first roll).
    strategy : str
        ``optimal`` (the value table's policy; ``expert`` is the same), ``normal``
        or ``beginner`` (the CPU levels of :mod:`yahtzee_solver.strategy.players`, the
        beginner's blunders averaged exactly).
    table : ValueTable, optional
        The value table for ``optimal`` (default: the shipped table).
    jit : bool
        Compiled kernels allowed (default): a position with few states to solve
        still runs interpreted when that is faster than numba's start-up
        (:func:`yahtzee_solver.solver.jit.for_work`).  ``False`` runs them interpreted
        whatever the size: only for small problems (a card with a few open boxes).
    progress : bool
        A tqdm bar over the states (stderr).

    Returns
    -------
    ScoreDistribution

    Raises
    ------
    UsageError
        Unknown strategy, ``rolls_left`` outside 0..2 or given without dice,
        a table of other rules.
    DiceError
        Bad dice.
    ScoreCardError
        A card of other rules, or a full card with dice.
    TableError
        Missing or corrupt table.
    """
    if rules is None:
        rules = card.rules if card is not None else "yahtzee"
    rules = get_rules(rules)
    if card is None:
        card = ScoreCard.empty(rules)
    if not isinstance(card, ScoreCard):
        raise ScoreCardError(f"invalid card {card!r}: want a ScoreCard")
    if card.rules != rules:
        raise ScoreCardError(f"card is for rules {card.rules.name!r}, not {rules.name!r}")
    if table is not None and table.rules != rules:
        raise UsageError(f"table is for rules {table.rules.name!r}, not {rules.name!r}")
    r = -1
    rl = 2
    if dice is not None:
        if card.is_full:
            raise ScoreCardError("the card is full: the game is over, there are no dice to play")
        r = roll_index(parse_dice(dice))
        rl = 2 if rolls_left is None else rolls_left
        if isinstance(rl, bool) or rl not in (0, 1, 2):
            raise UsageError(f"invalid rolls-left {rolls_left!r}: want 0, 1 or 2")
    elif rolls_left is not None:
        raise UsageError("rolls-left needs the dice showing (a position inside a turn)")
    pol = _policy(strategy, rules, table, jit, card.key.mask)
    lo, rem = _remaining(rules, card.key, pol, roll=r, rolls_left=int(rl), jit=jit, progress=progress)
    return _final(rules, pol, card, lo, rem)



def turn_start_distributions(cards: Sequence[ScoreCard], *, strategy: str = "optimal",
                             table: ValueTable | None = None, jit: bool = True,
                             progress: bool = False) -> list[ScoreDistribution]:
    """The final-score distributions from several turn-start cards, in one backward pass.

    The same distributions as :func:`score_distribution` of each card (before
    its turn's first roll), with each state solved once: the layers solved are
    the union of the states reachable from the cards, from the full card
    backwards, and a card's distribution is read off its own layer when that
    layer is solved.  So the cards of every player of a game at every round
    cost about one :func:`score_distribution` from the earliest of them
    (cards with one box filled: most of the states of the empty card's pass).

    Parameters
    ----------
    cards : sequence of ScoreCard
        Cards of one rule set, at the start of a turn (a full card gives its total).
    strategy, table, jit, progress
        As in :func:`score_distribution`.

    Returns
    -------
    list of ScoreDistribution
        One per card, in order (equal cards share one).

    Raises
    ------
    ScoreCardError
        No card, or cards of different rules.
    UsageError, TableError
        As :func:`score_distribution`.
    """
    cards = list(cards)
    if not cards:
        raise ScoreCardError("no card: want at least one")
    rules = cards[0].rules
    if any(c.rules != rules for c in cards):
        raise ScoreCardError("the cards are of different rules")
    if table is not None and table.rules != rules:
        raise UsageError(f"table is for rules {table.rules.name!r}, not {rules.name!r}")
    C, T, F = rules.n_categories, rules.upper_threshold, rules.n_flags
    keys: list[tuple[int, int, int]] = sorted({(int(c.key[0]), int(c.key[1]), int(c.key[2])) for c in cards})
    filled = (1 << C) - 1
    for k in keys:
        filled &= k[0]
    pol = _policy(strategy, rules, table, jit, filled)
    # the union of the reachable states, per number of filled boxes
    per_pop: dict[int, list[np.ndarray]] = {}
    for k in keys:
        p0 = bin(k[0]).count("1")
        for i, (m, u, y) in enumerate(reachable_layers(rules, k)):
            per_pop.setdefault(p0 + i, []).append((m * (T + 1) + u) * F + y)
    layers = []
    for p in sorted(per_pop, reverse=True):  # the full card first
        code = np.unique(np.concatenate(per_pop[p]))
        layers.append((code // (F * (T + 1)), (code // F) % (T + 1), code % F))
    wanted: dict[int, list[tuple[int, int, int]]] = {}
    for k in keys:
        wanted.setdefault(bin(k[0]).count("1"), []).append(k)
    n_states = sum(len(m) for m, _, _ in layers)
    k_mod = _jit.for_work(n_states, _INTERPRETED_STATE_SECONDS, jit)
    use_jit = k_mod is not _jit.interpreted()
    index = demand_zeros((1 << C, T + 1, F), np.int32)
    got: dict[tuple[int, int, int], tuple[int, np.ndarray]] = {}
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=n_states, unit="state", unit_scale=True, desc=f"distributions {rules.name}")
    cur: _Layer | None = None
    released = False
    rows = _RowMemory()
    try:
        with _schedule(use_jit):
            for masks, ups, ybs in layers:
                n = len(masks)
                if cur is None:  # the full card: nothing more to come
                    cur = _full_card(n)
                else:
                    cur = _solve_layer(k_mod, pol, rules, (masks, ups, ybs), -1, 2, index, cur, rows=rows)
                    if n >= _RELEASE_COMPILER_FROM and cur.mapping is None and not released:  # every kernel has run
                        _jit.release_compiler_pages()
                        released = True
                index[masks, ups, ybs] = np.arange(n)
                pop = bin(int(masks[0])).count("1")
                for k in wanted.get(pop, ()):
                    i = int(index[k])
                    got[k] = (int(cur.lo[i]), _row(cur, i))
                if bar is not None:
                    bar.update(n)
    finally:
        if bar is not None:
            bar.close()
    return [_final(rules, pol, c, *got[(int(c.key[0]), int(c.key[1]), int(c.key[2]))]) for c in cards]
