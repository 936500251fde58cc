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

from ..dice import whole_number
from ..i18n import LANGS, Translator, locale_lang
from ..tui.review import review_lines
from .options import echo_json, json_option

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ..analysis.table_review import TableReview
    from ..game import Event

__all__ = ["review"]


@click.command()
@click.argument("game", required=False, metavar="[N | FILE]")
@click.option("--last", is_flag=True, help="The last game in the history (the default).")
@click.option("--cpu", is_flag=True, help="Review the CPU's decisions instead of yours.")
@click.option("--rules", "rules", default=None, metavar="RULES",
              help="Refuse a game of other rules (a check; the game's own rules are used).")
@click.option("--lang", type=click.Choice(LANGS, case_sensitive=False), default=None,
              help="Language: English, Chinese, Japanese.  Default: from LC_ALL/LANG (zh_*, ja_*), else English.")
@click.option("--player", "player_name", default=None, metavar="NAME",
              help="A coach game: review this player's decisions (default: the first player's).")
@click.option("--no-chances", "no_chances", is_flag=True,
              help="A game of two or more players: skip each player's chance of finishing first turn by turn "
                   "(about ten seconds to compute).")
@json_option
def review(game: str | None, last: bool, cpu: bool, rules: str | None, lang: str | None, player_name: str | None,
           no_chances: bool, as_json: bool) -> None:
    """Review a finished game: each decision, the best one, and its expected loss.

    N is a number in the game history (1 = the oldest kept; see the numbers
    'play' and 'coach' print); FILE is a saved game file.  Without either,
    the last game played.  A game of two or more players (against the CPU,
    or at the coach's table) also shows every player's skill and luck and
    each player's chance of finishing first at the start of each turn,
    every player modelled as expert from their card.
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
      yahtzee-solve review 4 --player Bob
    """
    from ..errors import CategoryError, DataFileError, DiceError, SavedGameError, UsageError
    from ..play.history import History, history_path, load_game_file
    from ..analysis.review import review_log
    from ..analysis.table_review import review_table
    from ..play.history import COACH
    from ..rules import get_rules
    from ..tui.review import table_lines

    tr = Translator(lang.lower() if lang else locale_lang() or "en")
    if game is not None and last:
        raise UsageError("give a game N or FILE, or --last, not both")
    if game is not None and not game.strip():  # no number and no file name: nothing to look up
        raise UsageError(f"invalid game {game!r}: want a game number of the history or a game FILE")
    player = 1 if cpu else 0
    names: tuple[str, ...] = ()
    log: Sequence[Event | Mapping[str, Any]] = ()
    number = None if game is None else whole_number(game)  # the web's reading of game= (blanks dropped)
    if game is None or number is not None:
        h = History.load()
        if h.problem:
            click.echo(click.style(tr("warn.history", detail=tr.history_problem(h.problem)), fg="yellow"), err=True)
        if not h.entries:
            raise DataFileError(f"no finished games in the history {str(history_path())!r} yet: play one first")
        if number is not None:
            _check_number(tr, number, len(h.entries))
        n = h.last_number() if number is None else int(number)
        if n is None:
            raise DataFileError(f"no game in the history {str(history_path())!r} can be reviewed: every entry "
                                "is damaged")
        entry = h.get(n)
        rules_name, opponent, players = entry.rules, entry.opponent, entry.players
        seed: int | None = entry.seed
        log = entry.log
        names = entry.seat_names(tr("you"), tr.opponent(opponent))
        if entry.is_table:
            seed = None  # the dice were the players' own
        what = tr("review.game", n=n, date=entry.date)
        meta = {"source": "history", "number": n, "date": entry.date, "result": entry.result,
                "scores": list(entry.scores)}

        where = f"{history_path()}: game {n}"
    else:
        if not os.path.lexists(game):  # not a number, so a FILE: a missing one is a file problem (exit 1)
            raise DataFileError(f"no game file {game!r} (no such file; a game of the history is given by its "
                                "number)")
        saved = load_game_file(game)
        rules_name, seed, players = saved.rules, None, saved.n_players
        opponent = "solo" if saved.opponent == "none" else saved.opponent
        what = game
        meta = {"source": "file", "path": game}
        log = saved.log
        names = (tr("you"),) if players == 1 else (tr("you"), tr.opponent(opponent))
        where = game
    if rules is not None and get_rules(rules).name != rules_name:
        raise UsageError(f"the game is for rules {rules_name!r}, not {get_rules(rules).name!r}")
    coach_game = opponent == COACH
    if cpu and (players < 2 or coach_game):
        raise UsageError("--cpu: there is no CPU player in this game"
                         + (" (a coach game: --player NAME)" if coach_game else " (solitaire)"))
    if player_name is not None:
        if not coach_game:
            raise UsageError(f"--player {player_name!r}: this is not a coach game, its players have no names "
                             "(--cpu for the CPU)")
        player = _seat(names, player_name)
    who = names[player] if coach_game else None
    meta.update({"opponent": opponent, "seed": seed,
                 "player": who if coach_game else "cpu" if cpu else "you"})
    if coach_game:
        meta["names"] = list(names)
    # against a CPU, my endgame decisions also get the winning chance they gave up (exact two-player solve)
    cpu_level = opponent if players == 2 and not cpu and not coach_game else None
    table: TableReview | None = None
    try:
        rev = review_log(log, rules_name, player, meta=meta, opponent_level=cpu_level)
        if players >= 2:
            if not no_chances and not as_json:
                click.echo(tr("table.computing"), err=True)
            table = review_table(rules_name, names, log, chances=not no_chances)
    except (SavedGameError, DiceError, CategoryError) as e:  # the file's content, not the command line
        raise DataFileError(f"{where}: {e}") from None
    if as_json:
        out = rev.to_dict()
        if table is not None:
            out["table"] = table.to_dict()
        echo_json(out)
        return
    lines = review_lines(tr, rev, what, opponent, seed, player, who=who)
    if table is not None:
        lines += ["", *table_lines(tr, table)]
    click.echo("\n".join(lines))


def _check_number(tr: Translator, number: str, games: int) -> None:
    """Refuse the game ``number`` (a string of digits) when the history of ``games`` games has no such
    game: one line in ``tr``'s language naming the games there are, however long the number.

    Raises
    ------
    UsageError
        For a number outside 1 to ``games`` (``games`` at least 1).
    """
    from ..errors import UsageError
    from ..files import clip

    # no history holds a game of more than 18 digits (and int() refuses numbers of thousands of digits)
    if len(number) <= 18 and 1 <= int(number) <= games:
        return
    shown = clip(number, 40) if len(number) > 18 else str(int(number))
    key, have = ("review.missing_one", "1") if games == 1 else ("review.missing", f"1-{games}")
    raise UsageError(tr(key, n=shown, games=have))


def _seat(names: Sequence[str], name: str) -> int:
    """The seat of the player called ``name`` (compared by :func:`~yahtzee_solver.play.history.player_key`).

    Raises
    ------
    UsageError
        For a name not at the table (one line naming the players).
    """
    from ..errors import UsageError
    from ..play.history import player_key

    want = player_key(name)
    for i, n in enumerate(names):
        if player_key(n) == want:
            return i
    raise UsageError(f"unknown player {name!r}: the players are {', '.join(names)}")
