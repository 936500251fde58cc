"""Before and around a session of the terminal game: settle what an earlier run left, start or resume a game.

The rules themselves (what is counted, verified, practice) are
:mod:`yahtzee_solver.play.session`'s, shared with the web page; this module adds
the terminal's questions and messages.

* :func:`open_saved_game` -- file a finished game an earlier run could not
  record; count a game whose save was deleted or fails verification (a loss
  against the CPU, abandoned in solitaire);
* :func:`start_game` -- the game to play: the verified saved one, or a new one
  with a secret seed (:func:`~yahtzee_solver.play.session.fresh_seed`); a chosen seed makes it practice;
* :func:`play_game` -- the ``play`` command's whole run, under the data
  folder's lock, in the game's language.
"""

from __future__ import annotations

import os
import shutil
from typing import TYPE_CHECKING, Any

import click

from ..errors import DataFileError, NothingToResumeError
from ..rules import RuleSet
from ..game import CPU, HUMAN
from ..i18n import LANGS, Translator, display_width, locale_lang, wrap
from ..play.lock import GameLock
from ..play.savegame import GameStore
from ..play.session import begin_game, make_game, settle, settle_notes
from .board import player_name
from .prompt import INTERRUPTED, confirm, interrupted
from . import session as tui_session
from .session import Session

if TYPE_CHECKING:
    from ..game import GameState
    from ..play.savegame import Opened

_Path = str | os.PathLike[str] | None
_Notices = list[tuple[str, dict[str, Any]]]

__all__ = ["open_saved_game", "record_pending", "start_game", "play_game"]


def _warn(notices: _Notices, text: str) -> None:
    notices.append((text, {"fg": "yellow"}))


def open_saved_game(tr: Translator, store: GameStore, records_file: _Path = None, notices: _Notices | None = None,
                    err: bool = False) -> tuple[GameState | None, Opened]:
    """Settle what an earlier run left in ``store`` (:func:`yahtzee_solver.play.session.settle`); the verified
    unfinished game, if any.

    * a finished game not yet recorded is filed (:func:`~yahtzee_solver.play.records.file_finished_game`);
    * a game whose save was deleted, or fails verification (it is moved
      aside), is counted: a loss against the CPU, abandoned in solitaire
      (:func:`~yahtzee_solver.play.records.file_unfinished_game`).

    Parameters
    ----------
    notices : list, optional
        Where the messages go as ``(text, style)`` (shown under the board);
        ``None`` prints them at once (on stderr if ``err``).

    Returns
    -------
    (GameState or None, Opened)
        The unfinished verified game (or ``None``) and what was found.

    Raises
    ------
    DataFileError
        If a file cannot be read or moved aside, or the records cannot be
        written (a finished game then stays saved: nothing is lost).
    """
    out = [] if notices is None else notices
    settled = settle(store, records_file)
    out += [(text, {"fg": "yellow"} if warning else {}) for text, warning in settle_notes(tr, settled)]
    if notices is None:
        for text, style in out:
            click.echo(click.style(text, **style) if style else text, err=err or bool(style))
    return settled.state, settled.opened


def record_pending(tr: Translator, game_file: _Path = None, records_file: _Path = None, err: bool = False) -> bool:
    """Settle the game an earlier run left behind (see :func:`open_saved_game`), telling the user.

    A verified unfinished game is left as it is (it can be resumed).

    Returns
    -------
    bool
        True when something was filed in the records.
    """
    store = GameStore(game_file)
    state, opened = open_saved_game(tr, store, records_file, err=err)
    return state is None and opened.status != "none"


def _wrapped(question: str, suffix: str) -> str:
    """``question`` wrapped to the terminal's width with room for ``suffix`` on its last line (unchanged
    when not on a terminal, like the game's own messages)."""
    if not tui_session.on_terminal():
        return question
    width = shutil.get_terminal_size((80, 24)).columns - 1
    return wrap(question, max(width - display_width(suffix), 20))


def start_game(tr: Translator, store: GameStore, resume: bool, rules: str | RuleSet, opponent: str, first: str,
               seed: int | None, notices: _Notices, records_file: _Path = None) -> GameState | None:
    """The game to play: the saved one (``--resume``) or a new one; ``None`` if the player keeps the saved game.

    What an earlier run left is settled first (:func:`open_saved_game`).
    ``seed`` ``None`` draws a secret seed (:func:`~yahtzee_solver.play.session.fresh_seed`); a chosen seed
    makes the game practice.  Messages for the first board go to ``notices``.

    Raises
    ------
    UsageError
        ``--resume`` without a saved game.
    DataFileError
        ``--resume`` of a save that fails verification (it is counted and moved aside),
        or a file that cannot be read or written.
    """
    old, opened = open_saved_game(tr, store, records_file, notices)
    if resume:
        if old is None:
            if opened.status == "refused":  # the error line names the problem: no warning saying it too
                same = tr("warn.save", detail=opened.problem)
                for text, style in notices:
                    if text != same:
                        click.echo(click.style(text, **style) if style else text, err=True)
                notices.clear()
                raise DataFileError(opened.problem)
            for text, style in notices:
                click.echo(click.style(text, **style) if style else text, err=bool(style))
            notices.clear()
            raise NothingToResumeError("game", "play")
        if store.lang != tr.lang:
            store.update(lang=tr.lang)
        notices.append((tr("ev.resumed", rules=tr.title(old.rules), round=old.round,
                           turns=old.rules.n_categories), {}))
        return old
    if old is not None:
        for text, style in notices:
            click.echo(click.style(text, **style) if style else text, err=bool(style))
        notices.clear()
        key = "confirm.new_game" if old.config.n_players == 1 else "confirm.new_game_cpu"
        q = tr(key, rules=tr.title(old.rules), opponent=tr.opponent(old.config.opponent_key),
               round=old.round, turns=old.rules.n_categories)
        try:
            keep = not confirm(tr, _wrapped(q, tr("confirm.suffix")))
        except click.Abort:  # end of input or Ctrl-C: no answer is a no, as an empty one
            click.echo()
            keep = True
        if keep:
            click.echo(tr("kept_saved"))
            return None
    state, practice = make_game(rules, opponent, first, seed)
    counted = begin_game(store, state, practice, lang=tr.lang, records_file=records_file)
    if counted is not None and counted[1]:
        _warn(notices, tr("warn.records", detail=counted[1]))
    if practice:
        notices.append((tr("practice.seed"), {"fg": "yellow"}))
    if state.config.n_players == 2:
        key = "ev.first_you" if state.config.first == HUMAN else "ev.first_cpu"
        notices.append((tr(key, player=player_name(state, CPU, tr)), {}))
    return state


def play_game(lang: str | None, *, resume: bool, rules: str | RuleSet, opponent: str, first: str, seed: int | None,
              fast: bool = False, confirm_loss: float | None = None) -> int:
    """Run the ``play`` command's game under the data folder's lock; the exit code: 0, 130 after Ctrl-C
    (the game saved), 1 at the end of input or if the finished game could not be recorded.

    Parameters
    ----------
    lang : str or None
        ``--lang``; ``None``: the saved game's language when resuming, else the
        locale's (:func:`~yahtzee_solver.i18n.locale_lang`).

    Raises
    ------
    GameRunningError
        Another game holds the data folder.
    UsageError
        A game against master (new or resumed) with a numba setting the compiled kernels cannot
        start (:func:`~yahtzee_solver.solver.jit.started_numba`), before anything is changed.
    DataFileError, UsageError
        From :func:`start_game`.
    """
    store = GameStore()
    with GameLock(holder="a game in the terminal (yahtzee-solve play)"):
        saved = store.ledger.read() if resume else None
        if (saved.opponent if saved is not None else opponent).lower() == "master":
            # master's moves need the compiled kernels: a numba setting they cannot start is refused
            # now, before a saved game is abandoned or a new one begun, not at the CPU's first move
            from ..solver import jit

            jit.started_numba()
        if lang is None:
            lang = saved.lang if saved is not None and saved.lang in LANGS else locale_lang()
        tr = Translator(lang or "en")  # locale_lang() with its default is never None
        notices: _Notices = []
        state = start_game(tr, store, resume, rules, opponent, first, seed, notices)
        if state is None:
            return 0
        # --confirm-loss is kept with the game: --resume without it keeps asking as before
        if confirm_loss is not None and confirm_loss != store.confirm_loss:
            store.update(confirm_loss=confirm_loss)
        confirm_loss = store.confirm_loss
        session = Session(state, tr, fast=fast, store=store, notices=notices, confirm_loss=confirm_loss)
        try:
            result = session.run()
        except (click.Abort, KeyboardInterrupt) as e:
            click.echo()
            click.echo(tr("quit.interrupted"), err=True)
            return INTERRUPTED if interrupted(e) else 1
        return 1 if result == "unrecorded" else 0
