"""Reasons for a choice: what an option does to the game, in exact probabilities.

For each option of a position (a keep, scoring now, or a box) and optimal play
afterwards (the expert policy of the value table, the same one the advisor,
``dist`` and the expert CPU play), this module computes

* ``p_upper_bonus``: the probability that the upper bonus is earned by the end
  of the game (1 once it is earned; ``None`` for rules without one);
* ``p_yahtzee``: the probability of at least one (further) Yahtzee from here
  to the end -- a non-zero score in the Yahtzee box (50) or a Yahtzee bonus
  (+100);
* ``turn_points``: the expected points scored this turn (box points, the
  Yahtzee bonus and the upper bonus when this turn completes it);
* for a keep, the box the turn most likely ends in, and its probability.

Method (no sampling): a policy evaluation of the optimal policy with an
indicator in place of the score, on the turn outcomes of the distribution
engine (:func:`yahtzee_solver.solver.kernels.dist_outcomes`: for each
turn-start state, every (next state, points gained) with its probability,
the policy's keeps and boxes fixed by the value table, ties as in the game).
With ``B_s`` the probability that the bonus is earned by the end from
turn-start state ``s`` and ``P_s`` the probability of a further Yahtzee,

.. math:: B_s = \\sum_{(s', g)} p(s', g)\\, B_{s'}, \\qquad
          P_s = \\sum_{(s', g)} p(s', g)\\, \\max([\\text{Yahtzee in } (s', g)],\\, P_{s'}),

with ``B`` = [upper subtotal >= the threshold] and ``P`` = 0 at the full
card, solved from the full card back to the position over the states reachable
from it (:func:`yahtzee_solver.solver.build.reachable_layers`).  A turn's
outcome tells whether it made a Yahtzee: the box filled is the Yahtzee box and
it scored, or the points gained include the Yahtzee bonus (no turn gains that
many points otherwise).  ``p_yahtzee = P``.  Each sum is divided by the
state's computed outcome mass (mathematically 1), so that an event that is
certain or impossible from a state reads exactly 1 or 0 rather than rounding
noise such as ``1.1e-14``; the same holds for the likely box's probability.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np

from ..dice import KEEPS, ROLL_OFFSET, ROLL_SUBKEEPS, ROLLS
from ..errors import UsageError
from ..rules import RuleSet
from ..solver import jit as _jit
from ..solver.table import ValueTable, demand_zeros
from ..state import ScoreCard
from .distribution import (
    _CHUNK,
    _INTERPRETED_STATE_SECONDS,
    _Policy,
    _layers,
    _max_gain,
    _max_outcomes,
    _policy,
    _position_roll,
    _schedule,
    _threads,
)

__all__ = ["Reason", "Reasons", "option_reasons"]

#: An option of a position: the faces kept (a sorted tuple) or a box index.
Option: TypeAlias = tuple[int, ...] | int
#: ``(masks, B, P)`` of a layer of states (module docstring).
_Layer: TypeAlias = tuple[np.ndarray, np.ndarray, np.ndarray]
#: A turn's flat outcome list: (state row, next index, gain, probability).
_Outcomes: TypeAlias = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@dataclass(frozen=True)
class Reason:
    """What one option does to the game, with optimal play afterwards.

    Attributes
    ----------
    option : tuple of int or int
        The faces kept (sorted; all five: scoring now) or the box index.
    kind : str
        ``keep`` (a reroll follows), ``stop`` (all five kept: scored now in the
        box optimal play picks) or ``box``.
    p_upper_bonus : float or None
        Probability that the upper bonus is earned by the end of the game;
        ``None`` when the rules have no upper bonus.
    p_yahtzee : float
        Probability of at least one further Yahtzee (a score in the Yahtzee box
        or a Yahtzee bonus), this turn included.
    p_yahtzee_turn : float
        The part of it made this turn: probability that this turn scores a Yahtzee.
    turn_points : float
        Expected points scored this turn (box, Yahtzee bonus, upper bonus).
    box : int
        The box the turn most likely ends in (for a box option: that box).
    p_box : float
        Its probability (1 for a box or a stop).
    """

    option: Option | None
    kind: str
    p_upper_bonus: float | None
    p_yahtzee: float
    p_yahtzee_turn: float
    turn_points: float
    box: int
    p_box: float

    def to_dict(self, rules: RuleSet | None = None) -> dict[str, Any]:
        from ..dice import format_dice

        opt: Option | str | None
        if isinstance(self.option, tuple):
            opt = format_dice(self.option)
        elif self.option is None or rules is None:
            opt = self.option
        else:
            opt = rules.categories[self.option].slug
        return {
            "option": opt, "kind": self.kind, "p_upper_bonus": self.p_upper_bonus, "p_yahtzee": self.p_yahtzee,
            "p_yahtzee_turn": self.p_yahtzee_turn, "turn_points": self.turn_points,
            "likely_box": rules.categories[self.box].slug if rules is not None else self.box,
            "p_likely_box": self.p_box,
        }


@dataclass(frozen=True)
class Reasons:
    """The reasons of a position's options, and the same figures at the start of the turn.

    Attributes
    ----------
    rules : RuleSet
    start : Reason
        The figures at the start of this turn (before its first roll), optimal
        play throughout: what each option's figures are compared with.
        ``option`` is ``None``, ``kind`` ``start``.
    options : dict
        ``{keep faces or box index: Reason}`` for the options asked for.
    """

    rules: RuleSet
    start: Reason
    options: dict[Option, Reason]


class _IndicatorEngine:
    """``B`` and ``P`` (module docstring) at every state reachable after the current turn of a position."""

    def __init__(self, rules: RuleSet, state: Sequence[int], pol: _Policy, *, jit: bool = True,
                 starts: int = 1) -> None:
        self.rules, self.pol = rules, pol
        self.state = tuple(int(x) for x in state)
        mask0, up0, yb0 = self.state
        C, T, F = rules.n_categories, rules.upper_threshold, rules.n_flags
        a = rules.arrays()
        self.arrays = a
        self.gmax = _max_gain(rules)
        self.cap = min(_max_outcomes(rules), C * (self.gmax + 1))
        self.ycat = rules.yahtzee_category
        self.ybonus = int(rules.yahtzee_bonus)
        if self.ybonus and int(max(a["score"].max(), a["joker"].max())) + rules.upper_bonus >= self.ybonus:
            raise UsageError(f"rules {rules.name!r}: a turn can gain the Yahtzee bonus without one")
        self.index = demand_zeros((1 << C, T + 1, F), np.int32)
        layers = _layers(rules, mask0, up0, yb0)
        self.k = _jit.for_work(starts + sum(len(m) for m, _, _ in layers), _INTERPRETED_STATE_SECONDS, jit)
        self.jit = self.k is not _jit.interpreted()
        self.next: _Layer | None = None  # (masks, B, P) of the layer after the current turn
        with _schedule(self.jit):
            for masks, ups, ybs in layers:
                n = len(masks)
                if self.next is None:  # the full card
                    B = (ups >= T).astype(float) if rules.upper_bonus else np.zeros(n)
                    P = np.zeros(n)
                else:
                    rows, idx, gain, prob = self._outcomes((masks, ups, ybs), -1, 2, -1)
                    B, P, _, _ = self._fold(masks[rows], rows, idx, gain, prob, n)
                self.index[masks, ups, ybs] = np.arange(n)
                self.next = (masks, B, P)

    def _after(self) -> _Layer:
        nxt = self.next
        assert nxt is not None  # set by the first layer (the full card) in __init__
        return nxt

    def _outcomes(self, states: tuple[np.ndarray, np.ndarray, np.ndarray], r0: int, rl0: int, k0: int) -> _Outcomes:
        """The flat outcome list of a turn from each state: (state row, next index, gain, probability)."""
        masks, ups, ybs = states
        n = len(masks)
        pol, a, k, cap = self.pol, self.arrays, self.k, self.cap
        m_next = len(self._after()[0])
        zeros = np.zeros(m_next, np.int64)
        counts = np.empty(n, np.int64)
        lo = np.empty(n, np.int64)
        hi = np.empty(n, np.int64)
        m = min(n, _CHUNK)
        oi = np.empty((m, cap), np.int64)
        og = np.empty((m, cap), np.int64)
        op = np.empty((m, cap), np.float64)
        parts: list[_Outcomes] = []
        with _threads(self.jit, n):
            for s0 in range(0, n, _CHUNK):
                s1 = min(n, s0 + _CHUNK)
                k.dist_outcomes(
                    masks[s0:s1], ups[s0:s1], ybs[s0:s1], r0, rl0, k0, pol.kind, pol.V, a["score"], a["joker"],
                    pol.policy, a["params"], ROLL_SUBKEEPS, pol.blunder, pol.made, pol.rkeeps,
                    self.index, zeros, zeros, self.gmax, oi, og, op, counts[s0:s1], lo[s0:s1], hi[s0:s1],
                )
                used = np.arange(cap) < counts[s0:s1, None]
                rows = np.broadcast_to(np.arange(s0, s1)[:, None], used.shape)[used]
                parts.append((rows, oi[: s1 - s0][used], og[: s1 - s0][used], op[: s1 - s0][used]))
        rows, idx, gain, prob = (np.concatenate([p[j] for p in parts]) for j in range(4))
        return rows, idx, gain, prob

    def _fold(self, from_masks: np.ndarray, rows: np.ndarray, idx: np.ndarray, gain: np.ndarray, prob: np.ndarray,
              n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """B, P, expected gain and P(Yahtzee this turn) of each of ``n`` states from their outcomes.

        Each is divided by the state's computed outcome mass (1 up to rounding), so certain and
        impossible events are exactly 1 and 0.
        """
        nmasks, Bn, Pn = self._after()
        filled = nmasks[idx] ^ from_masks  # the one box this outcome filled (a bit)
        yahtzee = np.zeros(len(idx), bool)
        if self.ycat >= 0:
            yahtzee |= (filled == (1 << self.ycat)) & (gain > 0)
        if self.ybonus:
            yahtzee |= gain >= self.ybonus
        mass = np.bincount(rows, weights=prob, minlength=n)
        mass[mass == 0] = 1.0  # a state with no outcomes is never read
        B = np.bincount(rows, weights=prob * Bn[idx], minlength=n) / mass
        P = np.bincount(rows, weights=prob * np.where(yahtzee, 1.0, Pn[idx]), minlength=n) / mass
        G = np.bincount(rows, weights=prob * gain, minlength=n) / mass
        Y = np.bincount(rows, weights=prob * yahtzee, minlength=n) / mass
        return B, P, G, Y

    def reason(self, option: Option | None, kind: str, *, roll: int = -1, rolls_left: int = 2, keep: int = -1) -> Reason:
        """The figures of a start inside the current turn (as :meth:`distribution._Engine.start`)."""
        mask = self.state[0]
        s = self.state
        start = (np.array([s[0]], np.int64), np.array([s[1]], np.int64), np.array([s[2]], np.int64))
        with _schedule(self.jit):
            rows, idx, gain, prob = self._outcomes(start, roll, rolls_left, keep)
        B, P, G, Y = self._fold(np.full(len(idx), mask, np.int64), rows, idx, gain, prob, 1)
        boxes = np.log2(self._after()[0][idx] ^ mask).astype(np.int64)
        per_box = np.bincount(boxes, weights=prob, minlength=self.rules.n_categories) / prob.sum()
        c = int(np.argmax(per_box))
        return Reason(option, kind, float(B[0]) if self.rules.upper_bonus else None, float(P[0]),
                      float(Y[0]), float(G[0]), c, float(per_box[c]))


def _box_reason(card: ScoreCard, eng: _IndicatorEngine | None, dice: Sequence[int], c: int) -> Reason:
    """The figures after scoring ``dice`` in box ``c`` (the next state's B and P)."""
    rules = card.rules
    points, _, bonus = card.box_points(dice)
    after = card.with_box(c, points[c], bonus)
    gain = after.total - card.total
    made = (c == rules.yahtzee_category and points[c] > 0) or (rules.yahtzee_bonus and bonus > 0)
    if after.is_full:
        B = float(after.upper_subtotal >= rules.upper_threshold)
        P = 0.0
    else:
        assert eng is not None  # a card that is not full after the score has later states
        masks, Bn, Pn = eng._after()
        i = int(eng.index[after.key])
        B, P = float(Bn[i]), float(Pn[i])
    P = 1.0 if made else P
    return Reason(c, "box", B if rules.upper_bonus else None, P, float(bool(made)), float(gain), c, 1.0)


def option_reasons(card: ScoreCard, dice: str | Sequence[int], rolls_left: int,
                   options: Iterable[Sequence[int] | int] | None = None, *, table: ValueTable | None = None,
                   jit: bool = True) -> Reasons:
    """The reasons (:class:`Reason`) of the options of a position, optimal play afterwards.

    Parameters
    ----------
    card : ScoreCard
        The scorecard before this turn's score (not full).
    dice : str or sequence of int
        The five dice showing.
    rolls_left : int
        0: the options are the boxes; 1 or 2: the keeps (all five: scoring now,
        as the advisor's keep-all row; there is no pass).
    options : iterable, optional
        The keeps (sorted face tuples) or box indices to explain; default every one.
    table : ValueTable, optional
        The value table of the optimal policy (default: the shipped one).
    jit : bool
        Compiled kernels allowed (a small card still runs interpreted when that is
        faster, :func:`yahtzee_solver.solver.jit.for_work`).

    Returns
    -------
    Reasons

    Raises
    ------
    UsageError
        ``rolls_left`` not 0, 1 or 2, an option that is not one of the position's,
        a table of other rules.
    DiceError
        Bad dice.
    ScoreCardError
        A full card.
    """
    rules = card.rules
    r = _position_roll(card, dice, rolls_left, table)
    legal: list[Option]
    if rolls_left:
        legal = [KEEPS[k] for k in ROLL_SUBKEEPS[r] if k >= 0]
    else:
        _, ok, _ = card.box_points(ROLLS[r])
        legal = [c for c, x in enumerate(ok) if x]
    wanted: list[Option] = legal if options is None else [tuple(sorted(o)) if not isinstance(o, (int, np.integer)) else int(o)
                                            for o in options]
    for o in wanted:
        if o not in legal:
            raise UsageError(f"invalid option {o!r} for dice {ROLLS[r]} with {rolls_left} rolls left")
    pol = _policy("optimal", rules, table, jit, card.key.mask)
    eng = _IndicatorEngine(rules, card.key, pol, jit=jit, starts=1 + len(wanted))
    start = eng.reason(None, "start")
    out: dict[Option, Reason] = {}
    for o in wanted:
        if isinstance(o, int):  # no reroll left: the options are boxes
            out[o] = _box_reason(card, eng, ROLLS[r], o)
            continue
        from ..dice import keep_index

        k = keep_index(o)
        if k >= ROLL_OFFSET:  # keeping all five rerolls nothing: the dice are scored now
            out[o] = eng.reason(o, "stop", roll=r, rolls_left=0)
        else:
            out[o] = eng.reason(o, "keep", keep=k, rolls_left=rolls_left)
    return Reasons(rules, start, out)
