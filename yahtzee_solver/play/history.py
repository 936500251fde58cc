"""The game history: every finished game of ``play``, with its move log, for review.

One JSON file, ``history.json`` in the data folder (:func:`yahtzee_solver.play.records.data_dir`)::

    {"format": "yahtzee_solver game history", "version": 1,
     "games": [{"date": "2026-11-30T21:40:00Z", "rules": "yahtzee", "opponent": "solo",
                "first": 0, "seed": 7, "scores": [231], "result": "solo", "log": [...]}, ...]}

``log`` is the game's full move log (:class:`yahtzee_solver.game.Event`
dicts); on load it is replayed turn by turn and must give the scores.

A game of the coach (``yahtzee-solve coach``: real dice, one or more players
at a table) is one entry with ``"opponent": "coach"``, the players' names in
seating order (``"names": ["Ann", "Bob"]``), one score per player, ``"result":
"table"``, seed 0 (the dice are the players' own) and every player's events in
one log, each naming its player by seat.  The format version is still 1: an
entry without ``names`` reads as before, and a version that does not know
coach entries reports them as damaged, keeps them in the file unchanged and
reviews the other games.  Games are numbered 1, 2, ... in the
order played; the history keeps the last :data:`MAX_GAMES` (older games are
dropped when a new one is added).

Like the records: written atomically (temp file + rename), read with a size
bound, and a file unreadable as a whole is moved aside as
``history.json.corrupt-<timestamp>`` and reported (:attr:`History.problem`),
never silently dropped.  A damaged entry only costs that game: it is reported,
skipped by the review and kept in the file as it was (:class:`DamagedEntry`).
A file written by a newer version is refused and left as it is.
"""

from __future__ import annotations

import json
import os
import stat
import time
import unicodedata
from datetime import datetime
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import DataFileError, SavedGameError, UsageError, YahtzeeError
from ..game import GameState
from ..files import NumberTooLongError, data_dir, json_int, set_aside, version_ok, version_problem, write_json_atomic
from .savegame import SavedLog, saved_log

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..game import Event

__all__ = ["HISTORY_FORMAT", "HISTORY_VERSION", "MAX_GAMES", "MAX_HISTORY_BYTES", "COACH", "HistoryEntry",
           "DamagedEntry", "History", "HistoryProblem",
           "history_path", "add_finished_game", "add_entry", "load_game_file", "player_key"]

HISTORY_FORMAT = "yahtzee_solver game history"
HISTORY_VERSION = 1

#: Games kept (the oldest are dropped beyond this).
MAX_GAMES = 200

#: Largest history or game file read (bytes); a finished two-player game is about 30 KiB.
MAX_HISTORY_BYTES = 16 * 1024 * 1024

_RESULTS = ("solo", "win", "loss", "draw", "table")

#: The opponent field of a coach game (players at a table, real dice).
COACH = "coach"
#: Most players at one coach table, and the longest name (characters).
MAX_PLAYERS, MAX_NAME = 8, 20


def player_key(name: str) -> str:
    """The form two player names are compared in: NFKC-normalised, case-folded, surrounding spaces dropped.

    ``Ann``, ``ann`` and the full-width ``Ａｎｎ`` have one key: what a player types is
    NFKC-normalised before it is read (:func:`yahtzee_solver.tui.prompt.normalize`), so
    such names cannot be told apart at the table.  Both the duplicate check of a
    table's names and every lookup of a player by name compare these keys.
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", str(name)).casefold()).strip()


def history_path() -> Path:
    """``history.json`` in the data folder."""
    return data_dir() / "history.json"


@dataclass(frozen=True)
class HistoryEntry:
    """One finished game.

    Attributes
    ----------
    date : str
        When it ended (UTC, ISO 8601).
    rules : str
    opponent : str
        ``solo``, a CPU level, or ``coach`` (a coach game: :data:`COACH`).
    first : int
        Who began each round: 0 = the player, 1 = the CPU (0 for a coach game: the first name).
    seed : int
        0 for a coach game (its dice are the players').
    scores : tuple of int
        Final totals: the player's, then the CPU's; a coach game's in seating order.
    result : str
        ``solo``, or ``win``, ``loss``, ``draw`` for the player; ``table`` for a coach game.
    log : tuple of game.Event
        Every action of the game (:attr:`yahtzee_solver.game.GameState.log`; a coach game's
        players by seat).
    names : tuple of str or None
        A coach game's players, in seating order; ``None`` otherwise.
    """

    date: str
    rules: str
    opponent: str
    first: int
    seed: int
    scores: tuple[int, ...]
    result: str
    log: tuple[Event, ...] = field(repr=False, compare=False)
    names: tuple[str, ...] | None = None

    @classmethod
    def of_table(cls, rules: str, names: Sequence[str], log: Sequence[Event], scores: Sequence[int],
                 date: str | None = None) -> HistoryEntry:
        """The entry of a finished coach game: the players' names, final totals and merged move log.

        Raises
        ------
        SavedGameError
            If the entry would not load back (:meth:`from_dict`: the log must replay to the scores).
        """
        entry = cls(date or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), rules, COACH, 0, 0,
                    tuple(int(x) for x in scores), "table", tuple(log), tuple(names))
        cls.from_dict(entry.to_dict())  # the same checks as on load
        return entry

    @classmethod
    def of(cls, state: GameState, date: str | None = None) -> HistoryEntry:
        """The entry of a finished game.

        Raises
        ------
        UsageError
            If the game is not over.
        """
        if not state.is_terminal():
            raise UsageError("the game is not over: only finished games go into the history")
        opp = "solo" if state.config.opponent == "none" else state.config.opponent
        scores = tuple(int(x) for x in state.totals())
        return cls(date or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), state.rules.name, opp,
                   int(state.config.first), int(state.config.seed), scores, _result(scores), tuple(state.log))

    @property
    def players(self) -> int:
        """The number of players: 1 (solitaire), 2 (against a CPU), a coach game's table."""
        return len(self.scores)

    @property
    def is_table(self) -> bool:
        """A coach game (players named at a table)."""
        return self.names is not None

    def seat_names(self, you: str = "You", cpu: str = "CPU") -> tuple[str, ...]:
        """The players' names in seating order: a coach game's, else ``(you,)`` or ``(you, cpu)``."""
        if self.names is not None:
            return self.names
        return (you,) if self.players == 1 else (you, cpu)

    def to_dict(self) -> dict[str, Any]:
        d = {"date": self.date, "rules": self.rules, "opponent": self.opponent, "first": self.first,
             "seed": self.seed, "scores": list(self.scores), "result": self.result,
             "log": [e.to_dict() for e in self.log]}
        if self.names is not None:
            d["names"] = list(self.names)
        return d

    @classmethod
    def from_dict(cls, d: Any) -> HistoryEntry:
        """Validate and restore one entry: the log must replay, turn by turn, to the scores.

        Raises
        ------
        SavedGameError
            If the entry is malformed (a date that is not an ISO 8601 date and time
            among them), of unknown rules, or its log is not a legal finished game
            with these scores.
        """
        from ..game import OPPONENTS, Event
        from ..analysis.review import replay, turns_from_log
        from ..rules import RULESETS

        if not isinstance(d, dict):
            raise SavedGameError("a history entry is not an object")
        date, rules, opp = d.get("date"), d.get("rules"), d.get("opponent")
        if date is None or date == "":
            raise SavedGameError("a history entry has no date")
        if not isinstance(date, str):
            raise SavedGameError(f"a history entry's date {_clip(repr(date), 40)} is not a text date "
                                 "(like \"2026-12-03T14:05:00Z\")")
        if len(date) > 40:
            raise SavedGameError(f"a history entry's date {_clip(repr(date), 40)} is too long for a date")
        if not _iso_date(date):
            raise SavedGameError(f"a history entry's date {_clip(repr(date), 40)} is not an ISO 8601 date and time "
                                 "(like \"2026-12-03T14:05:00Z\")")
        if not isinstance(rules, str) or rules not in RULESETS:
            shown = f" {rules[:40]!r}" if isinstance(rules, str) else ""
            raise SavedGameError(f"a history entry has unknown rules{shown}")
        if opp not in ("solo", COACH) + tuple(o for o in OPPONENTS if o != "none"):
            raise SavedGameError(f"a history entry has an unknown opponent {_clip(repr(opp), 40)}")
        first: Any
        first, seed, scores, log = d.get("first"), d.get("seed"), d.get("scores"), d.get("log")
        names = _names(d.get("names"), opp)
        n = len(names) if names is not None else 1 if opp == "solo" else 2
        if first not in range(n) or isinstance(first, bool):
            raise SavedGameError(f"a history entry has an invalid first player {_clip(repr(first), 20)}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise SavedGameError("a history entry has an invalid seed")
        if not isinstance(scores, list) or len(scores) != n or not all(type(x) is int for x in scores):
            raise SavedGameError("a history entry has invalid scores")
        if not isinstance(log, list):
            raise SavedGameError("a history entry has no move log")
        try:
            events = tuple(Event.from_dict(e) for e in log)
        except (TypeError, KeyError, ValueError, AttributeError, OverflowError):
            raise SavedGameError("a history entry's move log has a malformed event") from None
        if any(not 0 <= e.player < n for e in events):
            raise SavedGameError(f"a history entry's move log has a player outside the {n} of the game")
        for p in range(n):
            try:
                card = replay(turns_from_log(events, p), rules)
            except YahtzeeError as e:
                raise SavedGameError(f"a history entry's move log is not a legal game ({_clip(e, 80)})") from None
            except (TypeError, KeyError, ValueError, AttributeError, IndexError, OverflowError):
                raise SavedGameError("a history entry's move log is not a legal game") from None
            if not card.is_full or card.total != scores[p]:
                raise SavedGameError(f"a history entry's log does not give its scores {scores}")
        if d.get("result") != ("table" if names is not None else _result(tuple(scores))):
            raise SavedGameError("a history entry's result does not match its scores")
        return cls(date, rules, opp, first, seed, tuple(scores), d["result"], events, names)


def _iso_date(text: str) -> bool:
    """Whether ``text`` is an ISO 8601 date, with or without a time (``2026-12-03T14:05:00Z``, as written)."""
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


def _names(raw: Any, opponent: Any) -> tuple[str, ...] | None:
    """A coach game's player names, checked as ``coach --players`` checks them; ``None`` for other games."""
    if opponent != COACH:
        if raw is not None:
            raise SavedGameError("a history entry has player names but is not a coach game")
        return None
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_PLAYERS:
        raise SavedGameError(f"a coach game in the history has no list of 1-{MAX_PLAYERS} player names")
    if not all(isinstance(x, str) and 0 < len(x) <= MAX_NAME and x.isprintable() and x == x.strip() for x in raw):
        raise SavedGameError("a coach game in the history has an invalid player name")
    if len({player_key(x) for x in raw}) != len(raw):
        raise SavedGameError("a coach game in the history names a player twice")
    return tuple(raw)


@dataclass(frozen=True)
class DamagedEntry:
    """A history entry that does not load: kept in the file as it was, skipped by the review.

    Attributes
    ----------
    raw : object
        The entry as read from the file (written back unchanged).
    reason : str
        What is wrong with it, in words.
    """

    raw: object = field(repr=False)
    reason: str

    def to_dict(self) -> object:
        return self.raw


def _result(scores: tuple[int, ...]) -> str:
    if len(scores) == 1:
        return "solo"
    return "win" if scores[0] > scores[1] else "loss" if scores[0] < scores[1] else "draw"


def _read(path: Path) -> Any:
    """JSON of ``path`` with the size bound; FileNotFoundError, ValueError (unusable), DataFileError (unreadable)."""
    try:
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            raise DataFileError(f"cannot read {str(path)!r}: it is a directory")
        if not stat.S_ISREG(st.st_mode):
            raise ValueError("not a regular file")
        if st.st_size > MAX_HISTORY_BYTES:
            raise ValueError(f"larger than {MAX_HISTORY_BYTES // 2**20} MiB")
        with open(path, "rb") as f:
            raw = f.read(MAX_HISTORY_BYTES + 1)
    except (FileNotFoundError, DataFileError):
        raise
    except NotADirectoryError:
        raise DataFileError(f"data folder {str(path.parent)!r} is not a directory") from None
    except OSError as e:
        raise DataFileError(f"cannot read {str(path)!r}: {e.strerror or e}") from None
    if len(raw) > MAX_HISTORY_BYTES:
        raise ValueError(f"larger than {MAX_HISTORY_BYTES // 2**20} MiB")
    try:
        return json.loads(raw.decode("utf-8"), parse_int=json_int)
    except RecursionError:
        raise ValueError("not valid JSON: nested too deeply") from None
    except NumberTooLongError:
        raise  # valid JSON, said in plain words
    except (UnicodeDecodeError, ValueError) as e:
        raise ValueError(f"not valid JSON: {_clip(e)}") from None


def _clip(text: object, limit: int = 120) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _newer(data: object) -> bool:
    v = data.get("version") if isinstance(data, dict) else None
    return isinstance(v, int) and not isinstance(v, bool) and v > HISTORY_VERSION


class HistoryProblem(str):
    """A warning about the history file: the English text, with its message key and fields for a translation.

    A ``str`` (the English text) everywhere it is passed on; :attr:`key` names
    the message (``history.<key>`` in :data:`yahtzee_solver.i18n.text.MESSAGES`)
    and :attr:`fields` fills it in (:meth:`yahtzee_solver.i18n.Translator.history_problem`).
    """

    key: str
    fields: dict[str, Any]

    def __new__(cls, key: str, text: str, **fields: Any) -> HistoryProblem:
        self = super().__new__(cls, text)
        self.key, self.fields = key, fields
        return self


@dataclass
class History:
    """The game history (oldest game first).

    Attributes
    ----------
    entries : list of HistoryEntry or DamagedEntry
        Every game kept, numbered from 1; a damaged entry keeps its place (and
        the numbers of the games after it) and is written back unchanged.
    path : Path
    problem : HistoryProblem (a str) or None
        Set by :meth:`load` when the file was unreadable as a whole and was
        moved aside, or when some of its entries are damaged and skipped.
    """

    entries: list[HistoryEntry | DamagedEntry] = field(default_factory=list)
    path: Path | None = None
    problem: str | None = None

    @classmethod
    def load(cls, path: str | os.PathLike[str] | None = None) -> History:
        """Read the history (default :func:`history_path`); empty if there is no file.

        A damaged entry is kept as a :class:`DamagedEntry` (the other games stay
        reviewable) and reported in :attr:`problem`.  Only a file unreadable as a
        whole (not JSON, not a history, no list of games) is moved aside, an
        empty history returned and :attr:`problem` set.

        Raises
        ------
        DataFileError
            If the file cannot be read or moved aside, or was written by a newer
            version (it is then left untouched).
        """
        path = Path(path) if path is not None else history_path()
        h = cls(path=path)
        try:
            data = _read(path)
            if _newer(data):
                raise DataFileError(
                    f"history file {str(path)!r} is format version {data['version']}, this version reads "
                    f"{HISTORY_VERSION}: upgrade yahtzee-solver (the file is left as it is)"
                )
            if not isinstance(data, dict) or data.get("format") != HISTORY_FORMAT:
                raise ValueError("not a yahtzee_solver game history")
            if not version_ok(data.get("version"), HISTORY_VERSION):
                raise ValueError(version_problem("history", data.get("version"), HISTORY_VERSION))
            games = data.get("games")
            if not isinstance(games, list):
                raise ValueError("no list of games")
        except FileNotFoundError:
            return h
        except DataFileError:
            raise
        except (ValueError, YahtzeeError) as e:  # all raised above with a message in words
            moved = set_aside(path)
            fields: dict[str, Any] = {"path": repr(str(path)), "reason": _clip(e), "moved": repr(str(moved))}
            h.problem = HistoryProblem("unreadable", f"history file {fields['path']} is unreadable as a whole "
                                       f"({fields['reason']}); moved to {fields['moved']}, starting a new history",
                                       **fields)
            return h
        h.entries = [_entry(g) for g in games]
        damaged = [(i + 1, e.reason) for i, e in enumerate(h.entries) if isinstance(e, DamagedEntry)]
        if damaged:
            numbers = ", ".join(str(n) for n, _ in damaged[:10]) + (", ..." if len(damaged) > 10 else "")
            which = f"game {numbers} is" if len(damaged) == 1 else f"games {numbers} are"
            fields = {"path": repr(str(path)), "numbers": numbers, "first": damaged[0][0],
                      "reason": _clip(damaged[0][1], 100)}
            h.problem = HistoryProblem("damaged_one" if len(damaged) == 1 else "damaged_many",
                                       f"history file {fields['path']}: {which} damaged and skipped (game "
                                       f"{fields['first']}: {fields['reason']}); the other games can be reviewed",
                                       **fields)
        return h

    def last_number(self) -> int | None:
        """The number of the last game that can be reviewed, or None."""
        for i in range(len(self.entries), 0, -1):
            if isinstance(self.entries[i - 1], HistoryEntry):
                return i
        return None

    def save(self) -> Path:
        """Write the history atomically (the last :data:`MAX_GAMES` games).

        Raises
        ------
        DataFileError
            If it cannot be written (the old file is left intact).
        """
        self.entries = self.entries[-MAX_GAMES:]
        data = {"format": HISTORY_FORMAT, "version": HISTORY_VERSION, "games": [e.to_dict() for e in self.entries]}
        return write_json_atomic(self.path or history_path(), data)

    def get(self, number: int) -> HistoryEntry:
        """Game ``number`` (1 = the oldest kept).

        Raises
        ------
        UsageError
            If there is no such game.
        DataFileError
            If that game's entry is damaged.
        """
        n = len(self.entries)
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= n:
            have = f"games 1-{n}" if n > 1 else ("game 1" if n == 1 else "no games yet")
            raise UsageError(f"no game number {number!r} in the history ({have})")
        entry = self.entries[number - 1]
        if isinstance(entry, DamagedEntry):
            raise DataFileError(f"game {number} in the history {str(self.path or history_path())!r} is damaged "
                                f"({_clip(entry.reason, 100)}) and cannot be reviewed")
        return entry


def add_finished_game(state: GameState, path: str | os.PathLike[str] | None = None) -> tuple[int, str | None]:
    """Append a finished game to the history and save it.

    Idempotent: a game already in the history (same rules, opponent, seed and
    move log -- e.g. filed again after a run stopped between writing the history
    and the records) is not added twice.

    Returns
    -------
    (int, str or None)
        The game's number in the history, and :attr:`History.problem` (a corrupt
        history moved aside), if any.

    Raises
    ------
    UsageError
        If the game is not over.
    DataFileError
        If the history cannot be read (a newer version's file) or written.
    """
    return add_entry(HistoryEntry.of(state), path)


def add_entry(entry: HistoryEntry, path: str | os.PathLike[str] | None = None) -> tuple[int, str | None]:
    """Append a finished game's entry to the history and save it (idempotent, as :func:`add_finished_game`).

    Returns
    -------
    (int, str or None)
        The game's number in the history, and :attr:`History.problem`, if any.

    Raises
    ------
    DataFileError
        If the history cannot be read (a newer version's file) or written.
    """
    h = History.load(path)
    same = _identity(entry)
    for i, e in enumerate(h.entries):
        if isinstance(e, HistoryEntry) and _identity(e) == same:
            return i + 1, h.problem
    h.entries.append(entry)
    h.save()
    return len(h.entries), h.problem


def _entry(d: Any) -> HistoryEntry | DamagedEntry:
    """One entry of the file, or a :class:`DamagedEntry` saying in words what is wrong with it."""
    try:
        return HistoryEntry.from_dict(d)
    except YahtzeeError as e:
        return DamagedEntry(d, str(e))
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, OverflowError):
        return DamagedEntry(d, "a history entry is malformed")
    except RecursionError:
        return DamagedEntry(d, "a history entry is nested too deeply")


def _identity(e: HistoryEntry) -> tuple[Any, ...]:
    return (e.rules, e.opponent, e.first, e.seed, e.scores, e.names,
            tuple(json.dumps(x.to_dict()) for x in e.log))


def load_game_file(path: str | os.PathLike[str]) -> SavedLog:
    """The rules, players and move log of a saved-game file (``game.json``, :func:`savegame.saved_log`).

    Unlike the data folder's files, a file named by the user is only read, never
    moved aside.  No seed is needed: a review replays the logged dice.

    Raises
    ------
    DataFileError
        If the file is missing, unreadable, not a game, from a newer version, or damaged.
    """
    path = Path(path)
    try:
        data = _read(path)
    except FileNotFoundError:
        raise DataFileError(f"no game file {str(path)!r}") from None
    except ValueError as e:
        raise DataFileError(f"game file {str(path)!r} is unreadable ({_clip(e)})") from None
    try:
        return saved_log(data)
    except SavedGameError as e:
        raise DataFileError(f"game file {str(path)!r}: {e}") from None
