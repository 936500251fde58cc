#!/usr/bin/env python3
"""The compiled kernel signatures the package's commands and objects call, for the shipped cache.

A wheel built from this source compiles every signature in
``yahtzee_solver/jit_signatures.txt`` into its numba cache
(``setup.py``, :func:`yahtzee_solver.solver.jit.build_cache`), so that no command
compiles on first use.  This script runs the workloads a user meets (the
commands of the README's quick start, ``match``, ``simulate``, ``dist``,
``--target``, a table build, the library's ``Advisor`` and ``ArrayAdvisor``,
the web page's hint with the chances of winning) in this process and lists
the signature of every compiled kernel they called.

Usage::

    python scripts/jit_signatures.py --write   # rewrite the list
    python scripts/jit_signatures.py --check   # exit 1 naming each signature the list lacks

Run it after changing a kernel's arguments; ``tests/test_jit_cache.py`` runs
``--check``.

The workloads run twice: first in a child process, which compiles what the
numba cache lacks, then here, where every kernel loads from the cache.  A
kernel compiled from source also compiles the kernels it calls and adds their
signatures to their dispatchers; those are part of the caller's machine code,
not calls of their own, so a list taken from a cold cache would hold them and
a list taken from a warm one would not.  The second run sees the warm case
whatever the state of the cache.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def _cli(*args: str) -> None:
    from yahtzee_solver.cli import main

    main(list(args), standalone_mode=False)


def _web(home: Path) -> None:
    """A game against the expert through the web API until the hint shows the chances of winning."""
    from yahtzee_solver.web.app import create_app

    app = create_app(game_file=home / "game.json", records_file=home / "records.json", jit=True)
    c = app.test_client()
    hdr = {"X-Yahtzee-Token": app.config["TOKEN"]}
    c.post("/api/game/new", json={"opponent": "expert", "first": "me", "seed": 7}, headers=hdr)
    app.extensions["yahtzee"].warm()
    for _ in range(60):  # about 9 of the player's turns, each with the CPU's after it
        game = c.get("/api/game").get_json()["game"]
        if game["over"]:
            break
        if game["cpu_turn"]:
            c.post("/api/game/cpu", json={}, headers=hdr)
            continue
        c.post("/api/game/roll", json={}, headers=hdr)
        while True:
            hint = c.post("/api/game/hint", json={}, headers=hdr).get_json()
            best = hint["options"][0]
            if hint["kind"] == "keep" and len(best["keep"]) < 5:
                c.post("/api/game/hold", json={"held": best["held"]}, headers=hdr)
                c.post("/api/game/roll", json={}, headers=hdr)
                continue
            break
        if hint["win"] and hint["win"]["shown"]:
            return
        box = hint["then"]["box"] if hint["kind"] == "keep" else best["box"]
        c.post("/api/game/score", json={"box": box, "confirm": True}, headers=hdr)
    raise AssertionError("the web game ended before the hint showed the chances of winning")


def workloads() -> None:
    """Run every workload once (output to /dev/null, files in a temporary folder)."""
    import numpy as np

    from yahtzee_solver import Advisor, ScoreCard
    from yahtzee_solver.strategy.batch import ArrayAdvisor

    with tempfile.TemporaryDirectory() as tmp, open(os.devnull, "w") as null:
        home = Path(tmp)
        out = sys.stdout
        sys.stdout = null
        try:
            card = ScoreCard.from_mapping({"sixes": 18, "fours": 12, "chance": 22, "yahtzee": 50})
            adv = Advisor("yahtzee")
            for rl in (2, 1, 0):
                adv.hint(card, (2, 2, 5, 5, 5), rl)
            adv.expected_final(card)
            aa = ArrayAdvisor("yahtzee")
            for rl in (2, 1, 0):
                aa.ranked(*card.key, (2, 2, 5, 5, 5), rl)
            aa.option_values(np.array([card.key.mask] * 3), np.array([card.key.up] * 3),
                             np.array([card.key.yb] * 3), np.array([(2, 2, 5, 5, 5)] * 3), np.array([2, 1, 0]))
            aa.option_values(np.array([card.key.mask] * 3), np.array([card.key.up] * 3),  # boxes only
                             np.array([card.key.yb] * 3), np.array([(2, 2, 5, 5, 5)] * 3), 0)
            _cli("match", "master", "expert", "--games", "2", "--seed", "1", "--no-progress")
            _cli("match", "normal", "beginner", "--games", "2", "--seed", "1", "--no-progress")
            for level in ("expert", "normal", "beginner"):
                _cli("simulate", "--strategy", level, "--games", "50", "--seed", "1", "--no-progress")
            _cli("simulate", "--games", "20", "--seed", "1", "--losses", "--no-progress")
            _cli("dist", "--card", "chance=20,yahtzee=50,threes=9,fours=12,fives=15,sixes=18,small-straight=30")
            _cli("dist", "--card", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18")
            _cli("dist", "--card", "chance=20,yahtzee=50,3k=20")  # layers big enough for packed rows
            _cli("dist", "--card", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18", "--strategy", "normal")
            _cli("dist", "--card", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18", "--strategy", "beginner")
            _cli("dist", "--rules", "yacht", "--card", "aces=3,twos=6", "--strategy", "beginner")
            _cli("dist", "22555", "--rolls-left", "1", "--card", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18")  # inside a turn
            _cli("hint", "22555", "--rolls-left", "2", "--card", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18",
                 "--target", "200")
            _cli("build", "--rules", "yacht", "--out", str(home / "yacht.h5"))
            # the exact two-player endgame (win; master and the win hint use the same kernels)
            mine = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,ls=40"
            theirs = "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=25,4k=25,fh=25,ss=30,ls=40"
            _cli("win", "--card", mine, "--opponent", theirs)
            _cli("win", "66612", "--card", mine, "--opponent", theirs)
            _cli("win", "66612", "-r", "1", "--card", mine, "--opponent", theirs, "--opponent-plays", "expert")
            _cli("win", "11112", "-r", "0", "--card", mine, "--opponent", theirs)
            # the beginner's exact model (its blunders): win against it, master against it
            _cli("win", "66612", "--card", mine, "--opponent", theirs, "--opponent-plays", "beginner")
            _cli("win", "66612", "--card", mine, "--opponent", theirs, "--opponent-plays", "normal")
            _cli("match", "master", "beginner", "--games", "2", "--seed", "1", "--no-progress")
            _cli("hint", "22555", "--why", "--card", "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18")
            _web(home)
        finally:
            sys.stdout = out


def signatures() -> list[str]:
    """``module kernel (types)`` for every compiled signature of this process, sorted."""
    from yahtzee_solver.solver import jit

    lines = []
    mods = [("kernels", jit.compiled())] + [
        (name.rsplit(".", 1)[-1], m) for name, m in jit._compiled_modules.items()]
    for label, mod in mods:
        for name in mod.KERNELS:
            k = getattr(mod, name)
            for sig in getattr(k, "dispatcher", k).signatures:
                text = jit.signature_text(sig)
                if text is not None:
                    lines.append(f"{label} {name} {text}")
    return sorted(set(lines))


#: Set in the child process that warms the numba cache before the signatures are taken.
_WARM_CHILD = "YAHTZEE_SOLVER_SIGNATURES_WARMING"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="rewrite yahtzee_solver/jit_signatures.txt")
    mode.add_argument("--check", action="store_true", help="exit 1 if a signature called is not listed")
    mode.add_argument("--print", action="store_true", help="print the signatures called as JSON")
    opts = ap.parse_args(argv)
    from yahtzee_solver.solver import jit

    if os.environ.get(_WARM_CHILD) != "1":  # warm the cache first (see the module docstring)
        subprocess.run([sys.executable, __file__, "--print"], env={**os.environ, _WARM_CHILD: "1"},
                       stdout=subprocess.DEVNULL, check=True)
    workloads()
    called = signatures()
    if opts.print:
        print(json.dumps(called, indent=1))
        return 0
    path = Path(jit.SIGNATURES_FILE)
    if opts.write:
        path.write_text(jit.SIGNATURES_HEADER + "".join(f"{s}\n" for s in called))
        print(f"{path}: {len(called)} signatures")
        return 0
    missing = sorted(set(called) - set(jit.listed_signatures(text=True)))
    for s in missing:
        print(f"not listed in {path.name}: {s}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
