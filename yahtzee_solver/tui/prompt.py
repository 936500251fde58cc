"""What the player types: the prompt commands, parsed and checked against the position.

Commands at the prompt (also listed by ``help``)::

    r            roll (the first roll of a turn rolls all five, then the dice not kept)
    k a c d      keep / release the dice at positions a, c and d (the letters above the dice)
    k 225        keep exactly a 2, a 2 and a 5;  k 6 keeps one 6;  k - releases all
    s <box>      score in a box (number, name, alias such as fh / 3k, or local name)
    h            hint: the best keep or box, the command to type and its expected final score
    ?            the rules, page by page
    u            undo the last score (solo, before the next roll: the game becomes practice)
    history      the turns played so far, the CPU's included
    q            save and quit
    help         the list of commands

:func:`parse_command` only parses (no I/O); :func:`confirm` asks a yes/no question.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

import click

from ..dice import ascii_width, format_dice
from ..errors import CategoryError, IllegalMoveError
from ..game import N_DICE, GameState, Hold, Roll, Score, positions_of
from ..i18n import Translator
from ..play.session import dice_text

__all__ = ["Command", "PromptError", "parse_command", "normalize", "POSITIONS", "keep_command", "dice_text", "confirm", "ask",
           "INTERRUPTED", "interrupted"]


# -- commands ------------------------------------------------------------------------------
class PromptError(Exception):
    """A command that cannot be carried out: a message key of :mod:`yahtzee_solver.i18n.text` and its fields."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        # What the player typed is echoed in the message: at most ECHO_LIMIT characters of it.
        self.params: dict[str, object] = {k: _clip_echo(v) if isinstance(v, str) else v for k, v in params.items()}


#: Longest piece of the player's input echoed back in an error message (characters).
ECHO_LIMIT = 24


def _clip_echo(text: str) -> str:
    """``text`` cut to :data:`ECHO_LIMIT` characters, readable: bytes typed that are not UTF-8 (read as
    surrogate escapes, ``\\udcff``) and any other lone surrogate shown as the replacement character ``\ufffd``."""
    text = text if len(text) <= ECHO_LIMIT else text[: ECHO_LIMIT - 1] + "…"
    try:
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a surrogate that stands for no byte
        pass
    return re.sub("[\ud800-\udfff]", "\ufffd", text)


@dataclass(frozen=True)
class Command:
    """A parsed prompt command: ``verb`` (roll, hold, score, hint, why, rules, quit, help, redraw) and its argument."""

    verb: str
    arg: object = None


_VERBS = {
    "r": "roll", "roll": "roll",
    "k": "hold", "keep": "hold",
    "s": "score", "score": "score",
    "h": "hint", "hint": "hint",
    "why": "why",
    "?": "rules", "rules": "rules",
    "q": "quit", "quit": "quit",
    "u": "undo", "undo": "undo",
    "history": "history",
    "help": "help",
}
_NO_ARGS = {"roll", "hint", "why", "rules", "quit", "help", "undo", "history"}


def normalize(text: str) -> str:
    """What the player typed, in the form the commands are parsed in.

    Unicode NFKC folds full-width letters, digits and spaces typed with a
    Chinese or Japanese input method (``ｒ``, ``ｓ　９``, ``k １``) into ASCII;
    the ideographic comma ``、`` (which NFKC keeps) becomes a comma like ``，``.
    """
    return unicodedata.normalize("NFKC", text).replace("\u3001", ",")


def parse_command(text: str, state: GameState, tr: Translator) -> Command:
    """Turn a line typed at the prompt into a :class:`Command`, checking it against the position.

    The line is first :func:`normalize`-d.

    Raises
    ------
    PromptError
        For an unknown command, bad dice or box, or a move the rules do not allow now.
    """
    line = normalize(text).strip()
    if not line:
        return Command("redraw")
    word, rest = (re.split(r"\s+", line, maxsplit=1) + [""])[:2]
    low = word.lower()
    if low not in _VERBS:
        m = re.fullmatch(r"([ks])([0-9=\-].*)", low)
        if m is None:
            raise PromptError("err.unknown_command", cmd=word)
        low, rest = m.group(1), m.group(2) + " " + rest
    verb = _VERBS[low]
    rest = rest.strip()
    if verb in _NO_ARGS:
        if rest:
            raise PromptError("err.no_args", cmd=word)
        if verb == "roll":
            _check(state, Roll())
        return Command(verb)
    if verb == "hold":
        return Command("hold", _parse_hold(rest, state))
    return Command("score", _parse_box(rest, state, tr))


def _check(state: GameState, action: Roll | Hold | Score) -> None:
    why = state.problem(action)
    if why is not None:
        raise PromptError("problem." + why[0], **why[1])


#: Dice positions as typed and shown above the dice: letters, so that they never look like faces.
POSITIONS = "abcde"


#: The words ``k`` takes for keeping none: ``-`` is also how an empty keep is written (the trainer's
#: ``k -``, its JSON's none, :func:`~yahtzee_solver.dice.format_dice`).  The web trainer reads them too.
KEEP_NONE = ("-", "none")


def keeps_none(text: str) -> bool:
    """Whether ``text`` (a keep as typed, blanks and case aside) is one of :data:`KEEP_NONE`."""
    return ascii_width(text).strip().lower() in KEEP_NONE


def _parse_hold(text: str, state: GameState) -> tuple[bool, ...]:
    """Hold flags for ``k TEXT``: letters a-e toggle dice by position, digits 1-6 keep exactly those faces."""
    _check(state, Hold((False,) * N_DICE))
    text = text.lower()
    if not text:
        raise PromptError("err.keep_what")
    if keeps_none(text):
        return (False,) * N_DICE
    chars = re.sub(r"[\s,]+", "", text[1:] if text.startswith("=") else text)
    if not chars:
        raise PromptError("err.keep_what")
    letters = [ch for ch in chars if ch in POSITIONS]
    digits = [ch for ch in chars if _ascii_digit(ch)]
    if letters and digits and len(letters) + len(digits) == len(chars):
        raise PromptError("err.mixed_keep", text=text)
    by_face = text.startswith("=")
    for ch in chars:  # name the first character that is neither a position (a-e) nor a face (1-6)
        if (ch in POSITIONS and not by_face) or (_ascii_digit(ch) and 1 <= int(ch) <= 6):
            continue
        if ch.isalpha():
            raise PromptError("err.bad_position", pos=ch)
        raise PromptError("err.bad_face", face=ch)
    if len(letters) == len(chars) and not by_face:
        held = list(state.held)
        seen = set()
        for ch in chars:
            if ch in seen:
                raise PromptError("err.repeated_position", pos=ch)
            seen.add(ch)
            i = POSITIONS.index(ch)
            held[i] = not held[i]
        return tuple(held)
    faces = [int(ch) for ch in chars]  # all faces 1-6 here: letters with digits were refused above
    assert state.dice is not None  # a keep is asked for after a roll
    try:
        return positions_of(state.dice, faces, state.held)
    except IllegalMoveError:
        raise PromptError("err.no_such_dice", faces=format_dice(faces), dice=dice_text(state.dice)) from None


def _parse_box(text: str, state: GameState, tr: Translator) -> int:
    rules = state.rules
    if not text:
        raise PromptError("err.score_what")
    c = None
    if _ascii_digit(text):
        if len(text) <= 3 and 1 <= int(text) <= rules.n_categories:  # no int() of thousands of digits
            c = int(text) - 1
    else:
        c = tr.box_index(rules, text)
        if c is None:
            try:
                c = rules.category_index(text)
            except CategoryError:
                c = None
    if c is None:
        raise PromptError("err.unknown_box", box=text, n=rules.n_categories, example="fh")
    _check(state, Score(c))
    return c


def _ascii_digit(text: str) -> bool:
    """Only 0-9 (``str.isdigit`` also takes ``٣`` or ``３``, which dice input refuses)."""
    return text.isascii() and text.isdigit()


def keep_command(keep: Iterable[int]) -> str:
    """The prompt command that keeps exactly the faces ``keep`` (sorted multiset).

    ``k 44`` (faces; positions are letters, so ``k 4`` keeps one 4), ``k -`` for none.
    """
    faces = "".join(str(int(f)) for f in keep)
    return f"k {faces}" if faces else "k -"


def ask(text: str) -> str:
    """One line from the player, :func:`normalize`-d (``click.Abort`` on end of input or Ctrl-C: see :func:`interrupted`)."""
    return normalize(click.prompt(text, default="", show_default=False, prompt_suffix=""))


#: Exit status after Ctrl-C (128 + SIGINT), the command line's convention (:mod:`yahtzee_solver.cli`).
INTERRUPTED = 130


def interrupted(e: BaseException) -> bool:
    """Whether ``e`` -- a ``click.Abort`` from :func:`ask`, or a ``KeyboardInterrupt`` -- is Ctrl-C, not the end
    of input (click raises its ``Abort`` while handling the ``KeyboardInterrupt`` or ``EOFError``)."""
    return isinstance(e, KeyboardInterrupt) or isinstance(e.__context__, KeyboardInterrupt) \
        or isinstance(e.__cause__, KeyboardInterrupt)


def confirm(tr: Translator, text: str) -> bool:
    """Ask a yes/no question until answered (empty answer or ``q`` = no; y/n or the language's words, see
    :meth:`Translator.yes_no <yahtzee_solver.i18n.Translator.yes_no>`)."""
    while True:
        line = ask(text + tr("confirm.suffix"))
        if line.strip().lower() in ("q", "quit"):
            return False
        ans = tr.yes_no(line)
        if ans is not None:
            return ans
        click.echo(click.style(tr("confirm.again"), fg="red"))
