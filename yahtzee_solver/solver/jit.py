"""Compiled and interpreted forms of :mod:`yahtzee_solver.solver.kernels`.

``kernels.py`` is one source, written in the subset of Python that numba
compiles.  :func:`compiled` loads a second copy of that module and wraps every
function listed in ``kernels.KERNELS`` with ``numba.njit(cache=True)``, so that
calls between kernels resolve to compiled code and ``prange`` runs in parallel.
:func:`interpreted` is the module as written: no numba import, no compile time,
about a thousand times slower -- right for one query from a cold shell.
:func:`for_work` picks one of the two by the size of the job: a small job
runs interpreted when that costs less than numba's start-up in a fresh process.

Numba is imported only by :func:`compiled`.

Loading cached machine code
---------------------------
Numba refreshes its typing and lowering registries (importing most of numba's
implementation modules) before it loads a cached kernel: in a fresh process
about 80 ms, a fifth of a cold ``dist`` query, and needed only to *compile*.
The dispatchers made here load a cached kernel after initialising numba's
runtime (NRT) alone (:func:`_load_without_refresh`); a cache miss compiles as
usual (numba's compiler refreshes the registries itself), and a load that
fails the short way is retried numba's way.  The machine code run is the same.
Only for the numba versions this was checked with (:data:`SHORT_LOAD_NUMBA`).
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

from . import kernels as _kernels

__all__ = ["compiled", "interpreted", "backend", "compiled_module", "module_backend", "for_work", "STARTUP_SECONDS"]

#: Wall seconds a fresh process pays before its first compiled kernel returns:
#: importing numba (~0.12 s), its runtime (NRT, ~0.02 s), creating the dispatchers
#: and loading the cached machine code of the kernels called (~0.05 s for three),
#: first calls included; about 0.29 s of CPU on the 2-core test machine under load,
#: where the floor ``python -c "import numpy, h5py, click"`` took 0.13 s of CPU
#: (``benchmarks/bench_dist.py`` shows it as the gap between a ``dist`` run
#: compiled and the import floor).
STARTUP_SECONDS = 0.3

_lock = threading.Lock()
_compiled: ModuleType | None = None

# Kernels that loop over independent items with prange.
_PARALLEL = {"solve_states", "batch_turn", "play_games", "dist_outcomes", "dist_convolve"}


def interpreted() -> ModuleType:
    """The kernels as plain Python (no numba)."""
    return _kernels


def compiled() -> ModuleType:
    """The kernels compiled by numba (imported and compiled on first use, cached on disk).

    Returns
    -------
    module
        A copy of :mod:`yahtzee_solver.solver.kernels` whose functions are numba dispatchers.
    """
    global _compiled
    with _lock:
        if _compiled is None:
            import numba

            spec = importlib.util.find_spec(_kernels.__name__)
            assert spec is not None and spec.loader is not None  # the kernels module is on disk
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            mod.__dict__["prange"] = numba.prange
            for name in mod.KERNELS:
                setattr(mod, name, _njit(getattr(mod, name), name in _PARALLEL))
            _compiled = mod
        return _compiled


def _njit(fn: Callable[..., Any], parallel: bool) -> Any:
    """``numba.njit(cache=True, nogil=True)`` of ``fn``, loading its cache without the registry refresh."""
    import numba

    dispatcher = numba.njit(cache=True, nogil=True, parallel=parallel)(fn)
    _load_without_refresh(dispatcher)
    return dispatcher


def _load_without_refresh(dispatcher: Any) -> bool:
    """Make ``dispatcher`` load its cached machine code without refreshing numba's registries.

    ``Cache.load_overload`` refreshes the target context (imports and installs
    every typing and lowering registry: what compiling needs) and then
    rebuilds the cached library; rebuilding needs only numba's runtime (NRT),
    whose symbols the cached code links to.  The replacement initialises the
    runtime, rebuilds, and on any failure refreshes and loads as numba does.
    A miss (no cached code for the signature) returns ``None`` and numba
    compiles, its compiler refreshing the registries first.

    Returns
    -------
    bool
        False (and nothing changed) when the dispatcher is not numba's caching
        dispatcher as this was written for (``NUMBA_DISABLE_JIT``), or numba's
        version is outside :data:`SHORT_LOAD_NUMBA`.
    """
    cache: Any = getattr(dispatcher, "_cache", None)
    load_overload = getattr(cache, "load_overload", None)
    rebuild = getattr(cache, "_load_overload", None)
    if load_overload is None or rebuild is None or not _short_load_checked():
        return False
    from numba.core.runtime import rtsys

    def load(sig: Any, target_context: Any) -> Any:
        try:
            rtsys.initialize(target_context)
            return rebuild(sig, target_context)
        except Exception:
            return load_overload(sig, target_context)

    cache.load_overload = load
    return True


#: numba versions (major, minor), first and last, whose cache loading :func:`_load_without_refresh`
#: was read and tested against (``tests/test_kernels.py``, numba 0.68.1); other versions load
#: numba's own way until checked.
SHORT_LOAD_NUMBA = ((0, 68), (0, 68))


def _short_load_checked() -> bool:
    import numba

    try:
        version = tuple(int(x) for x in numba.__version__.split(".")[:2])
    except ValueError:
        return False
    return SHORT_LOAD_NUMBA[0] <= version <= SHORT_LOAD_NUMBA[1]


def for_work(items: int, seconds_per_item: float, jit: bool = True) -> ModuleType:
    """The kernels for a job of ``items`` units that take ``seconds_per_item`` each interpreted.

    Interpreted when the job is cheaper interpreted than :data:`STARTUP_SECONDS`
    and the compiled kernels are not loaded yet in this process; compiled
    otherwise (always interpreted with ``jit=False``).  The same kernel source
    either way, so the result is the same up to float rounding.

    Parameters
    ----------
    items : int
        Units of work (e.g. the turn-start states a distribution solves).
    seconds_per_item : float
        Interpreted wall seconds per unit (an estimate; the compiled kernels are
        about a thousand times faster).
    jit : bool
        ``False``: interpreted whatever the size.

    Returns
    -------
    module
        :func:`compiled` or :func:`interpreted`.
    """
    if not jit:
        return interpreted()
    if _compiled is None and items * seconds_per_item < STARTUP_SECONDS:
        return interpreted()
    return compiled()


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
            assert spec is not None and spec.loader is not None  # a kernel module on disk
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            mod.__dict__["prange"] = numba.prange
            for name in getattr(mod, "IMPORTS", ()):
                setattr(mod, name, getattr(base, name))
            parallel = set(getattr(mod, "PARALLEL", ()))
            for name in mod.KERNELS:
                setattr(mod, name, _njit(getattr(mod, name), name in parallel))
            _compiled_modules[module.__name__] = mod
        return mod


def module_backend(module: ModuleType, jit: bool) -> ModuleType:
    """:func:`compiled_module` of ``module`` if ``jit`` else ``module`` itself (interpreted)."""
    return compiled_module(module) if jit else module
