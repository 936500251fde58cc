"""The trainer in the terminal: one position at a time, the answer graded against the ranking.

The positions, the grading and the sessions file are :mod:`yahtzee_solver.analysis.training`;
the answer is read with the prompt of ``play`` (:func:`~yahtzee_solver.tui.prompt.parse_command`),
so ``k 225``, ``k a c``, ``k -`` and ``s fh`` mean what they mean in a game.  A bad answer gets a
one-line error and the same position is asked again; nothing answered before is lost.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeAlias, cast

import click
import numpy as np

from ..analysis.training import STRONG, Answer, Graded, Position, SessionRecord, TrainingStats, grade, trend_bars
from ..game import MAX_ROLLS, GameConfig, GameState
from ..i18n import Translator, display_width, pad, wrap
from .board import render_board, render_dice
from .prompt import PromptError, ask, dice_text, interrupted, keep_command, parse_command

if TYPE_CHECKING:
    from ..rules import RuleSet
    from ..strategy.advisor import Advisor

#: A ranking row: ``(command, label, expected final score, loss)`` (points).
Row: TypeAlias = tuple[str, str, float, float]

__all__ = ["position_state", "ranking_rows", "ranking_lines", "WhyReason", "run_training", "TrainingInterrupted",
           "stats_lines"]


def position_state(position: Position) -> GameState:
    """A solitaire game standing at ``position`` (its dice in sorted order, none held), for the prompt and board."""
    rules = position.card.rules
    state = GameState(GameConfig(rules), np.random.default_rng(0), cards=[position.card])
    state.dice = tuple(position.dice)
    state.rolls_used = MAX_ROLLS - position.rolls_left
    state.round = rules.n_categories - len(position.card.open_categories) + 1
    return state


def ranking_rows(advisor: Advisor, position: Position, tr: Translator, n: int = 4) -> list[Row]:
    """The play hint's rows for the position: ``(command, label, expected, loss)``, best first, the first ``n``.

    Keeps with rerolls left (keeping all five is scoring now in the best box: no pass), boxes with none;
    the values are the advisor's, as ``play``'s hint shows them.
    """
    rules, card, dice = position.card.rules, position.card, position.dice
    rows: list[Row] = []
    if position.rolls_left > 0:
        for o in advisor.keep_options(card, dice, position.rolls_left):
            if o.score is not None:
                b = o.score
                rows.append((f"s {b.category + 1}", tr("hint.stop", box=tr.box(rules, b.category), points=b.points),
                             o.expected, o.loss))
            elif not o.keep:
                rows.append((keep_command(()), tr("hint.reroll_all"), o.expected, o.loss))
            else:
                rows.append((keep_command(o.keep), tr("hint.keep", keep=dice_text(o.keep), reroll=dice_text(o.reroll)),
                             o.expected, o.loss))
    else:
        for bo in advisor.box_options(card, dice):
            rows.append((f"s {bo.category + 1}", tr("hint.box", box=tr.box(rules, bo.category), points=bo.points),
                         bo.expected, bo.loss))
    return rows[:n]


def _answer_row(advisor: Advisor, graded: Graded, tr: Translator) -> Row:
    """The row of the answer itself when it is not among the rows shown."""
    pos, a = graded.position, graded.answer
    rules = pos.card.rules
    if a.box is not None:
        pts = pos.card.box_points(pos.dice)[0][a.box]
        key = "hint.stop" if pos.rolls_left else "hint.box"
        label = tr(key, box=tr.box(rules, a.box), points=pts)
        return (a.command(), label, graded.expected, graded.cost)
    assert a.keep is not None  # exactly one of keep and box is set
    if len(a.keep) == len(pos.dice):  # no pass: keeping all five scores now in the best box
        b = advisor.box_options(pos.card, pos.dice)[0]
        label = tr("hint.stop", box=tr.box(rules, b.category), points=b.points)
        return (a.command(), label, graded.expected, graded.cost)
    rest = list(pos.dice)
    for d in a.keep:
        rest.remove(d)
    label = tr("hint.reroll_all") if not a.keep else tr("hint.keep", keep=dice_text(a.keep), reroll=dice_text(rest))
    return (keep_command(a.keep), label, graded.expected, graded.cost)


def ranking_lines(advisor: Advisor, graded: Graded, tr: Translator) -> list[str]:
    """The ranking after an answer: the hint's rows (and the answer's, if lower), what it cost, the reason."""
    rows = ranking_rows(advisor, graded.position, tr)
    mine = _answer_row(advisor, graded, tr)
    shown = any(abs(r[2] - graded.expected) < 1e-9 and _same(r[0], mine[0], graded) for r in rows)
    table: list[Row | None] = [*rows, *([None, mine] if not shown else [])]
    real = [r for r in table if r is not None]
    wc = max(display_width(r[0]) for r in real)
    wl = max(display_width(r[1]) for r in real)
    lines = [tr("hint.title")]
    for i, r in enumerate(table):
        if r is None:
            lines.append("  ...")
            continue
        cmd, label, ev, loss = r
        tag = tr("hint.best") if i == 0 else f"-{loss:.2f}"
        lines.append(f"  {pad(cmd, wc)}  {pad(label, wl)} {ev:8.2f}   {tag}")
    if graded.cost == 0:
        lines.append(click.style(tr("train.yours_best", cmd=graded.answer.command()), fg="green"))
    else:
        lines.append(click.style(tr("train.yours", cmd=graded.answer.command(), ev=f"{graded.expected:.2f}",
                                    cost=f"{graded.cost:.2f}"), fg="yellow"))
    return lines + reason_lines(graded.reason, tr)


def reason_lines(reason: str | None, tr: Translator) -> list[str]:
    """The reason under the ranking: ``Why: ...`` and any further line (the answer's), wrapped to 80 cells."""
    if not reason:
        return []
    first, *rest = reason.split("\n")
    return [wrap(tr("train.reason", reason=first), 80)] + [wrap(line, 80) for line in rest]


def _same(cmd: str, mine: str, graded: Graded) -> bool:
    """Whether a ranking row is the answer's (a keep of all five is the row that scores in the best box)."""
    a = graded.answer
    if cmd == mine:
        return True
    return a.box is None and len(a.keep or ()) == 5 and cmd.startswith("s ")


def _answer(line: str, state: GameState, tr: Translator) -> Answer | None:
    """The Answer typed, or None for q; raises PromptError for anything else."""
    cmd = parse_command(line, state, tr)
    if cmd.verb == "quit":
        return None
    if cmd.verb == "hold":
        held = cast("tuple[bool, ...]", cmd.arg)  # parse_command gives hold flags
        return Answer(keep=tuple(sorted(d for d, h in zip(state.dice or (), held) if h)))
    if cmd.verb == "score":
        return Answer(box=int(cast(int, cmd.arg)))  # parse_command gives a box index
    if cmd.verb == "help":
        raise PromptError("train.help")
    if cmd.verb == "redraw":
        raise PromptError("train.ask")
    raise PromptError("train.answer_what", cmd=line.strip())


def _error_text(e: PromptError, tr: Translator, rules: RuleSet) -> str:
    p = dict(e.params)
    if e.key.startswith("problem."):
        return tr.problem(e.key[len("problem."):], p, rules)
    return tr(e.key, **p)


class WhyReason:
    """The trainer's reason hook: the sentence of the reasons (:mod:`yahtzee_solver.strategy.reasons`, the
    figures ``hint --why`` words) for the best option and, for another answer, for that answer too.

    Called as ``reason(position, answer, lang)`` (:func:`~yahtzee_solver.analysis.training.grade`).  The
    figures are exact, optimal play afterwards (:func:`~yahtzee_solver.strategy.reasons.option_reasons`,
    on ``advisor``'s table); the words are :func:`yahtzee_solver.tui.why.sentence`'s, in ``lang``.
    A card with one box filled takes about 2 s, the empty card about 6 s (README, ``hint --why``).
    """

    def __init__(self, advisor: Advisor) -> None:
        self.advisor: Advisor = advisor

    def __call__(self, position: Position, answer: Answer, lang: str = "en") -> str | None:
        from ..strategy.reasons import option_reasons
        from .why import sentence

        tr = Translator(lang)
        rules, card, dice, rl = position.card.rules, position.card, position.dice, position.rolls_left

        def key(a: Answer) -> tuple[tuple[int, ...] | int, int]:
            """The option of the reasons and the rolls left it is asked with (a box: scored now)."""
            if a.box is not None:
                return a.box, 0
            assert a.keep is not None  # exactly one of keep and box is set
            return tuple(sorted(a.keep)), rl

        best, mine = key(position.best), key(answer)
        asked = {best[1]: [best[0]]}
        if mine != best:
            asked.setdefault(mine[1], []).append(mine[0])
        found = {r: option_reasons(card, dice, r, opts, table=self.advisor.table) for r, opts in asked.items()}
        why = found[best[1]]
        text = sentence(tr, rules, why.options[best[0]], why.start)
        if mine != best:
            other = found[mine[1]]
            text += "\n" + tr("train.reason_yours", reason=sentence(tr, rules, other.options[mine[0]], other.start))
        return text


class TrainingInterrupted(KeyboardInterrupt):
    """Ctrl-C in :func:`run_training`; ``graded`` holds the answers graded before it (a list of Graded)."""

    def __init__(self, graded: list[Graded]) -> None:
        super().__init__()
        self.graded = graded


def run_training(positions: Sequence[Position], advisor: Advisor, tr: Translator, *,
                 reason: Callable[[Position, Answer, str], str | None] | None = None,
                 read: Callable[[str], str] = ask, echo: Callable[[str], object] = click.echo) -> list[Graded]:
    """Ask ``positions`` one at a time; return the graded answers (fewer if the player quits with q or end of input).

    Raises
    ------
    TrainingInterrupted
        On Ctrl-C (at the prompt, or while an answer is graded), with the answers graded before.

    Parameters
    ----------
    positions : sequence of Position
    advisor : Advisor
        Of the positions' rules.
    tr : Translator
    reason : callable, optional
        The reason hook; default :class:`WhyReason` (the reasons of ``hint --why``;
        :func:`~yahtzee_solver.analysis.training.no_reason` shows none).
    read, echo : callable
        One line from the player (the prompt text in), a line out (injected for tests).
    """
    out: list[Graded] = []
    n = len(positions)
    if reason is None:
        reason = WhyReason(advisor)
    for i, pos in enumerate(positions, start=1):
        state = position_state(pos)
        echo("")
        echo(click.style(tr("train.header", i=i, n=n, kind=tr(f"train.kind.{pos.kind}")), bold=True))
        echo("\n".join(render_board(state, tr)))
        echo("\n".join(render_dice(state, tr)))
        echo(tr("train.ask"))
        while True:
            try:
                line = read(tr("prompt"))
            except (click.Abort, EOFError, KeyboardInterrupt) as e:
                if interrupted(e):
                    raise TrainingInterrupted(out) from None
                return out
            try:
                answer = _answer(line, state, tr)
            except PromptError as e:
                text = _error_text(e, tr, pos.card.rules)
                echo(text if e.key in ("train.help", "train.ask") else click.style(text, fg="red"))
                continue
            break
        if answer is None:
            return out
        # the ranking at once, then the reason (its exact figures take up to seconds on an early card)
        try:
            g = grade(advisor, pos, answer, lang=tr.lang)
            echo("\n".join(ranking_lines(advisor, g, tr)))
            g = dataclasses.replace(g, reason=reason(pos, answer, tr.lang))
        except KeyboardInterrupt:  # this answer is not counted; the ones before are kept
            raise TrainingInterrupted(out) from None
        out.append(g)
        lines = reason_lines(g.reason, tr)
        if lines:
            echo("\n".join(lines))
    return out


def summary_lines(record: SessionRecord | None, tr: Translator) -> list[str]:
    """The end of a session: positions, points lost, the proficiency score and its verdict."""
    if record is None:
        return [tr("train.none_answered")]
    verdict = tr("train.strong") if record.proficiency < STRONG else tr("train.weak")
    return [tr("train.done", n=record.positions, loss=f"{record.total_loss:.2f}",
               score=f"{record.proficiency:.3f}", verdict=verdict)]


def stats_lines(stats: TrainingStats, tr: Translator, last: int = 20) -> list[str]:
    """``train --stats``: a table of the last ``last`` sessions with a bar of each proficiency, and the trend."""
    if not stats.sessions:
        return [tr("stats.none")]
    shown = stats.sessions[-last:]
    first = len(stats.sessions) - len(shown) + 1
    bars = trend_bars([s.proficiency for s in shown], width=24)
    head = [tr("stats.col_n"), tr("stats.col_date"), tr("stats.col_rules"), tr("stats.col_positions"),
            tr("stats.col_score")]
    body = [[str(first + j), s.date[:16].replace("T", " "), s.rules, str(s.positions), f"{s.proficiency:.3f}"]
            for j, s in enumerate(shown)]
    widths = [max(display_width(r[k]) for r in [head] + body) for k in range(len(head))]
    lines = [tr("stats.title", strong=STRONG), ""]
    align = ["<", "<", "<", ">", ">"]
    lines.append("  ".join(pad(h, w, a) for h, w, a in zip(head, widths, align)))
    for row, bar, s in zip(body, bars, shown):
        mark = "*" if s.proficiency < STRONG else " "
        lines.append("  ".join(pad(c, w, a) for c, w, a in zip(row, widths, align)) + f" {mark} {bar}")
    allp = [s.proficiency for s in stats.sessions]
    k = min(5, len(allp))
    lines.append("")
    lines.append(tr("stats.trend", k=k, recent=f"{sum(allp[-k:]) / k:.3f}", n=len(allp),
                    all=f"{sum(allp) / len(allp):.3f}", best=f"{min(allp):.3f}"))
    lines.append(tr("stats.legend", strong=STRONG))
    kinds: dict[str, tuple[float, float]] = {}
    for s in stats.sessions:
        for kind, (n, lost) in s.kinds.items():
            m, t = kinds.get(kind, (0, 0.0))
            kinds[kind] = (m + n, t + lost)
    if kinds:
        ranked = sorted(kinds.items(), key=lambda kv: -kv[1][1] / kv[1][0])
        lines.append(tr("stats.by_kind", kinds=tr.join(
            tr("stats.kind_item", kind=tr(f"train.kind.{k}"), mean=f"{t / n:.3f}", n=n) for k, (n, t) in ranked)))
    return lines
