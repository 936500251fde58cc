"""``yahtzee-solve coach``: keep score and advise for a game played with real dice.

A thin command: it parses the options, takes the coach's lock (``coach.lock``
in the data folder: one coached game at a time, beside a ``play`` game) and
hands over to the terminal coach (:mod:`yahtzee_solver.tui.coach`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click
from click.core import ParameterSource

from ..errors import UsageError
from ..i18n import LANGS
from .options import no_color, rules_option

if TYPE_CHECKING:
    from ..rules import RuleSet

__all__ = ["coach"]


@click.command()
@rules_option
@click.option("--players", default="You", show_default=True,
              help="The players' names in turn order, separated by commas (e.g. \"Ann,Bob,Chen\").")
@click.option("--lang", type=click.Choice(LANGS, case_sensitive=False), default=None,
              help="Interface language.  Default: the saved game's with --resume, else the locale's, else English.")
@click.option("--auto", is_flag=True, help="Show the advice after every roll.")
@click.option("--quiet", is_flag=True, help="Do not flag mistakes as they happen.")
@click.option("--resume", is_flag=True, help="Continue the saved coach game.")
@click.option("--abandon", is_flag=True, help="Start a new game over an unfinished saved one (which is lost).")
@click.pass_context
def coach(ctx: click.Context, rules: RuleSet, players: str, lang: str | None, auto: bool, quiet: bool,
          resume: bool, abandon: bool) -> None:
    """Keep score and advise for a game played with real dice, every player at the table.

    Type the dice you rolled (12555); k 555 keeps dice, and the next roll is
    typed as the five dice now showing or as the rerolled dice only; s BOX
    scores.  h shows the ranking of play's hint (expected final score) and,
    with two or more players, each option's chance of finishing first, every
    player modelled as expert from their card.  u undoes the last action,
    what-if DICE ranks other dice without changing the game.  The game is
    saved after every action (coach.json in the data folder); finished games
    go to the game history (yahtzee-solve review).  A new game does not
    replace an unfinished saved one without --abandon; a damaged save is
    renamed aside, never overwritten.
    """
    from ..files import data_dir
    from ..i18n import Translator, locale_lang
    from ..play import coach as engine
    from ..play.lock import GameLock
    from ..solver import jit
    from ..strategy.advisor import Advisor
    from ..tui.coach import CoachSession

    no_color(ctx)
    # the advice runs the compiled kernels: a numba setting they cannot start is refused now, before
    # a saved game is read, replaced or saved again, not at the first hint
    jit.started_numba()
    if resume:
        for name in ("rules", "players"):
            if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE:
                raise UsageError(f"--resume continues the saved coach game with its own settings: drop --{name}")
    else:
        names = engine.parse_players(players)
    with GameLock(data_dir() / "coach.lock", holder="the coach in the terminal (yahtzee-solve coach)"):
        if resume:
            game, saved_lang = engine.load()
            lang = lang or saved_lang
        else:
            old, moved = engine.before_new()
            if moved is not None:
                click.echo(click.style(moved, fg="yellow"), err=True)
            if old is not None and not old.is_over() and old.actions and not abandon:
                raise UsageError(f"a coach game is in progress ({', '.join(old.players)}, round {old.round} of "
                                 f"{old.rules.n_categories}): continue it with --resume, or start anew with --abandon")
            game = engine.CoachGame(rules, names)
            lang = lang or locale_lang() or "en"
        tr = Translator(lang.lower())
        engine.save(game, None, tr.lang)
        session = CoachSession(game, tr, Advisor(game.rules), auto=auto, quiet=quiet)
        ctx.exit(session.run())
