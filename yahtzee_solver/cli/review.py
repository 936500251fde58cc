"""``yahtzee-solve review``: every decision of a finished game, the best one, and what each cost.

The text is laid out by :mod:`yahtzee_solver.tui.review` (also the
end-of-game summary that ``play`` prints).  The review runs the interpreted turn kernel (no numba start-up): a 13-turn game is
about 40 turn evaluations.  Against a CPU, the endgame's winning chances come from the
compiled two-player solve (:class:`~yahtzee_solver.analysis.review.EndgameChances`), one
solver for the whole game.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import click

from ..i18n import LANGS, Translator, locale_lang
from ..tui.review import review_lines
from .options import echo_json, json_option

if TYPE_CHECKING:
    from ..analysis.review import GameReview

__all__ = ["review"]


@click.command()
@click.argument("game", required=False, metavar="[N | FILE]")
@click.option("--last", is_flag=True, help="The last game in the history (the default).")
@click.option("--cpu", is_flag=True, help="Review the CPU's decisions instead of yours.")
@click.option("--rules", "rules", default=None, metavar="RULES",
              help="Refuse a game of other rules (a check; the game's own rules are used).")
@click.option("--lang", type=click.Choice(LANGS, case_sensitive=False), default=None,
              help="Language: English, Chinese, Japanese.  Default: from LC_ALL/LANG (zh_*, ja_*), else English.")
@json_option
def review(game: str | None, last: bool, cpu: bool, rules: str | None, lang: str | None, as_json: bool) -> None:
    """Review a finished game: each decision, the best one, and its expected loss.

    N is a number in the game history (1 = the oldest kept; see the numbers
    'play' prints); FILE is a saved game file.  Without either, the last game
    played.
    The loss of a decision is the expected final total after the best option
    minus that after the chosen one, with optimal play afterwards (the
    advisor's "vs best").  In a game against a CPU, the decisions of the
    endgame (both cards together at most 7 open boxes) also show the exact
    chance of winning they gave up, against the CPU level played (a master
    as a player who plays to win).

    \b
    Examples:
      yahtzee-solve review
      yahtzee-solve review 3 --lang ja
      yahtzee-solve review game.json --json
    """
    from ..errors import CategoryError, DataFileError, DiceError, SavedGameError, UsageError
    from ..play.history import History, history_path, load_game_file
    from ..analysis.review import review_log
    from ..rules import get_rules

    tr = Translator(lang.lower() if lang else locale_lang() or "en")
    if game is not None and last:
        raise UsageError("give a game N or FILE, or --last, not both")
    player = 1 if cpu else 0
    if game is None or game.strip().isdigit():
        h = History.load()
        if h.problem:
            click.echo(click.style(tr("warn.history", detail=tr.history_problem(h.problem)), fg="yellow"), err=True)
        if not h.entries:
            raise DataFileError(f"no finished games in the history {str(history_path())!r} yet: play one first")
        if game is not None and len(game.strip()) > 18:  # no history holds that many games (and int() refuses
            from ..files import clip                     # numbers of thousands of digits)

            raise UsageError(f"no game number {clip(game.strip(), 40)} in the history")
        n = h.last_number() if game is None else int(game)
        if n is None:
            raise DataFileError(f"no game in the history {str(history_path())!r} can be reviewed: every entry "
                                "is damaged")
        entry = h.get(n)
        rules_name, opponent, seed, players = entry.rules, entry.opponent, entry.seed, entry.players
        what = tr("review.game", n=n, date=entry.date)
        meta = {"source": "history", "number": n, "date": entry.date, "result": entry.result,
                "scores": list(entry.scores)}

        def review_it(m: dict[str, Any]) -> GameReview:
            try:
                return review_log(entry.log, entry.rules, player, meta=m, opponent_level=cpu_level)
            except (SavedGameError, DiceError, CategoryError) as e:  # the history's content
                raise DataFileError(f"{history_path()}: game {n}: {e}") from None
    else:
        if not os.path.lexists(game):  # not a number, so a FILE: a missing one is a file problem (exit 1)
            raise DataFileError(f"no game file {game!r} (no such file; a game of the history is given by its "
                                "number)")
        saved = load_game_file(game)
        rules_name, seed, players = saved.rules, None, saved.n_players
        opponent = "solo" if saved.opponent == "none" else saved.opponent
        what = game
        meta = {"source": "file", "path": game}

        def review_it(m: dict[str, Any]) -> GameReview:
            try:
                return review_log(saved.log, saved.rules, player, meta=m, opponent_level=cpu_level)
            except (SavedGameError, DiceError, CategoryError) as e:  # the file's content, not the command line
                raise DataFileError(f"{game}: {e}") from None
    if rules is not None and get_rules(rules).name != rules_name:
        raise UsageError(f"the game is for rules {rules_name!r}, not {get_rules(rules).name!r}")
    if cpu and players < 2:
        raise UsageError("--cpu: this is a solitaire game, there is no CPU player")
    meta.update({"opponent": opponent, "seed": seed, "player": "cpu" if cpu else "you"})
    # against a CPU, my endgame decisions also get the winning chance they gave up (exact two-player solve)
    cpu_level = opponent if players == 2 and not cpu else None
    rev = review_it(meta)
    if as_json:
        echo_json(rev.to_dict())
        return
    click.echo("\n".join(review_lines(tr, rev, what, opponent, seed, player)))
