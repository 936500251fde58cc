"""Dice multisets: the 252 distinct rolls and the 462 keeps, with their transition tables.

The solver never looks at the 7,776 ordered outcomes of five dice.  A *keep* is a
multiset of 0 to 5 dice; a *roll* is a keep of exactly five dice.  Keeps are
indexed by size first (index 0 is the empty keep, 1..6 the single dice, ...,
``ROLL_OFFSET``..461 the 252 rolls), and lexicographically by sorted faces within
a size.  So a roll with index ``r`` (0..251) is keep ``ROLL_OFFSET + r``.

Tables (all plain numpy arrays, read-only, used by the kernels):

``KEEP_COUNTS``   (462, 6) int64  how many dice of each face 1..6 a keep holds
``KEEP_SIZE``     (462,)   int64  number of dice in a keep
``CHILD``         (210, 6) int32  keep index of ``k`` plus one die of face ``f+1`` (k < ROLL_OFFSET)
``SUB``           (462, 6) int32  keep index of ``k`` minus one die of face ``f+1``, -1 if none
``ROLL_PROB``     (252,)   float64 probability of each roll from five fresh dice
``ROLL_FACE``     (252,)   int64  face of a five-alike roll (1..6), 0 otherwise
``ROLL_SUBKEEPS`` (252, 32) int32 the distinct keeps contained in a roll, padded with -1
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .errors import DiceError

__all__ = [
    "N_KEEPS",
    "N_ROLLS",
    "ROLL_OFFSET",
    "KEEPS",
    "ROLLS",
    "keep_index",
    "roll_index",
    "parse_dice",
    "whole_number",
    "ascii_width",
    "format_dice",
]

N_DICE = 5
N_FACES = 6


def _multisets(size: int) -> list[tuple[int, ...]]:
    return list(itertools.combinations_with_replacement(range(1, N_FACES + 1), size))


#: Every keep as a sorted tuple of faces, in index order (size first).
KEEPS: tuple[tuple[int, ...], ...] = tuple(
    keep for size in range(N_DICE + 1) for keep in _multisets(size)
)
N_KEEPS = len(KEEPS)  # 462
ROLL_OFFSET = N_KEEPS - math.comb(N_DICE + N_FACES - 1, N_DICE)  # 210
#: Every roll (five dice) as a sorted tuple, in index order.
ROLLS: tuple[tuple[int, ...], ...] = KEEPS[ROLL_OFFSET:]
N_ROLLS = len(ROLLS)  # 252

_KEEP_INDEX: dict[tuple[int, ...], int] = {keep: i for i, keep in enumerate(KEEPS)}


_I64 = npt.NDArray[np.int64]
_I32 = npt.NDArray[np.int32]


def _build_tables() -> tuple[_I64, _I64, _I32, _I32, npt.NDArray[np.float64], _I64, _I32]:
    # Each keep as its count vector, then whole-array numpy work: a cold shell
    # builds these tables on every start (element-wise loops cost milliseconds).
    size = np.array([len(keep) for keep in KEEPS], dtype=np.int64)
    counts = np.zeros((N_KEEPS, N_FACES), dtype=np.int64)
    faces = np.fromiter(itertools.chain.from_iterable(KEEPS), dtype=np.int64, count=int(size.sum()))
    np.add.at(counts, (np.repeat(np.arange(N_KEEPS), size), faces - 1), 1)
    # a keep's code: its counts in base N_DICE + 1; code -> keep index
    radix = (N_DICE + 1) ** np.arange(N_FACES, dtype=np.int64)
    codes = counts @ radix
    index_of = np.full((N_DICE + 1) ** N_FACES, -1, dtype=np.int64)
    index_of[codes] = np.arange(N_KEEPS)
    smaller = size < N_DICE
    child = index_of[codes[smaller, None] + radix[None, :]]  # one die more, of each face
    sub = np.where(counts > 0, index_of[np.where(counts > 0, codes[:, None] - radix[None, :], 0)], -1)
    rc = counts[ROLL_OFFSET:]
    factorial = np.array([math.factorial(n) for n in range(N_DICE + 1)], dtype=np.int64)
    prob = (math.factorial(N_DICE) // factorial[rc].prod(axis=1)) / N_FACES**N_DICE
    face = np.where(rc.max(axis=1) == N_DICE, rc.argmax(axis=1) + 1, 0)
    # the distinct keeps inside each roll (counts no larger, face by face), in index order
    inside = np.ones((N_ROLLS, N_KEEPS), dtype=bool)
    for f in range(N_FACES):
        inside &= counts[None, :, f] <= rc[:, None, f]
    rows, keeps = np.nonzero(inside)
    n_inside = inside.sum(axis=1)
    subkeeps = np.full((N_ROLLS, 2**N_DICE), -1, dtype=np.int32)
    subkeeps[rows, np.arange(rows.size) - np.repeat(np.cumsum(n_inside) - n_inside, n_inside)] = keeps
    out = (
        counts,
        size,
        child.astype(np.int32),
        sub.astype(np.int32),
        prob.astype(np.float64),
        face.astype(np.int64),
        subkeeps,
    )
    for a in out:
        a.setflags(write=False)
    return out


KEEP_COUNTS, KEEP_SIZE, CHILD, SUB, ROLL_PROB, ROLL_FACE, ROLL_SUBKEEPS = _build_tables()


def _int_faces(dice: Iterable[Any]) -> list[int]:
    """``dice`` (a sequence of ints; numpy integers too) as a list of Python ints, the range unchecked.

    Raises
    ------
    DiceError
        If ``dice`` is not a sequence (``None``, a number) or holds something
        other than an integer: a float (``5.5``, also ``5.0``), a bool (Python
        or numpy: ``True`` is not a 1), a string.
    """
    t = type(dice)
    if t is not tuple and t is not list and (isinstance(dice, (str, bytes)) or not isinstance(dice, Iterable)):
        raise DiceError(f"invalid dice {dice!r}: want a sequence of faces 1-6 such as (2, 2, 5, 5, 5)")
    faces = list(dice)
    for i, d in enumerate(faces):
        if type(d) is not int:
            if isinstance(d, (bool, np.bool_)) or not isinstance(d, (int, np.integer)):
                raise DiceError(f"invalid die {d!r} in {_shown(dice)}: faces are whole numbers 1-6")
            faces[i] = int(d)
    return faces


def _clipped(text: str) -> str:
    """``repr(text)``, its middle left out past 40 characters (an error line stays one readable line)."""
    return repr(text) if len(text) <= 40 else f"{text[:16]!r}...{text[-16:]!r} ({len(text)} characters)"


def _shown(dice: object) -> str:
    """``dice`` as quoted in an error message (a numpy array as its list)."""
    return repr(dice.tolist()) if isinstance(dice, np.ndarray) else repr(dice)


def keep_index(dice: Iterable[int]) -> int:
    """Index (0..461) of the keep holding ``dice`` (any order, 0 to 5 faces in 1..6).

    Raises
    ------
    DiceError
        If a face is outside 1..6 or not an integer, or there are more than five dice.
    """
    key = tuple(sorted(_int_faces(dice)))
    try:
        return _KEEP_INDEX[key]
    except KeyError:
        raise DiceError(f"invalid keep {format_dice(key)!r}: want 0 to 5 dice with faces 1-6") from None


def roll_index(dice: Iterable[int]) -> int:
    """Index (0..251) of the roll showing ``dice`` (exactly five faces in 1..6, any order).

    Raises
    ------
    DiceError
        If there are not exactly five dice or a face is outside 1..6 or not an integer.
    """
    key = tuple(sorted(_int_faces(dice)))
    if len(key) != N_DICE or key not in _KEEP_INDEX:
        raise DiceError(f"invalid dice {format_dice(key)!r}: want exactly five dice with faces 1-6")
    return _KEEP_INDEX[key] - ROLL_OFFSET


_SEPARATED = re.compile(r"[\s,]+")


#: Full-width forms U+FF01..U+FF5E and the ideographic space, to ASCII.
_FULL_WIDTH = {cp: cp - 0xFEE0 for cp in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


def ascii_width(text: str) -> str:
    """``text`` with full-width letters, digits and punctuation (as an IME types them) in ASCII.

    Only the full-width block changes (``２２５５５`` -> ``22555``, ``ｓｉｘｅｓ＝１８``
    -> ``sixes=18``); other characters, such as superscript ``²``, are left as
    they are and refused by the parsers.
    """
    return text.translate(_FULL_WIDTH)


def whole_number(text: str) -> str | None:
    """``text`` as ASCII digits when it is a whole number, else ``None``.

    Blanks around it are dropped and full-width digits (as an IME types them) count as their
    ASCII forms, as in a card (:func:`ascii_width`); nothing else is (a sign, a blank inside or
    another script's digits such as ``²`` make it no number).  The one reader of a game number
    (``review N`` and the web's ``game=``) and of the web's other numbers (``rolls_left=``,
    ``position=``).
    """
    t = ascii_width(text).strip()
    return t if t.isascii() and t.isdigit() else None


def parse_dice(text: str | Sequence[int], *, n: int | None = N_DICE) -> tuple[int, ...]:
    """Parse dice typed as ``22555``, ``2 2 5 5 5`` or ``2,2,5,5,5`` (docs/rules.md, "Names users type").

    ``-`` means no dice (an empty keep), as :func:`format_dice` writes it.
    Full-width digits and separators (an IME's ``２，２``) are read as their
    ASCII forms (:func:`ascii_width`).

    Parameters
    ----------
    text : str or sequence of int
        The dice.  A sequence holds ints (numpy integers too) and is validated
        the same way; a float, bool or string in it is refused, not rounded.
    n : int or None
        Required number of dice (default 5); ``None`` accepts 0 to 5 (a keep).

    Returns
    -------
    tuple of int
        The faces, sorted ascending.

    Raises
    ------
    DiceError
        On a face outside 1..6, a non-digit or non-integer, the wrong number of
        dice, or ``text`` neither a string nor a sequence (``None``).
    """
    if isinstance(text, str):
        s = ascii_width(text).strip()  # full-width ２２５５５ as typed with an IME
        if s == "-":  # no dice, as format_dice writes an empty keep
            parts: list[str] = []
        else:
            parts = [p for p in _SEPARATED.split(s) if p] if _SEPARATED.search(s) else list(s)
        faces = []
        for p in parts:
            if not (p.isascii() and p.isdigit()) or len(p) > 1 or not 1 <= int(p) <= N_FACES:
                raise DiceError(f"invalid die {_clipped(p)} in {_clipped(text)}: faces are 1-6")
            faces.append(int(p))
    else:
        faces = _int_faces(text)
        for d in faces:
            if not 1 <= d <= N_FACES:
                raise DiceError(f"invalid die {d} in {format_dice(faces)!r}: faces are 1-6")
    if n is not None and len(faces) != n:
        raise DiceError(f"invalid dice {text!r}: want exactly {n} dice, got {len(faces)}")
    if n is None and len(faces) > N_DICE:
        raise DiceError(f"invalid keep {text!r}: at most {N_DICE} dice")
    return tuple(sorted(faces))


def format_dice(dice: Iterable[int]) -> str:
    """Dice as the compact string players type, e.g. ``(2, 2, 5, 5, 5)`` -> ``'22555'``; ``'-'`` for none."""
    s = "".join(str(int(d)) for d in dice)
    return s or "-"
