"""``yahtzee-solve dist``: the exact distribution of the final score from a position.

Parses the position, asks :func:`yahtzee_solver.distribution.score_distribution`
and prints the mean, SD, percentiles, ``P(final >= T)`` and a histogram drawn
with Unicode blocks (or ``--json``); ``--plot FILE`` saves a chart with the
optional ``plot`` extra (matplotlib).
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from ..distribution import PERCENTILES, STRATEGIES, THRESHOLDS, ScoreDistribution
from ..errors import UsageError, YahtzeeError
from ..files import write_atomic
from .options import card_option, echo_json, json_option, resolve_rules, table_option, table_rules_option

__all__ = ["dist", "histogram_lines", "format_distribution", "save_plot", "plot_figure", "write_figure", "PLOT_FORMATS"]

#: File types ``--plot`` writes (by suffix).
PLOT_FORMATS = (".png", ".svg", ".pdf")

#: Block characters for eighths of a cell, empty to full.
_BLOCKS = " ▁▂▃▄▅▆▇█"


class PlotError(YahtzeeError, RuntimeError):
    """The chart cannot be drawn (the plotting extra is missing) or written."""


def _bin_width(lo: int, hi: int, columns: int) -> int:
    for w in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500):
        if (hi // w - lo // w + 1) <= columns:
            return w
    return 1000


def histogram_lines(d: ScoreDistribution, width: int = 78, height: int = 8) -> list[str]:
    """A vertical histogram of the final total in Unicode blocks, at most ``width`` cells wide.

    The bins cover the totals from the 0.1st to the 99.9th percentile (a column
    per bin of 1, 2, 5, 10, 20, ... points); each column is ``height`` rows of
    eighth blocks, scaled to the tallest bin.  Below it: the axis with the
    first total of a few bins.
    """
    lo, hi = d.percentile(0.1), d.percentile(99.9)
    columns = width - 9
    w = _bin_width(lo, hi, columns)
    first, last = lo // w, hi // w
    mass = [float(d.pmf[b * w : (b + 1) * w].sum()) for b in range(first, last + 1)]
    top = max(mass) or 1.0
    levels = [round(m / top * height * 8) for m in mass]
    lines = []
    for row in range(height, 0, -1):
        cells = "".join(_BLOCKS[min(8, max(0, lv - (row - 1) * 8))] for lv in levels)
        label = f"{100 * top:.2f}%" if row == height else ""
        lines.append(f"{label:>7} |{cells}".rstrip())
    n = len(mass)
    lines.append(" " * 8 + "+" + "-" * n)
    axis = [" "] * (n + 12)
    step = max(1, -(-n // 7))
    for i in range(0, n, step):
        text = str((first + i) * w)
        if all(c == " " for c in axis[i : i + len(text) + 1]):
            axis[i : i + len(text)] = text
    lines.append(" " * 9 + "".join(axis).rstrip())
    unit = "1 point" if w == 1 else f"{w} points"
    lines.append(" " * 9 + f"final total, one column per {unit}; tallest column {100 * top:.2f} %")
    return lines


def _pct(p: float) -> str:
    if p == 0.0:
        return "0%"
    if p < 1e-4:
        return f"{100 * p:.0e}%"
    return f"{100 * p:.2f}%"


def format_distribution(d: ScoreDistribution, header: list[str]) -> str:
    """The text report of ``dist``: header lines, summary, percentiles, tail probabilities, histogram."""
    lo, hi = d.support
    who = {"optimal": "optimal play", "normal": "the normal CPU", "beginner": "the beginner CPU"}[d.strategy]
    lines = list(header)
    lines.append(f"final total with {who} from here (exact distribution):")
    lines.append(f"  mean {d.mean:.4f}   sd {d.sd:.4f}   min {lo}   max {hi}")
    lines.append("  percentile   " + "".join(f"{q:>6}" for q in PERCENTILES))
    lines.append("  total        " + "".join(f"{d.percentile(q):>6}" for q in PERCENTILES))
    lines.append("  T            " + "".join(f"{t:>9}" for t in THRESHOLDS))
    lines.append("  P(final>=T)  " + "".join(f"{_pct(d.prob_at_least(t)):>9}" for t in THRESHOLDS))
    lines.append("")
    lines.extend(histogram_lines(d))
    return "\n".join(lines)


def plot_figure(path: str | os.PathLike):
    """A new matplotlib figure for a chart to be written to ``path``, checked before any work is done.

    Raises
    ------
    UsageError
        An unsupported file type (:data:`PLOT_FORMATS`).
    PlotError
        matplotlib (the ``plot`` extra) is not installed.
    """
    suffix = Path(path).suffix.lower()
    if suffix not in PLOT_FORMATS:
        raise UsageError(f"invalid plot file {str(path)!r}: want a name ending in {', '.join(PLOT_FORMATS)}")
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotError("--plot needs matplotlib: pip install 'yahtzee-solver[plot]'") from None
    return Figure(figsize=(8, 4.5))


def write_figure(fig, path: str | os.PathLike) -> Path:
    """Write ``fig`` to ``path`` atomically, as an ordinary file (:func:`yahtzee_solver.files.write_atomic`).

    Raises
    ------
    PlotError
        If the file cannot be written.
    """
    suffix = Path(path).suffix.lower()
    return write_atomic(path, lambda tmp: fig.savefig(tmp, format=suffix[1:], bbox_inches="tight"), private=False,
                        error=lambda reason: PlotError(f"cannot write plot {str(path)!r}: {reason}"))


def save_plot(d: ScoreDistribution, path: str | os.PathLike, title: str = "") -> Path:
    """Write a bar chart of the distribution to ``path`` (.png, .svg or .pdf), atomically.

    Raises
    ------
    UsageError
        An unsupported file type.
    PlotError
        matplotlib (the ``plot`` extra) is not installed, or the file cannot be written.
    """
    fig = plot_figure(path)
    lo, hi = d.percentile(0.05), d.percentile(99.95)
    ax = fig.subplots()
    xs = range(lo, hi + 1)
    ax.bar(xs, [100 * d.pmf[x] for x in xs], width=1.0, color="#3b6ea5")
    ax.axvline(d.mean, color="#c0392b", linewidth=1, label=f"mean {d.mean:.2f} (sd {d.sd:.2f})")
    ax.axvline(d.percentile(50), color="#555555", linewidth=1, linestyle="--", label=f"median {d.percentile(50)}")
    ax.set_xlabel("final total (points)")
    ax.set_ylabel("probability (%)")
    ax.set_title(title or f"{d.rules}: final total, {d.strategy} play")
    ax.legend()
    return write_figure(fig, path)


@click.command()
@click.argument("dice", nargs=-1, metavar="[DICE]")
@card_option
@click.option(
    "--rolls-left",
    "-r",
    type=click.IntRange(0, 2),
    default=None,
    help="With DICE: rerolls still allowed this turn (default 2, right after the first roll).",
)
@table_rules_option
@click.option(
    "--strategy",
    type=click.Choice(STRATEGIES + ("expert",), case_sensitive=False),
    default="optimal",
    show_default=True,
    help="Who plays the rest of the game: optimal play, or a CPU level (expert = optimal).",
)
@table_option
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None,
              help="Also save a chart to FILE (.png or .svg; needs the plot extra: pip install 'yahtzee-solver[plot]').")
@click.option("--progress/--no-progress", default=False, help="Progress bar on stderr.")
@json_option
def dist(dice, card_text, rolls_left, rules, strategy, table_path, plot_path, progress, as_json):
    """Exact distribution of the final score from a position.

    Without DICE the position is the start of a turn on --card; with DICE
    (and --rolls-left) it is inside a turn.  Prints the mean, SD, percentiles,
    P(final >= T) and a histogram; no sampling.

    \b
    Examples:
      yahtzee-solve dist
      yahtzee-solve dist --card sixes=18,fours=12,chance=22,yahtzee=50
      yahtzee-solve dist 22555 --rolls-left 1 --card sixes=18 --plot dist.png
      yahtzee-solve dist --strategy beginner --rules yacht --json
    """
    from ..dice import format_dice, parse_dice
    from ..distribution import score_distribution
    from ..state import parse_card
    from ..table import open_table
    from .query import _state_dict, describe_card

    rules = resolve_rules(rules, table_path)
    card = parse_card(card_text, rules)
    faces = parse_dice(" ".join(dice)) if dice else None
    if faces is None and rolls_left is not None:
        raise UsageError("--rolls-left needs the DICE showing (a position inside a turn)")
    if plot_path is not None and Path(plot_path).suffix.lower() not in PLOT_FORMATS:
        raise UsageError(f"invalid plot file {plot_path!r}: want a name ending in {' or '.join(PLOT_FORMATS)}")
    if faces is not None and card.is_full:
        raise UsageError("the card is full: there are no dice to play")
    # the chunks of the states reachable from the card are read and checked, not the whole table
    table = open_table(rules, table_path) if strategy.lower() in ("optimal", "expert") else None
    rl = (2 if rolls_left is None else rolls_left) if faces is not None else None
    d = score_distribution(card, rules, dice=faces, rolls_left=rl, strategy=strategy, table=table,
                           progress=progress)
    if plot_path is not None:
        save_plot(d, plot_path)
    if as_json:
        out = {**_state_dict(card), "dice": None if faces is None else format_dice(faces), "rolls_left": rl}
        out.update(d.to_dict())
        if plot_path is not None:
            out["plot"] = str(plot_path)
        echo_json(out)
        return
    header = [describe_card(card)]
    if faces is not None:
        s = "" if rl == 1 else "s"
        header.append(f"dice {format_dice(faces)}, {rl if rl else 'no'} roll{s} left")
    click.echo(format_distribution(d, header))
    if plot_path is not None:
        click.echo(f"chart written to {plot_path}")
