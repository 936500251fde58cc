#!/usr/bin/env python3
"""Exact score distributions and game review: wall time and peak memory.

Goals (issue "exact score distributions and game review"):

* optimal-policy distribution from the empty card: <= 10 s, peak memory <= 2 GiB;
* from a card with 6 or fewer open boxes: <= 0.5 s including start-up (a whole
  ``yahtzee-solve dist`` process);
* review of a finished 13-turn game: <= 0.5 s from a cold shell (a whole
  ``yahtzee-solve review FILE`` process).

Each measurement runs in a fresh child process.  The baseline, measured in the
same run, is the table build of the same rule set (``build_values``, the same
turn kernel over the same states): "x build" is the ratio to it, which says
more than the seconds on a busy machine.  The empty-card distributions also
print their mean, SD and median (the README's table).

Usage::

    python benchmarks/bench_dist.py [--rules yahtzee yahtzee-free-joker yacht] [--runs 3] [--processes-only]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402

WARM = "from yahtzee_solver.solver import jit; jit.compiled()\n"

#: Goal for a whole ``dist --card`` process from a card with 6 or fewer open boxes, and for ``review``.
GOAL_SECONDS = 0.5

BUILD = WARM + """
import sys, time
from yahtzee_solver.solver.build import build_values
build_values(sys.argv[1])  # compile / load the cache
t = time.perf_counter(); build_values(sys.argv[1]); w = time.perf_counter() - t
print(f"seconds={w!r}")
"""

DIST = WARM + """
import sys, time
from yahtzee_solver.strategy.distribution import score_distribution
from yahtzee_solver.state import parse_card
card = parse_card("ones=1,twos=2,threes=3,fours=4,fives=5,sixes=6,chance=20" , sys.argv[1])
score_distribution(card, strategy=sys.argv[2])  # compile / load the cache
t = time.perf_counter(); d = score_distribution(rules=sys.argv[1], strategy=sys.argv[2]); w = time.perf_counter() - t
print(f"seconds={w!r} mean={d.mean!r} sd={d.sd!r} median={d.percentile(50)} sum={float(d.pmf.sum())!r}")
"""

FINISHED_GAME = """
import sys, json
from yahtzee_solver.game import new_game, cpu_actions
from yahtzee_solver.strategy.levels import make_strategy
s = make_strategy("normal", sys.argv[1], jit=False)
g = new_game(sys.argv[1], seed=1)
while not g.is_terminal():
    for a in cpu_actions(g, s):
        g.apply_action(a)
from yahtzee_solver.play.savegame import state_to_dict
open(sys.argv[2], "w").write(json.dumps(state_to_dict(g)))
print("ok=1")
"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", nargs="+", default=["yahtzee", "yahtzee-free-joker", "yacht"])
    ap.add_argument("--strategies", nargs="+", default=["optimal"])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--processes-only", action="store_true",
                    help="only part (2): the whole processes from a cold shell")
    opts = ap.parse_args(argv)
    common.header("exact distributions and game review")
    exe = shutil.which("yahtzee-solve") or str(Path(sys.executable).with_name("yahtzee-solve"))

    if not opts.processes_only:
        print("\n## (1) distribution from the empty card (child process each; median of runs)")
        print("  rules                strategy   build s   dist s   x build   peak MiB    mean        sd       median")
    for rules in [] if opts.processes_only else opts.rules:
        for strategy in opts.strategies:
            builds, dists, peaks = [], [], []
            fields = {}
            for _ in range(opts.runs):  # alternate baseline and measurement
                b, _, _ = common.run_child(BUILD, rules)
                builds.append(b["seconds"])
                fields, _, rss = common.run_child(DIST, rules, strategy)
                dists.append(fields["seconds"])
                peaks.append(rss)
            b, d = common.median(builds), common.median(dists)
            print(f"  {rules:<20} {strategy:<9} {b:8.2f} {d:8.2f}   {common.ratio(d, b):>6}   {max(peaks):8.0f}"
                  f"   {fields['mean']:.4f}  {fields['sd']:.4f}   {fields['median']}")
            if abs(fields["sum"] - 1) > 1e-12:
                print(f"  !! probabilities sum to {fields['sum']!r}")

    print("\n## (2) whole processes from a cold shell (median / min wall of runs)")
    print("  children run without PYTHONDONTWRITEBYTECODE (bytecode caches as installed);")
    print("  'x floor' is the ratio to importing what every command imports (numpy, h5py, click)")
    # as an installed package runs: with its bytecode caches
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    floor = "python -c 'import numpy, h5py, click'"
    with tempfile.TemporaryDirectory() as tmp:
        game = os.path.join(tmp, "game.json")
        common.run_child(FINISHED_GAME, "yahtzee", game)
        cmds = {
            floor: [sys.executable, "-c", "import numpy, h5py, click"],
            "python -c 'import numba'": [sys.executable, "-c", "import numpy, h5py, click, numba"],
            "dist --card (6 open, upper full)": [exe, "dist", "--card",
                                                 "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,chance=20"],
            "dist --card (6 open: 5s 6s + 4)": [exe, "dist", "--card",
                                                "ones=3,twos=6,threes=9,fours=12,3k=20,4k=0,chance=20"],
            "dist --card (3 open boxes)": [exe, "dist", "--card",
                                           "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,chance=20,"
                                           "3k=20,4k=0,ss=30"],
            "dist --card (4 open boxes)": [exe, "dist", "--card",
                                           "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,chance=20,"
                                           "3k=20,4k=0"],
            "review FILE (13 turns)": [exe, "review", game],
        }
        walls = common.time_processes(cmds, floor, max(3, opts.runs * 2), env, width=38)
        print("\n## goals (median wall of whole processes; met with margin when well under the limit)")
        for name, ws in walls.items():
            if name.startswith("dist --card") or name.startswith("review"):
                m = common.median(ws)
                print(f"  {name:<38} {m:6.3f} s = {m / GOAL_SECONDS:4.2f} x the limit {GOAL_SECONDS} s   "
                      f"{'met' if m <= GOAL_SECONDS else 'NOT MET'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
