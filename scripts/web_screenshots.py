#!/usr/bin/env python3
"""Take the README's screenshots of the game page (docs/web-desktop.png, docs/web-phone.png).

Plays a seeded game against the expert CPU on a fresh data folder through the
API up to turn 4, rolls once, asks for a hint through the page, and shoots the
page in headless Chromium at 1280 and 390 px.  Needs the ``[browser]`` extra and
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
    svc.new(tr, "yahtzee", "expert", "me", 2027, False)
    while svc.state.round < 4:
        if svc.state.is_cpu_turn:
            svc.cpu(tr)
            continue
        svc.roll(tr)
        while True:
            h = svc.hint(tr)
            best = h["options"][0]
            if h["kind"] == "keep" and len(best["keep"]) < 5:
                svc.hold(tr, best["held"])
                svc.roll(tr)
                continue
            svc.score(tr, h["then"]["box"] if h["kind"] == "keep" else best["box"], True)
            break
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
    try:
        for name, (w, h) in {"desktop": (1280, 860), "phone": (390, 1100)}.items():
            d.set_window_size(w, h)
            inner = d.execute_script("return window.innerWidth")
            d.set_window_size(w + w - inner, h)
            d.get(url)
            while not d.execute_script("return document.body.classList.contains('ready')"):
                time.sleep(0.05)
            d.find_element("id", "hint").click()
            while not d.execute_script("return !document.getElementById('hint-panel').hidden"):
                time.sleep(0.05)
            d.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
            d.save_screenshot(str(out / f"web-{name}.png"))
            print(out / f"web-{name}.png")
    finally:
        d.quit()
        httpd.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
