#!/usr/bin/env python3
"""Side-by-side benchmark and cross-check against yatzy-solver (PyPI, Rust + PyO3).

One of our rule sets against the peer's variant of the same rules (``--rules``,
see :data:`PEER_VARIANTS`): by default our ``yahtzee`` (official rules, forced
Joker) against the peer's ``american+forced-joker``; ``--rules yatzy`` against
its ``yatzy-scandinavian``; ``yahtzee-no-joker`` and ``yahtzee-no-bonus``
against ``american+no-joker`` and ``american+no-bonus``.  In one run,
alternating the two programs:

1. full table build: wall and CPU seconds, peak memory (each build in a fresh
   child process; our JIT compile time excluded and reported on its own line);
2. ranked options for the same positions (default 1,000, met in seeded random
   games: rerolls left 2/1/0 x early/middle/late game): median microseconds per
   position, one call per position and one batch call; then a check that the
   two programs agree on every option value to 1e-9 and on the best option,
   and on every turn-start state value of the table;
3. simulation of the optimal policy: games per second, mean final score and
   its 95 % interval;
4. (ours only) ``yahtzee-solve hint`` from a cold shell, against the import
   floor ``python -c "import numpy, h5py, click"`` in the same run.

Exits 1 if the programs disagree on any value, 0 otherwise (also when
yatzy-solver is not installed: then nothing is compared; ``pip install
'yahtzee-solver[bench]'``).  This script installs nothing.

Mapping the two option sets (see the module notes below):

* The peer quotes expected points still to come; so do our raw queries
  (:mod:`yahtzee_solver.strategy.batch`), while the advisor quotes final totals: we
  subtract the card's total.  Both count the upper bonus when the score that
  reaches 63 is written, so no other shift is needed.
* The peer lists ``score <box>`` options even with rerolls left, and never
  ``keep`` all five.  Ours lists every distinct keep including all five, and
  box values for scoring now.  So: peer ``keep K`` <-> our keep K; peer
  ``score B`` <-> our box value of B; our keep-all-five (no reroll: scoring
  now, there is no pass) <-> the peer's best ``score``, with 1 or 2 rerolls left.  "Same best" means the same best value within
  1e-9, and each program's chosen option worth the best value, within 1e-9,
  in the other program (ties are not disagreements).

Usage::

    python benchmarks/compare_peer.py [--rules yahtzee] [--positions 1000] [--seed 2026]
        [--rounds 3] [--games 20000] [--only build,query,sim,cold]
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402

from yahtzee_solver import Advisor, get_rules  # noqa: E402
from yahtzee_solver.strategy.batch import ArrayAdvisor  # noqa: E402
from yahtzee_solver.dice import KEEPS, ROLL_OFFSET, keep_index, roll_index  # noqa: E402

#: Our rule set -> the peer's variant of the same rules (docs/rules.md names them).
PEER_VARIANTS = {
    "yahtzee": "american+forced-joker",
    "yahtzee-no-joker": "american+no-joker",
    "yahtzee-no-bonus": "american+no-bonus",
    "yatzy": "yatzy-scandinavian",
}
#: The pair compared in this run (set from --rules by main()).
OURS = "yahtzee"
PEER = PEER_VARIANTS[OURS]
TOL = 1e-9
#: Build wall ours/peer goals per rule set (issue "Speed round 2"); others: <= 1.0.
BUILD_TARGET = {"yahtzee": 0.4, "yatzy": 0.5}
#: Cold hint goal: wall of the hint / wall of ``python -c "import numpy, h5py, click"``.
COLD_TARGET = 1.15

OURS_BUILD = """
import sys
from yahtzee_solver.solver.build import build_values
r = build_values(sys.argv[1])
print(f"wall={r.seconds!r} cpu={r.cpu_seconds!r} compile={r.compile_seconds!r} v0={r.empty_value!r} "
      f"turns={r.n_turns}")
"""

PEER_BUILD = """
import sys, time
import yatzy_solver as ys
v = ys.Variant(sys.argv[1])
t = time.perf_counter(); c = time.process_time()
s = ys.Solver.build(v)
w = time.perf_counter() - t; cpu = time.process_time() - c
print(f"wall={w!r} cpu={cpu!r} compile=0.0 v0={s.state_value('upper 0 | filled -')!r}")
"""


class Disagreements:
    """Counts and first examples of disagreements by kind."""

    def __init__(self):
        self.counts: dict[str, int] = {}
        self.examples: dict[str, list[str]] = {}

    def add(self, kind: str, text: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1
        ex = self.examples.setdefault(kind, [])
        if len(ex) < 3:
            ex.append(text)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def report(self) -> None:
        if not self.counts:
            print("  no disagreement")
        for kind, n in sorted(self.counts.items()):
            print(f"  DISAGREE {kind}: {n}")
            for ex in self.examples[kind]:
                print(f"    e.g. {ex}")


# -- the peer's notation --------------------------------------------------------------


class PeerNotation:
    """Our positions in the peer's text notation, and its actions in our indices."""

    def __init__(self, ys, rules):
        self.rules = rules
        self.variant = ys.Variant(PEER)
        self.names = list(self.variant.categories)
        ours = [c.key.replace("-", "_") for c in rules.categories]
        five = "yatzy" if "yatzy" in self.names else "five_of_a_kind"
        ours = [five if k == "yahtzee" else k for k in ours]
        if ours != self.names:
            raise SystemExit(f"error: category lists differ: ours {ours} vs peer {self.names}")
        self.index = {n: i for i, n in enumerate(self.names)}
        self.ycat = rules.yahtzee_category
        self.five = five
        # the peer names what the Yahtzee box holds only where a Yahtzee bonus exists
        self.flag = rules.n_flags == 2

    def state(self, card) -> str:
        filled = [self.names[c] for c, v in enumerate(card.boxes) if v is not None]
        s = f"upper {card.upper_subtotal} | filled {','.join(filled) or '-'}"
        if self.flag and card.boxes[self.ycat] is not None:
            s += f" | {self.five} {card.boxes[self.ycat]}"
        return s

    def situation(self, card, dice, rolls_left: int) -> str:
        return f"dice {' '.join(map(str, sorted(dice)))} | rolls {rolls_left} | {self.state(card)}"

    def action(self, text: str) -> tuple[str, int]:
        """``('box', c)`` or ``('keep', keep index)``."""
        verb, _, rest = text.partition(" ")
        if verb == "score":
            return "box", self.index[rest]
        if verb == "keep":
            faces = () if rest == "-" else tuple(int(x) for x in rest.split())
            return "keep", keep_index(faces)
        raise ValueError(f"unknown peer action {text!r}")


# -- (1) build --------------------------------------------------------------------------


def bench_build(rounds: int) -> dict:
    print("\n## (1) full table build (fresh child process per build, alternating)")
    runs: dict[str, list] = {"ours": [], "peer": []}
    for i in range(rounds):
        for who, code, arg in (("ours", OURS_BUILD, OURS), ("peer", PEER_BUILD, PEER)):
            fields, wall_proc, rss = common.run_child(code, arg)
            fields["rss"] = rss
            fields["proc"] = wall_proc
            runs[who].append(fields)
            print(
                f"  round {i + 1} {who}: build {fields['wall']:.3f} s wall, {fields['cpu']:.3f} s cpu, "
                f"compile {fields['compile']:.3f} s, process {wall_proc:.2f} s, peak {rss:.0f} MiB, "
                f"V(empty) {fields['v0']:.10f}"
            )
    out = {}
    for key in ("wall", "cpu", "compile", "proc"):
        out[key] = (common.median([r[key] for r in runs["ours"]]), common.median([r[key] for r in runs["peer"]]))
    out["rss"] = (max(r["rss"] for r in runs["ours"]), max(r["rss"] for r in runs["peer"]))
    v0 = (runs["ours"][0]["v0"], runs["peer"][0]["v0"])
    print(f"  build wall (median)   ours {out['wall'][0]:.3f} s   peer {out['wall'][1]:.3f} s   "
          f"ours/peer {common.ratio(*out['wall'])}   (target <= 1.0; issue 2: ours <= 10 s)")
    print(f"  build cpu (median)    ours {out['cpu'][0]:.3f} s   peer {out['cpu'][1]:.3f} s   "
          f"ours/peer {common.ratio(*out['cpu'])}")
    print(f"  JIT compile (ours)    {out['compile'][0]:.3f} s median, {runs['ours'][0]['compile']:.3f} s first "
          "(numba cache=True; excluded above)")
    print(f"  whole process wall    ours {out['proc'][0]:.2f} s   peer {out['proc'][1]:.2f} s   "
          f"ours/peer {common.ratio(*out['proc'])}   (interpreter, imports, compile, build)")
    print(f"  peak memory           ours {out['rss'][0]:.0f} MiB   peer {out['rss'][1]:.0f} MiB   "
          f"ours/peer {common.ratio(*out['rss'])}   (target ours < 500 MiB; ours includes numba/LLVM)")
    print(f"  V(empty card)         ours {v0[0]:.12f}   peer {v0[1]:.12f}   diff {abs(v0[0] - v0[1]):.1e}")
    out["v0_diff"] = abs(v0[0] - v0[1])
    turns = (runs["ours"][0]["turns"], peer_turns(get_rules(OURS)))
    out["turns"] = turns
    per = tuple(out[key][i] / turns[i] * 1e6 for key in ("wall", "cpu") for i in (0, 1))
    out["per_turn_cpu"] = (per[2], per[3])
    print(f"  turns solved          ours {turns[0]:,}   peer {turns[1]:,}   ours/peer {common.ratio(*turns)}   "
          "(ours: reachable states, one turn per class of equivalent upper subtotals; peer: every state)")
    print(f"  per turn, wall        ours {per[0]:.2f} us   peer {per[1]:.2f} us   ours/peer {common.ratio(per[0], per[1])}")
    print(f"  per turn, cpu         ours {per[2]:.2f} us   peer {per[3]:.2f} us   ours/peer {common.ratio(per[2], per[3])}"
          "   (target <= 0.5)")
    return out


def peer_turns(rules) -> int:
    """The turns the peer solves: every (filled, upper) pair, times two flags once the Yahtzee box is filled.

    The peer's documentation and its ``state_values`` take every ``filled``
    mask with ``upper`` 0..63, and the ``armed`` flag (the Yahtzee box holds
    50) only where a Yahtzee bonus exists and the box is filled.
    """
    C, T = rules.n_categories, rules.upper_threshold
    masks = 1 << C
    if rules.n_flags == 2:
        return (masks // 2) * (T + 1) + (masks // 2) * (T + 1) * 2
    return masks * (T + 1)


# -- (2) queries ------------------------------------------------------------------------


_PEER_SOLVER = None


def peer_solver(ys):
    """The peer's solver for ``PEER``, built in memory once per run (f64)."""
    global _PEER_SOLVER
    if _PEER_SOLVER is None:
        t = time.perf_counter()
        _PEER_SOLVER = ys.Solver.build(ys.Variant(PEER))
        print(f"  (peer table built in memory in {time.perf_counter() - t:.2f} s)")
    return _PEER_SOLVER


def bench_query(ys, positions: int, seed: int, repeat: int, batch_repeat: int, bad: Disagreements) -> dict:
    rules = get_rules(OURS)
    print(f"\n## (2) ranked options: {positions} positions from random games (seed {seed})")
    pos = common.positions(positions, seed, rules)
    note = PeerNotation(ys, rules)
    solver = peer_solver(ys)
    print("  ours: the shipped table")
    aa = ArrayAdvisor(rules)
    adv = Advisor(rules, aa.table)

    # every turn-start state value
    V = aa.table.values
    m, u, y = np.nonzero(~np.isnan(V))
    pv = solver.state_values(m.astype(np.uint32), u.astype(np.uint16), y.astype(bool))
    diff = np.abs(np.asarray(pv) - V[m, u, y])
    worst = int(np.argmax(diff))
    print(f"  table: {len(m)} reachable turn-start states, max |ours - peer| = {diff.max():.2e}")
    if diff.max() > TOL:
        bad.add("state value", f"state ({m[worst]}, {u[worst]}, {y[worst]}): ours {V[m[worst], u[worst], y[worst]]!r} "
                f"peer {pv[worst]!r}; {(diff > TOL).sum()} states")

    sits = [note.situation(p.card, p.dice, p.rolls_left) for p in pos]
    args = [(p.key.mask, p.key.up, p.key.yb, p.dice, p.rolls_left) for p in pos]
    arr = note.variant.situation_arrays(sits)
    fields = (arr["filled"], arr["upper"], arr["armed"], arr["dice"], arr["rolls_left"])
    # the peer's numeric one-row call: its batch call on arrays of one row (made before timing)
    rows = [tuple(np.ascontiguousarray(f[i:i + 1]) for f in fields) for i in range(len(pos))]
    # warm up both
    for a, s, p, row in zip(args[:50], sits[:50], pos[:50], rows[:50]):
        aa.ranked(*a)
        solver.option_values(s)
        solver.option_values_batch(*row)
        adv.hint(p.card, p.dice, p.rolls_left)

    # single calls: per position, ours / peer string / peer numeric / advisor, `repeat` times each, in a
    # new random order (seeded) each time, so each call follows each other equally often (a call right
    # after another program's runs slower than after itself: its code and data left the caches)
    clock = time.perf_counter_ns
    ranked = aa.ranked
    peer_call = solver.option_values
    peer_row = solver.option_values_batch
    hint = adv.hint
    calls = {
        "ours": lambda i: ranked(*args[i]),
        "peer string": lambda i: peer_call(sits[i]),
        "peer numeric": lambda i: peer_row(*rows[i]),
        "advisor": lambda i: hint(pos[i].card, pos[i].dice, pos[i].rolls_left),
    }
    t = {name: np.empty((len(pos), repeat)) for name in calls}
    items = list(calls.items())
    rng = np.random.default_rng(seed)
    orders = [[items[c] for c in rng.permutation(len(items))] for _ in range(repeat * len(pos))]
    gc.disable()
    try:
        for j in range(repeat):
            for i in range(len(pos)):
                for name, f in orders[j * len(pos) + i]:
                    t0 = clock()
                    f(i)
                    t[name][i, j] = clock() - t0
    finally:
        gc.enable()
    us = {name: np.median(x, axis=1) / 1000 for name, x in t.items()}
    rls = np.array([p.rolls_left for p in pos])
    ratios = {}
    print(f"  single call, median us per position (median of {repeat} calls each, random order):")
    print("    peer fastest = the faster of its string call (option_values) and its numeric one-row call "
          "(option_values_batch on one row), per subset")
    print("    rerolls left   ours ranked   peer string   peer numeric   ours/peer string   ours/peer fastest"
          "   ours Advisor.hint   hint/peer fastest")
    for label, sel in (("all", slice(None)), ("2", rls == 2), ("1", rls == 1), ("0", rls == 0)):
        o, qs, qn, h = (float(np.median(us[name][sel])) for name in ("ours", "peer string", "peer numeric",
                                                                      "advisor"))
        q = min(qs, qn)
        ratios[label] = o / q
        print(f"    {label:>12}   {o:11.2f}   {qs:11.2f}   {qn:12.2f}   {common.ratio(o, qs):>16}   "
              f"{common.ratio(o, q):>17}   {h:17.2f}   {common.ratio(h, q):>17}")
    single = (float(np.median(us["ours"])), min(float(np.median(us["peer string"])),
                                                 float(np.median(us["peer numeric"]))))
    single_adv = float(np.median(us["advisor"]))
    rows_ = ratios

    # batch: one call for all positions
    masks = np.array([a[0] for a in args], dtype=np.int64)
    ups = np.array([a[1] for a in args], dtype=np.int64)
    ybs = np.array([a[2] for a in args], dtype=np.int64)
    dice = np.array([a[3] for a in args], dtype=np.int64)
    rl = rls.astype(np.int64)
    peer_args = fields
    ours_b, peer_b = [], []
    res = aa.option_values(masks, ups, ybs, dice, rl)
    pres = solver.option_values_batch(*peer_args)
    for _ in range(batch_repeat):
        time.sleep(0.05)
        t0 = time.perf_counter()
        res = aa.option_values(masks, ups, ybs, dice, rl)
        ours_b.append(time.perf_counter() - t0)
        time.sleep(0.05)
        t0 = time.perf_counter()
        pres = solver.option_values_batch(*peer_args)
        peer_b.append(time.perf_counter() - t0)
    n = len(pos)
    batch = (common.median(ours_b) / n * 1e6, common.median(peer_b) / n * 1e6)
    print(f"  batch of {n} (median of {batch_repeat} calls): ours {batch[0]:.3f} us/position "
          f"({1 / batch[0] * 1e6:,.0f}/s)   peer {batch[1]:.3f} us/position ({1 / batch[1] * 1e6:,.0f}/s)   "
          f"ours/peer {common.ratio(*batch)}")

    # batch of boxes only (no rerolls left), one position per distinct state
    seen, box_i = set(), []
    for i, p in enumerate(pos):
        if p.rolls_left == 0 and p.key not in seen:
            seen.add(p.key)
            box_i.append(i)
    bi = np.array(box_i)
    b_ours = (masks[bi], ups[bi], ybs[bi], dice[bi], rl[bi])
    b_peer = tuple(np.ascontiguousarray(f[bi]) for f in fields)
    aa.option_values(*b_ours)
    solver.option_values_batch(*b_peer)
    ob, pb = [], []
    for _ in range(3 * batch_repeat):  # back to back, alternating (a pause before each call makes both cold)
        t0 = time.perf_counter()
        aa.option_values(*b_ours)
        ob.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        solver.option_values_batch(*b_peer)
        pb.append(time.perf_counter() - t0)
    box_batch = (common.median(ob) / len(bi) * 1e6, common.median(pb) / len(bi) * 1e6)
    print(f"  batch of {len(bi)} box positions (no rerolls left, distinct states): ours {box_batch[0]:.3f} "
          f"us/position   peer {box_batch[1]:.3f} us/position   ours/peer {common.ratio(*box_batch)}   (target <= 0.8)")

    # state values: ours table.value (and the batch's fancy index) vs the peer's string and numeric calls
    st = [(p.key.mask, p.key.up, p.key.yb) for p in pos]
    st_s = [note.state(p.card) for p in pos]
    st_rows = [tuple(np.ascontiguousarray(f[i:i + 1]) for f in fields[:3]) for i in range(len(pos))]
    value = aa.table.value
    sv, sn = solver.state_value, solver.state_values
    tv = {"ours": [], "peer string": [], "peer numeric": []}
    for _ in range(3):
        for i in range(len(pos)):
            t0 = clock()
            value(*st[i])
            t1 = clock()
            sv(st_s[i])
            t2 = clock()
            sn(*st_rows[i])
            t3 = clock()
            tv["ours"].append(t1 - t0)
            tv["peer string"].append(t2 - t1)
            tv["peer numeric"].append(t3 - t2)
    o, qs, qn = (common.median(tv[k]) / 1000 for k in ("ours", "peer string", "peer numeric"))
    print(f"  state value, single call: ours ValueTable.value {o:.2f} us   peer state_value {qs:.2f} us   "
          f"peer state_values (one row) {qn:.2f} us   ours/peer fastest {common.ratio(o, min(qs, qn))}")
    t0 = time.perf_counter()
    aa.table.values[masks, ups, ybs]
    ob = time.perf_counter() - t0
    t0 = time.perf_counter()
    sn(*fields[:3])
    pb_ = time.perf_counter() - t0
    print(f"  state values, batch of {n}: ours (table index) {ob / n * 1e6:.3f} us/state   "
          f"peer state_values {pb_ / n * 1e6:.3f} us/state   ours/peer {common.ratio(ob, pb_)}")

    # agreement on every value
    check_values(pos, sits, note, solver, aa, adv, res, pres, bad)
    return {"single": single, "single_advisor": single_adv, "batch": batch, "rows": rows_, "box_batch": box_batch}


def check_values(pos, sits, note, solver, aa, adv, res, pres, bad: Disagreements) -> None:
    """Compare every option value of every position (ours: batch, single and advisor; peer: both)."""
    codes_b, values_b, counts_b = pres
    n_checked = 0
    for i, (p, sit) in enumerate(zip(pos, sits)):
        where = f"{sit}"
        peer = dict(solver.option_values(sit))
        # the peer's batch must equal its single call
        cnt = int(counts_b[i])
        batch_peer = {note.variant.action_notation(int(c)): float(v) for c, v in zip(codes_b[i, :cnt], values_b[i, :cnt])}
        if batch_peer != peer:
            bad.add("peer batch vs peer single", where)
        r = roll_index(p.dice)
        full = ROLL_OFFSET + r
        keeps = {int(k): float(v) for k, v in zip(res.keeps[i], res.keep_values[i]) if k >= 0 and v == v}
        boxes = {c: float(v) for c, v in enumerate(res.box_values[i]) if v == v}
        p_boxes, p_keeps = {}, {}
        for action, v in peer.items():
            kind, code = note.action(action)
            (p_boxes if kind == "box" else p_keeps)[code] = v
        # boxes (scoring now), with or without rerolls left
        if set(p_boxes) != set(boxes):
            bad.add("legal boxes", f"{where}: ours {sorted(boxes)} peer {sorted(p_boxes)}")
        for c in set(p_boxes) & set(boxes):
            n_checked += 1
            if abs(p_boxes[c] - boxes[c]) > TOL:
                bad.add("box value", f"{where} box {note.names[c]}: ours {boxes[c]!r} peer {p_boxes[c]!r}")
        # keeps
        if p.rolls_left == 0:
            if keeps or p_keeps:
                bad.add("keeps at 0 rerolls", where)
        else:
            if set(p_keeps) != set(keeps) - {full}:
                bad.add("keep set", f"{where}: ours {len(keeps)} keeps, peer {len(p_keeps)}")
            for k in set(p_keeps) & set(keeps):
                n_checked += 1
                if abs(p_keeps[k] - keeps[k]) > TOL:
                    bad.add("keep value", f"{where} keep {KEEPS[k]}: ours {keeps[k]!r} peer {p_keeps[k]!r}")
            # keeping all five rerolls nothing: scoring now in the best box (there is no pass)
            stand = max(p_boxes.values())
            n_checked += 1
            if abs(stand - keeps[full]) > TOL:
                bad.add("keep all five", f"{where}: ours {keeps[full]!r} peer {stand!r}")
        # best option
        peer_best = max(peer.values())
        ours_best = float(res.best_value[i])
        if abs(peer_best - ours_best) > TOL:
            bad.add("best value", f"{where}: ours {ours_best!r} peer {peer_best!r}")
        if p.rolls_left:
            k = int(res.best_keep[i])
            # standing pat can be best only when scoring now is: the peer's best score
            ours_choice_in_peer = max(p_boxes.values()) if k == full else p_keeps.get(k, -math.inf)
        else:
            ours_choice_in_peer = p_boxes.get(int(res.best_box[i]), -math.inf)
        if abs(ours_choice_in_peer - peer_best) > TOL:
            bad.add("our best, by the peer", f"{where}: worth {ours_choice_in_peer!r} vs peer best {peer_best!r}")
        kind, code = note.action(solver.best_action(sit))
        peer_choice_in_ours = boxes.get(code, -math.inf) if kind == "box" else keeps.get(code, -math.inf)
        if abs(peer_choice_in_ours - ours_best) > TOL:
            bad.add("peer best, by us", f"{where}: worth {peer_choice_in_ours!r} vs our best {ours_best!r}")
        # our single call and our advisor give the batch values
        codes, vals = aa.ranked(p.key.mask, p.key.up, p.key.yb, p.dice, p.rolls_left)
        want = keeps if p.rolls_left else boxes
        if dict(zip(codes.tolist(), vals.tolist())) != want or vals[0] != ours_best:
            bad.add("ours single vs batch", where)
        total = p.card.total
        for o in adv.hint(p.card, p.dice, p.rolls_left):
            code = keep_index(o.keep) if p.rolls_left else o.category
            if abs(o.expected - total - want.get(code, math.nan)) > TOL or not o.expected == o.expected:
                bad.add("ours advisor vs batch", f"{where}: {o}")
    print(f"  values compared: {n_checked} option values of {len(pos)} positions (tolerance {TOL:g})")


# -- (3) simulation ---------------------------------------------------------------------


def bench_sim(ys, games: int, rounds: int, seed: int) -> dict | None:
    print(f"\n## (3) simulation of the optimal policy: {games} games per run, {rounds} runs each, alternating")
    try:
        from yahtzee_solver.analysis.simulate import simulate
    except ImportError as e:
        print(f"  ours: yahtzee_solver.analysis.simulate not available ({e}); skipped")
        return None
    solver = peer_solver(ys)
    simulate("expert", 100, OURS, seed=seed)  # load the game kernel
    solver.simulate(100, seed=seed)
    ours_rate, peer_rate = [], []
    ours_scores, peer_scores = [], []
    for i in range(rounds):
        time.sleep(0.2)
        res = simulate("expert", games, OURS, seed=seed + i)
        ours_rate.append(games / res.seconds)
        ours_scores.append(res.scores)
        time.sleep(0.2)
        t = time.perf_counter()
        pres = solver.simulate(games, seed=seed + i)
        peer_rate.append(games / (time.perf_counter() - t))
        peer_scores.append(pres["scores"])
    rate = (common.median(ours_rate), common.median(peer_rate))
    print(f"  games/s (median)  ours {rate[0]:,.0f}   peer {rate[1]:,.0f}   ours/peer {common.ratio(*rate)}   "
          "(target >= 1.0)")
    stats = []
    for who, sc in (("ours", ours_scores), ("peer", peer_scores)):
        x = np.concatenate(sc).astype(np.float64)
        se = float(x.std(ddof=1)) / math.sqrt(len(x))
        stats.append((float(x.mean()), se))
        print(f"  mean final score  {who} {x.mean():.3f} +/- {1.96 * se:.3f} (95 %, {len(x)} games, sd {x.std(ddof=1):.2f})")
    print(f"  optimal expectation {get_rules(OURS).reference_value}; the two programs draw different dice")
    z = abs(stats[0][0] - stats[1][0]) / math.hypot(stats[0][1], stats[1][1])
    print(f"  difference of the means: {z:.2f} standard errors (informational)")
    return {"rate": rate}


# -- (4) cold hint ----------------------------------------------------------------------


def bench_cold(runs: int) -> float | None:
    """Cold hint wall time over the import floor (``python -c "import numpy, h5py, click"``), alternating."""
    exe = shutil.which("yahtzee-solve") or str(Path(sys.executable).with_name("yahtzee-solve"))
    if not Path(exe).exists():
        print("\n## (4) cold hint: yahtzee-solve not found; skipped")
        return None
    cmd = [exe, "hint", "13356", "--rolls-left", "2", "--rules", OURS]
    floor = [sys.executable, "-c", "import numpy, h5py, click"]
    print(f"\n## (4) cold `{' '.join(cmd[1:])}` vs the import floor `python -c \"import numpy, h5py, click\"` "
          f"(ours only; {runs} runs each, alternating; bytecode allowed as in an installed package)")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    walls: dict[str, list[float]] = {"hint": [], "floor": []}
    for i in range(runs + 1):
        for name, c in (("hint", cmd), ("floor", floor)):
            t = time.perf_counter()
            p = subprocess.run(c, capture_output=True, text=True, env=env)
            if i:  # the first round warms the file cache and writes bytecode
                walls[name].append(time.perf_counter() - t)
            if p.returncode:
                print(f"  failed ({p.returncode}): {p.stderr.strip()}")
                return None
    med, base = common.median(walls["hint"]), common.median(walls["floor"])
    print(f"  hint wall median {med:.3f} s (min {min(walls['hint']):.3f}), import floor {base:.3f} s "
          f"(min {min(walls['floor']):.3f}): {med / base:.2f}x   (target <= {COLD_TARGET}x)")
    return med / base


# -- main -------------------------------------------------------------------------------


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--rounds", type=int, default=3, help="alternating builds / simulation runs per program")
    ap.add_argument("--repeat", type=int, default=7, help="single calls per position and program")
    ap.add_argument("--batch-repeat", type=int, default=21)
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--only", default="build,query,sim,cold", help="comma-separated parts to run")
    ap.add_argument("--rules", default="yahtzee", choices=sorted(PEER_VARIANTS),
                    help="our rule set; compared with the peer's variant of the same rules")
    opts = ap.parse_args(argv)
    parts = set(opts.only.split(","))
    global OURS, PEER
    OURS, PEER = opts.rules, PEER_VARIANTS[opts.rules]
    common.header(f"yahtzee_solver ({OURS}) vs yatzy-solver ({PEER})")
    try:
        import yatzy_solver as ys
    except ImportError:
        print("yatzy-solver is not installed: nothing to compare (pip install 'yahtzee-solver[bench]')")
        return 0
    from importlib.metadata import version

    print(f"# yatzy-solver {version('yatzy-solver')}, yahtzee-solver {version('yahtzee-solver')}")
    bad = Disagreements()
    summary = []
    if "build" in parts:
        b = bench_build(opts.rounds)
        if b["v0_diff"] > TOL:
            bad.add("empty-card value", f"{b['v0_diff']:.2e}")
        target = BUILD_TARGET.get(OURS, 1.0)
        r = b["wall"][0] / b["wall"][1]
        summary.append(("build wall ours/peer", r, f"<= {target}", r <= target))
        summary.append(("build wall ours (s)", b["wall"][0], "<= 10", b["wall"][0] <= 10))
        summary.append(("peak memory ours (MiB)", b["rss"][0], "< 500", b["rss"][0] < 500))
        pt = b["per_turn_cpu"][0] / b["per_turn_cpu"][1]
        summary.append(("per-turn build cpu ours/peer", pt, "<= 0.5", pt <= 0.5))
    if "query" in parts:
        q = bench_query(ys, opts.positions, opts.seed, opts.repeat, opts.batch_repeat, bad)
        r1 = q["single"][0] / q["single"][1]
        r2 = q["batch"][0] / q["batch"][1]
        summary.append(("ranked options single ours/peer fastest", r1, "<= 1.0", r1 <= 1.0))
        for label in ("2", "1", "0"):
            rr = q["rows"][label]
            summary.append((f"  single, {label} rerolls left", rr, "<= 1.0", rr <= 1.0))
        summary.append(("ranked options batch ours/peer", r2, "<= 1.0", r2 <= 1.0))
        rb = q["rows"]["0"]
        summary.append(("boxes single ours/peer fastest", rb, "<= 0.8", rb <= 0.8))
        rbb = q["box_batch"][0] / q["box_batch"][1]
        summary.append(("boxes batch ours/peer", rbb, "<= 0.8", rbb <= 0.8))
    if "sim" in parts:
        s = bench_sim(ys, opts.games, opts.rounds, opts.seed)
        if s:
            r = s["rate"][0] / s["rate"][1]
            summary.append(("simulation games/s ours/peer", r, ">= 1.0", r >= 1.0))
    if "cold" in parts:
        c = bench_cold(7)
        if c is not None:
            summary.append(("cold hint / import floor", c, f"<= {COLD_TARGET}", c <= COLD_TARGET))
    print("\n## agreement")
    bad.report()
    print("\n## summary (figures from this run; timing depends on what else the machine runs; "
          f"load average now {' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    for name, value, target, ok in summary:
        print(f"  {name:40s} {value:10.3f}   target {target:8s} {'met' if ok else 'NOT MET'}")
    return 1 if bad.total else 0


if __name__ == "__main__":
    sys.exit(main())
