"""The ``gymnasium`` environment :class:`YahtzeeEnv` (see :mod:`yahtzee_solver.env`).

An episode is one solitaire game.  Chance is not an action: the first roll of
each turn is made by the environment (in :meth:`YahtzeeEnv.reset` and after
each score), and so is the reroll an action asks for.  The agent decides
what a player decides -- which dice to reroll, and which box to score in.

Actions (``Discrete(31 + C)``, C = number of boxes of the rule set):

* ``0 .. 30`` -- **reroll**: action ``a`` rerolls the dice at the positions
  whose bit is set in ``a + 1`` (bit ``i`` = die at position ``i``, 0..4, the
  order of the observation's dice) and keeps the others.  Rerolling nothing
  is not a move (it would be a pass): to stop rolling, score a box.  Legal
  while rerolls are left (two after a turn's first roll, one after the second).
* ``31 .. 30 + C`` -- **score** the dice in box ``a - 31`` (the rule set's box
  order, :attr:`RuleSet.categories <yahtzee_solver.rules.RuleSet.categories>`);
  legal for an open box the Joker rule allows (:meth:`GameState.problem
  <yahtzee_solver.game.GameState.problem>`).

An illegal action raises :class:`~yahtzee_solver.errors.IllegalMoveError`
naming the action and the rule (the state is unchanged); use the mask
(``info["action_mask"]`` or :meth:`YahtzeeEnv.action_masks`) to choose only
legal ones.  Right after :meth:`YahtzeeEnv.reset` (the first roll of the game) every action is legal.

The reward of a step is the points it scored: the box, plus the upper bonus
when the score completes it, plus the Yahtzee bonus it earns (0 for a
reroll).  The return of an episode is the final total on the card.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from types import ModuleType
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..solver import jit as _jit
from ..dice import KEEP_COUNTS, KEEP_SIZE, KEEPS, format_dice, roll_index
from ..errors import IllegalMoveError, UsageError
from ..game import MAX_ROLLS, N_DICE, PROBLEMS, GameConfig, GameState, Hold, Roll, Score, positions_of
from ..rules import RuleSet, get_rules
from ..solver.table import ValueTable
from ..strategy.advisor import Advisor

__all__ = ["YahtzeeEnv", "N_REROLL_ACTIONS"]

#: Number of reroll actions: the 2**5 - 1 non-empty sets of die positions to reroll.
N_REROLL_ACTIONS = (1 << N_DICE) - 1

#: Hold flags (the dice kept) of each reroll action, indexed by action.
_HELD = tuple(tuple(not ((a + 1) >> i) & 1 for i in range(N_DICE)) for a in range(N_REROLL_ACTIONS))
_ACTION_OF_HELD = {h: a for a, h in enumerate(_HELD)}


#: Keep index of each keep by its face counts in base 6 (:data:`~yahtzee_solver.dice.KEEP_COUNTS`); -1: none.
_BASE6 = 6 ** np.arange(6, dtype=np.int64)
_KEEP_OF_CODE = np.full(6**6, -1, dtype=np.int64)
_KEEP_OF_CODE[KEEP_COUNTS @ _BASE6] = np.arange(len(KEEP_COUNTS))
_HELD_INT = np.array(_HELD, dtype=np.int64)  # (31, 5)
_FACES = np.arange(1, 7)


def _kept_codes(dice: tuple[int, ...]) -> np.ndarray:
    """Keep index (:data:`~yahtzee_solver.dice.KEEPS`) of the dice each reroll action keeps, (31,) int64.

    ``dice`` in position order.
    """
    counts = _HELD_INT @ (np.asarray(dice)[:, None] == _FACES)  # (31, 6) faces kept by each action
    codes: np.ndarray = _KEEP_OF_CODE[counts @ _BASE6]
    return codes


class YahtzeeEnv(gym.Env):
    """Solitaire Yahtzee (or Yacht, Yatzy, a Yahtzee variant) as a ``gymnasium`` environment.

    The game is the project's engine (:class:`~yahtzee_solver.game.GameState`)
    with its dice drawn from the environment's ``np_random`` (seeded by
    :meth:`reset`); the baseline and the regrets come from the optimal policy
    of the rule set's value table (:class:`~yahtzee_solver.strategy.advisor.Advisor`,
    its :class:`~yahtzee_solver.strategy.policy.Policy` and value source).

    Parameters
    ----------
    rules : str or RuleSet
        Rule set (default ``yahtzee``).
    regret : bool
        Put the regret of every action and the optimal expected final total in
        each step's ``info`` (default).  ``False`` skips the value table (the
        info then holds the mask and the total only); :meth:`optimal_action`
        still works and loads the table on first use.
    table : ValueTable, optional
        Value table for the optimal policy; default the shipped one of ``rules``.
    jit : bool
        Compiled kernels for the optimal policy (default; the first query in a
        process loads them, about 1 s) or interpreted ones.
    render_mode : {None, "ansi"}
        ``"ansi"``: :meth:`render` returns the position as text.

    Attributes
    ----------
    rules : RuleSet
    regret : bool
        As given.
    action_space : gymnasium.spaces.Discrete
        ``31 + C`` actions (module docstring).
    observation_space : gymnasium.spaces.Box
        int64 vector, laid out by :attr:`observation_layout`.
    observation_layout : dict of str to slice
        Where each field sits in the observation:

        * ``dice`` (5): faces 1..6 in position order (0 once the game is over);
        * ``counts`` (6): how many dice show each face 1..6;
        * ``rerolls_left`` (1): 2, 1 or 0;
        * ``filled`` (C): 1 for a filled box, in box order;
        * ``points`` (C): points written in each box (0 while open);
        * ``upper_subtotal`` (1): upper-section sum capped at the bonus threshold (63);
        * ``yahtzee_bonus_flag`` (1): 1 when the Yahtzee box holds 50; only
          under rules with a Yahtzee bonus (not in Yacht, Yatzy,
          ``yahtzee-no-bonus``).

        ``upper_subtotal``, ``yahtzee_bonus_flag`` and ``filled`` are the
        solver's turn-start state (:class:`~yahtzee_solver.state.StateKey`):
        with the dice and the rerolls left they are all that optimal play needs.
    game : GameState or None
        The game of the current episode (``None`` before the first :meth:`reset`).

    Raises
    ------
    RuleSetError
        Unknown rules.
    TableError, UsageError
        The table cannot be loaded or holds other rules; an unknown render mode.

    Notes
    -----
    The ``info`` dict (a new one at every :meth:`reset` and :meth:`step`) holds:

    ``action_mask`` : (31 + C,) bool
        Legal actions now (all False once the game is over).
    ``total`` : int
        Points on the card (boxes, upper bonus, Yahtzee bonuses).
    ``regret`` : (31 + C,) float64
        Points of expected final total lost by each action against the best
        legal action, with optimal play afterwards: 0 for the best, > 0 for
        the others, ``inf`` for an illegal action.  A reroll's value is the
        value of the dice it keeps with the rerolls left; a box's value is the
        points it scores now plus the value of the next turn.  Only with
        ``regret=True``.
    ``expected_final`` : float
        Expected final total under optimal play from here (the card total
        after the game is over).  Only with ``regret=True``.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        rules: str | RuleSet = "yahtzee",
        *,
        regret: bool = True,
        table: ValueTable | None = None,
        jit: bool = True,
        render_mode: str | None = None,
    ):
        self.rules = rules = get_rules(rules)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            modes = ", ".join(self.metadata["render_modes"])
            raise UsageError(f"invalid render mode {render_mode!r} (choose from {modes})")
        self.render_mode = render_mode
        self.regret = bool(regret)
        self._table, self._jit = table, jit
        self._advisor: Advisor | None = Advisor(rules, table, jit=jit) if self.regret else None
        C = rules.n_categories
        self._n_actions = N_REROLL_ACTIONS + C
        self.action_space = spaces.Discrete(self._n_actions)
        fields: tuple[tuple[str, int, int, int | list[int]], ...] = (
            ("dice", N_DICE, 0, 6),
            ("counts", 6, 0, N_DICE),
            ("rerolls_left", 1, 0, MAX_ROLLS - 1),
            ("filled", C, 0, 1),
            ("points", C, 0, [max(p) for p in rules.possible_points]),
            ("upper_subtotal", 1, 0, rules.upper_threshold),
        )
        self._has_yb = rules.n_flags > 1
        if self._has_yb:  # rules with a Yahtzee bonus only (a constant feature otherwise)
            fields += (("yahtzee_bonus_flag", 1, 0, 1),)
        self.observation_layout: dict[str, slice] = {}
        low, high, at = [], [], 0
        for name, size, lo, hi in fields:
            self.observation_layout[name] = slice(at, at + size)
            low += [lo] * size
            high += hi if isinstance(hi, list) else [hi] * size
            at += size
        self.observation_space = spaces.Box(np.array(low, np.int64), np.array(high, np.int64), dtype=np.int64)
        self.game: GameState | None = None
        self._done = True
        self._kernels: ModuleType | None = None
        self._card_obs: tuple[Any, np.ndarray] | None = None  # (card, its part of the observation)

    # -- actions -------------------------------------------------------------------
    def box_action(self, box: int | str) -> int:
        """The action that scores the dice in ``box`` (an index in the rule set, or a box name).

        Raises
        ------
        CategoryError, UsageError
            Unknown box name or index out of range.
        """
        c = self.rules.category_index(box) if isinstance(box, str) else _index(box, "box", self.rules.n_categories)
        return N_REROLL_ACTIONS + c

    @staticmethod
    def reroll_action(positions: Iterable[int]) -> int:
        """The action that rerolls the dice at ``positions`` (die positions 0..4, at least one) and keeps the rest.

        Raises
        ------
        UsageError
            No position, or one outside 0..4.
        """
        m = 0
        for p in positions:
            m |= 1 << _index(p, "die position", N_DICE)
        if not m:
            raise UsageError("invalid reroll: no die to reroll (to stop rolling, score a box)")
        return m - 1

    @staticmethod
    def held_positions(action: int) -> tuple[bool, ...]:
        """Which die positions reroll ``action`` (0..30) keeps: five flags, True = kept.

        Raises
        ------
        UsageError
            If ``action`` is not a reroll action.
        """
        return _HELD[_index(action, "reroll action", N_REROLL_ACTIONS)]

    def describe_action(self, action: int) -> str:
        """The action in words: ``reroll positions 0, 3`` or ``score Full House``.

        Raises
        ------
        UsageError
            If ``action`` is not in the action space.
        """
        a = _index(action, "action", self._n_actions)
        if a < N_REROLL_ACTIONS:
            return "reroll positions " + ", ".join(str(i) for i, h in enumerate(_HELD[a]) if not h)
        return f"score {self.rules.categories[a - N_REROLL_ACTIONS].name}"

    # -- the gymnasium API -----------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new game and make its first roll.

        Parameters
        ----------
        seed : int, optional
            Seeds the environment's ``np_random`` (a ``numpy.random.Generator``),
            the only source of the dice: the same seed and actions give the
            same episode.  ``None`` continues the generator (fresh entropy on
            the first reset).
        options : dict, optional
            Not used.

        Returns
        -------
        observation : (n,) int64
        info : dict
            See the class.
        """
        super().reset(seed=seed)
        # solitaire; the config's seed is unused: the dice come from np_random
        self.game = GameState(GameConfig(self.rules), self.np_random, self.np_random)
        self._done = False
        self._roll()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play ``action`` (module docstring), then roll for the next turn after a score.

        Parameters
        ----------
        action : int
            A Python or numpy integer (or a 0-d integer array) in the action space.

        Returns
        -------
        observation : (n,) int64
        reward : float
            Points scored by the step (box + upper bonus completed + Yahtzee bonus; 0 for a reroll).
        terminated : bool
            True after the last box is scored.
        truncated : bool
            Always False.
        info : dict
            See the class.

        Raises
        ------
        UsageError
            ``action`` not an integer of the action space, or no :meth:`reset` yet.
        IllegalMoveError
            A move the rules forbid now (the message names the action and the
            rule); the game is unchanged.
        """
        g = self._game()
        a = _index(action, "action", self._n_actions)
        before = g.card.total
        if a < N_REROLL_ACTIONS:
            held = Hold(_HELD[a])
            self._refuse(a, g.problem(held))
            g.apply_action(held)
            self._roll()
        else:
            score = Score(a - N_REROLL_ACTIONS)
            self._refuse(a, g.problem(score))
            g.apply_action(score)
            self._done = g.is_terminal()
            if not self._done:
                self._roll()
        reward = float(g.card.total - before)
        return self._obs(), reward, self._done, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Legal actions now, (31 + C,) bool (the method sb3-contrib's ``MaskablePPO`` calls).

        Raises
        ------
        UsageError
            No :meth:`reset` yet.
        """
        g = self._game()
        mask = np.zeros(self._n_actions, dtype=bool)
        if not self._done:
            mask[:N_REROLL_ACTIONS] = g.rolls_used < MAX_ROLLS
            preview = g.preview()
            assert preview is not None  # dice are showing until the game is over
            mask[N_REROLL_ACTIONS:] = preview[1]
        return mask

    def optimal_action(self) -> int:
        """The action of optimal play (highest expected final total) now.

        The choice of the optimal policy (:class:`~yahtzee_solver.strategy.policy.Policy`,
        with its tie-break: the smaller keep, then the lower box).  When
        keeping all five dice is best, the action scores the best box.  Among
        positions holding the same faces, the leftmost dice are kept.  Its
        regret is 0.

        Raises
        ------
        UsageError
            No :meth:`reset` yet.
        IllegalMoveError
            The game is over.
        """
        g = self._game()
        if self._done:
            raise IllegalMoveError(PROBLEMS["game_over"])
        policy = self._get_advisor().policy
        dice = self._dice()
        state, r, rl = g.card.key, roll_index(dice), g.rerolls_left
        if rl:
            k = policy.choose_keep(state, 0, r, rl)
            if KEEP_SIZE[k] < N_DICE:
                return _ACTION_OF_HELD[positions_of(dice, KEEPS[k])]
        return N_REROLL_ACTIONS + policy.choose_box(state, 0, r)

    def action_values(self) -> np.ndarray:
        """Expected points still to come of each action now, under optimal play afterwards, (31 + C,) float64.

        Add ``info["total"]`` for the expected final total.  ``-inf`` for an
        illegal action (every action once the game is over).  A reroll is
        worth the value of the dice it keeps with the rerolls left
        (:meth:`Advisor.keep_values <yahtzee_solver.strategy.advisor.Advisor.keep_values>`);
        a box is worth its points now, bonuses included, plus the value of the
        next turn (the policy's value source, ``box_values``).

        Raises
        ------
        UsageError
            No :meth:`reset` yet.
        """
        g = self._game()
        q = np.full(self._n_actions, -np.inf)
        if self._done:
            return q
        adv = self._get_advisor()
        dice = self._dice()
        state, r = g.card.key, roll_index(dice)
        boxes = adv.source.box_values(state, 0, r)  # NaN: filled or closed by the Joker rule
        q[N_REROLL_ACTIONS:] = np.where(np.isnan(boxes), -np.inf, boxes)
        rl = g.rerolls_left
        if rl:
            q[:N_REROLL_ACTIONS] = adv.keep_values(state, rl)[_kept_codes(dice)]
        return q

    def render(self) -> str | None:
        """The position as text (``render_mode="ansi"``), else ``None``."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        g = self.game
        card = g.card.format() or "(empty)"
        if self._done:
            return f"{self.rules.name}: game over, total {g.card.total}\ncard: {card}\n"
        return (f"{self.rules.name}, turn {g.round} of {self.rules.n_categories}: dice {format_dice(self._dice())}, "
                f"rerolls left {g.rerolls_left}\ncard: {card}, total {g.card.total}\n")

    # -- helpers ---------------------------------------------------------------------
    def _game(self) -> GameState:
        if self.game is None:
            raise UsageError("no game yet: call reset() before step()")
        return self.game

    def _dice(self) -> tuple[int, ...]:
        """The five dice showing, by position (a roll is showing from :meth:`reset` until the game is over)."""
        dice = self._game().dice
        assert dice is not None
        return dice

    def _get_advisor(self) -> Advisor:
        if self._advisor is None:
            self._advisor = Advisor(self.rules, self._table, jit=self._jit)
        return self._advisor

    def _refuse(self, action: int, why: tuple[str, dict[str, Any]] | None) -> None:
        if why is not None:
            key, params = why
            raise IllegalMoveError(f"illegal action {action} ({self.describe_action(action)}): "
                                   f"{PROBLEMS[key].format(**params)}")

    def _roll(self) -> None:
        """Roll the dice that are not held, and learn how the new dice score with the chosen kernels."""
        g = self._game()
        g.apply_action(Roll())
        if self._kernels is None:
            self._kernels = self._advisor.kernels if self._advisor is not None else _jit.backend(self._jit)
        # the card keeps this answer for the dice: the engine's legality checks and its score then
        # read it instead of running the interpreted kernel (the same kernel, compiled)
        g.card.scoring(self._dice(), kernels=self._kernels)

    def _obs(self) -> np.ndarray:
        g = self._game()
        card = g.card
        memo = self._card_obs
        if memo is None or memo[0] is not card:  # the card changes once per turn
            _, up, yb = card.key
            part = [v is not None for v in card.boxes] + [v or 0 for v in card.boxes] + [up]
            if self._has_yb:
                part.append(yb)
            memo = self._card_obs = (card, np.array(part, dtype=np.int64))
        if self._done:
            return np.concatenate((np.zeros(N_DICE + 7, np.int64), memo[1]))
        dice = self._dice()
        head = [*dice, dice.count(1), dice.count(2), dice.count(3), dice.count(4), dice.count(5), dice.count(6),
                g.rerolls_left]
        return np.concatenate((np.array(head, dtype=np.int64), memo[1]))

    def _info(self) -> dict[str, Any]:
        g = self._game()
        total = g.card.total
        info: dict[str, Any] = {"action_mask": self.action_masks(), "total": total}
        if self.regret:
            q = self.action_values()
            best = q.max()
            info["regret"] = best - q if best > -np.inf else np.full(self._n_actions, np.inf)
            info["expected_final"] = float(total + best) if best > -np.inf else float(total)
        return info


def _index(value: Any, what: str, n: int) -> int:
    """``value`` as an int in 0..n-1 (Python or numpy integers, 0-d integer arrays; not bools), else UsageError."""
    if not isinstance(value, (bool, np.bool_)):
        try:
            i = operator.index(value)
        except TypeError:
            pass
        else:
            if 0 <= i < n:
                return i
            value = i  # np.int64(44) is shown as 44
    raise UsageError(f"invalid {what} {value!r}: want an integer 0..{n - 1}")
