"""The steering stage: each boid's reaction to the boids it sees becomes an acceleration."""

import time

import numpy as np

from shoal.components.species import BOUNDARY_MODES
from shoal.systems.core.step import Step
from shoal.systems.core.store import FloatArray
from shoal.systems.core.threads import PARALLEL_MIN_BOIDS, run_chunks
from shoal.systems.core.vision import cells_record
from shoal.systems.flock.flock import Flock
from shoal.systems.flock.processor import FlockProcessor
from shoal.systems.steering.kernel import steer, steer_chunks, steer_in_order
from shoal.systems.steering.records import StateRecord
from shoal.systems.steering.route import rules_of

HEAVY_SECONDS = 3.0e-4
"""A steering run that took longer than this was heavy (a school of a few hundred, or a dense
one: each boid sees hundreds): the next one is split over the threads from `HEAVY_MIN_BOIDS`
boids on, not only from `PARALLEL_MIN_BOIDS`. Results do not depend on the split."""
HEAVY_MIN_BOIDS = 256


class SteeringSystem(FlockProcessor):
    """Stage 2: flocking, avoidance, fleeing and chasing between boids.

    Writes the store's accelerations and alarm levels.
    """

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._heavy = False  # the last run took longer than HEAVY_SECONDS

    def run(self, step: Step) -> None:
        """Reads `step.cells`; writes `step.targets` (the prey each boid chases),
        `step.goals` (its flee and chase terms) and `step.alarm_lead`."""
        flock = self.flock
        store, cells, table = flock.store, step.cells, flock.species
        n = len(store)
        goals = step.goals_for(n)
        if n == 0 or len(cells.row) != n or step.layout != store.layout:
            # Boids came or went since the cells were sorted (a host's processor).
            step.targets, step.alarm_lead = np.full(n, -1, np.int64), np.zeros(n)
            return
        # Every row is written by the kernel below (each boid's target and alarm lead).
        step.targets, step.alarm_lead = np.empty(n, np.int64), np.empty(n)
        if flock.config.update == "sequential":
            self._run_in_order(step, goals)
            return
        started = time.perf_counter()
        out = (store.accelerations, store.alarm, step.alarm_lead, step.targets, goals)
        least = HEAVY_MIN_BOIDS if self._heavy else PARALLEL_MIN_BOIDS
        run_chunks(
            steer, n, cells_record(cells), _state(flock), rules_of(table), step.dt,
            *flock.config.origin, out, min_rows=least, native=steer_chunks,
        )  # fmt: skip
        self._heavy = time.perf_counter() - started > HEAVY_SECONDS

    def _run_in_order(self, step: Step, goals: FloatArray) -> None:
        """One boid after the other, each moved before the next looks (on copies of the
        step's positions and velocities: `step.cells` stays as the step began)."""
        flock = self.flock
        store, cells, table, config = flock.store, step.cells, flock.species, flock.config
        moving = cells._replace(
            positions=cells.positions.copy(), velocities=cells.velocities.copy()
        )
        rank = np.empty_like(cells.row)
        rank[cells.row] = np.arange(len(cells.row))
        boundary = BOUNDARY_MODES.index(config.boundary)
        world = (boundary, config.width, config.height, config.margin, config.wall_weight)
        out = (store.accelerations, store.alarm, step.alarm_lead, step.targets, goals)
        steer_in_order(
            cells_record(moving), rank, _state(flock), rules_of(table), step.dt, config.origin,
            self._noise(step), world, store.kept, out,
        )  # fmt: skip


def _state(flock: Flock) -> StateRecord:
    """The store's per-boid state that the steering reads (`records.BoidState`)."""
    store = flock.store
    return store.cooldown, store.alarm_age, store.burst
