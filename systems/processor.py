"""FlockProcessor: the base of shoal's esper processors."""

from typing import TYPE_CHECKING, Any

import esper

if TYPE_CHECKING:
    from shoal.systems.flock import Flock


class FlockProcessor(esper.Processor):
    """An esper processor that works on one flock.

    esper passes the arguments of `esper.process(...)` to every processor. shoal's processors
    read the step length from the first one when it is a number (arcade's `on_fixed_update`
    gives it), else they use `FlockConfig.dt`. Other arguments are ignored, so a host can pass
    its own.
    """

    def __init__(self, flock: "Flock") -> None:
        self.flock = flock

    def step_length(self, args: tuple[Any, ...]) -> float:
        """The dt of this step: `args[0]` if it is a positive number, else the configured dt."""
        if args and isinstance(args[0], int | float) and not isinstance(args[0], bool):
            dt = float(args[0])
            if 0.0 < dt <= 0.25:
                return dt
        return self.flock.config.dt
