"""StepClock: fixed simulation steps driven by the frame clock, never starving drawing.

`Flock.update` steps a flock with one; the fish-tank game keeps its own. Why not arcade's
fixed updates alone: arcade 3.3's window offers them (``fixed_rate``) and a cap on them per
frame (``fixed_frame_cap``), but the capped time is never dropped: arcade's fixed clock keeps
the debt (its ``accumulated`` is the frame clock's time minus the steps taken), so after a
slow patch the game fast-forwards until it has caught up, and the fraction to draw at grows
past 1. So this small clock is fed from ``on_update``: each frame runs the whole fixed steps
that are due, at most `MAX_STEPS_PER_FRAME` and no more than fit in `STEP_BUDGET`, then drops
whatever is still owed. When the simulation cannot keep up, game time slows down and the
window keeps drawing and answering input. A frame that runs no step leaves `fraction` as it
was, so a paused picture stays still.
"""

import time
from collections.abc import Callable

STEP = 1.0 / 60.0
"""Seconds of game time in one fixed step."""
MAX_STEPS_PER_FRAME = 4
"""At most this many steps in one frame (a frame of 4 steps is 15 fps of drawing at worst,
when one step costs a quarter of the budget)."""
STEP_BUDGET = 0.030
"""Seconds of stepping after which a frame stops catching up and draws (then time slows)."""
LONGEST_FRAME = 0.25
"""A frame longer than this (a stall, a dragged window) counts as this long."""


class StepClock:
    """Turns frame times into fixed steps, at most a few a frame; pausing freezes it.

    Args:
        step: seconds of game time in one step.
        max_steps: most steps run in one frame.
        budget: seconds of stepping after which a frame stops catching up.
        now: the wall clock (seconds), for the budget.
    """

    def __init__(
        self,
        step: float = STEP,
        max_steps: int = MAX_STEPS_PER_FRAME,
        budget: float = STEP_BUDGET,
        now: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.step = step
        self.max_steps = max_steps
        self.budget = budget
        self.now = now
        self.paused = False
        self.owed = 0.0  # seconds of game time due but not yet stepped, < step after a tick
        self.dropped = 0.0  # seconds of game time dropped so far (the game ran slow)

    @property
    def fraction(self) -> float:
        """How far into the next step the frame is, in [0, 1): the alpha to draw at.

        It only changes when the clock ticks, so a paused picture stays exactly still.
        """
        return min(self.owed / self.step, 1.0)

    def tick(self, frame_time: float, step: Callable[[], None]) -> int:
        """Add a frame's time and call `step` for each fixed step due (bounded); returns how
        many ran. Nothing runs and no time is owed while paused."""
        if self.paused:
            return 0
        self.owed += min(max(frame_time, 0.0), LONGEST_FRAME)
        started = self.now()
        ran = 0
        while self.owed >= self.step and ran < self.max_steps:
            step()
            self.owed -= self.step
            ran += 1
            if self.now() - started >= self.budget:
                break
        if self.owed >= self.step:  # behind: game time slows, the drawing goes on
            behind = self.owed - self.owed % self.step
            self.dropped += behind
            self.owed -= behind
        return ran

    def reset(self) -> None:
        """Start afresh (a new level): nothing owed, the next frame draws the first step."""
        self.owed = 0.0
