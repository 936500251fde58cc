"""master (exact two-player endgame) against today's master (best response only), on the same dice.

    python benchmarks/match_duel.py GAMES [--opponent expert|master] [--seed 19] [--max-open 3]
                                          [--jobs 2] [--chunk 2000] [--head-to-head] [--no-share]

``--opponent expert`` (default): ``match master expert`` twice on the same
dice; the baseline turns the exact endgame off (``duel_max_open = 0``).
Prints each run's share (wins + draws / 2) with its Wilson interval, and the
paired difference per game (new - old) with a normal 95 % interval.

``--opponent master``: three matches on the same dice -- new against new
(the two masters share one two-player solver unless ``--no-share``), old
against old, and new against old head to head.  Between two copies of one
player the share is 1/2 by symmetry (each pair of games swaps the seats on the
same dice), so those two runs give the starter's share, the mean score and the
throughput; the head-to-head run gives the new master's share against the old,
and its paired difference from 1/2.  ``--head-to-head`` plays that run only.

The games are played in chunks of ``--chunk`` games (even), chunk ``i`` on the
dice of seed ``SeedSequence([seed, i])``, by ``--jobs`` processes; a line after
each chunk gives the running figures.  The results do not depend on
``--jobs``.  CPU seconds are the sum over the processes.
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

import numpy as np

from yahtzee_solver.analysis.match import play_match, wilson_interval
from yahtzee_solver.strategy import duel

#: Run name -> (opponent of master, duel scope of a, of b); filled in main from the options.
Runs = dict[str, tuple[str, tuple[int, int]]]


def _share(scores: np.ndarray) -> np.ndarray:
    return (scores[:, 0] > scores[:, 1]) + 0.5 * (scores[:, 0] == scores[:, 1])


def _interval(d: np.ndarray) -> str:
    se = d.std(ddof=1) / math.sqrt(d.size) if d.size > 1 else math.nan
    return f"{d.mean():+.4f} (95 % interval {d.mean() - 1.96 * se:+.4f} .. {d.mean() + 1.96 * se:+.4f})"


def _chunk_seed(seed: int, i: int) -> int:
    return int(np.random.SeedSequence([seed, i]).generate_state(1, np.uint64)[0] >> np.uint64(1))


def _play_chunk(runs: Runs, games: int, seed: int, max_open: int, share: bool):
    """Every run on one chunk's dice: name -> (scores (games, 2) int, CPU seconds)."""
    out = {}
    for name, (opponent, ks) in runs.items():
        c0 = time.process_time()
        res = play_match("master", opponent, games, seed=seed, max_open=max_open, duel_max_open=ks,
                         share_duel=share)
        out[name] = (np.asarray(res.scores), time.process_time() - c0)
    return out


def _line(name: str, scores: np.ndarray, cpu: float) -> str:
    games = scores.shape[0]
    sh = _share(scores)
    lo, hi = wilson_interval(sh.sum(), games)
    # the starter: game 2i is started by a, game 2i + 1 by b
    starter = np.where(np.arange(games) % 2 == 0, sh, 1 - sh)
    return (f"{name}: {sh.mean():.4f} [{lo:.4f}, {hi:.4f}] over {games} games; starter's share "
            f"{starter.mean():.4f}; mean scores {scores[:, 0].mean():.2f} / {scores[:, 1].mean():.2f}; "
            f"{cpu:.0f} s CPU, {cpu / games:.3f} s CPU a game")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", type=int)
    ap.add_argument("--opponent", default="expert", choices=["expert", "normal", "beginner", "master"])
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--max-open", type=int, default=3, help="master's own open boxes for the best response "
                    "(as in the README's match runs)")
    ap.add_argument("--no-share", action="store_true", help="two masters keep a two-player solver each")
    ap.add_argument("--head-to-head", action="store_true", help="--opponent master: new against old only")
    ap.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--chunk", type=int, default=2000, help="games a chunk (even; default 2000)")
    a = ap.parse_args()
    if a.games < 2 or a.games % 2 or a.chunk < 2 or a.chunk % 2 or a.jobs < 1:
        ap.error("GAMES and --chunk must be even and at least 2, --jobs at least 1")
    k = duel.DEFAULT_MAX_OPEN
    share = not a.no_share
    runs: Runs
    if a.opponent != "master":
        runs = {f"new master (exact endgame up to {k} open boxes) vs {a.opponent}": (a.opponent, (k, k)),
                f"old master (best response only) vs {a.opponent}": (a.opponent, (0, 0))}
    else:
        runs = {} if a.head_to_head else {
            f"new vs new (K = {k}{', one shared solver' if share else ''})": ("master", (k, k)),
            "old vs old (best response only)": ("master", (0, 0))}
        runs[f"new (K = {k}) vs old head to head"] = ("master", (k, 0))
    sizes = [min(a.chunk, a.games - lo) for lo in range(0, a.games, a.chunk)]
    parts: list[dict | None] = [None] * len(sizes)
    t0 = time.perf_counter()
    print(f"{a.games} games in {len(sizes)} chunks, {a.jobs} process(es), seed {a.seed}", flush=True)
    with ProcessPoolExecutor(a.jobs) as pool:
        futures = {pool.submit(_play_chunk, runs, n, _chunk_seed(a.seed, i), a.max_open, share): i
                   for i, n in enumerate(sizes)}
        for done, fut in enumerate(as_completed(futures), 1):
            parts[futures[fut]] = fut.result()
            have = [p for p in parts if p is not None]
            wall = time.perf_counter() - t0
            figs = "; ".join(f"{_share(np.concatenate([p[n][0] for p in have])).mean():.4f}" for n in runs)
            print(f"  {done}/{len(sizes)} chunks, {sum(p[next(iter(runs))][0].shape[0] for p in have)} games, "
                  f"{wall:.0f} s: shares {figs}", flush=True)
    wall = time.perf_counter() - t0
    print(f"{wall:.0f} s wall for all runs", flush=True)
    sh = {}
    for name in runs:
        scores = np.concatenate([p[name][0] for p in parts if p is not None])
        cpu = sum(p[name][1] for p in parts if p is not None)
        print(_line(name, scores, cpu), flush=True)
        sh[name] = _share(scores)
    names = list(sh)
    if a.opponent != "master":
        d = sh[names[0]] - sh[names[1]]
        print(f"difference new - old: {_interval(d)}; games that differ: {int(np.count_nonzero(d))}")
        return
    no = sh[names[-1]]
    line = f"head to head, new's share - 1/2: {_interval(no - 0.5)}"
    if not a.head_to_head:
        line += (f"; games that differ from old vs old: {int(np.count_nonzero(no != sh[names[1]]))}; "
                 f"from new vs new: {int(np.count_nonzero(no != sh[names[0]]))}")
    print(line)


if __name__ == "__main__":
    main()
