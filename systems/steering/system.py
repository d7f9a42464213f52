"""The steering stage: each boid's reaction to the boids it sees becomes an acceleration."""

import time

import numpy as np

from shoal.systems.core.processor import FlockProcessor
from shoal.systems.core.step import Step
from shoal.systems.core.threads import PARALLEL_MIN_BOIDS, run_chunks
from shoal.systems.steering.kernel import steer

HEAVY_SECONDS = 1.0e-3
"""A steering run that took longer than this was heavy (a dense school: each boid sees
hundreds): the next one is split over the threads from `HEAVY_MIN_BOIDS` boids on, not
only from `PARALLEL_MIN_BOIDS`. Results do not depend on the split."""
HEAVY_MIN_BOIDS = 512


class SteeringSystem(FlockProcessor):
    """Stage 2: flocking, avoidance, fleeing and chasing between boids.

    Writes the store's accelerations and alarm levels.
    """

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._heavy = False  # the last run took longer than HEAVY_SECONDS

    def run(self, step: Step) -> None:
        """Reads `step.cells`; writes `step.targets` (the prey each boid chases) and
        `step.goals` (its flee and chase terms)."""
        flock = self.flock
        store, cells, table = flock.store, step.cells, flock.species
        n = len(store)
        step.targets = np.full(n, -1, np.int64)
        goals = step.goals_for(n)
        if n == 0 or len(cells.row) != n or step.layout != store.layout:
            return  # boids came or went since the cells were sorted (a host's processor)
        started = time.perf_counter()
        run_chunks(
            steer, n, cells, store.cooldown, table.params, table.relations, step.dt,
            store.accelerations, store.alarm, step.targets, goals,
            min_rows=HEAVY_MIN_BOIDS if self._heavy else PARALLEL_MIN_BOIDS,
        )  # fmt: skip
        self._heavy = time.perf_counter() - started > HEAVY_SECONDS
