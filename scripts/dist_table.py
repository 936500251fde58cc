#!/usr/bin/env python3
"""Print the README's tables of exact final-score distributions from the empty card.

One row per rule set with optimal play (mean, SD, median, P10/P90, P1/P99,
P(final >= 200), P(final >= 300)), the published figures beside the rule set
they belong to (Verhoeff's optimal solver, free Joker: mean 254.5896, SD 59.6117,
median 248), then the same figures for the ``normal`` and ``beginner`` CPU
levels.  Every number is computed here by :func:`yahtzee_solver.strategy.distribution.score_distribution`
(no sampling); the output is Markdown, ready to paste.

Usage::

    python scripts/dist_table.py [--rules NAME ...] [--levels normal beginner] [--level-rules yahtzee ...]
"""

from __future__ import annotations

import argparse
import sys
import time

from yahtzee_solver.strategy.distribution import score_distribution
from yahtzee_solver.rules import RULESETS

#: Published figures of optimal play from the empty card, by rule set (source in the text).
PUBLISHED = {
    "yahtzee-free-joker": "mean 254.5896, SD 59.6117, median 248 (Verhoeff)",
}


def row(rules: str, strategy: str) -> tuple[list[str], float]:
    t = time.perf_counter()
    d = score_distribution(rules=rules, strategy=strategy)
    secs = time.perf_counter() - t
    cells = [
        f"`{rules}`", f"{d.mean:.4f}", f"{d.sd:.4f}", str(d.percentile(50)),
        f"{d.percentile(10)} / {d.percentile(90)}", f"{d.percentile(1)} / {d.percentile(99)}",
        f"{100 * d.prob_at_least(200):.2f} %", f"{100 * d.prob_at_least(300):.2f} %",
    ]
    return cells, secs


HEAD = ["`--rules`", "mean", "SD", "median", "P10 / P90", "P1 / P99", "P(final >= 200)", "P(final >= 300)"]


def table(head, rows) -> str:
    align = ["---" if h in ("level", "`--rules`", "published") else "---:" for h in head]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", nargs="+", default=list(RULESETS), choices=list(RULESETS))
    ap.add_argument("--levels", nargs="*", default=["normal", "beginner"], choices=["normal", "beginner"])
    ap.add_argument("--level-rules", nargs="+", default=["yahtzee"], choices=list(RULESETS))
    opts = ap.parse_args(argv)

    rows = []
    for rules in opts.rules:
        cells, secs = row(rules, "optimal")
        rows.append(cells + [PUBLISHED.get(rules, "")])
        print(f"{rules}: {secs:.1f} s", file=sys.stderr)
    print("Optimal play from the empty card (`yahtzee-solve dist --rules NAME`):\n")
    print(table(HEAD + ["published"], rows))
    if opts.levels:
        rows = []
        for rules in opts.level_rules:
            for level in opts.levels:
                cells, secs = row(rules, level)
                rows.append([f"`{level}`"] + cells)
                print(f"{rules} {level}: {secs:.1f} s", file=sys.stderr)
        print("\nThe CPU levels from the empty card (`yahtzee-solve dist --rules NAME --strategy LEVEL`):\n")
        print(table(["level"] + HEAD, rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
