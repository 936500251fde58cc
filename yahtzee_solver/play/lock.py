"""One game at a time: the lock file ``game.lock`` in the data folder.

:class:`GameLock` gives one ``play`` process (or ``records`` settling a
finished game) exclusive use of the data folder, so two runs never write the
same saved game or records at once.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from types import FrameType

from ..errors import DataFileError
from ..files import data_dir, ensure_folder

__all__ = ["GameRunningError", "GameLock", "lock_path"]


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


def lock_path() -> Path:
    """``game.lock`` (pid of the ``play`` process running) in :func:`~yahtzee_solver.files.data_dir`."""
    return data_dir() / "game.lock"


def _pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists (POSIX; elsewhere assumed alive); this process counts as not running
    another game (callers check :data:`_HELD` for its own locks)."""
    if pid <= 0:
        return False
    if pid == os.getpid():
        return False
    if os.name != "posix":  # os.kill(pid, 0) would terminate the process on Windows
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: it exists but belongs to someone else
        return True
    return True


#: Lock files held by this process (resolved paths).  A lock file naming this
#: process's pid that is not in here was left by an earlier process that had
#: the same pid -- in a container the game is pid 1 on every run -- and is stale.
_HELD: set[str] = set()

#: Signals that end the game with its lock removed (the game is saved after every action).
_END_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class GameLock:
    """Exclusive use of the data folder by one ``play`` process.

    The lock is the file ``game.lock`` created with ``O_CREAT | O_EXCL`` and
    holding the owner's pid.  A lock whose pid no longer runs is stale and is
    taken over; so is a lock naming this process's own pid that this process
    does not hold (left by an earlier run with the same pid, as in a container
    where the game is pid 1 every time).  Use as a context manager, or
    :meth:`acquire` / :meth:`release`.  As a context manager in the main
    thread it also turns SIGTERM and SIGHUP into ``SystemExit(128 + signal)``,
    so the lock is removed when the game is stopped that way.

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

    def __init__(self, path: str | os.PathLike[str] | None = None):
        self.path: Path = Path(path) if path is not None else lock_path()
        self.held: bool = False

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
        ensure_folder(self.path.parent)
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
                mine = pid == os.getpid() and self._key() in _HELD
                if pid > 0 and (mine or _pid_alive(pid)):
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
            _HELD.add(self._key())
            return self
        raise DataFileError(f"cannot take the lock {str(self.path)!r}")

    def _key(self) -> str:
        return os.path.realpath(self.path)

    def release(self) -> None:
        """Give the lock back (only if this process holds it)."""
        if not self.held:
            return
        self.held = False
        _HELD.discard(self._key())
        if self._owner() == os.getpid():
            try:
                os.unlink(self.path)
            except OSError:
                pass

    def __enter__(self) -> GameLock:
        self.acquire()
        self._old_handlers = {}
        if threading.current_thread() is threading.main_thread():
            for sig in _END_SIGNALS:
                self._old_handlers[sig] = signal.signal(sig, _end)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, handler in self._old_handlers.items():
            signal.signal(sig, handler)
        self._old_handlers = {}
        self.release()


def _end(signum: int, frame: FrameType | None) -> None:
    """Stop the game: unwinds to :meth:`GameLock.__exit__`, which removes the lock."""
    raise SystemExit(128 + signum)
