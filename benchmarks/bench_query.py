#!/usr/bin/env python3
"""Query speed in a warm process: ranked keeps and boxes, one position and batches.

Goals (issue 2): ranked keeps for one position < 200 us median, ranked boxes
< 20 us (``Advisor`` with ``jit=True``, warm).  Issue 4 compares the raw
single call and the batch with the peer (``compare_peer.py``).  Issue 22,
goal 3: ``Advisor.hint`` and ``keep_options``/``box_options`` at most 1.5x
the kernel of the same query (the object layer: card, dice, ranking, result
objects; the results are built on first look, so a second column reads them
all).

The positions are met in seeded random games (``common.positions``: rerolls
left 2/1/0 x early/middle/late game).  Every single call is timed ``--repeat``
times per position, the APIs in a new random order (seeded) for each
position and repeat, so that each call follows each other equally often (a
call right after another kernel runs slower than one after itself: the code
and data it touches were pushed out of the caches); the figure is the median
over the positions of each position's median.  The baseline of the ratios is
the bare compiled turn kernel on the same positions (:func:`kernels.turn`, or
:func:`kernels.box_values` with no reroll left, called through numba's
dispatch), so "Advisor / kernel" is the cost of the API around the work any
answer needs.  A second baseline is the ranking kernel the Advisor runs
(:func:`kernels.ranked_keeps` / :func:`kernels.ranked_boxes`), called as the
Advisor calls it (``jit.entry_point``: no dispatch) with its output arrays
made beforehand: "hint / ranked kernel" is the object layer's own cost.

Usage::

    python benchmarks/bench_query.py [--positions 1000] [--seed 2026] [--repeat 7] [--rules yahtzee]
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402

from yahtzee_solver import Advisor  # noqa: E402
from yahtzee_solver.strategy.batch import ArrayAdvisor  # noqa: E402
from yahtzee_solver.dice import N_KEEPS, roll_index  # noqa: E402
from yahtzee_solver.solver import jit  # noqa: E402

#: The kernel called without dispatch (older checkouts, to compare: through the dispatcher).
entry_point = getattr(jit, "entry_point", lambda kernel, *sample: kernel)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--batch-repeat", type=int, default=21)
    ap.add_argument("--rules", default="yahtzee")
    opts = ap.parse_args(argv)
    common.header(f"query speed: {opts.rules}, {opts.positions} positions (seed {opts.seed})")
    pos = common.positions(opts.positions, opts.seed, opts.rules)
    aa = ArrayAdvisor(opts.rules)
    adv = Advisor(opts.rules, aa.table)
    k = aa.kernels
    a = aa.rules.arrays()
    V, E, B = aa.table.values, np.empty((3, N_KEEPS)), np.empty(N_KEEPS)

    score, joker, params = a["score"], a["joker"], a["params"]
    turn, ranked, hint = k.turn, aa.ranked, adv.hint
    keep_options, box_options = adv.keep_options, adv.box_options

    points, legal, values = np.empty(aa.rules.n_categories, np.int64), np.empty(aa.rules.n_categories, np.int8), \
        np.empty(aa.rules.n_categories)
    box_values = k.box_values

    def kernel(m, u, y, r, rl, card):
        if rl:
            turn(m, u, y, rl, V, score, joker, params, E, B)
        else:
            box_values(m, u, y, r, V, score, joker, params, points, legal, values)

    packed = a["packed"]
    one_i, one_f = np.empty(1, np.int64), np.empty(1)
    ranked_keeps = entry_point(k.ranked_keeps, 0, 0, 0, 0, 0, V, packed, one_i, one_f)
    ranked_boxes = entry_point(k.ranked_boxes, 0, 0, 0, 0, V, packed, one_i, one_f)
    C = aa.rules.n_categories
    outs = {n: (np.empty(n, np.int64), np.empty(n)) for n in range(C + 1)}
    outs[32] = (np.empty(32, np.int64), np.empty(32))

    def ranked_kernel(m, u, y, r, rl, card):
        if rl:
            ranked_keeps(m, u, y, r, rl, V, packed, *outs[32])
        else:
            ranked_boxes(m, u, y, r, V, packed, *outs[C - m.bit_count()])

    calls = {
        "kernel only": kernel,
        "ranked kernel": ranked_kernel,
        "ArrayAdvisor.ranked": lambda m, u, y, dice, rl, card: ranked(m, u, y, dice, rl),
        "Advisor.hint": lambda m, u, y, dice, rl, card: hint(card, dice, rl),
        "keep/box_options": lambda m, u, y, dice, rl, card: (keep_options(card, dice, rl) if rl
                                                             else box_options(card, dice)),
        "hint, all read": lambda m, u, y, dice, rl, card: list(hint(card, dice, rl)),
    }
    args = [(*p.key, p.dice, p.rolls_left, p.card) for p in pos]
    kargs = [(*p.key, roll_index(p.dice), p.rolls_left, p.card) for p in pos]
    raw = (kernel, ranked_kernel)
    for x, kx in zip(args[:50], kargs[:50]):
        for f in calls.values():
            f(*(kx if f in raw else x))
    times = {name: np.empty((len(pos), opts.repeat)) for name in calls}
    clock = time.perf_counter_ns
    items = list(calls.items())
    rng = np.random.default_rng(opts.seed)
    orders = [[items[c] for c in rng.permutation(len(items))] for _ in range(len(pos) * opts.repeat)]
    gc.disable()
    try:
        for j in range(opts.repeat):
            for i, x in enumerate(args):
                for name, f in orders[j * len(pos) + i]:  # each call after each other equally often
                    xx = kargs[i] if f in raw else x
                    t = clock()
                    f(*xx)
                    times[name][i, j] = clock() - t
    finally:
        gc.enable()
    rls = rls_ = np.array([p.rolls_left for p in pos])
    phases = np.array([p.phase for p in pos])
    med = {name: np.median(t, axis=1) / 1000 for name, t in times.items()}
    print("\nsingle position, median us (per-position median of repeats, then median over positions)")
    print(f"  {'subset':16s}" + "".join(f"{name:>20s}" for name in calls)
          + "   hint/kernel  options/kernel  all read/kernel  hint/ranked kernel")
    rows = [("all", np.ones(len(pos), bool))]
    rows += [(f"rerolls left {r}", rls == r) for r in (2, 1, 0)]
    rows += [(f"{ph} game", phases == ph) for ph in common.PHASES]
    for label, sel in rows:
        vals = [float(np.median(med[name][sel])) for name in calls]
        print(f"  {label:16s}" + "".join(f"{v:20.2f}" for v in vals) + f"   {common.ratio(vals[3], vals[0]):>11}"
              f"  {common.ratio(vals[4], vals[0]):>14}  {common.ratio(vals[5], vals[0]):>15}"
              f"  {common.ratio(vals[3], vals[1]):>18}")
    print("  goal (issue 22): hint and keep/box_options <= 1.5x the kernel of the same query, "
          "each rerolls-left row")
    for r in (2, 1, 0):
        sel = rls_ == r
        kk = float(np.median(med["kernel only"][sel]))
        kr = float(np.median(med["ranked kernel"][sel]))
        for name in ("Advisor.hint", "keep/box_options"):
            t = float(np.median(med[name][sel]))
            x = t / kk
            print(f"    rerolls left {r}: {name:18s} {x:5.2f}x  {'met' if x <= 1.5 else 'NOT MET'}"
                  f"   (against the ranking kernel it runs, no dispatch: {t / kr:.2f}x)")
    keeps = float(np.median(med["Advisor.hint"][rls > 0]))
    boxes = float(np.median(med["Advisor.hint"][rls == 0]))
    print(f"\n  Advisor ranked keeps {keeps:.1f} us (goal < 200 us); ranked boxes {boxes:.1f} us (goal < 20 us)")

    # batch
    masks = np.array([p.key.mask for p in pos])
    ups = np.array([p.key.up for p in pos])
    ybs = np.array([p.key.yb for p in pos])
    dice = np.array([p.dice for p in pos])
    res = aa.option_values(masks, ups, ybs, dice, rls)
    print("\nbatch (ArrayAdvisor.option_values, all positions in one call; median of "
          f"{opts.batch_repeat} calls)")
    import numba

    threads = numba.get_num_threads()
    per = {}
    for nt in sorted({1, threads}):
        numba.set_num_threads(nt)
        ts = []
        for _ in range(opts.batch_repeat):
            t = time.perf_counter()
            res2 = aa.option_values(masks, ups, ybs, dice, rls)
            ts.append(time.perf_counter() - t)
        per[nt] = common.median(ts) / len(pos) * 1e6
        assert np.array_equal(res2.keep_values, res.keep_values, equal_nan=True)
        print(f"  {nt} thread(s): {per[nt]:.3f} us/position ({1e6 / per[nt]:,.0f} positions/s)")
    numba.set_num_threads(threads)
    single = float(np.median(med["ArrayAdvisor.ranked"]))
    print(f"  batch ({threads} threads) / single ranked call: {common.ratio(per[threads], single)}")
    # realistic workload: every decision of whole games (3 positions per turn share a state)
    rng = np.random.default_rng(opts.seed)
    games = [p for _ in range(100) for p in common.play_random_game(rng, aa.rules)]
    gm = np.array([p.key.mask for p in games])
    gu = np.array([p.key.up for p in games])
    gy = np.array([p.key.yb for p in games])
    gd = np.array([p.dice for p in games])
    gr = np.array([p.rolls_left for p in games])
    ts = []
    for _ in range(max(3, opts.batch_repeat // 3)):
        t = time.perf_counter()
        aa.option_values(gm, gu, gy, gd, gr)
        ts.append(time.perf_counter() - t)
    pg = common.median(ts) / len(games) * 1e6
    print(f"  every decision of 100 random games ({len(games)} positions, "
          f"{len(set(zip(gm, gu, gy)))} states): {pg:.3f} us/position ({1e6 / pg:,.0f} positions/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
