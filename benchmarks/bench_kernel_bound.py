#!/usr/bin/env python3
"""The build's turn kernel against a bound measured on this machine (issue 22, goal 4).

    python benchmarks/bench_kernel_bound.py [--rules yahtzee] [--repeat 5] [--c-loops]

1. **Measured.** Every turn of a table build (the build's own list: one state
   per class of equivalent upper subtotals, layer by layer) is solved by
   ``kernels.solve_states`` on one thread, against the shipped table (the
   values are checked bit for bit).  CPU microseconds per turn, the minimum of
   ``--repeat`` runs, each run after a measurement of the machine's rates (3.): the two
   alternate, so that a loaded moment does not fall on one of them only.
2. **Counted.** From the states, the work each phase of the turn needs per
   state (:func:`kernels.turn_columns`): the element operations of the final
   rolls (one pass over the 252 rolls per box open in that state, plus the
   six Joker rolls once the Yahtzee box is filled), the keep averages
   (3 x 210 rows of six loads, five adds and a division), the best keeps
   (2 x 462 rows of a max over the keep and its sub-keeps, three or five as
   :func:`kernels.vec_best_subkeeps` reads them), the bytes the vector loops
   load, and the table look-ups of the successor values (``after_box``: six
   an open upper box, one a lower box, and one more for an open Yahtzee box,
   scored at 50 points).  The kernel scores the final rolls
   over a whole tile, for every box open in any of its states; that extra
   work is reported, not counted in the bound.
3. **The machine's rates.** Each phase's operation mix is timed in a
   streaming loop of the same shape over contiguous rows of a buffer as large
   as the build's tile (462 x 64 float64, 64-byte aligned as the kernel's, in L2): the same loads, adds,
   maxima and divisions per element, with no index tables and no row set-up.
   The final rolls' mix is timed in two shapes, over the tile's columns (the
   kernel's) and along one row of 252 rolls (the single-state turn's); the
   bound takes the faster.
   The look-ups are timed as a loop of gathers from the table at the
   successor states of the build's own list, in its order.  Each time per
   element is the best this machine does for that mix (the best over the ``--repeat`` rounds); the bound of a turn
   is the sum over its phases of count x that time.  The Joker box scores
   (scalar rule logic, 24 a turn) are counted, not priced.

The ratio measured / bound says how far the kernel is from the machine's
rate for its own arithmetic and loads; goal 4 asks for at most 1.3.

``--c-loops`` also times the keep steps' loops (``kernels.vec_expect_keeps``,
``kernels.vec_best_subkeeps``) beside the bound's streaming loops of the same
mix, each compiled twice: by numba, and by the machine's C compiler
(``cc -O3 -march=native``, ``benchmarks/keep_loops.c``).  Nanoseconds a row of
64 columns, the best of 7 runs alternating.  If the C compiler's kernel loops
are as far from its own streaming loops as numba's are, the distance is the
loops' access pattern (rows read through the keep tables), not numba's code.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numba  # noqa: E402
import numpy as np  # noqa: E402

from yahtzee_solver.dice import N_KEEPS, N_ROLLS, ROLL_FACE, ROLL_OFFSET  # noqa: E402
from yahtzee_solver.rules import N_UPPER, get_rules  # noqa: E402
from yahtzee_solver.solver import build, jit, kernels  # noqa: E402
from yahtzee_solver.solver.table import load_table  # noqa: E402

TILE = kernels.BUILD_TILE


# -- streaming loops of each phase's operation mix (contiguous rows, no index tables) ----------

@numba.njit(cache=False)
def _stream_expect(X, reps):
    """Rows 0..209 = (six other rows summed) / 6: 6 loads, 5 adds, 1 division, 1 store an element."""
    n = X.shape[1]
    for _ in range(reps):
        for k in range(210):
            e0 = X[210 + k]
            e1 = X[211 + k]
            e2 = X[212 + k]
            e3 = X[213 + k]
            e4 = X[214 + k]
            e5 = X[215 + k]
            ek = X[k]
            for t in range(n):
                ek[t] = (e0[t] + e1[t] + e2[t] + e3[t] + e4[t] + e5[t]) / 6.0
    return X[0, 0]


@numba.njit(cache=False)
def _stream_best(E, B, nsubs, reps):
    """B[k] = max(E[k], the 3 or 5 rows before it, as ``nsubs[k]`` says): 1 + 3 or 5 loads, 3 or 5 maxima,
    1 store an element.

    The other rows are read from ``E`` (the kernel reads earlier rows of ``B``, just written: that
    dependency is the kernel's, not the machine's rate).  ``nsubs`` all 3 or all 5 gives the rate of
    each mix; the keep graph's own counts (``kernels._NSUBS``) give the kernel's mix (``--c-loops``).
    """
    n = E.shape[1]
    for _ in range(reps):
        for k in range(5, N_KEEPS):
            ek = E[k]
            bk = B[k]
            s0 = E[k - 1]
            s1 = E[k - 2]
            s2 = E[k - 3]
            if nsubs[k] <= 3:
                for t in range(n):
                    y = ek[t]
                    x = s0[t]
                    y = x if x > y else y
                    x = s1[t]
                    y = x if x > y else y
                    x = s2[t]
                    bk[t] = x if x > y else y
            else:
                s3 = E[k - 4]
                s4 = E[k - 5]
                for t in range(n):
                    y = ek[t]
                    x = s0[t]
                    y = x if x > y else y
                    x = s1[t]
                    y = x if x > y else y
                    x = s2[t]
                    y = x if x > y else y
                    x = s3[t]
                    y = x if x > y else y
                    x = s4[t]
                    bk[t] = x if x > y else y
    return B[5, 0]


@numba.njit(cache=False)
def _stream_final(E, U, cnt, reps):
    """Rows 210..461 = max(row, U[cnt[r]]) over the tile's columns: 2 loads, 1 max, 1 store an element.

    One upper box over the tile's columns (a row of values chosen by the roll's dice count); a lower
    box adds its points to a row instead, the same count of loads.  (:func:`kernels.final_roll_columns`
    takes four boxes a pass, one load and store of the row per four; the bound takes the faster shape.)
    """
    n = E.shape[1]
    for _ in range(reps):
        for r in range(N_ROLLS):
            u = U[cnt[r]]
            er = E[ROLL_OFFSET + r]
            for t in range(n):
                v = u[t]
                y = er[t]
                er[t] = v if v > y else y
    return E[ROLL_OFFSET, 0]


@numba.njit(cache=False)
def _stream_final_rows(S, col, reps):
    """S = max(S, col + base) over 252 rolls: 2 loads, 1 add, 1 max, 1 store an element (one long row)."""
    base = 1.5
    for i in range(reps):
        c = col[i % col.shape[0]]
        for r in range(S.shape[0]):
            v = c[r] + base
            y = S[r]
            S[r] = v if v > y else y
    return S[0]


@numba.njit(cache=False)
def _stream_gather(flat, idx, reps):
    """The sum of ``flat[idx[i]]``: one gather from the table (and one streaming index load) an element."""
    acc = 0.0
    for _ in range(reps):
        for i in range(idx.shape[0]):
            acc += flat[idx[i]]
    return acc


_expect_kernel = numba.njit(cache=False)(kernels.vec_expect_keeps)
_best_kernel = numba.njit(cache=False)(kernels.vec_best_subkeeps)


@numba.njit(cache=False)
def _kernel_expect(E, reps):
    """The kernel's keep averages (``kernels.vec_expect_keeps``), ``reps`` times."""
    for _ in range(reps):
        _expect_kernel(E, E.shape[1])
    return E[0, 0]


@numba.njit(cache=False)
def _kernel_best(E, B, S, reps):
    """The kernel's best keeps (``kernels.vec_best_subkeeps``), ``reps`` times."""
    for _ in range(reps):
        _best_kernel(E, B, E.shape[1], S)
    return B[ROLL_OFFSET, 0]


def c_loops() -> None:
    """Print the keep steps' loops and their streaming loops, compiled by numba and by C (``--c-loops``)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        print("--c-loops: no C compiler (cc, gcc) on PATH")
        return
    src = Path(__file__).with_name("keep_loops.c")
    with tempfile.TemporaryDirectory() as tmp:
        lib_path = Path(tmp) / "keep_loops.so"
        subprocess.run([cc, "-O3", "-march=native", "-shared", "-fPIC", "-o", str(lib_path), str(src)], check=True)
        lib = ctypes.CDLL(str(lib_path))
    P, L = ctypes.c_void_p, ctypes.c_long
    lib.expect_table.argtypes = [P, L, P]
    lib.expect_stream.argtypes = [P, L]
    lib.best_table.argtypes = [P, P, P, L, P, P, P]
    lib.best_stream.argtypes = [P, P, L, P]
    rng = np.random.default_rng(0)
    E = _aligned(rng.random((N_KEEPS, TILE)))
    B = _aligned(rng.random((N_KEEPS, TILE)))
    S = _aligned(rng.random((N_KEEPS, TILE)))
    child = np.ascontiguousarray(kernels.CHILD[:ROLL_OFFSET], dtype=np.int64)
    subs = np.ascontiguousarray(kernels._SUBS, dtype=np.int64)
    nsubs = np.ascontiguousarray(kernels._NSUBS, dtype=np.int64)
    level = np.ascontiguousarray(kernels._LEVEL_START, dtype=np.int64)
    reps = 2000
    d = {name: a.ctypes.data for name, a in (("E", E), ("B", B), ("S", S), ("child", child), ("subs", subs),
                                              ("nsubs", nsubs), ("level", level))}
    loops = {
        ("keep averages", "numba", "kernel"): (lambda r: _kernel_expect(E, r), ROLL_OFFSET),
        ("keep averages", "numba", "stream"): (lambda r: _stream_expect(E, r), ROLL_OFFSET),
        ("keep averages", "C", "kernel"): (lambda r: lib.expect_table(d["E"], r, d["child"]), ROLL_OFFSET),
        ("keep averages", "C", "stream"): (lambda r: lib.expect_stream(d["E"], r), ROLL_OFFSET),
        ("best keeps", "numba", "kernel"): (lambda r: _kernel_best(E, B, S, r), N_KEEPS - 1),
        ("best keeps", "numba", "stream"): (lambda r: _stream_best(E, B, nsubs, r), N_KEEPS - 5),
        ("best keeps", "C", "kernel"): (lambda r: lib.best_table(d["E"], d["B"], d["S"], r, d["subs"], d["nsubs"],
                                                                 d["level"]), N_KEEPS - 1),
        ("best keeps", "C", "stream"): (lambda r: lib.best_stream(d["E"], d["B"], r, d["nsubs"]), N_KEEPS - 5),
    }
    best = {key: np.inf for key in loops}
    for fn, _ in loops.values():
        fn(1)
    for _ in range(7):
        for key, (fn, rows) in loops.items():
            c0 = time.perf_counter()
            fn(reps)
            best[key] = min(best[key], (time.perf_counter() - c0) / (reps * rows) * 1e9)
    print(f"keep steps' loops, ns a row of {TILE} columns (best of 7, alternating; C: {Path(cc).name} -O3 -march=native):")
    for phase in ("keep averages", "best keeps"):
        for comp in ("numba", "C"):
            k, st = best[(phase, comp, "kernel")], best[(phase, comp, "stream")]
            print(f"  {phase:14s} {comp:5s}  kernel's loop {k:6.2f}   streaming loop {st:6.2f}   ratio {k / st:.2f}")


def _per_element(fn, elements: int, *args) -> float:
    """Seconds per element of a streaming loop (best of 7)."""
    fn(*args[:-1], 1)
    best = np.inf
    for _ in range(7):
        c0 = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - c0)
    return best / elements


def _aligned(a: np.ndarray) -> np.ndarray:
    """A copy of ``a`` whose data starts on a 64-byte boundary, as the kernel's tile buffers do."""
    raw = np.empty(a.size + 8)
    off = (-raw.ctypes.data % 64) // 8
    out = raw[off:off + a.size].reshape(a.shape)
    out[...] = a
    return out


def machine_rates(flat: np.ndarray, idx: np.ndarray) -> dict[str, float]:
    """Nanoseconds per element of each phase's operation mix on this machine (one thread, L2-resident),
    and of a table look-up at the build's own successor states (``idx`` into the table ``flat``,
    :func:`lookup_indices`)."""
    rng = np.random.default_rng(0)
    X = _aligned(rng.random((N_KEEPS, TILE)))
    B = _aligned(rng.random((N_KEEPS, TILE)))
    reps = 400
    out = {"expect": _per_element(_stream_expect, reps * 210 * TILE, X, reps) * 1e9}
    for s in (3, 5):
        out[f"best{s}"] = _per_element(_stream_best, reps * (N_KEEPS - 5) * TILE, X, B, np.full(N_KEEPS, s), reps) * 1e9
    U = _aligned(rng.random((6, TILE)))
    cnt = np.ascontiguousarray(kernels._ROLL_COUNTS_T[0])
    reps_f = 2000
    out["final_tile"] = _per_element(_stream_final, reps_f * N_ROLLS * TILE, X, U, cnt, reps_f) * 1e9
    S = _aligned(rng.random(N_ROLLS))
    col = _aligned(rng.random((16, N_ROLLS)))
    reps_r = 40000
    out["final_row"] = _per_element(_stream_final_rows, reps_r * N_ROLLS, S, col, reps_r) * 1e9
    # the machine's rate for this mix is the faster of the two shapes
    out["final"] = min(out["final_tile"], out["final_row"])
    out["lookup"] = _per_element(_stream_gather, idx.size * 3, flat, idx, 3) * 1e9
    return out


def lookup_indices(rules, layers, shape) -> np.ndarray:
    """Flat table positions of the successor values the build's turns read, in the kernel's order.

    Per tile of :data:`TILE` states, box by box, state by state: an open upper box ``c`` at its six dice
    counts (subtotal ``min(T, up + n (c+1))``), an open lower box at the same subtotal and flag (its
    0-point value, which the Joker rolls reuse).
    """
    T = rules.upper_threshold
    out = []
    for masks, ups, ybs in layers:
        pos, keys = [], []
        state = np.arange(masks.size)
        for c in range(rules.n_categories):
            o = ((masks >> c) & 1) == 0
            m, u, y, i = masks[o] | (1 << c), ups[o], ybs[o], state[o]
            for n in range(6 if c < N_UPPER else 1):
                pos.append(np.ravel_multi_index((m, np.minimum(T, u + n * (c + 1)), y), shape))
                keys.append(((i // TILE) * 64 + c) * masks.size * 8 + i * 8 + n)
            if c == rules.yahtzee_category:
                # the Yahtzee box at 50 points: its own successor (the bonus flag set where the rules have it)
                pos.append(np.ravel_multi_index((m, u, np.ones_like(y) if rules.n_flags == 2 else y), shape))
                keys.append(((i // TILE) * 64 + c) * masks.size * 8 + i * 8 + 1)
        p, k = np.concatenate(pos), np.concatenate(keys)
        out.append(p[np.argsort(k, kind="stable")])
    return np.concatenate(out).astype(np.int64)


def build_turns(rules) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The build's turns (representative states), layer by layer from the last turn to the first."""
    reach = build.reachable_upper(rules)
    classes = build.upper_classes(rules, reach)
    out = []
    for p in range(rules.n_categories - 1, -1, -1):
        masks, ups, ybs = build.state_arrays(rules, p, reach)
        first = classes[masks & ((1 << N_UPPER) - 1), ups] == ups
        out.append((masks[first], ups[first], ybs[first]))
    return out


def counts(rules, layers) -> dict[str, float]:
    """Element operations and bytes loaded per turn, averaged over the build's turns."""
    C = rules.n_categories
    ycat = rules.yahtzee_category
    n_turns = sum(m.size for m, _, _ in layers)
    masks = np.concatenate([m for m, _, _ in layers])
    open_boxes = C - np.array([bin(int(m)).count("1") for m in masks])
    joker_rolls = int((ROLL_FACE > 0).sum())
    yfilled = (masks >> ycat) & 1 if ycat >= 0 else np.zeros_like(masks)
    # the final rolls: one pass over the 252 rolls per open box; the Joker rolls with box_values
    final = float(open_boxes.mean()) * N_ROLLS
    done = 0
    for m, _, _ in layers:
        for lo in range(0, m.size, TILE):
            union = C - bin(int(np.bitwise_and.reduce(m[lo:lo + TILE]))).count("1")
            done += union * N_ROLLS * TILE
    final_done = done / n_turns
    joker = float((yfilled * joker_rolls * open_boxes).mean())
    nsubs = np.array([int((kernels.SUB[k] >= 0).sum()) for k in range(N_KEEPS)])
    best3 = int(((nsubs <= 3) & (np.arange(N_KEEPS) > 0)).sum())
    best5 = int((nsubs > 3).sum())
    ops = {
        "final": final,  # elements of row = max(row, x): one add or gather, one max
        "final_done": final_done,  # the same, as the kernel does them (every box open in the tile, 32 columns)
        "joker": joker,  # box scores of the Joker rolls (scalar)
        "expect": 3.0 * ROLL_OFFSET,  # rows of six loads, five adds, a division
        "best3": 2.0 * best3,
        "best5": 2.0 * best5,
        "lookups": float((np.where(np.arange(C)[None, :] < N_UPPER, 6, 1)
                          * ((masks[:, None] >> np.arange(C)[None, :]) & 1 == 0)).sum(axis=1).mean()
                         + (1.0 - yfilled.mean() if ycat >= 0 else 0.0)),
    }
    loads = (ops["final"] * 2 + ops["expect"] * 6 + ops["best3"] * 4 + ops["best5"] * 6 + ops["lookups"]) * 8
    ops["bytes_loaded"] = loads
    ops["turns"] = n_turns
    return ops


def measured(rules, layers, repeat: int) -> float:
    """CPU microseconds per turn of the build's solve_states on one thread (minimum of ``repeat``)."""
    table = load_table(rules.name)
    a = rules.arrays()
    k = jit.compiled()
    solved = np.concatenate([np.ravel_multi_index((m, u, y), table.values.shape) for m, u, y in layers])
    best = np.inf
    for _ in range(repeat):
        # the other members of each class (copies in the build) and the full cards from the table
        V = table.values.copy()
        V.ravel()[solved] = np.nan
        c0 = time.process_time()
        for masks, ups, ybs in layers:
            k.solve_states(masks, ups, ybs, V, a["score"], a["joker"], a["params"])
        best = min(best, time.process_time() - c0)
        assert np.array_equal(V.ravel()[solved], table.values.ravel()[solved]), "the build's values changed"
    return best / sum(m.size for m, _, _ in layers) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="yahtzee")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--c-loops", action="store_true",
                    help="also time the keep steps' loops compiled by numba and by the C compiler")
    a = ap.parse_args()
    if a.repeat < 1:
        ap.error(f"--repeat {a.repeat}: want at least 1")
    rules = get_rules(a.rules)
    layers = build_turns(rules)
    ops = counts(rules, layers)
    table = load_table(rules.name)
    flat = table.values.ravel()
    idx = lookup_indices(rules, layers, table.values.shape)
    # the rates and the kernel alternate, ``--repeat`` rounds, and each keeps its best: measured
    # one after the other, a loaded minute could fall on either and move the ratio by a third
    rates: dict[str, float] = {}
    us = np.inf
    for _ in range(a.repeat):
        for name, ns in machine_rates(flat, idx).items():
            rates[name] = min(rates.get(name, np.inf), ns)
        us = min(us, measured(rules, layers, 1))
    bound_ns = {
        "final rolls": ops["final"] * rates["final"],
        "keep averages": ops["expect"] * rates["expect"],
        "best keeps": ops["best3"] * rates["best3"] + ops["best5"] * rates["best5"],
        "table look-ups": ops["lookups"] * rates["lookup"],
    }
    total = sum(bound_ns.values()) / 1000
    print(f"{rules.name}: {int(ops['turns'])} turns, one thread, load average {os.getloadavg()[0]:.2f}")
    print(f"machine rates, ns an element (streaming, L2): expect {rates['expect']:.3f}, best of 3 "
          f"{rates['best3']:.3f}, best of 5 {rates['best5']:.3f}, final-roll max {rates['final']:.3f} "
          f"(the faster of {rates['final_row']:.3f} along a row of 252 rolls and {rates['final_tile']:.3f} over "
          f"the tile's {TILE} columns), "
          f"table look-up {rates['lookup']:.3f}")
    print(f"per turn: {ops['final']:.0f} final-roll elements ({ops['final_done']:.0f} done over the tile), "
          f"{ops['expect']:.0f} keep-average rows x 1 column, {ops['best3'] + ops['best5']:.0f} best-keep rows, "
          f"{ops['lookups']:.1f} table look-ups, {ops['bytes_loaded'] / 1024:.1f} KiB loaded; "
          f"{ops['joker']:.0f} Joker box scores (not priced)")
    for name, ns in bound_ns.items():
        print(f"  bound {name:20s} {ns / 1000:.3f} us")
    print(f"bound {total:.3f} us a turn; measured {us:.3f} us a turn (CPU); ratio {us / total:.2f} (goal <= 1.3)")
    if a.c_loops:
        c_loops()


if __name__ == "__main__":
    main()
