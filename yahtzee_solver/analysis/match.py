"""CPU-vs-CPU matches: two levels on shared, pre-drawn dice, with Wilson intervals.

Each player's game runs through the engine (:class:`~yahtzee_solver.analysis.simulate.EngineGame`),
turn by turn, so a ``master`` player sees its opponent's card before each of its turns.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from ..errors import UsageError
from ..rules import RuleSet, get_rules
from ..solver.table import ValueTable, resolve_table
from ..strategy.levels import MATCH_LEVELS, make_strategy
from ..strategy.master import MasterStrategy
from ..strategy.players import Strategy
from .simulate import EngineGame

__all__ = ["MATCH_LEVELS", "MatchResult", "play_match", "wilson_interval"]

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

    def to_dict(self) -> dict[str, Any]:
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
               table: ValueTable | None = None, progress: Callable[[int], object] | None = None, max_open: int = 5,
               duel_max_open: tuple[int | None, int | None] = (None, None), share_duel: bool = True) -> MatchResult:
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
    max_open : int
        A ``master``'s own open boxes from which it plays the win DP (:class:`MasterStrategy`).
    duel_max_open : (int or None, int or None)
        The exact two-player scope of ``a`` and of ``b`` when they are ``master``
        (``None``: :data:`~yahtzee_solver.strategy.duel.DEFAULT_MAX_OPEN`; 0: no exact
        endgame, the best response only, as before it).
    share_duel : bool
        Two masters share one two-player solver (default): they solve the same zero-sum
        game, so the second's solves are look-ups; the moves are the same either way.

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
        seed = int(cast(int, np.random.SeedSequence().entropy) % (1 << 63))
    ss = np.random.SeedSequence(seed)
    dice_rng = np.random.default_rng(ss)
    rngs = [np.random.default_rng(s) for s in ss.spawn(2)]
    table = resolve_table(rules, table)

    shared = None
    if share_duel and a == b == "master":
        from ..strategy.duel import DuelSolver

        shared = DuelSolver(rules, "optimal", table, draws=False)

    def make(level: str, rng: np.random.Generator, k: int | None) -> Strategy:
        if level == "master":
            return MasterStrategy(rules, table, max_open=max_open, duel_max_open=k, duel_solver=shared)
        return make_strategy(level, rules, rng=rng, table=table)

    players = [make(a, rngs[0], duel_max_open[0]), make(b, rngs[1], duel_max_open[1])]
    levels = [a, b]
    C = rules.n_categories
    scores = np.zeros((games, 2), np.int64)
    t0 = time.perf_counter()
    dice = np.empty((2, C, 3, 5), np.int8)  # drawn for each pair of games
    for g in range(games):
        if g % 2 == 0:
            dice = dice_rng.integers(1, 7, size=(2, C, 3, 5), dtype=np.int8)  # seat 0 (starter), seat 1
        first = g % 2  # game 2i: a starts; 2i + 1: b starts, on the same dice
        seats = (first, 1 - first)  # seats[s] = player index in seat s
        # each player's game runs through the engine (simulate.EngineGame), turn by turn
        boards: dict[int, EngineGame] = {}
        for s in (0, 1):
            boards[seats[s]] = EngineGame(players[seats[s]], dice[s], rules)
        for t in range(C):
            for s in (0, 1):
                p = seats[s]
                other = 1 - p
                player = players[p]
                if isinstance(player, MasterStrategy):
                    player.observe(boards[other].card, levels[other])
                boards[p].play_turn(t)
        scores[g] = (boards[0].card.total, boards[1].card.total)
        if progress is not None:
            progress(g + 1)
    seconds = time.perf_counter() - t0
    wins = int((scores[:, 0] > scores[:, 1]).sum())
    draws = int((scores[:, 0] == scores[:, 1]).sum())
    return MatchResult(a, b, rules.name, int(games), int(seed), wins, draws, games - wins - draws, seconds, scores)
