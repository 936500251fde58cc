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

Before the CPU has finished its game, the figure is the exact best response
to the CPU's final-score distribution as seen now: the DP does not plan to
react to what the CPU scores on its later turns, so it is a lower bound of the
best winning chance (see :mod:`yahtzee_solver.strategy.master` and the README, "Win
probability in a game against the CPU").  Once the CPU has finished, the
distribution is its actual total and the figure is exact.

The DP is solved only once at most :data:`WIN_HINT_MAX_OPEN` of the player's
boxes are open, so that a hint stays quick; :class:`WinHints` keeps the last
solution, so further hints before the CPU's card changes cost a look-up.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from ..dice import KEEPS, roll_index
from ..errors import IllegalMoveError, OptionError
from ..game import CPU, HUMAN, MAX_ROLLS, GameState

if TYPE_CHECKING:
    from ..i18n import Translator
    from ..rules import RuleSet
    from ..solver.table import ValueTable
    from .advisor import Advisor
    from .objectives import WinSource
    from .policy import Policy

__all__ = ["WIN_HINT_MAX_OPEN", "WinOption", "WinChances", "WinHints", "win_note", "warm"]

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
        The CPU has finished its game: the chances are exact, not a lower bound.
    cpu_total : int
        The CPU's total so far (its final score when ``exact``).
    start : float or None
        Before the turn's first roll: the chance of winning from the turn start (probability).
    kind : str
        ``roll`` (before the first roll), ``keep`` (rerolls left) or ``box`` (after the last roll).
    options : tuple of WinOption
        Every keep or every legal box, best chance first (equal chances: the higher expected total).
    """

    level: str
    open_boxes: int
    shown: bool
    exact: bool
    cpu_total: int
    start: float | None
    kind: str
    options: tuple[WinOption, ...]

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

    def _policy_for(self, st: GameState, advisor: Advisor) -> Policy:
        from .objectives import WinSource, opponent_pmf
        from .policy import Policy

        cpu = st.cards[CPU]
        key = (st.rules.name, st.config.opponent, cpu.key, cpu.total, id(advisor.table))
        kept = self._kept
        if kept is None or kept[0] != key:
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

        def chances(start: float | None = None, options: Iterable[WinOption] = ()) -> WinChances:
            return WinChances(st.config.opponent, len(me.open_categories), shown, cpu.is_full, cpu.total, start,
                              kind, tuple(options))

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

        return chances(options=(option(k, p) for k, p in zip(codes.tolist(), P.tolist())))

    def _boxes(self, st: GameState, advisor: Advisor) -> tuple[WinOption, ...]:
        me, dice = st.cards[HUMAN], st.sorted_dice
        assert dice is not None  # rolled
        boxes, P = self._policy_for(st, advisor).box_ranking(me.key, me.total, roll_index(dice))
        ev = {o.category: o for o in advisor.box_options(me, dice)}
        return tuple(WinOption(None, c, ev[c].points, p, ev[c].expected) for c, p in zip(boxes.tolist(), P.tolist()))

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
    """What the chances are, in ``tr``'s language: exact (the CPU has finished) or a best response as seen now."""
    return tr("hint.win_exact", score=wc.cpu_total) if wc.exact else tr("hint.win_note")


def warm(rules: str | RuleSet, level: str, table: ValueTable | None = None) -> None:
    """Load the compiled kernels of the chances (the CPU's distribution, the win DP) ahead of a hint.

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
