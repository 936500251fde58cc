"""CPU players: one strategy per level, from a casual beginner to optimal play.

A strategy answers the two questions of a turn -- which dice to keep before a
reroll (:meth:`Strategy.choose_keep`) and which box to score the final dice in
(:meth:`Strategy.choose_box`) -- for a :class:`~yahtzee_solver.state.ScoreCard`.

Levels
------
``expert``
    The optimal policy: the keep and box of highest expected final score
    under the value table (the same turn kernel as the table build and the
    :class:`~yahtzee_solver.advisor.Advisor`; ties go to the smallest keep and
    the lowest box index, as in ``Advisor.keep_options``/``box_options``).
``normal``
    Maximises the expected points of the current turn only: the same turn
    kernel run on an all-zero future table, with the upper bonus removed from
    the rule parameters.  It scores what a box shows now (the +100 Yahtzee
    bonus included) and never plans for the upper bonus or later turns.
    This is pure data (:func:`turn_only_params`), no special-case code.
``beginner``
    A casual player: stands on a made pattern (Full House, a straight, five
    alike) that scores in an open box, otherwise keeps every die of its
    most common face (the higher face on a tie); with probability
    ``blunder`` (default 0.2) it keeps a random subset of the dice instead.
    It scores in the legal box that gives the most points now (ties: the
    lowest box).  Randomness only through the injected ``rng``.

Example
-------
>>> import numpy as np
>>> from yahtzee_solver import ScoreCard
>>> from yahtzee_solver.players import make_strategy
>>> cpu = make_strategy("beginner", rng=np.random.default_rng(1))
>>> cpu.choose_keep(ScoreCard.empty(), (2, 2, 5, 5, 5), rolls_left=2)  # doctest: +SKIP
(5, 5, 5)
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from . import jit as _jit
from .dice import KEEP_COUNTS, KEEPS, N_KEEPS, ROLL_OFFSET, ROLL_SUBKEEPS, parse_dice, roll_index
from .errors import ScoreCardError, UsageError
from .rules import P_UPPER_BONUS, RuleSet, get_rules
from .state import ScoreCard, StateKey
from .table import ValueTable, load_table

__all__ = [
    "LEVELS",
    "Strategy",
    "ExpertStrategy",
    "NormalStrategy",
    "BeginnerStrategy",
    "make_strategy",
    "turn_only_params",
    "zero_values",
]

#: The CPU levels, weakest first.
LEVELS = ("beginner", "normal", "expert")


@runtime_checkable
class Strategy(Protocol):
    """What a CPU player answers during a turn."""

    level: str

    def choose_keep(self, card: ScoreCard, dice: tuple[int, ...], rolls_left: int) -> tuple[int, ...]:
        """Faces to keep (a sorted sub-multiset of dice); all five = stop rolling."""
        ...

    def choose_box(self, card: ScoreCard, dice: tuple[int, ...]) -> int:
        """Category index; always legal (ScoreCard.box_points legal list)."""
        ...


# -- shared input checks ---------------------------------------------------------
def _check_card(card: ScoreCard, rules: RuleSet) -> ScoreCard:
    if not isinstance(card, ScoreCard):
        raise ScoreCardError(f"invalid card {card!r}: want a ScoreCard")
    if card.rules != rules:
        raise ScoreCardError(f"card is for rules {card.rules.name!r}, not {rules.name!r}")
    if card.is_full:
        raise ScoreCardError("the card is full: the game is over, there is no move to choose")
    return card


def _check_rolls_left(rolls_left) -> int:
    if isinstance(rolls_left, bool) or rolls_left not in (1, 2):
        raise UsageError(f"invalid rolls-left {rolls_left!r} for a keep: want 1 or 2")
    return int(rolls_left)


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


# -- expert and normal: the turn kernel on a value array ----------------------------
class _TurnSearchStrategy:
    """Best keep / best box by the turn kernel over ``values`` with ``params`` (decision data)."""

    level = ""

    def __init__(self, rules: RuleSet, values: np.ndarray, params: np.ndarray, jit: bool):
        self.rules = rules
        self.values = values
        self.params = params
        a = rules.arrays()
        self._score, self._joker = a["score"], a["joker"]
        self._jit = jit
        self._k = None
        C = rules.n_categories
        self._E = np.empty((3, N_KEEPS))
        self._B = np.empty(N_KEEPS)
        self._points = np.empty(C, np.int64)
        self._legal = np.empty(C, np.int8)
        self._box_values = np.empty(C)
        self._state: StateKey | None = None

    @property
    def kernels(self):
        """The kernel module in use (compiled or interpreted)."""
        if self._k is None:
            self._k = _jit.backend(self._jit)
        return self._k

    def keep_values(self, state: StateKey) -> np.ndarray:
        """Expected future points of every keep at 1 and 2 rerolls left, (3, 462) float64.

        Row ``rolls_left - 1``; cached for the last state asked (a turn asks twice).
        """
        if state != self._state:
            self._state = None
            self.kernels.turn(
                state.filled, state.upper, state.yahtzee_bonus, 2, self.values,
                self._score, self._joker, self.params, self._E, self._B,
            )
            self._state = state
        return self._E

    def choose_keep(self, card: ScoreCard, dice, rolls_left: int) -> tuple[int, ...]:
        """The keep of highest expected value (ties: the keep listed first, i.e. the smaller).

        Raises
        ------
        DiceError, ScoreCardError, UsageError
            Bad dice, a card of other rules or a full card, ``rolls_left`` not 1 or 2.
        """
        card = _check_card(card, self.rules)
        rl = _check_rolls_left(rolls_left)
        r = roll_index(parse_dice(dice))
        E = self.keep_values(card.key)[rl - 1]
        best_k, best_v = -1, -np.inf
        for k in ROLL_SUBKEEPS[r]:
            if k < 0:
                break
            if E[k] > best_v:
                best_v, best_k = E[k], int(k)
        return KEEPS[best_k]

    def choose_box(self, card: ScoreCard, dice) -> int:
        """The legal box of highest value (points now + decision future; ties: lowest index).

        Raises
        ------
        DiceError, ScoreCardError
            Bad dice, a card of other rules or a full card.
        """
        card = _check_card(card, self.rules)
        r = roll_index(parse_dice(dice))
        k = card.key
        self.kernels.box_values(
            k.filled, k.upper, k.yahtzee_bonus, r, self.values, self._score, self._joker,
            self.params, self._points, self._legal, self._box_values,
        )
        best_c, best_v = -1, -np.inf
        for c in range(self.rules.n_categories):
            if self._legal[c] and self._box_values[c] > best_v:
                best_v, best_c = self._box_values[c], c
        return best_c

    def __repr__(self) -> str:
        return f"{type(self).__name__}(rules={self.rules.name!r})"


class ExpertStrategy(_TurnSearchStrategy):
    """Optimal play from the value table (highest expected final score).

    Parameters
    ----------
    rules : str or RuleSet
    table : ValueTable, optional
        Default: the shipped table (:func:`~yahtzee_solver.table.load_table`).
    jit : bool
        Compiled kernels (default) or interpreted (no numba import).

    Raises
    ------
    TableError
        If the table cannot be loaded.
    UsageError
        If ``table`` is for other rules.
    """

    level = "expert"

    def __init__(self, rules: str | RuleSet = "yahtzee", table: ValueTable | None = None, *, jit: bool = True):
        rules = get_rules(rules)
        if table is None:
            table = load_table(rules)
        elif table.rules != rules:
            raise UsageError(f"table is for rules {table.rules.name!r}, not {rules.name!r}")
        self.table = table
        super().__init__(rules, table.values, rules.arrays()["params"], jit)


class NormalStrategy(_TurnSearchStrategy):
    """Best expected points of the current turn only (no upper-bonus or later-turn planning).

    The turn kernel over :func:`zero_values` with :func:`turn_only_params`.
    Needs no value table.
    """

    level = "normal"

    def __init__(self, rules: str | RuleSet = "yahtzee", *, jit: bool = True):
        rules = get_rules(rules)
        super().__init__(rules, zero_values(rules), turn_only_params(rules), jit)


class BeginnerStrategy:
    """A casual player: keeps its most common face, blunders now and then, takes the most points now.

    Parameters
    ----------
    rules : str or RuleSet
    rng : numpy.random.Generator, optional
        Source of the blunders (default: a fresh ``default_rng()``; pass a
        seeded one for repeatable play).
    blunder : float
        Probability (0..1) that a keep is a uniformly random subset of the
        five dice instead of the casual keep.

    Raises
    ------
    UsageError
        If ``blunder`` is outside 0..1.
    """

    level = "beginner"

    def __init__(self, rules: str | RuleSet = "yahtzee", *, rng: np.random.Generator | None = None,
                 blunder: float = 0.2):
        self.rules = get_rules(rules)
        if not 0.0 <= blunder <= 1.0:
            raise UsageError(f"invalid blunder probability {blunder!r}: want 0 to 1")
        self.blunder = float(blunder)
        self.rng = rng if rng is not None else np.random.default_rng()
        # boxes for a pattern a casual player stands on: Full House, straights, five alike
        self._made = tuple(
            c for c, spec in enumerate(self.rules.categories)
            if spec.kind in ("full_house", "straight", "five_alike")
        )

    def choose_keep(self, card: ScoreCard, dice, rolls_left: int) -> tuple[int, ...]:
        """Stand on a made pattern, else keep the most common face; sometimes a random keep.

        Draws one uniform number per call (two when it blunders) from ``rng``.

        Raises
        ------
        DiceError, ScoreCardError, UsageError
            Bad dice, a card of other rules or a full card, ``rolls_left`` not 1 or 2.
        """
        card = _check_card(card, self.rules)
        _check_rolls_left(rolls_left)
        faces = parse_dice(dice)
        if self.rng.random() < self.blunder:
            pick = int(self.rng.integers(0, 32))
            return tuple(f for i, f in enumerate(faces) if (pick >> i) & 1)
        points, legal, _ = card.box_points(faces)
        if any(legal[c] and points[c] > 0 for c in self._made):
            return faces
        counts = KEEP_COUNTS[ROLL_OFFSET + roll_index(faces)]
        face = max(range(6), key=lambda f: (counts[f], f)) + 1
        return (face,) * int(counts[face - 1])

    def choose_box(self, card: ScoreCard, dice) -> int:
        """The legal box with the most points now (ties: the lowest box index).

        Raises
        ------
        DiceError, ScoreCardError
            Bad dice, a card of other rules or a full card.
        """
        card = _check_card(card, self.rules)
        points, legal, _ = card.box_points(dice)
        return max((c for c in range(len(points)) if legal[c]), key=lambda c: (points[c], -c))

    def __repr__(self) -> str:
        return f"BeginnerStrategy(rules={self.rules.name!r}, blunder={self.blunder})"


def make_strategy(
    level: str,
    rules: str | RuleSet = "yahtzee",
    *,
    rng: np.random.Generator | None = None,
    table: ValueTable | None = None,
    jit: bool = True,
) -> Strategy:
    """The CPU player of ``level`` (one of :data:`LEVELS`).

    Parameters
    ----------
    level : str
        ``beginner``, ``normal`` or ``expert`` (case-insensitive).
    rules : str or RuleSet
    rng : numpy.random.Generator, optional
        Used by ``beginner`` only (the others are deterministic).
    table : ValueTable, optional
        Used by ``expert`` only (default: the shipped table).
    jit : bool
        Compiled (default) or interpreted kernels for ``expert``/``normal``.

    Raises
    ------
    UsageError
        For an unknown level.
    RuleSetError
        For unknown rules.
    TableError
        If the expert's table cannot be loaded.
    """
    name = str(level).strip().lower()
    if name == "expert":
        return ExpertStrategy(rules, table, jit=jit)
    if name == "normal":
        return NormalStrategy(rules, jit=jit)
    if name == "beginner":
        return BeginnerStrategy(rules, rng=rng)
    if name == "master":  # plays to win against the opponent it is told about (yahtzee_solver.master)
        from .master import MasterStrategy

        return MasterStrategy(rules, table, jit=jit)
    raise UsageError(f"unknown level {level!r} (choose from {', '.join(LEVELS)})")
