"""The thread pool that runs a large flock's kernels in chunks (shoal.systems.core.threads)."""

import itertools
import threading
import time

import pytest

from shoal.systems.core.threads import run_chunks, set_threads, threads


@pytest.fixture
def two_threads() -> object:
    before = threads()
    set_threads(2)
    yield
    set_threads(before)


def test_every_chunk_runs_once_and_results_come_in_order(two_threads: object) -> None:
    ran: list[tuple[int, int]] = []

    def kernel(first: int, last: int, scale: int) -> int:
        ran.append((first, last))
        return first * scale

    results = run_chunks(kernel, 4096, 10, min_rows=1)
    bounds = sorted(ran)
    assert len(bounds) == len(set(bounds)) == len(results)
    assert [first for first, _ in bounds] == [r // 10 for r in results]
    assert bounds[0][0] == 0 and bounds[-1][1] == 4096
    assert all(a[1] == b[0] for a, b in itertools.pairwise(bounds))


def test_the_calling_thread_shares_the_chunks_with_the_pool(two_threads: object) -> None:
    # A kernel releases the GIL (as the numba kernels do, nogil): while a pool thread runs
    # a chunk, the caller must take another, not wait for it.
    by_thread: dict[str, int] = {}

    def kernel(first: int, last: int) -> None:
        time.sleep(0.02)
        name = threading.current_thread().name
        by_thread[name] = by_thread.get(name, 0) + 1

    run_chunks(kernel, 8 * 256, min_rows=1)
    assert sum(by_thread.values()) == 8
    assert by_thread.get(threading.current_thread().name, 0) >= 2, by_thread


def test_a_chunk_that_fails_raises_in_the_caller(two_threads: object) -> None:
    def kernel(first: int, last: int) -> None:
        if first > 0:
            raise ValueError("chunk failed")

    with pytest.raises(ValueError, match="chunk failed"):
        run_chunks(kernel, 4096, min_rows=1)
