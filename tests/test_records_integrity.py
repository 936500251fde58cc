"""Records a player can trust: the saved game is verified, cannot be rolled back, losses cannot be
dodged, and assisted games are practice.  Each test plays as a player would, through the CLI."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from yahtzee_solver.cli import main
from yahtzee_solver.files import HOME_ENV
from yahtzee_solver.play.records import RecordBook

SEED = 987_654_321_987  # the secret seed the tests inject (a player cannot choose it)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    monkeypatch.setattr("yahtzee_solver.play.session.fresh_seed", lambda: SEED)
    return tmp_path / "home"


def run(args, lines=()):
    return CliRunner().invoke(main, args, input="".join(f"{line}\n" for line in lines))


def saved(home) -> dict:
    return json.loads((home / "game.json").read_text())


def write_save(home, data) -> None:
    (home / "game.json").write_text(json.dumps(data))


def aside(home):
    return list(home.glob("game.json.corrupt-*"))


# -- 1. a resumed game is verified ---------------------------------------------------------------------
def _max_out(d: dict) -> None:
    """Every box at its maximum, a large Yahtzee bonus, 6-6-6-6-6 showing, the round moved on."""
    maxima = {"ones": 5, "twos": 10, "threes": 15, "fours": 20, "fives": 25, "sixes": 30,
              "three-of-a-kind": 30, "four-of-a-kind": 30, "full-house": 25, "small-straight": 30,
              "large-straight": 40, "yahtzee": 50}
    d["cards"][0].update(maxima)
    d["cards"][0]["yahtzee-bonus"] = 1200
    d["dice"] = [6] * 5
    d["round"] = 13


@pytest.mark.parametrize("vs", ["none", "normal"])
def test_an_edited_save_is_refused_and_never_sets_a_best_score(home, vs):
    res = run(["play", "--vs", vs, "--fast"], ["r", "q"])
    assert res.exit_code == 0, res.output
    d = saved(home)
    _max_out(d)
    write_save(home, d)
    res = run(["play", "--resume", "--fast"], ["s chance", "y"])
    assert res.exit_code == 1
    assert "cannot be restored" in res.output and "moved to" in res.output and "Traceback" not in res.output
    assert len(aside(home)) == 1 and not (home / "game.json").exists()
    opp = "solo" if vs == "none" else vs
    rec = RecordBook.load().get("yahtzee", opp)
    assert rec.best is None and rec.games == 0
    if vs == "none":
        assert rec.abandoned == 1 and "counted as abandoned" in res.output
    else:
        assert (rec.losses, rec.forfeits) == (1, 1) and "counted as a loss" in res.output


def test_an_edited_move_is_refused_even_when_it_replays(home):
    """Keeping other dice in the move log (a legal history, with hindsight) no longer matches the records."""
    res = run(["play", "--fast"], ["r", "k a", "r", "q"])
    assert res.exit_code == 0
    d = saved(home)
    hold = next(e for e in d["log"] if e["kind"] == "hold")
    hold["held"] = [False, True, False, False, False]
    write_save(home, d)
    res = run(["play", "--resume", "--fast"], ["q"])
    assert res.exit_code == 1 and "edited" in res.output
    assert len(aside(home)) == 1


# -- 2. no rolling back, no reading the next dice ---------------------------------------------------------
def test_a_save_copied_back_is_refused_and_shows_no_future_dice(home, tmp_path):
    res = run(["play", "--vs", "expert", "--fast"], ["r", "q"])
    assert res.exit_code == 0
    copy = tmp_path / "copy.json"
    shutil.copy(home / "game.json", copy)
    res = run(["play", "--resume", "--fast"], ["k a b", "r", "q"])
    assert res.exit_code == 0, res.output
    rerolled = saved(home)["dice"]
    shutil.copy(copy, home / "game.json")
    res = run(["play", "--resume", "--fast"], ["k a", "r", "q"])
    assert res.exit_code == 1
    assert "older than the game's last recorded action" in res.output
    assert f"Dice    {'    '.join(map(str, rerolled))}" not in res.output
    rec = RecordBook.load().get("yahtzee", "expert")
    assert (rec.losses, rec.forfeits, rec.games) == (1, 1, 0)


def test_the_save_does_not_hold_the_seed_or_the_generator(home):
    run(["play", "--fast"], ["r", "q"])
    text = (home / "game.json").read_text()
    assert str(SEED) not in text
    d = json.loads(text)
    assert not {"rng", "cpu_rng"} & set(d) and "seed" not in d["config"]


# -- 3. losses cannot be dodged -------------------------------------------------------------------------
@pytest.mark.parametrize("then", ["play", "records"])
def test_quit_and_delete_the_save_against_the_cpu_is_a_loss(home, then):
    run(["play", "--vs", "beginner", "--fast"], ["r", "q"])
    (home / "game.json").unlink()
    res = run(["play", "--fast"], ["q"]) if then == "play" else run(["records"])
    assert res.exit_code == 0, res.output
    assert "was deleted: counted as a loss" in res.output
    rec = RecordBook.load().get("yahtzee", "beginner")
    assert (rec.losses, rec.forfeits) == (1, 1)
    # Counted once.
    run(["records"])
    assert RecordBook.load().get("yahtzee", "beginner").losses == 1


def test_deleted_solo_save_is_abandoned(home):
    run(["play", "--fast"], ["r", "q"])
    (home / "game.json").unlink()
    res = run(["records"])
    assert "counted as abandoned" in res.output
    assert RecordBook.load().get("yahtzee", "solo").abandoned == 1


def test_a_corrupt_save_against_the_cpu_is_a_loss(home):
    run(["play", "--vs", "normal", "--fast"], ["r", "q"])
    (home / "game.json").write_text("garbage")
    res = run(["play", "--fast"], ["q"])
    assert res.exit_code == 0
    assert "cannot be restored" in res.output and "counted as a loss" in res.output
    assert RecordBook.load().get("yahtzee", "normal").losses == 1


def test_a_new_game_over_a_cpu_game_says_and_counts_a_loss(home):
    run(["play", "--vs", "expert", "--fast"], ["r", "q"])
    res = run(["play", "--fast"], ["y", "q"])
    assert "Abandoning it counts as a loss" in res.output
    rec = RecordBook.load().get("yahtzee", "expert")
    assert (rec.losses, rec.forfeits, rec.abandoned) == (1, 1, 0)


# -- 4. assisted games are practice ---------------------------------------------------------------------
def test_seeded_and_hinted_games_are_practice_and_shown_apart(home):
    from test_cli_play import scripted_game

    g, lines = scripted_game(seed=5)
    res = run(["play", "--seed", "5", "--fast"], lines)
    assert res.exit_code == 0, res.output
    assert "counts as practice" in res.output and "practice records" in res.output
    book = RecordBook.load()
    assert book.get("yahtzee", "solo").games == 0
    assert book.get("yahtzee", "solo", practice=True).best == g.cards[0].total
    # A hint turns an unaided game into practice.
    g2, lines2 = scripted_game(seed=SEED)
    res = run(["play", "--fast"], ["h", *lines2])
    assert res.exit_code == 0, res.output
    assert "Hint used: this game now counts as practice" in res.output
    book = RecordBook.load()
    assert book.get("yahtzee", "solo").games == 0 and book.get("yahtzee", "solo", practice=True).games == 2
    # An unaided game: the only one that sets the best score.
    res = run(["play", "--fast"], lines2)
    assert res.exit_code == 0
    book = RecordBook.load()
    assert book.get("yahtzee", "solo").best == g2.cards[0].total and book.get("yahtzee", "solo").games == 1
    res = run(["records"])
    assert "Practice (chosen seed, hints, undo or the --confirm-loss question):" in res.output
    rows = json.loads(run(["records", "--json"]).output)["records"]
    assert sorted((r["practice"], r["games"]) for r in rows) == [(False, 1), (True, 2)]


# -- a run stopped between writing the ledger and the save --------------------------------------------------
def test_a_save_one_action_behind_the_ledger_is_completed_one_ahead_is_refused(home):
    """The ledger is written first: a save one action behind it (its write failed) is completed with the
    ledger's last action; a save ahead of the ledger is one the records never certified."""
    from yahtzee_solver.game import Roll, new_game
    from yahtzee_solver.play.savegame import GameStore

    g = new_game(seed=SEED)
    store = GameStore(home / "game.json")
    store.begin(g)
    g.apply_action(Roll())
    store.ledger.write(store._counted(g))  # the ledger is written, then the run stops before the save is
    opened = GameStore(home / "game.json").open()
    assert opened.status == "ok" and opened.state.dice == g.dice and len(opened.state.log) == 1
    store = GameStore(home / "game.json")
    store.open()
    store.save(g)
    g.apply_action(Roll())
    store._write_save(g)  # an action the ledger never saw: refused
    assert GameStore(home / "game.json").open().status == "refused"


def test_deleting_the_ledger_does_not_dodge_a_loss(home):
    run(["play", "--vs", "normal", "--fast"], ["r", "q"])
    (home / "ledger.json").unlink()
    res = run(["records"])
    assert "counted as a loss" in res.output
    assert RecordBook.load().get("yahtzee", "normal").losses == 1


@pytest.mark.parametrize("vs,opponent,field", [("normal", "normal", "losses"), ("none", "solo", "abandoned")])
def test_deleting_the_save_and_the_ledger_together_does_not_dodge_the_game(home, vs, opponent, field):
    run(["play", "--vs", vs, "--fast"], ["r", "q"])
    (home / "ledger.json").unlink()
    (home / "game.json").unlink()
    res = run(["records"])
    assert res.exit_code == 0, res.output
    assert "was deleted: counted as" in res.output
    assert getattr(RecordBook.load().get("yahtzee", opponent), field) == 1
    # counted once, and the next game starts clean
    res = run(["play", "--vs", vs, "--fast"], ["q"])
    assert "counted as" not in res.output, res.output
    assert getattr(RecordBook.load().get("yahtzee", opponent), field) == 1


def test_a_practice_game_whose_files_are_deleted_counts_as_practice(home):
    run(["play", "--vs", "normal", "--fast"], ["h", "r", "q"])
    (home / "ledger.json").unlink()
    (home / "game.json").unlink()
    run(["records"])
    book = RecordBook.load()
    assert book.get("yahtzee", "normal", practice=True).losses == 1
    assert book.get("yahtzee", "normal").losses == 0


def test_a_game_with_no_action_whose_files_are_deleted_counts_nothing(home):
    run(["play", "--vs", "normal", "--fast"], ["q"])
    for f in ("ledger.json", "game.json"):
        (home / f).unlink(missing_ok=True)
    res = run(["records"])
    assert "counted as" not in res.output
    assert RecordBook.load().get("yahtzee", "normal").losses == 0


@pytest.mark.parametrize("cpu_rng", [None, 7, {"bit_generator": "PCG64", "state": "x"}, {"bit_generator": "Nope"}])
def test_a_ledger_with_a_bad_cpu_generator_is_unreadable(home, cpu_rng):
    """cpu_rng is checked like the other ledger fields: null only before the first action."""
    from yahtzee_solver.play.ledger import Ledger, LedgerEntry

    run(["play", "--vs", "beginner", "--fast"], ["r", "q"])
    data = json.loads((home / "ledger.json").read_text())
    assert data["game"]["counter"] > 0 and isinstance(data["game"]["cpu_rng"], dict)
    LedgerEntry.from_dict(data["game"])  # as written: valid
    data["game"]["cpu_rng"] = cpu_rng
    (home / "ledger.json").write_text(json.dumps(data))
    ledger = Ledger(home / "ledger.json")
    assert ledger.read() is None and "invalid cpu_rng" in ledger.problem
    fresh = LedgerEntry.new(seed=1, rules="yahtzee", opponent="beginner", first=0, lang="en").to_dict()
    assert fresh["cpu_rng"] is None and LedgerEntry.from_dict(fresh).cpu_rng is None  # no action yet


# -- a game is counted once, however many games come after ------------------------------------------------
def _finished_game_on_disk(home, seed):
    """A solitaire game played to its end and saved, not yet filed (as a run that stopped before the records)."""
    from yahtzee_solver.game import Roll, Score, new_game
    from yahtzee_solver.play.savegame import GameStore

    g = new_game(seed=seed)
    store = GameStore(home / "game.json")
    store.begin(g)
    while not g.is_terminal():
        a = Roll() if g.rolls_used == 0 else next(x for x in g.legal_actions() if isinstance(x, Score))
        g.apply_action(a)
        store.save(g)
    return g


@pytest.mark.parametrize("later", [8, 30])
def test_a_finished_game_restored_with_its_ledger_is_counted_once_after_many_games(home, later):
    from yahtzee_solver.play.ledger import LedgerEntry
    from yahtzee_solver.play.records import file_unfinished_game
    from yahtzee_solver.play.savegame import GameStore

    g = _finished_game_on_disk(home, 5)
    kept = {name: (home / name).read_bytes() for name in ("game.json", "ledger.json")}
    assert "now in your records" in run(["records"]).output
    for i in range(later):  # that many games counted after it (abandoned ones: quick to make)
        e = LedgerEntry.new(seed=i, rules="yahtzee", opponent="none", first=0, lang="en")
        file_unfinished_game(e, GameStore(home / "other.json"))
    for name, data in kept.items():  # both files of the finished game put back
        (home / name).write_bytes(data)
    run(["records"])
    rec = RecordBook.load().get("yahtzee", "solo")
    assert (rec.games, rec.total, rec.abandoned) == (1, g.cards[0].total, later)


def test_a_forfeit_refused_again_says_it_was_already_counted(home):
    run(["play", "--vs", "normal", "--fast"], ["r", "q"])
    kept = (home / "ledger.json").read_bytes()
    (home / "game.json").write_text("garbage")
    assert "counted as a loss" in run(["records"]).output
    (home / "ledger.json").write_bytes(kept)  # the same game's ledger and a bad save again
    (home / "game.json").write_text("garbage")
    res = run(["records"])
    assert "cannot be restored" in res.output and "already counted" in res.output
    assert "counted as a loss" not in res.output
    rec = RecordBook.load().get("yahtzee", "normal")
    assert (rec.losses, rec.forfeits) == (1, 1)


# -- the records' note of the game in progress, through the session functions both front ends call ------
def _noted_game(home, opponent="normal"):
    from yahtzee_solver.game import Roll, new_game
    from yahtzee_solver.play.savegame import GameStore
    from yahtzee_solver.play.session import begin_game, save_action

    home.mkdir(parents=True, exist_ok=True)
    store = GameStore(home / "game.json")
    st = new_game("yahtzee", opponent, "me", SEED)
    begin_game(store, st)
    st.apply_action(Roll())
    assert save_action(store, st) is None
    return store, st


def _delete_both_and_settle(home):
    from yahtzee_solver.play.savegame import GameStore
    from yahtzee_solver.play.session import settle

    (home / "game.json").unlink()
    (home / "ledger.json").unlink()
    return settle(GameStore(home / "game.json"))


def test_a_hint_is_in_the_records_note_at_once(home):
    from yahtzee_solver.play.session import mark_practice

    store, _ = _noted_game(home)
    assert mark_practice(store, "hint") is None  # no action after it: the process may be killed here
    s = _delete_both_and_settle(home)
    assert s.counted == "loss"
    book = RecordBook.load()
    assert book.get("yahtzee", "normal", practice=True).losses == 1 and book.get("yahtzee", "normal").losses == 0


def test_a_resumed_game_brings_the_records_note_up_to_date(home):
    from yahtzee_solver.play.savegame import GameStore
    from yahtzee_solver.play.session import settle

    store, _ = _noted_game(home)
    store.update(practice="hint")  # the ledger says practice; the note does not (a run killed in between)
    resumed = settle(GameStore(home / "game.json"))
    assert resumed.state is not None and resumed.counted is None
    _delete_both_and_settle(home)
    assert RecordBook.load().get("yahtzee", "normal", practice=True).losses == 1


def test_records_that_cannot_be_written_are_said_once_and_noted_later(home):
    from yahtzee_solver.game import Hold, Roll, new_game
    from yahtzee_solver.play.savegame import GameStore
    from yahtzee_solver.play.session import begin_game, save_action

    (home / "records.json").mkdir(parents=True)  # unreadable from the game's first action
    store = GameStore(home / "game.json")
    st = new_game("yahtzee", "normal", "me", SEED)
    begin_game(store, st)
    st.apply_action(Roll())
    assert "records.json" in save_action(store, st)
    st.apply_action(Hold((True, False, False, False, False)))
    assert save_action(store, st) is None  # said once
    (home / "records.json").rmdir()
    st.apply_action(Hold((True, True, False, False, False)))
    assert save_action(store, st) is None  # noted now
    assert _delete_both_and_settle(home).counted == "loss"
    assert RecordBook.load().get("yahtzee", "normal").losses == 1


@pytest.mark.parametrize("opponent,key", [("none", "solo"), ("beginner", "beginner")])
def test_a_finished_game_whose_files_are_deleted_before_filing_is_filed_with_its_score(home, opponent, key):
    """The last score is saved, then the run dies before it files the game, and both files are deleted."""
    from yahtzee_solver.game import CPU, Roll, Score, new_game
    from yahtzee_solver.play.savegame import GameStore
    from yahtzee_solver.play.session import begin_game, save_action, settle_notes
    from yahtzee_solver.i18n import Translator
    from yahtzee_solver.strategy.levels import make_strategy

    home.mkdir(parents=True)
    store = GameStore(home / "game.json")
    st = new_game("yahtzee", opponent, "me", SEED)
    begin_game(store, st)
    cpu = None if opponent == "none" else make_strategy(opponent, st.rules, rng=st.cpu_rng)
    while not st.is_terminal():
        if st.current == CPU:
            from yahtzee_solver.game import cpu_actions
            for a in cpu_actions(st, cpu):
                st.apply_action(a)
                save_action(store, st)
                if st.is_terminal() or st.current != CPU:
                    break
            continue
        st.apply_action(Roll())
        save_action(store, st)
        st.apply_action(Score(min(st.cards[st.current].open_categories)))
        save_action(store, st)
    s = _delete_both_and_settle(home)
    assert s.counted == "filed" and s.filed_score == st.cards[0].total
    rec = RecordBook.load().get("yahtzee", key)
    assert (rec.games, rec.best, rec.abandoned, rec.forfeits) == (1, st.cards[0].total, 0, 0)
    if opponent != "none":
        assert rec.wins + rec.losses + rec.draws == 1
    note = settle_notes(Translator("en"), s)[-1][0]
    assert "is now in your records" in note and str(st.cards[0].total) in note


# -- a game already counted, its save and ledger put back together ---------------------------------------------
def test_a_counted_game_whose_save_and_ledger_are_put_back_is_refused_as_already_counted(home):
    """The tester's steps: copy both files, play on, put back the save alone (a loss), then both."""
    from yahtzee_solver.game import Hold, Roll
    from yahtzee_solver.i18n import Translator
    from yahtzee_solver.play.savegame import GameStore
    from yahtzee_solver.play.session import save_action, settle, settle_notes

    store, st = _noted_game(home)
    kept = {name: (home / name).read_bytes() for name in ("game.json", "ledger.json")}
    st.apply_action(Hold((True, False, False, False, False)))
    save_action(store, st)
    st.apply_action(Roll())
    save_action(store, st)
    (home / "game.json").write_bytes(kept["game.json"])  # the save alone: refused, a loss
    s = settle(GameStore(home / "game.json"))
    assert s.opened.status == "refused" and s.counted == "loss"
    for name, data in kept.items():  # both put back: the game the records have counted
        (home / name).write_bytes(data)
    store = GameStore(home / "game.json")
    s = settle(store)
    assert s.state is None and s.opened.status == "refused" and s.counted == "already"
    assert "already counted" in s.opened.problem
    notes = [text for text, _ in settle_notes(Translator("en"), s)]
    assert any("already counted, the records are unchanged" in t for t in notes), notes
    assert not (home / "game.json").exists() and len(aside(home)) == 2  # set aside as other refused saves
    assert store.entry is None and store.ledger.read() is None
    rec = RecordBook.load().get("yahtzee", "normal")
    assert (rec.losses, rec.forfeits, rec.games) == (1, 1, 0)
    assert settle(GameStore(home / "game.json")).opened.status == "none"  # and nothing is left to resume


def test_a_finished_solo_game_put_back_from_an_earlier_copy_goes_into_the_history_once(home):
    """A pair copied early in a game that was then played out and filed: not resumed, not replayed
    with other boxes into the history a second time."""
    from yahtzee_solver.game import Roll, Score
    from yahtzee_solver.play.history import History
    from yahtzee_solver.play.savegame import GameStore
    from yahtzee_solver.play.session import file_finished, save_action, settle

    store, st = _noted_game(home, "none")
    kept = {name: (home / name).read_bytes() for name in ("game.json", "ledger.json")}
    while not st.is_terminal():
        if st.rolls_used == 0:
            st.apply_action(Roll())
        else:
            st.apply_action(Score(min(st.cards[0].open_categories)))
        save_action(store, st)
    file_finished(st, store)
    for name, data in kept.items():
        (home / name).write_bytes(data)
    s = settle(GameStore(home / "game.json"))
    assert s.state is None and s.counted == "already"
    assert len(History.load().entries) == 1
    rec = RecordBook.load().get("yahtzee", "solo")
    assert (rec.games, rec.best, rec.abandoned) == (1, st.cards[0].total, 0)
