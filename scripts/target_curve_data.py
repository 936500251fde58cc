#!/usr/bin/env python3
"""Compute a rule set's target curve from the empty card and write it as a shipped data file.

Runs the exact DP of :func:`yahtzee_solver.strategy.objectives.target_curve` (the best
P(final >= T) for every T up to ``--max``) and the expected-score policy's
P(final >= T) (:func:`yahtzee_solver.strategy.objectives.opponent_pmf`, the exact
final-score distribution), then writes ``data/target-curve-<rules>.json``
(:mod:`yahtzee_solver.analysis.curve_data`; atomically) with the producing command, the
DP's wall and CPU time and the process's peak memory.  ``yahtzee-solve
target-curve`` reads that file from the empty card instead of running the DP.

One line per layer of the DP goes to stderr (states, seconds, and an estimate
of the time left from the work done so far).

``--table T,T,...`` prints instead, from the file already written, the
README's Markdown table (P*, P_EV and the gain at those targets) and how the
file was made.

Usage::

    nice python scripts/target_curve_data.py --rules yahtzee --max 700 [--out data/target-curve-yahtzee.json]
    python scripts/target_curve_data.py --rules yahtzee --table 100,150,200,250,300,350,400,500,600,700
"""

from __future__ import annotations

import argparse
import resource
import shlex
import sys
import time
from pathlib import Path

from yahtzee_solver.analysis.curve_data import curve_path, load_curve, save_curve
from yahtzee_solver.strategy.objectives import MAX_TARGET, opponent_pmf, survival, target_curve
from yahtzee_solver.rules import RULESETS, get_rules
from yahtzee_solver.state import ScoreCard

ROOT = Path(__file__).resolve().parent.parent


def _layer_log():
    """A ``progress(done, total)`` callable printing one line per DP layer to stderr."""
    t0 = time.perf_counter()
    c0 = time.process_time()
    last = {"done": 0, "t": t0}

    def update(done, total):
        now = time.perf_counter()
        layer = done - last["done"]
        # states of layers with more open boxes cost more; the estimate assumes the average so far
        rate = (now - t0) / done if done else 0.0
        print(f"  layer of {layer:7,} states: {now - last['t']:7.1f} s   done {done:7,}/{total:,} states "
              f"in {now - t0:7.1f} s wall, {time.process_time() - c0:7.1f} s CPU   "
              f"(at that rate {(total - done) * rate:6.0f} s left)", file=sys.stderr, flush=True)
        last.update(done=done, t=now)

    return update


def print_table(path: Path, rules, targets) -> None:
    """The README's Markdown table of the curve file at ``path``."""
    c = load_curve(path, rules)
    print(f"From `{c.command}` ({c.n_states:,} states; DP {c.seconds:.0f} s wall, {c.cpu_seconds:.0f} s CPU; "
          f"peak memory {c.peak_rss_mib:.0f} MiB):\n")
    print(f"| T | P*(>=T): best, {rules.name} | P_EV(>=T): expected-score policy | gain P* - P_EV |")
    print("|---:|---:|---:|---:|")
    for T in targets:
        if T > c.max_target:
            raise SystemExit(f"error: T = {T} is above the file's maximum {c.max_target}")
        b, e = float(c.best[T]), float(c.expected_score_policy[T])
        print(f"| {T} | {b:.7g} | {e:.7g} | {b - e:+.4g} |")
    print(f"\nsum over T = 1..{c.max_target}: P* {c.best[1:].sum():.4f}, P_EV {c.expected_score_policy[1:].sum():.4f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="yahtzee", choices=list(RULESETS))
    ap.add_argument("--max", dest="max_target", type=int, default=700, help="largest target T (default 700)")
    ap.add_argument("--out", type=Path, default=None, help="output file (default data/target-curve-<rules>.json)")
    ap.add_argument("--table", default=None, metavar="T,T,...",
                    help="print the README table of the existing file at these targets (no DP)")
    opts = ap.parse_args(argv)
    if opts.table is not None:
        rules = get_rules(opts.rules)
        try:
            targets = [int(t) for t in opts.table.split(",")]
        except ValueError:
            ap.error(f"invalid --table {opts.table!r}: want comma-separated whole numbers")
        print_table(opts.out or curve_path(rules, ROOT / "data"), rules, targets)
        return 0
    if not 0 < opts.max_target <= MAX_TARGET:
        ap.error(f"invalid --max {opts.max_target}: want 1..{MAX_TARGET}")
    rules = get_rules(opts.rules)
    out = opts.out or curve_path(rules, ROOT / "data")
    command = shlex.join(["python", "scripts/target_curve_data.py", "--rules", rules.name, "--max",
                          str(opts.max_target)] + (["--out", str(opts.out)] if opts.out else []))
    print(f"{command}: target curve of {rules.name} from the empty card, T = 0..{opts.max_target}",
          file=sys.stderr, flush=True)
    c0 = time.process_time()
    curve = target_curve(rules, opts.max_target, progress=_layer_log())
    cpu = time.process_time() - c0
    t = time.perf_counter()
    card = ScoreCard.empty(rules)
    ev = survival(opponent_pmf(rules, card, "expert"), opts.max_target)
    print(f"  expected-score policy's distribution: {time.perf_counter() - t:.1f} s", file=sys.stderr)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KiB on Linux
    path = save_curve(out, rules, curve.probabilities, ev, command=command, seconds=curve.seconds,
                      cpu_seconds=cpu, peak_rss_mib=peak, n_states=curve.n_states)
    load_curve(path, rules)  # what was written reads back valid
    print(f"wrote {path}: {curve.n_states:,} states, DP {curve.seconds:.1f} s wall, {cpu:.1f} s CPU, "
          f"peak memory {peak:.0f} MiB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
