"""What the web page can do, without the web: one game on the server, the advisor, rules, records.

:class:`GameService` owns the game in progress exactly as the terminal game
does, through the same code (:mod:`yahtzee_solver.play.session`, reached through
:mod:`yahtzee_solver.web.store`): the engine (:mod:`yahtzee_solver.game`)
decides what is legal and rolls the dice from the seed the ledger keeps, the
CPU levels (:mod:`yahtzee_solver.strategy.players`) and the advisor
(:class:`~yahtzee_solver.Advisor`) decide, and every action is saved at once
(save and ledger); a resumed game is verified, a bad save counted, a chosen
seed or a hint makes the game practice.  The page only sends intentions
(roll, hold these positions, score in this box); it never sends dice or
points, and it is not told a secret seed before the game is over.

The results are plain JSON-safe dicts (the API's response bodies).  Refusals
are :class:`ApiError` with an HTTP status and one line of text in the
requested language.  Every method is safe to call from several threads (one
lock around the game).
"""

from __future__ import annotations

import copy
import os
import re
import secrets
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import CategoryError, DiceError, ScoreCardError, UsageError, YahtzeeError
from ..game import CPU, HUMAN, MAX_ROLLS, N_DICE, OPPONENTS, GameState, Hold, Roll, Score
from ..game import positions_of
from ..i18n import LANGS, Translator, format_probability
from ..i18n.text import MESSAGES
from ..rules import N_UPPER, RULESETS, RuleSet, get_rules
from ..play.session import advice_refused, cpu_steps
from ..dice import whole_number
from ..state import BONUS_KEYS, OPEN_WORDS, ScoreCard, _number_shown, card_entries, card_text_problem, entry_problem
from ..strategy.win_chances import WIN_HINT_MAX_OPEN, WinChances, WinHints, WinOption, win_note
from ..strategy.win_chances import warm as warm_win
from . import store
from .text import WEB_TEXT

if TYPE_CHECKING:
    from ..analysis.review import Decision
    from ..game import Action, Event
    from ..play.history import History, HistoryEntry
    from ..play.session import Settled
    from ..solver.table import ValueTable
    from ..strategy.advisor import Advisor
    from ..strategy.players import Strategy

_Path = str | os.PathLike[str] | None

__all__ = ["ApiError", "Msg", "GameService", "WebTranslator", "check_lang", "texts", "rules_pages", "advise", "parse_card_pairs",
           "records", "review"]

#: Longest card text accepted by :func:`parse_card_pairs` (characters).
MAX_CARD_TEXT = 400


class ApiError(Exception):
    """A request the server refuses: HTTP ``status`` and a one-line ``message``.

    Attributes
    ----------
    status : int
        400 bad input, 403 forbidden, 404 nothing there, 409 not now (the game's state forbids it).
    message : str
    code : str
        A short machine-readable reason (``illegal``, ``confirm_zero``, ``game_in_progress``, ``stale`` ...).
    extra : dict
        More fields of the reply (``game``: the current game, with a 409 ``stale``).
    """

    def __init__(self, status: int, message: str | Msg, code: str = "bad_request", **extra: Any) -> None:
        self.text: Msg | None = message if isinstance(message, Msg) else None
        if isinstance(message, Msg):
            message = message.render(WebTranslator("en"))
        super().__init__(message)
        self.status = status
        self.message: str = " ".join(str(message).split())
        self.code = code
        self.extra = extra

    def render(self, tr: Translator) -> str:
        """The message in ``tr``'s language (a :class:`Msg` given where no translator was at hand), on one line."""
        return self.message if self.text is None else " ".join(self.text.render(tr).split())


class Msg:
    """A message of the catalogue (key ``web.*`` or the game's) not yet put in a language.

    For refusals raised where the request's language is not at hand (the body and query checks,
    the guard): :class:`ApiError` renders it in English for ``message``, and the app's error handler
    again in the request's language.  A parameter may itself be a :class:`Msg`.
    """

    def __init__(self, key: str, **params: object) -> None:
        self.key = key
        self.params = params

    def render(self, tr: Translator) -> str:
        return tr(self.key, **{k: v.render(tr) if isinstance(v, Msg) else v for k, v in self.params.items()})


def history_game(h: History, number: int | str | Msg | None, tr: Translator, **extra: Any) -> HistoryEntry:
    """Game ``number`` (1 = the oldest kept) of the history ``h``, for the review routes.

    ``number`` may be the text :func:`history_number` gives for a number too long to be a game:
    it is missing, and named as it is.

    Raises
    ------
    ApiError
        404 ``no_game`` (with ``extra`` in the reply): "no finished game yet" for an empty
        history, else naming the missing number and the numbers there are.
    """
    from ..play.history import HistoryEntry

    numbers = [i + 1 for i, e in enumerate(h.entries) if isinstance(e, HistoryEntry)]
    if number is None or number not in numbers:
        if not numbers:
            raise ApiError(404, tr("web.review.none"), "no_game", **extra)
        games = str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}-{numbers[-1]}"
        shown = number.render(tr) if isinstance(number, Msg) else number
        raise ApiError(404, tr("web.review.missing", n=shown, games=games), "no_game", **extra)
    assert isinstance(number, int)  # listed above
    e = h.entries[number - 1]
    assert isinstance(e, HistoryEntry)  # listed above
    return e


#: Most digits of a game number taken as a number (a history never holds a billion games); a longer
#: well-formed number is a missing game all the same, quoted clipped.
MAX_GAME_DIGITS = 9


def quoted(text: str, limit: int = 20) -> str:
    """``text`` as an error message quotes it: ``repr`` of it as typed (blanks kept), cut to ``limit`` characters."""
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


def number_shown(n: int) -> str | Msg:
    """An integer of a request as an error message names it (a box of 4,000 digits): whole up to 24 characters,
    else its first and last 8 digits and its count of digits (a :class:`Msg`, as :func:`history_number` quotes)."""
    text = str(n)
    if len(text) <= 24:
        return text
    return Msg("web.err.long_number", head=text[:8], tail=text[-8:], n=len(text.lstrip("-")))


def history_number(text: str) -> int | str | Msg:
    """The game number of the history a ``game=`` parameter names (``/api/review``, ``/api/review/table``).

    Returns
    -------
    int, str or Msg
        The number; for a well-formed number of more than :data:`MAX_GAME_DIGITS` digits (no
        such game), the number as :func:`history_game` quotes it (clipped, a :class:`Msg` when its
        count of digits is said), which names no game.

    Raises
    ------
    ApiError
        400 ``bad_game``, quoting ``text`` as typed cut to 20 characters, when it is not a whole
        number (full-width digits count, :func:`whole_number`).
    """
    digits = whole_number(text)
    if digits is None:
        raise ApiError(400, Msg("web.err.bad_game", game=quoted(text)), "bad_game")
    if len(digits.lstrip("0")) > MAX_GAME_DIGITS:
        if len(digits) > 24:  # the command line's quoting (state._number_shown), the count said in the language
            return Msg("web.err.long_number", head=digits[:8], tail=digits[-8:], n=len(digits))
        return _number_shown(digits)
    return int(digits)


def _message(e: Exception) -> str:
    # KeyError subclasses (CategoryError) quote their message in str().
    return str(e.args[0]) if isinstance(e, KeyError) and e.args else str(e)


def _dice_text(dice: Iterable[int]) -> str:
    return " ".join(str(d) for d in dice)


# -- texts -------------------------------------------------------------------------------------
class WebTranslator(Translator):
    """:class:`~yahtzee_solver.i18n.Translator` that also knows the page's own words (keys ``web.*``)."""

    def __call__(self, key: str, **params: object) -> str:
        if key.startswith("web."):
            k = key[4:]
            text = WEB_TEXT[self.lang].get(k, WEB_TEXT["en"][k])
            return text.format(**params) if params else text
        return super().__call__(key, **params)

    def problem(self, key: str, params: Mapping[str, object], rules: RuleSet) -> str:
        """An illegal-action reason as the page says it: the page's own words where the terminal's
        name its commands (``(s <box>)``, ``(k a b ...)``), else the terminal's."""
        if f"problem.{key}" in WEB_TEXT["en"]:  # bad_box names the API's box numbers: indices 0..C-1
            return self(f"web.problem.{key}", **params, last=rules.n_categories - 1, first=self.box(rules, 0))
        return super().problem(key, params, rules)


def _rules_info(rules: RuleSet, tr: Translator) -> dict[str, Any]:
    return {
        "name": rules.name,
        "title": tr.title(rules),
        "boxes": [tr.box(rules, c) for c in range(rules.n_categories)],
        "slugs": [c.slug for c in rules.categories],
        "n_upper": N_UPPER,
        "upper_threshold": rules.upper_threshold,
        "upper_bonus": rules.upper_bonus,
        "yahtzee_box": rules.yahtzee_category,
        "yahtzee_bonus": rules.yahtzee_bonus,
    }


def texts(lang: str) -> dict[str, Any]:
    """Every word the page shows in ``lang``: the game's messages (:mod:`yahtzee_solver.i18n.text`),
    the page's own (:mod:`yahtzee_solver.web.text`, keys ``web.*``), box names and titles of each rule set.
    """
    tr = WebTranslator(lang)
    messages = dict(MESSAGES["en"])
    messages.update(MESSAGES[lang])
    messages.update({f"web.{k}": v for k, v in WEB_TEXT["en"].items()})
    messages.update({f"web.{k}": v for k, v in WEB_TEXT[lang].items()})
    return {
        "lang": lang,
        "messages": messages,
        "rules": {name: _rules_info(r, tr) for name, r in RULESETS.items()},
        "opponents": list(OPPONENTS),
        "levels": {lv: tr.level(lv) for lv in OPPONENTS if lv != "none"},
    }


def rules_pages(rules: str, lang: str) -> dict[str, Any]:
    """The rules of ``rules`` as the terminal game shows them, page by page (:meth:`Translator.rules_pages`)."""
    r = get_rules(rules)
    tr = WebTranslator(lang)
    return {"rules": r.name, "title": tr.title(r), "pages": tr.rules_pages(r)}


# -- the advisor page ----------------------------------------------------------------------------
def read_dice(text: str, tr: Translator) -> tuple[int, ...]:
    """Five dice typed in a request (``22555``), refused in ``tr``'s language: the one reading of the
    advisor's and the coach's hint's dice.

    Raises
    ------
    ApiError
        400 ``bad_dice`` for anything but five faces 1-6 (the text quoted, clipped).
    """
    from ..dice import parse_dice

    try:
        return parse_dice(text[:40])
    except DiceError:
        raise ApiError(400, tr("web.adv.err.dice", dice=quoted(text, 20)), "bad_dice") from None


def parse_card_pairs(text: str | None, rules: RuleSet, tr: Translator | None = None) -> ScoreCard:
    """A card from ``box=points`` pairs (``sixes=18,fh=25,yahtzee-bonus=100``), in the command line's syntax.

    The entries are read as ``--card`` reads them (:func:`yahtzee_solver.state.card_entries`:
    ``,``, ``;`` or blanks between them, ``:`` for ``=``, ``-`` for an open box).  Unlike
    :func:`yahtzee_solver.parse_card` this never reads a file (no ``@FILE``) or JSON, so it is
    safe for text that comes from a web request.  The refusals are in ``tr``'s language
    (default English) and name the box and points at fault.  ``None`` is the empty card;
    a blank text is refused as ``--card ' '`` is (:func:`yahtzee_solver.state.card_text_problem`).

    Raises
    ------
    ApiError
        400 for a syntax error, blanks or separators with no entry, an unknown or repeated box, or
        impossible points.
    """
    tr = tr or WebTranslator("en")
    if text is None:
        return ScoreCard.empty(rules)
    if len(text) > MAX_CARD_TEXT:
        raise ApiError(400, tr("web.adv.err.long", n=MAX_CARD_TEXT))
    pairs: dict[str, Any] = {}
    for item, name, value in card_entries(text):  # the command line's syntax (state.card_entries)
        problem = entry_problem(item[:40], name, value, pairs)  # the command line's check and words
        if problem is None and not re.fullmatch(r"[\w-]+", str(name)):  # '{"sixes":6}' is no box=points
            problem = "entry", {"entry": repr(item[:40])}
        if problem is not None:
            raise ApiError(400, tr(f"card.{problem[0]}", **problem[1]))
        assert name is not None  # entry_problem refuses an entry without '='
        # the points as typed: the card's own reader refuses them as the command line does (CARD_PROBLEMS)
        pairs[name] = None if value.lower() in OPEN_WORDS else value[:40]
    empty = card_text_problem(text, list(pairs))  # blanks or separators only: refused as the command line does
    if empty is not None:
        raise ApiError(400, tr(f"card.{empty[0]}", **empty[1]))
    try:
        return ScoreCard.from_mapping(pairs, rules)
    except CategoryError as e:
        if e.key is not None:  # a box named twice (by an alias): the command line's text, and in zh and ja
            raise ApiError(400, tr(f"card.{e.key}", **e.params)) from None
        whole: ScoreCardError | CategoryError = e
    except ScoreCardError as e:
        if e.key is not None:  # the command line's text in English, the same problem in zh and ja
            params = dict(e.params)
            if tr.lang != "en" and isinstance(params.get("box"), str):  # the box by its name in this language
                try:
                    params["box"] = tr.box(rules, rules.category_index(str(params["box"])))
                except CategoryError:
                    pass  # the Yahtzee bonus's key, as typed
            raise ApiError(400, tr(f"card.{e.key}", **params)) from None
        whole = e
    for name in pairs:  # which box is unknown, to say it in the page's language
        try:
            rules.category_index(name)
        except CategoryError:
            if re.sub(r"[\s_]+", "-", name) not in BONUS_KEYS:
                raise ApiError(400, tr("card.unknown", box=repr(name[:40]), rules=repr(rules.name),
                                       names=", ".join(c.slug for c in rules.categories))) from None
    raise ApiError(400, tr("web.adv.err.card", detail=_message(whole))) from None


class _Advisors:
    """The :class:`~yahtzee_solver.Advisor` of each rule set, made on first use (tables load once).

    An ``Advisor`` reuses its work arrays from query to query, so one query at a
    time runs on each: :meth:`using` lends a free one for the query.  When every
    advisor of the rule set is busy (a long hint, a review), another is made on
    the same table, up to :attr:`MAX_PER_RULES`; only then does a query wait.

    Attributes
    ----------
    MAX_PER_RULES : int
        Most advisors kept per rule set (they share one read-only table).
    """

    MAX_PER_RULES = 3

    def __init__(self, jit: bool):
        self.jit = jit
        self._made: dict[str, list[tuple[Advisor, threading.Lock]]] = {}  # rules name -> [(Advisor, Lock), ...]
        self._lock = threading.Lock()

    def __call__(self, rules: RuleSet) -> tuple[Advisor, threading.Lock]:
        """The first advisor of ``rules`` and its query lock."""
        return self._pool(rules)[0]

    def _pool(self, rules: RuleSet) -> list[tuple[Advisor, threading.Lock]]:
        with self._lock:
            if rules.name not in self._made:
                from ..strategy.advisor import Advisor

                self._made[rules.name] = [(Advisor(rules, jit=self.jit), threading.Lock())]
            return self._made[rules.name]

    @contextmanager
    def using(self, rules: RuleSet) -> Iterator[Advisor]:
        """``with advisors.using(rules) as adv:`` -- an advisor of ``rules``, for this thread only."""
        pool = self._pool(rules)
        for pair in list(pool):
            if pair[1].acquire(blocking=False):
                adv, lock = pair
                break
        else:
            with self._lock:
                if len(pool) < self.MAX_PER_RULES:
                    from ..strategy.advisor import Advisor

                    pool.append((Advisor(rules, pool[0][0].table, jit=self.jit), threading.Lock()))
                adv, lock = pool[-1]
            lock.acquire()
        try:
            yield adv
        finally:
            lock.release()

    def table(self, rules: RuleSet) -> ValueTable:
        """The value table of ``rules`` (read-only, shared)."""
        return self(rules)[0].table


def _keep_rows(adv: Advisor, card: ScoreCard, dice: Sequence[int], rolls_left: int, tr: Translator,
               held: Sequence[bool] | None = None, position_dice: Sequence[int] | None = None) -> list[dict[str, Any]]:
    rows = []
    for o in adv.keep_options(card, dice, rolls_left):
        stop = None
        if o.score is not None:  # keeping all five: no reroll, the dice are scored now in this box (no pass)
            b = o.score
            text = tr("hint.stop", box=tr.box(card.rules, b.category), points=b.points)
            stop = {"box": b.category, "name": tr.box(card.rules, b.category), "points": b.points}
        elif not o.keep:
            text = tr("hint.reroll_all")
        else:
            text = tr("hint.keep", keep=_dice_text(o.keep), reroll=_dice_text(o.reroll))
        row = {"keep": list(o.keep), "reroll": list(o.reroll), "expected": o.expected, "loss": o.loss, "text": text,
               "stop": stop}
        if position_dice is not None:
            row["held"] = list(positions_of(position_dice, o.keep, held))
        rows.append(row)
    return rows


def _box_rows(adv: Advisor, card: ScoreCard, dice: Sequence[int], tr: Translator) -> list[dict[str, Any]]:
    rules = card.rules
    return [
        {"box": o.category, "name": tr.box(rules, o.category), "points": o.points, "expected": o.expected,
         "loss": o.loss, "yahtzee_bonus": o.yahtzee_bonus, "upper_bonus": o.upper_bonus, "joker": o.joker,
         "text": tr("hint.box", box=tr.box(rules, o.category), points=o.points)}
        for o in adv.box_options(card, dice)
    ]


def advise(advisors: _Advisors, rules: str, card_text: str | None, dice_text: str, rolls_left: int,
           lang: str) -> dict[str, Any]:
    """The advisor page's answer: ranked keeps (``rolls_left`` 1 or 2) or ranked boxes (0).

    Raises
    ------
    ApiError
        400 for unknown rules, a bad card or dice, a full card, or ``rolls_left`` outside 0..2.
    """
    tr = WebTranslator(lang)
    try:
        r = get_rules(rules)
    except UsageError:
        raise ApiError(400, tr("web.adv.err.rules", rules=repr(rules[:40]), choices=", ".join(RULESETS))) from None
    card = parse_card_pairs(card_text, r, tr)
    if card.is_full:
        raise ApiError(400, tr("card.full"))
    dice = read_dice(dice_text, tr)
    if rolls_left not in (0, 1, 2):
        raise ApiError(400, tr("web.err.rolls_left", value=repr(rolls_left)))
    with advisors.using(r) as adv:
        out = {
            "rules": r.name, "card": card.to_dict(), "card_text": card.format(), "dice": list(dice),
            "rolls_left": rolls_left, "total": card.total, "upper_subtotal": card.upper_subtotal,
            "expected_now": adv.expected_final(card),
        }
        if rolls_left:
            out.update(kind="keep", options=_keep_rows(adv, card, dice, rolls_left, tr))
        else:
            out.update(kind="box", options=_box_rows(adv, card, dice, tr))
    return out


def records(lang: str, records_file: _Path = None) -> dict[str, Any]:
    """The records book as rows with localized rule-set and opponent names (an unreadable file is moved aside)."""
    tr = WebTranslator(lang)
    try:
        book = store.RecordBook.load(records_file)
    except store.DataFileError as e:
        raise ApiError(500, tr("web.err.file", detail=e), "records_unreadable") from None
    rows = []
    for row in book.to_list():
        rows.append({**row, "rules_title": tr.title(get_rules(row["rules"])), "opponent_name": tr.opponent(row["opponent"])})
    return {"records": rows, "problem": book.problem}


def _review_choice(tr: Translator, rules: RuleSet, d: Decision, which: str) -> str:
    # the words of `yahtzee-solve review` (i18n keys review.*)
    x: Any = d.choice if which == "choice" else d.best  # a box index or the dice kept
    if d.kind == "box":
        return tr.box(rules, x)
    if which == "choice" and x == d.dice and d.rolls_left:
        return tr("review.stand")
    return tr("review.keep", dice=_dice_text(x))


def review(advisors: _Advisors, lang: str, history_file: _Path, number: int | str | Msg | None = None,
           player: int | str | None = 0) -> dict[str, Any]:
    """The review of a finished game of the history, as ``yahtzee-solve review N`` makes it
    (:func:`yahtzee_solver.analysis.review.review_log`): every decision, the best one and the expected loss.

    Parameters
    ----------
    number : int or str, optional
        The game's number in the history (1 = the oldest kept; :func:`history_number`); default the last one.
    player : int or str, optional
        0 (or ``"you"``, ``None``) the player's decisions, 1 (or ``"cpu"``) the CPU's; of a coach game, a player's
        name (compared as ``review --player NAME`` compares it, :func:`~yahtzee_solver.play.history.player_key`),
        ``None`` or ``"you"`` (the page's default) the first player's.

    Returns
    -------
    dict
        ``review`` (:meth:`GameReview.to_dict`: the numbers of the CLI's ``--json``), ``number``, ``rows``
        (each decision's words), ``lines`` (score, totals, bands, costliest, as the CLI prints them),
        ``games`` (the history, newest first: number, date, rules title, opponent, scores).

    Raises
    ------
    ApiError
        404 when there is no such game (or no history yet); 400 for ``player`` 1 in solitaire, a player
        other than you or cpu in a game of the page, a name not at a coach game's table; all with ``games``
        in the reply.
    """
    from ..play.history import History, HistoryEntry, player_key
    from ..analysis.review import review_log

    tr = WebTranslator(lang)
    h = History.load(history_file)
    games = [
        {"number": i + 1, "date": e.date, "rules_title": tr.title(get_rules(e.rules)),
         "opponent_name": tr.opponent("solo" if e.opponent == "none" else e.opponent), "scores": list(e.scores)}
        for i, e in enumerate(h.entries) if isinstance(e, HistoryEntry)
    ][::-1]
    n = h.last_number() if number is None else number
    try:
        e = history_game(h, n, tr, games=games)
    except ApiError:
        if isinstance(player, str) and player not in ("you", "cpu"):  # a name, and no coach game to have it
            raise ApiError(400, tr("web.err.player", player=quoted(player)), games=games) from None
        raise
    assert isinstance(n, int)  # history_game found it
    names = e.seat_names()
    who: str | None = None  # a coach game's player (the dice were the players' own: no seed)
    if e.is_table:
        asked = "you" if player in (None, 0) else str(player)
        keys = [player_key(name) for name in names]
        if player_key(asked) in keys:
            player = keys.index(player_key(asked))
        elif asked == "you":  # the page's default: the first player, as review N without --player
            player = 0
        else:
            raise ApiError(400, tr("web.err.table_player", player=quoted(asked), names=", ".join(names)),
                           "unknown_player", games=games)
        who = names[player]
    elif player is None or isinstance(player, str):
        if player not in (None, "you", "cpu"):
            raise ApiError(400, tr("web.err.player", player=quoted(player)), games=games)
        player = 1 if player == "cpu" else 0
    assert isinstance(player, int)
    if player == 1 and e.players < 2:  # the games too: the page's choice of game stays filled
        raise ApiError(400, tr("web.review.no_cpu"), "no_cpu", games=games)
    r = get_rules(e.rules)
    meta: dict[str, Any] = {"source": "history", "number": n, "date": e.date, "result": e.result, "scores": list(e.scores),
            "opponent": "solo" if e.opponent == "none" else e.opponent, "seed": None if e.is_table else e.seed,
            "player": who if who is not None else "cpu" if player else "you"}
    if who is not None:
        meta["names"] = list(names)  # as review N --player NAME --json
    try:
        with advisors.using(r) as adv:
            # against a CPU, my endgame decisions also carry the winning chance they gave up (as the CLI's)
            level = e.opponent if e.players == 2 and player == 0 and not e.is_table else None
            rev = review_log(e.log, r, player, advisor=adv, meta=meta, opponent_level=level)
    except YahtzeeError as err:
        raise ApiError(500, tr("review.unavailable", detail=_message(err)), "review_failed") from None
    rows = [{"turn": d.turn, "dice": _dice_text(d.dice), "rolls_left": d.rolls_left if d.kind == "keep" else None,
             "choice": _review_choice(tr, r, d, "choice"), "best": _review_choice(tr, r, d, "best"), "loss": d.loss,
             "win_lost": d.win_lost}
            for d in rev.decisions]
    b = rev.bands
    head = "review.header" if meta["seed"] is not None else "review.header_unseeded"  # a coach game has no seed
    lines = [tr(head, what=tr("review.game", n=n, date=e.date), title=tr.title(r),
                opponent=tr.opponent(meta["opponent"]), seed=meta["seed"]).replace("\n", " · ")]
    if who is not None:
        lines.append(tr("web.review.player_of", player=who))
    elif player == 1:
        lines.append(tr("review.cpu"))
    if rev.decisions:
        lines.append(tr("review.score" if rev.complete else "review.score_so_far", score=rev.final_score,
                        expected=f"{rev.start_value:.2f}"))
        lines.append(tr("review.total", total=f"{rev.total_loss:.2f}", n=len(rev.decisions), mean=f"{rev.mean_loss:.3f}"))
        from ..tui.review import win_lines

        lines.extend(win_lines(tr, rev))
        lines.append(tr("review.bands", b0=b["0"], b1=b["<1"], b2=b["1-5"], b3=b[">=5"]))
    else:
        lines.append(tr("review.none"))
    return {"review": rev.to_dict(), "number": n, "players": e.players, "names": list(names) if e.is_table else None,
            "player": meta["player"], "rows": rows, "lines": lines, "games": games,
            "costliest": [rev.decisions.index(d) for d in rev.costliest(3)]}


# -- the game --------------------------------------------------------------------------------------
class GameService:
    """The one game the server plays, under the terminal game's rules (:mod:`yahtzee_solver.play.session`).

    On start the saved game is settled (:func:`store.settle`): a verified
    unfinished game is resumed with the same dice; a save that was edited,
    rolled back or deleted is set aside and counted (a loss against the
    CPU, abandoned in solitaire).  Every action is saved at once
    (:meth:`store.GameStore.save`); a chosen seed or a hint makes the game
    practice; a new game over an unfinished one counts that one as
    abandoned (a loss against the CPU).

    Parameters
    ----------
    game_file : path, optional
        The game in progress; default the terminal game's (:func:`store.save_path`).  The ledger is
        ``ledger.json`` next to it.
    records_file, history_file : path, optional
        The records and the game history (:mod:`yahtzee_solver.play.history`, for ``review``).  Default:
        ``records.json`` and ``history.json`` next to ``game_file`` when it is given, else the
        terminal game's (:func:`store.records_path`, :func:`store.history_path`): a server given its
        own game file never writes in the data folder.
    jit : bool
        Compiled (numba) or interpreted kernels for the advisor and the CPU.

    Attributes
    ----------
    state : GameState or None
        The game in progress, or the game just finished (kept for display
        until a new one starts), or ``None``.
    store : GameStore
        The game's files; ``store.entry`` is ``None`` once the game is filed.
    result : dict or None
        How the finished game was filed in the records.
    settled : Settled or None
        What the start found (reported once as the notice).
    problem : str or None
        Why the files could not be read on start (no new game until they can be).
    notice : str or None
        A records file that was unreadable when the last game was counted.
    """

    def __init__(self, game_file: _Path = None, records_file: _Path = None, *, history_file: _Path = None,
                 jit: bool = False) -> None:
        given = game_file is not None
        self.game_file: Path = Path(game_file) if game_file is not None else store.save_path()
        self.records_file: Path = (Path(records_file) if records_file is not None
                                   else self.game_file.with_name("records.json") if given else store.records_path())
        self.history_file: Path = (Path(history_file) if history_file is not None
                                   else self.game_file.with_name("history.json") if given else store.history_path())
        self.store: store.GameStore = store.GameStore(self.game_file)
        self.lock: threading.RLock = threading.RLock()
        self.cpu_lock: threading.Lock = threading.Lock()  # one CPU step at a time; a second one is refused, never queued
        self.hint_lock: threading.Lock = threading.Lock()  # the chances of winning keep their last DP (self.win_hints)
        self._epoch = secrets.token_hex(4)  # versions of one server never match another's
        self._changes = 0
        self._before_score: GameState | None = None  # the game before the player's last score, for an undo (solitaire)
        self.advisors: _Advisors = _Advisors(jit)
        self.jit = jit
        self.state: GameState | None = None
        self.result: dict[str, Any] | None = None
        self.settled: Settled | None = None
        self.problem: str | None = None
        self.notice: str | None = None
        self._strategy: Strategy | None = None
        self.win_hints: WinHints = WinHints()  # the hint's chances of winning against the CPU, the last DP kept
        self.why_lock: threading.Lock = threading.Lock()  # one reasons computation at a time (they are long early on)
        self._why_last: tuple[tuple[Any, ...], dict[str, Any]] | None = None  # the last position's reasons
        self.load()

    # -- files ------------------------------------------------------------------------------
    @property
    def version(self) -> str:
        """The version of the game shown: it changes with every action (and a new game or a reload)."""
        return f"{self._epoch}-{self._changes}"

    def _check_version(self, version: str | None, tr: Translator) -> None:
        """Refuse an action decided on another version of the game (a stale tab): 409 ``stale`` with the game."""
        if version is not None and version != self.version:
            raise ApiError(409, tr("web.stale"), "stale", game=self.view(tr))

    def load(self) -> None:
        """(Re)read the saved game and settle it (:func:`store.settle`): resume, file or count it."""
        with self.lock:
            self._changes += 1
            self._settled_told = False
            self._before_score = None
            self.state, self.result, self._strategy, self.settled = None, None, None, None
            self.store = store.GameStore(self.game_file)
            try:
                self.settled = store.settle(self.store, self.records_file)
            except store.DataFileError as e:
                self.problem = str(e)
                return
            self.problem = None
            self.state = self.settled.state

    def notices(self, tr: Translator) -> list[str]:
        """What the start found (once: the first time the game is read) and the files' problems, in ``tr``'s language."""
        out = []
        if self.settled is not None and not self._settled_told:
            out = [text for text, _ in store.settle_notes(tr, self.settled)]
            self._settled_told = True
        if self.problem:
            out.append(self.problem)
        if self.notice:
            out.append(tr("warn.records", detail=self.notice))
        return out

    def _save(self) -> None:
        """Save the game after an action; if that fails, go back to what the files hold (the ledger is
        written first: an action it does not certify is forgotten, never shown)."""
        try:  # the save, then the records' note of the game (a records problem is a warning, not an error)
            problem = store.save_action(self.store, self._game, self.records_file)
        except store.DataFileError as e:
            self.load()
            raise ApiError(500, Msg("web.err.save_failed", detail=str(e)), "save_failed") from None
        if problem:
            self.notice = problem

    def _file(self) -> None:
        """Record the finished game (its save and ledger entry are deleted once recorded)."""
        st = self._game
        outcome = store.game_outcome(st)
        practice = bool(self.store.practice)
        try:
            filed = store.file_finished(st, self.store, self.records_file, self.history_file)
        except store.DataFileError as e:
            self.result = {"outcome": outcome, "recorded": False, "practice": practice, "problem": str(e)}
            return
        upd = filed.update
        self.result = {
            "outcome": outcome, "recorded": True, "practice": upd.practice, "problem": filed.records_problem,
            "record": upd.record.to_dict(), "new_best": upd.new_best, "previous_best": upd.previous_best,
            "history_number": filed.history_number, "history_problem": filed.history_problem,
        }

    # -- helpers ------------------------------------------------------------------------------
    @property
    def _game(self) -> GameState:
        """The game in progress, where the caller has made sure there is one."""
        assert self.state is not None, "no game"
        return self.state

    def _need_game(self, tr: Translator) -> GameState:
        if self.state is None:
            raise ApiError(409, tr("web.err.no_game"), "no_game")
        return self.state

    def _human_turn(self, tr: Translator, hint: bool = False) -> GameState:
        """The game, when it is the human's turn (``hint``: the refusal speaks of a hint, not a move)."""
        st = self._need_game(tr)
        if st.is_terminal():
            raise ApiError(409, tr.problem("game_over", {}, st.rules), "illegal")
        if st.is_cpu_turn:
            raise ApiError(409, tr("hint.cpu_turn" if hint else "web.cpu_turn"), "cpu_turn")
        return st

    def _check(self, st: GameState, action: Action, tr: Translator) -> None:
        why = st.problem(action)
        if why is not None:
            # a box index outside the card (or a malformed hold) is a bad request, with the code the coach's and
            # the training's APIs give it; a move the position forbids is an illegal move (409)
            bad_request = why[0] in ("bad_box", "bad_hold")
            params = why[1]
            if why[0] == "bad_box":  # a box of 4,000 digits named by its ends
                box = params.get("box")
                shown = number_shown(box) if isinstance(box, int) else repr(box)
                params = {**params, "box": shown.render(tr) if isinstance(shown, Msg) else shown}
            raise ApiError(400 if bad_request else 409, tr.problem(why[0], params, st.rules),
                           why[0] if bad_request else "illegal")

    @property
    def strategy(self) -> Strategy:
        if self._strategy is None:
            from ..strategy.levels import make_strategy

            st = self._game
            level = st.config.opponent
            table = self.advisors.table(st.rules) if level in ("expert", "master") else None
            # master solves a DP at each of its late turns: compiled kernels, as in the terminal game
            self._strategy = make_strategy(level, st.rules, rng=st.cpu_rng, table=table,
                                           jit=self.jit or level == "master")
        return self._strategy

    def _player(self, p: int, tr: Translator) -> str:
        return tr("you") if p == HUMAN else tr("cpu", level=tr.level(self._game.config.opponent))

    def _act(self, action: Action) -> Event:
        self._changes += 1
        self._before_score = None
        ev = self._game.apply_action(action)
        self._save()
        if self._game.is_terminal():
            self._file()
        return ev

    def _scored_lines(self, ev: Event, tr: Translator) -> list[str]:
        rules = self._game.rules
        lines = [tr("ev.scored", player=self._player(ev.player, tr), points=ev.points,
                    box=tr.box(rules, ev.category), joker=tr("ev.joker") if ev.joker else "")]
        if ev.yahtzee_bonus:
            lines.append(tr("ev.yahtzee_bonus", yahtzee=tr.box(rules, rules.yahtzee_category), points=ev.yahtzee_bonus))
        if ev.upper_bonus:
            lines.append(tr("ev.upper_bonus", points=ev.upper_bonus))
        return lines

    def _reply(self, tr: Translator, events: list[str]) -> dict[str, Any]:
        return {"game": self.view(tr), "events": events}

    # -- the view --------------------------------------------------------------------------------
    def view(self, tr: Translator) -> dict[str, Any] | None:
        """The game as the page draws it (``None`` when there is no game)."""
        st = self.state
        if st is None:
            return None
        rules = st.rules
        cfg = st.config
        players = []
        for p, card in enumerate(st.cards):
            players.append({
                "name": self._player(p, tr), "column": tr("col.you") if p == HUMAN else tr("col.cpu"),
                "boxes": list(card.boxes), "upper_subtotal": card.upper_subtotal, "upper_bonus": card.upper_bonus,
                "upper_done": all(v is not None for v in card.boxes[:N_UPPER]),
                "yahtzee_bonus": card.yahtzee_bonus, "total": card.total,
            })
        over = st.is_terminal()
        preview = None
        joker = bonus_now = None
        scored = st.preview()
        if scored is not None:
            points, legal, ybonus = scored
            preview = {"points": list(points), "legal": list(legal), "yahtzee_bonus": ybonus,
                       "zero": [st.zero_warning(c) and legal[c] for c in range(rules.n_categories)]}
            j = st.joker()
            joker = tr.joker(j, rules) if j is not None else None
            if ybonus:
                bonus_now = tr("bonus_now", yahtzee=tr.box(rules, rules.yahtzee_category), points=ybonus)
        if over:
            status = ""
        elif st.is_cpu_turn:
            status = tr("web.status.cpu", player=self._player(CPU, tr))
        elif st.dice is None:
            status = tr("web.status.your_roll")
        elif st.rolls_used >= MAX_ROLLS:
            status = tr("web.status.locked")
        else:
            status = tr("web.status.hold")
        view = {
            "rules": rules.name, "title": tr.title(rules), "opponent": cfg.opponent,
            "opponent_name": tr.opponent(cfg.opponent_key), "first": "me" if cfg.first == HUMAN else "cpu",
            "version": self.version,
            "seed": str(cfg.seed) if over or "seed" in self.store.practice else None, "practice": self._practice(),
            "n_players": cfg.n_players, "round": st.round, "turns": cfg.n_turns,
            "current": st.current, "cpu_turn": (not over) and st.is_cpu_turn, "over": over,
            "dice": None if st.dice is None else list(st.dice), "held": list(st.held),
            "rolls_used": st.rolls_used, "max_rolls": MAX_ROLLS, "locked": st.rolls_used >= MAX_ROLLS,
            "can_roll": (not over) and not st.is_cpu_turn and st.problem(Roll()) is None,  # not the CPU's roll
            "can_undo": (not over) and store.can_undo(st, self._before_score),
            "players": players, "preview": preview, "joker": joker, "bonus_now": bonus_now, "status": status,
            "result": None,
        }
        if over:
            view["result"] = self._result_view(tr)
        return view

    def _practice(self) -> bool:
        """Whether the game shown is practice (a chosen seed or a hint): from the ledger, or the filed result."""
        if self.store.entry is not None:
            return bool(self.store.practice)
        return bool((self.result or {}).get("practice"))

    def _result_view(self, tr: Translator) -> dict[str, Any]:
        st, res = self._game, self.result or {}
        me = st.cards[HUMAN].total
        lines = []
        if st.config.n_players == 1:
            lines.append(tr("end.solo", total=me))
        else:
            cpu = st.cards[CPU].total
            key = {"win": "end.win", "loss": "end.loss", "draw": "end.draw"}[res.get("outcome") or "draw"]
            lines.append(tr(key, me=me, cpu=cpu, player=self._player(CPU, tr)))
        names = {"rules": tr.title(st.rules), "opponent": tr.opponent(st.config.opponent_key)}
        if res.get("recorded"):
            if res.get("practice"):
                lines.append(tr("end.practice"))
                names["rules"] = tr("practice.label", rules=names["rules"])
            if res.get("new_best"):
                lines.append(tr("end.record", score=me, old=res["previous_best"], **names))
            lines.append(tr.record_line(res["record"], st.config.n_players == 2, **names))
        elif res:
            lines.append(tr("warn.records", detail=res.get("problem", "")))
        lines.append(tr("end.seed", seed=st.config.seed))
        return {**res, "lines": lines}

    def warm(self) -> None:
        """Load the table and kernels the saved game (else ``yahtzee``) needs, so the first hint is quick.

        Against a CPU, also the kernels of the hint's chances of winning
        (:func:`yahtzee_solver.strategy.win_chances.warm`).

        Safe to run in a background thread; errors are left for the first real request to report.
        """
        try:
            with self.lock:
                st = self.state
                rules = st.rules if st is not None else get_rules("yahtzee")
                level = st.config.opponent if st is not None and not st.is_terminal() else "none"
                if level != "none":
                    _ = self.strategy  # builds the CPU player (its table, its kernels)
            with self.advisors.using(rules) as adv:
                adv.keep_options(ScoreCard.empty(rules), (1, 2, 3, 4, 6), 2)
            if level != "none":
                warm_win(rules, level, self.advisors.table(rules))  # the hint's chances of winning
        except YahtzeeError:
            pass

    # -- actions -----------------------------------------------------------------------------------
    def get(self, tr: Translator) -> dict[str, Any]:
        """``{"game": view or None, "notice": text or None, "notices": [text, ...]}``.

        ``notices`` says what the start found (a game resumed, filed, or
        refused and counted; files moved aside) and the last records problem;
        ``notice`` is the same joined in one line.
        """
        with self.lock:
            if self.state is None and self.problem:
                self.load()  # the files could not be read: read them again, they may have been mended
            notes = self.notices(tr)
            return {"game": self.view(tr), "notice": " ".join(notes) or None, "notices": notes}

    def new(self, tr: Translator, rules: str, opponent: str, first: str, seed: int | None, abandon: bool) -> dict[str, Any]:
        """Start a new game (:func:`store.make_game`, :func:`store.begin_game`).

        A chosen ``seed`` makes it practice; ``None`` draws a secret one.  An
        unfinished game is replaced only when ``abandon`` is true, and is then
        counted: a loss against the CPU, abandoned in solitaire.

        Raises
        ------
        ApiError
            400 for bad settings; 409 ``game_in_progress`` when a game is unfinished and ``abandon`` is false;
            500 when the files cannot be read or written (nothing is lost: the old game stays).
        """
        with self.lock:
            try:
                state, practice = store.make_game(rules, opponent, first, seed)
            except YahtzeeError as e:
                raise ApiError(400, self._settings_problem(tr, rules, opponent, first, e)) from None
            if self.problem is not None:
                self.load()  # the files were unusable at start: try again, never write over them
                if self.problem is not None:
                    raise ApiError(500, tr("web.err.file", detail=self.problem), "files_unusable")
            old = self.state
            if old is not None and old.is_terminal() and self.store.entry is not None:
                self._file()  # a finished game the records could not take: file it first, or keep it
                assert self.result is not None  # _file sets it
                if not self.result["recorded"]:
                    raise ApiError(500, tr("web.err.records_failed", detail=self.result["problem"]),
                                   "records_failed")
            if old is not None and not old.is_terminal() and not abandon:
                key = "confirm.new_game" if old.config.n_players == 1 else "confirm.new_game_cpu"
                msg = tr(key, rules=tr.title(old.rules), opponent=tr.opponent(old.config.opponent_key),
                         round=old.round, turns=old.rules.n_categories)
                raise ApiError(409, msg, "game_in_progress")
            try:
                counted = store.begin_game(self.store, state, practice, lang=tr.lang, records_file=self.records_file)
            except store.DataFileError as e:
                raise ApiError(500, tr("web.err.start_failed", detail=e), "save_failed") from None
            self.state, self.result, self._strategy, self.settled = state, None, None, None
            self._changes += 1
            self._before_score = None
            self.notice = counted[1] if counted is not None else None
            events = []
            if counted is not None:
                assert old is not None  # the game counted is the one replaced
                events.append(tr(f"web.counted.{counted[0]}", rules=tr.title(old.rules),
                                 opponent=tr.opponent(old.config.opponent_key)))
            if practice:
                events.append(tr("practice.seed"))
            if state.config.n_players == 2:
                key = "ev.first_you" if state.config.first == HUMAN else "ev.first_cpu"
                events.append(tr(key, player=self._player(CPU, tr)))
            return self._reply(tr, events)

    @staticmethod
    def _settings_problem(tr: Translator, rules: str, opponent: str, first: str, e: YahtzeeError) -> str:
        """What is wrong with a new game's settings (``e``: :func:`store.make_game`'s refusal), in ``tr``'s language."""
        try:
            get_rules(rules)
        except UsageError:
            return tr("web.adv.err.rules", rules=quoted(rules, 40), choices=", ".join(RULESETS))
        if opponent.lower() not in OPPONENTS:
            return tr("web.err.opponent", opponent=quoted(opponent), choices=", ".join(OPPONENTS))
        if first.lower() not in ("me", "cpu", "random"):
            return tr("web.err.first", first=quoted(first), choices="me, cpu, random")
        return tr("web.err.settings", detail=_message(e))

    def roll(self, tr: Translator, version: str | None = None) -> dict[str, Any]:
        """The human rolls (all five first, then the dice not held).

        ``version`` (every action's): the game's version the action was decided on;
        another one than the current is refused (409 ``stale``, with the current game).
        """
        with self.lock:
            self._check_version(version, tr)
            st = self._human_turn(tr)
            self._check(st, Roll(), tr)
            self._act(Roll())
            return self._reply(tr, [])

    def hold(self, tr: Translator, held: list[Any], version: str | None = None) -> dict[str, Any]:
        """The human holds exactly the dice at the positions where ``held`` is true."""
        with self.lock:
            self._check_version(version, tr)
            st = self._human_turn(tr)
            action = Hold(tuple(held))
            self._check(st, action, tr)
            if action.held != st.held:
                self._act(action)
            return self._reply(tr, [])

    def score(self, tr: Translator, box: int, confirm: bool, version: str | None = None) -> dict[str, Any]:
        """The human scores in ``box``; a would-be 0 while another box scores needs ``confirm``.

        Raises
        ------
        ApiError
            409 ``confirm_zero`` (with the question as the message) when confirmation is needed.
        """
        with self.lock:
            self._check_version(version, tr)
            st = self._human_turn(tr)
            action = Score(box)
            self._check(st, action, tr)
            rules = st.rules
            if st.zero_warning(box) and not confirm:
                preview = st.preview()
                assert preview is not None  # a zero warning needs dice
                pts, legal, _ = preview
                best = max((pt, -i) for i, pt in enumerate(pts) if legal[i])
                q = tr("confirm.zero", box=tr.box(rules, box), other=tr.box(rules, -best[1]), points=best[0])
                raise ApiError(409, q, "confirm_zero")
            before = st.clone() if st.config.n_players == 1 else None  # a score draws no dice: for an undo
            ev = self._act(action)
            self._before_score = before
            return self._reply(tr, self._scored_lines(ev, tr))

    def undo(self, tr: Translator, version: str | None = None) -> dict[str, Any]:
        """Take back the player's last score, as the terminal's ``u`` (:func:`store.undo_score`).

        Solitaire only, before the next roll; the game becomes practice.

        Raises
        ------
        ApiError
            409 when there is nothing to undo (``no_undo``) or ``stale``; 500 when the files cannot be written.
        """
        with self.lock:
            self._check_version(version, tr)
            st = self._need_game(tr)
            if st.is_terminal() or not store.can_undo(st, self._before_score):
                raise ApiError(409, tr("web.err.no_undo"), "no_undo")
            assert self._before_score is not None  # can_undo checked it
            try:
                state, last, first = store.undo_score(self.store, st, self._before_score, self.records_file)
            except store.DataFileError as e:
                raise ApiError(500, tr("web.err.save_failed", detail=e), "save_failed") from None
            self.state, self._before_score = state, None
            self._changes += 1
            events = [tr("practice.undo")] if first else []
            events.append(tr("ev.undone", box=tr.box(st.rules, last.category)))
            return self._reply(tr, events)

    def cpu(self, tr: Translator, version: str | None = None) -> dict[str, Any]:
        """One step of the CPU's turn: its first roll, a keep and reroll, or its score.

        The server owns the CPU's turn: one step runs at a time, and a second
        request meanwhile (another tab) is refused at once with 409 ``stale``
        and the game, never queued to play a step twice.  The CPU decides
        outside the game's lock, so reading the game never waits for it.
        """
        if not self.cpu_lock.acquire(blocking=False):
            with self.lock:
                raise ApiError(409, tr("web.stale"), "stale", game=self.view(tr))
        try:
            with self.lock:
                self._check_version(version, tr)
                st = self._need_game(tr)
                if st.is_terminal() or not st.is_cpu_turn:
                    raise ApiError(409, tr("web.err.not_cpu_turn"), "not_cpu_turn", game=self.view(tr))
                strategy = self.strategy

            def act(action: Action) -> Event:  # the human cannot move on the CPU's turn; a new game replaces self.state
                with self.lock:
                    if self.state is not st:
                        raise ApiError(409, tr("web.stale"), "stale", game=self.view(tr))
                    return self._act(action)

            events = []
            for ev, lines in cpu_steps(st, strategy, act, tr):
                events.extend(lines if ev.kind == "roll" else self._scored_lines(ev, tr))
            with self.lock:
                return self._reply(tr, events)
        finally:
            self.cpu_lock.release()

    def hint(self, tr: Translator, version: str | None = None) -> dict[str, Any]:
        """The advisor's ranked options for the human's position, with expected final totals and losses.

        Against the CPU, also each option's chance of winning, as the
        terminal's hint computes it (:class:`~yahtzee_solver.strategy.win_chances.WinHints`,
        kept for the game, so later hints before the CPU's card changes are
        quick): ``win`` in the reply (see the README's API table).

        The hint is computed on a copy of the position, outside the game's
        lock: the other requests go on meanwhile.  When the game has changed
        by the time it is ready (another tab moved), it is refused with 409
        ``stale`` and the game stays unaided.  Otherwise the game becomes
        practice (as a hint does in the terminal game); the first hint's reply
        says so in ``practice``.

        Raises
        ------
        ApiError
            409 when there is no game, it is over or it is the CPU's turn, or ``stale``;
            500 when the ledger cannot be written (no hint is given).
        """
        with self.lock:
            self._check_version(version, tr)
            st = self._human_turn(tr, hint=True)
            st = copy.deepcopy(st, {id(st.rules): st.rules})  # the rule set stays the one object
            seen = self.version
        with self.hint_lock, self.advisors.using(st.rules) as adv:
            out = self._hint(adv, tr, st)
        with self.lock:
            self._check_version(seen, tr)
            out["practice"] = self._hinted(tr)
            out["version"] = self.version
            return out

    def _hinted(self, tr: Translator) -> str | None:
        """Make the game practice after a hint or its reasons; the notice if it was not practice
        already (a chosen seed, an undo, an earlier hint: said then), else ``None``."""
        if "hint" in self.store.practice:
            return None
        already = bool(self.store.practice)
        try:
            problem = store.mark_practice(self.store, "hint", self.records_file)
        except store.DataFileError as e:
            raise ApiError(500, tr("web.err.save_failed", detail=e), "save_failed") from None
        if problem:
            self.notice = problem
        return None if already else tr("practice.hint")

    def _hint(self, adv: Advisor, tr: Translator, st: GameState) -> dict[str, Any]:
        card = st.card
        wc = self.win_hints(st, adv)  # None in solitaire
        if st.dice is None:
            ev = adv.expected_final(card)
            out = {"kind": "roll", "expected": ev, "text": tr("hint.roll", ev=f"{ev:.2f}"), "options": []}
        else:
            dice = st.sorted_dice
            assert dice is not None  # st.dice is not None
            if st.rolls_used < MAX_ROLLS:
                rows = _keep_rows(adv, card, dice, st.rerolls_left, tr, st.held, st.dice)
                out = {"kind": "keep", "expected": rows[0]["expected"], "options": rows}
                if len(rows[0]["keep"]) == N_DICE:
                    out["then"] = _box_rows(adv, card, dice, tr)[0]
            else:
                rows = _box_rows(adv, card, dice, tr)
                out = {"kind": "box", "expected": rows[0]["expected"], "options": rows}
        out["win"] = self._win(wc, out, adv, tr, st)
        return out

    def _win(self, wc: WinChances | None, out: dict[str, Any], adv: Advisor, tr: Translator,
             st: GameState) -> dict[str, Any] | None:
        """Put the chances of winning ``wc`` into the hint ``out``; return the hint's ``win`` summary.

        Each option (and ``then``) gets ``win`` (probability) and ``win_text``
        (as the terminal prints it), ``None`` while the chances are not shown;
        when the best chance keeps all five dice, ``out["win_then"]`` is the box
        of best chance for them.
        """
        if wc is None:
            return None
        for row in out["options"] + ([out["then"]] if "then" in out else []):
            row["win"] = row["win_text"] = None
        view = {"shown": wc.shown, "exact": wc.exact, "level": wc.level, "max_open": WIN_HINT_MAX_OPEN,
                "start": wc.start, "best": None, "text": None, "caption": None, "note": None}
        if not wc.shown:
            view["text"] = tr("hint.win_far", n=WIN_HINT_MAX_OPEN)
            return view
        level = tr.level(wc.level)
        view["note"] = win_note(tr, wc)
        if wc.kind == "roll":
            assert wc.start is not None  # shown at the start of a turn
            view["text"] = tr("hint.win_start", level=level, p=format_probability(wc.start))
            return view
        view["caption"] = tr("web.hint.win_caption", level=level)
        ranked_boxes = wc.options if wc.kind == "box" else self.win_hints.boxes(st, adv)
        assert ranked_boxes is not None  # shown: the DP is solved
        boxes = {o.box: o for o in ranked_boxes}

        def put(row: dict[str, Any], o: WinOption) -> None:
            row["win"], row["win_text"] = o.win, format_probability(o.win)

        for i, row in enumerate(out["options"]):
            o = boxes[row["box"]] if wc.kind == "box" else wc.of_keep(row["keep"])
            put(row, o)
            if o is wc.best:
                view["best"] = i
        if "then" in out:
            put(out["then"], boxes[out["then"]["box"]])
        best = wc.best
        if wc.kind == "keep" and best is not None and best.keep is not None and len(best.keep) == N_DICE:
            # the best chance stops rolling: in which box
            best_box = ranked_boxes[0]
            dice = st.sorted_dice
            assert dice is not None  # a keep is asked for after a roll
            row = next(r for r in _box_rows(adv, st.card, dice, tr) if r["box"] == best_box.box)
            put(row, best_box)
            out["win_then"] = row
        return view

    # -- the reasons of the hint's options ----------------------------------------------------------
    def why(self, tr: Translator, version: str | None = None) -> dict[str, Any]:
        """The reasons of the hint's best :data:`~yahtzee_solver.web.why.WHY_TOP` options, as ``hint --why``.

        :func:`yahtzee_solver.web.why.reasons_view` of the human's position: per option the exact
        chance of the upper bonus, of a (further) Yahtzee, the expected points of this turn, a keep's
        most likely box, and the sentence in ``tr``'s language.  Computed outside the game's lock (from
        the empty card it takes seconds); the last position's reasons are kept.  Like a hint, it makes
        the game practice.

        Raises
        ------
        ApiError
            409 before the first roll (``no_dice``), when there is no game, it is over or it is the
            CPU's turn, or ``stale``; 500 when the ledger cannot be written.
        """
        from ..strategy.advisor import KeepOption
        from .why import WHY_TOP, reasons_view

        with self.lock:
            self._check_version(version, tr)
            st = self._human_turn(tr, hint=True)
            refused = advice_refused(st, "why")
            if refused is not None:  # the game stays unaided
                raise ApiError(409, tr(f"web.why.{refused}"), refused)
            st = copy.deepcopy(st, {id(st.rules): st.rules})
            seen = self.version
        dice = st.sorted_dice
        assert dice is not None  # rolled
        rl = st.rerolls_left if st.rolls_used < MAX_ROLLS else 0
        key = (st.rules.name, tuple(st.card.key), dice, rl, tr.lang)
        with self.why_lock:
            if self._why_last is not None and self._why_last[0] == key:
                out = self._why_last[1]
            else:
                with self.advisors.using(st.rules) as adv:
                    opts = adv.hint(st.card, dice, rl)[:WHY_TOP]
                    table = adv.table
                keys = [o.keep if isinstance(o, KeepOption) else o.category for o in opts]
                out = {"kind": "keep" if rl else "box", **reasons_view(tr, st.card, dice, rl, keys, table)}
                self._why_last = (key, out)
        with self.lock:
            self._check_version(seen, tr)
            return {**out, "practice": self._hinted(tr), "version": self.version}


def check_lang(lang: object) -> str:
    """``lang`` if it is one of :data:`yahtzee_solver.i18n.LANGS`, else :class:`ApiError` 400."""
    if lang not in LANGS:
        raise ApiError(400, Msg("web.err.lang", lang=quoted(str(lang)), choices=", ".join(LANGS)))
    return str(lang)
