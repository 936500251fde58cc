"""Options shared by several commands (decorators) and small output helpers."""

from __future__ import annotations

import json as _json
import os
from typing import Any

import click

from ..files import file_kind
from ..rules import RULESETS, RuleSet, get_rules
from ..solver.table import open_table

#: Rule set used when neither ``--rules`` nor a ``--table`` file says otherwise.
DEFAULT_RULES = "yahtzee"

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

#: ``--rules`` for commands that also take ``--table``: ``None`` when not given,
#: so :func:`resolve_rules` can take the rule set stored in the table file.
table_rules_option = click.option(
    "--rules",
    "rules",
    type=RULES,
    default=None,
    help=f"{_RULES_HELP}  Default: the rule set stored in the --table file, else {DEFAULT_RULES}.",
)

json_option = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")



def _regular_file(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuse an existing ``--table`` that is not a regular file: reading a fifo would block forever."""
    if value is None:
        return None
    if file_kind(value) not in ("missing", "file"):  # missing: load_table reports it with the command that builds it
        raise click.BadParameter(f"{value!r} is not a regular file", ctx, param)
    return value


table_option = click.option(
    "--table",
    "table_path",
    type=click.Path(dir_okay=False),
    default=None,
    callback=_regular_file,
    help="Value table file (default: the one shipped for --rules).",
)

card_option = click.option(
    "--card",
    "-c",
    "card_text",
    metavar="CARD",
    default=None,
    help=(
        "Scorecard before this turn's score: filled boxes as box=points pairs, "
        "e.g. 'sixes=18,fours=12,chance=22,yahtzee=50' (aliases such as 6s, 3k, fh, "
        "ss, ls, y, c; yahtzee-bonus=100 for bonuses already earned; Yacht names its "
        "boxes aces, choice, four-dice, yacht; Yatzy adds one-pair (1p) and two-pairs (2p)), "
        "or @FILE.json.  Default: the empty card."
    ),
)


def rules_in_table(path: str | os.PathLike[str]) -> str | None:
    """The rule-set name a value table file holds, as :func:`yahtzee_solver.solver.table.open_table` reads it.

    Only the file's attributes are read (the values later, as the command needs them).

    Returns
    -------
    str or None
        The name, or ``None`` if the file is missing (the command's own load
        then reports it with the command that builds it).

    Raises
    ------
    TableError
        If the file is not a readable value table, or names a rule set this
        version does not know.
    """
    if not os.path.lexists(path):
        return None
    return open_table(None, path).rules.name


def resolve_rules(rules: RuleSet | None, table_path: str | None) -> RuleSet:
    """The rule set of a command: ``--rules`` if given, else the ``--table`` file's, else the default.

    An explicit ``--rules`` is still checked against the file by the table loader.
    """
    if rules is not None:
        return rules
    if table_path is not None:
        return get_rules(rules_in_table(table_path) or DEFAULT_RULES)
    return get_rules(DEFAULT_RULES)


def echo_json(data: Any) -> None:
    """Print ``data`` as indented JSON."""
    click.echo(_json.dumps(data, indent=2, ensure_ascii=False))


def no_color(ctx: click.Context) -> None:
    """Honour ``NO_COLOR`` (https://no-color.org): set and not empty turns colours off for this command."""
    if os.environ.get("NO_COLOR"):
        ctx.color = False
