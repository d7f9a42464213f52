"""The motion stage: integrate the accelerations and apply the world boundary."""

import numpy as np

from shoal.components import Attractor
from shoal.components.species import BOUNDARY_MODES
from shoal.systems.core.step import Step
from shoal.systems.core.store import FloatArray
from shoal.systems.core.threads import LIGHT_NATIVE_MIN_ROWS, run_chunks
from shoal.systems.flock.agents import gather
from shoal.systems.flock.processor import FlockProcessor
from shoal.systems.motion import bodies
from shoal.systems.motion.kernel import Movers, keep_out, move, move_chunks
from shoal.systems.motion.origin import from_origin


class MotionSystem(FlockProcessor):
    """Stage 5: limit turn and speed, move every boid, keep it in (or wrap it round) the world.

    The accelerations are those the earlier stages left in the store this step. A boid never
    ends a step inside the dead radius of an attractor that draws it (`Attractor`).
    """

    _work: FloatArray = np.zeros((0, 8))  # the bodies' scratch (`bodies.scratch`)
    _grid: bodies.Grid = bodies.scratch(0)[1]
    touching: int = 0
    """How many boids touched another in the last step (the bodies parted them)."""

    def run(self, step: Step) -> None:
        """Moves every boid by `step.dt` (positions, velocities); runs the burst and alarm
        clocks (reads `step.cells` for the alarm levels the step began with)."""
        flock = self.flock
        store, config = flock.store, flock.config
        n = len(store)
        if n == 0:
            return
        boundary = BOUNDARY_MODES.index(config.boundary)
        attractors = gather(Attractor, flock.species)
        with from_origin(store.positions, config):  # the kernels' world starts at (0, 0)
            movers = (
                store.positions,
                store.velocities,
                store.accelerations,
                store.kept,
                store.species,
                store.alarm,
                store.alarm_age,
                store.burst,
            )
            walls = (boundary, config.width, config.height, config.margin, config.wall_weight)
            clock = (step.dt, self._noise(step), self._alarm_before(step), self._alarm_lead(step))
            records = (movers, flock.species.params, walls, clock)
            run_chunks(move, n, *records, native=move_chunks, native_min_rows=LIGHT_NATIVE_MIN_ROWS)
            self._keep_apart(step, movers, boundary)
            if len(attractors):
                centres = attractors.positions - np.asarray(config.origin)
                pits = (centres, attractors.inner, attractors.concerns)
                run_chunks(keep_out, n, movers, pits, walls)
        store.version += 1
        flock.steps += 1

    def _keep_apart(self, step: Step, movers: Movers, boundary: int) -> None:
        """Part flockmates closer than their personal space (`bodies`); positions from the
        world's corner (within `from_origin`)."""
        flock = self.flock
        store, config, table = flock.store, flock.config, flock.species
        reach = bodies.space(table.params)
        if reach <= 0.0:
            return
        n = len(store)
        if len(self._work) != n:
            self._work, self._grid = bodies.scratch(n)
        world = (boundary, float(config.width), float(config.height))
        self.touching = bodies.keep_apart(
            movers,
            table.params,
            table.relations,
            world,
            config.wraps,
            reach,
            step.dt,
            self._work,
            self._grid,
        )

    def _alarm_lead(self, step: Step) -> FloatArray:
        """`step.alarm_lead` if the steering stage wrote it for these rows, else empty."""
        lead = step.alarm_lead
        return lead if len(lead) == len(self.flock.store) else np.zeros(0)

    def _alarm_before(self, step: Step) -> FloatArray:
        """Each row's alarm level when the step began (the store's levels now if rows moved
        since)."""
        store, before = self.flock.store, step.start_alarm
        if step.layout != store.layout or len(before) != len(store):
            return store.alarm.copy()
        return before
