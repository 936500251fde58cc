"""The coach's page in headless Chromium: three players play a whole game by clicks, at phone and desktop width.

Needs what ``test_web_browser.py`` needs (Debian's ``chromium`` and
``chromium-driver``, the ``[browser]`` extra; axe-core from ``node_modules``),
and skips or fails as it does (``YAHTZEE_REQUIRE_BROWSER``).  The page is
checked against the server's own game (``/api/coach``), which the API tests
check against the session module.
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import test_web_browser as wb
from test_web_browser import AXE, Server, _axe, _media, fits, open_page, q, qq, shot, size, wait


driver = wb.driver  # the module's Chromium (a fixture)

pytestmark = pytest.mark.browser

NAMES = ("Ann", "Bob", "Chen")


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path)
    yield s
    s.stop()


def coach(server):
    return server.api("/api/coach")["game"]


def axe_clean(d, where, found):
    if AXE is None:
        if os.environ.get("YAHTZEE_REQUIRE_AXE"):
            pytest.fail("axe-core not found: run `npm install axe-core` in the repository folder")
        return
    found[where] = _axe(d)


def enter(d, server, faces):
    """Tap the faces on the pad and enter the roll; wait until the server has it."""
    before = coach(server)["n_actions"]
    for f in faces:
        q(d, f'#coach-pad .die[data-face="{f}"]').click()
    assert [s.get_attribute("aria-label").rsplit(" ", 1)[-1] for s in qq(d, "#coach-slots .die")] == [str(f) for f in faces]
    q(d, "#coach-enter").click()
    wait(d, lambda: coach(server)["n_actions"] == before + 1, "roll not entered")
    g = coach(server)
    wait(d, lambda: [int(b.get_attribute("data-face")) for b in qq(d, "#coach-dice .die")] == g["dice"], "dice not shown")
    return g


#: The text of every cell of the coach's scorecard, row by row, in one round trip to the browser
#: (the rendered text, as ``WebElement.text`` gives it; a call per cell made this check half of a
#: whole game's time).
CARD_TEXTS = """
const table = document.querySelector('#coach-card');
const text = (e) => e.innerText.trim();
return {heads: [...table.querySelectorAll('thead th')].slice(1).map((h) => [text(h), h.className]),
        rows: [...table.querySelectorAll('tbody tr')].map((r) => [...r.querySelectorAll('td')].map(text))};
"""


def check_card(d, g):
    """The page's scorecard is the server's: one column per player, the mover's marked."""
    card = d.execute_script(CARD_TEXTS)
    heads = card["heads"]
    assert [h.split("\n")[0].split(" (")[0] for h, _ in heads] == [p["name"] for p in g["players"]]
    if not g["over"]:
        assert ["mover" in cls.split() for _, cls in heads] == [i == g["current"] for i in range(len(heads))]
    rows = card["rows"]
    n = len(g["players"][0]["boxes"])
    box_rows = rows[:6] + rows[8:8 + n - 6]
    for c, cells in enumerate(box_rows):
        for p, cell in enumerate(cells):
            v = g["players"][p]["boxes"][c]
            if v is not None:
                assert cell == str(v), (c, p, cell, v)
    assert rows[-1] == [str(p["total"]) for p in g["players"]]


@pytest.mark.parametrize("which", ["phone", "desktop"])
def test_three_players_play_a_whole_coached_game_by_clicks(driver, server, which):
    d = driver
    size(d, which)
    found = {}
    open_page(d, server, "/coach")
    wait(d, lambda: q(d, "#coach-new").get_attribute("open") is not None, "no new-game form")
    axe_clean(d, "setup", found)
    box = q(d, "#coach-players")
    box.clear()
    box.send_keys(", ".join(NAMES))
    q(d, "#coach-start").click()
    wait(d, lambda: coach(server) is not None and q(d, "#coach-game").is_displayed(), "no game")
    rng = np.random.default_rng(7)
    turn = 0
    while not coach(server)["over"]:
        g = coach(server)
        who = g["current"]
        wait(d, lambda g=g: q(d, "#coach-status").text == g["status"], "the page does not show the server's game")
        assert NAMES[who] in g["status"] and g["phase"] == "roll"
        faces = [int(x) for x in rng.integers(1, 7, 5)]
        if turn == 1:  # a refused line keeps what was typed, and says why in the terminal's words
            q(d, "#coach-typed").send_keys("1255")
            q(d, "#coach-enter").click()
            wait(d, lambda: q(d, "#error").is_displayed())
            assert "the first roll of a turn is five dice" in q(d, "#error").text
            assert q(d, "#coach-typed").get_attribute("value") == "1255" and coach(server)["n_actions"] == g["n_actions"]
        # faces tapped after a refused typed roll are the roll (the typed text gives way to them)
        g = enter(d, server, faces)
        if turn % 4 == 0:  # keep the first two dice and enter the reroll of the other three
            for i in (0, 1):
                q(d, f'#coach-dice .die[data-i="{i}"]').click()
            before = g["n_actions"]
            q(d, "#coach-keep").click()
            wait(d, lambda b=before: coach(server)["n_actions"] == b + 1 and q(d, "#coach-entry").is_displayed(), "no keep")
            assert coach(server)["phase"] == "reroll" and len(qq(d, "#coach-slots .die")) == 3
            g = enter(d, server, [int(x) for x in rng.integers(1, 7, 3)])
        if turn in (0, 30):  # advice: at the start only the ranking; in the end game every player's chance
            q(d, "#coach-advice").click()
            wait(d, lambda: q(d, "#coach-hint").is_displayed() and qq(d, "#coach-hint tr.best"), "no advice")
            notes = q(d, "#coach-hint").text
            if turn == 0:
                assert "shown once every card has 5 or fewer open boxes" in notes
            else:
                ps = [float(li.get_attribute("data-p")) for li in qq(d, "#coach-hint ul.chances li")]
                assert len(ps) == 3 and abs(sum(ps) - 1) < 1e-9
                assert "every player modelled as expert" in notes
                fits(d)
                shot(d, f"coach-{which}-advice")
                axe_clean(d, "advice", found)
        check_card(d, coach(server))
        # score in the first open box of the mover's column (usually a mistake: the page says what it cost)
        before = coach(server)["n_actions"]
        q(d, "#coach-card button[data-box]").click()
        wait(d, lambda b=before: coach(server)["n_actions"] == b + 1, "box not scored")
        turn += 1
        if turn == 2:
            wait(d, lambda: qq(d, "#coach-events li"))
            assert any("that cost" in li.text for li in qq(d, "#coach-events li.flag"))
            # undo the score and score it again
            q(d, "#coach-undo").click()
            wait(d, lambda b=before: coach(server)["n_actions"] == b, "not undone")
            wait(d, lambda: "undone:" in q(d, "#coach-events").text)
            q(d, "#coach-card button[data-box]").click()
            wait(d, lambda b=before: coach(server)["n_actions"] == b + 1, "box not scored again")
    assert turn == 3 * 13
    # the end: the review of every player (with the chances by round, seconds of computing) comes with the reply
    wait(d, lambda: q(d, "#coach-result").is_displayed() and not qq(d, "#coach-result .pending"), "no end screen",
         timeout=300)
    g = coach(server)
    assert not g["result"]["pending"]
    res = q(d, "#coach-result")
    places = [li.text for li in res.find_elements("css selector", "ul.places li")]
    assert places == g["result"]["lines"] and len(places) == 3
    splits = [li.text for li in res.find_elements("css selector", "ul.splits li")]
    assert [s.split(":")[0] for s in splits] == list(NAMES)
    links = res.find_elements("css selector", "ul.review-links a")
    assert [a.get_attribute("href").rsplit("=", 1)[1] for a in links] == [str(n) for n in g["result"]["numbers"]]
    assert len(links) in (1, 3)  # one game per player in the history, or one game of the table
    if g["result"]["chart"]:  # the chances by round (analysis.table_review): the chart, with its caption and legend
        assert q(d, "#coach-result figure svg.chance-chart").get_attribute("role") == "img"
        assert [li.text for li in qq(d, "#coach-result .chart-legend li")] == list(NAMES)
    check_card(d, g)
    fits(d)
    shot(d, f"coach-{which}-over")
    axe_clean(d, "over", found)
    _media(d, prefers_color_scheme="dark")
    axe_clean(d, "over dark", found)
    _media(d)
    bad = {k: v for k, v in found.items() if v}
    assert not bad, json.dumps(bad, ensure_ascii=False, indent=1)[:4000]
    links[-1].click()  # the review of the last game filed, as yahtzee-solve review N
    wait(d, lambda: qq(d, "#review-table tbody tr") and "/review" in d.current_url, "no review")


@pytest.mark.parametrize("lang", ["zh", "ja"])
def test_the_coach_page_speaks_each_language_and_axe_finds_nothing(driver, tmp_path, lang):
    from yahtzee_solver.web.app import TOKEN_HEADER
    from yahtzee_solver.web.text import WEB_TEXT

    d = driver
    s = Server(tmp_path, lang=lang)
    found = {}
    try:
        c = s.app.test_client()
        head = {TOKEN_HEADER: s.app.config["TOKEN"]}
        for path, body in (("/api/coach/new", {"players": "Ann,Bob,Chen"}), ("/api/coach/roll", {"dice": "12555"}),
                           ("/api/coach/keep", {"held": [False, True, True, True, True]})):
            assert c.post(path, json=body, headers=head).status_code == 200
        for which in ("desktop", "phone"):
            size(d, which)
            for scheme in ("light", "dark"):
                _media(d, prefers_color_scheme=scheme)
                open_page(d, s, "/coach")
                wait(d, lambda: q(d, "#coach-entry").is_displayed(), "no entry")
                assert q(d, "#nav-coach").text == WEB_TEXT[lang]["nav.coach"]
                assert q(d, "#coach-enter").text == WEB_TEXT[lang]["coach.enter"]
                assert q(d, "#coach-status").text == s.api(f"/api/coach?lang={lang}")["game"]["status"]
                q(d, "#coach-advice").click()
                wait(d, lambda: qq(d, "#coach-hint tr.best"), "no advice")
                fits(d)
                axe_clean(d, (which, scheme), found)
                if scheme == "light":
                    shot(d, f"coach-{which}-{lang}")
    finally:
        _media(d)
        s.stop()
    bad = {" ".join(k): v for k, v in found.items() if v}
    assert not bad, json.dumps(bad, ensure_ascii=False, indent=1)[:4000]
