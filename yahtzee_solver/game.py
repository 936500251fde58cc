"""The game engine: solitaire or against one CPU player, with no I/O.

In the spirit of OpenSpiel, a game is an immutable :class:`GameConfig` plus a
mutable :class:`GameState` that lists its :meth:`~GameState.legal_actions`,
takes one action at a time (:meth:`~GameState.apply_action`) and knows when it
:meth:`~GameState.is_terminal`.  No I/O here: the saved game's format is
:mod:`yahtzee_solver.play.savegame`.

A turn (docs/rules.md): roll all five dice; between rolls hold any dice and reroll
the rest, at most three rolls in all; after any roll, but not before the
first, score the dice in one legal box.  After the third roll the dice are
locked and only scoring is possible.  The actions are

* :class:`Roll` -- roll the dice that are not held (all five on the first roll);
* :class:`Hold` -- set which of the five dice (by position) are held;
* :class:`Score` -- write the dice in a box; the turn passes to the next player.

Chance is not an action: the dice come from a ``numpy.random.Generator``
owned by the state (seeded from the config's ``seed``), so a restored game
rolls exactly the dice the original would have rolled.  The beginner CPU
draws from a second generator.

How dice score is decided only by :meth:`ScoreCard.scoring
<yahtzee_solver.state.ScoreCard.scoring>` (the single definition of the
rules in :func:`yahtzee_solver.solver.kernels.box_scoring`: Joker case, Joker points,
Yahtzee and upper bonuses) and written with
:meth:`ScoreCard.with_box <yahtzee_solver.state.ScoreCard.with_box>`.
"""

from __future__ import annotations

import copy
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

import numpy as np
import numpy.typing as npt

from .errors import BoxIndexError, IllegalMoveError, UsageError
from .rules import RuleSet, get_rules
from .state import ScoreCard

__all__ = [
    "N_DICE",
    "DiceSource",
    "MAX_ROLLS",
    "OPPONENTS",
    "HUMAN",
    "CPU",
    "GameConfig",
    "GameState",
    "Roll",
    "Hold",
    "Score",
    "Event",
    "JokerInfo",
    "new_game",
    "MAX_SEED_DIGITS",
    "SEED_TOO_LONG",
    "seed_too_long",
    "joker_info",
    "cpu_actions",
    "positions_of",
    "PROBLEMS",
]

N_DICE = 5
MAX_ROLLS = 3
HUMAN, CPU = 0, 1
#: ``--vs`` choices: solitaire or a CPU level (:data:`yahtzee_solver.strategy.players.LEVELS`).
OPPONENTS = ("none", "beginner", "normal", "expert", "master")

#: Keys of the reasons an action is illegal (:meth:`GameState.problem`).  The
#: English text is here; :mod:`yahtzee_solver.i18n` translates the same keys.
PROBLEMS = {
    "game_over": "the game is over",
    "roll_first": "roll the dice first",
    "no_rolls_left": "no rolls left this turn: score the dice",
    "all_held": "every die is kept: release some to reroll, or score",
    "locked": "the dice are locked after the third roll: score them",
    "bad_hold": "invalid hold {held!r}: want five true/false values",
    "bad_box": "invalid box {box!r}",
    "box_filled": "the {box} box is already filled",
    "joker_upper": "joker: five {face}s must go in the {box} box while it is open",
    "joker_lower": "joker: the {box} box is filled, so five {face}s go in an open lower box",
    "joker_upper_zero": "joker: every lower box is filled, so five {face}s go in an open upper box for 0",
}


# -- actions ------------------------------------------------------------------------
@dataclass(frozen=True)
class Roll:
    """Roll the dice that are not held (the first roll of a turn rolls all five)."""

    def to_dict(self) -> dict[str, Any]:
        return {"action": "roll"}


@dataclass(frozen=True)
class Hold:
    """Hold exactly the dice at the positions where ``held`` is true (the rest will be rerolled).

    Attributes
    ----------
    held : tuple of bool
        Five flags, one per die position (0..4).
    """

    held: tuple[bool, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"action": "hold", "held": list(self.held)}


@dataclass(frozen=True)
class Score:
    """Score the dice in box ``category`` (index in the rule set)."""

    category: int

    def to_dict(self) -> dict[str, Any]:
        return {"action": "score", "category": self.category}


Action = Roll | Hold | Score


@dataclass(frozen=True)
class Event:
    """What an action did (for display and the game log).

    Attributes
    ----------
    kind : str
        ``roll``, ``hold`` or ``score``.
    player : int
        Index of the player who acted (0 = the human, 1 = the CPU).
    dice : tuple of int
        The five dice in position order after the action.
    held : tuple of bool
        Held positions after the action (all false after a score).
    roll : int
        Rolls used this turn after the action (1..3); for ``score``, the rolls used before it.
    category : int
        Box scored (``score`` only, else -1).
    points : int
        Points written in the box (``score``).
    yahtzee_bonus : int
        Yahtzee bonus points earned (100 or 0, ``score``).
    upper_bonus : int
        Upper bonus completed by this score (35 or 0, ``score``).
    joker : bool
        The roll was scored as a Joker (``score``).
    """

    kind: str
    player: int
    dice: tuple[int, ...]
    held: tuple[bool, ...]
    roll: int
    category: int = -1
    points: int = 0
    yahtzee_bonus: int = 0
    upper_bonus: int = 0
    joker: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "player": self.player, "dice": list(self.dice),
            "held": list(self.held), "roll": self.roll, "category": self.category,
            "points": self.points, "yahtzee_bonus": self.yahtzee_bonus,
            "upper_bonus": self.upper_bonus, "joker": self.joker,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        """The event :meth:`to_dict` wrote.

        Raises
        ------
        KeyError
            If a field is missing.
        ValueError
            If a number is not a whole number as JSON writes it (``2.5``, ``true``
            or ``"5"`` for a die is refused, never rounded into another game).
        """
        return cls(
            str(d["kind"]), _whole(d["player"], "player"), tuple(_whole(x, "die") for x in d["dice"]),
            tuple(bool(x) for x in d["held"]), _whole(d["roll"], "roll"), _whole(d["category"], "category"),
            _whole(d["points"], "points"), _whole(d["yahtzee_bonus"], "yahtzee_bonus"),
            _whole(d["upper_bonus"], "upper_bonus"), bool(d["joker"]),
        )


def _whole(v: Any, name: str) -> int:
    """``v`` if it is an integer (numpy integers too; not a bool, a float or a string), else ValueError naming ``name``."""
    if not isinstance(v, bool):
        try:
            return operator.index(v)
        except TypeError:
            pass
    raise ValueError(f"{name} {v!r} is not a whole number")


# -- configuration --------------------------------------------------------------------
@dataclass(frozen=True)
class GameConfig:
    """The fixed facts of a game.

    Attributes
    ----------
    rules : RuleSet
    opponent : str
        ``none`` (solitaire) or a CPU level (``beginner``, ``normal``, ``expert``).
    first : int
        Player who starts each round: 0 = the human, 1 = the CPU.
    seed : int
        Root seed (non-negative): the dice, the CPU's random choices and a
        random first player all derive from ``numpy.random.SeedSequence(seed)``.

    Raises
    ------
    UsageError
        For an unknown opponent, a CPU first player in a solitaire game or a negative seed.
    """

    rules: RuleSet
    opponent: str = "none"
    first: int = HUMAN
    seed: int = 0

    def __post_init__(self) -> None:
        if self.opponent not in OPPONENTS:
            raise UsageError(f"unknown opponent {self.opponent!r} (choose from {', '.join(OPPONENTS)})")
        if self.first not in (HUMAN, CPU) or (self.first == CPU and self.opponent == "none"):
            raise UsageError(f"invalid first player {self.first!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise UsageError(f"invalid seed {self.seed!r}: want a whole number >= 0")

    @property
    def n_players(self) -> int:
        """1 (solitaire) or 2 (against the CPU)."""
        return 1 if self.opponent == "none" else 2

    @property
    def opponent_key(self) -> str:
        """The opponent as the records name it: ``solo`` for solitaire (``opponent`` ``none``), else the CPU level."""
        return "solo" if self.opponent == "none" else self.opponent

    @property
    def n_turns(self) -> int:
        """Turns per player: the number of boxes (13, or 12 in Yacht)."""
        return self.rules.n_categories

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules.name, "opponent": self.opponent, "first": self.first, "seed": self.seed}


def _generators(seed: int) -> tuple[np.random.Generator, np.random.Generator, np.random.Generator]:
    """Dice, CPU and first-player generators derived from one root seed."""
    dice, cpu, first = np.random.SeedSequence(seed).spawn(3)
    return np.random.default_rng(dice), np.random.default_rng(cpu), np.random.default_rng(first)


#: Most decimal digits of a seed a player chooses: ``--seed`` of every command and the web's ``seed``, one
#: limit (the seeds the program draws have at most 39 digits, 128 bits; a secret game seed 20, 64 bits).
#: Not checked on load: a game saved with a longer seed, chosen before the limit, still resumes.
MAX_SEED_DIGITS = 40

#: The refusal of a chosen seed over :data:`MAX_SEED_DIGITS` digits, in English (``seed``: the seed as typed,
#: quoted and clipped; ``n``: its digits; ``most``: the limit): the command line says it after ``invalid value
#: for '--seed':``, the web after ``invalid seed:`` (catalogue ``web.err.seed_long``, in every language).
SEED_TOO_LONG = "{seed} is too long for a seed ({n:,} digits): want at most {most} digits"


def seed_too_long(seed: int) -> int | None:
    """The number of digits of a chosen ``seed`` (>= 0) when it has more than :data:`MAX_SEED_DIGITS`, else ``None``.

    Leading zeros of the text it was read from do not count (``--seed 007`` is 7).  ``seed`` is a number
    read from text, so of at most Python's 4,300 digits.
    """
    return None if seed < 10**MAX_SEED_DIGITS else len(str(seed))


def new_game(
    rules: str | RuleSet = "yahtzee",
    opponent: str = "none",
    first: str = "me",
    seed: int | None = None,
) -> GameState:
    """Start a game.

    Parameters
    ----------
    rules : str or RuleSet
    opponent : str
        ``none`` or a CPU level.
    first : str
        ``me``, ``cpu`` or ``random`` (drawn from the seed); ignored in solitaire.
    seed : int, optional
        Root seed (>= 0); ``None`` draws fresh entropy (kept in ``config.seed``
        so the game can be replayed).

    Raises
    ------
    RuleSetError, UsageError
        Unknown rules, opponent or first player; a negative seed.
    """
    rules = get_rules(rules)
    if seed is None:
        seed = int(cast(int, np.random.SeedSequence().entropy))  # fresh entropy is an int
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise UsageError(f"invalid seed {seed!r}: want a whole number >= 0")
    dice_rng, cpu_rng, first_rng = _generators(seed)
    if first not in ("me", "cpu", "random"):
        raise UsageError(f"invalid first player {first!r} (choose from me, cpu, random)")
    who = HUMAN
    if opponent != "none":
        who = CPU if first == "cpu" else HUMAN
        if first == "random":
            who = int(first_rng.integers(0, 2))
    config = GameConfig(rules, opponent, who, seed)
    return GameState(config, dice_rng, cpu_rng)


# -- the Joker, explained -------------------------------------------------------------------
@dataclass(frozen=True)
class JokerInfo:
    """Which Joker rule applies to five alike (docs/rules.md), for explaining the legal boxes.

    Attributes
    ----------
    case : str
        Forced Joker: ``upper`` (rule 1: the open upper box of that face must
        take it), ``lower`` (rule 2: any open lower box, Full House 25 /
        Small Straight 30 / Large Straight 40), ``upper_zero`` (rule 3: an
        open upper box for 0).  Free Joker: ``free_fixed`` (any open box; the
        fixed-point boxes score their value because the upper box of that
        face is filled) or ``free`` (any open box, scored as usual).
    face : int
        The face of the five alike (1..6).
    category : int
        The upper box of that face (``face - 1``).
    yahtzee_bonus : int
        Bonus this roll earns (100 or 0 points).
    """

    case: str
    face: int
    category: int
    yahtzee_bonus: int


def joker_info(card: ScoreCard, dice: Sequence[int]) -> JokerInfo | None:
    """The Joker rule that applies to final ``dice`` on ``card``, or ``None``.

    A Joker applies when five alike are scored while the five-alike box is
    already filled (with 50 or 0) under a rule set with a Joker.  The case is
    the one the scoring kernel applies (:meth:`ScoreCard.scoring`); this only
    names it so the interface can explain it.
    """
    faces = tuple(dice)
    if len(faces) != N_DICE or len(set(faces)) != 1:
        return None
    s = card.scoring(faces)
    if s.joker is None:
        return None
    face = faces[0]
    return JokerInfo(s.joker, face, face - 1, s.yahtzee_bonus)


#: The 32 ways to hold dice, in mask order.
_HOLDS = tuple(Hold(tuple(bool((m >> i) & 1) for i in range(N_DICE))) for m in range(1 << N_DICE))


# -- the state ---------------------------------------------------------------------------------
class _NoCards(list[ScoreCard]):
    """The default of :attr:`GameState.cards`: no cards were given (an empty list given is kept, and refused
    where it is checked)."""


class DiceSource(Protocol):
    """Where a game's dice come from: a ``numpy.random.Generator``, or faces typed at the table
    (:class:`yahtzee_solver.play.coach.TypedDice`)."""

    def integers(self, low: int, high: int, size: int) -> npt.NDArray[np.int64]: ...


@dataclass
class GameState:
    """A game in progress (mutable).

    Parameters
    ----------
    config : GameConfig
    rng : numpy.random.Generator or DiceSource
        Source of the dice (any object with a Generator's ``integers(low, high, size)``).
    cpu_rng : numpy.random.Generator, optional
        Source of the CPU's random choices (the beginner level); default: a
        generator derived from ``config.seed``.

    Attributes
    ----------
    cards : list of ScoreCard
        One per player: index 0 is the human, 1 the CPU.
    current : int
        The player to move.
    round : int
        Turn number, 1..``config.n_turns`` (each player plays once per round).
    dice : tuple of int or None
        The five dice in position order; ``None`` before the first roll of a turn.
    held : tuple of bool
        Which positions are held (kept) for the next reroll.
    rolls_used : int
        Rolls made this turn (0..3).
    log : list of Event
        Every action of the game so far.
    """

    config: GameConfig
    rng: DiceSource
    cpu_rng: np.random.Generator | None = None
    cards: list[ScoreCard] = field(default_factory=_NoCards)
    current: int = -1
    round: int = 1
    dice: tuple[int, ...] | None = None
    held: tuple[bool, ...] = (False,) * N_DICE
    rolls_used: int = 0
    log: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.cpu_rng is None:
            self.cpu_rng = _generators(self.config.seed)[1]
        if isinstance(self.cards, _NoCards):  # not given: an empty card for each player
            self.cards = [ScoreCard.empty(self.config.rules) for _ in range(self.config.n_players)]
        if self.current < 0:
            self.current = self.config.first

    # -- queries ----------------------------------------------------------------------
    @property
    def rules(self) -> RuleSet:
        return self.config.rules

    @property
    def card(self) -> ScoreCard:
        """The scorecard of the player to move."""
        return self.cards[self.current]

    @property
    def is_cpu_turn(self) -> bool:
        """True when the CPU is to move."""
        return self.current == CPU

    @property
    def rerolls_left(self) -> int:
        """Rerolls still allowed this turn (2 after the first roll, 0 after the third)."""
        return MAX_ROLLS - self.rolls_used if self.rolls_used else MAX_ROLLS - 1

    @property
    def sorted_dice(self) -> tuple[int, ...] | None:
        """The dice as a sorted multiset (what the solver and the CPU look at)."""
        return None if self.dice is None else tuple(sorted(self.dice))

    def is_terminal(self) -> bool:
        """True when every card is full."""
        return all(c.is_full for c in self.cards)

    def totals(self) -> tuple[int, ...]:
        """Points on each player's card (boxes + upper bonus + Yahtzee bonuses)."""
        return tuple(c.total for c in self.cards)

    def winner(self) -> int | None:
        """At the end of a game against the CPU: 0 (human), 1 (CPU) or ``None`` for a draw.

        Raises
        ------
        IllegalMoveError
            If the game is not over or is solitaire.
        """
        if not self.is_terminal() or self.config.n_players != 2:
            raise IllegalMoveError("there is no winner: the game is not over or has one player")
        a, b = self.totals()
        return None if a == b else (HUMAN if a > b else CPU)

    def preview(self) -> tuple[tuple[int, ...], tuple[bool, ...], int] | None:
        """How the current dice would score on the mover's card: ``(points, legal, yahtzee_bonus)``.

        Points per box (C,), whether each box may take the dice now (C,), and
        the Yahtzee bonus points the roll earns.  ``None`` before the first
        roll.  From :meth:`ScoreCard.box_points` (memoised per card and dice).
        """
        if self.dice is None or self.is_terminal():
            return None
        card, dice = self.card, self.dice
        memo = self.__dict__.get("_preview")
        if memo is None or memo[0] is not card or memo[1] != dice:
            points, legal, bonus = card.box_points(dice)
            memo = (card, dice, (tuple(points), tuple(legal), bonus))
            self.__dict__["_preview"] = memo
        return memo[2]

    def _scored(self) -> tuple[tuple[int, ...], tuple[bool, ...], int]:
        """:meth:`preview` once the dice are rolled (callers have checked ``rolls_used``)."""
        p = self.preview()
        assert p is not None, "no dice rolled"
        return p

    def joker(self) -> JokerInfo | None:
        """The Joker rule the current dice fall under, if any (see :func:`joker_info`)."""
        if self.dice is None or self.is_terminal():
            return None
        return joker_info(self.card, self.dice)

    def zero_warning(self, category: int) -> bool:
        """True when scoring ``category`` now writes 0 while another legal box would score points.

        Raises
        ------
        BoxIndexError
            ``category`` is not a box index 0..C-1 (a negative index is no box).
        """
        C = self.rules.n_categories
        if isinstance(category, bool) or not isinstance(category, int) or not 0 <= category < C:
            raise BoxIndexError(f"invalid box index {category!r}: want 0-{C - 1}")
        p = self.preview()
        if p is None:
            return False
        points, legal, _ = p
        return points[category] == 0 and any(pt > 0 and ok for pt, ok in zip(points, legal))

    def problem(self, action: Action) -> tuple[str, dict[str, Any]] | None:
        """Why ``action`` is illegal now, as ``(key, params)`` of :data:`PROBLEMS`, or ``None`` if legal."""
        if self.is_terminal():
            return "game_over", {}
        if isinstance(action, Roll):
            if self.rolls_used >= MAX_ROLLS:
                return "no_rolls_left", {}
            if self.rolls_used and all(self.held):
                return "all_held", {}
            return None
        if isinstance(action, Hold):
            h = action.held
            if not isinstance(h, tuple) or len(h) != N_DICE or not all(isinstance(x, bool) for x in h):
                return "bad_hold", {"held": h}
            if self.rolls_used == 0:
                return "roll_first", {}
            if self.rolls_used >= MAX_ROLLS:
                return "locked", {}
            return None
        if isinstance(action, Score):
            c = action.category
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < self.rules.n_categories:
                return "bad_box", {"box": c}
            if self.rolls_used == 0:
                return "roll_first", {}
            box = self.rules.categories[c].slug
            if self.card.boxes[c] is not None:
                return "box_filled", {"box": box}
            _, legal, _ = self._scored()
            if not legal[c]:
                j = self.joker()
                face = j.face if j else 0
                upper = self.rules.categories[face - 1].slug if j else box
                key = {"upper": "joker_upper", "upper_zero": "joker_upper_zero"}.get(
                    j.case if j else "", "joker_lower")
                return key, {"face": face, "box": upper}
            return None
        return "bad_box", {"box": action}

    def legal_actions(self) -> list[Action]:
        """Every legal action: Roll, the 32 holds (between rolls), the legal boxes (after a roll)."""
        if self.is_terminal():
            return []
        out: list[Action] = []
        if self.problem(Roll()) is None:
            out.append(Roll())
        if 0 < self.rolls_used < MAX_ROLLS:
            out.extend(_HOLDS)
        if self.rolls_used:
            _, legal, _ = self._scored()
            out.extend(Score(c) for c in range(self.rules.n_categories) if legal[c])
        return out

    # -- acting --------------------------------------------------------------------------
    def apply_action(self, action: Action) -> Event:
        """Play ``action`` for the player to move.

        Returns
        -------
        Event
            What happened (the new dice, or the points scored).

        Raises
        ------
        IllegalMoveError
            If the action is not legal now (message from :data:`PROBLEMS`).
        """
        why = self.problem(action)
        if why is not None:
            key, params = why
            raise IllegalMoveError(PROBLEMS[key].format(**params))
        player = self.current
        if isinstance(action, Roll):
            dice = list(self.dice) if self.dice is not None else [0] * N_DICE
            held = self.held if self.rolls_used else (False,) * N_DICE
            free = [i for i in range(N_DICE) if not held[i]]
            new = self.rng.integers(1, 7, size=len(free))
            for i, f in zip(free, new):
                dice[i] = int(f)
            self.dice = tuple(dice)
            self.held = held
            self.rolls_used += 1
            ev = Event("roll", player, self.dice, self.held, self.rolls_used)
        elif isinstance(action, Hold):
            assert self.dice is not None  # problem() refuses a hold before the first roll
            self.held = tuple(action.held)
            ev = Event("hold", player, self.dice, self.held, self.rolls_used)
        else:
            assert self.dice is not None  # problem() refuses a box before the first roll
            c = action.category
            card = self.card
            s = card.scoring(self.dice)
            self.cards[player] = card.with_box(c, s.points[c], s.yahtzee_bonus)
            ev = Event("score", player, self.dice, (False,) * N_DICE, self.rolls_used, c,
                       s.points[c], s.yahtzee_bonus, s.upper_bonus[c], s.joker is not None)
            self._next_turn()
        self.log.append(ev)
        return ev

    def _next_turn(self) -> None:
        self.dice = None
        self.held = (False,) * N_DICE
        self.rolls_used = 0
        if self.config.n_players == 2:
            self.current = 1 - self.current
            if self.current != self.config.first:
                return
        if not self.is_terminal():
            self.round += 1

    def clone(self) -> GameState:
        """An independent copy (generators included)."""
        return copy.deepcopy(self)


# -- helpers for CPU players --------------------------------------------------------------------
def positions_of(dice: Sequence[int], keep: Sequence[int], held: Sequence[bool] | None = None) -> tuple[bool, ...]:
    """Hold flags that keep the faces ``keep`` among ``dice`` (position order).

    Dice already held are preferred for each face, then the leftmost.

    Raises
    ------
    IllegalMoveError
        If ``keep`` is not a sub-multiset of ``dice``.
    """
    held = held or (False,) * len(dice)
    out = [False] * len(dice)
    order = sorted(range(len(dice)), key=lambda i: (not held[i], i))
    for f in keep:
        for i in order:
            if not out[i] and dice[i] == f:
                out[i] = True
                break
        else:
            raise IllegalMoveError(f"cannot keep {''.join(map(str, keep))!r} from dice {''.join(map(str, dice))!r}")
    return tuple(out)


class _Chooser(Protocol):
    """The part of a :class:`~yahtzee_solver.strategy.players.Strategy` that :func:`cpu_actions` calls
    (the strategies sit in a layer above this module)."""

    def choose_keep(self, card: ScoreCard, dice: tuple[int, ...], rolls_left: int) -> tuple[int, ...]: ...

    def choose_box(self, card: ScoreCard, dice: tuple[int, ...]) -> int: ...


def cpu_actions(state: GameState, strategy: _Chooser) -> list[Action]:
    """The next step of the mover's turn as decided by ``strategy`` (a :class:`~yahtzee_solver.strategy.players.Strategy`).

    Returns ``[Roll()]`` before the first roll; ``[Score(c)]`` when the
    strategy keeps all five dice or no reroll is left; otherwise
    ``[Hold(...), Roll()]`` (just ``[Roll()]`` if those dice are already held).
    The strategy is asked once per call; one that plays to win (has ``observe``,
    :class:`~yahtzee_solver.strategy.master.MasterStrategy`) is first told the other player's card.
    """
    if state.config.n_players == 2 and hasattr(strategy, "observe"):
        # a strategy that plays to win (master) is told the other card (also after a resume);
        # the human is modelled as the expert
        strategy.observe(state.cards[1 - state.current], "expert")
    if state.rolls_used == 0:
        return [Roll()]
    dice = state.sorted_dice
    assert dice is not None and state.dice is not None  # rolled this turn
    if state.rolls_used < MAX_ROLLS:
        keep = tuple(strategy.choose_keep(state.card, dice, state.rerolls_left))
        if len(keep) < N_DICE:
            held = positions_of(state.dice, keep, state.held)
            return [Roll()] if held == state.held else [Hold(held), Roll()]
    return [Score(int(strategy.choose_box(state.card, dice)))]
