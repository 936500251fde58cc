"""The records' side of the game in progress: ``ledger.json`` in the data folder.

The saved game (``game.json``, :mod:`yahtzee_solver.play.savegame`) holds the moves
and the position; this ledger holds what must not be in it, so that the save
can be checked and cannot be rolled back:

* ``seed`` -- the root seed of the dice (:class:`~yahtzee_solver.game.GameConfig`).
  Without it the save does not tell which dice come next.
* ``key`` and ``digest`` -- HMAC-SHA256 under a random key of the move log,
  ``counter``, the number of actions recorded, and ``last``, the last action
  itself: an edited move log, or a copy of an older save put back, no longer
  matches.  The ledger is written before the save after every action
  (:meth:`~yahtzee_solver.play.savegame.GameStore.save`), so it is never behind
  the save; a save one action behind it (its write failed) is completed with
  ``last``.
* ``opponent`` and the rules, so that a game against the CPU whose save was
  deleted, damaged or edited is still counted (as a loss).
* ``practice`` -- why the game cannot count as unaided play (a chosen seed,
  hints, an undo).
* ``cpu_rng`` -- the state of the beginner CPU's random generator.
* ``confirm_loss`` -- the ``play --confirm-loss`` threshold the game is played
  with (points), kept so that ``--resume`` keeps asking.

At most one game is in progress (one ``game.json``), so the ledger holds at
most one entry.  It is written atomically with owner-only permissions
(:func:`~yahtzee_solver.files.write_atomic`).  It is the player's own file,
like the records: what it protects against is editing, deleting or copying
back the saved game, not editing the ledger or the records themselves.
"""

from __future__ import annotations

import hmac
import json
import math
import os
import secrets
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import DataFileError, SavedGameError, UsageError
from ..files import clip, data_dir, read_json, set_aside, version_ok, version_problem, write_json_atomic
from ..game import OPPONENTS, Event
from ..rules import RULESETS

__all__ = ["LedgerEntry", "Ledger", "ledger_path", "PRACTICE_REASONS", "log_digest"]

LEDGER_FORMAT = "yahtzee_solver game ledger"
LEDGER_VERSION = 1

#: Why a game is practice: its seed was chosen (its dice can be known in
#: advance), a hint was asked for, a score was undone, or ``--confirm-loss``
#: asked about a costly choice (which tells the advisor's verdict).
PRACTICE_REASONS = ("seed", "hint", "undo", "confirm")


_BIT_GENERATORS = ("PCG64", "PCG64DXSM", "Philox", "SFC64", "MT19937")


def _restore_generator(state: object) -> np.random.Generator:
    if not isinstance(state, dict) or state.get("bit_generator") not in _BIT_GENERATORS:
        raise SavedGameError("saved game has an invalid random generator state")
    bg = getattr(np.random, state["bit_generator"])()
    try:
        st = dict(state)
        if st["bit_generator"] == "MT19937":
            st["state"] = dict(st["state"])
            st["state"]["key"] = np.asarray(st["state"]["key"], dtype=np.uint32)
        bg.state = st
    except (KeyError, TypeError, ValueError, OverflowError) as e:
        raise SavedGameError(f"saved game has an invalid random generator state ({e})") from None
    return np.random.Generator(bg)


def ledger_path() -> Path:
    """``ledger.json`` in :func:`~yahtzee_solver.files.data_dir`."""
    return data_dir() / "ledger.json"


def log_digest(key: str, log: list[dict[str, Any]]) -> str:
    """HMAC-SHA256 (hex) under the hex ``key`` of the move log ``log`` (event dicts), in a canonical JSON form."""
    text = json.dumps(log, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hmac.new(bytes.fromhex(key), text.encode("ascii"), "sha256").hexdigest()


@dataclass(frozen=True)
class LedgerEntry:
    """What the records know about the game in progress.

    Attributes
    ----------
    game_id : str
        Random hex id, also written in the save.
    key : str
        Random hex key (32 bytes) of :func:`log_digest`.
    seed : int
        Root seed of the game's dice (>= 0).
    rules, opponent : str
        Rule-set name; ``none`` or a CPU level.
    first : int
        0 = the human starts each round, 1 = the CPU.
    lang : str
        Interface language of the game.
    counter : int
        Actions recorded so far (length of the move log).
    digest : str
        :func:`log_digest` of those actions.
    cpu_rng : dict or None
        State of the CPU's random generator after them (JSON-safe).
    practice : tuple of str
        Sorted :data:`PRACTICE_REASONS` that apply; empty for unaided play.
    confirm_loss : float or None
        Ask before a move that loses more than this many expected points
        (``play --confirm-loss``; a finite number >= 0), ``None``: never ask.
        Absent in ledgers written before it existed (read as ``None``).
    last : dict or None
        The last recorded action as an event (:meth:`~yahtzee_solver.game.Event.to_dict`);
        ``None`` before the first action.
    """

    game_id: str
    key: str
    seed: int
    rules: str
    opponent: str
    first: int
    lang: str = "en"
    counter: int = 0
    digest: str = ""
    cpu_rng: dict[str, Any] | None = None
    practice: tuple[str, ...] = field(default_factory=tuple)
    confirm_loss: float | None = None
    last: dict[str, Any] | None = None

    @classmethod
    def new(cls, *, seed: int, rules: str, opponent: str, first: int, lang: str,
            practice: tuple[str, ...] = ()) -> LedgerEntry:
        """A fresh entry with a random id and key (:mod:`secrets`)."""
        key = secrets.token_hex(32)
        return cls(secrets.token_hex(16), key, int(seed), rules, opponent, int(first), lang, 0,
                   log_digest(key, []), None, tuple(sorted(set(practice))))

    @property
    def is_practice(self) -> bool:
        return bool(self.practice)

    @property
    def opponent_key(self) -> str:
        """``solo`` or the CPU level (as the records name it)."""
        return "solo" if self.opponent == "none" else self.opponent

    def with_practice(self, reason: str) -> LedgerEntry:
        if reason not in PRACTICE_REASONS:
            raise UsageError(f"unknown practice reason {reason!r}")
        return replace(self, practice=tuple(sorted({*self.practice, reason})))

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["practice"] = list(self.practice)
        return d

    @classmethod
    def from_dict(cls, d: object) -> LedgerEntry:
        """Validated entry.

        Raises
        ------
        ValueError
            For a missing or mistyped field.
        """
        if not isinstance(d, dict):
            raise ValueError("ledger entry is not an object")

        def text(name: str, hexa: bool = False) -> str:
            v = d.get(name)
            if not isinstance(v, str) or (hexa and (not v or any(c not in "0123456789abcdef" for c in v))):
                raise ValueError(f"invalid {name}")
            return v

        def whole(name: str) -> int:
            v = d.get(name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"invalid {name}")
            return v

        rules, opponent = text("rules"), text("opponent")
        if rules not in RULESETS or opponent not in OPPONENTS:
            raise ValueError("unknown rules or opponent")
        practice = d.get("practice", [])
        if not isinstance(practice, list) or any(p not in PRACTICE_REASONS for p in practice):
            raise ValueError("invalid practice")
        counter = whole("counter")
        cpu = _generator_state(d.get("cpu_rng"), counter)
        first = whole("first")
        if first not in (0, 1):
            raise ValueError("invalid first")
        confirm_loss = d.get("confirm_loss")
        if confirm_loss is not None:
            if (isinstance(confirm_loss, bool) or not isinstance(confirm_loss, (int, float))
                    or not math.isfinite(confirm_loss) or confirm_loss < 0):
                raise ValueError("invalid confirm_loss")
            confirm_loss = float(confirm_loss)
        return cls(text("game_id", True), text("key", True), whole("seed"), rules, opponent, first,
                   text("lang"), counter, text("digest", True), cpu, tuple(sorted(set(practice))),
                   confirm_loss, _last_event(d.get("last"), counter))


def _last_event(last: Any, counter: int) -> dict[str, Any] | None:
    """The ledger's ``last``, checked: ``null`` before the first action (and in ledgers written before
    it was kept), else an event :meth:`~yahtzee_solver.game.Event.from_dict` reads.

    Raises
    ------
    ValueError
        Naming the field.
    """
    if last is None:
        return None
    if not counter:
        raise ValueError("invalid last: an action before the first one")
    try:
        Event.from_dict(last)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, OverflowError):
        raise ValueError("invalid last: not an action of the game") from None
    checked: dict[str, Any] = last
    return checked


def _generator_state(cpu: Any, counter: int) -> dict[str, Any] | None:
    """The ledger's ``cpu_rng``, checked: ``null`` only before the first action (every action writes it),
    else a state numpy restores (the CPU's next random choices depend on it).

    Raises
    ------
    ValueError
        Naming the field.
    """
    if cpu is None:
        if counter:
            raise ValueError(f"invalid cpu_rng: missing after {counter} recorded actions")
        return None
    try:
        _restore_generator(cpu)
    except ValueError:
        raise ValueError("invalid cpu_rng: not a random generator state") from None
    state: dict[str, Any] = cpu  # a dict: _restore_generator checked it
    return state


class Ledger:
    """The ledger file (default :func:`ledger_path`), holding at most one :class:`LedgerEntry`.

    Attributes
    ----------
    path : Path
    problem : str or None
        Set by :meth:`read` when the file was unreadable and was moved aside.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None):
        self.path: Path = Path(path) if path is not None else ledger_path()
        self.problem: str | None = None

    def read(self) -> LedgerEntry | None:
        """The entry of the game in progress, or ``None``.

        An unreadable file is moved aside (:attr:`problem` says so) and ``None`` returned.

        Raises
        ------
        DataFileError
            If the file exists but cannot be read or moved aside.
        """
        try:
            data = read_json(self.path)
            if not isinstance(data, dict) or data.get("format") != LEDGER_FORMAT:
                raise ValueError("not a yahtzee_solver game ledger")
            if not version_ok(data.get("version"), LEDGER_VERSION):
                raise ValueError(version_problem("ledger", data.get("version"), LEDGER_VERSION))
            game = data.get("game")
            return None if game is None else LedgerEntry.from_dict(game)
        except FileNotFoundError:
            return None
        except DataFileError:
            raise
        except (ValueError, TypeError, KeyError, RecursionError) as e:
            moved = set_aside(self.path)
            self.problem = f"ledger {str(self.path)!r} is unreadable ({clip(e)}); moved to {str(moved)!r}"
            return None

    def write(self, entry: LedgerEntry | None) -> None:
        """Replace the entry atomically (``None``: no game in progress).

        Raises
        ------
        DataFileError
            If the file cannot be written (the old one is left intact).
        """
        write_json_atomic(self.path, {"format": LEDGER_FORMAT, "version": LEDGER_VERSION,
                                      "game": None if entry is None else entry.to_dict()})
