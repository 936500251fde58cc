"""The coach in the terminal: a line-by-line prompt for a game played with real dice.

The game logic is :mod:`yahtzee_solver.play.coach` (no I/O); the ranking is
``play``'s hint (:class:`~yahtzee_solver.strategy.advisor.Advisor`), the chances of
finishing first :class:`~yahtzee_solver.strategy.win_chances.TableOdds`.  What a
player types is parsed as at ``play``'s prompt (:mod:`yahtzee_solver.tui.prompt`),
plus a roll typed as its dice (``12555``), ``what-if DICE`` and ``card [NAME]``.
A refused line is one error line and changes nothing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import click

from ..errors import DataFileError, YahtzeeError
from ..game import MAX_ROLLS
from ..rules import N_UPPER
from ..i18n import Translator, display_width, format_probability, pad, wrap
from ..play import coach as engine
from ..play.coach import CoachGame, MoveError, RollError
from ..strategy.advisor import BoxOption, KeepOption
from .prompt import INTERRUPTED, PromptError, ask, dice_text, interrupted, keep_command, normalize, parse_command

if TYPE_CHECKING:
    from ..state import ScoreCard
    from ..strategy.advisor import Advisor
    from ..strategy.win_chances import TableChances, TableOdds

__all__ = ["CoachSession"]

_DICE = re.compile(r"[0-9][0-9\s,]*")


class CoachSession:
    """One coached game at the terminal.

    Parameters
    ----------
    game : CoachGame
    tr : Translator
    advisor : Advisor
        Of ``game.rules``.
    auto : bool
        Show the advice after every roll.
    quiet : bool
        Do not flag mistakes.
    path : path, optional
        The save file (default :func:`~yahtzee_solver.play.coach.coach_path`).
    history_file : path, optional
        The game history (default: the data folder's).
    """

    def __init__(self, game: CoachGame, tr: Translator, advisor: Advisor, *, auto: bool = False, quiet: bool = False,
                 path: str | os.PathLike[str] | None = None, history_file: str | os.PathLike[str] | None = None,
                 odds: TableOdds | None = None) -> None:
        from ..strategy.win_chances import TableOdds

        self.game: CoachGame = game
        self.tr: Translator = tr
        self.advisor: Advisor = advisor
        self.auto: bool = auto
        self.quiet: bool = quiet
        self.path: str | os.PathLike[str] | None = path
        self.history_file: str | os.PathLike[str] | None = history_file
        self.odds: TableOdds = odds if odds is not None else TableOdds(game.rules, advisor.table)

    # -- output ----------------------------------------------------------------------------
    def say(self, text: str, **style: Any) -> None:
        click.echo(click.style(text, **style) if style else text)

    def error(self, text: str) -> None:
        self.say(text.splitlines()[0] if text else text, fg="red")

    def save(self) -> None:
        engine.save(self.game, self.path, self.tr.lang)

    # -- the loop ---------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the game is over (0) or the player quits (0, saved; 130 after Ctrl-C at the prompt)."""
        g, tr = self.game, self.tr
        self.say(tr("coach.title", rules=tr.title(g.rules), players=", ".join(g.players)))
        while not g.is_over():
            try:
                line = ask(self.prompt())
            except click.Abort as e:
                self.save()
                click.echo()
                self.say(tr("coach.saved"))
                return INTERRUPTED if interrupted(e) else 0
            try:
                done = self.handle(line)
            except KeyboardInterrupt:  # Ctrl-C during advice (seconds from an early card): back to the prompt
                click.echo()
                self.save()
                self.say(tr("coach.interrupted"), dim=True)
                continue
            if done == "quit":
                self.save()
                self.say(tr("coach.saved"))
                return 0
        return self.finish()

    def prompt(self) -> str:
        g, tr = self.game, self.tr
        st, who = g.state, g.players[g.current]
        if st.dice is None:
            return tr("coach.prompt_roll", player=who, round=g.round)
        if st.rolls_used < MAX_ROLLS:
            return tr("coach.prompt_keep", player=who, dice=dice_text(sorted(st.dice)), n=st.rolls_used, max=MAX_ROLLS)
        return tr("coach.prompt_box", player=who, dice=dice_text(sorted(st.dice)))

    def handle(self, line: str) -> str | None:
        """Carry out one typed line; a refused line prints one error and changes nothing."""
        g, tr = self.game, self.tr
        text = normalize(line).strip()
        low = text.lower()
        try:
            if not text:
                return None
            if _DICE.fullmatch(text) or re.fullmatch(r"(r|roll)\s+\S.*", low):
                self.roll(text if _DICE.fullmatch(text) else text.split(None, 1)[1])
                return None
            word, _, rest = low.partition(" ")
            if word in ("what-if", "whatif", "w"):
                self.what_if(rest.strip())
                return None
            if word in ("card", "cards"):
                self.cards(text.partition(" ")[2].strip())
                return None
            cmd = parse_command(text, g.state, tr)
            if cmd.verb == "hold":
                self.keep(cast("tuple[bool, ...]", cmd.arg))  # parse_command gives hold flags
            elif cmd.verb == "score":
                self.score(cast(int, cmd.arg))  # parse_command gives a box index
            elif cmd.verb == "hint":
                self.hint()
            elif cmd.verb == "why":
                self.why()
            elif cmd.verb == "undo":
                self.undo()
            elif cmd.verb == "quit":
                return "quit"
            elif cmd.verb == "roll":
                self.error(tr("coach.prompt_roll", player=g.players[g.current], round=g.round).rstrip(": "))
            else:
                self.say(tr("coach.help"))
        except PromptError as e:
            if e.key.startswith("problem."):  # a move the engine refuses, named by parse_command
                self.error(self._problem(e.key[len("problem."):], e.params))
            else:
                self.error(tr(e.key, **e.params))
        except RollError as e:
            self.error(tr(e.key, **e.params))
        except MoveError as e:
            self.error(self._problem(e.problem, e.params))
        except YahtzeeError as e:  # not a typing mistake (a file that cannot be written): its own words
            self.error(str(e))
        return None

    def _problem(self, key: str, params: dict[str, Any]) -> str:
        """A move the engine refuses, in the coach's words: before the roll it asks for the dice typed."""
        if key == "roll_first":
            return self.tr("coach.err.roll_first")
        return self.tr.problem(key, params, self.game.rules)

    # -- actions -----------------------------------------------------------------------------------
    def _position(self) -> tuple[ScoreCard, tuple[int, ...], int]:
        st = self.game.state
        assert st.dice is not None  # asked after a roll
        rl = st.rerolls_left if st.rolls_used < MAX_ROLLS else 0
        return st.cards[0], tuple(sorted(st.dice)), rl

    def roll(self, text: str) -> None:
        g = self.game
        st = g.state
        if st.dice is not None and g.actions and "roll" in g.actions[-1]:
            # a reroll typed with no k since the last roll: the dice carried over are this roll's keep,
            # recorded and judged like any keep (a bad roll is refused first, so nothing is recorded)
            g.rerolled(text)
            self.keep(tuple(st.held))
        g.roll(text)
        self.save()
        if self.auto:
            self.hint(reasons=False)  # the reasons take a second or more: on h or why

    def keep(self, held: tuple[bool, ...]) -> None:
        g, tr = self.game, self.tr
        if all(held):
            raise PromptError("coach.err.keep_all")
        assert g.state.dice is not None  # parse_command takes a keep after a roll only
        faces = tuple(sorted(d for d, h in zip(g.state.dice, held) if h))
        flag = None if self.quiet else self._cost(keep=faces)
        g.keep(held)
        self.save()
        self.say(tr("coach.kept", player=g.players[g.current], keep=dice_text(faces) or "-", n=5 - len(faces)))
        if flag:
            self.say(flag, fg="yellow")

    def score(self, c: int) -> None:
        g, tr = self.game, self.tr
        who, p = g.current, g.players[g.current]
        flag = None if self.quiet else self._cost(box=c)
        ev = g.score(c)
        self.save()
        self.say(tr("coach.scored", player=p, points=ev.points + ev.yahtzee_bonus, box=tr.box(g.rules, c),
                    total=g.cards[who].total))
        if flag:
            self.say(flag, fg="yellow")

    def _cost(self, *, keep: tuple[int, ...] | None = None, box: int | None = None) -> str | None:
        """The mistake note for a keep or box about to be played (``None`` for a best move, no chance change)."""
        g, tr = self.game, self.tr
        m = engine.mistake(g, self.advisor, self.odds, keep=keep, box=box)
        if m is None:
            return None
        if m.before is not None and m.after is not None:
            return tr("coach.cost_win", loss=f"{m.loss:.2f}", best=engine.best_text(self.tr, self.game.rules, m.best),
                      before=format_probability(m.before), after=format_probability(m.after))
        return tr("coach.cost", loss=f"{m.loss:.2f}", best=engine.best_text(self.tr, self.game.rules, m.best))

    def undo(self) -> None:
        g, tr = self.game, self.tr
        try:
            a = g.undo()
        except YahtzeeError:
            raise PromptError("coach.err.no_undo") from None
        self.save()
        self.say(engine.undone_text(tr, g, a))

    # -- advice ---------------------------------------------------------------------------------------
    def hint(self, dice: Sequence[int] | None = None, rolls_left: int | None = None, *, reasons: bool = True) -> None:
        """``play``'s ranking for the mover's position (or for ``dice``), with each option's chance of finishing
        first, then (``reasons``) the reasons of the two best options, as ``play``'s ``why``."""
        g, tr, rules = self.game, self.tr, self.game.rules
        st = g.state
        card = st.cards[0]
        if dice is None and st.dice is None:
            self.say(tr("coach.hint_roll", ev=f"{self.advisor.expected_final(card):.2f}"), fg="cyan")
            self.say_chances(self.odds(g.cards, g.current))
            return
        if dice is None:
            card, dice, rolls_left = self._position()
        assert rolls_left is not None  # given with the dice
        opts: Sequence[KeepOption | BoxOption] = engine.ranking(card, dice, rolls_left, self.advisor)[:5]
        wc = self.odds(g.cards, g.current, dice, rolls_left)
        rows: list[tuple[str, str, float, str, str]] = []
        for i, o in enumerate(opts):
            p: float | None
            if isinstance(o, KeepOption):
                if o.score is not None:
                    cmd, label = f"s {o.score.category + 1}", tr("hint.stop", box=tr.box(rules, o.score.category),
                                                                   points=o.score.points)
                elif not o.keep:
                    cmd, label = keep_command(()), tr("hint.reroll_all")
                else:
                    cmd, label = keep_command(o.keep), tr("hint.keep", keep=dice_text(o.keep),
                                                          reroll=dice_text(o.reroll))
                p = wc.options.get(o.keep) if wc.shown else None
            else:
                cmd, label = f"s {o.category + 1}", tr("hint.box", box=tr.box(rules, o.category), points=o.points)
                p = wc.options.get(o.category) if wc.shown else None
            tag = tr("hint.best") if i == 0 else f"-{o.loss:.2f}"
            win = "" if p is None else "   " + tr("coach.option_win", p=format_probability(p))
            rows.append((cmd, label, o.expected, tag, win))
        wc_ = max(display_width(r[0]) for r in rows)
        wl = max(display_width(r[1]) for r in rows)
        lines = [tr("hint.title")]
        lines += [f"  {pad(c, wc_)}  {pad(lab, wl)} {ev:8.2f}   {tag}{win}" for c, lab, ev, tag, win in rows]
        self.say("\n".join(lines), fg="cyan")
        self.say_chances(wc)
        if reasons:
            self.why(dice, rolls_left)

    def why(self, dice: Sequence[int] | None = None, rolls_left: int | None = None, top: int = 2) -> None:
        """The reasons of the ``top`` best options at the mover's position (or for ``dice``): the exact chances
        of the upper bonus and of a Yahtzee, the points of the turn, one sentence
        (:func:`~yahtzee_solver.strategy.reasons.option_reasons`, as ``play``'s ``why`` and ``hint --why``)."""
        from ..strategy.reasons import Option, option_reasons
        from .why import reason_lines

        g, tr, rules = self.game, self.tr, self.game.rules
        card = g.state.cards[0]
        if dice is None:
            if g.state.dice is None:
                self.say(tr("coach.hint_roll", ev=f"{self.advisor.expected_final(card):.2f}"), fg="cyan")
                return
            card, dice, rolls_left = self._position()
        assert rolls_left is not None  # given with the dice
        options: Sequence[KeepOption | BoxOption] = engine.ranking(card, dice, rolls_left, self.advisor)[:top]
        keys: list[Option] = [o.keep if isinstance(o, KeepOption) else o.category for o in options]
        why = option_reasons(card, tuple(sorted(dice)), rolls_left, keys, table=self.advisor.table)
        labels = [dice_text(o.keep) if isinstance(o, KeepOption) else tr.box(rules, o.category) for o in options]
        self.say("\n".join(wrap(line, 80) for line in reason_lines(tr, why, list(zip(labels, keys)))), fg="cyan")

    def say_chances(self, wc: TableChances) -> None:
        g, tr = self.game, self.tr
        if len(g.players) < 2:
            return
        if not wc.shown:
            self.say(tr("coach.chances_far", n=self.odds.max_open), dim=True)
            return
        lines = [tr("coach.chances_title")]
        lines += [tr("coach.chance_row", player=n, p=format_probability(p)) for n, p in zip(g.players, wc.players)]
        self.say("\n".join(lines), fg="cyan")

    def what_if(self, text: str) -> None:
        g, tr = self.game, self.tr
        if not text:
            raise PromptError("coach.err.whatif")
        dice = engine.parse_roll(text)
        if len(dice) != 5:
            raise PromptError("coach.err.whatif_five", roll=text)
        st = g.state
        rl = 2 if st.dice is None else (st.rerolls_left if st.rolls_used < MAX_ROLLS else 0)
        self.say(tr("coach.whatif", dice=dice_text(dice), n=rl))
        self.hint(dice, rl)

    def cards(self, name: str) -> None:
        g, tr = self.game, self.tr
        if name:
            try:
                who = [g.player_index(name)]
            except YahtzeeError:
                raise PromptError("coach.err.player", name=name, players=", ".join(g.players)) from None
        else:
            who = list(range(len(g.players)))
        rules = g.rules
        names = [tr.box(rules, c) for c in range(rules.n_categories)]
        # the rows that make the total: the boxes, and the upper subtotal and the bonuses between them
        rows: list[tuple[str, list[str]]] = []
        for c, n in enumerate(names):
            rows.append((n, ["" if (v := g.cards[i].boxes[c]) is None else str(v) for i in who]))
            if c == N_UPPER - 1:
                rows.append((tr("upper_subtotal"), [f"{g.cards[i].upper_subtotal}/{rules.upper_threshold}" for i in who]))
                rows.append((tr("upper_bonus"), [f"+{b}" if (b := g.cards[i].upper_bonus) else "0" for i in who]))
        if rules.yahtzee_bonus:
            rows.append((tr("yahtzee_bonus", yahtzee=names[rules.yahtzee_category]),
                         [str(g.cards[i].yahtzee_bonus) for i in who]))
        rows.append((tr("total"), [str(g.cards[i].total) for i in who]))
        w = max(display_width(n) for n, _ in rows)
        cols = [max(6, display_width(g.players[i])) for i in who]
        lines = [tr("coach.card_title"), "  " + pad("", w) + "".join(f"  {pad(g.players[i], c)}" for i, c in zip(who, cols))]
        lines += ["  " + pad(n, w) + "".join(f"  {pad(v, cw)}" for v, cw in zip(cells, cols)) for n, cells in rows]
        self.say("\n".join(lines))

    # -- the end -----------------------------------------------------------------------------------------
    def finish(self) -> int:
        """The end: the places, the game filed in the history, and with two or more players every player's
        skill and luck and the chart of their chances round by round (:mod:`yahtzee_solver.analysis.table_review`)."""
        g, tr = self.game, self.tr
        self.say(tr("coach.over"))
        totals = g.totals()
        order = sorted(range(len(g.players)), key=lambda i: -totals[i])
        for i in order:
            place = 1 + sum(t > totals[i] for t in totals)
            self.say(tr("coach.final_row", place=place, player=g.players[i], total=totals[i]))
        try:
            number, problem = engine.file_finished(g, self.path, self.history_file)
        except DataFileError as e:
            self.error(str(e))
            return 1
        if problem:
            self.error(tr("review.history_problem", detail=problem))
        if number is not None:
            self.say(tr("coach.filed", numbers=str(number)))
        self.say("")
        self.say("\n".join(self.table_text()))
        return 0

    def table_text(self) -> list[str]:
        """Every player's luck and skill split and, with two or more players, the chart of the chances."""
        from ..analysis.review import review_turns, turns_from_log
        from ..analysis.table_review import review_table
        from .review import luck_skill_lines, table_lines

        g, tr = self.game, self.tr
        log = g.table_log()
        try:
            if len(g.players) == 1:
                return luck_skill_lines(tr, review_turns(turns_from_log(log, 0), g.rules, advisor=self.advisor))
            self.say(tr("table.computing"), dim=True)
            return table_lines(tr, review_table(g.rules, g.players, log, advisor=self.advisor, odds=self.odds))
        except YahtzeeError as e:  # e.g. the value table cannot be read: the game is filed all the same
            return [tr("review.unavailable", detail=str(e).splitlines()[0])]
