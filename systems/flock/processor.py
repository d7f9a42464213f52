"""FlockProcessor: the base of shoal's esper processors (the stages)."""

import functools
from collections.abc import Callable
from typing import Any

import esper

from shoal.components import arguments as check
from shoal.systems.core.config import checked_dt
from shoal.systems.core.integrate import draw_noise
from shoal.systems.core.step import Step
from shoal.systems.core.store import FloatArray
from shoal.systems.flock.flock import Flock


class FlockProcessor(esper.Processor):
    """An esper processor that runs one stage of a flock's step.

    esper calls `process(*args)` with the arguments of `esper.process(...)`. The first of the
    flock's stages to run in an `esper.process` call begins the flock's next `Step` (a stage
    that finds the current step already run by itself knows a new one has started): it reads
    the step length from the first argument when that is a number (arcade's
    `on_fixed_update` gives it), else uses `FlockConfig.dt`. Every stage then runs
    `run(step)`. Other arguments are ignored, so a host can pass its own; a host may remove
    any stage and the others still step.
    """

    def __init__(self, flock: Flock) -> None:
        self.flock = check.instance(type(self).__name__, "flock", flock, Flock)
        self._ran = 0  # the number of the last step this stage ran

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "run" in cls.__dict__:
            # `process` calls the stage's own `run`: it has just found the current step, and
            # the check costs a call more per stage and step.
            cls._run_current = cls.__dict__["run"]  # type: ignore[method-assign]
            cls.run = _only_the_current_step(cls.__dict__["run"])  # type: ignore[method-assign,assignment]

    def process(self, *args: Any, **kwargs: Any) -> None:
        """Run this stage on the flock's current step, beginning it if it is new (esper
        calls this)."""
        flock = self.flock
        step = flock.step_state
        if self._ran >= step.number:
            step = flock._begin_step(self.step_length(args))  # dt checked there
        elif args and args[0] is not step.dt and check.is_number(args[0]) and args[0] != step.dt:
            # (`is`: esper hands every stage the number the first one began the step with)
            self._refuse_other_dt(args, step)
        self._ran = step.number
        self._run_current(step)

    def _run_current(self, step: Step) -> None:
        """`run` for the step `process` found current (a subclass's own `run`, unwrapped)."""
        self.run(step)

    def run(self, step: Step) -> None:
        """This stage's work on one step (each stage says what it reads and writes).

        Raises:
            ValueError: `step` is not the flock's current step (`flock.step_state`).
        """
        raise NotImplementedError

    def _noise(self, step: Step) -> FloatArray:
        """Each row's random turn this step (`Step.noise`), drawn from the flock's generator
        by the first stage that asks, so that every stage of the step uses the same draw."""
        if step.noise is None:
            flock = self.flock
            step.noise = draw_noise(flock.rng, flock.store.species, flock.species.params, step.dt)
        return step.noise

    def step_length(self, args: tuple[Any, ...]) -> float:
        """The dt of this step: `args[0]` if it is a number, else the configured dt.

        A number must lie in [0, MAX_DT]; 0 (or less than MIN_DT) is a paused step: the
        flock syncs with the world and resolves overlaps, but nothing moves. Anything else
        raises ValueError.
        """
        if not isinstance(args, tuple):
            check.fail("step_length", "args", args, "must be the tuple of esper.process arguments")
        if args and isinstance(args[0], int | float) and not isinstance(args[0], bool):
            return checked_dt(args[0], f"{type(self).__name__}.process")
        return self.flock.config.dt

    def _refuse_other_dt(self, args: tuple[Any, ...], step: Step) -> None:
        """A stage asked to run the current step with a dt of its own: refuse it (a bad dt
        with the reason, a good one because the step has begun with another)."""
        dt = self.step_length(args)
        if dt != step.dt:
            check.fail(
                f"{type(self).__name__}.process", "dt", args[0],
                f"differs from this step's dt = {step.dt!r} s (every stage of a step runs "
                "with the dt of the stage that began it)",
            )  # fmt: skip


def _only_the_current_step(run: Callable[[Any, Step], None]) -> Callable[[Any, Step], None]:
    """Wrap a stage's `run` so that it refuses anything but its flock's current step."""

    @functools.wraps(run)
    def checked(self: FlockProcessor, step: Step) -> None:
        if step is not self.flock.step_state:
            check.fail(
                f"{type(self).__name__}.run", "step", step,
                "must be the flock's current step (flock.step_state)",
            )  # fmt: skip
        run(self, step)

    return checked


FlockProcessor.run = _only_the_current_step(FlockProcessor.run)  # type: ignore[method-assign,assignment]
