"""CPU players: one strategy per level, from a casual beginner to optimal play.

A strategy answers the two questions of a turn -- which dice to keep before a
reroll (:meth:`Strategy.choose_keep`) and which box to score the final dice in
(:meth:`Strategy.choose_box`) -- for a :class:`~yahtzee_solver.state.ScoreCard`.

Levels
------
``expert``
    The optimal policy: the keep and box of highest expected final score
    under the value table (the same turn kernel as the table build and the
    :class:`~yahtzee_solver.strategy.advisor.Advisor`): a
    :class:`~yahtzee_solver.strategy.policy.Policy` over an
    :class:`~yahtzee_solver.strategy.policy.ExpectedValueSource`.
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
>>> from yahtzee_solver import make_strategy
>>> cpu = make_strategy("beginner", rng=np.random.default_rng(1))
>>> cpu.choose_keep(ScoreCard.empty(), (2, 2, 5, 5, 5), rolls_left=2)  # doctest: +SKIP
(5, 5, 5)
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Protocol, cast, runtime_checkable

import numpy as np

from ..solver import jit as _jit
from ..dice import KEEPS, parse_dice, roll_index
from ..errors import ScoreCardError, UsageError
from .policy import (
    KernelSource,
    ExpectedValueSource,
    Policy,
    TurnOnlySource,
    ValueSource,
    check_rolls_left,
    turn_only_params,
    zero_values,
)
from ..rules import RuleSet, get_rules
from ..state import ScoreCard, StateKey
from ..solver.table import ValueTable, resolve_table

__all__ = [
    "LEVELS",
    "Strategy",
    "PolicyStrategy",
    "ExpertStrategy",
    "NormalStrategy",
    "BeginnerStrategy",
    "fixed_strategy",
    "turn_only_params",
    "zero_values",
    "blunder_keep",
    "blunder_keeps",
]

#: The CPU levels, weakest first.
LEVELS = ("beginner", "normal", "expert")


@runtime_checkable
class Strategy(Protocol):
    """What a CPU player answers during a turn, and what :mod:`~yahtzee_solver.analysis.simulate` reads.

    Attributes
    ----------
    level : str
        One of :data:`LEVELS` (named in error messages).
    rules : RuleSet
        The rule set it plays (the simulator scores the games with it).
    """

    level: str
    rules: RuleSet

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


# -- expert and normal: a Policy over a value source ----------------------------
class PolicyStrategy:
    """A CPU player that plays a :class:`~yahtzee_solver.strategy.policy.Policy` (keeps and boxes of highest value).

    Ties follow the rule of :mod:`yahtzee_solver.strategy.policy`.  Safe to share
    between threads (the source computes in per-thread work arrays).  The
    game kernel (:func:`yahtzee_solver.analysis.simulate.play_games`) plays the same
    policy when the source is a :class:`~yahtzee_solver.strategy.policy.KernelValueSource`.

    Parameters
    ----------
    source : ValueSource
    level : str
        The name reported (default: the class's ``level``).
    """

    level: str = ""

    def __init__(self, source: ValueSource, level: str = ""):
        self.source: ValueSource = source
        self.policy: Policy = Policy(source)
        self.rules: RuleSet = source.rules
        if level:
            self.level = level

    @property
    def _kernel_source(self) -> KernelSource:
        """The source as a kernel source (expert, normal); another source has none of the attributes below."""
        return cast(KernelSource, self.source)

    @property
    def kernels(self) -> ModuleType:
        """The kernel module of the source (compiled or interpreted)."""
        return self._kernel_source.kernels

    @property
    def values(self) -> np.ndarray:
        """The value array the decisions look ahead with (``source.values``; kernel sources)."""
        return self._kernel_source.values

    @property
    def params(self) -> np.ndarray:
        """The rule parameters the decisions use (``source.params``; kernel sources)."""
        return self._kernel_source.params

    def keep_values(self, state: StateKey) -> np.ndarray:
        """Points still to come of every keep at 1 and 2 rerolls left, (3, 462) float64 (row ``rolls_left - 1``).

        For a :class:`~yahtzee_solver.strategy.policy.KernelValueSource`; reused by the next call of the same thread.
        """
        return self._kernel_source.turn_values(state, 2)

    def choose_keep(self, card: ScoreCard, dice: str | Sequence[int], rolls_left: int) -> tuple[int, ...]:
        """The keep of highest value (:meth:`Policy.choose_keep <yahtzee_solver.strategy.policy.Policy.choose_keep>`).

        Raises
        ------
        DiceError, ScoreCardError, UsageError
            Bad dice, a card of other rules or a full card, ``rolls_left`` not 1 or 2.
        """
        card = _check_card(card, self.rules)
        rl = check_rolls_left(rolls_left)
        r = roll_index(parse_dice(dice))
        return KEEPS[self.policy.choose_keep(card.key, card.total, r, rl)]

    def choose_box(self, card: ScoreCard, dice: str | Sequence[int]) -> int:
        """The legal box of highest value (:meth:`Policy.choose_box <yahtzee_solver.strategy.policy.Policy.choose_box>`).

        Raises
        ------
        DiceError, ScoreCardError
            Bad dice, a card of other rules or a full card.
        """
        card = _check_card(card, self.rules)
        r = roll_index(parse_dice(dice))
        return self.policy.choose_box(card.key, card.total, r)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(rules={self.rules.name!r})"


class ExpertStrategy(PolicyStrategy):
    """Optimal play from the value table (highest expected final score).

    Parameters
    ----------
    rules : str or RuleSet
    table : ValueTable, optional
        Default: the shipped table (:func:`~yahtzee_solver.solver.table.load_table`).
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
        self.table: ValueTable = resolve_table(rules, table)
        super().__init__(ExpectedValueSource(rules, self.table, jit=jit))


class NormalStrategy(PolicyStrategy):
    """Best expected points of the current turn only (no upper-bonus or later-turn planning).

    A :class:`~yahtzee_solver.strategy.policy.TurnOnlySource`: the turn kernel over
    :func:`zero_values` with :func:`turn_only_params`.  Needs no value table.
    """

    level = "normal"

    def __init__(self, rules: str | RuleSet = "yahtzee", *, jit: bool = True):
        super().__init__(TurnOnlySource(get_rules(rules), jit=jit))


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

    Notes
    -----
    Safe to share between threads (work arrays per call), but the threads
    then draw from one ``rng`` in the order they happen to ask: for
    repeatable play give each thread a player with its own generator.

    Raises
    ------
    UsageError
        If ``blunder`` is outside 0..1.
    """

    level = "beginner"

    def __init__(self, rules: str | RuleSet = "yahtzee", *, rng: np.random.Generator | None = None,
                 blunder: float = 0.2):
        self.rules: RuleSet = get_rules(rules)
        if not 0.0 <= blunder <= 1.0:
            raise UsageError(f"invalid blunder probability {blunder!r}: want 0 to 1")
        self.blunder: float = float(blunder)
        self.rng: np.random.Generator = rng if rng is not None else np.random.default_rng()
        # boxes for a pattern a casual player stands on: Full House, straights, five alike
        self._made = tuple(
            c for c, spec in enumerate(self.rules.categories)
            if spec.kind in ("full_house", "straight", "five_alike")
        )

    @property
    def made_mask(self) -> int:
        """Bit mask of the boxes whose made pattern this player stands on (Full House, straights, five alike)."""
        m = 0
        for c in self._made:
            m |= 1 << c
        return m

    def choose_keep(self, card: ScoreCard, dice: str | Sequence[int], rolls_left: int) -> tuple[int, ...]:
        """Stand on a made pattern, else keep the most common face; sometimes a random keep.

        Draws one uniform number per call (two when it blunders) from ``rng``.
        The casual keep is :func:`yahtzee_solver.solver.kernels.beginner_keep` and the
        blunder :func:`blunder_keep`, the definitions the exact score
        distribution (:mod:`yahtzee_solver.strategy.distribution`) uses too.

        Raises
        ------
        DiceError, ScoreCardError, UsageError
            Bad dice, a card of other rules or a full card, ``rolls_left`` not 1 or 2.
        """
        card = _check_card(card, self.rules)
        check_rolls_left(rolls_left)
        faces = parse_dice(dice)
        if self.rng.random() < self.blunder:
            return blunder_keep(faces, int(self.rng.integers(0, 32)))
        mask, up, yb = card.key
        a = self.rules.arrays()
        C = self.rules.n_categories
        k = _jit.interpreted().beginner_keep(
            mask, up, yb, roll_index(faces), self.made_mask, a["score"], a["joker"], a["params"],
            np.empty(C, np.int64), np.empty(C, np.int8),
        )
        return KEEPS[k]

    def choose_box(self, card: ScoreCard, dice: str | Sequence[int]) -> int:
        """The legal box with the most points now (ties: the lowest box index).

        :func:`yahtzee_solver.solver.kernels.beginner_box`.

        Raises
        ------
        DiceError, ScoreCardError
            Bad dice, a card of other rules or a full card.
        """
        card = _check_card(card, self.rules)
        r = roll_index(parse_dice(dice))
        mask, up, yb = card.key
        a = self.rules.arrays()
        C = self.rules.n_categories
        return int(_jit.interpreted().beginner_box(
            mask, up, yb, r, a["score"], a["joker"], a["params"], np.empty(C, np.int64), np.empty(C, np.int8),
        ))

    def __repr__(self) -> str:
        return f"BeginnerStrategy(rules={self.rules.name!r}, blunder={self.blunder})"


def blunder_keep(faces: tuple[int, ...], pick: int) -> tuple[int, ...]:
    """The beginner's blunder: the dice at the positions of the bits of ``pick`` (0..31) in sorted ``faces``.

    Each of the 32 subsets of the five positions is equally likely, so a keep's
    probability is the number of position subsets that give it, over 32.
    """
    return tuple(f for i, f in enumerate(faces) if (pick >> i) & 1)


_BLUNDER_KEEPS: np.ndarray | None = None


def blunder_keeps() -> np.ndarray:
    """Keep index of :func:`blunder_keep` for every roll and pick.

    Returns
    -------
    (252, 32) int32, read-only
        ``out[r, pick]`` = keep index (:data:`~yahtzee_solver.dice.KEEPS`) of
        ``blunder_keep(ROLLS[r], pick)``.
    """
    global _BLUNDER_KEEPS
    if _BLUNDER_KEEPS is None:
        from ..dice import ROLLS, keep_index

        out = np.array([[keep_index(blunder_keep(roll, p)) for p in range(32)] for roll in ROLLS], np.int32)
        out.setflags(write=False)
        _BLUNDER_KEEPS = out
    return _BLUNDER_KEEPS


def fixed_strategy(
    level: str,
    rules: str | RuleSet = "yahtzee",
    *,
    rng: np.random.Generator | None = None,
    table: ValueTable | None = None,
    jit: bool = True,
) -> Strategy:
    """The fixed-policy CPU player of ``level`` (one of :data:`LEVELS`).

    :func:`yahtzee_solver.strategy.levels.make_strategy` adds ``master``.

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
    raise UsageError(f"unknown level {level!r} (choose from {', '.join(LEVELS)})")
