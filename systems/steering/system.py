"""The steering stage: each boid's reaction to the boids it sees becomes an acceleration."""

import numpy as np

from shoal.systems.core.processor import FlockProcessor
from shoal.systems.core.step import Step
from shoal.systems.steering.kernel import steer


class SteeringSystem(FlockProcessor):
    """Stage 2: flocking, avoidance, fleeing and chasing between boids.

    Writes the store's accelerations and alarm levels.
    """

    def run(self, step: Step) -> None:
        """Reads `step.neighbours`; writes `step.targets` (the prey each boid chases)."""
        flock = self.flock
        store, nb, table = flock.store, step.neighbours, flock.species
        n = len(store)
        step.targets = np.full(n, -1, np.int64)
        if n == 0 or len(nb) != n or step.layout != store.layout:
            return  # boids came or went since the neighbours were found (a host's processor)
        steer(
            nb.slot_velocities, nb.slot_species, nb.order, store.alarm[nb.order],
            store.cooldown, table.params, table.relations, nb.start, nb.stop, nb.slots,
            nb.dx, nb.dy, nb.dist, step.dt, store.accelerations, store.alarm, step.targets,
        )  # fmt: skip
