"""The neighbour stage: the flock sorted into grid cells, for every boid's vision."""

import math

import numpy as np

from shoal.systems.core.grid import build_grid
from shoal.systems.core.processor import FlockProcessor
from shoal.systems.core.step import Step
from shoal.systems.core.vision import Cells
from shoal.systems.neighbours.kernel import gather_slots

# Cells are sized to hold about this many boids where the flock is, so that a boid in a
# crowd finds its nearest few in its own and the next cells and stops there.
BOIDS_PER_CELL = 3.0
# ... but never smaller than this share of the largest perception radius. Measured (500 and
# 10,000 boids, benchmarks/flock.py): smaller cells cost more in visits than they save in
# distance tests (share 0.25: 1.8 / 45 ms a step, 0.5: 1.9 / 37, 1.0: 1.3 / 23).
MIN_CELL_SHARE = 1.0


class NeighbourSystem(FlockProcessor):
    """Stage 1: sort the boids into grid cells (their numbers copied in cell order)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._area = 0.0  # the area the flock occupied at the last step (0: not yet known)

    def run(self, step: Step) -> None:
        """Writes `step.cells`: the flock in cell order, as it is when the step begins."""
        flock = self.flock
        store, config = flock.store, flock.config
        grid = build_grid(
            store.positions, self._cell_size(), config.wraps, config.width, config.height,
            config.origin,
        )  # fmt: skip
        slots = gather_slots(
            grid.order, grid.cell_x, grid.cell_y, grid.nx, grid.ny, store.positions,
            store.velocities, store.species, store.alarm,
            (grid.wrap, *config.origin, config.width, config.height),
        )  # fmt: skip
        cell, positions, velocities, species, alarm, *flat = slots
        step.cells = Cells(
            grid.order, cell, grid.cell_start, positions, velocities, species, alarm,
            grid.origin_x, grid.origin_y, grid.cell_w, grid.cell_h, grid.nx, grid.ny,
            grid.wrap, config.width, config.height, *flat,
        )  # fmt: skip
        occupied = np.count_nonzero(grid.cell_start[1:] != grid.cell_start[:-1])
        self._area = occupied * grid.cell_w * grid.cell_h

    def _cell_size(self) -> float:
        """A cell side for the flock's density: from the area it occupied last step (or its
        box), within [MIN_CELL_SHARE, 1] × the largest perception radius."""
        flock = self.flock
        radius = flock.species.max_perception
        n = len(flock.store)
        area = self._area
        if area <= 0.0 and n:
            config = flock.config
            low, high = flock.store.positions.min(axis=0), flock.store.positions.max(axis=0)
            area = float(np.prod(np.maximum(high - low, radius)))
            area = min(area, config.width * config.height) if config.wraps else area
        if n == 0 or area <= 0.0:
            return radius
        return min(radius, max(MIN_CELL_SHARE * radius, math.sqrt(BOIDS_PER_CELL * area / n)))
