"""What the game keeps on disk: the player's records and the game in progress.

Both live as JSON files in the user's data directory (:func:`data_dir`:
``$YAHTZEE_SOLVER_HOME`` if set and not empty, else
``click.get_app_dir("yahtzee-solver")``).  Every write is atomic (a temporary
file in the same folder, then ``os.replace``), and every load is validated.  A
file that cannot be read -- not JSON, nested too deeply, larger than
:data:`MAX_FILE_BYTES`, not a regular file, or failing validation -- is never
silently dropped and never crashes the game: it is renamed aside to
``<name>.corrupt-<timestamp>`` and the caller is told (:attr:`RecordBook.problem`,
:class:`DataFileError`).

A finished game is written to the records before its saved game is deleted
(:func:`file_finished_game`); if the records cannot be written, the finished
game stays in ``game.json`` and is recorded on the next run.  One game at a
time owns the data folder (:class:`GameLock`, ``game.lock`` holding the pid).

Records are kept per rule set and opponent (``solo`` or a CPU level): games,
best and average final score, wins, losses, draws, and games abandoned (a
saved game discarded by starting a new one).
"""

from __future__ import annotations

import json
import os
import reprlib
import stat
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .errors import DataFileError, YahtzeeError
from .game import GameState
from .rules import RULESETS

__all__ = [
    "HOME_ENV",
    "MAX_FILE_BYTES",
    "DataFileError",
    "GameRunningError",
    "data_dir",
    "records_path",
    "save_path",
    "lock_path",
    "GameLock",
    "write_json_atomic",
    "set_aside",
    "Record",
    "RecordUpdate",
    "RecordBook",
    "save_game",
    "load_game",
    "discard_game",
    "file_finished_game",
    "OPPONENT_KEYS",
]

#: Environment variable that overrides the data directory (tests use it).
HOME_ENV = "YAHTZEE_SOLVER_HOME"

RECORDS_FORMAT = "yahtzee_solver records"
RECORDS_VERSION = 1

#: Opponent keys of the records: ``solo`` or a CPU level.
OPPONENT_KEYS = ("solo", "beginner", "normal", "expert")

#: Largest records or saved-game file read (bytes); a bigger file is corrupt.
#: A saved game is a few tens of KiB, so 4 MiB leaves ample room.
MAX_FILE_BYTES = 4 * 1024 * 1024

#: Errors that mean "this data cannot be decoded or validated" (the file is corrupt).
_CORRUPT = (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError, RecursionError)

_short = reprlib.Repr()
_short.maxstring = _short.maxother = 60
_short.maxlevel = 3


class GameRunningError(DataFileError):
    """Another ``play`` process holds the data folder (CLI exit code 1).

    Attributes
    ----------
    pid : int
        Process id written in the lock file.
    """

    def __init__(self, message: str, pid: int):
        super().__init__(message)
        self.pid = pid


def data_dir() -> Path:
    """The folder of the records and the saved game (not created here).

    ``$YAHTZEE_SOLVER_HOME`` when it is set and not blank; an empty value counts
    as unset, giving ``click.get_app_dir("yahtzee-solver")`` (e.g.
    ``~/.config/yahtzee-solver`` on Linux).
    """
    env = os.environ.get(HOME_ENV, "")
    if env.strip():
        return Path(env)
    import click

    return Path(click.get_app_dir("yahtzee-solver"))


def _ensure_folder(folder: Path) -> None:
    """Create the data folder ``folder`` if needed.

    Raises
    ------
    DataFileError
        If ``folder`` (or a parent) is a file, or it cannot be created.
    """
    if folder.exists() and not folder.is_dir():
        raise DataFileError(f"data folder {str(folder)!r} is not a directory")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise DataFileError(f"data folder {str(folder)!r} is not a directory (a parent is a file)") from None
    except OSError as e:
        raise DataFileError(f"cannot create data folder {str(folder)!r}: {e.strerror or e}") from None


def records_path() -> Path:
    """``records.json`` in :func:`data_dir`."""
    return data_dir() / "records.json"


def save_path() -> Path:
    """``game.json`` (the game in progress) in :func:`data_dir`."""
    return data_dir() / "game.json"


def lock_path() -> Path:
    """``game.lock`` (pid of the ``play`` process running) in :func:`data_dir`."""
    return data_dir() / "game.lock"


def write_json_atomic(path: str | os.PathLike, data) -> Path:
    """Write ``data`` as JSON to ``path`` atomically (temp file in the same folder + ``os.replace``).

    Raises
    ------
    DataFileError
        If the folder is a file or the file cannot be written; ``path`` is then unchanged.
    """
    path = Path(path)
    text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True)
    tmp = None
    try:
        _ensure_folder(path.parent)
    except DataFileError as e:
        raise DataFileError(f"cannot write {str(path)!r}: {e}") from None
    try:
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


def _clip(text: str, limit: int = 160) -> str:
    """``text`` on one line, at most ``limit`` characters (for error messages)."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _read_json(path: Path):
    """Parsed JSON of ``path``.

    Raises
    ------
    FileNotFoundError
        If there is no file.
    ValueError
        If the content is unusable: not a regular file, more than
        :data:`MAX_FILE_BYTES`, not UTF-8 JSON, or nested too deeply.
    DataFileError
        If the file exists but cannot be read (permissions, a directory, the
        data folder is a file).
    """
    try:
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            raise DataFileError(f"cannot read {str(path)!r}: it is a directory")
        if not stat.S_ISREG(st.st_mode):  # a FIFO would block, /dev/zero never ends
            raise ValueError("not a regular file")
        if st.st_size > MAX_FILE_BYTES:
            raise ValueError(f"larger than {MAX_FILE_BYTES // 2**20} MiB")
        with open(path, "rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except (FileNotFoundError, DataFileError):
        raise
    except NotADirectoryError:
        raise DataFileError(f"data folder {str(path.parent)!r} is not a directory") from None
    except OSError as e:
        raise DataFileError(f"cannot read {str(path)!r}: {e.strerror or e}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise ValueError(f"larger than {MAX_FILE_BYTES // 2**20} MiB")
    try:
        return json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise ValueError("not valid JSON: nested too deeply") from None
    except (UnicodeDecodeError, ValueError) as e:
        raise ValueError(f"not valid JSON: {_clip(e)}") from None


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
            data = _read_json(path)
            book.records = _parse_records(data)
        except FileNotFoundError:
            pass
        except DataFileError:
            raise
        except _CORRUPT as e:
            moved = set_aside(path)
            book.problem = (f"records file {str(path)!r} is unreadable ({_clip(e)}); "
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
    except DataFileError:
        raise
    except (*_CORRUPT, YahtzeeError) as e:
        moved = set_aside(path)
        raise DataFileError(
            f"saved game {str(path)!r} cannot be restored ({_clip(e)}); moved to {str(moved)!r}"
        ) from None


def discard_game(path: str | os.PathLike | None = None) -> None:
    """Delete the saved game (after it has ended); no error if there is none."""
    path = Path(path) if path is not None else save_path()
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError as e:
        raise DataFileError(f"cannot remove {str(path)!r}: {e.strerror or e}") from None


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
        Default :func:`save_path` and :func:`records_path`.

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
    opp = "solo" if state.config.opponent == "none" else state.config.opponent
    outcome = None
    if state.config.n_players == 2:
        outcome = {0: "win", 1: "loss", None: "draw"}[state.winner()]
    upd = book.add_game(state.rules.name, opp, state.cards[0].total, outcome)
    book.save()
    discard_game(game_file)
    return upd, book.problem


# -- one game at a time ----------------------------------------------------------------------------
def _pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists (POSIX; elsewhere assumed alive)."""
    if pid <= 0:
        return False
    if pid == os.getpid():
        return True
    if os.name != "posix":  # os.kill(pid, 0) would terminate the process on Windows
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: it exists but belongs to someone else
        return True
    return True


class GameLock:
    """Exclusive use of the data folder by one ``play`` process.

    The lock is the file ``game.lock`` created with ``O_CREAT | O_EXCL`` and
    holding the owner's pid.  A lock whose pid no longer runs is stale and is
    taken over.  Use as a context manager, or :meth:`acquire` / :meth:`release`.

    Parameters
    ----------
    path : path, optional
        Lock file (default :func:`lock_path`).

    Raises
    ------
    GameRunningError
        From :meth:`acquire`: another live process holds the lock.
    DataFileError
        From :meth:`acquire`: the data folder is a file or not writable.

    Notes
    -----
    Two processes taking over the same stale lock at the same instant could
    both succeed; that needs two games started within microseconds of each
    other after a crash.  Where process ids cannot be checked (Windows) a
    left-over lock must be deleted by hand; the error names the file.
    """

    def __init__(self, path: str | os.PathLike | None = None):
        self.path = Path(path) if path is not None else lock_path()
        self.held = False

    def _owner(self) -> int | None:
        """Pid in the lock file; ``None`` if it is gone; -1 if unreadable."""
        try:
            with open(self.path, "rb") as f:
                text = f.read(32).decode("ascii", "replace").strip()
        except FileNotFoundError:
            return None
        except OSError:
            return -1
        return int(text) if text.isascii() and text.isdigit() else -1

    def acquire(self) -> GameLock:
        """Take the lock (see the class notes).  Returns ``self``."""
        _ensure_folder(self.path.parent)
        for _ in range(5):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                pid = self._owner()
                if pid is None:
                    continue  # released meanwhile: try again
                if pid == -1:
                    # Being written right now, or garbage: give a writer a moment.
                    time.sleep(0.05)
                    pid = self._owner()
                    if pid is None:
                        continue
                if pid > 0 and _pid_alive(pid):
                    raise GameRunningError(
                        f"another game is running (pid {pid}); if it is not, delete {str(self.path)!r}", pid
                    ) from None
                try:  # stale: its process is gone
                    os.unlink(self.path)
                except FileNotFoundError:
                    pass
                except OSError as e:
                    raise DataFileError(f"cannot remove stale lock {str(self.path)!r}: {e.strerror or e}") from None
                continue
            except OSError as e:
                raise DataFileError(f"cannot create {str(self.path)!r}: {e.strerror or e}") from None
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(f"{os.getpid()}\n")
            self.held = True
            return self
        raise DataFileError(f"cannot take the lock {str(self.path)!r}")

    def release(self) -> None:
        """Give the lock back (only if this process holds it)."""
        if not self.held:
            return
        self.held = False
        if self._owner() == os.getpid():
            try:
                os.unlink(self.path)
            except OSError:
                pass

    def __enter__(self) -> GameLock:
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()
