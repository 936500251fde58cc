"""Exception hierarchy.

Every error the library raises on bad input derives from :class:`YahtzeeError`
and from the matching builtin, so callers may catch either.  Messages are one
lowercase line that quotes the bad value.

``UsageError`` subclasses mean the *input* was wrong (the CLI exits 2);
``TableError`` means a value-table file is missing, corrupt or foreign (exit 1).
"""

from __future__ import annotations

__all__ = [
    "YahtzeeError",
    "UsageError",
    "NothingToResumeError",
    "DiceError",
    "CategoryError",
    "BoxIndexError",
    "OptionError",
    "ScoreCardError",
    "CardRulesError",
    "RuleSetError",
    "IllegalMoveError",
    "TableError",
    "SavedGameError",
    "DataFileError",
]


class YahtzeeError(Exception):
    """Base class of all yahtzee_solver errors.

    Attributes
    ----------
    remedy : str or None
        The end of the message that says what to do, a command to paste among
        it (``rebuild it with: yahtzee-solve build ...``): a front end that
        shortens a long message keeps it whole.
    reason : str or None
        A part of the message quoted from elsewhere (h5py's words, say): what
        such a front end shortens first.
    """

    def __init__(self, *args: object, remedy: str | None = None, reason: str | None = None) -> None:
        super().__init__(*args)
        self.remedy: str | None = remedy
        self.reason: str | None = reason


class UsageError(YahtzeeError, ValueError):
    """The caller passed an invalid value (CLI exit code 2)."""


class NothingToResumeError(UsageError):
    """``--resume`` with no saved game: a usage error (exit code 2), worded the same for ``play`` and ``coach``.

    Parameters
    ----------
    what : str
        The saved thing, e.g. ``"game"`` or ``"coach game"``.
    command : str
        The subcommand that starts one, e.g. ``"play"``.
    """

    def __init__(self, what: str, command: str) -> None:
        super().__init__(f"there is no saved {what} to resume: start one with 'yahtzee-solve {command}'")


class DiceError(UsageError):
    """Dice or a keep that cannot be: a face outside 1-6 or the wrong number of dice."""


class CategoryError(UsageError, KeyError):
    """An unknown or repeated category (box) name.

    Attributes
    ----------
    key : str or None
        For a card's boxes, the key of :data:`yahtzee_solver.card_problems.CARD_PROBLEMS` (as
        :class:`ScoreCardError`'s); ``params`` its fields.
    """

    def __init__(self, message: str, key: str | None = None, params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.params: dict[str, object] = dict(params or {})

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else ""


class BoxIndexError(CategoryError, IndexError):
    """A box index that is not a box of the rule set (negative, too large, not an integer).

    Also an ``IndexError``, which such an index raised before.
    """


class OptionError(UsageError, KeyError):
    """A keep or box asked for that is not one of the position's options (also a ``KeyError``)."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else ""


class ScoreCardError(UsageError):
    """A scorecard that cannot occur: impossible box value, full card, bonus without 50, ...

    Attributes
    ----------
    key : str or None
        For a card's points, the key of :data:`yahtzee_solver.card_problems.CARD_PROBLEMS` (the English
        message); :mod:`yahtzee_solver.i18n` says it in every language as ``card.<key>``.
    params : dict
        The fields of that message.
    """

    def __init__(self, message: str, key: str | None = None, params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.params: dict[str, object] = dict(params or {})


class CardRulesError(ScoreCardError):
    """A card written for another rule set than the one asked for.

    Attributes
    ----------
    card_rules : str
        The rule-set name the card gives (a front end may suggest it).
    """

    def __init__(self, message: str, card_rules: str):
        super().__init__(message)
        self.card_rules = card_rules


class RuleSetError(UsageError):
    """An unknown rule-set name."""


class IllegalMoveError(UsageError):
    """A move the rules forbid in the current position (e.g. a box the Joker rule closes)."""


class TableError(YahtzeeError, OSError):
    """A value table that is missing, truncated, corrupt or built for other rules (exit code 1)."""


class SavedGameError(YahtzeeError, ValueError):
    """A saved game that cannot be restored: foreign, corrupt or inconsistent data."""


class DataFileError(YahtzeeError, OSError):
    """A records or saved-game file that cannot be read or written (CLI exit code 1)."""
