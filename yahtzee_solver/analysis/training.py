"""The trainer: positions to answer, what an answer cost, and the proficiency score kept per session.

No terminal I/O here (the loop is :mod:`yahtzee_solver.tui.train`); the only
file is the sessions file, ``training.json`` in the data folder.

* **Positions** come from seeded games played by optimal play (the advisor's
  best option at every decision, which is the ``expert`` CPU's choice:
  :mod:`yahtzee_solver.strategy.policy` ranks both).  Without a history they are
  drawn with weights ``exp(-gap / CLOSE_SCALE)``, where ``gap`` is the
  expected-score difference between the best and the second-best option, so
  close decisions come up most.  With a history (:func:`history_mistakes`)
  the *kind* of each position (:func:`classify`) is drawn in proportion to
  the expected points the player lost on decisions of that kind, so the
  trainer asks the kinds of decision the player gets most wrong, at other
  dice and cards (a position the player met is never asked).
* **An answer** is a keep (with rerolls left) or a box.  Its **cost** is the
  expected final score of the best option minus that of the answer, both
  under optimal play afterwards, exactly as the play hint and the game
  review value them (:class:`~yahtzee_solver.strategy.advisor.Advisor`): with
  rerolls left, keeping all five is stopping to score in the best box (there
  is no pass), and naming a box scores there now.
* **Proficiency** is the mean cost per answered position (points per
  decision), the measure of T. Verhoeff's Yahtzee proficiency test, where
  under :data:`STRONG` (0.2 points per decision) is strong play.

Randomness comes from the ``numpy.random.Generator`` passed in: the same seed
gives the same positions.
"""

from __future__ import annotations

import math
import time
import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..dice import N_DICE, format_dice
from ..errors import DataFileError, UsageError, YahtzeeError
from ..files import data_dir, read_json, set_aside, write_json_atomic
from ..game import Event
from ..rules import RuleSet, get_rules
from ..state import ScoreCard
from ..strategy.advisor import Advisor, BoxOption, KeepOption
from .review import ZERO, review_log, turns_from_log

__all__ = [
    "KINDS", "STRONG", "CLOSE_SCALE", "EARLY_OPEN", "Answer", "Position", "Graded", "Mistake",
    "classify", "answer_value", "grade", "no_reason", "play_positions", "history_mistakes", "kind_weights",
    "draw_positions", "SessionRecord", "TrainingStats", "training_path", "TRAINING_FORMAT",
    "TRAINING_VERSION", "MAX_SESSIONS", "trend_bars",
]

#: Decision kinds, in the order shown.  ``early_scratch``: a box choice where one option writes 0 while
#: :data:`EARLY_OPEN` or more boxes are open; ``straight_vs_pairs``: a keep between a straight draw and
#: a pair (or more) of one face; ``yahtzee_chase``: keeping three or more alike while a Yahtzee still
#: scores (box open, or 50 with the Yahtzee bonus in play); ``upper_bonus``: a keep of one face for its
#: open upper box, or a box choice involving an upper box, while the upper bonus is still to earn;
#: ``stand``: scoring now against rerolling (a box choice with rolls left); ``keep`` / ``box``: the rest.
KINDS = ("early_scratch", "straight_vs_pairs", "yahtzee_chase", "upper_bonus", "stand", "keep", "box")

#: Proficiency under this (points per decision) is strong play (Verhoeff's proficiency test).
STRONG = 0.2

#: Closeness weight scale (points): a position with a gap ``g`` between its two best options is
#: drawn with weight ``exp(-g / CLOSE_SCALE)``.
CLOSE_SCALE = 1.0

#: A 0 written while at least this many boxes are open counts as an early scratch.
EARLY_OPEN = 7

_N_UPPER = 6


# -- answers and positions ------------------------------------------------------------------------
@dataclass(frozen=True)
class Answer:
    """An answer to a position: the faces kept before a reroll, or the box scored now.

    Exactly one of ``keep`` (sorted faces, 0-5 of them; all five = stop and score in the best box)
    and ``box`` (a box index) is set.
    """

    keep: tuple[int, ...] | None = None
    box: int | None = None

    @property
    def stops(self) -> bool:
        """True when the answer scores now (a box, or all five dice kept)."""
        if self.box is not None:
            return True
        assert self.keep is not None  # exactly one of keep and box is set
        return len(self.keep) == N_DICE

    def command(self) -> str:
        """The prompt command that gives this answer (``k 55``, ``k -``, ``s 9``)."""
        if self.box is not None:
            return f"s {self.box + 1}"
        return f"k {''.join(map(str, self.keep))}" if self.keep else "k -"


@dataclass(frozen=True)
class Position:
    """One position to answer.

    Attributes
    ----------
    card : ScoreCard
        The scorecard before this turn's score.
    dice : tuple of int
        The five dice showing (sorted).
    rolls_left : int
        Rerolls still allowed: 2, 1, or 0 (then the answer is a box).
    kind : str
        One of :data:`KINDS` (:func:`classify` of the two best options).
    gap : float
        Expected final score of the best option minus the second best (points; ``inf`` with one option).
    best : Answer
        The optimal answer (the expert's).
    """

    card: ScoreCard
    dice: tuple[int, ...]
    rolls_left: int
    kind: str
    gap: float
    best: Answer

    @property
    def key(self) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """What identifies the position: (card state, dice, rolls left)."""
        return (tuple(self.card.key), self.dice, self.rolls_left)


@dataclass(frozen=True)
class Graded:
    """An answered position.

    Attributes
    ----------
    position : Position
    answer : Answer
    expected, best_expected : float
        Expected final score (points) after the answer and after the best option, optimal play afterwards.
    cost : float
        ``best_expected - expected`` (points, >= 0; 0 below :data:`~yahtzee_solver.analysis.review.ZERO`).
    reason : str or None
        The plain sentence of the reason hook (:func:`no_reason` gives none).
    """

    position: Position
    answer: Answer
    expected: float
    best_expected: float
    cost: float
    reason: str | None = None


def _points(card: ScoreCard, dice: Sequence[int]) -> list[int]:
    return card.box_points(dice)[0]


def _bonus_open(rules: RuleSet, card: ScoreCard) -> bool:
    return bool(rules.upper_bonus) and card.upper_subtotal < rules.upper_threshold


def _yahtzee_scores(rules: RuleSet, card: ScoreCard) -> bool:
    y = rules.yahtzee_category
    if y < 0:
        return False
    return card.boxes[y] is None or (bool(rules.yahtzee_bonus) and card.boxes[y] == rules.categories[y].points)


def _straight_draw(keep: tuple[int, ...]) -> bool:
    # three or more distinct faces with at most one face missing between them (1-2-4, 2-3-4-6)
    return len(keep) >= 3 and len(set(keep)) == len(keep) and max(keep) - min(keep) <= len(keep)


def _has_pair(keep: tuple[int, ...]) -> bool:
    return any(n >= 2 for n in Counter(keep).values())


def classify(card: ScoreCard, dice: Sequence[int], rolls_left: int, a: Answer, b: Answer) -> str:
    """The kind of decision (one of :data:`KINDS`) between two answers ``a`` and ``b`` at a position.

    A player's decision is classified by (their answer, the best); a position by its two best options.
    The rules are those of :data:`KINDS`, tried in that order.
    """
    rules = card.rules
    dice = tuple(sorted(dice))
    pair = (a, b)
    boxes = [x.box for x in pair if x.box is not None]
    if rolls_left > 0 and any(x.stops for x in pair) and not all(x.box is not None for x in pair):
        if boxes:
            pts = _points(card, dice)
            if any(pts[c] == 0 for c in boxes) and len(card.open_categories) >= EARLY_OPEN:
                return "early_scratch"
        return "stand"
    if boxes:
        pts = _points(card, dice)
        if any(pts[c] == 0 for c in boxes) and len(card.open_categories) >= EARLY_OPEN:
            return "early_scratch"
        if _bonus_open(rules, card) and any(c < _N_UPPER for c in boxes):
            return "upper_bonus"
        return "box"
    keeps = [x.keep for x in pair if x.keep is not None]  # no box here: both are keeps
    if any(_straight_draw(k) for k in keeps) and any(_has_pair(k) for k in keeps):
        return "straight_vs_pairs"
    if _yahtzee_scores(rules, card) and any(len(k) >= 3 and len(set(k)) == 1 for k in keeps):
        return "yahtzee_chase"
    if _bonus_open(rules, card) and any(len(k) >= 2 and len(set(k)) == 1 and card.boxes[k[0] - 1] is None
                                        for k in keeps):
        return "upper_bonus"
    return "keep"


def answer_value(advisor: Advisor, card: ScoreCard, dice: Sequence[int], rolls_left: int, answer: Answer) -> tuple[float, float]:
    """Expected final score (points) after ``answer`` and after the best option, optimal play afterwards.

    The values are the advisor's (the play hint's): with rerolls left the keep ranking (keeping all
    five = the best box now), a box named = :meth:`Advisor.box_options` of that box; with none, the
    box ranking.

    Raises
    ------
    UsageError
        If the answer is not legal at the position (a keep not among the dice, a closed box, a keep
        with no reroll left).
    """
    dice = tuple(sorted(dice))
    if rolls_left > 0:
        opts = advisor.keep_options(card, dice, rolls_left)
        best = opts[0].expected
        if answer.box is None:
            assert answer.keep is not None  # exactly one of keep and box is set
            keep = tuple(sorted(answer.keep))
            for o in opts:
                if o.keep == keep:
                    return o.expected, best
            raise UsageError(f"keep {format_dice(keep) or '-'} is not among the dice {format_dice(dice)}")
    else:
        if answer.box is None:
            raise UsageError("no reroll is left: the answer is a box")
        best = None
    boxes = advisor.box_options(card, dice)
    for b in boxes:
        if b.category == answer.box:
            return b.expected, (boxes[0].expected if best is None else best)
    raise UsageError(f"box {answer.box!r} is not open for {format_dice(dice)}")


def no_reason(position: Position, answer: Answer, lang: str = "en") -> str | None:
    """A reason hook that gives no reason (the default of :func:`grade`: no computation).

    A reason hook returns the plain sentence shown under the ranking after an answer.  The trainer's
    own is :class:`yahtzee_solver.tui.train.WhyReason`: the sentences of the reasons
    (:func:`yahtzee_solver.strategy.reasons.option_reasons`, as ``hint --why``) for the best option and
    for the answer; any callable of the same signature may be passed instead.
    """
    return None


def grade(advisor: Advisor, position: Position, answer: Answer, *,
          reason: Callable[[Position, Answer, str], str | None] = no_reason, lang: str = "en") -> Graded:
    """The graded answer: its expected score, the best, the cost and the reason (:func:`answer_value`).

    Raises
    ------
    UsageError
        As :func:`answer_value`.
    """
    got, best = answer_value(advisor, position.card, position.dice, position.rolls_left, answer)
    cost = best - got
    return Graded(position, answer, got, best, 0.0 if cost < ZERO else float(cost), reason(position, answer, lang))


# -- positions from optimal play ------------------------------------------------------------------------
def _position(advisor: Advisor, card: ScoreCard, dice: tuple[int, ...],
              rolls_left: int) -> tuple[Position, KeepOption | BoxOption]:
    """(Position, best option object) at the decision; the options ranked by the advisor."""
    opts: Sequence[KeepOption] | Sequence[BoxOption]
    if rolls_left > 0:
        opts = advisor.keep_options(card, dice, rolls_left)
        answers = [Answer(keep=o.keep) for o in opts[:2]]
    else:
        opts = advisor.box_options(card, dice)
        answers = [Answer(box=b.category) for b in opts[:2]]
    if len(opts) > 1:
        gap, kind = opts[0].expected - opts[1].expected, classify(card, dice, rolls_left, *answers)
    else:
        gap, kind = math.inf, "box" if rolls_left == 0 else "keep"
    return Position(card, dice, rolls_left, kind, gap, answers[0]), opts[0]


def _roll(rng: np.random.Generator, n: int) -> tuple[int, ...]:
    return tuple(int(x) for x in rng.integers(1, 7, size=n))


def play_positions(advisor: Advisor, rng: np.random.Generator, games: int) -> list[Position]:
    """Every decision of ``games`` solitaire games played optimally, dice drawn from ``rng``.

    Each turn: a keep at two rerolls left, one at one left (unless the best was to stop and score), and
    the box of the final dice (when no reroll was left).  The game continues with the best option, the
    expert's play.

    Returns
    -------
    list of Position
        In the order played.
    """
    rules = advisor.rules
    out: list[Position] = []
    for _ in range(int(games)):
        card = ScoreCard.empty(rules)
        for _turn in range(rules.n_categories):
            dice = tuple(sorted(_roll(rng, N_DICE)))
            box = None
            for rl in (2, 1):
                pos, best = _position(advisor, card, dice, rl)
                out.append(pos)
                assert isinstance(best, KeepOption)  # rerolls left: a keep
                if best.score is not None:
                    box = best.score.category
                    break
                dice = tuple(sorted(best.keep + _roll(rng, N_DICE - len(best.keep))))
            if box is None:
                pos, last = _position(advisor, card, dice, 0)
                out.append(pos)
                assert isinstance(last, BoxOption)  # no reroll left: a box
                box = last.category
            points, _, bonus = card.box_points(dice)
            card = card.with_box(box, points[box], bonus)
    return out


# -- the player's own mistakes ------------------------------------------------------------------------
@dataclass(frozen=True)
class Mistake:
    """A past decision that lost points: its kind, its position and the loss (points)."""

    kind: str
    key: tuple[tuple[int, ...], tuple[int, ...], int]
    loss: float


def history_mistakes(logs: Iterable[tuple[Iterable[Event | Mapping[str, Any]], int]], rules: str | RuleSet, advisor: Advisor | None = None) -> list[Mistake]:
    """The decisions that lost expected points in past games, classified (:func:`classify`).

    Parameters
    ----------
    logs : iterable of (log, player)
        Move logs of finished games of ``rules`` (:attr:`yahtzee_solver.game.GameState.log`, as kept in
        the history) and the player whose decisions are reviewed.  A log that does not replay is skipped.
    rules : str or RuleSet
    advisor : Advisor, optional
        Default: the shipped table, interpreted kernels.

    Returns
    -------
    list of Mistake
        Every decision with a loss above :data:`~yahtzee_solver.analysis.review.ZERO`, in the order played.
    """
    rules = get_rules(rules)
    adv = advisor if advisor is not None else Advisor(rules, jit=False)
    out: list[Mistake] = []
    for log, player in logs:
        try:
            turns = turns_from_log(log, player)
            rev = review_log(log, rules, player, advisor=adv)
        except YahtzeeError:
            continue
        cards = [ScoreCard.empty(rules)]
        for tp in turns:
            points, _, bonus = cards[-1].box_points(tp.rolls[-1])
            cards.append(cards[-1].with_box(tp.box, points[tp.box], bonus))
        for d in rev.decisions:
            if d.loss <= ZERO:
                continue
            card = cards[d.turn - 1]
            kind = classify(card, d.dice, d.rolls_left, _answer(d.choice), _answer(d.best))
            out.append(Mistake(kind, (tuple(card.key), tuple(d.dice), d.rolls_left), d.loss))
    return out


def _answer(x: tuple[int, ...] | int) -> Answer:
    """A reviewed decision's keep (a tuple of faces) or box (an index) as an :class:`Answer`."""
    return Answer(keep=x) if isinstance(x, tuple) else Answer(box=x)


def kind_weights(mistakes: Iterable[Mistake]) -> dict[str, float]:
    """Points lost per kind (:data:`KINDS` order, kinds with losses only): what ``--from-history`` draws by."""
    lost = {k: 0.0 for k in KINDS}
    for m in mistakes:
        lost[m.kind] += m.loss
    return {k: v for k, v in lost.items() if v > 0}


def _close_weights(pool: Sequence[Position]) -> np.ndarray:
    gaps = np.array([p.gap for p in pool], dtype=float)
    return np.where(np.isfinite(gaps), np.exp(-np.minimum(gaps, 700.0) / CLOSE_SCALE), 0.0)


def _pick(rng: np.random.Generator, pool: Sequence[Position], n: int) -> list[Position]:
    """``n`` distinct positions of ``pool`` drawn with closeness weights (fewer if the pool is short)."""
    w = _close_weights(pool)
    live = int(np.count_nonzero(w))
    n = min(n, live)
    if n <= 0:
        return []
    idx = rng.choice(len(pool), size=n, replace=False, p=w / w.sum())
    return [pool[i] for i in idx]


#: Games played per round of position generation, and the most rounds.
GAMES_PER_ROUND, MAX_ROUNDS = 4, 25


def draw_positions(advisor: Advisor, rng: np.random.Generator, count: int,
                   mistakes: Sequence[Mistake] = ()) -> list[Position]:
    """``count`` positions to train on (see the module docstring).

    Parameters
    ----------
    advisor : Advisor
    rng : numpy.random.Generator
        The dice of the games and the draws.
    count : int
        Positions wanted (>= 1).
    mistakes : sequence of Mistake
        The player's past mistakes (:func:`history_mistakes`); empty: close positions of optimal play.

    Returns
    -------
    list of Position

    Raises
    ------
    UsageError
        If ``count`` is less than 1.
    """
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 1:
        raise UsageError(f"invalid number of positions {count!r}: want at least 1")
    count = int(count)
    seen = {m.key for m in mistakes}
    weights = kind_weights(mistakes)
    pool: list[Position] = []
    if not weights:
        while len(pool) < 4 * count:
            pool += [p for p in play_positions(advisor, rng, GAMES_PER_ROUND) if math.isfinite(p.gap)]
        return _pick(rng, pool, count)
    kinds = list(weights)
    p = np.array([weights[k] for k in kinds])
    wanted = Counter(kinds[i] for i in rng.choice(len(kinds), size=count, p=p / p.sum()))
    for _ in range(MAX_ROUNDS):
        pool += [q for q in play_positions(advisor, rng, GAMES_PER_ROUND)
                 if math.isfinite(q.gap) and q.key not in seen]
        have = Counter(q.kind for q in pool)
        if all(have[k] >= 2 * n for k, n in wanted.items()) and len(pool) >= 4 * count:
            break
    out: list[Position] = []
    taken: set[int] = set()
    for k in kinds:  # the kinds in a fixed order, then shuffled: the draws depend on the seed only
        if wanted[k]:
            got = _pick(rng, [q for q in pool if q.kind == k], wanted[k])
            out += got
            taken.update(id(q) for q in got)
    if len(out) < count:  # a kind too rare in the games played: close positions of any kind
        out += _pick(rng, [q for q in pool if id(q) not in taken], count - len(out))
    order = rng.permutation(len(out))
    return [out[i] for i in order]


# -- the sessions file ------------------------------------------------------------------------------
TRAINING_FORMAT = "yahtzee_solver training sessions"
TRAINING_VERSION = 1

#: Sessions kept (the oldest are dropped beyond this).
MAX_SESSIONS = 500


def training_path() -> Path:
    """``training.json`` in the data folder (:func:`yahtzee_solver.files.data_dir`)."""
    return data_dir() / "training.json"


@dataclass(frozen=True)
class SessionRecord:
    """One training session as saved.

    Attributes
    ----------
    date : str
        When it ended (UTC, ISO 8601).
    rules : str
    source : str
        ``history`` (drawn from the player's mistakes) or ``sampled`` (close positions of optimal play).
    seed : int
    positions : int
        Positions answered (>= 1).
    total_loss : float
        Sum of the costs (points).
    kinds : dict
        ``{kind: [answered, points lost]}`` per decision kind.
    """

    date: str
    rules: str
    source: str
    seed: int
    positions: int
    total_loss: float
    kinds: dict[str, list[float]] = field(default_factory=dict, compare=False)

    @property
    def proficiency(self) -> float:
        """Mean cost per decision (points): Verhoeff's proficiency measure; under :data:`STRONG` is strong."""
        return self.total_loss / self.positions

    @classmethod
    def of(cls, graded: Sequence[Graded], rules: str, source: str, seed: int, date: str | None = None) -> SessionRecord:
        """The record of the answered positions ``graded`` (a sequence of :class:`Graded`, at least one).

        Raises
        ------
        UsageError
            If nothing was answered.
        """
        if not graded:
            raise UsageError("no position was answered: there is no session to save")
        kinds: dict[str, list[float]] = {}
        for g in graded:
            n, lost = kinds.get(g.position.kind, (0, 0.0))
            kinds[g.position.kind] = [n + 1, lost + g.cost]
        return cls(date or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), rules, source, int(seed),
                   len(graded), float(sum(g.cost for g in graded)), kinds)

    def to_dict(self) -> dict[str, Any]:
        return {"date": self.date, "rules": self.rules, "source": self.source, "seed": self.seed,
                "positions": self.positions, "total_loss": self.total_loss, "proficiency": self.proficiency,
                "kinds": self.kinds}

    @classmethod
    def from_dict(cls, d: Any) -> SessionRecord:
        """Validate and restore one saved session.

        Raises
        ------
        ValueError
            Naming what is wrong.
        """
        from ..rules import RULESETS

        if not isinstance(d, dict):
            raise ValueError("a session is not an object")
        date, rules, source, seed = d.get("date"), d.get("rules"), d.get("source"), d.get("seed")
        n, total, kinds = d.get("positions"), d.get("total_loss"), d.get("kinds", {})
        if not isinstance(date, str) or not 0 < len(date) <= 40:
            raise ValueError("a session has no date")
        if rules not in RULESETS:
            raise ValueError("a session has unknown rules")
        if source not in ("history", "sampled"):
            raise ValueError("a session has an unknown source")
        if type(seed) is not int or seed < 0:
            raise ValueError("a session has an invalid seed")
        if type(n) is not int or n < 1:
            raise ValueError("a session has an invalid number of positions")
        if isinstance(total, bool) or not isinstance(total, (int, float)) or not 0 <= total < math.inf:
            raise ValueError("a session has an invalid loss")
        if not isinstance(kinds, dict) or not all(
                k in KINDS and isinstance(v, list) and len(v) == 2 and type(v[0]) is int
                and isinstance(v[1], (int, float)) and not isinstance(v[1], bool) for k, v in kinds.items()):
            raise ValueError("a session has invalid decision kinds")
        return cls(date, rules, source, seed, n, float(total), {k: [v[0], float(v[1])] for k, v in kinds.items()})


@dataclass
class TrainingStats:
    """Every saved training session, oldest first.

    Attributes
    ----------
    sessions : list of SessionRecord
    path : Path or None
    problem : str or None
        Set by :meth:`load` when the file was unreadable and was moved aside (a new file is started).
    """

    sessions: list[SessionRecord] = field(default_factory=list)
    path: Path | None = None
    problem: str | None = None

    @classmethod
    def load(cls, path: str | os.PathLike[str] | None = None) -> TrainingStats:
        """Read the sessions (default :func:`training_path`); empty when there is no file.

        A file that is not a valid sessions file (not JSON, a wrong format, a malformed session) is moved
        aside as ``training.json.corrupt-<timestamp>`` and reported in :attr:`problem`.

        Raises
        ------
        DataFileError
            If the file cannot be read or moved aside, or was written by a newer version (left as it is).
        """
        path = Path(path) if path is not None else training_path()
        st = cls(path=path)
        try:
            data = read_json(path)
            v = data.get("version") if isinstance(data, dict) else None
            if type(v) is int and v > TRAINING_VERSION:
                raise DataFileError(f"training file {str(path)!r} is format version {v}, this version reads "
                                    f"{TRAINING_VERSION}: upgrade yahtzee-solver (the file is left as it is)")
            if not isinstance(data, dict) or data.get("format") != TRAINING_FORMAT or v != TRAINING_VERSION:
                raise ValueError("not a yahtzee_solver training file")
            sessions = data.get("sessions")
            if not isinstance(sessions, list):
                raise ValueError("no list of sessions")
            st.sessions = [SessionRecord.from_dict(s) for s in sessions]
        except FileNotFoundError:
            return st
        except (ValueError, TypeError, AttributeError) as e:
            moved = set_aside(path)
            st.problem = (f"training file {str(path)!r} is unreadable ({e}); moved to {str(moved)!r}, "
                          f"starting a new one")
        return st

    def add(self, record: SessionRecord) -> Path:
        """Append ``record`` and save the file atomically (the last :data:`MAX_SESSIONS`).

        Raises
        ------
        DataFileError
            If it cannot be written (the old file is left intact).
        """
        self.sessions = (self.sessions + [record])[-MAX_SESSIONS:]
        data = {"format": TRAINING_FORMAT, "version": TRAINING_VERSION,
                "sessions": [s.to_dict() for s in self.sessions]}
        return write_json_atomic(self.path or training_path(), data)


_EIGHTHS = " ▏▎▍▌▋▊▉"


def trend_bars(values: Sequence[float], width: int = 30) -> list[str]:
    """One horizontal bar per value, ``width`` cells for the largest, in Unicode eighth blocks.

    Parameters
    ----------
    values : sequence of float
        Non-negative (points per decision).
    width : int
        Cells of the longest bar.

    Returns
    -------
    list of str
        Bars of at most ``width`` cells (an empty string for 0).
    """
    top = max(values, default=0.0)
    out = []
    for v in values:
        eighths = 0 if top <= 0 else int(round(v / top * width * 8))
        full, rest = divmod(eighths, 8)
        out.append("█" * full + (_EIGHTHS[rest] if rest else ""))
    return out
