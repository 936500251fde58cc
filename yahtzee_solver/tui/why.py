"""The text of a hint's reasons: one line of figures and one plain sentence per option.

The figures come from :func:`yahtzee_solver.strategy.reasons.option_reasons`
(exact, optimal play afterwards); this module only words them, in the player's
language (:class:`~yahtzee_solver.i18n.Translator`).  Each sentence compares
the option's chances with those at the start of the turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..i18n import NBSP, Translator, format_probability

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..rules import RuleSet
    from ..strategy.reasons import Option, Reason, Reasons

__all__ = ["percent", "figures", "sentence", "reason_lines"]


def percent(p: float) -> str:
    """A chance for a sentence: whole percents (``'64 %'``), the exact format near 0 and 1."""
    if 0.005 <= p <= 0.995:
        return f"{round(100 * p)}{NBSP}%"
    return format_probability(p).replace(" ", NBSP)  # never wrapped between the number and its sign


def figures(tr: Translator, rules: RuleSet, reason: Reason) -> str:
    """The figures of one option (or of the turn's start), as ``upper bonus 71 %, ...``."""
    parts = []
    if reason.p_upper_bonus is not None:
        parts.append(tr("why.fig_bonus", p=percent(reason.p_upper_bonus)))
    if rules.yahtzee_category >= 0:
        parts.append(tr("why.fig_yahtzee", p=percent(reason.p_yahtzee)))
    parts.append(tr("why.fig_turn", points=f"{reason.turn_points:.1f}"))
    if reason.kind == "keep":
        parts.append(tr("why.fig_box", box=tr.box(rules, reason.box), p=percent(reason.p_box)))
    return tr("why.sep").join(parts)


def _move(tr: Translator, key: str, a: float, b: float, **kw: object) -> str:
    pa, pb = percent(a), percent(b)
    if pa == pb:
        return tr(f"{key}_same", a=pa, **kw)
    return tr(f"{key}_up" if b > a else f"{key}_down", a=pa, b=pb, **kw)


def sentence(tr: Translator, rules: RuleSet, reason: Reason, start: Reason) -> str:
    """One plain sentence: what the option aims at and how it moves the bonus and Yahtzee chances.

    Parameters
    ----------
    reason, start : Reason
        The option's figures and the turn start's (:class:`yahtzee_solver.strategy.reasons.Reasons`).
    """
    ycat = rules.yahtzee_category
    ybox = tr.box(rules, ycat) if ycat >= 0 else ""
    effects = []
    rb, sb = reason.p_upper_bonus, start.p_upper_bonus  # both None or neither: the same rules
    if rb is not None:
        assert sb is not None
        if sb >= 1.0 - 1e-12:  # earned (the solved chance may round a hair above 1)
            effects.append(tr("why.bonus_made"))
        else:
            effects.append(_move(tr, "why.bonus", sb, rb))
    if ycat >= 0 and (start.p_yahtzee > 0 or reason.p_yahtzee > 0):
        y = _move(tr, "why.y", start.p_yahtzee, reason.p_yahtzee, ybox=ybox)
        if effects and rb is not None and sb is not None and sb < 1.0 and percent(rb) != percent(sb) and \
                (rb > sb) == (reason.p_yahtzee > start.p_yahtzee) and \
                percent(reason.p_yahtzee) != percent(start.p_yahtzee):
            # the same direction as the bonus clause: the verb is not repeated (where the language allows)
            y = tr("why.y_same_way", a=percent(start.p_yahtzee), b=percent(reason.p_yahtzee), ybox=ybox) \
                if reason.p_yahtzee > start.p_yahtzee else y
        effects.append(y)
    text = tr("why.join").join(effects) if effects else tr("why.none")
    box = tr.box(rules, reason.box)
    faces = reason.option if isinstance(reason.option, tuple) else ()  # a stop or a keep: the faces kept
    if reason.kind == "box":
        return tr("why.box", box=box, points=f"{reason.turn_points:g}", effects=text)
    if reason.kind == "stop":
        return tr("why.stop", dice=" ".join(str(d) for d in faces), box=box, points=f"{reason.turn_points:g}",
                  effects=text)
    aim = box
    if ycat >= 0 and reason.box != ycat and reason.p_yahtzee_turn >= 0.05:
        aim = tr("why.aim_yahtzee", box=box, ybox=ybox)
    key = "why.keep" if reason.option else "why.reroll_all"
    return tr(key, dice=" ".join(str(d) for d in faces), aim=aim, effects=text)


def reason_lines(tr: Translator, reasons: Reasons, options: Sequence[tuple[str, Option]]) -> list[str]:
    """The reasons as ``play``'s ``why`` prints them: the turn start's figures, then per option
    ``label: figures`` and its sentence (``options``: ``(label, option key)``, in the order shown)."""
    rules = reasons.rules
    lines = [tr("why.head", figures=figures(tr, rules, reasons.start))]
    for label, key in options:
        r = reasons.options[key]
        lines.append(f"{label}: {figures(tr, rules, r)}")
        lines.append("  " + sentence(tr, rules, r, reasons.start))
    return lines
