"""``yahtzee-solve review``: every decision of a finished game, the best one, and what each cost.

Also the end-of-game summary that ``play`` prints (:func:`summary_lines`).  The
review runs the interpreted turn kernel (no numba start-up): a 13-turn game is
about 40 turn evaluations.
"""

from __future__ import annotations

import click

from ..i18n import LANGS, Translator, display_width, pad
from .options import echo_json, json_option

__all__ = ["review", "review_lines", "summary_lines"]


def _num(x: float) -> str:
    return f"{x:.2f}"


def _choice(tr: Translator, rules, d, which) -> str:
    from ..dice import format_dice

    x = d.choice if which == "choice" else d.best
    if d.kind == "box":
        return tr.box(rules, x)
    if which == "choice" and x == d.dice and d.rolls_left:
        return tr("review.stand")
    return tr("review.keep", dice=format_dice(x))


def _table(tr: Translator, rev) -> list[str]:
    from ..dice import format_dice

    head = [tr("review.col_turn"), tr("review.col_dice"), tr("review.col_rolls"), tr("review.col_choice"),
            tr("review.col_best"), tr("review.col_loss")]
    rows = []
    for d in rev.decisions:
        loss = "0" if d.loss == 0 else f"-{_num(d.loss)}"
        rows.append([str(d.turn), format_dice(d.dice), str(d.rolls_left) if d.kind == "keep" else "-",
                     _choice(tr, rev.rules, d, "choice"), _choice(tr, rev.rules, d, "best"), loss])
    widths = [max(display_width(r[i]) for r in [head] + rows) for i in range(len(head))]
    right = {0, 2, 5}
    out = []
    for n, row in enumerate([head] + rows):
        line = "  ".join(pad(v, w, ">" if i in right else "<") for i, (v, w) in enumerate(zip(row, widths)))
        out.append(click.style(line.rstrip(), bold=True) if n == 0 else line.rstrip())
    return out


def _tail(tr: Translator, rev) -> list[str]:
    from ..dice import format_dice

    b = rev.bands
    lines = [
        tr("review.total", total=_num(rev.total_loss), n=len(rev.decisions), mean=f"{rev.mean_loss:.3f}"),
        tr("review.bands", b0=b["0"], b1=b["<1"], b2=b["1-5"], b3=b[">=5"]),
    ]
    worst = rev.costliest(3)
    if not worst:
        lines.append(tr("review.perfect"))
        return lines
    lines.append(tr("review.costliest"))
    for d in worst:
        lines.append("  " + tr("review.costly_item", turn=d.turn, dice=format_dice(d.dice),
                                choice=_choice(tr, rev.rules, d, "choice"), best=_choice(tr, rev.rules, d, "best"),
                                loss=_num(d.loss)))
    return lines


def review_lines(tr: Translator, rev, what: str, opponent: str, seed: int, player: int = 0) -> list[str]:
    """The full text review: header, one row per decision, totals, bands, costliest decisions."""
    lines = [tr("review.header", what=what, title=tr.title(rev.rules), opponent=tr.opponent(opponent), seed=seed)]
    if player == 1:
        lines.append(tr("review.cpu"))
    if not rev.decisions:
        lines.append(tr("review.none"))
        return lines
    lines.append(tr("review.score", score=rev.final_score, expected=_num(rev.start_value)))
    if not rev.complete:
        lines.append(tr("review.unfinished", turns=rev.decisions[-1].turn))
    lines.append("")
    lines.extend(_table(tr, rev))
    lines.append("")
    lines.extend(_tail(tr, rev))
    return lines


def summary_lines(state, tr: Translator | None = None, player: int = 0) -> list[str]:
    """The end-of-game summary of ``play``: the player's expected loss, bands and costliest decisions.

    Raises
    ------
    YahtzeeError
        If the game's value table cannot be loaded (the caller may skip the summary).
    """
    from ..review import review_game

    tr = tr or Translator("en")
    rev = review_game(state, player)
    if not rev.decisions:
        return [tr("review.none")]
    return [tr("review.summary", total=_num(rev.total_loss), mean=f"{rev.mean_loss:.3f}")] + _tail(tr, rev)[1:]


@click.command()
@click.argument("game", required=False, metavar="[N | FILE]")
@click.option("--last", is_flag=True, help="The last game in the history (the default).")
@click.option("--cpu", is_flag=True, help="Review the CPU's decisions instead of yours.")
@click.option("--rules", "rules", default=None, metavar="RULES",
              help="Refuse a game of other rules (a check; the game's own rules are used).")
@click.option("--lang", type=click.Choice(LANGS, case_sensitive=False), default="en", show_default=True,
              help="Language: English, Chinese, Japanese.")
@json_option
def review(game, last, cpu, rules, lang, as_json):
    """Review a finished game: each decision, the best one, and its expected loss.

    GAME is a number in the game history (1 = the oldest kept; see the numbers
    'play' prints), or a saved game FILE; without it, the last game played.
    The loss of a decision is the expected final total after the best option
    minus that after the chosen one, with optimal play afterwards (the
    advisor's "vs best").

    \b
    Examples:
      yahtzee-solve review
      yahtzee-solve review 3 --lang ja
      yahtzee-solve review game.json --json
    """
    from ..errors import DataFileError, UsageError
    from ..history import History, history_path, load_game_file
    from ..review import review_game, review_log
    from ..rules import get_rules

    tr = Translator(lang.lower())
    if game is not None and last:
        raise UsageError("give a game N or FILE, or --last, not both")
    player = 1 if cpu else 0
    if game is None or game.strip().isdigit():
        h = History.load()
        if h.problem:
            click.echo(click.style(h.problem, fg="yellow"), err=True)
        if not h.entries:
            raise DataFileError(f"no finished games in the history {str(history_path())!r} yet: play one first")
        n = len(h.entries) if game is None else int(game)
        entry = h.get(n)
        rules_name, opponent, seed, players = entry.rules, entry.opponent, entry.seed, entry.players
        what = tr("review.game", n=n, date=entry.date)
        meta = {"source": "history", "number": n, "date": entry.date, "result": entry.result,
                "scores": list(entry.scores)}
        review_it = lambda m: review_log(entry.log, entry.rules, player, meta=m)  # noqa: E731
    else:
        state = load_game_file(game)
        rules_name, opponent, seed = state.rules.name, state.config.opponent, state.config.seed
        players = state.config.n_players
        what = game
        meta = {"source": "file", "path": game}
        review_it = lambda m: review_game(state, player, meta=m)  # noqa: E731
    if rules is not None and get_rules(rules).name != rules_name:
        raise UsageError(f"the game is for rules {rules_name!r}, not {get_rules(rules).name!r}")
    if cpu and players < 2:
        raise UsageError("--cpu: this is a solitaire game, there is no CPU player")
    meta.update({"opponent": opponent, "seed": seed, "player": "cpu" if cpu else "you"})
    rev = review_it(meta)
    if as_json:
        echo_json(rev.to_dict())
        return
    click.echo("\n".join(review_lines(tr, rev, what, opponent, seed, player)))
