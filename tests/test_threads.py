"""The threads that run a flock's kernels in chunks (shoal.systems.core.threads): the pool
of Python threads, and numba's own threads while they are awake."""

import itertools
import multiprocessing
import threading
import time
from collections.abc import Callable, Iterator

import esper
import numpy as np
import pytest

from shoal.components import Circle, Leader, Obstacle, Position, Species, Velocity
from shoal.systems import FlockConfig, install, set_threads, threads
from shoal.systems.core import threads as pool
from shoal.systems.core.threads import native_always, native_threads, run_chunks


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


class Clock:
    """A stand-in for the threads module's clock: time passes only when told, so that the
    timing rules are tested exactly, whatever the machine's load."""

    def __init__(self) -> None:
        self.now = 100.0

    def perf_counter(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    """Two threads, numba's said to have two, no launch remembered, a stand-in clock; the
    launches of the stand-in drivers are noted in `launches`."""
    fake = Clock()
    launches.clear()
    monkeypatch.setattr(pool, "time", fake)
    monkeypatch.setattr(pool, "_last_runs", {})
    monkeypatch.setattr(pool, "_native_end", 0.0)
    monkeypatch.setattr(pool, "_busy", 0.0)
    monkeypatch.setattr(pool, "_span", 0.0)
    monkeypatch.setattr(pool, "_seen", 0.0)
    monkeypatch.setattr(pool, "_tallies", {})
    monkeypatch.setattr(pool, "native_threads", lambda: 2)
    before = threads()
    set_threads(2)
    yield fake
    set_threads(before)


launches: list[tuple[int, int, int]] = []  # (workers, chunks, n) of each stand-in launch


def a_driver(clock: Clock, pace: float = 1.0) -> Callable[..., None]:
    """A stand-in for a kernel's numba driver (a kernel of its own, to the timing rules):
    notes its launch, takes `seconds` × `pace` of the clock (the kernel on the pool takes
    `seconds`)."""

    def driver(workers: int, chunks: int, n: int, seconds: float) -> None:
        launches.append((workers, chunks, n))
        clock.sleep(seconds * pace)

    return driver


def a_kernel(clock: Clock) -> Callable[..., None]:
    """A stand-in for the kernel on the pool: takes `seconds` of the clock."""

    def kernel(first: int, last: int, seconds: float) -> None:
        clock.sleep(seconds)

    return kernel


def test_a_kernel_run_back_to_back_goes_to_numbas_threads(clock: Clock) -> None:
    kernel, driver = a_kernel(clock), a_driver(clock)
    # The first run has no history: the pool (one thread: under PARALLEL_MIN_BOIDS rows).
    run_chunks(kernel, 1000, 0.02, native=driver)
    assert launches == []
    # Called again at once after a run of 20 ms: back to back, numba's threads take it.
    run_chunks(kernel, 1000, 0.02, native=driver)
    assert launches == [(2, 3, 1000)]


def test_a_driver_not_compiled_yet_leaves_the_call_to_the_pool(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # After a package install the drivers compile in a child process (systems/ahead.py):
    # until they are in the cache, compiling one here would stall the step for seconds.
    kernel, driver = a_kernel(clock), a_driver(clock)
    monkeypatch.setattr(pool, "kernel_ready", lambda native: False)
    for _ in range(3):
        run_chunks(kernel, 1000, 0.02, native=driver)
    assert launches == []
    monkeypatch.setattr(pool, "kernel_ready", lambda native: True)
    run_chunks(kernel, 1000, 0.02, native=driver)
    assert launches == [(2, 3, 1000)]


def test_a_rested_kernel_stays_on_the_pool(clock: Clock) -> None:
    # A game stepping once a frame: the kernel idles far longer than it runs, and numba's
    # threads (asleep by then) are not woken for it.
    kernel, driver = a_kernel(clock), a_driver(clock)
    for _ in range(10):
        run_chunks(kernel, 1000, 0.001, native=driver)
        clock.sleep(0.02)
    assert launches == []


def test_stages_stepped_back_to_back_go_to_numbas_threads(clock: Clock) -> None:
    # Everything on: each stage idles longer than it runs (the others and their Python in
    # between), but the flock, stepped back to back, keeps the thread busy over half the time.
    kernel, stages = a_kernel(clock), [a_driver(clock) for _ in range(3)]
    for step in range(20):
        if step == 10:  # after a while (the busy share starts from a long rest)...
            launches.clear()
        for driver in stages:
            run_chunks(kernel, 1000, 0.003, native=driver)
            clock.sleep(0.0015)
    assert len(launches) == 30  # ...every stage goes to them


def test_stages_stepped_once_a_frame_stay_on_the_pool(clock: Clock) -> None:
    # A game: one step a frame, its stages one after the other, then the frame's rest.
    kernel, stages = a_kernel(clock), [a_driver(clock) for _ in range(3)]
    for _ in range(20):
        for driver in stages:
            run_chunks(kernel, 1000, 0.002, native=driver)
        clock.sleep(0.025)
    assert launches == []


def test_numbas_threads_stay_in_use_while_awake(clock: Clock) -> None:
    kernel = a_kernel(clock)
    with native_always():
        run_chunks(kernel, 1000, 0.0, native=a_driver(clock))
    # Right after a launch another kernel, never run before, is sent to them too.
    clock.sleep(0.5 * pool.HOT_SECONDS)
    run_chunks(kernel, 5000, 0.0, native=a_driver(clock))
    assert [n for _, _, n in launches] == [1000, 5000]
    clock.sleep(2 * pool.HOT_SECONDS)
    run_chunks(kernel, 5000, 0.0, native=a_driver(clock))
    assert len(launches) == 2  # asleep by now: the pool ran it


def test_small_runs_and_one_thread_never_go_to_numbas_threads(clock: Clock) -> None:
    kernel, driver = a_kernel(clock), a_driver(clock)
    for _ in range(2):
        run_chunks(kernel, pool.NATIVE_MIN_ROWS - 1, 0.01, native=driver)
    set_threads(1)
    for _ in range(2):
        run_chunks(kernel, 1000, 0.01, native=driver)
    assert launches == []


def back_to_back(clock: Clock, driver: Callable[..., None], seconds: float, calls: int) -> str:
    """Run a kernel of `seconds` `calls` times back to back; which way each call went:
    "n" numba's threads, "p" the pool."""
    kernel, ways = a_kernel(clock), []
    for _ in range(calls):
        before = len(launches)
        run_chunks(kernel, 1000, seconds, native=driver)
        ways.append("n" if len(launches) > before else "p")
    return "".join(ways)


def test_a_kernel_slower_on_numbas_threads_goes_back_to_the_pool(clock: Clock) -> None:
    # Another process keeps a core busy: a launch waits for the thread put aside (measured:
    # 150 boids stepped 7-9 times slower). The kernel returns to the pool, and tries
    # numba's threads again once every PROBE_SECONDS: twice in a row, since a launch that
    # wakes them is not counted (waking them costs what it costs).
    ways = back_to_back(clock, a_driver(clock, pace=8.0), 0.001, 1500)
    assert ways.startswith("pnnpp")
    assert tries_apart(ways, "n", 2, pool.PROBE_SECONDS / 0.001) == 2


def tries_apart(ways: str, way: str, length: int, calls: float) -> int:
    """How many times the calls went `way` after the first, checking that each time it
    took `length` calls in a row, `calls` calls (PROBE_SECONDS) after the time before, give
    or take a few."""
    runs, start = [], 0
    for char, group in itertools.groupby(ways):
        size = len(list(group))
        if char == way:
            runs.append((start, size))
        start += size
    gaps = [b - a for (a, _), (b, _) in itertools.pairwise(runs)]
    assert all(size == length for _, size in runs), runs
    assert all(abs(gap - calls) <= 3 for gap in gaps), gaps
    return len(gaps)


def test_a_kernel_faster_on_numbas_threads_stays_on_them(clock: Clock) -> None:
    # The pool is tried once every PROBE_SECONDS: its cost stays current.
    ways = back_to_back(clock, a_driver(clock, pace=0.5), 0.004, 1000)
    assert ways.startswith("pnnn")
    assert tries_apart(ways, "p", 1, pool.PROBE_SECONDS / 0.002) == 3


def test_a_kernel_returns_to_numbas_threads_once_the_machine_is_free(clock: Clock) -> None:
    pace = [8.0]

    def driver(workers: int, chunks: int, n: int, seconds: float) -> None:
        launches.append((workers, chunks, n))
        clock.sleep(seconds * pace[0])

    assert back_to_back(clock, driver, 0.001, 20) == "pnn" + "p" * 17
    pace[0] = 0.5  # the other process is done: the next try finds them cheaper, and stays
    ways = back_to_back(clock, driver, 0.001, 1000)
    first = ways.index("n")
    assert first < pool.PROBE_SECONDS / 0.001 and "p" not in ways[first : first + 200], ways


def test_one_slow_launch_does_not_send_a_kernel_to_the_pool(clock: Clock) -> None:
    # A thread the system put aside for a moment: one launch of many took 20 times as long.
    paces = iter([0.5] * 50 + [20.0] + [0.5] * 50)

    def driver(workers: int, chunks: int, n: int, seconds: float) -> None:
        launches.append((workers, chunks, n))
        clock.sleep(seconds * next(paces))

    assert back_to_back(clock, driver, 0.001, 100) == "p" + "n" * 99


def test_numbas_threads_need_its_openmp_layer(monkeypatch: pytest.MonkeyPatch) -> None:
    # numba's "workqueue" layer aborts the process when two threads launch at once.
    import numba

    native_threads.cache_clear()
    monkeypatch.setattr(numba, "threading_layer", lambda: "workqueue")
    try:
        assert native_threads() == 1
    finally:
        native_threads.cache_clear()


def flock_state(
    world: str, steps: int, count: int, always: bool, crowd: bool = False
) -> np.ndarray:
    """Positions and velocities of 1,200 fish (a rock, a leader) after `steps` steps on
    `count` threads, on numba's threads at every stage that has a driver if `always`;
    `crowd`: the fish packed in a disc, ~45 to a cell of their radius, which the grid
    halves (`neighbours.kernel.crowded`); without bodies, which would part them first."""
    before = threads()
    set_threads(count)
    try:
        fish = Species("fish", personal_space=0.0) if crowd else Species("fish")
        flock = install(FlockConfig(width=900, height=700, seed=4), [fish], world=world)
        with flock.in_world():
            esper.create_entity(Obstacle(Circle(450, 350, 60)))
            esper.create_entity(Position(800, 350), Velocity(0, 0), Leader())
        centre, radius = ((220.0, 350.0), 140.0) if crowd else (None, None)
        flock.scatter("fish", 1200, centre, radius)
        for _ in range(steps):
            if always:
                with native_always():
                    flock.step()
            else:
                flock.step()
            if crowd:
                assert flock.step_state.cells.size_x < fish.perception_radius
        return np.hstack([flock.positions, flock.velocities])
    finally:
        set_threads(before)
        esper.delete_world(world)


@pytest.mark.skipif(native_threads() < 2, reason="numba's OpenMP threads are not used here")
@pytest.mark.parametrize("crowd", [False, True])
def test_numbas_threads_give_the_flock_of_one_thread(crowd: bool) -> None:
    one = flock_state(f"native-one-{crowd}", 30, 1, always=False, crowd=crowd)
    assert np.array_equal(one, flock_state(f"native-two-{crowd}", 30, 2, always=True, crowd=crowd))


def _step_in_child(queue: "multiprocessing.Queue[object]") -> None:
    state = flock_state("forked-child", 3, 2, always=True)
    queue.put((pool._forked, float(np.abs(state).sum())))


@pytest.mark.skipif(native_threads() < 2, reason="numba's OpenMP threads are not used here")
def test_a_forked_child_steps_on_the_pool() -> None:
    # GNU OpenMP does not survive a fork: a child that launched numba's threads would be
    # killed ("fork() called from a process already using GNU OpenMP").
    flock_state("before-fork", 2, 2, always=True)  # this process has started them
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_step_in_child, args=(queue,))
    child.start()
    child.join(120)
    assert child.exitcode == 0
    forked, total = queue.get(timeout=5)
    assert forked is True and np.isfinite(total)
