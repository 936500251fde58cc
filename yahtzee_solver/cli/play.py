"""``yahtzee-solve play``: the terminal game, solitaire or against a CPU level.

A thin command: it parses the options, takes the data folder's lock
(:class:`~yahtzee_solver.play.lock.GameLock`) and hands over to the terminal game
(:mod:`yahtzee_solver.tui`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click
from click.core import ParameterSource

from ..errors import UsageError
from ..game import OPPONENTS
from ..i18n import LANGS
from ..tui.start import play_game
from .options import SEED, NumberRange, no_color, rules_option

if TYPE_CHECKING:
    from ..rules import RuleSet

__all__ = ["play"]


_SETTINGS = ("rules", "opponent", "first", "seed")


@click.command()
@rules_option
@click.option("--vs", "opponent", type=click.Choice(OPPONENTS, case_sensitive=False), default="none",
              show_default=True, help="Play alone or against a CPU level.")
@click.option("--first", type=click.Choice(["me", "cpu", "random"], case_sensitive=False), default="me",
              show_default=True, help="Who plays first against the CPU.")
@click.option("--seed", type=SEED, default=None,
              help="Seed of the dice (same seed, same dice); default: fresh entropy.")
@click.option("--lang", type=click.Choice(LANGS, case_sensitive=False), default=None,
              help="Interface language: English, Chinese, Japanese.  Default: the saved game's language "
                   "with --resume, else the locale's (LC_ALL/LANG zh_*, ja_*), else English.")
@click.option("--resume", is_flag=True, help="Continue the saved game exactly where it stopped.")
@click.option("--fast", is_flag=True, help="No pauses between the CPU's steps.")
@click.option("--confirm-loss", type=NumberRange(0, whole=False), default=None, metavar="POINTS",
              help="Ask before a reroll or a score that loses more than POINTS expected points against the "
                   "best move the game allows (a score while rolls remain is compared with rolling again too; "
                   "the game then counts as practice, as with a hint).  Kept with the saved game: --resume "
                   "asks the same way.")
@click.pass_context
def play(ctx: click.Context, rules: RuleSet, opponent: str, first: str, seed: int | None, lang: str | None,
         resume: bool, fast: bool, confirm_loss: float | None) -> None:
    """Play Yahtzee, Yatzy, Yacht or a Yahtzee variant in the terminal, alone or against the CPU.

    The scorecard shows what the dice would score in every open box; type
    help at the prompt for the commands (r roll, k keep, s score, h hint,
    ? rules, q save and quit).  The game is saved after every action;
    --resume continues it with the same dice, after checking it against the
    records (an edited, deleted or copied-back save is refused, and against
    the CPU counts as a loss).  A game with --seed, hints or an undo is
    practice, recorded apart.  Records: yahtzee-solve records.

    Files: game.json (the game in progress), ledger.json (what the records
    know of it), records.json and game.lock (one game at a time) are kept in $YAHTZEE_SOLVER_HOME when it is set and not
    empty, else in the platform's app folder (~/.config/yahtzee-solver on
    Linux).  Set NO_COLOR to turn colours off.
    """
    no_color(ctx)
    if resume:
        given = [n for n in _SETTINGS if ctx.get_parameter_source(n) is ParameterSource.COMMANDLINE]
        if given:
            flag = {"opponent": "vs"}.get(given[0], given[0])
            raise UsageError(f"--resume continues the saved game with its own settings: drop --{flag}")
    elif opponent.lower() == "none" and ctx.get_parameter_source("first") is ParameterSource.COMMANDLINE:
        raise UsageError(f"--first {first} needs an opponent: add --vs beginner|normal|expert|master")
    code = play_game(lang and lang.lower(), resume=resume, rules=rules, opponent=opponent, first=first,
                     seed=seed, fast=fast, confirm_loss=confirm_loss)
    ctx.exit(code)
