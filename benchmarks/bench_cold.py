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
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402


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
    for name, cmd in cmds.items():  # warm the OS file cache and write bytecode once
        p = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if p.returncode:
            print(f"{name}: failed ({p.returncode}): {p.stderr.strip()}")
            return 1
    for _ in range(opts.runs):
        for name, cmd in cmds.items():
            t = time.perf_counter()
            subprocess.run(cmd, capture_output=True, env=env)
            walls[name].append(time.perf_counter() - t)
    base = common.median(walls[floor])
    print(f"\n{'command':40s} {'median s':>9s} {'min s':>8s} {'x floor':>8s}")
    for name, w in walls.items():
        med = common.median(w)
        print(f"{name:40s} {med:9.3f} {min(w):8.3f} {common.ratio(med, base):>8s}")
    r = common.median(walls["hint 13356 --rolls-left 2"]) / base
    print(f"\nhint 13356 --rolls-left 2 vs the import floor: {r:.2f}x   (goal <= 1.15x: "
          f"{'met' if r <= 1.15 else 'NOT MET'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
