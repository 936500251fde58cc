"""The trainer of the web page: positions one at a time, each answer graded, the proficiency score saved.

The same trainer as ``yahtzee-solve train`` (:mod:`yahtzee_solver.cli.train`,
:mod:`yahtzee_solver.tui.train`), on the same library:
:func:`~yahtzee_solver.analysis.training.draw_positions` draws the positions (with
"from my history", like the player's costliest past decisions in the game history,
which holds the coach's finished games too), :func:`~yahtzee_solver.analysis.training.grade`
grades an answer with the advisor's values, the ranking is the terminal
trainer's (:func:`~yahtzee_solver.tui.train.ranking_rows`), the reasons are the
hint's (:func:`yahtzee_solver.web.why.reasons_view`), and a finished session is
saved in the terminal's training file (:class:`~yahtzee_solver.analysis.training.TrainingStats`,
written atomically, validated on load), so ``train --stats`` and the page show the
same sessions.

:class:`TrainerService` keeps one session on the server, with a ``version``
that changes with each answer: an answer decided on another version (another
tab) is refused with 409 ``stale``, and an answer names the position it answers,
so answering a position twice is refused too.  Refusals are
:class:`~yahtzee_solver.web.service.ApiError` (one line, an HTTP status).
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..analysis.training import (KINDS, STRONG, Answer, Graded, Mistake, Position, SessionRecord, TrainingStats,
                                 draw_positions, grade, history_mistakes)
from ..dice import N_DICE
from ..errors import DataFileError, UsageError
from ..rules import RULESETS, get_rules
from ..tui.prompt import dice_text, keeps_none
from ..tui.train import ranking_rows
from .service import ApiError, Msg, number_shown, quoted

if TYPE_CHECKING:
    from ..i18n import Translator
    from ..strategy.advisor import Advisor
    from .service import _Advisors

__all__ = ["TrainerService", "MAX_COUNT", "STATS_SHOWN", "parse_keep"]

#: Most positions of a session (as ``train --count``).
MAX_COUNT = 200
#: Sessions shown in the table and the chart (the latest).
STATS_SHOWN = 20

#: ``draw(advisor, rng, count, mistakes)``: the positions of a session (:func:`draw_positions`).
Draw = Callable[["Advisor", np.random.Generator, int, Sequence[Mistake]], list[Position]]


def parse_keep(text: str, dice: Sequence[int]) -> tuple[int, ...]:
    """The faces kept, from the digits sent (``"255"``), checked against ``dice``.

    ``""`` keeps none, and so do the words the terminal's ``k`` takes for it (``-``, ``none``:
    :func:`~yahtzee_solver.tui.prompt.keeps_none`, one rule), ``-`` being how the trainer writes an empty keep.

    Raises
    ------
    ApiError
        400 naming the bad value: not faces 1-6, more than five, or not among the dice.
    """
    if keeps_none(text):
        text = ""
    if len(text) > N_DICE or not all(c in "123456" for c in text):
        raise ApiError(400, Msg("web.err.keep", keep=quoted(text), n=N_DICE))
    keep = tuple(sorted(int(c) for c in text))
    rest = list(dice)
    for f in keep:
        if f not in rest:
            raise ApiError(400, Msg("web.err.keep_dice", keep=quoted(text), dice="".join(map(str, dice))), "illegal")
        rest.remove(f)
    return keep


@dataclass
class _Session:
    """A session in progress (or just finished): its positions, the answers so far and how it was saved."""

    rules: str
    seed: int
    source: str  # "history" or "sampled"
    positions: list[Position]
    intro: str
    graded: list[Graded] = field(default_factory=list)
    record: SessionRecord | None = None
    saved: bool = False
    save_problem: str | None = None
    ended: bool = False

    @property
    def done(self) -> bool:
        return self.ended or len(self.graded) == len(self.positions)


class TrainerService:
    """The web page's trainer: one session at a time, saved in the training file when it ends.

    Parameters
    ----------
    advisors : _Advisors
        The page's advisors (:class:`yahtzee_solver.web.service.GameService.advisors`), shared with the game.
    training_file : path
        The sessions file (the terminal's ``training.json`` by default, :func:`training_path`).
    history_file : path
        The game history read by "from my history".
    draw : callable
        The positions of a session (default :func:`draw_positions`; injected by tests).

    Attributes
    ----------
    session : _Session or None
    lock : threading.RLock
    """

    def __init__(self, advisors: _Advisors, training_file: Path, history_file: Path, *,
                 draw: Draw = draw_positions) -> None:
        self.advisors = advisors
        self.training_file = Path(training_file)
        self.history_file = Path(history_file)
        self.draw = draw
        self.session: _Session | None = None
        self.lock = threading.RLock()
        self.why_lock = threading.Lock()  # one reasons computation at a time
        self._why: dict[tuple[str, int], dict[str, Any]] = {}  # (session version prefix, position) -> reasons
        self._epoch = secrets.token_hex(4)
        self._changes = 0

    # -- versions ------------------------------------------------------------------------------
    @property
    def version(self) -> str:
        """Changes with every new session and every answer."""
        return f"t{self._epoch}-{self._changes}"

    def _check_version(self, version: str | None, tr: Translator) -> None:
        if version is not None and version != self.version:
            raise ApiError(409, tr("web.train.stale"), "stale", train=self.view(tr))

    # -- the views -----------------------------------------------------------------------------
    def get(self, tr: Translator) -> dict[str, Any]:
        """``{"train": the session's view or None, "stats": the saved sessions}``."""
        with self.lock:
            return {"train": self.view(tr), "stats": self.stats(tr)}

    def view(self, tr: Translator) -> dict[str, Any] | None:
        """The session as the page draws it: the position to answer (or none at the end), the answers so far."""
        s = self.session
        if s is None:
            return None
        rules = get_rules(s.rules)
        n = len(s.positions)
        i = len(s.graded)
        current = None
        if not s.done:
            current = self._position_view(s.positions[i], i, n, tr)
        out: dict[str, Any] = {
            "version": self.version, "rules": s.rules, "title": tr.title(rules), "seed": str(s.seed),
            "source": s.source, "intro": s.intro, "count": n, "answered": i, "done": s.done,
            "position": current, "last": None,
            "answers": [{"number": k + 1, "kind": g.position.kind, "kind_name": tr(f"train.kind.{g.position.kind}"),
                         "cost": g.cost} for k, g in enumerate(s.graded)],
            "summary": None,
        }
        if s.graded:
            with self.advisors.using(rules) as adv:
                out["last"] = self._grade_view(adv, s.graded[-1], i - 1, tr)
        if s.done:
            out["summary"] = self._summary(s, tr)
        return out

    def _position_view(self, p: Position, i: int, n: int, tr: Translator) -> dict[str, Any]:
        rules = p.card.rules
        card = p.card
        points, legal, ybonus = card.box_points(p.dice)
        return {
            "number": i + 1, "count": n, "kind": p.kind, "header": tr("train.header", i=i + 1, n=n,
                                                                   kind=tr(f"train.kind.{p.kind}")),
            "dice": list(p.dice), "rolls_left": p.rolls_left,
            "turn": rules.n_categories - len(card.open_categories) + 1, "turns": rules.n_categories,
            "card": {"boxes": list(card.boxes), "upper_subtotal": card.upper_subtotal,
                     "upper_bonus": card.upper_bonus, "yahtzee_bonus": card.yahtzee_bonus, "total": card.total},
            "preview": {"points": list(points), "legal": list(legal), "yahtzee_bonus": ybonus},
        }

    def _answer_label(self, adv: Advisor, g: Graded, tr: Translator) -> str:
        """The answer in the hint's words (``keep 2 2, reroll 3 3 6``; a box scored now)."""
        pos, a = g.position, g.answer
        rules = pos.card.rules
        if a.box is not None:
            pts = pos.card.box_points(pos.dice)[0][a.box]
            return tr("hint.stop" if pos.rolls_left else "hint.box", box=tr.box(rules, a.box), points=pts)
        assert a.keep is not None  # exactly one of keep and box is set
        if len(a.keep) == N_DICE:  # no pass: keeping all five scores now in the best box
            b = adv.box_options(pos.card, pos.dice)[0]
            return tr("hint.stop", box=tr.box(rules, b.category), points=b.points)
        rest = list(pos.dice)
        for d in a.keep:
            rest.remove(d)
        return tr("hint.keep", keep=dice_text(a.keep), reroll=dice_text(rest)) if a.keep else tr("hint.reroll_all")

    def _grade_view(self, adv: Advisor, g: Graded, k: int, tr: Translator) -> dict[str, Any]:
        """An answered position: the ranking (the terminal trainer's rows, and the answer's when lower), the cost."""
        pos = g.position
        rows = ranking_rows(adv, pos, tr)
        label = self._answer_label(adv, g, tr)
        mine_shown = False
        ranking = []
        for j, (_cmd, text, ev, loss) in enumerate(rows):
            mine = not mine_shown and abs(ev - g.expected) < 1e-9 and (text == label or j == 0 and g.cost == 0)
            mine_shown = mine_shown or mine
            ranking.append({"text": text, "expected": ev, "loss": loss, "best": j == 0, "mine": mine})
        if not mine_shown:
            ranking.append({"text": label, "expected": g.expected, "loss": g.cost, "best": False, "mine": True,
                            "apart": True})
        a = g.answer
        answer = {"keep": list(a.keep)} if a.keep is not None else {"box": a.box}
        best = pos.best
        if g.cost == 0:
            verdict = tr("web.train.yours_best", answer=label)
        else:
            verdict = tr("web.train.yours", answer=label, ev=f"{g.expected:.2f}", cost=f"{g.cost:.2f}")
        return {"number": k + 1, "kind": pos.kind, "dice": list(pos.dice), "rolls_left": pos.rolls_left,
                "answer": {**answer, "text": label}, "best": {"keep": list(best.keep)} if best.keep is not None
                else {"box": best.box}, "expected": g.expected, "best_expected": g.best_expected, "cost": g.cost,
                "verdict": verdict, "ranking": ranking}

    def _summary(self, s: _Session, tr: Translator) -> dict[str, Any]:
        rec = s.record
        if rec is None:
            return {"answered": 0, "text": tr("train.none_answered"), "saved": False, "problem": None}
        verdict = tr("train.strong") if rec.proficiency < STRONG else tr("train.weak")
        text = tr("train.done", n=rec.positions, loss=f"{rec.total_loss:.2f}", score=f"{rec.proficiency:.3f}",
                  verdict=verdict)
        return {"answered": rec.positions, "total_loss": rec.total_loss, "proficiency": rec.proficiency,
                "strong": rec.proficiency < STRONG, "text": text, "saved": s.saved, "problem": s.save_problem,
                "seed_text": tr("web.train.seed", seed=s.seed)}

    def stats(self, tr: Translator) -> dict[str, Any]:
        """The saved sessions (the last :data:`STATS_SHOWN`), the trend and the points lost by kind, as ``train --stats``.

        Raises
        ------
        ApiError
            500 when the training file cannot be read (a newer format: left as it is).
        """
        try:
            st = TrainingStats.load(self.training_file)
        except DataFileError as e:
            raise ApiError(500, tr("web.err.file", detail=e), "training_unreadable") from None
        shown = st.sessions[-STATS_SHOWN:]
        first = len(st.sessions) - len(shown) + 1
        rows = [{"number": first + j, "date": s.date[:16].replace("T", " "), "rules": s.rules,
                 "rules_title": tr.title(get_rules(s.rules)), "source": s.source, "positions": s.positions,
                 "proficiency": s.proficiency, "strong": s.proficiency < STRONG} for j, s in enumerate(shown)]
        out: dict[str, Any] = {"sessions": rows, "n": len(st.sessions), "strong": STRONG, "problem": st.problem,
                               "trend": None, "by_kind": None}
        allp = [s.proficiency for s in st.sessions]
        if allp:
            k = min(5, len(allp))
            out["trend"] = tr("stats.trend", k=k, recent=f"{sum(allp[-k:]) / k:.3f}", n=len(allp),
                              all=f"{sum(allp) / len(allp):.3f}", best=f"{min(allp):.3f}")
            kinds: dict[str, tuple[int, float]] = {}
            for s in st.sessions:
                for kind, (n, lost) in s.kinds.items():
                    m, t = kinds.get(kind, (0, 0.0))
                    kinds[kind] = (m + int(n), t + lost)
            ranked = sorted(kinds.items(), key=lambda kv: -kv[1][1] / kv[1][0])
            if ranked:
                out["by_kind"] = tr("stats.by_kind", kinds=tr.join(
                    tr("stats.kind_item", kind=tr(f"train.kind.{kk}"), mean=f"{t / n:.3f}", n=n)
                    for kk, (n, t) in ranked))
        return out

    # -- actions -------------------------------------------------------------------------------
    def new(self, tr: Translator, rules: str, count: int, from_history: bool, seed: int | None) -> dict[str, Any]:
        """Start a session of ``count`` positions (the one in progress ends first, its answers saved).

        Raises
        ------
        ApiError
            400 for unknown rules or a count outside 1..:data:`MAX_COUNT`; 500 when the history or the
            training file cannot be read.
        """
        if rules not in RULESETS:
            raise ApiError(400, tr("web.adv.err.rules", rules=quoted(rules, 40), choices=", ".join(RULESETS)))
        if not 1 <= count <= MAX_COUNT:
            raise ApiError(400, tr("web.err.count", count=count, n=MAX_COUNT))
        r = get_rules(rules)
        if seed is None:
            entropy = np.random.SeedSequence().entropy
            assert isinstance(entropy, int)  # fresh entropy is one int
            seed = int(entropy % 2**63)
        notes: list[str] = []
        mistakes: list[Mistake] = []
        logs: list[tuple[Any, int]] = []  # the history's games read (none: no history yet)
        with self.advisors.using(r) as adv:
            if from_history:
                from ..play.history import History, HistoryEntry

                try:
                    h = History.load(self.history_file)
                except DataFileError as e:
                    raise ApiError(500, tr("web.err.file", detail=e), "history_unreadable") from None
                if h.problem:
                    notes.append(tr("warn.history", detail=tr.history_problem(h.problem)))
                # every finished game of these rules, the coach's too (one solitaire entry per player)
                logs = [(e.log, 0) for e in h.entries if isinstance(e, HistoryEntry) and e.rules == r.name]
                mistakes = history_mistakes(logs, r, adv)
            positions = self.draw(adv, np.random.default_rng(seed), count, mistakes)
        if mistakes:
            lost = {k: sum(m.loss for m in mistakes if m.kind == k) for k in KINDS}
            kinds = sorted((k for k in KINDS if lost[k] > 0), key=lambda k: -lost[k])
            notes.append(tr("train.from_history", kinds=tr.join(tr(f"train.kind.{k}") for k in kinds[:3])))
        elif from_history:
            notes.append(tr("train.no_mistakes" if logs else "train.no_history", rules=tr.title(r)))
        else:
            notes.append(tr("train.sampled"))
        with self.lock:
            if self.session is not None and not self.session.done:
                self._end(self.session, tr)
            self.session = _Session(r.name, seed, "history" if mistakes else "sampled", positions, " ".join(notes))
            self._why.clear()
            self._changes += 1
            return {"train": self.view(tr), "stats": self.stats(tr)}

    def answer(self, tr: Translator, position: int, keep: str | None, box: int | None,
               version: str | None = None) -> dict[str, Any]:
        """Answer position number ``position`` (1-based) with a keep (faces as digits) or a box index.

        Raises
        ------
        ApiError
            400 for a keep not among the dice, an unknown or closed box, a keep with no reroll left, both or
            neither of keep and box; 409 when there is no session, it is over, the position is already
            answered (``answered``) or not yet shown, or ``stale``.
        """
        with self.lock:
            self._check_version(version, tr)
            s = self._need(tr)
            i = len(s.graded)
            if position != i + 1:
                if 1 <= position <= i:
                    raise ApiError(409, tr("web.train.err.answered", n=position), "answered", train=self.view(tr))
                raise ApiError(409, tr("web.err.not_asked", position=position, asked=i + 1), "not_asked",
                               train=self.view(tr))
            pos = s.positions[i]
            rules = pos.card.rules
            if (keep is None) == (box is None):
                raise ApiError(400, tr("web.err.keep_or_box"))
            if box is not None:
                if not 0 <= box < rules.n_categories:
                    msg = Msg("web.err.box", box=number_shown(box), last=rules.n_categories - 1)  # a long box by its ends
                    raise ApiError(400, msg.render(tr), "bad_box")
                if pos.card.boxes[box] is not None:
                    raise ApiError(400, tr("web.train.err.closed", box=tr.box(rules, box)), "illegal")
                ans = Answer(box=box)
            else:
                assert keep is not None
                if pos.rolls_left == 0:
                    raise ApiError(400, tr("web.train.err.no_reroll"), "illegal")
                ans = Answer(keep=parse_keep(keep, pos.dice))
            with self.advisors.using(rules) as adv:
                try:
                    g = grade(adv, pos, ans, lang=tr.lang)
                except UsageError as e:
                    raise ApiError(400, tr("web.err.answer", detail=e), "illegal") from None
            s.graded.append(g)
            self._changes += 1
            if s.done:
                self._end(s, tr)
            return {"train": self.view(tr), "stats": self.stats(tr) if s.done else None}

    def quit(self, tr: Translator, version: str | None = None) -> dict[str, Any]:
        """End the session now: the answers so far are saved as a session (none: nothing is saved).

        A finished session whose save failed is saved again.
        """
        with self.lock:
            self._check_version(version, tr)
            s = self._need(tr, over_ok=True)
            if not s.done or not s.saved:
                s.ended = True
                self._end(s, tr)
            self._changes += 1
            return {"train": self.view(tr), "stats": self.stats(tr)}

    def _need(self, tr: Translator, over_ok: bool = False) -> _Session:
        s = self.session
        if s is None:
            raise ApiError(409, tr("web.train.err.none"), "no_session")
        if s.done and not over_ok:
            raise ApiError(409, tr("web.train.err.over"), "over", train=self.view(tr))
        return s

    def _end(self, s: _Session, tr: Translator) -> None:
        """Save the session's record in the training file (atomically); a failure is kept in ``save_problem``."""
        s.ended = True
        if not s.graded:
            return
        if s.record is None:
            s.record = SessionRecord.of(s.graded, s.rules, s.source, s.seed)
        try:
            st = TrainingStats.load(self.training_file)
            s.save_problem = st.problem
            st.add(s.record)
            s.saved = True
        except DataFileError as e:
            s.save_problem = str(e)

    # -- the reasons of an answered position --------------------------------------------------------
    def why(self, tr: Translator, position: int) -> dict[str, Any]:
        """The reasons of the best option and of the answer at answered position ``position`` (1-based).

        :func:`yahtzee_solver.web.why.reasons_view`, as the hint's; an answer that scores a box
        with rerolls left is explained as that box scored now.

        Raises
        ------
        ApiError
            409 when there is no session or the position is not answered yet.
        """
        from .why import reasons_view

        with self.lock:
            s = self._need(tr, over_ok=True)
            if not 1 <= position <= len(s.graded):
                raise ApiError(409, tr("web.err.not_answered", position=position), "not_answered")
            g = s.graded[position - 1]
            key = (f"{self._epoch}:{id(s)}:{tr.lang}", position)
            if key in self._why:
                return self._why[key]
        pos = g.position
        rules = pos.card.rules
        best, ans = pos.best, g.answer
        groups: list[tuple[int, list[Any], str]] = []  # (rolls left, options, which)
        best_key = best.keep if best.keep is not None else best.box
        if ans.box is not None and pos.rolls_left:
            groups = [(pos.rolls_left, [best_key], "best"), (0, [ans.box], "answer")]
        else:
            ans_key = ans.keep if ans.keep is not None else ans.box
            opts = [best_key] if ans_key == best_key else [best_key, ans_key]
            groups = [(pos.rolls_left, opts, "best")]
        with self.why_lock:
            table = self.advisors.table(rules)
            parts = [reasons_view(tr, pos.card, pos.dice, rl, opts, table) for rl, opts, _ in groups]
        items = [o for p in parts for o in p["options"]]
        items[0]["which"] = "best"
        for o in items[1:]:
            o["which"] = "answer"
        out = {"number": position, "head": parts[0]["head"], "start": parts[0]["start"], "options": items}
        with self.lock:
            self._why[key] = out
        return out
