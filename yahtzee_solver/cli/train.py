"""``yahtzee-solve train``: answer positions, see what each answer cost, and follow a proficiency score.

The positions and the grading are :mod:`yahtzee_solver.analysis.training`, the loop
:mod:`yahtzee_solver.tui.train`; this command reads the game history for
``--from-history`` and saves each session in ``training.json``.  The advisor runs
the interpreted turn kernel (no numba start-up): a position is graded in about a millisecond.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click
import numpy as np

from ..i18n import LANGS, Translator, locale_lang
from .options import SEED, NumberRange, no_color, rules_option

if TYPE_CHECKING:
    from ..analysis.training import Mistake
    from ..game import Event
    from ..play.history import HistoryEntry
    from ..rules import RuleSet

__all__ = ["train"]


@click.command()
@rules_option
@click.option("--from-history", "from_history", is_flag=True,
              help="Positions like your costliest past decisions in the game history (the same kind of "
                   "decision, at other dice and cards).")
@click.option("--player", "player_name", default=None, metavar="NAME",
              help="With --from-history: only this player's decisions in the coach's games (default: every "
                   "player's, and yours in play's games).")
@click.option("--count", type=NumberRange(1, 200), default=10, show_default=True, help="Positions to answer.")
@click.option("--seed", type=SEED, default=None,
              help="Seed of the positions (same seed, same positions); default: fresh entropy.")
@click.option("--lang", type=click.Choice(LANGS, case_sensitive=False), default=None,
              help="Language: English, Chinese, Japanese.  Default: from LC_ALL/LANG (zh_*, ja_*), else English.")
@click.option("--stats", is_flag=True, help="Show the saved sessions' proficiency scores and their trend instead.")
@click.pass_context
def train(ctx: click.Context, rules: RuleSet, from_history: bool, player_name: str | None, count: int,
          seed: int | None, lang: str | None, stats: bool) -> None:
    """Train on positions: answer with a keep or a box, then see the ranking and what your answer cost.

    Answer as in play: k 225 keeps a 2, a 2 and a 5; k a c keeps the dice at
    positions a and c; k - rerolls all five; s <box> scores now (with rolls
    left too); q ends the session.  The proficiency score of a session is the
    mean expected loss per decision (points), as in Verhoeff's proficiency
    test: under 0.2 is strong play.  Sessions are saved in training.json in
    the data folder ($YAHTZEE_SOLVER_HOME, else the platform's app folder).

    \b
    Examples:
      yahtzee-solve train --count 5
      yahtzee-solve train --from-history --lang ja
      yahtzee-solve train --from-history --player Ann
      yahtzee-solve train --stats
    """
    from ..analysis.training import SessionRecord, TrainingStats, draw_positions, history_mistakes
    from ..errors import UsageError
    from ..strategy.advisor import Advisor
    from ..tui.prompt import INTERRUPTED
    from ..tui.train import TrainingInterrupted, run_training, stats_lines, summary_lines

    no_color(ctx)
    tr = Translator(lang.lower() if lang else locale_lang() or "en")
    src = ctx.get_parameter_source
    if stats:
        given = [n for n in ("from_history", "player_name", "count", "seed")
                 if src(n) is click.core.ParameterSource.COMMANDLINE]
        if given:
            raise UsageError(f"--stats shows the saved sessions: drop --{given[0].replace('_name', '').replace('_', '-')}")
        st = TrainingStats.load()
        if st.problem:
            click.echo(click.style(st.problem, fg="yellow"), err=True)
        click.echo("\n".join(stats_lines(st, tr)))
        return
    if player_name is not None and not from_history:
        raise UsageError("--player chooses whose past decisions --from-history reads: give --from-history too")
    if seed is None:
        entropy = np.random.SeedSequence().entropy
        assert isinstance(entropy, int)  # fresh entropy is one int
        seed = int(entropy % 2**63)
    advisor = Advisor(rules, jit=False)
    mistakes: list[Mistake] = []
    decisions: list[tuple[tuple[Event, ...], int]] = []  # the games of the history read (none: no history yet)
    if from_history:
        from ..play.history import History, HistoryEntry

        h = History.load()
        if h.problem:
            click.echo(click.style(tr("warn.history", detail=tr.history_problem(h.problem)), fg="yellow"), err=True)
        entries = [e for e in h.entries if isinstance(e, HistoryEntry) and e.rules == rules.name]
        decisions = _decisions(entries, player_name)
        mistakes = history_mistakes(decisions, rules, advisor)
    positions = draw_positions(advisor, np.random.default_rng(seed), count, mistakes)
    if mistakes:
        kinds = sorted({m.kind for m in mistakes}, key=lambda k: -sum(m.loss for m in mistakes if m.kind == k))
        click.echo(tr("train.from_history", kinds=tr.join(tr(f"train.kind.{k}") for k in kinds[:3])))
    elif from_history:
        click.echo(tr("train.no_mistakes" if decisions else "train.no_history", rules=tr.title(rules)))
    else:
        click.echo(tr("train.sampled"))
    try:
        graded, stopped = run_training(positions, advisor, tr), False
    except TrainingInterrupted as e:  # Ctrl-C: the answers given are saved as at the end of input, then exit 130
        click.echo("")
        graded, stopped = e.graded, True
    record = None
    if graded:
        record = SessionRecord.of(graded, rules.name, "history" if mistakes else "sampled", seed)
    click.echo("")
    click.echo("\n".join(summary_lines(record, tr)))
    if record is not None:
        st = TrainingStats.load()
        if st.problem:
            click.echo(click.style(st.problem, fg="yellow"), err=True)
        st.add(record)
        click.echo(tr("train.saved"))
    click.echo(tr("train.seed", seed=seed))
    if stopped:
        ctx.exit(INTERRUPTED)


def _decisions(entries: list[HistoryEntry], name: str | None) -> list[tuple[tuple[Event, ...], int]]:
    """The (move log, player) pairs whose decisions ``--from-history`` reads.

    Every player of a coach game (their names are at the table), the player
    of a ``play`` game (not the CPU); with ``name`` only the coach games'
    player of that name (ignoring case).

    Raises
    ------
    UsageError
        For a name no coach game of the history has (one line naming the players it has).
    """
    from ..errors import UsageError

    if name is None:
        return [(e.log, p) for e in entries for p in (range(e.players) if e.is_table else (0,))]
    from ..play.history import player_key

    want = player_key(name)
    out = [(e.log, i) for e in entries if e.names is not None for i, n in enumerate(e.names) if player_key(n) == want]
    if not out:
        known = sorted({n for e in entries if e.names is not None for n in e.names}, key=str.casefold)
        have = f"the players are {', '.join(known)}" if known else "no coach game of these rules is in the history"
        raise UsageError(f"unknown player {name!r}: {have}")
    return out
