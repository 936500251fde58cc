"""The chance of winning in a hint against a CPU, for both front ends (terminal and web).

For each option of the player's position (each distinct keep while rerolls
remain, each legal box after the last roll): the probability of beating the
CPU, a draw counting half, with the best response over the player's remaining
turns (:class:`~yahtzee_solver.strategy.objectives.WinSource`), beside the expected
final total (:class:`~yahtzee_solver.strategy.advisor.Advisor`).  The CPU's final
total is modelled by the exact distribution of its own policy from its current
card (:func:`~yahtzee_solver.strategy.objectives.opponent_pmf`; ``master`` is modelled
by the expert's policy).  Options are ranked by
:class:`~yahtzee_solver.strategy.policy.Policy` with the expected total as its tie-break
source (equal chances: the higher expected total first).

While both cards together have at most
:data:`~yahtzee_solver.strategy.duel.DEFAULT_MAX_OPEN` open boxes, the figure is
the exact two-player value (:class:`~yahtzee_solver.strategy.duel.DuelSource`):
the CPU's later turns are played as it plays them (its fixed policy; a
``master`` CPU plays the zero-sum game there, so the model is ``optimal``), and
my play reacts to each of them.  Before that, the figure is the exact best
response to the CPU's final-score distribution as seen now: the DP does not
plan to react to what the CPU scores on its later turns, so against a fixed
CPU policy it is a lower bound of the best winning chance; a ``master`` CPU is
modelled as the ``expert`` there and plays to win, so against it the figure is
an estimate, neither exact nor a bound (see :mod:`yahtzee_solver.strategy.master` and the
README, "Win probability in a game against the CPU").  Once the CPU has
finished, both are exact.

The DP is solved only once at most :data:`WIN_HINT_MAX_OPEN` of the player's
boxes are open, so that a hint stays quick; :class:`WinHints` keeps the last
solution, so further hints before the CPU's card changes cost a look-up.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..dice import KEEPS, roll_index
from ..errors import IllegalMoveError, OptionError
from ..game import CPU, HUMAN, MAX_ROLLS, GameState
from .probability import clip_probability

if TYPE_CHECKING:
    from ..i18n import Translator
    from ..rules import RuleSet
    from ..solver.table import ValueTable
    from ..state import ScoreCard
    from .advisor import Advisor
    from .duel import DuelSolver
    from .objectives import WinSource
    from .policy import Policy

__all__ = ["WIN_HINT_MAX_OPEN", "WinOption", "WinChances", "WinHints", "win_note", "warm", "TableChances", "TableOdds"]

#: The winning chances are computed once the player has at most this many open boxes
#: (the DP from an earlier card takes minutes).
WIN_HINT_MAX_OPEN = 5


@dataclass(frozen=True)
class WinOption:
    """One option of the position with its chance of winning.

    Attributes
    ----------
    keep : tuple of int or None
        The faces kept (sorted) for a keep; ``None`` for a box.  All five
        dice with rerolls left is no reroll (there is no pass): it stops and
        scores now in ``box``.
    box : int or None
        The box index for a box, and for keeping all five (the box it scores in, the one of best chance);
        ``None`` for a keep that rerolls.
    points : int or None
        The points the dice score in ``box``; ``None`` for a keep that rerolls.
    win : float
        P(win) + P(draw) / 2 with the best response afterwards (probability, 0..1).
    expected : float
        Expected final total (points) with the best play for points afterwards.
    """

    keep: tuple[int, ...] | None
    box: int | None
    points: int | None
    win: float
    expected: float


@dataclass(frozen=True)
class WinChances:
    """The chances of winning at one position of the player (from :class:`WinHints`).

    Attributes
    ----------
    level : str
        The CPU's level (``beginner``, ``normal``, ``expert``, ``master``).
    open_boxes : int
        The player's open boxes.
    shown : bool
        Whether the DP was solved (at most :data:`WIN_HINT_MAX_OPEN` open boxes);
        otherwise ``start`` is ``None`` and ``options`` is empty.
    exact : bool
        The chances are exact, not a lower bound: the CPU has finished its game, or ``duel``.
    cpu_total : int
        The CPU's total so far (its final score when ``exact``).
    start : float or None
        Before the turn's first roll: the chance of winning from the turn start (probability).
    kind : str
        ``roll`` (before the first roll), ``keep`` (rerolls left) or ``box`` (after the last roll).
    options : tuple of WinOption
        Every keep or every legal box, best chance first (equal chances: the higher expected total).
    duel : bool
        The exact two-player value (both cards together within the exact scope).
    n_open : int
        Open boxes of both cards together.
    """

    level: str
    open_boxes: int
    shown: bool
    exact: bool
    cpu_total: int
    start: float | None
    kind: str
    options: tuple[WinOption, ...]
    duel: bool = False
    n_open: int = 0

    @property
    def best(self) -> WinOption | None:
        """The option of highest chance (``None`` before the first roll or when not shown)."""
        return self.options[0] if self.options else None

    def of_keep(self, keep: Iterable[int]) -> WinOption:
        """The option keeping faces ``keep`` (any order).

        Raises
        ------
        OptionError
            If ``keep`` is not a keep of this position (a ``KeyError``).
        """
        want = tuple(sorted(keep))
        for o in self.options:
            if o.keep == want:
                return o
        raise OptionError(f"no keep {want!r} at this position")

    def of_box(self, box: int) -> WinOption:
        """The option scoring in box ``box``.

        Raises
        ------
        OptionError
            If ``box`` is not a legal box of this position (a ``KeyError``).
        """
        for o in self.options:
            if o.box == box:
                return o
        raise OptionError(f"no legal box {box!r} at this position")


class WinHints:
    """The chances of winning for the player's positions in one game, the last DP kept.

    The DP (:class:`~yahtzee_solver.strategy.objectives.WinSource`) depends on the
    CPU's card only, and covers every later position of the player: it is
    solved again only when the CPU's card (or the rule set, or the level)
    changes, i.e. at most once per turn of the player, and not at all once the
    CPU has finished.  Safe to share between threads: the kept DP is one
    value replaced whole, and the queries compute in per-thread work arrays or
    per call (two threads asking about a new CPU card at once may both solve it).
    """

    def __init__(self) -> None:
        self._kept: tuple[tuple[Any, ...], Policy] | None = None  # (key, policy)
        # (rules, model, table) -> DuelSolver, its solved nodes kept across turns
        self._solvers: dict[tuple[str, str, int], DuelSolver] = {}

    @staticmethod
    def is_duel(st: GameState) -> bool:
        """Whether the exact two-player value answers at ``st`` (both cards within the exact scope, in turn)."""
        from .duel import in_scope

        return in_scope(len(st.cards[HUMAN].open_categories), len(st.cards[CPU].open_categories))

    def _policy_for(self, st: GameState, advisor: Advisor) -> Policy:
        from .objectives import WinSource, opponent_pmf
        from .policy import Policy

        cpu = st.cards[CPU]
        duel = self.is_duel(st)
        key = (st.rules.name, st.config.opponent, cpu.key, cpu.total, id(advisor.table), duel)
        kept = self._kept
        if kept is None or kept[0] != key:
            if duel:
                from .duel import DuelSolver, DuelSource, model_for_level

                model = model_for_level(st.config.opponent)
                skey = (st.rules.name, model, id(advisor.table))
                solver = self._solvers.get(skey)
                if solver is None:
                    solver = self._solvers.setdefault(skey, DuelSolver(st.rules, model, advisor.table, draws=False))
                kept = (key, Policy(DuelSource(st.rules, cpu, model, solver=solver), tiebreak=advisor.source))
            else:
                pmf = opponent_pmf(st.rules, cpu, st.config.opponent, advisor.table)
                # equal chances: the higher expected total
                kept = (key, Policy(WinSource(st.rules, pmf), tiebreak=advisor.source))
            self._kept = kept
        return kept[1]

    def _check(self, st: GameState) -> bool:
        """Whether the DP is solved for ``st`` (a game against a CPU, at most the limit of open boxes)."""
        if st.config.n_players == 1:
            return False
        if st.is_terminal() or st.current != HUMAN:
            raise IllegalMoveError("the chances of winning are for the player's turn of a game in progress")
        return len(st.cards[HUMAN].open_categories) <= WIN_HINT_MAX_OPEN

    def __call__(self, state: GameState, advisor: Advisor) -> WinChances | None:
        """The chances of winning at the player's position in ``state``.

        Parameters
        ----------
        state : GameState
            A game against a CPU, the player to move, not over.
        advisor : Advisor
            The advisor of ``state.rules`` (its table models an expert or master
            CPU, its values give the expected totals and break ties).

        Returns
        -------
        WinChances or None
            ``None`` in a solitaire game (no CPU to beat).

        Raises
        ------
        IllegalMoveError
            If the game is over or it is the CPU's turn (a ``ValueError``).
        """
        st = state
        if st.config.n_players == 1:
            return None
        shown = self._check(st)
        me, cpu = st.cards[HUMAN], st.cards[CPU]
        kind = "roll" if st.dice is None else ("keep" if st.rolls_used < MAX_ROLLS else "box")

        duel = shown and self.is_duel(st)

        def chances(start: float | None = None, options: Iterable[WinOption] = ()) -> WinChances:
            return WinChances(st.config.opponent, len(me.open_categories), shown, cpu.is_full or duel, cpu.total,
                              start, kind, tuple(options), duel,
                              len(me.open_categories) + len(cpu.open_categories))

        if not shown:
            return chances()
        policy = self._policy_for(st, advisor)
        if kind == "roll":
            return chances(start=cast("WinSource", policy.source).probability(me))
        if kind == "box":
            return chances(options=self._boxes(st, advisor))
        dice = st.sorted_dice
        assert dice is not None  # kind is keep: rolled
        r = roll_index(dice)
        codes, P = policy.keep_ranking(me.key, me.total, r, st.rerolls_left)
        ev = {o.keep: o.expected for o in advisor.keep_options(me, dice, st.rerolls_left)}
        # keeping all five stops and scores now (no pass), in the box of best chance
        stop = policy.stop_option(me.key, me.total, r)[0]
        box = next(o for o in advisor.box_options(me, dice) if o.category == stop)

        def option(k: int, p: float) -> WinOption:
            keep = KEEPS[k]
            if len(keep) == len(dice):
                return WinOption(keep, stop, box.points, p, box.expected)
            return WinOption(keep, None, None, p, ev[keep])

        return chances(options=(option(k, p) for k, p in zip(codes.tolist(), clip_probability(P).tolist())))

    def _boxes(self, st: GameState, advisor: Advisor) -> tuple[WinOption, ...]:
        me, dice = st.cards[HUMAN], st.sorted_dice
        assert dice is not None  # rolled
        boxes, P = self._policy_for(st, advisor).box_ranking(me.key, me.total, roll_index(dice))
        ev = {o.category: o for o in advisor.box_options(me, dice)}
        return tuple(WinOption(None, c, ev[c].points, p, ev[c].expected)
                     for c, p in zip(boxes.tolist(), clip_probability(P).tolist()))

    def boxes(self, state: GameState, advisor: Advisor) -> tuple[WinOption, ...] | None:
        """The legal boxes for the dice as they are, best chance first (what keeping all five leads to).

        The same values as the options of :meth:`__call__` after the last roll;
        used for the box to score when stopping early.

        Returns
        -------
        tuple of WinOption or None
            ``None`` in solitaire, before the first roll, or with more than
            :data:`WIN_HINT_MAX_OPEN` open boxes.

        Raises
        ------
        IllegalMoveError
            If the game is over or it is the CPU's turn (a ``ValueError``).
        """
        if not self._check(state) or state.dice is None:
            return None
        return self._boxes(state, advisor)


def win_note(tr: Translator, wc: WinChances) -> str:
    """What the chances are, in ``tr``'s language: exact (two-player solve, or the CPU has finished) or a best
    response as seen now."""
    if wc.duel and wc.n_open > wc.open_boxes:  # the CPU still has boxes open
        return tr("hint.win_exact_duel", n=wc.n_open)
    if wc.exact:
        return tr("hint.win_exact", score=wc.cpu_total)
    # against a fixed policy the best response to its own distribution is a lower bound; master plays to
    # win and is modelled as the expert here, so the figure is an estimate, not a bound
    return tr("hint.win_note_master") if wc.level == "master" else tr("hint.win_note")


def warm(rules: str | RuleSet, level: str, table: ValueTable | None = None) -> None:
    """Load the compiled kernels of the chances (the CPU's distribution, the win DP, the two-player solve)
    ahead of a hint.

    Solves the smallest case (one open box on the CPU's and the player's
    card); the first real hint then pays only for its own DP.  Safe to run in
    a background thread.

    Parameters
    ----------
    rules : str or RuleSet
    level : str
        The CPU's level.
    table : ValueTable, optional
        The value table of ``rules`` (default: shipped).
    """
    from .objectives import WinSource, opponent_pmf
    from ..rules import get_rules
    from ..state import ScoreCard

    rules = get_rules(rules)
    card = ScoreCard.from_mapping({c.slug: min(rules.possible_points[i]) for i, c in enumerate(rules.categories[:-1])},
                                  rules)
    WinSource(rules, opponent_pmf(rules, card, level, table)).probability(card)
    from .duel import DuelSolver, DuelSource, model_for_level

    # and the exact two-player kernels the hint runs (values only; one open box each)
    model = model_for_level(level)
    DuelSource(rules, card, model, solver=DuelSolver(rules, model, table, draws=False)).probability(card)


# -- every player at a table: the chance of finishing first (the coach) -------------------------------


@dataclass(frozen=True)
class TableChances:
    """The chances of finishing first of every player at a table, at one decision of the player to move.

    The model: every player plays ``expert`` (the optimal policy for points,
    the value table's) from their current card -- the player to move from the
    position with the dice showing, the others from the start of their next
    turn -- and the final totals are independent; a ``k``-way tie for first
    counts ``1/k`` for each (:func:`~yahtzee_solver.strategy.objectives.first_place_chances`).
    So the chances of all players add up to 1.

    Attributes
    ----------
    shown : bool
        Whether the chances were computed (every card has at most
        :data:`WIN_HINT_MAX_OPEN` open boxes, and there are two or more players).
    players : tuple of float
        Each player's chance (probability), in seating order; empty when not shown.
    options : dict
        The player to move's chance after each option, then ``expert`` play:
        ``{keep faces (sorted tuple): p}`` with rerolls left (all five: scoring
        now in the expert's box), ``{box index: p}`` for the boxes (after the
        last roll, or asked for with ``boxes=True``); empty before the first roll.
    """

    shown: bool
    players: tuple[float, ...] = ()
    options: dict[tuple[int, ...] | int, float] = field(default_factory=dict)


class TableOdds:
    """Computes :class:`TableChances` for the positions of one game, keeping what it solved.

    The final-score distributions (:func:`~yahtzee_solver.strategy.objectives.opponent_pmf`,
    :func:`~yahtzee_solver.strategy.distribution.option_distributions`) are kept per card
    and position, so asking again at the same decision costs a look-up.

    Parameters
    ----------
    rules : str or RuleSet
    table : ValueTable, optional
        The value table of ``rules`` (default: shipped).
    max_open : int
        The chances are computed once every card has at most this many open boxes.
    """

    def __init__(self, rules: str | RuleSet, table: ValueTable | None = None,
                 max_open: int = WIN_HINT_MAX_OPEN) -> None:
        from ..rules import get_rules

        self.rules: RuleSet = get_rules(rules)
        self.table: ValueTable | None = table
        self.max_open: int = int(max_open)
        self._start: dict[tuple[tuple[int, int, int], int], np.ndarray] = {}
        self._position: dict[tuple[Any, ...], tuple[np.ndarray, dict[tuple[int, ...] | int, np.ndarray]]] = {}

    def start_pmf(self, card: ScoreCard) -> np.ndarray:
        """P(final total = s) of ``expert`` play from the start of a turn with ``card`` (a full card: its total)."""
        from .objectives import opponent_pmf

        key = (card.key, card.total)
        if key not in self._start:
            if card.is_full:
                p = np.zeros(card.total + 1)
                p[card.total] = 1.0
            else:
                p = opponent_pmf(self.rules, card, "expert", self.table)
            self._start[key] = p
        return self._start[key]

    def prime(self, cards: Iterable[ScoreCard]) -> None:
        """Solve the turn-start distributions of ``cards`` not yet kept, all in one backward pass.

        The values are those :meth:`start_pmf` gives card by card
        (:func:`~yahtzee_solver.strategy.distribution.turn_start_distributions`: each
        state is solved once for all the cards), so every player's card at every
        round of a game costs about one distribution from the earliest card.
        """
        from .distribution import turn_start_distributions

        todo: dict[tuple[tuple[int, int, int], int], ScoreCard] = {}
        for c in cards:
            key = (c.key, c.total)
            if key not in self._start and not c.is_full:
                todo.setdefault(key, c)
        if not todo:
            return
        dists = turn_start_distributions(list(todo.values()), strategy="expert", table=self.table)
        for k, d in zip(todo, dists):
            self._start[k] = np.asarray(d.pmf)

    def _mover(self, card: ScoreCard, dice: Sequence[int], rolls_left: int,
               boxes: bool) -> tuple[np.ndarray, dict[tuple[int, ...] | int, np.ndarray]]:
        from .distribution import option_distributions, score_distribution

        key = (card.key, card.total, tuple(sorted(dice)), rolls_left, boxes)
        if key not in self._position:
            here = score_distribution(card, dice=dice, rolls_left=rolls_left, table=self.table).pmf
            opts = option_distributions(card, dice, 0 if boxes else rolls_left, table=self.table)
            self._position[key] = (here, {k: d.pmf for k, d in opts.items()})
        return self._position[key]

    def __call__(self, cards: Sequence[ScoreCard], mover: int, dice: Sequence[int] | None = None, rolls_left: int = 2,
                 *, boxes: bool = False) -> TableChances:
        """The chances at a decision of player ``mover``.

        Parameters
        ----------
        cards : sequence of ScoreCard
            Every player's card, in seating order.
        mover : int
            The player to move (index into ``cards``).
        dice : sequence of int or None
            The five dice showing; ``None`` before the turn's first roll.
        rolls_left : int
            Rerolls left with ``dice`` (0..2).
        boxes : bool
            The options are the boxes even with rerolls left (scoring now).
        """
        from .objectives import _first_share, first_place_chances

        if len(cards) < 2 or any(len(c.open_categories) > self.max_open for c in cards):
            return TableChances(False)
        others = [self.start_pmf(c) for i, c in enumerate(cards) if i != mover]
        opts: dict[tuple[int, ...] | int, np.ndarray]
        if dice is None:
            here, opts = self.start_pmf(cards[mover]), {}
        else:
            here, opts = self._mover(cards[mover], dice, rolls_left, boxes or rolls_left == 0)
        pmfs = others[:mover] + [here] + others[mover:]
        players = tuple(float(x) for x in first_place_chances(pmfs))
        options: dict[tuple[int, ...] | int, float] = {}
        if opts:
            top = max(p.size for p in opts.values())
            share = _first_share(others, np.arange(top))
            options = {k: clip_probability(float(p @ share[: p.size])) for k, p in opts.items()}  # sums: rounding clipped
        return TableChances(True, players, options)
