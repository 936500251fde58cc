#!/usr/bin/env python3
"""Simulation throughput of the optimal policy (``yahtzee_solver.analysis.simulate``, level ``expert``).

Games per second with all threads and with one (the baseline, measured in the
same run, rounds alternating), and the mean final score with its 95 %
interval, which must cover the optimal expected score of the value table
(the empty-card value, docs/rules.md: 254.5877287 for ``yahtzee``).  Compile time
is excluded by ``simulate`` itself.  ``compare_peer.py`` compares the
throughput with the peer's.

Exits 1 if the interval of the pooled games misses the table's value by more
than 4 standard errors (a wrong policy or scoring, not bad luck).

Usage::

    python benchmarks/bench_simulate.py [--games 20000] [--rounds 3] [--seed 1] [--rules yahtzee]
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default="yahtzee")
    opts = ap.parse_args(argv)
    common.header(f"simulation of the optimal policy: {opts.rules}, {opts.games} games per run")
    try:
        from yahtzee_solver.analysis.simulate import simulate
    except ImportError as e:
        print(f"yahtzee_solver.analysis.simulate is not available ({e})")
        return 1
    import numba

    from yahtzee_solver.solver.table import load_table

    expected = load_table(opts.rules).empty_value
    threads = numba.get_num_threads()
    simulate("expert", 10, opts.rules, seed=opts.seed)  # load the game kernel
    rates: dict[int, list[float]] = {threads: [], 1: []}
    scores = []
    for i in range(opts.rounds):
        for nt in rates:
            numba.set_num_threads(nt)
            try:
                res = simulate("expert", opts.games, opts.rules, seed=opts.seed + i)
            finally:
                numba.set_num_threads(threads)
            rates[nt].append(res.games_per_second)
            if nt == threads:
                scores.append(res.scores)
            half = (res.ci95[1] - res.ci95[0]) / 2
            print(f"  round {i + 1}, {nt} thread(s): {res.games_per_second:,.0f} games/s "
                  f"({res.seconds:.2f} s), mean {res.mean:.3f} +/- {half:.3f}")
    all_scores = np.concatenate(scores).astype(np.float64)
    n = len(all_scores)
    mean, se = float(all_scores.mean()), float(all_scores.std(ddof=1)) / math.sqrt(n)
    fast, one = common.median(rates[threads]), common.median(rates[1])
    print()
    print(f"games/s (median), {threads} threads   {fast:,.0f}")
    print(f"games/s (median), 1 thread    {one:,.0f}   {threads}-thread/1-thread {common.ratio(fast, one)}")
    print(f"mean final score ({n} games)   {mean:.3f} +/- {1.96 * se:.3f} (95 %)   "
          f"table value {expected:.7f}   off by {abs(mean - expected) / se:.2f} standard errors")
    if abs(mean - expected) > 4 * se:
        print("ERROR: the simulated mean is incompatible with the table's expected score")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
