"""FlockProcessor: the base of shoal's esper processors."""

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import esper
import numba

if TYPE_CHECKING:
    from shoal.systems.flock import Flock

PARALLEL_MIN_BOIDS = 4096
"""Below this many boids the kernels run on one thread: starting parallel work costs more
than it saves for a small flock, and far more on a busy machine (measured: 1800 steps of
150 boids took 33 s on 2 threads of a loaded 2-core machine, 0.7 s on one). Results do not
depend on the number of threads."""


class FlockProcessor(esper.Processor):
    """An esper processor that works on one flock.

    esper passes the arguments of `esper.process(...)` to every processor. shoal's processors
    read the step length from the first one when it is a number (arcade's `on_fixed_update`
    gives it), else they use `FlockConfig.dt`. Other arguments are ignored, so a host can pass
    its own.
    """

    def __init__(self, flock: "Flock") -> None:
        self.flock = flock

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "process" in cls.__dict__:
            cls.process = _threads_for_flock_size(cls.__dict__["process"])  # type: ignore[method-assign]

    def step_length(self, args: tuple[Any, ...]) -> float:
        """The dt of this step: `args[0]` if it is a positive number, else the configured dt."""
        if args and isinstance(args[0], int | float) and not isinstance(args[0], bool):
            dt = float(args[0])
            if 0.0 < dt <= 0.25:
                return dt
        return self.flock.config.dt


def _threads_for_flock_size(process: Callable[..., None]) -> Callable[..., None]:
    """Wrap a stage's `process` so that a small flock's kernels run on one thread."""

    @functools.wraps(process)
    def sized(self: FlockProcessor, *args: Any, **kwargs: Any) -> None:
        if len(self.flock.store) >= PARALLEL_MIN_BOIDS:
            process(self, *args, **kwargs)
            return
        threads = numba.get_num_threads()
        numba.set_num_threads(1)
        try:
            process(self, *args, **kwargs)
        finally:
            numba.set_num_threads(threads)

    return sized
