"""Safe file access shared by every module that keeps data on disk.

* :func:`file_kind` -- the one "is this a regular file" check: a FIFO would
  block a reader forever and ``/dev/zero`` never ends, so every reader and
  writer asks first.
* :func:`write_atomic` / :func:`write_json_atomic` -- a temporary file in the
  same folder, then ``os.replace``: a reader sees the old file or the whole new
  one, never half of it (bytes, text, or any writer callback such as h5py).
* :func:`read_bounded` / :func:`read_json` -- read at most a given number of
  bytes from a regular file, so a huge or endless file is refused, not loaded.
* :func:`set_aside` -- rename an unreadable file to
  ``<name>.corrupt-<timestamp>`` so it is never silently lost.
* :func:`data_dir` -- the folder of the records, the saved game and the lock.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import time
from collections.abc import Callable
from typing import Any
from pathlib import Path

from .errors import DataFileError

__all__ = [
    "MAX_INT_DIGITS",
    "NumberTooLongError",
    "RepeatedKeyError",
    "json_int",
    "version_problem",
    "HOME_ENV",
    "refuse_repeated_keys",
    "MAX_FILE_BYTES",
    "UnusableFileError",
    "FileTooLargeError",
    "data_dir",
    "ensure_folder",
    "file_kind",
    "write_atomic",
    "write_json_atomic",
    "read_bounded",
    "read_json",
    "set_aside",
    "clip",
]

#: Environment variable that overrides the data directory (tests use it).
HOME_ENV = "YAHTZEE_SOLVER_HOME"

#: Largest records or saved-game file read (bytes); a bigger file is corrupt.
#: A saved game is a few tens of KiB, so 4 MiB leaves ample room.
MAX_FILE_BYTES = 4 * 1024 * 1024


class UnusableFileError(ValueError):
    """The file exists but its content cannot be used: not a regular file, or too large."""


class FileTooLargeError(UnusableFileError):
    """The file holds more than the limit given to :func:`read_bounded` (attribute ``limit``, bytes)."""

    def __init__(self, message: str, limit: int):
        super().__init__(message)
        self.limit = limit


def data_dir() -> Path:
    """The folder of the records and the saved game (not created here).

    ``$YAHTZEE_SOLVER_HOME`` when it is set and not blank; an empty value counts
    as unset, giving ``click.get_app_dir("yahtzee-solver")`` (e.g.
    ``~/.config/yahtzee-solver`` on Linux).  On Linux and the BSDs an empty or
    relative ``$XDG_CONFIG_HOME`` is ignored, as the XDG Base Directory
    specification says (click would otherwise give a relative
    ``./yahtzee-solver`` in the current folder).
    """
    env = os.environ.get(HOME_ENV, "")
    if env.strip():
        return Path(env)
    xdg = os.environ.get("XDG_CONFIG_HOME")
    if xdg is not None and sys.platform not in ("win32", "cygwin", "darwin") and not os.path.isabs(xdg.strip()):
        return Path(os.path.expanduser("~/.config")) / "yahtzee-solver"
    import click

    return Path(click.get_app_dir("yahtzee-solver"))


def ensure_folder(folder: Path) -> None:
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


def file_kind(path: str | os.PathLike[str] | os.stat_result) -> str:
    """What is at ``path``: ``"missing"``, ``"file"`` (regular), ``"folder"`` or ``"special"``.

    ``"special"`` is a FIFO, a device or a socket: reading one may block
    forever or never end.  A path that cannot be examined at all (missing, a
    parent is a file, no permission on the folder) is ``"missing"``; opening it
    then reports the precise reason.  An ``os.stat_result`` already at hand may
    be passed instead of a path.
    """
    if isinstance(path, os.stat_result):
        st = path
    else:
        try:
            st = os.stat(path)
        except (OSError, ValueError):
            return "missing"
    if stat.S_ISREG(st.st_mode):
        return "file"
    if stat.S_ISDIR(st.st_mode):
        return "folder"
    return "special"


def refuse_repeated_keys(error: Callable[[str], Exception]) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    """An ``object_pairs_hook`` for :func:`json.loads` that raises ``error(name)`` for a name given twice.

    JSON leaves open which of two members of one name counts; a card file or a request
    that repeats one is refused instead of the last silently winning.
    """

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, value in pairs:
            if name in out:
                raise error(name)
            out[name] = value
        return out

    return hook


def clip(text: object, limit: int = 160) -> str:
    """``text`` on one line, at most ``limit`` characters (for error messages)."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


#: Digits of the longest whole number a data file may hold: Python's own limit for ``int()`` of text
#: (no count, score or seed of this program comes near it).
MAX_INT_DIGITS = 4300


class NumberTooLongError(ValueError):
    """A data file holds a whole number of more than :data:`MAX_INT_DIGITS` digits (said in plain words)."""


def json_int(text: str) -> int:
    """``int(text)`` as :func:`json.loads`'s ``parse_int``: a number too long is a :class:`NumberTooLongError`.

    Python's own refusal would end with advice to its programmers
    (``use sys.set_int_max_str_digits() to increase the limit``).
    """
    n = len(text.lstrip("-"))
    if n > MAX_INT_DIGITS:
        raise NumberTooLongError(f"a number of {n:,} digits is too long (at most {MAX_INT_DIGITS:,})")
    return int(text)


class RepeatedKeyError(ValueError):
    """A data file gives one name twice in one JSON object (JSON leaves open which one counts)."""


#: :func:`read_json`'s ``object_pairs_hook``: a name given twice is refused, not the last one taken.
_NO_REPEATS = refuse_repeated_keys(lambda name: RepeatedKeyError(f"the key {clip(repr(name), 40)} is given twice"))


def version_ok(version: object, *reads: int) -> bool:
    """True if a file's format ``version`` is a JSON integer among ``reads``.

    ``true`` and ``2.0`` are not versions, though Python finds ``True == 1`` and
    ``2.0 == 2``: the check is on the type as well (:func:`version_problem` says why).
    """
    return type(version) is int and version in reads


def version_problem(what: str, version: object, reads: int) -> str:
    """Why a file's format ``version`` is not the one this version reads (``reads``), for an error message.

    A version that is not a JSON integer says its type (``"records format version '2' is a string,
    not an integer"``): the number in it would read as the right one otherwise.
    """
    if version is None:
        return f"{what} format version is missing (this version reads {reads})"
    if isinstance(version, bool) or not isinstance(version, int):
        kind = {str: "a string", float: "a decimal number", bool: "true or false", list: "a list",
                dict: "an object"}.get(type(version), type(version).__name__)
        return f"{what} format version {clip(repr(version), 40)} is {kind}, not an integer (this version reads {reads})"
    return f"{what} format version {clip(version, 20)}, this version reads {reads}"


def _default_error(path: Path) -> Callable[[str], Exception]:
    return lambda reason: DataFileError(f"cannot write {str(path)!r}: {reason}")


def write_atomic(
    path: str | os.PathLike[str],
    content: bytes | str | Callable[[Path], None],
    *,
    private: bool = True,
    error: Callable[[str], Exception] | None = None,
    make_folders: bool = True,
) -> Path:
    """Replace ``path`` atomically: write a temporary file in the same folder, then ``os.replace``.

    Parameters
    ----------
    path : path-like
        The file to write (missing folders are created unless ``make_folders`` is false).
    content : bytes, str or callable
        Bytes, text (UTF-8), or a function called with the temporary file's
        path that writes the content there (e.g. with h5py).
    private : bool
        Keep the temporary file's owner-only mode (0600); ``False`` gives the
        usual mode for a new file (0666 less the umask).
    error : callable, optional
        Makes the exception raised from a one-line reason; default
        ``DataFileError("cannot write '<path>': <reason>")``.
    make_folders : bool
        Create missing folders (the data folder's files); ``False`` for a file
        the user named, whose folder must exist (a mistyped folder is not made).

    Returns
    -------
    Path
        ``path``.

    Raises
    ------
    DataFileError (or what ``error`` makes)
        If the folder or the file cannot be written; ``path`` is then
        unchanged and no temporary file is left.  Any other exception raised
        by ``content`` (including ``KeyboardInterrupt``) is re-raised after the
        temporary file is removed.
    """
    path = Path(path)
    make_error = error or _default_error(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        import tempfile  # here, not at the top: a cold query that writes nothing does not pay for it

        if make_folders:
            folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as e:
        raise make_error(e.strerror or str(e)) from None
    try:
        if not private:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        if callable(content):
            os.close(fd)
            fd = -1
            content(Path(tmp))
        else:
            data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
            with os.fdopen(fd, "wb") as f:
                fd = -1
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as e:
        if fd >= 0:
            os.close(fd)
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise make_error(e.strerror or str(e)) from None
        raise
    return path


def write_json_atomic(path: str | os.PathLike[str], data: Any) -> Path:
    """Write ``data`` as indented UTF-8 JSON to ``path`` atomically (see :func:`write_atomic`).

    Raises
    ------
    DataFileError
        If the folder is a file or the file cannot be written; ``path`` is then unchanged.
    """
    path = Path(path)
    text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True)
    try:
        ensure_folder(path.parent)
    except DataFileError as e:
        raise DataFileError(f"cannot write {str(path)!r}: {e}") from None
    return write_atomic(path, text)


def read_bounded(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Raises
    ------
    FileNotFoundError
        If there is no file.
    FileTooLargeError
        If the file holds more than ``limit`` bytes (checked while reading, so
        a file that grows is refused too).
    UnusableFileError
        If ``path`` is a FIFO, a device or a socket.
    IsADirectoryError
        If ``path`` is a folder.
    OSError
        If it cannot be read (permissions, a parent is a file, ...).
    """
    st = os.stat(path)
    kind = file_kind(st)
    if kind == "folder":
        raise IsADirectoryError(21, "Is a directory", str(path))
    if kind != "file":  # a FIFO would block, /dev/zero never ends
        raise UnusableFileError("not a regular file")
    too_large = FileTooLargeError(f"larger than {_size(limit)}", limit)
    if st.st_size > limit:
        raise too_large
    with open(path, "rb") as f:
        raw = f.read(limit + 1)
    if len(raw) > limit:
        raise too_large
    return raw


def _size(n: int) -> str:
    return f"{n // 2**20} MiB" if n % 2**20 == 0 else f"{n} bytes"


def read_json(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> Any:
    """Parsed JSON of the data file ``path`` (see :func:`read_bounded`).

    Raises
    ------
    FileNotFoundError
        If there is no file.
    ValueError
        If the content is unusable: not a regular file, more than ``limit``
        bytes, not UTF-8 JSON, nested too deeply, or with a name given twice
        in one object (:class:`RepeatedKeyError`; the file is corrupt).
    DataFileError
        If the file exists but cannot be read (permissions, a directory, the
        data folder is a file).
    """
    path = Path(path)
    try:
        raw = read_bounded(path, limit)
    except (FileNotFoundError, UnusableFileError):
        raise
    except IsADirectoryError:
        raise DataFileError(f"cannot read {str(path)!r}: it is a directory") from None
    except NotADirectoryError:
        raise DataFileError(f"data folder {str(path.parent)!r} is not a directory") from None
    except OSError as e:
        raise DataFileError(f"cannot read {str(path)!r}: {e.strerror or e}") from None
    try:
        return json.loads(raw.decode("utf-8"), parse_int=json_int, object_pairs_hook=_NO_REPEATS)
    except RecursionError:
        raise ValueError("not valid JSON: nested too deeply") from None
    except (NumberTooLongError, RepeatedKeyError):
        raise  # valid JSON, said in plain words
    except (UnicodeDecodeError, ValueError) as e:
        raise ValueError(f"not valid JSON: {clip(e)}") from None


def set_aside(path: str | os.PathLike[str]) -> Path:
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
