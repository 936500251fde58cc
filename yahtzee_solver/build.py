"""Retrograde dynamic program over the turn-start states, layer by layer.

Layer ``p`` holds the states with ``p`` filled boxes.  The full card is worth 0;
each lower layer needs only the layer above, and the states of a layer are
independent, so :func:`kernels.solve_states` spreads them over the cores.

Unreachable states -- an upper subtotal that the filled upper boxes cannot
make, or the Yahtzee-bonus flag without a filled Yahtzee box -- are skipped and
stay NaN.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from . import jit
from .rules import N_UPPER, RuleSet, get_rules

__all__ = ["BuildResult", "build_values", "reachable_upper", "state_arrays"]


def reachable_upper(rules: RuleSet) -> np.ndarray:
    """Which upper subtotals each set of filled upper boxes can make.

    Returns
    -------
    (64, T+1) bool
        ``out[m, u]`` is True when the upper boxes in the 6-bit mask ``m`` can
        add up to ``u`` (capped at the threshold ``T`` = 63).  Each box ``i`` can
        hold 0..5 dice of face ``i+1``.
    """
    T = rules.upper_threshold
    out = np.zeros((1 << N_UPPER, T + 1), dtype=bool)
    out[0, 0] = True
    for m in range(1, 1 << N_UPPER):
        i = (m & -m).bit_length() - 1  # lowest filled box
        prev = out[m & ~(1 << i)]
        for n in range(6):
            shifted = np.zeros(T + 1, dtype=bool)
            add = n * (i + 1)
            for u in np.flatnonzero(prev):
                shifted[min(T, u + add)] = True
            out[m] |= shifted
    return out


def state_arrays(rules: RuleSet, filled: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The reachable turn-start states with ``filled`` boxes filled.

    Returns
    -------
    masks, ups, ybs : (n,) int64
        One entry per state, sorted by mask, then upper subtotal, then flag.
    """
    reach = reachable_upper(rules)
    ycat = rules.yahtzee_category
    C = rules.n_categories
    masks, ups, ybs = [], [], []
    all_masks = np.arange(1 << C, dtype=np.int64)
    popcount = np.array([bin(m).count("1") for m in range(1 << C)])
    for m in all_masks[popcount == filled]:
        us = np.flatnonzero(reach[m & ((1 << N_UPPER) - 1)])
        flags = (0, 1) if rules.n_flags == 2 and ycat >= 0 and (m >> ycat) & 1 else (0,)
        for u in us:
            for y in flags:
                masks.append(m)
                ups.append(u)
                ybs.append(y)
    return (
        np.asarray(masks, dtype=np.int64),
        np.asarray(ups, dtype=np.int64),
        np.asarray(ybs, dtype=np.int64),
    )


@dataclass(frozen=True)
class BuildResult:
    """A freshly built value table.

    Attributes
    ----------
    rules : RuleSet
    values : (2**C, T+1, F) float64
        Expected future points of every turn-start state (NaN: unreachable).
    seconds : float
        Wall time of the DP itself (excluding JIT compilation).
    compile_seconds : float
        Wall time spent loading or compiling the kernels.
    n_states : int
        Number of reachable states solved.
    """

    rules: RuleSet
    values: np.ndarray
    seconds: float
    compile_seconds: float
    n_states: int

    @property
    def empty_value(self) -> float:
        """Optimal expected final score from the empty card (points)."""
        return float(self.values[0, 0, 0])


def build_values(rules: str | RuleSet = "yahtzee", *, progress: bool = False, jit_compile: bool = True) -> BuildResult:
    """Solve every reachable turn-start state of ``rules``.

    Parameters
    ----------
    rules : str or RuleSet
    progress : bool
        Show a tqdm progress bar over the layers (weighted by states).
    jit_compile : bool
        Use the numba-compiled kernels (default).  ``False`` runs the same
        kernels interpreted -- only sensible for tests on tiny rule sets.

    Returns
    -------
    BuildResult
    """
    rules = get_rules(rules)
    arrays = rules.arrays()
    C = rules.n_categories
    T = rules.upper_threshold
    t0 = time.perf_counter()
    k = jit.backend(jit_compile)
    layers = [state_arrays(rules, p) for p in range(C, -1, -1)]
    V = np.full((1 << C, T + 1, rules.n_flags), np.nan)
    masks, ups, ybs = layers[0]
    V[masks, ups, ybs] = 0.0
    if jit_compile:
        # Compile (or load from cache) on a trivial call so timing is honest.
        m1, u1, y1 = layers[1]
        k.solve_states(m1[:1], u1[:1], y1[:1], V, arrays["score"], arrays["joker"], arrays["params"])
    t1 = time.perf_counter()
    total = sum(len(layer[0]) for layer in layers)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=total, unit="state", desc=f"build {rules.name}", unit_scale=True)
        bar.update(len(layers[0][0]))
    for masks, ups, ybs in layers[1:]:
        k.solve_states(masks, ups, ybs, V, arrays["score"], arrays["joker"], arrays["params"])
        if bar is not None:
            bar.update(len(masks))
    if bar is not None:
        bar.close()
    t2 = time.perf_counter()
    return BuildResult(rules, V, t2 - t1, t1 - t0, total)
