"""The player's records: results per rule set and opponent, kept in ``records.json``.

The file lives in the data folder (:func:`~yahtzee_solver.files.data_dir`) and
is written atomically and validated on load (:mod:`yahtzee_solver.files`).  A
file that cannot be read -- not JSON, nested too deeply, larger than
:data:`~yahtzee_solver.files.MAX_FILE_BYTES`, not a regular file, a name given
twice in one object, or failing validation (a count above :data:`MAX_COUNT`, a
best score above the most the rule set can score, results that do not add up)
-- is never silently dropped and never crashes the game: it is
renamed aside to ``<name>.corrupt-<timestamp>`` and the caller is told
(:attr:`RecordBook.problem`).

A finished game is written to the records before its saved game is deleted
(:func:`file_finished_game`); if the records cannot be written, the finished
game stays in ``game.json`` (:mod:`yahtzee_solver.play.savegame`) and is recorded
on the next run.

Records are kept per rule set and opponent (``solo`` or a CPU level): games,
best and average final score, wins, losses, draws, and games abandoned (a
solitaire game discarded by starting a new one, or whose save was deleted or
failed verification).  A game against the CPU that ends that way is a loss
(counted in ``losses`` and in ``forfeits``).  Practice games -- a chosen seed,
hints or an undo (:data:`~yahtzee_solver.play.ledger.PRACTICE_REASONS`) -- are
kept apart (:attr:`RecordBook.practice`) and never change the records of
unaided play.
"""

from __future__ import annotations

import os
import reprlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import DataFileError, IllegalMoveError, RuleSetError, UsageError
from ..files import clip, data_dir, read_json, set_aside, version_ok, version_problem, write_json_atomic
from ..game import OPPONENTS, GameState
from ..rules import RULESETS
from .ledger import PRACTICE_REASONS, LedgerEntry

if TYPE_CHECKING:
    from .savegame import GameStore

#: Records by (rules name, opponent key).
_Section = dict[tuple[str, str], "Record"]

__all__ = [
    "DataFileError",
    "records_path",
    "Record",
    "RecordUpdate",
    "RecordBook",
    "file_finished_game",
    "file_unfinished_game",
    "counted_before",
    "note_playing",
    "file_vanished_game",
    "OPPONENT_KEYS",
    "MAX_COUNT",
]

RECORDS_FORMAT = "yahtzee_solver records"
RECORDS_VERSION = 2
#: Older versions this one reads (version 1 had no practice records and no forfeits).
_READS = (1, 2)

#: Opponent keys of the records: ``solo`` or a CPU level (:attr:`GameConfig.opponent_key
#: <yahtzee_solver.game.GameConfig.opponent_key>`).
OPPONENT_KEYS = ("solo",) + tuple(o for o in OPPONENTS if o != "none")

#: Most games, wins, losses, draws, abandoned games or forfeits one record counts: a file claiming more
#: is not the program's.  Every game counted keeps its id in :attr:`RecordBook.filed`, so a file within
#: :data:`~yahtzee_solver.files.MAX_FILE_BYTES` has counted about a hundred thousand games at most.
MAX_COUNT = 1_000_000

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
        Results against the CPU (0 in solitaire); ``losses`` includes the forfeits.
    abandoned : int
        Solitaire games left unfinished: discarded by starting a new game, or
        whose save was deleted or failed verification.
    forfeits : int
        Games against the CPU left unfinished that way, counted as losses.
    """

    games: int = 0
    best: int | None = None
    total: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    abandoned: int = 0
    forfeits: int = 0

    @property
    def average(self) -> float | None:
        """Mean final score (points), ``None`` before the first game."""
        return self.total / self.games if self.games else None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["average"] = self.average
        return d

    @classmethod
    def from_dict(cls, d: object, rules: str = "yahtzee") -> Record:
        """Validated record of a game of ``rules`` (a name of :data:`~yahtzee_solver.rules.RULESETS`).

        Raises
        ------
        ValueError
            For missing fields, negative or non-integer counts, a count above
            :data:`MAX_COUNT`, a best score above the most a game of ``rules`` can
            score (:attr:`RuleSet.max_total <yahtzee_solver.rules.RuleSet.max_total>`),
            or results that do not add up.
        """
        if not isinstance(d, dict):
            raise ValueError(f"record {_short.repr(d)} is not an object")
        most = RULESETS[rules].max_total
        vals = {}
        for name in ("games", "total", "wins", "losses", "draws", "abandoned", "forfeits"):
            v = d.get(name, 0)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"invalid {name} {_short.repr(v)}")
            if v > (MAX_COUNT * most if name == "total" else MAX_COUNT):
                raise ValueError(f"{name} {_short.repr(v)} is more than the records can hold")
            vals[name] = v
        best = d.get("best")
        if best is not None and (isinstance(best, bool) or not isinstance(best, int) or best < 0):
            raise ValueError(f"invalid best {_short.repr(best)}")
        if best is not None and best > most:
            raise ValueError(f"best {_short.repr(best)} is more than a game of {rules} can score ({most})")
        r = cls(best=best, **vals)
        if (r.games == 0) != (best is None):
            raise ValueError("best score and game count disagree")
        if r.forfeits > r.losses:
            raise ValueError("more forfeits than losses")
        if r.wins + r.losses - r.forfeits + r.draws > r.games:
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
    practice : bool
        The game was filed with the practice records.
    """

    record: Record
    previous_best: int | None
    new_best: bool
    practice: bool = False


@dataclass
class RecordBook:
    """All records, keyed by ``(rules name, opponent key)``: unaided play and practice apart.

    Attributes
    ----------
    records : dict
        ``{(rules, opponent): Record}`` of unaided games.
    practice : dict
        The same for practice games (chosen seed, hints, undo).
    lang : str or None
        Interface language of the last game filed (the default of ``records``).
    filed : list of str
        Ids of every game filed, oldest first, so a game is never counted twice
        (even when its files are put back long after; 32 hex digits each, so a
        hundred thousand games fit in :data:`~yahtzee_solver.files.MAX_FILE_BYTES`).
    playing : dict or None
        The game in progress once it has a recorded action (:func:`note_playing`): its
        ``game_id``, ``rules``, ``opponent``, ``lang`` and ``practice`` reasons, so that a game
        whose save and ledger are both deleted is still counted (:func:`file_vanished_game`).
    path : Path or None
        File it was loaded from / is saved to.
    problem : str or None
        Set by :meth:`load` when the file was unreadable and was moved aside
        (one lowercase line naming the file and where it went).
    """

    records: _Section = field(default_factory=dict)
    practice: _Section = field(default_factory=dict)
    lang: str | None = None
    filed: list[str] = field(default_factory=list)
    playing: dict[str, Any] | None = None
    path: Path | None = None
    problem: str | None = None

    @classmethod
    def load(cls, path: str | os.PathLike[str] | None = None) -> RecordBook:
        """Read the records (default :func:`records_path`); an empty book if there is no file.

        A corrupt or foreign file is renamed aside (:func:`~yahtzee_solver.files.set_aside`)
        and an empty book returned with :attr:`problem` saying so.

        Raises
        ------
        DataFileError
            Only if the file exists but cannot be read or moved aside.
        """
        path = Path(path) if path is not None else records_path()
        book = cls(path=path)
        try:
            data = read_json(path)
            book.records, book.practice, book.lang, book.filed, book.playing = _parse_records(data)
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
        def section(recs: _Section) -> dict[str, dict[str, dict[str, Any]]]:
            return {
                rules: {opp: {k: v for k, v in rec.to_dict().items() if k != "average"}
                        for (r, opp), rec in sorted(recs.items()) if r == rules}
                for rules in sorted({r for r, _ in recs})
            }

        data = {"format": RECORDS_FORMAT, "version": RECORDS_VERSION,
                "records": section(self.records), "practice": section(self.practice),
                "lang": self.lang, "filed": self.filed, "playing": self.playing}
        return write_json_atomic(self.path or records_path(), data)

    def _section(self, practice: bool) -> _Section:
        return self.practice if practice else self.records

    def get(self, rules: str, opponent: str, practice: bool = False) -> Record:
        """The record for ``rules`` against ``opponent`` (an empty one if none); ``practice`` for practice games."""
        return self._section(practice).get((rules, opponent), Record())

    def clear(self) -> int:
        """Delete every record (unaided and practice); the number deleted."""
        n = len(self.records) + len(self.practice)
        self.records.clear()
        self.practice.clear()
        return n

    def add_game(self, rules: str, opponent: str, score: int, outcome: str | None = None,
                 practice: bool = False) -> RecordUpdate:
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
        practice : bool
            File it with the practice records (a chosen seed, hints or an undo).
        """
        _check_key(rules, opponent)
        if outcome is not None and outcome not in ("win", "loss", "draw"):  # before anything is counted
            raise UsageError(f"invalid outcome {outcome!r}: want win, loss, draw or none")
        rec = self._section(practice).setdefault((rules, opponent), Record())
        prev = rec.best
        rec.games += 1
        rec.total += int(score)
        rec.best = int(score) if prev is None else max(prev, int(score))
        if outcome is not None:
            name = {"win": "wins", "loss": "losses", "draw": "draws"}[outcome]
            setattr(rec, name, getattr(rec, name) + 1)
        return RecordUpdate(rec, prev, prev is not None and score > prev, practice)

    def add_abandoned(self, rules: str, opponent: str, practice: bool = False) -> str:
        """Count a game left unfinished: ``abandoned`` in solitaire, a loss (forfeit) against the CPU.

        Returns
        -------
        str
            ``abandoned`` or ``loss``: how it was counted.
        """
        _check_key(rules, opponent)
        rec = self._section(practice).setdefault((rules, opponent), Record())
        if opponent == "solo":
            rec.abandoned += 1
            return "abandoned"
        rec.losses += 1
        rec.forfeits += 1
        return "loss"

    def to_list(self) -> list[dict[str, Any]]:
        """Records as ``[{"rules", "opponent", "practice", games, best, average, ...}]``.

        Unaided records first, then practice; each sorted by rules and opponent.
        """
        order = {o: i for i, o in enumerate(OPPONENT_KEYS)}
        out = []
        for practice, recs in ((False, self.records), (True, self.practice)):
            keys = sorted(recs, key=lambda k: (list(RULESETS).index(k[0]) if k[0] in RULESETS else 99,
                                               order.get(k[1], 99)))
            out += [{"rules": r, "opponent": o, "practice": practice, **recs[(r, o)].to_dict()} for r, o in keys]
        return out


def _check_key(rules: str, opponent: str) -> None:
    if rules not in RULESETS:
        raise RuleSetError(f"unknown rules {rules!r}")
    if opponent not in OPPONENT_KEYS:
        raise UsageError(f"unknown opponent {opponent!r}")


def _parse_section(recs: object, what: str) -> _Section:
    if not isinstance(recs, dict):
        raise ValueError(f"no {what} object")
    out: _Section = {}
    for rules, per in recs.items():
        if rules not in RULESETS or not isinstance(per, dict):
            raise ValueError(f"unknown rules {_short.repr(rules)}")
        for opp, d in per.items():
            if opp not in OPPONENT_KEYS:
                raise ValueError(f"unknown opponent {_short.repr(opp)}")
            try:
                out[(rules, opp)] = Record.from_dict(d, rules)
            except ValueError as e:
                raise ValueError(f"{rules}/{opp}: {e}") from None
    return out


def _parse_playing(p: object) -> dict[str, Any] | None:
    """The validated ``playing`` object of a records file (``None`` when there is none)."""
    if p is None:
        return None
    keys = {"game_id", "rules", "opponent", "lang", "practice"}
    if not isinstance(p, dict) or not keys <= set(p) <= keys | {"final"}:
        raise ValueError("invalid playing")
    gid, rules, opponent, lang, practice = (p[k] for k in ("game_id", "rules", "opponent", "lang", "practice"))
    if (not isinstance(gid, str) or not gid or any(c not in "0123456789abcdef" for c in gid)
            or rules not in RULESETS or opponent not in OPPONENTS or not isinstance(lang, str)
            or not isinstance(practice, list) or any(r not in PRACTICE_REASONS for r in practice)):
        raise ValueError("invalid playing")
    out = {"game_id": gid, "rules": rules, "opponent": opponent, "lang": lang, "practice": sorted(set(practice))}
    if "final" in p:
        f = p["final"]
        if (not isinstance(f, dict) or set(f) != {"score", "outcome"} or isinstance(f["score"], bool)
                or not isinstance(f["score"], int) or not 0 <= f["score"] <= RULESETS[rules].max_total
                or f["outcome"] not in (None, "win", "loss", "draw")):
            raise ValueError("invalid playing")
        out["final"] = {"score": f["score"], "outcome": f["outcome"]}
    return out


def _parse_records(data: object) -> tuple[_Section, _Section, str | None, list[str], dict[str, Any] | None]:
    if not isinstance(data, dict) or data.get("format") != RECORDS_FORMAT:
        raise ValueError("not a yahtzee_solver records file")
    if not version_ok(data.get("version"), *_READS):
        raise ValueError(version_problem("records", data.get("version"), RECORDS_VERSION))
    records = _parse_section(data.get("records"), "records")
    practice = _parse_section(data.get("practice", {}), "practice")
    lang = data.get("lang")
    if lang is not None and not isinstance(lang, str):
        raise ValueError(f"invalid lang {_short.repr(lang)}")
    filed = data.get("filed", [])
    if not isinstance(filed, list) or not all(isinstance(x, str) for x in filed):
        raise ValueError("invalid filed")
    return records, practice, lang, filed, _parse_playing(data.get("playing"))


# -- filing a game ---------------------------------------------------------------------------------
def game_outcome(state: GameState) -> str | None:
    """The player's ``win``, ``loss`` or ``draw`` in a finished game against the CPU; ``None`` in solitaire."""
    return None if state.config.n_players == 1 else {0: "win", 1: "loss", None: "draw"}[state.winner()]


def file_finished_game(state: GameState, store: GameStore, records_file: str | os.PathLike[str] | None = None,
                       ) -> tuple[RecordUpdate, str | None]:
    """Add a finished game to the records, then delete its saved game and ledger entry.

    The records are written first: if that fails the saved game is left in
    place (it is terminal), so the result is recorded by the next call
    instead of being lost.  The game's id is kept in the records, so a game
    whose save outlived its filing (a crash in between) is not counted twice.

    Parameters
    ----------
    state : GameState
        A finished game (:meth:`GameState.is_terminal`).
    store : GameStore
        Its files (:class:`~yahtzee_solver.play.savegame.GameStore`); its ledger
        entry says whether the game is practice.
    records_file : path, optional
        Default :func:`records_path`.

    Returns
    -------
    (RecordUpdate, str or None)
        The updated record, and :attr:`RecordBook.problem` (an unreadable
        records file that was moved aside), if any.

    Raises
    ------
    IllegalMoveError
        If the game is not over (a ``ValueError``).
    DataFileError
        If the records cannot be read or written, or the saved game cannot
        be deleted after recording.
    """
    if not state.is_terminal():
        raise IllegalMoveError("the game is not over")
    book = RecordBook.load(records_file)
    entry = store.entry
    practice = bool(store.practice)
    outcome = game_outcome(state)
    if entry is not None and entry.game_id in book.filed:
        rec = book.get(state.rules.name, state.config.opponent_key, practice)
        upd = RecordUpdate(rec, rec.best, False, practice)
    else:
        upd = book.add_game(state.rules.name, state.config.opponent_key, state.cards[0].total, outcome, practice)
        _note_filed(book, entry)
        book.save()
    store.clear()
    return upd, book.problem


def file_unfinished_game(entry: LedgerEntry, store: GameStore, records_file: str | os.PathLike[str] | None = None,
                         ) -> tuple[str, str | None]:
    """Count a game left unfinished (abandoned, save deleted, or failing verification), then forget it.

    Solitaire: ``abandoned``.  Against the CPU: a loss (a forfeit).
    Practice games go to the practice records.  A game the records have
    already counted (its id is in :attr:`RecordBook.filed`: its files were put
    back) is not counted again.

    Returns
    -------
    (str, str or None)
        How it was counted (``abandoned`` or ``loss``; ``already`` when it had been counted
        before and nothing changed), and :attr:`RecordBook.problem`.

    Raises
    ------
    DataFileError
        If the records cannot be read or written.
    """
    book = RecordBook.load(records_file)
    how = "already" if entry.game_id in book.filed else _count_unfinished(book, entry)
    store.clear()
    return how, book.problem


def counted_before(entry: LedgerEntry, records_file: str | os.PathLike[str] | None = None) -> tuple[bool, str | None]:
    """Whether the records have counted ``entry``'s game already (its id is in :attr:`RecordBook.filed`).

    A game in progress is never in ``filed``: one that is had its save and
    ledger put back after it was counted (or a run stopped between counting
    it and deleting its files), and must not be resumed.

    Returns
    -------
    (bool, str or None)
        Whether it was counted, and :attr:`RecordBook.problem` (an unreadable
        records file moved aside: then it was not).

    Raises
    ------
    DataFileError
        If the records cannot be read.
    """
    book = RecordBook.load(records_file)
    return entry.game_id in book.filed, book.problem


def note_playing(entry: LedgerEntry, records_file: str | os.PathLike[str] | None = None,
                 final: tuple[int, str | None] | None = None) -> str | None:
    """Tell the records of the game in progress (``entry``, with at least one recorded action).

    Written once a game, again when it becomes practice, and with ``final``
    (the player's final score in points, and ``win``/``loss``/``draw`` or
    ``None`` in solitaire) when its last score is saved, so that deleting its
    save and its ledger together does not make it vanish: the next
    :func:`file_vanished_game` counts it as :func:`file_unfinished_game` would,
    or files a finished game's score. Nothing is written when the records
    already say so, or have counted the game.

    Returns
    -------
    str or None
        :attr:`RecordBook.problem`: an unreadable records file that was moved aside.

    Raises
    ------
    DataFileError
        If the records cannot be read or written.
    """
    book = RecordBook.load(records_file)
    if entry.game_id in book.filed:
        return book.problem
    want: dict[str, Any] = {"game_id": entry.game_id, "rules": entry.rules, "opponent": entry.opponent,
                            "lang": entry.lang, "practice": list(entry.practice)}
    if final is not None:
        want["final"] = {"score": int(final[0]), "outcome": final[1]}
    if book.playing != want:
        book.playing = want
        book.save()
    return book.problem


def file_vanished_game(records_file: str | os.PathLike[str] | None = None,
                       ) -> tuple[str | None, str | None, LedgerEntry | None, int | None]:
    """Count the game the records were told of (:func:`note_playing`) when its save and ledger are both gone.

    Call it only when there is no game in progress on disk.  A game noted
    with its final score is filed with it (``filed``, as
    :func:`file_finished_game` would); any other is counted as
    :func:`file_unfinished_game` counts it: ``abandoned`` in solitaire, a loss
    (a forfeit) against the CPU; practice games in the practice records.

    Returns
    -------
    (str or None, str or None, LedgerEntry or None, int or None)
        How it was counted (``None``: the records know of no such game),
        :attr:`RecordBook.problem`, the game counted (its id, rules,
        opponent, language and practice reasons; no seed and no key), and
        the final score filed (points; ``None`` unless ``filed``).

    Raises
    ------
    DataFileError
        If the records cannot be read or written.
    """
    book = RecordBook.load(records_file)
    p = book.playing
    if p is None:
        return None, book.problem, None, None
    if p["game_id"] in book.filed:  # filed already: only the note was left
        book.playing = None
        book.save()
        return None, book.problem, None, None
    entry = LedgerEntry(p["game_id"], "", 0, p["rules"], p["opponent"], 0, p["lang"], practice=tuple(p["practice"]))
    final = p.get("final")
    if final is None:
        return _count_unfinished(book, entry), book.problem, entry, None
    book.add_game(entry.rules, entry.opponent_key, final["score"], final["outcome"], entry.is_practice)
    _note_filed(book, entry)
    book.save()
    return "filed", book.problem, entry, final["score"]


def _count_unfinished(book: RecordBook, entry: LedgerEntry) -> str:
    """Count ``entry``'s game as left unfinished in ``book`` and save it: ``abandoned`` or ``loss``."""
    how = book.add_abandoned(entry.rules, entry.opponent_key, entry.is_practice)
    _note_filed(book, entry)
    book.save()
    return how


def _note_filed(book: RecordBook, entry: LedgerEntry | None) -> None:
    if entry is not None:
        if entry.game_id not in book.filed:
            book.filed = [*book.filed, entry.game_id]
        book.lang = entry.lang
        if book.playing is not None and book.playing["game_id"] == entry.game_id:
            book.playing = None
