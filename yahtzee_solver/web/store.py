"""The web server's one door to the files of the game: saved game and ledger, records, history, lock.

Everything the server reads or writes on disk goes through these names, and
they are the terminal game's own: the game in progress is a
:class:`GameStore` (``game.json`` plus its ledger entry, written after every
action and verified by replaying the move log on load), started, resumed and
settled by :mod:`yahtzee_solver.play.session` exactly as ``yahtzee-solve play``
does; finished games are filed in the records book (``records.json``,
practice games apart) and in the game history (``history.json``); one lock
(``game.lock``) keeps the terminal game and the server from playing the same
files at once.  All live in :func:`data_dir`.
"""

from __future__ import annotations

from ..errors import DataFileError
from ..files import data_dir
from ..play.history import history_path
from ..play.lock import GameLock, GameRunningError
from ..play.records import RecordBook, file_finished_game, game_outcome, records_path
from ..play.savegame import GameStore, save_path
from ..play.session import (Settled, begin_game, can_undo, file_finished, make_game, mark_practice, save_action,
                            settle, settle_notes, undo_score)

__all__ = [
    "DataFileError",
    "GameLock",
    "GameRunningError",
    "GameStore",
    "RecordBook",
    "game_outcome",
    "Settled",
    "begin_game",
    "can_undo",
    "data_dir",
    "file_finished_game",
    "file_finished",
    "history_path",
    "make_game",
    "records_path",
    "save_path",
    "settle",
    "settle_notes",
    "save_action",
    "mark_practice",
    "undo_score",
]
