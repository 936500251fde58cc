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

Threads
-------
Every compiled kernel releases the GIL (``nogil=True``), so threads run them
at the same time.  The kernels with ``prange`` loops run on numba's threading
layer; numba picks TBB, else OpenMP, else its own ``workqueue``, which aborts
the process when two threads enter parallel code at once.  Each parallel
kernel of the compiled modules is therefore wrapped (:func:`_one_at_a_time`):
until numba reports a thread-safe layer (:data:`THREAD_SAFE_LAYERS`) the calls
take turns on one lock; with OpenMP or TBB they run concurrently.  The lock
is internal: callers need not know of it.

The shipped cache
-----------------
A wheel carries its kernels compiled for the machine that built it
(:func:`build_cache`, run by ``setup.py``; ``pip install .`` builds on the
user's machine), in :data:`CACHE_FOLDER` beside the kernel sources, for every
signature of :data:`SIGNATURES_FILE`.  A dispatcher loads from there first
(:func:`_use_shipped_cache`), stamped by the content of the sources
(:func:`source_stamp`) instead of numba's file time, which an install does not
keep; then from numba's own cache.  When the shipped copy does not fit (other
CPU, numba or numpy), the first miss compiles the whole list once into numba's
own cache, announced on stderr (:func:`_compile_shipped_list`).

Threading layer and waiting
---------------------------
The ``prange`` kernels run on numba's threading layer: TBB if installed,
else OpenMP, else numba's ``workqueue`` (numba's own order, kept).  OpenMP's
threads spin between parallel regions by default, burning a core another
process could use; on a shared, loaded machine the spinning thread and the
worker it waits for then compete, and two threads end up slower than one.
Before numba starts its OpenMP pool, :func:`compiled` therefore asks for
passive waiting (``OMP_WAIT_POLICY=PASSIVE``: idle threads sleep) after a
short spin (``GOMP_SPINCOUNT`` = :data:`SPIN_COUNT`, about 100-200
microseconds), unless the environment sets either.  A thread that sleeps
costs a wake-up of 30-50 microseconds at the next parallel region; the short
spin spares it between the two regions of each slice of a distribution
(290 regions for an 11-open-box card, about 15 ms of its 0.25 s on two
threads), and is over long before the next piece of work of a busy machine.

A parallel region also waits at its end for its slowest thread, and a thread
sharing its core with another process is preempted for milliseconds at a
time: on a 2-core machine with one other busy process, two threads ran the
distribution and the simulation about 5-10 % slower than one.  The build's
layers, the distribution's layers and the simulation's games therefore run on
the threads that have a core free when each starts (:func:`threads_for`,
from Linux's count of threads ready to run, :func:`others_running`).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import importlib.util
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from .. import dice as _dice
from . import kernels as _kernels

__all__ = ["compiled", "interpreted", "backend", "compiled_module", "module_backend", "for_work", "STARTUP_SECONDS",
           "others_running", "threads_free", "threads_for", "started_numba", "SPIN_COUNT",
           "entry_point", "build_cache", "listed_signatures", "signature_text", "CACHE_FOLDER", "SIGNATURES_FILE",
           "release_compiler_pages"]

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
_PARALLEL = {"solve_states", "batch_turn", "play_games", "dist_outcomes", "dist_dense", "dist_convolve"}

#: numba threading layers that several threads may enter at once (numba's documentation:
#: TBB and OpenMP are thread-safe, ``workqueue`` is not).
THREAD_SAFE_LAYERS = ("tbb", "omp")

_parallel_lock = threading.Lock()
_parallel_free = False  # True once numba runs a layer of THREAD_SAFE_LAYERS (then no lock)


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
            numba = _import_numba()

            spec = importlib.util.find_spec(_kernels.__name__)
            assert spec is not None and spec.loader is not None  # the kernels module is on disk
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            mod.__dict__["prange"] = numba.prange
            for name in mod.KERNELS:
                setattr(mod, name, _njit(getattr(mod, name), name in _PARALLEL, _base_sources()))
            _compiled = mod
        return _compiled


#: Spins of an idle OpenMP thread before it sleeps (``GOMP_SPINCOUNT``): about 100-200 us on the
#: 2-core test machine, which covers the serial step between two parallel regions of one
#: distribution slice (median 31 us, 90 % under 93 us) but not the gap between two pieces of work.
SPIN_COUNT = 5000


def _check_thread_count() -> None:
    """A usage error naming ``NUMBA_NUM_THREADS`` when it is set but not a whole number of at least 1.

    numba itself fails on 0 with a traceback, and warns with one on a word or a blank.
    """
    import os

    from ..errors import UsageError

    given = os.environ.get("NUMBA_NUM_THREADS")
    n = "" if given is None else given.strip()
    if given is not None and not (n.isascii() and n.isdigit() and int(n) >= 1):  # numba reads a blank too
        raise UsageError(f"NUMBA_NUM_THREADS={given[:20]!r} in the environment: want a whole number of threads, "
                         "at least 1 (or leave it unset)")


#: The values of ``NUMBA_THREADING_LAYER`` numba knows, in any case (numba's documentation, "The
#: Threading Layers", and ``numba/np/ufunc/parallel.py`` of numba 0.68): ``default`` (the first of
#: tbb, omp, workqueue that loads), a property the layer must have (``safe`` = tbb, ``threadsafe``
#: = tbb or omp, ``forksafe``), or a layer by name.
THREADING_LAYERS = ("default", "safe", "threadsafe", "forksafe", "tbb", "omp", "workqueue")

#: The layers ``NUMBA_THREADING_LAYER_PRIORITY`` orders (numba's default order).
_PRIORITY_LAYERS = ("tbb", "omp", "workqueue")

#: What the layers asked for need when numba cannot load them (the ``forksafe`` and ``workqueue``
#: layers are built into numba on Linux).
_LAYER_NEEDS = {
    "tbb": "Intel TBB (pip install tbb)",
    "safe": "Intel TBB (pip install tbb)",
    "threadsafe": "Intel TBB (pip install tbb) or an OpenMP runtime",
    "omp": "an OpenMP runtime (libgomp; on macOS pip install intel-openmp)",
}


def _check_threading_layer() -> None:
    """A usage error naming ``NUMBA_THREADING_LAYER`` or ``NUMBA_THREADING_LAYER_PRIORITY`` when
    set to a value numba does not take.

    A string check (no numba import); numba itself refuses the value only at the first
    parallel launch, with a traceback.  A layer it knows but cannot load is found by
    :func:`_import_numba`.
    """
    import os

    from ..errors import UsageError

    given = os.environ.get("NUMBA_THREADING_LAYER")
    if given is not None and given.lower() not in THREADING_LAYERS:  # numba reads it lowercased, unstripped
        raise UsageError(f"NUMBA_THREADING_LAYER={given[:20]!r} in the environment: numba knows "
                         f"{', '.join(THREADING_LAYERS[:-1])} and {THREADING_LAYERS[-1]} (or leave it unset)")
    # numba splits the order of preference on whitespace and wants the three named layers, each once
    # (numba/np/ufunc/parallel.py, _launch_threads), case as given
    order = os.environ.get("NUMBA_THREADING_LAYER_PRIORITY")
    if order is not None and sorted(order.split()) != sorted(_PRIORITY_LAYERS):
        raise UsageError(f"NUMBA_THREADING_LAYER_PRIORITY={order[:30]!r} in the environment: want the layers "
                         f"{', '.join(_PRIORITY_LAYERS)} in an order of preference, each once, separated by spaces "
                         "(or leave it unset)")


def started_numba() -> ModuleType:
    """numba, its threads started: a one-line usage error for a thread count or threading
    layer it cannot start (``NUMBA_NUM_THREADS``, ``NUMBA_THREADING_LAYER``), not its traceback.

    Raises
    ------
    UsageError
        ``NUMBA_NUM_THREADS`` not a whole number of at least 1, or the threading layer asked
        for unknown or not installed.
    """
    numba = _import_numba()
    try:
        numba.get_num_threads()  # the first call starts numba's threads
    except ValueError as e:
        raise _layer_error(e) from None
    return numba


def _import_numba() -> ModuleType:
    """numba, imported once its settings are checked and OpenMP's waiting is chosen (both must
    come before numba reads them).

    The one place numba's settings are checked, whatever loads numba (:func:`compiled`,
    :func:`started_numba`): a thread count or threading layer numba cannot start is a
    :class:`~yahtzee_solver.errors.UsageError` even in a process that never launches a
    parallel kernel.  A layer named in ``NUMBA_THREADING_LAYER`` (not ``default``) is loaded
    here by starting numba's threads, as its first parallel kernel would; without the
    variable nothing more is done than before.
    """
    import os

    _check_thread_count()
    _check_threading_layer()
    _passive_wait()
    import numba

    module: ModuleType = numba
    if os.environ.get("NUMBA_THREADING_LAYER", "default").lower() != "default":
        try:
            numba.get_num_threads()  # loads the layer asked for (and starts the threads)
        except ValueError as e:
            raise _layer_error(e) from None
    return module


def _layer_error(e: ValueError) -> Exception:
    """numba's refusal to start its threads, as a one-line usage error naming the setting (``e``
    itself for any other ``ValueError``)."""
    import os

    from ..errors import UsageError

    if "threading layer" not in str(e):
        return e
    _check_threading_layer()  # an unknown name, said as such
    asked = os.environ.get("NUMBA_THREADING_LAYER", "default")
    needs = _LAYER_NEEDS.get(asked.lower())
    fix = f"install {needs} or leave the variable unset" if needs else "leave the variable unset"
    return UsageError(f"numba could not load a threading layer (NUMBA_THREADING_LAYER={asked[:20]!r}): {fix}")


def _passive_wait() -> None:
    """Ask OpenMP for idle threads that spin briefly, then sleep (module docstring), unless the environment chose."""
    import os

    if "OMP_WAIT_POLICY" in os.environ or "GOMP_SPINCOUNT" in os.environ:
        return
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    os.environ["GOMP_SPINCOUNT"] = str(SPIN_COUNT)


#: Linux's count of the threads ready to run on the machine right now (``/proc/stat``).
_PROC_STAT = "/proc/stat"

#: This process's threads, each with its state (``/proc/self/task/<tid>/stat``).
_PROC_TASKS = "/proc/self/task"


def _procs_running() -> int | None:
    try:
        with open(_PROC_STAT, "rb") as f:
            for line in f:
                if line.startswith(b"procs_running "):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


def _own_running() -> int:
    """This process's threads ready to run now (state ``R``), the caller included: at least 1."""
    import os

    n = 0
    try:
        tids = os.listdir(_PROC_TASKS)
    except OSError:
        return 1
    for tid in tids:
        try:
            with open(f"{_PROC_TASKS}/{tid}/stat", "rb") as f:
                stat = f.read()
        except OSError:  # the thread has ended
            continue
        end = stat.rfind(b")")  # the name in parentheses may hold anything
        if stat[end + 2:end + 3] == b"R":
            n += 1
    return max(1, n)


def others_running() -> int:
    """Threads of other processes ready to run on this machine now.

    Linux's ``procs_running`` (``/proc/stat``: every thread running or waiting for a
    core) less this process's own (``/proc/self/task``: a numba worker may still be
    on its way to sleep after a parallel region).  A thread that is ready for a moment
    only (a kernel worker) would make one sample say the machine is busy, so a
    count above 0 is taken again 0.2 ms later and the smaller kept.  About 50 us
    when the machine is quiet; taken before each piece of work it decides.

    Returns
    -------
    int
        0 where ``/proc/stat`` cannot be read (not Linux).
    """
    import time

    best = None
    for _ in range(2):
        running = _procs_running()
        if running is None:
            return 0
        others = max(0, running - _own_running())
        best = others if best is None else min(best, others)
        if best == 0:
            break
        time.sleep(0.0002)
    return best or 0


def threads_free(wanted: int) -> int:
    """How many of ``wanted`` threads have a core of their own now: at least 1.

    A parallel region waits at its end for every thread; a thread that shares its
    core with another process is preempted for milliseconds at a time, and the
    region then takes longer than on one thread.  Callers whose work is a series
    of short regions (the distribution's slices) run on this many threads.
    """
    import os

    if wanted <= 1:  # nothing to decide: no look at the machine (50-400 us)
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(wanted, cores - others_running()))


@contextlib.contextmanager
def threads_for(jit: bool, most: int | None = None) -> Iterator[int]:
    """Context: numba's thread count (per calling thread) for one piece of parallel work.

    At most ``most`` (default: numba's count), and no more than have a core free now
    (:func:`threads_free`): on a machine busy with other work, a parallel job runs on
    fewer threads instead of waiting at each region's end for a preempted one.
    Yields the count used; a no-op (yielding 1) for interpreted kernels.
    """
    if not jit:
        yield 1
        return
    numba = started_numba()
    before = numba.get_num_threads()
    use = threads_free(before if most is None else max(1, min(most, before)))
    if use == before:
        yield use
        return
    numba.set_num_threads(use)
    try:
        yield use
    finally:
        numba.set_num_threads(before)


def _one_at_a_time(dispatcher: Any) -> Callable[..., Any]:
    """``dispatcher`` (a parallel kernel, called from Python only) made safe to call from several threads.

    numba's ``workqueue`` layer aborts the process when two threads launch
    parallel regions at once.  Until a call has shown that numba runs a layer
    of :data:`THREAD_SAFE_LAYERS` (the layer is chosen at the first parallel
    launch), the calls hold one lock; after that they go straight through.
    Costs a Python call (~0.1 us) on kernels that run for microseconds to
    seconds.
    """

    def call(*args: Any) -> Any:
        if _parallel_free:
            return dispatcher(*args)
        with _parallel_lock:
            try:
                out = dispatcher(*args)
            except ValueError as e:  # numba's first parallel launch: the layer asked for is missing
                raise _layer_error(e) from None
            _note_layer()
        return out

    call.__name__ = call.__qualname__ = dispatcher.__name__
    call.__doc__ = dispatcher.__doc__
    wrapped: Any = call  # a function object with two more attributes
    wrapped.__wrapped__ = dispatcher
    wrapped.dispatcher = dispatcher
    return call


def _note_layer() -> None:
    """Let the parallel kernels run concurrently once numba's threading layer is known to be thread-safe."""
    global _parallel_free
    import numba

    try:
        layer = numba.threading_layer()
    except ValueError:  # no parallel region launched yet
        return
    _parallel_free = layer in THREAD_SAFE_LAYERS


def _njit(fn: Callable[..., Any], parallel: bool, sources: tuple[str, ...] = ()) -> Any:
    """``numba.njit(cache=True, nogil=True)`` of ``fn``, loading its cache without the registry refresh.

    ``sources`` are the files whose content stamps the shipped cache
    (:func:`_use_shipped_cache`): the kernel module's own and those it
    takes compiled code or constants from.  A parallel kernel is returned
    wrapped by :func:`_one_at_a_time` (so it must not be called from another
    kernel).
    """
    import numba

    dispatcher = numba.njit(cache=True, nogil=True, parallel=parallel)(fn)
    _load_without_refresh(dispatcher)
    _use_shipped_cache(dispatcher, sources)
    return _one_at_a_time(dispatcher) if parallel else dispatcher


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


def entry_point(kernel: Callable[..., Any], *sample: Any) -> Callable[..., Any]:
    """The compiled code of ``kernel`` for exactly the argument types of ``sample``, to call without dispatch.

    A numba dispatcher works out the numba type of every argument on each
    call to pick the compiled overload (about 0.1 us per array argument,
    measured on the 2-core test machine: 0.56 against 0.30 us for four ints
    and four arrays); a single query's kernel runs for about as long.  This
    returns the overload itself (numba's ``Dispatcher.compile`` of the
    signature: loaded from the cache, compiled on a miss), which converts
    its arguments to those types without checking them.

    Parameters
    ----------
    kernel : callable
        A kernel of :func:`compiled` (a numba dispatcher), or of
        :func:`interpreted` (returned as it is).
    *sample : objects
        Arguments of the types every later call will pass: Python ints for
        the integer arguments, arrays of the same dtype, number of
        dimensions, layout and writability (their values are not read).

    Returns
    -------
    callable
        Safe to call only with arguments of exactly those types (the caller's
        contract: an array of another dtype or number of dimensions would be
        read as if it had the sample's); ``kernel`` when it is not compiled.
    """
    compile_sig = getattr(kernel, "compile", None)
    if compile_sig is None or not hasattr(kernel, "overloads"):
        return kernel
    import numba

    entry: Callable[..., Any] = compile_sig(tuple(numba.typeof(a) for a in sample))
    return entry


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


#: Part of the file name of LLVM's shared library (llvmlite's binding), the compiler numba loads.
_COMPILER_LIBRARY = "libllvmlite"

#: ``madvise`` advice: drop the pages of a range from the resident set (Linux ``<sys/mman.h>``).
_MADV_DONTNEED = 4


def _compiler_ranges(smaps: str) -> list[tuple[int, int]]:
    """The address ranges of LLVM's library that are read-only and hold no private copy of a page.

    ``smaps`` is the text of ``/proc/self/smaps``.  A range with ``Anonymous`` pages was written
    (relocations before it was made read-only): it is left out, since dropping its pages would
    lose what was written.
    """
    out: list[tuple[int, int]] = []
    cur: tuple[int, int] | None = None
    for line in smaps.splitlines():
        head = line.split()
        if not head:
            continue
        if not head[0].endswith(":") and "-" in head[0]:  # a mapping's first line: range perms offset dev inode path
            cur = None
            if len(head) > 5 and _COMPILER_LIBRARY in head[5] and "w" not in head[1]:
                a, b = head[0].split("-")
                cur = (int(a, 16), int(b, 16))
        elif cur is not None and head[0] == "Anonymous:":
            if int(head[1]) == 0:
                out.append(cur)
            cur = None
    return out


def release_compiler_pages() -> int:
    """Take the pages of LLVM's code out of this process's resident set, once the kernels are loaded.

    Numba initialises LLVM, and loading cached machine code runs LLVM's linker: about 70 MiB of
    its library's code and constant data become resident (Linux, x86-64), and stay so, though a
    loaded kernel never runs LLVM again.  Here the read-only ranges of that library that hold
    no modified page are advised ``MADV_DONTNEED``: their pages leave the resident set, stay in
    the system's page cache, and come back by a minor fault if LLVM runs again (a new kernel
    loaded or compiled).  Nothing is lost: those pages are the file's own bytes.  For a long
    job, in memory, after its kernels are loaded (:mod:`yahtzee_solver.strategy.distribution`:
    the empty card's peak resident set about 60 MiB lower).

    Returns
    -------
    int
        Bytes of address range advised; 0 where there is nothing to do (numba not imported, not
        Linux, no ``/proc/self/smaps``, ``madvise`` refused).
    """
    import sys

    if "llvmlite.binding" not in sys.modules or not sys.platform.startswith("linux"):
        return 0
    import ctypes

    try:
        with open("/proc/self/smaps", encoding="ascii", errors="replace") as f:
            ranges = _compiler_ranges(f.read())
        libc = ctypes.CDLL(None, use_errno=True)
        madvise = libc.madvise
    except (OSError, AttributeError):
        return 0
    madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    madvise.restype = ctypes.c_int
    done = 0
    for a, b in ranges:
        if madvise(a, b - a, _MADV_DONTNEED) == 0:
            done += b - a
    return done


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
            assert spec is not None and spec.loader is not None and spec.origin is not None  # a kernel module on disk
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            mod.__dict__["prange"] = numba.prange
            for name in getattr(mod, "IMPORTS", ()):
                setattr(mod, name, getattr(base, name))
            parallel = set(getattr(mod, "PARALLEL", ()))
            sources = (*_base_sources(), spec.origin)
            for name in mod.KERNELS:
                setattr(mod, name, _njit(getattr(mod, name), name in parallel, sources))
            _compiled_modules[module.__name__] = mod
        return mod


def module_backend(module: ModuleType, jit: bool) -> ModuleType:
    """:func:`compiled_module` of ``module`` if ``jit`` else ``module`` itself (interpreted)."""
    return compiled_module(module) if jit else module


# -- the shipped cache -----------------------------------------------------------------------------

#: Folder beside the kernel sources holding the machine code compiled when the wheel was built
#: (:func:`build_cache`; ``setup.py`` runs it).  Absent in a source checkout and an editable install.
CACHE_FOLDER = "_jitcache"

#: The compiled signatures the commands and objects call (``module kernel (types)`` a line),
#: written by ``scripts/jit_signatures.py``; :func:`build_cache` compiles each.
SIGNATURES_FILE = str(Path(__file__).with_name("jit_signatures.txt"))

SIGNATURES_HEADER = (
    "# The compiled kernel signatures that the commands and objects of this package call:\n"
    "# module kernel (argument types).  Written by scripts/jit_signatures.py --write; a wheel\n"
    "# build compiles each into the package's numba cache (jit.build_cache).\n"
)

#: Bumped when the layout of the shipped cache or its stamp changes.
_STAMP_VERSION = 1

# Set by build_cache: the folder the dispatchers made from then on save to and load from.
_writing: Path | None = None


def _base_sources() -> tuple[str, ...]:
    """The files whose content the compiled :mod:`kernels` depend on: the kernels and the dice tables."""
    return (_kernels.__file__, _dice.__file__)


@functools.cache
def source_stamp(sources: tuple[str, ...]) -> tuple[str, int, str, str]:
    """What a shipped cache entry must have been built from to be loaded here.

    Numba stamps a cache with its source file's modification time and size,
    which an install does not keep; this stamp is the SHA-256 of the content
    of every file in ``sources`` (a kernel module and the modules whose
    compiled code or constants it embeds), with numpy's version.  Numba adds
    its own version (in the index), the CPU name and features and the
    function's bytecode (in each entry's key).

    Returns
    -------
    tuple
        ``("yahtzee-solver jit", version, sha256 hex, numpy version)``.
    """
    import numpy

    h = hashlib.sha256()
    for path in sources:
        data = Path(path).read_bytes()
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return ("yahtzee-solver jit", _STAMP_VERSION, h.hexdigest(), numpy.__version__)


def _shipped_file(dispatcher: Any, sources: tuple[str, ...], folder: Path) -> Any:
    from numba.core.caching import IndexDataCacheFile

    cache = dispatcher._cache
    return IndexDataCacheFile(cache_path=str(folder), filename_base=cache._impl.filename_base,
                              source_stamp=source_stamp(sources))


def _use_shipped_cache(dispatcher: Any, sources: tuple[str, ...]) -> bool:
    """Make ``dispatcher`` load from the cache shipped in the package first, then from numba's own.

    The shipped cache (:data:`CACHE_FOLDER` beside the kernel source) is
    read-only here: a signature it lacks, or an entry built elsewhere (another
    CPU, numba or numpy version, other source) loads from numba's own cache or
    compiles as usual, saving to numba's own cache.  While :func:`build_cache`
    runs, the shipped folder is numba's cache for the dispatcher (load and
    save).

    Returns
    -------
    bool
        Whether the dispatcher reads a shipped cache.
    """
    cache: Any = getattr(dispatcher, "_cache", None)
    if not sources or getattr(cache, "_impl", None) is None or not _short_load_checked():
        return False
    if _writing is not None:
        cache._cache_file = _shipped_file(dispatcher, sources, _writing)
        return False
    folder = Path(dispatcher.py_func.__code__.co_filename).with_name(CACHE_FOLDER)
    if not folder.is_dir():
        return False
    from numba.core.runtime import rtsys

    own = cache.load_overload
    shipped: Any = None

    def load(sig: Any, target_context: Any) -> Any:
        nonlocal shipped
        for refresh in (False, True):
            try:
                if shipped is None:
                    shipped = _shipped_file(dispatcher, sources, folder)
                if refresh:
                    target_context.refresh()
                else:
                    rtsys.initialize(target_context)
                data = shipped.load(cache._index_key(sig, target_context.codegen()))
                if data is None:
                    break
                return cache._impl.rebuild(target_context, data)
            except Exception:
                continue
        loaded = own(sig, target_context)
        if loaded is None and shipped is not None and not _fits(shipped, target_context):
            # numba compiles next, and the shipped cache was built for another machine or source
            _compile_shipped_list(folder, (dispatcher, tuple(sig)))
        return loaded

    cache.load_overload = load
    return True


def _fits(shipped: Any, target_context: Any) -> bool:
    """Whether the shipped index ``shipped`` has entries for this source, numba, numpy and CPU.

    A miss where it fits is a signature the list lacks (numba compiles it as
    usual); where it does not, the whole shipped list is out of date here.
    """
    try:
        magic = target_context.codegen().magic_tuple()
        return any(key[1] == magic for key in shipped._load_index())
    except Exception:
        return False


#: The copy of the signature list that :func:`build_cache` compiled, kept in the shipped folder.
_FOLDER_SIGNATURES = "signatures.txt"

_filled: set[str] = set()  # shipped folders whose list this process compiled (or is compiling)
_fill_lock = threading.Lock()


def _compile_shipped_list(folder: Path, current: tuple[Any, tuple[Any, ...]]) -> None:
    """Compile, once, every signature the shipped cache in ``folder`` was built with, into numba's own cache.

    Called when a kernel finds neither the shipped cache nor numba's own
    usable (a wheel built on another CPU, or numba or numpy changed since
    the install): rather than each command compiling what it needs in
    silence, the whole list compiles now, announced on one stderr line with
    a progress bar, and later processes load numba's own cache.  ``current``
    (the dispatcher and signature being loaded) is left for numba, which
    compiles it on return.  Errors leave the rest to compile on first use.
    """
    key = str(folder)
    with _fill_lock:
        if key in _filled:
            return
        _filled.add(key)
    import sys
    import time

    try:
        sigs = listed_signatures(path=str(folder / _FOLDER_SIGNATURES))
    except (OSError, ValueError, SyntaxError, NameError):
        return
    t0 = time.perf_counter()
    n = len(sigs)
    tty = sys.stderr is not None and sys.stderr.isatty()
    head = "compiling the solver's kernels for this machine, once (the install's compiled copy does not fit it)"

    def bar(done: int, end: str = "\r") -> None:
        filled = 30 * done // max(n, 1)
        sys.stderr.write(f"{head} [{'#' * filled}{'.' * (30 - filled)}] {done}/{n} "
                         f"{time.perf_counter() - t0:4.0f} s{end}")
        sys.stderr.flush()

    if tty:
        bar(0)
    elif sys.stderr is not None:  # a log: the one line, without the bar's redrawing
        sys.stderr.write(f"{head}: {n} kernel signatures, about a minute\n")
        sys.stderr.flush()
    for i, (module, kernel, types) in enumerate(sigs, 1):
        try:
            disp = _dispatcher(module, kernel)
            if (disp, types) != current:
                disp.compile(types)
        except Exception:
            pass
        if tty:
            bar(i, "\n" if i == n else "\r")


def signature_text(sig: Sequence[Any]) -> str | None:
    """``sig`` (a tuple of numba types) as text that :func:`listed_signatures` reads back, or ``None``.

    ``None`` for a signature that only a kernel calling another can make
    (literal or omitted arguments): compiling the caller compiles it.
    """
    text = "(" + ", ".join(repr(t) for t in sig) + ")"
    try:
        back = _parse_types(text)
    except Exception:
        return None
    return text if back == tuple(sig) else None


def _parse_types(text: str) -> tuple[Any, ...]:
    from numba.core import types

    out = eval(text, {"__builtins__": {}}, dict(vars(types)))  # only numba's type names are in scope
    return out if isinstance(out, tuple) else (out,)


def listed_signatures(text: bool = False, path: str | None = None) -> list[Any]:
    """The signatures of :data:`SIGNATURES_FILE`.

    Returns
    -------
    list
        ``(module, kernel, types)`` tuples (``types`` a tuple of numba types;
        ``module`` the kernel module's last name: ``kernels``,
        ``utility_kernels``), or the lines as text with ``text=True``.
    """
    lines = [ln.strip() for ln in Path(path or SIGNATURES_FILE).read_text().splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    if text:
        return lines
    out: list[Any] = []
    for ln in lines:
        module, kernel, types_text = ln.split(" ", 2)
        out.append((module, kernel, _parse_types(types_text)))
    return out


def _dispatcher(module: str, kernel: str) -> Any:
    """The numba dispatcher of ``kernel`` in compiled module ``module`` (a parallel kernel unwrapped from
    :func:`_one_at_a_time`)."""
    k = getattr(_kernel_module(module), kernel)
    return getattr(k, "dispatcher", k)


def _kernel_module(label: str) -> ModuleType:
    if label == _kernels.__name__.rsplit(".", 1)[-1]:
        return compiled()
    return compiled_module(importlib.import_module(f"{_kernels.__package__}.{label}"))


def build_cache(folder: str | None = None, progress: Callable[[int, int, str], object] | None = None,
                signatures: str | None = None) -> int:
    """Compile every listed signature into the shipped cache (``setup.py`` runs this at wheel build).

    Run in a fresh process (the dispatchers made before do not save to the
    shipped folder).  The folder is emptied first, so it holds exactly the
    listed signatures for this CPU, numba, numpy and source.

    Parameters
    ----------
    folder : str, optional
        Default: :data:`CACHE_FOLDER` beside the kernel sources.
    progress : callable, optional
        Called as ``progress(done, total, name)`` after each signature.
    signatures : str, optional
        A signatures file (default: :data:`SIGNATURES_FILE`).

    Returns
    -------
    int
        The number of signatures compiled.

    Raises
    ------
    RuntimeError
        When the compiled kernels are already loaded in this process, or
        numba's version is outside :data:`SHORT_LOAD_NUMBA` (the cache's
        internals were checked for those only).
    """
    global _writing
    if _compiled is not None:
        raise RuntimeError("build_cache must run before the compiled kernels are loaded")
    if not _short_load_checked():
        raise RuntimeError("the shipped cache was checked with numba "
                           + "-".join(".".join(map(str, v)) for v in SHORT_LOAD_NUMBA) + " only")
    target = Path(folder) if folder else Path(_kernels.__file__).with_name(CACHE_FOLDER)
    if target.exists():
        import shutil

        shutil.rmtree(target)
    target.mkdir(parents=True)
    sigs = listed_signatures(path=signatures)
    (target / _FOLDER_SIGNATURES).write_text(
        SIGNATURES_HEADER + "".join(ln + "\n" for ln in listed_signatures(text=True, path=signatures)))
    _writing = target
    try:
        for i, (module, kernel, types) in enumerate(sigs, 1):
            _dispatcher(module, kernel).compile(types)
            if progress is not None:
                progress(i, len(sigs), f"{module}.{kernel}")
    finally:
        _writing = None
    return len(sigs)


def _main(argv: Sequence[str] | None = None) -> int:
    """``python -m yahtzee_solver.solver.jit --build-cache``: :func:`build_cache` with a one-line progress bar."""
    import argparse
    import sys
    import time

    ap = argparse.ArgumentParser(description="Compile the package's numba kernels into its shipped cache.")
    ap.add_argument("--build-cache", action="store_true", required=True)
    ap.add_argument("--folder", default=None)
    ap.add_argument("--signatures", default=None)
    opts = ap.parse_args(argv)
    t0 = time.perf_counter()

    def bar(done: int, total: int, name: str) -> None:
        filled = 30 * done // total
        sys.stderr.write(f"\rcompiling the solver's kernels for this machine (once) [{'#' * filled}{'.' * (30 - filled)}]"
                         f" {done}/{total} {time.perf_counter() - t0:5.0f} s")
        sys.stderr.flush()

    n = build_cache(opts.folder, bar, opts.signatures)
    sys.stderr.write(f"\ncompiled {n} kernel signatures in {time.perf_counter() - t0:.0f} s\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(importlib.import_module(__spec__.name)._main())
