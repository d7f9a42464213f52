"""Threads: a large flock's per-boid kernels run on several cores, a small flock's on one.

The kernels are compiled with ``nogil=True`` and take the range of rows (or slots) they work
on, so a flock is split into chunks that threads of one shared pool run at the same time.
Each chunk writes only its own rows, so results do not depend on the number of threads
(determinism is a promise). This costs a little more to start than numba's own ``parallel``
loops, but compiles in a fraction of the time (no parallel lowering), and never spins idle
threads on a busy machine.
"""

import itertools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from shoal.components import arguments as check

PARALLEL_MIN_BOIDS = 4096
"""Below this many boids the kernels run on one thread: starting parallel work costs more
than it saves for a small flock (and far more on a busy machine)."""

_CHUNKS_PER_THREAD = 4
_MIN_CHUNK = 256
_threads = max(1, min(os.cpu_count() or 1, 64))
_pool: ThreadPoolExecutor | None = None


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
    kernel: Callable[..., Any], n: int, *args: Any, min_rows: int = PARALLEL_MIN_BOIDS
) -> list[Any]:
    """Call ``kernel(first, last, *args)`` over [0, n) in chunks, on the pool's threads when
    n is at least `min_rows` (a stage whose rows cost much each passes fewer); returns the
    chunks' results in order."""
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
