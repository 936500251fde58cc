"""Play many solitaire games with a CPU strategy and summarise the final scores.

Dice are pre-drawn from ``numpy.random.default_rng(seed)`` in fixed blocks of
:data:`BLOCK` games, one array ``(games, turns, 3, 5)`` per block (see
:func:`draw_dice`): the first roll of each turn and the faces that replace the
dice of each reroll.  A game's dice therefore depend only on the seed and the
game's number -- not on the number of threads, the chunking, or how many games
are asked for (the first 1,000 games of a 100,000-game run are the 1,000-game run).

``expert`` and ``normal`` play inside compiled code
(:func:`yahtzee_solver.solver.kernels.play_games`, with the value array and decision
parameters of the strategy's :class:`~yahtzee_solver.strategy.policy.KernelValueSource`,
so one definition of each policy).  ``beginner`` plays in Python through
:func:`play_game`, i.e. the game engine (:class:`~yahtzee_solver.game.GameState`
and :func:`~yahtzee_solver.game.cpu_actions`), its blunders drawn from a
generator spawned from the same seed.

Example
-------
>>> from yahtzee_solver.analysis.simulate import simulate
>>> res = simulate("expert", 10_000, seed=1)          # doctest: +SKIP
>>> round(res.mean, 1), res.ci95                      # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import math
import time
from dataclasses import dataclass, field, replace
from typing import Any, cast

import numpy as np

from ..solver import jit as _jit
from ..dice import ROLL_SUBKEEPS
from ..errors import IllegalMoveError, UsageError
from ..game import Event, GameConfig, GameState, cpu_actions
from ..strategy.players import LEVELS, BeginnerStrategy, Strategy
from ..strategy.players import fixed_strategy
from ..strategy.policy import KernelValueSource
from ..rules import RuleSet, get_rules
from ..state import ScoreCard
from ..solver.table import ValueTable

__all__ = ["BLOCK", "CHUNK", "PERCENTILES", "EngineGame", "SimulationResult", "draw_dice", "play_game", "play_games", "simulate", "summarise"]

#: Games per block of pre-drawn dice.
BLOCK = 4096

#: Games per call of the game kernel (a multiple of BLOCK; more games share more states).
CHUNK = 16 * BLOCK

#: Runs of each turn's games per thread in the game kernel, handed out one at a time, so that a thread
#: slowed by other processes plays fewer of them (the runs are cut from the games sorted by state, so
#: they share states as one run would: see ``kernels.play_games``).
RUNS_PER_THREAD = 4

#: Percentiles reported (of the final score).
PERCENTILES = (1, 10, 25, 50, 75, 90, 99)


@dataclass(frozen=True)
class SimulationResult:
    """Summary of simulated games.

    Attributes
    ----------
    level : str
        The strategy (``beginner``, ``normal``, ``expert``).
    rules : str
        Rule-set name.
    games : int
        Number of games played.
    seed : int
        The seed (drawn from the OS when none was given, so a run can be repeated).
    mean : float
        Mean final score (points).
    ci95 : (float, float)
        95 % confidence interval of the mean: mean -/+ 1.96 sd / sqrt(games)
        (normal approximation; points).  ``(nan, nan)`` for one game, as :attr:`sd`.
    sd : float
        Sample standard deviation of the final score (points, ``ddof=1``).  NaN for
        one game, where it is undefined (:meth:`to_dict` gives ``None`` for it and
        for :attr:`ci95`).
    percentiles : dict of int to float
        Final-score percentiles (:data:`PERCENTILES`): the lowest score s such that at least q % of the games scored s or less (numpy's ``inverted_cdf``), so always a score some game made.
    min, max : int
        Lowest and highest final score.
    upper_bonus_rate : float
        Fraction of games that made the upper bonus.
    yahtzee_rate : float
        Fraction of games with five alike scored as 50 in the Yahtzee (Yacht) box.
    seconds : float
        Wall time of the games (points tallied included, table loading and
        compilation excluded).
    scores : (games,) int64
        Every final score, in game order (read-only; not in :meth:`to_dict`).
    requested : int or None
        Games asked for, when the run was interrupted (Ctrl-C) before playing
        them all: ``games`` is then the number finished; ``None`` for a full run.
    """

    level: str
    rules: str
    games: int
    seed: int
    mean: float
    ci95: tuple[float, float]
    sd: float
    percentiles: dict[int, float]
    min: int
    max: int
    upper_bonus_rate: float
    yahtzee_rate: float
    seconds: float
    scores: np.ndarray = field(repr=False, compare=False)
    requested: int | None = None

    @property
    def interrupted(self) -> bool:
        """True when the run stopped before all the requested games (see :attr:`requested`)."""
        return self.requested is not None

    @property
    def games_per_second(self) -> float:
        """Games per second of wall time."""
        return self.games / self.seconds if self.seconds > 0 else math.inf

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``--json`` (scores left out; ``sd`` and ``ci95`` are ``None`` for one game)."""
        return {
            "level": self.level,
            "rules": self.rules,
            "games": self.games,
            "seed": self.seed,
            "mean": self.mean,
            "ci95": None if math.isnan(self.sd) else list(self.ci95),
            "sd": None if math.isnan(self.sd) else self.sd,
            "percentiles": {f"p{q}": v for q, v in self.percentiles.items()},
            "min": self.min,
            "max": self.max,
            "upper_bonus_rate": self.upper_bonus_rate,
            "yahtzee_rate": self.yahtzee_rate,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "interrupted": self.interrupted,
            "requested": self.games if self.requested is None else self.requested,
        }


def summarise(level: str, rules: str, seed: int, scores: np.ndarray, upper_bonus: np.ndarray, yahtzee: np.ndarray,
              seconds: float) -> SimulationResult:
    """Build a :class:`SimulationResult` from per-game arrays.

    Parameters
    ----------
    scores : (G,) int
        Final scores (points).
    upper_bonus, yahtzee : (G,) bool or 0/1
        Upper bonus made; five alike scored as 50 in the Yahtzee box.
    """
    s = np.asarray(scores, dtype=np.int64).copy()
    s.setflags(write=False)
    n = len(s)
    mean = float(s.mean())
    sd = float(s.std(ddof=1)) if n > 1 else math.nan  # n - 1 = 0: undefined for one game
    half = 1.96 * sd / math.sqrt(n)  # nan for one game
    pct = np.percentile(s, PERCENTILES, method="inverted_cdf")
    return SimulationResult(
        level=level,
        rules=rules,
        games=n,
        seed=int(seed),
        mean=mean,
        ci95=(mean - half, mean + half),
        sd=sd,
        percentiles={q: float(v) for q, v in zip(PERCENTILES, pct)},
        min=int(s.min()),
        max=int(s.max()),
        upper_bonus_rate=float(np.mean(np.asarray(upper_bonus, dtype=bool))),
        yahtzee_rate=float(np.mean(np.asarray(yahtzee, dtype=bool))),
        seconds=float(seconds),
        scores=s,
    )


def draw_dice(rng: np.random.Generator, games: int, turns: int) -> np.ndarray:
    """Draw the dice of ``games`` games in blocks of :data:`BLOCK`.

    Every block draws a full ``(BLOCK, turns, 3, 5)`` array, so game ``g``'s
    dice are the same whatever ``games`` is (for a fresh ``rng`` of one seed).

    Returns
    -------
    (games, turns, 3, 5) int8
        Faces 1..6.  ``[g, t, 0]`` is the first roll of turn ``t``;
        a reroll of ``n`` dice after roll ``j`` takes ``[g, t, j + 1, :n]``.
    """
    blocks = [rng.integers(1, 7, size=(BLOCK, turns, 3, 5), dtype=np.int8) for _ in range(-(-games // BLOCK))]
    return np.concatenate(blocks)[:games] if blocks else np.empty((0, turns, 3, 5), np.int8)


def _check_dice(dice: Any, ndim: int, turns: int) -> np.ndarray:
    d = np.asarray(dice)
    want = "(games, turns, 3, 5)" if ndim == 4 else "(turns, 3, 5)"
    if d.ndim != ndim or d.shape[-2:] != (3, 5) or d.shape[-3] < turns:
        raise UsageError(f"invalid pre-drawn dice of shape {d.shape}: want {want} with at least {turns} turns")
    if not np.issubdtype(d.dtype, np.integer) or d.size and (d.min() < 1 or d.max() > 6):
        raise UsageError("invalid pre-drawn dice: faces must be whole numbers 1-6")
    return d


_UNUSED_RNG = np.random.default_rng(0)


class _PredrawnDice:
    """The dice source of a :class:`~yahtzee_solver.game.GameState` that deals pre-drawn faces.

    Stands in for the state's ``numpy.random.Generator`` (only ``integers``
    is used): roll ``j`` (0, 1, 2) of turn ``t`` deals ``dice[t, j, :n]`` for
    the ``n`` dice rolled -- the convention of :func:`draw_dice`.
    """

    def __init__(self, dice: np.ndarray):
        self.dice = dice
        self.turn = 0
        self.roll = 0

    def start_turn(self, t: int) -> None:
        self.turn, self.roll = t, 0

    def integers(self, low: int, high: int, size: int) -> np.ndarray:
        faces = self.dice[self.turn, self.roll, :size]
        self.roll += 1
        return faces


class _Checked:
    """A strategy whose answers are checked (and recorded) before the engine plays them."""

    def __init__(self, strategy: Strategy, n_boxes: int):
        self.strategy = strategy
        self.n_boxes = n_boxes
        self.keeps: list[tuple[int, ...]] = []

    def choose_keep(self, card: ScoreCard, dice: tuple[int, ...], rolls_left: int) -> tuple[int, ...]:
        keep = tuple(sorted(self.strategy.choose_keep(card, dice, rolls_left)))
        rest = list(dice)
        for d in keep:
            if d not in rest:
                raise IllegalMoveError(f"illegal keep {keep!r} of dice {dice!r} by the {self.strategy.level} player")
            rest.remove(d)
        self.keeps.append(keep)
        return keep

    def choose_box(self, card: ScoreCard, dice: tuple[int, ...]) -> int:
        c = self.strategy.choose_box(card, dice)
        if not (isinstance(c, (int, np.integer)) and 0 <= c < self.n_boxes and card.box_points(dice)[1][c]):
            raise IllegalMoveError(f"illegal box {c!r} for dice {dice!r} by the {self.strategy.level} player")
        return int(c)


def play_game(
    strategy: Strategy,
    dice: Any,
    rules: str | RuleSet | None = None,
    moves: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]] | None = None,
) -> ScoreCard:
    """Play one solitaire game with ``strategy`` on pre-drawn ``dice``, through the game engine.

    The game is a :class:`~yahtzee_solver.game.GameState` played by
    :func:`~yahtzee_solver.game.cpu_actions` (the loop of the terminal game),
    its dice dealt from ``dice`` by the convention of :func:`draw_dice`, the
    same as the game kernel's.  Each answer is checked: a keep must be a
    sub-multiset of the dice showing, a box must be legal.  Keeping all five
    ends the rolls of the turn.

    Parameters
    ----------
    strategy : Strategy
    dice : (turns, 3, 5) int
        This game's dice.
    rules : str or RuleSet, optional
        Default: ``strategy.rules``.
    moves : list, optional
        If given, one ``(keep1, keep2, roll, box)`` tuple of faces/box index is
        appended per turn (keeps and roll as sorted face tuples; a turn that
        stands on its first roll repeats the first keep).

    Returns
    -------
    ScoreCard
        The full card (``.total`` is the final score).

    Raises
    ------
    IllegalMoveError
        If the strategy keeps dice that are not showing or picks a closed box.
    UsageError
        If ``dice`` is not ``(turns, 3, 5)`` faces 1-6 with a turn per box.
    """
    game = EngineGame(strategy, dice, rules)
    for t in range(game.rules.n_categories):
        ev = game.play_turn(t)
        if moves is not None:
            k = game.player.keeps
            moves.append((k[0], k[1] if len(k) > 1 else k[0], tuple(sorted(ev.dice)), ev.category))
    return game.card


class EngineGame:
    """One player's solitaire game on pre-drawn dice, played turn by turn through the game engine.

    The loop of :func:`play_game`, also used to interleave two players' games
    (:func:`yahtzee_solver.analysis.match.play_match`): a :class:`~yahtzee_solver.game.GameState`
    advanced by :func:`~yahtzee_solver.game.cpu_actions`, every answer checked.

    Parameters
    ----------
    strategy : Strategy
    dice : (turns, 3, 5) int
        This game's dice (the convention of :func:`draw_dice`).
    rules : str or RuleSet, optional
        Default: ``strategy.rules``.

    Raises
    ------
    UsageError
        If ``dice`` is not ``(turns, 3, 5)`` faces 1-6 with a turn per box.
    """

    def __init__(self, strategy: Strategy, dice: Any, rules: str | RuleSet | None = None) -> None:
        self.rules: RuleSet = get_rules(rules if rules is not None else strategy.rules)
        self._deal = _PredrawnDice(_check_dice(dice, 3, self.rules.n_categories))
        # the strategy draws from its own generator; the state's CPU generator is never used here
        self.state: GameState = GameState(GameConfig(self.rules), cast(np.random.Generator, self._deal), _UNUSED_RNG)  # deals like one
        self.player: _Checked = _Checked(strategy, self.rules.n_categories)

    @property
    def card(self) -> ScoreCard:
        """The scorecard so far."""
        return self.state.cards[0]

    def play_turn(self, t: int) -> Event:
        """Play turn ``t`` (0-based) on its dice; returns the scoring :class:`~yahtzee_solver.game.Event`.

        Raises
        ------
        IllegalMoveError
            If the strategy keeps dice that are not showing or picks a closed box.
        """
        self._deal.start_turn(t)
        self.player.keeps.clear()
        while True:
            ev = None
            for action in cpu_actions(self.state, self.player):
                ev = self.state.apply_action(action)
            if ev is not None and ev.kind == "score":
                return ev


def play_games(strategy: Strategy, dice: Any, *, jit: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play one game per row of ``dice`` with an ``expert`` or ``normal`` strategy, in compiled code.

    Parameters
    ----------
    strategy : PolicyStrategy
        A player whose ``source`` is a :class:`~yahtzee_solver.strategy.policy.KernelValueSource`
        (``expert``, ``normal``): the kernel plays its policy from the source's
        value array and decision parameters.
    dice : (G, turns, 3, 5) int8
        Pre-drawn dice (:func:`draw_dice`).
    jit : bool
        Compiled kernel (default) or interpreted (slow; for tests).

    Returns
    -------
    totals : (G,) int64
        Final scores (points).
    flags : (G, 2) int8
        Upper bonus made; five alike scored as 50 in the Yahtzee box.
    moves : (G, turns, 4) int16
        First keep, second keep (keep indices, see :data:`~yahtzee_solver.dice.KEEPS`),
        final roll index, box of each turn.

    Raises
    ------
    UsageError
        If the strategy is not a table-driven one, or the dice are malformed.
    """
    source = getattr(strategy, "source", None)
    if not isinstance(source, KernelValueSource):
        raise UsageError(f"the {strategy.level} player does not run in the game kernel")
    rules = strategy.rules
    dice = np.ascontiguousarray(_check_dice(dice, 4, rules.n_categories), dtype=np.int8)
    G = dice.shape[0]
    a = rules.arrays()
    totals = np.zeros(G, np.int64)
    flags = np.zeros((G, 2), np.int8)
    moves = np.full((G, dice.shape[1], 4), -1, np.int16)
    if G:
        with _jit.threads_for(jit) as threads:  # the threads with a core free now
            parts = max(1, min(threads * RUNS_PER_THREAD, G // 64)) if threads > 1 else 1
            schedule = contextlib.nullcontext()
            if jit:
                import numba

                schedule = numba.parallel_chunksize(1)
            with schedule:
                _jit.backend(jit).play_games(
                    dice, source.values, source.score, source.joker, source.params, a["params"],
                    ROLL_SUBKEEPS, parts, totals, flags, moves,
                )
    return totals, flags, moves


def simulate(
    level: str,
    games: int,
    rules: str | RuleSet = "yahtzee",
    *,
    seed: int | None = None,
    table: ValueTable | None = None,
    progress: bool = False,
    jit: bool = True,
) -> SimulationResult:
    """Play ``games`` solitaire games with the CPU player of ``level``.

    Parameters
    ----------
    level : str
        ``beginner``, ``normal`` or ``expert``.
    games : int
        Number of games (at least 1).
    rules : str or RuleSet
    seed : int, optional
        Seed of ``numpy.random.default_rng`` for the dice (and, spawned from
        it, the beginner's blunders).  Default: fresh OS entropy, reported in
        the result.
    table : ValueTable, optional
        The expert's table (default: the shipped one).
    progress : bool
        Show a tqdm progress bar (stderr).
    jit : bool
        Compiled game kernel for expert/normal (default).

    Returns
    -------
    SimulationResult
        On ``KeyboardInterrupt`` (Ctrl-C) after at least one game, the
        statistics of the games finished, with :attr:`SimulationResult.requested`
        set: the finished games are not thrown away.

    Raises
    ------
    UsageError
        Unknown level, ``games`` < 1 or a negative seed.
    KeyboardInterrupt
        If interrupted before the first game finished.
    RuleSetError, TableError
        Unknown rules; missing or corrupt table.
    """
    name = str(level).strip().lower()
    if name not in LEVELS:
        raise UsageError(f"unknown level {level!r} (choose from {', '.join(LEVELS)})")
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 1:
        raise UsageError(f"invalid number of games {games!r}: want at least 1")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
        raise UsageError(f"invalid seed {seed!r}: want a whole number >= 0")
    rules = get_rules(rules)
    ss = np.random.SeedSequence(seed)
    seed = int(cast(int, ss.entropy))  # an int: given, or fresh
    dice_rng = np.random.default_rng(ss)
    play_rng = np.random.default_rng(ss.spawn(1)[0])
    strategy = fixed_strategy(name, rules, rng=play_rng, table=table, jit=jit)
    C = rules.n_categories
    games = int(games)
    totals = np.empty(games, np.int64)
    upper = np.empty(games, bool)
    yahtzee = np.empty(games, bool)
    kernel = not isinstance(strategy, BeginnerStrategy)
    if kernel and jit:
        # load / compile outside the timed part
        play_games(strategy, draw_dice(np.random.default_rng(0), 1, C), jit=True)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=games, unit="game", unit_scale=True, desc=f"{name} {rules.name}")
    ycat = rules.yahtzee_category
    t0 = time.perf_counter()
    done = 0  # games finished, in order
    try:
        step = CHUNK if kernel else BLOCK
        for start in range(0, games, step):
            n = min(step, games - start)
            dice = draw_dice(dice_rng, n, C)  # whole blocks: game g's dice depend on g only
            if kernel:
                tot, fl, _ = play_games(strategy, dice, jit=jit)
                totals[start : start + n] = tot
                upper[start : start + n] = fl[:, 0] == 1
                yahtzee[start : start + n] = fl[:, 1] == 1
                done = start + n
            else:
                for i in range(n):
                    card = play_game(strategy, dice[i], rules)
                    totals[start + i] = card.total
                    upper[start + i] = card.upper_bonus > 0
                    yahtzee[start + i] = ycat >= 0 and card.boxes[ycat] == 50
                    done = start + i + 1
                    if bar is not None and i % 64 == 63:
                        bar.update(64)
                if bar is not None:
                    bar.update(n % 64)
                continue
            if bar is not None:
                bar.update(n)
    except KeyboardInterrupt:
        if done == 0:
            raise
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - t0
    res = summarise(name, rules.name, seed, totals[:done], upper[:done], yahtzee[:done], seconds)
    return res if done == games else replace(res, requested=games)
