"""Exact optimal strategy for solitaire Yahtzee (and variants), Yacht and Scandinavian Yatzy.

Quick start::

    from yahtzee_solver import Advisor, parse_card
    adv = Advisor("yahtzee")                  # loads the shipped value table
    card = parse_card("sixes=18,fours=12,chance=22,yahtzee=50")
    adv.keep_options(card, "22555", rolls_left=2)[0]   # best keep
    adv.box_options(card, "22555")[0]                  # best box
    adv.expected_final()                               # 254.5877... from the empty card
"""

from ._version import __version__

from .advisor import Advisor, BoxOption, KeepOption
from .dice import format_dice, parse_dice
from .errors import (
    CategoryError,
    DataFileError,
    DiceError,
    IllegalMoveError,
    RuleSetError,
    SavedGameError,
    ScoreCardError,
    TableError,
    UsageError,
    YahtzeeError,
)
from .rules import (
    RULESETS,
    YACHT,
    YAHTZEE,
    YAHTZEE_FREE_JOKER,
    YAHTZEE_NO_BONUS,
    YAHTZEE_NO_JOKER,
    YATZY,
    CategorySpec,
    RuleSet,
    get_rules,
)
from .state import ScoreCard, StateKey, parse_card
from .table import ValueTable, default_table_path, load_table, open_table, save_table

# Heavier parts load on first use, so `import yahtzee_solver` (and a cold CLI
# query) does not pay for them.
_LAZY = {
    "BuildResult": "build",
    "build_values": "build",
    "make_strategy": "players",
    "LEVELS": "players",
    "simulate": "simulate",
    "SimulationResult": "simulate",
    "new_game": "game",
    "GameState": "game",
    "RecordBook": "records",
    "ArrayAdvisor": "batch",
    "option_values": "batch",
}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "__version__",
    "Advisor",
    "BoxOption",
    "KeepOption",
    "BuildResult",
    "build_values",
    "format_dice",
    "parse_dice",
    "YahtzeeError",
    "UsageError",
    "DiceError",
    "CategoryError",
    "ScoreCardError",
    "RuleSetError",
    "IllegalMoveError",
    "TableError",
    "RULESETS",
    "YAHTZEE",
    "YAHTZEE_FREE_JOKER",
    "YACHT",
    "YAHTZEE_NO_JOKER",
    "YAHTZEE_NO_BONUS",
    "YATZY",
    "CategorySpec",
    "RuleSet",
    "get_rules",
    "ScoreCard",
    "StateKey",
    "parse_card",
    "ValueTable",
    "load_table",
    "open_table",
    "save_table",
    "default_table_path",
    "SavedGameError",
    "DataFileError",
    *_LAZY,
]
