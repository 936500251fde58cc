"""The player's records: results per rule set and opponent, kept in ``records.json``.

The file lives in the data folder (:func:`~yahtzee_solver.files.data_dir`) and
is written atomically and validated on load (:mod:`yahtzee_solver.files`).  A
file that cannot be read -- not JSON, nested too deeply, larger than
:data:`~yahtzee_solver.files.MAX_FILE_BYTES`, not a regular file, or failing
validation -- is never silently dropped and never crashes the game: it is
renamed aside to ``<name>.corrupt-<timestamp>`` and the caller is told
(:attr:`RecordBook.problem`).

A finished game is written to the records before its saved game is deleted
(:func:`file_finished_game`); if the records cannot be written, the finished
game stays in ``game.json`` (:mod:`yahtzee_solver.savegame`) and is recorded
on the next run.

Records are kept per rule set and opponent (``solo`` or a CPU level): games,
best and average final score, wins, losses, draws, and games abandoned (a
saved game discarded by starting a new one).
"""

from __future__ import annotations

import os
import reprlib
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .errors import DataFileError
from .files import clip, data_dir, read_json, set_aside, write_json_atomic
from .game import GameState
from .rules import RULESETS
from .savegame import discard_game

__all__ = [
    "DataFileError",
    "records_path",
    "Record",
    "RecordUpdate",
    "RecordBook",
    "file_finished_game",
    "OPPONENT_KEYS",
]

RECORDS_FORMAT = "yahtzee_solver records"
RECORDS_VERSION = 1

#: Opponent keys of the records: ``solo`` or a CPU level (:attr:`GameConfig.opponent_key
#: <yahtzee_solver.game.GameConfig.opponent_key>`).
OPPONENT_KEYS = ("solo", "beginner", "normal", "expert")

#: Errors that mean "this data cannot be decoded or validated" (the file is corrupt).
_CORRUPT = (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError, RecursionError)

_short = reprlib.Repr()
_short.maxstring = _short.maxother = 60
_short.maxlevel = 3


def records_path() -> Path:
    """``records.json`` in :func:`~yahtzee_solver.files.data_dir`."""
    return data_dir() / "records.json"


# -- records ---------------------------------------------------------------------------------
@dataclass
class Record:
    """Results of one rule set against one opponent.

    Attributes
    ----------
    games : int
        Games finished.
    best : int or None
        Best final score (points); ``None`` before the first game.
    total : int
        Sum of the final scores (points), for the average.
    wins, losses, draws : int
        Results against the CPU (0 in solitaire).
    abandoned : int
        Saved games discarded by starting a new game.
    """

    games: int = 0
    best: int | None = None
    total: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    abandoned: int = 0

    @property
    def average(self) -> float | None:
        """Mean final score (points), ``None`` before the first game."""
        return self.total / self.games if self.games else None

    def to_dict(self) -> dict:
        d = asdict(self)
        d["average"] = self.average
        return d

    @classmethod
    def from_dict(cls, d) -> Record:
        """Validated record.

        Raises
        ------
        ValueError
            For missing fields, negative or non-integer counts, or results that do not add up.
        """
        if not isinstance(d, dict):
            raise ValueError(f"record {_short.repr(d)} is not an object")
        vals = {}
        for name in ("games", "total", "wins", "losses", "draws", "abandoned"):
            v = d.get(name, 0)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"invalid {name} {_short.repr(v)}")
            vals[name] = v
        best = d.get("best")
        if best is not None and (isinstance(best, bool) or not isinstance(best, int) or best < 0):
            raise ValueError(f"invalid best {_short.repr(best)}")
        r = cls(best=best, **vals)
        if (r.games == 0) != (best is None):
            raise ValueError("best score and game count disagree")
        if r.wins + r.losses + r.draws > r.games:
            raise ValueError("more results than games")
        if best is not None and not (r.total <= best * r.games and best <= r.total):
            raise ValueError("best score and total disagree")
        return r


@dataclass(frozen=True)
class RecordUpdate:
    """The outcome of adding a finished game.

    Attributes
    ----------
    record : Record
        The record after the game.
    previous_best : int or None
        Best score before this game.
    new_best : bool
        True when the game beat an earlier best score.
    """

    record: Record
    previous_best: int | None
    new_best: bool


@dataclass
class RecordBook:
    """All records, keyed by ``(rules name, opponent key)``.

    Attributes
    ----------
    records : dict
        ``{(rules, opponent): Record}``.
    path : Path or None
        File it was loaded from / is saved to.
    problem : str or None
        Set by :meth:`load` when the file was unreadable and was moved aside
        (one lowercase line naming the file and where it went).
    """

    records: dict = field(default_factory=dict)
    path: Path | None = None
    problem: str | None = None

    @classmethod
    def load(cls, path: str | os.PathLike | None = None) -> RecordBook:
        """Read the records (default :func:`records_path`); an empty book if there is no file.

        A corrupt or foreign file is renamed aside (:func:`set_aside`) and an
        empty book returned with :attr:`problem` saying so.

        Raises
        ------
        DataFileError
            Only if the file exists but cannot be read or moved aside.
        """
        path = Path(path) if path is not None else records_path()
        book = cls(path=path)
        try:
            data = read_json(path)
            book.records = _parse_records(data)
        except FileNotFoundError:
            pass
        except DataFileError:
            raise
        except _CORRUPT as e:
            moved = set_aside(path)
            book.problem = (f"records file {str(path)!r} is unreadable ({clip(e)}); "
                            f"moved to {str(moved)!r}, starting new records")
        return book

    def save(self) -> Path:
        """Write the records atomically to :attr:`path`.

        Raises
        ------
        DataFileError
            If the file cannot be written (the old file is left intact).
        """
        data = {
            "format": RECORDS_FORMAT,
            "version": RECORDS_VERSION,
            "records": {
                rules: {opp: {k: v for k, v in rec.to_dict().items() if k != "average"}
                        for (r, opp), rec in sorted(self.records.items()) if r == rules}
                for rules in sorted({r for r, _ in self.records})
            },
        }
        return write_json_atomic(self.path or records_path(), data)

    def get(self, rules: str, opponent: str) -> Record:
        """The record for ``rules`` against ``opponent`` (an empty one if none)."""
        return self.records.get((rules, opponent), Record())

    def add_game(self, rules: str, opponent: str, score: int, outcome: str | None = None) -> RecordUpdate:
        """Count a finished game.

        Parameters
        ----------
        rules : str
            Rule-set name.
        opponent : str
            ``solo`` or a CPU level.
        score : int
            The player's final score (points).
        outcome : str, optional
            ``win``, ``loss`` or ``draw`` against the CPU; ``None`` in solitaire.
        """
        _check_key(rules, opponent)
        rec = self.records.setdefault((rules, opponent), Record())
        prev = rec.best
        rec.games += 1
        rec.total += int(score)
        rec.best = int(score) if prev is None else max(prev, int(score))
        if outcome is not None:
            if outcome not in ("win", "loss", "draw"):
                raise ValueError(f"invalid outcome {outcome!r}")
            name = {"win": "wins", "loss": "losses", "draw": "draws"}[outcome]
            setattr(rec, name, getattr(rec, name) + 1)
        return RecordUpdate(rec, prev, prev is not None and score > prev)

    def add_abandoned(self, rules: str, opponent: str) -> None:
        """Count a saved game that was discarded unfinished."""
        _check_key(rules, opponent)
        self.records.setdefault((rules, opponent), Record()).abandoned += 1

    def to_list(self) -> list[dict]:
        """Records as ``[{"rules", "opponent", games, best, average, ...}]`` sorted by rules and opponent."""
        order = {o: i for i, o in enumerate(OPPONENT_KEYS)}
        keys = sorted(self.records, key=lambda k: (list(RULESETS).index(k[0]) if k[0] in RULESETS else 99,
                                                   order.get(k[1], 99)))
        return [{"rules": r, "opponent": o, **self.records[(r, o)].to_dict()} for r, o in keys]


def _check_key(rules: str, opponent: str) -> None:
    if rules not in RULESETS:
        raise ValueError(f"unknown rules {rules!r}")
    if opponent not in OPPONENT_KEYS:
        raise ValueError(f"unknown opponent {opponent!r}")


def _parse_records(data) -> dict:
    if not isinstance(data, dict) or data.get("format") != RECORDS_FORMAT:
        raise ValueError("not a yahtzee_solver records file")
    if data.get("version") != RECORDS_VERSION:
        raise ValueError(f"records format version {_short.repr(data.get('version'))}, "
                         f"this version reads {RECORDS_VERSION}")
    recs = data.get("records")
    if not isinstance(recs, dict):
        raise ValueError("no records object")
    out = {}
    for rules, per in recs.items():
        if rules not in RULESETS or not isinstance(per, dict):
            raise ValueError(f"unknown rules {_short.repr(rules)}")
        for opp, d in per.items():
            if opp not in OPPONENT_KEYS:
                raise ValueError(f"unknown opponent {_short.repr(opp)}")
            try:
                out[(rules, opp)] = Record.from_dict(d)
            except ValueError as e:
                raise ValueError(f"{rules}/{opp}: {e}") from None
    return out



# -- filing a finished game ------------------------------------------------------------------
def file_finished_game(
    state: GameState,
    game_file: str | os.PathLike | None = None,
    records_file: str | os.PathLike | None = None,
) -> tuple[RecordUpdate, str | None]:
    """Add a finished game to the records, then delete its saved game.

    The records are written first: if that fails the saved game is left in
    place (it is terminal), so the result is recorded by the next call
    instead of being lost.

    Parameters
    ----------
    state : GameState
        A finished game (:meth:`GameState.is_terminal`).
    game_file, records_file : path, optional
        Default :func:`~yahtzee_solver.savegame.save_path` and :func:`records_path`.

    Returns
    -------
    (RecordUpdate, str or None)
        The updated record, and :attr:`RecordBook.problem` (an unreadable
        records file that was moved aside), if any.

    Raises
    ------
    ValueError
        If the game is not over.
    DataFileError
        If the records cannot be read or written, or the saved game cannot
        be deleted after recording.
    """
    if not state.is_terminal():
        raise ValueError("the game is not over")
    book = RecordBook.load(records_file)
    outcome = None
    if state.config.n_players == 2:
        outcome = {0: "win", 1: "loss", None: "draw"}[state.winner()]
    upd = book.add_game(state.rules.name, state.config.opponent_key, state.cards[0].total, outcome)
    book.save()
    discard_game(game_file)
    return upd, book.problem
