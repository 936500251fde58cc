"""The coach's game: score keeping for a game played with real dice, every player at the table (no I/O).

Each player's card is a solitaire :class:`~yahtzee_solver.game.GameState` of the
one game engine, whose dice source is what the player types
(:class:`TypedDice`) instead of a random generator: the engine checks every
roll, keep and score as in ``play``.  Players take turns in the order given.

The game is its list of actions (who rolled which dice, kept which faces,
scored which box); undo drops the last one and replays the rest, and the saved
file (:func:`save`, :func:`load`) is that list, replayed and so validated on
load.  There are no records: the dice are the players' own.  Finished games
go to the game history (:func:`file_finished`) as one game of the table, the
players named, so that ``review`` reads them.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..dice import parse_dice
from ..errors import (DataFileError, DiceError, IllegalMoveError, NothingToResumeError, SavedGameError, UsageError,
                      YahtzeeError)
from ..files import clip, data_dir, read_json, set_aside, version_ok, version_problem, write_json_atomic
from ..i18n import LANGS
from ..game import N_DICE, Action, Event, GameConfig, GameState, Hold, Roll, Score, positions_of
from ..rules import RuleSet, get_rules
from ..state import ScoreCard
from ..strategy.advisor import BoxOption, KeepOption
from .history import MAX_NAME, MAX_PLAYERS, player_key

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from ..i18n import Translator
    from ..strategy.advisor import Advisor
    from ..strategy.win_chances import TableOdds

__all__ = ["RollError", "MoveError", "parse_roll", "judge", "ranking", "COACH_FORMAT", "COACH_VERSION", "MAX_PLAYERS", "TypedDice", "CoachGame",
           "coach_path", "parse_players", "save", "load", "file_finished", "Mistake", "mistake", "undone_text", "best_text", "before_new"]

COACH_FORMAT = "yahtzee_solver coach game"
COACH_VERSION = 1
# MAX_PLAYERS (most players at one table) and MAX_NAME (the longest player name, characters) are the
# history's limits, which it checks on load.


def coach_path() -> Path:
    """``coach.json`` in the data folder: the coach's game in progress."""
    return data_dir() / "coach.json"


class RollError(DiceError):
    """A typed roll the coach refuses: a message key of :mod:`yahtzee_solver.i18n.text` (``coach.err.*``) and its fields."""

    def __init__(self, key: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.key: str = key
        self.params: dict[str, Any] = params


class PlayersError(UsageError):
    """Player names the coach refuses: a message key of :mod:`yahtzee_solver.i18n.text` (``coach.err.*``) and its fields."""

    def __init__(self, key: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.key: str = key
        self.params: dict[str, Any] = params


class MoveError(IllegalMoveError):
    """An action the engine refuses: the reason's key of :data:`yahtzee_solver.game.PROBLEMS` and its fields
    (translated by :meth:`yahtzee_solver.i18n.Translator.problem`); the English text is the message."""

    def __init__(self, problem: str, params: dict[str, Any]) -> None:
        from ..game import PROBLEMS

        super().__init__(PROBLEMS[problem].format(**params))
        self.problem: str = problem
        self.params: dict[str, Any] = dict(params)


def parse_roll(text: str) -> tuple[int, ...]:
    """The faces typed for a roll: 0 to 5 dice, written as :func:`~yahtzee_solver.dice.parse_dice` reads them
    (``12555``, ``1 2 5``, full-width digits), sorted.

    Raises
    ------
    RollError
        ``coach.err.face`` naming the first die that is not a face 1-6, or ``coach.err.too_many``.
    """
    import re

    from ..dice import ascii_width

    try:
        return parse_dice(text, n=None)
    except DiceError:
        pass
    shown = _clip(str(text))
    s = ascii_width(str(text)).strip()
    parts = [p for p in re.split(r"[\s,]+", s) if p] if re.search(r"[\s,]", s) else list(s)
    for p in parts:
        if not (p.isascii() and p.isdigit()) or len(p) > 1 or not 1 <= int(p) <= 6:
            die = _clip(p, 10)
            raise RollError("coach.err.face", f"invalid die {die!r} in {shown!r}: faces are 1-6", die=die, roll=shown)
    raise RollError("coach.err.too_many", f"invalid roll {shown!r}: at most {N_DICE} dice", roll=shown, n=N_DICE)


def _clip(text: str, limit: int = 30) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


class TypedDice:
    """The dice source of a coached card: hands the engine the faces the player typed for the next roll."""

    def __init__(self) -> None:
        self.pending: tuple[int, ...] = ()

    def integers(self, low: int, high: int, size: int) -> npt.NDArray[np.int64]:
        faces, self.pending = self.pending, ()
        if len(faces) != size:  # the coach always sets exactly the dice to roll
            raise IllegalMoveError(f"want {size} dice for this roll, got {len(faces)}")
        return np.array(faces, dtype=np.int64)


def parse_players(text: str) -> tuple[str, ...]:
    """Player names from ``"Ann,Bob,Chen"`` (commas; surrounding spaces dropped).

    Raises
    ------
    PlayersError
        (a :class:`UsageError`) for no name, an empty or over-long name, a name given twice (ignoring
        case and full-width forms: :func:`~yahtzee_solver.play.history.player_key`) or more than :data:`MAX_PLAYERS` players.
    """
    names = tuple(n.strip() for n in str(text).split(","))
    if not names or any(not n for n in names):
        raise PlayersError("coach.err.players", f"invalid players {text!r}: want names separated by commas, such as Ann,Bob",
                           text=text)
    for n in names:
        if len(n) > MAX_NAME or not n.isprintable():
            shown = n if len(n) <= MAX_NAME else clip(n, MAX_NAME)  # cut with '...': visibly not the name given
            raise PlayersError("coach.err.player_name", f"invalid player name {shown!r}: want at most {MAX_NAME} "
                               "printable characters", name=shown, n=MAX_NAME)
    keys = [player_key(n) for n in names]  # the form player_index looks names up in
    for n in names:
        if keys.count(player_key(n)) > 1:
            raise PlayersError("coach.err.player_twice", f"player {n!r} is named twice", name=n)
    if len(names) > MAX_PLAYERS:
        raise PlayersError("coach.err.player_count", f"{len(names)} players: at most {MAX_PLAYERS} at one table",
                           count=len(names), n=MAX_PLAYERS)
    return names


class CoachGame:
    """A game at a table of players with real dice: their cards, whose turn it is, and every action so far.

    Parameters
    ----------
    rules : str or RuleSet
    players : sequence of str
        The names, in turn order (see :func:`parse_players`).

    Attributes
    ----------
    rules : RuleSet
    players : tuple of str
    states : list of GameState
        One solitaire engine per player (its ``log`` is that player's game).
    actions : list of dict
        ``{"player": i, "roll": [faces rolled]}``, ``{"player": i, "keep": [faces]}``
        or ``{"player": i, "score": box index}``, in the order played.
    """

    def __init__(self, rules: str | RuleSet, players: Iterable[str]) -> None:
        self.rules: RuleSet = get_rules(rules)
        self.players: tuple[str, ...] = tuple(players)
        if not 1 <= len(self.players) <= MAX_PLAYERS:
            raise UsageError(f"invalid number of players {len(self.players)}: want 1-{MAX_PLAYERS}")
        self.states: list[GameState] = [GameState(GameConfig(self.rules), TypedDice()) for _ in self.players]
        self.actions: list[dict[str, Any]] = []
        self._scores = 0

    # -- queries -----------------------------------------------------------------------
    @property
    def current(self) -> int:
        """The player to move (index); players score once each per round, in order."""
        return self._scores % len(self.players)

    @property
    def state(self) -> GameState:
        """The engine of the player to move."""
        return self.states[self.current]

    @property
    def cards(self) -> list[ScoreCard]:
        return [s.cards[0] for s in self.states]

    @property
    def round(self) -> int:
        """Round number, 1..boxes."""
        return min(self._scores // len(self.players) + 1, self.rules.n_categories)

    def is_over(self) -> bool:
        return all(s.is_terminal() for s in self.states)

    def totals(self) -> tuple[int, ...]:
        return tuple(c.total for c in self.cards)

    def table_log(self) -> list[Event]:
        """The game's move log with every player's events, in the order played, each naming its player by seat.

        Each card's engine logs its events as player 0 (a solitaire game); here
        they are interleaved turn by turn in the order of play (player 0's turn
        1, player 1's turn 1, ...; a turn in progress last) with
        :attr:`~yahtzee_solver.game.Event.player` set to the seat.
        """
        import dataclasses

        turns: list[list[list[Event]]] = []
        for st in self.states:
            mine: list[list[Event]] = [[]]
            for ev in st.log:
                mine[-1].append(ev)
                if ev.kind == "score":
                    mine.append([])
            turns.append(mine)
        out: list[Event] = []
        for t in range(max(len(m) for m in turns)):
            for i, mine in enumerate(turns):
                if t < len(mine):
                    out += [dataclasses.replace(ev, player=i) for ev in mine[t]]
        return out

    def kept(self) -> tuple[int, ...]:
        """The faces the player to move keeps for the next reroll (sorted; empty before the first roll)."""
        st = self.state
        if st.dice is None:
            return ()
        return tuple(sorted(d for d, h in zip(st.dice, st.held) if h))

    def player_index(self, name: str) -> int:
        """The index of the player called ``name`` (ignoring case and full-width forms: :func:`player_key`).

        Raises
        ------
        UsageError
            For a name not at the table.
        """
        want = player_key(name)
        for i, n in enumerate(self.players):
            if player_key(n) == want:
                return i
        raise UsageError(f"unknown player {name!r}: the players are {', '.join(self.players)}")

    # -- reading a roll ------------------------------------------------------------------
    def rerolled(self, text: str) -> tuple[int, ...]:
        """The faces the next roll brings, from what the player typed.

        The first roll of a turn is five dice.  A reroll is typed as the five
        dice now showing (they must contain the kept dice) or as the rerolled
        dice only.

        Raises
        ------
        RollError
            Bad dice, the wrong number of them, or five dice that do not contain the kept ones
            (a :class:`~yahtzee_solver.errors.DiceError` with a message key).
        MoveError
            When the game is over, or no roll is left, or every die is kept (an ``IllegalMoveError``
            with the reason's key).
        """
        st = self.state
        why = st.problem(Roll())
        if why is not None:
            raise MoveError(*why)
        faces = parse_roll(text)
        shown = _clip(str(text))  # the error quotes what was typed, as parse_roll's do ('' stays '')
        if st.rolls_used == 0:
            if len(faces) != N_DICE:
                raise RollError("coach.err.first", f"invalid roll {shown!r}: the first roll of a turn is five dice",
                                roll=shown)
            return faces
        kept = self.kept()
        free = N_DICE - len(kept)
        if len(faces) == free:
            return faces
        if len(faces) == N_DICE:
            rest = list(faces)
            for d in kept:
                if d not in rest:
                    k = " ".join(map(str, kept))
                    raise RollError("coach.err.contains", f"the roll {_faces(faces)} does not contain the kept dice {k}",
                                    roll=_faces(faces), kept=k)
                rest.remove(d)
            return tuple(rest)
        raise RollError("coach.err.count", f"invalid roll {shown!r}: type the 5 dice showing or the {free} "
                        "rerolled dice", roll=shown, n=free)

    # -- acting ------------------------------------------------------------------------
    def roll(self, text: str) -> tuple[int, ...]:
        """Roll: the dice typed (see :meth:`rerolled`).  Returns the five dice showing (position order)."""
        faces = self.rerolled(text)
        self._do({"player": self.current, "roll": list(faces)})
        dice = self.state.dice
        assert dice is not None  # just rolled
        return dice

    def keep(self, held: tuple[bool, ...]) -> tuple[int, ...]:
        """Keep the dice at the positions ``held`` (the rest to be rerolled).  Returns the kept faces.

        Raises
        ------
        IllegalMoveError
            Before the first roll, after the third, or for all five dice (no
            reroll is no pass: keeping all five is scoring now).
        """
        st = self.state
        _check(st, Hold(tuple(held)))
        if all(held):
            raise IllegalMoveError("keeping all five dice is scoring them: name the box")
        assert st.dice is not None  # _check: the dice are rolled
        faces = sorted(d for d, h in zip(st.dice, held) if h)
        self._do({"player": self.current, "keep": faces})
        return tuple(faces)

    def score(self, box: int) -> Event:
        """Score the dice in box ``box`` (index).  Returns the engine's event."""
        _check(self.state, Score(box))
        return self._do({"player": self.current, "score": int(box)})

    def undo(self) -> dict[str, Any]:
        """Take back the last action of the game (anyone's); returns it.

        Raises
        ------
        IllegalMoveError
            If nothing has been played.
        """
        if not self.actions:
            raise IllegalMoveError("nothing to undo")
        last = self.actions[-1]
        again = CoachGame(self.rules, self.players)
        for a in self.actions[:-1]:
            again._do(a)
        self.states, self.actions, self._scores = again.states, again.actions, again._scores
        return last

    def _do(self, a: dict[str, Any]) -> Event:
        p = a["player"]
        if p != self.current:
            raise IllegalMoveError(f"it is {self.players[self.current]}'s turn, not {self.players[p]}'s")
        st = self.state
        if "roll" in a:
            src = st.rng
            assert isinstance(src, TypedDice)  # every coached card rolls typed dice
            src.pending = tuple(a["roll"])
            ev = st.apply_action(Roll())
        elif "keep" in a:
            ev = st.apply_action(Hold(positions_of(st.dice or (), a["keep"], st.held)))
        else:
            ev = st.apply_action(Score(a["score"]))
            self._scores += 1
        self.actions.append(a)
        return ev

    # -- saving ---------------------------------------------------------------------------
    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {"format": COACH_FORMAT, "version": COACH_VERSION, "rules": self.rules.name,
                "players": list(self.players), "lang": lang, "actions": [dict(a) for a in self.actions]}

    @classmethod
    def from_dict(cls, data: Any) -> CoachGame:
        """The game :meth:`to_dict` wrote, every action replayed through the engine.

        Raises
        ------
        SavedGameError
            If the data is not a coach game of this version, or an action is malformed or illegal.
        """
        if not isinstance(data, dict) or data.get("format") != COACH_FORMAT:
            raise SavedGameError("not a coach game")
        if not version_ok(data.get("version"), COACH_VERSION):
            raise SavedGameError(version_problem("coach game", data.get("version"), COACH_VERSION))
        players, actions = data.get("players"), data.get("actions")
        if not (isinstance(players, list) and players and all(isinstance(p, str) for p in players)):
            raise SavedGameError(f"invalid players {str(players)[:60]!r}: want a list of names")
        if not isinstance(actions, list):
            raise SavedGameError(f"invalid actions {str(actions)[:60]!r}: want a list")
        try:
            game = cls(data["rules"], parse_players(",".join(players)))
            for a in actions:
                game._do(_action(a, len(game.players)))
        except SavedGameError:
            raise
        except (YahtzeeError, KeyError, TypeError, ValueError, AttributeError) as e:
            raise SavedGameError(f"the saved coach game does not replay ({e})") from None
        return game


def _faces(faces: Iterable[int]) -> str:
    return "".join(map(str, faces)) or "-"


def _check(st: GameState, action: Action) -> None:
    why = st.problem(action)
    if why is not None:
        raise MoveError(*why)


def _whole(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"{v!r} is not a whole number")
    return v


def _action(a: Any, n_players: int) -> dict[str, Any]:
    """One saved action, checked for shape (the engine checks that it is legal)."""
    if not isinstance(a, dict) or len(a) != 2 or "player" not in a:
        raise ValueError("malformed action")
    p = _whole(a["player"])
    if not 0 <= p < n_players:
        raise ValueError(f"no player {p}")
    if "roll" in a or "keep" in a:
        kind = "roll" if "roll" in a else "keep"
        faces = [_whole(x) for x in a[kind]]
        if any(not 1 <= x <= 6 for x in faces) or len(faces) > N_DICE:
            raise ValueError(f"bad dice {faces!r}")
        return {"player": p, kind: faces}
    if "score" in a:
        return {"player": p, "score": _whole(a["score"])}
    raise ValueError("malformed action")


def save(game: CoachGame, path: str | os.PathLike[str] | None = None, lang: str = "en") -> Path:
    """Write the game atomically (:func:`~yahtzee_solver.files.write_json_atomic`) to ``path`` (default :func:`coach_path`).

    Raises
    ------
    DataFileError
        If it cannot be written (the file is then unchanged).
    """
    return write_json_atomic(Path(path) if path is not None else coach_path(), game.to_dict(lang))


def load(path: str | os.PathLike[str] | None = None) -> tuple[CoachGame, str]:
    """The saved game and its language.

    Raises
    ------
    NothingToResumeError
        If there is no saved game (a usage error, as ``play --resume`` with none).
    DataFileError
        If it is unreadable, does not replay, or names a language other than en, zh and ja.
    """
    path = Path(path) if path is not None else coach_path()
    if not path.exists():
        raise NothingToResumeError("coach game", "coach")
    try:
        data = read_json(path)
    except (OSError, ValueError, YahtzeeError) as e:
        raise DataFileError(f"coach game {str(path)!r} is unreadable ({e})") from None
    try:
        game = CoachGame.from_dict(data)
        lang = data.get("lang", "en") if isinstance(data, dict) else "en"  # a save without one: English
        if lang not in LANGS:  # was read as English and saved back so, the language written lost
            raise SavedGameError(f"invalid lang {clip(repr(lang), 40)}: want {', '.join(LANGS)}")
    except SavedGameError as e:
        raise DataFileError(f"coach game {str(path)!r} is damaged: {e}") from None
    return game, lang


def before_new(path: str | os.PathLike[str] | None = None) -> tuple[CoachGame | None, str | None]:
    """What a new game is about to replace in ``path`` (default :func:`coach_path`), made safe to replace.

    A save that cannot be read or replayed is renamed aside
    (:func:`~yahtzee_solver.files.set_aside`), never overwritten: it may be
    mended by hand.

    Returns
    -------
    (CoachGame or None, str or None)
        The saved game (``None`` when there is none, or it was damaged) and,
        when a damaged save was moved aside, the one-line message saying where.

    Raises
    ------
    DataFileError
        If a damaged save cannot be renamed.
    """
    path = Path(path) if path is not None else coach_path()
    if not path.exists():
        return None, None
    try:
        game, _ = load(path)
    except DataFileError as e:
        moved = set_aside(path)
        return None, f"{e}; moved to {str(moved)!r}"
    return game, None


def file_finished(game: CoachGame, path: str | os.PathLike[str] | None = None,
                  history_file: str | os.PathLike[str] | None = None) -> tuple[int | None, str | None]:
    """File a finished game into the game history as one game of its table, and delete the save.

    The entry (:meth:`~yahtzee_solver.play.history.HistoryEntry.of_table`) keeps
    the players' names and every player's moves (:meth:`CoachGame.table_log`),
    so that ``review`` shows every player by name.

    Returns
    -------
    (int or None, str or None)
        The game's number in the history (``None`` if it could not be filed:
        the save is then kept), and the history's problem, if any.

    Raises
    ------
    UsageError
        If the game is not over.
    """
    from .history import HistoryEntry, add_entry

    if not game.is_over():
        raise UsageError("the game is not over: only finished games go into the history")
    entry = HistoryEntry.of_table(game.rules.name, game.players, game.table_log(), game.totals())
    try:
        number, problem = add_entry(entry, history_file)
    except DataFileError as e:
        return None, str(e)
    p = Path(path) if path is not None else coach_path()
    try:
        os.unlink(p)
    except FileNotFoundError:
        pass
    return number, problem


# -- advice and the cost of a move (the same ranking as play's hint) ---------------------------------------
def ranking(card: ScoreCard, dice: Iterable[int], rolls_left: int,
            advisor: Advisor) -> Sequence[KeepOption] | Sequence[BoxOption]:
    """The ranked options at a position: keeps (:class:`~yahtzee_solver.strategy.advisor.KeepOption`,
    keeping all five = scoring now) while rerolls are left, else boxes
    (:class:`~yahtzee_solver.strategy.advisor.BoxOption`); as ``play``'s hint."""
    return advisor.hint(card, tuple(sorted(dice)), rolls_left)


def judge(game: CoachGame, advisor: Advisor, *, keep: Iterable[int] | None = None,
          box: int | None = None) -> tuple[float, KeepOption | BoxOption, KeepOption | BoxOption]:
    """What a keep (faces) or a box the player to move is about to choose costs, before it is played.

    Returns
    -------
    (float, object, object)
        The loss (expected points against the best move the position allows:
        with rerolls left a box is compared with every keep, rolling on
        included), the best option and the chosen one (advisor results).
    """
    st = game.state
    assert st.dice is not None  # a move to judge: the dice are rolled
    card, dice = st.cards[0], tuple(sorted(st.dice))
    rl = st.rerolls_left if st.rolls_used < 3 else 0
    opts = ranking(card, dice, rl, advisor)
    best = opts[0]
    if keep is not None:
        k = tuple(sorted(keep))
        kept = next(o for o in opts if isinstance(o, KeepOption) and o.keep == k)
        return kept.loss, best, kept
    if rl == 0:
        boxed = next(o for o in opts if isinstance(o, BoxOption) and o.category == box)
        return boxed.loss, best, boxed
    chosen = next(o for o in advisor.box_options(card, dice) if o.category == box)
    return max(best.expected - chosen.expected, 0.0), best, chosen


# -- the mistake note of a keep or box (the terminal's and the web page's) ----------------------------------
class Mistake:
    """What a keep or box about to be played costs, with the mover's chance of finishing first.

    Attributes
    ----------
    loss : float
        Expected points lost against the best move (:func:`judge`).
    best : KeepOption or BoxOption
        The best move of the position.
    before, after : float or None
        The mover's chance of finishing first (probability) before the move
        and after it (then ``expert`` play); ``None`` when the chances are not
        shown (one player, or cards too open, see
        :class:`~yahtzee_solver.strategy.win_chances.TableOdds`).
    """

    __slots__ = ("loss", "best", "before", "after")

    def __init__(self, loss: float, best: KeepOption | BoxOption, before: float | None, after: float | None) -> None:
        self.loss: float = loss
        self.best: KeepOption | BoxOption = best
        self.before: float | None = before
        self.after: float | None = after


def mistake(game: CoachGame, advisor: Advisor, odds: TableOdds, *, keep: Iterable[int] | None = None,
            box: int | None = None) -> Mistake | None:
    """The note for a keep (faces) or a box the player to move is about to choose: ``None`` for a best
    move that leaves the chance of finishing first unchanged (to 5e-5), else its :class:`Mistake`."""
    kept = tuple(sorted(keep)) if keep is not None else None
    loss, best, _ = judge(game, advisor, keep=kept, box=box)
    st = game.state
    assert st.dice is not None  # judged after a roll
    rl = st.rerolls_left if st.rolls_used < 3 else 0
    before: float | None = None
    after: float | None = None
    wc = odds(game.cards, game.current, tuple(sorted(st.dice)), rl, boxes=box is not None)
    if wc.shown:
        before = wc.players[game.current]
        key = kept if kept is not None else box
        after = wc.options.get(key) if key is not None else None
    if loss <= 1e-9 and (after is None or before is None or abs(after - before) < 5e-5):
        return None
    if before is None or after is None:
        before = after = None
    return Mistake(loss, best, before, after)


def best_text(tr: Translator, rules: RuleSet, best: KeepOption | BoxOption) -> str:
    """The best move in the words of the mistake note (keys ``coach.best_*``), for the terminal and the page."""
    if isinstance(best, KeepOption):
        if best.score is not None:
            return tr("coach.best_stop", box=tr.box(rules, best.score.category))
        if not best.keep:
            return tr("coach.best_reroll_all")
        return tr("coach.best_keep", keep=" ".join(map(str, best.keep)))
    return tr.box(rules, best.category)


def undone_text(tr: Translator, game: CoachGame, action: dict[str, Any]) -> str:
    """What an undo took back, in ``tr``'s language: ``action`` as :meth:`CoachGame.undo` returns it."""
    p = game.players[action["player"]]
    if "roll" in action:
        what = tr("coach.what_roll", player=p, dice=" ".join(map(str, action["roll"])))
    elif "keep" in action:
        what = tr("coach.what_keep", player=p, keep=" ".join(map(str, action["keep"])) or "-")
    else:
        what = tr("coach.what_score", player=p, box=tr.box(game.rules, action["score"]))
    return tr("coach.undone", what=what)
