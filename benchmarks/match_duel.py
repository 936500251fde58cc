"""master (exact two-player endgame) against today's master (best response only), on the same dice.

    python benchmarks/match_duel.py GAMES [--opponent expert] [--seed 19] [--max-open 3]

Both runs play ``match master OPPONENT`` with the same seed, so the same
dice; the baseline turns the exact endgame off (``duel.DEFAULT_MAX_OPEN = 0``).
Prints each run's share (wins + draws / 2) with its Wilson interval, and the
paired difference per game (new - old) with a normal 95 % interval.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from yahtzee_solver.analysis.match import play_match, wilson_interval
from yahtzee_solver.strategy import duel


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", type=int)
    ap.add_argument("--opponent", default="expert")
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--max-open", type=int, default=3, help="master's own open boxes for the best response "
                    "(as in the README's match runs)")
    a = ap.parse_args()
    out = {}
    for name, k in (("new", duel.DEFAULT_MAX_OPEN), ("old", 0)):
        duel.DEFAULT_MAX_OPEN = k
        t0, c0 = time.perf_counter(), time.process_time()
        res = play_match("master", a.opponent, a.games, seed=a.seed, max_open=a.max_open)
        sc = res.scores
        share = (sc[:, 0] > sc[:, 1]) + 0.5 * (sc[:, 0] == sc[:, 1])
        lo, hi = wilson_interval(share.sum(), a.games)
        out[name] = share
        print(f"{name} master (exact endgame up to {k} open boxes) vs {a.opponent}: {share.mean():.4f} "
              f"[{lo:.4f}, {hi:.4f}] over {a.games} games; {time.perf_counter() - t0:.0f} s wall, "
              f"{time.process_time() - c0:.0f} s CPU", flush=True)
    d = out["new"] - out["old"]
    se = d.std(ddof=1) / math.sqrt(d.size)
    print(f"difference new - old: {d.mean():+.4f} (95 % interval {d.mean() - 1.96 * se:+.4f} .. "
          f"{d.mean() + 1.96 * se:+.4f}); games that differ: {int(np.count_nonzero(d))}")


if __name__ == "__main__":
    main()
