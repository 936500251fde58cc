#!/usr/bin/env python3
"""Rebuild the shipped value tables in data/ (one HDF5 file per rule set).

Usage: python scripts/build_tables.py [RULES ...]   (default: every rule set)
"""

from __future__ import annotations

import sys
from pathlib import Path

from yahtzee_solver.solver.build import build_values
from yahtzee_solver.rules import RULESETS, get_rules
from yahtzee_solver.solver.table import ValueTable, save_table

DATA = Path(__file__).resolve().parent.parent / "data"


def main(argv: list[str]) -> int:
    names = argv or list(RULESETS)
    for name in names:
        rules = get_rules(name)
        result = build_values(rules, progress=True)
        path = save_table(ValueTable(rules, result.values), DATA / f"{rules.name}.h5", n_states=result.n_states)
        print(
            f"{rules.name}: empty-card value {result.empty_value:.10f}, {result.n_states} states, "
            f"{result.seconds:.2f} s (+{result.compile_seconds:.2f} s compile) -> {path}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
