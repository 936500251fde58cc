#!/usr/bin/env python3
"""One thread against two: the table build, a ``dist`` and a simulation, side by side (issue 22, goal 7).

Each job runs in a fresh child process, once with ``NUMBA_NUM_THREADS=1`` and
once with ``2``, alternating, ``--rounds`` times; the figure is the median
wall time of each and their ratio (one thread / two threads: above 1 the
second thread helps).  The goal: at least 1.7 on a quiet 2-core machine, and
never below 1.0 on a busy one.  The load average is printed before and after,
since on a shared machine the ratio depends on it.  Extra environment
settings for both sides (e.g. ``OMP_WAIT_POLICY=ACTIVE`` to see numba's
spinning default, ``NUMBA_THREADING_LAYER=workqueue``) go in ``--env``.
``--busy N`` runs the whole comparison while ``N`` other processes keep a
core each busy (a pure-Python loop), to show the busy-machine case: there the
jobs run their parallel pieces on the threads with a core free
(``yahtzee_solver.solver.jit.threads_for``).
Each figure leaves out the process's start-up: the build and the simulation
report their own time (kernels loaded first), and the ``dist`` job times the
second of two runs of its card (the first loads every kernel the card calls).

Usage::

    python benchmarks/bench_threads.py [--rounds 3] [--jobs build,dist,simulate] [--env KEY=VALUE ...] [--busy N]
        [--baseline REV]

``--baseline REV`` runs the package at git revision ``REV`` too (extracted as
``bench_long_dps.py`` does), in the same rounds, the two codes' processes
alternating: this host's speed moves by more than a code change between two
runs minutes apart, so a change is judged only beside its baseline.

The ``machine`` job is the host's own figure in the same rounds: a register-only loop
(``prange`` over 256 items, no memory traffic), which two free cores run about twice as fast as
one.  Where it falls well under 2, the host is not giving this machine two cores at that moment.

Beside the medians, the script prints the fastest run of each side ("best"), the figure of the
quietest moment of the rounds: on a shared host one round in several runs slow for either side.

``--jobs`` may also name ``dist-empty``: the empty Yahtzee card's ``dist`` (about 3.5 s on one
thread), the goal-5 job, beside the default ``dist`` card's 0.4 s.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402

JOBS = {
    "build": """
import numba
from yahtzee_solver.solver.build import build_values
r = build_values("yahtzee")
print(f"wall={r.seconds!r} cpu={r.cpu_seconds!r} layer={numba.threading_layer()}")
""",
    "dist": """
import time, numba
from yahtzee_solver.solver import jit
from yahtzee_solver.state import parse_card
from yahtzee_solver.strategy.distribution import score_distribution
jit.compiled()
card = parse_card("ones=3,yahtzee=50", "yahtzee")
score_distribution(card)  # warm: every kernel the card calls loaded, the heap grown
t = time.perf_counter()
d = score_distribution(card)
print(f"wall={time.perf_counter() - t!r} layer={numba.threading_layer()}")
""",
    "dist-empty": """
import time, numba
from yahtzee_solver.solver import jit
from yahtzee_solver.strategy.distribution import score_distribution
jit.compiled()
score_distribution(rules="yahtzee")  # warm, as the dist job
t = time.perf_counter()
d = score_distribution(rules="yahtzee")
print(f"wall={time.perf_counter() - t!r} layer={numba.threading_layer()}")
""",
    "machine": """
import time, numba
import numpy as np
from numba import njit, prange


@njit(parallel=True, cache=False)
def work(n, m):
    out = np.zeros(n)
    for i in prange(n):
        x = 1.0 + i * 1e-9
        for _ in range(m):
            x = x * 1.0000001 + 1e-9
        out[i] = x
    return out.sum()


work(64, 10)
t = time.perf_counter()
work(256, 400000)
print(f"wall={time.perf_counter() - t!r} layer={numba.threading_layer()}")
""",
    "simulate": """
import numba
from yahtzee_solver.analysis.simulate import simulate
simulate("expert", 500, "yahtzee", seed=1)
r = simulate("expert", 40000, "yahtzee", seed=2)
print(f"wall={r.seconds!r} layer={numba.threading_layer()}")
""",
}


#: Two runs of the same work differ by a few per cent on this machine: a ratio this close to 1 is
#: reported as equal, not as slower (on a busy machine both sides run on one thread).
NOISE = 0.03


def verdict(w1: float, w2: float) -> str:
    if w1 / w2 >= 1.0:
        return "never slower: met"
    if w1 / w2 >= 1.0 - NOISE:
        return f"equal within the {NOISE:.0%} noise of two runs: met"
    return "SLOWER on two threads"


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def job_list(text: str) -> list[str]:
    """``--jobs``: comma-separated names of :data:`JOBS`, each checked before anything runs."""
    jobs = text.split(",")
    for job in jobs:
        if job not in JOBS:
            raise argparse.ArgumentTypeError(f"unknown job {job!r} in {text!r}: the jobs are {', '.join(JOBS)}")
    return jobs


def main(argv=None) -> int:
    ap = common.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=common.count(1), default=3)
    ap.add_argument("--jobs", type=job_list, default="build,dist,simulate,machine",
                    help=f"comma-separated, of: {', '.join(JOBS)}")
    ap.add_argument("--env", nargs="*", type=common.env_setting, default=[], metavar="KEY=VALUE",
                    help="settings for both sides")
    ap.add_argument("--busy", type=common.count(0), default=0,
                    help="other processes keeping a core busy meanwhile")
    ap.add_argument("--baseline", type=common.git_revision, default=None, metavar="REV",
                    help="also run the package at git revision REV, alternating with the working tree")
    opts = ap.parse_args(argv)
    extra = dict(opts.env)
    common.header(f"one thread vs two (extra environment: {extra or 'none'}; busy processes: {opts.busy})")
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(opts.busy)]
    try:
        return compare(opts, extra)
    finally:
        for h in hogs:
            h.kill()
            h.wait()


def compare(opts: argparse.Namespace, extra: dict[str, str]) -> int:
    trees = {"current": common.ROOT}
    envs: dict[str, dict[str, str]] = {"current": {}}
    if opts.baseline:
        from bench_long_dps import baseline_tree

        base = baseline_tree(opts.baseline)
        print(f"# baseline: {opts.baseline} (extracted to {base.name} in the temporary folder), "
              "alternating with the working tree in every round")
        trees[f"base {opts.baseline}"] = base
        envs[f"base {opts.baseline}"] = {"PYTHONPATH": str(base)}
    for side, tree in trees.items():
        where = common.child_package({**extra, **envs[side]})
        print(f"# {side}: imports {where}")
        if where != (tree / "yahtzee_solver").resolve():
            raise SystemExit(f"the {side} side imports {where}, not the package in {tree}")
    sides = list(envs.items())
    rows = []
    for job in opts.jobs:
        walls: dict[tuple[str, int], list[float]] = {(side, n): [] for side, _ in sides for n in (1, 2)}
        layer = "?"
        for i in range(opts.rounds):
            for side, env in (sides if i % 2 == 0 else sides[::-1]):
                for n in ((1, 2) if i % 2 == 0 else (2, 1)):
                    fields, _, _ = common.run_child(JOBS[job], env={**extra, **env, "NUMBA_NUM_THREADS": str(n)})
                    walls[side, n].append(float(fields["wall"]))
                    layer = fields.get("layer", layer)
            print(f"  {job} round {i + 1}: " + "   ".join(
                f"{side}: 1 thread {walls[side, 1][-1]:.3f} s, 2 threads {walls[side, 2][-1]:.3f} s"
                for side, _ in sides) + f"   (load {load()})")
        for side, _ in sides:
            rows.append((job, side, common.median(walls[side, 1]), common.median(walls[side, 2]),
                         min(walls[side, 1]), min(walls[side, 2]), layer))
    print(f"\n  job         code              1 thread   2 threads   1/2 (>1: the second thread helps)   "
          f"{'':12s}best 1     best 2   1/2 best   layer   load now {load()}")
    for job, side, w1, w2, b1, b2, layer in rows:
        print(f"  {job:10s}  {side:16s} {w1:8.3f} s  {w2:8.3f} s   {common.ratio(w1, w2):>6}   "
              f"{'(the host, not a goal)' if job == 'machine' else verdict(w1, w2):46s}  {b1:6.3f} s  {b2:6.3f} s   {common.ratio(b1, b2):>6}   {layer}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
