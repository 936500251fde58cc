"""``yahtzee-solve simulate``: play many games with a CPU level and print score statistics."""

from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING

import click

from ..strategy.players import LEVELS
from ..rules import get_rules
from .options import SEED, NumberRange, echo_json, json_option, resolve_rules, table_option, table_rules_option

if TYPE_CHECKING:
    from ..analysis.review import PolicyLosses
    from ..analysis.simulate import SimulationResult
    from ..rules import RuleSet

__all__ = ["simulate", "format_result", "format_losses", "MAX_GAMES", "INTERRUPTED"]

#: Exit status after Ctrl-C (128 + SIGINT, the shell convention).
INTERRUPTED = 130

#: Most games one run may ask for.  Every final score is kept (for the
#: percentiles), about 10 bytes a game while playing and up to about 30 at the
#: summary: some 3 GB of memory at this bound.
MAX_GAMES = 100_000_000


def format_result(res: SimulationResult) -> str:
    """The human-readable summary of a :class:`~yahtzee_solver.analysis.simulate.SimulationResult`."""
    lo, hi = res.ci95
    p = res.percentiles
    rules = get_rules(res.rules)
    y = rules.yahtzee_category
    five_alike = f"{rules.categories[y].slug if y >= 0 else 'five alike'} (50)"
    one = math.isnan(res.sd)  # one game: no sample sd, so no interval
    games = f"{res.games:,} game" + ("" if res.games == 1 else "s")
    lines = [
        f"{res.level} player, rules {res.rules}: {games} (seed {res.seed})"
        + (f", interrupted after {res.games:,} of {res.requested:,}" if res.interrupted else ""),
        f"  mean          {res.mean:8.2f}  " + ("(95% CI n/a: one game)" if one else f"(95% CI {lo:.2f} .. {hi:.2f})"),
        "  sd                 n/a  (one game)" if one else f"  sd            {res.sd:8.2f}",
        "  percentiles   " + "  ".join(f"P{q} {v:g}" for q, v in p.items()),
        f"  min / max     {res.min} / {res.max}",
        f"  upper bonus   {100 * res.upper_bonus_rate:7.2f} %",
        f"  {five_alike:<12}  {100 * res.yahtzee_rate:7.2f} %",
        f"  speed         {res.games_per_second:,.0f} games/s ({res.seconds:.2f} s)",
    ]
    return "\n".join(lines)


def format_losses(loss: PolicyLosses) -> str:
    """Lines for ``--losses``: a :class:`~yahtzee_solver.analysis.review.PolicyLosses` in points."""
    lg, hg = loss.per_game
    return "\n".join([
        f"  expected loss {loss.per_decision:8.3f} points a decision ({loss.decisions:,} decisions)",
        f"                {lg:8.2f} points a game "
        f"({'95% CI n/a: one game' if math.isnan(hg) else f'95% CI +/- {hg:.2f}'}); optimal {loss.start_value:.2f}"
        f" - {lg:.2f} = {loss.start_value - lg:.2f}",
    ])


@click.command()
@click.option(
    "--strategy",
    "level",
    type=click.Choice(LEVELS, case_sensitive=False),
    default="expert",
    show_default=True,
    help="CPU level that plays the games.",
)
@click.option(
    "--games",
    "-n",
    type=NumberRange(1, MAX_GAMES),
    default=10_000,
    show_default=True,
    metavar="N",
    help=f"Number of games, 1 to {MAX_GAMES:,} (every score is kept: about 30 bytes of memory a game).",
)
@table_rules_option
@click.option("--seed", type=SEED, default=None, help="Seed of the dice (default: random, printed).")
@table_option
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr.  Default: shown when stderr is a terminal and --json is not given.")
@click.option("--losses", is_flag=True,
              help="Also value every decision of the same games with the optimal values: the mean expected "
                   "loss per decision and per game, as 'review' reports for a human (slower).")
@json_option
def simulate(level: str, games: int, rules: RuleSet | None, seed: int | None, table_path: str | None,
             progress: bool | None, as_json: bool, losses: bool) -> None:
    """Play N solitaire games (--games N) with a CPU level and print score statistics.

    Reports the mean final score with its 95% confidence interval, the standard
    deviation, percentiles, and how often the upper bonus and a Yahtzee (Yacht:
    a yacht; five alike scored as 50) were made.  Dice come from a seeded generator: the same
    seed gives the same games.  Ctrl-C stops the run and prints the statistics
    of the games finished (exit status 130).

    \b
    Example:
      yahtzee-solve simulate --strategy expert --games 100000 --seed 1
    """
    from ..analysis.simulate import simulate as run
    from ..solver.table import load_table

    if table_path is not None and level.lower() == "expert":  # the file opened once: its rule set and values
        table = load_table(rules, table_path)
        rules = table.rules
    else:
        rules, table = resolve_rules(rules, table_path), None
    if progress is None:
        progress = not as_json and _stderr_is_terminal()
    try:
        res = run(level, games, rules, seed=seed, table=table, progress=progress)
    except KeyboardInterrupt:
        click.echo("Interrupted before the first game finished.", err=True)
        click.get_current_context().exit(INTERRUPTED)
    loss = None
    if losses and not res.interrupted:
        from ..analysis.review import policy_losses

        loss = policy_losses(level, res.games, rules, seed=res.seed, table=table)
    if as_json:
        out = res.to_dict()
        if loss is not None:
            out["expected_loss"] = loss.to_dict()
        echo_json(out)
    else:
        click.echo(format_result(res))
        if loss is not None:
            click.echo(format_losses(loss))
    if res.interrupted and losses:
        click.echo("Expected losses not computed: the run was interrupted.", err=True)
    if res.interrupted:
        click.echo(f"Interrupted: {res.games:,} of {res.requested:,} games played.", err=True)
        click.get_current_context().exit(INTERRUPTED)


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
