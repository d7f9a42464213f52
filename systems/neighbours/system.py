"""The neighbour stage: the flock sorted into grid cells, for every boid's vision."""

import numpy as np

from shoal.systems.core.grid import build_grid
from shoal.systems.core.processor import FlockProcessor
from shoal.systems.core.species_table import P_PERCEPTION
from shoal.systems.core.step import Step
from shoal.systems.core.threads import LIGHT_NATIVE_MIN_ROWS, run_chunks
from shoal.systems.core.vision import Cells
from shoal.systems.neighbours.kernel import (
    empty_slots,
    gather_chunks,
    gather_slots,
    mark_cells,
)


class NeighbourSystem(FlockProcessor):
    """Stage 1: sort the boids into grid cells (their numbers copied in cell order)."""

    def run(self, step: Step) -> None:
        """Writes `step.cells`: the flock in cell order, as it is when the step begins."""
        flock = self.flock
        store, config = flock.store, flock.config
        grid = build_grid(
            store.positions, self._cell_size(), config.wraps, config.width, config.height,
            config.origin,
        )  # fmt: skip
        slots = empty_slots(len(store), grid.nx * grid.ny)
        run_chunks(
            gather_slots, len(store), grid.order, grid.cell_x, grid.cell_y, grid.ny,
            store.positions, store.velocities, store.species, store.alarm,
            (grid.wrap, *config.origin, config.width, config.height), slots, native=gather_chunks,
            native_min_rows=LIGHT_NATIVE_MIN_ROWS,
        )  # fmt: skip
        mark_cells(0, grid.nx * grid.ny, grid.cell_start, slots)  # reads in order: fast
        cell, positions, velocities, species, alarm, x, y, vx, vy, kinds, alarmed = slots
        step.cells = Cells(
            grid.order, cell, grid.cell_start, positions, velocities, species, alarm,
            grid.origin_x, grid.origin_y, grid.cell_w, grid.cell_h, grid.nx, grid.ny,
            grid.wrap, config.width, config.height, x, y, vx, vy, kinds, alarmed,
        )  # fmt: skip

    def _cell_size(self) -> float:
        """The perception radius of the species with the most boids (with none, the
        largest): those boids search their own cell and the 8 round it, and a species that
        sees farther walks more rings of cells. Sized for the largest radius instead, a
        tank's 2,000 fish (50 px) in a grid for its 2 sharks (150 px) each read hundreds of
        boids: 11 µs a fish a step. Smaller cells cost more in visits than they save in
        distance tests (measured: a share of 0.25 of the radius 1.8 / 45 ms a step at 500 /
        10,000 boids, 0.5: 1.9 / 37, 1: 1.3 / 23)."""
        table, store = self.flock.species, self.flock.store
        if len(store) == 0:
            return table.max_perception
        if len(table) == 1:
            return float(table.params[0, P_PERCEPTION])
        counts = np.bincount(store.species, minlength=len(table))
        return float(table.params[int(np.argmax(counts)), P_PERCEPTION])
