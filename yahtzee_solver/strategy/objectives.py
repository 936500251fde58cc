"""Play to reach a target score or to win: exact DPs over a score offset, as value sources.

The expected-value table answers "how many points on average"; a player chasing
a number or an opponent needs another objective.  This module solves, for the
turn-start states reachable from one scorecard (the *root*), the vectors of
:mod:`yahtzee_solver.solver.utility_kernels`: the best achievable expectation of a
utility of the final total, for every number of points gained since the root.

* :func:`target_utility` -- ``u(t) = 1 if t >= T`` : the probability of finishing
  with a total of at least ``T``.
* :func:`win_utility` -- ``u(t) = P(opp < t) + P(opp = t) / 2`` for an opponent
  whose final total has a known distribution: the probability of winning, a
  draw counting half.

:func:`solve_utility` runs the DP layer by layer (most boxes filled first,
states of a layer in parallel) and returns a :class:`UtilitySolution`.
:class:`TargetSource` and :class:`WinSource` wrap it in the value-source
contract of the policy layer (``keep_values`` / ``box_values``, values in
probability units), so ranking and play use one policy code path.

Example
-------
>>> from yahtzee_solver import parse_card
>>> from yahtzee_solver.strategy.objectives import TargetSource
>>> src = TargetSource("yahtzee", 300)
>>> card = parse_card("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,"
...                   "three-of-a-kind=20,four-of-a-kind=20,full-house=25,small-straight=30,large-straight=40")
>>> src.probability(card)          # doctest: +SKIP
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..solver import jit as _jit
from ..solver import kernels as _kernels
from ..solver import utility_kernels as _uk
from ..solver.build import reachable_layers, upper_representatives
from ..dice import N_KEEPS, N_ROLLS
from ..errors import UsageError
from ..rules import N_UPPER, P_NCAT, RuleSet, get_rules
from ..state import ScoreCard, StateKey
from ..solver.table import ValueTable
from .probability import clip_probability, tail_probabilities

#: ``progress(done_states, all_states)``, called after each layer.
Progress = Callable[[int, int], object]

__all__ = [
    "Utility",
    "target_utility",
    "win_utility",
    "UtilitySolution",
    "solve_utility",
    "utility_work",
    "UtilityWork",
    "curve_work",
    "max_points_to_come",
    "max_points_gained",
    "TargetSource",
    "WinSource",
    "TargetCurve",
    "target_curve",
    "opponent_pmf",
    "survival",
    "first_place_utility",
    "first_place_chances",
]


@dataclass(frozen=True)
class Utility:
    """A utility of the final total, seen from a root total ``t0``.

    Attributes
    ----------
    values : (J+1,) float64
        ``values[j]`` = utility of finishing with ``t0 + j`` points; constant from
        ``j = J`` on (every larger total is worth ``values[J]``).
    low : int
        ``values[j] == values[0]`` for every ``j < low``: below ``t0 + low`` the
        utility is flat, so states that cannot climb out of that region are
        worth ``values[0]`` without computing them.
    """

    values: np.ndarray
    low: int

    @property
    def J(self) -> int:
        """Largest offset stored (points above the root total)."""
        return int(self.values.shape[0]) - 1


def _flat_prefix(values: np.ndarray) -> int:
    diff = np.flatnonzero(values != values[0])
    return int(diff[0]) if diff.size else values.shape[0]


def target_utility(target: int, total: int) -> Utility:
    """``u(t) = [t >= target]`` seen from a card holding ``total`` points.

    Parameters
    ----------
    target : int
        Points to reach (>= 0).
    total : int
        Points already on the root card.
    """
    J = max(int(target) - int(total), 0)
    values = np.zeros(J + 1)
    values[J] = 1.0
    values.setflags(write=False)
    return Utility(values, J)


def win_utility(opponent_pmf: np.ndarray, total: int) -> Utility:
    """``u(t) = P(opp < t) + P(opp = t) / 2``: the chance of beating an opponent, a draw counting half.

    Parameters
    ----------
    opponent_pmf : (n,) array of float
        ``opponent_pmf[t]`` = probability that the opponent finishes with ``t``
        points (sums to 1; non-negative).
    total : int
        Points already on the root card (mine).

    Raises
    ------
    UsageError
        If the distribution is empty, negative or does not sum to 1 (within 1e-9).
    """
    p = np.asarray(opponent_pmf, dtype=np.float64)
    if p.ndim != 1 or p.size == 0 or not np.all(np.isfinite(p)) or p.min() < 0 or abs(p.sum() - 1.0) > 1e-9:
        raise UsageError("invalid opponent distribution: want non-negative probabilities per final total, summing to 1")
    nz = np.flatnonzero(p > 0)
    hi = int(nz[-1])
    total = int(total)
    J = max(hi + 1 - total, 0)
    t = total + np.arange(J + 1)
    cdf = np.concatenate(([0.0], np.cumsum(p)))  # cdf[t] = P(opp < t)
    below = cdf[np.minimum(t, p.size)]
    at = np.where(t < p.size, p[np.minimum(t, p.size - 1)], 0.0)
    values = np.minimum(below + at / 2.0, 1.0)
    values[t > hi] = 1.0
    # stop where the utility is 1.0 in float64 from there on (a tail thinner than half an ulp, such as the
    # Yahtzee bonuses' totals): a state at such an offset is worth exactly 1.0, so every value keeps its bits
    # and the DP skips the offsets above (about 13 % of them for the expert from the empty Yahtzee card)
    below_one = np.flatnonzero(values < 1.0)
    values = values[: int(below_one[-1]) + 2 if below_one.size else 1]
    values.setflags(write=False)
    return Utility(values, _flat_prefix(values))


def max_points_to_come(rules: RuleSet, masks: Sequence[int] | np.ndarray, ups: Sequence[int] | np.ndarray,
                       ybs: Sequence[int] | np.ndarray) -> np.ndarray:
    """An upper bound on the points still to come from each turn-start state.

    The most each open box can hold (Joker points included), the upper bonus
    while it is still open, and the Yahtzee bonus on every later turn where it
    could still be earned.  Used only to skip offsets whose value is known.

    Returns
    -------
    (n,) int64
    """
    a = rules.arrays()
    best = np.maximum(a["score"].max(axis=0), a["joker"].max(axis=0)).astype(np.int64)
    masks = np.asarray(masks, np.int64)
    C = rules.n_categories
    out = np.zeros(masks.shape, np.int64)
    n_open = np.zeros(masks.shape, np.int64)
    upper_open = np.zeros(masks.shape, bool)
    for c in range(C):
        is_open = ((masks >> c) & 1) == 0
        out += np.where(is_open, best[c], 0)
        n_open += is_open
        if c < N_UPPER:
            upper_open |= is_open
    out += np.where(upper_open & (np.asarray(ups) < rules.upper_threshold), rules.upper_bonus, 0)
    if rules.yahtzee_bonus:
        y = rules.yahtzee_category
        y_open = ((masks >> y) & 1) == 0
        chances = np.where(np.asarray(ybs) == 1, n_open, np.where(y_open, n_open - 1, 0))
        out += rules.yahtzee_bonus * np.maximum(chances, 0)
    return out


def _most_to_come(rules: RuleSet, masks: Sequence[int] | np.ndarray, ups: Sequence[int] | np.ndarray,
                  ybs: Sequence[int] | np.ndarray) -> np.ndarray:
    """:func:`max_points_to_come` without the upper bonus where the open upper boxes cannot reach it.

    Still a bound that only falls along a game (a state's bound is at least the points of its turn
    plus the next state's bound), which :class:`_OffsetRanges` needs: a bonus reachable from a
    state is reachable from every state before it.
    """
    masks = np.asarray(masks, np.int64)
    ups = np.asarray(ups, np.int64)
    out = max_points_to_come(rules, masks, ups, ybs)
    a = rules.arrays()
    best = np.maximum(a["score"].max(axis=0), a["joker"].max(axis=0)).astype(np.int64)
    room = np.zeros(masks.shape, np.int64)  # the most the open upper boxes can still add to the subtotal
    for c in range(N_UPPER):
        room += np.where(((masks >> c) & 1) == 0, best[c], 0)
    counted = (room > 0) & (ups < rules.upper_threshold)
    out -= np.where(counted & (ups + room < rules.upper_threshold), rules.upper_bonus, 0)
    return out


def max_points_gained(rules: RuleSet, root: Sequence[int], masks: Sequence[int] | np.ndarray,
                      ups: Sequence[int] | np.ndarray, ybs: Sequence[int] | np.ndarray) -> np.ndarray:
    """An upper bound on the points a card can have gained from the turn-start state ``root`` to each state.

    The most each box filled since the root can hold (Joker points included) --
    but the upper boxes' exact points while the subtotal is below the threshold
    (``ups - u0``), and 0 for a Yahtzee box scratched since --, the upper bonus
    if it was reached since, and a Yahtzee bonus on every turn after the
    Yahtzee box was scored 50 (none while it is open or scratched): the
    counterpart of :func:`max_points_to_come` from the other end.  A state is
    never reached from the root with more points than this above the root's,
    and a turn adds at most its points to it (the offsets a state reads are
    below its successors' bounds).

    Returns
    -------
    (n,) int64
    """
    a = rules.arrays()
    best = np.maximum(a["score"].max(axis=0), a["joker"].max(axis=0)).astype(np.int64)
    m0, u0, y0 = (int(x) for x in root)
    masks = np.asarray(masks, np.int64)
    ups, ybs = np.asarray(ups, np.int64), np.asarray(ybs, np.int64)
    out = np.zeros(masks.shape, np.int64)
    k = np.zeros(masks.shape, np.int64)  # boxes filled since the root (one a turn)
    for c in range(rules.n_categories):
        new = (((masks >> c) & 1) == 1) & (((m0 >> c) & 1) == 0)
        out += np.where(new, best[c], 0)
        k += new
    thr = rules.upper_threshold
    out += np.where((u0 < thr) & (ups >= thr), rules.upper_bonus, 0)
    # the upper boxes filled since the root hold exactly ups - u0 points while the subtotal is below the
    # threshold (it is not capped then); at the threshold, at most the most each of them can hold
    most_upper = np.zeros(masks.shape, np.int64)
    for c in range(N_UPPER):
        most_upper += np.where((((masks >> c) & 1) == 1) & (((m0 >> c) & 1) == 0), best[c], 0)
    out -= most_upper - np.where(ups < thr, np.minimum(ups - u0, most_upper), most_upper)
    y = rules.yahtzee_category
    if rules.yahtzee_bonus:
        if y >= 0 and rules.n_flags == 2 and not (m0 >> y) & 1:
            # a Yahtzee box filled since the root holds 50 exactly when the flag says so, else 0
            y_new = ((masks >> y) & 1) == 1
            out -= np.where(y_new & (ybs == 0), best[y], 0)
        # a bonus needs the Yahtzee box at 50 before the turn: every turn since the root if it was so at
        # the root, else every turn after the one that scored it
        turns = np.where(ybs == 1, k if y0 == 1 else np.maximum(k - 1, 0), 0)
        out += rules.yahtzee_bonus * turns
    return out


@dataclass
class UtilitySolution:
    """The solved DP from one root card (see :func:`solve_utility`).

    Attributes
    ----------
    rules : RuleSet
    root : StateKey
        Turn-start state of the root card.
    total : int
        Points on the root card.
    utility : Utility
    layers : list of (masks, ups, ybs, lows, W, jmin) or None
        Per layer (root layer first): the states solved -- one per class of
        equivalent upper subtotals (:func:`yahtzee_solver.solver.build.upper_representatives`),
        the one of smallest subtotal --, their first computed offsets, their
        value vectors ``W`` (n, J+1) float64 in probability units, and the
        fewest points gained from the root to reach them.
        Only the root layer (and the one after it) is kept when the solve was
        asked to keep the root only.
    idx : (2**C, T+1, F) int32
        Row of each state in its layer: the row of its class's representative,
        whose values are its own, bit for bit (-1: not reachable from the root).
    seconds : float
        Wall time of the solve.
    n_states : int
        Turn-start states reachable from the root (every one has its values).
    jit : bool
        Compiled kernels (else interpreted) for later queries.
    every_offset : bool
        The root was solved for every offset (see :func:`solve_utility`).
    root_offsets : int
        The root was solved for the offsets ``0..root_offsets`` (``J`` with ``every_offset``).
    """

    rules: RuleSet
    root: StateKey
    total: int
    utility: Utility
    layers: list[Any]
    idx: np.ndarray
    seconds: float
    n_states: int
    jit: bool = True
    every_offset: bool = False
    #: Turn-start states whose turns were solved (one per class of equivalent upper subtotals).
    n_solved: int = 0
    root_offsets: int = 0
    _k: ModuleType | None = field(default=None, repr=False)

    @property
    def J(self) -> int:
        return self.utility.J

    @property
    def root_values(self) -> np.ndarray:
        """(J+1,) float64: value of the root turn-start state at each offset (probability)."""
        root: np.ndarray = self.layers[0][4][0]
        return root

    @property
    def value(self) -> float:
        """Value of the root card (offset 0): e.g. the best P(final >= T)."""
        return float(self.root_values[0])

    def _layer_of(self, key: StateKey) -> int:
        m0 = self.root[0]
        m = key[0]
        if m & m0 != m0:
            return -1
        i = bin(m).count("1") - bin(m0).count("1")
        if i >= len(self.layers) or self.layers[i] is None or self.idx[key[0], key[1], key[2]] < 0:
            return -1
        return i

    def covers(self, key: StateKey, total: int) -> bool:
        """True when the values of ``key`` at ``total`` points (this utility) can be read from this solution."""
        i = self._layer_of(key)
        if i < 0 or i + 1 >= len(self.layers) or self.layers[i + 1] is None:
            return False
        j = int(total) - self.total
        row = self.idx[key[0], key[1], key[2]]
        # offsets below jmin or above jmax cannot occur from the root; in between, every entry a turn reads is exact
        jmax = _OffsetRanges(self.rules, self.root, self.utility, self.root_offsets).jmax(key)
        return 0 <= j and self.layers[i][5][row] <= j and (j <= jmax or j >= self.J)

    def turn_values(self, key: StateKey, total: int, levels: int) -> np.ndarray:
        """Keep values of state ``key`` at ``total`` points: (levels, 462) float64, row ``n-1`` = ``n`` rerolls to go.

        Raises
        ------
        UsageError
            If :meth:`covers` is false.
        """
        if not self.covers(key, total):
            raise UsageError("position not covered by this solution")
        i = self._layer_of(key)
        j = min(int(total) - self.total, self.J)
        Wn = self.layers[i + 1][4]
        if j == self.J:  # at the top every option is worth the constant
            return np.full((levels, N_KEEPS), float(Wn[0, self.J]))
        E = np.empty((3, N_KEEPS, 1))  # one offset: column 0 is offset j
        C = self.rules.n_categories
        a = self.rules.arrays()
        k = self.kernels
        nopt = np.empty(N_ROLLS, np.int64)
        orow, ogain = np.empty((N_ROLLS, C), np.int64), np.empty((N_ROLLS, C), np.int64)
        k.vec_options(key[0], key[1], key[2], self.idx, a["score"], a["joker"], a["params"], _zeros(self.rules),
                      np.empty(C, np.int64), np.empty(C, np.int8), nopt, orow, ogain)
        k.vec_turn(j, j + 1, levels, Wn, nopt, orow, ogain, E[0], E[1], E[2])
        return E[:levels, :, 0].copy()

    def box_values(self, key: StateKey, total: int, roll: int) -> np.ndarray:
        """Value of scoring roll ``roll`` in each box: (C,) float64, NaN where illegal."""
        if not self.covers(key, total):
            raise UsageError("position not covered by this solution")
        i = self._layer_of(key)
        j = int(total) - self.total
        Wn = self.layers[i + 1][4]
        return _box_values(self.rules, key, j, roll, Wn, self.idx, self.J)

    @property
    def kernels(self) -> ModuleType:
        if self._k is None:
            self._k = _jit.module_backend(_uk, self.jit)
        return self._k


_ZEROS: dict[RuleSet, np.ndarray] = {}


def _zeros(rules: RuleSet) -> np.ndarray:
    if rules not in _ZEROS:
        z = np.zeros((1 << rules.n_categories, rules.upper_threshold + 1, rules.n_flags))
        z.setflags(write=False)
        _ZEROS[rules] = z
    return _ZEROS[rules]


def _box_values(rules: RuleSet, key: StateKey, j: int, roll: int, Wn: np.ndarray, idx: np.ndarray,
                J: int) -> np.ndarray:
    """Scoring roll ``roll`` at offset ``j`` in each box: the next state's value at ``j + gain``."""
    a = rules.arrays()
    params = a["params"]
    C = rules.n_categories
    points = np.empty(C, np.int64)
    legal = np.empty(C, np.int8)
    mask, up, yb = key
    bonus = _kernels.box_points(mask, up, yb, roll, a["score"], a["joker"], params, points, legal)
    Z = _zeros(rules)
    out = np.full(C, np.nan)
    for c in range(C):
        if not legal[c]:
            continue
        pts = int(points[c])
        g = int(bonus) + int(_kernels.after_box(mask, up, yb, c, pts, Z, params))
        nu, nyb = up, yb
        if c < N_UPPER:
            nu = min(up + pts, rules.upper_threshold)
        elif c == rules.yahtzee_category and pts > 0 and rules.n_flags == 2:
            nyb = 1
        row = idx[mask | (1 << c), nu, nyb]
        out[c] = Wn[row, min(j + g, J)]
    return out


#: State-offsets per call of the layer kernel (about 0.1 s of one core): a Ctrl-C waits at most that long.
CHUNK_OFFSETS = 100_000

#: Seconds of one core per state-offset of the layer kernel on the 2-core test machine, with the
#: other core busy (``benchmarks/bench_long_dps.py`` prints the rate measured): the expected wait
#: that :func:`utility_work` states before a long solve.
SECONDS_PER_STATE_OFFSET = 1.3e-6


class _OffsetRanges:
    """The offsets a solve computes for each state (see :func:`solve_utility` and the module of the kernels).

    ``root_offsets``: the root is solved for the offsets ``0..root_offsets`` (0: the root card's own
    total only; ``J``: every offset, :func:`target_curve`).
    """

    def __init__(self, rules: RuleSet, key: StateKey, utility: Utility, root_offsets: int) -> None:
        a = rules.arrays()
        self.rules, self.key, self.utility = rules, key, utility
        self.y_points = int(a["score"][:, rules.yahtzee_category].max()) if rules.yahtzee_category >= 0 else 0
        m0, u0, y0 = key
        self.root_offsets = int(root_offsets)
        # the most points the root can still make; a state cannot be reached with more than
        # root_max - _most_to_come(state) of them (the bound is additive along every path)
        self.root_max = int(_most_to_come(rules, [m0], [u0], [y0])[0]) + self.root_offsets

    def of(self, masks: np.ndarray, ups: np.ndarray, ybs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(jmin, lows, highs)`` of the states: fewest points gained from the root, the offsets computed."""
        rules, J = self.rules, self.utility.J
        _, u0, y0 = self.key
        thr = rules.upper_threshold
        jmin = (ups - u0) + np.where((u0 < thr) & (ups >= thr), rules.upper_bonus, 0) \
            + np.where(ybs > y0, self.y_points, 0)
        most = _most_to_come(rules, masks, ups, ybs)
        lows = np.maximum(np.maximum(jmin, self.utility.low - most), 0)
        lows = np.minimum(lows, J).astype(np.int64)
        # the most points gained since the root, bounded from both ends (the Yahtzee bonuses: only after a 50)
        gained = np.minimum(self.root_max - most,
                            max_points_gained(rules, self.key, masks, ups, ybs) + self.root_offsets)
        highs = np.minimum(gained + 1, J).astype(np.int64)
        return jmin, lows, highs

    def of_classes(self, masks: np.ndarray, ups: np.ndarray, ybs: np.ndarray, first: np.ndarray,
                   rep: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`of` for the classes of equivalent upper subtotals (:func:`upper_representatives`).

        The state solved for a class holds the values of every state of it, so
        its offsets must cover theirs: the fewest points of any of them and the
        least offset computed (its own, the one of smallest subtotal), and the
        largest offset any of them is reached at (the bound on the points
        gained counts the upper subtotal, which differs within a class).
        """
        jmin, lows, highs = self.of(masks, ups, ybs)
        cj, cl, ch = jmin[first].copy(), lows[first].copy(), highs[first].copy()
        np.minimum.at(cj, rep, jmin)
        np.minimum.at(cl, rep, lows)
        np.maximum.at(ch, rep, highs)
        return cj, cl, ch

    def jmax(self, key: StateKey) -> int:
        """The most offset at which ``key`` is reached from the root (the same bounds as :meth:`of`)."""
        m, u, y = ([int(x)] for x in key)
        return int(min(self.root_max - _most_to_come(self.rules, m, u, y)[0],
                       max_points_gained(self.rules, self.key, m, u, y)[0] + self.root_offsets))


def _root_offsets(utility: Utility, every_offset: bool, root_offsets: int | None) -> int:
    """The root offsets solved: ``root_offsets``, else ``J`` with ``every_offset``, else 0."""
    if root_offsets is None:
        return utility.J if every_offset else 0
    if isinstance(root_offsets, bool) or not isinstance(root_offsets, (int, np.integer)) \
            or not 0 <= root_offsets <= utility.J:
        raise UsageError(f"invalid root offsets {root_offsets!r}: want a whole number from 0 to {utility.J}")
    return int(root_offsets)


@dataclass(frozen=True)
class UtilityWork:
    """The size of a solve of :func:`solve_utility`, known before it runs.

    Attributes
    ----------
    n_states : int
        Turn-start states reachable from the root.
    n_solved : int
        States whose turns are solved (one per class of equivalent upper subtotals).
    state_offsets : int
        Offsets computed, summed over the solved states (the kernel's work).
    """

    n_states: int
    n_solved: int
    state_offsets: int

    def seconds(self, threads: int = 1) -> float:
        """Expected wall time on ``threads`` free cores (:data:`SECONDS_PER_STATE_OFFSET`)."""
        return self.state_offsets * SECONDS_PER_STATE_OFFSET / max(1, int(threads))


def utility_work(rules: str | RuleSet, card: ScoreCard | StateKey, total: int | None, utility: Utility, *,
                 every_offset: bool = False, root_offsets: int | None = None) -> UtilityWork:
    """How much :func:`solve_utility` with the same arguments will compute (states, state-offsets); fast.

    Raises
    ------
    UsageError
        A state key without ``total``.
    """
    rules = get_rules(rules)
    if isinstance(card, ScoreCard):
        key = card.key
    else:
        key = StateKey(*card)
        if total is None:
            raise UsageError("give the root card's total with a state key")
    ranges = _OffsetRanges(rules, key, utility, _root_offsets(utility, every_offset, root_offsets))
    n_states = n_solved = offsets = 0
    layers = reachable_layers(rules, key)
    for i, (masks, ups, ybs) in enumerate(layers):
        first, rep = upper_representatives(rules, masks, ups, ybs)
        n_states += masks.size
        n_solved += first.size
        if i < len(layers) - 1:  # the full card's values are the utility itself
            _, lows, highs = ranges.of_classes(masks, ups, ybs, first, rep)
            offsets += int(np.maximum(highs - lows, 0).sum())
    return UtilityWork(n_states, n_solved, offsets)


def solve_utility(rules: str | RuleSet, card: ScoreCard | StateKey, total: int | None, utility: Utility, *,
                  jit: bool = True, keep_all: bool = True, every_offset: bool = False,
                  progress: Progress | None = None, tile: int | None = None,
                  root_offsets: int | None = None) -> UtilitySolution:
    """Solve the utility DP for every state reachable from a root card.

    Parameters
    ----------
    rules : str or RuleSet
    card : ScoreCard or (mask, up, yb)
        The root: a scorecard, or a turn-start state key (then give ``total``).
    total : int or None
        Points on the root card (default: ``card.total``).
    utility : Utility
        From :func:`target_utility` / :func:`win_utility` with the same total.
    jit : bool
        Compiled kernels (default) or interpreted (fine for a few open boxes).
    keep_all : bool
        Keep every layer's values (for later positions of the same game);
        ``False`` keeps only the root layer and the one after it.
    every_offset : bool
        Solve the root for every offset ``0..J`` (as if it could start with
        any number of extra points: :func:`target_curve`), not only for
        offset 0.  Then no state's upper offsets are cut.
    progress : callable or None
        Called as ``progress(done_states, all_states)`` after each layer.
    tile : int or None
        Offsets per tile of a state's turn (default
        :data:`utility_kernels.TILE`); the values do not depend on it (bit
        for bit), only the speed does.
    root_offsets : int or None
        Solve the root for the offsets ``0..root_offsets`` (0..J; default
        ``J`` with ``every_offset``, else 0): :func:`target_curve` for the
        targets above a known part of the curve.  The values solved are the
        same bits whatever it is; only the offsets no game from the asked
        root offsets reaches are left out (NaN).

    Returns
    -------
    UtilitySolution

    Raises
    ------
    UsageError
        A state key without ``total``, a tile below 1, ``root_offsets`` outside ``0..J``.
    """
    rules = get_rules(rules)
    if isinstance(card, ScoreCard):
        key = card.key
        total = card.total if total is None else total
    else:
        key = StateKey(*card)
        if total is None:
            raise UsageError("give the root card's total with a state key")
    m0, u0, y0 = key
    tile = _uk.TILE if tile is None else int(tile)
    if tile < 1:
        raise UsageError(f"invalid tile {tile}: want at least 1 offset")
    t0 = time.perf_counter()
    k = _jit.module_backend(_uk, jit)
    a = rules.arrays()
    score, joker, params = a["score"], a["joker"], a["params"]
    C = int(params[P_NCAT])
    J = utility.J
    L = J + 1
    all_states = reachable_layers(rules, key)
    n_all = sum(m.size for m, _, _ in all_states)
    # one state per class of equivalent upper subtotals is solved, the one of smallest subtotal (so of
    # the fewest points gained from the root: its offsets cover its class's); the others read its row
    idx = np.full((1 << C, rules.upper_threshold + 1, rules.n_flags), -1, np.int32)
    extra = _root_offsets(utility, every_offset, root_offsets)
    ranges = _OffsetRanges(rules, key, utility, extra)
    layers_states = []
    class_ranges = []
    sizes = []
    for masks, ups, ybs in all_states:
        first, rep = upper_representatives(rules, masks, ups, ybs)
        idx[masks, ups, ybs] = rep
        layers_states.append((masks[first], ups[first], ybs[first]))
        class_ranges.append(ranges.of_classes(masks, ups, ybs, first, rep))
        sizes.append(masks.size)
    del all_states
    Z = _zeros(rules)
    low_value = float(utility.values[0])
    out: list[Any] = [None] * len(layers_states)
    # terminal layer: the utility itself
    masks, ups, ybs = layers_states[-1]
    W = np.broadcast_to(utility.values, (masks.size, L)).copy()
    out[-1] = (masks, ups, ybs, np.zeros(masks.size, np.int64), W, np.zeros(masks.size, np.int64))
    done = sizes[-1]
    if progress is not None:
        progress(done, n_all)
    parts = 1
    if jit:
        parts = _jit.started_numba().get_num_threads()
    for li in range(len(layers_states) - 2, -1, -1):
        masks, ups, ybs = layers_states[li]
        jmin, lows, highs = class_ranges[li]
        Wc = np.empty((masks.size, L))
        Wn = out[li + 1][4]
        # in slices of about CHUNK_OFFSETS state-offsets: Ctrl-C (checked between calls) stops at once,
        # and the progress moves within a long layer; each row depends only on its own state
        work = np.cumsum(np.maximum(highs - lows, 0) + 1)
        cuts = np.searchsorted(work, np.arange(CHUNK_OFFSETS, int(work[-1]), CHUNK_OFFSETS))
        bounds = [0, *np.unique(cuts).tolist(), masks.size]
        for s0, s1 in zip(bounds[:-1], bounds[1:]):
            if s1 <= s0:
                continue
            k.solve_layer(masks[s0:s1], ups[s0:s1], ybs[s0:s1], lows[s0:s1], highs[s0:s1], low_value, Wn,
                          Wc[s0:s1], idx, score, joker, params, Z, min(parts, s1 - s0), tile)
            if progress is not None and s1 < masks.size:
                progress(done + int(sizes[li] * s1 / masks.size), n_all)
        out[li] = (masks, ups, ybs, lows, Wc, jmin)
        if not keep_all and li + 2 < len(out):
            out[li + 2] = None
        done += sizes[li]
        if progress is not None:
            progress(done, n_all)
    return UtilitySolution(rules, key, int(total), utility, out, idx, time.perf_counter() - t0, n_all, jit,
                           every_offset or extra == J, n_solved=sum(m.size for m, _, _ in layers_states),
                           root_offsets=extra)


# -- value sources (the policy layer's contract) ----------------------------------------------------


class _UtilitySource:
    """A value source over a utility DP, re-solved when a position falls outside the current solution.

    Safe to share between threads: the solution kept is replaced whole (each
    query reads the one it found or solved), and its queries allocate per call.
    """

    units = "probability"

    def __init__(self, rules: str | RuleSet, *, jit: bool = True, progress: Progress | None = None) -> None:
        self.rules: RuleSet = get_rules(rules)
        self.jit = jit
        self.progress = progress
        self._solution: UtilitySolution | None = None

    def _utility(self, total: int) -> Utility:  # pragma: no cover - abstract
        raise NotImplementedError

    def solution(self, state: StateKey, total: int) -> UtilitySolution:
        """The solved DP covering ``state`` at ``total`` points (solving from it when needed)."""
        s = self._solution
        if s is None or not s.covers(state, total):
            s = solve_utility(self.rules, state, total, self._utility(total), jit=self.jit, progress=self.progress)
            self._solution = s
        return s

    def keep_values(self, state: StateKey, total: int, rolls_left: int) -> np.ndarray:
        """(462,) float64: value of each keep index (``dice.KEEPS``) with ``rolls_left`` (1|2) rerolls to go."""
        if isinstance(rolls_left, bool) or rolls_left not in (1, 2):
            raise UsageError(f"invalid rolls-left {rolls_left!r} for a keep: want 1 or 2")
        values: np.ndarray = self.solution(state, total).turn_values(state, total, rolls_left)[rolls_left - 1]
        return values

    def box_values(self, state: StateKey, total: int, roll: int) -> np.ndarray:
        """(C,) float64: value of scoring roll index ``roll`` (0..251) in each box; NaN where illegal."""
        return self.solution(state, total).box_values(state, total, roll)

    def state_value(self, state: StateKey, total: int) -> float:
        """Value at the start of a turn (before the first roll)."""
        s = self.solution(state, total)
        if tuple(state) == tuple(s.root) and int(total) == s.total:
            return s.value
        return float(s.turn_values(state, total, 3)[2, 0])


class TargetSource(_UtilitySource):
    """Value source: the best probability of finishing with a total of at least ``target``.

    Safe to share between threads (the solution kept is replaced whole).

    Parameters
    ----------
    rules : str or RuleSet
    target : int
        Points to reach (>= 0).
    jit : bool
        Compiled kernels (default) or interpreted.
    progress : callable, optional
        ``progress(done_states, all_states)`` during a solve.

    Raises
    ------
    UsageError
        For a negative or non-integer target.
    """

    def __init__(self, rules: str | RuleSet, target: int, *, jit: bool = True, progress: Progress | None = None) -> None:
        if isinstance(target, bool) or not isinstance(target, (int, np.integer)) or target < 0:
            raise UsageError(f"invalid target {target!r}: want a whole number of points >= 0")
        super().__init__(rules, jit=jit, progress=progress)
        self.target: int = int(target)

    def _utility(self, total: int) -> Utility:
        return target_utility(self.target, total)

    def probability(self, card: ScoreCard) -> float:
        """Best P(final total >= target) from the start of a turn with ``card`` (the DP's sum clipped to [0, 1])."""
        if card.is_full:
            return float(card.total >= self.target)
        return clip_probability(self.state_value(card.key, card.total))


class WinSource(_UtilitySource):
    """Value source: the probability of beating an opponent whose final total has distribution ``opponent_pmf``.

    A draw counts half.  The distribution is taken as independent of my play
    (true for a CPU level: a fixed policy that does not look at my card).
    Safe to share between threads (the solution kept is replaced whole).

    Parameters
    ----------
    rules : str or RuleSet
    opponent_pmf : (n,) array of float
        ``opponent_pmf[t]`` = P(opponent's final total = t).
    jit : bool
    """

    def __init__(self, rules: str | RuleSet, opponent_pmf: np.ndarray, *, jit: bool = True,
                 progress: Progress | None = None) -> None:
        super().__init__(rules, jit=jit, progress=progress)
        self.opponent_pmf: np.ndarray = np.asarray(opponent_pmf, dtype=np.float64)
        win_utility(self.opponent_pmf, 0)  # validate now

    def _utility(self, total: int) -> Utility:
        return win_utility(self.opponent_pmf, total)

    def probability(self, card: ScoreCard) -> float:
        """Best P(win) + P(draw)/2 from the start of a turn with ``card`` (the DP's sum clipped to [0, 1])."""
        if card.is_full:
            return float(win_utility(self.opponent_pmf, card.total).values[0])
        return clip_probability(self.state_value(card.key, card.total))


@dataclass(frozen=True)
class TargetCurve:
    """Best achievable P(final total >= T) from one card, for every T up to a maximum.

    Attributes
    ----------
    rules : RuleSet
    card : ScoreCard
        The starting card (the empty card for the game's curve).
    probabilities : (max_target + 1,) float64
        ``probabilities[T]`` = max over policies of P(final total >= T) (exact);
        each T has its own optimal policy.
    seconds : float
        Wall time of the DP.
    n_states : int
        Turn-start states reachable from the card, each of which has its values (the DP solves
        one per class of equivalent upper subtotals, :attr:`UtilitySolution.n_solved`); 0 when
        no DP ran.
    """

    rules: RuleSet
    card: ScoreCard
    probabilities: np.ndarray
    seconds: float
    n_states: int

    @property
    def max_target(self) -> int:
        return int(self.probabilities.shape[0]) - 1


def target_curve(rules: str | RuleSet = "yahtzee", max_target: int = 700, card: ScoreCard | None = None, *,
                 jit: bool = True, progress: Progress | None = None,
                 known: ArrayLike | None = None) -> TargetCurve:
    """P*(final >= T) for every ``T = 0..max_target`` from ``card`` (default: the empty card), in one DP.

    One solve with target ``max_target`` gives all smaller targets: at offset
    ``j`` the root's value is the best P(points to come >= max_target - j).
    Only two layers of vectors are held at a time (about ``states in the
    largest layer x (max_target + 1) x 8`` bytes each).

    Parameters
    ----------
    known : (K,) array of float, optional
        ``known[T]`` for ``T < K``: this curve's values from the same card,
        already computed by this DP (the shipped curve of the empty card,
        :mod:`yahtzee_solver.analysis.curve_data`).  They are copied, and the DP
        solves the root only for the offsets of the targets from ``K`` on
        (``0..max_target - K``): the states then need only the offsets that
        those reach, about half of the work for 100 targets beyond 700.
        Every value solved is the same bits as in the whole solve (the same
        operations on the same entries).

    Raises
    ------
    UsageError
        For a negative or non-integer ``max_target``, one above :data:`MAX_TARGET`,
        or ``known`` that is not a 1-d array of probabilities.
    """
    rules = get_rules(rules)
    if isinstance(max_target, bool) or not isinstance(max_target, (int, np.integer)) or max_target < 0:
        raise UsageError(f"invalid maximum target {max_target!r}: want a whole number of points >= 0")
    card = ScoreCard.empty(rules) if card is None else card
    t0 = int(card.total)
    top = int(max_target)
    if top > MAX_TARGET:
        raise UsageError(f"invalid maximum target {top}: want at most {MAX_TARGET} points")
    given = _known_curve(known, top)
    out = np.zeros(top + 1)
    out[: min(t0, top) + 1] = 1.0
    n = 0
    seconds = 0.0
    solve_top = _curve_top(rules, top, card)
    extra = _curve_root_offsets(solve_top, t0, given.size)
    if solve_top > t0 and not card.is_full and extra >= 0:
        sol = solve_utility(rules, card, None, target_utility(solve_top, t0), jit=jit, keep_all=False,
                            root_offsets=extra, progress=progress)
        w = sol.root_values  # w[j] = P*(t0 + j + to come >= solve_top) = P*(final >= solve_top - j)
        out[solve_top - extra:solve_top + 1] = clip_probability(w[extra::-1])  # the DP's sums: rounding clipped
        n, seconds = sol.n_states, sol.seconds
    elif top > t0:
        out[t0 + 1:] = 0.0
    out[: given.size] = given
    out.setflags(write=False)
    return TargetCurve(rules, card, out, seconds, n)


def _known_curve(known: ArrayLike | None, top: int) -> np.ndarray:
    """The known part of a curve (see :func:`target_curve`), cut to ``T <= top``."""
    if known is None:
        return np.zeros(0)
    given = np.asarray(known, dtype=np.float64)
    if given.ndim != 1 or not np.all(np.isfinite(given)) or given.size and (given.min() < 0 or given.max() > 1):
        raise UsageError("invalid known curve: want one probability per target T = 0, 1, ...")
    return given[: top + 1]


def _curve_root_offsets(solve_top: int, t0: int, n_known: int) -> int:
    """The root offsets :func:`target_curve` solves: ``0..solve_top - max(n_known, t0)`` (-1: none)."""
    return solve_top - max(n_known, t0)


def _curve_top(rules: RuleSet, top: int, card: ScoreCard) -> int:
    """The largest target :func:`target_curve` solves for: above what the card can still reach, P = 0."""
    mask, up, yb = card.key
    reach = int(card.total) + int(max_points_to_come(rules, np.array([mask]), np.array([up]), np.array([yb]))[0])
    return min(int(top), reach)


def curve_work(rules: str | RuleSet, max_target: int, card: ScoreCard | None = None,
               n_known: int = 0) -> UtilityWork | None:
    """The size of the DP of :func:`target_curve` with the same arguments (``None``: no DP runs); fast.

    ``n_known``: the length of its ``known`` curve (0: none).
    """
    rules = get_rules(rules)
    card = ScoreCard.empty(rules) if card is None else card
    solve_top = _curve_top(rules, int(max_target), card)
    extra = _curve_root_offsets(solve_top, card.total, min(int(n_known), int(max_target) + 1))
    if solve_top <= card.total or card.is_full or extra < 0:
        return None
    return utility_work(rules, card, None, target_utility(solve_top, card.total), root_offsets=extra)


#: Largest target of :func:`target_curve` (points): above any rule set's highest possible score.
MAX_TARGET = 10_000

#: CPU levels whose final-score distribution :func:`opponent_pmf` models exactly; ``master`` and a
#: human player are modelled as ``expert``.
DISTRIBUTION_LEVELS = ("beginner", "normal", "expert")


def opponent_pmf(rules: str | RuleSet, card: ScoreCard, level: str = "expert", table: ValueTable | None = None, *,
                 jit: bool = True, progress: bool = False) -> np.ndarray:
    """Exact distribution of the final total of a player of ``level`` playing on from ``card`` (turn start).

    The opponent model of the win probability (:class:`WinSource`, the ``master``
    CPU, the ``play`` hint) and the expected-score column of ``target-curve``:
    :func:`yahtzee_solver.strategy.distribution.score_distribution` of the level's own
    policy (``expert`` = the value table's policy).  Levels outside
    :data:`DISTRIBUTION_LEVELS` (``master``, ``human``) are modelled as ``expert``.

    Parameters
    ----------
    rules : str or RuleSet
    card : ScoreCard
        The player's card at the start of a turn (a full card gives its total).
    level : str
    table : ValueTable, optional
        The value table of ``rules`` (default: shipped).
    jit : bool
        Compiled kernels (default).
    progress : bool
        A tqdm bar on stderr.

    Returns
    -------
    (M + 1,) float64
        ``pmf[t]`` = P(final total = t points), t = 0..M, M the greatest reachable final total.
    """
    from .distribution import score_distribution

    lvl = str(level).strip().lower()
    if lvl not in DISTRIBUTION_LEVELS:
        lvl = "expert"
    rules = get_rules(rules)
    return score_distribution(card, rules, strategy=lvl, table=table if lvl == "expert" else None, jit=jit,
                              progress=progress).pmf


def survival(pmf: np.ndarray, max_target: int) -> np.ndarray:
    """``out[T]`` = P(final >= T) for ``T = 0..max_target`` from a final-total distribution ``pmf[t]``.

    Each entry in [0, 1]: the float64 sum's rounding is clipped, and P(final >= the least
    possible total) is exactly 1 (:func:`yahtzee_solver.strategy.probability.tail_probabilities`).
    """
    tail = tail_probabilities(pmf)  # tail[t] = P(final >= t)
    out = np.zeros(int(max_target) + 1)
    n = min(out.size, tail.size)
    out[:n] = tail[:n]
    return out


# -- several opponents: the chance of finishing first, a tie sharing the place ------------------------


def _first_share(pmfs: Sequence[ArrayLike], t: ArrayLike) -> np.ndarray:
    """E[my share of first place | my final total = t] against independent opponents (vectorised over ``t``).

    With opponents' totals ``X_1..X_k`` independent, finishing with ``t`` wins
    outright when every ``X_j < t``; when exactly ``m`` of them equal ``t`` and
    the rest are below, ``m + 1`` players tie for first and share it, ``1/(m+1)``
    each.  The probability that exactly ``m`` opponents are at ``t`` and the rest
    below is the coefficient of ``x**m`` in ``prod_j (P(X_j < t) + P(X_j = t) x)``,
    built one opponent at a time.
    """
    t = np.asarray(t, np.int64)
    coef = np.zeros((len(pmfs) + 1, t.size))
    coef[0] = 1.0
    for pmf in pmfs:
        p = np.asarray(pmf, np.float64)
        cdf = np.concatenate(([0.0], np.cumsum(p)))  # cdf[t] = P(X < t)
        below = np.where(t < p.size, cdf[np.minimum(t, p.size)], 1.0)
        at = np.where(t < p.size, p[np.minimum(t, p.size - 1)], 0.0)
        new = coef * below
        new[1:] += coef[:-1] * at
        coef = new
    return clip_probability(coef.T @ (1.0 / np.arange(1, len(pmfs) + 2)))  # the sum's rounding clipped


def _check_pmf(pmf: ArrayLike) -> np.ndarray:
    p: np.ndarray = np.asarray(pmf, dtype=np.float64)
    if p.ndim != 1 or p.size == 0 or not np.all(np.isfinite(p)) or p.min() < 0 or abs(p.sum() - 1.0) > 1e-9:
        raise UsageError("invalid opponent distribution: want non-negative probabilities per final total, summing to 1")
    return p


def first_place_utility(opponent_pmfs: Iterable[ArrayLike], total: int) -> Utility:
    """``u(t)`` = my expected share of first place with final total ``t`` against several independent opponents.

    ``u(t) = sum_m P(exactly m opponents finish with t, the others below t) / (m + 1)``:
    a ``k``-way tie for first counts ``1/k`` for each of the tied players
    (:func:`_first_share`).  With one opponent this is :func:`win_utility`
    (a draw counts half).

    Parameters
    ----------
    opponent_pmfs : sequence of (n_j,) arrays of float
        ``opponent_pmfs[j][s]`` = P(opponent ``j`` finishes with ``s`` points);
        independent of each other and of my play.
    total : int
        Points already on the root card (mine).

    Raises
    ------
    UsageError
        If no distribution is given, or one is empty, negative or does not sum to 1 (within 1e-9).
    """
    pmfs = [_check_pmf(p) for p in opponent_pmfs]
    if not pmfs:
        raise UsageError("invalid opponents: want at least one final-score distribution")
    hi = max(int(np.flatnonzero(p > 0)[-1]) for p in pmfs)
    total = int(total)
    J = max(hi + 1 - total, 0)
    values = _first_share(pmfs, total + np.arange(J + 1))
    values[total + np.arange(J + 1) > hi] = 1.0
    values.setflags(write=False)
    return Utility(values, _flat_prefix(values))


def first_place_chances(pmfs: Sequence[ArrayLike]) -> np.ndarray:
    """Every player's chance of finishing first, a ``k``-way tie for first counting ``1/k``.

    Parameters
    ----------
    pmfs : sequence of (n_i,) arrays of float
        ``pmfs[i][s]`` = P(player ``i`` finishes with ``s`` points); the players independent.

    Returns
    -------
    (len(pmfs),) float64
        Probabilities, each in [0, 1] (clipped: :func:`~yahtzee_solver.strategy.probability.clip_probability`);
        they add up to 1 (up to float rounding, about 1e-15).

    Raises
    ------
    UsageError
        If a distribution is invalid (as :func:`first_place_utility`).
    """
    checked = [_check_pmf(p) for p in pmfs]
    if len(checked) == 1:
        return np.ones(1)
    out = np.empty(len(checked))
    for i, p in enumerate(checked):
        others = checked[:i] + checked[i + 1:]
        out[i] = float(p @ _first_share(others, np.arange(p.size)))
    return clip_probability(out)  # each a sum of exact probabilities: its rounding clipped
