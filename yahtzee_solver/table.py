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

Root attributes: ``format`` (``"yahtzee_solver value table"``),
``format_version``, ``rules`` (name), ``rules_json`` (full definition,
``RuleSet.to_json``), ``package_version``, ``empty_value`` (the optimal
expected final score, points), ``n_states`` and ``checksum``
(``sha256:`` of the C-order little-endian float64 bytes of ``/values``).
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from .errors import TableError, UsageError
from .files import file_kind, write_atomic
from .rules import RuleSet, get_rules

__all__ = ["ValueTable", "load_table", "resolve_table", "save_table", "default_table_path", "FORMAT_VERSION"]

FORMAT = "yahtzee_solver value table"
FORMAT_VERSION = 1


def default_table_path(rules: str | RuleSet = "yahtzee") -> Path:
    """Path of the table shipped with the package for ``rules`` (may not exist)."""
    rules = get_rules(rules)
    try:
        folder = Path(str(resources.files("yahtzee_solver.data")))
    except ModuleNotFoundError:
        # Running from a source checkout that is not installed (or shadows the
        # installed package): the tables sit in the checkout's data/ folder.
        folder = Path(__file__).resolve().parent.parent / "data"
    return folder / f"{rules.name}.h5"


def checksum(values: np.ndarray) -> str:
    """``sha256:<hex>`` of the float64 little-endian C-order bytes of ``values``."""
    a = np.ascontiguousarray(values, dtype="<f8")
    return "sha256:" + hashlib.sha256(a.tobytes()).hexdigest()


@dataclass(frozen=True)
class ValueTable:
    """Optimal values of every turn-start state of one rule set.

    Attributes
    ----------
    rules : RuleSet
    values : (2**C, T+1, F) float64, read-only
        Expected future points per state; NaN where unreachable.
    path : Path or None
        The file it was loaded from, if any.
    meta : dict
        The file's root attributes (empty for an in-memory table).
    """

    rules: RuleSet
    values: np.ndarray
    path: Path | None = None
    meta: dict = field(default_factory=dict, compare=False)

    def __post_init__(self):
        C, T, F = self.rules.n_categories, self.rules.upper_threshold, self.rules.n_flags
        if self.values.shape != (1 << C, T + 1, F) or self.values.dtype != np.float64:
            raise TableError(
                f"value table shape {self.values.shape} {self.values.dtype} does not fit rules "
                f"{self.rules.name!r} (want {(1 << C, T + 1, F)} float64)"
            )

    @property
    def empty_value(self) -> float:
        """Optimal expected final score from the empty card (points)."""
        return float(self.values[0, 0, 0])

    def value(self, mask: int, up: int, yb: int = 0) -> float:
        """Expected future points of turn-start state ``(mask, up, yb)``.

        Raises
        ------
        ValueError
            If the state is out of range or unreachable (NaN in the table).
        """
        C, T, F = self.rules.n_categories, self.rules.upper_threshold, self.rules.n_flags
        if not (0 <= mask < (1 << C) and 0 <= up <= T and 0 <= yb < F):
            raise ValueError(f"state ({mask}, {up}, {yb}) out of range for rules {self.rules.name!r}")
        v = float(self.values[mask, up, yb])
        if np.isnan(v):
            raise ValueError(f"state ({mask}, {up}, {yb}) cannot occur under rules {self.rules.name!r}")
        return v


def _rebuild_hint(rules_name: str, path) -> str:
    return f"rebuild it with: yahtzee-solve build --rules {rules_name} --out {path}"


def save_table(table: ValueTable, path: str | os.PathLike, *, n_states: int | None = None) -> Path:
    """Write ``table`` to ``path`` atomically (temp file in the same folder, then rename).

    Missing folders are created.  An existing file is replaced only if it is
    an HDF5 file (an older or damaged table), never a file of another kind.
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
        regular HDF5 file (a device, a pipe, a folder, a JSON file, ...).
    """
    path = Path(path)
    kind = file_kind(path)
    if kind not in ("missing", "file"):
        raise TableError(f"refusing to write table to {str(path)!r}: it exists and is not a regular file")
    if kind == "file" and not _is_hdf5(path):
        raise TableError(
            f"refusing to overwrite {str(path)!r}: it is not an HDF5 value table (remove it or choose another path)"
        )
    v = np.ascontiguousarray(table.values, dtype=np.float64)
    with _signals_held():
        _write_atomic(table, v, path, n_states)
    return path


@contextmanager
def _signals_held():
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
        for s in dict.fromkeys(pending):
            signal.raise_signal(s)


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

    from . import __version__

    def write(tmp: Path) -> None:
        with h5py.File(tmp, "w") as f:
            f.create_dataset(
                "values",
                data=v,
                chunks=(min(64, v.shape[0]), v.shape[1], v.shape[2]),
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

    write_atomic(path, write, private=False,
                 error=lambda reason: TableError(f"cannot write table to {str(path)!r}: {reason}"))


def _plain(v):
    """An HDF5 attribute as plain Python (str, int, float), so messages and ``meta`` show ``2``, not ``np.int64(2)``."""
    if isinstance(v, bytes):
        return v.decode()
    if isinstance(v, np.generic):
        return v.item()
    return v


_TABLE_CACHE: dict[tuple[str, str, int, int], ValueTable] = {}


def load_table(
    rules: str | RuleSet = "yahtzee",
    path: str | os.PathLike | None = None,
    *,
    verify: bool = True,
) -> ValueTable:
    """Load and validate a value table.

    Parameters
    ----------
    rules : str or RuleSet
        The rule set the table must be built for.
    path : path-like, optional
        The file; default: the table shipped for ``rules`` (:func:`default_table_path`).
    verify : bool
        Check the SHA-256 checksum of the values (about 15 ms).  Shape, dtype,
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
        another format version, built for other rules, or its values do not
        match its checksum.  The message says how to rebuild it.
    """
    rules = get_rules(rules)
    p = Path(path) if path is not None else default_table_path(rules)
    hint = _rebuild_hint(rules.name, p)
    try:
        st = p.stat()
    except OSError:
        raise TableError(f"value table {str(p)!r} not found; {hint}") from None
    if file_kind(st) != "file":
        raise TableError(f"value table {str(p)!r} is not a regular file; {hint}")
    key = (str(p.resolve()), rules.name, st.st_mtime_ns, st.st_size)
    if key in _TABLE_CACHE and (not verify or _TABLE_CACHE[key].meta.get("_verified")):
        return _TABLE_CACHE[key]

    import h5py

    try:
        with h5py.File(p, "r") as f:
            attrs = {k: _plain(v) for k, v in f.attrs.items()}
            if attrs.get("format") != FORMAT or "values" not in f:
                raise TableError(f"{str(p)!r} is not a yahtzee_solver value table; {hint}")
            if int(attrs.get("format_version", -1)) != FORMAT_VERSION:
                raise TableError(
                    f"{str(p)!r} has table format version {attrs.get('format_version')!r}, "
                    f"this version reads {FORMAT_VERSION}; {hint}"
                )
            if attrs.get("rules") != rules.name:
                raise TableError(
                    f"{str(p)!r} holds rules {attrs.get('rules')!r}, not {rules.name!r}; "
                    f"pass --rules {attrs.get('rules')} to use it, or build a {rules.name} table with: "
                    f"yahtzee-solve build --rules {rules.name} --out OTHER.h5"
                )
            try:
                stored = json.loads(attrs.get("rules_json", ""))
            except (TypeError, ValueError):
                stored = None
            if stored != json.loads(rules.to_json()):
                raise TableError(f"{str(p)!r} was built for a different definition of rules {rules.name!r}; {hint}")
            ds = f["values"]
            C, T, F = rules.n_categories, rules.upper_threshold, rules.n_flags
            if ds.shape != (1 << C, T + 1, F) or ds.dtype != np.float64:
                raise TableError(
                    f"{str(p)!r} has values of shape {ds.shape} {ds.dtype}, want {(1 << C, T + 1, F)} float64; {hint}"
                )
            values = ds[...]
    except TableError:
        raise
    except (OSError, KeyError, ValueError) as e:
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise TableError(f"cannot read value table {str(p)!r} ({msg}); {hint}") from None
    if verify and checksum(values) != attrs.get("checksum"):
        raise TableError(f"value table {str(p)!r} fails its checksum (corrupt); {hint}")
    values.setflags(write=False)
    attrs["_verified"] = verify
    table = ValueTable(rules, values, p, attrs)
    _TABLE_CACHE[key] = table
    return table


def resolve_table(rules: RuleSet, table: ValueTable | None = None) -> ValueTable:
    """``table`` if it was built for ``rules``, or the shipped table of ``rules`` when ``None``.

    Raises
    ------
    UsageError
        If ``table`` holds another rule set.
    TableError
        If the shipped table cannot be loaded.
    """
    if table is None:
        return load_table(rules)
    if table.rules != rules:
        raise UsageError(f"table is for rules {table.rules.name!r}, not {rules.name!r}")
    return table
