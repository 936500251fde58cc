"""The coach's page on the server (``yahtzee_solver.web.coach``) through Flask's test client.

A whole three-player game is played through the API with dice from a seeded
generator and checked against the session module (:class:`~yahtzee_solver.play.coach.CoachGame`)
replaying the same typed lines; the advice is play's ranking and the chances of
finishing first add up to 1; a refusal is one line, in the terminal coach's
words, and changes nothing; a game saved by the page continues in the terminal
(``coach --resume``) and the other way round; the end-of-game chart is drawn
from plain data.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import numpy as np
import pytest

flask = pytest.importorskip("flask", reason="the web tests need the [web] extra (Flask)")

from clihelpers import run  # noqa: E402
from yahtzee_solver.errors import YahtzeeError  # noqa: E402
from yahtzee_solver.game import positions_of  # noqa: E402
from yahtzee_solver.i18n import Translator  # noqa: E402
from yahtzee_solver.play.coach import CoachGame, coach_path, judge, load, ranking  # noqa: E402
from yahtzee_solver.play.history import History  # noqa: E402
from yahtzee_solver.play.lock import GameLock  # noqa: E402
from yahtzee_solver.strategy.advisor import Advisor, KeepOption  # noqa: E402
from yahtzee_solver.web.app import TOKEN_HEADER, create_app  # noqa: E402
from yahtzee_solver.web.coach import chance_chart_svg  # noqa: E402
from yahtzee_solver.web.text import COACH_TEXT, WEB_TEXT  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("YAHTZEE_SOLVER_HOME", str(tmp_path))
    return tmp_path


class Client:
    def __init__(self, app):
        self.app = app
        self.c = app.test_client()
        self.token = app.config["TOKEN"]

    def post(self, url, body=None):
        r = self.c.post(url, json={} if body is None else body, headers={TOKEN_HEADER: self.token})
        return r.status_code, r.get_json()

    def ok(self, url, body=None):
        status, data = self.post(url, body)
        assert status == 200, (url, body, status, data)
        return data

    def get(self, url):
        r = self.c.get(url)
        return r.status_code, r.get_json()


@pytest.fixture
def client(home):
    # the coach's save sits beside the game file: in the data folder, where the terminal coach keeps it
    return Client(create_app(game_file=home / "game.json"))


def _one_line(status, data, want_status=None):
    assert 400 <= status < 500 and set(data) >= {"error", "code"}, (status, data)
    assert "\n" not in data["error"] and "Traceback" not in data["error"]
    if want_status is not None:
        assert status == want_status, (status, data)
    return data["error"]


def _card_view(g):
    return [[p["boxes"], p["yahtzee_bonus"], p["total"]] for p in g["players"]]


def _mirror_view(m):
    return [[list(c.boxes), c.yahtzee_bonus, c.total] for c in m.cards]


# -- a whole game --------------------------------------------------------------------------------------------
def test_a_whole_three_player_game_through_the_api(client, home):
    """Three players, dice from a seeded generator, best moves but a few mistakes; advice in the end game."""
    c = client
    rng = np.random.default_rng(18)
    adv = Advisor("yahtzee")
    names = ("Ann", "Bob", "Chen")
    g = c.ok("/api/coach/new", {"players": "Ann, Bob, Chen", "rules": "yahtzee"})["game"]
    assert [p["name"] for p in g["players"]] == list(names) and g["phase"] == "roll" and g["current"] == 0
    mirror = CoachGame("yahtzee", names)
    flagged = chances_checked = 0
    while not mirror.is_over():
        who = mirror.current
        dice = "".join(map(str, rng.integers(1, 7, 5)))
        g = c.ok("/api/coach/roll", {"dice": dice, "version": g["version"], "player": names[who]})["game"]
        mirror.roll(dice)
        while True:
            st = mirror.state
            assert g["dice"] == list(st.dice) and g["current"] == who
            rl = st.rerolls_left if st.rolls_used < 3 else 0
            opts = ranking(st.cards[0], st.dice, rl, adv)
            if mirror.round >= 9:  # every card has at most 5 open boxes: the chances are shown
                status, h = c.get(f"/api/coach/hint?version={g['version']}")
                assert status == 200, h
                assert [o["expected"] for o in h["options"]] == [o.expected for o in opts[:5]]
                ch = h["chances"]
                assert ch["shown"] and [r["player"] for r in ch["rows"]] == list(names)
                assert abs(sum(r["p"] for r in ch["rows"]) - 1.0) < 1e-9
                assert all(o["win"] is not None and -1e-12 <= o["win"] <= 1 + 1e-12 for o in h["options"])
                assert "expert" in ch["title"]
                chances_checked += 1
            best = opts[0]
            mistake = mirror.round == 2 and rl and len(opts) > 1 and best.score is None and opts[1].score is None
            if rl and best.score is None:
                pick = opts[1] if mistake else best
                assert isinstance(pick, KeepOption)
                held = positions_of(st.dice, pick.keep)
                loss = judge(mirror, adv, keep=pick.keep)[0]
                r = c.ok("/api/coach/keep", {"held": list(held), "version": g["version"]})
                mirror.keep(held)
                flags = [e for e in r["events"] if e.get("flag")]
                if loss > 1e-9:
                    assert len(flags) == 1 and abs(flags[0]["loss"] - loss) < 1e-12
                    assert flags[0]["text"].startswith(f"that cost {loss:.2f} points (best: keep ")
                    flagged += 1
                else:
                    assert not flags
                g = r["game"]
                assert g["phase"] == "reroll" and g["kept"] == sorted(pick.keep)
                new = "".join(map(str, rng.integers(1, 7, 5 - len(pick.keep))))
                typed = new if rng.random() < 0.5 else "".join(map(str, sorted(list(pick.keep) + [int(x) for x in new])))
                g = c.ok("/api/coach/roll", {"dice": typed, "version": g["version"]})["game"]
                mirror.roll(typed)
                continue
            box = best.score.category if rl else best.category
            r = c.ok("/api/coach/score", {"box": box, "version": g["version"], "player": names[who].lower()})
            mirror.score(box)
            g = r["game"]
            assert r["events"][0]["text"].startswith(f"{names[who]}: ")
            assert not any(e.get("flag") for e in r["events"])  # a best box
            break
        assert _card_view(g) == _mirror_view(mirror)
    assert flagged >= 1 and chances_checked > 20
    assert g["over"] and g["phase"] == "over"
    res = g["result"]
    totals = mirror.totals()
    assert [p["total"] for p in res["places"]] == sorted(totals, reverse=True)
    assert res["places"][0]["place"] == 1
    # filed in the history (one game per player, or one game of the table: as play/coach.file_finished files
    # it), and the save is gone
    h = History.load(home / "history.json")
    scores = [e.scores for e in h.entries]
    assert scores in ([(t,) for t in totals], [tuple(totals)])
    assert res["numbers"] == list(range(1, len(scores) + 1))
    assert not (home / "coach.json").exists()
    # the luck and skill split of every player: final = start value - skill loss + luck
    assert [s["name"] for s in res["splits"]] == list(names)
    for s, t in zip(res["splits"], totals):
        assert s["final"] == t and s["skill_loss"] >= 0
        assert abs(s["start_value"] - s["skill_loss"] + s["luck"] - t) < 1e-9
    # the chances by round, where the analysis layer gives them (analysis.table_review): a chart
    try:
        import yahtzee_solver.analysis.table_review  # noqa: F401
    except ImportError:
        assert res["chart"] is None
    else:
        root = ET.fromstring(res["chart"])
        assert root.get("role") == "img" and [gr.get("data-player") for gr in root.findall(SVG + "g")] == list(names)
    # review reads the games filed
    status, rev = c.get("/api/review")
    assert status == 200 and rev["review"]["final_score"] == (totals[2] if len(scores) == 3 else totals[0])
    result = run("review", str(len(scores)))
    assert result.exit_code == 0 and "Traceback" not in result.output
    # the game over: an action is refused, in the terminal coach's words
    msg = _one_line(*c.post("/api/coach/roll", {"dice": "12345"}), 409)
    assert msg == "Ann's card is full"


def test_quiet_flags_nothing(client):
    c = client
    c.ok("/api/coach/new", {"players": "Ann,Bob"})
    c.ok("/api/coach/roll", {"dice": "12555"})
    r = c.ok("/api/coach/keep", {"held": [True, False, False, False, False], "quiet": True})
    assert not any(e.get("flag") for e in r["events"])
    c.ok("/api/coach/undo")
    r = c.ok("/api/coach/keep", {"held": [True, False, False, False, False]})
    assert [e for e in r["events"] if e.get("flag")][0]["text"].startswith("that cost ")


# -- bad input: one line, the terminal's words, nothing lost -------------------------------------------------------
def _terminal_message(setup, line):
    """What the session module says to ``line`` after the lines ``setup`` (the terminal prints the same)."""
    g = CoachGame("yahtzee", ("Ann", "Bob"))
    for s in setup:
        g.roll(s) if s[0].isdigit() else g.keep(tuple(bool(int(x)) for x in s[1:]))
    with pytest.raises(YahtzeeError) as e:
        g.roll(line)
    err = e.value
    if hasattr(err, "key"):
        from yahtzee_solver.i18n import Translator

        return Translator("en")(err.key, **err.params)
    return str(err)


def _game_after(c, setup):
    """A new two-player coach game after ``setup``: rolls (``"12555"``) and keeps (``"k00111"``), in order."""
    g = c.ok("/api/coach/new", {"players": "Ann,Bob"})["game"]
    for s in setup:
        if s[0].isdigit():
            g = c.ok("/api/coach/roll", {"dice": s, "version": g["version"]})["game"]
        else:
            g = c.ok("/api/coach/keep", {"held": [x == "1" for x in s[1:]], "version": g["version"]})["game"]
    return g


@pytest.mark.parametrize("setup,dice", [
    ((), "12375"),          # impossible dice
    ((), "1255"),           # a first roll is five dice
    (("12555", "k00111"), "12346"),  # a roll that contradicts the keep
    (("12555", "k00111"), "1"),      # neither the free dice nor all five
])
def test_bad_dice_are_the_terminals_one_line_and_change_nothing(client, home, setup, dice):
    c = client
    g = _game_after(c, setup)
    saved = (home / "coach.json").read_text()
    msg = _one_line(*c.post("/api/coach/roll", {"dice": dice, "version": g["version"]}), 400)
    assert msg == _terminal_message(setup, dice)
    assert (home / "coach.json").read_text() == saved
    assert c.get("/api/coach")[1]["game"] == g  # the same game, the same version: nothing lost


@pytest.mark.parametrize("setup,dice,rule", [
    ((), "", "the first roll of a turn is five dice"),
    ((), " ", "the first roll of a turn is five dice"),
    ((), "1 2 5", "the first roll of a turn is five dice"),
    (("12555", "k00111"), "", "type the 5 dice showing or the 2 rerolled dice"),
])
def test_a_roll_refusal_quotes_the_dice_as_sent(client, home, setup, dice, rule):
    """No dice (or blanks) are quoted as sent, not as the '-' an empty keep is written as."""
    c = client
    g = _game_after(c, setup)
    msg = _one_line(*c.post("/api/coach/roll", {"dice": dice, "version": g["version"]}), 400)
    assert msg == f"invalid roll {dice!r}: {rule}"
    assert msg == _terminal_message(setup, dice)


def test_other_refusals(client, home):
    c = client
    assert _one_line(*c.post("/api/coach/new", {"players": "Ann,ann"}), 400) == "player 'Ann' is named twice"
    assert "is named twice" in _one_line(*c.post("/api/coach/new", {"players": "Ann,\uff21\uff4e\uff4e"}), 400)
    assert "invalid players" in _one_line(*c.post("/api/coach/new", {"players": "Ann,,Bob"}), 400)
    assert "at most 8" in _one_line(*c.post("/api/coach/new", {"players": ",".join("ABCDEFGHI")}), 400)
    assert "Unknown rules 'poker'" in _one_line(*c.post("/api/coach/new", {"players": "Ann", "rules": "poker"}), 400)
    assert _one_line(*c.post("/api/coach/roll", {"dice": "12345"}), 409) == "there is no coach game: start one"
    g = c.ok("/api/coach/new", {"players": "Ann,Bob"})["game"]
    assert _one_line(*c.post("/api/coach/undo", {}), 409) == "nothing to undo"
    msg = _one_line(*c.post("/api/coach/roll", {"dice": "12345", "player": "Zed"}), 400)
    assert msg == "unknown player 'Zed': the players are Ann, Bob"
    assert "Ann's turn" in _one_line(*c.post("/api/coach/roll", {"dice": "12345", "player": "Bob"}), 409)
    assert "unknown field" in _one_line(*c.post("/api/coach/roll", {"dice": "12345", "extra": 1}), 400)
    assert "invalid held" in _one_line(*c.post("/api/coach/keep", {"held": [1, 0]}), 400)
    assert _one_line(*c.post("/api/coach/score", {"box": 0}), 409) == "enter the dice rolled first"
    g = c.ok("/api/coach/roll", {"dice": "12345"})["game"]
    assert "scoring them" in _one_line(*c.post("/api/coach/keep", {"held": [True] * 5}), 400)
    assert "invalid box" in _one_line(*c.post("/api/coach/score", {"box": 13}), 400)
    g = c.ok("/api/coach/score", {"box": 0})["game"]
    g = c.ok("/api/coach/roll", {"dice": "11111"})["game"]
    assert g["current"] == 1
    c.ok("/api/coach/score", {"box": 0})
    c.ok("/api/coach/roll", {"dice": "11111"})
    msg = _one_line(*c.post("/api/coach/score", {"box": 0}), 409)  # Ann's Ones are taken: as the terminal says it
    m = CoachGame("yahtzee", ("Ann", "Bob"))
    for _ in range(2):
        m.roll("11111")
        m.score(0)
    m.roll("11111")
    with pytest.raises(YahtzeeError) as e:
        m.score(0)
    # the terminal coach's words: the engine's reason by its key, the box by its name (tui.coach._problem)
    assert msg == Translator("en").problem(e.value.problem, e.value.params, m.rules) and "Ones" in msg
    status, data = c.get("/api/coach/hint?dice=1237")
    assert "1237" in _one_line(status, data, 400)
    # an unfinished game is replaced only when asked
    status, data = c.post("/api/coach/new", {"players": "Cy"})
    assert status == 409 and data["code"] == "game_in_progress" and "Ann, Bob" in data["error"]
    assert c.ok("/api/coach/new", {"players": "Cy", "abandon": True})["game"]["players"][0]["name"] == "Cy"


def test_a_stale_version_is_409_with_the_current_game(client):
    c = client
    g = c.ok("/api/coach/new", {"players": "Ann,Bob"})["game"]
    old = g["version"]
    g = c.ok("/api/coach/roll", {"dice": "12555", "version": old})["game"]
    status, data = c.post("/api/coach/keep", {"held": [False, False, True, True, True], "version": old})
    assert status == 409 and data["code"] == "stale" and data["game"] == g
    status, data = c.get(f"/api/coach/hint?version={old}")
    assert status == 409 and data["code"] == "stale"


def test_what_if_changes_nothing(client):
    c = client
    c.ok("/api/coach/new", {"players": "Ann,Bob"})
    g = c.ok("/api/coach/roll", {"dice": "12555"})["game"]
    status, h = c.get("/api/coach/hint?dice=66666")
    assert status == 200 and h["dice"] == [6, 6, 6, 6, 6] and h["rolls_left"] == 2
    assert h["whatif"].startswith("What if the dice were 6 6 6 6 6 (rerolls left: 2)?")
    want = ranking(CoachGame("yahtzee", ("Ann",)).cards[0], (6, 6, 6, 6, 6), 2, Advisor("yahtzee"))
    assert [o["expected"] for o in h["options"]] == [o.expected for o in want[:5]]
    assert h["chances"] == {"shown": False, "text": "the chances of finishing first are shown once every card has 5 "
                                                    "or fewer open boxes"}
    assert c.get("/api/coach")[1]["game"] == g


# -- one save for both front ends -------------------------------------------------------------------------
def test_the_terminal_resumes_a_web_game_and_the_page_a_terminal_one(client, home):
    c = client
    c.ok("/api/coach/new", {"players": "Ann,Bob"})
    c.ok("/api/coach/roll", {"dice": "12555"})
    c.ok("/api/coach/keep", {"held": [False, False, True, True, True]})
    assert (home / "coach.json") == coach_path()
    game, _ = load()
    assert game.actions == [{"player": 0, "roll": [1, 2, 5, 5, 5]}, {"player": 0, "keep": [5, 5, 5]}]
    result = run("coach", "--resume", input="34\ns 5\nq\n")
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert "Ann: 15 in Fives, total 15" in result.output
    # the page reads the save the terminal wrote
    status, data = c.get("/api/coach")
    g = data["game"]
    assert g["current"] == 1 and g["players"][0]["boxes"][4] == 15 and g["phase"] == "roll"
    g = c.ok("/api/coach/roll", {"dice": "66666", "version": g["version"]})["game"]
    game, _ = load()
    assert game.actions[-1] == {"player": 1, "roll": [6, 6, 6, 6, 6]}
    # while the terminal coach holds the game, the page is refused and nothing changes
    with GameLock(home / "coach.lock"):
        status, data = c.post("/api/coach/score", {"box": 11})
        assert status == 409 and data["code"] == "coach_running" and "terminal" in data["error"]
    assert load()[0].actions == game.actions


def test_a_damaged_save_is_a_problem_not_a_game(client, home):
    c = client
    c.ok("/api/coach/new", {"players": "Ann,Bob"})
    c.ok("/api/coach/roll", {"dice": "12555"})
    data = json.loads((home / "coach.json").read_text())
    data["actions"].append({"player": 0, "roll": [7, 7]})
    (home / "coach.json").write_text(json.dumps(data))
    status, got = c.get("/api/coach")
    assert status == 200 and got["game"] is None and "damaged" in got["problem"]
    c.ok("/api/coach/new", {"players": "Cy"})  # a new game can start over it


def test_every_coach_word_is_in_every_language():
    keys = set(COACH_TEXT["en"])
    for lang in ("zh", "ja"):
        assert set(COACH_TEXT[lang]) == keys, lang
        assert all(WEB_TEXT[lang][k] == COACH_TEXT[lang][k] for k in keys)
    import re

    for k in keys:  # the same fields in each language
        fields = {lang: set(re.findall(r"\{(\w+)", COACH_TEXT[lang][k])) for lang in COACH_TEXT}
        assert fields["zh"] == fields["en"] == fields["ja"], k


# -- the chart of the chances by round --------------------------------------------------------------------------
def test_the_chance_chart_is_drawn_from_plain_data():
    rounds = [9, 10, 11, 12, 13]
    names = ["Ann", "Bob <&> \"B\"", "Chen"]
    series = [[0.2, 0.3, None, 0.5, 1.0], [0.5, 0.4, None, 0.3, 0.0], [0.3, 0.3, None, 0.2, 0.0]]
    svg = chance_chart_svg(rounds, names, series, "Chance of finishing first, by round", lambda r: f"R{r}")
    root = ET.fromstring(svg)  # well-formed, names escaped
    assert root.tag == SVG + "svg" and root.get("role") == "img"
    assert root.get("aria-label") == "Chance of finishing first, by round"
    assert root.find(SVG + "title").text == "Chance of finishing first, by round"
    assert "Ann: 100 %" in root.find(SVG + "desc").text
    groups = root.findall(SVG + "g")
    assert [gr.get("data-player") for gr in groups] == names
    assert [gr.get("class") for gr in groups] == ["player p0", "player p1", "player p2"]
    for gr, s in zip(groups, series):
        assert len(gr.findall(SVG + "polyline")) == 2  # the gap at the round not computed splits the line
        dots = gr.findall(SVG + "circle")
        assert len(dots) == sum(p is not None for p in s)
        assert all(d.find(SVG + "title").text.startswith(gr.get("data-player") + ", R") for d in dots)
        ys = [float(d.get("cy")) for d in dots]
        known = [p for p in s if p is not None]
        assert sorted(range(len(ys)), key=lambda i: ys[i]) == sorted(range(len(known)), key=lambda i: -known[i])
    labels = [t.text for t in root.findall(SVG + "text")]
    assert [x for x in labels if x.startswith("R")] == [f"R{r}" for r in rounds]
    assert {"0 %", "50 %", "100 %"} <= set(labels)
    with pytest.raises(ValueError):
        chance_chart_svg(rounds, names, series[:2], "t")
    one = ET.fromstring(chance_chart_svg([13], ["Ann"], [[1.0]], "t"))  # one round: a dot, no line
    assert not one.findall(f"{SVG}g/{SVG}polyline") and len(one.findall(f"{SVG}g/{SVG}circle")) == 1


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
@pytest.mark.parametrize("dice", ["1255", "12557", "abcde", "", "123456"])
def test_the_hints_dice_are_refused_as_the_advisor_refuses_them(client, lang, dice):
    """``/api/coach/hint?dice=`` says what ``/api/advice`` says of the same dice, in the request's language."""
    c = client
    c.ok("/api/coach/new", {"players": "Ann"})
    status, data = c.get(f"/api/coach/hint?dice={dice}&lang={lang}")
    msg = _one_line(status, data, 400)
    assert data["code"] == "bad_dice"
    status, adv = c.get(f"/api/advice?dice={dice}&rolls_left=2&lang={lang}")
    assert status == 400 and adv["code"] == "bad_dice"
    assert msg == adv["error"] == WEB_TEXT[lang]["adv.err.dice"].format(dice=repr(dice))
    assert "invalid" not in msg or lang == "en"  # no English inside zh and ja
    assert not msg.startswith(WEB_TEXT[lang]["err.dice"].partition("{")[0])  # not "invalid dice: invalid dice ..."


# -- the review page of a coach game: a player by name, as review N --player NAME --------------------------------------
def _coach_entry(names):
    """A finished yacht game of a coach's table (random legal moves, each seat its own dice), its entry."""
    from gamehelpers import table_log
    from yahtzee_solver.game import new_game
    from yahtzee_solver.play.history import HistoryEntry

    rng = np.random.default_rng(5)
    states = []
    for seat in range(len(names)):
        st = new_game("yacht", "none", seed=seat)
        while not st.is_terminal():
            acts = st.legal_actions()
            st.apply_action(acts[int(rng.integers(len(acts)))])
        states.append(st)
    log = table_log(states)
    return HistoryEntry.of_table("yacht", names, log, [st.cards[0].total for st in states])


def test_the_web_reviews_a_coach_games_players_by_name(client, home):
    """GET /api/review?player=Bob of a coach game was 400 'want you or cpu'; player=cpu showed Bob's decisions as
    'The CPU's decisions.', the third player could not be reviewed, and the header said 'seed 0'.  Now a player
    by name (as review N --player NAME): the CLI's numbers, labelled with the name, no seed."""
    from yahtzee_solver.play.history import add_entry

    names = ("Ann", "Bob", "Chen")
    entry = _coach_entry(names)
    add_entry(entry, home / "history.json")
    for asked, seat in (("Bob", 1), ("chen", 2), ("you", 0), (None, 0)):
        status, rev = client.get("/api/review?game=1" + (f"&player={asked}" if asked else ""))
        assert status == 200, rev
        assert rev["review"]["final_score"] == entry.scores[seat] and rev["player"] == names[seat], rev["player"]
        assert rev["names"] == list(names) and rev["lines"][1] == f"{names[seat]}'s decisions.", rev["lines"][:2]
        assert "seed" not in rev["lines"][0], rev["lines"][0]
        if asked == "chen":
            cli = run("review", "1", "--player", "Chen", "--no-chances", "--json")
            assert cli.exit_code == 0, cli.output
            assert rev["review"] == {k: v for k, v in json.loads(cli.output).items() if k != "table"}
    status, rev = client.get("/api/review?game=1&player=cpu")
    msg = _one_line(status, rev, 400)
    assert msg == "unknown player 'cpu': the players are Ann, Bob, Chen" and rev["code"] == "unknown_player"
    assert rev["games"][0]["number"] == 1  # the page's choice of game stays filled
    status, rev = client.get("/api/review?game=1&player=Bob&lang=ja")
    assert status == 200 and rev["lines"][1].startswith("Bob ") and "seed" not in rev["lines"][0]
