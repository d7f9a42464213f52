"""The motion stage: integrate the accelerations and apply the world boundary."""

from typing import Any

from shoal.components.species import BOUNDARY_MODES
from shoal.systems.core.processor import FlockProcessor
from shoal.systems.motion.kernel import move


class MotionSystem(FlockProcessor):
    """Stage 5: limit turn and speed, move every boid, keep it in (or wrap it round) the world.

    The accelerations are those the earlier stages left in the store this step.
    """

    def process(self, *args: Any, **kwargs: Any) -> None:
        """Advance every boid by one fixed step."""
        flock = self.flock
        store, config = flock.store, flock.config
        if len(store) == 0:
            return
        move(
            store.positions,
            store.velocities,
            store.accelerations,
            store.species,
            flock.species.params,
            self.step_length(args),
            BOUNDARY_MODES.index(config.boundary),
            config.width,
            config.height,
            config.margin,
            config.wall_weight,
        )
        store.version += 1
        flock.steps += 1
