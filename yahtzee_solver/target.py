"""Ranked options for reaching a target score: P(final total >= T) beside the expected final total.

:class:`TargetAdvisor` answers the questions of :class:`~yahtzee_solver.advisor.Advisor`
(which dice to keep, which box to score) for a player who wants to finish with
at least ``T`` points.  The probabilities come from the exact offset DP of
:mod:`yahtzee_solver.objectives` (:class:`~yahtzee_solver.objectives.TargetSource`);
beside each option stands its expected final total under optimal expected-score
play afterwards (the value table), so the price of chasing the target is visible.

Example
-------
>>> from yahtzee_solver import parse_card
>>> from yahtzee_solver.target import TargetAdvisor
>>> adv = TargetAdvisor("yahtzee", 273)
>>> card = parse_card("ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,ls=40")
>>> adv.box_options(card, "11112")[0].name          # doctest: +SKIP
'Chance'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .advisor import Advisor
from .dice import KEEPS, ROLL_SUBKEEPS, format_dice, parse_dice, roll_index
from .errors import UsageError
from .objectives import TargetSource, max_points_to_come
from .rules import RuleSet, get_rules
from .state import ScoreCard
from .table import ValueTable, resolve_table

__all__ = ["TargetAdvisor", "TargetKeepOption", "TargetBoxOption", "rank_values"]


@dataclass(frozen=True)
class TargetKeepOption:
    """One keep, valued by the chance of reaching the target.

    Attributes
    ----------
    keep, reroll : tuple of int
        Faces kept and rerolled (sorted).
    probability : float
        Best P(final total >= target) after this keep.
    expected : float
        Expected final total (points) after this keep with optimal expected-score play.
    """

    keep: tuple
    reroll: tuple
    probability: float
    expected: float

    def to_dict(self) -> dict:
        return {"keep": format_dice(self.keep), "reroll": format_dice(self.reroll),
                "probability": self.probability, "expected": self.expected}


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

    def to_dict(self) -> dict:
        return {"category": self.name, "points": self.points, "yahtzee_bonus": self.yahtzee_bonus,
                "upper_bonus": self.upper_bonus, "probability": self.probability,
                "expected": self.expected, "joker": self.joker}


def rank_values(codes: np.ndarray, values: np.ndarray, tiebreak: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """Codes and values best first; equal values by ``tiebreak`` (higher first), then in the given order.

    Local stand-in for ``Policy.keep_ranking`` / ``Policy.box_ranking`` of the
    policy layer (same final tie rule: smaller keep / lower box first); to be
    replaced by ``Policy`` when it lands, the expected total as tie-break kept.
    """
    values = np.asarray(values)
    keys = [-values] if tiebreak is None else [-np.asarray(tiebreak), -values]
    order = np.lexsort([np.arange(values.size)] + keys)
    return np.asarray(codes)[order], values[order]


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
    """

    def __init__(self, rules: str | RuleSet, target: int, table: ValueTable | None = None, *, jit: bool = True,
                 progress=None):
        self.rules = get_rules(rules)
        self.source = TargetSource(self.rules, target, jit=jit, progress=progress)
        self.target = self.source.target
        self.advisor = Advisor(self.rules, resolve_table(self.rules, table), jit=False)

    def max_final(self, card: ScoreCard) -> int:
        """An upper bound on the final total from ``card`` (points): the most its open boxes can add."""
        k = card.key
        return card.total + int(max_points_to_come(self.rules, [k[0]], [k[1]], [k[2]])[0])

    def reachable(self, card: ScoreCard) -> bool:
        """False when the target is out of reach from ``card`` whatever the dice (then P = 0)."""
        return self.max_final(card) >= self.target

    def _solve(self, card: ScoreCard):
        return self.source.solution(card.key, card.total)

    def probability(self, card=None) -> float:
        """Best P(final total >= target) from the start of a turn with ``card`` (exact)."""
        card = self.advisor._card(card)
        if card.is_full:
            return float(card.total >= self.target)
        if not self.reachable(card):
            return 0.0
        self._solve(card)
        return self.source.probability(card)

    def keep_options(self, card, dice, rolls_left: int = 2) -> list[TargetKeepOption]:
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
        r = roll_index(faces)
        ks = np.array([k for k in ROLL_SUBKEEPS[r].tolist() if k >= 0])
        if self.reachable(card):
            self._solve(card)
            P = self.source.keep_values(card.key, card.total, rolls_left)[ks]
        else:
            P = np.zeros(ks.size)
        expected = {o.keep: o.expected for o in ev}
        codes, vals = rank_values(ks, P, np.array([expected[KEEPS[k]] for k in ks]))
        out = []
        for k, p in zip(codes.tolist(), vals.tolist()):
            keep = KEEPS[k]
            rest = list(faces)
            for d in keep:
                rest.remove(d)
            out.append(TargetKeepOption(keep, tuple(rest), float(p), expected[keep]))
        return out

    def box_options(self, card, dice) -> list[TargetBoxOption]:
        """Every legal box for the final ``dice``, by P(final >= target), best first.

        Equal probabilities are ordered by expected final total, then the lower box first.

        Raises
        ------
        DiceError, ScoreCardError
        """
        ev = self.advisor.box_options(card, dice)
        card = self.advisor._open_card(card)
        r = roll_index(parse_dice(dice))
        cs = np.array(sorted(o.category for o in ev))
        if self.reachable(card):
            self._solve(card)
            P = self.source.box_values(card.key, card.total, r)[cs]
        else:
            P = np.zeros(cs.size)
        by_cat = {o.category: o for o in ev}
        codes, vals = rank_values(cs, P, np.array([by_cat[c].expected for c in cs]))
        out = []
        for c, p in zip(codes.tolist(), vals.tolist()):
            o = by_cat[c]
            out.append(TargetBoxOption(c, o.name, o.points, o.yahtzee_bonus, o.upper_bonus, float(p), o.expected,
                                       o.joker))
        return out

    def hint(self, card, dice, rolls_left: int):
        """Ranked keeps when ``rolls_left`` is 1 or 2, ranked boxes when it is 0."""
        if isinstance(rolls_left, bool) or rolls_left not in (0, 1, 2):
            raise UsageError(f"invalid rolls-left {rolls_left!r}: want 0, 1 or 2")
        if rolls_left == 0:
            return self.box_options(card, dice)
        return self.keep_options(card, dice, rolls_left)

