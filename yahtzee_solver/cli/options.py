"""Options shared by several commands (decorators) and small output helpers."""

from __future__ import annotations

import json as _json
import math
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from ..dice import N_DICE, ascii_width, parse_dice
from ..errors import CardRulesError, DataFileError, ScoreCardError, UsageError
from ..files import MAX_INT_DIGITS, clip, file_kind
from ..rules import RULESETS, RuleSet, get_rules
from ..solver.table import ValueTable, open_table
from ..state import card_rules

#: Rule set used when neither ``--rules`` nor a ``--table`` or ``--card`` file says otherwise.
DEFAULT_RULES = "yahtzee"

_F = TypeVar("_F", bound=Callable[..., Any])

_RULES_HELP = (
    "Rule set: Yahtzee with forced Joker (official), free Joker, Yahtzee bonus but no Joker, "
    "neither; 12-category Yacht; 15-category Scandinavian Yatzy."
)


class RulesType(click.Choice[str]):
    """``--rules``: one of the rule-set names (any case), converted once to its :class:`RuleSet`.

    Help and errors are those of ``click.Choice`` over :data:`RULESETS`.
    """

    name = "rules"

    def __init__(self) -> None:
        super().__init__(list(RULESETS), case_sensitive=False)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> RuleSet:  # type: ignore[override]
        if isinstance(value, RuleSet):
            return value
        return get_rules(super().convert(value, param, ctx))


RULES = RulesType()

rules_option = click.option(
    "--rules",
    "rules",
    type=RULES,
    default=DEFAULT_RULES,
    show_default=True,
    help=_RULES_HELP,
)


def _rules_from(files: str) -> Callable[[_F], _F]:
    """``--rules`` that is ``None`` when not given, so :func:`resolve_rules` can take the rule set ``files`` name."""
    return click.option("--rules", "rules", type=RULES, default=None,
                        help=f"{_RULES_HELP}  Default: the rule set {files}, else {DEFAULT_RULES}.")


#: ``--rules`` for commands that also take ``--table`` (and no card).
table_rules_option = _rules_from("stored in the --table file")
#: ``--rules`` for commands that take ``--table`` and ``--card``.
card_table_rules_option = _rules_from("stored in the --table file or named by a --card file (they must agree)")
#: ``--rules`` for commands that take ``--card`` but no ``--table``.
card_rules_option = _rules_from("named by a --card file")

json_option = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")



def _regular_file(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse an existing ``--table`` that is not a regular file (reading a fifo would block forever): a file
    problem, exit 1, like a table that cannot be read.  An empty value is a usage error (exit 2): the
    file reader would take it for the current folder."""
    if value is None:
        return None
    if value == "":
        raise click.BadParameter("'' is empty: give the path of a value table file (or leave --table out)",
                                 ctx, param)
    kind = file_kind(value)  # missing: load_table reports it with the command that builds it
    if kind == "folder":
        raise click.ClickException(f"value table {value!r} is a folder, not a file")
    if kind == "special":
        raise click.ClickException(f"value table {value!r} is not a regular file (a device, fifo or socket)")
    return value


table_option = click.option(
    "--table",
    "table_path",
    type=click.Path(),
    default=None,
    callback=_regular_file,
    help="Value table file (default: the one shipped for --rules).",
)

class NumberRange(click.ParamType[Any]):
    """An option's number within a range, refused in plain words: the option, the value as typed, the range.

    Replaces click's ``IntRange`` / ``FloatRange``, whose errors name click's types
    (``'abc' is not a valid integer range``, ``x>=0``) and quote a float back as
    converted (``-1`` as ``-1.0``).  ``whole`` takes whole numbers (an ``int``),
    else any finite decimal number (a ``float``; nan and inf are refused).

    Examples of its errors (after click's ``invalid value for '--seed':``):
    ``'abc' is not a whole number: want 0 or more``,
    ``70000 is not in the range: want 0 to 65535``.
    """

    def __init__(self, lo: float | None = None, hi: float | None = None, *, whole: bool = True) -> None:
        self.lo, self.hi, self.whole = lo, hi, whole
        self.name = "integer" if whole else "number"

    @property
    def range_words(self) -> str:
        """The numbers taken, in words: ``0 to 65535``, ``1 or more``, ``at most 7``, ``any``."""
        def num(x: float) -> str:
            return f"{x:,}" if isinstance(x, int) and abs(x) >= 1_000_000 else f"{x:g}" if isinstance(x, float) else str(x)

        if self.lo is not None and self.hi is not None:
            return f"{num(self.lo)} to {num(self.hi)}"
        if self.lo is not None:
            return f"{num(self.lo)} or more"
        if self.hi is not None:
            return f"at most {num(self.hi)}"
        return "any"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        if self.lo is not None and self.hi is not None:
            return f"[{self.lo}-{self.hi}]"
        return "INTEGER" if self.whole else "NUMBER"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        kind = "a whole number" if self.whole else "a number"
        if isinstance(value, (int, float)) and not isinstance(value, bool):  # a default, not typed
            n: Any = value
            typed = str(value)
        else:
            typed = str(value).strip()
            shown = repr(typed if len(typed) <= 20 else typed[:17] + "...")
            digits = typed[1:] if typed[:1] in "+-" else typed
            if len(digits) > MAX_INT_DIGITS:  # int() would refuse it with advice to Python programmers
                self.fail(f"{shown} is too long for a number ({len(digits):,} characters): want {self.range_words}",
                          param, ctx)
            try:
                n = int(typed) if self.whole else float(typed)
            except ValueError:
                self.fail(f"{shown} is not {kind}: want {self.range_words}", param, ctx)
            if not self.whole and not math.isfinite(n):
                self.fail(f"{shown} is not a finite number: want {self.range_words}", param, ctx)
            typed = typed if len(typed) <= 20 else typed[:17] + "..."
        if (self.lo is not None and n < self.lo) or (self.hi is not None and n > self.hi):
            self.fail(f"{typed} is not in the range: want {self.range_words}", param, ctx)
        return n


class Seed(NumberRange):
    """``--seed`` of every command: a whole number 0 or more of at most
    :data:`~yahtzee_solver.game.MAX_SEED_DIGITS` digits, the web's limit too (one limit,
    :func:`yahtzee_solver.game.seed_too_long`), refused in the web's words
    (:data:`~yahtzee_solver.game.SEED_TOO_LONG`): ``'99999999999999999...' is too long for a seed
    (41 digits): want at most 40 digits``.
    """

    def __init__(self) -> None:
        super().__init__(0)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from ..game import MAX_SEED_DIGITS, SEED_TOO_LONG, seed_too_long  # here: the engine is no start-up cost

        seed = super().convert(value, param, ctx)
        digits = seed_too_long(seed)
        if digits is not None:
            typed = str(value).strip()
            shown = repr(typed if len(typed) <= 20 else typed[:17] + "...")
            self.fail(SEED_TOO_LONG.format(seed=shown, n=digits, most=MAX_SEED_DIGITS), param, ctx)
        return seed


#: The type of every ``--seed``.
SEED = Seed()


class RollsLeft(click.ParamType[int]):
    """``--rolls-left``: rerolls still allowed this turn, ``lo`` to ``hi`` (0 to 2; ``keep`` 1 to 2).

    One line naming the value and the numbers taken, for a word as for a number out of range
    (click's ``IntRange`` says "'two' is not a valid integer range").
    """

    name = "integer"

    def __init__(self, lo: int = 0, hi: int = 2) -> None:
        self.lo, self.hi = lo, hi
        values = [str(v) for v in range(lo, hi + 1)]
        self.values = values[0] if len(values) == 1 else f"{', '.join(values[:-1])} or {values[-1]}"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return f"[{self.lo}-{self.hi}]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            n = value
        else:
            text = str(value).strip()
            digits = text[1:] if text[:1] in "+-" else text
            if not (digits.isascii() and digits.isdigit()) or len(digits) > 4:
                self.fail(f"{str(value)[:20]!r} is not a number of rerolls: want {self.values}", param, ctx)
            n = int(text)
        if not self.lo <= n <= self.hi:
            self.fail(f"{n} is not in the range of rerolls left: want {self.values}", param, ctx)
        return n


def one_card(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> str | None:
    """One card option at most (``--card``, ``win --opponent``): a second one would silently replace the
    first (its boxes are not merged); ``multiple=True`` options give every occurrence here."""
    if len(value) > 1:
        raise click.BadParameter(
            f"given {len(value)} times ({', '.join(repr(v) for v in value)}); "
            "give one card with every filled box, e.g. 'sixes=18,fours=12'", ctx, param)
    return value[0] if value else None


card_option = click.option(
    "--card",
    "-c",
    "card_text",
    metavar="CARD",
    multiple=True,
    callback=one_card,
    help=(
        "Scorecard before this turn's score: filled boxes as box=points pairs, "
        "e.g. 'sixes=18,fours=12,chance=22,yahtzee=50' (aliases such as 6s, 3k, fh, "
        "ss, ls, y, c; yahtzee-bonus=100 for bonuses already earned; Yacht names its "
        "boxes aces, choice, four-dice, yacht; Yatzy adds one-pair (1p) and two-pairs (2p)), "
        "or @FILE.json.  Default: the empty card."
    ),
)


#: A command's cards as given: ``(option, text)`` pairs such as ``("--card", "@mine.json")`` (text ``None``:
#: the option was not given).
Cards = Sequence[tuple[str, str | None]]


@contextmanager
def card_errors(option: str | None) -> Iterator[None]:
    """Errors of the card of ``option`` begin with its name (``--opponent: card file ...``): for a command
    that takes two cards.  ``None``: as they are (one card)."""
    if option is None:
        yield
        return
    try:
        yield
    except DataFileError as e:
        raise DataFileError(f"{option}: {e}") from None
    except CardRulesError as e:
        raise CardRulesError(f"{option}: {e}", e.card_rules) from None
    except UsageError as e:
        raise ScoreCardError(f"{option}: {e}") from None


class QueryTable:
    """The rule set and value table of one query, each resolved once at the command line's edge.

    ``--rules`` arrives as a :class:`RuleSet` (:class:`RulesType`); a ``--table``
    file is opened once, here, to learn its rule set when ``--rules`` is not
    given (and checked against ``--rules`` when it is), and that one opened
    table then serves the whole query.  A card file (or JSON card) that names
    its rule set (:func:`~yahtzee_solver.state.card_rules`) gives the rule set
    when neither does, and must agree with the one they give.  Without
    ``--table`` the shipped table of the rule set is opened on first use
    (:meth:`table`), so a query that fails on its card or dice never reads a table.

    Parameters
    ----------
    rules : RuleSet or None
        ``--rules`` (``None``: not given).
    table_path : str or None
        ``--table``.
    cards : sequence of (str, str or None)
        The command's card options and their text (:data:`Cards`), read here for
        the rule set they name (each is parsed later, with :attr:`rules`).

    Attributes
    ----------
    rules : RuleSet
        ``--rules`` if given, else the ``--table`` file's, else the one a card
        names, else the default.
    path : str or None
        The ``--table`` path.

    Raises
    ------
    TableError
        If an existing ``--table`` file is not a readable value table, or holds
        another rule set than ``--rules``.
    UsageError
        If a card names another rule set than ``--rules``, the ``--table`` file
        or the other card (the message names both).
    ScoreCardError, DataFileError
        If a card file cannot be read or is not a JSON card (as
        :func:`~yahtzee_solver.state.parse_card` says it).
    """

    def __init__(self, rules: RuleSet | None, table_path: str | None, cards: Cards = ()):
        self.path = table_path
        self._table: ValueTable | None = None
        given = None if rules is None else f"--rules is {rules.name!r}"  # what gave the rule set, for a conflict
        if table_path is not None and os.path.lexists(table_path):
            self._table = open_table(rules, table_path)
            rules = self._table.rules
            given = given or f"--table {table_path!r} holds rules {rules.name!r}"
        # a missing --table file is reported by table() with the command that builds it
        for option, text in cards:
            with card_errors(option if len(cards) > 1 else None):
                named = card_rules(text)
            if named is None:
                continue
            assert text is not None  # a card that names rules was given
            this = f"{option} {clip(text.strip(), 80)!r} is for rules {named!r}"
            if rules is None:
                rules, given = get_rules(named), this
            elif named != rules.name:
                raise UsageError(f"{this}, but {given}")
        self.rules: RuleSet = rules if rules is not None else get_rules(DEFAULT_RULES)

    def table(self) -> ValueTable:
        """The query's value table, opened once (values are read chunk by chunk as the query needs them)."""
        if self._table is None:
            self._table = open_table(self.rules, self.path)
        return self._table


def resolve_rules(rules: RuleSet | None, table_path: str | None, cards: Cards = ()) -> RuleSet:
    """The rule set of a command: ``--rules`` if given, else the ``--table`` file's, else the one a card
    names, else the default.

    For a command that does not read the table's values (:class:`QueryTable`
    is for those that do; it says the errors).  An explicit ``--rules`` is
    checked against the file and the cards, a table's rules against the cards.
    """
    return QueryTable(rules, table_path, cards).rules


def parse_dice_words(words: Sequence[str]) -> tuple[int, ...]:
    """The faces of a command's DICE words: one word (``22555``, ``"2 2 5 5 5"``, ``2,2,5,5,5``) or five.

    Words after the first words that hold five dice between them are extra
    arguments and are named as click names them (exit 2), not blamed on the
    dice: ``hint 22555 extra`` and ``hint 2255 5 extra`` are about ``extra``.
    Otherwise the words are read together by :func:`~yahtzee_solver.dice.parse_dice`,
    which also refuses five dice typed over words that are neither one word
    nor five (``2255 5``, ``52 525``).
    """
    end = _five_dice_end(words)
    if end is not None and end < len(words):
        rest, dice = words[end:], " ".join(words[:end])
        plural = "s" if len(rest) > 1 else ""
        raise click.UsageError(f"got unexpected extra argument{plural} ({' '.join(rest)}) after the dice "
                               f"{dice!r}", ctx=click.get_current_context(silent=True))
    return parse_dice(" ".join(words))


def _five_dice_end(words: Sequence[str]) -> int | None:
    """How many of ``words`` it takes to hold five dice (digits, separators aside), or ``None`` when a
    word that is not digits comes first or the digits pass five."""
    count = 0
    for i, word in enumerate(words):
        digits = "".join(ascii_width(word).replace(",", " ").split())
        if not (digits.isascii() and digits.isdigit()):
            return None
        count += len(digits)
        if count >= N_DICE:
            return i + 1 if count == N_DICE else None
    return None


def echo_json(data: Any) -> None:
    """Print ``data`` as indented JSON."""
    click.echo(_json.dumps(data, indent=2, ensure_ascii=False))


def no_color(ctx: click.Context) -> None:
    """Honour ``NO_COLOR`` (https://no-color.org): set and not empty turns colours off for this command."""
    if os.environ.get("NO_COLOR"):
        ctx.color = False


def _target_option(help_text: str) -> Callable[[_F], _F]:
    return click.option("--target", "-t", "target", type=NumberRange(0), default=None, metavar="T",
                        help=help_text)


#: ``--target`` of ``hint``, ``keep`` and ``fill``.
target_option = _target_option(
    "Play to finish with at least T points: rank the options by the exact probability of "
    "reaching T (the expected final total is shown beside).")
#: ``--target`` of ``value`` (a card has no options to rank).
value_target_option = _target_option(
    "Play to finish with at least T points: the best exact probability of reaching T from the card "
    "(the expected final total with expected-score play is shown beside).")
