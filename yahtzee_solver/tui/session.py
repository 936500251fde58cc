"""One run of the terminal game: the loop that reads commands, acts, draws and saves.

The rules live in :mod:`yahtzee_solver.game` (the engine), the CPU in
:mod:`yahtzee_solver.strategy.players`, the hints in :mod:`yahtzee_solver.strategy.advisor`, the
files in :mod:`yahtzee_solver.play.savegame` and :mod:`yahtzee_solver.play.records`, the
commands in :mod:`.prompt`, the drawing in :mod:`.board`, the words in
:mod:`yahtzee_solver.i18n`; :mod:`.start` starts or resumes the game.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast

import click

from ..errors import YahtzeeError
from ..game import CPU, HUMAN, MAX_ROLLS, Hold, Roll, Score
from ..i18n import display_width, pad, wrap
from ..play.records import DataFileError, records_path
from ..play.savegame import GameStore
from ..play.session import advice_refused, can_undo, cpu_steps, file_finished, mark_practice, save_action, undo_score
from . import prompt
from .board import clear_screen, fit_items, player_name, render_board, render_dice
from .prompt import PromptError, confirm, dice_text, keep_command, parse_command
from .review import summary_lines

if TYPE_CHECKING:
    import os
    from pathlib import Path

    from ..game import Action, Event, GameState
    from ..i18n import Translator
    from ..solver.table import ValueTable
    from ..strategy.advisor import Advisor, BoxOption, KeepOption
    from ..strategy.players import Strategy
    from ..strategy.win_chances import WinHints

__all__ = ["Session", "CPU_PAUSE", "on_terminal"]


CPU_PAUSE = 0.9  # seconds between the CPU's steps (skipped with --fast)


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
    store : GameStore, optional
        The game's files, already holding its ledger entry (from
        :func:`start_game`); default: a new entry for ``state`` is recorded in
        a store on ``game_file``.
    notices : list of (str, dict), optional
        Messages to show under the first board: ``(text, style)``.
    confirm_loss : float, optional
        Ask before a reroll or a score that loses more than this many expected
        points against the best choice (the advisor's; the game then counts as
        practice once it asks).  ``None``: never ask.
    sleep : callable
        ``time.sleep`` (injected for tests).
    tty : bool, optional
        Redraw the whole screen for every prompt (default: stdout is a terminal).
    """

    def __init__(self, state: GameState, tr: Translator, *, fast: bool = False,
                 game_file: str | os.PathLike[str] | None = None, records_file: str | os.PathLike[str] | None = None,
                 store: GameStore | None = None, notices: Iterable[tuple[str, dict[str, Any]]] = (),
                 confirm_loss: float | None = None, sleep: Callable[[float], object] = time.sleep,
                 tty: bool | None = None) -> None:
        self.state: GameState = state
        self.confirm_loss = confirm_loss
        self._before_score: GameState | None = None  # the game before the player's last score, for an undo
        self.tr = tr
        self.fast = fast
        if store is None:
            store = GameStore(game_file)
            store.begin(state, lang=tr.lang)
        self.store: GameStore = store
        self.game_file: Path = store.game_file
        self.records_file: str | os.PathLike[str] = records_file if records_file is not None else records_path()
        self.sleep = sleep
        self.tty: bool = on_terminal() if tty is None else tty
        self.messages: list[str] = []  # kept until the player's next move (terminal only)
        for text, style in notices:
            self.note(text, **style)
        self.pinned: list[str] = self.messages  # start-up messages: never left out to fit the screen
        self.messages = []
        self.transient: list[str] = []  # shown once (terminal only)
        self.dirty: bool = True
        self._table: ValueTable | None = None
        self._advisor: Advisor | None = None
        self._strategy: Strategy | None = None
        self._win_hints: WinHints | None = None  # the chances of winning, the last DP kept

    # -- output ----------------------------------------------------------------------------
    @property
    def width(self) -> int | None:
        """Terminal width to wrap text to (``None`` when not on a terminal)."""
        return shutil.get_terminal_size((80, 24)).columns - 1 if self.tty else None

    def wrap(self, text: str) -> str:
        """``text`` wrapped to the terminal width (on a terminal only; no-break spaces printed as spaces)."""
        return wrap(text, self.width)

    def note(self, text: str, *, pin: bool = False, **style: Any) -> None:
        """Show a message: kept under the board on a terminal, printed at once otherwise.

        ``pin``: never left out to fit the screen, as the start-up messages (the
        notice that the game has become practice, which comes before the advice that made it so).
        """
        text = self.wrap(text)
        text = click.style(text, **style) if style else text
        if self.tty:
            (self.pinned if pin else self.messages).append(text)
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
        screen = []
        reminder = []
        if self.tty or self.dirty or force:
            screen += render_board(self.state, self.tr, self.width)
            if not self.state.is_terminal():
                screen.append("")
                screen += render_dice(self.state, self.tr, self.width)
                reminder.append(click.style(fit_items(self.tr("commands_short"), self.width), dim=True))
        self._show(screen, self.messages + self.transient, self.pinned, reminder)
        self.transient.clear()
        self.dirty = False

    def _show(self, screen: list[str], messages: list[str], pinned: Sequence[str] = (),
              spare: Sequence[str] = ()) -> None:
        """Print ``screen``, ``spare``, ``pinned`` then ``messages``, fitting a terminal's rows (with the
        prompt line) so that the title stays on screen.

        ``pinned`` and the newest message are always shown; to make room for
        them, ``spare`` (the short list of commands, which ``help`` repeats) is
        left out first.  Then the oldest other ``messages`` that do not fit are left out.
        """
        if self.tty:
            rows = shutil.get_terminal_size((80, 24)).lines
            if _height([*screen, *spare, *pinned, *messages[-1:]]) + 1 > rows:  # + the prompt line
                spare = ()
            used = _height([*screen, *spare, *pinned]) + 1
            kept: list[str] = []
            for m in reversed(messages):
                n = _height([m])
                if kept and used + n > rows:
                    break
                kept.append(m)
                used += n
            messages = kept[::-1]
        for line in [*screen, *spare, *pinned, *messages]:
            click.echo(line)

    def ask(self, text: str) -> str:
        return prompt.ask(text)

    def confirm(self, text: str) -> bool:
        return confirm(self.tr, text)

    # -- helpers ------------------------------------------------------------------------------
    @property
    def table(self) -> ValueTable:
        if self._table is None:
            from ..solver.table import load_table

            self._table = load_table(self.state.rules)
        return self._table

    @property
    def advisor(self) -> Advisor:
        if self._advisor is None:
            from ..strategy.advisor import Advisor

            self._advisor = Advisor(self.state.rules, self.table, jit=False)
        return self._advisor

    @property
    def strategy(self) -> Strategy:
        if self._strategy is None:
            from ..strategy.levels import make_strategy

            level = self.state.config.opponent
            table = self.table if level in ("expert", "master") else None
            # master solves a DP at each of its late turns: compiled kernels
            self._strategy = make_strategy(level, self.state.rules, rng=self.state.cpu_rng, table=table,
                                           jit=level == "master")
        return self._strategy

    def act(self, action: Action) -> Event:
        ev = self.state.apply_action(action)
        self._records_warning(save_action(self.store, self.state, self.records_file))
        self.dirty = True
        return ev

    def _records_warning(self, problem: str | None) -> None:
        """Show an unreadable records file that was moved aside (found when the game was noted in them)."""
        if problem:
            click.echo(click.style(self.tr("warn.records", detail=problem), fg="yellow"), err=True)

    def scored(self, ev: Event) -> None:
        tr, rules = self.tr, self.state.rules
        who = player_name(self.state, ev.player, tr)
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
        for ev, lines in cpu_steps(self.state, self.strategy, self.act, self.tr):
            for line in lines:
                self.note(line)
            if ev.kind != "roll":
                self.scored(ev)
            if self.tty:
                self.draw_cpu()
            if not self.fast:
                self.sleep(CPU_PAUSE)

    def draw_cpu(self) -> None:
        clear_screen()
        screen = render_board(self.state, self.tr, self.width) + [""]
        if not self.state.is_terminal() and self.state.is_cpu_turn:
            screen += render_dice(self.state, self.tr, self.width)
        self._show(screen, self.messages, self.pinned)

    def human_step(self) -> bool:
        st, tr = self.state, self.tr
        self.draw()
        line = self.ask(tr("prompt"))
        try:
            cmd = parse_command(line, st, tr)
        except PromptError as e:
            self.error(e)
            return True
        if cmd.verb in ("roll", "hold", "score", "hint", "why", "help", "undo", "history"):
            self.messages.clear()
            self.pinned = []
        if cmd.verb == "quit":
            self._records_warning(save_action(self.store, st, self.records_file))
            click.echo(tr("quit.saved"))
            return False
        if cmd.verb == "redraw":
            self.dirty = True
        elif cmd.verb == "help":
            self.note(tr.help(st.rules))
        elif cmd.verb == "rules":
            self.show_rules()
        elif cmd.verb in ("hint", "why"):
            refused = advice_refused(st, cmd.verb)
            if refused is not None:  # the game stays unaided
                self.error(PromptError(f"err.{refused}"))
                return True
            self.practice("hint")
            if cmd.verb == "hint":
                self.hint()
            else:
                self.why()
        elif cmd.verb == "roll":
            if self.loss_confirmed_keep():
                self.act(Roll())
        elif cmd.verb == "undo":
            self.undo()
        elif cmd.verb == "history":
            self.history()
        elif cmd.verb == "hold":
            if cmd.arg != st.held:
                self.act(Hold(cast("tuple[bool, ...]", cmd.arg)))  # parse_command gives hold flags
            self.say_kept()
        elif cmd.verb == "score":
            self.score(cast(int, cmd.arg))  # parse_command gives a box index
        return True

    def say_kept(self) -> None:
        """Say in words which dice are kept and which the next roll rerolls."""
        st, tr = self.state, self.tr
        assert st.dice is not None  # rolled
        kept = sorted(d for d, h in zip(st.dice, st.held) if h)
        rest = sorted(d for d, h in zip(st.dice, st.held) if not h)
        if not kept:
            self.note(tr("ev.kept_none"))
        elif not rest:
            self.note(tr("ev.kept_all"))
        else:
            self.note(tr("ev.kept", keep=dice_text(kept), reroll=dice_text(rest)))

    def practice(self, reason: str) -> None:
        """Mark the game as practice for ``reason``; say so if it was not practice already (a chosen
        seed, an earlier hint or undo: it said so then)."""
        if reason not in self.store.practice:
            already = bool(self.store.practice)
            self._records_warning(mark_practice(self.store, reason, self.records_file))
            if not already:
                self.note(self.tr(f"practice.{reason}"), pin=True, fg="yellow")

    def _too_costly(self, what: str, loss: float, best: str, cancelled: str = "confirm.cancelled") -> bool:
        """Ask about a choice losing ``loss`` expected points (above :attr:`confirm_loss`); True to cancel it."""
        if self.confirm_loss is None or loss <= self.confirm_loss:
            return False
        shown = len(self.pinned)
        self.practice("confirm")
        if self.tty:
            self.draw()
            del self.pinned[shown:]  # the practice notice is drawn with the question: not again under its answer
        q = self.tr("confirm.loss", what=what, loss=f"{loss:.2f}", best=best)
        if self.confirm(q):
            return False
        self.note(self.tr(cancelled))
        return True

    def loss_confirmed_keep(self) -> bool:
        """With ``confirm_loss``: whether rerolling with the dice kept now may go ahead."""
        st = self.state
        if self.confirm_loss is None or st.rolls_used == 0 or all(st.held):
            return True
        assert st.dice is not None and st.sorted_dice is not None  # rolled
        kept = tuple(sorted(d for d, h in zip(st.dice, st.held) if h))
        options = self.advisor.keep_options(st.card, st.sorted_dice, st.rerolls_left)
        mine = next(o for o in options if tuple(o.keep) == kept)
        return not self._too_costly(self.tr("confirm.loss_keep"), mine.loss, self._command(options[0]),
                                    "confirm.not_rolled")

    def _command(self, o: Any) -> str:
        """What to type for advisor option ``o``: ``k 555``, or ``s 5 (Fives)`` for a box or for
        keeping all five dice, which stops and scores now (there is no pass)."""
        box = getattr(o, "score", o)  # a KeepOption's box when it stops (else None); a BoxOption itself
        if box is None:
            return keep_command(o.keep)
        return f"s {box.category + 1} ({self.tr.box(self.state.rules, box.category)})"

    def undo(self) -> None:
        """Take back the last score (solo, before the next roll); the game becomes practice."""
        st, tr = self.state, self.tr
        if not can_undo(st, self._before_score):
            self.error(PromptError("err.no_undo"))
            return
        assert self._before_score is not None  # can_undo checked it
        self.state, last, first = undo_score(self.store, st, self._before_score, self.records_file)
        self._before_score = None
        if first:
            self.note(tr("practice.undo"), pin=True, fg="yellow")
        self.dirty = True
        self.note(tr("ev.undone", box=tr.box(st.rules, last.category)), fg="yellow")

    def history(self) -> None:
        """The turns scored so far, the CPU's included: each roll's dice, then the box and points."""
        st, tr, rules = self.state, self.tr, self.state.rules
        lines: list[str] = []
        rolls: list[str] = []
        turn: dict[int, int] = {}
        for ev in st.log:
            if ev.kind == "roll":
                rolls.append(dice_text(ev.dice).replace(" ", ""))
            elif ev.kind == "score":
                turn[ev.player] = turn.get(ev.player, 0) + 1
                extra = []
                if ev.yahtzee_bonus:
                    extra.append(tr("ev.yahtzee_bonus", yahtzee=tr.box(rules, rules.yahtzee_category),
                                    points=ev.yahtzee_bonus))
                if ev.upper_bonus:
                    extra.append(tr("ev.upper_bonus", points=ev.upper_bonus))
                lines.append("  " + tr("history.line", turn=turn[ev.player], player=player_name(st, ev.player, tr),
                                        rolls=" > ".join(rolls), points=ev.points, box=tr.box(rules, ev.category),
                                        extra=(" " + " ".join(extra)) if extra else ""))
                rolls = []
        self.note("\n".join([tr("history.title"), *lines]) if lines else tr("history.none"), fg="cyan")

    def score(self, c: int) -> None:
        """Score the dice in box ``c``: ask first about a 0 while another open box scores, then (with
        ``confirm_loss``) about a costly box; either answered no leaves the dice unscored."""
        st, tr, rules = self.state, self.tr, self.state.rules
        if st.zero_warning(c):
            preview = st.preview()
            assert preview is not None  # a zero warning needs dice
            pts, legal, _ = preview
            best = max((p, -i) for i, p in enumerate(pts) if legal[i])
            other = -best[1]
            q = tr("confirm.zero", box=tr.box(rules, c), other=tr.box(rules, other), points=best[0])
            if self.tty:
                self.draw()
            if not self.confirm(q):
                self.note(tr("confirm.cancelled"))
                return
        if self.confirm_loss is not None:
            # against every move the game allows now: the other boxes and, while rerolls remain,
            # every reroll (the best of the keep options; keeping all five is scoring in the best box)
            assert st.sorted_dice is not None  # rolled
            boxes = self.advisor.box_options(st.card, st.sorted_dice)
            mine = next(o for o in boxes if o.category == c)
            best_move: BoxOption | KeepOption = boxes[0]
            if st.rolls_used < MAX_ROLLS:
                best_move = self.advisor.keep_options(st.card, st.sorted_dice, st.rerolls_left)[0]
            loss = max(best_move.expected - mine.expected, 0.0)
            if self._too_costly(tr("confirm.loss_box", box=tr.box(rules, c)), loss, self._command(best_move)):
                return
        self._score(c)

    def _score(self, c: int) -> None:
        before = self.state.clone()  # a score draws no dice: this copy's generators are still current
        ev = self.act(Score(c))
        self._before_score = before
        self.scored(ev)
        self._offer_undo()

    def _offer_undo(self) -> None:
        st = self.state
        if st.config.n_players == 1 and not st.is_terminal():
            self.note(self.tr("ev.undo_offer"), dim=True)

    def hint(self) -> None:
        """The advisor's best options, each with the exact command to type (``k 44``, ``k 6``, ``k -``, ``s 9``)."""
        st, tr, rules = self.state, self.tr, self.state.rules
        if st.dice is None:
            lines = [tr("hint.roll", ev=f"{self.advisor.expected_final(st.card):.2f}")]
            self.note("\n".join(lines + self.win_lines()), fg="cyan")
            return
        dice = st.sorted_dice
        assert dice is not None  # rolled
        rows: list[tuple[str, str, float, float, bool] | str] = []  # (command, label, expected, loss, best) or a bare text line

        def box_row(o: BoxOption, best: bool) -> tuple[str, str, float, float, bool]:
            label = tr("hint.box", box=tr.box(rules, o.category), points=o.points)
            return (f"s {o.category + 1}", label, o.expected, o.loss, best)

        if st.rolls_used < MAX_ROLLS:
            keeps = self.advisor.keep_options(st.card, dice, st.rerolls_left)
            for i, o in enumerate(keeps[:4]):
                if o.score is not None:  # keeping all five: no reroll, the dice are scored now (no pass)
                    b = o.score
                    cmd = f"s {b.category + 1}"
                    label = tr("hint.stop", box=tr.box(rules, b.category), points=b.points)
                elif not o.keep:
                    cmd, label = keep_command(()), tr("hint.reroll_all")
                else:
                    cmd = keep_command(o.keep)
                    label = tr("hint.keep", keep=dice_text(o.keep), reroll=dice_text(o.reroll))
                rows.append((cmd, label, o.expected, o.loss, i == 0))
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
        self.note("\n".join(lines + self.win_lines()), fg="cyan")

    def why(self, top: int = 2) -> None:
        """The reasons of the ``top`` best options at the dice showing (:mod:`yahtzee_solver.strategy.reasons`)."""
        from ..strategy.advisor import KeepOption
        from ..strategy.reasons import Option, option_reasons
        from .why import figures, sentence

        st, tr, rules = self.state, self.tr, self.state.rules
        dice = st.sorted_dice
        assert dice is not None  # rolled: advice_refused refuses the reasons before the first roll
        rl = st.rerolls_left if st.rolls_used < MAX_ROLLS else 0
        # keeps with rerolls left, else boxes
        options: Sequence[KeepOption | BoxOption] = self.advisor.hint(st.card, dice, rl)[:top]
        keys: list[Option] = [o.keep if isinstance(o, KeepOption) else o.category for o in options]
        why = option_reasons(st.card, dice, rl, keys, table=self.advisor.table)
        lines = [tr("why.head", figures=figures(tr, rules, why.start))]
        for o, key in zip(options, keys):
            r = why.options[key]
            label = dice_text(o.keep) if isinstance(o, KeepOption) else tr.box(rules, o.category)
            lines.append(f"{label}: {figures(tr, rules, r)}")
            lines.append("  " + sentence(tr, rules, r, why.start))
        self.note("\n".join(lines), fg="cyan")

    def win_lines(self) -> list[str]:
        """The hint's chances of winning against the CPU (none in solitaire)."""
        if self.state.config.n_players == 1:
            return []
        from .win_hint import win_hint_lines

        if self._win_hints is None:
            from ..strategy.win_chances import WinHints

            self._win_hints = WinHints()
        return win_hint_lines(self.state, self.tr, self._win_hints(self.state, self.advisor))

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
        stays saved and :func:`~yahtzee_solver.tui.start.open_saved_game` files it on the next run.
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
            click.echo(click.style(tr(key, me=me, cpu=cpu, player=player_name(st, CPU, tr)), bold=True,
                                   fg={"win": "green", "loss": "red", "draw": "yellow"}[outcome]))
        opp = st.config.opponent_key
        try:
            filed = file_finished(st, self.store, self.records_file)
        except DataFileError as e:
            msg = tr("end.unrecorded", detail=str(e), path=str(self.game_file))
            click.echo(click.style(self.wrap(msg), fg="red"), err=True)
            click.echo(click.style(tr("end.seed", seed=st.config.seed), dim=True))
            return False
        upd, problem = filed.update, filed.records_problem
        if problem:
            click.echo(click.style(tr("warn.records", detail=problem), fg="yellow"), err=True)
        if filed.history_problem:  # filed with a warning (a number), or not filed at all
            key = "warn.history" if filed.history_number is not None else "review.history_problem"
            click.echo(click.style(tr(key, detail=tr.history_problem(filed.history_problem)), fg="yellow"),
                       err=True)
        names = {"rules": tr.title(rules), "opponent": tr.opponent(opp)}
        if upd.practice:
            click.echo(click.style(tr("end.practice"), fg="yellow"))
            names["rules"] = tr("practice.label", rules=names["rules"])
        if upd.new_best:
            click.echo(click.style(tr("end.record", score=me, old=upd.previous_best, **names), fg="green", bold=True))
        click.echo(tr.record_line(upd.record.to_dict(), st.config.n_players == 2, **names))
        self.review_summary(filed.history_number)
        click.echo(click.style(tr("end.seed", seed=st.config.seed), dim=True))
        return True

    def review_summary(self, number: int | None) -> None:
        """The end-of-game review: the player's expected loss, its bands and the costliest decisions."""
        tr = self.tr
        try:
            lines = summary_lines(self.state, tr)
        except YahtzeeError as e:  # no value table: the game still ends normally
            click.echo(click.style(tr("review.unavailable", detail=str(e)), fg="yellow"), err=True)
            return
        click.echo()
        for line in lines:
            click.echo(self.wrap(line))
        if number is not None:
            click.echo(click.style(tr("review.history_saved", n=number), dim=True))


def _height(lines: Iterable[str]) -> int:
    """The rows ``lines`` take (each may hold line breaks)."""
    return sum(s.count("\n") + 1 for s in lines)


def on_terminal() -> bool:
    """Whether the game draws full screens (stdout is a terminal)."""
    return sys.stdout.isatty()
