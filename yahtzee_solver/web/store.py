"""The web server's one door to the files of the game: saved game, records, lock.

Everything the server reads or writes on disk goes through these few names,
so the modules that own the file formats can move (``files``, ``records``,
``savegame``, ``lock``) by changing the imports of this module only.  The
files and their rules are those of the terminal game: one saved game
(``game.json``, written atomically after every action, validated on load and
moved aside when damaged), one records book (``records.json``) and one lock
(``game.lock``), all in :func:`data_dir`.
"""

from __future__ import annotations

from ..errors import DataFileError
from ..records import (
    GameLock,
    GameRunningError,
    RecordBook,
    data_dir,
    discard_game,
    file_finished_game,
    load_game,
    records_path,
    save_game,
    save_path,
)

__all__ = [
    "DataFileError",
    "GameLock",
    "GameRunningError",
    "RecordBook",
    "data_dir",
    "discard_game",
    "file_finished_game",
    "load_game",
    "records_path",
    "save_game",
    "save_path",
    "add_abandoned",
]


def add_abandoned(rules: str, opponent: str, records_file=None) -> str | None:
    """Count a saved game discarded unfinished in the records (``opponent``: ``none`` or a CPU level).

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
    book.add_abandoned(rules, "solo" if opponent == "none" else opponent)
    book.save()
    return book.problem
