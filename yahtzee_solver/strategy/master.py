"""The ``master`` CPU: plays to win against the opponent it faces.

:class:`MasterStrategy` answers the same two questions as the other levels
(:mod:`yahtzee_solver.strategy.players`), but maximises the probability of beating its
opponent, a draw counting half, instead of its expected score:

* the opponent's final total is modelled by the exact distribution of its own
  policy from its current card (:func:`~yahtzee_solver.strategy.objectives.opponent_pmf`, the
  exact engine of :mod:`yahtzee_solver.strategy.distribution`; a human is modelled as the ``expert``); once the opponent has finished it is
  its actual total, and the answer is exact;
* with that distribution, each decision is the best response over master's
  remaining turns (:class:`~yahtzee_solver.strategy.objectives.WinSource`, ranked by
  :class:`~yahtzee_solver.strategy.policy.Policy`), solved again at every turn, so what
  the opponent scores in between is used;
* while both cards together have at most ``duel_max_open`` open boxes
  (:data:`~yahtzee_solver.strategy.duel.DEFAULT_MAX_OPEN`) and the cards are in
  turn, master plays the exact zero-sum strategy of the two-player game
  (:class:`~yahtzee_solver.strategy.duel.DuelSource`, model ``optimal``): it plans
  to react to every later turn of the opponent, whatever the opponent's level
  (the solved nodes are kept from one turn to the next);
* while more than ``max_open`` of its own boxes are open, master plays the
  expert's move (the win DP from an early card takes minutes); among options
  whose winning chances tie within ``TIE`` (a decided game), it takes the one
  of highest expected final total (the policy's tie-break source), the
  expert's choice whenever that is among them.

Outside the exact scope and before the opponent has finished, this is the
exact best response to the opponent's final-score distribution *seen from the
current turn*, without
planning to react to the opponent's later turns (it reacts when it re-solves
at its next turn).  Its value is therefore a lower bound on the best possible
winning chance, and the quoted probability is exact for "play this plan to the
end".

CPU-vs-CPU matches live in :mod:`yahtzee_solver.analysis.match`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeAlias

import numpy as np

from ..dice import KEEPS, parse_dice, roll_index
from .objectives import DISTRIBUTION_LEVELS, WinSource, opponent_pmf
from .players import ExpertStrategy, _check_card
from .policy import Policy, check_rolls_left
from ..rules import RuleSet, get_rules
from ..state import ScoreCard
from ..solver.table import ValueTable, resolve_table
from ..errors import UsageError

if TYPE_CHECKING:
    from .duel import DuelSolver

__all__ = ["MasterStrategy", "TIE"]

#: Winning chances closer than this count as a tie (then the expert's choice is taken).
TIE = 1e-12

#: An opponent model: (opponent key: boxes, Yahtzee bonus, level; its final-total pmf; the win source; the
#: win policy).
_Model: TypeAlias = "tuple[tuple[tuple[int | None, ...], int, str], np.ndarray, WinSource, Policy]"
#: ``(opponent key, the exact two-player solver, its policy)``.
_DuelModel: TypeAlias = "tuple[tuple[tuple[int | None, ...], int], DuelSolver, Policy]"


class MasterStrategy:
    """Maximise the probability of winning (draw = half) against a modelled opponent.

    Call :meth:`observe` before each turn with the opponent's card and level.

    Parameters
    ----------
    rules : str or RuleSet
    table : ValueTable, optional
        The value table (expert moves, the opponent model); default: shipped.
    max_open : int
        Play the win DP once at most this many of master's own boxes are open
        (the expert's move before).
    duel_max_open : int, optional
        Play the exact two-player strategy while both cards together have at
        most this many open boxes (default
        :data:`~yahtzee_solver.strategy.duel.DEFAULT_MAX_OPEN`).
    jit : bool
        Compiled kernels (default).
    duel_solver : DuelSolver, optional
        The exact two-player solver to use (model ``optimal``, the same rules), e.g. one shared by the
        two masters of a match: both solve the same zero-sum game, so every node one of them solves
        (the other's later turns included) is a look-up for the other, and the moves are the same as
        with a solver each.  Default: a solver of its own.

    Notes
    -----
    Threads may share one master: its queries compute in per-thread work
    arrays or per call, and its opponent model is one value replaced whole.
    What it plays against is the last card :meth:`observe` was given, so
    threads playing different games need a master each.  A shared duel solver
    is safe too: its nodes are deterministic values stored whole (two threads
    may both solve one node, and store the same numbers).

    Raises
    ------
    UsageError
        For a shared duel solver of other rules or another model than ``optimal``.
    """

    level = "master"

    def __init__(self, rules: str | RuleSet = "yahtzee", table: ValueTable | None = None, *, max_open: int = 5,
                 duel_max_open: int | None = None, jit: bool = True, duel_solver: DuelSolver | None = None):
        self.rules: RuleSet = get_rules(rules)
        self.table: ValueTable = resolve_table(self.rules, table)
        self.expert: ExpertStrategy = ExpertStrategy(self.rules, self.table, jit=jit)
        self.max_open: int = int(max_open)
        self.jit: bool = jit
        self._opponent: tuple[ScoreCard, str] | None = None  # (card, level) as observed
        # (opponent key, its pmf, the win source, the win policy): one tuple, replaced whole, so
        # threads sharing this player never see a pmf with another opponent's source
        self._model: _Model | None = None
        from .duel import DEFAULT_MAX_OPEN

        self.duel_max_open: int = DEFAULT_MAX_OPEN if duel_max_open is None else int(duel_max_open)
        # (opponent key, the exact solver, its policy): one tuple, replaced whole, as the win model
        self._duel_model: _DuelModel | None = None
        if duel_solver is not None and (duel_solver.rules != self.rules or duel_solver.model != "optimal"):
            raise UsageError("master's shared duel solver must be of the same rules and model 'optimal'")
        self._shared_solver: DuelSolver | None = duel_solver

    # -- the opponent model ---------------------------------------------------------
    def observe(self, opponent_card: ScoreCard, opponent_level: str = "expert") -> None:
        """Tell master the opponent's card (at a turn start) and level (``human`` is modelled as ``expert``)."""
        lvl = str(opponent_level).lower()
        self._opponent = (opponent_card, lvl if lvl in DISTRIBUTION_LEVELS else "expert")

    def _opponent_model(self) -> _Model | None:
        """``(key, pmf, WinSource, Policy)`` of the observed opponent (computed once per opponent card)."""
        opp = self._opponent
        if opp is None:
            return None
        card, level = opp
        key = (card.boxes, card.yahtzee_bonus, level)
        m: _Model | None = self._model
        if m is None or m[0] != key:
            pmf = opponent_pmf(self.rules, card, level, self.table, jit=self.jit)
            src = WinSource(self.rules, pmf, jit=self.jit)
            m = (key, pmf, src, Policy(src, tiebreak=self.expert.source, tie_tolerance=TIE))
            self._model = m
        return m

    def opponent_pmf(self) -> np.ndarray | None:
        """Distribution of the opponent's final total (``pmf[t]``), or None when no opponent is known."""
        m = self._opponent_model()
        return None if m is None else m[1]

    def _win_model(self, card: ScoreCard) -> _Model | None:
        if len(card.open_categories) > self.max_open:
            return None
        return self._opponent_model()

    def _win_source(self, card: ScoreCard) -> WinSource | None:
        m = self._win_model(card)
        return None if m is None else m[2]

    def win_probability(self, card: ScoreCard) -> float | None:
        """P(win) + P(draw)/2 from the start of a turn with ``card`` (None while the expert plays).

        Exact (the two-player value, both playing to win) within the exact scope (:meth:`is_duel`).
        """
        if self.is_duel(card):
            from .duel import DuelSource

            duel = self._duel(card).source
            assert isinstance(duel, DuelSource)  # _duel's policy reads a DuelSource
            return duel.probability(card)
        src = self._win_source(card)
        return None if src is None else src.probability(card)

    def is_duel(self, card: ScoreCard) -> bool:
        """Whether master plays the exact two-player strategy with ``card`` (both cards within scope, in turn)."""
        opp = self._opponent
        if opp is None:
            return False
        n_me, n_opp = len(card.open_categories), len(opp[0].open_categories)
        return n_me + n_opp <= self.duel_max_open and n_me - n_opp in (0, 1)

    def _duel(self, card: ScoreCard) -> Policy:
        """The exact two-player policy against the observed opponent (:class:`~yahtzee_solver.strategy.duel.DuelSource`)."""
        from .duel import DuelSolver, DuelSource

        opp = self._opponent
        assert opp is not None
        key = (opp[0].boxes, opp[0].yahtzee_bonus)
        m = self._duel_model
        if m is None or m[0] != key:
            s = self._shared_solver if m is None else m[1]
            if s is not None and len(s._memo) > 40_000:  # bounded memory: about 200 MB at most
                s.clear()
            if s is None:
                s = DuelSolver(self.rules, "optimal", self.table, jit=self.jit, draws=False)
            m = (key, s, Policy(DuelSource(self.rules, opp[0], "optimal", solver=s), tiebreak=self.expert.source,
                                tie_tolerance=TIE))
            self._duel_model = m
        return m[2]

    # -- decisions -------------------------------------------------------------------
    def _policy(self, card: ScoreCard) -> Policy:
        """The exact two-player policy within scope, else the win policy (tie-break: the expected final
        total), or the expert's while it plays."""
        if self.is_duel(card):
            return self._duel(card)
        m = self._win_model(card)
        return self.expert.policy if m is None else m[3]

    def choose_keep(self, card: ScoreCard, dice: str | Sequence[int], rolls_left: int) -> tuple[int, ...]:
        """The keep of highest winning chance; ties (within :data:`TIE`): highest expected total, then the smaller keep."""
        card = _check_card(card, self.rules)
        rl = check_rolls_left(rolls_left)
        r = roll_index(parse_dice(dice))
        return KEEPS[self._policy(card).choose_keep(card.key, card.total, r, rl)]

    def choose_box(self, card: ScoreCard, dice: str | Sequence[int]) -> int:
        """The legal box of highest winning chance; ties (within :data:`TIE`): highest expected total, then the lower box."""
        card = _check_card(card, self.rules)
        r = roll_index(parse_dice(dice))
        return self._policy(card).choose_box(card.key, card.total, r)

    def __repr__(self) -> str:
        return f"MasterStrategy(rules={self.rules.name!r}, max_open={self.max_open})"
