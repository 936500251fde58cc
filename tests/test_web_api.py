"""The web API (``yahtzee_solver.web``) through Flask's test client.

A whole seeded game is checked against the engine replaying the same
decisions; every refusal is a 4xx with a one-line JSON message; a restarted
server continues the saved game with the same dice.  The server lives under
the terminal game's rules for the records: a save that was edited, rolled
back or deleted is refused and counted, an abandoned game against the CPU
is a loss, and a chosen seed or a hint makes the game practice.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

import pytest

flask = pytest.importorskip("flask", reason="the web tests need the [web] extra (Flask)")

from yahtzee_solver import Advisor  # noqa: E402
from yahtzee_solver.game import Hold, Roll, Score, cpu_actions, new_game  # noqa: E402
from yahtzee_solver.i18n import Translator  # noqa: E402
from yahtzee_solver.strategy.levels import make_strategy  # noqa: E402
from yahtzee_solver.play.records import RecordBook  # noqa: E402
from yahtzee_solver.play.savegame import GameStore  # noqa: E402
from yahtzee_solver.rules import RULESETS, get_rules  # noqa: E402
from yahtzee_solver.state import parse_card  # noqa: E402
from yahtzee_solver.web.app import MAX_BODY, TOKEN_HEADER, create_app  # noqa: E402


SECRET = 31_415_926_535  # the secret seed the tests inject (a player cannot choose it)


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.setenv("YAHTZEE_SOLVER_HOME", str(tmp_path))
    monkeypatch.setattr("yahtzee_solver.play.session.fresh_seed", lambda: SECRET)
    return {"game_file": tmp_path / "game.json", "records_file": tmp_path / "records.json"}


class Client:
    """The test client with the page's token on every POST."""

    def __init__(self, app):
        self.app = app
        self.c = app.test_client()
        self.token = app.config["TOKEN"]

    def get(self, url, **kw):
        return self.c.get(url, **kw)

    def post(self, url, body=None, **kw):
        headers = {TOKEN_HEADER: self.token, **kw.pop("headers", {})}
        if "data" in kw:
            kw.setdefault("content_type", "application/json")
            return self.c.post(url, headers=headers, **kw)
        return self.c.post(url, json={} if body is None else body, headers=headers, **kw)

    def ok(self, method, url, body=None):
        r = self.post(url, body) if method == "post" else self.get(url)
        assert r.status_code == 200, (url, r.status_code, r.get_json())
        return r.get_json()


@pytest.fixture
def client(files):
    return Client(create_app(**files))


def assert_refused(r, status, *needles):
    """A JSON error: the status, one line naming the problem, no traceback."""
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True)[:300])
    assert r.mimetype == "application/json"
    body = r.get_json()
    assert set(body) - {"game", "games"} == {"error", "code"}  # a 409 may carry the current game, a 404 the games
    msg = body["error"]
    assert msg and "\n" not in msg and "Traceback" not in msg and len(msg) < 300
    for n in needles:
        assert n in msg, (n, msg)
    return body


# -- a whole game --------------------------------------------------------------------------
def _play_human_by_hint(c: Client, game: dict, log: list) -> dict:
    """One human turn: roll, then follow the hint's best option (hold + roll, or score)."""
    game = c.ok("post", "/api/game/roll")["game"]
    log.append(("roll",))
    while True:
        hint = c.ok("post", "/api/game/hint")
        best = hint["options"][0]
        if hint["kind"] == "keep" and len(best["keep"]) < 5:
            if best["held"] != game["held"]:
                game = c.ok("post", "/api/game/hold", {"held": best["held"]})["game"]
                assert game["held"] == best["held"]
                log.append(("hold", tuple(best["held"])))
            game = c.ok("post", "/api/game/roll")["game"]
            log.append(("roll",))
            continue
        box = hint["then"]["box"] if hint["kind"] == "keep" else best["box"]
        r = c.post("/api/game/score", {"box": box})
        if r.status_code == 409:  # a zero: the optimal move may be a zero, confirm it
            assert r.get_json()["code"] == "confirm_zero"
            r = c.post("/api/game/score", {"box": box, "confirm": True})
        assert r.status_code == 200, r.get_json()
        log.append(("score", box))
        return r.get_json()["game"]


@pytest.mark.parametrize("rules,opponent,first", [("yahtzee", "expert", "cpu"), ("yacht", "beginner", "me"),
                                                  ("yahtzee-free-joker", "none", "me"), ("yacht", "master", "cpu")])
def test_whole_seeded_game_matches_the_engine(client, files, rules, opponent, first):
    seed = 2026
    game = client.ok("post", "/api/game/new", {"rules": rules, "opponent": opponent, "first": first, "seed": seed})["game"]
    log = []
    while not game["over"]:
        if game["cpu_turn"]:
            before = game["rolls_used"]
            reply = client.ok("post", "/api/game/cpu")
            assert reply["events"]
            game = reply["game"]
            log.append(("cpu", before))
        else:
            game = _play_human_by_hint(client, game, log)
    # The same game through the engine: the CPU's own decisions, the advisor's best moves for the human.
    st = new_game(rules, opponent, first, seed)
    adv = Advisor(rules, jit=False)
    cpu = None if opponent == "none" else make_strategy(opponent, rules, rng=st.cpu_rng, jit=opponent == "master")
    for step in log:
        if step[0] == "cpu":
            assert st.is_cpu_turn and st.rolls_used == step[1]
            for a in cpu_actions(st, cpu):
                st.apply_action(a)
        elif step[0] == "roll":
            assert not st.is_cpu_turn
            st.apply_action(Roll())
        elif step[0] == "hold":
            st.apply_action(Hold(step[1]))
        else:
            assert step[1] == adv.hint(st.card, st.sorted_dice, 0)[0].category
            st.apply_action(Score(step[1]))
    assert st.is_terminal()
    if opponent == "master":  # told the human's card by cpu_actions, so it played to win
        assert cpu.opponent_pmf() is not None
    assert [p["boxes"] for p in game["players"]] == [list(c.boxes) for c in st.cards]
    assert [p["total"] for p in game["players"]] == list(st.totals())
    # Filed in the practice records (a chosen seed, hints), the saved game and its ledger entry gone.
    assert not files["game_file"].exists() and GameStore(files["game_file"]).ledger.read() is None
    opp = "solo" if opponent == "none" else opponent
    book = RecordBook.load(files["records_file"])
    rec = book.get(rules, opp, practice=True)
    assert rec.games == 1 and rec.best == st.cards[0].total
    assert book.get(rules, opp).games == 0
    res = game["result"]
    assert res["recorded"] and res["practice"] and res["record"]["games"] == 1 and game["practice"]
    if opponent != "none":
        want = {0: "win", 1: "loss", None: "draw"}[st.winner()]
        assert res["outcome"] == want and rec.wins + rec.losses + rec.draws == 1
    rows = client.ok("get", "/api/records")["records"]
    assert [(r["rules"], r["practice"], r["games"], r["best"]) for r in rows] == [(rules, True, 1, st.cards[0].total)]


def _play_out(c: Client) -> dict:
    """Finish the game without asking for a hint: each turn one roll, then the first empty box."""
    game = c.ok("get", "/api/game")["game"]
    while not game["over"]:
        if game["cpu_turn"]:
            game = c.ok("post", "/api/game/cpu")["game"]
            continue
        game = c.ok("post", "/api/game/roll")["game"]
        box = game["players"][0]["boxes"].index(None)
        game = c.ok("post", "/api/game/score", {"box": box, "confirm": True})["game"]
    return game


@pytest.mark.parametrize("opponent", ["none", "beginner"])
def test_a_game_with_a_secret_seed_and_no_hint_is_unaided(client, files, opponent):
    game = client.ok("post", "/api/game/new", {"rules": "yacht", "opponent": opponent})["game"]
    assert game["seed"] is None and not game["practice"]  # the dice to come stay secret
    assert "seed" not in files["game_file"].read_text()
    game = _play_out(client)
    assert game["seed"] == str(SECRET) and not game["practice"] and not game["result"]["practice"]
    # The dice came from the secret seed: the engine playing the same moves from it ends the same.
    st = new_game("yacht", opponent, "me", SECRET)
    cpu = None if opponent == "none" else make_strategy(opponent, "yacht", rng=st.cpu_rng, jit=False)
    while not st.is_terminal():
        if st.is_cpu_turn:
            for a in cpu_actions(st, cpu):
                st.apply_action(a)
        else:
            st.apply_action(Roll())
            st.apply_action(Score(list(st.card.boxes).index(None)))
    assert [p["boxes"] for p in game["players"]] == [list(c.boxes) for c in st.cards]
    opp = "solo" if opponent == "none" else opponent
    book = RecordBook.load(files["records_file"])
    assert book.get("yacht", opp).games == 1 and book.get("yacht", opp, practice=True).games == 0
    assert book.get("yacht", opp).best == game["players"][0]["total"]
    rows = client.ok("get", "/api/records")["records"]
    assert [(r["rules"], r["opponent"], r["practice"], r["games"]) for r in rows] == [("yacht", opp, False, 1)]


def test_preview_and_zero_confirmation(client):
    client.ok("post", "/api/game/new", {"seed": 11})
    game = client.ok("post", "/api/game/roll")["game"]
    st = new_game("yahtzee", "none", "me", 11)
    st.apply_action(Roll())
    assert game["dice"] == list(st.dice)
    points, legal, bonus = st.preview()
    assert game["preview"]["points"] == list(points) and game["preview"]["legal"] == list(legal)
    zero = [c for c in range(13) if points[c] == 0]
    assert zero, "seed 11 must show a box that scores 0"
    assert game["preview"]["zero"] == [st.zero_warning(c) for c in range(13)]
    body = assert_refused(client.post("/api/game/score", {"box": zero[0]}), 409, "Score 0")
    assert body["code"] == "confirm_zero"
    assert client.ok("get", "/api/game")["game"]["players"][0]["boxes"][zero[0]] is None  # nothing written
    game = client.ok("post", "/api/game/score", {"box": zero[0], "confirm": True})["game"]
    assert game["players"][0]["boxes"][zero[0]] == 0


def test_dice_lock_after_the_third_roll(client):
    client.ok("post", "/api/game/new", {"seed": 5})
    for n in (1, 2, 3):
        game = client.ok("post", "/api/game/roll")["game"]
        assert game["rolls_used"] == n and game["locked"] == (n == 3) and game["can_roll"] == (n < 3)
    assert_refused(client.post("/api/game/roll"), 409, "no rolls left")
    assert_refused(client.post("/api/game/hold", {"held": [True] * 5}), 409, "locked")
    hint = client.ok("post", "/api/game/hint")
    assert hint["kind"] == "box" and hint["options"][0]["loss"] == 0
    assert all(o["loss"] >= 0 for o in hint["options"])


def test_hint_before_rolling_and_during_the_cpu_turn(client):
    client.ok("post", "/api/game/new", {"seed": 1, "opponent": "normal", "first": "cpu"})
    assert_refused(client.post("/api/game/hint"), 409, "no hint during the CPU's turn")
    # a move during the CPU's turn is refused as a move, not as a hint
    for path, body in (("roll", {}), ("hold", {"held": [True, False, False, False, False]}), ("score", {"box": 1})):
        refused = assert_refused(client.post(f"/api/game/{path}", body), 409, "It is the CPU's turn")
        assert refused["code"] == "cpu_turn" and "hint" not in refused["error"]
    game = client.ok("post", "/api/game/cpu")["game"]
    while game["cpu_turn"]:
        game = client.ok("post", "/api/game/cpu")["game"]
    assert_refused(client.post("/api/game/cpu"), 409, "not the CPU's turn")
    hint = client.ok("post", "/api/game/hint")
    card = get_rules("yahtzee")
    assert hint["kind"] == "roll" and hint["expected"] == pytest.approx(Advisor(card, jit=False).expected_final())


# -- resume --------------------------------------------------------------------------------
def test_resume_after_a_restart_gives_the_same_dice(files):
    a = Client(create_app(**files))
    a.ok("post", "/api/game/new", {"opponent": "expert", "seed": 99})
    a.ok("post", "/api/game/roll")
    a.ok("post", "/api/game/hold", {"held": [True, False, True, False, False]})
    before = a.ok("get", "/api/game")["game"]
    twin = a.app.extensions["yahtzee"].state.clone()
    twin.apply_action(Roll())
    # A new server process on the same files (a new token too).
    b = Client(create_app(**files))
    assert b.token != a.token
    assert_refused(b.post("/api/game/roll", headers={TOKEN_HEADER: a.token}), 403, "token")
    after = b.ok("get", "/api/game")["game"]
    for key in ("dice", "held", "rolls_used", "round", "players", "preview"):
        assert after[key] == before[key], key
    rolled = b.ok("post", "/api/game/roll")["game"]
    assert rolled["dice"] == list(twin.dice)
    # The terminal game's files: the save verifies against the ledger, which holds the seed.
    opened = GameStore(files["game_file"]).open()
    assert opened.status == "ok" and list(opened.state.dice) == rolled["dice"]
    assert opened.entry.seed == 99 and opened.entry.practice == ("seed",)


def test_resume_with_a_secret_seed_after_a_restart(files):
    a = Client(create_app(**files))
    a.ok("post", "/api/game/new", {"opponent": "normal"})
    a.ok("post", "/api/game/roll")
    twin = a.app.extensions["yahtzee"].state.clone()
    twin.apply_action(Roll())
    b = Client(create_app(**files))
    after = b.ok("get", "/api/game")
    assert after["game"]["seed"] is None and not after["game"]["practice"] and after["notice"] is None
    assert b.ok("post", "/api/game/roll")["game"]["dice"] == list(twin.dice)


def test_a_damaged_save_is_moved_aside_and_reported(files):
    files["game_file"].write_text('{"format": "yahtzee_solver saved game", "version": 1, "cards": 3}')
    c = Client(create_app(**files))
    reply = c.ok("get", "/api/game")
    assert reply["game"] is None and "moved to" in reply["notice"]
    assert not files["game_file"].exists()
    assert list(files["game_file"].parent.glob("game.json.corrupt-*"))


# -- the records can be trusted ------------------------------------------------------------------
def _started(files, opponent, moves=("roll", "hold", "roll")) -> Client:
    """An unaided game (secret seed) with a few actions, on a server that then stops."""
    c = Client(create_app(**files))
    c.ok("post", "/api/game/new", {"opponent": opponent})
    for m in moves:
        if m == "hold":
            c.ok("post", "/api/game/hold", {"held": [True, True, False, False, False]})
        else:
            c.ok("post", "/api/game/" + m)
    return c


def _refused_and_counted(files, opponent, why):
    """A restarted server refuses the save, sets it aside, counts the game and starts clean."""
    c = Client(create_app(**files))
    reply = c.ok("get", "/api/game")
    assert reply["game"] is None
    how = "abandoned" if opponent == "none" else "loss"
    assert why in reply["notice"] and f"counted as {'a loss' if how == 'loss' else 'abandoned'}" in reply["notice"]
    rec = RecordBook.load(files["records_file"]).get("yahtzee", "solo" if opponent == "none" else opponent)
    if how == "loss":
        assert (rec.losses, rec.forfeits, rec.games) == (1, 1, 0)
    else:
        assert (rec.abandoned, rec.games) == (1, 0)
    assert not files["game_file"].exists() and GameStore(files["game_file"]).ledger.read() is None
    # Counted once: another restart finds nothing more.
    counted = RecordBook.load(files["records_file"]).to_list()
    again = Client(create_app(**files)).ok("get", "/api/game")
    assert again["game"] is None and again["notice"] is None
    assert RecordBook.load(files["records_file"]).to_list() == counted
    return c


@pytest.mark.parametrize("opponent", ["none", "expert"])
def test_an_edited_save_is_refused_and_counted(files, opponent):
    _started(files, opponent)
    d = json.loads(files["game_file"].read_text())
    d["cards"][0]["sixes"] = 30  # a box filled by hand
    files["game_file"].write_text(json.dumps(d))
    _refused_and_counted(files, opponent, "failed verification")
    assert len(list(files["game_file"].parent.glob("game.json.corrupt-*"))) == 1


@pytest.mark.parametrize("opponent", ["none", "normal"])
def test_edited_dice_are_refused_and_counted(files, opponent):
    _started(files, opponent)
    d = json.loads(files["game_file"].read_text())
    d["dice"] = [6, 6, 6, 6, 6]
    d["log"][-1]["dice"] = [6, 6, 6, 6, 6]
    files["game_file"].write_text(json.dumps(d))
    _refused_and_counted(files, opponent, "failed verification")


@pytest.mark.parametrize("opponent", ["none", "beginner"])
def test_a_rolled_back_save_is_refused_and_counted(files, opponent):
    """A copy of the save taken before a bad roll, put back while the server is stopped."""
    _started(files, opponent, moves=("roll",))
    copy = files["game_file"].read_text()
    c = Client(create_app(**files))
    c.ok("post", "/api/game/hold", {"held": [True, False, False, False, False]})
    c.ok("post", "/api/game/roll")
    files["game_file"].write_text(copy)
    _refused_and_counted(files, opponent, "failed verification")


def test_a_deleted_save_is_counted_as_a_loss(files):
    _started(files, "expert")
    files["game_file"].unlink()
    _refused_and_counted(files, "expert", "was deleted")


def test_a_new_game_over_a_game_in_progress_needs_abandon_and_counts_it(client, files):
    client.ok("post", "/api/game/new", {"seed": 3, "opponent": "beginner"})
    client.ok("post", "/api/game/roll")
    body = assert_refused(client.post("/api/game/new", {"seed": 4}), 409, "Abandon", "loss")
    assert body["code"] == "game_in_progress"
    assert RecordBook.load(files["records_file"]).to_list() == []  # nothing counted yet
    reply = client.ok("post", "/api/game/new", {"seed": 4, "abandon": True})
    game = reply["game"]
    assert game["seed"] == "4" and game["rolls_used"] == 0 and game["practice"]
    assert any("counts as a loss" in e for e in reply["events"])
    book = RecordBook.load(files["records_file"])
    rec = book.get("yahtzee", "beginner", practice=True)  # the abandoned game had a chosen seed
    assert (rec.losses, rec.forfeits, rec.games) == (1, 1, 0)
    assert book.get("yahtzee", "beginner").losses == 0


def test_an_abandoned_unaided_solo_game_counts_as_abandoned(client, files):
    client.ok("post", "/api/game/new", {})
    client.ok("post", "/api/game/roll")
    client.ok("post", "/api/game/new", {"abandon": True})
    book = RecordBook.load(files["records_file"])
    assert book.get("yahtzee", "solo").abandoned == 1 and book.get("yahtzee", "solo", practice=True).abandoned == 0


def test_a_bad_new_game_request_leaves_the_game_in_progress(client, files):
    client.ok("post", "/api/game/new", {"opponent": "normal"})
    client.ok("post", "/api/game/roll")
    before = files["game_file"].read_text()
    assert_refused(client.post("/api/game/new", {"rules": "chess", "abandon": True}), 400, "chess")
    assert files["game_file"].read_text() == before and RecordBook.load(files["records_file"]).to_list() == []


def test_a_hint_in_a_game_already_practice_says_nothing_new(files):
    """A chosen seed makes the game practice (said when it starts): a hint adds its reason, no notice
    that the game "now" counts as practice."""
    c = Client(create_app(**files))
    c.ok("post", "/api/game/new", {"opponent": "none", "seed": 4})
    assert c.ok("get", "/api/game")["game"]["practice"]
    c.ok("post", "/api/game/roll")
    assert c.ok("post", "/api/game/hint")["practice"] is None
    assert c.ok("get", "/api/game")["game"]["practice"]


def test_a_hint_makes_the_game_practice(files):
    c = Client(create_app(**files))
    c.ok("post", "/api/game/new", {"opponent": "expert"})
    assert not c.ok("get", "/api/game")["game"]["practice"]
    c.ok("post", "/api/game/roll")
    hint = c.ok("post", "/api/game/hint")
    assert hint["practice"] and "practice" in hint["practice"]
    assert c.ok("post", "/api/game/hint")["practice"] is None  # said once
    game = c.ok("get", "/api/game")["game"]
    assert game["practice"] and game["seed"] is None  # practice, yet the seed stays secret
    assert GameStore(files["game_file"]).ledger.read().practice == ("hint",)
    # Still practice after a restart; abandoning it is a practice loss.
    d = Client(create_app(**files))
    assert d.ok("get", "/api/game")["game"]["practice"]
    d.ok("post", "/api/game/new", {"abandon": True})
    book = RecordBook.load(files["records_file"])
    assert book.get("yahtzee", "expert", practice=True).losses == 1 and book.get("yahtzee", "expert").losses == 0


def test_a_refused_hint_does_not_make_the_game_practice(files):
    c = Client(create_app(**files))
    assert_refused(c.post("/api/game/hint"), 409)
    c.ok("post", "/api/game/new", {"opponent": "normal", "first": "cpu"})
    assert_refused(c.post("/api/game/hint"), 409, "CPU")
    assert not c.ok("get", "/api/game")["game"]["practice"]
    assert GameStore(files["game_file"]).ledger.read().practice == ()


def test_a_hinted_game_finishes_in_the_practice_records(client, files):
    client.ok("post", "/api/game/new", {"rules": "yacht"})
    client.ok("post", "/api/game/roll")
    client.ok("post", "/api/game/hint")
    game = _play_out(client)
    assert game["result"]["practice"] and any("practice" in line for line in game["result"]["lines"])
    book = RecordBook.load(files["records_file"])
    assert book.get("yacht", "solo", practice=True).games == 1 and book.get("yacht", "solo").games == 0
    rows = client.ok("get", "/api/records")["records"]
    assert [(r["opponent"], r["practice"]) for r in rows] == [("solo", True)]


def test_a_finished_game_left_unrecorded_is_filed_on_start(files, monkeypatch):
    c = Client(create_app(**files))
    c.ok("post", "/api/game/new", {"rules": "yacht"})
    from yahtzee_solver.web import store

    def fail(*a, **k):
        raise store.DataFileError("records disk full")

    monkeypatch.setattr("yahtzee_solver.play.session.file_finished_game", fail)  # the records step of filing
    game = _play_out(c)
    assert not game["result"]["recorded"] and "records disk full" in " ".join(game["result"]["lines"])
    assert files["game_file"].exists()  # kept, nothing lost
    # A new game first files the finished one; while the records still fail, it is refused.
    assert_refused(c.post("/api/game/new", {}), 500, "records disk full")
    monkeypatch.undo()
    monkeypatch.setenv("YAHTZEE_SOLVER_HOME", str(files["game_file"].parent))
    reply = Client(create_app(**files)).ok("get", "/api/game")
    assert reply["game"] is None and "now in your records" in reply["notice"]
    assert RecordBook.load(files["records_file"]).get("yacht", "solo").games == 1


@pytest.mark.parametrize("broken", ["ledger.json", "game.json"])
def test_a_roll_that_could_not_be_saved_is_not_shown(files, monkeypatch, broken):
    """A failed save leaves the page on what the files hold: the roll is not shown if the ledger did not
    certify it (so it cannot be taken back by scoring the earlier dice), and shown if it did."""
    c = Client(create_app(**files))
    c.ok("post", "/api/game/new", {"opponent": "normal"})
    first = c.ok("post", "/api/game/roll")["game"]["dice"]
    twin = c.app.extensions["yahtzee"].state.clone()
    twin.apply_action(Roll())
    from yahtzee_solver import files as files_mod

    real = files_mod.write_json_atomic

    def fail(path, data):
        if str(path).endswith(broken):
            raise files_mod.DataFileError(f"cannot write {str(path)!r}: No space left on device")
        return real(path, data)

    monkeypatch.setattr("yahtzee_solver.play.ledger.write_json_atomic", fail)
    monkeypatch.setattr("yahtzee_solver.play.savegame.write_json_atomic", fail)
    assert_refused(c.post("/api/game/roll"), 500, "could not be saved")
    shown = c.ok("get", "/api/game")["game"]
    assert shown["dice"] == (first if broken == "ledger.json" else list(twin.dice))
    monkeypatch.undo()
    monkeypatch.setenv("YAHTZEE_SOLVER_HOME", str(files["game_file"].parent))
    again = Client(create_app(**files)).ok("get", "/api/game")["game"]
    assert again["dice"] == shown["dice"] and again["rolls_used"] == shown["rolls_used"]


def test_a_server_given_a_game_file_keeps_its_records_and_history_beside_it(tmp_path, monkeypatch):
    """``create_app(game_file=...)`` touches nothing in the data folder: the finished game goes into the
    records and the history next to the game it was given."""
    data = tmp_path / "data-folder"
    monkeypatch.setenv("YAHTZEE_SOLVER_HOME", str(data))
    game = tmp_path / "elsewhere" / "game.json"
    c = Client(create_app(game_file=game))
    c.ok("post", "/api/game/new", {"rules": "yacht"})
    result = _play_out(c)["result"]
    assert result["recorded"] and result["history_number"] == 1 and result["history_problem"] is None
    assert (game.parent / "history.json").exists() and (game.parent / "records.json").exists()
    assert not data.exists() or list(data.iterdir()) == []
    history = tmp_path / "h" / "history.json"
    c = Client(create_app(game_file=game, records_file=tmp_path / "r" / "records.json", history_file=history))
    c.ok("post", "/api/game/new", {"rules": "yacht"})
    assert _play_out(c)["result"]["recorded"] and history.exists() and (tmp_path / "r" / "records.json").exists()
    assert not data.exists() or list(data.iterdir()) == []


# -- the chances of winning in the hint (the terminal's computation) ---------------------------
def _quick_turns(c: Client, open_boxes: int) -> dict:
    """Play on until the player's turn starts with ``open_boxes`` open boxes: one roll, the best-scoring box."""
    game = c.ok("get", "/api/game")["game"]
    while not game["over"]:
        if game["cpu_turn"]:
            game = c.ok("post", "/api/game/cpu")["game"]
            continue
        if game["dice"] is None and sum(v is None for v in game["players"][0]["boxes"]) == open_boxes:
            return game
        game = c.ok("post", "/api/game/roll")["game"]
        pv = game["preview"]
        box = max((pts, -i) for i, pts in enumerate(pv["points"]) if pv["legal"][i])
        game = c.ok("post", "/api/game/score", {"box": -box[1], "confirm": True})["game"]
    return game


def _terminal_chances(files, lang="en"):
    """The saved game, resumed as ``play --resume`` does, and the terminal hint's chances and lines."""
    from yahtzee_solver.tui.win_hint import win_hint_lines
    from yahtzee_solver.strategy.win_chances import WinHints

    st = GameStore(files["game_file"]).open().state
    wc = WinHints()(st, Advisor(st.rules, jit=False))
    return st, wc, win_hint_lines(st, Translator(lang), wc)


def _check_rows(hint, wc, lines):
    """Every option of the web hint carries the terminal's chance; the best is marked; the texts as printed."""
    from yahtzee_solver.cli.target_query import format_probability

    assert len(hint["options"]) == len(wc.options)
    for row in hint["options"]:
        o = wc.of_box(row["box"]) if hint["kind"] == "box" else wc.of_keep(row["keep"])
        assert row["win"] == o.win and row["win_text"] == format_probability(o.win)
        assert row["expected"] == pytest.approx(o.expected, abs=1e-9)
    best = hint["options"][hint["win"]["best"]]
    assert best["win"] == max(r["win"] for r in hint["options"]) == wc.best.win
    # the terminal's first line of chances is the same option with the same figure
    assert best["win_text"] in lines[1] and "*" in lines[1]


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_hint_shows_the_terminals_chances_of_winning(client, files, lang):
    from yahtzee_solver.dice import ROLL_OFFSET, ROLL_SUBKEEPS, KEEPS, roll_index
    from yahtzee_solver.strategy.objectives import WinSource, opponent_pmf
    from yahtzee_solver.solver.table import load_table
    from yahtzee_solver.strategy.win_chances import WIN_HINT_MAX_OPEN

    from yahtzee_solver.cli.target_query import format_probability
    from yahtzee_solver.web.service import WebTranslator

    tr = WebTranslator(lang)
    client.ok("post", "/api/game/new", {"opponent": "expert", "first": "cpu", "seed": 77})
    # too early: no chances, the terminal's note instead
    _quick_turns(client, WIN_HINT_MAX_OPEN + 1)
    client.ok("post", "/api/game/roll")
    hint = client.ok("post", f"/api/game/hint?lang={lang}")
    assert hint["win"]["shown"] is False and hint["win"]["text"] == tr("hint.win_far", n=WIN_HINT_MAX_OPEN)
    assert all(o["win"] is None for o in hint["options"])
    _, wc, lines = _terminal_chances(files, lang)
    assert lines == ["  " + hint["win"]["text"]]
    client.ok("post", "/api/game/roll")
    client.ok("post", "/api/game/roll")
    client.ok("post", "/api/game/score", {"box": client.ok("post", "/api/game/hint")["options"][0]["box"], "confirm": True})

    # before the first roll: the chance from the turn start
    _quick_turns(client, WIN_HINT_MAX_OPEN)
    hint = client.ok("post", f"/api/game/hint?lang={lang}")
    st, wc, lines = _terminal_chances(files, lang)
    table = load_table("yahtzee")
    src = WinSource("yahtzee", opponent_pmf("yahtzee", st.cards[1], "expert", table))
    me = st.cards[0]
    assert hint["kind"] == "roll" and hint["win"]["start"] == wc.start
    assert wc.start == pytest.approx(src.probability(me), abs=1e-12)
    assert hint["win"]["text"] == lines[0].strip() == tr("hint.win_start", level=tr.level("expert"),
                                                         p=format_probability(src.probability(me)))
    assert hint["win"]["note"] == tr("hint.win_note") and not hint["win"]["exact"]

    # after a roll: every keep, checked against the win DP itself
    client.ok("post", "/api/game/roll")
    hint = client.ok("post", f"/api/game/hint?lang={lang}")
    st, wc, lines = _terminal_chances(files, lang)
    assert hint["kind"] == "keep"
    _check_rows(hint, wc, lines)
    E = src.keep_values(me.key, me.total, st.rerolls_left)
    subkeeps = ROLL_SUBKEEPS[roll_index(st.sorted_dice)]
    P = src.box_values(me.key, me.total, roll_index(st.sorted_dice))
    best_box = max(range(len(P)), key=lambda c: P[c] if P[c] == P[c] else -1.0)
    # keeping all five rerolls nothing: it scores now, worth the box of best chance (there is no pass)
    want = {KEEPS[k]: (P[best_box] if k >= ROLL_OFFSET else E[k]) for k in subkeeps[subkeeps >= 0]}
    assert {tuple(o["keep"]): o["win"] for o in hint["options"]} == pytest.approx(want, abs=1e-12)
    assert hint["win"]["caption"] == tr("web.hint.win_caption", level=tr.level("expert"))
    # when keeping all five is the best chance, win_then is its box
    keep_all = next(o for o in hint["options"] if len(o["keep"]) == 5)
    assert keep_all["win"] == pytest.approx(P[best_box], abs=1e-12)
    if keep_all is hint["options"][hint["win"]["best"]]:
        assert hint["win_then"]["box"] == best_box and hint["win_then"]["win"] == pytest.approx(keep_all["win"])
    else:
        assert "win_then" not in hint

    # after the last roll: every legal box
    client.ok("post", "/api/game/roll")
    client.ok("post", "/api/game/roll")
    hint = client.ok("post", f"/api/game/hint?lang={lang}")
    st, wc, lines = _terminal_chances(files, lang)
    assert hint["kind"] == "box"
    _check_rows(hint, wc, lines)
    P = src.box_values(me.key, me.total, roll_index(st.sorted_dice))
    assert {o["box"]: o["win"] for o in hint["options"]} == pytest.approx(
        {c: P[c] for c in range(len(P)) if P[c] == P[c]}, abs=1e-12)


def test_best_chance_keeping_all_five_names_its_box(client, files):
    """Seed 46 (both sides playing the expert to four open boxes): after the roll (3 3 3 6 6) the best
    chance keeps all five dice and scores them, the best expected total keeps 6 6; ``win_then`` names the box."""
    from webhelpers import expert_until

    from yahtzee_solver.strategy.win_chances import WinHints

    expert_until(lambda path, body: client.ok("post", path, body), 46, 4)
    client.ok("post", "/api/game/roll")
    hint = client.ok("post", "/api/game/hint")
    st, wc, lines = _terminal_chances(files)
    _check_rows(hint, wc, lines)
    best = hint["options"][hint["win"]["best"]]
    assert len(best["keep"]) == 5 and hint["win"]["best"] != 0 and "then" not in hint
    assert best["win"] > hint["options"][0]["win"] and hint["options"][0]["expected"] > best["expected"]
    [top] = WinHints().boxes(st, Advisor("yahtzee", jit=False))[:1]
    assert hint["win_then"]["box"] == top.box and hint["win_then"]["win"] == top.win == best["win"]
    assert hint["win_then"]["points"] == top.points and hint["win_then"]["expected"] == pytest.approx(top.expected)


def test_chances_are_exact_once_the_cpu_has_finished(client, files):
    """The CPU went first and has finished: the last box's chance is 1, 1/2 or 0 by the final totals."""
    client.ok("post", "/api/game/new", {"opponent": "normal", "first": "cpu", "seed": 5})
    _quick_turns(client, 1)
    for _ in range(3):
        game = client.ok("post", "/api/game/roll")["game"]
    hint = client.ok("post", "/api/game/hint")
    cpu_total = game["players"][1]["total"]
    assert hint["win"]["exact"] and hint["win"]["note"] == Translator("en")("hint.win_exact", score=cpu_total)
    [only] = hint["options"]
    final = only["expected"]  # one box left: the final total, exactly
    assert only["win"] == (1.0 if final > cpu_total else 0.5 if final == cpu_total else 0.0)
    game = client.ok("post", "/api/game/score", {"box": only["box"], "confirm": True})["game"]
    assert game["over"] and game["players"][0]["total"] == final
    # a finished game: the hint keeps its refusal
    assert_refused(client.post("/api/game/hint"), 409, "over")


def test_no_chances_in_solitaire(client):
    client.ok("post", "/api/game/new", {"seed": 3})
    assert client.ok("post", "/api/game/hint")["win"] is None
    client.ok("post", "/api/game/roll")
    hint = client.ok("post", "/api/game/hint")
    assert hint["win"] is None and all("win" not in o for o in hint["options"])


# -- the advisor, texts, rules ----------------------------------------------------------------
def test_the_advisor_page_reads_a_card_as_the_command_line_does(client):
    """The same syntax as ``--card``: ``,``, ``;`` or blanks between entries, ``:`` for ``=``, blanks
    around them, any letter case, full-width characters, ``-`` for an open box."""
    def advice(card):
        return client.ok("get", "/api/advice?" + urlencode({"card": card, "dice": "22555", "rolls_left": 2}))

    want = advice("sixes=18,fours=12,chance=22,yahtzee=50")
    for card in ("sixes=18;fours=12 chance=22,yahtzee=50", "Sixes = 18, FOURS:12;  chance=22\tyahtzee=50",
                 "sixes=18,fours=12,chance=22,yahtzee=50,ones=-", "ｓｉｘｅｓ＝１８,fours=12,chance=22,yahtzee=50"):
        assert parse_card(card, "yahtzee") == parse_card("sixes=18,fours=12,chance=22,yahtzee=50", "yahtzee")
        assert advice(card) == want, card


def test_advice_matches_the_advisor(client):
    adv = Advisor("yahtzee", jit=False)
    card = "sixes=18,fours=12,chance=22,yahtzee=50"
    r = client.ok("get", f"/api/advice?card={card}&dice=22555&rolls_left=2")
    want = adv.keep_options(card, "22555", 2)
    assert r["kind"] == "keep" and len(r["options"]) == len(want)
    assert [(o["keep"], o["expected"], o["loss"]) for o in r["options"]] == [
        (list(w.keep), w.expected, w.loss) for w in want]
    assert r["expected_now"] == adv.expected_final(card)
    r = client.ok("get", "/api/advice?rules=yacht&card=aces=3&dice=66655&rolls_left=0&lang=zh")
    want = Advisor("yacht", jit=False).box_options("aces=3", "66655")
    assert [(o["box"], o["points"], o["expected"]) for o in r["options"]] == [
        (w.category, w.points, w.expected) for w in want]
    assert r["options"][0]["name"] == Translator("zh").box(get_rules("yacht"), want[0].category)


def test_an_empty_card_field_is_the_empty_card_as_no_card(client):
    # the page sends card= for its empty card field (an empty form field); blanks are refused (BAD_QUERIES)
    assert client.ok("get", "/api/advice?dice=22555&card=") == client.ok("get", "/api/advice?dice=22555")


def test_texts_come_from_the_i18n_module(client):
    for lang in ("en", "zh", "ja"):
        t = client.ok("get", f"/api/text?lang={lang}")
        tr = Translator(lang)
        for name in ("yahtzee", "yacht"):
            r = get_rules(name)
            assert t["rules"][name]["boxes"] == [tr.box(r, c) for c in range(r.n_categories)]
            assert t["rules"][name]["title"] == tr.title(r)
        assert t["messages"]["hint.best"] == tr("hint.best")
        assert t["messages"]["web.btn.roll"]
    pages = client.ok("get", "/api/rules?rules=yacht&lang=ja")["pages"]
    assert pages == Translator("ja").rules_pages(get_rules("yacht"))


def test_page_carries_the_token_and_safe_headers(client):
    for path in ("/", "/advisor", "/rules", "/records", "/train", "/advisor?rules=yacht&card=aces%3D3&dice=11111&r=1"):
        r = client.get(path)
        assert r.status_code == 200 and r.mimetype == "text/html"
        assert client.token in r.get_data(as_text=True)
        assert r.headers["Cache-Control"] == "no-store"
        assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
    from importlib import resources

    scripts = sorted(f.name for f in resources.files("yahtzee_solver.web").joinpath("static").iterdir()
                     if f.name.endswith(".js"))
    assert "main.js" in scripts and "app.js" not in scripts  # ES modules, no bundle
    for f in (*scripts, "style.css"):
        r = client.get(f"/static/{f}")
        assert r.status_code == 200 and b"http://" not in r.data and b"https://" not in r.data
        r.close()


def test_language_of_the_server_is_the_default(files):
    c = Client(create_app(lang="ja", **files))
    assert c.ok("get", "/api/config")["lang"] == "ja"
    c.ok("post", "/api/game/new", {"seed": 1})
    from yahtzee_solver.web.service import WebTranslator

    assert c.ok("get", "/api/game")["game"]["status"] == WebTranslator("ja")("web.status.your_roll")
    assert c.ok("get", "/api/game")["game"]["title"] == Translator("ja").title(get_rules("yahtzee"))


# -- every error path ------------------------------------------------------------------------
BAD_BODIES = [
    ("/api/game/new", "{", 400, "bad JSON"),
    ("/api/game/new", "[1, 2]", 400, "JSON object"),
    ("/api/game/new", '"text"', 400, "JSON object"),
    ("/api/game/new", "\xff", 400, "bad JSON"),
    ("/api/game/new", "[" * 100000, 413, "larger than"),
    ("/api/game/new", json.dumps({"x": "a" * MAX_BODY}), 413, "larger than"),
    ("/api/game/new", '{"rules": "yahtzee", "colour": "red"}', 400, "unknown field 'colour'"),
    ("/api/game/new", '{"rules": 3}', 400, "invalid rules"),
    ("/api/game/new", '{"rules": "chess"}', 400, "chess"),
    ("/api/game/new", '{"opponent": "grandmaster"}', 400, "grandmaster"),
    ("/api/game/new", '{"opponent": "expert", "first": "you"}', 400, "you"),
    ("/api/game/new", '{"seed": -1}', 400, "seed"),
    ("/api/game/new", '{"seed": true}', 400, "invalid seed"),
    ("/api/game/new", '{"seed": 1.5}', 400, "invalid seed"),
    ("/api/game/new", '{"abandon": "yes"}', 400, "invalid abandon"),
    ("/api/game/roll", '{"dice": [6, 6, 6, 6, 6]}', 400, "unknown field 'dice'"),
    ("/api/game/hold", '{}', 400, "missing field 'held'"),
    ("/api/game/hold", '{"held": [true, false]}', 400, "5 true/false"),
    ("/api/game/hold", '{"held": [1, 0, 0, 0, 0]}', 400, "5 true/false"),
    ("/api/game/score", '{"box": "3"}', 400, "invalid box"),
    ("/api/game/score", '{"box": 13}', 400, "invalid box 13"),
    ("/api/game/score", '{"box": -1}', 400, "invalid box -1"),
    ("/api/game/score", '{"box": 2, "points": 50}', 400, "unknown field 'points'"),
    ("/api/game/score", '{"box": 2, "confirm": 1}', 400, "invalid confirm"),
    ("/api/game/cpu", '{"steps": 3}', 400, "unknown field"),
    # a field given twice is ambiguous (JSON parsers differ on which one wins): refused, not the last taken
    ("/api/game/score", '{"box": 2, "box": 12}', 400, "field 'box' given twice"),
    ("/api/game/hold", '{"held": [true, true, true, true, true], "held": [false, false, false, false, false]}',
     400, "field 'held' given twice"),
]


@pytest.mark.parametrize("url,data,status,needle", BAD_BODIES)
def test_bad_bodies(client, url, data, status, needle):
    client.ok("post", "/api/game/new", {"seed": 8})
    client.ok("post", "/api/game/roll")
    before = client.get("/api/game").get_json()
    assert_refused(client.post(url, data=data.encode("utf-8", "surrogateescape") if data != "\xff" else b"\xff"),
                   status, needle)
    assert client.get("/api/game").get_json() == before  # nothing changed


BAD_QUERIES = [
    ("/api/game?debug=1", 400, "unknown query parameter 'debug'"),
    ("/api/game?lang=fr", 400, "unknown language 'fr'"),
    ("/api/game?lang=en&lang=ja", 400, "given twice"),
    ("/api/text?lang=xx", 400, "xx"),
    ("/api/rules", 400, "missing query parameter 'rules'"),
    ("/api/rules?rules=chess", 400, "chess"),
    ("/api/advice?card=sixes=18", 400, "missing query parameter 'dice'"),
    ("/api/advice?dice=2255", 400, "2255"),
    ("/api/advice?dice=22557", 400, "7"),
    ("/api/advice?dice=22555&rolls_left=3", 400, "rolls_left"),
    ("/api/advice?dice=22555&rolls_left=x", 400, "rolls_left"),
    ("/api/advice?dice=22555&rules=chess", 400, "chess"),
    ("/api/advice?dice=22555&card=sixes=19", 400, "19"),
    ("/api/advice?dice=22555&card=sixes=18,sixes=12", 400, "repeated"),
    ("/api/advice?dice=22555&card=kings=3", 400, "kings"),
    # separators only: refused as by the command line, not read as the empty card
    ("/api/advice?dice=22555&card=,,,", 400, "no box=points entry"),
    ("/api/advice?dice=22555&card=%20,%20", 400, "no box=points entry"),
    # blanks only: refused as --card ' ' is (they were read as the empty card)
    ("/api/advice?dice=22555&card=%20", 400, "invalid card ' ': no box=points entry"),
    ("/api/advice?dice=22555&card=%20%20%09", 400, "leave the card out for the empty card"),
    ("/api/advice?dice=22555&card=@/etc/passwd", 400, "box=points"),
    ("/api/advice?dice=22555&card={\"sixes\":6}", 400, "box=points"),
    ("/api/advice?dice=22555&card=sixes=" + "9" * 5000, 400, "longer than"),
    ("/api/advice?dice=22555&card=aces=1,twos=2,threes=3,fours=4,fives=5,sixes=6,3k=0,4k=0,fh=0,ss=0,ls=0,"
     "yahtzee=0,chance=5", 400, "full"),
    ("/api/nothing", 404, "no such page"),
    ("/static/../app.py", 404, ""),
    ("/static/%2e%2e/app.py", 404, ""),
    ("/static/..%2fservice.py", 404, ""),
]


@pytest.mark.parametrize("url,status,needle", BAD_QUERIES)
def test_bad_queries(client, url, status, needle):
    assert_refused(client.get(url), status, needle)


def test_static_files_stay_in_their_folder(client):
    for url in ("/static/../service.py", "/static/%2e%2e/service.py", "/static/..%2fservice.py",
                "/static/%2fetc%2fpasswd", "/static//etc/passwd", "/static/..\\service.py"):
        r = client.get(url, follow_redirects=True)
        assert r.status_code == 404, url
        assert b"ApiError" not in r.data and b"root:" not in r.data


def test_methods_and_illegal_moves(client):
    assert_refused(client.get("/api/game/roll"), 405, "not allowed")
    assert_refused(client.c.delete("/api/game", headers={TOKEN_HEADER: client.token}), 405, "not allowed")
    assert_refused(client.post("/api/game/roll"), 409, "no game")
    assert_refused(client.post("/api/game/hint"), 409, "no game")
    client.ok("post", "/api/game/new", {"seed": 8})
    assert_refused(client.post("/api/game/hold", {"held": [True] * 5}), 409, "roll the dice first")
    assert_refused(client.post("/api/game/score", {"box": 0}), 409, "roll the dice first")
    client.ok("post", "/api/game/roll")
    client.ok("post", "/api/game/hold", {"held": [True] * 5})
    assert_refused(client.post("/api/game/roll"), 409, "every die is held")
    client.ok("post", "/api/game/score", {"box": 12})
    client.ok("post", "/api/game/roll")
    assert_refused(client.post("/api/game/score", {"box": 12}), 409, "already filled")
    # The problem text follows ?lang.
    r = client.post("/api/game/score?lang=zh", {"box": 12})
    assert_refused(r, 409)
    assert r.get_json()["error"] == Translator("zh").problem("box_filled", {"box": "chance"}, get_rules("yahtzee"))


PROTECTION = [
    ({"Host": "evil.example"}, None, 403, "host"),
    ({"Host": "localhost.evil.example:8765"}, None, 403, "host"),
    ({TOKEN_HEADER: ""}, None, 403, "token"),
    ({TOKEN_HEADER: "guess"}, None, 403, "token"),
    ({TOKEN_HEADER: "é"}, None, 403, "token"),
    ({"Origin": "http://evil.example"}, None, 403, "evil.example"),
    ({}, "text/plain", 415, "application/json"),
    ({}, "application/x-www-form-urlencoded", 415, "application/json"),
]


@pytest.mark.parametrize("headers,ctype,status,needle", PROTECTION)
def test_state_changing_requests_are_protected(client, headers, ctype, status, needle):
    r = client.post("/api/game/new", data=b'{"seed": 1}', headers=headers, content_type=ctype or "application/json")
    assert_refused(r, status, needle)
    assert client.get("/api/game").get_json()["game"] is None


def test_host_check_applies_to_reads_and_accepts_local_names(client):
    assert_refused(client.get("/", headers={"Host": "rebind.example:8765"}), 403, "host")
    assert_refused(client.get("/api/game", headers={"Host": "rebind.example"}), 403, "host")
    for host in ("127.0.0.1:8765", "localhost:1", "[::1]:8765", "LOCALHOST"):
        assert client.get("/api/config", headers={"Host": host}).status_code == 200, host
    r = client.post("/api/game/new", {"seed": 1}, headers={"Host": "127.0.0.1:8765", "Origin": "http://127.0.0.1:8765"})
    assert r.status_code == 200


def test_a_host_werkzeug_cannot_read_is_named_as_sent(client, wire):
    """A non-ASCII Host, or two Host headers, was refused as "host '' is not served here" (werkzeug's request.host
    is '' for a host it cannot read): the refusal quotes the header as sent (cut short, escaped), or says how
    many Host headers came."""
    long = "\u0436" * 100
    for host, said in [("\u0436", "host '\u0436' is not served here"), ("a\x7fb", "host 'a\\x7fb' is not served here"),
                       (long, f"host {long[:57]!r}"[:-1] + "...'"),
                       ("127.0.0.1,evil.example", "2 Host headers ('127.0.0.1,evil.example')")]:
        r = client.get("/api/game", environ_overrides={"HTTP_HOST": host})
        assert assert_refused(r, 403, said)["code"] == "bad_host"
        assert _cjk(client.get("/api/game?lang=ja", environ_overrides={"HTTP_HOST": host}).get_json()["error"])
    for head, said in [(b"Host: \xd0\xb6\r\n", "host '\u0436' is not served here"),
                       (b"Host: 127.0.0.1\r\nHost: evil.example\r\n", "2 Host headers ('127.0.0.1,evil.example')")]:
        status, reply, _ = wire(b"GET /api/game HTTP/1.1\r\n" + head + b"\r\n")
        assert status == 403 and said in reply["error"], reply


def test_a_request_without_a_host_header_is_refused(client, wire):
    """werkzeug takes the server's own name for a missing Host, so a request naming no host was served."""
    environ = {"HTTP_HOST": ""}
    assert assert_refused(client.get("/api/config", environ_overrides=environ), 403,
                          "no Host header: send one, naming this server")["code"] == "bad_host"
    assert _cjk(client.get("/api/config?lang=zh", environ_overrides=environ).get_json()["error"])
    status, reply, _ = wire(b"GET /api/config HTTP/1.1\r\n\r\n")
    assert (status, reply["code"]) == (403, "bad_host"), reply


def test_extra_hosts(files):
    c = Client(create_app(hosts=("myhost.lan",), **files))
    assert c.get("/api/config", headers={"Host": "myhost.lan:8765"}).status_code == 200
    assert c.get("/api/config", headers={"Host": "other.lan:8765"}).status_code == 403


def test_an_internal_error_is_one_json_line(client, monkeypatch):
    svc = client.app.extensions["yahtzee"]
    monkeypatch.setattr(svc, "get", lambda tr: 1 / 0)
    assert_refused(client.get("/api/game"), 500, "internal error (ZeroDivisionError)")


def test_save_failure_is_reported_and_the_game_kept(client, files, monkeypatch):
    client.ok("post", "/api/game/new", {"seed": 2})
    from yahtzee_solver.web import store

    def fail(state):
        raise store.DataFileError("disk full")

    svc = client.app.extensions["yahtzee"]
    monkeypatch.setattr(svc.store, "save", fail)
    assert_refused(client.post("/api/game/roll"), 500, "could not be saved", "disk full")


def test_concurrent_advice_gives_the_single_threaded_answers(client):
    """The server is threaded and an Advisor reuses its work arrays: queries must not mix."""
    import threading

    positions = [("22555", "sixes=18,fours=12", 2), ("13456", "", 1), ("66611", "chance=20,yahtzee=50", 0),
                 ("12345", "aces=3,twos=6,threes=9", 2), ("44444", "fours=16,yahtzee=50", 0)]
    urls = [f"/api/advice?dice={d}&card={c}&rolls_left={r}" for d, c, r in positions]
    want = {u: client.ok("get", u)["options"] for u in urls}
    errors = []

    def worker(k):
        c = client.app.test_client()
        for i in range(30):
            u = urls[(i + k) % len(urls)]
            got = c.get(u).get_json()["options"]
            if got != want[u]:
                errors.append(u)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_warm_up_loads_what_the_saved_game_needs(files):
    c = Client(create_app(**files))
    c.ok("post", "/api/game/new", {"rules": "yacht", "opponent": "expert", "seed": 1})
    svc = Client(create_app(**files)).app.extensions["yahtzee"]
    svc.warm()
    assert "yacht" in svc.advisors._made and svc._strategy is not None


def test_warm_up_of_the_chances_works_for_every_rule_set():
    from yahtzee_solver.strategy.win_chances import warm

    for rules in RULESETS:  # a card with one open box needs each box's least legal points
        warm(rules, "normal")


def test_unusable_files_are_reported_and_never_written_over(files):
    files["game_file"].mkdir()  # not a file the server can read
    c = Client(create_app(**files))
    reply = c.ok("get", "/api/game")
    assert reply["game"] is None and "is a directory" in reply["notice"]
    assert_refused(c.post("/api/game/new", {}), 500, "is a directory")
    assert files["game_file"].is_dir() and RecordBook.load(files["records_file"]).to_list() == []
    files["game_file"].rmdir()  # fixed: the next new game starts
    assert c.ok("post", "/api/game/new", {})["game"]["round"] == 1
    assert c.ok("get", "/api/game")["notice"] is None


@pytest.mark.parametrize("size", [MAX_BODY + 1, 10_000])
def test_a_chunked_body_over_the_limit_is_413_too(client, size):
    """Without Content-Length (Transfer-Encoding: chunked) the limit holds on the bytes actually read."""
    import io

    client.ok("post", "/api/game/new", {"seed": 8})
    before = client.get("/api/game").get_json()
    body = json.dumps({"x": "a" * size}).encode()
    r = client.c.post("/api/game/roll", input_stream=io.BytesIO(body), content_type="application/json",
                      headers={TOKEN_HEADER: client.token, "Transfer-Encoding": "chunked"},
                      environ_overrides={"wsgi.input_terminated": True})  # as werkzeug's server sets it
    assert_refused(r, 413, "larger than")
    assert client.get("/api/game").get_json() == before
    # A chunked body of exactly MAX_BODY bytes is read whole.
    r = client.c.post("/api/game/roll", input_stream=io.BytesIO(b"{}" + b" " * (MAX_BODY - 2)),
                      content_type="application/json",
                      headers={TOKEN_HEADER: client.token, "Transfer-Encoding": "chunked"},
                      environ_overrides={"wsgi.input_terminated": True})
    assert r.status_code == 200, r.get_json()
    assert client.post("/api/game/roll", data=b"{}" + b" " * (MAX_BODY - 2)).status_code == 200
    assert_refused(client.post("/api/game/roll", data=b"{}" + b" " * (MAX_BODY - 1)), 413, "larger than")


def test_new_game_defaults_match_the_readme(client):
    """Every field of POST /api/game/new may be left out (the README says so and gives the defaults)."""
    import re
    from pathlib import Path

    from yahtzee_solver.web.app import NEW_GAME_DEFAULTS

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    row = next(line for line in readme.splitlines() if line.startswith("| `POST /api/game/new`"))
    body = row.split("|")[2]
    assert set(re.findall(r'"(\w+)"\?', body)) == set(NEW_GAME_DEFAULTS)  # all optional
    assert not re.findall(r'"(\w+)"(?!\?)[,}]', body.split("(")[0])  # none required
    for value in ("yahtzee", "none", "me"):
        assert f'`"{value}"`' in body
    g = client.ok("post", "/api/game/new", {})["game"]
    assert (g["rules"], g["opponent"]) == ("yahtzee", "none")
    g = client.ok("post", "/api/game/new", {"opponent": "expert", "abandon": True})["game"]
    assert g["opponent"] == "expert" and g["first"] == "me" and g["current"] == 0


@pytest.mark.parametrize("url", ["/api/game/roll", "/api/game/cpu"])
def test_an_empty_body_is_an_empty_object_whatever_its_type(client, url):
    client.ok("post", "/api/game/new", {"opponent": "expert", "first": "cpu" if url.endswith("cpu") else "me"})
    r = client.c.post(url, headers={TOKEN_HEADER: client.token})  # no body, no Content-Type
    assert r.status_code == 200, r.get_json()
    assert_refused(client.post(url, data=b"{}", content_type="text/plain"), 415, "application/json")


def test_the_end_line_names_the_forfeits_as_records_and_the_readme_count_them(client, files):
    """An abandoned game against the CPU is a forfeit (a loss, not a finished game): the end-of-game line says
    how many of each, so its results add up, and the ``records`` table shows the forfeit as abandoned."""
    from clihelpers import run

    client.ok("post", "/api/game/new", {"seed": 3, "opponent": "beginner"})
    client.ok("post", "/api/game/roll")
    client.ok("post", "/api/game/new", {"seed": 4, "opponent": "beginner", "abandon": True})
    game = _play_out(client)
    rec = RecordBook.load(files["records_file"]).get("yahtzee", "beginner", practice=True)
    assert (rec.games, rec.forfeits) == (1, 1) and rec.wins + rec.losses + rec.draws == 2
    line = [ln for ln in game["result"]["lines"] if "games " in ln][0]
    assert "games 1 finished + 1 forfeited" in line
    assert f"wins {rec.wins}, losses {rec.losses} (forfeits included), draws {rec.draws}" in line
    res = run("records")
    assert res.exit_code == 0, res.output
    row = [ln.split() for ln in res.output.splitlines() if "beginner" in ln][0]
    # games best average wins losses draws abandoned, after the rule set and the opponent
    assert row[-7:] == [str(rec.games), str(rec.best), f"{rec.average:.1f}", str(rec.wins), str(rec.losses),
                        str(rec.draws), "1"]


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_record_line_names_forfeits_in_every_language(lang):
    from yahtzee_solver.i18n import Translator
    from yahtzee_solver.play.records import Record

    tr = Translator(lang)
    names = {"rules": "R", "opponent": "O"}
    with_forfeit = Record(games=1, best=200, total=200, wins=0, losses=2, draws=0, forfeits=1).to_dict()
    line = tr.record_line(with_forfeit, True, **names)
    assert line == tr("end.stats_cpu_forfeits", games=1, forfeits=1, wins=0, losses=2, draws=0, best=200,
                      average="200.0", **names)
    assert line != tr("end.stats_cpu", games=1, wins=0, losses=2, draws=0, best=200, average="200.0", **names)
    plain = Record(games=2, best=200, total=390, wins=1, losses=1).to_dict()
    assert tr.record_line(plain, True, **names) == tr("end.stats_cpu", games=2, wins=1, losses=1, draws=0, best=200,
                                                      average="195.0", **names)
    assert tr.record_line(plain, False, **names) == tr("end.stats", games=2, best=200, average="195.0", **names)


# -- other web sites, stale tabs, long requests, seeds ------------------------------------------------
CROSS_SITE = [
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},  # another port of this machine is another site's page too
    {"Origin": "http://evil.example"},
    {"Origin": "http://localhost:9999"},  # the right host name, another server
    {"Origin": "null"},
]


@pytest.mark.parametrize("headers", CROSS_SITE)
@pytest.mark.parametrize("method,url", [("GET", "/api/game"), ("HEAD", "/api/game"), ("GET", "/api/records"),
                                        ("GET", "/api/advice?dice=22555"), ("POST", "/api/game/roll"),
                                        ("POST", "/api/game/hint"), ("GET", "/api/game/hint"),
                                        ("HEAD", "/api/game/hint")])
def test_every_api_request_from_another_site_is_refused(client, headers, method, url):
    client.ok("post", "/api/game/new", {"seed": 8})
    client.ok("post", "/api/game/roll")
    before = client.get("/api/game").get_json()
    h = {TOKEN_HEADER: client.token, **headers} if method == "POST" else headers
    r = client.c.open(url, method=method, headers=h, json={} if method == "POST" else None)
    assert r.status_code == 403, (method, url, headers, r.status_code)
    if method != "HEAD":
        assert_refused(r, 403)
    assert client.get("/api/game").get_json() == before


def test_a_page_of_another_site_cannot_make_the_game_practice(client, files):
    """``<img src="http://127.0.0.1:PORT/api/game/hint">`` on another site: a GET (or HEAD) with no token."""
    client.ok("post", "/api/game/new", {"opponent": "expert"})
    client.ok("post", "/api/game/roll")
    img = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"}
    for method in ("GET", "HEAD"):
        for headers in (img, {}):  # an old browser sends no Sec-Fetch-* headers: a GET changes nothing anyway
            r = client.c.open("/api/game/hint", method=method, headers=headers)
            assert r.status_code in (403, 405), (method, headers, r.status_code)
    ledger = json.loads(files["game_file"].with_name("ledger.json").read_text())
    assert ledger["game"]["practice"] == []
    assert not client.ok("get", "/api/game")["game"]["practice"]
    # the page's own request, a POST with the token, still gives the hint
    assert client.ok("post", "/api/game/hint")["practice"]


def test_reads_from_the_page_itself_pass(client):
    for headers in ({"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"},
                    {"Origin": "http://localhost"}, {}):
        assert client.get("/api/config", headers=headers).status_code == 200, headers
    r = client.post("/api/game/new", {"seed": 1}, headers={"Host": "127.0.0.1:8765", "Origin": "http://127.0.0.1:8765",
                                                            "Sec-Fetch-Site": "same-origin"})
    assert r.status_code == 200


BIG_SEED = "10112111678107648435"  # more digits than a JavaScript number keeps


def test_seeds_travel_as_decimal_strings(client):
    game = client.ok("post", "/api/game/new", {"seed": BIG_SEED})["game"]
    assert game["seed"] == BIG_SEED
    want = new_game("yahtzee", "none", "me", int(BIG_SEED))
    want.apply_action(Roll())
    assert client.ok("post", "/api/game/roll")["game"]["dice"] == list(want.dice)
    assert client.ok("post", "/api/game/new", {"seed": "7", "abandon": True})["game"]["seed"] == "7"
    for bad in ("-1", "1.5", "1e3", " 7", "", "x", "٣"):
        assert_refused(client.post("/api/game/new", {"seed": bad, "abandon": True}), 400, "seed")


def test_an_action_decided_on_an_old_game_is_refused_with_the_current_game(client):
    """Tab A sees the dice; tab B rolls again; tab A's score (decided on the old dice) is refused."""
    client.ok("post", "/api/game/new", {})  # a secret seed: unaided
    a = client.ok("post", "/api/game/roll")["game"]
    b = client.ok("post", "/api/game/roll", {"version": a["version"]})["game"]  # tab B, on the same version
    assert b["version"] != a["version"] and b["rolls_used"] == 2
    for path, body in (("/api/game/score", {"box": 12}), ("/api/game/hold", {"held": [True] * 5}),
                       ("/api/game/roll", {}), ("/api/game/hint", {})):
        r = client.post(path, {**body, "version": a["version"]})
        assert r.status_code == 409, path
        reply = r.get_json()
        assert reply["code"] == "stale" and reply["game"] == client.ok("get", "/api/game")["game"]
        assert "another tab" in reply["error"]
    assert client.ok("get", "/api/game")["game"] == b
    assert not b["practice"]  # the refused hint made nothing practice
    # the same action on the current version goes through
    client.ok("post", "/api/game/score", {"box": 12, "version": b["version"]})


def test_two_tabs_never_both_play_the_cpu(client):
    client.ok("post", "/api/game/new", {"seed": 2, "opponent": "normal", "first": "cpu"})
    g = client.ok("get", "/api/game")["game"]
    assert g["cpu_turn"]
    step = client.ok("post", "/api/game/cpu", {"version": g["version"]})["game"]
    r = client.post("/api/game/cpu", {"version": g["version"]})  # the second tab, one step behind
    assert r.status_code == 409 and r.get_json()["code"] == "stale" and r.get_json()["game"] == step


def test_a_long_hint_does_not_hold_up_the_other_requests(files, monkeypatch):
    import threading
    import time

    from yahtzee_solver.web.service import GameService

    c = Client(create_app(**files))
    c.ok("post", "/api/game/new", {"seed": 8})
    c.ok("post", "/api/game/roll")
    slow, started = GameService._hint, threading.Event()

    def slow_hint(self, *a, **kw):
        started.set()
        time.sleep(3)
        return slow(self, *a, **kw)

    monkeypatch.setattr(GameService, "_hint", slow_hint)
    out = {}
    th = threading.Thread(target=lambda: out.update(r=Client(c.app).post("/api/game/hint")))
    th.start()
    assert started.wait(10)
    t0 = time.perf_counter()
    for url in ("/api/game", "/api/records", "/api/config", "/api/rules?rules=yahtzee"):
        assert c.get(url).status_code == 200
    assert time.perf_counter() - t0 < 1.5  # not after the hint's 3 s
    th.join()
    assert out["r"].status_code == 200


def test_a_hint_is_refused_when_the_dice_change_while_it_computes(files, monkeypatch):
    import threading

    from yahtzee_solver.web.service import GameService

    c = Client(create_app(**files))
    c.ok("post", "/api/game/new", {})  # a secret seed: unaided
    c.ok("post", "/api/game/roll")
    go, started = threading.Event(), threading.Event()
    real = GameService._hint

    def waiting_hint(self, *a, **kw):
        started.set()
        go.wait(10)
        return real(self, *a, **kw)

    monkeypatch.setattr(GameService, "_hint", waiting_hint)
    out = {}
    th = threading.Thread(target=lambda: out.update(r=Client(c.app).post("/api/game/hint")))
    th.start()
    assert started.wait(10)
    now = c.ok("post", "/api/game/roll")["game"]  # another tab rolls meanwhile
    go.set()
    th.join()
    assert out["r"].status_code == 409 and out["r"].get_json()["code"] == "stale"
    assert out["r"].get_json()["game"] == now and not now["practice"]


# -- the page's words ------------------------------------------------------------------------------------
def test_the_pages_take_any_query(client):
    """A shared advisor link with a parameter of its own (a chat app's, a typo) still opens the page."""
    for url in ("/advisor?rules=yahtzee&dice=22555&r=2&utm_source=chat", "/?x=1", "/records?from=mail"):
        r = client.get(url)
        assert r.status_code == 200 and r.mimetype == "text/html", url


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_refusals_name_no_terminal_command(client, lang):
    from yahtzee_solver.web.service import WebTranslator

    tr = WebTranslator(lang)
    client.ok("post", "/api/game/new", {"seed": 8})
    said = [client.post(f"/api/game/score?lang={lang}", {"box": 0}).get_json()["error"]]
    client.ok("post", "/api/game/roll")
    client.ok("post", "/api/game/hold", {"held": [True] * 5})
    said.append(client.post(f"/api/game/roll?lang={lang}").get_json()["error"])
    client.ok("post", "/api/game/hold", {"held": [False] * 5})
    client.ok("post", "/api/game/roll")
    client.ok("post", "/api/game/roll")
    said.append(client.post(f"/api/game/roll?lang={lang}").get_json()["error"])
    assert said == [tr("web.problem.roll_first"), tr("web.problem.all_held"), tr("web.problem.no_rolls_left")]
    for text in said:
        assert "(s " not in text and "<" not in text and "(r)" not in text and "k a b" not in text, text


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_the_advisor_refuses_in_the_page_language(client, lang):
    from yahtzee_solver.web.service import WebTranslator

    tr, r = WebTranslator(lang), get_rules("yahtzee")
    cases = [
        # the command line's problems (card_problems.CARD_PROBLEMS), the box by its name in zh and ja
        ("card=sixes=19", tr("card.impossible", box=tr.box(r, 5) if lang != "en" else "sixes", points="19",
                             possible="0, 6, 12, 18, 24, 30")),
        ("card=yahtzee-bonus=50", tr("card.bonus_multiple", bonus=50, step=100)),
        ("card=kings=3", tr("card.unknown", box="'kings'", rules="'yahtzee'", names=", ".join(c.slug for c in r.categories))),
        ("card=sixes", tr("card.entry", entry="'sixes'")),
        ("card=sixes=18,sixes=12", tr("card.repeated", box="'sixes'")),
        ("rules=chess", tr("web.adv.err.rules", rules="'chess'", choices=", ".join(RULESETS))),
    ]
    for query, want in cases:
        body = assert_refused(client.get(f"/api/advice?dice=22555&{query}&lang={lang}"), 400)
        assert body["error"] == want, query
    body = assert_refused(client.get(f"/api/advice?dice=2255&lang={lang}"), 400)
    assert body["error"] == tr("web.adv.err.dice", dice="'2255'")
    full = ",".join(f"{c.slug}={5 if c.slug == 'chance' else 0}" for c in r.categories)
    assert assert_refused(client.get(f"/api/advice?dice=22555&card={full}&lang={lang}"), 400)["error"] == tr("card.full")


def test_what_the_start_found_is_told_once(files):
    _started(files, "none")
    d = json.loads(files["game_file"].read_text())
    d["cards"][0]["sixes"] = 30
    files["game_file"].write_text(json.dumps(d))
    c = Client(create_app(**files))
    first = c.ok("get", "/api/game")
    assert "failed verification" in first["notice"]
    assert c.ok("get", "/api/game")["notice"] is None  # not on every visit until a new game


# -- undo -------------------------------------------------------------------------------------------------
def test_undo_takes_back_the_last_score_as_the_terminal_does(client, files):
    from yahtzee_solver.web.service import WebTranslator

    tr = WebTranslator("en")
    client.ok("post", "/api/game/new", {})  # a secret seed: unaided until the undo
    assert_refused(client.post("/api/game/undo"), 409, "Nothing to undo")
    before = client.ok("post", "/api/game/roll")["game"]
    assert not before["can_undo"]
    box = next(c for c in range(13) if before["preview"]["legal"][c] and before["preview"]["points"][c])
    scored = client.ok("post", "/api/game/score", {"box": box})["game"]
    assert scored["can_undo"] and scored["players"][0]["boxes"][box] is not None
    reply = client.ok("post", "/api/game/undo", {"version": scored["version"]})
    g = reply["game"]
    assert reply["events"] == [tr("practice.undo"), tr("ev.undone", box=tr.box(get_rules("yahtzee"), box))]
    for k in ("dice", "held", "rolls_used", "round", "players", "preview"):
        assert g[k] == before[k], k
    assert g["practice"] and not g["can_undo"]
    ledger = json.loads(files["game_file"].with_name("ledger.json").read_text())
    assert "undo" in ledger["game"]["practice"]
    assert_refused(client.post("/api/game/undo"), 409, "Nothing to undo")  # once
    # the dice to come are those of the game without the undone score (the engine, same seed)
    other = next(c for c in range(13) if c != box and g["preview"]["legal"][c])
    client.ok("post", "/api/game/score", {"box": other, "confirm": True})
    after = client.ok("post", "/api/game/roll")["game"]
    want = new_game("yahtzee", "none", "me", SECRET)
    for a in (Roll(), Score(other), Roll()):
        want.apply_action(a)
    assert after["dice"] == list(want.dice)
    assert_refused(client.post("/api/game/undo"), 409)  # a roll since


def test_no_undo_against_the_cpu(client):
    client.ok("post", "/api/game/new", {"opponent": "normal", "seed": 3})
    g = client.ok("post", "/api/game/roll")["game"]
    box = next(c for c in range(13) if g["preview"]["legal"][c])
    g = client.ok("post", "/api/game/score", {"box": box, "confirm": True})["game"]
    assert not g["can_undo"]
    assert_refused(client.post("/api/game/undo"), 409, "Nothing to undo")


# -- the review ---------------------------------------------------------------------------------------------
def test_the_review_of_a_finished_game_is_the_clis(client, files):
    from click.testing import CliRunner

    from yahtzee_solver.cli import main

    body = assert_refused(client.get("/api/review"), 404)
    assert "No finished game" in body["error"]
    client.ok("post", "/api/game/new", {"rules": "yacht", "opponent": "beginner", "seed": 5})
    game = _play_out(client)
    n = game["result"]["history_number"]
    assert n == 1
    r = client.ok("get", "/api/review")
    assert r["number"] == 1 and client.ok("get", "/api/review?game=1") == r
    res = CliRunner().invoke(main, ["review", "1", "--json", "--no-chances"])  # the same data folder (YAHTZEE_SOLVER_HOME)
    assert res.exit_code == 0, res.output
    # the CLI's table review of both players ("table") is not on the page yet
    assert r["review"] == {k: v for k, v in json.loads(res.output).items() if k != "table"}
    cpu = CliRunner().invoke(main, ["review", "1", "--cpu", "--json", "--no-chances"])
    assert client.ok("get", "/api/review?player=cpu")["review"] == {
        k: v for k, v in json.loads(cpu.output).items() if k != "table"}
    assert len(r["rows"]) == r["review"]["n_decisions"]
    assert [row["loss"] for row in r["rows"]] == [d["loss"] for d in r["review"]["decisions"]]
    # the endgame's winning chance given up, against the beginner's play (as the CLI's review)
    assert r["review"]["win_model"] == "beginner"
    assert [row["win_lost"] for row in r["rows"]] == [d["win_lost"] for d in r["review"]["decisions"]]
    assert any(row["win_lost"] is not None for row in r["rows"])
    assert r["games"][0]["number"] == 1 and r["games"][0]["scores"] == [p["total"] for p in game["players"]]
    assert_refused(client.get("/api/review?game=2"), 404, "There is no game 2 in the history (games 1).")
    assert_refused(client.get("/api/review?game=x"), 400, "invalid game")
    assert_refused(client.get("/api/review?player=me"), 400, "invalid player")
    # both players' luck and skill split and the chances by round: the CLI's table review ("table")
    full = CliRunner().invoke(main, ["review", "1", "--json"])
    assert full.exit_code == 0, full.output
    t = client.ok("get", "/api/review/table?game=1")
    assert r["players"] == 2 and t["table"] == json.loads(full.output)["table"]
    assert len(t["splits"]) == 2 and t["chart"].startswith("<svg") and t["names"][1] in t["chart"]
    # the chart ends at the result (each player's share of first place), after the start of every round
    assert t["chart"].count("<circle") == 2 * (len(t["table"]["rounds"]) + 1) and ">end</text>" in t["chart"]
    for p, line in zip(t["table"]["players"], t["splits"]):
        assert f"{p['skill_loss']:.2f}" in line and f"{p['luck']:+.2f}".replace("-", "\u2212") in line
        assert p["final"] == pytest.approx(p["start_value"] - p["skill_loss"] + p["luck"], abs=1e-9)
    assert_refused(client.get("/api/review/table?game=2"), 404, "There is no game 2 in the history (games 1).")
    assert_refused(client.get("/api/review/table?game=x"), 400, "invalid game")
    assert_refused(client.get("/api/review/table"), 400)
    # one check of a history number for both routes: the same code, a long number a missing game quoted cut short
    long = "9" * 30
    for route in ("/api/review", "/api/review/table"):
        body = assert_refused(client.get(f"{route}?game={long}"), 404, "There is no game", "(30 digits)")
        assert body["code"] == "no_game" and long not in body["error"]
        body = assert_refused(client.get(f"{route}?game={long}x"), 400, "invalid game", "9" * 17 + "...")
        assert body["code"] == "bad_game" and long not in body["error"]
    # a solitaire game has no CPU to review, and no table
    client.ok("post", "/api/game/new", {"rules": "yacht"})
    _play_out(client)
    assert_refused(client.get("/api/review?player=cpu"), 400)
    assert client.ok("get", "/api/review?game=2")["players"] == 1
    assert_refused(client.get("/api/review/table?game=2"), 400)


def test_the_advisor_page_does_not_wait_for_a_long_hint(files, monkeypatch):
    import threading
    import time

    from yahtzee_solver.web.service import GameService

    c = Client(create_app(**files))
    c.ok("post", "/api/game/new", {"seed": 8})
    c.ok("post", "/api/game/roll")
    c.ok("get", "/api/advice?dice=22555")  # the advisor of these rules is made
    slow, started = GameService._hint, threading.Event()

    def slow_hint(self, *a, **kw):  # runs holding an advisor of the game's rules
        started.set()
        time.sleep(3)
        return slow(self, *a, **kw)

    monkeypatch.setattr(GameService, "_hint", slow_hint)
    th = threading.Thread(target=lambda: Client(c.app).post("/api/game/hint"))
    th.start()
    assert started.wait(10)
    t0 = time.perf_counter()
    want = Advisor("yahtzee", jit=False).keep_options("sixes=18", "22555", 2)
    r = c.ok("get", "/api/advice?dice=22555&card=sixes%3D18")
    assert time.perf_counter() - t0 < 2.5  # not after the hint's 3 s
    assert [o["keep"] for o in r["options"]] == [list(o.keep) for o in want]
    th.join()


def test_a_game_whose_ledger_could_not_be_written_comes_back_once_the_file_is_mended(client, files):
    """The ledger made a folder: the roll fails (500, the position kept); put the file back and the next
    reading of the game shows it again (it stayed unreadable until a new game was asked for)."""
    client.ok("post", "/api/game/new", {"rules": "yacht", "seed": "5"})
    before = client.ok("get", "/api/game")["game"]
    ledger = files["game_file"].with_name("ledger.json")
    kept = ledger.with_name("ledger.bak")
    ledger.rename(kept)
    ledger.mkdir()
    r = client.post("/api/game/roll")
    assert r.status_code == 500 and r.get_json()["code"] == "save_failed"
    ledger.rmdir()
    kept.rename(ledger)
    game = client.ok("get", "/api/game")["game"]
    assert game is not None and game["dice"] == before["dice"] and game["rolls_used"] == before["rolls_used"]


def test_a_finished_game_whose_files_are_deleted_before_filing_is_filed_with_its_score(files, monkeypatch):
    """The server saves the last score and dies before it files the game; both files are then deleted."""
    from yahtzee_solver.play.savegame import GameStore
    from yahtzee_solver.play.session import settle
    from yahtzee_solver.web.service import GameService

    class Died(Exception):
        pass

    def die(self):
        raise Died

    c = Client(create_app(**files))
    c.ok("post", "/api/game/new", {"rules": "yacht"})
    monkeypatch.setattr(GameService, "_file", die)
    with pytest.raises(AssertionError, match=r"internal error \(Died\)"):  # the last score's request dies
        _play_out(c)
    final = json.loads(files["game_file"].read_text())
    files["game_file"].unlink()
    files["game_file"].with_name("ledger.json").unlink()
    s = settle(GameStore(files["game_file"]), files["records_file"])
    rec = RecordBook.load(files["records_file"]).get("yacht", "solo")
    assert s.counted == "filed" and rec.games == 1 and rec.abandoned == 0
    assert rec.best == s.filed_score and final["round"] == 12


# -- the fresh-user testers' findings on the API's refusals (session 12) ------------------------------------------
@pytest.mark.parametrize("rules", ["yahtzee", "yacht"])
def test_a_box_outside_the_card_names_the_apis_box_numbers(client, rules):
    """The API numbers the boxes 0..C-1 (``box`` of ``/api/game/score``): the refusal says so, in every language."""
    client.ok("post", "/api/game/new", {"rules": rules, "seed": 8})
    client.ok("post", "/api/game/roll")
    r = get_rules(rules)
    last = r.n_categories - 1
    body = assert_refused(client.post("/api/game/score", {"box": last + 1}), 400,
                          f"invalid box {last + 1}", f"0 to {last}")
    assert body["code"] == "bad_box"  # the code of the coach's and the training's APIs for it
    for lang in ("zh", "ja"):
        msg = client.post(f"/api/game/score?lang={lang}", {"box": -1}).get_json()["error"]
        assert "0" in msg and str(last) in msg and Translator(lang).box(r, 0) in msg, msg


def test_an_unknown_box_is_the_same_bad_request_in_the_game_and_the_coach(client):
    """README: an index outside the card is 400 ``bad_box`` in every API (an illegal move is 409 ``illegal``)."""
    client.ok("post", "/api/game/new", {"seed": 8})
    client.ok("post", "/api/game/roll")
    game = assert_refused(client.post("/api/game/score", {"box": 99}), 400, "invalid box 99")
    client.ok("post", "/api/coach/new", {"players": "a,b"})
    client.ok("post", "/api/coach/roll", {"dice": "12345"})
    coach = assert_refused(client.post("/api/coach/score", {"box": 99}), 400, "invalid box 99")
    assert game["code"] == coach["code"] == "bad_box"


@pytest.mark.parametrize("box", [int("9" * 4000), -int("1" * 30)], ids=["4000 digits", "-30 digits"])
def test_a_long_box_is_named_by_its_ends_in_every_api(client, box):
    """A box of 4,000 digits was echoed whole in the 400 (4 KB of nines); it is named as a long game number is,
    its first and last 8 digits and its count of digits, by the game's, the coach's and the trainer's APIs."""
    text = str(box)
    shown = f"invalid box '{text[:8]}...{text[-8:]}' ({len(text.lstrip('-'))} digits)"
    client.ok("post", "/api/game/new", {"seed": 8})
    client.ok("post", "/api/game/roll")
    assert assert_refused(client.post("/api/game/score", {"box": box}), 400, shown, "0 to 12")["code"] == "bad_box"
    zh = assert_refused(client.post("/api/game/score?lang=zh", {"box": box}), 400, text[:8], "4000" if box > 0 else "30")
    assert _cjk(zh["error"]) and "digits" not in zh["error"], zh
    client.ok("post", "/api/coach/new", {"players": "a,b"})
    client.ok("post", "/api/coach/roll", {"dice": "12345"})
    assert_refused(client.post("/api/coach/score", {"box": box}), 400, shown)
    v = client.ok("post", "/api/train/new", {"count": 1, "seed": 1})["train"]["version"]
    assert_refused(client.post("/api/train/answer", {"position": 1, "box": box, "version": v}), 400, shown)


def test_a_long_game_number_is_a_missing_game_and_the_games_come_with_every_review_refusal(client):
    client.ok("post", "/api/game/new", {"rules": "yacht", "seed": 3})
    _play_out(client)
    # 8 to 29 digits: a missing game, as a short one (the 404 with the games, for the page's choice of game)
    for digits in (2, 8, 29, 400):
        n = "9" * digits
        for route in ("/api/review", "/api/review/table"):
            body = assert_refused(client.get(f"{route}?game={n}"), 404, "There is no game", "(games 1).")
            assert body["code"] == "no_game"
            if digits <= 24:
                assert f"game {n} in" in body["error"] or f"'{n}'" in body["error"]
            else:  # quoted clipped
                assert n not in body["error"] and f"({digits} digits)" in body["error"]
            if route == "/api/review":
                assert [g["number"] for g in body["games"]] == [1]
    # not a number: 400, quoted as typed (the blank kept), cut short
    body = assert_refused(client.get("/api/review?game=%202x"), 400, "invalid game ' 2x'")
    assert body["code"] == "bad_game"
    assert_refused(client.get("/api/review?game=" + "9" * 30 + "x"), 400, "invalid game '" + "9" * 17 + "...'")
    # full-width digits, as a card takes them
    assert client.ok("get", "/api/review?game=%EF%BC%91")["number"] == 1
    # a solitaire game has no CPU to review: the 400 carries the games too (the page's game list stays filled)
    body = assert_refused(client.get("/api/review?game=1&player=cpu"), 400)
    assert [g["number"] for g in body["games"]] == [1]


def test_full_width_rolls_left_is_read_as_the_card_reads_full_width_digits(client):
    want = client.ok("get", "/api/advice?dice=22555&rolls_left=1")
    assert client.ok("get", "/api/advice?dice=22555&rolls_left=%EF%BC%91") == want
    # blanks around it dropped, as a card's and a game number's (dice.whole_number); not inside
    assert client.ok("get", "/api/advice?dice=22555&rolls_left=%201%20") == want
    assert_refused(client.get("/api/advice?dice=22555&rolls_left=1%201"), 400, "invalid rolls_left '1 1'")


def test_the_player_cannot_roll_during_the_cpus_turn(client):
    game = client.ok("post", "/api/game/new", {"opponent": "beginner", "first": "cpu", "seed": 4})["game"]
    assert game["cpu_turn"] and not game["can_roll"]
    assert_refused(client.post("/api/game/roll"), 409)  # what can_roll says
    while game["cpu_turn"]:
        game = client.ok("post", "/api/game/cpu")["game"]
    assert game["can_roll"]


@pytest.mark.parametrize("card,key", [("sixes=-1", "impossible"), ("sixes=1e3", "not_whole"),
                                      ("yahtzee-bonus=100", "bonus_open"), ("sixes=18:25", "not_whole"),
                                      ("yahtzee=50,ones=2,yahtzee-bonus=100", "bonus_holder")])
def test_the_advisors_card_errors_are_the_command_lines(client, card, key):
    """The web names the problem ``--card`` names, with its text (one place: card_problems.CARD_PROBLEMS), in zh and ja too."""
    from yahtzee_solver.errors import ScoreCardError

    with pytest.raises(ScoreCardError) as cli:
        parse_card(card, "yahtzee")
    assert cli.value.key == key
    url = "/api/advice?" + urlencode({"card": card, "dice": "22555"})
    assert assert_refused(client.get(url), 400)["error"] == str(cli.value)
    r = get_rules("yahtzee")
    for lang in ("zh", "ja"):
        tr = Translator(lang)
        params = {**cli.value.params, "box": tr.box(r, r.category_index(cli.value.params["box"]))}  # named in lang
        msg = client.get(url + f"&lang={lang}").get_json()["error"]
        assert msg == tr(f"card.{key}", **params) and msg != str(cli.value)


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_zh_and_ja_refusals_have_no_english_words_and_space_their_latin_words(client, lang):
    """A long game number's count of digits, a bad JSON body and a field's wanted type are said in the language
    (the JSON's place by its line and column only), Latin words spaced from the CJK around them."""
    client.ok("post", "/api/game/new", {"rules": "yacht", "seed": 3})
    _play_out(client)
    said = [assert_refused(client.get(f"/api/review?game={'9' * 30}&lang={lang}"), 404)["error"]]
    said.append(assert_refused(client.post(f"/api/game/new?lang={lang}", data=b'{"seed": 3,\n }'), 400)["error"])
    assert "2" in said[-1]  # the line
    said.append(assert_refused(client.post(f"/api/game/new?lang={lang}", data=b"\xff"), 400)["error"])
    said.append(assert_refused(client.post(f"/api/game/new?lang={lang}", {"abandon": 3}), 400)["error"])
    said.append(assert_refused(client.post(f"/api/game/new?lang={lang}", {"rules": 3}), 400)["error"])
    said.append(assert_refused(client.post(f"/api/coach/roll?lang={lang}", {"dice": "12345", "version": 3}), 400)["error"])
    for msg in said:
        assert _cjk(msg), msg
        bare = re.sub(r"'[^']*'|\b(true|false|null|JSON|UTF-8|abandon|rules|version|seed|dice|[0-9]+)\b", "", msg)
        assert not re.search(r"[A-Za-z]{2,}", bare), msg  # no English word left
        assert not re.search(r"[\u3040-\u9fff][A-Za-z0-9]|[A-Za-z0-9][\u3040-\u9fff]", msg), msg  # spaced


@pytest.mark.parametrize("route", ["/api/config", "/api/text", "/api/records"])
@pytest.mark.parametrize("asked", ["fr", "ZH", ""])
def test_every_read_refuses_an_unknown_language_alike(client, route, asked):
    body = assert_refused(client.get(f"{route}?lang={asked}"), 400, f"unknown language {asked!r} (choose from en, zh, ja)")
    assert body["code"] == "bad_request"


def test_the_page_asks_for_its_config_in_a_known_language():
    """The page's first call (``/api/config``) goes out before it has picked its language: with the state's
    default ("en"), never a language kept in the browser's storage, which could be one no longer served."""
    from importlib import resources

    static = resources.files("yahtzee_solver.web").joinpath("static")
    main = static.joinpath("main.js").read_text("utf-8")
    assert main.index('api("GET", "/api/config")') < main.index("S.lang = pickLang()")
    assert 'lang: "en"' in static.joinpath("core.js").read_text("utf-8")


def test_a_game_number_is_read_alike_by_the_web_and_review(client):
    """``game=`` and ``review N``: one reading, blanks around the number dropped (as a card's), full-width digits
    taken, anything else refused, by both (the web 400 ``bad_game``; the command line reads it as a game file)."""
    from clihelpers import run

    client.ok("post", "/api/game/new", {"rules": "yacht", "seed": 3})
    _play_out(client)
    for typed in (" 1", "1 ", "\t1\t", "\uff11", " 01"):
        assert client.get("/api/review?" + urlencode({"game": typed})).status_code == 200, repr(typed)
        res = run("review", typed, "--no-chances")
        assert res.exit_code == 0, (typed, res.output)
    for typed in ("1 2", "\u00b2", "1x", " ", "-1"):
        body = assert_refused(client.get("/api/review?" + urlencode({"game": typed})), 400)
        assert body["code"] == "bad_game", typed
        res = run("review", typed, "--no-chances")
        assert res.exit_code in (1, 2) and isinstance(res.exception, SystemExit), (typed, res.output)


_FULL_CARD = ",".join(f"{c.slug}={5 if c.slug == 'chance' else 0}" for c in get_rules("yahtzee").categories)


@pytest.mark.parametrize("card,key", [("bogus=3", "unknown"), ("sixes=18,sixes=12", "repeated"),
                                      ("sixes=", "no_points"), ("=5", "no_name"), ("sixes", "entry"),
                                      ("6s=18,sixes=12", "repeated_as"), ("yahtzee-bonus=100,yahtzee_bonus=0", "repeated"),
                                      (",,", "none"), (_FULL_CARD, "full"),
                                      ("yahtzee=50,yahtzee_bonus=-", "bonus_blank"),
                                      ("yahtzee=50,bonus=none", "bonus_blank"),
                                      ("yahtzee=50,yahtzee-bonus=", "no_bonus_points")])
def test_the_advisors_card_syntax_errors_are_the_command_lines(client, card, key):
    """The card's entries and boxes, and a full card: the web says what ``hint --card`` says (the text from
    card_problems.CARD_PROBLEMS), and the same problem in zh and ja, with no English words."""
    from clihelpers import run

    from yahtzee_solver.state import CARD_PROBLEMS

    res = run("hint", "22555", "--card", card)
    assert res.exit_code == 2, res.output
    said = res.output.strip().removeprefix("Error: ")
    url = "/api/advice?" + urlencode({"card": card, "dice": "22555", "rolls_left": "2"})
    assert assert_refused(client.get(url), 400)["error"] == said
    for lang in ("zh", "ja"):
        msg = client.get(url + f"&lang={lang}").get_json()["error"]
        assert _cjk(msg) and msg != said
        if "{" not in CARD_PROBLEMS[key]:  # no fields: the catalogue's text as it is
            assert msg == Translator(lang)(f"card.{key}")
        bare = re.sub(r"'[^']*'", "", msg)  # what the user typed, quoted, may be anything
        for word in ("invalid", "category", "repeated", "missing", "want", "entry", "game", "advise", "boxes"):
            assert word not in bare.lower(), (word, msg)
    assert "None" not in said  # a blank Yahtzee bonus once read "invalid points None"


def _cjk(text):
    return any("\u3040" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" for ch in text)


def _solo(c):
    c.ok("post", "/api/game/new", {"seed": 8})


def _rolled(c):
    _solo(c)
    c.ok("post", "/api/game/roll")


def _finished(c):
    c.ok("post", "/api/game/new", {"rules": "yacht", "seed": 3})
    _play_out(c)


#: One request for each refusal a route can answer: (setup, method, url, raw body or None, headers).
ERROR_CASES = {
    "no_game": (None, "post", "/api/game/cpu", None, {}),
    "not_cpu_turn": (_solo, "post", "/api/game/cpu", None, {}),
    "cpu_turn": (lambda c: c.ok("post", "/api/game/new", {"opponent": "beginner", "first": "cpu", "seed": 4}),
                 "post", "/api/game/roll", None, {}),
    "bad_game": (None, "get", "/api/review?game=x", None, {}),
    "bad_game_table": (None, "get", "/api/review/table?game=x", None, {}),
    "no_review": (None, "get", "/api/review", None, {}),
    "missing_game": (_finished, "get", "/api/review?game=99999999", None, {}),
    "no_cpu": (_finished, "get", "/api/review?player=cpu", None, {}),
    "bad_player": (None, "get", "/api/review?player=me", None, {}),
    "bad_box": (_rolled, "post", "/api/game/score", '{"box": 13}', {}),
    "box_type": (_solo, "post", "/api/game/score", '{"box": "3"}', {}),
    "held_type": (_solo, "post", "/api/game/hold", '{"held": [1, 0]}', {}),
    "seed_type": (None, "post", "/api/game/new", '{"seed": -1}', {}),
    "bool_type": (None, "post", "/api/game/new", '{"abandon": "yes"}', {}),
    "str_type": (None, "post", "/api/game/new", '{"rules": 3}', {}),
    "version_type": (None, "post", "/api/game/roll", '{"version": 3}', {}),
    "int_null_type": (None, "post", "/api/train/answer", '{"position": 1, "box": "x"}', {}),
    "unknown_field": (None, "post", "/api/game/new", '{"colour": "red"}', {}),
    "missing_field": (_solo, "post", "/api/game/hold", "{}", {}),
    "field_twice": (None, "post", "/api/game/new", '{"seed": 1, "seed": 2}', {}),
    "bad_json": (None, "post", "/api/game/new", "{", {}),
    "deep_json": (None, "post", "/api/game/new", "[" * 2000 + "]" * 2000, {}),
    "not_object": (None, "post", "/api/game/new", "[]", {}),
    "too_large": (None, "post", "/api/game/new", json.dumps({"x": "a" * MAX_BODY}), {}),
    "unknown_query": (None, "get", "/api/game?debug=1", None, {}),
    "query_utf8": (None, "get", "/api/review?player=Zo%EB", None, {}),
    "seed_long": (None, "post", "/api/game/new", '{"seed": "%s"}' % ("9" * 41), {}),
    "query_twice": (None, "get", "/api/rules?rules=yacht&rules=yacht", None, {}),
    "missing_query": (None, "get", "/api/rules", None, {}),
    "rules": (None, "get", "/api/rules?rules=chess", None, {}),
    "new_rules": (None, "post", "/api/game/new", '{"rules": "chess"}', {}),
    "opponent": (None, "post", "/api/game/new", '{"opponent": "grandmaster"}', {}),
    "first": (None, "post", "/api/game/new", '{"opponent": "expert", "first": "you"}', {}),
    "game_in_progress": (_solo, "post", "/api/game/new", "{}", {}),
    "stale": (_solo, "post", "/api/game/roll", '{"version": "old"}', {}),
    "illegal": (_solo, "post", "/api/game/hold", '{"held": [true, true, true, true, true]}', {}),
    "no_undo": (_solo, "post", "/api/game/undo", None, {}),
    "no_dice": (_solo, "post", "/api/game/why", None, {}),
    "confirm_zero": (lambda c: (c.ok("post", "/api/game/new", {"seed": 8}), c.ok("post", "/api/game/roll")),
                     "post", "/api/game/score", '{"box": 11}', {}),
    "rolls_left": (None, "get", "/api/advice?dice=22555&rolls_left=3", None, {}),
    "dice": (None, "get", "/api/advice?dice=2255", None, {}),
    "card": (None, "get", "/api/advice?dice=22555&card=sixes=-1", None, {}),
    "card_entry": (None, "get", "/api/advice?dice=22555&card=sixes", None, {}),
    "card_box": (None, "get", "/api/advice?dice=22555&card=kings=3", None, {}),
    "card_full": (None, "get", "/api/advice?dice=22555&card=aces=1,twos=2,threes=3,fours=4,fives=5,sixes=6,3k=0,4k=0,"
                  "fh=0,ss=0,ls=0,yahtzee=0,chance=5", None, {}),
    "position": (None, "get", "/api/train/why?position=x", None, {}),
    "not_answered": (lambda c: c.ok("post", "/api/train/new", {"count": 1, "seed": 1}),
                     "get", "/api/train/why?position=1", None, {}),
    "train_none": (None, "post", "/api/train/answer", '{"position": 1, "box": 0}', {}),
    "train_count": (None, "post", "/api/train/new", '{"count": 0}', {}),
    "train_rules": (None, "post", "/api/train/new", '{"rules": "chess"}', {}),
    "keep_or_box": (lambda c: c.ok("post", "/api/train/new", {"count": 1, "seed": 1}),
                    "post", "/api/train/answer", '{"position": 1}', {}),
    "not_asked": (lambda c: c.ok("post", "/api/train/new", {"count": 2, "seed": 1}),
                  "post", "/api/train/answer", '{"position": 2, "box": 0}', {}),
    "train_box": (lambda c: c.ok("post", "/api/train/new", {"count": 1, "seed": 1}),
                  "post", "/api/train/answer", '{"position": 1, "box": 99}', {}),
    "train_keep": (lambda c: c.ok("post", "/api/train/new", {"count": 1, "seed": 1}),
                   "post", "/api/train/answer", '{"position": 1, "keep": "789"}', {}),
    "coach_no_game": (None, "post", "/api/coach/roll", '{"dice": "12345"}', {}),
    "coach_rules": (None, "post", "/api/coach/new", '{"players": "a,b", "rules": "chess"}', {}),
    "coach_players": (None, "post", "/api/coach/new", '{"players": ""}', {}),
    "coach_box": (lambda c: (c.ok("post", "/api/coach/new", {"players": "a,b"}),
                             c.ok("post", "/api/coach/roll", {"dice": "12345"})),
                  "post", "/api/coach/score", '{"box": 99}', {}),
    "coach_dice": (lambda c: c.ok("post", "/api/coach/new", {"players": "a,b"}),
                   "post", "/api/coach/roll", '{"dice": "12347"}', {}),
    "coach_turn": (lambda c: c.ok("post", "/api/coach/new", {"players": "a,b"}),
                   "post", "/api/coach/roll", '{"dice": "12345", "player": "b"}', {}),
    "coach_filled": (lambda c: (c.ok("post", "/api/coach/new", {"players": "a"}),
                                c.ok("post", "/api/coach/roll", {"dice": "12345"}),
                                c.ok("post", "/api/coach/score", {"box": 12}),
                                c.ok("post", "/api/coach/roll", {"dice": "12345"})),
                     "post", "/api/coach/score", '{"box": 12}', {}),
    "no_page": (None, "get", "/api/nothing", None, {}),
    "method": (None, "get", "/api/game/roll", None, {}),
    "host": (None, "get", "/api/game", None, {"Host": "evil.example"}),
    "origin": (None, "post", "/api/game/new", "{}", {"Origin": "http://evil.example"}),
    "cross_site": (None, "get", "/api/game", None, {"Sec-Fetch-Site": "cross-site"}),
    "token": (None, "post", "/api/game/new", "{}", {TOKEN_HEADER: "guess"}),
    "type": (None, "post", "/api/game/new", "{}", {"Content-Type": "text/plain"}),
}


@pytest.mark.parametrize("case", sorted(ERROR_CASES))
def test_every_refusal_is_said_in_the_requests_language(files, case):
    """No error a route answers is English only: each refusal, asked with ``?lang=zh`` / ``ja``, is said in that
    language (the same status and code as in English)."""
    setup, method, url, raw, headers = ERROR_CASES[case]
    answers = {}
    for lang in ("en", "zh", "ja"):
        c = Client(create_app(**files))
        if setup is not None:
            setup(c)
        u = url + ("&" if "?" in url else "?") + f"lang={lang}"
        h = dict(headers)
        ctype = h.pop("Content-Type", "application/json")
        if method == "get":
            r = c.get(u, headers=h)
        else:
            r = c.post(u, data=(raw or "").encode(), headers=h, content_type=ctype)
        assert 400 <= r.status_code < 500, (case, lang, r.status_code, r.get_data(as_text=True)[:200])
        body = r.get_json()
        answers[lang] = (r.status_code, body["code"], body["error"])
        for name in ("game_file", "records_file"):
            files[name].unlink(missing_ok=True)
        for p in files["game_file"].parent.iterdir():
            if p.is_file():
                p.unlink()
    en = answers["en"]
    for lang in ("zh", "ja"):
        status, code, msg = answers[lang]
        assert (status, code) == en[:2], (case, lang)
        assert msg != en[2] and _cjk(msg), (case, lang, msg, en[2])


def test_every_web_refusal_goes_through_the_catalogue():
    """Each ``ApiError`` of the web's code takes its message from the catalogue (``tr(...)``, a ``Msg``, or a text
    made so): never a literal, an f-string, or an exception's English (``str(e)``) as the whole message."""
    import ast
    from pathlib import Path

    import yahtzee_solver.web as web

    bad = []
    for path in sorted(Path(web.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ApiError" and len(node.args) >= 2:
                m = node.args[1]
                english = (isinstance(m, (ast.Constant, ast.JoinedStr))
                           or isinstance(m, ast.Call) and getattr(m.func, "id", None) in ("str", "_message"))
                if english:
                    bad.append(f"{path.name}:{node.lineno}")
    assert not bad, bad


# -- requests as sent: raw bytes in a query, bodies shorter than announced; long seeds ------------
@pytest.fixture
def wire(files, monkeypatch):
    """The app on a real port in a thread, served as ``serve`` serves it (:class:`RequestHandler`, a short wait for
    a body); ``wire(data)`` sends the bytes (or each of a list, ``pause`` seconds apart) on a new connection and
    returns ``(status, JSON, seconds from the last bytes sent to the end of the answer)``."""
    import socket
    import threading
    import time

    from werkzeug.serving import make_server

    from yahtzee_solver.web.server import RequestHandler

    monkeypatch.setattr(RequestHandler, "body_timeout", 0.3)
    app = create_app(**files)
    httpd = make_server("127.0.0.1", 0, app, threaded=True, request_handler=RequestHandler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()

    def send(data: bytes | list[bytes], half_close: bool = True, pause: float = 0.0):
        with socket.create_connection(("127.0.0.1", httpd.server_port), timeout=3) as s:
            for i, part in enumerate([data] if isinstance(data, bytes) else data):
                time.sleep(pause if i else 0)
                s.sendall(part.replace(b"@TOKEN@", app.config["TOKEN"].encode()))
            if half_close:
                s.shutdown(socket.SHUT_WR)
            start, reply = time.monotonic(), b""
            while chunk := s.recv(65536):
                reply += chunk
        head, _, body = reply.partition(b"\r\n\r\n")
        return int(head.split()[1]), json.loads(body), time.monotonic() - start

    yield send
    httpd.shutdown()
    httpd.server_close()


def _get(query: bytes) -> bytes:
    return b"GET /api/review?" + query + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def test_raw_utf_8_in_a_query_reads_as_percent_encoded_utf_8(client, wire):
    """curl sends what is typed (``?player=Zoë``: the bytes c3 ab); a browser percent-encodes it (``%C3%AB``).
    Both are 'Zoë', a name as a value: werkzeug's server gave the raw bytes encoded twice ('ZoÃ«')."""
    for raw, sent in [(b"player=Zo\xc3\xab", "invalid player 'Zoë'"), (b"Zo\xc3\xab=1", "unknown query parameter 'Zoë'"),
                      (b"lang=\xe6\x97\xa5\xe6\x9c\xac", "unknown language '日本'")]:
        encoded = raw.replace(b"\xc3\xab", b"%C3%AB").replace(b"\xe6\x97\xa5\xe6\x9c\xac", b"%E6%97%A5%E6%9C%AC")
        environ = {"QUERY_STRING": raw.decode("latin-1")}  # the WSGI form of the bytes sent (PEP 3333)
        assert_refused(client.get("/api/review", environ_overrides=environ), 400, sent)
        assert_refused(client.get("/api/review?" + encoded.decode()), 400, sent)
        for query in (raw, encoded):
            status, body, _ = wire(_get(query))
            assert (status, sent in body["error"]) == (400, True), (query, body)
    # a well-formed query reads as before, both spellings
    assert client.get("/api/review?player=you").get_json() == client.get(
        "/api/review", environ_overrides={"QUERY_STRING": "player=you"}).get_json()


@pytest.mark.parametrize("raw,named", [(b"player=Zo\xeb", "'player'"), (b"player=Zo%EB", "'player'"),
                                       (b"pl\xffyer=you", "'pl\ufffdyer'"), (b"pl%FFyer=you", "'pl\ufffdyer'"),
                                       (b"dice=22555&rules=\xc3", "'rules'")])
def test_a_query_that_is_not_utf_8_is_a_400_naming_the_parameter(client, wire, raw, named):
    """Bytes that are not UTF-8 were a 500 (werkzeug's decoding raised, in the error handler too); werkzeug's server
    took them for Latin-1 letters, and the same bytes percent-encoded were kept as '%EB'."""
    path = "/api/advice" if raw.startswith(b"dice") else "/api/review"
    r = client.get(path, environ_overrides={"QUERY_STRING": raw.decode("latin-1")})
    assert assert_refused(r, 400, f"query parameter {named} is not UTF-8")["code"] == "bad_request"
    status, body, _ = wire(_get(raw).replace(b"/api/review", path.encode()))
    assert status == 400 and body == r.get_json(), body
    # said in the query's language, even when another parameter is the bad one
    zh = client.get(path, environ_overrides={"QUERY_STRING": raw.decode("latin-1") + "&lang=zh"}).get_json()["error"]
    assert _cjk(zh) and "UTF-8" in zh, zh


SHORT = b"POST /api/game/new HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Yahtzee-Token: @TOKEN@\r\nContent-Type: application/json\r\n"


@pytest.mark.parametrize("body", [b"", b'{"se', b"{}"])
def test_a_body_shorter_than_its_content_length_is_a_400_saying_so(client, files, wire, body):
    """The body ends (the client closes its side) before the Content-Length's bytes: 400 naming both counts
    (it was werkzeug's bare 'the request was refused (400 Bad Request)'), and nothing is done."""
    import io

    r = client.c.post("/api/game/new", input_stream=io.BytesIO(body), content_type="application/json",
                      headers={TOKEN_HEADER: client.token}, environ_overrides={"CONTENT_LENGTH": "10"})
    said = f"the body ended after {len(body)} of the 10 bytes its Content-Length announced"
    assert_refused(r, 400, said)
    status, reply, _ = wire(SHORT + b"Content-Length: 10\r\n\r\n" + body)
    assert status == 400 and reply["error"] == said, reply
    assert client.ok("get", "/api/game")["game"] is None and not files["game_file"].exists()
    for lang in ("zh", "ja"):  # in the request's language
        r = client.c.post(f"/api/game/new?lang={lang}", input_stream=io.BytesIO(body), content_type="application/json",
                          headers={TOKEN_HEADER: client.token}, environ_overrides={"CONTENT_LENGTH": "10"})
        assert _cjk(assert_refused(r, 400, str(len(body)), "10", "Content-Length")["error"])


@pytest.mark.parametrize("length", ["-5", "abc", "+16", "16, 16", "1" * 30 + "x" * 30])
def test_a_content_length_that_is_not_a_count_is_a_400_and_nothing_is_done(client, wire, length):
    """werkzeug reads a malformed Content-Length as 0: the roll ran on an empty body, its version (here null, the
    stale-tab check) never read.  Now a 400 quoting the value sent (cut short), the game as it was."""
    import io

    game = client.ok("post", "/api/game/new")["game"]
    body = b'{"version":null}'
    shown = repr(length) if len(length) <= 40 else repr(length[:37] + "...")
    r = client.c.post("/api/game/roll", input_stream=io.BytesIO(body), content_type="application/json",
                      headers={TOKEN_HEADER: client.token}, environ_overrides={"CONTENT_LENGTH": length})
    assert assert_refused(r, 400, f"invalid Content-Length {shown}: want a count of bytes")["code"] == \
        "bad_content_length"
    status, reply, _ = wire(b"POST /api/game/roll HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Yahtzee-Token: @TOKEN@\r\n"
                            b"Content-Type: application/json\r\nContent-Length: " + length.encode() + b"\r\n\r\n" + body)
    assert (status, reply) == (400, r.get_json()), reply
    assert client.ok("get", "/api/game")["game"] == game  # not rolled
    zh = client.c.post("/api/game/roll?lang=zh", input_stream=io.BytesIO(body), content_type="application/json",
                       headers={TOKEN_HEADER: client.token}, environ_overrides={"CONTENT_LENGTH": length})
    assert _cjk(assert_refused(zh, 400, "Content-Length")["error"])
    # a count with the header's blanks around it is one
    r = client.c.post("/api/game/roll", input_stream=io.BytesIO(body), content_type="application/json",
                      headers={TOKEN_HEADER: client.token}, environ_overrides={"CONTENT_LENGTH": f" {len(body)} "})
    assert r.status_code == 200, r.get_json()


@pytest.mark.parametrize("head,body,said", [
    (b"Content-Length: 10\r\n", b"", "after 0 of the 10 bytes"),
    (b"Content-Length: 10\r\n", b'{"se', "after 4 of the 10 bytes"),
    (b"Transfer-Encoding: chunked\r\n", b"2\r\n{}\r\n", "the chunked body broke off before its last chunk"),
])
def test_a_body_that_stops_coming_is_answered_after_a_short_wait(wire, head, body, said):
    """A client that announces more than it sends and waits (curl -H 'Content-Length: 10' with no data) had no
    answer for as long as it kept the connection open; the server now waits RequestHandler.body_timeout (0.3 s
    here) for the next byte, then answers 400."""
    status, reply, seconds = wire(SHORT + head + b"\r\n" + body, half_close=False)
    assert status == 400 and said in reply["error"], reply
    assert 0.25 < seconds < 2


def test_the_server_takes_a_whole_body_sent_in_pieces(wire):
    """The wait is for each next byte, not for the whole body: a body slower in all than the wait is read whole."""
    pieces = [SHORT + b"Content-Length: 11\r\n\r\n", b'{"se', b'ed"', b": 5}"]  # 0.45 s for the body
    status, reply, _ = wire(pieces, half_close=False, pause=0.15)
    assert status == 200 and reply["game"]["seed"] == "5", reply
    pieces = [SHORT + b"Transfer-Encoding: chunked\r\n\r\n", b'4\r\n{"se\r\n', b'7\r\ned": 6}\r\n', b"0\r\n\r\n"]
    status, reply, _ = wire(pieces, half_close=False, pause=0.15)
    assert status == 409 and reply["code"] == "game_in_progress", reply  # read whole: a new game over the first


@pytest.mark.parametrize("seed,digits", [("9" * 41, 41), (10 ** 40, 41), ("1" + "0" * 99, 100)])
def test_a_seed_longer_than_the_limit_is_refused_by_every_route(client, seed, digits):
    """One limit for every surface (yahtzee_solver.game.MAX_SEED_DIGITS): an integer seed had none on the web."""
    from yahtzee_solver.game import MAX_SEED_DIGITS

    shown = repr(str(seed)[:17] + "...")
    for url, body in (("/api/game/new", {"seed": seed}), ("/api/train/new", {"seed": seed, "count": 1})):
        r = client.post(url, body)
        assert_refused(r, 400, f"invalid seed: {shown} is too long for a seed ({digits} digits): "
                               f"want at most {MAX_SEED_DIGITS} digits")
    assert client.ok("get", "/api/game")["game"] is None


def test_a_seed_of_the_limits_digits_plays_and_leading_zeros_do_not_count(client):
    from yahtzee_solver.game import MAX_SEED_DIGITS

    top = "9" * MAX_SEED_DIGITS
    assert client.ok("post", "/api/game/new", {"seed": top})["game"]["seed"] == top
    assert client.ok("post", "/api/game/new", {"seed": int(top), "abandon": True})["game"]["seed"] == top
    # as --seed 000...07 is 7
    assert client.ok("post", "/api/game/new", {"seed": "0" * 45 + "7", "abandon": True})["game"]["seed"] == "7"


def test_a_long_seed_is_refused_in_the_same_words_by_the_command_line_and_the_web(client):
    from clihelpers import run

    cli = run("play", "--seed", "9" * 41).output.strip()
    web = client.post("/api/game/new", {"seed": "9" * 41}).get_json()["error"]
    said = cli.split("invalid value for '--seed': ", 1)[1].rsplit(" (see", 1)[0]
    assert "too long" in said and web == f"invalid seed: {said}", (cli, web)


@pytest.mark.parametrize("request_bytes,status", [
    (b"GET /api/review?" + b"a" * 70000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 414),
    (b"GET /api/review HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: " + b"b" * 70000 + b"\r\n\r\n", 431),
    (b"GET /api/review two HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400),
])
def test_the_servers_own_refusals_are_the_apps_json(wire, request_bytes, status):
    """A request http.server refuses before the app sees it (a request line over 64 KiB, a header line too
    long, a malformed request line) was answered with its HTML 'Error response' page."""
    got, reply, _ = wire(request_bytes)
    assert got == status and set(reply) == {"error", "code"}, reply
    assert reply["error"].startswith(f"the request was refused ({status} ") and "\n" not in reply["error"], reply


@pytest.mark.parametrize("headers,shown", [
    (b"Content-Length: \r\n", "''"),  # an empty header read as none: the roll ran, the body's version unread
    (b"Content-Length: 2\r\nContent-Length: 16\r\n", "'2, 16'"),  # werkzeug kept one of them
])
def test_an_empty_content_length_or_two_that_differ_are_a_400_under_the_server(client, wire, headers, shown):
    game = client.ok("post", "/api/game/new")["game"]
    status, reply, seconds = wire(b"POST /api/game/roll HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Yahtzee-Token: @TOKEN@\r\n"
                                  b"Content-Type: application/json\r\n" + headers + b"\r\n" + b'{"version":null}',
                                  half_close=False)
    assert status == 400 and reply["code"] == "bad_content_length", reply
    assert f"invalid Content-Length {shown}: want a count of bytes" in reply["error"] and seconds < 0.25, reply
    assert client.ok("get", "/api/game")["game"] == game  # not rolled
    # two equal headers are one count (HTTP allows it): past the check (the served app's own game store has
    # no game, as it was made before the test client started one)
    status, reply, _ = wire(b"POST /api/game/roll HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Yahtzee-Token: @TOKEN@\r\n"
                            b"Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}")
    assert (status, reply["code"]) == (409, "no_game"), reply


@pytest.mark.parametrize("raw", ["张伟", "Zoà", "Å", "①②"])
def test_raw_utf_8_holding_bytes_0x85_or_0xa0_reads_as_percent_encoded(client, wire, raw):
    """http.server splits the request line at blanks of its Latin-1 text, and 0x85 and 0xA0 are blanks there:
    raw UTF-8 holding them (张 is e5 bc a0) was misread ('not UTF-8 text', or a 400 'Bad request syntax' in
    mojibake). Now as its percent-encoded form."""
    from urllib.parse import quote

    encoded = quote(raw).encode()
    for query in (b"player=" + raw.encode(), b"player=" + encoded):
        status, body, _ = wire(_get(query))
        assert (status, f"invalid player {raw!r}" in body["error"]) == (400, True), (query, body)
