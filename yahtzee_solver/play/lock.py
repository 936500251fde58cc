"""One game at a time: an operating-system lock on ``game.lock`` in the data folder.

:class:`GameLock` gives one ``play`` process (or ``serve``, or ``records``
settling a finished game) exclusive use of the data folder, so two runs never
write the same saved game or records at once.

The lock is the kernel's (``flock`` on POSIX, ``LockFileEx`` on Windows,
through the ``filelock`` library), not the existence of a file: it is held
by an open file of the running process, so the kernel releases it when the
process ends in any way -- a normal exit, a crash, ``kill -9`` -- and there is
never a stale lock to clean up.  Of any number of processes that try at the
same instant, exactly one gets it.  The holder writes its process id and what
it is (``holder``: the terminal game, the web page's server, ...) into the file,
only so that the others can say who holds it.
"""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path
from types import FrameType
from typing import Any

import filelock

from ..errors import DataFileError
from ..files import data_dir, ensure_folder

__all__ = ["GameRunningError", "GameLock", "lock_path"]


class GameRunningError(DataFileError):
    """Another process holds the data folder (CLI exit code 1).

    Attributes
    ----------
    pid : int or None
        Process id of the holder, as it wrote it in the lock file; ``None`` if
        it has not written it yet.
    """

    def __init__(self, message: str, pid: int | None):
        super().__init__(message)
        self.pid = pid


def lock_path() -> Path:
    """``game.lock`` (locked by the game running, holding its pid) in :func:`~yahtzee_solver.files.data_dir`."""
    return data_dir() / "game.lock"


#: Signals that end the game with its lock released (the game is saved after every action).
_END_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class GameLock:
    """Exclusive use of the data folder by one process (see the module's docstring).

    Use as a context manager, or :meth:`acquire` / :meth:`release`.  A second
    :class:`GameLock` on the same file is refused even in the process that
    holds the first one.  As a context manager in the main thread it also
    turns SIGTERM and SIGHUP into ``SystemExit(128 + signal)``, so the game
    unwinds (and the lock is released) when it is stopped that way.

    Parameters
    ----------
    path : path, optional
        Lock file (default :func:`lock_path`).  It is created if missing and
        left in place when released (removing it could let two processes
        lock two different files of the same name).
    holder : str, optional
        What holds the lock, in a few words, for the others' message
        (``"the web page's server (yahtzee-solve serve)"``); one line, at most
        80 characters kept.

    Attributes
    ----------
    held : bool
        Whether this object holds the lock.

    Raises
    ------
    GameRunningError
        From :meth:`acquire`: another process (or another :class:`GameLock`) holds it.
    DataFileError
        From :meth:`acquire`: the data folder is a file, or the lock file cannot be created or
        opened (``cannot create or open the lock file '...': <the system's reason>``).
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, holder: str = ""):
        self.path: Path = Path(path) if path is not None else lock_path()
        self.holder: str = " ".join(holder.split())[:80]
        self.held: bool = False
        self._lock = filelock.FileLock(str(self.path), timeout=0, thread_local=False)
        self._old_handlers: dict[int, Any] = {}

    def _owner(self) -> tuple[int | None, str]:
        """The pid and the description the holder wrote in the lock file (``None`` and ``""`` if there is
        none yet or it is unreadable)."""
        try:
            with open(self.path, "rb") as f:
                text = f.read(128).decode("ascii", "replace")
        except OSError:
            return None, ""
        pid, _, what = text.split("\n")[0].strip().partition(" ")
        if not (pid.isascii() and pid.isdigit()):
            return None, ""
        return int(pid), " ".join(what.split())[:80]

    def acquire(self) -> GameLock:
        """Take the lock at once or raise (see the class).  Returns ``self``."""
        ensure_folder(self.path.parent)
        try:
            self._lock.acquire(blocking=False)
        except filelock.Timeout:
            pid, what = self._owner()
            if pid is None:  # no holder named: a lock file the library could not create is reported so too
                self._check_openable()
            who = f"pid {pid}" if pid is not None else f"it holds {str(self.path)!r}"
            raise GameRunningError(f"another game is running{': ' + what if what else ''} ({who})", pid) from None
        except OSError as e:
            raise DataFileError(f"cannot lock {str(self.path)!r}: {e.strerror or e}") from None
        self.held = True
        self._write_pid(f"{os.getpid()} {self.holder}".strip() + "\n")
        return self

    def _check_openable(self) -> None:
        """Raise :class:`DataFileError` unless the lock file can be opened for writing (creating it if
        missing, as the lock does): a folder that cannot hold it (``/proc/self``, a read-only one) is not
        another game running."""
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
        try:
            os.close(os.open(self.path, flags, 0o644))
        except OSError as e:
            raise DataFileError(f"cannot create or open the lock file {str(self.path)!r}: {e.strerror or e}") from None

    def _write_pid(self, text: str) -> None:
        """Put ``text`` in the lock file (only its holder writes it; the lock itself is not the content)."""
        try:
            with open(self.path, "r+", encoding="ascii") as f:
                f.truncate(0)
                f.write(text)
        except OSError:
            pass  # the pid only names the holder in the others' messages

    def release(self) -> None:
        """Give the lock back (only if this object holds it)."""
        if not self.held:
            return
        self._write_pid("")
        self.held = False
        self._lock.release()

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
    """Stop the game: unwinds to :meth:`GameLock.__exit__`, which releases the lock."""
    raise SystemExit(128 + signum)
