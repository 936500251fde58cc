"""Drawing the game: the scorecards side by side, the dice, and the helpers that fit text to the terminal."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..game import CPU, HUMAN, MAX_ROLLS, N_DICE, GameState
from ..i18n import Translator, display_width, pad, wrap
from ..play.session import player_name
from .prompt import POSITIONS

__all__ = ["render_board", "render_dice", "fit_items", "player_name", "column_name", "clear_screen"]


def fit_items(text: str, width: int | None, sep: str = " | ") -> str:
    """Lines of ``sep``-separated items regrouped to fit ``width`` cells (an item is never split)."""
    if width is None:
        return text
    out = []
    for line in text.split("\n"):
        cur = ""
        for item in line.split(sep):
            joined = item if not cur else cur + sep + item
            if cur and display_width(joined) > width:
                out.append(cur)
                cur = item
            else:
                cur = joined
        out.append(cur)
    return "\n".join(out)


# -- drawing ----------------------------------------------------------------------------------
def column_name(p: int, tr: Translator) -> str:
    """The short scorecard column header of player ``p``."""
    return tr("col.you") if p == HUMAN else tr("col.cpu")


def render_board(state: GameState, tr: Translator, width: int | None = None) -> list[str]:
    """The scorecard(s) as styled lines: upper section on the left, lower section on the right.

    When the two sections side by side would be wider than ``width`` terminal
    cells (e.g. against the CPU on a 60-column terminal), the lower section
    goes under the upper one and the title is split over lines instead.
    ``None`` (not on a terminal) always puts them side by side.

    Both players' columns; in the mover's column each open box shows, in
    brackets, what the current dice would score there (highlighted; a would-be
    0 dimmed in a warning colour; ``--`` where the Joker rule closes the box).
    The upper subtotal against the threshold, the upper bonus, the Yahtzee
    bonus (on its own line) and the totals.  Widths are in terminal cells
    (:func:`~yahtzee_solver.i18n.display_width`), so CJK names line up.
    """
    rules = state.rules
    C = rules.n_categories
    players = list(range(state.config.n_players))
    preview = state.preview()
    y = rules.yahtzee_category
    names = [tr.box(rules, c) for c in range(C)]
    cols = [column_name(p, tr) for p in players]
    wc = max(6, *(display_width(n) for n in cols))

    def box_cell(p: int, c: int) -> tuple[str, dict[str, Any]]:
        v = state.cards[p].boxes[c]
        if v is not None:
            return str(v), {}
        if p == state.current and preview is not None:
            pts, legal, _ = preview
            if not legal[c]:
                return "--", {"dim": True}
            if pts[c] == 0:
                return "(0)", {"fg": "yellow", "dim": True}
            return f"({pts[c]})", {"fg": "green", "bold": True}
        return "", {}

    # Each block is a list of (number, label, [cells], bold).
    left = [(str(c + 1), names[c], [box_cell(p, c) for p in players], False) for c in range(6)]
    sub, bonus = [], []
    for p in players:
        card = state.cards[p]
        s = card.upper_subtotal
        sub.append((f"{s}/{rules.upper_threshold}", {"fg": "green"} if s >= rules.upper_threshold else {}))
        if card.upper_bonus:
            bonus.append((f"+{card.upper_bonus}", {"fg": "green", "bold": True}))
        elif all(v is not None for v in card.boxes[:6]):
            bonus.append(("0", {}))
        else:
            bonus.append(("", {}))
    left += [("", tr("upper_subtotal"), sub, False), ("", tr("upper_bonus"), bonus, False)]
    right = [(str(c + 1), names[c], [box_cell(p, c) for p in players], False) for c in range(6, C)]
    if rules.yahtzee_bonus:
        cells = []
        for p in players:
            v = state.cards[p].yahtzee_bonus
            if p == state.current and preview is not None and preview[2]:
                cells.append((f"{v}+{preview[2]}", {"fg": "green", "bold": True}))
            else:
                cells.append((str(v), {}))
        right.append(("", tr("yahtzee_bonus", yahtzee=names[y]), cells, False))
    right.append(("", tr("total"), [(str(state.cards[p].total), {}) for p in players], True))

    def block(rows: list[tuple[str, str, list[tuple[str, dict[str, Any]]], bool]], header: str) -> list[tuple[str, int]]:
        wl = max(display_width(r[1]) for r in rows + [("", header, [], False)])
        out = []
        head = pad("#", 2, ">") + " " + pad(header, wl)
        for p, n in zip(players, cols):
            head += " " + click.style(pad(n, wc, ">"), bold=True, underline=p == state.current)
        out.append((head, 3 + wl + len(players) * (wc + 1)))
        for num, label, cells, bold in rows:
            line = pad(num, 2, ">") + " " + click.style(pad(label, wl), bold=bold)
            for text, style in cells:
                line += " " + click.style(pad(text, wc, ">"), **{"bold": bold, **style})
            out.append((line, 3 + wl + len(players) * (wc + 1)))
        return out

    lb = block(left, tr("rules.upper_title"))
    rb = block(right, tr("rules.lower_title"))
    wl_ = lb[0][1]
    parts = [tr.title(rules), tr("turn", round=state.round, turns=C)]
    if state.config.n_players == 2:
        parts.append("vs " + player_name(state, CPU, tr))
    title = "  |  ".join(parts)
    if width is not None and display_width(title) > width:
        title = "\n".join(wrap(t, width) for t in parts)
    lines = [click.style(t, bold=True) for t in title.split("\n")]
    if width is not None and wl_ + 5 + rb[0][1] > width:  # stacked
        for blk in (lb, rb):
            lines.append(blk[0][0])
            lines.append("-" * blk[0][1])
            lines.extend(text for text, _ in blk[1:])
        return lines
    for i in range(max(len(lb), len(rb))):
        l_text = lb[i][0] if i < len(lb) else " " * wl_
        r_text = rb[i][0] if i < len(rb) else " " * rb[0][1]
        lines.append(l_text + "  |  " + r_text)
        if i == 0:
            lines.append("-" * wl_ + "--+--" + "-" * rb[0][1])
    return lines


def render_dice(state: GameState, tr: Translator, width: int | None = None) -> list[str]:
    """The mover's dice (kept dice in brackets), the roll count and any Joker explanation.

    ``width`` (terminal cells) wraps the explanations; ``None`` leaves them on one line.
    """
    def fit(text: str) -> str:
        return text if width is None else wrap(text, width)

    if state.is_terminal():
        return []
    who = player_name(state, state.current, tr)
    if state.dice is None:
        key = "status.to_roll_cpu" if state.is_cpu_turn else "status.to_roll_you"
        return [tr(key, player=who)]
    lines = [click.style(tr("status.roll", player=who, n=state.rolls_used, max=MAX_ROLLS), bold=True)]
    label = tr("dice")
    w = display_width(label)
    lines.append(" " * (w + 2) + "".join(pad(POSITIONS[i], 5, "^") for i in range(N_DICE)))
    cells = ""
    locked = state.rolls_used >= MAX_ROLLS
    for d, h in zip(state.dice, state.held):
        cells += click.style(pad(f"[{d}]", 5, "^"), fg="green", bold=True) if h and not locked else pad(str(d), 5, "^")
    line = label + "  " + cells
    if state.rolls_used < MAX_ROLLS:
        legend = click.style(tr("kept_legend"), dim=True)
        if width is not None and w + 2 + 5 * N_DICE + 3 + display_width(tr("kept_legend")) > width:
            lines.append(line)  # too narrow: the legend on its own line, never broken mid-token
            line = " " * (w + 2) + legend
        else:
            line += "   " + legend
    lines.append(line)
    if state.rolls_used >= MAX_ROLLS and not state.is_cpu_turn:
        lines.append(tr("status.locked"))
    j = state.joker()
    rules = state.rules
    if j is not None:
        lines.append(click.style(fit(tr.joker(j, rules)), fg="magenta"))
    preview = state.preview()
    if preview is not None and preview[2]:
        y = tr.box(rules, rules.yahtzee_category)
        legal = [c for c, ok in enumerate(preview[1]) if ok]
        if len(legal) == 1:  # the forced Joker leaves one box: no choice to speak of
            text = tr("bonus_now_one", yahtzee=y, points=preview[2], box=tr.box(rules, legal[0]))
        else:
            text = tr("bonus_now", yahtzee=y, points=preview[2])
        lines.append(click.style(fit(text), fg="green", bold=True))
    return lines


def clear_screen() -> None:
    """Clear a terminal screen, as ``click.clear`` does, but also under ``NO_COLOR``.

    (``click.clear`` goes through ``echo``, which strips escape sequences when
    colours are off; clearing is not colour.)
    """
    if sys.stdout.isatty():
        sys.stdout.write("\033[2J\033[1;1H")
        sys.stdout.flush()
