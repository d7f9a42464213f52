"""The steering stage: each boid's reaction to the boids it sees becomes an acceleration."""

from typing import Any

import numpy as np

from shoal.systems.core.processor import FlockProcessor
from shoal.systems.core.store import IntArray
from shoal.systems.steering.kernel import steer


class SteeringSystem(FlockProcessor):
    """Stage 2: flocking, avoidance, fleeing and chasing between boids.

    Writes the store's accelerations and alarm levels, and `targets`: for each row, the row
    of the prey it chases this step (-1: none), which the lifecycle stage uses for catches.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.targets: IntArray = np.zeros(0, np.int64)
        self.targets_layout = -1  # the store layout the targets' row numbers refer to

    def process(self, *args: Any, **kwargs: Any) -> None:
        """Steer every boid from the neighbours found this step."""
        flock = self.flock
        store, nb, table = flock.store, flock.neighbours, flock.species
        n = len(store)
        self.targets = np.full(n, -1, np.int64)
        self.targets_layout = store.layout
        if n == 0 or len(nb) != n:
            return
        steer(
            nb.slot_velocities, nb.slot_species, nb.order, store.alarm[nb.order],
            store.cooldown, table.params, table.relations, nb.start, nb.stop, nb.slots,
            nb.dx, nb.dy, nb.dist, self.step_length(args), store.accelerations, store.alarm,
            self.targets,
        )  # fmt: skip
