#!/usr/bin/env python3
"""Target-score and win-probability speed: cold queries, master's decisions, match throughput.

Prints, with the machine's load (the figures of a busy machine are not the
integrator's):

1. ``yahtzee-solve value/hint --target`` and the win hint of ``play`` (the
   opponent's distribution and the keeps ranked by P(win)) from a cold shell,
   positions with 2, 4 and 6 open boxes (median and minimum wall time of
   ``--runs`` fresh processes; goal <= 0.5 s with 6 or fewer open boxes);
   baseline the import floor ``python -c "import numpy, h5py, click"`` in the
   same run;
2. the ``master`` CPU's decision time in games against the expert (median and
   worst per keep/box decision; goal median <= 0.2 s, worst <= 2 s), the
   expert's decision time as baseline;
3. ``play_match`` games per second for master vs expert and expert vs expert
   (the 40,000-game run takes 40,000 / that many seconds).

Usage::

    python benchmarks/bench_target.py [--runs 5] [--games 20] [--max-open 3] [--cold-only]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402

CARDS = {
    2: "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25,ss=30,ls=40",
    4: "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20,4k=20,fh=25",
    6: "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,3k=20",
}


#: Goal for a whole cold process answering a target or win query with 6 or fewer open boxes.
GOAL_SECONDS = 0.5

#: The win hint of ``play`` (what :func:`yahtzee_solver.tui.win_hint.win_hint_lines` computes): the
#: opponent's exact final-score distribution from its card, then the keeps ranked by P(win).
WIN_HINT = """
import os
import sys
from yahtzee_solver.strategy.advisor import Advisor
from yahtzee_solver.dice import roll_index
from yahtzee_solver.strategy.objectives import WinSource, opponent_pmf
from yahtzee_solver.strategy.policy import Policy
from yahtzee_solver.state import parse_card
from yahtzee_solver.solver.table import open_table

me, cpu = parse_card(sys.argv[1]), parse_card(sys.argv[2])
table = open_table(me.rules)
pmf = opponent_pmf(me.rules, cpu, "expert", table)
adv = Advisor(me.rules, table, jit=False)
policy = Policy(WinSource(me.rules, pmf), tiebreak=adv.source)
codes, P = policy.keep_ranking(me.key, me.total, roll_index("13456"), 2)
print(codes[0], P[0])
sys.stdout.flush()
os._exit(0)  # a hint inside a game session pays no interpreter teardown (the command's own end skips it too)
"""

#: The opponent's card in the win-hint runs (a CPU one turn behind: 7 boxes open).
WIN_OPPONENT = "ones=2,twos=6,threes=9,fours=16,fives=15,chance=22"


def cold(runs: int) -> None:
    print("\n## (1) --target and the win hint from a cold shell (fresh process per run; the runs alternate)")
    print("  children run without PYTHONDONTWRITEBYTECODE (bytecode caches as installed);")
    print("  'x floor' is the ratio to importing what every command imports (numpy, h5py, click)")
    exe = shutil.which("yahtzee-solve") or str(Path(sys.executable).with_name("yahtzee-solve"))
    floor = "python -c 'import numpy, h5py, click'"
    cmds = {floor: [sys.executable, "-c", "import numpy, h5py, click"]}
    for n, card in CARDS.items():
        cmds[f"hint 13456 --target 300, {n} open boxes"] = [exe, "hint", "13456", "--card", card, "--target", "300"]
        cmds[f"value --target 300, {n} open boxes"] = [exe, "value", "--card", card, "--target", "300"]
        cmds[f"win hint (play), {n} open boxes"] = [sys.executable, "-c", WIN_HINT, card, WIN_OPPONENT]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    walls = common.time_processes(cmds, floor, runs, env)
    print(f"\n## goals: a whole cold process with 6 or fewer open boxes <= {GOAL_SECONDS} s (median wall)")
    for k, w in walls.items():
        if k != floor:
            m = common.median(w)
            print(f"  {k:<40} {m:6.3f} s = {m / GOAL_SECONDS:4.2f} x the limit   "
                  f"{'met' if m <= GOAL_SECONDS else 'NOT MET'}")


def decisions(games: int, max_open: int) -> None:
    from yahtzee_solver.analysis.match import play_match
    from yahtzee_solver.strategy.master import MasterStrategy
    from yahtzee_solver.strategy.players import ExpertStrategy

    print(f"\n## (2) decision time in games against the expert ({games} games, max-open {max_open})")
    times = {"master": [], "expert": []}
    orig = {}
    for cls, name in ((MasterStrategy, "master"), (ExpertStrategy, "expert")):
        for meth in ("choose_keep", "choose_box"):
            f = getattr(cls, meth)
            orig[(cls, meth)] = f

            def timed(self, *a, _f=f, _n=name, **k):
                t = time.perf_counter()
                out = _f(self, *a, **k)
                if type(self).level == _n:
                    times[_n].append(time.perf_counter() - t)
                return out

            setattr(cls, meth, timed)
    try:
        play_match("master", "expert", 2, seed=0, max_open=max_open)  # compile / load the kernels
        for v in times.values():
            v.clear()
        play_match("master", "expert", games, seed=1, max_open=max_open)
    finally:
        for (cls, meth), f in orig.items():
            setattr(cls, meth, f)
    for name, ts in times.items():
        ts = sorted(ts)
        print(f"  {name:<7} {len(ts):6d} decisions  median {1e3 * common.median(ts):8.2f} ms  "
              f"p99 {1e3 * ts[int(0.99 * (len(ts) - 1))]:8.1f} ms  worst {1e3 * ts[-1]:8.1f} ms")


def throughput(games: int, max_open: int) -> None:
    from yahtzee_solver.analysis.match import play_match

    print(f"\n## (3) match throughput ({games} games each)")
    for a, b in (("expert", "expert"), ("master", "expert")):
        res = play_match(a, b, games, seed=2, max_open=max_open)
        gps = games / res.seconds
        print(f"  {a} vs {b}: {gps:7.2f} games/s -> 40,000 games in {40000 / gps / 3600:5.2f} h (one process)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--max-open", type=int, default=3)
    ap.add_argument("--cold-only", action="store_true", help="only part (1): whole processes from a cold shell")
    opts = ap.parse_args(argv)
    common.header("target score and win probability")
    cold(opts.runs)
    if opts.cold_only:
        return 0
    decisions(opts.games, opts.max_open)
    throughput(opts.games, opts.max_open)
    return 0


if __name__ == "__main__":
    sys.exit(main())
