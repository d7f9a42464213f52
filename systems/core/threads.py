"""Threads: a large flock's per-boid kernels run on several cores, a small flock's on one.

The kernels are compiled with ``nogil=True`` and take the range of rows (or slots) they work
on, so a flock is split into chunks that several threads run at the same time. Each chunk
writes only its own rows, so results do not depend on the number of threads (determinism is
a promise).

Two ways to run the chunks:

- A pool of Python threads (`run_chunks` on its own). Its threads sleep between calls, and
  the calling thread works too, taking the next chunk nobody has taken: a helper slow to
  wake (a busy machine; on a cloud VM waking a sleeping thread took 0.1-2 ms) leaves its
  share to the others, so a call is never much slower than one thread. Handing a chunk over
  costs ~50-250 µs, so the pool runs only flocks of `PARALLEL_MIN_BOIDS` or more.
- numba's own threads (a kernel's `native` driver, a ``parallel=True`` loop over the
  chunks). A launch costs ~3 µs while they are awake: after each they spin for a while
  (GNU OpenMP: ~1.5 ms here, see below) before they sleep. But a launch waits for every
  thread, a sleeping one too, so they take a call only while they are awake (within
  `HOT_SECONDS` of the last launch), when the same kernel runs back to back (idle for less
  time than its last run took, or than `HOT_SECONDS`), or when the kernels have kept the
  calling thread busy over half the time of late (`BUSY_SHARE`): a benchmark, a
  fast-forward, catch-up steps, a flock too large for its frame. And only from
  `NATIVE_MIN_ROWS` rows. A game that steps its flock once a frame keeps the pool (or one
  thread), and no core spins between its frames.

Whichever way is faster is measured, not assumed: each driver's runs are timed per row on
both ways (for flocks of about the same size), and numba's threads take a call only while
the median of their last runs costs no more than the other way's. On a machine whose cores
another process keeps busy, a launch waits for a thread the system has put aside: 150 boids
stepped 7-9 times slower on numba's threads than on one (two test processes on two cores,
or one busy process). The way not taken is tried again every `PROBE_SECONDS`, so that a
kernel moves back once the machine is free.

numba's threads are used only with its OpenMP layer (safe to enter from several threads at
once, unlike its "workqueue" layer), and never in a child forked from a process that started
them (GNU OpenMP does not survive a fork). Unless the host set it, GNU OpenMP is told to spin
30,000 rounds (``GOMP_SPINCOUNT``; ~1.5 ms here) rather than its 300,000 (~10 ms): enough for
the gaps between stages and steps, without a core spinning long after the last (measured:
no step slower; with 10 ms, two test processes on two cores slowed each other). GNU OpenMP
reads it once, when numba loads its threading layer: shoal sets it only for that moment, in
its first launch (`native_threads`), and importing shoal leaves the environment alone.
"""

import functools
import itertools
import math
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import numba
import numpy as np

from shoal.components import arguments as check
from shoal.systems.core.kernel_cache import ready as kernel_ready
from shoal.systems.core.store import FloatArray

PARALLEL_MIN_BOIDS = 4096
"""Below this many boids the pool's threads are not used: handing them work costs more than
it saves for a small flock (and far more on a busy machine)."""
NATIVE_MIN_ROWS = 64
"""Below this many rows numba's threads are not used either (a chunk under 32 rows), for a
kernel whose rows cost ~1 µs each (steering)."""
LIGHT_NATIVE_MIN_ROWS = 1024
"""The same for a kernel whose rows cost ~0.05 µs (copying, moving): below it, handing its
~20 arguments to the driver costs more than the second thread saves (measured at 100 and
500 boids: slower; at 2,000: faster)."""
BUSY_SHARE = 0.5
"""numba's threads also take a call once the kernels have kept the calling threads busy
this share of the time of late (`_BUSY_WINDOW`): a flock stepped back to back whose kernels
each idle longer than they run (a stage's Python, the other stages in between)."""
_BUSY_WINDOW = 0.05  # s: how far back "of late" reaches (a game's frame: 0.017)
HOT_SECONDS = 1.0e-3
"""numba's threads count as awake this long after a launch ends (GNU OpenMP spins ~1.5 ms
on this project's machine with the spin count set below, less on some CPUs)."""

PROBE_SECONDS = 0.5
"""How often a driver's call tries the way it has not been taking (numba's threads or the
other), so that both ways' costs stay current."""
_TALLY_RUNS = 8  # how many of a way's last runs its cost is the median of

_GOMP_SPINCOUNT = "30000"  # GNU OpenMP's spin count while shoal loads it (the docstring)

_CHUNKS_PER_THREAD = 4
_MIN_CHUNK = 256
_threads = max(1, min(os.cpu_count() or 1, 64))
_pool: ThreadPoolExecutor | None = None
_forked = False  # this process was forked: numba's OpenMP threads are not to be used
_probing = threading.Lock()
_always_native = threading.local()  # `native_always` is on in this thread
_native_end = 0.0  # when the last launch of numba's threads ended (perf_counter)
_last_runs: dict[Callable[..., Any], tuple[float, float]] = {}  # kernel → (ended, seconds)
_busy = 0.0  # time spent in kernels of late (weighted by exp(-age / _BUSY_WINDOW))
_span = 0.0  # time of late (weighted the same way; at most _BUSY_WINDOW)
_seen = 0.0  # when `_busy` and `_span` were last brought up to date (perf_counter)


class _Tally:
    """What a driver's last runs cost per row, on numba's threads and the other way, and
    when each way last ran (perf_counter)."""

    __slots__ = ("ran", "runs")

    def __init__(self) -> None:
        # [the other way, numba's threads]: seconds per row of the last `_TALLY_RUNS` runs.
        self.runs = (deque[float](maxlen=_TALLY_RUNS), deque[float](maxlen=_TALLY_RUNS))
        self.ran = [-math.inf, -math.inf]

    def note(self, native: bool, seconds_per_row: float, now: float) -> None:
        """Count a run; the runs of a way that had not run for `PROBE_SECONDS` are
        forgotten (the machine may have changed since)."""
        way = int(native)
        if now - self.ran[way] > PROBE_SECONDS:
            self.runs[way].clear()
        self.runs[way].append(seconds_per_row)
        self.ran[way] = now

    def cost(self, native: bool) -> float:
        """A way's cost per row: the median of its last runs (one slow run, a thread the
        system put aside for a moment, does not move it); NaN if it has never run."""
        runs = sorted(self.runs[int(native)])
        return runs[len(runs) // 2] if runs else math.nan

    def native_pays(self, now: float) -> bool:
        """Whether numba's threads should take the next call: a way never measured is tried;
        then the cheaper way, except that the other is tried every `PROBE_SECONDS`."""
        other, native = self.cost(False), self.cost(True)
        if math.isnan(native):
            return True
        if math.isnan(other):
            return False
        cheaper = native <= other
        return cheaper != (now - self.ran[1 - int(cheaper)] > PROBE_SECONDS)


_tallies: dict[tuple[Callable[..., Any], int], _Tally] = {}  # (driver, n's bit length) → tally


def threads() -> int:
    """How many threads a large flock's kernels use (default: one per core)."""
    return _threads


def set_threads(count: int) -> None:
    """Use `count` threads (>= 1) for large flocks from now on; results stay the same."""
    global _threads, _pool
    count = check.integer("set_threads", "count", count, low=1, high=256)
    if count != _threads and _pool is not None:
        _pool.shutdown()
        _pool = None
    _threads = count


def run_chunks(
    kernel: Callable[..., Any],
    n: int,
    *args: Any,
    min_rows: int = PARALLEL_MIN_BOIDS,
    native: Callable[..., Any] | None = None,
    native_min_rows: int = NATIVE_MIN_ROWS,
) -> list[Any]:
    """Call ``kernel(first, last, *args)`` over [0, n) in chunks; return the chunks' results
    in order.

    The chunks run on the pool's threads when n is at least `min_rows` (a stage whose rows
    cost much passes fewer), or on numba's threads through `native` (``native(workers,
    chunks, n, *args)``: a ``prange`` loop round the kernel, as `steer_chunks`) when those
    are awake (see the module's docstring) and n is at least `native_min_rows`; then the
    list holds the driver's one result (a sum of the chunks' where they return one).
    """
    started = time.perf_counter()
    if n < min_rows and (native is None or n < native_min_rows) and not native_forced():
        # No other thread may take this call: run it, without the choosing (~1 µs).
        result = kernel(0, n, *args)
        _note_busy(started, time.perf_counter())
        return [result]
    tally = _tally(native, n, native_min_rows)
    workers = _native_workers(native, n, native_min_rows, tally, started)
    # A launch that had to wake numba's threads costs what waking them costs (0.1-2 ms):
    # not counted, or a kernel that tried them after a while on the pool would never stay.
    woke_none = started - _native_end < HOT_SECONDS
    if workers > 1 and native is not None:
        results = _run_native(native, workers, n, args)
    else:
        results = _run_in_pool(kernel, n, args, min_rows)
    ended = time.perf_counter()
    if native is not None:
        _last_runs[native] = (ended, ended - started)
    if tally is not None and (workers == 1 or woke_none):
        tally.note(workers > 1, (ended - started) / n, ended)
    _note_busy(started, ended)
    return results


@contextmanager
def native_always() -> Iterator[None]:
    """Within it, this thread's `run_chunks` calls that have a native driver use numba's
    threads whatever the size and timing (where they may be used at all): the warm-up
    compiles the drivers so, and tests compare their results."""
    before = getattr(_always_native, "on", False)
    _always_native.on = True
    try:
        yield
    finally:
        _always_native.on = before


def native_forced() -> bool:
    """Whether `native_always` is on in this thread (a stage with a path of its own for a
    flock no other thread helps takes the threads' path then, so that it compiles)."""
    return bool(getattr(_always_native, "on", False))


@numba.njit(cache=True, nogil=True, parallel=True)
def _probe(out: FloatArray) -> None:
    """A launch of numba's threads, to learn which threading layer numba picked."""
    for k in numba.prange(out.shape[0]):
        out[k] = k


@functools.cache
def native_threads() -> int:
    """How many threads numba's OpenMP layer runs (1: it is not used, see the module's
    docstring)."""
    count = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    if count < 2:
        return 1
    with _probing, _gomp_spin_count():  # one launch at a time: "workqueue" aborts on two
        try:
            _probe(np.zeros(2))
        except ValueError:  # "No threading layer could be loaded": the pool does the work
            return 1
    return count if numba.threading_layer() == "omp" else 1  # type: ignore[attr-defined]


@contextmanager
def _gomp_spin_count() -> Iterator[None]:
    """Within it, ``GOMP_SPINCOUNT`` is shoal's unless the host set it; the environment is as
    it was afterwards. GNU OpenMP reads it when it is loaded: numba loads it when it first
    compiles, loads from its cache or launches a ``parallel=True`` kernel, and every one of
    shoal's goes through `native_threads` first (`_native_workers`)."""
    if "GOMP_SPINCOUNT" in os.environ:
        yield
        return
    os.environ["GOMP_SPINCOUNT"] = _GOMP_SPINCOUNT
    try:
        yield
    finally:
        if os.environ.get("GOMP_SPINCOUNT") == _GOMP_SPINCOUNT:
            del os.environ["GOMP_SPINCOUNT"]


def _tally(native: Callable[..., Any] | None, n: int, min_rows: int) -> _Tally | None:
    """The costs of `native`'s runs over about n rows (None: numba's threads cannot take
    this call whatever they cost)."""
    if native is None or n < min_rows or _threads < 2:
        return None
    key = (native, n.bit_length())
    tally = _tallies.get(key)
    if tally is None:
        tally = _tallies[key] = _Tally()
    return tally


def _native_workers(
    native: Callable[..., Any] | None, n: int, min_rows: int, tally: _Tally | None, now: float
) -> int:
    """How many of numba's threads should run this call (1: none, use the pool)."""
    if native is None or _forked or _threads < 2 or n == 0:
        return 1
    if not native_forced():
        if n < min_rows or not _awake(native):
            return 1
        if tally is not None and not tally.native_pays(now):
            return 1
        if not kernel_ready(native):  # compiling it would stall this call: the pool, meanwhile
            return 1
    return min(_threads, native_threads())


def _awake(native: Callable[..., Any]) -> bool:
    """Whether numba's threads are still spinning from a launch, the kernel runs back to
    back (idle for less time than its last run took, or than `HOT_SECONDS`), or the kernels
    have kept the threads busy of late (`BUSY_SHARE`)."""
    now = time.perf_counter()
    if now - _native_end < HOT_SECONDS:
        return True
    ended, seconds = _last_runs.get(native, (-1.0e9, 0.0))
    if now - ended < max(seconds, HOT_SECONDS):
        return True
    decay = _decay(now - _seen)
    return _busy * decay > BUSY_SHARE * (_span * decay + _BUSY_WINDOW * (1.0 - decay))


def _note_busy(started: float, ended: float) -> None:
    """Count a kernel's run from `started` to `ended` in the time spent in kernels of late:
    both are integrals of time weighted by exp(-age / _BUSY_WINDOW)."""
    global _busy, _span, _seen
    decay = _decay(ended - _seen)
    _busy = _busy * decay + _BUSY_WINDOW * (1.0 - _decay(ended - started))
    _span = _span * decay + _BUSY_WINDOW * (1.0 - decay)
    _seen = ended


def _decay(seconds: float) -> float:
    """What a moment `seconds` old still weighs in `_busy` and `_span`."""
    return math.exp(-max(seconds, 0.0) / _BUSY_WINDOW)


def _run_native(
    native: Callable[..., Any], workers: int, n: int, args: tuple[Any, ...]
) -> list[Any]:
    """One launch of numba's threads over the kernel's chunks."""
    global _native_end
    chunks = max(workers, min(workers * _CHUNKS_PER_THREAD, n // _MIN_CHUNK))
    result = native(workers, chunks, n, *args)
    _native_end = time.perf_counter()
    return [result]


def _run_in_pool(
    kernel: Callable[..., Any], n: int, args: tuple[Any, ...], min_rows: int
) -> list[Any]:
    """The chunks on the pool's threads and the caller's (one chunk below `min_rows`)."""
    if n < max(min_rows, 2) or _threads == 1:
        return [kernel(0, n, *args)]
    global _pool
    if _pool is None:  # the calling thread works too: the pool has one thread fewer
        _pool = ThreadPoolExecutor(_threads - 1, thread_name_prefix="shoal")
    # Several chunks a thread, so that one holding a dense school does not idle the others;
    # but none under _MIN_CHUNK rows, whose start would cost more than they take.
    count = max(_threads, min(_threads * _CHUNKS_PER_THREAD, n // _MIN_CHUNK))
    bounds = list(itertools.pairwise([n * k // count for k in range(count + 1)]))
    results: list[Any] = [None] * count
    taken = itertools.count()  # the next chunk to take (`next` is atomic under the GIL)

    def take_chunks() -> None:
        while (k := next(taken)) < count:
            results[k] = kernel(*bounds[k], *args)

    # Every thread, the caller's too, takes the next chunk nobody has taken until none is
    # left: a thread slow to start (a busy machine) leaves its share to the others.
    helpers = [_pool.submit(take_chunks) for _ in range(_threads - 1)]
    take_chunks()
    for helper in helpers:
        if not helper.cancel():
            helper.result()
    return results


def _after_fork_in_child() -> None:
    global _forked
    _forked = True


os.register_at_fork(after_in_child=_after_fork_in_child)
