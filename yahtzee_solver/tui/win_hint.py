"""The winning chances in the ``play`` hint against a CPU (see :mod:`yahtzee_solver.master`).

For each of the best options: the probability of beating the CPU (a draw
counting half) with the best response over the player's remaining turns, the
CPU's final score modelled by the exact distribution of its own policy from
its current card (``master`` is modelled by the expert's policy), beside the expected final score.  Shown once at most
:data:`WIN_HINT_MAX_OPEN` of the player's boxes are open, so the hint stays quick.
"""

from __future__ import annotations

from ..dice import KEEPS, ROLL_SUBKEEPS, format_dice, roll_index
from ..game import CPU, HUMAN, MAX_ROLLS
from ..cli.target_query import format_probability

__all__ = ["win_hint_lines", "WIN_HINT_MAX_OPEN"]

#: The winning chances are computed once the player has at most this many open boxes.
WIN_HINT_MAX_OPEN = 5


def win_hint_lines(st, tr, table) -> list[str]:
    """Lines for the hint: the options ranked by the chance of winning, with the expected final score."""
    from ..advisor import Advisor
    from ..objectives import WinSource, opponent_pmf

    me, cpu = st.cards[HUMAN], st.cards[CPU]
    if len(me.open_categories) > WIN_HINT_MAX_OPEN:
        return ["  " + tr("hint.win_far", n=WIN_HINT_MAX_OPEN)]
    pmf = opponent_pmf(st.rules, cpu, st.config.opponent, table)
    src = WinSource(st.rules, pmf)
    adv = Advisor(st.rules, table, jit=False)
    dice = st.sorted_dice
    r = roll_index(dice)
    rows = []
    if st.rolls_used < MAX_ROLLS:
        P = src.keep_values(me.key, me.total, st.rerolls_left)
        ev = {o.keep: o.expected for o in adv.keep_options(me, dice, st.rerolls_left)}
        for k in ROLL_SUBKEEPS[r].tolist():
            if k < 0:
                break
            keep = KEEPS[k]
            rows.append((float(P[k]), f"keep {format_dice(keep)}", ev[keep]))
    else:
        P = src.box_values(me.key, me.total, r)
        for o in adv.box_options(me, dice):
            rows.append((float(P[o.category]), f"{tr.box(st.rules, o.category)}: {o.points}", o.expected))
    rows.sort(key=lambda x: -x[0])  # stable: ties keep the smaller keep / lower box first
    width = max(len(label) for _, label, _ in rows[:4])
    out = ["  " + tr("hint.win_title", level=tr.level(st.config.opponent))]
    for i, (p, label, e) in enumerate(rows[:4]):
        mark = "*" if i == 0 else " "
        out.append(f"  {mark} {label.ljust(width)}  {format_probability(p):>9}  {e:8.2f}")
    return out
