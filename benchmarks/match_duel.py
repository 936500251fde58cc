"""master (exact two-player endgame) against today's master (best response only), on the same dice.

    python benchmarks/match_duel.py GAMES [--opponent expert|master] [--seed 19] [--max-open 3] [--no-share]

``--opponent expert`` (default): ``match master expert`` twice with the same
seed, so the same dice; the baseline turns the exact endgame off
(``duel_max_open = 0``).  Prints each run's share (wins + draws / 2) with its
Wilson interval, and the paired difference per game (new - old) with a normal
95 % interval.

``--opponent master``: three matches on the same dice -- new against new
(the two masters share one two-player solver unless ``--no-share``), old
against old, and new against old head to head.  Between two copies of one
player the share is 1/2 by symmetry (each pair of games swaps the seats on the
same dice), so those two runs give the starter's share, the mean score and the
throughput; the head-to-head run gives the new master's share against the old,
and its paired difference from 1/2.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from yahtzee_solver.analysis.match import play_match, wilson_interval
from yahtzee_solver.strategy import duel


def _share(scores: np.ndarray) -> np.ndarray:
    return (scores[:, 0] > scores[:, 1]) + 0.5 * (scores[:, 0] == scores[:, 1])


def _interval(d: np.ndarray) -> str:
    se = d.std(ddof=1) / math.sqrt(d.size) if d.size > 1 else math.nan
    return f"{d.mean():+.4f} (95 % interval {d.mean() - 1.96 * se:+.4f} .. {d.mean() + 1.96 * se:+.4f})"


def _run(name: str, opponent: str, games: int, seed: int, max_open: int, ks: tuple[int, int], share: bool):
    t0, c0 = time.perf_counter(), time.process_time()
    res = play_match("master", opponent, games, seed=seed, max_open=max_open, duel_max_open=ks, share_duel=share)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    sh = _share(res.scores)
    lo, hi = wilson_interval(sh.sum(), games)
    # the starter: game 2i is started by a, game 2i + 1 by b
    starter = np.where(np.arange(games) % 2 == 0, sh, 1 - sh)
    print(f"{name}: {sh.mean():.4f} [{lo:.4f}, {hi:.4f}] over {games} games; starter's share {starter.mean():.4f}; "
          f"mean scores {res.scores[:, 0].mean():.2f} / {res.scores[:, 1].mean():.2f}; {wall:.0f} s wall, "
          f"{cpu:.0f} s CPU, {games / wall:.2f} games/s", flush=True)
    return sh


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", type=int)
    ap.add_argument("--opponent", default="expert", choices=["expert", "normal", "beginner", "master"])
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--max-open", type=int, default=3, help="master's own open boxes for the best response "
                    "(as in the README's match runs)")
    ap.add_argument("--no-share", action="store_true", help="two masters keep a two-player solver each")
    a = ap.parse_args()
    k = duel.DEFAULT_MAX_OPEN
    share = not a.no_share
    if a.opponent != "master":
        out = {}
        for name, kk in (("new", k), ("old", 0)):
            out[name] = _run(f"{name} master (exact endgame up to {kk} open boxes) vs {a.opponent}", a.opponent,
                             a.games, a.seed, a.max_open, (kk, kk), share)
        d = out["new"] - out["old"]
        print(f"difference new - old: {_interval(d)}; games that differ: {int(np.count_nonzero(d))}")
        return
    nn = _run(f"new vs new (K = {k}{', one shared solver' if share else ''})", "master", a.games, a.seed,
              a.max_open, (k, k), share)
    oo = _run("old vs old (best response only)", "master", a.games, a.seed, a.max_open, (0, 0), share)
    no = _run(f"new (K = {k}) vs old head to head", "master", a.games, a.seed, a.max_open, (k, 0), share)
    print(f"head to head, new's share - 1/2: {_interval(no - 0.5)}; games that differ from old vs old: "
          f"{int(np.count_nonzero(no != oo))}; from new vs new: {int(np.count_nonzero(no != nn))}")


if __name__ == "__main__":
    main()
