"""FlockProcessor: the base of shoal's esper processors."""

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import esper
import numba

from shoal.components import arguments as check
from shoal.systems.core.config import MAX_DT, MIN_DT

if TYPE_CHECKING:
    from shoal.systems.core.flock import Flock

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

    _process_name = "FlockProcessor.process"  # names the stage in a refused dt's message

    def __init__(self, flock: "Flock") -> None:
        from shoal.systems.core.flock import Flock  # flock.py imports this module

        self.flock = check.instance(type(self).__name__, "flock", flock, Flock)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._process_name = f"{cls.__name__}.process"
        if "process" in cls.__dict__:
            cls.process = _threads_for_flock_size(cls.__dict__["process"])  # type: ignore[method-assign]

    def step_length(self, args: tuple[Any, ...]) -> float:
        """The dt of this step: `args[0]` if it is a number, else the configured dt.

        A number must lie in [0, MAX_DT]; 0 (or less than MIN_DT) is a paused step: the
        flock syncs with the world and resolves overlaps, but nothing moves. Anything else
        raises ValueError.
        """
        if not isinstance(args, tuple):
            check.fail("step_length", "args", args, "must be the tuple of esper.process arguments")
        if args and isinstance(args[0], int | float) and not isinstance(args[0], bool):
            return checked_dt(args[0], self._process_name)
        return self.flock.config.dt


def checked_dt(dt: float, owner: str = "step") -> float:
    """`dt` as a float if it is a step length shoal can take, else a ValueError saying why."""
    value = float(dt)
    if not 0.0 <= value <= MAX_DT:  # also false for NaN
        raise ValueError(
            f"{owner}: dt = {dt!r} s must be in [0, {MAX_DT}] (a longer frame: step several "
            "times with a fixed dt)"
        )
    return value if value >= MIN_DT else 0.0


def _threads_for_flock_size(process: Callable[..., None]) -> Callable[..., None]:
    """Wrap a stage's `process` so that it refuses a bad dt before it runs, and a small
    flock's kernels run on one thread."""

    @functools.wraps(process)
    def sized(self: FlockProcessor, *args: Any, **kwargs: Any) -> None:
        self.step_length(args)  # a bad dt is refused before any stage changes anything
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
