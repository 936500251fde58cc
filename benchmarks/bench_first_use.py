#!/usr/bin/env python3
"""First use after an install against the second: does anything wait longer the first time?

Makes a brand-new venv, installs this checkout the README's way
(``pip install .``, not editable), and checks that no numba cache exists:
no ``NUMBA_CACHE_DIR``, no ``*.nbi``/``*.nbc`` in the installed package's
``__pycache__``, and a fresh, empty ``HOME`` (so ``~/.cache/numba`` and the
game's data folder are new) for every measured process.  Then, each as a
new process of the venv's Python, in this order:

* ``hint`` (the README's quick-start command), ``match master expert --games 2``,
  ``simulate --games 1000``: whole-process wall time;
* the web page's first hint with the chances of winning: a server process
  (the app ``serve`` runs, werkzeug threaded, compiled kernels) plays a
  seeded game against the expert through its API until the hint shows the
  chances; the figure is that first win-chance hint's round trip;
* a library ``Advisor`` and ``ArrayAdvisor`` query: a fresh process builds
  the object (shipped table) and asks one ranked-keeps question; the figure
  is construction plus the first answer.

Before each row numba's own cache files in the installed package are
deleted (what one row compiles would otherwise serve the next), so every
first run is a first use after a new install; the shipped cache, part of the
install, stays.

Each is run twice in a row, first and second side by side (the machine is
shared, so only the ratio in one run means anything).  Goal: first <= 2 x second.
The pip install's own time (which includes compiling the kernels into the
wheel) is printed too.

Usage::

    python benchmarks/bench_first_use.py [--keep]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

CARD = "sixes=18,fours=12,chance=22,yahtzee=50"

WEB = r'''
import json, sys, tempfile, threading, time, urllib.request
from pathlib import Path
from werkzeug.serving import make_server
from yahtzee_solver.web.app import create_app
home = Path(tempfile.mkdtemp())
app = create_app(game_file=home / "game.json", records_file=home / "records.json", jit=True)
httpd = make_server("127.0.0.1", 0, app, threaded=True)
threading.Thread(target=httpd.serve_forever, daemon=True).start()
url, tok = f"http://127.0.0.1:{httpd.server_port}", app.config["TOKEN"]
def get(p):
    with urllib.request.urlopen(url + p, timeout=600) as r:
        return json.loads(r.read())
def post(p, body=None):
    req = urllib.request.Request(url + p, data=json.dumps(body or {}).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "X-Yahtzee-Token": tok})
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.loads(r.read())
post("/api/game/new", {"opponent": "expert", "first": "me", "seed": 7})
while True:
    game = get("/api/game")["game"]
    if game["over"]:
        sys.exit("game over before a win-chance hint")
    if game["cpu_turn"]:
        post("/api/game/cpu")
        continue
    post("/api/game/roll")
    while True:
        t = time.perf_counter()
        hint = post("/api/game/hint")
        dt = time.perf_counter() - t
        if hint["win"] and hint["win"]["shown"]:
            print(f"RESULT {dt:.6f}")
            httpd.shutdown()
            sys.exit(0)
        best = hint["options"][0]
        if hint["kind"] == "keep" and len(best["keep"]) < 5:
            post("/api/game/hold", {"held": best["held"]})
            post("/api/game/roll")
            continue
        break
    box = hint["then"]["box"] if hint["kind"] == "keep" else best["box"]
    post("/api/game/score", {"box": box, "confirm": True})
'''

LIBRARY = r'''
import time
t = time.perf_counter()
from yahtzee_solver import {cls}, ScoreCard
card = ScoreCard.from_mapping({{"sixes": 18, "fours": 12, "chance": 22, "yahtzee": 50}})
obj = {cls}("yahtzee")
{call}
print(f"RESULT {{time.perf_counter() - t:.6f}}")
'''

CALLS = {
    "Advisor": "obj.hint(card, (2, 2, 5, 5, 5), 2)",
    "ArrayAdvisor": "obj.ranked(*card.key, (2, 2, 5, 5, 5), 2)",
}


def caches(site: Path) -> list[Path]:
    """numba cache files outside the shipped folder (numba's own cache in the package)."""
    return [p for p in site.rglob("*") if p.suffix in (".nbi", ".nbc") and "_jitcache" not in p.parts]


def pip(py: Path, env: dict, what: str) -> None:
    r = subprocess.run([str(py), "-m", "pip", "install", "-q", what], env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"pip install {what} failed: {r.stderr.strip()[-2000:]}")


#: Cards of the endgame rows (the exact two-player solve against the beginner's model).
WIN_MINE = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,ls=40"
WIN_THEIRS = "ones=3,twos=6,threes=9,fours=12,fives=20,sixes=24,3k=30,4k=29,fh=25,ss=30,ls=40"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--keep", action="store_true", help="keep the venv (its path is printed)")
    ap.add_argument("--source", type=Path, default=ROOT,
                    help="the project folder to install (default: this checkout; another, e.g. an older release, "
                         "for a comparison)")
    opts = ap.parse_args(argv)
    common.header("first use after `pip install .` against the second, each a new process")
    work = Path(tempfile.mkdtemp(prefix="bench-first-use-"))
    venv = work / "venv"
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_") and k != "PYTHONPATH"}
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    t = time.perf_counter()
    pip(py, env, str(opts.source))
    install = time.perf_counter() - t
    pip(py, env, "flask")
    site = Path(subprocess.run([str(py), "-c", "import yahtzee_solver, os; print(os.path.dirname(yahtzee_solver.__file__))"],
                               check=True, env=env, capture_output=True, text=True, cwd=work).stdout.strip())
    shipped = site / "solver" / "_jitcache"  # beside the kernels (solver/jit.py, CACHE_FOLDER)
    n_shipped = len(list(shipped.glob("*.nbc"))) if shipped.is_dir() else 0
    print(f"source: {opts.source}")
    print(f"pip install . (new venv; includes compiling the kernels into the wheel): {install:.1f} s wall")
    print(f"shipped cache: {n_shipped} machine-code files in solver/{shipped.name}/; numba's own cache files after the "
          f"install: {len(caches(site))}")
    home = work / "home"
    run_env = {**env, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"),
               "XDG_CONFIG_HOME": str(home / ".config"), "XDG_DATA_HOME": str(home / ".local/share"),
               "YAHTZEE_SOLVER_HOME": str(home / "yahtzee-solver")}
    cli = str(venv / "bin" / "yahtzee-solve")
    jobs = [
        ("hint (README quick start)", [cli, "hint", "22555", "--rolls-left", "2", "--card", CARD], False),
        ("match master expert --games 2", [cli, "match", "master", "expert", "--games", "2", "--seed", "1",
                                           "--no-progress"], False),
        ("simulate --games 1000", [cli, "simulate", "--games", "1000", "--seed", "1", "--no-progress"], False),
        ("win against the beginner", [cli, "win", "66612", "--card", WIN_MINE, "--opponent", WIN_THEIRS,
                                      "--opponent-plays", "beginner"], False),
        ("dist --strategy beginner (yacht)", [cli, "dist", "--rules", "yacht", "--card", "aces=3,twos=6",
                                              "--strategy", "beginner", "--no-progress"], False),
        ("web: first win-chance hint", [str(py), "-c", WEB], True),
        *((f"library: {cls} query", [str(py), "-c", LIBRARY.format(cls=cls, call=call)], True)
          for cls, call in CALLS.items()),
    ]
    rows = []
    compiled = 0
    for label, cmd, inner in jobs:
        for p in caches(site):  # each row starts as from a new install: numba's own cache empty again
            p.unlink()
        times = []
        for run in range(2):
            home.mkdir(exist_ok=True)
            t = time.perf_counter()
            r = subprocess.run(cmd, env=run_env, capture_output=True, text=True, cwd=work)
            wall = time.perf_counter() - t
            if r.returncode != 0:
                print(f"{label}: failed (exit {r.returncode}): {r.stderr.strip()[-400:]}")
                return 1
            if inner:
                wall = float(next(ln for ln in r.stdout.splitlines() if ln.startswith("RESULT")).split()[1])
            times.append(wall)
            shutil.rmtree(home, ignore_errors=True)  # ~/.cache and the data folder new again
            if run == 0:
                compiled += len(caches(site))
        rows.append((label, *times))
    print(f"numba cache files written by the first runs (0: nothing compiled on first use): {compiled}\n")
    print(f"{'what':34s} {'first':>9s} {'second':>9s} {'first/second':>13s}   goal first <= 2 x second")
    ok = True
    for label, first, second in rows:
        met = first <= 2 * second
        ok &= met
        print(f"{label:34s} {first:8.2f}s {second:8.2f}s {first / second:12.2f}x   {'met' if met else 'NOT MET'}")
    if opts.keep:
        print(f"\nvenv kept: {venv}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
