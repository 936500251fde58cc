"""The web page in headless Chromium, driven by Selenium, at desktop and phone widths.

Needs Debian's ``chromium`` and ``chromium-driver`` (``/usr/bin/chromium``,
``/usr/bin/chromedriver``; ``$CHROMIUM`` / ``$CHROMEDRIVER`` to use others) and
the ``[browser]`` extra; without them every test here is skipped with the
reason, except under ``.ci/run`` (``YAHTZEE_REQUIRE_BROWSER=1``), where a
missing browser fails.  Screenshots go to ``$WEB_ARTIFACTS``
(default ``test-artifacts/browser``).

The page is checked against the server's own state: the dice, previews and
cards it shows must be what the API says, which the API tests check against
the engine.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

if os.environ.get("YAHTZEE_REQUIRE_BROWSER"):  # under .ci/run a missing extra is an error, not a skip
    import flask  # noqa: F401
    import selenium.webdriver  # noqa: F401
pytest.importorskip("flask", reason="the browser tests need the [web] extra (Flask)")
webdriver = pytest.importorskip("selenium.webdriver", reason="the browser tests need the [browser] extra (selenium)")

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from yahtzee_solver import Advisor  # noqa: E402
from yahtzee_solver.web.app import create_app  # noqa: E402
from yahtzee_solver.web.text import WEB_TEXT  # noqa: E402

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
ARTIFACTS = Path(os.environ.get("WEB_ARTIFACTS", "test-artifacts/browser"))
WAIT = 20  # seconds: the machine may be busy


def _missing() -> str | None:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (os.path.exists(path) or shutil.which(path)):
            return f"{path} not found: apt-get install chromium chromium-driver"
    return None


@pytest.fixture(scope="module")
def driver():
    why = _missing()
    if why:
        if os.environ.get("YAHTZEE_REQUIRE_BROWSER"):  # set by .ci/run: CI must run these tests
            pytest.fail(why)
        pytest.skip(why)
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="yahtzee-chromium-")
    opts = Options()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--lang=en-US", f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    try:
        d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    except WebDriverException as e:
        shutil.rmtree(profile, ignore_errors=True)
        why = f"chromium could not start: {str(e).splitlines()[0]}"
        if os.environ.get("YAHTZEE_REQUIRE_BROWSER"):
            pytest.fail(why)
        pytest.skip(why)
    yield d
    d.quit()
    shutil.rmtree(profile, ignore_errors=True)


class Server:
    """The app on a real HTTP port in a thread, on its own data folder."""

    def __init__(self, home: Path, lang=None):
        self.home = home
        self.app = create_app(game_file=home / "game.json", records_file=home / "records.json", lang=lang)
        self.httpd = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def api(self, path):
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            return json.loads(r.read())

    def game(self):
        return self.api("/api/game")["game"]

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path)
    yield s
    s.stop()


def shot(d, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    d.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def size(d, which):
    w, h = SIZES[which]
    d.set_window_size(w, h)
    # the viewport, not the window, must be the stated width
    inner = d.execute_script("return window.innerWidth")
    if inner != w:
        d.set_window_size(w + (w - inner), h)


def fits(d):
    """Nothing sticks out sideways: no horizontal scrolling at this width."""
    over = d.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert over <= 0, f"the page is {over} px wider than the window"


#: Seconds between two checks of a waited-for condition (selenium's default is 0.5 s, which a
#: whole game's few hundred waits would spend asleep).
POLL = 0.05


def wait(d, cond, msg="", timeout=None):
    # the page redraws whole parts: an element found a moment ago may be gone
    return WebDriverWait(d, WAIT if timeout is None else timeout, poll_frequency=POLL,
                         ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda _: cond(), message=msg)


def q(d, css):
    return d.find_element(By.CSS_SELECTOR, css)


def qq(d, css):
    return d.find_elements(By.CSS_SELECTOR, css)


def open_page(d, server, path="/"):
    d.get(server.url + path)
    wait(d, lambda: "ready" in q(d, "body").get_attribute("class"), "page did not start")


def idle(d, server):
    """Wait until the page has drawn the server's current game and is not busy."""
    def done():
        g = server.game()
        if g is None:
            return False
        if g["cpu_turn"]:
            return False
        if g["over"]:
            return q(d, "#result").is_displayed()
        dice = [b.get_attribute("data-face") for b in qq(d, "#dice .die")]
        want = [str(x) for x in g["dice"]] if g["dice"] else ["0"] * 5
        return dice == want and q(d, "#hint").is_enabled()
    wait(d, done, "page never became idle")
    return server.game()


def start_game(d, server, opponent="none", first="me", seed=1, rules="yahtzee"):
    """Start a game from the form; ``seed`` ``None`` leaves the seed box empty (a secret seed: unaided play)."""
    # (opened by script: the page itself opens it when there is no game, and a click could close it again)
    wait(d, lambda: q(d, "#new-game").is_displayed(), "no new-game form")
    d.execute_script("document.getElementById('new-game').open = true;"
                     "document.getElementById('new-rules').value = arguments[0];"
                     "const o = document.getElementById('new-opponent'); o.value = arguments[1];"
                     "o.dispatchEvent(new Event('change'));"
                     "document.getElementById('new-first').value = arguments[2];", rules, opponent, first)
    seed_box = q(d, "#new-seed")
    seed_box.clear()
    if seed is not None:
        seed_box.send_keys(str(seed))
    q(d, "#new-start").click()
    want = None if seed is None else str(seed)
    wait(d, lambda: server.game() is not None and server.game()["seed"] == want and server.game()["round"] == 1
         and server.game()["practice"] == (seed is not None), "no game started")


def click_roll(d, server):
    before = server.game()["rolls_used"]
    # the server may hold the new game before the page has drawn it (the button not yet shown): wait for the page
    wait(d, lambda: q(d, "#roll").is_displayed() and q(d, "#roll").is_enabled(), "the roll button is not ready")
    q(d, "#roll").click()
    wait(d, lambda: server.game()["rolls_used"] == before + 1, "roll did not happen")
    return idle(d, server)


def shown_dice(d):
    return [int(b.get_attribute("data-face")) for b in qq(d, "#dice .die")]


def score_box(d, server, box):
    """Click a box; confirm a zero in the dialog when it opens."""
    turns_before = len([v for v in server.game()["players"][0]["boxes"] if v is not None])
    q(d, f'#card button[data-box="{box}"]').click()
    dialog = q(d, "#zero-dialog")
    wait(d, lambda: dialog.get_attribute("open") is not None
         or len([v for v in server.game()["players"][0]["boxes"] if v is not None]) > turns_before)
    if dialog.get_attribute("open") is not None:
        q(d, "#zero-ok").click()
    wait(d, lambda: len([v for v in server.game()["players"][0]["boxes"] if v is not None]) > turns_before,
         "box not scored")


#: The rendered text of every cell of a table's body, row by row, in one round trip to the
#: browser (``WebElement.text`` asked cell by cell took a few seconds a scorecard).
TABLE_TEXTS = """
return [...document.querySelectorAll(arguments[0] + ' tbody tr')].map(
    (r) => [...r.querySelectorAll('td')].map((c) => c.innerText.trim()));
"""


def table_texts(d, css):
    """The text of each ``td`` of each body row of the table ``css``."""
    return d.execute_script(TABLE_TEXTS, css)


def check_card(d, g):
    """The scorecard cells the page shows are the server's cards."""
    rows = table_texts(d, "#card")
    n = len(g["players"][0]["boxes"])
    upper = 6
    box_rows = rows[:upper] + rows[upper + 2: upper + 2 + n - upper]
    for c, row in enumerate(box_rows):
        cells = row[1:]
        for p, cell in enumerate(cells):
            v = g["players"][p]["boxes"][c]
            if v is not None:
                assert cell == str(v), (c, p, cell, v)
    assert rows[-1][1:] == [str(p["total"]) for p in g["players"]]


# -- a whole game --------------------------------------------------------------------------
@pytest.mark.parametrize("which,opponent", [("desktop", "expert"), ("phone", "none")])
def test_whole_seeded_game_by_clicking_with_hints(driver, server, which, opponent):
    d = driver
    size(d, which)
    open_page(d, server)
    start_game(d, server, opponent=opponent, first="me", seed=4242)
    if not q(d, "#fast").is_selected():
        q(d, "#fast").click()
    adv = Advisor("yahtzee", jit=False)
    g = idle(d, server)
    turn = 0
    while not g["over"]:
        turn += 1
        g = click_roll(d, server)
        assert shown_dice(d) == g["dice"]
        while True:
            q(d, "#hint").click()
            wait(d, lambda: q(d, "#hint-panel").is_displayed() and qq(d, "#hint-panel tr.best"))
            best = q(d, "#hint-panel tr.best")
            if g["rolls_used"] < 3 and best.get_attribute("data-held"):
                want = json.loads(best.get_attribute("data-held"))
                for i in range(5):
                    if want[i] != g["held"][i]:
                        q(d, f'#dice .die[data-i="{i}"]').click()
                        wait(d, lambda i=i, want=want: server.game()["held"][i] == want[i])
                        g = idle(d, server)
                # the page holds exactly what the advisor says is best
                keep = sorted(x for x, h in zip(g["dice"], g["held"]) if h)
                assert keep == list(adv.keep_options(_card(g), sorted(g["dice"]),
                                                     3 - g["rolls_used"])[0].keep)
                g = click_roll(d, server)
                if turn == 2 and g["locked"]:
                    shot(d, f"game-{which}-locked")
                continue
            box = int(best.get_attribute("data-box") or q(d, "#hint-panel tr.then").get_attribute("data-box"))
            if turn == 3:
                fits(d)
                shot(d, f"game-{which}-hint")
            score_box(d, server, box)
            break
        g = idle(d, server)
        check_card(d, g)
    assert turn == 13
    assert q(d, "#result").is_displayed()
    assert str(g["players"][0]["total"]) in q(d, "#result").text
    fits(d)
    shot(d, f"game-{which}-over")
    assert "(practice)" in q(d, "#game-title").text  # a chosen seed and hints
    # the records page shows the game, apart from unaided play
    q(d, "#nav-records").click()
    wait(d, lambda: qq(d, "#records-practice tbody tr"))
    assert not qq(d, "#records-unaided") and "Practice" in q(d, "#records h2").text
    cells = [c.text for c in q(d, "#records-practice tbody tr").find_elements(By.CSS_SELECTOR, "td")]
    assert cells[2] == "1" and cells[3] == str(g["players"][0]["total"])


def _card(g):
    from yahtzee_solver.rules import get_rules
    from yahtzee_solver.state import ScoreCard

    r = get_rules(g["rules"])
    boxes = {c.slug: v for c, v in zip(r.categories, g["players"][0]["boxes"])}
    return ScoreCard.from_mapping({**boxes, "yahtzee-bonus": g["players"][0]["yahtzee_bonus"]}, r)


# -- preview, zero dialog, auto-lock, reload ----------------------------------------------------
@pytest.mark.parametrize("which", ["desktop", "phone"])
def test_preview_zero_dialog_lock_and_reload(driver, server, which):
    d = driver
    size(d, which)
    open_page(d, server)
    start_game(d, server, opponent="beginner", first="me", seed=11)
    g = click_roll(d, server)
    pv = g["preview"]
    buttons = {int(b.get_attribute("data-box")): b for b in qq(d, "#card button[data-box]")}
    assert sorted(buttons) == [c for c in range(13) if pv["legal"][c]]
    for c, b in buttons.items():
        assert b.text == str(pv["points"][c])
        assert ("zero" in b.get_attribute("class")) == (pv["points"][c] == 0)
    fits(d)
    shot(d, f"game-{which}-preview")
    # the zero dialog: cancel keeps the box open, confirm writes 0
    zero = next(c for c in range(13) if pv["zero"][c])
    buttons[zero].click()
    dialog = q(d, "#zero-dialog")
    wait(d, lambda: dialog.get_attribute("open") is not None, "no zero dialog")
    assert "0" in q(d, "#zero-text").text
    shot(d, f"game-{which}-zero-dialog")
    q(d, "#zero-cancel").click()
    wait(d, lambda: dialog.get_attribute("open") is None)
    assert server.game()["players"][0]["boxes"][zero] is None
    q(d, f'#card button[data-box="{zero}"]').click()
    wait(d, lambda: dialog.get_attribute("open") is not None)
    q(d, "#zero-ok").click()
    wait(d, lambda: server.game()["players"][0]["boxes"][zero] == 0, "zero not scored")
    g = idle(d, server)  # the CPU has played its turn
    assert g["players"][1]["total"] >= 0 and not g["cpu_turn"]
    # three rolls: the dice lock, the roll button too
    for _ in range(3):
        g = click_roll(d, server)
        assert shown_dice(d) == g["dice"]
    assert g["locked"]
    assert not q(d, "#roll").is_enabled()
    assert all(not b.is_enabled() for b in qq(d, "#dice .die"))
    # a reload mid-turn shows the same dice, and the server keeps them
    d.refresh()
    wait(d, lambda: "ready" in q(d, "body").get_attribute("class"))
    g2 = idle(d, server)
    assert g2["dice"] == g["dice"] and g2["rolls_used"] == 3
    assert shown_dice(d) == g["dice"]
    assert not q(d, "#roll").is_enabled()


def test_reload_between_rolls_and_server_restart_keep_the_dice(driver, tmp_path):
    d = driver
    size(d, "desktop")
    s1 = Server(tmp_path)
    try:
        open_page(d, s1)
        start_game(d, s1, seed=77)
        g = click_roll(d, s1)
        q(d, '#dice .die[data-i="0"]').click()
        wait(d, lambda: s1.game()["held"][0])
        g = s1.game()
    finally:
        s1.stop()
    s2 = Server(tmp_path)  # a restarted server: a new port, a new token, the same saved game
    try:
        open_page(d, s2)
        g2 = idle(d, s2)
        assert g2["dice"] == g["dice"] and g2["held"] == g["held"]
        assert shown_dice(d) == g["dice"]
        assert "held" in q(d, '#dice .die[data-i="0"]').get_attribute("class")
    finally:
        s2.stop()


# -- keyboard -----------------------------------------------------------------------------------
def test_keyboard_play(driver, server):
    d = driver
    size(d, "desktop")
    open_page(d, server)
    start_game(d, server, seed=5)
    body = q(d, "body")
    q(d, "#game-title").click()  # focus leaves the form
    body.send_keys("r")
    wait(d, lambda: server.game()["rolls_used"] == 1)
    idle(d, server)
    body.send_keys("2")
    wait(d, lambda: server.game()["held"] == [False, True, False, False, False])
    idle(d, server)
    body.send_keys("h")
    wait(d, lambda: q(d, "#hint-panel").is_displayed())
    body.send_keys("s")
    first = q(d, "#card button[data-box]")
    wait(d, lambda: d.switch_to.active_element == first)
    d.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    second = qq(d, "#card button[data-box]")[1]
    assert d.switch_to.active_element == second
    box = int(second.get_attribute("data-box"))
    d.switch_to.active_element.send_keys(Keys.ENTER)
    dialog = q(d, "#zero-dialog")
    wait(d, lambda: dialog.get_attribute("open") is not None or server.game()["players"][0]["boxes"][box] is not None)
    if dialog.get_attribute("open") is not None:
        q(d, "#zero-ok").send_keys(Keys.ENTER)
    wait(d, lambda: server.game()["players"][0]["boxes"][box] is not None)
    # a new game over this one asks first, and counts it as abandoned
    q(d, "#new-game summary").click()
    seed_box = q(d, "#new-seed")
    seed_box.clear()
    seed_box.send_keys("6")
    q(d, "#new-start").click()
    abandon = q(d, "#abandon-dialog")
    wait(d, lambda: abandon.get_attribute("open") is not None, "no abandon dialog")
    assert server.game()["seed"] == "5"
    q(d, "#abandon-ok").click()
    wait(d, lambda: server.game()["seed"] == "6" and server.game()["round"] == 1)
    rows = server.api("/api/records")["records"]
    assert [(r["practice"], r["abandoned"]) for r in rows] == [(True, 1)]


def test_a_hint_makes_an_unaided_game_practice(driver, server):
    d = driver
    open_page(d, server)
    start_game(d, server, opponent="normal", first="me", seed=None)
    assert "(practice)" not in q(d, "#game-title").text
    click_roll(d, server)
    q(d, "#hint").click()
    warn = q(d, "#hint-warn-dialog")  # the first hint asks first
    wait(d, lambda: warn.get_attribute("open") is not None, "the first hint does not warn")
    q(d, "#hint-warn-ok").click()
    wait(d, lambda: q(d, "#hint-panel").is_displayed() and qq(d, "#hint-panel tr.best"))
    wait(d, lambda: "(practice)" in q(d, "#game-title").text, "the title does not say practice")
    assert any("practice" in li.text for li in qq(d, "#events li"))
    assert server.game()["practice"] and server.game()["seed"] is None
    # abandoning it counts a loss in the practice records; the records page shows it there only
    q(d, "#new-game summary").click()
    q(d, "#new-seed").clear()
    q(d, "#new-start").click()
    abandon = q(d, "#abandon-dialog")
    wait(d, lambda: abandon.get_attribute("open") is not None, "no abandon dialog")
    assert "loss" in q(d, "#abandon-text").text
    q(d, "#abandon-ok").click()
    wait(d, lambda: server.game()["rolls_used"] == 0 and not server.game()["practice"], "no new game")
    q(d, "#nav-records").click()
    wait(d, lambda: qq(d, "#records-practice tbody tr"))
    assert not qq(d, "#records-unaided")
    cells = [c.text for c in q(d, "#records-practice tbody tr").find_elements(By.CSS_SELECTOR, "td")]
    assert cells[2] == "0" and cells[6] == "1"  # no game finished, one loss (a forfeit)


# -- the chances of winning in the hint ------------------------------------------------------------------
def _post(server, path, body=None):
    from yahtzee_solver.web.app import TOKEN_HEADER

    req = urllib.request.Request(server.url + path, data=json.dumps(body or {}).encode(), method="POST",
                                 headers={"Content-Type": "application/json", TOKEN_HEADER: server.app.config["TOKEN"]})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())["game"]


def _hint(server):
    from yahtzee_solver.web.app import TOKEN_HEADER

    req = urllib.request.Request(server.url + "/api/game/hint", data=b"{}", method="POST",
                                 headers={"Content-Type": "application/json", TOKEN_HEADER: server.app.config["TOKEN"]})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


@pytest.mark.parametrize("which", ["desktop", "phone"])
def test_hint_shows_the_chances_of_winning(driver, server, which):
    """Late in a game against the CPU the hint table has a column with each option's chance, the best starred.

    Seed 46, both sides playing the expert to four open boxes: after the roll (3 3 3 6 6) the best chance
    keeps all five dice (then the box it names), the best expected total keeps 6 6.
    """
    from webhelpers import expert_until

    d = driver
    size(d, which)
    open_page(d, server)
    expert_until(lambda path, body: _post(server, path, body), 46, 4)
    d.execute_script("localStorage.setItem('yahtzee-hint-open', '1')")  # the player keeps the panel open
    open_page(d, server)
    idle(d, server)
    q(d, "#hint").click()  # before the roll: the chance from here
    wait(d, lambda: q(d, "#hint-panel").is_displayed() and qq(d, "#hint-panel .win-note"))
    want = _hint(server)["win"]
    assert [p.text for p in qq(d, "#hint-panel .win-note")] == [want["text"], want["note"]]
    click_roll(d, server)
    q(d, "#hint").click()
    wait(d, lambda: qq(d, "#hint-panel td.win"), "no chances in the hint")
    d.execute_script("document.getElementById('hint-panel').open = true")  # folded on a phone
    hint = _hint(server)
    assert "chance to win" in q(d, "#hint-panel thead").text
    rows = qq(d, "#hint-panel tbody tr:not(.then)")
    shown = [i for i in range(len(hint["options"])) if i < 6 or i == hint["win"]["best"]]
    assert len(rows) == len(shown) and hint["win"]["best"] != 0
    for i, row in zip(shown, rows):
        o = hint["options"][i]
        cells = [c.text for c in row.find_elements(By.CSS_SELECTOR, "td")]
        best = i == hint["win"]["best"]
        assert cells[0] == o["text"] and cells[-1] == ("★ " if best else "") + o["win_text"]
        assert ("win-best" in (row.get_attribute("class") or "")) == best
        assert ("best" in (row.get_attribute("class") or "").split()) == (i == 0)
    # the box that keeping all five leads to, right under that option
    then = q(d, "#hint-panel tr.then.win-best")
    assert int(then.get_attribute("data-box")) == hint["win_then"]["box"]
    assert then.text.endswith("★ " + hint["win_then"]["win_text"])
    assert [p.text for p in qq(d, "#hint-panel .win-note")] == [hint["win"]["caption"], hint["win"]["note"]]
    # the star is not on the first row, whose dice are outlined: the panel says why
    assert q(d, "#hint-panel .star-note").text == WEB_TEXT["en"]["hint.star_apart"]
    more = WEB_TEXT["en"]["hint.more"].format(shown=len(shown), n=len(hint["options"]))
    assert q(d, "#hint-panel .more").text == more
    assert q(d, "#hint-panel thead th").text == WEB_TEXT["en"]["hint.option"]
    fits(d)
    d.execute_script("document.getElementById('hint-panel').scrollIntoView()")
    shot(d, f"game-{which}-win-hint")
    d.execute_script("localStorage.removeItem('yahtzee-hint-open')")


# -- the advisor page, rules, languages ------------------------------------------------------------------
@pytest.mark.parametrize("which", ["desktop", "phone"])
def test_advisor_page_and_shared_link(driver, server, which):
    d = driver
    size(d, which)
    card = "sixes=18,fours=12,chance=22,yahtzee=50"
    open_page(d, server, f"/advisor?rules=yahtzee&card={card.replace('=', '%3D')}&dice=22555&r=2")
    wait(d, lambda: qq(d, "#adv-table tbody tr"))
    want = Advisor("yahtzee", jit=False).keep_options(card, "22555", 2)
    rows = qq(d, "#adv-table tbody tr")
    assert len(rows) == len(want)
    first = [c.text for c in rows[0].find_elements(By.CSS_SELECTOR, "td")]
    assert first[0] == " ".join(map(str, want[0].keep)) and first[2] == f"{want[0].expected:.2f}"
    fits(d)
    shot(d, f"advisor-{which}")
    # type a box's points: the answer and the link follow
    fives = q(d, '#adv-card input[data-slug="fives"]')
    fives.send_keys("15")
    want = Advisor("yahtzee", jit=False).keep_options(card + ",fives=15", "22555", 2)
    wait(d, lambda: q(d, "#adv-table tbody tr td:nth-child(3)").text == f"{want[0].expected:.2f}")
    assert "fives%3D15" in q(d, "#adv-share").get_attribute("href")
    q(d, "#adv-rolls").send_keys("0")
    wait(d, lambda: "Points" in q(d, "#adv-table thead").text)
    best = Advisor("yahtzee", jit=False).box_options(card + ",fives=15", "22555")[0]
    assert q(d, "#adv-table tbody tr td").text == best.name


def test_rules_page_and_language(driver, tmp_path):
    d = driver
    size(d, "phone")
    s = Server(tmp_path, lang="zh")
    try:
        open_page(d, s, "/rules")
        wait(d, lambda: qq(d, "#rules-pages pre"))
        from yahtzee_solver.i18n import Translator
        from yahtzee_solver.rules import get_rules

        pages = Translator("zh").rules_pages(get_rules("yahtzee"))
        assert [p.text for p in qq(d, "#rules-pages pre")][0] == pages[0].strip()
        assert q(d, "#nav-game").text == "游戏"
        q(d, "#nav-game").click()
        start_game(d, s, seed=3)
        idle(d, s)
        assert "葫芦" in q(d, "#card").text
        shot(d, "game-phone-zh")
    finally:
        s.stop()


# -- seeds, stale tabs, focus, quick input, long requests ---------------------------------------------------
BIG_SEED = "10112111678107648435"  # a 64-bit seed: more digits than a JavaScript number keeps


def test_a_64_bit_seed_keeps_every_digit(driver, server):
    from yahtzee_solver.game import Roll, new_game

    d = driver
    size(d, "desktop")
    open_page(d, server)
    start_game(d, server, seed=BIG_SEED)
    assert server.game()["seed"] == BIG_SEED
    g = click_roll(d, server)
    want = new_game("yahtzee", "none", "me", int(BIG_SEED))
    want.apply_action(Roll())
    assert g["dice"] == list(want.dice) == shown_dice(d)


def test_a_stale_tab_is_told_and_shows_the_current_game(driver, server):
    """Tab A (the page) shows the dice; tab B (here, the API) rolls again; A's click on a box is refused."""
    d = driver
    size(d, "desktop")
    open_page(d, server)
    start_game(d, server, seed=12)
    g = click_roll(d, server)
    other = _post(server, "/api/game/roll", {})  # the other tab
    assert other["dice"] != g["dice"] or other["rolls_used"] != g["rolls_used"]
    box = next(c for c in range(13) if g["preview"]["legal"][c] and not g["preview"]["zero"][c])
    q(d, f'#card button[data-box="{box}"]').click()
    wait(d, lambda: q(d, "#notice").is_displayed() and "another tab" in q(d, "#notice").text, "no word of the other tab")
    assert not q(d, "#error").is_displayed()
    g = idle(d, server)
    assert g["players"][0]["boxes"][box] is None and g["rolls_used"] == 2
    assert shown_dice(d) == g["dice"]
    # and the page plays on
    q(d, f'#card button[data-box="{box}"]').click()
    wait(d, lambda: server.game()["players"][0]["boxes"][box] is not None, "the page does not play on")


def test_a_second_tab_on_a_cpu_game_never_plays_the_cpu_too(driver, server):
    d = driver
    size(d, "desktop")
    open_page(d, server)
    d.execute_script("localStorage.removeItem('yahtzee-fast'); document.getElementById('fast').checked = false;")
    start_game(d, server, opponent="normal", first="cpu", seed=21)
    # the page plays the CPU's steps slowly (no fast CPU); the other tab plays the turn out meanwhile
    g = server.game()
    while g["cpu_turn"]:
        try:
            g = _post(server, "/api/game/cpu", {"version": g["version"]})
        except urllib.error.HTTPError as e:
            assert e.code == 409
            g = json.loads(e.read())["game"]
    g = idle(d, server)  # the page is not stuck on "CPU is playing"
    assert q(d, "#roll").is_enabled() and not q(d, "#error").is_displayed()
    assert server.game()["players"][1]["total"] == g["players"][1]["total"]
    assert len([v for v in g["players"][1]["boxes"] if v is not None]) == 1  # one CPU turn, played once
    click_roll(d, server)


def test_focus_stays_and_quick_input_holds_both_dice(driver, server):
    d = driver
    size(d, "desktop")
    open_page(d, server)
    start_game(d, server, seed=5)
    click_roll(d, server)
    die = q(d, '#dice .die[data-i="2"]')
    die.send_keys(Keys.SPACE)
    wait(d, lambda: server.game()["held"][2], "Space did not hold the die")
    idle(d, server)
    active = d.switch_to.active_element
    assert active.get_attribute("data-i") == "2", "the focus left the die"
    # quick input: 2 then 4 at once holds both
    q(d, "#game-title").click()
    q(d, "body").send_keys("24")
    wait(d, lambda: server.game()["held"] == [False, True, True, True, False], "quick input was dropped")
    idle(d, server)
    # Enter on a box scores it; the focus goes to the next thing to do, the roll button
    b = q(d, "#card button[data-box]:not(.zero)")
    box = int(b.get_attribute("data-box"))
    b.send_keys(Keys.ENTER)
    wait(d, lambda: server.game()["players"][0]["boxes"][box] is not None)
    idle(d, server)
    assert d.switch_to.active_element.get_attribute("id") == "roll", "the focus went back to the page top"


def test_a_long_request_says_computing_and_input_meanwhile_is_kept(driver, server, monkeypatch):
    import time

    from yahtzee_solver.web.service import GameService

    real = GameService._hint

    def slow(self, *a, **kw):
        time.sleep(1.5)
        return real(self, *a, **kw)

    monkeypatch.setattr(GameService, "_hint", slow)
    d = driver
    size(d, "desktop")
    open_page(d, server)
    start_game(d, server, seed=5)
    click_roll(d, server)
    q(d, "#hint").click()
    wait(d, lambda: q(d, "#computing").is_displayed(), "no computing state")
    assert server.game()["dice"] is not None  # the other requests go through meanwhile
    q(d, "#game-title").click()
    q(d, "body").send_keys("1")  # during the hint
    wait(d, lambda: server.game()["held"][0], "the input during the hint was dropped")
    wait(d, lambda: not q(d, "#computing").is_displayed(), "computing stays on")
    assert server.game()["practice"]  # the hint was given, then the hold applied


# -- the smaller faults ------------------------------------------------------------------------------------
def test_the_abandon_question_is_no_error(driver, server):
    d = driver
    size(d, "desktop")
    open_page(d, server)
    start_game(d, server, seed=5)
    click_roll(d, server)
    q(d, "#new-game summary").click()
    q(d, "#new-start").click()
    abandon = q(d, "#abandon-dialog")
    wait(d, lambda: abandon.get_attribute("open") is not None, "no abandon dialog")
    assert not q(d, "#error").is_displayed(), "the question shows as an error too"
    q(d, "#abandon-cancel").click()
    wait(d, lambda: abandon.get_attribute("open") is None)
    assert not q(d, "#error").is_displayed() and server.game()["rolls_used"] == 1


def test_an_edited_save_is_a_note_once_not_an_error(driver, tmp_path):
    d = driver
    size(d, "desktop")
    s1 = Server(tmp_path)
    try:
        _post(s1, "/api/game/new", {})
        _post(s1, "/api/game/roll", {})
    finally:
        s1.stop()
    g = json.loads((tmp_path / "game.json").read_text())
    g["cards"][0]["sixes"] = 30
    (tmp_path / "game.json").write_text(json.dumps(g))
    s2 = Server(tmp_path)
    try:
        open_page(d, s2)
        wait(d, lambda: q(d, "#notice").is_displayed(), "the page does not say what the start found")
        assert "failed verification" in q(d, "#notice").text
        assert not q(d, "#error").is_displayed()
        open_page(d, s2)  # the next visit
        assert not q(d, "#notice").is_displayed() and not q(d, "#error").is_displayed()
    finally:
        s2.stop()


def test_the_page_speaks_the_language_chosen(driver, tmp_path):
    from yahtzee_solver.rules import get_rules
    from yahtzee_solver.web.service import WebTranslator

    d = driver
    size(d, "desktop")
    s = Server(tmp_path, lang="ja")
    try:
        open_page(d, s)
        assert q(d, "label:has(#new-seed) span").text == WEB_TEXT["ja"]["new.seed"]
        # an advisor link with a parameter of its own opens, and its refusal is in Japanese
        open_page(d, s, "/advisor?rules=yahtzee&card=sixes%3D19&dice=22555&r=2&utm_source=chat")
        tr = WebTranslator("ja")
        wait(d, lambda: q(d, "#error").is_displayed(), "no refusal shown")
        assert q(d, "#error").text.endswith(tr("card.impossible", box=tr.box(get_rules("yahtzee"), 5), points="19",
                                               possible="0, 6, 12, 18, 24, 30"))
    finally:
        s.stop()


def open_advisor(d, server, query):
    """The advisor page of a Yahtzee position (``query``: card, dice, r), on a desktop, once its table shows."""
    size(d, "desktop")
    open_page(d, server, f"/advisor?rules=yahtzee&{query}")
    wait(d, lambda: qq(d, "#adv-table tbody tr"))
    return d


def test_an_advisor_link_reads_its_card_as_the_command_line_does(driver, server):
    """Aliases, ";" or blanks between entries, ":" for "=": the fields show the server's reading."""
    from urllib.parse import quote

    d = open_advisor(driver, server, f"card={quote('Sixes = 18; fh:25  chance=22')}&dice=22555&r=2")
    card = "sixes=18,full-house=25,chance=22"
    want = Advisor("yahtzee", jit=False).keep_options(card, "22555", 2)
    assert q(d, "#adv-table tbody tr td:nth-child(3)").text == f"{want[0].expected:.2f}"
    shown = {i.get_attribute("data-slug"): i.get_attribute("value")
             for i in qq(d, "#adv-card input") if i.get_attribute("value")}
    assert shown == {"sixes": "18", "full-house": "25", "chance": "22"}
    # a box typed after that: the card is the fields', and the link follows them
    q(d, '#adv-card input[data-slug="fives"]').send_keys("15")
    want = Advisor("yahtzee", jit=False).keep_options(card + ",fives=15", "22555", 2)
    wait(d, lambda: q(d, "#adv-table tbody tr td:nth-child(3)").text == f"{want[0].expected:.2f}")
    assert "full-house%3D25" in q(d, "#adv-share").get_attribute("href")


def test_the_advisor_shows_the_bonus_and_joker_notes(driver, server):
    card = "ones=3,twos=6,threes=9,fours=12,fives=15,yahtzee=50"
    d = open_advisor(driver, server, f"card={card.replace('=', '%3D')}&dice=66666&r=0")
    from yahtzee_solver.rules import get_rules

    r = get_rules("yahtzee")
    en = WEB_TEXT["en"]
    assert q(d, "#adv-table thead").text.endswith(en["adv.notes"])
    want = []
    for o in Advisor("yahtzee", jit=False).box_options(card, "66666"):
        notes = []
        if o.yahtzee_bonus:
            notes.append(en["adv.note.yahtzee_bonus"].format(points=o.yahtzee_bonus, yahtzee=r.categories[r.yahtzee_category].name))
        if o.upper_bonus:
            notes.append(en["adv.note.upper_bonus"].format(points=o.upper_bonus))
        if o.joker:
            notes.append(en["adv.note.joker"])
        want.append(", ".join(notes))
    got = [row.find_elements(By.CSS_SELECTOR, "td")[-1].text for row in qq(d, "#adv-table tbody tr")]
    assert got == want and any("+100" in x for x in got) and any("+35" in x for x in got)


def test_records_show_no_wins_in_solitaire_and_forfeits_once(driver, server):
    d = driver
    size(d, "desktop")
    _post(server, "/api/game/new", {})
    _post(server, "/api/game/roll", {})
    _post(server, "/api/game/new", {"opponent": "normal", "abandon": True})  # solitaire abandoned
    _post(server, "/api/game/roll", {})
    _post(server, "/api/game/new", {"abandon": True})  # a forfeit against the CPU
    open_page(d, server, "/records")
    wait(d, lambda: qq(d, "#records-unaided tbody tr"))
    rows = {r["opponent"]: r for r in server.api("/api/records")["records"]}
    cells = {}
    for tr in qq(d, "#records-unaided tbody tr"):
        c = [x.text for x in tr.find_elements(By.CSS_SELECTOR, "td")]
        cells[c[1]] = c
    solo = next(v for k, v in cells.items() if "CPU" not in k)
    cpu = next(v for k, v in cells.items() if "CPU" in k)
    assert solo[5:8] == ["–", "–", "–"] and solo[8] == str(rows["solo"]["abandoned"])
    assert cpu[6] == str(rows["normal"]["losses"]) == "1"
    assert cpu[8] == WEB_TEXT["en"]["rec.forfeits"].format(n=1)
    assert q(d, "#records .note-small").text == WEB_TEXT["en"]["rec.forfeit_note"]


# -- what a player of the online games expects ------------------------------------------------------------
def _media(d, **features):
    d.execute_cdp_cmd("Emulation.setEmulatedMedia",
                      {"features": [{"name": k.replace("_", "-"), "value": v} for k, v in features.items()]})


def test_on_a_phone_dice_roll_button_and_card_fit_one_screen(driver, server):
    d = driver
    size(d, "phone")
    inner = d.execute_script("return window.innerHeight")
    if inner != 844:  # the viewport, not the window, is the phone's screen
        d.set_window_size(390 + 390 - d.execute_script("return window.innerWidth"), 844 + 844 - inner)
    d.execute_script("localStorage.removeItem('yahtzee-hint-open')")
    open_page(d, server)
    start_game(d, server, opponent="expert", seed=33)
    click_roll(d, server)
    q(d, "#hint").click()
    wait(d, lambda: q(d, "#hint-panel").is_displayed() and qq(d, "#hint-panel tr.best"))
    d.execute_script("window.scrollTo(0, 0)")
    boxes = qq(d, "#card button[data-box]")
    assert boxes
    for e in qq(d, "#dice .die") + [q(d, "#roll"), q(d, "#hint-panel summary")] + boxes + qq(d, "#card tr.total-row td"):
        r = d.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.top, r.bottom];", e)
        if not (0 <= r[0] and r[1] <= 844):
            shot(d, "game-phone-one-screen-failed")
        assert 0 <= r[0] and r[1] <= 844, (e.get_attribute("outerHTML")[:80], r)
    for b in boxes:
        assert b.size["height"] >= 44, b.size
    assert q(d, ".hint-best").text  # the folded hint still says the best option
    fits(d)
    shot(d, "game-phone-one-screen")


def test_undo_the_last_score_in_solitaire(driver, server):
    d = driver
    size(d, "desktop")
    open_page(d, server)
    start_game(d, server, seed=None)
    g = click_roll(d, server)
    assert not q(d, "#undo").is_displayed()
    box = next(c for c in range(13) if g["preview"]["legal"][c] and not g["preview"]["zero"][c])
    score_box(d, server, box)
    wait(d, lambda: q(d, "#undo").is_displayed() and q(d, "#undo").is_enabled(), "no undo offered")
    q(d, "#undo").click()
    wait(d, lambda: server.game()["players"][0]["boxes"][box] is None, "the score was not taken back")
    g2 = idle(d, server)
    assert g2["dice"] == g["dice"] and g2["practice"] and "(practice)" in q(d, "#game-title").text
    assert not q(d, "#undo").is_displayed()


def test_the_roll_stage_the_announced_dice_and_reduced_motion(driver, server):
    d = driver
    size(d, "desktop")
    open_page(d, server)
    start_game(d, server, seed=9)
    en = WEB_TEXT["en"]
    assert q(d, "#stage").text == en["stage.none"].format(max=3)
    g = click_roll(d, server)
    assert q(d, "#stage").text == en["stage.n"].format(n=1, max=3, left=2)
    assert q(d, "#dice-live").get_attribute("textContent") == en["rolled"].format(n=1, max=3, dice=" ".join(map(str, g["dice"])))
    assert q(d, "#dice-live").get_attribute("aria-live") == "polite"
    anim = "return getComputedStyle(document.querySelector('#dice .die.rolling .face')).animationName"
    assert d.execute_script(anim) == "roll"
    _media(d, prefers_reduced_motion="reduce")
    try:
        q(d, '#dice .die[data-i="0"]').click()
        wait(d, lambda: server.game()["held"][0])
        g = click_roll(d, server)
        assert q(d, "#stage").text == en["stage.n"].format(n=2, max=3, left=1)
        assert not q(d, '#dice .die[data-i="0"]').get_attribute("class").count("rolling")  # a held die stays
        assert d.execute_script(anim) == "none"
    finally:
        _media(d)


def test_a_dark_theme_follows_the_system(driver, server):
    d = driver
    size(d, "desktop")
    bg = "return getComputedStyle(document.body).backgroundColor"
    open_page(d, server)
    assert d.execute_script(bg) == "rgb(255, 255, 255)"
    _media(d, prefers_color_scheme="dark")
    try:
        assert d.execute_script(bg) == "rgb(18, 19, 22)"
        ink = d.execute_script("return getComputedStyle(document.body).color")
        assert ink == "rgb(232, 232, 232)"
    finally:
        _media(d)


def test_the_first_hint_warns_once_with_do_not_ask_again(driver, server):
    d = driver
    size(d, "desktop")
    open_page(d, server)
    d.execute_script("localStorage.removeItem('yahtzee-hint-nowarn')")
    start_game(d, server, seed=None)
    click_roll(d, server)
    warn = q(d, "#hint-warn-dialog")
    q(d, "#hint").click()
    wait(d, lambda: warn.get_attribute("open") is not None, "no warning")
    assert q(d, "#hint-warn-text").text == WEB_TEXT["en"]["hint_warn.text"]
    q(d, "#hint-warn-cancel").click()
    wait(d, lambda: warn.get_attribute("open") is None)
    assert not server.game()["practice"] and not q(d, "#hint-panel").is_displayed()
    q(d, "#hint").click()
    wait(d, lambda: warn.get_attribute("open") is not None)
    q(d, "#hint-warn-never").click()
    q(d, "#hint-warn-ok").click()
    wait(d, lambda: qq(d, "#hint-panel tr.best") and server.game()["practice"], "no hint after yes")
    # a new unaided game: not asked again
    _post(server, "/api/game/new", {"abandon": True})
    open_page(d, server)
    click_roll(d, server)
    q(d, "#hint").click()
    wait(d, lambda: qq(d, "#hint-panel tr.best"), "no hint")
    assert q(d, "#hint-warn-dialog").get_attribute("open") is None
    d.execute_script("localStorage.removeItem('yahtzee-hint-nowarn')")


def _play_out(server):
    g = server.game()
    while not g["over"]:
        if g["cpu_turn"]:
            g = _post(server, "/api/game/cpu", {})
            continue
        g = _post(server, "/api/game/roll", {})
        g = _post(server, "/api/game/score", {"box": g["players"][0]["boxes"].index(None), "confirm": True})
    return g


@pytest.mark.parametrize("which", ["desktop", "phone"])
def test_the_review_from_the_end_screen_and_the_records(driver, server, which):
    d = driver
    size(d, which)
    _post(server, "/api/game/new", {"opponent": "beginner", "seed": 8})
    g = _play_out(server)
    open_page(d, server)
    wait(d, lambda: q(d, "#result").is_displayed())
    link = q(d, "#review-link")
    assert link.text == WEB_TEXT["en"]["review.link"]
    link.click()
    wait(d, lambda: qq(d, "#review-table tbody tr"), "no review")
    want = server.api(f"/api/review?game={g['result']['history_number']:d}")
    rows = qq(d, "#review-table tbody tr")
    assert len(rows) == want["review"]["n_decisions"]
    for row, dec in zip(rows, want["rows"]):
        cells = [c.text for c in row.find_elements(By.CSS_SELECTOR, "td")]
        assert cells[0] == str(dec["turn"]) and cells[3] == dec["choice"] and cells[4] == dec["best"]
        assert cells[5] == ("0" if dec["loss"] == 0 else "−" + f"{dec['loss']:.2f}")
        # against a CPU the endgame's winning chance given up is a seventh column, empty before the endgame
        w = dec["win_lost"]
        assert cells[6] == ("" if w is None else "0" if w == 0 else "−" + f"{100 * w:.2f}\u00a0%".replace("\u00a0", " "))
    assert any(dec["win_lost"] is not None for dec in want["rows"])
    assert [p.text for p in qq(d, "#review-result .review-line")] == want["lines"]
    if which == "desktop":  # both players' split and the chart of the chances by round, after the rows
        wait(d, lambda: qq(d, "#review-table-players svg.chance-chart"), "no chart of the chances")
        table = server.api(f"/api/review/table?game={g['result']['history_number']:d}")
        assert [li.text for li in qq(d, "#review-table-players .splits li")] == table["splits"]
        assert len(qq(d, "#review-table-players svg g.player")) == 2
    fits(d)
    shot(d, f"review-{which}")
    q(d, "#nav-records").click()
    wait(d, lambda: q(d, "#records-review").is_displayed())
    q(d, "#records-review").click()
    wait(d, lambda: qq(d, "#review-table tbody tr") and "/review" in d.current_url, "no review from the records page")


# -- the hint's reasons and the trainer --------------------------------------------------------------------
def _api_post(server, path, body=None):
    """One POST with the page's token; the whole reply."""
    from yahtzee_solver.web.app import TOKEN_HEADER

    req = urllib.request.Request(server.url + path, data=json.dumps(body or {}).encode(), method="POST",
                                 headers={"Content-Type": "application/json", TOKEN_HEADER: server.app.config["TOKEN"]})
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.loads(r.read())


def _shown(text):
    """A text as the driver reads it off the page (a no-break space reads as a space)."""
    return " ".join(text.replace("\xa0", " ").split())


@pytest.mark.parametrize("which", ["desktop", "phone"])
def test_the_hint_shows_the_reasons_of_its_best_options(driver, server, which):
    """The hint's "Why?" lists the reasons of the three best options under the ranking: the figures and the
    sentence the API gives (which the API tests check against strategy.reasons)."""
    from webhelpers import expert_until

    d = driver
    size(d, which)
    open_page(d, server)
    expert_until(lambda path, body: _post(server, path, body), 46, 4)
    d.execute_script("localStorage.setItem('yahtzee-hint-open', '1'); localStorage.setItem('yahtzee-hint-nowarn', '1')")
    open_page(d, server)
    idle(d, server)
    click_roll(d, server)
    q(d, "#hint").click()
    wait(d, lambda: qq(d, "#hint-panel tr.best"), "no hint")
    assert not qq(d, "#hint-panel .why-list")  # asked for, not computed with every hint
    q(d, "#hint-why").click()
    wait(d, lambda: qq(d, "#hint-panel .why-list li"), "no reasons in the hint")
    why = _api_post(server, "/api/game/why")
    items = qq(d, "#hint-panel .why-list li")
    assert len(items) == len(why["options"]) == 3
    for li, o in zip(items, why["options"]):
        assert li.find_element(By.CSS_SELECTOR, ".why-figures").text == _shown(o["figures"])
        assert li.find_element(By.CSS_SELECTOR, ".why-sentence").text == _shown(o["sentence"])
        assert li.find_element(By.CSS_SELECTOR, ".why-sentence").is_displayed()
    assert q(d, "#hint-panel .why-head").text == _shown(why["head"])
    fits(d)
    d.execute_script("document.querySelector('#hint-panel .why-list').scrollIntoView()")
    shot(d, f"game-{which}-hint-why")


def _tap_answer(d, pos, answer):
    """Give ``answer`` (``{"keep": faces}`` or ``{"box": i}``) by tapping, as a player does."""
    if "box" in answer:
        q(d, f'#train-card button[data-box="{answer["box"]}"]').click()
        return
    want = [int(f) for f in answer["keep"]]
    for i, face in enumerate(pos.dice):
        if face in want:
            want.remove(face)
            q(d, f'#train-dice .die[data-i="{i}"]').click()
    q(d, "#train-keep").click()


@pytest.mark.parametrize("which", ["desktop", "phone"])
def test_a_short_training_session_by_tapping(driver, server, which):
    from yahtzee_solver.analysis.training import TrainingStats
    from yahtzee_solver.strategy.players import ExpertStrategy

    d = driver
    size(d, which)
    open_page(d, server, "/train")
    q(d, "#train-count").clear()
    q(d, "#train-count").send_keys("2")
    q(d, "#train-seed").send_keys("5")
    q(d, "#train-start").click()
    wait(d, lambda: qq(d, "#train-dice .die"), "no position")
    trainer = server.app.extensions["yahtzee_train"]
    positions = trainer.session.positions
    assert shown_dice_train(d) == list(positions[0].dice)
    # 1: the expert's own answer costs nothing
    expert = ExpertStrategy("yahtzee", jit=False)
    pos = positions[0]
    keep = expert.choose_keep(pos.card, pos.dice, pos.rolls_left) if pos.rolls_left else None
    ans = {"keep": "".join(map(str, keep))} if keep is not None and len(keep) < 5 else \
        {"box": expert.choose_box(pos.card, pos.dice)}
    _tap_answer(d, pos, ans)
    wait(d, lambda: qq(d, "#train-result .verdict"), "no verdict")
    assert q(d, "#train-result .verdict").text.endswith("is the best: it cost nothing.")
    wait(d, lambda: qq(d, "#train-result .why-sentence"), "no reason")
    with urllib.request.urlopen(server.url + "/api/train/why?position=1", timeout=120) as r:
        why = json.loads(r.read())
    assert [e.text for e in qq(d, "#train-result .why-sentence")] == [_shown(o["sentence"]) for o in why["options"]]
    fits(d)
    shot(d, f"train-{which}-answer")
    # 2: a worse answer (reroll all five, or the last box of the ranking) costs what grade says
    q(d, "#train-next").click()
    wait(d, lambda: shown_dice_train(d) == list(positions[1].dice), "no second position")
    pos = positions[1]
    adv = server.app.extensions["yahtzee"].advisors(pos.card.rules)[0]
    if pos.rolls_left:
        worst = adv.keep_options(pos.card, pos.dice, pos.rolls_left)[-1].keep
        ans = {"keep": "".join(map(str, worst))}
    else:
        ans = {"box": adv.box_options(pos.card, pos.dice)[-1].category}
    _tap_answer(d, pos, ans)
    wait(d, lambda: qq(d, "#train-result .verdict.warn"), "no cost")
    g = trainer.session.graded[1]
    assert f"it cost {g.cost:.2f} points" in q(d, "#train-result .verdict").text
    assert q(d, "#train-ranking tr.mine").is_displayed()
    q(d, "#train-next").click()
    wait(d, lambda: qq(d, "#train-score"), "no score")
    (rec,) = TrainingStats.load(trainer.training_file).sessions
    assert f"proficiency {rec.proficiency:.3f} points per decision" in q(d, "#train-score").text
    assert rec.proficiency == pytest.approx(g.cost / 2, abs=1e-9)
    rows = qq(d, "#train-sessions tbody tr")
    assert len(rows) == 1 and rows[0].find_elements(By.CSS_SELECTOR, "td")[-1].text.startswith(f"{rec.proficiency:.3f}")
    assert len(qq(d, ".train-chart .bar")) == 1
    fits(d)
    shot(d, f"train-{which}-summary")


def shown_dice_train(d):
    return [int(b.get_attribute("data-face")) for b in qq(d, "#train-dice .die")]


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_axe_finds_no_violation_on_the_trainer(driver, tmp_path, lang):
    if AXE is None:
        pytest.skip("axe-core not found (see test_axe_finds_no_violation_on_any_page)")
    d = driver
    s = Server(tmp_path, lang=lang)
    found = {}
    try:
        for which in ("desktop", "phone"):
            size(d, which)
            for scheme in ("light", "dark"):
                _media(d, prefers_color_scheme=scheme)
                t = _api_post(s, "/api/train/new", {"count": 2, "seed": "5"})["train"]
                open_page(d, s, "/train")
                wait(d, lambda: qq(d, "#train-dice .die"))
                found[(which, scheme, "position")] = _axe(d)
                p = t["position"]
                q(d, "#train-keep" if p["rolls_left"] else "#train-card button[data-box]").click()
                wait(d, lambda: qq(d, "#train-result .why-list"))
                found[(which, scheme, "answer")] = _axe(d)
                _api_post(s, "/api/train/quit", {})
                open_page(d, s, "/train")
                wait(d, lambda: qq(d, "#train-score"))
                found[(which, scheme, "summary")] = _axe(d)
    finally:
        _media(d)
        s.stop()
    bad = {k: v for k, v in found.items() if v}
    assert not bad, json.dumps({" ".join(k): v for k, v in bad.items()}, ensure_ascii=False, indent=1)[:6000]


# -- accessibility: axe-core on every page, in every language -------------------------------------------
ROOT = Path(__file__).resolve().parent.parent


def _axe_source():
    """axe-core's ``axe.min.js``: ``$AXE_CORE_JS``, else ``node_modules/axe-core`` of the repository
    (``npm install axe-core`` there); ``None`` when absent."""
    for path in (os.environ.get("AXE_CORE_JS"), ROOT / "node_modules" / "axe-core" / "axe.min.js"):
        if path and Path(path).is_file():
            return Path(path).read_text("utf-8")
    return None


def _axe(d):
    """axe's violations on the page as shown now: ``[(rule, impact, [targets])]``."""
    d.execute_script(AXE + "\n;return 1;")  # (a script run by the driver is not bound by the page's CSP)
    d.set_script_timeout(60)
    return d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then("
        "  (r) => done(r.violations.map((v) => [v.id, v.impact, v.nodes.slice(0, 4).map((n) => n.target.join(' '))])),"
        "  (e) => done([['axe-error', String(e), []]]));")


AXE = _axe_source()


@pytest.mark.parametrize("lang", ["en", "zh", "ja"])
def test_axe_finds_no_violation_on_any_page(driver, tmp_path, lang):
    if AXE is None:
        why = ("axe-core not found: run `npm install axe-core` in the repository folder "
               "(node_modules/axe-core/axe.min.js) or set AXE_CORE_JS")
        if os.environ.get("YAHTZEE_REQUIRE_AXE"):
            pytest.fail(why)
        pytest.skip(why)
    d = driver
    s = Server(tmp_path, lang=lang)
    found = {}
    try:
        open_page(d, s, "/rules")  # axe itself works: a picture with no text is found
        d.execute_script("const i = document.createElement('img'); i.src = 'data:,'; i.id = 'no-alt';"
                         "document.querySelector('main').append(i);")
        assert any(v[0] == "image-alt" for v in _axe(d))
        _post(s, "/api/game/new", {"opponent": "beginner", "seed": 8})
        finished = _play_out(s)
        for which in ("desktop", "phone"):
            size(d, which)
            for scheme in ("light", "dark"):
                _media(d, prefers_color_scheme=scheme)
                for path in ("/", "/review", "/records", "/rules", "/advisor?rules=yahtzee&card=sixes%3D18&dice=66655&r=0"):
                    open_page(d, s, path)
                    if path == "/review":
                        wait(d, lambda: qq(d, "#review-table tbody tr"))
                    found[(which, scheme, path, "finished" if finished else "")] = _axe(d)
                # a game in progress with the hint open, and each dialog
                _post(s, "/api/game/new", {"opponent": "expert", "abandon": True})
                open_page(d, s)
                click_roll(d, s)
                d.execute_script("localStorage.setItem('yahtzee-hint-open', '1');"
                                 "localStorage.removeItem('yahtzee-hint-nowarn')")
                q(d, "#hint").click()
                wait(d, lambda: q(d, "#hint-warn-dialog").get_attribute("open") is not None)
                found[(which, scheme, "hint-warning")] = _axe(d)
                q(d, "#hint-warn-ok").click()
                wait(d, lambda: qq(d, "#hint-panel tr.best"))
                found[(which, scheme, "game with hint")] = _axe(d)
                g = s.game()
                zero = next((c for c in range(13) if g["preview"]["zero"][c]), None)
                if zero is not None:
                    q(d, f'#card button[data-box="{zero}"]').click()
                    wait(d, lambda: q(d, "#zero-dialog").get_attribute("open") is not None)
                    found[(which, scheme, "zero dialog")] = _axe(d)
                    q(d, "#zero-cancel").click()
        _media(d)
    finally:
        _media(d)
        s.stop()
    bad = {k: v for k, v in found.items() if v}
    assert not bad, json.dumps({" ".join(k): v for k, v in bad.items()}, ensure_ascii=False, indent=1)[:6000]
