"""One helper for every probability a surface shows: float64 sums clipped to [0, 1].

A probability the engine computes is a float64 sum of exact probabilities (a
distribution's tail, a DP's expectation, a product of chances): the sum is
exact up to its rounding, a few units in the last place, which can take it a
hair above 1 (``1.0000000000000004``) or below 0.  :func:`clip_probability`
takes that rounding off -- and nothing else: the value is otherwise returned
bit for bit.  :func:`tail_probabilities` is the distribution's
``P(final >= T)`` with this clipping and ``P(final >= least possible total)``
exactly 1 (every final total is at least that).
"""

from __future__ import annotations

from typing import overload

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["clip_probability", "tail_probabilities"]


@overload
def clip_probability(p: float) -> float: ...
@overload
def clip_probability(p: np.ndarray) -> np.ndarray: ...


def clip_probability(p: float | np.ndarray) -> float | np.ndarray:
    """``p`` clipped to [0, 1]: the rounding of a float64 sum of probabilities taken off.

    A scalar (a Python or numpy number) gives a ``float``; an array a new float64 array.
    Values inside [0, 1] are returned unchanged (NaN stays NaN).
    """
    if np.ndim(p) == 0:
        x = float(p)
        return 1.0 if x > 1.0 else 0.0 if x < 0.0 else x
    return np.clip(np.asarray(p, dtype=np.float64), 0.0, 1.0)


def tail_probabilities(pmf: ArrayLike) -> np.ndarray:
    """``out[t]`` = P(final >= t) for ``t = 0..len(pmf) - 1`` from ``pmf[t]`` = P(final = t).

    The reversed cumulative sum, clipped to [0, 1] (:func:`clip_probability`: the
    sum's rounding), and exactly 1 for every ``t`` up to the least total of
    positive probability (certain: no final total is smaller).
    """
    p = np.asarray(pmf, dtype=np.float64)
    tail = clip_probability(np.cumsum(p[::-1])[::-1])
    nz = np.flatnonzero(p > 0)
    if nz.size:
        tail[: nz[0] + 1] = 1.0
    return tail
