"""A write that fails never lets a save the ledger does not certify be accepted.

The game writes two files after every action: the ledger (``ledger.json``,
which certifies the number of actions and their keyed digest) and the save
(``game.json``).  Each test makes one of those writes fail, at every point of
a game, then tries to resume it -- with the save as the failure left it, and
with every save a player could put in its place (an earlier or later position
of the same game, or the same position with another move).  A resumed game is
always exactly the one the ledger certifies; anything else is refused.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from yahtzee_solver.cli import main
from yahtzee_solver.errors import DataFileError
from yahtzee_solver.files import HOME_ENV
from yahtzee_solver.game import Hold, Roll, Score, new_game
from yahtzee_solver.play.ledger import Ledger, log_digest
from yahtzee_solver.play.records import RecordBook
from yahtzee_solver.play.savegame import GameStore, state_to_dict

SEED = 246_813_579_024


class FailingWriter:
    """Stands in for ``write_json_atomic`` in the ledger and savegame modules: write number ``fail_at``
    (counting from 0) raises ``DataFileError`` (the file left unchanged), as a full disk would."""

    def __init__(self, real, fail_at: int | None):
        self.real, self.fail_at, self.count, self.failed = real, fail_at, 0, None

    def __call__(self, path, data):
        n, self.count = self.count, self.count + 1
        if n == self.fail_at:
            self.failed = path
            raise DataFileError(f"cannot write {str(path)!r}: No space left on device")
        return self.real(path, data)


def _patch_writer(monkeypatch, writer) -> None:
    monkeypatch.setattr("yahtzee_solver.play.ledger.write_json_atomic", writer)
    monkeypatch.setattr("yahtzee_solver.play.savegame.write_json_atomic", writer)


def _script(opponent: str, n_actions: int):
    """A fixed sequence of legal actions for both players and the positions after each (0..n_actions)."""
    g = new_game("yahtzee", opponent, "me", SEED)
    states, actions = [g.clone()], []
    while len(actions) < n_actions:
        if g.rolls_used == 0:
            a = Roll()
        elif g.rolls_used == 1:
            a = Hold((True, True, False, False, False)) if g.held[0] is False else Roll()
        else:
            a = Score(min(g.cards[g.current].open_categories))
        g.apply_action(a)
        actions.append(a)
        states.append(g.clone())
    return actions, states


def _position(st):
    return (st.cards, st.current, st.round, st.dice, st.held, st.rolls_used, [e.to_dict() for e in st.log])


def _other_saves(states, game_id):
    """Every save a player could put back: each position of the game, and each position with another
    legal move instead of the one played (for instance scoring the earlier dice instead of rolling)."""
    out = [state_to_dict(s, game_id) for s in states]
    for before, after in zip(states, states[1:]):
        for a in before.legal_actions():
            if isinstance(a, Hold) and sum(a.held) not in (0, 5):
                continue  # the 30 other keeps add nothing the two extremes do not test
            alt = before.clone()
            ev = alt.apply_action(a)
            if ev != after.log[-1]:
                out.append(state_to_dict(alt, game_id))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("opponent", ["none", "beginner"])
def test_every_failed_write_resumes_only_what_the_ledger_certifies(tmp_path, monkeypatch, opponent):
    actions, states = _script(opponent, 12)
    real = __import__("yahtzee_solver.files", fromlist=["write_json_atomic"]).write_json_atomic
    k = 0
    while True:
        folder = tmp_path / f"fail-{k}"
        writer = FailingWriter(real, k)
        _patch_writer(monkeypatch, writer)
        g = states[0].clone()
        store = GameStore(folder / "game.json")
        done = 0  # actions whose save() returned
        try:
            store.begin(g)
            for a in actions:
                g.apply_action(a)
                store.save(g)
                done += 1
        except DataFileError:
            pass
        _patch_writer(monkeypatch, real)
        if writer.failed is None:
            break  # k is past the last write: every failure point was tried
        k += 1
        entry = Ledger(folder / "ledger.json").read()
        if entry is None:  # the very first write (the new game's ledger) failed: no game at all
            assert not (folder / "game.json").exists()
            continue
        # The ledger knows either every action that returned, or that and the one whose write failed.
        assert entry.counter in (done, done + 1), (k, entry.counter, done)
        certified = states[entry.counter]
        assert log_digest(entry.key, [e.to_dict() for e in certified.log]) == entry.digest
        ledger_text = (folder / "ledger.json").read_text()
        left = (folder / "game.json").read_text() if (folder / "game.json").exists() else None

        # The save as the failure left it resumes (or, before any action, there is nothing to resume) ...
        if left is not None:
            opened = GameStore(folder / "game.json").open()
            if entry.counter == 0:
                assert opened.status in ("ok", "none")
            else:
                assert opened.status == "ok", (k, opened.problem)
            if opened.status == "ok":
                assert _position(opened.state) == _position(certified), k
        # ... and no other save a player could put there is taken for anything but the certified game.
        for cand in _other_saves(states, entry.game_id):
            (folder / "ledger.json").write_text(ledger_text)
            (folder / "game.json").write_text(json.dumps(cand))
            opened = GameStore(folder / "game.json").open()
            if opened.status == "ok":
                assert _position(opened.state) == _position(certified), (k, len(cand["log"]))
    assert k >= 2 * len(actions)


def test_a_completed_save_continues_with_the_ledgers_dice_and_cpu(tmp_path):
    """The ledger was written, the save was not: the game goes on from the certified action, with the
    CPU's generator as the ledger has it."""
    actions, states = _script("beginner", 9)
    g = states[0].clone()
    store = GameStore(tmp_path / "game.json")
    store.begin(g)
    for a in actions[:-1]:
        g.apply_action(a)
        store.save(g)
    behind = (tmp_path / "game.json").read_text()
    g.apply_action(actions[-1])
    store.save(g)
    (tmp_path / "game.json").write_text(behind)
    opened = GameStore(tmp_path / "game.json").open()
    assert opened.status == "ok" and _position(opened.state) == _position(g)
    assert opened.state.cpu_rng.bit_generator.state == g.cpu_rng.bit_generator.state
    assert opened.state.rng.bit_generator.state == g.rng.bit_generator.state


# -- the scenario, through the command line -----------------------------------------------------
@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    monkeypatch.setattr("yahtzee_solver.play.session.fresh_seed", lambda: SEED)
    return tmp_path / "home"


def _run(args, lines=()):
    return CliRunner().invoke(main, args, input="".join(f"{line}\n" for line in lines))


def test_a_roll_cannot_be_taken_back_by_breaking_the_ledger(home, monkeypatch):
    """The ledger cannot be written when the player rolls again; the player then puts back a save that
    scores the earlier dice instead.  The resume refuses it and counts the game."""
    assert _run(["play", "--fast"], ["r", "q"]).exit_code == 0
    first = json.loads((home / "game.json").read_text())
    real = __import__("yahtzee_solver.files", fromlist=["write_json_atomic"]).write_json_atomic

    def no_ledger(path, data):
        if str(path).endswith("ledger.json"):
            raise DataFileError(f"cannot write {str(path)!r}: Is a directory")
        return real(path, data)

    _patch_writer(monkeypatch, no_ledger)
    res = _run(["play", "--resume", "--fast"], ["r"])
    assert res.exit_code == 1 and "cannot write" in res.output
    _patch_writer(monkeypatch, real)
    # Whatever the save holds now, the player writes one that scores the first roll's dice in Chance.
    g = new_game("yahtzee", "none", "me", SEED)
    g.apply_action(Roll())
    assert list(g.dice) == first["dice"]
    g.apply_action(Score(12))
    (home / "game.json").write_text(json.dumps(state_to_dict(g, first["game_id"], "en")))
    res = _run(["play", "--resume", "--fast"], ["q"])
    assert res.exit_code == 1 and "cannot be restored" in res.output, res.output
    rec = RecordBook.load().get("yahtzee", "solo")
    assert (rec.games, rec.abandoned) == (0, 1)


@pytest.mark.parametrize("fail_at", [0, 1])
def test_an_undo_whose_write_fails_resumes_as_the_ledger_has_it(tmp_path, monkeypatch, fail_at):
    """An undo shortens the move log: whichever of its two writes fails, the game resumes (nothing is
    refused) either with the score undone or with the score kept, as the ledger says."""
    real = __import__("yahtzee_solver.files", fromlist=["write_json_atomic"]).write_json_atomic
    g = new_game("yahtzee", "none", "me", SEED)
    store = GameStore(tmp_path / "game.json")
    store.begin(g)
    g.apply_action(Roll())
    store.save(g)
    before = g.clone()
    g.apply_action(Score(12))
    store.save(g)
    writer = FailingWriter(real, fail_at)
    _patch_writer(monkeypatch, writer)
    with pytest.raises(DataFileError):
        store.save(before)  # the undo
    _patch_writer(monkeypatch, real)
    entry = Ledger(tmp_path / "ledger.json").read()
    opened = GameStore(tmp_path / "game.json").open()
    assert opened.status == "ok", opened.problem
    certified = before if entry.counter == len(before.log) else g
    assert _position(opened.state) == _position(certified)
