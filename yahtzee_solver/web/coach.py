"""The coach's page on the server: a game played with real dice, every player at the table.

The game is the terminal coach's (:mod:`yahtzee_solver.play.coach`, the one
session module of both front ends): the same :class:`~yahtzee_solver.play.coach.CoachGame`,
the same save file (``coach.json`` in the data folder, written atomically after
every action and validated on load, so ``yahtzee-solve coach --resume``
continues a game of the page and the page one of the terminal), the same
ranking (:func:`~yahtzee_solver.play.coach.ranking`), the same mistake notes
(:func:`~yahtzee_solver.play.coach.mistake`) and the same chances of finishing
first (:class:`~yahtzee_solver.strategy.win_chances.TableOdds`, every player
modelled as ``expert``).  A finished game goes to the game history
(:func:`~yahtzee_solver.play.coach.file_finished`) for ``review``.

Every action takes the coach's lock (``coach.lock`` beside the save) for its
duration, so the page is refused while the terminal coach runs, and reads the
save again when another process changed it.  The API (``/api/coach/...``) is
added to the app by :func:`add_routes`; see the README, "Playing in the browser".
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape, quoteattr

from ..errors import DataFileError, DiceError, IllegalMoveError, NothingToResumeError, UsageError, YahtzeeError
from ..game import MAX_ROLLS, N_DICE
from ..i18n import NBSP, Translator, format_probability
from ..play import coach as engine
from ..play.coach import CoachGame, RollError
from ..play.lock import GameLock, GameRunningError
from ..rules import N_UPPER, RULESETS, RuleSet, get_rules
from ..strategy.advisor import BoxOption, KeepOption
from .service import ApiError, Msg, history_game, history_number, number_shown, quoted, read_dice

if TYPE_CHECKING:
    from flask import Flask

    from ..state import ScoreCard
    from ..strategy.advisor import Advisor
    from ..strategy.win_chances import TableOdds
    from .service import WebTranslator, _Advisors

__all__ = ["CoachService", "add_routes", "chance_chart_svg", "chart_series", "table_review_data", "END"]

_Path = str | os.PathLike[str] | None


def _dice(faces: Sequence[int], sep: str = " ") -> str:
    return sep.join(map(str, faces))


def _signed(x: float) -> str:
    """Points with their sign, a minus sign (not a hyphen) below zero: ``+9.41``, ``−0.19``."""
    return f"{x:+.2f}".replace("-", "\u2212")


# -- the end of a game: luck and skill, and the chances by round ----------------------------------------------
def table_review_data(game: CoachGame, advisor: Advisor, odds: TableOdds | None = None) -> dict[str, Any]:
    """The end-of-game review of every player, as plain data for the page.

    With two or more players the analysis layer's
    :func:`~yahtzee_solver.analysis.table_review.review_table` (every player's
    luck and skill split and each one's chance of finishing first by round,
    as the terminal coach's end asks for it: every round, on the game's
    ``table_log``, sharing ``odds``), the result last (:func:`chart_series`);
    for one player the split from
    :func:`~yahtzee_solver.analysis.review.review_log` and no chances.

    Returns
    -------
    dict
        ``players``: ``[{name, final, start_value, skill_loss, luck}]`` (points);
        ``rounds``: list of int; ``series``: per player a list (one entry per
        round) of probabilities or ``None``.
    """
    if len(game.players) >= 2:
        from ..analysis.table_review import review_table

        data = review_table(game.rules, game.players, game.table_log(), advisor=advisor, odds=odds).to_dict()
        rounds, series = chart_series(data)
        players = [{k: p[k] for k in ("name", "final", "start_value", "skill_loss", "luck")} for p in data["players"]]
        return {"players": players, "rounds": rounds, "series": series}
    from ..analysis.review import review_log

    players = []
    for name, st in zip(game.players, game.states):
        rev = review_log(st.log, game.rules, 0, advisor=advisor)
        players.append({"name": name, "final": rev.final_score, "start_value": rev.start_value,
                        "skill_loss": rev.skill_loss, "luck": rev.luck})
    return {"players": players, "rounds": [], "series": [[] for _ in game.players]}


#: The x position of the result in a chart's rounds (after the start of the last round).
END = 0


def chart_series(table: dict[str, Any]) -> tuple[list[int], list[list[float | None]]]:
    """The rounds and each player's series of a chart from :meth:`TableReview.to_dict` data: the chance at
    the start of each round, then the result (each player's share of first place) at :data:`END`."""
    rounds = [int(r) for r in table.get("rounds", [])]
    rows = list(table.get("chances", []))
    if table.get("result") is not None:
        rounds.append(END)
        rows.append(table["result"])
    n = len(table["players"])
    return rounds, [[None if row is None else float(row[i]) for row in rows] for i in range(n)]


def chance_chart_svg(rounds: Sequence[int], names: Sequence[str], series: Sequence[Sequence[float | None]],
                     title: str, round_label: Callable[[int], str] = str) -> str:
    """A small SVG line chart of each player's chance of finishing first, round by round.

    Parameters
    ----------
    rounds : sequence of int
        The rounds (x axis), in order.
    names : sequence of str
        The players, one line each (class ``line pN``, coloured by the style sheet).
    series : sequence of sequences of float or None
        ``series[i][t]``: player ``i``'s chance (probability, 0..1) at ``rounds[t]``;
        ``None`` where it was not computed (the line has a gap).
    title : str
        The chart's accessible name (``<title>`` and ``aria-label``).
    round_label : callable
        The words of a round number under each tick.

    Returns
    -------
    str
        One ``<svg>`` element, ``role="img"``; every point has a ``<title>``
        (player, round, chance) and the ``<desc>`` says each player's last chance.
        Names are escaped.
    """
    if len(series) != len(names) or any(len(s) != len(rounds) for s in series):
        raise ValueError("want one list of chances per player, one entry per round")
    w, h, left, right, top, bottom = 360, 180, 34, 10, 10, 28
    pw, ph = w - left - right, h - top - bottom
    n = len(rounds)

    def x(t: int) -> float:
        return left + (pw * t / (n - 1) if n > 1 else pw / 2)

    def y(p: float) -> float:
        return top + ph * (1.0 - p)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chance-chart" viewBox="0 0 {w} {h}" role="img" '
           f'aria-label={quoteattr(title)}>', f"<title>{escape(title)}</title>"]
    last = []
    for name, s in zip(names, series):
        known = [x for x in s if x is not None]
        last.append(f"{name}: {format_probability(known[-1])}" if known else f"{name}: –")
    out.append(f"<desc>{escape('; '.join(last))}</desc>")
    for level in (0.0, 0.5, 1.0):
        out.append(f'<line class="grid" x1="{left}" x2="{w - right}" y1="{y(level):.1f}" y2="{y(level):.1f}"/>')
        out.append(f'<text class="axis" x="{left - 4}" y="{y(level) + 4:.1f}" text-anchor="end">{int(level * 100)} %</text>')
    for t, r in enumerate(rounds):
        out.append(f'<text class="axis" x="{x(t):.1f}" y="{h - bottom + 16}" text-anchor="middle">'
                   f"{escape(round_label(r))}</text>")
    for i, (name, s) in enumerate(zip(names, series)):
        out.append(f'<g class="player p{i % 8}" data-player={quoteattr(name)}>')
        runs: list[list[tuple[float, float]]] = [[]]
        for t, p in enumerate(s):
            if p is None:
                runs.append([])
            else:
                runs[-1].append((x(t), y(min(max(p, 0.0), 1.0))))
        for run in runs:
            if len(run) > 1:
                pts = " ".join(f"{a:.1f},{b:.1f}" for a, b in run)
                out.append(f'<polyline class="line" points="{pts}"/>')
        for t, p in enumerate(s):
            if p is not None:
                label = f"{name}, {round_label(rounds[t])}: {format_probability(p)}"
                out.append(f'<circle class="dot" cx="{x(t):.1f}" cy="{y(min(max(p, 0.0), 1.0)):.1f}" r="2.5">'
                           f"<title>{escape(label)}</title></circle>")
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


# -- the service ------------------------------------------------------------------------------------------
class CoachService:
    """The coach's one game on the server, kept in step with its save file.

    Parameters
    ----------
    advisors : _Advisors
        The server's advisors (:class:`yahtzee_solver.web.service.GameService`'s).
    coach_file : path, optional
        The save (default :func:`~yahtzee_solver.play.coach.coach_path`, the terminal coach's).
    history_file : path, optional
        The game history (default: the data folder's).

    Attributes
    ----------
    game : CoachGame or None
        The game in progress, or the game just finished (kept for its end screen).
    result : dict or None
        The finished game's places, history numbers and review (plain data).
    problem : str or None
        Why the save could not be read (shown; a new game can be started).
    """

    def __init__(self, advisors: _Advisors, coach_file: _Path = None, history_file: _Path = None) -> None:
        self.advisors = advisors
        self.coach_file: Path = Path(coach_file) if coach_file is not None else engine.coach_path()
        self.lock_file: Path = self.coach_file.with_name("coach.lock")
        self.history_file: Path | None = Path(history_file) if history_file is not None else None
        self.lock = threading.RLock()
        self.odds_lock = threading.Lock()  # a TableOdds keeps what it solved: one query at a time
        self._odds: dict[str, TableOdds] = {}
        self._epoch = secrets.token_hex(4)
        self._changes = 0
        self._stamp: tuple[int, int, int] | None = None
        self.game: CoachGame | None = None
        self.result: dict[str, Any] | None = None
        self.problem: str | None = None
        self.lang = "en"
        self._sync()

    # -- the file -----------------------------------------------------------------------------
    @property
    def version(self) -> str:
        """Changes with every action and every reload of the save."""
        return f"{self._epoch}-{self._changes}"

    def _file_stamp(self) -> tuple[int, int, int] | None:
        try:
            s = self.coach_file.stat()
        except OSError:
            return None
        return (s.st_mtime_ns, s.st_size, s.st_ino)

    def _sync(self) -> None:
        """Read the save again when another process (the terminal coach) changed or removed it."""
        stamp = self._file_stamp()
        if stamp == self._stamp:
            return
        self._stamp = stamp
        self._changes += 1
        self.problem = None
        if stamp is None:
            if self.game is not None and not self.game.is_over():
                self.game, self.result = None, None  # finished or given up elsewhere
            return
        try:
            self.game, self.lang = engine.load(self.coach_file)
            self.result = None
        except NothingToResumeError:  # removed since the stamp was taken: no game, as above
            self._stamp = None
            if self.game is not None and not self.game.is_over():
                self.game, self.result = None, None
        except DataFileError as e:
            self.game, self.result, self.problem = None, None, str(e)

    def _save(self) -> None:
        assert self.game is not None
        try:
            engine.save(self.game, self.coach_file, self.lang)
        except DataFileError as e:
            self._stamp = None
            self._sync()
            raise ApiError(500, Msg("web.err.coach_save_failed", detail=str(e)), "save_failed") from None
        self._stamp = self._file_stamp()
        self._changes += 1

    def _locked(self, tr: Translator) -> GameLock:
        lock = GameLock(self.lock_file, holder="the coach of the web page (yahtzee-solve serve)")
        try:
            lock.acquire()
        except GameRunningError as e:
            raise ApiError(409, tr("web.coach.err.running", detail=str(e)), "coach_running") from None
        except DataFileError as e:
            raise ApiError(500, tr("web.err.file", detail=e), "files_unusable") from None
        return lock

    def odds(self, rules: RuleSet) -> TableOdds:
        from ..strategy.win_chances import TableOdds

        if rules.name not in self._odds:
            self._odds[rules.name] = TableOdds(rules, self.advisors.table(rules))
        return self._odds[rules.name]

    # -- checks -------------------------------------------------------------------------------------
    def _check_version(self, version: str | None, tr: WebTranslator) -> None:
        if version is not None and version != self.version:
            raise ApiError(409, tr("web.stale"), "stale", game=self.view(tr))

    def _need_game(self, tr: Translator) -> CoachGame:
        if self.game is None:
            raise ApiError(409, tr("web.coach.err.no_game"), "no_game")
        return self.game

    def _mover(self, tr: Translator, player: str | None) -> CoachGame:
        """The game, with ``player`` (a name, if given) at the table and to move; a full card is refused."""
        g = self._need_game(tr)
        if player is not None:
            try:
                who = g.player_index(player)
            except UsageError:
                raise ApiError(400, tr("coach.err.player", name=player[:40], players=", ".join(g.players)),
                               "unknown_player") from None
            if g.is_over() or g.states[who].is_terminal():
                raise ApiError(409, tr("coach.err.full", player=g.players[who]), "full_card")
            if who != g.current:
                raise ApiError(409, tr("web.err.not_your_turn", player=g.players[g.current], other=g.players[who]),
                               "not_your_turn")
        if g.is_over():
            raise ApiError(409, tr("coach.err.full", player=g.players[g.current]), "full_card")
        return g

    @staticmethod
    def _refused(e: YahtzeeError, tr: Translator, rules: RuleSet) -> ApiError:
        """A refusal in the terminal coach's words (one line)."""
        if isinstance(e, engine.MoveError):  # the engine's reason, by its key
            return ApiError(409, tr.problem(e.problem, e.params, rules), "illegal")
        if isinstance(e, RollError):
            return ApiError(400, tr(e.key, **e.params), "bad_roll")
        if isinstance(e, DiceError):
            return ApiError(400, tr("web.err.dice", detail=e), "bad_dice")
        if isinstance(e, IllegalMoveError):  # the page checks the others first (a keep of five, the turn, the undo)
            return ApiError(409, tr("web.err.refused", detail=e), "illegal")
        return ApiError(400, tr("web.err.refused", detail=e))

    # -- reading ---------------------------------------------------------------------------------------
    def get(self, tr: WebTranslator) -> dict[str, Any]:
        with self.lock:
            self._sync()
            return {"game": self.view(tr), "problem": self.problem}

    def view(self, tr: WebTranslator) -> dict[str, Any] | None:
        """The game as the page draws it (``None`` when there is none)."""
        g = self.game
        if g is None:
            return None
        rules = g.rules
        st = g.state
        over = g.is_over()
        players = []
        for name, card in zip(g.players, g.cards):
            players.append({"name": name, "boxes": list(card.boxes), "upper_subtotal": card.upper_subtotal,
                            "upper_bonus": card.upper_bonus, "upper_done": all(v is not None for v in card.boxes[:N_UPPER]),
                            "yahtzee_bonus": card.yahtzee_bonus, "total": card.total})
        dice = list(st.dice) if st.dice is not None and not over else None
        preview = None
        if dice is not None:
            scored = st.preview()
            if scored is not None:
                points, legal, ybonus = scored
                preview = {"points": list(points), "legal": list(legal), "yahtzee_bonus": ybonus}
        last = g.actions[-1] if g.actions else None
        kept_wait = bool(last and "keep" in last and not over)
        if over:
            phase, status = "over", tr("coach.over")
        elif dice is None:
            phase, status = "roll", tr("coach.prompt_roll", player=g.players[g.current], round=g.round)
        elif kept_wait:
            phase = "reroll"
            status = tr("coach.kept", player=g.players[g.current], keep=_dice(g.kept()) or "-", n=N_DICE - len(g.kept()))
        elif st.rolls_used < MAX_ROLLS:
            phase = "keep"
            status = tr("web.coach.status.keep", player=g.players[g.current], dice=_dice(sorted(dice)),
                        n=st.rolls_used, max=MAX_ROLLS)
        else:
            phase, status = "box", tr("web.coach.status.box", player=g.players[g.current], dice=_dice(sorted(dice)))
        out: dict[str, Any] = {
            "version": self.version, "rules": rules.name, "title": tr.title(rules), "players": players,
            "current": g.current, "round": g.round, "turns": rules.n_categories, "phase": phase, "status": status.rstrip(": ："),
            "dice": dice, "held": list(st.held) if dice is not None else [False] * N_DICE,
            "kept": list(g.kept()) if dice is not None else [], "rolls_used": st.rolls_used if dice is not None else 0,
            "max_rolls": MAX_ROLLS, "preview": preview, "can_undo": bool(g.actions) and not over, "over": over,
            "n_actions": len(g.actions), "result": None,
        }
        if over and self.result is not None:
            out["result"] = self._result_view(tr)
        return out

    def _result_view(self, tr: WebTranslator) -> dict[str, Any]:
        g, res = self.game, self.result
        assert g is not None and res is not None
        totals = g.totals()
        order = sorted(range(len(g.players)), key=lambda i: -totals[i])
        places = [{"place": 1 + sum(t > totals[i] for t in totals), "player": g.players[i], "total": totals[i]}
                  for i in order]
        lines = [tr("coach.final_row", place=p["place"], player=p["player"], total=p["total"]).strip() for p in places]
        got = [str(n) for n in res["numbers"] if n is not None]
        filed = tr("coach.filed", numbers=", ".join(got)) if got else None
        problem = tr("review.history_problem", detail=res["problem"]) if res["problem"] else None
        review = res["review"]
        splits = []
        chart = None
        if review is not None:
            for p in review["players"]:
                splits.append({**p, "text": tr("web.coach.split", player=p["name"], score=p["final"],
                                               start=f"{p['start_value']:.2f}", skill=f"{p['skill_loss']:.2f}",
                                               luck=_signed(p['luck']))})
            if review["rounds"] and any(any(x is not None for x in s) for s in review["series"]):
                chart = chance_chart_svg(review["rounds"], g.players, review["series"], tr("web.coach.chart_title"),
                                         lambda r: tr("table.col_end") if r == END else str(r))
        return {"places": places, "lines": lines, "filed": filed, "numbers": res["numbers"], "problem": problem,
                "splits": splits, "split_title": tr("web.coach.split_title") if splits else None, "chart": chart,
                "pending": res["pending"],
                "review_problem": None if res["review_problem"] is None
                else tr("review.unavailable", detail=res["review_problem"])}

    # -- actions ---------------------------------------------------------------------------------------
    def new(self, tr: WebTranslator, rules: str, players: str, abandon: bool) -> dict[str, Any]:
        """Start a new coached game (an unfinished one is replaced only with ``abandon``: 409 ``game_in_progress``)."""
        with self.lock:
            if rules not in RULESETS:
                raise ApiError(400, tr("web.adv.err.rules", rules=quoted(rules, 40), choices=", ".join(RULESETS)))
            try:
                names = engine.parse_players(players)
            except engine.PlayersError as e:
                raise ApiError(400, tr(e.key, **e.params), "bad_players") from None
            lock = self._locked(tr)
            try:
                self._sync()
                old = self.game
                moved = None
                if self.problem is not None:  # a damaged save is renamed aside, never overwritten
                    try:
                        _, moved = engine.before_new(self.coach_file)
                    except DataFileError as e:
                        raise ApiError(500, tr("web.err.file", detail=e), "save_failed") from None
                    self.problem = None
                if old is not None and not old.is_over() and old.actions and not abandon:
                    raise ApiError(409, tr("web.coach.abandon_q", players=", ".join(old.players), round=old.round,
                                           turns=old.rules.n_categories), "game_in_progress")
                self.game, self.result, self.lang = CoachGame(get_rules(rules), names), None, tr.lang
                self._save()
            finally:
                lock.release()
            events = [tr("coach.title", rules=tr.title(self.game.rules), players=", ".join(names)).split(". ")[0] + "."]
            if moved is not None:
                events.insert(0, moved)
            return {"game": self.view(tr), "events": events}

    def _act(self, tr: WebTranslator, version: str | None, player: str | None,
             do: Callable[[CoachGame], list[dict[str, Any]]]) -> dict[str, Any]:
        with self.lock:
            lock = self._locked(tr)
            try:
                self._sync()
                self._check_version(version, tr)
                g = self._mover(tr, player)
                try:
                    events = do(g)
                except YahtzeeError as e:
                    raise self._refused(e, tr, g.rules) from None
                self._save()
                over = g.is_over()
                if over:
                    self._file()
            finally:
                lock.release()
        if over:
            self._review(g)  # outside the game's lock: it takes seconds, reads go on meanwhile
        with self.lock:
            return {"game": self.view(tr), "events": events}

    def roll(self, tr: WebTranslator, dice: str, version: str | None = None, player: str | None = None) -> dict[str, Any]:
        """The dice rolled, as typed (five at a turn's start; after a keep the rerolled dice, or all five)."""
        def do(g: CoachGame) -> list[dict[str, Any]]:
            g.roll(dice[:40])
            return []
        return self._act(tr, version, player, do)

    def keep(self, tr: WebTranslator, held: Sequence[bool], quiet: bool, version: str | None = None,
             player: str | None = None) -> dict[str, Any]:
        """Keep the dice at the positions ``held``; the mistake note unless ``quiet``."""
        def do(g: CoachGame) -> list[dict[str, Any]]:
            st = g.state
            if st.dice is not None and all(held) and st.rolls_used < MAX_ROLLS:
                raise ApiError(400, tr("web.coach.err.keep_all"), "keep_all")
            if st.dice is None:
                raise ApiError(409, tr("web.coach.err.roll_first"), "illegal")
            faces = tuple(sorted(d for d, h in zip(st.dice, held) if h))
            note = None if quiet or st.rolls_used >= MAX_ROLLS else self._note(g, tr, keep=faces)
            who = g.players[g.current]
            g.keep(tuple(bool(h) for h in held))
            events = [{"text": tr("coach.kept", player=who, keep=_dice(faces) or "-", n=N_DICE - len(faces))}]
            if note:
                events.append(note)
            return events
        return self._act(tr, version, player, do)

    def score(self, tr: WebTranslator, box: int, quiet: bool, version: str | None = None,
              player: str | None = None) -> dict[str, Any]:
        """Score the dice in ``box``; the mistake note unless ``quiet``."""
        def do(g: CoachGame) -> list[dict[str, Any]]:
            rules = g.rules
            if not 0 <= box < rules.n_categories:
                msg = Msg("web.err.box", box=number_shown(box), last=rules.n_categories - 1)  # a long box by its ends
                raise ApiError(400, msg.render(tr), "bad_box")
            if g.state.dice is None:
                raise ApiError(409, tr("web.coach.err.roll_first"), "illegal")
            who = g.current
            legal = g.state.preview()
            note = None if quiet or legal is None or not legal[1][box] else self._note(g, tr, box=box)
            ev = g.score(box)
            events = [{"text": tr("coach.scored", player=g.players[who], points=ev.points + ev.yahtzee_bonus,
                                  box=tr.box(rules, box), total=g.cards[who].total)}]
            if note:
                events.append(note)
            return events
        return self._act(tr, version, player, do)

    def undo(self, tr: WebTranslator, version: str | None = None) -> dict[str, Any]:
        """Take back the last action of the game (anyone's), as the terminal's ``u``."""
        with self.lock:
            lock = self._locked(tr)
            try:
                self._sync()
                self._check_version(version, tr)
                g = self._need_game(tr)
                if g.is_over():
                    raise ApiError(409, tr("coach.err.full", player=g.players[g.current]), "full_card")
                try:
                    a = g.undo()
                except YahtzeeError:
                    raise ApiError(409, tr("coach.err.no_undo"), "no_undo") from None
                self._save()
            finally:
                lock.release()
            return {"game": self.view(tr), "events": [{"text": engine.undone_text(tr, g, a)}]}

    def _note(self, g: CoachGame, tr: Translator, *, keep: tuple[int, ...] | None = None,
              box: int | None = None) -> dict[str, Any] | None:
        """The mistake note of a keep or box about to be played, as the terminal's (``None``: a best move)."""
        with self.advisors.using(g.rules) as adv, self.odds_lock:
            m = engine.mistake(g, adv, self.odds(g.rules), keep=keep, box=box)
        if m is None:
            return None
        best = engine.best_text(tr, g.rules, m.best)
        if m.before is not None and m.after is not None:
            text = tr("coach.cost_win", loss=f"{m.loss:.2f}", best=best, before=format_probability(m.before),
                      after=format_probability(m.after))
        else:
            text = tr("coach.cost", loss=f"{m.loss:.2f}", best=best)
        return {"text": text, "flag": True, "loss": m.loss, "before": m.before, "after": m.after}

    def _file(self) -> None:
        """File the finished game in the history (the save is deleted); its review follows (:meth:`_review`)."""
        g = self.game
        assert g is not None
        numbers: list[int | None]
        try:
            filed, problem = engine.file_finished(g, self.coach_file, self.history_file)
            # one history game per player, or (a table's history entry) one number for the whole table
            numbers = list(filed) if isinstance(filed, (list, tuple)) else [filed]
        except (DataFileError, UsageError) as e:
            numbers, problem = [None], str(e)
        self._stamp = self._file_stamp()
        self.result = {"numbers": numbers, "problem": problem, "review": None, "review_problem": None, "pending": True}

    def _review(self, g: CoachGame) -> None:
        """Every player's luck and skill and the chances by round of the finished game ``g`` (:func:`table_review_data`)."""
        review, why = None, None
        try:
            with self.advisors.using(g.rules) as adv, self.odds_lock:
                review = table_review_data(g, adv, self.odds(g.rules))
        except YahtzeeError as e:
            why = str(e).splitlines()[0]
        with self.lock:
            if self.game is g and self.result is not None:
                self.result.update(review=review, review_problem=why, pending=False)
                self._changes += 1

    def history_table(self, tr: WebTranslator, number: int | str | Msg) -> dict[str, Any]:
        """Every player's luck and skill split and the chart of the chances by round of game ``number`` of the
        history (a coach game or a game against a CPU), as the coach's end screen shows them.

        The same :func:`~yahtzee_solver.analysis.table_review.review_table` as ``review`` in the terminal
        (every player modelled as ``expert`` from their card for the chances).

        Raises
        ------
        ApiError
            404 when there is no such game, 400 for a solitaire game, 500 when the game cannot be reviewed.
        """
        from ..analysis.table_review import review_table
        from ..play.history import History

        e = history_game(History.load(self.history_file), number, tr)
        assert isinstance(number, int)  # history_game found it
        if e.players < 2:
            raise ApiError(400, tr("web.review.no_cpu"), "solitaire")
        names = list(e.seat_names(tr("you"), tr.opponent(e.opponent)))
        r = get_rules(e.rules)
        try:
            with self.advisors.using(r) as adv, self.odds_lock:
                data = review_table(r, names, e.log, advisor=adv, odds=self.odds(r)).to_dict()
        except YahtzeeError as err:
            raise ApiError(500, tr("review.unavailable", detail=str(err).splitlines()[0]), "review_failed") from None
        rounds, series = chart_series(data)
        splits = [tr("web.coach.split", player=p["name"], score=p["final"], start=f"{p['start_value']:.2f}",
                     skill=f"{p['skill_loss']:.2f}", luck=_signed(p['luck'])) for p in data["players"]]
        chart = None
        if rounds and any(any(x is not None for x in s_) for s_ in series):
            chart = chance_chart_svg(rounds, names, series, tr("web.coach.chart_title"),
                                     lambda r: tr("table.col_end") if r == END else str(r))
        return {"number": number, "names": names, "split_title": tr("web.coach.split_title"), "splits": splits,
                "chart": chart, "table": data}

    # -- advice ------------------------------------------------------------------------------------
    def hint(self, tr: WebTranslator, version: str | None = None, what_if: str | None = None) -> dict[str, Any]:
        """The ranking of ``play``'s hint for the mover's position (or, with ``what_if``, for those dice at the
        mover's card and rerolls, the game unchanged) and, with two or more players, the chances of finishing first."""
        with self.lock:
            self._sync()
            self._check_version(version, tr)
            g = self._mover(tr, None)
            st = g.state
            cards = list(g.cards)
            mover = g.current
            card = st.cards[0]
            dice: tuple[int, ...] | None
            if what_if is not None:
                dice = read_dice(what_if, tr)  # as the advisor reads them
                rl = 2 if st.dice is None else (st.rerolls_left if st.rolls_used < MAX_ROLLS else 0)
            elif st.dice is None:
                dice, rl = None, 2
            else:
                dice, rl = tuple(sorted(st.dice)), (st.rerolls_left if st.rolls_used < MAX_ROLLS else 0)
            seen = self.version
            rules, names = g.rules, g.players
        with self.advisors.using(rules) as adv, self.odds_lock:
            out = _advice(tr, rules, names, adv, self.odds(rules), cards, mover, card, dice, rl)
        with self.lock:
            self._sync()
            self._check_version(seen, tr)
        if what_if is not None:
            assert dice is not None
            out["whatif"] = tr("coach.whatif", dice=_dice(dice), n=rl).rstrip(":：")
        out["version"] = seen
        return out


def _advice(tr: Translator, rules: RuleSet, names: Sequence[str], adv: Advisor, odds: TableOdds,
            cards: list[ScoreCard], mover: int, card: ScoreCard, dice: tuple[int, ...] | None, rl: int) -> dict[str, Any]:
    """The terminal coach's hint as data: the first five options of the ranking and the chances."""
    out: dict[str, Any] = {"player": names[mover], "dice": None if dice is None else list(dice), "rolls_left": rl}
    if dice is None:
        ev = adv.expected_final(card)
        out.update(kind="roll", expected=ev, text=tr("coach.hint_roll", ev=f"{ev:.2f}"), options=[])
        wc = odds(cards, mover)
    else:
        opts: Sequence[KeepOption | BoxOption] = engine.ranking(card, dice, rl, adv)[:5]
        wc = odds(cards, mover, dice, rl)
        rows = []
        for o in opts:
            p: float | None
            row: dict[str, Any]
            if isinstance(o, KeepOption):
                if o.score is not None:
                    label = tr("hint.stop", box=tr.box(rules, o.score.category), points=o.score.points)
                    row = {"keep": list(o.keep), "box": o.score.category}
                elif not o.keep:
                    label, row = tr("hint.reroll_all"), {"keep": []}
                else:
                    # the faces kept and rerolled stay together when a narrow column wraps the label
                    label = tr("hint.keep", keep=_dice(o.keep, NBSP), reroll=_dice(o.reroll, NBSP))
                    row = {"keep": list(o.keep)}
                p = wc.options.get(o.keep) if wc.shown else None
            else:
                label, row = tr("hint.box", box=tr.box(rules, o.category), points=o.points), {"box": o.category}
                p = wc.options.get(o.category) if wc.shown else None
            rows.append({**row, "text": label, "expected": o.expected, "loss": o.loss,
                         "win": p, "win_text": None if p is None else format_probability(p)})
        out.update(kind="keep" if rl else "box", expected=rows[0]["expected"], options=rows)
    chances: dict[str, Any] | None = None
    if len(names) >= 2:
        if wc.shown:
            chances = {"shown": True, "title": tr("coach.chances_title"),
                       "rows": [{"player": n, "p": p, "text": format_probability(p)} for n, p in zip(names, wc.players)]}
        else:
            chances = {"shown": False, "text": tr("coach.chances_far", n=odds.max_open).strip("()（）")}
    out["chances"] = chances
    return out


def add_routes(app: Flask, service: CoachService, tr: Callable[[], WebTranslator],
               body: Callable[[dict[str, Any]], dict[str, Any]],
               query: Callable[..., dict[str, Any]]) -> None:
    """The coach's API on ``app`` (``body`` and ``query``: the app's checked readers of a request)."""
    from flask import Response, jsonify

    common = {"version": ("str?", False), "player": ("str?", False)}

    @app.get("/api/coach")
    def api_coach() -> Response:
        query(())
        return jsonify(service.get(tr()))

    @app.get("/api/review/table")
    def api_review_table() -> Response:
        q = query(("game",), ("game",))
        return jsonify(service.history_table(tr(), history_number(q["game"])))

    @app.get("/api/coach/hint")
    def api_coach_hint() -> Response:
        q = query(("version", "dice"))
        return jsonify(service.hint(tr(), q.get("version"), q.get("dice")))

    @app.post("/api/coach/new")
    def api_coach_new() -> Response:
        query(())
        b = body({"rules": ("str", False), "players": ("str", True), "abandon": ("bool", False)})
        return jsonify(service.new(tr(), b.get("rules", "yahtzee"), b["players"], b.get("abandon", False)))

    @app.post("/api/coach/roll")
    def api_coach_roll() -> Response:
        query(())
        b = body({"dice": ("str", True), **common})
        return jsonify(service.roll(tr(), b["dice"], b.get("version"), b.get("player")))

    @app.post("/api/coach/keep")
    def api_coach_keep() -> Response:
        query(())
        b = body({"held": ("bools5", True), "quiet": ("bool", False), **common})
        return jsonify(service.keep(tr(), b["held"], b.get("quiet", False), b.get("version"), b.get("player")))

    @app.post("/api/coach/score")
    def api_coach_score() -> Response:
        query(())
        b = body({"box": ("int", True), "quiet": ("bool", False), **common})
        return jsonify(service.score(tr(), b["box"], b.get("quiet", False), b.get("version"), b.get("player")))

    @app.post("/api/coach/undo")
    def api_coach_undo() -> Response:
        query(())
        b = body({"version": ("str?", False)})
        return jsonify(service.undo(tr(), b.get("version")))

