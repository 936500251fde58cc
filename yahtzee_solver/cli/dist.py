"""``yahtzee-solve dist``: the exact distribution of the final score from a position.

Parses the position, asks :func:`yahtzee_solver.strategy.distribution.score_distribution`
and prints the mean, SD, percentiles, ``P(final >= T)`` and a histogram drawn
with Unicode blocks (or ``--json``); ``--plot FILE`` saves a chart with the
optional ``plot`` extra (matplotlib).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..strategy.distribution import PERCENTILES, STRATEGIES, THRESHOLDS, ScoreDistribution
from ..errors import UsageError, YahtzeeError
from ..files import write_atomic
from ..i18n import format_probability
from .options import (QueryTable, RollsLeft, card_option, card_table_rules_option, echo_json, json_option, parse_dice_words,
                      table_option)
from .target_query import stop_interrupted

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ..rules import RuleSet
    from ..state import ScoreCard

__all__ = ["dist", "histogram_lines", "format_distribution", "save_plot", "plot_figure", "plot_title", "write_figure",
           "check_plot_path", "PLOT_FORMATS"]

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
    first total of a few bins.  Probabilities are written as everywhere in
    ``dist`` (:func:`yahtzee_solver.cli.target_query.format_probability`).
    """
    lo, hi = d.percentile(0.1), d.percentile(99.9)
    # the tallest bin holds at least 1/columns of the mass: a label as wide as 50 % or 100 %
    label_width = max(len(format_probability(p)) for p in (0.5, 1.0))
    columns = width - label_width - 2
    w = _bin_width(lo, hi, columns)
    first, last = lo // w, hi // w
    mass = [float(d.pmf[b * w : (b + 1) * w].sum()) for b in range(first, last + 1)]
    top = max(mass) or 1.0
    top_text = format_probability(top)
    levels = [round(m / top * height * 8) for m in mass]
    lines = []
    for row in range(height, 0, -1):
        cells = "".join(_BLOCKS[min(8, max(0, lv - (row - 1) * 8))] for lv in levels)
        label = top_text if row == height else ""
        lines.append(f"{label:>{label_width}} |{cells}".rstrip())
    n = len(mass)
    lines.append(" " * (label_width + 1) + "+" + "-" * n)
    axis = [" "] * (n + 12)
    step = max(1, -(-n // 7))
    for i in range(0, n, step):
        text = str((first + i) * w)
        if all(c == " " for c in axis[i : i + len(text) + 1]):
            axis[i : i + len(text)] = text
    lines.append(" " * (label_width + 2) + "".join(axis).rstrip())
    unit = "1 point" if w == 1 else f"{w} points"
    lines.append(" " * (label_width + 2) + f"final total, one column per {unit}; tallest column {top_text}")
    return lines


def format_distribution(d: ScoreDistribution, header: list[str]) -> str:
    """The text report of ``dist``: header lines, summary, percentiles, tail probabilities, histogram."""
    lo, hi = d.support
    who = {"optimal": "optimal play", "normal": "the normal CPU", "beginner": "the beginner CPU"}[d.strategy]
    lines = list(header)
    lines.append(f"final total with {who} from here (exact distribution):")
    lines.append(f"  mean {d.mean:.4f}   sd {d.sd:.4f}   min {lo}   max {hi}")
    lines.append("  percentile   " + "".join(f"{q:>6}" for q in PERCENTILES))
    lines.append("  total        " + "".join(f"{d.percentile(q):>6}" for q in PERCENTILES))
    probs = [format_probability(d.prob_at_least(t)) for t in THRESHOLDS]
    w = 1 + max(6, *(len(p) for p in probs))  # one space between columns
    lines.append("  T            " + "".join(f"{t:>{w}}" for t in THRESHOLDS))
    lines.append("  P(final>=T)  " + "".join(f"{p:>{w}}" for p in probs))
    lines.append("")
    lines.extend(histogram_lines(d))
    return "\n".join(lines)


def check_plot_path(path: str | os.PathLike[str]) -> Path:
    """Check that a chart can be written to ``path``, before any work is done.

    The file type must be one of :data:`PLOT_FORMATS`, and its folder must
    exist, be a folder and be writable: a missing folder is not created (a
    mistyped name would make one silently).

    Returns
    -------
    Path
        ``path``.

    Raises
    ------
    UsageError
        An empty path, an unsupported file type, or a folder that is missing, is not a folder,
        or is not writable (the message names it).
    """
    text = os.fspath(path)
    if not text.strip():  # Path('') is the current folder '.': say what was given
        raise UsageError(f"invalid plot file {text!r}: empty; want a file name ending in {', '.join(PLOT_FORMATS)}")
    path = Path(text)
    if path.suffix.lower() not in PLOT_FORMATS:
        raise UsageError(f"invalid plot file {text!r}: want a name ending in {', '.join(PLOT_FORMATS)}")
    folder = path.parent
    where = f"cannot write the plot {str(path)!r}"
    if not folder.is_dir():
        existing = folder
        while not os.path.lexists(existing) and existing != existing.parent:
            existing = existing.parent
        if os.path.lexists(existing) and not existing.is_dir():
            raise UsageError(f"{where}: {str(existing)!r} is not a directory")
        raise UsageError(f"{where}: folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{where}: folder {str(folder)!r} is not writable")
    return path


def plot_figure(path: str | os.PathLike[str]) -> Figure:
    """A new matplotlib figure for a chart to be written to ``path``, checked before any work is done.

    The one check of ``dist --plot`` and ``target-curve --plot``: the path
    (:func:`check_plot_path`), then the ``plot`` extra.

    Raises
    ------
    UsageError
        An unsupported file type (:data:`PLOT_FORMATS`), or a folder that
        cannot take the file (:func:`check_plot_path`).
    PlotError
        matplotlib (the ``plot`` extra) is not installed.
    """
    check_plot_path(path)
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotError("--plot needs matplotlib: pip install 'yahtzee-solver[plot]'") from None
    return Figure(figsize=(8, 4.5))


def write_figure(fig: Figure, path: str | os.PathLike[str]) -> Path:
    """Write ``fig`` to ``path`` atomically, as an ordinary file (:func:`yahtzee_solver.files.write_atomic`).

    The folder must exist (:func:`check_plot_path`); it is not created.

    Raises
    ------
    PlotError
        If the file cannot be written.
    """
    suffix = Path(path).suffix.lower()
    return write_atomic(path, lambda tmp: fig.savefig(tmp, format=suffix[1:], bbox_inches="tight"), private=False,
                        make_folders=False,
                        error=lambda reason: PlotError(f"cannot write plot {str(path)!r}: {reason}"))


def save_plot(d: ScoreDistribution, path: str | os.PathLike[str], title: str = "", fig: Figure | None = None) -> Path:
    """Write a bar chart of the distribution to ``path`` (.png, .svg or .pdf), atomically.

    Parameters
    ----------
    d : ScoreDistribution
    path : path-like
    title : str
        The chart's title (lines may be separated by ``\\n``); default: the
        rule set and the strategy.
    fig : matplotlib Figure, optional
        From :func:`plot_figure` (called here if not given).

    Raises
    ------
    UsageError
        An unsupported file type or an unusable folder.
    PlotError
        matplotlib (the ``plot`` extra) is not installed, or the file cannot be written.
    """
    if fig is None:
        fig = plot_figure(path)
    lo, hi = d.percentile(0.05), d.percentile(99.95)
    ax = fig.subplots()
    xs = range(lo, hi + 1)
    ax.bar(xs, [100 * d.pmf[x] for x in xs], width=1.0, color="#3b6ea5")
    ax.axvline(d.mean, color="#c0392b", linewidth=1, label=f"mean {d.mean:.2f} (sd {d.sd:.2f})")
    ax.axvline(d.percentile(50), color="#555555", linewidth=1, linestyle="--", label=f"median {d.percentile(50)}")
    ax.set_xlabel("final total (points)")
    ax.set_ylabel("probability (%)")
    ax.set_title(title or f"{d.rules}: final total, {d.strategy} play", fontsize=10)
    ax.legend()
    return write_figure(fig, path)


def plot_title(d: ScoreDistribution, card: ScoreCard, dice_line: str | None = None) -> str:
    """The chart's title: rule set, strategy, and the position (turn, card total, filled boxes, dice).

    The filled boxes are listed as ``--card`` takes them, wrapped to lines of
    at most 90 characters.
    """
    import textwrap

    n = card.rules.n_categories
    turn = "game over" if card.is_full else f"turn {n - len(card.open_categories) + 1} of {n}"
    lines = [f"{d.rules}: final total, {d.strategy} play from {turn}, card total {card.total}"
             + (f"; {dice_line}" if dice_line else "")]
    filled = card.format().replace(",", ", ")
    lines += textwrap.wrap(f"card {filled}", 90, break_on_hyphens=False) if filled else ["the empty card"]
    return "\n".join(lines)


@click.command()
@click.argument("dice", nargs=-1, metavar="[DICE]")
@card_option
@click.option(
    "--rolls-left",
    "-r",
    type=RollsLeft(0, 2),
    default=None,
    help="With DICE: rerolls still allowed this turn (default 2, right after the first roll).",
)
@card_table_rules_option
@click.option(
    "--strategy",
    type=click.Choice(STRATEGIES + ("expert",), case_sensitive=False),
    default="optimal",
    show_default=True,
    help="Who plays the rest of the game: optimal play, or a CPU level (expert = optimal).",
)
@table_option
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None,
              help="Also save a chart to FILE (.png, .svg or .pdf; needs the plot extra: "
                   "pip install 'yahtzee-solver[plot]').")
@click.option("--progress/--no-progress", default=False, help="Progress bar on stderr.")
@json_option
def dist(dice: tuple[str, ...], card_text: str | None, rolls_left: int | None, rules: RuleSet | None, strategy: str,
         table_path: str | None, plot_path: str | None, progress: bool, as_json: bool) -> None:
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
    from ..dice import format_dice
    from ..strategy.distribution import score_distribution
    from ..state import parse_card
    from .render import _state_dict, describe_card

    q = QueryTable(rules, table_path, [("--card", card_text)])
    rules = q.rules
    card = parse_card(card_text, rules)
    faces = parse_dice_words(dice) if dice else None
    if faces is None and rolls_left is not None:
        raise UsageError("--rolls-left needs the DICE showing (a position inside a turn)")
    if faces is not None and card.is_full:
        raise UsageError("the card is full: there are no dice to play")
    # the file type, the folder and matplotlib are checked before the work (seconds on an early card)
    fig = plot_figure(plot_path) if plot_path is not None else None
    # the chunks of the states reachable from the card are read and checked, not the whole table
    table = q.table() if strategy.lower() in ("optimal", "expert") else None
    rl = (2 if rolls_left is None else rolls_left) if faces is not None else None
    try:
        d = score_distribution(card, rules, dice=faces, rolls_left=rl, strategy=strategy, table=table,
                               progress=progress)
    except KeyboardInterrupt:  # one line and exit 130, as the target DPs' (not click's bare 'Aborted!')
        stop_interrupted("the distribution")
        raise
    dice_line = None
    if faces is not None:
        s = "" if rl == 1 else "s"
        dice_line = f"dice {format_dice(faces)}, {rl if rl else 'no'} roll{s} left"
    if plot_path is not None:
        save_plot(d, plot_path, plot_title(d, card, dice_line), fig=fig)
    if as_json:
        out = {**_state_dict(card), "dice": None if faces is None else format_dice(faces), "rolls_left": rl}
        out.update(d.to_dict())
        if plot_path is not None:
            out["plot"] = str(plot_path)
        echo_json(out)
        return
    header = [describe_card(card)] + ([dice_line] if dice_line else [])
    click.echo(format_distribution(d, header))
    if plot_path is not None:
        click.echo(f"chart written to {plot_path}")
