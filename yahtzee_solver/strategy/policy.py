"""One decision policy over a value source: the value of every action and the chosen one.

A position is a turn-start state (:class:`~yahtzee_solver.state.StateKey`
``(mask, up, yb)``), the points already on the card (``total``), the roll
index of the dice showing (0..251) and the rerolls left.  A *value source*
says what each action is worth; a :class:`Policy` ranks the actions and
chooses one.  In MDP terms the source is the action-value function and the
policy is greedy with respect to it.

Every query layer sits on this module: :class:`~yahtzee_solver.strategy.advisor.Advisor`
(rich result objects), :class:`~yahtzee_solver.strategy.batch.ArrayAdvisor` (arrays)
and the ``normal``/``expert`` CPU players (:mod:`yahtzee_solver.strategy.players`).
A new objective -- "maximise P(final >= T)", "maximise P(win)" -- is a new
:class:`ValueSource`, plugged into the same :class:`Policy`.

Legal moves: no pass
--------------------
After a roll with rerolls left the player either rerolls one to five dice
or stops and scores; rerolling no dice is not a roll (the game engine
refuses it), so there is no *pass* (holding all five dice and deciding
again with one reroll fewer).  Keeping all five dice while rerolls remain
therefore means "stop and score now", and :meth:`Policy.keep_ranking`
values it as the box it would score in: the best of
:meth:`Policy.box_ranking` (:meth:`Policy.stop_option`; for expected value,
what ``fill`` shows, bonuses included).  The sources' raw keep arrays
(:meth:`ValueSource.keep_values`, from the turn kernel) hold the pass value
there with two rerolls left; the pass is weakly dominated (its value is
max(score now, best keep with one reroll left), no more than the best
option with two), so the table, the state values and the best decision are
those of the game without passes -- only that one entry of the option
lists differs, and the policy replaces it.

The tie-break rule
------------------
Between options of equal value the policy picks the keep listed first in
:data:`yahtzee_solver.dice.ROLL_SUBKEEPS` (the smaller keep; keeping all
five is listed last) and the box of lowest index.  Rankings are stable sorts
by descending value, so equal values keep that order.

A policy may be given a second source, ``tiebreak``, consulted only between
options of exactly equal value (higher first) before that order.  The target
and win objectives use it: when a target is already sure or out of reach,
every option has probability 1 or 0, and the expected final total
(:class:`ExpectedValueSource`) then orders them.  With ``tie_tolerance`` > 0,
values are compared on a grid of that step (``round(value / tie_tolerance)``),
so values differing only by float rounding count as equal: the ``master`` CPU
treats winning chances within 1e-12 as a tie and then plays the expected-score
choice.  The compiled loops
(:func:`~yahtzee_solver.solver.kernels.ranked_options`,
:func:`~yahtzee_solver.solver.kernels.best_keep`,
:func:`~yahtzee_solver.solver.kernels.play_box`) apply the same rule.

Sources
-------
:class:`ExpectedValueSource`
    Optimal play on a value table: a keep or box is worth the expected final
    total (points).
:class:`TurnOnlySource`
    The ``normal`` CPU: the points of the current turn only (no later turns,
    no upper-bonus planning).

Both are :class:`KernelValueSource`: the turn kernel
(:func:`yahtzee_solver.solver.kernels.turn`, the kernel of the table build) over a
value array ``values`` with decision parameters ``params``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..solver import jit as _jit
from ..dice import N_KEEPS, N_ROLLS, ROLL_OFFSET, ROLL_SUBKEEPS
from ..errors import DiceError, UsageError
from ..rules import P_UPPER_BONUS, RuleSet, get_rules
from ..state import StateKey
from ..solver.table import ValueTable

__all__ = [
    "ValueSource",
    "KernelSource",
    "KernelValueSource",
    "ExpectedValueSource",
    "TurnOnlySource",
    "Policy",
    "check_rolls_left",
    "turn_only_params",
    "zero_values",
]


def check_rolls_left(rolls_left: object, allowed: tuple[int, ...] = (1, 2)) -> int:
    """``rolls_left`` as an int if it is one of ``allowed``, the one check of the package.

    Raises
    ------
    UsageError
        ``rolls_left`` is not an int in ``allowed`` (booleans refused).
    """
    if type(rolls_left) is int and rolls_left in allowed:  # the common case, fast (bool is not int here)
        return rolls_left
    if isinstance(rolls_left, bool) or not isinstance(rolls_left, (int, np.integer)) or rolls_left not in allowed:
        if allowed == (1, 2):
            raise UsageError(f"invalid rolls-left {rolls_left!r} for a keep: want 1 or 2")
        raise UsageError(f"invalid rolls-left {rolls_left!r}: want 0, 1 or 2")
    return int(rolls_left)


@runtime_checkable
class ValueSource(Protocol):
    """What a policy maximises.

    Values are in the objective's final-outcome units, :attr:`units`:
    ``points`` (expected final total) or ``probability`` (e.g. P(final >= T)).
    """

    rules: RuleSet
    units: str

    def keep_values(self, state: StateKey, total: int, rolls_left: int) -> np.ndarray:
        """(462,) float64: value of each keep index (:data:`~yahtzee_solver.dice.KEEPS`)
        with ``rolls_left`` (1 or 2) rerolls to go; ``total`` = points on the card (bonuses included)."""
        ...

    def box_values(self, state: StateKey, total: int, roll: int) -> np.ndarray:
        """(C,) float64: value of scoring roll index ``roll`` (0..251) in each box; NaN where illegal."""
        ...


class KernelSource(ValueSource, Protocol):
    """A :class:`ValueSource` whose policy the game kernel can play (:class:`KernelValueSource`).

    What :class:`~yahtzee_solver.strategy.players.PolicyStrategy`, the advisor and the
    batch and simulation kernels read of it.

    Attributes
    ----------
    params : (n,) int64
        The rule parameters the decisions use (``rules.arrays()["params"]`` or
        :func:`turn_only_params`).
    score, joker : int64 arrays
        ``rules.arrays()["score"]`` and ``["joker"]``.
    """

    params: np.ndarray
    score: np.ndarray
    joker: np.ndarray

    @property
    def values(self) -> np.ndarray:
        """The value array (2**C, T+1, F) float64 the decisions look ahead with."""
        ...

    @property
    def kernels(self) -> ModuleType:
        """The kernel module in use (compiled or interpreted)."""
        ...

    def values_for(self, mask: int) -> np.ndarray:
        """The value array good for a turn from a card with the boxes ``mask`` filled."""
        ...

    def turn_values(self, state: StateKey, levels: int = 2) -> np.ndarray:
        """Points still to come of every keep, (3, 462) float64; row ``rolls_left - 1``."""
        ...


# -- data for the single-turn (normal) player ---------------------------------
def turn_only_params(rules: str | RuleSet) -> np.ndarray:
    """Rule parameters for deciding as a player who looks at the current turn only.

    A copy of ``rules.arrays()["params"]`` with the upper bonus set to 0: with
    an all-zero future table (:func:`zero_values`) the turn kernel then values
    a box by the points it shows now plus the Yahtzee bonus earned now.
    Scoring itself always uses the true parameters.

    Returns
    -------
    (8,) int64, read-only
    """
    p = get_rules(rules).arrays()["params"].copy()
    p[P_UPPER_BONUS] = 0
    p.setflags(write=False)
    return p


_ZEROS: dict[RuleSet, np.ndarray] = {}


def zero_values(rules: str | RuleSet) -> np.ndarray:
    """An all-zero value array of the table shape of ``rules``: no future points.

    Returns
    -------
    (2**C, T+1, F) float64, read-only
        Shared between callers (allocated once per rule set; ``np.zeros``
        pages are only touched when read).
    """
    rules = get_rules(rules)
    if rules not in _ZEROS:
        z = np.zeros((1 << rules.n_categories, rules.upper_threshold + 1, rules.n_flags))
        z.setflags(write=False)
        _ZEROS[rules] = z
    return _ZEROS[rules]


#: What :meth:`Policy._boxes` gives: the legal boxes best first, the source's box values, the tie-break's (or None).
_Boxes = tuple[list[int], list[float], list[float] | None]


class _TurnScratch(threading.local):
    """The work arrays of one :class:`KernelValueSource` in one thread.

    The compiled kernels release the GIL, so threads sharing a source run its
    kernels at the same time: each thread gets its own arrays (made on its
    first query, about 2 us) and its own cached turn.
    """

    def __init__(self, n_categories: int) -> None:
        C = n_categories
        self.E = np.empty((3, N_KEEPS))
        self.B = np.empty(N_KEEPS)
        self.points = np.empty(C, np.int64)
        self.legal = np.empty(C, np.int8)
        self.box = np.empty(C)
        self.cached: tuple[StateKey, int] | None = None  # (state, levels) whose turn is in E


class KernelValueSource:
    """Values from the turn kernel over a value array, in points.

    A keep or box is worth ``total`` + the points it scores now (bonuses
    included, counted by ``params``) + ``values`` of the next state, in
    expectation over the rerolls.  The value is *additive*: the value at
    ``total`` is ``total`` + the value at 0, so :class:`Policy` ranks the
    values at 0 (points still to come) and adding a card's total can never
    merge two options by rounding.

    Parameters
    ----------
    rules : RuleSet
    values : (2**C, T+1, F) float64
        Points still to come from each turn-start state.
    params : (8,) int64
        Rule parameters the decisions use (``rules.arrays()["params"]`` or a
        variant, see :func:`turn_only_params`).
    jit : bool
        Compiled kernels (default; the first use in a process loads them,
        about 1 s) or interpreted (no numba; a few milliseconds per turn).

    Attributes
    ----------
    rules, values, params
        As given (public: the batch API and the game kernel read them).
    score, joker : (252, C) int64
        ``rules.arrays()``.
    units : str
        ``"points"``.
    additive : bool
        True (see above).

    Notes
    -----
    Safe to share between threads: each thread computes in its own work
    arrays, so the arrays returned by :meth:`turn_values`, :meth:`keep_values`
    and :meth:`box_values` are reused by the next call *of the same thread*
    only.
    """

    units = "points"
    additive = True

    def __init__(self, rules: RuleSet, values: np.ndarray | None, params: np.ndarray, *, jit: bool = True):
        self.rules: RuleSet = rules
        if values is not None:
            self._values = values
        self.params: np.ndarray = params
        a = rules.arrays()
        self.score: np.ndarray = a["score"]
        self.joker: np.ndarray = a["joker"]
        self.jit = jit
        self._k: ModuleType | None = None
        self._scratch = _TurnScratch(rules.n_categories)  # per thread

    @property
    def values(self) -> np.ndarray:
        """The value array (2**C, T+1, F) float64 the decisions look ahead with (as given)."""
        return self._values

    def values_for(self, mask: int) -> np.ndarray:
        """The value array good for a turn from a card with the boxes ``mask`` filled (here: :attr:`values`)."""
        return self.values

    @property
    def kernels(self) -> ModuleType:
        """The kernel module in use (compiled or interpreted), loaded on first use."""
        if self._k is None:
            self._k = _jit.backend(self.jit)
        return self._k

    def turn_values(self, state: StateKey, levels: int = 2) -> np.ndarray:
        """Points still to come of every keep, (3, 462) float64; row ``rolls_left - 1``.

        Rows ``0..levels-1`` are valid.  The turn of the last state asked in
        this thread is kept (a turn asks twice); the array is reused by the
        next call of this thread.
        """
        s = self._scratch
        c = s.cached
        if c is None or c[1] < levels or c[0] != state:
            s.cached = None
            mask, up, yb = state
            self.kernels.turn(mask, up, yb, levels, self.values_for(mask), self.score, self.joker, self.params,
                              s.E, s.B)
            s.cached = (state, levels)
        return s.E

    def keep_values(self, state: StateKey, total: int, rolls_left: int) -> np.ndarray:
        """(462,) float64: ``total`` + points still to come of each keep (``rolls_left`` 1 or 2).

        At ``total == 0`` the array is a view reused by the next call of this thread.
        """
        E: np.ndarray = self.turn_values(state, rolls_left)[rolls_left - 1]
        return E if total == 0 else total + E

    def box_values(self, state: StateKey, total: int, roll: int) -> np.ndarray:
        """(C,) float64: ``total`` + points now (bonuses included) + value of the next state; NaN where illegal.

        The array is reused by the next call of this thread.
        """
        mask, up, yb = state
        s = self._scratch
        out = s.box
        self.kernels.box_values(mask, up, yb, roll, self.values_for(mask), self.score, self.joker, self.params,
                                s.points, s.legal, out)
        if total:
            out += total
        return out

    def __repr__(self) -> str:
        return f"{type(self).__name__}(rules={self.rules.name!r})"


class ExpectedValueSource(KernelValueSource):
    """Optimal play on a value table: the expected final total (points) of each action.

    Parameters
    ----------
    rules : RuleSet
    table : ValueTable
        Built for ``rules``.
    jit : bool
        See :class:`KernelValueSource`.

    Raises
    ------
    UsageError
        If ``table`` holds another rule set.
    """

    def __init__(self, rules: RuleSet, table: ValueTable, *, jit: bool = True):
        if table.rules != rules:
            raise UsageError(f"table is for rules {table.rules.name!r}, not {rules.name!r}")
        self.table: ValueTable = table
        super().__init__(rules, None, rules.arrays()["params"], jit=jit)

    @property
    def values(self) -> np.ndarray:
        """The whole value table (2**C, T+1, F) float64 (an opened table is then read whole and checked)."""
        return self.table.values

    def values_for(self, mask: int) -> np.ndarray:
        """Only the rows a turn from ``mask`` reads (:meth:`ValueTable.values_for`): an opened table stays partial."""
        return self.table.values_for(mask)


class TurnOnlySource(KernelValueSource):
    """The points of the current turn only: :func:`zero_values` with :func:`turn_only_params`.

    A box is worth the points it shows now plus the Yahtzee bonus earned now;
    no upper bonus, no later turns.  Needs no value table.
    """

    def __init__(self, rules: RuleSet, *, jit: bool = True):
        super().__init__(rules, zero_values(rules), turn_only_params(rules), jit=jit)


#: The distinct keeps of each roll (int64 keep indices, in ROLL_SUBKEEPS order).
_SUBKEEPS = tuple(np.ascontiguousarray(row[row >= 0], dtype=np.int64) for row in ROLL_SUBKEEPS)


def _check_roll(roll: object) -> int:
    if isinstance(roll, bool) or not isinstance(roll, (int, np.integer)) or not 0 <= roll < N_ROLLS:
        raise DiceError(f"invalid roll index {roll!r}: want 0..{N_ROLLS - 1}")
    return int(roll)


class Policy:
    """The greedy policy of a :class:`ValueSource`: value of every action at a position, best first.

    Owns the tie-break rule (module docstring) and the check of ``rolls_left``.

    Parameters
    ----------
    source : ValueSource
    tiebreak : ValueSource, optional
        Orders options of equal value (higher first) before the usual rule
        (module docstring); same rules as ``source``.
    tie_tolerance : float
        Values are compared rounded to multiples of this step (0: exactly,
        the default); the values returned are not rounded.

    Raises
    ------
    UsageError
        If ``tiebreak`` holds another rule set.

    Notes
    -----
    Holds no state of its own: as safe to share between threads as its
    sources (every source of this package is).
    """

    def __init__(self, source: ValueSource, tiebreak: ValueSource | None = None, *, tie_tolerance: float = 0.0):
        self.source: ValueSource = source
        self.rules: RuleSet = source.rules
        self._additive = bool(getattr(source, "additive", False))
        if tiebreak is not None and tiebreak.rules != self.rules:
            raise UsageError(f"tie-break source is for rules {tiebreak.rules.name!r}, not {self.rules.name!r}")
        if not tie_tolerance >= 0:
            raise UsageError(f"invalid tie tolerance {tie_tolerance!r}: want a number >= 0")
        self.tiebreak: ValueSource | None = tiebreak
        self.tie_tolerance: float = float(tie_tolerance)
        # (roll, total, state, _boxes result) of the last position asked
        self._memo: tuple[int, int, StateKey, _Boxes] | None = None
        self._memoize: bool = isinstance(source, KernelValueSource) and (
            tiebreak is None or isinstance(tiebreak, KernelValueSource))

    def _key(self, values: Any) -> np.ndarray:
        """The values as compared for ranking (rounded to the tie tolerance's grid when it is set)."""
        return np.round(np.asarray(values) / self.tie_tolerance) if self.tie_tolerance else np.asarray(values)

    def _order(self, values: np.ndarray, tie: Callable[[], np.ndarray] | None) -> np.ndarray:
        """Indices of ``values`` best first: descending value, then ``tie()`` (descending), then position."""
        key = self._key(values)
        if self.tiebreak is None or tie is None or np.unique(key).size == key.size:
            return np.argsort(-key, kind="stable")
        return np.lexsort((np.arange(key.size), -tie(), -key))

    def _ranked(self, values: np.ndarray, codes: np.ndarray, total: int,
                tie: Callable[[], np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
        order = self._order(values, tie)
        v = values[order]
        if self._additive and total:
            v = total + v
        return codes[order], v

    def keep_ranking(self, state: StateKey, total: int, roll: int, rolls_left: int) -> tuple[np.ndarray, np.ndarray]:
        """The moves after roll ``roll`` with rerolls left, best first: every reroll, and stopping to score.

        Returns
        -------
        codes : (m,) int64
            Keep indices (:data:`~yahtzee_solver.dice.KEEPS`), m <= 32.  Keeping all five
            (``ROLL_OFFSET + roll``) is no reroll: it stands for stopping to score now, in the box
            of :meth:`stop_option`, at that box's value (module docstring: there is no pass).
        values : (m,) float64
            Their values (the source's units, ``total`` included), descending; ties: the tie-break source's
            value, then keep order.

        Raises
        ------
        UsageError
            ``rolls_left`` not 1 or 2.
        DiceError
            ``roll`` not 0..251.
        """
        rl = check_rolls_left(rolls_left)
        r = _check_roll(roll)
        t = 0 if self._additive else total
        ks = _SUBKEEPS[r]
        src = self.source
        values = src.keep_values(state, t, rl)[ks]  # a copy (fancy indexing)
        if self.tiebreak is None and not self.tie_tolerance and isinstance(src, KernelValueSource):
            # the best box value S_0(r) is row 0 of the turn just computed (the same sums as box_values,
            # bit for bit): no second kernel call on the hot path
            values[-1] = src.turn_values(state, rl)[0, ROLL_OFFSET + r]
            return self._ranked(values, ks, total, None)
        boxes, vals, tie = self._boxes(state, total, r)
        values[-1] = vals[boxes[0]]  # keeping all five (listed last) = scoring now in the best box

        def tie_values() -> np.ndarray:
            # called by _order only when there is a tie-break source
            assert self.tiebreak is not None and tie is not None
            tv = self.tiebreak.keep_values(state, total, rl)[ks]
            tv[-1] = tie[boxes[0]]
            return tv

        return self._ranked(values, ks, total, tie_values)

    def _boxes(self, state: StateKey, total: int, r: int) -> _Boxes:
        """The legal boxes best first, the source's box values (at 0 when additive) and the tie-break's (or None).

        For a kernel source (fixed values) the last call is remembered: a hint asks for the stop option
        and the boxes of one position.
        """
        memo = self._memo
        if memo is not None and memo[0] == r and memo[1] == total and memo[2] == state:
            return memo[3]
        vals = self.source.box_values(state, 0 if self._additive else total, r).tolist()
        # at most 13 boxes: a Python sort beats numpy's per-call cost (stable, also with reverse=True)
        boxes = [c for c, v in enumerate(vals) if v == v]  # v == v: not NaN
        key = self._key(vals).tolist() if self.tie_tolerance else vals
        tie: list[float] | None = None
        if self.tiebreak is None:
            boxes.sort(key=key.__getitem__, reverse=True)
        else:
            tie = self.tiebreak.box_values(state, total, r).tolist()
            boxes.sort(key=lambda c: (key[c], tie[c]), reverse=True)
        out: _Boxes = (boxes, vals, tie)
        if self._memoize:
            self._memo = (r, total, state, out)
        return out

    def box_ranking(self, state: StateKey, total: int, roll: int) -> tuple[np.ndarray, np.ndarray]:
        """The legal boxes for final roll ``roll``, best first.

        Returns
        -------
        boxes : (m,) int64
            Box indices of the legal boxes (open and allowed by the Joker rule).
        values : (m,) float64
            Their values (``total`` included), descending; ties: the tie-break source's value, then lower box first.

        Raises
        ------
        DiceError
            ``roll`` not 0..251.
        """
        boxes, vals, _ = self._boxes(state, total, _check_roll(roll))
        v = np.array([vals[c] for c in boxes], dtype=np.float64)
        if self._additive and total:
            v = total + v
        return np.array(boxes, dtype=np.int64), v

    def stop_option(self, state: StateKey, total: int, roll: int) -> tuple[int, float]:
        """Stopping to score roll ``roll`` now: the box it is scored in and its value (``total`` included).

        The first of :meth:`box_ranking`; with rerolls left it is the move that
        :meth:`keep_ranking` lists as keeping all five dice (there is no pass).

        Raises
        ------
        DiceError
            ``roll`` not 0..251.
        """
        boxes, vals, _ = self._boxes(state, total, _check_roll(roll))
        c = boxes[0]
        v = vals[c]
        return c, (total + v if self._additive and total else v)

    def choose_keep(self, state: StateKey, total: int, roll: int, rolls_left: int) -> int:
        """The keep index of highest value (ties: the smaller keep)."""
        codes, _ = self.keep_ranking(state, total, roll, rolls_left)
        return int(codes[0])

    def choose_box(self, state: StateKey, total: int, roll: int) -> int:
        """The legal box of highest value (ties: the lowest index)."""
        boxes, _ = self.box_ranking(state, total, roll)
        return int(boxes[0])

    def __repr__(self) -> str:
        return f"Policy({self.source!r})" if self.tiebreak is None else f"Policy({self.source!r}, tiebreak={self.tiebreak!r})"
