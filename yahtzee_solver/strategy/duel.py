r"""Exact two-player play: the probability of winning, solved over both cards and the score difference.

A position of a two-player game is both scorecards (boxes, upper subtotal,
Yahtzee-bonus flag), the score difference and whose turn it is (and, inside
the turn, the dice and rerolls left of the player to move).  Its value is the
mover's P(win) + P(draw) / 2, under one of two opponent models
(:data:`MODELS`):

``optimal``
    Both players maximise their own winning chance: the zero-sum game value
    (expectiminimax over turns; perfect information makes it well defined).
    The value of the mover at a turn start with cards ``A`` (mover), ``B`` and
    difference ``d`` (mover minus opponent) is

    .. math:: V(A, B, d) = \mathbb{E}_{\text{turn}}\,\max\;\big[1 - V(B, A', -(d + g))\big]

    where the turn is the within-turn DP of
    :mod:`yahtzee_solver.solver.utility_kernels` (keeps, rerolls, boxes with the
    Joker and both bonuses) and ``A'``, ``g`` are the card after the score and
    the points it brought.  Once the opponent has finished, the mover plays on
    alone (the opponent's value term becomes the mover's own next turn).
``expert``, ``normal``, ``beginner``
    The opponent plays that CPU level's fixed policy (:mod:`.players`; the
    beginner's random blunders as their exact mixture), which does not look at
    my card: my best play is an MDP.  At the opponent's turn start my value is
    the mean over the exact outcomes ``(B', g)`` of its turn
    (:func:`yahtzee_solver.solver.kernels.dist_outcomes`, the engine of
    :mod:`.distribution`).

Reductions (exact): only the score difference matters, and a card's upper
subtotal only while it can still change the upper bonus (a subtotal that
reached the threshold, a finished upper section, or one that can no longer
reach the threshold are each one class).  Each turn-start node ``(A, B)`` holds
its value as a vector over every difference that can still matter,
``d = -M_A .. M_B`` (``M`` the most points a card can still make,
:func:`objectives.max_points_to_come`, tightened when the upper bonus is out of
reach): above, the mover has won; below, lost.  Nodes are solved by recursion
on the number of open boxes (it falls by one each turn), each memoised.

Alongside the value every node carries the draw probability of the same play
(ties between equal options: the policy layer's order, see
:mod:`yahtzee_solver.solver.duel_kernels`), so P(win) = value - draw / 2 and
P(loss) = 1 - value - draw / 2.  A solver made with ``draws=False`` skips the
draw chance: its values are the same numbers bit for bit (maxima are exact and
the means are the same sums in the same order), taken from
:func:`~yahtzee_solver.solver.utility_kernels.vec_turn`, the turn kernel of the
target and win DPs, in about a quarter of the time.  The CPU ``master``, the
play hint and the review use it; only the win/draw/loss split
(``yahtzee-solve win --json``) needs the draws.

:class:`DuelSource` is the value-source contract of :mod:`.policy` for one
opponent card: ranking and play go through :class:`~.policy.Policy`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeAlias

import numpy as np

from ..dice import N_KEEPS, N_ROLLS, ROLL_SUBKEEPS
from ..errors import UsageError
from ..rules import N_UPPER, RuleSet, get_rules
from ..solver import duel_kernels as _dk
from ..solver import jit as _jit
from ..solver import utility_kernels as _uk
from ..state import ScoreCard, StateKey
from .objectives import _zeros, max_points_to_come

if TYPE_CHECKING:
    from ..solver.table import ValueTable
    from .distribution import _Policy

#: A card class or exact turn-start state ``(mask, up, yb)``.
CardKey: TypeAlias = tuple[int, int, int]
#: ``(V, D)``: value and draw-chance vectors (float64) of one node.
VecPair: TypeAlias = tuple[np.ndarray, np.ndarray]
#: :meth:`DuelSolver.options`: ``(nopt, orow, ogain, succ)``.
Options: TypeAlias = tuple[np.ndarray, np.ndarray, np.ndarray, list[CardKey]]
#: :meth:`DuelSolver.transitions`: ``(card after, gain, probability)`` of each outcome.
Transitions: TypeAlias = list[tuple[CardKey, int, float]]

__all__ = ["MODELS", "DEFAULT_MAX_OPEN", "MAX_SOLVE_OPEN", "DuelSolver", "DuelSource", "DuelStats", "model_for_level", "in_scope"]

#: Opponent models: both maximise their winning chance, or the opponent plays a CPU level's fixed policy.
MODELS = ("optimal", "expert", "normal", "beginner")

#: Exact scope: both players together have at most this many open boxes (chosen by
#: ``benchmarks/bench_duel.py``; see the README, "Exact two-player endgame").
DEFAULT_MAX_OPEN = 7

#: The most open boxes (both cards together) a :class:`DuelSource` solves: 10 is an offline
#: solve of minutes and gigabytes; beyond, it would run for hours and fill the memory.
MAX_SOLVE_OPEN = 10



def model_for_level(level: str) -> str:
    """The opponent model of a CPU level: its own fixed policy, ``optimal`` for ``master``.

    ``master`` plays the exact zero-sum strategy within the exact scope, so a
    game against it is valued as the zero-sum game; ``beginner``, ``normal``
    and ``expert`` are played as they play.  Any other name (a human) is
    modelled as ``optimal``.
    """
    lvl = str(level).strip().lower()
    return lvl if lvl in MODELS and lvl != "optimal" else "optimal"


def in_scope(n_mine: int, n_opponent: int, max_open: int | None = None) -> bool:
    """Whether a position with these open boxes (mine, the opponent's; my turn) is solved exactly.

    Both cards together have at most ``max_open`` (default :data:`DEFAULT_MAX_OPEN`) open
    boxes, and the cards are in turn: as many open boxes as the opponent (I move first this
    round) or one more (it has played this round).
    """
    k = DEFAULT_MAX_OPEN if max_open is None else int(max_open)
    return n_mine + n_opponent <= k and n_mine - n_opponent in (0, 1)


_TERMINAL = (np.array([0.5]), np.array([1.0]))
_TERMINAL[0].setflags(write=False)
_TERMINAL[1].setflags(write=False)


def _read(vec: np.ndarray, lo: int, xs: np.ndarray, below: float, above: float) -> np.ndarray:
    """``vec`` (defined on ``lo .. lo + len - 1``) at the integers ``xs``; ``below``/``above`` outside."""
    i = xs - lo
    out = vec[np.clip(i, 0, vec.size - 1)]
    return np.where(i < 0, below, np.where(i >= vec.size, above, out))


@dataclass
class DuelStats:
    """What a solver holds: nodes and stored differences per layer (open boxes of both cards together).

    Attributes
    ----------
    nodes : dict of int to int
        Turn-start nodes ``(cards, whose turn)`` solved, by open boxes in total.
    diffs : dict of int to int
        Score differences stored over those nodes (the length of their vectors).
    bytes : int
        Memory of the stored vectors (value and draw chance, float64).
    """

    nodes: dict[int, int]
    diffs: dict[int, int]
    bytes: int


class DuelSolver:
    """Memoised exact two-player values from turn-start nodes.

    Parameters
    ----------
    rules : str or RuleSet
    model : str
        One of :data:`MODELS`: the opponent maximises its own winning chance (``optimal``)
        or plays that CPU level's fixed policy.
    table : ValueTable, optional
        The value table (the ``expert`` opponent's policy); default: shipped.
    jit : bool
        Compiled kernels (default) or interpreted (a few open boxes only).
    draws : bool
        Carry the draw chance beside the value (default).  ``False`` solves the
        values only, bit for bit the same, about four times faster; the draw
        vectors are then NaN and :class:`DuelSource`'s ``*_outcomes`` raise.

    Raises
    ------
    UsageError
        For an unknown model.

    Notes
    -----
    Not safe to share between threads: the memo grows as nodes are solved.
    """

    def __init__(self, rules: str | RuleSet = "yahtzee", model: str = "optimal", table: ValueTable | None = None, *,
                 jit: bool = True, draws: bool = True) -> None:
        self.rules: RuleSet = get_rules(rules)
        m = str(model).strip().lower()
        if m not in MODELS:
            raise UsageError(f"unknown opponent model {model!r} (choose from {', '.join(MODELS)})")
        self.model: str = m
        self.jit: bool = jit
        self.draws: bool = bool(draws)
        self._dk = _jit.module_backend(_dk, jit)
        self._uk = _jit.module_backend(_uk, jit)
        r = self.rules
        C, T, F = r.n_categories, r.upper_threshold, r.n_flags
        self._code = np.arange((1 << C) * (T + 1) * F, dtype=np.int32).reshape(1 << C, T + 1, F)
        self._shape = (1 << C, T + 1, F)
        self._memo: dict[tuple[str, CardKey, CardKey], VecPair] = {}
        self._opts: dict[CardKey, Options] = {}
        self._bounds: dict[CardKey, int] = {}
        self._trans: dict[CardKey, Transitions] = {}
        self._table = table
        self._pol: _Policy | None = None
        self.seconds: float = 0.0

    # -- card classes ------------------------------------------------------------------
    def _upper_open_max(self, mask: int) -> int:
        return sum(5 * (c + 1) for c in range(N_UPPER) if not (mask >> c) & 1)

    def canon(self, key: Sequence[int]) -> CardKey:
        """The class of a turn-start state: the upper subtotal replaced by 0 where it can no longer matter."""
        mask, up, yb = (int(x) for x in key)
        thr = self.rules.upper_threshold
        if up < thr:
            room = self._upper_open_max(mask)
            if room == 0 or up + room < thr:
                up = 0
        elif self._upper_open_max(mask) == 0:
            up = 0
        return (mask, up, yb)

    def bound(self, key: CardKey) -> int:
        """The most points a (class of) card can still make: :func:`max_points_to_come`, without an unreachable upper bonus."""
        b = self._bounds.get(key)
        if b is None:
            mask, up, yb = key
            r = self.rules
            b = int(max_points_to_come(r, [mask], [up], [yb])[0])
            room = self._upper_open_max(mask)
            if room and up < r.upper_threshold and up + room < r.upper_threshold:
                b -= r.upper_bonus
            self._bounds[key] = b
        return b

    def n_open(self, key: Sequence[int]) -> int:
        return self.rules.n_categories - bin(int(key[0])).count("1")

    def is_full(self, key: Sequence[int]) -> bool:
        return int(key[0]) == self.rules.full_mask

    # -- one turn of a card --------------------------------------------------------------
    def options(self, key: CardKey) -> Options:
        """The legal scores of each final roll from card class ``key``.

        Returns
        -------
        nopt : (252,) int64
        orow : (252, C) int64
            Row into ``succ`` of the card after each legal score (increasing box order).
        ogain : (252, C) int64
            Points the score brings now (box, Joker, Yahtzee bonus, upper bonus).
        succ : list of (mask, up, yb)
            The card classes after the turn.
        """
        o = self._opts.get(key)
        if o is None:
            r = self.rules
            a = r.arrays()
            C = r.n_categories
            nopt = np.empty(N_ROLLS, np.int64)
            orow = np.zeros((N_ROLLS, C), np.int64)
            ogain = np.zeros((N_ROLLS, C), np.int64)
            self._uk.vec_options(key[0], key[1], key[2], self._code, a["score"], a["joker"], a["params"], _zeros(r),
                                 np.empty(C, np.int64), np.empty(C, np.int8), nopt, orow, ogain)
            used = np.arange(C)[None, :] < nopt[:, None]
            codes = np.unique(orow[used])
            keys = [self.canon(k) for k in zip(*(x.tolist() for x in np.unravel_index(codes, self._shape)))]
            succ = sorted(set(keys))
            row_of = {k: i for i, k in enumerate(succ)}
            remap = np.array([row_of[k] for k in keys], np.int64)
            orow = np.where(used, remap[np.searchsorted(codes, orow)], 0)
            o = (nopt, orow.astype(np.int64), ogain, succ)
            self._opts[key] = o
        return o

    def transitions(self, key: CardKey) -> Transitions:
        """The exact outcomes of one turn of the fixed-policy opponent from its state ``key``.

        Returns
        -------
        list of ((mask, up, yb), gain, probability)
        """
        t = self._trans.get(key)
        if t is None:
            from .distribution import _max_gain, _max_outcomes, _policy

            r = self.rules
            if self._pol is None:
                self._pol = _policy(self.model, r, self._table, self.jit)
            pol = self._pol
            k = _jit.backend(self.jit)
            a = r.arrays()
            gmax = _max_gain(r)
            cap = min(_max_outcomes(r), r.n_categories * (gmax + 1))
            oi = np.empty((1, cap), np.int64)
            og = np.empty((1, cap), np.int64)
            op = np.empty((1, cap), np.float64)
            counts, lo, hi = (np.empty(1, np.int64) for _ in range(3))
            n = self._code.size
            if not hasattr(self, "_zero_support"):
                self._zero_support = np.zeros(n, np.int64)
            m = [np.array([int(x)], np.int64) for x in key]
            k.dist_outcomes(m[0], m[1], m[2], -1, 2, -1, pol.kind, pol.V, a["score"], a["joker"], pol.policy,
                            a["params"], ROLL_SUBKEEPS, pol.blunder, pol.made, pol.rkeeps, self._code,
                            self._zero_support, self._zero_support, gmax, oi, og, op, counts, lo, hi)
            c = int(counts[0])
            nxt = zip(*(x.tolist() for x in np.unravel_index(oi[0, :c], self._shape)))
            t = [((int(s[0]), int(s[1]), int(s[2])), int(g), float(p)) for s, g, p in zip(nxt, og[0, :c].tolist(), op[0, :c].tolist())]
            self._trans[key] = t
        return t

    # -- node values -------------------------------------------------------------------
    def node(self, mover: CardKey, other: CardKey, my_turn: bool = True) -> VecPair:
        """``(V, D)`` over ``d = -M_mover .. M_other``: the mover's value and the draw chance at a turn start.

        ``optimal``: ``mover`` moves; both keys are card classes (:meth:`canon`).
        Fixed policy: ``mover`` is always *my* card class and ``other`` the
        opponent's exact state; ``my_turn`` says who moves, and the value is mine.
        """
        if self.model == "optimal":
            key = ("O", mover, other)
        else:
            key = ("M" if my_turn else "P", mover, other)
        hit = self._memo.get(key)
        if hit is not None:
            return hit[0], hit[1]
        full_a, full_b = self.is_full(mover), self.is_full(other)
        if full_a and full_b:
            return _TERMINAL
        t0 = time.perf_counter()
        if self.model != "optimal" and not my_turn:
            out = self._opponent_turn(mover, other)
        else:
            Wv, Wd, o = self._after_turn(mover, other)
            J = Wv.shape[1] - 1
            if self.draws:
                V, D = self._turn(Wv, Wd, o, 0, J, 3)
                out = (V[2][0].copy(), D[2][0].copy())
            else:
                out = (self._values(Wv, o, 0, J, 3)[2][0].copy(), np.full(max(J, 1), np.nan))
        self._memo[key] = out
        self.seconds += time.perf_counter() - t0
        return out

    def _next(self, a2: CardKey, b: CardKey) -> tuple[Literal["same", "swap"], VecPair]:
        """How to read the node after the mover (card ``a2`` now) ends its turn, and its value and draw vectors.

        ``"same"``: the vectors are still the mover's, over its difference; ``"swap"``: the opponent's,
        over the opponent's difference.
        """
        if self.model == "optimal":
            if self.is_full(b):
                return "same", self.node(a2, b)
            return "swap", self.node(b, a2)
        # fixed policy: a2 is mine after my turn
        if self.is_full(b):
            return "same", self.node(a2, b, True)
        return "same", self.node(a2, b, False)

    def _after_turn(self, A: CardKey, B: CardKey) -> tuple[np.ndarray, np.ndarray, Options]:
        """``Wv``, ``Wd`` (n_succ, J+1): value and draw chance of each card after the mover's turn, by offset."""
        MA, MB = self.bound(A), self.bound(B)
        o = self.options(A)
        succ = o[3]
        J = MA + MB + 1
        cols = np.arange(J + 1)
        x = cols - MA  # the mover's difference after the turn
        Wv = np.empty((len(succ), J + 1))
        Wd = np.empty((len(succ), J + 1))
        if not self.draws:
            Wd.fill(np.nan)
        for r, A2 in enumerate(succ):
            how, (v, d) = self._next(A2, B)
            M2 = self.bound(A2)
            if how == "same":  # the value is still the mover's, over x = -M2 .. MB
                Wv[r] = _read(v, -M2, x, 0.0, 1.0)
                if self.draws:
                    Wd[r] = _read(d, -M2, x, 0.0, 0.0)
            else:  # the opponent's value over y = -x = -MB .. M2
                Wv[r] = 1.0 - _read(v, -MB, -x, 0.0, 1.0)
                if self.draws:
                    Wd[r] = _read(d, -MB, -x, 0.0, 0.0)
        return Wv, Wd, o

    def _values(self, Wv: np.ndarray, o: Options, a: int, b: int, levels: int) -> np.ndarray:
        """(3, 462, n) float64: the keep values of the turn over offsets ``a..b-1`` (levels 1..``levels``), no draws."""
        n = max(b - a, 1)
        E = np.empty((3, N_KEEPS, n))
        self._uk.vec_turn(a, b, levels, Wv, o[0], o[1], o[2], E[0], E[1], E[2])
        return E

    def _turn(self, Wv: np.ndarray, Wd: np.ndarray, o: Options, a: int, b: int, levels: int) -> VecPair:
        n = max(b - a, 1)
        V = np.empty((3, N_KEEPS, n))
        D = np.empty((3, N_KEEPS, n))
        self._dk.duel_turn(a, b, levels, Wv, Wd, o[0], o[1], o[2], V, D)
        return V, D

    def _opponent_turn(self, A: CardKey, B: CardKey) -> VecPair:
        """My value and the draw chance at the fixed-policy opponent's turn start (cards: mine ``A``, its ``B``)."""
        MA, MB = self.bound(A), self.bound(B)
        dd = np.arange(-MA, MB + 1)
        V = np.zeros(dd.size)
        D = np.zeros(dd.size)
        for B2, g, p in self.transitions(B):
            nv, nd = self.node(A, B2, not self.is_full(A))
            # the next node's vectors run over d' = -MA .. M(B2); my difference after its turn is d - g
            V += p * _read(nv, -MA, dd - g, 0.0, 1.0)
            if self.draws:
                D += p * _read(nd, -MA, dd - g, 0.0, 0.0)
        if not self.draws:
            D.fill(np.nan)
        return V, D

    # -- statistics --------------------------------------------------------------------
    def stats(self) -> DuelStats:
        nodes: dict[int, int] = {}
        diffs: dict[int, int] = {}
        nbytes = 0
        for (_, a, b), (v, d) in self._memo.items():
            n = self.n_open(a) + self.n_open(b)
            nodes[n] = nodes.get(n, 0) + 1
            diffs[n] = diffs.get(n, 0) + v.size
            nbytes += v.nbytes + d.nbytes
        return DuelStats(dict(sorted(nodes.items())), dict(sorted(diffs.items())), nbytes)

    def clear(self) -> None:
        """Forget the solved nodes (keeps the per-card options and transitions)."""
        self._memo.clear()


class DuelSource:
    """Value source (:class:`~.policy.ValueSource`) of the exact two-player game against one opponent card.

    It is my turn.  Values are my P(win) + P(draw) / 2 (probability units)
    with both players playing to the end as the model says; :meth:`keep_outcomes`
    and :meth:`box_outcomes` give the draw chance of the same play.

    Parameters
    ----------
    rules : str or RuleSet
    opponent : ScoreCard
        The opponent's card (its total fixes the score difference).
    model : str
        :data:`MODELS`.
    solver : DuelSolver, optional
        A solver to share (same rules and model): its solved nodes are reused.
    table, jit
        As :class:`DuelSolver`.

    Raises
    ------
    UsageError
        For an unknown model, or a solver of other rules or model.
    """

    units = "probability"

    def __init__(self, rules: str | RuleSet, opponent: ScoreCard, model: str = "optimal", *,
                 solver: DuelSolver | None = None, table: ValueTable | None = None, jit: bool = True) -> None:
        self.rules: RuleSet = get_rules(rules)
        if solver is None:
            solver = DuelSolver(self.rules, model, table, jit=jit)
        elif solver.rules != self.rules or solver.model != str(model).strip().lower():
            raise UsageError("the shared duel solver has other rules or another opponent model")
        if opponent.rules != self.rules:
            raise UsageError(f"the opponent's card is of the rules {opponent.rules.name!r}, not {self.rules.name!r}")
        self.solver: DuelSolver = solver
        self.model: str = solver.model
        self.opponent: ScoreCard = opponent
        k = opponent.key
        self._other: CardKey = solver.canon(k) if solver.model == "optimal" else (int(k[0]), int(k[1]), int(k[2]))
        self._last: tuple[CardKey, np.ndarray, np.ndarray, Options] | None = None

    def n_open(self, state: Sequence[int]) -> int:
        """Open boxes of both cards together with my state ``state``."""
        return self.solver.n_open(state) + self.solver.n_open(self._other)

    def _check(self, state: Sequence[int]) -> None:
        """My turn with card ``state`` against the opponent's, within :data:`MAX_SOLVE_OPEN`; else UsageError."""
        n_me, n_opp = self.solver.n_open(state), self.solver.n_open(self._other)
        if n_me > 0 and n_opp > 0 and n_me - n_opp not in (0, 1):
            raise UsageError(f"the cards are not in turn: I have {n_me} open boxes and the opponent {n_opp}; on my "
                             f"turn I have as many as the opponent or one more (or the opponent has finished)")
        if n_me + n_opp > MAX_SOLVE_OPEN:
            raise UsageError(f"{n_me + n_opp} open boxes in all: more than the exact two-player solve takes "
                             f"(at most {MAX_SOLVE_OPEN})")

    def _node(self, state: Sequence[int]) -> tuple[CardKey, np.ndarray, np.ndarray, Options]:
        s = self.solver
        self._check(state)
        A = s.canon(state)
        if s.is_full(A):
            raise UsageError("my card is full: no turn to play")
        if self._last is None or self._last[0] != A:
            Wv, Wd, o = s._after_turn(A, self._other)
            self._last = (A, Wv, Wd, o)
        return self._last

    def _offset(self, A: CardKey, total: int) -> tuple[int, int, int]:
        d = int(total) - int(self.opponent.total)
        MA, MB = self.solver.bound(A), self.solver.bound(self._other)
        return d, d + MA, MA + MB + 1

    def _keep_vd(self, state: Sequence[int], total: int, rolls_left: int) -> VecPair:
        A, Wv, Wd, o = self._node(state)
        d, j, J = self._offset(A, total)
        if j < 0 or j >= J:  # decided: every option is worth the same
            val = 0.0 if j < 0 else 1.0
            return np.full(N_KEEPS, val), np.zeros(N_KEEPS)
        if not self.solver.draws:
            E = self.solver._values(Wv, o, j, j + 1, rolls_left)
            return E[rolls_left - 1, :, 0].copy(), np.full(N_KEEPS, np.nan)
        V, D = self.solver._turn(Wv, Wd, o, j, j + 1, rolls_left)
        return V[rolls_left - 1, :, 0].copy(), D[rolls_left - 1, :, 0].copy()

    def _need_draws(self) -> None:
        if not self.solver.draws:
            raise UsageError("this duel solver was made with draws=False: it has no draw chances")

    def keep_values(self, state: StateKey, total: int, rolls_left: int) -> np.ndarray:
        """(462,) float64: my value of each keep index (``dice.KEEPS``) with ``rolls_left`` (1|2) rerolls to go."""
        if isinstance(rolls_left, bool) or rolls_left not in (1, 2):
            raise UsageError(f"invalid rolls-left {rolls_left!r} for a keep: want 1 or 2")
        return self._keep_vd(state, total, rolls_left)[0]

    def keep_outcomes(self, state: StateKey, total: int, rolls_left: int) -> VecPair:
        """``(value, draw)`` (462,) float64 each, for every keep with ``rolls_left`` rerolls to go.

        The entries of keeping all five dice (keeps ``ROLL_OFFSET + r``) are the DP's
        internal pass, not a move: keeping all five is scoring now, whose value and draw
        chance are those of the box :meth:`box_outcomes` gives (the ``win`` command and
        the policy layer use those).

        Raises
        ------
        UsageError
            For a solver without draws (``DuelSolver(draws=False)``), or a bad ``rolls_left``.
        """
        self._need_draws()
        if isinstance(rolls_left, bool) or rolls_left not in (1, 2):
            raise UsageError(f"invalid rolls-left {rolls_left!r} for a keep: want 1 or 2")
        return self._keep_vd(state, total, rolls_left)

    def box_outcomes(self, state: StateKey, total: int, roll: int) -> VecPair:
        """``(value, draw)`` (C,) float64 each of scoring roll ``roll`` in each box; NaN where illegal.

        Raises
        ------
        UsageError
            For a solver without draws (``DuelSolver(draws=False)``).
        """
        self._need_draws()
        return self._box_vd(state, total, roll)

    def _box_vd(self, state: StateKey, total: int, roll: int) -> VecPair:
        A, Wv, Wd, o = self._node(state)
        d, j, J = self._offset(A, total)
        nopt, orow, ogain, _ = o
        C = self.rules.n_categories
        v = np.full(C, np.nan)
        dr = np.full(C, np.nan)
        legal = self._legal(state, roll)
        for i, c in enumerate(legal):
            jj = j + int(ogain[roll, i])
            row = int(orow[roll, i])
            if jj < 0:
                v[c], dr[c] = 0.0, 0.0
            else:
                jj = min(jj, Wv.shape[1] - 1)
                v[c], dr[c] = Wv[row, jj], Wd[row, jj]
        return v, dr

    def _legal(self, state: Sequence[int], roll: int) -> list[int]:
        from ..solver import kernels as _kern

        a = self.rules.arrays()
        C = self.rules.n_categories
        pts = np.empty(C, np.int64)
        legal = np.empty(C, np.int8)
        A = self.solver.canon(state)
        _kern.box_points(A[0], A[1], A[2], int(roll), a["score"], a["joker"], a["params"], pts, legal)
        return [c for c in range(C) if legal[c]]

    def box_values(self, state: StateKey, total: int, roll: int) -> np.ndarray:
        """(C,) float64: my value of scoring roll index ``roll`` (0..251) in each box; NaN where illegal."""
        return self._box_vd(state, total, roll)[0]

    def state_outcomes(self, state: StateKey, total: int) -> tuple[float, float]:
        """``(value, draw)`` at the start of my turn.

        Raises
        ------
        UsageError
            For a solver without draws (``DuelSolver(draws=False)``).
        """
        self._need_draws()
        return self._state_vd(state, total)

    def _state_vd(self, state: StateKey, total: int) -> tuple[float, float]:
        s = self.solver
        self._check(state)
        A = s.canon(state)
        d = int(total) - int(self.opponent.total)
        MA, MB = s.bound(A), s.bound(self._other)
        v, dr = s.node(A, self._other) if s.model == "optimal" else s.node(A, self._other, True)
        if d > MB:
            return 1.0, 0.0
        if d < -MA:
            return 0.0, 0.0
        return float(v[d + MA]), float(dr[d + MA])

    def state_value(self, state: StateKey, total: int) -> float:
        """My value at the start of my turn."""
        return self._state_vd(state, total)[0]

    def probability(self, card: ScoreCard) -> float:
        """My P(win) + P(draw) / 2 from the start of my turn with ``card`` (a full card: the final result)."""
        if card.is_full:
            d = card.total - self.opponent.total
            if not self.solver.is_full(self._other):
                raise UsageError("my card is full but the opponent's is not: its chance is not a turn of mine")
            return 1.0 if d > 0 else (0.5 if d == 0 else 0.0)
        from .probability import clip_probability

        return clip_probability(self.state_value(card.key, card.total))  # the DP's sum: its rounding clipped

    def __repr__(self) -> str:
        return f"DuelSource({self.rules.name!r}, model={self.model!r})"
