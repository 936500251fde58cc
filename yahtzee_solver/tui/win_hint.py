"""The winning chances in the ``play`` hint against a CPU (see :mod:`yahtzee_solver.master`).

For each of the best options: the probability of beating the CPU (a draw
counting half) with the best response over the player's remaining turns, the
CPU's final score modelled by the exact distribution of its own policy from
its current card (:func:`~yahtzee_solver.objectives.opponent_pmf`; ``master`` is
modelled by the expert's policy), beside the expected final score.  Ranked by
:class:`~yahtzee_solver.policy.Policy` (equal chances: the higher expected
total).  Shown once at most :data:`WIN_HINT_MAX_OPEN` of the player's boxes are
open, so the hint stays quick.
"""

from __future__ import annotations

from ..cli.target_query import format_probability
from ..dice import KEEPS, format_dice, roll_index
from ..game import CPU, HUMAN, MAX_ROLLS

__all__ = ["win_hint_lines", "WIN_HINT_MAX_OPEN"]

#: The winning chances are computed once the player has at most this many open boxes.
WIN_HINT_MAX_OPEN = 5


def win_hint_lines(st, tr, table) -> list[str]:
    """Lines for the hint: the options ranked by the chance of winning, with the expected final score."""
    from ..advisor import Advisor
    from ..objectives import WinSource, opponent_pmf
    from ..policy import Policy

    me, cpu = st.cards[HUMAN], st.cards[CPU]
    if len(me.open_categories) > WIN_HINT_MAX_OPEN:
        return ["  " + tr("hint.win_far", n=WIN_HINT_MAX_OPEN)]
    pmf = opponent_pmf(st.rules, cpu, st.config.opponent, table)
    adv = Advisor(st.rules, table, jit=False)
    policy = Policy(WinSource(st.rules, pmf), tiebreak=adv.source)  # equal chances: the higher expected total
    dice = st.sorted_dice
    r = roll_index(dice)
    rows = []
    if st.rolls_used < MAX_ROLLS:
        codes, P = policy.keep_ranking(me.key, me.total, r, st.rerolls_left)
        ev = {o.keep: o.expected for o in adv.keep_options(me, dice, st.rerolls_left)}
        for k, p in zip(codes.tolist(), P.tolist()):
            rows.append((p, f"keep {format_dice(KEEPS[k])}", ev[KEEPS[k]]))
    else:
        boxes, P = policy.box_ranking(me.key, me.total, r)
        ev = {o.category: o for o in adv.box_options(me, dice)}
        for c, p in zip(boxes.tolist(), P.tolist()):
            rows.append((p, f"{tr.box(st.rules, c)}: {ev[c].points}", ev[c].expected))
    width = max(len(label) for _, label, _ in rows[:4])
    out = ["  " + tr("hint.win_title", level=tr.level(st.config.opponent))]
    for i, (p, label, e) in enumerate(rows[:4]):
        mark = "*" if i == 0 else " "
        out.append(f"  {mark} {label.ljust(width)}  {format_probability(p):>9}  {e:8.2f}")
    return out
