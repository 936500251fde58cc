"""Raw queries on plain ints and numpy arrays: one position fast, or many at once.

:class:`~yahtzee_solver.strategy.advisor.Advisor` answers one question about a
scorecard with rich, ranked result objects.  This module serves programs that
ask many questions -- a bot, a trainer, a simulation, an analysis of logged
games -- and want numbers, not objects:

* :meth:`ArrayAdvisor.ranked` -- the ranked options of one position as two
  small arrays (a few microseconds with the compiled kernel);
* :func:`option_values` / :meth:`ArrayAdvisor.option_values` -- every
  option of many positions in one call, numpy arrays in and out, the
  positions spread over the cores.

A position is a turn-start state ``(mask, up, yb)`` (see
:class:`~yahtzee_solver.state.StateKey`: filled-box mask, upper subtotal
capped at 63, Yahtzee-bonus flag), the five dice showing, and the number of
rerolls left (2 after the first roll, 1 after the second, 0 after the third).
Both paths run the turn kernel of the table build and of the advisor
(:func:`yahtzee_solver.solver.kernels.turn`, through
:func:`~yahtzee_solver.solver.kernels.ranked_keeps` and
:func:`~yahtzee_solver.solver.kernels.batch_turn`), so a keep's value is the one
:meth:`Advisor.keep_values <yahtzee_solver.strategy.advisor.Advisor.keep_values>` gives,
bit for bit; boxes are valued as
:func:`~yahtzee_solver.solver.kernels.box_values` values them, bit for bit, on every path
(:func:`~yahtzee_solver.solver.kernels.ranked_boxes`,
:func:`~yahtzee_solver.solver.kernels.batch_boxes` for a batch of boxes only).

Values here are **expected points still to come** from the decision on, under
optimal play: points scored by the decision (upper bonus and Yahtzee bonus
included) plus the value of the next state.  They do not know the card, so
add the points already on it (:attr:`ScoreCard.total
<yahtzee_solver.state.ScoreCard.total>`) for the expected final total that
the advisor quotes.

Example
-------
>>> import numpy as np
>>> from yahtzee_solver.strategy.batch import ArrayAdvisor
>>> from yahtzee_solver.dice import KEEPS
>>> adv = ArrayAdvisor("yahtzee")
>>> codes, values = adv.ranked(0, 0, 0, (1, 3, 3, 5, 6), rolls_left=2)
>>> KEEPS[codes[0]]  # doctest: +SKIP
(3, 3)
>>> res = adv.option_values(np.zeros(2, int), np.zeros(2, int), np.zeros(2, int),
...                         np.array([[1, 3, 3, 5, 6], [2, 2, 2, 2, 2]]), np.array([2, 0]))
>>> res.best_value.shape
(2,)
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ..dice import KEEP_COUNTS, N_ROLLS, ROLL_OFFSET, ROLL_SUBKEEPS, _int_faces, format_dice
from ..errors import DiceError, ScoreCardError, UsageError
from .policy import ExpectedValueSource, Policy, check_rolls_left
from ..rules import RuleSet, get_rules
from ..solver import jit as _jit
from ..solver.jit import entry_point
from ..solver.table import ValueTable, resolve_table

__all__ = ["ArrayAdvisor", "OptionValues", "option_values", "roll_indices", "MAX_KEEPS"]

#: Most distinct keeps of one roll (five different faces: 2**5).
MAX_KEEPS = ROLL_SUBKEEPS.shape[1]

#: States per chunk handed to a thread in :func:`option_values` (dynamic scheduling).
_CHUNK = 4

#: Rough single-core cost of a turn computed to 0, 1 or 2 keep levels, and of
#: the per-position rest (seconds; 2-core x86-64, 2026).
_SECONDS_PER_LEVELS = np.array([0.0, 3.5e-6, 6e-6])
_SECONDS_PER_POSITION = 0.4e-6

#: Batches with less estimated work than this run on one thread.  Joining the
#: threads of a parallel region waits for every thread to check in, which
#: takes milliseconds when another process holds a core (measured: a 2.3 ms
#: batch took 8 ms on 2 threads on a busy 2-core machine); below this size the
#: possible gain is smaller than that risk.
_PARALLEL_MIN_SECONDS = 0.01

_empty, _INT64 = np.empty, np.dtype(np.int64)  # a dtype object: np.empty takes it faster than the type

_BASE6 = 6 ** np.arange(5, -1, -1, dtype=np.int64)  # face-count code, face 1 most significant


def _make_lookup() -> tuple[np.ndarray, dict[tuple[int, ...], int]]:
    look = np.full(6**6, -1, dtype=np.int64)
    by_dice: dict[tuple[int, ...], int] = {}
    for r in range(N_ROLLS):
        counts = KEEP_COUNTS[ROLL_OFFSET + r]
        look[int(counts @ _BASE6)] = r
        faces = tuple(f + 1 for f in range(6) for _ in range(int(counts[f])))
        by_dice[faces] = r
    look.setflags(write=False)
    return look, by_dice


_ROLL_OF_CODE, _ROLL_OF_DICE = _make_lookup()

#: Number of distinct keeps of each roll (the options with rerolls left).
_N_SUBKEEPS = (ROLL_SUBKEEPS >= 0).sum(axis=1).tolist()


@functools.cache
def _roll_of_any_order() -> dict[Any, int]:  # looked up with any dice (TypeError if unhashable)
    """Roll index of every ordered tuple of five faces (6**5 keys; built on first use, ~3 ms)."""
    return {d: _ROLL_OF_DICE[tuple(sorted(d))] for d in itertools.product(range(1, 7), repeat=5)}


def _roll_of(dice: int | np.integer[Any] | Sequence[int]) -> int:
    """Roll index of ``dice``: a roll index 0..251 or five faces 1..6 in any order; DiceError if neither."""
    if isinstance(dice, (bool, np.bool_)):
        raise DiceError(f"invalid dice {dice!r}: want five faces 1-6 or a roll index 0..{N_ROLLS - 1}")
    if isinstance(dice, (int, np.integer)):
        r = int(dice)
        if not 0 <= r < N_ROLLS:
            raise DiceError(f"invalid roll index {r}: want 0..{N_ROLLS - 1}")
        return r
    faces = _int_faces(dice)  # a sequence of integers (DiceError naming a float, bool or string)
    r = _ROLL_OF_DICE.get(tuple(sorted(faces)), -1)
    if r < 0:
        raise DiceError(f"invalid dice {format_dice(faces)!r}: want exactly five dice with faces 1-6")
    return r


def roll_indices(dice: npt.ArrayLike) -> np.ndarray:
    """Roll indices (0..251) of many rolls of five dice.

    Parameters
    ----------
    dice : (n, 5) array_like of int
        Faces 1..6, in any order within a row.

    Returns
    -------
    (n,) int64
        ``r`` such that ``dice.ROLLS[r]`` is the sorted row.

    Raises
    ------
    DiceError
        If the shape is not (n, 5) or a face is outside 1..6 (the message names
        the first bad row).
    """
    d = np.asarray(dice)
    if d.ndim != 2 or d.shape[1] != 5:
        raise DiceError(f"invalid dice array of shape {d.shape}: want (n, 5) faces 1-6")
    if d.size and not np.issubdtype(d.dtype, np.integer):
        raise DiceError(f"invalid dice array of dtype {d.dtype}: want integer faces 1-6")
    bad = np.flatnonzero(((d < 1) | (d > 6)).any(axis=1))
    if bad.size:
        i = int(bad[0])
        raise DiceError(f"invalid dice {format_dice(d[i].tolist())!r} at row {i}: faces are 1-6")
    counts = np.stack([(d == f).sum(axis=1) for f in range(1, 7)], axis=1).astype(np.int64)
    rolls: np.ndarray = _ROLL_OF_CODE[counts @ _BASE6]
    return rolls


class OptionValues(NamedTuple):
    """Every option of ``n`` positions (see :func:`option_values`).

    Attributes
    ----------
    rolls : (n,) int64
        Roll index (0..251) of each position's dice.
    keeps : (n, 32) int32
        Keep indices (into :data:`yahtzee_solver.dice.KEEPS`) of the distinct
        keeps of each roll, smaller keeps first, the whole roll last; -1 pads
        rolls with fewer than 32 keeps.
    keep_values : (n, 32) float64
        Expected points still to come when keeping ``keeps[i, j]`` and
        rerolling the rest, with optimal play afterwards.  Keeping the whole
        roll rerolls nothing: it is stopping to score now, worth the best of
        ``box_values[i]`` (there is no pass; :mod:`yahtzee_solver.strategy.policy`).
        NaN for padding and for every column of a position with 0 rerolls left.
    box_values : (n, C) float64
        Expected points still to come when scoring the dice in box ``c`` now:
        points (Joker points where the Joker applies) + upper bonus and
        Yahtzee bonus earned + value of the next state.  NaN for a box that is
        filled or closed by the forced-Joker rule.  Given for every position,
        also with rerolls left (scoring now = keeping all five and stopping).
    best_value : (n,) float64
        Value of the best option: the best keep with rerolls left, else the
        best box.
    best_keep : (n,) int64
        Keep index of the best keep; -1 with 0 rerolls left.
    best_box : (n,) int64
        The best box to score the dice in now.  Ties in both: the rule of
        :mod:`yahtzee_solver.strategy.policy`.
    """

    rolls: np.ndarray
    keeps: np.ndarray
    keep_values: np.ndarray
    box_values: np.ndarray
    best_value: np.ndarray
    best_keep: np.ndarray
    best_box: np.ndarray


class ArrayAdvisor:
    """Optimal-play queries on ints and arrays for one rule set's value table.

    A layer over :class:`~yahtzee_solver.strategy.policy.Policy` (:attr:`policy`) on an
    :class:`~yahtzee_solver.strategy.policy.ExpectedValueSource` (:attr:`source`): the
    compiled paths (:func:`~yahtzee_solver.solver.kernels.ranked_keeps`,
    :func:`~yahtzee_solver.solver.kernels.ranked_boxes`,
    :func:`~yahtzee_solver.solver.kernels.batch_turn`,
    :func:`~yahtzee_solver.solver.kernels.batch_boxes`) run on the source's public
    arrays (``values``, and the rule set's ``score``, ``joker``, ``params``, or
    ``packed``, the three in one) and rank as the policy does.

    Parameters
    ----------
    rules : str or RuleSet
        Rule-set name (default ``yahtzee``).
    table : ValueTable, optional
        Default: the shipped table for ``rules`` (:func:`~yahtzee_solver.solver.table.load_table`).
    jit : bool
        Use the numba-compiled kernels (default; the first call in a process
        loads them, about 1 s) or the interpreted ones (no numba; a few
        milliseconds per position).

    Raises
    ------
    TableError
        If the table cannot be loaded.
    UsageError
        If ``table`` was built for other rules.

    Notes
    -----
    Safe to share between threads: :meth:`ranked` runs a kernel that makes its
    work arrays per call and returns new arrays, :meth:`option_values`
    allocates per call; the answers are those of one thread asking alone.
    """

    def __init__(self, rules: str | RuleSet = "yahtzee", table: ValueTable | None = None, *, jit: bool = True):
        self.rules: RuleSet = get_rules(rules)
        self.table: ValueTable = resolve_table(self.rules, table)
        self.source: ExpectedValueSource = ExpectedValueSource(self.rules, self.table, jit=jit)
        source = self.source
        self.policy: Policy = Policy(source)
        C = self.rules.n_categories
        self._full = self.rules.full_mask
        self._n_cat = C
        # the arguments of kernels.ranked_keeps and ranked_boxes after the position (four arrays
        # in all, the outputs new per call); their rankings apply the policy's tie-break rule
        self._V = source.values
        self._packed = self.rules.arrays()["packed"]
        self._roll_of_tuple = _roll_of_any_order()
        # the kernels load on the first query (see the kernels property)
        self._ranked_keeps: Callable[..., int] = self._first_ranked_keeps
        self._ranked_boxes: Callable[..., int] = self._first_ranked_boxes

    @property
    def jit(self) -> bool:
        """True when the compiled kernels are used."""
        return self.source.jit

    @property
    def kernels(self) -> ModuleType:
        """The kernel module in use (compiled or interpreted)."""
        return self.source.kernels

    def _bind(self) -> None:
        """Bind the two single-query kernels, on the first query.

        They are the compiled overloads for the exact argument types
        :meth:`ranked` passes (:func:`~yahtzee_solver.solver.jit.entry_point`:
        no numba dispatch per call): Python ints, this table's values, the
        rule set's ``packed`` array and new int64 / float64 arrays.
        """
        k = self.source.kernels
        codes, vals = _empty(1, _INT64), _empty(1)
        self._ranked_keeps = entry_point(k.ranked_keeps, 0, 0, 0, 0, 0, self._V, self._packed, codes, vals)
        self._ranked_boxes = entry_point(k.ranked_boxes, 0, 0, 0, 0, self._V, self._packed, codes, vals)

    def _first_ranked_keeps(self, *args: Any) -> int:
        """``kernels.ranked_keeps`` on the first query: loads the kernels first."""
        self._bind()
        return self._ranked_keeps(*args)

    def _first_ranked_boxes(self, *args: Any) -> int:
        """``kernels.ranked_boxes`` on the first query: loads the kernels first."""
        self._bind()
        return self._ranked_boxes(*args)

    def ranked(self, mask: int, up: int, yb: int, dice: int | Sequence[int], rolls_left: int) -> tuple[np.ndarray, np.ndarray]:
        """The options of one position, best first.

        Parameters
        ----------
        mask, up, yb : int
            Turn-start state: filled-box mask, upper subtotal capped at 63,
            Yahtzee-bonus flag (1 when the Yahtzee box holds 50).
        dice : int or sequence of int
            The five faces showing (1..6, any order), or a roll index 0..251.
            A tuple is first looked up by value (the fast path: a tuple
            holding ``5.0`` or ``True`` reads as 5 or 1 there); anything else
            is checked face by face (a float, bool or string is a DiceError).
        rolls_left : int
            Rerolls left this turn: 2, 1 (keep options) or 0 (box options).

        Returns
        -------
        codes : (m,) int64
            With rerolls left, keep indices into :data:`yahtzee_solver.dice.KEEPS`
            (every distinct keep of the dice; keeping all five, ``ROLL_OFFSET`` +
            roll, is stopping to score now, valued as the best box, the first
            of ``rolls_left=0``: there is no pass);
            with none left, box indices (legal boxes only).
        values : (m,) float64
            Expected points still to come for each option (add the card's
            total for the expected final total), descending (ties: the rule
            of :mod:`yahtzee_solver.strategy.policy`).  Both arrays are new on every call.

        Raises
        ------
        DiceError
            Bad dice.
        ScoreCardError
            A state out of range, unreachable, or a full card.
        UsageError
            ``rolls_left`` not 0, 1 or 2.
        """
        try:
            r = self._roll_of_tuple[dice]  # five faces in any order, as a tuple
        except (KeyError, TypeError):
            r = _roll_of(dice)
        # Python ints, the common case, inline for speed: the kernel checks the state (-1: it has
        # no value) and writes straight into the arrays returned, sized for the options it has
        if (type(mask) is int and type(up) is int and type(yb) is int and type(rolls_left) is int
                and 0 <= mask < self._full):
            try:
                if rolls_left == 0:
                    n = self._n_cat - mask.bit_count()  # the open boxes: legal unless a Joker rule closes some
                    codes, vals = _empty(n, _INT64), _empty(n)
                    if self._ranked_boxes(mask, up, yb, r, self._V, self._packed, codes, vals) == n:
                        return codes, vals
                elif rolls_left == 1 or rolls_left == 2:
                    n = _N_SUBKEEPS[r]
                    codes, vals = _empty(n, _INT64), _empty(n)
                    if self._ranked_keeps(mask, up, yb, r, rolls_left, self._V, self._packed, codes, vals) == n:
                        return codes, vals
            except OverflowError:  # beyond int64: the checks below name the bad value
                pass
        return self._ranked_checked(mask, up, yb, r, rolls_left)

    def _ranked_checked(self, mask: Any, up: Any, yb: Any, r: int, rolls_left: object) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`ranked` for roll index ``r``, every argument checked in Python first (errors in that order)."""
        rl = check_rolls_left(rolls_left, (0, 1, 2))
        V = self._V
        try:
            mask, up, yb = operator.index(mask), operator.index(up), operator.index(yb)
        except TypeError:
            raise ScoreCardError(f"invalid state ({mask!r}, {up!r}, {yb!r}): mask, upper subtotal and "
                                 "yahtzee-bonus flag must be integers") from None
        try:
            ok = 0 <= mask < self._full and (v := V[mask, up, yb]) == v  # NaN: unreachable
        except (IndexError, TypeError, OverflowError):
            ok = False
        if not ok or up < 0 or yb < 0:
            _state_error(self.rules, mask, up, yb)
        mask, up, yb = int(mask), int(up), int(yb)
        if rl:
            codes, vals = _empty(_N_SUBKEEPS[r], _INT64), _empty(_N_SUBKEEPS[r])
            self._ranked_keeps(mask, up, yb, r, rl, V, self._packed, codes, vals)
            return codes, vals
        # a Joker rule may close open boxes: count the legal boxes first (nothing written)
        n = self._ranked_boxes(mask, up, yb, r, V, self._packed, _empty(0, _INT64), _empty(0))
        codes, vals = _empty(n, _INT64), _empty(n)
        self._ranked_boxes(mask, up, yb, r, V, self._packed, codes, vals)
        return codes, vals

    def option_values(self, masks: npt.ArrayLike, ups: npt.ArrayLike, ybs: npt.ArrayLike, dice: npt.ArrayLike,
                      rolls_left: npt.ArrayLike) -> OptionValues:
        """Every option of many positions in one call (see :func:`option_values`)."""
        return _option_values(self, masks, ups, ybs, dice, rolls_left)


def option_values(table: ValueTable, masks: npt.ArrayLike, ups: npt.ArrayLike, ybs: npt.ArrayLike,
                  dice: npt.ArrayLike, rolls_left: npt.ArrayLike, *, jit: bool = True) -> OptionValues:
    """Every keep and box value of ``n`` positions in one call, in parallel.

    Parameters
    ----------
    table : ValueTable
        The value table of the rule set (:func:`~yahtzee_solver.solver.table.load_table`).
    masks, ups, ybs : (n,) array_like of int
        Turn-start states: filled-box mask, upper subtotal capped at 63,
        Yahtzee-bonus flag.
    dice : (n, 5) or (n,) array_like of int
        The five faces showing (1..6, any order in a row), or roll indices 0..251.
    rolls_left : int or (n,) array_like of int
        Rerolls left (0, 1 or 2) for all positions or each.
    jit : bool
        Compiled kernels (default) or interpreted ones.

    Returns
    -------
    OptionValues
        Arrays of expected points still to come (see the class).

    Raises
    ------
    DiceError
        Bad dice (the message names the first bad row).
    ScoreCardError
        A state out of range or unreachable, or a full card (first bad row).
    UsageError
        Mismatched lengths or a ``rolls_left`` outside 0..2.
    """
    return _option_values(ArrayAdvisor(table.rules, table, jit=jit), masks, ups, ybs, dice, rolls_left)


def _state_error(rules: RuleSet, mask: int, up: int, yb: int, where: str = "") -> None:
    """Raise the ScoreCardError that says why state ``(mask, up, yb)`` has no value under ``rules``."""
    full, T, F = rules.full_mask, rules.upper_threshold, rules.n_flags
    state = f"({mask}, {up}, {yb}){where}"
    if not 0 <= mask < full:
        if mask == full:
            raise ScoreCardError(f"invalid state {state}: the card is full, there is no move to advise")
        raise ScoreCardError(f"invalid state {state}: mask must be 0..{full - 1}")
    if not 0 <= up <= T:
        raise ScoreCardError(f"invalid state {state}: upper subtotal must be 0..{T} (capped)")
    if not 0 <= yb < F:
        raise ScoreCardError(f"invalid state {state}: yahtzee-bonus flag must be 0..{F - 1}")
    raise ScoreCardError(f"invalid state {state}: it cannot occur under rules {rules.name!r}")


def _as_index_array(x: npt.ArrayLike, name: str, n: int | None) -> np.ndarray:
    a = np.asarray(x)
    if a.ndim != 1 or (a.size and not np.issubdtype(a.dtype, np.integer)):
        raise UsageError(f"invalid {name}: want a 1-d integer array, got shape {a.shape} dtype {a.dtype}")
    if n is not None and a.shape[0] != n:
        raise UsageError(f"invalid {name}: {a.shape[0]} rows, want {n} (one per position)")
    return np.ascontiguousarray(a, dtype=np.int64)


def _boxes_only(adv: ArrayAdvisor, masks: object, ups: object, ybs: object, dice: object,
                rolls_left: object) -> OptionValues | None:
    """:func:`option_values` of positions with no rerolls left, in one kernel call (``kernels.batch_boxes``).

    Taken when the arguments are already what the kernel reads: int64
    C-contiguous numpy arrays of one length ``n > 0`` (``dice`` (n, 5) faces
    or (n,) roll indices) and ``rolls_left`` the int 0 or an int64 array of
    zeros.  The kernel checks each row; ``None`` when a row is bad or the
    arguments are in another form, and the checked path answers (or names
    the first bad row).  The values are :func:`kernels.box_values`', as the
    general path's.
    """
    if not (type(masks) is np.ndarray and type(ups) is np.ndarray and type(ybs) is np.ndarray
            and type(dice) is np.ndarray):
        return None
    n = masks.shape[0]
    if (masks.ndim != 1 or n == 0 or ups.shape != (n,) or ybs.shape != (n,)
            or not (dice.shape == (n, 5) or dice.shape == (n,))):
        return None
    for a in (masks, ups, ybs, dice):
        if a.dtype != _INT64 or not a.flags.c_contiguous:
            return None
    if type(rolls_left) is np.ndarray:
        if rolls_left.shape != (n,) or rolls_left.dtype != _INT64 or rolls_left.any():
            return None
    elif not (type(rolls_left) is int and rolls_left == 0):
        return None
    rolls = _empty(n, _INT64)
    box_out = _empty((n, adv._n_cat))
    best_box = _empty(n, _INT64)
    best_value = _empty(n)
    if adv.kernels.batch_boxes(masks, ups, ybs, dice.reshape(n, -1), adv._V, adv._packed, rolls, box_out,
                               best_box, best_value) >= 0:
        return None
    keep_out = np.full((n, MAX_KEEPS), np.nan)
    return OptionValues(rolls, ROLL_SUBKEEPS[rolls], keep_out, box_out, best_value, np.full(n, -1, _INT64), best_box)


def _option_values(adv: ArrayAdvisor, masks: npt.ArrayLike, ups: npt.ArrayLike, ybs: npt.ArrayLike,
                   dice: npt.ArrayLike, rolls_left: npt.ArrayLike) -> OptionValues:
    fast = _boxes_only(adv, masks, ups, ybs, dice, rolls_left)
    if fast is not None:
        return fast
    m = _as_index_array(masks, "masks", None)
    n = m.shape[0]
    u = _as_index_array(ups, "ups", n)
    y = _as_index_array(ybs, "ybs", n)
    d = np.asarray(dice)
    if d.ndim == 1:
        r = _as_index_array(d, "dice (roll indices)", n)
        bad = np.flatnonzero((r < 0) | (r >= N_ROLLS))
        if bad.size:
            i = int(bad[0])
            raise DiceError(f"invalid roll index {int(r[i])} at row {i}: want 0..{N_ROLLS - 1}")
    else:
        r = roll_indices(d)
        if r.shape[0] != n:
            raise UsageError(f"invalid dice: {r.shape[0]} rows, want {n} (one per position)")
    if np.ndim(rolls_left) == 0:
        if isinstance(rolls_left, bool) or not isinstance(rolls_left, (int, np.integer)):
            raise UsageError(f"invalid rolls-left {rolls_left!r}: want 0, 1 or 2")
        rl = np.full(n, rolls_left, dtype=np.int64)  # range checked per row below
    else:
        rl = _as_index_array(rolls_left, "rolls_left", n)
    bad = np.flatnonzero((rl < 0) | (rl > 2))
    if bad.size:
        i = int(bad[0])
        raise UsageError(f"invalid rolls-left {int(rl[i])} at row {i}: want 0, 1 or 2")
    rules = adv.rules
    src = adv.source
    V = src.values
    T, F = rules.upper_threshold, rules.n_flags
    inside = (m >= 0) & (m < rules.full_mask) & (u >= 0) & (u <= T) & (y >= 0) & (y < F)
    ok = inside.copy()
    ok[inside] = ~np.isnan(V[m[inside], u[inside], y[inside]])
    bad = np.flatnonzero(~ok)
    if bad.size:
        i = int(bad[0])
        _state_error(rules, int(m[i]), int(u[i]), int(y[i]), f" at row {i}")
    keep_out = np.empty((n, MAX_KEEPS))
    box_out = np.empty((n, rules.n_categories))
    boxes_only = n > 0 and not rl.any()  # no turn to share: one group per position, in order
    if boxes_only:
        order = np.arange(n)
        starts = np.arange(n + 1)
    else:
        # one turn per distinct state: group the positions by state
        key = (m * (T + 1) + u) * F + y
        order = np.argsort(key, kind="stable")
        ks = key[order]
        starts = np.flatnonzero(np.concatenate(([True], ks[1:] != ks[:-1], [True]))) if n else np.zeros(1, np.int64)
    k = adv.kernels
    args = (m, u, y, r, rl, order, starts.astype(np.int64), V, src.score, src.joker, src.params, ROLL_SUBKEEPS,
            keep_out, box_out)
    if src.jit:
        numba = _jit.started_numba()
        if boxes_only:
            work = n * _SECONDS_PER_POSITION
        else:
            levels = np.maximum.reduceat(rl[order], starts[:-1]) if n else np.zeros(0, np.int64)
            work = float(_SECONDS_PER_LEVELS[np.minimum(levels, 2)].sum()) + n * _SECONDS_PER_POSITION
        threads = numba.get_num_threads()
        if work < _PARALLEL_MIN_SECONDS:
            numba.set_num_threads(1)  # thread-local; see _PARALLEL_MIN_SECONDS
        try:
            # dynamic scheduling: groups differ in cost (0 to 2 keep levels, several positions)
            with numba.parallel_chunksize(_CHUNK):
                k.batch_turn(*args)
        finally:
            numba.set_num_threads(threads)
    else:
        k.batch_turn(*args)
    keeps = ROLL_SUBKEEPS[r]
    if boxes_only:  # no keeps: every keep value NaN, the best option is the best box
        best_box = np.where(np.isnan(box_out), -np.inf, box_out).argmax(axis=1)
        best_value = box_out[np.arange(n), best_box]
        return OptionValues(r, keeps, keep_out, box_out, best_value, np.full(n, -1, np.int64), best_box)
    kv = np.where(np.isnan(keep_out), -np.inf, keep_out)
    bv = np.where(np.isnan(box_out), -np.inf, box_out)
    rows = np.arange(n)
    best_keep_col = kv.argmax(axis=1) if n else np.zeros(0, np.int64)
    best_box = bv.argmax(axis=1) if n else np.zeros(0, np.int64)
    has_keeps = rl > 0
    best_keep = np.where(has_keeps, keeps[rows, best_keep_col], -1).astype(np.int64)
    best_value = np.where(has_keeps, kv[rows, best_keep_col], bv[rows, best_box])
    return OptionValues(r, keeps, keep_out, box_out, best_value, best_keep, best_box.astype(np.int64))
