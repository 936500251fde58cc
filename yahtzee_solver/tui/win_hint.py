"""The winning chances in the ``play`` hint against a CPU: the terminal's lines.

The chances themselves come from :mod:`yahtzee_solver.strategy.win_chances` (the
same computation as the web page's hint): here they are only laid out, the
four best options ranked by the chance of winning, with the expected final
score beside, then whether the figure is exact or a lower bound.
"""

from __future__ import annotations

from ..i18n import display_width, format_probability, pad
from ..play.session import dice_text
from typing import TYPE_CHECKING

from ..strategy.win_chances import WIN_HINT_MAX_OPEN, WinChances, WinOption, win_note

if TYPE_CHECKING:
    from ..game import GameState
    from ..i18n import Translator

__all__ = ["win_hint_lines", "WIN_HINT_MAX_OPEN"]


def win_hint_lines(st: GameState, tr: Translator, wc: WinChances | None) -> list[str]:
    """Lines for the hint from the chances ``wc`` (:class:`~yahtzee_solver.strategy.win_chances.WinHints`) at ``st``."""
    if wc is None:
        return []
    if not wc.shown:
        return ["  " + tr("hint.win_far", n=WIN_HINT_MAX_OPEN)]
    level = tr.level(wc.level)
    if wc.kind == "roll":
        assert wc.start is not None  # shown at the start of a turn
        return ["  " + tr("hint.win_start", level=level, p=format_probability(wc.start)),
                "  " + win_note(tr, wc)]
    rows = []
    for o in wc.options[:4]:
        rows.append((o.win, _label(st, tr, o), o.expected))
    width = max(display_width(label) for _, label, _ in rows)
    out = ["  " + tr("hint.win_title", level=level)]
    for i, (p, label, e) in enumerate(rows):
        mark = "*" if i == 0 else " "
        out.append(f"  {mark} {pad(label, width)}  {format_probability(p):>10}  {e:8.2f}")
    out.append("  " + win_note(tr, wc))
    return out


def _label(st: GameState, tr: Translator, o: WinOption) -> str:
    """An option in the player's language: a keep (``hint.win_keep``; all five, which stops and scores now:
    ``hint.stop`` with its box) or a box with its points (``hint.box``, the label of the expected-score
    hint's boxes)."""
    if o.keep is not None and o.box is not None:
        return tr("hint.stop", box=tr.box(st.rules, o.box), points=o.points)
    if o.box is not None:
        return tr("hint.box", box=tr.box(st.rules, o.box), points=o.points)
    if not o.keep:
        return tr("hint.reroll_all")
    return tr("hint.win_keep", keep=dice_text(o.keep))
