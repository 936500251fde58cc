"""Starting, resuming and settling a game: the rules every front end (terminal, web) lives under.

No input and no output here: the front ends ask their questions and show
the messages (:func:`settle_notes`) their own way.

* :func:`settle` -- what an earlier run left in the data folder
  (:class:`~yahtzee_solver.play.savegame.GameStore`): a verified unfinished game
  is returned to be resumed; a finished game not yet recorded is filed; a
  game whose save was deleted or fails verification (edited, or an older
  copy put back: the save is moved aside) is counted -- a loss against the
  CPU, abandoned in solitaire; a verified unfinished game the records have
  counted already (its save and ledger put back together) is refused the
  same way, the records unchanged (``already``);
* :func:`make_game` -- a new game's position: a secret seed
  (:func:`fresh_seed`), or a chosen one, which makes the game practice;
* :func:`begin_game` -- record the new game in the ledger and save it,
  counting the unfinished game it replaces (a loss against the CPU,
  abandoned in solitaire);
* the game in progress is saved after every action (:func:`save_action`: the
  ledger, the save, and once the records' note of the game in progress),
  made practice by a hint (:meth:`GameStore.update`; :func:`advice_refused`
  says which asks for advice are refused, the game staying unaided) and filed
  when over (:func:`file_finished`: the game history, then the records).

See the README, "What the records count".
"""

from __future__ import annotations

import secrets
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import DataFileError
from ..game import CPU, HUMAN, MAX_ROLLS, GameState, Hold, Roll, cpu_actions, new_game
from .history import add_finished_game
from ..i18n import Translator
from .records import (RecordUpdate, counted_before, file_finished_game, file_unfinished_game, file_vanished_game,
                      game_outcome, note_playing)
from ..rules import RuleSet, get_rules
from .savegame import GameStore, Opened

if TYPE_CHECKING:
    from ..game import Action, Event
    from ..strategy.players import Strategy

_Path = str | os.PathLike[str] | None

__all__ = ["Settled", "Filed", "settle", "settle_notes", "file_finished", "fresh_seed", "make_game", "begin_game",
           "save_action", "note_game", "advice_refused", "mark_practice", "player_name", "dice_text", "cpu_steps", "can_undo", "undo_score"]


@dataclass(frozen=True)
class Settled:
    """What :func:`settle` found and did.

    Attributes
    ----------
    opened : Opened
        What :meth:`GameStore.open` found.
    state : GameState or None
        The verified unfinished game, to be resumed.
    counted : str or None
        ``loss`` or ``abandoned`` when a game whose save was deleted or
        refused was counted now (``opened.entry`` says which); ``already``
        when the records had counted that game before (nothing changed);
        ``filed`` when a finished game whose files were both deleted was
        filed from the records' note (``filed_score``).
    finished : GameState or None
        A finished game an earlier run could not record, filed now.
    update : RecordUpdate or None
        Its record.
    records_problem : str or None
        An unreadable records file moved aside while filing.
    ledger_problem : str or None
        An unreadable ledger moved aside.
    filed_score : int or None
        With ``counted`` ``filed``: the final score (points) of a finished game
        whose save and ledger were both deleted before it was filed, filed now
        from the records' note.
    """

    opened: Opened
    state: GameState | None = None
    counted: str | None = None
    finished: GameState | None = None
    update: RecordUpdate | None = None
    records_problem: str | None = None
    ledger_problem: str | None = None
    filed_score: int | None = None


@dataclass(frozen=True)
class Filed:
    """What :func:`file_finished` did with a finished game.

    Attributes
    ----------
    update : RecordUpdate
        The records' new line for the game.
    records_problem : str or None
        An unreadable records file that was moved aside, if any.
    history_number : int or None
        The game's number in the game history (for ``review N``); ``None`` if
        the history could not take it.
    history_problem : str or None
        Why the history could not take the game, or an unreadable history
        file that was moved aside.
    """

    update: RecordUpdate
    records_problem: str | None
    history_number: int | None
    history_problem: str | None


def file_finished(state: GameState, store: GameStore, records_file: _Path = None,
                  history_file: _Path = None) -> Filed:
    """File a finished game: into the game history (for ``review``), then into the records.

    The history comes first and is not essential: if it cannot be written the
    game is still recorded (the reason is returned).  The records then delete
    the saved game (:func:`~yahtzee_solver.play.records.file_finished_game`).
    Filing the same game twice keeps it once in either file.

    Raises
    ------
    DataFileError
        If the records cannot be read or written (the finished game then stays saved).
    """
    number = None
    try:
        number, hist_problem = add_finished_game(state, history_file)
    except DataFileError as e:
        hist_problem = str(e)
    upd, problem = file_finished_game(state, store, records_file)
    return Filed(upd, problem, number, hist_problem)


def settle(store: GameStore, records_file: _Path = None) -> Settled:
    """Settle what an earlier run left in ``store`` (see the module's docstring).

    Parameters
    ----------
    store : GameStore
        The game's files; after the call its entry is the resumable game's, or ``None``.
    records_file : path, optional
        Default :func:`~yahtzee_solver.play.records.records_path`.

    Raises
    ------
    DataFileError
        If a file cannot be read or moved aside, or the records cannot be
        written (a finished game then stays saved: nothing is lost).
    """
    opened = store.open()
    ledger_problem = store.ledger.problem
    if opened.status == "none":  # its save and its ledger both deleted? the records know of it
        how, problem, entry, score = file_vanished_game(records_file)
        if how is not None:
            return Settled(Opened("missing", entry=entry), counted=how, records_problem=problem,
                           ledger_problem=ledger_problem, filed_score=score)
        return Settled(opened, records_problem=problem, ledger_problem=ledger_problem)
    if opened.status in ("missing", "refused") and opened.entry is not None:
        how, problem = file_unfinished_game(opened.entry, store, records_file)
        return Settled(opened, counted=how, records_problem=problem, ledger_problem=ledger_problem)
    if opened.status == "ok" and opened.state is not None and opened.state.is_terminal():
        st = opened.state
        try:
            filed = file_finished(st, store, records_file)
        except DataFileError as e:
            raise DataFileError(f"cannot record the finished game kept in {str(store.game_file)!r}: {e}") from None
        return Settled(opened, finished=st, update=filed.update, records_problem=filed.records_problem,
                       ledger_problem=ledger_problem)
    state = opened.state if opened.status == "ok" else None
    if state is None:
        return Settled(opened, ledger_problem=ledger_problem)
    entry = opened.entry
    assert entry is not None  # a verified game has its ledger entry
    try:
        counted, problem = counted_before(entry, records_file)
    except DataFileError:  # records that cannot be read do not stop the game: note_game says why, as ever
        counted, problem = False, None
    if counted:  # its save and ledger put back after it was counted: set aside, the records unchanged
        opened = store.refuse("its game was already counted in the records: a copy put back")
        how, again = file_unfinished_game(entry, store, records_file)  # "already": only forgets it
        return Settled(opened, counted=how, records_problem=problem or again, ledger_problem=ledger_problem)
    # a resumed game: the records' note brought up to date (a run that stopped after a hint, or while
    # the records could not be written)
    noted = note_game(store, records_file)
    return Settled(opened, state=state, records_problem=problem or noted, ledger_problem=ledger_problem)


def settle_notes(tr: Translator, s: Settled) -> list[tuple[str, bool]]:
    """The messages telling the player what :func:`settle` did, in ``tr``'s language.

    Returns
    -------
    list of (str, bool)
        Each message and whether it is a warning.
    """
    out = []
    if s.ledger_problem:
        out.append((tr("warn.save", detail=s.ledger_problem), True))
    if s.opened.status == "refused":
        out.append((tr("warn.save", detail=s.opened.problem), True))
    if s.records_problem:
        out.append((tr("warn.records", detail=s.records_problem), True))
    if s.counted == "filed":
        e = s.opened.entry
        assert e is not None and s.filed_score is not None  # a filed game has its entry and score
        out.append((tr("end.pending", rules=tr.title(get_rules(e.rules)), opponent=tr.opponent(e.opponent_key),
                       score=s.filed_score), False))
    elif s.counted is not None:
        e = s.opened.entry
        assert e is not None  # a counted game has its entry
        why = tr("why.deleted" if s.opened.status == "missing" else "why.refused")
        out.append((tr(f"settled.{s.counted}", rules=tr.title(get_rules(e.rules)), opponent=tr.opponent(e.opponent_key),
                       why=why), True))
    if s.finished is not None:
        st = s.finished
        out.append((tr("end.pending", rules=tr.title(st.rules), opponent=tr.opponent(st.config.opponent_key),
                       score=st.cards[HUMAN].total), False))
    return out


def fresh_seed() -> int:
    """A new secret root seed for the dice (:mod:`secrets`, 64 bits)."""
    return secrets.randbits(64)


def make_game(rules: str | RuleSet, opponent: str, first: str, seed: int | None) -> tuple[GameState, tuple[str, ...]]:
    """A new game's position, and why it is practice (``("seed",)`` when ``seed`` is chosen, else empty).

    Nothing is written: call :func:`begin_game` to start it.

    Parameters
    ----------
    rules, opponent, first : str
        As :func:`~yahtzee_solver.game.new_game` (case-insensitive opponent and first).
    seed : int or None
        ``None`` draws a secret seed (:func:`fresh_seed`).

    Raises
    ------
    YahtzeeError
        For unknown rules, opponent or first player, or a bad seed.
    """
    chosen = seed is not None
    state = new_game(rules, opponent.lower(), first.lower(), seed if chosen else fresh_seed())
    return state, ("seed",) if chosen else ()


def begin_game(store: GameStore, state: GameState, practice: tuple[str, ...] = (), *, lang: str = "en",
               records_file: _Path = None) -> tuple[str, str | None] | None:
    """Start ``state`` (from :func:`make_game`) in ``store``, counting the unfinished game it replaces.

    Returns
    -------
    (str, str or None) or None
        For a replaced unfinished game: how it was counted (``loss`` against
        the CPU, ``abandoned`` in solitaire, ``already`` if the records had
        counted it before) and the records' problem, if any.

    Raises
    ------
    DataFileError
        If the records, the ledger or the save cannot be written.
    """
    counted = None
    if store.entry is not None:
        counted = file_unfinished_game(store.entry, store, records_file)
    store.begin(state, lang=lang, practice=practice)
    return counted


def save_action(store: GameStore, state: GameState, records_file: _Path = None) -> str | None:
    """Save ``state`` after an action (:meth:`GameStore.save`), and tell the records of the game.

    After the game's first recorded action, and again once it has become
    practice, the records note the game in progress
    (:func:`~yahtzee_solver.play.records.note_playing`), so deleting its save
    and its ledger together still counts it at the next :func:`settle`.

    Returns
    -------
    str or None
        A records problem to show as a warning (:func:`note_game`).

    Raises
    ------
    DataFileError
        If the ledger or the save cannot be written (the files are left as
        :meth:`GameStore.save` says).
    """
    store.save(state)
    # a finished game's score goes into the note: deleting both files now still files it
    final = (state.cards[HUMAN].total, game_outcome(state)) if state.is_terminal() else None
    return note_game(store, records_file, final)


def note_game(store: GameStore, records_file: _Path = None, final: tuple[int, str | None] | None = None) -> str | None:
    """The records' half of :func:`save_action`: note the game in progress once it has an action,
    again once it is practice, and with ``final`` (score, outcome) once it is over (nothing is read
    or written otherwise).

    The note is not essential to the game in progress (its save and ledger are
    written): records that cannot be written are reported once, tried again
    after each action, and the game goes on (its result is kept until they
    can be written, as ever).

    Returns
    -------
    str or None
        A problem to show as a warning: an unreadable records file found and
        moved aside, or records that cannot be read or written.
    """
    e = store.entry
    if e is None or e.counter == 0 or store.noted == (e.game_id, e.practice, final):
        return None
    try:
        problem = note_playing(e, records_file, final)
    except DataFileError as err:  # tried again after the next action; said once
        said, store.note_problem = store.note_problem, str(err)
        return None if said == store.note_problem else store.note_problem
    store.noted, store.note_problem = (e.game_id, e.practice, final), None
    return problem


#: The kinds of advice a player can ask for during a game: the ranked options (the terminal's ``h``, the
#: page's Hint) and their reasons (``why``, the page's Why).  Either one given makes the game practice.
ADVICE = ("hint", "why")


def advice_refused(state: GameState, kind: str) -> str | None:
    """Why advice of ``kind`` (one of :data:`ADVICE`) is refused at ``state``, or ``None`` when it is given.

    The one rule both front ends follow before a hint makes the game practice
    (:func:`mark_practice`): a refused ask leaves the game unaided.

    * ``"no_dice"``: the reasons (``why``) before the turn's first roll -- they
      are about the dice showing, and there are none;
    * a hint before the first roll is given: the expected final score from the
      card (and, against the CPU, the chance of winning), and it counts as a hint.

    Whose turn it is and whether the game is over are the front ends' own checks
    (the terminal only asks on the player's turn).
    """
    if kind not in ADVICE:
        raise ValueError(f"unknown kind of advice {kind!r} (expected one of {', '.join(ADVICE)})")
    if kind == "why" and state.dice is None:
        return "no_dice"
    return None


def mark_practice(store: GameStore, reason: str, records_file: _Path = None) -> str | None:
    """Make the game practice for ``reason`` (:meth:`GameStore.update`), and tell the records' note at once.

    A process killed right after a hint leaves a note that already says practice.

    Returns
    -------
    str or None
        :func:`note_game`'s warning: records that could not be read or written, or were moved aside.

    Raises
    ------
    DataFileError
        If the ledger cannot be written (the game is then not practice on disk either).
    """
    store.update(practice=reason)
    return note_game(store, records_file)


# -- telling the CPU's turn, for both front ends ----------------------------------------------------
def player_name(state: GameState, p: int, tr: Translator) -> str:
    """``you`` or ``CPU (level)`` in the player's language."""
    return tr("you") if p == HUMAN else tr("cpu", level=tr.level(state.config.opponent))


def dice_text(dice: Iterable[int]) -> str:
    """``dice`` as ``"5 6 5 6 4"``."""
    return " ".join(str(d) for d in dice)


def cpu_steps(state: GameState, strategy: Strategy, act: Callable[[Action], Event],
              tr: Translator) -> Iterator[tuple[Event, list[str]]]:
    """Play the CPU's next step (:func:`~yahtzee_solver.game.cpu_actions`) and tell it.

    Parameters
    ----------
    state : GameState
        The game, the CPU to move.
    strategy : Strategy
        The CPU's player.
    act : callable
        The front end's way to apply an action (it saves the game); returns the event.
    tr : Translator

    Yields
    ------
    (Event, list of str)
        Each roll or score, with the lines that tell it (what the CPU kept and
        rolled); a score's lines are empty: each front end shows a score its own way.
    """
    who = player_name(state, CPU, tr)
    for action in cpu_actions(state, strategy):
        if isinstance(action, Hold):  # told with the reroll it prepares (a keep may also be left unchanged)
            act(action)
            continue
        lines = []
        if isinstance(action, Roll) and state.rolls_used:
            assert state.dice is not None  # rolled this turn
            kept = sorted(d for d, h in zip(state.dice, state.held) if h)
            rest = sorted(d for d, h in zip(state.dice, state.held) if not h)
            if kept:
                lines.append(tr("ev.cpu_keeps", player=who, keep=dice_text(kept), reroll=dice_text(rest)))
            else:
                lines.append(tr("ev.cpu_keeps_none", player=who))
        ev = act(action)
        if ev.kind == "roll":
            lines.append(tr("ev.cpu_rolls", player=who, dice=dice_text(ev.dice), n=ev.roll, max=MAX_ROLLS))
        yield ev, lines


def can_undo(state: GameState, before: GameState | None) -> bool:
    """Whether the player's last score can be taken back (the terminal's ``u``, the page's Undo).

    Only in solitaire, with a score the last thing that happened (no roll
    since) and the game before that score kept by the front end (``before``,
    a :meth:`~yahtzee_solver.game.GameState.clone` made just before scoring:
    a score draws no dice, so its generators are still current).
    """
    last = state.log[-1] if state.log else None
    return (before is not None and state.config.n_players == 1 and last is not None and last.kind == "score"
            and not state.rolls_used)


def undo_score(store: GameStore, state: GameState, before: GameState,
               records_file: _Path = None) -> tuple[GameState, Event, bool]:
    """Take back the last score (:func:`can_undo` must hold): the game becomes practice (``"undo"``)
    and ``before`` the saved game.

    Returns
    -------
    (GameState, Event, bool)
        The game to play on (``before``), the score taken back, and whether this undo is what made
        the game practice (the front end says so once).

    Raises
    ------
    DataFileError
        When the save or the ledger cannot be written.
    """
    last = state.log[-1]
    first = "undo" not in store.practice
    if first:
        store.update(practice="undo")
    save_action(store, before, records_file)  # the records' note is practice now (a problem is retried)
    return before, last, first
