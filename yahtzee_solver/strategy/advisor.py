"""Ranked keep and box options for a position, with expected final scores.

The advisor runs the same turn kernel as the table build
(:func:`yahtzee_solver.solver.kernels.turn`) for the position's state, on top of the
value table of the later states.  Expected values are quoted as the expected
**final total**: points already on the card plus expected points to come.

Example
-------
>>> from yahtzee_solver import Advisor, parse_card
>>> adv = Advisor("yahtzee")
>>> card = parse_card("sixes=18,fours=12,chance=22,yahtzee=50")
>>> best = adv.keep_options(card, "22555", rolls_left=2)[0]
>>> best.keep, round(best.expected, 2)  # doctest: +SKIP
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, NoReturn, TypeVar

import numpy as np

from ..dice import KEEPS, N_KEEPS, ROLL_OFFSET, ROLLS, format_dice, parse_dice, roll_index
from ..errors import ScoreCardError
from ..solver.jit import entry_point
from ..solver.kernels import JOKER_NONE
from .policy import ExpectedValueSource, Policy, check_rolls_left
from ..rules import RuleSet, box_slug, get_rules
from ..state import ScoreCard, StateKey, card_problem, parse_card
from ..solver.table import ValueTable, resolve_table

_R = TypeVar("_R")
_O = TypeVar("_O")

#: A scorecard as the queries take it: a ScoreCard, a card string (``parse_card``), a
#: ``{box: points}`` mapping, or ``None`` for the empty card.
CardLike = ScoreCard | str | Mapping[str, Any] | None

__all__ = ["Advisor", "KeepOption", "BoxOption"]


@dataclass(frozen=True)
class KeepOption:
    """One move after a roll with rerolls left: a keep and reroll, or stopping to score.

    A roll rerolls one to five dice; there is no pass (rerolling none), so
    keeping all five dice means stopping and scoring now (:mod:`~yahtzee_solver.strategy.policy`).
    That option has ``reroll == ()`` and :attr:`score` set: the best box for
    the dice, whose value (``fill``'s, bonuses included) is :attr:`expected`.

    Attributes
    ----------
    keep : tuple of int
        Faces kept (sorted).
    reroll : tuple of int
        Faces rerolled (sorted); empty when this option stops to score.
    expected : float
        Expected final total (points) with optimal play afterwards.
    loss : float
        Points lost in expectation against the best move (0 for the best).
    score : BoxOption or None
        When this option stops to score: the box the dice are scored in (its
        points and bonuses; its ``expected`` equals this option's, its
        ``loss`` is against the other boxes).  ``None`` for a reroll.
    """

    keep: tuple[int, ...]
    reroll: tuple[int, ...]
    expected: float
    loss: float
    score: BoxOption | None = None

    @property
    def stops(self) -> bool:
        """True when this option stops to score now (keeps all five dice) instead of rerolling."""
        return self.score is not None

    def to_dict(self) -> dict[str, Any]:
        """The keep as plain data (the ``options`` of ``hint --json``).

        Returns
        -------
        dict
            ``keep`` and ``reroll``: the dice as a player types them
            (``"555"``, ``"22"``; ``"-"`` for no dice); ``expected``, ``loss``:
            as the attributes (points).
        """
        return {
            "keep": format_dice(self.keep),
            "reroll": format_dice(self.reroll),
            "expected": self.expected,
            "loss": self.loss,
            "stop": self.score is not None,
            "score": None if self.score is None else self.score.to_dict(),
        }


@dataclass(frozen=True)
class BoxOption:
    """One box the final dice may be scored in.

    Attributes
    ----------
    category : int
        Box index in the rule set.
    name : str
        Canonical box name.
    points : int
        Points written in the box (Joker points where the Joker applies).
    yahtzee_bonus : int
        Yahtzee bonus earned by this roll (100 or 0), whichever box is chosen.
    upper_bonus : int
        Upper bonus this score completes (35 or 0).
    expected : float
        Expected final total (points) after scoring here, with optimal play afterwards.
    loss : float
        Points lost in expectation against the best box (0 for the best).
    joker : bool
        True when the roll scores here as a Joker (five alike with the Yahtzee box filled).
    """

    category: int
    name: str
    points: int
    yahtzee_bonus: int
    upper_bonus: int
    expected: float
    loss: float
    joker: bool

    @property
    def gain(self) -> int:
        """Points scored now: box + Yahtzee bonus + upper bonus."""
        return self.points + self.yahtzee_bonus + self.upper_bonus

    def to_dict(self) -> dict[str, Any]:
        """The box as plain data (the ``options`` of ``fill --json``): machine names, display names beside.

        Returns
        -------
        dict
            ``box``: the box's card key (``"full-house"``; what ``--card``,
            :func:`~yahtzee_solver.parse_card` and
            :meth:`RuleSet.category_index <yahtzee_solver.RuleSet.category_index>`
            take); ``name``: its display name (``"Full House"``);
            ``category``: the display name too, the field's meaning before
            ``box`` and ``name`` were added (kept for existing scripts);
            ``points``, ``yahtzee_bonus``, ``upper_bonus``, ``expected``,
            ``loss``, ``joker``: as the attributes (points; ``joker`` a bool).
        """
        return {
            "box": box_slug(self.name),
            "name": self.name,
            "category": self.name,
            "points": self.points,
            "yahtzee_bonus": self.yahtzee_bonus,
            "upper_bonus": self.upper_bonus,
            "expected": self.expected,
            "loss": self.loss,
            "joker": self.joker,
        }


def _make(cls: type[_R], fields: dict[str, Any]) -> _R:
    """A frozen result dataclass from trusted ``fields`` (every field, by name), without ``__init__``.

    The generated ``__init__`` of a frozen dataclass sets each field through
    ``object.__setattr__`` (about 1 us for eight fields); the rankings build up
    to 32 results per query, so they fill the instance dict directly.  The
    result is equal to ``cls(**fields)``.
    """
    obj = object.__new__(cls)
    obj.__dict__.update(fields)
    return obj


#: Per roll index: {keep index: the faces rerolled}, made on first use of each roll (multiset difference).
_REROLLS: dict[int, dict[int, tuple[int, ...]]] = {}


def _rerolls(r: int) -> dict[int, tuple[int, ...]]:
    """The faces rerolled by each keep of roll ``r`` (sorted), for the keeps of the roll."""
    out = _REROLLS.get(r)
    if out is None:
        from ..dice import ROLL_SUBKEEPS

        faces = ROLLS[r]
        out = {}
        for k in ROLL_SUBKEEPS[r].tolist():
            if k < 0:
                break
            rest = list(faces)
            for d in KEEPS[k]:
                rest.remove(d)
            out[k] = tuple(rest)
        _REROLLS[r] = out
    return out


class _Options(Sequence[_O]):
    """A ranking returned by :class:`Advisor`: a read-only sequence of result objects, made on first look.

    The kernel's ranking (codes and values) is kept as it comes; the
    :class:`KeepOption` / :class:`BoxOption` objects are built when an element
    is first read (indexing, iteration, ``len`` does not build them), so a
    query whose answer is only partly read pays for the part read.  Compares
    equal to the list of its elements; slicing gives a list; pickles as a list.
    """

    __slots__ = ("_adv", "_card", "_r", "_n", "_codes", "_vals", "_items")

    def __init__(self, adv: Advisor, card: ScoreCard, r: int, n: int, codes: np.ndarray, vals: np.ndarray) -> None:
        self._adv, self._card, self._r, self._n, self._codes, self._vals = adv, card, r, n, codes, vals
        self._items: list[_O] | None = None

    def _build(self) -> list[_O]:  # pragma: no cover - overridden
        raise NotImplementedError

    def _list(self) -> list[_O]:
        items = self._items
        if items is None:
            items = self._items = self._build()
        return items

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i: Any) -> Any:  # an int gives an option, a slice a list
        return self._list()[i]

    def __iter__(self) -> Iterator[_O]:
        return iter(self._list())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _Options):
            return self._list() == other._list()
        if isinstance(other, list):
            return self._list() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __add__(self, other: Iterable[_O]) -> list[_O]:
        return self._list() + list(other)

    def __repr__(self) -> str:
        return repr(self._list())

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (list, (self._list(),))


class _KeepOptions(_Options[KeepOption]):
    """:meth:`Advisor.keep_options`: every keep and reroll, and stopping to score (keeping all five)."""

    __slots__ = ()

    def _build(self) -> list[KeepOption]:
        n = self._n
        codes = self._codes[:n].tolist()
        vals = self._vals[:n].tolist()
        best = vals[0]
        base = self._card.total
        rerolls = _rerolls(self._r)
        stop = ROLL_OFFSET + self._r
        out: list[KeepOption] = []
        for k, v in zip(codes, vals):
            if k == stop:  # no reroll: stop and score in the best box
                score = self._adv._stop_box(self._card, self._r)
                out.append(_make(KeepOption, {"keep": KEEPS[k], "reroll": (), "expected": base + v,
                                              "loss": best - v, "score": score}))
            else:
                out.append(_make(KeepOption, {"keep": KEEPS[k], "reroll": rerolls[k], "expected": base + v,
                                              "loss": best - v, "score": None}))
        return out


class _BoxOptions(_Options[BoxOption]):
    """:meth:`Advisor.box_options`: the legal boxes, best first."""

    __slots__ = ()

    def _build(self) -> list[BoxOption]:
        n = self._n
        codes = self._codes[:n].tolist()
        vals = self._vals[:n].tolist()
        points, gain, bonus, joker = self._adv._scoring(self._card.key, self._r)
        names = self._adv._names
        best = vals[0]
        total = self._card.total
        return [_make(BoxOption, {
            "category": c, "name": names[c], "points": points[c], "yahtzee_bonus": bonus,
            "upper_bonus": gain[c], "expected": total + v, "loss": best - v, "joker": joker,
        }) for c, v in zip(codes, vals)]


class _Scratch(threading.local):
    """Per-thread outputs of ``kernels.box_scoring`` (the kernels release the GIL: threads must not share them)."""

    def __init__(self, n_categories: int) -> None:
        C = n_categories
        self.arrays = (np.empty(C, np.int64), np.empty(C, np.int8), np.empty(C, np.int64))
        self.keep_out = np.empty(N_KEEPS)  # Advisor.keep_values' answer


_empty, _INT64 = np.empty, np.dtype(np.int64)  # a dtype object: np.empty takes it faster than the type

#: Largest number of dice spellings an advisor remembers (the valid ones: 7,776 orders as tuples, more as text).
_MAX_DICE_MEMO = 1 << 14


class Advisor:
    """Optimal-play queries on one rule set's value table, as ranked result objects.

    A thin layer over :class:`~yahtzee_solver.strategy.policy.Policy` on an
    :class:`~yahtzee_solver.strategy.policy.ExpectedValueSource` (rankings and the
    tie-break rule live there); scoring facts (points, Joker, bonuses) come
    from :meth:`ScoreCard.scoring <yahtzee_solver.state.ScoreCard.scoring>`.

    Parameters
    ----------
    rules : str, RuleSet or None
        Rule-set name (default ``yahtzee``).  ``None``: the rule set of
        ``table`` when one is given, else the default ``yahtzee`` (and its
        shipped table), as for a ``rules`` left out.
    table : ValueTable, optional
        Default: the shipped table for ``rules`` (:func:`load_table`).
    jit : bool
        Run the kernel compiled by numba (default; the first query in a process
        pays for importing numba and loading the compiled kernel, about 1 s)
        or interpreted (no numba; a few milliseconds per keep query -- the
        right choice for a single query from a cold shell).

    Attributes
    ----------
    rules : RuleSet
        The rule set every query is for (``rules`` resolved by
        :func:`~yahtzee_solver.get_rules`); a card of another rule set is
        refused (:class:`ScoreCardError`).
    table : ValueTable
        The value table the expected values come from: ``table`` as given, or
        the shipped one.  Read it for ``table.path`` (the file, ``None`` when
        built in memory) and ``table.value(mask, up, yb)`` (points to come).
    source : ExpectedValueSource
        What each keep and box is worth under optimal play
        (:class:`yahtzee_solver.strategy.policy.ExpectedValueSource` on :attr:`table`);
        ``source.jit`` says whether the compiled kernels are used.
    policy : Policy
        The rankings and the one tie-break rule
        (:class:`yahtzee_solver.strategy.policy.Policy` over :attr:`source`), for callers
        that want index arrays instead of result objects.
    kernels : module
        The kernel module in use (read-only property; see below).

    Raises
    ------
    RuleSetError
        If ``rules`` is not a rule-set name (a ``UsageError``, also a ``ValueError``).
    UsageError
        If ``table`` is not a :class:`ValueTable`, or is for another rule set than ``rules``.
    TableError
        If the table cannot be loaded.

    Notes
    -----
    An advisor pickles as its rule set, its table's file and ``jit`` (a table
    built in memory as its values), and is made again on unpickling, so it can
    be handed to the workers of a ``spawn`` process pool.

    One advisor may be shared by any number of threads (``asyncio.to_thread``
    included): every query computes in work arrays of its own thread, and the
    answers are those of one thread asking alone.  The compiled kernels release
    the GIL, so threads answer in parallel.
    """

    _fast: tuple[np.ndarray, Any, Any] | None  # the whole table and its two ranking kernels, once bound
    _V: np.ndarray | None  # the whole table, once in memory

    def __init__(self, rules: str | RuleSet | None = "yahtzee", table: ValueTable | None = None, *,
                 jit: bool = True):
        if rules is None:  # the table's own rule set, or the default one as when rules is left out
            rules = table.rules if isinstance(table, ValueTable) else "yahtzee"
        self.rules: RuleSet = get_rules(rules)
        self.table: ValueTable = resolve_table(self.rules, table)
        self.source: ExpectedValueSource = ExpectedValueSource(self.rules, self.table, jit=jit)
        self.policy: Policy = Policy(self.source)
        C = self.rules.n_categories
        arrays = self.rules.arrays()
        self._params = arrays["params"]  # scoring uses the true rules
        self._packed = arrays["packed"]
        self._scratch = _Scratch(C)  # per thread
        self._names = tuple(c.name for c in self.rules.categories)
        self._n_cat = C
        self._dice: dict[Any, int] = {}  # dice as given (str or tuple) -> roll index
        self._fast = None  # (V, ranked_keeps, ranked_boxes), bound on the first query (_kernels_for)
        self._V = None  # the whole table, once in memory

    @property
    def kernels(self) -> ModuleType:
        """The kernel module in use (compiled or interpreted)."""
        return self.source.kernels

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled as the recipe to make it again (for spawn-based worker
        # processes): the rule set, the table's file (opened whole or on
        # demand, as here) and jit.  A table built in memory has no file and
        # travels as its values.
        t = self.table
        where: np.ndarray | tuple[str, bool]
        if t.path is None:
            where = np.asarray(t.values)
        else:
            where = (str(t.path), not t.is_loaded)  # a file's table not in memory: opened on demand
        return (_restore_advisor, (self.rules, where, self.source.jit))

    # -- helpers ---------------------------------------------------------
    def _card(self, card: CardLike) -> ScoreCard:
        if card is None:
            return ScoreCard.empty(self.rules)
        if isinstance(card, ScoreCard):
            if card.rules != self.rules:
                raise ScoreCardError(f"card is for rules {card.rules.name!r}, not {self.rules.name!r}")
            return card
        if isinstance(card, str):
            return parse_card(card, self.rules)
        return ScoreCard.from_mapping(card, self.rules)

    def _open_card(self, card: CardLike) -> ScoreCard:
        if type(card) is not ScoreCard or card.rules is not self.rules:  # the common case skips the checks
            card = self._card(card)
        if card.is_full:
            raise card_problem("full")
        return card

    def _roll(self, dice: str | Sequence[int]) -> int:
        """The roll index (0..251) of ``dice`` (as :func:`parse_dice` reads them), remembered by spelling."""
        try:
            return self._dice[dice]
        except (KeyError, TypeError):  # new, or unhashable (a list)
            pass
        r = roll_index(parse_dice(dice))
        if isinstance(dice, (str, tuple)) and len(self._dice) < _MAX_DICE_MEMO:
            self._dice[dice] = r
        return r

    def _kernels_for(self, mask: int) -> tuple[np.ndarray, Any, Any]:
        """The values a turn from ``mask`` reads, with ``kernels.ranked_keeps`` and ``ranked_boxes`` for them.

        Once the whole table is in memory the three never change, and the
        kernels are their compiled overloads for the exact argument types of
        the queries (:func:`~yahtzee_solver.solver.jit.entry_point`: no numba
        dispatch per call).  The queries pass only those types: Python ints
        (the card's state, the roll index, the checked rerolls left), this
        table, the rule set's ``packed`` array and new int64 / float64 arrays.
        """
        fast = self._fast
        if fast is not None:
            return fast
        V = self._values(mask)
        k = self.kernels
        if self._V is None:  # a table read on demand: the value array grows, numba dispatches
            return V, k.ranked_keeps, k.ranked_boxes
        codes, vals = np.empty(1, np.int64), np.empty(1)
        fast = self._fast = (V, entry_point(k.ranked_keeps, 0, 0, 0, 0, 0, V, self._packed, codes, vals),
                             entry_point(k.ranked_boxes, 0, 0, 0, 0, V, self._packed, codes, vals))
        return fast

    def _values(self, mask: int) -> np.ndarray:
        """The values a turn from ``mask`` reads: the whole table once it is in memory, else its rows read so far."""
        V = self._V
        if V is None:
            V = self.source.values_for(mask)
            if self.table.is_loaded:
                # the whole table, not V: another thread may have read it whole after values_for
                # gave this one the rows read so far (kept, the rows never read would stay 0)
                V = self._V = self.table.values
        return V

    def _no_value(self, card: ScoreCard) -> NoReturn:
        """Raise the error of a card whose state has no value in the table (no game reaches it)."""
        mask, up, yb = card.key
        raise ScoreCardError(f"no game reaches this card: the table has no value for state "
                             f"(mask={mask}, up={up}, yb={yb})")

    def _scoring(self, key: StateKey, r: int) -> tuple[list[int], list[int], int, bool]:
        """How roll ``r`` scores from state ``key``: points and upper bonus per box, Yahtzee bonus, Joker (kernel)."""
        src, (points, legal, gain) = self.source, self._scratch.arrays
        bonus, case = self.kernels.box_scoring(*key, r, src.score, src.joker, self._params, points, legal, gain)
        return points.tolist(), gain.tolist(), int(bonus), case != JOKER_NONE

    # -- queries -----------------------------------------------------------
    def expected_final(self, card: CardLike = None) -> float:
        """Expected final total (points) from the start of a turn with ``card``, under optimal play.

        ``card`` may be a :class:`ScoreCard`, a CLI card string or a mapping;
        ``None`` is the empty card (the optimal expected score of the game).
        """
        card = self._card(card)
        if card.is_full:
            return float(card.total)
        return card.total + self.table.value(*card.key)

    def keep_values(self, state: StateKey, rolls_left: int) -> np.ndarray:
        """Expected future points of every keep (462,) at ``rolls_left`` rerolls (1 or 2).

        Low-level: no card, no ranking; index with :data:`yahtzee_solver.dice.KEEPS`.
        A keep of all five dice (index ``ROLL_OFFSET + r``) is no reroll: its
        entry is the value of scoring roll ``r`` now in the best box (there is
        no pass; :mod:`~yahtzee_solver.strategy.policy`), as in :meth:`keep_options`.
        The returned array is reused by the next call of the same thread.

        Raises
        ------
        UsageError
            ``rolls_left`` not 1 or 2.
        """
        rl = check_rolls_left(rolls_left)
        if rl == 1:  # row 0: keeping all five with one reroll left already is scoring now
            return self.source.keep_values(state, 0, 1)
        E = self.source.turn_values(state, 2)
        out = self._scratch.keep_out
        out[:ROLL_OFFSET] = E[1, :ROLL_OFFSET]
        out[ROLL_OFFSET:] = E[0, ROLL_OFFSET:]  # S_0(r): the best box of roll r
        return out

    def keep_options(self, card: CardLike, dice: str | Sequence[int], rolls_left: int = 2) -> Sequence[KeepOption]:
        """Every distinct keep of ``dice``, best first.

        Parameters
        ----------
        card : ScoreCard, str, mapping or None
            The scorecard before this turn's score.
        dice : str or sequence of int
            The five dice showing (e.g. ``"22555"``).
        rolls_left : int
            Rerolls still allowed this turn: 2 after the first roll, 1 after the second.

        Returns
        -------
        sequence of KeepOption
            A read-only sequence (indexing, iteration, ``len``; equal to the list
            of its elements, which are built when first read).  Up to 32 options, ranked by expected final total (ties:
            :mod:`~yahtzee_solver.strategy.policy`): every keep and reroll, and keeping
            all five, which stops to score now in the best box
            (:attr:`KeepOption.score`, valued as :meth:`box_options` values it).

        Raises
        ------
        DiceError, UsageError, ScoreCardError
            Bad dice, ``rolls_left`` not 1 or 2, a full card.
        """
        if type(card) is not ScoreCard or card.rules is not self.rules or card.is_full:
            card = self._open_card(card)
        try:
            r = self._dice[dice]
        except (KeyError, TypeError):  # new, or unhashable (a list)
            r = self._roll(dice)
        if not (type(rolls_left) is int and (rolls_left == 1 or rolls_left == 2)):
            rolls_left = check_rolls_left(rolls_left)
        mask, up, yb = card.key
        V, ranked_keeps, _ = self._fast or self._kernels_for(mask)
        codes, vals = _empty(32, _INT64), _empty(32)
        n = ranked_keeps(mask, up, yb, r, rolls_left, V, self._packed, codes, vals)
        if n <= 0:
            self._no_value(card)
        return _KeepOptions(self, card, r, n, codes, vals)

    def _stop_box(self, card: ScoreCard, r: int) -> BoxOption:
        """The first of :meth:`box_options` for roll index ``r`` (an open card), built alone."""
        key = card.key
        c, v = self.policy.stop_option(key, 0, r)
        points, gain, bonus, joker = self._scoring(key, r)
        return _make(BoxOption, {
            "category": c, "name": self._names[c], "points": points[c], "yahtzee_bonus": bonus,
            "upper_bonus": gain[c], "expected": card.total + v, "loss": 0.0, "joker": joker,
        })

    def box_options(self, card: CardLike, dice: str | Sequence[int]) -> Sequence[BoxOption]:
        """Every box the final ``dice`` may be scored in, best first.

        Boxes that are filled, or closed by the forced-Joker rule, are left out.
        Returns a read-only sequence of :class:`BoxOption` (as :meth:`keep_options`).

        Raises
        ------
        DiceError, ScoreCardError
            Bad dice or a full card.
        """
        if type(card) is not ScoreCard or card.rules is not self.rules or card.is_full:
            card = self._open_card(card)
        try:
            r = self._dice[dice]
        except (KeyError, TypeError):  # new, or unhashable (a list)
            r = self._roll(dice)
        mask, up, yb = card.key
        V, _, ranked_boxes = self._fast or self._kernels_for(mask)
        n = self._n_cat - mask.bit_count()  # the open boxes: legal unless a Joker rule closes some
        codes, vals = _empty(n, _INT64), _empty(n)
        m = ranked_boxes(mask, up, yb, r, V, self._packed, codes, vals)
        if m != n:
            if m < 0:
                self._no_value(card)
            codes, vals = _empty(m, _INT64), _empty(m)  # a Joker rule closed some open boxes
            ranked_boxes(mask, up, yb, r, V, self._packed, codes, vals)
            n = m
        return _BoxOptions(self, card, r, n, codes, vals)

    def hint(self, card: CardLike, dice: str | Sequence[int], rolls_left: int) -> Sequence[KeepOption] | Sequence[BoxOption]:
        """Ranked keeps when ``rolls_left`` is 1 or 2, ranked boxes when it is 0.

        Raises
        ------
        UsageError
            If ``rolls_left`` is not 0, 1 or 2 (and as :meth:`keep_options` / :meth:`box_options`).
        """
        if type(rolls_left) is int:
            if rolls_left == 0:
                return self.box_options(card, dice)
            if rolls_left == 1 or rolls_left == 2:
                return self.keep_options(card, dice, rolls_left)
        if check_rolls_left(rolls_left, (0, 1, 2)) == 0:
            return self.box_options(card, dice)
        return self.keep_options(card, dice, rolls_left)


def _restore_advisor(rules: RuleSet, where: np.ndarray | tuple[str, bool], jit: bool) -> Advisor:
    """The :class:`Advisor` that :meth:`Advisor.__reduce__` describes (loads are cached per process)."""
    from ..solver.table import load_table, open_table

    if isinstance(where, np.ndarray):
        table = ValueTable(rules, where)
    else:
        path, on_demand = where
        table = open_table(rules, path) if on_demand else load_table(rules, path)
    return Advisor(rules, table, jit=jit)
