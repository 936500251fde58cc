"""``yahtzee-solve match A B --games N``: CPU against CPU, with 95 % intervals.

Thin: parses, calls :func:`yahtzee_solver.analysis.match.play_match`, prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..errors import UsageError
from .options import SEED, NumberRange, echo_json, json_option, rules_option

if TYPE_CHECKING:
    from ..rules import RuleSet

__all__ = ["match"]


def _pct(x: float) -> str:
    return f"{100 * x:.2f} %"



#: Most games one ``match`` plays (a bound on time and memory, as ``simulate``'s).
MAX_GAMES = 100_000_000

@click.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--games", "-n", type=int, default=1000, show_default=True, metavar="N", help=f"Games to play (1 to {MAX_GAMES:,}).")
@rules_option
@click.option("--seed", type=SEED, default=None, help="Seed of the dice (printed when not given).")
@click.option("--max-open", type=NumberRange(1, 13), default=5, show_default=True, metavar="K",
              help="master plays the win DP once at most K of its boxes are open (the expert's move before).")
@click.option("--no-progress", is_flag=True, help="Hide the progress bar.")
@json_option
def match(a: str, b: str, games: int, rules: RuleSet, seed: int | None, max_open: int, no_progress: bool,
          as_json: bool) -> None:
    """Play CPU level A against CPU level B (beginner, normal, expert, master), alternating who starts.

    \b
    Prints A's wins, draws and losses with 95 % (Wilson) intervals, A's share
    of the decided games, and each side's mean score.  Pairs of games share
    their dice with the seats swapped.

    \b
    Example:
      yahtzee-solve match master expert --games 40000 --seed 1
    """
    from ..analysis.match import MATCH_LEVELS, play_match

    for lvl in (a, b):
        if lvl.lower() not in MATCH_LEVELS:
            raise UsageError(f"unknown level {lvl!r} (choose from {', '.join(MATCH_LEVELS)})")
    if not 1 <= games <= MAX_GAMES:
        raise UsageError(f"invalid number of games {games}: want 1 to {MAX_GAMES:,}")
    bar = None
    if not no_progress:
        from tqdm import tqdm

        bar = tqdm(total=games, unit="game", desc=f"{a} vs {b}", leave=False, disable=None)  # a terminal only
    try:
        res = play_match(a, b, games, rules, seed=seed, max_open=max_open,
                         progress=None if bar is None else (lambda done: bar.update(1)))
    finally:
        if bar is not None:
            bar.close()
    d = res.to_dict()
    if as_json:
        echo_json(d)
        return
    lo, hi = d["decided_share_ci95"]
    click.echo(f"{res.a} vs {res.b}, {res.rules}, {res.games:,} game{'' if res.games == 1 else 's'}, seed {res.seed} "
               f"({res.seconds:.1f} s, {d['games_per_second'] or 0:.1f} games/s)")
    for name, key in (("wins", "win_rate"), ("draws", "draw_rate"), ("losses", "loss_rate")):
        k = getattr(res, name)
        low, high = d[key + "_ci95"]
        click.echo(f"  {name:<7}{k:>8,}  {_pct(d[key]):>8}  (95 % CI {_pct(low)} .. {_pct(high)})")
    click.echo(f"  {res.a} wins {_pct(res.share)} of the decided games (95 % CI {_pct(lo)} .. {_pct(hi)})")
    click.echo(f"  mean score: {res.a} {d['mean_a']:.2f}, {res.b} {d['mean_b']:.2f}")
