"""The web page's trainer (``yahtzee_solver.web.train``) and the hint's reasons, through Flask's test client.

The values are checked against the library the terminal uses: the expert CPU's own answers
(:class:`~yahtzee_solver.strategy.players.ExpertStrategy`, an independent caller of the policy)
score 0, another answer costs what :func:`yahtzee_solver.analysis.training.grade` says, the
session lands in the terminal's training file (:class:`TrainingStats`), and every reason's
figures are :func:`yahtzee_solver.strategy.reasons.option_reasons`' for the same position.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("flask", reason="the web tests need the [web] extra (Flask)")

from yahtzee_solver.analysis.training import (Answer, TrainingStats, draw_positions, grade,  # noqa: E402
                                              history_mistakes)
from yahtzee_solver.game import cpu_actions, new_game  # noqa: E402
from yahtzee_solver.i18n import Translator  # noqa: E402
from yahtzee_solver.play.history import add_finished_game  # noqa: E402
from yahtzee_solver.strategy.advisor import Advisor  # noqa: E402
from yahtzee_solver.strategy.players import BeginnerStrategy, ExpertStrategy  # noqa: E402
from yahtzee_solver.strategy.reasons import option_reasons  # noqa: E402
from yahtzee_solver.tui.why import figures, sentence  # noqa: E402
from yahtzee_solver.web.app import TOKEN_HEADER, create_app  # noqa: E402

from webhelpers import expert_until  # noqa: E402


@pytest.fixture(scope="module")
def advisor():
    return Advisor("yahtzee", jit=False)


@pytest.fixture(scope="module")
def expert():
    return ExpertStrategy("yahtzee", jit=False)


class Client:
    def __init__(self, app):
        self.app = app
        self.c = app.test_client()
        self.token = app.config["TOKEN"]

    def post(self, url, body=None):
        return self.c.post(url, json={} if body is None else body, headers={TOKEN_HEADER: self.token})

    def ok(self, method, url, body=None):
        r = self.post(url, body) if method == "post" else self.c.get(url)
        assert r.status_code == 200, (url, r.status_code, r.get_json())
        return r.get_json()

    @property
    def trainer(self):
        return self.app.extensions["yahtzee_train"]


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("YAHTZEE_SOLVER_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture
def client(home):
    return Client(create_app(game_file=home / "game.json"))


def refused(r, status, *needles):
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True)[:300])
    body = r.get_json()
    msg = body["error"]
    assert msg and "\n" not in msg and "Traceback" not in msg
    for n in needles:
        assert n in msg, (n, msg)
    return body


def expert_answer(expert, pos) -> dict:
    """The expert CPU's answer at ``pos`` as the page sends it."""
    if pos.rolls_left:
        keep = expert.choose_keep(pos.card, pos.dice, pos.rolls_left)
        if len(keep) < 5:
            return {"keep": "".join(map(str, keep))}
    return {"box": expert.choose_box(pos.card, pos.dice)}


def start(client, count=3, seed=5, **kw):
    return client.ok("post", "/api/train/new", {"count": count, "seed": str(seed), **kw})


# -- a whole session -------------------------------------------------------------------------------
def test_a_whole_session_of_the_experts_answers_scores_zero_and_is_saved(client, home, advisor, expert):
    r = start(client, count=4, seed=5)
    t = r["train"]
    assert t["count"] == 4 and t["answered"] == 0 and not t["done"] and t["seed"] == "5"
    assert r["stats"]["sessions"] == []
    # the positions are the library's for this seed (the terminal's `train --seed 5` asks the same)
    want = draw_positions(advisor, np.random.default_rng(5), 4)
    got = client.trainer.session.positions
    assert [p.key for p in got] == [p.key for p in want]
    for i, pos in enumerate(got, start=1):
        p = t["position"]
        assert p["number"] == i and p["dice"] == list(pos.dice) and p["rolls_left"] == pos.rolls_left
        assert p["card"]["boxes"] == list(pos.card.boxes)
        assert "best" not in p  # the answer is not told before it is given
        r = client.ok("post", "/api/train/answer", {"position": i, "version": t["version"], **expert_answer(expert, pos)})
        t = r["train"]
        assert t["last"]["cost"] == 0 and t["last"]["ranking"][0]["best"]
        assert t["last"]["verdict"].endswith("is the best: it cost nothing.")
    assert t["done"] and t["position"] is None
    s = t["summary"]
    assert s["answered"] == 4 and s["proficiency"] == 0 and s["strong"] and s["saved"]
    # the terminal's training file, read back by the terminal's loader
    st = TrainingStats.load(home / "training.json")
    assert st.problem is None
    (rec,) = st.sessions
    assert rec.positions == 4 and rec.proficiency == 0 and rec.seed == 5 and rec.source == "sampled"
    rows = r["stats"]["sessions"]
    assert [(x["number"], x["positions"], x["proficiency"]) for x in rows] == [(1, 4, 0.0)]
    assert client.ok("get", "/api/train")["stats"]["sessions"] == rows


def test_a_wrong_answer_costs_what_grade_says(client, home, advisor):
    t = start(client, count=2, seed=9)["train"]
    pos = client.trainer.session.positions[0]
    # an answer that is not the best: the worst keep, or the worst open box
    if pos.rolls_left:
        worst = advisor.keep_options(pos.card, pos.dice, pos.rolls_left)[-1].keep
        ans, body = Answer(keep=worst), {"keep": "".join(map(str, worst))}
    else:
        worst_box = advisor.box_options(pos.card, pos.dice)[-1].category
        ans, body = Answer(box=worst_box), {"box": worst_box}
    g = grade(advisor, pos, ans)
    assert g.cost > 0
    last = client.ok("post", "/api/train/answer", {"position": 1, "version": t["version"], **body})["train"]["last"]
    assert last["cost"] == pytest.approx(g.cost, abs=1e-9)
    assert last["expected"] == pytest.approx(g.expected, abs=1e-9)
    assert last["best_expected"] == pytest.approx(g.best_expected, abs=1e-9)
    assert f"it cost {g.cost:.2f} points" in last["verdict"]
    mine = [row for row in last["ranking"] if row["mine"]]
    assert len(mine) == 1 and mine[0]["loss"] == pytest.approx(g.cost, abs=1e-9)
    # ending the session early saves what was answered (as q in the terminal)
    r = client.ok("post", "/api/train/quit", {})
    assert r["train"]["done"] and r["train"]["summary"]["answered"] == 1
    (rec,) = TrainingStats.load(home / "training.json").sessions
    assert rec.positions == 1 and rec.total_loss == pytest.approx(g.cost, abs=1e-9)


@pytest.mark.parametrize("none", ["", "-", " - ", "none", "NONE"])
def test_keeping_none_is_typed_as_the_terminal_types_it(client, advisor, none):
    """``-`` (the terminal's ``k -``, the JSON's empty keep) and ``none`` keep none, as ``""`` does: one rule."""
    from yahtzee_solver.tui.train import _answer, position_state
    from yahtzee_solver.web.train import parse_keep

    for seed in range(1, 50):  # a session whose first position has a reroll left
        t = start(client, count=1, seed=seed)["train"]
        pos = client.trainer.session.positions[0]
        if pos.rolls_left:
            break
    assert pos.rolls_left
    g = grade(advisor, pos, Answer(keep=()))
    last = client.ok("post", "/api/train/answer", {"position": 1, "version": t["version"], "keep": none})["train"]["last"]
    assert last["cost"] == pytest.approx(g.cost, abs=1e-9)
    assert last["expected"] == pytest.approx(g.expected, abs=1e-9)
    assert parse_keep(none, pos.dice) == ()
    if none:  # the terminal's k takes the same words ("" is the page's; the terminal's bare k asks which dice)
        from yahtzee_solver.tui.prompt import keeps_none

        assert keeps_none(none)
        assert _answer(f"k {none}", position_state(pos), Translator("en")) == Answer(keep=())


# -- bad input -----------------------------------------------------------------------------------
def test_bad_answers_are_one_line_refusals_and_nothing_is_lost(client):
    refused(client.post("/api/train/answer", {"position": 1, "box": 0}), 409, "no training session")
    t = start(client, count=3, seed=5)["train"]
    pos = client.trainer.session.positions[0]
    v = t["version"]
    refused(client.post("/api/train/answer", {"position": 1, "box": 99, "version": v}), 400, "invalid box 99: the boxes are numbered 0 to 12")
    refused(client.post("/api/train/answer", {"position": 1, "box": -1, "version": v}), 400, "invalid box -1: the boxes are numbered 0 to 12")
    closed = next((c for c, x in enumerate(pos.card.boxes) if x is not None), None)
    if closed is not None:
        refused(client.post("/api/train/answer", {"position": 1, "box": closed, "version": v}), 400, "already filled")
    absent = next(f for f in "123456" if int(f) not in pos.dice)
    if pos.rolls_left:
        refused(client.post("/api/train/answer", {"position": 1, "keep": absent, "version": v}), 400,
                f"keep {absent!r} is not among the dice")
    else:
        refused(client.post("/api/train/answer", {"position": 1, "keep": "", "version": v}), 400, "No reroll is left")
    refused(client.post("/api/train/answer", {"position": 1, "keep": "7", "version": v}), 400, "invalid keep '7'")
    refused(client.post("/api/train/answer", {"position": 1, "keep": "", "box": 0, "version": v}), 400, "one of keep")
    refused(client.post("/api/train/answer", {"position": 1, "version": v}), 400, "one of keep")
    refused(client.post("/api/train/answer", {"position": 1, "keep": 5, "version": v}), 400, "invalid keep")
    refused(client.post("/api/train/answer", {"keep": ""}), 400, "missing field 'position'")
    refused(client.post("/api/train/answer", {"position": 2, "keep": "", "version": v}), 409, "not the one asked")
    assert client.trainer.session.graded == []  # nothing was graded by the refusals
    first = {"box": pos.card.open_categories[0]}
    ok = client.ok("post", "/api/train/answer", {"position": 1, "version": v, **first})
    # answering twice: the same position again (no version) and an answer on the old version
    refused(client.post("/api/train/answer", {"position": 1, **first}), 409, "Position 1 is already answered")
    body = refused(client.post("/api/train/answer", {"position": 2, "version": v, **first}), 409, "changed")
    assert body["code"] == "stale" and body["train"]["version"] == ok["train"]["version"]
    assert len(client.trainer.session.graded) == 1
    refused(client.post("/api/train/new", {"count": 0}), 400, "invalid count 0")
    refused(client.post("/api/train/new", {"count": 201}), 400, "invalid count 201")
    refused(client.post("/api/train/new", {"rules": "nope"}), 400, "Unknown rules 'nope'")
    refused(client.post("/api/train/new", {"count": "3"}), 400, "invalid count")
    refused(client.post("/api/train/new", {"from_history": 1}), 400, "invalid from_history")
    refused(client.c.get("/api/train/why?position=x"), 400, "invalid position 'x'")
    refused(client.c.get("/api/train/why?position=2"), 409, "not answered yet")
    # a GET never changes the session; a POST without the token is refused
    assert client.c.post("/api/train/new", json={}).status_code == 403


def test_a_new_session_over_an_unfinished_one_saves_its_answers(client, home):
    t = start(client, count=3, seed=5)["train"]
    pos = client.trainer.session.positions[0]
    client.ok("post", "/api/train/answer", {"position": 1, "version": t["version"], "box": pos.card.open_categories[0]})
    start(client, count=2, seed=6)
    (rec,) = TrainingStats.load(home / "training.json").sessions
    assert rec.positions == 1 and rec.seed == 5


def test_a_damaged_training_file_is_moved_aside_and_reported(client, home, expert):
    (home / "training.json").write_text("{not json")
    r = start(client, count=1, seed=5)
    assert "unreadable" in r["stats"]["problem"]
    pos = client.trainer.session.positions[0]
    r = client.ok("post", "/api/train/answer", {"position": 1, "version": r["train"]["version"],
                                                **expert_answer(expert, pos)})
    assert r["train"]["summary"]["saved"]
    assert len(TrainingStats.load(home / "training.json").sessions) == 1
    assert list(home.glob("training.json.corrupt-*"))


def test_from_my_history_draws_like_the_players_mistakes(client, home, advisor):
    r = start(client, count=2, seed=3, from_history=True)
    assert "game in your history yet: finish a game" in r["train"]["intro"] and r["train"]["source"] == "sampled"
    state = new_game("yahtzee", seed=4)
    beginner = BeginnerStrategy("yahtzee", rng=np.random.default_rng(1))
    while not state.is_terminal():
        for a in cpu_actions(state, beginner):
            state.apply_action(a)
    add_finished_game(state, home / "history.json")
    r = start(client, count=2, seed=3, from_history=True)
    assert r["train"]["source"] == "history" and "costliest past decisions" in r["train"]["intro"]
    mistakes = history_mistakes([(state.log, 0)], "yahtzee", advisor)
    want = draw_positions(advisor, np.random.default_rng(3), 2, mistakes)
    assert [p.key for p in client.trainer.session.positions] == [p.key for p in want]


# -- the reasons -----------------------------------------------------------------------------------------
def _same_reason(got, want, tr, rules, start):
    d = want.to_dict(rules)
    for k in ("p_upper_bonus", "p_yahtzee", "p_yahtzee_turn", "turn_points", "p_likely_box"):
        assert got[k] == pytest.approx(d[k], abs=1e-12), k
    assert got["likely_box"] == d["likely_box"] and got["kind"] == d["kind"]
    assert got["figures"] == figures(tr, rules, want)
    assert got["sentence"] == sentence(tr, rules, want, start)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_web_hints_reasons_are_strategy_reasons(client, lang):
    post = lambda path, body: client.ok("post", path, body)  # noqa: E731
    expert_until(post, seed=21, open_boxes=5, opponent="normal")
    refused(client.post("/api/game/why", {}), 409, "Roll first")
    client.ok("post", "/api/game/roll", {})
    hint = client.ok("post", f"/api/game/hint?lang={lang}", {})
    w = client.ok("post", f"/api/game/why?lang={lang}", {"version": hint["version"]})
    st = client.app.extensions["yahtzee"].state
    adv = Advisor(st.rules, jit=False)
    dice = st.sorted_dice
    keys = [tuple(o["keep"]) for o in hint["options"][:3]]
    want = option_reasons(st.card, dice, st.rerolls_left, keys, table=adv.table)
    tr = Translator(lang)
    assert [tuple(o["keep"]) for o in w["options"]] == keys
    assert w["start"]["p_yahtzee"] == pytest.approx(want.start.p_yahtzee, abs=1e-12)
    assert w["head"] == tr("why.head", figures=figures(tr, st.rules, want.start))
    for got, key in zip(w["options"], keys):
        _same_reason(got, want.options[key], tr, st.rules, want.start)
    # a stale version is refused; the reasons of the same position again are the same
    refused(client.post("/api/game/why", {"version": "old"}), 409)
    assert client.ok("post", f"/api/game/why?lang={lang}", {})["options"] == w["options"]
    # with no reroll left the options are boxes
    for _ in range(2):
        client.ok("post", "/api/game/roll", {})
    hint = client.ok("post", "/api/game/hint", {})
    w = client.ok("post", "/api/game/why", {})
    boxes = [o["box"] for o in hint["options"][:3]]
    want = option_reasons(st.card, st.sorted_dice, 0, boxes, table=adv.table)
    assert [o["box"] for o in w["options"]] == boxes
    for got, b in zip(w["options"], boxes):
        _same_reason(got, want.options[b], Translator("en"), st.rules, want.start)


def test_the_trainers_reasons_are_strategy_reasons(home, advisor):
    # positions late in a game (few open boxes): the reasons are quick to compute
    def late(adv, rng, count, mistakes=()):
        pool = [p for p in draw_positions(adv, rng, 40) if len(p.card.open_categories) <= 5]
        assert len(pool) >= count
        return pool[:count]

    app = create_app(game_file=home / "game.json")
    app.extensions["yahtzee_train"].draw = late
    client = Client(app)
    t = start(client, count=2, seed=2)["train"]
    pos = client.trainer.session.positions[0]
    if pos.rolls_left:
        ans = advisor.keep_options(pos.card, pos.dice, pos.rolls_left)[1].keep
        body, key = {"keep": "".join(map(str, ans))}, ans
    else:
        key = advisor.box_options(pos.card, pos.dice)[1].category
        body = {"box": key}
    client.ok("post", "/api/train/answer", {"position": 1, "version": t["version"], **body})
    w = client.ok("get", "/api/train/why?position=1")
    best = pos.best.keep if pos.best.keep is not None else pos.best.box
    want = option_reasons(pos.card, pos.dice, pos.rolls_left, [best, key], table=advisor.table)
    assert [o["which"] for o in w["options"]] == ["best", "answer"]
    tr = Translator("en")
    _same_reason(w["options"][0], want.options[best], tr, pos.card.rules, want.start)
    _same_reason(w["options"][1], want.options[key], tr, pos.card.rules, want.start)


def test_a_bonus_already_earned_is_said_so_when_its_solved_chance_rounds_above_one():
    """The solved chance of an earned bonus can come out a few ulps above 1 (1.0000000000000004 at the
    trainer's first position of seed 5); the sentence still says the bonus is already earned."""
    from yahtzee_solver.rules import get_rules
    from yahtzee_solver.strategy.reasons import Reason

    rules = get_rules("yahtzee")
    start = Reason(None, "start", 1.0 + 4e-16, 0.08, 0.03, 16.2, 0, 0.48)
    keep = Reason((2, 3, 4, 6), "keep", 1.0 + 2e-16, 0.06, 0.001, 13.2, 0, 0.65)
    tr = Translator("en")
    assert tr("why.bonus_made") in sentence(tr, rules, keep, start)
