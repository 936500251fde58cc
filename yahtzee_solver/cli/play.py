"""``yahtzee-solve play``: the terminal game, solitaire or against a CPU level.

The rules live in :mod:`yahtzee_solver.game` (the engine), the CPU in
:mod:`yahtzee_solver.players`, the hints in :mod:`yahtzee_solver.advisor`, the
files in :mod:`yahtzee_solver.records` and the words in
:mod:`yahtzee_solver.i18n`.  This module reads commands, draws the board and
saves the game after every action.

Commands at the prompt (also listed by ``help``)::

    r            roll (the first roll of a turn rolls all five, then the dice not kept)
    k 1 3 4      keep / release the dice at positions 1, 3 and 4 (ASCII digits 1-5)
    k 225        keep exactly a 2, a 2 and a 5;  k =6 keeps one 6;  k - releases all
    s <box>      score in a box (number, name, alias such as fh / 3k, or local name)
    h            hint: the best keep or box, the command to type and its expected final score
    ?            the rules, page by page
    q            save and quit
    help         the list of commands
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import time
from dataclasses import dataclass

import click
from click.core import ParameterSource

from ..dice import format_dice
from ..errors import CategoryError, IllegalMoveError, UsageError
from ..game import (
    CPU,
    HUMAN,
    MAX_ROLLS,
    N_DICE,
    OPPONENTS,
    GameState,
    Hold,
    Roll,
    Score,
    cpu_actions,
    new_game,
    positions_of,
)
from ..i18n import LANGS, Translator, display_width, pad, wrap
from ..records import (
    DataFileError,
    GameLock,
    RecordBook,
    file_finished_game,
    load_game,
    records_path,
    save_game,
    save_path,
)
from .options import rules_option

__all__ = [
    "play",
    "Session",
    "Command",
    "PromptError",
    "parse_command",
    "render_board",
    "render_dice",
    "keep_command",
    "confirm",
    "record_pending",
    "no_color",
]

CPU_PAUSE = 0.9  # seconds between the CPU's steps (skipped with --fast)


# -- commands ------------------------------------------------------------------------------
class PromptError(Exception):
    """A command that cannot be carried out: a message key of :mod:`yahtzee_solver.i18n_text` and its fields."""

    def __init__(self, key: str, **params):
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True)
class Command:
    """A parsed prompt command: ``verb`` (roll, hold, score, hint, rules, quit, help, redraw) and its argument."""

    verb: str
    arg: object = None


_VERBS = {
    "r": "roll", "roll": "roll",
    "k": "hold", "keep": "hold",
    "s": "score", "score": "score",
    "h": "hint", "hint": "hint",
    "?": "rules", "rules": "rules",
    "q": "quit", "quit": "quit",
    "help": "help",
}
_NO_ARGS = {"roll", "hint", "rules", "quit", "help"}


def parse_command(text: str, state: GameState, tr: Translator) -> Command:
    """Turn a line typed at the prompt into a :class:`Command`, checking it against the position.

    Raises
    ------
    PromptError
        For an unknown command, bad dice or box, or a move the rules do not allow now.
    """
    line = text.strip()
    if not line:
        return Command("redraw")
    word, rest = (re.split(r"\s+", line, maxsplit=1) + [""])[:2]
    low = word.lower()
    if low not in _VERBS:
        m = re.fullmatch(r"([ks])([0-9=\-].*)", low)
        if m is None:
            raise PromptError("err.unknown_command", cmd=word)
        low, rest = m.group(1), m.group(2) + " " + rest
    verb = _VERBS[low]
    rest = rest.strip()
    if verb in _NO_ARGS:
        if rest:
            raise PromptError("err.no_args", cmd=word)
        if verb == "roll":
            _check(state, Roll())
        return Command(verb)
    if verb == "hold":
        return Command("hold", _parse_hold(rest, state))
    return Command("score", _parse_box(rest, state, tr))


def _check(state: GameState, action) -> None:
    why = state.problem(action)
    if why is not None:
        raise PromptError("problem." + why[0], **why[1])


def _parse_hold(text: str, state: GameState) -> tuple[bool, ...]:
    _check(state, Hold((False,) * N_DICE))
    if not text:
        raise PromptError("err.keep_what")
    if text in ("-", "none"):
        return (False,) * N_DICE
    if text.startswith("="):
        faces_text = text[1:]
        positional = False
    else:
        tokens = [t for t in re.split(r"[\s,]+", text) if t]
        positional = all(len(t) == 1 for t in tokens)
        faces_text = "".join(tokens)
    if positional:
        held = list(state.held)
        seen = set()
        for t in tokens:
            if not _ascii_digit(t) or not 1 <= int(t) <= N_DICE:
                raise PromptError("err.bad_position", pos=t)
            if t in seen:
                raise PromptError("err.repeated_position", pos=t)
            seen.add(t)
            held[int(t) - 1] = not held[int(t) - 1]
        return tuple(held)
    faces = []
    for ch in re.sub(r"[\s,]+", "", faces_text):
        if not _ascii_digit(ch) or not 1 <= int(ch) <= 6:
            raise PromptError("err.bad_face", face=ch)
        faces.append(int(ch))
    if not faces:
        raise PromptError("err.keep_what")
    try:
        return positions_of(state.dice, faces, state.held)
    except IllegalMoveError:
        raise PromptError("err.no_such_dice", faces=format_dice(faces), dice=_dice_text(state.dice)) from None


def _parse_box(text: str, state: GameState, tr: Translator) -> int:
    rules = state.rules
    if not text:
        raise PromptError("err.score_what")
    c = None
    if _ascii_digit(text):
        if 1 <= int(text) <= rules.n_categories:
            c = int(text) - 1
    else:
        c = tr.box_index(rules, text)
        if c is None:
            try:
                c = rules.category_index(text)
            except CategoryError:
                c = None
    if c is None:
        raise PromptError("err.unknown_box", box=text, n=rules.n_categories, example="fh")
    _check(state, Score(c))
    return c


def _ascii_digit(text: str) -> bool:
    """Only 0-9 (``str.isdigit`` also takes ``٣`` or ``３``, which dice input refuses)."""
    return text.isascii() and text.isdigit()


def _dice_text(dice) -> str:
    return " ".join(str(d) for d in dice)


def keep_command(keep) -> str:
    """The prompt command that keeps exactly the faces ``keep`` (sorted multiset).

    ``k 44`` for two or more dice (one token of faces), ``k =4`` for one die
    (``k 4`` would toggle position 4), ``k -`` for none.
    """
    faces = "".join(str(int(f)) for f in keep)
    if not faces:
        return "k -"
    return f"k ={faces}" if len(faces) == 1 else f"k {faces}"


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
def _player_name(state: GameState, p: int, tr: Translator) -> str:
    return tr("you") if p == HUMAN else tr("cpu", level=tr.level(state.config.opponent))


def _column_name(p: int, tr: Translator) -> str:
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
    cols = [_column_name(p, tr) for p in players]
    wc = max(6, *(display_width(n) for n in cols))

    def box_cell(p, c):
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

    def block(rows, header):
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
        parts.append("vs " + _player_name(state, CPU, tr))
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
    def fit(text):
        return text if width is None else wrap(text, width)

    if state.is_terminal():
        return []
    who = _player_name(state, state.current, tr)
    if state.dice is None:
        key = "status.to_roll_cpu" if state.is_cpu_turn else "status.to_roll_you"
        return [tr(key, player=who)]
    lines = [click.style(tr("status.roll", player=who, n=state.rolls_used, max=MAX_ROLLS), bold=True)]
    label = tr("dice")
    w = display_width(label)
    lines.append(" " * (w + 2) + "".join(pad(str(i + 1), 5, "^") for i in range(N_DICE)))
    cells = ""
    locked = state.rolls_used >= MAX_ROLLS
    for d, h in zip(state.dice, state.held):
        cells += click.style(pad(f"[{d}]", 5, "^"), fg="green", bold=True) if h and not locked else pad(str(d), 5, "^")
    legend = "" if state.rolls_used >= MAX_ROLLS else "   " + click.style(tr("kept_legend"), dim=True)
    lines.append(label + "  " + cells + legend)
    if state.rolls_used >= MAX_ROLLS and not state.is_cpu_turn:
        lines.append(tr("status.locked"))
    j = state.joker()
    rules = state.rules
    if j is not None:
        lines.append(click.style(fit(tr.joker(j, rules)), fg="magenta"))
    preview = state.preview()
    if preview is not None and preview[2]:
        y = tr.box(rules, rules.yahtzee_category)
        lines.append(click.style(fit(tr("bonus_now", yahtzee=y, points=preview[2])), fg="green", bold=True))
    return lines


def _ask(text: str) -> str:
    """One line from the player (``click.Abort`` on end of input or Ctrl-C)."""
    return click.prompt(text, default="", show_default=False, prompt_suffix="")


def confirm(tr: Translator, text: str) -> bool:
    """Ask a yes/no question until answered (empty answer = no; y/n or the language's words, see
    :meth:`Translator.yes_no <yahtzee_solver.i18n.Translator.yes_no>`)."""
    while True:
        ans = tr.yes_no(_ask(text + tr("confirm.suffix")))
        if ans is not None:
            return ans
        click.echo(click.style(tr("confirm.again"), fg="red"))


# -- the session -------------------------------------------------------------------------------------
class Session:
    """One run of the interactive game: reads commands, acts, draws, saves.

    Parameters
    ----------
    state : GameState
    tr : Translator
    fast : bool
        Skip the pauses between the CPU's steps.
    game_file, records_file : Path
        Where the game in progress and the records are saved.
    sleep : callable
        ``time.sleep`` (injected for tests).
    tty : bool, optional
        Redraw the whole screen for every prompt (default: stdout is a terminal).
    """

    def __init__(self, state, tr, *, fast=False, game_file=None, records_file=None, sleep=time.sleep, tty=None):
        self.state = state
        self.tr = tr
        self.fast = fast
        self.game_file = game_file if game_file is not None else save_path()
        self.records_file = records_file if records_file is not None else records_path()
        self.sleep = sleep
        self.tty = sys.stdout.isatty() if tty is None else tty
        self.messages: list[str] = []  # kept until the player's next move (terminal only)
        self.transient: list[str] = []  # shown once (terminal only)
        self.dirty = True
        self._table = None
        self._advisor = None
        self._strategy = None

    # -- output ----------------------------------------------------------------------------
    @property
    def width(self) -> int | None:
        """Terminal width to wrap text to (``None`` when not on a terminal)."""
        return shutil.get_terminal_size((80, 24)).columns - 1 if self.tty else None

    def wrap(self, text: str) -> str:
        """``text`` wrapped to the terminal width (on a terminal only; no-break spaces printed as spaces)."""
        return wrap(text, self.width)

    def note(self, text: str, **style) -> None:
        """Show a message: kept under the board on a terminal, printed at once otherwise."""
        text = self.wrap(text)
        text = click.style(text, **style) if style else text
        if self.tty:
            self.messages.append(text)
        else:
            click.echo(text)

    def error(self, e: PromptError) -> None:
        """Show a bad command's message (once, under the board on a terminal)."""
        p = dict(e.params)
        if e.key.startswith("problem."):
            msg = self.tr.problem(e.key[len("problem."):], p, self.state.rules)
        else:
            msg = self.tr(e.key, **p)
        msg = click.style(self.wrap(msg), fg="red")
        if self.tty:
            self.transient.append(msg)
        else:
            click.echo(msg)

    def draw(self, force: bool = False) -> None:
        """Draw the board and dice (whole screen on a terminal), then any pending messages."""
        if self.tty:
            clear_screen()
        if self.tty or self.dirty or force:
            click.echo("\n".join(render_board(self.state, self.tr, self.width)))
            if not self.state.is_terminal():
                click.echo()
                click.echo("\n".join(render_dice(self.state, self.tr, self.width)))
                click.echo(click.style(fit_items(self.tr("commands_short"), self.width), dim=True))
        for m in self.messages + self.transient:
            click.echo(m)
        self.transient.clear()
        self.dirty = False

    def ask(self, text: str) -> str:
        return _ask(text)

    def confirm(self, text: str) -> bool:
        return confirm(self.tr, text)

    # -- helpers ------------------------------------------------------------------------------
    @property
    def table(self):
        if self._table is None:
            from ..table import load_table

            self._table = load_table(self.state.rules)
        return self._table

    @property
    def advisor(self):
        if self._advisor is None:
            from ..advisor import Advisor

            self._advisor = Advisor(self.state.rules, self.table, jit=False)
        return self._advisor

    @property
    def strategy(self):
        if self._strategy is None:
            from ..players import make_strategy

            level = self.state.config.opponent
            table = self.table if level in ("expert", "master") else None
            # master solves a DP at each of its late turns: compiled kernels
            self._strategy = make_strategy(level, self.state.rules, rng=self.state.cpu_rng, table=table,
                                           jit=level == "master")
        return self._strategy

    def act(self, action):
        ev = self.state.apply_action(action)
        save_game(self.state, self.game_file)
        self.dirty = True
        return ev

    def scored(self, ev) -> None:
        tr, rules = self.tr, self.state.rules
        who = _player_name(self.state, ev.player, tr)
        text = tr("ev.scored", player=who, points=ev.points, box=tr.box(rules, ev.category),
                  joker=tr("ev.joker") if ev.joker else "")
        self.note(text, bold=True)
        if ev.yahtzee_bonus:
            self.note(tr("ev.yahtzee_bonus", yahtzee=tr.box(rules, rules.yahtzee_category), points=ev.yahtzee_bonus),
                      fg="green", bold=True)
        if ev.upper_bonus:
            self.note(tr("ev.upper_bonus", points=ev.upper_bonus), fg="green", bold=True)

    # -- the loop ------------------------------------------------------------------------------
    def run(self) -> str:
        """Play until the game ends (``"over"``) or the player quits (``"quit"``).

        ``"unrecorded"`` when the game ended but its result could not be
        written to the records (the finished game stays saved; see :meth:`finish`).
        """
        st = self.state
        while not st.is_terminal():
            if st.is_cpu_turn:
                self.cpu_step()
            elif not self.human_step():
                return "quit"
        return "over" if self.finish() else "unrecorded"

    def cpu_step(self) -> None:
        st, tr = self.state, self.tr
        who = _player_name(st, CPU, tr)
        if hasattr(self.strategy, "observe"):  # master plays to beat the human's card (modelled as the expert)
            self.strategy.observe(st.cards[HUMAN], "expert")
        for action in cpu_actions(st, self.strategy):
            if isinstance(action, Hold):
                # Shown with the reroll it prepares (a keep may also be left unchanged).
                self.act(action)
                continue
            if isinstance(action, Roll) and st.rolls_used:
                kept = sorted(d for d, h in zip(st.dice, st.held) if h)
                rest = sorted(d for d, h in zip(st.dice, st.held) if not h)
                if kept:
                    self.note(tr("ev.cpu_keeps", player=who, keep=_dice_text(kept), reroll=_dice_text(rest)))
                else:
                    self.note(tr("ev.cpu_keeps_none", player=who))
            ev = self.act(action)
            if ev.kind == "roll":
                self.note(tr("ev.cpu_rolls", player=who, dice=_dice_text(ev.dice), n=ev.roll, max=MAX_ROLLS))
            else:
                self.scored(ev)
            if self.tty:
                self.draw_cpu()
            if not self.fast:
                self.sleep(CPU_PAUSE)

    def draw_cpu(self) -> None:
        clear_screen()
        click.echo("\n".join(render_board(self.state, self.tr, self.width)))
        click.echo()
        if not self.state.is_terminal() and self.state.is_cpu_turn:
            click.echo("\n".join(render_dice(self.state, self.tr, self.width)))
        for m in self.messages:
            click.echo(m)

    def human_step(self) -> bool:
        st, tr = self.state, self.tr
        self.draw()
        line = self.ask(tr("prompt"))
        try:
            cmd = parse_command(line, st, tr)
        except PromptError as e:
            self.error(e)
            return True
        if cmd.verb in ("roll", "hold", "score", "hint", "help"):
            self.messages.clear()
        if cmd.verb == "quit":
            save_game(st, self.game_file)
            click.echo(tr("quit.saved"))
            return False
        if cmd.verb == "redraw":
            self.dirty = True
        elif cmd.verb == "help":
            self.note(tr.help(st.rules))
        elif cmd.verb == "rules":
            self.show_rules()
        elif cmd.verb == "hint":
            self.hint()
        elif cmd.verb == "roll":
            self.act(Roll())
        elif cmd.verb == "hold":
            if cmd.arg != st.held:
                self.act(Hold(cmd.arg))
        elif cmd.verb == "score":
            self.score(cmd.arg)
        return True

    def score(self, c: int) -> None:
        st, tr, rules = self.state, self.tr, self.state.rules
        if st.zero_warning(c):
            pts, legal, _ = st.preview()
            best = max((p, -i) for i, p in enumerate(pts) if legal[i])
            other = -best[1]
            q = tr("confirm.zero", box=tr.box(rules, c), other=tr.box(rules, other), points=best[0])
            if self.tty:
                self.draw()
            if not self.confirm(q):
                self.note(tr("confirm.cancelled"))
                return
        ev = self.act(Score(c))
        self.scored(ev)

    def hint(self) -> None:
        """The advisor's best options, each with the exact command to type (``k 44``, ``k =6``, ``k -``, ``s 9``)."""
        st, tr, rules = self.state, self.tr, self.state.rules
        if st.dice is None:
            self.note(tr("hint.roll", ev=f"{self.advisor.expected_final(st.card):.2f}"), fg="cyan")
            return
        dice = st.sorted_dice
        rows = []  # (command, label, expected, loss, best) or a bare text line

        def box_row(o, best):
            label = tr("hint.box", box=tr.box(rules, o.category), points=o.points)
            return (f"s {o.category + 1}", label, o.expected, o.loss, best)

        if st.rolls_used < MAX_ROLLS:
            keeps = self.advisor.keep_options(st.card, dice, st.rerolls_left)
            best_box = None
            for i, o in enumerate(keeps[:4]):
                if len(o.keep) == N_DICE:
                    best_box = self.advisor.box_options(st.card, dice)[0]
                    cmd, label = f"s {best_box.category + 1}", tr("hint.keep_all")
                elif not o.keep:
                    cmd, label = keep_command(()), tr("hint.reroll_all")
                else:
                    cmd = keep_command(o.keep)
                    label = tr("hint.keep", keep=_dice_text(o.keep), reroll=_dice_text(o.reroll))
                rows.append((cmd, label, o.expected, o.loss, i == 0))
            if len(keeps[0].keep) == N_DICE:
                rows.append(tr("hint.then"))
                rows.append(box_row(best_box, True))
        else:
            boxes = self.advisor.box_options(st.card, dice)[:4]
            rows += [box_row(o, o.loss == 0 and i == 0) for i, o in enumerate(boxes)]
        table = [r for r in rows if not isinstance(r, str)]
        wc = max(display_width(r[0]) for r in table)
        wl = max(display_width(r[1]) for r in table)
        lines = [tr("hint.title")]
        for r in rows:
            if isinstance(r, str):
                lines.append("  " + r)
                continue
            cmd, label, ev, loss, best = r
            tag = tr("hint.best") if best else f"-{loss:.2f}"
            lines.append(f"  {pad(cmd, wc)}  {pad(label, wl)} {ev:8.2f}   {tag}")
        if st.config.opponent != "none":
            from .play_win import win_hint_lines

            lines += win_hint_lines(st, tr, self.table)
        self.note("\n".join(lines), fg="cyan")

    def show_rules(self) -> None:
        tr = self.tr
        help_text = tr.help(self.state.rules)
        pages = tr.rules_pages(self.state.rules, help_text)
        for i, page in enumerate(pages):
            if self.tty:
                clear_screen()
            click.echo(self.wrap(page))
            click.echo()
            ans = self.ask(tr("rules.pager", page=i + 1, pages=len(pages)))
            if ans.strip().lower() in ("q", "quit"):
                break
        self.dirty = True

    def finish(self) -> bool:
        """Show the result and file it in the records; ``False`` if the records could not be written.

        The finished game is deleted only once it is recorded; otherwise it
        stays saved and :func:`record_pending` files it on the next run.
        """
        st, tr, rules = self.state, self.tr, self.state.rules
        self.draw(force=True)
        click.echo()
        click.echo(click.style(tr("end.title"), bold=True))
        me = st.cards[HUMAN].total
        outcome = None
        if st.config.n_players == 1:
            click.echo(tr("end.solo", total=me))
        else:
            cpu = st.cards[CPU].total
            w = st.winner()
            outcome = {HUMAN: "win", CPU: "loss", None: "draw"}[w]
            key = {"win": "end.win", "loss": "end.loss", "draw": "end.draw"}[outcome]
            click.echo(click.style(tr(key, me=me, cpu=cpu, player=_player_name(st, CPU, tr)), bold=True,
                                   fg={"win": "green", "loss": "red", "draw": "yellow"}[outcome]))
        opp = "solo" if st.config.opponent == "none" else st.config.opponent
        try:
            upd, problem = file_finished_game(st, self.game_file, self.records_file)
        except DataFileError as e:
            msg = tr("end.unrecorded", detail=str(e), path=str(self.game_file))
            click.echo(click.style(self.wrap(msg), fg="red"), err=True)
            click.echo(click.style(tr("end.seed", seed=st.config.seed), dim=True))
            return False
        if problem:
            click.echo(click.style(tr("warn.records", detail=problem), fg="yellow"), err=True)
        names = {"rules": tr.title(rules), "opponent": tr.opponent(opp)}
        if upd.new_best:
            click.echo(click.style(tr("end.record", score=me, old=upd.previous_best, **names), fg="green", bold=True))
        r = upd.record
        click.echo(tr("end.stats", games=r.games, best=r.best, average=f"{r.average:.1f}", **names))
        click.echo(click.style(tr("end.seed", seed=st.config.seed), dim=True))
        return True


def record_pending(tr: Translator, game_file=None, records_file=None, state: GameState | None = None,
                   err: bool = False) -> bool:
    """File a finished game left in ``game_file`` by a run that could not record it.

    Parameters
    ----------
    tr : Translator
    game_file, records_file : Path, optional
        Default :func:`~yahtzee_solver.records.save_path`, :func:`~yahtzee_solver.records.records_path`.
    state : GameState, optional
        The saved game if already loaded (else it is loaded here).
    err : bool
        Tell the user on stderr (keeps stdout clean for ``--json``).

    Returns
    -------
    bool
        True when a finished game was found and recorded (and the user told).

    Raises
    ------
    DataFileError
        If the saved game is corrupt (it has been moved aside), or the finished
        game cannot be recorded (it stays saved: nothing is lost).
    """
    game_file = game_file if game_file is not None else save_path()
    if state is None:
        state = load_game(game_file)
    if state is None or not state.is_terminal():
        return False
    try:
        _, problem = file_finished_game(state, game_file, records_file)
    except DataFileError as e:
        raise DataFileError(f"cannot record the finished game kept in {str(game_file)!r}: {e}") from None
    if problem:
        click.echo(click.style(tr("warn.records", detail=problem), fg="yellow"), err=True)
    opp = "solo" if state.config.opponent == "none" else state.config.opponent
    click.echo(tr("end.pending", rules=tr.title(state.rules), opponent=tr.opponent(opp),
                  score=state.cards[HUMAN].total), err=err)
    return True


def clear_screen() -> None:
    """Clear a terminal screen, as ``click.clear`` does, but also under ``NO_COLOR``.

    (``click.clear`` goes through ``echo``, which strips escape sequences when
    colours are off; clearing is not colour.)
    """
    if sys.stdout.isatty():
        sys.stdout.write("\033[2J\033[1;1H")
        sys.stdout.flush()


def no_color(ctx: click.Context) -> None:
    """Honour ``NO_COLOR`` (https://no-color.org): set and not empty turns colours off for this command."""
    if os.environ.get("NO_COLOR"):
        ctx.color = False


# -- the command ----------------------------------------------------------------------------------------
_SETTINGS = ("rules", "opponent", "first", "seed")


@click.command()
@rules_option
@click.option("--vs", "opponent", type=click.Choice(OPPONENTS, case_sensitive=False), default="none",
              show_default=True, help="Play alone or against a CPU level.")
@click.option("--first", type=click.Choice(["me", "cpu", "random"], case_sensitive=False), default="me",
              show_default=True, help="Who plays first against the CPU.")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed of the dice (same seed, same dice); default: fresh entropy.")
@click.option("--lang", type=click.Choice(LANGS, case_sensitive=False), default="en", show_default=True,
              help="Interface language: English, Chinese, Japanese.")
@click.option("--resume", is_flag=True, help="Continue the saved game exactly where it stopped.")
@click.option("--fast", is_flag=True, help="No pauses between the CPU's steps.")
@click.pass_context
def play(ctx, rules, opponent, first, seed, lang, resume, fast):
    """Play Yahtzee or Yacht in the terminal, alone or against the CPU.

    The scorecard shows what the dice would score in every open box; type
    help at the prompt for the commands (r roll, k keep, s score, h hint,
    ? rules, q save and quit).  The game is saved after every action;
    --resume continues it with the same dice.  Records: yahtzee-solve records.

    Files: game.json (the game in progress), records.json and game.lock (one
    game at a time) are kept in $YAHTZEE_SOLVER_HOME when it is set and not
    empty, else in the platform's app folder (~/.config/yahtzee-solver on
    Linux).  Set NO_COLOR to turn colours off.
    """
    no_color(ctx)
    tr = Translator(lang.lower())
    game_file = save_path()
    if resume:
        given = [n for n in _SETTINGS if ctx.get_parameter_source(n) is ParameterSource.COMMANDLINE]
        if given:
            flag = {"opponent": "vs"}.get(given[0], given[0])
            raise UsageError(f"--resume continues the saved game with its own settings: drop --{flag}")
    elif opponent.lower() == "none" and ctx.get_parameter_source("first") is ParameterSource.COMMANDLINE:
        raise UsageError(f"--first {first} needs an opponent: add --vs beginner|normal|expert|master")
    with GameLock():
        state = _start(tr, game_file, resume, rules, opponent, first, seed)
        if state is None:
            return
        session = Session(state, tr, fast=fast, game_file=game_file)
        try:
            result = session.run()
        except (click.Abort, KeyboardInterrupt):
            click.echo()
            click.echo(tr("quit.interrupted"), err=True)
            ctx.exit(1)
        if result == "unrecorded":
            ctx.exit(1)


def _start(tr, game_file, resume, rules, opponent, first, seed) -> GameState | None:
    """The game to play: the saved one (``--resume``) or a new one; ``None`` if the player keeps the saved game.

    A finished game left unrecorded by an earlier run is recorded first.
    """
    if resume:
        state = load_game(game_file)
        if state is not None and state.is_terminal():
            record_pending(tr, game_file, state=state)
            state = None
        if state is None:
            raise UsageError("there is no saved game to resume: start one with 'yahtzee-solve play'")
        click.echo(tr("ev.resumed", rules=tr.title(state.rules), round=state.round, turns=state.rules.n_categories))
        return state
    try:
        old = load_game(game_file)
    except DataFileError as e:
        click.echo(click.style(tr("warn.save", detail=str(e)), fg="yellow"), err=True)
        old = None
    if old is not None and old.is_terminal():
        record_pending(tr, game_file, state=old)
        old = None
    if old is not None:
        q = tr("confirm.new_game", rules=tr.title(old.rules), opponent=tr.opponent(old.config.opponent),
               round=old.round, turns=old.rules.n_categories)
        if not confirm(tr, q):
            click.echo(tr("kept_saved"))
            return None
        book = RecordBook.load()
        if book.problem:
            click.echo(click.style(tr("warn.records", detail=book.problem), fg="yellow"), err=True)
        book.add_abandoned(old.rules.name, "solo" if old.config.opponent == "none" else old.config.opponent)
        book.save()
    state = new_game(rules, opponent.lower(), first.lower(), seed)
    save_game(state, game_file)
    if state.config.n_players == 2:
        key = "ev.first_you" if state.config.first == HUMAN else "ev.first_cpu"
        click.echo(tr(key, player=_player_name(state, CPU, tr)))
    return state
