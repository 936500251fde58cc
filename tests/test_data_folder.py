"""The test suite keeps out of the user's data folder (records, saved game, history)."""

from __future__ import annotations

from pathlib import Path

import click

from conftest import REAL_DATA_FOLDER
from yahtzee_solver.files import HOME_ENV, data_dir
from yahtzee_solver.game import Roll, Score, new_game
from yahtzee_solver.play.savegame import GameStore
from yahtzee_solver.play.session import file_finished


def _inside(path: Path, folder: Path) -> bool:
    path, folder = path.resolve(), folder.resolve()
    return path == folder or folder in path.parents


def test_every_test_has_its_own_data_folder(tmp_path_factory, monkeypatch):
    assert not _inside(data_dir(), REAL_DATA_FOLDER)
    assert _inside(data_dir(), tmp_path_factory.getbasetemp())
    monkeypatch.delenv(HOME_ENV)  # the platform default a test falls back to is a temporary one too
    assert not _inside(data_dir(), REAL_DATA_FOLDER) and _inside(data_dir(), tmp_path_factory.getbasetemp())
    assert data_dir() == Path(click.get_app_dir("yahtzee-solver"))


def test_a_finished_game_is_filed_in_the_tests_own_folder(own_data_folder):
    g = new_game("yacht", seed=3)
    store = GameStore()
    store.begin(g)
    while not g.is_terminal():
        g.apply_action(Roll() if g.rolls_used == 0 else next(a for a in g.legal_actions() if isinstance(a, Score)))
        store.save(g)
    filed = file_finished(g, store)
    assert filed.history_number == 1 and filed.history_problem is None
    assert {"records.json", "history.json"} <= {p.name for p in own_data_folder.iterdir()}
