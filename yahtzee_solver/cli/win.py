"""The ``win`` command: my options ranked by the exact chance of beating one opponent.

It is my turn, with my card (``--card``) and the opponent's (``--opponent``).
Whether I move first or second this round follows from the open boxes: as
many as the opponent's, I move first; one more, the opponent has already
played this round.  The answer is the exact two-player value
(:class:`~yahtzee_solver.strategy.duel.DuelSource`) while both cards together
have at most ``--max-open`` open boxes; beyond, it says so and gives the best
response to the opponent's final-score distribution
(:class:`~yahtzee_solver.strategy.objectives.WinSource`), labelled as such.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from ..dice import KEEPS, format_dice, roll_index
from ..errors import UsageError
from ..i18n import PROBABILITY_ROUNDING, format_probability
from ..state import ScoreCard, parse_card
from ..solver.table import open_table
from .options import (NumberRange, RollsLeft, card_errors, card_option, card_table_rules_option, echo_json, json_option,
                      one_card, parse_dice_words, resolve_rules, table_option)
from .render import _render, _state_dict, describe_card

if TYPE_CHECKING:
    from ..rules import RuleSet
    from ..solver.table import ValueTable
    from ..strategy.duel import DuelSource
    from ..strategy.objectives import WinSource

__all__ = ["win", "move_order"]

#: Keeps listed by default in text output.
DEFAULT_KEEP_TOP = 10


def _parse_card(text: str | None, rules: RuleSet, option: str) -> ScoreCard:
    """:func:`parse_card` of one of the two card options; its error names the option (there are two cards)."""
    with card_errors(option):
        return parse_card(text, rules)


def move_order(mine: ScoreCard, opponent: ScoreCard) -> str:
    """``"first"`` or ``"second"``: my place in this round, from the open boxes (it is my turn).

    Raises
    ------
    UsageError
        If my card is full, or the open boxes do not fit my turn (as many as the opponent's, or one more).
    """
    n_me, n_opp = len(mine.open_categories), len(opponent.open_categories)
    if n_me == 0:
        raise UsageError("my card is full: the game is over for me, there is no turn to play")
    if n_me == n_opp:
        return "first"
    if n_me == n_opp + 1:
        return "second"
    raise UsageError(
        f"the cards do not fit my turn: I have {n_me} open box{'es' if n_me != 1 else ''} and the opponent "
        f"{n_opp}; on my turn I have "
        f"as many as the opponent (I move first this round) or one more (the opponent has played this round)")


def _sources(rules: RuleSet, mine: ScoreCard, opponent: ScoreCard, plays: str, max_open: int,
             table: ValueTable) -> tuple[DuelSource | WinSource, bool, str]:
    """(source, exact, reason): the exact duel source within ``max_open``, else the best response."""
    from ..strategy.duel import DuelSource
    from ..strategy.objectives import WinSource, opponent_pmf

    n = len(mine.open_categories) + len(opponent.open_categories)
    if n <= max_open:
        return DuelSource(rules, opponent, plays, table=table, jit=n > 2), True, ""
    level = "expert" if plays == "optimal" else plays
    pmf = opponent_pmf(rules, opponent, level, table)
    if plays == "optimal":  # the opponent plays to win, but is modelled as the expert here
        bound = ("the opponent modelled as the expert; against an opponent who plays to win this is an "
                 "estimate, neither exact nor a bound")
    else:
        bound = f"a lower bound of the best winning chance against the {level}"
    reason = (f"{n} open box{'es' if n != 1 else ''} in all, more than the exact two-player solve takes "
              f"(--max-open {max_open}): "
              f"best response to the {level} opponent's final-score distribution as seen now, "
              f"not reacting to its later turns ({bound})")
    return WinSource(rules, pmf), False, reason


def _split(p: float, d: float) -> tuple[float, float]:
    """The win and loss chances of P(win) + P(draw)/2 = ``p`` and P(draw) = ``d``.

    Within :data:`~yahtzee_solver.i18n.PROBABILITY_ROUNDING` of 0 they are 0: the subtraction's
    rounding, not a chance (``p`` and ``d`` are the DP's own values).
    """
    win, loss = p - d / 2, 1.0 - p - d / 2
    return (0.0 if abs(win) < PROBABILITY_ROUNDING else win), (0.0 if abs(loss) < PROBABILITY_ROUNDING else loss)


def _outcome(p: float, d: float | None) -> dict[str, float | None]:
    if d is None:
        return {"probability": p, "win": None, "draw": None, "loss": None}
    win, loss = _split(p, d)
    return {"probability": p, "win": win, "draw": d, "loss": loss}


#: Open boxes in all from which the exact solve announces its wait on stderr (K = 8 takes seconds,
#: each more box about four times as long).
SLOW_SOLVE_OPEN = 9


#: The largest ``--max-open``: the solve grows about fourfold per open box (K = 8: seconds and
#: 33 MB, README); beyond 10 it would run for hours and fill the memory.  The same number as
#: ``strategy.duel.MAX_SOLVE_OPEN`` (not imported here: the command line loads the solver lazily).
MAX_OPEN_LIMIT = 10


@click.command()
@click.argument("dice", nargs=-1, required=False, metavar="[DICE]")
@click.option("--rolls-left", "-r", type=RollsLeft(), default=2, show_default=True,
              help="Rerolls still allowed this turn: 2 after the first roll, 1 after the second, 0 to choose a box.")
@card_option
@click.option("--opponent", "-o", "opponent_text", metavar="CARD", multiple=True, callback=one_card,
              help="The opponent's scorecard, in the same form as --card.  Default: the empty card.")
@click.option("--opponent-plays", "plays", type=click.Choice(["optimal", "expert", "normal", "beginner"],
              case_sensitive=False), default="optimal", show_default=True,
              help="optimal: the opponent plays to win as well (the zero-sum game); a CPU level: it plays that "
                   "level's fixed policy.")
@click.option("--max-open", "max_open", type=NumberRange(0, MAX_OPEN_LIMIT), default=None, metavar="K",
              help="Solve exactly when both cards together have at most K open boxes (default: the measured "
                   f"limit; at most {MAX_OPEN_LIMIT}, an offline solve of minutes and gigabytes); beyond, the best "
                   "response to the opponent's distribution, labelled as such.")
@card_table_rules_option
@table_option
@click.option("--top", "-n", "top", type=NumberRange(0), default=None, metavar="N",
              help=f"List only the N best options; 0 lists all (default: {DEFAULT_KEEP_TOP} keeps, every box; "
                   "everything with --json).")
@json_option
def win(dice: tuple[str, ...], rolls_left: int, card_text: str | None, opponent_text: str, plays: str,
        max_open: int | None, rules: RuleSet | None, table_path: str | None, top: int | None, as_json: bool) -> None:
    """My keeps or boxes ranked by the exact chance of beating the opponent (a draw counts half).

    \b
    It is my turn.  As many open boxes as the opponent: I move first this round;
    one more: the opponent has played this round.  Without DICE: the chance from
    the start of my turn.  Both players play to the end: the opponent to win as
    well (--opponent-plays optimal) or as a CPU level.

    \b
    Examples:
      yahtzee-solve win 66612 --card @mine.json --opponent @theirs.json
      yahtzee-solve win 22345 -r 0 --card ... --opponent ... --opponent-plays expert --json
    """
    try:
        _win(dice, rolls_left, card_text, opponent_text, plays, max_open, rules, table_path, top, as_json)
    except KeyboardInterrupt:  # Ctrl-C in a long solve: one line, exit 130, nothing on stdout
        from .target_query import stop_interrupted

        stop_interrupted("the two-player solve")


def _win(dice: tuple[str, ...], rolls_left: int, card_text: str | None, opponent_text: str, plays: str,
         max_open: int | None, rules: RuleSet | None, table_path: str | None, top: int | None,
         as_json: bool) -> None:
    from ..strategy.duel import DEFAULT_MAX_OPEN, DuelSource

    rules = resolve_rules(rules, table_path, [("--card", card_text), ("--opponent", opponent_text)])
    mine = _parse_card(card_text, rules, "--card")
    opponent = _parse_card(opponent_text, rules, "--opponent")
    faces = parse_dice_words(dice) if dice else None
    if faces is None and click.get_current_context().get_parameter_source("rolls_left") in (
            click.core.ParameterSource.COMMANDLINE, click.core.ParameterSource.ENVIRONMENT):
        raise UsageError(f"--rolls-left {rolls_left} needs DICE: without dice the chance is from the start of "
                         f"my turn, before the first roll")
    order = move_order(mine, opponent)
    plays = plays.lower()
    k = DEFAULT_MAX_OPEN if max_open is None else max_open
    table = open_table(rules, table_path)
    src, exact, reason = _sources(rules, mine, opponent, plays, k, table)
    duel = src if isinstance(src, DuelSource) else None  # exact: the two-player source
    n_open = len(mine.open_categories) + len(opponent.open_categories)
    if duel is not None and n_open >= SLOW_SOLVE_OPEN:
        # the solve grows about fourfold an open box: say so before a long wait with nothing on screen
        click.echo(f"exact two-player solve of {n_open} open boxes in all: "
                   f"{'about a minute' if n_open == SLOW_SOLVE_OPEN else 'several minutes'} or more on 2 cores; "
                   f"Ctrl-C stops", err=True)
    head = {
        "mine": _state_dict(mine),
        "opponent": _state_dict(opponent),
        "opponent_plays": plays,
        "move": order,
        "open_boxes": n_open,
        "max_open": k,
        "exact": exact,
        "method": "exact two-player" if exact else "best response to the opponent's final-score distribution",
    }
    if not exact:
        head["note"] = reason
    title = (f"exact two-player play, opponent plays {plays}; I move {order} this round ({n_open} open box{'es' if n_open != 1 else ''} in all)"
             if exact else f"NOT exact: {reason}")
    if faces is None:
        d: float | None
        if duel is not None:
            p, d = duel.state_outcomes(mine.key, mine.total)
        else:
            p, d = src.probability(mine), None
        out = _outcome(p, d)
        if as_json:
            echo_json({**head, **out})
            return
        click.echo(f"me:       {describe_card(mine)}")
        click.echo(f"opponent: {describe_card(opponent)}")
        click.echo(title)
        extra = "" if d is None else (f" (win {format_probability(out['win'] or 0.0)}, draw {format_probability(d)}, "
                                      f"loss {format_probability(out['loss'] or 0.0)})")
        click.echo(f"P(win) + P(draw)/2 from the start of my turn = {format_probability(p)} ({p:.12f}){extra}")
        return
    from ..strategy.policy import ExpectedValueSource, Policy

    policy = Policy(src, tiebreak=ExpectedValueSource(rules, table, jit=False))
    r = roll_index(faces)
    state, total = mine.key, mine.total
    options: list[dict[str, Any]] = []
    if rolls_left > 0:
        codes, values = policy.keep_ranking(state, total, r, rolls_left)
        draws = duel.keep_outcomes(state, total, rolls_left)[1] if duel is not None else None
        pts, _, bonus = mine.box_points(faces)
        for c, v in zip(codes.tolist(), values.tolist()):
            kept = KEEPS[c]
            rest = list(faces)
            for f in kept:
                rest.remove(f)
            o: dict[str, Any] = {"keep": format_dice(kept), "reroll": format_dice(rest)}
            d = None if draws is None else float(draws[c])
            if len(kept) == len(faces):  # keeping all five is scoring now (no pass): in which box
                box, _ = policy.stop_option(state, total, r)
                o["score"] = {"box": rules.categories[box].slug, "name": rules.categories[box].name,
                              "points": pts[box], "yahtzee_bonus": bonus}
                # its draw chance is that box's, not the keep table's entry (with two rerolls left,
                # the value of a pass, which the rules do not allow)
                d = None if duel is None else float(duel.box_outcomes(state, total, r)[1][box])
            options.append({**o, **_outcome(v, d)})
    else:
        boxes, values = policy.box_ranking(state, total, r)
        draws = duel.box_outcomes(state, total, r)[1] if duel is not None else None
        pts, _, bonus = mine.box_points(faces)
        for c, v in zip(boxes.tolist(), values.tolist()):
            options.append({"box": rules.categories[c].slug, "name": rules.categories[c].name, "points": pts[c],
                            "yahtzee_bonus": bonus, **_outcome(v, None if draws is None else float(draws[c]))})
    is_keep = rolls_left > 0
    n = top if top is not None else (None if as_json else (DEFAULT_KEEP_TOP if is_keep else None))
    shown = options if not n else options[:n]
    if as_json:
        echo_json({**head, "dice": format_dice(faces), "rolls_left": rolls_left, "kind": "keep" if is_keep else "box",
                   "n_options": len(options), "options": shown})
        return
    click.echo(f"me:       {describe_card(mine)}")
    click.echo(f"opponent: {describe_card(opponent)}")
    click.echo(title)

    # the win, draw and loss columns only where they are known (the exact solve); the best response
    # beyond it has the one chance
    split = duel is not None
    heads = ["P(win)+draw/2", "win", "draw", "loss"] if split else ["P(win)+draw/2"]

    def cells(o: dict[str, Any]) -> list[str]:
        return [format_probability(o[x]) for x in ("probability", "win", "draw", "loss")[:len(heads)]]

    if is_keep:
        s = "s" if rolls_left > 1 else ""
        click.echo(f"dice {format_dice(faces)}, {rolls_left} roll{s} left: keep which dice to win?")
        def reroll(o: dict[str, Any]) -> str:
            return f"none: score {o['score']['points']} in {o['score']['name']}" if "score" in o else o["reroll"]

        rows = [["*" if i == 0 else "", o["keep"], reroll(o), *cells(o)] for i, o in enumerate(shown)]
        lines = _render(["", "keep", "reroll", *heads], rows, {3, 4, 5, 6})
        b = options[0]
        best = (f"best: score {b['score']['points']} in {b['score']['name']} now" if "score" in b
                else f"best: keep {b['keep']}, reroll {b['reroll']}")
    else:
        click.echo(f"dice {format_dice(faces)}, no rolls left: score in which box to win?")
        rows = [["*" if i == 0 else "", o["name"], str(o["points"]), *cells(o)] for i, o in enumerate(shown)]
        lines = _render(["", "box", "points", *heads], rows, {2, 3, 4, 5, 6})
        b = options[0]
        best = f"best: score {b['points']} in {b['name']}"
    if len(shown) < len(options):
        lines.append(f"({len(shown)} of {len(options)} {'keeps' if is_keep else 'boxes'} shown; --top 0 lists all)")
    lines.append(f"{best} -> P(win) + P(draw)/2 = {format_probability(b['probability'])}"
                 + ("" if exact else " (best response, not exact)"))
    click.echo("\n".join(lines))
