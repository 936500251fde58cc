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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, TypeVar

import numpy as np

from ..dice import KEEPS, format_dice, parse_dice, roll_index
from ..errors import ScoreCardError
from ..solver.kernels import JOKER_NONE
from .policy import ExpectedValueSource, Policy, check_rolls_left
from ..rules import RuleSet, get_rules
from ..state import ScoreCard, StateKey, parse_card
from ..solver.table import ValueTable, resolve_table

_R = TypeVar("_R")

#: A scorecard as the queries take it: a ScoreCard, a card string (``parse_card``), a
#: ``{box: points}`` mapping, or ``None`` for the empty card.
CardLike = ScoreCard | str | Mapping[str, Any] | None

__all__ = ["Advisor", "KeepOption", "BoxOption"]


@dataclass(frozen=True)
class KeepOption:
    """One way to keep dice before a reroll.

    Attributes
    ----------
    keep : tuple of int
        Faces kept (sorted).
    reroll : tuple of int
        Faces rerolled (sorted).
    expected : float
        Expected final total (points) with optimal play afterwards.
    loss : float
        Points lost in expectation against the best keep (0 for the best).
    """

    keep: tuple[int, ...]
    reroll: tuple[int, ...]
    expected: float
    loss: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "keep": format_dice(self.keep),
            "reroll": format_dice(self.reroll),
            "expected": self.expected,
            "loss": self.loss,
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
        return {
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


class Advisor:
    """Optimal-play queries on one rule set's value table, as ranked result objects.

    A thin layer over :class:`~yahtzee_solver.strategy.policy.Policy` on an
    :class:`~yahtzee_solver.strategy.policy.ExpectedValueSource` (rankings and the
    tie-break rule live there); scoring facts (points, Joker, bonuses) come
    from :meth:`ScoreCard.scoring <yahtzee_solver.state.ScoreCard.scoring>`.

    Parameters
    ----------
    rules : str or RuleSet
        Rule-set name (default ``yahtzee``).
    table : ValueTable, optional
        Default: the shipped table for ``rules`` (:func:`load_table`).
    jit : bool
        Run the kernel compiled by numba (default; the first query in a process
        pays for importing numba and loading the compiled kernel, about 1 s)
        or interpreted (no numba; a few milliseconds per keep query -- the
        right choice for a single query from a cold shell).

    Raises
    ------
    TableError
        If the table cannot be loaded.
    """

    def __init__(self, rules: str | RuleSet = "yahtzee", table: ValueTable | None = None, *, jit: bool = True):
        self.rules: RuleSet = get_rules(rules)
        self.table: ValueTable = resolve_table(self.rules, table)
        self.source: ExpectedValueSource = ExpectedValueSource(self.rules, self.table, jit=jit)
        self.policy: Policy = Policy(self.source)
        C = self.rules.n_categories
        self._params = self.rules.arrays()["params"]  # scoring uses the true rules
        self._scratch = (np.empty(C, np.int64), np.empty(C, np.int8), np.empty(C, np.int64))
        self._names = tuple(c.name for c in self.rules.categories)

    @property
    def kernels(self) -> ModuleType:
        """The kernel module in use (compiled or interpreted)."""
        return self.source.kernels

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
        sc = self._card(card)
        if sc.is_full:
            raise ScoreCardError("the card is full: the game is over, there is no move to advise")
        return sc

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
        The returned array is reused by the next call.

        Raises
        ------
        UsageError
            ``rolls_left`` not 1 or 2.
        """
        return self.source.keep_values(state, 0, check_rolls_left(rolls_left))

    def keep_options(self, card: CardLike, dice: str | Sequence[int], rolls_left: int = 2) -> list[KeepOption]:
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
        list of KeepOption
            Up to 32 keeps (keeping all five = standing pat), ranked by
            expected final total (ties: :mod:`~yahtzee_solver.strategy.policy`).

        Raises
        ------
        DiceError, UsageError, ScoreCardError
            Bad dice, ``rolls_left`` not 1 or 2, a full card.
        """
        card = self._open_card(card)
        faces = parse_dice(dice)
        # values at total 0 (points to come): the loss is exact, the total added once
        codes, values = self.policy.keep_ranking(card.key, 0, roll_index(faces), rolls_left)
        vals = values.tolist()
        best = vals[0]
        base = card.total
        out = []
        for k, v in zip(codes.tolist(), vals):
            keep = KEEPS[k]
            rest = list(faces)
            for d in keep:
                rest.remove(d)
            out.append(_make(KeepOption, {"keep": keep, "reroll": tuple(rest), "expected": base + v, "loss": best - v}))
        return out

    def box_options(self, card: CardLike, dice: str | Sequence[int]) -> list[BoxOption]:
        """Every box the final ``dice`` may be scored in, best first.

        Boxes that are filled, or closed by the forced-Joker rule, are left out.

        Raises
        ------
        DiceError, ScoreCardError
            Bad dice or a full card.
        """
        card = self._open_card(card)
        r = roll_index(parse_dice(dice))
        key = card.key
        boxes, values = self.policy.box_ranking(key, 0, r)
        # how the roll scores: the rules' kernel (Joker case, bonuses), as ScoreCard.scoring
        src, (points, legal, gain) = self.source, self._scratch
        bonus, case = self.kernels.box_scoring(*key, r, src.score, src.joker, self._params, points, legal, gain)
        bonus, joker = int(bonus), case != JOKER_NONE
        point_list, gain_list = points.tolist(), gain.tolist()
        names = self._names
        vals = values.tolist()
        best = vals[0]
        total = card.total
        out = []
        for c, v in zip(boxes.tolist(), vals):
            out.append(_make(BoxOption, {
                "category": c, "name": names[c], "points": point_list[c],
                "yahtzee_bonus": bonus, "upper_bonus": gain_list[c],
                "expected": total + v, "loss": best - v, "joker": joker,
            }))
        return out

    def hint(self, card: CardLike, dice: str | Sequence[int], rolls_left: int) -> list[KeepOption] | list[BoxOption]:
        """Ranked keeps when ``rolls_left`` is 1 or 2, ranked boxes when it is 0.

        Raises
        ------
        UsageError
            If ``rolls_left`` is not 0, 1 or 2 (and as :meth:`keep_options` / :meth:`box_options`).
        """
        if check_rolls_left(rolls_left, (0, 1, 2)) == 0:
            return self.box_options(card, dice)
        return self.keep_options(card, dice, rolls_left)
