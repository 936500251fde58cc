#!/usr/bin/env python3
"""The README table of simulated CPU levels: every level x rule set, as markdown.

For each level (beginner, normal, expert) and rule set: games played, mean final
score with its 95 % interval, standard deviation, P10/P50/P90, upper-bonus rate
and Yahtzee rate (five alike scored as 50 in the Yahtzee/Yacht box), plus the
table's optimal value for comparison.  Every row is the library call behind
``yahtzee-solve simulate --strategy LEVEL --games N --rules R --seed S``, so a
row can be reproduced from the command line.

Usage::

    python benchmarks/simulate_table.py [--games 100000] [--beginner-games 50000] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402

from yahtzee_solver.strategy.players import LEVELS  # noqa: E402
from yahtzee_solver.rules import RULESETS  # noqa: E402
from yahtzee_solver.analysis.simulate import simulate  # noqa: E402
from yahtzee_solver.solver.table import load_table  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000, help="games for expert and normal")
    ap.add_argument("--beginner-games", type=int, default=50_000, help="games for beginner (plays in Python)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--progress", action="store_true", help="progress bars on stderr")
    opts = ap.parse_args(argv)
    common.header("simulated CPU levels")
    rows = []
    for rules in RULESETS:
        optimum = load_table(rules).empty_value
        for level in LEVELS:
            n = opts.beginner_games if level == "beginner" else opts.games
            res = simulate(level, n, rules, seed=opts.seed, progress=opts.progress)
            lo, hi = res.ci95
            p = res.percentiles
            cmd = f"yahtzee-solve simulate --strategy {level} --games {n} --rules {rules} --seed {opts.seed}"
            rows.append(
                f"| {rules} | {level} | {n:,} | {res.mean:.2f} ± {(hi - lo) / 2:.2f} | {res.sd:.1f} "
                f"| {p[10]:g} / {p[50]:g} / {p[90]:g} | {100 * res.upper_bonus_rate:.1f} % "
                f"| {100 * res.yahtzee_rate:.1f} % | {optimum:.2f} | `{cmd}` |"
            )
            print(f"# {rules} {level}: {res.games_per_second:,.0f} games/s", file=sys.stderr)
    print()
    print("| rules | level | games | mean ± 95 % CI | sd | P10 / P50 / P90 | upper bonus | Yahtzee (50) "
          "| optimal value | command |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for row in rows:
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
