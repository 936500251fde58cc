#!/usr/bin/env python3
"""``yahtzee-solve hint`` from a cold shell: wall time of whole processes.

Goal: ``hint 13356 --rolls-left 2`` within 1.15x of the import floor, the
wall time of ``python -c "import numpy, h5py, click"`` (what any program using
those three libraries pays before doing anything), measured in the same run.
Each command runs ``--runs`` times in a fresh process (the runs of the
commands alternate); the figures are the median and the minimum wall time,
and "x floor" is the ratio of the medians.

The children run without ``PYTHONDONTWRITEBYTECODE``, and a warm-up run of
each command comes first, so they load compiled bytecode as an installed
package does (``pip install`` compiles it; an environment that forbids
writing bytecode would otherwise recompile every module on every start).

Usage::

    python benchmarks/bench_cold.py [--runs 11]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402

#: Goal: the cold hint's wall time at most this many times the import floor's.
GOAL = 1.15


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=11)
    opts = ap.parse_args(argv)
    common.header("cold start: one hint per process")
    exe = shutil.which("yahtzee-solve") or str(Path(sys.executable).with_name("yahtzee-solve"))
    if not Path(exe).exists():
        print("yahtzee-solve is not installed in this environment (pip install -e .)")
        return 1
    py = sys.executable
    floor = "python -c 'import numpy, h5py, click'"
    cmds = {
        "python -c pass": [py, "-c", "pass"],
        floor: [py, "-c", "import numpy, h5py, click"],
        "hint 13356 --rolls-left 2": [exe, "hint", "13356", "--rolls-left", "2"],
        "hint 13356 -r 2 --rules yatzy": [exe, "hint", "13356", "--rolls-left", "2", "--rules", "yatzy"],
        "value --rules yatzy": [exe, "value", "--rules", "yatzy"],
        "hint 13456 -r 1 --card ...": [exe, "hint", "13456", "-r", "1", "--card",
                                        "sixes=18,fours=12,chance=22,yahtzee=50"],
        "hint 55555 -r 0 --card ...": [exe, "hint", "55555", "-r", "0", "--card", "yahtzee=50,fives=15"],
        "hint 13356 --json": [exe, "hint", "13356", "--json"],
    }
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    walls: dict[str, list[float]] = {name: [] for name in cmds}
    cpus: dict[str, list[float]] = {name: [] for name in cmds}
    for name, cmd in cmds.items():  # warm the OS file cache and write bytecode once
        p = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if p.returncode:
            print(f"{name}: failed ({p.returncode}): {p.stderr.strip()}")
            return 1
    for _ in range(opts.runs):
        for name, cmd in cmds.items():
            wall, cpu, _ = common.run_timed(cmd, env)
            walls[name].append(wall)
            cpus[name].append(cpu)
    base, cbase = common.median(walls[floor]), common.median(cpus[floor])
    print(f"\n{'command':40s} {'median s':>9s} {'min s':>8s} {'x floor':>8s} {'cpu s':>8s} {'x floor':>8s}")
    for name, w in walls.items():
        med, cmed = common.median(w), common.median(cpus[name])
        print(f"{name:40s} {med:9.3f} {min(w):8.3f} {common.ratio(med, base):>8s} {cmed:8.3f} "
              f"{common.ratio(cmed, cbase):>8s}")
    r = common.median(walls["hint 13356 --rolls-left 2"]) / base
    rc = common.median(cpus["hint 13356 --rolls-left 2"]) / cbase
    print(f"\nhint 13356 --rolls-left 2 vs the import floor: {r:.2f}x wall (goal <= {GOAL}x: "
          f"{'met' if r <= GOAL else 'NOT MET'}), {rc:.2f}x cpu")
    return 0


if __name__ == "__main__":
    sys.exit(main())
