"""Records and the saved game on disk: atomic writes, validation, corrupt files set aside."""

from __future__ import annotations

import json

import pytest

from yahtzee_solver.game import Roll, new_game
from yahtzee_solver.records import (
    HOME_ENV,
    DataFileError,
    Record,
    RecordBook,
    data_dir,
    discard_game,
    load_game,
    records_path,
    save_game,
    save_path,
    write_json_atomic,
)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    return tmp_path / "home"


def test_data_dir_honours_the_environment(home):
    assert data_dir() == home
    assert records_path() == home / "records.json"
    assert save_path() == home / "game.json"


def test_add_game_tracks_best_average_and_results():
    book = RecordBook()
    u = book.add_game("yahtzee", "expert", 200, "loss")
    assert u.previous_best is None and not u.new_best
    u = book.add_game("yahtzee", "expert", 250, "win")
    assert u.previous_best == 200 and u.new_best
    u = book.add_game("yahtzee", "expert", 240, "draw")
    assert not u.new_best
    r = book.get("yahtzee", "expert")
    assert (r.games, r.best, r.wins, r.losses, r.draws) == (3, 250, 1, 1, 1)
    assert r.average == pytest.approx(230.0)
    assert book.get("yacht", "solo") == Record()


def test_bad_keys_and_outcomes_are_refused():
    book = RecordBook()
    with pytest.raises(ValueError, match="rules"):
        book.add_game("poker", "solo", 10)
    with pytest.raises(ValueError, match="opponent"):
        book.add_game("yahtzee", "god", 10)
    with pytest.raises(ValueError, match="outcome"):
        book.add_game("yahtzee", "expert", 10, "forfeit")


def test_records_round_trip_through_the_file(home):
    book = RecordBook.load()
    assert book.records == {} and book.problem is None
    book.add_game("yacht", "solo", 180)
    book.add_abandoned("yahtzee", "normal")
    book.save()
    again = RecordBook.load()
    assert again.records == book.records
    assert again.get("yahtzee", "normal").abandoned == 1
    assert [p.name for p in home.iterdir()] == ["records.json"]  # no temp file left behind


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b"\xff\xfe garbage",
        b'{"format": "something else", "version": 1, "records": {}}',
        b'{"format": "yahtzee_solver records", "version": 7, "records": {}}',
        b'{"format": "yahtzee_solver records", "version": 1, "records": {"yahtzee": {"solo": {"games": -1}}}}',
        b'{"format": "yahtzee_solver records", "version": 1, "records": {"yahtzee": {"solo": {"games": 1, "best": null}}}}',
        b'{"format": "yahtzee_solver records", "version": 1, "records": {"yahtzee": {"solo": {"games": 1, "best": 50, "total": 50, "wins": 2}}}}',
        b'{"format": "yahtzee_solver records", "version": 1, "records": {"poker": {}}}',
        b"[]",
    ],
)
def test_corrupt_records_file_is_set_aside_not_lost(home, content):
    home.mkdir(parents=True)
    path = home / "records.json"
    path.write_bytes(content)
    book = RecordBook.load()
    assert book.records == {}
    assert book.problem and "records.json" in book.problem and "corrupt" in book.problem
    aside = [p for p in home.iterdir() if p.name.startswith("records.json.corrupt-")]
    assert len(aside) == 1 and aside[0].read_bytes() == content
    assert not path.exists()
    book.add_game("yahtzee", "solo", 100)
    book.save()
    assert RecordBook.load().get("yahtzee", "solo").games == 1


def test_two_corrupt_files_in_the_same_second_both_survive(home):
    home.mkdir(parents=True)
    for text in ("one", "two"):
        (home / "records.json").write_text(text)
        RecordBook.load()
    aside = sorted(p.read_text() for p in home.iterdir() if ".corrupt-" in p.name)
    assert aside == ["one", "two"]


def test_write_failure_leaves_the_old_file(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(DataFileError, match="cannot write"):
        write_json_atomic(blocker / "records.json", {"a": 1})
    assert blocker.read_text() == "x"


def test_saved_game_round_trip_and_discard(home):
    assert load_game() is None
    g = new_game("yahtzee", "beginner", "me", seed=3)
    g.apply_action(Roll())
    save_game(g)
    h = load_game()
    assert h.dice == g.dice and h.rolls_used == 1 and h.config == g.config
    discard_game()
    assert load_game() is None
    discard_game()  # nothing to discard: no error


@pytest.mark.parametrize("content", ['{"format": "yahtzee_solver saved game", "version": 1}', "{{{", '{"hello": 1}'])
def test_corrupt_saved_game_is_reported_and_set_aside(home, content):
    home.mkdir(parents=True)
    (home / "game.json").write_text(content)
    with pytest.raises(DataFileError, match="cannot be restored.*moved to"):
        load_game()
    assert not (home / "game.json").exists()
    aside = [p for p in home.iterdir() if p.name.startswith("game.json.corrupt-")]
    assert len(aside) == 1 and aside[0].read_text() == content


def test_saved_game_file_is_plain_json(home):
    g = new_game(seed=5)
    save_game(g)
    data = json.loads((home / "game.json").read_text())
    assert data["format"] == "yahtzee_solver saved game" and data["config"]["seed"] == 5
