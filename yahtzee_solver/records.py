"""What the game keeps on disk: the player's records and the game in progress.

Both live as JSON files in the user's data directory (:func:`data_dir`:
``$YAHTZEE_SOLVER_HOME`` if set, else ``click.get_app_dir("yahtzee-solver")``).
Every write is atomic (a temporary file in the same folder, then
``os.replace``), and every load is validated.  A file that cannot be read is
never silently dropped and never crashes the game: it is renamed aside to
``<name>.corrupt-<timestamp>`` and the caller is told (:attr:`RecordBook.problem`,
:class:`DataFileError`).

Records are kept per rule set and opponent (``solo`` or a CPU level): games,
best and average final score, wins, losses, draws, and games abandoned (a
saved game discarded by starting a new one).
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .errors import DataFileError
from .game import GameState, SavedGameError
from .rules import RULESETS

__all__ = [
    "HOME_ENV",
    "DataFileError",
    "data_dir",
    "records_path",
    "save_path",
    "write_json_atomic",
    "set_aside",
    "Record",
    "RecordUpdate",
    "RecordBook",
    "save_game",
    "load_game",
    "discard_game",
    "OPPONENT_KEYS",
]

#: Environment variable that overrides the data directory (tests use it).
HOME_ENV = "YAHTZEE_SOLVER_HOME"

RECORDS_FORMAT = "yahtzee_solver records"
RECORDS_VERSION = 1

#: Opponent keys of the records: ``solo`` or a CPU level.
OPPONENT_KEYS = ("solo", "beginner", "normal", "expert")


def data_dir() -> Path:
    """The folder of the records and the saved game (not created here)."""
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env)
    import click

    return Path(click.get_app_dir("yahtzee-solver"))


def records_path() -> Path:
    """``records.json`` in :func:`data_dir`."""
    return data_dir() / "records.json"


def save_path() -> Path:
    """``game.json`` (the game in progress) in :func:`data_dir`."""
    return data_dir() / "game.json"


def write_json_atomic(path: str | os.PathLike, data) -> Path:
    """Write ``data`` as JSON to ``path`` atomically (temp file in the same folder + ``os.replace``).

    Raises
    ------
    DataFileError
        If the folder or file cannot be written; ``path`` is then unchanged.
    """
    path = Path(path)
    text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True)
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise DataFileError(f"cannot write {str(path)!r}: {e.strerror or e}") from None
    return path


def set_aside(path: str | os.PathLike) -> Path:
    """Rename an unreadable ``path`` to ``<path>.corrupt-<YYYYmmdd-HHMMSS>`` (never overwriting).

    Returns
    -------
    Path
        The new name.

    Raises
    ------
    DataFileError
        If the file cannot be renamed.
    """
    path = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    try:
        os.replace(path, target)
    except OSError as e:
        raise DataFileError(f"cannot move unreadable {str(path)!r} aside: {e.strerror or e}") from None
    return target


def _read_json(path: Path):
    """Parsed JSON of ``path``; ``FileNotFoundError`` if missing; ``ValueError`` if unreadable."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise
    except OSError as e:
        raise DataFileError(f"cannot read {str(path)!r}: {e.strerror or e}") from None
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise ValueError(f"not valid JSON: {e}") from None


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
            raise ValueError(f"record {d!r} is not an object")
        vals = {}
        for name in ("games", "total", "wins", "losses", "draws", "abandoned"):
            v = d.get(name, 0)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"invalid {name} {v!r}")
            vals[name] = v
        best = d.get("best")
        if best is not None and (isinstance(best, bool) or not isinstance(best, int) or best < 0):
            raise ValueError(f"invalid best {best!r}")
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
            data = _read_json(path)
            book.records = _parse_records(data)
        except FileNotFoundError:
            pass
        except ValueError as e:
            moved = set_aside(path)
            book.problem = f"records file {str(path)!r} is unreadable ({e}); moved to {str(moved)!r}, starting new records"
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
        raise ValueError(f"records format version {data.get('version')!r}, this version reads {RECORDS_VERSION}")
    recs = data.get("records")
    if not isinstance(recs, dict):
        raise ValueError("no records object")
    out = {}
    for rules, per in recs.items():
        if rules not in RULESETS or not isinstance(per, dict):
            raise ValueError(f"unknown rules {rules!r}")
        for opp, d in per.items():
            if opp not in OPPONENT_KEYS:
                raise ValueError(f"unknown opponent {opp!r}")
            try:
                out[(rules, opp)] = Record.from_dict(d)
            except ValueError as e:
                raise ValueError(f"{rules}/{opp}: {e}") from None
    return out


# -- the saved game ----------------------------------------------------------------------------
def save_game(state: GameState, path: str | os.PathLike | None = None) -> Path:
    """Write the game in progress atomically (default :func:`save_path`).

    Raises
    ------
    DataFileError
        If it cannot be written (the previous save is left intact).
    """
    return write_json_atomic(path if path is not None else save_path(), state.to_dict())


def load_game(path: str | os.PathLike | None = None) -> GameState | None:
    """The saved game, or ``None`` if there is none.

    Raises
    ------
    DataFileError
        If the file is corrupt, foreign or inconsistent: it has been moved
        aside (:func:`set_aside`) and the message says where.
    """
    path = Path(path) if path is not None else save_path()
    try:
        data = _read_json(path)
        return GameState.from_dict(data)
    except FileNotFoundError:
        return None
    except (ValueError, SavedGameError) as e:
        moved = set_aside(path)
        raise DataFileError(f"saved game {str(path)!r} cannot be restored ({e}); moved to {str(moved)!r}") from None


def discard_game(path: str | os.PathLike | None = None) -> None:
    """Delete the saved game (after it has ended); no error if there is none."""
    path = Path(path) if path is not None else save_path()
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError as e:
        raise DataFileError(f"cannot remove {str(path)!r}: {e.strerror or e}") from None
