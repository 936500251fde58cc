"""``yahtzee-solve target-curve``: the best achievable P(final >= T) for every target T.

From the empty card, with a rule set whose curve is shipped
(:mod:`yahtzee_solver.analysis.curve_data`, ``data/target-curve-<rules>.json``) and a
``--max`` within it, the shipped columns are read (instant; ``--recompute``
runs the DP instead); a file reaching the most the rule set can score answers
any larger ``--max`` (exact zeros above it).  A missing shipped file is said on
stderr before the DP runs.  A ``--max`` beyond the shipped file takes T up to
the file's maximum from it and solves only the targets above (the same bits
as the whole DP: ``target_curve(..., known=...)``).  Otherwise one DP from the card
(:func:`yahtzee_solver.strategy.objectives.target_curve`), with a progress bar on
stderr.  ``--plot FILE`` draws the curve with matplotlib (the ``plot`` extra:
``pip install 'yahtzee-solver[plot]'``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import sys

import click

from ..strategy.objectives import MAX_TARGET
from .dist import plot_figure, write_figure
from .options import NumberRange, card_option, card_rules_option, echo_json, json_option, resolve_rules
from ..i18n import format_probability
from .target_query import announce_wait, progress_bar, stop_interrupted

if TYPE_CHECKING:
    import numpy as np
    from matplotlib.figure import Figure

    from ..rules import RuleSet
    from ..state import ScoreCard

__all__ = ["target_curve_command"]


def ev_policy_survival(rules: RuleSet, max_target: int, card: ScoreCard, progress: bool = False) -> np.ndarray:
    """P(final >= T) of the expected-score (expert) policy from ``card``, for T = 0..max_target.

    From the policy's exact final-score distribution (:func:`yahtzee_solver.strategy.objectives.opponent_pmf`,
    the engine of :mod:`yahtzee_solver.strategy.distribution`).
    """
    from ..strategy.objectives import opponent_pmf, survival

    return survival(opponent_pmf(rules, card, "expert", progress=progress), max_target)


def _plot(fig: Figure, path: str, rules: RuleSet, probs: np.ndarray, ev: np.ndarray) -> None:
    ax = fig.subplots()
    ax.plot(range(len(probs)), probs, label="best achievable P(final >= T) (target play)")
    if ev is not None:
        ax.plot(range(len(ev)), ev, "--", label="expected-score policy")
    ax.set_xlabel("target T (points)")
    ax.set_ylabel("P(final total >= T)")
    ax.set_title(f"{rules.name}: best probability of reaching a target score")
    ax.grid(alpha=0.3)
    ax.legend()
    write_figure(fig, path)


def _say_why_the_dp_runs(rules: RuleSet, max_target: int) -> np.ndarray | None:
    """One stderr line when a shipped curve was expected for the empty card but cannot answer.

    Returns the shipped ``best`` column when the file exists (it stops short of ``max_target``):
    the DP then solves only the targets above it.
    """
    from ..analysis.curve_data import SHIPPED_RULES, curve_path, load_curve

    if rules.name not in SHIPPED_RULES:
        return None
    path = curve_path(rules)
    if not path.exists():
        click.echo(f"shipped curve {str(path)!r} not found; running the DP (a few minutes)", err=True)
        return None
    curve = load_curve(path, rules)
    top = curve.max_target
    click.echo(f"shipped curve {str(path)!r} covers T up to {top}, not --max {max_target}; "
               f"running the DP for T above {top}", err=True)
    return curve.best


@click.command("target-curve")
@card_rules_option
@click.option("--max", "max_target", type=NumberRange(0, MAX_TARGET), default=700, show_default=True, metavar="T",
              help="Largest target.")
@click.option("--step", type=NumberRange(1), default=10, show_default=True, metavar="N",
              help="Print every N-th target in the text table, and the last (--json lists every target).")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False, writable=True), default=None, metavar="FILE",
              help="Also draw the curve to FILE (.png, .svg or .pdf; needs matplotlib).")
@card_option
@click.option("--recompute", is_flag=True,
              help="Run the DP even where a precomputed curve is shipped (the empty card; minutes).")
@click.option("--no-progress", is_flag=True, help="Hide the progress bar.")
@json_option
def target_curve_command(rules: RuleSet | None, max_target: int, step: int, plot_path: str | None, card_text: str | None,
                         recompute: bool, no_progress: bool, as_json: bool) -> None:
    """Best achievable P(final total >= T) from the empty card (or --card), for every T up to --max.

    \b
    Each target has its own optimal policy (exact DP over the turn-start states
    and the points still needed).  Beside it, P_EV(>=T): the same probability
    under the expected-score policy, from its exact score distribution.  From
    the empty card this solves every state of the game (minutes, with a
    progress bar), so a curve computed once by scripts/target_curve_data.py
    is shipped for the empty card and read instead (--recompute: run the DP).

    \b
    Example:
      yahtzee-solve target-curve --max 700 --plot curve.png
    """
    from ..strategy.objectives import target_curve
    from ..state import parse_card

    rules = resolve_rules(rules, None, [("--card", card_text)])
    card = parse_card(card_text, rules)
    fig = None
    if plot_path is not None:  # the file type and matplotlib are checked before the work
        fig = plot_figure(plot_path)  # checks the folder too (cli.dist.check_plot_path)
    shipped = None
    known = None  # the shipped part of a curve beyond the shipped file
    if not recompute and card.filled == 0:
        from ..analysis.curve_data import shipped_curve
        from ..errors import TableError

        try:
            shipped = shipped_curve(rules, max_target)
        except TableError as e:
            raise TableError(f"{e}; --recompute runs the DP without it") from None
        if shipped is None:
            known = _say_why_the_dp_runs(rules, max_target)
    if shipped is not None:
        probs = shipped.best[: max_target + 1]
        ev = shipped.expected_score_policy[: max_target + 1]
        seconds, n_states = 0.0, shipped.n_states
        source = (f"precomputed by {shipped.command}: {shipped.n_states:,} states in {shipped.seconds:.0f} s; "
                  f"--recompute to run the DP")
        if shipped.padded_from is not None:
            from ..analysis.curve_data import max_final_total

            source += (f"; T above {shipped.padded_from - 1} is exactly 0: no {rules.name} game scores more "
                       f"than {max_final_total(rules)}")
    else:
        update: Callable[[int, int], None] | None
        close: Callable[[], None]
        update, close = (None, lambda: None) if no_progress else progress_bar(f"target curve {rules.name}")
        try:
            if not no_progress:
                from ..strategy.objectives import curve_work

                work = curve_work(rules, max_target, card, 0 if known is None else known.size)
                if work is not None:
                    announce_wait(f"target curve {rules.name} to {max_target}", work)
            if known is None:
                curve = target_curve(rules, max_target, card, progress=update)
            else:
                curve = target_curve(rules, max_target, card, progress=update, known=known)
            close()
            # the distribution's bar only on a terminal, as the DP's (never frames in a log or a pipe)
            ev = ev_policy_survival(rules, max_target, card, progress=not no_progress and sys.stderr.isatty())
        except KeyboardInterrupt:
            close()
            stop_interrupted("the target curve's DP")
            raise
        finally:
            close()
        probs = curve.probabilities
        seconds, n_states = curve.seconds, curve.n_states
        source = f"{n_states:,} turn-start states in {seconds:.1f} s"
        if known is not None:
            source += f" for T above {known.size - 1}; T up to {known.size - 1} read from the shipped curve"
    if plot_path is not None:
        assert fig is not None  # made above with the path
        _plot(fig, plot_path, rules, probs, ev)
    if as_json:
        data = {"rules": rules.name, "card": card.to_dict(), "card_total": card.total, "max_target": max_target,
                "seconds": seconds, "n_states": n_states, "source": "computed" if shipped is None else "precomputed",
                "best": [float(x) for x in probs], "expected_score_policy": [float(x) for x in ev],
                "shipped_up_to": None if known is None else int(known.size - 1)}
        if shipped is not None:
            data["precomputed"] = {"file": shipped.path.name, "command": shipped.command, "seconds": shipped.seconds,
                                   "cpu_seconds": shipped.cpu_seconds, "peak_rss_mib": shipped.peak_rss_mib,
                                   "padded_from": shipped.padded_from}
        echo_json(data)
        return
    where = "the empty card" if card.filled == 0 else f"the card {card.format()} (total {card.total})"
    click.echo(f"{rules.name}: best achievable P(final total >= T) from {where} ({source})")
    head = ["T", "P*(>=T)"] + (["P_EV(>=T)"] if ev is not None else [])
    rows = []
    targets = list(range(0, max_target + 1, step))
    if targets[-1] != max_target:
        targets.append(max_target)  # the last T always has its row
    for T in targets:
        row = [str(T), format_probability(float(probs[T]))]
        if ev is not None:
            row.append(format_probability(float(ev[T])))
        rows.append(row)
    from .render import _render

    click.echo("\n".join(_render(head, rows, set(range(len(head))))))
    if plot_path is not None:
        click.echo(f"plot written to {plot_path}")
