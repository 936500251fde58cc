"""Scorecards and turn-start states.

A :class:`ScoreCard` is what is written on a paper card: points per box
(``None`` = open) and the Yahtzee bonus points.  Its :attr:`ScoreCard.key` is
the solver's :class:`StateKey` ``(mask, up, yb)`` (docs/rules.md,
"State of a solitaire game at the start of a turn").
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from .card_problems import CARD_PROBLEMS
from .dice import ascii_width
from .errors import BoxIndexError, CardRulesError, CategoryError, DataFileError, ScoreCardError
from .files import FileTooLargeError, UnusableFileError, clip, read_bounded, refuse_repeated_keys
from .rules import N_UPPER, RULESETS, RuleSet, get_rules

__all__ = ["StateKey", "BoxScoring", "ScoreCard", "parse_card", "card_rules", "card_entries", "OPEN_WORDS"]

#: The names a card gives its Yahtzee bonus points by (after blanks and _ become -).
BONUS_KEYS = {"yahtzee-bonus", "bonus", "ybonus", "yahtzee-bonuses", "yacht-bonus"}


class StateKey(NamedTuple):
    """A turn-start state: the index of a value-table entry.

    The same three names ``mask, up, yb`` are used for a state throughout the
    package (kernels, batch arrays, value-table index); unpack positionally:
    ``mask, up, yb = card.key``.

    Attributes
    ----------
    mask : int
        Filled-box bit mask (bit i = category i).
    up : int
        Upper-section subtotal capped at the threshold (0..63).
    yb : int
        Yahtzee-bonus flag, 0 or 1: 1 when the Yahtzee box holds 50 under a
        rule set with a Yahtzee bonus.  Not points: the bonus points earned
        are :attr:`ScoreCard.yahtzee_bonus`.
    """

    mask: int
    up: int
    yb: int


class BoxScoring(NamedTuple):
    """How five final dice score on a card, box by box (from :func:`yahtzee_solver.solver.kernels.box_scoring`).

    Attributes
    ----------
    points : tuple of int
        Points each box would hold (C,), Joker points where the Joker applies.
    legal : tuple of bool
        Whether each box may take the roll now (open and allowed by the Joker rule).
    yahtzee_bonus : int
        Yahtzee bonus points this roll earns whatever box it goes in (100 or 0).
    upper_bonus : tuple of int
        Upper bonus points (35 or 0) writing the roll in each box would complete.
    joker : str or None
        The Joker case (``upper``, ``lower``, ``upper_zero``, ``free``,
        ``free_fixed``; see :class:`yahtzee_solver.game.JokerInfo`), or ``None``.
    """

    points: tuple[int, ...]
    legal: tuple[bool, ...]
    yahtzee_bonus: int
    upper_bonus: tuple[int, ...]
    joker: str | None


#: Joker case names by the kernel's codes (:func:`yahtzee_solver.solver.kernels.joker_case`).
JOKER_CASES = (None, "upper", "lower", "upper_zero", "free", "free_fixed")




def entry_problem(item: str, name: str | None, value: str | None,
                  seen: Mapping[str, object]) -> tuple[str, dict[str, object]] | None:
    """What is wrong with one entry of :func:`card_entries` (its ``item``, ``name`` and ``value``), the
    names before it being ``seen``: a :data:`CARD_PROBLEMS` key and its fields, or ``None``.

    The one check of ``--card`` and of the web's advisor, so both say the same.
    """
    if name is None:
        return "entry", {"entry": repr(item)}
    if not name:
        return "no_name", {"entry": repr(item)}
    if name in seen:
        return "repeated", {"box": repr(item.replace(":", "=", 1).partition("=")[0])}
    if not value:
        if re.sub(r"[\s_]+", "-", name) in BONUS_KEYS:
            return "no_bonus_points", {"entry": repr(item), "name": name}
        return "no_points", {"entry": repr(item), "name": name}
    return None


def card_text_problem(text: str, entries: Sequence[object]) -> tuple[str, dict[str, object]] | None:
    """What is wrong with a card's whole ``text`` once its ``entries`` are read (:func:`card_entries`):
    a :data:`CARD_PROBLEMS` key and its fields, or ``None``.

    No entry at all -- nothing (``''``), blanks or separators only -- is refused
    (``none``), as a slip: the empty card is asked for by giving no card.  The one
    rule of ``--card`` (and ``--opponent``) and of the web's ``card=``.
    """
    if not entries:
        return "none", {"card": repr(text) if len(text) <= 40 else repr(clip(text, 40))}
    return None


def card_problem(key: str, **params: object) -> ScoreCardError:
    """The :class:`ScoreCardError` of :data:`CARD_PROBLEMS` ``key``, carrying its key and fields."""
    return ScoreCardError(CARD_PROBLEMS[key].format(**params), key, params)


@dataclass(frozen=True)
class ScoreCard:
    """A scorecard: points per box and Yahtzee bonus points.

    Construct with :meth:`empty`, :meth:`from_mapping` or :func:`parse_card`;
    these validate, the plain constructor validates too.  A card is immutable:
    :meth:`with_box` gives the card with one more box written.

    Attributes
    ----------
    rules : RuleSet
        The rule set of the card.
    boxes : tuple of (int or None)
        Points written in each box, in category order; ``None`` for an open box.
    yahtzee_bonus : int
        Yahtzee bonus points already earned (a multiple of the bonus, e.g. 100).

    Raises
    ------
    ScoreCardError
        For a value no roll can score in that box, a Yahtzee bonus without 50
        in the Yahtzee box, or more bonuses than turns played.
    """

    rules: RuleSet
    boxes: tuple[int | None, ...]
    yahtzee_bonus: int = 0

    def __post_init__(self) -> None:
        r = self.rules
        if len(self.boxes) != r.n_categories:
            raise ScoreCardError(f"a {r.name} card has {r.n_categories} boxes, got {len(self.boxes)}")
        for c, v in enumerate(self.boxes):
            if v is None:
                continue
            if isinstance(v, bool) or not isinstance(v, int) or v not in r.possible_points[c]:
                raise card_problem("impossible", points=repr(v), box=r.categories[c].slug,
                                   possible=_runs(sorted(r.possible_points[c])))
        b = self.yahtzee_bonus
        if isinstance(b, bool) or not isinstance(b, int) or b < 0:
            raise card_problem("bonus_points", bonus=repr(b))
        if b:
            if not r.yahtzee_bonus:
                raise card_problem("bonus_none", rules=repr(r.name), bonus=b)
            if b % r.yahtzee_bonus:
                raise card_problem("bonus_multiple", bonus=b, step=r.yahtzee_bonus)
            y = r.yahtzee_category
            if self.boxes[y] is None:
                raise card_problem("bonus_open", bonus=b, box=r.categories[y].slug)
            if self.boxes[y] != 50:
                raise card_problem("bonus_not_50", bonus=b, box=r.categories[y].slug, points=self.boxes[y])
            later = sum(v is not None for v in self.boxes) - 1
            if b // r.yahtzee_bonus > later:
                raise card_problem("bonus_later", bonus=b, later=later)
            # each bonus roll was written in a box of its own: one that holds a five-alike's points
            holders = sum(v is not None and c != y and v in r.five_alike_points[c] for c, v in enumerate(self.boxes))
            if b // r.yahtzee_bonus > holders:
                n = b // r.yahtzee_bonus
                raise card_problem("bonus_holders" if n != 1 else "bonus_holder", bonus=b, n=n,
                                   box=r.categories[y].slug, holders=holders)

    def __repr__(self) -> str:
        """``ScoreCard.from_mapping({'sixes': 18, 'yahtzee': 50}, 'yahtzee')``, or
        ``ScoreCard.empty('yacht')``: the filled boxes by their card keys, which
        evaluates back to an equal card (a rule set that is not registered is
        written out in full, as ``repr(RuleSet)``)."""
        r = self.rules
        rules = repr(r.name) if r.is_registered else repr(r)
        filled = {c.slug: v for c, v in zip(r.categories, self.boxes) if v is not None}
        if self.yahtzee_bonus:
            filled["yahtzee-bonus"] = self.yahtzee_bonus
        if not filled:
            return f"ScoreCard.empty({rules})"
        return f"ScoreCard.from_mapping({filled!r}, {rules})"

    def __getstate__(self) -> dict[str, Any]:
        """The fields only (``rules``, ``boxes``, ``yahtzee_bonus``): the caches of derived facts (the state
        key, the totals, the scoring memo, which grows with every roll asked about) are not pickled."""
        return {"rules": self.rules, "boxes": self.boxes, "yahtzee_bonus": self.yahtzee_bonus}

    # -- construction ------------------------------------------------------
    @classmethod
    def empty(cls, rules: str | RuleSet = "yahtzee") -> ScoreCard:
        """A new card with every box open."""
        return _empty(get_rules(rules))

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any], rules: str | RuleSet = "yahtzee") -> ScoreCard:
        """A card from ``{box name: points}`` (names or aliases; ``None`` = open).

        The key ``yahtzee-bonus`` (or ``bonus``) gives the Yahtzee bonus points.

        Raises
        ------
        CategoryError
            Unknown or repeated box name.
        ScoreCardError
            Impossible values (see the class), or ``mapping`` not a mapping.
        """
        if not isinstance(mapping, Mapping):
            raise ScoreCardError(f"invalid card {mapping!r}: want a ScoreCard, card text such as 'sixes=18,chance=22' "
                                 f"or a mapping of box name to points")
        return _from_mapping(mapping, get_rules(rules))

    # -- derived ----------------------------------------------------------
    # The card is immutable, so each derived fact is computed once and kept in
    # the instance dict (``cached_property``); :meth:`__getstate__` leaves
    # those caches out, so a pickled card holds the three fields only.
    @cached_property
    def filled(self) -> int:
        """Bit mask of filled boxes."""
        m = 0
        for c, v in enumerate(self.boxes):
            if v is not None:
                m |= 1 << c
        return m

    @cached_property
    def upper_subtotal(self) -> int:
        """Sum of the upper boxes (points, uncapped)."""
        return sum(v for v in self.boxes[:N_UPPER] if v is not None)

    @cached_property
    def upper_bonus(self) -> int:
        """Upper bonus earned so far (35 or 0 points)."""
        return self.rules.upper_bonus if self.upper_subtotal >= self.rules.upper_threshold else 0

    @cached_property
    def total(self) -> int:
        """Points on the card: boxes + upper bonus + Yahtzee bonuses."""
        return sum(v for v in self.boxes if v is not None) + self.upper_bonus + self.yahtzee_bonus

    @cached_property
    def is_full(self) -> bool:
        """True when every box is filled (game over)."""
        return None not in self.boxes

    @cached_property
    def open_categories(self) -> tuple[int, ...]:
        """Indices of the open boxes."""
        return tuple(c for c, v in enumerate(self.boxes) if v is None)

    @cached_property
    def key(self) -> StateKey:
        """The turn-start state of this card (computed once: the card is immutable)."""
        r = self.rules
        y = r.yahtzee_category
        yb = int(r.n_flags == 2 and y >= 0 and self.boxes[y] == 50)
        return StateKey(self.filled, min(self.upper_subtotal, r.upper_threshold), yb)

    def with_box(self, category: int, points: int, bonus: int = 0) -> ScoreCard:
        """A new card with ``points`` written in box ``category`` and ``bonus`` Yahtzee bonus points added.

        The card does not know the dice: take ``points`` and ``bonus`` from
        :meth:`scoring` of the final dice (``s.points[category]``,
        ``s.yahtzee_bonus``) after checking ``s.legal[category]``, or from a
        :class:`~yahtzee_solver.BoxOption`.  The upper bonus follows from the
        upper boxes (:attr:`upper_bonus`) and is not passed.

        Parameters
        ----------
        category : int
            The box's index in the rule set, 0..C-1 (a Python or numpy integer;
            :meth:`RuleSet.category_index <yahtzee_solver.RuleSet.category_index>`
            of a name; a negative index is no box).
        points : int
            Points to write (Joker points where the Joker applies); a whole
            number (a float or bool is refused, never rounded).
        bonus : int
            Yahtzee bonus points this roll earns (100 or 0).

        Raises
        ------
        BoxIndexError
            ``category`` is not a box index of the rule set (also a
            ``CategoryError`` and an ``IndexError``).
        ScoreCardError
            If the box is filled, or the points or the bonus are not whole
            numbers or cannot occur there (as the constructor checks).
        """
        C = self.rules.n_categories
        if type(category) is not int:
            if isinstance(category, bool) or not isinstance(category, (int, np.integer)):
                raise BoxIndexError(f"invalid box index {category!r}: want a whole number 0-{C - 1}")
            category = int(category)
        if not 0 <= category < C:
            raise BoxIndexError(f"invalid box index {category!r}: want 0-{C - 1}")
        if self.boxes[category] is not None:
            raise ScoreCardError(f"box {self.rules.categories[category].slug} is already filled")
        slug = self.rules.categories[category].slug
        boxes = list(self.boxes)
        boxes[category] = _whole_points(points, f"score for {slug}")
        return ScoreCard(self.rules, tuple(boxes), self.yahtzee_bonus + _whole_points(bonus, "yahtzee-bonus"))

    def scoring(self, dice: str | Sequence[int], *, kernels: ModuleType | None = None) -> BoxScoring:
        """How five final ``dice`` would score in each box of this card.

        Uses the rules' single definition (:func:`yahtzee_solver.solver.kernels.box_scoring`):
        Joker constraints and points, the Joker case, the Yahtzee bonus and the
        upper bonus each box would complete.

        Parameters
        ----------
        dice : str or sequence of int
            Five faces 1..6.
        kernels : module, optional
            The kernel module to run (:func:`yahtzee_solver.solver.jit.backend`);
            default: the interpreted one (no numba import).

        Raises
        ------
        DiceError
            Bad dice.
        """
        memo = self.__dict__.get("_scoring")  # the card is immutable: one answer per dice
        if memo is None:
            memo = self.__dict__["_scoring"] = {}
        # typed dice are kept by their text; other dice by their roll index once checked (a tuple
        # key would let (1, 2, 3, 4, 5.0) or True find the answer of (1, 2, 3, 4, 5) or 1)
        s = memo.get(dice) if type(dice) is str else None
        if s is None:
            from .dice import parse_dice, roll_index

            r = roll_index(parse_dice(dice))
            s = memo.get(r)
        if s is None:
            if kernels is None:
                from .solver import kernels as interpreted

                kernels = interpreted

            mask, up, yb = self.key
            a = self.rules.arrays()
            C = self.rules.n_categories
            pts = np.empty(C, np.int64)
            legal = np.empty(C, np.int8)
            gain = np.empty(C, np.int64)
            bonus, case = kernels.box_scoring(mask, up, yb, r, a["score"], a["joker"], a["params"], pts, legal, gain)
            s = BoxScoring(tuple(pts.tolist()), tuple(legal.astype(bool).tolist()), int(bonus),
                           tuple(gain.tolist()), JOKER_CASES[case])
            memo[r] = s
        if type(dice) is str:
            memo[dice] = s
        return s

    def box_points(self, dice: str | Sequence[int]) -> tuple[list[int], list[bool], int]:
        """How five final ``dice`` would score in each box of this card (see :meth:`scoring`).

        Returns
        -------
        points : list of int
            Points each box would hold (C,).
        legal : list of bool
            Whether each box may take the roll now (open and allowed by the Joker rule).
        yahtzee_bonus : int
            Bonus points this roll earns whatever box it goes in (100 or 0).

        Raises
        ------
        DiceError
            Bad dice.
        """
        s = self.scoring(dice)
        return list(s.points), list(s.legal), s.yahtzee_bonus

    def to_dict(self) -> dict[str, Any]:
        """``{box key: points or None, ..., "yahtzee-bonus": points}`` (round-trips through :meth:`from_mapping`)."""
        d = {c.slug: v for c, v in zip(self.rules.categories, self.boxes)}
        if self.rules.yahtzee_bonus:
            d["yahtzee-bonus"] = self.yahtzee_bonus
        return d

    def format(self) -> str:
        """The card as ``key=points,...`` (filled boxes only), as the CLI's ``--card`` takes it.

        The empty card formats as ``""``, which :func:`parse_card` refuses (a slip): give it ``None``
        (leave ``--card`` out) for the empty card.
        """
        parts = [f"{c.slug}={v}" for c, v in zip(self.rules.categories, self.boxes) if v is not None]
        if self.yahtzee_bonus:
            parts.append(f"yahtzee-bonus={self.yahtzee_bonus}")
        return ",".join(parts)


def _whole_points(v: object, what: str) -> int:
    """``v`` as a Python int if it is an integer (numpy's too, no bool); else a ScoreCardError naming it."""
    if type(v) is int:
        return v
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise ScoreCardError(f"invalid {what} {v!r}: want whole points")
    return int(v)


def _empty(rules: RuleSet) -> ScoreCard:
    return ScoreCard(rules, (None,) * rules.n_categories, 0)


def _from_mapping(mapping: Mapping[str, Any], rules: RuleSet) -> ScoreCard:
    """:meth:`ScoreCard.from_mapping` on a resolved rule set."""
    boxes: list[int | None] = [None] * rules.n_categories
    seen: dict[int, str] = {}
    bonus = 0
    bonus_seen = False
    for name, value in mapping.items():
        norm = re.sub(r"[\s_]+", "-", str(name).strip().lower())
        if norm in BONUS_KEYS:
            if bonus_seen:
                raise CategoryError(CARD_PROBLEMS["repeated"].format(box=repr(name)), "repeated", {"box": repr(name)})
            bonus_seen = True
            if value is None:  # an open-box word ("-"): the bonus is not a box
                raise card_problem("bonus_blank", name=str(name))
            bonus = _as_points(value, name)
            continue
        c = rules.category_index(name)
        if c in seen:
            params: dict[str, object] = {"box": repr(name), "other": repr(seen[c])}
            raise CategoryError(CARD_PROBLEMS["repeated_as"].format(**params), "repeated_as", params)
        seen[c] = str(name)
        boxes[c] = None if value is None else _as_points(value, name)
    return ScoreCard(rules, tuple(boxes), bonus)


def _runs(values: list[int]) -> str:
    """``[0, 5, 6, 7, 8, 10]`` -> ``'0, 5-8, 10'``."""
    parts = []
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        parts.append(str(values[i]) if j - i < 2 else f"{values[i]}-{values[j]}")
        if j - i == 1:
            parts.append(str(values[j]))
        i = j + 1
    return ", ".join(parts)


#: Most digits read as points: no box holds more (and Python's int() refuses over 4,300 digits).
MAX_POINT_DIGITS = 18


def _number_shown(s: str) -> str:
    """A number as an error message quotes it: whole up to 24 characters, else its ends and its length."""
    if len(s) <= 24:
        return repr(s)
    return f"'{s[:8]}...{s[-8:]}' ({len(s.lstrip('+-'))} digits)"


def _as_points(value: object, name: object) -> int:
    if isinstance(value, bool):
        raise card_problem("not_whole", points=repr(value), box=name)
    if isinstance(value, int):
        return value
    s = str(value).strip()
    if re.fullmatch(r"[+-]?[0-9]+", s):  # ASCII digits only, as for dice
        if len(s.lstrip("+-")) > MAX_POINT_DIGITS:
            raise card_problem("too_long", points=_number_shown(s), box=name)
        return int(s)
    raise card_problem("not_whole", points=_number_shown(s) if len(s) > 24 else repr(value), box=name)


#: Points that mark a box as open in a typed card (``ones=-``).
OPEN_WORDS = ("-", "none", "open")


def card_entries(text: str) -> list[tuple[str, str | None, str]]:
    """The entries of a card as typed (``sixes=18; fours: 12 chance=22``), before any check.

    Entries are separated by ``,``, ``;`` or blanks; ``:`` may stand for ``=`` and blanks
    around either are dropped, so ``sixes = 18`` is one entry; full-width characters (as an
    IME types them) count as their ASCII forms.  The command line (:func:`parse_card`) and the
    web page's card field read cards through this one function.

    Returns
    -------
    list of (item, name, value)
        ``item`` as written (after the folding above), ``name`` lower-cased (``None`` when the
        entry has no ``=``), ``value`` the text after the ``=`` (empty when none).
    """
    out: list[tuple[str, str | None, str]] = []
    # "sixes = 18" is one entry: drop the blanks around "=" / ":" before splitting
    for item in re.split(r"[,;\s]+", re.sub(r"\s*([=:])\s*", r"\1", ascii_width(text))):
        if not item:
            continue
        if "=" not in item and ":" not in item:
            out.append((item, None, ""))
            continue
        sep = re.search(r"[=:]", item)
        assert sep is not None  # tested above
        name, value = item[: sep.start()], item[sep.end():]  # the value as typed ("18:25", not "18=25")
        out.append((item, name.strip().lower(), value.strip()))
    return out


def parse_card(text: str | None, rules: str | RuleSet = "yahtzee") -> ScoreCard:
    """Parse a card as typed on the command line.

    Parameters
    ----------
    text : str or None
        ``sixes=18,fours=12,chance=22,yahtzee=50`` (names or aliases, ``,`` or
        ``;`` or spaces between entries), ``@card.json`` for a JSON object of the
        same pairs (or ``{"rules": name, "boxes": {...}, "yahtzee-bonus": n}``),
        or ``None`` for the empty card (an empty or blank text is refused, as
        separators only are: :func:`card_text_problem`).
    rules : str or RuleSet

    Raises
    ------
    ScoreCardError, CategoryError
        On syntax errors, unknown or repeated names, or impossible values
        (usage errors, also when a card file says them).
    DataFileError
        If the ``@FILE`` cannot be read (missing, no permission, not a regular file).
    """
    rules = get_rules(rules)
    if text is None:
        return _empty(rules)
    source = _json_source(text)
    if source is not None:
        return _card_json(*source, rules)
    typed = str(text)
    text = ascii_width(typed.strip())  # full-width sixes＝１８ as typed with an IME
    pairs: dict[str, str | None] = {}
    for item, name, value in card_entries(text):
        problem = entry_problem(item, name, value, pairs)
        if problem is not None:
            key, params = problem
            message = CARD_PROBLEMS[key].format(**params)
            raise CategoryError(message, key, params) if key == "repeated" else ScoreCardError(message, key, params)
        assert name is not None  # entry_problem refuses an entry without '='
        pairs[name] = None if value.lower() in OPEN_WORDS else value
    whole = card_text_problem(typed, list(pairs))  # nothing, blanks or separators: a slip, not the empty card
    if whole is not None:
        raise card_problem(whole[0], **whole[1])
    return _from_mapping(pairs, rules)


def card_rules(text: str | None) -> str | None:
    """The name of the rule set a card says it is for: the ``"rules"`` of a card file or JSON card.

    A front end that is not told the rule set takes the card's (``--card @FILE``
    without ``--rules``); the card is then parsed with it (:func:`parse_card`).

    Parameters
    ----------
    text : str or None
        A card as :func:`parse_card` takes it.

    Returns
    -------
    str or None
        A name of :data:`~yahtzee_solver.rules.RULESETS`; ``None`` for a card that names
        none (typed ``box=points`` pairs, a JSON card without ``"rules"``, no card).

    Raises
    ------
    ScoreCardError
        If the card file or JSON card is not a JSON object, or its ``"rules"`` is
        not a known rule-set name (as :func:`parse_card` says).
    DataFileError
        If the ``@FILE`` cannot be read.
    """
    source = _json_source(text)
    if source is None:
        return None
    name = _card_object(*source).get("rules")
    return None if name is None else str(name)


def _json_source(text: str | None) -> tuple[bytes, str] | None:
    """The JSON of a card given as ``@FILE`` or ``{...}`` and the words that name it in errors;
    ``None`` for any other card (typed pairs, or none)."""
    if text is None:
        return None
    text = str(text).strip()
    if not text.startswith("@"):  # a file name is taken as it is
        text = ascii_width(text)
    if text.startswith("@"):
        if not text[1:].strip():
            raise ScoreCardError("missing file name after '@' in the card (e.g. @card.json)")
        name = text[1:]  # as typed ('cards/' stays 'cards/', not the path's 'cards')
        return _card_file(Path(name), name), f"card file {name!r}"
    if text.startswith("{"):
        return text.encode("utf-8"), "the card"
    return None


#: Largest card file read (bytes); a card is a few hundred bytes.
MAX_CARD_FILE = 1 << 20


def _card_file(path: Path, name: str) -> bytes:
    """The bytes of a card file (at most :data:`MAX_CARD_FILE`); ``name`` is the path as typed, for the messages."""
    try:
        raw = read_bounded(path, MAX_CARD_FILE)
    except FileTooLargeError:
        raise ScoreCardError(f"card file {name!r} is too large for a scorecard (over {MAX_CARD_FILE} bytes)") from None
    except UnusableFileError:
        raise DataFileError(f"cannot read card file {name!r}: not a regular file") from None
    except OSError as e:  # a file problem (exit 1), as for every file; what the file says is a card (exit 2)
        raise DataFileError(f"cannot read card file {name!r}: {e.strerror or e}") from None
    return raw


def _card_object(raw: bytes, what: str, example: str = "yahtzee") -> dict[str, Any]:
    """The JSON object of a card (UTF-8, a BOM allowed), its ``"rules"`` (if any) a known name;
    ``what`` names the source in errors, ``example`` is the rule-set name they suggest."""

    def whole(text: str) -> int:  # json's int(), which stops at Python's 4,300-digit limit
        if len(text.lstrip("-")) > MAX_POINT_DIGITS:
            raise ScoreCardError(f"{what} holds the number {_number_shown(text)}: too many digits for a score")
        return int(text)

    try:
        data = json.loads(raw.decode("utf-8-sig"), parse_int=whole,
                          object_pairs_hook=refuse_repeated_keys(lambda k: ScoreCardError(f"{what} repeats the key {k!r}")))
    except (ValueError, RecursionError) as e:
        if isinstance(e, ScoreCardError):
            raise
        reason = "nested too deeply" if isinstance(e, RecursionError) else str(e).splitlines()[0]
        raise ScoreCardError(f"{what} is not valid JSON: {reason}") from None
    if not isinstance(data, dict):
        raise ScoreCardError(f"{what} must hold a JSON object of box: points")
    if "rules" in data:  # {"rules": ..., "boxes": {...}, "yahtzee-bonus": n}, or "rules" beside the boxes
        name = data["rules"]
        if not isinstance(name, str):
            raise ScoreCardError(f'{what}: "rules" must be a rule-set name such as "{example}", got {_shown(name)}')
        key = name.strip().lower()  # as --rules and get_rules read a name ("Yacht" is yacht)
        if key not in RULESETS:
            raise ScoreCardError(f"{what} is for unknown rules {clip(name, 40)!r} (known: {', '.join(RULESETS)})")
        data["rules"] = key
    return data


def _card_json(raw: bytes, what: str, rules: RuleSet) -> ScoreCard:
    """A card from JSON bytes (UTF-8, a BOM allowed); ``what`` names the source in errors."""
    data = _card_object(raw, what, rules.name)
    if "rules" in data and data["rules"] != rules.name:
        raise CardRulesError(f"{what} is for rules {data['rules']!r}, not {rules.name!r}", data["rules"])
    if "boxes" in data:
        if not isinstance(data["boxes"], dict):
            raise ScoreCardError(f'{what}: "boxes" must be a JSON object of box: points, got {_shown(data["boxes"])}')
        for k in data:  # beside "boxes" only the rule set and the bonus: another key is not a box
            if k not in ("boxes", "rules") and re.sub(r"[\s_]+", "-", k.strip().lower()) not in BONUS_KEYS:
                raise ScoreCardError(f'{what} has the unknown key {clip(k, 40)!r}: with "boxes" the card file takes '
                                     'only the keys "rules", "boxes" and "yahtzee-bonus" (the boxes go in "boxes")')
        data = {**data["boxes"], **{k: v for k, v in data.items() if k not in ("boxes", "rules")}}
    else:
        data = {k: v for k, v in data.items() if k != "rules"}
    for k, v in data.items():
        # JSON whole numbers only, as in a saved game: "18" and 18.0 are refused, never read as 18
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
            raise ScoreCardError(f"{what}: points for {clip(k, 40)!r} must be a JSON whole number (like 18) "
                                 f"or null, got {_shown(v)}")
    return _from_mapping(data, rules)


def _shown(v: object) -> str:
    """A JSON value as JSON writes it (``"18"``, ``18.0``, ``true``), on one short line."""
    return clip(json.dumps(v, ensure_ascii=False), 60)
