"""Every CPU level by name: the three fixed policies and ``master``.

This is the one place that knows all four levels, so the fixed players
(:mod:`~yahtzee_solver.strategy.players`) and ``master``
(:mod:`~yahtzee_solver.strategy.master`, which models its opponent with a fixed
player) need not know each other in both directions.
"""

from __future__ import annotations

import numpy as np

from ..errors import UsageError
from ..rules import RuleSet
from ..solver.table import ValueTable
from .master import MasterStrategy
from .players import LEVELS, Strategy, fixed_strategy

__all__ = ["LEVELS", "MATCH_LEVELS", "make_strategy"]

#: Levels that can play a game or a match: the three of :data:`LEVELS` and ``master``.
MATCH_LEVELS = (*LEVELS, "master")


def make_strategy(
    level: str,
    rules: str | RuleSet = "yahtzee",
    *,
    rng: np.random.Generator | None = None,
    table: ValueTable | None = None,
    jit: bool = True,
) -> Strategy:
    """The CPU player of ``level`` (one of :data:`MATCH_LEVELS`).

    Parameters
    ----------
    level : str
        ``beginner``, ``normal``, ``expert`` or ``master`` (case-insensitive).
    rules : str or RuleSet
    rng : numpy.random.Generator, optional
        Used by ``beginner`` only (the others are deterministic).
    table : ValueTable, optional
        Used by ``expert`` and ``master`` (default: the shipped table).
    jit : bool
        Compiled (default) or interpreted kernels.

    Raises
    ------
    UsageError
        For an unknown level.
    RuleSetError
        For unknown rules.
    TableError
        If the table cannot be loaded.
    """
    name = str(level).strip().lower()
    if name == "master":  # plays to win against the opponent it is told about
        return MasterStrategy(rules, table, jit=jit)
    if name not in LEVELS:
        raise UsageError(f"unknown level {level!r} (choose from {', '.join(LEVELS)})")
    return fixed_strategy(name, rules, rng=rng, table=table, jit=jit)
