"""Exact optimal strategy for solitaire Yahtzee (and variants), Yacht and Scandinavian Yatzy.

Quick start::

    from yahtzee_solver import Advisor, parse_card
    adv = Advisor("yahtzee")                  # loads the shipped value table
    card = parse_card("sixes=18,fours=12,chance=22,yahtzee=50")
    adv.keep_options(card, "22555", rolls_left=2)[0]   # best keep
    adv.box_options(card, "22555")[0]                  # best box
    adv.expected_final()                               # 254.5877... from the empty card
"""

from typing import TYPE_CHECKING, Any

from ._version import __version__

from .strategy.advisor import Advisor, BoxOption, KeepOption
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
from .solver.table import ValueTable, default_table_path, load_table, open_table, save_table

from . import _compat

# Heavier parts load on first use, so `import yahtzee_solver` (and a cold CLI
# query) does not pay for them.  Type checkers see the real objects.
if TYPE_CHECKING:
    from .analysis.simulate import SimulationResult, simulate
    from .game import GameState, new_game
    from .play.records import RecordBook
    from .solver.build import BuildResult, build_values
    from .strategy.batch import ArrayAdvisor, option_values
    from .strategy.levels import LEVELS, make_strategy

_LAZY = {
    "BuildResult": "solver.build",
    "build_values": "solver.build",
    "make_strategy": "strategy.levels",
    "LEVELS": "strategy.levels",
    "simulate": "analysis.simulate",
    "SimulationResult": "analysis.simulate",
    "new_game": "game",
    "GameState": "game",
    "RecordBook": "play.records",
    "ArrayAdvisor": "strategy.batch",
    "option_values": "strategy.batch",
}


def __getattr__(name: str) -> Any:
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
    # the other lazy names (_LAZY), spelled out so type checkers see them exported
    "make_strategy",
    "LEVELS",
    "simulate",
    "SimulationResult",
    "new_game",
    "GameState",
    "RecordBook",
    "ArrayAdvisor",
    "option_values",
]

# A public name means one thing: importing a submodule of the same name (such
# as the deprecated path ``yahtzee_solver.simulate``) does not replace it.
_compat.protect_public_names(__name__, __all__)
