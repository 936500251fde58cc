"""Terminal text of a game review: the full table of ``review`` and the end-of-game summary of ``play``.

The numbers come from :mod:`yahtzee_solver.analysis.review`; this module only lays
them out, in the player's language (:class:`~yahtzee_solver.i18n.Translator`).
"""

from __future__ import annotations

import click

from ..dice import format_dice
from typing import TYPE_CHECKING

from ..i18n import PROBABILITY_ROUNDING, Translator, display_width, pad, wrap

if TYPE_CHECKING:
    from ..analysis.review import Decision, GameReview
    from ..analysis.table_review import TableReview
    from ..game import GameState
    from ..rules import RuleSet

__all__ = ["review_lines", "summary_lines", "luck_skill_lines", "win_lines", "table_lines", "split_lines", "chance_chart"]


def _num(x: float) -> str:
    return f"{x:.2f}"


def _choice(tr: Translator, rules: RuleSet, d: Decision, which: str) -> str:
    x = d.choice if which == "choice" else d.best
    if isinstance(x, int):  # a box (kind "box")
        return tr.box(rules, x)
    if which == "choice" and x == d.dice and d.rolls_left:
        return tr("review.stand")
    return tr("review.keep", dice=format_dice(x))


def _win(x: float | None) -> str:
    """A winning chance given up, in percentage points (empty outside the exact endgame)."""
    if x is None:
        return ""
    return "0" if x == 0 else f"-{100 * x:.2f}%"


def _table(tr: Translator, rev: GameReview) -> list[str]:
    head = [tr("review.col_turn"), tr("review.col_dice"), tr("review.col_rolls"), tr("review.col_choice"),
            tr("review.col_best"), tr("review.col_loss")]
    win = rev.win_model is not None
    if win:
        head.append(tr("review.col_win"))
    rows = []
    for d in rev.decisions:
        loss = "0" if d.loss == 0 else f"-{_num(d.loss)}"
        rows.append([str(d.turn), format_dice(d.dice), str(d.rolls_left) if d.kind == "keep" else "-",
                     _choice(tr, rev.rules, d, "choice"), _choice(tr, rev.rules, d, "best"), loss]
                    + ([_win(d.win_lost)] if win else []))
    widths = [max(display_width(r[i]) for r in [head] + rows) for i in range(len(head))]
    right = {0, 2, 5, 6}
    out = []
    for n, row in enumerate([head] + rows):
        line = "  ".join(pad(v, w, ">" if i in right else "<") for i, (v, w) in enumerate(zip(row, widths)))
        out.append(click.style(line.rstrip(), bold=True) if n == 0 else line.rstrip())
    return out


def luck_skill_lines(tr: Translator, rev: GameReview) -> list[str]:
    """The luck and skill split of a review, stated as its identity with the three numbers.

    ``final score = value of the empty card - skill loss + luck`` (an unfinished
    game: its expected final total now); the numbers are
    :attr:`~yahtzee_solver.analysis.review.GameReview.skill_loss` and
    :attr:`~yahtzee_solver.analysis.review.GameReview.luck` (points, 2 decimals;
    the luck signed).
    """
    key = "review.luck_skill" if rev.complete else "review.luck_skill_so_far"
    text = tr(key, score=rev.final_score, end=_num(rev.expected_end), start=_num(rev.start_value),
              skill=_num(rev.skill_loss), luck=f"{rev.luck:+.2f}")
    return text.split("\n")


def win_lines(tr: Translator, rev: GameReview) -> list[str]:
    """What the winning-chance column is (the opponent model, the scope) and its total; none without it."""
    if rev.win_model is None:
        return []
    lines = [tr("review.win_note", model=tr(f"review.win_model.{rev.win_model}"), k=rev.win_max_open)]
    n = len(rev.win_decisions)
    if n:
        total = rev.win_lost or 0.0
        # "given up" already says the sign: the total is unsigned (the column's cells are signed)
        lines.append(tr("review.win_total", total=f"{100 * total:.2f}%" if total else "0", n=n))
    return lines


def _tail(tr: Translator, rev: GameReview) -> list[str]:
    b = rev.bands
    lines = [
        tr("review.total", total=_num(rev.total_loss), n=len(rev.decisions), mean=f"{rev.mean_loss:.3f}"),
        *win_lines(tr, rev),
        *luck_skill_lines(tr, rev),
        tr("review.bands", b0=b["0"], b1=b["<1"], b2=b["1-5"], b3=b[">=5"]),
    ]
    worst = rev.costliest(3)
    if not worst:
        lines.append(tr("review.perfect"))
        return lines
    lines.append(tr("review.costliest"))
    for d in worst:
        lines.append("  " + tr("review.costly_item", turn=d.turn, dice=format_dice(d.dice),
                                choice=_choice(tr, rev.rules, d, "choice"), best=_choice(tr, rev.rules, d, "best"),
                                loss=_num(d.loss)))
    return lines


#: Width of the review's text in terminal cells: the table fits it, the other lines are wrapped to it.
WIDTH = 80


def _wrapped(lines: list[str]) -> list[str]:
    return [part for line in lines for part in wrap(line, WIDTH).split("\n")]


def review_lines(tr: Translator, rev: GameReview, what: str, opponent: str, seed: int | None, player: int = 0,
                 who: str | None = None) -> list[str]:
    """The full text review: header, one row per decision, totals, bands, costliest decisions.

    Every line but the table's is wrapped to :data:`WIDTH` terminal cells
    (:func:`yahtzee_solver.i18n.display_width`); the table's columns are
    narrower than that with every box name of every language.  An unfinished
    game shows its score so far.  ``who``: the name of the player reviewed
    at a coach's table (said under the header).
    """
    head = "review.header" if seed is not None else "review.header_unseeded"  # a save file holds no seed
    lines = [tr(head, what=what, title=tr.title(rev.rules), opponent=tr.opponent(opponent), seed=seed)]
    if who is not None:
        lines.append(tr("table.player_review", player=who))
    elif player == 1:
        lines.append(tr("review.cpu"))
    if not rev.decisions:
        lines.append(tr("review.none"))
        return _wrapped(lines)
    score = "review.score" if rev.complete else "review.score_so_far"
    lines.append(tr(score, score=rev.final_score, expected=_num(rev.start_value)))
    if not rev.complete:
        turns = rev.decisions[-1].turn
        lines.append(tr("review.unfinished_one" if turns == 1 else "review.unfinished", turns=turns))
    lines = _wrapped(lines)
    lines.append("")
    lines.extend(_table(tr, rev))
    lines.append("")
    lines.extend(_wrapped(_tail(tr, rev)))
    return lines


def summary_lines(state: GameState, tr: Translator | None = None, player: int = 0) -> list[str]:
    """The end-of-game summary of ``play``: the player's expected loss, bands and costliest decisions.

    Raises
    ------
    YahtzeeError
        If the game's value table cannot be loaded (the caller may skip the summary).
    """
    from ..analysis.review import review_game  # here: the review loads a value table

    tr = tr or Translator("en")
    rev = review_game(state, player)
    if not rev.decisions:
        return [tr("review.none")]
    return [tr("review.summary", total=_num(rev.total_loss), mean=f"{rev.mean_loss:.3f}")] + _tail(tr, rev)[1:]


# -- a table of players: every player's split and the chance of finishing first round by round ---------------
#: Bar heights of a chance, 0 to 1 in eighths.
_BARS = " ▁▂▃▄▅▆▇█"
#: Widest player name in the table and the chart (terminal cells; longer names are cut with an ellipsis).
NAME_CELLS = 12


def _name(text: str, cells: int = NAME_CELLS) -> str:
    if display_width(text) <= cells:
        return text
    out = ""
    for ch in text:
        if display_width(out + ch) > cells - 1:
            break
        out += ch
    return out + "…"


def split_lines(tr: Translator, table: TableReview) -> list[str]:
    """Every player's ``final = start value - skill loss + luck``, one row each (points, 2 decimals; an
    unfinished game's final is its expected final total now)."""
    head = [tr("table.col_player"), tr("table.col_final"), tr("table.col_start"), tr("table.col_skill"),
            tr("table.col_luck")]
    rows = [[_name(p.name), str(p.final) if p.review.complete else _num(p.expected_end), _num(p.start_value),
             _num(p.skill_loss), f"{p.luck:+.2f}"] for p in table.players]
    widths = [max(display_width(r[i]) for r in [head] + rows) for i in range(len(head))]
    out = _wrapped([tr("table.title")])
    for n, row in enumerate([head] + rows):
        line = "  " + "  ".join(pad(v, w, "<" if i == 0 else ">") for i, (v, w) in enumerate(zip(row, widths)))
        out.append(click.style(line.rstrip(), bold=True) if n == 0 else line.rstrip())
    if not all(p.review.complete for p in table.players):
        out += _wrapped(["  " + tr("table.so_far")])
    return out


def _cell(p: float | None) -> str:
    """Four cells: a space, a bar of the chance's height (eighths) and the chance in whole percents
    (``<1`` and ``>99`` near the ends; ``>99`` and ``100`` take the bar's place)."""
    if p is None:
        return "  --"
    if p > 1.0 - PROBABILITY_ROUNDING:  # a certain outcome, less the float64 rounding of the DP's sums
        p = 1.0
    pct = round(100 * p)
    text = "<1" if 0 < p and pct == 0 else ">99" if p < 1 and pct == 100 else str(pct)
    if len(text) == 3:
        return " " + text
    return " " + _BARS[0 if p <= 0 else max(1, round(8 * p))] + pad(text, 2, ">")


def chance_chart(tr: Translator, table: TableReview) -> list[str]:
    """The chance of finishing first at the start of each round, one line per player, and the result.

    Each round is a cell of four terminal cells: a space, a bar of the
    chance's height (in eighths of 1) and the chance in whole percents
    (``<1`` and ``>99`` near the ends); ``--`` is a round not computed.  The last column is the
    result.  With names of at most :data:`NAME_CELLS` cells, 13 rounds and the
    end take under 80 cells.
    """
    names = [_name(p.name) for p in table.players]
    w = max(display_width(n) for n in names + [tr("table.col_round")])
    end = tr("table.col_end")
    head = "  " + pad(tr("table.col_round"), w) + "".join(pad(str(r), 4, ">") for r in table.rounds)
    if table.result is not None:
        head += "  " + pad(end, max(4, display_width(end)), ">")
    out = [*_wrapped([tr("table.chances_title")]), click.style(head, bold=True)]
    for i, n in enumerate(names):
        line = "  " + pad(n, w) + "".join(_cell(p) for p in table.series(i))
        if table.result is not None:
            line += "  " + pad(_cell(table.result[i]), max(4, display_width(end)), ">")
        out.append(line)
    notes = []
    if table.by_symmetry:
        k = len(table.players)
        notes.append(tr("table.symmetric", rounds=", ".join(map(str, table.by_symmetry)), p=f"1/{k}"))
    if any(row is None for row in table.chances) and table.max_open is not None:
        notes.append(tr("table.not_computed", n=table.max_open))
    if table.result is not None:
        notes.append(tr("table.end_note"))
    out += _wrapped(["  " + " ".join(notes)]) if notes else []
    return out


def table_lines(tr: Translator, table: TableReview) -> list[str]:
    """The table review as text: every player's split, then the chart of the chances (if any were computed)."""
    lines = split_lines(tr, table)
    if table.computed:
        lines.append("")
        lines.extend(chance_chart(tr, table))
    return lines
