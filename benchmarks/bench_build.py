#!/usr/bin/env python3
"""Full value-table build: wall and CPU seconds, JIT compile time, peak memory.

Goals (issues 2 and 4): a full ``yahtzee`` build in at most 10 s wall on a
2-core machine once the JIT is warm (compile reported on its own line; the
kernels are cached on disk, ``cache=True``), peak memory under 500 MiB, and no
slower than the peer (``compare_peer.py`` measures the peer in the same run).

Each build runs in a fresh child process, so the peak resident memory is that
of a real ``build`` run (interpreter, numpy, numba and the table included).
Rounds alternate between the default thread count and one thread; the
baseline of the ratio is the one-thread build of the same run.  Every build is
checked against the shipped table (same values to 1e-12) and docs/rules.md's
reference value.

Usage::

    python benchmarks/bench_build.py [--rules yahtzee] [--rounds 3]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402

CHILD = """
import sys
import numpy as np
from yahtzee_solver.solver.build import build_values
from yahtzee_solver.solver.table import load_table
import numba
r = build_values(sys.argv[1])
ref = load_table(sys.argv[1]).values
same_nan = bool(np.array_equal(np.isnan(ref), np.isnan(r.values)))
diff = float(np.nanmax(np.abs(ref - r.values))) if same_nan else float("inf")
print(f"wall={r.seconds!r} cpu={r.cpu_seconds!r} compile={r.compile_seconds!r} v0={r.empty_value!r} "
      f"diff={diff!r} states={r.n_states} threads={numba.get_num_threads()}")
"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="yahtzee")
    ap.add_argument("--rounds", type=int, default=3)
    opts = ap.parse_args(argv)
    common.header(f"full table build: {opts.rules}")
    from yahtzee_solver.rules import get_rules

    ref_value = get_rules(opts.rules).reference_value
    runs: dict[str, list] = {"default": [], "1 thread": []}
    bad = 0
    for i in range(opts.rounds):
        for label, env in (("default", None), ("1 thread", {"NUMBA_NUM_THREADS": "1"})):
            f, proc_wall, rss = common.run_child(CHILD, opts.rules, env=env)
            f["proc"], f["rss"] = proc_wall, rss
            runs[label].append(f)
            print(
                f"  round {i + 1} {label:8s} ({f['threads']} threads): build {f['wall']:.3f} s wall, "
                f"{f['cpu']:.3f} s cpu, compile {f['compile']:.3f} s, process {proc_wall:.2f} s, "
                f"peak {rss:.0f} MiB, {f['states']} states, V(empty) {f['v0']:.10f}, "
                f"max |diff| vs shipped {f['diff']:.1e}"
            )
            if not f["diff"] <= 1e-12 or (ref_value is not None and abs(f["v0"] - ref_value) > 5e-8):
                bad += 1
    d, one = runs["default"], runs["1 thread"]
    wall = common.median([r["wall"] for r in d])
    wall1 = common.median([r["wall"] for r in one])
    print()
    print(f"build wall (median, default threads)  {wall:.3f} s   (goal <= 10 s; compare_peer.py: <= peer)")
    print(f"build wall (median, 1 thread)         {wall1:.3f} s   default/1-thread {common.ratio(wall, wall1)}")
    print(f"build cpu (median, default threads)   {common.median([r['cpu'] for r in d]):.3f} s")
    print(f"JIT compile / cache load              {common.median([r['compile'] for r in d]):.3f} s median, "
          f"{d[0]['compile']:.3f} s first (excluded above)")
    print(f"whole process (median)                {common.median([r['proc'] for r in d]):.2f} s")
    print(f"peak memory (max)                     {max(r['rss'] for r in d + one):.0f} MiB   (goal < 500 MiB)")
    print(f"states solved                         {d[0]['states']}   "
          f"({d[0]['states'] / wall:,.0f} states/s)")
    if bad:
        print(f"ERROR: {bad} build(s) differ from the shipped table or docs/rules.md")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
