"""Text for the query commands that several of them share: the card line, aligned tables, box notes.

:mod:`~yahtzee_solver.cli.query` (expected score), :mod:`~yahtzee_solver.cli.target_query`
(``--target``), :mod:`~yahtzee_solver.cli.dist` and :mod:`~yahtzee_solver.cli.target_curve`
write their answers with these, so one position reads the same in each.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ..dice import format_dice
from ..state import ScoreCard

if TYPE_CHECKING:
    from ..rules import RuleSet
    from ..strategy.advisor import BoxOption, KeepOption
    from ..strategy.target import TargetBoxOption, TargetKeepOption

_T = TypeVar("_T")

__all__ = ["describe_card", "box_note", "box_best", "keep_best", "reroll_cell", "limit_options"]


def describe_card(card: ScoreCard) -> str:
    """One line: rule set, turn, card total, upper subtotal vs the bonus threshold, state key."""
    r = card.rules
    n = r.n_categories
    n_filled = n - len(card.open_categories)
    turn = "game over" if card.is_full else f"turn {n_filled + 1} of {n}"
    up, thr = card.upper_subtotal, r.upper_threshold
    upper = f"upper {up}/{thr}" + (f" (+{r.upper_bonus} bonus)" if up >= thr else "")
    parts = [f"card total {card.total}", upper]
    y = r.yahtzee_category
    if r.yahtzee_bonus and y >= 0:
        if card.boxes[y] == 50:
            parts.append(f"{r.categories[y].name} bonus on")
        elif card.boxes[y] == 0:
            parts.append(f"{r.categories[y].name} box scratched")
    k = card.key
    flag = f":{k.yb}" if r.n_flags == 2 else ""
    return f"{r.name}, {turn}: {', '.join(parts)}  [state {k.mask:#06x}:{k.up}{flag}]"


def _render(headers: list[str], rows: list[list[str]], right: set[int]) -> list[str]:
    """Align ``rows`` under ``headers``; columns in ``right`` are right-aligned."""
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        out = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))]
        return "  ".join(out).rstrip()

    return [line(headers)] + [line(row) for row in rows]


def box_note(o: BoxOption | TargetBoxOption, rules: RuleSet) -> str:
    """The note column of a box option: the bonuses it earns now and the Joker, e.g. ``'+100 Yahtzee bonus, Joker'``.

    ``o`` is any option with ``yahtzee_bonus``, ``upper_bonus`` (points) and ``joker``
    (:class:`~yahtzee_solver.strategy.advisor.BoxOption`, :class:`~yahtzee_solver.strategy.target.TargetBoxOption`).
    """
    notes = []
    if o.yahtzee_bonus:
        notes.append(f"+{o.yahtzee_bonus} {rules.categories[rules.yahtzee_category].name} bonus")
    if o.upper_bonus:
        notes.append(f"+{o.upper_bonus} upper bonus")
    if o.joker:
        notes.append("Joker")
    return ", ".join(notes)


def box_best(o: BoxOption | TargetBoxOption, rules: RuleSet) -> str:
    """The start of a ``best:`` line for box option ``o``: ``'score 30 in Chance (+100 Yahtzee bonus, Joker)'``."""
    note = box_note(o, rules)
    return f"score {o.points} in {o.name}{f' ({note})' if note else ''}"


def _state_dict(card: ScoreCard) -> dict[str, Any]:
    k = card.key
    return {
        "rules": card.rules.name,
        "card": card.to_dict(),
        "card_total": card.total,
        "upper_subtotal": card.upper_subtotal,
        "state": {"filled": k.mask, "upper": k.up, "yahtzee_bonus": k.yb},
    }


def reroll_cell(o: KeepOption | TargetKeepOption, rules: RuleSet) -> str:
    """The reroll column of a keep option: the dice rerolled, or ``none: score 15 in Fives`` for the
    option that keeps all five dice, which stops and scores now (there is no pass: a roll rerolls
    one to five dice).  ``o`` has ``reroll`` and ``score`` (the box option of the stop, or ``None``)."""
    if o.score is not None:
        return f"none: {box_best(o.score, rules)}"
    return format_dice(o.reroll)


def keep_best(o: KeepOption | TargetKeepOption, rules: RuleSet) -> str:
    """The start of a ``best:`` line for keep option ``o``: ``'keep 555, reroll 12'`` or
    ``'score 15 in Fives now (no reroll)'``."""
    if o.score is not None:
        return f"{box_best(o.score, rules)} now (no reroll)"
    return f"keep {format_dice(o.keep)}, reroll {format_dice(o.reroll)}"


def limit_options(options: Sequence[_T], top: int | None, default: int | None, as_json: bool) -> Sequence[_T]:
    """The options a ``--top`` shows: ``top`` if given (0: all), else ``default`` in text and all in JSON."""
    n = top if top is not None else (None if as_json else default)
    return options if not n else options[:n]
