"""The motion stage: integrate the accelerations and apply the world boundary."""

from shoal.components.species import BOUNDARY_MODES
from shoal.systems.core.origin import from_origin
from shoal.systems.core.processor import FlockProcessor
from shoal.systems.core.step import Step
from shoal.systems.core.threads import run_chunks
from shoal.systems.motion.kernel import move


class MotionSystem(FlockProcessor):
    """Stage 5: limit turn and speed, move every boid, keep it in (or wrap it round) the world.

    The accelerations are those the earlier stages left in the store this step.
    """

    def run(self, step: Step) -> None:
        """Moves every boid by `step.dt` (positions, velocities)."""
        flock = self.flock
        store, config = flock.store, flock.config
        if len(store) == 0:
            return
        with from_origin(store.positions, config):  # the kernel's world starts at (0, 0)
            run_chunks(
                move,
                len(store),
                store.positions,
                store.velocities,
                store.accelerations,
                store.species,
                flock.species.params,
                step.dt,
                BOUNDARY_MODES.index(config.boundary),
                config.width,
                config.height,
                config.margin,
                config.wall_weight,
            )
        store.version += 1
        flock.steps += 1
