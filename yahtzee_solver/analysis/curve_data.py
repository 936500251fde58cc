"""Shipped target curves: the empty card's best P(final >= T), computed once, read instantly.

The target-curve DP from the empty card solves every turn-start state with a
vector over the points gained (:func:`yahtzee_solver.strategy.objectives.target_curve`):
minutes of work.  ``scripts/target_curve_data.py`` runs it once per rule set and
writes ``data/target-curve-<rules>.json`` (installed with the package beside the
value tables); ``yahtzee-solve target-curve`` from the empty card with that rule
set and a ``--max`` within the file's reads it instead of running the DP.

The file (UTF-8 JSON, written atomically) holds:

``format``, ``version``
    :data:`FORMAT` and :data:`FORMAT_VERSION`.
``rules``, ``max_target``
    The rule set's name and the largest target T.
``best``, ``expected_score_policy``
    ``max_target + 1`` probabilities each: ``best[T]`` = max over policies of
    P(final total >= T) (the DP), ``expected_score_policy[T]`` = P(final total
    >= T) under the expected-score policy (its exact final-score distribution).
``sha256``
    :func:`digest` of the two columns (a hand-edited or truncated file is refused).
``command``, ``seconds``, ``cpu_seconds``, ``peak_rss_mib``, ``n_states``, ``created``, ``version_of_package``
    How it was made: the producing command line, the DP's wall and CPU time
    (seconds), the process's peak resident memory (MiB), the states solved,
    the UTC time and the package version.

On load (:func:`load_curve`) the file is validated: format, version, rule set,
lengths, digest, and the invariants every exact curve satisfies -- both
columns are probabilities, equal to 1 at T = 0, never rising with T, and
``best >= expected_score_policy`` at every T (each to :data:`TOLERANCE`, the
float rounding of the DP and of the distribution's sums), and exactly 0 above
the most the rule set can score (:func:`max_final_total`).  The columns read
are then clipped to [0, 1] and exactly 1 at T = 0
(:func:`yahtzee_solver.strategy.probability.clip_probability`: a file written
before the sums were clipped at their source carries their rounding).  A file reaching that
total answers any larger ``--max`` (:func:`shipped_curve` pads it with zeros).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar
from pathlib import Path

import numpy as np

from ..errors import DataFileError, TableError
from ..files import ensure_folder, read_json, write_atomic
from ..rules import RuleSet, get_rules
from ..strategy.probability import clip_probability

_T = TypeVar("_T")

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "PRODUCER",
    "ShippedCurve",
    "digest",
    "curve_path",
    "save_curve",
    "load_curve",
    "shipped_curve",
    "SHIPPED_RULES",
    "max_final_total",
]

FORMAT = "yahtzee_solver target curve"
FORMAT_VERSION = 1
#: The script that writes the shipped files (named in the CLI's output).
PRODUCER = "scripts/target_curve_data.py"
#: Largest curve file read (bytes): two columns of at most 10,001 numbers.
MAX_BYTES = 2 * 1024 * 1024
#: The rule sets whose curve file is shipped in ``data/`` (a missing one is reported, not silently recomputed).
SHIPPED_RULES = ("yahtzee", "yacht")
#: Slack of the invariants (probability units): the DP's float rounding.
TOLERANCE = 1e-12


@dataclass(frozen=True)
class ShippedCurve:
    """A validated target-curve file (see the module docstring).

    Attributes
    ----------
    rules : RuleSet
    best, expected_score_policy : (max_target + 1,) float64, read-only
        P(final total >= T) for T = 0..max_target: best achievable, and under
        the expected-score policy.
    command : str
        The command line that produced the file.
    seconds, cpu_seconds : float
        Wall and CPU time of the DP (seconds).
    peak_rss_mib : float
        Peak resident memory of the producing process (MiB).
    n_states : int
        Turn-start states the DP solved.
    path : Path
    padded_from : int or None
        None when every entry was read from the file; else the first T not in the
        file, above the most the rule set can score (:func:`max_final_total`), whose
        entries are exact zeros added on read.
    """

    rules: RuleSet
    best: np.ndarray
    expected_score_policy: np.ndarray
    command: str
    seconds: float
    cpu_seconds: float
    peak_rss_mib: float
    n_states: int
    path: Path
    padded_from: int | None = None

    @property
    def max_target(self) -> int:
        return int(self.best.shape[0]) - 1


def digest(best: np.ndarray, expected: np.ndarray) -> str:
    """``sha256:<hex>`` of the two columns as float64 little-endian bytes, ``best`` first."""
    h = hashlib.sha256()
    for col in (best, expected):
        h.update(np.ascontiguousarray(col, dtype="<f8").tobytes())
    return "sha256:" + h.hexdigest()


def curve_path(rules: str | RuleSet, folder: str | Path | None = None) -> Path:
    """``<folder>/target-curve-<rules>.json``; default folder: the shipped tables' (``data/``)."""
    rules = get_rules(rules)
    if folder is None:
        from ..solver.table import default_table_path

        folder = default_table_path(rules).parent
    return Path(folder) / f"target-curve-{rules.name}.json"


def save_curve(path: str | Path, rules: str | RuleSet, best: np.ndarray, expected: np.ndarray, *, command: str, seconds: float,
               cpu_seconds: float, peak_rss_mib: float, n_states: int) -> Path:
    """Write a target-curve file atomically (temp file + rename), after checking what :func:`load_curve` checks.

    Parameters
    ----------
    best, expected : (max_target + 1,) array of float
        The two columns (probabilities).

    Raises
    ------
    TableError
        If the columns break an invariant (nothing is written).
    DataFileError
        If the file cannot be written.
    """
    from .._version import __version__

    rules = get_rules(rules)
    best = np.asarray(best, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    _check_columns(best, expected, "the curve to save")
    data = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "rules": rules.name,
        "max_target": int(best.shape[0] - 1),
        "best": best.tolist(),
        "expected_score_policy": expected.tolist(),
        "sha256": digest(best, expected),
        "command": str(command),
        "seconds": float(seconds),
        "cpu_seconds": float(cpu_seconds),
        "peak_rss_mib": float(peak_rss_mib),
        "n_states": int(n_states),
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "version_of_package": __version__,
    }
    path = Path(path)
    try:
        ensure_folder(path.parent)
    except DataFileError as e:
        raise DataFileError(f"cannot write {str(path)!r}: {e}") from None
    # a shipped file: readable by everyone (0666 less the umask), not owner-only
    return write_atomic(path, json.dumps(data, indent=1, sort_keys=True), private=False)


def _check_columns(best: np.ndarray, expected: np.ndarray, what: str) -> None:
    def bad(msg: str) -> TableError:
        return TableError(f"{what} is invalid: {msg}")

    if best.ndim != 1 or best.shape != expected.shape or best.size == 0:
        raise bad(f"columns of lengths {best.size} and {expected.size}, want two equal non-empty ones")
    for name, col in (("best", best), ("expected_score_policy", expected)):
        if not np.all(np.isfinite(col)) or col.min() < -TOLERANCE or col.max() > 1.0 + TOLERANCE:
            raise bad(f"{name} holds values outside [0, 1]")
        if abs(col[0] - 1.0) > TOLERANCE:
            raise bad(f"{name}[0] = {col[0]!r}, want 1 (every final total is >= 0)")
        rise = np.flatnonzero(np.diff(col) > TOLERANCE)
        if rise.size:
            T = int(rise[0]) + 1
            raise bad(f"{name} rises at T = {T} ({col[T - 1]!r} -> {col[T]!r})")
    below = np.flatnonzero(best < expected - TOLERANCE)
    if below.size:
        T = int(below[0])
        raise bad(f"best[{T}] = {best[T]!r} is below the expected-score policy's {expected[T]!r}")


def load_curve(path: str | Path, rules: str | RuleSet | None = None) -> ShippedCurve:
    """Read and validate a target-curve file.

    Parameters
    ----------
    path : str or Path
    rules : str, RuleSet or None
        When given, the file must be for this rule set.

    Raises
    ------
    FileNotFoundError
        If there is no file.
    TableError
        If the file is not a valid target curve (for ``rules``): one line naming the problem.
    DataFileError
        If it cannot be read.
    """
    path = Path(path)
    try:
        data = read_json(path, MAX_BYTES)
    except ValueError as e:
        raise TableError(f"target curve {str(path)!r} is corrupt: {e}") from None

    def bad(msg: str) -> TableError:
        return TableError(f"target curve {str(path)!r} is invalid: {msg}")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise bad(f"not a {FORMAT!r} file")
    if data.get("version") != FORMAT_VERSION:
        raise bad(f"format version {data.get('version')!r}, want {FORMAT_VERSION}")
    try:
        named: Any = data.get("rules")  # checked by get_rules
        file_rules = get_rules(named)
    except Exception:
        raise bad(f"unknown rules {data.get('rules')!r}") from None
    if rules is not None and file_rules != get_rules(rules):
        raise bad(f"made for rules {file_rules.name!r}, want {get_rules(rules).name!r}")
    def field(name: str, convert: Callable[[Any], _T]) -> _T:
        if name not in data:
            raise bad(f"missing field {name!r}")
        try:
            return convert(data[name])
        except (TypeError, ValueError, OverflowError):
            raise bad(f"malformed field {name!r}: {_short(data[name])}") from None

    best = field("best", _column)
    expected = field("expected_score_policy", _column)
    top = field("max_target", lambda v: v)
    meta = (field("command", _text), field("seconds", _number), field("cpu_seconds", _number),
            field("peak_rss_mib", _number), field("n_states", _integer))
    if isinstance(top, bool) or not isinstance(top, int) or best.shape != (top + 1,):
        raise bad(f"max_target {top!r} does not match {best.size} entries")
    if data.get("sha256") != digest(best, expected):
        raise bad("sha256 does not match the columns (edited or damaged)")
    _check_columns(best, expected, f"target curve {str(path)!r}")
    most = max_final_total(file_rules)
    for name, col in (("best", best), ("expected_score_policy", expected)):
        if np.any(col[most + 1:] != 0.0):
            raise bad(f"{name} is not 0 above {most} points, the most {file_rules.name} can score")
    # within TOLERANCE of [0, 1] and of 1 at T = 0 (checked above): the sums' rounding, clipped as every surface's
    best, expected = clip_probability(best), clip_probability(expected)
    best[0] = expected[0] = 1.0  # P(final >= 0): certain
    best.setflags(write=False)
    expected.setflags(write=False)
    return ShippedCurve(file_rules, best, expected, *meta, path)


def max_final_total(rules: str | RuleSet) -> int:
    """The most a game of ``rules`` can score (points): P(final total >= T) = 0 exactly for every larger T.

    The bound of :func:`yahtzee_solver.strategy.objectives.max_points_to_come` from the empty card
    (the most each box can hold, the upper bonus, a Yahtzee bonus on every turn after the first).
    """
    from ..strategy.objectives import max_points_to_come

    return int(max_points_to_come(get_rules(rules), [0], [0], [0])[0])


def _column(v: Any) -> np.ndarray:
    if not isinstance(v, list):
        raise TypeError("not a list")
    return np.array(v, dtype=np.float64)


def _number(v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError("not a number")
    return float(v)


def _text(v: Any) -> str:
    if not isinstance(v, str):
        raise TypeError("not a string")
    return v


def _integer(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError("not an integer")
    return v


def _short(v: Any) -> str:
    text = json.dumps(v)
    return text if len(text) <= 40 else text[:37] + "..."


def shipped_curve(rules: str | RuleSet, max_target: int, folder: str | Path | None = None) -> ShippedCurve | None:
    """The shipped curve of ``rules`` for T = 0..``max_target``, or None when the file does not cover it.

    A file that reaches :func:`max_final_total` covers every larger ``max_target``:
    its columns are extended with exact zeros (``padded_from`` says from which T).

    Raises
    ------
    TableError, DataFileError
        If the shipped file exists but is invalid or unreadable.
    """
    path = curve_path(rules, folder)
    try:
        curve = load_curve(path, rules)
    except FileNotFoundError:
        return None
    max_target = int(max_target)
    if curve.max_target >= max_target:
        return curve
    top = max_final_total(curve.rules)
    if curve.max_target < top:
        return None
    pad = np.zeros(max_target - curve.max_target)
    best = np.concatenate([curve.best, pad])
    expected = np.concatenate([curve.expected_score_policy, pad])
    best.setflags(write=False)
    expected.setflags(write=False)
    return replace(curve, best=best, expected_score_policy=expected, padded_from=curve.max_target + 1)
