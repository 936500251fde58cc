"""The ``master`` CPU: plays to win against the opponent it faces, and CPU-vs-CPU matches.

:class:`MasterStrategy` answers the same two questions as the other levels
(:mod:`yahtzee_solver.players`), but maximises the probability of beating its
opponent, a draw counting half, instead of its expected score:

* the opponent's final total is modelled by the exact distribution of its own
  policy from its current card (:func:`~yahtzee_solver.objectives.opponent_pmf`, the
  exact engine of :mod:`yahtzee_solver.distribution`; a human is modelled as the ``expert``); once the opponent has finished it is
  its actual total, and the answer is exact;
* with that distribution, each decision is the best response over master's
  remaining turns (:class:`~yahtzee_solver.objectives.WinSource`, ranked by
  :class:`~yahtzee_solver.policy.Policy`), solved again at every turn, so what
  the opponent scores in between is used;
* while more than ``max_open`` of its own boxes are open, master plays the
  expert's move (the win DP from an early card takes minutes); among options
  whose winning chances tie within ``TIE`` (a decided game), it takes the one
  of highest expected final total (the policy's tie-break source), the
  expert's choice whenever that is among them.

Before the opponent has finished, this is the exact best response to the
opponent's final-score distribution *seen from the current turn*, without
planning to react to the opponent's later turns (it reacts when it re-solves
at its next turn).  Its value is therefore a lower bound on the best possible
winning chance, and the quoted probability is exact for "play this plan to the
end".

:func:`play_match` plays two CPU levels against each other on pre-drawn dice.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from .dice import KEEPS, parse_dice, roll_index
from .errors import UsageError
from .objectives import DISTRIBUTION_LEVELS, WinSource, opponent_pmf
from .players import LEVELS, ExpertStrategy, _check_card, make_strategy
from .policy import Policy, check_rolls_left
from .rules import RuleSet, get_rules
from .simulate import EngineGame
from .state import ScoreCard
from .table import ValueTable, resolve_table

__all__ = ["MasterStrategy", "MATCH_LEVELS", "MatchResult", "play_match", "wilson_interval"]

#: Levels that can play a match (the three of :data:`players.LEVELS` and ``master``).
MATCH_LEVELS = (*LEVELS, "master")

#: Winning chances closer than this count as a tie (then the expert's choice is taken).
TIE = 1e-12


class MasterStrategy:
    """Maximise the probability of winning (draw = half) against a modelled opponent.

    Parameters
    ----------
    rules : str or RuleSet
    table : ValueTable, optional
        The value table (expert moves, the opponent model); default: shipped.
    max_open : int
        Play the win DP once at most this many of master's own boxes are open
        (the expert's move before).
    jit : bool
        Compiled kernels (default).

    Call :meth:`observe` before each turn with the opponent's card and level.

    Notes
    -----
    Threads may share one master: its queries compute in per-thread work
    arrays or per call, and its opponent model is one value replaced whole.
    What it plays against is the last card :meth:`observe` was given, so
    threads playing different games need a master each.
    """

    level = "master"

    def __init__(self, rules: str | RuleSet = "yahtzee", table: ValueTable | None = None, *, max_open: int = 5,
                 jit: bool = True):
        self.rules = get_rules(rules)
        self.table = resolve_table(self.rules, table)
        self.expert = ExpertStrategy(self.rules, self.table, jit=jit)
        self.max_open = int(max_open)
        self.jit = jit
        self._opponent: tuple[ScoreCard, str] | None = None  # (card, level) as observed
        # (opponent key, its pmf, the win source, the win policy): one tuple, replaced whole, so
        # threads sharing this player never see a pmf with another opponent's source
        self._model: tuple | None = None

    # -- the opponent model ---------------------------------------------------------
    def observe(self, opponent_card: ScoreCard, opponent_level: str = "expert") -> None:
        """Tell master the opponent's card (at a turn start) and level (``human`` is modelled as ``expert``)."""
        lvl = str(opponent_level).lower()
        self._opponent = (opponent_card, lvl if lvl in DISTRIBUTION_LEVELS else "expert")

    def _opponent_model(self) -> tuple | None:
        """``(key, pmf, WinSource, Policy)`` of the observed opponent (computed once per opponent card)."""
        opp = self._opponent
        if opp is None:
            return None
        card, level = opp
        key = (card.boxes, card.yahtzee_bonus, level)
        m = self._model
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

    def _win_model(self, card: ScoreCard) -> tuple | None:
        if len(card.open_categories) > self.max_open:
            return None
        return self._opponent_model()

    def _win_source(self, card: ScoreCard) -> WinSource | None:
        m = self._win_model(card)
        return None if m is None else m[2]

    def win_probability(self, card: ScoreCard) -> float | None:
        """P(win) + P(draw)/2 from the start of a turn with ``card`` (None while the expert plays)."""
        src = self._win_source(card)
        return None if src is None else src.probability(card)

    # -- decisions -------------------------------------------------------------------
    def _policy(self, card: ScoreCard) -> Policy:
        """The win policy (tie-break: the expected final total), or the expert's while it plays."""
        m = self._win_model(card)
        return self.expert.policy if m is None else m[3]

    def choose_keep(self, card: ScoreCard, dice, rolls_left: int) -> tuple[int, ...]:
        """The keep of highest winning chance; ties (within :data:`TIE`): highest expected total, then the smaller keep."""
        card = _check_card(card, self.rules)
        rl = check_rolls_left(rolls_left)
        r = roll_index(parse_dice(dice))
        return KEEPS[self._policy(card).choose_keep(card.key, card.total, r, rl)]

    def choose_box(self, card: ScoreCard, dice) -> int:
        """The legal box of highest winning chance; ties (within :data:`TIE`): highest expected total, then the lower box."""
        card = _check_card(card, self.rules)
        r = roll_index(parse_dice(dice))
        return self._policy(card).choose_box(card.key, card.total, r)

    def __repr__(self) -> str:
        return f"MasterStrategy(rules={self.rules.name!r}, max_open={self.max_open})"


# -- matches ----------------------------------------------------------------------------


def wilson_interval(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion ``k / n`` (``(nan, nan)`` when ``n`` is 0)."""
    if n <= 0:
        return (math.nan, math.nan)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class MatchResult:
    """CPU ``a`` against CPU ``b`` over ``games`` games.

    Attributes
    ----------
    a, b : str
        The levels.
    rules : str
    games, seed : int
    wins, draws, losses : int
        Seen from ``a``.
    scores : (games, 2) int64
        Final totals of ``a`` and ``b`` per game (not in :meth:`to_dict`).
    seconds : float
        Wall time of the games.
    """

    a: str
    b: str
    rules: str
    games: int
    seed: int
    wins: int
    draws: int
    losses: int
    seconds: float
    scores: np.ndarray = field(repr=False, compare=False)

    @property
    def decided(self) -> int:
        return self.wins + self.losses

    @property
    def share(self) -> float:
        """Share of the decided games won by ``a``."""
        return self.wins / self.decided if self.decided else math.nan

    def to_dict(self) -> dict:
        g = self.games
        out = {"a": self.a, "b": self.b, "rules": self.rules, "games": g, "seed": self.seed,
               "wins": self.wins, "draws": self.draws, "losses": self.losses, "seconds": self.seconds,
               "games_per_second": g / self.seconds if self.seconds > 0 else None}
        for name, k in (("win_rate", self.wins), ("draw_rate", self.draws), ("loss_rate", self.losses)):
            out[name] = k / g
            out[name + "_ci95"] = list(wilson_interval(k, g))
        out["decided_share"] = self.share
        out["decided_share_ci95"] = list(wilson_interval(self.wins, self.decided))
        out["mean_a"] = float(self.scores[:, 0].mean())
        out["mean_b"] = float(self.scores[:, 1].mean())
        return out


def play_match(a: str, b: str, games: int, rules: str | RuleSet = "yahtzee", *, seed: int | None = None,
               table: ValueTable | None = None, progress=None, max_open: int = 5) -> MatchResult:
    """Play ``games`` games of CPU ``a`` against CPU ``b``, alternating who starts.

    Games ``2i`` and ``2i + 1`` share their dice: the starter's seat gets the
    same dice in both, and the players swap seats (common random numbers, so
    luck of the dice cancels within a pair).

    Parameters
    ----------
    a, b : str
        Levels (:data:`MATCH_LEVELS`).
    games : int
        Number of games (>= 1).
    seed : int, optional
        Seed of the dice (drawn from the OS and reported when not given).
    progress : callable, optional
        ``progress(games_done)`` after each game.

    Raises
    ------
    UsageError
        Unknown levels or fewer than one game.
    """
    rules = get_rules(rules)
    for lvl in (a, b):
        if str(lvl).lower() not in MATCH_LEVELS:
            raise UsageError(f"unknown level {lvl!r} (choose from {', '.join(MATCH_LEVELS)})")
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise UsageError(f"invalid number of games {games!r}: want at least 1")
    a, b = str(a).lower(), str(b).lower()
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % (1 << 63))
    ss = np.random.SeedSequence(seed)
    dice_rng = np.random.default_rng(ss)
    rngs = [np.random.default_rng(s) for s in ss.spawn(2)]
    table = resolve_table(rules, table)

    def make(level, rng):
        if level == "master":
            return MasterStrategy(rules, table, max_open=max_open)
        return make_strategy(level, rules, rng=rng, table=table)

    players = [make(a, rngs[0]), make(b, rngs[1])]
    levels = [a, b]
    C = rules.n_categories
    scores = np.zeros((games, 2), np.int64)
    t0 = time.perf_counter()
    dice = None
    for g in range(games):
        if g % 2 == 0:
            dice = dice_rng.integers(1, 7, size=(2, C, 3, 5), dtype=np.int8)  # seat 0 (starter), seat 1
        first = g % 2  # game 2i: a starts; 2i + 1: b starts, on the same dice
        seats = (first, 1 - first)  # seats[s] = player index in seat s
        # each player's game runs through the engine (simulate.EngineGame), turn by turn
        boards = [None, None]
        for s in (0, 1):
            boards[seats[s]] = EngineGame(players[seats[s]], dice[s], rules)
        for t in range(C):
            for s in (0, 1):
                p = seats[s]
                other = 1 - p
                if isinstance(players[p], MasterStrategy):
                    players[p].observe(boards[other].card, levels[other])
                boards[p].play_turn(t)
        scores[g] = (boards[0].card.total, boards[1].card.total)
        if progress is not None:
            progress(g + 1)
    seconds = time.perf_counter() - t0
    wins = int((scores[:, 0] > scores[:, 1]).sum())
    draws = int((scores[:, 0] == scores[:, 1]).sum())
    return MatchResult(a, b, rules.name, int(games), int(seed), wins, draws, games - wins - draws, seconds, scores)
