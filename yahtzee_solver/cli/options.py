"""Options shared by several commands (decorators) and small output helpers."""

from __future__ import annotations

import json as _json

import click

from ..rules import RULESETS

rules_option = click.option(
    "--rules",
    "rules",
    type=click.Choice(list(RULESETS), case_sensitive=False),
    default="yahtzee",
    show_default=True,
    help="Rule set: official forced Joker, free Joker, or 12-category Yacht.",
)

json_option = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON.")

table_option = click.option(
    "--table",
    "table_path",
    type=click.Path(dir_okay=False),
    default=None,
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
        "ss, ls, y, c; yahtzee-bonus=100 for bonuses already earned), or @FILE.json.  "
        "Default: the empty card."
    ),
)


def echo_json(data) -> None:
    """Print ``data`` as indented JSON."""
    click.echo(_json.dumps(data, indent=2, ensure_ascii=False))
