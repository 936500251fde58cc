"""The refusals of a typed scorecard, in English, by key (``--card`` and the web's ``card=``).

:mod:`yahtzee_solver.state` raises them (:func:`yahtzee_solver.state.card_problem`), the command
line prints them, and :mod:`yahtzee_solver.i18n` gives the same keys in every language, so that the
web says what ``--card`` says.  A module of the ground layer, so that both can read it: the
catalogue sits below the scorecard.
"""

from __future__ import annotations

from .rules import UNKNOWN_CATEGORY

__all__ = ["CARD_PROBLEMS"]

#: The refusals of a typed card, by key: the English text, which the command line prints;
#: :mod:`yahtzee_solver.i18n` says the same keys in every language (``card.<key>``), for the web.
CARD_PROBLEMS: dict[str, str] = {
    # the card's text: its entries and boxes
    "entry": "invalid card entry {entry}: want box=points, e.g. sixes=18",
    "no_name": "invalid card entry {entry}: no box name before '='",
    "no_points": "missing points in card entry {entry}: want e.g. {name}=18 ('-' for an open box)",
    "no_bonus_points": "missing points in card entry {entry}: want e.g. {name}=100 (0 for no bonus)",
    "bonus_blank": "the yahtzee bonus is not a box to leave open ({name}): give its points, e.g. {name}=100, "
                   "or leave it out for none",
    "none": "invalid card {card}: no box=points entry (e.g. sixes=18; leave the card out for the empty card)",
    "repeated": "repeated category {box}",
    "repeated_as": "repeated category {box} (already given as {other})",
    "unknown": UNKNOWN_CATEGORY,
    "full": "the card is full: the game is over, there is no move to advise",
    # the points
    "impossible": "impossible score {points} for {box} (possible: {possible})",
    "not_whole": "invalid points {points} for {box}: want a whole number",
    "too_long": "invalid points {points} for {box}: too many digits for a score",
    "bonus_points": "invalid yahtzee-bonus {bonus}: want a whole number of points that is not negative",
    "bonus_none": "rules {rules} have no yahtzee bonus (got yahtzee-bonus={bonus})",
    "bonus_multiple": "invalid yahtzee-bonus {bonus}: want a multiple of {step}",
    "bonus_open": "yahtzee-bonus={bonus} needs 50 in the {box} box (it is open)",
    "bonus_not_50": "yahtzee-bonus={bonus} needs 50 in the {box} box (it holds {points})",
    "bonus_later": "yahtzee-bonus={bonus} is more than one bonus per box filled after the yahtzee ({later})",
    "bonus_holder": "yahtzee-bonus={bonus} needs {n} box besides the {box} box holding the points of five alike "
                    "(the roll of each bonus), and the card has {holders}",
    "bonus_holders": "yahtzee-bonus={bonus} needs {n} boxes besides the {box} box holding the points of five alike "
                     "(the roll of each bonus), and the card has {holders}",
}
