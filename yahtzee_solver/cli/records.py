"""``yahtzee-solve records``: the player's records per rule set and opponent."""

from __future__ import annotations

import click

from ..i18n import LANGS, Translator, display_width, pad
from ..lock import GameLock, GameRunningError
from ..records import DataFileError, RecordBook, records_path
from ..rules import get_rules
from ..savegame import save_path
from ..tui.prompt import confirm
from ..tui.session import record_pending
from .options import echo_json, json_option, no_color

__all__ = ["records"]


def _settle(tr: Translator, err: bool) -> None:
    """Record a finished game an earlier ``play`` could not record (unless a game is running now)."""
    game_file = save_path()
    if not game_file.exists():
        return
    try:
        with GameLock():
            record_pending(tr, game_file, err=err)
    except GameRunningError:
        return  # that game records its own result
    except DataFileError as e:
        if not game_file.exists():  # a corrupt save, moved aside: say so and go on
            click.echo(click.style(tr("warn.save", detail=str(e)), fg="yellow"), err=True)
            return
        raise

_COLUMNS = ("games", "best", "average", "wins", "losses", "draws", "abandoned")


def _table(rows: list[dict], tr: Translator) -> list[str]:
    head = [tr("rec.rules"), tr("rec.opponent")] + [tr(f"rec.{c}") for c in _COLUMNS]
    body = []
    for r in rows:
        solo = r["opponent"] == "solo"
        cells = [tr.title(get_rules(r["rules"])), tr.opponent(r["opponent"])]
        for c in _COLUMNS:
            v = r[c]
            if c in ("wins", "losses", "draws") and solo:
                cells.append("-")
            elif v is None:
                cells.append("-")
            elif c == "average":
                cells.append(f"{v:.1f}")
            else:
                cells.append(str(v))
        body.append(cells)
    widths = [max(display_width(row[i]) for row in [head] + body) for i in range(len(head))]
    out = []
    for n, row in enumerate([head] + body):
        text = "  ".join(pad(v, w, "<" if i < 2 else ">") for i, (v, w) in enumerate(zip(row, widths)))
        out.append(click.style(text, bold=True) if n == 0 else text)
    return out


@click.command()
@json_option
@click.option("--reset", is_flag=True, help="Delete all records (asks first).")
@click.option("--yes", "-y", is_flag=True, help="Do not ask before --reset.")
@click.option("--lang", type=click.Choice(LANGS, case_sensitive=False), default="en", show_default=True,
              help="Interface language: English, Chinese, Japanese.")
@click.pass_context
def records(ctx, as_json, reset, yes, lang):
    """Show your game records: games, best, average, wins, losses, draws.

    Kept per rule set and opponent (solo or a CPU level) in records.json in
    the data folder: $YAHTZEE_SOLVER_HOME when it is set and not empty, else
    the platform's app folder (~/.config/yahtzee-solver on Linux).  An
    unreadable file is reported and moved aside, never silently lost; a
    finished game that an earlier run could not record is recorded first.
    Set NO_COLOR to turn colours off.
    """
    no_color(ctx)
    tr = Translator(lang.lower())
    path = records_path()
    _settle(tr, err=as_json)
    book = RecordBook.load(path)
    if book.problem:
        click.echo(click.style(tr("warn.records", detail=book.problem), fg="yellow"), err=True)
    if reset:
        n = len(book.records)
        if n and (yes or confirm(tr, tr("rec.reset_confirm", path=str(path)))):
            book.records.clear()
            book.save()
            key, deleted = "rec.reset_done", n
        else:
            key, deleted = ("rec.reset_kept" if n else "rec.reset_none"), 0
        if as_json:
            echo_json({"path": str(path), "deleted": deleted})
        else:
            click.echo(tr(key))
        return
    rows = book.to_list()
    if as_json:
        echo_json({"path": str(path), "records": rows})
        return
    if not rows:
        click.echo(tr("rec.none"))
        return
    click.echo("\n".join(_table(rows, tr)))
