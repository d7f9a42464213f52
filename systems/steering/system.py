"""The steering stage: each boid's reaction to the boids it sees becomes an acceleration."""

import numpy as np

from shoal.systems.core.processor import FlockProcessor
from shoal.systems.core.step import Step
from shoal.systems.core.threads import run_chunks
from shoal.systems.steering.kernel import steer


class SteeringSystem(FlockProcessor):
    """Stage 2: flocking, avoidance, fleeing and chasing between boids.

    Writes the store's accelerations and alarm levels.
    """

    def run(self, step: Step) -> None:
        """Reads `step.cells`; writes `step.targets` (the prey each boid chases)."""
        flock = self.flock
        store, cells, table = flock.store, step.cells, flock.species
        n = len(store)
        step.targets = np.full(n, -1, np.int64)
        if n == 0 or len(cells.row) != n or step.layout != store.layout:
            return  # boids came or went since the cells were sorted (a host's processor)
        run_chunks(
            steer, n, cells, store.cooldown, table.params, table.relations, step.dt,
            store.accelerations, store.alarm, step.targets,
        )  # fmt: skip
