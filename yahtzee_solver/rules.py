"""Rule sets as data: categories (boxes), Joker convention, upper bonus and Yahtzee bonus.

The authority is ``docs/rules.md``.  A :class:`RuleSet` is a frozen value; a new
variant is a new instance, not a new code path.  What the kernels need is packed
by :meth:`RuleSet.arrays` into plain numpy arrays:

* ``score``  (252, C) int64 -- points of each roll in each box under the ordinary rules;
* ``joker``  (252, C) int64 -- points of a five-alike roll in each box when it is
  played as a Joker (Full House 25, Small Straight 30, Large Straight 40 in
  ``yahtzee``; otherwise the ordinary score);
* ``params`` (8,) int64 -- see the ``P_*`` index constants;
* ``packed`` (1 + 2 * 252, max(C, 8)) int64 -- ``params`` (row 0, padded with
  zeros), then the rows of ``score`` and of ``joker``: the three in one array,
  for kernels called once per query from Python (fewer arguments, less
  dispatch cost; rows are sliced in the kernel, no reshape).

How one roll scores in one box *in a given position* (Joker constraints, the
+100 Yahtzee bonus, the upper bonus) is decided in exactly one place,
:func:`yahtzee_solver.solver.kernels.box_points`, shared by the DP, the advisor and the game.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field, fields
from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np

from .dice import KEEP_COUNTS, N_ROLLS, ROLL_FACE, ROLL_OFFSET, ROLLS
from .errors import CategoryError, RuleSetError

__all__ = [
    "CategorySpec",
    "RuleSet",
    "RULESETS",
    "YAHTZEE",
    "YAHTZEE_FREE_JOKER",
    "YACHT",
    "YATZY",
    "YAHTZEE_NO_JOKER",
    "YAHTZEE_NO_BONUS",
    "get_rules",
    "score_roll",
    "JOKER_NONE",
    "JOKER_FORCED",
    "JOKER_FREE",
]

JOKER_NONE, JOKER_FORCED, JOKER_FREE = 0, 1, 2
_JOKER_NAMES = {"none": JOKER_NONE, "forced": JOKER_FORCED, "free": JOKER_FREE}

# Indices into RuleSet.arrays()["params"].
P_NCAT, P_YAHTZEE_CAT, P_JOKER, P_YAHTZEE_BONUS, P_THRESHOLD, P_UPPER_BONUS, P_NFLAGS, P_NUPPER = range(8)

N_UPPER = 6  # Ones..Sixes are always categories 0..5


@dataclass(frozen=True)
class CategorySpec:
    """One box of the scorecard.

    Attributes
    ----------
    name : str
        Canonical English name (``"Full House"``).
    key : str
        Rule-set independent key used for aliases (``"full-house"``).
    kind : str
        ``upper`` (face count x face), ``of_a_kind`` (sum of all dice if at least
        ``n`` show one face), ``n_alike`` (``n`` dice of one face, scoring only
        those ``n`` dice: ``n`` x the highest such face -- Yatzy's One Pair,
        Three and Four of a Kind), ``two_pairs`` (two dice each of two
        **different** faces, scoring those four dice), ``full_house`` (three of
        one face and two of another), ``straight`` (``n`` consecutive faces;
        exactly the run starting at ``face`` when ``face`` > 0),
        ``five_alike`` or ``chance``.
    face : int
        The face for ``upper`` boxes; the lowest face of a ``straight`` that
        must be exactly that run (Yatzy: 1 for 1-2-3-4-5); else 0.
    n : int
        Dice needed for ``of_a_kind`` / ``n_alike`` / ``straight``, else 0.
    points : int or None
        Fixed points when the pattern is present; ``None`` scores the sum of the
        dice (for ``n_alike`` and ``two_pairs``: of the matching dice).
    joker_points : int or None
        Fixed points when a five-alike roll is played here as a Joker
        (docs/rules.md: Full House 25, Small Straight 30, Large Straight 40); ``None``
        scores as usual.
    """

    name: str
    key: str
    kind: str
    face: int = 0
    n: int = 0
    points: int | None = None
    joker_points: int | None = None

    @property
    def slug(self) -> str:
        """The box's own short name in this rule set, as printed and as card keys
        (``"full-house"``; Yacht: ``"aces"``, ``"choice"``, ``"four-dice"``, ``"yacht"``)."""
        return box_slug(self.name)


def box_slug(name: str) -> str:
    """The card key of a box from its display name: ``"Full House"`` -> ``"full-house"``
    (:attr:`CategorySpec.slug`)."""
    return re.sub(r"\s+", "-", name.lower())


def score_roll(dice: Sequence[int], spec: CategorySpec) -> int:
    """Points of five dice in one box under the ordinary rules (no Joker, no bonus).

    Parameters
    ----------
    dice : sequence of int
        Five faces 1..6.
    spec : CategorySpec

    Returns
    -------
    int
        Points (docs/rules.md tables).
    """
    counts = [0] * 7
    for d in dice:
        counts[d] += 1
    return _score_counts(counts, sum(dice), spec)


def _score_counts(counts: list[int], total: int, spec: CategorySpec) -> int:
    """:func:`score_roll` from ``counts[f]`` (dice showing face f, index 0 unused) and the dice total."""
    kind = spec.kind
    if kind == "upper":
        return counts[spec.face] * spec.face
    if kind == "chance":
        return total
    if kind == "n_alike":
        faces = [f for f in range(6, 0, -1) if counts[f] >= spec.n]
        if not faces:
            return 0
        return spec.n * faces[0] if spec.points is None else spec.points
    if kind == "two_pairs":
        pairs = [f for f in range(6, 0, -1) if counts[f] >= 2]
        if len(pairs) < 2:  # four or five alike are one face twice, not two pairs
            return 0
        return 2 * (pairs[0] + pairs[1]) if spec.points is None else spec.points
    if kind == "of_a_kind":
        hit = max(counts) >= spec.n
    elif kind == "full_house":
        hit = sorted(c for c in counts if c) == [2, 3]
    elif kind == "straight" and spec.face:
        hit = all(counts[f] for f in range(spec.face, spec.face + spec.n))
    elif kind == "straight":
        run = best = 0
        for f in range(1, 7):
            run = run + 1 if counts[f] else 0
            best = max(best, run)
        hit = best >= spec.n
    elif kind == "five_alike":
        hit = max(counts) == 5
    else:  # pragma: no cover - guarded by RuleSet.__post_init__
        raise ValueError(f"unknown category kind {kind!r}")
    if not hit:
        return 0
    return total if spec.points is None else spec.points


_KINDS = {"upper", "of_a_kind", "n_alike", "two_pairs", "full_house", "straight", "five_alike", "chance"}

_UPPER_KEYS = ("ones", "twos", "threes", "fours", "fives", "sixes")

#: Names users type (docs/rules.md), mapped to category keys.  Case-insensitive;
#: ``_`` and spaces count as ``-``.
ALIASES: dict[str, str] = {}
for _i, _key in enumerate(_UPPER_KEYS):
    ALIASES[_key] = _key
    ALIASES[f"{_i + 1}s"] = _key
ALIASES["aces"] = "ones"
for _alias, _key in {
    "3k": "three-of-a-kind", "three-of-a-kind": "three-of-a-kind", "toak": "three-of-a-kind",
    "3-of-a-kind": "three-of-a-kind",
    "4k": "four-of-a-kind", "four-of-a-kind": "four-of-a-kind", "four-dice": "four-of-a-kind",
    "foak": "four-of-a-kind", "4-of-a-kind": "four-of-a-kind",
    "fh": "full-house", "full-house": "full-house",
    "ss": "small-straight", "sm-straight": "small-straight", "small-straight": "small-straight",
    "s-straight": "small-straight",
    "ls": "large-straight", "lg-straight": "large-straight", "large-straight": "large-straight",
    "l-straight": "large-straight",
    "y": "yahtzee", "yahtzee": "yahtzee", "yacht": "yahtzee", "yatzy": "yahtzee",
    "1p": "one-pair", "pair": "one-pair", "one-pair": "one-pair",
    "2p": "two-pairs", "tp": "two-pairs", "two-pairs": "two-pairs",
    "c": "chance", "chance": "chance", "choice": "chance",
}.items():
    ALIASES[_alias] = _key


#: The refusal of a box name no box of the rule set has (the card's ``unknown`` problem in
#: :data:`yahtzee_solver.card_problems.CARD_PROBLEMS`, said in every language on the web).
UNKNOWN_CATEGORY = "unknown category {box} for rules {rules} (boxes: {names})"


@dataclass(frozen=True)
class RuleSet:
    """A complete rule set (docs/rules.md).  Immutable; compare and hash by value.

    Attributes
    ----------
    name : str
        Registry name (``yahtzee``, ``yahtzee-free-joker``, ``yahtzee-no-joker``,
        ``yahtzee-no-bonus``, ``yacht``, ``yatzy``).
    title : str
        Human-readable title.
    categories : tuple of CategorySpec
        The boxes; category ``i`` is bit ``i`` of a filled mask.  Ones..Sixes
        must be categories 0..5.
    joker : str
        ``none``, ``forced`` (official rules) or ``free`` (Verhoeff's solver).
        With ``none`` a five-alike roll scores in any open box by that box's own
        pattern (and earns the Yahtzee bonus, if any, once the Yahtzee box holds 50).
    yahtzee_bonus : int
        Points for each further five-alike while the Yahtzee box holds 50 (0: none).
    upper_threshold, upper_bonus : int
        Upper bonus: ``upper_bonus`` points once Ones..Sixes add up to
        ``upper_threshold`` (63 -> +35; Yatzy +50).
    reference_value : float or None
        Published optimal expected final score from the empty card (docs/rules.md),
        used for verification only, never by the solver.
    """

    name: str
    title: str
    categories: tuple[CategorySpec, ...]
    joker: str = "none"
    yahtzee_bonus: int = 0
    upper_threshold: int = 63
    upper_bonus: int = 35
    reference_value: float | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.joker not in _JOKER_NAMES:
            raise RuleSetError(f"unknown joker convention {self.joker!r}")
        for i, c in enumerate(self.categories):
            if c.kind not in _KINDS:
                raise RuleSetError(f"unknown category kind {c.kind!r}")
            if (i < N_UPPER) != (c.kind == "upper") or (c.kind == "upper" and c.face != i + 1):
                raise RuleSetError("Ones..Sixes must be categories 0..5")
        if self.joker != "none" and self.yahtzee_category < 0:
            raise RuleSetError("a Joker needs a five-alike (Yahtzee) box")

    # -- derived facts -------------------------------------------------
    @property
    def n_categories(self) -> int:
        """Number of boxes (13, 12 in Yacht, 15 in Yatzy) = number of turns."""
        return len(self.categories)

    @property
    def full_mask(self) -> int:
        """Filled mask of a complete card."""
        return (1 << self.n_categories) - 1

    @property
    def yahtzee_category(self) -> int:
        """Index of the five-alike box (Yahtzee / Yacht), -1 if none."""
        for i, c in enumerate(self.categories):
            if c.kind == "five_alike":
                return i
        return -1

    @property
    def n_flags(self) -> int:
        """2 when the Yahtzee-bonus flag is part of the state, else 1."""
        return 2 if self.yahtzee_bonus else 1

    @property
    def lower_mask(self) -> int:
        """Mask of the lower-section boxes."""
        return self.full_mask & ~((1 << N_UPPER) - 1)

    def category_index(self, name: str) -> int:
        """Index of the box named ``name`` (canonical name, key or alias, case-insensitive).

        Raises
        ------
        CategoryError
            If no box of this rule set has that name.
        """
        norm = re.sub(r"[\s_]+", "-", str(name).strip().lower())
        key = ALIASES.get(norm, norm)
        for i, c in enumerate(self.categories):
            if c.key == key or c.slug == norm:
                return i
        names = ", ".join(c.slug for c in self.categories)
        raise CategoryError(UNKNOWN_CATEGORY.format(box=repr(name), rules=repr(self.name), names=names))

    @cached_property
    def possible_points(self) -> tuple[frozenset[int], ...]:
        """For each box, every number of points it can hold.

        Derived from the score tables over all 252 rolls (Joker scores included),
        so it is exactly what a real game can write in that box (0 only where
        some roll scores 0: never in Chance / Choice).
        """
        a = self.arrays()
        out = []
        for c in range(self.n_categories):
            vals = set(a["score"][:, c].tolist())
            if self.joker != "none":
                vals |= set(a["joker"][ROLL_FACE > 0, c].tolist())
            out.append(frozenset(int(v) for v in vals))
        return tuple(out)

    @cached_property
    def five_alike_points(self) -> tuple[frozenset[int], ...]:
        """For each box, every number of points a roll of five alike can write in it (Joker scores included).

        A box that holds a Yahtzee bonus's roll holds one of these; a card's Yahtzee
        bonuses need as many such boxes besides the Yahtzee box (:class:`~yahtzee_solver.state.ScoreCard`).
        A superset where the Joker rule forbids a box (the check stays a necessary condition).
        """
        a = self.arrays()
        five = ROLL_FACE > 0
        out = []
        for c in range(self.n_categories):
            vals = set(a["score"][five, c].tolist())
            if self.joker != "none":
                vals |= set(a["joker"][five, c].tolist())
            out.append(frozenset(int(v) for v in vals))
        return tuple(out)

    @cached_property
    def max_total(self) -> int:
        """The most a game of these rules can score (points): no final total is larger.

        The most each box can hold (:attr:`possible_points`), the upper bonus, and a
        Yahtzee bonus on every turn after the first when the rules have one (the bound
        of :func:`yahtzee_solver.analysis.curve_data.max_final_total`, without its imports).
        """
        most = sum(max(p) for p in self.possible_points) + self.upper_bonus
        return most + self.yahtzee_bonus * (self.n_categories - 1)

    def arrays(self) -> dict[str, np.ndarray]:
        """The rule set as kernel inputs: ``score``, ``joker`` (252, C) int64, ``params`` (8,) int64
        and ``packed``, the three in one (1 + 2 * 252, max(C, 8)) int64 array (see the module).

        Computed once per instance; the arrays are read-only.
        """
        return self._kernel_arrays

    @cached_property
    def _kernel_arrays(self) -> dict[str, np.ndarray]:
        return _arrays(self)

    def to_dict(self) -> dict[str, Any]:
        """Full definition as plain data (stored in table files)."""
        d = asdict(self)
        d["categories"] = [asdict(c) for c in self.categories]
        return d

    def to_json(self) -> str:
        """Canonical JSON of :meth:`to_dict` (sorted keys)."""
        return json.dumps(self.to_dict(), sort_keys=True)

    @property
    def is_registered(self) -> bool:
        """True when :func:`get_rules` of this rule set's name gives this very definition.

        A registered rule set is pickled, and written by ``repr(ScoreCard)``,
        by its name alone.
        """
        reg = RULESETS.get(self.name)
        return reg is self or (reg == self and reg.reference_value == self.reference_value)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # By name when registered (unpickles to the registry's object); else by
        # the fields.  Either way the cached kernel arrays and possible points
        # (tens of kilobytes, rebuilt on first use) are not pickled.
        if self.is_registered:
            return (get_rules, (self.name,))
        return (type(self), tuple(getattr(self, f.name) for f in fields(self)))


def _arrays(rules: RuleSet) -> dict[str, np.ndarray]:
    C = rules.n_categories
    # Python lists first, one array at the end (element-wise numpy writes would
    # cost a cold shell several milliseconds).
    score_rows, joker_rows = [], []
    specs = rules.categories
    joker_points = [s.joker_points if rules.joker != "none" else None for s in specs]
    for roll in ROLLS:
        counts = [0] * 7
        for d in roll:
            counts[d] += 1
        total = sum(roll)
        row = [_score_counts(counts, total, spec) for spec in specs]
        score_rows.append(row)
        if max(counts) == 5:  # a five-alike roll: Joker points where the rules give them
            row = [p if j is None else j for p, j in zip(row, joker_points)]
        joker_rows.append(row)
    score = np.asfortranarray(np.array(score_rows, dtype=np.int64).reshape(N_ROLLS, C))
    joker = np.array(joker_rows, dtype=np.int64).reshape(N_ROLLS, C)
    params = np.zeros(8, dtype=np.int64)
    params[P_NCAT] = C
    params[P_YAHTZEE_CAT] = rules.yahtzee_category
    params[P_JOKER] = _JOKER_NAMES[rules.joker]
    params[P_YAHTZEE_BONUS] = rules.yahtzee_bonus
    params[P_THRESHOLD] = rules.upper_threshold
    params[P_UPPER_BONUS] = rules.upper_bonus
    params[P_NFLAGS] = rules.n_flags
    params[P_NUPPER] = N_UPPER
    packed = np.zeros((1 + 2 * N_ROLLS, max(C, 8)), dtype=np.int64)
    packed[0, :8] = params
    packed[1:1 + N_ROLLS, :C] = score
    packed[1 + N_ROLLS:, :C] = joker
    out = {"score": score, "joker": joker, "params": params, "packed": packed}
    for a in out.values():
        a.setflags(write=False)
    return out


def _upper(i: int, name: str) -> CategorySpec:
    return CategorySpec(name, _UPPER_KEYS[i], "upper", face=i + 1)


_UPPER_NAMES = ("Ones", "Twos", "Threes", "Fours", "Fives", "Sixes")

_YAHTZEE_CATEGORIES = tuple(_upper(i, n) for i, n in enumerate(_UPPER_NAMES)) + (
    CategorySpec("Three of a Kind", "three-of-a-kind", "of_a_kind", n=3),
    CategorySpec("Four of a Kind", "four-of-a-kind", "of_a_kind", n=4),
    CategorySpec("Full House", "full-house", "full_house", points=25, joker_points=25),
    CategorySpec("Small Straight", "small-straight", "straight", n=4, points=30, joker_points=30),
    CategorySpec("Large Straight", "large-straight", "straight", n=5, points=40, joker_points=40),
    CategorySpec("Yahtzee", "yahtzee", "five_alike", n=5, points=50),
    CategorySpec("Chance", "chance", "chance"),
)

#: Official rules, forced Joker, +100 Yahtzee bonus (the default).
YAHTZEE = RuleSet(
    name="yahtzee",
    title="Yahtzee (official rules, forced Joker)",
    categories=_YAHTZEE_CATEGORIES,
    joker="forced",
    yahtzee_bonus=100,
    reference_value=254.5877287,
)

#: Verhoeff's convention: a Joker may go in any open box (docs/rules.md).
YAHTZEE_FREE_JOKER = RuleSet(
    name="yahtzee-free-joker",
    title="Yahtzee (free Joker, as in Verhoeff's optimal solver)",
    categories=_YAHTZEE_CATEGORIES,
    joker="free",
    yahtzee_bonus=100,
    reference_value=254.5896095,
)

#: The 12-category Yacht game: no Yahtzee bonus, no Joker.
YACHT = RuleSet(
    name="yacht",
    title="Yacht (12 categories)",
    categories=tuple(
        _upper(i, n) for i, n in enumerate(("Aces", "Twos", "Threes", "Fours", "Fives", "Sixes"))
    )
    + (
        CategorySpec("Choice", "chance", "chance"),
        CategorySpec("Four Dice", "four-of-a-kind", "of_a_kind", n=4),
        CategorySpec("Full House", "full-house", "full_house"),
        CategorySpec("Small Straight", "small-straight", "straight", n=4, points=15),
        CategorySpec("Large Straight", "large-straight", "straight", n=5, points=30),
        CategorySpec("Yacht", "yahtzee", "five_alike", n=5, points=50),
    ),
)

#: Yahtzee with the +100 Yahtzee bonus but no Joker (docs/rules.md; the peer's ``american+no-joker``).
YAHTZEE_NO_JOKER = RuleSet(
    name="yahtzee-no-joker",
    title="Yahtzee (Yahtzee bonus, no Joker)",
    categories=_YAHTZEE_CATEGORIES,
    joker="none",
    yahtzee_bonus=100,
    reference_value=253.9702412,
)

#: Yahtzee with neither the Yahtzee bonus nor the Joker (docs/rules.md; Glenn 2006: 245.87).
YAHTZEE_NO_BONUS = RuleSet(
    name="yahtzee-no-bonus",
    title="Yahtzee (no Yahtzee bonus, no Joker)",
    categories=_YAHTZEE_CATEGORIES,
    joker="none",
    yahtzee_bonus=0,
    reference_value=245.8707745,
)

#: Scandinavian Yatzy: 15 boxes, +50 upper bonus, no Yatzy bonus, no Joker (docs/rules.md).
YATZY = RuleSet(
    name="yatzy",
    title="Scandinavian Yatzy (15 categories)",
    categories=tuple(_upper(i, n) for i, n in enumerate(_UPPER_NAMES))
    + (
        CategorySpec("One Pair", "one-pair", "n_alike", n=2),
        CategorySpec("Two Pairs", "two-pairs", "two_pairs"),
        CategorySpec("Three of a Kind", "three-of-a-kind", "n_alike", n=3),
        CategorySpec("Four of a Kind", "four-of-a-kind", "n_alike", n=4),
        CategorySpec("Small Straight", "small-straight", "straight", face=1, n=5, points=15),
        CategorySpec("Large Straight", "large-straight", "straight", face=2, n=5, points=20),
        CategorySpec("Full House", "full-house", "full_house"),
        CategorySpec("Chance", "chance", "chance"),
        CategorySpec("Yatzy", "yahtzee", "five_alike", n=5, points=50),
    ),
    upper_bonus=50,
    reference_value=248.4399894,
)

#: Every rule set by name.
RULESETS: dict[str, RuleSet] = {
    r.name: r for r in (YAHTZEE, YAHTZEE_FREE_JOKER, YAHTZEE_NO_JOKER, YAHTZEE_NO_BONUS, YACHT, YATZY)
}


def get_rules(rules: str | RuleSet | None = "yahtzee") -> RuleSet:
    """The rule set called ``rules`` (or ``rules`` itself if it is a RuleSet; ``None``: the
    default, ``yahtzee``, as every constructor that takes ``rules`` reads it).

    Raises
    ------
    RuleSetError
        For an unknown name, or a value that is neither a name, a RuleSet nor ``None``
        (a value table passed where the rules go: the message names its type).
    """
    if isinstance(rules, RuleSet):
        return rules
    if rules is None:
        return RULESETS["yahtzee"]
    if not isinstance(rules, str):
        raise RuleSetError(f"rules must be a rule-set name or a RuleSet, not {type(rules).__name__} "
                           f"(choose from {', '.join(RULESETS)})")
    try:
        return RULESETS[str(rules).strip().lower()]
    except KeyError:
        raise RuleSetError(
            f"unknown rules {rules!r} (choose from {', '.join(RULESETS)})"
        ) from None


assert KEEP_COUNTS.shape[0] - ROLL_OFFSET == N_ROLLS
