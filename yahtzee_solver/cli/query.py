"""The query commands: ``hint``, ``keep``, ``fill`` and ``value``.

Each parses its input (dice, scorecard), asks :class:`~yahtzee_solver.strategy.advisor.Advisor`
and prints a ranked table (or ``--json``).  Library errors propagate and are
turned into exit codes once, in :mod:`yahtzee_solver.cli`.

These commands answer one question from a cold shell, so they run the
*interpreted* kernel (``Advisor(..., jit=False)``, a few milliseconds) and never
import numba, tqdm or the game.  The value table is loaded with full SHA-256
verification (about 10 ms on top of the read).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..strategy.advisor import Advisor, BoxOption, KeepOption
from ..dice import format_dice
from ..errors import UsageError
from ..rules import RuleSet
from ..state import ScoreCard, parse_card
from .options import (NumberRange, QueryTable, RollsLeft, card_option, card_table_rules_option, echo_json, json_option,
                      parse_dice_words, table_option, target_option, value_target_option)
from .render import _render, _state_dict, box_best, box_note, describe_card, keep_best, limit_options, reroll_cell

if TYPE_CHECKING:
    from ..i18n import Translator
    from ..strategy.distribution import ScoreDistribution
    from ..strategy.reasons import Reasons

_T = TypeVar("_T")
_F = TypeVar("_F", bound=Callable[..., Any])

__all__ = ["hint", "keep", "fill", "value", "DEFAULT_KEEP_TOP", "box_note", "box_best", "reroll_cell", "keep_best"]

#: Keeps listed by default in text output (a roll has up to 32 distinct keeps).
DEFAULT_KEEP_TOP = 10

_ROLLS_HELP = "Rerolls still allowed this turn: 2 after the first roll, 1 after the second"

top_option = click.option(
    "--top",
    "-n",
    "top",
    type=NumberRange(0),
    default=None,
    metavar="N",
    help=(
        f"List only the N best options; 0 lists all.  Default: the {DEFAULT_KEEP_TOP} best "
        "keeps and every box in text, everything with --json."
    ),
)


def dice_argument(f: _F) -> _F:
    """The DICE argument: ``22555``, ``"2 2 5 5 5"``, ``2,2,5,5,5`` or five separate words."""
    return click.argument("dice", nargs=-1, required=True, metavar="DICE")(f)


# -- plumbing -------------------------------------------------------------------


def _advisor(q: QueryTable) -> Advisor:
    """The advisor on the query's table (``--table`` or the shipped one), read as the query needs it.

    :func:`~yahtzee_solver.solver.table.open_table` validates the file and reads only the chunks the
    query uses, each checked by its SHA-256 digest and Fletcher-32 checksum before use.
    """
    return Advisor(q.rules, q.table(), jit=False)


def _position(dice: tuple[str, ...], card_text: str | None, rules: RuleSet) -> tuple[ScoreCard, tuple[int, ...]]:
    """Parse the scorecard and the dice (usage errors surface before the table is read)."""
    card = parse_card(card_text, rules)
    faces = parse_dice_words(dice)
    return card, faces


# -- text output ------------------------------------------------------------------


def _loss(option: KeepOption | BoxOption, best: bool) -> str:
    if best:
        return "best"
    return "tie" if option.loss < 5e-10 else f"-{option.loss:.2f}"


def _dist_cells(d: ScoreDistribution, threshold: int) -> list[str]:
    """``hint --dist`` columns: SD of the final total and P(final >= threshold) (:func:`format_probability`)."""
    from ..i18n import format_probability

    return [f"{d.sd:.2f}", format_probability(d.prob_at_least(threshold))]


def _keep_lines(options: Sequence[KeepOption], shown: Sequence[KeepOption], rules: RuleSet,
                dists: Mapping[Any, ScoreDistribution] | None = None, threshold: int = 0) -> list[str]:
    rows = [
        ["*" if i == 0 else "", format_dice(o.keep), reroll_cell(o, rules), f"{o.expected:.2f}", _loss(o, i == 0)]
        + (_dist_cells(dists[o.keep], threshold) if dists else [])
        for i, o in enumerate(shown)
    ]
    extra = ["sd", f"P>={threshold}"] if dists else []
    lines = _render(["", "keep", "reroll", "expected", "vs best"] + extra, rows, {3, 4, 5, 6})
    if len(shown) < len(options):
        lines.append(f"({len(shown)} of {len(options)} keeps shown; --top 0 lists all)")
    b = options[0]
    lines.append(f"best: {keep_best(b, rules)} -> expected final total {b.expected:.2f}")
    return lines


def _box_lines(options: Sequence[BoxOption], shown: Sequence[BoxOption], rules: RuleSet,
               dists: Mapping[Any, ScoreDistribution] | None = None, threshold: int = 0) -> list[str]:
    rows = [
        ["*" if i == 0 else "", o.name, str(o.points), f"{o.expected:.2f}", _loss(o, i == 0)]
        + (_dist_cells(dists[o.category], threshold) if dists else []) + [box_note(o, rules)]
        for i, o in enumerate(shown)
    ]
    extra = ["sd", f"P>={threshold}"] if dists else []
    right = {2, 3, 4, 5, 6} if dists else {2, 3, 4}
    lines = _render(["", "box", "points", "expected", "vs best"] + extra + ["note"], rows, right)
    if len(shown) < len(options):
        lines.append(f"({len(shown)} of {len(options)} boxes shown; --top 0 lists all)")
    lines.append(f"best: {box_best(options[0], rules)} -> expected final total {options[0].expected:.2f}")
    return lines


# -- output (text or JSON) ----------------------------------------------------------------


#: Options ``hint --why`` explains (the best ones, at most as many as are shown).
WHY_TOP = 3


def _option_key(o: KeepOption | BoxOption) -> tuple[int, ...] | int:
    """What names an option in :class:`~yahtzee_solver.strategy.reasons.Reasons`: its keep faces or its box."""
    return o.keep if isinstance(o, KeepOption) else o.category


def _why_lines(why: Reasons, tr: Translator, shown: Sequence[KeepOption | BoxOption]) -> list[str]:
    """``hint --why`` text: the turn start's figures, then each explained option's figures and sentence."""
    from ..i18n import wrap
    from ..tui.why import figures, sentence

    rules = why.rules
    lines = ["", wrap(tr("why.head", figures=figures(tr, rules, why.start)), 80)]
    for o in shown:
        r = why.options.get(_option_key(o))
        if r is None:
            continue
        label = format_dice(o.keep) if isinstance(o, KeepOption) else tr.box(rules, o.category)
        lines.append(wrap(f"{label}: {figures(tr, rules, r)}", 80))
        lines.append(wrap("  " + sentence(tr, rules, r, why.start), 80))
    return lines


def _why_dict(why: Reasons, tr: Translator, key: tuple[int, ...] | int) -> dict[str, Any] | None:
    from ..tui.why import sentence

    r = why.options.get(key)
    if r is None:
        return None
    return {**r.to_dict(why.rules), "sentence": sentence(tr, why.rules, r, why.start)}


def _report(card: ScoreCard, faces: tuple[int, ...], rolls_left: int, options: Sequence[Any], top: int | None,
            as_json: bool, dists: Mapping[Any, ScoreDistribution] | None = None, threshold: int = 0,
            why: Reasons | None = None, tr: Translator | None = None) -> None:
    """Print ranked keep (``rolls_left`` 1, 2) or box (0) options.

    ``dists`` (``hint --dist``): the final-score distribution after each option,
    by keep faces or box index; adds its SD and P(final >= ``threshold``).
    ``why`` (``hint --why``): the :class:`~yahtzee_solver.strategy.reasons.Reasons` of the
    best options, worded by ``tr``.
    """
    is_keep = rolls_left > 0
    shown = limit_options(options, top, DEFAULT_KEEP_TOP if is_keep else None, as_json)
    if why is not None:
        assert tr is not None  # the reasons are worded in tr's language
        if as_json:
            def with_why(o: KeepOption | BoxOption) -> dict[str, Any]:
                return {**o.to_dict(), "why": _why_dict(why, tr, _option_key(o))}

            echo_json({
                **_state_dict(card), "dice": format_dice(faces), "rolls_left": rolls_left,
                "kind": "keep" if is_keep else "box", "n_options": len(options),
                "why_start": why.start.to_dict(why.rules), "options": [with_why(o) for o in shown],
            })
            return
        _report(card, faces, rolls_left, options, top, False, dists, threshold)
        click.echo("\n".join(_why_lines(why, tr, shown)))
        return
    if as_json and dists:
        def with_dist(o: Any) -> dict[str, Any]:
            d = dists[o.keep if is_keep else o.category]
            return {**o.to_dict(), "sd": d.sd, "p_at_least": d.prob_at_least(threshold)}

        echo_json(
            {
                **_state_dict(card),
                "dice": format_dice(faces),
                "rolls_left": rolls_left,
                "kind": "keep" if is_keep else "box",
                "dist_threshold": threshold,
                "n_options": len(options),
                "options": [with_dist(o) for o in shown],
            }
        )
        return
    if as_json:
        echo_json(
            {
                **_state_dict(card),
                "dice": format_dice(faces),
                "rolls_left": rolls_left,
                "kind": "keep" if is_keep else "box",
                "n_options": len(options),
                "options": [o.to_dict() for o in shown],
            }
        )
        return
    click.echo(describe_card(card))
    if is_keep:
        s = "s" if rolls_left > 1 else ""
        click.echo(f"dice {format_dice(faces)}, {rolls_left} roll{s} left: keep which dice?")
        lines = _keep_lines(options, shown, card.rules, dists, threshold)
    else:
        click.echo(f"dice {format_dice(faces)}, no rolls left: score in which box?")
        lines = _box_lines(options, shown, card.rules, dists, threshold)
    click.echo("\n".join(lines))


def _target(card: ScoreCard, faces: tuple[int, ...], rolls_left: int, q: QueryTable,
            target: int, top: int | None, as_json: bool) -> None:
    """The ``--target`` answer (:mod:`.target_query`)."""
    from .target_query import report_target

    if card.is_full:
        _advisor(q).hint(card, faces, max(rolls_left, 0))  # raises the usual full-card error
    report_target(card, faces, rolls_left, q, target, top, as_json, DEFAULT_KEEP_TOP)


# -- commands -----------------------------------------------------------------------


#: Default T of ``hint --dist``'s P(final >= T) (points).
DIST_THRESHOLD = 300


@click.command()
@dice_argument
@click.option(
    "--rolls-left",
    "-r",
    type=RollsLeft(0, 2),
    default=2,
    show_default=True,
    help=_ROLLS_HELP + ", 0 to choose a box.",
)
@card_option
@card_table_rules_option
@table_option
@top_option
@click.option("--dist", "with_dist", is_flag=True,
              help="Also the SD of the final total and P(final >= T) after each option, with expected-score "
                   "play afterwards (exact distributions; takes longer on an emptier card).")
@click.option("--dist-threshold", "dist_threshold", type=NumberRange(0), default=None,
              metavar="T", help="The T of P(final >= T) for --dist (points; default 300; implies --dist).")
@click.option("--why", "with_why", is_flag=True,
              help=f"Also the reasons of the {WHY_TOP} best options: with optimal play afterwards, the exact chance "
                   "of the upper bonus and of a (further) Yahtzee by the end of the game, the expected points of "
                   "this turn, the box a keep most likely ends in, and one plain sentence.")
@click.option("--lang", type=click.Choice(("en", "zh", "ja"), case_sensitive=False), default=None,
              help="Language of the --why sentences.  Default: from LC_ALL/LANG (zh_*, ja_*), else English.")
@target_option
@json_option
def hint(dice: tuple[str, ...], rolls_left: int, card_text: str | None, rules: RuleSet | None, table_path: str | None,
         top: int | None, with_dist: bool, dist_threshold: int | None, with_why: bool, lang: str | None,
         target: int | None, as_json: bool) -> None:
    """What to do with DICE: ranked keeps while rolls remain, ranked boxes when none do.

    \b
    DICE is 22555, "2 2 5 5 5" or 2,2,5,5,5.  The default --rolls-left 2 is the
    position right after the first roll of a turn.  Every option shows the
    expected final total of the game with optimal play afterwards and its loss
    against the best option, in points.

    \b
    Examples:
      yahtzee-solve hint 22555
      yahtzee-solve hint 13456 -r 1 --card sixes=18,fours=12,chance=22,yahtzee=50
      yahtzee-solve hint 55555 -r 0 --card yahtzee=50,fives=15
      yahtzee-solve hint 11112 -r 0 --target 273 --card @card.json
      yahtzee-solve hint 25556 --why --card sixes=18,fours=12
    """
    q = QueryTable(rules, table_path, [("--card", card_text)])
    rules = q.rules
    card, faces = _position(dice, card_text, rules)
    if dist_threshold is not None:
        with_dist = True  # a threshold asks for the distributions
    else:
        dist_threshold = DIST_THRESHOLD
    if target is not None:
        if with_dist:
            raise UsageError("--dist and --target answer different questions: give one of them")
        if with_why:
            raise UsageError("--why and --target answer different questions: give one of them")
        return _target(card, faces, rolls_left, q, target, top, as_json)
    if with_why and with_dist:
        raise UsageError("--why and --dist: give one of them")
    adv = _advisor(q)
    options = adv.hint(card, faces, rolls_left)
    dists = None
    if with_dist:
        from ..strategy.distribution import option_distributions

        dists = option_distributions(card, faces, rolls_left, table=adv.table)
    why: Reasons | None = None
    tr: Translator | None = None
    if with_why:
        from ..i18n import Translator, locale_lang
        from ..strategy.reasons import option_reasons

        tr = Translator(lang.lower() if lang else locale_lang() or "en")
        n = WHY_TOP if top in (None, 0) else min(WHY_TOP, top)
        best = [_option_key(o) for o in options[:n]]
        why = option_reasons(card, faces, rolls_left, best, table=adv.table)
    _report(card, faces, rolls_left, options, top, as_json, dists, dist_threshold, why, tr)


@click.command()
@dice_argument
@click.option(
    "--rolls-left",
    "-r",
    type=RollsLeft(1, 2),
    default=2,
    show_default=True,
    help=_ROLLS_HELP + ".",
)
@card_option
@card_table_rules_option
@table_option
@top_option
@target_option
@json_option
def keep(dice: tuple[str, ...], rolls_left: int, card_text: str | None, rules: RuleSet | None, table_path: str | None,
         top: int | None, target: int | None, as_json: bool) -> None:
    """Ranked keeps of DICE before a reroll (keeping all five = scoring now in the best box).

    \b
    Example:
      yahtzee-solve keep 22555 --rolls-left 1 --card sixes=18,fours=12
    """
    q = QueryTable(rules, table_path, [("--card", card_text)])
    rules = q.rules
    card, faces = _position(dice, card_text, rules)
    if target is not None:
        return _target(card, faces, rolls_left, q, target, top, as_json)
    options = _advisor(q).keep_options(card, faces, rolls_left)
    _report(card, faces, rolls_left, options, top, as_json)


@click.command()
@dice_argument
@card_option
@card_table_rules_option
@table_option
@top_option
@target_option
@json_option
def fill(dice: tuple[str, ...], card_text: str | None, rules: RuleSet | None, table_path: str | None,
         top: int | None, target: int | None, as_json: bool) -> None:
    """Ranked boxes to score the final DICE in (the Joker rule decides which are open).

    Points now include the Yahtzee bonus (+100) and the upper bonus (+35)
    when this score completes it.

    \b
    Example:
      yahtzee-solve fill 22555 --card sixes=18,fours=12
    """
    q = QueryTable(rules, table_path, [("--card", card_text)])
    rules = q.rules
    card, faces = _position(dice, card_text, rules)
    if target is not None:
        return _target(card, faces, 0, q, target, top, as_json)
    options = _advisor(q).box_options(card, faces)
    _report(card, faces, 0, options, top, as_json)


@click.command()
@card_option
@card_table_rules_option
@table_option
@value_target_option
@json_option
def value(card_text: str | None, rules: RuleSet | None, table_path: str | None, target: int | None,
          as_json: bool) -> None:
    """Expected final score of a turn-start CARD under optimal play.

    The empty card (the default) gives the optimal expected score of a game.

    \b
    Example:
      yahtzee-solve value --card sixes=18,fours=12,chance=22,yahtzee=50
    """
    q = QueryTable(rules, table_path, [("--card", card_text)])
    rules = q.rules
    card = parse_card(card_text, rules)
    if target is not None:
        from .target_query import report_target_value

        return report_target_value(card, q, target, as_json)
    expected = _advisor(q).expected_final(card)
    if as_json:
        echo_json(
            {
                **_state_dict(card),
                "game_over": card.is_full,
                "expected_final": expected,
                "expected_to_come": expected - card.total,
            }
        )
        return
    click.echo(describe_card(card))
    if card.is_full:
        click.echo(f"the card is full: final total {card.total}")
    else:
        click.echo(
            f"expected final total {expected:.7f} "
            f"({card.total} on the card + {expected - card.total:.7f} to come, optimal play)"
        )
