"""``yahtzee-solve records``: the player's records per rule set and opponent."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ..files import read_json
from ..i18n import LANGS, Translator, display_width, locale_lang, pad
from ..play.lock import GameLock, GameRunningError
from ..play.records import RecordBook, records_path
from ..rules import get_rules
from ..play.savegame import save_path
from ..tui.prompt import confirm
from ..tui.start import record_pending
from .options import echo_json, json_option, no_color

__all__ = ["records"]


def _settle(tr: Translator, err: bool) -> None:
    """Settle what an earlier ``play`` left (unless a game is running now): record a finished game it
    could not record, and count a game whose save was deleted or fails verification (or whose save
    and ledger were both deleted: the records know of it)."""
    game_file = save_path()
    if not game_file.exists() and not game_file.with_name("ledger.json").exists() and not _records_playing():
        return
    try:
        with GameLock(holder="yahtzee-solve records"):
            record_pending(tr, game_file, err=err)
    except GameRunningError:
        return  # that game records its own result


def _records_playing() -> bool:
    """Whether the records know of a game in progress (a quiet peek: no file is changed)."""
    try:
        data = read_json(records_path())
    except Exception:  # noqa: BLE001 -- a missing or damaged file is reported by the real load
        return False
    return isinstance(data, dict) and data.get("playing") is not None


def _saved_lang() -> str | None:
    """The language of the game in progress, else of the last game filed (a quiet peek: no file is changed)."""
    getters: tuple[tuple[Any, Callable[[Any], Any]], ...] = ((save_path().with_name("ledger.json"), lambda d: (d.get("game") or {}).get("lang")),
                      (records_path(), lambda d: d.get("lang")))
    for path, get in getters:
        try:
            lang = get(read_json(path))
        except Exception:  # noqa: BLE001 -- a missing or damaged file is reported by the real load
            continue
        if lang in LANGS:
            return str(lang)
    return None


_COLUMNS = ("games", "best", "average", "wins", "losses", "draws", "abandoned")


def _table(rows: list[dict[str, Any]], tr: Translator) -> list[str]:
    head = [tr("rec.rules"), tr("rec.opponent")] + [tr(f"rec.{c}") for c in _COLUMNS]
    body = []
    for r in rows:
        solo = r["opponent"] == "solo"
        cells = [tr.title(get_rules(r["rules"])), tr.opponent(r["opponent"])]
        for c in _COLUMNS:
            v = r[c]
            if c == "abandoned" and not solo:
                v = r["forfeits"]  # left unfinished against the CPU: a forfeit, also among the losses
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
@click.option("--lang", type=click.Choice(LANGS, case_sensitive=False), default=None,
              help="Interface language: English, Chinese, Japanese.  Default: the locale's (LC_ALL/LANG "
                   "zh_*, ja_*), else the language of the game in progress or the last game played.")
@click.pass_context
def records(ctx: click.Context, as_json: bool, reset: bool, yes: bool, lang: str | None) -> None:
    """Show your game records: games, best, average, wins, losses, draws.

    Kept per rule set and opponent (solo or a CPU level) in records.json in
    the data folder: $YAHTZEE_SOLVER_HOME when it is set and not empty, else
    the platform's app folder (~/.config/yahtzee-solver on Linux).  An
    unreadable file is reported and moved aside, never silently lost; a
    finished game that an earlier run could not record is recorded first,
    and a saved game that was deleted or fails verification is counted (a
    loss against the CPU).  Practice games (--seed, hints, undo) are shown
    apart; --json marks each row with "practice".
    Set NO_COLOR to turn colours off.
    """
    no_color(ctx)
    tr = Translator(lang.lower() if lang else (locale_lang(None) or _saved_lang() or "en"))
    path = records_path()
    _settle(tr, err=as_json)
    book = RecordBook.load(path)
    if book.problem:
        click.echo(click.style(tr("warn.records", detail=book.problem), fg="yellow"), err=True)
    if reset:
        n = len(book.records) + len(book.practice)
        if n and (yes or confirm(tr, tr("rec.reset_confirm", path=str(path)))):
            book.clear()
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
    unaided = [r for r in rows if not r["practice"]]
    practice = [r for r in rows if r["practice"]]
    if unaided:
        click.echo("\n".join(_table(unaided, tr)))
    if practice:
        if unaided:
            click.echo()
        click.echo(click.style(tr("rec.practice_title"), bold=True))
        click.echo("\n".join(_table(practice, tr)))
