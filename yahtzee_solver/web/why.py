"""The reasons of options as the page shows them: the figures and the plain sentence of ``hint --why``.

The numbers are :func:`yahtzee_solver.strategy.reasons.option_reasons` (exact,
optimal play afterwards), the words :mod:`yahtzee_solver.tui.why` (the
terminal's ``why`` and ``hint --why`` word them with the same two functions),
so the page, the terminal and the command line never give one option two
reasons.  Used by the play page's hint (``POST /api/game/why``) and the trainer
(:mod:`yahtzee_solver.web.train`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..strategy.reasons import Option, option_reasons
from ..tui.why import figures, sentence

if TYPE_CHECKING:
    from ..i18n import Translator
    from ..solver.table import ValueTable
    from ..state import ScoreCard

__all__ = ["WHY_TOP", "reasons_view"]

#: Options a hint explains: the best ones (as ``hint --why``).
WHY_TOP = 3


def reasons_view(tr: Translator, card: ScoreCard, dice: Sequence[int], rolls_left: int, options: Sequence[Option],
                 table: ValueTable, *, jit: bool = True) -> dict[str, Any]:
    """The reasons of ``options`` at a position, with their words in ``tr``'s language.

    Parameters
    ----------
    tr : Translator
    card : ScoreCard
        The scorecard before this turn's score (not full).
    dice : sequence of int
        The five dice showing.
    rolls_left : int
        0: the options are box indices; 1 or 2: keeps (sorted faces; all five: scoring now).
    options : sequence
        The options to explain, in the order shown.
    table : ValueTable
        The value table of the optimal policy (the advisor's).
    jit : bool
        Compiled kernels allowed (:func:`~yahtzee_solver.strategy.reasons.option_reasons`).

    Returns
    -------
    dict
        ``head`` (the line with the turn start's figures), ``start`` (:meth:`Reason.to_dict` of the
        turn start plus ``figures``, its text) and ``options``: for each option, ``keep`` (faces) or
        ``box`` (index), the :meth:`Reason.to_dict` fields (probabilities in [0, 1], points), ``figures``
        (one line of text) and ``sentence``.

    Raises
    ------
    UsageError
        An option that is not one of the position's (:func:`option_reasons`).
    """
    why = option_reasons(card, dice, rolls_left, list(options), table=table, jit=jit)
    rules = why.rules
    out = []
    for key in options:
        k = tuple(sorted(key)) if isinstance(key, tuple) else int(key)
        r = why.options[k]
        item: dict[str, Any] = {"keep": list(k)} if isinstance(k, tuple) else {"box": k}
        item.update(r.to_dict(rules))
        item["figures"] = figures(tr, rules, r)
        item["sentence"] = sentence(tr, rules, r, why.start)
        out.append(item)
    start_figures = figures(tr, rules, why.start)
    return {"head": tr("why.head", figures=start_figures),
            "start": {**why.start.to_dict(rules), "figures": start_figures}, "options": out}
