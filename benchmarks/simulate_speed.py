#!/usr/bin/env python3
"""Speed of ``simulate``: games per second per level, and the goal for the expert.

Goal (project brief): at least 1,000 optimal (expert) games per second on a
2-core machine; the peer reference, yatzy-solver, plays about 9,700/s there.
The expert's and normal player's games run in the compiled game kernel
(:func:`yahtzee_solver.solver.kernels.play_games`), which shares the keep values of
a turn-start state among all games that reach it, so the rate grows with the
number of games per run; the rows show that.  Compile/load time is excluded
(reported on its own line).

Exits 1 if the expert plays fewer than ``--goal`` games/s at ``--games``.

Usage::

    python benchmarks/simulate_speed.py [--games 100000] [--rounds 3] [--goal 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402

from yahtzee_solver.analysis.simulate import simulate  # noqa: E402


def rate(level: str, games: int, rounds: int, seed: int, rules: str = "yahtzee") -> float:
    return common.median([simulate(level, games, rules, seed=seed + i).games_per_second for i in range(rounds)])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--goal", type=float, default=1000.0, help="expert games/s required")
    ap.add_argument("--seed", type=int, default=1)
    opts = ap.parse_args(argv)
    common.header("simulate: games per second")
    t = time.perf_counter()
    simulate("expert", 10, seed=0)
    simulate("normal", 10, seed=0)
    print(f"kernel load/compile + table load: {time.perf_counter() - t:.2f} s")
    print("| level | rules | games per run | games/s (median of runs) |")
    print("|---|---|---:|---:|")
    for n in sorted({1_000, 10_000, opts.games}):
        print(f"| expert | yahtzee | {n:,} | {rate('expert', n, opts.rounds, opts.seed):,.0f} |", flush=True)
    expert = rate("expert", opts.games, opts.rounds, opts.seed)
    for rules in ("yahtzee-free-joker", "yacht"):
        print(f"| expert | {rules} | {opts.games:,} | {rate('expert', opts.games, opts.rounds, opts.seed, rules):,.0f} |")
    print(f"| normal | yahtzee | {opts.games:,} | {rate('normal', opts.games, opts.rounds, opts.seed):,.0f} |")
    print(f"| beginner | yahtzee | 2,000 | {rate('beginner', 2_000, 1, opts.seed):,.0f} |")
    ok = expert >= opts.goal
    print(f"\nexpert at {opts.games:,} games: {expert:,.0f} games/s; goal >= {opts.goal:,.0f}: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
