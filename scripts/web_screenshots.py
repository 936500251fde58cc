#!/usr/bin/env python3
"""Take the README's screenshots of the web page into docs/, at 1280 and 390 px.

On a fresh data folder, plays a seeded game against the beginner CPU to its
end (following the hints) for the review, then a seeded game against the
expert up to turn 4, rolls once, and shoots in headless Chromium:
``web-desktop.png`` / ``web-phone.png`` (the game with the hint open; ``web-phone-folded.png``
the phone's default, the hint folded to one line),
``web-advisor-*.png`` (the advisor on a position with bonus notes),
``web-review-*.png`` (the review of the finished game) and ``web-dark-*.png``
(the game with the hint in the dark theme).  Needs the ``[browser]`` extra and
Debian's ``chromium`` and ``chromium-driver``.

Usage::

    python scripts/web_screenshots.py [--out docs]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="docs")
    opts = ap.parse_args(argv)
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from werkzeug.serving import make_server

    from yahtzee_solver.web.app import create_app

    home = Path(tempfile.mkdtemp(prefix="shots-"))
    app = create_app(game_file=home / "game.json", records_file=home / "records.json", lang="en")
    svc = app.extensions["yahtzee"]
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_port}/"
    # A few turns of play, through the service (the page shows the same game).
    from yahtzee_solver.web.service import WebTranslator

    tr = WebTranslator("en")

    def follow_hints(until, hasty=False):
        # hasty: on odd turns, score after the first roll (the review then has some losses to show)
        while not until():
            if svc.state.is_cpu_turn:
                svc.cpu(tr)
                continue
            svc.roll(tr)
            while True:
                h = svc.hint(tr)
                best = h["options"][0]
                if hasty and svc.state.round % 2 and h["kind"] == "keep":
                    pts, legal, _ = svc.state.preview()
                    svc.score(tr, max((p, -c) for c, p in enumerate(pts) if legal[c])[1] * -1, True)
                    break
                if h["kind"] == "keep" and len(best["keep"]) < 5:
                    svc.hold(tr, best["held"])
                    svc.roll(tr)
                    continue
                svc.score(tr, h["then"]["box"] if h["kind"] == "keep" else best["box"], True)
                break

    svc.new(tr, "yahtzee", "beginner", "me", 2026, False)
    follow_hints(lambda: svc.state.is_terminal(), hasty=True)  # a finished game, for the review
    svc.new(tr, "yahtzee", "expert", "me", 2027, False)
    follow_hints(lambda: svc.state.round >= 4)
    svc.roll(tr)
    profile = tempfile.mkdtemp(prefix="shots-chromium-")
    o = Options()
    o.binary_location = "/usr/bin/chromium"
    for f in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--hide-scrollbars", f"--user-data-dir={profile}"):
        o.add_argument(f)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    out = Path(opts.out)
    out.mkdir(parents=True, exist_ok=True)
    def page(path, ready="document.body.classList.contains('ready')"):
        d.get(url + path.lstrip("/"))
        while not d.execute_script("return " + ready):
            time.sleep(0.05)

    def shoot(name):
        d.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
        d.save_screenshot(str(out / f"{name}.png"))
        print(out / f"{name}.png")

    def game_with_hint(opened="1"):
        page("/")
        d.execute_script("localStorage.setItem('yahtzee-hint-open', arguments[0]);"
                         "localStorage.setItem('yahtzee-hint-nowarn', '1')", opened)
        d.find_element("id", "hint").click()
        while not d.execute_script("return !!document.querySelector('#hint-panel tr.best')"):
            time.sleep(0.05)

    advisor = "/advisor?rules=yahtzee&card=ones%3D3,twos%3D6,threes%3D9,fours%3D12,fives%3D15,yahtzee%3D50&dice=66666&r=0"
    try:
        for name, (w, h) in {"desktop": (1280, 860), "phone": (390, 844)}.items():
            d.set_window_size(w, h)
            inner_w, inner_h = d.execute_script("return [window.innerWidth, window.innerHeight]")
            d.set_window_size(w + w - inner_w, h + h - inner_h)  # the viewport, not the window, is w x h
            game_with_hint()
            shoot(f"web-{name}")
            if name == "phone":  # a phone's default: the hint folded to its summary, the whole card on screen
                game_with_hint("0")
                shoot("web-phone-folded")
            page(advisor, "!!document.querySelector('#adv-table tbody tr')")
            shoot(f"web-advisor-{name}")
            page("/review", "!!document.querySelector('#review-table tbody tr')")
            shoot(f"web-review-{name}")
            d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
            game_with_hint()
            shoot(f"web-dark-{name}")
            d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    finally:
        d.quit()
        httpd.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
