"""The HDF5 value table: schema, atomic save, validated load.

Schema (format version 1)
-------------------------
One dataset ``/values``: float64, shape ``(2**C, T+1, F)`` -- filled-box mask,
upper subtotal 0..T (T = 63, capped), Yahtzee-bonus flag (F = 2, or 1 for rule
sets without a Yahtzee bonus).  ``values[m, u, y]`` is the expected number of
points still to come from that turn-start state under optimal play (future
upper bonus and Yahtzee bonuses included); NaN marks an unreachable state.
Stored in chunks of 64 masks, gzip-compressed with the shuffle filter and a
Fletcher-32 checksum per chunk.

Root attributes, each one value (a scalar) of the kind :data:`ATTRIBUTE_KINDS` gives (a
loader refuses a file where one is not): ``format`` (``"yahtzee_solver value table"``),
``format_version`` (integer), ``rules`` (name), ``rules_json`` (full definition,
``RuleSet.to_json``), ``package_version``, ``empty_value`` (the optimal
expected final score, points), ``n_states`` (the number of reachable states:
entries that are not NaN) and ``checksum``
(``sha256:`` of the C-order little-endian float64 bytes of ``/values``).

Dataset ``/chunk_sha256``: uint8, shape ``(n_chunks, 32)``, the SHA-256 of the
C-order little-endian float64 bytes of each chunk of ``/values`` (masks
``64 i .. 64 i + 63``).  Optional within format version 1 (tables written
before it have none): with it, :func:`open_table` reads and checks only the
chunks a query needs; without it, the whole table is read and hashed.  One of
another shape or dtype (or a group of that name) is damage: every loader refuses the file.

Integrity: a value is used only after the bytes it came from passed a check --
the SHA-256 of the whole table (:func:`load_table`) or of its chunk
(:func:`open_table`), on top of HDF5's Fletcher-32 of every stored chunk.  A
truncated file fails to open or to read the chunk; a flipped bit fails the
Fletcher-32 or the SHA-256; a value rewritten in place fails the SHA-256.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import operator
import os
import shlex
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ScoreCardError, TableError, UsageError
from ..files import clip, file_kind, write_atomic
from ..rules import RULESETS, RuleSet, get_rules

__all__ = ["ValueTable", "load_table", "open_table", "resolve_table", "save_table", "default_table_path", "FORMAT_VERSION",
           "demand_zeros"]

FORMAT = "yahtzee_solver value table"
FORMAT_VERSION = 1


def default_table_path(rules: str | RuleSet = "yahtzee") -> Path:
    """Path of the table shipped with the package for ``rules`` (may not exist)."""
    rules = get_rules(rules)
    try:
        folder = _installed_data_folder()
    except ModuleNotFoundError:
        # Running from a source checkout that is not installed (or shadows the
        # installed package): the tables sit in the checkout's data/ folder.
        folder = Path(__file__).resolve().parent.parent / "data"
    return folder / f"{rules.name}.h5"


def _installed_data_folder() -> Path:
    """The folder of the package ``yahtzee_solver.data`` (the shipped tables).

    Found with ``importlib.util.find_spec``, not ``importlib.resources``, which
    imports ``tempfile`` and friends: a cold query would pay for them.

    Raises
    ------
    ModuleNotFoundError
        If the package is not installed.
    """
    import importlib.util

    spec = importlib.util.find_spec("yahtzee_solver.data")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("yahtzee_solver.data")
    return Path(next(iter(spec.submodule_search_locations)))


def demand_zeros(shape: tuple[int, ...], dtype: type[np.generic] = np.float64) -> np.ndarray:
    """A zero array whose memory is taken 4 KiB page by page as it is first written.

    For big arrays written in a few scattered places (the rows of a partly read
    table, an index of the states a query reaches).  ``np.zeros`` asks Linux for
    transparent huge pages for arrays of 4 MiB and more, and then the first write
    into each 2 MiB zeroes -- and may first compact memory for -- a whole huge
    page: 3 to 30 ms each on the 2-core test machine, against 0.2 ms for writing
    four 64 KiB chunks of a private anonymous mapping.  Arrays written whole
    gain nothing from this.

    Returns
    -------
    ndarray of ``shape`` and ``dtype``, C-contiguous, writable, all zero.
    """
    shape = tuple(int(n) for n in np.atleast_1d(shape))
    nbytes = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
    if nbytes == 0:
        return np.zeros(shape, dtype)
    buf = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE)
    return np.frombuffer(buf, dtype=dtype).reshape(shape)


#: Masks per stored chunk of ``/values``.
CHUNK_ROWS = 64


def chunk_digests(values: np.ndarray, rows: int = CHUNK_ROWS) -> np.ndarray:
    """SHA-256 of each chunk of ``rows`` masks: (n_chunks, 32) uint8 (the ``/chunk_sha256`` dataset)."""
    a = np.ascontiguousarray(values, dtype="<f8")
    n = -(-a.shape[0] // rows)
    out = np.empty((n, 32), dtype=np.uint8)
    for i in range(n):
        out[i] = np.frombuffer(hashlib.sha256(a[i * rows:(i + 1) * rows].tobytes()).digest(), dtype=np.uint8)
    return out


def checksum(values: np.ndarray) -> str:
    """``sha256:<hex>`` of the float64 little-endian C-order bytes of ``values``."""
    a = np.ascontiguousarray(values, dtype="<f8")
    return "sha256:" + hashlib.sha256(a.tobytes()).hexdigest()


class ValueTable:
    """Optimal values of every turn-start state of one rule set.

    Built in memory (``ValueTable(rules, values)``), loaded whole by
    :func:`load_table`, or opened by :func:`open_table`, which reads the values
    from the file only as queries need them (:meth:`values_for`).

    The attributes below are also the constructor's parameters.

    Attributes
    ----------
    rules : RuleSet
        The rule set the values are for.
    values : (2**C, T+1, F) float64, read-only
        Expected future points per state; NaN where unreachable.  For an
        opened table the first access reads the whole file and checks its
        SHA-256 (:class:`TableError` if it does not match).
    path : Path or None
        The file it was loaded from, if any.
    meta : dict
        The file's root attributes (empty for an in-memory table).

    Raises
    ------
    TableError
        If ``values`` does not have the shape and dtype of ``rules``.
    """

    def __init__(self, rules: RuleSet, values: np.ndarray | None = None, path: Path | None = None,
                 meta: dict[str, Any] | None = None, *, _reader: _ChunkReader | None = None) -> None:
        self.rules = rules
        self.path = path
        self.meta: dict[str, Any] = {} if meta is None else meta
        C, T, F = rules.n_categories, rules.upper_threshold, rules.n_flags
        self.shape: tuple[int, int, int] = (1 << C, T + 1, F)
        if values is None and _reader is None:
            raise TypeError("ValueTable needs values or a reader")
        if values is not None and (values.shape != self.shape or values.dtype != np.float64):
            raise TableError(
                f"value table shape {values.shape} {values.dtype} does not fit rules "
                f"{rules.name!r} (want {self.shape} float64)"
            )
        self._values = values
        self._reader = _reader
        self._partial: np.ndarray | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        where = f", path={str(self.path)!r}" if self.path is not None else ""
        how = "" if self._values is not None else ", read on demand"
        return f"ValueTable(rules={self.rules.name!r}, shape={self.shape}{where}{how})"

    @property
    def values(self) -> np.ndarray:
        """The whole table, (2**C, T+1, F) float64, read-only (see the class)."""
        if self._values is None:
            with self._lock:
                if self._values is None:
                    assert self._reader is not None  # a table without values reads them on demand
                    self._values = self._reader.read_all()
        return self._values

    @property
    def is_loaded(self) -> bool:
        """True once the whole table is in memory (built, loaded, or :attr:`values` used)."""
        return self._values is not None

    def verify(self) -> None:
        """Check the values against every checksum the file stores, with the loaders' own checks.

        The SHA-256 of the whole table (as :func:`load_table` checks it) and,
        when the file has them, the SHA-256 of each chunk (``/chunk_sha256``,
        as :func:`open_table` checks each chunk it reads): a file one loader
        refuses fails here.  The whole table is read.  Nothing to check for a
        table built in memory.

        Raises
        ------
        TableError
            The loaders' error: a checksum that does not match (``corrupt``, or
            ``corrupt chunk N``), a ``/chunk_sha256`` of another shape or dtype,
            or a file that cannot be read.
        """
        if self.path is None:
            return
        values = self.values  # an opened table: read whole, its SHA-256 checked
        _check_whole(values, self.meta.get("checksum"), self.path, self.rules.name)
        digests = self._reader.digests if self._reader is not None else _stored_digests(self.path, self.rules.name)
        if digests is not None:
            _check_chunks(values, digests, self.path, self.rules.name)

    def values_for(self, filled: int) -> np.ndarray:
        """Values good for one turn from a card with the boxes ``filled``: a read-only (2**C, T+1, F) float64 array.

        The rows of ``filled`` and of every mask one box later (``filled | 1 << c``)
        hold the table's values -- all that :func:`kernels.turn` and
        :func:`kernels.box_values` read for that turn; when the whole table is
        in memory it is returned as it is.  For an opened table the other rows
        hold 0 until a query needs them (:func:`demand_zeros`: pages cost nothing until written;
        a NaN fill would touch all 8-16 MB), and each chunk of the file is checked
        by its SHA-256 and Fletcher-32 as it is read (:class:`TableError` if
        it fails), so no value from a damaged chunk is ever used.

        Raises
        ------
        ScoreCardError
            If ``filled`` is not a mask of this rule set (checked when rows are
            read on demand; also a ``ValueError``).
        TableError
            If the file cannot be read or a chunk fails its checksum.
        """
        return self._rows_read(filled, lambda C: [filled] + [filled | (1 << c) for c in range(C)
                                                            if not (filled >> c) & 1])

    def values_from(self, filled: int) -> np.ndarray:
        """Values good for the rest of a game from a card with the boxes ``filled``: a read-only (2**C, T+1, F) float64 array.

        The rows of every mask holding the boxes ``filled`` (``m & filled ==
        filled``: every turn-start state the game can still reach) hold the
        table's values -- all that a distribution or a whole-game policy from
        that card reads.  As :meth:`values_for` otherwise: the whole table when
        it is in memory; for an opened table the other rows hold 0, and every
        chunk is checked (SHA-256 and Fletcher-32) as it is read.  A card with
        many boxes filled reads a few chunks (chunks hold 64 consecutive masks,
        so each open box from the seventh category on doubles them); the empty
        card reads them all.

        Raises
        ------
        ScoreCardError
            If ``filled`` is not a mask of this rule set (checked when rows are
            read on demand; also a ``ValueError``).
        TableError
            If the file cannot be read or a chunk fails its checksum.
        """
        def holding(C: int) -> list[int]:
            masks = np.arange(1 << C, dtype=np.int64)
            rows: list[int] = masks[(masks & filled) == filled].tolist()
            return rows

        return self._rows_read(filled, holding)

    def _rows_read(self, filled: int, rows_of: Callable[[int], Iterable[int]]) -> np.ndarray:
        """The whole table if loaded; else the partly read values once the rows ``rows_of(C)`` are read and checked."""
        if self._values is not None:
            return self._values
        C = self.rules.n_categories
        if not 0 <= filled < (1 << C):
            raise ScoreCardError(f"filled mask {filled!r} out of range for rules {self.rules.name!r}")
        rows = rows_of(C)
        with self._lock:
            if self._values is not None:  # read whole by another thread while this one waited
                return self._values
            if self._partial is None:
                self._partial = demand_zeros(self.shape)
            assert self._reader is not None  # values is None: read on demand
            self._reader.read_rows(rows, self._partial)
            return self._partial_view()

    def _partial_view(self) -> np.ndarray:
        """The partly read values, read-only like a whole table (one kernel signature for both)."""
        assert self._partial is not None
        v = self._partial.view()
        v.setflags(write=False)
        return v

    @property
    def empty_value(self) -> float:
        """Optimal expected final score from the empty card (points)."""
        return self.value(0, 0, 0)

    def value(self, mask: int, up: int, yb: int = 0) -> float:
        """Expected future points of turn-start state ``(mask, up, yb)``.

        Raises
        ------
        ScoreCardError
            If the state is not three integers, out of range or unreachable
            (NaN in the table); also a ``ValueError``, as before.
        """
        C, T, F = self.rules.n_categories, self.rules.upper_threshold, self.rules.n_flags
        try:
            if any(isinstance(x, bool) for x in (mask, up, yb)):
                raise TypeError
            mask, up, yb = operator.index(mask), operator.index(up), operator.index(yb)
        except TypeError:
            raise ScoreCardError(f"invalid state ({mask!r}, {up!r}, {yb!r}): mask, upper subtotal and "
                                 "yahtzee-bonus flag must be integers") from None
        if not (0 <= mask < (1 << C) and 0 <= up <= T and 0 <= yb < F):
            raise ScoreCardError(f"state ({mask}, {up}, {yb}) out of range for rules {self.rules.name!r}")
        v = float(self.values_for(mask)[mask, up, yb])
        if np.isnan(v):
            raise ScoreCardError(f"state ({mask}, {up}, {yb}) cannot occur under rules {self.rules.name!r}")
        return v


class _ChunkReader:
    """Reads a table file's ``/values`` whole or chunk by chunk.

    ``checksum`` is the file's SHA-256 attribute, checked when the whole table
    is read; ``digests`` the ``/chunk_sha256`` rows, each checked when its chunk
    is read (HDF5 checks the Fletcher-32 of the stored bytes as well).
    """

    def __init__(self, path: Path, rules_name: str, checksum_attr: object, chunk_rows: int, digests: np.ndarray) -> None:
        self.path: Path = path
        self.rules_name: str = rules_name
        self.checksum: object = checksum_attr
        self.chunk_rows: int = chunk_rows
        self.digests: np.ndarray = digests
        self.loaded: np.ndarray = np.zeros(len(digests), dtype=bool)

    def _fail(self, e: Exception) -> TableError:
        return _read_failure(e, self.path, rebuild_hint(self.rules_name, self.path))

    def read_all(self) -> np.ndarray:
        import h5py

        try:
            with h5py.File(self.path, "r") as f:
                values: np.ndarray = f["values"][...]
        except _H5_ERRORS as e:
            raise self._fail(e) from None
        _check_whole(values, self.checksum, self.path, self.rules_name)
        values.setflags(write=False)
        return values

    def read_rows(self, rows: Iterable[int], out: np.ndarray) -> None:
        """Read the chunks holding ``rows`` (masks) into ``out``, each chunk once."""
        n = self.chunk_rows
        want = sorted({r // n for r in rows} - set(np.flatnonzero(self.loaded).tolist()))
        if not want:
            return
        import h5py

        try:
            with h5py.File(self.path, "r") as f:
                ds = f["values"]
                for i in want:
                    lo, hi = i * n, min((i + 1) * n, out.shape[0])
                    chunk = ds[lo:hi]
                    _check_chunk(i, chunk, self.digests[i], self.path, self.rules_name)
                    out[lo:hi] = chunk
                    self.loaded[i] = True
        except TableError:
            raise
        except _H5_ERRORS as e:
            raise self._fail(e) from None


#: What h5py raises on a file it cannot read: OSError (truncated, not HDF5), KeyError (a missing
#: object), RuntimeError (a damaged B-tree, heap or attribute area), ValueError/TypeError (bad metadata).
_H5_ERRORS = (OSError, KeyError, ValueError, RuntimeError, TypeError)


# -- the checks every loader makes, and the errors they raise ---------------------------------------
def _table_error(what: str, hint: str, reason: str | None = None) -> TableError:
    """``what; hint`` as a :class:`TableError` whose ``remedy`` is ``hint`` (the command it suggests: the
    command line keeps it whole when it shortens a long line) and whose ``reason`` is the part of ``what``
    quoted from elsewhere (h5py's words: shortened first)."""
    return TableError(f"{what}; {hint}", remedy=hint, reason=reason)


def _read_failure(e: Exception, path: Path, hint: str) -> TableError:
    """A file h5py could not read (``e``, one of :data:`_H5_ERRORS`), with its first line quoted."""
    msg = str(e).splitlines()[0] if str(e) else type(e).__name__
    return _table_error(f"cannot read value table {str(path)!r} ({msg})", hint, reason=msg)


def _checksum_failure(path: Path, rules_name: str, chunk: int | None = None) -> TableError:
    what = "corrupt" if chunk is None else f"corrupt chunk {chunk}"
    return _table_error(f"value table {str(path)!r} fails its checksum ({what})", rebuild_hint(rules_name, path))


def _check_whole(values: np.ndarray, stored: object, path: Path, rules_name: str) -> None:
    """The SHA-256 of the whole table against ``stored``, the file's ``checksum`` attribute."""
    if checksum(values) != stored:
        raise _checksum_failure(path, rules_name)


def _check_chunk(i: int, chunk: np.ndarray, digest: np.ndarray, path: Path, rules_name: str) -> None:
    """The SHA-256 of chunk ``i`` of ``/values`` against its ``/chunk_sha256`` row ``digest``."""
    if hashlib.sha256(np.ascontiguousarray(chunk, dtype="<f8").tobytes()).digest() != bytes(digest):
        raise _checksum_failure(path, rules_name, i)


def _check_chunks(values: np.ndarray, digests: np.ndarray, path: Path, rules_name: str) -> None:
    """:func:`_check_chunk` for every chunk of the whole table ``values``, in order.

    ``digests`` must hold one row of 32 bytes per chunk (:func:`_digests_problem`), or nothing is
    checked: a :class:`TableError` naming the file."""
    problem = _digests_problem(digests.shape, digests.dtype, values.shape[0])
    if problem is not None:
        raise _table_error(f"value table {str(path)!r} is damaged: {problem}", rebuild_hint(rules_name, path))
    for i, digest in enumerate(digests):
        _check_chunk(i, values[i * CHUNK_ROWS:(i + 1) * CHUNK_ROWS], digest, path, rules_name)


def _stored_digests(path: Path, rules_name: str) -> np.ndarray | None:
    """The file's ``/chunk_sha256`` rows, as :func:`open_table` reads them; ``None`` for a file without them
    (written before they existed, or not in chunks of :data:`CHUNK_ROWS` masks: then loaded whole)."""
    import h5py

    try:
        with h5py.File(path, "r") as f:
            ds = f["values"]
            digests: np.ndarray | None = (f["chunk_sha256"][...] if _chunked_with_digests(f, ds, path, rules_name)
                                          else None)
    except TableError:
        raise
    except _H5_ERRORS as e:
        raise _read_failure(e, path, rebuild_hint(rules_name, path)) from None
    return digests


def build_command(rules_name: str, path: str | os.PathLike[str], *, force: bool = False) -> str:
    """The ``yahtzee-solve build`` command that writes a table of ``rules_name`` at ``path``, to paste.

    For the table shipped in the package (:func:`default_table_path`, where
    ``build`` writes without ``--out``) the plain ``yahtzee-solve build --rules
    NAME`` the README gives; otherwise with ``--out PATH``, the path shell-quoted.
    ``force`` adds ``--force`` (the file there may be replaced only with it).
    """
    cmd = f"yahtzee-solve build --rules {rules_name}"
    if not (rules_name in RULESETS and _same_path(Path(path), default_table_path(rules_name))):
        cmd = f"{cmd} --out {shlex.quote(str(path))}"
    return f"{cmd} --force" if force else cmd


def _same_path(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except (OSError, RuntimeError, ValueError):  # a symlink loop, an embedded NUL: not the shipped file
        return False


def rebuild_hint(rules_name: str, path: str | os.PathLike[str], *, table: bool | None = None) -> str:
    """How to get a table of ``rules_name`` at ``path``, for the end of an error message.

    ``build --out`` replaces a missing or damaged table (an HDF5 file) but refuses
    any other file, and another program's HDF5 file is not one to replace
    either (``table=False``): for a file that is not a table the hint says to
    move it away or to build at a free path beside it.  ``table=None`` decides
    from the file itself (its HDF5 signature).  The command is :func:`build_command`'s,
    with ``--force`` where :func:`replace_refusal` asks for it (an HDF5 file that
    cannot be read at all, so it cannot be told from another program's).
    """
    p = Path(path)
    if table is None:
        kind = file_kind(p)
        table = kind == "missing" or (kind == "file" and _is_hdf5(p))
    if table:
        force = replace_refusal(p, rules_name) is not None and replace_refusal(p, rules_name, force=True) is None
        return f"rebuild it with: {build_command(rules_name, p, force=force)}"
    return (f"it is not a value table: move it away, or build one beside it with: "
            f"{build_command(rules_name, _free_path(p))}")


def _free_path(path: Path) -> str:
    """A ``.h5`` path beside ``path`` where nothing exists (``build`` writes it), else a placeholder."""
    try:
        candidates = [path.with_suffix(".h5"), path.with_name(f"{path.stem}-table.h5")]
    except ValueError:  # no file name to build on ('.', '/')
        candidates = []
    for c in candidates:
        if c != path and file_kind(c) == "missing" and not os.path.lexists(c):
            return str(c)
    return "OTHER.h5"


def replace_refusal(path: str | os.PathLike[str], rules_name: str, *, force: bool = False) -> str | None:
    """Why a table of ``rules_name`` may not be written over the file at ``path``, or ``None`` when it may.

    The one rule of ``build --out`` (checked before the work) and of
    :func:`save_table` (checked again as it writes).  A missing file, a table of
    the same rule set, and a damaged table (one whose attributes say it is a
    value table but that names no rule set or fails its checks) may be
    replaced -- what the error of a damaged table suggests (``rebuild it with:
    ...``).  Never a file that is not HDF5, nor an HDF5 file that is not a value
    table (another program's: the same errors say to move it away).  Only with
    ``force``: a table of another rule set, and an HDF5 file that cannot be read
    at all (truncated, its structures damaged), which may be a damaged table
    or another program's data -- except at the shipped table's own path
    (:func:`default_table_path`), which holds nothing of the user's.  Anything
    but a regular file is left to the writer, which refuses it.
    """
    p = Path(path)
    if file_kind(p) != "file":
        return None
    if not _is_hdf5(p):
        return f"refusing to overwrite {str(p)!r}: it is not an HDF5 value table (remove it or choose another path)"
    import h5py

    try:
        with h5py.File(p, "r") as f:
            fmt, held = _plain(f.attrs.get("format")), _plain(f.attrs.get("rules"))
    except _H5_ERRORS:  # truncated or damaged: a table of ours, or another program's data
        if force or (rules_name in RULESETS and _same_path(p, default_table_path(rules_name))):
            return None
        return (f"refusing to replace {str(p)!r}: it is an HDF5 file that cannot be read, so it cannot be told "
                "from another program's data (replace it with --force, or choose another path)")
    if not isinstance(fmt, str) or fmt != FORMAT:
        return (f"refusing to overwrite {str(p)!r}: it is an HDF5 file but not a yahtzee_solver value table "
                "(another program's data?): remove it or choose another path")
    if isinstance(held, str) and held != rules_name and not force:
        return (f"refusing to replace {str(p)!r}: it holds the value table of rules {clip(held, 40)!r}, not "
                f"{rules_name!r} (replace it with --force, or choose another path)")
    return None


def save_table(table: ValueTable, path: str | os.PathLike[str], *, n_states: int | None = None,
               force: bool = False) -> Path:
    """Write ``table`` to ``path`` atomically (temp file in the same folder, then rename).

    Missing folders are created.  An existing file is replaced only as
    :func:`replace_refusal` allows: a table of the same rule set or a damaged
    one; a table of another rule set, or an HDF5 file that cannot be read at
    all, only with ``force``; never a file of another kind.
    SIGINT and SIGTERM are deferred while the file is written and renamed
    (well under a second), so an interrupted build leaves either the old file
    or the complete new one, and no temp file.

    Returns
    -------
    Path
        The path written.

    Raises
    ------
    TableError
        If the folder cannot be written, or ``path`` exists and is not a
        regular HDF5 file (a device, a pipe, a folder, a JSON file, ...), is
        another program's HDF5 file, or (without ``force``) a table of another
        rule set or an HDF5 file that cannot be read.
    """
    path = Path(path)
    kind = file_kind(path)
    if kind not in ("missing", "file"):
        raise TableError(f"refusing to write table to {str(path)!r}: it exists and is not a regular file")
    refused = replace_refusal(path, table.rules.name, force=force)
    if refused is not None:
        raise TableError(refused)
    v = np.ascontiguousarray(table.values, dtype=np.float64)
    with _signals_held():
        _write_atomic(table, v, path, n_states)
    return path


@contextmanager
def _signals_held() -> Iterator[None]:
    """Defer SIGINT/SIGTERM until the block is done, then deliver them as usual.

    Python runs signal handlers in the main thread whichever thread the OS
    picked (numba's workers included), so a deferring handler is reliable
    where a thread signal mask is not.  Outside the main thread (where
    handlers cannot be set) the block runs unprotected.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []
    sigs = (signal.SIGINT, signal.SIGTERM)
    old = {s: signal.signal(s, lambda signum, frame: pending.append(signum)) for s in sigs}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
        for signum in dict.fromkeys(pending):
            signal.raise_signal(signum)


_HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"


def _is_hdf5(path: Path) -> bool:
    """True if ``path`` starts with the HDF5 signature (a table, perhaps a damaged one)."""
    try:
        with path.open("rb") as f:
            return f.read(len(_HDF5_SIGNATURE)) == _HDF5_SIGNATURE
    except OSError:
        return False


def _write_atomic(table: ValueTable, v: np.ndarray, path: Path, n_states: int | None) -> None:
    import h5py

    from .._version import __version__

    def write(tmp: Path) -> None:
        with h5py.File(tmp, "w") as f:
            f.create_dataset(
                "values",
                data=v,
                chunks=(min(CHUNK_ROWS, v.shape[0]), v.shape[1], v.shape[2]),
                compression="gzip",
                compression_opts=6,
                shuffle=True,
                fletcher32=True,
            )
            f.attrs["format"] = FORMAT
            f.attrs["format_version"] = FORMAT_VERSION
            f.attrs["rules"] = table.rules.name
            f.attrs["rules_json"] = table.rules.to_json()
            f.attrs["package_version"] = __version__
            f.attrs["empty_value"] = float(v[0, 0, 0])
            f.attrs["n_states"] = int(n_states if n_states is not None else np.count_nonzero(~np.isnan(v)))
            f.attrs["checksum"] = checksum(v)
            f.create_dataset("chunk_sha256", data=chunk_digests(v, CHUNK_ROWS))

    write_atomic(path, write, private=False,
                 error=lambda reason: TableError(f"cannot write table to {str(path)!r}: {reason}"))


def _plain(v: Any) -> Any:
    """An HDF5 attribute as plain Python (str, int, float), so messages and ``meta`` show ``2``, not ``np.int64(2)``."""
    if isinstance(v, bytes):
        return v.decode()
    if isinstance(v, np.generic):
        return v.item()
    return v


_TABLE_CACHE: dict[tuple[str, str | None, int, int, bool], ValueTable] = {}


def load_table(
    rules: str | RuleSet | None = "yahtzee",
    path: str | os.PathLike[str] | None = None,
    *,
    verify: bool = True,
) -> ValueTable:
    """Load and validate a whole value table.

    Parameters
    ----------
    rules : str, RuleSet or None
        The rule set the table must be built for; ``None``: the rule set the
        file ``path`` names -- read it from the result's :attr:`ValueTable.rules`
        (without ``path``: the default, ``yahtzee``, as :func:`~yahtzee_solver.rules.get_rules`
        reads ``None``).
    path : path-like, optional
        The file; default: the table shipped for ``rules`` (:func:`default_table_path`).
    verify : bool
        Check the SHA-256 checksum of the values and, where the file stores
        them, each chunk's (``/chunk_sha256``, as :func:`open_table` checks the
        chunks it reads; about 30 ms in all for Yahtzee).  Shape, dtype,
        format version, rule set and the per-chunk Fletcher-32 checksums are
        always checked.

    Returns
    -------
    ValueTable
        Cached per (path, modification time): a second load is free.

    Raises
    ------
    TableError
        If the file is missing, not a regular file, unreadable, truncated, not a value table, of
        another format version, built for other rules (or rules this version does not know),
        damaged (a root attribute that is not one value of its kind, see :data:`ATTRIBUTE_KINDS`;
        an ``n_states`` above the size of the values; a ``/chunk_sha256`` of another shape or
        dtype), or its values do not match its checksums.  The message names the file (and the
        attribute) and says how to rebuild it.
    """
    return _open(rules, path, whole=True, verify=verify)


def open_table(rules: str | RuleSet | None = "yahtzee", path: str | os.PathLike[str] | None = None) -> ValueTable:
    """Open a value table for a few queries: validate it now, read its values as queries need them.

    The file's attributes, shape and rule set are checked as by
    :func:`load_table`; values are then read chunk by chunk (64 masks each)
    by :meth:`ValueTable.values_for` and :meth:`ValueTable.value`, and HDF5
    checks each chunk's Fletcher-32 checksum as it reads it, and this function
    its SHA-256 (``/chunk_sha256``), so a corrupted, truncated or edited file
    raises :class:`TableError` before any value from the damaged part is used.  A query from a cold shell reads a handful of
    chunks instead of decompressing and hashing the whole file.
    :attr:`ValueTable.values` still gives the whole table (SHA-256 checked).

    Parameters and errors as :func:`load_table`; a file without per-chunk
    digests (written before they existed) is loaded whole, SHA-256 checked, at once.
    """
    return _open(rules, path, whole=False, verify=True)


def _open(rules: str | RuleSet | None, path: str | os.PathLike[str] | None, *, whole: bool, verify: bool) -> ValueTable:
    if rules is None and path is None:  # the default rule set's shipped table, as get_rules(None)
        rules = "yahtzee"
    rules = get_rules(rules) if rules is not None else None
    if path is not None:
        p = Path(path)
    else:
        assert rules is not None  # one of the two is given (checked above)
        p = default_table_path(rules)
    name = rules.name if rules is not None else "NAME"
    try:
        st = p.stat()
    except OSError:
        raise _table_error(f"value table {str(p)!r} not found", rebuild_hint(name, p, table=True)) from None
    if file_kind(st) != "file":
        raise _table_error(f"value table {str(p)!r} is not a regular file", rebuild_hint(name, p, table=False))
    key = (str(p.resolve()), rules.name if rules is not None else None, st.st_mtime_ns, st.st_size)
    for lazy in (False, True) if not whole else (False,):
        hit = _TABLE_CACHE.get((*key, lazy))
        if hit is not None and (lazy or not verify or hit.meta.get("_verified")):
            return hit

    import h5py

    def hint() -> str:  # a damaged table is rebuilt in place; a file of another kind is not replaced
        return rebuild_hint(rules.name if isinstance(rules, RuleSet) else name, p)

    try:
        with h5py.File(p, "r") as f:
            attrs: dict[str, Any] = {k: _plain(v) for k, v in f.attrs.items()}
            fmt = attrs.get("format")
            odd = _attribute_problem("format", fmt) if fmt is not None else None
            if odd is not None or fmt != FORMAT or not isinstance(f.get("values"), h5py.Dataset):
                raise _table_error(f"{str(p)!r} is not a yahtzee_solver value table" + (f" ({odd})" if odd else ""),
                                   rebuild_hint(name, p, table=False))
            _check_attributes(attrs, ("rules",), p, hint)
            if rules is None:
                rules = _rules_named_in(p, attrs.get("rules"))
            _check_attributes(attrs, tuple(ATTRIBUTE_KINDS), p, hint)
            if attrs.get("format_version") != FORMAT_VERSION:
                raise _table_error(
                    f"{str(p)!r} has table format version {attrs.get('format_version')!r}, "
                    f"this version reads {FORMAT_VERSION}", hint()
                )
            if attrs.get("rules") != rules.name:
                raise _table_error(
                    f"{str(p)!r} holds rules {attrs.get('rules')!r}, not {rules.name!r}",
                    f"pass --rules {attrs.get('rules')} to use it, or build a {rules.name} table with: "
                    f"yahtzee-solve build --rules {rules.name} --out OTHER.h5"
                )
            try:
                stored = json.loads(attrs.get("rules_json", ""))
            except (TypeError, ValueError):
                stored = None
            if stored != json.loads(rules.to_json()):
                raise _table_error(f"{str(p)!r} was built for a different definition of rules {rules.name!r}", hint())
            ds = f["values"]
            C, T, F = rules.n_categories, rules.upper_threshold, rules.n_flags
            if ds.shape != (1 << C, T + 1, F) or ds.dtype != np.float64:
                raise _table_error(
                    f"{str(p)!r} has values of shape {ds.shape} {ds.dtype}, want {(1 << C, T + 1, F)} float64", hint()
                )
            n_states = attrs.get("n_states")
            if n_states is not None and not 0 <= n_states <= ds.size:
                raise _table_error(f"value table {str(p)!r} is damaged: its attribute 'n_states' is {n_states:,}, "
                                   f"not a count of reachable states among its {ds.size:,} entries", hint())
            chunked = _chunked_with_digests(f, ds, p, rules.name)
            lazy = not whole and chunked
            values = None if lazy else ds[...]
            # a whole load checks the chunks' digests too, so that no loader takes a file another refuses
            digests = f["chunk_sha256"][...] if chunked and (lazy or verify) else None
    except TableError:
        raise
    except _H5_ERRORS as e:
        raise _read_failure(e, p, hint()) from None
    key = (key[0], rules.name, key[2], key[3])
    if lazy:
        assert digests is not None
        reader = _ChunkReader(p, rules.name, attrs.get("checksum"), CHUNK_ROWS, digests)
        table = ValueTable(rules, None, p, attrs, _reader=reader)
        _TABLE_CACHE[(*key, True)] = table
        return table
    assert values is not None  # not lazy: read whole
    if verify:
        _check_whole(values, attrs.get("checksum"), p, rules.name)
        if digests is not None:
            _check_chunks(values, digests, p, rules.name)
    values.setflags(write=False)
    attrs["_verified"] = verify
    table = ValueTable(rules, values, p, attrs)
    _TABLE_CACHE[(*key, False)] = table
    return table


def _chunked_with_digests(f: Any, ds: Any, path: Path, rules_name: str) -> bool:
    """True if ``/values`` is stored in chunks of :data:`CHUNK_ROWS` whole masks with a ``/chunk_sha256`` row each.

    Raises
    ------
    TableError
        If the file has a ``/chunk_sha256`` that is not a uint8 dataset of one 32-byte row per chunk (a
        group, another shape or dtype): damaged, not a file written before the digests existed.
    """
    import h5py

    if "chunk_sha256" not in f:
        return False
    d = f["chunk_sha256"]
    problem = (_digests_problem(d.shape, d.dtype, ds.shape[0]) if isinstance(d, h5py.Dataset)
               else "its /chunk_sha256 is not a dataset")
    if problem is not None:
        raise _table_error(f"value table {str(path)!r} is damaged: {problem}", rebuild_hint(rules_name, path))
    return ds.chunks is not None and ds.chunks == (min(CHUNK_ROWS, ds.shape[0]), *ds.shape[1:])


def _digests_problem(shape: tuple[int, ...], dtype: Any, n_masks: int) -> str | None:
    """Why digests of ``shape`` and ``dtype`` are not the ``/chunk_sha256`` of a table of ``n_masks`` masks, or ``None``."""
    want = (-(-n_masks // CHUNK_ROWS), 32)
    if tuple(shape) == want and dtype == np.uint8:
        return None
    return f"its /chunk_sha256 has shape {tuple(shape)} {dtype}, want {want} uint8 (the SHA-256 of each chunk)"


#: The root attributes a table may hold, with the kind each must be: one value (a scalar) of it.
ATTRIBUTE_KINDS: dict[str, type] = {"format": str, "format_version": int, "rules": str, "rules_json": str,
                                    "package_version": str, "empty_value": float, "n_states": int, "checksum": str}


def _attribute_problem(name: str, value: object) -> str | None:
    """Why the root attribute ``name`` (as :func:`_plain` gives it) is not one value of its kind
    (:data:`ATTRIBUTE_KINDS`), or ``None``; a decimal attribute may hold a whole number."""
    kind = ATTRIBUTE_KINDS[name]
    if isinstance(value, kind) and not isinstance(value, bool):
        return None
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        return None
    return f"its attribute {name!r} is {_kind_of(value)}, not {_KIND_WORDS[kind]}"


#: What an attribute must be, in words (:func:`_attribute_problem`), and what it is (:func:`_kind_of`).
_KIND_WORDS = {str: "a string", int: "an integer", float: "a number"}
_IS_WORDS = {bool: "true or false", str: "a string", int: "an integer", float: "a decimal number"}


def _kind_of(value: object) -> str:
    """What an attribute holds, in words: ``an array of shape (2,) int64``, ``a string``, ``empty``, ..."""
    import h5py

    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} {value.dtype}"
    if isinstance(value, h5py.Empty):  # a type and no value
        return "empty"
    return next((words for kind, words in _IS_WORDS.items() if isinstance(value, kind)), f"a {type(value).__name__}")


def _check_attributes(attrs: dict[str, Any], names: tuple[str, ...], path: Path, hint: Callable[[], str]) -> None:
    """Each root attribute of ``names`` the file holds is one value of its kind (:data:`ATTRIBUTE_KINDS`).

    Raises
    ------
    TableError
        Naming the first that is not (an array, a number for a string, ...) and the file, with ``hint()``.
    """
    for name in names:
        problem = _attribute_problem(name, attrs[name]) if name in attrs else None
        if problem is not None:
            raise _table_error(f"value table {str(path)!r} is damaged: {problem}", hint())


def _rules_named_in(path: Path, name: object) -> RuleSet:
    """The rule set a file names in its ``rules`` attribute (``load_table(None, path)``)."""
    if not isinstance(name, str):
        raise _table_error(f"{str(path)!r} does not name its rule set", rebuild_hint("NAME", path, table=True))
    if name not in RULESETS:
        raise TableError(
            f"value table {os.fspath(path)!r} holds rules {name!r}, unknown to this version "
            f"(known: {', '.join(RULESETS)})"
        )
    return RULESETS[name]


def resolve_table(rules: RuleSet, table: ValueTable | None = None) -> ValueTable:
    """``table`` if it was built for ``rules``, or the shipped table of ``rules`` when ``None``.

    Raises
    ------
    UsageError
        If ``table`` holds another rule set, or is not a :class:`ValueTable` (a path, say).
    TableError
        If the shipped table cannot be loaded.
    """
    if table is None:
        return load_table(rules)
    if not isinstance(table, ValueTable):
        raise UsageError(f"invalid table {table!r}: want a ValueTable (load_table(rules, path) reads a file), "
                         f"or None for the shipped one")
    if table.rules != rules:
        raise UsageError(f"table is for rules {table.rules.name!r}, not {rules.name!r}")
    return table
