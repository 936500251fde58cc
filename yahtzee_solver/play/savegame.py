"""The saved game: its format, where it lives, and the checks that make it trustworthy.

``game.json`` in the data folder (:func:`save_path`) holds the game in
progress as JSON (:func:`state_to_dict`): the game's id, its rules, opponent
and language, the cards, the dice, the counters and the move log (every
roll, hold and score, :class:`~yahtzee_solver.game.Event`).  It does not hold
the seed or the state of the dice generator: those stay in the records' side,
the ledger (:mod:`yahtzee_solver.play.ledger`), so the save does not tell which
dice come next.

A save is restored only by replaying its move log with the engine from the
ledger's seed (:func:`state_from_dict`): every event must come out the same
(dice, points, bonuses), the position reached must be the saved one, and
the game restored is exactly the one the ledger certifies -- as many actions
as it counted, with its HMAC digest.  A save that was edited, belongs to
another game, is ahead of the ledger, or is two or more actions older than
the game's last recorded action (a copy put back) is refused.

:class:`GameStore` writes both files after every action, the ledger first,
and reads them back.  So whichever write fails, the ledger is never behind
what the player was shown: if the ledger cannot be written nothing changed
on disk (the action is lost, and replaying it gives the same dice); if the
save cannot be written it is one action behind the ledger, and is completed
with the ledger's own copy of that action (``last``), reaching the certified
game.  (An undo, which shortens the log, writes the save first: see
:meth:`GameStore.save`.)  A save that cannot be restored is set aside
(:func:`~yahtzee_solver.files.set_aside`) and reported, never silently dropped.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from ..errors import CategoryError, DataFileError, IllegalMoveError, SavedGameError, ScoreCardError, YahtzeeError
from ..files import clip, data_dir, read_json, set_aside, version_ok, version_problem, write_json_atomic
from ..game import CPU, MAX_ROLLS, N_DICE, OPPONENTS, Event, GameState, Hold, Roll, Score, new_game
from .ledger import Ledger, LedgerEntry, _restore_generator, log_digest
from ..rules import RULESETS
from ..state import ScoreCard

__all__ = [
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "save_path",
    "state_to_dict",
    "state_from_dict",
    "SavedLog",
    "saved_log",
    "GameStore",
    "Opened",
]

SAVE_FORMAT = "yahtzee_solver saved game"
SAVE_VERSION = 2

#: Errors that mean "this data cannot be decoded or validated" (the file is corrupt).
_CORRUPT = (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError, RecursionError)


_UNSET = object()  # GameStore.update: leave the setting as it is


def save_path() -> Path:
    """``game.json`` (the game in progress) in :func:`~yahtzee_solver.files.data_dir`."""
    return data_dir() / "game.json"


# -- random generators -----------------------------------------------------------------------------
def _bit_generator_state(rng: np.random.Generator) -> dict[str, Any]:
    state: dict[str, Any] = _plain(rng.bit_generator.state)
    return state


def _plain(x: Any) -> Any:
    """numpy scalars/arrays in a bit-generator state -> JSON-safe Python values."""
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, np.ndarray):
        return [_plain(v) for v in x.tolist()]
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, np.integer):
        return int(x)
    return x


# -- the format -------------------------------------------------------------------------------
def state_to_dict(state: GameState, game_id: str = "", lang: str = "en") -> dict[str, Any]:
    """The game as JSON-safe data: position and move log, no seed and no generator state.

    Parameters
    ----------
    state : GameState
    game_id : str
        The ledger's id of the game (:class:`~yahtzee_solver.play.ledger.LedgerEntry`).
    lang : str
        Interface language the game is played in.
    """
    cfg = state.config
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "game_id": game_id,
        "lang": lang,
        "config": {"rules": cfg.rules.name, "opponent": cfg.opponent, "first": cfg.first},
        "cards": [c.to_dict() for c in state.cards],
        "current": state.current,
        "round": state.round,
        "dice": None if state.dice is None else list(state.dice),
        "held": list(state.held),
        "rolls_used": state.rolls_used,
        "log": [e.to_dict() for e in state.log],
    }


def _action(ev: Event) -> Roll | Hold | Score:
    if ev.kind == "roll":
        return Roll()
    if ev.kind == "hold":
        return Hold(ev.held)
    if ev.kind == "score":
        return Score(ev.category)
    raise SavedGameError(f"saved game is damaged (unknown action {clip(ev.kind, 20)!r})")


def _check_format(data: object) -> None:
    """Raise :class:`SavedGameError` unless ``data`` is a save of this format and version."""
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SavedGameError("not a yahtzee_solver saved game")
    if not version_ok(data.get("version"), SAVE_VERSION):
        raise SavedGameError(version_problem("saved game", data.get("version"), SAVE_VERSION))


def _check_rules(name: object) -> str:
    """``name`` if it is a known rule set's name, else :class:`SavedGameError`."""
    if not isinstance(name, str) or name not in RULESETS:
        shown = f" {name[:40]!r}" if isinstance(name, str) else ""
        raise SavedGameError(f"saved game has unknown rules{shown}")
    return name


def state_from_dict(data: Any, entry: LedgerEntry) -> GameState:
    """Restore a game written by :func:`state_to_dict` by replaying its moves from the ledger's seed.

    Parameters
    ----------
    data : object
        The parsed save.
    entry : LedgerEntry
        The ledger's entry of the game in progress.

    Raises
    ------
    SavedGameError
        For data of another format or version, unknown rules or opponent,
        impossible cards, dice or counters; a save of another game; a move
        log that does not match the ledger (edited, or older than the game's
        last recorded action); or a replay that does not reach the saved
        dice, scores, totals and position.
    """
    _check_format(data)
    try:
        cfg = data["config"]
        _check_rules(cfg["rules"])
        if data.get("game_id") != entry.game_id:
            raise SavedGameError("saved game is not the game in progress in the records (another game's id)")
        if (cfg["rules"], cfg["opponent"], cfg["first"]) != (entry.rules, entry.opponent, entry.first):
            raise SavedGameError("saved game's rules, opponent or first player differ from the records")
        state = new_game(entry.rules, entry.opponent, "cpu" if entry.first == CPU else "me", entry.seed)
        rules = state.rules
        saved = GameState(
            state.config, state.rng, state.cpu_rng,
            [ScoreCard.from_mapping(c, rules) for c in data["cards"]],
            data["current"], data["round"],
            None if data["dice"] is None else tuple(data["dice"]), tuple(data["held"]), data["rolls_used"],
            [Event.from_dict(e) for e in data["log"]],
        )
        log_dicts = [e.to_dict() for e in saved.log]
    except SavedGameError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError, RecursionError,
            ScoreCardError, CategoryError) as e:
        raise SavedGameError(f"saved game is damaged ({type(e).__name__}: {clip(e, 120)})") from None
    _check(saved)
    n = len(log_dicts)
    missing = []  # the certified actions the save lacks (its write failed after the ledger's)
    if n == entry.counter - 1 and entry.last is not None:
        missing = [Event.from_dict(entry.last)]
    elif n < entry.counter:
        raise SavedGameError(f"saved game is older than the game's last recorded action "
                             f"({n} of {entry.counter} actions): a copy put back")
    elif n > entry.counter:
        raise SavedGameError(f"saved game has {n} actions, the records know of {entry.counter}")
    if log_digest(entry.key, log_dicts + [e.to_dict() for e in missing]) != entry.digest:
        raise SavedGameError("saved game's moves differ from the ones recorded (edited)")
    _replay(state, saved.log)
    if (state.cards, state.current, state.round, state.dice, state.held, state.rolls_used) != (
            saved.cards, saved.current, saved.round, saved.dice, saved.held, saved.rolls_used):
        raise SavedGameError("saved game's scores, dice or position do not follow from its moves")
    _replay(state, missing, first=n)
    if entry.cpu_rng is not None:
        state.cpu_rng = _restore_generator(entry.cpu_rng)
    return state


@dataclass(frozen=True)
class SavedLog:
    """What a saved game tells without the ledger: its rules, players and move log.

    Enough to review the moves played so far (:func:`yahtzee_solver.analysis.review.review_log`),
    not to resume: resuming needs the ledger's seed (:func:`state_from_dict`).

    Attributes
    ----------
    rules : str
        Rule-set name.
    opponent : str
        ``none`` (solitaire) or a CPU level.
    first : int
        Who began each round: 0 = the player, 1 = the CPU.
    log : tuple of game.Event
        Every action so far.
    """

    rules: str
    opponent: str
    first: int
    log: tuple[Event, ...]

    @property
    def n_players(self) -> int:
        """1 (solitaire) or 2."""
        return 1 if self.opponent == "none" else 2


def saved_log(data: Any) -> SavedLog:
    """The rules, players and move log of a save written by :func:`state_to_dict`.

    Raises
    ------
    SavedGameError
        For data of another format or version, unknown rules or opponent, or
        a damaged move log.  (Whether the moves are legal is checked by
        whoever replays them.)
    """
    _check_format(data)
    try:
        cfg = data["config"]
        name, opponent, first = _check_rules(cfg["rules"]), cfg["opponent"], cfg["first"]
        if opponent not in OPPONENTS:
            raise SavedGameError(f"saved game has an unknown opponent {clip(str(opponent), 20)!r}")
        if first not in (0, 1) or isinstance(first, bool):
            raise SavedGameError(f"saved game has an unknown first player {clip(str(first), 20)!r}")
        log = tuple(Event.from_dict(e) for e in data["log"])
    except SavedGameError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError, RecursionError) as e:
        raise SavedGameError(f"saved game is damaged ({type(e).__name__}: {clip(e, 120)})") from None
    return SavedLog(name, opponent, int(first), log)


def _check(state: GameState) -> None:
    """Raise :class:`SavedGameError` unless the restored state ``state`` is one a game can reach."""
    cfg = state.config

    def bad(what: str) -> NoReturn:
        raise SavedGameError(f"saved game is inconsistent: {what}")

    if len(state.cards) != cfg.n_players:
        bad(f"{len(state.cards)} cards for {cfg.n_players} player(s)")
    if any(c.rules != cfg.rules for c in state.cards):
        bad("a card of other rules")
    for name in ("current", "round", "rolls_used"):
        v = getattr(state, name)
        if isinstance(v, bool) or not isinstance(v, int):
            bad(f"{name} {v!r}")
    if state.current not in range(cfg.n_players):
        bad(f"player {state.current!r} to move")
    if not 0 <= state.rolls_used <= MAX_ROLLS:
        bad(f"rolls used {state.rolls_used!r}")
    if len(state.held) != N_DICE or not all(isinstance(h, bool) for h in state.held):
        bad(f"held dice {list(state.held)!r}")
    if state.rolls_used == 0:
        if state.dice is not None or any(state.held):
            bad("dice before the first roll")
    elif (
        state.dice is None
        or len(state.dice) != N_DICE
        or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in state.dice)
    ):
        bad(f"dice {state.dice!r}")
    # Boxes filled: players who have already played this round have one more.
    n = [bin(c.filled).count("1") for c in state.cards]
    if state.is_terminal():
        return
    if not 1 <= state.round <= cfg.n_turns:
        bad(f"round {state.round!r}")
    if cfg.n_players == 1:
        want = [state.round - 1]
    else:
        want = [state.round - 1] * 2
        if state.current != cfg.first:
            want[cfg.first] = state.round
    if n != want:
        bad(f"boxes filled {n} in round {state.round}")



def _replay(state: GameState, events: Iterable[Event], first: int = 0) -> None:
    """Apply the actions of ``events`` to ``state``, requiring each to produce the same event
    (``first``: the number of the first event in the game's log, less one, for the messages)."""
    for i, ev in enumerate(events, first):
        try:
            if ev.player != state.current:
                raise IllegalMoveError("not that player's turn")
            got = state.apply_action(_action(ev))
        except IllegalMoveError as e:
            raise SavedGameError(f"saved game's move {i + 1} is not legal ({clip(e, 80)})") from None
        if got != ev:
            raise SavedGameError(f"saved game's move {i + 1} does not replay (dice or points differ)")


def _orphan_entry(data: Any) -> LedgerEntry | None:
    """The game a save of this format names when the ledger has no entry for it (the ledger was deleted).

    Deleting ``ledger.json`` must not make a game against the CPU vanish: the
    save's own rules and opponent are taken (unverified) so that the game is
    still counted (a loss against the CPU, abandoned in solitaire).  ``None``
    for anything that is not a save of this version.
    """
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT or data.get("version") != SAVE_VERSION:
        return None
    cfg, game_id, lang = data.get("config"), data.get("game_id"), data.get("lang")
    if not isinstance(cfg, dict) or not isinstance(game_id, str) or not game_id:
        return None
    rules, opponent, first = cfg.get("rules"), cfg.get("opponent"), cfg.get("first")
    if not isinstance(rules, str) or rules not in RULESETS or not isinstance(opponent, str) \
            or opponent not in OPPONENTS or first not in (0, 1) or isinstance(first, bool):
        return None
    return LedgerEntry(game_id[:64], "00", 0, rules, opponent, first, lang if lang in ("en", "zh", "ja") else "en", 1,
                       "00")


# -- the files -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Opened:
    """What :meth:`GameStore.open` found.

    Attributes
    ----------
    status : str
        ``none`` (no game in progress), ``ok`` (a verified game: ``state``),
        ``missing`` (the records know of a game whose save is gone: ``entry``),
        ``refused`` (the save could not be restored or verified, or its game
        was counted already (:meth:`GameStore.refuse`): it was moved aside,
        ``problem`` says why and where; ``entry`` is the records' game, if any).
    state : GameState or None
    entry : LedgerEntry or None
    problem : str or None
    """

    status: str
    state: GameState | None = None
    entry: LedgerEntry | None = None
    problem: str | None = None


class GameStore:
    """The game in progress on disk: the save (``game.json``) and its ledger entry (``ledger.json``).

    Parameters
    ----------
    game_file : path, optional
        Default :func:`save_path`.
    ledger_file : path, optional
        Default ``ledger.json`` next to ``game_file``.

    Attributes
    ----------
    entry : LedgerEntry or None
        The ledger entry of the game being played (after :meth:`begin` or :meth:`open`).
    ledger : Ledger
    noted : (str, tuple of str, tuple or None) or None
        The game id, practice reasons and final score the records were last told of
        (:func:`yahtzee_solver.play.session.note_game`).
    note_problem : str or None
        Why the last try to tell them failed (said once).
    """

    def __init__(self, game_file: str | os.PathLike[str] | None = None, ledger_file: str | os.PathLike[str] | None = None):
        self.game_file: Path = Path(game_file) if game_file is not None else save_path()
        self.ledger: Ledger = Ledger(ledger_file if ledger_file is not None else self.game_file.with_name("ledger.json"))
        self.entry: LedgerEntry | None = None
        self.noted: tuple[str, tuple[str, ...], tuple[int, str | None] | None] | None = None
        self.note_problem: str | None = None

    @property
    def practice(self) -> tuple[str, ...]:
        """Why the game is practice (:data:`~yahtzee_solver.play.ledger.PRACTICE_REASONS`); empty for unaided play."""
        return self.entry.practice if self.entry is not None else ()

    @property
    def lang(self) -> str | None:
        return self.entry.lang if self.entry is not None else None

    def begin(self, state: GameState, *, lang: str = "en", practice: tuple[str, ...] = ()) -> None:
        """Record a new game in the ledger (a fresh id and key), then save it.

        Raises
        ------
        DataFileError
            If either file cannot be written.
        """
        cfg = state.config
        self.entry = LedgerEntry.new(seed=cfg.seed, rules=cfg.rules.name, opponent=cfg.opponent, first=cfg.first,
                                     lang=lang, practice=practice)
        if state.log:
            self.entry = self._counted(state)
        self.ledger.write(self.entry)
        self._write_save(state)

    def save(self, state: GameState) -> None:
        """Save the game after an action: the ledger's counter, digest and last action first, then the save.

        The ledger certifies the new position before the save holds it, so no
        failed write can leave a save ahead of the ledger: if the ledger
        cannot be written, both files keep the position before the action; if
        the save cannot be written, :meth:`open` completes it from the ledger.
        An undo (a log one action shorter than the ledger's) is written the
        other way round, the save first: if the ledger then cannot be written,
        the save is one action behind it and is completed with the score the
        undo took back -- the undo is lost, nothing is refused.

        Raises
        ------
        DataFileError
            If either file cannot be written (:attr:`entry` then stays as the ledger on disk has it,
            if the ledger's write failed).
        """
        entry = self._counted(state)
        assert self.entry is not None  # _counted checked it
        if entry.counter < self.entry.counter:  # an undo
            self._write_save(state)
            self.ledger.write(entry)
            self.entry = entry
            return
        self.ledger.write(entry)
        self.entry = entry
        self._write_save(state)

    @property
    def confirm_loss(self) -> float | None:
        """The game's ``--confirm-loss`` threshold (points), ``None`` when it never asks."""
        return self.entry.confirm_loss if self.entry is not None else None

    def update(self, *, practice: str | None = None, lang: str | None = None, confirm_loss: Any = _UNSET) -> None:
        """Mark the game as practice (``practice`` a reason), change its language or its ``--confirm-loss``
        threshold (a float, or ``None`` to stop asking), in the ledger."""
        e = self.entry
        assert e is not None, "no game begun or opened"
        if practice is not None:
            e = e.with_practice(practice)
        if lang is not None:
            e = replace(e, lang=lang)
        if confirm_loss is not _UNSET:
            e = replace(e, confirm_loss=None if confirm_loss is None else float(confirm_loss))
        if e != self.entry:
            self.entry = e
            self.ledger.write(e)

    def _counted(self, state: GameState) -> LedgerEntry:
        """:attr:`entry` certifying ``state``'s move log (count, digest, last action) and CPU generator."""
        log = [ev.to_dict() for ev in state.log]
        assert self.entry is not None and state.cpu_rng is not None, "no game begun or opened"
        return replace(self.entry, counter=len(log), digest=log_digest(self.entry.key, log),
                       cpu_rng=_bit_generator_state(state.cpu_rng), last=log[-1] if log else None)

    def _write_save(self, state: GameState) -> None:
        assert self.entry is not None, "no game begun or opened"
        write_json_atomic(self.game_file, state_to_dict(state, self.entry.game_id, self.entry.lang))

    def open(self) -> Opened:
        """Read and verify the game in progress (see :class:`Opened`).

        A save that fails is moved aside; the ledger entry is kept (the
        caller files the game, then calls :meth:`clear`).

        Raises
        ------
        DataFileError
            If a file exists but cannot be read, or cannot be moved aside.
        """
        entry = self.ledger.read()
        try:
            data = read_json(self.game_file)
        except FileNotFoundError:
            if entry is None:
                return Opened("none")
            if entry.counter == 0:  # started, but not a single action: nothing to count
                self.clear()
                return Opened("none")
            return Opened("missing", entry=entry)
        except DataFileError:
            raise
        except _CORRUPT as e:
            return self._refuse(e, entry)
        try:
            if entry is None:
                raise SavedGameError("the records have no game in progress (the ledger is missing)")
            state = state_from_dict(data, entry)
        except (*_CORRUPT, YahtzeeError) as e:
            return self._refuse(e, entry if entry is not None else _orphan_entry(data))
        self.entry = entry
        return Opened("ok", state=state, entry=entry)

    def refuse(self, why: str) -> Opened:
        """Set aside the save of the game :meth:`open` verified, for ``why`` (one lowercase line): the
        records will not have it resumed (they counted it already).  The ledger entry is kept, as
        :meth:`open` keeps it for a refused save (the caller files the game, then calls :meth:`clear`).

        Returns
        -------
        Opened
            ``refused``, with the entry of the game and the problem naming where the save went.

        Raises
        ------
        DataFileError
            If the save cannot be moved aside.
        """
        return self._refuse(SavedGameError(why), self.entry)

    def _refuse(self, e: Exception, entry: LedgerEntry | None) -> Opened:
        """Move the save aside; ``entry`` is the game to count for it (``None``: nothing to count)."""
        moved = set_aside(self.game_file)
        problem = f"saved game {str(self.game_file)!r} cannot be restored ({clip(e)}); moved to {str(moved)!r}"
        return Opened("refused", entry=entry, problem=problem)

    def clear(self) -> None:
        """Delete the save and empty the ledger (the game has been filed); no error if there is none.

        Raises
        ------
        DataFileError
            If the save cannot be removed or the ledger written.
        """
        try:
            self.game_file.unlink()
        except FileNotFoundError:
            pass
        except OSError as e:
            raise DataFileError(f"cannot remove {str(self.game_file)!r}: {e.strerror or e}") from None
        if self.ledger.path.exists():
            self.ledger.write(None)
        self.entry = None
