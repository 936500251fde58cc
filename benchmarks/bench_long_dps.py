#!/usr/bin/env python3
"""The long DPs against a baseline revision, side by side in one run: time, peak memory, agreement.

Three jobs, each run in a fresh child process, the baseline and the working
tree alternating (``--runs`` pairs):

1. ``dist``: the exact final-score distribution from the empty card
   (``score_distribution``), per rule set of ``--rules``;
2. ``target``: ``hint --target T`` from the empty card (``TargetAdvisor.keep_options``
   for the dice ``--dice`` with two rerolls left: the whole DP and the ranking), ``--target``;
3. ``curve``: ``target-curve`` beyond the shipped file (``objectives.target_curve`` from the
   empty card to ``--max``; with the shipped curve as its ``known`` part where the revision's
   ``target_curve`` takes one, as the command does: the DP then solves only the targets above it).

The baseline is the package at git revision ``--baseline`` (default: the
last commit before this round), extracted with ``git archive`` into a folder
of the temporary directory that is kept between runs (so its numba cache is
compiled once), with the shipped data of the working tree.  Each child loads
its compiled kernels on a small card first; then the job is timed (wall and
CPU of the process) and its peak resident memory (``ru_maxrss``, whole
process) is read at the end.  The results are compared: the largest absolute
difference of the pmfs / probabilities (and whether they are identical, bit
for bit).  The machine's load average is printed before and after each job.

Usage::

    python benchmarks/bench_long_dps.py [--jobs dist target curve] [--rules yahtzee yatzy] [--target 250]
        [--max 800] [--runs 1] [--baseline 7ebfcb6]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
#: The last commit before performance round 3's long-DP work.
BASELINE = "7ebfcb6"

CHILD = """
import resource, sys, time
import numpy as np
from yahtzee_solver.solver import jit
jit.compiled()
from yahtzee_solver.state import ScoreCard, parse_card
job, rules, arg, out = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
small = parse_card("ones=1,twos=2,threes=3,fours=4,fives=5,sixes=6,chance=20", rules)
if job == "dist":
    from yahtzee_solver.strategy.distribution import score_distribution
    score_distribution(small)  # load the kernels
    t, c = time.perf_counter(), time.process_time()
    result = score_distribution(rules=rules).pmf
else:
    from yahtzee_solver.strategy import objectives as ob
    ob.target_curve(rules, small.total + 40, small)  # load the kernels
    t, c = time.perf_counter(), time.process_time()
    if job == "target":
        from yahtzee_solver.strategy.target import TargetAdvisor
        target, dice = arg.split(":")
        opts = TargetAdvisor(rules, int(target)).keep_options(ScoreCard.empty(rules), dice, 2)
        result = np.array([o.probability for o in opts])
    else:
        import inspect
        kw = {}
        if "known" in inspect.signature(ob.target_curve).parameters:  # what target-curve does beyond the file
            from yahtzee_solver.analysis.curve_data import curve_path, load_curve
            kw["known"] = load_curve(curve_path(rules), rules).best
        result = ob.target_curve(rules, int(arg), **kw).probabilities
w, c = time.perf_counter() - t, time.process_time() - c
np.save(out, result)
print(f"seconds={w!r} cpu={c!r} rss={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024!r}")
"""


def baseline_tree(rev: str) -> Path:
    """The package at ``rev`` in a kept temporary folder (with this tree's shipped data)."""
    sha = subprocess.run(["git", "rev-parse", "--short=12", rev], cwd=ROOT, check=True, capture_output=True,
                         text=True).stdout.strip()
    where = Path(tempfile.gettempdir()) / f"yahtzee-solver-baseline-{sha}"
    if not (where / "yahtzee_solver" / "__init__.py").exists():
        where.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", sha, "yahtzee_solver"], cwd=ROOT, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    data = where / "yahtzee_solver" / "data"
    if data.is_symlink() and data.resolve() != (ROOT / "data").resolve():
        data.unlink()  # left by a run from another checkout (perhaps removed since)
    if not data.exists():
        data.symlink_to(ROOT / "data")
    return where


def run(code_root: Path | None, job: str, rules: str, arg: str, out: str) -> dict:
    env = dict(os.environ)
    if code_root is not None:
        env["PYTHONPATH"] = str(code_root)
    proc = subprocess.run([sys.executable, "-c", CHILD, job, rules, arg, out], env=env, capture_output=True,
                          text=True, cwd=tempfile.gettempdir())
    if proc.returncode != 0:
        raise SystemExit(f"child failed ({job} {rules}):\n{proc.stderr[-3000:]}")
    line = proc.stdout.strip().splitlines()[-1]
    return {k: float(v) for k, v in (f.split("=") for f in line.split())}


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv=None) -> int:
    ap = common.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", nargs="+", default=["dist", "target", "curve"], choices=["dist", "target", "curve"])
    ap.add_argument("--rules", nargs="+", default=["yahtzee", "yatzy"], help="rule sets of the dist job")
    ap.add_argument("--target", type=int, default=250)
    ap.add_argument("--dice", default="13356", help="dice of the target job's hint")
    ap.add_argument("--max", type=int, default=800, help="largest target of the curve job (yahtzee)")
    ap.add_argument("--runs", type=common.count(1), default=1)
    ap.add_argument("--baseline", default=BASELINE, type=common.git_revision)
    opts = ap.parse_args(argv)
    common.header("the long DPs: baseline revision against the working tree, alternating in one run")
    base = baseline_tree(opts.baseline)
    print(f"# baseline: {opts.baseline} (extracted to {base.name} in the temporary folder)")
    cases = []
    if "dist" in opts.jobs:
        cases += [("dist", r, "-", f"dist {r}, empty card") for r in opts.rules]
    if "target" in opts.jobs:
        cases.append(("target", "yahtzee", f"{opts.target}:{opts.dice}",
                      f"hint {opts.dice} --target {opts.target}, empty card"))
    if "curve" in opts.jobs:
        cases.append(("curve", "yahtzee", str(opts.max), f"target-curve --max {opts.max}, empty card"))
    print("\n  job                                     side       wall s   CPU s   peak MiB   load average")
    with tempfile.TemporaryDirectory() as tmp:
        for job, rules, arg, name in cases:
            res: dict[str, list[dict]] = {"baseline": [], "current": []}
            for _ in range(opts.runs):
                for side, root in (("baseline", base), ("current", None)):
                    before = load()
                    r = run(root, job, rules, arg, os.path.join(tmp, f"{side}.npy"))
                    r["load"] = f"{before} -> {load()}"
                    res[side].append(r)
                    print(f"  {name:<40} {side:<9} {r['seconds']:8.2f} {r['cpu']:7.1f} {r['rss']:9.0f}   "
                          f"{r['load']}", flush=True)
            a = np.load(os.path.join(tmp, "baseline.npy"))
            b = np.load(os.path.join(tmp, "current.npy"))
            same = a.shape == b.shape and np.array_equal(a, b)
            diff = float(np.max(np.abs(a - b))) if a.shape == b.shape else float("inf")
            bw = common.median([r["seconds"] for r in res["baseline"]])
            cw = common.median([r["seconds"] for r in res["current"]])
            bm = max(r["rss"] for r in res["baseline"])
            cm = max(r["rss"] for r in res["current"])
            print(f"  -> {name}: wall current/baseline {cw / bw:.2f} ({bw:.2f} -> {cw:.2f} s), peak memory "
                  f"{bm:.0f} -> {cm:.0f} MiB ({cm / bm:.2f}); results identical: {same}, max |diff| {diff:.1e}",
                  flush=True)
    print(f"\n# load average at the end: {load()}  ({time.strftime('%Y-%m-%d %H:%M:%S')})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
