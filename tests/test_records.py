"""Records and the saved game on disk: atomic writes, validation, corrupt files set aside."""

from __future__ import annotations

import json
import os
import time
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from yahtzee_solver.game import Roll, new_game
from yahtzee_solver.files import HOME_ENV, MAX_FILE_BYTES, data_dir, write_json_atomic
from yahtzee_solver.play.lock import GameLock, GameRunningError, lock_path
from yahtzee_solver.play.records import DataFileError, Record, RecordBook, file_finished_game, records_path
from yahtzee_solver.play.savegame import GameStore, save_path

from clihelpers import hold_lock, lock_is_free


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
    book.add_abandoned("yahtzee", "solo")
    book.save()
    again = RecordBook.load()
    assert again.records == book.records
    # Abandoned against the CPU is a loss (a forfeit); in solitaire it stays "abandoned".
    r = again.get("yahtzee", "normal")
    assert (r.losses, r.forfeits, r.abandoned) == (1, 1, 0)
    assert again.get("yahtzee", "solo").abandoned == 1
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


def _refused(home) -> str:
    """Open the saved game, expecting it refused (moved aside); the problem reported."""
    opened = GameStore().open()
    assert opened.status == "refused" and opened.state is None
    return opened.problem


def test_saved_game_round_trip_and_discard(home):
    assert GameStore().open().status == "none"
    g = new_game("yahtzee", "beginner", "me", seed=3)
    store = GameStore()
    store.begin(g)
    g.apply_action(Roll())
    store.save(g)
    h = GameStore().open().state
    assert h.dice == g.dice and h.rolls_used == 1 and h.config == g.config
    store.clear()
    assert GameStore().open().status == "none"
    store.clear()  # nothing to discard: no error


@pytest.mark.parametrize("content", ['{"format": "yahtzee_solver saved game", "version": 1}', "{{{", '{"hello": 1}'])
def test_corrupt_saved_game_is_reported_and_set_aside(home, content):
    home.mkdir(parents=True)
    (home / "game.json").write_text(content)
    assert re.search("cannot be restored.*moved to", _refused(home))
    assert not (home / "game.json").exists()
    aside = [p for p in home.iterdir() if p.name.startswith("game.json.corrupt-")]
    assert len(aside) == 1 and aside[0].read_text() == content


def test_saved_game_file_is_plain_json_without_the_seed(home):
    g = new_game(seed=5)
    GameStore().begin(g)
    data = json.loads((home / "game.json").read_text())
    assert data["format"] == "yahtzee_solver saved game" and "seed" not in data["config"]
    assert json.loads((home / "ledger.json").read_text())["game"]["seed"] == 5


# -- hostile files: deep nesting, huge, endless, not a file ----------------------------------------------
DEEP = b"[" * 100_000 + b"]" * 100_000


def _aside(home, name):
    return [p for p in home.iterdir() if p.name.startswith(f"{name}.corrupt-")]


@pytest.mark.parametrize(
    "content",
    [
        DEEP,
        # Valid JSON, nested inside a field: validation must not echo it back in full.
        b'{"format": "yahtzee_solver records", "version": 1, "records": {"yahtzee": {"solo": '
        + b"[" * 500 + b"]" * 500 + b"}}}",
        b'{"format": "yahtzee_solver records", "version": ' + b"[" * 500 + b"]" * 500 + b', "records": {}}',
    ],
)
def test_deeply_nested_records_file_is_set_aside(home, content):
    home.mkdir(parents=True)
    (home / "records.json").write_bytes(content)
    book = RecordBook.load()
    assert book.records == {} and book.problem
    assert "\n" not in book.problem and len(book.problem) < 400
    (aside,) = _aside(home, "records.json")
    assert aside.read_bytes() == content


@pytest.mark.parametrize(
    "content",
    [
        DEEP,
        b'{"format": "yahtzee_solver saved game", "version": 1, "config": ' + b"[" * 500 + b"]" * 500 + b"}",
        b'{"format": "yahtzee_solver saved game", "version": ' + b"{\"a\":" * 500 + b"1" + b"}" * 500 + b"}",
        b'{"format": "yahtzee_solver saved game", "version": 1, "config": {"rules": ["yahtzee"]}}',
    ],
)
def test_deeply_nested_or_mistyped_saved_game_is_set_aside(home, content):
    home.mkdir(parents=True)
    (home / "game.json").write_bytes(content)
    problem = _refused(home)
    assert re.search("cannot be restored.*moved to", problem)
    assert "\n" not in problem and len(problem) < 400
    assert not (home / "game.json").exists()
    (aside,) = _aside(home, "game.json")
    assert aside.read_bytes() == content


@pytest.mark.parametrize("name", ["records.json", "game.json"])
def test_file_over_the_size_cap_is_corrupt(home, name):
    home.mkdir(parents=True)
    with open(home / name, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)  # sparse: cheap
    if name == "records.json":
        assert "larger than 4 MiB" in RecordBook.load().problem
    else:
        assert "larger than 4 MiB" in _refused(home)
    assert len(_aside(home, name)) == 1 and not (home / name).exists()


@pytest.mark.skipif(not os.path.exists("/dev/zero") or not hasattr(os, "mkfifo"), reason="POSIX only")
@pytest.mark.parametrize("kind", ["dev-zero", "fifo"])
def test_endless_or_blocking_file_is_not_read(home, kind):
    home.mkdir(parents=True)
    path = home / "game.json"
    if kind == "dev-zero":
        path.symlink_to("/dev/zero")
    else:
        os.mkfifo(path)
    assert "not a regular file" in _refused(home)
    assert len(_aside(home, "game.json")) == 1 and not os.path.lexists(path)


def test_a_directory_in_place_of_the_records_is_an_error_not_data_loss(home):
    (home / "records.json").mkdir(parents=True)
    with pytest.raises(DataFileError, match="is a directory"):
        RecordBook.load()
    assert (home / "records.json").is_dir()


def test_data_folder_that_is_a_file_is_named_as_such(tmp_path, monkeypatch):
    folder = tmp_path / "home"
    folder.write_text("not a folder")
    monkeypatch.setenv(HOME_ENV, str(folder))
    with pytest.raises(DataFileError, match="data folder .* is not a directory") as e:
        GameStore().begin(new_game(seed=1))
    assert "File exists" not in str(e.value)
    with pytest.raises(DataFileError, match="data folder .* is not a directory"):
        RecordBook.load()
    with pytest.raises(DataFileError, match="data folder .* is not a directory"):
        GameStore().open()
    with pytest.raises(DataFileError, match="data folder .* is not a directory"):
        GameLock().acquire()
    assert folder.read_text() == "not a folder"


@pytest.mark.parametrize("value", ["", "   "])
def test_empty_home_variable_counts_as_unset(monkeypatch, value):
    import click

    monkeypatch.setenv(HOME_ENV, value)
    assert data_dir() == Path(click.get_app_dir("yahtzee-solver"))


# -- a finished game is recorded before it is deleted -------------------------------------------------
def _finished(seed=4, rules="yacht", opponent="none"):
    from yahtzee_solver.game import cpu_actions
    from yahtzee_solver.strategy.levels import make_strategy

    g = new_game(rules, opponent, "me", seed)
    s = make_strategy("beginner", g.rules, rng=np.random.default_rng(seed), jit=False)
    while not g.is_terminal():
        for a in cpu_actions(g, s):
            g.apply_action(a)
    return g


def _stored(g):
    store = GameStore()
    store.begin(g)
    return store


def test_finished_game_is_kept_until_it_is_recorded(home):
    g = _finished()
    store = _stored(g)
    (home / "records.json").mkdir()
    with pytest.raises(DataFileError):
        file_finished_game(g, store)
    opened = GameStore().open()
    assert opened.state.is_terminal()  # not lost
    (home / "records.json").rmdir()
    store = GameStore()
    upd, problem = file_finished_game(store.open().state, store)
    assert problem is None and upd.record.games == 1 and upd.record.best == g.cards[0].total
    assert not (home / "game.json").exists()
    assert RecordBook.load().get("yacht", "solo").games == 1


def test_finished_game_against_the_cpu_records_the_outcome(home):
    g = _finished(seed=8, rules="yahtzee", opponent="normal")
    file_finished_game(g, _stored(g))
    rec = RecordBook.load().get("yahtzee", "normal")
    me, cpu = g.totals()
    want = "wins" if me > cpu else "losses" if me < cpu else "draws"
    assert rec.games == 1 and getattr(rec, want) == 1


def test_an_unfinished_game_cannot_be_filed(home):
    g = new_game(seed=1)
    with pytest.raises(ValueError, match="not over"):
        file_finished_game(g, _stored(g))


# -- one game at a time ---------------------------------------------------------------------------------
def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_lock_is_exclusive_and_released(home):
    with GameLock() as lock:
        assert lock.held and lock_path().read_text().strip() == str(os.getpid())
        with pytest.raises(GameRunningError, match=f"pid {os.getpid()}"):
            GameLock().acquire()  # a second game, even in this process
        assert not lock_is_free(lock_path())
    assert lock_is_free(lock_path()) and lock_path().read_text() == ""


def test_lock_held_by_another_process_is_refused(home):
    home.mkdir(parents=True)
    with hold_lock(lock_path()) as holder:
        with pytest.raises(GameRunningError, match=rf"another game is running \(pid {holder.pid}\)") as e:
            GameLock().acquire()
        assert e.value.pid == holder.pid and "\n" not in str(e.value)
        assert lock_path().read_text().strip() == str(holder.pid)  # untouched


@pytest.mark.parametrize("content", ["stale", "garbage", "", "mine"])
def test_a_lock_file_without_a_holder_is_free_whatever_it_says(home, content):
    """Only a live holder's lock counts, not the file: a pid left by a crash (even this process's own pid,
    as in a container where the game is pid 1 every run) or garbage is no lock."""
    home.mkdir(parents=True)
    text = {"stale": f"{_dead_pid()}\n", "mine": f"{os.getpid()}\n"}.get(content, content)
    lock_path().write_text(text)
    with GameLock():
        assert lock_path().read_text().strip() == str(os.getpid())
    assert lock_is_free(lock_path())


# -- an OS-level lock: no stale lock, whoever races ----------------------------------------------------
def _race_for_the_lock(path, barrier, results, seed) -> None:
    """One of many simultaneous starts: take the lock, hold it while the others try, say who won.

    On a busy machine a process can be stopped between any two system calls: each file call here
    (open, unlink, rename) first waits a random few milliseconds, as if the scheduler had run another
    process then.
    """
    import random

    rng = random.Random(seed)

    def slow(call):
        def wrapper(*args, **kwargs):
            time.sleep(rng.uniform(0, 0.02))
            return call(*args, **kwargs)
        return wrapper

    os.open, os.unlink, os.replace = slow(os.open), slow(os.unlink), slow(os.replace)  # this process only
    barrier.wait()
    try:
        lock = GameLock(path).acquire()
    except GameRunningError:
        results.put("refused")
        return
    results.put("won")
    time.sleep(1.5)
    lock.release()


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="fork start method")
def test_many_simultaneous_starts_over_a_stale_lock_let_exactly_one_in(tmp_path):
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    path = tmp_path / "game.lock"
    n = 20
    for attempt in range(5):
        path.write_text(f"{_dead_pid()}\n")  # what a crashed game would have left
        barrier, results = ctx.Barrier(n), ctx.Queue()
        procs = [ctx.Process(target=_race_for_the_lock, args=(path, barrier, results, 1000 * attempt + i))
                 for i in range(n)]
        for p in procs:
            p.start()
        got = sorted(results.get(timeout=60) for _ in procs)
        for p in procs:
            p.join(timeout=60)
        assert got.count("won") == 1 and got.count("refused") == n - 1, (attempt, got)


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_a_killed_holder_leaves_no_lock(tmp_path):
    path = tmp_path / "game.lock"
    with hold_lock(path) as holder:
        with pytest.raises(GameRunningError, match=rf"another game is running \(pid {holder.pid}\)") as e:
            GameLock(path).acquire()
        assert e.value.pid == holder.pid
        holder.kill()  # kill -9: no cleanup runs
        holder.wait(timeout=30)
        with GameLock(path) as lock:  # at once: the kernel released it with the process
            assert lock.held


# -- the fresh-user tester's wording findings: a version of the wrong type, a number too long to read ------------
def test_a_records_version_that_is_a_string_says_its_type(home):
    home.mkdir(parents=True)
    (home / "records.json").write_text('{"format": "yahtzee_solver records", "version": "2", "records": {}}')
    problem = RecordBook.load().problem
    assert "format version '2' is a string, not an integer" in problem, problem
    assert "this version reads 2" not in problem.split("not an integer")[0]


@pytest.mark.parametrize("version, kind", [("true", "true or false"), ("2.0", "a decimal number")])
def test_a_version_equal_to_the_right_one_but_not_an_integer_is_refused(home, version, kind):
    """``true == 1`` and ``2.0 == 2`` in Python: the records, history, ledger, saved game and coach game all
    check the type too (files.version_ok), so each refuses them as it refuses "2"."""
    from yahtzee_solver.files import version_ok
    from yahtzee_solver.play import coach, history, ledger, records, savegame

    home.mkdir(parents=True)
    (home / "records.json").write_text(
        '{"format": "yahtzee_solver records", "version": ' + version + ', "records": {}}')
    problem = RecordBook.load().problem
    assert problem is not None and f"format version {version.replace('true', 'True')} is {kind}" in problem, problem
    for current in (records.RECORDS_VERSION, history.HISTORY_VERSION, ledger.LEDGER_VERSION, savegame.SAVE_VERSION,
                    coach.COACH_VERSION):
        assert version_ok(current, current)
        assert not version_ok(float(current), current) and not version_ok(current == 1, 1)
        assert not version_ok(str(current), current)


@pytest.mark.parametrize("name", ["records.json", "ledger.json"])
def test_a_number_too_long_to_read_is_said_in_plain_words(home, name):
    from yahtzee_solver.play.ledger import Ledger

    home.mkdir(parents=True)
    fmt = "yahtzee_solver records" if name == "records.json" else "yahtzee_solver game ledger"
    (home / name).write_text(f'{{"format": "{fmt}", "version": {"9" * 5000}}}')
    if name == "records.json":
        problem = RecordBook.load().problem
    else:
        ledger = Ledger(home / name)
        assert ledger.read() is None
        problem = ledger.problem
    assert "a number of 5,000 digits is too long" in problem, problem
    assert "sys.set_int_max_str_digits" not in problem and "\n" not in problem


# -- a records file no game could have written: a name given twice, counts and scores beyond the game ------------
def _records_file(home, records, playing=None) -> bytes:
    home.mkdir(parents=True, exist_ok=True)
    data = {"format": "yahtzee_solver records", "version": 2, "records": records, "practice": {}, "lang": "en",
            "filed": [], "playing": playing}
    raw = json.dumps(data).encode()
    (home / "records.json").write_bytes(raw)
    return raw


def _set_aside(home, raw, *needles) -> None:
    book = RecordBook.load()
    assert book.records == {} and book.problem is not None, book.problem
    assert "moved to" in book.problem and all(n in book.problem for n in needles), book.problem
    (aside,) = _aside(home, "records.json")
    assert aside.read_bytes() == raw


def test_a_key_given_twice_is_refused_not_the_last_one_taken(home):
    """JSON's last-wins would erase the three losses; a second reader could take the first."""
    raw = _records_file(home, {"yahtzee": {"normal": {"games": 3, "best": 200, "total": 500, "losses": 3}}})
    raw = raw.replace(b'"losses": 3', b'"losses": 3, "losses": 0')
    (home / "records.json").write_bytes(raw)
    _set_aside(home, raw, "'losses' is given twice")


def test_a_key_given_twice_in_the_saved_game_is_refused(home):
    GameStore().begin(new_game(seed=3))
    raw = (home / "game.json").read_bytes()
    raw = raw.replace(b'"version": ', b'"version": 1, "version": ', 1)
    (home / "game.json").write_bytes(raw)
    assert "given twice" in _refused(home)


def _most(rules):
    from yahtzee_solver.rules import get_rules

    return get_rules(rules).max_total


@pytest.mark.parametrize("rules, record, needle", [
    ("yahtzee", {"games": 10**30, "best": 100, "total": 100}, "games"),
    ("yahtzee", {"games": 2, "best": 100, "total": 150, "losses": 10**30, "forfeits": 10**30}, "losses"),
    ("yahtzee", {"games": 0, "abandoned": 10**30}, "abandoned"),
    ("yahtzee", {"games": 1, "best": _most("yahtzee") + 1, "total": _most("yahtzee") + 1}, "best"),
    ("yacht", {"games": 1, "best": _most("yacht") + 1, "total": _most("yacht") + 1}, "best"),
    ("yatzy", {"games": 2, "best": 10**30, "total": 10**30 + 1}, "total"),
    ("yahtzee", {"games": 1, "best": -5, "total": 5}, "invalid best -5"),
    ("yahtzee", {"games": 1, "best": 5, "total": 5, "wins": -1}, "wins"),
])
def test_counts_and_scores_beyond_the_game_are_refused(home, rules, record, needle):
    """A best score no game of the rules reaches, a count no player plays: the file is set aside and said."""
    opponent = "normal" if "losses" in record or "wins" in record else "solo"
    raw = _records_file(home, {rules: {opponent: record}})
    _set_aside(home, raw, needle)


@pytest.mark.parametrize("rules", ["yahtzee", "yacht", "yatzy"])
def test_the_highest_score_of_the_rules_is_kept(home, rules):
    from yahtzee_solver.play.records import MAX_COUNT

    most = _most(rules)
    _records_file(home, {rules: {"solo": {"games": 1, "best": most, "total": most, "abandoned": MAX_COUNT}}})
    book = RecordBook.load()
    assert book.problem is None and book.get(rules, "solo").best == most


def test_a_noted_final_score_beyond_the_rules_is_refused(home):
    playing = {"game_id": "ab" * 16, "rules": "yacht", "opponent": "none", "lang": "en", "practice": [],
               "final": {"score": _most("yacht") + 1, "outcome": None}}
    raw = _records_file(home, {}, playing)
    book = RecordBook.load()
    assert book.problem is not None and "invalid playing" in book.problem
    (aside,) = _aside(home, "records.json")
    assert aside.read_bytes() == raw
    playing["final"]["score"] = _most("yacht")
    _records_file(home, {}, playing)
    assert RecordBook.load().playing["final"]["score"] == _most("yacht")


def test_max_total_is_the_bound_of_the_target_curves():
    from yahtzee_solver.analysis.curve_data import max_final_total
    from yahtzee_solver.rules import RULESETS

    assert {n: r.max_total for n, r in RULESETS.items()} == {n: max_final_total(n) for n in RULESETS}


def test_the_lock_says_what_holds_it(tmp_path):
    """A second program is told which program holds the data folder, not only its pid (a fresh-user tester saw
    'another game is running (pid N)' from play while serve ran)."""
    from yahtzee_solver.play.lock import GameLock, GameRunningError

    path = tmp_path / "game.lock"
    with GameLock(path, holder="the web page's server (yahtzee-solve serve)"):
        with pytest.raises(GameRunningError) as e:
            GameLock(path).acquire()
    assert str(e.value) == f"another game is running: the web page's server (yahtzee-solve serve) (pid {os.getpid()})"
    with GameLock(path):  # no holder named: the pid alone, as before
        with pytest.raises(GameRunningError, match=rf"^another game is running \(pid {os.getpid()}\)$"):
            GameLock(path).acquire()


# -- a lock file that cannot be created is not a game running ----------------------------------------------------
def test_a_lock_file_that_cannot_be_opened_is_not_another_game(tmp_path, monkeypatch):
    """The lock library reports a lock file it cannot create as not acquired (a timeout): with no pid in
    the file that is a file problem named as such, not 'another game is running'."""
    import filelock

    from yahtzee_solver.play.lock import GameLock, GameRunningError

    path = tmp_path / "game.lock"
    path.mkdir()  # cannot be opened as a file
    lock = GameLock(path)

    def not_acquired(*args, **kwargs):
        raise filelock.Timeout(str(path))

    monkeypatch.setattr(lock._lock, "acquire", not_acquired)
    with pytest.raises(DataFileError, match=r"^cannot create or open the lock file .*game\.lock.*: ") as e:
        lock.acquire()
    assert not isinstance(e.value, GameRunningError) and "another game" not in str(e.value)
    assert not lock.held


@pytest.mark.skipif(not os.path.isfile("/proc/self/status"), reason="a /proc file system")
def test_a_data_folder_that_cannot_hold_a_lock_file_says_so(monkeypatch):
    """YAHTZEE_SOLVER_HOME=/proc/self: a folder where no file can be created (a fresh-user tester was told
    'another game is running (it holds '/proc/self/game.lock')')."""
    from yahtzee_solver.play.lock import GameLock, GameRunningError

    monkeypatch.setenv(HOME_ENV, "/proc/self")
    with pytest.raises(DataFileError, match=r"^cannot create or open the lock file '/proc/self/game\.lock': ") as e:
        GameLock().acquire()
    assert not isinstance(e.value, GameRunningError)
