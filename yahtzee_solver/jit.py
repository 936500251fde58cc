"""Compiled and interpreted forms of :mod:`yahtzee_solver.kernels`.

``kernels.py`` is one source, written in the subset of Python that numba
compiles.  :func:`compiled` loads a second copy of that module and wraps every
function listed in ``kernels.KERNELS`` with ``numba.njit(cache=True)``, so that
calls between kernels resolve to compiled code and ``prange`` runs in parallel.
:func:`interpreted` is the module as written: no numba import, no compile time,
about a thousand times slower -- right for one query from a cold shell.

Numba is imported only by :func:`compiled`.
"""

from __future__ import annotations

import importlib.util
import threading
from types import ModuleType

from . import kernels as _kernels

__all__ = ["compiled", "interpreted", "backend", "compiled_module", "module_backend"]

_lock = threading.Lock()
_compiled: ModuleType | None = None

# Kernels that loop over independent items with prange.
_PARALLEL = {"solve_states", "batch_turn", "play_games", "dist_outcomes", "dist_compact", "dist_convolve"}


def interpreted() -> ModuleType:
    """The kernels as plain Python (no numba)."""
    return _kernels


def compiled() -> ModuleType:
    """The kernels compiled by numba (imported and compiled on first use, cached on disk).

    Returns
    -------
    module
        A copy of :mod:`yahtzee_solver.kernels` whose functions are numba dispatchers.
    """
    global _compiled
    with _lock:
        if _compiled is None:
            import numba

            spec = importlib.util.find_spec(_kernels.__name__)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            mod.prange = numba.prange
            for name in mod.KERNELS:
                fn = getattr(mod, name)
                setattr(
                    mod,
                    name,
                    numba.njit(cache=True, nogil=True, parallel=name in _PARALLEL)(fn),
                )
            _compiled = mod
        return _compiled


def backend(jit: bool) -> ModuleType:
    """:func:`compiled` if ``jit`` else :func:`interpreted`."""
    return compiled() if jit else interpreted()


_compiled_modules: dict[str, ModuleType] = {}


def compiled_module(module: ModuleType) -> ModuleType:
    """A compiled copy of another kernel module written like :mod:`kernels`.

    ``module`` lists its kernels in ``KERNELS``, those with parallel ``prange``
    loops in ``PARALLEL``, and the names it takes from :mod:`kernels` in
    ``IMPORTS``; in the copy those names are bound to the compiled kernels of
    :func:`compiled`, so the turn logic stays one definition.

    Returns
    -------
    module
        The copy, its kernels numba dispatchers (``cache=True``).
    """
    base = compiled()
    with _lock:
        mod = _compiled_modules.get(module.__name__)
        if mod is None:
            import numba

            spec = importlib.util.find_spec(module.__name__)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            mod.prange = numba.prange
            for name in getattr(mod, "IMPORTS", ()):
                setattr(mod, name, getattr(base, name))
            parallel = set(getattr(mod, "PARALLEL", ()))
            for name in mod.KERNELS:
                fn = getattr(mod, name)
                setattr(mod, name, numba.njit(cache=True, nogil=True, parallel=name in parallel)(fn))
            _compiled_modules[module.__name__] = mod
        return mod


def module_backend(module: ModuleType, jit: bool) -> ModuleType:
    """:func:`compiled_module` of ``module`` if ``jit`` else ``module`` itself (interpreted)."""
    return compiled_module(module) if jit else module
