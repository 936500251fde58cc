#!/usr/bin/env python3
"""The web page: first page load and the round trip of each game action, on a warm local server.

Goals (web issue): first page load <= 300 ms from a warm server; each game
action's round trip <= 50 ms median.  The server is the one ``yahtzee-solve
serve`` runs (werkzeug, threaded, compiled kernels) in this process, on a
fresh data folder; the client is ``urllib`` (a new connection per request, as
the page's requests are).

* page load, HTTP: the page's requests in a row (HTML, its ES modules, style,
  ``/api/config``, ``/api/text``, ``/api/game``);
* page load, browser (when Chromium and selenium are installed): navigation
  start to the page ready (its API calls answered and the board drawn), read
  from ``performance.now()`` in headless Chromium;
* actions: ``roll``, ``hold``, ``score``, ``hint``, ``cpu`` (one CPU step of
  the expert) over seeded games.  The hint is timed in three kinds: without
  the chances of winning (more than five open boxes), with them at the
  turn's first hint by the player's open boxes (that hint solves the win DP
  against the CPU's card, :mod:`yahtzee_solver.strategy.win_chances`), and with them
  later in the same turn (the DP kept).

Baseline in the same run: the round trip of a bare WSGI app that answers
``{}`` on the same server, i.e. the cost of HTTP on this machine.

Usage::

    python benchmarks/bench_web.py [--games 3] [--loads 15]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402


def _serve(app):
    from werkzeug.serving import make_server

    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_port}"


def _bare(environ, start_response):
    start_response("200 OK", [("Content-Type", "application/json")])
    return [b"{}"]


class Client:
    def __init__(self, url, token=""):
        self.url, self.token = url, token

    def get(self, path):
        with urllib.request.urlopen(self.url + path, timeout=30) as r:
            return r.read()

    def post(self, path, body=None):
        req = urllib.request.Request(self.url + path, data=json.dumps(body or {}).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "X-Yahtzee-Token": self.token})
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return (time.perf_counter() - t) * 1000, out


def browser_loads(url, n):
    chromium, driver_path = "/usr/bin/chromium", "/usr/bin/chromedriver"
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return None, "selenium not installed (pip install -e '.[browser]')"
    if not (os.path.exists(chromium) and os.path.exists(driver_path)):
        return None, "chromium / chromium-driver not installed"
    profile = tempfile.mkdtemp(prefix="bench-web-")
    opts = Options()
    opts.binary_location = chromium
    for f in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}"):
        opts.add_argument(f)
    d = webdriver.Chrome(service=Service(driver_path), options=opts)
    d.set_window_size(1280, 900)
    out = []
    try:
        for i in range(n + 1):
            d.get("about:blank")
            d.get(url + "/")
            for _ in range(200):
                v = d.execute_script("return window.yahtzeeReadyAt || null")
                if v is not None:
                    break
                time.sleep(0.02)
            if i:  # the first load warms the browser's own caches
                out.append(float(v))
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)
    return out, ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3, help="seeded games played through the API")
    ap.add_argument("--loads", type=int, default=15, help="page loads measured")
    opts = ap.parse_args(argv)
    common.header("web page: first load and game actions on a warm local server")
    from yahtzee_solver.web.app import create_app
    from yahtzee_solver.strategy.win_chances import WIN_HINT_MAX_OPEN

    home = Path(tempfile.mkdtemp(prefix="bench-web-"))
    app = create_app(game_file=home / "game.json", records_file=home / "records.json", jit=True)
    httpd, url = _serve(app)
    bare, bare_url = _serve(_bare)
    c = Client(url, app.config["TOKEN"])
    b = Client(bare_url)
    # warm up: tables, compiled kernels, every endpoint once
    c.post("/api/game/new", {"opponent": "expert", "seed": 0})
    app.extensions["yahtzee"].warm()  # as `serve` does in the background at start (a game against the CPU)
    c.post("/api/game/roll")
    c.post("/api/game/hint")
    for _ in range(20):
        b.get("/")

    base = [timed(lambda: b.get("/"))[0] for _ in range(50)]
    from importlib import resources

    scripts = sorted(f"/static/{f.name}" for f in resources.files("yahtzee_solver.web").joinpath("static").iterdir()
                     if f.name.endswith(".js"))  # the page's ES modules
    page = ("/", *scripts, "/static/style.css", "/api/config", "/api/text?lang=en", "/api/game?lang=en")
    loads = []
    for _ in range(opts.loads):
        t = time.perf_counter()
        for p in page:
            c.get(p)
        loads.append((time.perf_counter() - t) * 1000)

    first_kinds = tuple(f"hint, chances, 1st, {n} open" for n in range(WIN_HINT_MAX_OPEN, 0, -1))
    kinds = ("roll", "hold", "score", "hint", *first_kinds, "hint, chances, again", "cpu")
    times: dict[str, list[float]] = {k: [] for k in kinds}
    for g in range(opts.games):
        c.post("/api/game/new", {"opponent": "expert", "first": "me", "seed": 100 + g, "abandon": True})
        while True:
            game = json.loads(c.get("/api/game"))["game"]
            if game["over"]:
                break
            if game["cpu_turn"]:
                ms, _ = timed(lambda: c.post("/api/game/cpu"))
                times["cpu"].append(ms)
                continue
            ms, r = timed(lambda: c.post("/api/game/roll"))
            times["roll"].append(ms)
            first = True
            while True:
                ms, raw = timed(lambda: c.post("/api/game/hint"))
                hint = raw  # (a POST: the client parses it)
                if hint["win"]["shown"]:
                    n_open = sum(v is None for v in game["players"][0]["boxes"])
                    times[f"hint, chances, 1st, {n_open} open" if first else "hint, chances, again"].append(ms)
                else:
                    times["hint"].append(ms)
                first = False
                best = hint["options"][0]
                if hint["kind"] == "keep" and len(best["keep"]) < 5:
                    ms, _ = timed(lambda held=best["held"]: c.post("/api/game/hold", {"held": held}))
                    times["hold"].append(ms)
                    ms, _ = timed(lambda: c.post("/api/game/roll"))
                    times["roll"].append(ms)
                    continue
                box = hint["then"]["box"] if hint["kind"] == "keep" else best["box"]
                ms, _ = timed(lambda box=box: c.post("/api/game/score", {"box": box, "confirm": True}))
                times["score"].append(ms)
                break
    browser, why = browser_loads(url, opts.loads)
    httpd.shutdown()
    bare.shutdown()
    shutil.rmtree(home, ignore_errors=True)

    mb = common.median(base)
    print(f"\nbaseline: bare WSGI round trip, median {mb:.2f} ms ({len(base)} requests)")
    print(f"page load over HTTP ({len(page)} requests): median {common.median(loads):.1f} ms, min {min(loads):.1f} ms, "
          f"{common.median(loads) / mb:.1f} x baseline   (goal <= 300 ms)")
    if browser is None:
        print(f"page load in Chromium: not measured ({why})")
    else:
        print(f"page load in Chromium (navigation to board drawn): median {common.median(browser):.1f} ms, "
              f"min {min(browser):.1f} ms over {len(browser)} loads   (goal <= 300 ms)")
    print("game actions (round trip):   action  count  median ms   max ms   x baseline   (goal: median <= 50 ms)")
    for k, v in times.items():
        if v:
            print(f"  {k:>30}  {len(v):5d}  {common.median(v):9.2f}  {max(v):7.1f}  {common.median(v) / mb:10.1f}")
    allv = [x for v in times.values() for x in v]
    print(f"  {'all':>30}  {len(allv):5d}  {common.median(allv):9.2f}  {max(allv):7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
