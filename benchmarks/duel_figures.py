"""Winning chances against the expert from the empty card: the best blind response and the clairvoyant ceiling.

    python benchmarks/duel_figures.py [--rules yacht yahtzee yatzy]

For each rule set, with ``p`` the expert's exact final-score distribution
from the empty card (``objectives.opponent_pmf``):

* blind: max over my policies of P(my final > the expert's) + P(=)/2, my
  policy seeing only my own card (``WinSource(p)`` from the empty card);
* clairvoyant: the same when I know the expert's final score ``T`` before the
  game: sum over T of p(T) * max P(final > T) + P(final = T)/2.  One DP with
  the utility of a point mass at the highest T, solved for every offset of the
  root (``solve_utility(..., every_offset=True)``), gives the best value for
  every T at once: offset j is T = Tmax - j.

Both are exact float64 DPs (no sampling); times are wall and CPU of this process.
Only two layers of value vectors are held at a time (about 3 GB for Yahtzee,
1.7 GB for Yatzy); ``--progress`` prints each layer's time on stderr.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from yahtzee_solver.state import ScoreCard
from yahtzee_solver.strategy.objectives import opponent_pmf, solve_utility, win_utility


def _progress(name: str):
    t0 = time.perf_counter()

    def show(done: int, total: int) -> None:
        print(f"  {name}: {done}/{total} states, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)

    return show


def figures(rules: str, progress: bool = False) -> dict:
    empty = ScoreCard.empty(rules)
    t0, c0 = time.perf_counter(), time.process_time()
    pmf = opponent_pmf(rules, empty, "expert")
    mean = float(np.arange(pmf.size) @ pmf)
    # WinSource(rules, pmf).probability(empty), keeping two layers instead of all (the same numbers)
    blind = solve_utility(rules, empty, 0, win_utility(pmf, 0), keep_all=False,
                          progress=_progress(f"{rules} blind") if progress else None).value
    t1, c1 = time.perf_counter(), time.process_time()
    # at once: the clairvoyant DP takes as long again
    print(f"{rules}: expert mean {mean:.4f}; best blind response {blind:.6f} ({t1 - t0:.0f} s wall, "
          f"{c1 - c0:.0f} s CPU)", flush=True)
    top = int(np.flatnonzero(pmf > 0)[-1])
    delta = np.zeros(top + 1)
    delta[top] = 1.0
    sol = solve_utility(rules, empty, 0, win_utility(delta, 0), keep_all=False, every_offset=True,
                        progress=_progress(f"{rules} clairvoyant") if progress else None)
    w = sol.root_values  # w[j] = best P(final > top - j) + P(= top - j)/2
    T = np.arange(top + 1)
    clair = float(pmf[: top + 1] @ w[top - T])
    t2, c2 = time.perf_counter(), time.process_time()
    return {"rules": rules, "expert_mean": mean, "blind": blind, "clairvoyant": clair,
            "blind_seconds": (t1 - t0, c1 - c0), "clairvoyant_seconds": (t2 - t1, c2 - c1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", nargs="+", default=["yacht"])
    ap.add_argument("--progress", action="store_true", help="each layer's time on stderr")
    a = ap.parse_args()
    for r in a.rules:
        f = figures(r, a.progress)
        print(f"{r}: expert mean {f['expert_mean']:.4f}; best blind response {f['blind']:.6f} "
              f"({f['blind_seconds'][0]:.0f} s wall, {f['blind_seconds'][1]:.0f} s CPU); clairvoyant ceiling "
              f"{f['clairvoyant']:.6f} ({f['clairvoyant_seconds'][0]:.0f} s wall, "
              f"{f['clairvoyant_seconds'][1]:.0f} s CPU)", flush=True)


if __name__ == "__main__":
    main()
