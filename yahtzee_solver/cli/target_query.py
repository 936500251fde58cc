"""``--target T`` for the query commands: rank options by P(final total >= T).

Called by :mod:`yahtzee_solver.cli.query` when ``--target`` is given; prints the
same header as the expected-value answer, then each option's exact probability
of finishing with at least ``T`` points beside its expected final total.

Positions with a few open boxes are solved by the interpreted kernel (no numba
import); larger ones load the compiled kernel and show a progress bar on stderr
when the solve is long.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ..dice import format_dice
from ..i18n import format_probability
from ..state import ScoreCard
from .options import QueryTable, echo_json, target_option, value_target_option  # re-exported
from .render import _render, _state_dict, box_best, box_note, describe_card, keep_best, limit_options, reroll_cell

if TYPE_CHECKING:
    from tqdm import tqdm

    from ..strategy.objectives import UtilityWork
    from ..strategy.target import TargetAdvisor

_F = TypeVar("_F", bound=Callable[..., Any])

__all__ = ["target_option", "value_target_option", "report_target", "report_target_value", "format_probability", "progress_bar",
           "announce_wait", "stop_interrupted"]

#: Open boxes up to which the interpreted kernel answers (no numba import).
INTERPRETED_MAX_OPEN = 2



def progress_bar(desc: str) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """A ``progress(done, total)`` callable showing a tqdm bar on stderr once the work is large, and a closer.

    The bar is drawn only when stderr is a terminal (tqdm's ``disable=None``).
    """
    state: dict[str, tqdm[Any] | None] = {"bar": None}

    def update(done: int, total: int) -> None:
        bar = state["bar"]
        if bar is None:
            if total < 2000:  # a few thousand states solve in well under a second
                return
            from tqdm import tqdm

            # disable=None: drawn only when stderr is a terminal, never into a log or a pipe
            bar = state["bar"] = tqdm(total=total, unit="state", unit_scale=True, desc=desc, leave=False,
                                      disable=None)
        bar.n = done
        bar.refresh()

    def close() -> None:
        bar = state["bar"]
        if bar is not None:
            bar.close()

    return update, close


#: Expected waits from which the estimate is printed before the solve (seconds).
ANNOUNCE_SECONDS = 2.0

#: Exit status of a solve stopped by Ctrl-C (128 + SIGINT, the shell convention).
INTERRUPTED = 130


def announce_wait(what: str, work: UtilityWork) -> None:
    """One stderr line with the expected wait of a long solve, before its progress bar.

    The estimate is the solve's state-offsets (:func:`~yahtzee_solver.strategy.objectives.utility_work`)
    at the rate measured on the 2-core test machine, spread over the cores.
    """
    import os

    from ..strategy.objectives import SECONDS_PER_STATE_OFFSET

    cores = os.cpu_count() or 1
    seconds = work.seconds(cores)
    if seconds < ANNOUNCE_SECONDS:
        return
    wait = f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} min"
    click.echo(f"{what}: {work.n_solved:,} turn-start states to solve ({work.n_states:,} reachable), "
               f"{work.state_offsets / 1e6:.1f} M state-offsets: about {wait} on {cores} free core"
               f"{'s' if cores > 1 else ''} ({SECONDS_PER_STATE_OFFSET * 1e6:.1f} us each); Ctrl-C stops",
               err=True)


def stop_interrupted(what: str) -> None:
    """After Ctrl-C in a solve: one stderr line and exit status 130; nothing was written."""
    click.echo(f"Interrupted: {what} stopped; nothing written.", err=True)
    click.get_current_context().exit(INTERRUPTED)


def _target_advisor(q: QueryTable, target: int, card: ScoreCard) -> tuple[TargetAdvisor, Callable[[], None]]:
    from ..strategy.target import TargetAdvisor

    jit = len(card.open_categories) > INTERPRETED_MAX_OPEN
    update, close = progress_bar(f"target {target}")
    adv = TargetAdvisor(q.rules, target, q.table(), jit=jit, progress=update)
    if jit and not card.is_full and adv.reachable(card):
        from ..strategy.objectives import target_utility, utility_work

        announce_wait(f"target {target}", utility_work(q.rules, card, None, target_utility(target, card.total)))
    return adv, close


def _unreachable_note(adv: TargetAdvisor, card: ScoreCard) -> str:
    return (f"target {adv.target} cannot be reached from this card (at most {adv.max_final(card)} points): "
            f"P(final >= {adv.target}) = 0")


def report_target(card: ScoreCard, faces: tuple[int, ...], rolls_left: int, q: QueryTable, target: int,
                  top: int | None, as_json: bool, default_top: int) -> None:
    """Rank the keeps (``rolls_left`` 1, 2) or boxes (0) of a position by P(final >= target) and print them."""
    rules = q.rules
    adv, close = _target_advisor(q, target, card)
    options: list[Any]
    try:
        if rolls_left > 0:
            options = adv.keep_options(card, faces, rolls_left)
        else:
            options = adv.box_options(card, faces)
    except KeyboardInterrupt:
        close()
        stop_interrupted(f"the target {target} DP")
        raise
    finally:
        close()
    reachable = adv.reachable(card)
    is_keep = rolls_left > 0
    shown: Sequence[Any] = limit_options(options, top, default_top if is_keep else None, as_json)
    if as_json:
        echo_json({
            **_state_dict(card),
            "dice": format_dice(faces),
            "rolls_left": rolls_left,
            "kind": "keep" if is_keep else "box",
            "target": target,
            "reachable": reachable,
            "n_options": len(options),
            "options": [o.to_dict() for o in shown],
        })
        return
    click.echo(describe_card(card))
    if not reachable:
        click.echo(_unreachable_note(adv, card))

    p_head = f"P(>={target})"
    if is_keep:
        s = "s" if rolls_left > 1 else ""
        click.echo(f"dice {format_dice(faces)}, {rolls_left} roll{s} left: keep which dice to reach {target}?")
        headers = ["", "keep", "reroll", p_head, "expected"]
        rows = [["*" if i == 0 else "", format_dice(o.keep), reroll_cell(o, rules),
                 format_probability(o.probability), f"{o.expected:.2f}"] for i, o in enumerate(shown)]
        right = {3, 4}
    else:
        click.echo(f"dice {format_dice(faces)}, no rolls left: score in which box to reach {target}?")
        headers = ["", "box", "points", p_head, "expected", "note"]
        rows = [["*" if i == 0 else "", o.name, str(o.points), format_probability(o.probability),
                 f"{o.expected:.2f}", box_note(o, rules)] for i, o in enumerate(shown)]
        right = {2, 3, 4}

    lines = _render(headers, rows, right)
    what = "keeps" if is_keep else "boxes"
    if len(shown) < len(options):
        lines.append(f"({len(shown)} of {len(options)} {what} shown; --top 0 lists all)")
    b: Any = options[0]
    if is_keep:
        lines.append(f"best: {keep_best(b, rules)}"
                     f" -> P(final >= {target}) {format_probability(b.probability)}, expected final total {b.expected:.2f}")
    else:
        lines.append(f"best: {box_best(b, rules)}"
                     f" -> P(final >= {target}) {format_probability(b.probability)}, expected final total {b.expected:.2f}")
    click.echo("\n".join(lines))


def report_target_value(card: ScoreCard, q: QueryTable, target: int, as_json: bool) -> None:
    """Print the best P(final >= target) of a turn-start card beside its expected final total."""
    adv, close = _target_advisor(q, target, card)
    try:
        p = adv.probability(card)
    except KeyboardInterrupt:
        close()
        stop_interrupted(f"the target {target} DP")
        raise
    finally:
        close()
    expected = adv.advisor.expected_final(card)
    reachable = card.total >= target if card.is_full else adv.reachable(card)
    if as_json:
        echo_json({**_state_dict(card), "game_over": card.is_full, "target": target, "reachable": reachable,
                   "probability": p, "expected_final": expected})
        return
    click.echo(describe_card(card))
    if not reachable and not card.is_full:
        click.echo(_unreachable_note(adv, card))
    elif card.is_full:
        click.echo(f"the card is full: final total {card.total}, target {target} "
                   f"{'reached' if card.total >= target else 'missed'}")
    else:
        click.echo(f"best P(final >= {target}) = {format_probability(p)} ({p:.12f}); "
                   f"expected final total {expected:.4f} with expected-score play")
