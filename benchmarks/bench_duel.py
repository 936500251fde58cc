"""Decision times of the exact two-player solve (strategy/duel.py) from random positions, by open boxes K.

A position: two expert players play a random game (dice from a seeded numpy
Generator) until both cards together have K open boxes, at the start of a
turn; the player to move asks for its chance (a cold solver each time: every
node reachable from the position is solved).  Prints, per K and opponent
model, the median and worst seconds (wall and CPU of this process), the nodes
solved per layer (open boxes of both cards), the score differences stored and
the memory of the stored vectors.

    python benchmarks/bench_duel.py [--rules yahtzee] [--k 2 4 6 7 8] [--n 15] [--model optimal expert]
                                    [--no-draws]

``--no-draws`` solves the values only (``DuelSolver(draws=False)``), as the
``master`` CPU, the play hint and the review do; by default the solver also
carries the draw chance, as ``yahtzee-solve win`` does.

CPU seconds (``time.process_time``) are the fair figure on a shared machine:
wall time includes the waits for a core.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from yahtzee_solver.state import ScoreCard
from yahtzee_solver.strategy.duel import DuelSolver, DuelSource
from yahtzee_solver.strategy.players import ExpertStrategy


def random_position(rules, k: int, rng, expert):
    """(mover's card, other card) at the turn start where both cards together first have ``k`` open boxes."""
    cards = [ScoreCard.empty(rules), ScoreCard.empty(rules)]
    C = cards[0].rules.n_categories
    p = 0
    while 2 * C - sum(len(c.open_categories) for c in cards) < 2 * C - k:
        card = cards[p]
        dice = tuple(sorted(int(x) for x in rng.integers(1, 7, 5)))
        for rl in (2, 1):
            keep = list(expert.choose_keep(card, dice, rl))
            if len(keep) == 5:
                break
            dice = tuple(sorted(keep + [int(x) for x in rng.integers(1, 7, 5 - len(keep))]))
        c = expert.choose_box(card, dice)
        pts, _, bonus = card.box_points(dice)
        cards[p] = card.with_box(c, pts[c], bonus)
        p = 1 - p
    return cards[p], cards[1 - p]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="yahtzee")
    ap.add_argument("--k", type=int, nargs="+", default=[2, 3, 4, 5, 6, 7, 8])
    ap.add_argument("--n", type=int, default=15, help="positions per K")
    ap.add_argument("--model", nargs="+", default=["optimal", "expert"])
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--no-draws", action="store_true", help="values only, as master and the hints")
    a = ap.parse_args()
    draws = not a.no_draws
    expert = ExpertStrategy(a.rules)
    # compile / load the kernels once, outside the timings
    warm = random_position(a.rules, 2, np.random.default_rng(0), expert)
    for m in a.model:
        DuelSource(a.rules, warm[1], m, solver=DuelSolver(a.rules, m, draws=draws)).state_value(
            warm[0].key, warm[0].total)
    print(f"rules {a.rules}, {a.n} random positions per K (seed {a.seed}), cold solver per position, "
          f"{'value and draw chance' if draws else 'values only'}")
    print(f"{'K':>2} {'model':8} {'median s':>9} {'worst s':>8} {'median cpu':>10} {'worst cpu':>9} "
          f"{'nodes':>8} {'diffs':>10} {'MB':>7}  nodes per layer (open boxes: nodes)")
    for k in a.k:
        rng = np.random.default_rng([a.seed, k])
        positions = [random_position(a.rules, k, rng, expert) for _ in range(a.n)]
        for m in a.model:
            walls, cpus, nodes, diffs, mb, layers = [], [], [], [], [], {}
            for me, opp in positions:
                t0, c0 = time.perf_counter(), time.process_time()
                src = DuelSource(a.rules, opp, m, solver=DuelSolver(a.rules, m, draws=draws))
                src.state_value(me.key, me.total)
                src.keep_values(me.key, me.total, 2)  # the first decision of the turn
                walls.append(time.perf_counter() - t0)
                cpus.append(time.process_time() - c0)
                st = src.solver.stats()
                nodes.append(sum(st.nodes.values()))
                diffs.append(sum(st.diffs.values()))
                mb.append(st.bytes / 1e6)
                for n, c in st.nodes.items():
                    layers[n] = max(layers.get(n, 0), c)
            per = " ".join(f"{n}:{c}" for n, c in sorted(layers.items(), reverse=True))
            print(f"{k:>2} {m:8} {statistics.median(walls):9.3f} {max(walls):8.3f} {statistics.median(cpus):10.3f} "
                  f"{max(cpus):9.3f} {max(nodes):8d} {max(diffs):10d} {max(mb):7.1f}  {per} (max over positions)",
                  flush=True)


if __name__ == "__main__":
    main()
