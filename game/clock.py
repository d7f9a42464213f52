"""The game's clock: `StepClock`, which lives in `shoal.systems.flock.clock` (a host game's
`Flock.update` uses it too); the game's step length and limits are its defaults."""

from shoal.systems.flock.clock import (
    LONGEST_FRAME,
    MAX_STEPS_PER_FRAME,
    STEP,
    STEP_BUDGET,
    StepClock,
)

__all__ = ["LONGEST_FRAME", "MAX_STEPS_PER_FRAME", "STEP", "STEP_BUDGET", "StepClock"]
