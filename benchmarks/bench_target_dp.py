#!/usr/bin/env python3
"""Speed of the target-score DP kernel (utility_kernels.solve_layer): baseline against the tiled kernel.

The baseline is ``yahtzee_solver/utility_kernels.py`` as it was at a git
revision (``--baseline``, default the last commit before the tiled kernel),
compiled by numba in this process exactly as :func:`yahtzee_solver.solver.jit.compiled_module`
does; the current kernel is compiled from the working tree.  Both run in the
same process, one after the other, on the same inputs, and the values are
compared bit for bit.  Two jobs:

1. ``target_curve`` from a card with 6 open boxes (all six upper boxes) and
   ``--max`` (default 700): the whole DP, best of ``--runs`` runs, each tile
   size of ``--tiles`` against the baseline;
2. one layer of the Yahtzee empty-card DP at ``--max`` (``--open`` open boxes,
   default 4): the layers after it are solved first with the current kernel,
   then every ``--stride``-th state of that layer (default 10) is solved with
   the baseline and with the current kernel (same ``Wn``), timed and compared.

Usage::

    python benchmarks/bench_target_dp.py [--max 700] [--open 4] [--stride 10] [--runs 2] [--tiles 16,48,128]
"""

from __future__ import annotations

import subprocess
import sys
import time
import types
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402

from yahtzee_solver.solver import jit as _jit  # noqa: E402
from yahtzee_solver.strategy import objectives as ob  # noqa: E402
from yahtzee_solver.solver import utility_kernels as uk  # noqa: E402
from yahtzee_solver.state import parse_card  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
#: Last commit with the untiled kernel (one (3, 462, J+1) scratch per state).
BASELINE = "949dbaa"
SIX_OPEN = "3k=20,4k=20,fh=25,ss=30,ls=40,chance=20,yahtzee=50"


def baseline_module(rev: str):
    """``utility_kernels`` at git revision ``rev``, compiled like :func:`jit.compiled_module` (no disk cache)."""
    import numba

    src = subprocess.run(["git", "show", f"{rev}:yahtzee_solver/utility_kernels.py"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    mod = types.ModuleType("yahtzee_solver._utility_kernels_baseline")
    mod.__package__ = "yahtzee_solver"
    exec(compile(src, f"{rev}:utility_kernels.py", "exec"), mod.__dict__)
    base = _jit.compiled()
    mod.prange = numba.prange
    for name in mod.IMPORTS:
        setattr(mod, name, getattr(base, name))
    for name in mod.KERNELS:
        setattr(mod, name, numba.njit(nogil=True, parallel=name in mod.PARALLEL)(getattr(mod, name)))
    return mod


class _Baseline:
    """Stands in for the compiled module in ``objectives.solve_utility``: the baseline's solve_layer (no tile)."""

    def __init__(self, mod):
        self.mod = mod

    def solve_layer(self, *args):
        return self.mod.solve_layer(*args[:-1])


def _solve(backend, card, top, tile):
    """Root values of the target-curve DP from ``card`` with ``backend`` (None: the current kernel)."""
    orig = _jit.module_backend
    if backend is not None:
        _jit.module_backend = lambda module, jit: backend
    try:
        t = time.perf_counter()
        sol = ob.solve_utility("yahtzee", card, None, ob.target_utility(top, card.total), keep_all=False,
                               every_offset=True, tile=tile)
        return sol.root_values, time.perf_counter() - t, sol.n_states
    finally:
        _jit.module_backend = orig


def whole_dp(base, top: int, runs: int, tiles) -> None:
    card = parse_card(SIX_OPEN)
    print(f"\n## (1) target_curve from a card with 6 open boxes ({SIX_OPEN}), --max {top}")
    _solve(base, card, card.total + 20, uk.TILE)  # compile both
    _solve(None, card, card.total + 20, uk.TILE)
    ref, t_base, n = None, [], 0
    cur = {t: [] for t in tiles}
    vals = {}
    for _ in range(runs):
        ref, s, n = _solve(base, card, top, uk.TILE)
        t_base.append(s)
        for tile in tiles:
            vals[tile], s, _ = _solve(None, card, top, tile)
            cur[tile].append(s)
    b = min(t_base)
    print(f"  {n:,} states, offsets 0..{top - card.total}; best of {runs} runs")
    print(f"  baseline {BASELINE_REV:<12}          {b:8.3f} s")
    for tile in tiles:
        same = np.array_equal(vals[tile], ref, equal_nan=True)
        print(f"  tiled, tile {tile:<4} {'(default)' if tile == uk.TILE else '         '}  {min(cur[tile]):8.3f} s"
              f"   baseline/tiled {b / min(cur[tile]):5.2f}x   identical: {same}")


class _Stop(Exception):
    pass


def one_layer(base, top: int, n_open: int, stride: int, tiles) -> None:
    print(f"\n## (2) Yahtzee empty-card DP at --max {top}: the layer with {n_open} open boxes, every {stride}th state")
    calls = [0]
    current = _jit.compiled_module(uk)
    report = {}

    class Probe:
        def solve_layer(self, masks, ups, ybs, lows, highs, low_value, Wn, Wc, *rest):
            calls[0] += 1
            if calls[0] < n_open:
                t = time.perf_counter()
                current.solve_layer(masks, ups, ybs, lows, highs, low_value, Wn, Wc, *rest)
                print(f"  (layer with {calls[0]} open box{'es' if calls[0] > 1 else ''}, {masks.size:,} states: "
                      f"{time.perf_counter() - t:.1f} s)", flush=True)
                return
            sel = slice(None, None, stride)
            args = [x[sel].copy() for x in (masks, ups, ybs, lows, highs)]
            params = rest[:-2]
            parts = min(rest[-2], args[0].size)
            out = {}
            Wb = np.empty((args[0].size, Wn.shape[1]))
            base.solve_layer(*args, low_value, Wn, Wb, *params, parts)  # compile
            t = time.perf_counter()
            base.solve_layer(*args, low_value, Wn, Wb, *params, parts)
            report["baseline"] = time.perf_counter() - t
            for tile in tiles:
                Wt = np.empty_like(Wb)
                t = time.perf_counter()
                current.solve_layer(*args, low_value, Wn, Wt, *params, parts, tile)
                report[tile] = time.perf_counter() - t
                out[tile] = np.array_equal(Wt, Wb, equal_nan=True)
            report["same"] = out
            report["n"] = args[0].size
            report["offsets"] = int(np.sum(np.minimum(args[4], Wn.shape[1] - 1) - args[3]))
            raise _Stop

    orig = _jit.module_backend
    _jit.module_backend = lambda module, jit: Probe()
    try:
        ob.target_curve("yahtzee", top)
    except _Stop:
        pass
    finally:
        _jit.module_backend = orig
    b = report["baseline"]
    print(f"  {report['n']:,} states, {report['offsets']:,} state-offsets")
    print(f"  baseline {BASELINE_REV:<12}          {b:8.3f} s   {1e9 * b / report['offsets']:7.0f} ns per state-offset")
    for tile in tiles:
        s = report[tile]
        print(f"  tiled, tile {tile:<4} {'(default)' if tile == uk.TILE else '         '}  {s:8.3f} s"
              f"   {1e9 * s / report['offsets']:7.0f} ns per state-offset   baseline/tiled {b / s:5.2f}x"
              f"   identical: {report['same'][tile]}")


def main(argv=None) -> int:
    global BASELINE_REV
    ap = common.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", default=BASELINE, type=common.git_revision, help="git revision of the baseline kernel")
    ap.add_argument("--max", type=int, default=700)
    ap.add_argument("--open", type=int, default=4)
    ap.add_argument("--stride", type=int, default=10)
    ap.add_argument("--runs", type=common.count(1), default=2)
    ap.add_argument("--tiles", default=f"16,{uk.TILE},128")
    opts = ap.parse_args(argv)
    BASELINE_REV = opts.baseline
    tiles = [int(t) for t in opts.tiles.split(",")]
    common.header("target-score DP kernel: baseline against the tiled kernel")
    import numba

    print(f"# numba threads: {numba.get_num_threads()}, default tile {uk.TILE}")
    base = baseline_module(opts.baseline)
    whole_dp(_Baseline(base), opts.max, opts.runs, tiles)
    one_layer(base, opts.max, opts.open, opts.stride, tiles)
    return 0


BASELINE_REV = BASELINE

if __name__ == "__main__":
    sys.exit(main())
