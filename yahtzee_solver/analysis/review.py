"""Game review: every decision of a game, the optimal one, and the expected points each choice lost.

A *decision* is a keep before a reroll or the box the final dice go in.  Its
**expected loss** is the expected final total after the best option minus that
after the chosen one, both with optimal play afterwards -- exactly the
advisor's "vs best" column (:class:`~yahtzee_solver.strategy.advisor.Advisor`), in
points.  Scoring while rerolls remain is a keep of all five dice ("stand"),
reviewed as such: the advisor's keep-all row, which is stopping to score now
and is worth the best box for the dice (there is no pass: a roll rerolls one
to five dice), with one reroll left or two.  So a review and a hint give every
decision the same value.

Because the optimal values form a martingale under optimal play, the expected
final score of any policy is the optimal value of the start minus its expected
total loss (:func:`policy_losses` measures the CPU levels in these units).

**Luck and skill.**  Along one game, let ``V`` be the expected final total
under optimal play from each point of the game (points on the card included).
At a *decision* the player moves from ``V(best option)`` to ``V(chosen
option)``: the **skill loss** is the difference (the decision's loss above).
At a *chance node* -- the first roll of a turn, from the turn's start, or a
reroll after a keep -- the dice move the game from ``V(before the roll)``, the
expected value of the chance node, to ``V(after the roll)``, the value of the
dice showing with best play from there: the **luck** of the roll is
``V(after) - V(before)`` (positive: the dice helped).  Every step of the game
is one or the other, so the sum telescopes from the empty card's value to the
final score, and exactly::

    final score = value of the empty card - skill loss + luck

(an unfinished game ends at its expected final total under optimal play from
its last card).  Under optimal play the expected luck of every roll is 0.

**The winning chance given up.**  In a game against a CPU, every decision
taken while both cards together have at most
:data:`~yahtzee_solver.strategy.duel.DEFAULT_MAX_OPEN` open boxes (and the
cards are in turn) is also valued by the exact two-player solve
(:class:`~yahtzee_solver.strategy.duel.DuelSource`, through the policy layer
as the play hint does): P(win) + P(draw) / 2 of the best option minus that of
the chosen one, against the CPU level actually played (``expert``, ``normal``,
``beginner``: its fixed policy; ``master``: ``optimal``, the zero-sum game,
:func:`~yahtzee_solver.strategy.duel.model_for_level`).  One solver serves
every decision of a game, so only the first endgame decision solves; the
later ones are mostly look-ups.  Outside that endgame the field is ``None``.

Sources: the move log of a game (:class:`yahtzee_solver.game.GameState`, also
kept in the game history, :mod:`yahtzee_solver.play.history`), or per-turn moves
(:class:`TurnPlay`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..strategy.advisor import Advisor
from ..dice import KEEPS, ROLLS, format_dice
from ..errors import SavedGameError, UsageError
from ..rules import RuleSet, get_rules
from ..state import ScoreCard
from ..solver.table import ValueTable

if TYPE_CHECKING:
    from ..game import Event, GameState
    from ..strategy.duel import DuelSolver
    from ..strategy.policy import Policy

__all__ = [
    "BANDS",
    "ZERO",
    "TurnPlay",
    "Decision",
    "Roll",
    "GameReview",
    "review_turns",
    "turns_from_log",
    "opponent_cards",
    "EndgameChances",
    "WIN_ZERO",
    "review_game",
    "review_log",
    "replay",
    "PolicyLosses",
    "policy_losses",
]

#: Losses below this (points) count as 0: equal options differ only by float rounding.
ZERO = 1e-9

#: Bands of the loss per decision (points): name, lower bound (inclusive), upper bound (exclusive).
BANDS = (("0", 0.0, ZERO), ("<1", ZERO, 1.0), ("1-5", 1.0, 5.0), (">=5", 5.0, float("inf")))


@dataclass(frozen=True)
class TurnPlay:
    """What one player did in one turn.

    Attributes
    ----------
    rolls : tuple of tuple of int
        The dice (sorted) after each roll of the turn: 1 to 3 rolls.
    keeps : tuple of tuple of int
        The dice kept (sorted) before each reroll: ``len(rolls) - 1`` keeps.
    box : int
        The box the final dice were scored in.
    """

    rolls: tuple[tuple[int, ...], ...]
    keeps: tuple[tuple[int, ...], ...]
    box: int


@dataclass(frozen=True)
class Decision:
    """One reviewed decision.

    Attributes
    ----------
    turn : int
        Turn number (1-based).
    kind : str
        ``keep`` (before a reroll, or ``stand``: scoring with rerolls left) or ``box``.
    dice : tuple of int
        The dice showing (sorted).
    rolls_left : int
        Rerolls still allowed when deciding (0 for a box).
    choice, best
        The faces kept (tuple; all five for ``stand``) or the box index (int): chosen and optimal.
    expected_choice, expected_best : float
        Expected final total (points) after the chosen and after the best option, optimal play afterwards.
    loss : float
        ``expected_best - expected_choice`` (points, >= 0; 0 below :data:`ZERO`).
    card_total : int
        Points on the card when deciding.
    win_choice, win_best : float or None
        In the exact endgame of a game against a CPU (module docstring): my P(win) + P(draw) / 2 after
        the chosen and after the best option (probability, 0..1), both playing on as the model says;
        ``None`` elsewhere.
    win_lost : float or None
        ``win_best - win_choice`` (probability, >= 0; 0 when the choice was the best one or within
        :data:`WIN_ZERO` of it); ``None`` outside the exact endgame.
    """

    turn: int
    kind: str
    dice: tuple[int, ...]
    rolls_left: int
    choice: tuple[int, ...] | int
    best: tuple[int, ...] | int
    expected_choice: float
    expected_best: float
    loss: float
    card_total: int
    win_choice: float | None = None
    win_best: float | None = None
    win_lost: float | None = None

    def to_dict(self, rules: RuleSet | None = None) -> dict[str, Any]:
        def show(x: tuple[int, ...] | int) -> str | int:
            if isinstance(x, tuple):
                return format_dice(x)
            return rules.categories[x].slug if rules is not None else x

        return {
            "turn": self.turn, "kind": self.kind, "dice": format_dice(self.dice), "rolls_left": self.rolls_left,
            "choice": show(self.choice), "best": show(self.best), "expected_choice": self.expected_choice,
            "expected_best": self.expected_best, "loss": self.loss, "card_total": self.card_total,
            "win_choice": self.win_choice, "win_best": self.win_best, "win_lost": self.win_lost,
        }


@dataclass(frozen=True)
class Roll:
    """One chance node of a game: a roll of the dice, and the luck it brought.

    Attributes
    ----------
    turn : int
        Turn number (1-based).
    roll : int
        1 for the first roll of the turn, 2 or 3 for a reroll after a keep.
    kept : tuple of int
        The dice kept before the roll (sorted; empty for a first roll).
    dice : tuple of int
        The five dice the roll showed (sorted).
    before : float
        Expected final total (points) before the roll: the value of the turn's
        start, or of the keep just chosen (the expected value over the roll),
        optimal play afterwards.
    after : float
        Expected final total (points) with these dice showing, best play from there.
    luck : float
        ``after - before`` (points; positive when the dice helped).
    """

    turn: int
    roll: int
    kept: tuple[int, ...]
    dice: tuple[int, ...]
    before: float
    after: float

    @property
    def luck(self) -> float:
        return float(self.after - self.before)

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "roll": self.roll, "kept": format_dice(self.kept), "dice": format_dice(self.dice),
                "before": self.before, "after": self.after, "luck": self.luck}


@dataclass(frozen=True)
class GameReview:
    """The review of one player's game.

    Attributes
    ----------
    rules : RuleSet
    decisions : tuple of Decision
        In the order played.
    final_score : int
        Points on the card at the end of the reviewed turns.
    start_value : float
        Optimal expected final total from the empty card (points).
    complete : bool
        True when every turn of the game was played.
    meta : dict
        Where the game came from (date, opponent, seed, result...), passed through.
    rolls : tuple of Roll
        Every chance node of the reviewed turns, in the order played (the luck of each roll).
    end_value : float or None
        Expected final total (points) under optimal play from the card after the
        reviewed turns: the final score for a finished game.  ``None``: as
        ``final_score``.
    win_model : str or None
        The opponent model of the decisions' winning chances (:attr:`Decision.win_lost`):
        ``optimal``, ``expert``, ``normal`` or ``beginner``; ``None`` when the review has none
        (a solitaire game, the CPU's own decisions).
    win_max_open : int or None
        The exact scope of those chances: both cards together at most this many open boxes.
    """

    rules: RuleSet
    decisions: tuple[Decision, ...]
    final_score: int
    start_value: float
    complete: bool = True
    meta: dict[str, Any] = field(default_factory=dict, compare=False)
    rolls: tuple[Roll, ...] = ()
    end_value: float | None = None
    win_model: str | None = None
    win_max_open: int | None = None

    @property
    def skill_loss(self) -> float:
        """Expected points lost by the player's decisions (points, >= 0): :attr:`total_loss`."""
        return self.total_loss

    @property
    def luck(self) -> float:
        """Sum of the luck of every roll (points): the change in expected final total the dice made."""
        return float(sum(r.luck for r in self.rolls))

    @property
    def expected_end(self) -> float:
        """:attr:`end_value`, or the final score when it is not set (points)."""
        return float(self.final_score if self.end_value is None else self.end_value)

    @property
    def identity_gap(self) -> float:
        """``expected_end - (start_value - skill_loss + luck)`` (points): 0 up to float rounding
        (and the losses under :data:`ZERO` counted as 0)."""
        return self.expected_end - (self.start_value - self.skill_loss + self.luck)

    @property
    def total_loss(self) -> float:
        """Sum of the expected losses (points)."""
        return float(sum(d.loss for d in self.decisions))

    @property
    def mean_loss(self) -> float:
        """Mean expected loss per decision (points; 0 with no decisions)."""
        return self.total_loss / len(self.decisions) if self.decisions else 0.0

    @property
    def bands(self) -> dict[str, int]:
        """Number of decisions per loss band (:data:`BANDS`): ``{"0": n, "<1": n, "1-5": n, ">=5": n}``."""
        out = {name: 0 for name, _, _ in BANDS}
        for d in self.decisions:
            for name, lo, hi in BANDS:
                if lo <= d.loss < hi:
                    out[name] += 1
        return out

    @property
    def win_decisions(self) -> list[Decision]:
        """The decisions valued by the exact two-player solve (the endgame), in the order played."""
        return [d for d in self.decisions if d.win_lost is not None]

    @property
    def win_lost(self) -> float | None:
        """Sum of the winning chances given up in the endgame (probability; ``None`` without that column)."""
        if self.win_model is None:
            return None
        return float(sum(d.win_lost for d in self.decisions if d.win_lost is not None))

    def costliest(self, n: int = 3) -> list[Decision]:
        """The ``n`` decisions of greatest loss (greater than 0), costliest first (ties: earlier first)."""
        ranked = sorted((d for d in self.decisions if d.loss > 0), key=lambda d: -d.loss)
        return ranked[:n]

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.name,
            **self.meta,
            "complete": self.complete,
            "final_score": self.final_score,
            "start_value": self.start_value,
            "decisions": [d.to_dict(self.rules) for d in self.decisions],
            "total_loss": self.total_loss,
            "skill_loss": self.skill_loss,
            "luck": self.luck,
            "expected_end": self.expected_end,
            "rolls": [r.to_dict() for r in self.rolls],
            "mean_loss": self.mean_loss,
            "n_decisions": len(self.decisions),
            "bands": self.bands,
            "costliest": [d.to_dict(self.rules) for d in self.costliest()],
            "win_model": self.win_model,
            "win_max_open": self.win_max_open,
            "win_lost": self.win_lost,
            "n_win_decisions": len(self.win_decisions),
        }


def _clean(loss: float) -> float:
    return 0.0 if loss < ZERO else float(loss)


#: Winning chances given up below this (probability) count as 0: the ``master`` CPU's tie tolerance
#: (:data:`yahtzee_solver.strategy.master.TIE`), exact ties computed by different sums.
WIN_ZERO = 1e-12


class EndgameChances:
    """The exact winning chances of one player's endgame decisions in a game against a CPU.

    One :class:`~yahtzee_solver.strategy.duel.DuelSolver` serves every decision
    of the game (its solved nodes are kept), each position read through a
    :class:`~yahtzee_solver.strategy.policy.Policy` over a
    :class:`~yahtzee_solver.strategy.duel.DuelSource` against the opponent's
    card, with the expected total as the tie-break source: the construction of
    the play hint (:class:`~yahtzee_solver.strategy.win_chances.WinHints`), so a
    hint and a review give a decision the same chance.

    Parameters
    ----------
    rules : str or RuleSet
    level : str
        The CPU level played (``beginner``, ``normal``, ``expert``, ``master``):
        the opponent model is :func:`~yahtzee_solver.strategy.duel.model_for_level`.
    advisor : Advisor
        Its value table is the expert's policy; its values break ties.
    max_open : int, optional
        The exact scope (default :data:`~yahtzee_solver.strategy.duel.DEFAULT_MAX_OPEN`).
    solver : DuelSolver, optional
        A solver to share (same rules and model).
    """

    def __init__(self, rules: str | RuleSet, level: str, advisor: Advisor, *, max_open: int | None = None,
                 solver: DuelSolver | None = None) -> None:
        from ..strategy.duel import DEFAULT_MAX_OPEN, DuelSolver, model_for_level

        self.rules: RuleSet = get_rules(rules)
        self.model: str = model_for_level(level)
        self.max_open: int = DEFAULT_MAX_OPEN if max_open is None else int(max_open)
        self.advisor: Advisor = advisor
        self.solver: DuelSolver = solver if solver is not None else DuelSolver(self.rules, self.model, advisor.table, draws=False)
        self._policy: tuple[tuple[Any, ...], Policy] | None = None

    def policy(self, card: ScoreCard, opponent: ScoreCard) -> Policy | None:
        """The policy valuing my decisions with ``card`` against ``opponent`` (its card at my turn's start),
        or ``None`` outside the exact endgame."""
        from ..strategy.duel import DuelSource, in_scope
        from ..strategy.policy import Policy

        if card.is_full or not in_scope(len(card.open_categories), len(opponent.open_categories), self.max_open):
            return None
        key = (opponent.boxes, opponent.yahtzee_bonus)
        kept = self._policy
        if kept is None or kept[0] != key:
            src = DuelSource(self.rules, opponent, self.model, solver=self.solver)
            kept = (key, Policy(src, tiebreak=self.advisor.source))
            self._policy = kept
        return kept[1]

    @staticmethod
    def lost(codes: np.ndarray, values: np.ndarray, chosen: int) -> tuple[float, float, float]:
        """``(chosen's chance, best chance, given up)`` from a ranking (best first) and the chosen code."""
        i = int(np.flatnonzero(codes == chosen)[0])
        best, mine = float(values[0]), float(values[i])
        gap = best - mine
        return mine, best, 0.0 if i == 0 or gap < WIN_ZERO else gap


def review_turns(turns: Sequence[TurnPlay], rules: str | RuleSet, *, advisor: Advisor | None = None,
                 table: ValueTable | None = None, meta: dict[str, Any] | None = None,
                 opponent_cards: Sequence[ScoreCard] | None = None, opponent_level: str | None = None,
                 max_open: int | None = None, endgame: EndgameChances | None = None) -> GameReview:
    """Review a game given as the moves of each turn.

    Parameters
    ----------
    turns : sequence of TurnPlay
        The turns in order, from the empty card (at most one per box).
    rules : str or RuleSet
    advisor : Advisor, optional
        Default: ``Advisor(rules, table, jit=False)`` (no numba start-up).
    table : ValueTable, optional
        Default: the shipped table.
    meta : dict, optional
        Passed to :attr:`GameReview.meta`.
    opponent_cards : sequence of ScoreCard, optional
        In a game against a CPU: the CPU's card at the start of each of my turns
        (one per turn).  With ``opponent_level``, the endgame decisions get their
        winning chance given up (:attr:`Decision.win_lost`).
    opponent_level : str, optional
        The CPU level played (``beginner``, ``normal``, ``expert``, ``master``).
    max_open : int, optional
        The exact scope (default :data:`~yahtzee_solver.strategy.duel.DEFAULT_MAX_OPEN`).
    endgame : EndgameChances, optional
        The valuer of those chances to use (default: a new one for ``opponent_level``).

    Returns
    -------
    GameReview

    Raises
    ------
    SavedGameError
        If the moves are not a legal game (a keep not among the dice, a roll
        that does not contain the dice kept, a closed box, too many turns).
    UsageError
        If ``opponent_cards`` does not give one card per turn.
    """
    from ..dice import roll_index

    rules = get_rules(rules)
    adv = advisor if advisor is not None else Advisor(rules, table, jit=False)
    if adv.rules != rules:
        raise UsageError(f"advisor is for rules {adv.rules.name!r}, not {rules.name!r}")
    replay(turns, rules)  # a legal game, or SavedGameError before any value is computed
    if opponent_cards is not None and len(opponent_cards) != len(turns):
        raise UsageError(f"{len(opponent_cards)} opponent cards for {len(turns)} turns: want one per turn")
    eg = endgame
    if eg is None and opponent_cards is not None and opponent_level is not None:
        eg = EndgameChances(rules, opponent_level, adv, max_open=max_open)
    if opponent_cards is None:
        eg = None
    card = ScoreCard.empty(rules)
    out: list[Decision] = []
    chance: list[Roll] = []
    before = adv.expected_final(card)  # the value of the first chance node: the empty card
    for t, tp in enumerate(turns, start=1):
        rolls = [tuple(sorted(r)) for r in tp.rolls]
        keeps = [tuple(sorted(k)) for k in tp.keeps]
        kept: tuple[int, ...] = ()
        pol = None if eg is None or opponent_cards is None else eg.policy(card, opponent_cards[t - 1])

        for j, keep in enumerate(keeps):
            dice, rl = rolls[j], 2 - j
            opts = adv.keep_options(card, dice, rl)
            chance.append(Roll(t, j + 1, kept, dice, before, opts[0].expected))
            chosen = next(o for o in opts if o.keep == keep)
            out.append(Decision(t, "keep", dice, rl, keep, opts[0].keep, chosen.expected, opts[0].expected,
                                _clean(chosen.loss), card.total, *_win_keep(pol, card, dice, rl, keep)))
            before, kept = chosen.expected, keep
        final = rolls[-1]
        boxes = adv.box_options(card, final)
        if len(rolls) < 3:  # scored with rerolls left: a stand, the hint's keep-all (score now) row
            rl = 3 - len(rolls)
            opts = adv.keep_options(card, final, rl)
            chance.append(Roll(t, len(rolls), kept, final, before, opts[0].expected))
            chosen = next(o for o in opts if o.keep == final)
            out.append(Decision(t, "keep", final, rl, final, opts[0].keep, chosen.expected, opts[0].expected,
                                _clean(chosen.loss), card.total, *_win_keep(pol, card, final, rl, final)))
        else:
            chance.append(Roll(t, 3, kept, final, before, boxes[0].expected))
        scored = next(o for o in boxes if o.category == tp.box)
        win_box: tuple[float | None, ...] = (None, None, None)
        if pol is not None:
            bc, bv = pol.box_ranking(card.key, card.total, roll_index(final))
            win_box = EndgameChances.lost(bc, bv, tp.box)
        out.append(Decision(t, "box", final, 0, tp.box, boxes[0].category, scored.expected, boxes[0].expected,
                            _clean(scored.loss), card.total, *win_box))
        points, _, bonus = card.box_points(final)
        card = card.with_box(tp.box, points[tp.box], bonus)
        # the next turn's start, valued from its card (equal to scored.expected up to rounding)
        before = adv.expected_final(card)
    return GameReview(rules, tuple(out), card.total, adv.expected_final(), card.is_full, dict(meta or {}),
                      tuple(chance), before, None if eg is None else eg.model,
                      None if eg is None else eg.max_open)


def _win_keep(pol: Policy | None, card: ScoreCard, dice: tuple[int, ...], rl: int,
              keep: tuple[int, ...]) -> tuple[float | None, ...]:
    """``(chosen, best, given up)`` winning chance of a keep (``None`` each outside the exact endgame)."""
    from ..dice import keep_index, roll_index

    if pol is None:
        return None, None, None
    codes, values = pol.keep_ranking(card.key, card.total, roll_index(dice), rl)
    return EndgameChances.lost(codes, values, keep_index(keep))


def replay(turns: Sequence[TurnPlay], rules: str | RuleSet) -> ScoreCard:
    """The card the turns write, checking that they are a legal game (no values needed: cheap).

    Raises
    ------
    SavedGameError
        As :func:`review_turns`.
    """
    rules = get_rules(rules)
    card = ScoreCard.empty(rules)
    if len(turns) > rules.n_categories:
        raise SavedGameError(f"{len(turns)} turns in a game of {rules.n_categories}")
    for t, tp in enumerate(turns, start=1):
        rolls = [tuple(sorted(r)) for r in tp.rolls]
        keeps = [tuple(sorted(k)) for k in tp.keeps]
        if not 1 <= len(rolls) <= 3 or len(keeps) != len(rolls) - 1:
            raise SavedGameError(f"turn {t}: {len(rolls)} rolls and {len(keeps)} keeps")
        for j, keep in enumerate(keeps):
            if not _contains(rolls[j], keep) or not _contains(rolls[j + 1], keep):
                raise SavedGameError(f"turn {t}: keep {format_dice(keep)} does not fit the dice "
                                     f"{format_dice(rolls[j])} -> {format_dice(rolls[j + 1])}")
        try:
            points, legal, bonus = card.box_points(rolls[-1])
        except ValueError as e:
            raise SavedGameError(f"turn {t}: {e}") from None
        c = tp.box
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < rules.n_categories or not legal[c]:
            raise SavedGameError(f"turn {t}: box {c!r} is not open for {format_dice(rolls[-1])}")
        card = card.with_box(c, points[c], bonus)
    return card


def review_log(log: Iterable[Event | Mapping[str, Any]], rules: str | RuleSet, player: int = 0, *,
               advisor: Advisor | None = None, meta: dict[str, Any] | None = None,
               opponent_level: str | None = None, max_open: int | None = None,
               endgame: EndgameChances | None = None) -> GameReview:
    """Review one player's turns in a move log (:func:`turns_from_log`, :func:`review_turns`).

    With ``opponent_level`` (the CPU level of a game against a CPU) the endgame
    decisions get their winning chance given up, against the other player's
    card as the log has it at the start of each turn (:func:`opponent_cards`).

    Raises
    ------
    SavedGameError
        If the log is malformed or not a legal game.
    """
    events = list(log)
    turns = turns_from_log(events, player)
    opp = None
    if opponent_level is not None:
        opp = opponent_cards(events, rules, player)[: len(turns)]
    return review_turns(turns, rules, advisor=advisor, meta=meta, opponent_cards=opp, opponent_level=opponent_level,
                        max_open=max_open, endgame=endgame)


def opponent_cards(log: Iterable[Event | Mapping[str, Any]], rules: str | RuleSet, player: int = 0) -> list[ScoreCard]:
    """The other player's card at the start of each turn of ``player`` in a two-player move log.

    Raises
    ------
    SavedGameError
        If the other player's moves are malformed or not a legal game.
    """
    from ..game import Event

    rules = get_rules(rules)
    raw = _events(log)
    other = 1 - player
    replay(turns_from_log(raw, other), rules)  # every event reads, and the other player's moves are a legal game
    events = [e if isinstance(e, Event) else Event.from_dict(e) for e in raw]
    card = ScoreCard.empty(rules)
    out: list[ScoreCard] = []
    for ev in events:
        if ev.player == player and ev.kind == "roll" and ev.roll == 1:
            out.append(card)
        elif ev.player == other and ev.kind == "score":
            dice = tuple(sorted(ev.dice))
            points, _, bonus = card.box_points(dice)
            card = card.with_box(int(ev.category), points[int(ev.category)], bonus)
    return out


def _events(log: Iterable[Event | Mapping[str, Any]]) -> list[Event | Mapping[str, Any]]:
    try:
        return list(log)
    except (TypeError, ValueError) as e:
        raise SavedGameError(f"the move log is damaged ({type(e).__name__}: {e})") from None


def _contains(dice: Iterable[int], keep: Iterable[int]) -> bool:
    rest = list(dice)
    for d in keep:
        if d not in rest:
            return False
        rest.remove(d)
    return True


def turns_from_log(log: Iterable[Event | Mapping[str, Any]], player: int = 0) -> list[TurnPlay]:
    """The turns of ``player`` in a game's move log.

    Parameters
    ----------
    log : sequence of game.Event or of their ``to_dict()`` dicts
        The game's log (:attr:`yahtzee_solver.game.GameState.log`).
    player : int
        0 = the human, 1 = the CPU.

    Raises
    ------
    SavedGameError
        If the log is malformed (an unknown event, a reroll before a roll, ...).
    """
    from ..game import Event

    turns: list[TurnPlay] = []
    rolls: list[tuple[int, ...]] = []
    keeps: list[tuple[int, ...]] = []
    try:
        for e in log:
            ev = e if isinstance(e, Event) else Event.from_dict(e)
            if ev.player != player or ev.kind == "hold":
                continue
            if ev.kind == "roll":
                dice = tuple(sorted(ev.dice))
                if ev.roll == 1:
                    if rolls:
                        raise SavedGameError("a new turn began before the last one was scored")
                    rolls = [dice]
                    continue
                if ev.roll != len(rolls) + 1 or not rolls:
                    raise SavedGameError(f"roll {ev.roll} out of order")
                keeps.append(tuple(sorted(f for f, h in zip(ev.dice, ev.held) if h)))
                rolls.append(dice)
            elif ev.kind == "score":
                if not rolls or tuple(sorted(ev.dice)) != rolls[-1]:
                    raise SavedGameError("a score without the dice of the last roll")
                turns.append(TurnPlay(tuple(rolls), tuple(keeps), int(ev.category)))
                rolls, keeps = [], []
            else:
                raise SavedGameError(f"unknown event {ev.kind!r}")
    except SavedGameError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        raise SavedGameError(f"the move log is damaged ({type(e).__name__}: {e})") from None
    return turns


def review_game(state: GameState, player: int = 0, *, advisor: Advisor | None = None,
                meta: dict[str, Any] | None = None, winning_chances: bool = False,
                max_open: int | None = None) -> GameReview:
    """Review one player's turns of a game (:class:`~yahtzee_solver.game.GameState`).

    The replayed card must equal the game's card (a check that the log is whole).
    With ``winning_chances``, the player's endgame decisions in a game against
    the CPU get their winning chance given up (:attr:`Decision.win_lost`; the
    CPU's own decisions have none).

    Raises
    ------
    SavedGameError
        If the log does not replay to the game's card.
    UsageError
        If ``player`` is not in the game.
    """
    if not 0 <= player < state.config.n_players:
        raise UsageError(f"invalid player {player!r}: the game has {state.config.n_players}")
    level = state.config.opponent if winning_chances and player == 0 and state.config.n_players == 2 else None
    rev = review_log(state.log, state.rules, player, advisor=advisor, meta=meta, opponent_level=level,
                     max_open=max_open)
    if rev.final_score != state.cards[player].total:
        raise SavedGameError(
            f"the move log gives {rev.final_score} points, the card holds {state.cards[player].total}"
        )
    return rev


# -- the CPU levels in the same units -----------------------------------------------------------
@dataclass(frozen=True)
class PolicyLosses:
    """Expected loss of a CPU level's decisions over seeded games (see :func:`policy_losses`).

    Attributes
    ----------
    level, rules : str
    games : int
    seed : int
    decisions : int
        Decisions reviewed (keeps, stands and boxes).
    per_decision : float
        Mean expected loss per decision (points).
    per_game : (float, float)
        Mean total expected loss per game (points) and its 95 % half-width
        (NaN for one game, where the sample sd is undefined; ``None`` in :meth:`to_dict`).
    mean_score : (float, float)
        Mean final score and its 95 % half-width (NaN for one game, as ``per_game``'s).
    start_value : float
        Optimal expected final total (points); ``mean_score`` estimates
        ``start_value - per_game`` (the identity of the module docstring).
    scores, game_losses : (games,) float64
        Each game's final score and total expected loss (not in :meth:`to_dict`).
    """

    level: str
    rules: str
    games: int
    seed: int
    decisions: int
    per_decision: float
    per_game: tuple[float, ...]
    mean_score: tuple[float, ...]
    start_value: float
    scores: np.ndarray | None = field(repr=False, compare=False, default=None)
    game_losses: np.ndarray | None = field(repr=False, compare=False, default=None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "level": self.level, "rules": self.rules, "games": self.games, "seed": self.seed,
            "decisions": self.decisions, "loss_per_decision": self.per_decision,
            "loss_per_game": self.per_game[0], "loss_per_game_ci95": _finite(self.per_game[1]),
            "mean_score": self.mean_score[0], "mean_score_ci95": _finite(self.mean_score[1]),
            "optimal_value": self.start_value,
        }


def _finite(x: float) -> float | None:
    """``x``, or ``None`` for NaN (strict JSON has no NaN): the half-width of one game."""
    return None if math.isnan(x) else x


def policy_losses(level: str, games: int, rules: str | RuleSet = "yahtzee", *, seed: int = 0,
                  table: ValueTable | None = None) -> PolicyLosses:
    """Mean expected loss per decision and per game of a CPU level, over seeded games.

    The games are those of :func:`yahtzee_solver.analysis.simulate.simulate` with the
    same seed (the same dice, :func:`~yahtzee_solver.analysis.simulate.draw_dice`), played
    by :func:`~yahtzee_solver.analysis.simulate.play_game` with the level's strategy; every
    keep and box is valued with the optimal values, as in a game review
    (the batch kernel, :class:`~yahtzee_solver.strategy.batch.ArrayAdvisor`).

    Raises
    ------
    UsageError
        Unknown level or fewer than 1 game.
    """
    from ..strategy.batch import ArrayAdvisor
    from ..strategy.players import LEVELS, BeginnerStrategy, fixed_strategy
    from .simulate import draw_dice, play_game, play_games

    name = str(level).strip().lower()
    if name not in LEVELS:
        raise UsageError(f"unknown level {level!r} (choose from {', '.join(LEVELS)})")
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise UsageError(f"invalid number of games {games!r}: want at least 1")
    rules = get_rules(rules)
    ss = np.random.SeedSequence(seed)
    dice = draw_dice(np.random.default_rng(ss), int(games), rules.n_categories)
    strategy = fixed_strategy(name, rules, rng=np.random.default_rng(ss.spawn(1)[0]), table=table)
    C = rules.n_categories
    # every game's moves: (first keep, second keep, final roll, box) as faces / box
    if isinstance(strategy, BeginnerStrategy):
        moves = []
        for g in range(len(dice)):
            m: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]] = []
            play_game(strategy, dice[g], rules, moves=m)
            moves.append(m)
    else:
        _, _, km = play_games(strategy, dice)
        moves = [[(KEEPS[a], KEEPS[b], ROLLS[r], int(c)) for a, b, r, c in km[g, :C]] for g in range(len(dice))]
    adv = ArrayAdvisor(rules, table)
    # positions: (game, mask, up, yb, roll index, rolls left, chosen keep index or box)
    rows = []
    for g, game in enumerate(moves):
        card = ScoreCard.empty(rules)
        for t, (k1, k2, final, box) in enumerate(game):
            mask, up, yb = card.key
            roll1 = tuple(sorted(int(x) for x in dice[g, t, 0]))
            roll2 = tuple(sorted(k1 + tuple(int(x) for x in dice[g, t, 1, : 5 - len(k1)])))
            rows.append((g, mask, up, yb, _roll(roll1), 2, _keep(k1)))
            if len(k1) < 5:
                rows.append((g, mask, up, yb, _roll(roll2), 1, _keep(k2)))
            # else a stand with two rerolls left: the game scores at once, one decision
            # (the keep-all row, worth the best box now, as in review_turns)
            rows.append((g, mask, up, yb, _roll(final), 0, box))
            points, _, bonus = card.box_points(final)
            card = card.with_box(box, points[box], bonus)
    a = np.array(rows, dtype=np.int64)
    res = adv.option_values(a[:, 1], a[:, 2], a[:, 3], a[:, 4], a[:, 5])
    is_box = a[:, 5] == 0
    pos = res.keeps == a[:, 6][:, None]
    chosen_keep = np.where(pos, res.keep_values, -np.inf).max(axis=1)  # keep-all: the best box (no pass)
    chosen_box = res.box_values[np.arange(len(a)), np.where(is_box, a[:, 6], 0)]
    loss = res.best_value - np.where(is_box, chosen_box, chosen_keep)
    loss = np.where(loss < ZERO, 0.0, loss)
    per_game = np.bincount(a[:, 0], weights=loss, minlength=len(dice))
    scores = np.array([_final_total(rules, game) for game in moves], dtype=float)
    n = len(dice)

    def mean_ci(x: np.ndarray) -> tuple[float, float]:
        sd = float(x.std(ddof=1)) if n > 1 else math.nan  # n - 1 = 0: no interval for one game
        return float(x.mean()), 1.96 * sd / np.sqrt(n)

    return PolicyLosses(name, rules.name, n, int(cast(int, ss.entropy)), len(a), float(loss.mean()),
                        tuple(map(float, mean_ci(per_game))), tuple(map(float, mean_ci(scores))),
                        float(adv.table.empty_value), scores, per_game)


def _roll(faces: Iterable[int]) -> int:
    from ..dice import roll_index

    return roll_index(faces)


def _keep(faces: Iterable[int]) -> int:
    from ..dice import keep_index

    return keep_index(faces)


def _final_total(rules: RuleSet, game: Iterable[tuple[Any, Any, Sequence[int], int]]) -> int:
    card = ScoreCard.empty(rules)
    for _, _, final, box in game:
        points, _, bonus = card.box_points(final)
        card = card.with_box(box, points[box], bonus)
    return card.total
