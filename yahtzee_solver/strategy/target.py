"""Ranked options for reaching a target score: P(final total >= T) beside the expected final total.

:class:`TargetAdvisor` answers the questions of :class:`~yahtzee_solver.strategy.advisor.Advisor`
(which dice to keep, which box to score) for a player who wants to finish with
at least ``T`` points.  The probabilities come from the exact offset DP of
:mod:`yahtzee_solver.strategy.objectives` (:class:`~yahtzee_solver.strategy.objectives.TargetSource`);
beside each option stands its expected final total under optimal expected-score
play afterwards (the value table), so the price of chasing the target is visible.

The options are ranked by the policy layer (:class:`~yahtzee_solver.strategy.policy.Policy`
over the target source, the expected final total as its tie-break source): equal
probabilities (a target already sure or out of reach) are ordered by expected
final total, then by the usual rule.  When the target is out of reach every
probability is 0 and no DP is solved: the ranking is then the expected-score
policy's, which is the same order.

Example
-------
>>> from yahtzee_solver import parse_card
>>> from yahtzee_solver.strategy.target import TargetAdvisor
>>> adv = TargetAdvisor("yahtzee", 273)
>>> card = parse_card("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,ls=40")
>>> adv.box_options(card, "11112")[0].name          # doctest: +SKIP
'Chance'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .advisor import Advisor, CardLike
from ..dice import KEEPS, format_dice, parse_dice, roll_index
from ..errors import UsageError
from .objectives import TargetSource, UtilitySolution, max_points_to_come
from .policy import Policy
from .probability import clip_probability
from ..rules import RuleSet, box_slug, get_rules
from ..state import ScoreCard
from ..solver.table import ValueTable, resolve_table

__all__ = ["TargetAdvisor", "TargetKeepOption", "TargetBoxOption"]


@dataclass(frozen=True)
class TargetKeepOption:
    """One move with rerolls left, valued by the chance of reaching the target.

    Keeping all five dice is no reroll (there is no pass): it stops and
    scores now, in the box of best chance, :attr:`score`.

    Attributes
    ----------
    keep, reroll : tuple of int
        Faces kept and rerolled (sorted); ``reroll`` empty when this option stops to score.
    probability : float
        Best P(final total >= target) after this keep.
    expected : float
        Expected final total (points) after this keep with optimal expected-score play.
    score : TargetBoxOption or None
        When this option stops to score: the box the dice are scored in (the
        first of :meth:`TargetAdvisor.box_options`); ``None`` for a reroll.
    """

    keep: tuple[int, ...]
    reroll: tuple[int, ...]
    probability: float
    expected: float
    score: TargetBoxOption | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"keep": format_dice(self.keep), "reroll": format_dice(self.reroll),
                "probability": self.probability, "expected": self.expected,
                "stop": self.score is not None, "score": None if self.score is None else self.score.to_dict()}


@dataclass(frozen=True)
class TargetBoxOption:
    """One box for the final dice, valued by the chance of reaching the target.

    Attributes
    ----------
    category : int
    name : str
    points : int
        Points written in the box (Joker points where the Joker applies).
    yahtzee_bonus, upper_bonus : int
        Bonuses this score earns now (points).
    probability : float
        Best P(final total >= target) after scoring here.
    expected : float
        Expected final total (points) after scoring here with optimal expected-score play.
    joker : bool
    """

    category: int
    name: str
    points: int
    yahtzee_bonus: int
    upper_bonus: int
    probability: float
    expected: float
    joker: bool

    @property
    def gain(self) -> int:
        """Points scored now: box + Yahtzee bonus + upper bonus."""
        return self.points + self.yahtzee_bonus + self.upper_bonus

    def to_dict(self) -> dict[str, Any]:
        # the box's machine name and display name, as BoxOption.to_dict gives them
        return {"box": box_slug(self.name), "name": self.name, "category": self.name, "points": self.points, "yahtzee_bonus": self.yahtzee_bonus,
                "upper_bonus": self.upper_bonus, "probability": self.probability,
                "expected": self.expected, "joker": self.joker}


class TargetAdvisor:
    """Target-score queries on one rule set.

    Parameters
    ----------
    rules : str or RuleSet
    target : int
        Final total to reach (points, >= 0).
    table : ValueTable, optional
        Value table for the expected final totals shown beside (default: shipped).
    jit : bool
        Compiled kernels (default) or interpreted (only for a few open boxes).
    progress : callable, optional
        ``progress(done_states, all_states)`` during a solve.

    Raises
    ------
    UsageError
        For a negative or non-integer target.

    Notes
    -----
    Safe to share between threads, the answers those of one thread asking
    alone.  The solved DP kept is replaced whole; a thread asking about a card
    the kept DP does not cover solves from that card (threads asking about
    unrelated cards at once may each solve theirs).
    """

    def __init__(self, rules: str | RuleSet, target: int, table: ValueTable | None = None, *, jit: bool = True,
                 progress: Callable[[int, int], object] | None = None) -> None:
        self.rules: RuleSet = get_rules(rules)
        self.source: TargetSource = TargetSource(self.rules, target, jit=jit, progress=progress)
        self.target: int = self.source.target
        self.advisor: Advisor = Advisor(self.rules, resolve_table(self.rules, table), jit=False)
        self.policy: Policy = Policy(self.source, tiebreak=self.advisor.source)

    def max_final(self, card: ScoreCard) -> int:
        """An upper bound on the final total from ``card`` (points): the most its open boxes can add."""
        k = card.key
        return card.total + int(max_points_to_come(self.rules, [k[0]], [k[1]], [k[2]])[0])

    def reachable(self, card: ScoreCard) -> bool:
        """False when the target is out of reach from ``card`` whatever the dice (then P = 0)."""
        return self.max_final(card) >= self.target

    def _solve(self, card: ScoreCard) -> UtilitySolution:
        return self.source.solution(card.key, card.total)

    def probability(self, card: CardLike = None) -> float:
        """Best P(final total >= target) from the start of a turn with ``card`` (exact)."""
        sc = self.advisor._card(card)
        if sc.is_full:
            return float(sc.total >= self.target)
        if not self.reachable(sc):
            return 0.0
        self._solve(sc)
        return self.source.probability(sc)

    def keep_options(self, card: CardLike, dice: str | Sequence[int], rolls_left: int = 2) -> list[TargetKeepOption]:
        """Every distinct keep of ``dice``, by P(final >= target), best first.

        Equal probabilities (a target already sure or out of reach) are
        ordered by expected final total, then the smaller keep first.

        Raises
        ------
        DiceError, UsageError, ScoreCardError
            As :meth:`Advisor.keep_options`.
        """
        ev = self.advisor.keep_options(card, dice, rolls_left)
        card = self.advisor._open_card(card)
        faces = parse_dice(dice)
        codes, vals = self._policy(card).keep_ranking(card.key, card.total, roll_index(faces), rolls_left)
        expected = {o.keep: o.expected for o in ev}
        out = []
        for k, p in zip(codes.tolist(), self._probabilities(card, vals)):
            keep = KEEPS[k]
            if len(keep) == len(faces):  # no reroll: scoring now in the box of best chance (its value)
                box = self.box_options(card, faces)[0]
                out.append(TargetKeepOption(keep, (), p, box.expected, box))
                continue
            rest = list(faces)
            for d in keep:
                rest.remove(d)
            out.append(TargetKeepOption(keep, tuple(rest), p, expected[keep]))
        return out

    def box_options(self, card: CardLike, dice: str | Sequence[int]) -> list[TargetBoxOption]:
        """Every legal box for the final ``dice``, by P(final >= target), best first.

        Equal probabilities are ordered by expected final total, then the lower box first.

        Raises
        ------
        DiceError, ScoreCardError
        """
        ev = self.advisor.box_options(card, dice)
        card = self.advisor._open_card(card)
        boxes, vals = self._policy(card).box_ranking(card.key, card.total, roll_index(parse_dice(dice)))
        by_cat = {o.category: o for o in ev}
        out = []
        for c, p in zip(boxes.tolist(), self._probabilities(card, vals)):
            o = by_cat[c]
            out.append(TargetBoxOption(c, o.name, o.points, o.yahtzee_bonus, o.upper_bonus, p, o.expected, o.joker))
        return out

    def _policy(self, card: ScoreCard) -> Policy:
        """The target policy, or the expected-score one when the target is out of reach (same order, no DP)."""
        if self.reachable(card):
            self._solve(card)
            return self.policy
        return self.advisor.policy

    def _probabilities(self, card: ScoreCard, values: np.ndarray) -> list[float]:
        """The options' P(final >= target): the DP's values, each sum's rounding clipped to [0, 1]."""
        return clip_probability(values).tolist() if self.reachable(card) else [0.0] * len(values)

    def hint(self, card: CardLike, dice: str | Sequence[int],
             rolls_left: int) -> list[TargetKeepOption] | list[TargetBoxOption]:
        """Ranked keeps when ``rolls_left`` is 1 or 2, ranked boxes when it is 0."""
        if isinstance(rolls_left, bool) or rolls_left not in (0, 1, 2):
            raise UsageError(f"invalid rolls-left {rolls_left!r}: want 0, 1 or 2")
        if rolls_left == 0:
            return self.box_options(card, dice)
        return self.keep_options(card, dice, rolls_left)

