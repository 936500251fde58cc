"""Ranked keep and box options for a position, with expected final scores.

The advisor runs the same turn kernel as the table build
(:func:`yahtzee_solver.kernels.turn`) for the position's state, on top of the
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

from dataclasses import dataclass

import numpy as np

from . import jit
from .dice import KEEPS, N_KEEPS, ROLL_SUBKEEPS, format_dice, parse_dice, roll_index
from .errors import ScoreCardError, UsageError
from .rules import RuleSet, get_rules
from .state import ScoreCard, StateKey
from .table import ValueTable, resolve_table

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

    keep: tuple
    reroll: tuple
    expected: float
    loss: float

    def to_dict(self) -> dict:
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

    def to_dict(self) -> dict:
        return {
            "category": self.name,
            "points": self.points,
            "yahtzee_bonus": self.yahtzee_bonus,
            "upper_bonus": self.upper_bonus,
            "expected": self.expected,
            "loss": self.loss,
            "joker": self.joker,
        }


def _make(cls, fields: dict):
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
    """Optimal-play queries on one rule set's value table.

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
        self.rules = get_rules(rules)
        self.table = table = resolve_table(self.rules, table)
        self._jit = jit
        self._k = None
        self._arrays = self.rules.arrays()
        self._E = np.empty((3, N_KEEPS))
        self._B = np.empty(N_KEEPS)
        C = self.rules.n_categories
        self._points = np.empty(C, np.int64)
        self._legal = np.empty(C, np.int8)
        self._values = np.empty(C)

    @property
    def kernels(self):
        """The kernel module in use (compiled or interpreted)."""
        if self._k is None:
            self._k = jit.backend(self._jit)
        return self._k

    # -- helpers ---------------------------------------------------------
    def _card(self, card) -> ScoreCard:
        if card is None:
            return ScoreCard.empty(self.rules)
        if isinstance(card, ScoreCard):
            if card.rules != self.rules:
                raise ScoreCardError(f"card is for rules {card.rules.name!r}, not {self.rules.name!r}")
            return card
        from .state import parse_card

        if isinstance(card, str):
            return parse_card(card, self.rules)
        return ScoreCard.from_mapping(card, self.rules)

    def _open_card(self, card) -> ScoreCard:
        card = self._card(card)
        if card.is_full:
            raise ScoreCardError("the card is full: the game is over, there is no move to advise")
        return card

    # -- queries -----------------------------------------------------------
    def expected_final(self, card=None) -> float:
        """Expected final total (points) from the start of a turn with ``card``, under optimal play.

        ``card`` may be a :class:`ScoreCard`, a CLI card string or a mapping;
        ``None`` is the empty card (the optimal expected score of the game).
        """
        card = self._card(card)
        if card.is_full:
            return float(card.total)
        k = card.key
        return card.total + self.table.value(k.filled, k.upper, k.yahtzee_bonus)

    def keep_values(self, state: StateKey, rolls_left: int) -> np.ndarray:
        """Expected future points of every keep (462,) at ``rolls_left`` rerolls (1 or 2).

        Low-level: no card, no ranking; index with :data:`yahtzee_solver.dice.KEEPS`.
        The returned array is reused by the next call.
        """
        a = self._arrays
        self.kernels.turn(
            state.filled, state.upper, state.yahtzee_bonus, rolls_left,
            self.table.values_for(state.filled), a["score"], a["joker"], a["params"], self._E, self._B,
        )
        return self._E[rolls_left - 1]

    def keep_options(self, card, dice, rolls_left: int = 2) -> list[KeepOption]:
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
            expected final total; ties keep the smaller keep first.

        Raises
        ------
        DiceError, UsageError, ScoreCardError
            Bad dice, ``rolls_left`` not 1 or 2, a full card.
        """
        card = self._open_card(card)
        faces = parse_dice(dice)
        if rolls_left not in (1, 2) or isinstance(rolls_left, bool):
            raise UsageError(f"invalid rolls-left {rolls_left!r} for a keep: want 1 or 2")
        E = self.keep_values(card.key, rolls_left)
        r = roll_index(faces)
        base = card.total
        ks = [k for k in ROLL_SUBKEEPS[r].tolist() if k >= 0]
        vals = E[ks].tolist()
        best = max(vals)
        out = []
        for k, v in zip(ks, vals):
            keep = KEEPS[k]
            rest = list(faces)
            for d in keep:
                rest.remove(d)
            out.append(_make(KeepOption, {"keep": keep, "reroll": tuple(rest), "expected": base + v, "loss": best - v}))
        out.sort(key=lambda o: o.loss)
        return out

    def box_options(self, card, dice) -> list[BoxOption]:
        """Every box the final ``dice`` may be scored in, best first.

        Boxes that are filled, or closed by the forced-Joker rule, are left out.

        Raises
        ------
        DiceError, ScoreCardError
            Bad dice or a full card.
        """
        card = self._open_card(card)
        faces = parse_dice(dice)
        r = roll_index(faces)
        k = card.key
        a = self._arrays
        args = (k.filled, k.upper, k.yahtzee_bonus, r)
        tail = (a["score"], a["joker"], a["params"], self._points, self._legal)
        bonus = int(self.kernels.box_points(*args, *tail))
        self.kernels.box_values(*args, self.table.values_for(k.filled), *tail, self._values)
        rules = self.rules
        y = rules.yahtzee_category
        joker = rules.joker != "none" and y >= 0 and bool((k.filled >> y) & 1) and len(set(faces)) == 1
        values, points, legal = self._values.tolist(), self._points.tolist(), self._legal.tolist()
        vals = [(c, values[c]) for c in range(rules.n_categories) if legal[c]]
        best = max(v for _, v in vals)
        sub = card.upper_subtotal
        total = card.total
        out = []
        for c, v in vals:
            pts = points[c]
            ub = 0
            if c < 6 and sub < rules.upper_threshold <= sub + pts:
                ub = rules.upper_bonus
            out.append(_make(BoxOption, {
                "category": c, "name": rules.categories[c].name, "points": pts, "yahtzee_bonus": bonus,
                "upper_bonus": ub, "expected": total + v, "loss": best - v, "joker": joker,
            }))
        out.sort(key=lambda o: o.loss)
        return out

    def hint(self, card, dice, rolls_left: int):
        """Ranked keeps when ``rolls_left`` is 1 or 2, ranked boxes when it is 0.

        Raises
        ------
        UsageError
            If ``rolls_left`` is not 0, 1 or 2 (and as :meth:`keep_options` / :meth:`box_options`).
        """
        if isinstance(rolls_left, bool) or rolls_left not in (0, 1, 2):
            raise UsageError(f"invalid rolls-left {rolls_left!r}: want 0, 1 or 2")
        if rolls_left == 0:
            return self.box_options(card, dice)
        return self.keep_options(card, dice, rolls_left)
