"""Retrograde dynamic program over the turn-start states, layer by layer.

Layer ``p`` holds the states with ``p`` filled boxes.  The full card is worth 0;
each lower layer needs only the layer above, and the states of a layer are
independent, so :func:`kernels.solve_states` spreads them over the cores.

Unreachable states -- an upper subtotal that the filled upper boxes cannot
make, or the Yahtzee-bonus flag without a filled Yahtzee box -- are skipped and
stay NaN.

Equal upper subtotals are solved once.  Two subtotals ``u1``, ``u2`` of the
same card are *equivalent* when every sum ``s`` the open upper boxes can still
make reaches the bonus threshold from both or from neither
(``min(T, u1 + s) >= T`` iff ``min(T, u2 + s) >= T``): the upper bonus is then
earned on exactly the same future scores, so the two states have the same
value -- bit for bit, because every operation of their turns is the same on the
same numbers (by induction over the layers: the states one box later are
equivalent again).  About 40 % of the reachable states have an equivalent with
a smaller subtotal (e.g. every subtotal from which the bonus is out of reach);
:func:`upper_classes` finds them, the DP solves one state per class and copies
its value to the others.
"""

from __future__ import annotations

import contextlib
import functools
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import jit, kernels
from ..rules import N_UPPER, RuleSet, get_rules

__all__ = ["BuildResult", "build_values", "reachable_layers", "reachable_upper", "state_arrays", "upper_classes",
           "upper_representatives"]


def reachable_upper(rules: RuleSet, up0: int = 0) -> np.ndarray:
    """Which upper subtotals each set of newly filled upper boxes can make.

    Parameters
    ----------
    rules : RuleSet
    up0 : int
        The upper subtotal already made (0 for the empty card).

    Returns
    -------
    (64, T+1) bool
        ``out[m, u]`` is True when ``up0`` plus the upper boxes in the 6-bit
        mask ``m`` can add up to ``u`` (capped at the threshold ``T`` = 63).
        Each box ``i`` can hold 0..5 dice of face ``i+1``.
    """
    T = rules.upper_threshold
    out = np.zeros((1 << N_UPPER, T + 1), dtype=bool)
    out[0, up0] = True
    for m in range(1, 1 << N_UPPER):
        i = (m & -m).bit_length() - 1  # lowest filled box
        prev = np.flatnonzero(out[m & ~(1 << i)])
        for n in range(6):
            out[m, np.minimum(T, prev + n * (i + 1))] = True
    return out


def reachable_layers(rules: RuleSet, root: tuple[int, int, int]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The turn-start states reachable from ``root``, layer by layer (by number of filled boxes).

    Parameters
    ----------
    rules : RuleSet
    root : (int, int, int)
        A turn-start state ``(mask, up, yb)``.

    Returns
    -------
    list of (masks, ups, ybs)
        Entry ``i`` holds the states with ``popcount(mask) + i`` boxes filled
        (entry 0 is ``root`` itself, the last the full card), each an (n,)
        int64 array.  A state is reachable when its boxes include the root's,
        its upper subtotal can be made from the root's by the newly filled
        upper boxes, and its Yahtzee-bonus flag is the root's, or either flag
        once the Yahtzee box is newly filled.
    """
    mask0, up0, yb0 = (int(x) for x in root)
    C = rules.n_categories
    ycat = rules.yahtzee_category
    reach = reachable_upper(rules, up0)
    all_masks = np.arange(1 << C, dtype=np.int64)
    supers = all_masks[(all_masks & mask0) == mask0]
    pop = np.zeros(len(supers), dtype=np.int64)
    for c in range(C):
        pop += (supers >> c) & 1
    out = []
    for p in range(bin(mask0).count("1"), C + 1):
        layer = supers[pop == p]
        rows, ups = np.nonzero(reach[(layer & ~mask0) & ((1 << N_UPPER) - 1)])
        masks = layer[rows]
        if rules.n_flags == 2 and ycat >= 0 and not yb0 and not (mask0 >> ycat) & 1:
            nflags = 1 + ((masks >> ycat) & 1)  # the Yahtzee box newly filled: with 0 or with 50
            starts = np.cumsum(nflags) - nflags
            ybs = np.arange(int(nflags.sum()), dtype=np.int64) - np.repeat(starts, nflags)
            masks = np.repeat(masks, nflags)
            ups = np.repeat(ups, nflags)
        else:
            ybs = np.full(len(masks), yb0 if rules.n_flags == 2 else 0, dtype=np.int64)
        out.append((masks.astype(np.int64), ups.astype(np.int64), ybs))
    return out


def upper_classes(rules: RuleSet, reach: np.ndarray | None = None) -> np.ndarray:
    """Equivalence classes of the upper subtotals of each set of filled upper boxes (see the module).

    Parameters
    ----------
    rules : RuleSet
    reach : (64, T+1) bool, optional
        :func:`reachable_upper` of ``rules`` from the empty card (computed if not given).

    Returns
    -------
    (64, T+1) int64
        ``out[m, u]``: the smallest reachable subtotal equivalent to ``u`` when
        the upper boxes in the 6-bit mask ``m`` are filled (``u`` itself if
        none is smaller); -1 where ``u`` is unreachable.

    Notes
    -----
    The sums the open upper boxes can still add are the subtotals that the
    complement of ``m`` makes from 0, ``reach[63 ^ m]``.  Whether ``u + s``
    reaches the threshold ``T`` is ``s >= T - u``, a condition that holds for
    a tail of the sorted sums, so two subtotals are equivalent exactly when
    the same number of sums is at least ``T - u``.  That count does not fall
    as ``u`` grows, so each class is a run of reachable subtotals and its
    representative is the run's first.
    """
    if reach is None:
        reach = reachable_upper(rules)
    T = rules.upper_threshold
    n = 1 << N_UPPER
    sums = reach[(n - 1) ^ np.arange(n)]  # (64, T+1): which sums the open upper boxes can still add
    at_least = np.cumsum(sums[:, ::-1], axis=1)[:, ::-1]  # at_least[m, k]: how many of them are >= k
    key = at_least[:, T - np.arange(T + 1)]  # key[m, u]: how many take u to the threshold
    out = np.full((n, T + 1), -1, dtype=np.int64)
    for m in range(n):
        us = np.flatnonzero(reach[m])
        _, first, inverse = np.unique(key[m, us], return_index=True, return_inverse=True)
        out[m, us] = us[first[inverse.reshape(-1)]]
    return out


_CLASSES: dict[RuleSet, np.ndarray] = {}


def upper_representatives(rules: RuleSet, masks: np.ndarray, ups: np.ndarray,
                          ybs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One state per class of equivalent upper subtotals in a list of turn-start states.

    Two states of the same filled boxes and Yahtzee-bonus flag whose upper
    subtotals are equivalent (:func:`upper_classes`) have the same future, bit
    for bit (the module docstring): a DP over them solves the first of each
    class and lets the others read its result.

    Parameters
    ----------
    rules : RuleSet
    masks, ups, ybs : (n,) int64
        Reachable turn-start states (e.g. one entry of :func:`reachable_layers`), sorted by
        mask, then upper subtotal, as that function gives them.

    Returns
    -------
    first : (k,) int64
        Positions of the representatives in the given order, increasing: each the
        first state of its class, so the one of smallest upper subtotal.
    rep : (n,) int64
        For each state, the position of its representative in ``first`` (0..k-1).
    """
    classes = _CLASSES.get(rules)
    if classes is None:
        classes = _CLASSES[rules] = upper_classes(rules)
    T = rules.upper_threshold
    cls = classes[masks & ((1 << N_UPPER) - 1), ups]
    key = (masks * (T + 1) + cls) * rules.n_flags + ybs
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(first), np.int64)
    rank[order] = np.arange(len(first))
    return first[order].astype(np.int64), rank[inverse.reshape(-1)]


@functools.cache
def _masks_by_count(C: int) -> tuple[np.ndarray, ...]:
    """The ``C``-bit masks by number of bits set: entry ``p`` holds those with ``p`` bits, ascending."""
    all_masks = np.arange(1 << C, dtype=np.int64)
    popcount = np.zeros(1 << C, dtype=np.int64)
    for c in range(C):
        popcount += (all_masks >> c) & 1
    out = tuple(all_masks[popcount == p] for p in range(C + 1))
    for a in out:
        a.setflags(write=False)
    return out


@functools.cache
def _masks_in_gray_order(C: int) -> tuple[np.ndarray, ...]:
    """:func:`_masks_by_count`'s layers, each sorted by the masks' rank in the reflected Gray code.

    The rank of ``m`` is the ``g`` with ``g ^ (g >> 1) == m``.  Masks of
    neighbouring rank differ in few boxes, so a tile of the build's states
    (:func:`kernels.turn_columns`) spans masks with fewer boxes open in some
    of them only, which its final rolls score for every state of the tile:
    Yahtzee's build scores 1.21 times the final-roll elements its states need
    in this order, against 1.27 in ascending order.
    """
    out = []
    for layer in _masks_by_count(C):
        rank = layer.copy()
        shift = 1
        while shift < C:
            rank ^= rank >> shift
            shift <<= 1
        ordered = layer[np.argsort(rank, kind="stable")]
        ordered.setflags(write=False)
        out.append(ordered)
    return tuple(out)


def state_arrays(rules: RuleSet, filled: int, reach: np.ndarray | None = None,
                 jit_compile: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The reachable turn-start states with ``filled`` boxes filled.

    Parameters
    ----------
    rules : RuleSet
    filled : int
        Number of filled boxes (the layer).
    reach : (64, T+1) bool, optional
        :func:`reachable_upper` of ``rules`` (computed if not given).
    jit_compile : bool
        Listed by the compiled kernel (default) or the interpreted one
        (:func:`yahtzee_solver.solver.kernels.layer_states`).

    Returns
    -------
    masks, ups, ybs : (n,) int64
        One entry per state: the masks in the order of their rank in the
        reflected Gray code (:func:`_masks_in_gray_order`, the states of one
        mask together), then by upper subtotal, then by flag.
    """
    if reach is None:
        reach = reachable_upper(rules)
    ycat = rules.yahtzee_category
    layer = _masks_in_gray_order(rules.n_categories)[filled]
    states: tuple[np.ndarray, np.ndarray, np.ndarray] = jit.backend(jit_compile).layer_states(
        layer, np.ascontiguousarray(reach, dtype=np.bool_), ycat, rules.n_flags == 2 and ycat >= 0)
    return states


def _dynamic_schedule(jit_compile: bool) -> contextlib.AbstractContextManager[Any]:
    """Context: numba's dynamic scheduling of ``prange`` loops on this thread (no-op interpreted).

    One item at a time: an item of :func:`kernels.solve_states` is a chunk of
    :data:`kernels.BUILD_CHUNK` tiles, a fraction of a millisecond of work,
    so a thread slowed by other processes takes fewer chunks instead of
    holding up the whole layer.
    """
    if not jit_compile:
        return contextlib.nullcontext()
    numba = jit.started_numba()
    schedule: contextlib.AbstractContextManager[Any] = numba.parallel_chunksize(1)
    return schedule


@dataclass(frozen=True)
class BuildResult:
    """A freshly built value table.

    Attributes
    ----------
    rules : RuleSet
    values : (2**C, T+1, F) float64
        Expected future points of every turn-start state (NaN: unreachable).
    seconds : float
        Wall time of the build (state enumeration and DP), JIT compilation excluded.
    compile_seconds : float
        Wall time spent loading or compiling the kernels.
    n_states : int
        Number of reachable states solved.
    cpu_seconds : float
        CPU time of the whole process (all threads) during :attr:`seconds`.
    n_turns : int
        Number of turns solved (:func:`kernels.turn` runs): one per class of
        equivalent upper subtotals (the module docstring), fewer than
        :attr:`n_states`; 0 when not counted.
    """

    rules: RuleSet
    values: np.ndarray
    seconds: float
    compile_seconds: float
    n_states: int
    cpu_seconds: float = float("nan")
    n_turns: int = 0

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
    score, joker, params = arrays["score"], arrays["joker"], arrays["params"]
    C = rules.n_categories
    T = rules.upper_threshold
    t0 = time.perf_counter()
    k = jit.backend(jit_compile)
    V = np.full((1 << C, T + 1, rules.n_flags), np.nan)
    if jit_compile:
        # Compile (or load from the cache) every kernel of the loop below on an empty layer (the
        # same argument types), so the timing is honest.
        none = np.zeros(0, dtype=np.int64)
        k.solve_states(none, none, none, V, score, joker, params)
        no_masks = _masks_by_count(C)[0][:0]  # read-only, as the layers are
        no_reach = np.zeros((1 << N_UPPER, T + 1), dtype=np.bool_)
        k.layer_states(no_masks, no_reach, rules.yahtzee_category, False)
        k.copy_class_values(no_masks, no_reach, np.zeros((1 << N_UPPER, T + 1), dtype=np.int64), V)
    t1 = time.perf_counter()
    c1 = time.process_time()
    reach = reachable_upper(rules)
    classes = upper_classes(rules, reach)
    rep = reach & (classes == np.arange(T + 1))  # the subtotals solved: one per class
    copied = reach & ~rep  # the others, which read their representative's value
    per_mask = reach.sum(axis=1)
    ycat = rules.yahtzee_category
    flags = rules.n_flags == 2 and ycat >= 0
    sizes = []  # reachable states of each layer, from the top
    for p in range(C, -1, -1):
        layer = _masks_by_count(C)[p]
        sizes.append(int((per_mask[layer & ((1 << N_UPPER) - 1)] * (1 + ((layer >> ycat) & 1) if flags else 1)).sum()))
    masks, ups, ybs = state_arrays(rules, C, reach, jit_compile)
    V[masks, ups, ybs] = 0.0
    total = sum(sizes)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=total, unit="state", desc=f"build {rules.name}", unit_scale=True)
        bar.update(sizes[0])
    turns = 0
    try:  # the bar closed even on Ctrl-C, so it is not redrawn after the caller's message
        with _dynamic_schedule(jit_compile):
            for p, size in zip(range(C - 1, -1, -1), sizes[1:]):
                masks, ups, ybs = state_arrays(rules, p, rep, jit_compile)
                turns += len(masks)
                # the threads with a core free now; a layer of one chunk of tiles is one thread's work
                one_chunk = len(masks) <= kernels.BUILD_TILE * kernels.BUILD_CHUNK
                with jit.threads_for(jit_compile, 1 if one_chunk else None):
                    k.solve_states(masks, ups, ybs, V, score, joker, params)
                k.copy_class_values(_masks_by_count(C)[p], copied, classes, V)  # every flag at once
                if bar is not None:
                    bar.update(size)
    finally:
        if bar is not None:
            bar.close()
    t2 = time.perf_counter()
    c2 = time.process_time()
    return BuildResult(rules, V, t2 - t1, t1 - t0, total, c2 - c1, turns)
