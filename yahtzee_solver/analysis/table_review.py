"""The review of a game at a table: every player's luck and skill, and each player's chance of finishing first.

For a game of two or more players (the coach's table, or ``play`` against a
CPU), from one move log whose events name the player by seat
(:attr:`yahtzee_solver.game.Event.player`):

* **Every player's split**, exactly ``final = start value - skill loss + luck``
  (points): the per-game review of :mod:`yahtzee_solver.analysis.review` of that
  player's turns, not derived again here (:class:`PlayerSplit`).
* **The chance of finishing first at the start of each round**, every player
  modelled as ``expert`` (the optimal policy for points, the value table's)
  from their card, the final totals independent, a ``k``-way tie for first
  counting ``1/k`` for each: the coach's model and machinery
  (:class:`~yahtzee_solver.strategy.win_chances.TableOdds`, the exact
  final-score distribution of each card,
  :func:`~yahtzee_solver.strategy.objectives.first_place_chances`).  The
  chances of a round add up to 1 (float rounding, about 1e-15).  All the
  cards of all the rounds are solved in one backward pass
  (:meth:`~yahtzee_solver.strategy.win_chances.TableOdds.prime`): about one
  distribution from the empty card (8 s and 1.4 GiB for ``yahtzee`` on the
  2-core test machine, README "Speed and memory").  A round where every card
  is the same -- the first round, with every card empty -- is ``1/N`` each
  without a computation: the ``N`` players then have one distribution, and
  the chances are exchangeable, so they are exactly equal.  With ``max_open``
  a round where some card has more open boxes is not computed (``None``).
* **The result**: each player's share of first place at the end (1, 0, or
  ``1/k`` in a ``k``-way tie), for a finished game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import SavedGameError, UsageError
from ..rules import RuleSet, get_rules
from ..state import ScoreCard
from .review import GameReview, review_turns, turns_from_log

if TYPE_CHECKING:
    from ..game import Event
    from ..strategy.advisor import Advisor
    from ..strategy.win_chances import TableOdds

__all__ = ["MODEL", "PlayerSplit", "TableReview", "review_table", "players_in_log"]

#: The model of every player in the chances (the coach's).
MODEL = "expert"


@dataclass(frozen=True)
class PlayerSplit:
    """One player's luck and skill: ``final == start_value - skill_loss + luck`` within 1e-9.

    Attributes
    ----------
    name : str
    final : int
        Points on the card at the end of the reviewed turns (the final score of a finished game).
    start_value : float
        Expected final total of the empty card under optimal play (points).
    skill_loss : float
        Expected points lost by the player's decisions (points, >= 0).
    luck : float
        The change in expected final total the dice made (points; positive: the dice helped).
    review : GameReview
        The player's whole review (every decision and roll).
    """

    name: str
    final: int
    start_value: float
    skill_loss: float
    luck: float
    review: GameReview = field(repr=False, compare=False)

    @property
    def expected_end(self) -> float:
        """The final score, or for an unfinished game the expected final total now (points)."""
        return self.review.expected_end

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "final": self.final, "start_value": self.start_value,
                "skill_loss": self.skill_loss, "luck": self.luck, "expected_end": self.expected_end,
                "complete": self.review.complete}


@dataclass(frozen=True)
class TableReview:
    """Every player's split and chances of finishing first round by round.

    Attributes
    ----------
    rules : RuleSet
    players : tuple of PlayerSplit
        In seating order (the order of play in each round).
    rounds : tuple of int
        The rounds (1-based) whose start the chances are for: every round
        each player began.
    chances : tuple of (tuple of float) or None
        ``chances[j][i]``: player ``i``'s chance of finishing first (probability)
        at the start of round ``rounds[j]``, every player modelled as
        :data:`MODEL` from their card; ``None`` where not computed.  Each
        computed row sums to 1 (float rounding).
    result : tuple of float or None
        Each player's share of first place at the end (ties share); ``None``
        for an unfinished game.
    by_symmetry : tuple of int
        The rounds whose chances are ``1/N`` each because every card was the same.
    max_open : int or None
        Rounds with a card of more open boxes than this are not computed
        (``None``: every round is).
    """

    rules: RuleSet
    players: tuple[PlayerSplit, ...]
    rounds: tuple[int, ...]
    chances: tuple[tuple[float, ...] | None, ...]
    result: tuple[float, ...] | None = None
    by_symmetry: tuple[int, ...] = ()
    max_open: int | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def series(self, player: int) -> list[float | None]:
        """Player ``player``'s chance at the start of each of :attr:`rounds` (``None``: not computed)."""
        return [None if row is None else row[player] for row in self.chances]

    @property
    def computed(self) -> bool:
        """Whether any round's chances were computed."""
        return any(row is not None for row in self.chances)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the rounds, and per player the split and the chance series (``None`` = not computed)."""
        return {
            "rules": self.rules.name, "model": MODEL, "rounds": list(self.rounds),
            "players": [{**p.to_dict(), "chances": self.series(i),
                         "result": None if self.result is None else self.result[i]}
                        for i, p in enumerate(self.players)],
            "chances": [None if row is None else list(row) for row in self.chances],
            "result": None if self.result is None else list(self.result),
            "by_symmetry": list(self.by_symmetry), "max_open": self.max_open,
        }


def players_in_log(log: Iterable[Event | Mapping[str, Any]]) -> int:
    """The number of seats in a move log: one more than the highest player index of its events.

    Raises
    ------
    SavedGameError
        If an event is malformed.
    """
    from ..game import Event

    top = -1
    try:
        for e in log:
            ev = e if isinstance(e, Event) else Event.from_dict(e)
            top = max(top, int(ev.player))
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise SavedGameError(f"the move log is damaged ({type(e).__name__}: {e})") from None
    return top + 1


def review_table(rules: str | RuleSet, names: Sequence[str], log: Sequence[Event | Mapping[str, Any]], *,
                 advisor: Advisor | None = None, odds: TableOdds | None = None, chances: bool = True,
                 max_open: int | None = None) -> TableReview:
    """Review every player of a game at a table (module docstring).

    Parameters
    ----------
    rules : str or RuleSet
    names : sequence of str
        The players' names in seating order; ``names[i]`` played the events of player ``i``.
    log : sequence of game.Event or of their dicts
        The game's move log, every player's events in the order played.
    advisor : Advisor, optional
        Of ``rules`` (default: the shipped table, interpreted kernels).
    odds : TableOdds, optional
        The distributions kept between calls (default: a new one on ``advisor``'s table).
    chances : bool
        Compute the chances (``False``: the splits only; every row ``None``).
    max_open : int, optional
        Compute only the rounds where every card has at most this many open boxes.

    Returns
    -------
    TableReview

    Raises
    ------
    UsageError
        Fewer than two names, or another number of players than the log's.
    SavedGameError
        If the log is malformed or a player's turns are not a legal game.
    """
    from ..strategy.advisor import Advisor
    from ..strategy.objectives import first_place_chances
    from ..strategy.win_chances import TableOdds

    rules = get_rules(rules)
    names = tuple(str(n) for n in names)
    if len(names) < 2:
        raise UsageError(f"a table review needs two or more players, not {len(names)}")
    seats = players_in_log(log)
    if seats > len(names):
        raise UsageError(f"the move log has {seats} players, {len(names)} names are given")
    adv = advisor if advisor is not None else Advisor(rules, jit=False)
    splits = []
    cards: list[list[ScoreCard]] = []  # cards[i][t]: player i's card after t turns
    for i, name in enumerate(names):
        turns = turns_from_log(log, i)
        rev = review_turns(turns, rules, advisor=adv, meta={"player": name})
        splits.append(PlayerSplit(name, rev.final_score, rev.start_value, rev.skill_loss, rev.luck, rev))
        card = ScoreCard.empty(rules)
        row = [card]
        for tp in turns:
            points, _, bonus = card.box_points(tp.rolls[-1])
            card = card.with_box(tp.box, points[tp.box], bonus)
            row.append(card)
        cards.append(row)
    n = len(names)
    played = min(len(r) - 1 for r in cards)
    rounds = tuple(range(1, min(played + 1, rules.n_categories) + 1))
    at = [[cards[i][t - 1] for i in range(n)] for t in rounds]
    limit = rules.n_categories if max_open is None else int(max_open)
    wanted = [chances and all(len(c.open_categories) <= limit for c in row) for row in at]
    same = [all(c.key == row[0].key and c.total == row[0].total for c in row) for row in at]
    if odds is None:
        odds = TableOdds(rules, adv.table, max_open=rules.n_categories)
    odds.prime(c for row, w, s in zip(at, wanted, same) if w and not s for c in row)
    rows: list[tuple[float, ...] | None] = []
    for row, w, s in zip(at, wanted, same):
        if not w:
            rows.append(None)
        elif s:
            rows.append((1.0 / n,) * n)
        else:
            rows.append(_clipped(first_place_chances([odds.start_pmf(c) for c in row])))
    result = None
    if all(r[-1].is_full for r in cards):
        result = _clipped(first_place_chances([odds.start_pmf(r[-1]) for r in cards]))
    symmetric = tuple(t for t, w, s in zip(rounds, wanted, same) if w and s)
    return TableReview(rules, tuple(splits), rounds, tuple(rows), result, symmetric, max_open)


def _clipped(p: Iterable[float]) -> tuple[float, ...]:
    """Probabilities as floats in 0..1 (a sum of exact terms may round to 1 + 2e-16)."""
    return tuple(min(max(float(x), 0.0), 1.0) for x in p)
